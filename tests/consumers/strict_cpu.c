/* The strict CPU launch (tile/strict.h): the GPU's per-block shared-memory
 * limit and arguments evaluated once. Built and run as C11, as host C++17
 * and by nvcc (its CPU target): make strict-cpu. Exits nonzero on a failure. */
#include <stdio.h>
#include <tile.h>
#include <tile/strict.h>

static int failures;
#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) { printf("strict_cpu: FAILED %s (line %d)\n", #c, __LINE__); ++failures; } \
    } while (0)

/* every block records the value it was given and counts itself */
TILE_KERNEL(record, 32, int *seen, int *calls, int v) {
    seen[tile_block(0)] = v;
    ++*calls;
}
/* 200 KiB declared: fits the 227 KiB opt-in limit; a shared tile uses it */
TILE_KERNEL_SMEM(big, 32, 200 * 1024, float *out, const float *null_ok) {
    tile_shared(float, s, 50 * 1024); /* the whole 200 KiB */
    tile_full(s, 2.0f);
    tile_sum(r, s);
    out[tile_block(0)] = tile_value(r) + (null_ok ? 1.0f : 0.0f);
}
TILE_KERNEL(simt_ids, 4, int *ids, int base) { ids[tile_tid(0)] = base + tile_tid(0); }

int main(void) {
    tile_exec cpu = TILE_CPU;
    int seen[5] = {-1, -1, -1, -1, -1}, calls = 0, i = 7;

    /* arguments once: i++ gives 7 to every block and leaves i == 8 */
    CHECK(tile_launch_strict(cpu, record, tile_grid1(5), 32, seen, &calls, i++) == TILE_OK);
    CHECK(i == 8);
    CHECK(calls == 5);
    for (int b = 0; b < 5; ++b) CHECK(seen[b] == 7);

    /* shared memory: 200 KiB + 20 KiB fits 227 KiB; + 64 KiB does not, and
     * then no block runs (out keeps its -1s) */
    static float out[3] = {-1, -1, -1};
    float arr[1] = {0};
    CHECK(tile_launch_strict(tile_exec_smem(cpu, 20 * 1024), big, tile_grid1(3), 32, out, NULL) == TILE_OK);
    for (int b = 0; b < 3; ++b) CHECK(out[b] == 2.0f * 50 * 1024);
    out[0] = out[1] = out[2] = -1;
    CHECK(tile_launch_strict(tile_exec_smem(cpu, 64 * 1024), big, tile_grid1(3), 32, out, arr) == TILE_ERR_SMEM);
    for (int b = 0; b < 3; ++b) CHECK(out[b] == -1);
    /* the plain CPU launch is not strict: the 264 KiB arena is a heap buffer */
    CHECK(tile_launch(tile_exec_smem(cpu, 64 * 1024), big, tile_grid1(3), 32, out, arr) == TILE_OK);
    for (int b = 0; b < 3; ++b) CHECK(out[b] == 2.0f * 50 * 1024 + 1.0f);
    /* an arena exactly at the limit passes, one byte more does not */
    CHECK(tile__strict_smem(cpu, TILE_STRICT_SMEM_BYTES) == TILE_OK);
    CHECK(tile__strict_smem(cpu, TILE_STRICT_SMEM_BYTES + 1) == TILE_ERR_SMEM);

    /* SIMT form, and the errors of the plain launch still come back */
    int ids[12] = {0}, base = 100;
    CHECK(tile_launch_simt_strict(cpu, simt_ids, tile_grid1(12), 4, ids, base++) == TILE_OK);
    CHECK(base == 101);
    for (int t = 0; t < 12; ++t) CHECK(ids[t] == 100 + t);
    CHECK(tile_launch_strict(cpu, record, tile_grid1(5), 64, seen, &calls, 0) == TILE_ERR_BLOCK_DIM);

    printf("strict_cpu (%s): %s\n",
#if defined(__CUDACC__)
           "nvcc",
#elif defined(__cplusplus)
           "host C++",
#else
           "C11",
#endif
           failures ? "FAILED" : "ok");
    return failures != 0;
}
