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
 *                                 (min and max of floats: NaN if any element is NaN)
 *   tile_reduce(r, my_op, t);     fold with any TILE_FUNC binary op
 *   tile_argmax(i, t);            tile_value(i) == 255 (an int tile)
 * Suppose a is a 2x3 tile [[1 2 3] [4 5 6]]:
 *   tile_sum_axis(r, a, 1);       r = [6 15]   (shape (2): row sums)
 *   tile_sum_axis(c, a, 0);       c = [5 7 9]  (shape (3): column sums)
 *   tile_max_axis_keepdims(m, a, 1);  m = [[3] [6]] (shape (2, 1))
 *   tile_sub_bcast(a, a, m);      a = [[-2 -1 0] [-2 -1 0]] (a - row max)
 *
 * Any element type whose op is defined reduces: vectors and matrices add
 * component-wise (tile_sum of a mat33f tile is the matrix sum). The
 * cross-warp exchange needs ceil(block/32) elements; when that is more than
 * half of TILE_SCRATCH_BYTES (large vectors/matrices with large blocks) the
 * reduction takes a static shared buffer of its own size instead, so every
 * element type works with every block size.
 */
#ifndef TILE_REDUCE_H
#define TILE_REDUCE_H

#include "construct.h"
#include "half.h"

/* Bytes of the static shared scratch used for cross-warp combines and
 * broadcasts. One exchange uses one half: ceil(block/32) * sizeof(element)
 * bytes fit in TILE_SCRATCH_BYTES / 2 for every scalar type up to 1024
 * threads; larger exchanges (big vectors/matrices) get their own static
 * buffer (see TILE__SCRATCH_FOR). */
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
 * a null pointer it never uses. C++ here because a shared array whose size
 * is a compile-time expression needs a template under nvcc; C has no way to
 * declare static storage inside an expression. */
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

/* TILE__SMEM_TAG(tag, bytes): like TILE_STATIC_SMEM, but the buffer belongs
 * to (tag, bytes) only, so users with different tags never share memory
 * (TILE_STATIC_SMEM buffers of equal size are shared by every operation that
 * asks for that size). 0 bytes gives a null pointer and allocates nothing.
 * Tags: the large-element reduction scratch, the axis-reduction staging, the
 * broadcast operand (tile_*_bcast), select.h's staging, and
 * one tag per tile_stack declaration (TILE__TAG_USER + __COUNTER__). Device
 * only; the host gets a null pointer it never uses. */
enum { TILE__TAG_SCRATCH = 1, TILE__TAG_AXIS = 2, TILE__TAG_BCAST = 3, TILE__TAG_SELECT = 4, TILE__TAG_USER = 0x10000 };
#if TILE_CUDA
template <int TAG, unsigned long BYTES>
struct tile__smem_tag {
    static __host__ __device__ __forceinline__ unsigned char *get(void) {
#if TILE_ON_DEVICE
        __shared__ __align__(16) unsigned char tile__buf[BYTES];
        return tile__buf;
#else
        return 0;
#endif
    }
};
template <int TAG>
struct tile__smem_tag<TAG, 0ul> {
    static __host__ __device__ __forceinline__ unsigned char *get(void) { return 0; }
};
#define TILE__SMEM_TAG(tag, bytes) tile__smem_tag<(tag), (unsigned long)(bytes)>::get()
#else
#define TILE__SMEM_TAG(tag, bytes) ((unsigned char *)0)
#endif
/* largest static shared buffer one operation may ask for: the 48 KiB static
 * limit less the reduction scratch */
#ifndef TILE_STATIC_SMEM_MAX
#define TILE_STATIC_SMEM_MAX (48 * 1024 - TILE_SCRATCH_BYTES)
#endif
#define TILE__R16(b) ((((unsigned long)(b)) + 15ul) & ~15ul)

/* Scratch for one cross-warp exchange: two halves used in turn, so one
 * barrier (after the writes) suffices. A half is written again only two
 * exchanges later, and every thread has passed the exchange between since it
 * last read that half. */
TILE_API unsigned char *tile__scratch_next(tile_kctx *k) {
    k->scratch_round ^= 1u;
    return tile__scratch() + (k->scratch_round ? TILE_SCRATCH_BYTES / 2 : 0);
}
/* the same protocol over a caller's two-half buffer */
TILE_API unsigned char *tile__scratch_alt(tile_kctx *k, unsigned char *buf, unsigned long half) {
    k->scratch_round ^= 1u;
    return buf + (k->scratch_round ? half : 0);
}
/* Scratch half of at least `half` bytes: the shared scratch when it fits,
 * else a static buffer of two such halves of its own (large vectors and
 * matrices with many warps). Consecutive exchanges alternate the round, so
 * the one-barrier argument holds across both buffers. */
#define TILE__SCRATCH_FOR(k, half)                                                 \
    ((unsigned long)(half) <= TILE_SCRATCH_BYTES / 2                               \
         ? tile__scratch_next(k)                                                   \
         : tile__scratch_alt((k),                                                  \
                             TILE__SMEM_TAG(TILE__TAG_SCRATCH,                     \
                                            (unsigned long)(half) <= TILE_SCRATCH_BYTES / 2 ? 0ul \
                                                                                   : 2ul * TILE__R16(half)), \
                             TILE__R16(half)))

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
#define TILE__SHFL_XOR_M(dst, src, lanemask, mask) TILE__SHFL(dst, src, __shfl_xor_sync, lanemask, mask)
#define TILE__SHFL_IDX(dst, src, lane, mask) TILE__SHFL(dst, src, __shfl_sync, lane, mask)
#else
#define TILE__SHFL_DOWN(dst, src, delta, mask) ((dst) = (src))
#define TILE__SHFL_IDX(dst, src, lane, mask) ((dst) = (src))
#define TILE__SHFL_XOR(dst, src, lanemask) ((dst) = (src))
#define TILE__SHFL_XOR_M(dst, src, lanemask, mask) ((dst) = (src))
#endif

/* lanes of the calling thread's warp that exist in a block of B threads */
#define TILE__WARP_MASK(B)                                                         \
    ((B) % 32 == 0 || (B) - (tile_thread() / 32) * 32 >= 32 ? 0xffffffffu           \
                                                             : ((1u << ((B) - (tile_thread() / 32) * 32)) - 1u))

#define TILE__OP_ADD(a, b) TILE__G_ADD(a, b)
/* min / max propagate NaN (as numpy's min and max): a NaN operand wins, so
 * the fold is associative and commutative with NaNs too and the GPU's tree
 * agrees with the CPU's left-to-right order (a plain `b < a ? b : a` keeps or
 * drops a NaN depending on where it sits). One compare and one NaN test of
 * b (it folds away for integers); a NaN in `a` stays because `b < a` is then
 * false. */
#define TILE__MIN_FOLD(a, b) ((b) < (a) || TILE__ISNAN(b) ? (b) : (a))
#define TILE__MAX_FOLD(a, b) ((a) < (b) || TILE__ISNAN(b) ? (b) : (a))
#if defined(__cplusplus)
#define TILE__OP_MIN(a, b) tile__min(a, b)
#define TILE__OP_MAX(a, b) tile__max(a, b)
#else
#define TILE__OP_MIN(a, b) TILE__MIN_FOLD(a, b)
#define TILE__OP_MAX(a, b) TILE__MAX_FOLD(a, b)
#endif

/* Reduce src with binary op into a fresh one-element register tile `name`. */
#define tile_reduce(name, op, src)                                                 \
    tile_reg(TILE_ELEM_T(src), name, 1);                                           \
    TILE__BLOCK_REDUCE(name.v[0], op, src)
#define tile_sum(name, src) tile_reduce(name, TILE__OP_ADD, src)
#define tile_min(name, src) tile_reduce(name, TILE__OP_MIN, src)
#define tile_max(name, src) tile_reduce(name, TILE__OP_MAX, src)
/* Warp's tile_dot: name = a one-element register tile holding sum(a * b)
 * (element-wise product of two tiles of one shape, then a block sum; a
 * register product tile of a's shape named name##__prod is declared too).
 *   a = [1 2 3], b = [4 5 6]: tile_dot(d, a, b) -> tile_value(d) == 32 */
#define tile_dot(name, a, b)                                                       \
    TILE__CAPTURE(name##__dc, a);                                                  \
    TILE__REG_TYPE_(name##__dc__et, name##__dc__bd, name##__dc__nd, name##__dc__d0, name##__dc__d1, \
                    name##__dc__d2, name##__dc__d3) name##__prod;                  \
    tile_mul(name##__prod, a, b);                                                  \
    tile_sum(name, name##__prod)
/* value of a one-element tile (the reductions' results), in every thread */
#define tile_value(t) ((t).v[0])

/* ---- reductions accumulated in f32 ----
 * tile_sum_f32(name, src), tile_min_f32(name, src), tile_max_f32(name, src):
 * a one-element f32 register tile (tile_value in every thread) holding the
 * sum / min / max of src's elements converted to f32 and combined in f32.
 * For f16 and bf16 tiles (tile/half.h; the conversion is exact), whose own
 * 16-bit arithmetic would round every partial sum; f32 and f64 sources are
 * accepted too (f64 converted to f32 first). Other element types do not
 * compile. Order and NaN rules are those of tile_sum / tile_min / tile_max.
 *   h = 4096 bf16 ones:  tile_sum_f32(s, h);  tile_value(s) == 4096.0f
 *   (a bf16 running sum stops growing at 256: 257 is not a bf16) */
#if defined(__cplusplus)
TILE_API float tile__red_f32(tile_f16 x) { return tile_f16_to_f32(x); }
TILE_API float tile__red_f32(tile_bf16 x) { return tile_bf16_to_f32(x); }
TILE_API float tile__red_f32(float x) { return x; }
TILE_API float tile__red_f32(double x) { return (float)x; }
#define TILE__RED_F32(x) tile__red_f32(x)
#else
TILE_API float tile__red_f32_f32(float x) { return x; }
TILE_API float tile__red_f32_f64(double x) { return (float)x; }
#define TILE__RED_F32(x)                                                           \
    _Generic((x), tile_f16: tile_f16_to_f32, tile_bf16: tile_bf16_to_f32, float: tile__red_f32_f32, \
             double: tile__red_f32_f64)(x)
#endif
#define TILE__LD_F32(d, src, s) ((d) = TILE__RED_F32(TILE__AT(src, s)))
#define tile_sum_f32(name, src)                                                    \
    tile_reg(float, name, 1);                                                      \
    TILE__BLOCK_REDUCE_G(name.v[0], float, TILE__OP_ADD, src, TILE__LD_F32)
#define tile_min_f32(name, src)                                                    \
    tile_reg(float, name, 1);                                                      \
    TILE__BLOCK_REDUCE_G(name.v[0], float, TILE__OP_MIN, src, TILE__LD_F32)
#define tile_max_f32(name, src)                                                    \
    tile_reg(float, name, 1);                                                      \
    TILE__BLOCK_REDUCE_G(name.v[0], float, TILE__OP_MAX, src, TILE__LD_F32)

/* ---- argmin / argmax ----
 * tile_argmin(name, src), tile_argmax(name, src): one-element register tile
 * of int, in every thread the linear (row-major) index of the first minimum /
 * maximum of src (scalar element types, register or shared tiles, views).
 * Ties go to the lowest index; +0 and -0 are equal (a tie). NaN policy (f32,
 * f64): a NaN is the extreme for both, as in numpy's argmin/argmax, so the
 * index of the first NaN is returned when src holds any NaN.
 *   t = [3 1 4 1 5 NaN 9 NaN]:  tile_argmin -> 5, tile_argmax -> 5
 *   t = [3 1 4 1 5]:            tile_argmin -> 1, tile_argmax -> 4 */
#if defined(__cplusplus)
TILE_API int tile__isnan(float x) { return x != x; }
TILE_API int tile__isnan(double x) { return x != x; }
template <class T>
static TILE_HD __forceinline__ int tile__isnan(T) { return 0; }
#define TILE__ISNAN(x) tile__isnan(x)
/* The C++ (CUDA) min / max: f32 on sm_80+ is one min.NaN / max.NaN
 * instruction, which has exactly this NaN rule (the compare-and-test form
 * costs three, and its extra registers tipped a large test kernel into a
 * spill); every other type takes the compare form (TILE__MIN_FOLD). */
template <class T>
static TILE_HD __forceinline__ T tile__min(T a, T b) { return TILE__MIN_FOLD(a, b); }
template <class T>
static TILE_HD __forceinline__ T tile__max(T a, T b) { return TILE__MAX_FOLD(a, b); }
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
#define TILE__F32_MINMAX(name, insn)                                               \
    TILE_API float name(float a, float b) {                                        \
        float r;                                                                   \
        asm(insn " %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));                       \
        return r;                                                                  \
    }
#else
#define TILE__F32_MINMAX(name, insn) /* the template serves */
#endif
TILE__F32_MINMAX(tile__min, "min.NaN.f32")
TILE__F32_MINMAX(tile__max, "max.NaN.f32")
#else
TILE_API int tile__isnan_f32(float x) { return x != x; }
TILE_API int tile__isnan_f64(double x) { return x != x; }
TILE_API int tile__isnan_none(uint64_t x) { (void)x; return 0; }
#define TILE__ISNAN(x) _Generic((x), float: tile__isnan_f32, double: tile__isnan_f64, default: tile__isnan_none)(x)
#endif
/* does (a, ia) come before (b, ib)? NaN first, then smaller (larger) value,
 * then lower index */
#define TILE__ARGMIN_BEFORE(a, ia, b, ib)                                          \
    (TILE__ISNAN(a) ? (!TILE__ISNAN(b) || (ia) < (ib))                             \
                    : (!TILE__ISNAN(b) && ((a) < (b) || (!((b) < (a)) && (ia) < (ib)))))
#define TILE__ARGMAX_BEFORE(a, ia, b, ib)                                          \
    (TILE__ISNAN(a) ? (!TILE__ISNAN(b) || (ia) < (ib))                             \
                    : (!TILE__ISNAN(b) && ((b) < (a) || (!((a) < (b)) && (ia) < (ib)))))
#define TILE__OP_ARGMIN(a, b) (TILE__ARGMIN_BEFORE((b).val, (b).idx, (a).val, (a).idx) ? (b) : (a))
#define TILE__OP_ARGMAX(a, b) (TILE__ARGMAX_BEFORE((b).val, (b).idx, (a).val, (a).idx) ? (b) : (a))
/* slot s of src as a (value, linear index) pair */
#define TILE__LD_ARG(d, src, s) ((d).val = TILE__AT(src, s), (d).idx = TILE__LIN(src, s))
#define TILE__ARG_REDUCE(out, op, src)                                             \
    do {                                                                           \
        typedef TILE_ELEM_T(src) tile__ae;                                         \
        typedef struct { tile__ae val; int idx; } tile__ap;                        \
        tile__ap tile__ar;                                                         \
        TILE__BLOCK_REDUCE_G(tile__ar, tile__ap, op, src, TILE__LD_ARG);           \
        (out) = tile__ar.idx;                                                      \
    } while (0)
#define tile_argmin(name, src)                                                     \
    tile_reg(int, name, 1);                                                        \
    TILE__ARG_REDUCE(name.v[0], TILE__OP_ARGMIN, src)
#define tile_argmax(name, src)                                                     \
    tile_reg(int, name, 1);                                                        \
    TILE__ARG_REDUCE(name.v[0], TILE__OP_ARGMAX, src)

/* out = op-fold of all elements of src, in every thread of the block */
#define TILE__LD_ELEM(d, src, s) ((d) = TILE__AT(src, s))
#define TILE__BLOCK_REDUCE(out, op, src) TILE__BLOCK_REDUCE_G(out, TILE_ELEM_T(src), op, src, TILE__LD_ELEM)

/* The general block reduction: accumulator type T, LD(dst, src, slot) loads
 * the accumulator value of one of the calling thread's slots. Each thread
 * folds its slots in order, then TILE__BLOCK_COMBINE folds across threads. */
#define TILE__BLOCK_REDUCE_G(out, T, op, src, LD)                                  \
    do {                                                                           \
        typedef T tile__T;                                                         \
        enum {                                                                     \
            tile__N = tile_size(src),                                              \
            tile__B = TILE__BD(src),                                               \
            tile__NE = tile__N < tile__B ? tile__N : tile__B /* threads holding values */ \
        };                                                                         \
        tile__T tile__acc;                                                         \
        memset(&tile__acc, 0, sizeof(tile__acc));                                  \
        if (tile_is_shared(src)) {                                                 \
            /* a shared tile keeps nothing in registers: a rolled loop. Fully \
             * unrolled, ptxas would keep every loaded element alive from one \
             * reduction of a large tile to the next (spills). */             \
            /* Slot 0 is loaded before the loop: with the first-slot test inside \
             * the unroll-4 loop, nvcc 13 (sm_90) merged the slot-0 and slot-s \
             * addresses into one that drifted out of the tile (memcheck found \
             * it: argmin then min of a 4096-element tile, block 64). */     \
            if (TILE__VALID(src, 0)) LD(tile__acc, src, 0);                        \
            TILE__UNROLL4 for (int tile__s = 1; tile__s < tile_slots(src); ++tile__s) \
                if (TILE__VALID(src, tile__s)) {                                   \
                    tile__T tile__x;                                               \
                    LD(tile__x, src, tile__s);                                     \
                    tile__acc = op(tile__acc, tile__x);                            \
                }                                                                  \
        } else {                                                                   \
            TILE__EACH(src, tile__s) TILE__RED_STEP(tile__acc, tile__T, op, src, LD, tile__s); \
        }                                                                          \
        TILE__BLOCK_COMBINE(tile__acc, tile__T, op, tile__NE, tile__B);            \
        (out) = tile__acc;                                                         \
    } while (0)

/* fold the calling thread's slot s into acc (the first slot initialises it) */
#define TILE__RED_STEP(acc, T, op, src, LD, s)                                     \
    do {                                                                           \
        if ((s) == 0) {                                                            \
            LD(acc, src, 0);                                                       \
        } else {                                                                   \
            T tile__x;                                                             \
            LD(tile__x, src, s);                                                   \
            acc = op(acc, tile__x);                                                \
        }                                                                          \
    } while (0)
#if TILE_ON_DEVICE
#define TILE__UNROLL4 _Pragma("unroll 4")
#else
#define TILE__UNROLL4
#endif

/* acc (type T) holds a value in threads 0 .. NE-1 of a block of B; afterwards
 * every thread holds the op-fold of them all. */
#define TILE__BLOCK_COMBINE(acc, T, op, NE, B)                                     \
    do {                                                                           \
        enum { tile__cB = (B), tile__cNE = (NE), tile__NW = (tile__cNE + 31) / 32 }; \
        TILE__STATIC_ASSERT(tile__NW * sizeof(T) <= TILE_STATIC_SMEM_MAX / 2,      \
                            "tile.h: reduction element too large for static shared memory"); \
        if (tile__cB > 1) {                                                        \
            TILE__COOP(); /* the shuffles below name every lane */                \
            int tile__lane = tile_thread() % 32, tile__warp = tile_thread() / 32;  \
            /* lanes active in this warp: a constant 32 unless the block ends in a \
             * partial warp */                                                     \
            int tile__act = (tile__cB % 32 == 0 || tile__cB - tile__warp * 32 >= 32) ? 32 : tile__cB - tile__warp * 32; \
            TILE__UNUSED unsigned tile__mask = TILE__WARP_MASK(tile__cB);          \
            if (tile__cB % 32 == 0 && tile__cNE == tile__cB) {                     \
                /* full warps, every lane holds a value: butterfly, all lanes end \
                 * with the warp's total (bitwise equal: each step is a + b or b + a) */ \
                TILE__UNROLL for (int tile__d = 16; tile__d >= 1; tile__d /= 2) {  \
                    T tile__o;                                                     \
                    TILE__SHFL_XOR(tile__o, acc, tile__d);                         \
                    acc = op(acc, tile__o);                                        \
                }                                                                  \
            } else {                                                               \
                /* partial warps or fewer values than threads: fold towards lane 0, \
                 * ignoring lanes without a value */                               \
                TILE__UNROLL for (int tile__d = 16; tile__d >= 1; tile__d /= 2) {  \
                    if (tile__d < (tile__cB < 32 ? tile__cB : 32)) {               \
                        T tile__o;                                                 \
                        TILE__SHFL_DOWN(tile__o, acc, tile__d, tile__mask);        \
                        if (tile__lane + tile__d < tile__act && tile_thread() + tile__d < tile__cNE) \
                            acc = op(acc, tile__o);                                \
                    }                                                              \
                }                                                                  \
                if (tile__cB <= 32) TILE__SHFL_IDX(acc, acc, 0, tile__mask);       \
            }                                                                      \
            /* several warps: through the scratch, also when all the values sit \
             * in warp 0 (the other warps need the result too) */                \
            if (tile__cB > 32) {                                                   \
                T *tile__sc = (T *)TILE__SCRATCH_FOR(&tile__k, tile__NW * sizeof(T)); \
                if (tile__lane == 0 && tile__warp < tile__NW) tile__sc[tile__warp] = acc; \
                tile_barrier();                                                    \
                acc = tile__sc[0];                                                 \
                for (int tile__w = 1; tile__w < tile__NW; ++tile__w) acc = op(acc, tile__sc[tile__w]); \
            }                                                                      \
        }                                                                          \
    } while (0)

/* ---- axis reductions ----
 * tile_reduce_axis(name, op, src, axis): register tile `name` of src's shape
 * less dim `axis` (a compile-time constant; a 1D src gives shape (1)), each
 * element the op-fold of src along that dim: in index order on the CPU, in a
 * tree on the GPU (op should be associative and commutative).
 * tile_sum_axis / tile_min_axis / tile_max_axis are the usual ops.
 *   a (2, 3) = [[1 2 3] [4 5 6]]: tile_sum_axis(r, a, 1) -> r (2) = [6 15]
 *                                 tile_max_axis(c, a, 0) -> c (3) = [4 5 6]
 * How (GPU): view src as (outer, K, inner), K the reduced extent; the M =
 * outer * inner outputs are shared among the threads:
 *  - M >= block / 2: each thread folds the K values of its own output slots;
 *  - fewer outputs: G threads per output (G a power of two <= 32, <= K,
 *    about block / M), each folding every G-th value, then G-lane butterfly
 *    shuffles; results go through static shared memory to their owners.
 * A register src is first staged into static shared memory (its own tagged
 * buffer, TILE__SMEM_TAG, at most TILE_STATIC_SMEM_MAX bytes: reduce larger
 * tiles from a shared tile) in a layout padded so that the folds read
 * without bank conflicts; a shared src is read in place. The folds along K
 * are unrolled 4 deep (fully unrolled, ptxas hoists every load and spills). Barriers: a
 * register src 2 (one output per thread) or 3; a shared src 0 or 2. On the
 * CPU the one thread folds in index order, with no staging. */
#define tile_reduce_axis(name, op, src, axis)                                      \
    TILE__CAPTURE(name, src);                                                      \
    enum {                                                                         \
        name##__ax = (axis),                                                       \
        name##__r0 = name##__ax > 0 ? name##__d0 : name##__d1,                     \
        name##__r1 = name##__ax > 1 ? name##__d1 : name##__d2,                     \
        name##__r2 = name##__ax > 2 ? name##__d2 : name##__d3,                     \
        name##__rnd = name##__nd > 1 ? name##__nd - 1 : 1                          \
    };                                                                             \
    TILE__STATIC_ASSERT((int)name##__ax >= 0 && (int)name##__ax < (int)name##__nd, "tile.h: reduction axis out of range"); \
    TILE__REG_TYPE_(name##__et, name##__bd, name##__rnd, name##__r0, name##__r1, name##__r2, 1) name; \
    TILE__AXIS_REDUCE(name, op, src, name##__ax)
#define tile_sum_axis(name, src, axis) tile_reduce_axis(name, TILE__OP_ADD, src, axis)
#define tile_min_axis(name, src, axis) tile_reduce_axis(name, TILE__OP_MIN, src, axis)
#define tile_max_axis(name, src, axis) tile_reduce_axis(name, TILE__OP_MAX, src, axis)

/* ---- keepdims ----
 * tile_reduce_axis_keepdims(name, op, src, axis) and tile_sum/min/max_axis_
 * keepdims: the same reduction, but `name` keeps src's rank with extent 1 at
 * dim `axis` (numpy's keepdims=True), ready to broadcast back over src with
 * the tile_*_bcast operations below.
 *   a (2, 3) = [[1 2 3] [4 5 6]]: tile_sum_axis_keepdims(r, a, 1) -> r (2, 1) = [[6] [15]]
 *                                 tile_max_axis_keepdims(c, a, 0) -> c (1, 3) = [[4 5 6]] */
#define tile_reduce_axis_keepdims(name, op, src, axis)                             \
    TILE__CAPTURE(name, src);                                                      \
    enum {                                                                         \
        name##__ax = (axis),                                                       \
        name##__k0 = name##__ax == 0 ? 1 : name##__d0,                             \
        name##__k1 = name##__ax == 1 ? 1 : name##__d1,                             \
        name##__k2 = name##__ax == 2 ? 1 : name##__d2,                             \
        name##__k3 = name##__ax == 3 ? 1 : name##__d3                              \
    };                                                                             \
    TILE__STATIC_ASSERT((int)name##__ax >= 0 && (int)name##__ax < (int)name##__nd, "tile.h: reduction axis out of range"); \
    TILE__REG_TYPE_(name##__et, name##__bd, name##__nd, name##__k0, name##__k1, name##__k2, name##__k3) name; \
    TILE__AXIS_REDUCE(name, op, src, name##__ax)
#define tile_sum_axis_keepdims(name, src, axis) tile_reduce_axis_keepdims(name, TILE__OP_ADD, src, axis)
#define tile_min_axis_keepdims(name, src, axis) tile_reduce_axis_keepdims(name, TILE__OP_MIN, src, axis)
#define tile_max_axis_keepdims(name, src, axis) tile_reduce_axis_keepdims(name, TILE__OP_MAX, src, axis)

/* ---- element-wise operations that broadcast one operand ----
 * tile_add_bcast(c, a, b), tile_sub_bcast, tile_mul_bcast, tile_div_bcast,
 * tile_map2_bcast(c, fn, a, b): c = a op b where b has a's shape with some
 * extents 1 (numpy broadcasting: b's dims line up with a's last dims, each
 * 1 or equal to a's), so a keepdims reduction goes straight back over its
 * source. c has a's shape; c may be a, not b. Any storage.
 * No arena budget: a register b (striped over the block, so a thread needs
 * other threads' elements) is staged through a static shared buffer of b's
 * size (its own tag, at most TILE_STATIC_SMEM_MAX bytes: two barriers); a
 * shared b is read in place. On the CPU nothing is staged.
 *   a (2, 3) = [[1 2 3] [4 5 6]]:
 *   tile_max_axis_keepdims(m, a, 1);   m = [[3] [6]]
 *   tile_sub_bcast(a, a, m);           a = [[-2 -1 0] [-2 -1 0]]
 *   g (3) = [1 10 100]:
 *   tile_mul_bcast(c, a, g);           c = [[-2 -10 0] [-2 -10 0]] */
#define tile_add_bcast(c, a, b) TILE__BCAST(c, a, b, TILE__G_ADD)
#define tile_sub_bcast(c, a, b) TILE__BCAST(c, a, b, TILE__G_SUB)
#define tile_mul_bcast(c, a, b) TILE__BCAST(c, a, b, TILE__G_MUL_TT)
#define tile_div_bcast(c, a, b) TILE__BCAST(c, a, b, TILE__G_DIV_TT)
#define tile_map2_bcast(c, fn, a, b) TILE__BCAST(c, a, b, fn)

/* linear index into b (dims b0..b3 of nb) of the element of a (dims a0..a3
 * of na) at linear index L, numpy broadcasting; constants but L fold away */
TILE_API int tile__bc_index(int L, int na, int a0, int a1, int a2, int a3, int nb, int b0, int b1, int b2, int b3) {
    const int ad[4] = {a0, a1, a2, a3}, bd[4] = {b0, b1, b2, b3};
    int idx[4], r = L, out = 0;
    TILE__UNROLL for (int k = 3; k >= 0; --k) {
        idx[k] = r % ad[k];
        r /= ad[k];
    }
    TILE__UNROLL for (int j = 0; j < 4; ++j)
        if (j < nb) out = out * bd[j] + (bd[j] == 1 ? 0 : idx[(j + na - nb) & 3]);
    return out;
}
#define TILE__BC_DIMOK(a, b, j) \
    ((j) >= tile_ndim(b) || tile_dim(b, j) == 1 || tile_dim(b, j) == tile_dim(a, (j) + tile_ndim(a) - tile_ndim(b)))
#define TILE__BCAST(c, a, b, OPX)                                                  \
    do {                                                                           \
        TILE__SAME_SHAPE(c, a);                                                    \
        TILE__STATIC_ASSERT(tile_ndim(b) <= tile_ndim(a) && TILE__BC_DIMOK(a, b, 0) && TILE__BC_DIMOK(a, b, 1) && \
                                TILE__BC_DIMOK(a, b, 2) && TILE__BC_DIMOK(a, b, 3) && TILE__BD(a) == TILE__BD(b), \
                            "tile.h: tile_*_bcast: b's extents must be 1 or a's (b's dims line up with a's last dims)"); \
        typedef TILE_ELEM_T(b) tile__BT;                                           \
        enum {                                                                     \
            tile__STG = !tile_is_shared(b) && TILE__BD(b) > 1,                     \
            tile__NBY = tile__STG ? (int)TILE__R16((unsigned long)tile_size(b) * sizeof(tile__BT)) : 0 \
        };                                                                         \
        TILE__STATIC_ASSERT(tile__NBY <= TILE_STATIC_SMEM_MAX,                     \
                            "tile.h: tile_*_bcast: a register b this large needs more static shared memory than " \
                            "allowed: broadcast from a shared tile (tile_to_shared)"); \
        TILE__UNUSED tile__BT *tile__bs = (tile__BT *)TILE__SMEM_TAG(TILE__TAG_BCAST, tile__NBY); \
        if (tile__STG) {                                                           \
            tile_barrier(); /* earlier readers of the buffer are done */           \
            TILE__EACH(b, tile__s) tile__bs[TILE__LIN(b, tile__s)] = TILE__AT(b, tile__s); \
            tile_barrier();                                                        \
        }                                                                          \
        TILE__WRITE_BEGIN(c);                                                      \
        TILE__EACH(c, tile__s) {                                                   \
            const int tile__bi = tile__bc_index(TILE__LIN(c, tile__s), tile_ndim(a), TILE__D0(a), TILE__D1(a), \
                                                TILE__D2(a), TILE__D3(a), tile_ndim(b), TILE__D0(b), \
                                                TILE__D1(b), TILE__D2(b), TILE__D3(b));  \
            const tile__BT tile__bv =                                              \
                tile__STG ? tile__bs[tile__bi]                                     \
                          : (b).v[tile_is_shared(b) ? TILE__OFF(b, tile__bi) : TILE__BD(b) > 1 ? 0 : tile__bi]; \
            TILE__AT(c, tile__s) = OPX(TILE__AT(a, tile__s), tile__bv);            \
        }                                                                          \
        TILE__WRITE_END(c);                                                        \
    } while (0)

#define TILE__MIN2(a, b) ((a) < (b) ? (a) : (b))
#define TILE__POW2_FLOOR32(x) \
    ((x) >= 32 ? 32 : (x) >= 16 ? 16 : (x) >= 8 ? 8 : (x) >= 4 ? 4 : (x) >= 2 ? 2 : 1)
/* largest power of two dividing b, at most 32 */
#define TILE__LOWBIT32(b) TILE__MIN2(32, (b) & -(b))
/* g * (the odd number at or above ceil(x / g)): a row pitch >= x whose rows
 * start on distinct banks for g-lane groups */
#define TILE__ODDPAD(x, g) ((g) * ((((x) + (g)-1) / (g)) | 1))
/* element L of src read by the one CPU thread (slot L of a register tile) */
#define TILE__ELEM1(t, L) ((t).v[tile_is_shared(t) ? TILE__OFF(t, L) : (L)])

#define TILE__AXIS_REDUCE(dst, op, src, AX)                                        \
    do {                                                                           \
        typedef TILE_ELEM_T(src) tile__T;                                          \
        enum {                                                                     \
            tile__B = TILE__BD(src),                                               \
            tile__N = tile_size(src),                                              \
            tile__K = tile_dim(src, AX),                                           \
            tile__IN = ((AX) < 1 ? TILE__D1(src) : 1) * ((AX) < 2 ? TILE__D2(src) : 1) * \
                       ((AX) < 3 ? TILE__D3(src) : 1),                             \
            tile__M = tile__N / tile__K,                                           \
            tile__OUT = tile__N / (tile__K * tile__IN),                            \
            tile__REG = !tile_is_shared(src),                                      \
            /* threads per output */                                               \
            tile__G = TILE__MIN2(TILE__POW2_FLOOR32(TILE__MIN2(tile__B / tile__M, tile__K)), \
                                 TILE__LOWBIT32(tile__B)),                          \
            tile__W = TILE__LOWBIT32(tile__B), /* lanes of a full sub-warp */      \
            tile__NGW = tile__W / tile__G,     /* groups per sub-warp */           \
            /* staging layout of a register src: element (o, k, i) at o*OP + k*KP + i */ \
            tile__KP = tile__IN == 1 ? 1 : tile__G == 1 ? tile__IN : TILE__ODDPAD(tile__IN, tile__NGW), \
            tile__OP = tile__IN == 1 ? TILE__ODDPAD(tile__K, tile__G) : tile__K * tile__KP, \
            tile__SB = tile__REG ? (int)TILE__R16((unsigned long)tile__OUT * tile__OP * sizeof(tile__T)) : 0, \
            tile__RB = tile__G > 1 ? (int)(tile__M * sizeof(tile__T)) : 0           \
        };                                                                         \
        TILE__STATIC_ASSERT((unsigned long)tile__SB + tile__RB <= TILE_STATIC_SMEM_MAX, \
                            "tile.h: axis reduction of a register tile this large needs more static shared " \
                            "memory than allowed: reduce a shared tile instead (tile_to_shared)"); \
        TILE__SAME_SHAPE_N(dst, tile__M);                                          \
        if (!TILE_ON_DEVICE) {                                                     \
            /* CPU: one thread holds every element; fold in index order */         \
            TILE__EACH(dst, tile__s) {                                             \
                const int tile__m = TILE__LIN(dst, tile__s), tile__o = tile__m / tile__IN, \
                          tile__i = tile__m % tile__IN;                            \
                tile__T tile__acc = TILE__ELEM1(src, tile__o * tile__K * tile__IN + tile__i); \
                for (int tile__kk = 1; tile__kk < tile__K; ++tile__kk)             \
                    tile__acc = op(tile__acc, TILE__ELEM1(src, (tile__o * tile__K + tile__kk) * tile__IN + tile__i)); \
                TILE__AT(dst, tile__s) = tile__acc;                                \
            }                                                                      \
        } else {                                                                   \
            unsigned char *tile__buf = TILE__SMEM_TAG(TILE__TAG_AXIS, tile__SB + tile__RB); \
            TILE__UNUSED tile__T *tile__S = (tile__T *)tile__buf;                  \
            TILE__UNUSED tile__T *tile__R = (tile__T *)(tile__buf + tile__SB);     \
            if (tile__REG) {                                                       \
                tile_barrier(); /* earlier readers of this buffer are done */     \
                TILE__EACH(src, tile__s) {                                         \
                    const int tile__L = TILE__LIN(src, tile__s);                   \
                    tile__S[(tile__L / (tile__K * tile__IN)) * tile__OP +          \
                            (tile__L / tile__IN % tile__K) * tile__KP + tile__L % tile__IN] = TILE__AT(src, tile__s); \
                }                                                                  \
                tile_barrier();                                                    \
            }                                                                      \
            if (tile__G == 1) {                                                    \
                TILE__EACH(dst, tile__s) {                                         \
                    const int tile__m = TILE__LIN(dst, tile__s), tile__o = tile__m / tile__IN, \
                              tile__i = tile__m % tile__IN;                        \
                    tile__T tile__acc = TILE__AX_READ(src, tile__o, 0, tile__i);   \
                    TILE__UNROLL4 for (int tile__kk = 1; tile__kk < tile__K; ++tile__kk) \
                        tile__acc = op(tile__acc, TILE__AX_READ(src, tile__o, tile__kk, tile__i)); \
                    TILE__AT(dst, tile__s) = tile__acc;                            \
                }                                                                  \
            } else {                                                               \
                if (!tile__REG) tile_barrier(); /* earlier readers of R are done */ \
                /* IN == 1: G consecutive lanes per output (consecutive reads);    \
                 * else lanes l, l + NGW, ... of a sub-warp (consecutive outputs) */ \
                const int tile__t = tile_thread(), tile__l = tile__t % tile__W;    \
                const int tile__m = tile__IN == 1 ? tile__t / tile__G                \
                                                  : (tile__t / tile__W) * tile__NGW + tile__l % tile__NGW; \
                const int tile__mb = tile__IN == 1 ? tile__t % tile__G : tile__l / tile__NGW; \
                const int tile__ok = tile__m < tile__M;                            \
                const int tile__o = tile__m / tile__IN, tile__i = tile__m % tile__IN; \
                tile__T tile__acc;                                                 \
                memset(&tile__acc, 0, sizeof(tile__acc));                          \
                if (tile__ok) {                                                    \
                    tile__acc = TILE__AX_READ(src, tile__o, tile__mb, tile__i);    \
                    TILE__UNROLL4 for (int tile__kk = tile__mb + tile__G; tile__kk < tile__K; tile__kk += tile__G) \
                        tile__acc = op(tile__acc, TILE__AX_READ(src, tile__o, tile__kk, tile__i)); \
                }                                                                  \
                TILE__UNUSED const unsigned tile__mask = TILE__WARP_MASK(tile__B); \
                TILE__UNROLL for (int tile__d = 16; tile__d >= 1; tile__d /= 2) {  \
                    if (tile__d < tile__G) {                                       \
                        tile__T tile__x;                                           \
                        TILE__SHFL_XOR_M(tile__x, tile__acc, tile__d * (tile__IN == 1 ? 1 : tile__NGW), tile__mask); \
                        if (tile__ok) tile__acc = op(tile__acc, tile__x);          \
                    }                                                              \
                }                                                                  \
                if (tile__ok && tile__mb == 0) tile__R[tile__m] = tile__acc;       \
                tile_barrier();                                                    \
                TILE__EACH(dst, tile__s) TILE__AT(dst, tile__s) = tile__R[TILE__LIN(dst, tile__s)]; \
            }                                                                      \
        }                                                                          \
    } while (0)
/* element (o, k, i) of the (outer, K, inner) view: staged copy or shared src */
#define TILE__AX_READ(src, o, k, i)                                                \
    (tile__REG ? tile__S[(o) * tile__OP + (k) * tile__KP + (i)]                    \
               : (src).v[tile_is_shared(src) ? TILE__OFF(src, ((o) * tile__K + (k)) * tile__IN + (i)) : 0])
#define TILE__SAME_SHAPE_N(dst, n) \
    TILE__STATIC_ASSERT(tile_size(dst) == (n), "tile.h: axis reduction result has the wrong size")

#endif /* TILE_REDUCE_H */
