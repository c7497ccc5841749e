/* tests/gpu/cascade_test.cu - the randomized property test of the load/store
 * cascade (tests/cascade_common.h) on the GPU and on the CPU target of the
 * same nvcc build, with the same seeds and cases as tests/cpu/test_cascade.c.
 *
 *   cascade_test                 GPU 0 (when there is one), then the CPU target
 *   cascade_test --cpu-only      the CPU target only (CI machines without a GPU)
 *   cascade_test --quick         16 cases per kernel instead of 128 (sanitizer runs)
 *   cascade_test --seed N --cases N
 *
 * Each kernel of the family runs all its cases in one launch, one block per
 * case, except the cases that expect TILE_ERR_ALIGN (a broken alignment
 * promise), which run in a second launch: the error must come back from the
 * CPU launch or from tile_synchronize on the GPU exactly for that launch.
 * Every case's tier, array region (guards included) and loaded tile are
 * compared with the host reference; a failed case prints one line per
 * finding with the case in full. Last line:
 *   cascade_test: N cases, M failed (targets: gpu+cpu|cpu)
 * and the exit code is nonzero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define GC_MAX_PRINTED 200
#include "gpu_check.h"
#include "../cascade_common.h"

/* a finding of cas_check or of the harness; the case counts as failed once */
static void report(const char *msg) { fail_print(NULL, 0, "%s", msg); }

/* copy helpers that report (and return nonzero) on failure */
static int up(const target *t, void *d, const void *h, size_t bytes) {
    int e = tile_copy_to(t->ex, d, h, bytes);
    if (e != TILE_OK) {
        char m[200];
        snprintf(m, sizeof(m), "copy to the target failed: %s", tile_error_string(e));
        report(m);
    }
    return e;
}
static int down(const target *t, void *h, const void *d, size_t bytes) {
    int e = tile_copy_from(t->ex, h, d, bytes);
    if (e != TILE_OK) {
        char m[200];
        snprintf(m, sizeof(m), "copy from the target failed: %s", tile_error_string(e));
        report(m);
    }
    return e;
}

/* launch cases [first, first + n) and check the launch's and the
 * synchronize's error codes; returns 0 when both are as expected */
static int launch_part(target *t, const cas_kinfo *K, const cas_case *dcases, unsigned char *dbuf, uint32_t *ddump,
                       int32_t *dtiers, int first, int n, int expect_align) {
    if (n <= 0) return 0;
    const int e = K->launch(t->ex, n, dcases + first, dbuf, ddump, dtiers + first);
    const int s = tile_synchronize(t->ex);
    const int want_e = !t->gpu && expect_align ? TILE_ERR_ALIGN : TILE_OK;
    const int want_s = t->gpu && expect_align ? TILE_ERR_ALIGN : TILE_OK;
    if (e == want_e && s == want_s) return 0;
    char m[400];
    snprintf(m, sizeof(m), "%s: launch of cases %d..%d (%s TILE_ERR_ALIGN): launch -> %d (%s), synchronize -> %d (%s); expected %d, %d%s",
             K->name, first, first + n - 1, expect_align ? "each expecting" : "none expecting", e,
             tile_error_string(e), s, tile_error_string(s), want_e, want_s,
             (e == TILE_ERR_CUDA || s == TILE_ERR_CUDA) ? " [CUDA error]" : "");
    report(m);
    if (e == TILE_ERR_CUDA || s == TILE_ERR_CUDA) {
        printf("     CUDA error %d: %s\n", tile_last_cuda_error(), cudaGetErrorString((cudaError_t)tile_last_cuda_error()));
        t->dead = 1;
    }
    return 1;
}

static void run_kernel(target *t, int ki, uint64_t seed, int n, cas_stats *st) {
    const cas_kinfo *K = &cas_kernels[ki];
    cas_plan *plans = (cas_plan *)calloc((size_t)n, sizeof(cas_plan));
    int64_t bytes, dwords;
    int n_ok;
    cas_generate(K, cas_kernel_seed(seed, ki), n, plans, &bytes, &dwords, &n_ok);
    uint32_t *init = (uint32_t *)malloc((size_t)bytes), *got = (uint32_t *)malloc((size_t)bytes);
    uint32_t *dump = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)dwords);
    int32_t *tiers = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    cas_case *cases = (cas_case *)malloc(sizeof(cas_case) * (size_t)n);
    int *bad = (int *)calloc((size_t)n, sizeof(int));
    if (!plans || !init || !got || !dump || !tiers || !cases || !bad) {
        printf("cascade_test: host allocation failed\n");
        exit(1);
    }
    cas_init_buffer(init, bytes, plans, n, (uint32_t)ki);
    for (int i = 0; i < n; ++i) {
        cases[i] = plans[i].c;
        tiers[i] = -1;
        if (st) cas_tally(st, K, &plans[i]);
    }
    memset(dump, 0xAB, sizeof(uint32_t) * (size_t)dwords);
    unsigned char *dbuf = (unsigned char *)tile_alloc(t->ex, (size_t)bytes);
    uint32_t *ddump = (uint32_t *)tile_alloc(t->ex, sizeof(uint32_t) * (size_t)dwords);
    int32_t *dtiers = (int32_t *)tile_alloc(t->ex, sizeof(int32_t) * (size_t)n);
    cas_case *dcases = (cas_case *)tile_alloc(t->ex, sizeof(cas_case) * (size_t)n);
    int broken = !dbuf || !ddump || !dtiers || !dcases;
    if (broken) report("tile_alloc failed");
    if (!broken && ((uintptr_t)dbuf % 16 != 0)) {
        report("test bug: the buffer is not 16-byte aligned");
        broken = 1;
    }
    if (!broken)
        broken = up(t, dbuf, init, (size_t)bytes) || up(t, ddump, dump, sizeof(uint32_t) * (size_t)dwords) ||
                 up(t, dtiers, tiers, sizeof(int32_t) * (size_t)n) || up(t, dcases, cases, sizeof(cas_case) * (size_t)n);
    if (!broken) {
        if (launch_part(t, K, dcases, dbuf, ddump, dtiers, 0, n_ok, 0))
            for (int i = 0; i < n_ok; ++i) bad[i] = 1;
        if (!t->dead && launch_part(t, K, dcases, dbuf, ddump, dtiers, n_ok, n - n_ok, 1))
            for (int i = n_ok; i < n; ++i) bad[i] = 1;
        broken = t->dead || down(t, got, dbuf, (size_t)bytes) ||
                 down(t, dump, ddump, sizeof(uint32_t) * (size_t)dwords) ||
                 down(t, tiers, dtiers, sizeof(int32_t) * (size_t)n);
    }
    for (int i = 0; i < n; ++i) {
        if (!broken && cas_check(K, &plans[i], (uint64_t)(uintptr_t)dbuf, init, got, dump, tiers[i], report))
            bad[i] = 1;
        ++g_checks;
        g_failed += bad[i] || broken;
    }
    tile_free(t->ex, dbuf);
    tile_free(t->ex, ddump);
    tile_free(t->ex, dtiers);
    tile_free(t->ex, dcases);
    free(plans);
    free(init);
    free(got);
    free(dump);
    free(tiers);
    free(cases);
    free(bad);
}

static int g_ncases = 128;
static uint64_t g_seed = 0x7e57ca5cadeull; /* tests/cpu/test_cascade.c's default */
static int parse_opt(int argc, char **argv, int *i) {
    if (strcmp(argv[*i], "--quick") == 0) g_ncases = 16;
    else if (strcmp(argv[*i], "--cases") == 0 && *i + 1 < argc) g_ncases = atoi(argv[++*i]);
    else if (strcmp(argv[*i], "--seed") == 0 && *i + 1 < argc) g_seed = strtoull(argv[++*i], NULL, 0);
    else return 0;
    return 1;
}

int main(int argc, char **argv) {
    g_unit = "cases";
    const int rc = gc_start(argc, argv, "cascade_test", 0, parse_opt, " [--quick] [--cases N] [--seed N]");
    if (rc) return rc;
    if (g_ncases < 1) g_ncases = 1;
    printf("cascade_test: seed 0x%llx, %d kernels x %d cases per target\n", (unsigned long long)g_seed, CAS_NKERNELS,
           g_ncases);
    fflush(stdout);
    cas_stats st;
    memset(&st, 0, sizeof(st));
    for (int ti = 0; ti < gc_ntargets; ++ti) {
        target *t = &gc_targets[ti];
        g_target = t->name;
        const long c0 = g_checks, f0 = g_failed;
        for (int k = 0; k < CAS_NKERNELS; ++k) run_kernel(t, k, g_seed, g_ncases, ti == 0 ? &st : NULL);
        printf("-- target %s: %ld cases, %ld failed\n", t->name, g_checks - c0, g_failed - f0);
        fflush(stdout);
    }
    cas_print_stats(&st, "cascade_test: coverage per target");
    return gc_finish();
}
