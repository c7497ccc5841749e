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

/* c = fn(a), c = fn(a, b) element by element; fn is a TILE_FUNC (or any
 * __host__ __device__ function or macro).
 *   TILE_FUNC float sq(float x) { return x * x; }
 *   tile_map(c, sq, a)   // a = [1 2 3] -> c = [1 4 9] */
#define tile_map(c, fn, a) TILE__EW1(c, a, fn(TILE__A(a)))
#define tile_map2(c, fn, a, b) TILE__EW2(c, a, b, fn(TILE__A(a), TILE__A(b)))

/* dst = src, any storages of one shape (element types convert like C). */
#define tile_copy(dst, src) TILE__EW1(dst, src, TILE__A(src))
/* dst = src converted to dst's scalar element type (tile_astype of Warp).
 *   f32 [1.5 -2.5] -> i32 [1 -2] */
#define tile_astype(dst, src) TILE__EW1(dst, src, (TILE_ELEM_T(dst))TILE__A(src))

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
