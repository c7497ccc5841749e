/* The host linear-algebra API (include/tile/host/blas.h, solver.h) on the
 * CPU, as plain C11: gemm and strided batched gemm against a double
 * reference (shapes across the packing blocks, odd sizes, padded leading
 * dimensions, every transpose pair, alpha/beta cases, beta = 0 over NaN),
 * batched potrf / potrs against the double Cholesky of tests/chol_ref.h and
 * residuals (potrf's result is L itself: strictly upper triangle zero; potrs
 * reads only the lower triangle), non-SPD and NaN inputs (info,
 * TILE_ERR_NOT_SPD on the CPU, NaN columns),
 * the headers' examples, argument errors, and a GPU exec in a C11 build
 * (TILE_ERR_NO_CUDA). */
#include "test_util.h"
#include <tile/host/blas.h>
#include <tile/host/solver.h>
#include "../chol_ref.h"
#include "../host_ref.h"

/* ---------------- gemm ---------------- */
/* reference: C = alpha op(A) op(B) + beta C in double; bound[i] = the sum of
 * the magnitudes of the terms (the scale of the rounding error) */
static void ref_gemm(int ta, int tb, int m, int n, int k, double alpha, const double *A, int lda, const double *B,
                     int ldb, double beta, const double *C0, int ldc, double *out, double *bound) {
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0, b = 0;
            for (int p = 0; p < k; ++p) {
                const double a = ta ? A[(size_t)p * lda + i] : A[(size_t)i * lda + p];
                const double x = tb ? B[(size_t)j * ldb + p] : B[(size_t)p * ldb + j];
                s += a * x;
                b += fabs(a * x);
            }
            const double c = beta == 0 ? 0 : beta * C0[(size_t)i * ldc + j];
            out[(size_t)i * n + j] = alpha * s + c;
            bound[(size_t)i * n + j] = fabs(alpha) * b + fabs(c);
        }
}

typedef struct gcase {
    int m, n, k;
} gcase;
static const gcase g_shapes[] = {{1, 1, 1},   {3, 5, 7},    {16, 16, 16}, {17, 33, 9},  {64, 64, 64},
                                 {65, 130, 129}, {5, 600, 3}, {130, 7, 260}, {1, 513, 2}, {37, 1, 41}};
static const double g_ab[][2] = {{1, 0}, {2.5, -0.5}, {0, 2}, {-1, 1}};

/* one gemm of type T: every shape, transpose pair, (alpha, beta) and both
 * tight and padded leading dimensions; C's padding must stay untouched */
#define GEMM_TEST(sfx, T, EPS)                                                     \
    static void test_gemm_##sfx(void **state) {                                    \
        (void)state;                                                               \
        long cases = 0;                                                            \
        for (size_t si = 0; si < sizeof g_shapes / sizeof g_shapes[0]; ++si)       \
            for (int tr = 0; tr < 4; ++tr)                                         \
                for (int ab = 0; ab < 4; ++ab)                                     \
                    for (int pad = 0; pad < 2; ++pad) {                            \
                        const int m = g_shapes[si].m, n = g_shapes[si].n, k = g_shapes[si].k; \
                        const int ta = tr & 1, tb = tr >> 1;                       \
                        const int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n; \
                        const int lda = ac + 3 * pad, ldb = bc + 5 * pad, ldc = n + 2 * pad; \
                        const double alpha = g_ab[ab][0], beta = g_ab[ab][1];     \
                        T *A = (T *)malloc(sizeof(T) * (size_t)ar * lda);          \
                        T *B = (T *)malloc(sizeof(T) * (size_t)br * ldb);          \
                        T *C = (T *)malloc(sizeof(T) * (size_t)m * ldc);           \
                        double *dA = (double *)malloc(sizeof(double) * (size_t)ar * lda); \
                        double *dB = (double *)malloc(sizeof(double) * (size_t)br * ldb); \
                        double *dC = (double *)malloc(sizeof(double) * (size_t)m * ldc); \
                        double *ref = (double *)malloc(sizeof(double) * (size_t)m * n); \
                        double *bnd = (double *)malloc(sizeof(double) * (size_t)m * n); \
                        for (int i = 0; i < ar * lda; ++i) dA[i] = A[i] = (T)uval(1 + (uint32_t)si, (uint32_t)i); \
                        for (int i = 0; i < br * ldb; ++i) dB[i] = B[i] = (T)uval(2 + (uint32_t)si, (uint32_t)i); \
                        for (int i = 0; i < m * ldc; ++i) {                        \
                            const int j = i % ldc;                                 \
                            /* beta = 0 must not read C: NaN there */             \
                            dC[i] = C[i] = j >= n ? (T)1234 : beta == 0 ? (T)NAN : (T)uval(3, (uint32_t)i); \
                        }                                                          \
                        ref_gemm(ta, tb, m, n, k, alpha, dA, lda, dB, ldb, beta, dC, ldc, ref, bnd); \
                        assert_tile_ok(tile_gemm_##sfx(tile_cpu(), ta, tb, m, n, k, (T)alpha, A, lda, B, ldb, \
                                                       (T)beta, C, ldc));          \
                        for (int i = 0; i < m; ++i)                                \
                            for (int j = 0; j < ldc; ++j) {                        \
                                const double got = C[(size_t)i * ldc + j];         \
                                if (j >= n) {                                      \
                                    assert_true(got == 1234);                      \
                                    continue;                                      \
                                }                                                  \
                                const double r = ref[(size_t)i * n + j], tol = 4 * (k + 2) * EPS * (bnd[(size_t)i * n + j] + 1e-30); \
                                if (!(fabs(got - r) <= tol)) {                     \
                                    print_error("gemm %s m=%d n=%d k=%d ta=%d tb=%d alpha=%g beta=%g pad=%d (%d,%d): " \
                                                "got %.17g, expected %.17g\n", #sfx, m, n, k, ta, tb, alpha, beta, \
                                                pad, i, j, got, r);                \
                                    fail();                                        \
                                }                                                  \
                            }                                                      \
                        ++cases;                                                   \
                        free(A), free(B), free(C), free(dA), free(dB), free(dC), free(ref), free(bnd); \
                    }                                                              \
        assert_int_equal(cases, (long)(sizeof g_shapes / sizeof g_shapes[0]) * 32); \
    }
GEMM_TEST(f32, float, 1.2e-7)
GEMM_TEST(f64, double, 2.3e-16)

/* strided batched: 3 products with gaps between them (untouched), every
 * transpose pair, each product against the reference; the path argument is
 * accepted and ignored on the CPU */
#define GEMM_BATCH_TEST(sfx, T, EPS)                                               \
    static void test_gemm_batched_##sfx(void **state) {                           \
        (void)state;                                                               \
        const int m = 19, n = 23, k = 21, batch = 3;                               \
        for (int tr = 0; tr < 4; ++tr)                                             \
            for (int path = 0; path < 3; ++path) {                                 \
                const int ta = tr & 1, tb = tr >> 1;                               \
                const int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n; \
                const long long sa = (long long)ar * ac + 7, sb = (long long)br * bc + 1, sc = (long long)m * n + 11; \
                T *A = (T *)malloc(sizeof(T) * (size_t)sa * batch);                \
                T *B = (T *)malloc(sizeof(T) * (size_t)sb * batch);                \
                T *C = (T *)malloc(sizeof(T) * (size_t)sc * batch);                \
                double *dA = (double *)malloc(sizeof(double) * (size_t)sa * batch); \
                double *dB = (double *)malloc(sizeof(double) * (size_t)sb * batch); \
                double *dC = (double *)malloc(sizeof(double) * (size_t)sc * batch); \
                double *ref = (double *)malloc(sizeof(double) * (size_t)m * n);    \
                double *bnd = (double *)malloc(sizeof(double) * (size_t)m * n);    \
                for (long long i = 0; i < sa * batch; ++i) dA[i] = A[i] = (T)uval(7, (uint32_t)i); \
                for (long long i = 0; i < sb * batch; ++i) dB[i] = B[i] = (T)uval(8, (uint32_t)i); \
                for (long long i = 0; i < sc * batch; ++i)                         \
                    dC[i] = C[i] = (i % sc) >= (long long)m * n ? (T)-77 : (T)uval(9, (uint32_t)i); \
                assert_tile_ok(tile_gemm_strided_batched_path_##sfx(tile_cpu(), path, ta, tb, m, n, k, (T)1.5, A, ac, \
                                                                    sa, B, bc, sb, (T)-2, C, n, sc, batch)); \
                for (int q = 0; q < batch; ++q) {                                  \
                    ref_gemm(ta, tb, m, n, k, 1.5, dA + q * sa, ac, dB + q * sb, bc, -2, dC + q * sc, n, ref, bnd); \
                    for (int i = 0; i < m * n; ++i) {                              \
                        const double got = C[q * sc + i];                          \
                        if (!(fabs(got - ref[i]) <= 4 * (k + 2) * EPS * bnd[i])) { \
                            print_error("batched %s tr=%d path=%d product %d element %d: got %.17g, expected %.17g\n", \
                                        #sfx, tr, path, q, i, got, ref[i]);       \
                            fail();                                                \
                        }                                                          \
                    }                                                              \
                    for (long long i = (long long)m * n; i < sc; ++i) assert_true(C[q * sc + i] == (T)-77); \
                }                                                                  \
                free(A), free(B), free(C), free(dA), free(dB), free(dC), free(ref), free(bnd); \
            }                                                                      \
        /* the automatic call is the same */                                       \
        T a[4] = {1, 2, 3, 4, }, b[4] = {5, 6, 7, 8}, c[8] = {0};                  \
        assert_tile_ok(tile_gemm_strided_batched_##sfx(tile_cpu(), TILE_OP_N, TILE_OP_N, 2, 2, 2, (T)1, a, 2, 0, b, 2, \
                                                       0, (T)0, c, 2, 4, 2));      \
        const T want[8] = {19, 22, 43, 50, 19, 22, 43, 50};                        \
        assert_memory_equal(c, want, sizeof want);                                 \
    }
GEMM_BATCH_TEST(f32, float, 1.2e-7)
GEMM_BATCH_TEST(f64, double, 2.3e-16)

/* the examples of blas.h's header comment, verbatim */
static void test_gemm_doc(void **state) {
    (void)state;
    const float A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8};
    float C[4] = {1, 1, 1, 1};
    assert_int_equal(tile_gemm_f32(tile_cpu(), TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 2, B, 2, 1.0f, C, 2), TILE_OK);
    const float w1[4] = {20, 23, 44, 51};
    assert_memory_equal(C, w1, sizeof w1);
    assert_int_equal(tile_gemm_f32(tile_cpu(), TILE_OP_T, TILE_OP_N, 2, 2, 2, 2.0f, A, 2, B, 2, 0.0f, C, 2), TILE_OK);
    const float w2[4] = {52, 60, 76, 88};
    assert_memory_equal(C, w2, sizeof w2);
    assert_int_equal(tile_gemm_f32(tile_cpu(), TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 1, B, 2, 0.0f, C, 2),
                     TILE_ERR_ARG);
    assert_memory_equal(C, w2, sizeof w2); /* untouched */
}

/* bad arguments -> TILE_ERR_ARG before anything is touched; empty problems
 * -> TILE_OK without touching pointers */
static void test_gemm_args(void **state) {
    (void)state;
    float A[64], B[64], C[64];
    for (int i = 0; i < 64; ++i) A[i] = B[i] = 1, C[i] = 5;
    const tile_exec cpu = tile_cpu();
#define G(ta, tb, m, n, k, a, lda, b, ldb, c, ldc) tile_gemm_f32(cpu, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc)
    assert_int_equal(G(2, 0, 2, 2, 2, A, 2, B, 2, C, 2), TILE_ERR_ARG);
    assert_int_equal(G(0, -1, 2, 2, 2, A, 2, B, 2, C, 2), TILE_ERR_ARG);
    assert_int_equal(G(0, 0, -1, 2, 2, A, 2, B, 2, C, 2), TILE_ERR_ARG);
    assert_int_equal(G(0, 0, 2, -1, 2, A, 2, B, 2, C, 2), TILE_ERR_ARG);
    assert_int_equal(G(0, 0, 2, 2, -1, A, 2, B, 2, C, 2), TILE_ERR_ARG);
    assert_int_equal(G(0, 0, 2, 3, 4, A, 3, B, 3, C, 3), TILE_ERR_ARG);     /* lda < k */
    assert_int_equal(G(1, 0, 2, 3, 4, A, 1, B, 3, C, 3), TILE_ERR_ARG);     /* A^T: lda < m */
    assert_int_equal(G(0, 0, 2, 3, 4, A, 4, B, 2, C, 3), TILE_ERR_ARG);     /* ldb < n */
    assert_int_equal(G(0, 1, 2, 3, 4, A, 4, B, 3, C, 3), TILE_ERR_ARG);     /* B^T: ldb < k */
    assert_int_equal(G(0, 0, 2, 3, 4, A, 4, B, 3, C, 2), TILE_ERR_ARG);     /* ldc < n */
    assert_int_equal(G(0, 0, 2, 3, 4, A, 4, B, 3, NULL, 3), TILE_ERR_ARG);
    assert_int_equal(G(0, 0, 2, 3, 4, NULL, 4, B, 3, C, 3), TILE_ERR_ARG);
    assert_int_equal(G(0, 0, 2, 3, 4, A, 4, NULL, 3, C, 3), TILE_ERR_ARG);
    for (int i = 0; i < 64; ++i) assert_true(C[i] == 5);
    /* empty: nothing read or written */
    assert_int_equal(G(0, 0, 0, 3, 4, NULL, 4, NULL, 3, NULL, 3), TILE_OK);
    assert_int_equal(G(0, 0, 2, 0, 4, NULL, 4, NULL, 1, NULL, 1), TILE_OK);
    /* k = 0: C = beta C, A and B not read */
    assert_int_equal(tile_gemm_f32(cpu, 0, 0, 2, 2, 0, 1.0f, NULL, 1, NULL, 2, 3.0f, C, 2), TILE_OK);
    assert_true(C[0] == 15 && C[3] == 15 && C[4] == 5);
#undef G
    /* strided batched: strides, batch, overlap, path */
#define GB(path, sa, sb, sc, batch) \
    tile_gemm_strided_batched_path_f32(cpu, path, 0, 0, 2, 2, 2, 1.0f, A, 2, sa, B, 2, sb, 0.0f, C, 2, sc, batch)
    assert_int_equal(GB(0, -1, 4, 4, 2), TILE_ERR_ARG);
    assert_int_equal(GB(0, 4, -1, 4, 2), TILE_ERR_ARG);
    assert_int_equal(GB(0, 4, 4, -1, 2), TILE_ERR_ARG);
    assert_int_equal(GB(0, 4, 4, 4, -1), TILE_ERR_ARG);
    assert_int_equal(GB(0, 4, 4, 3, 2), TILE_ERR_ARG); /* outputs overlap: sc < (m-1) ldc + n */
    assert_int_equal(GB(3, 4, 4, 4, 2), TILE_ERR_ARG);
    assert_int_equal(GB(-1, 4, 4, 4, 2), TILE_ERR_ARG);
    assert_int_equal(GB(0, 4, 4, 4, 0), TILE_OK);
    assert_int_equal(GB(0, 0, 0, 0, 1), TILE_OK); /* one product: any stride */
    assert_int_equal(GB(0, 0, 0, 4, 2), TILE_OK);  /* shared inputs */
    assert_true(C[0] == 2 && C[7] == 2);
#undef GB
    assert_int_equal(tile_gemm_strided_batched_f64(cpu, 0, 0, 2, 2, 2, 1.0, NULL, 2, 4, NULL, 2, 4, 0.0, NULL, 2, 4, 3),
                     TILE_ERR_ARG);
}

/* a GPU exec in a C11 build: TILE_ERR_NO_CUDA from every call (valid
 * arguments), with a message */
static void test_no_cuda(void **state) {
    (void)state;
    float A[4] = {4, 2, 2, 10}, B[4] = {1, 2, 3, 4}, C[4] = {0};
    double dA[4] = {4, 2, 2, 10}, dB[2] = {1, 2}, dC[4] = {0};
    int info[1] = {-5};
    const tile_exec g = tile_gpu(0);
    assert_int_equal(tile_gemm_f32(g, 0, 0, 2, 2, 2, 1.0f, A, 2, B, 2, 0.0f, C, 2), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_gemm_f64(g, 0, 0, 2, 2, 2, 1.0, dA, 2, dA, 2, 0.0, dC, 2), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_gemm_strided_batched_f32(g, 0, 0, 2, 2, 2, 1.0f, A, 2, 4, B, 2, 4, 0.0f, C, 2, 4, 1),
                     TILE_ERR_NO_CUDA);
    assert_int_equal(tile_gemm_strided_batched_path_f64(g, TILE_PATH_LIBRARY, 0, 0, 2, 2, 2, 1.0, dA, 2, 4, dA, 2, 4,
                                                        0.0, dC, 2, 4, 1),
                     TILE_ERR_NO_CUDA);
    assert_int_equal(tile_potrf_batched_f32(g, 2, A, 1, info), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_potrf_batched_f64(g, 2, dA, 1, NULL), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_potrs_batched_f64(g, 2, 1, dA, dB, 1), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_potrs_batched_path_f32(g, TILE_PATH_TILE, 2, 1, A, B, 1), TILE_ERR_NO_CUDA);
    /* nothing was touched */
    assert_true(A[0] == 4 && dA[3] == 10 && info[0] == -5 && C[0] == 0 && dB[0] == 1);
    assert_true(strlen(tile_error_string(TILE_ERR_NO_CUDA)) > 10);
    assert_true(strlen(tile_error_string(TILE_ERR_NOT_SPD)) > 10);
    assert_int_equal(tile_host_last_status(), 0);
    tile_blas_release();
    tile_solver_release(); /* nothing to release: no-ops */
}

/* ---------------- Cholesky ---------------- */
/* potrf: L against the double Cholesky (relative to ||A||), L L^T against A,
 * info 0, the strictly upper triangle (a marker on input, never read) zero on
 * return; then NaN written there and potrs (nrhs 1, 3, 17), which must read
 * only the lower triangle: ||A X - B|| / (||A|| ||X|| + ||B||) */
#define CHOL_TEST(sfx, T, TOL)                                                     \
    static void test_chol_##sfx(void **state) {                                    \
        (void)state;                                                               \
        const int ns[] = {1, 2, 5, 16, 31, 32, 33, 64, 100, 130, 200};             \
        const int batch = 3;                                                       \
        for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ++ni) {                 \
            const int n = ns[ni];                                                  \
            const size_t nn = (size_t)n * n;                                       \
            double *a = (double *)malloc(sizeof(double) * nn * batch);             \
            double *l = (double *)malloc(sizeof(double) * nn);                     \
            T *A = (T *)malloc(sizeof(T) * nn * batch);                            \
            int info[3] = {-1, -1, -1};                                            \
            make_spd(a, n, batch, 100 + (uint32_t)n);                              \
            for (size_t i = 0; i < nn * batch; ++i) {                              \
                A[i] = (T)a[i];                                                    \
                if (i % n > (i / n) % n) A[i] = (T)(1000 + i); /* upper: marker */ \
            }                                                                      \
            assert_tile_ok(tile_potrf_batched_##sfx(tile_cpu(), n, A, batch, info)); \
            for (int q = 0; q < batch; ++q) {                                      \
                assert_int_equal(info[q], 0);                                      \
                const double *aq = a + q * nn;                                     \
                const T *Lq = A + q * nn;                                          \
                double an = 0, err = 0, rerr = 0;                                  \
                for (size_t i = 0; i < nn; ++i) an += aq[i] * aq[i];               \
                an = sqrt(an);                                                     \
                assert_int_equal(ref_chol(aq, l, n), 0);                           \
                for (int i = 0; i < n; ++i)                                        \
                    for (int j = 0; j < n; ++j) {                                  \
                        const size_t o = (size_t)i * n + j;                        \
                        if (j > i) {                                               \
                            if (!(Lq[o] == (T)0)) {                                \
                                print_error("potrf %s n=%d matrix %d: upper (%d,%d) = %g, not 0\n", #sfx, n, q, i, \
                                            j, (double)Lq[o]);                     \
                                fail();                                            \
                            }                                                      \
                            continue;                                              \
                        }                                                          \
                        err = fmax(err, fabs((double)Lq[o] - l[o]));               \
                        double s = 0;                                              \
                        for (int p = 0; p <= j; ++p) s += (double)Lq[(size_t)i * n + p] * Lq[(size_t)j * n + p]; \
                        rerr += (s - aq[o]) * (s - aq[o]);                         \
                    }                                                              \
                if (!(err <= TOL * an && sqrt(rerr) <= TOL * an)) {                \
                    print_error("potrf %s n=%d matrix %d: |L - ref| %g, ||L L^T - A|| %g, ||A|| %g\n", #sfx, n, q, \
                                err, sqrt(rerr), an);                              \
                    fail();                                                        \
                }                                                                  \
            }                                                                      \
            for (size_t i = 0; i < nn * batch; ++i)                                \
                if (i % n > (i / n) % n) A[i] = (T)NAN; /* potrs must not read it */ \
            const int nrhss[3] = {1, 3, 17};                                       \
            for (int r = 0; r < 3; ++r) {                                          \
                const int nrhs = nrhss[r];                                         \
                const size_t nb = (size_t)n * nrhs;                                \
                T *B = (T *)malloc(sizeof(T) * nb * batch);                        \
                for (size_t i = 0; i < nb * batch; ++i) B[i] = (T)uval(55 + (uint32_t)r, (uint32_t)i); \
                assert_tile_ok(tile_potrs_batched_##sfx(tile_cpu(), n, nrhs, A, B, batch)); \
                for (int q = 0; q < batch; ++q) {                                  \
                    const double *aq = a + q * nn;                                 \
                    double an = 0, xn = 0, bn = 0, res = 0;                        \
                    for (size_t i = 0; i < nn; ++i) an += aq[i] * aq[i];           \
                    for (int i = 0; i < n; ++i)                                    \
                        for (int c = 0; c < nrhs; ++c) {                           \
                            double s = 0;                                          \
                            for (int p = 0; p < n; ++p) s += aq[(size_t)i * n + p] * B[q * nb + (size_t)p * nrhs + c]; \
                            const double b0 = (T)uval(55 + (uint32_t)r, (uint32_t)(q * nb + (size_t)i * nrhs + c)); \
                            res += (s - b0) * (s - b0);                            \
                            bn += b0 * b0;                                         \
                            xn += (double)B[q * nb + (size_t)i * nrhs + c] * B[q * nb + (size_t)i * nrhs + c]; \
                        }                                                          \
                    const double rel = sqrt(res) / (sqrt(an) * sqrt(xn) + sqrt(bn)); \
                    if (!(rel <= TOL)) {                                           \
                        print_error("potrs %s n=%d nrhs=%d matrix %d: relative residual %g\n", #sfx, n, nrhs, q, rel); \
                        fail();                                                    \
                    }                                                              \
                }                                                                  \
                free(B);                                                           \
            }                                                                      \
            free(a), free(l), free(A);                                             \
        }                                                                          \
    }
CHOL_TEST(f32, float, 2e-5)
CHOL_TEST(f64, double, 1e-13)

/* non-SPD and NaN: info (the reference's), TILE_ERR_NOT_SPD, the other
 * matrices factored, columns before the info column valid, NaN from it on */
#define NOTSPD_TEST(sfx, T)                                                        \
    static void test_not_spd_##sfx(void **state) {                                 \
        (void)state;                                                               \
        const int n = 70, batch = 4;                                               \
        const size_t nn = (size_t)n * n;                                           \
        double *a = (double *)malloc(sizeof(double) * nn * batch), *l = (double *)malloc(sizeof(double) * nn); \
        T *A = (T *)malloc(sizeof(T) * nn * batch);                                \
        make_spd(a, n, batch, 900);                                                \
        a[1 * nn + 40 * n + 40] = -1;          /* matrix 1: pivot 40 (2nd block) */ \
        a[2 * nn + 50 * n + 3] = a[2 * nn + 3 * n + 50] = NAN; /* matrix 2: NaN */ \
        for (int i = 0; i < n; ++i) a[3 * nn + (size_t)i * n + 0] = a[3 * nn + i] = 0; /* matrix 3: column 0 */ \
        for (size_t i = 0; i < nn * batch; ++i) A[i] = (T)a[i];                    \
        int info[4] = {-1, -1, -1, -1};                                            \
        assert_int_equal(tile_potrf_batched_##sfx(tile_cpu(), n, A, batch, info), TILE_ERR_NOT_SPD); \
        for (int q = 0; q < batch; ++q) {                                          \
            const int want = ref_chol(a + q * nn, l, n);                           \
            assert_int_equal(info[q], want);                                       \
            if (q == 0) assert_int_equal(want, 0);                                 \
            if (q == 1) assert_int_equal(want, 41);                                \
            if (q == 3) assert_int_equal(want, 1);                                 \
            for (int i = 0; i < n; ++i)                                            \
                for (int j = i + 1; j < n; ++j) /* zero also in a failed matrix */ \
                    assert_true(A[q * nn + (size_t)i * n + j] == (T)0);            \
            for (int i = 0; i < n; ++i)                                            \
                for (int j = 0; j <= i; ++j) {                                     \
                    const double got = A[q * nn + (size_t)i * n + j];              \
                    if (want && j >= want - 1) {                                   \
                        assert_true(isnan(got));                                   \
                    } else if (isnan(l[(size_t)i * n + j])) {                      \
                        assert_true(isnan(got)); /* NaN input: the same NaN L */   \
                    } else if (!(fabs(got - l[(size_t)i * n + j]) <= 1e-4 * (1 + fabs(l[(size_t)i * n + j])))) { \
                        print_error("not_spd %s matrix %d (%d,%d): got %g, expected %g\n", #sfx, q, i, j, got, \
                                    l[(size_t)i * n + j]);                         \
                        fail();                                                    \
                    }                                                              \
                }                                                                  \
        }                                                                          \
        assert_true(info[2] > 0 && info[2] <= 51);                                 \
        /* info NULL: the same code */                                            \
        for (size_t i = 0; i < nn * batch; ++i) A[i] = (T)a[i];                    \
        assert_int_equal(tile_potrf_batched_##sfx(tile_cpu(), n, A, batch, NULL), TILE_ERR_NOT_SPD); \
        free(a), free(l), free(A);                                                 \
    }
NOTSPD_TEST(f32, float)
NOTSPD_TEST(f64, double)

/* solver.h's header examples, and argument errors */
static void test_chol_doc_args(void **state) {
    (void)state;
    float A[8] = {4, 2, 2, 10, 1, 2, 2, 1};
    int info[2] = {-1, -1};
    assert_int_equal(tile_potrf_batched_f32(tile_cpu(), 2, A, 2, info), TILE_ERR_NOT_SPD);
    assert_true(A[0] == 2 && A[1] == 0 && A[2] == 1 && A[3] == 3 && A[4] == 1 && A[5] == 0 && A[6] == 2 && isnan(A[7]));
    assert_true(info[0] == 0 && info[1] == 2);
    const float L[4] = {2, 0, 1, 3};
    float B[4] = {6, 0, 12, 2};
    assert_int_equal(tile_potrs_batched_f32(tile_cpu(), 2, 2, L, B, 1), TILE_OK);
    assert_close(B[0], 1.0, 1e-6);
    assert_close(B[1], -1.0 / 9, 1e-6);
    assert_close(B[2], 1.0, 1e-6);
    assert_close(B[3], 2.0 / 9, 1e-6);
    double d[4] = {4, 2, 2, 10}, db[2] = {6, 12};
    const tile_exec c = tile_cpu();
    assert_int_equal(tile_potrf_batched_f64(c, 0, d, 1, info), TILE_ERR_ARG);
    assert_int_equal(tile_potrf_batched_f64(c, -3, d, 1, info), TILE_ERR_ARG);
    assert_int_equal(tile_potrf_batched_f64(c, 2, d, -1, info), TILE_ERR_ARG);
    assert_int_equal(tile_potrf_batched_f64(c, 2, NULL, 1, info), TILE_ERR_ARG);
    assert_int_equal(tile_potrf_batched_path_f64(c, 5, 2, d, 1, info), TILE_ERR_ARG);
    assert_int_equal(tile_potrf_batched_path_f64(c, TILE_PATH_TILE, 129, NULL, 0, info), TILE_ERR_ARG);
    assert_int_equal(tile_potrs_batched_f64(c, 0, 1, d, db, 1), TILE_ERR_ARG);
    assert_int_equal(tile_potrs_batched_f64(c, 2, 0, d, db, 1), TILE_ERR_ARG);
    assert_int_equal(tile_potrs_batched_f64(c, 2, 1, NULL, db, 1), TILE_ERR_ARG);
    assert_int_equal(tile_potrs_batched_f64(c, 2, 1, d, NULL, 1), TILE_ERR_ARG);
    assert_int_equal(tile_potrs_batched_f64(c, 2, 1, d, db, -2), TILE_ERR_ARG);
    assert_int_equal(tile_potrs_batched_path_f64(c, -1, 2, 1, d, db, 1), TILE_ERR_ARG);
    assert_true(d[0] == 4 && d[3] == 10 && db[0] == 6); /* untouched */
    assert_int_equal(tile_potrf_batched_f64(c, 2, NULL, 0, NULL), TILE_OK);
    assert_int_equal(tile_potrs_batched_f64(c, 2, 1, NULL, NULL, 0), TILE_OK);
    /* the CPU ignores the path: the library and tile paths factor too */
    assert_int_equal(tile_potrf_batched_path_f64(c, TILE_PATH_LIBRARY, 2, d, 1, info), TILE_OK);
    assert_true(d[0] == 2 && d[1] == 0 && d[2] == 1 && d[3] == 3 && info[0] == 0);
    assert_int_equal(tile_potrs_batched_path_f64(c, TILE_PATH_TILE, 2, 1, d, db, 1), TILE_OK);
    assert_close(db[0], 1.0, 1e-15);
    assert_close(db[1], 1.0, 1e-15);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_doc),         cmocka_unit_test(test_gemm_args),
        cmocka_unit_test(test_gemm_f32),         cmocka_unit_test(test_gemm_f64),
        cmocka_unit_test(test_gemm_batched_f32), cmocka_unit_test(test_gemm_batched_f64),
        cmocka_unit_test(test_no_cuda),          cmocka_unit_test(test_chol_f32),
        cmocka_unit_test(test_chol_f64),         cmocka_unit_test(test_not_spd_f32),
        cmocka_unit_test(test_not_spd_f64),      cmocka_unit_test(test_chol_doc_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
