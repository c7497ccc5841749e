/* reduce_bench - block reductions of tile.h next to CUB, and the seed's sum
 * of squares next to cub::DeviceReduce and to one atomic per element.
 *
 * Part A, block reduce: tiles of 4096 floats (256 threads x 16 items), one
 * tile per block, one sum per tile. tile.h: tile_load of a 4096-element
 * register tile + tile_sum + tile_store of the one-element result. Peer: the
 * same tile size with cub::BlockLoad<float, 256, 16, BLOCK_LOAD_VECTORIZE>
 * (16-byte loads) + cub::BlockReduce<float, 256>, thread 0 writes the sum.
 * Input 1 GiB (2^28 floats, 65536 tiles); --small: 64 MiB.
 *   "tile reduce / CUB = X (target >= 0.95)"   (CUB time / tile time)
 *
 * Part B, sum of squares of an f64 array: the seed uses 4096 x 4096 (128 MiB,
 * well under a millisecond on an H100); to measure it the array here is
 * 16384 x 16384 f64 = 2 GiB (2^28 elements); --small: the seed's 4096 x 4096.
 * Variants, each accumulating into one zeroed global double (the zeroing
 * memset is inside the timed interval of the variants that need it):
 *  - tile: one block of 256 threads per 4096 elements: tile_load of a
 *    register tile, tile_mul (x*x), tile_sum, tile_atomic_add (one atomic per
 *    block, 65536 in all);
 *  - seed form (diagnostic): the seed's kernel, one thread per element,
 *    tile_from_values(x*x) + tile_sum + tile_atomic_add (one atomic per block
 *    of 256);
 *  - atomics: one atomicAdd per element (tile_atomic_add_ptr), 2^28 atomics on
 *    one address (timed over fewer repetitions: it is slow);
 *  - CUB: cub::DeviceReduce::TransformReduce with x*x (temporary storage
 *    allocated once, outside the timing).
 *   "sum of squares tile / DeviceReduce time ratio = X (target <= 1.15)"
 *   "speedup over atomics = X (target >= 200)"   (atomics time / tile time)
 *
 * Method: inputs filled on the device with non-zero pseudo-random values
 * (tile_hash_unit - 0.25); warm-up; outputs poisoned (NaN) before the checked
 * run; every tile sum checked against a double host reference (relative
 * 1e-5) and against CUB, each sum of squares against a long double host sum
 * (relative 1e-10; 1e-8 for the atomics, whose order is arbitrary); variants
 * interleaved, each launch timed with CUDA events, median reported; the timed
 * runs' results are checked again (Part A bit for bit).
 *
 *   reduce_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small]
 *                [--commit SHA] [--strict]
 * Exit: 0 ok (also with no GPU: "no GPU: bench skipped"); 1 a CUDA error or a
 * wrong result; 2 bad arguments; 3 a target missed under --strict.
 */
#include <tile.h>
#include <cub/cub.cuh>

#include <cmath>
#include "bench_util.h"

#define THREADS 256
#define IPT 16
#define TILE_N (THREADS * IPT) /* 4096 */

/* ---- Part A: block reduce ---- */
TILE_KERNEL(tile_block_sum, THREADS, const float *a, float *out, int64_t tiles) {
    const int i = tile_block(0);
    tile_reg(float, t, TILE_N); /* 16 values a thread */
    tile_load(t, tile_array1(a + (size_t)i * TILE_N, TILE_N), 0);
    tile_sum(s, t);
    tile_store(tile_array1(out, tiles), s, i);
}
__global__ void __launch_bounds__(THREADS) cub_block_sum(const float *__restrict__ a, float *__restrict__ out) {
    typedef cub::BlockLoad<float, THREADS, IPT, cub::BLOCK_LOAD_VECTORIZE> Load;
    typedef cub::BlockReduce<float, THREADS> Reduce;
    __shared__ typename Load::TempStorage load_tmp;
    __shared__ typename Reduce::TempStorage red_tmp;
    float v[IPT];
    Load(load_tmp).Load(a + (size_t)blockIdx.x * TILE_N, v);
    const float s = Reduce(red_tmp).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

/* ---- Part B: sum of squares ---- */
TILE_KERNEL(sos_tile, THREADS, const double *x, double *out) {
    const int i = tile_block(0);
    tile_reg(double, t, TILE_N);
    tile_load(t, tile_array1(x + (size_t)i * TILE_N, TILE_N), 0);
    tile_mul(t, t, t);
    tile_sum(s, t);
    tile_atomic_add(tile_array1(out, 1), s, 0);
}
TILE_KERNEL(sos_seed, THREADS, const double *x, double *out) {
    const double v = x[tile_tid(0)];
    tile_from_values(t, v * v);
    tile_sum(s, t);
    tile_atomic_add(tile_array1(out, 1), s, 0);
}
TILE_KERNEL(sos_atomic, THREADS, const double *x, double *out) {
    const double v = x[tile_tid(0)];
    tile_atomic_add_ptr(out, v * v);
}
struct Square {
    __host__ __device__ double operator()(double v) const { return v * v; }
};

/* ---- inputs: non-zero pseudo-random values in [-0.25, 0.75) ---- */
__global__ void fill_f32(float *a, uint32_t n, uint32_t seed) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = tile_hash_unit(seed, i) - 0.25f;
}
__global__ void fill_f64(double *a, uint32_t n, uint32_t seed) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = (double)tile_hash_unit(seed, i) - 0.25;
}

/* ---- host helpers ---- */
/* per-tile sums against a reference, relative tolerance (NaN never passes) */
static long check_tiles(const char *what, const float *got, const double *ref, long n, double tol) {
    long bad = 0, worst = 0;
    double wrel = 0;
    for (long r = 0; r < n; ++r) {
        const double rel = fabs((double)got[r] - ref[r]) / fmax(fabs(ref[r]), 1e-30);
        if (!(rel <= tol)) {
            if (bad < 5) fprintf(stderr, "  %s: tile %ld: got %.9g, want %.9g (rel %.3g)\n", what, r, got[r], ref[r], rel);
            ++bad;
        }
        if (!(rel <= wrel)) {
            wrel = rel;
            worst = r;
        }
    }
    printf("check %-30s %ld tiles, max rel err %.3g (tile %ld), tol %.0e: %s\n", what, n, wrel, worst, tol,
           bad ? "FAIL" : "ok");
    return bad;
}
static long check_sum(const char *what, double got, long double ref, double tol) {
    const double rel = (double)(fabsl((long double)got - ref) / ref);
    const bool ok = rel <= tol;
    printf("check %-30s %.17g vs host %.17Lg, rel err %.3g, tol %.0e: %s\n", what, got, ref, rel, tol,
           ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}

static int run(const Opts &o) {
    /* Part A sizes */
    const long tiles = o.small ? (1L << 12) : (1L << 16); /* 64 MiB or 1 GiB of floats */
    const size_t na = (size_t)tiles * TILE_N;
    const size_t a_bytes = na * sizeof(float), out_bytes = (size_t)tiles * sizeof(float);
    /* Part B sizes: side x side doubles */
    const long side = o.small ? 4096 : 16384;
    const size_t nb = (size_t)side * side;
    const size_t b_bytes = nb * sizeof(double);
    const long btiles = (long)(nb / TILE_N);
    const uint32_t seed_a = 4242u, seed_b = 777u;
    const int iters_atomic = std::min(o.iters, o.small ? 10 : 3);

    BenchEnv env;
    if (bench_env(&env, "reduce_bench", o)) return 1;
    const cudaDeviceProp &prop = env.prop;
    const char *date = env.date, *commit = env.commit;
    printf("part A: %ld tiles x %d floats (%d threads x %d) = %.0f MiB in; part B: %ld x %ld f64 = %.0f MiB; "
           "%d warm-up, %d timed reps (atomics %d)\n",
           tiles, TILE_N, THREADS, IPT, a_bytes / 1048576.0, side, side, b_bytes / 1048576.0, o.warmup, o.iters,
           iters_atomic);

    float *d_a = nullptr, *d_tile = nullptr, *d_cub = nullptr;
    double *d_x = nullptr, *d_sum = nullptr; /* d_sum[0..3]: tile, seed, atomics, cub */
    void *d_tmp = nullptr;
    size_t tmp_bytes = 0;
    CK(cudaMalloc(&d_a, a_bytes));
    CK(cudaMalloc(&d_tile, out_bytes));
    CK(cudaMalloc(&d_cub, out_bytes));
    CK(cudaMalloc(&d_x, b_bytes));
    CK(cudaMalloc(&d_sum, 4 * sizeof(double)));
    CK(cub::DeviceReduce::TransformReduce(nullptr, tmp_bytes, d_x, d_sum + 3, (int64_t)nb, cuda::std::plus<double>(),
                                          Square(), 0.0));
    CK(cudaMalloc(&d_tmp, tmp_bytes));
    fill_f32<<<prop.multiProcessorCount * 8, 256>>>(d_a, (uint32_t)na, seed_a);
    CK(cudaGetLastError());
    fill_f64<<<prop.multiProcessorCount * 8, 256>>>(d_x, (uint32_t)nb, seed_b);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    const tile_exec ex = TILE_GPU(env.dev);
    enum { V_TILE, V_CUB, V_SOS_TILE, V_SOS_SEED, V_SOS_CUB, V_SOS_ATOMIC, V };
    const char *names[V] = {"A tile block reduce", "A cub block reduce (peer)", "B sos tile",
                            "B sos seed form (diag)", "B sos cub DeviceReduce", "B sos atomics"};
    const double bytes[V] = {(double)(a_bytes + out_bytes), (double)(a_bytes + out_bytes), (double)b_bytes,
                             (double)b_bytes, (double)b_bytes, (double)b_bytes};
    auto launch = [&](int v) -> int {
        switch (v) {
        case V_TILE:
            TK(tile_launch(ex, tile_block_sum, tile_grid1(tiles), THREADS, (const float *)d_a, d_tile, (int64_t)tiles));
            break;
        case V_CUB:
            cub_block_sum<<<(unsigned)tiles, THREADS>>>(d_a, d_cub);
            CK(cudaGetLastError());
            break;
        case V_SOS_TILE:
            CK(cudaMemsetAsync(d_sum + 0, 0, sizeof(double), 0));
            TK(tile_launch(ex, sos_tile, tile_grid1(btiles), THREADS, (const double *)d_x, d_sum + 0));
            break;
        case V_SOS_SEED:
            CK(cudaMemsetAsync(d_sum + 1, 0, sizeof(double), 0));
            TK(tile_launch_simt(ex, sos_seed, tile_grid1((int64_t)nb), THREADS, (const double *)d_x, d_sum + 1));
            break;
        case V_SOS_CUB:
            CK(cub::DeviceReduce::TransformReduce(d_tmp, tmp_bytes, d_x, d_sum + 3, (int64_t)nb,
                                                  cuda::std::plus<double>(), Square(), 0.0));
            break;
        default:
            CK(cudaMemsetAsync(d_sum + 2, 0, sizeof(double), 0));
            TK(tile_launch_simt(ex, sos_atomic, tile_grid1((int64_t)nb), THREADS, (const double *)d_x, d_sum + 2));
            break;
        }
        return 0;
    };

    /* warm-up: the atomics (slow) once */
    if (run_rounds(ex, V, o.warmup, [&](int v, int w) { return (v != V_SOS_ATOMIC || w == 0) && launch(v); }))
        return 1;

    /* ---- correctness: poison, one run each, check ---- */
    CK(cudaMemset(d_tile, 0xff, out_bytes));
    CK(cudaMemset(d_cub, 0xff, out_bytes));
    CK(cudaMemset(d_sum, 0xff, 4 * sizeof(double)));
    if (run_rounds(ex, V, 1, [&](int v, int) { return launch(v); })) return 1;

    long bad = 0;
    std::vector<float> h_tile(tiles), h_cub(tiles);
    double h_sum[4];
    long double ref_b = 0;
    {
        std::vector<float> h_a(na);
        std::vector<double> ref(tiles);
        CK(cudaMemcpy(h_a.data(), d_a, a_bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h_tile.data(), d_tile, out_bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h_cub.data(), d_cub, out_bytes, cudaMemcpyDeviceToHost));
        long zeros = 0, hash_bad = 0;
        for (long r = 0; r < tiles; ++r) {
            double acc = 0;
            const float *p = &h_a[(size_t)r * TILE_N];
            for (int j = 0; j < TILE_N; ++j) acc += (double)p[j], zeros += p[j] == 0.0f;
            ref[r] = acc;
        }
        for (size_t i = 0; i < na; i += 4093) hash_bad += h_a[i] != tile_hash_unit(seed_a, (uint32_t)i) - 0.25f;
        const bool in_ok = !hash_bad && zeros <= (long)(na / 1000000 + 16);
        printf("check %-30s %zu values, %ld zeros, %ld sampled differ from the host hash: %s\n", "part A input", na,
               zeros, hash_bad, in_ok ? "ok" : "FAIL");
        bad += !in_ok;
        bad += check_tiles("A tile vs double ref", h_tile.data(), ref.data(), tiles, 1e-5);
        bad += check_tiles("A cub vs double ref", h_cub.data(), ref.data(), tiles, 1e-5);
        std::vector<double> cubd(h_cub.begin(), h_cub.end());
        bad += check_tiles("A tile vs cub", h_tile.data(), cubd.data(), tiles, 1e-5);
    }
    {
        std::vector<double> h_x(nb);
        CK(cudaMemcpy(h_x.data(), d_x, b_bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h_sum, d_sum, sizeof(h_sum), cudaMemcpyDeviceToHost));
        long zeros = 0, hash_bad = 0;
        for (size_t i = 0; i < nb; ++i) ref_b += (long double)h_x[i] * h_x[i], zeros += h_x[i] == 0.0;
        for (size_t i = 0; i < nb; i += 4093) hash_bad += h_x[i] != (double)tile_hash_unit(seed_b, (uint32_t)i) - 0.25;
        const bool in_ok = !hash_bad && zeros <= (long)(nb / 1000000 + 16);
        printf("check %-30s %zu values, %ld zeros, %ld sampled differ from the host hash: %s\n", "part B input", nb,
               zeros, hash_bad, in_ok ? "ok" : "FAIL");
        bad += !in_ok;
        bad += check_sum("B sos tile", h_sum[0], ref_b, 1e-10);
        bad += check_sum("B sos seed form", h_sum[1], ref_b, 1e-10);
        bad += check_sum("B sos atomics", h_sum[2], ref_b, 1e-8);
        bad += check_sum("B sos cub", h_sum[3], ref_b, 1e-10);
    }

    /* ---- timing: variants interleaved, one event pair around each launch;
     * the atomics (slow) on their own afterwards, fewer repetitions ---- */
    std::vector<float> ms[V];
    if (time_interleaved(ex, V - 1, o.iters, ms, [&](int v, int) { return launch(v); }) ||
        time_interleaved(ex, 1, iters_atomic, &ms[V_SOS_ATOMIC], [&](int, int) { return launch(V_SOS_ATOMIC); }))
        return 1;

    /* the timed runs' results: part A bit for bit, part B within tolerance */
    {
        std::vector<float> t2(tiles), c2(tiles);
        double s2[4];
        CK(cudaMemcpy(t2.data(), d_tile, out_bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(c2.data(), d_cub, out_bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(s2, d_sum, sizeof(s2), cudaMemcpyDeviceToHost));
        const bool same = !memcmp(t2.data(), h_tile.data(), out_bytes) && !memcmp(c2.data(), h_cub.data(), out_bytes);
        printf("check %-30s %s\n", "A repeat runs identical", same ? "ok" : "FAIL");
        bad += !same;
        bad += check_sum("B sos tile (timed runs)", s2[0], ref_b, 1e-10);
        bad += check_sum("B sos seed form (timed runs)", s2[1], ref_b, 1e-10);
        bad += check_sum("B sos atomics (timed runs)", s2[2], ref_b, 1e-8);
        bad += check_sum("B sos cub (timed runs)", s2[3], ref_b, 1e-10);
    }

    Stat st[V];
    double gbs[V];
    for (int v = 0; v < V; ++v) {
        st[v] = stats(ms[v]);
        gbs[v] = gbps(bytes[v], st[v].median);
    }
    const double r_block = st[V_CUB].median / st[V_TILE].median;          /* >= 0.95 */
    const double r_sos = st[V_SOS_TILE].median / st[V_SOS_CUB].median;    /* <= 1.15 */
    const double r_atomic = st[V_SOS_ATOMIC].median / st[V_SOS_TILE].median; /* >= 200 */
    const double r_seed_cub = st[V_SOS_SEED].median / st[V_SOS_CUB].median;
    const double r_seed_atomic = st[V_SOS_ATOMIC].median / st[V_SOS_SEED].median;

    printf("\n%-28s %10s %10s %10s %9s %6s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "reps");
    for (int v = 0; v < V; ++v)
        printf("%-28s %10.4f %10.4f %10.4f %9.1f %6zu\n", names[v], st[v].median, st[v].min, st[v].max, gbs[v],
               ms[v].size());
    printf("(GB/s: bytes read (+ written) / median time, 1e9 B/s)\n");
    printf("diag: seed form / DeviceReduce time ratio = %.2f; seed form speedup over atomics = %.0f\n", r_seed_cub,
           r_seed_atomic);
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    const bool p_block = print_target("tile reduce / CUB", r_block, ">=", 0.95);
    const bool p_sos = print_target("sum of squares tile / DeviceReduce time ratio", r_sos, "<=", 1.15);
    const bool p_atomic = print_target("speedup over atomics", r_atomic, ">=", 200, 0);

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,bytes,iters,median_ms,min_ms,max_ms,gbps,metric,value,correct,target\n");
        for (int v = 0; v < V; ++v) {
            const char *metric = v == V_TILE         ? "tile reduce / CUB (>= 0.95)"
                                 : v == V_SOS_TILE   ? "sos tile / DeviceReduce (<= 1.15)"
                                 : v == V_SOS_ATOMIC ? "speedup over atomics (>= 200)"
                                 : v == V_SOS_SEED   ? "seed form / DeviceReduce (diag)"
                                                     : "";
            const double value = v == V_TILE ? r_block : v == V_SOS_TILE ? r_sos : v == V_SOS_ATOMIC ? r_atomic
                                 : v == V_SOS_SEED ? r_seed_cub : 0.0;
            const char *target = v == V_TILE ? (p_block ? "PASS" : "FAIL")
                                 : v == V_SOS_TILE ? (p_sos ? "PASS" : "FAIL")
                                 : v == V_SOS_ATOMIC ? (p_atomic ? "PASS" : "FAIL") : "";
            fprintf(f, "%s,%s,\"%s\",%s,%.0f,%zu,%.5f,%.5f,%.5f,%.2f,%s,%.4f,%s,%s\n", date, commit, prop.name,
                    names[v], bytes[v], ms[v].size(), st[v].median, st[v].min, st[v].max, gbs[v], metric, value,
                    bad ? "FAIL" : "PASS", target);
        }
        if (csv_close(f, o.csv)) return 1;
    }

    CK(cudaFree(d_a));
    CK(cudaFree(d_tile));
    CK(cudaFree(d_cub));
    CK(cudaFree(d_x));
    CK(cudaFree(d_sum));
    CK(cudaFree(d_tmp));
    if (bad) return 1;
    if (o.strict && !(p_block && p_sos && p_atomic)) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 30, 3); }
