/* tests/gpu/guard_test.cu - the memory guard rails of issue 8 on the GPU and
 * on the CPU target (docs/guards.md). Run it under compute-sanitizer
 * memcheck: an arena overflow must not touch shared memory outside the
 * arena (before: CUDA error 700 and a lost context).
 *
 *   guard_test             GPU 0 (when there is one), then the CPU target
 *   guard_test --cpu-only  the CPU target only
 *   guard_test --quick     fewer blocks (compute-sanitizer runs)
 *
 * Checked on each target:
 *  - a shared tile larger than the launch's arena: tile_synchronize (GPU) or
 *    tile_launch (CPU) returns TILE_ERR_SMEM_OVERFLOW, every block stopped
 *    at the allocation, the output is untouched; with the arena grown by
 *    tile_exec_smem the same kernel computes;
 *  - a second allocation that does not fit (no aliasing of the first);
 *  - a library-internal allocation (tile_to_shared's copy) that does not fit;
 *  - the next launch after an overflow starts clean;
 *  - negative indices skip in tile_load_indexed / tile_store_indexed /
 *    tile_atomic_add_indexed / tile_scatter_add, against a plain C reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"
#include "../guard_common.h"

enum { B = 128, BIG = 4096, NI = 96, NV = 100 };

/* 16 KiB tile in a 1 KiB arena unless the launch adds bytes */
TILE_KERNEL_SMEM(big_tile, B, 1024, float *out, int *reached) {
    if (tile_thread() == 0) reached[tile_block(0)] = 1;
    tile_shared(float, s, BIG);
    if (tile_thread() == 0) reached[tile_block(0)] = 2; /* not reached when s does not fit */
    tile_arange(s, 1, 1);
    tile_store(tile_array1(out + (size_t)BIG * tile_block(0), BIG), s, 0);
}
/* two 600-byte tiles: each fits alone, not together */
TILE_KERNEL_SMEM(second_tile, B, 1024, float *out, int *reached) {
    tile_shared(float, a, 150);
    tile_full(a, 7.0f);
    if (tile_thread() == 0) reached[tile_block(0)] = 1;
    tile_shared(float, b, 150);
    if (tile_thread() == 0) reached[tile_block(0)] = 2;
    tile_full(b, 9.0f);
    tile_store(tile_array1(out + 300 * tile_block(0), 150), a, 0);
    tile_store(tile_array1(out + 300 * tile_block(0) + 150, 150), b, 0);
}
/* tile_to_shared's staged copy (512 bytes) in a 256-byte arena */
TILE_KERNEL_SMEM(to_shared_ovf, B, 256, float *out, int *reached) {
    tile_reg(float, r, 128);
    tile_arange(r, 0, 1);
    if (tile_thread() == 0) reached[tile_block(0)] = 1;
    tile_to_shared(s, r);
    if (tile_thread() == 0) reached[tile_block(0)] = 2;
    tile_store(tile_array1(out + 128 * tile_block(0), 128), s, 0);
}
/* every indexed operation with negative indices and an offset o */
GUARD_NEG_IDX_KERNEL(neg_idx, B, NI, NV)

/* the error of a launch on target t: the launch's code, then (GPU) the
 * code tile_synchronize reports */
static int launch_err(const target *t, int e) {
    if (e != TILE_OK || !t->gpu) return e;
    return tile_synchronize(t->ex);
}

static void test_big_tile(const target *t, int nb) {
    g_test = "shared tile larger than the arena";
    float *dout = DALLOC(float, (size_t)BIG * nb);
    int *dr = DALLOC(int, nb);
    float *hout = HALLOC(float, (size_t)BIG * nb);
    int *hr = HALLOC(int, nb);
    for (size_t i = 0; i < (size_t)BIG * nb; ++i) hout[i] = -5.0f;
    for (int b = 0; b < nb; ++b) hr[b] = 0;
    UP(dout, hout, sizeof(float) * BIG * nb);
    UP(dr, hr, sizeof(int) * nb);
    CHECK_ERR(launch_err(t, tile_launch(t->ex, big_tile, tile_grid1(nb), B, dout, dr)), TILE_ERR_SMEM_OVERFLOW);
    DOWN(hout, dout, sizeof(float) * BIG * nb);
    DOWN(hr, dr, sizeof(int) * nb);
    long bad = 0;
    for (int b = 0; b < nb; ++b) CHECK(hr[b] == 1, "block %d reached %d, expected 1 (stopped at the allocation)", b, hr[b]);
    for (size_t i = 0; i < (size_t)BIG * nb; ++i)
        if (hout[i] != -5.0f) fail_elem(&bad, __FILE__, __LINE__, "out[%zu] = %g written after the overflow", i, hout[i]);
    fail_elem_total(__FILE__, __LINE__, "untouched output", bad, (long)BIG * nb);
    /* the arena grown at launch: the same kernel computes */
    RUN_OK(tile_launch(tile_exec_smem(t->ex, sizeof(float) * BIG - 1024), big_tile, tile_grid1(nb), B, dout, dr));
    DOWN(hout, dout, sizeof(float) * BIG * nb);
    DOWN(hr, dr, sizeof(int) * nb);
    bad = 0;
    for (int b = 0; b < nb; ++b) {
        CHECK(hr[b] == 2, "block %d reached %d, expected 2", b, hr[b]);
        for (int i = 0; i < BIG; ++i)
            if (hout[(size_t)b * BIG + i] != (float)(1 + i))
                fail_elem(&bad, __FILE__, __LINE__, "block %d: out[%d] = %g, expected %d", b, i,
                          hout[(size_t)b * BIG + i], 1 + i);
    }
    fail_elem_total(__FILE__, __LINE__, "grown arena", bad, (long)BIG * nb);
    free(hout);
    free(hr);
    tile_free(t->ex, dout);
    tile_free(t->ex, dr);
}

static void test_second_and_internal(const target *t, int nb) {
    g_test = "second allocation / tile_to_shared over the arena";
    float *dout = DALLOC(float, 300 * nb);
    int *dr = DALLOC(int, nb);
    float *hout = HALLOC(float, 300 * nb);
    int *hr = HALLOC(int, nb);
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < 300 * nb; ++i) hout[i] = -5.0f;
        for (int b = 0; b < nb; ++b) hr[b] = 0;
        UP(dout, hout, sizeof(float) * 300 * nb);
        UP(dr, hr, sizeof(int) * nb);
        if (pass == 0)
            CHECK_ERR(launch_err(t, tile_launch(t->ex, second_tile, tile_grid1(nb), B, dout, dr)), TILE_ERR_SMEM_OVERFLOW);
        else
            CHECK_ERR(launch_err(t, tile_launch(t->ex, to_shared_ovf, tile_grid1(nb), B, dout, dr)), TILE_ERR_SMEM_OVERFLOW);
        DOWN(hout, dout, sizeof(float) * 300 * nb);
        DOWN(hr, dr, sizeof(int) * nb);
        for (int b = 0; b < nb; ++b) CHECK(hr[b] == 1, "pass %d: block %d reached %d, expected 1", pass, b, hr[b]);
        long bad = 0;
        for (int i = 0; i < 300 * nb; ++i)
            if (hout[i] != -5.0f) fail_elem(&bad, __FILE__, __LINE__, "pass %d: out[%d] = %g written", pass, i, hout[i]);
        fail_elem_total(__FILE__, __LINE__, "untouched output", bad, 300L * nb);
    }
    /* the next launch starts clean and, with the bytes, computes */
    RUN_OK(tile_launch(tile_exec_smem(t->ex, 256), second_tile, tile_grid1(nb), B, dout, dr));
    DOWN(hout, dout, sizeof(float) * 300 * nb);
    long bad = 0;
    for (int i = 0; i < 300 * nb; ++i)
        if (hout[i] != (i % 300 < 150 ? 7.0f : 9.0f)) fail_elem(&bad, __FILE__, __LINE__, "out[%d] = %g", i, hout[i]);
    fail_elem_total(__FILE__, __LINE__, "after the overflow", bad, 300L * nb);
    free(hout);
    free(hr);
    tile_free(t->ex, dout);
    tile_free(t->ex, dr);
}

static void test_negative_indices(const target *t) {
    g_test = "negative indices skip";
    int32_t hix[NI];
    float hv[NV], hg[NI], hst[NV], hat[2 * NV];
    for (int i = 0; i < NI; ++i) hix[i] = (int32_t)(tile_hash32(3u, (uint32_t)i) % 130u) - 20; /* -20 .. 109 */
    hix[0] = -1;
    for (int i = 0; i < NV; ++i) hv[i] = (float)(10 * i + 1);
    float *dv = DALLOC(float, NV), *dg = DALLOC(float, NI), *dst = DALLOC(float, NV), *dat = DALLOC(float, 2 * NV);
    int32_t *dix = DALLOC(int32_t, NI);
    UP(dv, hv, sizeof hv);
    UP(dix, hix, sizeof hix);
    const int offs[] = {-1, 0, 1, 5};
    for (int k = 0; k < 4; ++k) {
        const int o = offs[k];
        for (int i = 0; i < NV; ++i) hst[i] = -5.0f, hat[i] = 0.0f, hat[NV + i] = 0.0f;
        UP(dst, hst, sizeof hst);
        UP(dat, hat, sizeof hat);
        RUN_OK(tile_launch(t->ex, neg_idx, tile_grid1(1), B, (const float *)dv, (const int32_t *)dix, o, dg, dst, dat));
        DOWN(hg, dg, sizeof hg);
        DOWN(hst, dst, sizeof hst);
        DOWN(hat, dat, sizeof hat);
        double rs[NV], ra[NV], rd[NV];
        int hit[NV];
        for (int i = 0; i < NV; ++i) rs[i] = -5.0, ra[i] = 0.0, rd[i] = 0.0, hit[i] = 0;
        for (int i = 0; i < NI; ++i) {
            const int c = hix[i] + o;
            const int in = hix[i] >= 0 && c >= 0 && c < NV;
            CHECK(hg[i] == (in ? hv[c] : 0.0f), "o %d: gather[%d] (index %d) = %g, expected %g", o, i, hix[i], hg[i],
                  in ? hv[c] : 0.0f);
            if (in) rs[c] = 100.0 + i, ra[c] += 100.0 + i, hit[c] += 1;
            if (hix[i] >= 0 && hix[i] < NV) rd[hix[i]] += 100.0 + i;
        }
        for (int i = 0; i < NV; ++i) {
            /* a repeated index keeps one of its writers (unspecified which) */
            if (hit[i] <= 1) CHECK(hst[i] == (float)rs[i], "o %d: store[%d] = %g, expected %g", o, i, hst[i], rs[i]);
            else CHECK(hst[i] >= 100.0f, "o %d: store[%d] = %g, expected a written value", o, i, hst[i]);
            CHECK(hat[i] == (float)ra[i], "o %d: atomic[%d] = %g, expected %g", o, i, hat[i], ra[i]);
            CHECK(hat[NV + i] == (float)rd[i], "o %d: scatter_add[%d] = %g, expected %g", o, i, hat[NV + i], rd[i]);
        }
    }
    tile_free(t->ex, dv);
    tile_free(t->ex, dg);
    tile_free(t->ex, dst);
    tile_free(t->ex, dat);
    tile_free(t->ex, dix);
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "guard_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) {
        const target *t = &gc_targets[i];
        const int nb = g_quick ? 3 : 40;
        gc_target_begin(t);
        test_big_tile(t, nb);
        test_second_and_internal(t, nb);
        test_negative_indices(t);
        gc_target_end(t, "");
    }
    return gc_finish();
}
