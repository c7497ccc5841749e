/* tile/sort.h - block-wide sorts of whole tiles: an LSD radix sort.
 *
 * tile_sort(keys) sorts a tile ascending, in place. tile_sort_pairs(keys,
 * values) sorts keys the same way and moves each value with its key. Both
 * are cooperative (every thread of the block calls them, never in a
 * divergent branch) and take register or shared tiles (views too), keys and
 * values each either kind.
 *
 * Suppose k holds [3 1 2 1] (i32) and v holds [10 11 12 13]:
 *   tile_sort(k)               k = [1 1 2 3]
 *   tile_sort_pairs(k, v)      k = [1 1 2 3], v = [11 13 12 10]
 *
 * Also: descending and bit-range sorts (CUB's SortDescending, begin_bit /
 * end_bit), per-row sorts of 2D tiles (tile_sort_rows...) and a stable merge
 * sort of any element type by a user comparator (tile_merge_sort...): see
 * their sections below.
 *
 * Keys: f32, f64, i32, u32, i64, u64, tile_f16, tile_bf16 (16-bit floats
 * order like f32: bits as an order-preserving u16). Values: any element type (scalars,
 * vectors, matrices, user structs), one tile of the same length and block
 * size as the keys; keys and values must not share memory.
 * Length: any tile length n (not only powers of two) with ceil(n / block) *
 * block <= 65535; any block size. A tile of 2+ dims is sorted as its
 * row-major flattening (element (i, j) of an R x C tile is element i*C + j):
 * reshape it, or sort each row as a 1D tile, to sort rows separately.
 *
 * Order: ascending by a total order. Integers in their natural order.
 * Floating point by the bits (IEEE 754 totalOrder):
 *   -NaN < -inf < ... < -1 < ... < -0.0 < +0.0 < ... < 1 < ... < +inf < +NaN
 * -0.0 comes before +0.0 (they are different keys), NaNs sort to the ends by
 * their sign bit (among themselves by payload), so the result is
 * deterministic for every input: the same bits on the GPU and the CPU.
 * (cub::BlockRadixSort instead treats -0.0 and +0.0 as equal keys.)
 * Stable: keys with the same bits keep their input (linear) order, so the
 * values of equal keys stay in input order.
 *
 * How it runs on the GPU (block of B threads, n keys, S = ceil(n / B)):
 *  - keys map to unsigned integers whose unsigned order is the order above
 *    (floats: negative ones have all bits flipped, others the sign bit;
 *    signed integers: the sign bit flipped);
 *  - a block AND / OR of all keys tells which 4-bit digits differ between
 *    keys; passes over digits that are the same in every key are skipped
 *    (small integers, keys of one sign, all-equal tiles cost few or no
 *    passes); a tile whose keys are all equal is left as it is;
 *  - thread t owns the contiguous chunk [t*S, t*S + S) of the current order;
 *    a pass counts the chunk's digits in per-thread counters in shared
 *    memory (16 digits as 2 x 16-bit counters in 8 words, one padding word
 *    against bank conflicts), scans the counters of all threads in
 *    digit-major order (a raking scan: 9 words per thread, warp shuffles,
 *    one word per warp across warps), and scatters every key (and value) to
 *    its rank in a staging buffer, from which the next pass reads its chunk:
 *    4 barriers per pass, 8 passes for 32-bit keys, 16 for 64-bit keys;
 *  - 32-bit keys in blocks of 1, 16 or 256 threads are held with their bits
 *    permuted (tile__sort_perm; undone as the sorted keys are written back)
 *    so that one rotation and one mask give a key's counter in every pass,
 *    and with chunks in registers a key is counted with one shared atomic
 *    add on its counter word (the sort is bound by shared-memory accesses,
 *    so one access instead of a load and a store);
 *  - a register tile's striped slots (element t + s*B in thread t) go
 *    through the staging buffer once to become chunks, and the last pass
 *    reads the sorted tile back striped; a keys-only sort of a register tile
 *    whose length is a multiple of B skips that first exchange (equal keys
 *    are indistinguishable, so the first pass may take the slots in any
 *    order); a shared tile is read in chunks directly and the last pass
 *    scatters straight into it;
 *  - chunks of S <= TILE_SORT_REG_CHUNK keys live in registers between
 *    passes; longer chunks (long tiles, few threads) stay in shared memory,
 *    in two staging buffers used in turn.
 *  - chunk positions past the end (n not a multiple of B) are simply not
 *    counted or scattered: they come last in the chunk order, so they take
 *    no rank from a real key.
 * Staging memory (keys, values when sorting pairs, counters) comes from a
 * static shared buffer (TILE_STATIC_SMEM: nothing to budget) when it fits
 * TILE_SORT_STATIC_MAX_BYTES, else from the kernel's arena, released before
 * the sort returns. The decision is made on the size the tile would need as
 * pairs with values as large as its keys, so a keys-only sort and a pairs
 * sort of one tile decide alike; static buffers come in size classes
 * (TILE_SORT_STATIC_MAX_BYTES / 2^k) that sorts in one kernel share.
 * TILE_SORT_SMEM_BYTES(K, n, block) / TILE_SORT_PAIRS_SMEM_BYTES(K, V, n,
 * block) give the arena bytes to budget in TILE_KERNEL_SMEM (0 when the
 * static buffer is used), e.g.
 *   TILE_KERNEL_SMEM(k, 1024, TILE_SORT_PAIRS_SMEM_BYTES(double, int32_t, 8192, 1024), ...)
 * A 256-thread sort of 4096 f32 keys (with or without 4-byte values) is
 * static: 44 KiB. A kernel's static shared memory is limited to 48 KiB in
 * all, so sorts of different size classes, scans and other static buffers
 * in one kernel can exceed it (a ptxas error): lower
 * TILE_SORT_STATIC_MAX_BYTES (more sorts use the arena) in that case. The
 * sort writes its static buffer only after a barrier, so another operation
 * sharing the buffer may run right before it.
 * Registers: with chunks in registers a thread holds its S keys, S counts
 * (packed with their digits for keys other than the permuted ones) and S
 * values (256 threads x 16 f32 keys: 64 registers for keys, 80 for keys +
 * u32 values on sm_90, so 4 and 3 blocks per SM; no stack, no spills).
 * On the CPU (block_dim 1) the one thread runs the same passes over its
 * slots, with the staging buffers on its stack (a few times the tile's own
 * size).
 */
#ifndef TILE_SORT_H
#define TILE_SORT_H

#include "reduce.h"
#include "half.h"

/* Largest staging buffer taken from static shared memory (which is limited
 * to 48 KiB per kernel together with the reduction scratch and other static
 * buffers of the kernel: lower this if they add up). */
#ifndef TILE_SORT_STATIC_MAX_BYTES
#define TILE_SORT_STATIC_MAX_BYTES (44 * 1024)
#endif
/* Longest per-thread chunk kept in registers between passes. */
#ifndef TILE_SORT_REG_CHUNK
#define TILE_SORT_REG_CHUNK 16
#endif

/* ---- keys as ordered unsigned integers ---- */
TILE_API uint32_t tile__sort_enc_u32(uint32_t x) { return x; }
TILE_API uint32_t tile__sort_enc_i32(int32_t x) { return (uint32_t)x ^ 0x80000000u; }
TILE_API uint32_t tile__sort_enc_f32(float x) {
    uint32_t b;
    memcpy(&b, &x, sizeof(b));
    return b ^ ((0u - (b >> 31)) | 0x80000000u); /* negative: all bits; else the sign */
}
TILE_API uint16_t tile__sort_enc_f16(tile_f16 x) {
    const uint32_t b = x.bits; /* as f32: negative all bits flipped, else the sign */
    return (uint16_t)(b ^ ((0u - (b >> 15)) | 0x8000u));
}
TILE_API uint16_t tile__sort_enc_bf16(tile_bf16 x) { return tile__sort_enc_f16(tile_f16_from_bits(x.bits)); }
TILE_API uint64_t tile__sort_enc_u64(uint64_t x) { return x; }
TILE_API uint64_t tile__sort_enc_i64(int64_t x) { return (uint64_t)x ^ 0x8000000000000000ull; }
TILE_API uint64_t tile__sort_enc_f64(double x) {
    uint64_t b;
    memcpy(&b, &x, sizeof(b));
    return b ^ ((0ull - (b >> 63)) | 0x8000000000000000ull);
}
TILE_API uint32_t tile__sort_dec_u32(uint32_t k) { return k; }
TILE_API int32_t tile__sort_dec_i32(uint32_t k) {
    const uint32_t b = k ^ 0x80000000u;
    int32_t x;
    memcpy(&x, &b, sizeof(x));
    return x;
}
TILE_API float tile__sort_dec_f32(uint32_t k) {
    const uint32_t b = k ^ (((k >> 31) - 1u) | 0x80000000u); /* top bit set: was >= +0 */
    float x;
    memcpy(&x, &b, sizeof(x));
    return x;
}
TILE_API tile_f16 tile__sort_dec_f16(uint16_t k) {
    const uint32_t b = (uint32_t)k ^ ((((uint32_t)k >> 15) - 1u) | 0x8000u);
    return tile_f16_from_bits((uint16_t)b);
}
TILE_API tile_bf16 tile__sort_dec_bf16(uint16_t k) { return tile_bf16_from_bits(tile__sort_dec_f16(k).bits); }
TILE_API uint64_t tile__sort_dec_u64(uint64_t k) { return k; }
TILE_API int64_t tile__sort_dec_i64(uint64_t k) {
    const uint64_t b = k ^ 0x8000000000000000ull;
    int64_t x;
    memcpy(&x, &b, sizeof(x));
    return x;
}
TILE_API double tile__sort_dec_f64(uint64_t k) {
    const uint64_t b = k ^ (((k >> 63) - 1u) | 0x8000000000000000ull);
    double x;
    memcpy(&x, &b, sizeof(x));
    return x;
}
/* TILE__SORT_ENC(x): the ordered key of x. TILE__SORT_DEC(T, k): the T whose
 * key is k (T named through a null pointer: no slot's address is taken). */
#if defined(__cplusplus)
TILE_API uint32_t tile__sort_enc(float x) { return tile__sort_enc_f32(x); }
TILE_API uint64_t tile__sort_enc(double x) { return tile__sort_enc_f64(x); }
TILE_API uint32_t tile__sort_enc(int32_t x) { return tile__sort_enc_i32(x); }
TILE_API uint32_t tile__sort_enc(uint32_t x) { return tile__sort_enc_u32(x); }
TILE_API uint64_t tile__sort_enc(int64_t x) { return tile__sort_enc_i64(x); }
TILE_API uint64_t tile__sort_enc(uint64_t x) { return tile__sort_enc_u64(x); }
TILE_API uint16_t tile__sort_enc(tile_f16 x) { return tile__sort_enc_f16(x); }
TILE_API uint16_t tile__sort_enc(tile_bf16 x) { return tile__sort_enc_bf16(x); }
TILE_API float tile__sort_dec(uint32_t k, const float *) { return tile__sort_dec_f32(k); }
TILE_API double tile__sort_dec(uint64_t k, const double *) { return tile__sort_dec_f64(k); }
TILE_API int32_t tile__sort_dec(uint32_t k, const int32_t *) { return tile__sort_dec_i32(k); }
TILE_API uint32_t tile__sort_dec(uint32_t k, const uint32_t *) { return tile__sort_dec_u32(k); }
TILE_API int64_t tile__sort_dec(uint64_t k, const int64_t *) { return tile__sort_dec_i64(k); }
TILE_API uint64_t tile__sort_dec(uint64_t k, const uint64_t *) { return tile__sort_dec_u64(k); }
TILE_API tile_f16 tile__sort_dec(uint16_t k, const tile_f16 *) { return tile__sort_dec_f16(k); }
TILE_API tile_bf16 tile__sort_dec(uint16_t k, const tile_bf16 *) { return tile__sort_dec_bf16(k); }
#define TILE__SORT_ENC(x) tile__sort_enc(x)
#define TILE__SORT_DEC(T, k) tile__sort_dec((k), (const T *)0)
#else
#define TILE__SORT_ENC(x)                                                          \
    _Generic((x), float: tile__sort_enc_f32, double: tile__sort_enc_f64,           \
             int32_t: tile__sort_enc_i32, uint32_t: tile__sort_enc_u32,            \
             int64_t: tile__sort_enc_i64, uint64_t: tile__sort_enc_u64,            \
             tile_f16: tile__sort_enc_f16, tile_bf16: tile__sort_enc_bf16)(x)
#define TILE__SORT_DEC(T, k)                                                       \
    _Generic((T *)0, float *: tile__sort_dec_f32, double *: tile__sort_dec_f64,    \
             int32_t *: tile__sort_dec_i32, uint32_t *: tile__sort_dec_u32,        \
             int64_t *: tile__sort_dec_i64, uint64_t *: tile__sort_dec_u64,        \
             tile_f16 *: tile__sort_dec_f16, tile_bf16 *: tile__sort_dec_bf16)(k)
#endif

/* ---- digit-interleaved keys (32-bit keys, blocks of 1, 16 or 256) ----
 * The counter of digit d (bits 4p..4p+3 of pass p) for thread t sits at byte
 * ((d & 7) * B + t) * 4 + (d >> 3) * 2 of the counters: the digit's top bit
 * at address bit 1, its low three bits at bits L..L+2 (4B = 2^L). For
 * L = 2, 6 or 10 the key's bits can be stored permuted so that one rotation
 * and one mask give both fields of every pass: the top bit of digit p moves
 * to bit 4p, its low bits to 4p+L-1..4p+L+1 (mod 32: 4p+L-1 = 4(p+k)+1, so
 * the pattern tiles the word). Pass p then takes (rotr(key, 4p-1) & mask)
 * | 4t as the counter's byte offset (2 instructions instead of 6). */
#if TILE_ON_DEVICE
#define TILE__SORT_ROTR32(x, r) __funnelshift_r((x), (x), (r))
#else
#define TILE__SORT_ROTR32(x, r) (((x) >> ((r)&31u)) | ((x) << ((32u - ((r)&31u)) & 31u)))
#endif
TILE_API uint32_t tile__sort_perm(uint32_t x, unsigned k) {
    const uint32_t l = x & 0x77777777u;
    return ((x >> 3) & 0x11111111u) | (l << k) | (l >> (32u - k));
}
TILE_API uint32_t tile__sort_unperm(uint32_t e, unsigned k) {
    const uint32_t l = e & 0xeeeeeeeeu;
    return ((e & 0x11111111u) << 3) | (l >> k) | (l << (32u - k));
}

TILE_API uint32_t tile__sort_fcount_rmw(uint16_t *ctr) {
    const uint32_t c = *ctr;
    *ctr = (uint16_t)(c + 1u);
    return c;
}
#if TILE_ON_DEVICE
/* y: the rotated key (the digit's top bit at bit 1, its low bits in lmask) */
TILE_API uint32_t tile__sort_fcount(unsigned char *cnt, uint32_t y, uint32_t lmask, uint32_t t4) {
    const uint32_t sh = (y & 2u) << 3; /* 16 * the digit's top bit: the counter's half */
    const uint32_t old = atomicAdd((uint32_t *)(cnt + ((y & lmask) | t4)), 1u << sh);
    return (old >> sh) & 0xffffu;
}
#endif

/* ---- warp steps (device); hooks so that tests can run the block algorithm
 * with simulated threads ---- */
/* inclusive sum over the lanes in mask */
TILE_API uint32_t tile__sort_warp_scan(uint32_t x, unsigned mask, int lane) {
#if TILE_ON_DEVICE
    (void)lane;
    /* the shuffle's predicate (source lane in range) guards the add */
    TILE__UNROLL for (int d = 1; d < 32; d *= 2)
        asm("{\n\t.reg .u32 r;\n\t.reg .pred p;\n\t"
            "shfl.sync.up.b32 r|p, %1, %2, 0, %3;\n\t"
            "@p add.u32 r, r, %1;\n\t"
            "mov.u32 %0, r;\n\t}"
            : "=r"(x)
            : "r"(x), "r"(d), "r"(mask));
#else
    (void)mask;
    (void)lane;
#endif
    return x;
}
/* AND and OR over the act lanes in mask; the result is valid in lane 0 */
TILE_API void tile__sort_warp_andor(uint32_t *a, uint32_t *o, unsigned mask, int lane, int act) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    (void)lane;
    (void)act;
    *a = __reduce_and_sync(mask, *a);
    *o = __reduce_or_sync(mask, *o);
#elif TILE_ON_DEVICE
    TILE__UNROLL for (int d = 16; d >= 1; d /= 2) {
        const uint32_t x = __shfl_down_sync(mask, *a, d), y = __shfl_down_sync(mask, *o, d);
        if (lane + d < act) {
            *a &= x;
            *o |= y;
        }
    }
#else
    (void)a;
    (void)o;
    (void)mask;
    (void)lane;
    (void)act;
#endif
}
#ifndef TILE__SORT_WARP_SCAN
#define TILE__SORT_WARP_SCAN(x, mask, lane) tile__sort_warp_scan((x), (mask), (lane))
#endif
#ifndef TILE__SORT_WARP_ANDOR
#define TILE__SORT_WARP_ANDOR(a, o, mask, lane, act) tile__sort_warp_andor(&(a), &(o), (mask), (lane), (act))
#endif

/* hide a value's origin from the compiler (so that it recomputes a counter
 * address from it instead of keeping 16 addresses live across barriers) */
#if TILE_ON_DEVICE
#define TILE__SORT_OPAQUE(x) asm("" : "+r"(x))
#else
#define TILE__SORT_OPAQUE(x) ((void)0)
#endif
/* compiler-only fence between clearing the counters as words and counting
 * in their 16-bit halves (no barrier separates the two; the union makes the
 * aliasing legal, the fence makes sure no alias analysis reorders them) */
#if TILE_ON_DEVICE
#define TILE__SORT_FENCE() asm volatile("" ::: "memory")
#else
#define TILE__SORT_FENCE() ((void)0)
#endif
/* loops over the warps' partial results: unrolled by 8 at most, so that
 * 32 warps' worth of loads are not all in flight at once */
#if TILE_ON_DEVICE
#define TILE__SORT_UNROLL8 _Pragma("unroll 8")
#else
#define TILE__SORT_UNROLL8
#endif

/* ---- staging memory ----
 * Layout: key buffer(s), value buffer(s), counters (9 words per thread),
 * warp sums. Buffers hold n elements with one padding element per 128 bytes
 * (4-, 8- and 16-byte elements) so that chunk reads hit distinct banks:
 * element e sits at e + e / P. Two of each when chunks stay in shared memory. */
#define TILE__SORT_A16(x) ((((size_t)(x)) + 15u) & ~(size_t)15u)
#define TILE__SORT_PERIOD(esz) ((esz) <= 16 && 128 % (esz) == 0 ? 128 / (esz) : 0x40000000)
#define TILE__SORT_BUFBYTES(esz, n) TILE__SORT_A16(((size_t)(n) + ((size_t)(n)-1) / TILE__SORT_PERIOD(esz)) * (esz))
#define TILE__SORT_NBUF(n, b) ((((n) + (b)-1) / (b)) <= TILE_SORT_REG_CHUNK ? 1 : 2)
#define TILE__SORT_BYTES(ksz, vsz, hasv, n, b)                                      \
    (TILE__SORT_NBUF(n, b) * (TILE__SORT_BUFBYTES(ksz, n) + ((hasv) ? TILE__SORT_BUFBYTES(vsz, n) : 0)) + \
     (size_t)36 * (size_t)(b) + TILE__SORT_A16(((b) + 31) / 32 * 4))
/* Where the staging lives is decided on the "sizing bytes": the bytes of a
 * pairs sort whose values are at least as large as the keys. So a keys-only
 * sort and a pairs sort of one tile (values no larger than the keys) decide
 * alike and share one static buffer. Static staging comes in size classes
 * TILE_SORT_STATIC_MAX_BYTES / 2^k (k = 0..5), so that sorts of different
 * sizes in one kernel mostly share one buffer too (each distinct size is a
 * separate static array, and a kernel's static shared memory must fit
 * 48 KiB). */
#define TILE__SORT_SIZING(ksz, vsz, n, b) TILE__SORT_BYTES(ksz, (vsz) > (ksz) ? (vsz) : (ksz), 1, n, b)
#define TILE__SORT_CL(k) (((size_t)(TILE_SORT_STATIC_MAX_BYTES) >> (k)) & ~(size_t)15u)
#define TILE__SORT_CLASS(bytes)                                                    \
    ((bytes) <= TILE__SORT_CL(5) ? TILE__SORT_CL(5) : (bytes) <= TILE__SORT_CL(4) ? TILE__SORT_CL(4) \
     : (bytes) <= TILE__SORT_CL(3) ? TILE__SORT_CL(3) : (bytes) <= TILE__SORT_CL(2) ? TILE__SORT_CL(2) \
     : (bytes) <= TILE__SORT_CL(1) ? TILE__SORT_CL(1) : TILE__SORT_CL(0))
#define TILE__SORT_STATIC(sizing) ((size_t)(sizing) <= (size_t)(TILE_SORT_STATIC_MAX_BYTES))
/* Arena bytes a sort needs on the GPU (0: it uses static shared memory), for
 * a tile of n keys of type K (and values of type V) in blocks of `block`:
 *   TILE_SORT_SMEM_BYTES(float, 4096, 256) == 0
 *   TILE_SORT_PAIRS_SMEM_BYTES(double, double, 4096, 256) == 78880 */
#define TILE_SORT_SMEM_BYTES(K, n, block)                                          \
    ((size_t)(TILE__SORT_STATIC(TILE__SORT_SIZING(sizeof(K), sizeof(K), n, block)) ? 0 \
              : TILE__SORT_BYTES(sizeof(K), 1, 0, n, block)))
#define TILE_SORT_PAIRS_SMEM_BYTES(K, V, n, block)                                 \
    ((size_t)(TILE__SORT_STATIC(TILE__SORT_SIZING(sizeof(K), sizeof(V), n, block)) ? 0 \
              : TILE__SORT_BYTES(sizeof(K), sizeof(V), 1, n, block)))

#ifndef TILE__SORT_BUF
#if TILE_ON_DEVICE
#define TILE__SORT_BUF(p, bytes, sizing)                                           \
    const int p##__mark = tile_smem_mark();                                       \
    unsigned char *const p = TILE__SORT_STATIC(sizing)                             \
        ? TILE_STATIC_SMEM(TILE__SORT_CLASS((size_t)(sizing)))                    \
        : (unsigned char *)TILE__SMEM_TAKE((size_t)(bytes))
#define TILE__SORT_BUF_END(p, sizing)                                              \
    do {                                                                           \
        if (!TILE__SORT_STATIC(sizing)) tile_smem_release(p##__mark);              \
        (void)p##__mark;                                                           \
    } while (0)
#else
#define TILE__SORT_BUF(p, bytes, sizing)                                           \
    union {                                                                        \
        max_align_t a;                                                             \
        unsigned char b[bytes];                                                    \
    } p##__u;                                                                      \
    unsigned char *const p = p##__u.b
#define TILE__SORT_BUF_END(p, sizing) ((void)0)
#endif
#endif

/* ---- the sort ---- */
#define tile_sort(keys) TILE__SORT(keys, keys, 0)
#define tile_sort_pairs(keys, values) TILE__SORT(keys, values, 1)
#define TILE__SORT(K, V, HASV) TILE__SORT_G(K, V, HASV, 0, 0, 0, 0, "tile_sort")

/* Descending, and a bit range (CUB's SortDescending and begin_bit/end_bit):
 *   tile_sort_descending(keys)                 tile_sort_pairs_descending(keys, values)
 *   tile_sort_bits(keys, begin, end)           tile_sort_pairs_bits(keys, values, begin, end)
 *   tile_sort_descending_bits(keys, begin, end)
 *   tile_sort_pairs_descending_bits(keys, values, begin, end)
 * Descending is the exact reverse of the ascending order (NaN > +inf,
 * +0.0 before -0.0), still stable: equal keys keep their input order.
 * A bit range sorts by bits [begin, end) of the ordered key (the key as the
 * unsigned integer whose order is the sort's order: for signed integers and
 * floats the sign bit is flipped, negative floats have all bits flipped, as
 * CUB's twiddled keys), stable among keys equal in those bits; the keys
 * keep all their bits. begin and end are compile-time constants with
 * 0 <= begin < end <= the key's bits (else a compile-time error).
 * With both, the bits are those of the flipped (descending) key, as CUB.
 * Suppose k holds [0x13 0x21 0x12 0x24] (u32) and v [0 1 2 3]:
 *   tile_sort_descending(k)              k = [0x24 0x21 0x13 0x12]
 *   tile_sort_bits(k, 0, 4)              k = [0x21 0x12 0x13 0x24] (low digit only)
 *   tile_sort_pairs_descending_bits(k, v, 4, 8)
 *                                        k = [0x21 0x24 0x13 0x12], v = [1 3 0 2]
 * Only the 4-bit digits inside the range are sorted on (for 32-bit keys and a
 * range [16, 32): 4 passes instead of 8); a range whose ends are not
 * multiples of 4 masks the digits at its ends (and turns off the permuted
 * counters); a keys-only register sort with a range gives up the first pass
 * on striped slots (keys equal in the range are not indistinguishable). */
#define tile_sort_descending(keys) TILE__SORT_G(keys, keys, 0, 1, 0, 0, 0, "tile_sort_descending")
#define tile_sort_pairs_descending(keys, values) \
    TILE__SORT_G(keys, values, 1, 1, 0, 0, 0, "tile_sort_pairs_descending")
#define tile_sort_bits(keys, begin_bit, end_bit) \
    TILE__SORT_G(keys, keys, 0, 0, 1, begin_bit, end_bit, "tile_sort_bits")
#define tile_sort_pairs_bits(keys, values, begin_bit, end_bit) \
    TILE__SORT_G(keys, values, 1, 0, 1, begin_bit, end_bit, "tile_sort_pairs_bits")
#define tile_sort_descending_bits(keys, begin_bit, end_bit) \
    TILE__SORT_G(keys, keys, 0, 1, 1, begin_bit, end_bit, "tile_sort_descending_bits")
#define tile_sort_pairs_descending_bits(keys, values, begin_bit, end_bit) \
    TILE__SORT_G(keys, values, 1, 1, 1, begin_bit, end_bit, "tile_sort_pairs_descending_bits")

/* mask of bits [b, e) of a 64-bit word (0 <= b < e <= 64) */
#define TILE__SORT_RMASK(b, e) \
    (((e) >= 64 ? ~0ull : (1ull << ((e)&63)) - 1ull) & ~((1ull << ((b)&63)) - 1ull))

/* DESC: descending; RANGED: sort by bits [BB, EB) only; OP: the name in
 * compile-time errors */
#define TILE__SORT_G(K, V, HASV, DESC, RANGED, BB, EB, OP) TILE__SORT_GK(K, V, HASV, DESC, RANGED, BB, EB, OP, 0)
/* KEEP 1 (for tile/histogram.h): where the sort is a keys-only, ascending,
 * full-range sort of a register tile with chunks in registers in a block of
 * 2+ threads (TILE__SORT_KEEPS), the sorted keys are left in the staging
 * buffer instead of the tile: element p's internal key (TILE__SORT_KEEP_U32
 * gives a u32 key back) at word p + p / TILE__SORT_PERIOD(4), readable by
 * every thread (a barrier follows the last write); the tile keeps its input.
 * The buffer is the sort's static one (the caller takes it again with the
 * same sizing; only where TILE__SORT_STATIC) and the sort writes nothing at
 * or past TILE__SORT_BYTES(4, 4, 0, n, block). Elsewhere KEEP is ignored.
 * KEEP 3 (narrow; u32 keys only, every key < 256, which the caller
 * guarantees): the same, but the staging holds the internal keys as u16
 * (they fit: the digit interleaving of an 8-bit key stays below bit 16)
 * without padding, element p at halfword p, so a thread's chunk of S keys
 * is read with S / 8 16-byte loads when S is a multiple of 8 (16 keys: 2
 * loads instead of 16); the result is left at halfword p. */
#define TILE__SORT_KEEPS(n, block) ((block) > 1 && ((n) + (block)-1) / (block) <= TILE_SORT_REG_CHUNK)
#define TILE__SORT_KEEP_U32(k, block)                                              \
    (((block) == 1 || (block) == 16 || (block) == 256)                             \
         ? tile__sort_unperm((uint32_t)(k), (block) == 256 ? 9u : (block) == 16 ? 5u : 1u) \
         : (uint32_t)(k))
#define TILE__SORT_GK(K, V, HASV, DESC, RANGED, BB, EB, OP, KEEP)                  \
    do {                                                                           \
        typedef TILE_ELEM_T(K) tile__K;                                            \
        typedef TILE__TYPEOF(TILE__SORT_ENC((K).v[0])) tile__U;                    \
        typedef TILE_ELEM_T(V) tile__V;                                            \
        TILE__STATIC_ASSERT(tile_size(K) == tile_size(V) && TILE__BD(K) == TILE__BD(V), \
                            "tile.h: " OP ": keys and values must be tiles of one length"); \
        TILE__STATIC_ASSERT(!(RANGED) || ((BB) >= 0 && (BB) < (EB) && (EB) <= 8 * (int)sizeof(tile__K)), \
                            "tile.h: " OP ": the bit range must be 0 <= begin_bit < end_bit <= the key's bits"); \
        enum {                                                                     \
            /* a bit range narrower than the key */                             \
            tile__RG = (RANGED) && !((BB) == 0 && (EB) == 8 * (int)sizeof(tile__K)),  \
            /* a range that cuts through a 4-bit digit: digits are masked */    \
            tile__RGM = tile__RG && ((BB) % 4 != 0 || (EB) % 4 != 0),             \
            tile__N = tile_size(K),                                                \
            tile__B = TILE__BD(K),                                                 \
            tile__S = (tile__N + tile__B - 1) / tile__B,                           \
            tile__NP = tile__S * tile__B, /* with padding to whole chunks */      \
            tile__REG = tile__S <= TILE_SORT_REG_CHUNK,                            \
            tile__NW = (tile__B + 31) / 32,                                        \
            tile__XP = TILE__SORT_PERIOD(sizeof(tile__U)),                         \
            tile__VP = TILE__SORT_PERIOD(sizeof(tile__V)),                         \
            tile__XB = (int)TILE__SORT_BUFBYTES(sizeof(tile__U), tile__N),         \
            tile__VB = (HASV) ? (int)TILE__SORT_BUFBYTES(sizeof(tile__V), tile__N) : 0, \
            tile__NBUF = tile__REG ? 1 : 2,                                        \
            tile__OV = tile__NBUF * tile__XB,                                      \
            tile__OC = tile__OV + tile__NBUF * tile__VB,                           \
            tile__OW = tile__OC + 36 * tile__B,                                    \
            tile__BYTES = tile__OW + (int)TILE__SORT_A16(tile__NW * 4),            \
            tile__SIZING = (int)TILE__SORT_SIZING(sizeof(tile__U), sizeof(tile__V), tile__N, tile__B), \
            tile__KSH = tile_is_shared(K),                                         \
            tile__VSH = (HASV) && tile_is_shared(V),                               \
            /* keys-only register tile of whole chunks: the first pass takes     \
             * the slots as they are */                                          \
            tile__VIRT = tile__REG && !tile__KSH && !(HASV) && tile__N % tile__B == 0 && !tile__RG, \
            /* digit-interleaved keys (see tile__sort_perm): 4B = 2^FL */        \
            tile__FD = sizeof(tile__U) == 4 && (tile__B == 1 || tile__B == 16 || tile__B == 256) && !tile__RGM, \
            tile__FL = tile__B == 256 ? 10 : tile__B == 16 ? 6 : 2,                \
            tile__FM = 2 | 7 << tile__FL,                                          \
            /* KEEP in effect, and narrow (see TILE__SORT_GK) */                  \
            tile__KEEP = ((KEEP)&1) && tile__REG && !tile__KSH && !(HASV) && !(DESC) && !tile__RG && tile__B > 1, \
            tile__NAR = tile__KEEP && ((KEEP)&2) && sizeof(tile__U) == 4           \
        };                                                                         \
        TILE__STATIC_ASSERT(sizeof(tile__U) == sizeof(tile__K),                    \
                            "tile.h: " OP ": keys are f32, f64, i32, u32, i64, u64, tile_f16 or tile_bf16"); \
        TILE__STATIC_ASSERT(tile__NP <= 65535,                                     \
                            "tile.h: " OP ": at most 65535 keys (rounded up to a multiple of the block size)"); \
        TILE__STATIC_ASSERT((size_t)tile__BYTES == TILE__SORT_BYTES(sizeof(tile__U), sizeof(tile__V), HASV, tile__N, tile__B), \
                            "tile.h: tile_sort: staging size mismatch");          \
        TILE__STATIC_ASSERT(tile__NW * 16 <= TILE_SCRATCH_BYTES / 2,               \
                            "tile.h: tile_sort: reduction scratch too small: raise TILE_SCRATCH_BYTES"); \
        TILE__COOP(); /* warp shuffles name every lane before the first barrier */ \
        const int tile__t = tile_thread();                                         \
        const int tile__lane = tile__t & 31, tile__w = tile__t >> 5;               \
        TILE__UNUSED const uint32_t tile__t4 = (uint32_t)tile__t << 2;            \
        const int tile__act = (tile__B % 32 == 0 || tile__B - tile__w * 32 >= 32) ? 32 : tile__B - tile__w * 32; \
        TILE__UNUSED const unsigned tile__mask = tile__act == 32 ? 0xffffffffu : (1u << tile__act) - 1u; \
        TILE__SORT_BUF(tile__buf, tile__BYTES, tile__SIZING);                      \
        tile__sort_cw *const tile__cnt = (tile__sort_cw *)(tile__buf + tile__OC);  \
        uint32_t *const tile__ws = (uint32_t *)(tile__buf + tile__OW);             \
        tile__U tile__and = (tile__U) ~(tile__U)0, tile__or = 0;                   \
        /* descending: all bits flipped; the bits a pass may look at */         \
        TILE__UNUSED const tile__U tile__FLIP = (DESC) ? (tile__U) ~(tile__U)0 : (tile__U)0; \
        TILE__UNUSED const tile__U tile__VM = tile__RG ? (tile__U)TILE__SORT_RMASK(BB, EB) : (tile__U) ~(tile__U)0; \
        TILE__UNUSED const tile__U tile__RM = tile__RGM ? tile__VM : (tile__U) ~(tile__U)0; \
        if (tile__REG) {                                                           \
            TILE__SORT_REG_(K, V, HASV, tile__KEEP, tile__NAR);                    \
        } else {                                                                   \
            TILE__SORT_SMEM_(K, V, HASV);                                          \
        }                                                                          \
        TILE__SORT_BUF_END(tile__buf, tile__SIZING);                               \
    } while (0)

/* Block AND / OR of tile__and / tile__or (one barrier); then tile__var (the
 * bits that differ between keys) and tile__last (the last pass to run). */
#define TILE__SORT_ANDOR_()                                                        \
    if (tile__B > 1) {                                                             \
        uint32_t tile__a0 = (uint32_t)tile__and, tile__o0 = (uint32_t)tile__or;    \
        uint32_t tile__a1 = (uint32_t)((uint64_t)tile__and >> 32), tile__o1 = (uint32_t)((uint64_t)tile__or >> 32); \
        TILE__SORT_WARP_ANDOR(tile__a0, tile__o0, tile__mask, tile__lane, tile__act); \
        if (sizeof(tile__U) == 8) TILE__SORT_WARP_ANDOR(tile__a1, tile__o1, tile__mask, tile__lane, tile__act); \
        uint32_t *const tile__x = (uint32_t *)tile__scratch_next(&tile__k);        \
        if (tile__lane == 0) {                                                     \
            tile__x[4 * tile__w] = tile__a0;                                       \
            tile__x[4 * tile__w + 1] = tile__o0;                                   \
            tile__x[4 * tile__w + 2] = tile__a1;                                   \
            tile__x[4 * tile__w + 3] = tile__o1;                                   \
        }                                                                          \
        tile_barrier();                                                            \
        tile__a0 = tile__a1 = ~0u;                                                 \
        tile__o0 = tile__o1 = 0u;                                                  \
        TILE__SORT_UNROLL8 for (int tile__q = 0; tile__q < tile__NW; ++tile__q) {  \
            tile__a0 &= tile__x[4 * tile__q];                                      \
            tile__o0 |= tile__x[4 * tile__q + 1];                                  \
            if (sizeof(tile__U) == 8) {                                            \
                tile__a1 &= tile__x[4 * tile__q + 2];                              \
                tile__o1 |= tile__x[4 * tile__q + 3];                              \
            }                                                                      \
        }                                                                          \
        tile__and = (tile__U)(((uint64_t)tile__a1 << 32) | tile__a0);              \
        tile__or = (tile__U)(((uint64_t)tile__o1 << 32) | tile__o0);               \
    }                                                                              \
    const tile__U tile__var = (tile__U)((tile__and ^ tile__or) & tile__VM);        \
    int tile__last = 0;                                                            \
    TILE__UNROLL for (int tile__q = 0; tile__q < (int)sizeof(tile__U) * 2; ++tile__q) \
        if ((tile__var >> (4 * tile__q)) & 15u) tile__last = tile__q;

/* Exclusive scan of the counters in digit-major order (words l*B + t):
 * thread t rakes words 9t .. 9t+8; B2 inside. The high 16-bit halves
 * (digits 8..15) start after all of the low halves (digits 0..7). */
#define TILE__SORT_SCAN_()                                                         \
    do {                                                                           \
        tile__sort_cw *const tile__seg = tile__cnt + 9 * tile__t;                  \
        uint32_t tile__cv[9], tile__sum = 0; /* kept across B2: not re-read */    \
        TILE__UNROLL for (int tile__i = 0; tile__i < 9; ++tile__i) {               \
            tile__cv[tile__i] = tile__seg[tile__i].w;                              \
            tile__sum += tile__cv[tile__i];                                        \
        }                                                                          \
        uint32_t tile__ex = 0, tile__tot = tile__sum;                              \
        if (tile__B > 1) {                                                         \
            const uint32_t tile__inc = TILE__SORT_WARP_SCAN(tile__sum, tile__mask, tile__lane); \
            if (tile__lane == tile__act - 1) tile__ws[tile__w] = tile__inc;        \
            tile_barrier();                                                        \
            uint32_t tile__pre = 0;                                                \
            tile__tot = 0;                                                         \
            TILE__SORT_UNROLL8 for (int tile__q = 0; tile__q < tile__NW; ++tile__q) { \
                const uint32_t tile__y = tile__ws[tile__q];                        \
                tile__pre += tile__q < tile__w ? tile__y : 0u;                     \
                tile__tot += tile__y;                                              \
            }                                                                      \
            tile__ex = tile__pre + tile__inc - tile__sum;                          \
        }                                                                          \
        tile__ex += tile__tot << 16;                                               \
        TILE__UNROLL for (int tile__i = 0; tile__i < 9; ++tile__i) {               \
            tile__seg[tile__i].w = tile__ex;                                       \
            tile__ex += tile__cv[tile__i];                                         \
        }                                                                          \
    } while (0)

/* staging index of element p (unsigned: the compiler sees that a chunk of a
 * power-of-two length never straddles a padding step) */
#define TILE__SORT_XI(p) ((p) + (int)((unsigned)(p) / (unsigned)tile__XP))
#define TILE__SORT_VI(p) ((p) + (int)((unsigned)(p) / (unsigned)tile__VP))
/* staging index of element t*S + j of the calling thread's chunk: a constant
 * offset from its first one when the chunk never straddles a padding step */
#define TILE__SORT_XC(j)                                                           \
    (tile__XP % tile__S == 0 ? TILE__SORT_XI(tile__t * tile__S) + (j) : TILE__SORT_XI(tile__t * tile__S + (j)))
#define TILE__SORT_VC(j)                                                           \
    (tile__VP % tile__S == 0 ? TILE__SORT_VI(tile__t * tile__S) + (j) : TILE__SORT_VI(tile__t * tile__S + (j)))
/* staging index of striped slot j of the calling thread (element t + j*B):
 * a constant offset from the thread's first one when B is a multiple of the
 * padding step */
#define TILE__SORT_XS(j)                                                           \
    (tile__B % tile__XP == 0 ? TILE__SORT_XI(tile__t) + (j) * (tile__B + tile__B / tile__XP) \
                             : TILE__SORT_XI(tile__t + (j) * tile__B))
#define TILE__SORT_VS(j)                                                           \
    (tile__B % tile__VP == 0 ? TILE__SORT_VI(tile__t) + (j) * (tile__B + tile__B / tile__VP) \
                             : TILE__SORT_VI(tile__t + (j) * tile__B))
/* Counters: word l*B + t holds the counts of digits l (low half) and l + 8
 * (high half) in thread t's chunk; the scan sees words, counting sees
 * halves (a union: both views may alias). */
typedef union {
    uint32_t w;
    uint16_t h[2];
} tile__sort_cw;
#define TILE__SORT_HALF(x) (tile__cnt[((uint32_t)(x)&7u) * (uint32_t)tile__B + (uint32_t)tile__t].h[((uint32_t)(x) >> 3) & 1u])
/* digit bits of key k in this pass (low 4 bits) */
#define TILE__SORT_X(k) ((uint32_t)(((k) & tile__RM) >> tile__bit))
/* digit-interleaved keys: byte offset of key k's counter (rotation rot =
 * 4 * pass - 1 mod 32), and the counter at byte offset o */
#define TILE__SORT_FOFF(k, rot) ((TILE__SORT_ROTR32((uint32_t)(k), (rot)) & (uint32_t)tile__FM) | tile__t4)
#if TILE_ON_DEVICE /* one byte offset (the union's form costs an add) */
#define TILE__SORT_FCTR(o) (*(uint16_t *)((unsigned char *)tile__cnt + (o)))
#else /* the union's form (strict aliasing: no barrier separates the views) */
#define TILE__SORT_FCTR(o) (tile__cnt[(o) >> 2].h[((o) >> 1) & 1u])
#endif
/* count key k in its counter (rotation rot); the count before it */
#if TILE_ON_DEVICE
/* one shared atomic add on the counter word (a load and a store otherwise) */
#define TILE__SORT_FCOUNT(k, rot) tile__sort_fcount((unsigned char *)tile__cnt, TILE__SORT_ROTR32((uint32_t)(k), (rot)), (uint32_t)tile__FM & ~2u, tile__t4)
#else
#define TILE__SORT_FCOUNT(k, rot) tile__sort_fcount_rmw(&TILE__SORT_FCTR(TILE__SORT_FOFF(k, rot)))
#endif
/* the counter of key k (internal form) in this pass */
#define TILE__SORT_CTR(k)                                                          \
    (*(tile__FD ? &TILE__SORT_FCTR(TILE__SORT_FOFF(k, tile__rot)) : &TILE__SORT_HALF(TILE__SORT_X(k))))
/* ordered key -> internal form (digit-interleaved when tile__FD), and an
 * internal key back to its element */
#define TILE__SORT_IN(x) (tile__FD ? (tile__U)tile__sort_perm((uint32_t)(x), tile__FL - 1) : (x))
#define TILE__SORT_OUT(k) \
    TILE__SORT_DEC(tile__K, (tile__U)((tile__FD ? (tile__U)tile__sort_unperm((uint32_t)(k), tile__FL - 1) : (k)) ^ tile__FLIP))
/* the ordered key of element x, flipped for a descending sort */
#define TILE__SORT_ENCD(x) ((tile__U)(TILE__SORT_ENC(x) ^ tile__FLIP))

/* A register tile's slots read back striped from a staging buffer (keys
 * decoded). Slots past the end are zeroed: otherwise the compiler keeps
 * their old contents alive in registers through the whole sort. */
#define TILE__SORT_OUTK_(t, buf)                                                   \
    TILE__UNROLL for (int tile__s = 0; tile__s < tile_slots(t); ++tile__s) {       \
        if (TILE__VALID(t, tile__s)) TILE__AT(t, tile__s) = TILE__SORT_OUT((buf)[TILE__SORT_XS(tile__s)]); \
        else memset(&TILE__AT(t, tile__s), 0, sizeof(tile__K));                    \
    }
#define TILE__SORT_OUTV_(t, buf)                                                   \
    TILE__UNROLL for (int tile__s = 0; tile__s < tile_slots(t); ++tile__s) {       \
        if (TILE__VALID(t, tile__s)) TILE__AT(t, tile__s) = (buf)[TILE__SORT_VS(tile__s)]; \
        else memset(&TILE__AT(t, tile__s), 0, sizeof(tile__V));                    \
    }

/* 16 bytes of shared memory at p (16-byte aligned) as 4 words: one load */
TILE_API void tile__sort_ld16(uint32_t *w, const void *p) {
#if TILE_ON_DEVICE
    const uint4 v = *(const uint4 *)p;
    w[0] = v.x;
    w[1] = v.y;
    w[2] = v.z;
    w[3] = v.w;
#else
    memcpy(w, p, 16);
#endif
}
/* NAR (narrow KEEP sorts): the calling thread's chunk of u16 internal keys
 * (halfwords t*S ..) into tile__sk: 16-byte loads when S is a multiple of
 * 8, else one halfword at a time; positions past the end are not read */
#define TILE__SORT_NRD_()                                                          \
    do {                                                                           \
        if (tile__S % 8 == 0) {                                                    \
            TILE__UNROLL for (int tile__g = 0; tile__g < tile__RS / 8; ++tile__g) { \
                uint32_t tile__w[4];                                               \
                if (tile__NP == tile__N || tile__t * tile__S + 8 * tile__g < tile__N) \
                    tile__sort_ld16(tile__w, tile__xh + tile__t * tile__S + 8 * tile__g); \
                else                                                               \
                    tile__w[0] = tile__w[1] = tile__w[2] = tile__w[3] = 0;         \
                TILE__UNROLL for (int tile__i = 0; tile__i < 8; ++tile__i)         \
                    tile__sk[8 * tile__g + tile__i] = (tile__w[tile__i >> 1] >> (16 * (tile__i & 1))) & 0xffffu; \
            }                                                                      \
        } else {                                                                   \
            TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j)      \
                if (tile__NP == tile__N || tile__t * tile__S + tile__j < tile__N)  \
                    tile__sk[tile__j] = tile__xh[tile__t * tile__S + tile__j];     \
        }                                                                          \
    } while (0)

/* Chunks in registers: keys tile__sk, values tile__sw, counter words and
 * then ranks tile__sr; one staging buffer. */
#define TILE__SORT_REG_(K, V, HASV, KEEP, NAR)                                     \
    enum { tile__RS = tile__REG ? tile__S : 1, tile__RV = (HASV) && tile__REG ? tile__S : 1 }; \
    tile__U tile__sk[tile__RS];                                                    \
    uint32_t tile__sr[tile__RS];                                                   \
    tile__V tile__sw[tile__RV];                                                    \
    tile__U *const tile__xb = (tile__U *)tile__buf;                                \
    TILE__UNUSED uint16_t *const tile__xh = (uint16_t *)tile__buf; /* NAR */      \
    tile__V *const tile__vb = (tile__V *)(tile__buf + tile__OV);                   \
    /* read: register tiles in slot order (element t + j*B), shared tiles in   \
     * chunk order (element t*S + j) */                                        \
    TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) {            \
        const int tile__p = tile__KSH ? tile__t * tile__S + tile__j : tile__t + tile__j * tile__B; \
        if (tile__KSH) {                                                           \
            if (tile__NP == tile__N || tile__p < tile__N) {                        \
                const tile__U tile__x = TILE__SORT_ENCD((K).v[TILE__OFF(K, tile__p)]); \
                tile__and &= tile__x;                                              \
                tile__or |= tile__x;                                               \
                tile__sk[tile__j] = TILE__SORT_IN(tile__x);                        \
            } else {                                                               \
                tile__sk[tile__j] = 0;                                             \
            }                                                                      \
        } else { /* a slot past the end: any key (never counted nor moved) */     \
            const tile__U tile__x = TILE__SORT_ENCD((K).v[tile__j]);                \
            if (tile__NP == tile__N || tile__p < tile__N) {                        \
                tile__and &= tile__x;                                              \
                tile__or |= tile__x;                                               \
            }                                                                      \
            tile__sk[tile__j] = TILE__SORT_IN(tile__x);                            \
        }                                                                          \
    }                                                                              \
    if (HASV) {                                                                    \
        TILE__UNROLL for (int tile__j = 0; tile__j < tile__RV; ++tile__j) {        \
            const int tile__p = tile__VSH ? tile__t * tile__S + tile__j : tile__t + tile__j * tile__B; \
            if (tile__NP == tile__N || tile__p < tile__N) {                        \
                if (tile__VSH) tile__sw[tile__j] = (V).v[TILE__OFF(V, tile__p)];   \
                else tile__sw[tile__j] = (V).v[tile__j];                           \
            } else {                                                               \
                memset(&tile__sw[tile__j], 0, sizeof(tile__V));                    \
            }                                                                      \
        }                                                                          \
    }                                                                              \
    TILE__SORT_ANDOR_();                                                           \
    if (tile__var != 0) {                                                          \
        /* register tiles: slots -> chunks through the staging buffer */          \
        if (tile__B > 1 && ((!tile__KSH && !tile__VIRT) || ((HASV) && !tile__VSH))) { \
            TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) {    \
                const int tile__p = tile__t + tile__j * tile__B;                   \
                if (tile__NP == tile__N || tile__p < tile__N) {                    \
                    if (!tile__KSH && !tile__VIRT) {                               \
                        if (NAR) tile__xh[tile__p] = (uint16_t)tile__sk[tile__j];  \
                        else tile__xb[TILE__SORT_XS(tile__j)] = tile__sk[tile__j]; \
                    }                                                              \
                    if ((HASV) && !tile__VSH) tile__vb[TILE__SORT_VS(tile__j)] = tile__sw[tile__j % tile__RV]; \
                }                                                                  \
            }                                                                      \
            tile_barrier();                                                        \
            TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) {    \
                const int tile__p = tile__t * tile__S + tile__j;                   \
                if (tile__NP == tile__N || tile__p < tile__N) {                    \
                    if (!tile__KSH && !tile__VIRT && !(NAR)) tile__sk[tile__j] = tile__xb[TILE__SORT_XC(tile__j)]; \
                    if ((HASV) && !tile__VSH) tile__sw[tile__j % tile__RV] = tile__vb[TILE__SORT_VC(tile__j)]; \
                } else if ((HASV) && !tile__VSH) {                                 \
                    memset(&tile__sw[tile__j % tile__RV], 0, sizeof(tile__V));     \
                }                                                                  \
            }                                                                      \
            if ((NAR) && !tile__VIRT) TILE__SORT_NRD_();                           \
        }                                                                          \
        for (int tile__pass = 0; tile__pass <= tile__last; ++tile__pass) {         \
            const int tile__bit = 4 * tile__pass;                                  \
            if (((tile__var >> tile__bit) & 15u) == 0) continue;                   \
            const int tile__fin = tile__pass == tile__last;                        \
            TILE__UNUSED const uint32_t tile__rot = (uint32_t)(tile__bit + 31) & 31u; \
            TILE__UNROLL for (int tile__l = 0; tile__l < 9; ++tile__l) tile__cnt[tile__l * tile__B + tile__t].w = 0; \
            TILE__SORT_FENCE();                                                    \
            TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) {    \
                if (!(tile__NP == tile__N || tile__t * tile__S + tile__j < tile__N)) { \
                    tile__sr[tile__j] = 0; /* past the end: not counted */         \
                } else if (tile__FD) {                                             \
                    /* the count before this key */                              \
                    tile__sr[tile__j] = TILE__SORT_FCOUNT(tile__sk[tile__j], tile__rot); \
                } else {                                                           \
                    const uint32_t tile__x = TILE__SORT_X(tile__sk[tile__j]);      \
                    const uint32_t tile__c = TILE__SORT_HALF(tile__x);             \
                    TILE__SORT_HALF(tile__x) = (uint16_t)(tile__c + 1u);           \
                    /* the count before this key, and its digit */               \
                    tile__sr[tile__j] = tile__c | (tile__x & 15u) << 16;           \
                    TILE__SORT_OPAQUE(tile__sr[tile__j]);                          \
                }                                                                  \
            }                                                                      \
            tile_barrier(); /* B1: counts complete */                             \
            TILE__SORT_SCAN_(); /* B2 inside */                                    \
            tile_barrier(); /* B3: prefixes complete */                           \
            if (tile__FD) {                                                        \
                /* recompute each counter's offset (an opaque copy of the       \
                 * rotation: not 16 offsets kept alive across the barriers) */  \
                uint32_t tile__rot2 = tile__rot;                                   \
                TILE__SORT_OPAQUE(tile__rot2);                                     \
                tile__rot2 += 32u; /* the same rotation; ptxas sees another one */ \
                TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) \
                    tile__sr[tile__j] += TILE__SORT_FCTR(TILE__SORT_FOFF(tile__sk[tile__j], tile__rot2)); \
            } else {                                                               \
                TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) { \
                    const uint32_t tile__x = tile__sr[tile__j] >> 16;              \
                    tile__sr[tile__j] = (tile__sr[tile__j] & 0xffffu) + TILE__SORT_HALF(tile__x); \
                }                                                                  \
            }                                                                      \
            TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) {    \
                const int tile__r = (int)tile__sr[tile__j];                        \
                if (tile__NP == tile__N || tile__t * tile__S + tile__j < tile__N) { \
                    if (tile__KSH && tile__fin) (K).v[TILE__OFF(K, tile__r)] = TILE__SORT_OUT(tile__sk[tile__j]); \
                    else if (NAR) tile__xh[tile__r] = (uint16_t)tile__sk[tile__j]; \
                    else tile__xb[TILE__SORT_XI(tile__r)] = tile__sk[tile__j]; \
                    if (HASV) {                                                    \
                        if (tile__VSH && tile__fin) (V).v[TILE__OFF(V, tile__r)] = tile__sw[tile__j % tile__RV]; \
                        else tile__vb[TILE__SORT_VI(tile__r)] = tile__sw[tile__j % tile__RV]; \
                    }                                                              \
                }                                                                  \
            }                                                                      \
            tile_barrier(); /* B4: scattered */                                   \
            if (!tile__fin && (NAR)) {                                             \
                TILE__SORT_NRD_();                                                 \
            } else if (!tile__fin) {                                               \
                TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) { \
                    const int tile__p = tile__t * tile__S + tile__j;               \
                    if (tile__NP == tile__N || tile__p < tile__N) {                \
                        tile__sk[tile__j] = tile__xb[TILE__SORT_XC(tile__j)];      \
                        if (HASV) tile__sw[tile__j % tile__RV] = tile__vb[TILE__SORT_VC(tile__j)]; \
                    }                                                              \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        /* after the loop, not in its last pass: the tile's old contents are \
         * then dead once read (not kept in registers through the passes) */  \
        if (!tile__KSH && !(KEEP)) TILE__SORT_OUTK_(K, tile__xb);                \
        if ((HASV) && !tile__VSH) TILE__SORT_OUTV_(V, tile__vb);                 \
    } else if (KEEP) { /* all keys equal (KEEP: keys only): the buffer gets them */ \
        TILE__UNROLL for (int tile__j = 0; tile__j < tile__RS; ++tile__j) {        \
            if (tile__NP == tile__N || tile__t + tile__j * tile__B < tile__N) {    \
                if (NAR) tile__xh[tile__t + tile__j * tile__B] = (uint16_t)tile__sk[tile__j]; \
                else tile__xb[TILE__SORT_XS(tile__j)] = tile__sk[tile__j];         \
            }                                                                      \
        }                                                                          \
        tile_barrier();                                                            \
    }

/* Chunks in shared memory: two key (and value) buffers used in turn; a
 * pass reads its chunk twice (count, then rank and scatter). */
#define TILE__SORT_SMEM_(K, V, HASV)                                               \
    tile__U *tile__xa = (tile__U *)tile__buf, *tile__xz = (tile__U *)(tile__buf + tile__XB); \
    tile__V *tile__va = (tile__V *)(tile__buf + tile__OV), *tile__vz = (tile__V *)(tile__buf + tile__OV + tile__VB); \
    tile_barrier(); /* an earlier operation may still read a buffer of this size */ \
    if (tile__KSH) { /* shared: a plain loop (nothing to keep in registers) */  \
        for (int tile__p = tile__t; tile__p < tile__N; tile__p += tile__B) {       \
            const tile__U tile__x = TILE__SORT_ENCD((K).v[TILE__OFF(K, tile__p)]);  \
            tile__xa[TILE__SORT_XI(tile__p)] = TILE__SORT_IN(tile__x);             \
            tile__and &= tile__x;                                                  \
            tile__or |= tile__x;                                                   \
        }                                                                          \
    } else {                                                                       \
        TILE__EACH(K, tile__s) {                                                   \
            const tile__U tile__x = TILE__SORT_ENCD(TILE__AT(K, tile__s));          \
            tile__xa[TILE__SORT_XS(tile__s)] = TILE__SORT_IN(tile__x);             \
            tile__and &= tile__x;                                                  \
            tile__or |= tile__x;                                                   \
        }                                                                          \
    }                                                                              \
    if ((HASV) && tile__VSH) {                                                     \
        for (int tile__p = tile__t; tile__p < tile__N; tile__p += tile__B)         \
            tile__va[TILE__SORT_VI(tile__p)] = (V).v[TILE__OFF(V, tile__p)];       \
    } else if (HASV) {                                                             \
        TILE__EACH(V, tile__s) { tile__va[TILE__SORT_VS(tile__s)] = TILE__AT(V, tile__s); } \
    }                                                                              \
    TILE__SORT_ANDOR_(); /* its barrier also publishes the buffers */             \
    if (tile__var != 0) {                                                          \
        for (int tile__pass = 0; tile__pass <= tile__last; ++tile__pass) {         \
            const int tile__bit = 4 * tile__pass;                                  \
            if (((tile__var >> tile__bit) & 15u) == 0) continue;                   \
            const int tile__fin = tile__pass == tile__last;                        \
            TILE__UNUSED const uint32_t tile__rot = (uint32_t)(tile__bit + 31) & 31u; \
            TILE__UNROLL for (int tile__l = 0; tile__l < 9; ++tile__l) tile__cnt[tile__l * tile__B + tile__t].w = 0; \
            TILE__SORT_FENCE();                                                    \
            for (int tile__j = 0; tile__j < tile__S; ++tile__j) {                  \
                const int tile__p = tile__t * tile__S + tile__j;                   \
                if (tile__NP != tile__N && tile__p >= tile__N) break;              \
                const tile__U tile__x = tile__xa[TILE__SORT_XI(tile__p)];    \
                TILE__SORT_CTR(tile__x) = (uint16_t)(TILE__SORT_CTR(tile__x) + 1u); \
            }                                                                      \
            tile_barrier(); /* B1 */                                               \
            TILE__SORT_SCAN_(); /* B2 */                                           \
            tile_barrier(); /* B3 */                                               \
            for (int tile__j = 0; tile__j < tile__S; ++tile__j) {                  \
                const int tile__p = tile__t * tile__S + tile__j;                   \
                if (tile__NP != tile__N && tile__p >= tile__N) break;              \
                const tile__U tile__x = tile__xa[TILE__SORT_XI(tile__p)];    \
                const int tile__r = TILE__SORT_CTR(tile__x);                       \
                TILE__SORT_CTR(tile__x) = (uint16_t)(tile__r + 1);                 \
                if (tile__KSH && tile__fin) (K).v[TILE__OFF(K, tile__r)] = TILE__SORT_OUT(tile__x); \
                else tile__xz[TILE__SORT_XI(tile__r)] = tile__x;             \
                if (HASV) {                                                        \
                    if (tile__VSH && tile__fin) (V).v[TILE__OFF(V, tile__r)] = tile__va[TILE__SORT_VI(tile__p)]; \
                    else tile__vz[TILE__SORT_VI(tile__r)] = tile__va[TILE__SORT_VI(tile__p)]; \
                }                                                                  \
            }                                                                      \
            tile_barrier(); /* B4 */                                               \
            {                                                                      \
                tile__U *const tile__xt = tile__xa;                                \
                tile__xa = tile__xz;                                               \
                tile__xz = tile__xt;                                               \
                tile__V *const tile__vt = tile__va;                                \
                tile__va = tile__vz;                                               \
                tile__vz = tile__vt;                                               \
            }                                                                      \
        }                                                                          \
        if (!tile__KSH) TILE__SORT_OUTK_(K, tile__xa);                           \
        if ((HASV) && !tile__VSH) TILE__SORT_OUTV_(V, tile__va);                 \
    }

/* ==== per-row sorts of 2D tiles ====
 * tile_sort_rows(keys)                          each row ascending, independently
 * tile_sort_rows_descending(keys)
 * tile_sort_pairs_rows(keys, values)            values move with their keys
 * tile_sort_pairs_rows_descending(keys, values)
 * keys: a 2D tile (R x C, register or shared, views too) of any key type of
 * tile_sort; values: any element type, a tile of the same shape. Row r of
 * the result is row r of the input, sorted (stable: equal keys keep their
 * column order). Suppose k is the 2 x 3 tile [[3 1 2] [9 7 8]]:
 *   tile_sort_rows(k)              k = [[1 2 3] [7 8 9]]
 *   tile_sort_rows_descending(k)   k = [[3 2 1] [9 8 7]]
 * How: two stable block-wide radix sorts of the whole tile (every thread on
 * every row, so short rows cost no idle threads): by key carrying the row
 * index, then by row index (only its differing 4-bit digits: one pass for up
 * to 16 rows) carrying the keys (and, for pairs, the values together with the
 * keys in one struct). Same limits and staging as tile_sort. */
#define tile_sort_rows(keys) TILE__SORT_ROWS_K(keys, 0, "tile_sort_rows")
#define tile_sort_rows_descending(keys) TILE__SORT_ROWS_K(keys, 1, "tile_sort_rows_descending")
#define tile_sort_pairs_rows(keys, values) TILE__SORT_ROWS_P(keys, values, 0, "tile_sort_pairs_rows")
#define tile_sort_pairs_rows_descending(keys, values) \
    TILE__SORT_ROWS_P(keys, values, 1, "tile_sort_pairs_rows_descending")

/* row index of every slot of register tile R (u32), rows of C elements */
#define TILE__SORT_ROWIDX(R, C)                                                    \
    TILE__UNROLL for (int tile__s = 0; tile__s < tile_slots(R); ++tile__s)         \
        (R).v[tile__s] = TILE__VALID(R, tile__s) ? (uint32_t)(TILE__LIN(R, tile__s) / (C)) : 0u

#define TILE__SORT_ROWS_K(K, DESC, OP)                                             \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_ndim(K) == 2, "tile.h: " OP ": keys must be a 2D tile (rows x columns)"); \
        TILE__REG_TYPE(uint32_t, TILE__BD(K), tile_size(K)) tile__rrow;             \
        TILE__SORT_ROWIDX(tile__rrow, TILE__D1(K));                                 \
        TILE__SORT_G(K, tile__rrow, 1, DESC, 0, 0, 0, OP);                          \
        if (TILE__D0(K) > 1) TILE__SORT_G(tile__rrow, K, 1, 0, 0, 0, 0, OP);        \
    } while (0)

#define TILE__SORT_ROWS_P(K, V, DESC, OP)                                          \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_ndim(K) == 2, "tile.h: " OP ": keys must be a 2D tile (rows x columns)"); \
        TILE__STATIC_ASSERT(TILE__D0(K) == TILE__D0(V) && TILE__D1(K) == TILE__D1(V) && tile_ndim(V) == 2 && \
                                TILE__BD(K) == TILE__BD(V),                        \
                            "tile.h: " OP ": keys and values must be tiles of one shape"); \
        typedef TILE_ELEM_T(K) tile__rK;                                           \
        typedef TILE_ELEM_T(V) tile__rV;                                           \
        typedef struct {                                                           \
            tile__rK k;                                                            \
            tile__rV v;                                                            \
            uint32_t r;                                                            \
        } tile__rkv;                                                               \
        TILE__REG_TYPE(tile__rK, TILE__BD(K), tile_size(K)) tile__rkc;              \
        TILE__REG_TYPE(tile__rkv, TILE__BD(K), tile_size(K)) tile__rw;              \
        TILE__UNROLL for (int tile__s = 0; tile__s < tile_slots(tile__rw); ++tile__s) { \
            if (TILE__VALID(tile__rw, tile__s)) {                                   \
                tile__rkc.v[tile__s] = tile__rw.v[tile__s].k = TILE__AT(K, tile__s); \
                tile__rw.v[tile__s].v = TILE__AT(V, tile__s);                       \
                tile__rw.v[tile__s].r = (uint32_t)(TILE__LIN(tile__rw, tile__s) / TILE__D1(K)); \
            } else {                                                               \
                memset(&tile__rkc.v[tile__s], 0, sizeof(tile__rK));                 \
                memset(&tile__rw.v[tile__s], 0, sizeof(tile__rkv));                 \
            }                                                                      \
        }                                                                          \
        /* by key carrying (key, value, row); then by row */                      \
        TILE__SORT_G(tile__rkc, tile__rw, 1, DESC, 0, 0, 0, OP);                     \
        if (TILE__D0(K) > 1) {                                                     \
            TILE__REG_TYPE(uint32_t, TILE__BD(K), tile_size(K)) tile__rrow;         \
            TILE__UNROLL for (int tile__s = 0; tile__s < tile_slots(tile__rw); ++tile__s) \
                tile__rrow.v[tile__s] = tile__rw.v[tile__s].r;                       \
            TILE__SORT_G(tile__rrow, tile__rw, 1, 0, 0, 0, 0, OP);                   \
        }                                                                          \
        TILE__WRITE_BEGIN(K);                                                      \
        if (tile_is_shared(V) && !tile_is_shared(K)) tile_barrier();               \
        TILE__UNROLL for (int tile__s = 0; tile__s < tile_slots(tile__rw); ++tile__s) \
            if (TILE__VALID(tile__rw, tile__s)) {                                   \
                TILE__AT(K, tile__s) = tile__rw.v[tile__s].k;                       \
                TILE__AT(V, tile__s) = tile__rw.v[tile__s].v;                       \
            }                                                                      \
        TILE__WRITE_END(K);                                                        \
        if (tile_is_shared(V) && !tile_is_shared(K)) tile_barrier();               \
    } while (0)

/* ==== comparison (merge) sort ====
 * tile_merge_sort(keys, less)                  sort by a user comparator
 * tile_merge_sort_pairs(keys, values, less)    values move with their keys
 * Any element type (scalars, vectors, user structs) for keys and values;
 * register or shared tiles, any length and block size (a 2D tile sorts as
 * its row-major flattening). `less` is a function name, a function-like
 * macro or any expression f such that f(a, b) (two elements, by value) is
 * nonzero when a must come strictly before b: a strict weak order, as
 * CUB's BlockMergeSort compare_op. On the GPU it must be callable from
 * device code (declare it TILE_API). Stable: elements that compare equal
 * keep their input order.
 *   typedef struct { int32_t dept; float pay; } emp;
 *   TILE_API int by_dept(emp a, emp b) { return a.dept < b.dept; }
 *   ...
 *   tile_merge_sort(staff, by_dept);
 * Suppose staff holds [(2, 1.0) (1, 5.0) (2, 0.5) (1, 3.0)]: the result is
 * [(1, 5.0) (1, 3.0) (2, 1.0) (2, 0.5)] (equal depts in input order).
 * How (CUB's block merge sort): thread t takes the S = ceil(n / block)
 * consecutive elements t*S .. t*S+S-1 into registers and sorts them with a
 * stable odd-even transposition network (compile-time slot indices); then
 * log2(block) rounds merge pairs of sorted runs: the runs go to shared
 * memory, each thread finds where its S outputs start by a binary search
 * along the merge path and merges them serially into its registers
 * (2 barriers a round). Equal keys take the left run first: stable.
 * Comparisons: about S^2/2 + S log2(block) + log2(n) per thread.
 * Staging: n keys (and n values) in shared memory, static
 * (TILE_STATIC_SMEM, the size classes of tile_sort) when they fit
 * TILE_SORT_STATIC_MAX_BYTES, else from the arena; budget
 * TILE_MERGE_SORT_SMEM_BYTES(K, n, block) / TILE_MERGE_SORT_PAIRS_SMEM_BYTES(K,
 * V, n, block) in TILE_KERNEL_SMEM (0 when static). Registers: S keys (and
 * S values) per thread: keep S small (<= 16) for large elements. One thread
 * (the CPU target, or a block of 1) runs a plain stable merge sort instead
 * (insertion-sorted runs of 16, bottom-up merges: O(n log n)) with twice the
 * staging, which the SMEM_BYTES macros count for block 1. */
#define tile_merge_sort(keys, less) TILE__MSORT(keys, keys, 0, less, "tile_merge_sort")
#define tile_merge_sort_pairs(keys, values, less) TILE__MSORT(keys, values, 1, less, "tile_merge_sort_pairs")

/* TILE_MERGE_SORT_PAD (default 1): the staging of blocks of 2+ threads
 * leaves one unused element after every 32 (element p at p + p / 32), so
 * that a thread's S consecutive elements (the runs written before every
 * merge round, the chunks read at the start and written at the end) fall in
 * distinct banks across a warp: without it S = 16 of 4-byte keys is a 16-way
 * bank conflict on each of those stores and loads (CUB's BlockMergeSort has
 * the same conflicts). 0: unpadded (the layout before). Read where the sort
 * expands, so one translation unit may compile both (as sort_bench does);
 * the SMEM_BYTES macros must then be expanded under the same setting. */
#ifndef TILE_MERGE_SORT_PAD
#define TILE_MERGE_SORT_PAD 1
#endif
#define TILE__MSORT_PX(p) (TILE_MERGE_SORT_PAD ? (p) + ((p) >> 5) : (p))
#define TILE__MSORT_PADN(n) ((size_t)(n) + (TILE_MERGE_SORT_PAD ? (size_t)(n) / 32u : (size_t)0))
/* one copy of the keys (and values); two for one thread (the serial path) */
#define TILE__MSORT_BYTES1(ksz, vsz, hasv, n) \
    (TILE__SORT_A16(TILE__MSORT_PADN(n) * (ksz)) + ((hasv) ? TILE__SORT_A16(TILE__MSORT_PADN(n) * (vsz)) : 0))
#define TILE__MSORT_BYTES(ksz, vsz, hasv, n, b) (((b) == 1 ? 2u : 1u) * TILE__MSORT_BYTES1(ksz, vsz, hasv, n))
#define TILE_MERGE_SORT_SMEM_BYTES(K, n, block)                                    \
    ((size_t)(TILE__SORT_STATIC(TILE__MSORT_BYTES(sizeof(K), 1, 0, n, block)) ? 0      \
                                                                            : TILE__MSORT_BYTES(sizeof(K), 1, 0, n, block)))
#define TILE_MERGE_SORT_PAIRS_SMEM_BYTES(K, V, n, block)                           \
    ((size_t)(TILE__SORT_STATIC(TILE__MSORT_BYTES(sizeof(K), sizeof(V), 1, n, block)) ? 0 \
                                                                                   : TILE__MSORT_BYTES(sizeof(K), sizeof(V), 1, n, block)))

#define TILE__MSORT(K, V, HASV, LESS, OP)                                          \
    do {                                                                           \
        typedef TILE_ELEM_T(K) tile__K;                                            \
        typedef TILE_ELEM_T(V) tile__V;                                            \
        TILE__STATIC_ASSERT(tile_size(K) == tile_size(V) && TILE__BD(K) == TILE__BD(V), \
                            "tile.h: " OP ": keys and values must be tiles of one length"); \
        enum {                                                                     \
            tile__N = tile_size(K),                                                \
            tile__B = TILE__BD(K),                                                 \
            tile__S = (tile__N + tile__B - 1) / tile__B,                           \
            tile__KSH = tile_is_shared(K),                                         \
            tile__VSH = (HASV) && tile_is_shared(V),                               \
            tile__KB = (int)TILE__SORT_A16(TILE__MSORT_PADN(tile__N) * sizeof(tile__K)), \
            tile__BY1 = (int)TILE__MSORT_BYTES1(sizeof(tile__K), sizeof(tile__V), HASV, tile__N), \
            tile__BYTES = (int)TILE__MSORT_BYTES(sizeof(tile__K), sizeof(tile__V), HASV, tile__N, tile__B) \
        };                                                                         \
        TILE__STATIC_ASSERT(TILE__MSORT_BYTES(sizeof(tile__K), sizeof(tile__V), HASV, tile_size(K), TILE__BD(K)) <= \
                                (size_t)TILE_MAX_SMEM_BYTES,                       \
                            "tile.h: " OP ": the tile needs more shared memory than TILE_MAX_SMEM_BYTES"); \
        TILE__COOP();                                                              \
        TILE__SORT_BUF(tile__buf, tile__BYTES, tile__BYTES);                       \
        tile__K *const tile__kb = (tile__K *)tile__buf;                            \
        tile__V *const tile__vb = (tile__V *)(tile__buf + tile__KB);               \
        if (tile__B == 1) {                                                        \
            TILE__MSORT_SERIAL_(K, V, HASV, LESS);                                 \
        } else {                                                                   \
            TILE__MSORT_BLOCK_(K, V, HASV, LESS);                                  \
        }                                                                          \
        TILE__SORT_BUF_END(tile__buf, tile__BYTES);                                \
    } while (0)

/* blocks of 2+ threads (CUB's algorithm) */
#define TILE__MSORT_BLOCK_(K, V, HASV, LESS)                                       \
    do {                                                                           \
        const int tile__t = tile_thread();                                         \
        const int tile__c0 = tile__t * tile__S;                                    \
        /* the calling thread's chunk: elements c0 .. c0 + cnt - 1 */             \
        /* (a constant when the block size divides n: every guard below folds) */ \
        const int tile__cnt = tile__N % tile__B == 0 ? tile__S                     \
                              : tile__N - tile__c0 >= tile__S ? tile__S : tile__N > tile__c0 ? tile__N - tile__c0 : 0; \
        tile__K tile__x[tile__S];                                                  \
        tile__V tile__y[(HASV) ? tile__S : 1];                                     \
        tile_barrier(); /* an earlier operation may still read a buffer of this size */ \
        /* register tiles: striped slots -> chunks through the buffer */         \
        if (!tile__KSH) {                                                          \
            TILE__EACH(K, tile__s) { tile__kb[TILE__MSORT_PX(TILE__LIN(K, tile__s))] = TILE__AT(K, tile__s); } \
        }                                                                          \
        if ((HASV) && !tile__VSH) {                                                \
            TILE__EACH(V, tile__s) { tile__vb[TILE__MSORT_PX(TILE__LIN(V, tile__s))] = TILE__AT(V, tile__s); } \
        }                                                                          \
        if (!tile__KSH || ((HASV) && !tile__VSH)) tile_barrier();                  \
        TILE__UNROLL for (int tile__j = 0; tile__j < tile__S; ++tile__j) {         \
            const int tile__p = tile__c0 + tile__j;                                \
            if (tile__j < tile__cnt) {                                             \
                tile__x[tile__j] = tile__KSH ? (K).v[TILE__OFF(K, tile__p)] : tile__kb[TILE__MSORT_PX(tile__p)]; \
                if (HASV) tile__y[tile__j] = tile__VSH ? (V).v[TILE__OFF(V, tile__p)] : tile__vb[TILE__MSORT_PX(tile__p)]; \
            } else {                                                               \
                memset(&tile__x[tile__j], 0, sizeof(tile__K));                     \
                if (HASV) memset(&tile__y[tile__j], 0, sizeof(tile__V));           \
            }                                                                      \
        }                                                                          \
        /* stable odd-even transposition sort of the chunk (swaps only strictly \
         * smaller right neighbours: equal keys never cross) */                \
        TILE__UNROLL for (int tile__i = 0; tile__i < tile__S; ++tile__i) {         \
            TILE__UNROLL for (int tile__j = tile__i & 1; tile__j + 1 < tile__S; tile__j += 2) { \
                if (tile__j + 1 < tile__cnt && (LESS(tile__x[tile__j + 1], tile__x[tile__j]))) { \
                    const tile__K tile__tk = tile__x[tile__j];                     \
                    tile__x[tile__j] = tile__x[tile__j + 1];                       \
                    tile__x[tile__j + 1] = tile__tk;                               \
                    if (HASV) {                                                    \
                        const tile__V tile__tv = tile__y[tile__j];                 \
                        tile__y[tile__j] = tile__y[tile__j + 1];                   \
                        tile__y[tile__j + 1] = tile__tv;                           \
                    }                                                              \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        /* merge rounds: runs of w elements, pairs [a0, a1) + [a1, b1) */         \
        for (int tile__w = tile__S; tile__w < tile__N; tile__w *= 2) {             \
            tile_barrier(); /* the last round's reads are done */                \
            TILE__UNROLL for (int tile__j = 0; tile__j < tile__S; ++tile__j) {     \
                if (tile__j < tile__cnt) {                                         \
                    tile__kb[TILE__MSORT_PX(tile__c0 + tile__j)] = tile__x[tile__j];               \
                    if (HASV) tile__vb[TILE__MSORT_PX(tile__c0 + tile__j)] = tile__y[tile__j];     \
                }                                                                  \
            }                                                                      \
            tile_barrier();                                                        \
            if (tile__cnt > 0) {                                                   \
                const int tile__a0 = tile__c0 / (2 * tile__w) * (2 * tile__w);     \
                const int tile__a1 = tile__a0 + tile__w < tile__N ? tile__a0 + tile__w : tile__N; \
                const int tile__b1 = tile__a1 + tile__w < tile__N ? tile__a1 + tile__w : tile__N; \
                const int tile__d = tile__c0 - tile__a0; /* outputs before ours */ \
                /* merge path: how many of the first d outputs come from A */    \
                int tile__lo = tile__d > tile__b1 - tile__a1 ? tile__d - (tile__b1 - tile__a1) : 0; \
                int tile__hi = tile__d < tile__a1 - tile__a0 ? tile__d : tile__a1 - tile__a0; \
                while (tile__lo < tile__hi) {                                      \
                    const int tile__m = (tile__lo + tile__hi) >> 1;                \
                    if (LESS(tile__kb[TILE__MSORT_PX(tile__a1 + tile__d - 1 - tile__m)], tile__kb[TILE__MSORT_PX(tile__a0 + tile__m)])) \
                        tile__hi = tile__m;                                        \
                    else                                                           \
                        tile__lo = tile__m + 1;                                    \
                }                                                                  \
                int tile__ia = tile__a0 + tile__lo, tile__ib = tile__a1 + tile__d - tile__lo; \
                /* the heads of both runs stay in registers: one shared load   \
                 * per output (indices clamped: a run's end may be n) */       \
                tile__K tile__ka = tile__kb[TILE__MSORT_PX(tile__ia < tile__N ? tile__ia : tile__N - 1)]; \
                tile__K tile__kx = tile__kb[TILE__MSORT_PX(tile__ib < tile__N ? tile__ib : tile__N - 1)]; \
                TILE__UNROLL for (int tile__j = 0; tile__j < tile__S; ++tile__j) { \
                    if (tile__j < tile__cnt) {                                     \
                        /* B only when strictly before A: stable */              \
                        const int tile__tb = tile__ib < tile__b1 && (tile__ia >= tile__a1 || (LESS(tile__kx, tile__ka))); \
                        if (HASV) tile__y[tile__j] = tile__vb[TILE__MSORT_PX(tile__tb ? tile__ib : tile__ia)]; \
                        if (tile__tb) {                                            \
                            tile__x[tile__j] = tile__kx;                           \
                            ++tile__ib;                                            \
                            tile__kx = tile__kb[TILE__MSORT_PX(tile__ib < tile__N ? tile__ib : tile__N - 1)]; \
                        } else {                                                   \
                            tile__x[tile__j] = tile__ka;                           \
                            ++tile__ia;                                            \
                            tile__ka = tile__kb[TILE__MSORT_PX(tile__ia < tile__N ? tile__ia : tile__N - 1)]; \
                        }                                                          \
                    }                                                              \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        /* write back: shared tiles directly, register tiles through the buffer */ \
        tile_barrier();                                                            \
        TILE__UNROLL for (int tile__j = 0; tile__j < tile__S; ++tile__j) {         \
            if (tile__j < tile__cnt) {                                             \
                const int tile__p = tile__c0 + tile__j;                            \
                if (tile__KSH) (K).v[TILE__OFF(K, tile__p)] = tile__x[tile__j];    \
                else tile__kb[TILE__MSORT_PX(tile__p)] = tile__x[tile__j];                         \
                if (HASV) {                                                        \
                    if (tile__VSH) (V).v[TILE__OFF(V, tile__p)] = tile__y[tile__j]; \
                    else tile__vb[TILE__MSORT_PX(tile__p)] = tile__y[tile__j];                     \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        tile_barrier();                                                            \
        if (!tile__KSH) {                                                          \
            TILE__EACH(K, tile__s) { TILE__AT(K, tile__s) = tile__kb[TILE__MSORT_PX(TILE__LIN(K, tile__s))]; } \
        }                                                                          \
        if ((HASV) && !tile__VSH) {                                                \
            TILE__EACH(V, tile__s) { TILE__AT(V, tile__s) = tile__vb[TILE__MSORT_PX(TILE__LIN(V, tile__s))]; } \
        }                                                                          \
    } while (0)

/* one thread (the CPU target, or a block of 1): a plain stable merge sort in
 * the buffer, O(n log n): insertion-sorted runs of 16, then bottom-up
 * merges between the buffer's two halves */
#define TILE__MSORT_SERIAL_(K, V, HASV, LESS)                                      \
    do {                                                                           \
        tile__K *tile__sk = tile__kb, *tile__dk = (tile__K *)(tile__buf + tile__BY1); \
        tile__V *tile__sv = tile__vb, *tile__dv = (tile__V *)(tile__buf + tile__BY1 + tile__KB); \
        tile_barrier();                                                            \
        if (tile__KSH) {                                                           \
            for (int tile__p = 0; tile__p < tile__N; ++tile__p) tile__sk[tile__p] = (K).v[TILE__OFF(K, tile__p)]; \
        } else {                                                                   \
            TILE__EACH(K, tile__s) { tile__sk[TILE__LIN(K, tile__s)] = TILE__AT(K, tile__s); } \
        }                                                                          \
        if ((HASV) && tile__VSH) {                                                 \
            for (int tile__p = 0; tile__p < tile__N; ++tile__p) tile__sv[tile__p] = (V).v[TILE__OFF(V, tile__p)]; \
        } else if (HASV) {                                                         \
            TILE__EACH(V, tile__s) { tile__sv[TILE__LIN(V, tile__s)] = TILE__AT(V, tile__s); } \
        }                                                                          \
        for (int tile__r = 0; tile__r < tile__N; tile__r += 16) {                  \
            const int tile__e = tile__r + 16 < tile__N ? tile__r + 16 : tile__N;   \
            for (int tile__i = tile__r + 1; tile__i < tile__e; ++tile__i) {        \
                /* moves past strictly greater elements only: stable */          \
                const tile__K tile__k = tile__sk[tile__i];                         \
                tile__V tile__v;                                                   \
                if (HASV) tile__v = tile__sv[tile__i];                             \
                else memset(&tile__v, 0, sizeof(tile__V));                         \
                int tile__j = tile__i;                                             \
                while (tile__j > tile__r && (LESS(tile__k, tile__sk[tile__j - 1]))) { \
                    tile__sk[tile__j] = tile__sk[tile__j - 1];                     \
                    if (HASV) tile__sv[tile__j] = tile__sv[tile__j - 1];           \
                    --tile__j;                                                     \
                }                                                                  \
                tile__sk[tile__j] = tile__k;                                       \
                if (HASV) tile__sv[tile__j] = tile__v;                             \
            }                                                                      \
        }                                                                          \
        for (int tile__w = 16; tile__w < tile__N; tile__w *= 2) {                  \
            for (int tile__a0 = 0; tile__a0 < tile__N; tile__a0 += 2 * tile__w) {  \
                const int tile__a1 = tile__a0 + tile__w < tile__N ? tile__a0 + tile__w : tile__N; \
                const int tile__b1 = tile__a1 + tile__w < tile__N ? tile__a1 + tile__w : tile__N; \
                int tile__ia = tile__a0, tile__ib = tile__a1;                      \
                for (int tile__o = tile__a0; tile__o < tile__b1; ++tile__o) {      \
                    /* the right run only when strictly before: stable */        \
                    const int tile__tb = tile__ib < tile__b1 &&                    \
                                         (tile__ia >= tile__a1 || (LESS(tile__sk[tile__ib], tile__sk[tile__ia]))); \
                    const int tile__src = tile__tb ? tile__ib++ : tile__ia++;      \
                    tile__dk[tile__o] = tile__sk[tile__src];                       \
                    if (HASV) tile__dv[tile__o] = tile__sv[tile__src];             \
                }                                                                  \
            }                                                                      \
            tile__K *const tile__tk = tile__sk;                                    \
            tile__sk = tile__dk;                                                   \
            tile__dk = tile__tk;                                                   \
            tile__V *const tile__tv = tile__sv;                                    \
            tile__sv = tile__dv;                                                   \
            tile__dv = tile__tv;                                                   \
        }                                                                          \
        if (tile__KSH) {                                                           \
            for (int tile__p = 0; tile__p < tile__N; ++tile__p) (K).v[TILE__OFF(K, tile__p)] = tile__sk[tile__p]; \
        } else {                                                                   \
            TILE__EACH(K, tile__s) { TILE__AT(K, tile__s) = tile__sk[TILE__LIN(K, tile__s)]; } \
        }                                                                          \
        if ((HASV) && tile__VSH) {                                                 \
            for (int tile__p = 0; tile__p < tile__N; ++tile__p) (V).v[TILE__OFF(V, tile__p)] = tile__sv[tile__p]; \
        } else if (HASV) {                                                         \
            TILE__EACH(V, tile__s) { TILE__AT(V, tile__s) = tile__sv[TILE__LIN(V, tile__s)]; } \
        }                                                                          \
        tile_barrier();                                                            \
    } while (0)

#endif /* TILE_SORT_H */
