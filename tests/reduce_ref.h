/* tests/reduce_ref.h - kernels with their inputs and plain-loop references
 * shared by the C11 CPU tests and tests/gpu/reduce_stack_test.cu (nvcc):
 *  - LB_KERNEL, lb_input, lb_check: fill values, in-bounds flags, keepdims
 *    and broadcasts (tests/cpu/test_reduce_load.c);
 *  - HF_KERNEL, hf_input, hf_check: f16 / bf16 reductions accumulated in f32
 *    (tests/cpu/test_block_reduce.c).
 * Each includer instantiates the kernels with its own block sizes. Needs
 * <tile.h>, <stdio.h> and <stdint.h> first. The helpers are static inline so
 * a test using only one part compiles warning-free. Host code is C11 and
 * C++17 (nvcc) alike. */
#ifndef REDUCE_REF_H
#define REDUCE_REF_H

/* ---- fill values, in-bounds flags, keepdims and broadcasts (load.h,
 * reduce.h) ----
 * A (LB_AR x LB_AC f32, multiples of 1/64: every sum here is exact) and the
 * 8x40 tile; `which` picks the case, out gets an 8x40 (or 4x6x10) result.
 *  0: tile_load_fill(-inf) of a register tile at (8, 24): partly outside
 *     both dims
 *  1: tile_inbounds of the same load into an int tile (flags)
 *  2: tile_load_fill(+inf) of a shared tile at (8, 24)
 *  3: r = A[0:8, 0:40]; r -= max over axis 1 (keepdims, register);
 *     r += sum over axis 0 (keepdims)
 *  4: r = A[0:8, 0:40] * g (40, a shared 1D tile, broadcast over rows),
 *     then / the min over axis 1 (keepdims)
 *  5: a 4x6x10 tile t of A's data; t = lb_f(t, sum of t over axis 1
 *     (keepdims)), lb_f(x, y) = x - y / 2, by tile_map2_bcast on a shared t */
enum { LB_AR = 13, LB_AC = 45, LB_R = 8, LB_C = 40, LB_N = LB_R * LB_C, LB_NCASE = 6 };
TILE_FUNC float lb_f(float x, float y) { return x - y / 2; }
#define LB_KERNEL(name, B)                                                         \
    TILE_KERNEL_SMEM(name, B, TILE_SMEM_BYTES(float, LB_R, LB_C) + TILE_SMEM_BYTES(float, LB_C) + \
                                  TILE_SMEM_BYTES(float, 4, 6, 10),               \
                     const float *in, float *out, int *flags, int which) {         \
        const tile_array a = tile_array2(in, LB_AR, LB_AC), o = tile_array2(out, LB_R, LB_C); \
        tile_reg(float, r, LB_R, LB_C);                                            \
        tile_shared(float, sh, LB_R, LB_C);                                        \
        tile_shared(float, g, LB_C);                                               \
        tile_shared(float, t3, 4, 6, 10);                                          \
        if (which == 0) {                                                          \
            tile_load_fill(r, a, -INFINITY, 8, 24);                                \
            tile_store(o, r, 0, 0);                                                \
        } else if (which == 1) {                                                   \
            tile_reg(int, ok, LB_R, LB_C);                                         \
            tile_inbounds(ok, a, 8, 24);                                           \
            tile_store(tile_array2(flags, LB_R, LB_C), ok, 0, 0);                  \
        } else if (which == 2) {                                                   \
            tile_load_fill(sh, a, INFINITY, 8, 24);                                \
            tile_store(o, sh, 0, 0);                                               \
        } else if (which == 3) {                                                   \
            tile_load(r, a, 0, 0);                                                 \
            tile_max_axis_keepdims(m, r, 1);                                       \
            tile_sub_bcast(r, r, m);                                               \
            tile_sum_axis_keepdims(cs, r, 0);                                      \
            tile_add_bcast(r, r, cs);                                              \
            tile_store(o, r, 0, 0);                                                \
        } else if (which == 4) {                                                   \
            tile_load(r, a, 0, 0);                                                 \
            tile_load(g, tile_array1(in + LB_AC, LB_C), 0);                        \
            tile_mul_bcast(r, r, g);                                               \
            tile_min_axis_keepdims(mn, r, 1);                                      \
            tile_div_bcast(r, r, mn);                                              \
            tile_store(o, r, 0, 0);                                                \
        } else {                                                                   \
            tile_load(t3, tile_array3(in, 4, 6, 10), 0, 0, 0);                     \
            tile_sum_axis_keepdims(s3, t3, 1);                                     \
            tile_map2_bcast(t3, lb_f, t3, s3);                                     \
            tile_store(tile_array3(out, 4, 6, 10), t3, 0, 0, 0);                   \
        }                                                                          \
    }

/* A: multiples of 1/64 in [-2, 2], none zero (case 4 divides by a min) */
static inline void lb_input(float *in) {
    for (int i = 0; i < LB_AR * LB_AC; ++i) {
        uint32_t h = (uint32_t)i * 2654435761u ^ 0x51ed27u;
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        h ^= h >> 12;
        int v = (int)(h % 255u) - 127;
        in[i] = (float)(v == 0 ? 1 : v) / 64.0f;
    }
}
/* the plain-loop reference of case `which`; returns the number of differing
 * elements, the first described in msg */
static inline long lb_check(int which, const float *in, const float *out, const int *flags, char *msg, size_t msglen) {
    static double ref[LB_N];
    int n = LB_N;
    if (which <= 2) {
        for (int i = 0; i < LB_R; ++i)
            for (int j = 0; j < LB_C; ++j) {
                const int r = 8 + i, c = 24 + j, inside = r < LB_AR && c < LB_AC;
                ref[i * LB_C + j] = which == 1 ? inside : inside ? in[r * LB_AC + c] : which == 0 ? -INFINITY : INFINITY;
            }
    } else if (which == 3) {
        double cs[LB_C] = {0};
        for (int i = 0; i < LB_R; ++i) {
            double m = -INFINITY;
            for (int j = 0; j < LB_C; ++j) m = in[i * LB_AC + j] > m ? in[i * LB_AC + j] : m;
            for (int j = 0; j < LB_C; ++j) ref[i * LB_C + j] = in[i * LB_AC + j] - m, cs[j] += ref[i * LB_C + j];
        }
        for (int i = 0; i < LB_N; ++i) ref[i] += cs[i % LB_C];
    } else if (which == 4) {
        for (int i = 0; i < LB_R; ++i) {
            float p[LB_C], m = INFINITY;
            for (int j = 0; j < LB_C; ++j) {
                p[j] = in[i * LB_AC + j] * in[LB_AC + j];
                m = p[j] < m ? p[j] : m;
            }
            for (int j = 0; j < LB_C; ++j) ref[i * LB_C + j] = (float)(p[j] / m); /* float division, as the tile */
        }
    } else {
        n = 240;
        for (int i = 0; i < 4; ++i)
            for (int k = 0; k < 10; ++k) {
                double s = 0;
                for (int j = 0; j < 6; ++j) s += in[(i * 6 + j) * 10 + k];
                for (int j = 0; j < 6; ++j) ref[(i * 6 + j) * 10 + k] = in[(i * 6 + j) * 10 + k] - s / 2;
            }
    }
    long bad = 0;
    msg[0] = 0;
    for (int i = 0; i < n; ++i) {
        const double got = which == 1 ? (double)flags[i] : (double)out[i];
        if (got != ref[i] && !bad++) snprintf(msg, msglen, "case %d element %d: got %.9g, expected %.9g", which, i, got, ref[i]);
    }
    return bad;
}

/* ---- f16 / bf16 reductions accumulated in f32 (tile_sum_f32 & co.) ----
 * 4096 bf16 (register tile) and f16 (shared tile) values k/64, |k| <= 127,
 * exact in both types and every f32 sum exact in any order: out gets, per
 * thread, the bf16 sum and max, the f16 sum and min. */
enum { HF_N = 4096 };
#define HF_KERNEL(name, B)                                                         \
    TILE_KERNEL_SMEM(name, B, TILE_SMEM_BYTES(tile_f16, HF_N), const tile_bf16 *hb, const tile_f16 *hh, float *out) { \
        tile_reg(tile_bf16, b, HF_N);                                              \
        tile_load(b, tile_array1(hb, HF_N), 0);                                    \
        tile_sum_f32(s, b);                                                        \
        tile_max_f32(m, b);                                                        \
        tile_shared(tile_f16, h, HF_N);                                            \
        tile_load(h, tile_array1(hh, HF_N), 0);                                    \
        tile_sum_f32(s2, h);                                                       \
        tile_min_f32(m2, h);                                                       \
        out[4 * tile_thread()] = tile_value(s);                                    \
        out[4 * tile_thread() + 1] = tile_value(m);                                \
        out[4 * tile_thread() + 2] = tile_value(s2);                               \
        out[4 * tile_thread() + 3] = tile_value(m2);                               \
    }
static inline void hf_input(tile_bf16 *hb, tile_f16 *hh, double *ref) {
    double sb = 0, mb = -1e9, sh = 0, mh = 1e9;
    for (int i = 0; i < HF_N; ++i) {
        const uint32_t x = tile_hash32(5u, (uint32_t)i);
        const float vb = (float)((int)(x % 255u) - 127) / 64.0f, vh = (float)((int)((x >> 8) % 255u) - 127) / 64.0f;
        hb[i] = tile_f32_to_bf16(vb);
        hh[i] = tile_f32_to_f16(vh);
        sb += vb;
        mb = vb > mb ? vb : mb;
        sh += vh;
        mh = vh < mh ? vh : mh;
    }
    ref[0] = sb, ref[1] = mb, ref[2] = sh, ref[3] = mh;
}
/* mismatches among the nthreads x 4 outputs */
static inline long hf_check(const float *out, int nthreads, const double *ref) {
    long bad = 0;
    for (int t = 0; t < nthreads; ++t)
        for (int k = 0; k < 4; ++k) bad += (double)out[4 * t + k] != ref[k];
    return bad;
}

#endif /* REDUCE_REF_H */
