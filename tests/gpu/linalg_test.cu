/* tests/gpu/linalg_test.cu - the Cholesky family, triangular solves,
 * transpose and diag_add (include/tile/linalg.h) on the GPU and on the CPU
 * target of the same nvcc build.
 *
 *   linalg_test             GPU 0 (when there is one), then the CPU target
 *   linalg_test --cpu-only  the CPU target only
 *   linalg_test --quick     SPD and non-SPD inputs of a few kernels (for
 *                           compute-sanitizer; racecheck covers the staging)
 *
 * Each residual kernel factors a random SPD matrix (N = 1 .. 128, f32 and
 * f64, blocks of 32 .. 256 threads, also 33 and 96, register or shared
 * operands, vector and matrix right-hand sides), solves with it three ways
 * (tile_cholesky_solve; lower solve then upper solve through the transposed
 * factor; in-place factor and in-place solve) and reports info in every
 * thread. Checked against double-precision host loops: |L L^T - A| / |A|,
 * |A x - b| / |b|, a zero strict upper triangle, the same info in every
 * thread; ill-conditioned (residuals only), singular (info 0 or N, never a
 * hang), non-SPD (info = the failing column, NaN from it on, the leading
 * block a valid factor, NaN solutions) and NaN inputs. The GPU's output
 * equals the CPU run of the same kernel within rounding (FMA contraction
 * differs), NaN where the CPU has NaN. The header example kernel (transpose,
 * views, diag_add, eps clamp) compares exactly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"
#include "../linalg_ref.h"

/* register operands: every operation stages */
#define LK_BODY_REG(T, N, K)                                                       \
    tile_reg(T, A, N, N);                                                          \
    tile_reg(T, L, N, N);                                                          \
    tile_reg(T, rb, N, K);                                                         \
    tile_reg(T, z, N, K);                                                          \
    tile_load(A, tile_array2(a, N, N), 0, 0);                                      \
    tile_load(rb, tile_array2(b, N, K), 0, 0);                                     \
    tile_cholesky_info(L, A, &inf1);                                               \
    tile_store(tile_array2(out, N, N), L, 0, 0);                                   \
    tile_cholesky_solve(z, L, rb);                                                 \
    tile_store(tile_array2(out + nn, N, K), z, 0, 0);                              \
    tile_lower_solve(z, L, rb);                                                    \
    tile_transpose(A, L);                                                          \
    tile_upper_solve_inplace(A, z);                                                \
    tile_store(tile_array2(out + nn + nk, N, K), z, 0, 0);                         \
    tile_load(L, tile_array2(a, N, N), 0, 0); /* (A is dead: fewer live slots) */  \
    tile_cholesky_inplace_info(L, &inf2);                                          \
    tile_cholesky_solve_inplace(L, rb);                                            \
    tile_store(tile_array2(out + nn + 2 * nk, N, K), rb, 0, 0)

#define LK_(name, T, N, K, B, SMEM, BODY)                                          \
    TILE_KERNEL_SMEM(name, B, SMEM, const T *a, const T *b, T *out, int *info) {   \
        const int nn = N * N, nk = N * K;                                          \
        (void)nk;                                                                  \
        int inf1 = -1, inf2 = -1;                                                  \
        { BODY(T, N, K); }                                                         \
        if (tile_thread() == 0) { info[0] = inf1; info[1] = inf2; }                \
        tile_barrier();                                                            \
        if (inf1 != info[0] || inf2 != info[1]) info[2] = 1; /* all threads agree */ \
    }
#define LKS(name, T, N, K, B) LK_(name, T, N, K, B, 2 * TILE_SMEM_BYTES(T, N, N) + 3 * TILE_SMEM_BYTES(T, N, K), LK_BODY_SH)
#define LKR(name, T, N, K, B) LK_(name, T, N, K, B, 0, LK_BODY_REG)

LKR(r_f32_1_1_32, float, 1, 1, 32)
LKR(r_f32_2_1_32, float, 2, 1, 32)
LKR(r_f32_3_2_33, float, 3, 2, 33)
LKS(s_f32_7_1_64, float, 7, 1, 64)
LKR(r_f32_16_4_96, float, 16, 4, 96)
LKS(s_f32_31_1_128, float, 31, 1, 128)
LKR(r_f32_32_1_96, float, 32, 1, 96)
LKS(s_f32_33_3_256, float, 33, 3, 256)
LKR(r_f32_32_2_128, float, 32, 2, 128)
LKS(s_f32_64_64_256, float, 64, 64, 256)
LKS(s_f32_100_2_128, float, 100, 2, 128)
LKS(s_f32_128_1_256, float, 128, 1, 256)
LKR(r_f64_7_1_32, double, 7, 1, 32)
LKS(s_f64_16_2_64, double, 16, 2, 64)
LKR(r_f64_32_3_96, double, 32, 3, 96)
LKS(s_f64_64_1_128, double, 64, 1, 128)
LKS(s_f64_100_1_256, double, 100, 1, 256)

typedef struct lk_desc {
    const char *name;
    int dbl, n, k, b, quick;
    int (*run)(const target *t, const void *a, const void *b, void *out, int *info);
} lk_desc;
#define LKE(name, T, N, K, B, Q)                                                   \
    static int run_##name(const target *t, const void *a, const void *b, void *out, int *info) { \
        return tile_launch(t->ex, name, tile_grid1(1), B, (const T *)a, (const T *)b, (T *)out, info); \
    }
#define LKD(name, T, N, K, B, Q) {#name, sizeof(T) == 8, N, K, B, Q, run_##name}
#define LK_LIST(X)                                                                 \
    X(r_f32_1_1_32, float, 1, 1, 32, 1) X(r_f32_2_1_32, float, 2, 1, 32, 0)        \
    X(r_f32_3_2_33, float, 3, 2, 33, 1) X(s_f32_7_1_64, float, 7, 1, 64, 0)        \
    X(r_f32_16_4_96, float, 16, 4, 96, 1) X(s_f32_31_1_128, float, 31, 1, 128, 0)  \
    X(r_f32_32_1_96, float, 32, 1, 96, 0) X(s_f32_33_3_256, float, 33, 3, 256, 1)  \
    X(r_f32_32_2_128, float, 32, 2, 128, 0) X(s_f32_64_64_256, float, 64, 64, 256, 0) \
    X(s_f32_100_2_128, float, 100, 2, 128, 0) X(s_f32_128_1_256, float, 128, 1, 256, 0) \
    X(r_f64_7_1_32, double, 7, 1, 32, 0) X(s_f64_16_2_64, double, 16, 2, 64, 1)    \
    X(r_f64_32_3_96, double, 32, 3, 96, 1) X(s_f64_64_1_128, double, 64, 1, 128, 0) \
    X(s_f64_100_1_256, double, 100, 1, 256, 0)
#define LK_COMMA_D(...) LKD(__VA_ARGS__),
LK_LIST(LKE)
static const lk_desc lk_all[] = {LK_LIST(LK_COMMA_D)};

enum { IN_SPD, IN_ILL, IN_NONSPD, IN_NAN, IN_SINGULAR, IN_KINDS };
static const char *in_name[] = {"spd", "ill-conditioned", "non-spd", "nan", "singular"};

/* the GPU output of each (kernel, kind), compared when the CPU run of it arrives */
static double *gpu_out[64][IN_KINDS];

static void run_lk(const target *t, int ki, int kind) {
    const lk_desc *d = &lk_all[ki];
    const int n = d->n, k = d->k, es = d->dbl ? 8 : 4, no = n * n + 3 * n * k;
    char what[160];
    snprintf(what, sizeof what, "%s [%s]", d->name, in_name[kind]);
    g_test = what;
    double *A = (double *)malloc(sizeof(double) * n * n), *bb = (double *)malloc(sizeof(double) * n * k);
    make_spd(A, n, 7 + n, kind == IN_ILL ? 1e-5 : 1.0);
    int fail_col = -1;
    if (kind == IN_NONSPD && n > 1) { fail_col = n / 2; A[fail_col * n + fail_col] = -1.0; }
    if (kind == IN_SINGULAR && n > 1) {
        for (int j = 0; j < n; ++j) { A[(n - 1) * n + j] = A[j]; A[j * n + n - 1] = A[j]; }
        A[(n - 1) * n + n - 1] = A[0];
    }
    if (kind == IN_NAN) { fail_col = n - 1; A[(n - 1) * n + (n > 1 ? n - 2 : 0)] = NAN; }
    for (int i = 0; i < n * k; ++i) bb[i] = tile_hash_unit(99u, (uint32_t)i) * 2 - 1;
    unsigned char *ha = HALLOC(unsigned char, (size_t)es * n * n), *hb = HALLOC(unsigned char, (size_t)es * n * k),
                  *ho = HALLOC(unsigned char, (size_t)es * no);
    for (int i = 0; i < n * n; ++i) { if (d->dbl) ((double *)ha)[i] = A[i]; else ((float *)ha)[i] = (float)A[i]; }
    for (int i = 0; i < n * k; ++i) { if (d->dbl) ((double *)hb)[i] = bb[i]; else ((float *)hb)[i] = (float)bb[i]; }
    void *da = DALLOC(unsigned char, (size_t)es * n * n), *db = DALLOC(unsigned char, (size_t)es * n * k),
         *dout = DALLOC(unsigned char, (size_t)es * no);
    int *dinfo = DALLOC(int, 3);
    const int info0[3] = {-7, -7, 0};
    int info[3];
    UP(da, ha, (size_t)es * n * n);
    UP(db, hb, (size_t)es * n * k);
    UP(dinfo, info0, sizeof info0);
    POISON(dout, (size_t)es * no, POISON_F);
    RUN_OK(d->run(t, da, db, dout, dinfo));
    DOWN(ho, dout, (size_t)es * no);
    DOWN(info, dinfo, sizeof info);
    double *o = (double *)malloc(sizeof(double) * no);
    for (int i = 0; i < no; ++i) o[i] = d->dbl ? ((double *)ho)[i] : ((float *)ho)[i];
    for (int i = 0; i < n * n; ++i) A[i] = d->dbl ? ((double *)ha)[i] : ((float *)ha)[i];
    CHECK(info[2] == 0, "threads disagree on info");
    long bad = 0;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (o[i * n + j] != 0.0) fail_elem(&bad, __FILE__, __LINE__, "L[%d][%d] = %g, want 0", i, j, o[i * n + j]);
    CHECK(bad == 0, "strict upper triangle not zero");
    const double tol = d->dbl ? 1e-12 : 2e-5;
    if (kind == IN_SPD || kind == IN_ILL) {
        const double rl = chol_resid(o, A, n, n);
        const double ts = kind == IN_ILL ? tol * 1e6 : tol * 10;
        CHECK(rl < tol * 10, "|L L^T - A| / |A| = %g (tolerance %g)", rl, tol * 10);
        for (int s = 0; s < 3; ++s) {
            const double rx = solve_resid(A, o + n * n + s * n * k, bb, n, k);
            CHECK(rx < ts, "solve %d: |A x - b| / |b| = %g (tolerance %g)", s, rx, ts);
        }
        CHECK(info[0] == 0 && info[1] == 0, "info %d %d, want 0", info[0], info[1]);
    } else if (kind == IN_SINGULAR) {
        CHECK((info[0] == 0 || info[0] == n) && info[0] == info[1], "info %d %d, want 0 or %d", info[0], info[1], n);
        if (info[0] == n) CHECK(isnan(o[n * n - 1]), "L[n-1][n-1] = %g, want NaN", o[n * n - 1]);
    } else if (fail_col >= 0) {
        CHECK(info[0] == fail_col + 1 && info[1] == fail_col + 1, "info %d %d, want %d", info[0], info[1], fail_col + 1);
        bad = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j <= i; ++j) {
                const int want_nan = j >= fail_col || (kind == IN_NAN && i == n - 1 && j == n - 2);
                if (want_nan != (isnan(o[i * n + j]) != 0))
                    fail_elem(&bad, __FILE__, __LINE__, "L[%d][%d] = %g (NaN expected: %d)", i, j, o[i * n + j], want_nan);
            }
        for (int i = 0; i < 3 * n * k; ++i)
            if (!isnan(o[n * n + i])) fail_elem(&bad, __FILE__, __LINE__, "x[%d] = %g, want NaN", i, o[n * n + i]);
        CHECK(bad == 0, "NaN pattern of a failed factorization");
        if (fail_col > 0) {
            const double r = chol_resid(o, A, fail_col, n);
            CHECK(r < tol * 10, "leading %d x %d block residual %g", fail_col, fail_col, r);
        }
    }
    /* GPU = the CPU run of the same kernel (the CPU target runs second: */
    /* the GPU run is compared when the CPU one arrives) */
    if (t->gpu) {
        gpu_out[ki][kind] = o;
        o = NULL;
    } else if (gpu_out[ki][kind] && kind != IN_SINGULAR) { /* (a ~0 pivot's fate is rounding) */
        const double *g = gpu_out[ki][kind];
        bad = 0;
        for (int i = 0; i < no; ++i) {
            const int gn = isnan(g[i]) != 0, cn = isnan(o[i]) != 0;
            const double scale = fabs(o[i]) + 1.0;
            if (gn != cn || (!cn && kind != IN_ILL && !(fabs(g[i] - o[i]) <= (d->dbl ? 1e-9 : 1e-3) * scale)))
                fail_elem(&bad, __FILE__, __LINE__, "GPU %g vs CPU %g at %d", g[i], o[i], i);
        }
        CHECK(bad == 0, "GPU and CPU runs differ");
    }
    if (!t->gpu) {
        free(gpu_out[ki][kind]);
        gpu_out[ki][kind] = NULL;
    }
    free(o);
    free(A); free(bb); free(ha); free(hb); free(ho);
    tile_free(t->ex, da); tile_free(t->ex, db); tile_free(t->ex, dout); tile_free(t->ex, dinfo);
    g_test = NULL;
}

/* ---- the header's examples (block of 8; 33 for a partial warp) ---- */
#define EXK(name, B)                                                               \
    TILE_KERNEL_SMEM(name, B, 4096, const float *a, const float *b, float *out, int *info) { \
        tile_reg(float, A, 3, 3);                                                  \
        tile_reg(float, y, 3);                                                     \
        tile_load(A, tile_array2(a, 3, 3), 0, 0);                                  \
        tile_load(y, tile_array1(b, 3), 0);                                        \
        tile_reg(float, L, 3, 3);                                                  \
        tile_cholesky(L, A);                                                       \
        tile_store(tile_array2(out, 3, 3), L, 0, 0);                               \
        tile_reg(float, x, 3);                                                     \
        tile_cholesky_solve(x, L, y);                                              \
        tile_store(tile_array1(out + 9, 3), x, 0);                                 \
        tile_lower_solve(x, L, y);                                                 \
        tile_store(tile_array1(out + 12, 3), x, 0);                                \
        tile_shared(float, T, 3, 3);                                               \
        tile_transpose(T, L);                                                      \
        tile_store(tile_array2(out + 15, 3, 3), T, 0, 0);                          \
        tile_reg(float, w, 3);                                                     \
        tile_upper_solve(w, T, x);                                                 \
        tile_store(tile_array1(out + 24, 3), w, 0);                                \
        tile_reg(float, B2, 3, 3);                                                 \
        tile_diag_add_c(B2, A, 1.0f);                                              \
        tile_store(tile_array2(out + 27, 3, 3), B2, 0, 0);                         \
        tile_reg(float, d, 3);                                                     \
        tile_arange(d, 10, 10);                                                    \
        tile_reg(float, ar, 3, 3);                                                 \
        tile_arange(ar, 0, 1);                                                     \
        tile_diag_add(B2, ar, d);                                                  \
        tile_store(tile_array2(out + 36, 3, 3), B2, 0, 0);                         \
        tile_shared(float, s23, 2, 3);                                             \
        tile_arange(s23, 1, 1);                                                    \
        tile_transpose_view(v32, s23);                                             \
        tile_store(tile_array2(out + 45, 3, 2), v32, 0, 0);                        \
        tile_reg(float, t32, 3, 2);                                                \
        tile_transpose(t32, s23);                                                  \
        tile_store(tile_array2(out + 51, 3, 2), t32, 0, 0);                        \
        tile_reg(float, N2, 2, 2);                                                 \
        tile_reg(float, M2, 2, 2);                                                 \
        tile_full(M2, 2.0f);                                                       \
        tile_diag_add_c(M2, M2, -1.0f);                                            \
        int i1 = -1, i2 = -1;                                                      \
        tile_cholesky_info(N2, M2, &i1);                                           \
        tile_store(tile_array2(out + 57, 2, 2), N2, 0, 0);                         \
        tile_cholesky_ex(M2, M2, 1e-3f, &i2);                                      \
        tile_store(tile_array2(out + 61, 2, 2), M2, 0, 0);                         \
        if (tile_thread() == 0) { info[0] = i1; info[1] = i2; }                    \
    }
EXK(ex8, 8)
EXK(ex33, 33)

static void run_examples(const target *t) {
    g_test = "header examples";
    const float a[9] = {4, 2, 2, 2, 5, 3, 2, 3, 6}, b[3] = {8, 10, 11};
    const float want[65] = {2, 0, 0, 1, 2, 0, 1, 1, 2, 1, 1, 1, 4, 3, 2, 2, 1, 1, 0, 2, 1, 0, 0, 2, 1, 1, 1,
                            5, 2, 2, 2, 6, 3, 2, 3, 7, 10, 1, 2, 3, 24, 5, 6, 7, 38, 1, 4, 2, 5, 3, 6, 1, 4, 2, 5, 3, 6,
                            1, 0, 2, NAN, 1, 0, 2, 0.0316227766f};
    float *da = DALLOC(float, 9), *db = DALLOC(float, 3), *dout = DALLOC(float, 65);
    int *dinfo = DALLOC(int, 2);
    UP(da, a, sizeof a);
    UP(db, b, sizeof b);
    for (int v = 0; v < 2; ++v) {
        float out[65];
        int info[2];
        POISON(dout, sizeof out, POISON_F);
        if (v == 0) RUN_OK(tile_launch(t->ex, ex8, tile_grid1(1), 8, (const float *)da, (const float *)db, dout, dinfo));
        else RUN_OK(tile_launch(t->ex, ex33, tile_grid1(1), 33, (const float *)da, (const float *)db, dout, dinfo));
        DOWN(out, dout, sizeof out);
        DOWN(info, dinfo, sizeof info);
        for (int i = 0; i < 65; ++i) {
            if (i == 60) CHECK(isnan(out[i]), "block %d: out[60] = %g, want NaN", v ? 33 : 8, out[i]);
            else CHECK(fabsf(out[i] - want[i]) <= 1e-6f * (1 + fabsf(want[i])), "block %d: out[%d] = %.9g, want %.9g",
                       v ? 33 : 8, i, out[i], want[i]);
        }
        CHECK(info[0] == 2 && info[1] == 2, "block %d: info %d %d, want 2 2", v ? 33 : 8, info[0], info[1]);
    }
    tile_free(t->ex, da); tile_free(t->ex, db); tile_free(t->ex, dout); tile_free(t->ex, dinfo);
    g_test = NULL;
}

static void run_all(const target *t) {
    gc_target_begin(t);
    run_examples(t);
    for (int ki = 0; ki < (int)(sizeof lk_all / sizeof lk_all[0]); ++ki) {
        if (g_quick && !lk_all[ki].quick) continue;
        for (int kind = 0; kind < IN_KINDS; ++kind) {
            if (g_quick && kind != IN_SPD && kind != IN_NONSPD) continue;
            if (kind == IN_NONSPD && lk_all[ki].n == 1) continue;
            run_lk(t, ki, kind);
        }
    }
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "linalg_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
