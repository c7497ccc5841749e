/* test_chol_wsolve_sim.c - the batched Cholesky's warp solve
 * (include/tile/chol_batched.h, TILE__CHOL_WS_DEF: a warp a (matrix,
 * right-hand-side column), L y = b by rows with a butterfly sum over the
 * warp, L^T x = y by rows of L from the last with one broadcast a row) in its
 * GPU form, a lane a thread, run on the CPU under the block simulator
 * (block_sim.h): 128 threads, four warps, every shuffle a warp step that
 * waits for all 32 lanes at the same source line, the threads in ascending,
 * descending and random order.
 *
 * Each run is compared with the library's CPU target of the same kernel
 * (tile__chol_wsolve_launch_<type> on TILE_CPU: the 32 lanes in one thread):
 * x bit for bit (both take the products as fma and the sum in the
 * butterfly's order); with the tile solve (tile__chol_tsolve_launch) within
 * rounding; with the double-precision solve of the same L; and the
 * residual ||A x - b|| / (||A|| ||x|| + ||b||) against A itself. L comes from
 * the library's factor, with NaN written over its strictly upper triangle
 * (the solve reads the lower one only) and guards after b. n = 1 ... 128 at
 * the ends of each 32-row block and inside, nrhs 1 (three tasks and an idle
 * warp) and 2 (four tasks, two matrices), f32 and f64.
 */
#include <stddef.h>
#include <stdint.h>

static int sim_tid;

#include "test_util.h"
#include "block_sim.h"
#include "../chol_ref.h"

/* the device's hooks, a lane a simulated thread */
#define SIM_WS_LANE(v) ((sim_tid & 31) + 0 * (v))
#define SIM_WS_SUM(T, p) \
    for (int o_ = 16; o_ > 0; o_ >>= 1) (p)[0] += sim_shfl((p)[0], (sim_tid & 31) ^ o_, __LINE__)
#define SIM_WS_BCAST(a, j) sim_shfl((a)[0], (j), __LINE__)
TILE__CHOL_WS_DEF(sim_ws_f32, float, 1, SIM_WS_LANE, SIM_WS_SUM, SIM_WS_BCAST, fmaf, )
TILE__CHOL_WS_DEF(sim_ws_f64, double, 1, SIM_WS_LANE, SIM_WS_SUM, SIM_WS_BCAST, fma, )

/* the simulated launch: warp w of the block takes task w (the kernel's
 * mapping: matrix task / nrhs, column task % nrhs) */
static void *g_l, *g_b;
static int g_n, g_nrhs, g_batch, g_f64;
static void k_ws(void) {
    const int task = sim_tid / 32, m = task / g_nrhs;
    if (m >= g_batch) return;
    const size_t lo = (size_t)m * g_n * g_n, bo = (size_t)m * g_n * g_nrhs;
    if (g_f64) sim_ws_f64((const double *)g_l + lo, (double *)g_b + bo, g_n, g_nrhs, task % g_nrhs);
    else sim_ws_f32((const float *)g_l + lo, (float *)g_b + bo, g_n, g_nrhs, task % g_nrhs);
}

enum { GUARD = 5 };
static int run_one(int f64, int n, int nrhs, int pol) {
    const int batch = nrhs == 1 ? 3 : 2; /* 3 or 4 tasks: the block's fourth warp idle or busy */
    const size_t es = f64 ? sizeof(double) : sizeof(float), nn = (size_t)n * n, nb = (size_t)n * nrhs;
    double *a = (double *)malloc(sizeof(double) * nn * batch), *ld = (double *)malloc(sizeof(double) * nn);
    double *bd = (double *)malloc(sizeof(double) * nb * batch);
    unsigned char *l = (unsigned char *)malloc(es * nn * batch);
    unsigned char *bs = (unsigned char *)malloc(es * (nb * batch + GUARD)), *bc = (unsigned char *)malloc(es * (nb * batch + GUARD)),
                  *bt = (unsigned char *)malloc(es * (nb * batch + GUARD));
    assert_non_null(a); assert_non_null(ld); assert_non_null(bd); assert_non_null(l);
    assert_non_null(bs); assert_non_null(bc); assert_non_null(bt);
    for (int m = 0; m < batch; ++m) /* SPD, condition <= ~2n */
        for (int i = 0; i < n; ++i)
            for (int j = 0; j <= i; ++j) {
                const double v = i == j ? n + 0.5 + 0.5 * uval(91u + (uint32_t)m, (uint32_t)i)
                                        : uval(17u + (uint32_t)(m * 7 + n), (uint32_t)(i * n + j));
                a[nn * m + (size_t)i * n + j] = a[nn * m + (size_t)j * n + i] = v;
            }
    for (size_t e = 0; e < nn * batch; ++e) {
        if (f64) ((double *)l)[e] = a[e];
        else ((float *)l)[e] = (float)a[e];
    }
    for (size_t e = 0; e < nb * batch + GUARD; ++e) {
        const double v = e < nb * batch ? uval(5u + (uint32_t)n, (uint32_t)e) : -3.5;
        if (e < nb * batch) bd[e] = v;
        if (f64) ((double *)bs)[e] = v;
        else ((float *)bs)[e] = (float)v;
    }
    int bad = 0;
    if (f64) bad += tile_chol_batched_f64(TILE_CPU, (double *)l, n, batch, NULL) != TILE_OK;
    else bad += tile_chol_batched_f32(TILE_CPU, (float *)l, n, batch, NULL) != TILE_OK;
    for (int m = 0; m < batch; ++m) /* the solve reads the lower triangle only */
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                const size_t e = nn * m + (size_t)i * n + j;
                if (f64) ((double *)l)[e] = NAN;
                else ((float *)l)[e] = NAN;
            }
    memcpy(bc, bs, es * (nb * batch + GUARD));
    memcpy(bt, bs, es * (nb * batch + GUARD));
    if (f64) {
        bad += tile__chol_wsolve_launch_f64(TILE_CPU, (const double *)l, (double *)bc, n, nrhs, batch) != TILE_OK;
        bad += tile__chol_tsolve_launch_f64(TILE_CPU, (const double *)l, (double *)bt, n, nrhs, batch) != TILE_OK;
    } else {
        bad += tile__chol_wsolve_launch_f32(TILE_CPU, (const float *)l, (float *)bc, n, nrhs, batch) != TILE_OK;
        bad += tile__chol_tsolve_launch_f32(TILE_CPU, (const float *)l, (float *)bt, n, nrhs, batch) != TILE_OK;
    }
    g_l = l;
    g_b = bs;
    g_n = n;
    g_nrhs = nrhs;
    g_batch = batch;
    g_f64 = f64;
    if (sim_run(128, pol, k_ws)) {
        print_error("wsolve %s n=%d nrhs=%d %s order: simulator: %s\n", f64 ? "f64" : "f32", n, nrhs, sim_pol_name[pol], sim_err);
        ++bad;
    }
    /* bit for bit the CPU target's run (guards included) */
    if (memcmp(bs, bc, es * (nb * batch + GUARD))) {
        print_error("wsolve %s n=%d nrhs=%d %s: the GPU form differs from the CPU target's bits\n", f64 ? "f64" : "f32", n, nrhs,
                    sim_pol_name[pol]);
        ++bad;
    }
    const double tol = f64 ? 1e-12 : 2e-5;
    double et = 0, ed = 0, res = 0;
    for (int m = 0; m < batch; ++m) {
        for (size_t e = 0; e < nn; ++e) ld[e] = f64 ? ((double *)l)[nn * m + e] : ((float *)l)[nn * m + e];
        for (int c = 0; c < nrhs; ++c) {
            double y[128], x[128], an = 0, xn = 0, bn = 0, rn = 0;
            for (int i = 0; i < n; ++i) { /* the double solve of the same L */
                double s = bd[nb * m + (size_t)i * nrhs + c];
                for (int k = 0; k < i; ++k) s -= ld[(size_t)i * n + k] * y[k];
                y[i] = s / ld[(size_t)i * n + i];
            }
            for (int i = n - 1; i >= 0; --i) {
                double s = y[i];
                for (int k = i + 1; k < n; ++k) s -= ld[(size_t)k * n + i] * x[k];
                x[i] = s / ld[(size_t)i * n + i];
            }
            for (int i = 0; i < n; ++i) {
                const size_t e = nb * m + (size_t)i * nrhs + c;
                const double g = f64 ? ((double *)bs)[e] : ((float *)bs)[e], t = f64 ? ((double *)bt)[e] : ((float *)bt)[e];
                et = fmax(et, g == g ? fabs(g - t) / (1 + fabs(t)) : 1.0);
                ed = fmax(ed, g == g ? fabs(g - x[i]) / (1 + fabs(x[i])) : 1.0);
                double s = 0;
                for (int k = 0; k < n; ++k)
                    s += a[nn * m + (size_t)i * n + k] * (f64 ? ((double *)bs)[nb * m + (size_t)k * nrhs + c]
                                                              : ((float *)bs)[nb * m + (size_t)k * nrhs + c]);
                rn += (s - bd[e]) * (s - bd[e]);
                xn += g * g;
                bn += bd[e] * bd[e];
                for (int k = 0; k < n; ++k) an += a[nn * m + (size_t)i * n + k] * a[nn * m + (size_t)i * n + k];
            }
            const double r = sqrt(rn) / (sqrt(an) * sqrt(xn) + sqrt(bn));
            res = r > res || r != r ? r : res;
        }
    }
    if (!(et <= 10 * tol && ed <= 10 * tol && res <= tol)) {
        print_error("wsolve %s n=%d nrhs=%d: against the tile solve %.3g, the double solve %.3g, residual %.3g (tol %.1g)\n",
                    f64 ? "f64" : "f32", n, nrhs, et, ed, res, tol);
        ++bad;
    }
    for (int e = 0; e < GUARD; ++e) {
        const double g = f64 ? ((double *)bs)[nb * batch + e] : ((float *)bs)[nb * batch + e];
        if (g != -3.5) {
            print_error("wsolve %s n=%d nrhs=%d: the guard after b changed\n", f64 ? "f64" : "f32", n, nrhs);
            ++bad;
            break;
        }
    }
    free(a); free(ld); free(bd); free(l); free(bs); free(bc); free(bt);
    return bad;
}

static const int g_ns[] = {1, 2, 5, 16, 31, 32, 33, 47, 63, 64, 65, 92, 96, 97, 113, 127, 128};
static void test_wsolve(void **state) {
    const int f64 = *(const int *)*state;
    int bad = 0;
    for (size_t q = 0; q < sizeof g_ns / sizeof g_ns[0]; ++q)
        for (int nrhs = 1; nrhs <= 2; ++nrhs)
            for (int pol = 0; pol < SIM_NPOL; ++pol) bad += run_one(f64, g_ns[q], nrhs, pol);
    assert_int_equal(bad, 0);
}

/* the hook fails when it should: lanes of a warp at different shuffles */
static void k_diverge(void) {
    float x = (float)sim_tid;
    if (sim_tid & 1) x = sim_shfl(x, 0, __LINE__);
    else x = sim_shfl(x, 0, __LINE__);
}
static void test_divergence_detected(void **state) {
    (void)state;
    assert_int_not_equal(sim_run(32, POL_ASC, k_diverge), 0);
}

/* arguments: the launcher's errors, batch 0 a no-op */
static void test_wsolve_args(void **state) {
    (void)state;
    float l[4] = {2, 0, 1, 3}, b[2] = {2, 7};
    assert_int_equal(tile__chol_wsolve_launch_f32(TILE_CPU, l, b, 0, 1, 1), TILE_ERR_ARG);
    assert_int_equal(tile__chol_wsolve_launch_f32(TILE_CPU, l, b, 129, 1, 1), TILE_ERR_ARG);
    assert_int_equal(tile__chol_wsolve_launch_f32(TILE_CPU, l, b, 2, 0, 1), TILE_ERR_ARG);
    assert_int_equal(tile__chol_wsolve_launch_f32(TILE_CPU, l, NULL, 2, 1, 1), TILE_ERR_ARG);
    assert_int_equal(tile__chol_wsolve_launch_f32(TILE_CPU, NULL, NULL, 2, 1, 0), TILE_OK);
    /* L = [[2, 0], [1, 3]], A = L L^T = [[4, 2], [2, 10]], b = {2, 7}: y = {1, 2}, x = {1/6, 2/3} */
    assert_int_equal(tile__chol_wsolve_launch_f32(TILE_CPU, l, b, 2, 1, 1), TILE_OK);
    assert_true(fabs(b[0] - 1.0 / 6) < 1e-6 && fabs(b[1] - 2.0 / 3) < 1e-6);
}

int main(void) {
    static const int f32 = 0, f64 = 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_divergence_detected),
        cmocka_unit_test(test_wsolve_args),
        cmocka_unit_test_prestate(test_wsolve, (void *)&f32),
        cmocka_unit_test_prestate(test_wsolve, (void *)&f64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
