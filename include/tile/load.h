/* tile/load.h - moving tiles between global arrays and tiles.
 *
 * A global array is described by a tile_array view: base pointer, shape and
 * strides in elements (1 to 4 dims). A tile is loaded from / stored to the
 * view at an element offset, one offset per dim. Elements outside the view
 * read as zero (or a fill value of the caller's: tile_load_fill); writes
 * outside it are dropped; tile_inbounds says which elements a load reads.
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

/* ---- the cascade ----
 * Loads and stores pick one of three tiers, in one place (tile__pick_tier):
 *  1. TILE_TIER_VECTOR: 16-byte copies. Shared, contiguous tiles of 2+ dims
 *     whose last dim spans a multiple of 16 bytes; the array's last stride
 *     is 1, its outer strides are multiples of 16 bytes, the tile's first
 *     element is 16-byte aligned in the array and in shared memory (a
 *     contiguous view may start anywhere in its parent) and the tile lies
 *     inside the array.
 *  2. TILE_TIER_BYTES: thread-striped 4-byte words, for elements larger than
 *     16 bytes (mat33, mat44, mat66): shared contiguous tiles, 1D too, when
 *     the array is densely packed, the tile spans its full inner dims (so the
 *     tile is one contiguous run of memory) and lies inside the array.
 *  3. TILE_TIER_SCALAR: one element per thread and slot, the thread mapping
 *     of register tiles (coalesced across a warp); bounds-checked with zero
 *     padding unless the whole tile is inside, which is tested once per tile.
 * Register tiles always take tier 3: a thread's slots are BLOCK_DIM
 * elements apart, so there is nothing wider to load, and the striped
 * 4-byte loads already move whole 128-byte lines per warp.
 * The CPU takes the same decisions as the GPU (the tiers differ only in
 * copy width there), so a test on either target sees the same tier.
 *
 * opts (a compile-time constant) of tile_load_ex / tile_store_ex:
 *   TILE_ALIGNED        promise: contiguous, inside, aligned; skip the checks
 *   TILE_FORCE_VECTOR / TILE_FORCE_BYTES / TILE_FORCE_SCALAR
 *                       take that tier; a promise like TILE_ALIGNED. A tier
 *                       the tile's type cannot take does not compile.
 * Broken promises assert in TILE_DEBUG builds. The address alignment is
 * checked always: a misaligned tile falls back to the scalar tier (correct
 * data) and raises TILE_ERR_ALIGN, reported like an arena overflow. */
enum tile_tier { TILE_TIER_VECTOR = 1, TILE_TIER_BYTES = 2, TILE_TIER_SCALAR = 3 };
#define TILE_LOAD_AUTO 0
#define TILE_ALIGNED 1
#define TILE_FORCE_VECTOR (TILE_TIER_VECTOR << 4)
#define TILE_FORCE_BYTES (TILE_TIER_BYTES << 4)
#define TILE_FORCE_SCALAR (TILE_TIER_SCALAR << 4)
#define TILE__FORCED(opts) (((opts) >> 4) & 3)
/* options that promise the tile is inside, contiguous and aligned (forcing
 * the scalar tier promises nothing: it is the safe one) */
#define TILE__PROMISED(opts) \
    (((opts) & TILE_ALIGNED) || TILE__FORCED(opts) == TILE_TIER_VECTOR || TILE__FORCED(opts) == TILE_TIER_BYTES)

/* extent of the tile's last real dim, and bytes of one element */
#define TILE__DLAST(t) tile_dim(t, tile_ndim(t) - 1)
#define TILE__ESIZE(t) ((int)sizeof((t).v[0]))
/* compile-time part of each tier's conditions */
#define TILE__VEC_CT(t)                                                            \
    (tile_is_shared(t) && TILE__CONTIG(t) && tile_ndim(t) >= 2 && (TILE__DLAST(t) * TILE__ESIZE(t)) % 16 == 0)
#define TILE__BYTES_CT(t) \
    (tile_is_shared(t) && TILE__CONTIG(t) && TILE__ESIZE(t) > 16 && TILE__ESIZE(t) % 4 == 0)

TILE_API int tile__inside(const tile_array *a, const int64_t *o, int d0, int d1, int d2, int d3) {
    return o[0] >= 0 && o[1] >= 0 && o[2] >= 0 && o[3] >= 0 && o[0] + d0 <= a->shape[0] &&
           o[1] + d1 <= a->shape[1] && o[2] + d2 <= a->shape[2] && o[3] + d3 <= a->shape[3];
}
/* 16-byte rows: last stride 1, outer strides multiples of 16 bytes */
TILE_API int tile__vec_strides(const tile_array *a, int nd, int esize) {
    if (a->stride[nd - 1] != 1) return 0;
    for (int k = 0; k < nd - 1; ++k)
        if ((a->stride[k] * esize) % 16) return 0;
    return 1;
}
/* the tile is one contiguous run: dense array, tile spans the inner dims */
TILE_API int tile__run(const tile_array *a, int nd, int d1, int d2, int d3) {
    const int d[4] = {0, d1, d2, d3};
    if (a->stride[nd - 1] != 1) return 0;
    for (int k = 1; k < nd; ++k)
        if (d[k] != a->shape[k] || a->stride[k - 1] != a->stride[k] * a->shape[k]) return 0;
    return 1;
}
/* Which tier a load or store of a tile at base element `base` takes; `sh` is
 * the shared tile's address (0 for a register tile): a copy is aligned when
 * both of its sides are. */
TILE_API int tile__pick_tier(const tile_array *a, int64_t base, uintptr_t sh, int inside, int vec_ct, int bytes_ct,
                             int nd, int d1, int d2, int d3, int esize, int opts) {
    const int forced = TILE__FORCED(opts), promised = TILE__PROMISED(opts);
    const uintptr_t addr = ((uintptr_t)a->ptr + (uintptr_t)(base * esize)) | sh;
    if (vec_ct && (forced == 0 || forced == TILE_TIER_VECTOR) &&
        (promised || (inside && tile__vec_strides(a, nd, esize)))) {
        TILE_ASSERT(inside && tile__vec_strides(a, nd, esize));
        if (addr % 16 == 0) return TILE_TIER_VECTOR;
        if (promised) { /* a broken promise: correct data, flagged */
            tile__raise(TILE_ERR_ALIGN);
            return TILE_TIER_SCALAR;
        }
    }
    if (bytes_ct && (forced == 0 || forced == TILE_TIER_BYTES) &&
        (promised || (inside && tile__run(a, nd, d1, d2, d3)))) {
        TILE_ASSERT(inside && tile__run(a, nd, d1, d2, d3));
        if (addr % 4 == 0) return TILE_TIER_BYTES;
        if (promised) {
            tile__raise(TILE_ERR_ALIGN);
            return TILE_TIER_SCALAR;
        }
    }
    return TILE_TIER_SCALAR;
}

/* global element offset of the tile's linear element L, tile inside */
#define TILE__GOFF_L(t, arr, base, L)                                              \
    ((base) + (int64_t)((L) / (TILE__D1(t) * TILE__D2(t) * TILE__D3(t))) * (arr).stride[0] + \
     (int64_t)((L) / (TILE__D2(t) * TILE__D3(t)) % TILE__D1(t)) * (arr).stride[1] + \
     (int64_t)((L) / TILE__D3(t) % TILE__D2(t)) * (arr).stride[2] +               \
     (int64_t)((L) % TILE__D3(t)) * (arr).stride[3])
#define TILE__BASE(arr, o)                                                         \
    ((arr).base_off + (o)[0] * (arr).stride[0] + (o)[1] * (arr).stride[1] +       \
     (o)[2] * (arr).stride[2] + (o)[3] * (arr).stride[3])

/* address of a shared tile's first element, 0 for a register tile (on the
 * device its shared-window offset: same alignment, and ptxas keeps it cheap) */
#if TILE_ON_DEVICE
#define TILE__SHADDR(t) (tile_is_shared(t) ? (uintptr_t)__cvta_generic_to_shared(&(t).v[0]) : (uintptr_t)0)
#else
#define TILE__SHADDR(t) (tile_is_shared(t) ? (uintptr_t)(const void *)&(t).v[0] : (uintptr_t)0)
#endif

/* Copy n items of type VT per block: thread tid moves items tid + k*bd.
 * Batches of CH: every load of a batch is issued before its stores, so CH
 * copies per thread are in flight instead of one (the trip count is a
 * constant, so the loops unroll). SRC(i) and DST(i) give item i's address;
 * GLOAD says which side is global (1: SRC, 0: DST), whose accesses go
 * through TILE__GRD / TILE__GWR. */
#define TILE__BATCHED(n, bd, CH, VT, SRC, DST, GLOAD)                              \
    do {                                                                           \
        enum { tile__K = ((n) + (bd)-1) / (bd) };                                  \
        TILE__UNROLL for (int tile__k0 = 0; tile__k0 < tile__K; tile__k0 += (CH)) { \
            VT tile__tmp[CH];                                                      \
            memset(tile__tmp, 0, sizeof(tile__tmp)); /* unused entries: quiet */   \
            TILE__UNROLL for (int tile__j = 0; tile__j < (CH); ++tile__j) {        \
                const int tile__i = tile_thread() + (tile__k0 + tile__j) * (bd);   \
                if (tile__k0 + tile__j < tile__K && ((n) % (bd) == 0 || tile__i < (n))) \
                    TILE__GRD((GLOAD), &tile__tmp[tile__j], SRC(tile__i), VT);     \
            }                                                                      \
            TILE__UNROLL for (int tile__j = 0; tile__j < (CH); ++tile__j) {        \
                const int tile__i = tile_thread() + (tile__k0 + tile__j) * (bd);   \
                if (tile__k0 + tile__j < tile__K && ((n) % (bd) == 0 || tile__i < (n))) \
                    TILE__GWR(!(GLOAD), DST(tile__i), &tile__tmp[tile__j], VT);    \
            }                                                                      \
        }                                                                          \
    } while (0)
/* item addresses of the vector tier (global, shared) and the byte tier */
#define TILE__VGP(i)                                                               \
    ((char *)(tile__g + tile__goff_lin(tile__ap, tile__base, (i) / tile__vr * tile__dl, tile__d1, tile__d2, tile__d3)) + \
     (i) % tile__vr * 16)
#define TILE__VSP(i) (tile__sb + (i) / tile__vr * tile__rb + (i) % tile__vr * 16)
#define TILE__WGP(i) (tile__gw + (i))
#define TILE__WSP(i) (tile__sw + (i))
/* global element offset of a tile's linear element L (tile inside) */
TILE_API int64_t tile__goff_lin(const tile_array *a, int64_t base, int L, int d1, int d2, int d3) {
    return base + (int64_t)(L / (d1 * d2 * d3)) * a->stride[0] + (int64_t)(L / (d2 * d3) % d1) * a->stride[1] +
           (int64_t)(L / d3 % d2) * a->stride[2] + (int64_t)(L % d3) * a->stride[3];
}
/* a raw copy of one VT: a typed access on the device (so the load is as wide
 * as VT), memcpy on the host (strict aliasing: the bytes are any type) */
#if TILE_ON_DEVICE
#define TILE__RAW_COPY(dst, src, VT) (*(VT *)(dst) = *(const VT *)(src))
#else
#define TILE__RAW_COPY(dst, src, VT) memcpy((dst), (src), sizeof(VT))
#endif
#if TILE_ON_DEVICE
typedef uint4 tile__v16;
#else
typedef struct { uint32_t w[4]; } tile__v16;
#endif
/* Item copies of TILE__BATCHED: a 16-byte item read from (TILE__GRD) or
 * written to (TILE__GWR) global memory (G true) goes through an explicit
 * 128-bit access - nvcc 13 split the plain uint4 assignment into four 32-bit
 * stores in some kernels (a tile_store_ex whose tier is used), costing 14% of
 * the copy bandwidth. __ldca / __stwb are the default cache operators: only
 * the width is forced. Everything else is a plain copy. */
#if TILE_ON_DEVICE
#define TILE__GRD(G, dst, src, VT)                                                 \
    ((G) && sizeof(VT) == 16 ? (void)(*(uint4 *)(dst) = __ldca((const uint4 *)(src))) \
                             : (void)TILE__RAW_COPY(dst, src, VT))
#define TILE__GWR(G, dst, src, VT)                                                 \
    ((G) && sizeof(VT) == 16 ? __stwb((uint4 *)(dst), *(const uint4 *)(src))       \
                             : (void)TILE__RAW_COPY(dst, src, VT))
#else
#define TILE__GRD(G, dst, src, VT) ((void)(G), (void)TILE__RAW_COPY(dst, src, VT))
#define TILE__GWR(G, dst, src, VT) ((void)(G), (void)TILE__RAW_COPY(dst, src, VT))
#endif


/* The scalar tier when the block size is a multiple of the tile's inner
 * extent D1*D2*D3 (every 2D tile with a power-of-two row and a block of a
 * multiple of it; every 1D tile): a thread's slots then share their inner
 * coordinates and step KR = block / (D1*D2*D3) rows apart. The inner
 * coordinates, their bounds test and the global offset are computed once per
 * thread; a slot adds a constant multiple of the row stride and, on a
 * partial tile, tests its row against a per-thread window [lo, hi) of
 * in-tile rows. (The general path pays 64-bit index math and four bounds
 * tests per element: on the H100 a partial-tile copy was issue-bound at a
 * third of DRAM bandwidth.) */
#define TILE__ROWSTEP(t) (TILE__BD(t) % (TILE__D1(t) * TILE__D2(t) * TILE__D3(t)) == 0)
#define TILE__SCALAR_ROWS(LOAD, t, arr, o, base, in, g, FILLF)                          \
    do {                                                                           \
        enum {                                                                     \
            tile__I3 = TILE__D1(t) * TILE__D2(t) * TILE__D3(t),                    \
            tile__KR = TILE__ROWSTEP(t) ? TILE__BD(t) / tile__I3 : 1,             \
            tile__R = TILE__D0(t)                                                  \
        };                                                                         \
        const int tile__L0 = tile_thread();                                        \
        const int tile__i0 = tile__L0 / tile__I3,                                  \
                  tile__i1 = tile__L0 / (TILE__D2(t) * TILE__D3(t)) % TILE__D1(t), \
                  tile__i2 = tile__L0 / TILE__D3(t) % TILE__D2(t),                 \
                  tile__i3 = tile__L0 % TILE__D3(t);                               \
        const int64_t tile__off0 = (base) + tile__i0 * (arr).stride[0] + tile__i1 * (arr).stride[1] + \
                                   tile__i2 * (arr).stride[2] + tile__i3 * (arr).stride[3]; \
        const int64_t tile__step = (int64_t)tile__KR * (arr).stride[0];            \
        if (in) {                                                                  \
            TILE__EACH(t, tile__s) {                                               \
                const int64_t tile__go = tile__off0 + tile__s * tile__step;        \
                if (LOAD) TILE__AT(t, tile__s) = (g)[tile__go];                    \
                else (g)[tile__go] = TILE__AT(t, tile__s);                         \
            }                                                                      \
        } else {                                                                   \
            const int64_t tile__c1 = (o)[1] + tile__i1, tile__c2 = (o)[2] + tile__i2, \
                          tile__c3 = (o)[3] + tile__i3, tile__r0 = (o)[0] + tile__i0; \
            const int tile__iok = tile__c1 >= 0 && tile__c1 < (arr).shape[1] && tile__c2 >= 0 && \
                                  tile__c2 < (arr).shape[2] && tile__c3 >= 0 && tile__c3 < (arr).shape[3]; \
            /* slot s is inside iff lo <= s*KR < hi (clamped to the tile's rows) */ \
            const int64_t tile__lo64 = -tile__r0, tile__hi64 = (arr).shape[0] - tile__r0; \
            const int tile__lo = tile__lo64 < 0 ? 0 : tile__lo64 > tile__R ? (int)tile__R : (int)tile__lo64; \
            const int tile__hi = !tile__iok ? 0 : tile__hi64 < 0 ? 0 : tile__hi64 > tile__R ? (int)tile__R : (int)tile__hi64; \
            TILE_ELEM_T(t) tile__zero;                                             \
            FILLF(tile__zero);                                                     \
            TILE__EACH(t, tile__s) {                                               \
                const int tile__rr = tile__s * tile__KR;                           \
                if (tile__rr >= tile__lo && tile__rr < tile__hi) {                 \
                    const int64_t tile__go = tile__off0 + tile__s * tile__step;    \
                    if (LOAD) TILE__AT(t, tile__s) = (g)[tile__go];                \
                    else (g)[tile__go] = TILE__AT(t, tile__s);                     \
                } else if (LOAD) {                                                 \
                    TILE__AT(t, tile__s) = tile__zero;                             \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    } while (0)

/* The cascade for a load (LOAD = 1: global -> tile) or store (0: tile ->
 * global) of tile t at tile_array arr (lvalue), element offset o[4] and
 * precomputed base element; sets tier_out. Shared destinations of a load
 * are bracketed by barriers. */
#define TILE__MOVE(LOAD, t, arr, o, base, opts, tier_out) \
    TILE__MOVE_F(LOAD, t, arr, o, base, opts, tier_out, TILE__FILL_ZERO)
/* the value of out-of-bounds slots of a load: zero, or tile__fillv */
#define TILE__FILL_ZERO(x) memset(&(x), 0, sizeof(x))
#define TILE__FILL_VAL(x) ((x) = tile__fillv)
#define TILE__MOVE_F(LOAD, t, arr, o, base, opts, tier_out, FILLF)                  \
    do {                                                                           \
        typedef TILE_ELEM_T(t) tile__E;                                            \
        TILE__STATIC_ASSERT(TILE__FORCED(opts) != TILE_TIER_VECTOR || TILE__VEC_CT(t), \
                            "tile.h: this tile cannot take the vector tier (shared, contiguous, 2+ dims, rows of 16-byte multiples)"); \
        TILE__STATIC_ASSERT(TILE__FORCED(opts) != TILE_TIER_BYTES || TILE__BYTES_CT(t), \
                            "tile.h: this tile cannot take the byte-copy tier (shared, contiguous, elements > 16 bytes)"); \
        TILE__CHECK_T(t, (arr).ndim == tile_ndim(t),                               \
                      "tile_load/tile_store: the array's number of dims is the tile's; "  \
                      "array dims", (arr).ndim, tile_ndim(t), tile_ndim(t) + 1);  \
        TILE__NOFFS_RT(t, "tile_load/tile_store", o);                              \
        const int tile__in = TILE__PROMISED(opts) ? 1 : tile__inside(&(arr), (o), TILE__D0(t), TILE__D1(t), TILE__D2(t), TILE__D3(t)); \
        TILE__CHECK_T(t, !TILE__PROMISED(opts) || tile__inside(&(arr), (o), TILE__D0(t), TILE__D1(t), TILE__D2(t), TILE__D3(t)), \
                      "tile_load/tile_store: TILE_ALIGNED or a forced tier promised the tile inside the array; " \
                      "offset of dim 0", (o)[0], 0, (arr).shape[0] - TILE__D0(t) + 1); \
        const int tile__tier = tile__pick_tier(&(arr), (base), TILE__SHADDR(t), tile__in, TILE__VEC_CT(t), \
                                               TILE__BYTES_CT(t), tile_ndim(t), TILE__D1(t), TILE__D2(t), \
                                               TILE__D3(t), TILE__ESIZE(t), (opts));            \
        tile__E *tile__g = (tile__E *)(arr).ptr;                                   \
        if (LOAD) TILE__WRITE_BEGIN(t);                                            \
        if (TILE__VEC_CT(t) && tile__tier == TILE_TIER_VECTOR) {                   \
            enum { tile__rb = TILE__DLAST(t) * TILE__ESIZE(t), tile__vr = tile__rb >= 16 ? tile__rb / 16 : 1 }; \
            enum { tile__nv = tile_size(t) / TILE__DLAST(t) * tile__vr };          \
            enum { tile__dl = TILE__DLAST(t), tile__d1 = TILE__D1(t), tile__d2 = TILE__D2(t), tile__d3 = TILE__D3(t) }; \
            const tile_array *tile__ap = &(arr);                                   \
            const int64_t tile__base = (base);                                     \
            char *tile__sb = (char *)&(t).v[0];                                    \
            if (LOAD)                                                              \
                TILE__BATCHED(tile__nv, TILE__BD(t), 4, tile__v16, TILE__VGP, TILE__VSP, 1); \
            else                                                                   \
                TILE__BATCHED(tile__nv, TILE__BD(t), 4, tile__v16, TILE__VSP, TILE__VGP, 0); \
        } else if (TILE__BYTES_CT(t) && tile__tier == TILE_TIER_BYTES) {           \
            enum { tile__nw = tile_size(t) * (TILE__ESIZE(t) / 4) };               \
            uint32_t *tile__gw = (uint32_t *)(tile__g + (base));                   \
            uint32_t *tile__sw = (uint32_t *)&(t).v[0];                            \
            if (LOAD)                                                              \
                TILE__BATCHED(tile__nw, TILE__BD(t), 8, uint32_t, TILE__WGP, TILE__WSP, 1); \
            else                                                                   \
                TILE__BATCHED(tile__nw, TILE__BD(t), 8, uint32_t, TILE__WSP, TILE__WGP, 0); \
        } else if (TILE__ROWSTEP(t)) {                                             \
            TILE__SCALAR_ROWS(LOAD, t, arr, o, base, tile__in, tile__g, FILLF);           \
        } else if (tile__in) {                                                     \
            TILE__EACH(t, tile__s) {                                               \
                const int64_t tile__go = TILE__GOFF_L(t, arr, base, TILE__LIN(t, tile__s)); \
                if (LOAD) TILE__AT(t, tile__s) = tile__g[tile__go];                \
                else tile__g[tile__go] = TILE__AT(t, tile__s);                     \
            }                                                                      \
        } else {                                                                   \
            /* one zero value, assigned whole (a memset per element becomes \
             * byte stores) */                                                     \
            tile__E tile__zero;                                                    \
            FILLF(tile__zero);                                                     \
            TILE__EACH(t, tile__s) {                                               \
                int64_t tile__go;                                                  \
                int tile__ok;                                                      \
                TILE__GOFF(t, arr, o, tile__s, tile__go, tile__ok);                \
                if (tile__ok) {                                                    \
                    if (LOAD) TILE__AT(t, tile__s) = tile__g[tile__go];            \
                    else tile__g[tile__go] = TILE__AT(t, tile__s);                 \
                } else if (LOAD) {                                                 \
                    TILE__AT(t, tile__s) = tile__zero;                             \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        if (LOAD) TILE__WRITE_END(t);                                              \
        (tier_out) = tile__tier;                                                   \
    } while (0)

/* tile_load(t, arr, o0[, o1, ...]): t[i] = arr[o + i], zero outside arr.
 * tile_load_ex(t, arr, opts, o0[, ...]) does the same with options and is an
 * expression: the tier it took.
 *   int tier = tile_load_ex(s, tile_array2(a, 64, 64), TILE_LOAD_AUTO, 0, 0);
 *   // s shared 16x16 f32, a 16-byte aligned: tier == TILE_TIER_VECTOR */
#define tile_load(t, arr, ...) ((void)tile_load_ex(t, arr, TILE_LOAD_AUTO, __VA_ARGS__))
#define tile_load_ex(t, arr, opts, ...)                                            \
    __extension__({                                                                \
        TILE__NOFFS(t, "tile_load", __VA_ARGS__);                                  \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        int tile__tr;                                                              \
        TILE__MOVE(1, t, tile__a, tile__o, TILE__BASE(tile__a, tile__o), opts, tile__tr); \
        tile__tr;                                                                  \
    })
/* tile_store(arr, t, o0[, ...]): arr[o + i] = t[i] where inside arr;
 * tile_store_ex(arr, t, opts, o0[, ...]) likewise, returning the tier. */
#define tile_store(arr, t, ...) ((void)tile_store_ex(arr, t, TILE_LOAD_AUTO, __VA_ARGS__))
#define tile_store_ex(arr, t, opts, ...)                                           \
    __extension__({                                                                \
        TILE__NOFFS(t, "tile_store", __VA_ARGS__);                                 \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        int tile__tr;                                                              \
        TILE__MOVE(0, t, tile__a, tile__o, TILE__BASE(tile__a, tile__o), opts, tile__tr); \
        tile__tr;                                                                  \
    })

/* ---- out-of-bounds fill values and in-bounds flags ----
 * tile_load_fill(t, arr, fill, o0[, ...]): tile_load, but the slots outside
 * arr get `fill` (converted to t's element type) instead of zero: CUB's
 * oob_default. -INFINITY before a max, +INFINITY before a min, 1 before a
 * product leave the result as if the tile ended at the array's edge.
 * tile_load_fill_ex(t, arr, fill, opts, o0[, ...]) takes the opts of
 * tile_load_ex and returns the tier. The tiers and their cost are those of
 * tile_load (a tile wholly inside never looks at fill).
 *   a = [5 -2 7] (3 floats), t a register tile of 4:
 *   tile_load_fill(t, tile_array1(a, 3), -INFINITY, 0);   t = [5 -2 7 -inf]
 *   tile_max(m, t);                                       tile_value(m) == 7
 *
 * tile_inbounds(flags, arr, o0[, ...]): flags (a tile of an integer type,
 * the load's shape, any storage) gets 1 where a load of that shape at that
 * offset reads an element of arr and 0 where it reads the fill value.
 * Cooperative; no memory of arr is touched.
 *   tile_reg(int, ok, 2, 3);
 *   tile_inbounds(ok, tile_array2(a, 3, 4), 2, 2);        ok = [[1 1 0] [0 0 0]] */
#define tile_load_fill(t, arr, fill, ...) ((void)tile_load_fill_ex(t, arr, fill, TILE_LOAD_AUTO, __VA_ARGS__))
#define tile_load_fill_ex(t, arr, fill, opts, ...)                                 \
    __extension__({                                                                \
        TILE__NOFFS(t, "tile_load_fill", __VA_ARGS__);                             \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        const TILE_ELEM_T(t) tile__fillv = (fill);                                 \
        int tile__tr;                                                              \
        TILE__MOVE_F(1, t, tile__a, tile__o, TILE__BASE(tile__a, tile__o), opts, tile__tr, TILE__FILL_VAL); \
        tile__tr;                                                                  \
    })
#define tile_inbounds(flags, arr, ...)                                             \
    do {                                                                           \
        TILE__NOFFS(flags, "tile_inbounds", __VA_ARGS__);                          \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        TILE__CHECK_T(flags, tile__a.ndim == tile_ndim(flags),                     \
                      "tile_inbounds: the array's number of dims is the tile's; array dims", \
                      tile__a.ndim, tile_ndim(flags), tile_ndim(flags) + 1);      \
        TILE__NOFFS_RT(flags, "tile_inbounds", tile__o);                           \
        TILE__WRITE_BEGIN(flags);                                                  \
        TILE__EACH(flags, tile__s) {                                               \
            const int tile__L = TILE__LIN(flags, tile__s);                         \
            const int64_t tile__g0 = tile__o[0] + tile__L / (TILE__D1(flags) * TILE__D2(flags) * TILE__D3(flags)), \
                          tile__g1 = tile__o[1] + tile__L / (TILE__D2(flags) * TILE__D3(flags)) % TILE__D1(flags), \
                          tile__g2 = tile__o[2] + tile__L / TILE__D3(flags) % TILE__D2(flags), \
                          tile__g3 = tile__o[3] + tile__L % TILE__D3(flags);       \
            TILE__AT(flags, tile__s) = (TILE_ELEM_T(flags))(                       \
                tile__g0 >= 0 && tile__g0 < tile__a.shape[0] && tile__g1 >= 0 && tile__g1 < tile__a.shape[1] && \
                tile__g2 >= 0 && tile__g2 < tile__a.shape[2] && tile__g3 >= 0 && tile__g3 < tile__a.shape[3]); \
        }                                                                          \
        TILE__WRITE_END(flags);                                                    \
    } while (0)

/* ---- windows (Composable Kernel's tile window) ----
 * A window is a view plus an origin whose base offset is kept up to date, so
 * moving it in a loop costs a few adds and loads skip the offset products.
 *   tile_window w = tile_window_at(tile_array2(A, M, K), i * 16, 0);
 *   for (k = 0; k < K; k += 16) {
 *       tile_load_window(a, w);          // a = A[i*16 .. +16, k .. k+16]
 *       tile_window_move(&w, 0, 16);
 *   } */
typedef struct tile_window {
    tile_array a;
    int64_t origin[4];
    int64_t base; /* a.base_off + origin . strides */
} tile_window;
TILE_API void tile_window_set4(tile_window *w, int64_t o0, int64_t o1, int64_t o2, int64_t o3) {
    w->origin[0] = o0;
    w->origin[1] = o1;
    w->origin[2] = o2;
    w->origin[3] = o3;
    w->base = TILE__BASE(w->a, w->origin);
}
TILE_API void tile_window_move4(tile_window *w, int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
    w->origin[0] += d0;
    w->origin[1] += d1;
    w->origin[2] += d2;
    w->origin[3] += d3;
    w->base += d0 * w->a.stride[0] + d1 * w->a.stride[1] + d2 * w->a.stride[2] + d3 * w->a.stride[3];
}
TILE_API tile_window tile_window_at4(tile_array a, int64_t o0, int64_t o1, int64_t o2, int64_t o3) {
    tile_window w;
    w.a = a;
    tile_window_set4(&w, o0, o1, o2, o3);
    return w;
}
#define tile_window_at(arr, ...) TILE__APPLY(tile_window_at4, (arr, TILE__PAD4Z(__VA_ARGS__)))
#define tile_window_set(w, ...) TILE__APPLY(tile_window_set4, (w, TILE__PAD4Z(__VA_ARGS__)))
#define tile_window_move(w, ...) TILE__APPLY(tile_window_move4, (w, TILE__PAD4Z(__VA_ARGS__)))
/* loads and stores through a window; the _ex forms take opts and return the tier */
#define tile_load_window_ex(t, w, opts)                                            \
    __extension__({                                                                \
        const tile_window tile__w = (w);                                           \
        int tile__tr;                                                              \
        TILE__MOVE(1, t, tile__w.a, tile__w.origin, tile__w.base, opts, tile__tr); \
        tile__tr;                                                                  \
    })
#define tile_store_window_ex(w, t, opts)                                           \
    __extension__({                                                                \
        const tile_window tile__w = (w);                                           \
        int tile__tr;                                                              \
        TILE__MOVE(0, t, tile__w.a, tile__w.origin, tile__w.base, opts, tile__tr); \
        tile__tr;                                                                  \
    })
#define tile_load_window(t, w) ((void)tile_load_window_ex(t, w, TILE_LOAD_AUTO))
#define tile_store_window(w, t) ((void)tile_store_window_ex(w, t, TILE_LOAD_AUTO))

/* tile_atomic_add(arr, t, o0[, ...]): arr[o + i] += t[i] atomically, outside
 * elements dropped. Scalars take one atomic; vectors and matrices one per
 * component (tile_atomic_add_ptr). With a one-element reduction result, one
 * thread adds the block's total: CPU and GPU agree (a block-summed mat33f
 * tile added into a zeroed global mat33f gives the same matrix on both). */
#define tile_atomic_add(arr, t, ...)                                               \
    do {                                                                           \
        TILE__NOFFS(t, "tile_atomic_add", __VA_ARGS__);                            \
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
