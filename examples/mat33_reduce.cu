/* Warp's matrix reduction: 32 threads, thread i contributes i * I (a mat33),
 * tile_from_values + tile_sum add the matrices of a block, and
 * tile_atomic_add adds the block sum into a zeroed global matrix (one atomic
 * per component). On the GPU one block sums all 32; on the CPU each thread is
 * its own block (block_dim 1) and the atomic adds do the sum, so both print
 *   [[496 0 0] [0 496 0] [0 0 496]]
 * The same file builds with gcc -x c. */
#include "example_util.h"

#define THREADS 32

TILE_KERNEL(mat33_sum, THREADS, tile_mat33f *out) {
    const int i = tile_tid(0);
    tile_mat33f m = tile_mat33f_diag((float)i); /* i * I */
    tile_from_values(t, m);                     /* (block_dim) tile of mat33 */
    tile_sum(s, t);                             /* one element: the block sum */
    tile_atomic_add(tile_array1(out, 1), s, 0); /* component-wise atomics */
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    tile_mat33f r;
    memset(&r, 0, sizeof(r));
    tile_mat33f *d = (tile_mat33f *)tile_alloc(ex, sizeof(r));
    if (!d) return 1;
    if (example_check(tile_copy_to(ex, d, &r, sizeof(r)), "copy") ||
        example_check(tile_launch_simt(ex, mat33_sum, tile_grid1(THREADS), THREADS, d), "launch") ||
        example_check(tile_synchronize(ex), "kernel") || example_check(tile_copy_from(ex, &r, d, sizeof(r)), "copy"))
        return 1;
    printf("sum over 32 threads of i * I, 3x3 f32 (%s): [", example_target_name(ex));
    int ok = 1;
    for (int i = 0; i < 3; ++i) {
        printf(i ? " [" : "[");
        for (int j = 0; j < 3; ++j) {
            printf(j ? " %g" : "%g", (double)r.m[i][j]);
            ok &= r.m[i][j] == (i == j ? 496.0f : 0.0f);
        }
        printf("]");
    }
    printf("]\n");
    tile_free(ex, d);
    return example_verdict(ok, "496 * I (0 + 1 + ... + 31 = 496)");
}
