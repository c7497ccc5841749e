/* tests/gpu/reduce_stack_test.cu - block algorithms (tile/reduce.h argmin,
 * argmax, axis and compound reductions; tile/stack.h) on the GPU and on the
 * CPU target of the same nvcc build, each run checked against plain host
 * references.
 *
 *   reduce_stack_test             GPU 0 (when there is one), then the CPU target
 *   reduce_stack_test --cpu-only  the CPU target only (CI machines without a GPU)
 *
 * Covered:
 *  - tile_argmin / tile_argmax (and tile_min / tile_max against the values at
 *    those indices) of shared and register tiles, lengths 1, 2, 31, 32, 33,
 *    255, 256, 257, 1000, 4096 with blocks 32, 64, 96, 256, 1024 (f32 all
 *    pairs; f64 lengths 1, 31, 33, 257, 4096 and integers 1, 33, 4096 with
 *    every block), data with duplicates, all
 *    ties, unique edges, type extremes, NaNs (first, middle, last, all), +-0
 *    and +-inf (tests/reduce_stack_common.h). Register tiles where they fit
 *    in registers (<= 32 words a thread), shared tiles always. Every thread
 *    writes the result it sees (tile_value is uniform).
 *  - axis reductions: sums, min and max along both axes of 2D f32 tiles
 *    (dyadic data: exact sums, bit-exact checks) for 8 shapes x 4 blocks,
 *    register and shared sources; 3D tiles along each axis, a view, i32 and
 *    vec3f elements.
 *  - vector/matrix reductions: the seed's mat33 sum (thread i gives i * I)
 *    for every block size, accumulated across blocks with tile_atomic_add;
 *    mat66d / mat44d / mat33d with blocks large enough for the big-scratch
 *    path, interleaved with scalar reductions.
 *  - tile_stack: the script of tests/reduce_stack_common.h (pushes with
 *    changing flag patterns, overflow, pops past empty, clear and reuse,
 *    divergent counts) for blocks 32, 96, 256, 1024 and capacities 1, 37,
 *    1000, through tile_stack, tile_stack_arena and tile_stack_in over a
 *    poisoned shared buffer with guard bytes; two stacks of equal size.
 *
 *  - tile_load_fill (-inf / +inf, register and shared tiles partly outside
 *    both dims), tile_inbounds, keepdims axis reductions broadcast back with
 *    tile_sub/add/mul/div_bcast and tile_map2_bcast (register and shared
 *    operands, a 1D operand over rows, a 3D tile), blocks 64 and 96, exact
 *    against plain loops (lb_check).
 *  - tile_sum_f32 / tile_max_f32 / tile_min_f32 of 4096-element bf16
 *    (register) and f16 (shared) tiles, blocks 256 and 96, every thread's
 *    result exact against a double sum.
 *
 * Outputs are poisoned before each launch. Prints one FAIL line per failed
 * check and last "reduce_stack_test: N checks, M failed (targets: ...)"; the
 * exit code is nonzero on any failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define GC_DALLOC_COUNTS 0 /* this test never counted its allocations as checks */
#include "gpu_check.h"
#include "../reduce_stack_common.h"

/* multiple of 1/64 in [-127/64, 127/64]: sums of a few thousand are exact in float */
static float hdyadic(uint32_t seed, uint32_t i) {
    return (float)((int)(tile_hash32(seed, i) % 255u) - 127) / 64.0f;
}

/* ========================================================================
 * 1. argmin / argmax (and min / max)
 * ======================================================================== */
/* a register tile copy is reduced too when it fits in 32 words a thread */
#define AM_REG(T, n, B) ((((n) + (B)-1) / (B)) * (int)sizeof(T) <= 128)
/* block b reduces data set b (pattern b); every thread writes what it sees:
 * out[4]: argmin, argmax of the shared tile, of the register tile (-2: none);
 * vout[4]: min, max likewise */
#define AM_K(sfx, T, n, B)                                                         \
    TILE_KERNEL_SMEM(am_##sfx##_##n##_##B, B, TILE_SMEM_BYTES(T, n), const T *in, int *out, T *vout) { \
        const int b = tile_block(0);                                               \
        int *o = out + ((size_t)b * TILE_BLOCK_DIM + tile_thread()) * 4;           \
        T *vo = vout + ((size_t)b * TILE_BLOCK_DIM + tile_thread()) * 4;           \
        tile_shared(T, sh, n);                                                     \
        tile_load(sh, tile_array1(in + (size_t)b * (n), n), 0);                    \
        { tile_argmin(a, sh); o[0] = tile_value(a); }                              \
        { tile_argmax(a, sh); o[1] = tile_value(a); }                              \
        { tile_min(m, sh); vo[0] = tile_value(m); }                                \
        { tile_max(m, sh); vo[1] = tile_value(m); }                                \
        if (AM_REG(T, n, B)) {                                                     \
            tile_reg(T, r, n);                                                     \
            tile_copy(r, sh);                                                      \
            { tile_argmin(a, r); o[2] = tile_value(a); }                           \
            { tile_argmax(a, r); o[3] = tile_value(a); }                           \
            { tile_min(m, r); vo[2] = tile_value(m); }                             \
            { tile_max(m, r); vo[3] = tile_value(m); }                             \
        } else {                                                                   \
            o[2] = o[3] = -2;                                                      \
            vo[2] = vo[3] = (T)0;                                                  \
        }                                                                          \
    }
#define AM_BLOCKS5(X, sfx, T, n) X(sfx, T, n, 32) X(sfx, T, n, 64) X(sfx, T, n, 96) X(sfx, T, n, 256) X(sfx, T, n, 1024)
/* f32: every length with every block */
#define AM_LIST_F32(X)                                                             \
    AM_BLOCKS5(X, f32, float, 1) AM_BLOCKS5(X, f32, float, 2) AM_BLOCKS5(X, f32, float, 31)      \
    AM_BLOCKS5(X, f32, float, 32) AM_BLOCKS5(X, f32, float, 33) AM_BLOCKS5(X, f32, float, 255)   \
    AM_BLOCKS5(X, f32, float, 256) AM_BLOCKS5(X, f32, float, 257) AM_BLOCKS5(X, f32, float, 1000) \
    AM_BLOCKS5(X, f32, float, 4096)
/* f64: a spread of lengths with every block */
#define AM_LIST_F64(X)                                                             \
    AM_BLOCKS5(X, f64, double, 1) AM_BLOCKS5(X, f64, double, 31) AM_BLOCKS5(X, f64, double, 33)  \
    AM_BLOCKS5(X, f64, double, 257) AM_BLOCKS5(X, f64, double, 4096)
/* integers: fewer lengths with every block */
#define AM_LIST_INT(X, sfx, T) AM_BLOCKS5(X, sfx, T, 1) AM_BLOCKS5(X, sfx, T, 33) AM_BLOCKS5(X, sfx, T, 4096)
#define AM_LIST(X)                                                                 \
    AM_LIST_F32(X) AM_LIST_F64(X) AM_LIST_INT(X, i32, int32_t) AM_LIST_INT(X, u32, uint32_t) \
    AM_LIST_INT(X, i64, int64_t) AM_LIST_INT(X, u64, uint64_t)
AM_LIST(AM_K)

template <class T>
static void am_verify(const char *sfx, int n, int B, int np, int bt, int reg, const T *in, const int *out,
                      const T *vout, void (*ref)(const T *, int, int *, int *)) {
    long bad = 0;
    for (int p = 0; p < np; ++p) {
        int mn, mx;
        ref(in + (size_t)p * n, n, &mn, &mx);
        const int nan = p == RS_P_NAN || p == RS_P_NAN0 || p == RS_P_NANALL;
        const T vmn = in[(size_t)p * n + mn], vmx = in[(size_t)p * n + mx];
        for (int th = 0; th < bt; ++th) {
            const int *o = out + ((size_t)p * bt + th) * 4;
            const T *v = vout + ((size_t)p * bt + th) * 4;
            const int want[4] = {mn, mx, reg ? mn : -2, reg ? mx : -2};
            for (int k = 0; k < 4; ++k) {
                ++g_checks;
                if (o[k] != want[k] && bad++ < 4)
                    fail_at(__FILE__, __LINE__, "%s n=%d block %d pattern %d thread %d: %s of the %s tile = %d, expected %d",
                            sfx, n, B, p, th, k % 2 ? "argmax" : "argmin", k < 2 ? "shared" : "register", o[k],
                            want[k]);
                else if (o[k] != want[k]) ++g_failed;
            }
            /* min and max propagate NaN: with a NaN in the data both are NaN
             * (vmn and vmx are then the NaN at the argmin/argmax index) */
            for (int k = 0; k < (reg ? 4 : 2); ++k) {
                ++g_checks;
                const int ok = nan ? v[k] != v[k] : k % 2 ? v[k] == vmx : v[k] == vmn;
                if (!ok && bad++ < 4)
                    fail_at(__FILE__, __LINE__, "%s n=%d block %d pattern %d thread %d: %s of the %s tile is not the value at the index",
                            sfx, n, B, p, th, k % 2 ? "max" : "min", k < 2 ? "shared" : "register");
                else if (!ok) ++g_failed;
            }
        }
    }
}
enum { ISF_f32 = 1, ISF_f64 = 1, ISF_i32 = 0, ISF_u32 = 0, ISF_i64 = 0, ISF_u64 = 0 };

#define AM_RUN(sfx, T, n, B)                                                       \
    do {                                                                           \
        const int np = ISF_##sfx ? (int)RS_NPAT : (int)RS_NPAT_INT;                \
        const int bt = t->gpu ? (B) : 1;                                           \
        T *hin = HALLOC(T, (size_t)(n)*np);                                        \
        for (int p = 0; p < np; ++p) rs_fill_##sfx(hin + (size_t)p * (n), n, p, 5u + (n));  \
        T *din = DALLOC(T, (size_t)(n)*np);                                        \
        int *dout = DALLOC(int, (size_t)np * bt * 4);                              \
        T *dv = DALLOC(T, (size_t)np * bt * 4);                                    \
        UP(din, hin, sizeof(T) * (size_t)(n)*np);                                  \
        POISON(dout, sizeof(int) * np * bt * 4, POISON_I);                         \
        POISON(dv, sizeof(T) * np * bt * 4, POISON_I);                             \
        RUN_OK(tile_launch(t->ex, am_##sfx##_##n##_##B, tile_grid1(np), B, (const T *)din, dout, dv)); \
        int *hout = HALLOC(int, (size_t)np * bt * 4);                              \
        T *hv = HALLOC(T, (size_t)np * bt * 4);                                    \
        DOWN(hout, dout, sizeof(int) * np * bt * 4);                               \
        DOWN(hv, dv, sizeof(T) * np * bt * 4);                                     \
        am_verify<T>(#sfx, n, B, np, bt, AM_REG(T, n, B), hin, hout, hv, rs_ref_arg_##sfx); \
        free(hin);                                                                 \
        free(hout);                                                                \
        free(hv);                                                                  \
        tile_free(t->ex, din);                                                     \
        tile_free(t->ex, dout);                                                    \
        tile_free(t->ex, dv);                                                      \
    } while (0);

static void test_argminmax(const target *t) {
    g_test = "argmin/argmax";
    AM_LIST(AM_RUN)
}

/* ========================================================================
 * 2. axis reductions
 * ======================================================================== */
/* results: sum axis 1 (D0), sum axis 0 (D1), max axis 1 (D0), min axis 0 (D1) */
#define AX_NOUT(D0, D1) (2 * (D0) + 2 * (D1))
#define AX_STORE4(out, D0, D1, s1, s0, x1, n0)                                     \
    do {                                                                           \
        tile_store(tile_array1((out), D0), s1, 0);                                 \
        tile_store(tile_array1((out) + (D0), D1), s0, 0);                          \
        tile_store(tile_array1((out) + (D0) + (D1), D0), x1, 0);                   \
        tile_store(tile_array1((out) + 2 * (D0) + (D1), D1), n0, 0);               \
    } while (0)
/* the shared source (arena) and the register source (static staging only)
 * in two kernels: a kernel's static and dynamic shared memory together must
 * stay within 48 KiB unless the launch opts in */
#define AX_K(tag, D0, D1, B)                                                       \
    TILE_KERNEL_SMEM(axs_##tag##_##B, B, TILE_SMEM_BYTES(float, D0, D1), const float *in, float *out) { \
        tile_shared(float, sh, D0, D1);                                            \
        /* a plain fill: this test is about the reductions, not tile_load */      \
        for (int i = tile_thread(); i < (D0) * (D1); i += TILE_BLOCK_DIM) sh.v[i] = in[i]; \
        tile_barrier();                                                            \
        tile_sum_axis(s1, sh, 1);                                                  \
        tile_sum_axis(s0, sh, 0);                                                  \
        tile_max_axis(x1, sh, 1);                                                  \
        tile_min_axis(n0, sh, 0);                                                  \
        AX_STORE4(out, D0, D1, s1, s0, x1, n0);                                    \
    }                                                                              \
    TILE_KERNEL(axr_##tag##_##B, B, const float *in, float *out) {                 \
        tile_reg(float, r, D0, D1);                                                \
        tile_load(r, tile_array2(in, D0, D1), 0, 0);                               \
        tile_sum_axis(s1, r, 1);                                                   \
        tile_sum_axis(s0, r, 0);                                                   \
        tile_max_axis(x1, r, 1);                                                   \
        tile_min_axis(n0, r, 0);                                                   \
        AX_STORE4(out, D0, D1, s1, s0, x1, n0);                                    \
    }
#define AX_BLOCKS(X, tag, D0, D1) X(tag, D0, D1, 32) X(tag, D0, D1, 96) X(tag, D0, D1, 256) X(tag, D0, D1, 1024)
/* register tiles of <= 32 slots a thread: 64x64 and 4x512 skip block 32 */
#define AX_LIST(X)                                                                 \
    AX_BLOCKS(X, 3x5, 3, 5) AX_BLOCKS(X, 16x16, 16, 16) AX_BLOCKS(X, 257x3, 257, 3)              \
    AX_BLOCKS(X, 33x32, 33, 32) AX_BLOCKS(X, 1x100, 1, 100) AX_BLOCKS(X, 100x1, 100, 1)          \
    X(64x64, 64, 64, 96) X(64x64, 64, 64, 256) X(64x64, 64, 64, 1024) X(4x512, 4, 512, 96)       \
    X(4x512, 4, 512, 256) X(4x512, 4, 512, 1024)
AX_LIST(AX_K)

static void ax_verify(const char *what, int D0, int D1, int B, const float *in, const float *out) {
    long bad = 0;
    const float *o = out;
    for (int part = 0; part < 4; ++part) {
        const int along1 = part % 2 == 0; /* parts 0, 2 reduce axis 1 -> D0 results */
        const int n = along1 ? D0 : D1, K = along1 ? D1 : D0;
        for (int m = 0; m < n; ++m) {
            float s = 0, mn = INFINITY, mx = -INFINITY; /* exact: dyadic data */
            for (int k = 0; k < K; ++k) {
                const float x = along1 ? in[m * D1 + k] : in[k * D1 + m];
                s += x;
                mn = x < mn ? x : mn;
                mx = x > mx ? x : mx;
            }
            const float ref = part < 2 ? s : part == 2 ? mx : mn;
            ++g_checks;
            if (o[m] != ref) {
                if (bad++ < 4)
                    fail_at(__FILE__, __LINE__, "%s (%d, %d) block %d: %s axis %d, element %d = %.9g, expected %.9g", what,
                            D0, D1, B, part < 2 ? "sum" : part == 2 ? "max" : "min", along1, m, (double)o[m],
                            (double)ref);
                else ++g_failed;
            }
        }
        o += n;
    }
}
#define AX_RUN(tag, D0, D1, B)                                                     \
    do {                                                                           \
        const int nin = (D0) * (D1), nout = AX_NOUT(D0, D1);                       \
        float *hin = HALLOC(float, nin), *hout = HALLOC(float, nout);              \
        for (int i = 0; i < nin; ++i) hin[i] = hdyadic(77u + (D0), (uint32_t)i);   \
        float *din = DALLOC(float, nin), *dout = DALLOC(float, nout);              \
        UP(din, hin, sizeof(float) * nin);                                         \
        POISON(dout, sizeof(float) * nout, 0xFF);                                  \
        RUN_OK(tile_launch(t->ex, axs_##tag##_##B, tile_grid1(1), B, (const float *)din, dout)); \
        DOWN(hout, dout, sizeof(float) * nout);                                    \
        ax_verify("shared " #tag, D0, D1, B, hin, hout);                           \
        POISON(dout, sizeof(float) * nout, 0xFF);                                  \
        RUN_OK(tile_launch(t->ex, axr_##tag##_##B, tile_grid1(1), B, (const float *)din, dout)); \
        DOWN(hout, dout, sizeof(float) * nout);                                    \
        ax_verify("register " #tag, D0, D1, B, hin, hout);                         \
        free(hin);                                                                 \
        free(hout);                                                                \
        tile_free(t->ex, din);                                                     \
        tile_free(t->ex, dout);                                                    \
    } while (0);

/* 3D along each axis (register and shared), a view, i32 and vec3f */
#define AX3_K(B)                                                                   \
    TILE_KERNEL_SMEM(ax3_##B, B, TILE_SMEM_BYTES(float, 4, 8, 16) + TILE_SMEM_BYTES(float, 9, 11), const float *in, \
                     const float *in99, const int32_t *ini, const tile_vec3f *inv, float *out, int32_t *outi, \
                     tile_vec3f *outv) {                                           \
        tile_reg(float, a, 4, 8, 16);                                              \
        tile_load(a, tile_array3(in, 4, 8, 16), 0, 0, 0);                          \
        tile_sum_axis(r0, a, 0); /* (8, 16) */                                     \
        tile_sum_axis(r1, a, 1); /* (4, 16) */                                     \
        tile_max_axis(r2, a, 2); /* (4, 8) */                                      \
        tile_store(tile_array2(out, 8, 16), r0, 0, 0);                             \
        tile_store(tile_array2(out + 128, 4, 16), r1, 0, 0);                       \
        tile_store(tile_array2(out + 192, 4, 8), r2, 0, 0);                        \
        tile_shared(float, as, 4, 8, 16);                                          \
        tile_copy(as, a);                                                          \
        tile_sum_axis(q0, as, 0);                                                  \
        tile_min_axis(q1, as, 1);                                                  \
        tile_sum_axis(q2, as, 2);                                                  \
        tile_store(tile_array2(out + 224, 8, 16), q0, 0, 0);                       \
        tile_store(tile_array2(out + 352, 4, 16), q1, 0, 0);                       \
        tile_store(tile_array2(out + 416, 4, 8), q2, 0, 0);                        \
        tile_shared(float, s, 9, 11);                                              \
        tile_load(s, tile_array2(in99, 9, 11), 0, 0);                              \
        tile_view(v, s, (4, 7), (3, 2));                                           \
        tile_sum_axis(v1, v, 1);                                                   \
        tile_max_axis(v0, v, 0);                                                   \
        tile_store(tile_array1(out + 448, 4), v1, 0);                              \
        tile_store(tile_array1(out + 452, 7), v0, 0);                              \
        tile_reg(int32_t, ti, 6, 10);                                              \
        tile_load(ti, tile_array2(ini, 6, 10), 0, 0);                              \
        tile_min_axis(i1, ti, 1);                                                  \
        tile_max_axis(i0, ti, 0);                                                  \
        tile_sum_axis(is1, ti, 1);                                                 \
        tile_store(tile_array1(outi, 6), i1, 0);                                   \
        tile_store(tile_array1(outi + 6, 10), i0, 0);                              \
        tile_store(tile_array1(outi + 16, 6), is1, 0);                             \
        tile_reg(tile_vec3f, tv, 5, 6);                                            \
        tile_load(tv, tile_array2(inv, 5, 6), 0, 0);                               \
        tile_sum_axis(vs1, tv, 1);                                                 \
        tile_sum_axis(vs0, tv, 0);                                                 \
        tile_store(tile_array1(outv, 5), vs1, 0);                                  \
        tile_store(tile_array1(outv + 5, 6), vs0, 0);                              \
    }
AX3_K(64)
AX3_K(256)

static void ax3_verify(const char *what, const float *in, const float *in99, const int32_t *ini,
                       const tile_vec3f *inv, const float *out, const int32_t *outi, const tile_vec3f *outv) {
#define A3(i, j, k) in[((i)*8 + (j)) * 16 + (k)]
    float ref[459];
    for (int j = 0; j < 8; ++j)
        for (int k = 0; k < 16; ++k) {
            float s = 0;
            for (int i = 0; i < 4; ++i) s += A3(i, j, k);
            ref[j * 16 + k] = ref[224 + j * 16 + k] = s;
        }
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 16; ++k) {
            float s = 0, mn = INFINITY;
            for (int j = 0; j < 8; ++j) s += A3(i, j, k), mn = A3(i, j, k) < mn ? A3(i, j, k) : mn;
            ref[128 + i * 16 + k] = s;
            ref[352 + i * 16 + k] = mn;
        }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j) {
            float s = 0, mx = -INFINITY;
            for (int k = 0; k < 16; ++k) s += A3(i, j, k), mx = A3(i, j, k) > mx ? A3(i, j, k) : mx;
            ref[192 + i * 8 + j] = mx;
            ref[416 + i * 8 + j] = s;
        }
#undef A3
    for (int i = 0; i < 4; ++i) {
        float s = 0;
        for (int j = 0; j < 7; ++j) s += in99[(3 + i) * 11 + 2 + j];
        ref[448 + i] = s;
    }
    for (int j = 0; j < 7; ++j) {
        float mx = -INFINITY;
        for (int i = 0; i < 4; ++i) mx = in99[(3 + i) * 11 + 2 + j] > mx ? in99[(3 + i) * 11 + 2 + j] : mx;
        ref[452 + j] = mx;
    }
    long bad = 0;
    for (int e = 0; e < 459; ++e) {
        ++g_checks;
        if (out[e] != ref[e] && bad++ < 4)
            fail_at(__FILE__, __LINE__, "%s: float result %d = %.9g, expected %.9g", what, e, (double)out[e],
                    (double)ref[e]);
        else if (out[e] != ref[e]) ++g_failed;
    }
    int32_t refi[22];
    for (int i = 0; i < 6; ++i) {
        int32_t mn = INT32_MAX, s = 0;
        for (int j = 0; j < 10; ++j) mn = ini[i * 10 + j] < mn ? ini[i * 10 + j] : mn, s += ini[i * 10 + j];
        refi[i] = mn;
        refi[16 + i] = s;
    }
    for (int j = 0; j < 10; ++j) {
        int32_t mx = INT32_MIN;
        for (int i = 0; i < 6; ++i) mx = ini[i * 10 + j] > mx ? ini[i * 10 + j] : mx;
        refi[6 + j] = mx;
    }
    for (int e = 0; e < 22; ++e) CHECK(outi[e] == refi[e], "%s: i32 result %d = %d, expected %d", what, e, outi[e], refi[e]);
    for (int c = 0; c < 3; ++c) {
        for (int i = 0; i < 5; ++i) {
            float s = 0;
            for (int j = 0; j < 6; ++j) s += inv[i * 6 + j].v[c];
            CHECK(outv[i].v[c] == s, "%s: vec3f row sum %d.%d = %g, expected %g", what, i, c, (double)outv[i].v[c],
                  (double)s);
        }
        for (int j = 0; j < 6; ++j) {
            float s = 0;
            for (int i = 0; i < 5; ++i) s += inv[i * 6 + j].v[c];
            CHECK(outv[5 + j].v[c] == s, "%s: vec3f column sum %d.%d = %g, expected %g", what, j, c,
                  (double)outv[5 + j].v[c], (double)s);
        }
    }
}
#define AX3_RUN(B)                                                                 \
    do {                                                                           \
        float hin[512], h99[99], hout[459];                                        \
        int32_t hini[60], houti[22];                                               \
        tile_vec3f hinv[30], houtv[11];                                            \
        for (int i = 0; i < 512; ++i) hin[i] = hdyadic(91u, (uint32_t)i);          \
        for (int i = 0; i < 99; ++i) h99[i] = hdyadic(92u, (uint32_t)i);           \
        for (int i = 0; i < 60; ++i) hini[i] = (int32_t)(tile_hash32(93u, (uint32_t)i) % 2001u) - 1000; \
        for (int i = 0; i < 30; ++i)                                               \
            for (int c = 0; c < 3; ++c) hinv[i].v[c] = hdyadic(94u, (uint32_t)(i * 3 + c)); \
        float *din = DALLOC(float, 512), *d99 = DALLOC(float, 99), *dout = DALLOC(float, 459); \
        int32_t *dini = DALLOC(int32_t, 60), *douti = DALLOC(int32_t, 22);        \
        tile_vec3f *dinv = DALLOC(tile_vec3f, 30), *doutv = DALLOC(tile_vec3f, 11); \
        UP(din, hin, sizeof(hin));                                                 \
        UP(d99, h99, sizeof(h99));                                                 \
        UP(dini, hini, sizeof(hini));                                              \
        UP(dinv, hinv, sizeof(hinv));                                              \
        POISON(dout, sizeof(hout), 0xFF);                                          \
        POISON(douti, sizeof(houti), POISON_I);                                    \
        POISON(doutv, sizeof(houtv), 0xFF);                                        \
        RUN_OK(tile_launch(t->ex, ax3_##B, tile_grid1(1), B, (const float *)din, (const float *)d99, \
                           (const int32_t *)dini, (const tile_vec3f *)dinv, dout, douti, doutv)); \
        DOWN(hout, dout, sizeof(hout));                                            \
        DOWN(houti, douti, sizeof(houti));                                         \
        DOWN(houtv, doutv, sizeof(houtv));                                         \
        ax3_verify("3D/view/i32/vec3f block " #B, hin, h99, hini, hinv, hout, houti, houtv); \
        tile_free(t->ex, din);                                                     \
        tile_free(t->ex, d99);                                                     \
        tile_free(t->ex, dout);                                                    \
        tile_free(t->ex, dini);                                                    \
        tile_free(t->ex, douti);                                                   \
        tile_free(t->ex, dinv);                                                    \
        tile_free(t->ex, doutv);                                                   \
    } while (0)

static void test_axis(const target *t) {
    g_test = "axis reductions";
    AX_LIST(AX_RUN)
    AX3_RUN(64);
    AX3_RUN(256);
}

/* ========================================================================
 * 3. vectors and matrices
 * ======================================================================== */
/* the seed: thread i of the launch gives i * I (plus an off-diagonal i % 5 at
 * (0, 2)); every thread records the block sum it sees, and the block sum is
 * added into acc with tile_atomic_add (one atomic a component) */
#define M33_K(B)                                                                   \
    TILE_KERNEL(m33_##B, B, tile_mat33f *seen, tile_mat33f *acc) {                 \
        const int i = tile_tid(0);                                                 \
        tile_mat33f m = tile_mat33f_diag((float)i);                                \
        m.m[0][2] = (float)(i % 5);                                                \
        tile_from_values(tf, m);                                                   \
        tile_sum(s, tf);                                                           \
        seen[i] = tile_value(s);                                                   \
        tile_atomic_add(tile_array1(acc, 1), s, 0);                                \
    }
M33_K(32)
M33_K(64)
M33_K(96)
M33_K(256)
M33_K(1024)
#define M33_RUN(B, NB)                                                             \
    do {                                                                           \
        const int nthr = (B) * (NB), bt = t->gpu ? (B) : 1;                        \
        tile_mat33f *dseen = DALLOC(tile_mat33f, nthr), *dacc = DALLOC(tile_mat33f, 1); \
        tile_mat33f *hseen = HALLOC(tile_mat33f, nthr), hacc;                      \
        POISON(dseen, sizeof(tile_mat33f) * nthr, 0xFF);                           \
        memset(&hacc, 0, sizeof(hacc));                                            \
        UP(dacc, &hacc, sizeof(hacc));                                             \
        RUN_OK(tile_launch_simt(t->ex, m33_##B, tile_grid1(nthr), B, dseen, dacc)); \
        DOWN(hseen, dseen, sizeof(tile_mat33f) * nthr);                            \
        DOWN(&hacc, dacc, sizeof(hacc));                                           \
        double tot[9] = {0};                                                       \
        long bad = 0;                                                              \
        for (int blk = 0; blk < nthr / bt; ++blk) {                                \
            double s[9] = {0};                                                     \
            for (int k = 0; k < bt; ++k) {                                         \
                const int i = blk * bt + k;                                        \
                s[0] += i, s[4] += i, s[8] += i, s[2] += i % 5;                    \
            }                                                                      \
            for (int c = 0; c < 9; ++c) tot[c] += s[c];                            \
            for (int k = 0; k < bt; ++k)                                           \
                for (int c = 0; c < 9; ++c) {                                      \
                    ++g_checks;                                                    \
                    const float got = hseen[blk * bt + k].m[c / 3][c % 3];         \
                    if (got != (float)s[c] && bad++ < 4)                           \
                        fail_at(__FILE__, __LINE__, "mat33 block %d: thread %d sees component %d = %g, expected %g", \
                                B, blk * bt + k, c, (double)got, s[c]);            \
                    else if (got != (float)s[c]) ++g_failed;                       \
                }                                                                  \
        }                                                                          \
        for (int c = 0; c < 9; ++c)                                                \
            CHECK(hacc.m[c / 3][c % 3] == (float)tot[c], "mat33 block %d: accumulated component %d = %g, expected %g", \
                  B, c, (double)hacc.m[c / 3][c % 3], tot[c]);                     \
        if ((B) == 32 && (NB) == 1)                                                \
            CHECK(hacc.m[0][0] == 496.0f && hacc.m[1][1] == 496.0f && hacc.m[2][2] == 496.0f, \
                  "the seed's mat33 reduction is not 496 * I on the diagonal");    \
        free(hseen);                                                               \
        tile_free(t->ex, dseen);                                                   \
        tile_free(t->ex, dacc);                                                    \
    } while (0)

/* large elements: component c of thread i's matrix is ((i + c) % 7) - 3 +
 * c / 8 (exact); scalar sums in between alternate the scratch halves */
TILE_FUNC double big_comp(int i, int c) { return (double)((i + c) % 7 - 3) + c * 0.125; }
#define BIG_K(name, MT, NC, B)                                                     \
    TILE_KERNEL(name, B, MT *seen, float *fs) {                                    \
        const int i = tile_tid(0);                                                 \
        tile_from_values(tx, (float)(i % 11));                                     \
        {                                                                          \
            tile_sum(a, tx);                                                       \
            fs[3 * i] = tile_value(a);                                             \
        }                                                                          \
        {                                                                          \
            MT m;                                                                  \
            double *mp = (double *)&m;                                             \
            TILE__UNROLL for (int c = 0; c < NC; ++c) mp[c] = big_comp(i, c);      \
            tile_from_values(tf, m);                                               \
            tile_sum(s, tf);                                                       \
            seen[2 * i] = tile_value(s);                                           \
        }                                                                          \
        {                                                                          \
            tile_sum(b, tx);                                                       \
            fs[3 * i + 1] = tile_value(b);                                         \
        }                                                                          \
        {                                                                          \
            MT m;                                                                  \
            double *mp = (double *)&m;                                             \
            TILE__UNROLL for (int c = 0; c < NC; ++c) mp[c] = big_comp(i + 1, c);  \
            tile_from_values(tf, m);                                               \
            tile_sum(s, tf);                                                       \
            seen[2 * i + 1] = tile_value(s);                                       \
        }                                                                          \
        {                                                                          \
            tile_max(c, tx);                                                       \
            fs[3 * i + 2] = tile_value(c);                                         \
        }                                                                          \
    }
BIG_K(big66_96, tile_mat66d, 36, 96)
BIG_K(big66_128, tile_mat66d, 36, 128)
BIG_K(big66_256, tile_mat66d, 36, 256)
BIG_K(big44_512, tile_mat44d, 16, 512)
BIG_K(big33_512, tile_mat33d, 9, 512)
#define BIG_RUN(name, MT, NC, B)                                                   \
    do {                                                                           \
        const int nthr = 2 * (B), bt = t->gpu ? (B) : 1;                           \
        MT *dseen = DALLOC(MT, 2 * nthr), *hseen = HALLOC(MT, 2 * nthr);           \
        float *dfs = DALLOC(float, 3 * nthr), *hfs = HALLOC(float, 3 * nthr);      \
        POISON(dseen, sizeof(MT) * 2 * nthr, 0xFF);                                \
        POISON(dfs, sizeof(float) * 3 * nthr, 0xFF);                               \
        RUN_OK(tile_launch_simt(t->ex, name, tile_grid1(nthr), B, dseen, dfs));    \
        DOWN(hseen, dseen, sizeof(MT) * 2 * nthr);                                 \
        DOWN(hfs, dfs, sizeof(float) * 3 * nthr);                                  \
        long bad = 0;                                                              \
        for (int blk = 0; blk < nthr / bt; ++blk) {                                \
            double s[2][NC] = {{0}}, fsum = 0, fmax = -1;                          \
            for (int k = 0; k < bt; ++k) {                                         \
                const int i = blk * bt + k;                                        \
                for (int c = 0; c < NC; ++c) s[0][c] += big_comp(i, c), s[1][c] += big_comp(i + 1, c); \
                fsum += i % 11;                                                    \
                fmax = i % 11 > fmax ? i % 11 : fmax;                              \
            }                                                                      \
            for (int k = 0; k < bt; ++k) {                                         \
                const int i = blk * bt + k;                                        \
                for (int r = 0; r < 2; ++r) {                                      \
                    const double *g = (const double *)&hseen[2 * i + r];           \
                    for (int c = 0; c < NC; ++c) {                                 \
                        ++g_checks;                                                \
                        if (g[c] != s[r][c] && bad++ < 4)                          \
                            fail_at(__FILE__, __LINE__, "%s: thread %d sum %d component %d = %g, expected %g", #name, \
                                    i, r, c, g[c], s[r][c]);                       \
                        else if (g[c] != s[r][c]) ++g_failed;                      \
                    }                                                              \
                }                                                                  \
                CHECK(hfs[3 * i] == (float)fsum && hfs[3 * i + 1] == (float)fsum && hfs[3 * i + 2] == (float)fmax, \
                      "%s: thread %d scalar reductions %g %g %g, expected %g %g %g", #name, i, (double)hfs[3 * i], \
                      (double)hfs[3 * i + 1], (double)hfs[3 * i + 2], fsum, fsum, fmax);                          \
            }                                                                      \
        }                                                                          \
        free(hseen);                                                               \
        free(hfs);                                                                 \
        tile_free(t->ex, dseen);                                                   \
        tile_free(t->ex, dfs);                                                     \
    } while (0)

static void test_compound(const target *t) {
    g_test = "vector/matrix reductions";
    M33_RUN(32, 1);
    M33_RUN(32, 3);
    M33_RUN(64, 2);
    M33_RUN(96, 2);
    M33_RUN(256, 3);
    M33_RUN(1024, 2);
    BIG_RUN(big66_96, tile_mat66d, 36, 96);
    BIG_RUN(big66_128, tile_mat66d, 36, 128);
    BIG_RUN(big66_256, tile_mat66d, 36, 256);
    BIG_RUN(big44_512, tile_mat44d, 16, 512);
    BIG_RUN(big33_512, tile_mat33d, 9, 512);
}

/* ========================================================================
 * 4. tile_stack
 * ======================================================================== */
#define ST_SCRIPT(T, s, MK)                                                        \
    for (int q = 0; q < nops; ++q) {                                               \
        const int th = tile_thread();                                              \
        const size_t o = (size_t)q * TILE_BLOCK_DIM + (size_t)th;                  \
        const int kind = ops[q].kind;                                              \
        int r = 0;                                                                 \
        T pvv;                                                                     \
        memset(&pvv, 0, sizeof(pvv));                                              \
        if (kind == RS_PUSH) {                                                     \
            r = tile_stack_push(s, MK(rs_id(q, th)), rs_flag(ops[q].mode, q, th, TILE_BLOCK_DIM)); \
        } else if (kind == RS_POP) {                                               \
            memset(&pvv, 0x5A, sizeof(pvv)); /* a failed pop must zero it */      \
            r = tile_stack_pop(s, &pvv);                                           \
        } else if (kind == RS_CLEAR) {                                             \
            tile_stack_clear(s);                                                   \
        } else {                                                                   \
            r = rs_count_reader(th, TILE_BLOCK_DIM) ? tile_stack_count(s) : -7;    \
        }                                                                          \
        ret[o] = r;                                                                \
        cnt[o] = tile_stack_count(s);                                              \
        pv[o] = pvv;                                                               \
    }
#define ST_K(tag, T, MK, CAP, B)                                                   \
    TILE_KERNEL(sts_##tag##_##B, B, const rs_op *ops, int nops, int *ret, int *cnt, T *pv, T *dump, int *dc) { \
        tile_stack(T, s, CAP);                                                     \
        ST_SCRIPT(T, s, MK)                                                        \
        for (int i = tile_thread(); i < (CAP); i += TILE_BLOCK_DIM) dump[i] = s.v[i]; \
        if (tile_thread() == 0) {                                                  \
            dc[0] = tile_stack_count(s);                                           \
            dc[1] = tile_stack_capacity(s);                                        \
        }                                                                          \
    }                                                                              \
    TILE_KERNEL_SMEM(sta_##tag##_##B, B, TILE_STACK_BYTES(T, CAP), const rs_op *ops, int nops, int *ret, int *cnt, \
                     T *pv, T *dump, int *dc) {                                    \
        tile_stack_arena(T, s, CAP);                                               \
        ST_SCRIPT(T, s, MK)                                                        \
        for (int i = tile_thread(); i < (CAP); i += TILE_BLOCK_DIM) dump[i] = s.v[i]; \
        if (tile_thread() == 0) {                                                  \
            dc[0] = tile_stack_count(s);                                           \
            dc[1] = tile_stack_capacity(s);                                        \
        }                                                                          \
    }                                                                              \
    TILE_KERNEL_SMEM(stg_##tag##_##B, B, TILE_STACK_BYTES(T, CAP) + RS_GUARD, const rs_op *ops, int nops, int *ret, \
                     int *cnt, T *pv, unsigned char *raw) {                        \
        tile_shared(unsigned char, mem, TILE_STACK_BYTES(T, CAP) + RS_GUARD);      \
        for (int i = tile_thread(); i < tile_size(mem); i += TILE_BLOCK_DIM) mem.v[i] = RS_POISON; \
        tile_stack_in(T, s, CAP, mem.v);                                           \
        ST_SCRIPT(T, s, MK)                                                        \
        tile_barrier();                                                            \
        for (int i = tile_thread(); i < tile_size(mem); i += TILE_BLOCK_DIM) raw[i] = mem.v[i]; \
    }
#define ST_BLOCKS(X, tag, T, MK, CAP) X(tag, T, MK, CAP, 32) X(tag, T, MK, CAP, 96) X(tag, T, MK, CAP, 256) X(tag, T, MK, CAP, 1024)
#define ST_LIST(X)                                                                 \
    ST_BLOCKS(X, i32_1, int32_t, rs_mk_i32, 1) ST_BLOCKS(X, i32_37, int32_t, rs_mk_i32, 37)       \
    ST_BLOCKS(X, i32_1000, int32_t, rs_mk_i32, 1000) X(f64_100, double, rs_mk_f64, 100, 64)     \
    X(f64_100, double, rs_mk_f64, 100, 256) X(v3f_37, tile_vec3f, rs_mk_v3f, 37, 96)            \
    X(v3f_37, tile_vec3f, rs_mk_v3f, 37, 1024)
ST_LIST(ST_K)
#define rs_mkb_i32_1_ rs_mkb_i32
#define rs_mkb_i32_37_ rs_mkb_i32
#define rs_mkb_i32_1000_ rs_mkb_i32
#define rs_mkb_f64_100_ rs_mkb_f64
#define rs_mkb_v3f_37_ rs_mkb_v3f

enum { MAX_OPS = 4096 };
#define ST_RUN(tag, T, MK, CAP, B)                                                 \
    do {                                                                           \
        const int bt = t->gpu ? (B) : 1;                                           \
        rs_op *hops = HALLOC(rs_op, MAX_OPS);                                      \
        const int nops = rs_script(hops, MAX_OPS, bt, CAP);                        \
        const size_t n = (size_t)nops * bt, rawb = TILE_STACK_BYTES(T, CAP) + RS_GUARD; \
        rs_op *dops = DALLOC(rs_op, nops);                                         \
        int *dret = DALLOC(int, n), *dcnt = DALLOC(int, n), *ddc = DALLOC(int, 2); \
        T *dpv = DALLOC(T, n), *ddump = DALLOC(T, CAP);                            \
        unsigned char *draw = DALLOC(unsigned char, rawb);                         \
        int *hret = HALLOC(int, n), *hcnt = HALLOC(int, n), hdc[2];                \
        T *hpv = HALLOC(T, n), *hdump = HALLOC(T, CAP);                            \
        unsigned char *hraw = HALLOC(unsigned char, rawb);                         \
        UP(dops, hops, sizeof(rs_op) * nops);                                      \
        for (int v = 0; v < 3; ++v) {                                              \
            POISON(dret, sizeof(int) * n, POISON_I);                               \
            POISON(dcnt, sizeof(int) * n, POISON_I);                               \
            POISON(dpv, sizeof(T) * n, POISON_I);                                  \
            POISON(ddump, sizeof(T) * (CAP), POISON_I);                            \
            POISON(draw, rawb, 0x11);                                              \
            POISON(ddc, sizeof(int) * 2, POISON_I);                                \
            if (v == 0)                                                            \
                RUN_OK(tile_launch(t->ex, sts_##tag##_##B, tile_grid1(1), B, (const rs_op *)dops, nops, dret, dcnt, \
                                   dpv, ddump, ddc));                              \
            else if (v == 1)                                                       \
                RUN_OK(tile_launch(t->ex, sta_##tag##_##B, tile_grid1(1), B, (const rs_op *)dops, nops, dret, dcnt, \
                                   dpv, ddump, ddc));                              \
            else                                                                   \
                RUN_OK(tile_launch(t->ex, stg_##tag##_##B, tile_grid1(1), B, (const rs_op *)dops, nops, dret, dcnt, \
                                   dpv, draw));                                    \
            DOWN(hret, dret, sizeof(int) * n);                                     \
            DOWN(hcnt, dcnt, sizeof(int) * n);                                     \
            DOWN(hpv, dpv, sizeof(T) * n);                                         \
            DOWN(hdump, ddump, sizeof(T) * (CAP));                                 \
            DOWN(hraw, draw, rawb);                                                \
            DOWN(hdc, ddc, sizeof(int) * 2);                                       \
            static const char *vn[3] = {"tile_stack " #tag " block " #B, "tile_stack_arena " #tag " block " #B, \
                                        "tile_stack_in+guards " #tag " block " #B}; \
            const long e = rs_check_stack(vn[v], bt, CAP, hops, nops, hret, hcnt, (const unsigned char *)hpv, \
                                          sizeof(T), rs_mkb_##tag##_,              \
                                          v == 2 ? hraw : (const unsigned char *)hdump, v == 2, hdc[0]); \
            ++g_checks;                                                            \
            if (e) fail_at(__FILE__, __LINE__, "%s: %ld mismatches with the model (above)", vn[v], e); \
            if (v < 2) CHECK(hdc[1] == (CAP), "%s: capacity %d", vn[v], hdc[1]);   \
        }                                                                          \
        free(hops);                                                                \
        free(hret);                                                                \
        free(hcnt);                                                                \
        free(hpv);                                                                 \
        free(hdump);                                                               \
        free(hraw);                                                                \
        tile_free(t->ex, dops);                                                    \
        tile_free(t->ex, dret);                                                    \
        tile_free(t->ex, dcnt);                                                    \
        tile_free(t->ex, ddc);                                                     \
        tile_free(t->ex, dpv);                                                     \
        tile_free(t->ex, ddump);                                                   \
        tile_free(t->ex, draw);                                                    \
    } while (0);

/* Warp's compaction example with two stacks of equal byte size: values > 5
 * in one, the rest (halved, as float) in the other; popped into place by
 * slot. Several blocks, each its own data. */
TILE_KERNEL(st_two, 64, const int *data, int n, int *out) {
    const int b = tile_block(0);
    tile_stack(int, a, 300);
    tile_stack(float, c, 300);
    const int *d = data + (size_t)b * n;
    int *o = out + (size_t)b * 603;
    for (int base = 0; base < n; base += TILE_BLOCK_DIM) {
        const int i = base + tile_thread();
        const int x = i < n ? d[i] : 0;
        tile_stack_push(a, x, i < n && x > 5);
        tile_stack_push(c, x * 0.5, i < n && x <= 5);
    }
    if (tile_thread() == 0) {
        o[0] = tile_stack_count(a);
        o[1] = tile_stack_count(c);
    }
    while (tile_stack_count(a) > 0) {
        int y;
        const int slot = tile_stack_pop(a, &y);
        if (slot >= 0) o[2 + slot] = y;
    }
    while (tile_stack_count(c) > 0) {
        float y;
        const int slot = tile_stack_pop(c, &y);
        if (slot >= 0) o[302 + slot] = (int)(y * 2);
    }
    if (tile_thread() == 0) o[602] = tile_stack_count(a) + tile_stack_count(c);
}

static void test_stack(const target *t) {
    g_test = "tile_stack";
    ST_LIST(ST_RUN)
    /* two stacks */
    enum { NB = 3, N = 250 };
    int *hd = HALLOC(int, NB * N), *ho = HALLOC(int, NB * 603);
    for (int i = 0; i < NB * N; ++i) hd[i] = (int)(tile_hash32(55u, (uint32_t)i) % 11u);
    int *dd = DALLOC(int, NB * N), *dout = DALLOC(int, NB * 603);
    UP(dd, hd, sizeof(int) * NB * N);
    POISON(dout, sizeof(int) * NB * 603, 0xFF);
    RUN_OK(tile_launch(t->ex, st_two, tile_grid1(NB), 64, (const int *)dd, (int)N, dout));
    DOWN(ho, dout, sizeof(int) * NB * 603);
    for (int b = 0; b < NB; ++b) {
        const int *d = hd + b * N, *o = ho + b * 603;
        int na = 0, nc = 0;
        long bad = 0;
        for (int i = 0; i < N; ++i) {
            if (d[i] > 5) {
                ++g_checks;
                if (o[2 + na] != d[i] && bad++ < 3)
                    fail_at(__FILE__, __LINE__, "two stacks, block %d: big[%d] = %d, expected %d", b, na, o[2 + na], d[i]);
                ++na;
            } else {
                ++g_checks;
                if (o[302 + nc] != d[i] && bad++ < 3)
                    fail_at(__FILE__, __LINE__, "two stacks, block %d: small[%d] = %d, expected %d", b, nc, o[302 + nc],
                            d[i]);
                ++nc;
            }
        }
        if (bad > 3) g_failed += bad - 3;
        CHECK(o[0] == na && o[1] == nc && o[602] == 0, "two stacks, block %d: counts %d %d %d, expected %d %d 0", b,
              o[0], o[1], o[602], na, nc);
    }
    free(hd);
    free(ho);
    tile_free(t->ex, dd);
    tile_free(t->ex, dout);
}

/* ========================================================================
 * fill values, in-bounds flags, keepdims reductions, broadcasts
 * ======================================================================== */
#include "../reduce_ref.h"
LB_KERNEL(lb_b64, 64)
LB_KERNEL(lb_b96, 96)

static void test_fill_bcast(const target *t) {
    g_test = "tile_load_fill / tile_inbounds / keepdims / tile_*_bcast";
    float *hin = HALLOC(float, LB_AR * LB_AC), *hout = HALLOC(float, LB_N);
    int *hfl = HALLOC(int, LB_N);
    float *din = DALLOC(float, LB_AR * LB_AC), *dout = DALLOC(float, LB_N);
    int *dfl = DALLOC(int, LB_N);
    char msg[200];
    lb_input(hin);
    UP(din, hin, sizeof(float) * LB_AR * LB_AC);
    for (int k = 0; k < 2; ++k)
        for (int which = 0; which < LB_NCASE; ++which) {
            POISON(dout, sizeof(float) * LB_N, POISON_F);
            POISON(dfl, sizeof(int) * LB_N, POISON_I);
            if (k) RUN_OK(tile_launch(t->ex, lb_b96, tile_grid1(1), 96, (const float *)din, dout, dfl, which));
            else RUN_OK(tile_launch(t->ex, lb_b64, tile_grid1(1), 64, (const float *)din, dout, dfl, which));
            DOWN(hout, dout, sizeof(float) * LB_N);
            DOWN(hfl, dfl, sizeof(int) * LB_N);
            const long bad = lb_check(which, hin, hout, hfl, msg, sizeof msg);
            CHECK(bad == 0, "block %d: %s (%ld bad)", k ? 96 : 64, msg, bad);
        }
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    tile_free(t->ex, dfl);
    free(hin);
    free(hout);
    free(hfl);
}

/* HF_KERNEL, hf_input, hf_check: tests/reduce_ref.h (included above) */
HF_KERNEL(hf_b256, 256)
HF_KERNEL(hf_b96, 96)

static void test_f32acc(const target *t) {
    g_test = "tile_sum_f32 / tile_min_f32 / tile_max_f32 of bf16 and f16 tiles";
    tile_bf16 *hb = HALLOC(tile_bf16, HF_N);
    tile_f16 *hh = HALLOC(tile_f16, HF_N);
    float *hout = HALLOC(float, 4 * 256);
    double ref[4];
    hf_input(hb, hh, ref);
    tile_bf16 *db = DALLOC(tile_bf16, HF_N);
    tile_f16 *dh = DALLOC(tile_f16, HF_N);
    float *dout = DALLOC(float, 4 * 256);
    UP(db, hb, sizeof(tile_bf16) * HF_N);
    UP(dh, hh, sizeof(tile_f16) * HF_N);
    for (int k = 0; k < 2; ++k) {
        const int B = k ? 96 : 256, nt = t->gpu ? B : 1;
        POISON(dout, sizeof(float) * 4 * 256, POISON_F);
        if (k) RUN_OK(tile_launch(t->ex, hf_b96, tile_grid1(1), 96, (const tile_bf16 *)db, (const tile_f16 *)dh, dout));
        else RUN_OK(tile_launch(t->ex, hf_b256, tile_grid1(1), 256, (const tile_bf16 *)db, (const tile_f16 *)dh, dout));
        DOWN(hout, dout, sizeof(float) * 4 * nt);
        const long bad = hf_check(hout, nt, ref);
        CHECK(bad == 0, "block %d: %ld of %d results differ (thread 0: %g %g %g %g, expected %g %g %g %g)", B, bad,
              4 * nt, hout[0], hout[1], hout[2], hout[3], ref[0], ref[1], ref[2], ref[3]);
    }
    tile_free(t->ex, db);
    tile_free(t->ex, dh);
    tile_free(t->ex, dout);
    free(hb);
    free(hh);
    free(hout);
}

/* ========================================================================
 * main
 * ======================================================================== */
static void run_all(const target *t) {
    gc_target_begin(t);
    test_argminmax(t);
    test_axis(t);
    test_compound(t);
    test_stack(t);
    test_fill_bcast(t);
    test_f32acc(t);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "reduce_stack_test", 0, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
