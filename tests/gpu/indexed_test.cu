/* tests/gpu/indexed_test.cu - gathers and scatters (tile/indexed.h) on the GPU
 * and on the CPU target of the same nvcc build, each run checked against a
 * plain host loop.
 *
 *   indexed_test             GPU 0 (when there is one), then the CPU target
 *   indexed_test --cpu-only  the CPU target only (CI machines without a GPU)
 *
 * Covered: tile_load_indexed / tile_store_indexed / tile_atomic_add_indexed
 * (1D, 2D along axis 0 and 1; register and shared tiles and index tiles;
 * i32 and i64 indices), tile_assign, tile_extract (every position of a
 * register tile with block 64 and 96, read back in every thread),
 * tile_scatter_add (collisions from many threads), tile_scatter_masked_tiles; f32,
 * i32, f64 and vec3f elements; tiles whose size is not a multiple of the
 * block; indices negative, -1 and past the end; offsets partly or wholly
 * outside. Several blocks run at once, each with its own offsets and indices.
 *
 * Inputs come from tile_hash32 and are never zero (so a zero read outside the
 * array is told apart from data); outputs are poisoned before each launch
 * (NaN bytes for floating point, 0xAB for integers). Sums use multiples of
 * 1/64 so that every order of the atomic adds gives the same bits.
 *
 * Prints one FAIL line per failed check and last the summary
 * "indexed_test: N checks, M failed (targets: gpu+cpu|cpu)"; the exit code is
 * nonzero on any failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define GC_MAX_PRINTED 400
#include "gpu_check.h"
/* the coordinate an index reaches: x + o, or nowhere for a negative index
 * ("negative means skip", every indexed operation) */
#define TI_AT(x, o) ((x) < 0 ? -(1 << 29) : (x) + (o))

/* ---- element types of the tests, described at run time ---- */
enum { K_F32 = 0, K_I32 = 1, K_F64 = 2 };
typedef struct tdesc {
    const char *name;
    int kind;  /* component type */
    int comps; /* components per element */
    size_t es; /* bytes per element */
} tdesc;
static double comp_get(const tdesc *d, const void *p, long c) {
    switch (d->kind) {
    case K_F32: return ((const float *)p)[c];
    case K_I32: return ((const int32_t *)p)[c];
    default: return ((const double *)p)[c];
    }
}
static void comp_set(const tdesc *d, void *p, long c, double v) {
    switch (d->kind) {
    case K_F32: ((float *)p)[c] = (float)v; break;
    case K_I32: ((int32_t *)p)[c] = (int32_t)v; break;
    default: ((double *)p)[c] = v; break;
    }
}
static const char *fmt_elem(const tdesc *d, const void *p, long e, char *buf, size_t n) {
    size_t k = 0;
    k += (size_t)snprintf(buf + k, n - k, "(");
    for (int c = 0; c < d->comps && k < n; ++c)
        k += (size_t)snprintf(buf + k, n - k, c ? " %.17g" : "%.17g", comp_get(d, p, e * d->comps + c));
    if (k < n) snprintf(buf + k, n - k, ")");
    return buf;
}
/* got[i] == exp[i] byte for byte, n elements */
static void check_elems_(const char *f, int l, const char *what, const tdesc *d, const void *got, const void *exp,
                         long n) {
    long bad = 0;
    for (long i = 0; i < n; ++i) {
        ++g_checks;
        if (memcmp((const char *)got + i * d->es, (const char *)exp + i * d->es, d->es) == 0) continue;
        char b1[160], b2[160];
        fail_elem(&bad, f, l, "%s [%s] element %ld = %s, expected %s", what, d->name, i, fmt_elem(d, got, i, b1, 160),
                  fmt_elem(d, exp, i, b2, 160));
    }
    fail_elem_total(f, l, what, bad, n);
}
#define CHECK_ELEMS(what, d, got, exp, n) check_elems_(__FILE__, __LINE__, what, d, got, exp, n)
/* scalar elements equal to double references (exact data: tolerance 0) */
static void check_num_(const char *f, int l, const char *what, const tdesc *d, const void *got, const double *ref,
                       long n) {
    long bad = 0;
    for (long i = 0; i < n; ++i) {
        ++g_checks;
        const double g = comp_get(d, got, i);
        if (g == ref[i]) continue;
        fail_elem(&bad, f, l, "%s [%s] [%ld] = %.17g, expected %.17g", what, d->name, i, g, ref[i]);
    }
    fail_elem_total(f, l, what, bad, n);
}
#define CHECK_NUM(what, d, got, ref, n) check_num_(__FILE__, __LINE__, what, d, got, ref, n)

/* ========================================================================
 * input data
 * ======================================================================== */
static int poison_byte(const tdesc *d) { return d->kind == K_I32 ? POISON_I : POISON_F; }

/* non-zero inputs from tile_hash32: +-[0.25, 4) for float components; more
 * bits than a float holds for double; [-1000, 1000] \ {0} for i32. dyadic:
 * multiples of 1/64 in +-[1/64, 2] (sums of a few thousand exact in float). */
static double hvalue(int kind, uint32_t seed, uint32_t i, int dyadic) {
    const uint32_t h = tile_hash32(seed, i), s = tile_hash32(seed ^ 0x5bd1e995u, i) & 1u;
    if (kind == K_I32) {
        int v = (int)(h % 2001u) - 1000;
        return v ? v : 7;
    }
    if (dyadic) return (s ? -1.0 : 1.0) * (double)(1 + h % 128u) / 64.0;
    double m = 0.25 + 3.75 * (double)(h >> 8) / 16777216.0;
    if (kind == K_F64) m += (double)(tile_hash32(seed + 1u, i) % 1000u) * 1e-12;
    return (s ? -m : m);
}
static void fill(const tdesc *d, void *p, long n, uint32_t seed, int dyadic) {
    for (long c = 0; c < n * d->comps; ++c) comp_set(d, p, c, hvalue(d->kind, seed, (uint32_t)c, dyadic));
}
/* n indices in [lo, hi), repeats allowed */
static void ix_random(int32_t *ix, int n, int lo, int hi, uint32_t seed) {
    for (int i = 0; i < n; ++i) ix[i] = lo + (int32_t)(tile_hash32(seed, (uint32_t)i) % (uint32_t)(hi - lo));
}
/* n distinct indices from [lo, hi): a shuffled range */
static void ix_unique(int32_t *ix, int n, int lo, int hi, uint32_t seed) {
    const int m = hi - lo;
    int32_t *all = HALLOC(int32_t, m);
    for (int i = 0; i < m; ++i) all[i] = lo + i;
    for (int i = m - 1; i > 0; --i) {
        const int j = (int)(tile_hash32(seed, (uint32_t)i) % (uint32_t)(i + 1));
        const int32_t x = all[i];
        all[i] = all[j];
        all[j] = x;
    }
    for (int i = 0; i < n; ++i) ix[i] = all[i];
    free(all);
}
#define EL(p, es, i) ((const unsigned char *)(p) + (size_t)(i) * (es))
static const unsigned char zero_elem[64] = {0};

/* ========================================================================
 * shapes
 * ======================================================================== */
#define NA1 150 /* 1D array */
#define NT1 100 /* 1D tile: 2 slots with block 64 and 96, the second partial */
#define R2 30   /* 2D array R2 x C2 */
#define C2 26
#define TR 12 /* 2D tile TR x TC = 132: 3 slots (block 64), 2 (block 96), partial */
#define TC 11
#define NB 6 /* blocks per launch, each with its own offsets and indices */
static const int offs1[NB] = {0, 7, -13, 60, -120, 140};
static const int offs2[NB][2] = {{0, 0}, {5, 9}, {-3, 20}, {25, -6}, {-12, -11}, {31, 0}};

#define COPY_TYPES(X)                                                              \
    X(f32, float, K_F32, 1)                                                        \
    X(i32, int32_t, K_I32, 1)                                                      \
    X(f64, double, K_F64, 1)                                                       \
    X(vec3f, tile_vec3f, K_F32, 3)
#define ADD_TYPES(X)                                                               \
    X(f32, float, K_F32, 1)                                                        \
    X(i32, int32_t, K_I32, 1)                                                      \
    X(f64, double, K_F64, 1)
#define TDESC(sfx, T, kind, nc) {#sfx, kind, nc, sizeof(T)}

/* ========================================================================
 * 1. tile_load_indexed
 * ======================================================================== */
/* 1D: block b gathers with indices ix[b] at offset offs[b]; out[b][c] for
 * c = reg t / reg idx, shared t / reg idx, reg t / shared idx, shared t /
 * shared idx; the tiles start as ones (a zero read outside is a write) */
#define DEF_G1(sfx, T, B)                                                          \
    TILE_KERNEL_SMEM(g1_##sfx##_##B, B, TILE_SMEM_BYTES(T, NT1) + TILE_SMEM_BYTES(int32_t, NT1), const T *a, \
                     const int32_t *ix, const int *offs, T *out) {                 \
        const int b = tile_block(0), o = offs[b];                                  \
        tile_reg(int32_t, ri, NT1);                                                \
        tile_load(ri, tile_array1(ix + b * NT1, NT1), 0);                          \
        tile_to_shared(si, ri);                                                    \
        const tile_array A = tile_array1(a, NA1);                                  \
        const tile_array O = tile_array2(out + (size_t)b * 4 * NT1, 4, NT1);       \
        tile_reg(T, r, NT1);                                                       \
        tile_shared(T, s, NT1);                                                    \
        tile_ones(r);                                                              \
        tile_ones(s);                                                              \
        tile_load_indexed(r, A, ri, 0, o);                                         \
        tile_load_indexed(s, A, ri, 0, o);                                         \
        tile_store(tile_array_row(O, 0), r, 0);                                    \
        tile_store(tile_array_row(O, 1), s, 0);                                    \
        tile_ones(r);                                                              \
        tile_ones(s);                                                              \
        tile_load_indexed(r, A, si, 0, o);                                         \
        tile_load_indexed(s, A, si, 0, o);                                         \
        tile_store(tile_array_row(O, 2), r, 0);                                    \
        tile_store(tile_array_row(O, 3), s, 0);                                    \
    }
/* 2D: rows from ix0 (i32, axis 0), columns from ix1 (i64, axis 1); 4 storage
 * combinations each: out[b][c] (TR x TC), c < 4 rows, c >= 4 columns */
#define DEF_G2(sfx, T, B)                                                          \
    TILE_KERNEL_SMEM(g2_##sfx##_##B, B, TILE_SMEM_BYTES(T, TR, TC) + TILE_SMEM_BYTES(int32_t, TR) + \
                                            2 * TILE_SMEM_BYTES(int64_t, TC),      \
                     const T *a, const int32_t *ix0, const int64_t *ix1, const int *offs, T *out) { \
        const int b = tile_block(0), o0 = offs[2 * b], o1 = offs[2 * b + 1];       \
        const tile_array A = tile_array2(a, R2, C2);                               \
        tile_reg(int32_t, r0, TR);                                                 \
        tile_load(r0, tile_array1(ix0 + b * TR, TR), 0);                           \
        tile_to_shared(s0, r0);                                                    \
        tile_reg(int64_t, r1, TC);                                                 \
        tile_load(r1, tile_array1(ix1 + b * TC, TC), 0);                           \
        tile_to_shared(s1, r1);                                                    \
        tile_reg(T, r, TR, TC);                                                    \
        tile_shared(T, s, TR, TC);                                                 \
        const tile_array O = tile_array2(out + (size_t)b * 8 * TR * TC, 8 * TR, TC); \
        tile_ones(r);                                                              \
        tile_load_indexed(r, A, r0, 0, o0, o1);                                    \
        tile_store(O, r, 0 * TR, 0);                                               \
        tile_ones(s);                                                              \
        tile_load_indexed(s, A, r0, 0, o0, o1);                                    \
        tile_store(O, s, 1 * TR, 0);                                               \
        tile_ones(r);                                                              \
        tile_load_indexed(r, A, s0, 0, o0, o1);                                    \
        tile_store(O, r, 2 * TR, 0);                                               \
        tile_ones(s);                                                              \
        tile_load_indexed(s, A, s0, 0, o0, o1);                                    \
        tile_store(O, s, 3 * TR, 0);                                               \
        tile_ones(r);                                                              \
        tile_load_indexed(r, A, r1, 1, o0, o1);                                    \
        tile_store(O, r, 4 * TR, 0);                                               \
        tile_ones(s);                                                              \
        tile_load_indexed(s, A, r1, 1, o0, o1);                                    \
        tile_store(O, s, 5 * TR, 0);                                               \
        tile_ones(r);                                                              \
        tile_load_indexed(r, A, s1, 1, o0, o1);                                    \
        tile_store(O, r, 6 * TR, 0);                                               \
        tile_ones(s);                                                              \
        tile_load_indexed(s, A, s1, 1, o0, o1);                                    \
        tile_store(O, s, 7 * TR, 0);                                               \
    }
#define DEF_GATHER(sfx, T, kind, nc)                                               \
    DEF_G1(sfx, T, 64)                                                             \
    DEF_G1(sfx, T, 96)                                                             \
    DEF_G2(sfx, T, 64)                                                             \
    DEF_G2(sfx, T, 96)
COPY_TYPES(DEF_GATHER)

static void gather_indices(int32_t *ix, int32_t *ix0, int64_t *ix1) {
    for (int b = 0; b < NB; ++b) {
        int32_t *x = ix + b * NT1;
        ix_random(x, NT1, -20, NA1 + 20, 100 + b);
        x[0] = -1;
        x[NT1 - 1] = NA1 - offs1[b]; /* the first position past the end */
        x[NT1 / 2] = -offs1[b];      /* the first element */
        int32_t *y = ix0 + b * TR, t1[TC];
        ix_random(y, TR, -4, R2 + 4, 200 + b);
        y[1] = -1;
        ix_random(t1, TC, -4, C2 + 4, 300 + b);
        t1[2] = -1;
        t1[TC - 1] = C2 - offs2[b][1];
        for (int j = 0; j < TC; ++j) ix1[b * TC + j] = t1[j];
    }
}

#define RUN_GATHER(sfx, T, kind, nc)                                               \
    static void test_gather_##sfx(const target *t) {                              \
        const tdesc d = TDESC(sfx, T, kind, nc);                                   \
        T *ha1 = HALLOC(T, NA1), *ha2 = HALLOC(T, R2 * C2);                        \
        T *o1 = HALLOC(T, NB * 4 * NT1), *e1 = HALLOC(T, NB * 4 * NT1);            \
        T *o2 = HALLOC(T, NB * 8 * TR * TC), *e2 = HALLOC(T, NB * 8 * TR * TC);    \
        int32_t hix[NB * NT1], hix0[NB * TR];                                      \
        int64_t hix1[NB * TC];                                                     \
        int hoffs2[2 * NB];                                                        \
        for (int b = 0; b < NB; ++b) hoffs2[2 * b] = offs2[b][0], hoffs2[2 * b + 1] = offs2[b][1]; \
        fill(&d, ha1, NA1, 11, 0);                                                 \
        fill(&d, ha2, R2 * C2, 12, 0);                                             \
        gather_indices(hix, hix0, hix1);                                           \
        for (int b = 0; b < NB; ++b)                                               \
            for (int c = 0; c < 4; ++c)                                            \
                for (int i = 0; i < NT1; ++i) {                                    \
                    const int g = TI_AT(hix[b * NT1 + i], offs1[b]);                     \
                    memcpy(&e1[(b * 4 + c) * NT1 + i], g >= 0 && g < NA1 ? EL(ha1, sizeof(T), g) : zero_elem, \
                           sizeof(T));                                             \
                }                                                                  \
        for (int b = 0; b < NB; ++b)                                               \
            for (int c = 0; c < 8; ++c)                                            \
                for (int i = 0; i < TR; ++i)                                       \
                    for (int j = 0; j < TC; ++j) {                                 \
                        const int gi = c < 4 ? TI_AT(hix0[b * TR + i], offs2[b][0]) : i + offs2[b][0]; \
                        const int gj = c < 4 ? j + offs2[b][1] : TI_AT((int)hix1[b * TC + j], offs2[b][1]); \
                        const int in = gi >= 0 && gi < R2 && gj >= 0 && gj < C2;  \
                        memcpy(&e2[((b * 8 + c) * TR + i) * TC + j], in ? EL(ha2, sizeof(T), gi * C2 + gj) : zero_elem, \
                               sizeof(T));                                         \
                    }                                                              \
        T *da1 = DALLOC(T, NA1), *da2 = DALLOC(T, R2 * C2), *do1 = DALLOC(T, NB * 4 * NT1); \
        T *do2 = DALLOC(T, NB * 8 * TR * TC);                                      \
        int32_t *dix = DALLOC(int32_t, NB * NT1), *dix0 = DALLOC(int32_t, NB * TR); \
        int64_t *dix1 = DALLOC(int64_t, NB * TC);                                  \
        int *doffs1 = DALLOC(int, NB), *doffs2 = DALLOC(int, 2 * NB);              \
        UP(da1, ha1, NA1 * sizeof(T));                                             \
        UP(da2, ha2, R2 * C2 * sizeof(T));                                         \
        UP(dix, hix, sizeof(hix));                                                 \
        UP(dix0, hix0, sizeof(hix0));                                              \
        UP(dix1, hix1, sizeof(hix1));                                              \
        UP(doffs1, offs1, sizeof(offs1));                                          \
        UP(doffs2, hoffs2, sizeof(hoffs2));                                        \
        for (int B = 64; B <= 96; B += 32) {                                       \
            POISON(do1, NB * 4 * NT1 * sizeof(T), poison_byte(&d));                \
            POISON(do2, NB * 8 * TR * TC * sizeof(T), poison_byte(&d));            \
            if (B == 64) {                                                         \
                g_test = "tile_load_indexed 1D/2D " #sfx " block 64";              \
                RUN_OK(tile_launch(t->ex, g1_##sfx##_64, tile_grid1(NB), 64, da1, dix, doffs1, do1)); \
                RUN_OK(tile_launch(t->ex, g2_##sfx##_64, tile_grid1(NB), 64, da2, dix0, dix1, doffs2, do2)); \
            } else {                                                               \
                g_test = "tile_load_indexed 1D/2D " #sfx " block 96";              \
                RUN_OK(tile_launch(t->ex, g1_##sfx##_96, tile_grid1(NB), 96, da1, dix, doffs1, do1)); \
                RUN_OK(tile_launch(t->ex, g2_##sfx##_96, tile_grid1(NB), 96, da2, dix0, dix1, doffs2, do2)); \
            }                                                                      \
            DOWN(o1, do1, NB * 4 * NT1 * sizeof(T));                               \
            DOWN(o2, do2, NB * 8 * TR * TC * sizeof(T));                           \
            static const char *n1[4] = {"1D reg t, reg idx", "1D shared t, reg idx", "1D reg t, shared idx", \
                                        "1D shared t, shared idx"};                \
            static const char *n2[8] = {"2D axis 0, reg t, reg idx",      "2D axis 0, shared t, reg idx", \
                                        "2D axis 0, reg t, shared idx",   "2D axis 0, shared t, shared idx", \
                                        "2D axis 1 (i64 idx), reg t, reg idx", "2D axis 1, shared t, reg idx", \
                                        "2D axis 1, reg t, shared idx",   "2D axis 1, shared t, shared idx"}; \
            for (int b = 0; b < NB; ++b) {                                         \
                for (int c = 0; c < 4; ++c)                                        \
                    CHECK_ELEMS(n1[c], &d, o1 + (b * 4 + c) * NT1, e1 + (b * 4 + c) * NT1, NT1); \
                for (int c = 0; c < 8; ++c)                                        \
                    CHECK_ELEMS(n2[c], &d, o2 + (b * 8 + c) * TR * TC, e2 + (b * 8 + c) * TR * TC, TR * TC); \
            }                                                                      \
        }                                                                          \
        free(ha1), free(ha2), free(o1), free(e1), free(o2), free(e2);              \
        tile_free(t->ex, da1), tile_free(t->ex, da2), tile_free(t->ex, do1), tile_free(t->ex, do2); \
        tile_free(t->ex, dix), tile_free(t->ex, dix0), tile_free(t->ex, dix1);     \
        tile_free(t->ex, doffs1), tile_free(t->ex, doffs2);                        \
    }
COPY_TYPES(RUN_GATHER)

/* ========================================================================
 * 2. tile_store_indexed (distinct indices per block: a defined result)
 * ======================================================================== */
/* block b stores its tile (from src[b]) into its own output region; 1D:
 * out1[b][c] (NA1) for the 4 storage combinations; 2D: out2[b][c] (R2 x C2),
 * c = reg/reg rows, shared/shared rows, reg t/shared idx columns, shared
 * t/reg idx columns */
#define DEF_STORE(sfx, T, kind, nc)                                                \
    TILE_KERNEL_SMEM(st_##sfx, 96, TILE_SMEM_BYTES(T, NT1) + TILE_SMEM_BYTES(int32_t, NT1) + \
                                       TILE_SMEM_BYTES(T, TR, TC) + TILE_SMEM_BYTES(int32_t, TR) + \
                                       2 * TILE_SMEM_BYTES(int32_t, TC) /* + a staged idx */, \
                     const T *src1, const T *src2, const int32_t *ix, const int32_t *ix0, const int32_t *ix1, \
                     const int *offs1_, const int *offs2_, T *out1, T *out2) {     \
        const int b = tile_block(0), o = offs1_[b], o0 = offs2_[2 * b], o1 = offs2_[2 * b + 1]; \
        tile_reg(int32_t, ri, NT1);                                                \
        tile_load(ri, tile_array1(ix + b * NT1, NT1), 0);                          \
        tile_to_shared(si, ri);                                                    \
        tile_reg(T, r, NT1);                                                       \
        tile_load(r, tile_array1(src1 + b * NT1, NT1), 0);                         \
        tile_to_shared(s, r);                                                      \
        T *p1 = out1 + (size_t)b * 4 * NA1;                                        \
        tile_store_indexed(tile_array1(p1, NA1), r, ri, 0, o);                     \
        tile_store_indexed(tile_array1(p1 + NA1, NA1), s, ri, 0, o);               \
        tile_store_indexed(tile_array1(p1 + 2 * NA1, NA1), r, si, 0, o);           \
        tile_store_indexed(tile_array1(p1 + 3 * NA1, NA1), s, si, 0, o);           \
        tile_reg(int32_t, r0, TR);                                                 \
        tile_load(r0, tile_array1(ix0 + b * TR, TR), 0);                           \
        tile_to_shared(s0, r0);                                                    \
        tile_reg(int32_t, r1, TC);                                                 \
        tile_load(r1, tile_array1(ix1 + b * TC, TC), 0);                           \
        tile_reg(T, m, TR, TC);                                                    \
        tile_load(m, tile_array2(src2 + b * TR * TC, TR, TC), 0, 0);               \
        tile_to_shared(sm, m);                                                     \
        tile_to_shared(s1, r1);                                                    \
        T *p2 = out2 + (size_t)b * 4 * R2 * C2;                                    \
        tile_store_indexed(tile_array2(p2, R2, C2), m, r0, 0, o0, o1);             \
        tile_store_indexed(tile_array2(p2 + R2 * C2, R2, C2), sm, s0, 0, o0, o1);  \
        tile_store_indexed(tile_array2(p2 + 2 * R2 * C2, R2, C2), m, s1, 1, o0, o1); \
        tile_store_indexed(tile_array2(p2 + 3 * R2 * C2, R2, C2), sm, r1, 1, o0, o1); \
    }
COPY_TYPES(DEF_STORE)

#define RUN_STORE(sfx, T, kind, nc)                                                \
    static void test_store_##sfx(const target *t) {                               \
        g_test = "tile_store_indexed 1D/2D " #sfx " (block 96)";                   \
        const tdesc d = TDESC(sfx, T, kind, nc);                                   \
        const long n1 = NB * 4 * NA1, n2 = NB * 4 * R2 * C2;                       \
        T *hs1 = HALLOC(T, NB * NT1), *hs2 = HALLOC(T, NB * TR * TC);              \
        T *o1 = HALLOC(T, n1), *e1 = HALLOC(T, n1), *o2 = HALLOC(T, n2), *e2 = HALLOC(T, n2); \
        int32_t hix[NB * NT1], hix0[NB * TR], hix1[NB * TC];                       \
        int hoffs2[2 * NB];                                                        \
        fill(&d, hs1, NB * NT1, 21, 0);                                            \
        fill(&d, hs2, NB * TR * TC, 22, 0);                                        \
        for (int b = 0; b < NB; ++b) {                                             \
            const int o = offs1[b], o0 = offs2[b][0], o1_ = offs2[b][1];           \
            hoffs2[2 * b] = o0, hoffs2[2 * b + 1] = o1_;                           \
            ix_unique(hix + b * NT1, NT1, -10 - o, NA1 + 10 - o, 400 + b);         \
            ix_unique(hix0 + b * TR, TR, -3 - o0, R2 + 3 - o0, 500 + b);           \
            ix_unique(hix1 + b * TC, TC, -3 - o1_, C2 + 3 - o1_, 600 + b);         \
        }                                                                          \
        T *ds1 = DALLOC(T, NB * NT1), *ds2 = DALLOC(T, NB * TR * TC), *do1 = DALLOC(T, n1), *do2 = DALLOC(T, n2); \
        int32_t *dix = DALLOC(int32_t, NB * NT1), *dix0 = DALLOC(int32_t, NB * TR), *dix1 = DALLOC(int32_t, NB * TC); \
        int *doffs1 = DALLOC(int, NB), *doffs2 = DALLOC(int, 2 * NB);              \
        UP(ds1, hs1, NB * NT1 * sizeof(T));                                        \
        UP(ds2, hs2, NB * TR * TC * sizeof(T));                                    \
        UP(dix, hix, sizeof(hix));                                                 \
        UP(dix0, hix0, sizeof(hix0));                                              \
        UP(dix1, hix1, sizeof(hix1));                                              \
        UP(doffs1, offs1, sizeof(offs1));                                          \
        UP(doffs2, hoffs2, sizeof(hoffs2));                                        \
        POISON_MIRROR(do1, n1 * sizeof(T), poison_byte(&d), e1);                   \
        POISON_MIRROR(do2, n2 * sizeof(T), poison_byte(&d), e2);                   \
        for (int b = 0; b < NB; ++b) {                                             \
            for (int i = 0; i < NT1; ++i) {                                        \
                const int g = TI_AT(hix[b * NT1 + i], offs1[b]);                         \
                if (g >= 0 && g < NA1)                                             \
                    for (int c = 0; c < 4; ++c) e1[(b * 4 + c) * NA1 + g] = hs1[b * NT1 + i]; \
            }                                                                      \
            for (int c = 0; c < 4; ++c)                                            \
                for (int i = 0; i < TR; ++i)                                       \
                    for (int j = 0; j < TC; ++j) {                                 \
                        const int gi = c < 2 ? TI_AT(hix0[b * TR + i], offs2[b][0]) : i + offs2[b][0]; \
                        const int gj = c < 2 ? j + offs2[b][1] : TI_AT(hix1[b * TC + j], offs2[b][1]); \
                        if (gi >= 0 && gi < R2 && gj >= 0 && gj < C2)              \
                            e2[(b * 4 + c) * R2 * C2 + gi * C2 + gj] = hs2[(b * TR + i) * TC + j]; \
                    }                                                              \
        }                                                                          \
        RUN_OK(tile_launch(t->ex, st_##sfx, tile_grid1(NB), 96, ds1, ds2, dix, dix0, dix1, doffs1, doffs2, do1, do2)); \
        DOWN(o1, do1, n1 * sizeof(T));                                             \
        DOWN(o2, do2, n2 * sizeof(T));                                             \
        CHECK_ELEMS("1D indexed store (all combinations; untouched: poison)", &d, o1, e1, n1); \
        CHECK_ELEMS("2D indexed store rows/columns (untouched: poison)", &d, o2, e2, n2); \
        free(hs1), free(hs2), free(o1), free(e1), free(o2), free(e2);              \
        tile_free(t->ex, ds1), tile_free(t->ex, ds2), tile_free(t->ex, do1), tile_free(t->ex, do2); \
        tile_free(t->ex, dix), tile_free(t->ex, dix0), tile_free(t->ex, dix1);     \
        tile_free(t->ex, doffs1), tile_free(t->ex, doffs2);                        \
    }
COPY_TYPES(RUN_STORE)

/* ========================================================================
 * 3. tile_atomic_add_indexed: every block into the same accumulators, many
 *    repeated indices (a few slots for 100 elements)
 * ======================================================================== */
#define DEF_ATOMIC(sfx, T, kind, nc)                                               \
    TILE_KERNEL_SMEM(at_##sfx, 128, TILE_SMEM_BYTES(T, NT1) + TILE_SMEM_BYTES(int32_t, NT1) + \
                                        TILE_SMEM_BYTES(T, TR, TC) + TILE_SMEM_BYTES(int32_t, TR) + \
                                        TILE_SMEM_BYTES(int32_t, TC),              \
                     const T *src1, const T *src2, const int32_t *ix, const int32_t *ix0, const int32_t *ix1, \
                     const int *offs2_, T *acc1, T *acc2) {                        \
        const int b = tile_block(0), o0 = offs2_[2 * b], o1 = offs2_[2 * b + 1];   \
        tile_reg(int32_t, ri, NT1);                                                \
        tile_load(ri, tile_array1(ix + b * NT1, NT1), 0);                          \
        tile_to_shared(si, ri);                                                    \
        tile_reg(T, r, NT1);                                                       \
        tile_load(r, tile_array1(src1 + b * NT1, NT1), 0);                         \
        tile_to_shared(s, r);                                                      \
        tile_atomic_add_indexed(tile_array1(acc1, NA1), r, ri, 0, o0);             \
        tile_atomic_add_indexed(tile_array1(acc1, NA1), s, si, 0, o0);             \
        tile_reg(int32_t, r0, TR);                                                 \
        tile_load(r0, tile_array1(ix0 + b * TR, TR), 0);                           \
        tile_to_shared(s0, r0);                                                    \
        tile_reg(int32_t, r1, TC);                                                 \
        tile_load(r1, tile_array1(ix1 + b * TC, TC), 0);                           \
        tile_reg(T, m, TR, TC);                                                    \
        tile_load(m, tile_array2(src2 + b * TR * TC, TR, TC), 0, 0);               \
        tile_to_shared(sm, m);                                                     \
        const tile_array A2 = tile_array2(acc2, R2, C2);                           \
        tile_atomic_add_indexed(A2, m, r0, 0, o0, o1);                             \
        tile_atomic_add_indexed(A2, sm, s0, 0, o0, o1);                            \
        tile_atomic_add_indexed(A2, sm, r1, 1, o0, o1);                            \
    }
ADD_TYPES(DEF_ATOMIC)

#define RUN_ATOMIC(sfx, T, kind, nc)                                               \
    static void test_atomic_##sfx(const target *t) {                              \
        g_test = "tile_atomic_add_indexed 1D/2D " #sfx " (6 blocks of 128 into one array)"; \
        const tdesc d = TDESC(sfx, T, kind, nc);                                   \
        T *hs1 = HALLOC(T, NB * NT1), *hs2 = HALLOC(T, NB * TR * TC);              \
        T *a1 = HALLOC(T, NA1), *a2 = HALLOC(T, R2 * C2);                          \
        double *r1 = HALLOC(double, NA1), *r2 = HALLOC(double, R2 * C2);           \
        int32_t hix[NB * NT1], hix0[NB * TR], hix1[NB * TC];                       \
        int hoffs2[2 * NB];                                                        \
        fill(&d, hs1, NB * NT1, 31, 1);                                            \
        fill(&d, hs2, NB * TR * TC, 32, 1);                                        \
        fill(&d, a1, NA1, 33, 1);                                                  \
        fill(&d, a2, R2 * C2, 34, 1);                                              \
        for (int g = 0; g < NA1; ++g) r1[g] = comp_get(&d, a1, g);                 \
        for (int g = 0; g < R2 * C2; ++g) r2[g] = comp_get(&d, a2, g);             \
        for (int b = 0; b < NB; ++b) {                                             \
            const int o0 = offs2[b][0], o1 = offs2[b][1];                          \
            hoffs2[2 * b] = o0, hoffs2[2 * b + 1] = o1;                            \
            ix_random(hix + b * NT1, NT1, -3, 12, 700 + b);                        \
            ix_random(hix0 + b * TR, TR, -1, 4, 710 + b);                          \
            ix_random(hix1 + b * TC, TC, -2, 5, 720 + b);                          \
            for (int i = 0; i < NT1; ++i) {                                        \
                const int g = TI_AT(hix[b * NT1 + i], o0);                               \
                if (g >= 0 && g < NA1) r1[g] += 2.0 * comp_get(&d, hs1, b * NT1 + i); \
            }                                                                      \
            for (int i = 0; i < TR; ++i)                                           \
                for (int j = 0; j < TC; ++j) {                                     \
                    const double v = comp_get(&d, hs2, (b * TR + i) * TC + j);     \
                    int gi = TI_AT(hix0[b * TR + i], o0), gj = j + o1;                   \
                    if (gi >= 0 && gi < R2 && gj >= 0 && gj < C2) r2[gi * C2 + gj] += 2.0 * v; \
                    gi = i + o0, gj = TI_AT(hix1[b * TC + j], o1);                       \
                    if (gi >= 0 && gi < R2 && gj >= 0 && gj < C2) r2[gi * C2 + gj] += v; \
                }                                                                  \
        }                                                                          \
        T *ds1 = DALLOC(T, NB * NT1), *ds2 = DALLOC(T, NB * TR * TC), *da1 = DALLOC(T, NA1), *da2 = DALLOC(T, R2 * C2); \
        int32_t *dix = DALLOC(int32_t, NB * NT1), *dix0 = DALLOC(int32_t, NB * TR), *dix1 = DALLOC(int32_t, NB * TC); \
        int *doffs2 = DALLOC(int, 2 * NB);                                         \
        UP(ds1, hs1, NB * NT1 * sizeof(T));                                        \
        UP(ds2, hs2, NB * TR * TC * sizeof(T));                                    \
        UP(da1, a1, NA1 * sizeof(T));                                              \
        UP(da2, a2, R2 * C2 * sizeof(T));                                          \
        UP(dix, hix, sizeof(hix));                                                 \
        UP(dix0, hix0, sizeof(hix0));                                              \
        UP(dix1, hix1, sizeof(hix1));                                              \
        UP(doffs2, hoffs2, sizeof(hoffs2));                                        \
        RUN_OK(tile_launch(t->ex, at_##sfx, tile_grid1(NB), 128, ds1, ds2, dix, dix0, dix1, doffs2, da1, da2)); \
        DOWN(a1, da1, NA1 * sizeof(T));                                            \
        DOWN(a2, da2, R2 * C2 * sizeof(T));                                        \
        CHECK_NUM("1D: reg/reg + shared/shared adds", &d, a1, r1, NA1);            \
        CHECK_NUM("2D: rows reg/reg + rows shared/shared + columns shared t/reg idx", &d, a2, r2, R2 * C2); \
        free(hs1), free(hs2), free(a1), free(a2), free(r1), free(r2);              \
        tile_free(t->ex, ds1), tile_free(t->ex, ds2), tile_free(t->ex, da1), tile_free(t->ex, da2); \
        tile_free(t->ex, dix), tile_free(t->ex, dix0), tile_free(t->ex, dix1), tile_free(t->ex, doffs2); \
    }
ADD_TYPES(RUN_ATOMIC)

/* ========================================================================
 * 4. tile_assign: block b writes a (TR, TC) tile into a shared (R2, C2) tile
 *    at offsets[b]; register and shared sources; a 1D case
 * ======================================================================== */
#define DEF_ASSIGN(sfx, T, kind, nc)                                               \
    TILE_KERNEL_SMEM(as_##sfx, 64, TILE_SMEM_BYTES(T, R2, C2) + TILE_SMEM_BYTES(T, TR, TC) + \
                                       TILE_SMEM_BYTES(T, NA1),                    \
                     const T *a, const T *src, const int *offs1_, const int *offs2_, T *out) { \
        const int b = tile_block(0), o = offs1_[b], o0 = offs2_[2 * b], o1 = offs2_[2 * b + 1]; \
        T *ob = out + (size_t)b * (2 * R2 * C2 + NA1);                             \
        tile_shared(T, dst, R2, C2);                                               \
        tile_load(dst, tile_array2(a, R2, C2), 0, 0);                              \
        tile_reg(T, r, TR, TC);                                                    \
        tile_load(r, tile_array2(src + b * TR * TC, TR, TC), 0, 0);                \
        tile_assign(dst, r, o0, o1);                                               \
        tile_store(tile_array2(ob, R2, C2), dst, 0, 0);                            \
        tile_to_shared(s, r);                                                      \
        tile_load(dst, tile_array2(a, R2, C2), 0, 0);                              \
        tile_assign(dst, s, o0, o1);                                               \
        tile_store(tile_array2(ob + R2 * C2, R2, C2), dst, 0, 0);                  \
        tile_shared(T, d1, NA1);                                                   \
        tile_load(d1, tile_array1(a, NA1), 0);                                     \
        tile_reg(T, r1, NT1);                                                      \
        tile_load(r1, tile_array1(src + b * TR * TC, NT1), 0);                     \
        tile_assign(d1, r1, o);                                                    \
        tile_store(tile_array1(ob + 2 * R2 * C2, NA1), d1, 0);                     \
    }
COPY_TYPES(DEF_ASSIGN)

#define RUN_ASSIGN(sfx, T, kind, nc)                                               \
    static void test_assign_##sfx(const target *t) {                              \
        g_test = "tile_assign 2D/1D " #sfx " (block 64)";                         \
        const tdesc d = TDESC(sfx, T, kind, nc);                                   \
        const long per = 2 * R2 * C2 + NA1, n = NB * per;                          \
        T *ha = HALLOC(T, R2 * C2), *hs = HALLOC(T, NB * TR * TC), *o = HALLOC(T, n), *e = HALLOC(T, n); \
        int hoffs2[2 * NB];                                                        \
        fill(&d, ha, R2 * C2, 41, 0);                                              \
        fill(&d, hs, NB * TR * TC, 42, 0);                                         \
        for (int b = 0; b < NB; ++b) {                                             \
            const int o0 = offs2[b][0], o1 = offs2[b][1];                          \
            hoffs2[2 * b] = o0, hoffs2[2 * b + 1] = o1;                            \
            for (int c = 0; c < 2; ++c)                                            \
                for (int i = 0; i < R2; ++i)                                       \
                    for (int j = 0; j < C2; ++j) {                                 \
                        const int si = i - o0, sj = j - o1, in = si >= 0 && si < TR && sj >= 0 && sj < TC; \
                        e[b * per + c * R2 * C2 + i * C2 + j] = in ? hs[(b * TR + si) * TC + sj] : ha[i * C2 + j]; \
                    }                                                              \
            for (int g = 0; g < NA1; ++g) {                                        \
                const int si = g - offs1[b], in = si >= 0 && si < NT1;             \
                e[b * per + 2 * R2 * C2 + g] = in ? hs[b * TR * TC + si] : ha[g];  \
            }                                                                      \
        }                                                                          \
        T *da = DALLOC(T, R2 * C2), *ds = DALLOC(T, NB * TR * TC), *dout = DALLOC(T, n); \
        int *doffs1 = DALLOC(int, NB), *doffs2 = DALLOC(int, 2 * NB);              \
        UP(da, ha, R2 * C2 * sizeof(T));                                           \
        UP(ds, hs, NB * TR * TC * sizeof(T));                                      \
        UP(doffs1, offs1, sizeof(offs1));                                          \
        UP(doffs2, hoffs2, sizeof(hoffs2));                                        \
        POISON(dout, n * sizeof(T), poison_byte(&d));                              \
        RUN_OK(tile_launch(t->ex, as_##sfx, tile_grid1(NB), 64, da, ds, doffs1, doffs2, dout)); \
        DOWN(o, dout, n * sizeof(T));                                              \
        for (int b = 0; b < NB; ++b) {                                             \
            CHECK_ELEMS("2D register src", &d, o + b * per, e + b * per, R2 * C2); \
            CHECK_ELEMS("2D shared src", &d, o + b * per + R2 * C2, e + b * per + R2 * C2, R2 * C2); \
            CHECK_ELEMS("1D register src", &d, o + b * per + 2 * R2 * C2, e + b * per + 2 * R2 * C2, NA1); \
        }                                                                          \
        free(ha), free(hs), free(o), free(e);                                      \
        tile_free(t->ex, da), tile_free(t->ex, ds), tile_free(t->ex, dout);        \
        tile_free(t->ex, doffs1), tile_free(t->ex, doffs2);                        \
    }
COPY_TYPES(RUN_ASSIGN)

/* ========================================================================
 * 5. tile_extract: every position, read back by every thread
 * ======================================================================== */
/* outr[p][tid] = tile_extract(r, p / TC, p % TC) for the register (TR, TC)
 * tile, outs likewise for its shared copy, out1 for a 1D register tile of
 * NT1 (visited backwards), one[k][tid] for the one-element forms; a block
 * reduction between extracts shares the scratch: qsum[p][tid] its result */
#define DEF_EX(sfx, T, B)                                                          \
    TILE_KERNEL_SMEM(ex_##sfx##_##B, B, TILE_SMEM_BYTES(T, TR, TC) + TILE_SMEM_BYTES(T, 1), const T *a, \
                     T *outr, T *outs, T *out1, T *one, int32_t *qsum) {           \
        const int bd = TILE_BLOCK_DIM, me = tile_thread();                         \
        tile_reg(T, r, TR, TC);                                                    \
        tile_load(r, tile_array2(a, TR, TC), 0, 0);                                \
        tile_to_shared(s, r);                                                      \
        tile_reg(int32_t, q, TR, TC);                                              \
        tile_arange(q, 0, 1);                                                      \
        for (int p = 0; p < TR * TC; ++p) {                                        \
            const T x = tile_extract(r, p / TC, p % TC);                           \
            tile_sum(qs, q);                                                       \
            const T y = tile_extract(s, p / TC, p % TC);                           \
            outr[p * bd + me] = x;                                                 \
            outs[p * bd + me] = y;                                                 \
            qsum[p * bd + me] = tile_value(qs);                                    \
        }                                                                          \
        tile_reg(T, v, NT1);                                                       \
        tile_load(v, tile_array1(a, NT1), 0);                                      \
        for (int p = NT1 - 1; p >= 0; --p) {                                       \
            const T x = tile_extract(v, p);                                        \
            out1[p * bd + me] = x;                                                 \
        }                                                                          \
        tile_reg(T, o1, 1);                                                        \
        tile_load(o1, tile_array1(a, NA1), 7);                                     \
        tile_reg(T, o2, 1, 1);                                                     \
        tile_load(o2, tile_array2(a, R2, C2), 2, 3);                               \
        tile_to_shared(so, o2);                                                    \
        const T x1 = tile_extract(o1), x2 = tile_extract(o2), x3 = tile_extract(so); \
        const T x4 = tile_extract(o1, 0), x5 = tile_extract(o2, 0, 0);            \
        one[0 * bd + me] = x1;                                                     \
        one[1 * bd + me] = x2;                                                     \
        one[2 * bd + me] = x3;                                                     \
        one[3 * bd + me] = x4;                                                     \
        one[4 * bd + me] = x5;                                                     \
    }
#define DEF_EXTRACT(sfx, T, kind, nc) DEF_EX(sfx, T, 64) DEF_EX(sfx, T, 96)
COPY_TYPES(DEF_EXTRACT)

#define RUN_EXTRACT(sfx, T, kind, nc)                                              \
    static void test_extract_##sfx(const target *t) {                             \
        const tdesc d = TDESC(sfx, T, kind, nc);                                   \
        T *ha = HALLOC(T, R2 * C2);                                                \
        fill(&d, ha, R2 * C2, 51, 0);                                              \
        T *da = DALLOC(T, R2 * C2);                                                \
        UP(da, ha, R2 * C2 * sizeof(T));                                           \
        for (int B = 64; B <= 96; B += 32) {                                       \
            g_test = B == 64 ? "tile_extract " #sfx " block 64" : "tile_extract " #sfx " block 96"; \
            const int bd = t->gpu ? B : 1;                                         \
            const long nr = (long)TR * TC * bd, n1 = (long)NT1 * bd, no = 5L * bd; \
            T *dr = DALLOC(T, nr), *dsh = DALLOC(T, nr), *d1 = DALLOC(T, n1), *dn = DALLOC(T, no); \
            int32_t *dq = DALLOC(int32_t, nr);                                     \
            POISON(dr, nr * sizeof(T), poison_byte(&d));                           \
            POISON(dsh, nr * sizeof(T), poison_byte(&d));                          \
            POISON(d1, n1 * sizeof(T), poison_byte(&d));                           \
            POISON(dn, no * sizeof(T), poison_byte(&d));                           \
            POISON(dq, nr * sizeof(int32_t), POISON_I);                            \
            if (B == 64) RUN_OK(tile_launch(t->ex, ex_##sfx##_64, tile_grid1(1), 64, da, dr, dsh, d1, dn, dq)); \
            else RUN_OK(tile_launch(t->ex, ex_##sfx##_96, tile_grid1(1), 96, da, dr, dsh, d1, dn, dq)); \
            T *hr = HALLOC(T, nr), *hsh = HALLOC(T, nr), *h1 = HALLOC(T, n1), *hn = HALLOC(T, no); \
            T *er = HALLOC(T, nr), *e1 = HALLOC(T, n1), *en = HALLOC(T, no);       \
            int32_t *hq = HALLOC(int32_t, nr);                                     \
            double *eq = HALLOC(double, nr);                                       \
            DOWN(hr, dr, nr * sizeof(T));                                          \
            DOWN(hsh, dsh, nr * sizeof(T));                                        \
            DOWN(h1, d1, n1 * sizeof(T));                                          \
            DOWN(hn, dn, no * sizeof(T));                                          \
            DOWN(hq, dq, nr * sizeof(int32_t));                                    \
            for (int p = 0; p < TR * TC; ++p)                                      \
                for (int k = 0; k < bd; ++k) er[p * bd + k] = ha[p], eq[p * bd + k] = TR * TC * (TR * TC - 1) / 2; \
            for (int p = 0; p < NT1; ++p)                                          \
                for (int k = 0; k < bd; ++k) e1[p * bd + k] = ha[p];               \
            const int at[5] = {7, 2 * C2 + 3, 2 * C2 + 3, 7, 2 * C2 + 3};          \
            for (int j = 0; j < 5; ++j)                                            \
                for (int k = 0; k < bd; ++k) en[j * bd + k] = ha[at[j]];           \
            CHECK_ELEMS("register (12, 11) tile, every position, every thread", &d, hr, er, nr); \
            CHECK_ELEMS("shared (12, 11) tile, every position, every thread", &d, hsh, er, nr); \
            CHECK_ELEMS("register 1D tile of 100, every position, every thread", &d, h1, e1, n1); \
            CHECK_ELEMS("one-element tiles: (1), (1, 1), shared (1, 1), (1) at 0, (1, 1) at (0, 0)", &d, hn, en, no); \
            const tdesc di = {"i32", K_I32, 1, sizeof(int32_t)};                   \
            CHECK_NUM("tile_sum between extracts (scratch shared)", &di, hq, eq, nr); \
            free(hr), free(hsh), free(h1), free(hn), free(er), free(e1), free(en), free(hq), free(eq); \
            tile_free(t->ex, dr), tile_free(t->ex, dsh), tile_free(t->ex, d1), tile_free(t->ex, dn); \
            tile_free(t->ex, dq);                                                  \
        }                                                                          \
        free(ha);                                                                  \
        tile_free(t->ex, da);                                                      \
    }
COPY_TYPES(RUN_EXTRACT)

/* ========================================================================
 * 6. tile_scatter_add: 300 values into 50 slots per block (collisions),
 *    -1 and out-of-range indices; a strided view as destination
 * ======================================================================== */
#define ND 50  /* destination */
#define NS 300 /* indices: 3 slots with block 128, the last partial */
#define DEF_SA(sfx, T, kind, nc)                                                   \
    TILE_KERNEL_SMEM(sa_##sfx, 128, TILE_SMEM_BYTES(T, ND) + TILE_SMEM_BYTES(int32_t, NS) + \
                                        TILE_SMEM_BYTES(T, NS) + TILE_SMEM_BYTES(T, 10, 12), \
                     const T *a, const int32_t *ix, const T *vals, T *out) {       \
        const int b = tile_block(0);                                               \
        T *ob = out + (size_t)b * (2 * ND + 120);                                  \
        tile_shared(T, dst, ND);                                                   \
        tile_load(dst, tile_array1(a + b * ND, ND), 0);                            \
        tile_reg(int32_t, ri, NS);                                                 \
        tile_load(ri, tile_array1(ix + b * NS, NS), 0);                            \
        tile_reg(T, rv, NS);                                                       \
        tile_load(rv, tile_array1(vals + b * NS, NS), 0);                          \
        tile_scatter_add(dst, ri, rv);                                             \
        tile_store(tile_array1(ob, ND), dst, 0);                                   \
        tile_to_shared(si, ri);                                                    \
        tile_to_shared(sv, rv);                                                    \
        tile_scatter_add(dst, si, sv);                                             \
        tile_store(tile_array1(ob + ND, ND), dst, 0);                              \
        tile_shared(T, big, 10, 12);                                               \
        tile_load(big, tile_array2(a, 10, 12), 0, 0);                              \
        tile_view(vw, big, (5, 7), (2, 3));                                        \
        tile_scatter_add(vw, ri, sv); /* indices >= 35 skipped */                  \
        tile_store(tile_array2(ob + 2 * ND, 10, 12), big, 0, 0);                   \
    }
ADD_TYPES(DEF_SA)

#define RUN_SA(sfx, T, kind, nc)                                                   \
    static void test_scatter_add_##sfx(const target *t) {                         \
        g_test = "tile_scatter_add " #sfx " (300 into 50, block 128, 6 blocks)";   \
        const tdesc d = TDESC(sfx, T, kind, nc);                                   \
        const long per = 2 * ND + 120, n = NB * per;                               \
        T *ha = HALLOC(T, NB * ND + 120), *hv = HALLOC(T, NB * NS), *o = HALLOC(T, n); \
        int32_t *hix = HALLOC(int32_t, NB * NS);                                   \
        double *r = HALLOC(double, n);                                             \
        fill(&d, ha, NB * ND + 120, 61, 1);                                        \
        fill(&d, hv, NB * NS, 62, 1);                                              \
        for (int b = 0; b < NB; ++b) {                                             \
            int32_t *x = hix + b * NS;                                             \
            ix_random(x, NS, -4, ND + 4, 63 + b);                                  \
            for (int i = 0; i < NS; i += 37) x[i] = 17; /* 9 writers of slot 17 at least */ \
            x[1] = -1, x[2] = ND, x[3] = -1000000;                                 \
            double *rb = r + b * per;                                              \
            for (int g = 0; g < ND; ++g) rb[g] = comp_get(&d, ha, b * ND + g);     \
            for (int pass = 0; pass < 2; ++pass) {                                 \
                for (int i = 0; i < NS; ++i)                                       \
                    if (x[i] >= 0 && x[i] < ND) rb[x[i]] += comp_get(&d, hv, b * NS + i); \
                if (pass == 0) memcpy(rb + ND, rb, ND * sizeof(double));           \
            }                                                                      \
            double tmp[ND];                                                        \
            memcpy(tmp, rb, ND * sizeof(double));                                  \
            memcpy(rb, rb + ND, ND * sizeof(double));                              \
            memcpy(rb + ND, tmp, ND * sizeof(double));                             \
            for (int g = 0; g < 120; ++g) rb[2 * ND + g] = comp_get(&d, ha, g);    \
            for (int i = 0; i < NS; ++i)                                           \
                if (x[i] >= 0 && x[i] < 35) rb[2 * ND + (2 + x[i] / 7) * 12 + 3 + x[i] % 7] += comp_get(&d, hv, b * NS + i); \
        }                                                                          \
        T *da = DALLOC(T, NB * ND + 120), *dv = DALLOC(T, NB * NS), *dout = DALLOC(T, n); \
        int32_t *dix = DALLOC(int32_t, NB * NS);                                   \
        UP(da, ha, (NB * ND + 120) * sizeof(T));                                   \
        UP(dv, hv, NB * NS * sizeof(T));                                           \
        UP(dix, hix, NB * NS * sizeof(int32_t));                                   \
        POISON(dout, n * sizeof(T), poison_byte(&d));                              \
        RUN_OK(tile_launch(t->ex, sa_##sfx, tile_grid1(NB), 128, da, dix, dv, dout)); \
        DOWN(o, dout, n * sizeof(T));                                              \
        for (int b = 0; b < NB; ++b) {                                             \
            CHECK_NUM("register idx and values", &d, o + b * per, r + b * per, ND); \
            CHECK_NUM("shared idx and values, on top", &d, o + b * per + ND, r + b * per + ND, ND); \
            CHECK_NUM("into a (5, 7) view of a (10, 12) tile", &d, o + b * per + 2 * ND, r + b * per + 2 * ND, 120); \
        }                                                                          \
        free(ha), free(hv), free(o), free(hix), free(r);                           \
        tile_free(t->ex, da), tile_free(t->ex, dv), tile_free(t->ex, dout), tile_free(t->ex, dix); \
    }
ADD_TYPES(RUN_SA)

/* ========================================================================
 * 7. tile_scatter_masked_tiles: the unmasked indices distinct (a defined result),
 *    the masked-off ones repeated and outside; then a pass with every mask
 *    set and collisions, where a slot must hold one of its writers' values
 * ======================================================================== */
#define NM 60 /* indices with a mask that may be set */
#define DEF_SM(sfx, T, kind, nc)                                                   \
    TILE_KERNEL_SMEM(sm_##sfx, 96, TILE_SMEM_BYTES(T, ND) + TILE_SMEM_BYTES(int32_t, NS) + \
                                       TILE_SMEM_BYTES(T, NS) + TILE_SMEM_BYTES(float, NS), \
                     const T *a, const int32_t *ix, const int32_t *ixc, const T *vals, const int32_t *mask, \
                     T *out) {                                                     \
        const int b = tile_block(0);                                               \
        T *ob = out + (size_t)b * 3 * ND;                                          \
        tile_shared(T, dst, ND);                                                   \
        tile_load(dst, tile_array1(a + b * ND, ND), 0);                            \
        tile_reg(int32_t, ri, NS);                                                 \
        tile_load(ri, tile_array1(ix + b * NS, NS), 0);                            \
        tile_reg(T, rv, NS);                                                       \
        tile_load(rv, tile_array1(vals + b * NS, NS), 0);                          \
        tile_reg(int32_t, rm, NS);                                                 \
        tile_load(rm, tile_array1(mask + b * NS, NS), 0);                          \
        tile_scatter_masked_tiles(dst, ri, rv, rm);                                \
        tile_store(tile_array1(ob, ND), dst, 0);                                   \
        tile_load(dst, tile_array1(a + b * ND, ND), 0);                            \
        tile_to_shared(si, ri);                                                    \
        tile_to_shared(sv, rv);                                                    \
        tile_reg(float, fm, NS);                                                   \
        tile_astype(fm, rm);                                                       \
        tile_imul_c(fm, -0.5f); /* 0, -0.5, -1: nonzero where rm is */            \
        tile_to_shared(sfm, fm);                                                   \
        tile_scatter_masked_tiles(dst, si, sv, sfm);                               \
        tile_store(tile_array1(ob + ND, ND), dst, 0);                              \
        tile_load(dst, tile_array1(a + b * ND, ND), 0);                            \
        tile_reg(int32_t, rc, NS);                                                 \
        tile_load(rc, tile_array1(ixc + b * NS, NS), 0);                           \
        tile_reg(int32_t, all, NS);                                                \
        tile_full(all, 1);                                                         \
        tile_scatter_masked_tiles(dst, rc, sv, all);                               \
        tile_store(tile_array1(ob + 2 * ND, ND), dst, 0);                          \
    }
COPY_TYPES(DEF_SM)

#define RUN_SM(sfx, T, kind, nc)                                                   \
    static void test_scatter_masked_##sfx(const target *t) {                      \
        g_test = "tile_scatter_masked_tiles " #sfx " (block 96, 6 blocks)";        \
        const tdesc d = TDESC(sfx, T, kind, nc);                                   \
        const long n = NB * 3 * ND;                                                \
        T *ha = HALLOC(T, NB * ND), *hv = HALLOC(T, NB * NS), *o = HALLOC(T, n), *e = HALLOC(T, n); \
        int32_t *hix = HALLOC(int32_t, NB * NS), *hixc = HALLOC(int32_t, NB * NS), *hm = HALLOC(int32_t, NB * NS); \
        fill(&d, ha, NB * ND, 71, 0);                                              \
        fill(&d, hv, NB * NS, 72, 0);                                              \
        for (int b = 0; b < NB; ++b) {                                             \
            int32_t *x = hix + b * NS, *m = hm + b * NS, *xc = hixc + b * NS;      \
            ix_unique(x, NM, -5, ND + 5, 73 + b);                                  \
            ix_random(x + NM, NS - NM, -5, ND + 5, 80 + b);                        \
            for (int i = 0; i < NS; ++i) m[i] = i < NM ? (int32_t)(tile_hash32(90 + b, i) % 3u) : 0; \
            ix_random(xc, NS, -2, ND + 2, 100 + b);                                \
            for (int c = 0; c < 2; ++c)                                            \
                for (int g = 0; g < ND; ++g) {                                     \
                    e[(b * 3 + c) * ND + g] = ha[b * ND + g];                      \
                    for (int i = 0; i < NS; ++i)                                   \
                        if (m[i] && x[i] == g) e[(b * 3 + c) * ND + g] = hv[b * NS + i]; \
                }                                                                  \
        }                                                                          \
        T *da = DALLOC(T, NB * ND), *dv = DALLOC(T, NB * NS), *dout = DALLOC(T, n); \
        int32_t *dix = DALLOC(int32_t, NB * NS), *dixc = DALLOC(int32_t, NB * NS), *dm = DALLOC(int32_t, NB * NS); \
        UP(da, ha, NB * ND * sizeof(T));                                           \
        UP(dv, hv, NB * NS * sizeof(T));                                           \
        UP(dix, hix, NB * NS * sizeof(int32_t));                                   \
        UP(dixc, hixc, NB * NS * sizeof(int32_t));                                 \
        UP(dm, hm, NB * NS * sizeof(int32_t));                                     \
        POISON(dout, n * sizeof(T), poison_byte(&d));                              \
        RUN_OK(tile_launch(t->ex, sm_##sfx, tile_grid1(NB), 96, da, dix, dixc, dv, dm, dout)); \
        DOWN(o, dout, n * sizeof(T));                                              \
        for (int b = 0; b < NB; ++b) {                                             \
            CHECK_ELEMS("register idx/values, i32 mask", &d, o + b * 3 * ND, e + b * 3 * ND, ND); \
            CHECK_ELEMS("shared idx/values, shared f32 mask", &d, o + (b * 3 + 1) * ND, e + (b * 3 + 1) * ND, ND); \
            /* collisions: each slot holds its old value if nobody wrote it, */   \
            /* else one of its writers' values */                                  \
            const T *oc = o + (b * 3 + 2) * ND;                                    \
            const int32_t *xc = hixc + b * NS;                                     \
            for (int g = 0; g < ND; ++g) {                                         \
                int writers = 0, match = 0;                                        \
                for (int i = 0; i < NS; ++i)                                       \
                    if (xc[i] == g) {                                              \
                        ++writers;                                                 \
                        match |= memcmp(&oc[g], &hv[b * NS + i], sizeof(T)) == 0;  \
                    }                                                              \
                if (!writers) match = memcmp(&oc[g], &ha[b * ND + g], sizeof(T)) == 0; \
                char buf[160];                                                     \
                CHECK(match, "collisions: slot %d (%d writers) = %s, not one of its writers' values", g, \
                      writers, fmt_elem(&d, oc, g, buf, sizeof(buf)));             \
            }                                                                      \
        }                                                                          \
        free(ha), free(hv), free(o), free(e), free(hix), free(hixc), free(hm);     \
        tile_free(t->ex, da), tile_free(t->ex, dv), tile_free(t->ex, dout);        \
        tile_free(t->ex, dix), tile_free(t->ex, dixc), tile_free(t->ex, dm);       \
    }
COPY_TYPES(RUN_SM)

/* ========================================================================
 * 8. 3D gathers; tile_assign into a strided view (parts outside the view
 *    dropped although inside the parent) and tile_extract from the view
 * ======================================================================== */
#define G3A 6 /* array (6, 7, 8), tile (4, 5, 6) = 120: 2 slots of block 64 */
#define G3B 7
#define G3C 8
static const int offs3[NB][3] = {{0, 0, 0}, {2, 1, 2}, {-1, 3, -2}, {3, -2, 4}, {5, 6, 7}, {-3, -4, -5}};
#define VR 10 /* the view: (VR, VC) at (VO0, VO1) of a shared (R2, C2) tile */
#define VC 9
#define VO0 4
#define VO1 5
TILE_KERNEL_SMEM(misc_k, 64, TILE_SMEM_BYTES(float, 4, 5, 6) + TILE_SMEM_BYTES(int32_t, 6) +
                                 TILE_SMEM_BYTES(int32_t, 5) + TILE_SMEM_BYTES(float, R2, C2),
                 const float *a3, const int32_t *ix1, const int32_t *ix2, const int *o3, const float *a2,
                 const float *src, const int *o2, float *g3out, float *vout, float *exout) {
    const int b = tile_block(0), bd = TILE_BLOCK_DIM, me = tile_thread();
    const tile_array A = tile_array3(a3, G3A, G3B, G3C);
    tile_reg(int32_t, r1, 5);
    tile_load(r1, tile_array1(ix1 + b * 5, 5), 0);
    tile_reg(int32_t, r2, 6);
    tile_load(r2, tile_array1(ix2 + b * 6, 6), 0);
    tile_to_shared(s2, r2);
    tile_reg(float, t, 4, 5, 6);
    tile_shared(float, s, 4, 5, 6);
    const tile_array O = tile_array4(g3out + (size_t)b * 2 * 120, 2, 4, 5, 6);
    tile_load_indexed(t, A, r1, 1, o3[3 * b], o3[3 * b + 1], o3[3 * b + 2]);
    tile_store(tile_array_row(O, 0), t, 0, 0, 0);
    tile_load_indexed(s, A, s2, 2, o3[3 * b], o3[3 * b + 1], o3[3 * b + 2]);
    tile_store(tile_array_row(O, 1), s, 0, 0, 0);
    tile_shared(float, big, R2, C2);
    tile_load(big, tile_array2(a2, R2, C2), 0, 0);
    tile_view(v, big, (VR, VC), (VO0, VO1));
    tile_reg(float, m, TR, TC);
    tile_load(m, tile_array2(src + b * TR * TC, TR, TC), 0, 0);
    tile_assign(v, m, o2[2 * b] / 3, o2[2 * b + 1] / 3);
    tile_store(tile_array2(vout + (size_t)b * R2 * C2, R2, C2), big, 0, 0);
    float *ex = exout + (size_t)b * VR * VC * bd;
    for (int p = 0; p < VR * VC; ++p) {
        const float x = tile_extract(v, p / VC, p % VC);
        ex[p * bd + me] = x;
    }
}

static void test_misc(const target *t) {
    g_test = "3D gathers, assign into a view, extract from a view (f32, block 64)";
    const tdesc d = {"f32", K_F32, 1, sizeof(float)};
    const int bd = t->gpu ? 64 : 1;
    const long n3 = G3A * G3B * G3C, ng = NB * 2 * 120, nv = NB * R2 * C2, ne = (long)NB * VR * VC * bd;
    float *h3 = HALLOC(float, n3), *h2 = HALLOC(float, R2 * C2), *hs = HALLOC(float, NB * TR * TC);
    float *og = HALLOC(float, ng), *eg = HALLOC(float, ng), *ov = HALLOC(float, nv), *ev = HALLOC(float, nv);
    float *oe = HALLOC(float, ne), *ee = HALLOC(float, ne);
    int32_t hix1[NB * 5], hix2[NB * 6];
    int ho3[3 * NB], ho2[2 * NB];
    fill(&d, h3, n3, 81, 0);
    fill(&d, h2, R2 * C2, 82, 0);
    fill(&d, hs, NB * TR * TC, 83, 0);
    for (int b = 0; b < NB; ++b) {
        for (int k = 0; k < 3; ++k) ho3[3 * b + k] = offs3[b][k];
        ho2[2 * b] = offs2[b][0], ho2[2 * b + 1] = offs2[b][1];
        ix_random(hix1 + b * 5, 5, -2, G3B + 2, 84 + b);
        ix_random(hix2 + b * 6, 6, -2, G3C + 2, 90 + b);
        hix1[b * 5] = -1;
        hix2[b * 6 + 5] = G3C - offs3[b][2];
        for (int c = 0; c < 2; ++c)
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 5; ++j)
                    for (int l = 0; l < 6; ++l) {
                        const int g0 = i + offs3[b][0], g1 = c == 0 ? TI_AT(hix1[b * 5 + j], offs3[b][1]) : j + offs3[b][1];
                        const int g2 = c == 1 ? TI_AT(hix2[b * 6 + l], offs3[b][2]) : l + offs3[b][2];
                        const int in = g0 >= 0 && g0 < G3A && g1 >= 0 && g1 < G3B && g2 >= 0 && g2 < G3C;
                        eg[(((b * 2 + c) * 4 + i) * 5 + j) * 6 + l] = in ? h3[(g0 * G3B + g1) * G3C + g2] : 0.0f;
                    }
        const int a0 = offs2[b][0] / 3, a1 = offs2[b][1] / 3;
        for (int i = 0; i < R2; ++i)
            for (int j = 0; j < C2; ++j) {
                const int vi = i - VO0, vj = j - VO1, si = vi - a0, sj = vj - a1;
                const int in = vi >= 0 && vi < VR && vj >= 0 && vj < VC && si >= 0 && si < TR && sj >= 0 && sj < TC;
                ev[b * R2 * C2 + i * C2 + j] = in ? hs[(b * TR + si) * TC + sj] : h2[i * C2 + j];
            }
        for (int p = 0; p < VR * VC; ++p)
            for (int k = 0; k < bd; ++k)
                ee[((long)b * VR * VC + p) * bd + k] = ev[b * R2 * C2 + (VO0 + p / VC) * C2 + VO1 + p % VC];
    }
    float *d3 = DALLOC(float, n3), *d2 = DALLOC(float, R2 * C2), *ds = DALLOC(float, NB * TR * TC);
    float *dg = DALLOC(float, ng), *dv = DALLOC(float, nv), *de = DALLOC(float, ne);
    int32_t *dix1 = DALLOC(int32_t, NB * 5), *dix2 = DALLOC(int32_t, NB * 6);
    int *do3 = DALLOC(int, 3 * NB), *do2 = DALLOC(int, 2 * NB);
    UP(d3, h3, n3 * sizeof(float));
    UP(d2, h2, R2 * C2 * sizeof(float));
    UP(ds, hs, NB * TR * TC * sizeof(float));
    UP(dix1, hix1, sizeof(hix1));
    UP(dix2, hix2, sizeof(hix2));
    UP(do3, ho3, sizeof(ho3));
    UP(do2, ho2, sizeof(ho2));
    POISON(dg, ng * sizeof(float), POISON_F);
    POISON(dv, nv * sizeof(float), POISON_F);
    POISON(de, ne * sizeof(float), POISON_F);
    RUN_OK(tile_launch(t->ex, misc_k, tile_grid1(NB), 64, d3, dix1, dix2, do3, d2, ds, do2, dg, dv, de));
    DOWN(og, dg, ng * sizeof(float));
    DOWN(ov, dv, nv * sizeof(float));
    DOWN(oe, de, ne * sizeof(float));
    CHECK_ELEMS("3D gathers along axis 1 (register idx) and 2 (shared idx, shared t)", &d, og, eg, ng);
    CHECK_ELEMS("tile_assign into a (10, 9) view", &d, ov, ev, nv);
    CHECK_ELEMS("tile_extract from the view, every thread", &d, oe, ee, ne);
    free(h3), free(h2), free(hs), free(og), free(eg), free(ov), free(ev), free(oe), free(ee);
    tile_free(t->ex, d3), tile_free(t->ex, d2), tile_free(t->ex, ds), tile_free(t->ex, dg);
    tile_free(t->ex, dv), tile_free(t->ex, de), tile_free(t->ex, dix1), tile_free(t->ex, dix2);
    tile_free(t->ex, do3), tile_free(t->ex, do2);
}

/* ========================================================================
 * main
 * ======================================================================== */
#define CALL_COPY(sfx, T, kind, nc)                                                \
    test_gather_##sfx(t);                                                          \
    test_store_##sfx(t);                                                           \
    test_assign_##sfx(t);                                                          \
    test_extract_##sfx(t);                                                         \
    test_scatter_masked_##sfx(t);
#define CALL_ADD(sfx, T, kind, nc)                                                 \
    test_atomic_##sfx(t);                                                          \
    test_scatter_add_##sfx(t);
static void run_all(const target *t) {
    gc_target_begin(t);
    COPY_TYPES(CALL_COPY)
    ADD_TYPES(CALL_ADD)
    test_misc(t);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "indexed_test", 0, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
