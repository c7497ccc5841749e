/* tests/scan_common.h - the scan kernels (include/tile/scan.h) and their host
 * references, shared by
 *   tests/cpu/test_scan.c        cmocka, C11, CPU target (block_dim 1);
 *   tests/cpu/test_scan_block.c  cmocka, C11, the GPU block algorithm run on
 *                                the CPU by an emulated block of B threads;
 *   tests/gpu/scan_test.cu       GPU and CPU target of the nvcc build.
 *
 * Before including this header a harness defines
 *   SC_LAUNCH(name, T, B, ctx, in, out, nblocks, which)
 * an expression launching kernel `name` (element type T, block B) over
 * `nblocks` tiles with arguments (in, out, which) and returning a tile_error
 * code; it becomes the body of
 * sc_launch_<name>(void *ctx, const void *in, void *out, int nblocks, int which).
 * A kernel computes its result number `which` per launch (sc_run_all runs
 * them all).
 * SC_LAUNCH may use name##__smem (the kernel's arena bytes).
 *
 * Every kernel reads one tile per block (tile_block(0)) from `in` and writes
 * `nout` results of the tile's size per block to `out`; each result has a
 * kind (which scan) and the reference is a plain host loop over the rows of
 * the tile (sc_ref). Kernels:
 *  - the sweep (SC_SWEEP): 4 scans per kernel (register -> register,
 *    register in place, min register -> register, max exclusive shared in
 *    place) over lengths 1 2 31 32 33 255 256 257 1000 4096, block sizes
 *    1 32 64 96 256 1024, 33 40 48 50 100 300 1000 (a partial last warp),
 *    288 (9 warps), 2D/3D/4D tiles (rows longer and shorter than a thread's
 *    chunk, rows of length 1), 4- and 8-byte elements;
 *  - the full set (SC_FULL): 13 scans per kernel, every scan and every
 *    storage combination (register/shared source and destination, in place,
 *    the generic _op forms), all six element types, 1D and 2D;
 *  - big tiles beyond the static staging limit: the arena path and the scan
 *    inside a shared destination;
 *  - long chunks (more than TILE_SCAN_REG_CHUNK slots per thread);
 *  - strided views (the parent's other elements stay untouched);
 *  - three scans in a row on one tile (the staging buffer reused);
 *  - a non-commutative operation (composition of affine maps mod 2^32).
 * Data: non-zero, negative values and duplicates; floats as multiples of 1/64
 * (every sum exact in any order: compared exactly) and as reals in
 * +-[0.5, 1.5) (compared with the rounding bound of the summation order); a
 * second data set is all negative (signed, floats) or all >= 2^31 / 2^63
 * (unsigned), where a wrong identity in min/max shows. u32/u64 sums wrap.
 *
 * Host code here is C11 and C++17 (nvcc) alike.
 */
#ifndef SCAN_COMMON_H
#define SCAN_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tile.h>

/* ========================================================================
 * element types
 * ======================================================================== */
enum { SC_F32, SC_F64, SC_I32, SC_U32, SC_I64, SC_U64, SC_AFF, SC_NDT };
static const char *const sc_dt_name[SC_NDT] = {"f32", "f64", "i32", "u32", "i64", "u64", "affine"};
static const int sc_dt_size[SC_NDT] = {4, 8, 4, 4, 8, 8, 8};

/* an affine map x -> a*x + b mod 2^32; sc_aff_op(f, g) = "f, then g" */
typedef struct sc_aff {
    uint32_t a, b;
} sc_aff;
TILE_FUNC sc_aff sc_aff_op(sc_aff f, sc_aff g) {
    sc_aff r;
    r.a = g.a * f.a;
    r.b = g.a * f.b + g.b;
    return r;
}
TILE_FUNC sc_aff sc_aff_id(void) {
    sc_aff r;
    r.a = 1u;
    r.b = 0u;
    return r;
}

/* user operations for the generic forms */
#define SC_DEF_OPS(sfx, T, LOWEST)                                                 \
    TILE_FUNC T sc_add_##sfx(T a, T b) { return (T)(a + b); }                      \
    TILE_FUNC T sc_max_##sfx(T a, T b) { return a < b ? b : a; }                   \
    TILE_FUNC T sc_lowest_##sfx(void) { return LOWEST; }
SC_DEF_OPS(f32, float, -INFINITY)
SC_DEF_OPS(f64, double, -(double)INFINITY)
SC_DEF_OPS(i32, int32_t, INT32_MIN)
SC_DEF_OPS(u32, uint32_t, 0u)
SC_DEF_OPS(i64, int64_t, INT64_MIN)
SC_DEF_OPS(u64, uint64_t, (uint64_t)0)

/* scan kinds */
enum { SC_SUM_I, SC_SUM_E, SC_MAX_I, SC_MIN_I, SC_MAX_E, SC_MIN_E, SC_AFF_I, SC_AFF_E, SC_NKIND };
static const char *const sc_kind_name[SC_NKIND] = {"inclusive sum", "exclusive sum", "max inclusive",
                                                   "min inclusive", "max exclusive", "min exclusive",
                                                   "inclusive op (affine)", "exclusive op (affine)"};

/* contiguous row-major tile_array of nd dims */
TILE_API tile_array sc_arr(const void *p, int nd, const int *d) {
    int64_t sh[4], st[4], s = 1;
    for (int k = nd - 1; k >= 0; --k) {
        sh[k] = d[k];
        st[k] = s;
        s *= d[k];
    }
    return tile_array_strided(p, nd, sh, st);
}

#define SC_UNPAREN(...) __VA_ARGS__
#define SC_NDIMS(...) TILE__NARGS(__VA_ARGS__)

/* ========================================================================
 * the kernels
 * ======================================================================== */
/* X(name, sfx, T, block, (dims)). The sweep: lengths x block sizes (at most
 * 32 slots per thread), 2D-4D shapes; 4 scans each (SC_DEF_SWEEP). */
#define SC_SWEEP(X)                                                                \
    X(f32_1_b32, f32, float, 32, (1))                                              \
    X(f32_2_b32, f32, float, 32, (2))                                              \
    X(f32_31_b32, f32, float, 32, (31))                                            \
    X(f32_32_b32, f32, float, 32, (32))                                            \
    X(f32_33_b32, f32, float, 32, (33))                                            \
    X(f32_255_b32, f32, float, 32, (255))                                          \
    X(f32_256_b32, f32, float, 32, (256))                                          \
    X(f32_257_b32, f32, float, 32, (257))                                          \
    X(f32_1000_b32, f32, float, 32, (1000))                                        \
    X(f32_1_b64, f32, float, 64, (1))                                              \
    X(f32_31_b64, f32, float, 64, (31))                                            \
    X(f32_33_b64, f32, float, 64, (33))                                            \
    X(f32_255_b64, f32, float, 64, (255))                                          \
    X(f32_257_b64, f32, float, 64, (257))                                          \
    X(f32_1000_b64, f32, float, 64, (1000))                                        \
    X(f32_2_b96, f32, float, 96, (2))                                              \
    X(f32_32_b96, f32, float, 96, (32))                                            \
    X(f32_33_b96, f32, float, 96, (33))                                            \
    X(f32_256_b96, f32, float, 96, (256))                                          \
    X(f32_257_b96, f32, float, 96, (257))                                          \
    X(f32_1_b256, f32, float, 256, (1))                                            \
    X(f32_31_b256, f32, float, 256, (31))                                          \
    X(f32_255_b256, f32, float, 256, (255))                                        \
    X(f32_256_b256, f32, float, 256, (256))                                        \
    X(f32_257_b256, f32, float, 256, (257))                                        \
    X(f32_1000_b256, f32, float, 256, (1000))                                      \
    X(f32_2_b1024, f32, float, 1024, (2))                                          \
    X(f32_33_b1024, f32, float, 1024, (33))                                        \
    X(f32_1000_b1024, f32, float, 1024, (1000))                                    \
    X(f32_4096_b1024, f32, float, 1024, (4096))                                    \
    X(f32_16_b1, f32, float, 1, (16))                                              \
    /* blocks ending in a partial warp */                                         \
    X(f32_257_b100, f32, float, 100, (257))                                        \
    X(f32_1000_b40, f32, float, 40, (1000))                                        \
    X(f32_31_b33, f32, float, 33, (31))                                            \
    X(f32_400_b100, f32, float, 100, (400))                                        \
    X(f32_66_b33, f32, float, 33, (66))                                            \
    X(f64_200_b50, f64, double, 50, (200))                                         \
    X(f32_2000_b1000, f32, float, 1000, (2000))                                    \
    X(f32_8x250_b1000, f32, float, 1000, (8, 250))                                 \
    X(f32_3x200_b300, f32, float, 300, (3, 200))                                   \
    X(i32_3x333_b300, i32, int32_t, 300, (3, 333))                                 \
    X(f32_3000_b288, f32, float, 288, (3000))                                      \
    /* 2D-4D: rows longer and shorter than a chunk, length-1 rows */             \
    X(f32_16x16_b256, f32, float, 256, (16, 16))                                   \
    X(f32_4x1024_b256, f32, float, 256, (4, 1024))                                 \
    X(f32_64x3_b32, f32, float, 32, (64, 3))                                       \
    X(f32_7x1_b32, f32, float, 32, (7, 1))                                         \
    X(f32_1x300_b96, f32, float, 96, (1, 300))                                     \
    X(f32_2x3x5_b32, f32, float, 32, (2, 3, 5))                                    \
    X(f32_2x1x3x4_b64, f32, float, 64, (2, 1, 3, 4))                               \
    X(f32_33x31_b1024, f32, float, 1024, (33, 31))                                 \
    /* f64: 8-byte elements (other padding) */                                    \
    X(f64_1_b32, f64, double, 32, (1))                                             \
    X(f64_33_b32, f64, double, 32, (33))                                           \
    X(f64_1000_b96, f64, double, 96, (1000))                                       \
    X(f64_256_b64, f64, double, 64, (256))                                         \
    X(f64_4096_b256, f64, double, 256, (4096))                                     \
    X(f64_1000_b1024, f64, double, 1024, (1000))                                   \
    X(f64_33x31_b96, f64, double, 96, (33, 31))                                    \
    X(u64_1000_b1024, u64, uint64_t, 1024, (1000))                                 \
    X(i32_3x100_b48, i32, int32_t, 48, (3, 100))
/* The full set: 13 scans each (SC_DEF_FULL), every element type. */
#define SC_FULL(X)                                                                 \
    X(f32_1000_b96, f32, float, 96, (1000))                                        \
    X(f32_4096_b256, f32, float, 256, (4096))                                      \
    X(f32_3x100_b64, f32, float, 64, (3, 100))                                     \
    X(f32_100x7_b32, f32, float, 32, (100, 7))                                     \
    X(f32_4x5_b1, f32, float, 1, (4, 5))                                           \
    X(f64_257_b32, f64, double, 32, (257))                                         \
    X(f64_5x33_b32, f64, double, 32, (5, 33))                                      \
    X(i32_33_b32, i32, int32_t, 32, (33))                                          \
    X(i32_1000_b96, i32, int32_t, 96, (1000))                                      \
    X(u32_257_b256, u32, uint32_t, 256, (257))                                     \
    X(u32_100x7_b32, u32, uint32_t, 32, (100, 7))                                  \
    X(i64_1000_b96, i64, int64_t, 96, (1000))                                      \
    X(i64_16x16_b256, i64, int64_t, 256, (16, 16))                                 \
    X(u64_255_b64, u64, uint64_t, 64, (255))                                       \
    X(u64_64x3_b32, u64, uint64_t, 32, (64, 3))

/* the kinds of the results, in each kernel's order */
static const int sc_sweep_kinds[4] = {SC_SUM_I, SC_SUM_E, SC_MIN_I, SC_MAX_E};
static const int sc_full_kinds[13] = {SC_SUM_I, SC_SUM_E, SC_MAX_I, SC_MIN_I, SC_MAX_E, SC_MIN_E, SC_SUM_I,
                                      SC_MAX_E, SC_SUM_E, SC_SUM_I, SC_MAX_I, SC_MIN_E, SC_SUM_I};

/* Load the block's input into tile t, store t as result k: a plain loop
 * over the calling thread's slots (the element-to-thread mapping of every
 * element-wise operation; a shared t is bracketed by barriers). The test
 * kernels do not use tile_load/tile_store: those are tested elsewhere, and
 * their expansions would triple this file's compile time. */
#define SC_LOAD(t)                                                                 \
    do {                                                                           \
        TILE__WRITE_BEGIN(t);                                                      \
        TILE__EACH(t, sc_s) TILE__AT(t, sc_s) = sc_i[TILE__LIN(t, sc_s)];          \
        TILE__WRITE_END(t);                                                        \
    } while (0)
#define SC_STORE(k, t)                                                             \
    do {                                                                           \
        TILE__EACH(t, sc_s) sc_o[(size_t)(k)*sc_n + TILE__LIN(t, sc_s)] = TILE__AT(t, sc_s); \
    } while (0)
/* the kernels' prologue: tiles r and a, input and output of this block */
#define SC_PROLOGUE(T, DIMS, NOUT)                                                 \
    tile_reg(T, r, SC_UNPAREN DIMS);                                               \
    tile_reg(T, a, SC_UNPAREN DIMS);                                               \
    const int sc_n = tile_size(r);                                                 \
    const T *sc_i = in + (size_t)tile_block(0) * sc_n;                             \
    T *sc_o = out + (size_t)tile_block(0) * sc_n * (NOUT)

/* Each kernel runs one of its scans per launch, chosen by `which` (its
 * result index): a kernel with many scans in a row keeps values live across
 * them, and ptxas then trades registers for spills; the cases of a switch
 * need only as many registers as the largest one. */
#define SC_CASE(k, ...)                                                            \
    case k: {                                                                      \
        __VA_ARGS__;                                                               \
        break;                                                                     \
    }
/* sweep: register -> register, register in place, shared in place */
#define SC_DEF_SWEEP(name, sfx, T, B, DIMS)                                        \
    TILE_KERNEL_SMEM(name, B, TILE_SMEM_BYTES(T, SC_UNPAREN DIMS), const T *in, T *out, int which) { \
        SC_PROLOGUE(T, DIMS, 4);                                                   \
        tile_shared(T, sh, SC_UNPAREN DIMS);                                       \
        switch (which) {                                                           \
            SC_CASE(0, SC_LOAD(r); tile_scan_inclusive(a, r); SC_STORE(0, a))      \
            SC_CASE(1, SC_LOAD(a); tile_scan_exclusive(a, a); SC_STORE(1, a))      \
            SC_CASE(2, SC_LOAD(r); tile_scan_min_inclusive(a, r); SC_STORE(2, a))  \
            SC_CASE(3, SC_LOAD(sh); tile_scan_max_exclusive(sh, sh); SC_STORE(3, sh)) \
        default: break;                                                            \
        }                                                                          \
    }
/* full: every scan, register and shared sources and destinations, in
 * place, the generic forms */
#define SC_DEF_FULL(name, sfx, T, B, DIMS)                                         \
    TILE_KERNEL_SMEM(name, B, 2 * TILE_SMEM_BYTES(T, SC_UNPAREN DIMS), const T *in, T *out, int which) { \
        SC_PROLOGUE(T, DIMS, 13);                                                  \
        tile_shared(T, sh, SC_UNPAREN DIMS);                                       \
        tile_shared(T, sh2, SC_UNPAREN DIMS);                                      \
        switch (which) {                                                           \
            SC_CASE(0, SC_LOAD(r); tile_scan_inclusive(a, r); SC_STORE(0, a))      \
            SC_CASE(1, SC_LOAD(r); tile_scan_exclusive(a, r); SC_STORE(1, a))      \
            SC_CASE(2, SC_LOAD(r); tile_scan_max_inclusive(a, r); SC_STORE(2, a))  \
            SC_CASE(3, SC_LOAD(r); tile_scan_min_inclusive(a, r); SC_STORE(3, a))  \
            SC_CASE(4, SC_LOAD(r); tile_scan_max_exclusive(a, r); SC_STORE(4, a))  \
            SC_CASE(5, SC_LOAD(r); tile_scan_min_exclusive(a, r); SC_STORE(5, a))  \
            SC_CASE(6, SC_LOAD(r); tile_scan_inclusive_op(a, sc_add_##sfx, r); SC_STORE(6, a)) \
            SC_CASE(7, SC_LOAD(r); tile_scan_exclusive_op(a, sc_max_##sfx, sc_lowest_##sfx(), r); SC_STORE(7, a)) \
            SC_CASE(8, SC_LOAD(a); tile_scan_exclusive(a, a); SC_STORE(8, a))      \
            SC_CASE(9, SC_LOAD(sh); tile_scan_inclusive(sh2, sh); SC_STORE(9, sh2)) \
            SC_CASE(10, SC_LOAD(sh); tile_scan_max_inclusive(a, sh); SC_STORE(10, a)) \
            SC_CASE(11, SC_LOAD(r); tile_scan_min_exclusive(sh2, r); SC_STORE(11, sh2)) \
            SC_CASE(12, SC_LOAD(sh); tile_scan_inclusive(sh, sh); SC_STORE(12, sh)) \
        default: break;                                                            \
        }                                                                          \
    }
SC_SWEEP(SC_DEF_SWEEP)
SC_FULL(SC_DEF_FULL)

/* ---- big tiles: staging beyond TILE_SCAN_STATIC_MAX_BYTES ----
 * 0: register -> register (arena), 1: register in place (arena),
 * 2: shared -> register (arena), 3: shared in place (inside dst),
 * 4: register -> shared (inside dst) */
static const int sc_big_kinds[5] = {SC_SUM_I, SC_SUM_E, SC_MIN_E, SC_SUM_I, SC_MAX_I};
#define SC_DEF_BIG(name, sfx, T, B, DIMS)                                          \
    TILE_KERNEL_SMEM(name, B, TILE_SMEM_BYTES(T, SC_UNPAREN DIMS) + TILE_SCAN_SMEM_BYTES(T, SC_UNPAREN DIMS), \
                     const T *in, T *out, int which) {                             \
        SC_PROLOGUE(T, DIMS, 5);                                                   \
        tile_shared(T, sh, SC_UNPAREN DIMS);                                       \
        switch (which) {                                                           \
            SC_CASE(0, SC_LOAD(r); tile_scan_inclusive(a, r); SC_STORE(0, a))      \
            SC_CASE(1, SC_LOAD(a); tile_scan_exclusive(a, a); SC_STORE(1, a))      \
            SC_CASE(2, SC_LOAD(sh); tile_scan_min_exclusive(a, sh); SC_STORE(2, a)) \
            SC_CASE(3, SC_LOAD(sh); tile_scan_inclusive(sh, sh); SC_STORE(3, sh))  \
            SC_CASE(4, SC_LOAD(r); tile_scan_max_inclusive(sh, r); SC_STORE(4, sh)) \
        default: break;                                                            \
        }                                                                          \
    }
/* ---- long chunks, shared tiles only: 0..3 shared -> shared (static or
 * inside dst), 4 in place ---- */
static const int sc_long_kinds[5] = {SC_SUM_I, SC_SUM_E, SC_MAX_I, SC_MIN_E, SC_SUM_I};
#define SC_DEF_LONG(name, sfx, T, B, DIMS)                                         \
    TILE_KERNEL_SMEM(name, B, 2 * TILE_SMEM_BYTES(T, SC_UNPAREN DIMS), const T *in, T *out, int which) { \
        tile_shared(T, sh, SC_UNPAREN DIMS);                                       \
        tile_shared(T, sh2, SC_UNPAREN DIMS);                                      \
        const int sc_n = tile_size(sh);                                            \
        const T *sc_i = in + (size_t)tile_block(0) * sc_n;                         \
        T *sc_o = out + (size_t)tile_block(0) * sc_n * 5;                          \
        SC_LOAD(sh);                                                               \
        switch (which) {                                                           \
            SC_CASE(0, tile_scan_inclusive(sh2, sh); SC_STORE(0, sh2))             \
            SC_CASE(1, tile_scan_exclusive(sh2, sh); SC_STORE(1, sh2))             \
            SC_CASE(2, tile_scan_max_inclusive(sh2, sh); SC_STORE(2, sh2))         \
            SC_CASE(3, tile_scan_min_exclusive(sh2, sh); SC_STORE(3, sh2))         \
            SC_CASE(4, tile_scan_inclusive(sh, sh); SC_STORE(4, sh))               \
        default: break;                                                            \
        }                                                                          \
    }
/* f32 16384 at 1024 threads: 66 KB of staging (arena); f64 8192: 68 KB;
 * i32 64x256: rows. Long chunks: 128 and 125 slots per thread (static
 * buffer), 250 and 47 (inside dst: 64 KB, 47 KB). */
#define SC_BIGS(X)                                                                 \
    X(big_f32_16384_b1024, f32, float, 1024, (16384))                              \
    X(big_f64_8192_b1024, f64, double, 1024, (8192))                               \
    X(big_i32_64x256_b1024, i32, int32_t, 1024, (64, 256))
#define SC_LONGS(X)                                                                \
    X(long_f32_4096_b32, f32, float, 32, (4096))                                   \
    X(long_f32_40x100_b32, f32, float, 32, (40, 100))                              \
    X(long_f32_16x1000_b64, f32, float, 64, (16, 1000))                            \
    X(long_u64_3000_b64, u64, uint64_t, 64, (3000))
SC_BIGS(SC_DEF_BIG)
SC_LONGS(SC_DEF_LONG)

/* ---- views: a strided view scanned in place inside a 6x40 parent, and a
 * view as the source of a register scan. Out: the parent (240) after the
 * in-place scan, then the 2x10 exclusive scan of the parent's top-left
 * corner (20) read before the in-place scan touches it. ---- */
TILE_KERNEL_SMEM(sc_view, 64, TILE_SMEM_BYTES(float, 6, 40), const float *in, float *out, int which) {
    const int pd[2] = {6, 40};
    const int rd[2] = {2, 10};
    const float *sc_i = in + (size_t)tile_block(0) * 240;
    float *sc_o = out + (size_t)tile_block(0) * 260;
    (void)which;
    tile_shared(float, p, 6, 40);
    tile_load(p, sc_arr(sc_i, 2, pd), 0, 0);
    tile_view(w, p, (2, 10), (0, 0));
    tile_reg(float, r, 2, 10);
    tile_scan_exclusive(r, w);
    tile_view(v, p, (5, 33), (1, 4));
    tile_scan_inclusive(v, v);
    tile_store(sc_arr(sc_o, 2, pd), p, 0, 0);
    tile_store(sc_arr(sc_o + 240, 2, rd), r, 0, 0);
}

/* ---- scans in a row on one tile (one staging buffer, reused): result 0
 * min_inclusive(exclusive(inclusive(x))) in registers, result 1 the same on
 * a shared tile in place ---- */
TILE_KERNEL_SMEM(sc_chain, 96, TILE_SMEM_BYTES(int32_t, 1000), const int32_t *in, int32_t *out, int which) {
    SC_PROLOGUE(int32_t, (1000), 2);
    tile_shared(int32_t, sh, 1000);
    switch (which) {
        SC_CASE(0, SC_LOAD(r); tile_scan_inclusive(a, r); tile_scan_exclusive(a, a); tile_scan_min_inclusive(a, a);
                SC_STORE(0, a))
        SC_CASE(1, SC_LOAD(sh); tile_scan_inclusive(sh, sh); tile_scan_exclusive(sh, sh);
                tile_scan_min_inclusive(sh, sh); SC_STORE(1, sh))
    default: break;
    }
}

/* ---- a non-commutative operation ----
 * 0: inclusive (register), 1: exclusive with the identity (register),
 * 2: inclusive in place (shared) */
static const int sc_aff_kinds[3] = {SC_AFF_I, SC_AFF_E, SC_AFF_I};
#define SC_DEF_AFF(name, B, DIMS)                                                  \
    TILE_KERNEL_SMEM(name, B, TILE_SMEM_BYTES(sc_aff, SC_UNPAREN DIMS), const sc_aff *in, sc_aff *out, \
                     int which) {                                                  \
        SC_PROLOGUE(sc_aff, DIMS, 3);                                              \
        tile_shared(sc_aff, sh, SC_UNPAREN DIMS);                                  \
        switch (which) {                                                           \
            SC_CASE(0, SC_LOAD(r); tile_scan_inclusive_op(a, sc_aff_op, r); SC_STORE(0, a)) \
            SC_CASE(1, SC_LOAD(r); tile_scan_exclusive_op(a, sc_aff_op, sc_aff_id(), r); SC_STORE(1, a)) \
            SC_CASE(2, SC_LOAD(sh); tile_scan_inclusive_op(sh, sc_aff_op, sh); SC_STORE(2, sh)) \
        default: break;                                                            \
        }                                                                          \
    }
SC_DEF_AFF(aff_1000_b96, 96, (1000))
SC_DEF_AFF(aff_5x77_b64, 64, (5, 77))
SC_DEF_AFF(aff_33_b32, 32, (33))

/* ========================================================================
 * the table
 * ======================================================================== */
typedef int (*sc_launch_fn)(void *ctx, const void *in, void *out, int nblocks, int which);
enum { SC_STD = 0, SC_VIEW = 1, SC_CHAIN = 2 };
typedef struct sc_kernel {
    const char *name;
    int dt, block, nd, dims[4];
    int n, len;         /* elements, row length */
    int nout;           /* results per block */
    const int *kinds;   /* their kinds (SC_STD) */
    int special;        /* SC_STD, SC_VIEW or SC_CHAIN */
    int in_n, out_n;    /* elements per block in and out */
    sc_launch_fn launch;
} sc_kernel;

#define SC_DT_f32 SC_F32
#define SC_DT_f64 SC_F64
#define SC_DT_i32 SC_I32
#define SC_DT_u32 SC_U32
#define SC_DT_i64 SC_I64
#define SC_DT_u64 SC_U64
/* SC_THUNK(name, T, B): optional, emitted before each launch function (the
 * block emulator calls kernel bodies through it) */
#ifndef SC_THUNK
#define SC_THUNK(name, T, B)
#endif
#define SC_DEF_LAUNCH(name, T, B)                                                  \
    SC_THUNK(name, T, B)                                                           \
    static int sc_launch_##name(void *ctx, const void *in, void *out, int nblocks, int which) { \
        (void)ctx;                                                                 \
        return SC_LAUNCH(name, T, B, ctx, (const T *)in, (T *)out, nblocks, which); \
    }
#define SC_X_LAUNCH(name, sfx, T, B, DIMS) SC_DEF_LAUNCH(name, T, B)
SC_SWEEP(SC_X_LAUNCH)
SC_FULL(SC_X_LAUNCH)
SC_BIGS(SC_X_LAUNCH)
SC_LONGS(SC_X_LAUNCH)
SC_DEF_LAUNCH(sc_view, float, 64)
SC_DEF_LAUNCH(sc_chain, int32_t, 96)
SC_DEF_LAUNCH(aff_1000_b96, sc_aff, 96)
SC_DEF_LAUNCH(aff_5x77_b64, sc_aff, 64)
SC_DEF_LAUNCH(aff_33_b32, sc_aff, 32)

#define SC_PRODN(d0, d1, d2, d3) ((d0) * (d1) * (d2) * (d3))
#define SC_LASTD(nd, d0, d1, d2, d3) ((nd) == 1 ? (d0) : (nd) == 2 ? (d1) : (nd) == 3 ? (d2) : (d3))
#define SC_ROW_(name, dt, B, nout, kinds, nd, d0, d1, d2, d3)                      \
    {#name, dt, B, nd, {d0, d1, d2, d3}, SC_PRODN(d0, d1, d2, d3), SC_LASTD(nd, d0, d1, d2, d3), nout, kinds, \
     SC_STD, SC_PRODN(d0, d1, d2, d3), (nout) * SC_PRODN(d0, d1, d2, d3), sc_launch_##name},
#define SC_ROW(name, dt, B, nout, kinds, DIMS)                                     \
    TILE__APPLY(SC_ROW_, (name, dt, B, nout, kinds, SC_NDIMS(SC_UNPAREN DIMS), TILE__PAD4(SC_UNPAREN DIMS)))
#define SC_X_ROW_SWEEP(name, sfx, T, B, DIMS) SC_ROW(name, SC_DT_##sfx, B, 4, sc_sweep_kinds, DIMS)
#define SC_X_ROW_FULL(name, sfx, T, B, DIMS) SC_ROW(name, SC_DT_##sfx, B, 13, sc_full_kinds, DIMS)
#define SC_X_ROW_BIG(name, sfx, T, B, DIMS) SC_ROW(name, SC_DT_##sfx, B, 5, sc_big_kinds, DIMS)
#define SC_X_ROW_LONG(name, sfx, T, B, DIMS) SC_ROW(name, SC_DT_##sfx, B, 5, sc_long_kinds, DIMS)

static const sc_kernel sc_kernels[] = {
    SC_SWEEP(SC_X_ROW_SWEEP)
    SC_FULL(SC_X_ROW_FULL)
    SC_BIGS(SC_X_ROW_BIG)
    SC_LONGS(SC_X_ROW_LONG)
    SC_ROW(aff_1000_b96, SC_AFF, 96, 3, sc_aff_kinds, (1000))
    SC_ROW(aff_5x77_b64, SC_AFF, 64, 3, sc_aff_kinds, (5, 77))
    SC_ROW(aff_33_b32, SC_AFF, 32, 3, sc_aff_kinds, (33))
    {"sc_view", SC_F32, 64, 2, {6, 40, 1, 1}, 240, 40, 1, 0, SC_VIEW, 240, 260, sc_launch_sc_view},
    {"sc_chain", SC_I32, 96, 1, {1000, 1, 1, 1}, 1000, 1000, 2, 0, SC_CHAIN, 1000, 2000, sc_launch_sc_chain},
};
enum { SC_NKERNELS = (int)(sizeof(sc_kernels) / sizeof(sc_kernels[0])) };

/* ========================================================================
 * data
 * ======================================================================== */
/* data sets: mixed signs (floats: multiples of 1/64), floats as reals,
 * all negative (unsigned: all in the upper half) */
enum { SC_DATA_MIXED, SC_DATA_REAL, SC_DATA_NEG, SC_NDATA };
static const char *const sc_data_name[SC_NDATA] = {"mixed", "real", "negative"};

static inline uint32_t sc_h(uint32_t seed, uint32_t i) { return tile_hash32(seed, i); }
/* element i of data set ds, written to p (an element of type dt) */
static void sc_gen(int dt, int ds, uint32_t seed, uint32_t i, void *p) {
    const uint32_t h = sc_h(seed, i), h2 = sc_h(seed ^ 0x68bc21ebu, i);
    const int neg = ds == SC_DATA_NEG;
    switch (dt) {
    case SC_F32:
    case SC_F64: {
        double v;
        if (ds == SC_DATA_REAL) {
            v = 0.5 + (double)(h >> 8) / 16777216.0; /* [0.5, 1.5) */
            if (h2 & 1u) v = -v;
            v = dt == SC_F32 ? (double)(float)v : v + (double)(h2 >> 11) * 1e-12; /* f64: more bits */
        } else {
            v = (double)(1 + (int)(h % 127u)) / 64.0; /* 1/64 .. 127/64 */
            if ((h2 & 1u) || neg) v = -v;
        }
        if (neg && v > 0) v = -v;
        if (dt == SC_F32) {
            float f = (float)v;
            memcpy(p, &f, 4);
        } else {
            memcpy(p, &v, 8);
        }
        break;
    }
    case SC_I32: {
        int32_t v = 1 + (int32_t)(h % 1000u); /* duplicates: 1000 values */
        if ((h2 & 1u) || neg) v = -v;
        memcpy(p, &v, 4);
        break;
    }
    case SC_U32: {
        uint32_t v = h | 1u; /* sums wrap */
        if (h2 % 8u == 0) v = 0xffffffffu - (h2 >> 20); /* near the top */
        if (neg) v |= 0x80000000u;
        memcpy(p, &v, 4);
        break;
    }
    case SC_I64: {
        int64_t v = 1 + (int64_t)((((uint64_t)h << 32) | h2) >> 24); /* < 2^40: no overflow */
        if (h2 % 16u == 0) v = 1 + (int64_t)(h % 7u); /* duplicates */
        if ((h2 & 2u) || neg) v = -v;
        memcpy(p, &v, 8);
        break;
    }
    case SC_U64: {
        uint64_t v = (((uint64_t)h << 32) | h2) | 1u;
        if (h2 % 8u == 0) v = UINT64_MAX - (h >> 24);
        if (neg) v |= (uint64_t)1 << 63;
        memcpy(p, &v, 8);
        break;
    }
    default: {
        sc_aff f;
        f.a = h | 1u;
        f.b = h2;
        memcpy(p, &f, 8);
        break;
    }
    }
}
/* the data sets a kernel runs with */
static inline int sc_has_data(int dt, int ds) {
    if (ds == SC_DATA_REAL) return dt == SC_F32 || dt == SC_F64;
    if (ds == SC_DATA_NEG) return dt != SC_AFF;
    return 1;
}

/* ========================================================================
 * references
 * ======================================================================== */
/* Float sums: an error bound for the summation order. Element at position
 * pos of its row is a sum tree of height h over the row's elements up to
 * pos: h = pos on the CPU (left to right); on the GPU at most pos and at
 * most S (chunk) + S (the previous chunk's total) + 5 (warp) + NW (warps)
 * + 2 (combines). |error| <= h u / (1 - h u) * sum |x| (u the unit
 * roundoff), plus half an ulp for rounding the reference. */
static double sc_height(int pos, int block, int n) {
    if (block <= 1) return pos;
    const int s = (n + block - 1) / block, nw = (block + 31) / 32;
    const double h = 2.0 * s + 5 + nw + 2;
    return pos < h ? pos : h;
}

/* reference scan of one row: x (row of the input), kind, into y; tol gets
 * the allowed error per element (0: exact) */
#define SC_DEF_REF_INT(sfx, T, UT, LOW, HIGH)                                      \
    static void sc_ref_row_##sfx(const T *x, T *y, double *tol, int len, int kind) { \
        T run = x[0];                                                              \
        for (int i = 0; i < len; ++i) {                                            \
            T prev = run;                                                          \
            if (i == 0) run = x[0];                                                \
            else if (kind == SC_SUM_I || kind == SC_SUM_E) run = (T)((UT)run + (UT)x[i]); \
            else if (kind == SC_MAX_I || kind == SC_MAX_E) run = x[i] > run ? x[i] : run; \
            else run = x[i] < run ? x[i] : run;                                    \
            switch (kind) {                                                        \
            case SC_SUM_E: y[i] = i ? prev : (T)0; break;                          \
            case SC_MAX_E: y[i] = i ? prev : (T)(LOW); break;                      \
            case SC_MIN_E: y[i] = i ? prev : (T)(HIGH); break;                     \
            default: y[i] = run; break;                                            \
            }                                                                      \
            tol[i] = 0;                                                            \
        }                                                                          \
    }
SC_DEF_REF_INT(i32, int32_t, uint32_t, INT32_MIN, INT32_MAX)
SC_DEF_REF_INT(u32, uint32_t, uint32_t, 0, UINT32_MAX)
SC_DEF_REF_INT(i64, int64_t, uint64_t, INT64_MIN, INT64_MAX)
SC_DEF_REF_INT(u64, uint64_t, uint64_t, 0, UINT64_MAX)

#define SC_DEF_REF_FLT(sfx, T, U)                                                  \
    static void sc_ref_row_##sfx(const T *x, T *y, double *tol, int len, int kind, int exact, int block, int n) { \
        long double acc = 0, prev = 0, absacc = 0, absprev = 0;                    \
        T mx = x[0], mn = x[0], pmx = x[0], pmn = x[0];                            \
        for (int i = 0; i < len; ++i) {                                            \
            prev = acc;                                                            \
            absprev = absacc;                                                      \
            pmx = mx;                                                              \
            pmn = mn;                                                              \
            acc += (long double)x[i];                                              \
            absacc += fabsl((long double)x[i]);                                    \
            if (i == 0 || x[i] > mx) mx = x[i];                                    \
            if (i == 0 || x[i] < mn) mn = x[i];                                    \
            long double v = 0, a = 0;                                              \
            int pos = i;                                                           \
            tol[i] = 0;                                                            \
            switch (kind) {                                                        \
            case SC_SUM_I: v = acc; a = absacc; break;                             \
            case SC_SUM_E: v = prev; a = absprev; pos = i - 1; break;              \
            case SC_MAX_I: y[i] = mx; continue;                                    \
            case SC_MIN_I: y[i] = mn; continue;                                    \
            case SC_MAX_E: y[i] = i ? pmx : (T)-INFINITY; continue;                \
            default: y[i] = i ? pmn : (T)INFINITY; continue;                       \
            }                                                                      \
            y[i] = (T)v;                                                           \
            if (!exact && pos > 0) {                                               \
                const double h = sc_height(pos, block, n);                         \
                tol[i] = (double)(h * (U) / (1 - h * (U)) * a) + 0.5 * (U)*fabs((double)v); \
            }                                                                      \
        }                                                                          \
    }
SC_DEF_REF_FLT(f32, float, 5.9604644775390625e-8)
SC_DEF_REF_FLT(f64, double, 1.1102230246251565e-16)

static void sc_ref_row_aff(const sc_aff *x, sc_aff *y, double *tol, int len, int kind) {
    sc_aff run = x[0];
    for (int i = 0; i < len; ++i) {
        sc_aff prev = run;
        run = i ? sc_aff_op(run, x[i]) : x[0];
        y[i] = kind == SC_AFF_E ? (i ? prev : sc_aff_id()) : run;
        tol[i] = 0;
    }
}

/* the reference of a kernel's outputs for one block */
static void sc_ref_block(const sc_kernel *kd, const void *in, void *ref, double *tol, int ds, int block) {
    const int es = sc_dt_size[kd->dt], exact = ds != SC_DATA_REAL;
    if (kd->special == SC_VIEW) {
        const float *x = (const float *)in;
        float *y = (float *)ref;
        memcpy(y, x, 240 * sizeof(float));
        for (int i = 0; i < 260; ++i) tol[i] = 0;
        /* rows 1..5, columns 4..36 scanned in place */
        for (int r = 1; r < 6; ++r)
            sc_ref_row_f32(x + r * 40 + 4, y + r * 40 + 4, tol + r * 40 + 4, 33, SC_SUM_I, exact, block, 165);
        /* the 2x10 corner, exclusive, from the input */
        for (int r = 0; r < 2; ++r)
            sc_ref_row_f32(x + r * 40, y + 240 + r * 10, tol + 240 + r * 10, 10, SC_SUM_E, exact, block, 20);
        return;
    }
    if (kd->special == SC_CHAIN) {
        int32_t *y = (int32_t *)ref, *t1 = (int32_t *)malloc(sizeof(int32_t) * kd->n);
        sc_ref_row_i32((const int32_t *)in, t1, tol, kd->n, SC_SUM_I);
        sc_ref_row_i32(t1, y, tol, kd->n, SC_SUM_E);
        sc_ref_row_i32(y, t1, tol, kd->n, SC_MIN_I);
        memcpy(y, t1, sizeof(int32_t) * kd->n);
        memcpy(y + kd->n, t1, sizeof(int32_t) * kd->n);
        for (int i = 0; i < 2 * kd->n; ++i) tol[i] = 0;
        free(t1);
        return;
    }
    for (int k = 0; k < kd->nout; ++k) {
        const int kind = kd->kinds[k];
        for (int r = 0; r < kd->n / kd->len; ++r) {
            const size_t o = (size_t)r * kd->len;
            const char *xr = (const char *)in + o * es;
            char *yr = (char *)ref + ((size_t)k * kd->n + o) * es;
            double *tr = tol + (size_t)k * kd->n + o;
            switch (kd->dt) {
            case SC_F32: sc_ref_row_f32((const float *)xr, (float *)yr, tr, kd->len, kind, exact, block, kd->n); break;
            case SC_F64: sc_ref_row_f64((const double *)xr, (double *)yr, tr, kd->len, kind, exact, block, kd->n); break;
            case SC_I32: sc_ref_row_i32((const int32_t *)xr, (int32_t *)yr, tr, kd->len, kind); break;
            case SC_U32: sc_ref_row_u32((const uint32_t *)xr, (uint32_t *)yr, tr, kd->len, kind); break;
            case SC_I64: sc_ref_row_i64((const int64_t *)xr, (int64_t *)yr, tr, kd->len, kind); break;
            case SC_U64: sc_ref_row_u64((const uint64_t *)xr, (uint64_t *)yr, tr, kd->len, kind); break;
            default: sc_ref_row_aff((const sc_aff *)xr, (sc_aff *)yr, tr, kd->len, kind); break;
            }
        }
    }
}

/* element i of an array of type dt as text */
static void sc_fmt(int dt, const void *p, size_t i, char *buf, size_t len) {
    const char *c = (const char *)p + i * (size_t)sc_dt_size[dt];
    switch (dt) {
    case SC_F32: { float v; memcpy(&v, c, 4); snprintf(buf, len, "%.9g", (double)v); break; }
    case SC_F64: { double v; memcpy(&v, c, 8); snprintf(buf, len, "%.17g", v); break; }
    case SC_I32: { int32_t v; memcpy(&v, c, 4); snprintf(buf, len, "%ld", (long)v); break; }
    case SC_U32: { uint32_t v; memcpy(&v, c, 4); snprintf(buf, len, "%lu", (unsigned long)v); break; }
    case SC_I64: { int64_t v; memcpy(&v, c, 8); snprintf(buf, len, "%lld", (long long)v); break; }
    case SC_U64: { uint64_t v; memcpy(&v, c, 8); snprintf(buf, len, "%llu", (unsigned long long)v); break; }
    default: { sc_aff v; memcpy(&v, c, 8); snprintf(buf, len, "(%lu,%lu)", (unsigned long)v.a, (unsigned long)v.b); break; }
    }
}
/* does got[i] match ref[i] within tol[i]? (NaN never does; exact compares
 * bit for bit, so -0 vs 0 and infinities are exact too) */
static int sc_match(int dt, const void *got, const void *ref, const double *tol, size_t i) {
    const size_t es = (size_t)sc_dt_size[dt];
    const char *g = (const char *)got + i * es, *r = (const char *)ref + i * es;
    if (!memcmp(g, r, es)) return 1;
    if (dt == SC_F32 || dt == SC_F64) {
        double gv, rv;
        if (dt == SC_F32) {
            float a, b;
            memcpy(&a, g, 4);
            memcpy(&b, r, 4);
            gv = a;
            rv = b;
        } else {
            memcpy(&gv, g, 8);
            memcpy(&rv, r, 8);
        }
        if (gv == rv) return 1; /* -0 == 0: the order of the additions decides the sign of a zero */
        return tol[i] > 0 && fabs(gv - rv) <= tol[i];
    }
    return 0;
}

/* Check one launch's output (nblocks blocks) against the references.
 * Returns the number of mismatching elements; describes the first few in
 * msg. block: the block size the scan ran with (1 on the CPU). */
static long sc_verify(const sc_kernel *kd, int ds, const void *in, const void *out, int nblocks, int block,
                      char *msg, size_t msglen) {
    const size_t es = (size_t)sc_dt_size[kd->dt];
    void *ref = malloc(es * kd->out_n);
    double *tol = (double *)malloc(sizeof(double) * kd->out_n);
    long bad = 0;
    size_t used = 0;
    msg[0] = 0;
    for (int b = 0; b < nblocks; ++b) {
        const char *x = (const char *)in + (size_t)b * kd->in_n * es;
        const char *y = (const char *)out + (size_t)b * kd->out_n * es;
        sc_ref_block(kd, x, ref, tol, ds, block);
        for (int i = 0; i < kd->out_n; ++i) {
            if (sc_match(kd->dt, y, ref, tol, (size_t)i)) continue;
            if (++bad <= 4 && used + 200 < msglen) {
                char gs[64], rs[64];
                sc_fmt(kd->dt, y, (size_t)i, gs, sizeof gs);
                sc_fmt(kd->dt, ref, (size_t)i, rs, sizeof rs);
                const int k = kd->special == SC_VIEW ? -1 : i / kd->n, e = kd->special == SC_VIEW ? i : i % kd->n;
                const char *kn = kd->special == SC_VIEW ? "view" : kd->special == SC_CHAIN ? "chain" : sc_kind_name[kd->kinds[k]];
                used += (size_t)snprintf(msg + used, msglen - used, "%s[%s] block %d result %d (%s) element %d: got %s, expected %s (tol %.3g); ",
                                         kd->name, sc_data_name[ds], b, k, kn, e, gs, rs, tol[i]);
            }
        }
    }
    free(ref);
    free(tol);
    return bad;
}

/* Input of nblocks blocks for data set ds, seeded per kernel. */
static void *sc_make_input(const sc_kernel *kd, int ds, int nblocks) {
    const size_t es = (size_t)sc_dt_size[kd->dt], n = (size_t)kd->in_n * nblocks;
    char *p = (char *)malloc(es * n);
    uint32_t seed = 0x5eed0000u + (uint32_t)ds * 7919u;
    for (const char *c = kd->name; *c; ++c) seed = seed * 31u + (uint32_t)*c;
    for (size_t i = 0; i < n; ++i) sc_gen(kd->dt, ds, seed, (uint32_t)i, p + i * es);
    return p;
}

/* Launch every result of a kernel (results are disjoint parts of out);
 * returns the first error. */
static int sc_run_all(const sc_kernel *kd, void *ctx, const void *in, void *out, int nblocks) {
    for (int w = 0; w < kd->nout; ++w) {
        int e = kd->launch(ctx, in, out, nblocks, w);
        if (e) return e;
    }
    return 0;
}

#endif /* SCAN_COMMON_H */
