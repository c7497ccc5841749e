/* scan_bench - tile.h's block scan next to cub::BlockScan.
 *
 * Kernel under test: one block of 256 threads per tile of 4096 floats (16
 * per thread), tile_load of a register tile, tile_scan_inclusive in place,
 * tile_store; every tile is scanned on its own (tile-local prefix sums).
 * Peers, same tile and grid: cub::BlockLoad<float, 256, 16, ALG> +
 * cub::BlockScan<float, 256, ALG>::InclusiveSum + cub::BlockStore, with
 *   - BLOCK_LOAD/STORE_VECTORIZE + BLOCK_SCAN_WARP_SCANS,
 *   - BLOCK_LOAD/STORE_WARP_TRANSPOSE + BLOCK_SCAN_WARP_SCANS,
 *   - BLOCK_LOAD/STORE_VECTORIZE + BLOCK_SCAN_RAKING (BlockScan's default);
 * the peer of the target line is the fastest of the three in this run.
 * Reference ceiling: cudaMemcpy device-to-device of the same input.
 *
 * Bytes: the input is read once and the output written once, 1 GiB each
 * (2^28 floats = 65536 tiles); memcpy moves the same 2 GiB.
 *
 * Method: input filled on the device with non-zero multiples of 1/64 in
 * +-[1/64, 127/64] (random signs, many duplicates): every prefix sum of a
 * tile is exact in float in any order of additions, so every element of
 * every output is compared with the host's prefix sums exactly; the host
 * recomputes a sample of the input from the hash. Warm-up; outputs poisoned
 * (NaN) before the checked run; variants interleaved, each launch timed with
 * CUDA events, median reported; the timed runs must reproduce the checked
 * outputs bit for bit (hash of each output).
 *
 *   scan_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small]
 *              [--commit SHA] [--strict]
 *   --small: 64 MiB of input instead of 1 GiB; --iters: timed reps (30)
 *   commit: --commit, else $GIT_COMMIT, else -DGIT_COMMIT=..., else "unknown"
 * Exit: 0 ok (also with no GPU: "no GPU: bench skipped"); 1 a CUDA error or a
 * wrong result; 2 bad arguments; 3 target missed under --strict. The target
 * line "tile scan / CUB = X.XX (target >= 0.95): PASS|FAIL" is printed and
 * written to the CSV.
 */
#include <tile.h>
#include <cub/cub.cuh>

#include <cmath>
#include "bench_util.h"

#define THREADS 256
#define IPT 16
#define TILE_N (THREADS * IPT)

/* ---- the kernel under test ---- */
TILE_KERNEL(scan_tile, THREADS, const float *a, float *b) {
    const size_t off = (size_t)tile_block(0) * TILE_N;
    tile_reg(float, t, TILE_N);                  /* 16 floats per thread */
    tile_load(t, tile_array1(a + off, TILE_N), 0);
    tile_scan_inclusive(t, t);
    tile_store(tile_array1(b + off, TILE_N), t, 0);
}

/* ---- the CUB peers: same tile, one tile per block ---- */
template <cub::BlockLoadAlgorithm LA, cub::BlockScanAlgorithm SA, cub::BlockStoreAlgorithm STA>
__global__ void __launch_bounds__(THREADS) cub_scan(const float *__restrict__ a, float *__restrict__ b) {
    typedef cub::BlockLoad<float, THREADS, IPT, LA> Load;
    typedef cub::BlockScan<float, THREADS, SA> Scan;
    typedef cub::BlockStore<float, THREADS, IPT, STA> Store;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        typename Store::TempStorage store;
    } tmp;
    const size_t off = (size_t)blockIdx.x * TILE_N;
    float v[IPT];
    Load(tmp.load).Load(a + off, v);
    __syncthreads();
    Scan(tmp.scan).InclusiveSum(v, v);
    __syncthreads();
    Store(tmp.store).Store(b + off, v);
}

/* ---- input: +-k/64, k in 1..127 ---- */
__host__ __device__ static inline float input_value(uint32_t seed, uint32_t i) {
    const uint32_t h = tile_hash32(seed, i);
    const float m = (float)(1 + (int)(h % 127u)) * (1.0f / 64.0f);
    return (h >> 31) ? -m : m;
}
__global__ void fill_input(float *a, uint32_t n, uint32_t seed) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = input_value(seed, i);
}

/* CK / TK error checks, Opts / parse / usage, stats: bench_util.h */

/* FNV-1a over the bits, 64-bit words (n even) */
static uint64_t hash_bits(const float *p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i + 1 < n; i += 2) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 1099511628211ull;
    }
    return h;
}

/* Every element of got equals the tile-local inclusive prefix sum of in
 * (exact: see the top). Returns the number of wrong elements. */
static long check_scan(const char *what, const float *got, const float *in, size_t n) {
    long bad = 0;
    size_t first = 0;
    for (size_t t0 = 0; t0 < n; t0 += TILE_N) {
        double acc = 0;
        for (size_t i = t0; i < t0 + TILE_N; ++i) {
            acc += (double)in[i];
            const float want = (float)acc; /* exact: |acc| < 2^13 on a 2^-6 grid */
            if (!(got[i] == want) || std::signbit(got[i]) != std::signbit(want)) {
                if (bad < 5)
                    fprintf(stderr, "  %s: element %zu (tile %zu, index %zu): got %.9g, want %.9g\n", what, i,
                            i / TILE_N, i % TILE_N, (double)got[i], (double)want);
                if (!bad) first = i;
                ++bad;
            }
        }
    }
    printf("check %-26s %zu values vs exact host prefix sums: %s", what, n, bad ? "FAIL" : "ok");
    if (bad) printf(" (%ld wrong, first at %zu)", bad, first);
    printf("\n");
    return bad;
}

static int run(const Opts &o) {
    const long tiles = o.small ? (1L << 12) : (1L << 16); /* 64 MiB or 1 GiB of input */
    const size_t n = (size_t)tiles * TILE_N;
    const size_t bytes = n * sizeof(float);
    const double moved = 2.0 * (double)bytes; /* read once + write once */
    const uint32_t seed = 20261122u;

    BenchEnv env;
    if (bench_env(&env, "scan_bench", o)) return 1;
    const cudaDeviceProp &prop = env.prop;
    const char *date = env.date, *commit = env.commit;
    printf("size: %ld tiles x %d floats (%d threads x %d) = %.0f MiB in, %.0f MiB out; %d warm-up, %d timed reps each\n",
           tiles, TILE_N, THREADS, IPT, bytes / 1048576.0, bytes / 1048576.0, o.warmup, o.iters);

    enum { V_TILE, V_CUB_VEC, V_CUB_WT, V_CUB_RAKE, V_COPY, V };
    const char *names[V] = {"tile scan", "cub vectorize+warpscans", "cub warptranspose+warpscans",
                            "cub vectorize+raking", "cudaMemcpy d2d"};
    float *d_in = nullptr, *d_out[V] = {nullptr};
    CK(cudaMalloc(&d_in, bytes));
    for (int v = 0; v < V; ++v) CK(cudaMalloc(&d_out[v], bytes));
    fill_input<<<prop.multiProcessorCount * 8, 256>>>(d_in, (uint32_t)n, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    const tile_exec ex = TILE_GPU(env.dev);
    auto launch = [&](int v) -> int {
        switch (v) {
        case V_TILE:
            TK(tile_launch(ex, scan_tile, tile_grid1(tiles), THREADS, (const float *)d_in, d_out[V_TILE]));
            break;
        case V_CUB_VEC:
            cub_scan<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_SCAN_WARP_SCANS, cub::BLOCK_STORE_VECTORIZE>
                <<<(unsigned)tiles, THREADS>>>(d_in, d_out[v]);
            CK(cudaGetLastError());
            break;
        case V_CUB_WT:
            cub_scan<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS, cub::BLOCK_STORE_WARP_TRANSPOSE>
                <<<(unsigned)tiles, THREADS>>>(d_in, d_out[v]);
            CK(cudaGetLastError());
            break;
        case V_CUB_RAKE:
            cub_scan<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_SCAN_RAKING, cub::BLOCK_STORE_VECTORIZE>
                <<<(unsigned)tiles, THREADS>>>(d_in, d_out[v]);
            CK(cudaGetLastError());
            break;
        default:
            CK(cudaMemcpyAsync(d_out[V_COPY], d_in, bytes, cudaMemcpyDeviceToDevice, 0));
            break;
        }
        return 0;
    };

    /* warm-up (module load, clocks) */
    if (run_rounds(ex, V, o.warmup, [&](int v, int) { return launch(v); })) return 1;

    /* ---- correctness: poison outputs, one run each, check every element ---- */
    for (int v = 0; v < V; ++v) CK(cudaMemset(d_out[v], 0xff, bytes)); /* NaN */
    if (run_rounds(ex, V, 1, [&](int v, int) { return launch(v); })) return 1;

    std::vector<float> h_in(n), h_out(n);
    CK(cudaMemcpy(h_in.data(), d_in, bytes, cudaMemcpyDeviceToHost));
    long bad = 0, zeros = 0, hash_bad = 0;
    for (size_t i = 0; i < n; ++i) zeros += h_in[i] == 0.0f;
    for (size_t i = 0; i < n; i += 4093) hash_bad += h_in[i] != input_value(seed, (uint32_t)i);
    printf("check %-26s %zu values, %ld zeros, %ld of %zu sampled differ from the host hash: %s\n", "input", n, zeros,
           hash_bad, (n + 4092) / 4093, hash_bad || zeros ? "FAIL" : "ok");
    bad += hash_bad + zeros;
    uint64_t h_checked[V];
    for (int v = 0; v < V; ++v) {
        CK(cudaMemcpy(h_out.data(), d_out[v], bytes, cudaMemcpyDeviceToHost));
        h_checked[v] = hash_bits(h_out.data(), n);
        if (v == V_COPY) {
            const bool same = !memcmp(h_out.data(), h_in.data(), bytes);
            printf("check %-26s %zu values: %s\n", names[v], n, same ? "ok" : "FAIL");
            bad += !same;
        } else {
            bad += check_scan(names[v], h_out.data(), h_in.data(), n);
        }
    }

    /* ---- timing: variants interleaved, one event pair around each launch ---- */
    std::vector<float> ms[V];
    if (time_interleaved(ex, V, o.iters, ms, [&](int v, int) { return launch(v); })) return 1;

    /* the timed runs reproduce the checked results bit for bit */
    {
        bool same = true;
        for (int v = 0; v < V; ++v) {
            CK(cudaMemcpy(h_out.data(), d_out[v], bytes, cudaMemcpyDeviceToHost));
            same = same && hash_bits(h_out.data(), n) == h_checked[v];
        }
        printf("check %-26s %s\n", "repeat runs identical", same ? "ok" : "FAIL");
        bad += !same;
    }

    Stat st[V];
    double gbs[V];
    for (int v = 0; v < V; ++v) {
        st[v] = stats(ms[v]);
        gbs[v] = gbps(moved, st[v].median);
    }
    int peer = V_CUB_VEC;
    for (int v = V_CUB_VEC; v <= V_CUB_RAKE; ++v)
        if (gbs[v] > gbs[peer]) peer = v;
    const double ratio = gbs[V_TILE] / gbs[peer]; /* = t_cub / t_tile */

    printf("\n%-28s %10s %10s %10s %9s %8s %10s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "vs_CUB",
           "vs_memcpy");
    for (int v = 0; v < V; ++v)
        printf("%-28s %10.4f %10.4f %10.4f %9.1f %8.3f %10.3f%s\n", names[v], st[v].median, st[v].min, st[v].max,
               gbs[v], gbs[v] / gbs[peer], gbs[v] / gbs[V_COPY], v == peer ? "  (peer)" : "");
    printf("(GB/s: bytes moved / median time, 1e9 B/s; every variant moves %.0f MiB, read + write; the peer is the "
           "fastest CUB variant)\n",
           moved / 1048576.0);
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    const bool pass = print_target("tile scan / CUB", ratio, ">=", 0.95);

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,tiles,tile_n,threads,bytes_moved,iters,median_ms,min_ms,max_ms,gbps,"
                   "ratio_vs_cub,ratio_vs_memcpy,correct,target\n");
        for (int v = 0; v < V; ++v)
            fprintf(f, "%s,%s,\"%s\",%s,%ld,%d,%d,%.0f,%d,%.5f,%.5f,%.5f,%.2f,%.4f,%.4f,%s,%s\n", date, commit,
                    prop.name, names[v], tiles, TILE_N, THREADS, moved, o.iters, st[v].median, st[v].min, st[v].max,
                    gbs[v], gbs[v] / gbs[peer], gbs[v] / gbs[V_COPY], bad ? "FAIL" : "PASS",
                    v == V_TILE ? (pass ? "PASS" : "FAIL") : "");
        if (csv_close(f, o.csv)) return 1;
    }

    CK(cudaFree(d_in));
    for (int v = 0; v < V; ++v) CK(cudaFree(d_out[v]));
    if (bad) return 1;
    if (o.strict && !pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run); }
