/* tile/reduce.h - block reductions of whole tiles.
 *
 * A reduction declares a one-element register tile whose value every thread
 * holds (read it with tile_value). Cooperative: every thread calls it.
 * Within a warp values combine through shuffles; across warps through a small
 * static shared scratch (TILE_SCRATCH_BYTES). On the CPU one thread folds its
 * slots in order.
 *
 * Suppose t holds [0 1 2 ... 255]:
 *   tile_sum(s, t);               tile_value(s) == 32640 in every thread
 *   tile_max(m, t);               tile_value(m) == 255
 *   tile_reduce(r, my_op, t);     fold with any TILE_FUNC binary op
 */
#ifndef TILE_REDUCE_H
#define TILE_REDUCE_H

#include "construct.h"

/* Bytes of the static shared scratch used for cross-warp combines and
 * broadcasts; 2 * ceil(block/32) * sizeof(element) must fit. */
#ifndef TILE_SCRATCH_BYTES
#define TILE_SCRATCH_BYTES 2048
#endif

TILE_API unsigned char *tile__scratch(void) {
#if TILE_ON_DEVICE
    __shared__ __align__(16) unsigned char tile__buf[TILE_SCRATCH_BYTES];
    return tile__buf;
#else
    static union { double d; int64_t i; unsigned char b[TILE_SCRATCH_BYTES]; } tile__buf;
    return tile__buf.b;
#endif
}

/* TILE_STATIC_SMEM(bytes): a 16-byte aligned static shared buffer of a
 * compile-time size, for operations that stage a whole tile (scans, sorts)
 * without the user budgeting arena bytes; it shows in ptxas' smem count.
 * Operations asking for the same size share one buffer (they run one after
 * another, separated by barriers). On the CPU a block has one thread, which
 * holds the whole tile in its slots, so nothing is staged: the C build gets
 * a null pointer it never uses. The one C++ piece besides the launch wrapper:
 * a shared array whose size is a compile-time expression needs a template
 * under nvcc; C has no way to declare static storage inside an expression. */
#if TILE_CUDA
template <unsigned long BYTES>
static __host__ __device__ __forceinline__ unsigned char *tile__static_smem(void) {
#if TILE_ON_DEVICE
    __shared__ __align__(16) unsigned char tile__buf[BYTES > 0 ? BYTES : 16];
    return tile__buf;
#else
    return 0;
#endif
}
#define TILE_STATIC_SMEM(bytes) tile__static_smem<(unsigned long)(bytes)>()
#else
#define TILE_STATIC_SMEM(bytes) ((unsigned char *)0)
#endif

/* Scratch for one cross-warp exchange: two halves used in turn, so one
 * barrier (after the writes) suffices. A half is written again only two
 * exchanges later, and every thread has passed the exchange between since it
 * last read that half. */
TILE_API unsigned char *tile__scratch_next(tile_kctx *k) {
    k->scratch_round ^= 1u;
    return tile__scratch() + (k->scratch_round ? TILE_SCRATCH_BYTES / 2 : 0);
}

/* Warp shuffles of any element type; on the host (one thread) they copy. */
#if TILE_ON_DEVICE
/* shuffle any trivially copyable value, 32 bits at a time, with one of the
 * __shfl_*_sync intrinsics */
#define TILE__SHFL(dst, src, fn, arg, mask)                                        \
    do {                                                                           \
        unsigned tile__w[(sizeof(src) + 3) / 4];                                   \
        memcpy(tile__w, &(src), sizeof(src));                                      \
        TILE__UNROLL for (int tile__q = 0; tile__q < (int)((sizeof(src) + 3) / 4); ++tile__q) \
            tile__w[tile__q] = fn((mask), tile__w[tile__q], (arg));                \
        memcpy(&(dst), tile__w, sizeof(src));                                      \
    } while (0)
#define TILE__SHFL_DOWN(dst, src, delta, mask) TILE__SHFL(dst, src, __shfl_down_sync, delta, mask)
#define TILE__SHFL_XOR(dst, src, lanemask) TILE__SHFL(dst, src, __shfl_xor_sync, lanemask, 0xffffffffu)
#define TILE__SHFL_IDX(dst, src, lane, mask) TILE__SHFL(dst, src, __shfl_sync, lane, mask)
#else
#define TILE__SHFL_DOWN(dst, src, delta, mask) ((dst) = (src))
#define TILE__SHFL_IDX(dst, src, lane, mask) ((dst) = (src))
#define TILE__SHFL_XOR(dst, src, lanemask) ((dst) = (src))
#endif

#define TILE__OP_ADD(a, b) TILE__G_ADD(a, b)
#define TILE__OP_MIN(a, b) ((b) < (a) ? (b) : (a))
#define TILE__OP_MAX(a, b) ((a) < (b) ? (b) : (a))

/* Reduce src with binary op into a fresh one-element register tile `name`. */
#define tile_reduce(name, op, src)                                                 \
    tile_reg(TILE_ELEM_T(src), name, 1);                                           \
    TILE__BLOCK_REDUCE(name.v[0], op, src)
#define tile_sum(name, src) tile_reduce(name, TILE__OP_ADD, src)
#define tile_min(name, src) tile_reduce(name, TILE__OP_MIN, src)
#define tile_max(name, src) tile_reduce(name, TILE__OP_MAX, src)
/* value of a one-element tile (the reductions' results), in every thread */
#define tile_value(t) ((t).v[0])

/* out = op-fold of all elements of src, in every thread of the block */
#define TILE__BLOCK_REDUCE(out, op, src)                                           \
    do {                                                                           \
        typedef TILE_ELEM_T(src) tile__T;                                          \
        enum {                                                                     \
            tile__N = tile_size(src),                                              \
            tile__B = TILE__BD(src),                                               \
            tile__NE = tile__N < tile__B ? tile__N : tile__B, /* threads holding values */ \
            tile__NW = (tile__NE + 31) / 32                                        \
        };                                                                         \
        TILE__STATIC_ASSERT(tile__NW * sizeof(tile__T) <= TILE_SCRATCH_BYTES / 2,  \
                            "tile.h: reduction scratch too small: raise TILE_SCRATCH_BYTES"); \
        tile__T tile__acc;                                                         \
        memset(&tile__acc, 0, sizeof(tile__acc));                                  \
        TILE__EACH(src, tile__s) {                                                 \
            if (tile__s == 0) tile__acc = TILE__AT(src, 0);                        \
            else tile__acc = op(tile__acc, TILE__AT(src, tile__s));                \
        }                                                                          \
        if (tile__B > 1) {                                                         \
            int tile__lane = tile_thread() % 32, tile__warp = tile_thread() / 32;  \
            /* lanes active in this warp: a constant 32 unless the block ends in a \
             * partial warp */                                                     \
            int tile__act = (tile__B % 32 == 0 || tile__B - tile__warp * 32 >= 32) ? 32 : tile__B - tile__warp * 32; \
            TILE__UNUSED unsigned tile__mask = tile__B % 32 == 0 ? 0xffffffffu     \
                : tile__act == 32 ? 0xffffffffu : ((1u << tile__act) - 1u);        \
            if (tile__B % 32 == 0 && tile__NE == tile__B) {                        \
                /* full warps, every lane holds a value: butterfly, all lanes end \
                 * with the warp's total (bitwise equal: each step is a + b or b + a) */ \
                TILE__UNROLL for (int tile__d = 16; tile__d >= 1; tile__d /= 2) {  \
                    tile__T tile__o;                                               \
                    TILE__SHFL_XOR(tile__o, tile__acc, tile__d);                   \
                    tile__acc = op(tile__acc, tile__o);                            \
                }                                                                  \
            } else {                                                               \
                /* partial warps or fewer values than threads: fold towards lane 0, \
                 * ignoring lanes without a value */                               \
                TILE__UNROLL for (int tile__d = 16; tile__d >= 1; tile__d /= 2) {  \
                    if (tile__d < (tile__B < 32 ? tile__B : 32)) {                 \
                        tile__T tile__o;                                           \
                        TILE__SHFL_DOWN(tile__o, tile__acc, tile__d, tile__mask);  \
                        if (tile__lane + tile__d < tile__act && tile_thread() + tile__d < tile__NE) \
                            tile__acc = op(tile__acc, tile__o);                    \
                    }                                                              \
                }                                                                  \
                if (tile__NW == 1) TILE__SHFL_IDX(tile__acc, tile__acc, 0, tile__mask); \
            }                                                                      \
            if (tile__NW > 1) {                                                    \
                tile__T *tile__sc = (tile__T *)tile__scratch_next(&tile__k);       \
                if (tile__lane == 0 && tile__warp < tile__NW) tile__sc[tile__warp] = tile__acc; \
                tile_barrier();                                                    \
                tile__acc = tile__sc[0];                                           \
                for (int tile__w = 1; tile__w < tile__NW; ++tile__w)               \
                    tile__acc = op(tile__acc, tile__sc[tile__w]);                  \
            }                                                                      \
        }                                                                          \
        (out) = tile__acc;                                                         \
    } while (0)

#endif /* TILE_REDUCE_H */
