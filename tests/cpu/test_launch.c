/* CPU launch path: coordinates of tiled and SIMT launches over 1..4 dim grids,
 * launch errors, error strings, dynamic arena bytes, arena overflow.
 *
 * The Makefile builds this file twice: as is, and with -DTILE_DEBUG, where
 * TILE_ASSERT is cmocka's mock_assert (test_util.h) and a broken promise
 * (arena overflow, a view out of range, ...) must trip it. */
#include "test_util.h"
#include <tile/warp.h> /* until tile.h includes it */

/* ---- coordinates -------------------------------------------------------- */

/* One record per block (tiled) or thread (SIMT), at the block's linear index. */
enum {
    R_TID = 0,       /* tile_tid(0..4): 5 ints */
    R_BLOCK = 5,     /* tile_block(0..3): 4 ints */
    R_GDIM = 9,      /* tile_grid_dim(0..4): 5 ints */
    R_THREAD = 14,   /* tile_thread() */
    R_BDIM = 15,     /* TILE_BLOCK_DIM */
    R_VISITS = 16,   /* times this record was written */
    R_ORDER = 17,    /* value of the call counter when written */
    REC = 18
};

/* nd: number of logical dims of the launch (grid dims, + 1 for tiled) */
#define DEF_COORD_KERNEL(name, B)                                                  \
    TILE_KERNEL(name, B, int nd, int ngrid, int *out, int *counter) {              \
        int *r = out + tile_block_linear() * REC;                                  \
        for (int k = 0; k < nd; ++k) r[R_TID + k] = tile_tid(k);                   \
        for (int k = 0; k < ngrid; ++k) r[R_BLOCK + k] = tile_block(k);            \
        for (int k = 0; k < nd; ++k) r[R_GDIM + k] = tile_grid_dim(k);             \
        r[R_THREAD] = tile_thread();                                               \
        r[R_BDIM] = TILE_BLOCK_DIM;                                                \
        r[R_VISITS] += 1;                                                          \
        r[R_ORDER] = (*counter)++;                                                 \
    }
DEF_COORD_KERNEL(coord_b1, 1)
DEF_COORD_KERNEL(coord_b32, 32)
DEF_COORD_KERNEL(coord_b64, 64)
DEF_COORD_KERNEL(coord_b256, 256)

static tile_grid make_grid(int nd, const int64_t *d) {
    switch (nd) {
    case 1: return tile_grid1(d[0]);
    case 2: return tile_grid2(d[0], d[1]);
    case 3: return tile_grid3(d[0], d[1], d[2]);
    default: return tile_grid4(d[0], d[1], d[2], d[3]);
    }
}

/* Expected records: linear index b decomposed row-major over the grid dims. */
static void check_records(const int *out, int ngrid, const int64_t *d, int tiled) {
    int64_t n = 1;
    for (int k = 0; k < ngrid; ++k) n *= d[k];
    int nd = ngrid + (tiled ? 1 : 0);
    for (int64_t b = 0; b < n; ++b) {
        const int *r = out + b * REC;
        int64_t rem = b;
        int coord[4] = {0, 0, 0, 0};
        for (int k = ngrid - 1; k >= 0; --k) {
            coord[k] = (int)(rem % d[k]);
            rem /= d[k];
        }
        for (int k = 0; k < ngrid; ++k) {
            assert_int_equal(r[R_TID + k], coord[k]);
            /* tile_block: the tile's coordinate (tiled launches only) */
            if (tiled) assert_int_equal(r[R_BLOCK + k], coord[k]);
            assert_int_equal(r[R_GDIM + k], (int)d[k]);
        }
        if (tiled) {
            /* the thread dim of a tiled launch: extent block_dim (1), index 0 */
            assert_int_equal(r[R_TID + ngrid], 0);
            assert_int_equal(r[R_GDIM + ngrid], 1);
        }
        for (int k = nd; k < 5; ++k) assert_int_equal(r[R_TID + k], -7); /* untouched */
        assert_int_equal(r[R_THREAD], 0);
        assert_int_equal(r[R_BDIM], 1);
        assert_int_equal(r[R_VISITS], 1);
        /* blocks run one after another: the call counter values are a permutation */
        assert_true(r[R_ORDER] >= 0 && r[R_ORDER] < (int)n);
        for (int64_t c = 0; c < b; ++c) assert_int_not_equal(out[c * REC + R_ORDER], r[R_ORDER]);
    }
    /* nothing written past the last record */
    for (int i = 0; i < REC; ++i) assert_int_equal(out[n * REC + i], -7);
}

static int *fresh_records(int64_t n) {
    int *out = (int *)malloc(sizeof(int) * (size_t)(n + 1) * REC);
    assert_non_null(out);
    for (int64_t i = 0; i < (n + 1) * REC; ++i) out[i] = -7;
    for (int64_t b = 0; b < n; ++b) out[b * REC + R_VISITS] = 0;
    return out;
}

static const int64_t grids[4][4] = {{7, 1, 1, 1}, {3, 4, 1, 1}, {2, 3, 4, 1}, {2, 1, 3, 2}};

static void run_coords(int which_kernel, int tiled) {
    for (int g = 0; g < 4; ++g) {
        int ngrid = g + 1;
        const int64_t *d = grids[g];
        int64_t n = 1;
        for (int k = 0; k < ngrid; ++k) n *= d[k];
        int *out = fresh_records(n);
        int counter = 0, err = -1;
        int nd = ngrid + (tiled ? 1 : 0);
        tile_grid gr = make_grid(ngrid, d);
        switch (which_kernel) {
        case 1:
            err = tiled ? tile_launch(TILE_CPU, coord_b1, gr, 1, nd, ngrid, out, &counter)
                        : tile_launch_simt(TILE_CPU, coord_b1, gr, 1, nd, ngrid, out, &counter);
            break;
        case 32:
            err = tiled ? tile_launch(TILE_CPU, coord_b32, gr, 32, nd, ngrid, out, &counter)
                        : tile_launch_simt(TILE_CPU, coord_b32, gr, 32, nd, ngrid, out, &counter);
            break;
        case 64:
            err = tiled ? tile_launch(TILE_CPU, coord_b64, gr, 64, nd, ngrid, out, &counter)
                        : tile_launch_simt(TILE_CPU, coord_b64, gr, 64, nd, ngrid, out, &counter);
            break;
        default:
            err = tiled ? tile_launch(TILE_CPU, coord_b256, gr, 256, nd, ngrid, out, &counter)
                        : tile_launch_simt(TILE_CPU, coord_b256, gr, 256, nd, ngrid, out, &counter);
            break;
        }
        /* SIMT counts that are not multiples of the block size run too
         * (Warp): on the CPU every one of the n threads is a block */
        assert_tile_ok(err);
        assert_int_equal(counter, (int)n);
        check_records(out, ngrid, d, tiled);
        free(out);
    }
}

static void test_tiled_coords_b1(void **state) { (void)state; run_coords(1, 1); }
static void test_tiled_coords_b32(void **state) { (void)state; run_coords(32, 1); }
static void test_tiled_coords_b64(void **state) { (void)state; run_coords(64, 1); }
static void test_tiled_coords_b256(void **state) { (void)state; run_coords(256, 1); }
static void test_simt_coords_b1(void **state) { (void)state; run_coords(1, 0); }
static void test_simt_coords_b32(void **state) { (void)state; run_coords(32, 0); }

/* SIMT launches whose thread counts are multiples of the block size. */
static void test_simt_coords_multiples(void **state) {
    (void)state;
    const int64_t shapes[4][4] = {{96, 1, 1, 1}, {3, 64, 1, 1}, {2, 4, 8, 1}, {2, 2, 2, 8}};
    for (int g = 0; g < 4; ++g) {
        int ngrid = g + 1;
        int64_t n = 1;
        for (int k = 0; k < ngrid; ++k) n *= shapes[g][k];
        int *out = fresh_records(n);
        int counter = 0;
        assert_tile_ok(tile_launch_simt(TILE_CPU, coord_b32, make_grid(ngrid, shapes[g]), 32, ngrid, ngrid, out,
                                        &counter));
        assert_int_equal(counter, (int)n);
        check_records(out, ngrid, shapes[g], 0);
        free(out);
    }
}

/* ---- launch errors ------------------------------------------------------ */

TILE_KERNEL(touch32, 32, int *out) { out[tile_block(0)] += 1; }
TILE_KERNEL(touch1, 1, int *out) { out[tile_block(0)] += 1; }

#define UNTOUCHED(buf, n)                                                          \
    do {                                                                           \
        for (int i_ = 0; i_ < (n); ++i_) assert_int_equal((buf)[i_], 100 + i_);   \
    } while (0)
#define RESET(buf, n)                                                              \
    do {                                                                           \
        for (int i_ = 0; i_ < (n); ++i_) (buf)[i_] = 100 + i_;                     \
    } while (0)

static void test_block_dim_mismatch(void **state) {
    (void)state;
    int out[8];
    const int wrong[] = {1, 16, 31, 33, 64, 0, -32};
    for (size_t w = 0; w < sizeof(wrong) / sizeof(wrong[0]); ++w) {
        RESET(out, 8);
        assert_int_equal(tile_launch(TILE_CPU, touch32, tile_grid1(4), wrong[w], out), TILE_ERR_BLOCK_DIM);
        UNTOUCHED(out, 8);
        assert_int_equal(tile_launch_simt(TILE_CPU, touch32, tile_grid1(64), wrong[w], out), TILE_ERR_BLOCK_DIM);
        UNTOUCHED(out, 8);
    }
    RESET(out, 8);
    assert_int_equal(tile_launch(TILE_CPU, touch1, tile_grid1(4), 2, out), TILE_ERR_BLOCK_DIM);
    assert_int_equal(tile_launch(TILE_CPU, touch1, tile_grid1(4), 32, out), TILE_ERR_BLOCK_DIM);
    UNTOUCHED(out, 8);
    /* the right block size runs it: once per block */
    assert_tile_ok(tile_launch(TILE_CPU, touch32, tile_grid1(4), 32, out));
    for (int i = 0; i < 8; ++i) assert_int_equal(out[i], 100 + i + (i < 4));
}

static void test_grid_errors(void **state) {
    (void)state;
    int out[8];
    tile_grid bad[12];
    int nb = 0;
    bad[nb++] = tile_grid1(0);
    bad[nb++] = tile_grid1(-3);
    bad[nb++] = tile_grid2(2, 0);
    bad[nb++] = tile_grid2(-1, 4);
    bad[nb++] = tile_grid3(1, 1, -1);
    bad[nb++] = tile_grid4(1, 1, 1, 0);
    bad[nb++] = tile_grid1((int64_t)INT32_MAX + 1); /* one dim too large */
    bad[nb++] = tile_grid4((int64_t)1 << 20, (int64_t)1 << 20, 2, 1); /* too many blocks */
    {
        tile_grid g0 = {0, {1, 1, 1, 1}};
        tile_grid g5 = {5, {1, 1, 1, 1}};
        tile_grid gneg = {-1, {1, 1, 1, 1}};
        bad[nb++] = g0;
        bad[nb++] = g5;
        bad[nb++] = gneg;
    }
    for (int i = 0; i < nb; ++i) {
        RESET(out, 8);
        assert_int_equal(tile_launch(TILE_CPU, touch32, bad[i], 32, out), TILE_ERR_GRID);
        UNTOUCHED(out, 8);
        assert_int_equal(tile_launch_simt(TILE_CPU, touch32, bad[i], 32, out), TILE_ERR_GRID);
        UNTOUCHED(out, 8);
    }
    /* a SIMT thread count that is not a multiple of the block size is no
     * error: 33 threads of block 32 run 33 one-thread blocks on the CPU */
    RESET(out, 8);
    {
        static int many[40];
        assert_tile_ok(tile_launch_simt(TILE_CPU, touch32, tile_grid1(33), 32, many));
        for (int i = 0; i < 40; ++i) assert_int_equal(many[i], i < 33);
    }
    UNTOUCHED(out, 8);
    /* block size is checked first */
    assert_int_equal(tile_launch(TILE_CPU, touch32, tile_grid1(0), 16, out), TILE_ERR_BLOCK_DIM);
}

static void test_gpu_without_cuda(void **state) {
    (void)state;
    int out[8];
    RESET(out, 8);
    assert_int_equal(tile_launch(TILE_GPU(0), touch32, tile_grid1(4), 32, out), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_launch_simt(TILE_GPU(0), touch32, tile_grid1(64), 32, out), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_launch(TILE_GPU(1), touch1, tile_grid2(2, 2), 1, out), TILE_ERR_NO_CUDA);
    UNTOUCHED(out, 8);
    assert_int_equal(tile_synchronize(TILE_GPU(0)), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_synchronize(TILE_CPU), TILE_OK);
    assert_int_equal(tile_gpu_count(), 0);
    assert_null(tile_alloc(TILE_GPU(0), 64));
    assert_int_equal(tile_copy_to(TILE_GPU(0), out, out + 4, 4 * sizeof(int)), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_copy_from(TILE_GPU(0), out, out + 4, 4 * sizeof(int)), TILE_ERR_NO_CUDA);
    UNTOUCHED(out, 8);
    assert_int_equal(tile_last_cuda_error(), 0);
}

static void test_host_memory_cpu(void **state) {
    (void)state;
    tile_exec ex = tile_exec_stream(TILE_CPU, (void *)0x1234); /* the CPU ignores streams */
    assert_int_equal(ex.device, -1);
    assert_ptr_equal(ex.stream, (void *)0x1234);
    int host[16], back[16];
    for (int i = 0; i < 16; ++i) host[i] = i * i - 7, back[i] = 0;
    int *d = (int *)tile_alloc(ex, sizeof(host));
    assert_non_null(d);
    assert_tile_ok(tile_copy_to(ex, d, host, sizeof(host)));
    assert_tile_ok(tile_launch(ex, touch32, tile_grid1(16), 32, d));
    assert_tile_ok(tile_synchronize(ex));
    assert_tile_ok(tile_copy_from(ex, back, d, sizeof(back)));
    for (int i = 0; i < 16; ++i) assert_int_equal(back[i], i * i - 7 + 1);
    tile_free(ex, d);
    void *z = tile_alloc(ex, 0); /* zero bytes still gives a pointer to free */
    assert_non_null(z);
    tile_free(ex, z);
}

static void test_error_strings(void **state) {
    (void)state;
    const int codes[] = {TILE_OK,          TILE_ERR_BLOCK_DIM, TILE_ERR_GRID,          TILE_ERR_DEVICE,
                         TILE_ERR_NO_CUDA, TILE_ERR_SMEM,      TILE_ERR_SMEM_OVERFLOW, TILE_ERR_NOMEM,
                         TILE_ERR_CUDA,    TILE_ERR_ARG,       TILE_ERR_ALIGN,         TILE_ERR_CUBLAS,
                         TILE_ERR_CUFFT,   TILE_ERR_CUSOLVER,  TILE_ERR_NOT_SPD,       TILE_ERR_DISABLED,
                         16,               -1,                 1000};
    const int n = (int)(sizeof(codes) / sizeof(codes[0]));
    const int known = 16;
    /* the codes are 0..15 */
    for (int i = 0; i < known; ++i) assert_int_equal(codes[i], i);
    for (int i = 0; i < n; ++i) {
        const char *s = tile_error_string(codes[i]);
        assert_non_null(s);
        assert_true(strlen(s) > 0);
        /* distinct from every other code's text (unknown codes share one) */
        for (int j = 0; j < i; ++j)
            if (i < known || j < known) assert_string_not_equal(s, tile_error_string(codes[j]));
    }
    /* every unknown code gives the same "unknown" text */
    assert_string_equal(tile_error_string(16), tile_error_string(-1));
    assert_string_equal(tile_error_string(16), tile_error_string(1000));
}

/* ---- the arena at launch: declared and dynamic bytes -------------------- */

/* Records tile_smem_free() at entry, then fills a 64-float shared tile with
 * arange and stores it. */
TILE_KERNEL(dyn_arena, 16, int *free_at_entry, float *out) {
    int b = tile_block(0);
    free_at_entry[b] = tile_smem_free();
    tile_shared(float, s, 64);
    tile_arange(s, b, 0.5f);
    tile_store(tile_array1(out + 64 * b, 64), s, 0);
}
TILE_KERNEL_SMEM(mixed_arena, 16, 128, int *free_at_entry, float *out) {
    int b = tile_block(0);
    free_at_entry[b] = tile_smem_free();
    tile_shared(float, s, 64);
    tile_arange(s, b, 0.5f);
    tile_store(tile_array1(out + 64 * b, 64), s, 0);
}

static void check_arange_blocks(const float *out, int nb) {
    for (int b = 0; b < nb; ++b)
        for (int i = 0; i < 64; ++i) assert_close(out[64 * b + i], (double)b + 0.5 * i, TU_TOL_F32);
}

static void test_exec_smem_dynamic(void **state) {
    (void)state;
    int fr[3];
    static float out[3 * 64];
    assert_tile_ok(tile_launch(tile_exec_smem(TILE_CPU, 256), dyn_arena, tile_grid1(3), 16, fr, out));
    for (int b = 0; b < 3; ++b) assert_int_equal(fr[b], 256);
    check_arange_blocks(out, 3);
    /* more dynamic bytes than needed */
    memset(out, 0, sizeof(out));
    assert_tile_ok(tile_launch(tile_exec_smem(TILE_CPU, 4096), dyn_arena, tile_grid1(3), 16, fr, out));
    for (int b = 0; b < 3; ++b) assert_int_equal(fr[b], 4096);
    check_arange_blocks(out, 3);
    /* declared + dynamic bytes add up */
    memset(out, 0, sizeof(out));
    assert_tile_ok(tile_launch(tile_exec_smem(TILE_CPU, 128), mixed_arena, tile_grid1(3), 16, fr, out));
    for (int b = 0; b < 3; ++b) assert_int_equal(fr[b], 256);
    check_arange_blocks(out, 3);
}

/* ---- arena overflow ------------------------------------------------------ */

/* A tile larger than the whole arena: the block stops at the allocation
 * (smem.h), the launch reports the overflow. */
TILE_KERNEL_SMEM(ovf_big, 8, 256, uintptr_t *addr) {
    tile_shared(float, a, 16); /* 64 bytes: fits */
    addr[0] = (uintptr_t)a.v;
    tile_shared(float, big, 128); /* 512 bytes > 256 */
    addr[1] = (uintptr_t)big.v;
    tile_full(big, 3.0f);
    tile_zeros(a);
}
/* Allocations that fit alone but not together: 3 x 100 bytes (112 rounded). */
TILE_KERNEL_SMEM(ovf_sum, 8, 256, uintptr_t *addr, int *done) {
    tile_shared(uint8_t, a, 100);
    tile_shared(uint8_t, b, 100);
    addr[0] = (uintptr_t)a.v;
    addr[1] = (uintptr_t)b.v;
    tile_shared(uint8_t, c, 100); /* 224 + 100 > 256 */
    addr[2] = (uintptr_t)c.v;
    tile_zeros(c); /* not reached: the block stopped at c's allocation */
    *done += 1;
}
/* Only block 2 of 4 overflows; every block runs. */
TILE_KERNEL_SMEM(ovf_one_block, 8, 64, int *ran) {
    ran[tile_block(0)] += 1;
    if (tile_block(0) == 2) {
        tile_shared(double, d, 9); /* 72 > 64 */
        (void)d;
    }
}
/* No arena at all (a kernel that needs dynamic bytes, launched without). */
TILE_KERNEL(ovf_none, 8, int *ran) {
    ran[0] += 1;
    tile_shared(float, s, 4);
    tile_ones(s);
}

static int launch_ovf_big(uintptr_t *addr) { return tile_launch(TILE_CPU, ovf_big, tile_grid1(1), 8, addr); }
static int launch_ovf_sum(uintptr_t *addr, int *done) {
    return tile_launch(TILE_CPU, ovf_sum, tile_grid1(2), 8, addr, done);
}
static int launch_ovf_one_block(int *ran) { return tile_launch(TILE_CPU, ovf_one_block, tile_grid1(4), 8, ran); }
static int launch_ovf_none(int *ran) { return tile_launch(TILE_CPU, ovf_none, tile_grid1(1), 8, ran); }

#ifdef TILE_DEBUG
/* Debug build: the broken promise trips TILE_ASSERT. */
static void test_arena_overflow_asserts(void **state) {
    (void)state;
    /* static: not clobbered by the longjmp out of mock_assert */
    static uintptr_t addr[3] = {0, 0, 0};
    static int done = 0, ran[4] = {0, 0, 0, 0};
    expect_assert_failure(launch_ovf_big(addr));
    assert_true(addr[0] != 0 && addr[1] == 0); /* stopped at the overflowing allocation */
    expect_assert_failure(launch_ovf_sum(addr, &done));
    assert_int_equal(done, 0);
    expect_assert_failure(launch_ovf_one_block(ran));
    assert_int_equal(ran[0] + ran[1] + ran[2], 3); /* blocks 0..2 ran, block 2 stopped */
    assert_int_equal(ran[3], 0);
    ran[0] = 0;
    expect_assert_failure(launch_ovf_none(ran));
    assert_int_equal(ran[0], 1);
    /* a launch that fits still works afterwards */
    int fr[1];
    static float out[64];
    assert_tile_ok(tile_launch(tile_exec_smem(TILE_CPU, 256), dyn_arena, tile_grid1(1), 16, fr, out));
    check_arange_blocks(out, 1);
}

/* tile_view out of the source's range */
TILE_KERNEL_SMEM(view_oob, 4, 1024, int which, int *reached) {
    tile_shared(float, s, 8, 8);
    tile_zeros(s);
    reached[0] = 1;
    if (which == 0) {
        tile_view(q, s, (4, 4), (5, 0)); /* rows 5..8 of 8 */
        (void)q;
    } else if (which == 1) {
        tile_view(q, s, (2, 9), (0, 0)); /* 9 columns of 8 */
        (void)q;
    } else if (which == 2) {
        tile_view(q, s, (2, 2), (-1, 3)); /* negative offset */
        (void)q;
    } else {
        tile_view(q, s, (4, 4), (4, 4)); /* in range: no assert */
        (void)q;
    }
    reached[1] = 1;
}
static int launch_view_oob(int which, int *reached) {
    return tile_launch(TILE_CPU, view_oob, tile_grid1(1), 4, which, reached);
}

static void test_view_out_of_range_asserts(void **state) {
    (void)state;
    static int which, reached_oob[2];
    for (which = 0; which < 3; ++which) {
        reached_oob[0] = reached_oob[1] = 0;
        expect_assert_failure(launch_view_oob(which, reached_oob));
        assert_int_equal(reached_oob[0], 1);
        assert_int_equal(reached_oob[1], 0);
    }
    int reached[2] = {0, 0};
    assert_tile_ok(launch_view_oob(3, reached));
    assert_int_equal(reached[1], 1);
}

/* tile_load / tile_store with an array of another number of dims */
TILE_KERNEL(load_ndim, 4, const float *a, int store) {
    tile_reg(float, t, 4, 4);
    if (store) {
        tile_zeros(t);
        tile_store(tile_array1((float *)a, 16), t, 0);
    } else {
        tile_load(t, tile_array1(a, 16), 0);
    }
}
static int launch_load_ndim(const float *a, int store) {
    return tile_launch(TILE_CPU, load_ndim, tile_grid1(1), 4, a, store);
}
/* (tile_broadcast between incompatible shapes is a compile-time error now:
 * tests/compile_fail/broadcast_shapes.c) */

static void test_other_promises_assert(void **state) {
    (void)state;
    static float a[16];
    expect_assert_failure(launch_load_ndim(a, 0));
    expect_assert_failure(launch_load_ndim(a, 1));
}

#else
/* Release build: the same overflows make tile_launch return
 * TILE_ERR_SMEM_OVERFLOW; the block stops at the overflowing allocation. */
static void test_arena_overflow_error(void **state) {
    (void)state;
    uintptr_t addr[3] = {0, 0, 0};
    assert_int_equal(launch_ovf_big(addr), TILE_ERR_SMEM_OVERFLOW);
    assert_true(addr[0] != 0 && addr[1] == 0); /* stopped before big was used */

    int done = 0;
    assert_int_equal(launch_ovf_sum(addr, &done), TILE_ERR_SMEM_OVERFLOW);
    assert_int_equal(done, 0); /* both blocks stopped at c; the launch reports */
    assert_true(addr[1] - addr[0] == 112);
    assert_true(addr[2] == 0); /* c was never handed out */

    int ran[4] = {0, 0, 0, 0};
    assert_int_equal(launch_ovf_one_block(ran), TILE_ERR_SMEM_OVERFLOW);
    for (int b = 0; b < 4; ++b) assert_int_equal(ran[b], 1);

    ran[0] = 0;
    assert_int_equal(launch_ovf_none(ran), TILE_ERR_SMEM_OVERFLOW);
    assert_int_equal(ran[0], 1);

    /* dynamic bytes make the same kernels fit */
    assert_tile_ok(tile_launch(tile_exec_smem(TILE_CPU, 512), ovf_big, tile_grid1(1), 8, addr));
    assert_true(addr[1] - addr[0] == 64);
    assert_tile_ok(tile_launch(tile_exec_smem(TILE_CPU, 16), ovf_none, tile_grid1(1), 8, ran));

    /* the error does not stick to the next launch */
    int fr[1];
    static float out[64];
    assert_tile_ok(tile_launch(tile_exec_smem(TILE_CPU, 256), dyn_arena, tile_grid1(1), 16, fr, out));
    check_arange_blocks(out, 1);
    /* without the dynamic bytes dyn_arena overflows too */
    assert_int_equal(tile_launch(TILE_CPU, dyn_arena, tile_grid1(1), 16, fr, out), TILE_ERR_SMEM_OVERFLOW);
}
#endif

/* ---- the persistent schedule on the CPU: the same launches --------------- */

/* Every launch of run_coords again, through the persistent macros, with the
 * default count and with an explicit one, and with a residency cap
 * (tile_exec_max_resident; the CPU ignores all three). */
static void run_coords_persistent_cap(int tiled, int per_sm, int cap);
static void run_coords_persistent(int tiled, int per_sm) { run_coords_persistent_cap(tiled, per_sm, 0); }
static void run_coords_persistent_cap(int tiled, int per_sm, int cap) {
    for (int g = 0; g < 4; ++g) {
        int ngrid = g + 1;
        const int64_t *d = grids[g];
        int64_t n = 1;
        for (int k = 0; k < ngrid; ++k) n *= d[k];
        int *out = fresh_records(n);
        int counter = 0;
        int nd = ngrid + (tiled ? 1 : 0);
        tile_exec ex = tile_exec_max_resident(per_sm < 0 ? TILE_CPU : tile_exec_persistent(TILE_CPU, per_sm), cap);
        int err = tiled ? tile_launch_persistent(ex, coord_b32, make_grid(ngrid, d), 32, nd, ngrid, out, &counter)
                        : tile_launch_simt_persistent(ex, coord_b32, make_grid(ngrid, d), 32, nd, ngrid, out, &counter);
        assert_tile_ok(err);
        assert_int_equal(counter, (int)n);
        check_records(out, ngrid, d, tiled);
        free(out);
    }
}
/* tile_exec_max_resident on the CPU: the same records under a cap, through
 * both schedules; a negative cap is TILE_ERR_ARG and runs nothing. */
static void test_max_resident(void **state) {
    (void)state;
    run_coords_persistent_cap(1, -1, 2);
    run_coords_persistent_cap(0, 3, 1);
    const int64_t *d = grids[1];
    int *out = fresh_records(d[0] * d[1]);
    int counter = 0;
    assert_tile_ok(tile_launch(tile_exec_max_resident(TILE_CPU, 4), coord_b32, make_grid(2, d), 32, 3, 2, out, &counter));
    assert_int_equal(counter, (int)(d[0] * d[1]));
    check_records(out, 2, d, 1);
    counter = 0;
    assert_int_equal(tile_launch(tile_exec_max_resident(TILE_CPU, -1), coord_b32, make_grid(2, d), 32, 3, 2, out, &counter),
                     TILE_ERR_ARG);
    assert_int_equal(counter, 0);
    assert_int_equal(tile_exec_max_resident(TILE_CPU, 0).max_resident, 0);
    assert_int_equal(tile_exec_max_resident(tile_exec_max_resident(TILE_GPU(0), 6), 0).max_resident, 0);
    free(out);
}
static void test_persistent_coords(void **state) {
    (void)state;
    run_coords_persistent(1, -1);
    run_coords_persistent(1, 0);
    run_coords_persistent(1, 3);
    run_coords_persistent(0, -1);
    run_coords_persistent(0, 2);
}

/* Bodies that return early: odd blocks stop after the first write; block 2
 * overflows its arena. The persistent launch gives the default's results. */
TILE_KERNEL_SMEM(early_ret, 8, 64, int *a, int *b) {
    const int i = tile_block(0);
    a[i] += 1;
    if (i % 2) return;
    if (i == 2) {
        tile_shared(double, d, 9); /* 72 > 64 bytes: the block stops here */
        (void)d;
    }
    b[i] += 1;
}
static void test_persistent_early_return(void **state) {
    (void)state;
    int a[9], b[9], a2[9], b2[9];
    memset(a, 0, sizeof a), memset(b, 0, sizeof b), memset(a2, 0, sizeof a2), memset(b2, 0, sizeof b2);
#ifdef TILE_DEBUG
    /* the overflow trips TILE_ASSERT; run the blocks without it */
    assert_tile_ok(tile_launch(tile_exec_smem(TILE_CPU, 64), early_ret, tile_grid1(9), 8, a, b));
    assert_tile_ok(tile_launch_persistent(tile_exec_smem(TILE_CPU, 64), early_ret, tile_grid1(9), 8, a2, b2));
    for (int i = 0; i < 9; ++i) assert_int_equal(b[i], i % 2 == 0);
#else
    assert_int_equal(tile_launch(TILE_CPU, early_ret, tile_grid1(9), 8, a, b), TILE_ERR_SMEM_OVERFLOW);
    assert_int_equal(tile_launch_persistent(tile_exec_persistent(TILE_CPU, 1), early_ret, tile_grid1(9), 8, a2, b2),
                     TILE_ERR_SMEM_OVERFLOW);
    for (int i = 0; i < 9; ++i) assert_int_equal(b[i], i % 2 == 0 && i != 2);
#endif
    for (int i = 0; i < 9; ++i) {
        assert_int_equal(a[i], 1);
        assert_int_equal(a2[i], a[i]);
        assert_int_equal(b2[i], b[i]);
    }
}

static void test_persistent_options(void **state) {
    (void)state;
    int out[8];
    RESET(out, 8);
    assert_int_equal(tile_exec_persistent(TILE_CPU, 0).persistent, TILE_PERSISTENT_FIT);
    assert_int_equal(tile_exec_persistent(TILE_GPU(0), 5).persistent, 5);
    assert_int_equal(tile_exec_persistent_off(tile_exec_persistent(TILE_CPU, 5)).persistent, 0);
    assert_int_equal(TILE_CPU.persistent, 0);
    /* a negative count, and the count on a default-schedule launch: refused */
    assert_int_equal(tile_launch_persistent(tile_exec_persistent(TILE_CPU, -1), touch32, tile_grid1(4), 32, out),
                     TILE_ERR_ARG);
    assert_int_equal(tile_launch(tile_exec_persistent(TILE_CPU, 2), touch32, tile_grid1(4), 32, out), TILE_ERR_ARG);
    assert_int_equal(tile_launch_simt(tile_exec_persistent(TILE_CPU, 0), touch32, tile_grid1(4), 32, out),
                     TILE_ERR_ARG);
    UNTOUCHED(out, 8);
    /* the other launch errors are the same */
    assert_int_equal(tile_launch_persistent(TILE_CPU, touch32, tile_grid1(4), 16, out), TILE_ERR_BLOCK_DIM);
    assert_int_equal(tile_launch_persistent(TILE_CPU, touch32, tile_grid1(0), 32, out), TILE_ERR_GRID);
    assert_int_equal(tile_launch_persistent(TILE_GPU(0), touch32, tile_grid1(4), 32, out), TILE_ERR_NO_CUDA);
    UNTOUCHED(out, 8);
    assert_tile_ok(tile_launch_persistent(tile_exec_persistent(TILE_CPU, 2), touch32, tile_grid1(4), 32, out));
    for (int i = 0; i < 8; ++i) assert_int_equal(out[i], 100 + i + (i < 4));
}

/* ---- TILE_FN: ordinary functions over tiles ----------------------------- */

typedef TILE_FN_REG_T(float, 32, 64) t64_b32;
/* sum and max of a tile (cooperative reductions inside a function) */
TILE_FN(fn_stats, 32, t64_b32 *t, float *sum, float *mx) {
    tile_sum(s, *t);
    tile_max(m, *t);
    *sum = tile_value(s);
    *mx = tile_value(m);
    TILE_FN_RETURN;
}
/* t *= k through a shared tile it allocates; *off: the arena offset after */
TILE_FN(fn_scale_shared, 32, t64_b32 *t, float k, int *off) {
    tile_shared(float, tmp, 64);
    tile_mul_c(tmp, *t, k);
    tile_mul_c(*t, tmp, 1.0f);
    *off = tile_smem_mark();
    TILE_FN_RETURN;
}
/* a function calling functions */
TILE_FN(fn_outer, 32, t64_b32 *t, float *res, int *off) {
    tile_call(fn_scale_shared, t, 2.0f, off);
    tile_call(fn_stats, t, &res[0], &res[1]);
    TILE_FN_RETURN;
}
/* ends without TILE_FN_RETURN: the caller stops at the call */
TILE_FN(fn_noret, 32, int *x) { *x += 1; }
/* overflows a 256-byte arena */
TILE_FN(fn_big, 32, int *x) {
    *x += 1;
    tile_shared(float, big, 128);
    tile_zeros(big);
    *x += 10;
    TILE_FN_RETURN;
}

TILE_KERNEL_SMEM(fn_kernel, 32, 1024, const float *a, float *res, int *off) {
    const int b = tile_block(0);
    t64_b32 t;
    tile_load(t, tile_array1(a + 64 * b, 64), 0);
    tile_call(fn_outer, &t, &res[4 * b], &off[2 * b]);
    off[2 * b + 1] = tile_smem_mark(); /* the caller continues at the callee's offset */
    tile_store(tile_array1(res + 4 * b + 2, 1), t, 0); /* first element of 2 * a */
    res[4 * b + 3] = 1.0f;
}
TILE_KERNEL_SMEM(fn_stop_kernel, 32, 256, int which, int *x) {
    if (which == 0) tile_call(fn_noret, x);
    else tile_call(fn_big, x);
    x[1] += 100; /* not reached */
}
static int launch_fn_stop(int which, int *x) { return tile_launch(TILE_CPU, fn_stop_kernel, tile_grid1(1), 32, which, x); }

static void test_fn(void **state) {
    (void)state;
    float a[3 * 64], res[3 * 4];
    int off[3 * 2];
    for (int i = 0; i < 3 * 64; ++i) a[i] = (float)tu_val(i, 7, 1);
    assert_tile_ok(tile_launch(TILE_CPU, fn_kernel, tile_grid1(3), 32, a, res, off));
    for (int b = 0; b < 3; ++b) {
        double sum = 0, mx = -1e300;
        for (int i = 0; i < 64; ++i) {
            sum += 2.0 * a[64 * b + i];
            mx = fmax(mx, 2.0 * a[64 * b + i]);
        }
        assert_close(res[4 * b], sum, TU_TOL_F32);
        assert_close(res[4 * b + 1], mx, TU_TOL_F32);
        assert_close(res[4 * b + 2], 2.0 * a[64 * b], TU_TOL_F32);
        assert_close(res[4 * b + 3], 1.0, 0);
        assert_int_equal(off[2 * b], 256);     /* 64 floats allocated in fn_scale_shared */
        assert_int_equal(off[2 * b + 1], 256); /* ...and seen by the kernel after the call */
    }
#ifndef TILE_DEBUG
    int x[2] = {0, 0};
    assert_tile_ok(launch_fn_stop(0, x)); /* a missing TILE_FN_RETURN stops the body */
    assert_int_equal(x[0], 1);
    assert_int_equal(x[1], 0);
    x[0] = 0;
    assert_int_equal(launch_fn_stop(1, x), TILE_ERR_SMEM_OVERFLOW); /* stops at the allocation, and the body */
    assert_int_equal(x[0], 1);
    assert_int_equal(x[1], 0);
#endif
}
#ifdef TILE_DEBUG
static void test_fn_asserts(void **state) {
    (void)state;
    static int x[2];
    x[0] = x[1] = 0;
    expect_assert_failure(launch_fn_stop(0, x)); /* missing TILE_FN_RETURN */
    assert_int_equal(x[1], 0);
    x[0] = 0;
    expect_assert_failure(launch_fn_stop(1, x)); /* the overflow */
    assert_int_equal(x[0], 1);
    assert_int_equal(x[1], 0);
}
#endif

/* ---- warp.h on the CPU: a warp of one lane ------------------------------ */
TILE_KERNEL(warp_cpu, 64, int *o, float *f, double *d, int64_t *l) {
    o[0] = tile_warp_lane();
    o[1] = tile_warp_id();
    o[2] = tile_warp_count();
    o[3] = tile_warp_lanes();
    o[4] = (int)tile_warp_mask();
    tile_warp_sync();
    o[5] = (int)tile_warp_ballot(7);
    o[6] = (int)tile_warp_ballot(0);
    o[7] = tile_warp_any(3) + 2 * tile_warp_all(3) + 4 * tile_warp_any(0) + 8 * tile_warp_all(0);
    o[8] = tile_warp_reduce_sum((int32_t)-5);
    o[9] = tile_warp_reduce_min((int32_t)-5) + tile_warp_reduce_max((int32_t)4);
    o[10] = tile_warp_scan_inclusive_sum((int32_t)9);
    o[11] = tile_warp_scan_exclusive_sum((int32_t)9);
    o[12] = tile_warp_shfl((int32_t)11, 5) + tile_warp_shfl_up((int32_t)11, 1) +
            tile_warp_shfl_down((int32_t)11, 3) + tile_warp_shfl_xor((int32_t)11, 1);
    o[13] = (int)tile_warp_reduce_sum_u32(4000000000u / 2u);
    f[0] = tile_warp_reduce_sum(1.5f);
    f[1] = tile_warp_scan_exclusive_sum(1.5f);
    f[2] = tile_warp_shfl_xor(2.5f, 16);
    d[0] = tile_warp_reduce_max(-2.25);
    d[1] = tile_warp_scan_inclusive_sum(0.125);
    l[0] = tile_warp_reduce_sum((int64_t)1 << 40);
    l[1] = (int64_t)tile_warp_shfl_down((uint64_t)77, 1);
}
static void test_warp_cpu(void **state) {
    (void)state;
    int o[14];
    float f[3];
    double d[2];
    int64_t l[2];
    memset(o, 0x55, sizeof o);
    assert_tile_ok(tile_launch(TILE_CPU, warp_cpu, tile_grid1(1), 64, o, f, d, l));
    const int want[14] = {0, 0, 1, 1, 1, 1, 0, 3, -5, -1, 9, 0, 44, 2000000000};
    for (int i = 0; i < 14; ++i) assert_int_equal(o[i], want[i]);
    assert_close(f[0], 1.5, 0);
    assert_close(f[1], 0.0, 0);
    assert_close(f[2], 2.5, 0);
    assert_close(d[0], -2.25, 0);
    assert_close(d[1], 0.125, 0);
    assert_true(l[0] == ((int64_t)1 << 40));
    assert_true(l[1] == 77);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_coords_b1),
        cmocka_unit_test(test_tiled_coords_b32),
        cmocka_unit_test(test_tiled_coords_b64),
        cmocka_unit_test(test_tiled_coords_b256),
        cmocka_unit_test(test_simt_coords_b1),
        cmocka_unit_test(test_simt_coords_b32),
        cmocka_unit_test(test_simt_coords_multiples),
        cmocka_unit_test(test_block_dim_mismatch),
        cmocka_unit_test(test_grid_errors),
        cmocka_unit_test(test_gpu_without_cuda),
        cmocka_unit_test(test_host_memory_cpu),
        cmocka_unit_test(test_error_strings),
        cmocka_unit_test(test_exec_smem_dynamic),
        cmocka_unit_test(test_persistent_coords),
        cmocka_unit_test(test_max_resident),
        cmocka_unit_test(test_persistent_early_return),
        cmocka_unit_test(test_persistent_options),
        cmocka_unit_test(test_fn),
        cmocka_unit_test(test_warp_cpu),
#ifdef TILE_DEBUG
        cmocka_unit_test(test_fn_asserts),
        cmocka_unit_test(test_arena_overflow_asserts),
        cmocka_unit_test(test_view_out_of_range_asserts),
        cmocka_unit_test(test_other_promises_assert),
#else
        cmocka_unit_test(test_arena_overflow_error),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
