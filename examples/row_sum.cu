/* Warp's first tile example: each block loads one 256-element row and sums it.
 * Prints b = [0 256 512 768 1024 1280 1536 1792 2048 2304] on either target
 * (`row_sum cpu` forces the CPU). The same file builds with gcc -x c.
 *
 * The kernel runs twice: with tile_launch (one block per row) and with
 * tile_launch_persistent (resident blocks walk the rows: the schedule that
 * reaches memcpy bandwidth for many short rows, bench/row_sum_bench.cu); the
 * body is the same and so are the sums. */
#include "example_util.h"

#define TILE_N 256
#define TILE_THREADS 64
#define ROWS 10

TILE_KERNEL(row_sum, TILE_THREADS, const float *a, float *b) {
    int i = tile_block(0);                       /* one tile per row */
    tile_reg(float, t, TILE_N);                  /* 256 values, 4 per thread */
    tile_load(t, tile_array1(a + (size_t)i * TILE_N, TILE_N), 0);
    tile_sum(s, t);                              /* one-element tile */
    tile_store(tile_array1(b, ROWS), s, i);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    static float a[ROWS * TILE_N], b[ROWS];
    for (int i = 0; i < ROWS * TILE_N; ++i) a[i] = (float)(i / TILE_N);
    static float bp[ROWS];
    float *da = (float *)tile_alloc(ex, sizeof(a)), *db = (float *)tile_alloc(ex, sizeof(b));
    if (!da || !db) return 1;
    if (example_check(tile_copy_to(ex, da, a, sizeof(a)), "copy") ||
        example_check(tile_launch(ex, row_sum, tile_grid1(ROWS), TILE_THREADS, da, db), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, b, db, sizeof(b)), "copy") ||
        /* the same rows, persistent schedule (2 resident blocks per SM) */
        example_check(tile_launch_persistent(tile_exec_persistent(ex, 2), row_sum, tile_grid1(ROWS), TILE_THREADS,
                                             da, db),
                      "persistent launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, bp, db, sizeof(bp)), "copy"))
        return 1;
    fprintf(stderr, "row sums of a %d x %d array whose row i holds i (%s):\n", ROWS, TILE_N, example_target_name(ex));
    printf("b = [");
    int ok = 1;
    for (int i = 0; i < ROWS; ++i) {
        printf(i ? " %g" : "%g", b[i]);
        ok &= b[i] == (float)(TILE_N * i) && bp[i] == b[i];
    }
    printf("]\n");
    tile_free(ex, da);
    tile_free(ex, db);
    return example_verdict(ok, "b[i] = 256 * i, the same under both schedules");
}
