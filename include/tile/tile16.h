/* tile/tile16.h - the register-resident 16x16 tile (Quadrants' Tile16x16, in C).
 *
 * Thread mapping. On the GPU a tile lives in 16 lanes of a warp: lane i of
 * the half-warp holds row i in 16 registers, and the lanes exchange values
 * with shuffles of width 16; no shared memory is involved. Both half-warps
 * work: lanes 0-15 hold one tile and lanes 16-31 another, independent one,
 * so a warp of 32 threads carries two tiles (two matrices) and no lane idles.
 * On the CPU target (block_dim = 1, and plain C11) the one thread holds all 16
 * rows and every operation loops over them; results agree with the GPU up to
 * rounding (the GPU contracts a*b+c into FMAs).
 *
 *   struct tile16_f32 { float r[TILE16_ROWS][16]; }   TILE16_ROWS: 1 on the
 *   device, 16 on the host. Each operation loops over the rows it holds; on the
 *   device that loop has one iteration and every register index is a
 *   compile-time constant (0 bytes stack, 0 spills).
 *
 * Calling convention inside a TILE_KERNEL body:
 *   - tile16_lane()    row held by the calling thread (threadIdx.x % 16; 0 on the CPU)
 *   - tile16_group()   which tile of the block the thread works on
 *                      (threadIdx.x / 16 on the GPU; 0 on the CPU)
 *   - TILE16_GROUPS    tiles per block: TILE_BLOCK_DIM / 16 on the GPU, 1 on the CPU
 *   So a kernel that gives each tile its own matrix uses
 *     int m = tile_block(0) * TILE16_GROUPS + tile16_group();
 *   and launches ceil(batch / groups) blocks, groups = 8 for a 128-thread
 *   block on the GPU and 1 on the CPU (see chol_batched.h).
 * Operations are cooperative over the whole warp: all 32 lanes (both
 * half-warps) call each operation together, never under a lane-dependent
 * branch. The block size must be a multiple of 16 (a last half warp is fine).
 * A group with nothing to do keeps calling with empty slices (rows = 0), which
 * skip every memory access.
 * Tiles are kernel locals: never pass one as a kernel argument (its layout
 * differs between the host and device compilations).
 *
 * Slice rules (the seed's t[:] = arr[r0:r1, c0:c1]):
 *   - tile row i reads array row r0 + i; rows with r0 + i >= r1 or outside
 *     [0, rows) are skipped: a load leaves them as they were, a store writes
 *     nothing;
 *   - tile column k is array column c0 + k; columns k >= c1 - c0 or outside
 *     [0, cols) read as 0 on a load and are not written by a store;
 *   - 3D (batched) arrays: the batch index b selects a rows x cols matrix;
 *     b outside [0, nbatch) skips every row.
 * So tile16_eye + a partial load pads a diagonal block with the identity,
 * tile16_zeros + a partial load pads an off-diagonal block with zeros.
 *
 * Operations (suffix _f32 / _f64; T = float / double):
 *   tile16_zeros / tile16_eye / tile16_eye_inplace   construction
 *   tile16_load(_ld, 3, _shared, _t_ld), tile16_store(_ld, 3, _shared)   slices
 *   tile16_load_row16 / tile16_store_row16           full tile, 16-byte aligned rows (workspaces)
 *   tile16_vec_load(_ld, 3), tile16_vec_zeros        column vectors (one element a row)
 *   tile16_get / tile16_vec_get                      one element, in every lane
 *   tile16_sub_outer(t, a, b) / _sub_outer_sym(t, v) t -= a b^T / t -= v v^T
 *   tile16_sub_abt(c, a, b) / tile16_sub_ab(c, a, b) c -= a b^T / c -= a b
 *   tile16_sub_abt_lower(c, a, b)                    c -= a b^T, lower triangle only
 *   tile16_sub_abt_mem / tile16_sub_ab_mem           the same, b read from memory
 *   tile16_chol(t, eps) -> info                      in-place Cholesky (lower)
 *   tile16_solve_xlt(l, b)                           b <- b l^-T  (X L^T = B)
 *   tile16_solve_lx(l, b) / tile16_solve_ux(u, b)    b <- l^-1 b / b <- u^-1 b
 *
 * Non-SPD contract of tile16_chol(t, eps): the lower triangle (diagonal
 * included) is replaced by L; the strictly upper triangle is neither read nor
 * written. At step j the pivot d = a_jj - sum_k<j l_jk^2 is checked:
 *   - info (the return value, the same in every lane) is j + 1 for the first
 *     pivot that is not > 0 (d <= 0 or NaN), 0 when every pivot is > 0
 *     (LAPACK's potrf numbering);
 *   - eps > 0: a pivot d <= eps (or NaN) is replaced by eps, so l_jj = sqrt(eps):
 *     no sqrt of a negative, no division by zero. Singular and semidefinite
 *     input keeps a finite factor; a strongly indefinite one can grow (even to
 *     inf): a tiny pivot divides its column. NaN elements still propagate into
 *     the entries that read them;
 *   - eps <= 0 (no clamp): a failing pivot becomes NaN, so column j and every
 *     later column of L are NaN, columns before j are the valid partial factor.
 *   Suppose t = [[4, 2], [2, 10]] padded with the identity: tile16_chol gives
 *   L = [[2, 0], [1, 3]] (then the identity), info 0. For t = [[1, 2], [2, 1]]
 *   and eps = 0: l_00 = 1, l_10 = 2, pivot 1 - 4 = -3: info 2, l_11 and all later
 *   columns NaN; with eps = 1e-6 l_11 = 1e-3 and info is still 2.
 *
 *   TILE_KERNEL(chol16, 32, float *a, int batch) {   // 2 matrices a warp
 *       int m = tile_block(0) * TILE16_GROUPS + tile16_group();
 *       tile16_f32 t = tile16_eye_f32();
 *       tile16_load3_f32(&t, a, batch, 16, 16, m, 0, 16, 0, 16);
 *       tile16_chol_f32(&t, 0.0f);
 *       tile16_store3_f32(a, batch, 16, 16, m, 0, 16, 0, 16, &t);
 *   }
 */
#ifndef TILE_TILE16_H
#define TILE_TILE16_H

#include <math.h>
#include "core.h"

#define TILE16_SIZE 16
#if TILE_ON_DEVICE
#define TILE16_ROWS 1
#else
#define TILE16_ROWS 16
#endif
/* tiles per block (inside a kernel body) */
#define TILE16_GROUPS (TILE_BLOCK_DIM >= 16 ? TILE_BLOCK_DIM / 16 : 1)

/* Row held by the calling thread, and the tile (group of 16 lanes) it helps hold. */
TILE_API int tile16_lane(void) {
#if TILE_ON_DEVICE
    return (int)(threadIdx.x & 15u);
#else
    return 0;
#endif
}
TILE_API int tile16_group(void) {
#if TILE_ON_DEVICE
    return (int)(threadIdx.x >> 4);
#else
    return 0;
#endif
}

#if TILE_ON_DEVICE
/* lanes of the calling warp that exist: all 32, or 16 in a last half warp */
TILE_API unsigned tile16__mask(void) {
    return blockDim.x - (threadIdx.x & ~31u) >= 32u ? 0xffffffffu : 0x0000ffffu;
}
/* element (j, k) of tile *tp, delivered to every lane of the half-warp */
#define TILE16__GET(tp, j, k) __shfl_sync(tile16__mask(), (tp)->r[0][k], (j), 16)
/* the same for code that knows its block is whole warps (the library's
 * kernels): a constant mask, so ptxas emits plain shuffles instead of the
 * collective form (WARPSYNC, BSSY / BSYNC around each) that a run-time mask
 * needs — measured 2-6 % faster on the batched Cholesky (6506cc9) */
#define TILE16__GETW(tp, j, k) __shfl_sync(0xffffffffu, (tp)->r[0][k], (j), 16)
#define TILE16__VGET(vp, j) __shfl_sync(tile16__mask(), (vp)->v[0], (j), 16)
#define TILE16__ROW(i) tile16_lane()
#else
#define TILE16__GET(tp, j, k) ((tp)->r[j][k])
#define TILE16__GETW(tp, j, k) ((tp)->r[j][k])
#define TILE16__VGET(vp, j) ((vp)->v[j])
#define TILE16__ROW(i) (i)
#endif
/* the larger of x over the two half-warps of the calling warp (so that both
 * take the same path through operations that shuffle), and a warp-level
 * memory fence between a group's global stores and its lanes' later loads */
TILE_API int tile16__warp_max(int x) {
#if TILE_ON_DEVICE
    const unsigned m = tile16__mask();
    if (m != 0xffffffffu) return x;
    const int y = __shfl_xor_sync(m, x, 16);
    return x > y ? x : y;
#else
    return x;
#endif
}
TILE_API void tile16__sync(void) {
#if TILE_ON_DEVICE
    __syncwarp(tile16__mask());
#endif
}
/* loop over the rows the calling thread holds (one on the device) */
#define TILE16__EACH_ROW(i) TILE__UNROLL for (int i = 0; i < TILE16_ROWS; ++i)

/* 16 contiguous elements from / to a 16-byte aligned address (128-bit
 * accesses on the device) */
TILE_API void tile16__ld16_f32(float *o, const float *p) {
#if TILE_ON_DEVICE
    TILE__UNROLL for (int q = 0; q < 4; ++q) {
        const float4 v = ((const float4 *)p)[q];
        o[4 * q] = v.x; o[4 * q + 1] = v.y; o[4 * q + 2] = v.z; o[4 * q + 3] = v.w;
    }
#else
    for (int k = 0; k < 16; ++k) o[k] = p[k];
#endif
}
TILE_API void tile16__st16_f32(float *p, const float *o) {
#if TILE_ON_DEVICE
    TILE__UNROLL for (int q = 0; q < 4; ++q)
        ((float4 *)p)[q] = make_float4(o[4 * q], o[4 * q + 1], o[4 * q + 2], o[4 * q + 3]);
#else
    for (int k = 0; k < 16; ++k) p[k] = o[k];
#endif
}
TILE_API void tile16__ld16_f64(double *o, const double *p) {
#if TILE_ON_DEVICE
    TILE__UNROLL for (int q = 0; q < 8; ++q) {
        const double2 v = ((const double2 *)p)[q];
        o[2 * q] = v.x; o[2 * q + 1] = v.y;
    }
#else
    for (int k = 0; k < 16; ++k) o[k] = p[k];
#endif
}
TILE_API void tile16__st16_f64(double *p, const double *o) {
#if TILE_ON_DEVICE
    TILE__UNROLL for (int q = 0; q < 8; ++q) ((double2 *)p)[q] = make_double2(o[2 * q], o[2 * q + 1]);
#else
    for (int k = 0; k < 16; ++k) p[k] = o[k];
#endif
}

/* The family, stamped out once per element type. Each function in short:
 *   zeros/eye: all 0 / identity.  eye_inplace(t): t = identity.
 *   get(t, i, j): t[i][j] in every lane (cooperative; i, j may be runtime).
 *   load_row16(t, s, ld) / store_row16(s, ld, t): row i at s + i*ld, all 16
 *     columns, no bounds (aligned workspaces, shared or global).
 *   load(t, a, rows, cols, r0, r1, c0, c1): t[:] = a[r0:r1, c0:c1] of a
 *     row-major rows x cols array (slice rules above); load_ld with a row
 *     stride ld; load3(t, a, nbatch, rows, cols, b, ...) from a[b]; load_shared
 *     the same for a shared array. store* mirror them.
 *     Suppose a is 20x20 with a[r][c] = 100r + c and t = eye: load(&t, a, 20, 20,
 *     16, 32, 16, 32) gives rows 0-3 = a[16..19][16..19] then zeros, rows
 *     4-15 of the identity.
 *   vec_load(a, rows, cols, r0, r1, col): v_i = a[r0+i][col], 0 past r1 or the array.
 *   sub_outer(t, a, b): t[i][j] -= a_i b_j.  sub_abt(c, a, b): c -= a b^T.
 *   sub_ab(c, a, b): c -= a b.  _mem forms: b row j at b + j*ldb (aligned).
 *   chol(t, eps) -> info; solve_xlt(l, b): b <- b l^-T; solve_lx: b <- l^-1 b;
 *   solve_ux: b <- u^-1 b (u upper). The solves read only the triangle they
 *   use and multiply by the reciprocals of its diagonal (zero or NaN there
 *   gives inf/NaN). */
#define TILE16__DEF(sfx, T, sqrtfn) \
typedef struct { T r[TILE16_ROWS][16]; } tile16_##sfx;                                                               \
typedef struct { T v[TILE16_ROWS]; } tile16_vec_##sfx;                                                               \
                                                                                                                     \
/* ---- construction ---- */                                                                                         \
TILE_API tile16_##sfx tile16_zeros_##sfx(void) {                                                                     \
    tile16_##sfx t;                                                                                                  \
    TILE16__EACH_ROW(i) TILE__UNROLL for (int k = 0; k < 16; ++k) t.r[i][k] = (T)0;                                  \
    return t;                                                                                                        \
}                                                                                                                    \
TILE_API void tile16_eye_inplace_##sfx(tile16_##sfx *t) {                                                            \
    TILE16__EACH_ROW(i) {                                                                                            \
        const int row = TILE16__ROW(i);                                                                              \
        TILE__UNROLL for (int k = 0; k < 16; ++k) t->r[i][k] = k == row ? (T)1 : (T)0;                               \
    }                                                                                                                \
}                                                                                                                    \
TILE_API tile16_##sfx tile16_eye_##sfx(void) {                                                                       \
    tile16_##sfx t;                                                                                                  \
    tile16_eye_inplace_##sfx(&t);                                                                                    \
    return t;                                                                                                        \
}                                                                                                                    \
TILE_API tile16_vec_##sfx tile16_vec_zeros_##sfx(void) {                                                             \
    tile16_vec_##sfx v;                                                                                              \
    TILE16__EACH_ROW(i) v.v[i] = (T)0;                                                                               \
    return v;                                                                                                        \
}                                                                                                                    \
                                                                                                                     \
/* ---- element access (cooperative: every lane gets the value) ---- */                                              \
TILE_API T tile16_get_##sfx(const tile16_##sfx *t, int i, int j) {                                                   \
    T x = (T)0;                                                                                                      \
    TILE__UNROLL for (int k = 0; k < 16; ++k) {                                                                      \
        const T y = TILE16__GET(t, i, k);                                                                            \
        x = k == j ? y : x;                                                                                          \
    }                                                                                                                \
    return x;                                                                                                        \
}                                                                                                                    \
TILE_API T tile16_vec_get_##sfx(const tile16_vec_##sfx *v, int i) { return TILE16__VGET(v, i); }                     \
                                                                                                                     \
/* ---- 16 contiguous elements, 16-byte aligned (shared workspaces) ---- */                                          \
TILE_API void tile16_load_row16_##sfx(tile16_##sfx *t, const T *s, int ld) {                                         \
    TILE16__EACH_ROW(i) tile16__ld16_##sfx(t->r[i], s + (size_t)TILE16__ROW(i) * (size_t)ld);                        \
}                                                                                                                    \
TILE_API void tile16_store_row16_##sfx(T *s, int ld, const tile16_##sfx *t) {                                        \
    TILE16__EACH_ROW(i) tile16__st16_##sfx(s + (size_t)TILE16__ROW(i) * (size_t)ld, t->r[i]);                        \
}                                                                                                                    \
                                                                                                                     \
/* ---- slices of row-major arrays ---- */                                                                           \
TILE_API void tile16_load_ld_##sfx(tile16_##sfx *t, const T *a, int ld, int rows, int cols, int r0, int r1,          \
                                   int c0, int c1) {                                                                 \
    TILE16__EACH_ROW(i) {                                                                                            \
        const int r = r0 + TILE16__ROW(i);                                                                           \
        if (r < r1 && r >= 0 && r < rows) {                                                                          \
            const T *p = a + (size_t)r * (size_t)ld;                                                                 \
            if (c0 >= 0 && c0 + 16 <= c1 && c0 + 16 <= cols && ((uintptr_t)(p + c0) & 15u) == 0) {                   \
                tile16__ld16_##sfx(t->r[i], p + c0);                                                                 \
            } else {                                                                                                 \
                TILE__UNROLL for (int k = 0; k < 16; ++k) {                                                          \
                    const int c = c0 + k;                                                                            \
                    t->r[i][k] = (k < c1 - c0 && c >= 0 && c < cols) ? p[c] : (T)0;                                  \
                }                                                                                                    \
            }                                                                                                        \
        }                                                                                                            \
    }                                                                                                                \
}                                                                                                                    \
TILE_API void tile16_load_##sfx(tile16_##sfx *t, const T *a, int rows, int cols, int r0, int r1, int c0, int c1) {   \
    tile16_load_ld_##sfx(t, a, cols, rows, cols, r0, r1, c0, c1);                                                    \
}                                                                                                                    \
TILE_API void tile16_load3_##sfx(tile16_##sfx *t, const T *a, int nbatch, int rows, int cols, int b, int r0,         \
                                 int r1, int c0, int c1) {                                                           \
    const int ok = b >= 0 && b < nbatch;                                                                             \
    tile16_load_ld_##sfx(t, a + (ok ? (size_t)b * (size_t)rows * (size_t)cols : 0), cols, ok ? rows : 0, cols,       \
                         r0, r1, c0, c1);                                                                            \
}                                                                                                                    \
TILE_API void tile16_store_ld_##sfx(T *a, int ld, int rows, int cols, int r0, int r1, int c0, int c1,                \
                                    const tile16_##sfx *t) {                                                         \
    TILE16__EACH_ROW(i) {                                                                                            \
        const int r = r0 + TILE16__ROW(i);                                                                           \
        if (r < r1 && r >= 0 && r < rows) {                                                                          \
            T *p = a + (size_t)r * (size_t)ld;                                                                       \
            if (c0 >= 0 && c0 + 16 <= c1 && c0 + 16 <= cols && ((uintptr_t)(p + c0) & 15u) == 0) {                   \
                tile16__st16_##sfx(p + c0, t->r[i]);                                                                 \
            } else {                                                                                                 \
                TILE__UNROLL for (int k = 0; k < 16; ++k) {                                                          \
                    const int c = c0 + k;                                                                            \
                    if (k < c1 - c0 && c >= 0 && c < cols) p[c] = t->r[i][k];                                        \
                }                                                                                                    \
            }                                                                                                        \
        }                                                                                                            \
    }                                                                                                                \
}                                                                                                                    \
TILE_API void tile16_store_##sfx(T *a, int rows, int cols, int r0, int r1, int c0, int c1, const tile16_##sfx *t) {  \
    tile16_store_ld_##sfx(a, cols, rows, cols, r0, r1, c0, c1, t);                                                   \
}                                                                                                                    \
TILE_API void tile16_store3_##sfx(T *a, int nbatch, int rows, int cols, int b, int r0, int r1, int c0, int c1,       \
                                  const tile16_##sfx *t) {                                                           \
    const int ok = b >= 0 && b < nbatch;                                                                             \
    tile16_store_ld_##sfx(a + (ok ? (size_t)b * (size_t)rows * (size_t)cols : 0), cols, ok ? rows : 0, cols, r0,     \
                          r1, c0, c1, t);                                                                            \
}                                                                                                                    \
/* shared arrays: the same rules; ld is the shared array's row length */                                             \
TILE_API void tile16_load_shared_##sfx(tile16_##sfx *t, const T *s, int ld, int rows, int cols, int r0, int r1,      \
                                       int c0, int c1) {                                                             \
    tile16_load_ld_##sfx(t, s, ld, rows, cols, r0, r1, c0, c1);                                                      \
}                                                                                                                    \
TILE_API void tile16_store_shared_##sfx(T *s, int ld, int rows, int cols, int r0, int r1, int c0, int c1,            \
                                        const tile16_##sfx *t) {                                                     \
    tile16_store_ld_##sfx(s, ld, rows, cols, r0, r1, c0, c1, t);                                                     \
}                                                                                                                    \
/* transposed load: tile row i is array column c0 + i, element (i, k) is                                             \
 * a[(r0 + k) * ld + c0 + i] (column c0 + i loaded when c0 + i < c1 and inside                                       \
 * the array, else the row is left as it was; rows past r1 or the array read 0) */                                   \
TILE_API void tile16_load_t_ld_##sfx(tile16_##sfx *t, const T *a, int ld, int rows, int cols, int r0, int r1,        \
                                     int c0, int c1) {                                                               \
    TILE16__EACH_ROW(i) {                                                                                            \
        const int c = c0 + TILE16__ROW(i);                                                                           \
        if (c < c1 && c >= 0 && c < cols) {                                                                          \
            TILE__UNROLL for (int k = 0; k < 16; ++k) {                                                              \
                const int r = r0 + k;                                                                                \
                t->r[i][k] = (k < r1 - r0 && r >= 0 && r < rows) ? a[(size_t)r * (size_t)ld + (size_t)c] : (T)0;     \
            }                                                                                                        \
        }                                                                                                            \
    }                                                                                                                \
}                                                                                                                    \
                                                                                                                     \
/* ---- column vectors ---- */                                                                                       \
TILE_API void tile16_vec_load_ld_##sfx(tile16_vec_##sfx *v, const T *a, int ld, int rows, int cols, int r0, int r1,  \
                                       int col) {                                                                    \
    TILE16__EACH_ROW(i) {                                                                                            \
        const int r = r0 + TILE16__ROW(i);                                                                           \
        v->v[i] = (r < r1 && r >= 0 && r < rows && col >= 0 && col < cols) ? a[(size_t)r * (size_t)ld + (size_t)col] \
                                                                             : (T)0;                                 \
    }                                                                                                                \
}                                                                                                                    \
TILE_API tile16_vec_##sfx tile16_vec_load_##sfx(const T *a, int rows, int cols, int r0, int r1, int col) {           \
    tile16_vec_##sfx v;                                                                                              \
    tile16_vec_load_ld_##sfx(&v, a, cols, rows, cols, r0, r1, col);                                                  \
    return v;                                                                                                        \
}                                                                                                                    \
TILE_API tile16_vec_##sfx tile16_vec_load3_##sfx(const T *a, int nbatch, int rows, int cols, int b, int r0, int r1,  \
                                                 int col) {                                                          \
    tile16_vec_##sfx v;                                                                                              \
    const int ok = b >= 0 && b < nbatch;                                                                             \
    tile16_vec_load_ld_##sfx(&v, a + (ok ? (size_t)b * (size_t)rows * (size_t)cols : 0), cols, ok ? rows : 0, cols,  \
                             r0, r1, col);                                                                           \
    return v;                                                                                                        \
}                                                                                                                    \
                                                                                                                     \
/* ---- rank-1 and rank-16 updates ---- */                                                                           \
TILE_API void tile16_sub_outer_##sfx(tile16_##sfx *t, const tile16_vec_##sfx *a, const tile16_vec_##sfx *b) {        \
    TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                                      \
        const T bj = TILE16__VGET(b, j);                                                                             \
        TILE16__EACH_ROW(i) t->r[i][j] -= a->v[i] * bj;                                                              \
    }                                                                                                                \
}                                                                                                                    \
TILE_API void tile16_sub_outer_sym_##sfx(tile16_##sfx *t, const tile16_vec_##sfx *v) {                               \
    tile16_sub_outer_##sfx(t, v, v);                                                                                 \
}                                                                                                                    \
/* C -= A * B^T, B read from memory (row j of B at b + j * ldb; 16-byte                                              \
 * aligned rows): every lane reads the same address (a broadcast) */                                                 \
TILE_API void tile16_sub_abt_mem_##sfx(tile16_##sfx *c, const tile16_##sfx *a, const T *b, int ldb) {                \
    TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                                      \
        T bj[16];                                                                                                    \
        tile16__ld16_##sfx(bj, b + (size_t)j * (size_t)ldb);                                                         \
        TILE16__EACH_ROW(i) {                                                                                        \
            T s = c->r[i][j];                                                                                        \
            TILE__UNROLL for (int k = 0; k < 16; ++k) s -= a->r[i][k] * bj[k];                                       \
            c->r[i][j] = s;                                                                                          \
        }                                                                                                            \
    }                                                                                                                \
}                                                                                                                    \
/* C -= A * B, B read from memory (row k of B at b + k * ldb; 16-byte aligned) */                                    \
TILE_API void tile16_sub_ab_mem_##sfx(tile16_##sfx *c, const tile16_##sfx *a, const T *b, int ldb) {                 \
    TILE__UNROLL for (int k = 0; k < 16; ++k) {                                                                      \
        T bk[16];                                                                                                    \
        tile16__ld16_##sfx(bk, b + (size_t)k * (size_t)ldb);                                                         \
        TILE16__EACH_ROW(i) TILE__UNROLL for (int j = 0; j < 16; ++j) c->r[i][j] -= a->r[i][k] * bk[j];              \
    }                                                                                                                \
}                                                                                                                    \
                                                                                                                     \
    /* end TILE16__DEF */
TILE16__DEF(f32, float, sqrtf)
TILE16__DEF(f64, double, sqrt)
/* The operations that read other lanes' elements (shuffles on the device),
 * defined twice from this macro: P = tile16_ with GET = TILE16__GET (the
 * public calls, any block) and P = tile16__w_ with TILE16__GETW (internal:
 * blocks of whole warps only). */
#define TILE16__SHFL_DEF(P, sfx, T, sqrtfn, GET) \
/* C -= A * B^T; lower (a constant after inlining): only j <= i, as syrk,                                            \
 * the strictly upper triangle left as it was */                                                                     \
TILE_API void P##_sub_abt_##sfx(tile16_##sfx *c, const tile16_##sfx *a, const tile16_##sfx *b, int lower) {          \
    TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                                      \
        TILE__UNROLL for (int k = 0; k < 16; ++k) {                                                                  \
            const T bjk = GET(b, j, k);                                                                              \
            TILE16__EACH_ROW(i) {                                                                                    \
                if (!lower || TILE16__ROW(i) >= j) c->r[i][j] -= a->r[i][k] * bjk;                                   \
            }                                                                                                        \
        }                                                                                                            \
    }                                                                                                                \
}                                                                                                                    \
/* C -= A * B^T */                                                                                                   \
TILE_API void P##sub_abt_##sfx(tile16_##sfx *c, const tile16_##sfx *a, const tile16_##sfx *b) {                      \
    P##_sub_abt_##sfx(c, a, b, 0);                                                                                   \
}                                                                                                                    \
/* C -= A * B^T in the lower triangle (j <= i, as syrk); the strictly upper                                          \
 * triangle is left as it was */                                                                                     \
TILE_API void P##sub_abt_lower_##sfx(tile16_##sfx *c, const tile16_##sfx *a, const tile16_##sfx *b) {                \
    P##_sub_abt_##sfx(c, a, b, 1);                                                                                   \
}                                                                                                                    \
/* C -= A * B */                                                                                                     \
TILE_API void P##sub_ab_##sfx(tile16_##sfx *c, const tile16_##sfx *a, const tile16_##sfx *b) {                       \
    TILE__UNROLL for (int k = 0; k < 16; ++k) {                                                                      \
        TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                                  \
            const T bkj = GET(b, k, j);                                                                              \
            TILE16__EACH_ROW(i) c->r[i][j] -= a->r[i][k] * bkj;                                                      \
        }                                                                                                            \
    }                                                                                                                \
}                                                                                                                    \
/* ---- Cholesky and triangular solves ---- */                                                                       \
TILE_API int P##chol_##sfx(tile16_##sfx *t, T eps) {                                                                 \
    int info = 0;                                                                                                    \
    TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                                      \
        T d = GET(t, j, j);                                                                                          \
        if (!(d > (T)0) && info == 0) info = j + 1;                                                                  \
        if (eps > (T)0) d = d > eps ? d : eps; /* a NaN pivot is clamped too */                                      \
        else d = d > (T)0 ? d : (T)NAN;                                                                              \
        const T s = sqrtfn(d);                                                                                       \
        TILE16__EACH_ROW(i) {                                                                                        \
            const int row = TILE16__ROW(i);                                                                          \
            if (row == j) t->r[i][j] = s;                                                                            \
            if (row > j) t->r[i][j] = t->r[i][j] / s;                                                                \
        }                                                                                                            \
        TILE__UNROLL for (int k = j + 1; k < 16; ++k) {                                                              \
            const T lkj = GET(t, k, j);                                                                              \
            TILE16__EACH_ROW(i) {                                                                                    \
                if (TILE16__ROW(i) >= k) t->r[i][k] -= t->r[i][j] * lkj;                                             \
            }                                                                                                        \
        }                                                                                                            \
    }                                                                                                                \
    return info;                                                                                                     \
}                                                                                                                    \
/* X * L^T = B: B <- B * L^-T (row by row, L lower) */                                                               \
TILE_API void P##solve_xlt_##sfx(const tile16_##sfx *l, tile16_##sfx *b) {                                           \
    TILE__UNROLL for (int c = 0; c < 16; ++c) {                                                                      \
        /* reciprocal first: it depends on L only, so the chain through the                                          \
         * columns of b is multiplies and FMAs, no division */                                                       \
        const T inv = (T)1 / GET(l, c, c);                                                                           \
        TILE__UNROLL for (int k = 0; k < c; ++k) {                                                                   \
            const T lck = GET(l, c, k);                                                                              \
            TILE16__EACH_ROW(i) b->r[i][c] -= b->r[i][k] * lck;                                                      \
        }                                                                                                            \
        TILE16__EACH_ROW(i) b->r[i][c] = b->r[i][c] * inv;                                                           \
    }                                                                                                                \
}                                                                                                                    \
/* L * X = B: B <- L^-1 * B (L lower) */                                                                             \
TILE_API void P##solve_lx_##sfx(const tile16_##sfx *l, tile16_##sfx *b) {                                            \
    TILE__UNROLL for (int k = 0; k < 16; ++k) {                                                                      \
        const T inv = (T)1 / GET(l, k, k);                                                                           \
        TILE16__EACH_ROW(i) {                                                                                        \
            if (TILE16__ROW(i) == k) TILE__UNROLL for (int c = 0; c < 16; ++c) b->r[i][c] = b->r[i][c] * inv;        \
        }                                                                                                            \
        TILE__UNROLL for (int c = 0; c < 16; ++c) {                                                                  \
            const T xkc = GET(b, k, c);                                                                              \
            TILE16__EACH_ROW(i) {                                                                                    \
                if (TILE16__ROW(i) > k) b->r[i][c] -= l->r[i][k] * xkc;                                              \
            }                                                                                                        \
        }                                                                                                            \
    }                                                                                                                \
}                                                                                                                    \
/* U * X = B: B <- U^-1 * B (U upper) */                                                                             \
TILE_API void P##solve_ux_##sfx(const tile16_##sfx *u, tile16_##sfx *b) {                                            \
    TILE__UNROLL for (int k = 15; k >= 0; --k) {                                                                     \
        const T inv = (T)1 / GET(u, k, k);                                                                           \
        TILE16__EACH_ROW(i) {                                                                                        \
            if (TILE16__ROW(i) == k) TILE__UNROLL for (int c = 0; c < 16; ++c) b->r[i][c] = b->r[i][c] * inv;        \
        }                                                                                                            \
        TILE__UNROLL for (int c = 0; c < 16; ++c) {                                                                  \
            const T xkc = GET(b, k, c);                                                                              \
            TILE16__EACH_ROW(i) {                                                                                    \
                if (TILE16__ROW(i) < k) b->r[i][c] -= u->r[i][k] * xkc;                                              \
            }                                                                                                        \
        }                                                                                                            \
    }                                                                                                                \
}                                                                                                                    \
    /* end TILE16__SHFL_DEF */
TILE16__SHFL_DEF(tile16_, f32, float, sqrtf, TILE16__GET)
TILE16__SHFL_DEF(tile16_, f64, double, sqrt, TILE16__GET)
TILE16__SHFL_DEF(tile16__w_, f32, float, sqrtf, TILE16__GETW)
TILE16__SHFL_DEF(tile16__w_, f64, double, sqrt, TILE16__GETW)

#endif /* TILE_TILE16_H */
