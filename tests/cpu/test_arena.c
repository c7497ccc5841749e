/* The block's shared-memory arena on the CPU: tile_shared and tile_smem_alloc
 * from TILE_KERNEL_SMEM, 16-byte alignment, bump layout, tile_smem_free,
 * tile_smem_mark / tile_smem_release reuse, contents kept apart, a fresh arena
 * per block. (Overflow: test_launch.c, also in the TILE_DEBUG build.) */
#include "test_util.h"

#define ARENA 4096
enum { NALLOC = 5, NREC = 16 };
/* Element sizes and counts of the allocations in `layout` below. */
static const size_t alloc_bytes[NALLOC] = {sizeof(float) * 3, sizeof(double) * 5, 1, sizeof(tile_vec3f) * 7,
                                           sizeof(tile_mat33d) * 2};

/* rec: [0..4] tile addresses minus the first, [5..10] tile_smem_free() after
 * each step, [11] address after release minus e's, [12] free after release,
 * [13] tile_smem_mark() after d, [14] all 16-byte aligned, [15] contents ok */
TILE_KERNEL_SMEM(layout, 64, ARENA, long *rec) {
    long *r = rec + tile_block(0) * NREC;
    r[5] = tile_smem_free();
    tile_shared(float, a, 3);
    r[6] = tile_smem_free();
    tile_shared(double, b, 5);
    r[7] = tile_smem_free();
    tile_shared(uint8_t, c, 1);
    r[8] = tile_smem_free();
    tile_shared(tile_vec3f, d, 7);
    r[9] = tile_smem_free();
    int m = tile_smem_mark();
    r[13] = m;
    tile_shared(tile_mat33d, e, 2);
    r[10] = tile_smem_free();
    char *base = (char *)a.v;
    r[0] = 0;
    r[1] = (long)((char *)b.v - base);
    r[2] = (long)((char *)c.v - base);
    r[3] = (long)((char *)d.v - base);
    r[4] = (long)((char *)e.v - base);
    r[14] = ((uintptr_t)a.v | (uintptr_t)b.v | (uintptr_t)c.v | (uintptr_t)d.v | (uintptr_t)e.v) % 16 == 0;
    /* distinct contents in every tile: none overlaps another */
    tile_full(a, -1.5f);
    tile_full(b, 2.25);
    tile_full(c, (uint8_t)(7 + tile_block(0)));
    tile_full(d, tile_vec3f_set(1, 2, 3));
    tile_full(e, tile_mat33d_diag(4.0));
    tile_smem_release(m);
    r[12] = tile_smem_free();
    tile_shared(tile_mat33d, e2, 2); /* reuses e's bytes */
    r[11] = (long)((char *)e2.v - (char *)e.v);
    int ok = 1;
    for (int i = 0; i < 3; ++i) ok &= tile_get(a, i) == -1.5f;
    for (int i = 0; i < 5; ++i) ok &= tile_get(b, i) == 2.25;
    ok &= tile_get(c, 0) == (uint8_t)(7 + tile_block(0));
    for (int i = 0; i < 7; ++i) ok &= tile_get(d, i).v[0] == 1 && tile_get(d, i).v[1] == 2 && tile_get(d, i).v[2] == 3;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 9; ++j) ok &= tile_get(e2, i).m[j / 3][j % 3] == (j / 3 == j % 3 ? 4.0 : 0.0);
    r[15] = ok;
}

static void test_layout_and_free(void **state) {
    (void)state;
    enum { NB = 3 };
    long rec[NB * NREC];
    for (int i = 0; i < NB * NREC; ++i) rec[i] = -99;
    assert_tile_ok(tile_launch(TILE_CPU, layout, tile_grid1(NB), 64, rec));
    /* reference bump allocator: each allocation at the next multiple of 16 */
    long off[NALLOC], end[NALLOC], pos = 0;
    for (int i = 0; i < NALLOC; ++i) {
        off[i] = (pos + 15) / 16 * 16;
        end[i] = off[i] + (long)alloc_bytes[i];
        pos = end[i];
    }
    for (int bk = 0; bk < NB; ++bk) {
        const long *r = rec + bk * NREC;
        for (int i = 0; i < NALLOC; ++i) assert_int_equal(r[i], off[i] - off[0]);
        assert_int_equal(r[5], ARENA); /* every block starts with an empty arena */
        for (int i = 0; i < NALLOC; ++i) assert_int_equal(r[6 + i], ARENA - end[i]);
        assert_int_equal(r[13], end[3]);
        assert_int_equal(r[12], ARENA - end[3]); /* release gives e's bytes back */
        assert_int_equal(r[11], 0);              /* and the next tile takes them */
        assert_int_equal(r[14], 1);
        assert_int_equal(r[15], 1);
    }
}

/* TILE_SMEM_BYTES against a plain computation */
static void test_smem_bytes_macro(void **state) {
    (void)state;
    assert_int_equal(TILE_SMEM_BYTES(float, 64, 64), 16384);
    const size_t cases[][2] = {
        {TILE_SMEM_BYTES(double, 5), sizeof(double) * 5},
        {TILE_SMEM_BYTES(uint8_t, 1), 1},
        {TILE_SMEM_BYTES(tile_vec3f, 7), sizeof(tile_vec3f) * 7},
        {TILE_SMEM_BYTES(tile_mat66d, 2, 3), sizeof(tile_mat66d) * 6},
        {TILE_SMEM_BYTES(int32_t, 3, 5, 7), 4 * 105},
        {TILE_SMEM_BYTES(int64_t, 2, 1, 3, 2), 8 * 12},
        {TILE_SMEM_BYTES(float, 4), 16},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
        assert_int_equal(cases[i][0], (cases[i][1] + 15) / 16 * 16);
}

/* mark/release in a loop: 6 x 1 KiB in a 2 KiB arena fits only with release;
 * nested marks. rec: [0..5] tmp address - first, [6] free after the loop,
 * [7] inner address - outer, [8] free after nested, [9] sums ok */
TILE_KERNEL_SMEM(reuse, 16, 2048, long *rec, float *sums) {
    tile_shared(float, keep, 4); /* 16 bytes kept all along */
    tile_full(keep, 9.0f);
    char *first = 0;
    for (int it = 0; it < 6; ++it) {
        int m = tile_smem_mark();
        tile_shared(float, tmp, 256);
        if (it == 0) first = (char *)tmp.v;
        rec[it] = (long)((char *)tmp.v - first);
        tile_arange(tmp, it, 1);
        tile_sum(s, tmp);
        sums[it] = tile_value(s);
        tile_smem_release(m);
    }
    rec[6] = tile_smem_free();
    int outer = tile_smem_mark();
    tile_shared(double, o, 8);
    int inner = tile_smem_mark();
    tile_shared(double, in1, 8);
    tile_smem_release(inner);
    tile_shared(double, in2, 8);
    rec[7] = (long)((char *)in2.v - (char *)in1.v);
    tile_smem_release(outer);
    rec[8] = tile_smem_free();
    tile_shared(double, o2, 8);
    rec[9] = (o2.v == o.v) && tile_get(keep, 0) == 9.0f && tile_get(keep, 3) == 9.0f;
}

static void test_mark_release(void **state) {
    (void)state;
    long rec[10];
    float sums[6];
    for (int i = 0; i < 10; ++i) rec[i] = -99;
    assert_tile_ok(tile_launch(TILE_CPU, reuse, tile_grid1(2), 16, rec, sums));
    for (int it = 0; it < 6; ++it) {
        assert_int_equal(rec[it], 0);
        double ref = 0;
        for (int i = 0; i < 256; ++i) ref += it + i;
        assert_close(sums[it], ref, TU_TOL_F32);
    }
    assert_int_equal(rec[6], 2048 - 16);
    assert_int_equal(rec[7], 0);
    assert_int_equal(rec[8], 2048 - 16);
    assert_int_equal(rec[9], 1);
}

/* Shared tiles of 1..4 dims carved from one arena, filled through different
 * paths, read back with tile_get (any index order). */
TILE_KERNEL_SMEM(shared_nd, 32,
                 TILE_SMEM_BYTES(int32_t, 9) + TILE_SMEM_BYTES(int32_t, 3, 4) + TILE_SMEM_BYTES(int32_t, 2, 3, 4) +
                     TILE_SMEM_BYTES(int32_t, 2, 2, 3, 2),
                 int32_t *out) {
    tile_shared(int32_t, s1, 9);
    tile_shared(int32_t, s2, 3, 4);
    tile_shared(int32_t, s3, 2, 3, 4);
    tile_shared(int32_t, s4, 2, 2, 3, 2);
    tile_arange(s1, 5, 3);
    tile_arange(s2, -4, 2);
    tile_arange(s3, 100, -1);
    tile_arange(s4, 0, 7);
    int n = 0;
    for (int i = 0; i < 9; ++i) out[n++] = tile_get(s1, i);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) out[n++] = tile_get(s2, i, j);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 4; ++k) out[n++] = tile_get(s3, i, j, k);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 3; ++k)
                for (int l = 0; l < 2; ++l) out[n++] = tile_get(s4, i, j, k, l);
    out[n] = tile_smem_free();
}

static void test_shared_nd(void **state) {
    (void)state;
    int32_t out[9 + 12 + 24 + 24 + 1];
    memset(out, 0, sizeof(out));
    assert_tile_ok(tile_launch(TILE_CPU, shared_nd, tile_grid1(1), 32, out));
    int n = 0;
    for (int i = 0; i < 9; ++i) assert_int_equal(out[n++], 5 + 3 * i);
    for (int i = 0; i < 12; ++i) assert_int_equal(out[n++], -4 + 2 * i);
    for (int i = 0; i < 24; ++i) assert_int_equal(out[n++], 100 - i);
    for (int i = 0; i < 24; ++i) assert_int_equal(out[n++], 7 * i);
    assert_int_equal(out[n], 0); /* the budget is used exactly; last tile 96 bytes, no rounding */
}

/* tile_smem_alloc: raw bytes at runtime sizes, bump-allocated like tiles
 * (16-byte aligned, each after the last), writable; past the arena the block
 * stops at the allocation (rec[5] stays unset) and the launch reports
 * TILE_ERR_SMEM_OVERFLOW. rec: [0] second - first, [1] third - first, [2]
 * free after all, [3] aligned, [4] bytes read back, [5] reached the end */
TILE_KERNEL_SMEM(raw_bytes, 32, 256, long *rec, int n1, int n2, int n3) {
    unsigned char *p1 = (unsigned char *)tile_smem_alloc(n1);
    unsigned char *p2 = (unsigned char *)tile_smem_alloc(n2);
    unsigned char *p3 = (unsigned char *)tile_smem_alloc((size_t)n3);
    rec[0] = (long)(p2 - p1);
    rec[1] = (long)(p3 - p1);
    rec[2] = tile_smem_free();
    rec[3] = ((uintptr_t)p1 | (uintptr_t)p2 | (uintptr_t)p3) % 16 == 0;
    for (int i = 0; i < n1; ++i) p1[i] = (unsigned char)(1 + i);
    for (int i = 0; i < n2; ++i) p2[i] = (unsigned char)(101 + i);
    for (int i = 0; i < n3; ++i) p3[i] = (unsigned char)(201 + i % 50);
    long ok = 1;
    for (int i = 0; i < n1; ++i) ok &= p1[i] == (unsigned char)(1 + i);
    for (int i = 0; i < n2; ++i) ok &= p2[i] == (unsigned char)(101 + i);
    for (int i = 0; i < n3; ++i) ok &= p3[i] == (unsigned char)(201 + i % 50);
    rec[4] = ok;
    rec[5] = 1;
}

static void test_smem_alloc_raw(void **state) {
    (void)state;
    long rec[6];
    for (int i = 0; i < 6; ++i) rec[i] = -99;
    assert_tile_ok(tile_launch(TILE_CPU, raw_bytes, tile_grid1(1), 32, rec, 5, 40, 100));
    assert_int_equal(rec[0], 16);        /* 5 bytes, then the next multiple of 16 */
    assert_int_equal(rec[1], 16 + 48);   /* 40 bytes: 48 */
    assert_int_equal(rec[2], 256 - 164); /* 64 + 100 used */
    assert_int_equal(rec[3], 1);
    assert_int_equal(rec[4], 1);
    assert_int_equal(rec[5], 1);
    /* 16 + 48 + 193 > 256: the third allocation stops the block */
    for (int i = 0; i < 6; ++i) rec[i] = -99;
    assert_int_equal(tile_launch(TILE_CPU, raw_bytes, tile_grid1(1), 32, rec, 5, 40, 193), TILE_ERR_SMEM_OVERFLOW);
    assert_int_equal(rec[5], -99);
    assert_int_equal(rec[0], -99);
    /* 192 fits exactly: the arena used to its last byte */
    assert_tile_ok(tile_launch(TILE_CPU, raw_bytes, tile_grid1(1), 32, rec, 5, 40, 192));
    assert_int_equal(rec[2], 0);
    assert_int_equal(rec[5], 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_and_free),
        cmocka_unit_test(test_smem_bytes_macro),
        cmocka_unit_test(test_mark_release),
        cmocka_unit_test(test_shared_nd),
        cmocka_unit_test(test_smem_alloc_raw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
