/* 2D tiles: a 64x48 array of ones cut into 16x16 tiles; each block sums its
 * tile and adds the sum into the total. Prints: tiles 4x3, total = 3072. */
#include "example_util.h"

#define TILE_M 16
#define TILE_N 16
#define TILE_THREADS 64
#define M 64
#define N 48

TILE_KERNEL(sum_2d, TILE_THREADS, const float *a, float *total) {
    int i = tile_block(0), j = tile_block(1);
    tile_reg(float, t, TILE_M, TILE_N);
    tile_load(t, tile_array2(a, M, N), i * TILE_M, j * TILE_N);
    tile_sum(s, t);
    tile_atomic_add(tile_array1(total, 1), s, 0);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    static float a[M * N];
    float total = 0;
    for (int i = 0; i < M * N; ++i) a[i] = 1.0f;
    float *da = (float *)tile_alloc(ex, sizeof(a)), *dt = (float *)tile_alloc(ex, sizeof(float));
    if (!da || !dt) return 1;
    if (example_check(tile_copy_to(ex, da, a, sizeof(a)), "copy") ||
        example_check(tile_copy_to(ex, dt, &total, sizeof(float)), "copy") ||
        example_check(tile_launch(ex, sum_2d, tile_grid2(M / TILE_M, N / TILE_N), TILE_THREADS, da, dt), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, &total, dt, sizeof(float)), "copy"))
        return 1;
    fprintf(stderr, "sum of a %dx%d array of ones in tiles of %dx%d (%s):\n", M, N, TILE_M, TILE_N,
            example_target_name(ex));
    printf("tiles %dx%d, total = %g\n", M / TILE_M, N / TILE_N, total);
    tile_free(ex, da);
    tile_free(ex, dt);
    return example_verdict(total == (float)(M * N), "3072 (64 * 48)");
}
