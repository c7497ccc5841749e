/* Scans (include/tile/scan.h) on the CPU target: the header's examples, then
 * every kernel of tests/scan_common.h (all scans, element types, lengths,
 * 2D-4D tiles, register/shared/views, in place, generic operations, big
 * tiles) on every data set, three tiles per launch, against the plain host
 * loops there. On the CPU a block is one thread holding the whole tile, so
 * this is the sequential path; tests/cpu/test_scan_block.c runs the GPU block
 * algorithm. */
#include "test_util.h"
#define SC_LAUNCH(name, T, B, ctx, in, out, nblocks, which) \
    tile_launch(TILE_CPU, name, tile_grid1(nblocks), B, in, out, which)
#include "../scan_ref.h" /* scan_common.h with per-row scans, FX_KERNEL */

/* ---- the header's examples, verbatim ---- */
TILE_FUNC int32_t ex_mul(int32_t a, int32_t b) { return a * b; }
TILE_KERNEL(ex_i32, 64, const int32_t *in, int32_t *out, const int32_t *in4, int32_t *out4) {
    tile_reg(int32_t, s, 8);
    tile_reg(int32_t, d, 8);
    tile_load(s, tile_array1(in, 8), 0);
    tile_scan_inclusive(d, s);
    tile_store(tile_array1(out, 8), d, 0);
    tile_scan_exclusive(d, s);
    tile_store(tile_array1(out + 8, 8), d, 0);
    tile_scan_max_inclusive(d, s);
    tile_store(tile_array1(out + 16, 8), d, 0);
    tile_scan_min_inclusive(d, s);
    tile_store(tile_array1(out + 24, 8), d, 0);
    tile_scan_max_exclusive(d, s);
    tile_store(tile_array1(out + 32, 8), d, 0);
    tile_scan_min_exclusive(d, s);
    tile_store(tile_array1(out + 40, 8), d, 0);
    tile_reg(int32_t, s4, 4);
    tile_reg(int32_t, d4, 4);
    tile_load(s4, tile_array1(in4, 4), 0);
    tile_scan_inclusive_op(d4, ex_mul, s4);
    tile_store(tile_array1(out4, 4), d4, 0);
    tile_scan_exclusive_op(d4, ex_mul, 1, s4);
    tile_store(tile_array1(out4 + 4, 4), d4, 0);
}
TILE_KERNEL(ex_f32, 32, const float *in, float *out) {
    tile_reg(float, s, 2, 3);
    tile_reg(float, d, 2, 3);
    tile_load(s, tile_array2(in, 2, 3), 0, 0);
    tile_scan_inclusive(d, s);
    tile_store(tile_array2(out, 2, 3), d, 0, 0);
    tile_scan_exclusive(d, s);
    tile_store(tile_array2(out + 6, 2, 3), d, 0, 0);
    tile_scan_inclusive_axis(d, s, 1);
    tile_store(tile_array2(out + 12, 2, 3), d, 0, 0);
    tile_scan_exclusive_axis(d, s, -1);
    tile_store(tile_array2(out + 18, 2, 3), d, 0, 0);
}
/* the _agg and _prefix examples of scan.h */
TILE_KERNEL(ex_agg, 64, const int32_t *in, const float *in4, int32_t *out, float *out4) {
    tile_reg(int32_t, s, 8);
    tile_reg(int32_t, d, 8);
    tile_load(s, tile_array1(in, 8), 0);
    int32_t total = 0, m = 0;
    tile_scan_exclusive_agg(d, s, total);
    tile_store(tile_array1(out, 8), d, 0);
    tile_scan_max_inclusive_agg(d, s, m);
    out[8] = total;
    out[9] = m;
    tile_reg(float, s4, 4);
    tile_reg(float, d4, 4);
    tile_load(s4, tile_array1(in4, 4), 0);
    float run = 10;
    tile_scan_inclusive_prefix(d4, s4, run);
    tile_store(tile_array1(out4, 4), d4, 0);
    out4[4] = run;
    run = 10;
    tile_scan_exclusive_prefix(d4, s4, run);
    tile_store(tile_array1(out4 + 5, 4), d4, 0);
    out4[9] = run;
}

static void test_doc_examples(void **state) {
    (void)state;
    const int32_t in[8] = {3, 1, -4, 1, 5, -9, 2, 6}, in4[4] = {1, 2, 3, 4};
    const int32_t want[48] = {3, 4, 0, 1, 6, -3, -1, 5,
                              0, 3, 4, 0, 1, 6, -3, -1,
                              3, 3, 3, 3, 5, 5, 5, 6,
                              3, 1, -4, -4, -4, -9, -9, -9,
                              INT32_MIN, 3, 3, 3, 3, 5, 5, 5,
                              INT32_MAX, 3, 1, -4, -4, -4, -9, -9};
    const int32_t want4[8] = {1, 2, 6, 24, 1, 1, 2, 6};
    int32_t out[48], out4[8];
    assert_tile_ok(tile_launch(TILE_CPU, ex_i32, tile_grid1(1), 64, in, out, in4, out4));
    assert_memory_equal(out, want, sizeof(want));
    assert_memory_equal(out4, want4, sizeof(want4));
    const float fin[6] = {1, 2, 3, 4, 5, 6},
                fwant[24] = {1, 3, 6, 10, 15, 21, 0, 1, 3, 6, 10, 15, 1, 3, 6, 4, 9, 15, 0, 1, 3, 0, 4, 9};
    float fout[24];
    assert_tile_ok(tile_launch(TILE_CPU, ex_f32, tile_grid1(1), 32, fin, fout));
    assert_memory_equal(fout, fwant, sizeof(fwant));
    const int32_t awant[10] = {0, 3, 4, 0, 1, 6, -3, -1, 5, 6};
    const float in4f[4] = {1, 2, 3, 4}, want4f[10] = {11, 13, 16, 20, 20, 10, 11, 13, 16, 20};
    int32_t aout[10];
    float out4f[10];
    assert_tile_ok(tile_launch(TILE_CPU, ex_agg, tile_grid1(1), 64, in, in4f, aout, out4f));
    assert_memory_equal(aout, awant, sizeof(awant));
    assert_memory_equal(out4f, want4f, sizeof(want4f));
}

FX_KERNEL(fx_b64, 64)

/* flattened multi-dim scans, aggregates, a whole array scanned in one loop
 * with a running prefix (the CPU target: one thread) */
static void test_flat_agg_prefix(void **state) {
    (void)state;
    static int32_t in[FX_LEN], out[FX_OUTN];
    char msg[200];
    fx_input(in);
    for (int which = 0; which < FX_NCASE; ++which) {
        memset(out, 0xAB, sizeof out);
        assert_tile_ok(tile_launch(TILE_CPU, fx_b64, tile_grid1(1), 64, in, out, which));
        const long bad = fx_check(which, in, out, 1, msg, sizeof msg);
        if (bad) print_error("%s (%ld bad)\n", msg, bad);
        assert_int_equal(bad, 0);
    }
}

/* the identities and the arena budget, as documented */
static void test_constants(void **state) {
    (void)state;
    assert_int_equal(TILE_SCAN_SMEM_BYTES(float, 16384), 67584);
    assert_int_equal(TILE_SCAN_SMEM_BYTES(double, 8192), 69632);
    assert_int_equal(TILE_SCAN_SMEM_BYTES(float, 256, 16), 16896);
    assert_true(TILE_SCAN_SMEM_BYTES(sc_aff, 10) >= 10 * sizeof(sc_aff));
    float f = 0;
    double d = 0;
    int32_t i = 0;
    uint32_t u = 0;
    int64_t l = 0;
    uint64_t q = 0;
    assert_true(isinf(TILE__SCAN_LOWEST(f)) && TILE__SCAN_LOWEST(f) < 0);
    assert_true(isinf(TILE__SCAN_HIGHEST(d)) && TILE__SCAN_HIGHEST(d) > 0);
    assert_true(TILE__SCAN_LOWEST(i) == INT32_MIN && TILE__SCAN_HIGHEST(i) == INT32_MAX);
    assert_true(TILE__SCAN_LOWEST(u) == 0 && TILE__SCAN_HIGHEST(u) == UINT32_MAX);
    assert_true(TILE__SCAN_LOWEST(l) == INT64_MIN && TILE__SCAN_HIGHEST(l) == INT64_MAX);
    assert_true(TILE__SCAN_LOWEST(q) == 0 && TILE__SCAN_HIGHEST(q) == UINT64_MAX);
}

/* every kernel, every data set, three tiles per launch */
static void run_kernels(int dt_lo, int dt_hi) {
    long bad = 0, runs = 0;
    char msg[1200];
    for (int ki = 0; ki < SC_NKERNELS; ++ki) {
        const sc_kernel *kd = &sc_kernels[ki];
        if (kd->dt < dt_lo || kd->dt > dt_hi) continue;
        for (int ds = 0; ds < SC_NDATA; ++ds) {
            if (!sc_has_data(kd->dt, ds)) continue;
            const int nb = 3;
            void *in = sc_make_input(kd, ds, nb);
            const size_t ob = (size_t)sc_dt_size[kd->dt] * kd->out_n * nb;
            void *out = malloc(ob);
            assert_non_null(out);
            memset(out, 0xAB, ob);
            int e = sc_run_all(kd, NULL, in, out, nb);
            if (e != TILE_OK) {
                print_error("%s: launch -> %d (%s)\n", kd->name, e, tile_error_string(e));
                ++bad;
            } else {
                long b = sc_verify(kd, ds, in, out, nb, 1, msg, sizeof msg);
                if (b) print_error("%s [%s]: %ld elements differ: %s\n", kd->name, sc_data_name[ds], b, msg);
                bad += b;
            }
            ++runs;
            free(in);
            free(out);
        }
    }
    assert_true(runs > 0);
    assert_int_equal(bad, 0);
}
static void test_float_kernels(void **state) {
    (void)state;
    run_kernels(SC_F32, SC_F64);
}
static void test_int_kernels(void **state) {
    (void)state;
    run_kernels(SC_I32, SC_U64);
}
static void test_affine_kernels(void **state) {
    (void)state;
    run_kernels(SC_AFF, SC_AFF);
}

/* the data really has what the tests rely on: no zeros, negatives,
 * duplicates, u32 sums that wrap */
static void test_data(void **state) {
    (void)state;
    const sc_kernel *kd = NULL;
    for (int ki = 0; ki < SC_NKERNELS; ++ki)
        if (!strcmp(sc_kernels[ki].name, "u32_257_b256")) kd = &sc_kernels[ki];
    assert_non_null(kd);
    uint32_t *u = (uint32_t *)sc_make_input(kd, SC_DATA_MIXED, 1);
    uint64_t s = 0;
    for (int i = 0; i < kd->n; ++i) {
        assert_true(u[i] != 0);
        s += u[i];
    }
    assert_true(s > UINT32_MAX); /* the u32 sum wraps */
    free(u);
    int neg = 0, dup = 0;
    float seen[256];
    int nseen = 0;
    for (uint32_t i = 0; i < 1000; ++i) {
        float f;
        sc_gen(SC_F32, SC_DATA_MIXED, 7, i, &f);
        assert_true(f != 0);
        neg += f < 0;
        int found = 0;
        for (int k = 0; k < nseen; ++k) found |= seen[k] == f;
        if (found) ++dup;
        else if (nseen < 256) seen[nseen++] = f;
        float g;
        sc_gen(SC_F32, SC_DATA_NEG, 7, i, &g);
        assert_true(g < 0);
    }
    assert_true(neg > 300 && neg < 700);
    assert_true(dup > 500);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doc_examples),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_flat_agg_prefix),
        cmocka_unit_test(test_data),
        cmocka_unit_test(test_float_kernels),
        cmocka_unit_test(test_int_kernels),
        cmocka_unit_test(test_affine_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
