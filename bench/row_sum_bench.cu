/* row_sum_bench - the foundation benchmark: tile.h's row sum next to CUB.
 *
 * Kernel under test (the same as examples/row_sum.cu): one block of 64
 * threads per row of 256 floats, tile_load of the row, tile_sum, tile_store
 * of the one-element result. Peer: a CUB kernel of the same tile size,
 * cub::BlockLoad<float, 64, 4, BLOCK_LOAD_VECTORIZE> + cub::BlockReduce<float,
 * 64>, one row per block, thread 0 writes the sum. Diagnostic: the same CUB
 * kernel with BLOCK_LOAD_STRIPED (tile.h's element-to-thread mapping, 4-byte
 * loads). Reference ceiling: cudaMemcpy device-to-device of the same input.
 *
 * Bytes: the input is read once (1 GiB = 2^28 floats = 2^20 rows of 256) and
 * one float per row is written (4 MiB). memcpy moves 2 GiB (read + write).
 *
 * Method: input filled on the device with non-zero pseudo-random values
 * (tile_hash_unit - 0.25, so row sums sit near 64, far from zero); warm-up;
 * outputs poisoned (NaN) before the checked run; every row of every kernel
 * checked against a double-precision host reference, and tile against CUB
 * (relative 1e-5); variants interleaved, each launch timed with CUDA events,
 * median reported. Repeated runs must reproduce the checked output bit for bit.
 *
 *   row_sum_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small]
 *                 [--commit SHA] [--strict]
 *   --small: 64 MiB of input instead of 1 GiB; --iters: timed reps (30)
 *   commit: --commit, else $GIT_COMMIT, else -DGIT_COMMIT=..., else "unknown"
 * Exit: 0 ok (also with no GPU: "no GPU: bench skipped"); 1 a CUDA error or a
 * wrong result; 2 bad arguments; 3 target missed under --strict. The target
 * line (tile/CUB >= 0.95) is printed and written to the CSV.
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

    float *d_in = nullptr, *d_copy = nullptr, *d_tile = nullptr, *d_cub = nullptr, *d_cubs = nullptr;
    CK(cudaMalloc(&d_in, in_bytes));
    CK(cudaMalloc(&d_copy, in_bytes));
    CK(cudaMalloc(&d_tile, out_bytes));
    CK(cudaMalloc(&d_cub, out_bytes));
    CK(cudaMalloc(&d_cubs, out_bytes));
    fill_input<<<prop.multiProcessorCount * 8, 256>>>(d_in, (uint32_t)n, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    const tile_exec ex = TILE_GPU(env.dev);
    /* the variants, launched on the default stream */
    enum { V_TILE, V_CUB, V_CUBS, V_COPY, V };
    const char *names[V] = {"tile row_sum", "cub vectorize (peer)", "cub striped (diag)", "cudaMemcpy d2d"};
    const double bytes[V] = {moved, moved, moved, 2.0 * in_bytes};
    auto launch = [&](int v) -> int {
        if (v == V_TILE) {
            TK(tile_launch(ex, row_sum, tile_grid1(rows), THREADS, (const float *)d_in, d_tile, (int64_t)rows));
        } else if (v == V_CUB) {
            cub_row_sum<cub::BLOCK_LOAD_VECTORIZE><<<(unsigned)rows, THREADS>>>(d_in, d_cub);
            CK(cudaGetLastError());
        } else if (v == V_CUBS) {
            cub_row_sum<cub::BLOCK_LOAD_STRIPED><<<(unsigned)rows, THREADS>>>(d_in, d_cubs);
            CK(cudaGetLastError());
        } else {
            CK(cudaMemcpyAsync(d_copy, d_in, in_bytes, cudaMemcpyDeviceToDevice, 0));
        }
        return 0;
    };

    /* warm-up (module load, clocks) */
    if (run_rounds(ex, V, o.warmup, [&](int v, int) { return launch(v); })) return 1;

    /* ---- correctness: poison outputs, one run each, check every row ---- */
    CK(cudaMemset(d_tile, 0xff, out_bytes)); /* 0xffffffff is a NaN */
    CK(cudaMemset(d_cub, 0xff, out_bytes));
    CK(cudaMemset(d_cubs, 0xff, out_bytes));
    CK(cudaMemset(d_copy, 0, in_bytes));
    if (run_rounds(ex, V, 1, [&](int v, int) { return launch(v); })) return 1;

    std::vector<float> h_in(n), h_tile(rows), h_cub(rows), h_cubs(rows);
    std::vector<double> ref(rows);
    CK(cudaMemcpy(h_in.data(), d_in, in_bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_tile.data(), d_tile, out_bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_cub.data(), d_cub, out_bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_cubs.data(), d_cubs, out_bytes, cudaMemcpyDeviceToHost));
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
    bad += check_rows("tile vs double ref", h_tile.data(), ref.data(), rows, 1e-5);
    bad += check_rows("cub vs double ref", h_cub.data(), ref.data(), rows, 1e-5);
    bad += check_rows("cub striped vs ref", h_cubs.data(), ref.data(), rows, 1e-5);
    {
        std::vector<double> cubd(h_cub.begin(), h_cub.end());
        bad += check_rows("tile vs cub", h_tile.data(), cubd.data(), rows, 1e-5);
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
        std::vector<float> t2(rows), c2(rows), s2(rows);
        CK(cudaMemcpy(t2.data(), d_tile, out_bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(c2.data(), d_cub, out_bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(s2.data(), d_cubs, out_bytes, cudaMemcpyDeviceToHost));
        bool same = !memcmp(t2.data(), h_tile.data(), out_bytes) && !memcmp(c2.data(), h_cub.data(), out_bytes) &&
                    !memcmp(s2.data(), h_cubs.data(), out_bytes);
        printf("check %-22s %s\n", "repeat runs identical", same ? "ok" : "FAIL");
        bad += !same;
    }

    Stat st[V];
    double gbs[V];
    for (int v = 0; v < V; ++v) {
        st[v] = stats(ms[v]);
        gbs[v] = gbps(bytes[v], st[v].median);
    }
    const double ratio = gbs[V_TILE] / gbs[V_CUB]; /* = t_cub / t_tile */

    printf("\n%-22s %10s %10s %10s %9s %8s %10s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "vs_CUB",
           "vs_memcpy");
    for (int v = 0; v < V; ++v)
        printf("%-22s %10.4f %10.4f %10.4f %9.1f %8.3f %10.3f\n", names[v], st[v].median, st[v].min, st[v].max,
               gbs[v], gbs[v] / gbs[V_CUB], gbs[v] / gbs[V_COPY]);
    printf("(GB/s: bytes moved / median time, 1e9 B/s; kernels move %.0f MiB, memcpy %.0f MiB read+write)\n",
           moved / 1048576.0, 2.0 * in_bytes / 1048576.0);
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    const bool pass = print_target("tile/CUB", ratio, ">=", 0.95);

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,rows,row_n,bytes_moved,iters,median_ms,min_ms,max_ms,gbps,"
                   "ratio_vs_cub,ratio_vs_memcpy,correct,target\n");
        for (int v = 0; v < V; ++v)
            fprintf(f, "%s,%s,\"%s\",%s,%ld,%d,%.0f,%d,%.5f,%.5f,%.5f,%.2f,%.4f,%.4f,%s,%s\n", date, commit, prop.name,
                    names[v], rows, ROW_N, bytes[v], o.iters, st[v].median, st[v].min, st[v].max, gbs[v],
                    gbs[v] / gbs[V_CUB], gbs[v] / gbs[V_COPY], bad ? "FAIL" : "PASS",
                    v == V_TILE ? (pass ? "PASS" : "FAIL") : "");
        if (csv_close(f, o.csv)) return 1;
    }

    CK(cudaFree(d_in));
    CK(cudaFree(d_copy));
    CK(cudaFree(d_tile));
    CK(cudaFree(d_cub));
    CK(cudaFree(d_cubs));
    if (bad) return 1;
    if (o.strict && !pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run); }
