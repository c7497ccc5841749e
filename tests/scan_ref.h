/* tests/scan_ref.h - what the scan tests share besides tests/scan_common.h:
 * scan_common.h included with the per-row (_axis) scans its kernels assume,
 * then the flattened / aggregate / running-prefix scan kernel (FX_KERNEL),
 * its input (fx_input) and plain-loop reference (fx_check). Included by
 * tests/cpu/test_scan.c (C11, CPU target), tests/cpu/test_scan_block.c (C11,
 * emulated blocks) and tests/gpu/scan_test.cu (nvcc), each after <tile.h>
 * and its SC_LAUNCH (see scan_common.h); each instantiates FX_KERNEL with its
 * own block sizes. Host code is C11 and C++17 (nvcc) alike. */
#ifndef SCAN_REF_H
#define SCAN_REF_H

/* The kernels of tests/scan_common.h scan 2D-4D tiles row by row (their
 * references restart every row): since the default scans run over the
 * flattened tile (Warp's order), they name the per-row _axis forms here. */
#pragma push_macro("tile_scan_inclusive")
#pragma push_macro("tile_scan_exclusive")
#pragma push_macro("tile_scan_max_inclusive")
#pragma push_macro("tile_scan_min_inclusive")
#pragma push_macro("tile_scan_max_exclusive")
#pragma push_macro("tile_scan_min_exclusive")
#pragma push_macro("tile_scan_inclusive_op")
#pragma push_macro("tile_scan_exclusive_op")
#undef tile_scan_inclusive
#undef tile_scan_exclusive
#undef tile_scan_max_inclusive
#undef tile_scan_min_inclusive
#undef tile_scan_max_exclusive
#undef tile_scan_min_exclusive
#undef tile_scan_inclusive_op
#undef tile_scan_exclusive_op
#define tile_scan_inclusive(d, s) tile_scan_inclusive_axis(d, s, -1)
#define tile_scan_exclusive(d, s) tile_scan_exclusive_axis(d, s, -1)
#define tile_scan_max_inclusive(d, s) tile_scan_max_inclusive_axis(d, s, -1)
#define tile_scan_min_inclusive(d, s) tile_scan_min_inclusive_axis(d, s, -1)
#define tile_scan_max_exclusive(d, s) tile_scan_max_exclusive_axis(d, s, -1)
#define tile_scan_min_exclusive(d, s) tile_scan_min_exclusive_axis(d, s, -1)
#define tile_scan_inclusive_op(d, op, s) tile_scan_inclusive_op_axis(d, op, s, -1)
#define tile_scan_exclusive_op(d, op, init, s) tile_scan_exclusive_op_axis(d, op, init, s, -1)
#include "scan_common.h"
#pragma pop_macro("tile_scan_inclusive")
#pragma pop_macro("tile_scan_exclusive")
#pragma pop_macro("tile_scan_max_inclusive")
#pragma pop_macro("tile_scan_min_inclusive")
#pragma pop_macro("tile_scan_max_exclusive")
#pragma pop_macro("tile_scan_min_exclusive")
#pragma pop_macro("tile_scan_inclusive_op")
#pragma pop_macro("tile_scan_exclusive_op")

/* ---- flattened scans, the block aggregate, running prefixes (scan.h) ----
 * One kernel per block size; `which` picks the case. Data: i32 in [-50, 50]
 * (sums exact in any order). out: FX_OUTN i32; a case writes its scan at
 * [0, n) and its aggregate / final prefix, once per thread, at [n, n + B).
 *  0: 8x37 register tile, tile_scan_inclusive: one run in row-major order
 *  1: 8x37 shared tile in place, tile_scan_exclusive_agg
 *  2: 8x37 register tile, tile_scan_max_inclusive_agg
 *  3: 2x4x37 register tile, tile_scan_min_exclusive (3D, flattened)
 *  4: FX_LEN elements in tiles of FX_T, one loop: tile_scan_inclusive_prefix
 *     (the last tile partial, zero-padded by tile_load)
 *  5: the same loop with tile_load_fill(INT32_MIN) and
 *     tile_scan_max_exclusive_prefix starting at INT32_MIN */
enum { FX_R = 8, FX_C = 37, FX_N = FX_R * FX_C, FX_LEN = 5000, FX_T = 1024, FX_OUTN = FX_LEN + 1024, FX_NCASE = 6 };
#define FX_KERNEL(name, B)                                                         \
    TILE_KERNEL_SMEM(name, B, TILE_SMEM_BYTES(int32_t, FX_R, FX_C), const int32_t *in, int32_t *out, int which) { \
        int32_t agg = 0;                                                           \
        int n = FX_N;                                                              \
        if (which <= 2) {                                                          \
            tile_reg(int32_t, r, FX_R, FX_C);                                      \
            tile_reg(int32_t, d, FX_R, FX_C);                                      \
            tile_shared(int32_t, sh, FX_R, FX_C);                                  \
            const tile_array a2 = tile_array2(in, FX_R, FX_C), o2 = tile_array2(out, FX_R, FX_C); \
            if (which == 0) {                                                      \
                tile_load(r, a2, 0, 0);                                            \
                tile_scan_inclusive(d, r);                                         \
                tile_store(o2, d, 0, 0);                                           \
            } else if (which == 1) {                                               \
                tile_load(sh, a2, 0, 0);                                           \
                tile_scan_exclusive_agg(sh, sh, agg);                              \
                tile_store(o2, sh, 0, 0);                                          \
            } else {                                                               \
                tile_load(r, a2, 0, 0);                                            \
                tile_scan_max_inclusive_agg(d, r, agg);                            \
                tile_store(o2, d, 0, 0);                                           \
            }                                                                      \
        } else if (which == 3) {                                                   \
            tile_reg(int32_t, r3, 2, 4, FX_C);                                     \
            tile_load(r3, tile_array3(in, 2, 4, FX_C), 0, 0, 0);                   \
            tile_scan_min_exclusive(r3, r3);                                       \
            tile_store(tile_array3(out, 2, 4, FX_C), r3, 0, 0, 0);                 \
        } else {                                                                   \
            n = FX_LEN;                                                            \
            agg = which == 4 ? 0 : INT32_MIN;                                      \
            for (int off = 0; off < FX_LEN; off += FX_T) {                         \
                tile_reg(int32_t, t, FX_T);                                        \
                const tile_array ai = tile_array1(in + off, FX_LEN - off);         \
                if (which == 4) {                                                  \
                    tile_load(t, ai, 0);                                           \
                    tile_scan_inclusive_prefix(t, t, agg);                         \
                } else {                                                           \
                    tile_load_fill(t, ai, INT32_MIN, 0);                           \
                    tile_scan_max_exclusive_prefix(t, t, agg);                     \
                }                                                                  \
                tile_store(tile_array1(out + off, FX_LEN - off), t, 0);            \
            }                                                                      \
        }                                                                          \
        if (which != 0 && which != 3) out[n + tile_thread()] = agg;                \
    }

/* the reference of case `which` (a plain loop); returns the number of
 * differing elements of out (nthreads aggregate copies checked), the first
 * described in msg */
static long fx_check(int which, const int32_t *in, const int32_t *out, int nthreads, char *msg, size_t msglen) {
    static int32_t ref[FX_OUTN];
    const int n = which >= 4 ? FX_LEN : FX_N;
    int64_t run = which == 4 ? 0 : which == 5 ? INT32_MIN : 0;
    for (int i = 0; i < n; ++i) {
        const int32_t x = in[i];
        switch (which) {
        case 0: case 4: run += x; ref[i] = (int32_t)run; break;
        case 1: ref[i] = (int32_t)run; run += x; break;
        case 2: run = i == 0 || x > run ? x : run; ref[i] = (int32_t)run; break;
        case 3: ref[i] = i == 0 ? INT32_MAX : (int32_t)run; run = i == 0 || x < run ? x : run; break;
        default: ref[i] = (int32_t)run; run = x > run ? x : run; break;
        }
    }
    long bad = 0;
    msg[0] = 0;
    for (int i = 0; i < n; ++i)
        if (out[i] != ref[i] && !bad++) snprintf(msg, msglen, "case %d element %d: got %ld, expected %ld", which, i, (long)out[i], (long)ref[i]);
    if (which != 0 && which != 3)
        for (int t = 0; t < nthreads; ++t)
            if (out[n + t] != (int32_t)run && !bad++)
                snprintf(msg, msglen, "case %d aggregate in thread %d: got %ld, expected %ld", which, t, (long)out[n + t], (long)run);
    return bad;
}
/* input: i32 in [-50, 50], no zeros */
static void fx_input(int32_t *in) {
    for (int i = 0; i < FX_LEN; ++i) {
        uint32_t h = (uint32_t)i * 2654435761u ^ 0x9e3779b9u;
        h ^= h >> 15;
        h *= 0x85ebca6bu;
        h ^= h >> 13;
        int v = (int)(h % 100u) - 50;
        in[i] = v >= 0 ? v + 1 : v;
    }
}

#endif /* SCAN_REF_H */
