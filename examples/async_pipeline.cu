/* async_pipeline - stream the rows of a big array through two shared buffers:
 * while the block computes on one row, the next row is being copied in.
 *
 * tile_load_async starts the copy and returns (cp.async on sm_80, one bulk
 * copy per row on sm_90, a plain load on the CPU); tile_async_commit closes
 * the group; tile_async_wait(1) waits for all but the newest group, so row i
 * is there while row i+1 is still in flight. Each block handles a slab of
 * consecutive rows; the result of a row is sum(x * x).
 *
 *   async_pipeline [cpu]      GPU 0 when there is one, else (or with "cpu") the CPU
 *
 * Prints "row_norms: 4096 rows of 256 floats, 16 blocks: ... all rows ok" and
 * exits 1 if any row differs from the host loop. The data are multiples of
 * 1/8, so every sum is exact in float and equal on both targets.
 * The same file builds with gcc -x c. */
#include "example_util.h"

#define COLS 256
#define ROWS 4096
#define BLOCKS 16
#define THREADS 64

TILE_FUNC float sq(float x) { return x * x; }

TILE_KERNEL_SMEM(row_norms, THREADS, 2 * TILE_SMEM_BYTES(float, 1, COLS), const float *a, float *out, int rows) {
    const int nb = tile_grid_dim(0), b = tile_block(0);
    const int first = (int)((int64_t)rows * b / nb), last = (int)((int64_t)rows * (b + 1) / nb);
    const tile_array A = tile_array2(a, rows, COLS), O = tile_array1(out, rows);
    tile_shared_stages(float, buf, 2, 1, COLS);      /* two (1, 256) shared tiles */
    if (first < last) tile_load_async(buf, A, first, 0); /* prologue: stage 0 <- first row */
    tile_async_commit();
    for (int i = first; i < last; ++i) {
        const int k = i - first;
        tile_stage(next, buf, (k + 1) & 1);
        if (i + 1 < last) tile_load_async(next, A, i + 1, 0); /* row i+1 in flight ... */
        tile_async_commit();
        tile_async_wait(1);                          /* ... row i has landed */
        tile_stage(cur, buf, k & 1);
        tile_reg(float, r, 1, COLS);
        tile_map(r, sq, cur);                        /* compute on row i */
        tile_sum(s, r);
        tile_store(O, s, i);
    }
    tile_async_wait_all();
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    static float a[ROWS * COLS], out[ROWS];
    for (int i = 0; i < ROWS * COLS; ++i) a[i] = (float)((i * 7 + i / COLS) % 13 - 6) / 8.0f;
    float *da = (float *)tile_alloc(ex, sizeof(a)), *dout = (float *)tile_alloc(ex, sizeof(out));
    if (!da || !dout) return 1;
    if (example_check(tile_copy_to(ex, da, a, sizeof(a)), "copy") ||
        example_check(tile_launch(ex, row_norms, tile_grid1(BLOCKS), THREADS, da, dout, ROWS), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, out, dout, sizeof(out)), "copy"))
        return 1;
    int bad = 0;
    for (int r = 0; r < ROWS; ++r) {
        double ref = 0;
        for (int j = 0; j < COLS; ++j) ref += (double)a[r * COLS + j] * a[r * COLS + j];
        if ((double)out[r] != ref) {
            if (bad < 5) printf("row %d: got %g, expected %g\n", r, (double)out[r], ref);
            ++bad;
        }
    }
    printf("row_norms: %d rows of %d floats, %d blocks (%s): out[0] = %g, out[%d] = %g: %s\n", ROWS, COLS, BLOCKS,
           ex.device >= 0 ? "GPU" : "CPU", (double)out[0], ROWS - 1, (double)out[ROWS - 1],
           bad ? "MISMATCH" : "all rows ok");
    tile_free(ex, da);
    tile_free(ex, dout);
    return bad ? 1 : 0;
}
