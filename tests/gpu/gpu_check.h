/* tests/gpu/gpu_check.h - the harness every test in tests/gpu shares: check
 * counters and FAIL lines, error-code checks, the targets (GPU 0 when there is
 * one, then the CPU target of the same nvcc build), target memory helpers, the
 * command line (--cpu-only, --quick) and the lines scripts/gpu-check.sh and
 * people read:
 *   -- target gpu: N checks, M failed
 *   NAME: N checks, M failed (targets: gpu+cpu|cpu)
 *
 * A test's main is
 *   int rc = gc_start(argc, argv, "NAME", quick_ok, NULL, NULL);
 *   if (rc) return rc;
 *   for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
 *   return gc_finish();
 * and run_all brackets its tests with gc_target_begin(t) / gc_target_end(t, "").
 * The memory macros (DALLOC, UP, DOWN, RUN_OK, POISON...) use the variable
 * `t` (const target *) of the calling function.
 *
 * Everything is static: one test per binary. Knobs, defined before the include:
 *   GC_MAX_PRINTED    FAIL lines printed before the rest are only counted (300)
 *   GC_DALLOC_COUNTS  whether DALLOC counts as one check (1); 0 keeps the totals
 *                     of the tests that never counted their allocations
 */
#ifndef GPU_CHECK_H
#define GPU_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tile.h>

#ifndef GC_MAX_PRINTED
#define GC_MAX_PRINTED 300
#endif
#ifndef GC_DALLOC_COUNTS
#define GC_DALLOC_COUNTS 1
#endif

/* ========================================================================
 * counters and FAIL lines
 * ======================================================================== */
static long g_checks, g_failed, g_printed;
static const char *g_name = "gpu_check";    /* the binary: prefix of its own lines */
static const char *g_unit = "checks";       /* what g_checks counts (cascade_test: cases) */
static const char *g_target = "-";          /* the target under test, in FAIL lines */
static const char *g_test = NULL;           /* the test under way, in FAIL lines when set */
static const char *g_target_names = "cpu";  /* the run's targets, in the summary */
static int g_quick;                         /* --quick: less work (compute-sanitizer runs) */

/* print "FAIL file:line [target] test: message" without counting it (the
 * caller counts); past GC_MAX_PRINTED lines failures are only counted, so that
 * one broken kernel does not bury the summary */
static inline void gc_vprint_fail(const char *file, int line, const char *fmt, va_list ap) {
    if (++g_printed > GC_MAX_PRINTED) {
        if (g_printed == GC_MAX_PRINTED + 1) printf("(further failures are counted, not printed)\n");
        return;
    }
    printf("FAIL ");
    if (file) printf("%s:%d ", file, line);
    printf("[%s] ", g_target);
    if (g_test) printf("%s: ", g_test);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
}
static inline void fail_print(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline void fail_print(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    gc_vprint_fail(file, line, fmt, ap);
    va_end(ap);
}
/* one failed check */
static inline void fail_at(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline void fail_at(const char *file, int line, const char *fmt, ...) {
    ++g_failed;
    va_list ap;
    va_start(ap, fmt);
    gc_vprint_fail(file, line, fmt, ap);
    va_end(ap);
}

#define CHECK(cond, ...)                                                           \
    do {                                                                           \
        ++g_checks;                                                                \
        if (!(cond)) fail_at(__FILE__, __LINE__, __VA_ARGS__);                     \
    } while (0)

/* Array comparisons (one check per element): fail_elem for each differing
 * element, *bad counting them, prints the first MAX_PER_ARRAY and counts the
 * rest; fail_elem_total then says how many differed. */
enum { MAX_PER_ARRAY = 6 };
static inline void fail_elem(long *bad, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline void fail_elem(long *bad, const char *file, int line, const char *fmt, ...) {
    ++g_failed;
    if ((*bad)++ >= MAX_PER_ARRAY) return;
    va_list ap;
    va_start(ap, fmt);
    gc_vprint_fail(file, line, fmt, ap);
    va_end(ap);
}
static inline void fail_elem_total(const char *file, int line, const char *what, long bad, long n) {
    if (bad > MAX_PER_ARRAY) printf("     %s:%d: %s: %ld of %ld elements differ\n", file, line, what, bad, n);
}

/* the last line of every run */
static inline void gc_summary(void) {
    printf("%s: %ld %s, %ld failed (targets: %s)\n", g_name, g_checks, g_unit, g_failed, g_target_names);
    fflush(stdout);
}
/* a failure the test cannot go on after: the summary still comes last */
static inline void die(const char *file, int line, const char *what) {
    fail_at(file, line, "fatal: %s", what);
    gc_summary();
    exit(1);
}

/* text added to a failed error-code check: the CUDA error behind TILE_ERR_CUDA */
static inline const char *cuda_detail(int e) {
    static char buf[160];
    buf[0] = 0;
    if (e == TILE_ERR_CUDA) {
        int c = tile_last_cuda_error();
        snprintf(buf, sizeof(buf), " [CUDA error %d: %s]", c, cudaGetErrorString((cudaError_t)c));
    }
    return buf;
}
/* CHECK_ERR_TXT: `text` names the call (macro arguments arrive expanded) */
#define CHECK_ERR_TXT(expr, text, want)                                            \
    do {                                                                           \
        int e_ = (expr);                                                           \
        CHECK(e_ == (want), "%s -> %d (%s), expected %d (%s)%s", text, e_, tile_error_string(e_), \
              (int)(want), tile_error_string(want), cuda_detail(e_));              \
    } while (0)
#define CHECK_ERR(expr, want) CHECK_ERR_TXT(expr, #expr, want)

/* ========================================================================
 * targets and their memory
 * ======================================================================== */
typedef struct target {
    tile_exec ex;
    int gpu;          /* 1: GPU 0; 0: the CPU target (block_dim 1) */
    const char *name; /* "gpu" or "cpu", in the target lines */
    int dead;         /* a CUDA error left the context unusable */
} target;
static target gc_targets[2];
static int gc_ntargets;

static inline void *halloc_(size_t bytes, const char *file, int line) {
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) die(file, line, "host calloc failed");
    return p;
}
#define HALLOC(T, n) ((T *)halloc_((size_t)(n) * sizeof(T), __FILE__, __LINE__))

static inline void *dalloc_(const target *t, size_t bytes, const char *file, int line) {
    g_checks += GC_DALLOC_COUNTS;
    void *p = tile_alloc(t->ex, bytes);
    if (!p) die(file, line, "tile_alloc failed");
    return p;
}
#define DALLOC(T, n) ((T *)dalloc_(t, (size_t)(n) * sizeof(T), __FILE__, __LINE__))

#define UP(d, h, bytes) CHECK_ERR(tile_copy_to(t->ex, (d), (h), (bytes)), TILE_OK)
#define DOWN(h, d, bytes) CHECK_ERR(tile_copy_from(t->ex, (h), (d), (bytes)), TILE_OK)
#define SYNC_OK() CHECK_ERR(tile_synchronize(t->ex), TILE_OK)
/* launch, expect TILE_OK from the launch and from tile_synchronize */
#define RUN_OK(launch)                                                             \
    do {                                                                           \
        CHECK_ERR_TXT(launch, #launch, TILE_OK);                                   \
        SYNC_OK();                                                                 \
    } while (0)

/* Outputs are poisoned before each launch, so that an element the kernel does
 * not write shows up as a failure. */
enum { POISON_F = 0xFF /* NaN as float and double */, POISON_I = 0xAB };
static inline uint32_t poison_bits32(int byte) {
    uint32_t b = (uint32_t)(byte & 0xFF);
    return b | b << 8 | b << 16 | b << 24;
}
/* fill device memory (and the host mirror, when given) with a poison byte */
static inline void poison_(const target *t, void *d, void *mirror, size_t bytes, int byte) {
    unsigned char *tmp = HALLOC(unsigned char, bytes);
    memset(tmp, byte, bytes);
    UP(d, tmp, bytes);
    if (mirror) memcpy(mirror, tmp, bytes);
    free(tmp);
}
#define POISON(d, bytes, byte) poison_(t, (d), NULL, (bytes), (byte))
#define POISON_MIRROR(d, bytes, byte, mirror) poison_(t, (d), (mirror), (bytes), (byte))

/* ========================================================================
 * command line, targets, target and summary lines
 * ======================================================================== */
/* extra(argc, argv, &i) takes the test's own options: returns 1 when it used
 * argv[i] (advancing i past a value), 0 when argv[i] is not one of them */
typedef int (*gc_extra_fn)(int argc, char **argv, int *i);

/* Parses the command line (--cpu-only; --quick when quick_ok; extra's
 * options, named in extra_usage) and sets up the targets: GPU 0 unless
 * --cpu-only or there is none, then the CPU target. Returns 0, or the exit
 * code 2 after the usage line. */
static inline int gc_start(int argc, char **argv, const char *name, int quick_ok, gc_extra_fn extra,
                           const char *extra_usage) {
    int cpu_only = 0;
    g_name = name;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--cpu-only") == 0) cpu_only = 1;
        else if (quick_ok && strcmp(argv[i], "--quick") == 0) g_quick = 1;
        else if (!extra || !extra(argc, argv, &i)) {
            fprintf(stderr, "usage: %s [--cpu-only]%s%s\n", argv[0], quick_ok ? " [--quick]" : "",
                    extra_usage ? extra_usage : "");
            return 2;
        }
    }
    const int ngpu = cpu_only ? 0 : tile_gpu_count();
    gc_ntargets = 0;
    if (ngpu > 0) {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
            printf("%s: GPU 0: %s (sm_%d%d, %d KiB shared memory per block opt-in)\n", name, prop.name, prop.major,
                   prop.minor, (int)(prop.sharedMemPerBlockOptin / 1024));
        gc_targets[gc_ntargets].ex = TILE_GPU(0);
        gc_targets[gc_ntargets].gpu = 1;
        gc_targets[gc_ntargets].name = "gpu";
        ++gc_ntargets;
        g_target_names = "gpu+cpu";
    } else {
        printf("%s: %s: running the CPU target only\n", name, cpu_only ? "--cpu-only" : "no GPU found");
        g_target_names = "cpu";
    }
    gc_targets[gc_ntargets].ex = TILE_CPU;
    gc_targets[gc_ntargets].gpu = 0;
    gc_targets[gc_ntargets].name = "cpu";
    ++gc_ntargets;
    fflush(stdout);
    return 0;
}

/* "-- target NAME" before a target's tests, "-- target NAME: [extra]N checks,
 * M failed" after them, counting that target's checks only */
static long gc_checks0, gc_failed0;
static inline void gc_target_begin(const target *t) {
    g_target = t->name;
    printf("-- target %s\n", t->name);
    fflush(stdout);
    gc_checks0 = g_checks;
    gc_failed0 = g_failed;
}
static inline void gc_target_end(const target *t, const char *extra) {
    printf("-- target %s: %s%ld %s, %ld failed\n", t->name, extra, g_checks - gc_checks0, g_unit,
           g_failed - gc_failed0);
    fflush(stdout);
}

/* the summary line; the exit code: nonzero on any failure */
static inline int gc_finish(void) {
    gc_summary();
    return g_failed ? 1 : 0;
}

#endif
