/* tile/warp.h - warp-level primitives for SIMT code below the tiles.
 *
 * Lane and warp ids, a warp barrier, shuffles, votes, warp reductions and
 * warp scans, in the type families f32, f64, i32, u32, i64, u64 (suffix
 * _f32 ... and one generic name per operation: _Generic in C, overloads
 * under C++). They read
 * threadIdx/blockDim themselves, so they work in kernel bodies, in helpers
 * (TILE_FN) and in plain __device__ functions alike.
 *
 * Who takes part: every lane of the calling warp that exists in the block
 * (all 32, or the first blockDim.x % 32 lanes of a block's last warp when the
 * block size is not a multiple of 32) calls together, in converged code. In
 * the partial last block of a SIMT launch the threads past the thread count
 * have left the body (launch.h): a warp holding some of them must not call
 * these (as for CUDA's __shfl_sync with exited lanes).
 *
 * On the CPU target a block is one thread, so a warp is one lane: lane id 0,
 * warp id 0, shuffles return the caller's own value, a reduction or an
 * inclusive scan returns its argument, an exclusive scan 0, ballot(p) is
 * p ? 1 : 0, any/all(p) is p != 0. Those are the results a one-lane warp
 * gives on the GPU too.
 *
 *   TILE_KERNEL(k, 64, const float *x, float *out) {
 *       float v = x[tile_tid(0) * 64 + tile_tid(1)];   // tiled launch, grid (n)
 *       float s = tile_warp_reduce_sum(v);             // sum over the warp
 *       if (tile_warp_lane() == 0) out[tile_tid(0) * 2 + tile_warp_id()] = s;
 *   }
 * Suppose x holds 1, 2, 3, ..., 64 for tile 0: out[0] = 528 (1..32) and
 * out[1] = 1552 (33..64) on the GPU; on the CPU every "warp" is one thread.
 */
#ifndef TILE_WARP_H
#define TILE_WARP_H

#include "platform.h"

/* ---- ids ----
 * tile_warp_lane(): lane of the calling thread in its warp, 0..31 (CPU: 0).
 * tile_warp_id():   warp of the calling thread in its block (CPU: 0).
 * tile_warp_count(): warps in the block, ceil(blockDim.x / 32) (CPU: 1).
 * tile_warp_lanes(): lanes of the calling warp that exist in the block: 32,
 *                   or fewer in the last warp of a block of 48 threads (16)
 *                   (CPU: 1).
 * tile_warp_mask(): those lanes as a bit mask (the member mask the
 *                   primitives below pass to the *_sync intrinsics)
 *                   (CPU: 1).
 *   block of 48 threads, thread 40: lane 8, warp 1, 2 warps, 16 lanes,
 *   mask 0x0000ffff */
#if TILE_ON_DEVICE
TILE_API int tile_warp_lane(void) { return (int)(threadIdx.x & 31u); }
TILE_API int tile_warp_id(void) { return (int)(threadIdx.x >> 5); }
TILE_API int tile_warp_count(void) { return (int)((blockDim.x + 31u) >> 5); }
TILE_API int tile_warp_lanes(void) {
    const unsigned n = blockDim.x - (threadIdx.x & ~31u);
    return n >= 32u ? 32 : (int)n;
}
TILE_API unsigned tile_warp_mask(void) {
    const unsigned n = blockDim.x - (threadIdx.x & ~31u);
    return n >= 32u ? 0xffffffffu : (1u << n) - 1u;
}
#else
TILE_API int tile_warp_lane(void) { return 0; }
TILE_API int tile_warp_id(void) { return 0; }
TILE_API int tile_warp_count(void) { return 1; }
TILE_API int tile_warp_lanes(void) { return 1; }
TILE_API unsigned tile_warp_mask(void) { return 1u; }
#endif

/* tile_warp_sync(): a barrier of the calling warp's lanes (__syncwarp over
 * tile_warp_mask()), with memory ordering among them: for SIMT code that
 * passes values through shared memory inside a warp. CPU: nothing to wait for.
 *   buf[tile_thread()] = x; tile_warp_sync(); y = buf[tile_thread() ^ 1]; */
TILE_API void tile_warp_sync(void) {
#if TILE_ON_DEVICE
    __syncwarp(tile_warp_mask());
#endif
}

/* ---- votes ----
 * tile_warp_ballot(p): bit i set when lane i's p is nonzero (lanes that exist).
 * tile_warp_any(p) / tile_warp_all(p): 1 when p is nonzero in some / every
 * lane, else 0.
 *   p = (lane % 2 == 0) in a full warp: ballot 0x55555555, any 1, all 0 */
TILE_API unsigned tile_warp_ballot(int p) {
#if TILE_ON_DEVICE
    return __ballot_sync(tile_warp_mask(), p);
#else
    return p ? 1u : 0u;
#endif
}
TILE_API int tile_warp_any(int p) {
#if TILE_ON_DEVICE
    return __any_sync(tile_warp_mask(), p) != 0;
#else
    return p != 0;
#endif
}
TILE_API int tile_warp_all(int p) {
#if TILE_ON_DEVICE
    return __all_sync(tile_warp_mask(), p) != 0;
#else
    return p != 0;
#endif
}

/* ---- shuffles (CUDA's __shfl*_sync over the lanes that exist) ----
 * tile_warp_shfl_<sfx>(v, src):      lane src's v (src taken mod 32; it must
 *                                    exist in the block)
 * tile_warp_shfl_up_<sfx>(v, d):     lane (lane - d)'s v; lanes below d keep theirs
 * tile_warp_shfl_down_<sfx>(v, d):   lane (lane + d)'s v; lanes whose lane + d
 *                                    is 32 or more keep theirs (in a partial
 *                                    warp a lane past the last one gives an
 *                                    unspecified value)
 * tile_warp_shfl_xor_<sfx>(v, m):    lane (lane ^ m)'s v (m < 32; the partner
 *                                    must exist)
 * Suppose v = 10 * lane in a full warp: shfl(v, 3) = 30 everywhere;
 * shfl_up(v, 1) = 0, 0, 10, 20, ...; shfl_down(v, 1) = 10, 20, ..., 310, 310;
 * shfl_xor(v, 1) = 10, 0, 30, 20, ... */
#if TILE_ON_DEVICE
#define TILE__WARP_SHFL_DEF(sfx, T)                                                \
    TILE_API T tile_warp_shfl_##sfx(T v, int src) { return __shfl_sync(tile_warp_mask(), v, src); } \
    TILE_API T tile_warp_shfl_up_##sfx(T v, int d) { return __shfl_up_sync(tile_warp_mask(), v, (unsigned)d); } \
    TILE_API T tile_warp_shfl_down_##sfx(T v, int d) { return __shfl_down_sync(tile_warp_mask(), v, (unsigned)d); } \
    TILE_API T tile_warp_shfl_xor_##sfx(T v, int m) { return __shfl_xor_sync(tile_warp_mask(), v, m); }
#else
#define TILE__WARP_SHFL_DEF(sfx, T)                                                \
    TILE_API T tile_warp_shfl_##sfx(T v, int src) { (void)src; return v; }        \
    TILE_API T tile_warp_shfl_up_##sfx(T v, int d) { (void)d; return v; }        \
    TILE_API T tile_warp_shfl_down_##sfx(T v, int d) { (void)d; return v; }      \
    TILE_API T tile_warp_shfl_xor_##sfx(T v, int m) { (void)m; return v; }
#endif

/* ---- reductions: every lane gets the result ----
 * tile_warp_reduce_sum_<sfx>(v), _min_<sfx>(v), _max_<sfx>(v) over the lanes
 * that exist. Floating-point sums add in a tree (the order differs from a
 * sequential loop in the last bits); min/max of floats use a < b (a NaN
 * operand gives an order-dependent result, as tile_min). Integer sums wrap.
 * Suppose v = lane + 1 in a full warp: sum 528, min 1, max 32 in every lane;
 * in the 16-lane last warp of a 48-thread block: sum 136, min 1, max 16. */
#define TILE__WOP_SUM(a, b) ((a) + (b))
#define TILE__WOP_MIN(a, b) ((b) < (a) ? (b) : (a))
#define TILE__WOP_MAX(a, b) ((a) < (b) ? (b) : (a))
#if TILE_ON_DEVICE
/* full warps: xor butterfly (all lanes end with the result); a partial warp:
 * a shfl_down tree that adds only partners that exist, then lane 0's value */
#define TILE__WARP_RED_DEF(sfx, T, op, OP)                                        \
    TILE_API T tile_warp_reduce_##op##_##sfx(T v) {                              \
        const unsigned m = tile_warp_mask();                                      \
        if (m == 0xffffffffu) {                                                    \
            TILE__UNROLL for (int o = 16; o >= 1; o >>= 1) {                       \
                const T w = __shfl_xor_sync(m, v, o);                              \
                v = OP(v, w);                                                      \
            }                                                                      \
            return v;                                                              \
        }                                                                          \
        const int lane = tile_warp_lane(), n = tile_warp_lanes();                  \
        TILE__UNROLL for (int o = 16; o >= 1; o >>= 1) {                           \
            const T w = __shfl_down_sync(m, v, (unsigned)o);                       \
            if (lane + o < n) v = OP(v, w);                                        \
        }                                                                          \
        return __shfl_sync(m, v, 0);                                               \
    }
#else
#define TILE__WARP_RED_DEF(sfx, T, op, OP) \
    TILE_API T tile_warp_reduce_##op##_##sfx(T v) { return v; }
#endif
/* 32-bit integers on sm_80+: one redux.sync instruction */
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
#define TILE__WARP_REDUX_DEF(sfx, T, U)                                           \
    TILE_API T tile_warp_reduce_sum_##sfx(T v) { return (T)__reduce_add_sync(tile_warp_mask(), (U)v); } \
    TILE_API T tile_warp_reduce_min_##sfx(T v) { return (T)__reduce_min_sync(tile_warp_mask(), (U)v); } \
    TILE_API T tile_warp_reduce_max_##sfx(T v) { return (T)__reduce_max_sync(tile_warp_mask(), (U)v); }
#else
#define TILE__WARP_REDUX_DEF(sfx, T, U)                                           \
    TILE__WARP_RED_DEF(sfx, T, sum, TILE__WOP_SUM)                                 \
    TILE__WARP_RED_DEF(sfx, T, min, TILE__WOP_MIN)                                 \
    TILE__WARP_RED_DEF(sfx, T, max, TILE__WOP_MAX)
#endif

/* ---- scans over the lanes that exist, in lane order ----
 * tile_warp_scan_inclusive_sum_<sfx>(v): v of lanes 0..lane added
 * tile_warp_scan_exclusive_sum_<sfx>(v): v of lanes 0..lane-1 added (0 in lane 0)
 * Suppose v = lane + 1 in a full warp: inclusive 1, 3, 6, ..., 528;
 * exclusive 0, 1, 3, ..., 496. */
#if TILE_ON_DEVICE
#define TILE__WARP_SCAN_DEF(sfx, T)                                               \
    TILE_API T tile_warp_scan_inclusive_sum_##sfx(T v) {                          \
        const unsigned m = tile_warp_mask();                                      \
        const int lane = tile_warp_lane();                                        \
        TILE__UNROLL for (int o = 1; o < 32; o <<= 1) {                            \
            const T w = __shfl_up_sync(m, v, (unsigned)o);                         \
            if (lane >= o) v = v + w;                                              \
        }                                                                          \
        return v;                                                                  \
    }                                                                              \
    TILE_API T tile_warp_scan_exclusive_sum_##sfx(T v) {                          \
        const T inc = tile_warp_scan_inclusive_sum_##sfx(v);                       \
        const T w = __shfl_up_sync(tile_warp_mask(), inc, 1u);                     \
        return tile_warp_lane() == 0 ? (T)0 : w;                                   \
    }
#else
#define TILE__WARP_SCAN_DEF(sfx, T)                                               \
    TILE_API T tile_warp_scan_inclusive_sum_##sfx(T v) { return v; }              \
    TILE_API T tile_warp_scan_exclusive_sum_##sfx(T v) { (void)v; return (T)0; }
#endif

#define TILE__WARP_DEF_ALL(sfx, T)                                                \
    TILE__WARP_SHFL_DEF(sfx, T)                                                    \
    TILE__WARP_SCAN_DEF(sfx, T)
TILE__WARP_DEF_ALL(f32, float)
TILE__WARP_DEF_ALL(f64, double)
TILE__WARP_DEF_ALL(i32, int32_t)
TILE__WARP_DEF_ALL(u32, uint32_t)
TILE__WARP_DEF_ALL(i64, int64_t)
TILE__WARP_DEF_ALL(u64, uint64_t)
#define TILE__WARP_RED3_DEF(sfx, T)                                               \
    TILE__WARP_RED_DEF(sfx, T, sum, TILE__WOP_SUM)                                 \
    TILE__WARP_RED_DEF(sfx, T, min, TILE__WOP_MIN)                                 \
    TILE__WARP_RED_DEF(sfx, T, max, TILE__WOP_MAX)
TILE__WARP_RED3_DEF(f32, float)
TILE__WARP_RED3_DEF(f64, double)
TILE__WARP_REDUX_DEF(i32, int32_t, int)
TILE__WARP_REDUX_DEF(u32, uint32_t, unsigned)
TILE__WARP_RED3_DEF(i64, int64_t)
TILE__WARP_RED3_DEF(u64, uint64_t)

/* ---- generic names: the type of v picks the family ----
 *   float x; tile_warp_reduce_sum(x) is tile_warp_reduce_sum_f32(x)
 * v must be exactly float, double, int32_t, uint32_t, int64_t or uint64_t
 * (write 1.0f, not 1.0, for f32; cast other integer types). */
#if defined(__cplusplus)
#define TILE__WARP_OVL1(sfx, T, op) \
    TILE_API T tile__warp_g_##op(T v) { return tile_warp_##op##_##sfx(v); }
#define TILE__WARP_OVL2(sfx, T, op) \
    TILE_API T tile__warp_g_##op(T v, int x) { return tile_warp_##op##_##sfx(v, x); }
#define TILE__WARP_OVL(sfx, T)                                                    \
    TILE__WARP_OVL1(sfx, T, reduce_sum) TILE__WARP_OVL1(sfx, T, reduce_min) TILE__WARP_OVL1(sfx, T, reduce_max) \
    TILE__WARP_OVL1(sfx, T, scan_inclusive_sum) TILE__WARP_OVL1(sfx, T, scan_exclusive_sum) \
    TILE__WARP_OVL2(sfx, T, shfl) TILE__WARP_OVL2(sfx, T, shfl_up) TILE__WARP_OVL2(sfx, T, shfl_down) \
    TILE__WARP_OVL2(sfx, T, shfl_xor)
TILE__WARP_OVL(f32, float)
TILE__WARP_OVL(f64, double)
TILE__WARP_OVL(i32, int32_t)
TILE__WARP_OVL(u32, uint32_t)
TILE__WARP_OVL(i64, int64_t)
TILE__WARP_OVL(u64, uint64_t)
#define TILE__WARP_G(op, v) tile__warp_g_##op(v)
#define TILE__WARP_G2(op, v, x) tile__warp_g_##op((v), (x))
#else
#define TILE__WARP_G(op, v)                                                        \
    _Generic((v), float: tile_warp_##op##_f32, double: tile_warp_##op##_f64,      \
             int32_t: tile_warp_##op##_i32, uint32_t: tile_warp_##op##_u32,       \
             int64_t: tile_warp_##op##_i64, uint64_t: tile_warp_##op##_u64)(v)
#define TILE__WARP_G2(op, v, x)                                                    \
    _Generic((v), float: tile_warp_##op##_f32, double: tile_warp_##op##_f64,      \
             int32_t: tile_warp_##op##_i32, uint32_t: tile_warp_##op##_u32,       \
             int64_t: tile_warp_##op##_i64, uint64_t: tile_warp_##op##_u64)((v), (x))
#endif
#define tile_warp_reduce_sum(v) TILE__WARP_G(reduce_sum, v)
#define tile_warp_reduce_min(v) TILE__WARP_G(reduce_min, v)
#define tile_warp_reduce_max(v) TILE__WARP_G(reduce_max, v)
#define tile_warp_scan_inclusive_sum(v) TILE__WARP_G(scan_inclusive_sum, v)
#define tile_warp_scan_exclusive_sum(v) TILE__WARP_G(scan_exclusive_sum, v)
#define tile_warp_shfl(v, src) TILE__WARP_G2(shfl, v, src)
#define tile_warp_shfl_up(v, d) TILE__WARP_G2(shfl_up, v, d)
#define tile_warp_shfl_down(v, d) TILE__WARP_G2(shfl_down, v, d)
#define tile_warp_shfl_xor(v, m) TILE__WARP_G2(shfl_xor, v, m)

#endif /* TILE_WARP_H */
