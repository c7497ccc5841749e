/* tile/load.h - moving tiles between global arrays and tiles.
 *
 * A global array is described by a tile_array view: base pointer, shape and
 * strides in elements (1 to 4 dims). A tile is loaded from / stored to the
 * view at an element offset, one offset per dim. Elements outside the view
 * read as zero; writes outside it are dropped.
 *
 *   tile_array a2 = tile_array2(a, rows, cols);     // row-major, contiguous
 *   tile_reg(float, t, 16, 16);
 *   tile_load(t, a2, i * 16, j * 16);               // zero-padded at edges
 *   tile_store(b2, t, i * 16, j * 16);              // edges dropped
 *   tile_atomic_add(acc, s, 0);                     // acc[0] += every element of s
 */
#ifndef TILE_LOAD_H
#define TILE_LOAD_H

#include "reduce.h"

typedef struct tile_array {
    void *ptr;
    int ndim;
    int64_t shape[4];
    int64_t stride[4]; /* in elements */
    int64_t base_off;  /* element offset of index (0, 0, 0, 0) from ptr */
} tile_array;

/* A view of ndim dims (1..4) with given shape and element strides. */
TILE_API tile_array tile_array_strided(const void *ptr, int ndim, const int64_t *shape, const int64_t *stride) {
    tile_array a;
    a.ptr = (void *)ptr;
    a.ndim = ndim;
    a.base_off = 0;
    for (int i = 0; i < 4; ++i) {
        a.shape[i] = i < ndim ? shape[i] : 1;
        a.stride[i] = i < ndim ? stride[i] : 0;
    }
    return a;
}
/* Contiguous row-major views. tile_array2(p, 3, 4): 3 rows of 4, strides (4, 1). */
TILE_API tile_array tile_array1(const void *p, int64_t n) {
    int64_t sh[1] = {n}, st[1] = {1};
    return tile_array_strided(p, 1, sh, st);
}
TILE_API tile_array tile_array2(const void *p, int64_t n0, int64_t n1) {
    int64_t sh[2] = {n0, n1}, st[2] = {n1, 1};
    return tile_array_strided(p, 2, sh, st);
}
TILE_API tile_array tile_array3(const void *p, int64_t n0, int64_t n1, int64_t n2) {
    int64_t sh[3] = {n0, n1, n2}, st[3] = {n1 * n2, n2, 1};
    return tile_array_strided(p, 3, sh, st);
}
TILE_API tile_array tile_array4(const void *p, int64_t n0, int64_t n1, int64_t n2, int64_t n3) {
    int64_t sh[4] = {n0, n1, n2, n3}, st[4] = {n1 * n2 * n3, n2 * n3, n3, 1};
    return tile_array_strided(p, 4, sh, st);
}

/* The sub-array at index i of dim 0 (one dim fewer), like Warp's a[i].
 *   tile_array_row(tile_array2(p, 3, 4), 2) is the 4 elements at p + 8. */
TILE_API tile_array tile_array_row(tile_array a, int64_t i) {
    tile_array r = a;
    r.ptr = (char *)a.ptr; /* element size is unknown here: keep an element offset */
    r.ndim = a.ndim > 1 ? a.ndim - 1 : 1;
    r.base_off = a.base_off + i * a.stride[0];
    for (int k = 0; k < 3; ++k) {
        r.shape[k] = a.ndim > 1 ? a.shape[k + 1] : 1;
        r.stride[k] = a.ndim > 1 ? a.stride[k + 1] : 0;
    }
    r.shape[3] = 1;
    r.stride[3] = 0;
    return r;
}

/* Global element offset `gout` of the calling thread's slot s and whether it
 * lies inside the array (`okout`). o[] holds the tile's offset. */
#define TILE__GOFF(t, arr, o, s, gout, okout)                                      \
    do {                                                                           \
        int tile__L = TILE__LIN(t, s);                                             \
        int64_t tile__g[4] = {(o)[0] + tile__L / (TILE__D1(t) * TILE__D2(t) * TILE__D3(t)), \
                              (o)[1] + tile__L / (TILE__D2(t) * TILE__D3(t)) % TILE__D1(t), \
                              (o)[2] + tile__L / TILE__D3(t) % TILE__D2(t),       \
                              (o)[3] + tile__L % TILE__D3(t)};                     \
        (okout) = 1;                                                               \
        TILE__UNROLL for (int tile__k2 = 0; tile__k2 < 4; ++tile__k2) {            \
            if (tile__g[tile__k2] < 0 || tile__g[tile__k2] >= (arr).shape[tile__k2]) (okout) = 0; \
        }                                                                          \
        (gout) = (arr).base_off + tile__g[0] * (arr).stride[0] + tile__g[1] * (arr).stride[1] + \
                 tile__g[2] * (arr).stride[2] + tile__g[3] * (arr).stride[3];      \
    } while (0)

/* Is the whole tile inside the array? (uniform across the block: one test
 * per tile, after which no element needs a bounds check) */
#define TILE__INSIDE(t, arr, o)                                                    \
    ((o)[0] >= 0 && (o)[1] >= 0 && (o)[2] >= 0 && (o)[3] >= 0 &&                  \
     (o)[0] + TILE__D0(t) <= (arr).shape[0] && (o)[1] + TILE__D1(t) <= (arr).shape[1] && \
     (o)[2] + TILE__D2(t) <= (arr).shape[2] && (o)[3] + TILE__D3(t) <= (arr).shape[3])
/* global offset of the calling thread's slot s, tile known to be inside */
#define TILE__GOFF_IN(t, arr, base, s)                                             \
    ((base) + (int64_t)(TILE__LIN(t, s) / (TILE__D1(t) * TILE__D2(t) * TILE__D3(t))) * (arr).stride[0] + \
     (int64_t)(TILE__LIN(t, s) / (TILE__D2(t) * TILE__D3(t)) % TILE__D1(t)) * (arr).stride[1] + \
     (int64_t)(TILE__LIN(t, s) / TILE__D3(t) % TILE__D2(t)) * (arr).stride[2] +   \
     (int64_t)(TILE__LIN(t, s) % TILE__D3(t)) * (arr).stride[3])
#define TILE__BASE(arr, o)                                                         \
    ((arr).base_off + (o)[0] * (arr).stride[0] + (o)[1] * (arr).stride[1] +       \
     (o)[2] * (arr).stride[2] + (o)[3] * (arr).stride[3])

/* tile_load(t, arr, o0[, o1, ...]): t[i] = arr[o + i], zero outside arr. */
#define tile_load(t, arr, ...)                                                     \
    do {                                                                           \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        const TILE_ELEM_T(t) *tile__p = (const TILE_ELEM_T(t) *)tile__a.ptr;       \
        TILE_ASSERT(tile__a.ndim == tile_ndim(t));                                 \
        TILE__WRITE_BEGIN(t);                                                      \
        if (TILE__INSIDE(t, tile__a, tile__o)) {                                   \
            const int64_t tile__b = TILE__BASE(tile__a, tile__o);                  \
            TILE__EACH(t, tile__s) TILE__AT(t, tile__s) = tile__p[TILE__GOFF_IN(t, tile__a, tile__b, tile__s)]; \
        } else {                                                                   \
            TILE__EACH(t, tile__s) {                                               \
                int64_t tile__go;                                                  \
                int tile__ok;                                                      \
                TILE__GOFF(t, tile__a, tile__o, tile__s, tile__go, tile__ok);      \
                if (tile__ok) TILE__AT(t, tile__s) = tile__p[tile__go];            \
                else memset(&TILE__AT(t, tile__s), 0, sizeof((t).v[0]));           \
            }                                                                      \
        }                                                                          \
        TILE__WRITE_END(t);                                                        \
    } while (0)

/* tile_store(arr, t, o0[, ...]): arr[o + i] = t[i] where inside arr. */
#define tile_store(arr, t, ...)                                                    \
    do {                                                                           \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        TILE_ELEM_T(t) *tile__p = (TILE_ELEM_T(t) *)tile__a.ptr;                   \
        TILE_ASSERT(tile__a.ndim == tile_ndim(t));                                 \
        if (TILE__INSIDE(t, tile__a, tile__o)) {                                   \
            const int64_t tile__b = TILE__BASE(tile__a, tile__o);                  \
            TILE__EACH(t, tile__s) tile__p[TILE__GOFF_IN(t, tile__a, tile__b, tile__s)] = TILE__AT(t, tile__s); \
        } else {                                                                   \
            TILE__EACH(t, tile__s) {                                               \
                int64_t tile__go;                                                  \
                int tile__ok;                                                      \
                TILE__GOFF(t, tile__a, tile__o, tile__s, tile__go, tile__ok);      \
                if (tile__ok) tile__p[tile__go] = TILE__AT(t, tile__s);            \
            }                                                                      \
        }                                                                          \
    } while (0)

/* tile_atomic_add(arr, t, o0[, ...]): arr[o + i] += t[i] atomically (scalar
 * element types), outside elements dropped. With a one-element reduction
 * result, one thread adds the block's total: CPU and GPU agree. */
#define tile_atomic_add(arr, t, ...)                                               \
    do {                                                                           \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        TILE_ELEM_T(t) *tile__p = (TILE_ELEM_T(t) *)tile__a.ptr;                   \
        TILE__EACH(t, tile__s) {                                                   \
            int64_t tile__go;                                                      \
            int tile__ok;                                                          \
            TILE__GOFF(t, tile__a, tile__o, tile__s, tile__go, tile__ok);          \
            if (tile__ok) TILE__ATOMIC_ADD(&tile__p[tile__go], TILE__AT(t, tile__s)); \
        }                                                                          \
    } while (0)

#endif /* TILE_LOAD_H */
