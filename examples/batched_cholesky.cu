/* Batched Cholesky: factor 1000 SPD matrices of 40 x 40 (A = L L^T), solve
 * A x = b for each, and print the largest relative residual
 * ||A x - b|| / ||b|| (a few 1e-7 in f32) and the info values. The factor
 * is L itself (zeros above the diagonal, as numpy.linalg.cholesky). The same
 * file builds with gcc -x c; `batched_cholesky cpu` forces the CPU.
 * Prints, e.g.:
 *   factored 1000 matrices of 40 x 40: 1000 with info 0
 *   entries of L above the diagonal that are not 0: 0
 *   max ||A x - b|| / ||b|| = 3.2e-07
 *   non-SPD matrix: info 3 (the third pivot is not positive) */
#include <math.h>
#include <stdlib.h>
#include "example_util.h"

#define N 40
#define BATCH 1000

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    const size_t na = (size_t)N * N * BATCH, nb = (size_t)N * BATCH;
    float *a = (float *)malloc(na * sizeof(float)), *l = (float *)malloc(na * sizeof(float));
    float *b = (float *)malloc(nb * sizeof(float)), *x = (float *)malloc(nb * sizeof(float));
    int *info = (int *)malloc(BATCH * sizeof(int));
    if (!a || !l || !b || !x || !info) return 1;
    /* SPD: symmetric, small off the diagonal, N + 1 on it */
    for (int m = 0; m < BATCH; ++m)
        for (int i = 0; i < N; ++i)
            for (int j = 0; j <= i; ++j) {
                float v = i == j ? N + 1.0f : tile_hash_unit((uint32_t)m, (uint32_t)(i * N + j)) - 0.5f;
                a[(size_t)m * N * N + i * N + j] = a[(size_t)m * N * N + j * N + i] = v;
            }
    for (size_t i = 0; i < nb; ++i) b[i] = tile_hash_unit(7u, (uint32_t)i);

    float *da = (float *)tile_alloc(ex, na * sizeof(float)), *db = (float *)tile_alloc(ex, nb * sizeof(float));
    int *dinfo = (int *)tile_alloc(ex, BATCH * sizeof(int));
    if (!da || !db || !dinfo) return 1;
    if (example_check(tile_copy_to(ex, da, a, na * sizeof(float)), "copy") ||
        example_check(tile_copy_to(ex, db, b, nb * sizeof(float)), "copy") ||
        example_check(tile_chol_batched_f32(ex, da, N, BATCH, dinfo), "factor") ||
        example_check(tile_chol_batched_solve_f32(ex, da, db, N, 1, BATCH), "solve") ||
        example_check(tile_synchronize(ex), "kernels") ||
        example_check(tile_copy_from(ex, l, da, na * sizeof(float)), "copy") ||
        example_check(tile_copy_from(ex, x, db, nb * sizeof(float)), "copy") ||
        example_check(tile_copy_from(ex, info, dinfo, BATCH * sizeof(int)), "copy"))
        return 1;
    int ok = 0;
    long upper = 0;
    double worst = 0;
    for (int m = 0; m < BATCH; ++m) {
        const float *am = a + (size_t)m * N * N, *xm = x + (size_t)m * N, *bm = b + (size_t)m * N;
        double r2 = 0, b2 = 0;
        for (int i = 0; i < N; ++i) {
            double s = 0;
            for (int j = 0; j < N; ++j) s += (double)am[i * N + j] * xm[j];
            r2 += (s - bm[i]) * (s - bm[i]);
            b2 += (double)bm[i] * bm[i];
        }
        const double r = sqrt(r2 / b2);
        worst = r > worst || r != r ? r : worst;
        ok += info[m] == 0;
        for (int i = 0; i < N; ++i)
            for (int j = i + 1; j < N; ++j) upper += l[(size_t)m * N * N + i * N + j] != 0.0f;
    }
    printf("factored %d matrices of %d x %d: %d with info 0\n", BATCH, N, N, ok);
    printf("entries of L above the diagonal that are not 0: %ld\n", upper);
    printf("max ||A x - b|| / ||b|| = %.1e\n", worst);
    /* a matrix that is not SPD: the third pivot is 1 - 4 - 0 < 0 */
    float bad[9] = {1, 0, 2, 0, 1, 0, 2, 0, 1};
    int binfo = 0;
    float *dbad = (float *)tile_alloc(ex, sizeof bad);
    int *dbinfo = (int *)tile_alloc(ex, sizeof(int));
    if (!dbad || !dbinfo || example_check(tile_copy_to(ex, dbad, bad, sizeof bad), "copy") ||
        example_check(tile_chol_batched_f32(ex, dbad, 3, 1, dbinfo), "factor") ||
        example_check(tile_copy_from(ex, &binfo, dbinfo, sizeof(int)), "copy"))
        return 1;
    printf("non-SPD matrix: info %d (the third pivot is not positive)\n", binfo);
    tile_free(ex, da);
    tile_free(ex, db);
    tile_free(ex, dinfo);
    tile_free(ex, dbad);
    tile_free(ex, dbinfo);
    free(a); free(l); free(b); free(x); free(info);
    return ok == BATCH && upper == 0 && worst < 1e-5 && binfo == 3 ? 0 : 1;
}
