/* tests/gpu/host_test.cu - the host linear-algebra API (tile/host/blas.h,
 * tile/host/solver.h) on GPU 0 and on the CPU, against double-precision host
 * loops, and the GPU path against the CPU path of the same call.
 *
 *   host_test             GPU 0 (when there is one), then the CPU target
 *   host_test --cpu-only  the CPU target only
 *   host_test --quick     fewer shapes, small batches (compute-sanitizer)
 *
 * What is checked, f32 and f64:
 *  - tile_gemm: shapes across the CPU packing blocks and odd ones, every
 *    transpose pair, alpha/beta (beta 0 over NaN: C not read), padded leading
 *    dimensions (the padding untouched); on a stream of its own on the GPU;
 *  - tile_gemm_strided_batched: sizes on every side of the automatic choice
 *    (in-kernel: 8, 13 x 32 x 7, 16, 32; cuBLAS: 24, 17 x 28 x 5, 33, 64),
 *    transposes (cuBLAS), forced TILE and LIBRARY paths on the same problem
 *    (forced TILE at 24 too), gaps between the products untouched;
 *  - tile_potrf_batched / tile_potrs_batched: n on both sides of the
 *    in-kernel limit (8, 33, 64, 128 in-kernel; 129, 200 cuSOLVER), forced
 *    paths (cuSOLVER at n 64, in-kernel at 100), nrhs 1 and 5 (cuSOLVER:
 *    one system per right-hand side), on a stream of its own (48, both
 *    paths), L against the double Cholesky, info 0 (device info: the GPU
 *    call asynchronous), the strictly upper triangle zero on return (markers
 *    on input), potrs with NaN over the upper triangle (read: lower only),
 *    solve residuals, GPU = CPU;
 *  - non-SPD batches on both GPU paths and the CPU: info (the reference's),
 *    TILE_OK from the asynchronous GPU call with an info array,
 *    TILE_ERR_NOT_SPD from the CPU and with info NULL, the SPD matrices
 *    factored, the upper triangle zero in every matrix;
 *  - errors: bad sizes and pointers (TILE_ERR_ARG), a GPU that does not
 *    exist (TILE_ERR_DEVICE), impossible forced paths (TILE_ERR_ARG), the
 *    current device kept, tile_host_release and handles made again.
 * Test-internal C++ (templates over float/double): the API itself is C.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"
#include <tile/host.h>
#include "../chol_ref.h"
#include "../host_ref.h"

/* ---- the API, overloaded on the element type ---- */
static int gemm(tile_exec ex, int ta, int tb, int m, int n, int k, float al, const float *A, int lda, const float *B,
                int ldb, float be, float *C, int ldc) {
    return tile_gemm_f32(ex, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
static int gemm(tile_exec ex, int ta, int tb, int m, int n, int k, double al, const double *A, int lda,
                const double *B, int ldb, double be, double *C, int ldc) {
    return tile_gemm_f64(ex, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
static int gemm_sb(tile_exec ex, int path, int ta, int tb, int m, int n, int k, float al, const float *A, int lda,
                   long long sa, const float *B, int ldb, long long sb, float be, float *C, int ldc, long long sc,
                   int batch) {
    return path == TILE_PATH_AUTO
               ? tile_gemm_strided_batched_f32(ex, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc, sc, batch)
               : tile_gemm_strided_batched_path_f32(ex, path, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc,
                                                    sc, batch);
}
static int gemm_sb(tile_exec ex, int path, int ta, int tb, int m, int n, int k, double al, const double *A, int lda,
                   long long sa, const double *B, int ldb, long long sb, double be, double *C, int ldc, long long sc,
                   int batch) {
    return path == TILE_PATH_AUTO
               ? tile_gemm_strided_batched_f64(ex, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc, sc, batch)
               : tile_gemm_strided_batched_path_f64(ex, path, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc,
                                                    sc, batch);
}
static int potrf(tile_exec ex, int path, int n, float *A, int batch, int *info) {
    return path == TILE_PATH_AUTO ? tile_potrf_batched_f32(ex, n, A, batch, info)
                                  : tile_potrf_batched_path_f32(ex, path, n, A, batch, info);
}
static int potrf(tile_exec ex, int path, int n, double *A, int batch, int *info) {
    return path == TILE_PATH_AUTO ? tile_potrf_batched_f64(ex, n, A, batch, info)
                                  : tile_potrf_batched_path_f64(ex, path, n, A, batch, info);
}
static int potrs(tile_exec ex, int path, int n, int nrhs, const float *L, float *B, int batch) {
    return path == TILE_PATH_AUTO ? tile_potrs_batched_f32(ex, n, nrhs, L, B, batch)
                                  : tile_potrs_batched_path_f32(ex, path, n, nrhs, L, B, batch);
}
static int potrs(tile_exec ex, int path, int n, int nrhs, const double *L, double *B, int batch) {
    return path == TILE_PATH_AUTO ? tile_potrs_batched_f64(ex, n, nrhs, L, B, batch)
                                  : tile_potrs_batched_path_f64(ex, path, n, nrhs, L, B, batch);
}
template <class T> static double eps_of() { return sizeof(T) == 4 ? 1.2e-7 : 2.3e-16; }
template <class T> static const char *tname() { return sizeof(T) == 4 ? "f32" : "f64"; }
static const char *path_name(int p) { return p == TILE_PATH_AUTO ? "auto" : p == TILE_PATH_TILE ? "tile" : "library"; }

/* ======================= gemm ======================= */
/* One (strided batched, or plain when path < 0) product on the target, with
 * the double reference; on the GPU the CPU path of the same call too. The
 * inputs have padded rows (pad) and gaps between products; C's padding and
 * gaps hold -77 and must keep it. */
template <class T>
static void gemm_case(const target *t, int path, int ta, int tb, int m, int n, int k, int batch, double alpha,
                      double beta, int pad, cudaStream_t stream) {
    const int plain = path < 0;
    const int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
    const int lda = ac + pad, ldb = bc + 2 * pad, ldc = n + pad;
    const long long sa = (long long)ar * lda + 5, sb = (long long)br * ldb + 3, sc = (long long)m * ldc + 7;
    const size_t na = (size_t)sa * batch, nb = (size_t)sb * batch, ncc = (size_t)sc * batch;
    T *hA = HALLOC(T, na), *hB = HALLOC(T, nb), *hC0 = HALLOC(T, ncc), *hC = HALLOC(T, ncc), *hCc = HALLOC(T, ncc);
    for (size_t i = 0; i < na; ++i) hA[i] = (T)uval(11, (uint32_t)i);
    for (size_t i = 0; i < nb; ++i) hB[i] = (T)uval(12, (uint32_t)i);
    for (size_t i = 0; i < ncc; ++i) {
        const long long o = (long long)(i % sc);
        const int inside = o < (long long)m * ldc && o % ldc < n;
        hC0[i] = !inside ? (T)-77 : beta == 0 ? (T)NAN : (T)uval(13, (uint32_t)i);
    }
    T *dA = DALLOC(T, na), *dB = DALLOC(T, nb), *dC = DALLOC(T, ncc);
    UP(dA, hA, na * sizeof(T));
    UP(dB, hB, nb * sizeof(T));
    UP(dC, hC0, ncc * sizeof(T));
    const tile_exec ex = stream ? tile_exec_stream(t->ex, (void *)stream) : t->ex;
    char what[200];
    snprintf(what, sizeof what, "%s %s %s m=%d n=%d k=%d ta=%d tb=%d batch=%d alpha=%g beta=%g pad=%d%s", tname<T>(),
             plain ? "gemm" : "batched", plain ? "" : path_name(path), m, n, k, ta, tb, batch, alpha, beta, pad,
             stream ? " (stream)" : "");
    const int e = plain ? gemm(ex, ta, tb, m, n, k, (T)alpha, dA, lda, dB, ldb, (T)beta, dC, ldc)
                        : gemm_sb(ex, path, ta, tb, m, n, k, (T)alpha, dA, lda, sa, dB, ldb, sb, (T)beta, dC, ldc, sc,
                                  batch);
    CHECK(e == TILE_OK, "%s -> %d (%s)", what, e, tile_error_string(e));
    if (stream) CHECK(cudaStreamSynchronize(stream) == cudaSuccess, "%s: stream sync", what);
    SYNC_OK();
    DOWN(hC, dC, ncc * sizeof(T));
    if (t->gpu) { /* the CPU path of the same call */
        memcpy(hCc, hC0, ncc * sizeof(T));
        const int ec = plain ? gemm(tile_cpu(), ta, tb, m, n, k, (T)alpha, hA, lda, hB, ldb, (T)beta, hCc, ldc)
                             : gemm_sb(tile_cpu(), path, ta, tb, m, n, k, (T)alpha, hA, lda, sa, hB, ldb, sb, (T)beta,
                                       hCc, ldc, sc, batch);
        CHECK(ec == TILE_OK, "%s on the CPU -> %d", what, ec);
    }
    long bad = 0;
    for (int q = 0; q < batch; ++q)
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                double s = 0, bnd = 0;
                for (int p = 0; p < k; ++p) {
                    const double a = ta ? hA[q * sa + (size_t)p * lda + i] : hA[q * sa + (size_t)i * lda + p];
                    const double b = tb ? hB[q * sb + (size_t)j * ldb + p] : hB[q * sb + (size_t)p * ldb + j];
                    s += a * b;
                    bnd += fabs(a * b);
                }
                const size_t o = (size_t)(q * sc) + (size_t)i * ldc + j;
                const double c = beta == 0 ? 0 : beta * (double)hC0[o];
                const double ref = alpha * s + c, tol = 4.0 * (k + 2) * eps_of<T>() * (fabs(alpha) * bnd + fabs(c)) + 1e-300;
                ++g_checks;
                if (!(fabs((double)hC[o] - ref) <= tol))
                    fail_elem(&bad, __FILE__, __LINE__, "%s: product %d (%d,%d) = %.9g, reference %.9g", what, q, i, j,
                              (double)hC[o], ref);
                if (t->gpu) {
                    ++g_checks;
                    if (!(fabs((double)hC[o] - (double)hCc[o]) <= 2 * tol))
                        fail_elem(&bad, __FILE__, __LINE__, "%s: product %d (%d,%d) GPU %.9g, CPU path %.9g", what, q, i,
                                  j, (double)hC[o], (double)hCc[o]);
                }
            }
    for (size_t i = 0; i < ncc; ++i) {
        const long long o = (long long)(i % sc);
        if (o < (long long)m * ldc && o % ldc < n) continue;
        ++g_checks;
        if (!(hC[i] == (T)-77)) fail_elem(&bad, __FILE__, __LINE__, "%s: padding/gap element %zu written", what, i);
    }
    fail_elem_total(__FILE__, __LINE__, what, bad, (long)ncc);
    tile_free(t->ex, dA);
    tile_free(t->ex, dB);
    tile_free(t->ex, dC);
    free(hA), free(hB), free(hC0), free(hC), free(hCc);
}

template <class T> static void gemm_tests(const target *t, cudaStream_t stream) {
    g_test = "gemm";
    static const int shapes[][3] = {{1, 1, 1}, {37, 45, 29}, {64, 128, 96}, {130, 67, 257}, {3, 600, 5}};
    const int nshape = g_quick ? 2 : 5;
    for (int s = 0; s < nshape; ++s)
        for (int tr = 0; tr < 4; ++tr) {
            gemm_case<T>(t, -1, tr & 1, tr >> 1, shapes[s][0], shapes[s][1], shapes[s][2], 1, 1.0, 0.0, 0, 0);
            if (!g_quick || tr == 3)
                gemm_case<T>(t, -1, tr & 1, tr >> 1, shapes[s][0], shapes[s][1], shapes[s][2], 1, -1.5, 0.5, 3, 0);
        }
    if (stream) gemm_case<T>(t, -1, 0, 1, 70, 50, 90, 1, 2.0, -1.0, 1, stream);
    g_test = "gemm_strided_batched";
    /* auto (f32, N N): in-kernel for max(m, n, k) <= 16 and 32, cuBLAS for
     * 17..31 and above 32 (TILE_HOST_GEMM_TILE32_MIN, _MAX) */
    static const int bshapes[][3] = {{8, 8, 8},    {13, 32, 7},  {16, 16, 16}, {24, 24, 24},
                                     {17, 28, 5},  {32, 32, 32}, {33, 33, 33}, {64, 64, 64}};
    const int batch = g_quick ? 3 : 40;
    for (int s = 0; s < 8; ++s) {
        if (g_quick && (s == 0 || s == 4 || s == 7)) continue;
        gemm_case<T>(t, TILE_PATH_AUTO, 0, 0, bshapes[s][0], bshapes[s][1], bshapes[s][2], batch, 1.0, 0.0, 0, 0);
        gemm_case<T>(t, TILE_PATH_AUTO, 0, 0, bshapes[s][0], bshapes[s][1], bshapes[s][2], batch, 0.75, -2.0, 3, 0);
    }
    gemm_case<T>(t, TILE_PATH_AUTO, 1, 0, 16, 16, 16, batch, 1.0, 1.0, 0, 0); /* transposed: cuBLAS */
    gemm_case<T>(t, TILE_PATH_AUTO, 1, 1, 21, 9, 30, batch, 1.0, 0.0, 2, 0);
    gemm_case<T>(t, TILE_PATH_LIBRARY, 0, 0, 16, 16, 16, batch, 1.0, 0.5, 0, 0);
    if (sizeof(T) == 4 || !t->gpu) { /* the in-kernel gemm is f32 */
        gemm_case<T>(t, TILE_PATH_TILE, 0, 0, 16, 16, 16, batch, 1.0, 0.5, 0, 0);
        gemm_case<T>(t, TILE_PATH_TILE, 0, 0, 32, 17, 5, batch, -1.0, 0.0, 1, 0);
        gemm_case<T>(t, TILE_PATH_TILE, 0, 0, 24, 24, 24, batch, 1.0, 0.0, 0, 0); /* auto: cuBLAS */
    }
    if (stream) gemm_case<T>(t, TILE_PATH_AUTO, 0, 0, 16, 16, 16, batch, 1.0, 1.0, 0, stream);
    g_test = NULL;
}

/* ======================= Cholesky ======================= */
static double upper_mark(size_t i) { return 1000.0 + (double)(i % 4096); }

/* potrf (device info: asynchronous on the GPU), L = the double Cholesky in
 * the lower triangle and zeros in the strictly upper one (the input had
 * markers there), then NaN written over the upper triangle and potrs, which
 * must read only the lower one; GPU = CPU path of the same calls. stream: the
 * GPU calls on that stream (0: the target's exec). */
template <class T>
static void chol_case(const target *t, int path, int n, int batch, int nrhs, cudaStream_t stream = 0) {
    const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    const double tol = sizeof(T) == 4 ? 3e-5 : 1e-12;
    const tile_exec ex = stream ? tile_exec_stream(t->ex, (void *)stream) : t->ex;
    char what[160];
    snprintf(what, sizeof what, "%s potrf/potrs %s n=%d batch=%d nrhs=%d%s", tname<T>(), path_name(path), n, batch,
             nrhs, stream ? " (stream)" : "");
    double *a = HALLOC(double, nn * batch), *l = HALLOC(double, nn);
    T *hA = HALLOC(T, nn * batch), *hL = HALLOC(T, nn * batch), *hLc = HALLOC(T, nn * batch);
    T *hB = HALLOC(T, nb * batch), *hX = HALLOC(T, nb * batch), *hXc = HALLOC(T, nb * batch);
    int *hinfo = HALLOC(int, batch);
    make_spd(a, n, batch, 300 + (uint32_t)n);
    for (size_t i = 0; i < nn * batch; ++i) hA[i] = (i % n > (i / n) % n) ? (T)upper_mark(i) : (T)a[i];
    for (size_t i = 0; i < nb * batch; ++i) hB[i] = (T)uval(77, (uint32_t)i);
    T *dA = DALLOC(T, nn * batch), *dB = DALLOC(T, nb * batch);
    int *dinfo = DALLOC(int, batch);
    UP(dA, hA, nn * batch * sizeof(T));
    UP(dB, hB, nb * batch * sizeof(T));
    POISON(dinfo, sizeof(int) * batch, POISON_I);
    CHECK_ERR_TXT(potrf(ex, path, n, dA, batch, dinfo), what, TILE_OK);
    if (stream) CHECK(cudaStreamSynchronize(stream) == cudaSuccess, "%s: stream sync", what);
    SYNC_OK();
    DOWN(hL, dA, nn * batch * sizeof(T));
    DOWN(hinfo, dinfo, sizeof(int) * batch);
    /* potrs reads only the lower triangle: NaN over the upper one */
    T *hLn = HALLOC(T, nn * batch);
    for (size_t i = 0; i < nn * batch; ++i) hLn[i] = (i % n > (i / n) % n) ? (T)NAN : hL[i];
    UP(dA, hLn, nn * batch * sizeof(T));
    CHECK_ERR_TXT(potrs(ex, path, n, nrhs, dA, dB, batch), what, TILE_OK);
    if (stream) CHECK(cudaStreamSynchronize(stream) == cudaSuccess, "%s: stream sync", what);
    SYNC_OK();
    DOWN(hX, dB, nb * batch * sizeof(T));
    if (t->gpu) {
        memcpy(hLc, hA, nn * batch * sizeof(T));
        memcpy(hXc, hB, nb * batch * sizeof(T));
        CHECK_ERR_TXT(potrf(tile_cpu(), path, n, hLc, batch, NULL), what, TILE_OK);
        CHECK_ERR_TXT(potrs(tile_cpu(), path, n, nrhs, hLn, hXc, batch), what, TILE_OK);
    }
    long bad = 0;
    for (int q = 0; q < batch; ++q) {
        CHECK(hinfo[q] == 0, "%s: info[%d] = %d", what, q, hinfo[q]);
        const double *aq = a + q * nn;
        double an = 0;
        for (size_t i = 0; i < nn; ++i) an += aq[i] * aq[i];
        an = sqrt(an);
        CHECK(ref_chol(aq, l, n) == 0, "%s: reference", what);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const size_t o = q * nn + (size_t)i * n + j;
                ++g_checks;
                if (j > i) {
                    if (!(hL[o] == (T)0) || (t->gpu && !(hLc[o] == (T)0)))
                        fail_elem(&bad, __FILE__, __LINE__, "%s: matrix %d upper (%d,%d) = %g (CPU path %g), not 0", what,
                                  q, i, j, (double)hL[o], t->gpu ? (double)hLc[o] : 0.0);
                    continue;
                }
                if (!(fabs((double)hL[o] - l[(size_t)i * n + j]) <= tol * an))
                    fail_elem(&bad, __FILE__, __LINE__, "%s: matrix %d L(%d,%d) = %.9g, reference %.9g", what, q, i, j,
                              (double)hL[o], l[(size_t)i * n + j]);
                if (t->gpu && !(fabs((double)hL[o] - (double)hLc[o]) <= tol * an))
                    fail_elem(&bad, __FILE__, __LINE__, "%s: matrix %d L(%d,%d) GPU %.9g, CPU path %.9g", what, q, i,
                              j, (double)hL[o], (double)hLc[o]);
            }
        /* ||A X - B|| / (||A|| ||X|| + ||B||) */
        double res = 0, xn = 0, bn = 0, dx = 0;
        for (int i = 0; i < n; ++i)
            for (int c = 0; c < nrhs; ++c) {
                double s = 0;
                for (int p = 0; p < n; ++p) s += aq[(size_t)i * n + p] * hX[q * nb + (size_t)p * nrhs + c];
                const size_t o = q * nb + (size_t)i * nrhs + c;
                res += (s - hB[o]) * (s - hB[o]);
                bn += (double)hB[o] * hB[o];
                xn += (double)hX[o] * hX[o];
                if (t->gpu) dx += ((double)hX[o] - hXc[o]) * ((double)hX[o] - hXc[o]);
            }
        const double rel = sqrt(res) / (an * sqrt(xn) + sqrt(bn));
        CHECK(rel <= tol, "%s: matrix %d solve residual %g", what, q, rel);
        if (t->gpu) CHECK(sqrt(dx) <= 100 * tol * sqrt(xn), "%s: matrix %d X GPU vs CPU path: %g of %g", what, q,
                          sqrt(dx), sqrt(xn));
    }
    fail_elem_total(__FILE__, __LINE__, what, bad, (long)(nn * batch));
    tile_free(t->ex, dA);
    tile_free(t->ex, dB);
    tile_free(t->ex, dinfo);
    free(a), free(l), free(hA), free(hL), free(hLn), free(hLc), free(hB), free(hX), free(hXc), free(hinfo);
}

/* batch 3: SPD, a negative pivot at column n/2, a zero column 0. With an
 * info array the GPU call is asynchronous and returns TILE_OK (info says
 * which failed), the CPU one TILE_ERR_NOT_SPD; with info NULL both return
 * TILE_ERR_NOT_SPD. Every matrix's strictly upper triangle comes back 0. */
template <class T> static void notspd_case(const target *t, int path, int n) {
    const int batch = 3, p = n / 2;
    const size_t nn = (size_t)n * n;
    char what[120];
    snprintf(what, sizeof what, "%s non-SPD %s n=%d", tname<T>(), path_name(path), n);
    double *a = HALLOC(double, nn * batch), *l = HALLOC(double, nn);
    T *hA = HALLOC(T, nn * batch), *hL = HALLOC(T, nn * batch);
    int *hinfo = HALLOC(int, batch);
    make_spd(a, n, batch, 500 + (uint32_t)n);
    a[1 * nn + (size_t)p * n + p] = -1;
    for (int i = 0; i < n; ++i) a[2 * nn + (size_t)i * n] = a[2 * nn + i] = 0;
    for (size_t i = 0; i < nn * batch; ++i) hA[i] = (i % n > (i / n) % n) ? (T)upper_mark(i) : (T)a[i]; /* upper never read */
    T *dA = DALLOC(T, nn * batch);
    int *dinfo = DALLOC(int, batch);
    UP(dA, hA, nn * batch * sizeof(T));
    POISON(dinfo, sizeof(int) * batch, POISON_I);
    CHECK_ERR_TXT(potrf(t->ex, path, n, dA, batch, dinfo), what, t->gpu ? TILE_OK : TILE_ERR_NOT_SPD);
    SYNC_OK();
    DOWN(hL, dA, nn * batch * sizeof(T));
    long bad = 0;
    for (size_t i = 0; i < nn * batch; ++i) {
        if (!(i % n > (i / n) % n)) continue;
        ++g_checks;
        if (!(hL[i] == (T)0))
            fail_elem(&bad, __FILE__, __LINE__, "%s: matrix %d upper (%d,%d) = %g, not 0", what, (int)(i / nn),
                      (int)(i % nn / n), (int)(i % n), (double)hL[i]);
    }
    fail_elem_total(__FILE__, __LINE__, what, bad, (long)(nn * batch));
    DOWN(hinfo, dinfo, sizeof(int) * batch);
    const int want[3] = {0, p + 1, 1};
    for (int q = 0; q < batch; ++q) {
        CHECK(ref_chol(a + q * nn, l, n) == want[q], "%s: reference info", what);
        CHECK(hinfo[q] == want[q], "%s: info[%d] = %d, expected %d", what, q, hinfo[q], want[q]);
    }
    /* matrix 0 factored; matrix 1's columns before p valid (the in-kernel and
     * CPU paths promise it; cuSOLVER's partial result is not specified) */
    const int lib = t->gpu && (path == TILE_PATH_LIBRARY || (path == TILE_PATH_AUTO && n > TILE_HOST_CHOL_TILE_MAX));
    ref_chol(a, l, n);
    double worst = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) worst = fmax(worst, fabs((double)hL[(size_t)i * n + j] - l[(size_t)i * n + j]));
    CHECK(worst <= (sizeof(T) == 4 ? 1e-4 : 1e-12), "%s: matrix 0 |L - ref| = %g", what, worst);
    ref_chol(a + nn, l, n);
    worst = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < p && j <= i; ++j) worst = fmax(worst, fabs((double)hL[nn + (size_t)i * n + j] - l[(size_t)i * n + j]));
    if (!lib) CHECK(worst <= (sizeof(T) == 4 ? 1e-4 : 1e-12), "%s: matrix 1 columns < %d: |L - ref| = %g", what, p, worst);
    /* info NULL: the same result code */
    UP(dA, hA, nn * batch * sizeof(T));
    CHECK_ERR_TXT(potrf(t->ex, path, n, dA, batch, NULL), what, TILE_ERR_NOT_SPD);
    tile_free(t->ex, dA);
    tile_free(t->ex, dinfo);
    free(a), free(l), free(hA), free(hL), free(hinfo);
}

template <class T> static void chol_tests(const target *t, cudaStream_t stream) {
    g_test = "potrf/potrs";
    const int batch = g_quick ? 3 : 24;
    static const int ns[] = {8, 33, 64, 128, 129, 200};
    for (int i = 0; i < 6; ++i) {
        if (g_quick && (i == 1 || i == 3 || i == 5)) continue;
        chol_case<T>(t, TILE_PATH_AUTO, ns[i], ns[i] > 128 ? (g_quick ? 2 : 6) : batch, 1);
    }
    chol_case<T>(t, TILE_PATH_AUTO, 40, batch, 5);
    chol_case<T>(t, TILE_PATH_AUTO, 140, g_quick ? 2 : 4, 5); /* cuSOLVER, one system per column */
    chol_case<T>(t, TILE_PATH_LIBRARY, 64, batch, 3);
    chol_case<T>(t, TILE_PATH_TILE, 100, batch, 1);
    if (stream) { /* asynchronous potrf on a stream of its own, both GPU paths */
        chol_case<T>(t, TILE_PATH_LIBRARY, 48, batch, 2, stream);
        chol_case<T>(t, TILE_PATH_AUTO, 48, batch, 2, stream);
    }
    g_test = "non-SPD";
    notspd_case<T>(t, TILE_PATH_AUTO, 40);  /* in-kernel on the GPU */
    notspd_case<T>(t, TILE_PATH_AUTO, 150); /* cuSOLVER on the GPU */
    notspd_case<T>(t, TILE_PATH_LIBRARY, 20);
    g_test = NULL;
}

/* ======================= errors ======================= */
static void error_tests(const target *t) {
    g_test = "errors";
    float *d = DALLOC(float, 64);
    int *di = DALLOC(int, 4);
    const tile_exec ex = t->ex;
    CHECK_ERR(tile_gemm_f32(ex, 0, 0, 2, 2, 2, 1.0f, d, 1, d, 2, 0.0f, d, 2), TILE_ERR_ARG);
    CHECK_ERR(tile_gemm_f32(ex, 2, 0, 2, 2, 2, 1.0f, d, 2, d, 2, 0.0f, d, 2), TILE_ERR_ARG);
    CHECK_ERR(tile_gemm_f32(ex, 0, 0, 2, 2, 2, 1.0f, NULL, 2, d, 2, 0.0f, d, 2), TILE_ERR_ARG);
    CHECK_ERR(tile_gemm_strided_batched_f32(ex, 0, 0, 2, 2, 2, 1.0f, d, 2, 4, d, 2, 4, 0.0f, d, 2, 2, 3), TILE_ERR_ARG);
    CHECK_ERR(tile_gemm_strided_batched_f32(ex, 0, 0, 2, 2, 2, 1.0f, d, 2, 4, d, 2, 4, 0.0f, d, 2, 4, -1), TILE_ERR_ARG);
    CHECK_ERR(tile_gemm_strided_batched_path_f32(ex, 9, 0, 0, 2, 2, 2, 1.0f, d, 2, 4, d, 2, 4, 0.0f, d, 2, 4, 1),
              TILE_ERR_ARG);
    CHECK_ERR(tile_potrf_batched_f32(ex, 0, d, 1, di), TILE_ERR_ARG);
    CHECK_ERR(tile_potrf_batched_f32(ex, 2, NULL, 1, di), TILE_ERR_ARG);
    CHECK_ERR(tile_potrf_batched_path_f32(ex, TILE_PATH_TILE, 129, d, 0, di), TILE_ERR_ARG);
    CHECK_ERR(tile_potrs_batched_f32(ex, 2, 0, d, d, 1), TILE_ERR_ARG);
    CHECK_ERR(tile_potrs_batched_path_f32(ex, 7, 2, 1, d, d, 1), TILE_ERR_ARG);
    CHECK_ERR(tile_potrf_batched_f32(ex, 4, d, 0, di), TILE_OK); /* empty batch */
    if (t->gpu) {
        /* the in-kernel gemm takes f32, N N, m, n, k <= 32 only */
        CHECK_ERR(tile_gemm_strided_batched_path_f32(ex, TILE_PATH_TILE, 1, 0, 2, 2, 2, 1.0f, d, 2, 4, d, 2, 4, 0.0f, d,
                                                     2, 4, 1),
                  TILE_ERR_ARG);
        CHECK_ERR(tile_gemm_strided_batched_path_f32(ex, TILE_PATH_TILE, 0, 0, 33, 1, 1, 1.0f, d, 1, 64, d, 1, 64, 0.0f,
                                                     d, 1, 64, 1),
                  TILE_ERR_ARG);
        CHECK_ERR(tile_gemm_strided_batched_path_f64(ex, TILE_PATH_TILE, 0, 0, 2, 2, 2, 1.0, (double *)d, 2, 4,
                                                     (double *)d, 2, 4, 0.0, (double *)d, 2, 4, 1),
                  TILE_ERR_ARG);
        /* a GPU that does not exist (valid arguments; nothing is touched) */
        float h[8] = {4, 2, 2, 10, 1, 0, 0, 1};
        int hi[2] = {0, 0};
        CHECK_ERR(tile_gemm_f32(tile_gpu(99), 0, 0, 2, 2, 2, 1.0f, h, 2, h, 2, 0.0f, h, 2), TILE_ERR_DEVICE);
        CHECK_ERR(tile_gemm_strided_batched_f32(tile_gpu(99), 0, 0, 2, 2, 2, 1.0f, h, 2, 4, h, 2, 4, 0.0f, h, 2, 4, 2),
                  TILE_ERR_DEVICE);
        CHECK_ERR(tile_potrf_batched_f32(tile_gpu(99), 2, h, 2, hi), TILE_ERR_DEVICE);
        CHECK_ERR(tile_potrs_batched_f32(tile_gpu(99), 2, 1, h, h, 2), TILE_ERR_DEVICE);
        CHECK(h[0] == 4 && hi[0] == 0, "nothing touched after TILE_ERR_DEVICE");
        int cur = -1;
        CHECK(cudaGetDevice(&cur) == cudaSuccess && cur == 0, "current device kept: %d", cur);
        /* handles destroyed and made again */
        tile_host_release();
        float one[4] = {1, 2, 3, 4};
        UP(d, one, sizeof one);
        CHECK_ERR(tile_gemm_f32(ex, 0, 0, 2, 2, 2, 1.0f, d, 2, d, 2, 0.0f, d + 4, 2), TILE_OK);
        CHECK_ERR(tile_potrf_batched_path_f32(ex, TILE_PATH_LIBRARY, 1, d, 1, NULL), TILE_OK);
        SYNC_OK();
        float got[8];
        DOWN(got, d, sizeof got);
        CHECK(got[0] == 1 && got[4] == 7 && got[5] == 10 && got[6] == 15 && got[7] == 22,
              "gemm after tile_host_release: %g %g %g %g %g", got[0], got[4], got[5], got[6], got[7]);
        tile_host_release();
    }
    tile_free(t->ex, d);
    tile_free(t->ex, di);
    g_test = NULL;
}

static void run_all(const target *t) {
    gc_target_begin(t);
    cudaStream_t s = 0;
    if (t->gpu && cudaStreamCreate(&s) != cudaSuccess) s = 0;
    error_tests(t);
    gemm_tests<float>(t, s);
    gemm_tests<double>(t, s);
    chol_tests<float>(t, s);
    chol_tests<double>(t, s);
    if (s) cudaStreamDestroy(s);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    int rc = gc_start(argc, argv, "host_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    tile_host_release();
    return gc_finish();
}
