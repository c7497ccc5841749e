/* Reusable code over tiles (docs/launch.md, docs/design.md): ordinary
 * functions that take tiles and the kernel context and call cooperative
 * operations (block reductions, a shared tile from the arena, another such
 * function), written once and called from kernels of 64 and of 128 threads.
 *
 * Each row of a 6 x 256 array is standardized (mean 0, variance 1): rows 0-2
 * by a kernel of 64 threads, rows 3-5 by one of 128, both through the same
 * functions. Prints
 *   standardized rows: 6 of 6 match the double-precision reference
 * on either target (`reusable_tiles cpu` forces the CPU). The same file
 * builds with gcc -x c.
 *
 * Why a macro around the functions: a register tile of 256 floats has
 * ceil(256 / B) slots per thread, so its type depends on the block size B,
 * and C has no compile-time parameters; ROW_FUNCTIONS(B) stamps the tile
 * type and the functions once per block size (the only macro; the bodies are
 * plain statements). A function for one block size needs no macro at all.
 */
#include <math.h>
#include "example_util.h"

#define RT_N 256
#define RT_ROWS 6

#define ROW_FUNCTIONS(B)                                                           \
    typedef TILE_FN_REG_T(float, B, RT_N) row##B;                                  \
    /* t -= mean(t); the mean goes through a shared tile from the arena */        \
    TILE_FN(row_center##B, B, row##B *t, float *mean) {                            \
        tile_sum(s, *t);                                                           \
        *mean = tile_value(s) / (float)RT_N;                                       \
        tile_shared(float, m, RT_N);                                               \
        tile_full(m, *mean);                                                       \
        tile_sub(*t, *t, m);                                                       \
        TILE_FN_RETURN;                                                            \
    }                                                                              \
    /* t = (t - mean) / sqrt(variance): calls row_center, then reduces again */   \
    TILE_FN(row_standardize##B, B, row##B *t) {                                    \
        float mean;                                                                \
        tile_call(row_center##B, t, &mean);                                        \
        tile_reg(float, sq, RT_N);                                                 \
        tile_mul(sq, *t, *t);                                                      \
        tile_sum(ss, sq);                                                          \
        const float var = tile_value(ss) / (float)RT_N;                            \
        tile_imul_c(*t, 1.0f / sqrtf(var));                                        \
        TILE_FN_RETURN;                                                            \
    }
ROW_FUNCTIONS(64)
ROW_FUNCTIONS(128)

/* Two kernels, two block sizes, one set of functions. The arena holds the
 * shared tile row_center allocates. */
TILE_KERNEL_SMEM(standardize64, 64, RT_N * 4, float *a, int row0) {
    const int r = row0 + tile_block(0);
    row64 t;
    tile_load(t, tile_array1(a + (size_t)r * RT_N, RT_N), 0);
    tile_call(row_standardize64, &t);
    tile_store(tile_array1(a + (size_t)r * RT_N, RT_N), t, 0);
}
TILE_KERNEL_SMEM(standardize128, 128, RT_N * 4, float *a, int row0) {
    const int r = row0 + tile_block(0);
    row128 t;
    tile_load(t, tile_array1(a + (size_t)r * RT_N, RT_N), 0);
    tile_call(row_standardize128, &t);
    tile_store(tile_array1(a + (size_t)r * RT_N, RT_N), t, 0);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    static float a[RT_ROWS * RT_N], in[RT_ROWS * RT_N];
    for (int i = 0; i < RT_ROWS * RT_N; ++i) /* rows of different means and spreads */
        in[i] = (float)(i / RT_N) * 3.0f + (float)((i * 37) % 101) * 0.01f * (float)(1 + i / RT_N);
    float *da = (float *)tile_alloc(ex, sizeof(a));
    if (!da) return 1;
    if (example_check(tile_copy_to(ex, da, in, sizeof(in)), "copy") ||
        example_check(tile_launch(ex, standardize64, tile_grid1(3), 64, da, 0), "launch 64") ||
        example_check(tile_launch(ex, standardize128, tile_grid1(3), 128, da, 3), "launch 128") ||
        example_check(tile_synchronize(ex), "kernel") || example_check(tile_copy_from(ex, a, da, sizeof(a)), "copy"))
        return 1;
    fprintf(stderr, "standardize the rows of a %d x %d array: rows 0-2 with 64 threads, 3-5 with 128 (%s)\n", RT_ROWS,
            RT_N, example_target_name(ex));
    int good = 0;
    for (int r = 0; r < RT_ROWS; ++r) {
        double mean = 0, var = 0, err = 0;
        for (int j = 0; j < RT_N; ++j) mean += in[r * RT_N + j];
        mean /= RT_N;
        for (int j = 0; j < RT_N; ++j) var += (in[r * RT_N + j] - mean) * (in[r * RT_N + j] - mean);
        var /= RT_N;
        for (int j = 0; j < RT_N; ++j) {
            const double want = (in[r * RT_N + j] - mean) / sqrt(var);
            err = fmax(err, fabs(a[r * RT_N + j] - want));
        }
        good += err < 1e-4;
    }
    printf("standardized rows: %d of %d match the double-precision reference\n", good, RT_ROWS);
    tile_free(ex, da);
    return example_verdict(good == RT_ROWS, "6 of 6 rows standardized");
}
