/* tile/chol_batched.h - blocked batched Cholesky factor and solve on 16x16
 * register tiles (tile16.h), for n = 1 .. 128, f32 and f64.
 *
 * Library calls (launch on either target; a, info, L, b in the target's memory):
 *   int tile_chol_batched_f32(tile_exec ex, float *a, int n, int batch, int *info);
 *   int tile_chol_batched_eps_f32(tile_exec ex, float *a, int n, int batch, float eps, int *info);
 *   int tile_chol_batched_solve_f32(tile_exec ex, const float *l, float *b, int n, int nrhs, int batch);
 *   (and _f64). a holds `batch` row-major n x n matrices back to back; the
 *   factor replaces each with its factor L itself (A = L L^T), as
 *   numpy.linalg.cholesky: L in the lower triangle (diagonal included) and
 *   zeros in the strictly upper triangle, which is never read (any values,
 *   NaN included, give the same L). The zeros come with the stores the
 *   kernels do anyway (whole tiles for n <= 32, whole rows in the blocked
 *   copy-out): no extra pass over the matrices. info (may be NULL): batch
 *   ints, 0 for a factored matrix, k > 0 when the k-th pivot (1-based) was not
 *   > 0 (not SPD, singular, or NaN). Without eps such a matrix gets NaN in
 *   column k-1 and every later column of L (columns before are valid); with
 *   eps > 0 every pivot <= eps (or NaN) is clamped to eps, info still reports
 *   the first pivot that was <= 0 (see tile16_chol in tile16.h: finite L for
 *   singular / semidefinite input). NaN in the lower triangle gives info at
 *   the first pivot it reaches. A failed matrix too gets zeros in its
 *   strictly upper triangle (NaN only in the lower one).
 *   The solve reads only L's lower triangle (the upper one may hold
 *   anything) and overwrites b (batch x n x nrhs, row-major) with x, A x = b;
 *   nrhs <= TILE__CHOL_WSOLVE_MAXRHS (2) runs a warp a (matrix, column), more
 *   16-column tiles (the warp solve and the tile solve below). Returns
 *   TILE_OK, TILE_ERR_ARG (n outside 1..128, batch < 0, nrhs < 1, a null
 *   pointer with batch > 0), or a launch error.
 *   The GPU calls are asynchronous (tile_synchronize waits and reports).
 *   Suppose batch = 2, n = 2, a = {4, 2, 2, 10,  1, 2, 2, 1}: the factor gives
 *   a = {2, 0, 1, 3,  1, 0, 2, NaN}, info = {0, 2}.
 *
 *   int tile_chol_batched_lower_f32(tile_exec ex, float *a, int n, int batch, int *info);
 *   int tile_chol_batched_lower_eps_f32(tile_exec ex, float *a, int n, int batch, float eps, int *info);
 *   (and _f64). The same factor with LAPACK's potrf contract (cuSOLVER's
 *   potrfBatched, lower): only the lower triangle, diagonal included, is
 *   read and overwritten by L; the strictly upper triangle is neither read
 *   nor written, so it may keep something else (A's upper half, for a
 *   residual). L's bits, info and the errors are the default call's. It
 *   stores about half of the default call's bytes at n = 128 (the zeros are
 *   not written): f64 n = 128 on the H100 took 373.5 us against 395.6
 *   (docs/cholesky.md, "The lower calls").
 *   Suppose a = {4, 7, 2, 10} (n = 2): the call gives a = {2, 7, 1, 3}.
 *
 * Blocking. n is padded to 16 nb (nb = ceil(n / 16)) with the identity:
 *   - n <= 32: one matrix per group of 16 lanes, in registers (tiles A00, A10,
 *     A11), two matrices a warp: chol(A00); A10 <- A10 L00^-T;
 *     A11 -= A10 A10^T; chol(A11); n <= 16 has its own one-tile kernel, and
 *     17..32 stages A10 in a per-group shared tile for the update (broadcast
 *     reads instead of shuffles);
 *   - 32 < n <= 128 (both targets): one matrix per block (64 threads for
 *     nb <= 4, else 128); the lower tiles are staged in shared memory
 *     (packed: tile (i, j) at i(i+1)/2 + j; rows padded to 80 / 144 bytes,
 *     or, at nb = 8, unpadded rows with swizzled 16-byte chunks: f32 36 KiB,
 *     6 blocks an SM instead of 4, f64 72 KiB, 3 instead of 2) by cp.async
 *     copies of the lower triangle (row-major chunks, every thread a chunk
 *     of 16 bytes), then a right-looking loop with two
 *     barriers a step: panel (each group factors L_kk in registers itself
 *     and solves one tile L_ik = A_ik L_kk^-T, in the factor's own pass
 *     where registers allow; f32 at nb = 8 a warp solves three tiles with
 *     one factor) and trailing update (each group one tile,
 *     A_ij -= L_ik L_jk^T, a 2 x 8 block of it a lane from shared memory),
 *     then whole rows are written back: L's lower
 *     triangle and zeros past the diagonal (16-byte stores). The rows
 *     kernels (below; one thread a row, one barrier a step) are taken with
 *     TILE_CHOL_ROWS 2 only: the blocked kernels are faster at every n.
 *     The library's 16 x 16 factor is an internal one-pass form
 *     (tile__chol_fs): a reciprocal square root a column instead of the
 *     IEEE sqrt and division, unguarded updates, the next pivot ahead, and
 *     each column exchanged through a shared scratch tile where registers
 *     allow (else by shuffles).
 *     The stores of the n <= 32 kernels are whole 16 x 16 tiles: the
 *     diagonal tiles' strictly upper parts are set to zero in registers
 *     first, and n > 16 stores a zero tile for the block above A11.
 *   - solve: one (matrix, 16 right-hand-side columns) per group, L's tiles
 *     loaded straight from memory (transposed for L^T), forward then backward
 *     block substitution.
 *
 * Device building blocks, for a user's TILE_KERNEL:
 *   int tile_chol_small_f32(float *a, int n, float eps)
 *       Each group of 16 lanes factors its own n x n matrix (n <= 32) at a, in
 *       registers, into L itself (strictly upper triangle zero, as the
 *       library call); returns the info in the group's lanes. Cooperative over the
 *       warp: both half-warps call (a group with no matrix passes a = NULL).
 *   int tile_chol_block_f32(void *ws, float *a, int n, float eps, int groups)
 *       The whole block factors one n x n matrix (n <= 128) into L itself
 *       (reads the lower triangle, writes every element) using ws, a
 *       workspace of TILE_CHOL_WS_BYTES_F32(n) bytes of shared memory (16-byte
 *       aligned); groups = TILE16_GROUPS, and the block a multiple of 32
 *       threads. Returns the info in every thread; -1, a neither read nor
 *       written, where ws or a is NULL or n is outside 1..128. Cooperative
 *       (barriers; the arguments the same in every thread).
 *   void tile_chol_solve_small_f32(const float *l, float *b, int n, int nrhs, int c0)
 *       Each group solves columns c0 .. c0+15 of its own b (n x nrhs) with its L.
 *   Example: one 64 x 64 matrix a block,
 *     TILE_KERNEL_SMEM(chol64, 128, TILE_CHOL_WS_BYTES_F32(64), float *a, int *info) {
 *         void *ws = tile_smem_alloc(TILE_CHOL_WS_BYTES_F32(64));
 *         int r = tile_chol_block_f32(ws, a + (size_t)tile_block(0) * 64 * 64, 64, 0.0f, TILE16_GROUPS);
 *         if (tile_thread() == 0) info[tile_block(0)] = r;
 *     }
 *     // a = {SPD matrices}: each becomes L (zeros above the diagonal), info[b] = 0
 */
#ifndef TILE_CHOL_BATCHED_H
#define TILE_CHOL_BATCHED_H

#include "core.h"
#include "tile16.h"
#include "async.h"

#define TILE_CHOL_MAX_N 128
/* shared-memory tile rows (elements; 80 / 144 bytes) and tile strides */
/* tile__chol_small_k's per-group staging tile: rows padded to 80 / 144 bytes */
#define TILE__CHOL_LD_f32 20
#define TILE__CHOL_LD_f64 18
#ifndef TILE__CHOL_TS_f32
#define TILE__CHOL_TS_f32 (16 * 20 + 16) /* + 64 bytes: neighbouring tiles on other banks */
#endif
#define TILE__CHOL_TS_f64 (16 * 18)
#define TILE__CHOL_VW_f32 4 /* elements of a 16-byte access */
#define TILE__CHOL_VW_f64 2
/* e / q without a division, for 1 <= q <= 64 and 0 <= e < min(128 q, 2^13)
 * (the copies' row in a 128-row matrix): (e m) >> 20 with m = ceil(2^20 / q)
 * (0 <= m - 2^20 / q < 1, so the error e (m - 2^20 / q) / 2^20 < 1 / 128
 * stays under the 1 / q gap to the next integer; e m < 2^28) */
#define TILE__CHOL_DIVQ_M(q) ((1u << 20) / (unsigned)(q) + ((1u << 20) % (unsigned)(q) != 0))
#define TILE__CHOL_DIVQU(e, m) (((unsigned)(e) * (m)) >> 20)
/* The blocked workspace: packed lower tiles (tile (i, j) at i(i+1)/2 + j) in
 * one of two layouts (LY):
 *  P: rows padded to 80 / 144 bytes (TILE__CHOL_LD), so that the 8 lanes of
 *     a 16-byte access phase, each reading its own row, hit distinct banks;
 *     f32 tiles 64 bytes apart (neighbouring tiles start on other banks);
 *  S: rows of 16 elements with their 16-byte chunks swizzled: chunk q of row
 *     i at position q ^ s(i), s(i) = ((i >> 1) & 3) ^ h (f32, 4 chunks a
 *     row) or (i & 7) ^ h (f64, 8), h = (i >> 3) & 1, the same bank spread
 *     (unswizzled 64-byte rows put 4 lanes on one bank group, 128-byte rows
 *     8) in 0.76 / 0.89 of P's bytes (f32 n = 128: 36 KiB, 6 blocks an SM
 *     instead of 4), for a few integer instructions an access. The h term
 *     puts rows 8 apart on other chunks, so the 2 x 8 update (below) reads
 *     B's two rows at one logical chunk without a conflict and every B
 *     address is a constant off one of two pointers. */
#define TILE__CHOL_SWZ_f32(i, q) ((q) ^ (((i) >> 1) & 3) ^ (((i) >> 3) & 1))
#define TILE__CHOL_SWZ_f64(i, q) ((q) ^ ((i)&7) ^ (((i) >> 3) & 1))
#define TILE__CHOL_OFF_P(sfx, i, c) ((i)*TILE__CHOL_LD_##sfx + (c))
#define TILE__CHOL_OFF_S(sfx, i, c) \
    ((i) * 16 + TILE__CHOL_SWZ_##sfx((i), (c) / TILE__CHOL_VW_##sfx) * TILE__CHOL_VW_##sfx + (c) % TILE__CHOL_VW_##sfx)
#define TILE__CHOL_TT_P_f32 TILE__CHOL_TS_f32
#define TILE__CHOL_TT_P_f64 TILE__CHOL_TS_f64
#define TILE__CHOL_TT_S_f32 256
#define TILE__CHOL_TT_S_f64 256
#define TILE__CHOL_NT(nb) ((size_t)(nb) * (size_t)((nb) + 1) / 2)
#define TILE__CHOL_TB(LY, sfx, T, nb) (TILE__CHOL_NT(nb) * TILE__CHOL_TT_##LY##_##sfx * sizeof(T))
#define TILE__CHOL_WSB(LY, sfx, T, n) (TILE__CHOL_TB(LY, sfx, T, ((n) + 15) / 16) + 16)
/* Workspace bytes of tile_chol_block for an n x n matrix (the lower tiles and
 * the info word): TILE_CHOL_WS_BYTES_F32(128) == 48400 (47.3 KiB),
 * TILE_CHOL_WS_BYTES_F64(128) == 82960 (81 KiB). */
#define TILE_CHOL_WS_BYTES_F32(n) TILE__CHOL_WSB(P, f32, float, n)
#define TILE_CHOL_WS_BYTES_F64(n) TILE__CHOL_WSB(P, f64, double, n)
#define TILE__CHOL_WS_BYTES_f32(n) TILE_CHOL_WS_BYTES_F32(n)
#define TILE__CHOL_WS_BYTES_f64(n) TILE_CHOL_WS_BYTES_F64(n)

/* loops over tiles run as loops: unrolled copies of their bodies only
 * lengthen register live ranges (ptxas spilled the solve) */
#if TILE_ON_DEVICE
#define TILE__CHOL_NOUNROLL _Pragma("unroll 1")
#else
#define TILE__CHOL_NOUNROLL
#endif

TILE_API void tile__chol_vld_f32(float *v, const float *p) {
#if TILE_ON_DEVICE
    const float4 q = *(const float4 *)p;
    v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
#else
    for (int e = 0; e < 4; ++e) v[e] = p[e];
#endif
}
TILE_API void tile__chol_vst_f32(float *p, const float *v) {
#if TILE_ON_DEVICE
    *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
#else
    for (int e = 0; e < 4; ++e) p[e] = v[e];
#endif
}
TILE_API void tile__chol_vld_f64(double *v, const double *p) {
#if TILE_ON_DEVICE
    const double2 q = *(const double2 *)p;
    v[0] = q.x; v[1] = q.y;
#else
    for (int e = 0; e < 2; ++e) v[e] = p[e];
#endif
}
TILE_API void tile__chol_vst_f64(double *p, const double *v) {
#if TILE_ON_DEVICE
    *(double2 *)p = make_double2(v[0], v[1]);
#else
    for (int e = 0; e < 2; ++e) p[e] = v[e];
#endif
}
/* the chunk of row r from column c0 at p: whole, or with lo (the lower
 * calls, a constant after inlining) its elements at columns <= r alone */
#define TILE__CHOL_VSTLO_DEF(sfx, T, VW)                                                           \
    TILE_API void tile__chol_vstlo_##sfx(T *p, const T *v, int r, int c0, int lo) {                \
        if (!lo || c0 + (VW)-1 <= r) tile__chol_vst_##sfx(p, v);                                   \
        else                                                                                       \
            for (int e = 0; e < (VW); ++e)                                                         \
                if (c0 + e <= r) p[e] = v[e];                                                      \
    }
TILE__CHOL_VSTLO_DEF(f32, float, 4)
TILE__CHOL_VSTLO_DEF(f64, double, 2)

/* a whole tile to / from the blocked workspace in layout LY (every lane its
 * own row: four / eight 16-byte accesses). tile__chol_rowoff: the thread's
 * row, recomputed at each access: on the device an empty volatile asm hides
 * that it is the same every time, or the compiler kept every chunk's offset
 * of the thread's row live across the whole kernel (sm_90 spilled) */
#if TILE_ON_DEVICE
TILE_API int tile__chol_rowoff(int row) {
    int r;
    asm volatile("mov.b32 %0, %1;" : "=r"(r) : "r"(row));
    return r;
}
#else
#define tile__chol_rowoff(row) (row)
#endif
#define TILE__CHOL_TLD_DEF(LY, sfx, T)                                                              \
    TILE_API void tile__chol_tld_##LY##_##sfx(tile16_##sfx *t, const T *tile) {                     \
        TILE16__EACH_ROW(i) {                                                                       \
            const int row = tile__chol_rowoff(TILE16__ROW(i));                                      \
            TILE__UNROLL for (int q = 0; q < 16; q += TILE__CHOL_VW_##sfx)                          \
                tile__chol_vld_##sfx(t->r[i] + q, tile + TILE__CHOL_OFF_##LY(sfx, row, q));         \
        }                                                                                           \
    }                                                                                               \
    TILE_API void tile__chol_tst_##LY##_##sfx(T *tile, const tile16_##sfx *t) {                     \
        TILE16__EACH_ROW(i) {                                                                       \
            const int row = tile__chol_rowoff(TILE16__ROW(i));                                      \
            TILE__UNROLL for (int q = 0; q < 16; q += TILE__CHOL_VW_##sfx)                          \
                tile__chol_vst_##sfx(tile + TILE__CHOL_OFF_##LY(sfx, row, q), t->r[i] + q);         \
        }                                                                                           \
    }
TILE__CHOL_TLD_DEF(P, f32, float)
TILE__CHOL_TLD_DEF(P, f64, double)
TILE__CHOL_TLD_DEF(S, f32, float)
TILE__CHOL_TLD_DEF(S, f64, double)

/* The blocked kernels' trailing-update task C -= A B^T (three workspace
 * tiles; C written only where valid). On the device lane (rb, cb) = (lane &
 * 7, lane >> 3) of the group computes rows rb and rb + 8, columns 8 cb ..
 * 8 cb + 7 of C from shared memory, so a 16-byte load feeds 8 (A) or 2 (B)
 * FMAs' rows instead of one: 48 shared accesses a tile instead of the
 * row-a-lane form's 76 (C and A in registers, B's rows broadcast: 64 of
 * them). The two column blocks walk k in a rotated chunk order (cb = 1 one
 * chunk ahead): their B rows 8 apart (the P layout's 160 elements: one
 * bank group) then sit on different banks (the S layout: its own form,
 * below). The lane
 * comes through tile__chol_rowoff (else its rows' offsets stayed live across
 * the kernel: blk64 f32 spilled). B's rows four at a time, an empty asm with
 * a memory clobber after each four (the row form's f64 hoisted all of B's
 * loads and spilled without one). H200, batch 4096 (bench/results/
 * 2026-12-02-h200-chol-upd28-*.txt), against the row form in the same
 * process: f32 n = 128 278.1 -> 262.2 us, 92 140.2 -> 139.1, 64 68.3 ->
 * 67.9; f64 n = 128 585.9 -> 561.1, 64 139.2 -> 135.0, 92 318.7 -> 300.9
 * (108 registers, as before; 134 before the lane went through
 * tile__chol_rowoff). The CPU keeps the register tiles. */
#if TILE_ON_DEVICE
/* the 2 x 8 block's FMAs for B rows h .. h + 3 (av: A's two rows, bv: B's
 * four, one chunk of k each), then an empty asm with a memory clobber */
#define TILE__CHOL_UPD28_FMA(sfx, acc, av, bv, h)                                                   \
    do {                                                                                            \
        TILE__UNROLL for (int ii = 0; ii < 2; ++ii)                                                 \
            TILE__UNROLL for (int jj = 0; jj < 4; ++jj)                                             \
                TILE__UNROLL for (int kk = 0; kk < TILE__CHOL_VW_##sfx; ++kk)                       \
                    (acc)[ii][(h) + jj] -= (av)[ii][kk] * (bv)[jj][kk];                             \
        asm volatile("" ::: "memory");                                                              \
    } while (0)
#define TILE__CHOL_UPD28_DEF(LY, sfx, T)                                                            \
    TILE_API void tile__chol_upd28_##LY##_##sfx(T *c, const T *a, const T *b) {                     \
        const int l = tile__chol_rowoff(tile16_lane()), rb = l & 7, cb = l >> 3, vw = TILE__CHOL_VW_##sfx; \
        T acc[2][8];                                                                                \
        TILE__UNROLL for (int ii = 0; ii < 2; ++ii)                                                 \
            TILE__UNROLL for (int h = 0; h < 8; h += vw)                                            \
                tile__chol_vld_##sfx(acc[ii] + h, c + TILE__CHOL_OFF_##LY(sfx, rb + 8 * ii, 8 * cb + h)); \
        TILE__UNROLL for (int q = 0; q < 16 / vw; ++q) {                                            \
            const int kq = vw * ((q + cb) & (16 / vw - 1));                                         \
            T av[2][TILE__CHOL_VW_##sfx];                                                           \
            TILE__UNROLL for (int ii = 0; ii < 2; ++ii)                                             \
                tile__chol_vld_##sfx(av[ii], a + TILE__CHOL_OFF_##LY(sfx, rb + 8 * ii, kq));        \
            TILE__UNROLL for (int h = 0; h < 8; h += 4) { /* B's rows four at a time: registers */ \
                T bv[4][TILE__CHOL_VW_##sfx];                                                       \
                TILE__UNROLL for (int jj = 0; jj < 4; ++jj)                                         \
                    tile__chol_vld_##sfx(bv[jj], b + TILE__CHOL_OFF_##LY(sfx, 8 * cb + h + jj, kq)); \
                TILE__CHOL_UPD28_FMA(sfx, acc, av, bv, h);                                          \
            }                                                                                       \
        }                                                                                           \
        TILE__UNROLL for (int ii = 0; ii < 2; ++ii)                                                 \
            TILE__UNROLL for (int h = 0; h < 8; h += vw)                                            \
                tile__chol_vst_##sfx(c + TILE__CHOL_OFF_##LY(sfx, rb + 8 * ii, 8 * cb + h), acc[ii] + h); \
    }
TILE__CHOL_UPD28_DEF(P, f32, float)
TILE__CHOL_UPD28_DEF(P, f64, double)
/* the S layout's form: no rotation (all lanes walk k alike). Rows rb and
 * rb + 8 have swizzles s0 and s0 ^ 1; B's rows 8 cb + r have s(r) ^ cb, so
 * B's chunk c = q ^ s(r) (a constant) lies at c ^ cb: c + cb for even c,
 * c - cb for odd, i.e. a constant off bE or bO. ncu at 1992ce1 (f32 n =
 * 128): the rotated form spent 160 integer instructions a warp's task
 * (swizzle arithmetic) beside its 256 FFMA; without it f32 / f64 n = 128
 * 262.3 / 561.8 -> 253.4 / 538.8 us (H200, batch 4096, bench/results/
 * 2026-12-02-h200-chol-s28-q-sweeps.txt) */
#define TILE__CHOL_UPD28S_DEF(sfx, T)                                                              \
    TILE_API void tile__chol_upd28_S_##sfx(T *c, const T *a, const T *b) {                          \
        const int l = tile__chol_rowoff(tile16_lane()), rb = l & 7, cb = l >> 3, vw = TILE__CHOL_VW_##sfx; \
        const int s0 = TILE__CHOL_SWZ_##sfx(rb, 0);                                                 \
        const T *bE = b + 128 * cb + vw * cb, *bO = b + 128 * cb - vw * cb;                         \
        T acc[2][8];                                                                                \
        TILE__UNROLL for (int ii = 0; ii < 2; ++ii)                                                 \
            TILE__UNROLL for (int h = 0; h < 8; h += vw)                                            \
                tile__chol_vld_##sfx(acc[ii] + h, c + 16 * (rb + 8 * ii) + vw * (((8 * cb + h) / vw) ^ s0 ^ ii)); \
        TILE__UNROLL for (int q = 0; q < 16 / vw; ++q) {                                            \
            T av[2][TILE__CHOL_VW_##sfx];                                                           \
            TILE__UNROLL for (int ii = 0; ii < 2; ++ii)                                             \
                tile__chol_vld_##sfx(av[ii], a + 16 * (rb + 8 * ii) + vw * (q ^ s0 ^ ii));          \
            TILE__UNROLL for (int h = 0; h < 8; h += 4) {                                           \
                T bv[4][TILE__CHOL_VW_##sfx];                                                       \
                TILE__UNROLL for (int jj = 0; jj < 4; ++jj) {                                       \
                    const int r = h + jj, cc = TILE__CHOL_SWZ_##sfx(r, q);                          \
                    tile__chol_vld_##sfx(bv[jj], ((cc & 1) ? bO : bE) + 16 * r + vw * cc);          \
                }                                                                                   \
                TILE__CHOL_UPD28_FMA(sfx, acc, av, bv, h);                                          \
            }                                                                                       \
        }                                                                                           \
        TILE__UNROLL for (int ii = 0; ii < 2; ++ii)                                                 \
            TILE__UNROLL for (int h = 0; h < 8; h += vw)                                            \
                tile__chol_vst_##sfx(c + 16 * (rb + 8 * ii) + vw * (((8 * cb + h) / vw) ^ s0 ^ ii), acc[ii] + h); \
    }
TILE__CHOL_UPD28S_DEF(f32, float)
TILE__CHOL_UPD28S_DEF(f64, double)
#define TILE__CHOL_UPD_TASK(LY, sfx, T, valid, c, a, b)                            \
    do {                                                                           \
        if (valid) tile__chol_upd28_##LY##_##sfx((c), (a), (b));                   \
    } while (0)
#else
#define TILE__CHOL_UPD_TASK(LY, sfx, T, valid, c, a, b)                            \
    do {                                                                           \
        if (valid) {                                                               \
            tile16_##sfx tile__c, tile__a, tile__b;                                \
            tile__chol_tld_##LY##_##sfx(&tile__c, (c));                            \
            tile__chol_tld_##LY##_##sfx(&tile__a, (a));                            \
            tile__chol_tld_##LY##_##sfx(&tile__b, (b));                            \
            tile16__w_sub_abt_##sfx(&tile__c, &tile__a, &tile__b);                 \
            tile__chol_tst_##LY##_##sfx((c), &tile__c);                            \
        }                                                                          \
    } while (0)
#endif
/* where the tensor-core forms below do not apply (never called there) */
TILE_API void tile__chol_mma_nop(const void *c, const void *a, const void *b) { (void)c, (void)a, (void)b; }
/* f64 on sm_80+: one tile's update by a whole warp on the f64 tensor cores
 * (DMMA, tile__dmma884): C -= A B^T with
 * A = L_ik, B = L_jk, C's four 8 x 8 blocks in registers over four k steps.
 * k is permuted alike in A and B (step s takes k = 4q + s in lane q: the
 * order of a sum's terms, not its terms), so a lane reads its 4 values of a
 * row as two 16-byte loads. A warp's tile: 12 shared loads, 8 negations,
 * 16 DMMA and 4 stores, where the 2 x 8 form runs 256 DFMA and 48 shared
 * accesses a lane for a half-warp's (the FP64 pipe issues a warp's DFMA in
 * two cycles). A and B's loads are conflict-free in both layouts; C's rows
 * g and g + 1 share banks (two wavefronts a quarter-warp, 8 of 16 accesses) */
#if TILE_ON_DEVICE && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define TILE__CHOL_MMA_UPD_DEF(LY)                                                                  \
    TILE_API void tile__chol_mma_upd_##LY##_f64(double *c, const double *a, const double *b) {      \
        const int l = tile__chol_rowoff((int)(threadIdx.x & 31u)), g = l >> 2, q = l & 3;           \
        double av[2][4], bv[2][4], cv[2][2][2];                                                     \
        TILE__UNROLL for (int h = 0; h < 2; ++h) {                                                  \
            tile__chol_vld_f64(av[h], a + TILE__CHOL_OFF_##LY(f64, 8 * h + g, 4 * q));              \
            tile__chol_vld_f64(av[h] + 2, a + TILE__CHOL_OFF_##LY(f64, 8 * h + g, 4 * q + 2));      \
            tile__chol_vld_f64(bv[h], b + TILE__CHOL_OFF_##LY(f64, 8 * h + g, 4 * q));              \
            tile__chol_vld_f64(bv[h] + 2, b + TILE__CHOL_OFF_##LY(f64, 8 * h + g, 4 * q + 2));      \
            TILE__UNROLL for (int w = 0; w < 2; ++w)                                                \
                tile__chol_vld_f64(cv[h][w], c + TILE__CHOL_OFF_##LY(f64, 8 * h + g, 8 * w + 2 * q)); \
            TILE__UNROLL for (int e = 0; e < 4; ++e) av[h][e] = -av[h][e];                          \
        }                                                                                           \
        TILE__UNROLL for (int s = 0; s < 4; ++s)                                                    \
            TILE__UNROLL for (int h = 0; h < 2; ++h)                                                \
                TILE__UNROLL for (int w = 0; w < 2; ++w)                                            \
                    tile__dmma884(&cv[h][w][0], &cv[h][w][1], av[h][s], bv[w][s]);                   \
        TILE__UNROLL for (int h = 0; h < 2; ++h)                                                    \
            TILE__UNROLL for (int w = 0; w < 2; ++w)                                                \
                tile__chol_vst_f64(c + TILE__CHOL_OFF_##LY(f64, 8 * h + g, 8 * w + 2 * q), cv[h][w]); \
        asm volatile("" ::: "memory");                                                              \
    }
TILE__CHOL_MMA_UPD_DEF(P)
TILE__CHOL_MMA_UPD_DEF(S)
#define TILE__CHOL_MMA_UPD_f64(LY, c, a, b) tile__chol_mma_upd_##LY##_f64((c), (a), (b))
/* f32 on sm_80+: two tiles a warp (the two half-warps' tasks of the 2 x 8
 * form: the same tasks a round), C -= A B^T on the tf32 tensor cores in
 * three products ("3xTF32"): each f32 x = hi + lo, hi = x rounded to tf32
 * (half away from zero, as integer operations: an add and a mask; a NaN's
 * hi may not be NaN, its lo is), lo = x - hi (exact; the tensor cores read
 * its top 11 significant bits), and A B^T = A_lo B_hi^T + A_hi B_lo^T +
 * A_hi B_hi^T: the dropped A_lo B_lo^T and lo's truncation are within 2^-21
 * of a product, where 1xTF32's 2^-11 would fail the f32 residuals. A's
 * negation rides in its split (the mask's xor, the subtraction's sign). A
 * tile: two m16n8k8 n-blocks of C (columns 0..7, 8..15) over two k steps, k
 * permuted alike in A and B (lane q's k = q, q + 4 at step s are columns
 * 4q + 2s, 4q + 2s + 1: a row's 4 values one 16-byte load). A's rows, and
 * with them C's, go through TILE__CHOL_MROW: in S it puts rows 0 1 4 5
 * (2 3 6 7) in a half-warp, whose C chunks then sit on distinct banks (rows
 * 0 1 2 3 have two on one). The second tile is skipped (not stored) where v1
 * is 0 */
TILE_API void tile__chol_tf32_split(float x, int neg, uint32_t *hi, uint32_t *lo) {
    uint32_t h; /* (u & mask) ^ sign as one LOP3 (ptxas made it two) */
    asm("lop3.b32 %0, %1, 0xffffe000, %2, 0x6a;" : "=r"(h) : "r"(__float_as_uint(x) + 0x1000u), "r"(neg ? 0x80000000u : 0u));
    *hi = h;
    *lo = __float_as_uint((neg ? -x : x) - __uint_as_float(h));
}
#define TILE__CHOL_MROW_P(g) (g)
#define TILE__CHOL_MROW_S(g) (((g)&1) | (((g)&2) << 1) | (((g)&4) >> 1))
#define TILE__CHOL_TMMA2_UPD_DEF(LY)                                                                \
    TILE_API void tile__chol_mma_upd2_##LY##_f32(float *c0, const float *a0, const float *b0, float *c1, \
                                                const float *a1, const float *b1, int v1) {        \
        const int l = tile__chol_rowoff((int)(threadIdx.x & 31u)), g = l >> 2, q = l & 3;           \
        const int gm = TILE__CHOL_MROW_##LY(g);                                                     \
        float *c[2] = {c0, c1};                                                                     \
        const float *a[2] = {a0, a1}, *b[2] = {b0, b1};                                             \
        float av[2][2][4], bv[2][2][4], cv[2][2][4];                                                \
        TILE__UNROLL for (int t = 0; t < 2; ++t)                                                    \
            TILE__UNROLL for (int h = 0; h < 2; ++h) {                                              \
                tile__chol_vld_f32(av[t][h], a[t] + TILE__CHOL_OFF_##LY(f32, 8 * h + gm, 4 * q));   \
                tile__chol_vld_f32(bv[t][h], b[t] + TILE__CHOL_OFF_##LY(f32, 8 * h + g, 4 * q));    \
                TILE__UNROLL for (int w = 0; w < 2; ++w) {                                          \
                    const float2 x = *(const float2 *)(c[t] + TILE__CHOL_OFF_##LY(f32, 8 * h + gm, 8 * w + 2 * q)); \
                    cv[t][w][2 * h] = x.x, cv[t][w][2 * h + 1] = x.y;                               \
                }                                                                                   \
            }                                                                                       \
        TILE__UNROLL for (int s = 0; s < 2; ++s) {                                                  \
            uint32_t ah[2][2][2], al[2][2][2], bh[2][2][2], bl[2][2][2]; /* [t][h or w][k - 2s] */  \
            TILE__UNROLL for (int t = 0; t < 2; ++t)                                                \
                TILE__UNROLL for (int h = 0; h < 2; ++h)                                            \
                    TILE__UNROLL for (int e = 0; e < 2; ++e) {                                      \
                        tile__chol_tf32_split(av[t][h][2 * s + e], 1, &ah[t][h][e], &al[t][h][e]);  \
                        tile__chol_tf32_split(bv[t][h][2 * s + e], 0, &bh[t][h][e], &bl[t][h][e]);  \
                    }                                                                               \
            TILE__UNROLL for (int p = 0; p < 3; ++p)                                                \
                TILE__UNROLL for (int t = 0; t < 2; ++t)                                            \
                    TILE__UNROLL for (int w = 0; w < 2; ++w) {                                      \
                        uint32_t(*x)[2] = p == 0 ? al[t] : ah[t];                                   \
                        uint32_t(*y)[2] = p == 1 ? bl[t] : bh[t];                                   \
                        tile__mma1688_tf32(cv[t][w], x[0][0], x[1][0], x[0][1], x[1][1], y[w][0], y[w][1]); \
                    }                                                                               \
        }                                                                                           \
        TILE__UNROLL for (int t = 0; t < 2; ++t)                                                    \
            if (t == 0 || v1)                                                                       \
                TILE__UNROLL for (int h = 0; h < 2; ++h)                                            \
                    TILE__UNROLL for (int w = 0; w < 2; ++w)                                        \
                        *(float2 *)(c[t] + TILE__CHOL_OFF_##LY(f32, 8 * h + gm, 8 * w + 2 * q)) =   \
                            make_float2(cv[t][w][2 * h], cv[t][w][2 * h + 1]);                      \
        asm volatile("" ::: "memory");                                                              \
    }
TILE__CHOL_TMMA2_UPD_DEF(P)
TILE__CHOL_TMMA2_UPD_DEF(S)
#define TILE__CHOL_MMA_UPD2_f32(LY, c0, a0, b0, c1, a1, b1, v1) tile__chol_mma_upd2_##LY##_f32(c0, a0, b0, c1, a1, b1, v1)
/* which f32 kernels take it (2: two tiles a warp): the S kernel (nb = 8),
 * f32 n = 128 230.7 -> 217.3 us (80 registers, 6 blocks an SM as before:
 * shared memory bounds it). With one tile a warp (half the tasks a round)
 * it was slower (237.7); with the split by cvt.rna (5 instructions a value)
 * 228.4; the P kernels on 128 threads with that split were slower, n = 64 /
 * 92 62.3 / 119.8 -> 66.3 / 126.6 (H200, batch 4096, bench/results/
 * 2026-12-04-h200-chol-tf32-sweep.txt). The residual ||L L^T - A|| / ||A||
 * at n = 128: 3.0e-7 -> 5.6e-7 (bench's matrices; chol_test's f32 2e-5) */
#ifndef TILE__CHOL_DMMA_f32
#define TILE__CHOL_DMMA_f32(LY, groups, pn2) (TILE__CHOL_LY_S_##LY ? 2 : 0)
#endif
/* which blocked kernels take it (LY, groups, pn2: the public block's
 * two-pass panel): sm_90's library kernels on 64 threads and in the S layout
 * (f64 n = 64 / 128 109.2 / 429.2 -> 101.8 / 408.3 us, H200, bench/results/
 * 2026-12-03-h200-chol-dmma-sweep.txt), nb 5..7 included since they run in
 * S on sm_90 (tile__chol_block_s1_f64). Not the P kernel on 128 threads
 * (nb 5..7: ptxas then took 96 registers and spilled 4 bytes, or, capped at
 * 128, n = 92 was a tie: 237.4 / 236.5), the public block (its 64-thread
 * kernel in chol_test spilled 4 bytes) or sm_80 (the S and 64-thread
 * kernels spilled 32 / 8 bytes) */
#define TILE__CHOL_LY_S_P 0
#define TILE__CHOL_LY_S_S 1
#ifndef TILE__CHOL_DMMA_f64
#define TILE__CHOL_DMMA_f64(LY, groups, pn2) \
    (__CUDA_ARCH__ >= 900 && !(pn2) && (TILE__CHOL_LY_S_##LY || (groups) <= 4))
#endif
#else
#undef TILE__CHOL_DMMA_f64
#define TILE__CHOL_DMMA_f64(LY, groups, pn2) 0
#define TILE__CHOL_MMA_UPD_f64(LY, c, a, b) tile__chol_mma_nop((c), (a), (b))
#undef TILE__CHOL_DMMA_f32
#define TILE__CHOL_DMMA_f32(LY, groups, pn2) 0
#define TILE__CHOL_MMA_UPD2_f32(LY, c0, a0, b0, c1, a1, b1, v1) tile__chol_mma_nop((c0), (a0), (b0))
#endif
/* never taken (their TILE__CHOL_DMMA is never that form) */
#define TILE__CHOL_MMA_UPD_f32(LY, c, a, b) tile__chol_mma_nop((c), (a), (b))
#define TILE__CHOL_MMA_UPD2_f64(LY, c0, a0, b0, c1, a1, b1, v1) tile__chol_mma_nop((c0), (a0), (b0))
#if TILE_ON_DEVICE
#define TILE__CHOL_SYRK_f32(c, a, b) tile__chol_syrk_rows_f32((c), (a), (b), TILE__CHOL_LD_f32)
#define TILE__CHOL_SYRK_f64(c, a, b) tile__chol_syrk_rows_f64((c), (a), (b), TILE__CHOL_LD_f64)
#else
#define TILE__CHOL_SYRK_f32(c, a, b) tile16_sub_abt_lower_f32((c), (a), (a))
#define TILE__CHOL_SYRK_f64(c, a, b) tile16_sub_abt_lower_f64((c), (a), (a))
#endif


/* n = 17..32 (tile__chol_small_k): a11 -= a10 a10^T in the lower triangle,
 * B = a10's rows staged in the group's shared tile (row j at b + j * ldb)
 * and read back as broadcast 16-byte loads (the shuffled form: 256
 * shuffles a tile, 168 registers f64, two waves at batch 4096); f64 with an
 * empty asm with a memory clobber after each row, or the compiler hoists
 * all of B's loads */
#if TILE_ON_DEVICE
#define TILE__CHOL_SYRK_ROWS_DEF(sfx, T)                                                                        \
    TILE_API void tile__chol_syrk_rows_##sfx(tile16_##sfx *c, const tile16_##sfx *a, const T *b, int ldb) {      \
        const int row = tile16_lane();                                                                          \
        TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                             \
            T bj[16];                                                                                           \
            tile16__ld16_##sfx(bj, b + (size_t)j * (size_t)ldb);                                                \
            T s = c->r[0][j];                                                                                   \
            TILE__UNROLL for (int k = 0; k < 16; ++k) s -= a->r[0][k] * bj[k];                                  \
            if (row >= j) c->r[0][j] = s;                                                                       \
            asm volatile("" ::: "memory");                                                                      \
        }                                                                                                       \
    }
TILE__CHOL_SYRK_ROWS_DEF(f32, float)
TILE__CHOL_SYRK_ROWS_DEF(f64, double)
#endif

/* the strictly upper triangle of a factored diagonal tile set to zero before
 * its store (the result is L itself): selects on the lane's row, no extra
 * memory traffic */
#define TILE__CHOL_ZERO_UPPER_DEF(sfx, T)                                                                     \
    TILE_API void tile__chol_zero_upper_##sfx(tile16_##sfx *t) {                                            \
        TILE16__EACH_ROW(i) {                                                                               \
            const int row = TILE16__ROW(i);                                                                 \
            TILE__UNROLL for (int j = 1; j < 16; ++j) if (j > row) t->r[i][j] = (T)0;                       \
        }                                                                                                   \
    }
TILE__CHOL_ZERO_UPPER_DEF(f32, float)
TILE__CHOL_ZERO_UPPER_DEF(f64, double)
/* a diagonal tile (rows and columns r0 ...) stored as tile16_store does, or
 * with lo its lower triangle alone (the strictly upper one untouched) */
#define TILE__CHOL_ST16D_DEF(sfx, T)                                                                        \
    TILE_API void tile__chol_st16d_##sfx(T *a, int rows, int n, int r0, const tile16_##sfx *t, int lo) {    \
        if (!lo) {                                                                                          \
            tile16_store_##sfx(a, rows, n, r0, r0 + 16, r0, r0 + 16, t);                                    \
            return;                                                                                         \
        }                                                                                                   \
        TILE16__EACH_ROW(i) {                                                                               \
            const int row = TILE16__ROW(i), r = r0 + row;                                                   \
            if (r < rows)                                                                                   \
                TILE__UNROLL for (int k = 0; k < 16; ++k)                                                   \
                    if (k <= row && r0 + k < n) a[(size_t)r * (size_t)n + r0 + k] = t->r[i][k];             \
        }                                                                                                   \
    }
TILE__CHOL_ST16D_DEF(f32, float)
TILE__CHOL_ST16D_DEF(f64, double)

#if TILE_ON_DEVICE
/* 1 / d and 1 / sqrt(d) without the IEEE division and square root, whose
 * slow paths are subroutine calls in SASS: a call pins registers (f32 NP =
 * 128, C = 64 needed 134 registers with them, 112 without). MUFU
 * approximations refined by Newton steps (f32 one; f64 two cubic steps for
 * 1 / d, three Newton steps for the rsqrt from MUFU's 20 good bits, where
 * two already give 1.24 ulp: bench/results/2026-12-02-h200-chol-ltcols-
 * 3f5589a.txt): within an ulp or two of the IEEE results.
 * NaN stays NaN; d = +inf gives 0 (as 1 / inf), not the NaN of the step.
 * TILE__CHOL_RS below: the rsqrt on the device, 1 / sqrt on the CPU. */
TILE_API float tile__chol_rcp_f32(float d) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));
    r = fmaf(r, fmaf(-d, r, 1.0f), r);
    return isinf(d) ? 0.0f : r;
}
TILE_API float tile__chol_rsqrt_f32(float d) {
    float y;
    asm("rsqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(d)); /* not ftz: a subnormal pivot stays valid */
    y = fmaf(0.5f * y, fmaf(-d * y, y, 1.0f), y);
    return isinf(d) ? 0.0f : y;
}
TILE_API double tile__chol_rcp_f64(double d) {
    double r;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(d));
    double e = fma(-d, r, 1.0); /* r (1 + e + e^2): error e^3, twice */
    r = fma(r, fma(e, e, e), r);
    e = fma(-d, r, 1.0);
    r = fma(r, fma(e, e, e), r);
    return isinf(d) ? 0.0 : r;
}
TILE_API double tile__chol_rsqrt_f64(double d) {
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(d));
    y = fma(0.5 * y, fma(-d * y, y, 1.0), y);
    y = fma(0.5 * y, fma(-d * y, y, 1.0), y);
    y = fma(0.5 * y, fma(-d * y, y, 1.0), y);
    return isinf(d) ? 0.0 : y;
}
#endif
/* TILE__CHOL_XP (a diagnostic, 0 in every build but a measurement's): bit 0
 * skips the blocked kernels' copy-in, bit 1 their copy-out; the factor then
 * runs on whatever the workspace holds (the results are wrong) and is timed
 * as the steps alone, the bound that overlapping the copies could reach
 * (docs/cholesky-log.md, thirteenth session). Bit 2 leaves the f64 pivot's rsqrt
 * at MUFU's 20 bits, without its refinement: the results are off in their
 * low bits, and the time is what a pivot chain without those operations
 * would take (seventeenth session) */
#ifndef TILE__CHOL_XP
#define TILE__CHOL_XP 0
#endif
/* the pivot clamp of tile16_chol: eps > 0 clamps d <= eps (and NaN) to eps,
 * else a pivot not > 0 becomes NaN */
#define TILE__CHOL_CLAMP(T, dr) (eps > (T)0 ? ((dr) > eps ? (dr) : eps) : ((dr) > (T)0 ? (dr) : (T)NAN))
#define TILE__CHOL_SD_DR(d, r) ((r) == 0 ? (d) : (d) * (r))
#if TILE_ON_DEVICE
/* tile__chol_fs's own: the MUFU value and TILE__CHOL_FS_NEWTON_<type>
 * Newton steps, measured on 2^20 values (the ltcols file above): f32 0,
 * rsqrt.approx.f32 alone is within 2.08 ulp (1.24 with a step) and gives
 * +0 for +inf without a guard; f64 2, 1.24 ulp as with 3, or (h3, where a
 * kernel asks) one third-order step, 1.25 ulp (bench/results/2026-12-02-
 * h200-chol-halley-sweep.txt). Each dropped step shortens every column's
 * chain (f32 n = 64 75.5 -> 71.4 us) */
#ifndef TILE__CHOL_FS_NEWTON_f32
#define TILE__CHOL_FS_NEWTON_f32 0
#endif
#ifndef TILE__CHOL_FS_NEWTON_f64
#define TILE__CHOL_FS_NEWTON_f64 2
#endif
TILE_API float tile__chol_rsf_f32(float d, int h3) {
    float y;
    (void)h3;
    asm("rsqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(d));
    TILE__UNROLL for (int s = 0; s < TILE__CHOL_FS_NEWTON_f32; ++s) y = fmaf(0.5f * y, fmaf(-d * y, y, 1.0f), y);
    return TILE__CHOL_FS_NEWTON_f32 && isinf(d) ? 0.0f : y;
}
/* the f64 pivot with +inf as 0: the rsqrt's steps and l_jj's fma take it
 * (one compare, shared after inlining) instead of a select on their results */
TILE_API double tile__chol_inf0_f64(double d) { return isinf(d) ? 0.0 : d; }
TILE_API double tile__chol_rsf_f64(double d, int h3) {
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(d));
#if TILE__CHOL_XP & 4 /* a measurement's build: MUFU's 20 bits alone */
    (void)h3;
    return y;
#else
    /* +inf: MUFU's 0 through the steps as d 0 (0, not the NaN of inf 0); the
     * select runs beside MUFU, off the column's chain (after the steps it
     * was on it) */
    const double ds = TILE__CHOL_FS_NEWTON_f64 ? tile__chol_inf0_f64(d) : d;
    if (h3) { /* one third-order step: y (1 + e / 2 + 3 e^2 / 8), e = 1 - d y^2 */
        const double e = fma(ds * y, -y, 1.0);
        y = fma(y * e, fma(0.375, e, 0.5), y);
    } else
        TILE__UNROLL for (int s = 0; s < TILE__CHOL_FS_NEWTON_f64; ++s) y = fma(0.5 * y, fma(ds * y, -y, 1.0), y);
    return y;
#endif
}
#define TILE__CHOL_RS(sfx, d, h3) tile__chol_rsf_##sfx(d, h3)
/* l_jj = sqrt(d): f32 by MUFU (+inf stays +inf), f64 (and the CPU) as d r
 * (r is 0 for d = +inf only, and l_jj then +inf) */
TILE_API float tile__chol_sqa_f32(float d) {
    float y;
    asm("sqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(d));
    return y;
}
#define TILE__CHOL_SD_f32(d, r) tile__chol_sqa_f32(d)
/* d r without a select: ds (d, 0 for +inf, the rsqrt's guard) times r plus
 * d - ds (0, or +inf for d = +inf): one DADD beside the chain and one DFMA
 * instead of a multiply, a compare and two selects (f64 n = 128 486.4 ->
 * 476.9 us: bench/results/2026-12-02-h200-chol-sdf-b7fa7d2.txt) */
TILE_API double tile__chol_sdf_f64(double d, double r) {
    const double ds = tile__chol_inf0_f64(d);
    return fma(ds, r, d - ds);
}
#define TILE__CHOL_SD_f64(d, r) tile__chol_sdf_f64(d, r)
#define TILE__CHOL_SD(sfx, d, r) TILE__CHOL_SD_##sfx(d, r)
#else
#define TILE__CHOL_SD(sfx, d, r) TILE__CHOL_SD_DR(d, r)
TILE_API float tile__chol_rsh_f32(float d) { return 1.0f / sqrtf(d); }
TILE_API double tile__chol_rsh_f64(double d) { return 1.0 / sqrt(d); }
#define TILE__CHOL_RS(sfx, d, h3) ((void)(h3), tile__chol_rsh_##sfx(d))
#endif

/* dn <- the pivot j + 1 after step j: lane j + 1 forms it from its own row
 * and broadcasts it; the CPU's one thread has every row */
#if TILE_ON_DEVICE
#define TILE__CHOL_NEXT_PIVOT(dn, t, j, w, l) \
    (dn) = __shfl_sync(0xffffffffu, (t)->r[0][(j) + 1] - (l) * (l), (j) + 1, (w) ? 32 : 16)
/* the row a lane holds: of its half-warp's tile, or (wide) of the warp's:
 * lanes 16..31 then hold rows of other tiles than the factored one, which
 * they solve with lanes 0..15's columns */
#define TILE__CHOL_ROWW(i, w) ((w) ? (int)(threadIdx.x & 31u) : tile16_lane())
#define TILE__CHOL_GETWW(t, k, j, w) __shfl_sync(0xffffffffu, (t)->r[0][j], (k), (w) ? 32 : 16)
#else
#define TILE__CHOL_NEXT_PIVOT(dn, t, j, w, l) \
    (void)(l), (dn) = (t)->r[(j) + 1][(j) + 1] - (t)->r[(j) + 1][j] * (t)->r[(j) + 1][j]
#define TILE__CHOL_ROWW(i, w) (i)
#define TILE__CHOL_GETWW(t, k, j, w) ((t)->r[k][j])
#endif
/* step j's update of the rows by column j of L (l_kj, k > j) in
 * tile__chol_fs: by shuffles (ltm & 3 == 0), or through a scratch of 16 x 16
 * elements, 16-byte aligned, rows 16 apart (lt: any workspace tile of the
 * caller's that nobody else touches meanwhile), written as row j (lane i
 * its l_ij, where ltw) and read back as broadcast 16-byte loads. A shuffle
 * moves 4 bytes a lane (a double takes two) and the MIO pipe issues one
 * warp's a cycle: 120 of them a 16 x 16 factor bounded n <= 16 (f64 n = 16
 * 10.7 -> 9.6 us, n = 128's nb = 8 kernel 647 -> 589 with them written
 * instead). Where the loaded columns raised registers past a kernel's
 * blocks an SM, the shuffles stay (the kernels' TILE__CHOL_*_LT) */
#define TILE__CHOL_FS_UPD(t, p, solve, k, j, lkj)             \
    TILE16__EACH_ROW(i) {                                     \
        (t)->r[i][k] -= (t)->r[i][j] * (lkj);                 \
        if (solve) (p)->r[i][k] -= (p)->r[i][j] * (lkj);      \
    }
/* the scratch column's update: every chunk loaded, then the updates. For
 * f64 (TILE__CHOL_LTNUM_f64 1, the default) it is the else of an always
 * false branch that holds the chunk-by-chunk form. That changes no kernel's
 * instructions: the PTX of the kernels that shuffle their columns (the P
 * kernels) is the same instruction sequence either way. It changes the PTX's
 * register numbering, and with it ptxas (CUDA 13.0, sm_90) gives the f64
 * 64-thread kernel 96 registers instead of 102: a warp then takes 3072 of
 * a scheduler's 16 K registers instead of 3328, 5 warps a scheduler instead
 * of 4, 9 blocks an SM instead of 8 (ncu: "Block Limit Registers" 8), and f64
 * n = 64 runs 100.8 -> 95.2 us (H200, batch 4096, bench/results/
 * 2026-12-04-h200-chol-regs-sweep.txt). A choice by measurement, as the
 * chain forms: scripts/ptxas-check.sh prints the kernel's count */
#define TILE__CHOL_LTUPD0(sfx, t, p, solve, j, lc, lt)                                           \
    TILE__CHOL_LTROW(sfx, lc, lt, j, (j) + 1);                                                   \
    TILE__CHOL_LTFENCE();                                                                        \
    TILE__UNROLL for (int k = (j) + 1; k < 16; ++k) TILE__CHOL_FS_UPD(t, p, solve, k, j, lc[k])
#define TILE__CHOL_LTUPD1(sfx, t, p, solve, j, lc, lt)                                           \
    if (0) {                                                                                     \
        TILE__UNROLL for (int q = ((j) + 1) & -TILE__CHOL_VW_##sfx; q < 16; q += TILE__CHOL_VW_##sfx) { \
            tile__chol_vld_##sfx(lc + q, (lt) + 16 * (j) + q);                                   \
            TILE__CHOL_LTFENCE();                                                                \
            TILE__UNROLL for (int k = q; k < q + TILE__CHOL_VW_##sfx; ++k)                       \
                if (k > (j)) TILE__CHOL_FS_UPD(t, p, solve, k, j, lc[k])                         \
        }                                                                                        \
    } else {                                                                                     \
        TILE__CHOL_LTUPD0(sfx, t, p, solve, j, lc, lt)                                           \
    }
#ifndef TILE__CHOL_LTNUM_f64
#define TILE__CHOL_LTNUM_f64 1
#endif
#define TILE__CHOL_LTUPD_f32 TILE__CHOL_LTUPD0
#if TILE__CHOL_LTNUM_f64
#define TILE__CHOL_LTUPD_f64 TILE__CHOL_LTUPD1
#else
#define TILE__CHOL_LTUPD_f64 TILE__CHOL_LTUPD0
#endif
#ifndef TILE__CHOL_LTFENCE
#define TILE__CHOL_LTFENCE() asm volatile("" ::: "memory")
#endif
#if TILE_ON_DEVICE
/* lc[c] <- row j of the scratch lt for c >= c0 (whole 16-byte chunks: a
 * few below c0 too) */
#define TILE__CHOL_LTROW(sfx, lc, lt, j, c0)                                                     \
    TILE__UNROLL for (int q = (c0) & -TILE__CHOL_VW_##sfx; q < 16; q += TILE__CHOL_VW_##sfx)     \
        tile__chol_vld_##sfx((lc) + q, (lt) + 16 * (j) + q)
#define TILE__CHOL_FS_COLJ(sfx, T, t, p, solve, j, rj, ltm, lt, ltw)                             \
    if ((ltm) & 3) { /* row 15 too: ltm 2 puts 1 / l_jj on the diagonal, for tile__chol_slt */ \
        T lc[16];                                                                                \
        if (ltw) (lt)[16 * (j) + tile16_lane()] = ((ltm) & 3) == 2 && tile16_lane() == (j) ? (rj) : (t)->r[0][j]; \
        if ((j) + 1 < 16) __syncwarp();                                                          \
        TILE__CHOL_LTUPD_##sfx(sfx, t, p, solve, j, lc, lt)                                      \
    } else                                                                                       \
        TILE__UNROLL for (int k = (j) + 1; k < 16; ++k) {                                        \
            const T lkj = TILE__CHOL_GETWW(t, k, j, (ltm) & 4);                                  \
            TILE__CHOL_FS_UPD(t, p, solve, k, j, lkj)                                            \
        }
#define TILE__CHOL_LTSYNC(ltm, lt, ltw) \
    do {                                \
        if ((ltm) & 3) __syncwarp();    \
    } while (0)
#else
#define TILE__CHOL_FS_COLJ(sfx, T, t, p, solve, j, rj, ltm, lt, ltw) \
    TILE__UNROLL for (int k = (j) + 1; k < 16; ++k) TILE__CHOL_FS_UPD(t, p, solve, k, j, (t)->r[k][j])
#define TILE__CHOL_LTSYNC(ltm, lt, ltw) (void)(ltm), (void)(lt), (void)(ltw)
#endif
/* The library kernels' 16 x 16 factor (internal: whole warps only; the
 * public tile16_chol keeps its exact IEEE square root and division and
 * leaves the strictly upper triangle alone). t <- L (lower triangle, the
 * non-SPD contract of tile16_chol), and, with solve (a constant after
 * inlining), p <- p L^-T in the same pass: the solve's right-looking step j
 * (x_j = p_j / l_jj, p_c -= x_j l_cj for c > j) needs column j of L, the
 * values the factor's step j moves anyway, so the panel solve costs its
 * FMAs and nothing else. Per step one reciprocal square root r (MUFU,
 * TILE__CHOL_RS) scales the column (l_ij = a_ij r; l_jj = sqrt(d), +inf
 * stays +inf), and the updates run unguarded: rows above a column write
 * their strictly upper triangle, never read (garbage there; the kernels
 * zero it or store it as L's zeros). ltm (constant): bits 0..1 the columns'
 * path (0 shuffles, 1 the scratch lt, 2 the scratch with 1 / l_jj on its
 * diagonal, for tile__chol_slt), bit 2 wide: lanes 16..31 hold rows of
 * other tiles, solved with lanes 0..15's columns (l_jj only on warp lane j,
 * shuffles over the warp), bits 3..5 the kernel's chain forms
 * (TILE__CHOL_FSX_*). ltw: this lane writes the scratch. */
/* The chain forms, a kernel's choice: 8, the pivot clamp as one compare and
 * one select on the column's chain (its threshold and replacement hoisted:
 * live through the factor instead of eps), 16, the next pivot from the
 * lane's l_ij before the diagonal's select (one select off the chain), 32
 * (f64), the rsqrt by one third-order step instead of two Newton steps (two
 * dependent operations fewer a column). Each helps where the registers allow
 * it and costs elsewhere (H200, batch 4096, us, one device session; bench/
 * results/2026-12-02-h200-chol-fsx-sweep.txt): f64 n = 64 / 92 / 128 134.9 /
 * 299.0 / 530.3 -> 123.2 / 261.5 / 487.1 (P kernels 24: with 32 they spilled,
 * or at 128 registers took 126.3 / 266.3; S 56: 500.3 with 24; since the
 * fixed-place copies, 106 registers, P 56 too: n = 64 / 92 116.1 / 248.8 ->
 * 114.3 / 247.5, bench/results/2026-12-03-h200-chol-copies-sweep.txt; the
 * public block, pn2, keeps 24: with 56 it spilled 8 bytes); f32 nb 5..8
 * 16 alone, n = 92 / 128 134.7 / 253.5 -> 130.6 / 250.1 (with 8 the nb = 8
 * kernel took 259.9); f32 nb <= 4 none: with 16 its kernel went 80 -> 72
 * registers and n = 64 68.0 -> 69.6, with both it spilled; n <= 32: times
 * within the small kernels' noise (+-3 %), so by instructions and registers
 * (f64 n <= 16 without 32: it spilled) */
#ifndef TILE__CHOL_FSX_SMALL_f32
#define TILE__CHOL_FSX_SMALL_f32 24
#endif
#ifndef TILE__CHOL_FSX_S16_f32
#define TILE__CHOL_FSX_S16_f32 24
#endif
#ifndef TILE__CHOL_FSX_S16_f64
#define TILE__CHOL_FSX_S16_f64 16
#endif
#ifndef TILE__CHOL_FSX_SMALL_f64
#define TILE__CHOL_FSX_SMALL_f64 48
#endif
#ifndef TILE__CHOL_FSX_BLK_f32
#define TILE__CHOL_FSX_BLK_f32(LY, groups, pn2) ((groups) > 4 ? 16 : 0)
#endif
#ifndef TILE__CHOL_FSX_BLK_f64
#define TILE__CHOL_FSX_BLK_f64(LY, groups, pn2) ((pn2) ? 24 : 56)
#endif
#define TILE__CHOL_FS_DEF(sfx, T)                                                                 \
    TILE_API int tile__chol_fs_##sfx(tile16_##sfx *t, tile16_##sfx *p, T eps, int solve, int ltm, T *lt, int ltw) { \
        int info = 0;                                                                             \
        /* ltm & 8: TILE__CHOL_CLAMP as one compare and one select a column */                  \
        const T thr = eps > (T)0 ? eps : (T)0, rep = eps > (T)0 ? eps : (T)NAN;                   \
        T dn = TILE__CHOL_GETWW(t, 0, 0, ltm & 4);                                                \
        TILE__CHOL_LTSYNC(ltm, lt, ltw); /* earlier reads of the scratch (a tile load) done */              \
        TILE__UNROLL for (int j = 0; j < 16; ++j) {                                               \
            const T d0 = dn;                                                                      \
            if (!(d0 > (T)0) && info == 0) info = j + 1;                                          \
            const T d = (ltm & 8) ? (d0 > thr ? d0 : rep) : TILE__CHOL_CLAMP(T, d0);             \
            const T r = TILE__CHOL_RS(sfx, d, ltm & 32);                                          \
            const T sd = TILE__CHOL_SD(sfx, d, r); /* l_jj */                                     \
            T lr = (T)0; /* the device's lane: its l_ij before the diagonal's select */            \
            TILE16__EACH_ROW(i) {                                                                 \
                lr = t->r[i][j] * r;                                                              \
                t->r[i][j] = TILE__CHOL_ROWW(i, ltm & 4) == j ? sd : lr;                          \
                if (solve) p->r[i][j] *= r;                                                       \
            }                                                                                     \
            /* the next pivot first, from the registers of the lane that holds                    \
             * row j + 1 (the same FMA as its update below): off the chain of                     \
             * the column's exchange */                                                           \
            if (j + 1 < 16) TILE__CHOL_NEXT_PIVOT(dn, t, j, ltm & 4, (ltm & 16) ? lr : t->r[0][j]); \
            TILE__CHOL_FS_COLJ(sfx, T, t, p, solve, j, r, ltm, lt, ltw)                           \
        }                                                                                         \
        TILE__CHOL_LTSYNC(ltm, lt, ltw); /* the scratch's reads done: the caller may write it */           \
        return info;                                                                              \
    }
TILE__CHOL_FS_DEF(f32, float)
TILE__CHOL_FS_DEF(f64, double)

/* the panel of the blocked kernels and tile__chol_small_k: info <- chol(*t),
 * *p <- P L^-T, P loaded by the statement given last; ltm, lt, ltw: the
 * factor's column path (tile__chol_fs). PN: 1 in one pass (the load
 * first); 2 factors first and loads p after, then solves with its own
 * shuffles (the one pass keeps both tiles live through the factor: f64 148
 * registers against 112, f32 on sm_80 spilled); 3 (device) as 2, the solve
 * from the factor's scratch; A: 1 on sm_90, 2 elsewhere */
#define TILE__CHOL_PANEL_1(sfx, info, t, p, eps, ltm, lt, ltw, ...)        \
    do {                                                                   \
        __VA_ARGS__; /* loads *p */                                        \
        (info) = tile__chol_fs_##sfx((t), (p), (eps), 1, (ltm), (lt), (ltw)); \
    } while (0)
#define TILE__CHOL_PANEL_2(sfx, info, t, p, eps, ltm, lt, ltw, ...)        \
    do {                                                                   \
        (info) = tile__chol_fs_##sfx((t), (t), (eps), 0, (ltm), (lt), (ltw)); \
        __VA_ARGS__;                                                       \
        tile16__w_solve_xlt_##sfx((t), (p));                               \
    } while (0)
/* 3: as 2, the solve reading L^T's rows from the factor's scratch lt (its
 * diagonal holds 1 / l_jj) as broadcast loads instead of shuffling L */
#if TILE_ON_DEVICE
#define TILE__CHOL_SLT_DEF(sfx, T)                                                                 \
    TILE_API void tile__chol_slt_##sfx(tile16_##sfx *p, const T *lt) {                             \
        TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                \
            T lc[16];                                                                              \
            TILE__CHOL_LTROW(sfx, lc, lt, j, j);                                                   \
            p->r[0][j] *= lc[j];                                                                   \
            TILE__UNROLL for (int k = j + 1; k < 16; ++k) p->r[0][k] -= p->r[0][j] * lc[k];        \
            TILE__CHOL_LTFENCE();                                                                  \
        }                                                                                          \
    }
TILE__CHOL_SLT_DEF(f32, float)
TILE__CHOL_SLT_DEF(f64, double)
#define TILE__CHOL_PANEL_3(sfx, info, t, p, eps, ltm, lt, ltw, ...)        \
    do {                                                                   \
        (info) = tile__chol_fs_##sfx((t), (t), (eps), 0, 2 | ((ltm) & 24), (lt), (ltw)); \
        __VA_ARGS__;                                                       \
        tile__chol_slt_##sfx((p), (lt));                                   \
        __syncwarp(); /* the scratch's reads done */                       \
    } while (0)
#else
#define TILE__CHOL_PANEL_3(...) TILE__CHOL_PANEL_2(__VA_ARGS__)
#endif
#define TILE__CHOL_PANEL(PN, ...) TILE__CHOL_PANEL_(PN, __VA_ARGS__)
#define TILE__CHOL_PANEL_(PN, ...) TILE__CHOL_PANEL_##PN(__VA_ARGS__)
/* is panel form PN one pass on this target? */
#define TILE__CHOL_PN1_1 1
#define TILE__CHOL_PN1_2 0
/* is it form 2 by choice (the public f64 block: some forms spill it)? */
#define TILE__CHOL_PN2_1 0
#define TILE__CHOL_PN2_2 1
#define TILE__CHOL_PN2_A 0
#if TILE_ON_DEVICE && __CUDA_ARCH__ < 900
#define TILE__CHOL_PANEL_A(...) TILE__CHOL_PANEL_2(__VA_ARGS__)
#define TILE__CHOL_PN1_A 0
#else
#define TILE__CHOL_PANEL_A(...) TILE__CHOL_PANEL_1(__VA_ARGS__)
#define TILE__CHOL_PN1_A 1
#endif
/* the blocked kernels' one-pass panel three tiles a warp (1) or one a
 * half-warp (0), by layout LY and the block's groups (H200, batch 4096,
 * bench/results/2026-12-02-h200-chol-wide-*.txt: f32 on 128 threads n = 92
 * 147.1 -> 140.3 us, 128 290.5 -> 278.4; slower on 64 threads, f32 n = 64
 * 68.4 -> 72.2, f64 n = 64 / 92 138.8 / 318.8 -> 142.0 / 326.3; f64 n =
 * 128 a tie). With the 2 x 8 update (TILE__CHOL_UPD_TASK), the scratch
 * columns and the wide panel, f32 P on 128 threads takes 72 registers (7
 * blocks an SM, 6 without it) since the panel's tile counts come from ntl
 * (nb - k - 1), not k + 1 (which ptxas spilled, 4 bytes, at any register
 * count): n = 92 139.1 -> 133.7 us (bench/results/2026-12-02-h200-chol-
 * wide72-*.txt); on 64 threads still slower (n = 64 68.0 -> 70.1), f64 too
 * (n = 64 / 92 135.0 / 301.4 -> 142.4 / 320.2) */
/* the one-pass panel a tile a warp (w1, in the steps' loop) at the steps
 * with at most this many panel tiles, if no more than the block's warps
 * (-1: never), by layout, groups and the kernel's largest tile count nbm.
 * A lane then updates one row a column instead of two (L_kk's and the
 * tile's). H200, batch 4096, three rounds in one process (bench/results/
 * 2026-12-04-h200-chol-w1-sweep.txt): f64 nb = 8 from ntl 1 on, n = 128
 * 392.0-392.2 -> 389.2-389.4 us; every other form slower: f64 nb = 8 from
 * ntl 4 (or 0) 392.0-392.2 (391.2-391.3), f64 nb 5...7 (n = 92) 212.0-212.6
 * -> 229.0-238.3 us whatever the count, f32 n = 64 / 92 / 128 +9 / +8 / +2 %
 * (its P kernel 72 -> 80 registers, 6 blocks an SM instead of 7). Neither
 * the pivot chain (TILE__CHOL_XP 4) nor the FMAs a lane bound the late
 * panels */
#ifndef TILE__CHOL_W1_f32
#define TILE__CHOL_W1_f32(LY, groups, nbm) (-1)
#endif
#ifndef TILE__CHOL_W1_f64
#define TILE__CHOL_W1_f64(LY, groups, nbm) ((groups) > 4 && (nbm) == 8 ? 1 : -1)
#endif
#ifndef TILE__CHOL_WIDE_f32
#define TILE__CHOL_WIDE_f32(LY, groups) ((groups) > 4)
#endif
#ifndef TILE__CHOL_WIDE_f64
#define TILE__CHOL_WIDE_f64(LY, groups) 0
#endif
/* the blocked kernels' one-pass panel with its columns through shared
 * memory (1) or by shuffles (0), by layout (P: by the block's groups). The
 * loaded columns cost registers: on where that kept the kernel's blocks an
 * SM (f32 P 80 on 64 and 128 threads; f64 S 144 then, 152 with the 2 x 8
 * update, 3 blocks by shared memory: n = 128 647 -> 589 us), off where it
 * did not (f32 S 200 against 80, f64 P 140 against 108: n = 64 / 92
 * slower) */
#ifndef TILE__CHOL_BLKP_LT_f32
#define TILE__CHOL_BLKP_LT_f32(groups) 1
#endif
#ifndef TILE__CHOL_BLKP_LT_f64
#define TILE__CHOL_BLKP_LT_f64(groups) 0
#endif
#ifndef TILE__CHOL_BLKS_LT_f32
#define TILE__CHOL_BLKS_LT_f32 0
#endif
#ifndef TILE__CHOL_BLKS_LT_f64
#define TILE__CHOL_BLKS_LT_f64 1
#endif
/* tile__chol_small_k's factors with their columns through the group's shared
 * tiles (1) or by shuffles (0) */
#ifndef TILE__CHOL_SMALL_LT_f32
#define TILE__CHOL_SMALL_LT_f32 1
#endif
#ifndef TILE__CHOL_SMALL_LT_f64
#define TILE__CHOL_SMALL_LT_f64 1
#endif
/* its A00 factor and A10 solve: PN (above); f64 n = 32 (H200, batch 4096,
 * ...-ltcols-3f5589a.txt) 27.9 us in two passes, 27.4 in one (144 registers:
 * not one wave), 25.8 with the solve from the scratch (3, 114 registers) */
#define TILE__CHOL_SMALLPN_f32 1
#ifndef TILE__CHOL_SMALLPN_f64
#if TILE_ON_DEVICE && __CUDA_ARCH__ < 900
#define TILE__CHOL_SMALLPN_f64 2 /* 3 spilled on sm_80 */
#else
#define TILE__CHOL_SMALLPN_f64 3
#endif
#endif
/* the blocked solves' two halves, named FWD and BWD, their shuffling tile16
 * operations from family P (tile16_: any block; tile16__w_: whole warps) */
#define TILE__CHOL_FB_DEF(FWD, BWD, P, sfx, T) \
TILE_API void FWD(const T *l, T *b, int n, int nrhs, int c0) {                                                              \
    const int ok = l && b && n > 0 && n <= TILE_CHOL_MAX_N && nrhs > 0;                                                     \
    const int rows = ok ? n : 0, nb = (tile16__warp_max(ok ? n : 1) + 15) / 16;                                             \
    const int c1 = c0 + 16;                                                                                                 \
    TILE__CHOL_NOUNROLL for (int i = 0; i < nb; ++i) {                                                                      \
        tile16_##sfx r = tile16_zeros_##sfx();                                                                              \
        tile16_load_##sfx(&r, b, rows, nrhs, 16 * i, 16 * i + 16, c0, c1);                                                  \
        TILE__CHOL_NOUNROLL for (int k = 0; k < i; ++k) {                                                                   \
            tile16_##sfx lt = tile16_zeros_##sfx(), y = tile16_zeros_##sfx();                                               \
            tile16_load_##sfx(&lt, l, rows, n, 16 * i, 16 * i + 16, 16 * k, 16 * k + 16);                                   \
            tile16_load_##sfx(&y, b, rows, nrhs, 16 * k, 16 * k + 16, c0, c1);                                              \
            P##sub_ab_##sfx(&r, &lt, &y);                                                                                   \
        }                                                                                                                   \
        tile16_##sfx d = tile16_eye_##sfx();                                                                                \
        tile16_load_##sfx(&d, l, rows, n, 16 * i, 16 * i + 16, 16 * i, 16 * i + 16);                                        \
        P##solve_lx_##sfx(&d, &r);                                                                                          \
        tile16_store_##sfx(b, rows, nrhs, 16 * i, 16 * i + 16, c0, c1, &r);                                                 \
        tile16__sync();                                                                                                     \
    }                                                                                                                       \
}                                                                                                                           \
TILE_API void BWD(const T *l, T *b, int n, int nrhs, int c0) {                                                              \
    const int ok = l && b && n > 0 && n <= TILE_CHOL_MAX_N && nrhs > 0;                                                     \
    const int rows = ok ? n : 0, nb = (tile16__warp_max(ok ? n : 1) + 15) / 16;                                             \
    const int c1 = c0 + 16;                                                                                                 \
    TILE__CHOL_NOUNROLL for (int i = nb - 1; i >= 0; --i) {                                                                 \
        tile16_##sfx r = tile16_zeros_##sfx();                                                                              \
        tile16_load_##sfx(&r, b, rows, nrhs, 16 * i, 16 * i + 16, c0, c1);                                                  \
        TILE__CHOL_NOUNROLL for (int k = i + 1; k < nb; ++k) {                                                              \
            tile16_##sfx lt = tile16_zeros_##sfx(), x = tile16_zeros_##sfx();                                               \
            tile16_load_t_ld_##sfx(&lt, l, n, rows, n, 16 * k, 16 * k + 16, 16 * i, 16 * i + 16);                           \
            tile16_load_##sfx(&x, b, rows, nrhs, 16 * k, 16 * k + 16, c0, c1);                                              \
            P##sub_ab_##sfx(&r, &lt, &x);                                                                                   \
        }                                                                                                                   \
        tile16_##sfx u = tile16_eye_##sfx();                                                                                \
        tile16_load_t_ld_##sfx(&u, l, n, rows, n, 16 * i, 16 * i + 16, 16 * i, 16 * i + 16);                                \
        P##solve_ux_##sfx(&u, &r);                                                                                          \
        tile16_store_##sfx(b, rows, nrhs, 16 * i, 16 * i + 16, c0, c1, &r);                                                 \
        tile16__sync();                                                                                                     \
    }                                                                                                                       \
}

/* trailing update task tk of an m x m lower triangle of tiles -> (i, j):
 * TILE__CHOL_UPD_COLS_<type> 0 row by row (a warp's two groups share L_ik), 1
 * column by column (they share L_jk, the broadcast operand: the same shared
 * wavefronts, ncu at f364702, yet 303.3 / 307.1 against 309.5 / 312.0 us at
 * f32 n = 128 in two runs, the rest equal: bench/results/2026-11-29-h200-
 * chol-copies-c9a7435.txt, ...-ncu-f364702-details.txt) */
#ifndef TILE__CHOL_UPD_COLS_f32
#define TILE__CHOL_UPD_COLS_f32 1
#endif
#ifndef TILE__CHOL_UPD_COLS_f64
#define TILE__CHOL_UPD_COLS_f64 0 /* f64 the same speed, and on sm_80 columns spilled */
#endif
/* task tk of a step's m (m + 1) / 2 -> tile (i, j) of the trailing triangle
 * in row order, closed form (TILE__CHOL_UTRI_<type> 1): tk = i (i + 1) / 2 +
 * j, j <= i, i = floor((sqrt(8 tk + 1) - 1) / 2); tk <= 27, so 8 tk + 1 <=
 * 217 is an odd square or >= 0.03 from one in the root, and 0.01 absorbs an
 * approximate root's error (sqrt.approx.ftz: tile__chol_sqa_f32's form
 * without ftz took 8 more sm_90 instructions). The loops walk the rows or
 * columns instead (up to m steps a task). H200, batch 4096, against the loop
 * in the same process (bench/results/2026-12-02-h200-chol-utri-sweep.txt):
 * f64 below. f32 walks columns (TILE__CHOL_UPD_COLS_f32): the same form
 * counted from the last task was slower there (n = 128 254.7 -> 263.8 us, S
 * kernel 72 -> 80 registers) */
#ifndef TILE__CHOL_UTRI_f32
#define TILE__CHOL_UTRI_f32 0
#endif
#ifndef TILE__CHOL_UTRI_f64
#if TILE_ON_DEVICE && __CUDA_ARCH__ < 900
#define TILE__CHOL_UTRI_f64 0 /* sm_80: the S kernel spilled 12 bytes */
#else
#define TILE__CHOL_UTRI_f64 1 /* n = 64 / 92 / 128 135.3 / 302.3 / 537.6 -> 134.4 / 298.0 / 529.7 us */
#endif
#endif
#if TILE_ON_DEVICE
TILE_API float tile__chol_tri_root(float x) {
    float y;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}
#else
#define tile__chol_tri_root(x) sqrtf(x)
#endif
#define TILE__CHOL_UTASK(sfx, m, tk, i, j)                                           \
    do {                                                                             \
        if (TILE__CHOL_UTRI_##sfx && !TILE__CHOL_UPD_COLS_##sfx) {                   \
            (i) = (int)((tile__chol_tri_root((float)(8 * (tk) + 1)) - 1.0f) * 0.5f + 0.01f); \
            (j) = (tk) - (i) * ((i) + 1) / 2;                                        \
        } else if (TILE__CHOL_UPD_COLS_##sfx) {                                      \
            int s_ = 0;                                                              \
            (j) = 0;                                                                 \
            while (s_ + (m) - (j) <= (tk)) s_ += (m) - (j)++;                        \
            (i) = (j) + (tk) - s_;                                                   \
        } else {                                                                     \
            (i) = 0;                                                                 \
            while (((i) + 1) * ((i) + 2) / 2 <= (tk)) ++(i);                         \
            (j) = (tk) - (i) * ((i) + 1) / 2;                                        \
        }                                                                            \
    } while (0)
/* the blocked copies: chunks a tile row (TILE__CHOL_CPT), and the threads
 * that run them (TILE__CHOL_EACH_V: the thread itself on the device, once; on
 * the CPU, the one thread runs the 128 virtual ones in turn) */
#define TILE__CHOL_CPT_f32 4
#define TILE__CHOL_CPT_f64 8
#if TILE_ON_DEVICE
#define TILE__CHOL_EACH_V(v, tid) for (unsigned v = (unsigned)(tid), v##_once = 1; v##_once; v##_once = 0)
#else
#define TILE__CHOL_EACH_V(v, tid) for (unsigned v = 0 * (unsigned)(tid); v < 128u; ++v)
#endif
#define TILE__CHOL_TILE(LY, sfx, T, ws, i, j) ((T *)(ws) + (size_t)((i) * ((i) + 1) / 2 + (j)) * TILE__CHOL_TT_##LY##_##sfx)
/* the copy-in in two cp.async groups, tile column 0 first (1) or one (0),
 * by layout and groups: f32 on 64 threads two (n = 64 67.6 us, 69.4 with
 * one and the fixed places), on 128 one (n = 92 / 128 128.4 /
 * 243.1 -> 125.7 / 240.1 with the fixed-place copy-in: bench/results/
 * 2026-12-03-h200-chol-copies-sweep.txt, run D); f64 two in the S kernels
 * on 128 threads (nb 5..8: n = 92 / 128 229.7 / 409.6 -> 225.3 / 406.5,
 * bench/results/2026-12-04-h200-chol-pipe-sweep.txt, run 7; once spilled
 * at nb = 8, no longer since the fixed-place copies), one in P (a tie) */
#ifndef TILE__CHOL_CPSPLIT_f32
#define TILE__CHOL_CPSPLIT_f32(LY, groups) ((groups) <= 4)
#endif
#define TILE__CHOL_CPS64_S(groups) ((groups) > 4)
#define TILE__CHOL_CPS64_P(groups) 0
#ifndef TILE__CHOL_CPSPLIT_f64
#define TILE__CHOL_CPSPLIT_f64(LY, groups) TILE__CHOL_CPS64_##LY(groups)
#endif
/* the blocked copy-in of a 16-byte aligned matrix with n % VW == 0: chunks
 * at fixed places (1), or the flat loop (0), by layout, groups and pn2 (the
 * panel in form 2 by choice: the public f64 block). With the first f32 on 64
 * threads spilled 12 bytes (ptxas took 72 registers, or 80 with 16 bytes),
 * and chol_test's kernel of the public f64 block's bad arguments 4 */
#ifndef TILE__CHOL_CPV_f32
#define TILE__CHOL_CPV_f32(LY, groups, pn2) ((groups) > 4)
#endif
#ifndef TILE__CHOL_CPV_f64
#define TILE__CHOL_CPV_f64(LY, groups, pn2) (!(pn2))
#endif
/* the copy-out of an aligned matrix (n % VW == 0) unrolled, row blocks up
 * to nbm and a row's chunks (1), or the element loop of the other matrices
 * (0), by groups and nbm: 0 for f32 on 64 threads with nbm 8 (the public
 * block, where either unrolled form made ptxas spill 12 bytes in chol_test's
 * kernel of bad arguments) and for f64 on 128 threads on sm_80 */
#ifndef TILE__CHOL_CPUO_f32
#define TILE__CHOL_CPUO_f32(groups, nbm) ((groups) > 4 || (nbm) <= 4)
#endif
#ifndef TILE__CHOL_CPUO_f64
#if TILE_ON_DEVICE && __CUDA_ARCH__ < 900 /* sm_80: the 128-thread kernels spilled 8 / 16 bytes unrolled */
#define TILE__CHOL_CPUO_f64(groups, nbm) ((groups) <= 4)
#else
#define TILE__CHOL_CPUO_f64(groups, nbm) 1
#endif
#endif
/* the fixed-place copy-in's row blocks unrolled up to the kernel's largest
 * tile count nbm (1: constant tile offsets and chunk bounds) or a loop (0), by
 * layout and groups: f32 (its fixed-place kernels are the 128-thread ones)
 * n = 92 / 128 121.6 / 232.0 -> 119.8 / 230.7 us with the copy-out's unroll;
 * f64 on 64 threads (nb <= 4) 111.8 -> 108.9; f64 at nb 5 ... 8 slower
 * (236.7 -> 251.8 / 429.0 -> 440.6: bench/results/2026-12-03-h200-chol-
 * unroll-sweep.txt) */
#ifndef TILE__CHOL_CPUI_f32
#define TILE__CHOL_CPUI_f32(LY, groups) 1
#endif
#ifndef TILE__CHOL_CPUI_f64
#define TILE__CHOL_CPUI_f64(LY, groups) ((groups) <= 4)
#endif
#define TILE__CHOL_PUBPN_f32 A
#define TILE__CHOL_PUBPN_f64 2
/* the copy-out of row block ti where every chunk is inside its row (n % VW
 * == 0, a aligned): a row's chunks unrolled, constant offsets from one shared
 * and one global pointer; a helper of TILE__CHOL_BLOCK_DEF_ (its locals) */
#define TILE__CHOL_CPOUT_RB(LY, sfx, T, ti, part)                                                                           \
    for (unsigned i = v / 8; i < 16 && 16 * ti + i < un; i += rp) {                                                         \
        const unsigned r = 16 * ti + i;                                                                                     \
        const T *s0 = TILE__CHOL_TILE(LY, sfx, T, ws, ti, 0) + TILE__CHOL_OFF_##LY(sfx, i, cq) +                            \
                      ts * TILE__CHOL_TT_##LY##_##sfx;                                                                      \
        T *d0 = a + (r * un + cq + 16 * ts);                                                                                \
        TILE__UNROLL for (unsigned u = 0; u < TILE_CHOL_MAX_N / 16 / st; ++u) {                                             \
            const unsigned tj = ts + st * u;                                                                                \
            T x[TILE__CHOL_VW_##sfx];                                                                                       \
            /* part (TILE__CHOL_LCO): 0 every tile, 1 all but the last diagonal                                             \
             * tile, 2 that tile alone */                                                                                   \
            if ((part) == 1 && tj == ti && ti + 1 == unb) {                                                                 \
            } else if ((part) == 2 && (tj != ti || ti + 1 != unb)) {                                                        \
            } else if (tj < ti) {                                                                                           \
                tile__chol_vld_##sfx(x, s0 + st * u * TILE__CHOL_TT_##LY##_##sfx);                                          \
                tile__chol_vst_##sfx(d0 + 16 * st * u, x);                                                                \
            } else if (lo && (tj > ti || cq > i)) { /* the lower calls: the upper triangle untouched */                     \
            } else if (lo) { /* element stores (tile__chol_vstlo here: the f64 blk128 kernel spilled 12 bytes) */           \
                tile__chol_vld_##sfx(x, s0 + st * u * TILE__CHOL_TT_##LY##_##sfx);                                          \
                TILE__UNROLL for (unsigned q = 0; q < TILE__CHOL_VW_##sfx; ++q)                                             \
                    if (cq + q <= i) d0[16 * st * u + q] = x[q];                                                            \
            } else if (16 * tj + cq < un) {                                                                                 \
                if (tj == ti) {                                                                                             \
                    tile__chol_vld_##sfx(x, s0 + st * u * TILE__CHOL_TT_##LY##_##sfx);                                      \
                    TILE__UNROLL for (unsigned q = 0; q < TILE__CHOL_VW_##sfx; ++q)                                         \
                        if (cq + q > i) x[q] = (T)0;                                                                        \
                } else                                                                                                      \
                    TILE__UNROLL for (unsigned q = 0; q < TILE__CHOL_VW_##sfx; ++q) x[q] = (T)0;                            \
                tile__chol_vst_##sfx(d0 + 16 * st * u, x);                                                                \
            }                                                                                                               \
        }                                                                                                                   \
    }

/* the copy-out of tile columns clo ... chi - 1 (rows 16 tj ... n - 1 of
 * each; the diagonal tile's strictly upper part as zeros) by nt threads, v
 * of them: chunk v % (16 / VW) of a tile row, rows v / (16 / VW) apart by
 * nt / (16 / VW) (a warp 4 f64 / 8 f32 rows of a column: whole sectors).
 * A helper of TILE__CHOL_BLOCK_DEF_ (its locals); n % VW == 0, a aligned */
#define TILE__CHOL_CPOUT_COLS(LY, sfx, T, clo, chi, v, nt)                                                                  \
    for (unsigned tj = (clo); tj < (chi); ++tj) {                                                                           \
        const unsigned cpr = 16 / TILE__CHOL_VW_##sfx, q = (v) % cpr * TILE__CHOL_VW_##sfx, c = 16 * tj + q;                \
        if (c < (unsigned)nn)                                                                                               \
            for (unsigned r = 16 * tj + (v) / cpr; r < (unsigned)nn; r += (nt) / cpr) {                                     \
                const unsigned ti = r >> 4, i = r & 15u;                                                                    \
                T x[TILE__CHOL_VW_##sfx];                                                                                   \
                tile__chol_vld_##sfx(x, TILE__CHOL_TILE(LY, sfx, T, ws, ti, tj) + TILE__CHOL_OFF_##LY(sfx, i, q));          \
                if (ti == tj) TILE__UNROLL for (unsigned e = 0; e < TILE__CHOL_VW_##sfx; ++e) if (q + e > i) x[e] = (T)0;   \
                tile__chol_vstlo_##sfx(a + ((size_t)r * (unsigned)nn + c), x, (int)r, (int)c, lo);                          \
            }                                                                                                               \
    }
/* the zeros right of the diagonal tiles (tile columns past a row's block), by
 * nt threads, v of them, in the places of TILE__CHOL_CPOUT_COLS */
#define TILE__CHOL_CPOUT_ZEROS(sfx, T, v, nt)                                                                               \
    {                                                                                                                       \
        const unsigned cpr = 16 / TILE__CHOL_VW_##sfx, q = (v) % cpr * TILE__CHOL_VW_##sfx;                                 \
        const T z[TILE__CHOL_VW_##sfx] = {(T)0};                                                                            \
        for (unsigned r = (v) / cpr; r < (unsigned)nn; r += (nt) / cpr)                                                     \
            for (unsigned c = 16 * ((r >> 4) + 1) + q; c < (unsigned)nn; c += 16)                                          \
                tile__chol_vst_##sfx(a + ((size_t)r * (unsigned)nn + c), z);                                                \
    }

/* the fixed-place copy-in of row block ti (rows 16 ti ... of the thread), its
 * chunks up to tile column t1: a helper of TILE__CHOL_BLOCK_DEF_ (its locals) */
#define TILE__CHOL_CPIN_RB(LY, sfx, T, ti, t1)                                                                              \
    TILE__CHOL_NOUNROLL for (unsigned i = v / 8; i < 16; i += rp) {                                                         \
        const unsigned r = 16 * ti + i;                                                                                     \
        T *dst = TILE__CHOL_TILE(LY, sfx, T, ws, ti, tj0) + TILE__CHOL_OFF_##LY(sfx, i, cq);                                \
        if (r < (unsigned)nn) {                                                                                             \
            /* below the diagonal tile every chunk, on it those that reach the                                              \
             * diagonal (the rest is never read: the CPU zeroes it) */                                                      \
            const T *src = a + ((size_t)r * (size_t)nn + 16 * tj0 + cq);                                                    \
            /* unrolled over the at most 8 / st chunks left of the diagonal tile,                                           \
             * each predicated: constant offsets from dst and src (the loop kept                                            \
             * two 64-bit pointers: 14 instructions a chunk in SASS) */                                                     \
            TILE__UNROLL for (unsigned u = 0; u < (TILE_CHOL_MAX_N / 16 - 1 + st - 1) / st; ++u)                            \
                if (tj0 + st * u < ti && tj0 + st * u <= t1)                                                                \
                    tile__cp_async16(dst + st * u * TILE__CHOL_TT_##LY##_##sfx, src + 16 * st * u);                        \
            if (ti >= tj0 && (ti - tj0) % st == 0 && ti <= t1) { /* the diagonal tile, this thread's */                     \
                T *dd = dst + (ti - tj0) * TILE__CHOL_TT_##LY##_##sfx;                                                      \
                if (cq <= i) tile__cp_async16(dd, src + 16 * (ti - tj0));                                                   \
                else if (!TILE_ON_DEVICE) { for (int q = 0; q < TILE__CHOL_VW_##sfx; ++q) dd[q] = (T)0; }                   \
            }                                                                                                               \
        } else /* a padding row: the identity's */                                                                          \
            TILE__CHOL_NOUNROLL for (unsigned tj = tj0; tj <= t1;                                                           \
                                     tj += st, dst += st * TILE__CHOL_TT_##LY##_##sfx)                                      \
                TILE__UNROLL for (unsigned q = 0; q < TILE__CHOL_VW_##sfx; ++q)                                             \
                    dst[q] = (T)(16 * tj + cq + q == r ? 1 : 0);                                                            \
    }

/* TILE__CHOL_LCO_<type>(LY, groups, nbm): the copy-out beside the last
 * panels, whose factor runs on warp 0 alone while warps 1... wait (device,
 * n % VW == 0, a 16-byte aligned; else all of it after the steps):
 *   0   all after the steps;
 *   1   every tile but the last diagonal one on warps 1... during the last
 *       step's panel, that tile after it;
 *   2   (bits) at steps k >= 1 the final tile columns not yet stored, on the
 *       warps without a panel task; +8 only at steps whose panel is warp
 *       0's alone, the zeros right of the diagonal tiles at the last step;
 *       + (d << 8) from step nb - d on; the last column, and the rest, after
 *       the steps.
 * f64 on 128 threads: 778 (2 + 8 + (3 << 8): columns 0 ... nb - 4 during
 * step nb - 3's panel, nb - 3 during nb - 2's, nb - 2 and the zeros during
 * the last one's) at nb 5...7, 1 at nb = 8. H200, batch 4096, us, f64 n = 92
 * / 128, rounds in one process (bench/results/2026-12-04-h200-chol-lco-
 * sweep.txt): 0 224.8 / 405.8; 1 223.6 / 391.7; 2 224.6 / 399.8; 6 227.2 /
 * 408.8; 10 218.0 / 404.0; 522 213.5 / 407.3; and (seventeenth session,
 * ...-chol-knobs-sweep.txt, three rounds) 522 213.4-213.6, 266 222.5-223.0,
 * 778 212.0-212.5 at n = 92 (10 runs the same steps as 778 at nb 5...7:
 * its 218.0 was another schedule of ptxas's). The zeros while the copy-in
 * lands, or after the steps with 8, measured slower (docs/cholesky-log.md). With 1 the f32
 * kernels and the 64-thread f64 one took registers, some spilled, and lost
 * (f32 n = 64 / 92 62.4 / 119.5 -> 69.6 / 130.3). The same steps in a
 * shorter form of this code (dda3843, mode 2 as only the 522 steps) took
 * 219.5 at n = 92 (ptxas's schedule, not the work: docs/cholesky-log.md) */
#ifndef TILE__CHOL_LCO_f32
#define TILE__CHOL_LCO_f32(LY, groups, nbm) 0
#endif
#ifndef TILE__CHOL_LCO_f64
#define TILE__CHOL_LCO_f64(LY, groups, nbm) ((groups) > 4 ? ((nbm) < 8 ? 778 : 1) : 0)
#endif
/* the blocked factor (tile_chol_block's body) in workspace layout LY with
 * panel form PN, as function NAME */
#define TILE__CHOL_BLOCK_DEF(NAME, sfx, T, LY, PN, LT) TILE__CHOL_BLOCK_DEF_(NAME, sfx, T, LY, PN, LT)
#define TILE__CHOL_BLOCK_DEF_(NAME, sfx, T, LY, PN, LT) \
TILE_API int NAME(void *ws, T *a, int n, T eps, int groups, int nbm, int lo) {                                                      \
    /* bad arguments: -1, a neither read nor written (n of 0: the loops run on                                              \
     * the workspace alone; the public call returns at once for a NULL ws).                                                 \
     * nbm: the largest tile count the caller runs (a constant after inlining:                                              \
     * the copies unroll their row blocks to it; more is a bad argument) */                                                 \
    const int ok = a && n > 0 && n <= TILE_CHOL_MAX_N && (n + 15) / 16 <= nbm;                                              \
    const int nn = ok ? n : 0, nb = ok ? (n + 15) / 16 : 1;                                                                 \
    const int g = tile16_group(), lane = tile16_lane();                                                                     \
    /* the copies' threads: every thread of the groups on the device, one on the CPU */                                     \
    const int nthr = TILE_ON_DEVICE ? 16 * groups : 1, tid = TILE_ON_DEVICE ? 16 * g + lane : 0;                            \
    int *winfo = (int *)((unsigned char *)ws + TILE__CHOL_TB(LY, sfx, T, nb));                                              \
    /* copy in: the lower tiles, the identity's padding, as asynchronous copies                                             \
     * (cp.async: every chunk of a thread in flight at once; plain loads and                                                \
     * shared stores ran one DRAM round trip after another, the compiler unable                                             \
     * to move a load above a store through the workspace's generic pointer).                                               \
     * Only chunks that reach the diagonal or below are written (a 16-byte                                                  \
     * chunk on the diagonal also brings up to VW - 1 elements of the strictly                                              \
     * upper triangle). The strictly upper triangle of a diagonal tile is never                                             \
     * read as L: the factor's and the updates' writes there are dropped and the                                            \
     * copy-out stores zeros, so whatever it holds (NaN, or on the device what                                              \
     * the workspace held before) changes nothing; the CPU zeroes it, for a                                                 \
     * defined state */                                                                                                     \
    const int vec = (nn % TILE__CHOL_VW_##sfx) == 0 && ((uintptr_t)a & 15u) == 0;                                           \
    const int lco = TILE_ON_DEVICE && vec && groups >= 4 && TILE__CHOL_CPUO_##sfx(groups, nbm) && !(TILE__CHOL_XP & 2)        \
                        ? TILE__CHOL_LCO_##sfx(LY, groups, nbm)                                                             \
                        : 0;                                                                                                \
    unsigned kc = 0; /* TILE__CHOL_LCO 2: the tile columns stored so far */                                                 \
    /* one cp.async group, or (TILE__CHOL_CPSPLIT) two passes, each a group:                                                \
     * tile column 0 (what panel 0 reads), then the rest, which lands while                                                 \
     * panel 0 runs (waited for before the barrier that ends it) */                                                         \
    if (TILE__CHOL_XP & 1) {} else                                                                                          \
    if (vec && TILE__CHOL_CPV_##sfx(LY, groups, TILE__CHOL_PN2_##PN)) {                                                     \
        /* 16-byte chunks at fixed places, as the copy-out below: thread v takes,                                           \
         * in each row block, rows v / 8, v / 8 + VT / 8, ... and in them chunk                                             \
         * v % 8 of every 128-byte line up to the diagonal tile (a warp reads 4                                             \
         * rows x 128 contiguous bytes); a row's chunks at constant offsets from                                            \
         * one source and one destination. The flat loop below spent 34                                                     \
         * instructions a chunk on its row (a multiply and a shift), tile and                                               \
         * layout offset: ncu,                                                                                              \
         * f64 n = 64 copy-in 1886 -> 1268 warp instructions a matrix; with                                                 \
         * the copy-out's split f64 n = 64 / 92 / 128 122.3 / 263.1 / 477.2 ->                                              \
         * 116.1 / 248.8 / 433.4 us (H200, bench/results/2026-12-03-h200-chol-                                              \
         * copies-sweep.txt) */                                                                                             \
        TILE__CHOL_EACH_V(v, tile__chol_rowoff(tid)) {                                                                      \
            const unsigned cq = (v % TILE__CHOL_CPT_##sfx) * TILE__CHOL_VW_##sfx, ts = (v % 8) / TILE__CHOL_CPT_##sfx;      \
            const unsigned st = 8 / TILE__CHOL_CPT_##sfx, rp = (TILE_ON_DEVICE ? (unsigned)nthr : 128u) / 8;                \
            for (int ps = 0; ps < 1 + TILE__CHOL_CPSPLIT_##sfx(LY, groups); ++ps, tile__chol_cp_commit()) { /* a group a pass */ \
                /* the pass's first tile column of this thread, and its last (99: none, ti below) */                        \
                const unsigned tj0 = ts + (ps && ts == 0 ? st : 0), tl = TILE__CHOL_CPSPLIT_##sfx(LY, groups) && !ps ? 0u : 99u; \
                /* the row blocks unrolled up to nbm where TILE__CHOL_CPUI says (constant                                   \
                 * tile offsets and chunk bounds), else a loop */                                                           \
                if (TILE__CHOL_CPUI_##sfx(LY, groups)) {                                                                    \
                    TILE__UNROLL for (unsigned ti = 0; ti < (unsigned)nbm; ++ti) {                                          \
                        const unsigned t1 = ti < tl ? ti : tl;                                                              \
                        if (ti >= (unsigned)ps && ti < (unsigned)nb && tj0 <= t1) { TILE__CHOL_CPIN_RB(LY, sfx, T, ti, t1) } \
                    }                                                                                                       \
                } else                                                                                                      \
                    TILE__CHOL_NOUNROLL for (unsigned ti = (unsigned)ps; ti < (unsigned)nb; ++ti) {                         \
                        const unsigned t1 = ti < tl ? ti : tl;                                                              \
                        /* no chunk of this thread's (and no pointer past the tiles) */                                     \
                        if (tj0 <= t1) { TILE__CHOL_CPIN_RB(LY, sfx, T, ti, t1) }                                           \
                    }                                                                                                       \
            }                                                                                                               \
        }                                                                                                                   \
    } else                                                                                                                  \
    /* the flat loop (n % VW != 0, a not 16-byte aligned, or TILE__CHOL_CPV 0):                                             \
     * the chunks of a row block in row-major order, thread tid taking chunks                                               \
     * tid, tid + nthr, ... (the row by a multiply and a shift, no division:                                                \
     * TILE__CHOL_DIVQU); 16 bytes a chunk when n and a allow, else one element                                             \
     * a copy */                                                                                                            \
    for (int ps = 0; ps < 1 + TILE__CHOL_CPSPLIT_##sfx(LY, groups); ++ps, tile__chol_cp_commit()) /* a group a pass */      \
    for (int ti = ps; ti < nb; ++ti) {                                                                                      \
        /* chunks a row of the pass: tile column 0, the rest, or all (one pass) */                                          \
        const unsigned qn = (unsigned)(ps ? ti : TILE__CHOL_CPSPLIT_##sfx(LY, groups) ? 1 : ti + 1) * (16 / TILE__CHOL_VW_##sfx); \
        const unsigned cb = ps ? 16u : 0u; /* the pass's first column */                                                    \
        const unsigned mg = TILE__CHOL_DIVQ_M(qn);                                                                          \
        const size_t ob = (size_t)16 * (size_t)ti * (size_t)nn; /* the block's first row in a */                            \
        T *tb = TILE__CHOL_TILE(LY, sfx, T, ws, ti, 0); /* the block's tiles, in order */                                   \
        for (unsigned e = (unsigned)tid; e < 16 * qn; e += (unsigned)nthr) {                                                \
            /* unsigned: / 16 and % 16 as shifts and masks, no sign fix-ups */                                              \
            const unsigned rl = TILE__CHOL_DIVQU(e, mg), c0 = cb + (e - rl * qn) * TILE__CHOL_VW_##sfx,                     \
                           r = 16 * (unsigned)ti + rl;                                                                      \
            T *dst = tb + (c0 / 16) * TILE__CHOL_TT_##LY##_##sfx + TILE__CHOL_OFF_##LY(sfx, rl, c0 % 16);                   \
            const size_t so = ob + (size_t)(rl * (unsigned)nn + c0); /* a + so: formed only for rows < n */                 \
            if (c0 > r) { /* wholly above the diagonal */                                                                   \
                if (!TILE_ON_DEVICE) { for (int q = 0; q < TILE__CHOL_VW_##sfx; ++q) dst[q] = (T)0; }                       \
            } else if (vec && r < (unsigned)nn) {                                                                           \
                tile__cp_async16(dst, a + so);                                                                              \
            } else {                                                                                                        \
                TILE__UNROLL for (unsigned q = 0; q < TILE__CHOL_VW_##sfx; ++q) {                                           \
                    const unsigned c = c0 + q;                                                                              \
                    if (r < (unsigned)nn && c < (unsigned)nn && c <= r) TILE__CHOL_CP_ELEM_##sfx(dst + q, a + so + q);      \
                    else dst[q] = (T)(r == c ? 1 : 0);                                                                      \
                }                                                                                                           \
            }                                                                                                               \
        }                                                                                                                   \
    }                                                                                                                       \
    if (TILE__CHOL_CPSPLIT_##sfx(LY, groups)) TILE__CP_ASYNC_WAIT(1); /* pass 0's group: all but the newest */              \
    else tile__chol_cp_wait();                                                                                              \
    if (g == 0 && lane == 0) *winfo = 0;                                                                                    \
    tile_barrier();                                                                                                         \
    for (int k = 0; k < nb; ++k) {                                                                                          \
        /* panel: every task factors the diagonal tile itself (no barrier                                                   \
         * between the two); group 0 (task 0) records the info and writes L_kk                                              \
         * after the barrier, when nobody reads that tile */                                                                \
        const int ntl = nb - k - 1, cnt = ntl > 0 ? ntl : 1; /* the panel tiles; a task at the last step */           \
        tile16_##sfx lkk = tile16_zeros_##sfx();                                                                            \
        T *pkk = TILE__CHOL_TILE(LY, sfx, T, ws, k, k);                                                                     \
        /* w1: a panel tile a warp (the late steps, ntl <= TILE__CHOL_W1): lanes                                            \
         * 0..15 factor L_kk, lanes 16..31 solve tile k + 1 + w (w = g / 2) with                                            \
         * their columns, the wide form's steps without p: a lane updates one row                                           \
         * a column, where a half-warp's task holds L_kk's and the tile's. The                                              \
         * columns' scratch: the tile's shared copy (its rows are in registers),                                            \
         * or at the last step L_kk's (warp 0 alone). The constant test >= 0                                                \
         * first: at -1 the branch folds away and the kernel is as without it */                                           \
        const int w1 = TILE_ON_DEVICE && TILE__CHOL_W1_##sfx(LY, groups, nbm) >= 0 && TILE__CHOL_PN1_##PN &&             \
                       ntl <= TILE__CHOL_W1_##sfx(LY, groups, nbm) && ntl <= groups / 2;                                    \
        if (w1) {                                                                                                           \
            const int w = g >> 1, hi = g & 1, vt = hi && w < ntl;                                                           \
            if (w < cnt) {                                                                                                  \
                T *ptt = vt ? TILE__CHOL_TILE(LY, sfx, T, ws, k + 1 + w, k) : pkk;                                          \
                T *lt = ntl ? TILE__CHOL_TILE(LY, sfx, T, ws, k + 1 + w, k) : pkk;                                          \
                tile__chol_tld_##LY##_##sfx(&lkk, ptt);                                                                     \
                const int ik = tile__chol_fs_##sfx(&lkk, &lkk, eps, 0, 4 | ((LT) ? 1 : 0) | TILE__CHOL_FSX_BLK_##sfx(LY, groups, TILE__CHOL_PN2_##PN), \
                                                   lt, !hi && (ntl || g == 0));                                             \
                if (g == 0 && lane == 0 && ik && !*winfo) *winfo = 16 * k + ik;                                             \
                if (vt) tile__chol_tst_##LY##_##sfx(ptt, &lkk);                                                             \
            }                                                                                                               \
        } else                                                                                                              \
        if (TILE_ON_DEVICE && TILE__CHOL_WIDE_##sfx(LY, groups) && TILE__CHOL_PN1_##PN) {                                               \
            /* wide: a warp solves three panel tiles with one factor of L_kk                                                \
             * (lanes 0..15's t): A in lanes 0..15's p, B and C in lanes 16..31's                                           \
             * t and p, which run the same steps with lanes 0..15's columns (l_jj                                           \
             * only where the warp's lane is j, shuffles over the warp): fewer                                              \
             * warps a step in the panel, the same chain. The columns' scratch: A's                                         \
             * tile, or at the last step L_kk's (warp 0 only) */                                                            \
            const int hi = g & 1, last = ntl == 0;                                                                          \
            TILE__CHOL_NOUNROLL for (int t0 = 3 * (g >> 1); t0 < cnt; t0 += 3 * (groups >> 1)) {                            \
                const int tp = hi ? t0 + 2 : t0, vt = hi && t0 + 1 < ntl, vp = tp < ntl;                                    \
                T *ptt = vt ? TILE__CHOL_TILE(LY, sfx, T, ws, k + 2 + t0, k) : pkk;                                         \
                T *ppp = vp ? TILE__CHOL_TILE(LY, sfx, T, ws, k + 1 + tp, k) : pkk;                                         \
                T *lt = last ? pkk : TILE__CHOL_TILE(LY, sfx, T, ws, k + 1 + t0, k);                                        \
                tile16_##sfx p;                                                                                             \
                tile__chol_tld_##LY##_##sfx(&lkk, ptt);                                                                     \
                int ik;                                                                                                     \
                TILE__CHOL_PANEL_1(sfx, ik, &lkk, &p, eps, 4 | ((LT) ? 1 : 0) | TILE__CHOL_FSX_BLK_##sfx(LY, groups, TILE__CHOL_PN2_##PN), lt, \
                                   !hi && (!last || g == 0),                                                                \
                                   tile__chol_tld_##LY##_##sfx(&p, ppp));                                                   \
                if (t0 == 0 && g == 0 && lane == 0 && ik && !*winfo) *winfo = 16 * k + ik;                                  \
                if (vt) tile__chol_tst_##LY##_##sfx(ptt, &lkk);                                                             \
                if (vp) tile__chol_tst_##LY##_##sfx(ppp, &p);                                                               \
            }                                                                                                               \
        } else                                                                                                              \
        TILE__CHOL_NOUNROLL for (int t0 = g & ~1; t0 < cnt; t0 += groups) {                                                 \
            const int task = t0 + (g & 1), valid = task < cnt && k + 1 < nb;                                                \
            /* factor and panel solve in one pass; a group with no panel tile                                               \
             * (idle, or the last step) solves a copy of L_kk's tile: nobody                                                \
             * writes that tile now, and its result is dropped */                                                           \
            tile16_##sfx p;                                                                                                 \
            T *pik = valid ? TILE__CHOL_TILE(LY, sfx, T, ws, k + 1 + task, k) : pkk;                                        \
            tile__chol_tld_##LY##_##sfx(&lkk, pkk);                                                                         \
            int ik;                                                                                                         \
            /* one pass: the factor's columns through the group's own panel tile                                            \
             * (in registers now), or, at the last step, group 0's through L_kk's                                           \
             * (only warp 0 runs it, and group 0 rewrites it after the barrier);                                            \
             * an idle half-warp reads L_kk's tile and writes nothing */                                                    \
            const int ltw = valid || (k + 1 == nb && g == 0);                                                               \
            TILE__CHOL_PANEL_##PN(sfx, ik, &lkk, &p, eps, ((LT) && TILE__CHOL_PN1_##PN) | TILE__CHOL_FSX_BLK_##sfx(LY, groups, TILE__CHOL_PN2_##PN), \
                                  pik, ltw,                                                                                 \
                                  tile__chol_tld_##LY##_##sfx(&p, pik));                                                    \
            if (task == 0 && lane == 0 && ik && !*winfo) *winfo = 16 * k + ik;                                              \
            if (valid) tile__chol_tst_##LY##_##sfx(pik, &p);                                                                \
        }                                                                                                                   \
        if (TILE__CHOL_CPSPLIT_##sfx(LY, groups) && k == 0) tile__chol_cp_wait(); /* the copy-in's second pass */           \
        if (lco & 2) { /* the final tile columns kc ... k - 1, on the warps without a panel task */                        \
            const int wb = w1 ? cnt : (cnt + 1) / 2, wn = groups / 2 - wb;                                                  \
            if (k >= 1 && wn > 0 && (!(lco & 8) || wb == 1) && k >= nb - (lco >> 8 ? lco >> 8 : nb)) {                      \
                if (g / 2 >= wb) {                                                                                          \
                    const unsigned vc = (unsigned)tile__chol_rowoff(tid - 32 * wb);                                         \
                    TILE__CHOL_CPOUT_COLS(LY, sfx, T, kc, (unsigned)k, vc, 32u * (unsigned)wn)                              \
                    if ((lco & 8) && k + 1 == nb && !lo) TILE__CHOL_CPOUT_ZEROS(sfx, T, vc, 32u * (unsigned)wn)             \
                }                                                                                                           \
                kc = (unsigned)k;                                                                                           \
            }                                                                                                               \
        } else                                                                                                              \
        if (lco && k + 1 == nb && g >= 2) /* every tile but L_kk final: the copy-out, on warps 1 ... */                     \
            TILE__CHOL_EACH_V(v, tile__chol_rowoff(tid - 32)) {                                                             \
                const unsigned un = (unsigned)nn, unb = (unsigned)nb, rp = (unsigned)(nthr - 32) / 8;                       \
                const unsigned cq = (v % TILE__CHOL_CPT_##sfx) * TILE__CHOL_VW_##sfx, ts = (v % 8) / TILE__CHOL_CPT_##sfx;  \
                const unsigned st = 8 / TILE__CHOL_CPT_##sfx;                                                               \
                TILE__UNROLL for (unsigned ti = 0; ti < (unsigned)nbm; ++ti)                                                \
                    if (ti < unb) { TILE__CHOL_CPOUT_RB(LY, sfx, T, ti, 1) }                                                \
            }                                                                                                               \
        tile_barrier();                                                                                                     \
        /* trailing update: tiles (i, j), k < j <= i, A_ij -= L_ik L_jk^T */                                                \
        if (g == 0) tile__chol_tst_##LY##_##sfx(pkk, &lkk);                                                                 \
        const int m = nb - k - 1, cntu = m * (m + 1) / 2;                                                                   \
        /* a task a group, or (dm, a constant) a task a warp on the tensor cores */                                         \
        const int dm = TILE__CHOL_DMMA_##sfx(LY, groups, TILE__CHOL_PN2_##PN);                                             \
        TILE__CHOL_NOUNROLL for (int t0 = dm == 1 ? g >> 1 : g & ~1; t0 < cntu; t0 += dm == 1 ? groups >> 1 : groups) {     \
            if (dm == 2) { /* the warp's two tasks t0, t0 + 1 (the second past cntu: skipped) */                           \
                const int v1 = t0 + 1 < cntu;                                                                               \
                int i0, j0, i1, j1;                                                                                         \
                TILE__CHOL_UTASK(sfx, m, t0, i0, j0);                                                                       \
                TILE__CHOL_UTASK(sfx, m, v1 ? t0 + 1 : t0, i1, j1);                                                         \
                i0 += k + 1, j0 += k + 1, i1 += k + 1, j1 += k + 1;                                                         \
                TILE__CHOL_MMA_UPD2_##sfx(LY, TILE__CHOL_TILE(LY, sfx, T, ws, i0, j0), TILE__CHOL_TILE(LY, sfx, T, ws, i0, k), \
                                          TILE__CHOL_TILE(LY, sfx, T, ws, j0, k), TILE__CHOL_TILE(LY, sfx, T, ws, i1, j1), \
                                          TILE__CHOL_TILE(LY, sfx, T, ws, i1, k), TILE__CHOL_TILE(LY, sfx, T, ws, j1, k), v1); \
                continue;                                                                                                   \
            }                                                                                                               \
            const int task = dm ? t0 : t0 + (g & 1), valid = task < cntu, tk = valid ? task : cntu - 1;                     \
            int i, j;                                                                                                       \
            TILE__CHOL_UTASK(sfx, m, tk, i, j);                                                                             \
            i += k + 1;                                                                                                     \
            j += k + 1;                                                                                                     \
            /* C of an idle group (which skips the task): a panel tile            */                                      \
            T *pij = valid ? TILE__CHOL_TILE(LY, sfx, T, ws, i, j) : TILE__CHOL_TILE(LY, sfx, T, ws, k + 1, k);             \
            if (dm) TILE__CHOL_MMA_UPD_##sfx(LY, pij, TILE__CHOL_TILE(LY, sfx, T, ws, i, k), TILE__CHOL_TILE(LY, sfx, T, ws, j, k)); \
            else TILE__CHOL_UPD_TASK(LY, sfx, T, valid, pij, TILE__CHOL_TILE(LY, sfx, T, ws, i, k), TILE__CHOL_TILE(LY, sfx, T, ws, j, k)); \
        }                                                                                                                   \
        tile_barrier();                                                                                                     \
    }                                                                                                                       \
    /* copy out, the n x n matrix: L's lower triangle and zeros past the                                                    \
     * diagonal (the result is L itself: the zeros ride along with the stores,                                              \
     * no other pass). Thread v (of VT: the block's threads, 128 virtual ones on                                            \
     * the CPU) takes, in every row block, rows v / 8, v / 8 + VT / 8, ... and,                                             \
     * in every 128-byte line of those rows (8 chunks: two f32 tiles, one f64),                                             \
     * chunk v % 8: its place in a tile is fixed (the flat row-major loop                                                   \
     * before recomputed a tile index, a division and the layout offset a chunk:                                            \
     * 17 % of the f32 n = 128 kernel's instructions, ncu at cb421b9). A warp                                               \
     * stores 4 rows x 128 contiguous bytes; its shared loads are 4 wavefronts                                              \
     * in both layouts. Where every chunk is inside its row (n % VW == 0, a                                                 \
     * aligned) the row blocks are unrolled up to nbm and a row's chunks too:                                               \
     * constant offsets from one shared and one global pointer a row, each                                                  \
     * chunk a plain copy left of the diagonal tile, masked on it (its upper                                                \
     * part holds update leftovers), zeros past it without a load (the loops                                                \
     * before kept pointers and bounds live: f32 n = 64 / 92 / 128 67.6 / 126.0                                             \
     * / 238.5 -> 64.8 / 121.6 / 232.0 us, f64 64 / 92 115.0 / 244.6 -> 111.8 /                                             \
     * 236.7, H200, bench/results/2026-12-03-h200-chol-unroll-sweep.txt). v                                                 \
     * comes through tile__chol_rowoff: computed here, not kept live from the                                               \
     * kernel's start */                                                                                                    \
    const unsigned un = (unsigned)nn, unb = (unsigned)nb, rp = (TILE_ON_DEVICE ? (unsigned)nthr : 128u) / 8;                \
    if (TILE__CHOL_XP & 2) {} else                                                                                          \
    TILE__CHOL_EACH_V(v, tile__chol_rowoff(tid)) {                                                                          \
        const unsigned cq = (v % TILE__CHOL_CPT_##sfx) * TILE__CHOL_VW_##sfx, ts = (v % 8) / TILE__CHOL_CPT_##sfx;          \
        if (vec && TILE__CHOL_CPUO_##sfx(groups, nbm)) {                                                                   \
            const unsigned st = 8 / TILE__CHOL_CPT_##sfx; /* a thread's tile step in a row */                               \
            if (lco & 2) {                                                                                                  \
                TILE__CHOL_CPOUT_COLS(LY, sfx, T, kc, unb, v, (unsigned)nthr)                                               \
                if (!((lco & 8) && nb >= 2) && !lo) TILE__CHOL_CPOUT_ZEROS(sfx, T, v, (unsigned)nthr) /* none at the steps */ \
            } else                                                                                                          \
            if (lco) { /* the last diagonal tile: the rest is stored */                                                     \
                const unsigned ti = unb - 1;                                                                                \
                TILE__CHOL_CPOUT_RB(LY, sfx, T, ti, 2)                                                                      \
            } else                                                                                                          \
            TILE__UNROLL for (unsigned ti = 0; ti < (unsigned)nbm; ++ti)                                                    \
                if (ti < unb) { TILE__CHOL_CPOUT_RB(LY, sfx, T, ti, 0) }                                                    \
        } else                                                                                                              \
            TILE__CHOL_NOUNROLL for (unsigned ti = 0; ti < unb; ++ti) {                                                     \
                for (unsigned i = v / 8; i < 16 && 16 * ti + i < un; i += rp) {                                             \
                    const unsigned r = 16 * ti + i;                                                                         \
                    const T *src = TILE__CHOL_TILE(LY, sfx, T, ws, ti, 0) + TILE__CHOL_OFF_##LY(sfx, i, cq);                \
                    T *dst = a + (r * un + cq);                                                                             \
                    TILE__CHOL_NOUNROLL for (unsigned tj = ts; 16 * tj + cq < un; tj += 8 / TILE__CHOL_CPT_##sfx) {         \
                        const unsigned c0 = 16 * tj + cq;                                                                   \
                        T x[TILE__CHOL_VW_##sfx];                                                                           \
                        /* no branch: a chunk past the diagonal tile reads that tile (any valid                             \
                         * address) and is masked to zeros with the diagonal tile's upper part                              \
                         * (update leftovers): c0 + q > r covers both */                                                    \
                        tile__chol_vld_##sfx(x, src + (tj < ti ? tj : ti) * TILE__CHOL_TT_##LY##_##sfx);                    \
                        TILE__UNROLL for (unsigned q = 0; q < TILE__CHOL_VW_##sfx; ++q)                                     \
                            if (c0 + q > r) x[q] = (T)0;                                                                    \
                        TILE__UNROLL for (unsigned q = 0; q < TILE__CHOL_VW_##sfx; ++q)                                     \
                            if (c0 + q < un && (!lo || c0 + q <= r)) dst[16 * tj + q] = x[q];                               \
                    }                                                                                                       \
                }                                                                                                           \
            }                                                                                                               \
    }                                                                                                                       \
    const int info = *winfo;                                                                                                \
    tile_barrier(); /* the workspace may be reused after return */                                                          \
    return ok ? info : -1;                                                                                                  \
}                                                                                                                           \

/* the blocked copy-in's element copies, and the wait for all of a thread's
 * copies (before the barrier that publishes them) */
#define TILE__CHOL_CP_ELEM_f32(d, s) tile__cp_async4((d), (s))
#define TILE__CHOL_CP_ELEM_f64(d, s) tile__cp_async8((d), (s))
TILE_API void tile__chol_cp_commit(void) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
TILE_API void tile__chol_cp_wait(void) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

#define TILE__CHOL_DEF(sfx, T) \
/* one n x n matrix (n <= 32) per group of 16 lanes, in registers */                                                        \
TILE_API int tile_chol_small_##sfx(T *a, int n, T eps) {                                                                    \
    const int rows = (a && n > 0 && n <= 32) ? n : 0;                                                                       \
    tile16_##sfx a00 = tile16_eye_##sfx();                                                                                  \
    tile16_load_##sfx(&a00, a, rows, n, 0, 16, 0, 16);                                                                      \
    int info;                                                                                                               \
    if (tile16__warp_max((n + 15) / 16) <= 1) {                                                                             \
        info = tile16_chol_##sfx(&a00, eps);                                                                                \
        tile__chol_zero_upper_##sfx(&a00);                                                                                  \
        tile16_store_##sfx(a, rows, n, 0, 16, 0, 16, &a00);                                                                 \
    } else {                                                                                                                \
        tile16_##sfx a10 = tile16_zeros_##sfx(), a11 = tile16_eye_##sfx();                                                  \
        tile16_load_##sfx(&a10, a, rows, n, 16, 32, 0, 16);                                                                 \
        tile16_load_##sfx(&a11, a, rows, n, 16, 32, 16, 32);                                                                \
        info = tile16_chol_##sfx(&a00, eps);                                                                                \
        tile16_solve_xlt_##sfx(&a00, &a10);                                                                                 \
        tile16_sub_abt_lower_##sfx(&a11, &a10, &a10);                                                                       \
        const int i1 = tile16_chol_##sfx(&a11, eps);                                                                        \
        if (!info && i1) info = 16 + i1;                                                                                    \
        tile__chol_zero_upper_##sfx(&a00);                                                                                  \
        tile__chol_zero_upper_##sfx(&a11);                                                                                  \
        tile16_store_##sfx(a, rows, n, 0, 16, 0, 16, &a00);                                                                 \
        tile16_store_##sfx(a, rows, n, 16, 32, 0, 16, &a10);                                                                \
        tile16_store_##sfx(a, rows, n, 16, 32, 16, 32, &a11);                                                               \
        a10 = tile16_zeros_##sfx(); /* the block above a11 */                                                               \
        tile16_store_##sfx(a, rows, n, 0, 16, 16, 32, &a10);                                                                \
    }                                                                                                                       \
    return rows ? info : 0;                                                                                                 \
}                                                                                                                           \
                                                                                                                            \
/* one n x n matrix (n <= 128) per block, its lower tiles staged in shared memory */                                        \
TILE__CHOL_BLOCK_DEF(tile__chol_block_p_##sfx, sfx, T, P, TILE__CHOL_PUBPN_##sfx, TILE__CHOL_BLKP_LT_##sfx(groups))                                            \
/* the public form: a NULL ws returns at once (uniform over the block), its                                                 \
 * info word not written at NULL + tiles (the library's kernels call the body:                                              \
 * the test inside it made ptxas spill registers there) */                                                                  \
TILE_API int tile_chol_block_##sfx(void *ws, T *a, int n, T eps, int groups) {                                              \
    return ws ? tile__chol_block_p_##sfx(ws, a, n, eps, groups, TILE_CHOL_MAX_N / 16, 0) : -1;                                 \
}                                                                                                                           \
                                                                                                                            \
/* A x = b with L from the factor: one (matrix, 16 right-hand-side columns)                                                 \
 * per group of 16 lanes; b (n x nrhs, row-major) is overwritten by x.                                                      \
 * tile_chol_fwd_small: b <- L^-1 b; tile_chol_bwd_small: b <- L^-T b;                                                      \
 * tile_chol_solve_small: both (the library launches them as two kernels:                                                   \
 * smaller kernels, fewer registers) */                                                                                     \
TILE__CHOL_FB_DEF(tile_chol_fwd_small_##sfx, tile_chol_bwd_small_##sfx, tile16_, sfx, T)                                    \
/* the same for the library's solve kernel (whole warps) */                                                                 \
TILE__CHOL_FB_DEF(tile__chol_fwd_w_##sfx, tile__chol_bwd_w_##sfx, tile16__w_, sfx, T)                                       \
TILE_API void tile_chol_solve_small_##sfx(const T *l, T *b, int n, int nrhs, int c0) {                                      \
    tile_chol_fwd_small_##sfx(l, b, n, nrhs, c0);                                                                           \
    tile_chol_bwd_small_##sfx(l, b, n, nrhs, c0);                                                                           \
}                                                                                                                           \
    /* end TILE__CHOL_DEF */

TILE__CHOL_DEF(f32, float)
TILE__CHOL_DEF(f64, double)
/* the library kernels' other variants: nb = 8 in the swizzled layout (f32
 * 36 KiB at n = 128: 6 blocks an SM instead of 4, 343.6 against 376.8 us,
 * while at n = 64 / 92, where registers bound the blocks, the swizzle's
 * address arithmetic cost 8 / 5 %: bench/results/2026-11-29-h200-chol-
 * swizzle-88a6828-bench.txt against ...-cpasync-bcb278f-bench.txt; f64 72
 * KiB: 3 blocks an SM of 128 threads, one-pass panel on sm_90 (747.8
 * against 1100.1 us for 2 of 256 threads in the padded layout and 1094.6
 * with the two-pass panel: ...-sweep-215338c.txt; two-pass
 * elsewhere: sm_80 spilled with one); f64 at nb <= 7 with the one-pass
 * panel (148 registers, fewer blocks an SM, yet 2-5 % faster: ...-88a6828-
 * sweep-f64-onepass.txt) */
TILE__CHOL_BLOCK_DEF(tile__chol_block_s_f32, f32, float, S, A, TILE__CHOL_BLKS_LT_f32)
TILE__CHOL_BLOCK_DEF(tile__chol_block_s_f64, f64, double, S, A, TILE__CHOL_BLKS_LT_f64)
TILE__CHOL_BLOCK_DEF(tile__chol_block_p1_f64, f64, double, P, 1, TILE__CHOL_BLKP_LT_f64(groups))
TILE__CHOL_BLOCK_DEF(tile__chol_block_s1_f64, f64, double, S, 1, 0)

/* The two NW x NW matrices of a warp (NW = 32: contiguous, 16-byte aligned
 * at g) to / from its half-warps' lower tiles in layout P at st (tiles 00,
 * 10, 11, as the blocked workspace at nb = 2): 16-byte chunk q = 32 k +
 * lane (cp.async in; 16-byte loads and stores out), so that each global
 * access of the warp is 512 contiguous bytes, where a lane's own row took
 * 16 bytes of every 32-byte sector of a request (H200, batch 4096: n = 32
 * f32 26.0 -> 15.2 us, f64 50.5 -> 30.4; n = 16, then staged the same way,
 * f32 8.8 -> 8.2, f64 17.6 -> 10.7: bench/results/2026-12-02-h200-chol-
 * stage-408a34b.txt; n = 16 now has tile__chol_s16l's copies). No chunk
 * wholly above the diagonal is read (the kernel never reads those elements);
 * the out stores them as zeros without a read. The in copies rows 0..15 of
 * both matrices as one cp.async group and waits for it only, so that A00 is
 * factored while the rest lands (_rest waits for that, before A10's load);
 * the out runs twice: everything but block 11 (last = 0) as soon as L00 and
 * L10 are final, beside A11's update and factor, then block 11 (last = 1).
 * H100, batch 4096, f64 n = 32: 28.1-28.4 -> 25.5-25.9 us with the three,
 * 27.7 with the first alone, 26.7-27.1 with the first two (bench/results/
 * 2026-12-05-h100-chol-s32x-09d54ca.txt). Each waits for the warp: the in
 * and _rest for its copies, the out for the lanes' rows. */
#if TILE_ON_DEVICE
#define TILE__CHOL_CPW_AT(sfx, st, NW, e)                                                          \
    ((st) + ((size_t)((e) / ((NW) * (NW))) * ((NW) / 16) * ((NW) / 16 + 1) / 2 +                   \
             ((e) / (NW) % (NW) >> 4) * (((e) / (NW) % (NW) >> 4) + 1) / 2 + ((e) % (NW) >> 4)) *  \
                 TILE__CHOL_TS_##sfx +                                                             \
     TILE__CHOL_OFF_P(sfx, (e) / (NW) % 16, (e) % 16))
#define TILE__CHOL_CPW_DEF(sfx, T, NW)                                                             \
    TILE_API void tile__chol_cp##NW##_in_##sfx(T *st, const T *g) {                                \
        const int l = (int)(threadIdx.x & 31u), vw = TILE__CHOL_VW_##sfx;                          \
        TILE__UNROLL for (int h = 0; h < 2; ++h) { /* rows 0..15, then the rest */                 \
            TILE__UNROLL for (int k = 0; k < 2 * (NW) * (NW) / vw / 32; ++k) {                     \
                const int e = vw * (32 * k + l), r = e / (NW) % (NW), c = e % (NW);                \
                if ((r >= 16) == h && c <= r) /* not wholly above the diagonal */                  \
                    tile__cp_async16(TILE__CHOL_CPW_AT(sfx, st, NW, e), g + e);                    \
            }                                                                                      \
            tile__chol_cp_commit();                                                                \
        }                                                                                          \
        TILE__CP_ASYNC_WAIT(1);                                                                    \
        __syncwarp();                                                                              \
    }                                                                                              \
    TILE_API void tile__chol_cp##NW##_rest_##sfx(void) {                                           \
        tile__chol_cp_wait();                                                                      \
        __syncwarp();                                                                              \
    }                                                                                              \
    TILE_API void tile__chol_cp##NW##_out_##sfx(T *g, const T *st, int last, int lo) {             \
        const int l = (int)(threadIdx.x & 31u), vw = TILE__CHOL_VW_##sfx;                          \
        __syncwarp();                                                                              \
        TILE__UNROLL for (int k = 0; k < 2 * (NW) * (NW) / vw / 32; ++k) {                         \
            const int e = vw * (32 * k + l), r = e / (NW) % (NW), c = e % (NW);                    \
            if (((r >> 4) == (NW) / 16 - 1 && (c >> 4) == (NW) / 16 - 1) != last) continue;       \
            T v[TILE__CHOL_VW_##sfx] = {0};                                                        \
            if (c <= r) tile__chol_vld_##sfx(v, TILE__CHOL_CPW_AT(sfx, st, NW, e));              \
            tile__chol_vstlo_##sfx(g + e, v, r, c, lo);                                            \
        }                                                                                          \
    }
#else /* the CPU never stages (its kernels' stg is 0): the calls only compile */
#define TILE__CHOL_CPW_DEF(sfx, T, NW)                                                             \
    TILE_API void tile__chol_cp##NW##_in_##sfx(T *st, const T *g) { (void)st, (void)g; }           \
    TILE_API void tile__chol_cp##NW##_rest_##sfx(void) {}                                          \
    TILE_API void tile__chol_cp##NW##_out_##sfx(T *g, const T *st, int last, int lo) { (void)g, (void)st, (void)last, (void)lo; }
#endif
TILE__CHOL_CPW_DEF(f32, float, 32)
TILE__CHOL_CPW_DEF(f64, double, 32)
/* does the warp of matrix m stage its NW x NW matrices (warp-uniform: both
 * of its matrices in the batch, n = NW, a 16-byte aligned base)? */
#define TILE__CHOL_STG(NW, n, m, batch, a) \
    (TILE_ON_DEVICE && (n) == (NW) && ((m) | 1) < (batch) && !((uintptr_t)(a)&15))

/* n = 16 on the GPU (tile__chol_s16l_k: a 16-byte aligned batch, a matrix
 * a half-warp): the factor of the matrix at g, or with g NULL (a half-warp
 * past the batch) of whatever lt holds, nothing read or stored; lt is the
 * group's 16 x TILE__CHOL_LD scratch; returns the info. Lane i holds row i
 * in registers. Step j publishes column j of L as row j of lt (L^T: zeros
 * above l_jj, the l_ij below), one broadcast that every lane reads for its
 * update a_ik -= l_ij l_kj (k > j), and lane j + 1 sends the next pivot
 * a_{j+1,j+1} - l_{j+1,j}^2 by one shuffle. lt is also the copies'
 * staging: in, 16-byte cp.async chunks in row-major order (a half-warp's
 * request 256 contiguous bytes; chunks wholly above the diagonal not read),
 * then each lane its row; out, each 16-byte chunk of L as soon as the
 * step that makes its rows final has published them (read back from lt's
 * columns, the strictly upper triangle zeros without a read), so the
 * stores run beside the later steps. tile__chol_fs's
 * operations in its order (the tile path's: the CPU's, and the GPU's for n
 * < 16 or an unaligned batch), but f64's pivot rsqrt by one third-order
 * step (1.25 ulp, TILE__CHOL_RS), without the tile passes, the register
 * diagonal's select and the zeroing. H200, batch 4096: chol_bench, four
 * rounds, f64 9.4 -> 8.9 us, f32 7.0 -> 6.7 (the same steps inside the tile
 * kernel, beside its other path: f64 9.2); then cp.async, the third-order
 * step and the unread zeros, GPU time alone (standalone harness, three
 * rounds): 8.0 -> 7.6 (bench/results/2026-12-04-h200-chol-s16l.txt); the
 * stores over the steps (all of them after the last step before), chol_bench,
 * two rounds: f64 8.5-8.6 -> 8.2-8.3, f32 6.6-6.7 either way
 * (bench/results/2026-12-05-h200-chol-ll-s16st-7e96d95.txt) */
/* n = 16 folded (tile__chol_s16f_k, for large batches), a matrix 8 lanes:
 * lane p holds rows p (x, columns 0...7) and 15 - p (y), so a warp factors four matrices with 28 more update fmas a warp than
 * two (148 against 120) and the steps' other instructions shared by four:
 * at batch 4096 the SM's issue slots, not one matrix's chain, bound the
 * unfolded kernel (a tenth more instructions a step made it 0.3 us slower
 * there and 0.2 us faster at batch 8: bench/results/2026-12-05-h200-chol-
 * s16pv-175ecb9.txt). The same operations on every element in the same
 * order as tile__chol_s16l: the same bits. Rows above l_jj's in lt's row j
 * are never read (the update reads k > j, the copy-out the lower triangle),
 * so the strictly upper lanes store what they computed, unselected. Every
 * lane forms the next pivot itself from row j + 1's diagonal and subdiagonal
 * (fetched a step ahead, updated as their holder does: the same bits), so no
 * shuffle sits on the pivot chain: at 8 warps an SM the fold is latency-bound
 * (ncu: no eligible warp 81 % of cycles), and f64 batch 4096 went 8.3-8.4 ->
 * 8.1-8.3 us in chol_bench (H100, bench/results/2026-12-05-h100-chol-
 * s16fpv-8e5f0df.txt; the unfolded kernel, issue-bound, lost with it). */
/* the folded kernel where it is faster: more than 24 matrices an SM (H100,
 * GPU time alone, f64 / f32: equal at 3168 = 24 x 132, 0.3 / 0.2 us faster
 * at 4096, 0.3 / 0.1 us slower at 1056, where its 16 matrices a block leave
 * SMs idle) */
#if TILE_CUDA
static inline int tile__chol_s16f_at(int dev, int batch) {
    const int s = tile__dev_sms(dev);
    return s >= 0 && batch > 24 * s;
}
#else
#define tile__chol_s16f_at(dev, batch) 0
#endif
/* a group's lt stride (32 bytes past f32's, 64 past f64's 128-byte multiple):
 * the 8-lane groups of one store phase write on other banks */
#define TILE__CHOL_TS16F_f32 (TILE__CHOL_TS_f32 + 8)
#define TILE__CHOL_TS16F_f64 (TILE__CHOL_TS_f64 + 8)
#if TILE_ON_DEVICE
/* n = 16's copy-in (L lanes a matrix, this one l): cp.async, every chunk of
 * the lane in flight at once; a chunk wholly above the diagonal keeps what
 * lt held (strictly upper: never read) */
#define TILE__CHOL_S16_CPIN(sfx, L, l)                                                             \
    TILE__UNROLL for (int q = 0; q < 16 / (L)*cpr; ++q) {                                          \
        const int e = (L)*q + (l), r = e / cpr, c0 = vw * (e % cpr);                               \
        if (g && c0 <= r) tile__cp_async16(lt + TILE__CHOL_OFF_P(sfx, r, c0), g + 16 * r + c0);    \
    }                                                                                              \
    tile__chol_cp_wait();                                                                          \
    __syncwarp();
/* step j's pivot: info, TILE__CHOL_CLAMP's values, r = 1 / sqrt(d) (f64: the
 * third-order step) */
#define TILE__CHOL_S16_PIVOT(sfx, T)                                                               \
    const T d0 = dn;                                                                               \
    if (!(d0 > (T)0) && info == 0) info = j + 1;                                                   \
    const T d = d0 > thr ? d0 : rep;                                                               \
    const T r = TILE__CHOL_RS(sfx, d, 1);
/* column j of L from lt's row j (from l_{j+1,j}'s chunk on), once every lane
 * has published it */
#define TILE__CHOL_S16_LC(sfx, T)                                                                  \
    T lc[16];                                                                                      \
    __syncwarp();                                                                                  \
    TILE__UNROLL for (int q = (j + 1) & -vw; q < 16; q += vw)                                      \
        tile__chol_vld_##sfx(lc + q, lt + TILE__CHOL_OFF_P(sfx, j, q));
#define TILE__CHOL_S16L_DEF(sfx, T)                                                                \
    TILE_API int tile__chol_s16l_##sfx(T *g, T *lt, T eps, int lo) {                               \
        const int i = tile16_lane(), vw = TILE__CHOL_VW_##sfx, cpr = 16 / TILE__CHOL_VW_##sfx;     \
        const T thr = eps > (T)0 ? eps : (T)0, rep = eps > (T)0 ? eps : (T)NAN;                    \
        T x[16];                                                                                   \
        {                                                                                          \
            TILE__CHOL_S16_CPIN(sfx, 16, i)                                                        \
            TILE__UNROLL for (int q = 0; q < 16; q += vw) tile__chol_vld_##sfx(x + q, lt + TILE__CHOL_OFF_P(sfx, i, q)); \
            __syncwarp(); /* every row read before step 0 writes lt */                             \
        }                                                                                          \
        int info = 0;                                                                              \
        T dn = __shfl_sync(0xffffffffu, x[0], 0, 16);                                              \
        TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                \
            TILE__CHOL_S16_PIVOT(sfx, T)                                                           \
            const T lr = x[j] * r;                                                                 \
            if (j + 1 < 16) dn = __shfl_sync(0xffffffffu, x[j + 1] - lr * lr, j + 1, 16);          \
            lt[TILE__CHOL_OFF_P(sfx, j, i)] = i == j ? TILE__CHOL_SD(sfx, d, r) : i < j ? (T)0 : lr; \
            if (j + 1 < 16) {                                                                      \
                TILE__CHOL_S16_LC(sfx, T)                                                          \
                TILE__UNROLL for (int k = j + 1; k < 16; ++k) x[k] -= lr * lc[k];                  \
            }                                                                                      \
            if ((j + 1) % vw == 0) {                                                               \
                /* rows j + 1 - vw ... j final: the lane's chunk (j + 1) / vw - 1 out, L   \
                 * from lt's columns, zeros past the diagonal */                            \
                T v[TILE__CHOL_VW_##sfx];                                                          \
                int o, ro, co;                                                                     \
                if (j + 1 == 16) __syncwarp(); /* (the other steps' is above) */                   \
                {                                                                                  \
                    const int e = 16 * ((j + 1) / vw - 1) + i, r = e / cpr, c0 = vw * (e % cpr);   \
                    o = 16 * r + c0, ro = r, co = c0;                                              \
                    TILE__UNROLL for (int t = 0; t < vw; ++t) v[t] = c0 + t > r ? (T)0 : lt[TILE__CHOL_OFF_P(sfx, c0 + t, r)]; \
                }                                                                                  \
                if (g) tile__chol_vstlo_##sfx(g + o, v, ro, co, lo);                               \
            }                                                                                      \
        }                                                                                          \
        return info;                                                                               \
    }
#define TILE__CHOL_S16F_DEF(sfx, T)                                                                \
    TILE_API int tile__chol_s16f_##sfx(T *g, T *lt, T eps, int lo) {                               \
        const int p = (int)(threadIdx.x & 7u), vw = TILE__CHOL_VW_##sfx, cpr = 16 / TILE__CHOL_VW_##sfx; \
        const T thr = eps > (T)0 ? eps : (T)0, rep = eps > (T)0 ? eps : (T)NAN;                    \
        T x[8], y[16]; /* rows p and 15 - p */                                                     \
        {                                                                                          \
            TILE__CHOL_S16_CPIN(sfx, 8, p)                                                         \
            TILE__UNROLL for (int q = 0; q < 8; q += vw) tile__chol_vld_##sfx(x + q, lt + TILE__CHOL_OFF_P(sfx, p, q)); \
            TILE__UNROLL for (int q = 0; q < 16; q += vw) tile__chol_vld_##sfx(y + q, lt + TILE__CHOL_OFF_P(sfx, 15 - p, q)); \
            __syncwarp();                                                                          \
        }                                                                                          \
        int info = 0;                                                                              \
        T dn = __shfl_sync(0xffffffffu, x[0], 0, 8);                                               \
        /* row j + 1's diagonal and subdiagonal, current, in every lane */                        \
        T pd = __shfl_sync(0xffffffffu, x[1], 1, 8), pe = __shfl_sync(0xffffffffu, x[0], 1, 8);   \
        TILE__UNROLL for (int j = 0; j < 16; ++j) {                                                \
            TILE__CHOL_S16_PIVOT(sfx, T)                                                           \
            const T la = j < 8 ? x[j & 7] * r : (T)0, lb = y[j] * r;                               \
            /* the next pivot without a shuffle on the chain (row j + 1's holder does the same \
             * operations: l_{j+1,j} = pe r); row j + 2's two elements fetched for the next */  \
            T qd = 0, qe = 0;                                                                      \
            if (j + 1 < 16) {                                                                      \
                const T l1 = pe * r;                                                               \
                dn = pd - l1 * l1;                                                                 \
            }                                                                                      \
            if (j + 2 < 8) {                                                                       \
                qd = __shfl_sync(0xffffffffu, x[(j + 2) & 7], j + 2, 8);                           \
                qe = __shfl_sync(0xffffffffu, x[(j + 1) & 7], j + 2, 8);                           \
            } else if (j + 2 < 16) {                                                               \
                qd = __shfl_sync(0xffffffffu, y[(j + 2) & 15], 13 - j, 8);                         \
                qe = __shfl_sync(0xffffffffu, y[(j + 1) & 15], 13 - j, 8);                         \
            }                                                                                      \
            if (j < 8) lt[TILE__CHOL_OFF_P(sfx, j, p)] = p == j ? TILE__CHOL_SD(sfx, d, r) : la;   \
            lt[TILE__CHOL_OFF_P(sfx, j, 15 - p)] = j >= 8 && 15 - p == j ? TILE__CHOL_SD(sfx, d, r) : lb; \
            if (j + 1 < 16) {                                                                      \
                TILE__CHOL_S16_LC(sfx, T)                                                          \
                TILE__UNROLL for (int k = j + 1; k < 8; ++k) x[k] -= la * lc[k];                   \
                TILE__UNROLL for (int k = j + 1; k < 16; ++k) y[k] -= lb * lc[k];                  \
                if (j + 2 < 16) /* row j + 2's update, as its holder's */                          \
                    pd = qd - lc[(j + 2) & 15] * lc[(j + 2) & 15], pe = qe - lc[(j + 2) & 15] * lc[j + 1]; \
            }                                                                                      \
            if ((j + 1) % vw == 0) {                                                               \
                /* rows j + 1 - vw ... j final: their 16 chunks, two a lane */                     \
                if (j + 1 == 16) __syncwarp();                                                     \
                TILE__UNROLL for (int h = 0; h < 2; ++h) {                                         \
                    T v[TILE__CHOL_VW_##sfx];                                                      \
                    const int e = 16 * ((j + 1) / vw - 1) + 8 * h + p, r = e / cpr, c0 = vw * (e % cpr); \
                    TILE__UNROLL for (int t = 0; t < vw; ++t) v[t] = c0 + t > r ? (T)0 : lt[TILE__CHOL_OFF_P(sfx, c0 + t, r)]; \
                    if (g) tile__chol_vstlo_##sfx(g + 16 * r + c0, v, r, c0, lo);                  \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        return info;                                                                               \
    }
#else /* the CPU never runs tile__chol_s16l_k (the host picks it for a device): the calls only compile */
#define TILE__CHOL_S16L_DEF(sfx, T) \
    TILE_API int tile__chol_s16l_##sfx(T *g, T *lt, T eps, int lo) { return (void)g, (void)lt, (void)eps, (void)lo, 0; }
#define TILE__CHOL_S16F_DEF(sfx, T) \
    TILE_API int tile__chol_s16f_##sfx(T *g, T *lt, T eps, int lo) { return (void)g, (void)lt, (void)eps, (void)lo, 0; }
#endif
TILE__CHOL_S16L_DEF(f32, float)
TILE__CHOL_S16L_DEF(f64, double)
TILE__CHOL_S16F_DEF(f32, float)
TILE__CHOL_S16F_DEF(f64, double)

/* ---- the library's kernels and host calls ---- */
/* the blocked kernels' resident blocks an SM asked of the compiler
 * (TILE_KERNEL_SMEM_BOUNDS: 0 its heuristic) */
#ifndef TILE__CHOL_MINB64_f32
#define TILE__CHOL_MINB64_f32 0
#endif
#ifndef TILE__CHOL_MINB64_f64
#define TILE__CHOL_MINB64_f64 0
#endif
#ifndef TILE__CHOL_MINB128_f32
#define TILE__CHOL_MINB128_f32 0
#endif
#ifndef TILE__CHOL_MINB128_f64
#define TILE__CHOL_MINB128_f64 0
#endif
#define TILE__CHOL_KBLOCK_f32 tile__chol_block_p_f32
#define TILE__CHOL_KBLOCK_f64 tile__chol_block_p1_f64
/* f64 on 128 threads (nb 5...7): the S layout with the one-pass panel
 * shuffling its columns and the update on the tensor cores, on sm_90 (128
 * registers: 4 blocks an SM, as the P kernel's 102 registers and 48.4 KiB;
 * n = 92 234.6 / 235.4 -> 228.9 / 230.5 us, H200, bench/results/2026-12-04-
 * h200-chol-pipe-sweep.txt, run 5) and on the CPU (the same body); sm_80
 * keeps P (its S form updates with FFMA, which spilled on sm_90). The
 * workspace is P's (the larger) for both: the host does not know the
 * device's form */
#ifndef TILE__CHOL_P128_f64 /* 1: the P kernel everywhere (a measurement's build) */
#define TILE__CHOL_P128_f64 0
#endif
#if (TILE_ON_DEVICE && __CUDA_ARCH__ < 900) || TILE__CHOL_P128_f64
#define TILE__CHOL_KBLOCK128_f64 TILE__CHOL_KBLOCK_f64
#else
#define TILE__CHOL_KBLOCK128_f64 tile__chol_block_s1_f64
#endif
#define TILE__CHOL_KBLOCK128_f32 TILE__CHOL_KBLOCK_f32
/* the blocked kernels' block size by tile count nb = ceil(n / 16): 64
 * threads up to TILE__CHOL_BLK64_MAXNB_<type>, 128 up to
 * TILE__CHOL_BLK128_MAXNB, then 128 threads in the swizzled layout
 * (overridable for chol-rows-sweep.sh style tuning builds). f32 n = 64 on
 * 128 threads: 64.5 -> 62.0 us since the copies' unroll, f64 108.7 ->
 * 127.0 (H200, bench/results/2026-12-03-h200-chol-unroll-sweep.txt) */
#ifndef TILE__CHOL_BLK64_MAXNB_f32
#define TILE__CHOL_BLK64_MAXNB_f32 3
#endif
#ifndef TILE__CHOL_BLK64_MAXNB_f64
#define TILE__CHOL_BLK64_MAXNB_f64 4
#endif
#ifndef TILE__CHOL_BLK128_MAXNB
#define TILE__CHOL_BLK128_MAXNB 7
#endif
/* The 128-thread blocked kernels' first rounds staggered. At batch 4096 an
 * SM runs about ten rounds of three f64 nb = 8 blocks one after another,
 * and the first three start together: their copy-ins, latency-bound panels
 * and updates then coincide on the SM, and the blocks that replace them
 * start together too. Such a round took 46-51 us where the rounds past the
 * fifth, whose blocks have drifted apart, took 34 (H100, f64 n = 128:
 * rounds 1 ... 5 51.3 / 50.8 / 40.2 / 37.2 / 36.2 us, then 32-35; bench/
 * results/2026-12-06-h100-chol-stag-a4c122a.txt). So block b of the first
 * round's blocks an SM ("places") waits (b / SMs) TILE__CHOL_STAG_<type> ns
 * at its start (b / SMs: its place among its SM's blocks when the first
 * round fills the SMs in block order, as on the H100), which puts an SM's
 * blocks a fraction of a round apart from the start. f64 n = 128, batch
 * 4096, H100, this form's
 * sweep: no wait 395.9 us; 6 / 8 / 9 / 10 / 11 / 12 / 13 us 383.0 / 372.1
 * / 372.3 / 375.0 / 382.0 / 387.6 / 391.6 (the lower call 373.6 -> 359.6
 * at 8 us). A batch of one round only loses by the wait (the first sweep,
 * waiting at every batch: 396: 51.5 -> 54.9 us; 792: 102.1 -> 91.4), so it
 * needs at least two full rounds (gridDim.x >= 2 places SMs).
 * The other blocked kernels on 128 threads likewise, a place a fourth, a
 * sixth, a seventh of their rounds (TILE__CHOL_STAGS*: their blocks an
 * SM), the wait the best of one sweep at batch 4096 (H100, bench/results/
 * 2026-12-06-h100-chol-stag-bf7fb72.txt):
 * f64 n = 92 223.9 -> 210.8 us (4 us), f32 n = 128 221.6 -> 213.2 (2 us),
 * f32 n = 92 124.7 -> 116.4 (1.5 us).
 * The SMs are %nsmid (132 on the H100, as the attribute). sm_90 only, where
 * it was measured.
 * TILE__CHOL_STAG_VAR (a sweep's build): the wait from tile__chol_stag_ns,
 * a device variable the host sets (bench/chol-variants/stag.cu) */
#ifndef TILE__CHOL_STAG_f32
#define TILE__CHOL_STAG_f32 2000
#endif
#ifndef TILE__CHOL_STAG_f64
#define TILE__CHOL_STAG_f64 8000
#endif
/* the same for the 128-thread kernels of the P / S1 layouts (f32 nb 4...7,
 * f64 nb 5...7) */
#ifndef TILE__CHOL_STAG128_f32
#define TILE__CHOL_STAG128_f32 1500
#endif
#ifndef TILE__CHOL_STAG128_f64
#define TILE__CHOL_STAG128_f64 4000
#endif
/* the blocks an SM of those kernels on sm_90 (ptxas and shared memory):
 * the places a round */
#define TILE__CHOL_STAGS_f32 6
#define TILE__CHOL_STAGS_f64 3
#define TILE__CHOL_STAGS128_f32 7
#define TILE__CHOL_STAGS128_f64 4
#if TILE_CUDA && defined(TILE__CHOL_STAG_VAR)
static __device__ unsigned tile__chol_stag_ns;
#define TILE__CHOL_STAG_NS(dns) ((void)(dns), tile__chol_stag_ns)
#else
#define TILE__CHOL_STAG_NS(dns) (dns)
#endif
#if TILE_ON_DEVICE && __CUDA_ARCH__ == 900
/* block b waits (b / SMs) dns ns (0: none; a constant after inlining) */
TILE_API void tile__chol_stag(unsigned dns, unsigned places) {
    unsigned nsm, t0, t;
    if (!dns) return;
    asm("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    const unsigned s = blockIdx.x / nsm;
    if (s == 0 || s >= places || gridDim.x < 2 * places * nsm) return;
    /* the global timer's low 32 bits: differences of a few us wrap correctly */
    asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(t0));
    do {
        __nanosleep(256);
        asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(t));
    } while (t - t0 < s * dns);
}
#else
#define tile__chol_stag(dns, places) ((void)(dns), (void)(places))
#endif
#define TILE__CHOL_KERNELS(sfx, T, K, LO)                                               \
    /* n = 17..32 (the steps of tile_chol_small's two-tile path; a00 and a10   \
     * stored as soon as final, a10 staged in the group's shared tile for    \
     * the update: f64 114 registers instead of 168, one wave at batch 4096; \
     * whole warps of n = 32 staged through shared memory, tile__chol_cp32) */ \
    TILE_KERNEL(tile__chol_small_k##K##_##sfx, 128, T *a, int n, int batch, T eps, int *info) { \
        const int g = tile16_group(), m = (int)tile_block(0) * TILE16_GROUPS + g; \
        const int valid = m < batch, rows = (valid && n > 16 && n <= 32) ? n : 0; \
        T *am = rows ? a + (size_t)m * (size_t)n * (size_t)n : 0;                  \
        T *ws = (T *)tile__smem_alloc(&tile__k, (size_t)TILE16_GROUPS * 3 * TILE__CHOL_TS_##sfx * sizeof(T)); \
        if (!ws) return; /* arena overflow (raised): the whole block stops */      \
        /* the group's tiles 00, 10, 11 (10: also the update's staged a10) */    \
        T *t00 = ws + (size_t)g * 3 * TILE__CHOL_TS_##sfx, *t10 = t00 + TILE__CHOL_TS_##sfx, \
          *t11 = t10 + TILE__CHOL_TS_##sfx;                                       \
        const int stg = TILE__CHOL_STG(32, n, m, batch, a);                        \
        T *aw = stg ? a + (size_t)(m & ~1) * 1024 : 0, *sw = ws + (size_t)(g & ~1) * 3 * TILE__CHOL_TS_##sfx; \
        if (stg) tile__chol_cp32_in_##sfx(sw, aw);                                 \
        tile16_##sfx a00 = tile16_eye_##sfx(), a10 = tile16_zeros_##sfx(), a11 = tile16_eye_##sfx(); \
        if (stg) tile__chol_tld_P_##sfx(&a00, t00);                                \
        else tile16_load_##sfx(&a00, am, rows, n, 0, 16, 0, 16);                   \
        int r;                                                                     \
        TILE__CHOL_PANEL(TILE__CHOL_SMALLPN_##sfx, sfx, r, &a00, &a10, eps,         \
                         TILE__CHOL_SMALL_LT_##sfx | TILE__CHOL_FSX_SMALL_##sfx, t00, 1, \
                         if (stg) tile__chol_cp32_rest_##sfx(), tile__chol_tld_P_##sfx(&a10, t10); \
                         else tile16_load_##sfx(&a10, am, rows, n, 16, 32, 0, 16)); \
        tile__chol_zero_upper_##sfx(&a00);                                         \
        if (stg) tile__chol_tst_P_##sfx(t00, &a00);                                \
        else {                                                                     \
            tile__chol_st16d_##sfx(am, rows, n, 0, &a00, LO);                      \
            tile16_store_##sfx(am, rows, n, 16, 32, 0, 16, &a10);                  \
            a00 = tile16_zeros_##sfx(); /* the block above a11: L itself */        \
            if (!(LO)) tile16_store_##sfx(am, rows, n, 0, 16, 16, 32, &a00);       \
        }                                                                          \
        tile16_store_row16_##sfx(t10, TILE__CHOL_LD_##sfx, &a10);                  \
        tile16__sync(); /* the group's rows, written, before any lane reads them */ \
        /* L00, L10 and the zero block above a11 are final: their stores run    \
         * beside a11's update and factor */                                    \
        if (stg) tile__chol_cp32_out_##sfx(aw, sw, 0, LO);                             \
        /* a11 only now: a00, a10 and a11 never live at once (registers) */       \
        if (stg) tile__chol_tld_P_##sfx(&a11, t11);                                \
        else tile16_load_##sfx(&a11, am, rows, n, 16, 32, 16, 32);                 \
        TILE__CHOL_SYRK_##sfx(&a11, &a10, t10);                                    \
        const int i1 = tile__chol_fs_##sfx(&a11, &a11, eps, 0, TILE__CHOL_SMALL_LT_##sfx | TILE__CHOL_FSX_SMALL_##sfx, \
                                           t11, 1);                                \
        if (!r && i1) r = 16 + i1;                                                 \
        tile__chol_zero_upper_##sfx(&a11);                                         \
        if (stg) {                                                                 \
            tile__chol_tst_P_##sfx(t11, &a11);                                     \
            tile__chol_cp32_out_##sfx(aw, sw, 1, LO);                                  \
        } else                                                                     \
            tile__chol_st16d_##sfx(am, rows, n, 16, &a11, LO);                     \
        if (rows && info && tile16_lane() == 0) info[m] = r;                       \
    }                                                                              \
    /* n <= 16: one tile a half-warp, no a10 / a11 and no shuffled update:      \
     * far fewer registers than the kernel above (f64: 168), so batch 4096     \
     * (2048 warps, 15.5 an SM) is resident at once instead of in two waves;  \
     * the GPU's n = 16 of a 16-byte aligned batch: tile__chol_s16l_k below */ \
    TILE_KERNEL(tile__chol_small16_k##K##_##sfx, 128, T *a, int n, int batch, T eps, int *info) { \
        const int g = tile16_group(), m = (int)tile_block(0) * TILE16_GROUPS + g; \
        const int valid = m < batch, rows = (valid && n > 0 && n <= 16) ? n : 0;  \
        T *am = rows ? a + (size_t)m * (size_t)n * (size_t)n : 0;                  \
        T *ws = (T *)tile__smem_alloc(&tile__k, (size_t)TILE16_GROUPS * TILE__CHOL_TS_##sfx * sizeof(T)); \
        if (!ws) return; /* arena overflow (raised): the whole block stops */      \
        tile16_##sfx a00 = tile16_eye_##sfx();                                     \
        tile16_load_##sfx(&a00, am, rows, n, 0, 16, 0, 16);                        \
        const int r = tile__chol_fs_##sfx(&a00, &a00, eps, 0, 1 | TILE__CHOL_FSX_S16_##sfx, \
                                          ws + (size_t)g * TILE__CHOL_TS_##sfx, 1); \
        tile__chol_zero_upper_##sfx(&a00);                                         \
        tile__chol_st16d_##sfx(am, rows, n, 0, &a00, LO);                          \
        if (rows && info && tile16_lane() == 0) info[m] = r;                       \
    }                                                                              \
    /* n = 16, a 16-byte aligned batch, the GPU: tile__chol_s16l for every     \
     * half-warp (one past the batch reads and stores nothing) */               \
    TILE_KERNEL(tile__chol_s16l_k##K##_##sfx, 128, T *a, int batch, T eps, int *info) { \
        /* the block's linear index: tile_block(0) of this one-dimensional grid, \
         * without its division by the grid's other extents (its code sat   \
         * before the first load's address) */                                  \
        const int g = tile16_group(), m = (int)tile_block_linear() * TILE16_GROUPS + g, valid = m < batch; \
        T *ws = (T *)tile__smem_alloc(&tile__k, (size_t)TILE16_GROUPS * TILE__CHOL_TS_##sfx * sizeof(T)); \
        if (!ws) return;                                                           \
        const int r = tile__chol_s16l_##sfx(valid ? a + (size_t)m * 256 : 0, ws + (size_t)g * TILE__CHOL_TS_##sfx, eps, LO); \
        if (valid && info && tile16_lane() == 0) info[m] = r;                      \
    }                                                                              \
    /* the folded n = 16: tile__chol_s16f for every 8 lanes (16 matrices a \
     * block; a group past the batch reads and stores nothing) */            \
    TILE_KERNEL(tile__chol_s16f_k##K##_##sfx, 128, T *a, int batch, T eps, int *info) { \
        const int g = (int)(tile_thread() >> 3), m = (int)tile_block_linear() * 16 + g, valid = m < batch; \
        T *ws = (T *)tile__smem_alloc(&tile__k, (size_t)16 * TILE__CHOL_TS16F_##sfx * sizeof(T)); \
        if (!ws) return;                                                           \
        const int r = tile__chol_s16f_##sfx(valid ? a + (size_t)m * 256 : 0, ws + (size_t)g * TILE__CHOL_TS16F_##sfx, eps, LO); \
        if (valid && info && (tile_thread() & 7) == 0) info[m] = r;                \
    }                                                                              \
    TILE_KERNEL_SMEM_BOUNDS(tile__chol_blk64_k##K##_##sfx, 64, 0, TILE__CHOL_MINB64_##sfx, T *a, int n, T eps, int *info) { \
        const int m = (int)tile_block(0);                                          \
        void *ws = tile__smem_alloc(&tile__k, TILE__CHOL_WS_BYTES_##sfx(n));       \
        const int r = TILE__CHOL_KBLOCK_##sfx(ws, a + (size_t)m * (size_t)n * (size_t)n, n, eps, TILE16_GROUPS, TILE__CHOL_BLK64_MAXNB_##sfx, LO); \
        if (info && tile_thread() == 0) info[m] = r;                               \
    }                                                                              \
    TILE_KERNEL_SMEM_BOUNDS(tile__chol_blk128_k##K##_##sfx, 128, 0, TILE__CHOL_MINB128_##sfx, T *a, int n, T eps, int *info) { \
        const int m = (int)tile_block(0);                                          \
        tile__chol_stag(TILE__CHOL_STAG_NS(TILE__CHOL_STAG128_##sfx), TILE__CHOL_STAGS128_##sfx); \
        void *ws = tile__smem_alloc(&tile__k, TILE__CHOL_WS_BYTES_##sfx(n));       \
        const int r = TILE__CHOL_KBLOCK128_##sfx(ws, a + (size_t)m * (size_t)n * (size_t)n, n, eps, TILE16_GROUPS, TILE__CHOL_BLK128_MAXNB, LO); \
        if (info && tile_thread() == 0) info[m] = r;                               \
    }                                                                              \
    /* nb = 8: the swizzled layout (above) */                                     \
    TILE_KERNEL(tile__chol_blk128s_k##K##_##sfx, 128, T *a, int n, T eps, int *info) {  \
        const int m = (int)tile_block(0);                                          \
        tile__chol_stag(TILE__CHOL_STAG_NS(TILE__CHOL_STAG_##sfx), TILE__CHOL_STAGS_##sfx); /* above */ \
        void *ws = tile__smem_alloc(&tile__k, TILE__CHOL_WSB(S, sfx, T, n));        \
        const int r = tile__chol_block_s_##sfx(ws, a + (size_t)m * (size_t)n * (size_t)n, n, eps, TILE16_GROUPS, TILE_CHOL_MAX_N / 16, LO); \
        if (info && tile_thread() == 0) info[m] = r;                               \
    }
/* the batched solve's kernel (one for both calls) */
#define TILE__CHOL_SOLVE_KERNEL(sfx, T) \
    TILE_KERNEL(tile__chol_solve_k_##sfx, 128, const T *l, T *b, int n, int nrhs, int batch, int nchunk, int bwd) { \
        const int task = (int)tile_block(0) * TILE16_GROUPS + tile16_group();      \
        const int m = task / nchunk, c = task % nchunk, valid = m < batch;         \
        const T *lm = valid ? l + (size_t)m * (size_t)n * (size_t)n : 0;          \
        T *bm = valid ? b + (size_t)m * (size_t)n * (size_t)nrhs : 0;             \
        if (bwd) tile__chol_bwd_w_##sfx(lm, bm, n, nrhs, 16 * c);                 \
        else tile__chol_fwd_w_##sfx(lm, bm, n, nrhs, 16 * c);                     \
    }
/* the kernels of the default calls (L with zeros above the diagonal) and of
 * the lower calls (_lo: the strictly upper triangle untouched) */
TILE__CHOL_KERNELS(f32, float, , 0)
TILE__CHOL_KERNELS(f64, double, , 0)
TILE__CHOL_KERNELS(f32, float, _lo, 1)
TILE__CHOL_KERNELS(f64, double, _lo, 1)
TILE__CHOL_SOLVE_KERNEL(f32, float)
TILE__CHOL_SOLVE_KERNEL(f64, double)
/* ---- the warp solve: one warp a (matrix, right-hand-side column) ----
 * For few right-hand sides the tile solve above pads each to 16 columns,
 * reads L^T's tiles by columns and divides on its chain. This one reads L
 * by rows, whole lines a warp:
 *   forward, L y = b: y_i = (b_i - sum_{k<i} l_ik y_k) / l_ii, lane v taking
 *   k = v, v + 32, ... (row i's elements, consecutive across the lanes),
 *   the sum by a butterfly over the warp (every lane gets it), lane i % 32
 *   keeping y_i;
 *   backward, L^T x = y, row i of L from the last: x_i = y_i / l_ii, sent to
 *   every lane, then y_k -= l_ik x_i for k < i (row i again: the same lines).
 * Lane v holds y (then x) at rows 32 K + v, K < 4, and 1 / l_ii of those
 * rows (computed before the passes, off the chain). Only the lower triangle
 * is read: an element right of the diagonal never reaches the arithmetic.
 * A row's loads do not depend on the chain, so the unrolled rows' loads run
 * ahead of it. The same code runs on the CPU with the warp's 32 lanes in one
 * thread (VL = 32): the products as explicit fma and the butterfly in the
 * same order, so the two targets give the same bits.
 * Hooks: LANE(v) the lane of slot v, SUM(p) p[v] = the sum over the warp in
 * every slot (T its type), BCAST(a, j) a[slot of lane j] in every lane, FMA fmaf / fma,
 * UNR the rows' unroll pragma. */
#define TILE__CHOL_WS_DEF(NAME, T, VL, LANE, SUM, BCAST, FMA, UNR)                        \
    TILE_API void NAME(const T *l, T *b, int n, int nrhs, int c) {                        \
        T y[4][VL], r[4][VL];                                                             \
        TILE__UNROLL for (int K = 0; K < 4; ++K) {                                        \
            for (int v = 0; v < VL; ++v) {                                                \
                const int row = 32 * K + LANE(v), ok = row < n;                           \
                y[K][v] = ok ? b[(size_t)row * (size_t)nrhs + (size_t)c] : (T)0;          \
                r[K][v] = ok ? (T)1 / l[row * n + row] : (T)0;                            \
            }                                                                             \
        }                                                                                 \
        TILE__UNROLL for (int I = 0; I < 4; ++I) {                                        \
            const int jn = n - 32 * I < 32 ? n - 32 * I : 32; /* rows of block I */      \
            UNR for (int j = 0; j < jn; ++j) {                                            \
                const int i = 32 * I + j;                                                 \
                T p[VL];                                                                  \
                for (int v = 0; v < VL; ++v) {                                            \
                    p[v] = (T)0;                                                          \
                    TILE__UNROLL for (int K = 0; K <= I; ++K) {                           \
                        const int k = 32 * K + LANE(v);                                   \
                        if (k < i) p[v] = FMA(l[i * n + k], y[K][v], p[v]);               \
                    }                                                                     \
                }                                                                         \
                SUM(T, p);                                                                \
                for (int v = 0; v < VL; ++v)                                              \
                    if (LANE(v) == j) y[I][v] = (y[I][v] - p[v]) * r[I][v];               \
            }                                                                             \
        }                                                                                 \
        TILE__UNROLL for (int I = 3; I >= 0; --I) {                                       \
            const int jn = n - 32 * I < 32 ? n - 32 * I : 32;                             \
            UNR for (int j = jn - 1; j >= 0; --j) {                                       \
                const int i = 32 * I + j;                                                 \
                for (int v = 0; v < VL; ++v)                                              \
                    if (LANE(v) == j) y[I][v] = y[I][v] * r[I][v];                        \
                const T xi = BCAST(y[I], j);                                              \
                for (int v = 0; v < VL; ++v) {                                            \
                    TILE__UNROLL for (int K = 0; K <= I; ++K) {                           \
                        const int k = 32 * K + LANE(v);                                   \
                        if (k < i) y[K][v] = FMA(-l[i * n + k], xi, y[K][v]);             \
                    }                                                                     \
                }                                                                         \
            }                                                                             \
        }                                                                                 \
        TILE__UNROLL for (int K = 0; K < 4; ++K)                                          \
            for (int v = 0; v < VL; ++v) {                                                \
                const int row = 32 * K + LANE(v);                                         \
                if (row < n) b[(size_t)row * (size_t)nrhs + (size_t)c] = y[K][v];         \
            }                                                                             \
    }
/* the library's hooks: on the GPU a lane a thread (whole warps: the kernel's
 * blocks are 128 threads), on the CPU the 32 lanes in one thread */
#if TILE_ON_DEVICE
#define TILE__CHOL_WS_VL 1
#define TILE__CHOL_WS_LANE(v) ((int)(threadIdx.x & 31u) + 0 * (v))
#define TILE__CHOL_WS_SUM(T, p) \
    TILE__UNROLL for (int o_ = 16; o_ > 0; o_ >>= 1) (p)[0] += __shfl_xor_sync(0xffffffffu, (p)[0], o_)
#define TILE__CHOL_WS_BCAST(a, j) __shfl_sync(0xffffffffu, (a)[0], (j))
/* the rows' loop unrolled by 8 (H100, one round each: the solve alone 1-5 %
 * faster than by 4 at nrhs 1, 6-7 % at nrhs 4, N = 128; by 2 slower; 64
 * registers f64, 0 spills; bench/results/2026-12-06-h100-chol-solve-8bf850c.txt) */
#ifndef TILE__CHOL_WS_UNROLL
#define TILE__CHOL_WS_UNROLL _Pragma("unroll 8")
#endif
#else
#define TILE__CHOL_WS_VL 32
#define TILE__CHOL_WS_LANE(v) (v)
#define TILE__CHOL_WS_SUM(T, p)                                                    \
    for (int o_ = 16; o_ > 0; o_ >>= 1) /* lanes v and v ^ o: the shuffle's sum */  \
        for (int v_ = 0; v_ < 32; ++v_)                                             \
            if (!(v_ & o_)) {                                                       \
                const T s_ = (p)[v_] + (p)[v_ ^ o_];                                \
                (p)[v_] = (p)[v_ ^ o_] = s_;                                        \
            }
#define TILE__CHOL_WS_BCAST(a, j) ((a)[j])
#define TILE__CHOL_WS_UNROLL
#endif
/* one warp a (matrix, column) task; 4 tasks a 128-thread block on the GPU,
 * one a block on the CPU; the columns of a matrix are neighbouring tasks, so
 * a block's warps read the same lines of L */
#define TILE__CHOL_WS_KERNEL(sfx, T, FMA)                                                          \
    TILE__CHOL_WS_DEF(tile__chol_wsolve_##sfx, T, TILE__CHOL_WS_VL, TILE__CHOL_WS_LANE, TILE__CHOL_WS_SUM, \
                      TILE__CHOL_WS_BCAST, FMA, TILE__CHOL_WS_UNROLL)                             \
    TILE_KERNEL(tile__chol_wsolve_k_##sfx, 128, const T *l, T *b, int n, int nrhs, int batch) {    \
        const int wpb = TILE_BLOCK_DIM >= 32 ? TILE_BLOCK_DIM / 32 : 1;                          \
        const long long task = (long long)tile_block(0) * wpb + tile_thread() / 32;              \
        const long long m = task / nrhs;                                                         \
        if (m >= batch) return; /* a whole warp */                                               \
        tile__chol_wsolve_##sfx(l + (size_t)m * (size_t)n * (size_t)n, b + (size_t)m * (size_t)n * (size_t)nrhs, n, \
                                nrhs, (int)(task % nrhs));                                       \
    }
TILE__CHOL_WS_KERNEL(f32, float, fmaf)
TILE__CHOL_WS_KERNEL(f64, double, fma)

/* ---- the rows kernels (GPU fast path for 32 < n <= 128) ----
 * One thread owns one row of the matrix padded to NP (64, 96, 128) with the
 * identity, in registers (x[], every index a compile-time constant: all
 * loops over steps and columns are unrolled, one instantiation per NP and
 * type). Right-looking, one barrier a step: at step k the owner of column k
 * publishes its a_ik in a double-buffered shared column (the other buffer
 * is the one still read by step k - 1, and every write to it happens after
 * the step's barrier that follows those reads); after the barrier each
 * thread reads r = 1 / d_k (published), f_i = a_ik r, and updates
 * A_ij -= f_i a_jk for its columns j > k (a_jk: broadcast 16-byte loads from
 * the shared column, the same address in every lane; f_i a_jk = l_ik l_jk).
 * The pivot d_{k+1} = a_{k+1,k+1} - a_{k+1,k}^2 / d_k is known during step k
 * to the lane of row k+1 (its own registers and the column): that warp
 * alone computes the info, the clamp, 1 / d, 1 / sqrt(d) and l_kk and
 * publishes them, so the chain from one barrier to the next is a shared
 * load, a multiply, an FMA and a shared store. x keeps a_ik unscaled; the
 * store multiplies by 1 / sqrt(d_k) (what tile16_chol divides by).
 * A warp's rows end at 32 w + 31: columns past that are its strictly upper
 * triangle and are skipped (a warp-uniform branch per 32 columns), and a
 * warp whose rows are all <= k only takes the barriers.
 * Where a row does not fit the registers well (f64 at NP = 96 / 128: 192 /
 * 256 registers of values; f32 at NP = 128), columns are split at C = 64:
 * threads 0 .. NP-1 hold columns 0 .. 63 of every row, threads NP ..
 * 2 NP - C - 1 columns 64 .. NP-1 of rows 64 .. NP-1 (rows < 64 have none
 * there); a thread that does not own column k reads a_ik from the shared
 * column. The strictly upper triangle is never read (loaded chunks are
 * masked with selects: NaN there cannot leak) and rows are stored whole: L's
 * lower triangle and zeros past the diagonal. Steps k >= n are skipped. */
/* TILE_CHOL_ROWS: 1 (default) the rows kernels where they were measured
 * faster than the blocked ones (n <= TILE__CHOL_ROWS_MAXN_<type>), 2 the
 * rows kernels for every 32 < n <= 128, 0 never. H200, batch 4096 (bench/
 * results/2026-11-28-h200-linalg-bbcd86d-bench.txt), rows / blocked: f32
 * 135 / 161 us at n = 64, 513 / 304 at 92, 987 / 543 at 128; f64 317 / 262
 * at 64, 975 / 649 at 92, 2173 / 1380 at 128: the rows kernels won at f32
 * n <= 64 only (their per-step chain of n barriers grows with n while the
 * blocked kernels take n / 16 steps), and no longer there since the blocked
 * panel's one-pass factor + solve (dd884c0: 129.7 / 135.4 us at f32 n = 64,
 * bench/results/2026-11-29-h200-chol-lookahead-dd884c0-bench.txt). */
#ifndef TILE_CHOL_ROWS
#define TILE_CHOL_ROWS 1
#endif
#define TILE__CHOL_ROWS_MAXN_f32 0
#define TILE__CHOL_ROWS_MAXN_f64 0
/* does path (0 / 1 / 2, as TILE_CHOL_ROWS) take the rows kernels at n? */
#define TILE__CHOL_ROWS_AT(sfx, n, path) \
    ((n) > 32 && ((path) == 2 || ((path) == 1 && (n) <= TILE__CHOL_ROWS_MAXN_##sfx)))
/* the path (0 blocked / 2 rows) the default does not take at n: what
 * chol_bench times and chol_test compares beside the default */
#define TILE__CHOL_OTHER_PATH(sfx, n) (TILE__CHOL_ROWS_AT(sfx, n, TILE_CHOL_ROWS) ? 0 : 2)
/* column split C of the rows kernels for type and NP (C == NP: whole rows) */
#define TILE__CHOL_RC_f32_64 64
#define TILE__CHOL_RC_f32_96 96
#define TILE__CHOL_RC_f32_128 64
#define TILE__CHOL_RC_f64_64 64
#define TILE__CHOL_RC_f64_96 64
#define TILE__CHOL_RC_f64_128 64
#define TILE__CHOL_RBLOCK(NP, C) (2 * (NP) - (C))
/* The shared block of a rows kernel (elements of T): the column, double-
 * buffered (2 NP), 1 / sqrt(d_k) and d_k (then l_kk = sqrt(d_k)) for every step (NP
 * each), 1 / d_k double-buffered (2, + 2 to keep 16 bytes), then 32 bytes:
 * the info (int), the matrix's address and the info's (these two rest in
 * shared memory from the load to the store: held in registers across the
 * steps they made f32 NP = 128 spill at 168, the cap for 3 blocks an SM) */
#define TILE__CHOL_RCB_BYTES(T, NP) ((4 * (NP) + 4) * sizeof(T) + 32)
/* resident blocks an SM asked of ptxas (__launch_bounds__; 0: its choice).
 * Registers (sm_90, ptxas -v) and blocks = matrices an SM in flight:
 *   f32 NP = 64: 98 (9), NP = 96: 131 (5), NP = 128 (C = 64, 192 threads):
 *   131 (2; whole rows took 171, also 2, and spilled 8 bytes when capped at
 *   168 for 3; capped for 3 blocks of 192 threads ptxas allows 96: spills);
 *   f64 NP = 64: 168 unbounded (6; capped at 168 it spilled), NP = 96 / 128
 *   (C = 64): capped at 168, 0 spills (3 / 2; unbounded 216 / 246) */
#define TILE__CHOL_RMINB_f32_64 0
#define TILE__CHOL_RMINB_f32_96 0
#define TILE__CHOL_RMINB_f32_128 0
#define TILE__CHOL_RMINB_f64_64 0
#define TILE__CHOL_RMINB_f64_96 3
#define TILE__CHOL_RMINB_f64_128 2

/* The step and kernel-body macros below are defined on both targets (a
 * macro costs nothing until expanded): the library expands them on the
 * device only, and tests/cpu/test_chol_rows_sim.c expands them on the CPU
 * under a simulated block (one coroutine a GPU thread, barriers, reordered
 * threads) to check the device code's logic without a GPU. */
#ifndef TILE__CHOL_RG_f32_64
#define TILE__CHOL_RG_f32_64 8
#endif
#ifndef TILE__CHOL_RG_f32_96
#define TILE__CHOL_RG_f32_96 8
#endif
#ifndef TILE__CHOL_RG_f32_128
#define TILE__CHOL_RG_f32_128 4
#endif
#ifndef TILE__CHOL_RG_f64_64
#define TILE__CHOL_RG_f64_64 2
#endif
#ifndef TILE__CHOL_RG_f64_96
#define TILE__CHOL_RG_f64_96 4
#endif
#ifndef TILE__CHOL_RG_f64_128
#define TILE__CHOL_RG_f64_128 4
#endif
/* A_ij -= f a_jk for the thread's columns j in (k, 32 rw + 31], those of
 * [LO, HI) (x index j - LO), in groups of G columns: group g + 1's shared
 * loads issue before group g's FMAs, and the empty asm (a compiler-only
 * memory fence) keeps later groups' loads below it: without it the compiler
 * hoisted a whole step's loads (f32 NP = 64: 149 registers, f64 spilled) */
#define TILE__CHOL_ROWS_UPD(sfx, T, LO, HI)                                                        \
    TILE__UNROLL for (int s = (LO) / 32; s < (HI) / 32; ++s) {                                     \
        if (32 * s + 31 > k && s <= rw) {                                                          \
            const int j00 = ((k + 1) / VW) * VW, js = 32 * s > j00 ? 32 * s : j00, je = 32 * s + 32; \
            T cur[G], nxt[G];                                                                      \
            TILE__UNROLL for (int e = 0; e < G; e += VW) if (js + e < je) tile__chol_vld_##sfx(cur + e, ck + js + e); \
            TILE__UNROLL for (int g0 = js; g0 < je; g0 += G) {                                     \
                TILE__UNROLL for (int e = 0; e < G; e += VW)                                       \
                    if (g0 + G + e < je) tile__chol_vld_##sfx(nxt + e, ck + g0 + G + e);           \
                asm volatile("" ::: "memory");                                                     \
                TILE__UNROLL for (int e = 0; e < G; ++e)                                           \
                    if (g0 + e > k && g0 + e < je) x[g0 + e - (LO)] -= f * cur[e];                 \
                TILE__UNROLL for (int e = 0; e < G; ++e) if (g0 + G + e < je) cur[e] = nxt[e];     \
            }                                                                                      \
        }                                                                                          \
    }
/* pivot K1 = k + 1 from step k's values: d_{k+1} = a_{k+1,k+1} - a_{k+1,k}^2 /
 * d_k (dg: a_{k+1,k+1} before step k's update; c = a_{k+1,k}; rr = 1 / d_k),
 * computed by the warp that holds row k+1 (its lane k+1 writes) during step
 * k, off the chain step k+1 waits on; the info, 1 / d and d (clamped) go
 * to shared memory */
#define TILE__CHOL_ROWS_PIVOT(sfx, T, K1, dg, c, rr)                                              \
    do {                                                                                          \
        const T tile__dr = fma(-((c) * (rr)), (c), (dg));                                         \
        const T tile__d = TILE__CHOL_CLAMP(T, tile__dr);                                          \
        const T tile__r = tile__chol_rcp_##sfx(tile__d);                                          \
        if (i == (K1)) {                                                                          \
            if (!(tile__dr > (T)0) && *sinfo == 0) *sinfo = (K1) + 1;                             \
            rrb[(K1) & 1] = tile__r;                                                              \
            lkb[K1] = tile__d; /* 1 / sqrt(d), l_kk: after the steps (off this chain) */          \
        }                                                                                         \
    } while (0)
/* steps K0 .. K1-1 (loops of 16 steps: fully unrolled; one loop of 96 or
 * 128 steps, and 32-step loops at NP = 128, exceeded the compiler's unroll
 * budget and left x[] in local memory). A warp whose rows are all <= k has
 * nothing left to do but the barriers (so has a thread's left part at
 * k >= C - 1): each step costs only the warps that still update. */
#define TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, K0, K1)                                              \
        TILE__UNROLL for (int k = (K0); k < ((K1) < (NP) ? (K1) : (NP)); ++k) {                    \
            if (k < n) { /* block-uniform: steps past n are the identity's */                     \
            T *ck = cb + (k & 1) * (NP);                                                          \
            const int own = k < (C) ? !right : right, kx = k < (C) ? k : k - (C);                 \
            /* warp-uniform: rows past k publish column k; updates need columns past k */        \
            const int act = 32 * rw + 31 > k && (right || k < (C) - 1);                           \
            if (own && 32 * rw + 31 > k) ck[i] = x[kx];                                           \
            tile_barrier();                                                                       \
            if (act) {                                                                            \
                const T rr = rrb[k & 1];                                                          \
                const T f = (own ? x[kx] : ck[i]) * rr; /* l_ik l_jk = f a_jk */                  \
                if (k + 1 < (NP) && k + 1 < n && rw == ((k + 1) >> 5) &&                          \
                    (k + 1 < (C) ? !right : right)) {                                             \
                    const int kx1 = k + 1 >= (NP) ? 0 : k + 1 < (C) ? k + 1 : k + 1 - (C);       \
                    TILE__CHOL_ROWS_PIVOT(sfx, T, k + 1, x[kx1], ck[k + 1], rr);                   \
                }                                                                                 \
                if (!right) {                                                                     \
                    TILE__CHOL_ROWS_UPD(sfx, T, 0, C)                                             \
                } else {                                                                          \
                    TILE__CHOL_ROWS_UPD(sfx, T, C, NP)                                            \
                }                                                                                 \
            }                                                                                     \
            }                                                                                     \
        }

#define TILE__CHOL_ROWS_DEF(sfx, T, NP, C, sqrtfn)                                                \
    TILE__STATIC_ASSERT((C) % 32 == 0 && (NP) % 32 == 0 && (NP) - (C) <= (C),                    \
                        "tile_chol rows kernel: bad column split");                              \
    /* the block (2 NP - C threads) factors the n x n matrix at a (n <= NP)                       \
     * using cb (TILE__CHOL_RCB_BYTES(T, NP) bytes of shared memory, 16-byte \
     * aligned); returns the info in every thread, and thread 0 writes it   \
     * to *infop (infop may be NULL) */                                       \
    TILE_API int tile__chol_rows##NP##_##sfx(T *cb, T *a, int n, T eps, int *infop) {             \
        enum { VW = TILE__CHOL_VW_##sfx, RW = (NP) - (C), G = TILE__CHOL_RG_##sfx##_##NP };                                       \
        const int t = tile_thread();                                                              \
        const int right = RW > 0 && t >= (NP); /* warp-uniform: NP, C multiples of 32 */         \
        const int i = right ? t - (NP) + (C) : t;                                                 \
        const int rw = i >> 5, lo = right ? (C) : 0, width = right ? RW : (C);                   \
        const int vec = (n % VW) == 0 && ((uintptr_t)a & 15u) == 0;                              \
        T *ar = a + (size_t)(i < n ? i : 0) * (size_t)n;                                          \
        /* the address rests in shared memory from here to the store (re-read \
         * after the barriers): live across the steps it spilled (f32 NP = 128) */ \
        T *rsb = cb + 2 * (NP), *lkb = cb + 3 * (NP), *rrb = cb + 4 * (NP);                       \
        int *sinfo = (int *)(cb + 4 * (NP) + 4);                                                  \
        T **pa = (T **)(sinfo + 2);                                                               \
        int **pi = (int **)(sinfo + 4);                                                           \
        T x[C];                                                                                   \
        /* load: the lower triangle of the row, the identity past n */                            \
        TILE__UNROLL for (int q = 0; q < (C) / VW; ++q) {                                         \
            const int c0 = lo + q * VW;                                                           \
            T v[VW];                                                                              \
            TILE__UNROLL for (int e = 0; e < VW; ++e) v[e] = (T)0;                                \
            if (q * VW < width && i < n && c0 <= i) {                                             \
                if (vec) tile__chol_vld_##sfx(v, ar + c0); /* n % VW == 0: inside the row */     \
                else TILE__UNROLL for (int e = 0; e < VW; ++e) if (c0 + e <= i) v[e] = ar[c0 + e]; \
            }                                                                                     \
            TILE__UNROLL for (int e = 0; e < VW; ++e) {                                           \
                const int c = c0 + e;                                                             \
                x[q * VW + e] = c < i ? v[e] : c == i ? (i < n ? v[e] : (T)1) : (T)0;             \
            }                                                                                     \
        }                                                                                         \
        if (t == 0) { /* pivot 0 (row 0 is thread 0's), published by step 0's barrier */          \
            *pa = a;                                                                              \
            *pi = infop;                                                                          \
            *sinfo = 0;                                                                           \
            TILE__CHOL_ROWS_PIVOT(sfx, T, 0, x[0], (T)0, (T)0);                                   \
        }                                                                                         \
        TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, 0, 16)                                     \
        TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, 16, 32)                                    \
        TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, 32, 48)                                    \
        TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, 48, 64)                                    \
        TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, 64, 80)                                    \
        TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, 80, 96)                                    \
        TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, 96, 112)                                   \
        TILE__CHOL_ROWS_STEPS(sfx, T, NP, C, 112, 128)                                  \
        /* 1 / sqrt(d_i) and l_ii by the owner of each diagonal, one each */                      \
        if (i < n && (i < (C) ? !right : right)) {                                               \
            const T tile__d = lkb[i], tile__rs = tile__chol_rsqrt_##sfx(tile__d);                \
            rsb[i] = tile__rs;                                                                    \
            lkb[i] = tile__d * tile__rs;                                                          \
        }                                                                                         \
        tile_barrier();                                                                           \
        /* store: whole rows, zeros past the diagonal */                                          \
        ar = *pa + (size_t)(i < n ? i : 0) * (size_t)n;                                           \
        if (i < n) {                                                                              \
            const T lii = lkb[i];                                                                 \
            TILE__UNROLL for (int q = 0; q < (C) / VW; ++q) {                                     \
                const int c0 = lo + q * VW;                                                       \
                if (q * VW < width && c0 < n) {                                                   \
                    T v[VW], rs[VW]; /* l_ic = a_ic / sqrt(d_c): scaled only now */               \
                    tile__chol_vld_##sfx(rs, rsb + c0);                                           \
                    TILE__UNROLL for (int e = 0; e < VW; ++e)                                     \
                        v[e] = c0 + e < i ? x[q * VW + e] * rs[e] : c0 + e == i ? lii : (T)0;     \
                    if (vec) tile__chol_vst_##sfx(ar + c0, v);                                    \
                    else TILE__UNROLL for (int e = 0; e < VW; ++e) if (c0 + e < n) ar[c0 + e] = v[e]; \
                }                                                                                 \
            }                                                                                     \
            if (RW > 0 && !right && i < (C)) { /* rows < C: zeros in columns C .. n-1 */          \
                TILE__UNROLL for (int q = 0; q < (RW > 0 ? RW : 1) / VW; ++q) {                   \
                    const int c0 = (C) + q * VW;                                                  \
                    T v[VW];                                                                      \
                    TILE__UNROLL for (int e = 0; e < VW; ++e) v[e] = (T)0;                        \
                    if (c0 < n) {                                                                 \
                        if (vec) tile__chol_vst_##sfx(ar + c0, v);                                \
                        else TILE__UNROLL for (int e = 0; e < VW; ++e) if (c0 + e < n) ar[c0 + e] = v[e]; \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        const int info = *sinfo; /* final since the last step's barrier */                       \
        if (t == 0 && *pi) **pi = info;                                                           \
        return info;                                                                              \
    }
#define TILE__CHOL_ROWS_DEF2(sfx, T, NP, sqrtfn) TILE__CHOL_ROWS_DEF(sfx, T, NP, TILE__CHOL_RC_##sfx##_##NP, sqrtfn)
/* the six instantiations (the device here; test_chol_rows_sim.c on the CPU) */
#define TILE__CHOL_ROWS_DEF_ALL()                  \
    TILE__CHOL_ROWS_DEF2(f32, float, 64, sqrtf)    \
    TILE__CHOL_ROWS_DEF2(f32, float, 96, sqrtf)    \
    TILE__CHOL_ROWS_DEF2(f32, float, 128, sqrtf)   \
    TILE__CHOL_ROWS_DEF2(f64, double, 64, sqrt)    \
    TILE__CHOL_ROWS_DEF2(f64, double, 96, sqrt)    \
    TILE__CHOL_ROWS_DEF2(f64, double, 128, sqrt)
/* ---- the warp kernel (f32, 32 < n <= 64; a candidate: path 3) ----
 * One warp factors one matrix, so a step needs no block barrier: lane l
 * holds row l (columns 0..31, x0) and row l + 32 (columns 0..63, x1) in
 * registers, the identity past n, and the steps are the rows kernels'
 * (right-looking; the pivot lookahead by the lane of row k + 1; x keeps
 * a_ik unscaled and the store scales by 1 / sqrt(d)) with __syncwarp
 * (TILE__CHOL_WSYNC) for the barrier. Each broadcast 16-byte load of the
 * column serves both rows of a lane while k < 32 (8 FMAs a load instead of
 * 4), and a step's other work (publish, pivot, tests) is paid once for two
 * rows. ncu on the rows kernel (f32 n = 64, 2 warps a matrix, 96
 * registers): 9.4 k warp instructions a matrix, 29 % FFMAs, 14 % of the
 * stall samples at the block barrier. Here: 32 threads, the x registers
 * 96 (row l has nothing past column 31). Shared (floats, a warp's own
 * TILE__CHOL_W64_FLOATS): the column twice (128), d_k then l_kk (64),
 * 1 / sqrt(d_k) (64), 1 / d_k twice (2), the info word, padding. */
#define TILE__CHOL_W64_FLOATS 264
#define TILE__CHOL_W64_GROUP(k, j0, j1)                                                           \
    TILE__UNROLL for (int g = (j0); g < (j1); g += 4) {                                          \
        float v[4];                                                                               \
        tile__chol_vld_f32(v, ck + g);                                                            \
        TILE__UNROLL for (int e = 0; e < 4; ++e) {                                                \
            if (g + e > (k)) {                                                                    \
                if (g + e < 32) x0[(g + e) & 31] -= f0 * v[e];                                    \
                x1[g + e] -= f1 * v[e];                                                           \
            }                                                                                     \
        }                                                                                         \
    }
#define TILE__CHOL_WARP64_DEF()                                                                   \
    TILE_API int tile__chol_warp64_f32(float *cb, float *a, int n, float eps, int *infop) {       \
        const int l = tile_thread() & 31;                                                         \
        float *lkb = cb + 128, *rsb = cb + 192, *rrb = cb + 256;                                  \
        int *sinfo = (int *)(cb + 260);                                                           \
        const int vec = (n % 4) == 0 && ((uintptr_t)a & 15u) == 0;                                \
        float x0[32], x1[64];                                                                     \
        /* load: the lower triangle of rows l and l + 32, the identity past n */                  \
        TILE__UNROLL for (int q = 0; q < 16; ++q) {                                               \
            TILE__UNROLL for (int r = 0; r < 2; ++r) {                                            \
                const int i = l + 32 * r, c0 = 4 * q;                                             \
                if (r == 0 && q >= 8) continue;                                                   \
                float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};                                            \
                if (i < n && c0 <= i) {                                                           \
                    const float *ar = a + (size_t)i * (size_t)n;                                  \
                    if (vec) tile__chol_vld_f32(v, ar + c0);                                      \
                    else TILE__UNROLL for (int e = 0; e < 4; ++e) if (c0 + e <= i) v[e] = ar[c0 + e]; \
                }                                                                                 \
                TILE__UNROLL for (int e = 0; e < 4; ++e) {                                        \
                    const int c = c0 + e;                                                         \
                    const float y = c < i ? v[e] : c == i ? (i < n ? v[e] : 1.0f) : 0.0f;        \
                    if (r == 0) x0[c & 31] = y;                                                   \
                    else x1[c] = y;                                                               \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        if (l == 0) { /* pivot 0, published by step 0's sync */                                   \
            const int i = 0;                                                                      \
            *sinfo = 0;                                                                           \
            TILE__CHOL_ROWS_PIVOT(f32, float, 0, x0[0], 0.0f, 0.0f);                              \
        }                                                                                         \
        TILE__UNROLL for (int k = 0; k < 64; ++k) {                                               \
            if (k < n) {                                                                          \
                float *ck = cb + (k & 1) * 64;                                                    \
                if (k < 32) ck[l] = x0[k & 31];                                                   \
                ck[l + 32] = x1[k];                                                               \
                TILE__CHOL_WSYNC();                                                               \
                const float rr = rrb[k & 1];                                              \
                const float f0 = k < 32 ? x0[k & 31] * rr : 0.0f, f1 = x1[k] * rr;               \
                if (k + 1 < n) { /* pivot k + 1 (row i's lane writes), before this update */    \
                    const int i = k + 1 < 32 ? l : l + 32;                                        \
                    TILE__CHOL_ROWS_PIVOT(f32, float, k + 1, k + 1 < 32 ? x0[(k + 1) & 31] : x1[(k + 1) & 63], \
                                          ck[(k + 1) & 63], rr);                                  \
                }                                                                                 \
                TILE__CHOL_W64_GROUP(k, ((k + 1) / 4) * 4, 64)                                    \
            }                                                                                     \
        }                                                                                         \
        /* 1 / sqrt(d_i) and l_ii for the lane's two rows */                                      \
        TILE__UNROLL for (int r = 0; r < 2; ++r) {                                                \
            const int i = l + 32 * r;                                                             \
            if (i < n) {                                                                          \
                const float d = lkb[i], rs = tile__chol_rsqrt_f32(d);                             \
                rsb[i] = rs;                                                                      \
                lkb[i] = d * rs;                                                                  \
            }                                                                                     \
        }                                                                                         \
        TILE__CHOL_WSYNC();                                                                       \
        /* store: whole rows, zeros past the diagonal; each chunk of 1 / sqrt(d) \
         * is read once for both rows */                                                          \
        TILE__UNROLL for (int q = 0; q < 16; ++q) {                                               \
            const int c0 = 4 * q;                                                                 \
            if (c0 < n) {                                                                         \
                float rs[4];                                                                      \
                tile__chol_vld_f32(rs, rsb + c0);                                                 \
                TILE__UNROLL for (int r = 0; r < 2; ++r) {                                        \
                    const int i = l + 32 * r;                                                     \
                    if (i < n) {                                                                  \
                        float *ar = a + (size_t)i * (size_t)n, v[4];                              \
                        TILE__UNROLL for (int e = 0; e < 4; ++e) {                                \
                            const int c = c0 + e;                                                 \
                            const float xv = r == 0 ? (c < 32 ? x0[c & 31] : 0.0f) : x1[c];       \
                            v[e] = c < i ? xv * rs[e] : c == i ? lkb[i] : 0.0f;                   \
                        }                                                                         \
                        if (vec) tile__chol_vst_f32(ar + c0, v);                                  \
                        else TILE__UNROLL for (int e = 0; e < 4; ++e) if (c0 + e < n) ar[c0 + e] = v[e]; \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        const int info = *sinfo; /* final since the last step's sync */                          \
        if (l == 0 && infop) *infop = info;                                                       \
        return info;                                                                              \
    }
#if TILE_ON_DEVICE
TILE__CHOL_ROWS_DEF_ALL()
/* The kernels' shared block as a static __shared__ array (CUDA-only, as
 * everything in this branch): its address is a link-time constant, so the
 * shared accesses use immediate addresses and no register holds the base
 * (the arena's pointer cost the register that made f32 NP = 128 spill at
 * 168, the cap for 3 blocks an SM) */
#define TILE__CHOL_ROWS_SMEM_DEF(sfx, T, NP)                                                      \
    TILE_API T *tile__chol_rows_smem##NP##_##sfx(void) {                                          \
        __shared__ __align__(16) T tile__buf[TILE__CHOL_RCB_BYTES(T, NP) / sizeof(T)];            \
        return tile__buf;                                                                         \
    }
TILE__CHOL_ROWS_SMEM_DEF(f32, float, 64)
TILE__CHOL_ROWS_SMEM_DEF(f32, float, 96)
TILE__CHOL_ROWS_SMEM_DEF(f32, float, 128)
TILE__CHOL_ROWS_SMEM_DEF(f64, double, 64)
TILE__CHOL_ROWS_SMEM_DEF(f64, double, 96)
TILE__CHOL_ROWS_SMEM_DEF(f64, double, 128)
#define TILE__CHOL_ROWS_CALL(sfx, NP, a, n, eps, infop) \
    tile__chol_rows##NP##_##sfx(tile__chol_rows_smem##NP##_##sfx(), (a), (n), (eps), (infop))
#define TILE__CHOL_WSYNC() __syncwarp()
TILE__CHOL_WARP64_DEF()
/* the warp kernel's shared words (static, as the rows') */
TILE_API float *tile__chol_w64_smem(void) {
    __shared__ __align__(16) float tile__buf[TILE__CHOL_W64_FLOATS];
    return tile__buf;
}
#else
/* The host pass of the rows kernels (the library launches them on the GPU
 * only; this keeps a CPU launch defined): the same arithmetic, one thread,
 * in place on the lower triangle. */
#define TILE__CHOL_ROWS_HOST_DEF(sfx, T, sqrtfn)                                                  \
    TILE_API int tile__chol_rows_host_##sfx(T *a, int n, T eps) {                                 \
        int info = 0;                                                                             \
        for (int k = 0; k < n; ++k) {                                                             \
            const T dr = a[(size_t)k * n + k];                                                    \
            if (!(dr > (T)0) && info == 0) info = k + 1;                                          \
            const T d = eps > (T)0 ? (dr > eps ? dr : eps) : (dr > (T)0 ? dr : (T)NAN);           \
            const T rr = (T)1 / d, sd = sqrtfn(d);                                                \
            for (int i = n - 1; i > k; --i) { /* bottom up: row j's a_jk is read before it changes */ \
                const T f = a[(size_t)i * n + k] * rr;                                            \
                for (int j = k + 1; j <= i; ++j) a[(size_t)i * n + j] -= f * a[(size_t)j * n + k]; \
                a[(size_t)i * n + k] = a[(size_t)i * n + k] / sd;                                 \
            }                                                                                     \
            a[(size_t)k * n + k] = sd;                                                            \
        }                                                                                         \
        for (int i = 0; i < n; ++i)                                                               \
            for (int j = i + 1; j < n; ++j) a[(size_t)i * n + j] = (T)0;                          \
        return info;                                                                              \
    }
TILE__CHOL_ROWS_HOST_DEF(f32, float, sqrtf)
TILE__CHOL_ROWS_HOST_DEF(f64, double, sqrt)
#define TILE__CHOL_ROWS_CALL(sfx, NP, a, n, eps, infop)                                            \
    do {                                                                                          \
        const int tile__r = tile__chol_rows_host_##sfx((a), (n), (eps));                          \
        if (infop) *(infop) = tile__r;                                                            \
    } while (0)
#endif

#define TILE__CHOL_ROWS_KERNEL(sfx, T, NP)                                                        \
    TILE_KERNEL_SMEM_BOUNDS(tile__chol_rows##NP##_k_##sfx, TILE__CHOL_RBLOCK(NP, TILE__CHOL_RC_##sfx##_##NP), 0, \
                            TILE__CHOL_RMINB_##sfx##_##NP, T *a, int n, T eps, int *info) {      \
        const int m = (int)tile_block(0);                                                         \
        TILE__CHOL_ROWS_CALL(sfx, NP, a + (size_t)m * (size_t)n * (size_t)n, n, eps, info ? info + m : (int *)0); \
    }
TILE__CHOL_ROWS_KERNEL(f32, float, 64)
TILE__CHOL_ROWS_KERNEL(f32, float, 96)
TILE__CHOL_ROWS_KERNEL(f32, float, 128)
TILE__CHOL_ROWS_KERNEL(f64, double, 64)
TILE__CHOL_ROWS_KERNEL(f64, double, 96)
TILE__CHOL_ROWS_KERNEL(f64, double, 128)
/* the warp kernel: a block is one warp and one matrix (132 registers: 15
 * warps an SM fit, against 12 with four warps a block; capped at 128 for
 * four such blocks it spilled); the CPU pass (never launched by the
 * library) runs the rows kernels' host pass */
TILE_KERNEL(tile__chol_w64_k_f32, 32, float *a, int n, float eps, int *info) {
    const int m = (int)tile_block(0);
#if TILE_ON_DEVICE
    tile__chol_warp64_f32(tile__chol_w64_smem(), a + (size_t)m * (size_t)n * (size_t)n, n, eps, info ? info + m : (int *)0);
#else
    TILE__CHOL_ROWS_CALL(f32, 64, a + (size_t)m * (size_t)n * (size_t)n, n, eps, info ? info + m : (int *)0);
#endif
}
/* path 3 (the warp kernel) where it applies: f32, 32 < n <= 64, the GPU */
#define TILE__CHOL_W64_TRY_f64(ex, a, n, batch, eps, info)
#define TILE__CHOL_W64_TRY_f32(ex, a, n, batch, eps, info)                       \
    if ((n) > 32 && (n) <= 64 && (ex).device >= 0)                               \
        return tile_launch((ex), tile__chol_w64_k_f32, tile_grid1(batch), 32, (a), (n), (eps), (info));

/* Under nvcc the host calls are function templates with one defaulted
 * parameter (called like C functions): a template is instantiated only where
 * it is called, so translation units that include tile.h without calling them
 * do not compile the eight kernels above for the GPU. C has no other way to
 * say "compile this kernel only if used". */
#if TILE_CUDA
#define TILE__CHOL_LAZY template <int tile__lazy = 0>
#else
#define TILE__CHOL_LAZY
#endif

#define TILE__CHOL_NB8(sfx, T, K, ex, a, n, batch, eps, info)                                        \
    tile_launch(tile_exec_smem((ex), TILE__CHOL_WSB(S, sfx, T, n)), tile__chol_blk128s_k##K##_##sfx,  \
                tile_grid1(batch), 128, (a), (n), (eps), (info))
/* the path's rows and warp kernels: the default calls' alone (they store
 * zeros above the diagonal; the lower calls never reference them, so they
 * are not compiled for those) */
#define TILE__CHOL_PATH_W64_0(sfx, ex, a, n, batch, eps, info) \
        if (path == 3) {                                                           \
            TILE__CHOL_W64_TRY_##sfx(ex, a, n, batch, eps, info)                   \
            path = TILE_CHOL_ROWS;                                                 \
        }
#define TILE__CHOL_PATH_W64_1(sfx, ex, a, n, batch, eps, info)
#define TILE__CHOL_PATH_ROWS_0(sfx, ex, a, n, batch, eps, info) \
        if (TILE__CHOL_ROWS_AT(sfx, n, path) && ex.device >= 0) {                 \
            if (n <= 64)                                                           \
                return tile_launch(ex, tile__chol_rows64_k_##sfx, tile_grid1(batch), \
                                   TILE__CHOL_RBLOCK(64, TILE__CHOL_RC_##sfx##_64), a, n, eps, info); \
            if (n <= 96)                                                           \
                return tile_launch(ex, tile__chol_rows96_k_##sfx, tile_grid1(batch), \
                                   TILE__CHOL_RBLOCK(96, TILE__CHOL_RC_##sfx##_96), a, n, eps, info); \
            return tile_launch(ex, tile__chol_rows128_k_##sfx, tile_grid1(batch), \
                               TILE__CHOL_RBLOCK(128, TILE__CHOL_RC_##sfx##_128), a, n, eps, info); \
        }
#define TILE__CHOL_PATH_ROWS_1(sfx, ex, a, n, batch, eps, info)
/* the batched factor's host path, K / LO: the default kernels ( , 0) or the
 * lower ones (_lo, 1) */
#define TILE__CHOL_PATH_DEF(sfx, T, K, LO)                                         \
    /* path (as TILE_CHOL_ROWS): 1 the rows kernels on the GPU where they are \
     * faster, 2 wherever they apply, 0 never (chol_bench times both); 3 the \
     * warp kernel (a candidate: f32, 32 < n <= 64, the GPU), elsewhere 1 */ \
    /* the folded n = 16 kernel (the GPU, a 16-byte aligned batch) */         \
    TILE__CHOL_LAZY TILE_HOST_API int tile__chol_s16f_launch##K##_##sfx(tile_exec ex, T *a, int batch, T eps, int *info) { \
        return tile_launch(tile_exec_smem(ex, (size_t)16 * TILE__CHOL_TS16F_##sfx * sizeof(T)), \
                           tile__chol_s16f_k##K##_##sfx, tile_grid1((batch + 15) / 16), 128, a, batch, eps, info); \
    }                                                                              \
    TILE__CHOL_LAZY TILE_HOST_API int tile__chol_batched_path##K##_##sfx(tile_exec ex, T *a, int n, int batch, T eps, \
                                                                   int *info, int path) { \
        if (n < 1 || n > TILE_CHOL_MAX_N || batch < 0 || (batch > 0 && !a)) return TILE_ERR_ARG; \
        if (batch == 0) return TILE_OK;                                            \
        (void)path; /* (the lower calls take neither kernel below) */           \
        TILE__CHOL_PATH_W64_##LO(sfx, ex, a, n, batch, eps, info)              \
        if (n <= 16) {                                                             \
            const int groups = ex.device >= 0 ? 128 / 16 : 1;                      \
            const tile_exec e1 = tile_exec_smem(ex, (size_t)groups * TILE__CHOL_TS_##sfx * sizeof(T)); \
            const int nbl = (batch + groups - 1) / groups;                         \
            if (n == 16 && ex.device >= 0 && !((uintptr_t)a & 15)) { /* its own kernels */ \
                if (tile__chol_s16f_at(ex.device, batch))                          \
                    return tile__chol_s16f_launch##K##_##sfx(ex, a, batch, eps, info);  \
                return tile_launch(e1, tile__chol_s16l_k##K##_##sfx, tile_grid1(nbl), 128, a, batch, eps, info); \
            }                                                                      \
            return tile_launch(e1, tile__chol_small16_k##K##_##sfx, tile_grid1(nbl), 128, a, n, batch, eps, info); \
        }                                                                          \
        if (n <= 32) {                                                             \
            const int groups = ex.device >= 0 ? 128 / 16 : 1;                      \
            return tile_launch(tile_exec_smem(ex, (size_t)groups * 3 * TILE__CHOL_TS_##sfx * sizeof(T)), \
                               tile__chol_small_k##K##_##sfx, tile_grid1((batch + groups - 1) / groups), 128, a, n, \
                               batch, eps, info);                                  \
        }                                                                          \
        TILE__CHOL_PATH_ROWS_##LO(sfx, ex, a, n, batch, eps, info)             \
        const tile_exec e2 = tile_exec_smem(ex, TILE__CHOL_WS_BYTES_##sfx(n));     \
        /* Matrices in flight an SM count most (the step loop is a chain:      \
         * factor + solve, update, 2 barriers): f64 nb <= 4 (f32 <= 3) 64   \
         * threads (4 groups; only step 0's 6 update tiles take two rounds;  \
         * f32 80 registers: 12 blocks an SM, f64 96: 9, as a scheduler's   \
         * 16 K registers hold whole warps: at 104 it was 8), then 128; at    \
         * nb = 8 shared memory caps the SM: the swizzled layout (f32 6      \
         * blocks, f64 3). */                                                 \
        if ((n + 15) / 16 <= TILE__CHOL_BLK64_MAXNB_##sfx)                         \
            return tile_launch(e2, tile__chol_blk64_k##K##_##sfx, tile_grid1(batch), 64, a, n, eps, info); \
        if ((n + 15) / 16 <= TILE__CHOL_BLK128_MAXNB)                              \
            return tile_launch(e2, tile__chol_blk128_k##K##_##sfx, tile_grid1(batch), 128, a, n, eps, info); \
        return TILE__CHOL_NB8(sfx, T, K, ex, a, n, batch, eps, info);                \
    }
TILE__CHOL_PATH_DEF(f32, float, , 0)
TILE__CHOL_PATH_DEF(f64, double, , 0)
TILE__CHOL_PATH_DEF(f32, float, _lo, 1)
TILE__CHOL_PATH_DEF(f64, double, _lo, 1)
/* right-hand sides up to which the solve takes the warp kernel, past it the
 * tile kernel (0: the tile kernel always). H100, batch 4096, tile / warp time
 * at nrhs 1 / 2 / 4: f32 N = 32 2.54 / 1.63 / 1.00, N = 128 2.23 / 1.85 / 1.33;
 * f64 N = 32 4.97 / 3.32 / 2.02, N = 128 3.47 / 3.31 / 2.43
 * (bench/results/2026-12-06-h100-chol-solve-5cf13b3.txt): 2 is the largest
 * nrhs measured where the warp kernel wins at both N and both types */
#ifndef TILE__CHOL_WSOLVE_MAXRHS
#define TILE__CHOL_WSOLVE_MAXRHS 2
#endif
/* the solves' argument errors (TILE_ERR_ARG), and batch 0 a no-op */
#define TILE__CHOL_SOLVE_ARGS(l, b, n, nrhs, batch)                                                       \
    do {                                                                                                  \
        if ((n) < 1 || (n) > TILE_CHOL_MAX_N || (nrhs) < 1 || (batch) < 0 || ((batch) > 0 && (!(l) || !(b)))) \
            return TILE_ERR_ARG;                                                                          \
        if ((batch) == 0) return TILE_OK;                                                                 \
    } while (0)
#define TILE__CHOL_HOST(sfx, T)                                                    \
    TILE__CHOL_LAZY TILE_HOST_API int tile_chol_batched_eps_##sfx(tile_exec ex, T *a, int n, int batch, T eps, \
                                                                 int *info) {     \
        return tile__chol_batched_path_##sfx(ex, a, n, batch, eps, info, TILE_CHOL_ROWS); \
    }                                                                              \
    TILE__CHOL_LAZY TILE_HOST_API int tile_chol_batched_##sfx(tile_exec ex, T *a, int n, int batch, int *info) { \
        return tile_chol_batched_eps_##sfx(ex, a, n, batch, (T)0, info);           \
    }                                                                              \
    /* LAPACK's contract: the strictly upper triangle untouched (above) */        \
    TILE__CHOL_LAZY TILE_HOST_API int tile_chol_batched_lower_eps_##sfx(tile_exec ex, T *a, int n, int batch, T eps, \
                                                                       int *info) { \
        return tile__chol_batched_path_lo_##sfx(ex, a, n, batch, eps, info, 0);    \
    }                                                                              \
    TILE__CHOL_LAZY TILE_HOST_API int tile_chol_batched_lower_##sfx(tile_exec ex, T *a, int n, int batch, int *info) { \
        return tile_chol_batched_lower_eps_##sfx(ex, a, n, batch, (T)0, info);     \
    }                                                                              \
    /* the warp solve (above): a warp a (matrix, column) */                      \
    TILE__CHOL_LAZY TILE_HOST_API int tile__chol_wsolve_launch_##sfx(tile_exec ex, const T *l, T *b, int n, int nrhs, \
                                                                    int batch) {  \
        TILE__CHOL_SOLVE_ARGS(l, b, n, nrhs, batch);                               \
        const int wpb = ex.device >= 0 ? 128 / 32 : 1;                             \
        const int64_t tasks = (int64_t)batch * nrhs;                               \
        if (tasks > INT32_MAX - wpb) return TILE_ERR_ARG;                          \
        return tile_launch(ex, tile__chol_wsolve_k_##sfx, tile_grid1((tasks + wpb - 1) / wpb), 128, l, b, n, nrhs, batch); \
    }                                                                              \
    /* the tile solve: 16 lanes a (matrix, 16-column chunk), two passes */       \
    TILE__CHOL_LAZY TILE_HOST_API int tile__chol_tsolve_launch_##sfx(tile_exec ex, const T *l, T *b, int n, int nrhs, \
                                                                    int batch) {  \
        TILE__CHOL_SOLVE_ARGS(l, b, n, nrhs, batch);                               \
        const int nchunk = (nrhs + 15) / 16, groups = ex.device >= 0 ? 128 / 16 : 1; \
        const int64_t tasks = (int64_t)batch * nchunk;                             \
        if (tasks > INT32_MAX - groups) return TILE_ERR_ARG;                       \
        const int64_t grid = (tasks + groups - 1) / groups;                        \
        const int e = tile_launch(ex, tile__chol_solve_k_##sfx, tile_grid1(grid), 128, l, b, n, nrhs, batch, nchunk, 0); \
        if (e) return e;                                                           \
        return tile_launch(ex, tile__chol_solve_k_##sfx, tile_grid1(grid), 128, l, b, n, nrhs, batch, nchunk, 1); \
    }                                                                              \
    TILE__CHOL_LAZY TILE_HOST_API int tile_chol_batched_solve_##sfx(tile_exec ex, const T *l, T *b, int n, int nrhs, \
                                                                   int batch) {   \
        if (nrhs <= TILE__CHOL_WSOLVE_MAXRHS) return tile__chol_wsolve_launch_##sfx(ex, l, b, n, nrhs, batch); \
        return tile__chol_tsolve_launch_##sfx(ex, l, b, n, nrhs, batch);          \
    }
TILE__CHOL_HOST(f32, float)
TILE__CHOL_HOST(f64, double)

#endif /* TILE_CHOL_BATCHED_H */
