/* tile_histogram / tile_histogram_composite / tile_histogram_init on the CPU
 * target (block_dim 1): both algorithms (TILE_HISTO_ATOMIC, TILE_HISTO_SORT),
 * register and shared counts (u32, i32, i64, u64), samples of u8, u16, i32
 * (negative and too-large ones: ignored), i64, a 2D sample tile and a view,
 * lengths 1 .. 4096, the init and composite forms, against a plain counting
 * loop; the header's example; the header's load pattern (samples through a
 * shared 16 x 64 u8 tile, aligned and misaligned source); all of it again
 * with TILE_HISTO_SORT_KEYS 1 (kernels k_..., h_pattern_keys). The GPU code path (block_dim > 1) is run by
 * test_sort_sim.c's block simulator and tests/gpu/sort_test.cu, and at the
 * end of this file by the same block simulator (tests/cpu/block_sim.h:
 * coroutine threads, barriers and warp steps checked, three schedules) for
 * the run discovery in the sort's buffer (TILE_HISTO_SORT_RUNS 2, 1; with
 * 16-bit staging, TILE_HISTO_SORT_NARROW 1, and 32-bit, 0) and the former
 * path (RUNS 0): blocks of 256, 64, 33 and 16 threads, register and
 * shared samples and counts, inputs with one bin, gaps of empty bins and
 * only out-of-range samples; i8 samples in 256 bins make bin 256 (the
 * negative ones): 9-bit bins, 32-bit staging whatever NARROW says, 3 passes. */
#define _GNU_SOURCE
/* (as test_sort_sim.c: tile_thread() changes at every barrier under the
 * simulator, so gcc cannot match slot-validity tests and warns) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "test_util.h"
#include <tile/histogram.h>

/* reference: counts[b] (+)= #samples equal to b, for b in [0, nb) */
static void ref_hist(const int64_t *x, int n, int nb, int64_t *counts, int add) {
    if (!add) memset(counts, 0, sizeof(int64_t) * (size_t)nb);
    for (int i = 0; i < n; ++i)
        if (x[i] >= 0 && x[i] < nb) ++counts[x[i]];
}

/* one kernel per (sample type, n, nbins, counts type): register counts with
 * the atomic algorithm (kind 0) and the sort one (1), shared counts with
 * each (2, 3); then a composite of the same tile again with the other
 * algorithm, so the second output is twice the counts */
#define DEF_H(name, T, N, NB, CT)                                                  \
    TILE_KERNEL_SMEM(name, 64, TILE_SMEM_BYTES(CT, NB) + TILE_SMEM_BYTES(T, N), const T *in, CT *o1, CT *o2, \
                     int kind) {                                                   \
        tile_reg(T, x, N);                                                         \
        tile_load(x, tile_array1(in, N), 0);                                       \
        if (kind < 2) {                                                            \
            tile_reg(CT, c, NB);                                                   \
            if (kind == 0) tile_histogram(c, x, NB);                               \
            else tile_histogram_alg(c, x, NB, TILE_HISTO_SORT);                    \
            tile_store(tile_array1(o1, NB), c, 0);                                 \
            if (kind == 0) tile_histogram_composite_alg(c, x, NB, TILE_HISTO_SORT); \
            else tile_histogram_composite(c, x, NB);                               \
            tile_store(tile_array1(o2, NB), c, 0);                                 \
        } else {                                                                   \
            tile_shared(CT, c, NB);                                                \
            tile_shared(T, xs, N); /* shared samples */                          \
            tile_copy(xs, x);                                                      \
            if (kind == 2) tile_histogram_alg(c, xs, NB, TILE_HISTO_ATOMIC);       \
            else tile_histogram_alg(c, xs, NB, TILE_HISTO_SORT);                   \
            tile_store(tile_array1(o1, NB), c, 0);                                 \
            if (kind == 2) tile_histogram_composite_alg(c, x, NB, TILE_HISTO_SORT); \
            else tile_histogram_composite_alg(c, x, NB, TILE_HISTO_ATOMIC);        \
            tile_store(tile_array1(o2, NB), c, 0);                                 \
        }                                                                          \
    }
/* X(name, sample type, n, nbins, counts type, sample generator) */
#define H_CASES(X)                                                                 \
    X(h_u8_4096_256, uint8_t, 4096, 256, uint32_t, GEN_U8)                         \
    X(h_u8_1_256, uint8_t, 1, 256, uint32_t, GEN_U8)                               \
    X(h_u8_1000_100, uint8_t, 1000, 100, int32_t, GEN_U8)                          \
    X(h_i32_333_37, int32_t, 333, 37, int32_t, GEN_WIDE)                           \
    X(h_i32_4096_1, int32_t, 4096, 1, uint32_t, GEN_WIDE)                          \
    X(h_u16_2000_1000, uint16_t, 2000, 1000, uint64_t, GEN_U16)                    \
    X(h_i64_257_16, int64_t, 257, 16, int64_t, GEN_I64)                            \
    X(h_i8_100_5, int8_t, 100, 5, uint32_t, GEN_WIDE)
#define DEF_H_CASE(name, T, N, NB, CT, GEN) DEF_H(name, T, N, NB, CT)
H_CASES(DEF_H_CASE)

/* the same kernels with TILE_HISTO_SORT_KEYS 1 (the sort algorithm sorts the
 * bins as a shared tile in its own buffer), named k_... */
#undef TILE_HISTO_SORT_KEYS
#define TILE_HISTO_SORT_KEYS 1
#define DEF_HK_CASE(name, T, N, NB, CT, GEN) DEF_H(k_##name, T, N, NB, CT)
H_CASES(DEF_HK_CASE)
enum {
    KEYS_SMEM_4096_256 = (int)TILE_HISTOGRAM_SMEM_BYTES(4096, 256, 256),
    KEYS_SMEM_4096_2048 = (int)TILE_HISTOGRAM_SMEM_BYTES(4096, 2048, 256)
};
#undef TILE_HISTO_SORT_KEYS
#define TILE_HISTO_SORT_KEYS 0

/* sample generators: pattern p (0 uniform, 1 one bin, 2 few bins, 3 skewed) */
static uint64_t rng(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int64_t gen(int kind, int p, int nb, uint64_t *s) {
    const uint64_t r = rng(s);
    if (p == 1) return nb / 2;
    if (p == 2) return (int64_t)(r % 3u) * (nb / 3);
    if (p == 3 && (r & 7)) return (int64_t)(r >> 8) % (nb < 4 ? nb : 4);
    switch (kind) {
    case 0: return (int64_t)(r & 0xffu);                      /* u8: all of 0..255 */
    case 1: return (int64_t)(r % 1200u);                     /* u16: some >= nbins */
    case 2: return (int64_t)(r % (uint64_t)(3 * nb)) - nb;   /* negative and too large */
    default: return (r & 1) ? (int64_t)(r >> 1) : (int64_t)(r % (uint64_t)(nb + 2)) - 1; /* i64 extremes */
    }
}
#define GEN_U8 0
#define GEN_U16 1
#define GEN_WIDE 2
#define GEN_I64 3

#define RUN_H(name, T, N, NB, CT, GEN)                                             \
    do {                                                                           \
        static T in[N];                                                            \
        static int64_t x64[N], ref[NB];                                            \
        static CT o1[NB], o2[NB];                                                  \
        uint64_t s = 77u + N + NB;                                                 \
        for (int p = 0; p < 4; ++p) {                                              \
            for (int i = 0; i < N; ++i) {                                          \
                in[i] = (T)gen(GEN, p, NB, &s);                                    \
                x64[i] = (int64_t)in[i];                                           \
            }                                                                      \
            ref_hist(x64, N, NB, ref, 0);                                          \
            for (int kind = 0; kind < 4; ++kind) {                                 \
                memset(o1, 0xcd, sizeof o1);                                       \
                memset(o2, 0xcd, sizeof o2);                                       \
                assert_tile_ok(tile_launch(TILE_CPU, name, tile_grid1(1), 64, in, o1, o2, kind)); \
                long bad = 0;                                                      \
                for (int b = 0; b < NB; ++b) bad += (int64_t)o1[b] != ref[b] || (int64_t)o2[b] != 2 * ref[b]; \
                if (bad) {                                                         \
                    print_error("%s kind %d pattern %d: %ld bins wrong\n", #name, kind, p, bad); \
                    fail();                                                        \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    } while (0);

static void test_histograms(void **state) {
    (void)state;
    H_CASES(RUN_H)
}
#define RUN_HK(name, T, N, NB, CT, GEN) RUN_H(k_##name, T, N, NB, CT, GEN)
static void test_histograms_sort_keys(void **state) {
    (void)state;
    H_CASES(RUN_HK)
    /* 4096 samples, 256 bins: the keys, starts and ends (18 KiB) in the tail of
     * the sort's static buffer (26 KiB of staging in the 44 KiB class): no
     * arena; 2048 bins (32 KiB) do not fit there: all of it from the arena */
    assert_int_equal(TILE__HISTO_KTAIL(4096, 256, 256), 1);
    assert_int_equal(KEYS_SMEM_4096_256, 0);
    assert_int_equal(TILE__HISTO_KTAIL(4096, 2048, 256), 0);
    assert_int_equal(KEYS_SMEM_4096_2048, 4096 * 4 + 2 * 2048 * 4);
    assert_int_equal(TILE_HISTOGRAM_SMEM_BYTES(4096, 256, 256), 0); /* 0 again where it is 0 */
}

/* the header's example; a 2D sample tile and a shared view; init */
TILE_KERNEL_SMEM(h_doc, 32, TILE_SMEM_BYTES(int32_t, 4) + TILE_SMEM_BYTES(int32_t, 6, 8), const int32_t *in2d,
                 int32_t *o1, int32_t *o2, uint32_t *o3, uint32_t *o4, int32_t *o5) {
    const int32_t xin[7] = {3, 1, 3, 0, 7, -1, 3};
    tile_reg(int32_t, x, 7);
    tile_reg(int32_t, c, 4);
    tile_load(x, tile_array1(xin, 7), 0);
    tile_histogram(c, x, 4);
    tile_store(tile_array1(o1, 4), c, 0);
    tile_histogram_composite(c, x, 4);
    tile_store(tile_array1(o2, 4), c, 0);
    tile_reg(int32_t, a, 6, 8);
    tile_load(a, tile_array2(in2d, 6, 8), 0, 0);
    tile_reg(uint32_t, h, 10);
    tile_histogram_alg(h, a, 10, TILE_HISTO_SORT); /* 2D samples */
    tile_store(tile_array1(o3, 10), h, 0);
    tile_shared(int32_t, sa, 6, 8);
    tile_copy(sa, a);
    tile_view(w, sa, (3, 4), (2, 3)); /* rows 2..4, columns 3..6 */
    tile_histogram(h, w, 10);
    tile_store(tile_array1(o4, 10), h, 0);
    tile_shared(int32_t, sc, 4);
    tile_histogram(sc, x, 4);
    tile_histogram_init(sc);
    tile_store(tile_array1(o5, 4), sc, 0);
}
static void test_doc_and_views(void **state) {
    (void)state;
    int32_t in2d[48], o1[4], o2[4], o5[4];
    uint32_t o3[10], o4[10];
    for (int i = 0; i < 48; ++i) in2d[i] = (i * 7) % 13 - 1; /* -1 .. 11: some out of range */
    assert_tile_ok(tile_launch(TILE_CPU, h_doc, tile_grid1(1), 32, in2d, o1, o2, o3, o4, o5));
    const int32_t e1[4] = {1, 1, 0, 3}, e2[4] = {2, 2, 0, 6}, e5[4] = {0, 0, 0, 0};
    assert_memory_equal(o1, e1, sizeof e1);
    assert_memory_equal(o2, e2, sizeof e2);
    assert_memory_equal(o5, e5, sizeof e5);
    int64_t x[48], ref[10];
    for (int i = 0; i < 48; ++i) x[i] = in2d[i];
    ref_hist(x, 48, 10, ref, 0);
    for (int b = 0; b < 10; ++b) assert_int_equal(o3[b], ref[b]);
    int n = 0;
    for (int r = 2; r < 5; ++r)
        for (int c = 3; c < 7; ++c) x[n++] = in2d[r * 8 + c];
    ref_hist(x, 12, 10, ref, 0);
    for (int b = 0; b < 10; ++b) assert_int_equal(o4[b], ref[b]);
    assert_int_equal(TILE_HISTOGRAM_SMEM_BYTES(4096, 256, 256), 0);
}

/* the header's load pattern: samples through a shared 16 x 64 u8 tile (one
 * 16-byte load a thread on the GPU), composited piece by piece into shared
 * counts with either algorithm; from a misaligned pointer the load falls back
 * to element copies and must give the same counts */
#define PAT_PIECES 5
#define DEF_PATTERN(h_pattern)                                                     \
TILE_KERNEL_SMEM(h_pattern, 64, \
                 TILE_SMEM_BYTES(uint32_t, 256) + TILE_SMEM_BYTES(uint8_t, 16, 64) + \
                     TILE_HISTOGRAM_SMEM_BYTES(16 * 64, 256, 64), \
                 const uint8_t *in, uint32_t *out, int alg) {                    \
    tile_shared(uint32_t, c, 256);                                                 \
    tile_shared(uint8_t, xs, 16, 64);                                              \
    tile_histogram_init(c);                                                        \
    for (int i = 0; i < PAT_PIECES; ++i) {                                         \
        tile_load(xs, tile_array2(in + i * 16 * 64, 16, 64), 0, 0);                \
        if (alg == TILE_HISTO_SORT) tile_histogram_composite_alg(c, xs, 256, TILE_HISTO_SORT); \
        else tile_histogram_composite(c, xs, 256);                                 \
    }                                                                              \
    tile_store(tile_array1(out, 256), c, 0);                                       \
}
DEF_PATTERN(h_pattern)
/* alg 2: the sort algorithm with TILE_HISTO_SORT_KEYS 1 */
#undef TILE_HISTO_SORT_KEYS
#define TILE_HISTO_SORT_KEYS 1
DEF_PATTERN(h_pattern_keys)
#undef TILE_HISTO_SORT_KEYS
#define TILE_HISTO_SORT_KEYS 0
static void test_shared_tile_pattern(void **state) {
    (void)state;
    enum { N = PAT_PIECES * 16 * 64 };
    static _Alignas(16) uint8_t in[N + 16];
    static int64_t x[N], ref[256];
    uint32_t out[256];
    uint64_t s = 4242u;
    for (int p = 0; p < 4; ++p) {
        for (int i = 0; i < N + 16; ++i) in[i] = (uint8_t)gen(GEN_U8, p, 256, &s);
        for (int off = 0; off < 2; ++off) { /* 0: 16-byte aligned; 1: misaligned */
            for (int i = 0; i < N; ++i) x[i] = in[off + i];
            ref_hist(x, N, 256, ref, 0);
            for (int alg = 0; alg < 3; ++alg) {
                memset(out, 0xcd, sizeof out);
                if (alg < 2)
                    assert_tile_ok(tile_launch(TILE_CPU, h_pattern, tile_grid1(1), 64, (const uint8_t *)in + off, out, alg));
                else
                    assert_tile_ok(tile_launch(TILE_CPU, h_pattern_keys, tile_grid1(1), 64, (const uint8_t *)in + off, out,
                                               TILE_HISTO_SORT));
                for (int b = 0; b < 256; ++b) {
                    if ((int64_t)out[b] != ref[b]) {
                        print_error("pattern %d offset %d alg %d: bin %d is %u, expected %lld\n", p, off, alg, b,
                                    out[b], (long long)ref[b]);
                        fail();
                    }
                }
            }
        }
    }
}

/* ======================================================================
 * The GPU code path (block_dim > 1) under the block simulator
 * (tests/cpu/block_sim.h: coroutine threads, three orders between
 * barriers, barriers and warp steps checked). The sort's staging
 * buffer (also the histogram's: the chunk path reads the sorted bins the
 * sort left there) is poisoned before each run. Everything below is
 * compiled with the hooks, everything above without.
 * ====================================================================== */
#include "block_sim.h"

/* the hooks (the macros are read where the kernels below expand) */
#undef TILE__SORT_WARP_SCAN
#define TILE__SORT_WARP_SCAN(x, mask, lane) sim_warp_scan((x), (mask), (lane))
#undef TILE__SORT_WARP_ANDOR
#define TILE__SORT_WARP_ANDOR(a, o, mask, lane, act) sim_warp_andor(&(a), &(o), (mask), (lane), (act))
#undef TILE__SORT_BUF
#define TILE__SORT_BUF(p, bytes, sizing) unsigned char *const p = sim_buf(bytes)
#undef TILE__SORT_BUF_END
#define TILE__SORT_BUF_END(p, sizing) ((void)0)
#undef TILE_BLOCK_DIM
#define TILE_BLOCK_DIM ((int)sizeof(*tile__bd))
#undef tile_thread
#define tile_thread() sim_tid
#undef tile_barrier
#define tile_barrier() sim_barrier(__LINE__)

static const void *s_in;
static void *s_o1, *s_o2;
#define SIM_KERNEL(name, B, ...)                                                   \
    static void name(void) {                                                       \
        char(*tile__bd)[B] = 0;                                                    \
        tile_kctx tile__k;                                                         \
        memset(&tile__k, 0, sizeof tile__k);                                       \
        tile__k.smem = sim_arena.b;                                                \
        tile__k.smem_cap = SIM_ARENA;                                              \
        (void)tile__bd;                                                            \
        __VA_ARGS__                                                                \
    }
/* o1 = the histogram (sort algorithm), o2 = o1 + the histogram again
 * (composite: 2 * o1); XD / CD: register or shared samples and counts */
#define SIM_H(name, B, T, N, NB, CT, XD, CD)                                      \
    SIM_KERNEL(name, B, XD(T, x, N); tile_load(x, tile_array1((const T *)s_in, N), 0); CD(CT, c, NB); \
               tile_histogram_alg(c, x, NB, TILE_HISTO_SORT); tile_store(tile_array1((CT *)s_o1, NB), c, 0); \
               tile_histogram_composite_alg(c, x, NB, TILE_HISTO_SORT);   \
               tile_store(tile_array1((CT *)s_o2, NB), c, 0);)
/* X(name, block, sample type, n, nbins, counts type, samples decl, counts decl, generator) */
#define SIM_CASES(X, R)                                                            \
    X(s##R##_u8_256_4096_256, 256, uint8_t, 4096, 256, uint32_t, tile_reg, tile_shared, GEN_U8) \
    X(s##R##_i32_64_1000_37, 64, int32_t, 1000, 37, int32_t, tile_reg, tile_reg, GEN_WIDE) \
    X(s##R##_i32_33_300_20, 33, int32_t, 300, 20, int64_t, tile_shared, tile_reg, GEN_WIDE) \
    X(s##R##_u16_16_256_100, 16, uint16_t, 256, 100, uint64_t, tile_reg, tile_shared, GEN_U16) \
    X(s##R##_u8_256_2048_256, 256, uint8_t, 2048, 256, uint32_t, tile_shared, tile_reg, GEN_U8) \
    X(s##R##_i8_64_1024_256, 64, int8_t, 1024, 256, uint32_t, tile_reg, tile_reg, GEN_WIDE)
#define DEF_SIM(name, B, T, N, NB, CT, XD, CD, GEN) SIM_H(name, B, T, N, NB, CT, XD, CD)
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 2
SIM_CASES(DEF_SIM, 2)
enum { SIM_CH_2 = TILE__HISTO_CH(4096, 256, 256) && TILE__HISTO_CH(300, 20, 33) && TILE__HISTO_CH(256, 100, 16) &&
                   TILE__HISTO_CH(1000, 37, 64) && TILE__HISTO_CH(2048, 256, 256) && TILE__HISTO_CH(1024, 256, 64) };
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 1
SIM_CASES(DEF_SIM, 1)
#undef TILE_HISTO_SORT_NARROW
#define TILE_HISTO_SORT_NARROW 0
SIM_CASES(DEF_SIM, 1w)
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 2
SIM_CASES(DEF_SIM, 2w)
#undef TILE_HISTO_SORT_NARROW
#define TILE_HISTO_SORT_NARROW 1
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 0
SIM_CASES(DEF_SIM, 0)
enum { SIM_CH_0 = TILE__HISTO_CH(4096, 256, 256) };
#undef TILE_HISTO_SORT_RUNS
#define TILE_HISTO_SORT_RUNS 2

/* sim patterns: 0-3 as gen(); 4: gaps (only the lowest and highest bins);
 * 5: every sample out of range (or the top bin for u8 in 256 bins) */
static int64_t sim_gen(int kind, int p, int nb, uint64_t *s) {
    if (p < 4) return gen(kind, p, nb, s);
    const uint64_t r = rng(s);
    if (p == 4) return (r & 1) ? 0 : nb - 1;
    return kind == GEN_U8 ? 255 : (r & 1) ? nb : -1 - (int64_t)(r % 5u);
}
#define RUN_SIM(name, B, T, N, NB, CT, XD, CD, GEN)                               \
    do {                                                                           \
        static T in[N];                                                            \
        static int64_t x64[N], ref[NB];                                            \
        static CT o1[NB], o2[NB];                                                  \
        uint64_t s = 99u + N + NB;                                                 \
        for (int p = 0; p < 6; ++p) {                                              \
            for (int i = 0; i < N; ++i) {                                          \
                in[i] = (T)sim_gen(GEN, p, NB, &s);                                \
                x64[i] = (int64_t)in[i];                                           \
            }                                                                      \
            ref_hist(x64, N, NB, ref, 0);                                          \
            for (int pol = 0; pol < SIM_NPOL; ++pol) {                             \
                memset(o1, 0xcd, sizeof o1);                                       \
                memset(o2, 0xcd, sizeof o2);                                       \
                s_in = in;                                                         \
                s_o1 = o1;                                                         \
                s_o2 = o2;                                                         \
                if (sim_run(B, pol, name)) {                                       \
                    print_error("%s pattern %d schedule %d: simulator: %s\n", #name, p, pol, sim_err); \
                    fail();                                                        \
                }                                                                  \
                long bad = 0;                                                      \
                for (int b = 0; b < NB; ++b) bad += (int64_t)o1[b] != ref[b] || (int64_t)o2[b] != 2 * ref[b]; \
                if (bad) {                                                         \
                    print_error("%s pattern %d schedule %d: %ld bins wrong\n", #name, p, pol, bad); \
                    fail();                                                        \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    } while (0);
static void test_sim_runs2(void **state) {
    (void)state;
    assert_int_equal(SIM_CH_2, 1); /* these cases take the chunk path */
    SIM_CASES(RUN_SIM, 2)
}
static void test_sim_runs1(void **state) {
    (void)state;
    SIM_CASES(RUN_SIM, 1)
}
/* the same with 32-bit staging (TILE_HISTO_SORT_NARROW 0) */
static void test_sim_runs2_wide(void **state) {
    (void)state;
    SIM_CASES(RUN_SIM, 2w)
}
static void test_sim_runs1_wide(void **state) {
    (void)state;
    SIM_CASES(RUN_SIM, 1w)
}
static void test_sim_runs0(void **state) {
    (void)state;
    assert_int_equal(SIM_CH_0, 0); /* the former path */
    SIM_CASES(RUN_SIM, 0)
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_histograms),
        cmocka_unit_test(test_histograms_sort_keys),
        cmocka_unit_test(test_doc_and_views),
        cmocka_unit_test(test_shared_tile_pattern),
        cmocka_unit_test(test_sim_runs2),
        cmocka_unit_test(test_sim_runs1),
        cmocka_unit_test(test_sim_runs2_wide),
        cmocka_unit_test(test_sim_runs1_wide),
        cmocka_unit_test(test_sim_runs0),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
