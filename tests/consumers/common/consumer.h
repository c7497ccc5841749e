/* The kernel every consumer project runs: each block sums one 128-element
 * row of a = i (row r holds r*128 .. r*128+127), so b[r] = 128*r*128 + 8128.
 * consumer_run() launches it on the GPU when there is one, else on the CPU,
 * checks b against those values and returns 0 when all agree. */
#ifndef CONSUMER_H
#define CONSUMER_H
#include <stdio.h>
#include <tile.h>

#define CONSUMER_N 128
#define CONSUMER_ROWS 4

TILE_KERNEL(consumer_row_sum, 32, const float *a, float *b) {
    int r = tile_block(0);
    tile_reg(float, t, CONSUMER_N);
    tile_load(t, tile_array1(a + (size_t)r * CONSUMER_N, CONSUMER_N), 0);
    tile_sum(s, t);
    tile_store(tile_array1(b, CONSUMER_ROWS), s, r);
}

static int consumer_run(const char *who) {
    tile_exec ex = tile_gpu_count() ? TILE_GPU(0) : TILE_CPU;
    static float a[CONSUMER_ROWS * CONSUMER_N], b[CONSUMER_ROWS];
    for (int i = 0; i < CONSUMER_ROWS * CONSUMER_N; ++i) a[i] = (float)i;
    float *da = (float *)tile_alloc(ex, sizeof a), *db = (float *)tile_alloc(ex, sizeof b);
    if (!da || !db) return 1;
    int err = tile_copy_to(ex, da, a, sizeof a);
    if (!err) err = tile_launch(ex, consumer_row_sum, tile_grid1(CONSUMER_ROWS), 32, da, db);
    if (!err) err = tile_synchronize(ex);
    if (!err) err = tile_copy_from(ex, b, db, sizeof b);
    tile_free(ex, da);
    tile_free(ex, db);
    if (err) {
        printf("%s: %s\n", who, tile_error_string(err));
        return 1;
    }
    int bad = 0;
    for (int r = 0; r < CONSUMER_ROWS; ++r) {
        const double want = (double)CONSUMER_N * r * CONSUMER_N + CONSUMER_N * (CONSUMER_N - 1) / 2.0;
        if ((double)b[r] != want) {
            printf("%s: b[%d] = %g, expected %g\n", who, r, (double)b[r], want);
            bad = 1;
        }
    }
    printf("%s (%s, tile.h %s): row sums %s\n", who, ex.device < 0 ? "CPU" : "GPU", TILE_VERSION_STRING,
           bad ? "WRONG" : "ok");
    return bad;
}
#endif
