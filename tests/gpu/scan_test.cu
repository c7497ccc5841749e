/* tests/gpu/scan_test.cu - the scans (include/tile/scan.h) on the GPU and on
 * the CPU target of the same nvcc build, every run checked against plain
 * host loops.
 *
 *   scan_test             GPU 0 (when there is one), then the CPU target
 *   scan_test --cpu-only  the CPU target only (CI machines without a GPU)
 *   scan_test --quick     every kernel and result, but one data set, two
 *                         tiles per launch and no repeat run (for
 *                         compute-sanitizer); combines with --cpu-only
 *
 * The kernels, data and references are those of tests/scan_common.h: every
 * scan (inclusive/exclusive sum, min/max inclusive and exclusive, the generic
 * _op forms with a non-commutative operation), the six element types, tile
 * lengths 1 .. 16384 with block sizes 1 .. 1024 (also blocks ending in a
 * partial warp), 2D-4D tiles (each row scanned on its own: the _axis
 * forms), register,
 * shared and strided-view tiles, in place, staging in static shared memory,
 * in the arena and inside the destination, chunks longer than
 * TILE_SCAN_REG_CHUNK. Each kernel runs three tiles per launch on each data
 * set (mixed signs, floats as reals, all negative); outputs are poisoned
 * before each launch (NaN bytes for floats, 0xAB for the rest), so an
 * element the kernel does not write fails. Integers and min/max compare
 * exactly (u32/u64 sums wrap); float sums of multiples of 1/64 are exact in
 * any order and compare exactly, float sums of reals within the rounding
 * bound of the order of the target (left to right on the CPU, chunk + tree
 * on the GPU, see sc_height). On the GPU each launch is repeated and must
 * reproduce its output bit for bit.
 *
 * Then the flattened default on 2D/3D tiles, the _agg forms (every thread's
 * copy of the aggregate) and the _prefix forms scanning a 5000-element array
 * in one loop of 1024-element tiles (fx_check: plain loops), blocks of 96
 * and 288 threads.
 *
 * Prints one FAIL line per failed check and last the summary
 * "scan_test: N checks, M failed (targets: gpu+cpu|cpu)"; the exit code is
 * nonzero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#define GC_MAX_PRINTED 200
#include "gpu_check.h"

#define SC_LAUNCH(name, T, B, ctx, in, out, nblocks, which) \
    tile_launch(((const target *)(ctx))->ex, name, tile_grid1(nblocks), B, in, out, which)
#include "../scan_ref.h" /* scan_common.h with per-row scans, FX_KERNEL */

/* what: the kernel and data set */
#define CHECK_OK(expr, what)                                                       \
    do {                                                                           \
        int e_ = (expr);                                                           \
        CHECK(e_ == TILE_OK, "%s: %s -> %d (%s)%s", what, #expr, e_, tile_error_string(e_), cuda_detail(e_)); \
    } while (0)

static void run_kernel(const target *t, const sc_kernel *kd) {
    const int nb = g_quick ? 2 : 3;
    const size_t es = (size_t)sc_dt_size[kd->dt];
    const size_t ib = es * kd->in_n * nb, ob = es * kd->out_n * nb;
    const int poison = kd->dt == SC_F32 || kd->dt == SC_F64 ? 0xFF : 0xAB;
    void *din = tile_alloc(t->ex, ib), *dout = tile_alloc(t->ex, ob);
    unsigned char *hout = (unsigned char *)malloc(ob), *hout2 = (unsigned char *)malloc(ob);
    CHECK(din && dout && hout && hout2, "%s: allocation failed", kd->name);
    if (!din || !dout || !hout || !hout2) goto done;
    for (int ds = 0; ds < SC_NDATA; ++ds) {
        if (!sc_has_data(kd->dt, ds) || (g_quick && ds != SC_DATA_MIXED)) continue;
        void *in = sc_make_input(kd, ds, nb);
        char what[160], msg[1200];
        snprintf(what, sizeof what, "%s [%s]", kd->name, sc_data_name[ds]);
        CHECK_OK(tile_copy_to(t->ex, din, in, ib), what);
        memset(hout, poison, ob);
        CHECK_OK(tile_copy_to(t->ex, dout, hout, ob), what);
        CHECK_OK(sc_run_all(kd, (void *)t, din, dout, nb), what);
        CHECK_OK(tile_synchronize(t->ex), what);
        CHECK_OK(tile_copy_from(t->ex, hout, dout, ob), what);
        long bad = sc_verify(kd, ds, in, hout, nb, t->gpu ? kd->block : 1, msg, sizeof msg);
        g_checks += (long)kd->out_n * nb - 1;
        CHECK(bad == 0, "%s: %ld of %ld elements differ: %s", what, bad, (long)kd->out_n * nb, msg);
        if (t->gpu && !g_quick) { /* deterministic: a second run gives the same bits */
            memset(hout2, poison, ob);
            CHECK_OK(tile_copy_to(t->ex, dout, hout2, ob), what);
            CHECK_OK(sc_run_all(kd, (void *)t, din, dout, nb), what);
            CHECK_OK(tile_synchronize(t->ex), what);
            CHECK_OK(tile_copy_from(t->ex, hout2, dout, ob), what);
            CHECK(!memcmp(hout, hout2, ob), "%s: a second run differs from the first", what);
        }
        free(in);
    }
done:
    free(hout);
    free(hout2);
    if (din) tile_free(t->ex, din);
    if (dout) tile_free(t->ex, dout);
}

/* NaN in min / max scans (scan.h: NaN propagates, as numpy's
 * minimum.accumulate): NaN at NAN_AT1 and NAN_AT2; out holds the inclusive
 * min, inclusive max, exclusive min, exclusive max scans, each NAN_N long */
enum { NAN_N = 1000, NAN_B = 96, NAN_AT1 = 300, NAN_AT2 = 700 };
#define NAN_K(sfx, T)                                                              \
    TILE_KERNEL(scan_nan_##sfx, NAN_B, const T *in, T *out) {                      \
        tile_reg(T, x, NAN_N);                                                     \
        tile_load(x, tile_array1(in, NAN_N), 0);                                   \
        tile_reg(T, d, NAN_N);                                                     \
        tile_scan_min_inclusive(d, x);                                             \
        tile_store(tile_array1(out, NAN_N), d, 0);                                 \
        tile_scan_max_inclusive(d, x);                                             \
        tile_store(tile_array1(out + NAN_N, NAN_N), d, 0);                         \
        tile_scan_min_exclusive(d, x);                                             \
        tile_store(tile_array1(out + 2 * NAN_N, NAN_N), d, 0);                     \
        tile_scan_max_exclusive(d, x);                                             \
        tile_store(tile_array1(out + 3 * NAN_N, NAN_N), d, 0);                     \
    }
NAN_K(f32, float)
NAN_K(f64, double)

/* inclusive / exclusive min and max of hin (out as NAN_K writes it) against
 * a host loop: the fold of the elements up to (before) i, NaN from NAN_AT1 on */
template <class T>
static void nan_verify(const char *what, const T *hin, const T *hout) {
    T mn = hin[0], mx = hin[0];
    for (int i = 0; i < NAN_N; ++i) {
        const T emn = hout[2 * NAN_N + i], emx = hout[3 * NAN_N + i];
        if (i == 0)
            CHECK(emn == (T)INFINITY && emx == (T)-INFINITY, "%s: exclusive identities %g %g", what, (double)emn, (double)emx);
        else if (i > NAN_AT1)
            CHECK(emn != emn && emx != emx, "%s: exclusive [%d] = %g, %g, expected NaN", what, i, (double)emn, (double)emx);
        else
            CHECK(emn == mn && emx == mx, "%s: exclusive [%d] = %g, %g, expected %g, %g", what, i, (double)emn, (double)emx,
                  (double)mn, (double)mx);
        if (i > 0 && i < NAN_AT1) {
            mn = hin[i] < mn ? hin[i] : mn;
            mx = hin[i] > mx ? hin[i] : mx;
        }
        const T imn = hout[i], imx = hout[NAN_N + i];
        if (i >= NAN_AT1)
            CHECK(imn != imn && imx != imx, "%s: inclusive [%d] = %g, %g, expected NaN", what, i, (double)imn, (double)imx);
        else
            CHECK(imn == mn && imx == mx, "%s: inclusive [%d] = %g, %g, expected %g, %g", what, i, (double)imn, (double)imx,
                  (double)mn, (double)mx);
    }
}

#define NAN_RUN(sfx, T)                                                            \
    do {                                                                           \
        T hin[NAN_N], hout[4 * NAN_N];                                             \
        for (int i = 0; i < NAN_N; ++i)                                            \
            hin[i] = (T)((int)(tile_hash32(11u, (uint32_t)i) % 20001u) - 10000) / (T)8; \
        hin[NAN_AT1] = hin[NAN_AT2] = (T)NAN;                                      \
        T *din = (T *)tile_alloc(t->ex, sizeof hin), *dout = (T *)tile_alloc(t->ex, sizeof hout); \
        memset(hout, 0, sizeof hout);                                              \
        CHECK_OK(tile_copy_to(t->ex, din, hin, sizeof hin), "scan_nan_" #sfx);     \
        CHECK_OK(tile_copy_to(t->ex, dout, hout, sizeof hout), "scan_nan_" #sfx);  \
        CHECK_OK(tile_launch(t->ex, scan_nan_##sfx, tile_grid1(1), NAN_B, (const T *)din, dout), "scan_nan_" #sfx); \
        CHECK_OK(tile_copy_from(t->ex, hout, dout, sizeof hout), "scan_nan_" #sfx); \
        nan_verify<T>("scan_nan_" #sfx, hin, hout);                                \
        tile_free(t->ex, din);                                                     \
        tile_free(t->ex, dout);                                                    \
    } while (0)

static void run_nan(const target *t) {
    g_test = "NaN propagates through min / max scans";
    NAN_RUN(f32, float);
    NAN_RUN(f64, double);
}

FX_KERNEL(fx_b96, 96)
FX_KERNEL(fx_b288, 288)

/* flattened scans, aggregates and a whole array in one loop with a running
 * prefix, on each target against the plain loops of fx_check; on the GPU
 * every thread's copy of the aggregate is checked */
static void run_fx(const target *t) {
    g_test = "flattened / _agg / _prefix scans";
    int32_t *hin = HALLOC(int32_t, FX_LEN), *hout = HALLOC(int32_t, FX_OUTN);
    int32_t *din = DALLOC(int32_t, FX_LEN), *dout = DALLOC(int32_t, FX_OUTN);
    char msg[200];
    fx_input(hin);
    UP(din, hin, sizeof(int32_t) * FX_LEN);
    for (int k = 0; k < 2; ++k)
        for (int which = 0; which < FX_NCASE; ++which) {
            const int B = k ? 288 : 96;
            POISON(dout, sizeof(int32_t) * FX_OUTN, POISON_I);
            if (k) RUN_OK(tile_launch(t->ex, fx_b288, tile_grid1(1), 288, (const int32_t *)din, dout, which));
            else RUN_OK(tile_launch(t->ex, fx_b96, tile_grid1(1), 96, (const int32_t *)din, dout, which));
            DOWN(hout, dout, sizeof(int32_t) * FX_OUTN);
            const long bad = fx_check(which, hin, hout, t->gpu ? B : 1, msg, sizeof msg);
            g_checks += 1;
            if (bad) fail_at(__FILE__, __LINE__, "block %d: %s (%ld bad)", B, msg, bad);
        }
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    free(hin);
    free(hout);
}

static void run_all(const target *t) {
    char kernels[32];
    snprintf(kernels, sizeof kernels, "%d kernels, ", (int)SC_NKERNELS);
    gc_target_begin(t);
    for (int ki = 0; ki < SC_NKERNELS; ++ki) run_kernel(t, &sc_kernels[ki]);
    run_nan(t);
    run_fx(t);
    gc_target_end(t, kernels);
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "scan_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
