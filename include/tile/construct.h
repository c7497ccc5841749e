/* tile/construct.h - filling tiles, tiles from per-thread values and back,
 * views, broadcasts, reshapes and random tiles.
 *
 * Fills are cooperative and work on register and shared tiles:
 *   tile_reg(float, t, 8);
 *   tile_zeros(t);              // [0 0 0 0 0 0 0 0]
 *   tile_full(t, 2.5f);         // [2.5 ... 2.5]
 *   tile_arange(t, 1, 2);       // [1 3 5 7 9 11 13 15]
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
        const TILE_ELEM_T(t) tile__fv = (value);                                   \
        TILE__EW(t, tile__fv);                                                     \
    } while (0)
/* element with linear index i = start + i * step (scalar element types) */
#define tile_arange(t, start, step)                                                \
    TILE__EW(t, (TILE_ELEM_T(t))(start) + (TILE_ELEM_T(t))TILE__LIN(t, tile__s) * (TILE_ELEM_T(t))(step))

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
/* the calling thread's value of a (block_dim) tile */
#define tile_untile(t) TILE__AT(t, 0)
/* component c of the calling thread's value of an expanded (N, block_dim) or
 * (R, C, block_dim) tile (c = r * C + col for matrices) */
#define tile_untile_comp(t, c) TILE__AT(t, c)

/* ---- views, squeeze and reshape ----
 * tile_view(name, src, (shape), (offset)): sub-tile of a shared tile sharing
 *   its memory; shape and offset have src's number of dims.
 *     s is 8x8 shared; tile_view(q, s, (4, 4), (4, 0)) is its bottom-left quarter.
 * tile_squeeze(name, src): drop the dims of extent 1 (shared: a view;
 *   register: the same slots under the new shape).
 * tile_reshape(name, src, d0, ...): same elements in row-major order under a
 *   new shape of equal size (shared: src must be contiguous). */
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

/* k-th (0-based) dim of extent != 1, or 1; and its stride */
#define TILE__NE1(t, j) (tile_dim(t, j) != 1)
#define TILE__CNT_BEFORE(t, j) ((j) > 0 && TILE__NE1(t, 0)) + ((j) > 1 && TILE__NE1(t, 1)) + ((j) > 2 && TILE__NE1(t, 2))
#define TILE__SQ_PICK(t, k, X0, X1, X2, X3)                                        \
    ((TILE__NE1(t, 0) && TILE__CNT_BEFORE(t, 0) == (k)) ? (X0)                     \
     : (TILE__NE1(t, 1) && TILE__CNT_BEFORE(t, 1) == (k)) ? (X1)                   \
     : (TILE__NE1(t, 2) && TILE__CNT_BEFORE(t, 2) == (k)) ? (X2)                   \
     : (TILE__NE1(t, 3) && TILE__CNT_BEFORE(t, 3) == (k)) ? (X3) : 1)
#define TILE__SQ_D(t, k) TILE__SQ_PICK(t, k, TILE__D0(t), TILE__D1(t), TILE__D2(t), TILE__D3(t))
#define TILE__SQ_S(t, k) TILE__SQ_PICK(t, k, TILE__S0(t), TILE__S1(t), TILE__S2(t), 1)
#define TILE__SQ_ND(t) (TILE__CNT_BEFORE(t, 3) + TILE__NE1(t, 3) > 0 ? TILE__CNT_BEFORE(t, 3) + TILE__NE1(t, 3) : 1)
#define tile_squeeze(name, src)                                                    \
    typedef TILE__ARRTYPEOF((src).v) name##__vt;                                    \
    TILE__CAPTURE(name, src);                                                      \
    enum {                                                                         \
        name##__q0 = TILE__SQ_D(src, 0), name##__q1 = TILE__SQ_D(src, 1), name##__q2 = TILE__SQ_D(src, 2), \
        name##__q3 = TILE__SQ_D(src, 3), name##__qs0 = TILE__SQ_S(src, 0), name##__qs1 = TILE__SQ_S(src, 1), \
        name##__qs2 = TILE__SQ_S(src, 2), name##__qnd = TILE__SQ_ND(src)           \
    };                                                                             \
    TILE__TYPE_S_(name##__vt v, name##__kind, name##__bd, name##__qnd, name##__q0, name##__q1, name##__q2, \
                  name##__q3, name##__qs0, name##__qs1, name##__qs2)               \
    name;                                                                          \
    TILE__RESHAPE_INIT(name, src)

/* (the typedef keeps the storage kind, slot array or pointer; nvcc's host
 * code generator cannot spell __typeof__ of an array as a declarator) */
#define tile_reshape(name, src, ...)                                               \
    typedef TILE__ARRTYPEOF((src).v) name##__vt;                                    \
    TILE__CAPTURE(name, src);                                                      \
    TILE__APPLY(TILE__TYPE_, (name##__vt v, name##__kind, name##__bd, TILE__NARGS(__VA_ARGS__), \
                TILE__PAD4(__VA_ARGS__))) name;                                     \
    TILE__STATIC_ASSERT(!tile_is_shared(src) || TILE__CONTIG(src), "tile.h: reshape of a non-contiguous view"); \
    TILE__RESHAPE_INIT(name, src)
#define TILE__RESHAPE_INIT(name, src)                                              \
    TILE__STATIC_ASSERT(tile_size(name) == tile_size(src), "tile.h: reshape changes the element count"); \
    memcpy(&(name).v, &(src).v, sizeof((src).v))

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
