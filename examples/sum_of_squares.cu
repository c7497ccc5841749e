/* Warp's sum-of-squares example: the sum of x*x over a 4096 x 4096 f64 array,
 * two ways, in SIMT launches of one thread per element (blocks of 256):
 *   atomics: every thread adds its x*x to one global double (16.7M atomics
 *            on one address);
 *   tile:    tile_from_values(x*x) + tile_sum + tile_atomic_add: one atomic
 *            per block.
 * Both results are checked against a host double sum; the times (launch +
 * wait, after a warm-up run) are printed on either target. On the CPU a block
 * has one thread, so both do one add per element. bench/reduce_bench.cu
 * measures the same on a larger array against CUB.
 *   atomics: ... ms, tile: ... ms (tile/atomics time ratio ...)   (times vary)
 *   sum = 2446387.409318 (atomics), 2446387.409318 (tile)
 *   expected 2446387.409318 (host double sum, relative tolerance 1e-9): ok
 * The same file builds with gcc -x c. */
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include "example_util.h"

#define N 4096
#define THREADS 256

TILE_KERNEL(sos_atomic, THREADS, const double *x, double *out) {
    const int i = tile_tid(0), j = tile_tid(1);
    const double v = x[(size_t)i * N + j];
    tile_atomic_add_ptr(out, v * v); /* one atomic per element */
}

TILE_KERNEL(sos_tile, THREADS, const double *x, double *out) {
    const int i = tile_tid(0), j = tile_tid(1);
    const double xv = x[(size_t)i * N + j];
    tile_from_values(t, xv * xv);                 /* (block_dim) tile of x*x */
    tile_sum(s, t);                             /* block sum, one element */
    tile_atomic_add(tile_array1(out, 1), s, 0); /* one atomic per block */
}

static double now_ms(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* run one variant: zero the sum, launch, wait; returns the elapsed ms or -1 */
#define RUN(kernel, result)                                                        \
    __extension__({                                                                \
        const double zero = 0;                                                     \
        double ms_ = -1;                                                           \
        if (!example_check(tile_copy_to(ex, dsum, &zero, sizeof(double)), "copy")) { \
            const double t0_ = now_ms();                                           \
            if (!example_check(tile_launch_simt(ex, kernel, tile_grid2(N, N), THREADS, dx, dsum), "launch") && \
                !example_check(tile_synchronize(ex), "kernel"))                    \
                ms_ = now_ms() - t0_;                                              \
            if (example_check(tile_copy_from(ex, &(result), dsum, sizeof(double)), "copy")) ms_ = -1; \
        }                                                                          \
        ms_;                                                                       \
    })

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    const size_t n = (size_t)N * N;
    double *x = (double *)malloc(sizeof(double) * n), host = 0, r_atomic = 0, r_tile = 0;
    if (!x) return 1;
    for (size_t k = 0; k < n; ++k) {
        x[k] = (double)tile_hash_unit(7u, (uint32_t)k) - 0.25; /* nonzero, in [-0.25, 0.75) */
        host += x[k] * x[k];
    }
    double *dx = (double *)tile_alloc(ex, sizeof(double) * n), *dsum = (double *)tile_alloc(ex, sizeof(double));
    if (!dx || !dsum) return 1;
    if (example_check(tile_copy_to(ex, dx, x, sizeof(double) * n), "copy")) return 1;
    /* warm-up (module load, clocks), then the timed runs */
    if (RUN(sos_atomic, r_atomic) < 0 || RUN(sos_tile, r_tile) < 0) return 1;
    const double ms_atomic = RUN(sos_atomic, r_atomic), ms_tile = RUN(sos_tile, r_tile);
    if (ms_atomic < 0 || ms_tile < 0) return 1;
    /* the real ratio, faster or slower (on the CPU both do one add per element) */
    const double speedup = ms_atomic / (ms_tile > 1e-6 ? ms_tile : 1e-6);
    printf("sum of x*x over %d x %d f64 (%s): atomics %.1f ms, tile %.1f ms: tile %.2fx %s\n", N, N,
           example_target_name(ex), ms_atomic, ms_tile, speedup >= 1 ? speedup : 1 / speedup,
           speedup >= 1 ? "faster" : "slower");
    /* the order of the adds differs between runs and targets: a relative
     * tolerance, far above the rounding of 16.7M additions */
    const int ok = fabs(r_atomic - host) <= 1e-9 * host && fabs(r_tile - host) <= 1e-9 * host;
    printf("sum = %.6f (atomics), %.6f (tile)\n", r_atomic, r_tile);
    tile_free(ex, dx);
    tile_free(ex, dsum);
    free(x);
    char want[96];
    snprintf(want, sizeof want, "%.6f (host double sum, relative tolerance 1e-9)", host);
    return example_verdict(ok, want);
}
