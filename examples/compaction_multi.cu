/* Multi-tile stream compaction: every block compacts its own tile of 1024
 * values (those above 0.5) through a tile_stack, then claims a range of the
 * output with one atomic add on a global counter and pops its values into
 * that range. Within a range the values keep input order; the ranges come in
 * the order the blocks claim them (input order on the CPU, any order on the
 * GPU), so the check compares sorted copies. Prints on either target:
 *   kept 500063 of 1000000 values > 0.5 in 977 tiles; matches the host: yes
 * The same file builds with gcc -x c. */
#include <stdlib.h>
#include "example_util.h"

#define N 1000000   /* not a multiple of the tile: the last tile is partial */
#define TILE 1024
#define THREADS 256

TILE_KERNEL_SMEM(compact_tiles, THREADS, TILE_SMEM_BYTES(int, 1), const float *x, int n, float *out, int *counter) {
    const int64_t first = (int64_t)tile_block(0) * TILE;
    tile_stack(float, s, TILE);
    for (int base = 0; base < TILE; base += TILE_BLOCK_DIM) {
        tile_reg(float, t, TILE_BLOCK_DIM);
        tile_load(t, tile_array1(x, n), first + base); /* zeros past n: not kept */
        const float v = tile_untile(t);
        tile_stack_push(s, v, v > 0.5f);
    }
    /* one atomic per tile claims [start, start + count) of the output */
    tile_shared(int, start, 1);
    int got = 0;
    if (tile_thread() == 0) got = tile_atomic_fetch_add(counter, tile_stack_count(s));
    tile_set(start, got, 0); /* thread 0 owns element 0: everybody reads it after */
    const int at = tile_get(start, 0);
    while (tile_stack_count(s) > 0) {
        float v;
        const int slot = tile_stack_pop(s, &v);
        if (slot >= 0) out[at + slot] = v;
    }
}

static int cmp_float(const void *a, const void *b) {
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    float *x = (float *)malloc(sizeof(float) * N), *out = (float *)malloc(sizeof(float) * N);
    float *want = (float *)malloc(sizeof(float) * N);
    int nwant = 0, count = 0;
    if (!x || !out || !want) return 1;
    for (int i = 0; i < N; ++i) {
        x[i] = tile_hash_unit(77u, (uint32_t)i);
        if (x[i] > 0.5f) want[nwant++] = x[i];
    }
    const int tiles = (N + TILE - 1) / TILE;
    float *dx = (float *)tile_alloc(ex, sizeof(float) * N), *dout = (float *)tile_alloc(ex, sizeof(float) * N);
    int *dcount = (int *)tile_alloc(ex, sizeof(int));
    if (!dx || !dout || !dcount) return 1;
    if (example_check(tile_copy_to(ex, dx, x, sizeof(float) * N), "copy") ||
        example_check(tile_copy_to(ex, dcount, &count, sizeof(int)), "copy") ||
        example_check(tile_launch(ex, compact_tiles, tile_grid1(tiles), THREADS, dx, N, dout, dcount), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, &count, dcount, sizeof(int)), "copy") ||
        example_check(tile_copy_from(ex, out, dout, sizeof(float) * (size_t)(count < N ? count : N)), "copy"))
        return 1;
    int ok = count == nwant;
    if (ok) {
        qsort(out, (size_t)count, sizeof(float), cmp_float);
        qsort(want, (size_t)nwant, sizeof(float), cmp_float);
        ok = memcmp(out, want, sizeof(float) * (size_t)count) == 0;
    }
    printf("kept %d of %d values > 0.5 in %d tiles; matches the host: %s\n", count, N, tiles, ok ? "yes" : "NO");
    tile_free(ex, dx);
    tile_free(ex, dout);
    tile_free(ex, dcount);
    free(x);
    free(out);
    free(want);
    return ok ? 0 : 1;
}
