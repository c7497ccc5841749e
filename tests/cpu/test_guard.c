/* tests/cpu/test_guard.c - the guard rails of issue 8 on the CPU target
 * (docs/guards.md): arena overflows stop the block without touching memory
 * outside the arena, negative indices skip in every indexed operation, and
 * TILE_DEBUG checks print one line (operation, broken promise, value, range,
 * storage kind).
 *
 * This file is a TILE_DEBUG build whose TILE_ASSERT counts failures instead
 * of aborting, so that one binary sees both what a debug build reports and
 * what every build does after the report (the launch's error code, the data
 * left untouched). The one-line messages go to stderr, which the tests
 * capture in a temporary file. */
#define _POSIX_C_SOURCE 200809L /* fileno, dup, dup2 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static int g_asserts; /* TILE_ASSERT failures seen */
#define TILE_DEBUG
#define TILE_ASSERT(c) ((c) ? (void)0 : (void)++g_asserts)
#include <tile.h>
#include "../guard_common.h"

/* ---- stderr capture: the diagnostics of one launch ---- */
static char g_err[8192];
static int g_saved_fd = -1;
static FILE *g_tmp;
static void capture_begin(void) {
    fflush(stderr);
    g_tmp = tmpfile();
    assert_non_null(g_tmp);
    g_saved_fd = dup(fileno(stderr));
    dup2(fileno(g_tmp), fileno(stderr));
    g_asserts = 0;
}
static void capture_end(void) {
    fflush(stderr);
    dup2(g_saved_fd, fileno(stderr));
    close(g_saved_fd);
    rewind(g_tmp);
    size_t n = fread(g_err, 1, sizeof g_err - 1, g_tmp);
    g_err[n] = 0;
    fclose(g_tmp);
}
/* the captured text holds `s`, and every diagnostic is one line */
static void expect_msg(const char *s) {
    if (!strstr(g_err, s)) {
        print_error("expected \"%s\" in the diagnostics, got:\n%s\n", s, g_err);
        fail();
    }
    for (const char *p = g_err; *p; ) {
        const char *e = strchr(p, '\n');
        const size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 200) {
            print_error("diagnostic line of %zu characters: %.*s\n", len, (int)len, p);
            fail();
        }
        p += len + (e != NULL);
    }
}

/* ======================================================================
 * 1, 2. arena overflow: the block stops at the allocation
 * ====================================================================== */
/* a 16 KiB tile in a 1 KiB arena (grown to fit by tile_exec_smem) */
TILE_KERNEL_SMEM(big_tile, 8, 1024, float *out, int *reached) {
    reached[tile_block(0)] = 1;
    tile_shared(float, s, 4096);
    reached[tile_block(0)] = 2; /* not reached when s does not fit */
    tile_arange(s, 1, 1);
    tile_store(tile_array1(out + 4096 * tile_block(0), 4096), s, 0);
}
/* two 600-byte tiles: each fits alone, not together */
TILE_KERNEL_SMEM(second_tile, 8, 1024, float *out, int *reached) {
    tile_shared(float, a, 150);
    tile_full(a, 7.0f);
    reached[0] = 1;
    tile_shared(float, b, 150); /* 608 + 600 > 1024 */
    reached[0] = 2;
    tile_full(b, 9.0f);
    tile_store(tile_array1(out, 150), a, 0);
    tile_store(tile_array1(out + 150, 150), b, 0);
}
/* a library-internal allocation (the staged copy of tile_to_shared) */
TILE_KERNEL_SMEM(to_shared_ovf, 8, 256, float *out, int *reached) {
    tile_reg(float, r, 128);
    tile_arange(r, 0, 1);
    reached[0] = 1;
    tile_to_shared(s, r); /* 512 bytes > 256 */
    reached[0] = 2;
    tile_store(tile_array1(out, 128), s, 0);
}

static void test_arena_overflow_stops_block(void **state) {
    (void)state;
    static float out[3 * 4096];
    int reached[3] = {0, 0, 0};
    for (int i = 0; i < 3 * 4096; ++i) out[i] = -5.0f;
    capture_begin();
    const int e = tile_launch(TILE_CPU, big_tile, tile_grid1(3), 8, out, reached);
    capture_end();
    assert_int_equal(e, TILE_ERR_SMEM_OVERFLOW);
    for (int b = 0; b < 3; ++b) assert_int_equal(reached[b], 1); /* every block stopped there */
    for (int i = 0; i < 3 * 4096; ++i) assert_true(out[i] == -5.0f); /* nothing written */
    assert_int_equal(g_asserts, 3);                                    /* one report per block */
    expect_msg("tile.h: shared arena overflow (raise the TILE_KERNEL_SMEM bytes or tile_exec_smem): "
               "the allocation's last byte: 16383 not in [0, 1024) (");
    expect_msg("test_guard.c:");
    /* the same kernel with the arena grown at launch */
    capture_begin();
    assert_int_equal(tile_launch(tile_exec_smem(TILE_CPU, 16384 - 1024), big_tile, tile_grid1(3), 8, out, reached),
                     TILE_OK);
    capture_end();
    assert_int_equal(g_asserts, 0);
    for (int b = 0; b < 3; ++b) {
        assert_int_equal(reached[b], 2);
        for (int i = 0; i < 4096; ++i) assert_true(out[b * 4096 + i] == (float)(1 + i));
    }
}

static void test_second_allocation_does_not_alias(void **state) {
    (void)state;
    static float out[300];
    int reached[1] = {0};
    for (int i = 0; i < 300; ++i) out[i] = -5.0f;
    capture_begin();
    assert_int_equal(tile_launch(TILE_CPU, second_tile, tile_grid1(1), 8, out, reached), TILE_ERR_SMEM_OVERFLOW);
    capture_end();
    assert_int_equal(reached[0], 1);
    for (int i = 0; i < 300; ++i) assert_true(out[i] == -5.0f); /* no result that looks right */
    assert_int_equal(g_asserts, 1);
    expect_msg("1207 not in [0, 1024)"); /* b would take bytes 608 .. 1207 */
    /* the next launch starts clean and, given the bytes, computes */
    capture_begin();
    assert_int_equal(tile_launch(tile_exec_smem(TILE_CPU, 256), second_tile, tile_grid1(1), 8, out, reached), TILE_OK);
    capture_end();
    for (int i = 0; i < 300; ++i) assert_true(out[i] == (i < 150 ? 7.0f : 9.0f));

    for (int i = 0; i < 128; ++i) out[i] = -5.0f;
    capture_begin();
    assert_int_equal(tile_launch(TILE_CPU, to_shared_ovf, tile_grid1(1), 8, out, reached), TILE_ERR_SMEM_OVERFLOW);
    capture_end();
    assert_int_equal(reached[0], 1);
    for (int i = 0; i < 128; ++i) assert_true(out[i] == -5.0f);
}

/* ======================================================================
 * 7. tile_get / tile_set / tile_extract out of range (TILE_DEBUG)
 * ====================================================================== */
TILE_KERNEL_SMEM(get_set, 8, 1024, float *out, int i, int j) {
    tile_shared(float, s, 4, 4);
    tile_arange(s, 0, 1);
    out[0] = tile_get(s, i, j);
    tile_set(s, 42.0f, i, j);
    tile_reg(float, r, 4, 4);
    tile_copy(r, s);
    out[1] = tile_extract(r, i, j);
}

static void test_get_set_range(void **state) {
    (void)state;
    float out[2] = {0, 0};
    /* in range: no report, the values */
    capture_begin();
    assert_int_equal(tile_launch(TILE_CPU, get_set, tile_grid1(1), 8, out, 2, 3), TILE_OK);
    capture_end();
    assert_int_equal(g_asserts, 0);
    assert_true(out[0] == 11.0f && out[1] == 42.0f);
    /* (0, 5): dim 1 out of range, still inside the tile's memory */
    capture_begin();
    assert_int_equal(tile_launch(TILE_CPU, get_set, tile_grid1(1), 8, out, 0, 5), TILE_OK);
    capture_end();
    assert_int_equal(g_asserts, 3); /* tile_get, tile_set, tile_extract */
    expect_msg("tile.h: tile_get: index of dim 1 out of range (shared tile): 5 not in [0, 4) (");
    expect_msg("tile.h: tile_set: index of dim 1 out of range (shared tile): 5 not in [0, 4) (");
    expect_msg("tile.h: tile_extract: index of dim 1 out of range (register tile): 5 not in [0, 4) (");
    /* a negative index in dim 0 */
    capture_begin();
    (void)tile_launch(TILE_CPU, get_set, tile_grid1(1), 8, out, -1, 6);
    capture_end();
    expect_msg("tile_get: index of dim 0 out of range (shared tile): -1 not in [0, 4)");
}

/* ======================================================================
 * 4. offsets: fewer than the rank are trailing zeros; the four-offset form
 * must have zeros past the rank (TILE_DEBUG)
 * ====================================================================== */
TILE_KERNEL(offs, 8, const float *a, float *out, int extra) {
    tile_reg(float, row, 8);
    tile_load(row, tile_array_row(tile_array2(a, 4, 8), 2), 0); /* the right way to take row 2 */
    tile_store(tile_array1(out, 8), row, 0);
    tile_reg(float, blk, 2, 8);
    tile_load(blk, tile_array2(a, 4, 8), 1); /* (1) == (1, 0) */
    tile_store(tile_array2(out + 8, 2, 8), blk, 0, 0);
    tile_reg(float, gen, 8);
    tile_load(gen, tile_array1(a, 32), 8, extra, 0, 0); /* generic four-offset form */
    tile_store(tile_array1(out + 24, 8), gen, 0);
}

static void test_offsets(void **state) {
    (void)state;
    float a[32], out[32];
    for (int i = 0; i < 32; ++i) a[i] = (float)(i * 3 - 7);
    capture_begin();
    assert_int_equal(tile_launch(TILE_CPU, offs, tile_grid1(1), 8, a, out, 0), TILE_OK);
    capture_end();
    assert_int_equal(g_asserts, 0);
    for (int i = 0; i < 8; ++i) assert_true(out[i] == a[16 + i]);
    for (int i = 0; i < 16; ++i) assert_true(out[8 + i] == a[8 + i]);
    for (int i = 0; i < 8; ++i) assert_true(out[24 + i] == a[8 + i]);
    capture_begin();
    (void)tile_launch(TILE_CPU, offs, tile_grid1(1), 8, a, out, 3);
    capture_end();
    assert_int_equal(g_asserts, 1);
    expect_msg("tile_load/tile_store: an offset past the tile's rank (dim 1) must be 0: 3 not in [0, 1)");
}

/* ======================================================================
 * 8. a negative index skips, whatever the offset, in every indexed operation
 * ====================================================================== */
enum { NI = 6, NV = 10 };
GUARD_NEG_IDX_KERNEL(neg_idx, 8, NI, NV)

static void test_negative_index_skips(void **state) {
    (void)state;
    const int32_t ix[NI] = {-1, 3, -2, 0, 9, -1};
    float v[NV], g[NI], st[NV], at[2 * NV];
    for (int i = 0; i < NV; ++i) v[i] = (float)(10 * i + 1);
    for (int o = -1; o <= 3; ++o) {
        for (int i = 0; i < NV; ++i) st[i] = -5.0f, at[i] = 0.0f;
        assert_int_equal(tile_launch(TILE_CPU, neg_idx, tile_grid1(1), 8, v, ix, o, g, st, at), TILE_OK);
        double rs[NV], ra[NV], rd[NV];
        for (int i = 0; i < NV; ++i) rs[i] = -5.0, ra[i] = 0.0, rd[i] = 0.0;
        for (int i = 0; i < NI; ++i) {
            const int c = ix[i] + o; /* reached only by a non-negative index */
            const int in = ix[i] >= 0 && c >= 0 && c < NV;
            assert_true(g[i] == (in ? v[c] : 0.0f));
            if (in) rs[c] = 100.0 + i, ra[c] += 100.0 + i;
            if (ix[i] >= 0 && ix[i] < NV) rd[ix[i]] += 100.0 + i;
        }
        for (int i = 0; i < NV; ++i) {
            assert_true(st[i] == (float)rs[i]);
            assert_true(at[i] == (float)ra[i]);
            assert_true(at[NV + i] == (float)rd[i]);
        }
    }
}

/* ======================================================================
 * 3. broadcasts that are valid still compile and compute
 * ====================================================================== */
TILE_KERNEL_SMEM(bcast_ok, 8, 1024, float *out) {
    tile_reg(float, row, 1, 3);
    tile_arange(row, 1, 1);
    tile_reg(float, vec, 3);
    tile_arange(vec, 4, 1);
    tile_reg(float, col, 2, 1);
    tile_arange(col, 7, 1);
    tile_reg(float, d, 2, 3);
    tile_broadcast(d, row);
    tile_store(tile_array2(out, 2, 3), d, 0, 0);
    tile_broadcast(d, vec);
    tile_store(tile_array2(out + 6, 2, 3), d, 0, 0);
    tile_broadcast(d, col);
    tile_store(tile_array2(out + 12, 2, 3), d, 0, 0);
}

static void test_valid_broadcasts(void **state) {
    (void)state;
    float out[18];
    assert_int_equal(tile_launch(TILE_CPU, bcast_ok, tile_grid1(1), 8, out), TILE_OK);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) {
            assert_true(out[i * 3 + j] == (float)(1 + j));
            assert_true(out[6 + i * 3 + j] == (float)(4 + j));
            assert_true(out[12 + i * 3 + j] == (float)(7 + i));
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_overflow_stops_block),
        cmocka_unit_test(test_second_allocation_does_not_alias),
        cmocka_unit_test(test_get_set_range),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_negative_index_skips),
        cmocka_unit_test(test_valid_broadcasts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
