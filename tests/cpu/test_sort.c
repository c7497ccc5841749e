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

/* ======================================================================
 * descending, bit ranges, f16/bf16 keys, per-row sorts, merge sorts
 * ====================================================================== */
/* references for the descending / bit-range / f16 / per-row / merge sorts:
 * vx_* in ../sort_ref.h */


/* four kernels (register/shared keys, keys only/pairs with index values) of
 * one sort operation OPK / OPP */
#define DEF_VAR(name, T, N, OPK, OPP)                                              \
    TILE_KERNEL(name##_rk, 64, const T *in, T *out) {                              \
        tile_reg(T, k, N);                                                         \
        tile_load(k, tile_array1(in, N), 0);                                       \
        OPK(k);                                                                    \
        tile_store(tile_array1(out, N), k, 0);                                     \
    }                                                                              \
    TILE_KERNEL(name##_rp, 64, const T *in, const int32_t *vin, T *out, int32_t *vout) { \
        tile_reg(T, k, N);                                                         \
        tile_reg(int32_t, v, N);                                                   \
        tile_load(k, tile_array1(in, N), 0);                                       \
        tile_load(v, tile_array1(vin, N), 0);                                      \
        OPP(k, v);                                                                 \
        tile_store(tile_array1(out, N), k, 0);                                     \
        tile_store(tile_array1(vout, N), v, 0);                                    \
    }                                                                              \
    TILE_KERNEL_SMEM(name##_sk, 64, TILE_SMEM_BYTES(T, N), const T *in, T *out) {  \
        tile_shared(T, k, N);                                                      \
        tile_load(k, tile_array1(in, N), 0);                                       \
        OPK(k);                                                                    \
        tile_store(tile_array1(out, N), k, 0);                                     \
    }                                                                              \
    TILE_KERNEL_SMEM(name##_sp, 64, TILE_SMEM_BYTES(T, N) + TILE_SMEM_BYTES(int32_t, N), const T *in, \
                     const int32_t *vin, T *out, int32_t *vout) {                  \
        tile_shared(T, k, N);                                                      \
        tile_shared(int32_t, v, N);                                                \
        tile_load(k, tile_array1(in, N), 0);                                       \
        tile_load(v, tile_array1(vin, N), 0);                                      \
        OPP(k, v);                                                                 \
        tile_store(tile_array1(out, N), k, 0);                                     \
        tile_store(tile_array1(vout, N), v, 0);                                    \
    }

#define K_DESC(k) tile_sort_descending(k)
#define P_DESC(k, v) tile_sort_pairs_descending(k, v)
#define K_B3_13(k) tile_sort_bits(k, 3, 13)
#define P_B3_13(k, v) tile_sort_pairs_bits(k, v, 3, 13)
#define K_B20_45(k) tile_sort_bits(k, 20, 45)
#define P_B20_45(k, v) tile_sort_pairs_bits(k, v, 20, 45)
#define K_B2_11(k) tile_sort_bits(k, 2, 11)
#define P_B2_11(k, v) tile_sort_pairs_bits(k, v, 2, 11)
#define K_DB16_32(k) tile_sort_descending_bits(k, 16, 32)
#define P_DB16_32(k, v) tile_sort_pairs_descending_bits(k, v, 16, 32)
#define K_DB0_8(k) tile_sort_descending_bits(k, 0, 8)
#define P_DB0_8(k, v) tile_sort_pairs_descending_bits(k, v, 0, 8)
#define K_ASC(k) tile_sort(k)
#define P_ASC(k, v) tile_sort_pairs(k, v)

/* X(name, C type, type id, N, OPK, OPP, desc, begin, end (0: all bits)) */
#define VAR_CASES(X)                                                               \
    X(d_f32_1000, float, SR_F32, 1000, K_DESC, P_DESC, 1, 0, 0)                    \
    X(d_f32_33, float, SR_F32, 33, K_DESC, P_DESC, 1, 0, 0)                        \
    X(d_i64_257, int64_t, SR_I64, 257, K_DESC, P_DESC, 1, 0, 0)                    \
    X(d_u32_64, uint32_t, SR_U32, 64, K_DESC, P_DESC, 1, 0, 0)                     \
    X(d_f64_100, double, SR_F64, 100, K_DESC, P_DESC, 1, 0, 0)                     \
    X(d_f16_300, tile_f16, VX_F16, 300, K_DESC, P_DESC, 1, 0, 0)                   \
    X(a_f16_300, tile_f16, VX_F16, 300, K_ASC, P_ASC, 0, 0, 0)                     \
    X(a_bf16_1000, tile_bf16, VX_BF16, 1000, K_ASC, P_ASC, 0, 0, 0)                \
    X(d_bf16_64, tile_bf16, VX_BF16, 64, K_DESC, P_DESC, 1, 0, 0)                  \
    X(b_f32_1000, float, SR_F32, 1000, K_B3_13, P_B3_13, 0, 3, 13)                 \
    X(b_i32_255, int32_t, SR_I32, 255, K_B3_13, P_B3_13, 0, 3, 13)                 \
    X(b_u64_257, uint64_t, SR_U64, 257, K_B20_45, P_B20_45, 0, 20, 45)             \
    X(b_f16_200, tile_f16, VX_F16, 200, K_B2_11, P_B2_11, 0, 2, 11)                \
    X(db_f32_300, float, SR_F32, 300, K_DB16_32, P_DB16_32, 1, 16, 32)             \
    X(db_i64_100, int64_t, SR_I64, 100, K_DB0_8, P_DB0_8, 1, 0, 8)

#define DEF_VAR_CASE(name, T, ty, N, OPK, OPP, desc, b0, b1) DEF_VAR(v_##name, T, N, OPK, OPP)
VAR_CASES(DEF_VAR_CASE)

#define RUN_VAR(name, T, ty, N, OPK, OPP, desc, b0, b1)                            \
    do {                                                                           \
        T *in = (T *)malloc(sizeof(T) * N), *out = (T *)malloc(sizeof(T) * N);     \
        int32_t vin[N], vout[N];                                                   \
        assert_true(in && out);                                                    \
        for (int i = 0; i < N; ++i) vin[i] = i;                                    \
        for (int p = 0; p < SR_NPATTERNS; ++p) {                                   \
            vx_fill(ty, in, N, p, 41u);                                            \
            for (int kk = 0; kk < 4; ++kk) {                                       \
                memset(out, 0xcd, sizeof(T) * N);                                  \
                memset(vout, 0xcd, sizeof vout);                                   \
                if (kk == 0) assert_tile_ok(tile_launch(TILE_CPU, v_##name##_rk, tile_grid1(1), 64, in, out)); \
                if (kk == 1) assert_tile_ok(tile_launch(TILE_CPU, v_##name##_rp, tile_grid1(1), 64, in, vin, out, vout)); \
                if (kk == 2) assert_tile_ok(tile_launch(TILE_CPU, v_##name##_sk, tile_grid1(1), 64, in, out)); \
                if (kk == 3) assert_tile_ok(tile_launch(TILE_CPU, v_##name##_sp, tile_grid1(1), 64, in, vin, out, vout)); \
                long first;                                                        \
                long bad = vx_check(ty, in, N, out, (kk & 1) ? vout : NULL, desc, b0, b1, &first); \
                if (bad) {                                                         \
                    print_error("%s (%s) kernel %d pattern %d: %ld wrong, first at %ld\n", #name, \
                                vx_type_name[ty], kk, p, bad, first);              \
                    fail();                                                        \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        free(in);                                                                  \
        free(out);                                                                 \
    } while (0);

static void test_sort_variants(void **state) {
    (void)state;
    VAR_CASES(RUN_VAR)
}

/* the reference's order agrees with sort_ref.h's (independent) comparison */
static void test_ref_order(void **state) {
    (void)state;
    const int types[4] = {SR_F32, SR_F64, SR_I32, SR_I64};
    for (int t = 0; t < 4; ++t) {
        uint64_t keys[64];
        sr_fill(types[t], keys, 64, 5, 3u);
        for (int i = 0; i < 64; ++i)
            for (int j = 0; j < 64; ++j) {
                const uint64_t a = sr_bits(types[t], keys, i), b = sr_bits(types[t], keys, j);
                const uint64_t oa = vx_ord(types[t], a), ob = vx_ord(types[t], b);
                assert_int_equal((oa > ob) - (oa < ob), sr_cmp_bits(types[t], a, b));
            }
    }
}

/* the header's examples of descending and bit-range sorts */
TILE_KERNEL(doc_desc_bits, 32, uint32_t *o1, uint32_t *o2, uint32_t *o3, int32_t *ov) {
    const uint32_t kin[4] = {0x13, 0x21, 0x12, 0x24};
    const int32_t vin[4] = {0, 1, 2, 3};
    tile_reg(uint32_t, k, 4);
    tile_reg(int32_t, v, 4);
    tile_load(k, tile_array1(kin, 4), 0);
    tile_sort_descending(k);
    tile_store(tile_array1(o1, 4), k, 0);
    tile_load(k, tile_array1(kin, 4), 0);
    tile_sort_bits(k, 0, 4);
    tile_store(tile_array1(o2, 4), k, 0);
    tile_load(k, tile_array1(kin, 4), 0);
    tile_load(v, tile_array1(vin, 4), 0);
    tile_sort_pairs_descending_bits(k, v, 4, 8);
    tile_store(tile_array1(o3, 4), k, 0);
    tile_store(tile_array1(ov, 4), v, 0);
}
static void test_doc_desc_bits(void **state) {
    (void)state;
    uint32_t a[4], b[4], c[4];
    int32_t v[4];
    assert_tile_ok(tile_launch(TILE_CPU, doc_desc_bits, tile_grid1(1), 32, a, b, c, v));
    const uint32_t ea[4] = {0x24, 0x21, 0x13, 0x12}, eb[4] = {0x21, 0x12, 0x13, 0x24}, ec[4] = {0x21, 0x24, 0x13, 0x12};
    const int32_t ev[4] = {1, 3, 0, 2};
    assert_memory_equal(a, ea, sizeof ea);
    assert_memory_equal(b, eb, sizeof eb);
    assert_memory_equal(c, ec, sizeof ec);
    assert_memory_equal(v, ev, sizeof ev);
}

/* ---- per-row sorts: R x C tiles, register and shared, keys and pairs ---- */
#define DEF_ROWS(name, T, R, C)                                                    \
    TILE_KERNEL_SMEM(name, 64, TILE_SMEM_BYTES(T, R, C) + TILE_SMEM_BYTES(int32_t, R, C), const T *in, \
                     const int32_t *vin, T *o, int32_t *ov, int desc, int kind) {  \
        if (kind == 0) { /* register keys */                                     \
            tile_reg(T, k, R, C);                                                  \
            tile_load(k, tile_array2(in, R, C), 0, 0);                             \
            if (desc) tile_sort_rows_descending(k);                                \
            else tile_sort_rows(k);                                                \
            tile_store(tile_array2(o, R, C), k, 0, 0);                             \
        } else if (kind == 1) { /* register pairs */                             \
            tile_reg(T, k, R, C);                                                  \
            tile_reg(int32_t, v, R, C);                                            \
            tile_load(k, tile_array2(in, R, C), 0, 0);                             \
            tile_load(v, tile_array2(vin, R, C), 0, 0);                            \
            if (desc) tile_sort_pairs_rows_descending(k, v);                       \
            else tile_sort_pairs_rows(k, v);                                       \
            tile_store(tile_array2(o, R, C), k, 0, 0);                             \
            tile_store(tile_array2(ov, R, C), v, 0, 0);                            \
        } else { /* shared keys, pairs with register values (kind 3) */         \
            tile_shared(T, k, R, C);                                               \
            tile_load(k, tile_array2(in, R, C), 0, 0);                             \
            if (kind == 2) {                                                       \
                if (desc) tile_sort_rows_descending(k);                            \
                else tile_sort_rows(k);                                            \
            } else {                                                               \
                tile_reg(int32_t, v, R, C);                                        \
                tile_load(v, tile_array2(vin, R, C), 0, 0);                        \
                if (desc) tile_sort_pairs_rows_descending(k, v);                   \
                else tile_sort_pairs_rows(k, v);                                   \
                tile_store(tile_array2(ov, R, C), v, 0, 0);                        \
            }                                                                      \
            tile_store(tile_array2(o, R, C), k, 0, 0);                             \
        }                                                                          \
    }
/* X(name, T, type id, R, C) */
#define ROW_CASES(X)                                                               \
    X(r_f32_5x37, float, SR_F32, 5, 37)                                            \
    X(r_i32_16x16, int32_t, SR_I32, 16, 16)                                        \
    X(r_f64_1x100, double, SR_F64, 1, 100)                                         \
    X(r_i64_40x3, int64_t, SR_I64, 40, 3)                                          \
    X(r_f16_17x20, tile_f16, VX_F16, 17, 20)
#define DEF_ROW_CASE(name, T, ty, R, C) DEF_ROWS(name, T, R, C)
ROW_CASES(DEF_ROW_CASE)
#define RUN_ROWS(name, T, ty, R, C)                                                \
    do {                                                                           \
        T in[R * C], o[R * C];                                                     \
        int32_t vin[R * C], ov[R * C];                                             \
        for (int i = 0; i < R * C; ++i) vin[i] = i;                                \
        for (int p = 0; p < SR_NPATTERNS; ++p) {                                   \
            vx_fill(ty, in, R * C, p, 5u);                                         \
            for (int kind = 0; kind < 4; ++kind)                                   \
                for (int desc = 0; desc < 2; ++desc) {                             \
                    memset(o, 0xcd, sizeof o);                                     \
                    memset(ov, 0xcd, sizeof ov);                                   \
                    assert_tile_ok(tile_launch(TILE_CPU, name, tile_grid1(1), 64, in, vin, o, ov, desc, kind)); \
                    for (int r = 0; r < R; ++r) {                                  \
                        long first;                                                \
                        int32_t gi[C];                                             \
                        for (int c = 0; c < C; ++c) gi[c] = ov[r * C + c] - r * C; \
                        long bad = vx_check(ty, in + r * C, C, o + r * C, (kind & 1) ? gi : NULL, desc, 0, 0, &first); \
                        if (bad) {                                                 \
                            print_error("%s kind %d desc %d pattern %d row %d: %ld wrong, first at %ld\n", #name, \
                                        kind, desc, p, r, bad, first);             \
                            fail();                                                \
                        }                                                          \
                    }                                                              \
                }                                                                  \
        }                                                                          \
    } while (0);
static void test_sort_rows(void **state) {
    (void)state;
    ROW_CASES(RUN_ROWS)
}
TILE_KERNEL(doc_rows, 32, int32_t *o1, int32_t *o2) {
    const int32_t kin[6] = {3, 1, 2, 9, 7, 8};
    tile_reg(int32_t, k, 2, 3);
    tile_load(k, tile_array2(kin, 2, 3), 0, 0);
    tile_sort_rows(k);
    tile_store(tile_array2(o1, 2, 3), k, 0, 0);
    tile_load(k, tile_array2(kin, 2, 3), 0, 0);
    tile_sort_rows_descending(k);
    tile_store(tile_array2(o2, 2, 3), k, 0, 0);
}
static void test_doc_rows(void **state) {
    (void)state;
    int32_t a[6], b[6];
    assert_tile_ok(tile_launch(TILE_CPU, doc_rows, tile_grid1(1), 32, a, b));
    const int32_t ea[6] = {1, 2, 3, 7, 8, 9}, eb[6] = {3, 2, 1, 9, 8, 7};
    assert_memory_equal(a, ea, sizeof ea);
    assert_memory_equal(b, eb, sizeof eb);
}

/* ---- merge sort: a user struct by a user comparator ---- */
typedef struct {
    int32_t key;
    uint32_t tag; /* the input index: stability shows in it */
} ms_rec;
TILE_API int ms_less(ms_rec a, ms_rec b) { return a.key < b.key; }
#define MS_GREATER(a, b) ((a).key > (b).key)
#define FLT_LESS(a, b) ((a) < (b))
#define DEF_MS(name, N)                                                            \
    TILE_KERNEL_SMEM(name, 64, TILE_SMEM_BYTES(ms_rec, N) + TILE_SMEM_BYTES(int32_t, N), const ms_rec *in, \
                     const int32_t *vin, ms_rec *o, int32_t *ov, int kind) {       \
        if (kind == 0) {                                                           \
            tile_reg(ms_rec, k, N);                                                \
            tile_load(k, tile_array1(in, N), 0);                                   \
            tile_merge_sort(k, ms_less);                                           \
            tile_store(tile_array1(o, N), k, 0);                                   \
        } else if (kind == 1) {                                                    \
            tile_shared(ms_rec, k, N);                                             \
            tile_load(k, tile_array1(in, N), 0);                                   \
            tile_merge_sort(k, MS_GREATER);                                        \
            tile_store(tile_array1(o, N), k, 0);                                   \
        } else if (kind == 2) {                                                    \
            tile_reg(ms_rec, k, N);                                                \
            tile_shared(int32_t, v, N);                                            \
            tile_load(k, tile_array1(in, N), 0);                                   \
            tile_load(v, tile_array1(vin, N), 0);                                  \
            tile_merge_sort_pairs(k, v, ms_less);                                  \
            tile_store(tile_array1(o, N), k, 0);                                   \
            tile_store(tile_array1(ov, N), v, 0);                                  \
        } else {                                                                   \
            tile_shared(ms_rec, k, N);                                             \
            tile_reg(int32_t, v, N);                                               \
            tile_load(k, tile_array1(in, N), 0);                                   \
            tile_load(v, tile_array1(vin, N), 0);                                  \
            tile_merge_sort_pairs(k, v, MS_GREATER);                               \
            tile_store(tile_array1(o, N), k, 0);                                   \
            tile_store(tile_array1(ov, N), v, 0);                                  \
        }                                                                          \
    }
#define MS_CASES(X) X(ms_1, 1) X(ms_2, 2) X(ms_33, 33) X(ms_64, 64) X(ms_257, 257) X(ms_1000, 1000)
#define DEF_MS_CASE(name, N) DEF_MS(name, N)
MS_CASES(DEF_MS_CASE)
/* stable reference by key (descending when desc), ties by input index */
static int ms_ref_cmp(const void *a, const void *b) {
    const ms_rec *x = (const ms_rec *)a, *y = (const ms_rec *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->tag > y->tag) - (x->tag < y->tag);
}
static long ms_check(const ms_rec *in, int n, const ms_rec *o, const int32_t *ov, int desc) {
    ms_rec *r = (ms_rec *)malloc(sizeof(ms_rec) * (size_t)n);
    for (int i = 0; i < n; ++i) {
        r[i] = in[i];
        if (desc) r[i].key = -r[i].key; /* keys are small: no overflow */
    }
    qsort(r, (size_t)n, sizeof(ms_rec), ms_ref_cmp);
    long bad = 0;
    for (int i = 0; i < n; ++i) {
        const int32_t key = desc ? -r[i].key : r[i].key;
        bad += o[i].key != key || o[i].tag != r[i].tag || (ov && ov[i] != (int32_t)r[i].tag);
    }
    free(r);
    return bad;
}
#define RUN_MS(name, N)                                                            \
    do {                                                                           \
        ms_rec in[N], o[N];                                                        \
        int32_t vin[N], ov[N];                                                     \
        uint64_t s = 12345u + N;                                                   \
        for (int p = 0; p < 4; ++p) {                                              \
            for (int i = 0; i < N; ++i) {                                          \
                const uint64_t r = sr_rand(&s);                                    \
                in[i].key = p == 0 ? (int32_t)(r % 7u) - 3 : p == 1 ? (int32_t)(r >> 40) - (1 << 23) \
                                                            : p == 2 ? i : 5;     \
                in[i].tag = (uint32_t)i;                                           \
                vin[i] = i;                                                        \
            }                                                                      \
            for (int kind = 0; kind < 4; ++kind) {                                 \
                memset(o, 0xcd, sizeof o);                                         \
                memset(ov, 0xcd, sizeof ov);                                       \
                assert_tile_ok(tile_launch(TILE_CPU, name, tile_grid1(1), 64, in, vin, o, ov, kind)); \
                long bad = ms_check(in, N, o, kind >= 2 ? ov : NULL, kind & 1);    \
                if (bad) {                                                         \
                    print_error("%s kind %d pattern %d: %ld wrong\n", #name, kind, p, bad); \
                    fail();                                                        \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    } while (0);
/* a float tile by a comparator macro; the header's example */
TILE_KERNEL(ms_float, 64, const float *in, float *o) {
    tile_reg(float, k, 300);
    tile_load(k, tile_array1(in, 300), 0);
    tile_merge_sort(k, FLT_LESS);
    tile_store(tile_array1(o, 300), k, 0);
}
typedef struct {
    int32_t dept;
    float pay;
} emp;
TILE_API int by_dept(emp a, emp b) { return a.dept < b.dept; }
TILE_KERNEL(ms_doc, 32, emp *o) {
    const emp in[4] = {{2, 1.0f}, {1, 5.0f}, {2, 0.5f}, {1, 3.0f}};
    tile_reg(emp, staff, 4);
    tile_load(staff, tile_array1(in, 4), 0);
    tile_merge_sort(staff, by_dept);
    tile_store(tile_array1(o, 4), staff, 0);
}
static int flt_cmp(const void *a, const void *b) {
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}
static void test_merge_sort(void **state) {
    (void)state;
    MS_CASES(RUN_MS)
    float in[300], o[300], r[300];
    uint64_t s = 9;
    for (int i = 0; i < 300; ++i) in[i] = r[i] = (float)(int)(sr_rand(&s) % 1000u) * 0.25f - 100.0f;
    assert_tile_ok(tile_launch(TILE_CPU, ms_float, tile_grid1(1), 64, in, o));
    qsort(r, 300, sizeof(float), flt_cmp);
    assert_memory_equal(o, r, sizeof r);
    emp e[4];
    assert_tile_ok(tile_launch(TILE_CPU, ms_doc, tile_grid1(1), 32, e));
    assert_true(e[0].dept == 1 && e[0].pay == 5.0f && e[1].dept == 1 && e[1].pay == 3.0f);
    assert_true(e[2].dept == 2 && e[2].pay == 1.0f && e[3].dept == 2 && e[3].pay == 0.5f);
    assert_int_equal(TILE_MERGE_SORT_SMEM_BYTES(ms_rec, 4096, 256), 0);
    /* TILE_MERGE_SORT_PAD: one spare element after every 32 */
    assert_int_equal(TILE_MERGE_SORT_PAIRS_SMEM_BYTES(double, double, 4096, 256), TILE_MERGE_SORT_PAD ? 67584 : 65536);
    /* one thread: two copies (the serial merge sort) */
    assert_int_equal(TILE_MERGE_SORT_PAIRS_SMEM_BYTES(double, double, 4096, 1), TILE_MERGE_SORT_PAD ? 135168 : 131072);
    assert_int_equal(TILE_MERGE_SORT_SMEM_BYTES(float, 4096, 1), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_f32),    cmocka_unit_test(test_sort_i64),   cmocka_unit_test(test_sort_f64),
        cmocka_unit_test(test_sort_i32),    cmocka_unit_test(test_sort_u32),   cmocka_unit_test(test_sort_u64),
        cmocka_unit_test(test_doc_example), cmocka_unit_test(test_float_order), cmocka_unit_test(test_value_types),
        cmocka_unit_test(test_2d_views),    cmocka_unit_test(test_smem_bytes),
        cmocka_unit_test(test_ref_order),   cmocka_unit_test(test_sort_variants), cmocka_unit_test(test_doc_desc_bits),
        cmocka_unit_test(test_sort_rows),   cmocka_unit_test(test_doc_rows),     cmocka_unit_test(test_merge_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
