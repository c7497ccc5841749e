/* tests/gpu/select_test.cu - selection, partition, discontinuity flags,
 * adjacent differences and run-length encoding (include/tile/select.h) on
 * the GPU and on the CPU target of the same nvcc build, every run checked
 * against plain host loops (sl_check: the kernels and references are those
 * of tests/cpu/test_select.c).
 *
 *   select_test             GPU 0 (when there is one), then the CPU target
 *   select_test --cpu-only  the CPU target only
 *   select_test --quick     two tiles a launch, no repeat (compute-sanitizer)
 *
 * Kernels: 1D tiles of 1000 (block 96: a partial last warp and a partial
 * last slot), 2D 16x64 (block 256: flattened order across rows), 1D 37
 * (block 64: fewer elements than threads), 1D 2048 (block 64: 32 slots) and
 * 256 (block 32: one warp); 14 operations each (register,
 * shared, in place, predicate and flag forms, _op forms whose operand order
 * matters, _prev forms across tiles), several tiles a launch; then f32
 * differences, flags into a float tile and a partition, vec3f differences
 * of a shared tile, an f64 selection (sf_kernel, block 64). Outputs are
 * poisoned before each launch; on the GPU each launch is repeated and must
 * give the same bits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"
#include <tile/select.h> /* until tile.h includes it */

#define SL_RLE_PREP(sh) tile_full(sh, 0) /* lengths past the count: the same bits on every repeat */
/* ---- other element types: f32 and vec3f neighbours, f64 selection ----
 * (sf_kernel of tests/select_ref.h, with SF_KERNEL_EXTRA: e below)
 * One block: a 300-element f32 tile (block 64: a partial last slot),
 * out (f32, 4 x 300): tile_adjacent_difference, _right, tile_flag_heads
 * (as 0/1 floats: a flags tile of float), and the f32 partition by x < 0;
 * v3 (vec3f, 100, shared): tile_adjacent_difference into v3out;
 * d (f64, 300): tile_select_if(x < 0) in place, the count in cnt[0];
 * e (f64, 128 = 2 slots of 64: the warp-shuffle neighbour path, 2 words a
 * shuffle, two warps): tile_adjacent_difference and _right into dout[300..]
 * and dout[600..]. */
enum { SF_D = 128 };
#define SF_KERNEL_EXTRA                                                        \
    tile_reg(double, e, SF_D);                                                 \
    tile_reg(double, g, SF_D);                                                 \
    tile_load(e, tile_array1(din, SF_D), 0);                                   \
    tile_adjacent_difference(g, e);                                            \
    tile_store(tile_array1(dout + SF_N, SF_D), g, 0);                          \
    tile_adjacent_difference_right(g, e);                                      \
    tile_store(tile_array1(dout + 2 * SF_N, SF_D), g, 0);
#include "../select_ref.h"

/* the select / partition ballot path at its limits (whole warps, the block
 * size dividing the tile): 32 slots over 2 warps, and 8 slots in one warp
 * (sl_2d is 4 slots over 8 warps) */
SL_KERNEL(sl_wide, 64, 2048)
SL_KERNEL(sl_warp, 32, 256)
enum { SL_NK = 5 };
static int sl_launch(const target *t, int k, const int32_t *in, int32_t *out, int *cnt, int which, int nt) {
    if (k == 0) return tile_launch(t->ex, sl_1d, tile_grid1(nt), 96, in, out, cnt, which);
    if (k == 1) return tile_launch(t->ex, sl_2d, tile_grid1(nt), 256, in, out, cnt, which);
    if (k == 3) return tile_launch(t->ex, sl_wide, tile_grid1(nt), 64, in, out, cnt, which);
    if (k == 4) return tile_launch(t->ex, sl_warp, tile_grid1(nt), 32, in, out, cnt, which);
    return tile_launch(t->ex, sl_small, tile_grid1(nt), 64, in, out, cnt, which);
}


static void run_types(const target *t) {
    g_test = "f32 / vec3f / f64 element types";
    float *in = HALLOC(float, SF_N), *out = HALLOC(float, 4 * SF_N);
    tile_vec3f *vin = HALLOC(tile_vec3f, SF_V), *vout = HALLOC(tile_vec3f, SF_V);
    double *din = HALLOC(double, SF_N), *dout = HALLOC(double, 3 * SF_N);
    int cnt[2];
    char msg[200];
    sf_input(in, vin, din);
    float *d_in = DALLOC(float, SF_N), *d_out = DALLOC(float, 4 * SF_N);
    tile_vec3f *d_vin = DALLOC(tile_vec3f, SF_V), *d_vout = DALLOC(tile_vec3f, SF_V);
    double *d_din = DALLOC(double, SF_N), *d_dout = DALLOC(double, 3 * SF_N);
    int *d_cnt = DALLOC(int, 2);
    UP(d_in, in, sizeof(float) * SF_N);
    UP(d_vin, vin, sizeof(tile_vec3f) * SF_V);
    UP(d_din, din, sizeof(double) * SF_N);
    POISON(d_out, sizeof(float) * 4 * SF_N, POISON_F);
    POISON(d_vout, sizeof(tile_vec3f) * SF_V, POISON_F);
    POISON(d_dout, sizeof(double) * 3 * SF_N, POISON_F);
    POISON(d_cnt, sizeof(int) * 2, POISON_I);
    RUN_OK(tile_launch(t->ex, sf_kernel, tile_grid1(1), 64, (const float *)d_in, (const tile_vec3f *)d_vin,
                       (const double *)d_din, d_out, d_vout, d_dout, d_cnt));
    DOWN(out, d_out, sizeof(float) * 4 * SF_N);
    DOWN(vout, d_vout, sizeof(tile_vec3f) * SF_V);
    DOWN(dout, d_dout, sizeof(double) * 3 * SF_N);
    DOWN(cnt, d_cnt, sizeof(int) * 2);
    const long bad = sf_check(in, vin, din, out, vout, dout, cnt, SF_D, msg, sizeof msg);
    CHECK(bad == 0, "%s (%ld bad)", msg, bad);
    tile_free(t->ex, d_in);
    tile_free(t->ex, d_out);
    tile_free(t->ex, d_vin);
    tile_free(t->ex, d_vout);
    tile_free(t->ex, d_din);
    tile_free(t->ex, d_dout);
    tile_free(t->ex, d_cnt);
    free(in);
    free(out);
    free(vin);
    free(vout);
    free(din);
    free(dout);
}

static void run_all(const target *t) {
    const int ns[SL_NK] = {1000, 1024, 37, 2048, 256}, bs[SL_NK] = {96, 256, 64, 64, 32};
    gc_target_begin(t);
    for (int k = 0; k < SL_NK; ++k) {
        const int n = ns[k], nt = g_quick ? 2 : 9;
        const size_t ib = sizeof(int32_t) * (size_t)n * nt, ob = 2 * ib, cb = sizeof(int) * (size_t)nt;
        int32_t *hin = HALLOC(int32_t, (size_t)n * nt), *hout = HALLOC(int32_t, 2 * (size_t)n * nt),
                *hout2 = HALLOC(int32_t, 2 * (size_t)n * nt);
        int *hcnt = HALLOC(int, nt), *hcnt2 = HALLOC(int, nt);
        int32_t *din = DALLOC(int32_t, (size_t)n * nt), *dout = DALLOC(int32_t, 2 * (size_t)n * nt);
        int *dcnt = DALLOC(int, nt);
        char msg[200];
        sl_input(hin, n * nt);
        UP(din, hin, ib);
        for (int which = 0; which < SL_NCASE; ++which) {
            POISON(dout, ob, POISON_I);
            POISON(dcnt, cb, POISON_I);
            CHECK_ERR(sl_launch(t, k, din, dout, dcnt, which, nt), TILE_OK);
            SYNC_OK();
            DOWN(hout, dout, ob);
            DOWN(hcnt, dcnt, cb);
            const long bad = sl_check(which, hin, hout, hcnt, nt, n, msg, sizeof msg);
            CHECK(bad == 0, "n %d block %d: %s (%ld bad)", n, bs[k], msg, bad);
            if (t->gpu && !g_quick) { /* deterministic */
                POISON(dout, ob, POISON_I);
                CHECK_ERR(sl_launch(t, k, din, dout, dcnt, which, nt), TILE_OK);
                SYNC_OK();
                DOWN(hout2, dout, ob);
                DOWN(hcnt2, dcnt, cb);
                CHECK(!memcmp(hout, hout2, ob) && !memcmp(hcnt, hcnt2, cb), "n %d case %d: a second run differs", n, which);
            }
        }
        tile_free(t->ex, din);
        tile_free(t->ex, dout);
        tile_free(t->ex, dcnt);
        free(hin);
        free(hout);
        free(hout2);
        free(hcnt);
        free(hcnt2);
    }
    run_types(t);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "select_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
