/* tile/launch.h - kernels and launches on the GPU or the CPU.
 *
 * A kernel is defined once with its block size and at least one parameter:
 *
 *   TILE_KERNEL(row_sum, 64, const float *a, float *b) {
 *       int i = tile_block(0);
 *       ...
 *   }
 *
 * and launched on any target; the call returns a tile_error code:
 *
 *   int err = tile_launch(TILE_GPU(0), row_sum, tile_grid1(n), 64, a, b);
 *   int err = tile_launch(TILE_CPU, row_sum, tile_grid1(n), 64, a, b);
 *
 * tile_launch is a tiled launch (Warp's launch_tiled): the grid counts tiles
 * and each gets a block. tile_launch_simt counts threads (Warp's launch with
 * block_dim): ceil(n / block) blocks, and the threads past n in the last
 * block do not run the body (as in Warp).
 *
 * Schedules (docs/launch.md): by default the GPU gets one block per logical
 * block. tile_launch_persistent / tile_launch_simt_persistent start resident
 * blocks (tile_exec_persistent: how many per SM; default as many as fit)
 * that walk the logical blocks in a grid-stride loop; the body is unchanged,
 * tile_block(k) / tile_tid(k) name the logical tile and the arena starts
 * empty for each one.
 *
 * How the one source reaches both targets: the body becomes a
 * __host__ __device__ function with a hidden parameter of type char(*)[B]
 * whose sizeof is the block size on the device (TILE_BLOCK_DIM); on the host
 * TILE_BLOCK_DIM is 1. On the GPU a generic __global__ wrapper calls it once
 * per logical block it owns; on the CPU the launch loops over the blocks. The
 * block size given at launch must equal the kernel's, also for the CPU, where
 * it is then forced to 1. Launch arguments are evaluated once per CPU block:
 * pass plain values.
 */
#ifndef TILE_LAUNCH_H
#define TILE_LAUNCH_H

#include <stdlib.h>
#include "smem.h"

/* Where and how a kernel runs. Build with tile_cpu()/tile_gpu(n), refine with
 * tile_exec_stream / tile_exec_smem / tile_exec_persistent. */
typedef struct tile_exec {
    int device;        /* -1: CPU, n >= 0: GPU n */
    size_t smem_bytes; /* dynamic arena bytes on top of the kernel's own */
    void *stream;      /* cudaStream_t, 0 = default stream */
    int persistent;    /* resident blocks per SM of a persistent launch: 0 unset,
                          > 0 that many, TILE_PERSISTENT_FIT as many as fit */
    int max_resident;  /* at most this many blocks an SM (GPU; 0: no cap) */
} tile_exec;

TILE_HOST_API tile_exec tile_cpu(void) { tile_exec e = {-1, 0, 0, 0, 0}; return e; }
TILE_HOST_API tile_exec tile_gpu(int n) { tile_exec e = {n, 0, 0, 0, 0}; return e; }
TILE_HOST_API tile_exec tile_exec_stream(tile_exec e, void *stream) { e.stream = stream; return e; }
TILE_HOST_API tile_exec tile_exec_smem(tile_exec e, size_t bytes) { e.smem_bytes = bytes; return e; }

/* tile_exec_persistent(e, blocks_per_sm): how many resident blocks per SM a
 * persistent launch (tile_launch_persistent, below) starts: blocks_per_sm >
 * 0 that many, 0 as many as fit (cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * for the kernel, its block size and arena; also the default of a persistent
 * launch); < 0 makes the launch return TILE_ERR_ARG, and so does the setting
 * on a launch of the default schedule (tile_launch, tile_launch_simt), which
 * would not honour it. The CPU target ignores the count.
 *   tile_launch_persistent(tile_exec_persistent(TILE_GPU(0), 8), row_sum, tile_grid1(1 << 20), 64, a, b)
 *     -> 8 x 132 = 1056 blocks on an H100, each summing ~993 rows
 * TILE_PERSISTENT_FIT is the stored value of "as many as fit";
 * tile_exec_persistent_off(e) clears the setting (e for default launches):
 *   tile_exec_persistent(TILE_GPU(0), 0).persistent == TILE_PERSISTENT_FIT
 *   tile_exec_persistent_off(tile_exec_persistent(TILE_GPU(0), 8)).persistent == 0 */
#define TILE_PERSISTENT_FIT (-1)
TILE_HOST_API tile_exec tile_exec_persistent(tile_exec e, int blocks_per_sm) {
    e.persistent = blocks_per_sm > 0 ? blocks_per_sm : blocks_per_sm == 0 ? TILE_PERSISTENT_FIT : -2;
    return e;
}
TILE_HOST_API tile_exec tile_exec_persistent_off(tile_exec e) { e.persistent = 0; return e; }

/* tile_exec_max_resident(e, n): at most n blocks of the kernel resident on an
 * SM at once (n >= 1; 0, the default: as many as the kernel's registers,
 * threads and shared memory allow; n < 0: the launch returns TILE_ERR_ARG).
 * GPU launches only (default and persistent schedules); the CPU target
 * ignores it. How: the launch adds dynamic shared memory that the kernel
 * never sees (its arena is unchanged) until n + 1 blocks no longer fit.
 * Why: a memory-bound kernel whose blocks each move a large tile drains its
 * last partial wave of blocks more slowly the more blocks an SM holds; e.g.
 * select_bench's tile_flag_heads (256 threads x 16 ints a block, 2^14
 * blocks, 8 resident an SM by default) goes from 0.986 to 1.003 of CUB's
 * BlockDiscontinuity with n = 4 (bench/results/2026-11-25-h100-select-wgmma-689621c-bench.txt).
 * Latency-bound kernels want the opposite: measure before capping.
 *   tile_launch(tile_exec_max_resident(TILE_GPU(0), 4), heads, tile_grid1(1 << 14), 256, a, b)
 *     -> at most 4 x 132 blocks run at once on an H100 */
TILE_HOST_API tile_exec tile_exec_max_resident(tile_exec e, int n) {
    e.max_resident = n >= 0 ? n : -1;
    return e;
}
#define TILE_CPU tile_cpu()
#define TILE_GPU(n) tile_gpu(n)

/* Launch grid of 1 to 4 dims. */
typedef struct tile_grid {
    int ndim;
    int64_t d[4];
} tile_grid;
TILE_HOST_API tile_grid tile_grid1(int64_t a) { tile_grid g = {1, {a, 1, 1, 1}}; return g; }
TILE_HOST_API tile_grid tile_grid2(int64_t a, int64_t b) { tile_grid g = {2, {a, b, 1, 1}}; return g; }
TILE_HOST_API tile_grid tile_grid3(int64_t a, int64_t b, int64_t c) { tile_grid g = {3, {a, b, c, 1}}; return g; }
TILE_HOST_API tile_grid tile_grid4(int64_t a, int64_t b, int64_t c, int64_t d) {
    tile_grid g = {4, {a, b, c, d}};
    return g;
}

/* Text for an error code.
 *   tile_error_string(TILE_ERR_BLOCK_DIM) -> "launch block size differs from the kernel's block size" */
TILE_HOST_API const char *tile_error_string(int err) {
    switch (err) {
    case TILE_OK: return "no error";
    case TILE_ERR_BLOCK_DIM: return "launch block size differs from the kernel's block size";
    case TILE_ERR_GRID: return "invalid grid: each of 1..4 dims must be >= 1, blocks <= 2^31-1";
    case TILE_ERR_DEVICE: return "no such GPU device";
    case TILE_ERR_NO_CUDA: return "GPU launch in a build without CUDA (compile with nvcc)";
    case TILE_ERR_SMEM: return "shared-memory arena exceeds the device's per-block limit";
    case TILE_ERR_SMEM_OVERFLOW:
        return "kernel allocated more shared memory than its arena holds: the blocks stopped at that allocation "
               "(a TILE_DEBUG build names it and its size; raise the TILE_KERNEL_SMEM bytes or tile_exec_smem)";
    case TILE_ERR_NOMEM: return "host memory allocation failed";
    case TILE_ERR_CUDA: return "CUDA runtime error (see tile_last_cuda_error)";
    case TILE_ERR_ARG: return "invalid argument";
    case TILE_ERR_ALIGN: return "a tile load/store promised 16-byte alignment but was misaligned (scalar tier used)";
    case TILE_ERR_CUBLAS: return "cuBLAS call failed (tile_host_last_status() has its status)";
    case TILE_ERR_CUFFT: return "cuFFT call failed (tile_host_last_status() has its result code)";
    case TILE_ERR_CUSOLVER: return "cuSOLVER call failed (tile_host_last_status() has its status)";
    case TILE_ERR_NOT_SPD: return "a matrix was not positive definite: its info slot holds the failing column (1-based)";
    case TILE_ERR_DISABLED: return "the backing NVIDIA library was compiled out (TILE_NO_CUBLAS / TILE_NO_CUFFT / TILE_NO_CUSOLVER)";
    default: return "unknown tile.h error";
    }
}

static int tile__cuda_err; /* last cudaError_t seen by a host call */
/* The CUDA runtime's code behind the last TILE_ERR_CUDA (0 if none). */
TILE_HOST_API int tile_last_cuda_error(void) { return tile__cuda_err; }

/* ---- coordinates inside a kernel body ----
 * tile_tid(k):   coordinate k of the calling thread in the launch grid. For a
 *                tiled launch of grid (M, N) the grid is (M, N, block): k < 2
 *                gives the tile, k == 2 the thread (0 on the CPU).
 * tile_block(k): coordinate k of the calling block's tile (tiled launch).
 * tile_block_linear(): the logical block's linear index (under the persistent
 *                schedule not blockIdx.x: the wrapper sets it per logical
 *                block in the context, field cpu_block, on both targets). */
#define tile_block_linear() (tile__k.cpu_block)
#define tile__linear_tid() (tile_block_linear() * TILE_BLOCK_DIM + tile_thread())
#define tile_tid(k) tile__coord(&tile__k, tile_block_linear(), TILE_BLOCK_DIM, tile_thread(), (k))
#define tile_block(k) tile__block_coord(&tile__k, tile_block_linear(), (k))
#define tile_grid_dim(k) ((int)tile__k.dim[(k)])

/* Coordinates use 32-bit division when the launch allows it, and none at all
 * for a unit stride: the load addresses of a tile wait on these. */
TILE_API int tile__coord(const tile_kctx *k, int64_t block, int bd, int tid, int d) {
    if (k->small) {
        uint32_t lin = (uint32_t)block * (uint32_t)bd + (uint32_t)tid;
        uint32_t st = (uint32_t)k->stride[d];
        uint32_t q = st == 1 ? lin : lin / st;
        return (int)(d == 0 ? q : q % (uint32_t)k->dim[d]);
    }
    int64_t lin = block * bd + tid;
    return (int)((lin / k->stride[d]) % k->dim[d]);
}
TILE_API int tile__block_coord(const tile_kctx *k, int64_t block, int d) {
    uint32_t b = (uint32_t)block, st = k->bstride[d];
    uint32_t q = st == 1 ? b : b / st;
    return (int)(d == 0 ? q : q % (uint32_t)k->dim[d]);
}

/* ---- kernel definition ---- */
#define TILE_KERNEL(name, block, ...) TILE_KERNEL_SMEM(name, block, 0, __VA_ARGS__)
/* A kernel with an arena of `smem` bytes for shared tiles (compile-time
 * checked against TILE_MAX_SMEM_BYTES). */
#define TILE_KERNEL_SMEM(name, block, smem, ...) TILE_KERNEL_SMEM_BOUNDS(name, block, smem, 0, __VA_ARGS__)
/* TILE_KERNEL_SMEM_BOUNDS(name, block, smem, min_blocks_per_sm, params...):
 * TILE_KERNEL_SMEM whose GPU wrapper also asks the compiler to fit
 * `min_blocks_per_sm` resident blocks an SM (__launch_bounds__(block,
 * min_blocks_per_sm): registers capped at 65536 / (block * min) a thread,
 * rounded down to the allocation granule). 0 is TILE_KERNEL_SMEM's default
 * (the compiler's heuristic; 1 for blocks over 512 threads). The CPU target
 * ignores it. Suppose a 256-thread kernel needs 160 registers: alone it gets
 * one block an SM; with min_blocks_per_sm = 2 it is compiled into <= 128
 * registers a thread (spilling if it cannot: check ptxas -v) and two blocks
 * fit when the shared memory does.
 *   TILE_KERNEL_SMEM_BOUNDS(gemm, 256, 64 * 1024, 2, const float *a, float *c) { ... } */
#define TILE_KERNEL_SMEM_BOUNDS(name, block, smem, min_blocks_per_sm, ...)        \
    TILE__STATIC_ASSERT((block) >= 1 && (block) <= 1024, "tile.h: block size must be 1..1024"); \
    TILE__STATIC_ASSERT((smem) >= 0 && (smem) <= TILE_MAX_SMEM_BYTES,              \
                        "tile.h: kernel arena exceeds TILE_MAX_SMEM_BYTES");        \
    TILE__STATIC_ASSERT((min_blocks_per_sm) >= 0 && (min_blocks_per_sm) <= 32,     \
                        "tile.h: TILE_KERNEL_SMEM_BOUNDS: min_blocks_per_sm must be 0..32"); \
    enum { name##__block = (block), name##__smem = (smem), name##__minb = (min_blocks_per_sm) }; \
    TILE__UNUSED static TILE_HD inline void name##__body(TILE__UNUSED tile_kctx tile__k, \
                                            TILE__UNUSED char (*tile__bd)[block], __VA_ARGS__)

/* TILE_KERNEL_GPU_FUNC(name, param types...): the __global__ function a tiled
 * tile_launch of kernel `name` runs (nvcc builds only), for CUDA runtime
 * queries such as occupancy and attributes; give the kernel's parameter types.
 * Benches used to name the internal wrapper template, whose parameters change.
 *   TILE_KERNEL(row_sum, 64, const float *a, float *b) { ... }
 *   cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, TILE_KERNEL_GPU_FUNC(row_sum, const float *, float *), 64, 0) */
#define TILE_KERNEL_GPU_FUNC(name, ...) (tile__kernel<&name##__body, name##__block, name##__minb, 0, __VA_ARGS__>)
/* TILE_KERNEL_GPU_FUNC_OF(name, args...): the same, the parameter types
 * deduced from launch arguments as tile_launch deduces them (a C++ template,
 * CUDA-only like the wrapper itself). */
#define TILE_KERNEL_GPU_FUNC_OF(name, ...) tile__kernel_of<&name##__body, name##__block, name##__minb>(__VA_ARGS__)

/* ---- reusable functions over tiles (docs/launch.md, docs/design.md) ----
 * TILE_FN(name, block, params...) { ... TILE_FN_RETURN; } defines an ordinary
 * function (forced inline, both targets) that may do everything a kernel
 * body does: declare register and shared tiles, call cooperative operations,
 * allocate from the arena, call other TILE_FN functions. It gets the
 * caller's kernel context and block-size parameter as hidden arguments, so
 * call it with tile_call from a kernel body (or another TILE_FN):
 *
 *   typedef TILE_FN_REG_T(float, 64, 256) row64;     // a tile type both share
 *   TILE_FN(row_mean64, 64, row64 *t, float *mean) {  // (not const: see below)
 *       tile_sum(s, *t);
 *       *mean = tile_value(s) / 256.0f;
 *       TILE_FN_RETURN;
 *   }
 *   TILE_KERNEL(k, 64, const float *a, float *out) {
 *       row64 t;
 *       tile_load(t, tile_array1(a + 256 * tile_block(0), 256), 0);
 *       float m;
 *       tile_call(row_mean64, &t, &m);
 *       ...
 *   }
 * Suppose row 0 of a holds 0, 1, ..., 255: m = 127.5 in every thread.
 *
 * The context travels by value and comes back through TILE_FN_RETURN, which
 * must end every path of the function: the caller continues with the
 * callee's arena offset, reduction-scratch round and async-copy state. A path
 * that ends without it (a plain `return`, or an arena overflow inside the
 * function, which ends it at the allocation as it ends a kernel body) ends
 * the calling body too, at the tile_call (a TILE_DEBUG build asserts when the
 * cause was a missing TILE_FN_RETURN). Shared tiles a function declares stay
 * allocated after it returns (bracket with tile_smem_mark / release to free).
 * A TILE_FN takes at least one parameter of its own (as a kernel does).
 * Tile parameters are non-const pointers: the reductions copy their
 * operand's element type, qualifiers included, and cannot fold a const one.
 *
 * `block` must be the calling kernel's block size: the hidden parameter's
 * type char(*)[block] makes a mismatch a compile-time error (incompatible
 * pointer types). A register tile's slot count is ceil(N / block), part of its
 * type, and C has no compile-time parameters: a function for kernels of
 * several block sizes is stamped once per size by a macro (see
 * examples/reusable_tiles.cu and docs/design.md). On the CPU every block size
 * runs as 1, as in kernels. */
/* TILE_FN_REG_T(T, block, dims...) / TILE_FN_SHARED_T(T, block, dims...):
 * register / shared tile types to name outside kernel bodies (file scope,
 * TILE_FN signatures), for kernels of block size `block`. The device pass
 * stripes them over `block` threads, the host pass (the CPU target) over 1,
 * as tile_reg / tile_shared do inside a body (TILE_BLOCK_DIM); TILE_REG_T
 * with a literal block would give the CPU target the wrong slots.
 *   typedef TILE_FN_REG_T(float, 64, 256) row64;   // 4 slots a thread on the GPU, 256 on the CPU */
#if TILE_ON_DEVICE
#define TILE__PASS_BLOCK(block) (block)
#else
#define TILE__PASS_BLOCK(block) 1
#endif
#define TILE_FN_REG_T(T, block, ...) TILE__REG_TYPE(T, TILE__PASS_BLOCK(block), __VA_ARGS__)
#define TILE_FN_SHARED_T(T, block, ...) TILE__SHARED_TYPE(T, TILE__PASS_BLOCK(block), __VA_ARGS__)
typedef struct tile__fnret {
    tile_kctx k;
    int done;
} tile__fnret;
#define TILE_FN(name, block, ...)                                                  \
    TILE__STATIC_ASSERT((block) >= 1 && (block) <= 1024, "tile.h: TILE_FN block size must be 1..1024"); \
    TILE__UNUSED TILE_API void name(TILE__UNUSED tile_kctx tile__k, TILE__UNUSED char (*tile__bd)[block], \
                                    TILE__UNUSED tile__fnret *tile__ret, __VA_ARGS__)
/* the end of every path through a TILE_FN function */
#define TILE_FN_RETURN                                                             \
    do {                                                                           \
        tile__ret->k = tile__k;                                                    \
        tile__ret->done = 1;                                                       \
        return;                                                                    \
    } while (0)
/* an overflow stopped the function (device debug builds trap at the overflow
 * itself, so there only a missing TILE_FN_RETURN gets this far) */
#if TILE_ON_DEVICE
#define TILE__FN_OVERFLOWED() 0
#else
#define TILE__FN_OVERFLOWED() (tile__host_err == TILE_ERR_SMEM_OVERFLOW)
#endif
/* tile_call(fn, args...): call a TILE_FN function from a kernel body or a
 * TILE_FN function (cooperative when fn is: every thread of the block). */
#define tile_call(fn, ...)                                                         \
    do {                                                                           \
        tile__fnret tile__r;                                                       \
        tile__r.done = 0;                                                          \
        fn(tile__k, tile__bd, &tile__r, __VA_ARGS__);                              \
        if (!tile__r.done) {                                                       \
            TILE_ASSERT(TILE__FN_OVERFLOWED() &&                                   \
                        "tile_call: the function ended without TILE_FN_RETURN");   \
            return;                                                                \
        }                                                                          \
        tile__k = tile__r.k;                                                       \
    } while (0)

/* ---- launch machinery ---- */
typedef struct tile__launch_t {
    tile_kctx k;
    int gpu, prev_device, block, device, persistent, max_resident;
    int64_t nblocks, nthreads; /* logical blocks; threads that run the body (GPU) */
    size_t smem;
    void *stream;
    void *cpu_arena;
} tile__launch_t;

#if TILE_CUDA
#include <atomic> /* the launch path's answers kept across threads (tile__fcache) */
/* C++ in the launch path: a __global__ wrapper generic over the kernel body and
 * its parameter types. CUDA C has no other way to forward an arbitrary
 * parameter list from a kernel to a __host__ __device__ function without the
 * user naming the parameters twice. */
/* Blocks over 512 threads ask for one resident block per SM: left to itself,
 * ptxas squeezes a 1024-thread kernel into 32 registers so that two blocks
 * fit, and spills when it needs a few more (promise 2). A minimum of 0 is
 * the default heuristic for smaller blocks. */
/* Default schedule: one block per logical block (blockIdx.x). A SIMT launch
 * whose thread count is not a multiple of B has a partial last block: its
 * threads past the count (threadIdx.x >= last_threads) leave before the body,
 * as in Warp. */
template <auto F, int B, int MINB, int SIMT, class... A>
__global__ void __launch_bounds__(B, MINB ? MINB : B > 512 ? 1 : 0) tile__kernel(tile_kctx k, unsigned last_threads, A... a) {
    extern __shared__ __align__(16) unsigned char tile__smem_dyn[];
    /* tiled launches have no partial block: no test (this one early exit took
     * a matmul_bench kernel from 124 registers to 224) */
    if constexpr (SIMT) {
        if (blockIdx.x + 1u == gridDim.x && threadIdx.x >= last_threads) return;
    } else {
        (void)last_threads;
    }
    k.smem = tile__smem_dyn;
    k.cpu_block = (int64_t)blockIdx.x;
    F(k, (char(*)[B])0, a...);
}
/* the default wrapper's address for launch argument values (types deduced) */
template <auto F, int B, int MINB, class... A>
static inline void (*tile__kernel_of(A...))(tile_kctx, unsigned, A...) {
    return tile__kernel<F, B, MINB, 0, A...>;
}
/* Persistent schedule: resident blocks walk the logical blocks b =
 * blockIdx.x, + gridDim.x, ... below nblocks. Each gets a fresh copy of the
 * context (empty arena) and the body runs once for it, so a `return` in the
 * body (or an arena overflow) ends only that logical block. Two logical
 * blocks of one resident block are separated by a wait for the thread's
 * cp.async copies and a barrier: the next one reuses the arena and the
 * reduction scratch. No barrier follows a block's last logical block, so the
 * partial SIMT block (the last one), whose threads past the count skip the
 * body, never meets one. A separate wrapper, instantiated only by the
 * persistent launch macros: a loop around an inlined body lets the compiler
 * hoist work out of it, which costs registers (two matmul_bench kernels went
 * from 104 and 124 registers to 255, one spilling) that default launches must
 * not pay. 32-bit counters: nblocks < 2^31, so b + gridDim.x < 2^32. */
template <auto F, int B, int MINB, class... A>
__global__ void __launch_bounds__(B, MINB ? MINB : B > 512 ? 1 : 0) tile__kernel_persistent(tile_kctx k, unsigned nblocks,
                                                                              unsigned last_threads, A... a) {
    extern __shared__ __align__(16) unsigned char tile__smem_dyn[];
#if __CUDA_ARCH__ >= 900
    /* the bulk-copy ring (async.h) is set up once here: logical blocks after
     * the first read each slot's phase instead of re-initializing a live
     * mbarrier (kb.async_init = 2). 64 bytes of shared memory. */
    if (threadIdx.x == 0) tile__async_ring_init();
    __syncthreads();
#endif
    for (unsigned b = blockIdx.x; b < nblocks; b += gridDim.x) {
        if (b + 1u < nblocks || threadIdx.x < last_threads) {
            tile_kctx kb = k; /* k itself stays the parameter (read from the parameter bank) */
            kb.smem = tile__smem_dyn;
            kb.cpu_block = (int64_t)b;
#if __CUDA_ARCH__ >= 900
            kb.async_init = 2;
#endif
            F(kb, (char(*)[B])0, a...);
        }
        if (b + gridDim.x < nblocks) {
#if __CUDA_ARCH__ >= 800
            asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
            __syncthreads();
        }
    }
}
/* The launch path's questions to the runtime, answered once per kernel
 * wrapper and device (devices 0..15; others ask every launch): the kernel's
 * static shared memory + 1 (0: not asked yet) and the dynamic limit raised
 * so far. cudaFuncGetAttributes on every launch cost more host time than a
 * small kernel runs (docs/launch.md). */
#define TILE__FC_DEVS 16
typedef struct tile__fcache {
    std::atomic<long long> stat1[TILE__FC_DEVS], dyn[TILE__FC_DEVS];
} tile__fcache;
/* The device count and each device's opt-in shared memory a block and SM
 * count, asked once (none changes in a process): with the current device's
 * query and restore they were a launch's host time beside the launch itself
 * (H200: 0.17 us of begin + end, a third of it these two) */
typedef struct tile__devq_t {
    std::atomic<int> count1;                /* the count + 1 (0: not asked yet) */
    std::atomic<int> optin[TILE__FC_DEVS]; /* bytes (0: not asked yet) */
    std::atomic<int> sms1[TILE__FC_DEVS];  /* the SM count + 1 (0: not asked yet) */
} tile__devq_t;
static inline tile__devq_t *tile__devq_get(void) {
    static tile__devq_t q; /* zero before any use (static storage) */
    return &q;
}
/* device dev's SM count, -1 where the runtime does not answer (its error
 * cleared: the launch that follows reports a bad device) */
static inline int tile__dev_sms(int dev) {
    const int cd = dev >= 0 && dev < TILE__FC_DEVS;
    int s = cd ? tile__devq_get()->sms1[dev].load(std::memory_order_relaxed) - 1 : -1;
    if (s < 0) {
        if (cudaDeviceGetAttribute(&s, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
            (void)cudaGetLastError();
            return -1;
        }
        if (cd) tile__devq_get()->sms1[dev].store(s + 1, std::memory_order_relaxed);
    }
    return s;
}
/* Before a launch of kf: *pad, the dynamic shared memory the kernel never
 * sees so that at most L->max_resident blocks fit an SM (a block takes its
 * static + dynamic + the reserved bytes, and cap + 1 of them must pass the
 * SM's shared memory: tile_exec_max_resident); then the dynamic limit
 * raised where static shared memory (scratch, TILE_STATIC_SMEM) and the
 * arena with its pad pass the 48 KiB default. fresh: ask, ignoring the
 * answers kept (the retry of a launch that failed with them: a
 * cudaDeviceReset drops the raised limit). */
static inline cudaError_t tile__gpu_prep(const void *kf, tile__fcache *c, const tile__launch_t *L, int fresh,
                                         size_t *pad) {
    const int dev = L->device, cap = L->max_resident, cd = dev >= 0 && dev < TILE__FC_DEVS;
    const long long v = cd && !fresh ? c->stat1[dev].load(std::memory_order_relaxed) : 0;
    size_t st = (size_t)(v - 1);
    cudaError_t e = cudaSuccess;
    *pad = 0;
    if (v <= 0) {
        cudaFuncAttributes fa;
        e = cudaFuncGetAttributes(&fa, kf);
        if (e != cudaSuccess) return e;
        st = fa.sharedSizeBytes;
        if (cd) c->stat1[dev].store((long long)st + 1, std::memory_order_relaxed);
    }
    if (cap > 0) {
        int per_sm = 0, reserved = 0;
        e = cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev);
        if (e != cudaSuccess) return e;
        const size_t need = (size_t)per_sm / (size_t)(cap + 1) + 1, have = st + L->smem + (size_t)reserved;
        if (have < need) *pad = (need - have + 127u) & ~(size_t)127u;
    }
    const size_t smem = L->smem + *pad;
    if (smem + st > 48 * 1024 && (!cd || fresh || c->dyn[dev].load(std::memory_order_relaxed) < (long long)smem)) {
        e = cudaFuncSetAttribute(kf, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e == cudaSuccess && cd) c->dyn[dev].store((long long)smem, std::memory_order_relaxed);
    }
    return e;
}
/* P (a constant): the persistent wrapper; `if constexpr` keeps the other one
 * from being instantiated (each costs a full device compile of the body). */
template <auto F, int B, int MINB, int P, int SIMT, class... A>
static int tile__gpu_launch(tile__launch_t *L, A... a) {
    const unsigned last = (unsigned)(L->nthreads - (L->nblocks - 1) * B); /* threads of the last block: 1..B */
    cudaError_t e;
    size_t pad = 0; /* tile_exec_max_resident */
    static tile__fcache fc; /* one a wrapper instantiation (an inline function's static) */
    for (int fresh = 0;; fresh = 1) {
        if constexpr (!P) {
            void (*kern)(tile_kctx, unsigned, A...) = tile__kernel<F, B, MINB, SIMT, A...>;
            e = tile__gpu_prep((const void *)kern, &fc, L, fresh, &pad);
            if (e == cudaSuccess) {
                kern<<<(unsigned)L->nblocks, B, L->smem + pad, (cudaStream_t)L->stream>>>(L->k, last, a...);
                e = cudaGetLastError();
            }
        } else {
            void (*kern)(tile_kctx, unsigned, unsigned, A...) = tile__kernel_persistent<F, B, MINB, A...>;
            int per_sm = L->persistent, sms = 0;
            int64_t grid = L->nblocks;
            e = tile__gpu_prep((const void *)kern, &fc, L, fresh, &pad);
            if (e == cudaSuccess && per_sm <= 0) { /* as many as fit */
                e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, B, L->smem + pad);
                if (per_sm < 1) per_sm = 1; /* the launch reports what does not fit */
            }
            if (e == cudaSuccess && L->max_resident > 0 && per_sm > L->max_resident) per_sm = L->max_resident;
            if (e == cudaSuccess && (sms = tile__dev_sms(L->device)) < 0) e = cudaErrorInvalidDevice; /* cached */
            if (e == cudaSuccess) {
                if ((int64_t)per_sm * sms < grid) grid = (int64_t)per_sm * sms;
                kern<<<(unsigned)grid, B, L->smem + pad, (cudaStream_t)L->stream>>>(L->k, (unsigned)L->nblocks, last, a...);
                e = cudaGetLastError();
            }
        }
        if (e == cudaSuccess || fresh) break;
    }
    return (int)e;
}
#define TILE__GPU_CALL(name, mode, ...) \
    tile__gpu_launch<&name##__body, name##__block, name##__minb, ((mode) >= 2), !((mode)&1)>(&tile__L, __VA_ARGS__)
#else
#define TILE__GPU_CALL(name, mode, ...) 0
#endif

TILE_HOST_API int tile__launch_begin(tile__launch_t *L, tile_exec ex, tile_grid g, int block, int mode,
                                     int kblock, size_t ksmem) {
    const int tiled = mode & 1;
    memset(L, 0, sizeof(*L));
    if (block != kblock) return TILE_ERR_BLOCK_DIM;
    if (g.ndim < 1 || g.ndim > 4) return TILE_ERR_GRID;
    int64_t total = 1;
    for (int i = 0; i < g.ndim; ++i) {
        if (g.d[i] < 1 || g.d[i] > INT32_MAX) return TILE_ERR_GRID;
        total *= g.d[i];
        if (total > ((int64_t)1 << 40)) return TILE_ERR_GRID;
    }
    L->gpu = ex.device >= 0;
    int bd = L->gpu ? block : 1; /* the CPU target forces block_dim = 1 */
    L->block = bd;
    L->k.tiled = tiled;
    L->k.ndim = g.ndim + (tiled ? 1 : 0);
    for (int i = 0; i < g.ndim; ++i) L->k.dim[i] = g.d[i];
    if (tiled) L->k.dim[g.ndim] = bd;
    int64_t s = 1;
    for (int i = L->k.ndim - 1; i >= 0; --i) {
        L->k.stride[i] = s;
        s *= L->k.dim[i];
    }
    {
        uint32_t bs = 1;
        for (int i = 3; i >= 0; --i) {
            L->k.bstride[i] = bs;
            bs *= (uint32_t)g.d[i];
        }
    }
    L->k.small = s <= (int64_t)UINT32_MAX;
    /* a SIMT count that is not a multiple of the block size gets a partial
     * last block whose threads past the count skip the body (Warp); on the
     * CPU (block_dim 1) there is no partial block */
    L->nblocks = tiled ? total : (total + bd - 1) / bd;
    L->nthreads = tiled ? total * bd : total;
    if (L->nblocks > INT32_MAX) return TILE_ERR_GRID;
    /* blocks per SM: only the persistent launches read it */
    if (ex.persistent < TILE_PERSISTENT_FIT || (ex.persistent && mode < 2)) return TILE_ERR_ARG;
    if (ex.max_resident < 0) return TILE_ERR_ARG;
    L->persistent = ex.persistent;
    L->max_resident = ex.max_resident;
    L->device = ex.device;
    L->smem = ksmem + ex.smem_bytes;
    if (L->smem > 0xffffffffu) return TILE_ERR_SMEM;
    L->k.smem_cap = (uint32_t)L->smem;
    L->stream = ex.stream;
    if (L->gpu) {
#if TILE_CUDA
        tile__devq_t *dq = tile__devq_get();
        int n = dq->count1.load(std::memory_order_relaxed) - 1, optin = 0;
        if (n < 0) {
            cudaError_t e = cudaGetDeviceCount(&n);
            if (e != cudaSuccess) { tile__cuda_err = (int)e; return TILE_ERR_DEVICE; }
            dq->count1.store(n + 1, std::memory_order_relaxed);
        }
        if (ex.device >= n) return TILE_ERR_DEVICE;
        cudaGetDevice(&L->prev_device);
        if (L->prev_device != ex.device) cudaSetDevice(ex.device);
        const int cd = ex.device < TILE__FC_DEVS;
        optin = cd ? dq->optin[ex.device].load(std::memory_order_relaxed) : 0;
        if (optin <= 0 &&
            cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, ex.device) == cudaSuccess && cd)
            dq->optin[ex.device].store(optin, std::memory_order_relaxed);
        if (L->smem > (size_t)optin) {
            if (L->prev_device != ex.device) cudaSetDevice(L->prev_device);
            return TILE_ERR_SMEM;
        }
        return TILE_OK;
#else
        return TILE_ERR_NO_CUDA;
#endif
    }
    if (L->smem) {
        L->cpu_arena = aligned_alloc(16, (L->smem + 15u) & ~(size_t)15u);
        if (!L->cpu_arena) return TILE_ERR_NOMEM;
        L->k.smem = (unsigned char *)L->cpu_arena;
    }
    tile__host_err = 0;
    return TILE_OK;
}

TILE_HOST_API int tile__launch_end(tile__launch_t *L, int gpu_status) {
    if (L->gpu) {
#if TILE_CUDA
        if (L->device != L->prev_device) cudaSetDevice(L->prev_device); /* the one begin set */
#endif
        if (gpu_status) { tile__cuda_err = gpu_status; return TILE_ERR_CUDA; }
        return TILE_OK;
    }
    free(L->cpu_arena);
    int e = tile__host_err;
    tile__host_err = 0;
    return e;
}

/* mode: 1 tiled, 0 SIMT; + 2 for the persistent schedule (a constant) */
#define tile__launch(ex, name, grid, block, mode, ...)                             \
    __extension__({                                                                \
        tile__launch_t tile__L;                                                    \
        int tile__e = tile__launch_begin(&tile__L, (ex), (grid), (block), (mode), \
                                         name##__block, (size_t)name##__smem);     \
        if (tile__e == TILE_OK) {                                                  \
            int tile__gs = 0;                                                      \
            if (tile__L.gpu) {                                                     \
                tile__gs = TILE__GPU_CALL(name, mode, __VA_ARGS__);                \
            } else {                                                               \
                for (; tile__L.k.cpu_block < tile__L.nblocks; ++tile__L.k.cpu_block) \
                    name##__body(tile__L.k, (char(*)[name##__block])0, __VA_ARGS__); \
            }                                                                      \
            tile__e = tile__launch_end(&tile__L, tile__gs);                        \
        }                                                                          \
        tile__e;                                                                   \
    })

/* Tiled launch: one block per grid cell. Returns a tile_error code; the GPU
 * launch is asynchronous (see tile_synchronize).
 *   tile_launch(TILE_CPU, row_sum, tile_grid1(10), 64, a, b) -> TILE_OK
 *   tile_launch(TILE_CPU, row_sum, tile_grid1(10), 32, a, b) -> TILE_ERR_BLOCK_DIM */
#define tile_launch(ex, name, grid, block, ...) tile__launch(ex, name, grid, block, 1, __VA_ARGS__)
/* SIMT launch: `grid` counts threads; blocks of `block` consecutive threads.
 *   tile_launch_simt(TILE_GPU(0), k, tile_grid1(12), 4, out) -> 3 blocks of 4 */
#define tile_launch_simt(ex, name, grid, block, ...) tile__launch(ex, name, grid, block, 0, __VA_ARGS__)

/* The persistent schedule of the same launches (docs/launch.md): on the GPU
 * min(logical blocks, blocks_per_sm x SMs) blocks stay resident and walk the
 * logical blocks in a grid-stride loop (blocks_per_sm from
 * tile_exec_persistent, default: as many as fit). The body is unchanged:
 * tile_block(k), tile_tid(k) and tile_block_linear() name the logical block,
 * the arena starts empty for each, a `return` (or an arena overflow) ends that
 * logical block only, and between two logical blocks the resident block waits
 * for its cp.async copies and passes a barrier. A body must finish (wait for)
 * its asynchronous copies before it ends, as the next logical block reuses
 * the arena. On the CPU these are tile_launch / tile_launch_simt. Results are
 * those of the default schedule; only block-to-SM placement and order differ.
 *   tile_launch_persistent(TILE_GPU(0), row_sum, tile_grid1(1 << 20), 64, a, b)
 *     -> TILE_OK; b[i] = sum of row i, as tile_launch gives it */
#define tile_launch_persistent(ex, name, grid, block, ...) tile__launch(ex, name, grid, block, 3, __VA_ARGS__)
#define tile_launch_simt_persistent(ex, name, grid, block, ...) tile__launch(ex, name, grid, block, 2, __VA_ARGS__)

/* Wait for the target's work and report errors raised inside kernels
 * (TILE_ERR_SMEM_OVERFLOW, or TILE_ERR_CUDA for a failed kernel). The CPU
 * target runs synchronously; its errors come back from tile_launch. A GPU
 * launch cannot know whether its blocks overflowed the arena: check
 * tile_synchronize's code after every launch whose arena may be short
 * (docs/guards.md). */
TILE_HOST_API int tile_synchronize(tile_exec ex) {
    if (ex.device < 0) return TILE_OK;
#if TILE_CUDA
    int prev = 0, err = 0;
    cudaGetDevice(&prev);
    if (prev != ex.device) cudaSetDevice(ex.device);
    cudaError_t e = ex.stream ? cudaStreamSynchronize((cudaStream_t)ex.stream) : cudaDeviceSynchronize();
    if (e == cudaSuccess) {
        const int zero = 0;
        e = cudaMemcpyFromSymbol(&err, tile__dev_err, sizeof(int));
        if (e == cudaSuccess && err) e = cudaMemcpyToSymbol(tile__dev_err, &zero, sizeof(int));
    }
    if (prev != ex.device) cudaSetDevice(prev);
    if (e != cudaSuccess) { tile__cuda_err = (int)e; return TILE_ERR_CUDA; }
    return err;
#else
    return TILE_ERR_NO_CUDA;
#endif
}

/* ---- memory on the target (host helpers for code that runs on either) ----
 *   tile_exec ex = tile_gpu_count() ? TILE_GPU(0) : TILE_CPU;
 *   float *d = (float *)tile_alloc(ex, n * sizeof(float));
 *   tile_copy_to(ex, d, host, n * sizeof(float));
 *   ... launch ...
 *   tile_copy_from(ex, host, d, n * sizeof(float));   // waits for the target
 *   tile_free(ex, d);
 * On the CPU target these are malloc/memcpy/free. */
TILE_HOST_API int tile_gpu_count(void) {
#if TILE_CUDA
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) { cudaGetLastError(); return 0; }
    return n;
#else
    return 0;
#endif
}
TILE_HOST_API void *tile_alloc(tile_exec ex, size_t bytes) {
    if (ex.device < 0) return malloc(bytes ? bytes : 1);
#if TILE_CUDA
    void *p = 0;
    if (cudaSetDevice(ex.device) != cudaSuccess || cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) return 0;
    return p;
#else
    return 0;
#endif
}
TILE_HOST_API void tile_free(tile_exec ex, void *p) {
    if (ex.device < 0) { free(p); return; }
#if TILE_CUDA
    cudaFree(p);
#endif
}
/* copies return a tile_error code */
TILE_HOST_API int tile_copy_to(tile_exec ex, void *dst, const void *src, size_t bytes) {
    if (ex.device < 0) { memcpy(dst, src, bytes); return TILE_OK; }
#if TILE_CUDA
    cudaError_t e = cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) { tile__cuda_err = (int)e; return TILE_ERR_CUDA; }
    return TILE_OK;
#else
    return TILE_ERR_NO_CUDA;
#endif
}
TILE_HOST_API int tile_copy_from(tile_exec ex, void *dst, const void *src, size_t bytes) {
    if (ex.device < 0) { memcpy(dst, src, bytes); return TILE_OK; }
#if TILE_CUDA
    cudaError_t e = cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) { tile__cuda_err = (int)e; return TILE_ERR_CUDA; }
    return TILE_OK;
#else
    return TILE_ERR_NO_CUDA;
#endif
}

#endif /* TILE_LAUNCH_H */
