/* tests/gpu/warp_parity_test.cu - the Warp parity operations of issue 12
 * (tile_from_thread, tile_arange's declaring forms, tile_reshape -1,
 * tile_squeeze with an axis, tile_slice views and copies, tile_slice_indexed,
 * tile_extract with negative indices, tile_atomic_add_old and
 * tile_atomic_add_indexed_old, the per-thread tile_scatter_add and its
 * non-atomic form, overlapping tile_assign) on the GPU and on the CPU target
 * of the same nvcc build.
 *
 *   warp_parity_test             GPU 0 (when there is one), then the CPU target
 *   warp_parity_test --cpu-only  the CPU target only
 *   warp_parity_test --quick     the same (every kernel runs a handful of
 *                                single-block launches: already small enough
 *                                for compute-sanitizer)
 *
 * The kernels and the plain-C references are those of
 * tests/warp_parity_common.h (also run by tests/cpu/test_construct.c as
 * C11), instantiated for blocks of 32 and 96 threads (96: three warps, more
 * threads than most tiles have elements). Each launch's int32 output (floats
 * scaled to exact integers) is compared element by element with the
 * reference computed for the target's block_dim (the block size on the GPU,
 * 1 on the CPU target: tile_from_thread then holds thread 0's value and the
 * per-thread scatters see one thread), so the GPU and the CPU runs each
 * equal their reference and, where block_dim does not enter, each other.
 * Atomic adds returning old values touch distinct elements, so the old
 * values are exact on both targets.
 *
 * Prints one FAIL line per differing element (first few per array) and last
 * "warp_parity_test: N checks, M failed (targets: gpu+cpu|cpu)".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"

#define WP_EQ(what, got, ref, n)                                                   \
    do {                                                                           \
        long wp_bad = 0;                                                           \
        for (int wp_i = 0; wp_i < (n); ++wp_i) {                                   \
            ++g_checks;                                                            \
            if ((got)[wp_i] != (ref)[wp_i])                                        \
                fail_elem(&wp_bad, __FILE__, __LINE__, "B=%d %s: element %d is %d, expected %d", wp_block, \
                          what, wp_i, (int)(got)[wp_i], (int)(ref)[wp_i]);         \
        }                                                                          \
        fail_elem_total(__FILE__, __LINE__, what, wp_bad, (long)(n));              \
    } while (0)
#define WP_LAUNCH_OK(expr)                                                         \
    do {                                                                           \
        int e_ = (expr);                                                           \
        CHECK(e_ == TILE_OK, "B=%d %s -> %d (%s)%s", wp_block, #expr, e_, tile_error_string(e_), cuda_detail(e_)); \
    } while (0)
#include "../warp_parity_common.h"

WP_DEF_ALL(32)
WP_DEF_ALL(96)

static void run_all(const target *t) {
    gc_target_begin(t);
    {
        const int wp_block = 32;
        WP_RUN_ALL(t->ex, 32, t->gpu ? 32 : 1);
    }
    {
        const int wp_block = 96;
        WP_RUN_ALL(t->ex, 96, t->gpu ? 96 : 1);
    }
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    int rc = gc_start(argc, argv, "warp_parity_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
