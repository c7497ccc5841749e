/* row_sum_bench - the foundation benchmark: tile.h's row sum next to CUB,
 * under both launch schedules.
 *
 * Kernel under test (the same as examples/row_sum.cu): one logical block of
 * 64 threads per row of 256 floats, tile_load of the row, tile_sum,
 * tile_store of the one-element result. Launched two ways, the body
 * unchanged:
 *   tile row_sum            tile_launch: one block per row (2^20 blocks)
 *   tile row_sum persistent tile_launch_persistent: as many resident blocks
 *                           as fit (occupancy x SMs) walk the rows
 * Peer: a CUB kernel of the same tile size, cub::BlockLoad<float, 64, 4,
 * BLOCK_LOAD_VECTORIZE> + cub::BlockReduce<float, 64>, one row per block,
 * thread 0 writes the sum. Diagnostics: the same CUB kernel with
 * BLOCK_LOAD_STRIPED (tile.h's element-to-thread mapping, 4-byte loads), and
 * the CUB kernel in a hand-written grid-stride loop over rows with the
 * persistent launch's block count (what the schedule buys CUB). Reference
 * ceiling: cudaMemcpy device-to-device of the same input.
 *
 * Bytes: the input is read once (1 GiB = 2^28 floats = 2^20 rows of 256) and
 * one float per row is written (4 MiB). memcpy moves 2 GiB (read + write).
 *
 * Method: input filled on the device with non-zero pseudo-random values
 * (tile_hash_unit - 0.25, so row sums sit near 64, far from zero); warm-up;
 * outputs poisoned (NaN) before the checked run; every row of every kernel
 * checked against a double-precision host reference, tile against CUB
 * (relative 1e-5), and the two tile schedules against each other bit for bit
 * (same code, same order); variants interleaved, each launch timed with CUDA
 * events, median reported. Repeated runs must reproduce the checked output
 * bit for bit.
 *
 *   row_sum_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small]
 *                 [--commit SHA] [--strict]
 *   --small: 64 MiB of input instead of 1 GiB; --iters: timed reps (30)
 *   commit: --commit, else $GIT_COMMIT, else -DGIT_COMMIT=..., else "unknown"
 * Exit: 0 ok (also with no GPU: "no GPU: bench skipped"); 1 a CUDA error or a
 * wrong result; 2 bad arguments; 3 a target missed under --strict. Target
 * lines (printed and written to the CSV):
 *   tile/CUB >= 0.95                          (default schedule vs CUB)
 *   persistent row sum / memcpy >= 0.95       (GB/s over memcpy's GB/s;
 *       measured before the persistent schedule: one block per row 0.565, a
 *       hand-written persistent loop 0.985, H100)
 */
#include <tile.h>
#include <cub/cub.cuh>

#include <cmath>
#include "bench_util.h"

#define ROW_N 256
#define THREADS 64
#define IPT (ROW_N / THREADS)

/* ---- the kernel under test: examples/row_sum.cu with the row count passed in ---- */
TILE_KERNEL(row_sum, THREADS, const float *a, float *b, int64_t rows) {
    int i = tile_block(0);                       /* one tile per row */
    tile_reg(float, t, ROW_N);                   /* 256 values, 4 per thread */
    tile_load(t, tile_array1(a + (size_t)i * ROW_N, ROW_N), 0);
    tile_sum(s, t);                              /* one-element tile */
    tile_store(tile_array1(b, rows), s, i);
}

/* ---- the CUB peer: same tile size, one row per block ----
 * VECTORIZE is the peer (16-byte loads, 4 consecutive floats per thread).
 * STRIPED is a diagnostic: thread t loads t, t+64, t+128, t+192 with 4-byte
 * loads, the element-to-thread mapping of tile.h's register tiles, so
 * tile vs cub-striped isolates tile.h's own overhead from the load width. */
template <cub::BlockLoadAlgorithm ALG>
__global__ void __launch_bounds__(THREADS) cub_row_sum(const float *__restrict__ a, float *__restrict__ b) {
    typedef cub::BlockLoad<float, THREADS, IPT, ALG> Load;
    typedef cub::BlockReduce<float, THREADS> Reduce;
    __shared__ typename Load::TempStorage load_tmp;
    __shared__ typename Reduce::TempStorage red_tmp;
    float v[IPT];
    Load(load_tmp).Load(a + (size_t)blockIdx.x * ROW_N, v);
    float s = Reduce(red_tmp).Sum(v);
    if (threadIdx.x == 0) b[blockIdx.x] = s;
}

/* the diagnostic: the same CUB block code in a grid-stride loop over rows */
__global__ void __launch_bounds__(THREADS) cub_row_sum_loop(const float *__restrict__ a, float *__restrict__ b,
                                                            unsigned rows) {
    typedef cub::BlockLoad<float, THREADS, IPT, cub::BLOCK_LOAD_VECTORIZE> Load;
    typedef cub::BlockReduce<float, THREADS> Reduce;
    __shared__ typename Load::TempStorage load_tmp;
    __shared__ typename Reduce::TempStorage red_tmp;
    for (unsigned r = blockIdx.x; r < rows; r += gridDim.x) {
        float v[IPT];
        Load(load_tmp).Load(a + (size_t)r * ROW_N, v);
        float s = Reduce(red_tmp).Sum(v);
        if (threadIdx.x == 0) b[r] = s;
        __syncthreads(); /* the temp storage is reused by the next row */
    }
}

/* ---- input: non-zero pseudo-random values in [-0.25, 0.75) ---- */
__global__ void fill_input(float *a, uint32_t n, uint32_t seed) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = tile_hash_unit(seed, i) - 0.25f;
}

/* ---- host helpers ---- */
/* Compare got[] against ref[] (double) with relative tolerance; count misses
 * (NaN never passes), report the worst row. */
static long check_rows(const char *what, const float *got, const double *ref, long rows, double tol) {
    long bad = 0, worst = 0;
    double wrel = 0;
    for (long r = 0; r < rows; ++r) {
        double rel = fabs((double)got[r] - ref[r]) / fmax(fabs(ref[r]), 1e-30);
        if (!(rel <= tol)) {
            if (bad < 5) fprintf(stderr, "  %s: row %ld: got %.9g, want %.9g (rel %.3g)\n", what, r, got[r], ref[r], rel);
            ++bad;
        }
        if (!(rel <= wrel)) { wrel = rel; worst = r; }
    }
    printf("check %-22s %ld rows, max rel err %.3g (row %ld), tol %.0e: %s\n", what, rows, wrel, worst, tol,
           bad ? "FAIL" : "ok");
    return bad;
}

static int run(const Opts &o) {
    const long rows = o.small ? (1L << 16) : (1L << 20); /* 64 MiB or 1 GiB of input */
    const size_t n = (size_t)rows * ROW_N;
    const size_t in_bytes = n * sizeof(float), out_bytes = (size_t)rows * sizeof(float);
    const double moved = (double)(in_bytes + out_bytes); /* read once + write once */
    const uint32_t seed = 12345u;

    BenchEnv env;
    if (bench_env(&env, "row_sum_bench", o)) return 1;
    const cudaDeviceProp &prop = env.prop;
    const char *date = env.date, *commit = env.commit;
    printf("size: %ld rows x %d floats = %.0f MiB in, %.0f MiB out; %d warm-up, %d timed reps each\n", rows, ROW_N,
           in_bytes / 1048576.0, out_bytes / 1048576.0, o.warmup, o.iters);

    /* the variants, launched on the default stream */
    enum { V_TILE, V_TILEP, V_CUB, V_CUBS, V_CUBL, V_TILEP16, V_TILEP24, V_COPY, V };
    const char *names[V] = {"tile row_sum",       "tile row_sum persistent", "cub vectorize (peer)",
                            "cub striped (diag)", "cub loop (diag)",         "persistent 16/SM (cand)",
                            "persistent 24/SM (cand)", "cudaMemcpy d2d"};
    const double bytes[V] = {moved, moved, moved, moved, moved, moved, moved, 2.0 * in_bytes};
    /* resident blocks an SM of the persistent variants (0: as many as fit; the candidates fewer) */
    auto per_sm_of = [](int v) { return v == V_TILEP16 ? 16 : v == V_TILEP24 ? 24 : 0; };
    float *d_in = nullptr, *d_copy = nullptr, *d_out[V] = {nullptr};
    CK(cudaMalloc(&d_in, in_bytes));
    CK(cudaMalloc(&d_copy, in_bytes));
    for (int v = 0; v < V_COPY; ++v) CK(cudaMalloc(&d_out[v], out_bytes));
    fill_input<<<prop.multiProcessorCount * 8, 256>>>(d_in, (uint32_t)n, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    const tile_exec ex = TILE_GPU(env.dev);
    /* the persistent launch picks its block count itself (as many as fit); the
     * CUB loop diagnostic gets the same count, from the same occupancy query */
    int cub_per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&cub_per_sm, cub_row_sum_loop, THREADS, 0));
    const long cub_blocks = std::min<long>(rows, (long)cub_per_sm * prop.multiProcessorCount);
    printf("persistent: as many blocks as fit (tile_launch_persistent); cub loop: %d blocks/SM x %d SMs = %ld blocks\n",
           cub_per_sm, prop.multiProcessorCount, cub_blocks);
    auto launch = [&](int v) -> int {
        if (v == V_TILE) {
            TK(tile_launch(ex, row_sum, tile_grid1(rows), THREADS, (const float *)d_in, d_out[v], (int64_t)rows));
        } else if (v == V_TILEP || v == V_TILEP16 || v == V_TILEP24) {
            TK(tile_launch_persistent(tile_exec_persistent(ex, per_sm_of(v)), row_sum, tile_grid1(rows), THREADS,
                                      (const float *)d_in, d_out[v], (int64_t)rows));
        } else if (v == V_CUB) {
            cub_row_sum<cub::BLOCK_LOAD_VECTORIZE><<<(unsigned)rows, THREADS>>>(d_in, d_out[v]);
            CK(cudaGetLastError());
        } else if (v == V_CUBS) {
            cub_row_sum<cub::BLOCK_LOAD_STRIPED><<<(unsigned)rows, THREADS>>>(d_in, d_out[v]);
            CK(cudaGetLastError());
        } else if (v == V_CUBL) {
            cub_row_sum_loop<<<(unsigned)cub_blocks, THREADS>>>(d_in, d_out[v], (unsigned)rows);
            CK(cudaGetLastError());
        } else {
            CK(cudaMemcpyAsync(d_copy, d_in, in_bytes, cudaMemcpyDeviceToDevice, 0));
        }
        return 0;
    };

    /* warm-up (module load, clocks) */
    if (run_rounds(ex, V, o.warmup, [&](int v, int) { return launch(v); })) return 1;

    /* ---- correctness: poison outputs, one run each, check every row ---- */
    for (int v = 0; v < V_COPY; ++v) CK(cudaMemset(d_out[v], 0xff, out_bytes)); /* 0xffffffff is a NaN */
    CK(cudaMemset(d_copy, 0, in_bytes));
    if (run_rounds(ex, V, 1, [&](int v, int) { return launch(v); })) return 1;

    std::vector<float> h_in(n), h_out[V];
    std::vector<double> ref(rows);
    CK(cudaMemcpy(h_in.data(), d_in, in_bytes, cudaMemcpyDeviceToHost));
    for (int v = 0; v < V_COPY; ++v) {
        h_out[v].resize(rows);
        CK(cudaMemcpy(h_out[v].data(), d_out[v], out_bytes, cudaMemcpyDeviceToHost));
    }
    long bad = 0, zeros = 0, hash_bad = 0;
    for (long r = 0; r < rows; ++r) {
        double acc = 0;
        const float *p = &h_in[(size_t)r * ROW_N];
        for (int j = 0; j < ROW_N; ++j) {
            acc += (double)p[j];
            zeros += p[j] == 0.0f;
        }
        ref[r] = acc;
    }
    /* the device fill is the function we think it is (host recomputes a sample) */
    for (size_t i = 0; i < n; i += 4093)
        hash_bad += h_in[i] != tile_hash_unit(seed, (uint32_t)i) - 0.25f;
    printf("check %-22s %zu values, %ld zeros, %ld of %zu sampled differ from the host hash: %s\n", "input", n, zeros,
           hash_bad, (n + 4092) / 4093, hash_bad || zeros > (long)(n / 1000000 + 16) ? "FAIL" : "ok");
    bad += hash_bad + (zeros > (long)(n / 1000000 + 16));
    bad += check_rows("tile vs double ref", h_out[V_TILE].data(), ref.data(), rows, 1e-5);
    bad += check_rows("tile persistent vs ref", h_out[V_TILEP].data(), ref.data(), rows, 1e-5);
    bad += check_rows("cub vs double ref", h_out[V_CUB].data(), ref.data(), rows, 1e-5);
    bad += check_rows("cub striped vs ref", h_out[V_CUBS].data(), ref.data(), rows, 1e-5);
    bad += check_rows("cub loop vs ref", h_out[V_CUBL].data(), ref.data(), rows, 1e-5);
    bad += check_rows("persistent 16/SM vs ref", h_out[V_TILEP16].data(), ref.data(), rows, 1e-5);
    bad += check_rows("persistent 24/SM vs ref", h_out[V_TILEP24].data(), ref.data(), rows, 1e-5);
    {
        std::vector<double> cubd(h_out[V_CUB].begin(), h_out[V_CUB].end());
        bad += check_rows("tile vs cub", h_out[V_TILE].data(), cubd.data(), rows, 1e-5);
    }
    {   /* one code, one summation order: the schedules agree bit for bit */
        bool same = !memcmp(h_out[V_TILE].data(), h_out[V_TILEP].data(), out_bytes);
        printf("check %-22s %ld rows: %s\n", "persistent == default", rows, same ? "ok" : "FAIL");
        bad += !same;
    }
    {   /* the copy is a copy */
        std::vector<float> h_copy(n);
        CK(cudaMemcpy(h_copy.data(), d_copy, in_bytes, cudaMemcpyDeviceToHost));
        bool same = !memcmp(h_copy.data(), h_in.data(), in_bytes);
        printf("check %-22s %zu values: %s\n", "memcpy d2d", n, same ? "ok" : "FAIL");
        bad += !same;
    }

    /* ---- timing: variants interleaved, one event pair around each launch ---- */
    std::vector<float> ms[V];
    if (time_interleaved(ex, V, o.iters, ms, [&](int v, int) { return launch(v); })) return 1;

    /* the timed runs reproduce the checked results bit for bit */
    {
        bool same = true;
        std::vector<float> again(rows);
        for (int v = 0; v < V_COPY; ++v) {
            CK(cudaMemcpy(again.data(), d_out[v], out_bytes, cudaMemcpyDeviceToHost));
            same = same && !memcmp(again.data(), h_out[v].data(), out_bytes);
        }
        printf("check %-22s %s\n", "repeat runs identical", same ? "ok" : "FAIL");
        bad += !same;
    }

    Stat st[V];
    double gbs[V];
    for (int v = 0; v < V; ++v) {
        st[v] = stats(ms[v]);
        gbs[v] = gbps(bytes[v], st[v].median);
    }
    const double ratio = gbs[V_TILE] / gbs[V_CUB];      /* = t_cub / t_tile */
    const double pratio = gbs[V_TILEP] / gbs[V_COPY];   /* GB/s over memcpy's GB/s */

    printf("\n%-24s %10s %10s %10s %9s %8s %10s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "vs_CUB",
           "vs_memcpy");
    for (int v = 0; v < V; ++v)
        printf("%-24s %10.4f %10.4f %10.4f %9.1f %8.3f %10.3f\n", names[v], st[v].median, st[v].min, st[v].max,
               gbs[v], gbs[v] / gbs[V_CUB], gbs[v] / gbs[V_COPY]);
    printf("(GB/s: bytes moved / median time, 1e9 B/s; kernels move %.0f MiB, memcpy %.0f MiB read+write)\n",
           moved / 1048576.0, 2.0 * in_bytes / 1048576.0);
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    const bool pass = print_target("tile/CUB", ratio, ">=", 0.95, 2, !bad);
    const bool ppass = print_target("persistent row sum / memcpy", pratio, ">=", 0.95, 3, !bad);
    for (int v = V_TILEP16; v < V_COPY; ++v)
        printf("%s row sum / memcpy = %.3f (no target: tile_exec_persistent(ex, %d))\n", names[v],
               gbs[v] / gbs[V_COPY], per_sm_of(v));

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,rows,row_n,bytes_moved,iters,median_ms,min_ms,max_ms,gbps,"
                   "ratio_vs_cub,ratio_vs_memcpy,correct,target\n");
        for (int v = 0; v < V; ++v)
            fprintf(f, "%s,%s,\"%s\",%s,%ld,%d,%.0f,%d,%.5f,%.5f,%.5f,%.2f,%.4f,%.4f,%s,%s\n", date, commit, prop.name,
                    names[v], rows, ROW_N, bytes[v], o.iters, st[v].median, st[v].min, st[v].max, gbs[v],
                    gbs[v] / gbs[V_CUB], gbs[v] / gbs[V_COPY], bad ? "FAIL" : "PASS",
                    v == V_TILE ? (pass ? "PASS" : "FAIL") : v == V_TILEP ? (ppass ? "PASS" : "FAIL") : "");
        if (csv_close(f, o.csv)) return 1;
    }

    CK(cudaFree(d_in));
    CK(cudaFree(d_copy));
    for (int v = 0; v < V_COPY; ++v) CK(cudaFree(d_out[v]));
    if (bad) return 1;
    if (o.strict && !(pass && ppass)) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run); }
