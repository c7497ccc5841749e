/* nvcc-arch: 90a (scripts/nvcc-one.sh and gpu-check.sh build this file for
 * sm_90a: the bf16 s = 128 default is wgmma; its other archs compile
 * wgmma.h's fallback)
 *
 * matmul_bench - batched small matrix products, one product per block
 * (s = 128: two blocks a product, 64 rows of C each; see below):
 * C_i = A_i @ B_i with s x s x s for s in {16, 32, 64, 128}, batch
 * 8192 * (64 / s)^2 (131072 .. 2048 products; --small: / 16).
 *
 *  - f32, tile.h: A and B loaded into shared tiles (vector tier; s = 64:
 *    cp.async, see MMB_LOAD_ASYNC), tile_matmul_ab
 *    into a shared out (FMA micro-tiles), stored; s = 128: the accumulator
 *    path (mm_f32_128: two 128-thread blocks a product, each 64 rows of C
 *    in registers, k windows of 32 through 2 cp.async stages, A k-major,
 *    one barrier a window, 16-byte stores of C; one block a product, the
 *    previous default, is a candidate line); peer
 *    cublasSgemmStridedBatched.
 *  - bf16 in, f32 accumulate and out, tile.h: s = 16, 32: A and B loaded
 *    into register tiles, staged by tile_matmul into the arena with padded
 *    rows, tensor cores (mma.sync m16n8k16, ldmatrix); s = 64: padded
 *    shared tiles filled by cp.async (tile_matmul_load_async, 16 bytes a
 *    chunk of each row), tile_matmul_ab into a padded shared C; s = 128:
 *    wgmma (include/tile/wgmma.h, sm_90a), two 128-thread blocks (one
 *    warpgroup) a product, each 64 rows of C: both 64-deep K windows of A's
 *    rows and of B in flight at once in wgmma's swizzled layouts, two
 *    asynchronous products, C staged through the windows' bytes and stored
 *    in 16-byte runs (mma.sync in one block a product, the previous
 *    default, is a candidate line); peer cublasGemmStridedBatchedEx
 *    (CUDA_R_16BF, CUBLAS_COMPUTE_32F).
 *  - candidates (mmb_extras), each checked (every element against cuBLAS)
 *    and printed after its row as
 *      "  <type> s=<s> variant [<name>]: X ms, Y TFLOP/s, tile / cuBLAS = R, ..."
 *    (no target): f32 s = 128 with 3 stages, as two 128-thread blocks a
 *    product with A row-major, and one block a product (the previous
 *    default); bf16 s = 64 with C in two halves and with a prefetched
 *    accumulator; s = 128
 *    on mma.sync (the previous default) and on wgmma with C stored from
 *    registers (one and two blocks a product). The candidates that lost at
 *    bbcd86d, 967ebec, a5306f3, 2725f7f, 355da85 and d7ddde5 are in
 *    docs/matmul.md.
 * Recorded peer (not measured here): Warp 1.19's MathDx tile_matmul, f32 on an
 * H100: 5.7 / 12.9 / 22.4 / 7.0 TFLOP/s at s = 16 / 32 / 64 / 128.
 *
 * Inputs: pseudo-random values in [-0.5, 0.5) (never all zeros). Checks in
 * the same run: tile.h's C against cuBLAS's C (every element, relative to
 * the row's sum |a||b|: 1e-5 f32, 1e-3 bf16) and the first and last product
 * of the batch against a double host reference. Timing: warm-up, variants
 * interleaved, CUDA events, median.
 *   "f32 s=N tile / cuBLAS = X (target >= 1.00)" and the same for bf16.
 */
#include <cublas_v2.h>
#include <tile/wgmma.h>
#include <cmath>
#include "bench_util.h"

/* A and B of one product into shared a, b: vector-tier loads (A's complete
 * before B's are issued), or cp.async (both in flight at once, no register
 * round trip; s = 32 took 48 registers instead of 40 with it, s = 128 249) */
#define MMB_LOAD_SYNC(a, b, A, B, S)                                               \
    tile_load(a, tile_array2(A, S, S), 0, 0);                                      \
    tile_load(b, tile_array2(B, S, S), 0, 0)
#define MMB_LOAD_ASYNC(a, b, A, B, S)                                              \
    (void)tile_load_async_ex(a, tile_array2(A, S, S), TILE_ASYNC_NO_BULK, 0, 0);   \
    (void)tile_load_async_ex(b, tile_array2(B, S, S), TILE_ASYNC_NO_BULK, 0, 0);   \
    tile_async_commit();                                                           \
    tile_async_wait(0) /* and a block barrier */
#define MMB_F32(S, BD, LOAD) MMB_F32_N(mm_f32_##S, S, BD, LOAD)
#define MMB_F32_N(name, S, BD, LOAD)                                               \
    TILE_KERNEL_SMEM(name, BD, 3 * TILE_SMEM_BYTES(float, S, S), const float *A, const float *B, float *C) { \
        const size_t o = (size_t)tile_block(0) * S * S;                            \
        tile_shared(float, a, S, S);                                               \
        tile_shared(float, b, S, S);                                               \
        tile_shared(float, c, S, S);                                               \
        LOAD(a, b, A + o, B + o, S);                                               \
        tile_matmul_ab(c, a, b, 1.0f, 0.0f);                                       \
        tile_store(tile_array2(C + o, S, S), c, 0, 0);                             \
    }
#define MMB_KERNELS(S, BD)                                                         \
    MMB_F32(S, BD, MMB_LOAD_SYNC)                                                  \
    TILE_KERNEL_SMEM(mm_bf16_##S, BD, TILE_MATMUL_SMEM_BYTES(tile_bf16, float, S, S, S), const tile_bf16 *A, \
                     const tile_bf16 *B, float *C) {                               \
        const size_t o = (size_t)tile_block(0) * S * S;                            \
        tile_reg(tile_bf16, a, S, S); /* staged by tile_matmul with padded rows */ \
        tile_reg(tile_bf16, b, S, S);                                              \
        tile_shared(float, c, S, S);                                               \
        tile_load(a, tile_array2(A + o, S, S), 0, 0);                              \
        tile_load(b, tile_array2(B + o, S, S), 0, 0);                              \
        tile_matmul_ab(c, a, b, 1.0f, 0.0f);                                       \
        tile_store(tile_array2(C + o, S, S), c, 0, 0);                             \
    }
MMB_KERNELS(16, 64)
MMB_KERNELS(32, 128)
MMB_F32(64, 256, MMB_LOAD_ASYNC)
/* A bf16 operand's rows r0 .. r0 + R - 1 into the R x s view of a padded
 * shared tile (rows of s + 8), each row as its own s elements, 16-byte
 * cp.async a chunk (tile_matmul_load_async; no leading barrier: fresh
 * buffers). Until a5306f3 the bench read rows of s + 8 that overlap the next
 * row instead (9 / 17 chunks a row where 8 / 16 carry data): 0.93 / 0.87 of
 * cuBLAS at s = 64 / 128 against 0.99 / 0.90 this way, same run. */
#define MMB_BF16_LD(view, src, S, r0) tile_matmul_load_async_nosync(view, tile_array2(src, S, S), r0, 0)
/* bf16 s = 64: A, B and C in shared views of padded rows (72 elements:
 * conflict-free ldmatrix and float2 stores), no register tiles and no
 * staging pass; A's and B's cp.async copies all in flight at once. C is made
 * CR rows at a time through one CR-row shared tile: CR = 64 (the default,
 * 36 KiB) or 32 (two halves, 27 KiB: 7 blocks an SM instead of 6; the second
 * product's leading barrier orders it after the first store). */
#define MMB_BF16_64(name, CR)                                                      \
    TILE_KERNEL_SMEM(name, 256, 2 * TILE_SMEM_BYTES(tile_bf16, 64, 72) + TILE_SMEM_BYTES(float, CR, 72), \
                     const tile_bf16 *A, const tile_bf16 *B, float *C) {           \
        const size_t o = (size_t)tile_block(0) * 64 * 64;                          \
        tile_shared(tile_bf16, ap, 64, 72);                                        \
        tile_shared(tile_bf16, bp, 64, 72);                                        \
        tile_shared(float, cp, CR, 72);                                            \
        tile_view(a, ap, (64, 64), (0, 0));                                        \
        tile_view(b, bp, (64, 64), (0, 0));                                        \
        tile_view(c, cp, (CR, 64), (0, 0));                                        \
        MMB_BF16_LD(a, A + o, 64, 0);                                              \
        MMB_BF16_LD(b, B + o, 64, 0);                                              \
        tile_async_commit();                                                       \
        tile_async_wait(0); /* and a block barrier */                              \
        TILE__UNROLL for (int h = 0; h < 64 / (CR); ++h) {                         \
            tile_view(ah, ap, (CR, 64), ((CR) * h, 0));                            \
            tile_matmul_ab(c, ah, b, 1.0f, 0.0f);                                  \
            tile_store(tile_array2(C + o, 64, 64), c, (CR) * h, 0);                \
        }                                                                          \
    }
MMB_BF16_64(mm_bf16_64, 64)
MMB_BF16_64(mmv_bf16_64_halves, 32)
/* bf16 s = 128 on mma.sync (the default until d7ddde5; a candidate since):
 * A and B go straight into shared tiles with rows 8 elements
 * longer (views of 128 x 136: ldmatrix rows 272 bytes apart hit all 32 banks)
 * in 16-byte cp.async copies, and C is made in two 64-row halves through one
 * 64 x 128 shared tile: 2 x 34 + 32 KiB = 100 KiB and 104 registers (the
 * staged version took 132 KiB and 219), so 2 blocks fit on an SM and one
 * block's loads overlap the other's mma. cp.async in two groups: A's top
 * half and B, then A's bottom half, which lands while the top half of C is
 * made. C dense: a padded view (conflict-free mma stores) took 134
 * registers, 1 block an SM. */
TILE_KERNEL_SMEM(mmv_bf16_128_mma, 256, 2 * TILE_SMEM_BYTES(tile_bf16, 64, 136) + TILE_SMEM_BYTES(tile_bf16, 128, 136) +
                     TILE_SMEM_BYTES(float, 64, 128),
                 const tile_bf16 *A, const tile_bf16 *B, float *C) {
    const size_t o = (size_t)tile_block(0) * 128 * 128;
    tile_shared(tile_bf16, ap0, 64, 136); /* A's rows 0..63 */
    tile_shared(tile_bf16, ap1, 64, 136); /* A's rows 64..127 */
    tile_shared(tile_bf16, bp, 128, 136);
    tile_shared(float, c, 64, 128);
    tile_view(b, bp, (128, 128), (0, 0));
    tile_view(a0, ap0, (64, 128), (0, 0));
    tile_view(a1, ap1, (64, 128), (0, 0));
    MMB_BF16_LD(a0, A + o, 128, 0);
    MMB_BF16_LD(b, B + o, 128, 0);
    tile_async_commit();
    MMB_BF16_LD(a1, A + o, 128, 64);
    tile_async_commit();
    tile_async_wait(1); /* the first group is in (and a block barrier) */
    tile_matmul_ab(c, a0, b, 1.0f, 0.0f);
    tile_store(tile_array2(C + o, 128, 128), c, 0, 0);
    tile_async_wait(0); /* the second group is in */
    tile_matmul_ab(c, a1, b, 1.0f, 0.0f); /* its first barrier: the store above has read c */
    tile_store(tile_array2(C + o, 128, 128), c, 64, 0);
}

/* The accumulator path (tile_matmul_acc: C's s x s block in registers, k
 * windows of BK through STAGES cp.async stages, tile_matmul_load_async into
 * padded rows, stored straight from registers into C: no shared C, no
 * staging), with MINB resident blocks an SM asked for
 * (TILE_KERNEL_SMEM_BOUNDS). One product per block, 256 threads (MMB_ACC_T:
 * THREADS). f32 s = 128's default, and a candidate. */
#define MMB_ACC(name, T, S, BK, STAGES, MINB) MMB_ACC_T(name, T, 256, S, BK, STAGES, MINB)
#define MMB_ACC_T(name, T, THREADS, S, BK, STAGES, MINB) MMB_ACC_M(name, T, THREADS, S, S, BK, STAGES, MINB)
/* MMB_ACC_M: S / BM blocks a product, each BM rows of C (more, smaller
 * blocks; B read S / BM times, from L2) */
#define MMB_ACC_M(name, T, THREADS, S, BM, BK, STAGES, MINB) MMB_ACC_B(name, T, THREADS, S, BM, BK, STAGES, MINB, 0)
/* MMB_ACC_B: BAR1 1 is gemm_tiled.cu's one-barrier pipeline (wait for window
 * k, then issue window k + STAGES - 1 with tile_matmul_load_async_nosync,
 * then multiply window k); 0 issues first, each copy with a barrier */
#define MMB_ACC_B(name, T, THREADS, S, BM, BK, STAGES, MINB, BAR1)                 \
    MMB_ACC_X(name, T, THREADS, S, BM, BK, STAGES, MINB, BAR1, 0)
/* MMB_ACC_X: AKM 1 stores A's windows k-major (BK x (BM + 4) stage tiles read
 * through tile_transpose_view, as gemm_tiled.cu's AKM) */
#define MMB_AR(AKM, BM, BK) ((AKM) ? (BK) : (BM))
#define MMB_AC(T, AKM, BM, BK) ((AKM) ? (BM) + 4 : (BK) + TILE_MATMUL_PAD(T))
#define MMB_AWIN(AKM, name, pad, BM, BK) MMB_AWIN_(AKM, name, pad, BM, BK)
#define MMB_AWIN_(AKM, name, pad, BM, BK) MMB_AWIN_##AKM(name, pad, BM, BK)
#define MMB_AWIN_0(name, pad, BM, BK) tile_view(name, pad, (BM, BK), (0, 0))
#define MMB_AWIN_1(name, pad, BM, BK)                                              \
    tile_view(name##_k, pad, (BK, BM), (0, 0));                                    \
    tile_transpose_view(name, name##_k)
#define MMB_ACC_X(name, T, THREADS, S, BM, BK, STAGES, MINB, BAR1, AKM)           \
    TILE_KERNEL_SMEM_BOUNDS(name, THREADS,                                             \
                            (STAGES) * (TILE_SMEM_BYTES(T, MMB_AR(AKM, BM, BK), MMB_AC(T, AKM, BM, BK)) + \
                                        TILE_SMEM_BYTES(T, BK, (S) + TILE_MATMUL_PAD(T))), \
                            MINB, const T *A, const T *B, float *C) {              \
        const size_t o = (size_t)(tile_block(0) / ((S) / (BM))) * (S) * (S);      \
        const int m0 = tile_block(0) % ((S) / (BM)) * (BM); /* C's rows m0 .. m0 + BM - 1 */ \
        tile_shared_stages(T, a_st, STAGES, MMB_AR(AKM, BM, BK), MMB_AC(T, AKM, BM, BK)); \
        tile_shared_stages(T, b_st, STAGES, BK, (S) + TILE_MATMUL_PAD(T));         \
        tile_stage(a_pad0, a_st, 0);                                               \
        tile_stage(b_pad0, b_st, 0);                                               \
        MMB_AWIN(AKM, a_win0, a_pad0, BM, BK);                                     \
        tile_view(b_win0, b_pad0, (BK, S), (0, 0));                                \
        tile_matmul_acc(acc, a_win0, b_win0);                                      \
        const int nk = (S) / (BK);                                                 \
        for (int kk = 0; kk < (STAGES)-1; ++kk) { /* windows 0 .. STAGES - 2 */    \
            if (kk < nk) MMB_ACC_LOAD_L(T, S, BM, BK, STAGES, kk, tile_matmul_load_async, AKM); \
            tile_async_commit();                                                   \
        }                                                                          \
        for (int k = 0; k < nk; ++k) {                                             \
            if (BAR1) {                                                            \
                tile_async_wait((STAGES) >= 2 ? (STAGES)-2 : 0); /* window k; k - 1's stage free */ \
                if (k + (STAGES)-1 < nk)                                           \
                    MMB_ACC_LOAD_L(T, S, BM, BK, STAGES, k + (STAGES)-1, tile_matmul_load_async_nosync, AKM); \
                tile_async_commit();                                               \
            } else {                                                               \
            if (k + (STAGES)-1 < nk)                                               \
                MMB_ACC_LOAD_L(T, S, BM, BK, STAGES, k + (STAGES)-1, tile_matmul_load_async, AKM); \
            tile_async_commit();                                                   \
            tile_async_wait((STAGES)-1); /* window k landed, and a barrier */     \
            }                                                                      \
            tile_stage(a_pad, a_st, k % (STAGES));                                 \
            tile_stage(b_pad, b_st, k % (STAGES));                                 \
            MMB_AWIN(AKM, a_win, a_pad, BM, BK);                                   \
            tile_view(b_win, b_pad, (BK, S), (0, 0));                              \
            tile_matmul_acc_add(acc, a_win, b_win);                                \
        }                                                                          \
        tile_async_wait(0);                                                        \
        tile_matmul_acc_store(tile_array2(C + o, S, S), acc, m0, 0);              \
    }
/* window kk of this block's A and B into stage kk % STAGES (each copy begins
 * with a barrier: the stage's last readers are done) */
#define MMB_ACC_LOAD_L(T, S, BM, BK, STAGES, kk, LOAD, AKM)                        \
    do {                                                                           \
        tile_stage(a_pad, a_st, (kk) % (STAGES));                                  \
        tile_stage(b_pad, b_st, (kk) % (STAGES));                                  \
        MMB_AWIN(AKM, a_win, a_pad, BM, BK);                                       \
        tile_view(b_win, b_pad, (BK, S), (0, 0));                                  \
        LOAD(a_win, tile_array2(A + o, S, S), m0, (kk) * (BK));                    \
        LOAD(b_win, tile_array2(B + o, S, S), (kk) * (BK), 0);                     \
    } while (0)
/* With TILE_MATMUL_ACC_VST 1 (read where tile_matmul_acc_store expands):
 * the accumulator's store writes 16-byte runs (FMA, 4 columns) or 8-byte
 * pairs (mma) straight from registers instead of one element a store. */
#undef TILE_MATMUL_ACC_VST
#define TILE_MATMUL_ACC_VST 1
/* f32 s = 128, the default since 967ebec's H200 run (1.03 of cuBLAS against
 * 0.98; bench/results/2026-11-29-h200-matmul-967ebec.txt): two blocks a
 * product, each 64 rows of C (B read twice, the second time from L2: the
 * two blocks of a product run at once), 128 threads (8 x 8 a thread),
 * vector stores, one barrier a window (BAR1), A k-major (AKM), registers
 * capped for 4 blocks an SM (2 x 24 KiB each) */
MMB_ACC_X(mm_f32_128, float, 128, 128, 64, 32, 2, 4, 1, 1)
/* the previous default, one block a product: 256 threads, vector stores,
 * BAR1, AKM (2 x 33 KiB): 0.98 of cuBLAS on the H200 (bbcd86d: VST alone
 * 0.92, VST + BAR1 0.91) */
MMB_ACC_X(mmv_f32_128_one_block, float, 256, 128, 128, 32, 2, 0, 1, 1)
/* ... BAR1, 3 stages of 32 (99 KiB, 2 blocks an SM): the first two windows
 * issued at once (0.94) */
MMB_ACC_B(mmv_f32_128_k32s3_bar1_b2, float, 256, 128, 128, 32, 3, 2, 1)
/* ... two blocks a product (64 rows of C each; B read twice, the second
 * time from L2) of 128 threads (8 x 8 a thread), VST, BAR1, registers capped
 * for 4 blocks an SM (2 x 24 KiB each): smaller blocks, so one's loads and
 * stores overlap others' FMAs more finely (at bea5b43 this split with 256
 * threads, 8 x 4, 2 blocks an SM and scalar stores measured 0.81; 256
 * threads capped for 3 blocks spilled on sm_80) */
MMB_ACC_B(mmv_f32_128_m64_k32s2_bar1_b4, float, 128, 128, 64, 32, 2, 4, 1)
/* f32 s = 128 one block a product with 3 stages (2 blocks an SM), A k-major */
MMB_ACC_X(mmv_f32_128_k32s3_bar1_b2_akm, float, 256, 128, 128, 32, 3, 2, 1, 1)
/* bf16 with the accumulator in one shot (all of K in one window: one
 * cp.async group, one barrier), then C staged through the same shared bytes
 * that held A and B (padded rows of s + 8 floats: conflict-free float2 stores
 * of the mma fragments, exactly the bytes of A's and B's padded bf16 rows)
 * and stored in 16-byte runs. */
#define MMB_BF16_ACCS(name, S, THREADS, MINB)                                      \
    TILE_KERNEL_SMEM_BOUNDS(name, THREADS, TILE_SMEM_BYTES(float, S, (S) + 8), MINB, const tile_bf16 *A, \
                            const tile_bf16 *B, float *C) {                        \
        const size_t o = (size_t)tile_block(0) * (S) * (S);                        \
        tile_shared(float, cp, S, (S) + 8); /* C; before the product A's and B's rows */ \
        TILE_SHARED_T(tile_bf16, TILE_BLOCK_DIM, S, (S) + 8)                       \
        ap = {(tile_bf16 *)(void *)cp.v, 0, 0}, bp = {(tile_bf16 *)(void *)cp.v + (S) * ((S) + 8), 0, 0}; \
        tile_view(a, ap, (S, S), (0, 0));                                          \
        tile_view(b, bp, (S, S), (0, 0));                                          \
        MMB_BF16_LD(a, A + o, S, 0);                                               \
        MMB_BF16_LD(b, B + o, S, 0);                                               \
        tile_async_commit();                                                       \
        tile_matmul_acc(acc, a, b);                                                \
        tile_async_wait(0); /* and a block barrier */                              \
        tile_matmul_acc_add(acc, a, b);                                            \
        tile_barrier(); /* every warp has read A and B */                          \
        const int64_t csh[2] = {S, S}, cst[2] = {(S) + 8, 1};                      \
        tile_matmul_acc_store(tile_array_strided(cp.v, 2, csh, cst), acc, 0, 0);   \
        tile_barrier();                                                            \
        tile_view(c, cp, (S, S), (0, 0));                                          \
        tile_store(tile_array2(C + o, S, S), c, 0, 0);                             \
    }
/* with the accumulator's fragments double-buffered (TILE_MATMUL_ACC_PREFETCH
 * 1): the bbcd86d and 967ebec accumulator candidates ran with it off (one
 * k16 step at a time: 0.46-0.84 of cuBLAS; the k loop unrolled 4 instead,
 * TILE_MATMUL_ACC_UNROLL 4, measured 0.89 at s = 64 and 0.75 at s = 128 as
 * two blocks a product, prefetched 0.97-0.98 / 0.77-0.78) */
#undef TILE_MATMUL_ACC_PREFETCH
#define TILE_MATMUL_ACC_PREFETCH 1
MMB_BF16_ACCS(mmv_bf16_64_accs_pf, 64, 256, 0)
#undef TILE_MATMUL_ACC_PREFETCH
#define TILE_MATMUL_ACC_PREFETCH 0

/* bf16 s = 128 on wgmma (sm_90a; include/tile/wgmma.h): a block of BM / 64
 * warpgroups makes BM rows of C (BM = 128: one block a product, 66 KiB, 90
 * registers: 2 blocks an SM, ptxas cannot fit the m64n128 product in the 80
 * that 3 would allow; BM = 64: two 128-thread blocks a product, B read
 * twice, 51 KiB, 4 blocks an SM). Both 64-deep K windows of A's rows and of B
 * are in flight at once in the swizzled layouts (no padding), then two
 * asynchronous warpgroup products. C goes out from registers (float2 pairs),
 * or STAGED: once the products are done, through the windows' bytes
 * (64-row passes of 64 x 132 floats, 16-byte rows; rows outside a pass are
 * dropped by the store) and out in 16-byte stores. */
#define MMB_WG_STAGED_OUT(acc, aw, NPASS, r0)                                      \
    do {                                                                           \
        TILE_SHARED_T(float, TILE_BLOCK_DIM, 64, 132) cs = {(float *)(void *)tile_wgmma_window_data(aw, 0), 0, 0}; \
        tile_view(cv, cs, (64, 128), (0, 0));                                      \
        const int64_t csh[2] = {64, 128}, cst[2] = {132, 1};                       \
        for (int h = 0; h < (NPASS); ++h) {                                        \
            tile_barrier(); /* the products (or the last pass's store) are done */ \
            tile_wgmma_store(tile_array_strided(cs.v, 2, csh, cst), acc, -64 * h, 0); \
            tile_barrier();                                                        \
            tile_store(tile_array2(C + o, 128, 128), cv, (r0) + 64 * h, 0);        \
        }                                                                          \
    } while (0)
#define MMB_WG(name, THREADS, BM, STAGED)                                          \
    TILE_KERNEL_SMEM(name, THREADS, TILE_WGMMA_SMEM(BM, 128, 2), const tile_bf16 *A, const tile_bf16 *B, float *C) { \
        const size_t o = (size_t)(tile_block(0) / (128 / (BM))) * 128 * 128;       \
        const int m0 = (int)(tile_block(0) % (128 / (BM))) * (BM);                 \
        tile_wgmma_window_a_bf16(aw, BM, 2);                                       \
        tile_wgmma_window_b_bf16(bw, 128, 2);                                      \
        tile_wgmma_acc(acc, BM, 128);                                              \
        const tile_array a = tile_array2(A + o, 128, 128), b = tile_array2(B + o, 128, 128); \
        tile_wgmma_load_a(aw, 0, a, m0, 0);                                        \
        tile_wgmma_load_b(bw, 0, b, 0, 0);                                         \
        tile_async_commit();                                                       \
        tile_wgmma_load_a(aw, 1, a, m0, 64);                                       \
        tile_wgmma_load_b(bw, 1, b, 64, 0);                                        \
        tile_async_commit();                                                       \
        tile_wgmma_wait(1);                                                        \
        tile_wgmma_mma_async(acc, aw, 0, bw, 0);                                   \
        tile_wgmma_wait(0);                                                        \
        tile_wgmma_mma_async(acc, aw, 1, bw, 1);                                   \
        tile_wgmma_mma_wait(acc, 0);                                               \
        if (STAGED) MMB_WG_STAGED_OUT(acc, aw, (BM) / 64, m0);                     \
        else tile_wgmma_store(tile_array2(C + o, 128, 128), acc, m0, 0);           \
    }
/* the bf16 s = 128 default since d7ddde5's H200 run (1.00 of cuBLAS against
 * mma.sync's 0.91; bench/results/2026-11-29-h200-matmul-d7ddde5-bench.txt):
 * two 128-thread blocks a product, C staged */
MMB_WG(mm_bf16_128, 128, 64, 1)
MMB_WG(mmv_bf16_128_wgmma, 256, 128, 0)
MMB_WG(mmv_bf16_128_wgmma_m64, 128, 64, 0)
#undef TILE_MATMUL_ACC_VST
#define TILE_MATMUL_ACC_VST 0
struct MmbExtra {
    int s, bf;
    const char *name;
    int (*fn)(tile_exec, long, const void *, const void *, float *);
};
#define MMB_EXTRA_FN(name, T) MMB_EXTRA_FN_T(name, T, 256)
#define MMB_EXTRA_FN_T(name, T, THREADS) MMB_EXTRA_FN_M(name, T, THREADS, 1)
#define MMB_EXTRA_FN_M(name, T, THREADS, PER) /* PER blocks a product */           \
    static int name##_run(tile_exec ex, long batch, const void *A, const void *B, float *C) { \
        return tile_launch(ex, name, tile_grid1(batch * (PER)), THREADS, (const T *)A, (const T *)B, C); \
    }
MMB_EXTRA_FN(mmv_f32_128_k32s3_bar1_b2, float)
MMB_EXTRA_FN_M(mmv_f32_128_m64_k32s2_bar1_b4, float, 128, 2)
MMB_EXTRA_FN(mmv_f32_128_k32s3_bar1_b2_akm, float)
MMB_EXTRA_FN(mmv_f32_128_one_block, float)
MMB_EXTRA_FN(mmv_bf16_64_halves, tile_bf16)
MMB_EXTRA_FN(mmv_bf16_128_mma, tile_bf16)
MMB_EXTRA_FN(mmv_bf16_64_accs_pf, tile_bf16)
MMB_EXTRA_FN(mmv_bf16_128_wgmma, tile_bf16)
MMB_EXTRA_FN_M(mmv_bf16_128_wgmma_m64, tile_bf16, 128, 2)
/* printed as "<type> s=<s> variant <name>: ..." after the default's line */
static const MmbExtra mmb_extras[] = {
    {128, 0, "acc k32 3st 256thr minb2 VST BAR1", mmv_f32_128_k32s3_bar1_b2_run},
    {128, 0, "acc 2 blocks of 64 rows k32 2st 128thr minb4 VST BAR1", mmv_f32_128_m64_k32s2_bar1_b4_run},
    {128, 0, "acc k32 3st 256thr minb2 VST BAR1 AKM", mmv_f32_128_k32s3_bar1_b2_akm_run},
    {128, 0, "one block a product: acc k32 2st 256thr VST BAR1 AKM (previous default)", mmv_f32_128_one_block_run},
    {64, 1, "C in two 32-row halves (7 blocks an SM)", mmv_bf16_64_halves_run},
    {128, 1, "mma.sync, one block a product, C in two halves (previous default)", mmv_bf16_128_mma_run},
    {64, 1, "acc one shot, C staged in A/B's shared bytes, fragments prefetched", mmv_bf16_64_accs_pf_run},
    {128, 1, "wgmma (sm_90a) one block a product, C from registers (2 blocks an SM)", mmv_bf16_128_wgmma_run},
    {128, 1, "wgmma (sm_90a) as two 128-thread blocks of 64 rows a product (4 blocks an SM)", mmv_bf16_128_wgmma_m64_run},
};

__global__ void fill(float *a, tile_bf16 *h, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float v = tile_hash_unit(seed, (uint32_t)i) - 0.5f;
        a[i] = v;
        h[i] = tile_f32_to_bf16(v);
    }
}

#define CB(call)                                                                   \
    do {                                                                           \
        cublasStatus_t cb_s = (call);                                              \
        if (cb_s != CUBLAS_STATUS_SUCCESS) {                                       \
            fprintf(stderr, "cuBLAS error %d at %s:%d: %s\n", (int)cb_s, __FILE__, __LINE__, #call); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

static int launch_tile(tile_exec ex, int s, int bf, long batch, const void *A, const void *B, float *C) {
    const tile_grid g = tile_grid1(batch);
    int e = 0;
    switch (s * 2 + bf) {
    case 32: e = tile_launch(ex, mm_f32_16, g, 64, (const float *)A, (const float *)B, C); break;
    case 33: e = tile_launch(ex, mm_bf16_16, g, 64, (const tile_bf16 *)A, (const tile_bf16 *)B, C); break;
    case 64: e = tile_launch(ex, mm_f32_32, g, 128, (const float *)A, (const float *)B, C); break;
    case 65: e = tile_launch(ex, mm_bf16_32, g, 128, (const tile_bf16 *)A, (const tile_bf16 *)B, C); break;
    case 128: e = tile_launch(ex, mm_f32_64, g, 256, (const float *)A, (const float *)B, C); break;
    case 129: e = tile_launch(ex, mm_bf16_64, g, 256, (const tile_bf16 *)A, (const tile_bf16 *)B, C); break;
    case 256: e = tile_launch(ex, mm_f32_128, tile_grid1(batch * 2), 128, (const float *)A, (const float *)B, C); break;
    default: e = tile_launch(ex, mm_bf16_128, tile_grid1(batch * 2), 128, (const tile_bf16 *)A, (const tile_bf16 *)B, C); break;
    }
    TK(e);
    return 0;
}
/* row-major C = A @ B is column-major C^T = B^T A^T: cuBLAS gets B first */
static int launch_cublas(cublasHandle_t h, int s, int bf, long batch, const void *A, const void *B, float *C) {
    const float one = 1.0f, zero = 0.0f;
    const long long st = (long long)s * s;
    if (!bf)
        CB(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, (const float *)B, s, st,
                                     (const float *)A, s, st, &zero, C, s, st, (int)batch));
    else
        CB(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, B, CUDA_R_16BF, s, st, A,
                                      CUDA_R_16BF, s, st, &zero, C, CUDA_R_32F, s, st, (int)batch,
                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return 0;
}

static int run(const Opts &o) {
    BenchEnv env;
    if (bench_env(&env, "matmul_bench", o)) return 1;
    const tile_exec ex = TILE_GPU(env.dev);
    cublasHandle_t h;
    CB(cublasCreate(&h));
    const int sizes[4] = {16, 32, 64, 128};
    const double warp_mathdx[4] = {5.7, 12.9, 22.4, 7.0};
    const size_t maxn = (size_t)8192 * 64 * 64 / (o.small ? 16 : 1); /* elements per operand, every s */
    float *A, *B, *Ct, *Cc, *Co;
    tile_bf16 *Ah, *Bh;
    CK(cudaMalloc(&A, maxn * 4));
    CK(cudaMalloc(&B, maxn * 4));
    CK(cudaMalloc(&Ct, maxn * 4));
    CK(cudaMalloc(&Cc, maxn * 4));
    CK(cudaMalloc(&Co, maxn * 4));
    CK(cudaMalloc(&Ah, maxn * 2));
    CK(cudaMalloc(&Bh, maxn * 2));
    fill<<<1024, 256>>>(A, Ah, maxn, 11);
    fill<<<1024, 256>>>(B, Bh, maxn, 12);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> ha(maxn), hb(maxn);
    CK(cudaMemcpy(ha.data(), A, maxn * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), B, maxn * 4, cudaMemcpyDeviceToHost));
    FILE *csv = o.csv ? csv_open(o.csv) : nullptr;
    if (o.csv && !csv) return 1;
    if (csv) fprintf(csv, "date,commit,device,type,s,batch,tile_ms,cublas_ms,tile_tflops,cublas_tflops,ratio,correct,target\n");
    long bad_total = 0;
    bool all_pass = true;
    printf("%-5s %4s %7s %10s %10s %9s %9s %7s %s\n", "type", "s", "batch", "tile_ms", "cublas_ms", "tile_TF", "cublas_TF",
           "ratio", "Warp MathDx f32 (recorded)");
    for (int bf = 0; bf < 2; ++bf)
        for (int si = 0; si < 4; ++si) {
            const int s = sizes[si];
            const long batch = (long)(maxn / ((size_t)s * s));
            const size_t n = (size_t)batch * s * s;
            const void *pa = bf ? (const void *)Ah : (const void *)A, *pb = bf ? (const void *)Bh : (const void *)B;
            /* v = 0: the default, 1: cuBLAS, 2..: this (type, s)'s candidates
             * (mmb_extras), into Co */
            std::vector<const MmbExtra *> ext;
            for (const MmbExtra &e : mmb_extras)
                if (e.s == s && e.bf == bf) ext.push_back(&e);
            const int nv = 2 + (int)ext.size();
            auto launch = [&](int v, int) {
                if (v == 1) return launch_cublas(h, s, bf, batch, pa, pb, Cc);
                if (v >= 2) {
                    TK(ext[v - 2]->fn(ex, batch, pa, pb, Co));
                    return 0;
                }
                return launch_tile(ex, s, bf, batch, pa, pb, Ct);
            };
            if (run_rounds(ex, nv, o.warmup, launch)) return 1;
            CK(cudaMemset(Ct, 0xff, n * 4));
            CK(cudaMemset(Cc, 0xff, n * 4));
            if (run_rounds(ex, 2, 1, launch)) return 1;
            std::vector<float> ct(n), cc(n), co(ext.empty() ? 0 : n);
            CK(cudaMemcpy(ct.data(), Ct, n * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(cc.data(), Cc, n * 4, cudaMemcpyDeviceToHost));
            const double tol = bf ? 1e-3 : 1e-5;
            long bad = 0;
            /* |row| bound: s * 0.25 (|a|, |b| <= 0.5) */
            for (size_t i = 0; i < n; ++i)
                if (!(fabs((double)ct[i] - cc[i]) <= tol * s * 0.25)) {
                    if (bad < 3) fprintf(stderr, "  %s s=%d element %zu: tile %g, cuBLAS %g\n", bf ? "bf16" : "f32", s, i, ct[i], cc[i]);
                    ++bad;
                }
            std::vector<long> xbad(ext.size(), 0);
            for (size_t x = 0; x < ext.size(); ++x) { /* each candidate: every element vs cuBLAS */
                CK(cudaMemset(Co, 0xff, n * 4));
                if (launch(2 + (int)x, 0)) return 1;
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(co.data(), Co, n * 4, cudaMemcpyDeviceToHost));
                for (size_t i = 0; i < n; ++i)
                    if (!(fabs((double)co[i] - cc[i]) <= tol * s * 0.25)) {
                        if (xbad[x] < 3)
                            fprintf(stderr, "  %s s=%d variant %s element %zu: tile %g, cuBLAS %g\n", bf ? "bf16" : "f32", s,
                                    ext[x]->name, i, co[i], cc[i]);
                        ++xbad[x];
                    }
                bad += xbad[x];
            }
            for (long p : {0L, batch - 1})
                for (int i = 0; i < s; ++i)
                    for (int j = 0; j < s; ++j) {
                        double r = 0;
                        const size_t o2 = (size_t)p * s * s;
                        for (int k = 0; k < s; ++k) {
                            float x = ha[o2 + i * s + k], y = hb[o2 + k * s + j];
                            if (bf) x = tile_bf16_to_f32(tile_f32_to_bf16(x)), y = tile_bf16_to_f32(tile_f32_to_bf16(y));
                            r += (double)x * y;
                        }
                        if (!(fabs(ct[o2 + i * s + j] - r) <= 1e-5 * s * 0.25)) ++bad;
                    }
            bad_total += bad;
            std::vector<std::vector<float>> ms(nv);
            if (time_interleaved(ex, nv, o.iters, ms.data(), launch)) return 1;
            const double tm = stats(ms[0]).median, cm = stats(ms[1]).median;
            const double fl = 2.0 * s * s * (double)s * batch;
            const double ttf = fl / (tm * 1e-3) / 1e12, ctf = fl / (cm * 1e-3) / 1e12;
            char rec[64] = "";
            if (!bf) snprintf(rec, sizeof rec, "%.1f TFLOP/s (tile / MathDx %.2f)", warp_mathdx[si], ttf / warp_mathdx[si]);
            printf("%-5s %4d %7ld %10.4f %10.4f %9.2f %9.2f %7.2f %s%s\n", bf ? "bf16" : "f32", s, batch, tm, cm, ttf, ctf,
                   ttf / ctf, rec, bad ? "  RESULT FAIL" : "");
            for (size_t x = 0; x < ext.size(); ++x) { /* candidates, same run: not targets, comparisons */
                const double om = stats(ms[2 + x]).median, otf = fl / (om * 1e-3) / 1e12;
                printf("  %s s=%d variant [%s]: %.4f ms, %.2f TFLOP/s, tile / cuBLAS = %.2f, %.2fx the default's time%s\n",
                       bf ? "bf16" : "f32", s, ext[x]->name, om, otf, otf / ctf, om / tm, xbad[x] ? " RESULT FAIL" : "");
                if (csv)
                    fprintf(csv, "%s,%s,\"%s\",%s-%s,%d,%ld,%.5f,%.5f,%.3f,%.3f,%.4f,%s,-\n", env.date, env.commit,
                            env.prop.name, bf ? "bf16" : "f32", ext[x]->name, s, batch, om, cm, otf, ctf, otf / ctf,
                            xbad[x] ? "FAIL" : "PASS");
            }
            char label[64];
            snprintf(label, sizeof label, "%s s=%d tile / cuBLAS", bf ? "bf16" : "f32", s);
            const bool pass = print_target(label, ttf / ctf, ">=", 1.0, 2, bad == 0);
            all_pass = all_pass && pass;
            if (csv)
                fprintf(csv, "%s,%s,\"%s\",%s,%d,%ld,%.5f,%.5f,%.3f,%.3f,%.4f,%s,%s\n", env.date, env.commit,
                        env.prop.name, bf ? "bf16" : "f32", s, batch, tm, cm, ttf, ctf, ttf / ctf, bad ? "FAIL" : "PASS",
                        pass ? "PASS" : "FAIL");
        }
    printf("correctness: %s\n", bad_total ? "FAIL" : "PASS");
    if (csv && csv_close(csv, o.csv)) return 1;
    cublasDestroy(h);
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(Ct));
    CK(cudaFree(Cc));
    CK(cudaFree(Co));
    CK(cudaFree(Ah));
    CK(cudaFree(Bh));
    if (bad_total) return 1;
    if (o.strict && !all_pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 20, 3); }
