/* tile/construct.h - filling tiles, tiles from per-thread values and back,
 * one thread's value broadcast (tile_from_thread), views and slices
 * (strided, reversed), squeezes, reshapes, broadcasts and random tiles.
 * docs/warp.md maps Warp's tile functions to these.
 *
 * Fills are cooperative and work on register and shared tiles:
 *   tile_reg(float, t, 8);
 *   tile_zeros(t);              // [0 0 0 0 0 0 0 0]
 *   tile_full(t, 2.5f);         // [2.5 ... 2.5]
 *   tile_arange(t, 1, 2);       // [1 3 5 7 9 11 13 15]
 *   tile_arange(a, 0, 8, 2);    // declares a (4) int = [0 2 4 6]
 *   tile_randf(t, 42, 0, 1);    // same 8 numbers in [0, 1) on CPU and GPU
 */
#ifndef TILE_CONSTRUCT_H
#define TILE_CONSTRUCT_H

#include "elementwise.h"

/* ---- fills ---- */
/* all-zero bytes: zero for every element type, user structs included */
#define tile_zeros(t)                                                              \
    do {                                                                           \
        TILE__WRITE_BEGIN(t);                                                      \
        TILE__EACH(t, tile__s) memset(&TILE__AT(t, tile__s), 0, sizeof((t).v[0])); \
        TILE__WRITE_END(t);                                                        \
    } while (0)
/* 1 in every component (scalars, vectors, matrices) */
#define tile_ones(t)                                                               \
    do {                                                                           \
        TILE__WRITE_BEGIN(t);                                                      \
        TILE__EACH(t, tile__s) TILE__G_FULL(TILE__AT(t, tile__s), 1);              \
        TILE__WRITE_END(t);                                                        \
    } while (0)
/* every element = value (converted to the element type) */
#define tile_full(t, value)                                                        \
    do {                                                                           \
        /* through the astype rules: f16/bf16 and complex elements from any \
         * real constant (a plain initializer cannot convert to them) */        \
        const TILE__UNQUAL_TYPEOF(value) tile__fx = (value);                       \
        TILE_ELEM_T(t) tile__fv;                                                   \
        TILE__CHECK_CVT(tile__fv, tile__fx);                                       \
        tile__fv = TILE__CVT(tile__fv, tile__fx);                                  \
        TILE__EW(t, tile__fv);                                                     \
    } while (0)
/* ---- aranges ----
 * tile_arange(t, start, step): fill an existing tile (any storage, scalar
 *   element type): element with linear index i = start + i * step.
 *     t (8) -> tile_arange(t, 1, 2) -> [1 3 5 7 9 11 13 15]
 * tile_arange(name, start, stop, step), tile_arange(name, stop): declare a
 *   register tile `name` like Warp's wp.tile_arange(start, stop, step) /
 *   wp.tile_arange(stop). The count is Warp's, int((stop - start) / step)
 *   (truncated: tile_arange(a, 0, 10, 3) is [0 3 6], three elements where
 *   numpy gives four), computed at compile time, so the arguments are
 *   constants (a run-time argument does not compile: use tile_arange_n). The
 *   element type is that of start + stop + step (ints: int; 0.5f: float;
 *   0.5: double; Warp's default is float, so write 0.0f, 8.0f, 1.0f for it).
 *   An empty range does not compile. Warp's two-argument form (start, stop)
 *   has no spelling here: the three-argument form is the fill above.
 *     tile_arange(a, 0, 8, 2)          a (4) int   = [0 2 4 6]
 *     tile_arange(b, 1.0f, 2.0f, 0.25f) b (4) float = [1 1.25 1.5 1.75]
 *     tile_arange(c, 5)                c (5) int   = [0 1 2 3 4]
 * tile_arange_n(T, name, n, start, step): the explicit-count form (run-time
 *   start and step allowed): register tile of n elements of T.
 *     tile_arange_n(float, d, 3, x, 0.5f)   d = [x x+0.5 x+1] */
#define tile_arange(...) TILE__DISPATCH(TILE__ARANGE_SEL(TILE__NARGS(__VA_ARGS__)), (__VA_ARGS__))
/* m args, for macros that pick an implementation by their argument count
 * (TILE__APPLY cannot: the implementation may use TILE__APPLY itself, which
 * the preprocessor would not expand inside its own expansion) */
#define TILE__DISPATCH(m, args) m args
#define TILE__APPLY2(m, args) m args
#define TILE__ARANGE_SEL(n) TILE__ARANGE_SEL_(n)
#define TILE__ARANGE_SEL_(n) tile__arange_##n
#define tile__arange_3(t, start, step)                                             \
    TILE__EW(t, (TILE_ELEM_T(t))(start) + (TILE_ELEM_T(t))TILE__LIN(t, tile__s) * (TILE_ELEM_T(t))(step))
#define tile__arange_2(name, stop) tile__arange_4(name, 0, stop, 1)
#define tile__arange_4(name, start, stop, step)                                    \
    typedef TILE__TYPEOF((start) + (stop) + (step)) name##__et;                    \
    TILE__FOLD_BEGIN enum { name##__n = (int)(((stop) - (start)) / (step)) }; TILE__FOLD_END \
    TILE__STATIC_ASSERT(name##__n > 0, "tile.h: tile_arange: empty range (the count is int((stop - start) / step))"); \
    tile_reg(name##__et, name, name##__n);                                         \
    tile__arange_3(name, start, step)
#define tile_arange_n(T, name, n, start, step)                                     \
    tile_reg(T, name, n);                                                          \
    tile__arange_3(name, start, step)
/* A count from floating constants ((int)((2.0f - 1.0f) / 0.25f)) is an integer
 * constant expression in C++ but only a folded one in C: gcc and clang fold it
 * and, under -pedantic, say so; the fold is what we want, so that one warning
 * is silenced around the enum (a non-constant still fails to compile). */
#if defined(__cplusplus)
#define TILE__FOLD_BEGIN
#define TILE__FOLD_END
#elif defined(__clang__)
#define TILE__FOLD_BEGIN                                                           \
    _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wgnu-folding-constant\"") \
        _Pragma("clang diagnostic ignored \"-Wpedantic\"")
#define TILE__FOLD_END _Pragma("clang diagnostic pop")
#else
#define TILE__FOLD_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wpedantic\"")
#define TILE__FOLD_END _Pragma("GCC diagnostic pop")
#endif

/* ---- random tiles: counter-based, element i depends on (seed, i) only, so
 * CPU and GPU agree ---- */
/* 32 random bits for counter i under seed (a bijection of i for each seed). */
TILE_API uint32_t tile_hash32(uint32_t seed, uint32_t i) {
    uint32_t x = i ^ (seed * 0x9e3779b9u + 0x7f4a7c15u);
    x ^= x >> 16; x *= 0x85ebca6bu;
    x ^= x >> 13; x *= 0xc2b2ae35u;
    x ^= x >> 16;
    x += seed ^ 0x27d4eb2fu;
    x ^= x >> 15; x *= 0x2c1b3c6du;
    x ^= x >> 12; x *= 0x297a2d39u;
    x ^= x >> 15;
    return x;
}
/* uniform float in [0, 1) from 24 random bits */
TILE_API float tile_hash_unit(uint32_t seed, uint32_t i) {
    return (float)(tile_hash32(seed, i) >> 8) * (1.0f / 16777216.0f);
}
/* integers uniform in [lo, hi) (hi > lo) */
#define tile_randi(t, seed, lo, hi)                                                \
    TILE__EW(t, (TILE_ELEM_T(t))((int64_t)(lo) +                                   \
                                 (int64_t)(tile_hash32((uint32_t)(seed), (uint32_t)TILE__LIN(t, tile__s)) % \
                                           (uint64_t)((int64_t)(hi) - (int64_t)(lo)))))
/* lo + span * u with two roundings on both targets: left alone, the device
 * compiler fuses it into one fma and the GPU's numbers differ from the CPU's
 * in the last bit (the host compiler does not fuse it). */
#if TILE_CUDA
template <class T>
static TILE_HD __forceinline__ T tile__lerp_rn(T lo, T span, T u) { return lo + span * u; }
TILE_API float tile__lerp_rn(float lo, float span, float u) {
#if TILE_ON_DEVICE
    return __fadd_rn(lo, __fmul_rn(span, u));
#else
    return lo + span * u;
#endif
}
TILE_API double tile__lerp_rn(double lo, double span, double u) {
#if TILE_ON_DEVICE
    return __dadd_rn(lo, __dmul_rn(span, u));
#else
    return lo + span * u;
#endif
}
#define TILE__LERP_RN(lo, hi, u)                                                   \
    tile__lerp_rn((TILE__TYPEOF((lo) + ((hi) - (lo)) * (u)))(lo),                  \
                  (TILE__TYPEOF((lo) + ((hi) - (lo)) * (u)))((hi) - (lo)),         \
                  (TILE__TYPEOF((lo) + ((hi) - (lo)) * (u)))(u))
#else
#define TILE__LERP_RN(lo, hi, u) ((lo) + ((hi) - (lo)) * (u))
#endif
/* floats uniform in [lo, hi) */
#define tile_randf(t, seed, lo, hi)                                                \
    TILE__EW(t, (TILE_ELEM_T(t))TILE__LERP_RN(lo, hi,                              \
                                 tile_hash_unit((uint32_t)(seed), (uint32_t)TILE__LIN(t, tile__s))))

/* ---- per-thread values <-> tiles (Warp's tile() and untile(); Warp's tile_from_thread is a different operation) ----
 * tile_from_values(name, x): register tile of shape (block_dim) whose element
 *   i is thread i's x (any type: the preserve_type form).
 * tile_from_values_vec(name, v): a vector per thread expands to a scalar tile
 *   of shape (N, block_dim); tile_from_values_mat(name, m): (R, C, block_dim).
 * On the CPU block_dim is 1: the tile holds the one thread's value.
 *   thread i passes x = i, block 4 -> t = [0 1 2 3] */
/* element type for a per-thread value, without const/volatile (x may be a
 * const local; the tile's slots are assigned) */
#if defined(__cplusplus)
template <class A> struct tile__unqual { typedef A type; };
template <class A> struct tile__unqual<const A> { typedef A type; };
template <class A> struct tile__unqual<volatile A> { typedef A type; };
template <class A> struct tile__unqual<const volatile A> { typedef A type; };
#define TILE__UNQUAL_TYPEOF(x) typename tile__unqual<TILE__TYPEOF(x)>::type
#else
#define TILE__UNQUAL_TYPEOF(x) TILE__TYPEOF(((void)0, (x))) /* an rvalue: unqualified */
#endif
#define tile_from_values(name, x)                                                  \
    typedef TILE__UNQUAL_TYPEOF(x) name##__et;                                     \
    tile_reg(name##__et, name, TILE_BLOCK_DIM);                                    \
    name.v[0] = (x)
/* (type and extents are named before the tile's struct: inside it, C++ would
 * take an x spelled `v` for the struct's own member v) */
#define tile_from_values_vec(name, x)                                              \
    typedef TILE__UNQUAL_TYPEOF((x).v[0]) name##__et;                              \
    enum { name##__n0 = (int)(sizeof((x).v) / sizeof((x).v[0])) };                \
    tile_reg(name##__et, name, name##__n0, TILE_BLOCK_DIM);                        \
    do {                                                                           \
        TILE__UNROLL for (int tile__c = 0; tile__c < TILE__D0(name); ++tile__c)    \
            name.v[tile__c] = (x).v[tile__c];                                      \
    } while (0)
#define tile_from_values_mat(name, x)                                              \
    typedef TILE__UNQUAL_TYPEOF((x).m[0][0]) name##__et;                           \
    enum { name##__n0 = (int)(sizeof((x).m) / sizeof((x).m[0])),                   \
           name##__n1 = (int)(sizeof((x).m[0]) / sizeof((x).m[0][0])) };          \
    tile_reg(name##__et, name, name##__n0, name##__n1, TILE_BLOCK_DIM);            \
    do {                                                                           \
        TILE__UNROLL for (int tile__c = 0; tile__c < TILE__D0(name) * TILE__D1(name); ++tile__c) \
            name.v[tile__c] = (x).m[tile__c / TILE__D1(name)][tile__c % TILE__D1(name)]; \
    } while (0)
/* ---- one thread's value, broadcast (Warp's tile_from_thread) ----
 * tile_from_thread(name, x, thread, d0[, d1, ...]): register tile `name` of
 *   x's type and shape (d0, ...), every element thread `thread`'s x. One
 *   element of shared scratch and one barrier; cooperative.
 * tile_full_from_thread(t, x, thread): the same into an existing tile (any
 *   storage, x converted to its element type).
 * On the CPU (block_dim 1) the one thread's x, whatever `thread` says (as
 * Warp). A `thread` outside [0, block_dim) takes thread 0's x (TILE_DEBUG
 * builds stop on it).
 *   block 4, thread i has x = 10 * i:
 *   tile_from_thread(o, x, 3, 2, 2)   o (2, 2) = [[30 30] [30 30]] in every thread */
#define tile_from_thread(name, x, thread, ...)                                     \
    typedef TILE__UNQUAL_TYPEOF(x) name##__et;                                     \
    tile_reg(name##__et, name, __VA_ARGS__);                                       \
    tile_full_from_thread(name, x, thread)
#define tile_full_from_thread(t, x, thread)                                        \
    do {                                                                           \
        typedef TILE_ELEM_T(t) tile__bT;                                           \
        const tile__bT tile__bv = TILE__FROM_THREAD(tile__bT, x, thread);          \
        TILE__EW(t, tile__bv);                                                     \
    } while (0)
/* x of thread `thread` (converted to T) in every thread: an expression */
#define TILE__FROM_THREAD(T, x, thread)                                            \
    __extension__({                                                                \
        T tile__fx = (x);                                                          \
        if (TILE_BLOCK_DIM > 1) {                                                  \
            TILE__STATIC_ASSERT(sizeof(T) <= TILE_SCRATCH_BYTES / 2,               \
                                "tile.h: tile_from_thread: scratch too small: raise TILE_SCRATCH_BYTES"); \
            const int tile__ft = (thread);                                         \
            TILE__CHECK(tile__ft >= 0 && tile__ft < TILE_BLOCK_DIM, "tile_from_thread: thread index out of range", \
                        tile__ft, 0, TILE_BLOCK_DIM);                              \
            T *tile__fp = (T *)tile__scratch_next(&tile__k);                       \
            if (tile_thread() == ((unsigned)tile__ft < (unsigned)TILE_BLOCK_DIM ? tile__ft : 0)) *tile__fp = tile__fx; \
            tile_barrier();                                                        \
            tile__fx = *tile__fp;                                                  \
        }                                                                          \
        tile__fx;                                                                  \
    })

/* the calling thread's value of a (block_dim) tile */
#define tile_untile(t) TILE__AT(t, 0)
/* component c of the calling thread's value of an expanded (N, block_dim) or
 * (R, C, block_dim) tile (c = r * C + col for matrices) */
#define tile_untile_comp(t, c) TILE__AT(t, c)

/* ---- views, slices, squeeze and reshape ----
 * tile_view(name, src, (shape), (offset)): sub-tile of a shared tile sharing
 *   its memory; shape and offset have src's number of dims. The offsets are
 *   raw coordinates, as in Warp's explicit tile_view (no negative wrapping).
 *     s is 8x8 shared; tile_view(q, s, (4, 4), (4, 0)) is its bottom-left quarter.
 * tile_squeeze(name, src): drop the dims of extent 1; tile_squeeze(name, src,
 *   axis): drop only dim `axis` (a constant; negative counts from the end, as
 *   in Python), which must have extent 1. Shared: a view; register: the same
 *   slots under the new shape. A tile of one element stays 1D (1).
 *     src (3, 1, 4): tile_squeeze(a, src) is (3, 4); src (1, 4, 1):
 *     tile_squeeze(b, src, 0) is (4, 1), tile_squeeze(c, src, -1) is (1, 4)
 * tile_reshape(name, src, d0, ...): same elements in row-major order under a
 *   new shape of equal size (shared: src must be contiguous: a view, slice
 *   with steps or reversed slice is refused at compile time, as in Warp). One
 *   extent may be -1: inferred from the others at compile time.
 *     src (24): tile_reshape(r, src, 2, -1, 4) is (2, 3, 4) */
#define tile_view(name, src, shape, offset)                                        \
    TILE__APPLY(TILE__VIEW_, (name, src, TILE__NARGS shape, TILE__PAD4 shape, TILE__PAD4Z offset))
#define TILE__VIEW_(name, src, nd, d0, d1, d2, d3, o0, o1, o2, o3)                 \
    TILE__CAPTURE(name, src);                                                      \
    TILE__TYPE_S_(name##__et * v, TILE__SHARED, name##__bd, nd, d0, d1, d2, d3, name##__s0, name##__s1, \
                  name##__s2)                                                      \
    name = {(src).v + TILE__OFF4(src, o0, o1, o2, o3), 0, 0};                      \
    TILE__STATIC_ASSERT(tile_is_shared(src), "tile.h: tile_view needs a shared tile (tile_to_shared first)"); \
    TILE__STATIC_ASSERT(nd == tile_ndim(src), "tile.h: view shape needs the source's number of dims"); \
    TILE__VIEW_CHECK(src, 0, o0, d0);                                              \
    TILE__VIEW_CHECK(src, 1, o1, d1);                                              \
    TILE__VIEW_CHECK(src, 2, o2, d2);                                              \
    TILE__VIEW_CHECK(src, 3, o3, d3)
/* the view's offset in dim k leaves room for its extent (TILE_DEBUG) */
#define TILE__VIEW_CHECK(src, k, o, d)                                             \
    TILE__CHECK((o) >= 0 && (o) + (d) <= tile_dim(src, k),                         \
                "tile_view: the view passes the source tile (shared tile): offset of dim " #k, \
                o, 0, tile_dim(src, k) - (d) + 1)

/* Keeping a subset of dims: k0..k3 (0/1) say which source dims stay; output
 * dim j is the kept source dim with j kept dims before it. TILE__KPICK gives
 * that dim's X (X0..X3), or dflt past the output's rank. */
#define TILE__KPICK(k0, k1, k2, k3, j, X0, X1, X2, X3, dflt)                       \
    (((k0) && 0 == (j))                                ? (X0)                      \
     : ((k1) && (k0) == (j))                           ? (X1)                      \
     : ((k2) && (k0) + (k1) == (j))                    ? (X2)                      \
     : ((k3) && (k0) + (k1) + (k2) == (j))             ? (X3)                      \
                                                       : (dflt))
/* declare `name`, the tile src (captured as name##__*) with only the kept
 * dims, sharing its storage (a shared view, or the same register slots) */
#define TILE__KEEP_DIMS(name, src, k0, k1, k2, k3)                                 \
    typedef TILE__ARRTYPEOF((src).v) name##__vt;                                    \
    TILE__CAPTURE(name, src);                                                      \
    enum {                                                                         \
        name##__kk0 = (k0) != 0, name##__kk1 = (k1) != 0, name##__kk2 = (k2) != 0, name##__kk3 = (k3) != 0, \
        name##__qnd = name##__kk0 + name##__kk1 + name##__kk2 + name##__kk3 > 0    \
                          ? name##__kk0 + name##__kk1 + name##__kk2 + name##__kk3 : 1 \
    };                                                                             \
    enum {                                                                         \
        name##__q0 = TILE__KEEP_D(name, 0), name##__q1 = TILE__KEEP_D(name, 1),    \
        name##__q2 = TILE__KEEP_D(name, 2), name##__q3 = TILE__KEEP_D(name, 3),    \
        name##__qs0 = TILE__KEEP_S(name, 0), name##__qs1 = TILE__KEEP_S(name, 1),  \
        name##__qs2 = TILE__KEEP_S(name, 2)                                        \
    };                                                                             \
    TILE__TYPE_S_(name##__vt v, name##__kind, name##__bd, name##__qnd, name##__q0, name##__q1, name##__q2, \
                  name##__q3, name##__qs0, name##__qs1, name##__qs2)               \
    name;                                                                          \
    TILE__RESHAPE_INIT(name, src)
#define TILE__KEEP_D(name, j)                                                      \
    TILE__KPICK(name##__kk0, name##__kk1, name##__kk2, name##__kk3, j, name##__d0, name##__d1, name##__d2, \
                name##__d3, 1)
#define TILE__KEEP_S(name, j)                                                      \
    TILE__KPICK(name##__kk0, name##__kk1, name##__kk2, name##__kk3, j, name##__s0, name##__s1, name##__s2, 1, 1)

#define tile_squeeze(...) TILE__DISPATCH(TILE__SQUEEZE_SEL(TILE__NARGS(__VA_ARGS__)), (__VA_ARGS__))
#define TILE__SQUEEZE_SEL(n) TILE__SQUEEZE_SEL_(n)
#define TILE__SQUEEZE_SEL_(n) tile__squeeze_##n
#define tile__squeeze_2(name, src)                                                 \
    TILE__KEEP_DIMS(name, src, TILE__D0(src) != 1, TILE__D1(src) != 1, TILE__D2(src) != 1, TILE__D3(src) != 1)
/* axis normalized to 0..ndim-1 (negative: from the end) */
#define TILE__AXIS(t, axis) ((axis) < 0 ? (axis) + tile_ndim(t) : (axis))
#define tile__squeeze_3(name, src, axis)                                           \
    TILE__STATIC_ASSERT(TILE__AXIS(src, axis) >= 0 && TILE__AXIS(src, axis) < tile_ndim(src), \
                        "tile.h: tile_squeeze: axis must be one of the tile's dims"); \
    TILE__STATIC_ASSERT(tile_dim(src, TILE__AXIS(src, axis)) == 1,                \
                        "tile.h: tile_squeeze: the squeezed axis must have extent 1"); \
    TILE__KEEP_DIMS(name, src, tile_ndim(src) > 0 && TILE__AXIS(src, axis) != 0,   \
                    tile_ndim(src) > 1 && TILE__AXIS(src, axis) != 1,              \
                    tile_ndim(src) > 2 && TILE__AXIS(src, axis) != 2,              \
                    tile_ndim(src) > 3 && TILE__AXIS(src, axis) != 3)

/* (the typedef keeps the storage kind, slot array or pointer; nvcc's host
 * code generator cannot spell __typeof__ of an array as a declarator) */
#define tile_reshape(name, src, ...)                                               \
    TILE__APPLY(TILE__RESHAPE_, (name, src, TILE__NARGS(__VA_ARGS__), TILE__PAD4(__VA_ARGS__)))
#define TILE__RESHAPE_(name, src, nd, d0, d1, d2, d3)                              \
    typedef TILE__ARRTYPEOF((src).v) name##__vt;                                    \
    TILE__CAPTURE(name, src);                                                      \
    enum {                                                                         \
        name##__rn1 = ((d0) == -1) + ((d1) == -1) + ((d2) == -1) + ((d3) == -1),   \
        name##__rsz = name##__d0 * name##__d1 * name##__d2 * name##__d3,           \
        name##__rp = ((d0) == -1 ? 1 : (d0)) * ((d1) == -1 ? 1 : (d1)) * ((d2) == -1 ? 1 : (d2)) * \
                     ((d3) == -1 ? 1 : (d3))                                       \
    };                                                                             \
    TILE__STATIC_ASSERT(name##__rn1 <= 1, "tile.h: tile_reshape: at most one extent may be -1"); \
    TILE__STATIC_ASSERT(name##__rp > 0 && name##__rsz % name##__rp == 0,           \
                        "tile.h: reshape changes the element count");              \
    enum {                                                                         \
        name##__r0 = (d0) == -1 ? name##__rsz / name##__rp : (d0),                 \
        name##__r1 = (d1) == -1 ? name##__rsz / name##__rp : (d1),                 \
        name##__r2 = (d2) == -1 ? name##__rsz / name##__rp : (d2),                 \
        name##__r3 = (d3) == -1 ? name##__rsz / name##__rp : (d3)                  \
    };                                                                             \
    TILE__TYPE_(name##__vt v, name##__kind, name##__bd, nd, name##__r0, name##__r1, name##__r2, name##__r3) name; \
    TILE__STATIC_ASSERT(!tile_is_shared(src) || TILE__CONTIG(src), "tile.h: reshape of a non-contiguous view"); \
    TILE__RESHAPE_INIT(name, src)
#define TILE__RESHAPE_INIT(name, src)                                              \
    TILE__STATIC_ASSERT(tile_size(name) == tile_size(src), "tile.h: reshape changes the element count"); \
    memcpy(&(name).v, &(src).v, sizeof((src).v))

/* ---- slices (Python's t[a:b:k, ...]) ----
 * tile_slice(name, src, spec0[, spec1, ...]): one spec per leading dim of src
 * (missing trailing specs take the whole dim), each one of
 *   TILE_ALL              :            TILE_STEP(k)         ::k
 *   TILE_REV              ::-1         TILE_RANGE(a, b)     a:b
 *   TILE_SLICE(a, b, k)   a:b:k, TILE_NONE for an omitted bound
 *   TILE_AT(i)            i: one index, the dim is dropped
 * Bounds and steps are compile-time constants (the shape depends on them)
 * and follow Python: negative bounds count from the end, bounds are clamped,
 * a negative step walks backwards. TILE_AT's i may be a run-time value; a
 * negative i counts from the end once (-1 is the last; i + extent must then
 * be in range, which TILE_DEBUG builds check). An empty slice, all dims
 * dropped (use tile_extract) or a step on the last dim of a 4D tile does not
 * compile.
 * Shared src: a VIEW (no copy, no barrier): the steps multiply the strides, a
 * reversed dim has a negative stride; writes through it reach src.
 * Register src: a register COPY of the selected elements (elements move
 * between threads, so src is staged in the arena: TILE_SMEM_BYTES of src
 * during the call, two barriers).
 *   s (4, 6) shared, s[i][j] = 10 i + j:
 *   tile_slice(a, s, TILE_STEP(2), TILE_STEP(2))   a (2, 3) = [[0 2 4] [20 22 24]]
 *   tile_slice(b, s, TILE_REV)                     b (4, 6): rows 3, 2, 1, 0
 *   tile_slice(c, s, TILE_AT(-1), TILE_SLICE(TILE_NONE, 1, -2))   c (2) = [35 33]
 *   tile_slice(d, s, TILE_RANGE(1, -1), TILE_AT(2))                d (2) = [12 22] */
#define TILE_NONE (-0x20000000)
#define TILE_ALL (TILE_NONE, TILE_NONE, 1, 0)
#define TILE_STEP(k) (TILE_NONE, TILE_NONE, k, 0)
#define TILE_REV (TILE_NONE, TILE_NONE, -1, 0)
#define TILE_RANGE(a, b) (a, b, 1, 0)
#define TILE_SLICE(a, b, k) (a, b, k, 0)
#define TILE_AT(i) (0, 1, 0, i)
#define tile_slice(name, src, ...)                                                 \
    TILE__APPLY(TILE__SLICE_, (name, src, TILE__NARGS(__VA_ARGS__), TILE__SPEC4(__VA_ARGS__)))
#define TILE__SPEC4(...) TILE__SPEC4_(__VA_ARGS__, TILE_ALL, TILE_ALL, TILE_ALL, TILE_ALL)
#define TILE__SPEC4_(a, b, c, d, ...) a, b, c, d
#define TILE__UNPAREN(...) __VA_ARGS__
#define TILE__SL_DIM(name, k, spec) TILE__APPLY2(TILE__SL_DIM_, (name, k, TILE__UNPAREN spec))
/* dim k: step c (0: one index, dropped), Python-normalized start a, stop b,
 * length n, kept flag; the run-time start offset o (declared const int) */
#define TILE__SL_DIM_(name, k, a, b, c, i)                                         \
    enum {                                                                         \
        name##__lo##k = (c) > 0 ? 0 : -1,                                         \
        name##__hi##k = (c) > 0 ? name##__d##k : name##__d##k - 1                 \
    };                                                                             \
    enum {                                                                         \
        name##__a##k = (c) == 0 ? 0                                                \
                                : TILE__SL_RES(a, (c) > 0 ? name##__lo##k : name##__hi##k, name##__d##k, \
                                               name##__lo##k, name##__hi##k),      \
        name##__b##k = (c) == 0 ? 1                                                \
                                : TILE__SL_RES(b, (c) > 0 ? name##__hi##k : name##__lo##k, name##__d##k, \
                                               name##__lo##k, name##__hi##k)       \
    };                                                                             \
    enum {                                                                         \
        name##__c##k = (c),                                                        \
        name##__n##k = (c) == 0 ? 1                                                \
                       : (c) > 0 ? TILE__SL_MAX0((name##__b##k - name##__a##k + (c) - 1) / ((c) > 0 ? (c) : 1)) \
                                 : TILE__SL_MAX0((name##__a##k - name##__b##k - (c) - 1) / ((c) < 0 ? -(c) : 1)), \
        name##__k##k = (k) < name##__nd && (c) != 0                                \
    };                                                                             \
    const int name##__o##k = (c) == 0 ? TILE__SL_WRAP(i, name##__d##k) : name##__a##k; \
    TILE__CHECK((c) != 0 || (name##__o##k >= 0 && name##__o##k < name##__d##k),   \
                "tile_slice: TILE_AT index of dim " #k " out of range (after counting a negative one from the end)", \
                name##__o##k, 0, name##__d##k)
#define TILE__SL_RES(v, dflt, n, lo, hi)                                           \
    ((v) == TILE_NONE ? (dflt) : (v) < 0 ? ((v) + (n) > (lo) ? (v) + (n) : (lo)) : ((v) < (hi) ? (v) : (hi)))
#define TILE__SL_MAX0(x) ((x) > 0 ? (x) : 0)
#define TILE__SL_WRAP(i, n) ((int)(i) < 0 ? (int)(i) + (n) : (int)(i))
/* type of the storage member: a pointer for a shared tile, a slot array for a
 * register one (chosen by a constant: __builtin_choose_expr in C, a class
 * template in C++, where C has no way to pick a type by a constant) */
#if defined(__cplusplus)
template <int S, class T, int N> struct tile__vsel { typedef T type[N]; };
template <class T, int N> struct tile__vsel<1, T, N> { typedef T *type; };
#define TILE__VSEL(shared, T, n) typename tile__vsel<(shared) ? 1 : 0, T, n>::type
#else
#define TILE__VSEL(shared, T, n) __typeof__(*__builtin_choose_expr((shared), (T **)0, (T(*)[n])0))
#endif
#define TILE__SLICE_(name, src, nspec, sp0, sp1, sp2, sp3)                         \
    TILE__CAPTURE(name, src);                                                      \
    TILE__STATIC_ASSERT((nspec) <= tile_ndim(src), "tile.h: tile_slice: more specs than the tile has dims"); \
    TILE__SL_DIM(name, 0, sp0);                                                    \
    TILE__SL_DIM(name, 1, sp1);                                                    \
    TILE__SL_DIM(name, 2, sp2);                                                    \
    TILE__SL_DIM(name, 3, sp3);                                                    \
    enum {                                                                         \
        name##__ond = name##__k0 + name##__k1 + name##__k2 + name##__k3,           \
        name##__e0 = TILE__SL_PICK(name, 0, name##__n0, name##__n1, name##__n2, name##__n3), \
        name##__e1 = TILE__SL_PICK(name, 1, name##__n0, name##__n1, name##__n2, name##__n3), \
        name##__e2 = TILE__SL_PICK(name, 2, name##__n0, name##__n1, name##__n2, name##__n3), \
        name##__e3 = TILE__SL_PICK(name, 3, name##__n0, name##__n1, name##__n2, name##__n3), \
        name##__t0 = TILE__SL_PICK(name, 0, name##__s0 * name##__c0, name##__s1 * name##__c1, \
                                   name##__s2 * name##__c2, name##__c3),           \
        name##__t1 = TILE__SL_PICK(name, 1, name##__s0 * name##__c0, name##__s1 * name##__c1, \
                                   name##__s2 * name##__c2, name##__c3),           \
        name##__t2 = TILE__SL_PICK(name, 2, name##__s0 * name##__c0, name##__s1 * name##__c1, \
                                   name##__s2 * name##__c2, name##__c3)            \
    };                                                                             \
    TILE__STATIC_ASSERT(name##__ond > 0, "tile.h: tile_slice: every dim dropped (use tile_extract for one element)"); \
    TILE__STATIC_ASSERT(name##__n0 > 0 && name##__n1 > 0 && name##__n2 > 0 && name##__n3 > 0, \
                        "tile.h: tile_slice: empty slice");                        \
    TILE__STATIC_ASSERT(name##__ond < 4 || name##__c3 == 1,                        \
                        "tile.h: tile_slice: a step on the last dim of a 4D tile is not supported"); \
    enum {                                                                         \
        name##__osz = name##__e0 * name##__e1 * name##__e2 * name##__e3,           \
        name##__osh = name##__kind == TILE__SHARED                                 \
    };                                                                             \
    typedef TILE__VSEL(name##__osh, name##__et, TILE__SLOTS_N(name##__osz, name##__bd)) name##__vt; \
    TILE__TYPE_S_(name##__vt v, name##__kind, name##__bd, name##__ond, name##__e0, name##__e1, name##__e2, \
                  name##__e3, name##__osh ? name##__t0 : name##__e1 * name##__e2 * name##__e3, \
                  name##__osh ? name##__t1 : name##__e2 * name##__e3, name##__osh ? name##__t2 : name##__e3) \
    name;                                                                          \
    do {                                                                           \
        const int tile__soff = name##__o0 * name##__s0 + name##__o1 * name##__s1 + name##__o2 * name##__s2 + \
                               name##__o3;                                         \
        if (tile_is_shared(src)) {                                                 \
            name##__et *tile__sp = 0;                                              \
            memcpy(&tile__sp, &(src).v, tile_is_shared(src) ? sizeof(tile__sp) : 0); \
            tile__sp += tile__soff;                                                \
            memcpy(&(name).v, &tile__sp, tile_is_shared(src) ? sizeof(tile__sp) : 0); \
        } else {                                                                   \
            const int tile__smk = tile_smem_mark();                                \
            tile_to_shared(tile__sst, src);                                        \
            TILE__TYPE_S_(name##__et * v, TILE__SHARED, name##__bd, name##__ond, name##__e0, name##__e1, \
                          name##__e2, name##__e3, name##__t0, name##__t1, name##__t2) \
            tile__svw = {tile__sst.v + tile__soff, 0, 0};                          \
            tile_copy(name, tile__svw);                                            \
            tile_barrier(); /* every thread has read the staged copy */           \
            tile_smem_release(tile__smk);                                          \
        }                                                                          \
    } while (0)
#define TILE__SL_PICK(name, j, X0, X1, X2, X3)                                     \
    TILE__KPICK(name##__k0, name##__k1, name##__k2, name##__k3, j, X0, X1, X2, X3, 1)

/* ---- broadcast ----
 * tile_broadcast(dst, src): dst[i] = src[i'] where i' takes i's index in each
 * dim and 0 where src has extent 1; dims align on the right (numpy). A
 * register src is staged through the arena (TILE_SMEM_BYTES of src).
 *   src (1, 3) = [[1 2 3]], dst (2, 3) -> [[1 2 3] [1 2 3]] */
/* source dim j (right-aligned) broadcasts to dst: extent 1 or equal */
#define TILE__BC_OK(src, dst, j)                                                   \
    ((j) >= tile_ndim(src) || tile_dim(src, j) == 1 ||                             \
     tile_dim(src, j) == tile_dim(dst, (j) + tile_ndim(dst) - tile_ndim(src)))
#define tile_broadcast(dst, src)                                                   \
    do {                                                                           \
        int tile__mk = tile_smem_mark();                                           \
        tile_to_shared(tile__bs, src);                                             \
        enum { tile__sh = tile_ndim(dst) - tile_ndim(src) };                       \
        TILE__STATIC_ASSERT(tile__sh >= 0, "tile.h: broadcast source has more dims"); \
        TILE__STATIC_ASSERT(TILE__BC_OK(src, dst, 0) && TILE__BC_OK(src, dst, 1) && TILE__BC_OK(src, dst, 2) && \
                                TILE__BC_OK(src, dst, 3),                          \
                            "tile.h: tile_broadcast: shapes cannot broadcast (aligned on the right, each source " \
                            "extent must be 1 or the destination's)");             \
        TILE__WRITE_BEGIN(dst);                                                    \
        TILE__EACH(dst, tile__s) {                                                 \
            int tile__L = TILE__LIN(dst, tile__s);                                 \
            int tile__i[4] = {tile__L / (TILE__D1(dst) * TILE__D2(dst) * TILE__D3(dst)), \
                              tile__L / (TILE__D2(dst) * TILE__D3(dst)) % TILE__D1(dst), \
                              tile__L / TILE__D3(dst) % TILE__D2(dst), tile__L % TILE__D3(dst)}; \
            int tile__o = 0;                                                       \
            TILE__UNROLL for (int tile__j = 0; tile__j < 4; ++tile__j) {           \
                int tile__dj = tile__j + tile__sh;                                 \
                int tile__ext = tile_dim(tile__bs, tile__j);                       \
                int tile__idx = (tile__dj < 4 && tile__ext != 1) ? tile__i[tile__dj < 4 ? tile__dj : 0] : 0; \
                tile__o = tile__o * tile__ext + tile__idx;                         \
            }                                                                      \
            TILE__AT(dst, tile__s) = tile__bs.v[tile__o];                          \
        }                                                                          \
        TILE__WRITE_END(dst);                                                      \
        tile_smem_release(tile__mk);                                               \
    } while (0)

#endif /* TILE_CONSTRUCT_H */
