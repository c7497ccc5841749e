/* The SIMT block reduction made independent of block_dim: each block adds its
 * tile's sum into one global counter. Prints [66] on the GPU and the CPU. */
#include "example_util.h"

#define TILE_DIM 4
#define N (TILE_DIM * 3)

TILE_KERNEL(blockwise_atomic, TILE_DIM, int *out) {
    int i = tile_tid(0);
    tile_from_values(t, i);
    tile_sum(s, t);
    tile_atomic_add(tile_array1(out, 1), s, 0);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    int out = 0;
    int *d = (int *)tile_alloc(ex, sizeof(int));
    if (!d) return 1;
    if (example_check(tile_copy_to(ex, d, &out, sizeof(int)), "copy") ||
        example_check(tile_launch_simt(ex, blockwise_atomic, tile_grid1(N), TILE_DIM, d), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, &out, d, sizeof(int)), "copy"))
        return 1;
    fprintf(stderr, "sum of the thread indices 0..%d, one atomic add per block of %d (%s):\n", N - 1, TILE_DIM,
            example_target_name(ex));
    printf("[%d]\n", out);
    tile_free(ex, d);
    return example_verdict(out == N * (N - 1) / 2, "[66] on both targets");
}
