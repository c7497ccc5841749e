/* tests/warp_parity_common.h - kernels and plain-C references of the Warp
 * parity operations (issue 12): tile_from_thread / tile_full_from_thread,
 * tile_arange (count from constants, tile_arange_n), tile_reshape with -1,
 * tile_squeeze with an axis, tile_slice (strided, reversed, indexed dims;
 * views of shared tiles and register copies, views of views, 3D and 4D,
 * loads/stores/copies through reversed views), tile_slice_indexed,
 * tile_extract with negative indices, tile_atomic_add_old /
 * tile_atomic_add_indexed_old, the per-thread tile_scatter_add (1D-3D,
 * atomic and not), overlapping tile_assign.
 *
 * Shared by tests/cpu/test_construct.c (C11, cmocka, CPU target) and
 * tests/gpu/warp_parity_test.cu (GPU and the CPU target of the nvcc build).
 * Every kernel writes int32 results (floats scaled to exact integers) to one
 * output array; wp_ref_* compute the same array with plain C loops for a
 * given block size (1 on the CPU target) and WP_EQ(what, got, ref, n), which
 * the includer defines, compares them. Entries a kernel does not write keep
 * WP_POISON in both.
 */
#ifndef WARP_PARITY_COMMON_H
#define WARP_PARITY_COMMON_H

#include <stdint.h>
#include <string.h>

#define WP_POISON ((int32_t)0x7f7f7f7f)
enum { WP_NOUT = 1024, WP_NACC = 16, WP_NACC_ALL = 16 + 4 + 9 }; /* ints, floats, 3 vec3f */

/* ---------------------------------------------------------------------
 * 1. construction: tile_from_thread, aranges, reshape -1, squeeze axis
 * --------------------------------------------------------------------- */
#define WP_DEF_CONSTRUCT(B)                                                        \
    TILE_KERNEL_SMEM(wp_construct_##B, B, 2048, int thr, float start, int32_t *out) { \
        int32_t *o = out;                                                          \
        const int tid = tile_thread();                                             \
        const int x = 10 * tid + 7;                                                \
        tile_from_thread(ft, x, thr, 3, 5);                                        \
        TILE__STATIC_ASSERT(tile_ndim(ft) == 2 && tile_dim(ft, 0) == 3 && tile_dim(ft, 1) == 5, "shape"); \
        tile_store(tile_array2(o, 3, 5), ft, 0, 0);                                \
        o += 15;                                                                   \
        const float y = 0.5f * (float)tid + 0.25f;                                 \
        tile_shared(float, fs, 2, 3);                                              \
        tile_full_from_thread(fs, y, thr);                                         \
        tile_reg(float, f4, 2, 3);                                                 \
        tile_mul_c(f4, fs, 4.0f);                                                  \
        tile_reg(int32_t, fi, 2, 3);                                               \
        tile_astype(fi, f4);                                                       \
        tile_store(tile_array2(o, 2, 3), fi, 0, 0);                                \
        o += 6;                                                                    \
        tile_arange(a1, 0, 10, 3);                                                 \
        TILE__STATIC_ASSERT(tile_size(a1) == 3, "int((10 - 0) / 3) = 3");         \
        tile_store(tile_array1(o, 3), a1, 0);                                      \
        o += 3;                                                                    \
        tile_arange(a2, 10, 0, -3);                                                \
        TILE__STATIC_ASSERT(tile_size(a2) == 3, "int(-10 / -3) = 3");             \
        tile_store(tile_array1(o, 3), a2, 0);                                      \
        o += 3;                                                                    \
        tile_arange(a3, 5);                                                        \
        TILE__STATIC_ASSERT(tile_size(a3) == 5, "stop 5");                        \
        tile_store(tile_array1(o, 5), a3, 0);                                      \
        o += 5;                                                                    \
        tile_arange(a4, 1.0f, 2.0f, 0.25f);                                        \
        TILE__STATIC_ASSERT(tile_size(a4) == 4 && sizeof(a4.v[0]) == sizeof(float), "float (4)"); \
        tile_reg(int32_t, a4i, 4);                                                 \
        tile_mul_c(a4, a4, 4.0f);                                                  \
        tile_astype(a4i, a4);                                                      \
        tile_store(tile_array1(o, 4), a4i, 0);                                     \
        o += 4;                                                                    \
        tile_arange_n(float, a5, 6, start, 0.5f);                                  \
        tile_reg(int32_t, a5i, 6);                                                 \
        tile_mul_c(a5, a5, 4.0f);                                                  \
        tile_astype(a5i, a5);                                                      \
        tile_store(tile_array1(o, 6), a5i, 0);                                     \
        o += 6;                                                                    \
        tile_arange_n(int32_t, r24, 24, 3, 2);                                     \
        tile_reshape(r3, r24, 2, -1, 4);                                           \
        TILE__STATIC_ASSERT(tile_ndim(r3) == 3 && tile_dim(r3, 1) == 3, "inferred 3"); \
        tile_store(tile_array3(o, 2, 3, 4), r3, 0, 0, 0);                          \
        o += 24;                                                                   \
        tile_reshape(r1, r3, 1, -1, 1);                                            \
        tile_squeeze(q0, r1, 0);                                                   \
        TILE__STATIC_ASSERT(tile_ndim(q0) == 2 && tile_dim(q0, 0) == 24 && tile_dim(q0, 1) == 1, "(24, 1)"); \
        tile_store(tile_array2(o, 24, 1), q0, 0, 0);                               \
        o += 24;                                                                   \
        tile_squeeze(q2, r1, -1);                                                  \
        TILE__STATIC_ASSERT(tile_ndim(q2) == 2 && tile_dim(q2, 0) == 1 && tile_dim(q2, 1) == 24, "(1, 24)"); \
        tile_store(tile_array2(o, 1, 24), q2, 0, 0);                               \
        o += 24;                                                                   \
        tile_shared(int32_t, sh, 1, 4, 1);                                         \
        tile_arange(sh, 50, -1);                                                   \
        tile_squeeze(sq, sh, 2);                                                   \
        TILE__STATIC_ASSERT(tile_is_shared(sq) && tile_ndim(sq) == 2 && tile_dim(sq, 1) == 4, "(1, 4) view"); \
        tile_store(tile_array2(o, 1, 4), sq, 0, 0);                                \
        o += 4;                                                                    \
        tile_reshape(sh2, sh, -1, 2);                                              \
        tile_store(tile_array2(o, 2, 2), sh2, 0, 0);                               \
        o += 4;                                                                    \
        /* tile_dot and tile_axpy over 40 elements (partial slots at 32, 96) */   \
        tile_arange_n(int32_t, da, 40, 1, 1);                                      \
        tile_arange_n(int32_t, db, 40, 2, 3);                                      \
        tile_dot(dd, da, db);                                                      \
        tile_axpy(3, da, db);                                                      \
        tile_store(tile_array1(o, 40), db, 0);                                     \
        o += 40;                                                                   \
        if (tile_thread() == 0) o[0] = tile_value(dd);                             \
        o += 1;                                                                    \
    }

static inline void wp_ref_construct(int bd, int thr, float start, int32_t *ref) {
    int32_t *o = ref;
    const int src = bd == 1 ? 0 : (thr >= 0 && thr < bd ? thr : 0);
    for (int i = 0; i < 15; ++i) o[i] = 10 * src + 7;
    o += 15;
    for (int i = 0; i < 6; ++i) o[i] = (int32_t)(4.0 * (0.5 * src + 0.25));
    o += 6;
    for (int i = 0; i < 3; ++i) o[i] = 3 * i;
    o += 3;
    for (int i = 0; i < 3; ++i) o[i] = 10 - 3 * i;
    o += 3;
    for (int i = 0; i < 5; ++i) o[i] = i;
    o += 5;
    for (int i = 0; i < 4; ++i) o[i] = (int32_t)(4.0 * (1.0 + 0.25 * i));
    o += 4;
    for (int i = 0; i < 6; ++i) o[i] = (int32_t)(4.0 * ((double)start + 0.5 * i));
    o += 6;
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 24; ++i) o[24 * k + i] = 3 + 2 * i;
    o += 72;
    for (int i = 0; i < 4; ++i) o[i] = 50 - i;
    o += 4;
    for (int i = 0; i < 4; ++i) o[i] = 50 - i;
    o += 4;
    int32_t dot = 0; /* sum (1 + i)(2 + 3 i); axpy: 3 (1 + i) + 2 + 3 i */
    for (int i = 0; i < 40; ++i) o[i] = 5 + 6 * i, dot += (1 + i) * (2 + 3 * i);
    o += 40;
    o[0] = dot;
    o += 1;
}

/* ---------------------------------------------------------------------
 * 2. slices: views of shared tiles, register copies
 * --------------------------------------------------------------------- */
/* 2D slices of a (5, 6) tile X holding 6 i + j, stored in order */
#define WP_SLICES_2D(o, X, row)                                                    \
    do {                                                                           \
        tile_slice(a, X, TILE_STEP(2), TILE_STEP(2));                              \
        TILE__STATIC_ASSERT(tile_dim(a, 0) == 3 && tile_dim(a, 1) == 3, "(3, 3)"); \
        tile_store(tile_array2(o, 3, 3), a, 0, 0);                                 \
        o += 9;                                                                    \
        tile_slice(b, X, TILE_REV);                                                \
        tile_store(tile_array2(o, 5, 6), b, 0, 0);                                 \
        o += 30;                                                                   \
        tile_slice(c, X, TILE_AT(-1), TILE_SLICE(TILE_NONE, 1, -2));               \
        TILE__STATIC_ASSERT(tile_ndim(c) == 1 && tile_dim(c, 0) == 2, "(2)");     \
        tile_store(tile_array1(o, 2), c, 0);                                       \
        o += 2;                                                                    \
        tile_slice(d, X, TILE_RANGE(1, -1), TILE_AT(2));                           \
        TILE__STATIC_ASSERT(tile_ndim(d) == 1 && tile_dim(d, 0) == 3, "(3)");     \
        tile_store(tile_array1(o, 3), d, 0);                                       \
        o += 3;                                                                    \
        tile_slice(e, X, TILE_AT(row), TILE_REV);                                  \
        tile_store(tile_array1(o, 6), e, 0);                                       \
        o += 6;                                                                    \
        tile_slice(f, X, TILE_SLICE(-2, TILE_NONE, -2), TILE_SLICE(1, 100, 3));    \
        TILE__STATIC_ASSERT(tile_dim(f, 0) == 2 && tile_dim(f, 1) == 2, "(2, 2)"); \
        tile_store(tile_array2(o, 2, 2), f, 0, 0);                                 \
        o += 4;                                                                    \
        tile_slice(g, b, TILE_STEP(2), TILE_SLICE(4, 0, -1)); /* a slice of a slice */ \
        TILE__STATIC_ASSERT(tile_dim(g, 0) == 3 && tile_dim(g, 1) == 4, "(3, 4)"); \
        tile_store(tile_array2(o, 3, 4), g, 0, 0);                                 \
        o += 12;                                                                   \
    } while (0)
#define WP_DEF_SLICES(B)                                                           \
    TILE_KERNEL_SMEM(wp_slices_##B, B, 8192, int row, int32_t *out) {              \
        int32_t *o = out;                                                          \
        tile_shared(int32_t, s, 5, 6);                                             \
        tile_arange(s, 0, 1);                                                      \
        tile_reg(int32_t, r, 5, 6);                                                \
        tile_arange(r, 0, 1);                                                      \
        WP_SLICES_2D(o, s, row);                                                   \
        WP_SLICES_2D(o, r, row);                                                   \
        /* writes through a strided reversed view land in the parent */           \
        tile_shared(int32_t, w, 4, 6);                                             \
        tile_zeros(w);                                                             \
        tile_slice(wv, w, TILE_STEP(2), TILE_REV);                                 \
        tile_reg(int32_t, w26, 2, 6);                                              \
        tile_arange(w26, 100, 1);                                                  \
        tile_copy(wv, w26);                                                        \
        tile_store(tile_array2(o, 4, 6), w, 0, 0);                                 \
        o += 24;                                                                   \
        /* a load into a reversed view (load.h's path for strided tiles) */       \
        tile_zeros(w);                                                             \
        tile_slice(wr, w, TILE_SLICE(3, 0, -2), TILE_SLICE(TILE_NONE, TILE_NONE, -1)); \
        tile_load(wr, tile_array2(out, 2, 6), 0, 0); /* out[0..11] = a and b's start */ \
        tile_store(tile_array2(o, 4, 6), w, 0, 0);                                 \
        o += 24;                                                                   \
        /* 3D and 4D */                                                            \
        tile_shared(int32_t, s3, 2, 3, 4);                                         \
        tile_arange(s3, 0, 1);                                                     \
        tile_slice(h, s3, TILE_ALL, TILE_REV, TILE_STEP(2));                       \
        TILE__STATIC_ASSERT(tile_dim(h, 0) == 2 && tile_dim(h, 1) == 3 && tile_dim(h, 2) == 2, "(2, 3, 2)"); \
        tile_store(tile_array3(o, 2, 3, 2), h, 0, 0, 0);                           \
        o += 12;                                                                   \
        tile_slice(h2, s3, TILE_AT(1), TILE_ALL, TILE_AT(-1));                     \
        TILE__STATIC_ASSERT(tile_ndim(h2) == 1 && tile_dim(h2, 0) == 3, "(3)");   \
        tile_store(tile_array1(o, 3), h2, 0);                                      \
        o += 3;                                                                    \
        tile_reg(int32_t, r3, 2, 3, 4);                                            \
        tile_arange(r3, 0, 1);                                                     \
        tile_slice(h3, r3, TILE_ALL, TILE_REV, TILE_STEP(2));                      \
        tile_store(tile_array3(o, 2, 3, 2), h3, 0, 0, 0);                          \
        o += 12;                                                                   \
        tile_shared(int32_t, s4, 2, 2, 2, 3);                                      \
        tile_arange(s4, 0, 1);                                                     \
        tile_slice(k4, s4, TILE_REV, TILE_ALL, TILE_STEP(2));                      \
        TILE__STATIC_ASSERT(tile_ndim(k4) == 4 && tile_dim(k4, 2) == 1 && tile_dim(k4, 3) == 3, "(2, 2, 1, 3)"); \
        tile_store(tile_array4(o, 2, 2, 1, 3), k4, 0, 0, 0, 0);                    \
        o += 12;                                                                   \
        tile_squeeze(k4q, k4); /* a squeezed reversed view */                      \
        TILE__STATIC_ASSERT(tile_ndim(k4q) == 3, "(2, 2, 3)");                    \
        tile_store(tile_array3(o, 2, 2, 3), k4q, 0, 0, 0);                         \
        o += 12;                                                                   \
        /* several slots per thread: (16, 12) register and shared */              \
        tile_reg(int32_t, rb, 16, 12);                                             \
        tile_arange(rb, 0, 1);                                                     \
        tile_slice(rbs, rb, TILE_STEP(3), TILE_REV);                               \
        TILE__STATIC_ASSERT(tile_dim(rbs, 0) == 6 && tile_dim(rbs, 1) == 12, "(6, 12)"); \
        tile_store(tile_array2(o, 6, 12), rbs, 0, 0);                              \
        o += 72;                                                                   \
        tile_to_shared(sb, rb);                                                    \
        tile_slice(sbs, sb, TILE_STEP(3), TILE_REV);                               \
        tile_store(tile_array2(o, 6, 12), sbs, 0, 0);                              \
        o += 72;                                                                   \
    }

/* CPython's slice.indices, then the walk: the indices of a[a:b:c] (c != 0)
 * of an axis of length n; WP_NONE_ = omitted */
#define WP_NONE_ TILE_NONE
static inline int wp_pyslice(int n, int a, int b, int c, int *idx) {
    int start, stop, k = 0;
    if (c > 0) {
        start = a == WP_NONE_ ? 0 : a < 0 ? (a + n < 0 ? 0 : a + n) : (a > n ? n : a);
        stop = b == WP_NONE_ ? n : b < 0 ? (b + n < 0 ? 0 : b + n) : (b > n ? n : b);
        for (int i = start; i < stop; i += c) idx[k++] = i;
    } else {
        start = a == WP_NONE_ ? n - 1 : a < 0 ? (a + n < -1 ? -1 : a + n) : (a > n - 1 ? n - 1 : a);
        stop = b == WP_NONE_ ? -1 : b < 0 ? (b + n < -1 ? -1 : b + n) : (b > n - 1 ? n - 1 : b);
        for (int i = start; i > stop; i += c) idx[k++] = i;
    }
    return k;
}
/* a (rows x cols) selection of M (n0 x n1, row-major values) by index lists */
static inline int32_t *wp_take2(int32_t *o, const int32_t *M, int n1, const int *ri, int nr, const int *ci, int nc) {
    for (int i = 0; i < nr; ++i)
        for (int j = 0; j < nc; ++j) *o++ = M[ri[i] * n1 + ci[j]];
    return o;
}
static inline void wp_ref_slices(int row, int32_t *ref) {
    int32_t M[30], B[30];
    int ri[8], ci[8], nr, nc;
    for (int i = 0; i < 30; ++i) M[i] = i;
    int32_t *o = ref;
    for (int rep = 0; rep < 2; ++rep) {
        nr = wp_pyslice(5, WP_NONE_, WP_NONE_, 2, ri), nc = wp_pyslice(6, WP_NONE_, WP_NONE_, 2, ci);
        o = wp_take2(o, M, 6, ri, nr, ci, nc);
        nr = wp_pyslice(5, WP_NONE_, WP_NONE_, -1, ri), nc = wp_pyslice(6, WP_NONE_, WP_NONE_, 1, ci);
        int32_t *bstart = o;
        o = wp_take2(o, M, 6, ri, nr, ci, nc);
        memcpy(B, bstart, sizeof(B));
        ri[0] = 4, nc = wp_pyslice(6, WP_NONE_, 1, -2, ci);
        o = wp_take2(o, M, 6, ri, 1, ci, nc);
        nr = wp_pyslice(5, 1, -1, 1, ri), ci[0] = 2;
        o = wp_take2(o, M, 6, ri, nr, ci, 1);
        ri[0] = row < 0 ? row + 5 : row, nc = wp_pyslice(6, WP_NONE_, WP_NONE_, -1, ci);
        o = wp_take2(o, M, 6, ri, 1, ci, nc);
        nr = wp_pyslice(5, -2, WP_NONE_, -2, ri), nc = wp_pyslice(6, 1, 100, 3, ci);
        o = wp_take2(o, M, 6, ri, nr, ci, nc);
        nr = wp_pyslice(5, WP_NONE_, WP_NONE_, 2, ri), nc = wp_pyslice(6, 4, 0, -1, ci);
        o = wp_take2(o, B, 6, ri, nr, ci, nc);
    }
    /* w[::2, ::-1] = 100 + arange */
    for (int i = 0; i < 24; ++i) o[i] = 0;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 6; ++j) o[(2 * i) * 6 + (5 - j)] = 100 + 6 * i + j;
    o += 24;
    /* w[3:0:-2, ::-1] = out[0..11] viewed (2, 6): the first slice results */
    for (int i = 0; i < 24; ++i) o[i] = 0;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 6; ++j) o[(3 - 2 * i) * 6 + (5 - j)] = ref[6 * i + j];
    o += 24;
    for (int rep = 0; rep < 2; ++rep) {
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 2; ++k) *o++ = 12 * i + 4 * (2 - j) + 2 * k;
        if (rep == 0)
            for (int j = 0; j < 3; ++j) *o++ = 12 + 4 * j + 3;
    }
    for (int rep = 0; rep < 2; ++rep)
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                for (int l = 0; l < 3; ++l) *o++ = 12 * (1 - i) + 6 * j + l;
    for (int rep = 0; rep < 2; ++rep)
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 12; ++j) *o++ = 12 * (3 * i) + (11 - j);
}

/* ---------------------------------------------------------------------
 * 3. gathers from tiles, tile_extract with negative indices, atomic adds
 *    that return the previous values
 * --------------------------------------------------------------------- */
/* idx[0..5] = 4 -1 0 2 -6 3; idx[6..8] = 3 -4 9; idx[9..11] = 0 -1 2 */
static const int32_t wp_idx_host[12] = {4, -1, 0, 2, -6, 3, 3, -4, 9, 0, -1, 2};
#define WP_DEF_GATHER(B)                                                           \
    TILE_KERNEL_SMEM(wp_gather_##B, B, 4096, const int32_t *idx, int32_t *acc, int32_t *out) { \
        int32_t *o = out;                                                          \
        tile_shared(int32_t, s, 5, 4);                                             \
        tile_arange(s, 0, 1);                                                      \
        tile_reg(int32_t, r, 5, 4);                                                \
        tile_arange(r, 0, 1);                                                      \
        tile_reg(int32_t, ix, 6);                                                  \
        tile_load(ix, tile_array1(idx, 6), 0);                                     \
        tile_shared(int32_t, ixs, 3);                                              \
        tile_load(ixs, tile_array1(idx + 6, 3), 0);                                \
        tile_slice_indexed(g0, s, ix, 0);                                          \
        TILE__STATIC_ASSERT(tile_dim(g0, 0) == 6 && tile_dim(g0, 1) == 4 && !tile_is_shared(g0), "(6, 4)"); \
        tile_store(tile_array2(o, 6, 4), g0, 0, 0);                                \
        o += 24;                                                                   \
        tile_slice_indexed(g1, r, ix, 0);                                          \
        tile_store(tile_array2(o, 6, 4), g1, 0, 0);                                \
        o += 24;                                                                   \
        tile_slice_indexed(g2, s, ixs, 1);                                         \
        TILE__STATIC_ASSERT(tile_dim(g2, 0) == 5 && tile_dim(g2, 1) == 3, "(5, 3)"); \
        tile_store(tile_array2(o, 5, 3), g2, 0, 0);                                \
        o += 15;                                                                   \
        tile_slice_indexed(g3, r, ixs, 1);                                         \
        tile_store(tile_array2(o, 5, 3), g3, 0, 0);                                \
        o += 15;                                                                   \
        tile_reg(int32_t, ix3, 3);                                                 \
        tile_load(ix3, tile_array1(idx + 6, 3), 0);                                \
        tile_slice_indexed(g4, r, ix3, 1); /* a register index staged */          \
        tile_store(tile_array2(o, 5, 3), g4, 0, 0);                                \
        o += 15;                                                                   \
        tile_reg(int32_t, rb, 16, 12);                                             \
        tile_arange(rb, 0, 1);                                                     \
        tile_reg(int32_t, ib, 20);                                                 \
        tile_arange(ib, 17, -1); /* 17 .. -2: 17, 16 read zero; -1, -2 wrap */     \
        tile_slice_indexed(gb, rb, ib, 0);                                         \
        tile_store(tile_array2(o, 20, 12), gb, 0, 0);                              \
        o += 240;                                                                  \
        tile_reg(int32_t, v1, 7);                                                  \
        tile_arange(v1, 100, 1);                                                   \
        tile_slice_indexed(g5, v1, ix, 0); /* 1D: the index in the same slot */   \
        tile_store(tile_array1(o, 6), g5, 0);                                      \
        o += 6;                                                                    \
        const int32_t e0 = tile_extract(r, -1, -2), e1 = tile_extract(s, -5, 3), e2 = tile_extract(v1, -7); \
        if (tile_thread() == 0) o[0] = e0, o[1] = e1, o[2] = e2;                   \
        o += 3;                                                                    \
        /* atomic adds returning old values: acc (16) = 1000 + i on entry */      \
        tile_reg(int32_t, t5, 5);                                                  \
        tile_arange(t5, 1, 1);                                                     \
        tile_reg(int32_t, old5, 5);                                                \
        tile_atomic_add_old(old5, tile_array1(acc, 16), t5, 13);                   \
        tile_store(tile_array1(o, 5), old5, 0);                                    \
        o += 5;                                                                    \
        tile_reg(int32_t, t23, 2, 3);                                              \
        tile_arange(t23, 10, 10);                                                  \
        tile_shared(int32_t, olds, 2, 3);                                          \
        tile_atomic_add_old(olds, tile_array2(acc, 4, 4), t23, 1, 2);              \
        tile_store(tile_array2(o, 2, 3), olds, 0, 0);                              \
        o += 6;                                                                    \
        tile_reg(int32_t, ixa, 3);                                                 \
        tile_load(ixa, tile_array1(idx + 9, 3), 0);                                \
        tile_reg(int32_t, t32, 3, 2);                                              \
        tile_arange(t32, 7, 1);                                                    \
        tile_reg(int32_t, old32, 3, 2);                                            \
        tile_atomic_add_indexed_old(old32, tile_array2(acc, 4, 4), t32, ixa, 0, 0, 0); \
        tile_store(tile_array2(o, 3, 2), old32, 0, 0);                             \
        o += 6;                                                                    \
        tile_reg(float, tf, 4);                                                    \
        tile_arange(tf, 0.5f, 0.25f);                                              \
        float *accf = (float *)(acc + 16); /* 4 floats after the ints, 2.0 on entry */ \
        tile_atomic_add_old(tf, tile_array1(accf, 4), tf, 0); /* old may be t itself */ \
        tile_reg(int32_t, tfi, 4);                                                 \
        tile_mul_c(tf, tf, 4.0f);                                                  \
        tile_astype(tfi, tf);                                                      \
        tile_store(tile_array1(o, 4), tfi, 0);                                     \
        o += 4;                                                                    \
        /* vec3f: old values per component; accv (3) = (1.5, 1.5, 1.5) on entry */ \
        tile_vec3f *accv = (tile_vec3f *)(acc + 20);                               \
        tile_reg(tile_vec3f, tv, 4);                                               \
        tile_full(tv, tile_vec3f_set(1.0f, 2.0f, 3.0f));                           \
        tile_reg(tile_vec3f, oldv, 4);                                             \
        tile_atomic_add_old(oldv, tile_array1(accv, 3), tv, 0); /* the 4th is outside */ \
        tile_reg(float, ov0, 4);                                                   \
        tile_reg(float, ov2, 4);                                                   \
        tile_map(ov0, WP_X, oldv);                                                 \
        tile_map(ov2, WP_Z, oldv);                                                 \
        tile_mul_c(ov0, ov0, 4.0f);                                                \
        tile_mul_c(ov2, ov2, 4.0f);                                                \
        tile_reg(int32_t, ovi, 4);                                                 \
        tile_astype(ovi, ov0);                                                     \
        tile_store(tile_array1(o, 4), ovi, 0);                                     \
        o += 4;                                                                    \
        tile_astype(ovi, ov2);                                                     \
        tile_store(tile_array1(o, 4), ovi, 0);                                     \
        o += 4;                                                                    \
    }
#define WP_X(e) ((e).v[0])
#define WP_Z(e) ((e).v[2])
static inline void wp_ref_gather(int32_t *ref, int32_t *acc_after) {
    int32_t *o = ref;
    const int32_t *ix = wp_idx_host, *ixs = wp_idx_host + 6, *ixa = wp_idx_host + 9;
    for (int rep = 0; rep < 2; ++rep)
        for (int k = 0; k < 6; ++k) {
            int j = ix[k] < 0 ? ix[k] + 5 : ix[k];
            for (int c = 0; c < 4; ++c) *o++ = j >= 0 && j < 5 ? 4 * j + c : 0;
        }
    for (int rep = 0; rep < 3; ++rep)
        for (int i = 0; i < 5; ++i)
            for (int k = 0; k < 3; ++k) {
                int j = ixs[k] < 0 ? ixs[k] + 4 : ixs[k];
                *o++ = j >= 0 && j < 4 ? 4 * i + j : 0;
            }
    for (int k = 0; k < 20; ++k) {
        int j = 17 - k;
        j = j < 0 ? j + 16 : j;
        for (int c = 0; c < 12; ++c) *o++ = j >= 0 && j < 16 ? 12 * j + c : 0;
    }
    for (int k = 0; k < 6; ++k) {
        int j = ix[k] < 0 ? ix[k] + 7 : ix[k];
        *o++ = j >= 0 && j < 7 ? 100 + j : 0;
    }
    *o++ = 4 * 4 + 2;
    *o++ = 3;
    *o++ = 100;
    int32_t acc[16];
    for (int i = 0; i < 16; ++i) acc[i] = 1000 + i;
    for (int i = 0; i < 5; ++i) {
        int g = 13 + i;
        *o++ = g < 16 ? acc[g] : 0;
        if (g < 16) acc[g] += 1 + i;
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) {
            int r = 1 + i, c = 2 + j;
            *o++ = c < 4 ? acc[4 * r + c] : 0;
            if (c < 4) acc[4 * r + c] += 10 + 10 * (3 * i + j);
        }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) {
            int r = ixa[i];
            *o++ = r >= 0 ? acc[4 * r + j] : 0;
            if (r >= 0) acc[4 * r + j] += 7 + 2 * i + j;
        }
    for (int i = 0; i < 4; ++i) *o++ = (int32_t)(4.0 * 2.0);
    for (int c = 0; c < 2; ++c)
        for (int i = 0; i < 4; ++i) *o++ = i < 3 ? (int32_t)(4.0 * 1.5) : 0;
    if (acc_after) memcpy(acc_after, acc, sizeof(acc));
}

/* ---------------------------------------------------------------------
 * 4. per-thread scatter-adds, overlapping tile_assign
 * --------------------------------------------------------------------- */
#define WP_BIN(tid, round) ((tid) == 2 ? 100 : (tid) == 5 ? -1 : ((tid)*3 + (round)) % 8)
#define WP_DEF_SCATTER(B)                                                          \
    TILE_KERNEL_SMEM(wp_scatter_##B, B, 4096, int32_t *out) {                     \
        int32_t *o = out;                                                          \
        const int tid = tile_thread();                                             \
        tile_shared(float, h, 8);                                                  \
        tile_zeros(h);                                                             \
        for (int round = 0; round < 3; ++round)                                    \
            tile_scatter_add(h, WP_BIN(tid, round), 0.5f * (float)(tid + 1), tid % 5 != 4); \
        tile_reg(float, hf, 8);                                                    \
        tile_mul_c(hf, h, 2.0f);                                                   \
        tile_reg(int32_t, hi, 8);                                                  \
        tile_astype(hi, hf);                                                       \
        tile_store(tile_array1(o, 8), hi, 0);                                      \
        o += 8;                                                                    \
        tile_shared(int32_t, h2, 4, 5);                                            \
        tile_zeros(h2);                                                            \
        tile_scatter_add_nonatomic(h2, tid % 4, (tid / 4) % 5, tid + 1, tid < 20); \
        tile_scatter_add(h2, tid % 4, 0, 100, tid < 8);                            \
        tile_scatter_add_nonatomic(h2, 3, 4, 1000, tid == 0);                      \
        tile_store(tile_array2(o, 4, 5), h2, 0, 0);                                \
        o += 20;                                                                   \
        tile_shared(int32_t, h3, 2, 2, 2);                                         \
        tile_zeros(h3);                                                            \
        tile_scatter_add(h3, tid & 1, (tid >> 1) & 1, (tid >> 2) & 1, 1, 1);       \
        tile_scatter_add(h3, 0, 0, tid - 40, 5, 1); /* in range for tid 40, 41 */ \
        tile_store(tile_array3(o, 2, 2, 2), h3, 0, 0, 0);                          \
        o += 8;                                                                    \
        /* per-thread masked writes: the highest writing thread wins */           \
        tile_shared(int32_t, mk, 8);                                               \
        tile_zeros(mk);                                                            \
        tile_scatter_masked(mk, tid / 2, 10 * tid, tid < 16);                      \
        tile_store(tile_array1(o, 8), mk, 0);                                      \
        o += 8;                                                                    \
        tile_shared(int32_t, mk2, 3, 4);                                           \
        tile_zeros(mk2);                                                           \
        tile_scatter_masked(mk2, tid % 3, (tid / 3) % 5, tid + 1, 1); /* column 4: skipped */ \
        tile_store(tile_array2(o, 3, 4), mk2, 0, 0);                               \
        o += 12;                                                                   \
        /* a vector element type: one atomic per component */                     \
        tile_shared(tile_vec3f, hv, 2);                                            \
        tile_zeros(hv);                                                            \
        tile_scatter_add(hv, tid & 1, tile_vec3f_set(1.0f, (float)tid, 0.5f), 1);  \
        if (tid == 0)                                                              \
            for (int c = 0; c < 6; ++c) o[c] = (int32_t)(2.0f * tile_get(hv, c / 3).v[c % 3]); \
        o += 6;                                                                    \
        tile_barrier();                                                            \
        tile_shared(int32_t, m, 10);                                               \
        tile_arange(m, 0, 1);                                                      \
        tile_view(m0, m, (8), (0));                                                \
        tile_assign(m, m0, 2);                                                     \
        tile_store(tile_array1(o, 10), m, 0);                                      \
        o += 10;                                                                   \
        tile_arange(m, 0, 1);                                                      \
        tile_view(m2, m, (8), (2));                                                \
        tile_assign(m, m2, 0);                                                     \
        tile_store(tile_array1(o, 10), m, 0);                                      \
        o += 10;                                                                   \
        tile_arange(m, 0, 1);                                                      \
        tile_slice(mr, m, TILE_REV);                                               \
        tile_assign(m, mr, 0);                                                     \
        tile_store(tile_array1(o, 10), m, 0);                                      \
        o += 10;                                                                   \
        tile_shared(int32_t, q, 6, 7);                                             \
        tile_arange(q, 0, 1);                                                      \
        tile_view(qv, q, (5, 6), (0, 1));                                          \
        tile_assign(q, qv, 1, 0);                                                  \
        tile_store(tile_array2(o, 6, 7), q, 0, 0);                                 \
        o += 42;                                                                   \
        tile_shared(int32_t, q2, 6, 7);                                            \
        tile_arange(q2, 0, 1);                                                     \
        tile_arange(q, 0, 1);                                                      \
        tile_assign(q2, qv, 1, 0); /* no overlap: q is another tile */             \
        tile_store(tile_array2(o, 6, 7), q2, 0, 0);                                \
        o += 42;                                                                   \
    }
static inline void wp_ref_scatter(int bd, int32_t *ref) {
    int32_t *o = ref;
    double h[8] = {0};
    for (int round = 0; round < 3; ++round)
        for (int tid = 0; tid < bd; ++tid) {
            int b = WP_BIN(tid, round);
            if (tid % 5 != 4 && b >= 0 && b < 8) h[b] += 0.5 * (tid + 1);
        }
    for (int i = 0; i < 8; ++i) *o++ = (int32_t)(2.0 * h[i]);
    int32_t h2[20] = {0};
    for (int tid = 0; tid < bd; ++tid)
        if (tid < 20) h2[(tid % 4) * 5 + (tid / 4) % 5] += tid + 1;
    for (int tid = 0; tid < bd; ++tid)
        if (tid < 8) h2[(tid % 4) * 5] += 100;
    h2[19] += 1000;
    memcpy(o, h2, sizeof(h2));
    o += 20;
    int32_t h3[8] = {0};
    for (int tid = 0; tid < bd; ++tid) h3[(tid & 1) * 4 + ((tid >> 1) & 1) * 2 + ((tid >> 2) & 1)] += 1;
    if (bd > 40) h3[0] += 5; /* tid 40 */
    if (bd > 41) h3[1] += 5; /* tid 41 */
    memcpy(o, h3, sizeof(h3));
    o += 8;
    int32_t mk[8] = {0}, mk2[12] = {0};
    for (int tid = 0; tid < bd; ++tid) /* in thread order: the last writer wins */
        if (tid < 16) mk[tid / 2] = 10 * tid;
    for (int tid = 0; tid < bd; ++tid)
        if ((tid / 3) % 5 < 4) mk2[(tid % 3) * 4 + (tid / 3) % 5] = tid + 1;
    memcpy(o, mk, sizeof(mk));
    o += 8;
    memcpy(o, mk2, sizeof(mk2));
    o += 12;
    double hv[6] = {0};
    for (int tid = 0; tid < bd; ++tid) {
        hv[(tid & 1) * 3 + 0] += 1.0;
        hv[(tid & 1) * 3 + 1] += tid;
        hv[(tid & 1) * 3 + 2] += 0.5;
    }
    for (int c = 0; c < 6; ++c) o[c] = (int32_t)(2.0 * hv[c]);
    o += 6;
    for (int i = 0; i < 10; ++i) o[i] = i < 2 ? i : i - 2;
    o += 10;
    for (int i = 0; i < 10; ++i) o[i] = i < 8 ? i + 2 : i;
    o += 10;
    for (int i = 0; i < 10; ++i) o[i] = 9 - i;
    o += 10;
    for (int rep = 0; rep < 2; ++rep) {
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 7; ++j) o[7 * i + j] = (i >= 1 && j < 6) ? 7 * (i - 1) + j + 1 : 7 * i + j;
        o += 42;
    }
}

#define WP_DEF_ALL(B) WP_DEF_CONSTRUCT(B) WP_DEF_SLICES(B) WP_DEF_GATHER(B) WP_DEF_SCATTER(B)

/* run the four kernels of block size B on ex (bd: its block_dim, 1 on the
 * CPU target) and compare with the references */
#define WP_RUN_ALL(ex, B, bd)                                                      \
    do {                                                                           \
        int32_t *wp_ref = (int32_t *)malloc(sizeof(int32_t) * WP_NOUT);            \
        int32_t *wp_got = (int32_t *)malloc(sizeof(int32_t) * WP_NOUT);            \
        int32_t *wp_d = (int32_t *)tile_alloc(ex, sizeof(int32_t) * WP_NOUT);      \
        int32_t *wp_dacc = (int32_t *)tile_alloc(ex, sizeof(int32_t) * WP_NACC_ALL); \
        int32_t *wp_didx = (int32_t *)tile_alloc(ex, sizeof(wp_idx_host));         \
        int32_t wp_acc[WP_NACC_ALL], wp_acc_ref[WP_NACC];                          \
        for (int wp_thr = -1; wp_thr < 4; wp_thr += 2) { /* -1: out of range, 1, 3 */ \
            for (int i = 0; i < WP_NOUT; ++i) wp_ref[i] = wp_got[i] = WP_POISON;   \
            tile_copy_to(ex, wp_d, wp_got, sizeof(int32_t) * WP_NOUT);             \
            WP_LAUNCH_OK(tile_launch(ex, wp_construct_##B, tile_grid1(1), B, wp_thr == -1 ? (B) + 3 : wp_thr, \
                                     -1.25f, wp_d));                               \
            tile_copy_from(ex, wp_got, wp_d, sizeof(int32_t) * WP_NOUT);           \
            wp_ref_construct(bd, wp_thr == -1 ? (B) + 3 : wp_thr, -1.25f, wp_ref); \
            WP_EQ("construct", wp_got, wp_ref, WP_NOUT);                           \
        }                                                                          \
        for (int wp_row = -2; wp_row <= 1; wp_row += 3) {                          \
            for (int i = 0; i < WP_NOUT; ++i) wp_ref[i] = wp_got[i] = WP_POISON;   \
            tile_copy_to(ex, wp_d, wp_got, sizeof(int32_t) * WP_NOUT);             \
            WP_LAUNCH_OK(tile_launch(ex, wp_slices_##B, tile_grid1(1), B, wp_row, wp_d)); \
            tile_copy_from(ex, wp_got, wp_d, sizeof(int32_t) * WP_NOUT);           \
            wp_ref_slices(wp_row, wp_ref);                                         \
            WP_EQ("slices", wp_got, wp_ref, WP_NOUT);                              \
        }                                                                          \
        for (int i = 0; i < WP_NOUT; ++i) wp_ref[i] = wp_got[i] = WP_POISON;       \
        for (int i = 0; i < WP_NACC; ++i) wp_acc[i] = 1000 + i;                    \
        for (int i = 0; i < 4 + 9; ++i) {                                          \
            const float f = i < 4 ? 2.0f : 1.5f;                                   \
            memcpy(&wp_acc[WP_NACC + i], &f, 4);                                   \
        }                                                                          \
        tile_copy_to(ex, wp_d, wp_got, sizeof(int32_t) * WP_NOUT);                 \
        tile_copy_to(ex, wp_dacc, wp_acc, sizeof(wp_acc));                         \
        tile_copy_to(ex, wp_didx, wp_idx_host, sizeof(wp_idx_host));               \
        WP_LAUNCH_OK(tile_launch(ex, wp_gather_##B, tile_grid1(1), B, (const int32_t *)wp_didx, wp_dacc, wp_d)); \
        tile_copy_from(ex, wp_got, wp_d, sizeof(int32_t) * WP_NOUT);               \
        tile_copy_from(ex, wp_acc, wp_dacc, sizeof(wp_acc));                       \
        wp_ref_gather(wp_ref, wp_acc_ref);                                         \
        WP_EQ("gather/extract/atomic old", wp_got, wp_ref, WP_NOUT);               \
        WP_EQ("atomic adds (the array)", wp_acc, wp_acc_ref, WP_NACC);             \
        {                                                                          \
            int32_t wp_fr[4], wp_fg[4];                                            \
            for (int i = 0; i < 4; ++i) {                                          \
                float f;                                                           \
                memcpy(&f, &wp_acc[WP_NACC + i], 4);                               \
                wp_fg[i] = (int32_t)(4.0f * f);                                    \
                wp_fr[i] = (int32_t)(4.0 * (2.0 + 0.5 + 0.25 * i));                \
            }                                                                      \
            WP_EQ("atomic adds (float array)", wp_fg, wp_fr, 4);                   \
            int32_t wp_vr[9], wp_vg[9];                                            \
            for (int i = 0; i < 9; ++i) {                                          \
                float f;                                                           \
                memcpy(&f, &wp_acc[WP_NACC + 4 + i], 4);                           \
                wp_vg[i] = (int32_t)(4.0f * f);                                    \
                wp_vr[i] = (int32_t)(4.0 * (1.5 + 1.0 + i % 3));                   \
            }                                                                      \
            WP_EQ("atomic adds (vec3f array)", wp_vg, wp_vr, 9);                   \
        }                                                                          \
        for (int i = 0; i < WP_NOUT; ++i) wp_ref[i] = wp_got[i] = WP_POISON;       \
        tile_copy_to(ex, wp_d, wp_got, sizeof(int32_t) * WP_NOUT);                 \
        WP_LAUNCH_OK(tile_launch(ex, wp_scatter_##B, tile_grid1(1), B, wp_d));     \
        tile_copy_from(ex, wp_got, wp_d, sizeof(int32_t) * WP_NOUT);               \
        wp_ref_scatter(bd, wp_ref);                                                \
        WP_EQ("scatter/assign", wp_got, wp_ref, WP_NOUT);                          \
        tile_free(ex, wp_d);                                                       \
        tile_free(ex, wp_dacc);                                                    \
        tile_free(ex, wp_didx);                                                    \
        free(wp_ref);                                                              \
        free(wp_got);                                                              \
    } while (0)

#endif /* WARP_PARITY_COMMON_H */
