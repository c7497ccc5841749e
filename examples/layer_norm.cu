/* Layer normalization of each row of a 1001 x 256 matrix:
 *   y[i, :] = (x[i, :] - mean_i) / sqrt(var_i + eps) * gamma + beta
 * 4 rows per block in one 4 x 256 tile; the last block's rows past the end
 * read as zeros and are not stored. Mean and variance are keepdims row sums
 * (shape 4 x 1) broadcast back over the tile; gamma and beta (shape 256) are
 * broadcast over the rows. Prints the largest difference from a
 * double-precision reference on either target (`layer_norm cpu` forces the
 * CPU); the same file builds with gcc -x c. */
#include <math.h>
#include <stdlib.h>
#include "example_util.h"

#define ROWS 1001
#define COLS 256
#define TR 4 /* rows per tile */
#define THREADS 128
#define EPS 1e-5f

TILE_FUNC float inv_std(float sum_sq) { return 1.0f / sqrtf(sum_sq / COLS + EPS); }

TILE_KERNEL(layer_norm, THREADS, const float *x, const float *gamma, const float *beta, float *y) {
    const int r0 = tile_block(0) * TR;
    tile_reg(float, t, TR, COLS);
    tile_load(t, tile_array2(x, ROWS, COLS), r0, 0);
    tile_reg(float, g, COLS);
    tile_reg(float, b, COLS);
    tile_load(g, tile_array1(gamma, COLS), 0);
    tile_load(b, tile_array1(beta, COLS), 0);

    tile_sum_axis_keepdims(mean, t, 1); /* (TR, 1) */
    tile_imul_c(mean, 1.0f / COLS);
    tile_sub_bcast(t, t, mean);         /* centred rows */
    tile_reg(float, sq, TR, COLS);
    tile_mul(sq, t, t);
    tile_sum_axis_keepdims(rs, sq, 1);  /* (TR, 1): sum of squares */
    tile_map(rs, inv_std, rs);          /* 1 / sqrt(var + eps) */
    tile_mul_bcast(t, t, rs);
    tile_mul_bcast(t, t, g);            /* gamma, broadcast over rows */
    tile_add_bcast(t, t, b);
    tile_store(tile_array2(y, ROWS, COLS), t, r0, 0);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    const size_t nb = sizeof(float) * ROWS * COLS;
    float *x = (float *)malloc(nb), *y = (float *)malloc(nb), gamma[COLS], beta[COLS];
    if (!x || !y) return 1;
    for (int i = 0; i < ROWS * COLS; ++i) /* rows with an offset: the mean matters */
        x[i] = (float)(tile_hash32(3u, (uint32_t)i) % 2000u) / 500.0f - 2.0f + (float)(i / COLS % 7);
    for (int j = 0; j < COLS; ++j) {
        gamma[j] = 0.5f + (float)j / COLS;
        beta[j] = (float)(j % 5) - 2.0f;
    }
    float *dx = (float *)tile_alloc(ex, nb), *dy = (float *)tile_alloc(ex, nb);
    float *dg = (float *)tile_alloc(ex, sizeof gamma), *db = (float *)tile_alloc(ex, sizeof beta);
    if (!dx || !dy || !dg || !db) return 1;
    if (example_check(tile_copy_to(ex, dx, x, nb), "copy") ||
        example_check(tile_copy_to(ex, dg, gamma, sizeof gamma), "copy") ||
        example_check(tile_copy_to(ex, db, beta, sizeof beta), "copy") ||
        example_check(tile_launch(ex, layer_norm, tile_grid1((ROWS + TR - 1) / TR), THREADS, dx, dg, db, dy), "launch") ||
        example_check(tile_synchronize(ex), "kernel") || example_check(tile_copy_from(ex, y, dy, nb), "copy"))
        return 1;
    double err = 0;
    for (int i = 0; i < ROWS; ++i) {
        double m = 0, v = 0;
        for (int j = 0; j < COLS; ++j) m += x[i * COLS + j];
        m /= COLS;
        for (int j = 0; j < COLS; ++j) v += (x[i * COLS + j] - m) * (x[i * COLS + j] - m);
        v /= COLS;
        for (int j = 0; j < COLS; ++j) {
            const double ref = (x[i * COLS + j] - m) / sqrt(v + (double)EPS) * gamma[j] + beta[j];
            const double d = fabs(y[i * COLS + j] - ref);
            err = d > err || d != d ? d : err;
        }
    }
    fprintf(stderr, "layer norm of the rows of a %d x %d matrix, %d rows per block (%s):\n", ROWS, COLS, TR,
            example_target_name(ex));
    printf("max |y - double reference| = %.2e\n", err);
    tile_free(ex, dx);
    tile_free(ex, dy);
    tile_free(ex, dg);
    tile_free(ex, db);
    free(x);
    free(y);
    return example_verdict(err < 5e-5, "below 5e-5 (float sums of 256 terms)");
}
