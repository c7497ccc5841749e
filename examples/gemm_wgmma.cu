/* nvcc-arch: 90a (scripts/nvcc-one.sh and gpu-check.sh build this file for
 * sm_90a: wgmma exists only there; other archs run the FMA fallback)
 *
 * gemm_wgmma - the large bf16 GEMM written with tile/wgmma.h: the model to
 * copy for Hopper's warpgroup MMA.
 *
 *   C (M x N, f32) = alpha A (M x K) @ B (K x N) + beta C, all row-major,
 *   bf16 (or f16) inputs, f32 accumulation.
 *
 * How the work is cut (the defaults: 128 x 256 tiles, 4 stages):
 *  - grid: one block per BM x BN tile of C, BM / 64 warpgroups (256 threads
 *    for BM = 128): warpgroup g computes rows 64 g .. 64 g + 63 of the tile,
 *    BN / 2 f32 accumulators a thread (128 for BN = 256);
 *  - the block walks K in windows of 64: A's BM x 64 window and B's 64 x BN
 *    window are copied by cp.async into STAGES swizzled shared-memory stages
 *    (tile_wgmma_load_a / _b), STAGES - 2 windows ahead of the product;
 *  - per window: tile_wgmma_wait (the window has landed; a barrier), the
 *    copies of window k + STAGES - 2 are issued into the stage of window
 *    k - 2, then tile_wgmma_mma_async issues window k's 4 wgmma m64nBNk16
 *    and tile_wgmma_mma_wait(acc, 1) lets it run while waiting only for
 *    window k - 1's product: the tensor cores always have one window queued;
 *  - the accumulator goes to C once, at the end, edges dropped.
 * Edges: windows reaching past M, N or K are zero-filled by the copies
 * (cp.async's source size when rows are 16-byte aligned, element copies
 * otherwise), so any M, N, K work.
 *
 *   gemm_wgmma [cpu]      GPU 0 when there is one, else (or with "cpu") the CPU
 *
 * The CPU runs small odd-sized problems, the GPU larger ones; each C is
 * checked element by element against a double-precision product of the same
 * (bf16-rounded) inputs, within 1e-4 of sum |a b|. bench/wgmma_bench.cu times
 * this kernel against cublasGemmEx (define GEMM_WGMMA_NO_MAIN to include the
 * kernel and launcher). The same file builds with gcc -x c.
 */
#include <math.h>
#include <stdlib.h>
#include "example_util.h"
#include "tile/wgmma.h"

#ifdef __cplusplus
#define GEMM_WGMMA_STATIC_ASSERT(c, msg) static_assert(c, msg)
#else
#define GEMM_WGMMA_STATIC_ASSERT(c, msg) _Static_assert(c, msg)
#endif

/* The kernel for input type T (tile_bf16 with SFX bf16, tile_f16 with f16):
 * C has no templates, so the body is a macro instantiated once per type and
 * shape. BM x BN tile of C per block, STAGES >= 3 window stages. */
#define GEMM_WGMMA_KERNEL(name, SFX, T, BM, BN, STAGES)                            \
    TILE_KERNEL_SMEM(name, (BM) / 64 * 128, TILE_WGMMA_SMEM(BM, BN, STAGES), const T *A, const T *B, float *C, \
                     int M, int N, int K, float alpha, float beta) {               \
        GEMM_WGMMA_STATIC_ASSERT((STAGES) >= 3, "gemm_wgmma: STAGES >= 3 (loads STAGES - 2 windows ahead)"); \
        enum { P = (STAGES)-2 }; /* windows in flight ahead of the product */   \
        const int tn = (N + (BN)-1) / (BN), tb = tile_block(0);                    \
        const int i0 = tb / tn * (BM), j0 = tb % tn * (BN);                        \
        tile_wgmma_window_a_##SFX(aw, BM, STAGES);                                 \
        tile_wgmma_window_b_##SFX(bw, BN, STAGES);                                 \
        tile_wgmma_acc(acc, BM, BN);                                               \
        const tile_array a = tile_array2(A, M, K), b = tile_array2(B, K, N);       \
        const int nk = (K + TILE_WGMMA_BK - 1) / TILE_WGMMA_BK;                    \
        /* prologue: windows 0 .. P - 1 in flight, one group each */              \
        for (int w = 0; w < P; ++w) {                                              \
            if (w < nk) {                                                          \
                tile_wgmma_load_a(aw, w, a, i0, w * TILE_WGMMA_BK);                \
                tile_wgmma_load_b(bw, w, b, w * TILE_WGMMA_BK, j0);                \
            }                                                                      \
            tile_async_commit();                                                   \
        }                                                                          \
        for (int k = 0; k < nk; ++k) {                                             \
            /* P + k groups committed, at most P - 1 pending: window k has     \
             * landed; the barrier also means every warpgroup finished window  \
             * k - 2's product (its mma_wait(1) came in iteration k - 1) */    \
            tile_wgmma_wait(P - 1);                                                \
            if (k + P < nk) { /* into window k - 2's stage */                      \
                tile_wgmma_load_a(aw, k + P, a, i0, (k + P) * TILE_WGMMA_BK);      \
                tile_wgmma_load_b(bw, k + P, b, (k + P) * TILE_WGMMA_BK, j0);      \
            }                                                                      \
            tile_async_commit();                                                   \
            tile_wgmma_mma_async(acc, aw, k, bw, k); /* acc += A_k @ B_k */        \
            tile_wgmma_mma_wait(acc, 1);             /* window k - 1's is done */  \
        }                                                                          \
        tile_wgmma_mma_wait(acc, 0);                                               \
        tile_wgmma_wait(0); /* no copy outlives the kernel (the last groups are empty) */ \
        tile_wgmma_store_ab(tile_array2(C, M, N), acc, i0, j0, alpha, beta);       \
    }

/* the shapes (-D to try others): the prototype's winners on the H100
 * (bench/results/2026-11-25-h100-select-wgmma-689621c-bench.txt) */
#ifndef GEMM_WGMMA_BM
#define GEMM_WGMMA_BM 128
#endif
#ifndef GEMM_WGMMA_BN
#define GEMM_WGMMA_BN 256
#endif
#ifndef GEMM_WGMMA_STAGES
#define GEMM_WGMMA_STAGES 4
#endif
#define GEMM_WGMMA_THREADS (GEMM_WGMMA_BM / 64 * 128)
GEMM_WGMMA_KERNEL(gemm_wgmma_bf16, bf16, tile_bf16, GEMM_WGMMA_BM, GEMM_WGMMA_BN, GEMM_WGMMA_STAGES)

/* the launch of a GEMM_WGMMA_KERNEL: one block per BM x BN tile of C */
#define GEMM_WGMMA_LAUNCH(ex, name, T, BM, BN, A, B, C, M, N, K, alpha, beta)     \
    tile_launch(ex, name, tile_grid1((int64_t)(((M) + (BM)-1) / (BM)) * (((N) + (BN)-1) / (BN))), (BM) / 64 * 128, \
                (const T *)(A), (const T *)(B), (float *)(C), M, N, K, alpha, beta)

/* C = A @ B (bf16 A and B) on target ex */
static inline int gemm_wgmma_launch(tile_exec ex, const tile_bf16 *A, const tile_bf16 *B, float *C, int M, int N, int K) {
    return GEMM_WGMMA_LAUNCH(ex, gemm_wgmma_bf16, tile_bf16, GEMM_WGMMA_BM, GEMM_WGMMA_BN, A, B, C, M, N, K, 1.0f,
                             0.0f);
}

#ifndef GEMM_WGMMA_NO_MAIN
/* one problem on ex, checked against a double product; returns 1 when right */
static int run_case(tile_exec ex, int M, int N, int K) {
    const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    tile_bf16 *ha = (tile_bf16 *)malloc(na * 2), *hb = (tile_bf16 *)malloc(nb * 2);
    float *hc = (float *)malloc(nc * 4), *fa = (float *)malloc(na * 4), *fb = (float *)malloc(nb * 4);
    tile_bf16 *da = (tile_bf16 *)tile_alloc(ex, na * 2), *db = (tile_bf16 *)tile_alloc(ex, nb * 2);
    float *dc = (float *)tile_alloc(ex, nc * 4);
    int ok = ha && hb && hc && fa && fb && da && db && dc;
    if (ok) {
        for (size_t i = 0; i < na; ++i) {
            ha[i] = tile_f32_to_bf16(tile_hash_unit(1, (uint32_t)i) - 0.5f);
            fa[i] = tile_bf16_to_f32(ha[i]);
        }
        for (size_t i = 0; i < nb; ++i) {
            hb[i] = tile_f32_to_bf16(tile_hash_unit(2, (uint32_t)i) - 0.5f);
            fb[i] = tile_bf16_to_f32(hb[i]);
        }
        ok = !example_check(tile_copy_to(ex, da, ha, na * 2), "copy") &&
             !example_check(tile_copy_to(ex, db, hb, nb * 2), "copy") &&
             !example_check(gemm_wgmma_launch(ex, da, db, dc, M, N, K), "launch") &&
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
    printf("gemm_wgmma bf16 %dx%dx%d on the %s: max error %.2g of sum |a b| vs a double product: %s\n", M, N, K,
           example_target_name(ex), maxrel, ok ? "passed" : "FAILED");
    free(ha), free(hb), free(hc), free(fa), free(fb);
    tile_free(ex, da), tile_free(ex, db), tile_free(ex, dc);
    return ok;
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    int ok = 1;
    if (ex.device < 0) { /* small: two block rows and columns, a partial last window */
        ok &= run_case(ex, 200, 264, 136); /* rows 16-byte aligned: cp.async path, zero-filled edges */
        ok &= run_case(ex, 131, 300, 77);  /* odd K: element copies for A */
    } else { /* larger, still with edges in M, N and K */
        ok &= run_case(ex, 1000, 1064, 1016);
        ok &= run_case(ex, 999, 1001, 1003);
    }
    return example_verdict(ok, "C = A @ B within 1e-4 of sum |a b| (bf16 inputs, f32 accumulation)");
}
#endif
