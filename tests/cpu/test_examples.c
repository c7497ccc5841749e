/* The example programs, compiled into this test as they are (their main
 * renamed) and run on the CPU: their printed output must be the one their
 * comments promise, which is also recomputed here with plain C loops. */
#define _POSIX_C_SOURCE 200809L /* dup / dup2 / fileno to capture stdout */
#include "test_util.h"
#include <unistd.h>

#define main example_row_sum_main
#include "../../examples/row_sum.cu"
#undef main
#undef TILE_N
#undef TILE_THREADS
#undef ROWS

#define main example_blockwise_atomic_main
#include "../../examples/blockwise_atomic.cu"
#undef main
#undef TILE_DIM
#undef N

#define main example_blockwise_simt_main
#include "../../examples/blockwise_simt.cu"
#undef main
#undef TILE_DIM
#undef N

#define main example_tile_sum_2d_main
#include "../../examples/tile_sum_2d.cu"
#undef main
#undef TILE_M
#undef TILE_N
#undef TILE_THREADS
#undef M
#undef N

/* Run an example's main with the given arguments, return what it printed. */
static char captured[4096];
static int run_captured(int (*fn)(int, char **), int argc, char **argv) {
    fflush(stdout);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(fileno(stdout));
    assert_true(saved >= 0);
    assert_true(dup2(fileno(tmp), fileno(stdout)) >= 0);
    int rc = fn(argc, argv);
    fflush(stdout);
    assert_true(dup2(saved, fileno(stdout)) >= 0);
    close(saved);
    rewind(tmp);
    size_t n = fread(captured, 1, sizeof(captured) - 1, tmp);
    captured[n] = 0;
    fclose(tmp);
    return rc;
}

static void run_both_ways(int (*fn)(int, char **), const char *expected) {
    char prog[] = "example", cpu[] = "cpu";
    char *argv_cpu[] = {prog, cpu, NULL};
    char *argv_none[] = {prog, NULL};
    /* "cpu" forces the CPU; without it the example picks the CPU too (no GPU
     * in a C build) */
    assert_int_equal(run_captured(fn, 2, argv_cpu), 0);
    assert_string_equal(captured, expected);
    assert_int_equal(run_captured(fn, 1, argv_none), 0);
    assert_string_equal(captured, expected);
}

static void test_row_sum(void **state) {
    (void)state;
    /* spec: b = [0 256 512 768 1024 1280 1536 1792 2048 2304] */
    const char *spec = "b = [0 256 512 768 1024 1280 1536 1792 2048 2304]\n";
    /* reference: row i of 256 elements all equal to i */
    char ref[256];
    int n = snprintf(ref, sizeof(ref), "b = [");
    for (int i = 0; i < 10; ++i) {
        double s = 0;
        for (int j = 0; j < 256; ++j) s += (double)((i * 256 + j) / 256);
        n += snprintf(ref + n, sizeof(ref) - (size_t)n, i ? " %g" : "%g", s);
    }
    snprintf(ref + n, sizeof(ref) - (size_t)n, "]\n");
    assert_string_equal(ref, spec);
    run_both_ways(example_row_sum_main, spec);
}

static void test_blockwise_atomic(void **state) {
    (void)state;
    int s = 0;
    for (int i = 0; i < 12; ++i) s += i;
    char ref[32];
    snprintf(ref, sizeof(ref), "[%d]\n", s);
    assert_string_equal(ref, "[66]\n");
    run_both_ways(example_blockwise_atomic_main, "[66]\n");
}

static void test_blockwise_simt_cpu(void **state) {
    (void)state;
    /* block_dim is 1 on the CPU: each thread's tile holds its own index */
    char ref[128];
    int n = snprintf(ref, sizeof(ref), "[");
    for (int i = 0; i < 12; ++i) n += snprintf(ref + n, sizeof(ref) - (size_t)n, i ? " %d" : "%d", i);
    snprintf(ref + n, sizeof(ref) - (size_t)n, "]\n");
    assert_string_equal(ref, "[0 1 2 3 4 5 6 7 8 9 10 11]\n");
    run_both_ways(example_blockwise_simt_main, ref);
}

static void test_tile_sum_2d(void **state) {
    (void)state;
    double total = 0;
    for (int i = 0; i < 64 * 48; ++i) total += 1.0;
    char ref[64];
    snprintf(ref, sizeof(ref), "tiles %dx%d, total = %g\n", 64 / 16, 48 / 16, total);
    assert_string_equal(ref, "tiles 4x3, total = 3072\n");
    run_both_ways(example_tile_sum_2d_main, ref);
}

/* The examples' kernels launched directly, checked element by element. */
static void test_example_kernels_direct(void **state) {
    (void)state;
    static float a[10 * 256], b[10];
    for (int i = 0; i < 10 * 256; ++i) a[i] = (float)tu_val(i, 111, 1);
    assert_tile_ok(tile_launch(TILE_CPU, row_sum, tile_grid1(10), 64, a, b));
    for (int i = 0; i < 10; ++i) {
        double s = 0;
        for (int j = 0; j < 256; ++j) s += a[i * 256 + j];
        assert_close(b[i], s, TU_TOL_F32);
    }
    int out = 5;
    assert_tile_ok(tile_launch_simt(TILE_CPU, blockwise_atomic, tile_grid1(12), 4, &out));
    assert_int_equal(out, 5 + 66);
    static float ones[64 * 48];
    float total = 0;
    for (int i = 0; i < 64 * 48; ++i) ones[i] = (float)tu_val(i, 112, 1);
    assert_tile_ok(tile_launch(TILE_CPU, sum_2d, tile_grid2(4, 3), 64, ones, &total));
    double ref = 0;
    for (int i = 0; i < 64 * 48; ++i) ref += ones[i];
    assert_close(total, ref, TU_TOL_F32);
    /* wrong block sizes are refused */
    assert_int_equal(tile_launch(TILE_CPU, row_sum, tile_grid1(10), 32, a, b), TILE_ERR_BLOCK_DIM);
    assert_int_equal(tile_launch_simt(TILE_CPU, blockwise_atomic, tile_grid1(12), 64, &out), TILE_ERR_BLOCK_DIM);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_sum),
        cmocka_unit_test(test_blockwise_atomic),
        cmocka_unit_test(test_blockwise_simt_cpu),
        cmocka_unit_test(test_tile_sum_2d),
        cmocka_unit_test(test_example_kernels_direct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
