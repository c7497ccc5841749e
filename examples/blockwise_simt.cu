/* Tiles inside a SIMT kernel (Warp's "Tiles and SIMT Code"): 12 threads in
 * blocks of 4; each block turns its threads' indices into a tile, sums it and
 * stores the sum at its first thread's index.
 *   GPU: [6 0 0 0 22 0 0 0 38 0 0 0]
 *   CPU: [0 1 2 3 4 5 6 7 8 9 10 11]   (block_dim is 1 there: each tile holds
 *                                       one thread's value)
 * See blockwise_atomic.cu for the version that agrees on both targets. */
#include "example_util.h"

#define TILE_DIM 4
#define N (TILE_DIM * 3)

TILE_KERNEL(blockwise, TILE_DIM, int *out) {
    int i = tile_tid(0);
    tile_from_values(t, i);
    tile_sum(s, t);
    tile_store(tile_array1(out, N), s, i);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    int out[N] = {0};
    int *d = (int *)tile_alloc(ex, sizeof(out));
    if (!d) return 1;
    if (example_check(tile_copy_to(ex, d, out, sizeof(out)), "copy") ||
        example_check(tile_launch_simt(ex, blockwise, tile_grid1(N), TILE_DIM, d), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, out, d, sizeof(out)), "copy"))
        return 1;
    /* the GPU: block b's first thread holds the sum of its 4 indices; the CPU
     * (one thread per block): every thread's own index */
    int ok = 1;
    fprintf(stderr, "per-block sums of thread indices, stored at each block's first thread (%s):\n",
            example_target_name(ex));
    printf("[");
    for (int i = 0; i < N; ++i) {
        const int want = ex.device < 0 ? i : (i % TILE_DIM ? 0 : TILE_DIM * i + TILE_DIM * (TILE_DIM - 1) / 2);
        printf(i ? " %d" : "%d", out[i]);
        ok &= out[i] == want;
    }
    printf("]\n");
    tile_free(ex, d);
    return example_verdict(ok, ex.device < 0 ? "[0 1 2 ... 11] on the CPU (block_dim 1)" : "[6 0 0 0 22 0 0 0 38 0 0 0] on the GPU");
}
