/* copy_bench - the headline numbers: copies through tiles (global -> tile ->
 * global), per tier of the load/store cascade and per element type, next to
 * cudaMemcpy device-to-device and CUB BlockLoad/BlockStore in the same run.
 *
 * Every kernel copies an array of at least 1 GiB (64 MiB with --small) with
 * blocks of 256 threads, one block per tile: tile_launch over the grid of
 * tiles (tile_grid2 / tile_grid1, the library's plain idiom), each block a
 * tile_load_ex then a tile_store_ex. A loop over several tiles per block
 * does not help with today's code generation (it costs registers, hence
 * occupancy: see k_f32_s2d_32x64_gs); one diagnostic variant shows it.
 *
 *   variant              dtype   tile            array          tier
 *   shared2d             f32     32x64           R x 1024       vector  (target)
 *   shared2d             f32     16x64, 64x64, 128x64 (tile-size sweep)  vector
 *   shared2d-aligned     f32     32x64, TILE_ALIGNED promise   R x 1024  vector
 *   shared2d-gridstride  f32     32x64, a grid-stride loop over the tiles,
 *                                grid = blocks that fit at once  R x 1024  vector
 *   reg2d                f32     32x64 register tile           R x 1024  scalar
 *   shared2d-forcescalar f32     32x64, TILE_FORCE_SCALAR, full tiles    scalar
 *   shared2d-partial     f32     64x32 of N0 x 37 (N0 odd; rows of 148 bytes,
 *                                so no vector tier): column tiles 0-31 full
 *                                but in the last tile row, 32-63 edge tiles
 *                                with 5 of 32 columns inside          scalar  (target)
 *   shared2d-partial     f32     32x64 of N0 x 37: every tile an edge tile,
 *                                37 of 64 columns inside              scalar
 *   reg1d, shared1d      f32     2048            n              scalar
 *   shared2d             f64     32x32           R x 512        vector  (target)
 *   shared2d             vec3f   32x32 (rows of 384 bytes)  R x 256  vector  (target)
 *   shared1d             mat33f  256             n              bytes   (target)
 *   shared2d-fullwidth   mat33f  128x2, the full width of R x 2 (rows of 72
 *                                bytes: with 16-byte multiples the cascade
 *                                would rightly take the vector tier)  bytes   (target)
 *   shared1d             mat66f  256             n              bytes   (target)
 *   shared2d-fullwidth   f32     32x64 of R x 64: each tile one contiguous
 *                                8 KiB run                     R x 64    vector
 *   async-vec16          f32     32x64, tile_load_async (16-byte cp.async)
 *                                double-buffered, grid-stride  R x 1024  async + vector store
 *   async-bulk           f32     32x64 of R x 64: one bulk copy (TMA) per
 *                                tile in sm_90 code            R x 64    async + vector store
 *   (the async variants only when tile.h includes include/tile/async.h)
 *
 * Peers, same tile size (items per block = 256 x ITEMS_PER_THREAD), one
 * block per tile: cub::BlockLoad/BlockStore with
 * BLOCK_LOAD_VECTORIZE/BLOCK_STORE_VECTORIZE and with
 * BLOCK_LOAD_WARP_TRANSPOSE/BLOCK_STORE_WARP_TRANSPOSE over the same bytes
 * (flat). A tile variant's peer is the faster of the CUB kernels of its
 * element type and tile size (only VECTORIZE exists for the f32 tile-size
 * sweep). The partial-tile variant is compared with the f32 peer of its tile
 * size (GB/s normalizes the slightly different byte counts).
 *
 * Bytes: read + write, 2 x the array. GB/s = bytes / median time / 1e9.
 * frac_memcpy = GB/s / GB/s of cudaMemcpyAsync D2D of 1 GiB (2 GiB moved) in
 * the same run; peer ratio = GB/s / GB/s of the peer.
 *
 * Method: input filled on the device with non-zero pseudo-random words (each
 * a float in +-[0.5, 1.5), so also no double is zero or NaN); warm-up rounds;
 * then one checked run per variant: output poisoned (0xff bytes, and a guard
 * after the array), tiers recorded by the kernel (tile_load_ex /
 * tile_store_ex return values, OR-ed into a device flag per block), then the
 * whole output compared word for word with the input on the device, and the
 * guard checked untouched. The comparator is shown to catch a wrong output
 * first (a negative control on the poisoned buffer). Timing: variants
 * interleaved, one CUDA event pair per launch, median of --iters reps (30).
 * A variant is correct only if its output equals the input, the guard is
 * intact and every tile's load and store took the expected tier.
 *
 * Targets (a line each, "... (target >= X): PASS|FAIL"), GB/s over memcpy:
 *   vector tier   >= 0.95  (f32 32x64, f64 32x32, vec3f 32x32)
 *   byte tier     >= 0.85  (mat33f 1D 256, mat33f 2D 128x2, mat66f 1D 256)
 *   scalar tier on contiguous partial tiles >= 0.70  (f32 64x32 of N0 x 37)
 * A target line reads FAIL also when its variant's output was wrong.
 *
 *   copy_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small]
 *              [--commit SHA] [--strict]
 *   commit: --commit, else $GIT_COMMIT, else -DGIT_COMMIT=..., else "unknown"
 * Exit: 0 ok (also with no GPU: "no GPU: bench skipped"); 1 a CUDA error or a
 * wrong result; 2 bad arguments; 3 a target missed under --strict.
 * CSV columns: date,commit,device,variant,tier,dtype,tile,bytes,median_ms,
 * gbps,frac_memcpy,peer,peer_ratio,correct. Plot: bench/plot.py.
 */
#include <tile.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#define NT 256 /* threads per block, every kernel */

/* ======================================================================
 * tile.h kernels
 * ====================================================================== */

/* OR the tiers seen by this block's loads (lm) and stores (sm), as bit
 * masks 1 << tier, into tiers[0] / tiers[1]; tiers == 0 in timed runs. */
static TILE_HD inline void note_tiers(int *tiers, int lm, int sm) {
#if TILE_ON_DEVICE
    if (tiers && threadIdx.x == 0) {
        atomicOr(&tiers[0], lm);
        atomicOr(&tiers[1], sm);
    }
#else
    if (tiers) {
        tiers[0] |= lm;
        tiers[1] |= sm;
    }
#endif
}

#define SMEM_reg(T, ...) 0
#define SMEM_shared(T, ...) TILE_SMEM_BYTES(T, __VA_ARGS__)

/* 2D: one block per tile, launched over the 2D grid of tiles (tile_launch
 * with tile_grid2: the library's plain idiom); the block's tile sits at
 * (tile_block(0), tile_block(1)). KIND: reg or shared. */
#define COPY2D(name, KIND, T, D0, D1, OPTS)                                                       \
    TILE_KERNEL_SMEM(name, NT, SMEM_##KIND(T, D0, D1), tile_array src, tile_array dst, int *tiers) { \
        tile_##KIND(T, s, D0, D1);                                                                \
        const int64_t o0 = (int64_t)tile_block(0) * (D0), o1 = (int64_t)tile_block(1) * (D1);     \
        const int lm = 1 << tile_load_ex(s, src, OPTS, o0, o1);                                   \
        const int sm = 1 << tile_store_ex(dst, s, OPTS, o0, o1);                                  \
        note_tiers(tiers, lm, sm);                                                                \
    }
/* 1D: the same over the 1D grid of tiles of a 1D array */
#define COPY1D(name, KIND, T, D0, OPTS)                                                           \
    TILE_KERNEL_SMEM(name, NT, SMEM_##KIND(T, D0), tile_array src, tile_array dst, int *tiers) {  \
        tile_##KIND(T, s, D0);                                                                    \
        const int64_t o0 = (int64_t)tile_block(0) * (D0);                                         \
        const int lm = 1 << tile_load_ex(s, src, OPTS, o0);                                       \
        const int sm = 1 << tile_store_ex(dst, s, OPTS, o0);                                      \
        note_tiers(tiers, lm, sm);                                                                \
    }

/* f32: the headline tile and a tile-size sweep (vector tier) */
COPY2D(k_f32_s2d_16x64, shared, float, 16, 64, TILE_LOAD_AUTO)
COPY2D(k_f32_s2d_32x64, shared, float, 32, 64, TILE_LOAD_AUTO)
COPY2D(k_f32_s2d_64x64, shared, float, 64, 64, TILE_LOAD_AUTO)
COPY2D(k_f32_s2d_128x64, shared, float, 128, 64, TILE_LOAD_AUTO)
/* the same copy through a register tile (scalar tier) */
COPY2D(k_f32_r2d_32x64, reg, float, 32, 64, TILE_LOAD_AUTO)
/* scalar tier forced on full shared tiles */
COPY2D(k_f32_s2d_32x64_fs, shared, float, 32, 64, TILE_FORCE_SCALAR)
/* the headline tile with the TILE_ALIGNED promise: no bounds-checked
 * fallback compiled in (what the cascade's run-time checks cost) */
COPY2D(k_f32_s2d_32x64_al, shared, float, 32, 64, TILE_ALIGNED)
/* scalar tier on partial tiles over an N0 x 37 array (rows of 148 bytes:
 * no vector tier): 64x32 tiles (column tiles 0-31 inside but for the last
 * tile row, 32-63 an edge tile with 5 of 32 columns inside), and 32x64 ones
 * (every tile an edge tile, 37 of 64 columns inside) */
COPY2D(k_f32_s2d_64x32_part, shared, float, 64, 32, TILE_LOAD_AUTO)
COPY2D(k_f32_s2d_32x64_part, shared, float, 32, 64, TILE_LOAD_AUTO)
/* 1D tiles of small elements: scalar tier */
COPY1D(k_f32_r1d_2048, reg, float, 2048, TILE_LOAD_AUTO)
COPY1D(k_f32_s1d_2048, shared, float, 2048, TILE_LOAD_AUTO)
/* full-width tiles of an R x 64 array: each tile one contiguous run */
COPY2D(k_f32_s2d_32x64_fw, shared, float, 32, 64, TILE_LOAD_AUTO)
/* other element types */
COPY2D(k_f64_s2d_32x32, shared, double, 32, 32, TILE_LOAD_AUTO)
COPY2D(k_v3f_s2d_32x32, shared, tile_vec3f, 32, 32, TILE_LOAD_AUTO)
COPY1D(k_m33f_s1d_256, shared, tile_mat33f, 256, TILE_LOAD_AUTO)
COPY2D(k_m33f_s2d_128x2, shared, tile_mat33f, 128, 2, TILE_LOAD_AUTO)
COPY1D(k_m66f_s1d_256, shared, tile_mat66f, 256, TILE_LOAD_AUTO)

/* Diagnostic: the headline copy with a loop over tiles, grid-stride (block
 * b copies tiles b, b + grid, ... in row-major tile order; tiles1 tiles per
 * tile row, ntiles in all), the grid sized to the blocks that fit at once.
 * With today's code generation the loop costs registers (78 instead of 39
 * for this tile on sm_90: nvcc keeps per-slot address terms of the scalar
 * fallback live across iterations), hence occupancy, which is why the
 * variants above launch one block per tile. */
TILE_KERNEL_SMEM(k_f32_s2d_32x64_gs, NT, TILE_SMEM_BYTES(float, 32, 64), tile_array src, tile_array dst, int tiles1,
                 int ntiles, int *tiers) {
    tile_shared(float, s, 32, 64);
    int lm = 0, sm = 0;
    for (int t = (int)tile_block_linear(); t < ntiles; t += tile_grid_dim(0)) {
        const int64_t o0 = (int64_t)(t / tiles1) * 32, o1 = (int64_t)(t % tiles1) * 64;
        lm |= 1 << tile_load_ex(s, src, TILE_LOAD_AUTO, o0, o1);
        sm |= 1 << tile_store_ex(dst, s, TILE_LOAD_AUTO, o0, o1);
    }
    note_tiers(tiers, lm, sm);
}

/* ---- async (include/tile/async.h): compiled only when tile.h includes it
 * (TILE_ASYNC_H), so the bench builds with or without it.
 * Double-buffered grid-stride copy: the load of the block's next tile
 * (tile_load_async_ex into the other stage) is in flight while the current
 * tile is stored (tile_store_ex); tiers[0] collects the async paths
 * (1 << TILE_ASYNC_*), tiers[1] the store tiers. On R x 1024 the 32x64 tile
 * takes 16-byte cp.async (TILE_ASYNC_VEC16); on R x 64 each tile is one
 * contiguous 8 KiB run: one bulk copy (TILE_ASYNC_BULK) in sm_90 code,
 * striped cp.async (TILE_ASYNC_RUN) in sm_80 code. */
#if defined(TILE_ASYNC_H)
TILE_KERNEL_SMEM(k_f32_async_32x64, NT, 2 * TILE_SMEM_BYTES(float, 32, 64), tile_array src, tile_array dst, int tiles1,
                 int ntiles, int *tiers) {
    tile_shared_stages(float, buf, 2, 32, 64);
    const int g = tile_grid_dim(0);
    int t = (int)tile_block_linear(), pm = 0, sm = 0;
    if (t < ntiles) {
        pm |= 1 << tile_load_async_ex(buf, src, TILE_ASYNC_AUTO, (int64_t)(t / tiles1) * 32, (int64_t)(t % tiles1) * 64);
    }
    tile_async_commit();
    for (int k = 0; t < ntiles; t += g, ++k) {
        const int tn = t + g;
        {
            tile_stage(nx, buf, (k + 1) & 1);
            if (tn < ntiles)
                pm |= 1 << tile_load_async_ex(nx, src, TILE_ASYNC_AUTO, (int64_t)(tn / tiles1) * 32,
                                              (int64_t)(tn % tiles1) * 64);
        }
        tile_async_commit();
        tile_async_wait(1); /* tile t has landed (and a block barrier) */
        {
            tile_stage(cur, buf, k & 1);
            sm |= 1 << tile_store_ex(dst, cur, TILE_LOAD_AUTO, (int64_t)(t / tiles1) * 32, (int64_t)(t % tiles1) * 64);
        }
    }
    tile_async_wait_all();
    note_tiers(tiers, pm, sm);
}
#endif

/* ======================================================================
 * CUB peers: same block size and items per block, one block per tile of a
 * flat array (n a multiple of the tile, checked on the host)
 * ====================================================================== */
template <class T, int IPT, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA>
__global__ void __launch_bounds__(NT) cub_copy(const T *__restrict__ in, T *__restrict__ out) {
    typedef cub::BlockLoad<T, NT, IPT, LA> Load;
    typedef cub::BlockStore<T, NT, IPT, SA> Store;
    /* one shared buffer for both (mat66f needs 36 KiB each) and a barrier
     * between the uses, as CUB documents; VECTORIZE uses no shared memory */
    constexpr bool transposing = LA != cub::BLOCK_LOAD_VECTORIZE || SA != cub::BLOCK_STORE_VECTORIZE;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } tmp;
    T v[IPT];
    const size_t off = (size_t)blockIdx.x * (NT * IPT);
    Load(tmp.load).Load(in + off, v);
    if (transposing) __syncthreads();
    Store(tmp.store).Store(out + off, v);
}

/* ======================================================================
 * input and checking
 * ====================================================================== */
/* word i: a float in +-[0.5, 1.5), never zero; as halves of doubles it
 * gives finite non-zero doubles too */
__global__ void fill_words(uint32_t *a, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float f = 0.5f + tile_hash_unit(seed, (uint32_t)i);
        if (tile_hash32(seed ^ 0x5bd1e995u, (uint32_t)i) & 1u) f = -f;
        a[i] = __float_as_uint(f);
    }
}
#define POISON 0xffffffffu
/* res[0]: words of got[0, n) that differ from ref; res[1]: words of the
 * guard got[n, n + guard) that are not POISON; res[2]: first differing word */
__global__ void compare_words(const uint32_t *ref, const uint32_t *got, size_t n, size_t guard,
                              unsigned long long *res) {
    unsigned long long bad = 0, gbad = 0, first = ~0ull;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n + guard;
         i += (size_t)gridDim.x * blockDim.x) {
        if (i < n) {
            if (got[i] != ref[i]) {
                if (!bad) first = i;
                ++bad;
            }
        } else if (got[i] != POISON) {
            ++gbad;
        }
    }
    if (bad) {
        atomicAdd(&res[0], bad);
        atomicMin(&res[2], first);
    }
    if (gbad) atomicAdd(&res[1], gbad);
}

/* ======================================================================
 * host
 * ====================================================================== */
#include "bench_util.h"

/* Blocks of a tile kernel that fit on one SM: the occupancy of the very
 * __global__ function tile_launch will use (TILE_KERNEL_GPU_FUNC_OF, the
 * parameter types deduced from the same expressions as in the launch). */
static int tile_occupancy_of(const void *kf, int block, size_t smem) {
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kf, block, smem) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}
#define TILE_OCCUPANCY(name, ...)                                                  \
    tile_occupancy_of((const void *)TILE_KERNEL_GPU_FUNC_OF(name, __VA_ARGS__), name##__block, (size_t)name##__smem)
/* the architecture of the code the device runs for that kernel (90: sm_90) */
static int tile_binary_version_of(const void *kf) {
    cudaFuncAttributes at;
    if (cudaFuncGetAttributes(&at, kf) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return at.binaryVersion;
}
#define TILE_BINARY_VERSION(name, ...) tile_binary_version_of((const void *)TILE_KERNEL_GPU_FUNC_OF(name, __VA_ARGS__))

/* one row of the table */
struct Variant {
    std::string name, tier, dtype, tile;
    int expect_tier = 0;      /* TILE_TIER_* for tile.h variants, 0 otherwise */
    int want_load = 0, want_store = 0; /* the tier masks the kernel must report (1 << tier) */
    bool load_is_async = false; /* loads report TILE_ASYNC_* paths instead of tiers */
    size_t bytes = 0;         /* array bytes (one direction) */
    int elems_per_tile = 0;   /* peer key, with dtype */
    bool is_cub = false;
    std::string target_label; /* "" = no target */
    double target = 0;
    int64_t grid = 0;         /* blocks launched */
    int occ = 0;              /* blocks that fit on one SM (occupancy API) */
    std::function<int(int *)> launch; /* tiers: device flag or nullptr */
    /* results */
    bool correct = false;
    std::vector<float> ms;
    double median = 0, min = 0, max = 0, gbps = 0, frac = 0, peer_ratio = 0;
    int peer = -1;
};

static const char *tier_name(int t) {
    return t == TILE_TIER_VECTOR ? "vector" : t == TILE_TIER_BYTES ? "bytes" : t == TILE_TIER_SCALAR ? "scalar" : "?";
}
static const char *async_path_name(int p) {
    static const char *n[] = {"?", "async-bulk", "async-vec16", "async-run", "async-elem", "async-sync"};
    return p >= 1 && p <= 5 ? n[p] : "?";
}
/* names of the tiers (or async paths) in mask m */
static std::string mask_names(int m, bool async = false) {
    std::string s;
    for (int t = 1; t <= (async ? 5 : 3); ++t)
        if (m & (1 << t)) s += std::string(s.empty() ? "" : "+") + (async ? async_path_name(t) : tier_name(t));
    for (int t = async ? 6 : 4; t < 31; ++t)
        if (m & (1 << t)) s += std::string(s.empty() ? "" : "+") + "?";
    return s.empty() ? "none" : s;
}
static size_t round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }

/* a CUB peer: cub_copy<T, IPT, LA, SA> over n items (n a multiple of the tile) */
template <class T, int IPT, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA>
static int add_cub(std::vector<Variant> &vs, const char *name, const char *dtype, size_t n, const void *in, void *out) {
    Variant v;
    v.name = name;
    v.tier = "cub";
    v.dtype = dtype;
    v.is_cub = true;
    v.elems_per_tile = NT * IPT;
    v.tile = std::to_string(NT * IPT) + "=256x" + std::to_string(IPT);
    v.bytes = n * sizeof(T);
    if (n % (size_t)(NT * IPT)) {
        fprintf(stderr, "internal: %s %s: %zu items, not a multiple of the tile\n", name, dtype, n);
        return 1;
    }
    const int nt = (int)(n / (NT * IPT));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v.occ, cub_copy<T, IPT, LA, SA>, NT, 0));
    v.grid = nt;
    const T *tin = (const T *)in;
    T *tout = (T *)out;
    v.launch = [=](int *) -> int {
        cub_copy<T, IPT, LA, SA><<<nt, NT>>>(tin, tout);
        CK(cudaGetLastError());
        return 0;
    };
    vs.push_back(v);
    return 0;
}
#define VEC cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE
#define WT cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE

static int run(const Opts &o) {
    /* every array holds at least `target` bytes */
    const size_t target = o.small ? ((size_t)64 << 20) : ((size_t)1 << 30);
    const size_t guard_words = 4096; /* 16 KiB after each output, must stay poisoned */
    const uint32_t seed = 20261122u;

    BenchEnv env;
    if (bench_env(&env, "copy_bench", o)) return 1;
    const cudaDeviceProp &prop = env.prop;
    const int dev = env.dev, sms = prop.multiProcessorCount;
    const char *date = env.date, *commit = env.commit;

    /* ---- array geometries ---- */
    const int64_t R_f32 = (int64_t)round_up(target / (1024 * 4), 128); /* R x 1024 f32, R multiple of 128 */
    const int64_t R_f64 = (int64_t)round_up(target / (512 * 8), 32);   /* R x 512 f64 */
    const int64_t R_v3 = (int64_t)round_up((target + 3071) / (256 * 12), 32); /* R x 256 vec3f */
    const int64_t n_f32 = (int64_t)round_up(target / 4, 2048);
    const int64_t n_m33 = (int64_t)round_up((target + 35) / 36, 256);
    const int64_t R_m33 = (int64_t)round_up((target + 71) / (2 * 36), 128); /* R x 2 mat33f */
    const int64_t n_m66 = (int64_t)round_up((target + 143) / 144, 256);
    const int64_t R_w64 = (int64_t)round_up(target / (64 * 4), 32);     /* R x 64 f32 */
    const int64_t P0 = (int64_t)((target + 147) / 148) | 1; /* P0 x 37 f32, P0 odd: no multiple of the tile */
    const int P1 = 37;
    char tile_w64[48];

    size_t max_bytes = 0;
    for (size_t b : {(size_t)R_f32 * 1024 * 4, (size_t)R_f64 * 512 * 8, (size_t)R_v3 * 256 * 12, (size_t)n_f32 * 4,
                     (size_t)n_m33 * 36, (size_t)R_m33 * 2 * 36, (size_t)n_m66 * 144, (size_t)P0 * P1 * 4,
                     (size_t)R_w64 * 64 * 4})
        max_bytes = std::max(max_bytes, b);
    const size_t copy_bytes = target; /* cudaMemcpy reference: 1 GiB */
    const size_t max_words = max_bytes / 4;

    uint32_t *d_in = nullptr, *d_out = nullptr;
    int *d_tiers = nullptr;
    unsigned long long *d_res = nullptr;
    CK(cudaMalloc(&d_in, max_bytes));
    CK(cudaMalloc(&d_out, max_bytes + guard_words * 4));
    CK(cudaMalloc(&d_tiers, 2 * sizeof(int)));
    CK(cudaMalloc(&d_res, 3 * sizeof(unsigned long long)));
    fill_words<<<sms * 8, 256>>>(d_in, max_words, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("input: %.1f MiB of words in +-[0.5, 1.5) (seed %u); output buffer + %zu KiB guard; %d threads/block\n",
           max_bytes / 1048576.0, seed, guard_words * 4 / 1024, NT);

    const tile_exec ex = TILE_GPU(dev);
    std::vector<Variant> vs;

    /* ---- tile.h variants (grid-stride, occupancy-sized grid) ---- */
    auto base = [](const char *name, int tier, const char *dtype, const char *tile, size_t bytes, int epb) {
        Variant v;
        v.name = name;
        v.tier = tier_name(tier);
        v.expect_tier = tier;
        v.want_load = v.want_store = 1 << tier;
        v.dtype = dtype;
        v.tile = tile;
        v.bytes = bytes;
        v.elems_per_tile = epb;
        return v;
    };
    /* variant V of kernel KN launched over GRID (a tile_grid) with the
     * arguments __VA_ARGS__ and then the tier flag */
#define ADD_TILE(V, KN, GRID, ...)                                                                 \
    do {                                                                                           \
        Variant v_ = (V);                                                                          \
        v_.occ = TILE_OCCUPANCY(KN, __VA_ARGS__, (int *)nullptr);                                  \
        const tile_grid g_ = (GRID);                                                               \
        v_.grid = g_.d[0] * g_.d[1];                                                               \
        v_.launch = [=](int *tiers) -> int {                                                       \
            TK(tile_launch(ex, KN, g_, NT, __VA_ARGS__, tiers));                                   \
            return 0;                                                                              \
        };                                                                                         \
        vs.push_back(v_);                                                                          \
    } while (0)

    {   /* f32 R x 1024 */
        const tile_array src = tile_array2(d_in, R_f32, 1024), dst = tile_array2(d_out, R_f32, 1024);
        const size_t by = (size_t)R_f32 * 1024 * 4;
        Variant v = base("shared2d", TILE_TIER_VECTOR, "f32", "32x64", by, 2048);
        v.target_label = "vector tier f32";
        v.target = 0.95;
        ADD_TILE(v, k_f32_s2d_32x64, tile_grid2(R_f32 / 32, 1024 / 64), src, dst);
        ADD_TILE(base("shared2d", TILE_TIER_VECTOR, "f32", "16x64", by, 1024), k_f32_s2d_16x64,
                 tile_grid2(R_f32 / 16, 1024 / 64), src, dst);
        ADD_TILE(base("shared2d", TILE_TIER_VECTOR, "f32", "64x64", by, 4096), k_f32_s2d_64x64,
                 tile_grid2(R_f32 / 64, 1024 / 64), src, dst);
        ADD_TILE(base("shared2d", TILE_TIER_VECTOR, "f32", "128x64", by, 8192), k_f32_s2d_128x64,
                 tile_grid2(R_f32 / 128, 1024 / 64), src, dst);
        ADD_TILE(base("shared2d-aligned", TILE_TIER_VECTOR, "f32", "32x64", by, 2048), k_f32_s2d_32x64_al,
                 tile_grid2(R_f32 / 32, 1024 / 64), src, dst);
        ADD_TILE(base("reg2d", TILE_TIER_SCALAR, "f32", "32x64", by, 2048), k_f32_r2d_32x64,
                 tile_grid2(R_f32 / 32, 1024 / 64), src, dst);
        ADD_TILE(base("shared2d-forcescalar", TILE_TIER_SCALAR, "f32", "32x64", by, 2048), k_f32_s2d_32x64_fs,
                 tile_grid2(R_f32 / 32, 1024 / 64), src, dst);
        /* grid-stride diagnostic: as many blocks as fit at once */
        Variant w = base("shared2d-gridstride", TILE_TIER_VECTOR, "f32", "32x64", by, 2048);
        const int t1 = 1024 / 64, nt = (int)(R_f32 / 32) * t1;
        w.occ = TILE_OCCUPANCY(k_f32_s2d_32x64_gs, src, dst, t1, nt, (int *)nullptr);
        const int grid = (int)std::min<int64_t>(nt, (int64_t)std::max(w.occ, 1) * sms);
        w.grid = grid;
        w.launch = [=](int *tiers) -> int {
            TK(tile_launch(ex, k_f32_s2d_32x64_gs, tile_grid1(grid), NT, src, dst, t1, nt, tiers));
            return 0;
        };
        vs.push_back(w);
    }
    {   /* f32 partial tiles: P0 x 37 (P0 odd), tiles 64x32 (target) and 32x64 */
        const tile_array src = tile_array2(d_in, P0, P1), dst = tile_array2(d_out, P0, P1);
        char tile[64];
        snprintf(tile, sizeof tile, "64x32 of %lldx%d", (long long)P0, P1);
        Variant v = base("shared2d-partial", TILE_TIER_SCALAR, "f32", tile, (size_t)P0 * P1 * 4, 2048);
        v.target_label = "scalar tier f32 partial tiles";
        v.target = 0.70;
        ADD_TILE(v, k_f32_s2d_64x32_part, tile_grid2((P0 + 63) / 64, (P1 + 31) / 32), src, dst);
        snprintf(tile, sizeof tile, "32x64 of %lldx%d", (long long)P0, P1);
        ADD_TILE(base("shared2d-partial", TILE_TIER_SCALAR, "f32", tile, (size_t)P0 * P1 * 4, 2048),
                 k_f32_s2d_32x64_part, tile_grid2((P0 + 31) / 32, (P1 + 63) / 64), src, dst);
    }
    {   /* f32 1D */
        const tile_array src = tile_array1(d_in, n_f32), dst = tile_array1(d_out, n_f32);
        ADD_TILE(base("reg1d", TILE_TIER_SCALAR, "f32", "2048", (size_t)n_f32 * 4, 2048), k_f32_r1d_2048,
                 tile_grid1(n_f32 / 2048), src, dst);
        ADD_TILE(base("shared1d", TILE_TIER_SCALAR, "f32", "2048", (size_t)n_f32 * 4, 2048), k_f32_s1d_2048,
                 tile_grid1(n_f32 / 2048), src, dst);
    }
    {   /* f64 R x 512, tile 32x32 */
        const tile_array src = tile_array2(d_in, R_f64, 512), dst = tile_array2(d_out, R_f64, 512);
        Variant v = base("shared2d", TILE_TIER_VECTOR, "f64", "32x32", (size_t)R_f64 * 512 * 8, 1024);
        v.target_label = "vector tier f64";
        v.target = 0.95;
        ADD_TILE(v, k_f64_s2d_32x32, tile_grid2(R_f64 / 32, 512 / 32), src, dst);
    }
    {   /* vec3f R x 256, tile 32x32 (rows of 384 bytes) */
        const tile_array src = tile_array2(d_in, R_v3, 256), dst = tile_array2(d_out, R_v3, 256);
        Variant v = base("shared2d", TILE_TIER_VECTOR, "vec3f", "32x32", (size_t)R_v3 * 256 * 12, 1024);
        v.target_label = "vector tier vec3f";
        v.target = 0.95;
        ADD_TILE(v, k_v3f_s2d_32x32, tile_grid2(R_v3 / 32, 256 / 32), src, dst);
    }
    {   /* mat33f 1D, tile 256 */
        const tile_array src = tile_array1(d_in, n_m33), dst = tile_array1(d_out, n_m33);
        Variant v = base("shared1d", TILE_TIER_BYTES, "mat33f", "256", (size_t)n_m33 * 36, 256);
        v.target_label = "byte tier mat33f 1D";
        v.target = 0.85;
        ADD_TILE(v, k_m33f_s1d_256, tile_grid1(n_m33 / 256), src, dst);
    }
    {   /* mat33f R x 2, full-width tile 128x2 */
        const tile_array src = tile_array2(d_in, R_m33, 2), dst = tile_array2(d_out, R_m33, 2);
        Variant v = base("shared2d-fullwidth", TILE_TIER_BYTES, "mat33f", "128x2", (size_t)R_m33 * 2 * 36, 256);
        v.target_label = "byte tier mat33f 2D";
        v.target = 0.85;
        ADD_TILE(v, k_m33f_s2d_128x2, tile_grid2(R_m33 / 128, 1), src, dst);
    }
    {   /* mat66f 1D, tile 256 */
        const tile_array src = tile_array1(d_in, n_m66), dst = tile_array1(d_out, n_m66);
        Variant v = base("shared1d", TILE_TIER_BYTES, "mat66f", "256", (size_t)n_m66 * 144, 256);
        v.target_label = "byte tier mat66f 1D";
        v.target = 0.85;
        ADD_TILE(v, k_m66f_s1d_256, tile_grid1(n_m66 / 256), src, dst);
    }
    {   /* full-width tiles, R x 64 f32: each 32x64 tile one contiguous 8 KiB run
         * (the synchronous control for async-bulk below) */
        const tile_array src = tile_array2(d_in, R_w64, 64), dst = tile_array2(d_out, R_w64, 64);
        snprintf(tile_w64, sizeof tile_w64, "32x64 of %lldx64", (long long)R_w64);
        ADD_TILE(base("shared2d-fullwidth", TILE_TIER_VECTOR, "f32", tile_w64, (size_t)R_w64 * 64 * 4, 2048),
                 k_f32_s2d_32x64_fw, tile_grid2(R_w64 / 32, 1), src, dst);
    }
#if defined(TILE_ASYNC_H)
    {   /* async: double-buffered grid-stride, grid = the blocks that fit at once */
        auto add_async = [&](const char *name, const char *tile, tile_array src, tile_array dst, int t1, int nt,
                             size_t by, int want_path) {
            Variant v = base(name, TILE_TIER_VECTOR, "f32", tile, by, 2048);
            v.tier = "async";
            v.want_load = 1 << want_path;
            v.load_is_async = true;
            v.occ = TILE_OCCUPANCY(k_f32_async_32x64, src, dst, t1, nt, (int *)nullptr);
            const int grid = (int)std::min<int64_t>(nt, (int64_t)std::max(v.occ, 1) * sms);
            v.grid = grid;
            v.launch = [=](int *tiers) -> int {
                TK(tile_launch(ex, k_f32_async_32x64, tile_grid1(grid), NT, src, dst, t1, nt, tiers));
                return 0;
            };
            vs.push_back(v);
        };
        /* bulk copies exist in sm_90 code only: which code does this device run? */
        const int arch = TILE_BINARY_VERSION(k_f32_async_32x64, tile_array2(d_in, 1, 1), tile_array2(d_in, 1, 1), 0, 0,
                                             (int *)nullptr);
        add_async("async-vec16", "32x64", tile_array2(d_in, R_f32, 1024), tile_array2(d_out, R_f32, 1024), 1024 / 64,
                  (int)(R_f32 / 32) * (1024 / 64), (size_t)R_f32 * 1024 * 4, TILE_ASYNC_VEC16);
        add_async("async-bulk", tile_w64, tile_array2(d_in, R_w64, 64), tile_array2(d_out, R_w64, 64), 1,
                  (int)(R_w64 / 32), (size_t)R_w64 * 64 * 4, arch >= 90 ? TILE_ASYNC_BULK : TILE_ASYNC_RUN);
        printf("async: include/tile/async.h present; kernel code sm_%d\n", arch);
    }
#else
    printf("async: include/tile/async.h not in this build: no async variants (TODO hook in the source)\n");
#endif
#undef ADD_TILE

    /* ---- CUB peers: the same bytes as the tile variants, flat ---- */
    {
        const char *cv = "cub-vectorize", *cw = "cub-warp-transpose";
        int e = 0;
        e |= add_cub<float, 4, VEC>(vs, cv, "f32", (size_t)n_f32, d_in, d_out);
        e |= add_cub<float, 8, VEC>(vs, cv, "f32", (size_t)n_f32, d_in, d_out);
        e |= add_cub<float, 8, WT>(vs, cw, "f32", (size_t)n_f32, d_in, d_out);
        e |= add_cub<float, 16, VEC>(vs, cv, "f32", (size_t)n_f32, d_in, d_out);
        e |= add_cub<float, 32, VEC>(vs, cv, "f32", (size_t)n_f32, d_in, d_out);
        e |= add_cub<double, 4, VEC>(vs, cv, "f64", (size_t)R_f64 * 512, d_in, d_out);
        e |= add_cub<double, 4, WT>(vs, cw, "f64", (size_t)R_f64 * 512, d_in, d_out);
        e |= add_cub<tile_vec3f, 4, VEC>(vs, cv, "vec3f", (size_t)R_v3 * 256, d_in, d_out);
        e |= add_cub<tile_vec3f, 4, WT>(vs, cw, "vec3f", (size_t)R_v3 * 256, d_in, d_out);
        e |= add_cub<tile_mat33f, 1, VEC>(vs, cv, "mat33f", (size_t)n_m33, d_in, d_out);
        e |= add_cub<tile_mat33f, 1, WT>(vs, cw, "mat33f", (size_t)n_m33, d_in, d_out);
        e |= add_cub<tile_mat66f, 1, VEC>(vs, cv, "mat66f", (size_t)n_m66, d_in, d_out);
        e |= add_cub<tile_mat66f, 1, WT>(vs, cw, "mat66f", (size_t)n_m66, d_in, d_out);
        if (e) return 1;
    }
    /* ---- the reference: cudaMemcpy device to device ---- */
    const int V_COPY = (int)vs.size();
    {
        Variant v;
        v.name = "cudaMemcpy-d2d";
        v.tier = "memcpy";
        v.dtype = "-";
        v.tile = "-";
        v.bytes = copy_bytes;
        uint32_t *in = d_in, *out = d_out;
        v.launch = [=](int *) -> int {
            CK(cudaMemcpyAsync(out, in, copy_bytes, cudaMemcpyDeviceToDevice, 0));
            return 0;
        };
        vs.push_back(v);
    }
    const int V = (int)vs.size();
    printf("arrays: %.1f-%.1f MiB each (read + write = 2x); %d variants; %d warm-up rounds, %d timed reps each%s\n",
           copy_bytes / 1048576.0, max_bytes / 1048576.0, V, o.warmup, o.iters,
           o.iters < 20 ? " (fewer than 20: not a headline run)" : "");

    /* ---- warm-up (module load, clocks) ---- */
    for (int w = 0; w < o.warmup; ++w)
        for (int v = 0; v < V; ++v)
            if (vs[v].launch(nullptr)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaDeviceSynchronize());

    /* ---- correctness ---- */
    unsigned long long res[3];
    auto compare = [&](size_t words) -> int {
        const unsigned long long init[3] = {0, 0, ~0ull};
        CK(cudaMemcpy(d_res, init, sizeof init, cudaMemcpyHostToDevice));
        compare_words<<<sms * 8, 256>>>(d_in, d_out, words, guard_words, d_res);
        CK(cudaGetLastError());
        CK(cudaMemcpy(res, d_res, sizeof res, cudaMemcpyDeviceToHost));
        return 0;
    };
    long bad = 0;
    {   /* negative control: the comparator sees a poisoned output as all wrong */
        CK(cudaMemset(d_out, 0xff, max_bytes + guard_words * 4));
        if (compare(max_words)) return 1;
        const bool ok = res[0] == max_words && res[1] == 0 && res[2] == 0;
        printf("check %-36s %llu of %zu words differ, guard intact: %s\n", "comparator on a poisoned output", res[0],
               max_words, ok ? "ok" : "FAIL");
        bad += !ok;
    }
    {   /* the device fill is the function we think it is (host recomputes a sample) */
        std::vector<uint32_t> h(1 << 16);
        const size_t at = max_words - h.size();
        CK(cudaMemcpy(h.data(), d_in + at, h.size() * 4, cudaMemcpyDeviceToHost));
        long diff = 0;
        for (size_t i = 0; i < h.size(); ++i) {
            float f = 0.5f + tile_hash_unit(seed, (uint32_t)(at + i));
            if (tile_hash32(seed ^ 0x5bd1e995u, (uint32_t)(at + i)) & 1u) f = -f;
            uint32_t w;
            memcpy(&w, &f, 4);
            diff += h[i] != w;
        }
        printf("check %-36s %zu words at the end: %ld differ: %s\n", "input vs host hash", h.size(), diff,
               diff ? "FAIL" : "ok");
        bad += diff != 0;
    }
    for (int v = 0; v < V; ++v) {
        Variant &x = vs[v];
        const size_t words = x.bytes / 4;
        CK(cudaMemset(d_out, 0xff, x.bytes + guard_words * 4));
        CK(cudaMemset(d_tiers, 0, 2 * sizeof(int)));
        if (x.launch(x.want_load ? d_tiers : nullptr)) return 1;
        TK(tile_synchronize(ex)); /* also reports TILE_ERR_ALIGN / arena overflow raised in the kernel */
        CK(cudaDeviceSynchronize());
        int tiers[2] = {0, 0};
        CK(cudaMemcpy(tiers, d_tiers, sizeof tiers, cudaMemcpyDeviceToHost));
        if (compare(words)) return 1;
        const bool data_ok = res[0] == 0 && res[1] == 0;
        const bool tier_ok = !x.want_load || (tiers[0] == x.want_load && tiers[1] == x.want_store);
        x.correct = data_ok && tier_ok;
        char what[96];
        snprintf(what, sizeof what, "%s %s %s", x.name.c_str(), x.dtype.c_str(), x.tile.c_str());
        printf("check %-36s %zu words", what, words);
        if (res[0]) printf(", %llu differ (first at word %llu)", res[0], res[2]);
        if (res[1]) printf(", %llu guard words written", res[1]);
        if (x.want_load)
            printf(", load %s store %s (want %s/%s)", mask_names(tiers[0], x.load_is_async).c_str(),
                   mask_names(tiers[1]).c_str(), mask_names(x.want_load, x.load_is_async).c_str(),
                   mask_names(x.want_store).c_str());
        printf(": %s\n", x.correct ? "ok" : "FAIL");
        bad += !x.correct;
    }

    /* ---- timing: variants interleaved, one event pair around each launch ----
     * The host enqueues everything first and waits once, so it runs ahead of
     * the GPU and host-side launch cost stays out of the per-launch times. */
    std::vector<cudaEvent_t> ev(2 * (size_t)V * o.iters);
    for (auto &e : ev) CK(cudaEventCreate(&e));
    for (int it = 0; it < o.iters; ++it)
        for (int v = 0; v < V; ++v) {
            CK(cudaEventRecord(ev[2 * ((size_t)it * V + v)], 0));
            if (vs[v].launch(nullptr)) return 1;
            CK(cudaEventRecord(ev[2 * ((size_t)it * V + v) + 1], 0));
        }
    CK(cudaEventSynchronize(ev.back()));
    TK(tile_synchronize(ex));
    for (int it = 0; it < o.iters; ++it)
        for (int v = 0; v < V; ++v) {
            float t = 0;
            CK(cudaEventElapsedTime(&t, ev[2 * ((size_t)it * V + v)], ev[2 * ((size_t)it * V + v) + 1]));
            vs[v].ms.push_back(t);
        }
    for (auto &e : ev) CK(cudaEventDestroy(e));

    /* ---- statistics ---- */
    for (auto &x : vs) {
        const Stat s = stats(x.ms);
        x.median = s.median;
        x.min = s.min;
        x.max = s.max;
        x.gbps = gbps(2.0 * (double)x.bytes, x.median);
    }
    for (auto &x : vs) x.frac = x.gbps / vs[V_COPY].gbps;
    for (auto &x : vs) { /* peer: the fastest CUB kernel of the same element type and tile size */
        if (x.is_cub || !x.expect_tier) continue;
        for (int p = 0; p < V; ++p)
            if (vs[p].is_cub && vs[p].dtype == x.dtype && vs[p].elems_per_tile == x.elems_per_tile &&
                (x.peer < 0 || vs[p].gbps > vs[x.peer].gbps))
                x.peer = p;
        if (x.peer >= 0) x.peer_ratio = x.gbps / vs[x.peer].gbps;
    }

    /* ---- table ---- */
    printf("\n%-22s %-7s %-6s %-22s %8s %6s %9s %9s %9s %7s %11s %-30s %7s %s\n", "variant", "tier", "dtype", "tile", "blocks", "per_SM",
           "median_ms", "min_ms", "max_ms", "GB/s", "frac_memcpy", "peer", "vs_peer", "check");
    for (auto &x : vs) {
        char blocks[32] = "-", occ[16] = "-", peer[64] = "-", ratio[16] = "-";
        if (x.grid) snprintf(blocks, sizeof blocks, "%lld", (long long)x.grid);
        if (x.occ) snprintf(occ, sizeof occ, "%d", x.occ);
        if (x.peer >= 0) {
            snprintf(peer, sizeof peer, "%s %s", vs[x.peer].name.c_str(), vs[x.peer].tile.c_str());
            snprintf(ratio, sizeof ratio, "%.3f", x.peer_ratio);
        }
        printf("%-22s %-7s %-6s %-22s %8s %6s %9.4f %9.4f %9.4f %7.1f %11.3f %-30s %7s %s\n", x.name.c_str(),
               x.tier.c_str(), x.dtype.c_str(), x.tile.c_str(), blocks, occ, x.median, x.min, x.max, x.gbps, x.frac,
               peer, ratio, x.correct ? "ok" : "FAIL");
    }
    printf("(GB/s: (read + write bytes) / median time, 1e9 B/s; frac_memcpy: GB/s over cudaMemcpy d2d's; vs_peer: "
           "over the fastest CUB kernel of the same dtype and items per tile)\n");
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    bool all_pass = true;
    for (auto &x : vs) {
        if (x.target_label.empty()) continue;
        const bool pass = print_target((x.target_label + " / memcpy").c_str(), x.frac, ">=", x.target, 2, x.correct);
        all_pass = all_pass && pass;
    }

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,tier,dtype,tile,bytes,median_ms,gbps,frac_memcpy,peer,peer_ratio,"
                   "correct\n");
        for (auto &x : vs) {
            std::string peer = x.peer >= 0 ? vs[x.peer].name + " " + vs[x.peer].tile : "";
            char ratio[32] = "";
            if (x.peer >= 0) snprintf(ratio, sizeof ratio, "%.4f", x.peer_ratio);
            fprintf(f, "%s,%s,\"%s\",%s,%s,%s,%s,%.0f,%.5f,%.2f,%.4f,%s,%s,%s\n", date, commit, prop.name,
                    x.name.c_str(), x.tier.c_str(), x.dtype.c_str(), x.tile.c_str(), 2.0 * (double)x.bytes, x.median,
                    x.gbps, x.frac, peer.c_str(), ratio, x.correct ? "PASS" : "FAIL");
        }
        if (csv_close(f, o.csv)) return 1;
    }

    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    CK(cudaFree(d_tiers));
    CK(cudaFree(d_res));
    if (bad) return 1;
    if (o.strict && !all_pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run); }
