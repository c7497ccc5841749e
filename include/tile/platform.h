/* tile/platform.h - the only header that knows whether code runs on the GPU
 * or the CPU: thread index, block size, barriers, shuffles and atomics.
 *
 * On the CPU a block has exactly one thread (block_dim = 1): barriers are
 * no-ops, shuffles return the caller's own value and atomics are plain
 * read-modify-writes (blocks run one after another).
 */
#ifndef TILE_PLATFORM_H
#define TILE_PLATFORM_H

#include "config.h"

/* TILE_BLOCK_DIM: threads per block of the kernel being compiled; a
 * compile-time constant inside a TILE_KERNEL body. The kernel's hidden
 * parameter `tile__bd` has type char(*)[BLOCK] so that sizeof gives the block
 * size without any template. On the CPU it is 1. */
#if TILE_ON_DEVICE
#define TILE_BLOCK_DIM ((int)sizeof(*tile__bd))
#else
#define TILE_BLOCK_DIM 1
#endif

/* Index of the calling thread inside its block: 0 .. TILE_BLOCK_DIM-1. */
#if TILE_ON_DEVICE
#define tile_thread() ((int)threadIdx.x)
#else
#define tile_thread() 0
#endif

/* TILE__COOP(): the entry check of a cooperative operation (barriers, block
 * reductions, scans, sorts, stack calls), which every thread of the block
 * must call together, never in a divergent branch. A TILE_DEBUG device build
 * asserts what it can see cheaply: every lane of the calling warp that exists
 * in the block is active (__activemask), which catches a call under
 * `if (tile_thread() < 16)`. Branches that skip whole warps cannot be seen
 * this way; they are undefined behaviour, as for __syncthreads. */
#if TILE_ON_DEVICE && defined(TILE_DEBUG)
static __device__ __forceinline__ unsigned tile__warp_lanes(void) {
    const unsigned first = threadIdx.x & ~31u, n = blockDim.x - first;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}
#define TILE__COOP() TILE_ASSERT(__activemask() == tile__warp_lanes() && "cooperative call in a divergent branch")
#else
#define TILE__COOP() ((void)0)
#endif

/* Block-wide barrier. Cooperative: every thread of the block must reach it. */
#if TILE_ON_DEVICE
#define tile_barrier()                                                             \
    do {                                                                           \
        TILE__COOP();                                                              \
        __syncthreads();                                                           \
    } while (0)
#else
#define tile_barrier() ((void)0)
#endif

#define TILE_WARP_SIZE 32

/* ---- atomics: one overload per scalar type (C++: nvcc or a host C++
 * compiler; _Generic in C). On the host blocks run sequentially, so a plain
 * add is atomic. ---- */
#if defined(__cplusplus)
TILE_API void tile__atomic_add(float *p, float v) {
#if TILE_ON_DEVICE
    atomicAdd(p, v);
#else
    *p += v;
#endif
}
TILE_API void tile__atomic_add(double *p, double v) {
#if TILE_ON_DEVICE
    atomicAdd(p, v);
#else
    *p += v;
#endif
}
TILE_API void tile__atomic_add(int32_t *p, int32_t v) {
#if TILE_ON_DEVICE
    atomicAdd((int *)p, (int)v);
#else
    *p += v;
#endif
}
TILE_API void tile__atomic_add(uint32_t *p, uint32_t v) {
#if TILE_ON_DEVICE
    atomicAdd((unsigned *)p, (unsigned)v);
#else
    *p += v;
#endif
}
TILE_API void tile__atomic_add(uint64_t *p, uint64_t v) {
#if TILE_ON_DEVICE
    atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
    *p += v;
#endif
}
TILE_API void tile__atomic_add(int64_t *p, int64_t v) {
#if TILE_ON_DEVICE
    /* two's complement: an unsigned add gives the signed sum */
    atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
    *p += v;
#endif
}
#define TILE__ATOMIC_ADD(p, v) tile__atomic_add((p), (v))
#else
#define TILE__DEF_HOST_ATOMIC(sfx, T) \
    TILE_API void tile__atomic_add_##sfx(T *p, T v) { *p += v; }
TILE__DEF_HOST_ATOMIC(f32, float)
TILE__DEF_HOST_ATOMIC(f64, double)
TILE__DEF_HOST_ATOMIC(i32, int32_t)
TILE__DEF_HOST_ATOMIC(u32, uint32_t)
TILE__DEF_HOST_ATOMIC(i64, int64_t)
TILE__DEF_HOST_ATOMIC(u64, uint64_t)
#define TILE__ATOMIC_ADD(p, v)                                                      \
    _Generic((p), float *: tile__atomic_add_f32, double *: tile__atomic_add_f64,   \
             int32_t *: tile__atomic_add_i32, uint32_t *: tile__atomic_add_u32,    \
             int64_t *: tile__atomic_add_i64, uint64_t *: tile__atomic_add_u64)((p), (v))
#endif

/* tile_atomic_fetch_add(p, v): atomically *p += v and return the old *p
 * (int32_t, uint32_t, int64_t, uint64_t; wrapping like unsigned addition).
 * For claiming ranges of an output array from many blocks:
 *   if (tile_thread() == 0) base = tile_atomic_fetch_add(&counter, n); */
#if defined(__cplusplus)
TILE_API int32_t tile__atomic_fetch_add(int32_t *p, int32_t v) {
#if TILE_ON_DEVICE
    return (int32_t)atomicAdd((unsigned *)p, (unsigned)v);
#else
    int32_t o = *p;
    *p = (int32_t)((uint32_t)o + (uint32_t)v);
    return o;
#endif
}
TILE_API uint32_t tile__atomic_fetch_add(uint32_t *p, uint32_t v) {
#if TILE_ON_DEVICE
    return (uint32_t)atomicAdd((unsigned *)p, (unsigned)v);
#else
    uint32_t o = *p;
    *p = o + v;
    return o;
#endif
}
TILE_API int64_t tile__atomic_fetch_add(int64_t *p, int64_t v) {
#if TILE_ON_DEVICE
    return (int64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
    int64_t o = *p;
    *p = (int64_t)((uint64_t)o + (uint64_t)v);
    return o;
#endif
}
TILE_API uint64_t tile__atomic_fetch_add(uint64_t *p, uint64_t v) {
#if TILE_ON_DEVICE
    return (uint64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
    uint64_t o = *p;
    *p = o + v;
    return o;
#endif
}
#define tile_atomic_fetch_add(p, v) tile__atomic_fetch_add((p), (v))
#else
#define TILE__DEF_HOST_FETCH_ADD(sfx, T, U)                                         \
    TILE_API T tile__atomic_fetch_add_##sfx(T *p, T v) {                            \
        T o = *p;                                                                   \
        *p = (T)((U)o + (U)v);                                                      \
        return o;                                                                   \
    }
TILE__DEF_HOST_FETCH_ADD(i32, int32_t, uint32_t)
TILE__DEF_HOST_FETCH_ADD(u32, uint32_t, uint32_t)
TILE__DEF_HOST_FETCH_ADD(i64, int64_t, uint64_t)
TILE__DEF_HOST_FETCH_ADD(u64, uint64_t, uint64_t)
#define tile_atomic_fetch_add(p, v)                                                 \
    _Generic((p), int32_t *: tile__atomic_fetch_add_i32, uint32_t *: tile__atomic_fetch_add_u32, \
             int64_t *: tile__atomic_fetch_add_i64, uint64_t *: tile__atomic_fetch_add_u64)((p), (v))
#endif

/* *p = max(*p, v) atomically (int); a plain max on the host. */
TILE_API void tile__atomic_max_i32(int *p, int v) {
#if TILE_ON_DEVICE
    atomicMax(p, v);
#else
    if (v > *p) *p = v;
#endif
}

#include <string.h>

#endif /* TILE_PLATFORM_H */
