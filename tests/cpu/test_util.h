/* tests/cpu/test_util.h - shared by the CPU tests (cmocka).
 *
 * Include this header instead of <tile.h>: it brings in cmocka first and, in a
 * TILE_DEBUG build, routes TILE_ASSERT to cmocka's mock_assert so that a
 * broken promise can be caught with expect_assert_failure().
 *
 * Every check compares against a reference the test computes itself with a
 * plain C loop (double precision for floating point).
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#ifdef TILE_DEBUG
#define TILE_ASSERT(c) mock_assert((int)(c), #c, __FILE__, __LINE__)
#endif
#include <tile.h>

/* Tolerances for results computed in float / double by the library and in
 * double by the reference. */
#define TU_TOL_F32 1e-6
#define TU_TOL_F64 1e-12

/* |got - ref| <= tol * (1 + |ref|) */
static inline void tu_assert_close_(double got, double ref, double tol, const char *what, const char *file,
                                    int line) {
    double err = fabs(got - ref);
    if (!(err <= tol * (1.0 + fabs(ref)))) {
        print_error("%s: got %.17g, expected %.17g (tolerance %g)\n", what, got, ref, tol);
        _fail(file, line);
    }
}
#define assert_close(got, ref, tol) tu_assert_close_((double)(got), (double)(ref), (tol), #got, __FILE__, __LINE__)

/* A launch (or host call) returned TILE_OK; otherwise print the message. */
#define assert_tile_ok(expr)                                                       \
    do {                                                                           \
        int tu_e_ = (expr);                                                        \
        if (tu_e_ != TILE_OK) print_error("%s -> %d: %s\n", #expr, tu_e_, tile_error_string(tu_e_)); \
        assert_int_equal(tu_e_, TILE_OK);                                          \
    } while (0)

/* Deterministic test data: small values that are exact in every element type
 * (integers in [-50, 50], or quarters for floating point when frac != 0). */
static inline double tu_val(int i, int salt, int frac) {
    uint32_t x = (uint32_t)i * 2654435761u + (uint32_t)salt * 40503u + 12345u;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    int v = (int)(x % 101u) - 50;
    return frac ? v + 0.25 * (double)((x >> 8) % 4u) : (double)v;
}
/* Nonzero variant (for divisors). */
static inline double tu_val_nz(int i, int salt, int frac) {
    double v = tu_val(i, salt, frac);
    return v == 0.0 ? 3.0 : v;
}

/* Fill n doubles-worth of components of an array of scalar S (as double). */
#define TU_FILL(S, p, n, salt, frac)                                               \
    do {                                                                           \
        for (int tu_i_ = 0; tu_i_ < (int)(n); ++tu_i_) (p)[tu_i_] = (S)tu_val(tu_i_, (salt), (frac)); \
    } while (0)

/* Bytes of memory all equal to b? */
static inline int tu_all_bytes(const void *p, size_t n, unsigned char b) {
    const unsigned char *c = (const unsigned char *)p;
    for (size_t i = 0; i < n; ++i)
        if (c[i] != b) return 0;
    return 1;
}

/* ---- element types, generically ----
 * X(sfx, C type, scalar component type, kind, bits, components). A compound
 * element is an array of its components (v[N] or m[R][C], no padding). */
enum { TU_F = 0, TU_I = 1, TU_U = 2 };
#define TU_SCALAR_TYPES(X)                                                         \
    X(f32, float, float, TU_F, 32, 1)                                              \
    X(f64, double, double, TU_F, 64, 1)                                            \
    X(i32, int32_t, int32_t, TU_I, 32, 1)                                          \
    X(u32, uint32_t, uint32_t, TU_U, 32, 1)                                        \
    X(i64, int64_t, int64_t, TU_I, 64, 1)                                          \
    X(u64, uint64_t, uint64_t, TU_U, 64, 1)
#define TU_COMPOUND_TYPES(X)                                                       \
    X(vec2f, tile_vec2f, float, TU_F, 32, 2)                                       \
    X(vec3f, tile_vec3f, float, TU_F, 32, 3)                                       \
    X(vec4f, tile_vec4f, float, TU_F, 32, 4)                                       \
    X(vec2d, tile_vec2d, double, TU_F, 64, 2)                                      \
    X(vec3d, tile_vec3d, double, TU_F, 64, 3)                                      \
    X(vec4d, tile_vec4d, double, TU_F, 64, 4)                                      \
    X(mat22f, tile_mat22f, float, TU_F, 32, 4)                                     \
    X(mat33f, tile_mat33f, float, TU_F, 32, 9)                                     \
    X(mat44f, tile_mat44f, float, TU_F, 32, 16)                                    \
    X(mat66f, tile_mat66f, float, TU_F, 32, 36)                                    \
    X(mat22d, tile_mat22d, double, TU_F, 64, 4)                                    \
    X(mat33d, tile_mat33d, double, TU_F, 64, 9)                                    \
    X(mat44d, tile_mat44d, double, TU_F, 64, 16)                                   \
    X(mat66d, tile_mat66d, double, TU_F, 64, 36)
#define TU_ALL_TYPES(X) TU_SCALAR_TYPES(X) TU_COMPOUND_TYPES(X)

typedef struct tu_type {
    const char *name;
    int kind, bits, ncomp;
    size_t size; /* sizeof the element */
} tu_type;
#define TU_TYPE(sfx, T, S, kind, bits, nc) {#sfx, kind, bits, nc, sizeof(T)}

/* (not inlined: the compiler would otherwise warn about the branches for
 * wider types than the buffer at hand holds, which are never taken) */
#define TU_NOINLINE __attribute__((noinline, unused))

/* component c (flat index over all elements' components) as a double */
static TU_NOINLINE double tu_get(const tu_type *t, const void *p, size_t c) {
    switch (t->kind * 100 + t->bits) {
    case TU_F * 100 + 32: return ((const float *)p)[c];
    case TU_F * 100 + 64: return ((const double *)p)[c];
    case TU_I * 100 + 32: return ((const int32_t *)p)[c];
    case TU_I * 100 + 64: return (double)((const int64_t *)p)[c];
    case TU_U * 100 + 32: return ((const uint32_t *)p)[c];
    default: return (double)((const uint64_t *)p)[c];
    }
}
static TU_NOINLINE void tu_set(const tu_type *t, void *p, size_t c, double v) {
    switch (t->kind * 100 + t->bits) {
    case TU_F * 100 + 32: ((float *)p)[c] = (float)v; break;
    case TU_F * 100 + 64: ((double *)p)[c] = v; break;
    case TU_I * 100 + 32: ((int32_t *)p)[c] = (int32_t)v; break;
    case TU_I * 100 + 64: ((int64_t *)p)[c] = (int64_t)v; break;
    case TU_U * 100 + 32: ((uint32_t *)p)[c] = (uint32_t)v; break;
    default: ((uint64_t *)p)[c] = (uint64_t)v; break;
    }
}
/* Test values for component c: quarters in [-50, 51) for floating point,
 * integers in [-50, 50] for signed, [0, 100] for unsigned; nz: never 0. */
static inline double tu_data(const tu_type *t, int c, int salt, int nz) {
    double v = nz ? tu_val_nz(c, salt, t->kind == TU_F) : tu_val(c, salt, t->kind == TU_F);
    if (t->kind == TU_U) v = v < 0 ? -v : v;
    return v;
}
static inline void tu_fill(const tu_type *t, void *p, size_t ncomp, int salt, int nz) {
    for (size_t c = 0; c < ncomp; ++c) tu_set(t, p, c, tu_data(t, (int)c, salt, nz));
}
/* Component c equals the reference `ref` (computed in double): within the
 * float tolerance for floating point, exactly for integers (an unsigned
 * reference wraps modulo 2^bits, as C's unsigned arithmetic does). */
static TU_NOINLINE void tu_check_(const tu_type *t, const void *p, size_t c, double ref, const char *what,
                             const char *file, int line) {
    int bad = 0;
    if (t->kind == TU_F) {
        double got = tu_get(t, p, c), tol = t->bits == 32 ? TU_TOL_F32 : TU_TOL_F64;
        bad = !(fabs(got - ref) <= tol * (1.0 + fabs(ref)));
    } else if (t->kind == TU_I) {
        int64_t got = t->bits == 32 ? ((const int32_t *)p)[c] : ((const int64_t *)p)[c];
        bad = got != (int64_t)ref;
    } else {
        uint64_t want = (uint64_t)(int64_t)ref, got;
        if (t->bits == 32) {
            want &= 0xffffffffu;
            got = ((const uint32_t *)p)[c];
        } else {
            got = ((const uint64_t *)p)[c];
        }
        bad = got != want;
    }
    if (bad) {
        print_error("%s [%s] component %zu: got %.17g, expected %.17g\n", what, t->name, c, tu_get(t, p, c), ref);
        _fail(file, line);
    }
}
#define tu_check(t, p, c, ref, what) tu_check_((t), (p), (c), (ref), (what), __FILE__, __LINE__)

/* Contiguous row-major tile_array over dims[0..nd-1]. */
static inline tile_array tu_array(const void *p, const int *dims, int nd) {
    int64_t sh[4], st[4], s = 1;
    for (int k = nd - 1; k >= 0; --k) {
        sh[k] = dims[k];
        st[k] = s;
        s *= dims[k];
    }
    return tile_array_strided(p, nd, sh, st);
}

#endif /* TEST_UTIL_H */
