/* tile/histogram.h - block histograms of integer tiles (CUB's BlockHistogram).
 *
 * tile_histogram(counts, samples, nbins)            counts = histogram of samples
 * tile_histogram_composite(counts, samples, nbins)  counts += histogram of samples
 * tile_histogram_init(counts)                       counts = 0
 * tile_histogram_alg(counts, samples, nbins, alg)   the same, algorithm chosen:
 * tile_histogram_composite_alg(counts, samples, nbins, alg)
 *   alg TILE_HISTO_ATOMIC (the default) or TILE_HISTO_SORT; both give the
 *   same counts for every input.
 * samples: a tile (register or shared, any shape, views too) of integers
 * (i8..i64, u8..u64); counts: a tile of exactly nbins i32, u32, i64 or u64
 * counters (register or shared; same block size). Sample x counts in bin x;
 * samples outside [0, nbins) (negative ones too) are ignored: they count
 * nowhere, and no memory outside the counts is touched. nbins is a
 * compile-time constant >= 1. Cooperative: every thread of the block calls.
 *
 * Suppose samples holds [3 1 3 0 7 -1 3] (i32) and nbins is 4:
 *   tile_histogram(c, samples, 4)            c = [1 1 0 3]  (7 and -1 ignored)
 *   tile_histogram_composite(c, samples, 4)  c = [2 2 0 6]  (added again)
 *
 * Load samples through a shared tile: one 16-byte load per thread. For
 * u8 samples, 16 a thread in 256 threads:
 *   tile_shared(uint32_t, c, 256);
 *   tile_shared(uint8_t, xs, 16, 256);          rows of 256 bytes
 *   tile_histogram_init(c);
 *   for (...) {                                  each 4096-sample piece
 *       tile_load(xs, tile_array2(p, 16, 256), 0, 0);
 *       tile_histogram_composite(c, xs, 256);    or _alg(..., TILE_HISTO_SORT)
 *   }
 * (budget TILE_SMEM_BYTES(uint8_t, 16, 256) for xs). tile_load copies a
 * shared tile of 2+ dims whose rows span a multiple of 16 bytes with
 * 16-byte loads when p is 16-byte aligned and the tile inside the array
 * (else element by element: the same counts, slower); a register tile of
 * u8 takes sixteen 1-byte loads a thread. The order of the samples does
 * not matter to a histogram, so the shape of the tile is free. Measured (H100,
 * bench/results/2026-11-25-h100-matmul-sort-bea5b43-bench.txt): atomic
 * 1.10 / 1.07 of CUB's on uniform / 4-bin samples, against 1.06 / 0.85
 * from a register tile.
 *
 * Algorithms (as CUB's BLOCK_HISTO_ATOMIC and BLOCK_HISTO_SORT):
 *  - TILE_HISTO_ATOMIC: every thread adds its samples to the counters with
 *    shared-memory atomics: into the counts tile itself when it is a shared
 *    tile of 32-bit counters, else into a staging array of nbins u32 words
 *    that is then added to (or copied into) the counts. Fast unless many
 *    samples fall into few bins (atomic contention). TILE_HISTO_AGG 1
 *    (default 0; see below) aggregates each warp's increments per bin.
 *  - TILE_HISTO_SORT: the samples' bins (out-of-range ones as bin nbins)
 *    are sorted with tile_sort (a radix sort that skips the 4-bit digits
 *    that no bin uses: 2 passes for 256 bins), then the runs of equal bins
 *    are found in one pass over the sorted bins (in the sort's own buffer,
 *    staged as 16-bit words where every bin is below 256:
 *    TILE_HISTO_SORT_RUNS and TILE_HISTO_SORT_NARROW below): counts are
 *    differences of positions.
 *    No atomics, so its cost does not depend on the distribution.
 *    The sort's limits apply (at most 65535 samples). TILE_HISTO_SORT_KEYS
 *    1 (default 0, a candidate; see below) sorts the bins in place in
 *    shared memory and finds the runs there.
 * Shared memory: the staging array (and the sorted bins for
 * TILE_HISTO_SORT) are static (TILE_STATIC_SMEM, the size classes of
 * tile_sort) when they fit TILE_SORT_STATIC_MAX_BYTES, else from the arena:
 * budget TILE_HISTOGRAM_SMEM_BYTES(n_samples, nbins, block) in
 * TILE_KERNEL_SMEM (enough for either algorithm; 0 when static). Bins or
 * samples that need more than TILE_MAX_SMEM_BYTES do not compile.
 * On the CPU (one thread) the same code runs with plain additions.
 */
#ifndef TILE_HISTOGRAM_H
#define TILE_HISTOGRAM_H

#include "sort.h"

/* the algorithms (plain 0 and 1: the choice is made by the preprocessor, so a
 * kernel compiles only the algorithm it uses) */
#define TILE_HISTO_ATOMIC 0
#define TILE_HISTO_SORT 1

#define tile_histogram(counts, samples, nbins) \
    TILE__HISTO(counts, samples, nbins, TILE_HISTO_ATOMIC, 0, "tile_histogram")
#define tile_histogram_composite(counts, samples, nbins) \
    TILE__HISTO(counts, samples, nbins, TILE_HISTO_ATOMIC, 1, "tile_histogram_composite")
#define tile_histogram_alg(counts, samples, nbins, alg) \
    TILE__HISTO(counts, samples, nbins, alg, 0, "tile_histogram_alg")
#define tile_histogram_composite_alg(counts, samples, nbins, alg) \
    TILE__HISTO(counts, samples, nbins, alg, 1, "tile_histogram_composite_alg")
/* counts = 0 (any tile; cooperative when shared) */
#define tile_histogram_init(counts)                                                \
    do {                                                                           \
        TILE__WRITE_BEGIN(counts);                                                 \
        TILE__EACH(counts, tile__s) { memset(&TILE__AT(counts, tile__s), 0, sizeof((counts).v[0])); } \
        TILE__WRITE_END(counts);                                                   \
    } while (0)

/* bin of a sample: x itself when in [0, nb), else nb (the argument
 * conversion makes negative samples huge) */
TILE_API uint32_t tile__histo_bin(uint64_t x, uint32_t nb) { return x < (uint64_t)nb ? (uint32_t)x : nb; }

/* TILE_HISTO_AGG (default 0): 1 makes TILE_HISTO_ATOMIC aggregate each
 * warp's increments on the GPU (sm_70+): the lanes whose samples fall in one
 * bin are found with __match_any_sync and the lowest of them adds their
 * count with one atomic, so many samples in few bins do not contend on one
 * counter; uniform samples pay a match per sample for nothing. Measured
 * slower on both inputs (H100 at bea5b43: 0.09 / 0.38 of CUB's atomic
 * histogram, uniform / 4-bin, against 1.06 / 0.85 with 0). Read where
 * the histogram expands (one translation unit may compile both, as
 * histogram_bench does). The CPU path adds 1 per sample either way. */
#ifndef TILE_HISTO_AGG
#define TILE_HISTO_AGG 0
#endif
/* what this lane adds to bin b's counter (0: nothing): 1, or with agg the
 * number of active lanes of its warp whose bin is b for the lowest of them */
TILE_API uint32_t tile__histo_agg(uint32_t b, int agg) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 700
    if (agg) {
        const unsigned tile__m = __match_any_sync(__activemask(), b);
        unsigned tile__lane;
        asm("mov.u32 %0, %%laneid;" : "=r"(tile__lane));
        return (tile__m & ((1u << tile__lane) - 1u)) ? 0u : (uint32_t)__popc(tile__m);
    }
#endif
    (void)b;
    (void)agg;
    return 1u;
}

/* staging bytes: nbins u32 words, and for the sort algorithm the sorted
 * bins and a second nbins words (the runs' ends next to their starts) */
#define TILE__HISTO_BYTES(n, nbins, sorted) \
    (((sorted) ? TILE__SORT_A16((size_t)(n)*4u) + TILE__SORT_A16((size_t)(nbins)*4u) : 0) + \
     TILE__SORT_A16((size_t)(nbins)*4u))
#define TILE__HISTO_MAX(a, b) ((a) > (b) ? (a) : (b))

/* TILE_HISTO_SORT_KEYS (default 0): 1 makes TILE_HISTO_SORT sort the bins as
 * a shared tile in its own arena buffer (keys, then the runs' starts and
 * ends): the sort scatters its last pass straight into it and the run
 * discovery reads it there, so the sorted bins are not read back into
 * registers and stored again (16 loads, 16 stores and 2 barriers fewer a
 * call for 16 samples a thread); each thread writes its bins into its own
 * chunk of the keys, so the sort reads them without a barrier. Costs
 * arena: n 32-bit keys and 2 nbins words on top of the sort's staging
 * (TILE_HISTOGRAM_SMEM_BYTES counts them when this is 1 where it expands).
 * Read where the histogram expands (one translation unit may compile
 * both). Measured: pending GPU run (histogram_bench prints it as a
 * candidate next to its CUB peer). */
#ifndef TILE_HISTO_SORT_KEYS
#define TILE_HISTO_SORT_KEYS 0
#endif
/* the sort algorithm's staging is sized (for the static-or-arena decision
 * and the static size class) at least as the sort's own, so that it takes
 * the very buffer the sort just used when that is large enough: a kernel
 * then needs no more static shared memory than the sort */
#define TILE__HISTO_SIZING(n, nbins, block) \
    TILE__HISTO_MAX(TILE__HISTO_BYTES(n, nbins, 1), TILE__SORT_SIZING(4, 4, n, block))
#define TILE__HISTO_ARENA(bytes, sizing) (TILE__SORT_STATIC(sizing) ? (size_t)0 : (size_t)(bytes))
/* Arena bytes to budget for a histogram of n samples into nbins bins in
 * blocks of `block` threads, either algorithm (0: static shared memory):
 *   TILE_HISTOGRAM_SMEM_BYTES(4096, 256, 256) == 0 */
#define TILE_HISTOGRAM_SMEM_BYTES(n, nbins, block)                                 \
    TILE__HISTO_MAX(TILE__HISTO_MAX(TILE__HISTO_MAX(TILE_SORT_SMEM_BYTES(uint32_t, n, block), \
                                                    TILE__HISTO_ARENA(TILE__HISTO_BYTES(n, nbins, 1), \
                                                                      TILE__HISTO_SIZING(n, nbins, block))), \
                                    TILE__HISTO_ARENA(TILE__HISTO_BYTES(n, nbins, 0), TILE__HISTO_BYTES(n, nbins, 0))), \
                    (TILE_HISTO_SORT_KEYS) && !TILE__HISTO_KTAIL(n, nbins, block)          \
                        ? TILE__HISTO_BYTES(n, nbins, 1) + TILE_SORT_SMEM_BYTES(uint32_t, n, block) \
                        : (size_t)0)

#define TILE__HISTO(C, X, NB, ALG, ADD, OP)                                        \
    do {                                                                           \
        typedef TILE_ELEM_T(C) tile__hC;                                           \
        typedef TILE_ELEM_T(X) tile__hX;                                           \
        TILE__STATIC_ASSERT((NB) >= 1, "tile.h: " OP ": nbins must be a constant >= 1"); \
        TILE__STATIC_ASSERT(tile_size(C) == (NB), "tile.h: " OP ": the counts tile must have nbins elements"); \
        TILE__STATIC_ASSERT(TILE__BD(C) == TILE__BD(X), "tile.h: " OP ": counts and samples of one block size"); \
        TILE__STATIC_ASSERT((tile__hX)0.5 == (tile__hX)0 && sizeof(tile__hX) <= 8,   \
                            "tile.h: " OP ": samples must be integers");           \
        TILE__STATIC_ASSERT((tile__hC)0.5 == (tile__hC)0 && (sizeof(tile__hC) == 4 || sizeof(tile__hC) == 8), \
                            "tile.h: " OP ": counts must be i32, u32, i64 or u64"); \
        TILE__STATIC_ASSERT(TILE__HISTO_BYTES(tile_size(X), NB, (ALG) == TILE_HISTO_SORT) <= \
                                (size_t)TILE_MAX_SMEM_BYTES,                       \
                            "tile.h: " OP ": nbins (and the samples, for TILE_HISTO_SORT) need more shared " \
                            "memory than TILE_MAX_SMEM_BYTES");                    \
        TILE__STATIC_ASSERT((ALG) == TILE_HISTO_ATOMIC || (ALG) == TILE_HISTO_SORT, \
                            "tile.h: " OP ": alg must be TILE_HISTO_ATOMIC or TILE_HISTO_SORT"); \
        TILE__COOP();                                                              \
        TILE__HISTO_PICK(ALG)(C, X, NB, ADD, OP);                                  \
    } while (0)
/* ALG must be TILE_HISTO_ATOMIC or TILE_HISTO_SORT (0 or 1): anything else
 * names an undefined macro TILE__HISTO_ALG_... (a compile-time error) */
#define TILE__HISTO_PICK(ALG) TILE__HISTO_PICK_(ALG)
#define TILE__HISTO_PICK_(ALG) TILE__HISTO_ALG_##ALG
#define TILE__HISTO_ALG_1(C, X, NB, ADD, OP) TILE__HISTO_SORT_PICK_(TILE_HISTO_SORT_KEYS)(C, X, NB, ADD, OP)
#define TILE__HISTO_SORT_PICK_(K) TILE__HISTO_SORT_PICK__(K)
#define TILE__HISTO_SORT_PICK__(K) TILE__HISTO_SORT_K##K
#define TILE__HISTO_SORT_K0(C, X, NB, ADD, OP)                                    \
    do {                                                                           \
        if (TILE__HISTO_CH(tile_size(X), NB, TILE__BD(X))) TILE__HISTO_SORT_CH_(C, X, NB, ADD, OP, TILE_HISTO_SORT_RUNS); \
        else TILE__HISTO_SORT_(C, X, NB, ADD, OP);                                 \
    } while (0)
#define TILE__HISTO_SORT_K1(C, X, NB, ADD, OP) TILE__HISTO_SORT_KEYS_(C, X, NB, ADD, OP)
#define TILE__HISTO_ALG_0(C, X, NB, ADD, OP)                                       \
    do {                                                                           \
        if (tile_is_shared(C) && sizeof(TILE_ELEM_T(C)) == 4) {                    \
            /* atomics straight into the shared counters */                      \
            if (!(ADD)) tile_histogram_init(C);                                    \
            else tile_barrier(); /* the counts may have been written just before */ \
            TILE__EACH(X, tile__s) {                                               \
                const uint32_t tile__b = tile__histo_bin(TILE__AT(X, tile__s), (uint32_t)(NB)); \
                const uint32_t tile__n = tile__histo_agg(tile__b, TILE_HISTO_AGG);   \
                if (tile__b < (uint32_t)(NB) && tile__n)                           \
                    TILE__ATOMIC_ADD(&(C).v[TILE__OFF(C, (int)tile__b)], (TILE_ELEM_T(C))tile__n); \
            }                                                                      \
            tile_barrier();                                                        \
        } else {                                                                   \
            TILE__HISTO_ATOMIC_(C, X, NB, ADD);                                    \
        }                                                                          \
    } while (0)

/* add (or copy) staging word i of every counts slot into the counts */
#define TILE__HISTO_OUT_(C, st, ADD)                                               \
    do {                                                                           \
        if (tile_is_shared(C)) tile_barrier();                                     \
        TILE__EACH(C, tile__s) {                                                   \
            const TILE_ELEM_T(C) tile__c = (TILE_ELEM_T(C))(st)[TILE__LIN(C, tile__s)]; \
            TILE__AT(C, tile__s) = (ADD) ? (TILE_ELEM_T(C))(TILE__AT(C, tile__s) + tile__c) : tile__c; \
        }                                                                          \
        if (tile_is_shared(C)) tile_barrier();                                     \
    } while (0)

/* atomics into a staging array of nbins u32 words */
#define TILE__HISTO_ATOMIC_(C, X, NB, ADD)                                         \
    do {                                                                           \
        enum { tile__hBY = (int)TILE__HISTO_BYTES(0, NB, 0) };                     \
        TILE__SORT_BUF(tile__hbuf, tile__hBY, tile__hBY);                          \
        uint32_t *const tile__st = (uint32_t *)tile__hbuf;                         \
        tile_barrier(); /* an earlier operation may still read a buffer of this size */ \
        for (int tile__i = tile_thread(); tile__i < (NB); tile__i += TILE__BD(X)) tile__st[tile__i] = 0; \
        tile_barrier();                                                            \
        TILE__EACH(X, tile__s) {                                                   \
            const uint32_t tile__b = tile__histo_bin(TILE__AT(X, tile__s), (uint32_t)(NB)); \
            const uint32_t tile__n = tile__histo_agg(tile__b, TILE_HISTO_AGG);       \
            if (tile__b < (uint32_t)(NB) && tile__n) TILE__ATOMIC_ADD(&tile__st[tile__b], tile__n); \
        }                                                                          \
        tile_barrier();                                                            \
        TILE__HISTO_OUT_(C, tile__st, ADD);                                        \
        TILE__SORT_BUF_END(tile__hbuf, tile__hBY);                                 \
    } while (0)

/* sort the bins, then find the runs in one pass over the sorted bins (as
 * CUB's BlockHistogramSort with BlockDiscontinuity): the first element of a
 * run (p == 0 or a different bin before it) writes its position as the
 * start of its bin's run and as the end of the previous bin's run; the last
 * element writes n as the end of its bin's run. Each word has one writer;
 * bins without samples keep start = end = 0. Count = end - start. */
#define TILE__HISTO_SORT_(C, X, NB, ADD, OP)                                           \
    do {                                                                           \
        enum {                                                                     \
            tile__hN = tile_size(X),                                               \
            tile__hBY = (int)TILE__HISTO_BYTES(tile_size(X), NB, 1),               \
            tile__hOS = (int)TILE__SORT_A16((size_t)tile_size(X) * 4u),            \
            tile__hOE = tile__hOS + (int)TILE__SORT_A16((size_t)(NB)*4u),          \
            tile__hSZ = (int)TILE__HISTO_SIZING(tile_size(X), NB, TILE__BD(X))     \
        };                                                                         \
        TILE__REG_TYPE(uint32_t, TILE__BD(X), tile_size(X)) tile__hk;              \
        TILE__UNROLL for (int tile__s = 0; tile__s < tile_slots(tile__hk); ++tile__s) \
            tile__hk.v[tile__s] = TILE__VALID(tile__hk, tile__s) ? tile__histo_bin(TILE__AT(X, tile__s), (uint32_t)(NB)) \
                                                                : 0u;              \
        TILE__SORT_G(tile__hk, tile__hk, 0, 0, 0, 0, 0, OP);                       \
        TILE__SORT_BUF(tile__hbuf, tile__hBY, tile__hSZ);                          \
        uint32_t *const tile__sk = (uint32_t *)tile__hbuf;                         \
        uint32_t *const tile__st = (uint32_t *)(tile__hbuf + tile__hOS); /* starts */ \
        uint32_t *const tile__en = (uint32_t *)(tile__hbuf + tile__hOE); /* ends */ \
        tile_barrier(); /* the sort (or another operation) may still read a buffer of this size */ \
        TILE__EACH(tile__hk, tile__s) { tile__sk[TILE__LIN(tile__hk, tile__s)] = tile__hk.v[tile__s]; } \
        for (int tile__i = tile_thread(); tile__i < (NB); tile__i += TILE__BD(X)) { \
            tile__st[tile__i] = 0;                                                 \
            tile__en[tile__i] = 0;                                                 \
        }                                                                          \
        tile_barrier();                                                            \
        TILE__EACH(tile__hk, tile__s) {                                            \
            const int tile__p = TILE__LIN(tile__hk, tile__s);                      \
            const uint32_t tile__b = tile__hk.v[tile__s];                          \
            const uint32_t tile__a = tile__p > 0 ? tile__sk[tile__p > 0 ? tile__p - 1 : 0] : (uint32_t)(NB); \
            if (tile__p == 0 || tile__a != tile__b) {                              \
                if (tile__b < (uint32_t)(NB)) tile__st[tile__b] = (uint32_t)tile__p; \
                if (tile__a < (uint32_t)(NB)) tile__en[tile__a] = (uint32_t)tile__p; \
            }                                                                      \
            if (tile__p == tile__hN - 1 && tile__b < (uint32_t)(NB)) tile__en[tile__b] = (uint32_t)tile__hN; \
        }                                                                          \
        tile_barrier(); /* (also orders an earlier write of shared counts) */   \
        TILE__EACH(C, tile__s) {                                                   \
            const int tile__i = TILE__LIN(C, tile__s);                             \
            const TILE_ELEM_T(C) tile__c = (TILE_ELEM_T(C))(tile__en[tile__i] - tile__st[tile__i]); \
            TILE__AT(C, tile__s) = (ADD) ? (TILE_ELEM_T(C))(TILE__AT(C, tile__s) + tile__c) : tile__c; \
        }                                                                          \
        if (tile_is_shared(C)) tile_barrier();                                     \
        TILE__SORT_BUF_END(tile__hbuf, tile__hSZ);                                 \
    } while (0)

/* TILE_HISTO_SORT_RUNS (default 1): how TILE_HISTO_SORT finds the runs of
 * equal bins where the sort can leave its result in its static staging
 * buffer (TILE__HISTO_CH: blocks of 2+ threads with at most
 * TILE_SORT_REG_CHUNK samples a thread and static staging; elsewhere, and
 * with 0, TILE__HISTO_SORT_ above):
 *  1: the sort's last pass scatters into its buffer as usual and the sorted
 *     bins stay there (not read back striped into registers, stored again
 *     and read a third time: 32 shared accesses and a barrier fewer a call
 *     for 16 samples a thread); each thread reads its own chunk of the
 *     sorted order (16 consecutive words, conflict-free thanks to the
 *     sort's padding) and the element before it, and writes starts and
 *     ends (zeroed first: one more barrier) as TILE__HISTO_SORT_;
 *  2: the same reads, but each bin b gets its lower bound L[b] (the number
 *     of samples with a smaller bin) for b = 0 .. nbins: the element p whose
 *     bin c differs from the bin a before it writes p into L[a+1 .. c], the
 *     bins up to the first sample's get 0 and those past the last one's n
 *     (striped over the threads); every L[b] has exactly one writer, so
 *     nothing is zeroed and one barrier fewer than 1; counts = L[b+1] - L[b].
 *     A gap of empty bins between two samples' bins is written by one thread
 *     (at most nbins words).
 * Read where the histogram expands (one translation unit may compile
 * several, as histogram_bench does). Measured (H200, 7b895af, 256 bins,
 * 4096 u8 samples a block, register tile; bench/results/2026-11-29-h200-
 * rest-7b895af-bench.txt), ms and x CUB BlockHistogram sort: uniform 1.949
 * (1.06) with 1, 2.002 (1.03) with 2, 2.121 (0.97) with 0; skewed 1.012
 * (1.90), 1.042 (1.84), 1.354 (1.42): 1, the extra barrier notwithstanding.
 * TILE_HISTO_SORT_NARROW (default 1) adds, with 1 or 2 and where every bin
 * is below 256 (nbins <= 255, or unsigned 8-bit samples): the sort stages
 * the bins as 16-bit words without padding (their digit-interleaved form
 * fits), so each chunk read between passes and here is S / 8 16-byte
 * loads instead of S word loads (16 samples a thread: 2 instead of 16,
 * twice a call); CUB's exchange reads one byte per load. 0: 32-bit words. */
#ifndef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 1
#endif
#ifndef TILE_HISTO_SORT_NARROW
#define TILE_HISTO_SORT_NARROW 1
#endif
/* the chunk path: its words (L, or starts and ends) past the sort's staging
 * in the sort's static buffer */
#define TILE__HISTO_CHW(nbins) (2 * TILE__SORT_A16(((size_t)(nbins) + 1u) * 4u))
#define TILE__HISTO_CH(n, nbins, block)                                            \
    ((TILE_HISTO_SORT_RUNS) != 0 && TILE__SORT_KEEPS(n, block) && TILE__SORT_STATIC(TILE__HISTO_KSZ(n, block)) && \
     TILE__SORT_CLASS(TILE__HISTO_KSZ(n, block)) >= TILE__HISTO_KOFF(n, block) + TILE__HISTO_CHW(nbins))
/* word of sorted element p in the sort's buffer (its padding: one word per
 * TILE__SORT_PERIOD(4)); the internal key of element p (narrow: halfword p) */
#define TILE__HISTO_CHI(p) ((p) + (int)((unsigned)(p) / (unsigned)TILE__SORT_PERIOD(4)))
#define TILE__HISTO_CHK(p) (tile__hNR ? (uint32_t)tile__sh[(p)] : tile__sk[TILE__HISTO_CHI(p)])
#define TILE__HISTO_SORT_CH_(C, X, NB, ADD, OP, RUNS)                              \
    do {                                                                           \
        enum {                                                                     \
            tile__hN = tile_size(X),                                               \
            tile__hB = TILE__BD(X),                                                \
            /* the sort's chunk length (1 where this path is not taken: no   \
             * long array in a dead branch) */                                   \
            tile__hS = TILE__SORT_KEEPS(tile_size(X), TILE__BD(X)) ? (tile_size(X) + TILE__BD(X) - 1) / TILE__BD(X) : 1, \
            tile__hSZ = (int)TILE__HISTO_KSZ(tile_size(X), TILE__BD(X)),           \
            tile__hOL = (int)TILE__HISTO_KOFF(tile_size(X), TILE__BD(X)),          \
            tile__hOE = tile__hOL + (int)TILE__SORT_A16(((size_t)(NB) + 1u) * 4u), \
            tile__hBY = tile__hOL + (int)TILE__HISTO_CHW(NB),                      \
            /* narrow: every bin < 256 (u8 samples can make no bin above 255) */ \
            tile__hNR = (TILE_HISTO_SORT_NARROW) &&                                \
                        ((NB) <= 255 || (sizeof(TILE_ELEM_T(X)) == 1 && (TILE_ELEM_T(X))-1 > (TILE_ELEM_T(X))0)) \
        };                                                                         \
        TILE__REG_TYPE(uint32_t, TILE__BD(X), tile_size(X)) tile__hk;              \
        TILE__UNROLL for (int tile__s = 0; tile__s < tile_slots(tile__hk); ++tile__s) \
            tile__hk.v[tile__s] = TILE__VALID(tile__hk, tile__s) ? tile__histo_bin(TILE__AT(X, tile__s), (uint32_t)(NB)) \
                                                                : 0u;              \
        TILE__SORT_GK(tile__hk, tile__hk, 0, 0, 0, 0, 0, OP, tile__hNR ? 3 : 1);   \
        (void)tile__hk;                                                            \
        /* the sort's static buffer again: the sorted bins below tile__hOL */     \
        TILE__SORT_BUF(tile__hbuf, tile__hBY, tile__hSZ);                          \
        const uint32_t *const tile__sk = (const uint32_t *)tile__hbuf;             \
        const uint16_t *const tile__sh = (const uint16_t *)tile__hbuf; /* narrow */ \
        uint32_t *const tile__st = (uint32_t *)(tile__hbuf + tile__hOL); /* L, or starts */ \
        uint32_t *const tile__en = (uint32_t *)(tile__hbuf + tile__hOE); /* ends (RUNS 1) */ \
        const int tile__ht = tile_thread();                                        \
        const int tile__h0 = tile__ht * tile__hS; /* this thread's chunk */      \
        if ((RUNS) == 1) {                                                         \
            for (int tile__i = tile__ht; tile__i < (NB); tile__i += tile__hB) {    \
                tile__st[tile__i] = 0;                                             \
                tile__en[tile__i] = 0;                                             \
            }                                                                      \
            tile_barrier();                                                        \
        } else { /* the bins before the first sample's and after the last's */  \
            const uint32_t tile__kf = TILE__SORT_KEEP_U32(TILE__HISTO_CHK(0), tile__hB); \
            const uint32_t tile__kl = TILE__SORT_KEEP_U32(TILE__HISTO_CHK(tile__hN - 1), tile__hB); \
            for (int tile__i = tile__ht; tile__i <= (NB); tile__i += tile__hB) {   \
                if ((uint32_t)tile__i <= tile__kf) tile__st[tile__i] = 0;          \
                else if ((uint32_t)tile__i > tile__kl) tile__st[tile__i] = (uint32_t)tile__hN; \
            }                                                                      \
        }                                                                          \
        /* the element before the chunk (internal keys: equal iff equal bins) */ \
        uint32_t tile__pv = tile__h0 > 0 && tile__h0 < tile__hN ? TILE__HISTO_CHK(tile__h0 - 1) : 0u; \
        uint32_t tile__ck[tile__hS]; /* the chunk */                              \
        if (tile__hNR && tile__hS % 8 == 0) { /* 16-byte loads */                \
            TILE__UNROLL for (int tile__g = 0; tile__g < tile__hS / 8; ++tile__g) { \
                uint32_t tile__w[4] = {0, 0, 0, 0};                                \
                if (tile__hN % tile__hB == 0 || tile__h0 + 8 * tile__g < tile__hN) \
                    tile__sort_ld16(tile__w, tile__sh + tile__h0 + 8 * tile__g);   \
                TILE__UNROLL for (int tile__i = 0; tile__i < 8; ++tile__i)         \
                    tile__ck[8 * tile__g + tile__i] = (tile__w[tile__i >> 1] >> (16 * (tile__i & 1))) & 0xffffu; \
            }                                                                      \
        } else {                                                                   \
            TILE__UNROLL for (int tile__j = 0; tile__j < tile__hS; ++tile__j) {    \
                const int tile__p = tile__h0 + tile__j;                            \
                /* wide: a chunk that never straddles a padding word: one base */ \
                tile__ck[tile__j] = !(tile__hN % tile__hB == 0 || tile__p < tile__hN) ? 0u \
                                    : tile__hNR ? (uint32_t)tile__sh[tile__p]      \
                                    : tile__sk[TILE__SORT_PERIOD(4) % tile__hS == 0 ? TILE__HISTO_CHI(tile__h0) + tile__j \
                                                                                    : TILE__HISTO_CHI(tile__p)]; \
            }                                                                      \
        }                                                                          \
        TILE__UNROLL for (int tile__j = 0; tile__j < tile__hS; ++tile__j) {        \
            const int tile__p = tile__h0 + tile__j;                                \
            if (tile__hN % tile__hB == 0 || tile__p < tile__hN) {                  \
                const uint32_t tile__ik = tile__ck[tile__j];                       \
                if (tile__p > 0 && tile__ik != tile__pv) {                         \
                    const uint32_t tile__a = TILE__SORT_KEEP_U32(tile__pv, tile__hB); \
                    const uint32_t tile__c = TILE__SORT_KEEP_U32(tile__ik, tile__hB); \
                    if ((RUNS) == 1) {                                             \
                        if (tile__c < (uint32_t)(NB)) tile__st[tile__c] = (uint32_t)tile__p; \
                        if (tile__a < (uint32_t)(NB)) tile__en[tile__a] = (uint32_t)tile__p; \
                    } else {                                                       \
                        for (uint32_t tile__b = tile__a + 1u; tile__b <= tile__c && tile__b <= (uint32_t)(NB); ++tile__b) \
                            tile__st[tile__b] = (uint32_t)tile__p;                 \
                    }                                                              \
                }                                                                  \
                if ((RUNS) == 1 && tile__p == tile__hN - 1) {                      \
                    const uint32_t tile__c = TILE__SORT_KEEP_U32(tile__ik, tile__hB); \
                    if (tile__c < (uint32_t)(NB)) tile__en[tile__c] = (uint32_t)tile__hN; \
                }                                                                  \
                tile__pv = tile__ik;                                               \
            }                                                                      \
        }                                                                          \
        tile_barrier(); /* (also orders an earlier write of shared counts) */   \
        TILE__EACH(C, tile__s) {                                                   \
            const int tile__i = TILE__LIN(C, tile__s);                             \
            const TILE_ELEM_T(C) tile__c = (TILE_ELEM_T(C))((RUNS) == 1 ? tile__en[tile__i] - tile__st[tile__i] \
                                                                       : tile__st[tile__i + 1] - tile__st[tile__i]); \
            TILE__AT(C, tile__s) = (ADD) ? (TILE_ELEM_T(C))(TILE__AT(C, tile__s) + tile__c) : tile__c; \
        }                                                                          \
        if (tile_is_shared(C)) tile_barrier();                                     \
        TILE__SORT_BUF_END(tile__hbuf, tile__hSZ);                                 \
    } while (0)

/* TILE_HISTO_SORT_KEYS 1: the keys' buffer (bins, starts, ends) on the GPU:
 * the tail of the sort's static buffer when the sort's size class leaves
 * room past its keys-only staging (TILE__SORT_BYTES; the sort writes only
 * below it): no more shared memory than the default (4096 samples, 256
 * bins: 26 KiB staging in the 44 KiB class, 18 KiB keys); written after a
 * barrier, as every user of a static buffer. Else from the arena (a region
 * released after a barrier: written without one; the release's barrier ends
 * the operation). A local array on the CPU. TILE__HISTO_KTAIL(n, nbins,
 * block): 1 when the tail is used. */
#define TILE__HISTO_KSZ(n, block) TILE__SORT_SIZING(4, 4, n, block)
#define TILE__HISTO_KOFF(n, block) TILE__SORT_A16(TILE__SORT_BYTES(4, 4, 0, n, block))
#define TILE__HISTO_KTAIL(n, nbins, block)                                         \
    (TILE__SORT_STATIC(TILE__HISTO_KSZ(n, block)) &&                               \
     TILE__SORT_CLASS(TILE__HISTO_KSZ(n, block)) >= TILE__HISTO_KOFF(n, block) + TILE__HISTO_BYTES(n, nbins, 1))
#ifndef TILE__HISTO_KBUF /* (a block simulator may supply its own) */
#if TILE_ON_DEVICE
#define TILE__HISTO_KBUF(p, bytes, tail, n, block)                                 \
    const int p##__mark = tile_smem_mark();                                       \
    unsigned char *const p = (tail) ? TILE_STATIC_SMEM(TILE__SORT_CLASS(TILE__HISTO_KSZ(n, block))) + \
                                          TILE__HISTO_KOFF(n, block)              \
                                    : (unsigned char *)TILE__SMEM_TAKE((size_t)(bytes)); \
    if (tail) tile_barrier() /* an earlier operation may still read the buffer */
#define TILE__HISTO_KBUF_END(p, tail, cshared)                                     \
    do {                                                                           \
        if (!(tail)) tile_smem_release(p##__mark);                                \
        else if (cshared) tile_barrier();                                          \
    } while (0)
#else
#define TILE__HISTO_KBUF(p, bytes, tail, n, block)                                 \
    union {                                                                        \
        max_align_t a;                                                             \
        unsigned char b[bytes];                                                    \
    } p##__u;                                                                      \
    unsigned char *const p = p##__u.b
#define TILE__HISTO_KBUF_END(p, tail, cshared) tile_barrier()
#endif
#endif
/* as TILE__HISTO_SORT_, the bins sorted as a shared tile in place. When
 * every thread has S = n / block samples, the keys are a (block, S) tile
 * stored transposed (element t*S + j at t + j*block): the chunk the
 * register sort reads as thread t (elements t*S .. t*S+S-1) is then the
 * words thread t writes, without a barrier between and without bank
 * conflicts (a plain chunk t*S + j would be a 16-way conflict at S = 16);
 * the run discovery walks the same chunk (its previous element: the word
 * before in the chunk, or the last of thread t-1's chunk). Else the keys
 * are plain (element p at p), written at the samples' positions, with a
 * barrier. The sort's barriers (at least one after its reads) order the
 * bins and the zeroed starts and ends before the run discovery. */
#define TILE__HISTO_SORT_KEYS_(C, X, NB, ADD, OP)                                  \
    do {                                                                           \
        enum {                                                                     \
            tile__hN = tile_size(X),                                               \
            tile__hB = TILE__BD(X),                                                \
            tile__hS = tile_slots(X),                                              \
            tile__hBY = (int)TILE__HISTO_BYTES(tile_size(X), NB, 1),               \
            tile__hOS = (int)TILE__SORT_A16((size_t)tile_size(X) * 4u),            \
            tile__hOE = tile__hOS + (int)TILE__SORT_A16((size_t)(NB)*4u),          \
            tile__hCH = tile_size(X) % TILE__BD(X) == 0, /* transposed chunks */  \
            tile__hD0 = tile__hCH ? tile__hB : tile__hN,                           \
            tile__hD1 = tile__hCH ? tile__hS : 1                                   \
        };                                                                         \
        enum { tile__hTL = (int)TILE__HISTO_KTAIL(tile_size(X), NB, TILE__BD(X)) };    \
        TILE__HISTO_KBUF(tile__hbuf, tile__hBY, tile__hTL, tile_size(X), TILE__BD(X)); \
        uint32_t *const tile__sk = (uint32_t *)tile__hbuf;                         \
        uint32_t *const tile__st = (uint32_t *)(tile__hbuf + tile__hOS); /* starts */ \
        uint32_t *const tile__en = (uint32_t *)(tile__hbuf + tile__hOE); /* ends */ \
        TILE__TYPE_S_(uint32_t *v, TILE__SHARED, TILE__BD(X), 4, tile__hD0, tile__hD1, 1, 1, 1, \
                      tile__hCH ? tile__hB : 1, 1) tile__hk = {tile__sk, 0, 0};   \
        const int tile__ht = tile_thread();                                        \
        /* slot s: word t + s*B (element t*S + s, or t + s*B when plain) */    \
        TILE__EACH(X, tile__s) {                                                   \
            tile__sk[tile__ht + tile__s * tile__hB] = tile__histo_bin(TILE__AT(X, tile__s), (uint32_t)(NB)); \
        }                                                                          \
        for (int tile__i = tile__ht; tile__i < (NB); tile__i += tile__hB) {        \
            tile__st[tile__i] = 0;                                                 \
            tile__en[tile__i] = 0;                                                 \
        }                                                                          \
        if (!tile__hCH) tile_barrier(); /* bins written by other threads */       \
        TILE__SORT_G(tile__hk, tile__hk, 0, 0, 0, 0, 0, OP);                       \
        uint32_t tile__pv = 0; /* transposed: the chunk's previous element */    \
        TILE__EACH(X, tile__s) {                                                   \
            const int tile__p = tile__hCH ? tile__ht * tile__hS + tile__s : tile__ht + tile__s * tile__hB; \
            const uint32_t tile__b = tile__sk[tile__ht + tile__s * tile__hB];      \
            /* the element before p (p > 0): a register inside a chunk, else a  \
             * word (the last of thread t-1's chunk, or plain p - 1) */        \
            const int tile__q = tile__hCH ? tile__ht - 1 + (tile__hS - 1) * tile__hB : tile__p - 1; \
            const uint32_t tile__a = tile__hCH && tile__s > 0 ? tile__pv           \
                                     : tile__p > 0             ? tile__sk[tile__p > 0 ? tile__q : 0] \
                                                               : (uint32_t)(NB);  \
            tile__pv = tile__b;                                                    \
            if (tile__p == 0 || tile__a != tile__b) {                              \
                if (tile__b < (uint32_t)(NB)) tile__st[tile__b] = (uint32_t)tile__p; \
                if (tile__a < (uint32_t)(NB)) tile__en[tile__a] = (uint32_t)tile__p; \
            }                                                                      \
            if (tile__p == tile__hN - 1 && tile__b < (uint32_t)(NB)) tile__en[tile__b] = (uint32_t)tile__hN; \
        }                                                                          \
        (void)tile__hk;                                                            \
        tile_barrier(); /* (also orders an earlier write of shared counts) */   \
        TILE__EACH(C, tile__s) {                                                   \
            const int tile__i = TILE__LIN(C, tile__s);                             \
            const TILE_ELEM_T(C) tile__c = (TILE_ELEM_T(C))(tile__en[tile__i] - tile__st[tile__i]); \
            TILE__AT(C, tile__s) = (ADD) ? (TILE_ELEM_T(C))(TILE__AT(C, tile__s) + tile__c) : tile__c; \
        }                                                                          \
        TILE__HISTO_KBUF_END(tile__hbuf, tile__hTL, tile_is_shared(C)); /* shared counts complete */ \
    } while (0)

#endif /* TILE_HISTOGRAM_H */
