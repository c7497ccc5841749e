/* tile/scan.h - block-wide prefix scans of whole tiles.
 *
 * Every element becomes the combination of itself and all elements before it
 * (inclusive) or of the elements before it only (exclusive). A tile of two or
 * more dims is scanned in its row-major (flattened) order, as Warp does; the
 * _axis forms scan every row (last dim) on its own. The _agg forms also
 * return the fold of the whole tile, the _prefix forms continue a running
 * prefix from the previous tile (a scan of a long array is one loop).
 * dst and src have one shape, any storage (register
 * or shared, views too); dst may be src itself (in place), but must not
 * overlap it partially. Cooperative: every thread of the block calls it,
 * never in a divergent branch.
 *
 * Suppose src holds [3 1 -4 1 5 -9 2 6] (i32, shape 8):
 *   tile_scan_inclusive(dst, src)       dst = [3 4 0 1 6 -3 -1 5]
 *   tile_scan_exclusive(dst, src)       dst = [0 3 4 0 1 6 -3 -1]
 *   tile_scan_max_inclusive(dst, src)   dst = [3 3 3 3 5 5 5 6]
 *   tile_scan_min_inclusive(dst, src)   dst = [3 1 -4 -4 -4 -9 -9 -9]
 *   tile_scan_max_exclusive(dst, src)   dst = [INT32_MIN 3 3 3 3 5 5 5]
 *   tile_scan_min_exclusive(dst, src)   dst = [INT32_MAX 3 1 -4 -4 -4 -9 -9]
 * Suppose src holds [[1 2 3] [4 5 6]] (f32, shape 2x3):
 *   tile_scan_inclusive(dst, src)            dst = [[1 3 6] [10 15 21]]
 *   tile_scan_exclusive(dst, src)            dst = [[0 1 3] [6 10 15]]
 *   tile_scan_inclusive_axis(dst, src, 1)    dst = [[1 3 6] [4 9 15]]
 * Any associative operation (a TILE_FUNC, any element type, user structs too;
 * it need not be commutative: it is always applied as op(earlier, later)):
 *   TILE_FUNC int32_t mul(int32_t a, int32_t b) { return a * b; }
 *   src = [1 2 3 4]:  tile_scan_inclusive_op(dst, mul, src)      dst = [1 2 6 24]
 *                     tile_scan_exclusive_op(dst, mul, 1, src)   dst = [1 1 2 6]
 *
 * Element types: the sums, min and max take i32 u32 i64 u64 f32 f64.
 * Float min and max propagate NaN: from the first NaN of a row on, the
 * inclusive results are NaN (on the GPU and the CPU alike).
 * Integer sums wrap like C's unsigned arithmetic for u32/u64 (signed overflow
 * is the caller's broken promise, as in C). The exclusive sum starts every
 * run at 0; the exclusive max starts at the type's lowest value (-INFINITY,
 * INT32_MIN, INT64_MIN, 0 for unsigned), the exclusive min at its highest
 * (INFINITY, INT32_MAX, INT64_MAX, UINT32_MAX, UINT64_MAX). The inclusive
 * scans need no identity at all: an element with nothing before it is
 * itself (so a row of negative numbers has a negative running max).
 * Floating-point sums are added in a different order on the GPU (a chunk per
 * thread, then a tree across threads) than on the CPU (left to right), so the
 * two may differ in the last bits.
 *
 * How it runs on the GPU (block of B threads, S = ceil(N / B) slots per
 * thread). A register tile is striped (thread t holds elements t, t + B,
 * t + 2B, ...), but a scan wants each thread to own a contiguous run. So:
 *  1. every thread writes its slots into a shared staging buffer (slot i at
 *     a constant distance from slot 0: one address, immediate offsets);
 *  2. thread t scans the contiguous chunk [t*S, t*S + S) sequentially, in
 *     registers when S <= TILE_SCAN_REG_CHUNK (otherwise it reads the buffer
 *     twice); the buffer has one padding element per 128 bytes when S is 2
 *     or a multiple of 4, so that the chunk reads of a warp hit distinct
 *     banks (4- and 8-byte elements; 256 x 16 f32: no conflicts);
 *  3. the chunk totals get a block-wide exclusive scan: warp shuffles
 *     (Hillis-Steele) inside a warp; across warps the warp totals go through
 *     the reduction scratch (tile__scratch_next, one barrier) and each thread
 *     folds those before its warp (up to 8 warps, unrolled) or its warp scans
 *     them with shuffles, one total per lane (more warps); rows of 2D tiles
 *     are segments (a (row-start flag, value) pair scan), so each row
 *     restarts without any identity element;
 *  4. each thread folds its prefix into its chunk and writes it back;
 *  5. every thread reads its striped slots back into dst.
 * No thread ever waits on another except at the barriers: one before the
 * buffer is written (an earlier operation sharing it may still read it:
 * every user of a TILE_STATIC_SMEM buffer, sorts too, begins so), one after
 * it, one for the cross-warp exchange (blocks of more than 32 threads), one
 * before the read-back, and one at the end only when dst is shared (so that
 * every thread may read it) or the buffer goes back to the arena. For the
 * 256 x 16 f32 register tile: 4 barriers, 6 shuffles, 32 shared stores and
 * 39 shared loads per thread, 32 registers.
 * The staging buffer (TILE_SCAN_SMEM_BYTES(T, dims...) bytes) is a static
 * shared array (TILE_STATIC_SMEM, shared by operations of the same size) when
 * it fits TILE_SCAN_STATIC_MAX_BYTES (44 KiB: with the reduction scratch it
 * stays under the 48 KiB static limit). A larger tile with a contiguous
 * shared dst is scanned inside dst itself (no extra memory, unpadded);
 * otherwise the buffer comes from the kernel's arena, which must then have
 * TILE_SCAN_SMEM_BYTES(T, dims...) free (budget it in TILE_KERNEL_SMEM); it
 * is released before the scan returns. An arena too small is reported like
 * any arena overflow (TILE_ERR_SMEM_OVERFLOW).
 * On the CPU (block_dim 1) the one thread holds the whole tile in its slots
 * and scans them in order: no staging, no barrier.
 */
#ifndef TILE_SCAN_H
#define TILE_SCAN_H

#include <math.h>
#include "reduce.h"

/* Largest staging buffer taken from static shared memory. Static shared
 * memory is limited to 48 KiB per kernel, together with the reduction
 * scratch (TILE_SCRATCH_BYTES) and other static buffers of the same kernel
 * (e.g. scans or sorts of other sizes): lower this if those add up. */
#ifndef TILE_SCAN_STATIC_MAX_BYTES
#define TILE_SCAN_STATIC_MAX_BYTES (44 * 1024)
#endif
/* Longest per-thread chunk kept in registers; longer chunks (large shared
 * tiles, few threads) are read twice from the staging buffer instead. */
#ifndef TILE_SCAN_REG_CHUNK
#define TILE_SCAN_REG_CHUNK 32
#endif

/* ---- staging layout ----
 * Element e of the tile sits at buffer index e + (e >> LOG) when padded: one
 * padding element per 128 bytes (LOG 5 for 4-byte, 4 for 8-byte elements). */
#define TILE__SCAN_PADDABLE(esz) ((esz) == 4 || (esz) == 8)
#define TILE__SCAN_LOG(esz) ((esz) == 4 ? 5 : 4)
#define TILE__SCAN_BUFN(n, esz) ((n) + (TILE__SCAN_PADDABLE(esz) ? ((n)-1) >> TILE__SCAN_LOG(esz) : 0))
/* Bytes of the staging buffer of a tile of element type T and shape dims
 * (an upper bound: a scan may need less, or none from the arena). Budget it in
 * TILE_KERNEL_SMEM when it exceeds TILE_SCAN_STATIC_MAX_BYTES:
 *   TILE_SCAN_SMEM_BYTES(float, 16384) == 67584 */
#define TILE_SCAN_SMEM_BYTES(T, ...) \
    ((((size_t)TILE__SCAN_BUFN((size_t)TILE__PROD(__VA_ARGS__), sizeof(T)) * sizeof(T)) + 15u) & ~(size_t)15u)

/* extent of the scanned (last) dim */
#define TILE__SCAN_LEN(t) tile_dim(t, tile_ndim(t) - 1)

/* A shared tile's data pointer; a null pointer for a register tile under
 * nvcc (whose slots must not have their address taken, or they leave the
 * registers). Used only where the tile is shared. C builds run on the host,
 * where taking the slots' address costs nothing. */
#if defined(__cplusplus)
template <class E, int K>
static TILE_HD __forceinline__ E *tile__scan_ptr(E (&)[K]) { return 0; }
template <class E>
static TILE_HD __forceinline__ E *tile__scan_ptr(E *&p) { return p; }
#define TILE__SCAN_PTR(t) tile__scan_ptr((t).v)
#else
#define TILE__SCAN_PTR(t) ((TILE_ELEM_T(t) *)(t).v)
#endif

/* Warp shuffles: up (lane i reads lane i - d; lanes below d keep their own)
 * and from one lane. */
#if TILE_ON_DEVICE
#define TILE__SCAN_SHFL_UP(dst, src, d, mask) TILE__SHFL(dst, src, __shfl_up_sync, d, mask)
#define TILE__SCAN_SHFL_IDX(dst, src, lane, mask) TILE__SHFL(dst, src, __shfl_sync, lane, mask)
#else
#define TILE__SCAN_SHFL_UP(dst, src, d, mask) ((dst) = (src))
#define TILE__SCAN_SHFL_IDX(dst, src, lane, mask) ((dst) = (src))
#endif

/* ---- identities of the exclusive min / max ---- */
#if defined(__cplusplus)
TILE_API float tile__scan_lowest(float) { return -INFINITY; }
TILE_API double tile__scan_lowest(double) { return -(double)INFINITY; }
TILE_API int32_t tile__scan_lowest(int32_t) { return INT32_MIN; }
TILE_API uint32_t tile__scan_lowest(uint32_t) { return 0u; }
TILE_API int64_t tile__scan_lowest(int64_t) { return INT64_MIN; }
TILE_API uint64_t tile__scan_lowest(uint64_t) { return 0u; }
TILE_API float tile__scan_highest(float) { return INFINITY; }
TILE_API double tile__scan_highest(double) { return (double)INFINITY; }
TILE_API int32_t tile__scan_highest(int32_t) { return INT32_MAX; }
TILE_API uint32_t tile__scan_highest(uint32_t) { return UINT32_MAX; }
TILE_API int64_t tile__scan_highest(int64_t) { return INT64_MAX; }
TILE_API uint64_t tile__scan_highest(uint64_t) { return UINT64_MAX; }
#define TILE__SCAN_LOWEST(x) tile__scan_lowest(x)
#define TILE__SCAN_HIGHEST(x) tile__scan_highest(x)
#else
#define TILE__SCAN_LOWEST(x)                                                       \
    _Generic((x), float: -INFINITY, double: -(double)INFINITY, int32_t: INT32_MIN, uint32_t: 0u, \
             int64_t: INT64_MIN, uint64_t: (uint64_t)0)
#define TILE__SCAN_HIGHEST(x)                                                      \
    _Generic((x), float: INFINITY, double: (double)INFINITY, int32_t: INT32_MAX, uint32_t: UINT32_MAX, \
             int64_t: INT64_MAX, uint64_t: UINT64_MAX)
#endif

/* ---- the public scans ----
 * The default forms scan the tile in its row-major (flattened) order, as
 * Warp does: a 2x3 tile is one run of 6 elements. */
#define tile_scan_inclusive(dst, src) TILE__SCAN(dst, src, TILE__OP_ADD, 0, TILE__SCAN_ZERO, 0, 0, 0, tile__init)
#define tile_scan_exclusive(dst, src) TILE__SCAN(dst, src, TILE__OP_ADD, 1, TILE__SCAN_ZERO, 0, 0, 0, tile__init)
#define tile_scan_max_inclusive(dst, src) TILE__SCAN(dst, src, TILE__OP_MAX, 0, TILE__SCAN_ZERO, 0, 0, 0, tile__init)
#define tile_scan_min_inclusive(dst, src) TILE__SCAN(dst, src, TILE__OP_MIN, 0, TILE__SCAN_ZERO, 0, 0, 0, tile__init)
#define tile_scan_max_exclusive(dst, src) TILE__SCAN(dst, src, TILE__OP_MAX, 1, TILE__SCAN_LOW, 0, 0, 0, tile__init)
#define tile_scan_min_exclusive(dst, src) TILE__SCAN(dst, src, TILE__OP_MIN, 1, TILE__SCAN_HIGH, 0, 0, 0, tile__init)
/* generic forms: op(earlier, later) associative, a function or macro of two
 * elements; init is the exclusive scan's value at the first element (the
 * identity of op), converted to the element type */
#define tile_scan_inclusive_op(dst, op, src) TILE__SCAN(dst, src, op, 0, TILE__SCAN_ZERO, 0, 0, 0, tile__init)
#define tile_scan_exclusive_op(dst, op, init, src) TILE__SCAN(dst, src, op, 1, TILE__SCAN_SET, init, 0, 0, tile__init)

/* ---- per-row scans: the _axis forms ----
 * tile_scan_inclusive_axis(dst, src, axis) and the other _axis forms scan
 * along the last dim only: every row (every index of the leading dims)
 * restarts. axis is a compile-time constant naming the last dim (ndim - 1,
 * or -1); other axes do not compile (scan a transposed tile).
 *   src = [[1 2 3] [4 5 6]] (2x3):
 *   tile_scan_inclusive(dst, src)            dst = [[1 3 6] [10 15 21]]
 *   tile_scan_inclusive_axis(dst, src, 1)    dst = [[1 3 6] [4 9 15]]
 *   tile_scan_exclusive_axis(dst, src, -1)   dst = [[0 1 3] [0 4 9]] */
#define TILE__SCAN_AXIS_OK(src, axis)                                              \
    TILE__STATIC_ASSERT((axis) == -1 || (axis) == tile_ndim(src) - 1,              \
                        "tile.h: tile_scan_*_axis scans along the last dim only (axis ndim-1 or -1)")
#define TILE__SCAN_AX(dst, src, axis, op, EXCL, INITF, initv)                      \
    do {                                                                           \
        TILE__SCAN_AXIS_OK(src, axis);                                             \
        TILE__SCAN(dst, src, op, EXCL, INITF, initv, 1, 0, tile__init);            \
    } while (0)
#define tile_scan_inclusive_axis(dst, src, axis) TILE__SCAN_AX(dst, src, axis, TILE__OP_ADD, 0, TILE__SCAN_ZERO, 0)
#define tile_scan_exclusive_axis(dst, src, axis) TILE__SCAN_AX(dst, src, axis, TILE__OP_ADD, 1, TILE__SCAN_ZERO, 0)
#define tile_scan_max_inclusive_axis(dst, src, axis) TILE__SCAN_AX(dst, src, axis, TILE__OP_MAX, 0, TILE__SCAN_ZERO, 0)
#define tile_scan_min_inclusive_axis(dst, src, axis) TILE__SCAN_AX(dst, src, axis, TILE__OP_MIN, 0, TILE__SCAN_ZERO, 0)
#define tile_scan_max_exclusive_axis(dst, src, axis) TILE__SCAN_AX(dst, src, axis, TILE__OP_MAX, 1, TILE__SCAN_LOW, 0)
#define tile_scan_min_exclusive_axis(dst, src, axis) TILE__SCAN_AX(dst, src, axis, TILE__OP_MIN, 1, TILE__SCAN_HIGH, 0)
#define tile_scan_inclusive_op_axis(dst, op, src, axis) TILE__SCAN_AX(dst, src, axis, op, 0, TILE__SCAN_ZERO, 0)
#define tile_scan_exclusive_op_axis(dst, op, init, src, axis) TILE__SCAN_AX(dst, src, axis, op, 1, TILE__SCAN_SET, init)

/* ---- the block aggregate: the _agg forms ----
 * tile_scan_inclusive_agg(dst, src, agg) and the other _agg forms scan like
 * the default forms and also set agg (an lvalue of the element type) to the
 * fold of the whole tile, in every thread (CUB's block_aggregate): one
 * shared write and one read more than the plain scan (and one barrier when
 * the scan runs inside a large shared dst).
 *   src = [3 1 -4 1 5 -9 2 6]:
 *   tile_scan_exclusive_agg(dst, src, total)   dst = [0 3 4 0 1 6 -3 -1], total == 5
 *   tile_scan_max_inclusive_agg(dst, src, m)   m == 6 */
#define tile_scan_inclusive_agg(dst, src, agg) TILE__SCAN(dst, src, TILE__OP_ADD, 0, TILE__SCAN_ZERO, 0, 0, 1, agg)
#define tile_scan_exclusive_agg(dst, src, agg) TILE__SCAN(dst, src, TILE__OP_ADD, 1, TILE__SCAN_ZERO, 0, 0, 1, agg)
#define tile_scan_max_inclusive_agg(dst, src, agg) TILE__SCAN(dst, src, TILE__OP_MAX, 0, TILE__SCAN_ZERO, 0, 0, 1, agg)
#define tile_scan_min_inclusive_agg(dst, src, agg) TILE__SCAN(dst, src, TILE__OP_MIN, 0, TILE__SCAN_ZERO, 0, 0, 1, agg)
#define tile_scan_max_exclusive_agg(dst, src, agg) TILE__SCAN(dst, src, TILE__OP_MAX, 1, TILE__SCAN_LOW, 0, 0, 1, agg)
#define tile_scan_min_exclusive_agg(dst, src, agg) TILE__SCAN(dst, src, TILE__OP_MIN, 1, TILE__SCAN_HIGH, 0, 0, 1, agg)
#define tile_scan_inclusive_op_agg(dst, op, src, agg) TILE__SCAN(dst, src, op, 0, TILE__SCAN_ZERO, 0, 0, 1, agg)
#define tile_scan_exclusive_op_agg(dst, op, init, src, agg) TILE__SCAN(dst, src, op, 1, TILE__SCAN_SET, init, 0, 1, agg)

/* ---- a running prefix from the previous tile: the _prefix forms ----
 * CUB's BlockPrefixCallbackOp in C. prefix is a variable of the element type
 * holding the fold of everything before this tile (the same value in every
 * thread); the scan treats it as an element in front of the tile and then
 * sets it to the fold up to and including the tile's last element, ready
 * for the next tile. So a scan of a whole array is one loop in one kernel:
 *   float run = 0;                              // sum: 0; max: -INFINITY
 *   tile_reg(float, t, 1024);
 *   for (int64_t i = 0; i < n; i += 1024) {
 *       tile_load(t, tile_array1(a + i, n - i), 0);
 *       tile_scan_inclusive_prefix(t, t, run);  // t += run, run += sum(t)
 *       tile_store(tile_array1(b + i, n - i), t, 0);
 *   }
 * Suppose run == 10 and src = [1 2 3 4]:
 *   tile_scan_inclusive_prefix(dst, src, run)   dst = [11 13 16 20], run == 20
 *   tile_scan_exclusive_prefix(dst, src, run)   dst = [10 11 13 16], run == 20
 * The exclusive forms need no init: the prefix is the first value. The
 * prefix is read before and written after the scan: pass a plain variable
 * (not an expression with side effects). */
#define tile_scan_inclusive_prefix(dst, src, prefix) TILE__SCAN(dst, src, TILE__OP_ADD, 0, TILE__SCAN_ZERO, 0, 0, 2, prefix)
#define tile_scan_exclusive_prefix(dst, src, prefix) TILE__SCAN(dst, src, TILE__OP_ADD, 1, TILE__SCAN_ZERO, 0, 0, 2, prefix)
#define tile_scan_max_inclusive_prefix(dst, src, prefix) TILE__SCAN(dst, src, TILE__OP_MAX, 0, TILE__SCAN_ZERO, 0, 0, 2, prefix)
#define tile_scan_min_inclusive_prefix(dst, src, prefix) TILE__SCAN(dst, src, TILE__OP_MIN, 0, TILE__SCAN_ZERO, 0, 0, 2, prefix)
#define tile_scan_max_exclusive_prefix(dst, src, prefix) TILE__SCAN(dst, src, TILE__OP_MAX, 1, TILE__SCAN_ZERO, 0, 0, 2, prefix)
#define tile_scan_min_exclusive_prefix(dst, src, prefix) TILE__SCAN(dst, src, TILE__OP_MIN, 1, TILE__SCAN_ZERO, 0, 0, 2, prefix)
#define tile_scan_inclusive_op_prefix(dst, op, src, prefix) TILE__SCAN(dst, src, op, 0, TILE__SCAN_ZERO, 0, 0, 2, prefix)
#define tile_scan_exclusive_op_prefix(dst, op, src, prefix) TILE__SCAN(dst, src, op, 1, TILE__SCAN_ZERO, 0, 0, 2, prefix)

/* set x (of the element type) to the exclusive scan's first value */
#define TILE__SCAN_ZERO(x, v) memset(&(x), 0, sizeof(x))
#define TILE__SCAN_LOW(x, v) ((x) = TILE__SCAN_LOWEST(x))
#define TILE__SCAN_HIGH(x, v) ((x) = TILE__SCAN_HIGHEST(x))
#define TILE__SCAN_SET(x, v) ((x) = (v))

/* ---- the scan ----
 * dst = scan of src with op (EXCL: exclusive, the first element of each run
 * gets the value INITF(x, initv) sets). ROWS: every row (last dim) is a run
 * of its own; else the whole tile is one run. AGG 1: aggv = the fold of the
 * tile; AGG 2: aggv is a running prefix (read before, the fold including it
 * written after). The tiles' properties are captured once in constants:
 * tile__N elements, tile__B threads, tile__L run length, tile__S slots per
 * thread; per tile (prefix tile__s for src, tile__d for dst) SH shared, C
 * contiguous, 0..3 extents, S0..S2 strides. */
#define TILE__SCAN(dst, src, op, EXCL, INITF, initv, ROWS, AGG, aggv)             \
    do {                                                                           \
        TILE__COOP();                                                              \
        typedef TILE_ELEM_T(src) tile__T;                                          \
        enum {                                                                     \
            tile__N = tile_size(src),                                              \
            tile__B = TILE__BD(src),                                               \
            tile__L = (ROWS) ? TILE__SCAN_LEN(src) : tile__N,                      \
            tile__S = TILE__SLOTS_N(tile__N, tile__B),                             \
            tile__AGG = (AGG) != 0, tile__PFX = (AGG) == 2,                             \
            TILE__SCAN_PROPS(tile__s, src),                                        \
            TILE__SCAN_PROPS(tile__d, dst),                                        \
            tile__dB = TILE__BD(dst)                                               \
        };                                                                         \
        TILE__STATIC_ASSERT(tile__s0 == tile__d0 && tile__s1 == tile__d1 && tile__s2 == tile__d2 && \
                                tile__s3 == tile__d3 && tile__B == tile__dB,       \
                            "tile.h: tile shapes differ");                         \
        TILE__STATIC_ASSERT(!tile__AGG || sizeof(tile__T) <= TILE_SCRATCH_BYTES / 2, \
                            "tile.h: tile_scan_*_agg/_prefix: element larger than half of TILE_SCRATCH_BYTES"); \
        tile__T tile__init;                                                        \
        memset(&tile__init, 0, sizeof(tile__init));                                \
        if (EXCL) INITF(tile__init, initv);                                        \
        tile__T tile__pfx;                                                         \
        memset(&tile__pfx, 0, sizeof(tile__pfx));                                  \
        if (tile__PFX) tile__pfx = (aggv);                                         \
        if (tile__B == 1) TILE__SCAN_SEQ(dst, src, op, EXCL, aggv);                \
        else TILE__SCAN_BLOCK(dst, src, op, EXCL, aggv);                           \
    } while (0)
#define TILE__SCAN_PROPS(p, t)                                                     \
    p##SH = tile_is_shared(t), p##C = TILE__CONTIG(t), p##0 = TILE__D0(t), p##1 = TILE__D1(t), \
    p##2 = TILE__D2(t), p##3 = TILE__D3(t), p##S0 = TILE__S0(t), p##S1 = TILE__S1(t), p##S2 = TILE__S2(t)
/* storage offset of linear element L of the tile with property prefix p */
#define TILE__SCAN_OFF(p, L)                                                       \
    (p##C ? (L)                                                                    \
          : ((L) / (p##1 * p##2 * p##3)) * p##S0 + ((L) / (p##2 * p##3) % p##1) * p##S1 + \
                ((L) / p##3 % p##2) * p##S2 + (L) % p##3)
/* the calling thread's slot s of tile t (prefix p): an lvalue */
#define TILE__SCAN_AT(t, p, s) ((t).v[p##SH ? TILE__SCAN_OFF(p, tile_thread() + (s)*tile__B) : (s)])
/* the same in a rolled loop (s not a constant): a register tile is never
 * indexed at run time, even in the arm not taken */
#define TILE__SCAN_ATR(t, p, s) ((t).v[p##SH ? TILE__SCAN_OFF(p, tile_thread() + (s)*tile__B) : 0])
/* loop over the calling thread's valid slots */
#define TILE__SCAN_EACH(s)                                                         \
    TILE__UNROLL for (int s = 0; s < tile__S; ++s) if (tile__N % tile__B == 0 || tile_thread() + (s)*tile__B < tile__N)

/* One thread holds the whole tile (the CPU, or a GPU block of one thread):
 * slot s is element s; scan the slots in order, restarting every row. */
#define TILE__SCAN_SEQ(dst, src, op, EXCL, aggv)                                   \
    do {                                                                           \
        tile__T tile__run = tile__pfx; /* a prefix stands before element 0 */      \
        TILE__SCAN_EACH(tile__j) {                                                 \
            const tile__T tile__x = TILE__SCAN_AT(src, tile__s, tile__j);          \
            const int tile__st = tile__j % tile__L == 0 && !(tile__PFX && tile__j == 0); \
            const tile__T tile__prev = tile__st ? tile__init : tile__run;          \
            tile__run = tile__st ? tile__x : op(tile__run, tile__x);               \
            TILE__SCAN_AT(dst, tile__d, tile__j) = (EXCL) ? tile__prev : tile__run; \
        }                                                                          \
        if (tile__AGG) (aggv) = tile__run;                                         \
    } while (0)

/* The block algorithm (see the top of this file). More constants:
 *   SEG: more than one row, FULL: every chunk element exists (B divides N),
 *   PAD: padded buffer, STAT: static buffer, INDST: scan inside dst,
 *   ARENA: buffer from the arena, REG: chunk kept in registers,
 *   NW warps. */
#define TILE__SCAN_BLOCK(dst, src, op, EXCL, aggv)                                 \
    do {                                                                           \
        enum {                                                                     \
            tile__ES = (int)sizeof(tile__T),                                       \
            tile__SEG = tile__N > tile__L,                                         \
            tile__FULL = tile__N % tile__B == 0,                                   \
            tile__NW = (tile__B + 31) / 32,                                        \
            tile__REG = tile__S <= TILE_SCAN_REG_CHUNK,                            \
            tile__BYTES = (int)TILE_SCAN_SMEM_BYTES(tile__T, tile__N),             \
            tile__STAT = tile__BYTES <= TILE_SCAN_STATIC_MAX_BYTES,                \
            tile__INDST = !tile__STAT && tile__dSH && tile__dC &&                  \
                          sizeof(TILE_ELEM_T(dst)) == sizeof(tile__T),             \
            tile__ARENA = !tile__STAT && !tile__INDST,                             \
            tile__PAD = !tile__INDST && TILE__SCAN_PADDABLE(tile__ES) &&           \
                        (tile__S == 2 || tile__S % 4 == 0),                        \
            tile__LOG = TILE__SCAN_LOG(tile__ES),                                  \
            /* buffer distance between a thread's striped slots when it is the */ \
            /* same for all (0: computed per slot) */                             \
            tile__SSTR = !tile__PAD ? tile__B                                      \
                         : tile__B % (1 << tile__LOG) == 0 ? tile__B + (tile__B >> tile__LOG) : 0 \
        };                                                                         \
        typedef struct { tile__T tile__v; int tile__f; } tile__rec;                \
        TILE__STATIC_ASSERT(tile__NW * sizeof(tile__rec) <= TILE_SCRATCH_BYTES / 2, \
                            "tile.h: scan scratch too small: raise TILE_SCRATCH_BYTES"); \
        const int tile__mk = tile_smem_mark();                                     \
        tile__T *tile__buf =                                                       \
            tile__STAT ? (tile__T *)TILE_STATIC_SMEM(tile__STAT ? tile__BYTES : 16) \
            : tile__INDST ? (tile__T *)TILE__SCAN_PTR(dst)                         \
                          : (tile__T *)TILE__SMEM_TAKE(tile__ARENA ? (size_t)tile__BYTES : 16); \
        /* 1. stage src (striped) */                                               \
        if (!tile__ARENA) tile_barrier();                                          \
        const int tile__p0 = TILE__SCAN_PH(tile_thread());                         \
        if (tile__sSH && !tile__REG) { /* many slots of a shared tile: rolled */   \
            TILE__SCAN_UNROLL4 for (int tile__i = 0; tile__i < tile__S; ++tile__i) \
                if (tile__FULL || tile_thread() + tile__i * tile__B < tile__N)     \
                    tile__buf[TILE__SCAN_PHS(tile__i)] = TILE__SCAN_ATR(src, tile__s, tile__i); \
        } else {                                                                   \
            TILE__SCAN_EACH(tile__i) tile__buf[TILE__SCAN_PHS(tile__i)] = TILE__SCAN_AT(src, tile__s, tile__i); \
        }                                                                          \
        tile_barrier();                                                            \
        /* 2. the calling thread's chunk: total and row-start flag */             \
        const int tile__t = tile_thread();                                         \
        const int tile__base = tile__t * tile__S;                                  \
        const int tile__r0 = tile__SEG ? tile__base % tile__L : 0;                 \
        tile__T tile__c[tile__REG ? tile__S : 1];                                  \
        tile__T tile__tot;                                                         \
        memset(&tile__tot, 0, sizeof(tile__tot));                                  \
        int tile__tf = 0;                                                          \
        if (tile__REG) {                                                           \
            TILE__UNROLL for (int tile__j = 0; tile__j < (tile__REG ? tile__S : 1); ++tile__j) \
                TILE__SCAN_P1(op, tile__c[tile__j]);                               \
        } else {                                                                   \
            TILE__SCAN_UNROLL4 for (int tile__j = 0; tile__j < tile__S; ++tile__j) { \
                tile__T tile__x1;                                                  \
                TILE__SCAN_P1(op, tile__x1);                                       \
            }                                                                      \
        }                                                                          \
        /* 3. exclusive (segmented) scan of the chunk totals */                   \
        tile__T tile__pre;                                                         \
        TILE__SCAN_THREADS(op, tile__tot, tile__tf, tile__pre);                    \
        /* 4. fold the prefix into the chunk, write it back (a running prefix \
         * of the caller's stands before thread 0's chunk); the owner of the \
         * last element posts the aggregate */                                   \
        TILE__UNUSED tile__T *tile__ag = tile__AGG ? (tile__T *)tile__scratch_next(&tile__k) : (tile__T *)0; \
        {                                                                          \
            tile__T tile__run = tile__pre;                                         \
            int tile__have = tile__t > 0;                                          \
            if (tile__PFX) {                                                       \
                tile__run = tile__t > 0 ? op(tile__pfx, tile__pre) : tile__pfx;    \
                tile__have = 1;                                                    \
            }                                                                      \
            if (tile__REG) {                                                       \
                TILE__UNROLL for (int tile__j = 0; tile__j < (tile__REG ? tile__S : 1); ++tile__j) \
                    TILE__SCAN_P2(op, EXCL, tile__c[tile__j]);                     \
            } else {                                                               \
                TILE__SCAN_UNROLL4 for (int tile__j = 0; tile__j < tile__S; ++tile__j) \
                    TILE__SCAN_P2(op, EXCL, tile__buf[TILE__SCAN_PH(tile__base + tile__j)]); \
            }                                                                      \
            if (tile__AGG && tile__t == (tile__N - 1) / tile__S) tile__ag[0] = tile__run; \
        }                                                                          \
        /* 5. read back (striped) */                                               \
        if (!tile__INDST) {                                                        \
            tile_barrier();                                                        \
            if (tile__dSH && !tile__REG) {                                         \
                TILE__SCAN_UNROLL4 for (int tile__i = 0; tile__i < tile__S; ++tile__i) \
                    if (tile__FULL || tile_thread() + tile__i * tile__B < tile__N)     \
                        TILE__SCAN_ATR(dst, tile__d, tile__i) = tile__buf[TILE__SCAN_PHS(tile__i)]; \
            } else {                                                               \
                TILE__SCAN_EACH(tile__i)                                           \
                    TILE__SCAN_AT(dst, tile__d, tile__i) = tile__buf[TILE__SCAN_PHS(tile__i)]; \
            }                                                                      \
        }                                                                          \
        if (tile__AGG) {                                                           \
            if (tile__INDST) tile_barrier(); /* else step 5's barrier serves */   \
            (aggv) = tile__ag[0];                                                  \
        }                                                                          \
        if (tile__ARENA) tile_smem_release(tile__mk);                              \
        else if (tile__dSH) tile_barrier();                                        \
    } while (0)

/* buffer index of element e; of the calling thread's striped slot i */
#define TILE__SCAN_PH(e) ((e) + (tile__PAD ? (e) >> tile__LOG : 0))
#define TILE__SCAN_PHS(i) (tile__SSTR ? tile__p0 + (i)*tile__SSTR : TILE__SCAN_PH(tile_thread() + (i)*tile__B))
/* does element e of the calling thread's chunk (j-th) start a row? r0 is the
 * chunk start's position in its row */
#define TILE__SCAN_START(j)                                                        \
    (tile__SEG && (tile__L >= tile__S ? (tile__r0 + (j) == tile__L || tile__r0 + (j) == 0) \
                                      : (tile__r0 + (j)) % tile__L == 0))
/* pass 1, element j: read it into X, fold it into the chunk total */
#define TILE__SCAN_P1(op, X)                                                       \
    do {                                                                           \
        if (tile__FULL || tile__base + tile__j < tile__N) {                        \
            (X) = tile__buf[TILE__SCAN_PH(tile__base + tile__j)];                  \
            const int tile__st = TILE__SCAN_START(tile__j);                        \
            if (tile__j == 0 || tile__st) tile__tot = (X);                         \
            else tile__tot = op(tile__tot, (X));                                   \
            if (tile__st) tile__tf = 1;                                            \
        }                                                                          \
    } while (0)
/* pass 2, element j (value X): the running value with the prefix, written
 * back to the buffer (inclusive: after element j; exclusive: before it) */
#define TILE__SCAN_P2(op, EXCL, X)                                                 \
    do {                                                                           \
        if (tile__FULL || tile__base + tile__j < tile__N) {                        \
            const tile__T tile__x = (X);                                           \
            const int tile__fresh = TILE__SCAN_START(tile__j) || !tile__have;      \
            tile__T tile__out = tile__fresh ? tile__init : tile__run;              \
            tile__run = tile__fresh ? tile__x : op(tile__run, tile__x);            \
            tile__have = 1;                                                        \
            if (!(EXCL)) tile__out = tile__run;                                    \
            tile__buf[TILE__SCAN_PH(tile__base + tile__j)] = tile__out;            \
        }                                                                          \
    } while (0)

/* fold warp w's total into the warp prefix vw (restarting at a row start) */
#define TILE__SCAN_WFOLD(op)                                                       \
    do {                                                                           \
        const tile__T tile__q = tile__sc[tile__w].tile__v;                         \
        if (tile__w == 0 || (tile__SEG && tile__sc[tile__w].tile__f)) tile__vw = tile__q; \
        else tile__vw = op(tile__vw, tile__q);                                     \
    } while (0)
#if TILE_ON_DEVICE
#define TILE__SCAN_UNROLL4 _Pragma("unroll 4")
#define TILE__SCAN_UNROLL1 _Pragma("unroll 1")
#else
#define TILE__SCAN_UNROLL4
#define TILE__SCAN_UNROLL1
#endif

/* Block-wide exclusive scan of the per-thread pairs (flag F, value V): OUT =
 * the fold of V over the threads before the calling one, restarting at the
 * last thread before it whose flag is set (that thread's V included).
 * Thread 0's OUT is unspecified. Within a warp: shuffles (Hillis-Steele);
 * across warps: warp totals through the scratch, one barrier. */
#define TILE__SCAN_THREADS(op, V, F, OUT)                                          \
    do {                                                                           \
        const int tile__lane = tile_thread() % 32, tile__warp = tile_thread() / 32; \
        const int tile__act = (tile__B % 32 == 0 || tile__B - tile__warp * 32 >= 32) ? 32 : tile__B - tile__warp * 32; \
        TILE__UNUSED const unsigned tile__mask = tile__act == 32 ? 0xffffffffu : ((1u << tile__act) - 1u); \
        tile__T tile__v = (V);                                                     \
        int tile__f = (F);                                                         \
        /* inclusive within the warp */                                            \
        TILE__UNROLL for (int tile__d = 1; tile__d < 32; tile__d *= 2) {           \
            if (tile__d < (tile__B < 32 ? tile__B : 32)) {                         \
                tile__T tile__o;                                                   \
                TILE__SCAN_SHFL_UP(tile__o, tile__v, tile__d, tile__mask);         \
                int tile__of = 0;                                                  \
                if (tile__SEG) TILE__SCAN_SHFL_UP(tile__of, tile__f, tile__d, tile__mask); \
                if (tile__lane >= tile__d) {                                       \
                    if (!(tile__SEG && tile__f)) tile__v = op(tile__o, tile__v);   \
                    tile__f |= tile__of;                                           \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        /* exclusive within the warp: the previous lane's inclusive value */      \
        tile__T tile__ve;                                                          \
        int tile__fe = 0;                                                          \
        TILE__SCAN_SHFL_UP(tile__ve, tile__v, 1, tile__mask);                      \
        if (tile__SEG) TILE__SCAN_SHFL_UP(tile__fe, tile__f, 1, tile__mask);       \
        (OUT) = tile__ve;                                                          \
        if (tile__NW > 1) {                                                        \
            /* warps before the last one are full: lane 31 holds the total */    \
            tile__rec *tile__sc = (tile__rec *)tile__scratch_next(&tile__k);       \
            if (tile__lane == 31 && tile__warp < tile__NW - 1) {                   \
                tile__sc[tile__warp].tile__v = tile__v;                            \
                tile__sc[tile__warp].tile__f = tile__f;                            \
            }                                                                      \
            tile_barrier();                                                        \
            tile__T tile__vw = tile__v;                                            \
            if (tile__NW <= 8) {                                                   \
                /* fold the totals of the warps before, unrolled */               \
                TILE__UNROLL for (int tile__w = 0; tile__w < tile__NW - 1; ++tile__w) \
                    if (tile__w < tile__warp) TILE__SCAN_WFOLD(op);                \
            } else if (tile__B % 32 == 0) {                                        \
                /* up to 31 totals: lane i takes warp i's, the warp scans them */ \
                /* with shuffles and picks lane warp-1 (O(1) registers: the */    \
                /* chunk is live, and 1024 threads have 64 registers) */          \
                tile__T tile__a;                                                   \
                int tile__af = 0;                                                  \
                memset(&tile__a, 0, sizeof(tile__a));                              \
                if (tile__lane < tile__NW - 1) {                                   \
                    tile__a = tile__sc[tile__lane].tile__v;                        \
                    if (tile__SEG) tile__af = tile__sc[tile__lane].tile__f;        \
                }                                                                  \
                TILE__UNROLL for (int tile__d = 1; tile__d < 32; tile__d *= 2) {   \
                    tile__T tile__o;                                               \
                    int tile__of = 0;                                              \
                    TILE__SCAN_SHFL_UP(tile__o, tile__a, tile__d, 0xffffffffu);    \
                    if (tile__SEG) TILE__SCAN_SHFL_UP(tile__of, tile__af, tile__d, 0xffffffffu); \
                    if (tile__lane >= tile__d) {                                   \
                        if (!(tile__SEG && tile__af)) tile__a = op(tile__o, tile__a); \
                        tile__af |= tile__of;                                      \
                    }                                                              \
                }                                                                  \
                TILE__SCAN_SHFL_IDX(tile__vw, tile__a, tile__warp > 0 ? tile__warp - 1 : 0, 0xffffffffu); \
            } else {                                                               \
                /* the same with a partial last warp: one total at a time */      \
                TILE__SCAN_UNROLL1 for (int tile__w = 0; tile__w < tile__warp; ++tile__w) \
                    TILE__SCAN_WFOLD(op);                                          \
            }                                                                      \
            if (tile__lane == 0) (OUT) = tile__vw;                                 \
            else if (tile__warp > 0 && !(tile__SEG && tile__fe)) (OUT) = op(tile__vw, tile__ve); \
        }                                                                          \
    } while (0)

#endif /* TILE_SCAN_H */
