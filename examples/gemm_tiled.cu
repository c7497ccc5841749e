/* gemm_tiled - a large GEMM written with tile.h: the model to copy.
 *
 *   C (M x N, f32) = A (M x K) @ B (K x N), all row-major,
 *   for f32 inputs (FMA, f32 accumulation: no tf32) and bf16 inputs (tensor
 *   cores, mma.sync, f32 accumulation).
 *
 * How the work is cut:
 *  - grid: one block of 256 threads per BM x BN tile of C, a tiled launch of
 *    ceil(M / BM) * ceil(N / BN) blocks (GROUP > 1: blocks walk GROUP tile
 *    rows at a time, so the ones running together share B's columns in L2);
 *  - the block walks K in windows of BK: A's BM x BK window and B's BK x BN
 *    window are copied into shared tiles by cp.async (tile_matmul_load_async),
 *    STAGES copies deep: while window k is multiplied, windows k + 1 ..
 *    k + STAGES - 1 are on their way (STAGES = 2 is plain double buffering);
 *  - tile_matmul_acc_add adds window k's product into an accumulator that
 *    stays in registers for the whole K loop (f32: an 8 x 8 FMA micro-tile a
 *    thread; bf16: each warp a 64 x 64 tile of mma fragments);
 *  - the accumulator is stored into C once, at the end.
 * bf16 windows have rows TILE_MATMUL_PAD(T) = 8 elements longer in shared
 * memory: tensor-core fragment reads (ldmatrix, 8 rows at a time) then hit
 * all 32 banks instead of a few; f32 rows need none (FMA reads are conflict
 * free). Edges: windows that reach past M, N or K read zeros (the copy takes
 * tile_load_async's path there) and the store drops what lies outside C, so
 * any M, N, K work; multiples of the tile keep every copy on the fast path.
 *
 *   gemm_tiled [cpu]      GPU 0 when there is one, else (or with "cpu") the CPU
 *
 * The CPU runs small odd-sized problems, the GPU larger ones (also odd, so
 * that every edge is exercised); each C is checked element by element against
 * a double-precision product of the same inputs (bf16 inputs rounded as the
 * kernel reads them), within 1e-4 of sum |a b|. bench/gemm_large_bench.cu
 * times this kernel against cuBLAS. The same file builds with gcc -x c.
 */
#include <math.h>
#include <stdlib.h>
#include "example_util.h"

/* A's stage tiles: BM x (BK + pad) row-major windows, or (AKM 1, k-major)
 * BK x (BM + 4): A's window stored transposed, so a thread's 8 rows of one
 * k are consecutive (two 16-byte loads; 4 more columns: rows stay 16-byte
 * aligned and the copies' k rows spread over the banks) */
#define GEMM_AR(AKM, BM, BK) ((AKM) ? (BK) : (BM))
#define GEMM_AC(T, AKM, BM, BK) ((AKM) ? (BM) + 4 : (BK) + TILE_MATMUL_PAD(T))
/* arena bytes: STAGES windows of A (BM x BK) and of B (BK x BN), padded rows */
#define GEMM_SMEM(T, BM, BN, BK, STAGES) GEMM_SMEM_A(T, BM, BN, BK, STAGES, 0)
#define GEMM_SMEM_A(T, BM, BN, BK, STAGES, AKM)                                    \
    ((STAGES) * (TILE_SMEM_BYTES(T, GEMM_AR(AKM, BM, BK), GEMM_AC(T, AKM, BM, BK)) + \
                 TILE_SMEM_BYTES(T, BK, (BN) + TILE_MATMUL_PAD(T))))
/* name: A's BM x BK window in stage tile pad: a view, or (AKM 1) the
 * transposed view of the BK x BM view (tile_transpose_view: strides (1, BM + 4)) */
#define GEMM_AWIN(AKM, name, pad, BM, BK) GEMM_AWIN_(AKM, name, pad, BM, BK)
#define GEMM_AWIN_(AKM, name, pad, BM, BK) GEMM_AWIN_##AKM(name, pad, BM, BK)
#define GEMM_AWIN_0(name, pad, BM, BK) tile_view(name, pad, (BM, BK), (0, 0))
#define GEMM_AWIN_1(name, pad, BM, BK)                                             \
    tile_view(name##_k, pad, (BK, BM), (0, 0));                                    \
    tile_transpose_view(name, name##_k)

/* Window kk of A and B into stage kk % STAGES: views of the padded stage
 * tiles, filled by 16-byte cp.async copies (each starts with a barrier, so
 * the stage's previous readers are done; AKM 1: A by 4-byte copies, one an
 * element, into the transposed view). */
#define GEMM_LOAD_WINDOW(T, BM, BN, BK, STAGES, kk) GEMM_LOAD_WINDOW_L(T, BM, BN, BK, STAGES, kk, tile_matmul_load_async, 0)
/* LOAD: tile_matmul_load_async, or its _nosync form (no barrier: the caller
 * has one between the stage's last read and this copy) */
#define GEMM_LOAD_WINDOW_L(T, BM, BN, BK, STAGES, kk, LOAD, AKM)                   \
    do {                                                                           \
        tile_stage(a_pad, a_st, (kk) % (STAGES));                                  \
        tile_stage(b_pad, b_st, (kk) % (STAGES));                                  \
        GEMM_AWIN(AKM, a_win, a_pad, BM, BK);                                      \
        tile_view(b_win, b_pad, (BK, BN), (0, 0));                                 \
        LOAD(a_win, tile_array2(A, M, K), i0, (kk) * (BK));                        \
        LOAD(b_win, tile_array2(B, K, N), (kk) * (BK), j0);                        \
    } while (0)

#ifdef __cplusplus
#define GEMM_STATIC_ASSERT(c, msg) static_assert(c, msg)
#else
#define GEMM_STATIC_ASSERT(c, msg) _Static_assert(c, msg)
#endif
/* The kernel for input type T. C has no templates: the body is a macro,
 * instantiated below once per input type and tile shape. THREADS a block;
 * MINB: resident blocks an SM the compiler must leave room for
 * (TILE_KERNEL_SMEM_BOUNDS: registers capped at 65536 / (THREADS * MINB);
 * 0 leaves the choice to the compiler). */
#define GEMM_KERNEL(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP)             \
    GEMM_KERNEL_X(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP, 0, 0)
#define GEMM_KERNEL_B(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP, BAR1)     \
    GEMM_KERNEL_X(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP, BAR1, 0)
/* BAR1 1: one block barrier a k window instead of three. Window k is waited
 * for first (tile_async_wait(STAGES - 2): its barrier also means every
 * thread has finished window k - 1's product), then window k + STAGES - 1 is
 * issued without a barrier (tile_matmul_load_async_nosync) into the stage
 * window k - 1 used, then window k is multiplied while it flies. BAR1 0: the
 * loads come first, each with its own barrier (tile_matmul_load_async), then
 * the wait (STAGES - 1) and its barrier.
 * AKM 1 (4- and 8-byte inputs: the FMA path): A's windows k-major in shared
 * memory (GEMM_AWIN), copied by one 4-byte cp.async an element (the
 * transposition happens in the copy); tile_matmul_acc_add then reads a
 * thread's 8 rows of one k as two 16-byte words, where the row-major window
 * takes two 16-byte words along k for each of the 8 rows (32 registers live,
 * and two row groups of a warp on the same banks). */
#define GEMM_KERNEL_X(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP, BAR1, AKM) \
    TILE_KERNEL_SMEM_BOUNDS(name, THREADS, GEMM_SMEM_A(T, BM, BN, BK, STAGES, AKM), MINB, const T *A, \
                            const T *B, float *C, int M, int N, int K) {           \
        /* C's tile of this block: blocks go down GROUP tile rows before they \
         * move one tile column right, so the blocks running at once share    \
         * B's columns in L2 (GROUP 1: row by row). The grid rounds the tile  \
         * rows up to a multiple of GROUP (constant divisors: a runtime one   \
         * cost 60 registers); blocks past M leave at once. */                \
        const int tn = (N + (BN)-1) / (BN), tb = tile_block(0), tr = tb % ((GROUP)*tn); \
        const int i0 = (tb / ((GROUP)*tn) * (GROUP) + tr % (GROUP)) * (BM), j0 = tr / (GROUP) * (BN); \
        if (i0 >= M) return; /* the whole block: before any barrier */         \
        GEMM_STATIC_ASSERT(!(BAR1) || (STAGES) >= 2, "gemm_tiled: BAR1 needs STAGES >= 2"); \
        GEMM_STATIC_ASSERT(!(AKM) || sizeof(T) >= 4, "gemm_tiled: AKM is for 4- and 8-byte inputs"); \
        tile_shared_stages(T, a_st, STAGES, GEMM_AR(AKM, BM, BK), GEMM_AC(T, AKM, BM, BK)); \
        tile_shared_stages(T, b_st, STAGES, BK, (BN) + TILE_MATMUL_PAD(T));        \
        /* the accumulator: C's BM x BN tile, in registers, zero */                \
        tile_stage(a_pad0, a_st, 0);                                               \
        tile_stage(b_pad0, b_st, 0);                                               \
        GEMM_AWIN(AKM, a_win0, a_pad0, BM, BK);                                    \
        tile_view(b_win0, b_pad0, (BK, BN), (0, 0));                               \
        tile_matmul_acc(acc, a_win0, b_win0);                                      \
        const int nk = (K + (BK)-1) / (BK);                                        \
        /* prologue: windows 0 .. STAGES - 2 in flight, one group each */         \
        for (int kk = 0; kk < (STAGES)-1; ++kk) {                                  \
            if (kk < nk) GEMM_LOAD_WINDOW_L(T, BM, BN, BK, STAGES, kk, tile_matmul_load_async, AKM); \
            tile_async_commit();                                                   \
        }                                                                          \
        for (int k = 0; k < nk; ++k) {                                             \
            if (BAR1) {                                                            \
                /* k + STAGES - 1 groups committed; at most STAGES - 2 still  \
                 * pending: window k has landed; the barrier: visible to all,  \
                 * and window k - 1's stage is free */                         \
                tile_async_wait((STAGES) >= 2 ? (STAGES)-2 : 0);                   \
                if (k + (STAGES)-1 < nk)                                           \
                    GEMM_LOAD_WINDOW_L(T, BM, BN, BK, STAGES, k + (STAGES)-1, tile_matmul_load_async_nosync, AKM); \
                tile_async_commit();                                               \
            } else {                                                               \
            /* issue window k + STAGES - 1 into the stage window k - 1 used */    \
            if (k + (STAGES)-1 < nk)                                               \
                GEMM_LOAD_WINDOW_L(T, BM, BN, BK, STAGES, k + (STAGES)-1, tile_matmul_load_async, AKM); \
            tile_async_commit();                                                   \
            /* k + STAGES groups committed; at most STAGES - 1 still pending:   \
             * window k has landed (and a block barrier: visible to all) */    \
            tile_async_wait((STAGES)-1);                                           \
            }                                                                      \
            tile_stage(a_pad, a_st, k % (STAGES));                                 \
            tile_stage(b_pad, b_st, k % (STAGES));                                 \
            GEMM_AWIN(AKM, a_win, a_pad, BM, BK);                                  \
            tile_view(b_win, b_pad, (BK, BN), (0, 0));                             \
            tile_matmul_acc_add(acc, a_win, b_win); /* acc += A_k @ B_k */         \
        }                                                                          \
        tile_async_wait(0); /* no copy outlives the kernel (the last groups are empty) */ \
        tile_matmul_acc_store(tile_array2(C, M, N), acc, i0, j0);                  \
    }

/* The shapes (each can be set with -D: bench/gemm_large_bench.cu times other
 * candidates side by side; the defaults are the winners of its runs, the
 * latest bench/results/2026-11-28-h200-linalg-bbcd86d-bench.txt). f32: 128 x
 * 128 per block, 256 threads, an 8 x 8 micro-tile a thread, 32-wide windows
 * (A k-major: AKM 1; 3 stages, 96 KiB), one barrier a window (BAR1 1), MINB
 * 2: registers capped at 128 so 2 blocks share an SM (one block's barrier
 * waits overlap the other's FMAs): 41.6 TFLOP/s, 0.81 of cuBLAS on an H200,
 * against 0.69 for the previous default (16-wide row-major windows, three
 * barriers a window). bf16 (mma.sync, the sm_80 path; on sm_90 the model is
 * examples/gemm_wgmma.cu, 0.78 of cuBLAS): 128 x 256 per block, 64 x 64 a
 * warp, 64-wide windows (18 + 33 KiB a stage), 3 stages (153 KiB), one block
 * an SM, BAR1: 258 TFLOP/s, 0.34 of cuBLAS. */
#ifndef GEMM_F32_BM
#define GEMM_F32_BM 128
#endif
#ifndef GEMM_F32_BN
#define GEMM_F32_BN 128
#endif
#ifndef GEMM_F32_BK
#define GEMM_F32_BK 32
#endif
#ifndef GEMM_F32_STAGES
#define GEMM_F32_STAGES 3
#endif
#ifndef GEMM_F32_THREADS
#define GEMM_F32_THREADS 256
#endif
#ifndef GEMM_F32_MINB
#define GEMM_F32_MINB 2
#endif
#ifndef GEMM_F32_GROUP
#define GEMM_F32_GROUP 1
#endif
#ifndef GEMM_BF16_BM
#define GEMM_BF16_BM 128
#endif
#ifndef GEMM_BF16_BN
#define GEMM_BF16_BN 256
#endif
#ifndef GEMM_BF16_BK
#define GEMM_BF16_BK 64
#endif
#ifndef GEMM_BF16_STAGES
#define GEMM_BF16_STAGES 3
#endif
#ifndef GEMM_BF16_THREADS
#define GEMM_BF16_THREADS 256
#endif
#ifndef GEMM_BF16_MINB
#define GEMM_BF16_MINB 0
#endif
#ifndef GEMM_BF16_GROUP
#define GEMM_BF16_GROUP 1
#endif
#ifndef GEMM_F32_BAR1
#define GEMM_F32_BAR1 1
#endif
#ifndef GEMM_BF16_BAR1
#define GEMM_BF16_BAR1 1
#endif
#ifndef GEMM_F32_AKM
#define GEMM_F32_AKM 1
#endif
GEMM_KERNEL_X(gemm_f32, float, GEMM_F32_THREADS, GEMM_F32_BM, GEMM_F32_BN, GEMM_F32_BK, GEMM_F32_STAGES, GEMM_F32_MINB,
              GEMM_F32_GROUP, GEMM_F32_BAR1, GEMM_F32_AKM)
GEMM_KERNEL_B(gemm_bf16, tile_bf16, GEMM_BF16_THREADS, GEMM_BF16_BM, GEMM_BF16_BN, GEMM_BF16_BK, GEMM_BF16_STAGES,
              GEMM_BF16_MINB, GEMM_BF16_GROUP, GEMM_BF16_BAR1)

/* the launch of a GEMM_KERNEL: one block per BM x BN tile of C, tile rows
 * rounded up to a multiple of GROUP (the kernel maps the block index to its
 * tile) */
#define GEMM_LAUNCH(ex, name, T, THREADS, BM, BN, GROUP, A, B, C, M, N, K)         \
    tile_launch(ex, name,                                                          \
                tile_grid1((int64_t)((((M) + (BM)-1) / (BM) + (GROUP)-1) / (GROUP) * (GROUP)) * \
                           (((N) + (BN)-1) / (BN))),                               \
                THREADS, (const T *)(A), (const T *)(B), C, M, N, K)

/* C = A @ B on target ex; bf16: A and B are tile_bf16 */
static int gemm_launch(tile_exec ex, int bf16, const void *A, const void *B, float *C, int M, int N, int K) {
    if (bf16)
        return GEMM_LAUNCH(ex, gemm_bf16, tile_bf16, GEMM_BF16_THREADS, GEMM_BF16_BM, GEMM_BF16_BN, GEMM_BF16_GROUP, A,
                           B, C, M, N, K);
    return GEMM_LAUNCH(ex, gemm_f32, float, GEMM_F32_THREADS, GEMM_F32_BM, GEMM_F32_BN, GEMM_F32_GROUP, A, B, C, M, N,
                       K);
}

#ifndef GEMM_TILED_NO_MAIN
/* input element i of matrix `seed`, in [-0.5, 0.5): as f32, and as the kernel
 * reads it (bf16-rounded when bf16) */
static float gemm_val(uint32_t seed, size_t i, int bf16) {
    const float v = tile_hash_unit(seed, (uint32_t)i) - 0.5f;
    return bf16 ? tile_bf16_to_f32(tile_f32_to_bf16(v)) : v;
}

/* one problem on ex, checked against a double product; returns 1 when right */
static int run_case(tile_exec ex, int bf16, int M, int N, int K) {
    const size_t es = bf16 ? 2 : 4, na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    void *ha = malloc(na * es), *hb = malloc(nb * es);
    float *hc = (float *)malloc(nc * 4), *fa = (float *)malloc(na * 4), *fb = (float *)malloc(nb * 4);
    void *da = tile_alloc(ex, na * es), *db = tile_alloc(ex, nb * es);
    float *dc = (float *)tile_alloc(ex, nc * 4);
    int ok = ha && hb && hc && fa && fb && da && db && dc;
    if (ok) {
        for (size_t i = 0; i < na; ++i) {
            fa[i] = gemm_val(1, i, bf16);
            if (bf16) ((tile_bf16 *)ha)[i] = tile_f32_to_bf16(fa[i]);
            else ((float *)ha)[i] = fa[i];
        }
        for (size_t i = 0; i < nb; ++i) {
            fb[i] = gemm_val(2, i, bf16);
            if (bf16) ((tile_bf16 *)hb)[i] = tile_f32_to_bf16(fb[i]);
            else ((float *)hb)[i] = fb[i];
        }
        ok = !example_check(tile_copy_to(ex, da, ha, na * es), "copy") &&
             !example_check(tile_copy_to(ex, db, hb, nb * es), "copy") &&
             !example_check(gemm_launch(ex, bf16, da, db, dc, M, N, K), "launch") &&
             !example_check(tile_synchronize(ex), "kernel") &&
             !example_check(tile_copy_from(ex, hc, dc, nc * 4), "copy");
    }
    double maxrel = 0;
    long bad = 0;
    if (ok) {
        double *row = (double *)malloc((size_t)N * sizeof(double)), *arow = (double *)malloc((size_t)N * sizeof(double));
        ok = row && arow;
        for (int i = 0; ok && i < M; ++i) {
            for (int j = 0; j < N; ++j) row[j] = arow[j] = 0;
            for (int k = 0; k < K; ++k) {
                const double x = fa[(size_t)i * K + k];
                const float *brow = fb + (size_t)k * N;
                for (int j = 0; j < N; ++j) {
                    row[j] += x * brow[j];
                    arow[j] += fabs(x * brow[j]);
                }
            }
            for (int j = 0; j < N; ++j) {
                const double e = fabs((double)hc[(size_t)i * N + j] - row[j]), rel = e / (arow[j] + 1e-30);
                if (rel > maxrel) maxrel = rel;
                if (!(e <= 1e-4 * arow[j] + 1e-30)) {
                    if (bad < 5)
                        fprintf(stderr, "C[%d][%d] = %.9g, expected %.9g\n", i, j, (double)hc[(size_t)i * N + j], row[j]);
                    ++bad;
                }
            }
        }
        free(row);
        free(arow);
        ok = ok && bad == 0;
    }
    printf("gemm_tiled %s %dx%dx%d on the %s: max error %.2g of sum |a b| vs a double product: %s\n",
           bf16 ? "bf16" : "f32", M, N, K, example_target_name(ex), maxrel, ok ? "passed" : "FAILED");
    free(ha), free(hb), free(hc), free(fa), free(fb);
    tile_free(ex, da), tile_free(ex, db), tile_free(ex, dc);
    return ok;
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    int ok = 1;
    if (ex.device < 0) { /* small and odd: two block rows and columns, a partial last window */
        ok &= run_case(ex, 0, 200, 136, 88);
        ok &= run_case(ex, 1, 136, 264, 72);
    } else { /* larger, still odd: edges in M, N and K */
        ok &= run_case(ex, 0, 1000, 1064, 1016);
        ok &= run_case(ex, 1, 1000, 1064, 1016);
    }
    return example_verdict(ok, "C = A @ B within 1e-4 of sum |a b| (f32 and bf16 inputs)");
}
#endif
