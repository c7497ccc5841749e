/* tests/gpu/launch_test.cu - launch schedules, SIMT partial blocks, TILE_FN
 * functions and the warp primitives (include/tile/launch.h, tile/warp.h) on
 * the GPU and on the CPU target of the same nvcc build, every run checked
 * against plain host loops.
 *
 *   launch_test             GPU 0 (when there is one), then the CPU target
 *   launch_test --cpu-only  the CPU target only (CI machines without a GPU)
 *   launch_test --quick     smaller grids (for compute-sanitizer); combines
 *                           with --cpu-only
 *
 * 1. Persistent == default schedule: a tiled kernel records, per thread,
 *    tile_tid(0..), tile_block(0..), tile_block_linear(), tile_thread(), the
 *    free arena at entry (the whole arena: it restarts per logical block),
 *    a value read back through a shared tile it allocates and fills, and a
 *    visit count (atomic: each record exactly once). Grids 1D..4D, also ones
 *    with more logical blocks than resident blocks; default schedule,
 *    persistent with as many blocks as fit, and with 1 block per SM (each
 *    resident block walks many logical blocks). All against the row-major
 *    decomposition of the linear block index.
 * 2. Bodies that return early (every third block) and one whose arena
 *    overflows: both schedules give the same outputs and the same
 *    TILE_ERR_SMEM_OVERFLOW; the other blocks' block reductions are right.
 * 3. SIMT launches whose thread count is not a multiple of the block size
 *    (261 threads of 64, as Warp's example; 2D 7x37; 3D; 100003): every
 *    thread < n runs the body once with its coordinates, nothing is written
 *    past n (poisoned guard); default and persistent schedules.
 * 4. TILE_FN functions (reductions, a shared allocation, a nested call) from
 *    kernels of 64 and 128 threads, default and persistent schedules, against
 *    a double-precision reference.
 * 5. warp.h: lane/warp ids, ballot/any/all, reductions (sum/min/max of f32,
 *    f64, i32, u32, i64, u64), scans, shuffles, in blocks of 64 threads and
 *    of 48 (a last warp of 16 lanes), against per-warp host loops; on the
 *    CPU target the one-lane results.
 *
 * 6. tile_exec_max_resident: each block records how many blocks of the
 *    kernel share its SM at once (entry/exit counters per SM and their peak;
 *    every block stays ~10 us so that its neighbours overlap it): with caps
 *    of 2 (default schedule) and 3 (persistent) the peak never passes the
 *    cap, and without a cap it does (64 threads, no shared memory: 32 fit an
 *    SM), so the check can fail. Every block's output on both targets.
 *
 * Prints one FAIL line per failed check and last the summary
 * "launch_test: N checks, M failed (targets: gpu+cpu|cpu)".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "gpu_check.h"
#include <tile/warp.h> /* until tile.h includes it */

/* =========================================================================
 * 1. coordinates under both schedules
 * ========================================================================= */
enum { LR_TID = 0, LR_BLK = 5, LR_LIN = 9, LR_THR = 10, LR_FREE = 11, LR_SH = 12, LREC = 13 };
#define LT_B 64
#define LT_ARENA 256

TILE_KERNEL_SMEM(lt_coord, LT_B, LT_ARENA, int ngrid, int *out, int *vis) {
    const int64_t r = tile_block_linear() * TILE_BLOCK_DIM + tile_thread();
    int *o = out + r * LREC;
    const int nd = ngrid + 1;
    for (int k = 0; k < 5; ++k) o[LR_TID + k] = k < nd ? tile_tid(k) : -1;
    for (int k = 0; k < 4; ++k) o[LR_BLK + k] = k < ngrid ? tile_block(k) : -1;
    o[LR_LIN] = (int)tile_block_linear();
    o[LR_THR] = tile_thread();
    o[LR_FREE] = tile_smem_free();
    /* the whole arena: fails (overflow) if it did not restart per logical block */
    tile_shared(int, s, LT_ARENA / 4);
    tile_full(s, (int)tile_block_linear());
    o[LR_SH] = tile_get(s, (tile_thread() * 7 + 3) % (LT_ARENA / 4));
    tile_atomic_fetch_add((int32_t *)&vis[r], (int32_t)1);
}

static int64_t grid_count(int ngrid, const int64_t *d) {
    int64_t n = 1;
    for (int k = 0; k < ngrid; ++k) n *= d[k];
    return n;
}
static tile_grid make_grid(int ngrid, const int64_t *d) {
    return ngrid == 1 ? tile_grid1(d[0]) : ngrid == 2 ? tile_grid2(d[0], d[1]) : ngrid == 3 ? tile_grid3(d[0], d[1], d[2])
                                                                                             : tile_grid4(d[0], d[1], d[2], d[3]);
}

/* schedule: 0 default, 1 persistent (as many as fit), 2 persistent, 1 block per SM */
static int launch_coord(const target *t, int sched, int ngrid, const int64_t *d, int *out, int *vis) {
    const tile_grid g = make_grid(ngrid, d);
    if (sched == 0) return tile_launch(t->ex, lt_coord, g, LT_B, ngrid, out, vis);
    const tile_exec ex = tile_exec_persistent(t->ex, sched == 1 ? 0 : 1);
    return tile_launch_persistent(ex, lt_coord, g, LT_B, ngrid, out, vis);
}

static void test_coords(const target *t) {
    static const int64_t grids[][4] = {{5, 1, 1, 1},  {3, 7, 1, 1},    {2, 3, 4, 1}, {2, 1, 3, 2},
                                       {3000, 1, 1, 1}, {40, 77, 1, 1}, {300, 1, 1, 1}};
    static const int ngrids[] = {1, 2, 3, 4, 1, 2, 1};
    const int bd = t->gpu ? LT_B : 1;
    for (int gi = 0; gi < 7; ++gi) {
        if (g_quick && (gi == 4 || gi == 5)) continue;
        if (!g_quick && gi == 6) continue;
        const int ngrid = ngrids[gi];
        const int64_t *d = grids[gi];
        const int64_t nb = grid_count(ngrid, d), nrec = nb * bd;
        int *h = HALLOC(int, nrec * LREC), *hv = HALLOC(int, nrec);
        int *dout = DALLOC(int, nrec * LREC), *dvis = DALLOC(int, nrec);
        for (int sched = 0; sched < 3; ++sched) {
            POISON(dout, (size_t)nrec * LREC * sizeof(int), POISON_I);
            POISON(dvis, (size_t)nrec * sizeof(int), 0);
            g_test = sched == 0 ? "coords default" : sched == 1 ? "coords persistent" : "coords persistent 1/SM";
            RUN_OK(launch_coord(t, sched, ngrid, d, dout, dvis));
            DOWN(h, dout, (size_t)nrec * LREC * sizeof(int));
            DOWN(hv, dvis, (size_t)nrec * sizeof(int));
            long bad = 0;
            for (int64_t b = 0; b < nb; ++b) {
                int coord[5] = {0, 0, 0, 0, 0};
                int64_t rem = b;
                for (int k = ngrid - 1; k >= 0; --k) {
                    coord[k] = (int)(rem % d[k]);
                    rem /= d[k];
                }
                for (int th = 0; th < bd; ++th) {
                    const int64_t r = b * bd + th;
                    const int *o = h + r * LREC;
                    int want[LREC];
                    for (int k = 0; k < 5; ++k) want[LR_TID + k] = k < ngrid ? coord[k] : k == ngrid ? th : -1;
                    for (int k = 0; k < 4; ++k) want[LR_BLK + k] = k < ngrid ? coord[k] : -1;
                    want[LR_LIN] = (int)b;
                    want[LR_THR] = th;
                    want[LR_FREE] = LT_ARENA;
                    want[LR_SH] = (int)b;
                    ++g_checks;
                    int ok = hv[r] == 1;
                    for (int k = 0; k < LREC; ++k) ok &= o[k] == want[k];
                    if (!ok)
                        fail_elem(&bad, __FILE__, __LINE__,
                                  "grid %d block %lld thread %d: tid %d %d %d lin %d free %d sh %d visits %d", gi,
                                  (long long)b, th, o[LR_TID], o[LR_TID + 1], o[LR_TID + 2], o[LR_LIN], o[LR_FREE],
                                  o[LR_SH], hv[r]);
                }
            }
            fail_elem_total(__FILE__, __LINE__, g_test, bad, (long)nrec);
        }
        tile_free(t->ex, dout);
        tile_free(t->ex, dvis);
        free(h);
        free(hv);
    }
    g_test = NULL;
}

/* =========================================================================
 * 2. early returns and an arena overflow
 * ========================================================================= */
TILE_KERNEL_SMEM(lt_early, LT_B, LT_ARENA, int *a, int *b, int over) {
    const int i = tile_block(0);
    if (tile_thread() == 0) a[i] += 1;
    if (i % 3 == 1) return; /* ends this logical block only */
    if (i == over) {
        tile_shared(double, big, LT_ARENA / 8 + 1); /* one element too many: stops the block */
        tile_zeros(big);
    }
    tile_shared(float, s, 64);
    tile_full(s, (float)i);
    tile_sum(sum, s);
    if (tile_thread() == 0) b[i] = (int)tile_value(sum);
}

static void test_early_return(const target *t) {
    const int n = g_quick ? 40 : 5000;
    int *ha = HALLOC(int, n), *hb = HALLOC(int, n);
    int *da = DALLOC(int, n), *db = DALLOC(int, n);
    for (int over_case = 0; over_case < 2; ++over_case) {
        const int over = over_case ? 5 : -1;
        for (int sched = 0; sched < 3; ++sched) {
            g_test = sched == 0 ? "early return default" : sched == 1 ? "early return persistent" : "early return persistent 1/SM";
            POISON(da, (size_t)n * sizeof(int), 0);
            POISON(db, (size_t)n * sizeof(int), POISON_I);
            const int want_err = over >= 0 ? TILE_ERR_SMEM_OVERFLOW : TILE_OK;
            if (sched == 0) {
                CHECK_ERR(tile_launch(t->ex, lt_early, tile_grid1(n), LT_B, da, db, over), t->gpu ? TILE_OK : want_err);
            } else {
                const tile_exec ex = tile_exec_persistent(t->ex, sched == 1 ? 0 : 1);
                CHECK_ERR(tile_launch_persistent(ex, lt_early, tile_grid1(n), LT_B, da, db, over),
                          t->gpu ? TILE_OK : want_err);
            }
            if (t->gpu) CHECK_ERR(tile_synchronize(t->ex), want_err);
            DOWN(ha, da, (size_t)n * sizeof(int));
            DOWN(hb, db, (size_t)n * sizeof(int));
            long bad = 0;
            const int poison = (int)poison_bits32(POISON_I);
            for (int i = 0; i < n; ++i) {
                const int wb = (i % 3 == 1 || i == over) ? poison : 64 * i;
                ++g_checks;
                if (ha[i] != 1 || hb[i] != wb)
                    fail_elem(&bad, __FILE__, __LINE__, "over %d block %d: a %d (want 1) b %d (want %d)", over, i, ha[i],
                              hb[i], wb);
            }
            fail_elem_total(__FILE__, __LINE__, g_test, bad, n);
        }
    }
    tile_free(t->ex, da);
    tile_free(t->ex, db);
    free(ha);
    free(hb);
    g_test = NULL;
}

/* =========================================================================
 * 3. SIMT launches with a partial last block
 * ========================================================================= */
enum { SR_TID = 0, SR_LIN = 4, SR_THR = 5, SREC = 6 };
TILE_KERNEL(lt_simt, LT_B, int ngrid, int *out, int *vis) {
    const int64_t r = tile_block_linear() * TILE_BLOCK_DIM + tile_thread(); /* linear thread id */
    int *o = out + r * SREC;
    for (int k = 0; k < 4; ++k) o[SR_TID + k] = k < ngrid ? tile_tid(k) : -1;
    o[SR_LIN] = (int)tile_block_linear();
    o[SR_THR] = tile_thread();
    tile_atomic_fetch_add((int32_t *)&vis[r], (int32_t)1);
}

static void test_simt_partial(const target *t) {
    static const int64_t grids[][4] = {{261, 1, 1, 1}, {7, 37, 1, 1}, {3, 5, 7, 1}, {64, 1, 1, 1},
                                       {1, 1, 1, 1},   {100003, 1, 1, 1}, {2, 3, 2, 5}};
    static const int ngrids[] = {1, 2, 3, 1, 1, 1, 4};
    const int bd = t->gpu ? LT_B : 1;
    for (int gi = 0; gi < 7; ++gi) {
        if (g_quick && gi == 5) continue;
        const int ngrid = ngrids[gi];
        const int64_t *d = grids[gi];
        const int64_t n = grid_count(ngrid, d);
        const int64_t nrec = (n + bd - 1) / bd * bd + 8; /* the last block's idle threads and a guard */
        int *h = HALLOC(int, nrec * SREC), *hv = HALLOC(int, nrec);
        int *dout = DALLOC(int, nrec * SREC), *dvis = DALLOC(int, nrec);
        for (int sched = 0; sched < 3; ++sched) {
            g_test = sched == 0 ? "simt partial default" : sched == 1 ? "simt partial persistent" : "simt partial persistent 1/SM";
            POISON(dout, (size_t)nrec * SREC * sizeof(int), POISON_I);
            POISON(dvis, (size_t)nrec * sizeof(int), 0);
            const tile_grid g = make_grid(ngrid, d);
            if (sched == 0) RUN_OK(tile_launch_simt(t->ex, lt_simt, g, LT_B, ngrid, dout, dvis));
            else RUN_OK(tile_launch_simt_persistent(tile_exec_persistent(t->ex, sched == 1 ? 0 : 1), lt_simt, g, LT_B,
                                                    ngrid, dout, dvis));
            DOWN(h, dout, (size_t)nrec * SREC * sizeof(int));
            DOWN(hv, dvis, (size_t)nrec * sizeof(int));
            const int poison = (int)poison_bits32(POISON_I);
            long bad = 0;
            for (int64_t r = 0; r < nrec; ++r) {
                const int *o = h + r * SREC;
                ++g_checks;
                int ok;
                if (r < n) {
                    int coord[4] = {-1, -1, -1, -1};
                    int64_t rem = r;
                    for (int k = ngrid - 1; k >= 0; --k) {
                        coord[k] = (int)(rem % d[k]);
                        rem /= d[k];
                    }
                    ok = hv[r] == 1 && o[SR_LIN] == (int)(r / bd) && o[SR_THR] == (int)(r % bd);
                    for (int k = 0; k < 4; ++k) ok &= o[SR_TID + k] == coord[k];
                } else { /* past n: never written */
                    ok = hv[r] == 0;
                    for (int k = 0; k < SREC; ++k) ok &= o[k] == poison;
                }
                if (!ok)
                    fail_elem(&bad, __FILE__, __LINE__, "n %lld thread %lld: tid %d %d %d %d lin %d thr %d visits %d",
                              (long long)n, (long long)r, o[0], o[1], o[2], o[3], o[SR_LIN], o[SR_THR], hv[r]);
            }
            fail_elem_total(__FILE__, __LINE__, g_test, bad, (long)nrec);
        }
        tile_free(t->ex, dout);
        tile_free(t->ex, dvis);
        free(h);
        free(hv);
    }
    g_test = NULL;
}

/* =========================================================================
 * 4. TILE_FN functions from kernels of two block sizes
 * ========================================================================= */
#define FN_N 256
/* One family per block size: the tile type and the functions, stamped by a
 * macro (a register tile's slot count depends on the block size). */
#define DEF_FN_FAMILY(B)                                                           \
    typedef TILE_FN_REG_T(float, B, FN_N) fnrow##B;                                \
    /* t -= mean(t), through a shared tile of the mean; returns the mean */       \
    TILE_FN(fn_center##B, B, fnrow##B *t, float *mean_out) {                       \
        tile_sum(s, *t);                                                           \
        const float mean = tile_value(s) / (float)FN_N;                            \
        tile_shared(float, c, FN_N);                                               \
        tile_full(c, mean);                                                        \
        tile_sub(*t, *t, c);                                                       \
        *mean_out = mean;                                                          \
        TILE_FN_RETURN;                                                            \
    }                                                                              \
    /* centers t and returns the sum of squares of the centered values */         \
    TILE_FN(fn_moments##B, B, fnrow##B *t, float *mean_out, float *ss_out) {       \
        tile_call(fn_center##B, t, mean_out);                                      \
        tile_reg(float, sq, FN_N);                                                 \
        tile_mul(sq, *t, *t);                                                      \
        tile_sum(ss, sq);                                                          \
        *ss_out = tile_value(ss);                                                  \
        TILE_FN_RETURN;                                                            \
    }                                                                              \
    TILE_KERNEL_SMEM(fn_k##B, B, FN_N * 4, const float *a, float *out) {            \
        const int b = tile_block(0);                                               \
        fnrow##B t;                                                                \
        tile_load(t, tile_array1(a + (size_t)b * FN_N, FN_N), 0);                  \
        float m, ss;                                                               \
        tile_call(fn_moments##B, &t, &m, &ss);                                     \
        if (tile_thread() == 0) {                                                  \
            out[3 * b] = m;                                                        \
            out[3 * b + 1] = ss;                                                   \
        }                                                                          \
        tile_store(tile_array1(out + 3 * b + 2, 1), t, 0); /* element 0 only */    \
    }
DEF_FN_FAMILY(64)
DEF_FN_FAMILY(128)

static void test_fn(const target *t) {
    const int nb = g_quick ? 3 : 700;
    float *ha = HALLOC(float, (size_t)nb * FN_N), *ho = HALLOC(float, 3 * nb);
    for (int i = 0; i < nb * FN_N; ++i) ha[i] = 0.25f * (float)((int)((uint32_t)i * 2654435761u >> 25) - 64);
    float *da = DALLOC(float, (size_t)nb * FN_N), *dout = DALLOC(float, 3 * nb);
    UP(da, ha, (size_t)nb * FN_N * sizeof(float));
    for (int v = 0; v < 3; ++v) {
        g_test = v == 0 ? "TILE_FN block 64" : v == 1 ? "TILE_FN block 128" : "TILE_FN block 64 persistent 1/SM";
        POISON(dout, 3 * nb * sizeof(float), POISON_F);
        if (v == 0) RUN_OK(tile_launch(t->ex, fn_k64, tile_grid1(nb), 64, (const float *)da, dout));
        else if (v == 1) RUN_OK(tile_launch(t->ex, fn_k128, tile_grid1(nb), 128, (const float *)da, dout));
        else RUN_OK(tile_launch_persistent(tile_exec_persistent(t->ex, 1), fn_k64, tile_grid1(nb), 64, (const float *)da,
                                           dout));
        DOWN(ho, dout, 3 * nb * sizeof(float));
        long bad = 0;
        for (int b = 0; b < nb; ++b) {
            double mean = 0, ss = 0;
            for (int i = 0; i < FN_N; ++i) mean += ha[b * FN_N + i];
            mean /= FN_N;
            for (int i = 0; i < FN_N; ++i) ss += (ha[b * FN_N + i] - mean) * (ha[b * FN_N + i] - mean);
            ++g_checks;
            if (!(fabs(ho[3 * b] - mean) <= 1e-6 * (1 + fabs(mean)) && fabs(ho[3 * b + 1] - ss) <= 1e-5 * (1 + ss) &&
                  fabs(ho[3 * b + 2] - (ha[b * FN_N] - mean)) <= 1e-6 * (1 + fabs(mean))))
                fail_elem(&bad, __FILE__, __LINE__, "block %d: mean %.9g (want %.9g) ss %.9g (want %.9g) t0 %.9g", b,
                          ho[3 * b], mean, ho[3 * b + 1], ss, ho[3 * b + 2]);
        }
        fail_elem_total(__FILE__, __LINE__, g_test, bad, nb);
    }
    tile_free(t->ex, da);
    tile_free(t->ex, dout);
    free(ha);
    free(ho);
    g_test = NULL;
}

/* =========================================================================
 * 5. warp primitives
 * ========================================================================= */
enum { NI = 28, ND = 13 };
/* a plain function: the primitives need no kernel context */
static TILE_HD inline void warp_body(int32_t v, long long *oi, double *od) {
    const float f = 0.25f * (float)v;
    const double d = 0.5 * (double)v;
    const int64_t x = (int64_t)v * 10000000000ll;
    oi[0] = tile_warp_lane();
    oi[1] = tile_warp_id();
    oi[2] = tile_warp_count();
    oi[3] = tile_warp_lanes();
    oi[4] = (long long)tile_warp_mask();
    tile_warp_sync();
    oi[5] = (long long)tile_warp_ballot(v > 0);
    oi[6] = tile_warp_any(v == 7);
    oi[7] = tile_warp_all(v > -51);
    oi[8] = tile_warp_all(v > 0);
    oi[9] = tile_warp_reduce_sum(v);
    oi[10] = tile_warp_reduce_min(v);
    oi[11] = tile_warp_reduce_max(v);
    oi[12] = (long long)tile_warp_reduce_sum((uint32_t)v * 100000u); /* wraps */
    oi[13] = (long long)tile_warp_reduce_min((uint32_t)(v + 50));
    oi[14] = (long long)tile_warp_reduce_max((uint32_t)v); /* negatives are large */
    oi[15] = (long long)tile_warp_reduce_sum(x);
    oi[16] = (long long)tile_warp_reduce_min(x);
    oi[17] = (long long)tile_warp_reduce_max(x);
    oi[18] = (long long)tile_warp_reduce_sum((uint64_t)x << 3); /* wraps */
    oi[19] = tile_warp_scan_inclusive_sum(v);
    oi[20] = tile_warp_scan_exclusive_sum(v);
    oi[21] = (long long)tile_warp_scan_inclusive_sum(x);
    oi[22] = (long long)tile_warp_scan_exclusive_sum(x);
    oi[23] = tile_warp_shfl(v, 3);
    oi[24] = tile_warp_shfl_up(v, 1);
    oi[25] = tile_warp_shfl_down(v, 2);
    oi[26] = tile_warp_shfl_xor(v, 1);
    oi[27] = (long long)tile_warp_shfl(x, tile_warp_lanes() - 1);
    od[0] = tile_warp_reduce_sum(f);
    od[1] = tile_warp_reduce_min(f);
    od[2] = tile_warp_reduce_max(f);
    od[3] = tile_warp_reduce_sum(d);
    od[4] = tile_warp_reduce_min(d);
    od[5] = tile_warp_reduce_max(d);
    od[6] = tile_warp_scan_inclusive_sum(f);
    od[7] = tile_warp_scan_exclusive_sum(f);
    od[8] = tile_warp_scan_inclusive_sum(d);
    od[9] = tile_warp_scan_exclusive_sum(d);
    od[10] = tile_warp_shfl_xor(f, 2);
    od[11] = tile_warp_shfl_down(d, 1);
    od[12] = tile_warp_shfl_up(f, 3);
}
#define DEF_WARP_KERNEL(name, B)                                                   \
    TILE_KERNEL(name, B, const int32_t *vin, long long *oi, double *od) {          \
        const int64_t r = tile_block_linear() * TILE_BLOCK_DIM + tile_thread();    \
        warp_body(vin[r], oi + r * NI, od + r * ND);                               \
    }
DEF_WARP_KERNEL(warp_k64, 64)
DEF_WARP_KERNEL(warp_k48, 48)

#define DONT_CARE 0x7fffffffffffffffll
/* the expected record of thread th of block b, blocks of bd threads */
static void warp_ref(const int32_t *vin, int64_t b, int th, int bd, long long *wi, double *wd) {
    const int w = th / 32, lane = th % 32, lanes = bd - 32 * w < 32 ? bd - 32 * w : 32;
    const int32_t *vw = vin + b * bd + 32 * w; /* the warp's inputs */
    const int32_t v = vw[lane];
#define XV(i) ((int64_t)vw[i] * 10000000000ll)
#define FV(i) (0.25 * (double)vw[i])
#define DV(i) (0.5 * (double)vw[i])
    unsigned ballot = 0;
    long long any7 = 0, allgt = 1, allpos = 1, s32 = 0, mn = 1000, mx = -1000, inc = 0, exc = 0;
    uint32_t su = 0, mnu = 0xffffffffu, mxu = 0;
    int64_t sx = 0, mnx = INT64_MAX, mxx = INT64_MIN, incx = 0, excx = 0;
    uint64_t su64 = 0;
    double sf = 0, mnf = 1e300, mxf = -1e300, sd = 0, mnd = 1e300, mxd = -1e300, incf = 0, excf = 0, incd = 0, excd = 0;
    for (int i = 0; i < lanes; ++i) {
        const int32_t u = vw[i];
        ballot |= (unsigned)(u > 0) << i;
        any7 |= u == 7;
        allgt &= u > -51;
        allpos &= u > 0;
        s32 += u;
        mn = u < mn ? u : mn;
        mx = u > mx ? u : mx;
        su += (uint32_t)u * 100000u;
        mnu = (uint32_t)(u + 50) < mnu ? (uint32_t)(u + 50) : mnu;
        mxu = (uint32_t)u > mxu ? (uint32_t)u : mxu;
        sx += XV(i);
        mnx = XV(i) < mnx ? XV(i) : mnx;
        mxx = XV(i) > mxx ? XV(i) : mxx;
        su64 += (uint64_t)XV(i) << 3;
        sf += FV(i);
        mnf = fmin(mnf, FV(i));
        mxf = fmax(mxf, FV(i));
        sd += DV(i);
        mnd = fmin(mnd, DV(i));
        mxd = fmax(mxd, DV(i));
        if (i < lane) exc += u, excx += XV(i), excf += FV(i), excd += DV(i);
        if (i <= lane) inc += u, incx += XV(i), incf += FV(i), incd += DV(i);
    }
    wi[0] = lane;
    wi[1] = w;
    wi[2] = (bd + 31) / 32;
    wi[3] = lanes;
    wi[4] = lanes == 32 ? 0xffffffffll : (1ll << lanes) - 1;
    wi[5] = ballot;
    wi[6] = any7;
    wi[7] = allgt;
    wi[8] = allpos;
    wi[9] = s32;
    wi[10] = mn;
    wi[11] = mx;
    wi[12] = su;
    wi[13] = mnu;
    wi[14] = mxu;
    wi[15] = sx;
    wi[16] = mnx;
    wi[17] = mxx;
    wi[18] = (long long)su64;
    wi[19] = inc;
    wi[20] = exc;
    wi[21] = incx;
    wi[22] = excx;
    wi[23] = lanes == 1 ? v : vw[3];
    wi[24] = lane >= 1 ? vw[lane - 1] : v;
    wi[25] = lane + 2 < lanes ? vw[lane + 2] : (lanes == 32 || lanes == 1) ? v : DONT_CARE;
    wi[26] = lanes == 1 ? v : vw[lane ^ 1];
    wi[27] = XV(lanes - 1);
    wd[0] = sf;
    wd[1] = mnf;
    wd[2] = mxf;
    wd[3] = sd;
    wd[4] = mnd;
    wd[5] = mxd;
    wd[6] = incf;
    wd[7] = excf;
    wd[8] = incd;
    wd[9] = excd;
    wd[10] = lanes == 1 ? FV(lane) : FV(lane ^ 2);
    wd[11] = lane + 1 < lanes ? DV(lane + 1) : (lanes == 32 || lanes == 1) ? DV(lane) : NAN;
    wd[12] = lane >= 3 ? FV(lane - 3) : FV(lane);
#undef XV
#undef FV
#undef DV
}

static void test_warp(const target *t) {
    const int nb = g_quick ? 2 : 40;
    for (int k = 0; k < 2; ++k) {
        const int B = k ? 48 : 64, bd = t->gpu ? B : 1;
        g_test = k ? "warp primitives block 48" : "warp primitives block 64";
        const int64_t nrec = (int64_t)nb * bd;
        int32_t *hv = HALLOC(int32_t, nrec);
        long long *hi = HALLOC(long long, nrec * NI);
        double *hd = HALLOC(double, nrec * ND);
        for (int64_t i = 0; i < nrec; ++i) hv[i] = (int32_t)((uint32_t)(i * 2654435761u + 12345u) % 101u) - 50;
        if (nrec > 40) hv[40] = 7; /* one any() hit */
        int32_t *dv = DALLOC(int32_t, nrec);
        long long *di = DALLOC(long long, nrec * NI);
        double *dd = DALLOC(double, nrec * ND);
        UP(dv, hv, (size_t)nrec * sizeof(int32_t));
        POISON(di, (size_t)nrec * NI * sizeof(long long), POISON_I);
        POISON(dd, (size_t)nrec * ND * sizeof(double), POISON_F);
        if (k) RUN_OK(tile_launch(t->ex, warp_k48, tile_grid1(nb), 48, (const int32_t *)dv, di, dd));
        else RUN_OK(tile_launch(t->ex, warp_k64, tile_grid1(nb), 64, (const int32_t *)dv, di, dd));
        DOWN(hi, di, (size_t)nrec * NI * sizeof(long long));
        DOWN(hd, dd, (size_t)nrec * ND * sizeof(double));
        long bad = 0;
        for (int64_t b = 0; b < nb; ++b)
            for (int th = 0; th < bd; ++th) {
                long long wi[NI];
                double wd[ND];
                warp_ref(hv, b, th, bd, wi, wd);
                const long long *gi = hi + (b * bd + th) * NI;
                const double *gd = hd + (b * bd + th) * ND;
                for (int j = 0; j < NI; ++j) {
                    ++g_checks;
                    if (wi[j] != DONT_CARE && gi[j] != wi[j])
                        fail_elem(&bad, __FILE__, __LINE__, "block %lld thread %d: int field %d = %lld, want %lld",
                                  (long long)b, th, j, gi[j], wi[j]);
                }
                for (int j = 0; j < ND; ++j) {
                    ++g_checks;
                    if (!isnan(wd[j]) && gd[j] != wd[j]) /* exact: quarters and halves */
                        fail_elem(&bad, __FILE__, __LINE__, "block %lld thread %d: float field %d = %.17g, want %.17g",
                                  (long long)b, th, j, gd[j], wd[j]);
                }
            }
        fail_elem_total(__FILE__, __LINE__, g_test, bad, (long)nrec * (NI + ND));
        tile_free(t->ex, dv);
        tile_free(t->ex, di);
        tile_free(t->ex, dd);
        free(hv);
        free(hi);
        free(hd);
    }
    g_test = NULL;
}

/* =========================================================================
 * 6. residency caps
 * ========================================================================= */
TILE_KERNEL(lt_res, LT_B, int *live, int *peak, int *out) {
#if TILE_ON_DEVICE
    if (tile_thread() == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        sm &= 255u;
        atomicMax(&peak[sm], atomicAdd(&live[sm], 1) + 1);
        const long long t0 = clock64();
        while (clock64() - t0 < 20000) {
        }
        atomicSub(&live[sm], 1);
    }
    tile_barrier();
#else
    (void)live;
    (void)peak;
#endif
    if (tile_thread() == 0) out[tile_block(0)] = tile_block(0) + 1;
}

static void test_max_resident(const target *t) {
    const int n = g_quick ? 600 : 4096;
    int *hout = HALLOC(int, n), *hpeak = HALLOC(int, 256);
    int *dout = DALLOC(int, n), *dlive = DALLOC(int, 256), *dpeak = DALLOC(int, 256);
    for (int c = 0; c < 3; ++c) {
        const int cap = c == 0 ? 0 : c == 1 ? 2 : 3;
        g_test = c == 0 ? "residency no cap" : c == 1 ? "residency cap 2" : "residency cap 3 persistent";
        POISON(dout, (size_t)n * sizeof(int), POISON_I);
        POISON(dlive, 256 * sizeof(int), 0);
        POISON(dpeak, 256 * sizeof(int), 0);
        const tile_exec ex = tile_exec_max_resident(t->ex, cap);
        if (c < 2) RUN_OK(tile_launch(ex, lt_res, tile_grid1(n), LT_B, dlive, dpeak, dout));
        else RUN_OK(tile_launch_persistent(tile_exec_persistent(ex, 0), lt_res, tile_grid1(n), LT_B, dlive, dpeak, dout));
        if (t->gpu) SYNC_OK();
        DOWN(hout, dout, (size_t)n * sizeof(int));
        DOWN(hpeak, dpeak, 256 * sizeof(int));
        long bad = 0;
        for (int i = 0; i < n; ++i) {
            ++g_checks;
            if (hout[i] != i + 1) fail_elem(&bad, __FILE__, __LINE__, "cap %d: out[%d] = %d", cap, i, hout[i]);
        }
        fail_elem_total(__FILE__, __LINE__, g_test, bad, n);
        if (t->gpu) {
            int mx = 0;
            for (int s = 0; s < 256; ++s) mx = hpeak[s] > mx ? hpeak[s] : mx;
            ++g_checks;
            if (cap ? (mx < 1 || mx > cap) : mx <= 3)
                fail_at(__FILE__, __LINE__, "%s: peak resident blocks an SM %d (cap %d)", g_test, mx, cap);
        }
    }
    tile_free(t->ex, dout);
    tile_free(t->ex, dlive);
    tile_free(t->ex, dpeak);
    free(hout);
    free(hpeak);
    g_test = NULL;
}

static void run_all(const target *t) {
    gc_target_begin(t);
    test_coords(t);
    test_early_return(t);
    test_simt_partial(t);
    test_fn(t);
    test_warp(t);
    test_max_resident(t);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "launch_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
