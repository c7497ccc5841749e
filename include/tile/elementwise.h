/* tile/elementwise.h - element-wise arithmetic and maps over tiles.
 *
 * All operations are cooperative (every thread of the block calls them) and
 * take any mix of register and shared tiles of one shape; the destination may
 * alias an operand. Each thread handles its own slots, so register-only
 * operations need no barrier; a shared destination is bracketed by barriers.
 *
 * Suppose a holds [0 1 2 3] and b holds [4 4 4 4] (f32, shape 4):
 *   tile_add(c, a, b)       c = [4 5 6 7]
 *   tile_mul_c(c, a, 2.0f)  c = [0 2 4 6]
 *   tile_c_div(c, 12.0f, b) c = [3 3 3 3]
 * Promotion (Warp's rule): an f32 tile times a vec3f constant is a vec3f
 * tile, as is a vec3f tile divided by an f32 tile; vector by vector does not
 * compile (use tile_map2 with a component-wise function).
 */
#ifndef TILE_ELEMENTWISE_H
#define TILE_ELEMENTWISE_H

#include "core.h"

/* c = f(a's element, b's element) over the calling thread's slots */
#define TILE__EW(c, EXPR)                                                          \
    do {                                                                           \
        TILE__WRITE_BEGIN(c);                                                      \
        TILE__EACH(c, tile__s) { TILE__AT(c, tile__s) = EXPR; }                    \
        TILE__WRITE_END(c);                                                        \
    } while (0)
#define TILE__EW1(c, a, EXPR)                                                      \
    do {                                                                           \
        TILE__SAME_SHAPE(c, a);                                                    \
        TILE__EW(c, EXPR);                                                         \
    } while (0)
#define TILE__EW2(c, a, b, EXPR)                                                   \
    do {                                                                           \
        TILE__SAME_SHAPE(c, a);                                                    \
        TILE__SAME_SHAPE(c, b);                                                    \
        TILE__EW(c, EXPR);                                                         \
    } while (0)
#define TILE__A(t) TILE__AT(t, tile__s)

/* c = a + b, c = a - b, c = -a (tiles of one shape and element type) */
#define tile_add(c, a, b) TILE__EW2(c, a, b, TILE__G_ADD(TILE__A(a), TILE__A(b)))
#define tile_sub(c, a, b) TILE__EW2(c, a, b, TILE__G_SUB(TILE__A(a), TILE__A(b)))
#define tile_neg(c, a) TILE__EW1(c, a, TILE__G_NEG(TILE__A(a)))
/* c = a * b, c = a / b: tile by tile, at least one element type scalar */
#define tile_mul(c, a, b) TILE__EW2(c, a, b, TILE__G_MUL_TT(TILE__A(a), TILE__A(b)))
#define tile_div(c, a, b) TILE__EW2(c, a, b, TILE__G_DIV_TT(TILE__A(a), TILE__A(b)))
/* c = a * k, c = k * a, c = a / k, c = k / a: k a scalar/vector/matrix value,
 * broadcast to every element */
#define tile_mul_c(c, a, k) TILE__EW1(c, a, TILE__G_MUL(TILE__A(a), (k)))
#define tile_c_mul(c, k, a) TILE__EW1(c, a, TILE__G_KMUL((k), TILE__A(a)))
#define tile_div_c(c, a, k) TILE__EW1(c, a, TILE__G_DIV(TILE__A(a), (k)))
#define tile_c_div(c, k, a) TILE__EW1(c, a, TILE__G_KDIV((k), TILE__A(a)))
/* in place: a += b, a -= b, a *= b, a /= b, a *= k, a /= k */
#define tile_iadd(a, b) tile_add(a, a, b)
#define tile_isub(a, b) tile_sub(a, a, b)
#define tile_imul(a, b) tile_mul(a, a, b)
#define tile_idiv(a, b) tile_div(a, a, b)
#define tile_imul_c(a, k) tile_mul_c(a, a, k)
#define tile_idiv_c(a, k) tile_div_c(a, a, k)
/* dst = alpha * src + dst in one pass (Warp's tile_axpy; alpha a constant)
 *   src = [1 2 3], dst = [10 10 10]: tile_axpy(2, src, dst) -> dst = [12 14 16] */
#define tile_axpy(alpha, src, dst) TILE__EW2(dst, src, dst, TILE__G_ADD(TILE__G_MUL(TILE__A(src), (alpha)), TILE__A(dst)))

/* c = fn(a), c = fn(a, b), c = fn(a, b, d), c = fn(a, b, d, e) element by
 * element; fn is a TILE_FUNC (or any __host__ __device__ function or macro).
 * f16 / bf16 elements reach fn as f32 and fn's result is converted to c's
 * element type as tile_astype converts (rounded once to f16 / bf16), so a
 * map over 16-bit tiles computes in f32 and rounds once. Other types pass
 * as they are and the result is assigned (user structs included).
 *   TILE_FUNC float sq(float x) { return x * x; }
 *   tile_map(c, sq, a)   // a = [1 2 3] -> c = [1 4 9]
 *   TILE_FUNC float fma3(float x, float y, float z) { return x * y + z; }
 *   tile_map3(c, fma3, a, b, d)   // a = [1 2], b = [3 4], d = [5 6] -> c = [8 14]
 * The operand tiles share c's shape (any mix of register and shared). */
#define TILE__MAP(c, CALL)                                                         \
    do {                                                                           \
        TILE__WRITE_BEGIN(c);                                                      \
        TILE__EACH(c, tile__s) {                                                   \
            TILE__TYPEOF(CALL) tile__mv = CALL;                                    \
            TILE__CHECK_CVT((c).v[0], tile__mv);                                   \
            TILE__AT(c, tile__s) = TILE__CVT(TILE__AT(c, tile__s), tile__mv);      \
        }                                                                          \
        TILE__WRITE_END(c);                                                        \
    } while (0)
#define tile_map(c, fn, a)                                                         \
    do {                                                                           \
        TILE__SAME_SHAPE(c, a);                                                    \
        TILE__MAP(c, fn(TILE__ARG(TILE__A(a))));                                   \
    } while (0)
#define tile_map2(c, fn, a, b)                                                     \
    do {                                                                           \
        TILE__SAME_SHAPE(c, a);                                                    \
        TILE__SAME_SHAPE(c, b);                                                    \
        TILE__MAP(c, fn(TILE__ARG(TILE__A(a)), TILE__ARG(TILE__A(b))));            \
    } while (0)
#define tile_map3(c, fn, a, b, d)                                                  \
    do {                                                                           \
        TILE__SAME_SHAPE(c, a);                                                    \
        TILE__SAME_SHAPE(c, b);                                                    \
        TILE__SAME_SHAPE(c, d);                                                    \
        TILE__MAP(c, fn(TILE__ARG(TILE__A(a)), TILE__ARG(TILE__A(b)), TILE__ARG(TILE__A(d)))); \
    } while (0)
#define tile_map4(c, fn, a, b, d, e)                                               \
    do {                                                                           \
        TILE__SAME_SHAPE(c, a);                                                    \
        TILE__SAME_SHAPE(c, b);                                                    \
        TILE__SAME_SHAPE(c, d);                                                    \
        TILE__SAME_SHAPE(c, e);                                                    \
        TILE__MAP(c, fn(TILE__ARG(TILE__A(a)), TILE__ARG(TILE__A(b)), TILE__ARG(TILE__A(d)), \
                        TILE__ARG(TILE__A(e))));                                   \
    } while (0)

/* dst = mask ? a : b element by element (Warp's tile_where, CUB's select by
 * flags): mask a tile of an integer or bool element type (nonzero selects
 * a); a and b tiles of dst's element type. tile_where_c takes a constant
 * for b, tile_where_cc constants for both.
 *   mask = [1 0 0 1], a = [1 2 3 4], b = [9 9 9 9]:
 *   tile_where(d, mask, a, b)       d = [1 9 9 4]
 *   tile_where_c(d, mask, a, 0.0f)  d = [1 0 0 4] */
#if defined(__cplusplus)
template <class T> struct tile__int_mask { enum { value = 1 }; };
template <> struct tile__int_mask<float> { enum { value = 0 }; };
template <> struct tile__int_mask<double> { enum { value = 0 }; };
template <> struct tile__int_mask<long double> { enum { value = 0 }; };
template <> struct tile__int_mask<tile_f16> { enum { value = 0 }; };
template <> struct tile__int_mask<tile_bf16> { enum { value = 0 }; };
#define TILE__INT_MASK(m) ((int)tile__int_mask<TILE__ET((m).v[0])>::value)
#else
#define TILE__INT_MASK(m) \
    _Generic((m).v[0], float: 0, double: 0, long double: 0, tile_f16: 0, tile_bf16: 0, default: 1)
#endif
#define TILE__WHERE_CHECK(dst, mask)                                               \
    TILE__SAME_SHAPE(dst, mask);                                                   \
    TILE__STATIC_ASSERT(TILE__INT_MASK(mask), "tile.h: tile_where: the mask must be a tile of an integer or bool type")
#define tile_where(dst, mask, a, b)                                                \
    do {                                                                           \
        TILE__WHERE_CHECK(dst, mask);                                              \
        TILE__SAME_SHAPE(dst, a);                                                  \
        TILE__SAME_SHAPE(dst, b);                                                  \
        TILE__STATIC_ASSERT(sizeof((a).v[0]) == sizeof((dst).v[0]) && sizeof((b).v[0]) == sizeof((dst).v[0]), \
                            "tile.h: tile_where: a and b need dst's element type"); \
        TILE__EW(dst, TILE__A(mask) ? TILE__A(a) : TILE__A(b));                    \
    } while (0)
#define tile_where_c(dst, mask, a, kb)                                             \
    do {                                                                           \
        TILE__WHERE_CHECK(dst, mask);                                              \
        TILE__SAME_SHAPE(dst, a);                                                  \
        const TILE_ELEM_T(dst) tile__wb = (kb);                                    \
        TILE__EW(dst, TILE__A(mask) ? TILE__A(a) : tile__wb);                      \
    } while (0)
#define tile_where_cc(dst, mask, ka, kb)                                           \
    do {                                                                           \
        TILE__WHERE_CHECK(dst, mask);                                              \
        const TILE_ELEM_T(dst) tile__wa = (ka), tile__wb = (kb);                   \
        TILE__EW(dst, TILE__A(mask) ? tile__wa : tile__wb);                        \
    } while (0)

/* dst = src, any storages of one shape (element types convert like C;
 * tile_astype converts f16 / bf16 / complex too). */
#define tile_copy(dst, src) TILE__EW1(dst, src, TILE__A(src))
/* dst = src converted to dst's element type (tile_astype of Warp): every
 * pair of real types (f32 f64 i32 u32 i64 u64 i8 u8 f16 bf16), real to
 * complex (imaginary 0), c32 <-> c64. One rounding to nearest even;
 * float -> integer truncates toward zero and saturates, NaN -> 0 (the same
 * on the CPU and the GPU). Other pairs do not compile.
 *   f32 [1.5 -2.5 300 NaN] -> i32 [1 -2 300 0];  -> u8 [1 0 255 0]
 *   f32 [1.0009765625 (a tie)] -> f16 [1.0] (even);  f16 [65504] -> f32 [65504] */
#define tile_astype(dst, src)                                                      \
    do {                                                                           \
        TILE__CHECK_CVT((dst).v[0], (src).v[0]);                                   \
        TILE__EW1(dst, src, TILE__CVT(TILE__AT(dst, tile__s), TILE__A(src)));      \
    } while (0)

/* Declare shared tile `name` holding a copy of register tile `src` (one
 * store per slot and one barrier): the cheap explicit way to random access.
 *   tile_to_shared(s, r);  tile_get(s, 3, 4) is now readable by any thread */
#define tile_to_shared(name, src)                                                  \
    TILE__CAPTURE(name, src);                                                      \
    TILE__SMEM_FITS(sizeof(name##__et) * tile_size(src), "tile_to_shared: the shared copy"); \
    TILE__SHARED_TYPE_(name##__et, name##__bd, name##__nd, name##__d0, name##__d1, name##__d2, name##__d3) \
    name = {(name##__et *)TILE__SMEM_TAKE(sizeof(name##__et) * tile_size(src)), 0, 0}; \
    tile_copy(name, src)

/* ---- element access on shared tiles ----
 * tile_get(t, i0[, i1, ...]): read an element; any thread, no barrier.
 * Indices outside the tile are a broken promise: TILE_DEBUG builds print the
 * index and its range and stop (assert on the host, trap on the device).
 * tile_set(t, v, i0[, ...]): cooperative write of one element (Warp's
 * t[i, j] = v): barrier, the element's owner thread writes v, barrier. v
 * should be the same in every thread. */
#define tile_get(t, ...) TILE__APPLY(tile__get4, (t, TILE__PAD4Z(__VA_ARGS__)))
#define TILE__PAD4Z(...) TILE__PAD4_(__VA_ARGS__, 0, 0, 0, 0)
#if defined(TILE_DEBUG)
#define tile__get4(t, i0, i1, i2, i3)                                              \
    ((t).v[__extension__({                                                         \
        const int tile__g0 = (i0), tile__g1 = (i1), tile__g2 = (i2), tile__g3 = (i3); \
        TILE__CHECK_IDX4(t, "tile_get", tile__g0, tile__g1, tile__g2, tile__g3);   \
        TILE__OFF4(t, tile__g0, tile__g1, tile__g2, tile__g3);                     \
    })])
#else
#define tile__get4(t, i0, i1, i2, i3) ((t).v[TILE__OFF4(t, i0, i1, i2, i3)])
#endif
#define tile_set(t, val, ...) TILE__APPLY(tile__set4, (t, val, TILE__PAD4Z(__VA_ARGS__)))
#define tile__set4(t, val, i0, i1, i2, i3)                                         \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_is_shared(t), "tile.h: tile_set needs a shared tile"); \
        TILE__CHECK_IDX4(t, "tile_set", i0, i1, i2, i3);                           \
        tile_barrier();                                                            \
        int tile__lin = (((i0) * TILE__D1(t) + (i1)) * TILE__D2(t) + (i2)) * TILE__D3(t) + (i3); \
        if (tile__lin % TILE__BD(t) == tile_thread())                              \
            (t).v[TILE__OFF4(t, i0, i1, i2, i3)] = (val);                          \
        tile_barrier();                                                            \
    } while (0)

#endif /* TILE_ELEMENTWISE_H */
