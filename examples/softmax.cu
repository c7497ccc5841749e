/* Row-wise softmax, y[i, j] = exp(x[i, j] - max_j x[i, :]) / sum_j exp(...),
 * of a 1000 x 100 matrix, 8 rows per block in one 8 x 128 tile. The tile is
 * wider than a row and the last block has rows past the end: the load fills
 * those slots with -inf (exp(-inf) = 0, so they change neither the max nor
 * the sum) and the store drops them. The row max and the row sum are
 * keepdims reductions (shape 8 x 1) broadcast back over the tile.
 * Prints the largest difference from a double-precision reference and the
 * largest |row sum - 1| on either target (`softmax cpu` forces the CPU); the
 * same file builds with gcc -x c. */
#include <math.h>
#include <stdlib.h>
#include "example_util.h"

#define ROWS 1000
#define COLS 100
#define TR 8   /* rows per tile */
#define TC 128 /* tile width: COLS rounded up */
#define THREADS 128

TILE_FUNC float exp_f(float x) { return expf(x); }

TILE_KERNEL(softmax, THREADS, const float *x, float *y) {
    const int r0 = tile_block(0) * TR;
    tile_reg(float, t, TR, TC);
    tile_load_fill(t, tile_array2(x, ROWS, COLS), -INFINITY, r0, 0);
    tile_max_axis_keepdims(m, t, 1); /* (TR, 1): each row's max */
    tile_sub_bcast(t, t, m);         /* t - max, row by row */
    tile_map(t, exp_f, t);
    tile_sum_axis_keepdims(s, t, 1); /* (TR, 1): each row's sum */
    tile_div_bcast(t, t, s);
    tile_store(tile_array2(y, ROWS, COLS), t, r0, 0);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    float *x = (float *)malloc(sizeof(float) * ROWS * COLS), *y = (float *)malloc(sizeof(float) * ROWS * COLS);
    if (!x || !y) return 1;
    for (int i = 0; i < ROWS * COLS; ++i) /* spread over [-20, 20): exp varies over 17 decades */
        x[i] = (float)(tile_hash32(7u, (uint32_t)i) % 40000u) / 1000.0f - 20.0f;
    float *dx = (float *)tile_alloc(ex, sizeof(float) * ROWS * COLS), *dy = (float *)tile_alloc(ex, sizeof(float) * ROWS * COLS);
    if (!dx || !dy) return 1;
    if (example_check(tile_copy_to(ex, dx, x, sizeof(float) * ROWS * COLS), "copy") ||
        example_check(tile_launch(ex, softmax, tile_grid1((ROWS + TR - 1) / TR), THREADS, dx, dy), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, y, dy, sizeof(float) * ROWS * COLS), "copy"))
        return 1;
    double err = 0, sum_err = 0;
    for (int i = 0; i < ROWS; ++i) {
        double m = -INFINITY, s = 0, ys = 0;
        for (int j = 0; j < COLS; ++j) m = x[i * COLS + j] > m ? x[i * COLS + j] : m;
        for (int j = 0; j < COLS; ++j) s += exp((double)x[i * COLS + j] - m);
        for (int j = 0; j < COLS; ++j) {
            const double ref = exp((double)x[i * COLS + j] - m) / s, d = fabs(y[i * COLS + j] - ref);
            err = d > err || d != d ? d : err;
            ys += y[i * COLS + j];
        }
        sum_err = fabs(ys - 1) > sum_err ? fabs(ys - 1) : sum_err;
    }
    fprintf(stderr, "row-wise softmax of a %d x %d matrix, %d rows per block (%s):\n", ROWS, COLS, TR,
            example_target_name(ex));
    printf("max |y - double reference| = %.2e, max |row sum - 1| = %.2e\n", err, sum_err);
    tile_free(ex, dx);
    tile_free(ex, dy);
    free(x);
    free(y);
    return example_verdict(err < 1e-6 && sum_err < 1e-5, "both below 1e-6 and 1e-5");
}
