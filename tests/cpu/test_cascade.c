/* The load/store cascade, randomized (see tests/cascade_common.h): every
 * kernel of the family runs its cases on the CPU target, one launch per case
 * so that TILE_ERR_ALIGN is checked case by case; each case's tier, memory
 * and loaded tile are compared with the independent reference.
 *
 *   CASCADE_SEED=<n>   another run (default: a fixed seed)
 *   CASCADE_CASES=<n>  cases per kernel (default 128, as tests/gpu/cascade_test)
 * A failure prints the case in full (kernel, operation, options, array,
 * offset, alignment), enough to replay it from the seed.
 */
#include "test_util.h"
#include "../cascade_common.h"

static uint64_t g_seed = 0x7e57ca5cadeull;
static int g_ncases = 128;
static cas_stats g_stats;
static long g_printed;

static void report(const char *msg) {
    if (g_printed++ < 40) print_error("%s\n", msg);
}

static void run_kernel(int ki) {
    const cas_kinfo *K = &cas_kernels[ki];
    const int n = g_ncases;
    cas_plan *plans = (cas_plan *)calloc((size_t)n, sizeof(cas_plan));
    int64_t bytes, dwords;
    int n_ok;
    assert_non_null(plans);
    cas_generate(K, cas_kernel_seed(g_seed, ki), n, plans, &bytes, &dwords, &n_ok);
    uint32_t *init = (uint32_t *)malloc((size_t)bytes);
    unsigned char *buf = (unsigned char *)aligned_alloc(16, (size_t)bytes);
    uint32_t *dump = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)dwords);
    int32_t *tiers = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    cas_case *cases = (cas_case *)malloc(sizeof(cas_case) * (size_t)n);
    assert_true(init && buf && dump && tiers && cases);
    cas_init_buffer(init, bytes, plans, n, (uint32_t)ki);
    memcpy(buf, init, (size_t)bytes);
    memset(dump, 0xAB, sizeof(uint32_t) * (size_t)dwords);
    long fails = 0;
    for (int i = 0; i < n; ++i) {
        cases[i] = plans[i].c;
        tiers[i] = -1;
        cas_tally(&g_stats, K, &plans[i]);
    }
    for (int i = 0; i < n; ++i) {
        int e = K->launch(TILE_CPU, 1, &cases[i], buf, dump, &tiers[i]);
        const int want = i < n_ok ? TILE_OK : TILE_ERR_ALIGN;
        if (e != want) {
            char d[640], m[1024];
            cas_describe(K, &plans[i], d, sizeof(d));
            snprintf(m, sizeof(m), "%s: launch returned %d (%s), expected %d (%s)", d, e, tile_error_string(e), want,
                     tile_error_string(want));
            report(m);
            ++fails;
        }
    }
    for (int i = 0; i < n; ++i)
        fails += cas_check(K, &plans[i], (uint64_t)(uintptr_t)buf, init, (const uint32_t *)buf, dump, tiers[i], report);
    g_stats.failed += fails;
    free(plans);
    free(init);
    free(buf);
    free(dump);
    free(tiers);
    free(cases);
    if (fails) fail_msg("%s: %ld failure(s) in %d cases (seed 0x%llx)", K->name, fails, n, (unsigned long long)g_seed);
}

#define CAS_IDX(name, ...) CIDX_##name,
enum { CAS_FAMILY(CAS_IDX) CIDX_N };
#define CAS_TEST(name, ...)                                                        \
    static void test_##name(void **state) {                                        \
        (void)state;                                                               \
        run_kernel(CIDX_##name);                                                   \
    }
CAS_FAMILY(CAS_TEST)

/* The randomized cases must reach every tier, the alignment error, every
 * operation, option, layout and way of building the array. */
static void test_coverage(void **state) {
    (void)state;
    cas_print_stats(&g_stats, "test_cascade");
    assert_int_equal(g_stats.cases, (long)g_ncases * CAS_NKERNELS);
    for (int t = 1; t <= 3; ++t) assert_true(g_stats.tier[t] > 0);
    assert_true(g_stats.err_align > 0);
    for (int i = 0; i < CAS_NOP; ++i) assert_true(g_stats.op[i] > 0);
    for (int i = 0; i < CAS_NOPT; ++i) assert_true(g_stats.opt[i] > 0);
    for (int i = 0; i < 5; ++i) assert_true(g_stats.layout[i] > 0);
    for (int i = 0; i < CAS_NCTOR; ++i) assert_true(g_stats.ctor[i] > 0);
    assert_true(g_stats.mis > 0 && g_stats.inside > 0 && g_stats.outside > 0);
}

int main(void) {
    const char *s = getenv("CASCADE_SEED"), *n = getenv("CASCADE_CASES");
    if (s && *s) g_seed = strtoull(s, NULL, 0);
    if (n && *n) g_ncases = atoi(n) > 0 ? atoi(n) : g_ncases;
    printf("test_cascade: seed 0x%llx, %d kernels x %d cases\n", (unsigned long long)g_seed, CAS_NKERNELS, g_ncases);
#define CAS_UT(name, ...) cmocka_unit_test(test_##name),
    const struct CMUnitTest tests[] = {CAS_FAMILY(CAS_UT) cmocka_unit_test(test_coverage)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
