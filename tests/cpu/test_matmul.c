/* tile_matmul (include/tile/matmul.h) and the f16/bf16 conversions
 * (include/tile/half.h) on the CPU target, against independent references:
 * double-precision products computed here with plain loops, and conversions
 * checked through exact double arithmetic (ldexp) rather than the header's
 * integer code.
 *
 * Matmul: shapes 1x1x1 .. 56x48x20 and odd ones (3x5x7, 17x33x9), register
 * and shared operands mixed, alpha/beta (beta 0 never reads a NaN out), the
 * fresh-tile form, f32, f64, f16, bf16 inputs and tf32, views with strides.
 * Accumulators: a @ b summed over k windows loaded by tile_matmul_load_async
 * (16-byte copies and element copies), stored with alpha/beta at offsets
 * that put part of the product outside C; C's other elements unchanged.
 * examples/gemm_tiled.cu's kernel with small tiles walked in groups of tile
 * rows (partial groups) against a double product.
 */
#include "test_util.h"

/* ---- kernels: mm_<T>_<M>_<K>_<N>_<storage of a, b, out> ---- */
#define DECL_R(T, n, ...) tile_reg(T, n, __VA_ARGS__)
#define DECL_S(T, n, ...) tile_shared(T, n, __VA_ARGS__)
#define MMK(name, T, OT, M, K, N, SA, SB, SO)                                      \
    TILE_KERNEL_SMEM(name, 64, 2 * TILE_MATMUL_SMEM_BYTES(T, OT, M, N, K), const T *a, const T *b, OT *c, \
                     OT alpha, OT beta) {                                          \
        DECL_##SA(T, ta, M, K);                                                    \
        DECL_##SB(T, tb, K, N);                                                    \
        DECL_##SO(OT, tc, M, N);                                                   \
        tile_load(ta, tile_array2(a, M, K), 0, 0);                                 \
        tile_load(tb, tile_array2(b, K, N), 0, 0);                                 \
        tile_load(tc, tile_array2(c, M, N), 0, 0);                                 \
        tile_matmul_ab(tc, ta, tb, alpha, beta);                                   \
        tile_store(tile_array2(c, M, N), tc, 0, 0);                                \
    }
#define MMK_TF32(name, M, K, N)                                                    \
    TILE_KERNEL_SMEM(name, 64, 2 * TILE_MATMUL_SMEM_BYTES(float, float, M, N, K), const float *a, const float *b, \
                     float *c, float alpha, float beta) {                          \
        tile_reg(float, ta, M, K);                                                 \
        tile_shared(float, tb, K, N);                                              \
        tile_reg(float, tc, M, N);                                                 \
        tile_load(ta, tile_array2(a, M, K), 0, 0);                                 \
        tile_load(tb, tile_array2(b, K, N), 0, 0);                                 \
        tile_load(tc, tile_array2(c, M, N), 0, 0);                                 \
        tile_matmul_tf32_ab(tc, ta, tb, alpha, beta);                              \
        tile_store(tile_array2(c, M, N), tc, 0, 0);                                \
    }

#define MM_LIST(X)                                                                 \
    X(mm_f32_1_1_1_RRR, float, float, 1, 1, 1, R, R, R)                            \
    X(mm_f32_3_5_7_RRR, float, float, 3, 5, 7, R, R, R)                            \
    X(mm_f32_3_5_7_SSS, float, float, 3, 5, 7, S, S, S)                            \
    X(mm_f32_17_33_9_RSR, float, float, 17, 33, 9, R, S, R)                        \
    X(mm_f32_17_33_9_SRS, float, float, 17, 33, 9, S, R, S)                        \
    X(mm_f32_56_48_20_RRS, float, float, 56, 48, 20, R, R, S)                      \
    X(mm_f32_16_16_16_SSR, float, float, 16, 16, 16, S, S, R)                      \
    X(mm_f32_64_64_64_SSS, float, float, 64, 64, 64, S, S, S)                      \
    X(mm_f32_8_8_4_RRR, float, float, 8, 8, 4, R, R, R)                            \
    X(mm_f64_3_5_7_RRR, double, double, 3, 5, 7, R, R, R)                          \
    X(mm_f64_17_33_9_SSR, double, double, 17, 33, 9, S, S, R)                      \
    X(mm_f64_32_32_32_RSS, double, double, 32, 32, 32, R, S, S)                    \
    X(mm_f32f64_5_6_7_RRR, float, double, 5, 6, 7, R, R, R)                        \
    X(mm_f16_1_1_1_RRR, tile_f16, float, 1, 1, 1, R, R, R)                         \
    X(mm_f16_17_33_9_SRR, tile_f16, float, 17, 33, 9, S, R, R)                     \
    X(mm_f16_32_32_32_SSS, tile_f16, float, 32, 32, 32, S, S, S)                   \
    X(mm_bf16_3_5_7_RRR, tile_bf16, float, 3, 5, 7, R, R, R)                       \
    X(mm_bf16_56_48_20_RSS, tile_bf16, float, 56, 48, 20, R, S, S)                 \
    X(mm_bf16_64_32_48_SSR, tile_bf16, float, 64, 32, 48, S, S, R)
#define MM_DEF(name, T, OT, M, K, N, SA, SB, SO) MMK(name, T, OT, M, K, N, SA, SB, SO)
MM_LIST(MM_DEF)
MMK_TF32(mm_tf32_17_33_9, 17, 33, 9)
MMK_TF32(mm_tf32_32_32_32, 32, 32, 32)

enum { T_F32, T_F64, T_F16, T_BF16 };
/* test value i of matrix `salt`: quarters in [-8, 8), exact in every type */
static double mval(int i, int salt) { return tu_val(i, salt, 1) / 6.25 >= 0 ? (double)((int)(tu_val(i, salt, 1) * 4) % 64) / 4.0 - 8.0 : -(double)((int)(-tu_val(i, salt, 1) * 4) % 64) / 4.0; }
static void put(int t, void *p, int i, double v) {
    if (t == T_F32) ((float *)p)[i] = (float)v;
    else if (t == T_F64) ((double *)p)[i] = v;
    else if (t == T_F16) ((tile_f16 *)p)[i] = tile_f32_to_f16((float)v);
    else ((tile_bf16 *)p)[i] = tile_f32_to_bf16((float)v);
}
static size_t tsize(int t) { return t == T_F32 ? 4 : t == T_F64 ? 8 : 2; }

typedef struct {
    int in, out, M, K, N;
    double alpha, beta;
} mm_case;
/* runs the case through `launch` and compares with the double reference */
#define RUN_CASE(kname, in_t, out_t, M_, K_, N_, alpha_, beta_, poison)            \
    do {                                                                           \
        enum { M = M_, K = K_, N = N_ };                                           \
        void *a = malloc(tsize(in_t) * M * K), *b = malloc(tsize(in_t) * K * N);   \
        void *c = malloc(tsize(out_t) * M * N);                                    \
        double *c0 = malloc(sizeof(double) * M * N);                               \
        for (int i = 0; i < M * K; ++i) put(in_t, a, i, mval(i, 1));               \
        for (int i = 0; i < K * N; ++i) put(in_t, b, i, mval(i, 2));               \
        for (int i = 0; i < M * N; ++i) {                                          \
            c0[i] = (poison) ? NAN : mval(i, 3);                                   \
            put(out_t, c, i, c0[i]);                                               \
        }                                                                          \
        if (out_t == T_F32)                                                        \
            assert_tile_ok(tile_launch(TILE_CPU, kname, tile_grid1(1), 64, a, b, c, (float)(alpha_), (float)(beta_))); \
        else                                                                       \
            assert_tile_ok(tile_launch(TILE_CPU, kname, tile_grid1(1), 64, a, b, c, (double)(alpha_), (double)(beta_))); \
        for (int i = 0; i < M; ++i)                                                \
            for (int j = 0; j < N; ++j) {                                          \
                double s = 0, sa = 0;                                              \
                for (int k = 0; k < K; ++k) {                                      \
                    s += mval(i * K + k, 1) * mval(k * N + j, 2);                  \
                    sa += fabs(mval(i * K + k, 1) * mval(k * N + j, 2));           \
                }                                                                  \
                double ref = (alpha_) * s + ((beta_) != 0 ? (beta_) * c0[i * N + j] : 0.0); \
                double got = out_t == T_F32 ? ((float *)c)[i * N + j] : ((double *)c)[i * N + j]; \
                double tol = (out_t == T_F32 ? 1e-6 : 1e-14) * (fabs(alpha_) * sa + fabs(beta_) * 10 + 1); \
                if (!(fabs(got - ref) <= tol)) {                                   \
                    print_error("%s (%d,%d): got %.17g, expected %.17g\n", #kname, i, j, got, ref); \
                    fail();                                                        \
                }                                                                  \
            }                                                                      \
        free(a), free(b), free(c), free(c0);                                       \
    } while (0)

#define TYPE_OF_float T_F32
#define TYPE_OF_double T_F64
#define TYPE_OF_tile_f16 T_F16
#define TYPE_OF_tile_bf16 T_BF16
#define RUN_ALL(name, T, OT, M, K, N, SA, SB, SO)                                  \
    RUN_CASE(name, TYPE_OF_##T, TYPE_OF_##OT, M, K, N, 1.0, 1.0, 0);               \
    RUN_CASE(name, TYPE_OF_##T, TYPE_OF_##OT, M, K, N, -0.5, 2.0, 0);              \
    RUN_CASE(name, TYPE_OF_##T, TYPE_OF_##OT, M, K, N, 1.0, 0.0, 1);

static void test_matmul_shapes(void **state) {
    (void)state;
    MM_LIST(RUN_ALL)
}
static void test_matmul_tf32(void **state) {
    (void)state;
    /* the test values have <= 6 significant bits: exact in tf32 */
    RUN_CASE(mm_tf32_17_33_9, T_F32, T_F32, 17, 33, 9, 1.0, 1.0, 0);
    RUN_CASE(mm_tf32_32_32_32, T_F32, T_F32, 32, 32, 32, 2.0, 0.0, 1);
    /* rounding: 10 mantissa bits, nearest, ties away from zero */
    assert_true(tile_f32_round_tf32(1.0f + ldexpf(1.0f, -11)) == 1.0f + ldexpf(1.0f, -10)); /* tie: away */
    assert_true(tile_f32_round_tf32(1.0f + ldexpf(1.0f, -12)) == 1.0f);
    assert_true(tile_f32_round_tf32(-1.0f - ldexpf(1.0f, -11)) == -1.0f - ldexpf(1.0f, -10));
    assert_true(isinf(tile_f32_round_tf32(INFINITY)) && isnan(tile_f32_round_tf32(NAN)));
}

/* the header's example: a = [[1 2] [3 4]], b = [[5 6] [7 8]], out = 1 */
TILE_KERNEL_SMEM(mm_doc, 32, TILE_MATMUL_SMEM_BYTES(float, float, 2, 2, 2) * 2, const float *a, const float *b,
                 float *out) {
    tile_reg(float, ta, 2, 2);
    tile_reg(float, tb, 2, 2);
    tile_reg(float, o, 2, 2);
    tile_load(ta, tile_array2(a, 2, 2), 0, 0);
    tile_load(tb, tile_array2(b, 2, 2), 0, 0);
    tile_ones(o);
    tile_matmul(o, ta, tb);
    tile_store(tile_array2(out, 2, 2), o, 0, 0);
    tile_ones(o);
    tile_matmul_ab(o, ta, tb, 2.0f, 0.0f);
    tile_store(tile_array2(out + 4, 2, 2), o, 0, 0);
    tile_matmul_new(c, ta, tb);
    tile_store(tile_array2(out + 8, 2, 2), c, 0, 0);
}
/* a view: the 3x4 block at (1, 2) of an 8x8 shared tile times a 4x2 view */
TILE_KERNEL_SMEM(mm_view, 32, 4096, const float *a, float *out) {
    tile_shared(float, s, 8, 8);
    tile_load(s, tile_array2(a, 8, 8), 0, 0);
    tile_view(va, s, (3, 4), (1, 2));
    tile_view(vb, s, (4, 2), (4, 5));
    tile_shared(float, o, 3, 2);
    tile_matmul_ab(o, va, vb, 1.0f, 0.0f);
    tile_store(tile_array2(out, 3, 2), o, 0, 0);
}
/* a k-major a: the tile_transpose_view of a 12 x (16 + 4) shared tile holding
 * a^T, times b (12 x 16): the FMA path's 16-byte reads of a thread's rows of
 * one k (8 x 8 micro-tiles on the CPU's one thread); 12 x 20 also as a
 * matmul_load_async'd view (element copies into the transposed view) */
TILE_KERNEL_SMEM(mm_kmajor, 32, 8192, const float *at, const float *b, float *out) {
    tile_shared(float, sat, 12, 20);
    tile_view(vat, sat, (12, 16), (0, 0));
    tile_transpose_view(va, vat); /* 16 x 12, strides (1, 20) */
    tile_matmul_load_async(va, tile_array2(at + 240, 16, 12), 0, 0); /* a itself, row-major in memory */
    tile_async_commit();
    tile_async_wait(0);
    tile_shared(float, sb, 12, 16);
    tile_load(sb, tile_array2(b, 12, 16), 0, 0);
    tile_shared(float, o, 16, 16);
    tile_matmul_ab(o, va, sb, 1.0f, 0.0f);
    tile_store(tile_array2(out, 16, 16), o, 0, 0);
    tile_load(sat, tile_array2(at, 12, 20), 0, 0); /* a^T, row-major: a's columns */
    tile_matmul_ab(o, va, sb, 1.0f, 0.0f);
    tile_store(tile_array2(out + 256, 16, 16), o, 0, 0);
}
static void test_matmul_kmajor(void **state) {
    (void)state;
    static float at[12 * 20 + 16 * 12], b[12 * 16], out[512];
    for (int k = 0; k < 12; ++k)
        for (int i = 0; i < 20; ++i) at[k * 20 + i] = (float)((k * 7 + i * 3) % 11) - 5.0f; /* a[i][k] for i < 16 */
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 12; ++k) at[240 + i * 12 + k] = at[k * 20 + i];
    for (int i = 0; i < 12 * 16; ++i) b[i] = (float)(i % 9) - 4.0f;
    assert_tile_ok(tile_launch(TILE_CPU, mm_kmajor, tile_grid1(1), 32, at, b, out));
    for (int v = 0; v < 2; ++v)
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) {
                double r = 0;
                for (int k = 0; k < 12; ++k) r += (double)at[k * 20 + i] * b[k * 16 + j];
                if (out[v * 256 + i * 16 + j] != (float)r)
                    fail_msg("k-major a, %s: C[%d][%d] = %g, expected %g", v ? "tile_load" : "matmul_load_async", i, j,
                             (double)out[v * 256 + i * 16 + j], r);
            }
}
static void test_matmul_doc_and_views(void **state) {
    (void)state;
    const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    const float want[12] = {20, 23, 44, 51, 38, 44, 86, 100, 19, 22, 43, 50};
    float out[12];
    assert_tile_ok(tile_launch(TILE_CPU, mm_doc, tile_grid1(1), 32, a, b, out));
    assert_memory_equal(out, want, sizeof want);
    float s[64], o[6];
    for (int i = 0; i < 64; ++i) s[i] = (float)(i % 7) - 3.0f;
    assert_tile_ok(tile_launch(TILE_CPU, mm_view, tile_grid1(1), 32, s, o));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) {
            double r = 0;
            for (int k = 0; k < 4; ++k) r += (double)s[(1 + i) * 8 + 2 + k] * s[(4 + k) * 8 + 5 + j];
            assert_true(o[i * 2 + j] == (float)r);
        }
    assert_int_equal(TILE_MATMUL_SMEM_BYTES(float, float, 64, 64, 64), 49152);
}

/* ---- f16 / bf16 conversions against exact double references ---- */
/* ---- accumulators (tile_matmul_acc): a @ b summed over k windows of KW,
 * operands by tile_matmul_load_async into shared views (rows padded by
 * PAD), stored with alpha/beta at (o0, o1) into a cm x cn C ---- */
#define ACCK(name, T, OT, M, N, KW, PAD)                                           \
    TILE_KERNEL_SMEM(name, 64, TILE_SMEM_BYTES(T, M, (KW) + (PAD)) + TILE_SMEM_BYTES(T, KW, (N) + (PAD)), \
                     const T *A, const T *B, OT *C, int K, int cm, int cn, int o0, int o1, OT alpha, OT beta) { \
        tile_shared(T, ap, M, (KW) + (PAD));                                       \
        tile_shared(T, bp, KW, (N) + (PAD));                                       \
        tile_view(a, ap, (M, KW), (0, 0));                                         \
        tile_view(b, bp, (KW, N), (0, 0));                                         \
        tile_matmul_acc(acc, a, b);                                                \
        for (int k0 = 0; k0 < K; k0 += (KW)) {                                     \
            tile_matmul_load_async(a, tile_array2(A, M, K), 0, k0);                \
            tile_matmul_load_async(b, tile_array2(B, K, N), k0, 0);                \
            tile_async_commit();                                                   \
            tile_async_wait(0);                                                    \
            tile_matmul_acc_add(acc, a, b);                                        \
        }                                                                          \
        tile_matmul_acc_store_ab(tile_array2(C, cm, cn), acc, alpha, beta, o0, o1); \
    }
/* name, in, out, M, N, KW, PAD, K, C's shape, offsets: 16-byte copies and
 * a partial last window (K 40 = 16 + 16 + 8); odd windows (element copies);
 * C partly outside, negative offsets */
#define ACC_LIST(X)                                                                \
    X(acc_bf16_64x48, tile_bf16, float, 64, 48, 16, 8, 40, 64, 48, 0, 0)           \
    X(acc_f16_20x12, tile_f16, float, 20, 12, 9, 0, 21, 20, 14, -3, 5)             \
    X(acc_f32_17x33, float, float, 17, 33, 9, 0, 20, 30, 40, 5, 3)                 \
    X(acc_f32_32x32, float, float, 32, 32, 8, 0, 32, 32, 32, 0, 0)                 \
    X(acc_f64_24x20, double, double, 24, 20, 8, 0, 13, 24, 20, 0, 0)
#define ACC_DEF(name, T, OT, M, N, KW, PAD, K, cm, cn, o0, o1) ACCK(name, T, OT, M, N, KW, PAD)
ACC_LIST(ACC_DEF)

/* beta 0 starts C at NaN (not read); C outside the product keeps its values */
#define RUN_ACC(name, in_t, out_t, M, N, K, cm, cn, o0, o1, al, be)                \
    do {                                                                           \
        void *a = malloc(tsize(in_t) * M * K), *b = malloc(tsize(in_t) * K * N);   \
        void *c = malloc(tsize(out_t) * cm * cn);                                  \
        double *c0 = malloc(sizeof(double) * cm * cn);                             \
        for (int i = 0; i < M * K; ++i) put(in_t, a, i, mval(i, 4));               \
        for (int i = 0; i < K * N; ++i) put(in_t, b, i, mval(i, 5));               \
        for (int i = 0; i < cm * cn; ++i) put(out_t, c, i, c0[i] = (be) == 0 ? NAN : mval(i, 6)); \
        if (out_t == T_F32)                                                        \
            assert_tile_ok(tile_launch(TILE_CPU, name, tile_grid1(1), 64, a, b, c, K, cm, cn, o0, o1, (float)(al), \
                                       (float)(be)));                              \
        else                                                                       \
            assert_tile_ok(tile_launch(TILE_CPU, name, tile_grid1(1), 64, a, b, c, K, cm, cn, o0, o1, (double)(al), \
                                       (double)(be)));                             \
        for (int r = 0; r < cm; ++r)                                               \
            for (int q = 0; q < cn; ++q) {                                         \
                const int i = r - (o0), j = q - (o1);                              \
                double ref = c0[r * cn + q], tol = 0;                              \
                if (i >= 0 && i < M && j >= 0 && j < N) {                          \
                    double s = 0, sa = 0;                                          \
                    for (int k = 0; k < K; ++k) {                                  \
                        s += mval(i * K + k, 4) * mval(k * N + j, 5);              \
                        sa += fabs(mval(i * K + k, 4) * mval(k * N + j, 5));       \
                    }                                                              \
                    ref = (al) * s + ((be) != 0 ? (be) * c0[r * cn + q] : 0.0);    \
                    tol = (out_t == T_F32 ? 1e-6 : 1e-14) * (fabs(al) * sa + fabs(be) * 10 + 1); \
                }                                                                  \
                const double got = out_t == T_F32 ? ((float *)c)[r * cn + q] : ((double *)c)[r * cn + q]; \
                if (ref != ref ? got == got : !(fabs(got - ref) <= tol)) {         \
                    print_error("%s C(%d,%d): got %.17g, expected %.17g\n", #name, r, q, got, ref); \
                    fail();                                                        \
                }                                                                  \
            }                                                                      \
        free(a), free(b), free(c), free(c0);                                       \
    } while (0)
#define RUN_ACC_ALL(name, T, OT, M, N, KW, PAD, K, cm, cn, o0, o1)                 \
    RUN_ACC(name, TYPE_OF_##T, TYPE_OF_##OT, M, N, K, cm, cn, o0, o1, 1.0, 0.0);   \
    RUN_ACC(name, TYPE_OF_##T, TYPE_OF_##OT, M, N, K, cm, cn, o0, o1, -0.5, 2.0);

/* the header's example: acc += a @ b twice, a = [[1 2] [3 4]], b = [[5 6] [7 8]] */
TILE_KERNEL_SMEM(acc_doc, 32, 64, const float *a, const float *b, float *out) {
    tile_shared(float, ta, 2, 2);
    tile_shared(float, tb, 2, 2);
    tile_load(ta, tile_array2(a, 2, 2), 0, 0);
    tile_load(tb, tile_array2(b, 2, 2), 0, 0);
    tile_matmul_acc(acc, ta, tb);
    tile_matmul_acc_add(acc, ta, tb);
    tile_matmul_acc_add(acc, ta, tb);
    tile_matmul_acc_store(tile_array2(out, 2, 2), acc, 0, 0);
}
static void test_matmul_acc(void **state) {
    (void)state;
    ACC_LIST(RUN_ACC_ALL)
    const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, want[4] = {38, 44, 86, 100};
    float out[4];
    assert_tile_ok(tile_launch(TILE_CPU, acc_doc, tile_grid1(1), 32, a, b, out));
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(TILE_MATMUL_PAD(tile_bf16), 8);
    assert_int_equal(TILE_MATMUL_PAD(float), 0);
}

/* ---- examples/gemm_tiled.cu's kernel (the large GEMM) with small tiles
 * walked in groups of tile rows (GROUP 3 and 2: the last group partial, its
 * missing rows' blocks leave at once), a partial last k window; f32 with the
 * one-barrier pipeline (BAR1: tile_matmul_load_async_nosync, window k + 2
 * into the stage of window k - 1), bf16 with the default one ---- */
#define GEMM_TILED_NO_MAIN
#define GEMM_F32_BM 32
#define GEMM_F32_BN 48
#define GEMM_F32_BK 8
#define GEMM_F32_GROUP 3
#define GEMM_F32_BAR1 1
#define GEMM_BF16_BM 32
#define GEMM_BF16_BN 64
#define GEMM_BF16_GROUP 2
#include "../../examples/gemm_tiled.cu"
static void test_gemm_tiled_groups(void **state) {
    (void)state;
    (void)example_target, (void)example_check;
    enum { M = 150, N = 100, K = 37 }; /* 5 tile rows: groups of 3 (+1 empty) / 2 (+1 empty) */
    static float fa[M * K], fb[K * N], c[M * N];
    static tile_bf16 ha[M * K], hb[K * N];
    for (int bf = 0; bf < 2; ++bf) {
        for (int i = 0; i < M * K; ++i) {
            ha[i] = tile_f32_to_bf16(tile_hash_unit(21, (uint32_t)i) - 0.5f);
            fa[i] = bf ? tile_bf16_to_f32(ha[i]) : tile_hash_unit(21, (uint32_t)i) - 0.5f;
        }
        for (int i = 0; i < K * N; ++i) {
            hb[i] = tile_f32_to_bf16(tile_hash_unit(22, (uint32_t)i) - 0.5f);
            fb[i] = bf ? tile_bf16_to_f32(hb[i]) : tile_hash_unit(22, (uint32_t)i) - 0.5f;
        }
        for (int i = 0; i < M * N; ++i) c[i] = NAN; /* an element never written fails */
        assert_tile_ok(gemm_launch(TILE_CPU, bf, bf ? (const void *)ha : (const void *)fa,
                                   bf ? (const void *)hb : (const void *)fb, c, M, N, K));
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                double r = 0;
                for (int k = 0; k < K; ++k) r += (double)fa[i * K + k] * fb[k * N + j];
                if (!(fabs(c[i * N + j] - r) <= 1e-5 * K)) fail_msg("gemm_tiled %s C[%d][%d] = %g, expected %g", bf ? "bf16" : "f32", i, j, (double)c[i * N + j], r);
            }
    }
}

static double ref_f16(unsigned h) { /* IEEE binary16 value, by its definition */
    const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return s ? -v : v;
}
static double ref_bf16(unsigned h) {
    const int s = h >> 15, e = (h >> 7) & 255, m = h & 127;
    double v = e == 0 ? ldexp(m, -133) : e == 255 ? (m ? NAN : INFINITY) : ldexp(128 + m, e - 134);
    return s ? -v : v;
}
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
/* nearest of the finite values (ref, sorted by magnitude), ties to even bits,
 * overflow to inf past max + half an ulp: the reference rounding */
static unsigned ref_round(double x, double (*dec)(unsigned), unsigned inf_bits, int mant_bits) {
    unsigned sign = x < 0 ? 0x8000u : 0, lo = 0, hi = inf_bits; /* bisect magnitudes */
    double ax = fabs(x);
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (dec(mid) <= ax) lo = mid; else hi = mid;
    }
    double vlo = dec(lo), vhi = hi == inf_bits ? ldexp(dec(inf_bits - 1), 0) + ldexp(1.0, 0) * (dec(inf_bits - 1) - dec(inf_bits - 2)) : dec(hi);
    (void)mant_bits;
    if (ax - vlo < vhi - ax) return sign | lo;
    if (ax - vlo > vhi - ax) return sign | hi;
    return sign | ((lo & 1) ? hi : lo);
}
static void test_half_all_patterns(void **state) {
    (void)state;
    long bad = 0;
    for (unsigned h = 0; h < 65536; ++h) {
        double r16 = ref_f16(h), rb = ref_bf16(h);
        float f = tile_f16_to_f32(tile_f16_from_bits((uint16_t)h)), g = tile_bf16_to_f32(tile_bf16_from_bits((uint16_t)h));
        if (isnan(r16) ? !isnan(f) : (double)f != r16 || !signbit(f) != !signbit(r16)) ++bad;
        if (isnan(rb) ? !isnan(g) : (double)g != rb || !signbit(g) != !signbit(rb)) ++bad;
        /* and back: every value round-trips; NaN stays NaN with its sign */
        uint16_t h2 = tile_f32_to_f16(f).bits, b2 = tile_f32_to_bf16(g).bits;
        if (isnan(r16) ? ((h2 & 0x7c00) != 0x7c00 || !(h2 & 0x3ff) || (h2 ^ h) & 0x8000) : h2 != h) ++bad;
        if (isnan(rb) ? ((b2 & 0x7f80) != 0x7f80 || !(b2 & 0x7f) || (b2 ^ h) & 0x8000) : b2 != h) ++bad;
    }
    assert_int_equal(bad, 0);
}
/* midpoints between neighbours (ties: to even), a float ulp either side of
 * them, and pseudo-random floats of every magnitude, against ref_round */
static void test_half_rounding(void **state) {
    (void)state;
    long bad = 0, n = 0;
    for (unsigned h = 0; h < 0x7c00; ++h) { /* f16 finite positives */
        double v0 = ref_f16(h), v1 = h + 1 < 0x7c00 ? ref_f16(h + 1) : 65520.0;
        float mid = (float)((v0 + v1) / 2); /* exact: 12 significant bits */
        float xs[3] = {mid, nextafterf(mid, 0), nextafterf(mid, INFINITY)};
        for (int k = 0; k < 3; ++k)
            for (int sg = 0; sg < 2; ++sg) {
                float x = sg ? -xs[k] : xs[k];
                unsigned want = ref_round(x, ref_f16, 0x7c00, 10);
                bad += tile_f32_to_f16(x).bits != want, ++n;
            }
    }
    for (unsigned h = 0; h < 0x7f80; ++h) { /* bf16 finite positives */
        double v0 = ref_bf16(h), v1 = h + 1 < 0x7f80 ? ref_bf16(h + 1) : ldexp(1.0, 128);
        float mid = (float)((v0 + v1) / 2);
        if (h + 1 == 0x7f80) mid = (float)(v0 + (v0 - ref_bf16(h - 1)) / 2); /* max + half ulp: ties to inf */
        float xs[3] = {mid, nextafterf(mid, 0), nextafterf(mid, INFINITY)};
        for (int k = 0; k < 3; ++k) {
            float x = xs[k];
            if (isinf(x)) continue;
            unsigned want = ref_round(x, ref_bf16, 0x7f80, 7);
            bad += tile_f32_to_bf16(x).bits != want, ++n;
        }
    }
    for (uint32_t i = 0; i < 2000000; ++i) { /* random bit patterns (finite) */
        uint32_t u = tile_hash32(99, i);
        float x;
        memcpy(&x, &u, 4);
        if (isnan(x) || isinf(x)) continue;
        bad += tile_f32_to_f16(x).bits != ref_round(x, ref_f16, 0x7c00, 10);
        bad += tile_f32_to_bf16(x).bits != ref_round(x, ref_bf16, 0x7f80, 7);
        n += 2;
    }
    /* fixed points from the header */
    bad += tile_f32_to_bf16(1.00390625f).bits != 0x3f80;
    bad += tile_f32_to_f16(65520.0f).bits != 0x7c00;
    bad += tile_f32_to_f16(65519.996f).bits != 0x7bff;
    bad += tile_f32_to_f16(INFINITY).bits != 0x7c00 || tile_f32_to_f16(-INFINITY).bits != 0xfc00;
    bad += tile_f32_to_bf16(-INFINITY).bits != 0xff80;
    bad += (tile_f32_to_bf16(NAN).bits & 0x7fc0) != 0x7fc0;
    /* a NaN whose payload lies only in the dropped bits stays NaN */
    bad += (tile_f32_to_bf16(tile__bits_f32(0x7f800001u)).bits & 0x7f) == 0;
    bad += (tile_f32_to_f16(tile__bits_f32(0xff800001u)).bits & 0x3ff) == 0;
    bad += tile_f32_to_f16(ldexpf(1.0f, -25)).bits != 0 || tile_f32_to_f16(nextafterf(ldexpf(1.0f, -25), 1)).bits != 1;
    (void)fbits;
    if (bad) print_error("%ld of %ld conversions differ\n", bad, n);
    assert_int_equal(bad, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul_shapes),
        cmocka_unit_test(test_matmul_tf32),
        cmocka_unit_test(test_matmul_doc_and_views),
        cmocka_unit_test(test_matmul_acc),
        cmocka_unit_test(test_gemm_tiled_groups),
        cmocka_unit_test(test_matmul_kmajor),
        cmocka_unit_test(test_half_all_patterns),
        cmocka_unit_test(test_half_rounding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
