/* bench/select_bench.cu - tile.h's select.h against the CUB block primitives a
 * CUB user would pick, in the same run on the same GPU:
 *   partition  tile_partition_if (x > 0, stable, kept count per tile) vs
 *              BlockLoad + BlockScan::ExclusiveSum of the flags + a scatter
 *              through shared memory + a striped store (CUB has no block
 *              select: this is how one builds it from CUB's parts)
 *   heads      tile_flag_heads (i32) vs BlockDiscontinuity::FlagHeads
 *   difference tile_adjacent_difference (f32) vs
 *              BlockAdjacentDifference::SubtractLeft
 * heads and difference run with tile_exec_max_resident(ex, 3) (see
 * HEADS_CAP), and also as the default launch, with caps of 4 and 6, and as
 * candidates with TILE_NEIGHBOR_SHFL 0 (the
 * whole tile staged through shared memory in place of the warp shuffles),
 * and on shared 16 x 256 tiles (2 dims: 16-byte vector loads and stores,
 * neighbours read in place), printed against the same CUB peer with no
 * target.
 * One tile of 256 threads x 16 items per block, 2^14 tiles (256 MiB in,
 * 256 MiB out; --small: 2^10 tiles), loads and stores with
 * BLOCK_LOAD/STORE_WARP_TRANSPOSE on the CUB side. Every output of every
 * variant is checked against a host loop in the same run (exact: the
 * inputs are k/64 floats and small integers), and the timed runs must
 * reproduce the checked bits.
 *
 *   select_bench [--small] [--iters N] [--warmup N] [--csv PATH] [--commit SHA] [--strict]
 *
 * Prints a table (median/min/max ms, GB/s of bytes read + written, ratio vs
 * the CUB peer and vs cudaMemcpy) and one target line per operation,
 * "tile <op> / CUB = X.XX (target >= 1.00): PASS|FAIL".
 * Exit: 0 ok (also with no GPU); 1 a CUDA error or a wrong result; 2 bad
 * arguments; 3 a target missed under --strict.
 */
#include <tile.h>
#include <tile/select.h> /* until tile.h includes it */
#include <cub/cub.cuh>

#include <cmath>
#include "bench_util.h"

#define THREADS 256
#define IPT 16
#define TILE_N (THREADS * IPT)

/* ---- the kernels under test ---- */
TILE_FUNC int is_pos(float x) { return x > 0.0f; }
TILE_KERNEL(part_tile, THREADS, const float *a, float *b, int *cnt) {
    const size_t off = (size_t)tile_block(0) * TILE_N;
    tile_reg(float, t, TILE_N);
    tile_load(t, tile_array1(a + off, TILE_N), 0);
    int n;
    tile_partition_if(t, t, is_pos, n);
    tile_store(tile_array1(b + off, TILE_N), t, 0);
    if (tile_thread() == 0) cnt[tile_block(0)] = n;
}
TILE_KERNEL(heads_tile, THREADS, const int *a, int *b) {
    const size_t off = (size_t)tile_block(0) * TILE_N;
    tile_reg(int, t, TILE_N);
    tile_reg(int, f, TILE_N);
    tile_load(t, tile_array1(a + off, TILE_N), 0);
    tile_flag_heads(f, t);
    tile_store(tile_array1(b + off, TILE_N), f, 0);
}
TILE_KERNEL(diff_tile, THREADS, const float *a, float *b) {
    const size_t off = (size_t)tile_block(0) * TILE_N;
    tile_reg(float, t, TILE_N);
    tile_load(t, tile_array1(a + off, TILE_N), 0);
    tile_adjacent_difference(t, t);
    tile_store(tile_array1(b + off, TILE_N), t, 0);
}
/* candidates: the same kernels with the whole tile staged through shared
 * memory for the neighbours (select.h reads TILE_NEIGHBOR_SHFL where an
 * operation is expanded; the default, 1, is the warp-shuffle path above) */
#undef TILE_NEIGHBOR_SHFL
#define TILE_NEIGHBOR_SHFL 0
TILE_KERNEL(heads_tile_stg, THREADS, const int *a, int *b) {
    const size_t off = (size_t)tile_block(0) * TILE_N;
    tile_reg(int, t, TILE_N);
    tile_reg(int, f, TILE_N);
    tile_load(t, tile_array1(a + off, TILE_N), 0);
    tile_flag_heads(f, t);
    tile_store(tile_array1(b + off, TILE_N), f, 0);
}
TILE_KERNEL(diff_tile_stg, THREADS, const float *a, float *b) {
    const size_t off = (size_t)tile_block(0) * TILE_N;
    tile_reg(float, t, TILE_N);
    tile_load(t, tile_array1(a + off, TILE_N), 0);
    tile_adjacent_difference(t, t);
    tile_store(tile_array1(b + off, TILE_N), t, 0);
}
#undef TILE_NEIGHBOR_SHFL
#define TILE_NEIGHBOR_SHFL 1
/* candidates: shared tiles of 16 x 256 (2 dims, so loads and stores take the
 * 16-byte vector tier), neighbours read in place in shared memory */
TILE_KERNEL_SMEM(heads_tile_sh, THREADS, 2 * TILE_SMEM_BYTES(int, IPT, THREADS), const int *a, int *b) {
    const size_t off = (size_t)tile_block(0) * TILE_N;
    tile_shared(int, t, IPT, THREADS);
    tile_shared(int, f, IPT, THREADS);
    tile_load(t, tile_array2(a + off, IPT, THREADS), 0, 0);
    tile_flag_heads(f, t);
    tile_store(tile_array2(b + off, IPT, THREADS), f, 0, 0);
}
TILE_KERNEL_SMEM(diff_tile_sh, THREADS, TILE_SMEM_BYTES(float, IPT, THREADS), const float *a, float *b) {
    const size_t off = (size_t)tile_block(0) * TILE_N;
    tile_shared(float, t, IPT, THREADS);
    tile_load(t, tile_array2(a + off, IPT, THREADS), 0, 0);
    tile_adjacent_difference(t, t);
    tile_store(tile_array2(b + off, IPT, THREADS), t, 0, 0);
}

/* ---- the CUB peers ---- */
struct NotEqual {
    __device__ __forceinline__ bool operator()(const int &a, const int &b) const { return a != b; }
};
struct Minus {
    __device__ __forceinline__ float operator()(const float &a, const float &b) const { return a - b; }
};
__global__ void __launch_bounds__(THREADS) part_cub(const float *__restrict__ a, float *__restrict__ b,
                                                    int *__restrict__ cnt) {
    typedef cub::BlockLoad<float, THREADS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockScan<int, THREADS> Scan;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        float stage[TILE_N];
    } tmp;
    const size_t off = (size_t)blockIdx.x * TILE_N;
    float v[IPT];
    int f[IPT], pos[IPT], total;
    Load(tmp.load).Load(a + off, v);
#pragma unroll
    for (int i = 0; i < IPT; ++i) f[i] = v[i] > 0.0f;
    __syncthreads();
    Scan(tmp.scan).ExclusiveSum(f, pos, total);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
        const int idx = threadIdx.x * IPT + i; /* blocked: input order */
        tmp.stage[f[i] ? pos[i] : total + idx - pos[i]] = v[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < IPT; ++i) b[off + threadIdx.x + i * THREADS] = tmp.stage[threadIdx.x + i * THREADS];
    if (threadIdx.x == 0) cnt[blockIdx.x] = total;
}
__global__ void __launch_bounds__(THREADS) heads_cub(const int *__restrict__ a, int *__restrict__ b) {
    typedef cub::BlockLoad<int, THREADS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockDiscontinuity<int, THREADS> Disc;
    typedef cub::BlockStore<int, THREADS, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
    __shared__ union {
        typename Load::TempStorage load;
        typename Disc::TempStorage disc;
        typename Store::TempStorage store;
    } tmp;
    const size_t off = (size_t)blockIdx.x * TILE_N;
    int v[IPT], f[IPT];
    Load(tmp.load).Load(a + off, v);
    __syncthreads();
    Disc(tmp.disc).FlagHeads(f, v, NotEqual());
    __syncthreads();
    Store(tmp.store).Store(b + off, f);
}
__global__ void __launch_bounds__(THREADS) diff_cub(const float *__restrict__ a, float *__restrict__ b) {
    typedef cub::BlockLoad<float, THREADS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockAdjacentDifference<float, THREADS> Diff;
    typedef cub::BlockStore<float, THREADS, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
    __shared__ union {
        typename Load::TempStorage load;
        typename Diff::TempStorage diff;
        typename Store::TempStorage store;
    } tmp;
    const size_t off = (size_t)blockIdx.x * TILE_N;
    float v[IPT], d[IPT];
    Load(tmp.load).Load(a + off, v);
    __syncthreads();
    Diff(tmp.diff).SubtractLeft(v, d, Minus());
    __syncthreads();
    Store(tmp.store).Store(b + off, d);
}

/* ---- inputs: floats +-k/64 (k in 1..127), ints in runs (0..3, runs of 3) ---- */
__host__ __device__ static inline float fval(uint32_t seed, uint32_t i) {
    const uint32_t h = tile_hash32(seed, i);
    const float m = (float)(1 + (int)(h % 127u)) * (1.0f / 64.0f);
    return (h >> 31) ? -m : m;
}
__host__ __device__ static inline int ival(uint32_t seed, uint32_t i) { return (int)(tile_hash32(seed, i / 3u) % 4u); }
__global__ void fill_inputs(float *f, int *k, uint32_t n, uint32_t seed) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        f[i] = fval(seed, i);
        k[i] = ival(seed, i);
    }
}

/* FNV-1a over 32-bit words */
static uint64_t hash_words(const void *p, size_t n) {
    const uint32_t *w = (const uint32_t *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ w[i]) * 1099511628211ull;
    return h;
}

enum {
    V_PART_TILE, V_PART_CUB, V_HEADS_TILE, V_HEADS_CUB, V_DIFF_TILE, V_DIFF_CUB, V_COPY, V_HEADS_STG, V_DIFF_STG,
    V_HEADS_SH, V_DIFF_SH, V_HEADS_DEF, V_DIFF_DEF, V_HEADS_R6, V_DIFF_R6, V_PART_R3, V_PART_R2, V_HEADS_R4,
    V_DIFF_R4, V
};
static const char *const names[V] = {"tile partition_if", "cub scan+scatter partition", "tile flag_heads",
                                     "cub BlockDiscontinuity", "tile adjacent_difference",
                                     "cub BlockAdjacentDifference", "cudaMemcpy d2d",
                                     "tile flag_heads staged (cand)", "tile adj_diff staged (cand)",
                                     "tile flag_heads shared (cand)", "tile adj_diff shared (cand)",
                                     "tile flag_heads default launch",
                                     "tile adj_diff default launch", "tile flag_heads max 6/SM (cand)",
                                     "tile adj_diff max 6/SM (cand)", "tile partition max 3/SM (cand)",
                                     "tile partition max 2/SM (cand)", "tile flag_heads max 4/SM (cand)",
                                     "tile adj_diff max 4/SM (cand)"};
/* the operation of a variant: 0 partition, 1 flag_heads, 2 adjacent_difference, 3 the copy */
static int op_of(int v) {
    switch (v) {
    case V_PART_TILE: case V_PART_CUB: case V_PART_R3: case V_PART_R2: return 0;
    case V_HEADS_TILE: case V_HEADS_CUB: case V_HEADS_STG: case V_HEADS_SH: case V_HEADS_DEF: case V_HEADS_R6:
    case V_HEADS_R4: return 1;
    case V_COPY: return 3;
    default: return 2;
    }
}
/* flag_heads and adjacent_difference are launched with
 * tile_exec_max_resident(ex, 3) (HEADS_CAP): at most 3 blocks an SM. Their
 * kernels are lean (32 registers, 512 bytes of shared memory), so 8 of 256
 * threads fit an SM; fewer streams an SM drain the batch faster: measured
 * at 689621c (H100), 0.986 / 0.987 of CUB at 8 an SM, 0.997 / 0.998 at 6,
 * 1.003 / 0.999 at 4, 0.92-0.94 with the persistent schedule
 * (bench/results/2026-11-25-h100-select-wgmma-689621c-bench.txt); at
 * a88a011 (H200) 0.983 / 0.977 at 8, 0.993 / 0.986 at 6, 0.994 / 0.987 at
 * 5, 1.000 / 0.996 at 4, 1.023 / 1.021 at 3
 * (bench/results/2026-11-29-h200-select-rowsum-a88a011-bench.txt).
 * The default launch (8 an SM) and caps of 4 and 6 are printed beside them. */
#define HEADS_CAP 3
/* tile_exec_max_resident of a variant's launch (0: the default launch) */
static int cap_of(int v) {
    switch (v) {
    case V_HEADS_TILE: case V_DIFF_TILE: return HEADS_CAP;
    case V_HEADS_R6: case V_DIFF_R6: return 6;
    case V_HEADS_R4: case V_DIFF_R4: return 4;
    case V_PART_R3: return 3;
    case V_PART_R2: return 2;
    default: return 0;
    }
}
/* the CUB variant of the same operation (memcpy: itself) */
static int peer_of(int v) {
    static const int peer[4] = {V_PART_CUB, V_HEADS_CUB, V_DIFF_CUB, V_COPY};
    return peer[op_of(v)];
}

/* host references, every element; returns the number of wrong outputs */
static long check(int v, const void *out, const int *cnt, const float *fin, const int *iin, size_t n) {
    long bad = 0;
    std::vector<float> tmp(TILE_N);
    for (size_t t0 = 0; t0 < n; t0 += TILE_N) {
        if (v == V_COPY) {
            bad += memcmp((const float *)out + t0, fin + t0, sizeof(float) * TILE_N) != 0;
        } else if (op_of(v) == 0) {
            int k = 0;
            for (size_t i = t0; i < t0 + TILE_N; ++i)
                if (fin[i] > 0) tmp[k++] = fin[i];
            const int kept = k;
            for (size_t i = t0; i < t0 + TILE_N; ++i)
                if (!(fin[i] > 0)) tmp[k++] = fin[i];
            bad += cnt[t0 / TILE_N] != kept;
            bad += memcmp(tmp.data(), (const float *)out + t0, sizeof(float) * TILE_N) != 0;
        } else if (op_of(v) == 1) {
            for (size_t i = t0; i < t0 + TILE_N; ++i)
                bad += ((const int *)out)[i] != (i == t0 || iin[i] != iin[i - 1] ? 1 : 0);
        } else {
            for (size_t i = t0; i < t0 + TILE_N; ++i)
                bad += ((const float *)out)[i] != (i == t0 ? fin[i] : fin[i] - fin[i - 1]);
        }
    }
    printf("check %-30s %zu values vs host loops: %s", names[v], n, bad ? "FAIL" : "ok");
    if (bad) printf(" (%ld wrong)", bad);
    printf("\n");
    return bad;
}

static int run(const Opts &o) {
    const long tiles = o.small ? (1L << 10) : (1L << 14);
    const size_t n = (size_t)tiles * TILE_N, bytes = n * 4;
    const double moved = 2.0 * (double)bytes;
    const uint32_t seed = 20261125u;

    BenchEnv env;
    if (bench_env(&env, "select_bench", o)) return 1;
    const cudaDeviceProp &prop = env.prop;
    printf("size: %ld tiles x %d elements (%d threads x %d) = %.0f MiB in, %.0f MiB out; %d warm-up, %d timed reps each\n",
           tiles, TILE_N, THREADS, IPT, bytes / 1048576.0, bytes / 1048576.0, o.warmup, o.iters);

    float *d_f = nullptr;
    int *d_i = nullptr;
    void *d_out[V] = {nullptr};
    int *d_cnt[V] = {nullptr}; /* the partition variants' kept counts, one array each */
    CK(cudaMalloc(&d_f, bytes));
    CK(cudaMalloc(&d_i, bytes));
    for (int v = 0; v < V; ++v) CK(cudaMalloc(&d_out[v], bytes));
    for (int v = 0; v < V; ++v)
        if (op_of(v) == 0) CK(cudaMalloc(&d_cnt[v], sizeof(int) * tiles));
    fill_inputs<<<prop.multiProcessorCount * 8, 256>>>(d_f, d_i, (uint32_t)n, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    const tile_exec ex = TILE_GPU(env.dev);
    const unsigned nb = (unsigned)tiles;
    auto launch = [&](int v) -> int {
        switch (v) {
        case V_PART_TILE:
        case V_PART_R3:
        case V_PART_R2:
            TK(tile_launch(tile_exec_max_resident(ex, cap_of(v)), part_tile, tile_grid1(tiles), THREADS,
                           (const float *)d_f, (float *)d_out[v], d_cnt[v]));
            break;
        case V_PART_CUB:
            part_cub<<<nb, THREADS>>>(d_f, (float *)d_out[v], d_cnt[v]);
            CK(cudaGetLastError());
            break;
        case V_HEADS_CUB:
            heads_cub<<<nb, THREADS>>>(d_i, (int *)d_out[v]);
            CK(cudaGetLastError());
            break;
        case V_DIFF_CUB:
            diff_cub<<<nb, THREADS>>>(d_f, (float *)d_out[v]);
            CK(cudaGetLastError());
            break;
        case V_HEADS_STG:
            TK(tile_launch(ex, heads_tile_stg, tile_grid1(tiles), THREADS, (const int *)d_i, (int *)d_out[v]));
            break;
        case V_DIFF_STG:
            TK(tile_launch(ex, diff_tile_stg, tile_grid1(tiles), THREADS, (const float *)d_f, (float *)d_out[v]));
            break;
        case V_HEADS_SH:
            TK(tile_launch(ex, heads_tile_sh, tile_grid1(tiles), THREADS, (const int *)d_i, (int *)d_out[v]));
            break;
        case V_DIFF_SH:
            TK(tile_launch(ex, diff_tile_sh, tile_grid1(tiles), THREADS, (const float *)d_f, (float *)d_out[v]));
            break;
        case V_HEADS_TILE:
        case V_HEADS_DEF:
        case V_HEADS_R6:
        case V_HEADS_R4:
            TK(tile_launch(tile_exec_max_resident(ex, cap_of(v)), heads_tile, tile_grid1(tiles), THREADS,
                           (const int *)d_i, (int *)d_out[v]));
            break;
        case V_DIFF_TILE:
        case V_DIFF_DEF:
        case V_DIFF_R6:
        case V_DIFF_R4:
            TK(tile_launch(tile_exec_max_resident(ex, cap_of(v)), diff_tile, tile_grid1(tiles), THREADS,
                           (const float *)d_f, (float *)d_out[v]));
            break;
        case V_COPY:
            CK(cudaMemcpyAsync(d_out[V_COPY], d_f, bytes, cudaMemcpyDeviceToDevice, 0));
            break;
        }
        return 0;
    };

    if (run_rounds(ex, V, o.warmup, [&](int v, int) { return launch(v); })) return 1;

    /* ---- correctness: poison, one run each, check every element ---- */
    for (int v = 0; v < V; ++v) CK(cudaMemset(d_out[v], 0xff, bytes));
    for (int v = 0; v < V; ++v)
        if (d_cnt[v]) CK(cudaMemset(d_cnt[v], 0xff, sizeof(int) * tiles));
    if (run_rounds(ex, V, 1, [&](int v, int) { return launch(v); })) return 1;
    std::vector<float> h_f(n), h_out(n);
    std::vector<int> h_i(n), h_cnt(tiles);
    CK(cudaMemcpy(h_f.data(), d_f, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_i.data(), d_i, bytes, cudaMemcpyDeviceToHost));
    long bad = 0, in_bad = 0, pos = 0, heads = 0;
    for (size_t i = 0; i < n; i += 4093) in_bad += h_f[i] != fval(seed, (uint32_t)i) || h_i[i] != ival(seed, (uint32_t)i);
    for (size_t i = 0; i < n; ++i) pos += h_f[i] > 0, heads += i % TILE_N == 0 || h_i[i] != h_i[i - 1];
    printf("check %-30s %ld of %zu sampled differ from the host hash; %.1f%% positive, %.1f%% heads: %s\n", "inputs",
           in_bad, (n + 4092) / 4093, 100.0 * pos / n, 100.0 * heads / n,
           in_bad || pos < (long)n / 3 || heads < (long)n / 5 ? "FAIL" : "ok");
    bad += in_bad || pos < (long)n / 3 || heads < (long)n / 5;
    uint64_t h_checked[V];
    for (int v = 0; v < V; ++v) {
        CK(cudaMemcpy(h_out.data(), d_out[v], bytes, cudaMemcpyDeviceToHost));
        if (d_cnt[v]) CK(cudaMemcpy(h_cnt.data(), d_cnt[v], sizeof(int) * tiles, cudaMemcpyDeviceToHost));
        h_checked[v] = hash_words(h_out.data(), n);
        bad += check(v, h_out.data(), h_cnt.data(), h_f.data(), h_i.data(), n);
    }

    /* ---- timing ---- */
    std::vector<float> ms[V];
    if (time_interleaved(ex, V, o.iters, ms, [&](int v, int) { return launch(v); })) return 1;
    {
        bool same = true;
        for (int v = 0; v < V; ++v) {
            CK(cudaMemcpy(h_out.data(), d_out[v], bytes, cudaMemcpyDeviceToHost));
            same = same && hash_words(h_out.data(), n) == h_checked[v];
        }
        printf("check %-30s %s\n", "repeat runs identical", same ? "ok" : "FAIL");
        bad += !same;
    }

    Stat st[V];
    double gbs[V];
    for (int v = 0; v < V; ++v) {
        st[v] = stats(ms[v]);
        gbs[v] = gbps(moved, st[v].median);
    }
    printf("\n%-30s %10s %10s %10s %9s %8s %10s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "vs_CUB",
           "vs_memcpy");
    for (int v = 0; v < V; ++v) {
        const int peer = peer_of(v);
        printf("%-30s %10.4f %10.4f %10.4f %9.1f %8.3f %10.3f\n", names[v], st[v].median, st[v].min, st[v].max, gbs[v],
               gbs[v] / gbs[peer], gbs[v] / gbs[V_COPY]);
    }
    printf("(GB/s: bytes read + written / median time, 1e9 B/s; each variant moves %.0f MiB; vs_CUB: against the CUB "
           "variant of the same operation)\n",
           moved / 1048576.0);
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    const bool p1 = print_target("tile partition / CUB", gbs[V_PART_TILE] / gbs[V_PART_CUB], ">=", 1.0);
    const bool p2 = print_target("tile flag_heads (max 3 blocks an SM) / CUB", gbs[V_HEADS_TILE] / gbs[V_HEADS_CUB], ">=", 1.0);
    const bool p3 =
        print_target("tile adjacent_difference (max 3 blocks an SM) / CUB", gbs[V_DIFF_TILE] / gbs[V_DIFF_CUB], ">=", 1.0);
    const bool pass = p1 && p2 && p3;
    printf("tile flag_heads staged / CUB = %.2f (no target: candidate, TILE_NEIGHBOR_SHFL 0)\n",
           gbs[V_HEADS_STG] / gbs[V_HEADS_CUB]);
    printf("tile adjacent_difference staged / CUB = %.2f (no target: candidate, TILE_NEIGHBOR_SHFL 0)\n",
           gbs[V_DIFF_STG] / gbs[V_DIFF_CUB]);
    printf("tile flag_heads shared / CUB = %.2f (no target: candidate, shared 16 x 256 tiles, vector tier)\n",
           gbs[V_HEADS_SH] / gbs[V_HEADS_CUB]);
    printf("tile adjacent_difference shared / CUB = %.2f (no target: candidate, shared 16 x 256 tile, vector tier)\n",
           gbs[V_DIFF_SH] / gbs[V_DIFF_CUB]);
    for (int v = V_HEADS_DEF; v < V; ++v) {
        printf("%s / CUB = %.3f (no target: ", names[v], gbs[v] / gbs[peer_of(v)]);
        if (cap_of(v)) printf("candidate, at most %d blocks an SM)\n", cap_of(v));
        else printf("the default launch, 8 blocks an SM)\n");
    }

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,tiles,tile_n,threads,bytes_moved,iters,median_ms,min_ms,max_ms,gbps,"
                   "ratio_vs_cub,ratio_vs_memcpy,correct\n");
        for (int v = 0; v < V; ++v) {
            const int peer = peer_of(v);
            fprintf(f, "%s,%s,\"%s\",%s,%ld,%d,%d,%.0f,%d,%.5f,%.5f,%.5f,%.2f,%.4f,%.4f,%s\n", env.date, env.commit,
                    prop.name, names[v], tiles, TILE_N, THREADS, moved, o.iters, st[v].median, st[v].min, st[v].max,
                    gbs[v], gbs[v] / gbs[peer], gbs[v] / gbs[V_COPY], bad ? "FAIL" : "PASS");
        }
        if (csv_close(f, o.csv)) return 1;
    }

    CK(cudaFree(d_f));
    CK(cudaFree(d_i));
    for (int v = 0; v < V; ++v) CK(cudaFree(d_out[v]));
    for (int v = 0; v < V; ++v) CK(cudaFree(d_cnt[v]));
    if (bad) return 1;
    if (o.strict && !pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run); }
