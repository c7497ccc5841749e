/* sort_bench - block radix sort of tiles: tile.h's tile_sort / tile_sort_pairs
 * next to CUB's BlockRadixSort.
 *
 * Kernels under test: one block of 256 threads per tile of 4096 f32 keys (16
 * per thread): tile_load of a register tile, tile_sort (keys) or
 * tile_sort_pairs with a register tile of u32 values, tile_store.
 * Peer (the same tile, the same run): cub::BlockLoad<BLOCK_LOAD_WARP_TRANSPOSE>
 * + cub::BlockRadixSort<float, 256, 16 [, uint32_t]>::SortBlockedToStriped +
 * cub::BlockStore<BLOCK_STORE_STRIPED> (CUB's own block-sort example), keys and
 * keys + values. Diagnostic: CUB keys with a striped load (BLOCK_LOAD_STRIPED,
 * no transpose: equal keys are indistinguishable, so the input order does not
 * matter for a keys-only sort; the same shortcut tile_sort takes), and
 * cudaMemcpy device-to-device of the keys as a bandwidth reference.
 *
 * Also, each next to its CUB peer on the same tiles: descending keys and pairs
 * (SortDescendingBlockedToStriped), keys by bits [16, 32) (begin/end bit),
 * and the merge sort by a comparator (tile_merge_sort, FLT_LESS) against
 * cub::BlockMergeSort<float, 256, 16 [, uint32_t]>::Sort with the same
 * comparator (blocked: BLOCK_LOAD/STORE_WARP_TRANSPOSE around it); the merge
 * sorts also under the other TILE_MERGE_SORT_PAD setting ("(ctl)" rows,
 * each with its own CUB run next to it: a control that shows what the
 * default's padding gains; its lines print the ratio, no target). Checked:
 * tile == CUB bit for bit (keys and values; both stable), and every 64th
 * tile against std::stable_sort of (order, index) (a sample: the bench stays
 * short).
 *
 * Bytes: 1 GiB of keys (2^28 f32 = 65536 tiles), read once and written once;
 * pairs also read and write 1 GiB of u32 values. GB/s = bytes moved / median
 * time.
 *
 * Input: keys m * 2^-23 for m = (hash >> 8) - 2^23, never 0 (m = 0 becomes 1):
 * both signs, in [-1, 1), a few equal keys per tile (stability matters);
 * values = the global index of the key. Computed on the device, a sample
 * recomputed on the host. (tile_sort orders -0.0 before +0.0 while CUB treats
 * them as equal keys; the input has no zeros, so both must agree bit for bit.)
 *
 * Checks (every tile of every variant, same run): keys sorted ascending by
 * bits; the same multiset as the input tile (two 64-bit checksums per tile);
 * tile keys == CUB keys == CUB striped-load keys bit for bit; pairs: keys ==
 * the keys-only result, every value a distinct index of the same tile whose
 * input key is the output key (a permutation, exactly), equal keys with
 * increasing indices (stable), and tile values == CUB values. Outputs are
 * poisoned before the checked run; the timed runs must reproduce them.
 *
 *   sort_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small]
 *              [--commit SHA] [--strict]
 *   --small: 64 MiB of keys instead of 1 GiB; --iters: timed reps (20)
 *   commit: --commit, else $GIT_COMMIT, else -DGIT_COMMIT=..., else "unknown"
 * Exit: 0 ok (also with no GPU: "no GPU: bench skipped"); 1 a CUDA error or a
 * wrong result; 2 bad arguments; 3 a target missed under --strict. Target
 * lines (tile/CUB >= 1.00, keys and pairs) are printed and written to the CSV.
 */
#include <tile.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#define THREADS 256
#define IPT 16
#define TILE_N (THREADS * IPT)

/* ---- the kernels under test ---- */
TILE_KERNEL(tile_sort_keys, THREADS, const float *in, float *out) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N); /* 16 keys per thread, striped */
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_sort(k);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
}
TILE_KERNEL(tile_sort_kv, THREADS, const float *in, const uint32_t *vin, float *out, uint32_t *vout) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N);
    tile_reg(uint32_t, v, TILE_N);
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_load(v, tile_array1(vin + base, TILE_N), 0);
    tile_sort_pairs(k, v);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
    tile_store(tile_array1(vout + base, TILE_N), v, 0);
}

/* descending, bit range [16, 32) (the sign, exponent and top mantissa bits
 * of the ordered key), merge sort by a comparator: same tile, same layout */
#define BIT_LO 16
#define BIT_HI 32
TILE_KERNEL(tile_sort_desc_keys, THREADS, const float *in, float *out) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N);
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_sort_descending(k);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
}
TILE_KERNEL(tile_sort_desc_kv, THREADS, const float *in, const uint32_t *vin, float *out, uint32_t *vout) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N);
    tile_reg(uint32_t, v, TILE_N);
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_load(v, tile_array1(vin + base, TILE_N), 0);
    tile_sort_pairs_descending(k, v);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
    tile_store(tile_array1(vout + base, TILE_N), v, 0);
}
TILE_KERNEL(tile_sort_bits_keys, THREADS, const float *in, float *out) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N);
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_sort_bits(k, BIT_LO, BIT_HI);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
}
#define FLT_LESS(a, b) ((a) < (b))
TILE_KERNEL(tile_msort_keys, THREADS, const float *in, float *out) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N);
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_merge_sort(k, FLT_LESS);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
}
TILE_KERNEL(tile_msort_kv, THREADS, const float *in, const uint32_t *vin, float *out, uint32_t *vout) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N);
    tile_reg(uint32_t, v, TILE_N);
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_load(v, tile_array1(vin + base, TILE_N), 0);
    tile_merge_sort_pairs(k, v, FLT_LESS);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
    tile_store(tile_array1(vout + base, TILE_N), v, 0);
}
/* controls: the same two kernels under the other TILE_MERGE_SORT_PAD
 * setting (the merge sort reads it where it expands); PAD=1 measured 2.05 /
 * 1.45 of CUB against PAD=0's 1.46 / 0.95 at bea5b43 */
#if TILE_MERGE_SORT_PAD
#define MS_PAD_ALT 0
#else
#define MS_PAD_ALT 1
#endif
#undef TILE_MERGE_SORT_PAD
#define TILE_MERGE_SORT_PAD MS_PAD_ALT
TILE_KERNEL(tile_msort_keys_alt, THREADS, const float *in, float *out) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N);
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_merge_sort(k, FLT_LESS);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
}
TILE_KERNEL(tile_msort_kv_alt, THREADS, const float *in, const uint32_t *vin, float *out, uint32_t *vout) {
    const int64_t base = (int64_t)tile_block(0) * TILE_N;
    tile_reg(float, k, TILE_N);
    tile_reg(uint32_t, v, TILE_N);
    tile_load(k, tile_array1(in + base, TILE_N), 0);
    tile_load(v, tile_array1(vin + base, TILE_N), 0);
    tile_merge_sort_pairs(k, v, FLT_LESS);
    tile_store(tile_array1(out + base, TILE_N), k, 0);
    tile_store(tile_array1(vout + base, TILE_N), v, 0);
}
#undef TILE_MERGE_SORT_PAD
#define TILE_MERGE_SORT_PAD (1 - MS_PAD_ALT)

/* ---- the CUB peers ---- */
template <cub::BlockLoadAlgorithm LOAD>
__global__ void __launch_bounds__(THREADS) cub_sort_keys(const float *__restrict__ in, float *__restrict__ out) {
    typedef cub::BlockLoad<float, THREADS, IPT, LOAD> Load;
    typedef cub::BlockRadixSort<float, THREADS, IPT> Sort;
    typedef cub::BlockStore<float, THREADS, IPT, cub::BLOCK_STORE_STRIPED> Store;
    __shared__ union {
        typename Load::TempStorage load;
        typename Sort::TempStorage sort;
        typename Store::TempStorage store;
    } tmp;
    const size_t base = (size_t)blockIdx.x * TILE_N;
    float k[IPT];
    Load(tmp.load).Load(in + base, k);
    __syncthreads();
    Sort(tmp.sort).SortBlockedToStriped(k);
    Store(tmp.store).Store(out + base, k);
}
/* DESC: SortDescendingBlockedToStriped instead */
template <bool DESC>
__global__ void __launch_bounds__(THREADS) cub_sort_kv(const float *__restrict__ in, const uint32_t *__restrict__ vin,
                                                       float *__restrict__ out, uint32_t *__restrict__ vout) {
    typedef cub::BlockLoad<float, THREADS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadK;
    typedef cub::BlockLoad<uint32_t, THREADS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadV;
    typedef cub::BlockRadixSort<float, THREADS, IPT, uint32_t> Sort;
    typedef cub::BlockStore<float, THREADS, IPT, cub::BLOCK_STORE_STRIPED> StoreK;
    typedef cub::BlockStore<uint32_t, THREADS, IPT, cub::BLOCK_STORE_STRIPED> StoreV;
    __shared__ union {
        typename LoadK::TempStorage lk;
        typename LoadV::TempStorage lv;
        typename Sort::TempStorage sort;
        typename StoreK::TempStorage sk;
        typename StoreV::TempStorage sv;
    } tmp;
    const size_t base = (size_t)blockIdx.x * TILE_N;
    float k[IPT];
    uint32_t v[IPT];
    LoadK(tmp.lk).Load(in + base, k);
    __syncthreads();
    LoadV(tmp.lv).Load(vin + base, v);
    __syncthreads();
    if (DESC) Sort(tmp.sort).SortDescendingBlockedToStriped(k, v);
    else Sort(tmp.sort).SortBlockedToStriped(k, v);
    StoreK(tmp.sk).Store(out + base, k);
    StoreV(tmp.sv).Store(vout + base, v);
}

/* MODE 0: SortDescendingBlockedToStriped; 1: SortBlockedToStriped(16, 32) */
template <int MODE>
__global__ void __launch_bounds__(THREADS) cub_sort_keys_x(const float *__restrict__ in, float *__restrict__ out) {
    typedef cub::BlockLoad<float, THREADS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockRadixSort<float, THREADS, IPT> Sort;
    typedef cub::BlockStore<float, THREADS, IPT, cub::BLOCK_STORE_STRIPED> Store;
    __shared__ union {
        typename Load::TempStorage load;
        typename Sort::TempStorage sort;
        typename Store::TempStorage store;
    } tmp;
    const size_t base = (size_t)blockIdx.x * TILE_N;
    float k[IPT];
    Load(tmp.load).Load(in + base, k);
    __syncthreads();
    if (MODE == 0) Sort(tmp.sort).SortDescendingBlockedToStriped(k);
    else Sort(tmp.sort).SortBlockedToStriped(k, BIT_LO, BIT_HI);
    Store(tmp.store).Store(out + base, k);
}
struct FltLess {
    __device__ __forceinline__ bool operator()(const float &a, const float &b) const { return a < b; }
};
/* cub::BlockMergeSort: blocked in and out, so both transposes go through
 * BlockLoad/BlockStore WARP_TRANSPOSE (coalesced) */
template <bool PAIRS>
__global__ void __launch_bounds__(THREADS) cub_msort(const float *__restrict__ in, const uint32_t *__restrict__ vin,
                                                     float *__restrict__ out, uint32_t *__restrict__ vout) {
    typedef cub::BlockLoad<float, THREADS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadK;
    typedef cub::BlockLoad<uint32_t, THREADS, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE> LoadV;
    typedef cub::BlockMergeSort<float, THREADS, IPT, uint32_t> Sort;
    typedef cub::BlockStore<float, THREADS, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE> StoreK;
    typedef cub::BlockStore<uint32_t, THREADS, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE> StoreV;
    __shared__ union {
        typename LoadK::TempStorage lk;
        typename LoadV::TempStorage lv;
        typename Sort::TempStorage sort;
        typename StoreK::TempStorage sk;
        typename StoreV::TempStorage sv;
    } tmp;
    const size_t base = (size_t)blockIdx.x * TILE_N;
    float k[IPT];
    uint32_t v[IPT];
    LoadK(tmp.lk).Load(in + base, k);
    __syncthreads();
    if (PAIRS) {
        LoadV(tmp.lv).Load(vin + base, v);
        __syncthreads();
        Sort(tmp.sort).Sort(k, v, FltLess());
    } else {
        Sort(tmp.sort).Sort(k, FltLess());
    }
    __syncthreads();
    StoreK(tmp.sk).Store(out + base, k);
    if (PAIRS) {
        __syncthreads();
        StoreV(tmp.sv).Store(vout + base, v);
    }
}

/* ---- input ---- */
static __host__ __device__ float key_of(uint32_t seed, uint32_t i) {
    int32_t m = (int32_t)(tile_hash32(seed, i) >> 8) - (1 << 23);
    if (m == 0) m = 1;
    return (float)m * (1.0f / 8388608.0f);
}
__global__ void fill_input(float *a, uint32_t *v, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        a[i] = key_of(seed, (uint32_t)i);
        v[i] = (uint32_t)i;
    }
}

/* ---- host helpers ---- */
#include "bench_util.h"

/* the order of keys: their bits as ordered unsigned integers */
static uint32_t ord(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
/* per tile: sorted, and the same multiset as the input (sum and sum of
 * squares of a mixed key, mod 2^64) */
static long check_keys(const char *what, const float *in, const float *out, long tiles) {
    long bad = 0, unsorted = 0, perm = 0;
    for (long t = 0; t < tiles; ++t) {
        const float *a = in + (size_t)t * TILE_N, *b = out + (size_t)t * TILE_N;
        uint64_t s1 = 0, s2 = 0, q1 = 0, q2 = 0;
        int ok = 1;
        for (int i = 0; i < TILE_N; ++i) {
            uint64_t x = ord(a[i]) * 0x9e3779b97f4a7c15ull + 1, y = ord(b[i]) * 0x9e3779b97f4a7c15ull + 1;
            s1 += x;
            q1 += x * x;
            s2 += y;
            q2 += y * y;
            if (i && ord(b[i]) < ord(b[i - 1])) ok = 0;
        }
        if (!ok) ++unsorted;
        if (s1 != s2 || q1 != q2) ++perm;
        if ((!ok || s1 != s2 || q1 != q2) && bad++ < 5)
            fprintf(stderr, "  %s: tile %ld: %s\n", what, t, !ok ? "not sorted" : "not a permutation of the input");
    }
    printf("check %-28s %ld tiles: %ld unsorted, %ld not a permutation: %s\n", what, tiles, unsorted, perm,
           bad ? "FAIL" : "ok");
    return bad;
}
/* pairs: values are distinct indices of the tile, carry their keys, stable */
static long check_pairs(const char *what, const float *in, const float *out, const uint32_t *vout, long tiles) {
    long bad = 0;
    std::vector<unsigned char> seen(TILE_N);
    for (long t = 0; t < tiles; ++t) {
        const size_t base = (size_t)t * TILE_N;
        std::fill(seen.begin(), seen.end(), 0);
        int ok = 1;
        for (int i = 0; i < TILE_N && ok; ++i) {
            const uint32_t g = vout[base + i];
            if (g < base || g >= base + TILE_N || seen[g - base]) { ok = 0; break; }
            seen[g - base] = 1;
            if (memcmp(&in[g], &out[base + i], 4) != 0) ok = 0;
            if (i && ord(out[base + i]) == ord(out[base + i - 1]) && g < vout[base + i - 1]) ok = 0; /* stable */
        }
        if (!ok && bad++ < 5) fprintf(stderr, "  %s: tile %ld: values are not the stable permutation\n", what, t);
    }
    printf("check %-28s %ld tiles, values = stable permutation: %s\n", what, tiles, bad ? "FAIL" : "ok");
    return bad;
}
static long check_same(const char *what, const void *a, const void *b, size_t bytes) {
    const bool same = !memcmp(a, b, bytes);
    printf("check %-28s %s\n", what, same ? "ok" : "FAIL");
    return !same;
}

static int run(const Opts &o) {
    const long tiles = o.small ? (1L << 12) : (1L << 16); /* 64 MiB or 1 GiB of keys */
    const size_t n = (size_t)tiles * TILE_N, kb = n * sizeof(float), vb = n * sizeof(uint32_t);
    const uint32_t seed = 2027u;

    BenchEnv env;
    if (bench_env(&env, "sort_bench", o)) return 1;
    const cudaDeviceProp &prop = env.prop;
    const int dev = env.dev;
    const char *date = env.date, *commit = env.commit;
    printf("size: %ld tiles x %d f32 keys (%d threads x %d) = %.0f MiB of keys (+ %.0f MiB of u32 values for "
           "pairs); %d warm-up, %d timed reps each\n",
           tiles, TILE_N, THREADS, IPT, kb / 1048576.0, vb / 1048576.0, o.warmup, o.iters);
    printf("merge sort: rows 'tile merge ...' with TILE_MERGE_SORT_PAD=%d (the default), rows '... (ctl)' with %d\n",
           1 - MS_PAD_ALT, MS_PAD_ALT);

    float *d_in, *d_tk, *d_ck, *d_cs, *d_tpk, *d_cpk, *d_copy;
    uint32_t *d_vin, *d_tpv, *d_cpv;
    CK(cudaMalloc(&d_in, kb));
    CK(cudaMalloc(&d_vin, vb));
    CK(cudaMalloc(&d_tk, kb));
    CK(cudaMalloc(&d_ck, kb));
    CK(cudaMalloc(&d_cs, kb));
    CK(cudaMalloc(&d_tpk, kb));
    CK(cudaMalloc(&d_cpk, kb));
    CK(cudaMalloc(&d_tpv, vb));
    CK(cudaMalloc(&d_cpv, vb));
    CK(cudaMalloc(&d_copy, kb));
    /* outputs of the descending / bit-range / merge variants (tile, CUB) */
    float *d_xt, *d_xc;
    uint32_t *d_xtv, *d_xcv;
    CK(cudaMalloc(&d_xt, kb));
    CK(cudaMalloc(&d_xc, kb));
    CK(cudaMalloc(&d_xtv, vb));
    CK(cudaMalloc(&d_xcv, vb));
    fill_input<<<prop.multiProcessorCount * 8, 256>>>(d_in, d_vin, n, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    const tile_exec ex = TILE_GPU(dev);
    enum { V_TK, V_CK, V_CS, V_TP, V_CP, V_COPY, V_TD, V_CD, V_TDP, V_CDP, V_TB, V_CB, V_TM, V_CM, V_TMP, V_CMP,
           V_TMX, V_CMX, V_TMPX, V_CMPX, V };
    const char *names[V] = {"tile sort keys", "cub sort keys (peer)", "cub keys striped (diag)",
                            "tile sort pairs", "cub sort pairs (peer)", "cudaMemcpy d2d keys",
                            "tile desc keys", "cub desc keys (peer)", "tile desc pairs", "cub desc pairs (peer)",
                            "tile bits[16,32) keys", "cub bits[16,32) (peer)", "tile merge keys",
                            "cub merge keys (peer)", "tile merge pairs", "cub merge pairs (peer)",
                            MS_PAD_ALT ? "tile merge keys pad1 (ctl)" : "tile merge keys pad0 (ctl)",
                            "cub merge keys (peer 2)",
                            MS_PAD_ALT ? "tile merge pairs pad1 (ctl)" : "tile merge pairs pad0 (ctl)",
                            "cub merge pairs (peer 2)"};
    const double bytes[V] = {2.0 * kb, 2.0 * kb, 2.0 * kb, 2.0 * (kb + vb), 2.0 * (kb + vb), 2.0 * kb,
                             2.0 * kb, 2.0 * kb, 2.0 * (kb + vb), 2.0 * (kb + vb), 2.0 * kb, 2.0 * kb,
                             2.0 * kb, 2.0 * kb, 2.0 * (kb + vb), 2.0 * (kb + vb),
                             2.0 * kb, 2.0 * kb, 2.0 * (kb + vb), 2.0 * (kb + vb)};
    /* the peer of each variant (its ratio's denominator) */
    auto peer_of = [&](int v) { return v >= V_TD ? V_TD + (v - V_TD) / 2 * 2 + 1 : v <= V_CS ? V_CK : v <= V_CP ? V_CP : V_COPY; };
    auto launch = [&](int v) -> int {
        switch (v) {
        case V_TK: TK(tile_launch(ex, tile_sort_keys, tile_grid1(tiles), THREADS, (const float *)d_in, d_tk)); break;
        case V_CK: cub_sort_keys<cub::BLOCK_LOAD_WARP_TRANSPOSE><<<(unsigned)tiles, THREADS>>>(d_in, d_ck); break;
        case V_CS: cub_sort_keys<cub::BLOCK_LOAD_STRIPED><<<(unsigned)tiles, THREADS>>>(d_in, d_cs); break;
        case V_TP:
            TK(tile_launch(ex, tile_sort_kv, tile_grid1(tiles), THREADS, (const float *)d_in, (const uint32_t *)d_vin,
                           d_tpk, d_tpv));
            break;
        case V_CP: cub_sort_kv<false><<<(unsigned)tiles, THREADS>>>(d_in, d_vin, d_cpk, d_cpv); break;
        case V_TD: TK(tile_launch(ex, tile_sort_desc_keys, tile_grid1(tiles), THREADS, (const float *)d_in, d_xt)); break;
        case V_CD: cub_sort_keys_x<0><<<(unsigned)tiles, THREADS>>>(d_in, d_xc); break;
        case V_TDP:
            TK(tile_launch(ex, tile_sort_desc_kv, tile_grid1(tiles), THREADS, (const float *)d_in,
                           (const uint32_t *)d_vin, d_xt, d_xtv));
            break;
        case V_CDP: cub_sort_kv<true><<<(unsigned)tiles, THREADS>>>(d_in, d_vin, d_xc, d_xcv); break;
        case V_TB: TK(tile_launch(ex, tile_sort_bits_keys, tile_grid1(tiles), THREADS, (const float *)d_in, d_xt)); break;
        case V_CB: cub_sort_keys_x<1><<<(unsigned)tiles, THREADS>>>(d_in, d_xc); break;
        case V_TM: TK(tile_launch(ex, tile_msort_keys, tile_grid1(tiles), THREADS, (const float *)d_in, d_xt)); break;
        case V_CM: cub_msort<false><<<(unsigned)tiles, THREADS>>>(d_in, d_vin, d_xc, d_xcv); break;
        case V_TMP:
            TK(tile_launch(ex, tile_msort_kv, tile_grid1(tiles), THREADS, (const float *)d_in, (const uint32_t *)d_vin,
                           d_xt, d_xtv));
            break;
        case V_CMP: cub_msort<true><<<(unsigned)tiles, THREADS>>>(d_in, d_vin, d_xc, d_xcv); break;
        case V_TMX: TK(tile_launch(ex, tile_msort_keys_alt, tile_grid1(tiles), THREADS, (const float *)d_in, d_xt)); break;
        case V_CMX: cub_msort<false><<<(unsigned)tiles, THREADS>>>(d_in, d_vin, d_xc, d_xcv); break;
        case V_TMPX:
            TK(tile_launch(ex, tile_msort_kv_alt, tile_grid1(tiles), THREADS, (const float *)d_in,
                           (const uint32_t *)d_vin, d_xt, d_xtv));
            break;
        case V_CMPX: cub_msort<true><<<(unsigned)tiles, THREADS>>>(d_in, d_vin, d_xc, d_xcv); break;
        default: CK(cudaMemcpyAsync(d_copy, d_in, kb, cudaMemcpyDeviceToDevice, 0)); break;
        }
        CK(cudaGetLastError());
        return 0;
    };

    for (int w = 0; w < o.warmup; ++w)
        for (int v = 0; v < V; ++v)
            if (launch(v)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaDeviceSynchronize());

    /* ---- correctness: poison outputs, one run each, check every tile ---- */
    float *outs_k[5] = {d_tk, d_ck, d_cs, d_tpk, d_cpk};
    for (float *p : outs_k) CK(cudaMemset(p, 0xff, kb)); /* NaN */
    CK(cudaMemset(d_tpv, 0xff, vb));
    CK(cudaMemset(d_cpv, 0xff, vb));
    CK(cudaMemset(d_copy, 0, kb));
    for (int v = 0; v < V_TD; ++v)
        if (launch(v)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaDeviceSynchronize());

    std::vector<float> h_in(n), h_tk(n), h_ck(n), h_cs(n), h_tpk(n), h_cpk(n);
    std::vector<uint32_t> h_tpv(n), h_cpv(n), h_vin(n);
    CK(cudaMemcpy(h_in.data(), d_in, kb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_vin.data(), d_vin, vb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_tk.data(), d_tk, kb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_ck.data(), d_ck, kb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_cs.data(), d_cs, kb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_tpk.data(), d_tpk, kb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_cpk.data(), d_cpk, kb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_tpv.data(), d_tpv, vb, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_cpv.data(), d_cpv, vb, cudaMemcpyDeviceToHost));
    long bad = 0, zeros = 0, hash_bad = 0, vin_bad = 0;
    for (size_t i = 0; i < n; ++i) {
        zeros += h_in[i] == 0.0f;
        vin_bad += h_vin[i] != (uint32_t)i;
    }
    for (size_t i = 0; i < n; i += 4093) hash_bad += h_in[i] != key_of(seed, (uint32_t)i);
    printf("check %-28s %zu keys, %ld zeros, %ld of %zu sampled differ from the host hash, values %s: %s\n", "input",
           n, zeros, hash_bad, (n + 4092) / 4093, vin_bad ? "wrong" : "ok",
           hash_bad || zeros || vin_bad ? "FAIL" : "ok");
    bad += hash_bad + zeros + vin_bad;
    bad += check_keys("tile keys", h_in.data(), h_tk.data(), tiles);
    bad += check_keys("cub keys", h_in.data(), h_ck.data(), tiles);
    bad += check_same("tile keys == cub keys", h_tk.data(), h_ck.data(), kb);
    bad += check_same("cub striped == cub keys", h_cs.data(), h_ck.data(), kb);
    bad += check_same("tile pairs keys == tile keys", h_tpk.data(), h_tk.data(), kb);
    bad += check_same("cub pairs keys == cub keys", h_cpk.data(), h_ck.data(), kb);
    bad += check_pairs("tile pairs", h_in.data(), h_tpk.data(), h_tpv.data(), tiles);
    bad += check_pairs("cub pairs", h_in.data(), h_cpk.data(), h_cpv.data(), tiles);
    bad += check_same("tile values == cub values", h_tpv.data(), h_cpv.data(), vb);
    {
        std::vector<float> h_copy(n);
        CK(cudaMemcpy(h_copy.data(), d_copy, kb, cudaMemcpyDeviceToHost));
        bad += check_same("memcpy d2d", h_copy.data(), h_in.data(), kb);
    }
    /* descending / bit range / merge: tile and CUB one pair at a time into
     * the shared outputs (poisoned), tile == CUB bit for bit (keys and
     * values: both stable), and every 64th tile checked against its own
     * reference: a stable sort of (the key's order, index) by std::stable_sort */
    {
        std::vector<float> xt(n), xc(n);
        std::vector<uint32_t> xtv(n), xcv(n);
        for (int v = V_TD; v < V; v += 2) {
            const bool pairs = v == V_TDP || v == V_TMP || v == V_TMPX;
            CK(cudaMemset(d_xt, 0xff, kb));
            CK(cudaMemset(d_xc, 0xfe, kb));
            CK(cudaMemset(d_xtv, 0xff, vb));
            CK(cudaMemset(d_xcv, 0xfe, vb));
            if (launch(v) || launch(v + 1)) return 1;
            TK(tile_synchronize(ex));
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(xt.data(), d_xt, kb, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(xc.data(), d_xc, kb, cudaMemcpyDeviceToHost));
            if (pairs) {
                CK(cudaMemcpy(xtv.data(), d_xtv, vb, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(xcv.data(), d_xcv, vb, cudaMemcpyDeviceToHost));
            }
            char what[96];
            snprintf(what, sizeof what, "%s == cub", names[v]);
            bad += check_same(what, xt.data(), xc.data(), kb);
            if (pairs) {
                snprintf(what, sizeof what, "%s values == cub", names[v]);
                bad += check_same(what, xtv.data(), xcv.data(), vb);
            }
            long wrong = 0;
            std::vector<std::pair<uint32_t, uint32_t>> ref(TILE_N);
            for (long t = 0; t < tiles; t += 64) {
                const size_t base = (size_t)t * TILE_N;
                for (int i = 0; i < TILE_N; ++i) {
                    uint32_t o = ord(h_in[base + i]);
                    if (v == V_TD || v == V_TDP) o = ~o;
                    if (v == V_TB) o >>= BIT_LO; /* bits [16, 32) */
                    ref[i] = std::make_pair(o, (uint32_t)i);
                }
                std::stable_sort(ref.begin(), ref.end(), [](const std::pair<uint32_t, uint32_t> &a,
                                                            const std::pair<uint32_t, uint32_t> &b) { return a.first < b.first; });
                for (int i = 0; i < TILE_N; ++i) {
                    const size_t src = base + ref[i].second;
                    wrong += memcmp(&xt[base + i], &h_in[src], 4) != 0 || (pairs && xtv[base + i] != (uint32_t)src);
                }
            }
            printf("check %-28s %ld sampled tiles vs stable reference: %ld wrong: %s\n", names[v], (tiles + 63) / 64,
                   wrong, wrong ? "FAIL" : "ok");
            bad += wrong != 0;
        }
    }

    /* ---- timing: variants interleaved, one event pair around each launch ---- */
    std::vector<cudaEvent_t> ev(2 * V * o.iters);
    for (auto &e : ev) CK(cudaEventCreate(&e));
    for (int it = 0; it < o.iters; ++it)
        for (int v = 0; v < V; ++v) {
            CK(cudaEventRecord(ev[2 * (it * V + v)], 0));
            if (launch(v)) return 1;
            CK(cudaEventRecord(ev[2 * (it * V + v) + 1], 0));
        }
    CK(cudaEventSynchronize(ev.back()));
    TK(tile_synchronize(ex));
    std::vector<float> ms[V];
    for (int it = 0; it < o.iters; ++it)
        for (int v = 0; v < V; ++v) {
            float t = 0;
            CK(cudaEventElapsedTime(&t, ev[2 * (it * V + v)], ev[2 * (it * V + v) + 1]));
            ms[v].push_back(t);
        }
    for (auto &e : ev) CK(cudaEventDestroy(e));

    /* the timed runs reproduce the checked results bit for bit */
    {
        std::vector<float> t1(n), t2(n);
        std::vector<uint32_t> t3(n);
        CK(cudaMemcpy(t1.data(), d_tk, kb, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(t2.data(), d_tpk, kb, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(t3.data(), d_tpv, vb, cudaMemcpyDeviceToHost));
        bool same = !memcmp(t1.data(), h_tk.data(), kb) && !memcmp(t2.data(), h_tpk.data(), kb) &&
                    !memcmp(t3.data(), h_tpv.data(), vb);
        printf("check %-28s %s\n", "repeat runs identical", same ? "ok" : "FAIL");
        bad += !same;
    }

    Stat st[V];
    double gbs[V];
    for (int v = 0; v < V; ++v) {
        st[v] = stats(ms[v]);
        gbs[v] = gbps(bytes[v], st[v].median);
    }
    const double rk = st[V_CK].median / st[V_TK].median, rp = st[V_CP].median / st[V_TP].median;
    auto ratio = [&](int v) { return st[peer_of(v)].median / st[v].median; };

    printf("\n%-26s %10s %10s %10s %9s %8s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "vs_peer");
    for (int v = 0; v < V; ++v) {
        const int peer = peer_of(v);
        printf("%-26s %10.4f %10.4f %10.4f %9.1f %8.3f\n", names[v], st[v].median, st[v].min, st[v].max, gbs[v],
               st[peer].median / st[v].median);
    }
    printf("(GB/s: bytes read + written / median time, 1e9 B/s; keys %.0f MiB each way, pairs %.0f MiB)\n",
           kb / 1048576.0, (kb + vb) / 1048576.0);
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    const bool pk = print_target("tile sort keys / CUB", rk, ">=", 1.00);
    const bool pp = print_target("tile sort pairs / CUB", rp, ">=", 1.00);
    const bool pd = print_target("tile sort descending keys / CUB", ratio(V_TD), ">=", 1.00);
    const bool pdp = print_target("tile sort descending pairs / CUB", ratio(V_TDP), ">=", 1.00);
    const bool pb = print_target("tile sort bits [16,32) keys / CUB", ratio(V_TB), ">=", 1.00);
    const bool pm = print_target("tile merge sort keys / CUB BlockMergeSort", ratio(V_TM), ">=", 1.00);
    const bool pmp = print_target("tile merge sort pairs / CUB BlockMergeSort", ratio(V_TMP), ">=", 1.00);
    /* the other TILE_MERGE_SORT_PAD setting: a control (what the default's
     * padding gains), a ratio without a target: not a step of gpu-check.sh,
     * not in --strict */
    printf("control TILE_MERGE_SORT_PAD=%d: tile merge sort keys / CUB = %.2f (no target: the unpadded staging, "
           "for comparison)\n", MS_PAD_ALT, ratio(V_TMX));
    printf("control TILE_MERGE_SORT_PAD=%d: tile merge sort pairs / CUB = %.2f (no target: the unpadded staging, "
           "for comparison)\n", MS_PAD_ALT, ratio(V_TMPX));
    const bool pnew[V] = {false, false, false, false, false, false, pd, false, pdp, false, pb, false, pm, false, pmp, false,
                          false, false, false, false};

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,tiles,tile_n,threads,bytes_moved,iters,median_ms,min_ms,max_ms,gbps,"
                   "ratio_vs_peer,correct,target\n");
        for (int v = 0; v < V; ++v) {
            const int peer = peer_of(v);
            const char *target = v == V_TK ? (pk ? "PASS" : "FAIL") : v == V_TP ? (pp ? "PASS" : "FAIL")
                                 : (v >= V_TD && v < V_TMX && (v - V_TD) % 2 == 0) ? (pnew[v] ? "PASS" : "FAIL")
                                                                                   : ""; /* controls: no target */
            fprintf(f, "%s,%s,\"%s\",%s,%ld,%d,%d,%.0f,%d,%.5f,%.5f,%.5f,%.2f,%.4f,%s,%s\n", date, commit, prop.name,
                    names[v], tiles, TILE_N, THREADS, bytes[v], o.iters, st[v].median, st[v].min, st[v].max, gbs[v],
                    st[peer].median / st[v].median, bad ? "FAIL" : "PASS", target);
        }
        if (csv_close(f, o.csv)) return 1;
    }

    for (void *p : {(void *)d_in, (void *)d_vin, (void *)d_tk, (void *)d_ck, (void *)d_cs, (void *)d_tpk,
                    (void *)d_cpk, (void *)d_tpv, (void *)d_cpv, (void *)d_copy, (void *)d_xt, (void *)d_xc,
                    (void *)d_xtv, (void *)d_xcv})
        CK(cudaFree(p));
    if (bad) return 1;
    if (o.strict && !(pk && pp && pd && pdp && pb && pm && pmp)) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 20, 3); }
