/* The seed's GEMM: C = A @ B with A 56x48 and B 48x20 in 8x4 output tiles,
 * one block of 64 threads per tile, stepping over K in chunks of 8; each step
 * loads an 8x8 tile of A and an 8x4 tile of B (register tiles, staged into
 * the arena by tile_matmul) and accumulates sum += a @ b. Checked against a
 * CPU product in double. Prints: gemm 56x48x20: max error ... passed */
#include <math.h>
#include "example_util.h"

#define TILE_M 8
#define TILE_N 4
#define TILE_K 8
#define TILE_THREADS 64
#define M (TILE_M * 7)
#define K (TILE_K * 6)
#define N (TILE_N * 5)

TILE_KERNEL_SMEM(tile_gemm, TILE_THREADS, TILE_MATMUL_SMEM_BYTES(float, float, TILE_M, TILE_N, TILE_K),
                 const float *A, const float *B, float *C) {
    int i = tile_block(0), j = tile_block(1);
    tile_reg(float, sum, TILE_M, TILE_N);
    tile_zeros(sum);
    for (int k = 0; k < K / TILE_K; ++k) {
        tile_reg(float, a, TILE_M, TILE_K);
        tile_reg(float, b, TILE_K, TILE_N);
        tile_load(a, tile_array2(A, M, K), i * TILE_M, k * TILE_K);
        tile_load(b, tile_array2(B, K, N), k * TILE_K, j * TILE_N);
        tile_matmul(sum, a, b); /* sum += a @ b */
    }
    tile_store(tile_array2(C, M, N), sum, i * TILE_M, j * TILE_N);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    static float a[M * K], b[K * N], c[M * N];
    for (int i = 0; i < M * K; ++i) a[i] = tile_hash_unit(42, (uint32_t)i);
    for (int i = 0; i < K * N; ++i) b[i] = tile_hash_unit(43, (uint32_t)i);
    float *da = (float *)tile_alloc(ex, sizeof a), *db = (float *)tile_alloc(ex, sizeof b),
          *dc = (float *)tile_alloc(ex, sizeof c);
    if (!da || !db || !dc) return 1;
    if (example_check(tile_copy_to(ex, da, a, sizeof a), "copy") ||
        example_check(tile_copy_to(ex, db, b, sizeof b), "copy") ||
        example_check(tile_launch(ex, tile_gemm, tile_grid2(M / TILE_M, N / TILE_N), TILE_THREADS,
                                  (const float *)da, (const float *)db, dc), "launch") ||
        example_check(tile_synchronize(ex), "kernel") || example_check(tile_copy_from(ex, c, dc, sizeof c), "copy"))
        return 1;
    double maxerr = 0;
    int ok = 1;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double r = 0;
            for (int k = 0; k < K; ++k) r += (double)a[i * K + k] * b[k * N + j];
            double e = fabs(c[i * N + j] - r);
            if (e > maxerr) maxerr = e;
            if (!(e <= 1e-3 * fabs(r))) ok = 0; /* the seed's rtol */
        }
    printf("gemm %dx%dx%d on the %s: max error %.3g vs a double CPU product: %s\n", M, K, N,
           ex.device >= 0 ? "GPU" : "CPU", maxerr, ok ? "passed" : "FAILED");
    tile_free(ex, da);
    tile_free(ex, db);
    tile_free(ex, dc);
    return ok ? 0 : 1;
}
