/* test_chol_rows_sim.c - the GPU rows kernels of the batched Cholesky
 * (include/tile/chol_batched.h, TILE__CHOL_ROWS_DEF: one thread a row in
 * registers, one barrier a step, the double-buffered shared column, the
 * pivot lookahead by the warp of row k + 1, the split column layout at
 * NP = 128 and f64 NP = 96) run on the CPU under the block simulator
 * (block_sim.h): every GPU thread a coroutine, a barrier where the kernel
 * has one, the threads between two barriers run in ascending, descending
 * and random order, so a read of shared data that another thread writes
 * without a barrier in between changes the result.
 *
 * The library launches these kernels on the GPU only (its CPU target runs
 * tile__chol_rows_host_<type>, the same arithmetic in one thread); here the
 * device code itself runs, with its MUFU reciprocals replaced by IEEE
 * operations, for every instantiation (f32 and f64, NP = 64 / 96 / 128, and
 * the one-warp kernel of path 3, TILE__CHOL_WARP64_DEF, f32 n <= 64), n
 * at the ends of each range and inside, an SPD, a non-SPD, a NaN and a
 * singular input with eps, 16-byte aligned (vector loads) and one element
 * off (element loads), NaN over the input's upper triangle. Each result is
 * compared with the host pass of the same contract: info (from thread 0 and
 * the value every thread returns), NaN in the same places, L within a
 * rounding tolerance, the upper triangle exactly +0, the elements around
 * the matrix untouched; the SPD factors also against a double Cholesky.
 */
#define _GNU_SOURCE
/* the group loop's cur / nxt are read only where they were loaded, which
 * gcc cannot follow once the step index is a run-time loop variable (nvcc
 * unrolls it) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <stddef.h>
#include <stdint.h>

static int sim_tid;

#include "test_util.h"
#include "block_sim.h"
#include "../chol_ref.h"

#undef tile_thread
#define tile_thread() sim_tid
#undef tile_barrier
#define tile_barrier() sim_barrier(__LINE__)
#define asm __asm__ /* the kernels' compiler-only memory fence, in C11 */

/* the device's MUFU reciprocals refined by Newton steps, as IEEE operations
 * (the same contract: NaN stays NaN, d = +inf gives 0) */
static float tile__chol_rcp_f32(float d) { return isinf(d) ? 0.0f : 1.0f / d; }
static float tile__chol_rsqrt_f32(float d) { return isinf(d) ? 0.0f : 1.0f / sqrtf(d); }
static double tile__chol_rcp_f64(double d) { return isinf(d) ? 0.0 : 1.0 / d; }
static double tile__chol_rsqrt_f64(double d) { return isinf(d) ? 0.0 : 1.0 / sqrt(d); }

TILE__CHOL_ROWS_DEF_ALL()
#define TILE__CHOL_WSYNC() sim_barrier(__LINE__) /* __syncwarp: the block is one warp */
TILE__CHOL_WARP64_DEF()

/* the simulated launch: every thread calls the kernel body on one matrix */
static void *g_a;
static int g_n, g_info, g_ret[SIM_MAXB];
static double g_eps;
#define SIM_ROWS_KERNEL(sfx, T, NP)                                                             \
    static void k_##sfx##_##NP(void) {                                                          \
        T *cb = (T *)sim_buf(TILE__CHOL_RCB_BYTES(T, NP));                                      \
        g_ret[sim_tid] = tile__chol_rows##NP##_##sfx(cb, (T *)g_a, g_n, (T)g_eps, &g_info);     \
    }
SIM_ROWS_KERNEL(f32, float, 64)
SIM_ROWS_KERNEL(f32, float, 96)
SIM_ROWS_KERNEL(f32, float, 128)
SIM_ROWS_KERNEL(f64, double, 64)
SIM_ROWS_KERNEL(f64, double, 96)
SIM_ROWS_KERNEL(f64, double, 128)
static void k_w64(void) {
    float *cb = (float *)sim_buf(TILE__CHOL_W64_FLOATS * sizeof(float));
    g_ret[sim_tid] = tile__chol_warp64_f32(cb, (float *)g_a, g_n, (float)g_eps, &g_info);
}

typedef struct {
    const char *name;
    int f64, block, ns[3];
    void (*fn)(void);
} rows_cfg;
#define RCFG(sfx, f64, NP, n0, n1, n2) \
    {"rows" #NP "_" #sfx, f64, TILE__CHOL_RBLOCK(NP, TILE__CHOL_RC_##sfx##_##NP), {n0, n1, n2}, k_##sfx##_##NP}
static const rows_cfg cfgs[] = {
    RCFG(f32, 0, 64, 33, 38, 64),   RCFG(f32, 0, 96, 65, 92, 96),   RCFG(f32, 0, 128, 97, 113, 128),
    RCFG(f64, 1, 64, 33, 47, 64),   RCFG(f64, 1, 96, 65, 91, 96),   RCFG(f64, 1, 128, 97, 118, 128),
    {"warp64_f32", 0, 32, {33, 50, 64}, k_w64}, /* the warp kernel (path 3) */
};
enum { NCFG = (int)(sizeof cfgs / sizeof cfgs[0]) };
enum { K_SPD, K_NONSPD, K_NAN, K_SINGULAR_EPS, NKIND };
static const char *const kind_name[NKIND] = {"SPD", "non-SPD", "NaN", "singular+eps"};

/* the input in double: symmetric, uniform(-1, 1) off the diagonal, n + 1 + u
 * on it; non-SPD: a_pp = -1 (p = n / 2); NaN: a_{n-1,1} (n = 1: a_00); singular: row and
 * column p zero */
static void make_input(double *a, int n, int kind, uint32_t seed) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            const double u = uval(seed, (uint32_t)(i * 131 + j));
            a[i * n + j] = a[j * n + i] = i == j ? n + 1 + u : u;
        }
    const int p = n / 2;
    if (kind == K_NONSPD) a[p * n + p] = -1.0;
    const int q = n > 1; /* n = 1: the NaN is the diagonal */
    if (kind == K_NAN) a[(n - 1) * n + q] = a[q * n + (n - 1)] = NAN;
    if (kind == K_SINGULAR_EPS)
        for (int j = 0; j < n; ++j) a[p * n + j] = a[j * n + p] = 0.0;
}

/* one run: elem bytes, off elements before the matrix; returns the failures */
static int run_one(const rows_cfg *c, int n, int kind, int off, int pol) {
    const size_t es = c->f64 ? sizeof(double) : sizeof(float), nn = (size_t)n * n;
    const size_t total = nn + (size_t)off + 8;
    double *ad = (double *)malloc(nn * sizeof(double)), *ld = (double *)malloc(nn * sizeof(double));
    unsigned char *buf = (unsigned char *)aligned_alloc(16, (total * es + 15) / 16 * 16);
    unsigned char *ref = (unsigned char *)malloc(total * es);
    assert_non_null(ad);
    assert_non_null(ld);
    assert_non_null(buf);
    assert_non_null(ref);
    make_input(ad, n, kind, 20261129u + (uint32_t)n);
    const double eps = kind == K_SINGULAR_EPS ? 1e-3 : 0.0;
    const double guard = -7.25;
    for (size_t e = 0; e < total; ++e) { /* guards around, NaN over the upper triangle */
        const size_t m = e - (size_t)off;
        const int inside = e >= (size_t)off && m < nn, upper = inside && (int)(m % (size_t)n) > (int)(m / (size_t)n);
        const double v = !inside ? guard : upper ? NAN : ad[m];
        if (c->f64) ((double *)buf)[e] = v;
        else ((float *)buf)[e] = (float)v;
    }
    memcpy(ref, buf, total * es);
    int want;
    if (c->f64) want = tile__chol_rows_host_f64((double *)ref + off, n, eps);
    else want = tile__chol_rows_host_f32((float *)ref + off, n, (float)eps);
    g_a = buf + (size_t)off * es;
    g_n = n;
    g_eps = eps;
    g_info = -99;
    for (int t = 0; t < c->block; ++t) g_ret[t] = -98;
    int bad = 0;
    if (sim_run(c->block, pol, c->fn)) {
        print_error("%s n=%d %s off=%d %s order: simulator: %s\n", c->name, n, kind_name[kind], off,
                    sim_pol_name[pol], sim_err);
        bad = 1;
    }
    if (g_info != want) {
        print_error("%s n=%d %s off=%d %s: info %d, host pass %d\n", c->name, n, kind_name[kind], off,
                    sim_pol_name[pol], g_info, want);
        ++bad;
    }
    for (int t = 0; t < c->block; ++t)
        if (g_ret[t] != want) {
            print_error("%s n=%d: thread %d returned info %d, want %d\n", c->name, n, t, g_ret[t], want);
            ++bad;
            break;
        }
    const double tol = c->f64 ? 1e-12 : 2e-5;
    long nbad = 0;
    for (size_t e = 0; e < total; ++e) {
        const double g = c->f64 ? ((double *)buf)[e] : ((float *)buf)[e];
        const double r = c->f64 ? ((double *)ref)[e] : ((float *)ref)[e];
        const size_t m = e - (size_t)off;
        const int inside = e >= (size_t)off && m < nn, upper = inside && (int)(m % (size_t)n) > (int)(m / (size_t)n);
        int ok;
        if (!inside) ok = g == guard;
        else if (upper) ok = g == 0.0 && !signbit(g);
        else if (isnan(r)) ok = isnan(g) != 0;
        else ok = !isnan(g) && fabs(g - r) <= tol * (1.0 + fabs(r));
        if (!ok && nbad++ < 3)
            print_error("%s n=%d %s off=%d %s: element %zu (%s) = %.9g, host pass %.9g\n", c->name, n,
                        kind_name[kind], off, sim_pol_name[pol], m, inside ? (upper ? "upper" : "lower") : "guard",
                        g, r);
    }
    bad += nbad != 0;
    if (kind == K_SPD && want == 0) { /* and against the double Cholesky */
        assert_int_equal(ref_chol(ad, ld, n), 0);
        double worst = 0;
        for (size_t m = 0; m < nn; ++m) {
            const double g = c->f64 ? ((double *)buf)[off + m] : ((float *)buf)[off + m];
            const double d = fabs(g - ld[m]) / (1.0 + fabs(ld[m]));
            worst = d > worst ? d : worst;
        }
        if (!(worst <= (c->f64 ? 1e-12 : 1e-5))) {
            print_error("%s n=%d: |L - L_double| / (1 + |L|) = %.3g\n", c->name, n, worst);
            ++bad;
        }
    }
    free(ad);
    free(ld);
    free(buf);
    free(ref);
    return bad;
}

static void test_rows(void **state) {
    const rows_cfg *c = (const rows_cfg *)*state;
    int bad = 0;
    for (int ni = 0; ni < 3; ++ni)
        for (int kind = 0; kind < NKIND; ++kind)
            for (int off = 0; off < 2; ++off)
                for (int pol = 0; pol < SIM_NPOL; ++pol) bad += run_one(c, c->ns[ni], kind, off, pol);
    assert_int_equal(bad, 0);
}

/* the checks fail when they should: a kernel body that reads the shared
 * column before the barrier that publishes it must break under some order */
static void k_race(void) {
    float *col = (float *)sim_buf(64 * sizeof(float));
    col[sim_tid] = (float)sim_tid;
    g_ret[sim_tid] = (int)col[(sim_tid + 1) % 64]; /* no barrier: a race */
    tile_barrier();
}
static void test_race_detected(void **state) {
    (void)state;
    int wrong = 0;
    for (int pol = 0; pol < SIM_NPOL; ++pol) {
        assert_int_equal(sim_run(64, pol, k_race), 0);
        for (int t = 0; t < 64; ++t) wrong += g_ret[t] != (t + 1) % 64;
    }
    assert_true(wrong > 0);
}

int main(void) {
    struct CMUnitTest tests[NCFG + 1];
    tests[0] = (struct CMUnitTest)cmocka_unit_test(test_race_detected);
    for (int i = 0; i < NCFG; ++i) {
        tests[i + 1] = (struct CMUnitTest)cmocka_unit_test_prestate(test_rows, (void *)&cfgs[i]);
        tests[i + 1].name = cfgs[i].name;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
