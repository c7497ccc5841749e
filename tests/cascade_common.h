/* tests/cascade_common.h - the randomized property test of the load/store
 * cascade (include/tile/load.h), shared by tests/cpu/test_cascade.c (cmocka,
 * C11) and tests/gpu/cascade_test.cu (GPU and CPU target of the nvcc build).
 *
 * Tile shapes are compile-time, so a fixed family of kernels is stamped out
 * with an X-macro (CAS_FAMILY: element type, storage, block size, shape);
 * everything else is random per case, from a seeded PRNG:
 *   - the array: shape exactly the tile's, larger or smaller; contiguous,
 *     pitched rows (a pitch of a 16-byte multiple or not), padded middle
 *     dims, transposed (dims permuted in memory, tile_array_strided with
 *     swapped strides), a reversed outer dim (negative stride); built with
 *     tile_array_strided, tile_array1..4, or as tile_array_row of an array of
 *     one more dim or of a row of an array of two more dims (base_off != 0);
 *   - the offset per dim: inside, flush with either edge, one past, partly or
 *     wholly before (negative) or past the end, far away;
 *   - the base: aligned or misaligned by 1..3 elements;
 *   - the options: AUTO, TILE_FORCE_SCALAR always; TILE_ALIGNED,
 *     TILE_FORCE_VECTOR, TILE_FORCE_BYTES only when the promised conditions
 *     hold, except for the alignment, which is broken on purpose in some
 *     cases (these expect the scalar tier, correct data and TILE_ERR_ALIGN);
 *     windows take AUTO and TILE_ALIGNED (the forced tiers are the same
 *     code through either entry point), register tiles no forced tier;
 *   - the operation: tile_load_ex / tile_store_ex, or the same through a
 *     window reached by tile_window_at and random tile_window_set /
 *     tile_window_move steps;
 *   - views: contiguous and strided views (tile_view) at a random offset in
 *     a larger shared tile, so the shared side of a copy can be misaligned.
 * Every array region is surrounded by guard elements; memory is filled with
 * random words (never NaN), tiles with words derived from (seed, element).
 * The expected tier comes from cas_expect(), a re-statement of the rules of
 * docs/load.md written independently of tile__pick_tier. Each element is
 * compared bit for bit with a plain scalar reference: loads give the array
 * element or zero outside (and a view's parent keeps its other elements);
 * stores write exactly the inside elements and leave every other word of
 * the region untouched; loads leave the region untouched.
 *
 * Host code here is C11 and C++17 (nvcc) alike.
 */
#ifndef CASCADE_COMMON_H
#define CASCADE_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tile.h>

/* ========================================================================
 * the kernel family
 * ======================================================================== */
/* X(name, element type, storage, block size, (tile shape), (parent shape))
 * storage: R register, S shared, V a view (tile_view) of (tile shape) at a
 * random offset in a shared parent of (parent shape): f32_v1x8 is a
 * contiguous view whose start may be misaligned, f32_v2x8 a strided one.
 * The family covers every element type, 1D-4D, odd sizes, tiles smaller and
 * larger than the block (block sizes 32, 64, 96, 128), and every tier. */
#define CAS_FAMILY(X)                                                              \
    X(f32_r7, float, R, 32, (7), (7))                                              \
    X(f32_r100, float, R, 64, (100), (100))                                        \
    X(f32_r16x16, float, R, 128, (16, 16), (16, 16))                               \
    X(f32_r2x1x3x4, float, R, 32, (2, 1, 3, 4), (2, 1, 3, 4))                      \
    X(f32_s33, float, S, 32, (33), (33))                                           \
    X(f32_s4x4, float, S, 64, (4, 4), (4, 4))                                      \
    X(f32_s5x12, float, S, 96, (5, 12), (5, 12))                                   \
    X(f32_s3x5, float, S, 32, (3, 5), (3, 5))                                      \
    X(f32_s16x16, float, S, 128, (16, 16), (16, 16))                               \
    X(f32_s2x2x8, float, S, 64, (2, 2, 8), (2, 2, 8))                              \
    X(f32_s1x2x2x8, float, S, 32, (1, 2, 2, 8), (1, 2, 2, 8))                      \
    X(f32_s2x3x1x5, float, S, 64, (2, 3, 1, 5), (2, 3, 1, 5))                      \
    X(f32_v1x8, float, V, 32, (1, 8), (3, 12))                                     \
    X(f32_v2x8, float, V, 64, (2, 8), (4, 12))                                     \
    X(f64_r4x6, double, R, 64, (4, 6), (4, 6))                                     \
    X(f64_s3x6, double, S, 64, (3, 6), (3, 6))                                     \
    X(f64_s2x1x3x5, double, S, 32, (2, 1, 3, 5), (2, 1, 3, 5))                     \
    X(f64_v1x1x6, double, V, 32, (1, 1, 6), (2, 3, 10))                            \
    X(i32_r64, int32_t, R, 32, (64), (64))                                         \
    X(i32_s8x8, int32_t, S, 64, (8, 8), (8, 8))                                    \
    X(u32_r5x7, uint32_t, R, 96, (5, 7), (5, 7))                                   \
    X(u32_s2x4x4, uint32_t, S, 32, (2, 4, 4), (2, 4, 4))                           \
    X(i64_r3x1x5, int64_t, R, 32, (3, 1, 5), (3, 1, 5))                            \
    X(i64_s5x4, int64_t, S, 64, (5, 4), (5, 4))                                    \
    X(u64_r16, uint64_t, R, 32, (16), (16))                                        \
    X(u64_s4x2, uint64_t, S, 32, (4, 2), (4, 2))                                   \
    X(vec2f_s3x2, tile_vec2f, S, 32, (3, 2), (3, 2))                               \
    X(vec2d_s3x3, tile_vec2d, S, 32, (3, 3), (3, 3))                               \
    X(vec3f_r4x5, tile_vec3f, R, 64, (4, 5), (4, 5))                               \
    X(vec3f_s3x4, tile_vec3f, S, 32, (3, 4), (3, 4))                               \
    X(vec3f_s5x3, tile_vec3f, S, 64, (5, 3), (5, 3))                               \
    X(vec3d_s9, tile_vec3d, S, 32, (9), (9))                                       \
    X(vec3d_s3x3, tile_vec3d, S, 32, (3, 3), (3, 3))                               \
    X(vec4f_s7x3, tile_vec4f, S, 32, (7, 3), (7, 3))                               \
    X(vec4d_s2x3, tile_vec4d, S, 32, (2, 3), (2, 3))                               \
    X(mat22f_s3x3, tile_mat22f, S, 32, (3, 3), (3, 3))                             \
    X(mat22d_s2x2x3, tile_mat22d, S, 32, (2, 2, 3), (2, 2, 3))                     \
    X(mat33f_r7, tile_mat33f, R, 32, (7), (7))                                     \
    X(mat33f_s10, tile_mat33f, S, 32, (10), (10))                                  \
    X(mat33f_s4x3, tile_mat33f, S, 32, (4, 3), (4, 3))                             \
    X(mat33f_s2x4, tile_mat33f, S, 64, (2, 4), (2, 4))                             \
    X(mat33f_v1x4, tile_mat33f, V, 32, (1, 4), (2, 7))                             \
    X(mat33d_s3x2, tile_mat33d, S, 32, (3, 2), (3, 2))                             \
    X(mat44f_s3x2, tile_mat44f, S, 32, (3, 2), (3, 2))                             \
    X(mat44d_s2x2, tile_mat44d, S, 32, (2, 2), (2, 2))                             \
    X(mat66f_r5, tile_mat66f, R, 32, (5), (5))                                     \
    X(mat66f_s2x3, tile_mat66f, S, 32, (2, 3), (2, 3))                             \
    X(mat66f_s2x1x2x2, tile_mat66f, S, 32, (2, 1, 2, 2), (2, 1, 2, 2))             \
    X(mat66f_v1x3, tile_mat66f, V, 32, (1, 3), (2, 5))                             \
    X(mat66d_s2x2, tile_mat66d, S, 32, (2, 2), (2, 2))

/* one case: what a block of a family kernel does (host -> device, plain data) */
enum { CAS_LOAD = 0, CAS_STORE = 1, CAS_WLOAD = 2, CAS_WSTORE = 3, CAS_NOP = 4 };
enum { CAS_AUTO = 0, CAS_ALIGNED = 1, CAS_FSCALAR = 2, CAS_FVECTOR = 3, CAS_FBYTES = 4, CAS_NOPT = 5 };
enum { CAS_CTOR_STRIDED = 0, CAS_CTOR_CONTIG = 1, CAS_CTOR_ROW = 2, CAS_CTOR_ROW2 = 3, CAS_NCTOR = 4 };
enum { CAS_KIND_R = 0, CAS_KIND_S = 1, CAS_KIND_V = 2 };
typedef struct cas_case {
    int64_t ptr;          /* byte offset of the view's pointer in the buffer */
    int64_t shape[4];     /* the array (CTOR_ROW / ROW2: the outer array of nd + 1 / nd + 2 dims) */
    int64_t stride[4];
    int64_t row[2];       /* CTOR_ROW: the row taken with tile_array_row; ROW2: row[1] of row[0] */
    int64_t o[4];         /* load/store offset */
    int64_t w0[4];        /* window: tile_window_at origin, */
    int64_t wset[4];      /* then tile_window_set (when doset), */
    int64_t wmove[3][4];  /* then nmove tile_window_move steps */
    int64_t voff[4];      /* V: the view's offset in its parent */
    int64_t dump;         /* word offset of this case's dump (loads) */
    int32_t op, opt, ctor, doset, nmove;
    uint32_t seed;        /* tile contents (stores), junk before loads */
} cas_case;

/* ---- device side ---- */
#define CAS_UNPACK(...) __VA_ARGS__
#define CAS_CALL(m, args) m args
#define CAS_NARGS(...) CAS_NARGS_(__VA_ARGS__, 4, 3, 2, 1, 0)
#define CAS_NARGS_(a, b, c, d, n, ...) n

/* random words that are never NaN or infinity as float or double (bit 30,
 * the top exponent bit of a float and of a double's high word, is clear) */
TILE_API uint32_t cas_word(uint32_t seed, uint32_t i) { return tile_hash32(seed, i) & 0xbfffffffu; }

/* every element of t (the calling thread's slots) = words (seed, element) */
#define CAS_FILL(t, seed)                                                          \
    do {                                                                           \
        const uint32_t cas_sd = (seed);                                            \
        TILE__EACH(t, cas_s) {                                                     \
            enum { cas_nw = (int)(sizeof((t).v[0]) / 4) };                         \
            uint32_t cas_w[cas_nw];                                                \
            const uint32_t cas_l = (uint32_t)TILE__LIN(t, cas_s);                  \
            TILE__UNROLL for (int cas_j = 0; cas_j < cas_nw; ++cas_j)              \
                cas_w[cas_j] = cas_word(cas_sd, cas_l * (uint32_t)cas_nw + (uint32_t)cas_j); \
            memcpy(&TILE__AT(t, cas_s), cas_w, sizeof((t).v[0]));                  \
        }                                                                          \
    } while (0)
/* the calling thread's elements of t to dst[element * words ...] */
#define CAS_DUMP(t, dst)                                                           \
    do {                                                                           \
        TILE__EACH(t, cas_s) {                                                     \
            memcpy((dst) + (size_t)TILE__LIN(t, cas_s) * (sizeof((t).v[0]) / 4), &TILE__AT(t, cas_s), \
                   sizeof((t).v[0]));                                              \
        }                                                                          \
    } while (0)

/* the tile `t` of each storage, and `whole`: what is filled and dumped (a
 * view's parent) */
#define CAS_DECL_R(T, shape, pshape) CAS_CALL(tile_reg, (T, t, CAS_UNPACK shape))
#define CAS_DECL_S(T, shape, pshape) CAS_CALL(tile_shared, (T, t, CAS_UNPACK shape))
#define CAS_DECL_V(T, shape, pshape)                                               \
    CAS_CALL(tile_shared, (T, parent, CAS_UNPACK pshape));                         \
    tile_view(t, parent, shape, (c->voff[0], c->voff[1], c->voff[2], c->voff[3]))
#define CAS_WHOLE_R t
#define CAS_WHOLE_S t
#define CAS_WHOLE_V parent
#define CAS_SMEM_R(T, shape, pshape) 0
#define CAS_SMEM_S(T, shape, pshape) CAS_CALL(TILE_SMEM_BYTES, (T, CAS_UNPACK shape))
#define CAS_SMEM_V(T, shape, pshape) CAS_CALL(TILE_SMEM_BYTES, (T, CAS_UNPACK pshape))

/* the array of a case: a compile-time nd keeps every loop unrolled */
TILE_API tile_array cas_array(unsigned char *buf, const cas_case *c, int nd) {
    const void *p = buf + c->ptr;
    if (c->ctor == CAS_CTOR_ROW && nd < 4)
        return tile_array_row(tile_array_strided(p, nd + 1, c->shape, c->stride), c->row[0]);
    if (c->ctor == CAS_CTOR_ROW2 && nd < 3)
        return tile_array_row(tile_array_row(tile_array_strided(p, nd + 2, c->shape, c->stride), c->row[0]), c->row[1]);
    if (c->ctor == CAS_CTOR_CONTIG) {
        if (nd == 1) return tile_array1(p, c->shape[0]);
        if (nd == 2) return tile_array2(p, c->shape[0], c->shape[1]);
        if (nd == 3) return tile_array3(p, c->shape[0], c->shape[1], c->shape[2]);
        return tile_array4(p, c->shape[0], c->shape[1], c->shape[2], c->shape[3]);
    }
    return tile_array_strided(p, nd, c->shape, c->stride);
}

#define CAS_O(c) (c)->o[0], (c)->o[1], (c)->o[2], (c)->o[3]
#define CAS_CASE(op, opt, call)                                                    \
    case (op) * CAS_NOPT + (opt): tier = call; break;
/* Which (operation, option) pairs a kernel has (cas_available says the same
 * on the host): every operation with AUTO and TILE_ALIGNED; for shared tiles
 * also load/store with TILE_FORCE_SCALAR, and with TILE_FORCE_VECTOR /
 * TILE_FORCE_BYTES where the tile's type can take that tier (elsewhere a
 * constant keeps the code compilable, and the host never asks for it).
 * (For a register tile TILE_FORCE_SCALAR is the same code as AUTO.) */
#define CAS_SWITCH_R                                                               \
    CAS_CASE(CAS_LOAD, CAS_AUTO, tile_load_ex(t, a, TILE_LOAD_AUTO, CAS_O(c)))     \
    CAS_CASE(CAS_LOAD, CAS_ALIGNED, tile_load_ex(t, a, TILE_ALIGNED, CAS_O(c)))    \
    CAS_CASE(CAS_STORE, CAS_AUTO, tile_store_ex(a, t, TILE_LOAD_AUTO, CAS_O(c)))   \
    CAS_CASE(CAS_STORE, CAS_ALIGNED, tile_store_ex(a, t, TILE_ALIGNED, CAS_O(c)))  \
    CAS_CASE(CAS_WLOAD, CAS_AUTO, tile_load_window_ex(t, w, TILE_LOAD_AUTO))       \
    CAS_CASE(CAS_WLOAD, CAS_ALIGNED, tile_load_window_ex(t, w, TILE_ALIGNED))      \
    CAS_CASE(CAS_WSTORE, CAS_AUTO, tile_store_window_ex(w, t, TILE_LOAD_AUTO))     \
    CAS_CASE(CAS_WSTORE, CAS_ALIGNED, tile_store_window_ex(w, t, TILE_ALIGNED))
#define CAS_FV(t) (TILE__VEC_CT(t) ? TILE_FORCE_VECTOR : TILE_FORCE_SCALAR)
#define CAS_FB(t) (TILE__BYTES_CT(t) ? TILE_FORCE_BYTES : TILE_FORCE_SCALAR)
#define CAS_SWITCH_S                                                               \
    CAS_SWITCH_R                                                                   \
    CAS_CASE(CAS_LOAD, CAS_FSCALAR, tile_load_ex(t, a, TILE_FORCE_SCALAR, CAS_O(c))) \
    CAS_CASE(CAS_STORE, CAS_FSCALAR, tile_store_ex(a, t, TILE_FORCE_SCALAR, CAS_O(c))) \
    CAS_CASE(CAS_LOAD, CAS_FVECTOR, TILE__VEC_CT(t) ? tile_load_ex(t, a, CAS_FV(t), CAS_O(c)) : 0) \
    CAS_CASE(CAS_STORE, CAS_FVECTOR, TILE__VEC_CT(t) ? tile_store_ex(a, t, CAS_FV(t), CAS_O(c)) : 0) \
    CAS_CASE(CAS_LOAD, CAS_FBYTES, TILE__BYTES_CT(t) ? tile_load_ex(t, a, CAS_FB(t), CAS_O(c)) : 0) \
    CAS_CASE(CAS_STORE, CAS_FBYTES, TILE__BYTES_CT(t) ? tile_store_ex(a, t, CAS_FB(t), CAS_O(c)) : 0)
#define CAS_SWITCH_V CAS_SWITCH_S

/* Block b runs cases[b]: fills the tile (a store's source, or junk a load
 * must overwrite), moves it, writes the tier to tiers[b] and, for a load,
 * every element of the tile (a view: of its parent) to dump + c->dump. */
#define CAS_KERNEL(name, T, kind, BD, shape, pshape)                               \
    TILE_KERNEL_SMEM(cas_k_##name, BD, CAS_SMEM_##kind(T, shape, pshape), const cas_case *cases, \
                     unsigned char *buf, uint32_t *dump, int32_t *tiers) {         \
        const cas_case *c = cases + tile_block(0);                                 \
        CAS_DECL_##kind(T, shape, pshape);                                         \
        const int load = c->op == CAS_LOAD || c->op == CAS_WLOAD;                  \
        CAS_FILL(CAS_WHOLE_##kind, load ? c->seed ^ 0x5a5a5a5au : c->seed);        \
        tile_barrier(); /* the fill used the element mapping, the move may not */  \
        const tile_array a = cas_array(buf, c, tile_ndim(t));                      \
        tile_window w = tile_window_at(a, c->w0[0], c->w0[1], c->w0[2], c->w0[3]); \
        if (c->doset) tile_window_set(&w, c->wset[0], c->wset[1], c->wset[2], c->wset[3]); \
        for (int m = 0; m < c->nmove; ++m)                                         \
            tile_window_move(&w, c->wmove[m][0], c->wmove[m][1], c->wmove[m][2], c->wmove[m][3]); \
        int tier = 0;                                                              \
        switch (c->op * CAS_NOPT + c->opt) {                                       \
            CAS_SWITCH_##kind                                                      \
        default: break;                                                            \
        }                                                                          \
        if (tile_thread() == 0) tiers[tile_block(0)] = tier;                       \
        if (load) CAS_DUMP(CAS_WHOLE_##kind, dump + c->dump);                      \
    }
CAS_FAMILY(CAS_KERNEL)

/* ========================================================================
 * host side: kernel table
 * ======================================================================== */
typedef int (*cas_launch_fn)(tile_exec ex, int n, const cas_case *cases, unsigned char *buf, uint32_t *dump,
                             int32_t *tiers);
typedef struct cas_kinfo {
    const char *name;
    int kind, bd, esize, nd;
    int d[4], p[4]; /* tile and parent shape (0 past nd) */
    cas_launch_fn launch;
} cas_kinfo;

#define CAS_LAUNCHER(name, T, kind, BD, shape, pshape)                             \
    static int cas_launch_##name(tile_exec ex, int n, const cas_case *cases, unsigned char *buf, uint32_t *dump, \
                                 int32_t *tiers) {                                 \
        return tile_launch(ex, cas_k_##name, tile_grid1(n), BD, cases, buf, dump, tiers); \
    }
CAS_FAMILY(CAS_LAUNCHER)
#define CAS_INFO(name, T, kind, BD, shape, pshape)                                 \
    {#name, CAS_KIND_##kind, BD, (int)sizeof(T), CAS_NARGS shape, {CAS_UNPACK shape}, {CAS_UNPACK pshape}, \
     cas_launch_##name},
static const cas_kinfo cas_kernels[] = {CAS_FAMILY(CAS_INFO)};
enum { CAS_NKERNELS = (int)(sizeof(cas_kernels) / sizeof(cas_kernels[0])) };

/* ========================================================================
 * host side: random cases
 * ======================================================================== */
typedef struct cas_rng {
    uint64_t s;
} cas_rng;
static uint64_t cas_next(cas_rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* uniform in [0, n) */
static int64_t cas_rand(cas_rng *r, int64_t n) { return n <= 1 ? 0 : (int64_t)(cas_next(r) % (uint64_t)n); }
/* uniform in [lo, hi] */
static int64_t cas_range(cas_rng *r, int64_t lo, int64_t hi) { return lo + cas_rand(r, hi - lo + 1); }
static int64_t cas_min(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t cas_max(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t cas_gcd(int64_t a, int64_t b) { return b ? cas_gcd(b, a % b) : a; }

/* A case and what the host knows about it. */
typedef struct cas_plan {
    cas_case c;
    int64_t region, region_bytes; /* this case's bytes in the buffer */
    int64_t base;                 /* byte offset of the array's element (0, ...) */
    int64_t shape[4], stride[4];  /* the effective array (dims past nd: 1, 0) */
    int64_t o[4];                 /* the tile's offset (a window's final origin) */
    int64_t dump_words;
    int mis, layout, inside;
    uint32_t mem_seed;            /* region contents */
    int exp_tier, exp_err;        /* expected tier, TILE_ERR_ALIGN expected */
    int index;                    /* the case's number in its kernel's list */
} cas_plan;

static const char *cas_op_name[CAS_NOP] = {"load", "store", "window load", "window store"};
static const char *cas_opt_name[CAS_NOPT] = {"AUTO", "TILE_ALIGNED", "TILE_FORCE_SCALAR", "TILE_FORCE_VECTOR",
                                             "TILE_FORCE_BYTES"};
static const char *cas_layout_name[] = {"contiguous", "pitched", "padded", "transposed", "reversed"};
static const char *cas_ctor_name[CAS_NCTOR] = {"tile_array_strided", "tile_arrayN", "tile_array_row",
                                               "tile_array_row of tile_array_row"};
static const char *cas_tier_name(int t) {
    return t == TILE_TIER_VECTOR ? "VECTOR" : t == TILE_TIER_BYTES ? "BYTES" : t == TILE_TIER_SCALAR ? "SCALAR" : "?";
}

/* tile dims padded with 1 */
static int cas_dim(const cas_kinfo *K, int k) { return k < K->nd ? K->d[k] : 1; }
static int cas_pdim(const cas_kinfo *K, int k) { return k < K->nd ? K->p[k] : 1; }
static int cas_size(const cas_kinfo *K) { return cas_dim(K, 0) * cas_dim(K, 1) * cas_dim(K, 2) * cas_dim(K, 3); }
static int cas_psize(const cas_kinfo *K) {
    return K->kind == CAS_KIND_V ? cas_pdim(K, 0) * cas_pdim(K, 1) * cas_pdim(K, 2) * cas_pdim(K, 3) : cas_size(K);
}

/* ---- the rules, restated from docs/load.md (not from tile__pick_tier) ---- */
/* Is the shared tile one contiguous row-major run? A tile is; a view is when
 * every dim it does not cover fully is outside its last dims of extent > 1:
 * its element strides are its parent's row-major strides, and each dim of
 * extent > 1 must step over exactly the view's own inner elements. */
static int cas_contig(const cas_kinfo *K) {
    if (K->kind == CAS_KIND_S) return 1;
    if (K->kind == CAS_KIND_R) return 0;
    for (int k = 0; k < 4; ++k) {
        int64_t ps = 1, inner = 1;
        for (int j = k + 1; j < 4; ++j) ps *= cas_pdim(K, j), inner *= cas_dim(K, j);
        if (cas_dim(K, k) != 1 && ps != inner) return 0;
    }
    return 1;
}
/* the vector tier's compile-time conditions: shared, contiguous, 2+ dims, the
 * last dim a multiple of 16 bytes */
static int cas_vec_type(const cas_kinfo *K) {
    return K->kind != CAS_KIND_R && cas_contig(K) && K->nd >= 2 && ((int64_t)K->d[K->nd - 1] * K->esize) % 16 == 0;
}
/* the byte-copy tier's: shared, contiguous, elements larger than 16 bytes */
static int cas_bytes_type(const cas_kinfo *K) { return K->kind != CAS_KIND_R && cas_contig(K) && K->esize > 16; }
/* the view's element offset in its parent (0 for a tile of its own) */
static int64_t cas_view_elem(const cas_kinfo *K, const cas_case *c) {
    if (K->kind != CAS_KIND_V) return 0;
    int64_t off = 0;
    for (int k = 0; k < 4; ++k) off = off * cas_pdim(K, k) + c->voff[k];
    return off;
}
/* the tile lies inside the array */
static int cas_inside(const cas_kinfo *K, const cas_plan *P) {
    for (int k = 0; k < K->nd; ++k)
        if (P->o[k] < 0 || P->o[k] + K->d[k] > P->shape[k]) return 0;
    return 1;
}
/* array rows of 16-byte multiples: last stride 1, outer strides multiples of 16 bytes */
static int cas_vec_rows(const cas_kinfo *K, const cas_plan *P) {
    if (P->stride[K->nd - 1] != 1) return 0;
    for (int k = 0; k < K->nd - 1; ++k)
        if ((P->stride[k] * K->esize) % 16 != 0) return 0;
    return 1;
}
/* the tile is one contiguous run of memory: a densely packed row-major
 * array whose inner dims the tile spans fully */
static int cas_run(const cas_kinfo *K, const cas_plan *P) {
    int64_t s = 1;
    for (int k = K->nd - 1; k >= 0; --k) {
        if (P->stride[k] != s) return 0;
        if (k > 0 && K->d[k] != P->shape[k]) return 0;
        s *= P->shape[k];
    }
    return 1;
}
/* byte address (mod 16 is what counts) of the tile's first element, for a
 * buffer at device address `buf` */
static uint64_t cas_first_addr(const cas_kinfo *K, const cas_plan *P, uint64_t buf) {
    int64_t e = 0;
    for (int k = 0; k < K->nd; ++k) e += P->o[k] * P->stride[k];
    return buf + (uint64_t)P->base + (uint64_t)(e * K->esize);
}
/* the shared tile's first element is 16-byte aligned (the arena is; a view
 * starts at its offset in the parent) */
static int cas_shared_al16(const cas_kinfo *K, const cas_case *c) {
    return (cas_view_elem(K, c) * K->esize) % 16 == 0;
}
/* expected tier and TILE_ERR_ALIGN for a case at buffer address buf */
static int cas_expect(const cas_kinfo *K, const cas_plan *P, uint64_t buf, int *err) {
    const int inside = cas_inside(K, P), vt = cas_vec_type(K), bt = cas_bytes_type(K);
    const uint64_t addr = cas_first_addr(K, P, buf);
    const int al16 = addr % 16 == 0 && cas_shared_al16(K, &P->c), al4 = addr % 4 == 0;
    const int opt = P->c.opt;
    *err = 0;
    if (opt == CAS_FSCALAR) return TILE_TIER_SCALAR;
    if (opt == CAS_AUTO) {
        if (vt && inside && cas_vec_rows(K, P) && al16) return TILE_TIER_VECTOR;
        if (bt && inside && cas_run(K, P) && al4) return TILE_TIER_BYTES;
        return TILE_TIER_SCALAR;
    }
    /* a promise: the fast tier asked for (TILE_ALIGNED: the best the type can
     * take) is taken when aligned; misaligned, the scalar tier and an error */
    int want = opt == CAS_FVECTOR ? TILE_TIER_VECTOR : opt == CAS_FBYTES ? TILE_TIER_BYTES
               : vt ? TILE_TIER_VECTOR : bt ? TILE_TIER_BYTES : TILE_TIER_SCALAR;
    if (want == TILE_TIER_SCALAR) return TILE_TIER_SCALAR; /* nothing to align */
    if (want == TILE_TIER_VECTOR ? al16 : al4) return want;
    *err = 1;
    return TILE_TIER_SCALAR;
}
/* may the case use this promise? (inside, and the fast tier's layout; the
 * alignment is not required: a misaligned promise is the error case) */
static int cas_promise_ok(const cas_kinfo *K, const cas_plan *P, int opt) {
    const int vt = cas_vec_type(K), bt = cas_bytes_type(K);
    if (!P->inside) return 0;
    if (opt == CAS_FVECTOR) return vt && cas_vec_rows(K, P);
    if (opt == CAS_FBYTES) return bt && cas_run(K, P);
    /* TILE_ALIGNED */
    return vt ? cas_vec_rows(K, P) : bt ? cas_run(K, P) : 1;
}

/* does kernel K have (operation, option)? (see CAS_SWITCH_R / _S) */
static int cas_available(const cas_kinfo *K, int op, int opt) {
    if (opt == CAS_AUTO || opt == CAS_ALIGNED) return 1;
    if (K->kind == CAS_KIND_R || op == CAS_WLOAD || op == CAS_WSTORE) return 0;
    return opt == CAS_FSCALAR || (opt == CAS_FVECTOR && cas_vec_type(K)) || (opt == CAS_FBYTES && cas_bytes_type(K));
}

/* one offset for dim k: inside, or any edge */
static int64_t cas_offset(cas_rng *r, int64_t n, int64_t d, int want_inside) {
    if (want_inside || cas_rand(r, 3) == 0) return n >= d ? cas_range(r, 0, n - d) : 0;
    switch (cas_rand(r, 10)) {
    case 0: return 0;
    case 1: return n - d;                     /* flush with the end (negative when the tile is larger) */
    case 2: return n - d + 1;                 /* one past the end */
    case 3: return -1;
    case 4: return -cas_range(r, 1, d);       /* partly before (or just before) */
    case 5: return n - cas_range(r, 1, d);    /* partly past the end */
    case 6: return n;                         /* just past the end */
    case 7: return -d - cas_rand(r, 3);       /* wholly before */
    case 8: return n + cas_rand(r, 6);        /* wholly past */
    default: return cas_range(r, -d - 2, n + 2);
    }
}

/* Fill in plan P for kernel K (everything but the buffer layout). */
static void cas_gen_one(const cas_kinfo *K, cas_rng *r, cas_plan *P) {
    const int nd = K->nd;
    cas_case *c = &P->c;
    memset(P, 0, sizeof(*P));
    for (int k = 0; k < 4; ++k) P->shape[k] = 1, P->stride[k] = 0;
    c->op = (int32_t)cas_rand(r, CAS_NOP);
    c->seed = (uint32_t)cas_next(r);
    P->mem_seed = (uint32_t)cas_next(r);
    /* view offset in the parent */
    for (int k = 0; k < nd; ++k) c->voff[k] = K->kind == CAS_KIND_V ? cas_rand(r, K->p[k] - K->d[k] + 1) : 0;
    /* a third of the cases are made for the fast tiers: inside, contiguous or
     * with 16-byte rows, offsets on 16-byte boundaries, the inner dims often
     * exactly the tile's (a contiguous run) */
    const int fast = cas_rand(r, 3) == 0;
    /* shape: exactly the tile (often), larger, smaller, mixed */
    const int smode = fast ? (cas_rand(r, 2) ? 0 : 3) : (int)cas_rand(r, 10);
    for (int k = 0; k < nd; ++k) {
        const int64_t d = K->d[k];
        int m = smode < 3 ? 0 : smode < 7 ? 1 : smode < 9 ? 2 : (int)cas_rand(r, 3);
        if (fast && k > 0) m = cas_rand(r, 3) ? 0 : 1;
        P->shape[k] = m == 0 ? d : m == 1 ? d + cas_rand(r, 7) + (cas_rand(r, 6) == 0 ? d : 0) : cas_range(r, 1, d);
    }
    /* layout: memory order of the dims (innermost last) and padding */
    int perm[4] = {0, 1, 2, 3};
    int64_t ext[4];
    P->layout = (int)cas_rand(r, 10);
    P->layout = P->layout < 4 ? 0 : P->layout < 6 ? 1 : P->layout < 7 ? 2 : P->layout < 9 ? 3 : 4;
    if (fast) P->layout = cas_rand(r, 3) ? 0 : 1;
    if (nd == 1 && P->layout >= 2) P->layout = (int)cas_rand(r, 2);
    if (P->layout == 3) { /* transposed: a random permutation other than the identity */
        do {
            for (int k = nd - 1; k > 0; --k) {
                int j = (int)cas_rand(r, k + 1), tmp = perm[k];
                perm[k] = perm[j];
                perm[j] = tmp;
            }
        } while (nd > 1 && perm[nd - 1] == nd - 1 && cas_rand(r, 4) != 0);
        if (perm[nd - 1] == nd - 1 && perm[0] == 0) { /* still the identity order: swap first and last */
            perm[0] = nd - 1;
            perm[nd - 1] = 0;
        }
    }
    for (int k = 0; k < nd; ++k) ext[k] = P->shape[k];
    if (P->layout == 1 || P->layout == 2 || (P->layout == 3 && cas_rand(r, 2))) {
        /* pitch of the innermost dim in memory: a 16-byte multiple or not */
        const int in = perm[nd - 1];
        if (fast || cas_rand(r, 2)) {
            const int64_t q = 16 / cas_gcd(16, K->esize);
            ext[in] = (ext[in] + q - 1) / q * q + q * cas_rand(r, 2);
        } else {
            ext[in] += cas_range(r, 1, 3);
        }
        if (P->layout == 2)
            for (int j = 0; j < nd - 1; ++j) ext[perm[j]] += cas_rand(r, 3);
    }
    {
        int64_t s = 1;
        for (int j = nd - 1; j >= 0; --j) {
            P->stride[perm[j]] = s;
            s *= ext[perm[j]];
        }
    }
    if (P->layout == 4) { /* an outer dim reversed */
        const int k = (int)cas_rand(r, nd - 1);
        P->stride[k] = -P->stride[k];
    }
    /* offsets: a good share wholly inside, snapped to 16 bytes in the last dim */
    const int want_inside = fast || cas_rand(r, 5) < 2;
    for (int k = 0; k < nd; ++k) P->o[k] = cas_offset(r, P->shape[k], K->d[k], want_inside);
    if (fast || cas_rand(r, 2)) {
        const int64_t q = 16 / cas_gcd(16, K->esize), k = nd - 1;
        const int64_t sn = P->o[k] / q * q;
        if (P->o[k] >= 0 && sn + K->d[k] <= P->shape[k]) P->o[k] = sn;
    }
    P->inside = cas_inside(K, P);
    P->mis = cas_rand(r, fast ? 6 : 4) == 0 ? (int)cas_range(r, 1, 3) : 0;
    P->base = P->mis * K->esize; /* provisional: the buffer layout keeps it mod 16 */
    /* how the array is built */
    {
        int dense = P->layout == 0, ctor = (int)cas_rand(r, 5);
        if (ctor == 3 && nd >= 3) ctor = 2;
        c->ctor = ctor == 1 && dense ? CAS_CTOR_CONTIG : ctor == 2 && nd < 4 ? CAS_CTOR_ROW
                  : ctor == 3 ? CAS_CTOR_ROW2 : CAS_CTOR_STRIDED;
    }
    /* options: what the kernel has for the operation; a promise only where
     * its layout conditions hold */
    {
        int pick = (int)cas_rand(r, 20), opt;
        opt = pick < 6 ? CAS_AUTO : pick < 9 ? CAS_FSCALAR : pick < 13 ? CAS_ALIGNED : pick < 17 ? CAS_FVECTOR
                                                                                               : CAS_FBYTES;
        if (!cas_available(K, c->op, opt)) opt = CAS_ALIGNED;
        if ((opt == CAS_FVECTOR || opt == CAS_FBYTES) && !cas_promise_ok(K, P, opt)) opt = CAS_ALIGNED;
        if (opt == CAS_ALIGNED && !cas_promise_ok(K, P, opt)) opt = CAS_AUTO;
        c->opt = opt;
        /* a broken alignment promise (the TILE_ERR_ALIGN check) in about half
         * of the cases that would make one */
        int err;
        (void)cas_expect(K, P, 0, &err);
        if (err && cas_rand(r, 2) != 0) c->opt = CAS_AUTO;
    }
    for (int k = 0; k < 4; ++k) c->o[k] = P->o[k];
    /* windows: at a random origin, maybe set, then 0..3 moves ending at o */
    if (c->op == CAS_WLOAD || c->op == CAS_WSTORE) {
        int64_t cur[4] = {0, 0, 0, 0};
        for (int k = 0; k < nd; ++k) c->w0[k] = cur[k] = cas_range(r, -3, P->shape[k] + 3);
        c->doset = cas_rand(r, 4) == 0;
        if (c->doset)
            for (int k = 0; k < nd; ++k) c->wset[k] = cur[k] = cas_range(r, -2, P->shape[k] + 2);
        c->nmove = (int32_t)cas_rand(r, 4);
        for (int m = 0; m < c->nmove; ++m)
            for (int k = 0; k < nd; ++k) {
                int64_t d = m == c->nmove - 1 ? P->o[k] - cur[k] : cas_range(r, -K->d[k] - 2, K->d[k] + 2);
                c->wmove[m][k] = d;
                cur[k] += d;
            }
        if (c->nmove == 0) {
            for (int k = 0; k < nd; ++k) {
                if (c->doset) c->wset[k] = P->o[k];
                else c->w0[k] = P->o[k];
            }
        }
        memset(c->o, 0, sizeof(c->o)); /* the kernel must not use it */
    }
}

/* element offset range (relative to the array's element 0) that the array
 * and the tile span together: a correct implementation touches nothing else,
 * a wrong one most likely something inside */
static void cas_span(const cas_kinfo *K, const cas_plan *P, int64_t *lo, int64_t *hi) {
    *lo = *hi = 0;
    for (int k = 0; k < K->nd; ++k) {
        const int64_t a = cas_min(0, P->o[k]), b = cas_max(P->shape[k], P->o[k] + K->d[k]) - 1, s = P->stride[k];
        *lo += cas_min(a * s, b * s);
        *hi += cas_max(a * s, b * s);
    }
}

/* Generate n cases for kernel K from seed and lay them out in one buffer:
 * sets *buf_bytes and *dump_words. Cases that expect TILE_ERR_ALIGN come
 * last (they are launched on their own); *n_ok is the count before them. */
static void cas_generate(const cas_kinfo *K, uint64_t seed, int n, cas_plan *plans, int64_t *buf_bytes,
                         int64_t *dump_words, int *n_ok) {
    cas_rng r;
    r.s = seed;
    int64_t at = 64, dump = 0;
    for (int i = 0; i < n; ++i) {
        cas_plan *P = &plans[i];
        cas_gen_one(K, &r, P);
        P->index = i;
        cas_case *c = &P->c;
        const int nd = K->nd;
        int64_t lo, hi, row_lo = 0, srow[2] = {0, 0}, nrow[2] = {1, 1};
        cas_span(K, P, &lo, &hi);
        if (c->ctor == CAS_CTOR_ROW || c->ctor == CAS_CTOR_ROW2) {
            /* the array is row row[0] of an outer one (ROW2: row row[1] of that) */
            const int lv = c->ctor == CAS_CTOR_ROW ? 1 : 2;
            int64_t s = (hi - lo + 1) + cas_rand(&r, 4);
            for (int j = lv - 1; j >= 0; --j) {
                c->row[j] = cas_rand(&r, 3);
                nrow[j] = c->row[j] + 1 + cas_rand(&r, 2);
                srow[j] = s;
                row_lo -= c->row[j] * s;
                s = s * nrow[j] + cas_rand(&r, 4);
            }
        }
        const int64_t G = 3;                              /* guard elements */
        const int64_t q = 16 / cas_gcd(16, K->esize);     /* elements per 16-byte period */
        int64_t front = G - cas_min(lo, row_lo);
        front = (front + q - 1) / q * q;                  /* element 0 16-byte aligned ... */
        const int64_t elems = front + P->mis + hi + 1 + G; /* ... then misaligned by mis */
        P->region = at;
        P->region_bytes = (elems * K->esize + 15) / 16 * 16;
        P->base = at + (front + P->mis) * K->esize;
        c->ptr = P->base + row_lo * K->esize;
        at += P->region_bytes + 16 * cas_rand(&r, 3);
        if (c->ctor == CAS_CTOR_ROW || c->ctor == CAS_CTOR_ROW2) {
            const int lv = c->ctor == CAS_CTOR_ROW ? 1 : 2;
            for (int j = 0; j < lv; ++j) c->shape[j] = nrow[j], c->stride[j] = srow[j];
            for (int k = 0; k < nd; ++k) c->shape[k + lv] = P->shape[k], c->stride[k + lv] = P->stride[k];
        } else {
            for (int k = 0; k < nd; ++k) c->shape[k] = P->shape[k], c->stride[k] = P->stride[k];
        }
        if (c->op == CAS_LOAD || c->op == CAS_WLOAD) {
            c->dump = dump;
            P->dump_words = (int64_t)cas_psize(K) * (K->esize / 4);
            dump += P->dump_words;
        }
    }
    *buf_bytes = at + 64;
    *dump_words = dump > 0 ? dump : 1;
    /* stable partition: error-free cases first */
    cas_plan *tmp = (cas_plan *)malloc(sizeof(cas_plan) * (size_t)(n > 0 ? n : 1));
    int m = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < n; ++i) {
            int err;
            (void)cas_expect(K, &plans[i], 0, &err); /* alignment is relative to a 16-byte aligned buffer */
            if (err == pass) tmp[m++] = plans[i];
        }
    int ok = 0;
    for (int i = 0; i < n; ++i) {
        plans[i] = tmp[i];
        int err;
        (void)cas_expect(K, &plans[i], 0, &err);
        ok += !err;
    }
    free(tmp);
    *n_ok = ok;
}

/* the initial buffer: random words everywhere */
static void cas_init_buffer(uint32_t *w, int64_t bytes, const cas_plan *plans, int n, uint32_t seed) {
    for (int64_t i = 0; i < bytes / 4; ++i) w[i] = cas_word(seed, (uint32_t)i);
    for (int i = 0; i < n; ++i)
        for (int64_t j = plans[i].region / 4; j < (plans[i].region + plans[i].region_bytes) / 4; ++j)
            w[j] = cas_word(plans[i].mem_seed, (uint32_t)j);
}

/* The case as text, for failure reports. */
static void cas_describe(const cas_kinfo *K, const cas_plan *P, char *s, size_t cap) {
    const cas_case *c = &P->c;
    int n = snprintf(s, cap, "%s case %d: %s %s via %s, %s array shape (", K->name, P->index, cas_op_name[c->op],
                     cas_opt_name[c->opt], cas_ctor_name[c->ctor], cas_layout_name[P->layout]);
#define CAS_APPEND(...)                                                            \
    do {                                                                           \
        if (n >= 0 && (size_t)n < cap) n += snprintf(s + n, cap - (size_t)n, __VA_ARGS__); \
    } while (0)
    for (int k = 0; k < K->nd; ++k) CAS_APPEND("%s%lld", k ? ", " : "", (long long)P->shape[k]);
    CAS_APPEND(") strides (");
    for (int k = 0; k < K->nd; ++k) CAS_APPEND("%s%lld", k ? ", " : "", (long long)P->stride[k]);
    CAS_APPEND(") %s offset (", c->op >= CAS_WLOAD ? "window origin" : "tile");
    for (int k = 0; k < K->nd; ++k) CAS_APPEND("%s%lld", k ? ", " : "", (long long)P->o[k]);
    CAS_APPEND(") base misaligned by %d element(s), the tile's first element at byte %d mod 16", P->mis,
               (int)(cas_first_addr(K, P, 0) % 16));
    if (c->ctor == CAS_CTOR_ROW) CAS_APPEND(" row %lld (stride %lld)", (long long)c->row[0], (long long)c->stride[0]);
    if (c->ctor == CAS_CTOR_ROW2)
        CAS_APPEND(" row %lld (stride %lld) of row %lld (stride %lld)", (long long)c->row[1], (long long)c->stride[1],
                   (long long)c->row[0], (long long)c->stride[0]);
    if (K->kind == CAS_KIND_V) {
        CAS_APPEND(" view at (");
        for (int k = 0; k < K->nd; ++k) CAS_APPEND("%s%lld", k ? ", " : "", (long long)c->voff[k]);
        CAS_APPEND(") (shared byte %d mod 16)", (int)((cas_view_elem(K, c) * K->esize) % 16));
    }
    if (c->op >= CAS_WLOAD) {
        CAS_APPEND(" window at (");
        for (int k = 0; k < K->nd; ++k) CAS_APPEND("%s%lld", k ? ", " : "", (long long)c->w0[k]);
        CAS_APPEND(")%s, %d move(s)", c->doset ? " then set" : "", (int)c->nmove);
    }
#undef CAS_APPEND
}

/* The reference: check one case's tier, region and dump. `init` is the
 * buffer before the launch, `got`/`dump` after; report(msg) is called for
 * each failure (at most a few per case); returns the number of failures. */
typedef void (*cas_report_fn)(const char *msg);
static int cas_check(const cas_kinfo *K, const cas_plan *P, uint64_t dev_buf, const uint32_t *init,
                     const uint32_t *got, const uint32_t *dump, int got_tier, cas_report_fn report) {
    char desc[640], msg[1400];
    int fails = 0;
    const int nw = K->esize / 4, nd = K->nd;
    const cas_case *c = &P->c;
    cas_describe(K, P, desc, sizeof(desc));
    int err;
    const int want = cas_expect(K, P, dev_buf, &err);
    if (got_tier != want) {
        snprintf(msg, sizeof(msg), "%s: tier %s (%d), expected %s", desc, cas_tier_name(got_tier), got_tier,
                 cas_tier_name(want));
        report(msg);
        ++fails;
    }
    /* expected region words */
    const int64_t w0 = P->region / 4, nwords = P->region_bytes / 4;
    uint32_t *exp = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)nwords);
    memcpy(exp, init + w0, sizeof(uint32_t) * (size_t)nwords);
    const int load = c->op == CAS_LOAD || c->op == CAS_WLOAD;
    const int n = cas_size(K);
    int64_t pst[4]; /* parent (or tile) row-major strides */
    {
        int64_t s = 1;
        for (int k = 3; k >= 0; --k) {
            pst[k] = s;
            s *= K->kind == CAS_KIND_V ? cas_pdim(K, k) : cas_dim(K, k);
        }
    }
    uint32_t *dexp = NULL;
    if (load) { /* junk where the tile is not (a view's parent) */
        dexp = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)P->dump_words);
        for (int64_t i = 0; i < P->dump_words; ++i) dexp[i] = cas_word(c->seed ^ 0x5a5a5a5au, (uint32_t)i);
    }
    for (int L = 0; L < n; ++L) {
        int64_t idx[4], rem = L, g = 0, pl = 0;
        int in = 1;
        for (int k = 3; k >= 0; --k) {
            idx[k] = rem % cas_dim(K, k);
            rem /= cas_dim(K, k);
        }
        for (int k = 0; k < 4; ++k) {
            pl += (idx[k] + c->voff[k]) * pst[k];
            if (k < nd) {
                const int64_t gk = P->o[k] + idx[k];
                if (gk < 0 || gk >= P->shape[k]) in = 0;
                g += gk * P->stride[k];
            }
        }
        const int64_t gw = P->base / 4 + g * nw - w0; /* word index in the region */
        if (in && (gw < 0 || gw + nw > nwords)) {
            snprintf(msg, sizeof(msg), "%s: test bug: element outside its region", desc);
            report(msg);
            ++fails;
            in = 0;
        }
        for (int j = 0; j < nw; ++j) {
            if (load) dexp[pl * nw + j] = in ? init[w0 + gw + j] : 0u;
            else if (in) exp[gw + j] = cas_word(c->seed, (uint32_t)(pl * nw + j));
        }
    }
    int shown = 0;
    for (int64_t i = 0; i < nwords && shown < 3; ++i)
        if (got[w0 + i] != exp[i]) {
            const int64_t rel = (w0 + i) * 4 - P->base;
            snprintf(msg, sizeof(msg), "%s: memory word at byte %lld from the array's element 0 (element %lld, word %lld) = 0x%08x, expected 0x%08x (%s)",
                     desc, (long long)rel, (long long)(rel >= 0 ? rel / K->esize : -((-rel + K->esize - 1) / K->esize)),
                     (long long)(((rel % K->esize) + K->esize) % K->esize / 4), (unsigned)got[w0 + i], (unsigned)exp[i],
                     exp[i] == init[w0 + i] ? "must be untouched" : "the tile's element");
            report(msg);
            ++fails;
            ++shown;
        }
    if (load) {
        for (int64_t i = 0; i < P->dump_words && shown < 3; ++i)
            if (dump[c->dump + i] != dexp[i]) {
                snprintf(msg, sizeof(msg), "%s: loaded %s element %lld word %lld = 0x%08x, expected 0x%08x", desc,
                         K->kind == CAS_KIND_V ? "parent" : "tile", (long long)(i / nw), (long long)(i % nw),
                         (unsigned)dump[c->dump + i], (unsigned)dexp[i]);
                report(msg);
                ++fails;
                ++shown;
            }
    }
    free(exp);
    free(dexp);
    return fails;
}

/* per-kernel seed: the run's seed mixed with the kernel's index */
static uint64_t cas_kernel_seed(uint64_t seed, int k) {
    cas_rng r;
    r.s = seed ^ (0xd1b54a32d192ed03ull * (uint64_t)(k + 1));
    return cas_next(&r);
}

/* tallies for the coverage summary */
typedef struct cas_stats {
    long cases, failed, tier[4], err_align, op[CAS_NOP], opt[CAS_NOPT], inside, outside, mis, layout[5], ctor[CAS_NCTOR];
} cas_stats;
static void cas_tally(cas_stats *s, const cas_kinfo *K, const cas_plan *P) {
    int err;
    const int t = cas_expect(K, P, 0, &err);
    ++s->cases;
    ++s->tier[t & 3];
    s->err_align += err;
    ++s->op[P->c.op];
    ++s->opt[P->c.opt];
    if (P->inside) ++s->inside;
    else ++s->outside;
    s->mis += P->mis != 0;
    ++s->layout[P->layout];
    ++s->ctor[P->c.ctor];
}
static void cas_print_stats(const cas_stats *s, const char *who) {
    printf("%s: %ld cases: tiers VECTOR %ld, BYTES %ld, SCALAR %ld; TILE_ERR_ALIGN %ld; "
           "load %ld, store %ld, window load %ld, window store %ld; AUTO %ld, ALIGNED %ld, FORCE_SCALAR %ld, "
           "FORCE_VECTOR %ld, FORCE_BYTES %ld; inside %ld, partial/outside %ld, misaligned base %ld; "
           "contiguous %ld, pitched %ld, padded %ld, transposed %ld, reversed %ld; "
           "strided %ld, tile_arrayN %ld, tile_array_row %ld, row of row %ld\n",
           who, s->cases, s->tier[1], s->tier[2], s->tier[3], s->err_align, s->op[0], s->op[1], s->op[2], s->op[3],
           s->opt[0], s->opt[1], s->opt[2], s->opt[3], s->opt[4], s->inside, s->outside, s->mis, s->layout[0],
           s->layout[1], s->layout[2], s->layout[3], s->layout[4], s->ctor[0], s->ctor[1], s->ctor[2],
           s->ctor[3]);
}

#endif /* CASCADE_COMMON_H */
