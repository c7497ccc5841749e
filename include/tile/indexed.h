/* tile/indexed.h - gathers and scatters: indexed loads and stores between
 * global arrays and tiles, writing a tile into part of a shared tile, reading
 * one element in every thread, and scatters into shared tiles.
 *
 * All operations are cooperative (every thread of the block calls them, never
 * in a divergent branch) and take register and shared tiles alike. Register
 * tiles stay in registers: every slot loop is fully unrolled with constant
 * slot indices; where an element must be picked by a run-time index, the
 * slots are visited in turn and compared (no dynamic register indexing).
 *
 *   tile_load_indexed(t, arr, idx, axis, o...)   gather rows/columns of a global array
 *   tile_store_indexed(arr, t, idx, axis, o...)  scatter them back
 *   tile_atomic_add_indexed(arr, t, idx, axis, o...)
 *   tile_assign(dst, src, o...)                  dst[o + i] = src[i], dst shared
 *   tile_extract(t, i...)                        one element, in every thread
 *   tile_scatter_add(dst, idx, values)           dst[idx[i]] += values[i], dst shared
 *   tile_scatter_masked_tiles(dst, idx, values, mask)  dst[idx[i]] = values[i] where mask[i]
 *   tile_scatter_masked(dst, i..., value, has)   per-thread: dst[i...] = value where has
 *   tile_scatter_add(dst, i..., value, has)      per-thread: dst[i...] += value where has
 *   tile_slice_indexed(name, src, idx, axis)     rows (or columns...) of a tile by an index tile
 *   tile_atomic_add_old(old, arr, t, o...)       tile_atomic_add, returning the previous values
 *   tile_atomic_add_indexed_old(old, arr, t, idx, axis, o...)
 *
 * Negative indices: the gathers and scatters between arrays and tiles, and
 * the scatters into shared tiles, SKIP an element whose index is negative
 * (-1 = "no element"). Reading a tile by position follows Python and Warp's
 * subscripts instead: tile_extract and tile_slice_indexed (and tile_slice's
 * TILE_AT, construct.h) count a negative index from the end, once.
 */
#ifndef TILE_INDEXED_H
#define TILE_INDEXED_H

#include "load.h"

/* ---- helpers ---- */
/* is x (an unevaluated expression) of an integer type? A constant. */
#if defined(__cplusplus)
template <class A> struct tile__is_int { enum { value = 0 }; };
#define TILE__DEF_IS_INT(T) \
    template <> struct tile__is_int<T> { enum { value = 1 }; };
TILE__DEF_IS_INT(char)
TILE__DEF_IS_INT(signed char)
TILE__DEF_IS_INT(unsigned char)
TILE__DEF_IS_INT(short)
TILE__DEF_IS_INT(unsigned short)
TILE__DEF_IS_INT(int)
TILE__DEF_IS_INT(unsigned)
TILE__DEF_IS_INT(long)
TILE__DEF_IS_INT(unsigned long)
TILE__DEF_IS_INT(long long)
TILE__DEF_IS_INT(unsigned long long)
#define TILE__IS_INT(x) (tile__is_int<typename tile__unqual<TILE__TYPEOF(x)>::type>::value)
#else
#define TILE__IS_INT(x)                                                            \
    _Generic((x), char: 1, signed char: 1, unsigned char: 1, short: 1, unsigned short: 1, int: 1, \
             unsigned: 1, long: 1, unsigned long: 1, long long: 1, unsigned long long: 1, default: 0)
#endif

/* coordinate k (a constant 0..3) of linear element L of tile t */
#define TILE__COORD(t, L, k)                                                       \
    ((k) == 0   ? (L) / (TILE__D1(t) * TILE__D2(t) * TILE__D3(t))                 \
     : (k) == 1 ? (L) / (TILE__D2(t) * TILE__D3(t)) % TILE__D1(t)                 \
     : (k) == 2 ? (L) / TILE__D3(t) % TILE__D2(t)                                 \
                : (L) % TILE__D3(t))

/* ---- indexed loads and stores ----
 * The coordinate of element i of t along `axis` (a compile-time constant)
 * is idx[i_axis] + o_axis; along every other dim k it is o_k + i_k.
 *
 * Reading idx[i_axis] for any i needs random access to idx:
 *  - t with extent 1 in every dim but `axis` (1D gathers): element i of t
 *    needs idx[i], which the same thread holds in the same slot. No arena,
 *    no barrier, register or shared idx.
 *  - shared idx: read in place.
 *  - register idx otherwise: copied to the arena for the duration of the
 *    call (TILE_SMEM_BYTES(index type, extent) of free arena; one barrier
 *    before the accesses and one after, released before returning). */
#define TILE__IDX_DIRECT(t, axis) (tile_size(t) == tile_dim(t, axis))
#define TILE__IDX_STAGED(t, idx, axis) (!tile_is_shared(idx) && !TILE__IDX_DIRECT(t, axis))
#define TILE__IDX_CHECKS(t, idx, axis)                                             \
    TILE__STATIC_ASSERT((axis) >= 0 && (axis) < tile_ndim(t), "tile.h: axis must be one of the tile's dims"); \
    TILE__STATIC_ASSERT(tile_size(idx) == tile_dim(t, axis),                       \
                        "tile.h: the index tile length must equal the tile extent on axis"); \
    TILE__STATIC_ASSERT(TILE__BD(idx) == TILE__BD(t), "tile.h: tile shapes differ"); \
    TILE__STATIC_ASSERT(TILE__IS_INT((idx).v[0]), "tile.h: index tiles hold integers")
/* declares tile__imk (arena mark) and tile__ib (the staged copy of a
 * register idx, or 0); no barrier */
#define TILE__IDX_STAGE(t, idx, axis)                                              \
    const int tile__imk = tile_smem_mark();                                        \
    TILE_ELEM_T(idx) *tile__ib = 0;                                                \
    if (TILE__IDX_STAGED(t, idx, axis)) {                                          \
        tile__ib = (TILE_ELEM_T(idx) *)TILE__SMEM_TAKE(sizeof(TILE_ELEM_T(idx)) * tile_size(idx)); \
        TILE__EACH(idx, tile__s) tile__ib[TILE__LIN(idx, tile__s)] = TILE__AT(idx, tile__s); \
    }
/* the index for the calling thread's slot s of t (the arms not taken index
 * with constants, so a register idx is never indexed at run time) */
#define TILE__IDX_OF(t, idx, axis, s)                                              \
    (TILE__IDX_DIRECT(t, axis) ? TILE__AT(idx, TILE__IDX_DIRECT(t, axis) ? (s) : 0) \
     : tile_is_shared(idx)                                                         \
         ? (idx).v[tile_is_shared(idx) ? TILE__OFF(idx, TILE__COORD(t, TILE__LIN(t, s), axis)) : 0] \
         : tile__ib[TILE__COORD(t, TILE__LIN(t, s), axis)])
/* global element offset and in-bounds flag of the calling thread's slot s */
#define TILE__IGOFF(t, arr, o, axis, s, ival, gout, okout)                         \
    do {                                                                           \
        const int tile__L = TILE__LIN(t, s);                                       \
        const int64_t tile__iv = (int64_t)(ival);                                  \
        const int64_t tile__g0 = (o)[0] + ((axis) == 0 ? tile__iv : (int64_t)TILE__COORD(t, tile__L, 0)); \
        const int64_t tile__g1 = (o)[1] + ((axis) == 1 ? tile__iv : (int64_t)TILE__COORD(t, tile__L, 1)); \
        const int64_t tile__g2 = (o)[2] + ((axis) == 2 ? tile__iv : (int64_t)TILE__COORD(t, tile__L, 2)); \
        const int64_t tile__g3 = (o)[3] + ((axis) == 3 ? tile__iv : (int64_t)TILE__COORD(t, tile__L, 3)); \
        /* a negative index means "skip", whatever the offset (as in scatters) */ \
        (okout) = tile__iv >= 0 && tile__g0 >= 0 && tile__g0 < (arr).shape[0] && tile__g1 >= 0 && tile__g1 < (arr).shape[1] && \
                  tile__g2 >= 0 && tile__g2 < (arr).shape[2] && tile__g3 >= 0 && tile__g3 < (arr).shape[3]; \
        (gout) = (arr).base_off + tile__g0 * (arr).stride[0] + tile__g1 * (arr).stride[1] + \
                 tile__g2 * (arr).stride[2] + tile__g3 * (arr).stride[3];          \
    } while (0)
/* one gather/scatter over t's slots; BODY(t, p, go, ok, s) moves one element;
 * WRITES: t is written (barriers around a shared t) */
#define TILE__INDEXED(WRITES, BODY, X, t, arr, idx, axis, ...)                     \
    do {                                                                           \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        TILE_ELEM_T(t) *tile__p = (TILE_ELEM_T(t) *)tile__a.ptr;                   \
        TILE__IDX_CHECKS(t, idx, axis);                                            \
        TILE__NOFFS(t, "an indexed load or store", __VA_ARGS__);                   \
        TILE__CHECK_T(t, tile__a.ndim == tile_ndim(t),                             \
                      "indexed load/store: the array's number of dims is the tile's; array dims", \
                      tile__a.ndim, tile_ndim(t), tile_ndim(t) + 1);              \
        TILE__NOFFS_RT(t, "indexed load/store", tile__o);                          \
        TILE__IDX_STAGE(t, idx, axis);                                             \
        /* one barrier serves both: the staged indices are visible, nobody */     \
        /* still reads a shared t that is about to be written */                  \
        if (TILE__IDX_STAGED(t, idx, axis) || ((WRITES) && tile_is_shared(t))) tile_barrier(); \
        TILE__EACH(t, tile__s) {                                                   \
            int64_t tile__go;                                                      \
            int tile__ok;                                                          \
            TILE__IGOFF(t, tile__a, tile__o, axis, tile__s, TILE__IDX_OF(t, idx, axis, tile__s), tile__go, tile__ok); \
            BODY(t, tile__p, tile__go, tile__ok, tile__s, X);                      \
        }                                                                          \
        /* a written shared t is complete; the staged copy is no longer read */   \
        if (TILE__IDX_STAGED(t, idx, axis) || ((WRITES) && tile_is_shared(t))) tile_barrier(); \
        tile__k.smem_off = (uint32_t)tile__imk;                                    \
    } while (0)
#define TILE__IX_LOAD(t, p, go, ok, s, X)                                          \
    if (ok) TILE__AT(t, s) = (p)[go];                                              \
    else memset(&TILE__AT(t, s), 0, sizeof((t).v[0]))
#define TILE__IX_STORE(t, p, go, ok, s, X) \
    if (ok) (p)[go] = TILE__AT(t, s)
#define TILE__IX_ATOMIC(t, p, go, ok, s, X) \
    if (ok) TILE__ATOMIC_ADD(&(p)[go], TILE__AT(t, s))

/* tile_load_indexed(t, arr, idx, axis, o0[, o1, ...]): tile_load where the
 * coordinate along `axis` (a constant) comes from the integer tile idx
 * (register or shared, tile_size(idx) == tile_dim(t, axis)):
 *   t[i] = arr[o_0 + i_0, ..., idx[i_axis] + o_axis, ..., o_n + i_n]
 * Elements whose coordinates fall outside arr (past-the-end indices,
 * offsets partly outside) read zero. One rule for every indexed operation,
 * scatters included: a NEGATIVE INDEX MEANS "SKIP" whatever the offset (it
 * reads zero, writes and adds nothing); -1 is the usual "no element".
 * Any element type.
 * Arena: none for 1D gathers or a shared idx; otherwise a register idx takes
 * TILE_SMEM_BYTES(index type, tile_dim(t, axis)) during the call.
 * Barriers: one before and one after when t is shared (a shared write) or a
 * register idx is staged; a register t gathered in 1D or through a shared
 * idx needs none.
 *
 * Suppose A is the 4x3 array [[0 1 2] [10 11 12] [20 21 22] [30 31 32]] and
 * idx the i32 tile [3 -1 0]:
 *   tile_load_indexed(t, tile_array2(A, 4, 3), idx, 0, 0, 0);   // t (3, 3)
 *   t = [[30 31 32] [0 0 0] [0 1 2]]                            // rows 3, -1 (zeros), 0
 *   tile_load_indexed(u, tile_array2(A, 4, 3), idx, 1, 1, -1);  // u (2, 3)
 *   u = [[12 0 0] [22 0 0]]      // rows 1, 2; columns 3-1, skipped, 0-1
 *   tile_load_indexed(w, tile_array1(v, n), idx, 0, 1);         // w (3) = [v[4] 0 v[1]]: -1 skips
 *   tile_load_indexed(g, tile_array1(v, n), idx, 0, 0);         // g (3) = [v[3] 0 v[0]] */
#define tile_load_indexed(t, arr, idx, axis, ...) TILE__INDEXED(1, TILE__IX_LOAD, 0, t, arr, idx, axis, __VA_ARGS__)
/* tile_store_indexed(arr, t, idx, axis, o0[, ...]): the inverse scatter,
 *   arr[o_0 + i_0, ..., idx[i_axis] + o_axis, ...] = t[i]
 * elements outside arr and negative indices dropped. When idx repeats an index, one of the
 * elements written there wins (which one is unspecified).
 *   idx = [2 -1 0], t (3) = [5 6 7], v = [0 0 0 0]:
 *   tile_store_indexed(tile_array1(v, 4), t, idx, 0, 0);   // v = [7 0 5 0] */
#define tile_store_indexed(arr, t, idx, axis, ...) TILE__INDEXED(0, TILE__IX_STORE, 0, t, arr, idx, axis, __VA_ARGS__)
/* tile_atomic_add_indexed(arr, t, idx, axis, o0[, ...]): the scatter with
 * atomic adds (scalar element types, and any other type TILE__ATOMIC_ADD
 * takes); repeated indices add every element.
 *   idx = [1 1 3], t (3) = [5 6 7], v = [0 0 0 0]:
 *   tile_atomic_add_indexed(tile_array1(v, 4), t, idx, 0, 0);   // v = [0 11 0 7] */
#define tile_atomic_add_indexed(arr, t, idx, axis, ...) \
    TILE__INDEXED(0, TILE__IX_ATOMIC, 0, t, arr, idx, axis, __VA_ARGS__)

/* ---- atomic adds that return the previous values (Warp's tile_atomic_add
 * and tile_atomic_add_indexed return them) ----
 * tile_atomic_add_old(old, arr, t, o0[, ...]): tile_atomic_add (load.h),
 *   and old[i] = the value arr[o + i] held just before t[i] was added (the
 *   value each element's own atomic read). old has t's shape, any storage
 *   (may be t itself); elements outside arr add nothing and read zero.
 * tile_atomic_add_indexed_old(old, arr, t, idx, axis, o0[, ...]): the same
 *   for tile_atomic_add_indexed (negative indices skipped: old reads zero).
 * A vector or matrix element is one atomic per component, so its old value
 * is per component too.
 *   v = [1 2 3 4], t (3) = [10 20 30]:
 *   tile_atomic_add_old(old, tile_array1(v, 4), t, 2);
 *   v = [1 2 13 24], old = [3 4 0]         // t[2] fell outside v
 *   idx = [0 0 3]: tile_atomic_add_indexed_old(old, tile_array1(v, 4), t, idx, 0, 0);
 *   v[0] gains 30; old = [1 11 24] or [21 1 24] (the two adds to v[0] in
 *   either order on the GPU; in index order on the CPU) */
#define tile_atomic_add_old(old, arr, t, ...)                                      \
    do {                                                                           \
        TILE__NOFFS(t, "tile_atomic_add_old", __VA_ARGS__);                        \
        TILE__SAME_SHAPE(old, t);                                                  \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        TILE_ELEM_T(t) *tile__p = (TILE_ELEM_T(t) *)tile__a.ptr;                   \
        TILE__WRITE_BEGIN(old);                                                    \
        TILE__EACH(t, tile__s) {                                                   \
            int64_t tile__go;                                                      \
            int tile__ok;                                                          \
            TILE__GOFF(t, tile__a, tile__o, tile__s, tile__go, tile__ok);          \
            TILE__IX_ATOMIC_OLD(t, tile__p, tile__go, tile__ok, tile__s, old);     \
        }                                                                          \
        TILE__WRITE_END(old);                                                      \
    } while (0)
#define tile_atomic_add_indexed_old(old, arr, t, idx, axis, ...)                   \
    do {                                                                           \
        TILE__SAME_SHAPE(old, t);                                                  \
        TILE__WRITE_BEGIN(old);                                                    \
        TILE__INDEXED(0, TILE__IX_ATOMIC_OLD, old, t, arr, idx, axis, __VA_ARGS__); \
        TILE__WRITE_END(old);                                                      \
    } while (0)
#define TILE__IX_ATOMIC_OLD(t, p, go, ok, s, old)                                  \
    do {                                                                           \
        if (ok) {                                                                  \
            TILE_ELEM_T(t) tile__ov = TILE__AT(t, s);                              \
            tile__ov = tile__atomic_add_old(&(p)[go], tile__ov);                   \
            TILE__AT(old, s) = tile__ov;                                           \
        } else {                                                                   \
            memset(&TILE__AT(old, s), 0, sizeof((old).v[0]));                      \
        }                                                                          \
    } while (0)
/* *p += v atomically, returning the old *p (any element type TILE__ATOMIC_ADD
 * takes; integers wrap like unsigned addition). On the CPU blocks run one
 * after another: a plain read-modify-write. */
#if TILE_ON_DEVICE
#define TILE__AADD_OLD_BODY(T, DT, U) return (T)atomicAdd((DT *)p, (DT)v);
#else
#define TILE__AADD_OLD_BODY(T, DT, U)                                              \
    T o = *p;                                                                      \
    *p = (T)((U)o + (U)v);                                                         \
    return o;
#endif
#if defined(__cplusplus)
#define TILE__AADD_OLD_S(sfx, T, DT, U) \
    TILE_API T tile__atomic_add_old(T *p, T v) { TILE__AADD_OLD_BODY(T, DT, U) }
#define TILE__AADD_OLD_NAME(sfx) tile__atomic_add_old
#else
#define TILE__AADD_OLD_S(sfx, T, DT, U) \
    TILE_API T tile__atomic_add_old_##sfx(T *p, T v) { TILE__AADD_OLD_BODY(T, DT, U) }
#define TILE__AADD_OLD_NAME(sfx) tile__atomic_add_old_##sfx
#endif
TILE__AADD_OLD_S(f32, float, float, float)
TILE__AADD_OLD_S(f64, double, double, double)
TILE__AADD_OLD_S(i32, int32_t, unsigned, uint32_t)
TILE__AADD_OLD_S(u32, uint32_t, unsigned, uint32_t)
TILE__AADD_OLD_S(i64, int64_t, unsigned long long, uint64_t)
TILE__AADD_OLD_S(u64, uint64_t, unsigned long long, uint64_t)
#define TILE__AADD_OLD_C(sfx, S, ssfx, N)                                          \
    TILE_API tile_##sfx TILE__AADD_OLD_NAME(sfx)(tile_##sfx * p, tile_##sfx v) {   \
        tile_##sfx r;                                                              \
        S *pp = (S *)p, *rp = (S *)&r;                                             \
        const S *vp = (const S *)&v;                                               \
        TILE__UNROLL for (int k = 0; k < N; ++k) rp[k] = TILE__AADD_OLD_NAME(ssfx)(&pp[k], vp[k]); \
        return r;                                                                  \
    }
/* the vector-like types TILE__ATOMIC_ADD takes (types.h): vectors, matrices,
 * integer vectors, quaternions, complex numbers */
#if defined(TILE__CW_TYPES) && defined(TILE_QUAT_TYPES) && defined(TILE__COMPLEX_AS_COMPOUND)
#define TILE__AADD_OLD_TYPES(X) TILE__CW_TYPES(X) TILE_QUAT_TYPES(X) TILE__COMPLEX_AS_COMPOUND(X)
#else
#define TILE__AADD_OLD_TYPES(X) TILE_COMPOUND_TYPES(X)
#endif
TILE__AADD_OLD_TYPES(TILE__AADD_OLD_C)
#if !defined(__cplusplus)
#define TILE__A_AADD_OLD(sfx, ...) , tile_##sfx * : tile__atomic_add_old_##sfx
#define tile__atomic_add_old(p, v)                                                 \
    _Generic((p)TILE_SCALAR_TYPES(TILE__A_AADD_OLD) TILE__AADD_OLD_TYPES(TILE__A_AADD_OLD))((p), (v))
#endif

/* ---- tile_assign(dst, src, o0[, o1, ...]) ----
 * Write tile src (register or shared, the same number of dims as dst) into
 * shared tile dst at offset o: dst[o + i] = src[i]. Parts of src that fall
 * outside dst are dropped; the rest of dst keeps its values. src may be a
 * view of dst itself, overlapping the part written (t[1:] = t[:-1]): memmove
 * semantics, every element written is src's value from before the call (an
 * overlapping shared src is first copied to registers, one more barrier;
 * the test is a run-time comparison of the two address ranges). Barriers like
 * every shared write (one before, one after).
 *   s (6) = [0 1 2 3 4 5], tile_view(a, s, (5), (0)):
 *   tile_assign(s, a, 1);   // s = [0 0 1 2 3 4] (not [0 0 0 0 0 0])
 *   dst (4, 4) all zero, src (2, 3) = [[1 2 3] [4 5 6]]:
 *   tile_assign(dst, src, 1, 2);
 *   dst = [[0 0 0 0] [0 0 1 2] [0 0 4 5] [0 0 0 0]]   // 3 and 6 fell off */
#define tile_assign(dst, src, ...)                                                 \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_is_shared(dst), "tile.h: tile_assign writes into a shared tile"); \
        TILE__STATIC_ASSERT(tile_ndim(src) == tile_ndim(dst), "tile.h: tile_assign needs tiles of one number of dims"); \
        TILE__STATIC_ASSERT(TILE__BD(src) == TILE__BD(dst), "tile.h: tile shapes differ"); \
        TILE__NOFFS(src, "tile_assign", __VA_ARGS__);                              \
        const int tile__ao[4] = {TILE__PAD4Z(__VA_ARGS__)};                        \
        /* wholly inside: no per-element test */                                  \
        const int tile__ain = tile__ao[0] >= 0 && tile__ao[1] >= 0 && tile__ao[2] >= 0 && tile__ao[3] >= 0 && \
                              tile__ao[0] + TILE__D0(src) <= TILE__D0(dst) &&      \
                              tile__ao[1] + TILE__D1(src) <= TILE__D1(dst) &&      \
                              tile__ao[2] + TILE__D2(src) <= TILE__D2(dst) &&      \
                              tile__ao[3] + TILE__D3(src) <= TILE__D3(dst);        \
        TILE__WRITE_BEGIN(dst);                                                    \
        /* an overlapping shared src: every thread's elements to registers first */ \
        const int tile__aov = TILE__OVERLAP(src, dst);                             \
        TILE_ELEM_T(src) tile__ar[tile_is_shared(src) ? tile_slots(src) : 1];      \
        if (tile__aov) {                                                           \
            TILE__EACH(src, tile__s) tile__ar[tile_is_shared(src) ? tile__s : 0] = TILE__AT(src, tile__s); \
            tile_barrier();                                                        \
        }                                                                          \
        TILE__EACH(src, tile__s) {                                                 \
            const int tile__L = TILE__LIN(src, tile__s);                           \
            const int tile__i0 = tile__ao[0] + TILE__COORD(src, tile__L, 0);       \
            const int tile__i1 = tile__ao[1] + TILE__COORD(src, tile__L, 1);       \
            const int tile__i2 = tile__ao[2] + TILE__COORD(src, tile__L, 2);       \
            const int tile__i3 = tile__ao[3] + TILE__COORD(src, tile__L, 3);       \
            if (tile__ain || (tile__i0 >= 0 && tile__i0 < TILE__D0(dst) && tile__i1 >= 0 && \
                              tile__i1 < TILE__D1(dst) && tile__i2 >= 0 && tile__i2 < TILE__D2(dst) && \
                              tile__i3 >= 0 && tile__i3 < TILE__D3(dst)))          \
                (dst).v[TILE__OFF4(dst, tile__i0, tile__i1, tile__i2, tile__i3)] =     \
                    tile__aov ? tile__ar[tile_is_shared(src) ? tile__s : 0] : TILE__AT(src, tile__s); \
        }                                                                          \
        TILE__WRITE_END(dst);                                                      \
    } while (0)
/* do shared tiles a and b share any address? (0 when either is a register
 * tile: its slots are never compared, nor their address taken) */
#define TILE__OVERLAP(a, b)                                                        \
    (tile_is_shared(a) && tile_is_shared(b) &&                                     \
     tile__ranges_meet(TILE__SHPTR(a) + (uintptr_t)TILE__SPAN_LO(a), TILE__SHPTR(a) + (uintptr_t)TILE__SPAN_HI(a), \
                       TILE__SHPTR(b) + (uintptr_t)TILE__SPAN_LO(b), TILE__SHPTR(b) + (uintptr_t)TILE__SPAN_HI(b)))
/* first byte of a shared tile's element 0 as an integer, 0 for a register tile */
#define TILE__SHPTR(t)                                                             \
    __extension__({                                                                \
        const void *tile__pp = 0;                                                  \
        memcpy(&tile__pp, &(t).v, tile_is_shared(t) ? sizeof(tile__pp) : 0);       \
        (uintptr_t)tile__pp;                                                       \
    })
/* byte offsets of the lowest and past the highest element from element 0
 * (strides may be negative: the sums wrap in uintptr_t as intended) */
#define TILE__SPAN_K(t, k, S) (((int64_t)tile_dim(t, k) - 1) * (S))
#define TILE__SPAN_LO(t)                                                           \
    ((int64_t)sizeof((t).v[0]) *                                                   \
     ((TILE__S0(t) < 0 ? TILE__SPAN_K(t, 0, TILE__S0(t)) : 0) + (TILE__S1(t) < 0 ? TILE__SPAN_K(t, 1, TILE__S1(t)) : 0) + \
      (TILE__S2(t) < 0 ? TILE__SPAN_K(t, 2, TILE__S2(t)) : 0)))
#define TILE__SPAN_HI(t)                                                           \
    ((int64_t)sizeof((t).v[0]) *                                                   \
     (1 + (TILE__S0(t) > 0 ? TILE__SPAN_K(t, 0, TILE__S0(t)) : 0) + (TILE__S1(t) > 0 ? TILE__SPAN_K(t, 1, TILE__S1(t)) : 0) + \
      (TILE__S2(t) > 0 ? TILE__SPAN_K(t, 2, TILE__S2(t)) : 0) + TILE__SPAN_K(t, 3, 1)))
TILE_API int tile__ranges_meet(uintptr_t alo, uintptr_t ahi, uintptr_t blo, uintptr_t bhi) {
    return alo < bhi && blo < ahi;
}

/* ---- tile_extract(t, i0[, i1, ...]) ----
 * The element of t at a multi-index (one index per dim, run-time values the
 * same in every thread), as a value in every thread: an expression (Warp's
 * t[i, j] on a tile). A negative index counts from the end once, as in
 * Python and Warp's subscripts: tile_extract(t, -1, 0) is the last row's
 * first element; i + extent must then be in range (TILE_DEBUG checks).
 * tile_extract(t) with no index is the value of a one-element tile (shape
 * (1) or (1, 1), ...), whichever thread holds it.
 *  - shared t: a read, no barrier.
 *  - register t: the owner thread (linear index % block) picks its slot by
 *    comparing against every slot index in turn, writes the value to the
 *    reduction scratch (TILE_SCRATCH_BYTES, as the reductions), one barrier,
 *    every thread reads it. Cooperative. With block_dim 1 (the CPU) the
 *    thread's own slot is returned, no scratch.
 *
 * Suppose t (2, 3) = [[1 2 3] [4 5 6]], register or shared:
 *   float x = tile_extract(t, 1, 2);   // 6 in every thread
 *   float z = tile_extract(t, -1, -3); // 4
 *   tile_reg(float, one, 1); tile_load(one, arr, 5);
 *   float y = tile_extract(one);       // arr[5] in every thread (tile_value
 *                                      // reads it only in the thread holding it) */
#define tile_extract(...) TILE__APPLY(TILE__EXTRACT_, (TILE__XNARGS(__VA_ARGS__), TILE__PAD5Z(__VA_ARGS__)))
#define TILE__XNARGS(...) TILE__XNARGS_(__VA_ARGS__, 5, 4, 3, 2, 1, 0)
#define TILE__XNARGS_(a, b, c, d, e, n, ...) n
#define TILE__PAD5Z(...) TILE__PAD5Z_(__VA_ARGS__, 0, 0, 0, 0, 0)
#define TILE__PAD5Z_(a, b, c, d, e, ...) a, b, c, d, e
#define TILE__EXTRACT_(nargs, t, i0, i1, i2, i3)                                   \
    __extension__({                                                                \
        TILE__STATIC_ASSERT((nargs) == 1 ? tile_size(t) == 1 : (nargs)-1 == tile_ndim(t), \
                            "tile.h: tile_extract takes one index per dim (none for a one-element tile)"); \
        typedef TILE_ELEM_T(t) tile__xT;                                           \
        TILE__STATIC_ASSERT(sizeof(tile__xT) <= TILE_SCRATCH_BYTES / 2,            \
                            "tile.h: extract scratch too small: raise TILE_SCRATCH_BYTES"); \
        const int tile__xi0 = TILE__SL_WRAP(i0, TILE__D0(t)), tile__xi1 = TILE__SL_WRAP(i1, TILE__D1(t)), \
                  tile__xi2 = TILE__SL_WRAP(i2, TILE__D2(t)), tile__xi3 = TILE__SL_WRAP(i3, TILE__D3(t)); \
        TILE__CHECK_IDX4(t, "tile_extract", tile__xi0, tile__xi1, tile__xi2, tile__xi3); \
        tile__xT tile__xv;                                                         \
        if (tile_is_shared(t)) {                                                   \
            tile__xv = (t).v[tile_is_shared(t) ? TILE__OFF4(t, tile__xi0, tile__xi1, tile__xi2, tile__xi3) : 0]; \
        } else {                                                                   \
            const int tile__xl =                                                   \
                ((tile__xi0 * TILE__D1(t) + tile__xi1) * TILE__D2(t) + tile__xi2) * TILE__D3(t) + tile__xi3; \
            const int tile__xs = tile__xl / TILE__BD(t);                           \
            tile__xv = (t).v[0];                                                   \
            TILE__UNROLL for (int tile__q = 1; tile__q < tile_slots(t); ++tile__q) \
                if (tile__q == tile__xs) tile__xv = (t).v[tile_is_shared(t) ? 0 : tile__q]; \
            if (TILE__BD(t) > 1) {                                                 \
                tile__xT *tile__xp = (tile__xT *)tile__scratch_next(&tile__k);     \
                if (tile_thread() == tile__xl % TILE__BD(t)) *tile__xp = tile__xv; \
                tile_barrier();                                                    \
                tile__xv = *tile__xp;                                              \
            }                                                                      \
        }                                                                          \
        tile__xv;                                                                  \
    })

/* ---- scatters into shared tiles ----
 * Two families. The tile forms take tiles of indices and values:
 * tile_scatter_add_tiles (also spelled tile_scatter_add with three
 * arguments) and tile_scatter_masked_tiles. The per-thread forms are Warp's
 * tile_scatter_add / tile_scatter_masked (one value per thread, below).
 * tile_scatter_add(dst, idx, values): dst[idx[i]] += values[i] for every
 * element i of idx, with shared-memory atomics (scalar element types, and any
 * other type TILE__ATOMIC_ADD takes). dst is
 * a shared tile (a view too); idx holds integer linear (row-major) indices
 * into dst, values (dst's element type) has idx's shape, both any storage.
 * Indices outside [0, tile_size(dst)), -1 among them, are skipped. Repeated
 * indices add every value. Barriers like every shared write.
 *   dst (5) = [0 0 0 0 0], idx = [1 4 1 -1 9 1], values = [1 2 3 4 5 6]:
 *   tile_scatter_add(dst, idx, values);   // dst = [0 10 0 0 2]
 * tile_scatter_masked_tiles(dst, idx, values, mask): dst[idx[i]] = values[i] where
 * mask[i] != 0 (mask a scalar tile of idx's shape), any element type, same
 * skipping. When several written elements hit one slot, the one with the
 * highest linear index wins, as in a sequential loop (on both targets).
 *   same dst, idx and values, mask = [1 1 0 1 1 0]:
 *   tile_scatter_masked_tiles(dst, idx, values, mask);   // dst = [0 1 0 0 2]
 *   (with mask all ones, dst[1] would be 6: the last writer wins) */
/* CLAIM runs for every valid index first (then a barrier), BODY after */
#define TILE__SCATTER(dst, idx, values, HAS_CLAIM, CLAIM, BODY)                    \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_is_shared(dst), "tile.h: scatters write into a shared tile"); \
        TILE__SAME_SHAPE(idx, values);                                             \
        TILE__STATIC_ASSERT(TILE__BD(idx) == TILE__BD(dst), "tile.h: tile shapes differ"); \
        TILE__STATIC_ASSERT(TILE__IS_INT((idx).v[0]), "tile.h: index tiles hold integers"); \
        TILE__WRITE_BEGIN(dst);                                                    \
        if (TILE__BD(dst) > 1 && (HAS_CLAIM)) {                                    \
            TILE__EACH(idx, tile__s) {                                             \
                const int64_t tile__j = (int64_t)TILE__AT(idx, tile__s);           \
                if (tile__j >= 0 && tile__j < tile_size(dst)) { CLAIM; }           \
            }                                                                      \
            tile_barrier();                                                        \
        }                                                                          \
        TILE__EACH(idx, tile__s) {                                                 \
            const int64_t tile__j = (int64_t)TILE__AT(idx, tile__s);               \
            if (tile__j >= 0 && tile__j < tile_size(dst)) { BODY; }                \
        }                                                                          \
        TILE__WRITE_END(dst);                                                      \
    } while (0)
#define TILE__SC_SLOT(dst) (dst).v[TILE__OFF(dst, (int)tile__j)]
#define tile_scatter_add(...) TILE__DISPATCH(TILE__SCADD_SEL(TILE__N7ARGS(__VA_ARGS__)), (__VA_ARGS__))
#define TILE__N7ARGS(...) TILE__N7ARGS_(__VA_ARGS__, 7, 6, 5, 4, 3, 2, 1, 0)
#define TILE__N7ARGS_(a, b, c, d, e, f, g, n, ...) n
#define TILE__SCADD_SEL(n) TILE__SCADD_SEL_(n)
#define TILE__SCADD_SEL_(n) tile__scatter_add_##n
#define tile__scatter_add_3(dst, idx, values) tile_scatter_add_tiles(dst, idx, values)
#define tile_scatter_add_tiles(dst, idx, values)                                   \
    TILE__SCATTER(dst, idx, values, 0, (void)0, TILE_ELEM_T(dst) tile__sv = TILE__AT(values, tile__s); \
                  TILE__ATOMIC_ADD(&TILE__SC_SLOT(dst), tile__sv))
/* ---- per-thread scatter-add (Warp's tile_scatter_add(a, i, value, has_value)) ----
 * tile_scatter_add(dst, i0[, i1, i2, i3], value, has_value): every thread
 * whose has_value is nonzero adds its own value (dst's element type) to
 * dst[i0, i1, ...] (one index per dim of dst, run-time values that differ
 * between threads), with shared-memory atomics: threads hitting one element
 * all add. dst is a shared tile (a view too). Indices outside dst (negative
 * ones included) are skipped, as in every scatter. Cooperative (every thread
 * calls it, has_value or not); a barrier before and after, so the sums are
 * visible when it returns. On the CPU (block_dim 1) the one thread's add.
 * tile_scatter_add_nonatomic(dst, i0[, ...], value, has_value): the same
 * with plain read-add-writes (Warp's atomic=False), for indices known to be
 * distinct among the adding threads (two adds to one element race).
 *   a histogram of 4 bins, block 8, thread k holds x = k:
 *   tile_shared(float, bins, 4); tile_zeros(bins);
 *   tile_scatter_add(bins, x / 2, 1.0f, 1);   // bins = [2 2 2 2]
 *   tile_scatter_add_nonatomic(bins, x % 4, (float)x, x < 4);   // bins = [2 3 4 5] */
#define tile__scatter_add_4(dst, i0, value, has) TILE__SCADD1(1, dst, value, has, 1, i0, 0, 0, 0)
#define tile__scatter_add_5(dst, i0, i1, value, has) TILE__SCADD1(1, dst, value, has, 2, i0, i1, 0, 0)
#define tile__scatter_add_6(dst, i0, i1, i2, value, has) TILE__SCADD1(1, dst, value, has, 3, i0, i1, i2, 0)
#define tile__scatter_add_7(dst, i0, i1, i2, i3, value, has) TILE__SCADD1(1, dst, value, has, 4, i0, i1, i2, i3)
#define tile_scatter_add_nonatomic(...) \
    TILE__DISPATCH(TILE__SCADDN_SEL(TILE__N7ARGS(__VA_ARGS__)), (__VA_ARGS__))
#define TILE__SCADDN_SEL(n) TILE__SCADDN_SEL_(n)
#define TILE__SCADDN_SEL_(n) tile__scatter_addn_##n
#define tile__scatter_addn_4(dst, i0, value, has) TILE__SCADD1(0, dst, value, has, 1, i0, 0, 0, 0)
#define tile__scatter_addn_5(dst, i0, i1, value, has) TILE__SCADD1(0, dst, value, has, 2, i0, i1, 0, 0)
#define tile__scatter_addn_6(dst, i0, i1, i2, value, has) TILE__SCADD1(0, dst, value, has, 3, i0, i1, i2, 0)
#define tile__scatter_addn_7(dst, i0, i1, i2, i3, value, has) TILE__SCADD1(0, dst, value, has, 4, i0, i1, i2, i3)
#define TILE__SCADD1(ATOMIC, dst, value, has, nidx, i0, i1, i2, i3)                \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_is_shared(dst), "tile.h: tile_scatter_add writes into a shared tile"); \
        TILE__STATIC_ASSERT((nidx) == tile_ndim(dst), "tile.h: tile_scatter_add takes one index per dim of dst"); \
        const int64_t tile__q0 = (int64_t)(i0), tile__q1 = (int64_t)(i1), tile__q2 = (int64_t)(i2), \
                      tile__q3 = (int64_t)(i3);                                    \
        const int tile__qh = (has) && tile__q0 >= 0 && tile__q0 < TILE__D0(dst) && tile__q1 >= 0 && \
                             tile__q1 < TILE__D1(dst) && tile__q2 >= 0 && tile__q2 < TILE__D2(dst) && \
                             tile__q3 >= 0 && tile__q3 < TILE__D3(dst);            \
        const TILE_ELEM_T(dst) tile__qv = (value);                                 \
        tile_barrier();                                                            \
        if (tile__qh) {                                                            \
            TILE_ELEM_T(dst) *const tile__qp =                                     \
                &(dst).v[TILE__OFF4(dst, (int)tile__q0, (int)tile__q1, (int)tile__q2, (int)tile__q3)]; \
            if (ATOMIC) TILE__ATOMIC_ADD(tile__qp, tile__qv);                      \
            else *tile__qp = TILE__G_ADD(*tile__qp, tile__qv);                     \
        }                                                                          \
        tile_barrier();                                                            \
    } while (0)

/* ---- per-thread masked write (Warp's tile_scatter_masked(a, i, value, has_value)) ----
 * tile_scatter_masked(dst, i0[, i1, i2, i3], value, has_value): every thread
 * whose has_value is nonzero writes its value to dst[i0, ...] (one index per
 * dim, run-time values). When several threads write one element the highest
 * thread index wins (as a loop over the threads would; Warp leaves it
 * undefined): writers first claim elements with an atomic max in a static
 * shared owner array (4 bytes per dst element, shared with
 * tile_scatter_masked_tiles), so an element is never torn. Indices outside
 * dst are skipped. Cooperative; three barriers on the GPU, none on the CPU.
 * (The tile form with index, value and mask tiles is
 * tile_scatter_masked_tiles.)
 *   block 8, thread k: tile_scatter_masked(t, k / 2, 10 * k, 1);
 *   t (4) = [10 30 50 70]   (threads 1, 3, 5, 7 win) */
#define tile_scatter_masked(...) TILE__DISPATCH(TILE__SCMASK_SEL(TILE__N7ARGS(__VA_ARGS__)), (__VA_ARGS__))
#define TILE__SCMASK_SEL(n) TILE__SCMASK_SEL_(n)
#define TILE__SCMASK_SEL_(n) tile__scatter_masked_##n
#define tile__scatter_masked_4(dst, i0, value, has) TILE__SCMASK1(dst, value, has, 1, i0, 0, 0, 0)
#define tile__scatter_masked_5(dst, i0, i1, value, has) TILE__SCMASK1(dst, value, has, 2, i0, i1, 0, 0)
#define tile__scatter_masked_6(dst, i0, i1, i2, value, has) TILE__SCMASK1(dst, value, has, 3, i0, i1, i2, 0)
#define tile__scatter_masked_7(dst, i0, i1, i2, i3, value, has) TILE__SCMASK1(dst, value, has, 4, i0, i1, i2, i3)
#define TILE__SCMASK1(dst, value, has, nidx, i0, i1, i2, i3)                       \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_is_shared(dst), "tile.h: tile_scatter_masked writes into a shared tile"); \
        TILE__STATIC_ASSERT((nidx) == tile_ndim(dst),                              \
                            "tile.h: tile_scatter_masked takes one index per dim of dst (the tile form is " \
                            "tile_scatter_masked_tiles)");                         \
        const int64_t tile__q0 = (int64_t)(i0), tile__q1 = (int64_t)(i1), tile__q2 = (int64_t)(i2), \
                      tile__q3 = (int64_t)(i3);                                    \
        const int tile__qh = (has) && tile__q0 >= 0 && tile__q0 < TILE__D0(dst) && tile__q1 >= 0 && \
                             tile__q1 < TILE__D1(dst) && tile__q2 >= 0 && tile__q2 < TILE__D2(dst) && \
                             tile__q3 >= 0 && tile__q3 < TILE__D3(dst);            \
        const int tile__ql =                                                       \
            tile__qh ? (int)(((tile__q0 * TILE__D1(dst) + tile__q1) * TILE__D2(dst) + tile__q2) * TILE__D3(dst) + tile__q3) \
                     : 0;                                                          \
        const TILE_ELEM_T(dst) tile__qv = (value);                                 \
        tile_barrier();                                                            \
        if (TILE__BD(dst) > 1) {                                                   \
            for (int tile__q = tile_thread(); tile__q < tile_size(dst); tile__q += TILE__BD(dst)) \
                TILE__OWN(dst)[tile__q] = -1;                                      \
            tile_barrier();                                                        \
            if (tile__qh) tile__atomic_max_i32(TILE__OWN(dst) + tile__ql, tile_thread()); \
            tile_barrier();                                                        \
        }                                                                          \
        if (tile__qh && (TILE__BD(dst) == 1 || TILE__OWN(dst)[tile__ql] == tile_thread())) \
            (dst).v[TILE__OFF4(dst, (int)tile__q0, (int)tile__q1, (int)tile__q2, (int)tile__q3)] = tile__qv; \
        tile_barrier();                                                            \
    } while (0)

/* ---- tile_slice_indexed(name, src, idx, axis) ----
 * Gather along one axis of a tile (Warp's t[idx, :], tile_slice_indexed):
 * declares register tile `name` of src's shape with extent tile_size(idx)
 * along `axis` (a constant), name[..., k, ...] = src[..., idx[k], ...]. idx
 * is a 1D integer tile, any storage; a negative index counts from the end
 * once (Python, Warp); an index still outside src reads zero. src any
 * storage: a shared src is read in place, a register src is staged in the
 * arena (TILE_SMEM_BYTES of src); a register idx longer than 1D needs is
 * staged too (TILE_SMEM_BYTES(index type, tile_size(idx))). Barriers only
 * around the staging.
 *   src (3, 2) = [[1 2] [3 4] [5 6]], idx = [2 0 -1 2]:
 *   tile_slice_indexed(g, src, idx, 0);   // g (4, 2) = [[5 6] [1 2] [5 6] [5 6]]
 *   idx2 = [1 1 0]: tile_slice_indexed(h, src, idx2, 1);   // h (3, 3) = [[2 2 1] [4 4 3] [6 6 5]] */
#define tile_slice_indexed(name, src, idx, axis)                                   \
    TILE__CAPTURE(name, src);                                                      \
    TILE__STATIC_ASSERT((axis) >= 0 && (axis) < tile_ndim(src), "tile.h: axis must be one of the tile's dims"); \
    TILE__STATIC_ASSERT(tile_ndim(idx) == 1, "tile.h: tile_slice_indexed takes a 1D index tile"); \
    enum {                                                                         \
        name##__g0 = (axis) == 0 ? tile_size(idx) : name##__d0, name##__g1 = (axis) == 1 ? tile_size(idx) : name##__d1, \
        name##__g2 = (axis) == 2 ? tile_size(idx) : name##__d2, name##__g3 = (axis) == 3 ? tile_size(idx) : name##__d3 \
    };                                                                             \
    TILE__REG_TYPE_(name##__et, name##__bd, name##__nd, name##__g0, name##__g1, name##__g2, name##__g3) name; \
    do {                                                                           \
        TILE__IDX_CHECKS(name, idx, axis);                                         \
        TILE__IDX_STAGE(name, idx, axis);                                          \
        /* the source elements: the shared src, or src staged row-major */        \
        TILE_ELEM_T(src) *tile__gs = 0;                                            \
        memcpy(&tile__gs, &(src).v, tile_is_shared(src) ? sizeof(tile__gs) : 0);   \
        if (!tile_is_shared(src)) {                                                \
            tile__gs = (TILE_ELEM_T(src) *)TILE__SMEM_TAKE(sizeof(TILE_ELEM_T(src)) * tile_size(src)); \
            TILE__EACH(src, tile__s) tile__gs[TILE__LIN(src, tile__s)] = TILE__AT(src, tile__s); \
        }                                                                          \
        const int tile__gst = !tile_is_shared(src) || TILE__IDX_STAGED(name, idx, axis); \
        if (tile__gst) tile_barrier();                                             \
        TILE__EACH(name, tile__s) {                                                \
            const int tile__L = TILE__LIN(name, tile__s);                          \
            int tile__c[4] = {TILE__COORD(name, tile__L, 0), TILE__COORD(name, tile__L, 1), \
                              TILE__COORD(name, tile__L, 2), TILE__COORD(name, tile__L, 3)}; \
            int64_t tile__j = (int64_t)TILE__IDX_OF(name, idx, axis, tile__s);     \
            if (tile__j < 0) tile__j += tile_dim(src, axis);                       \
            tile__c[axis] = (int)tile__j;                                          \
            if (tile__j >= 0 && tile__j < tile_dim(src, axis))                     \
                TILE__AT(name, tile__s) =                                          \
                    tile__gs[tile_is_shared(src)                                   \
                                 ? TILE__OFF4(src, tile__c[0], tile__c[1], tile__c[2], tile__c[3]) \
                                 : ((tile__c[0] * TILE__D1(src) + tile__c[1]) * TILE__D2(src) + tile__c[2]) * \
                                           TILE__D3(src) + tile__c[3]];            \
            else                                                                   \
                memset(&TILE__AT(name, tile__s), 0, sizeof((name).v[0]));          \
        }                                                                          \
        if (tile__gst) tile_barrier(); /* the staged copies are no longer read */ \
        tile__k.smem_off = (uint32_t)tile__imk;                                    \
    } while (0)

#define TILE__OWN(dst) ((int *)TILE_STATIC_SMEM(TILE__BD(dst) > 1 ? tile_size(dst) * sizeof(int) : 16))
/* Collisions resolve as a sequential loop would: of the elements aimed at
 * one slot, the one with the highest linear index wins. Writers first claim
 * slots with an atomic max in a static shared owner array (4 bytes per dst
 * element), so a multi-word element is never torn and no two threads write
 * one slot. On the CPU one thread writes in order. */
#define tile_scatter_masked_tiles(dst, idx, values, mask)                          \
    do {                                                                           \
        TILE__SAME_SHAPE(idx, mask);                                               \
        if (TILE__BD(dst) > 1) {                                                   \
            tile_barrier();                                                        \
            for (int tile__q = tile_thread(); tile__q < tile_size(dst); tile__q += TILE__BD(dst)) \
                TILE__OWN(dst)[tile__q] = -1;                                           \
        }                                                                          \
        TILE__SCATTER(dst, idx, values, 1,                                         \
                      if (TILE__AT(mask, tile__s) != 0) tile__atomic_max_i32(TILE__OWN(dst) + (int)tile__j, TILE__LIN(idx, tile__s)), \
                      if (TILE__AT(mask, tile__s) != 0 &&                          \
                          (TILE__BD(dst) == 1 || TILE__OWN(dst)[(int)tile__j] == TILE__LIN(idx, tile__s))) \
                          TILE__SC_SLOT(dst) = TILE__AT(values, tile__s));         \
    } while (0)

#endif /* TILE_INDEXED_H */
