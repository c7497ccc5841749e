/* histogram_bench - block histograms: tile.h's tile_histogram (both
 * algorithms) next to cub::BlockHistogram (BLOCK_HISTO_ATOMIC and
 * BLOCK_HISTO_SORT), in the same run.
 *
 * Kernels: blocks of 256 threads; a block takes TPB = 16 tiles of 4096 u8
 * samples (16 per thread) one after the other and composites each into one
 * 256-bin u32 histogram in shared memory, then writes the block's 256 counts.
 *   tile atomic: the samples loaded through a shared tile, one 16-byte load
 *          per thread (docs/histogram.md): tile_shared(uint8_t, xs, 16, 256) +
 *          tile_load (vector tier) + tile_histogram_composite(c, xs, 256)
 *          into a shared tile c (tile_histogram_init first)
 *   tile sort reg: the samples in a register tile (tile_load: sixteen 1-byte
 *          striped loads a thread; measured faster than the shared tile for
 *          the sort algorithm: 0.97 against 0.92 of CUB at 448c676) +
 *          tile_histogram_composite_alg(c, x, 256, TILE_HISTO_SORT)
 *   CUB:   cub::BlockLoad<uint8_t, 256, 16, BLOCK_LOAD_VECTORIZE> (the order of
 *          samples does not matter to a histogram: the fastest load) +
 *          cub::BlockHistogram<uint8_t, 256, 16, 256, ALG>::Composite into a
 *          __shared__ unsigned[256] (InitHistogram first)
 * Controls (each next to its own CUB run of the same algorithm; no target,
 * not in --strict): each algorithm with the other load (atomic from a
 * register tile, sort from the shared tile). Candidates (the same; no
 * target), all from a register tile: the sort algorithm with
 * TILE_HISTO_SORT_RUNS 2 (runs found in the sort's buffer as lower
 * bounds, one barrier fewer; the default is 1: starts and ends, 2.7 %
 * faster on the H200 at 7b895af), with
 * TILE_HISTO_SORT_NARROW 0 (the bins staged as 32-bit words; the default
 * 1: 16-bit words, chunks read with 16-byte loads), with
 * TILE_HISTO_SORT_RUNS 0 (the sorted bins read back into registers and
 * copied to shared memory: the default before 2026-11-25 11:30) and with
 * TILE_HISTO_SORT_KEYS 1 (the bins sorted as a shared tile in place;
 * tile/histogram.h), and the default kernel launched with
 * tile_exec_max_resident 3 and 2 (4 blocks an SM fit by registers and
 * shared memory; 8192 blocks over 132 SMs are 15.5 rounds of 4, 31.0 of 2:
 * CUB's kernel, 111 registers, runs 2 an SM). (TILE_HISTO_AGG 1 is no longer run here: measured
 * 0.09 / 0.38 of CUB at bea5b43; sort_test covers its correctness. The
 * shared-tile load with TILE_HISTO_SORT_KEYS 1: 0.85 / 1.19 at e2add85.)
 * Inputs (computed on the device): "uniform" bytes of a hash (little atomic
 * contention) and "skewed" (hash % 4: four bins, heavy contention). 512 MiB
 * of samples each (64 MiB with --small); cudaMemcpy of the samples as a
 * bandwidth reference. GB/s = sample bytes read / median time.
 *
 * Checks (same run): every block's counts equal between all the kernels
 * (bit for bit), and the sum over blocks equal to the host's counting loop
 * over all samples; outputs poisoned before the checked run.
 *
 *   histogram_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small]
 *                   [--commit SHA] [--strict]
 * Exit: 0 ok (also with no GPU); 1 a CUDA error or a wrong result; 2 bad
 * arguments; 3 a target missed under --strict. Target lines: tile / CUB
 * >= 1.00 for each algorithm and input (tile atomic, tile sort reg); the
 * control and candidate lines print their ratio without a target.
 */
#include <tile.h>
#include <tile/histogram.h>
#include <cub/cub.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define THREADS 256
#define IPT 16
#define TILE_N (THREADS * IPT)
#define BINS 256
#define TPB 16

/* ---- the kernels under test ----
 * the samples go through a shared IPT x THREADS u8 tile: tile_load copies it
 * with the 16-byte vector tier (one 16-byte load a thread, as CUB's
 * BLOCK_LOAD_VECTORIZE; the source is 16-byte aligned: cudaMalloc'd, tiles
 * 4096 bytes apart), and the histogram reads the shared samples (tile_load
 * and the histogram put the barriers around the shared writes) */
#define DEF_TILE_HIST(name, ALG, MINB)                                             \
    TILE_KERNEL_SMEM_BOUNDS(name, THREADS,                                         \
                     TILE_SMEM_BYTES(uint32_t, BINS) + TILE_SMEM_BYTES(uint8_t, IPT, THREADS) + \
                         TILE_HISTOGRAM_SMEM_BYTES(TILE_N, BINS, THREADS),         \
                     MINB, const uint8_t *in, uint32_t *out) {                     \
        const int64_t b = tile_block(0);                                           \
        tile_shared(uint32_t, c, BINS);                                            \
        tile_shared(uint8_t, xs, IPT, THREADS);                                    \
        tile_histogram_init(c);                                                    \
        for (int i = 0; i < TPB; ++i) {                                            \
            tile_load(xs, tile_array2(in + (b * TPB + i) * TILE_N, IPT, THREADS), 0, 0); \
            tile_histogram_composite_alg(c, xs, BINS, ALG);                        \
        }                                                                          \
        tile_store(tile_array1(out + b * BINS, BINS), c, 0);                       \
    }
DEF_TILE_HIST(tile_hist_atomic, TILE_HISTO_ATOMIC, 0)
DEF_TILE_HIST(tile_hist_sort, TILE_HISTO_SORT, 0)

/* controls: the samples in a register tile (tile_load: sixteen 1-byte
 * striped loads a thread), the kernels of this bench before bea5b43's run */
#define DEF_TILE_HIST_REG(name, ALG, MINB)                                         \
    TILE_KERNEL_SMEM_BOUNDS(name, THREADS, TILE_SMEM_BYTES(uint32_t, BINS) + TILE_HISTOGRAM_SMEM_BYTES(TILE_N, BINS, THREADS), \
                            MINB, const uint8_t *in, uint32_t *out) {              \
        const int64_t b = tile_block(0);                                           \
        tile_shared(uint32_t, c, BINS);                                            \
        tile_histogram_init(c);                                                    \
        for (int i = 0; i < TPB; ++i) {                                            \
            tile_reg(uint8_t, x, TILE_N);                                          \
            tile_load(x, tile_array1(in + (b * TPB + i) * TILE_N, TILE_N), 0);     \
            tile_histogram_composite_alg(c, x, BINS, ALG);                         \
        }                                                                          \
        tile_store(tile_array1(out + b * BINS, BINS), c, 0);                       \
    }
DEF_TILE_HIST_REG(tile_hist_atomic_reg, TILE_HISTO_ATOMIC, 0)
DEF_TILE_HIST_REG(tile_hist_sort_reg, TILE_HISTO_SORT, 0)

/* candidates (read where the histogram and its TILE_HISTOGRAM_SMEM_BYTES
 * budget expand: in these kernels only): TILE_HISTO_SORT_RUNS 2 and 0, and
 * TILE_HISTO_SORT_KEYS 1 (at e2add85 ptxas gave it 75 registers on sm_90,
 * 3 blocks an SM; min 4 blocks an SM spilled) */
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 2
DEF_TILE_HIST_REG(tile_hist_sort_runs2_reg, TILE_HISTO_SORT, 0)
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 1
#undef TILE_HISTO_SORT_NARROW
#define TILE_HISTO_SORT_NARROW 0
DEF_TILE_HIST_REG(tile_hist_sort_wide_reg, TILE_HISTO_SORT, 0)
#undef TILE_HISTO_SORT_NARROW
#define TILE_HISTO_SORT_NARROW 1
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 0
DEF_TILE_HIST_REG(tile_hist_sort_runs0_reg, TILE_HISTO_SORT, 0)
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 1
#undef TILE_HISTO_SORT_KEYS
#define TILE_HISTO_SORT_KEYS 1
DEF_TILE_HIST_REG(tile_hist_sort_keys_reg, TILE_HISTO_SORT, 0)
#undef TILE_HISTO_SORT_KEYS
#define TILE_HISTO_SORT_KEYS 0

/* ---- the CUB peers ---- */
template <cub::BlockHistogramAlgorithm ALG>
__global__ void __launch_bounds__(THREADS) cub_hist(const uint8_t *__restrict__ in, uint32_t *__restrict__ out) {
    typedef cub::BlockLoad<uint8_t, THREADS, IPT, cub::BLOCK_LOAD_VECTORIZE> Load;
    typedef cub::BlockHistogram<uint8_t, THREADS, IPT, BINS, ALG> Hist;
    __shared__ union {
        typename Load::TempStorage load;
        typename Hist::TempStorage hist;
    } tmp;
    __shared__ unsigned int h[BINS];
    Hist(tmp.hist).InitHistogram(h);
    __syncthreads();
    for (int i = 0; i < TPB; ++i) {
        uint8_t x[IPT];
        Load(tmp.load).Load(in + ((size_t)blockIdx.x * TPB + i) * TILE_N, x);
        __syncthreads();
        Hist(tmp.hist).Composite(x, h);
        __syncthreads();
    }
    for (int i = threadIdx.x; i < BINS; i += THREADS) out[(size_t)blockIdx.x * BINS + i] = h[i];
}

/* ---- input ---- */
__global__ void fill_input(uint8_t *a, size_t n, uint32_t seed, int skewed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint32_t h = tile_hash32(seed, (uint32_t)i);
        a[i] = (uint8_t)(skewed ? (h >> 7) % 4u : h >> 11);
    }
}

#include "bench_util.h"

static int run(const Opts &o) {
    const size_t n = o.small ? ((size_t)1 << 26) : ((size_t)1 << 29); /* samples (bytes) */
    const long blocks = (long)(n / ((size_t)TILE_N * TPB));
    const size_t ob = (size_t)blocks * BINS * sizeof(uint32_t);

    BenchEnv env;
    if (bench_env(&env, "histogram_bench", o)) return 1;
    const cudaDeviceProp &prop = env.prop;
    printf("size: %zu u8 samples (%.0f MiB) per input, %ld blocks x %d tiles x %d samples (%d threads x %d), %d "
           "bins; %d warm-up, %d timed reps each\n",
           n, n / 1048576.0, blocks, TPB, TILE_N, THREADS, IPT, BINS, o.warmup, o.iters);

    uint8_t *d_in[2], *d_copy;
    CK(cudaMalloc(&d_in[0], n));
    CK(cudaMalloc(&d_in[1], n));
    CK(cudaMalloc(&d_copy, n));
    /* pairs (tile, its CUB peer): targets on the first two pairs */
    enum { V_TA, V_CA, V_TSR, V_CS, V_TAR, V_CA2, V_TS, V_CS2, V_T2R, V_CS3, V_TWR, V_CS4, V_T0R, V_CS5, V_TKR, V_CS6, V_TC3, V_CS7, V_TC2, V_CS8, V_PER };
    uint32_t *d_out[2][V_PER];
    for (int d = 0; d < 2; ++d)
        for (int v = 0; v < V_PER; ++v) CK(cudaMalloc(&d_out[d][v], ob));
    for (int d = 0; d < 2; ++d) fill_input<<<prop.multiProcessorCount * 8, 256>>>(d_in[d], n, 2029u + d, d);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    const tile_exec ex = TILE_GPU(env.dev);
    const char *dname[2] = {"uniform", "skewed"};
    const char *vname[V_PER] = {"tile atomic", "cub atomic (peer)", "tile sort reg", "cub sort (peer)",
                                "tile atomic reg (ctl)", "cub atomic (peer 2)", "tile sort (ctl)",
                                "cub sort (peer 2)", "tile sort runs2 reg (cand)", "cub sort (peer 3)",
                                "tile sort wide reg (cand)", "cub sort (peer 4)",
                                "tile sort runs0 reg (cand)", "cub sort (peer 5)", "tile sort keys reg (cand)",
                                "cub sort (peer 6)", "tile sort reg cap3 (cand)", "cub sort (peer 7)",
                                "tile sort reg cap2 (cand)", "cub sort (peer 8)"};
    printf("rows without 'reg': samples through a shared 16 x 256 u8 tile (one 16-byte load a thread); "
           "'reg': a register tile (sixteen 1-byte loads a thread); 'runsR': TILE_HISTO_SORT_RUNS=R (else %d); "
           "'wide': TILE_HISTO_SORT_NARROW=0 (else %d); 'keys': TILE_HISTO_SORT_KEYS=1 (else %d); "
           "TILE_HISTO_AGG=%d\n",
           TILE_HISTO_SORT_RUNS, TILE_HISTO_SORT_NARROW, TILE_HISTO_SORT_KEYS, TILE_HISTO_AGG);
    const int V = 2 * V_PER + 1; /* + memcpy */
    auto launch = [&](int k) -> int {
        if (k == 2 * V_PER) {
            CK(cudaMemcpyAsync(d_copy, d_in[0], n, cudaMemcpyDeviceToDevice, 0));
            return 0;
        }
        const int d = k / V_PER, v = k % V_PER;
        switch (v) {
        case V_TA: TK(tile_launch(ex, tile_hist_atomic, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_CA: cub_hist<cub::BLOCK_HISTO_ATOMIC><<<(unsigned)blocks, THREADS>>>(d_in[d], d_out[d][v]); break;
        case V_TS: TK(tile_launch(ex, tile_hist_sort, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_T2R: TK(tile_launch(ex, tile_hist_sort_runs2_reg, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_TWR: TK(tile_launch(ex, tile_hist_sort_wide_reg, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_TC3: TK(tile_launch(tile_exec_max_resident(ex, 3), tile_hist_sort_reg, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_TC2: TK(tile_launch(tile_exec_max_resident(ex, 2), tile_hist_sort_reg, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_T0R: TK(tile_launch(ex, tile_hist_sort_runs0_reg, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_TKR: TK(tile_launch(ex, tile_hist_sort_keys_reg, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_CS: cub_hist<cub::BLOCK_HISTO_SORT><<<(unsigned)blocks, THREADS>>>(d_in[d], d_out[d][v]); break;
        case V_TAR: TK(tile_launch(ex, tile_hist_atomic_reg, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        case V_CA2: cub_hist<cub::BLOCK_HISTO_ATOMIC><<<(unsigned)blocks, THREADS>>>(d_in[d], d_out[d][v]); break;
        case V_TSR: TK(tile_launch(ex, tile_hist_sort_reg, tile_grid1(blocks), THREADS, (const uint8_t *)d_in[d], d_out[d][v])); break;
        default: cub_hist<cub::BLOCK_HISTO_SORT><<<(unsigned)blocks, THREADS>>>(d_in[d], d_out[d][v]); break;
        }
        CK(cudaGetLastError());
        return 0;
    };
    for (int w = 0; w < o.warmup; ++w)
        for (int k = 0; k < V; ++k)
            if (launch(k)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaDeviceSynchronize());

    /* ---- correctness ---- */
    for (int d = 0; d < 2; ++d)
        for (int v = 0; v < V_PER; ++v) CK(cudaMemset(d_out[d][v], 0xcd, ob));
    for (int k = 0; k < V; ++k)
        if (launch(k)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaDeviceSynchronize());
    long bad = 0;
    std::vector<uint8_t> h_in(n);
    std::vector<uint32_t> h_out[V_PER];
    for (int v = 0; v < V_PER; ++v) h_out[v].resize((size_t)blocks * BINS);
    for (int d = 0; d < 2; ++d) {
        CK(cudaMemcpy(h_in.data(), d_in[d], n, cudaMemcpyDeviceToHost));
        for (int v = 0; v < V_PER; ++v) CK(cudaMemcpy(h_out[v].data(), d_out[d][v], ob, cudaMemcpyDeviceToHost));
        uint64_t ref[BINS] = {0}, got[BINS] = {0};
        for (size_t i = 0; i < n; ++i) ++ref[h_in[i]];
        for (long b = 0; b < blocks; ++b)
            for (int i = 0; i < BINS; ++i) got[i] += h_out[V_TA][(size_t)b * BINS + i];
        const bool sum_ok = !memcmp(ref, got, sizeof ref);
        printf("check %-8s tile atomic: sum over blocks == host counting loop: %s\n", dname[d], sum_ok ? "ok" : "FAIL");
        bad += !sum_ok;
        for (int v = 1; v < V_PER; ++v) {
            const bool same = !memcmp(h_out[v].data(), h_out[V_TA].data(), ob);
            printf("check %-8s %-18s == tile atomic (every block): %s\n", dname[d], vname[v], same ? "ok" : "FAIL");
            bad += !same;
        }
    }
    {
        std::vector<uint8_t> h_copy(n);
        CK(cudaMemcpy(h_copy.data(), d_copy, n, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h_in.data(), d_in[0], n, cudaMemcpyDeviceToHost));
        const bool same = !memcmp(h_copy.data(), h_in.data(), n);
        printf("check memcpy d2d: %s\n", same ? "ok" : "FAIL");
        bad += !same;
    }

    /* ---- timing: interleaved, one event pair per launch ---- */
    std::vector<cudaEvent_t> ev(2 * (size_t)V * o.iters);
    for (auto &e : ev) CK(cudaEventCreate(&e));
    for (int it = 0; it < o.iters; ++it)
        for (int k = 0; k < V; ++k) {
            CK(cudaEventRecord(ev[2 * ((size_t)it * V + k)], 0));
            if (launch(k)) return 1;
            CK(cudaEventRecord(ev[2 * ((size_t)it * V + k) + 1], 0));
        }
    CK(cudaEventSynchronize(ev.back()));
    TK(tile_synchronize(ex));
    std::vector<float> ms[2 * V_PER + 1];
    for (int it = 0; it < o.iters; ++it)
        for (int k = 0; k < V; ++k) {
            float t = 0;
            CK(cudaEventElapsedTime(&t, ev[2 * ((size_t)it * V + k)], ev[2 * ((size_t)it * V + k) + 1]));
            ms[k].push_back(t);
        }
    for (auto &e : ev) CK(cudaEventDestroy(e));
    /* the timed runs reproduce the checked counts */
    {
        std::vector<uint32_t> t(h_out[0].size());
        bool same = true;
        for (int d = 0; d < 2; ++d) {
            CK(cudaMemcpy(h_out[V_TA].data(), d_out[d][V_CA], ob, cudaMemcpyDeviceToHost));
            for (int v = 0; v < V_PER; ++v) {
                CK(cudaMemcpy(t.data(), d_out[d][v], ob, cudaMemcpyDeviceToHost));
                same = same && !memcmp(t.data(), h_out[V_TA].data(), ob);
            }
        }
        printf("check repeat runs agree: %s\n", same ? "ok" : "FAIL");
        bad += !same;
    }

    Stat st[2 * V_PER + 1];
    for (int k = 0; k < V; ++k) st[k] = stats(ms[k]);
    printf("\n%-26s %10s %10s %10s %9s %8s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "vs_peer");
    for (int k = 0; k < V; ++k) {
        char nm[64];
        int peer = k;
        if (k < 2 * V_PER) {
            snprintf(nm, sizeof nm, "%s %s", vname[k % V_PER], dname[k / V_PER]);
            peer = k / V_PER * V_PER + (k % V_PER) / 2 * 2 + 1;
        } else {
            snprintf(nm, sizeof nm, "cudaMemcpy d2d samples");
        }
        printf("%-26s %10.4f %10.4f %10.4f %9.1f %8.3f\n", nm, st[k].median, st[k].min, st[k].max,
               gbps((double)n, st[k].median), st[peer].median / st[k].median);
    }
    printf("(GB/s: sample bytes read / median time, 1e9 B/s)\n");
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    bool all = true, pass[2 * V_PER] = {false};
    const char *aname[V_PER / 2] = {"atomic",       "sort reg",           "control atomic reg",
                                    "control sort", "candidate sort runs2 reg", "candidate sort wide reg",
                                    "candidate sort runs0 reg", "candidate sort keys reg",
                                    "candidate sort reg cap3", "candidate sort reg cap2"};
    const char *why[V_PER / 2] = {"", "", "the register-tile load, for comparison", "the shared-tile load, for comparison",
                                  "TILE_HISTO_SORT_RUNS 2 (lower bounds, the default before 7b895af), register-tile load",
                                  "TILE_HISTO_SORT_NARROW 0 (32-bit staging), register-tile load",
                                  "TILE_HISTO_SORT_RUNS 0 (the former default), register-tile load",
                                  "TILE_HISTO_SORT_KEYS 1, register-tile load",
                                  "the default, tile_exec_max_resident 3", "the default, tile_exec_max_resident 2"};
    for (int a = 0; a < V_PER / 2; ++a)
        for (int d = 0; d < 2; ++d) {
            const int k = d * V_PER + 2 * a;
            char what[96];
            snprintf(what, sizeof what, "tile histogram %s %s / CUB", aname[a], dname[d]);
            if (a < 2) {
                pass[k] = print_target(what, st[k + 1].median / st[k].median, ">=", 1.00);
                all = all && pass[k];
            } else { /* controls, candidates: a ratio, no target (not a step of gpu-check.sh, not in --strict) */
                printf("%s = %.2f (no target: %s)\n", what, st[k + 1].median / st[k].median, why[a]);
            }
        }

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,input,samples,threads,bins,iters,median_ms,min_ms,max_ms,gbps,"
                   "ratio_vs_peer,correct,target\n");
        for (int k = 0; k < V; ++k) {
            const int peer = k < 2 * V_PER ? k / V_PER * V_PER + (k % V_PER) / 2 * 2 + 1 : k;
            const bool is_tile = k < 2 * V_PER && k % 2 == 0 && k % V_PER < 4; /* controls, candidates: no target */
            fprintf(f, "%s,%s,\"%s\",%s,%s,%zu,%d,%d,%d,%.5f,%.5f,%.5f,%.2f,%.4f,%s,%s\n", env.date, env.commit,
                    prop.name, k < 2 * V_PER ? vname[k % V_PER] : "cudaMemcpy d2d", k < 2 * V_PER ? dname[k / V_PER] : "",
                    n, THREADS, BINS, o.iters, st[k].median, st[k].min, st[k].max, gbps((double)n, st[k].median),
                    st[peer].median / st[k].median, bad ? "FAIL" : "PASS", is_tile ? (pass[k] ? "PASS" : "FAIL") : "");
        }
        if (csv_close(f, o.csv)) return 1;
    }
    for (int d = 0; d < 2; ++d) {
        CK(cudaFree(d_in[d]));
        for (int v = 0; v < V_PER; ++v) CK(cudaFree(d_out[d][v]));
    }
    CK(cudaFree(d_copy));
    if (bad) return 1;
    if (o.strict && !all) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 20, 3); }
