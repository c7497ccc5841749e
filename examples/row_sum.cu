/* Warp's first tile example: each block sums one 256-element row.
 * Prints b = [0 256 512 768 1024 1280 1536 1792 2048 2304] on either target;
 * `row_sum cpu` runs it on the CPU. */
#include <stdio.h>
#include <string.h>
#include <tile.h>

#define TILE_N 256
#define TILE_THREADS 64

TILE_KERNEL(row_sum, TILE_THREADS, const float *a, float *b, int rows) {
    int i = tile_block(0);
    tile_reg(float, t, TILE_N);
    tile_load(t, tile_array2(a, rows, TILE_N), i, 0);
    tile_sum(s, t);
    tile_store(tile_array1(b, rows), s, i);
}
