/* tile_stack (CPU path, block_dim 1): a script of pushes with changing flag
 * patterns, overflow past capacity, pops past empty, clear and reuse, count
 * after every operation (also read in divergent code), run against the model
 * of the documented semantics (tests/reduce_stack_common.h) for the three
 * storages: tile_stack (static), tile_stack_arena, and tile_stack_in over a
 * poisoned buffer with guard bytes after the stack (nothing may be written
 * past capacity, unwritten slots stay untouched). Element types int32, f64
 * and vec3f; capacities 1 .. 1000. Two stacks of equal byte size in one
 * kernel keep their own contents. */
#include "test_util.h"
#include "../reduce_stack_common.h"

/* the script, run by every thread; outputs per operation and thread */
#define ST_SCRIPT(T, s, MK)                                                        \
    for (int q = 0; q < nops; ++q) {                                               \
        const int t = tile_thread();                                               \
        const size_t o = (size_t)q * TILE_BLOCK_DIM + (size_t)t;                   \
        const int kind = ops[q].kind;                                              \
        int r = 0;                                                                 \
        T pvv;                                                                     \
        memset(&pvv, 0, sizeof(pvv));                                              \
        if (kind == RS_PUSH) {                                                     \
            r = tile_stack_push(s, MK(rs_id(q, t)), rs_flag(ops[q].mode, q, t, TILE_BLOCK_DIM)); \
        } else if (kind == RS_POP) {                                               \
            memset(&pvv, 0x5A, sizeof(pvv)); /* a failed pop must zero it */      \
            r = tile_stack_pop(s, &pvv);                                           \
        } else if (kind == RS_CLEAR) {                                             \
            tile_stack_clear(s);                                                   \
        } else {                                                                   \
            r = rs_count_reader(t, TILE_BLOCK_DIM) ? tile_stack_count(s) : -7;     \
        }                                                                          \
        ret[o] = r;                                                                \
        cnt[o] = tile_stack_count(s);                                              \
        pv[o] = pvv;                                                               \
    }

#define ST_KERNELS(tag, T, MK, CAP, B)                                             \
    TILE_KERNEL(st_static_##tag, B, const rs_op *ops, int nops, int *ret, int *cnt, T *pv, T *dump, int *dc) { \
        tile_stack(T, s, CAP);                                                     \
        ST_SCRIPT(T, s, MK)                                                        \
        for (int i = tile_thread(); i < (CAP); i += TILE_BLOCK_DIM) dump[i] = s.v[i]; \
        if (tile_thread() == 0) {                                                  \
            dc[0] = tile_stack_count(s);                                           \
            dc[1] = tile_stack_capacity(s);                                        \
        }                                                                          \
    }                                                                              \
    TILE_KERNEL_SMEM(st_arena_##tag, B, TILE_STACK_BYTES(T, CAP), const rs_op *ops, int nops, int *ret, int *cnt, \
                     T *pv, T *dump, int *dc) {                                    \
        tile_stack_arena(T, s, CAP);                                               \
        ST_SCRIPT(T, s, MK)                                                        \
        for (int i = tile_thread(); i < (CAP); i += TILE_BLOCK_DIM) dump[i] = s.v[i]; \
        if (tile_thread() == 0) {                                                  \
            dc[0] = tile_stack_count(s);                                           \
            dc[1] = tile_stack_capacity(s);                                        \
        }                                                                          \
    }                                                                              \
    TILE_KERNEL_SMEM(st_guard_##tag, B, TILE_STACK_BYTES(T, CAP) + RS_GUARD, const rs_op *ops, int nops, int *ret, \
                     int *cnt, T *pv, unsigned char *raw) {                        \
        tile_shared(unsigned char, mem, TILE_STACK_BYTES(T, CAP) + RS_GUARD);      \
        for (int i = tile_thread(); i < tile_size(mem); i += TILE_BLOCK_DIM) mem.v[i] = RS_POISON; \
        tile_stack_in(T, s, CAP, mem.v);                                           \
        ST_SCRIPT(T, s, MK)                                                        \
        tile_barrier();                                                            \
        for (int i = tile_thread(); i < tile_size(mem); i += TILE_BLOCK_DIM) raw[i] = mem.v[i]; \
    }

/* (tag, element type, maker, capacity, block) */
#define ST_CASES(X)                                                                \
    X(i32_1, int32_t, rs_mk_i32, 1, 32)                                            \
    X(i32_37, int32_t, rs_mk_i32, 37, 96)                                          \
    X(i32_1000, int32_t, rs_mk_i32, 1000, 256)                                     \
    X(f64_100, double, rs_mk_f64, 100, 64)                                         \
    X(v3f_37, tile_vec3f, rs_mk_v3f, 37, 1024)
ST_CASES(ST_KERNELS)

enum { MAX_OPS = 4096 };

#define ST_RUN(tag, T, MK, CAP, B)                                                 \
    do {                                                                           \
        static rs_op ops[MAX_OPS];                                                 \
        const int nops = rs_script(ops, MAX_OPS, 1, CAP);                          \
        int *ret = (int *)calloc((size_t)nops, sizeof(int));                       \
        int *cnt = (int *)calloc((size_t)nops, sizeof(int));                       \
        T *pv = (T *)calloc((size_t)nops, sizeof(T));                              \
        T *dump = (T *)calloc(CAP, sizeof(T));                                     \
        unsigned char *raw = (unsigned char *)calloc(TILE_STACK_BYTES(T, CAP) + RS_GUARD, 1); \
        int dc[2] = {-1, -1};                                                      \
        assert_true(ret && cnt && pv && dump && raw);                              \
        assert_tile_ok(tile_launch(TILE_CPU, st_static_##tag, tile_grid1(1), B, ops, nops, ret, cnt, pv, dump, dc)); \
        assert_int_equal(rs_check_stack("static " #tag, 1, CAP, ops, nops, ret, cnt, (const unsigned char *)pv, \
                                        sizeof(T), rs_mkb_##tag##_, (const unsigned char *)dump, 0, dc[0]), 0); \
        assert_int_equal(dc[1], CAP);                                              \
        assert_tile_ok(tile_launch(TILE_CPU, st_arena_##tag, tile_grid1(1), B, ops, nops, ret, cnt, pv, dump, dc)); \
        assert_int_equal(rs_check_stack("arena " #tag, 1, CAP, ops, nops, ret, cnt, (const unsigned char *)pv, \
                                        sizeof(T), rs_mkb_##tag##_, (const unsigned char *)dump, 0, dc[0]), 0); \
        assert_tile_ok(tile_launch(TILE_CPU, st_guard_##tag, tile_grid1(1), B, ops, nops, ret, cnt, pv, raw)); \
        assert_int_equal(rs_check_stack("guarded " #tag, 1, CAP, ops, nops, ret, cnt, (const unsigned char *)pv, \
                                        sizeof(T), rs_mkb_##tag##_, raw, 1, 0), 0); \
        free(ret);                                                                 \
        free(cnt);                                                                 \
        free(pv);                                                                  \
        free(dump);                                                                \
        free(raw);                                                                 \
    } while (0);
/* byte makers by tag */
#define rs_mkb_i32_1_ rs_mkb_i32
#define rs_mkb_i32_37_ rs_mkb_i32
#define rs_mkb_i32_1000_ rs_mkb_i32
#define rs_mkb_f64_100_ rs_mkb_f64
#define rs_mkb_v3f_37_ rs_mkb_v3f

static void test_stack_script(void **state) {
    (void)state;
    ST_CASES(ST_RUN)
}

/* Warp's documented examples, and two stacks of equal byte size */
TILE_KERNEL(st_two, 64, const int *data, int n, int *out) {
    tile_stack(int, a, 16);
    tile_stack(float, b, 16); /* same bytes as a: storage of its own */
    for (int c = 0; c < n; c += TILE_BLOCK_DIM) {
        const int i = c + tile_thread();
        const int x = i < n ? data[i] : 0;
        tile_stack_push(a, x, i < n && x > 5);
        tile_stack_push(b, x * 0.5, i < n && x <= 5); /* a double value converts to float */
    }
    if (tile_thread() == 0) {
        out[0] = tile_stack_count(a);
        out[1] = tile_stack_count(b);
    }
    /* pop everything: slots place the values, in push order */
    while (tile_stack_count(a) > 0) {
        int y;
        const int slot = tile_stack_pop(a, &y);
        if (slot >= 0) out[2 + slot] = y;
    }
    while (tile_stack_count(b) > 0) {
        float y;
        const int slot = tile_stack_pop(b, &y);
        if (slot >= 0) out[18 + slot] = (int)(y * 2);
    }
    out[34] = tile_stack_count(a) + tile_stack_count(b);
}

static void test_stack_examples(void **state) {
    (void)state;
    const int data[8] = {1, 8, 3, 7, 2, 9, 4, 6};
    int out[35];
    memset(out, 0xff, sizeof(out));
    assert_tile_ok(tile_launch(TILE_CPU, st_two, tile_grid1(1), 64, data, 8, out));
    assert_int_equal(out[0], 4);
    assert_int_equal(out[1], 4);
    const int big[4] = {8, 7, 9, 6}, small[4] = {1, 3, 2, 4}; /* thread order kept */
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(out[2 + i], big[i]);
        assert_int_equal(out[18 + i], small[i]);
    }
    assert_int_equal(out[34], 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stack_script),
        cmocka_unit_test(test_stack_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
