/* tile/core.h - register and shared tiles: declaration, shape, the mapping of
 * elements to threads.
 *
 * A tile is a C struct whose shape lives in its type: a never-used pointer
 * member `tile__m` of type char(*)[KIND][BD][NDIM][D0][D1][D2][D3] gives every
 * property as a compile-time sizeof. Shapes are padded with 1s on the right,
 * elements are row-major.
 *
 * Register tile: `v` is an array of slots. Element `linear` belongs to thread
 * linear % BD, slot linear / BD (linear = tid + slot * BD): ceil(N / BD) slots
 * per thread, every slot index a compile-time constant.
 * Shared tile: `v` points into the block's arena; strides (tile__st) allow
 * views into a larger shared tile. Element-wise operations visit shared tiles
 * with the same thread mapping, so register and shared operands mix freely.
 *
 *   tile_reg(float, a, 16, 16);      // 16x16 register tile
 *   tile_shared(float, s, 16, 16);   // 16x16 in the arena (1 KiB)
 *   tile_size(a) == 256, tile_dim(a, 1) == 16, tile_ndim(a) == 2
 */
#ifndef TILE_CORE_H
#define TILE_CORE_H

#include "launch.h"
#include "types.h"

#define TILE__REG 1
#define TILE__SHARED 2

/* ---- variadic shape helpers: (16, 16) -> ndim 2, dims 16, 16, 1, 1 ---- */
#define TILE__NARGS(...) TILE__NARGS_(__VA_ARGS__, 4, 3, 2, 1, 0)
#define TILE__NARGS_(a, b, c, d, n, ...) n
#define TILE__PAD4(...) TILE__PAD4_(__VA_ARGS__, 1, 1, 1, 1)
#define TILE__PAD4_(a, b, c, d, ...) a, b, c, d
#define TILE__APPLY(m, args) m args

/* struct type of a tile of element T, storage member `vdecl`, shape d0..d3,
 * element strides s0..s2 of dims 0..2 (dim 3 has stride 1). A stride may be
 * negative (a reversed view, tile_slice): tile__st holds the magnitudes and,
 * as its last extent, 1 + a bit per negative stride (an array extent cannot
 * be negative). */
#define TILE__TYPE_S_(vdecl, kind, bd, nd, d0, d1, d2, d3, s0, s1, s2)            \
    struct {                                                                      \
        TILE__CONST_EXTENTS((d0) * (d1) * (d2) * (d3));                           \
        vdecl;                                                                    \
        char (*tile__m)[kind][bd][nd][d0][d1][d2][d3];                            \
        char (*tile__st)[TILE__SABS(s0)][TILE__SABS(s1)][TILE__SABS(s2)][TILE__SNEG(s0, s1, s2)]; \
    }
#define TILE__SABS(s) ((s) < 0 ? -(s) : (s))
#define TILE__SNEG(s0, s1, s2) (1 + ((s0) < 0) + 2 * ((s1) < 0) + 4 * ((s2) < 0))
/* Extents are compile-time constants: in C a run-time extent would make the
 * tile a variable-length array (and its slots an array indexed at run time).
 * C++ (nvcc) refuses an array member of run-time length by itself. */
#if defined(__cplusplus)
#define TILE__CONST_EXTENTS(n) TILE__STATIC_ASSERT((n) > 0, "tile.h: tile extents must be positive")
#else
#define TILE__CONST_EXTENTS(n) \
    TILE__STATIC_ASSERT(__builtin_choose_expr(__builtin_constant_p(n), (n) > 0, 0),         \
                        "tile.h: tile extents must be positive compile-time constants")
#endif
#define TILE__TYPE_(vdecl, kind, bd, nd, d0, d1, d2, d3) \
    TILE__TYPE_S_(vdecl, kind, bd, nd, d0, d1, d2, d3, (d1) * (d2) * (d3), (d2) * (d3), d3)
#define TILE__SLOTS_N(n, bd) (((n) + (bd)-1) / (bd))
#define TILE__REG_TYPE_(T, bd, nd, d0, d1, d2, d3)                                \
    TILE__TYPE_(T v[TILE__SLOTS_N((d0) * (d1) * (d2) * (d3), bd)], TILE__REG, bd, nd, d0, d1, d2, d3)
#define TILE__SHARED_TYPE_(T, bd, nd, d0, d1, d2, d3) TILE__TYPE_(T *v, TILE__SHARED, bd, nd, d0, d1, d2, d3)
#define TILE__REG_TYPE(T, bd, ...) \
    TILE__APPLY(TILE__REG_TYPE_, (T, bd, TILE__NARGS(__VA_ARGS__), TILE__PAD4(__VA_ARGS__)))
#define TILE__SHARED_TYPE(T, bd, ...) \
    TILE__APPLY(TILE__SHARED_TYPE_, (T, bd, TILE__NARGS(__VA_ARGS__), TILE__PAD4(__VA_ARGS__)))

/* Named tile types, for declaring several tiles of one type inside a kernel
 * (the block size must be TILE_BLOCK_DIM, which exists only there):
 *   typedef TILE_REG_T(float, TILE_BLOCK_DIM, 16, 16) tile16;
 *   tile16 a, b;
 * Code shared between kernels that takes tiles is best written as a macro,
 * as the library's own operations are: each kernel has its own tile types. */
#define TILE_REG_T(T, block, ...) TILE__REG_TYPE(T, block, __VA_ARGS__)
#define TILE_SHARED_T(T, block, ...) TILE__SHARED_TYPE(T, block, __VA_ARGS__)

/* ---- declarations (inside a kernel body) ----
 * tile_reg(T, name, d0[, d1[, d2[, d3]]])     register tile, contents unset
 * tile_shared(T, name, d0[, ...])             shared tile from the arena, contents unset
 * Extents are positive compile-time constants. A shared tile over
 * TILE_MAX_SMEM_BYTES does not compile; one that does not fit the launch's
 * arena stops the block at the declaration (TILE_ERR_SMEM_OVERFLOW, smem.h). */
#define tile_reg(T, name, ...) TILE__REG_TYPE(T, TILE_BLOCK_DIM, __VA_ARGS__) name
#define tile_shared(T, name, ...)                                                  \
    TILE__SMEM_FITS(sizeof(T) * TILE__PROD(__VA_ARGS__), "tile_shared: a shared tile"); \
    TILE__SHARED_TYPE(T, TILE_BLOCK_DIM, __VA_ARGS__)                              \
    name = {(T *)TILE__SMEM_TAKE(sizeof(T) * TILE__PROD(__VA_ARGS__)), 0, 0}

/* ---- compile-time properties ---- */
#define TILE__M(t) (*(t).tile__m)
#define tile__kind(t) ((int)(sizeof(TILE__M(t)) / sizeof(TILE__M(t)[0])))
#define tile_is_shared(t) (tile__kind(t) == TILE__SHARED)
#define TILE__BD(t) ((int)(sizeof(TILE__M(t)[0]) / sizeof(TILE__M(t)[0][0])))
#define tile_ndim(t) ((int)(sizeof(TILE__M(t)[0][0]) / sizeof(TILE__M(t)[0][0][0])))
#define tile_size(t) ((int)sizeof(TILE__M(t)[0][0][0]))
#define TILE__D0(t) ((int)(sizeof(TILE__M(t)[0][0][0]) / sizeof(TILE__M(t)[0][0][0][0])))
#define TILE__D1(t) ((int)(sizeof(TILE__M(t)[0][0][0][0]) / sizeof(TILE__M(t)[0][0][0][0][0])))
#define TILE__D2(t) ((int)(sizeof(TILE__M(t)[0][0][0][0][0]) / sizeof(TILE__M(t)[0][0][0][0][0][0])))
#define TILE__D3(t) ((int)sizeof(TILE__M(t)[0][0][0][0][0][0]))
/* tile_dim(t, k): extent of dim k (k a constant 0..3; 1 past the tile's ndim) */
#define tile_dim(t, k) ((k) == 0 ? TILE__D0(t) : (k) == 1 ? TILE__D1(t) : (k) == 2 ? TILE__D2(t) : TILE__D3(t))
/* strides in elements of dims 0..2 (dim 3 has stride 1); negative in a
 * reversed view */
#define TILE__SFLAGS(t) ((int)sizeof((*(t).tile__st)[0][0][0]) - 1)
#define TILE__SSIGN(t, bit) ((TILE__SFLAGS(t) & (bit)) ? -1 : 1)
#define TILE__S0(t) (TILE__SSIGN(t, 1) * (int)(sizeof(*(t).tile__st) / sizeof((*(t).tile__st)[0])))
#define TILE__S1(t) (TILE__SSIGN(t, 2) * (int)(sizeof((*(t).tile__st)[0]) / sizeof((*(t).tile__st)[0][0])))
#define TILE__S2(t) (TILE__SSIGN(t, 4) * (int)(sizeof((*(t).tile__st)[0][0]) / sizeof((*(t).tile__st)[0][0][0])))
#define TILE__CONTIG(t)                                                           \
    ((TILE__D0(t) == 1 || TILE__S0(t) == TILE__D1(t) * TILE__D2(t) * TILE__D3(t)) && \
     (TILE__D1(t) == 1 || TILE__S1(t) == TILE__D2(t) * TILE__D3(t)) &&             \
     (TILE__D2(t) == 1 || TILE__S2(t) == TILE__D3(t)))
/* slots per thread */
#define tile_slots(t) TILE__SLOTS_N(tile_size(t), TILE__BD(t))
/* element type of a tile, as a type */
#define TILE_ELEM_T(t) TILE__TYPEOF((t).v[0])

/* ---- element <-> thread mapping ---- */
/* linear index of the calling thread's slot s */
#define TILE__LIN(t, s) (tile_thread() + (s) * TILE__BD(t))
/* does slot s of the calling thread hold an element? (constant true when the
 * block size divides the tile) */
#define TILE__VALID(t, s) (tile_size(t) % TILE__BD(t) == 0 || TILE__LIN(t, s) < tile_size(t))
/* storage offset of linear element L of a shared tile */
#define TILE__OFF(t, L)                                                           \
    (TILE__CONTIG(t) ? (L)                                                        \
                     : ((L) / (TILE__D1(t) * TILE__D2(t) * TILE__D3(t))) * TILE__S0(t) + \
                           ((L) / (TILE__D2(t) * TILE__D3(t)) % TILE__D1(t)) * TILE__S1(t) + \
                           ((L) / TILE__D3(t) % TILE__D2(t)) * TILE__S2(t) + (L) % TILE__D3(t))
/* the element in the calling thread's slot s (an lvalue) */
#define TILE__AT(t, s) ((t).v[tile_is_shared(t) ? TILE__OFF(t, TILE__LIN(t, s)) : (s)])
/* loop over the calling thread's valid slots */
#define TILE__EACH(t, s) \
    TILE__UNROLL for (int s = 0; s < tile_slots(t); ++s) if (TILE__VALID(t, s))

/* storage offset of the element at a multi-index (shared tiles) */
#define TILE__OFF4(t, i0, i1, i2, i3) \
    ((i0) * TILE__S0(t) + (i1) * TILE__S1(t) + (i2) * TILE__S2(t) + (i3))

/* Capture a source tile's properties in name##__* constants before a macro
 * declares a new tile struct from them: inside a struct body C++ looks names
 * up in the struct first, so a source tile called `v` would otherwise find
 * the new struct's member. */
#define TILE__CAPTURE(name, src)                                                  \
    typedef TILE_ELEM_T(src) name##__et TILE__UNUSED;                             \
    enum {                                                                        \
        name##__kind = tile__kind(src), name##__bd = TILE__BD(src), name##__nd = tile_ndim(src), \
        name##__d0 = TILE__D0(src), name##__d1 = TILE__D1(src), name##__d2 = TILE__D2(src), \
        name##__d3 = TILE__D3(src), name##__s0 = TILE__S0(src), name##__s1 = TILE__S1(src), \
        name##__s2 = TILE__S2(src)                                                \
    }

/* Loads, stores and indexed operations take at most one offset per tile dim
 * (missing trailing offsets are 0): offsets (r, 0) for a 1D tile would
 * silently read the wrong elements. The full four-offset form stays
 * accepted for code generic over the rank; its offsets past the tile's rank
 * must be 0, which TILE_DEBUG builds check (TILE__NOFFS_RT). */
#define TILE__NOFFS(t, op, ...)                                                    \
    TILE__STATIC_ASSERT(TILE__NARGS(__VA_ARGS__) <= tile_ndim(t) || TILE__NARGS(__VA_ARGS__) == 4, \
                        "tile.h: " op " takes one offset per tile dim: load a row into a 1D tile from " \
                        "tile_array_row(a, r), or use a tile of the array's rank")

#define TILE__NOFFS_RT(t, op, o)                                                   \
    do {                                                                           \
        TILE__CHECK(tile_ndim(t) > 1 || (o)[1] == 0, op ": an offset past the tile's rank (dim 1) must be 0", (o)[1], 0, 1); \
        TILE__CHECK(tile_ndim(t) > 2 || (o)[2] == 0, op ": an offset past the tile's rank (dim 2) must be 0", (o)[2], 0, 1); \
        TILE__CHECK(tile_ndim(t) > 3 || (o)[3] == 0, op ": an offset past the tile's rank (dim 3) must be 0", (o)[3], 0, 1); \
    } while (0)

/* TILE__CHECK naming the tile's storage kind (a compile-time choice) */
#define TILE__CHECK_T(t, cond, msg, v, lo, hi)                                     \
    do {                                                                           \
        if (tile_is_shared(t)) TILE__CHECK(cond, msg " (shared tile)", v, lo, hi); \
        else TILE__CHECK(cond, msg " (register tile)", v, lo, hi);                 \
    } while (0)
/* every index of a multi-index inside the tile's extents (TILE_DEBUG) */
#define TILE__CHECK_IDX4(t, op, i0, i1, i2, i3)                                    \
    do {                                                                           \
        TILE__CHECK_T(t, (i0) >= 0 && (i0) < TILE__D0(t), op ": index of dim 0 out of range", i0, 0, TILE__D0(t)); \
        TILE__CHECK_T(t, (i1) >= 0 && (i1) < TILE__D1(t), op ": index of dim 1 out of range", i1, 0, TILE__D1(t)); \
        TILE__CHECK_T(t, (i2) >= 0 && (i2) < TILE__D2(t), op ": index of dim 2 out of range", i2, 0, TILE__D2(t)); \
        TILE__CHECK_T(t, (i3) >= 0 && (i3) < TILE__D3(t), op ": index of dim 3 out of range", i3, 0, TILE__D3(t)); \
    } while (0)

#define TILE__SAME_SHAPE(a, b)                                                    \
    TILE__STATIC_ASSERT(TILE__D0(a) == TILE__D0(b) && TILE__D1(a) == TILE__D1(b) && \
                            TILE__D2(a) == TILE__D2(b) && TILE__D3(a) == TILE__D3(b) && \
                            TILE__BD(a) == TILE__BD(b),                           \
                        "tile.h: tile shapes differ")

/* A write to a shared tile is bracketed by barriers: before, so no thread
 * still reads old values at other positions; after, so every thread may read
 * any element. Register destinations need none. */
#define TILE__WRITE_BEGIN(t) \
    do { if (tile_is_shared(t)) tile_barrier(); } while (0)
#define TILE__WRITE_END(t) TILE__WRITE_BEGIN(t)

/* (d0, d1) += a b on the f64 tensor cores: one warp-wide mma.sync m8n8k4
 * (sm_80+; A 8x4 {A[g][q]}, B 4x8 {B[q][g]}, C/D 8x8 {C[g][2q], C[g][2q+1]},
 * g = lane / 4, q = lane % 4). For tile_matmul's f64 path and the batched
 * Cholesky's f64 update. */
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
TILE_API void tile__dmma884(double *d0, double *d1, double a, double b) {
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(*d0), "+d"(*d1)
                 : "d"(a), "d"(b));
}
/* d[0..3] += A B on the tf32 tensor cores: one warp-wide mma.sync m16n8k8
 * (sm_80+; A 16x8 {A[g][q], A[g+8][q], A[g][q+4], A[g+8][q+4]}, B 8x8
 * {B[q][g], B[q+4][g]}, C/D 16x8 {C[g][2q], C[g][2q+1], C[g+8][2q],
 * C[g+8][2q+1]}; a and b are f32 bits, of which the tensor cores read the
 * top 19). For tile_matmul_tf32 and the batched Cholesky's f32 update. */
TILE_API void tile__mma1688_tf32(float *d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
#endif

#endif /* TILE_CORE_H */
