/* Selection, partition, discontinuity flags, adjacent differences and
 * run-length encoding (include/tile/select.h) on the CPU target (C11): the
 * header's examples, then every operation on 1D and 2D tiles (register,
 * shared, in place) over several tiles against plain C loops (sl_check);
 * tests/gpu/select_test.cu runs the same kernels on the GPU. */
#include "test_util.h"
#include <tile/select.h> /* until tile.h includes it */

#define SF_KERNEL_EXTRA /* sf_kernel: nothing more on the CPU test */
#include "../select_ref.h"

static void run_sl(void (*launch)(const int32_t *, int32_t *, int *, int, int), int n, int ntiles) {
    int32_t *in = (int32_t *)malloc(sizeof(int32_t) * (size_t)n * ntiles);
    int32_t *out = (int32_t *)malloc(sizeof(int32_t) * 2 * (size_t)n * ntiles);
    int *cnt = (int *)malloc(sizeof(int) * (size_t)ntiles);
    char msg[200];
    assert_true(in && out && cnt);
    sl_input(in, n * ntiles);
    for (int which = 0; which < SL_NCASE; ++which) {
        memset(out, 0xAB, sizeof(int32_t) * 2 * (size_t)n * ntiles);
        memset(cnt, 0xAB, sizeof(int) * (size_t)ntiles);
        launch(in, out, cnt, which, ntiles);
        const long bad = sl_check(which, in, out, cnt, ntiles, n, msg, sizeof msg);
        if (bad) print_error("n %d: %s (%ld bad)\n", n, msg, bad);
        assert_int_equal(bad, 0);
    }
    free(in);
    free(out);
    free(cnt);
}
#define SL_LAUNCHER(name, B)                                                       \
    static void launch_##name(const int32_t *in, int32_t *out, int *cnt, int which, int nt) { \
        assert_tile_ok(tile_launch(TILE_CPU, name, tile_grid1(nt), B, in, out, cnt, which)); \
    }
SL_LAUNCHER(sl_1d, 96)
SL_LAUNCHER(sl_2d, 256)
SL_LAUNCHER(sl_small, 64)
static void test_ops_1d(void **state) {
    (void)state;
    run_sl(launch_sl_1d, 1000, 5);
}
static void test_ops_2d(void **state) {
    (void)state;
    run_sl(launch_sl_2d, 1024, 4);
}
static void test_ops_small(void **state) {
    (void)state;
    run_sl(launch_sl_small, 37, 7);
}


static void test_types(void **state) {
    (void)state;
    static float in[SF_N], out[4 * SF_N];
    static tile_vec3f vin[SF_V], vout[SF_V];
    static double din[SF_N], dout[SF_N];
    int cnt[2] = {-1, -1};
    char msg[200];
    sf_input(in, vin, din);
    assert_tile_ok(tile_launch(TILE_CPU, sf_kernel, tile_grid1(1), 64, in, vin, din, out, vout, dout, cnt));
    const long bad = sf_check(in, vin, din, out, vout, dout, cnt, 0, msg, sizeof msg);
    if (bad) print_error("%s (%ld bad)\n", msg, bad);
    assert_int_equal(bad, 0);
}

/* the examples of select.h, verbatim */
TILE_FUNC int is_pos(int x) { return x > 0; }
TILE_FUNC int ex_lt(int a, int b) { return b < a; }
TILE_KERNEL(ex_sel, 32, const int *in, const int *in5, const int *fl5, const int *sq, int *out, int *cnt) {
    tile_reg(int, src, 8);
    tile_reg(int, f, 8);
    tile_reg(int, d, 8);
    tile_reg(int, l, 8);
    tile_load(src, tile_array1(in, 8), 0);
    tile_flag_heads(f, src);
    tile_store(tile_array1(out, 8), f, 0);
    tile_flag_tails(f, src);
    tile_store(tile_array1(out + 8, 8), f, 0);
    tile_adjacent_difference(d, src);
    tile_store(tile_array1(out + 16, 8), d, 0);
    tile_adjacent_difference_right(d, src);
    tile_store(tile_array1(out + 24, 8), d, 0);
    tile_copy(d, src);
    tile_select_if(d, src, is_pos, cnt[0]);
    tile_store(tile_array1(out + 32, 8), d, 0);
    tile_partition_if(d, src, is_pos, cnt[1]);
    tile_store(tile_array1(out + 40, 8), d, 0);
    tile_copy(d, src);
    tile_zeros(l);
    tile_run_length_encode(d, l, cnt[2], src);
    tile_store(tile_array1(out + 48, 8), d, 0);
    tile_store(tile_array1(out + 56, 8), l, 0);
    tile_reg(int, s5, 5);
    tile_reg(int, f5, 5);
    tile_reg(int, d5, 5);
    tile_load(s5, tile_array1(in5, 5), 0);
    tile_load(f5, tile_array1(fl5, 5), 0);
    tile_copy(d5, s5);
    tile_select_flagged(d5, s5, f5, cnt[3]);
    tile_store(tile_array1(out + 64, 5), d5, 0);
    tile_partition_flagged(d5, s5, f5, cnt[4]);
    tile_store(tile_array1(out + 69, 5), d5, 0);
    tile_reg(int, s6, 6);
    tile_reg(int, f6, 6);
    tile_load(s6, tile_array1(in + 8, 6), 0);
    tile_flag_heads_prev(f6, s6, 1);
    tile_store(tile_array1(out + 74, 6), f6, 0);
    tile_flag_heads_op(f6, ex_lt, s6);
    tile_store(tile_array1(out + 80, 6), f6, 0);
    tile_reg(int, q, 4);
    tile_reg(int, dq, 4);
    tile_load(q, tile_array1(sq, 4), 0);
    tile_adjacent_difference(dq, q);
    tile_store(tile_array1(out + 86, 4), dq, 0);
    tile_adjacent_difference_prev(dq, q, 1);
    tile_store(tile_array1(out + 90, 4), dq, 0);
    tile_adjacent_difference_right(dq, q);
    tile_store(tile_array1(out + 94, 4), dq, 0);
    tile_adjacent_difference_right_next(dq, q, 25);
    tile_store(tile_array1(out + 98, 4), dq, 0);
    tile_flag_tails_next(f6, s6, 7);
    tile_store(tile_array1(out + 102, 6), f6, 0);
}
static void test_doc_examples(void **state) {
    (void)state;
    const int in[14] = {3, 3, -1, -1, -1, 4, 3, 3, /* then */ 1, 1, 2, 2, 2, 7};
    const int in5[5] = {5, -1, 7, 0, 2}, fl5[5] = {1, 0, 1, 0, 1}, sq[4] = {1, 4, 9, 16};
    int out[108], cnt[5];
    assert_tile_ok(tile_launch(TILE_CPU, ex_sel, tile_grid1(1), 32, in, in5, fl5, sq, out, cnt));
    const int want[108] = {1, 0, 1, 0, 0, 1, 1, 0, /* heads */
                          0, 1, 0, 0, 1, 1, 0, 1, /* tails */
                          3, 0, -4, 0, 0, 5, -1, 0, /* difference */
                          0, 4, 0, 0, -5, 1, 0, 3, /* difference right */
                          3, 3, 4, 3, 3, 4, 3, 3, /* select: d[5..7] unchanged (a copy of src) */
                          3, 3, 4, 3, 3, -1, -1, -1, /* partition */
                          3, -1, 4, 3, -1, 4, 3, 3, /* run values (then src's) */
                          2, 3, 1, 2, 0, 0, 0, 0, /* run lengths */
                          5, 7, 2, 0, 2, /* select_flagged: d[3..4] unchanged */
                          5, 7, 2, -1, 0, /* partition_flagged */
                          0, 0, 1, 0, 0, 1, /* heads_prev(1) of [1 1 2 2 2 7] */
                          1, 0, 0, 0, 0, 0, /* heads_op(later < earlier) */
                          1, 3, 5, 7, 0, 3, 5, 7, -3, -5, -7, 16, -3, -5, -7, -9, /* right_next(25) */
                          0, 1, 0, 0, 1, 0}; /* tails_next(7) of [1 1 2 2 2 7] */
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(cnt[0], 5);
    assert_int_equal(cnt[1], 5);
    assert_int_equal(cnt[2], 4);
    assert_int_equal(cnt[3], 3);
    assert_int_equal(cnt[4], 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doc_examples),
        cmocka_unit_test(test_ops_1d),
        cmocka_unit_test(test_ops_2d),
        cmocka_unit_test(test_ops_small),
        cmocka_unit_test(test_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
