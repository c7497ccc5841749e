/* Single-tile stream compaction (Warp's tile_stack example): one block walks
 * a tile of 1024 values in chunks of block_dim, pushes the values above 0.5
 * onto a block-wide stack and pops them into place by slot. Pushes keep
 * thread order, so the kept values come out in input order, and the output
 * is the same on the GPU and the CPU (`stream_compaction cpu`):
 *   kept 524 of 1024 values > 0.5: [0.815 0.832 0.590 ...]
 * The same file builds with gcc -x c. */
#include <stdlib.h>
#include "example_util.h"

#define N 1024      /* one tile */
#define THREADS 256 /* a chunk: one value a thread */

TILE_KERNEL(compact, THREADS, const float *x, float *out, int *count) {
    tile_stack(float, s, N); /* static shared memory, one per declaration */
    for (int base = 0; base < N; base += TILE_BLOCK_DIM) {
        tile_reg(float, t, TILE_BLOCK_DIM); /* this chunk, one value a thread */
        tile_load(t, tile_array1(x, N), base);
        const float v = tile_untile(t);
        tile_stack_push(s, v, v > 0.5f); /* cooperative; -1 for values not kept */
    }
    if (tile_thread() == 0) *count = tile_stack_count(s);
    while (tile_stack_count(s) > 0) { /* uniform: the count is shared */
        float v;
        const int slot = tile_stack_pop(s, &v); /* each thread at most one */
        if (slot >= 0) out[slot] = v;
    }
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    static float x[N], out[N], want[N];
    int count = -1, nwant = 0;
    for (int i = 0; i < N; ++i) {
        x[i] = tile_hash_unit(2024u, (uint32_t)i);
        if (x[i] > 0.5f) want[nwant++] = x[i];
    }
    float *dx = (float *)tile_alloc(ex, sizeof(x)), *dout = (float *)tile_alloc(ex, sizeof(out));
    int *dcount = (int *)tile_alloc(ex, sizeof(int));
    if (!dx || !dout || !dcount) return 1;
    if (example_check(tile_copy_to(ex, dx, x, sizeof(x)), "copy") ||
        example_check(tile_launch(ex, compact, tile_grid1(1), THREADS, dx, dout, dcount), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, out, dout, sizeof(out)), "copy") ||
        example_check(tile_copy_from(ex, &count, dcount, sizeof(int)), "copy"))
        return 1;
    printf("kept %d of %d values > 0.5: [", count, N);
    for (int i = 0; i < 3 && i < count; ++i) printf(i ? " %.3f" : "%.3f", (double)out[i]);
    printf(" ...]\n");
    const int ok = count == nwant && memcmp(out, want, sizeof(float) * (size_t)nwant) == 0;
    printf("same as the host, in input order: %s\n", ok ? "yes" : "NO");
    tile_free(ex, dx);
    tile_free(ex, dout);
    tile_free(ex, dcount);
    return ok ? 0 : 1;
}
