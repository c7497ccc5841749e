/* tests/gpu/guard_debug_test.cu - TILE_DEBUG diagnostics of issue 8 on the
 * GPU and the CPU target: a broken promise prints ONE short line (operation,
 * promise, value, valid range, storage kind, source line) and stops (a trap
 * on the GPU, assert on the CPU); correct calls print nothing.
 *
 *   guard_debug_test             GPU 0 (when there is one), then the CPU target;
 *                                each broken promise runs in a child process
 *   guard_debug_test --cpu-only  the CPU target only
 *   guard_debug_test --quick     no children (compute-sanitizer would rightly
 *                                report the traps)
 *   guard_debug_test --child K T the child: case K (get, set, overflow) on
 *                                target T (gpu, cpu)
 *
 * A trap leaves the CUDA context unusable, hence the child processes (as in
 * debug_test). */
#define TILE_DEBUG
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"

enum { B = 64 };

/* tile_get / tile_set at (i, j) of a 4x4 shared tile; a 16 KiB tile in the
 * arena when big != 0 */
TILE_KERNEL_SMEM(dbg_kernel, B, 1024, float *out, int i, int j, int set, int big) {
    tile_shared(float, s, 4, 4);
    tile_arange(s, 0, 1);
    if (big) {
        tile_shared(float, b, 4096); /* 16 KiB in a 1 KiB arena */
        tile_zeros(b);
        out[1] = tile_get(b, 0);
    }
    if (set) tile_set(s, 42.0f, i, j);
    out[0] = tile_get(s, i, j);
}

/* the child: run case `k` on target `tn`; a broken promise stops it */
static int run_child(const char *k, const char *tn) {
    const tile_exec ex = strcmp(tn, "gpu") == 0 ? TILE_GPU(0) : TILE_CPU;
    float *d = (float *)tile_alloc(ex, 2 * sizeof(float));
    int e = TILE_OK;
    if (strcmp(k, "get") == 0) e = tile_launch(ex, dbg_kernel, tile_grid1(2), B, d, 0, 5, 0, 0);
    else if (strcmp(k, "set") == 0) e = tile_launch(ex, dbg_kernel, tile_grid1(2), B, d, -1, 2, 1, 0);
    else e = tile_launch(ex, dbg_kernel, tile_grid1(2), B, d, 1, 1, 0, 1);
    if (e == TILE_OK) e = tile_synchronize(ex);
    fflush(stderr);
    printf("guard_debug_test --child: %s (%s)\n", e == TILE_ERR_CUDA ? "trapped" : "not caught", tile_error_string(e));
    return e == TILE_ERR_CUDA ? 0 : 1;
}

/* run a child; it must stop, and its output must hold `want` on one line of
 * at most 200 characters */
static void expect_child(const char *self, const char *k, const target *t, const char *want) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' --child %s %s 2>&1", self, k, t->gpu ? "gpu" : "cpu");
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "popen(%s) failed", cmd);
    if (!p) return;
    char line[1024];
    int found = 0, caught = 0;
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, want)) {
            found = 1;
            CHECK(strlen(line) <= 201, "%s: diagnostic of %zu characters: %s", k, strlen(line), line);
            CHECK(strstr(line, "guard_debug_test.cu:") != NULL, "%s: no source line in: %s", k, line);
        }
        if (strstr(line, "guard_debug_test --child: not caught")) caught = -1;
    }
    const int rc = pclose(p);
    /* GPU: the child reports the trap and exits 0; CPU: assert() aborts it */
    if (t->gpu) CHECK(rc == 0 && caught == 0, "%s: the child did not trap (rc %d)", k, rc);
    else CHECK(rc != 0 && caught == 0, "%s: the child was not stopped (rc %d)", k, rc);
    CHECK(found, "%s: the child did not print \"%s\"", k, want);
}

static void test_ok_calls(const target *t) {
    g_test = "correct calls in a TILE_DEBUG build";
    float *d = DALLOC(float, 2);
    float h[2] = {0, 0};
    RUN_OK(tile_launch(t->ex, dbg_kernel, tile_grid1(3), B, d, 2, 3, 1, 0));
    DOWN(h, d, sizeof h);
    CHECK(h[0] == 42.0f, "tile_set then tile_get: %g, expected 42", h[0]);
    RUN_OK(tile_launch(tile_exec_smem(t->ex, 16384), dbg_kernel, tile_grid1(3), B, d, 3, 0, 0, 1));
    DOWN(h, d, sizeof h);
    CHECK(h[0] == 12.0f && h[1] == 0.0f, "grown arena: %g %g, expected 12 0", h[0], h[1]);
    tile_free(t->ex, d);
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--child") == 0) return run_child(argv[2], argv[3]);
    const int rc = gc_start(argc, argv, "guard_debug_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) {
        const target *t = &gc_targets[i];
        gc_target_begin(t);
        test_ok_calls(t);
        if (!g_quick) {
            g_test = "broken promises stop with one line";
            expect_child(argv[0], "get", t, "tile.h: tile_get: index of dim 1 out of range (shared tile): 5 not in [0, 4) (");
            expect_child(argv[0], "set", t, "tile.h: tile_set: index of dim 0 out of range (shared tile): -1 not in [0, 4) (");
            expect_child(argv[0], "overflow", t,
                         "tile.h: shared arena overflow (raise the TILE_KERNEL_SMEM bytes or tile_exec_smem): "
                         "the allocation's last byte: 16447 not in [0, 1024) (");
        }
        gc_target_end(t, "");
    }
    return gc_finish();
}
