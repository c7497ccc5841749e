/* tests/reduce_stack_common.h - data patterns and host reference models shared
 * by the CPU tests (tests/cpu/test_block_reduce.c, tests/cpu/test_stack.c) and
 * the GPU test (tests/gpu/reduce_stack_test.cu). Plain C that also compiles
 * as CUDA C++; include after <tile.h>.
 *
 * argmin / argmax: patterns of test data per element type (random values
 * with many duplicates, all equal, edges, type extremes, NaNs, +-0, +-inf)
 * and the reference (NaN is the extreme, first index wins, -0 == +0).
 *
 * tile_stack: a script of operations (push with one of several flag
 * patterns, pop, clear, count), the same on both targets, and a model of the
 * documented semantics for a block of B threads (B = 1 on the CPU) that
 * gives every thread's expected result, the count after every operation and
 * the storage contents at the end.
 */
#ifndef REDUCE_STACK_COMMON_H
#define REDUCE_STACK_COMMON_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * argmin / argmax data
 * ====================================================================== */
enum {
    RS_P_RAND,    /* small values, many duplicates */
    RS_P_TIES,    /* all equal: index 0 for both */
    RS_P_EDGE,    /* unique minimum last, maximum tied at 0 and n/2 */
    RS_P_EXTREME, /* the type's lowest and highest values, each twice */
    RS_NPAT_INT,  /* integer types stop here */
    RS_P_NAN = RS_NPAT_INT, /* NaN at n/2 and n-1 */
    RS_P_NAN0,    /* NaN at 0 */
    RS_P_NANALL,  /* every element NaN */
    RS_P_ZERO,    /* -0, +0, -0, ... then 1 at the end */
    RS_P_ZERO2,   /* positive values, +0 at n/3, -0 at n/2 */
    RS_P_INF,     /* -inf at n/2, +inf at n/3 and n-1 */
    RS_NPAT
};

static inline uint32_t rs_hash(uint32_t a, uint32_t b) {
    uint32_t x = a * 0x9e3779b9u ^ (b + 0x7f4a7c15u) * 0x85ebca6bu;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    x *= 0x297a2d39u;
    x ^= x >> 15;
    return x;
}
static inline int rs_isnan(double d) { return d != d; }
/* special values through functions: (T)NAN with T an integer type is a
 * constant-conversion error even in a branch that is never taken */
static inline double rs_nan(void) { return (double)NAN; }
static inline double rs_inf(void) { return (double)INFINITY; }

/* rs_fill_<sfx>(x, n, p, seed): pattern p of length n */
#define RS_DEF_FILL(sfx, T, ISF, UNS, TMIN, TMAX)                                  \
    static inline void rs_fill_##sfx(T *x, int n, int p, uint32_t seed) {          \
        for (int i = 0; i < n; ++i) {                                              \
            const uint32_t h = rs_hash(seed * 131u + (uint32_t)p, (uint32_t)i);    \
            const int v = (int)(h % 101u) - ((UNS) ? 0 : 50);                      \
            x[i] = (T)v;                                                           \
            if (p == RS_P_TIES) x[i] = (T)7;                                       \
            if (p == RS_P_EDGE || p == RS_P_ZERO2) x[i] = (T)(10 + (int)(h % 50u)); \
            if (p == RS_P_ZERO) x[i] = (T)((i % 2) ? 0.0 : -0.0);                  \
        }                                                                          \
        switch (p) {                                                               \
        case RS_P_EDGE:                                                            \
            x[n / 2] = (T)99;                                                      \
            x[0] = (T)99;                                                          \
            x[n - 1] = (T)1;                                                       \
            break;                                                                 \
        case RS_P_EXTREME:                                                         \
            x[n / 3] = (TMIN);                                                     \
            x[n - 1] = (TMIN);                                                     \
            x[n / 2] = (TMAX);                                                     \
            x[(2 * n) / 3] = (TMAX);                                               \
            break;                                                                 \
        case RS_P_NAN:                                                             \
            if (ISF) x[n / 2] = x[n - 1] = (T)rs_nan();                                 \
            break;                                                                 \
        case RS_P_NAN0:                                                            \
            if (ISF) x[0] = (T)rs_nan();                                                \
            break;                                                                 \
        case RS_P_NANALL:                                                          \
            if (ISF)                                                               \
                for (int i = 0; i < n; ++i) x[i] = (T)rs_nan();                         \
            break;                                                                 \
        case RS_P_ZERO:                                                            \
            if (n > 1) x[n - 1] = (T)1;                                            \
            break;                                                                 \
        case RS_P_ZERO2:                                                           \
            x[n / 3] = (T)0.0;                                                     \
            x[n / 2] = (T)(-0.0);                                                  \
            break;                                                                 \
        case RS_P_INF:                                                             \
            if (ISF) {                                                             \
                x[n / 2] = (T)(-rs_inf());                                         \
                x[n / 3] = (T)rs_inf();                                            \
                x[n - 1] = (T)rs_inf();                                            \
            }                                                                      \
            break;                                                                 \
        default: break;                                                            \
        }                                                                          \
    }
RS_DEF_FILL(f32, float, 1, 0, -FLT_MAX, FLT_MAX)
RS_DEF_FILL(f64, double, 1, 0, -DBL_MAX, DBL_MAX)
RS_DEF_FILL(i32, int32_t, 0, 0, INT32_MIN, INT32_MAX)
RS_DEF_FILL(u32, uint32_t, 0, 1, (uint32_t)0, UINT32_MAX)
RS_DEF_FILL(i64, int64_t, 0, 0, INT64_MIN, INT64_MAX)
RS_DEF_FILL(u64, uint64_t, 0, 1, (uint64_t)0, UINT64_MAX)

/* reference: first NaN if any; else first minimum / maximum (-0 == +0) */
#define RS_DEF_REF(sfx, T)                                                         \
    static inline void rs_ref_arg_##sfx(const T *x, int n, int *amin, int *amax) { \
        int mn = 0, mx = 0;                                                        \
        for (int i = 1; i < n; ++i) {                                              \
            const int xn = rs_isnan((double)x[i]);                                 \
            if (!rs_isnan((double)x[mn]) && (xn || x[i] < x[mn])) mn = i;          \
            if (!rs_isnan((double)x[mx]) && (xn || x[i] > x[mx])) mx = i;          \
        }                                                                          \
        *amin = mn;                                                                \
        *amax = mx;                                                                \
    }
RS_DEF_REF(f32, float)
RS_DEF_REF(f64, double)
RS_DEF_REF(i32, int32_t)
RS_DEF_REF(u32, uint32_t)
RS_DEF_REF(i64, int64_t)
RS_DEF_REF(u64, uint64_t)

/* ======================================================================
 * tile_stack script and model
 * ====================================================================== */
enum { RS_PUSH, RS_POP, RS_CLEAR, RS_COUNT };
/* which threads offer a value in a push */
enum { RS_F_ALL, RS_F_NONE, RS_F_EVEN, RS_F_RAND, RS_F_FIRST3, RS_F_LAST, RS_NF };
typedef struct rs_op {
    int kind, mode;
} rs_op;

/* has_value of thread t (of B) in operation q with flag pattern mode */
TILE_FUNC int rs_flag(int mode, int q, int t, int B) {
    switch (mode) {
    case RS_F_ALL: return 1;
    case RS_F_NONE: return 0;
    case RS_F_EVEN: return t % 2 == 0;
    case RS_F_RAND: return (tile_hash32((uint32_t)q * 7919u + 17u, (uint32_t)t) >> 7) % 3u != 0u;
    case RS_F_FIRST3: return t < 3;
    default: return t == B - 1;
    }
}
/* which threads read the count in a count operation (divergent on purpose:
 * tile_stack_count is not cooperative); the others record -7 */
TILE_FUNC int rs_count_reader(int t, int B) { return B == 1 || t % 3 == 1; }
/* identity of the value thread t pushes in operation q (never 0: 0 is the
 * zero value a failed pop returns) */
TILE_FUNC int rs_id(int q, int t) { return q * 4099 + t + 1; }

/* The script for a block of B threads and capacity cap: fill to the top in
 * pushes of changing patterns, overflow twice, pop past empty, clear and
 * reuse. Returns the number of operations (at most max). */
static inline int rs_script(rs_op *ops, int max, int B, int cap) {
    int n = 0, cnt = 0, k = 0;
#define RS_ADD(kd, md)                                                             \
    do {                                                                           \
        if (n < max) {                                                             \
            ops[n].kind = (kd);                                                    \
            ops[n].mode = (md);                                                    \
            ++n;                                                                   \
        }                                                                          \
    } while (0)
    RS_ADD(RS_COUNT, 0);
    RS_ADD(RS_POP, 0); /* empty: every thread gets -1 */
    RS_ADD(RS_PUSH, RS_F_NONE);
    RS_ADD(RS_COUNT, 0);
    /* fill: pushes of changing patterns until full (counting as the model does) */
    while (cnt < cap && n < max - 40) {
        const int mode = (k++) % RS_NF;
        int offers = 0;
        for (int t = 0; t < B; ++t) offers += rs_flag(mode, n, t, B);
        RS_ADD(RS_PUSH, mode);
        cnt = cnt + offers < cap ? cnt + offers : cap;
    }
    RS_ADD(RS_PUSH, RS_F_ALL); /* overflow: every offer dropped */
    RS_ADD(RS_PUSH, RS_F_EVEN);
    RS_ADD(RS_COUNT, 0);
    /* pop to empty and once more */
    while (cnt > 0 && n < max - 20) {
        RS_ADD(RS_POP, 0);
        cnt -= cnt < B ? cnt : B;
    }
    RS_ADD(RS_POP, 0);
    RS_ADD(RS_COUNT, 0);
    /* reuse: push, partial pop, push, clear, push */
    RS_ADD(RS_PUSH, RS_F_RAND);
    RS_ADD(RS_PUSH, RS_F_LAST);
    RS_ADD(RS_POP, 0);
    RS_ADD(RS_PUSH, RS_F_FIRST3);
    RS_ADD(RS_CLEAR, 0);
    RS_ADD(RS_COUNT, 0);
    RS_ADD(RS_POP, 0);
    RS_ADD(RS_PUSH, RS_F_EVEN);
    RS_ADD(RS_PUSH, RS_F_ALL);
    RS_ADD(RS_COUNT, 0);
    RS_ADD(RS_POP, 0);
#undef RS_ADD
    return n;
}

/* Model of the documented semantics. For every operation q and thread t:
 * ret[q*B+t] the call's result (push/pop: slot or -1; count: the count;
 * clear: 0; count: the count, or -7 for threads that do not read it), cnt[q*B+t] the count after the operation, val[q*B+t] the id of
 * the popped value (0 if none). store[0..cap) ends as the id last written to
 * each slot (0: never written). */
static inline void rs_model(const rs_op *ops, int nops, int B, int cap, int *ret, int *cnt, int *val, int *store) {
    int c = 0;
    for (int s = 0; s < cap; ++s) store[s] = 0;
    for (int q = 0; q < nops; ++q) {
        int *r = ret + (size_t)q * B, *v = val + (size_t)q * B;
        for (int t = 0; t < B; ++t) r[t] = v[t] = 0;
        if (ops[q].kind == RS_PUSH) {
            int rank = 0;
            for (int t = 0; t < B; ++t) {
                r[t] = -1;
                if (!rs_flag(ops[q].mode, q, t, B)) continue;
                if (c + rank < cap) {
                    r[t] = c + rank;
                    store[c + rank] = rs_id(q, t);
                }
                ++rank;
            }
            c = c + rank < cap ? c + rank : cap;
        } else if (ops[q].kind == RS_POP) {
            for (int t = 0; t < B; ++t) {
                r[t] = t < c ? c - 1 - t : -1;
                v[t] = r[t] >= 0 ? store[r[t]] : 0;
            }
            c -= c < B ? c : B;
        } else if (ops[q].kind == RS_CLEAR) {
            c = 0;
        } else {
            for (int t = 0; t < B; ++t) r[t] = rs_count_reader(t, B) ? c : -7;
        }
        for (int t = 0; t < B; ++t) cnt[(size_t)q * B + t] = c;
    }
}

/* values pushed by the tests, from their identity; id 0 never occurs (a
 * failed pop gives zero bytes instead) */
TILE_FUNC int32_t rs_mk_i32(int id) { return (int32_t)id; }
TILE_FUNC double rs_mk_f64(int id) { return id + 0.5; }
TILE_FUNC tile_vec3f rs_mk_v3f(int id) { return tile_vec3f_set((float)id, (float)-id, (float)id * 0.25f); }
static inline void rs_mkb_i32(int id, void *d) { int32_t v = rs_mk_i32(id); memcpy(d, &v, sizeof(v)); }
static inline void rs_mkb_f64(int id, void *d) { double v = rs_mk_f64(id); memcpy(d, &v, sizeof(v)); }
static inline void rs_mkb_v3f(int id, void *d) { tile_vec3f v = rs_mk_v3f(id); memcpy(d, &v, sizeof(v)); }
typedef void (*rs_mk_fn)(int id, void *dst);

enum { RS_GUARD = 64, RS_POISON = 0xAB };
/* Check one run of the script against the model. ret/cnt: per operation and
 * thread; pv: the popped values (esize bytes each, zero bytes expected when
 * nothing was popped). dump: with raw != 0 the stack's whole storage plus
 * RS_GUARD bytes, poisoned with RS_POISON before the stack was declared (the
 * count in the first 4 bytes, untouched padding, written slots, unwritten
 * slots and guards still poison); with raw == 0 the cap elements only (slots
 * never written are not checked) and dcount the final count. Prints the first
 * errors; returns the number of errors. */
static inline long rs_check_stack(const char *what, int B, int cap, const rs_op *ops, int nops, const int *ret,
                                  const int *cnt, const unsigned char *pv, size_t esize, rs_mk_fn mk,
                                  const unsigned char *dump, int raw, int dcount) {
    const size_t n = (size_t)nops * B;
    int *eret = (int *)malloc(n * sizeof(int)), *ecnt = (int *)malloc(n * sizeof(int));
    int *eval = (int *)malloc(n * sizeof(int)), *store = (int *)malloc((size_t)cap * sizeof(int));
    unsigned char want[64], zero[64];
    long bad = 0;
    memset(zero, 0, sizeof(zero));
#define RS_BAD(...)                                                                \
    do {                                                                           \
        if (bad++ < 8) {                                                           \
            printf("  stack %s (block %d, capacity %d): ", what, B, cap);          \
            printf(__VA_ARGS__);                                                   \
            printf("\n");                                                          \
        }                                                                          \
    } while (0)
    if (!eret || !ecnt || !eval || !store || esize > sizeof(want)) {
        printf("  stack %s: out of memory\n", what);
        free(eret);
        free(ecnt);
        free(eval);
        free(store);
        return 1;
    }
    rs_model(ops, nops, B, cap, eret, ecnt, eval, store);
    for (size_t i = 0; i < n; ++i) {
        const int q = (int)(i / (size_t)B), t = (int)(i % (size_t)B);
        if (ret[i] != eret[i]) RS_BAD("op %d (kind %d, mode %d) thread %d: returned %d, expected %d", q, ops[q].kind, ops[q].mode, t, ret[i], eret[i]);
        if (cnt[i] != ecnt[i]) RS_BAD("op %d (kind %d) thread %d: count after %d, expected %d", q, ops[q].kind, t, cnt[i], ecnt[i]);
        if (eval[i]) mk(eval[i], want);
        if (memcmp(pv + i * esize, eval[i] ? want : zero, esize))
            RS_BAD("op %d (kind %d) thread %d: popped value differs from id %d", q, ops[q].kind, t, eval[i]);
    }
    const int fin = nops ? ecnt[n - 1] : 0;
    if (raw) {
        int c;
        memcpy(&c, dump, sizeof(int));
        if (c != fin) RS_BAD("stored count %d, expected %d", c, fin);
        for (int b = 4; b < 16; ++b)
            if (dump[b] != RS_POISON) RS_BAD("header byte %d changed", b);
        for (int s = 0; s < cap; ++s) {
            const unsigned char *e = dump + 16 + (size_t)s * esize;
            if (store[s]) {
                mk(store[s], want);
                if (memcmp(e, want, esize)) RS_BAD("slot %d does not hold id %d", s, store[s]);
            } else {
                for (size_t b = 0; b < esize; ++b)
                    if (e[b] != RS_POISON) {
                        RS_BAD("slot %d was never pushed but changed", s);
                        break;
                    }
            }
        }
        const size_t end = TILE_STACK_BYTES(char, 0) + (size_t)cap * esize; /* 16 + elements */
        const size_t total = ((16 + (size_t)cap * esize + 15) & ~(size_t)15) + RS_GUARD;
        for (size_t b = end; b < total; ++b)
            if (dump[b] != RS_POISON) {
                RS_BAD("written past capacity: byte %zu after the last slot", b - end);
                break;
            }
    } else {
        if (dcount != fin) RS_BAD("final count %d, expected %d", dcount, fin);
        for (int s = 0; s < cap; ++s)
            if (store[s]) {
                mk(store[s], want);
                if (memcmp(dump + (size_t)s * esize, want, esize)) RS_BAD("slot %d does not hold id %d", s, store[s]);
            }
    }
    if (bad > 8) printf("  stack %s (block %d, capacity %d): %ld errors in all\n", what, B, cap, bad);
#undef RS_BAD
    free(eret);
    free(ecnt);
    free(eval);
    free(store);
    return bad;
}

#endif /* REDUCE_STACK_COMMON_H */
