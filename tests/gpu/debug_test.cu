/* tests/gpu/debug_test.cu - TILE_DEBUG builds: cooperative operations called
 * correctly pass their checks (no false alarms) and give the same results as
 * without TILE_DEBUG; a cooperative call inside a divergent branch is caught.
 *
 *   debug_test             GPU 0 (when there is one), then the CPU target;
 *                          on the GPU it also runs itself with --divergent
 *                          and expects that child to trap
 *   debug_test --cpu-only  the CPU target only (CI machines without a GPU)
 *   debug_test --quick     without the divergent child (compute-sanitizer
 *                          would rightly report its trap as an error)
 *   debug_test --divergent the child: one kernel that calls tile_sum under
 *                          `if (tile_thread() < 16)`; prints "trapped" when
 *                          tile_synchronize reports the CUDA error of the
 *                          assertion's trap, exits 0 then, 1 otherwise
 *
 * The divergent kernel runs in a child process because a trap leaves the
 * CUDA context unusable for the rest of the process.
 */
#define TILE_DEBUG
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"

enum { N = 1000, B = 96 }; /* a partial last slot and a block ending in a partial warp */

/* each thread writes: the sum, the max, the inclusive scan of its slots and
 * the slot it got from a stack push of the odd values */
TILE_KERNEL_SMEM(coop_ok, B, TILE_SMEM_BYTES(int, N), const int *in, int *sums, int *scan, int *slots) {
    tile_reg(int, t, N);
    tile_load(t, tile_array1(in, N), 0);
    tile_sum(s, t);
    tile_max(m, t);
    sums[2 * tile_thread()] = tile_value(s);
    sums[2 * tile_thread() + 1] = tile_value(m);
    tile_shared(int, sc, N);
    tile_scan_inclusive(sc, t);
    tile_store(tile_array1(scan, N), sc, 0);
    tile_stack(int, st, B);
    const int v = in[tile_thread()];
    slots[tile_thread()] = tile_stack_push(st, v, v % 2 != 0);
}

TILE_KERNEL(coop_divergent, 64, const int *in, int *out) {
    tile_reg(int, t, 64);
    tile_load(t, tile_array1(in, 64), 0);
    if (tile_thread() < 16) { /* broken promise: half a warp calls a cooperative op */
        tile_sum(s, t);
        out[tile_thread()] = tile_value(s);
    }
}

static void test_coop_ok(const target *t) {
    g_test = "cooperative calls in a TILE_DEBUG build";
    const int bt = t->gpu ? B : 1;
    int *hin = HALLOC(int, N);
    long sum = 0;
    int mx = 0, odd = 0;
    for (int i = 0; i < N; ++i) {
        hin[i] = (int)(tile_hash32(7u, (uint32_t)i) % 2001u) - 1000;
        sum += hin[i];
        mx = i == 0 || hin[i] > mx ? hin[i] : mx;
    }
    int *din = DALLOC(int, N), *dsums = DALLOC(int, 2 * B), *dscan = DALLOC(int, N), *dslots = DALLOC(int, B);
    UP(din, hin, sizeof(int) * N);
    RUN_OK(tile_launch(t->ex, coop_ok, tile_grid1(1), B, (const int *)din, dsums, dscan, dslots));
    int *hsums = HALLOC(int, 2 * B), *hscan = HALLOC(int, N), *hslots = HALLOC(int, B);
    DOWN(hsums, dsums, sizeof(int) * 2 * B);
    DOWN(hscan, dscan, sizeof(int) * N);
    DOWN(hslots, dslots, sizeof(int) * B);
    for (int th = 0; th < bt; ++th) {
        CHECK(hsums[2 * th] == (int)sum, "thread %d: sum %d, expected %ld", th, hsums[2 * th], sum);
        CHECK(hsums[2 * th + 1] == mx, "thread %d: max %d, expected %d", th, hsums[2 * th + 1], mx);
    }
    long run = 0;
    for (int i = 0; i < N; ++i) {
        run += hin[i];
        CHECK(hscan[i] == (int)run, "scan[%d] = %d, expected %ld", i, hscan[i], run);
    }
    /* pushes rank in thread order: thread th with an odd value gets the
     * number of odd values of threads before it */
    for (int th = 0; th < bt; ++th) {
        const int want = hin[th] % 2 != 0 ? odd : -1;
        CHECK(hslots[th] == want, "thread %d: push slot %d, expected %d", th, hslots[th], want);
        odd += hin[th] % 2 != 0;
    }
    free(hin);
    free(hsums);
    free(hscan);
    free(hslots);
    tile_free(t->ex, din);
    tile_free(t->ex, dsums);
    tile_free(t->ex, dscan);
    tile_free(t->ex, dslots);
}

/* the child: 0 when the divergent call trapped */
static int run_divergent(void) {
    int *din = (int *)tile_alloc(TILE_GPU(0), 64 * sizeof(int));
    int *dout = (int *)tile_alloc(TILE_GPU(0), 64 * sizeof(int));
    if (!din || !dout) {
        printf("debug_test --divergent: allocation failed\n");
        return 1;
    }
    int e = tile_launch(TILE_GPU(0), coop_divergent, tile_grid1(1), 64, (const int *)din, dout);
    if (e == TILE_OK) e = tile_synchronize(TILE_GPU(0));
    printf("debug_test --divergent: %s (%s)\n", e == TILE_ERR_CUDA ? "trapped" : "not caught",
           tile_error_string(e));
    return e == TILE_ERR_CUDA ? 0 : 1;
}

static void test_divergent_child(const char *self) {
    g_test = "cooperative call in a divergent branch";
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --divergent 2>&1", self);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "popen(%s) failed", cmd);
    if (!p) return;
    char line[512];
    int trapped = 0, message = 0;
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, "debug_test --divergent: trapped")) trapped = 1;
        if (strstr(line, "tile.h: assertion failed") && strstr(line, "divergent")) message = 1;
    }
    const int rc = pclose(p);
    CHECK(trapped && rc == 0, "the child did not trap (rc %d)", rc);
    CHECK(message, "the child did not print the assertion message");
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--divergent") == 0) return run_divergent();
    const int rc = gc_start(argc, argv, "debug_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) {
        const target *t = &gc_targets[i];
        gc_target_begin(t);
        test_coop_ok(t);
        if (t->gpu && !g_quick) test_divergent_child(argv[0]);
        gc_target_end(t, "");
    }
    return gc_finish();
}
