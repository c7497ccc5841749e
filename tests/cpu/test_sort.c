/* tile_sort / tile_sort_pairs on the CPU target (block_dim 1): every key
 * type, lengths 1 .. 4096 (powers of two and not), register and shared
 * tiles, keys only and pairs with the input index as value (which checks
 * stability exactly), every input pattern of tests/sort_ref.h (NaNs, -0.0
 * and +0.0, infinities, duplicates, all-equal, sorted, reversed, extreme
 * integers), other value types, 2D tiles, the documented examples, and the
 * staging-size macros. The GPU code path (block_dim > 1) is checked by
 * test_sort_sim.c on the CPU and by tests/gpu/sort_test.cu on a GPU.
 *
 * Each kernel sorts one tile per block: block b sorts the tile at b*N,
 * filled with input pattern b, so one launch covers every pattern. */
#include "test_util.h"
#include "../sort_ref.h"

/* register keys (RK), register pairs (RP), shared keys (SK), shared pairs
 * (SP) of N keys of type T */
#define DEF_SORTS(name, T, N)                                                      \
    TILE_KERNEL(name##_rk, 64, const T *in, T *out) {                              \
        const int64_t b = tile_block(0);                                           \
        tile_reg(T, k, N);                                                         \
        tile_load(k, tile_array1(in + b * N, N), 0);                               \
        tile_sort(k);                                                              \
        tile_store(tile_array1(out + b * N, N), k, 0);                             \
    }                                                                              \
    TILE_KERNEL(name##_rp, 64, const T *in, const int32_t *vin, T *out, int32_t *vout) { \
        const int64_t b = tile_block(0);                                           \
        tile_reg(T, k, N);                                                         \
        tile_reg(int32_t, v, N);                                                   \
        tile_load(k, tile_array1(in + b * N, N), 0);                               \
        tile_load(v, tile_array1(vin, N), 0);                                      \
        tile_sort_pairs(k, v);                                                     \
        tile_store(tile_array1(out + b * N, N), k, 0);                             \
        tile_store(tile_array1(vout + b * N, N), v, 0);                            \
    }                                                                              \
    TILE_KERNEL_SMEM(name##_sk, 64, TILE_SMEM_BYTES(T, N), const T *in, T *out) {  \
        const int64_t b = tile_block(0);                                           \
        tile_shared(T, k, N);                                                      \
        tile_load(k, tile_array1(in + b * N, N), 0);                               \
        tile_sort(k);                                                              \
        tile_store(tile_array1(out + b * N, N), k, 0);                             \
    }                                                                              \
    TILE_KERNEL_SMEM(name##_sp, 64, TILE_SMEM_BYTES(T, N) + TILE_SMEM_BYTES(int32_t, N), const T *in, \
                     const int32_t *vin, T *out, int32_t *vout) {                  \
        const int64_t b = tile_block(0);                                           \
        tile_shared(T, k, N);                                                      \
        tile_shared(int32_t, v, N);                                                \
        tile_load(k, tile_array1(in + b * N, N), 0);                               \
        tile_load(v, tile_array1(vin, N), 0);                                      \
        tile_sort_pairs(k, v);                                                     \
        tile_store(tile_array1(out + b * N, N), k, 0);                             \
        tile_store(tile_array1(vout + b * N, N), v, 0);                            \
    }

/* X(type id, C type, N): every length for f32 and i64 (the 32- and 64-bit
 * paths), fewer for the others */
#define LENGTHS_ALL(X, id, T)                                                      \
    X(id, T, 1) X(id, T, 2) X(id, T, 31) X(id, T, 32) X(id, T, 33) X(id, T, 255) X(id, T, 256) \
    X(id, T, 257) X(id, T, 1000) X(id, T, 3000) X(id, T, 4096)
#define LENGTHS_SOME(X, id, T) X(id, T, 1) X(id, T, 16) X(id, T, 33) X(id, T, 257) X(id, T, 3000)
#define ALL_SORTS(X)                                                               \
    LENGTHS_ALL(X, f32, float)                                                     \
    LENGTHS_ALL(X, i64, int64_t)                                                   \
    LENGTHS_SOME(X, f64, double)                                                   \
    LENGTHS_SOME(X, i32, int32_t)                                                  \
    LENGTHS_SOME(X, u32, uint32_t)                                                 \
    LENGTHS_SOME(X, u64, uint64_t)

#define DEF_ONE(id, T, N) DEF_SORTS(s_##id##_##N, T, N)
ALL_SORTS(DEF_ONE)

/* run the four kernels of one (type, length) on every pattern */
#define RUN_ONE(id, T, N)                                                          \
    do {                                                                           \
        T *in = (T *)malloc(sizeof(T) * N * SR_NPATTERNS), *out = (T *)malloc(sizeof(T) * N * SR_NPATTERNS); \
        int32_t *vin = (int32_t *)malloc(sizeof(int32_t) * N);                     \
        int32_t *vout = (int32_t *)malloc(sizeof(int32_t) * N * SR_NPATTERNS);     \
        assert_true(in && out && vin && vout);                                     \
        for (int p = 0; p < SR_NPATTERNS; ++p) sr_fill(type, in + p * N, N, p, 99u); \
        for (int i = 0; i < N; ++i) vin[i] = i;                                    \
        for (int kk = 0; kk < 4; ++kk) {                                           \
            memset(out, 0xcd, sizeof(T) * N * SR_NPATTERNS);                       \
            memset(vout, 0xcd, sizeof(int32_t) * N * SR_NPATTERNS);                \
            const tile_grid g = tile_grid1(SR_NPATTERNS);                          \
            if (kk == 0) assert_tile_ok(tile_launch(TILE_CPU, s_##id##_##N##_rk, g, 64, in, out)); \
            if (kk == 1) assert_tile_ok(tile_launch(TILE_CPU, s_##id##_##N##_rp, g, 64, in, vin, out, vout)); \
            if (kk == 2) assert_tile_ok(tile_launch(TILE_CPU, s_##id##_##N##_sk, g, 64, in, out)); \
            if (kk == 3) assert_tile_ok(tile_launch(TILE_CPU, s_##id##_##N##_sp, g, 64, in, vin, out, vout)); \
            for (int p = 0; p < SR_NPATTERNS; ++p) {                               \
                long first;                                                        \
                const int32_t *idx = (kk & 1) ? vout + p * N : NULL;               \
                long bad = sr_check(type, in + p * N, N, out + p * N, idx, &first); \
                if (bad) {                                                         \
                    print_error("%s n=%d %s %s, %s input: %ld wrong, first at %ld\n", #id, N, \
                                kk < 2 ? "register" : "shared", (kk & 1) ? "pairs" : "keys", \
                                sr_pattern_name[p], bad, first);                   \
                    fail();                                                        \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        free(in);                                                                  \
        free(out);                                                                 \
        free(vin);                                                                 \
        free(vout);                                                                \
    } while (0);

#define TEST_TYPE(id, sr_id, LIST, T)                                              \
    static void test_sort_##id(void **state) {                                     \
        (void)state;                                                               \
        const int type = sr_id;                                                    \
        LIST(RUN_ONE, id, T)                                                       \
    }
TEST_TYPE(f32, SR_F32, LENGTHS_ALL, float)
TEST_TYPE(i64, SR_I64, LENGTHS_ALL, int64_t)
TEST_TYPE(f64, SR_F64, LENGTHS_SOME, double)
TEST_TYPE(i32, SR_I32, LENGTHS_SOME, int32_t)
TEST_TYPE(u32, SR_U32, LENGTHS_SOME, uint32_t)
TEST_TYPE(u64, SR_U64, LENGTHS_SOME, uint64_t)

/* ---- the header's examples, and the order of floats spelled out ---- */
TILE_KERNEL(doc_example, 64, int32_t *k_out, int32_t *v_out) {
    tile_reg(int32_t, k, 4);
    tile_reg(int32_t, v, 4);
    const int32_t kin[4] = {3, 1, 2, 1}, vin[4] = {10, 11, 12, 13};
    tile_load(k, tile_array1(kin, 4), 0);
    tile_load(v, tile_array1(vin, 4), 0);
    tile_sort_pairs(k, v);
    tile_store(tile_array1(k_out, 4), k, 0);
    tile_store(tile_array1(v_out, 4), v, 0);
}
static void test_doc_example(void **state) {
    (void)state;
    int32_t k[4], v[4];
    assert_tile_ok(tile_launch(TILE_CPU, doc_example, tile_grid1(1), 64, k, v));
    const int32_t ek[4] = {1, 1, 2, 3}, ev[4] = {11, 13, 12, 10};
    assert_memory_equal(k, ek, sizeof(ek));
    assert_memory_equal(v, ev, sizeof(ev));
}

TILE_KERNEL(float_order, 32, const float *in, float *out) {
    tile_reg(float, k, 12);
    tile_load(k, tile_array1(in, 12), 0);
    tile_sort(k);
    tile_store(tile_array1(out, 12), k, 0);
}
static float f_of(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static void test_float_order(void **state) {
    (void)state;
    /* expected order, written out: -NaN < -inf < -1 < -denormal < -0 < +0 <
     * +denormal < 1 < +inf < +NaN (NaNs by payload within a sign) */
    const uint32_t want[12] = {0xffc00001u, 0xffc00000u, 0xff800000u, 0xbf800000u, 0x80000001u, 0x80000000u,
                               0x00000000u, 0x00000001u, 0x3f800000u, 0x7f800000u, 0x7fc00000u, 0x7fc00001u};
    const int perm[12] = {6, 11, 0, 9, 5, 3, 8, 1, 10, 4, 7, 2};
    float in[12], out[12];
    for (int i = 0; i < 12; ++i) in[i] = f_of(want[perm[i]]);
    assert_tile_ok(tile_launch(TILE_CPU, float_order, tile_grid1(1), 32, in, out));
    assert_memory_equal(out, (const void *)want, sizeof(want));
}

/* ---- other value types: u64, vec3f, a user struct; mixed storages ---- */
typedef struct {
    int32_t id;
    char tag[5];
} user_rec;
TILE_KERNEL_SMEM(values_kinds, 64, TILE_SMEM_BYTES(double, 300) + TILE_SMEM_BYTES(tile_vec3f, 300),
                 const double *in, double *ko, uint64_t *u_out, tile_vec3f *v3_out, user_rec *r_out) {
    tile_reg(double, k1, 300);
    tile_reg(uint64_t, u, 300);
    tile_load(k1, tile_array1(in, 300), 0);
    tile_arange(u, 1000, 1);
    tile_sort_pairs(k1, u); /* register keys, register u64 values */
    tile_store(tile_array1(ko, 300), k1, 0);
    tile_store(tile_array1(u_out, 300), u, 0);
    tile_shared(double, k2, 300);
    tile_shared(tile_vec3f, v3, 300);
    tile_load(k2, tile_array1(in, 300), 0);
    for (int i = 0; i < 300; ++i) v3.v[i] = tile_vec3f_set((float)i, (float)-i, 0.5f);
    tile_sort_pairs(k2, v3); /* shared keys, shared vec3f values */
    tile_store(tile_array1(v3_out, 300), v3, 0);
    tile_reg(double, k3, 300);
    tile_reg(user_rec, r, 300);
    tile_load(k3, tile_array1(in, 300), 0);
    for (int i = 0; i < 300; ++i) {
        r.v[i].id = i;
        memcpy(r.v[i].tag, "abcd", 5);
    }
    tile_sort_pairs(k3, r); /* user struct values */
    for (int i = 0; i < 300; ++i) r_out[i] = r.v[i];
}
static void test_value_types(void **state) {
    (void)state;
    double in[300], ko[300];
    uint64_t u[300];
    tile_vec3f v3[300];
    user_rec r[300];
    sr_fill(SR_F64, in, 300, 1, 5u); /* duplicates: stability matters */
    assert_tile_ok(tile_launch(TILE_CPU, values_kinds, tile_grid1(1), 64, in, ko, u, v3, r));
    int32_t idx[300];
    for (int i = 0; i < 300; ++i) idx[i] = (int32_t)(u[i] - 1000);
    long first;
    assert_int_equal(sr_check(SR_F64, in, 300, ko, idx, &first), 0);
    for (int i = 0; i < 300; ++i) {
        assert_int_equal((int)v3[i].v[0], idx[i]);
        assert_true(v3[i].v[1] == -v3[i].v[0] && v3[i].v[2] == 0.5f);
        assert_int_equal(r[i].id, idx[i]);
        assert_string_equal(r[i].tag, "abcd");
    }
}

/* ---- a 2D tile sorts as its row-major flattening; a view of a shared tile;
 * sorts in a row sharing the staging buffer ---- */
TILE_KERNEL_SMEM(two_d, 32, TILE_SMEM_BYTES(int32_t, 8, 10), const int32_t *in, int32_t *o2d, int32_t *oview,
                 int32_t *oseq) {
    tile_reg(int32_t, a, 6, 7);
    tile_load(a, tile_array2(in, 6, 7), 0, 0);
    tile_sort(a);
    tile_store(tile_array2(o2d, 6, 7), a, 0, 0);
    tile_shared(int32_t, s, 8, 10);
    tile_load(s, tile_array2(in, 8, 10), 0, 0);
    tile_view(w, s, (4, 5), (2, 3)); /* rows 2..5, columns 3..7 */
    tile_sort(w);
    tile_store(tile_array2(oview, 8, 10), s, 0, 0);
    tile_reg(int32_t, x, 100);
    tile_reg(int32_t, y, 100);
    tile_load(x, tile_array1(in, 100), 0);
    tile_copy(y, x);
    tile_sort(x);
    tile_sort_pairs(y, x); /* keys already sorted, values = the sorted keys */
    tile_sort(x);
    tile_store(tile_array1(oseq, 100), x, 0);
}
static void test_2d_views(void **state) {
    (void)state;
    int32_t in[100], o2d[42], ov[80], os[100];
    sr_fill(SR_I32, in, 100, 6, 3u);
    assert_tile_ok(tile_launch(TILE_CPU, two_d, tile_grid1(1), 32, in, o2d, ov, os));
    long first;
    assert_int_equal(sr_check(SR_I32, in, 42, o2d, NULL, &first), 0);
    /* the view: its 20 elements sorted in place, the rest unchanged */
    int32_t vin[20], vout[20];
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 5; ++c) {
            vin[r * 5 + c] = in[(2 + r) * 10 + 3 + c];
            vout[r * 5 + c] = ov[(2 + r) * 10 + 3 + c];
        }
    assert_int_equal(sr_check(SR_I32, vin, 20, vout, NULL, &first), 0);
    for (int i = 0; i < 80; ++i) {
        const int r = i / 10, c = i % 10;
        if (r >= 2 && r < 6 && c >= 3 && c < 8) continue;
        assert_int_equal(ov[i], in[i]);
    }
    assert_int_equal(sr_check(SR_I32, in, 100, os, NULL, &first), 0);
}

/* ---- staging sizes ---- */
static void test_smem_bytes(void **state) {
    (void)state;
    /* the static buffer holds these: nothing for the arena */
    assert_int_equal(TILE_SORT_SMEM_BYTES(float, 4096, 256), 0);
    assert_int_equal(TILE_SORT_PAIRS_SMEM_BYTES(float, uint32_t, 4096, 256), 0);
    /* keys (4096 + 255 padding) * 8 twice, counters 36 * 256, warp sums 32 */
    assert_int_equal(TILE_SORT_PAIRS_SMEM_BYTES(double, double, 4096, 256), 78880);
    /* long chunks (S = 128 > 16) take two key buffers: 2 * 16896 + 36 * 32 +
     * 16; sized as pairs with 4-byte values that is more than the static
     * limit, so keys-only and pairs sorts of this tile both use the arena */
    assert_int_equal(TILE_SORT_SMEM_BYTES(float, 4096, 32), 2 * 16896 + 36 * 32 + 16);
    assert_int_equal(TILE_SORT_PAIRS_SMEM_BYTES(float, int32_t, 4096, 32), 4 * 16896 + 36 * 32 + 16);
    /* small tiles: static */
    assert_int_equal(TILE_SORT_PAIRS_SMEM_BYTES(double, int64_t, 256, 64), 0);
    /* 1024 threads: counters alone are 36 KiB */
    assert_int_equal(TILE_SORT_SMEM_BYTES(float, 4096, 1024), 16896 + 36 * 1024 + 128);
    assert_true(TILE_SORT_PAIRS_SMEM_BYTES(double, int32_t, 8192, 1024) <= TILE_MAX_SMEM_BYTES);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_f32),    cmocka_unit_test(test_sort_i64),   cmocka_unit_test(test_sort_f64),
        cmocka_unit_test(test_sort_i32),    cmocka_unit_test(test_sort_u32),   cmocka_unit_test(test_sort_u64),
        cmocka_unit_test(test_doc_example), cmocka_unit_test(test_float_order), cmocka_unit_test(test_value_types),
        cmocka_unit_test(test_2d_views),    cmocka_unit_test(test_smem_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
