/* tile/select.h - selection, partition, discontinuity flags, run-length
 * encoding and adjacent differences of whole tiles (CUB's BlockDiscontinuity
 * and BlockAdjacentDifference, and a block-wide DeviceSelect /
 * DevicePartition).
 *
 * Every operation is cooperative (every thread of the block calls it) and
 * works in the tile's linear (row-major) order: a 2x3 tile is one sequence of
 * 6 elements, as in the scans. Sources and destinations may be register or
 * shared tiles of one shape; a destination may be the source (in place).
 * Flags tiles have the source's shape and any integer element type.
 *
 * Suppose src holds [3 3 -1 -1 -1 4 3 3] (i32, shape 8):
 *   tile_flag_heads(f, src)                  f = [1 0 1 0 0 1 1 0]
 *   tile_flag_tails(f, src)                  f = [0 1 0 0 1 1 0 1]
 *   tile_adjacent_difference(d, src)         d = [3 0 -4 0 0 5 -1 0]
 *   tile_adjacent_difference_right(d, src)   d = [0 4 0 0 -5 1 0 3]
 *   tile_select_if(d, src, is_pos, n)        d = [3 3 4 3 3 3 ...], n == 5
 *                                            (d[5..7] unchanged)
 *   tile_partition_if(d, src, is_pos, n)     d = [3 3 4 3 3 -1 -1 -1], n == 5
 *   tile_run_length_encode(v, l, n, src)     v = [3 -1 4 3 ...], l = [2 3 1 2 ...], n == 4
 * with TILE_FUNC int is_pos(int x) { return x > 0; }.
 *
 * How: selection and partition flag the elements, take an exclusive scan of
 * the flags with its aggregate (the kept count: from warp ballots on the GPU
 * where the block is whole warps and divides the tile, else scan.h's), scatter
 * the elements to their places in a staging buffer and read them back striped.
 * Discontinuities and differences read each element's neighbour: in a
 * register source it is the same slot of the adjacent thread, taken with a
 * warp shuffle (each warp's edge lane reads the other warp's through 512
 * bytes of shared memory: two barriers; see TILE_NEIGHBOR_SHFL below), a
 * shared source is read in place; the results are held in
 * registers until every thread has read, so the destination may be the
 * source. The staging buffers are static shared memory of the tile's size
 * (their own tags: no arena budget), at most TILE_STATIC_SMEM_MAX bytes; a
 * larger tile does not compile. On the CPU (one thread) a static host
 * buffer serves.
 */
#ifndef TILE_SELECT_H
#define TILE_SELECT_H

#include "scan.h"

/* staging memory: static shared memory of its own tag on the device, one
 * static buffer on the host (a CPU block is one thread) */
TILE_API unsigned char *tile__sel_host(void) {
#if TILE_ON_DEVICE
    return 0;
#else
    static union { double d; int64_t i; unsigned char b[TILE_STATIC_SMEM_MAX]; } tile__hb;
    return tile__hb.b;
#endif
}
enum { TILE__TAG_NEIGHBOR = TILE__TAG_SELECT + 1 };
/* the warp's ballot of p and a population count (the ballot path of
 * TILE__SELECT, device only: whole warps call it, so the mask is the
 * constant full one; warp.h's tile_warp_ballot takes it at run time, which
 * ptxas turns into the slower collective form) */
TILE_API unsigned tile__sel_ballot(int p) {
#if TILE_ON_DEVICE
    return __ballot_sync(0xffffffffu, p);
#else
    return (unsigned)(p != 0);
#endif
}
TILE_API int tile__sel_popc(unsigned m) {
#if TILE_ON_DEVICE
    return __popc(m);
#else
    int c = 0;
    for (; m; m &= m - 1u) ++c;
    return c;
#endif
}
#if TILE_CUDA
#define TILE__SEL_BUF(tag, bytes) (TILE_ON_DEVICE ? TILE__SMEM_TAG(tag, bytes) : tile__sel_host())
#else
#define TILE__SEL_BUF(tag, bytes) tile__sel_host()
#endif

/* ---- selection and partition ----
 * tile_select_flagged(dst, src, flags, count): the elements of src whose
 *   flag is nonzero go, in order, to dst[0 .. count); dst[count ..] is left
 *   as it was. count (an int lvalue) gets the number kept, in every thread.
 * tile_select_if(dst, src, pred, count): the same with pred(x) != 0 as the
 *   flag (a TILE_FUNC or macro of one element).
 * tile_partition_flagged / tile_partition_if(dst, src, ..., count): the kept
 *   elements in order, then the others in order (both stable; CUB's
 *   DevicePartition reverses the rejected ones, this does not).
 *   src = [5 -1 7 0 2], flags = [1 0 1 0 1]:
 *   tile_select_flagged(d, src, flags, n)      d = [5 7 2 ? ?], n == 3
 *   tile_partition_flagged(d, src, flags, n)   d = [5 7 2 -1 0], n == 3 */
#define tile_select_flagged(dst, src, flags, count) TILE__SELECT(dst, src, TILE__SEL_FLAG, flags, count, 0)
#define tile_select_if(dst, src, pred, count) TILE__SELECT(dst, src, TILE__SEL_PRED, pred, count, 0)
#define tile_partition_flagged(dst, src, flags, count) TILE__SELECT(dst, src, TILE__SEL_FLAG, flags, count, 1)
#define tile_partition_if(dst, src, pred, count) TILE__SELECT(dst, src, TILE__SEL_PRED, pred, count, 1)

/* the flag of the calling thread's slot s */
#define TILE__SEL_FLAG(src, f, s) (TILE__AT(f, s) != 0)
#define TILE__SEL_PRED(src, f, s) (f(TILE__AT(src, s)) != 0)

/* The flags' exclusive scan: on a striped register tile of whole warps (B a
 * multiple of 32 dividing N, at most 32 slots) from warp ballots, with no
 * staging of the flags: slot s's prefix is popc(ballot_s & lanes below) +
 * the counts of warps before it in slot s + every warp's count in slots
 * before s (one int per warp and slot in shared memory, one barrier; lane s
 * of each warp sums slot s's counts and a warp scan over the lanes adds the
 * slots before). Otherwise tile_scan_exclusive_agg. */
#define TILE__SELECT(dst, src, FLAGF, farg, count, PART)                           \
    do {                                                                           \
        TILE__SAME_SHAPE(dst, src);                                                \
        TILE__CAPTURE(tile__sl, src);                                              \
        enum {                                                                     \
            tile__slN = tile__sl__d0 * tile__sl__d1 * tile__sl__d2 * tile__sl__d3, \
            tile__slK = (tile__slN + tile__sl__bd - 1) / tile__sl__bd, /* slots */ \
            tile__slW = tile__sl__bd / 32 > 0 ? tile__sl__bd / 32 : 1, /* warps */ \
            tile__slBAL = TILE_ON_DEVICE && tile__sl__bd > 1 && tile__sl__bd % 32 == 0 && \
                          tile__slN % tile__sl__bd == 0 && tile__slK <= 32,       \
            tile__slVB = (int)TILE__R16((unsigned long)tile__slN * sizeof(tile__sl__et)), \
            tile__slBY = tile__slVB + (tile__slBAL ? (int)TILE__R16((unsigned long)tile__slW * tile__slK * 4u) : 0) \
        };                                                                         \
        TILE__STATIC_ASSERT(tile__slBY <= TILE_STATIC_SMEM_MAX,                    \
                            "tile.h: tile_select/tile_partition: the tile is larger than TILE_STATIC_SMEM_MAX"); \
        TILE__REG_TYPE_(int, tile__sl__bd, tile__sl__nd, tile__sl__d0, tile__sl__d1, tile__sl__d2, \
                        tile__sl__d3) tile__slf, tile__slp;                        \
        TILE__EACH(tile__slf, tile__s) TILE__AT(tile__slf, tile__s) = FLAGF(src, farg, tile__s); \
        int tile__slc = 0;                                                         \
        if (tile__slBAL) {                                                         \
            int *tile__slq = (int *)(TILE__SEL_BUF(TILE__TAG_SELECT, tile__slBY) + tile__slVB); \
            const int tile__ln = tile_thread() & 31, tile__wp = tile_thread() >> 5; \
            tile_barrier(); /* earlier readers of the buffer are done */           \
            TILE__EACH(tile__slf, tile__s) {                                       \
                const unsigned tile__m = tile__sel_ballot(TILE__AT(tile__slf, tile__s)); \
                TILE__AT(tile__slp, tile__s) = tile__sel_popc(tile__m & ((1u << tile__ln) - 1u)); \
                if (tile__ln == 0) tile__slq[tile__s * tile__slW + tile__wp] = tile__sel_popc(tile__m); \
            }                                                                      \
            tile_barrier();                                                        \
            int tile__st = 0, tile__sx = 0; /* lane s: slot s's total; its warps before this one */ \
            if (tile__ln < tile__slK)                                              \
                TILE__UNROLL for (int tile__w = 0; tile__w < tile__slW; ++tile__w) { \
                    const int tile__c = tile__slq[tile__ln * tile__slW + tile__w]; \
                    tile__st += tile__c;                                           \
                    tile__sx += tile__w < tile__wp ? tile__c : 0;                  \
                }                                                                  \
            int tile__si = tile__st; /* inclusive scan of the slot totals over the lanes */ \
            TILE__UNROLL for (int tile__d = 1; tile__d < tile__slK; tile__d <<= 1) { \
                int tile__y;                                                       \
                TILE__SCAN_SHFL_UP(tile__y, tile__si, tile__d, 0xffffffffu);       \
                if (tile__ln >= tile__d) tile__si += tile__y;                      \
            }                                                                      \
            const int tile__sp = tile__si - tile__st + tile__sx;                   \
            TILE__SCAN_SHFL_IDX(tile__slc, tile__si, tile__slK - 1, 0xffffffffu);  \
            TILE__EACH(tile__slf, tile__s) {                                       \
                int tile__y;                                                       \
                TILE__SCAN_SHFL_IDX(tile__y, tile__sp, tile__s, 0xffffffffu);      \
                TILE__AT(tile__slp, tile__s) += tile__y;                           \
            }                                                                      \
        } else {                                                                   \
            /* the scan's barriers also order this buffer after earlier readers */ \
            tile_scan_exclusive_agg(tile__slp, tile__slf, tile__slc);              \
        }                                                                          \
        tile__sl__et *tile__slb = (tile__sl__et *)TILE__SEL_BUF(TILE__TAG_SELECT, tile__slBY); \
        TILE__EACH(tile__slf, tile__s) {                                           \
            const int tile__p = TILE__AT(tile__slp, tile__s);                      \
            if (TILE__AT(tile__slf, tile__s)) tile__slb[tile__p] = TILE__AT(src, tile__s); \
            else if (PART) tile__slb[tile__slc + TILE__LIN(tile__slf, tile__s) - tile__p] = TILE__AT(src, tile__s); \
        }                                                                          \
        tile_barrier(); /* also: every thread has read src (dst may be src) */ \
        TILE__EACH(dst, tile__s) {                                                 \
            if ((PART) || TILE__LIN(dst, tile__s) < tile__slc) TILE__AT(dst, tile__s) = tile__slb[TILE__LIN(dst, tile__s)]; \
        }                                                                          \
        TILE__WRITE_END(dst);                                                      \
        (count) = tile__slc;                                                       \
    } while (0)

/* ---- neighbours ----
 * TILE__NEIGHBOR(dst, src, D, CALL, EXPR, EDGE): dst[i] = CALL(EXPR, src[i],
 * src[i+D]) where i+D is inside the tile, else EDGE(src[i]) (D = -1 or +1);
 * CALL is TILE__XY (EXPR(x, neighbour)) or TILE__YX (EXPR(neighbour, x)).
 *
 * A register tile is striped (slot s of thread t holds element t + s * B),
 * so the neighbour of a slot is the same slot of the next-lower (D = -1) or
 * next-higher thread. TILE_NEIGHBOR_SHFL 1 (the default) takes it with one
 * warp shuffle per slot; only each warp's edge lane needs another warp's
 * element: that lane's slots (B/32 x slots elements, 512 bytes for 256 x 16
 * floats) go through static shared memory, one barrier to publish them and
 * one before, for earlier readers of the buffer. It applies when B is a
 * multiple of 32, B divides the tile and an element is at most 16 bytes
 * (otherwise, and with TILE_NEIGHBOR_SHFL 0, the whole tile is staged:
 * every element written and read back through shared memory, two
 * barriers). The macro is read where an operation is expanded. */
#ifndef TILE_NEIGHBOR_SHFL
#define TILE_NEIGHBOR_SHFL 1
#endif
#define TILE__XY(f, x, y) f(x, y)
#define TILE__YX(f, x, y) f(y, x)
#define TILE__NEIGHBOR(dst, src, D, CALL, EXPR, EDGE)                              \
    do {                                                                           \
        TILE__SAME_SHAPE(dst, src);                                                \
        TILE__CAPTURE(tile__nb, src);                                              \
        enum {                                                                     \
            tile__nbN = tile__nb__d0 * tile__nb__d1 * tile__nb__d2 * tile__nb__d3, \
            tile__nbREG = tile__nb__kind != TILE__SHARED && tile__nb__bd > 1,       \
            tile__nbSH = (TILE_NEIGHBOR_SHFL) && tile__nbREG && tile__nb__bd % 32 == 0 && \
                         tile__nbN % tile__nb__bd == 0 && sizeof(tile__nb__et) <= 16, \
            tile__nbSTG = tile__nbREG && !tile__nbSH,                               \
            tile__nbW = tile__nb__bd / 32 > 0 ? tile__nb__bd / 32 : 1, /* warps */ \
            tile__nbK = (tile__nbN + tile__nb__bd - 1) / tile__nb__bd, /* slots */ \
            tile__nbBY = tile__nbSTG ? (int)TILE__R16((unsigned long)tile__nbN * sizeof(tile__nb__et)) \
                       : tile__nbSH ? (int)TILE__R16((unsigned long)tile__nbW * tile__nbK * sizeof(tile__nb__et)) \
                                    : 0                                            \
        };                                                                         \
        TILE__STATIC_ASSERT(tile__nbBY <= TILE_STATIC_SMEM_MAX,                    \
                            "tile.h: tile_flag_*/tile_adjacent_difference: a register tile this large needs more " \
                            "static shared memory than allowed: use a shared tile (tile_to_shared)"); \
        TILE__UNUSED tile__nb__et *tile__nbb = (tile__nb__et *)TILE__SMEM_TAG(TILE__TAG_NEIGHBOR, tile__nbBY); \
        TILE_ELEM_T(dst) tile__nbr[tile_slots(dst)];                               \
        memset(tile__nbr, 0, sizeof(tile__nbr));                                   \
        if (tile__nbSH) {                                                          \
            const int tile__ln = tile_thread() & 31, tile__wp = tile_thread() >> 5; \
            /* the edge lane reads slot s of the neighbouring warp's row, or, \
             * in the block's first (last) warp, the last (first) warp's slot \
             * s - 1 (s + 1): one index, so one load per slot */              \
            const int tile__eo = (tile__wp + (D) >= 0 && tile__wp + (D) < tile__nbW) \
                ? (tile__wp + (D)) * tile__nbK : ((D) < 0 ? (tile__nbW - 1) * tile__nbK - 1 : 1); \
            const int tile__ew = (tile__wp + (D) >= 0 && tile__wp + (D) < tile__nbW); \
            tile_barrier(); /* earlier readers of the buffer are done */           \
            /* the lane whose slots the neighbouring warp's edge lane needs */    \
            if (tile__ln == ((D) < 0 ? 31 : 0))                                    \
                TILE__EACH(src, tile__s) tile__nbb[tile__wp * tile__nbK + tile__s] = TILE__AT(src, tile__s); \
            tile_barrier();                                                        \
            TILE__EACH(src, tile__s) {                                             \
                const tile__nb__et tile__x = TILE__AT(src, tile__s);               \
                tile__nb__et tile__y;                                              \
                /* every lane shuffles (lane + D mod 32: the edge lane's value is replaced below) */ \
                TILE__SCAN_SHFL_IDX(tile__y, tile__x, (tile__ln + (D)) & 31, 0xffffffffu); \
                int tile__in = 1;                                                  \
                if (tile__ln == ((D) < 0 ? 0 : 31)) {                              \
                    /* outside the tile: the first thread's slot 0, the last's last */ \
                    if (tile__ew || (tile__s + (D) >= 0 && tile__s + (D) < tile__nbK)) \
                        tile__y = tile__nbb[tile__eo + tile__s];                   \
                    else                                                           \
                        tile__in = 0;                                              \
                }                                                                  \
                if (tile__in)                                                      \
                    tile__nbr[tile__s] = CALL(EXPR, tile__x, tile__y);             \
                else                                                               \
                    tile__nbr[tile__s] = EDGE(tile__x);                            \
            }                                                                      \
        } else {                                                                   \
            if (tile__nbSTG) {                                                     \
                tile_barrier(); /* earlier readers of the buffer are done */       \
                TILE__EACH(src, tile__s) tile__nbb[TILE__LIN(src, tile__s)] = TILE__AT(src, tile__s); \
                tile_barrier();                                                    \
            }                                                                      \
            TILE__EACH(src, tile__s) {                                             \
                const int tile__j = TILE__LIN(src, tile__s) + (D);                 \
                const tile__nb__et tile__x = TILE__AT(src, tile__s);               \
                if (tile__j >= 0 && tile__j < tile__nbN) {                         \
                    const tile__nb__et tile__y = tile__nbSTG ? tile__nbb[tile__j]  \
                        : (src).v[tile_is_shared(src) ? TILE__OFF(src, tile__j) : tile__nb__bd > 1 ? 0 : tile__j]; \
                    tile__nbr[tile__s] = CALL(EXPR, tile__x, tile__y);             \
                } else {                                                           \
                    tile__nbr[tile__s] = EDGE(tile__x);                            \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        TILE__WRITE_BEGIN(dst);                                                    \
        TILE__EACH(dst, tile__s) TILE__AT(dst, tile__s) = tile__nbr[tile__s];      \
        TILE__WRITE_END(dst);                                                      \
    } while (0)

/* ---- discontinuity flags (CUB's BlockDiscontinuity) ----
 * tile_flag_heads(flags, src): flags[i] = 1 where src[i] starts a run of
 *   equal elements (i == 0 or src[i] != src[i-1]), else 0.
 * tile_flag_heads_op(flags, op, src): flags[i] = op(src[i-1], src[i]) (converted),
 *   flags[0] = 1 (CUB's FlagHeads with flag_op and no predecessor).
 * tile_flag_heads_prev(flags, src, prev): as tile_flag_heads, but flags[0]
 *   = src[0] != prev: prev is the element before the tile (the previous
 *   tile's last), CUB's tile_predecessor_item.
 * tile_flag_tails(flags, src), tile_flag_tails_op(flags, op, src):
 *   flags[i] = 1 where src[i] ends a run (i == N-1 or src[i] != src[i+1];
 *   op(src[i], src[i+1]) for the _op form).
 *   src = [1 1 2 2 2 7]:  heads [1 0 1 0 0 1], tails [0 1 0 0 1 1]
 *   tile_flag_heads_prev(f, src, 1):  f = [0 0 1 0 0 1] */
#define TILE__NE(a, b) ((a) != (b))
#define TILE__ONE(x) 1
#define tile_flag_heads(flags, src) TILE__NEIGHBOR(flags, src, -1, TILE__XY, TILE__NE, TILE__ONE)
#define tile_flag_tails(flags, src) TILE__NEIGHBOR(flags, src, 1, TILE__XY, TILE__NE, TILE__ONE)
/* heads: op(earlier, later) = op(neighbour, x); tails: op(x, neighbour) */
#define tile_flag_heads_op(flags, op, src) TILE__NEIGHBOR(flags, src, -1, TILE__YX, op, TILE__ONE)
#define tile_flag_tails_op(flags, op, src) TILE__NEIGHBOR(flags, src, 1, TILE__XY, op, TILE__ONE)
#define tile_flag_heads_prev(flags, src, prev)                                     \
    do {                                                                           \
        const TILE_ELEM_T(src) tile__pv = (prev);                                  \
        TILE__NEIGHBOR(flags, src, -1, TILE__XY, TILE__NE, TILE__NE_PV);           \
    } while (0)
#define TILE__NE_PV(x) ((x) != tile__pv)
/* tile_flag_tails_next(flags, src, next): as tile_flag_tails, but
 * flags[N-1] = src[N-1] != next: next is the element after the tile (the
 * next tile's first), CUB's tile_successor_item.
 *   src = [1 1 2 2 2 7]:  tile_flag_tails_next(f, src, 7)   f = [0 1 0 0 1 0] */
#define tile_flag_tails_next(flags, src, next)                                     \
    do {                                                                           \
        const TILE_ELEM_T(src) tile__pv = (next);                                  \
        TILE__NEIGHBOR(flags, src, 1, TILE__XY, TILE__NE, TILE__NE_PV);            \
    } while (0)

/* ---- adjacent differences (CUB's BlockAdjacentDifference) ----
 * tile_adjacent_difference(dst, src): dst[i] = src[i] - src[i-1], dst[0] =
 *   src[0] (CUB's SubtractLeft).
 * tile_adjacent_difference_op(dst, op, src): dst[i] = op(src[i], src[i-1]),
 *   dst[0] = src[0].
 * tile_adjacent_difference_prev(dst, src, prev): dst[0] = src[0] - prev
 *   (prev: the element before the tile; CUB's tile_predecessor_item).
 * tile_adjacent_difference_right(dst, src): dst[i] = src[i] - src[i+1],
 *   dst[N-1] = src[N-1] (CUB's SubtractRight).
 *   src = [1 4 9 16]:  tile_adjacent_difference          [1 3 5 7]
 *                      tile_adjacent_difference_prev(.., 1)   [0 3 5 7]
 *                      tile_adjacent_difference_right   [-3 -5 -7 16] */
#define TILE__DIFF(x, y) TILE__G_SUB(x, y)
#define TILE__SAME(x) (x)
#define tile_adjacent_difference(dst, src) TILE__NEIGHBOR(dst, src, -1, TILE__XY, TILE__DIFF, TILE__SAME)
#define tile_adjacent_difference_right(dst, src) TILE__NEIGHBOR(dst, src, 1, TILE__XY, TILE__DIFF, TILE__SAME)
#define tile_adjacent_difference_op(dst, op, src) TILE__NEIGHBOR(dst, src, -1, TILE__XY, op, TILE__SAME)
#define tile_adjacent_difference_prev(dst, src, prev)                              \
    do {                                                                           \
        const TILE_ELEM_T(src) tile__pv = (prev);                                  \
        TILE__NEIGHBOR(dst, src, -1, TILE__XY, TILE__DIFF, TILE__DIFF_PV);         \
    } while (0)
#define TILE__DIFF_PV(x) TILE__G_SUB(x, tile__pv)
/* tile_adjacent_difference_right_next(dst, src, next): as
 * tile_adjacent_difference_right, but dst[N-1] = src[N-1] - next (next: the
 * element after the tile; CUB's SubtractRight with tile_successor_item).
 *   src = [1 4 9 16]:  tile_adjacent_difference_right_next(d, src, 25)   d = [-3 -5 -7 -9] */
#define tile_adjacent_difference_right_next(dst, src, next)                        \
    do {                                                                           \
        const TILE_ELEM_T(src) tile__pv = (next);                                  \
        TILE__NEIGHBOR(dst, src, 1, TILE__XY, TILE__DIFF, TILE__DIFF_PV);          \
    } while (0)

/* ---- run-length encoding ----
 * tile_run_length_encode(vals, lens, count, src): count (an int lvalue) gets
 * the number of runs of equal elements in src; vals[k] the value and
 * lens[k] (an int tile of src's shape) the length of run k, k < count;
 * elements from count on are left as they were.
 *   src = [3 3 -1 -1 -1 4 3 3]:  vals = [3 -1 4 3 ...], lens = [2 3 1 2 ...], count == 4 */
#define tile_run_length_encode(vals, lens, count, src)                             \
    do {                                                                           \
        TILE__SAME_SHAPE(vals, src);                                               \
        TILE__SAME_SHAPE(lens, src);                                               \
        TILE__CAPTURE(tile__rl, src);                                              \
        enum {                                                                     \
            tile__rlN = tile__rl__d0 * tile__rl__d1 * tile__rl__d2 * tile__rl__d3, \
            tile__rlVB = (int)TILE__R16((unsigned long)tile__rlN * sizeof(tile__rl__et)), \
            tile__rlBY = tile__rlVB + (int)TILE__R16((unsigned long)(tile__rlN + 1) * sizeof(int)) \
        };                                                                         \
        TILE__STATIC_ASSERT(tile__rlBY <= TILE_STATIC_SMEM_MAX,                    \
                            "tile.h: tile_run_length_encode: the tile is larger than TILE_STATIC_SMEM_MAX allows"); \
        TILE__REG_TYPE_(int, tile__rl__bd, tile__rl__nd, tile__rl__d0, tile__rl__d1, tile__rl__d2, \
                        tile__rl__d3) tile__rlf, tile__rlp;                        \
        tile_flag_heads(tile__rlf, src);                                           \
        int tile__rlc = 0;                                                         \
        tile_scan_exclusive_agg(tile__rlp, tile__rlf, tile__rlc);                  \
        unsigned char *tile__rlm = TILE__SEL_BUF(TILE__TAG_SELECT, tile__rlBY);    \
        tile__rl__et *tile__rlv = (tile__rl__et *)tile__rlm;                       \
        int *tile__rls = (int *)(tile__rlm + tile__rlVB); /* run starts, then N */ \
        TILE__EACH(tile__rlf, tile__s) {                                           \
            if (TILE__AT(tile__rlf, tile__s)) {                                    \
                const int tile__p = TILE__AT(tile__rlp, tile__s);                  \
                tile__rlv[tile__p] = TILE__AT(src, tile__s);                       \
                tile__rls[tile__p] = TILE__LIN(tile__rlf, tile__s);                \
            }                                                                      \
        }                                                                          \
        if (tile_thread() == 0) tile__rls[tile__rlc] = tile__rlN;                  \
        tile_barrier();                                                            \
        TILE__EACH(vals, tile__s) {                                                \
            const int tile__k = TILE__LIN(vals, tile__s);                          \
            if (tile__k < tile__rlc) TILE__AT(vals, tile__s) = tile__rlv[tile__k]; \
        }                                                                          \
        TILE__EACH(lens, tile__s) {                                                \
            const int tile__k = TILE__LIN(lens, tile__s);                          \
            if (tile__k < tile__rlc) TILE__AT(lens, tile__s) = tile__rls[tile__k + 1] - tile__rls[tile__k]; \
        }                                                                          \
        if (tile_is_shared(vals) || tile_is_shared(lens)) tile_barrier();          \
        (count) = tile__rlc;                                                       \
    } while (0)

#endif /* TILE_SELECT_H */
