/* tests/gpu/types_test.cu - element types (include/tile/types.h, half.h,
 * complex.h) on the GPU and on the CPU target of the same nvcc build.
 *
 *   types_test             GPU 0 (when there is one), then the CPU target
 *   types_test --cpu-only  the CPU target only
 *   types_test --quick     one block per launch (compute-sanitizer)
 *
 * Kernels: f16 and bf16 tiles (shared tiles through the vector tier of the
 * cascade, register tiles through the scalar tier; add/sub/mul/div/neg,
 * constants both ways, tile_map / map3 / map4, ones/zeros, astype both ways
 * with f32, f64 and integers); tile_astype between real types (f32, f64,
 * i64, u64, f16 sources to every destination: rounding once, saturation,
 * NaN -> 0); c32 / c64 arithmetic; i8 / u8, vec3i, quatf, tile_where.
 * Every output is checked against a host reference (the library's scalar
 * functions for 16-bit values and conversions, which tests/cpu/test_types.c
 * checks bit for bit against an independent long double rounding; plain
 * double loops for complex and quaternions), and the GPU's output against
 * the CPU target's: bit for bit for 16-bit floats, conversions, integers and
 * selections, within rounding for complex and quaternion products (the
 * device compiler fuses a*b - c*d into an fma).
 *
 * Prints one FAIL line per failed check and last the summary
 * "types_test: N checks, M failed (targets: gpu+cpu|cpu)"; the exit code is
 * nonzero on any failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"
#include "../types_ref.h"

enum { B = 64, HR = 16, HC = 8, HN = HR * HC, H_NOUT = 14, MAXBLK = 6 };
static int nblocks(void) { return g_quick ? 1 : MAXBLK; }

static uint32_t rng = 2463534242u;
static uint32_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* ======================================================================
 * 16-bit floats: one block per tile of HR x HC (rows of 16 bytes)
 * ====================================================================== */
/* a product the device compiler does not fuse with the next add (a fused
 * x*y - z rounds once where the CPU rounds twice: different bits when x*y
 * overflows or lands in f32's subnormals, as random bf16 values can) */
TILE_FUNC float h_mul(float x, float y) {
#if TILE_ON_DEVICE
    return __fmul_rn(x, y);
#else
    return x * y;
#endif
}
TILE_FUNC float h_sq1(float x) { return h_mul(x, x) + 1.0f; }
TILE_FUNC float h_lin3(float x, float y, float z) { return h_mul(x, y) - z; }
TILE_FUNC float h_sum4(float x, float y, float z, float w) { return (x + y) + (z + w); }
/* out[j * HN]: 0 a+b 1 a-b 2 a*b 3 a/b 4 -a 5 a*k 6 k/a 7 map 8 map3 9 ones 10 zeros
 * 11 astype(f32 f -> T) 12 map4 13 copy through shared; f32out = astype(a -> f32),
 * dout = astype(a -> f64), iout = astype(i64 n -> T) as bits; tiers */
#define DEF_HALF(sfx)                                                              \
    TILE_KERNEL_SMEM(half_##sfx, B, 3 * TILE_SMEM_BYTES(tile_##sfx, HR, HC), const tile_##sfx *a, \
                     const tile_##sfx *b, const float *f, const int64_t *n, float k, tile_##sfx *out, \
                     float *f32out, double *dout, tile_##sfx *iout, int *tiers) {  \
        const int blk = tile_block(0);                                             \
        a += blk * HN; b += blk * HN; f += blk * HN; n += blk * HN;                \
        out += blk * H_NOUT * HN; f32out += blk * HN; dout += blk * HN; iout += blk * HN; \
        int t0, t1;                                                                \
        TYPES_HALF_OPS(sfx, a, b, f, k, out, f32out, t0, t1);                      \
        tile_reg(double, rd, HR, HC);                                              \
        tile_astype(rd, sa);                                                       \
        tile_store(tile_array2(dout, HR, HC), rd, 0, 0);                           \
        tile_reg(int64_t, rn, HR, HC);                                             \
        tile_load(rn, tile_array2(n, HR, HC), 0, 0);                               \
        tile_astype(rc, rn);                                                       \
        tile_store(tile_array2(iout, HR, HC), rc, 0, 0);                           \
        if (tile_thread() == 0) {                                                  \
            tiers[2 * blk] = t0;                                                   \
            tiers[2 * blk + 1] = t1;                                               \
        }                                                                          \
    }
DEF_HALF(f16)
DEF_HALF(bf16)

/* the host reference of output j, element of a, b, f, n, k (library scalar
 * functions: checked bit for bit by tests/cpu/test_types.c) */
#define HALF_REF(sfx)                                                              \
    static uint16_t half_ref_##sfx(int j, tile_##sfx a, tile_##sfx b, float f, float k) { \
        const float x = tile_##sfx##_to_f32(a), y = tile_##sfx##_to_f32(b);       \
        switch (j) {                                                               \
        case 0: return tile_##sfx##_add(a, b).bits;                                \
        case 1: return tile_##sfx##_sub(a, b).bits;                                \
        case 2: return tile_##sfx##_mul(a, b).bits;                                \
        case 3: return tile_##sfx##_div(a, b).bits;                                \
        case 4: return (uint16_t)(a.bits ^ 0x8000u);                               \
        case 5: return tile_f32_to_##sfx(x * k).bits;                              \
        case 6: return tile_f32_to_##sfx(k / x).bits;                              \
        case 7: return tile_f32_to_##sfx(x * x + 1.0f).bits;                       \
        case 8: return tile_f32_to_##sfx(x * y - x).bits;                          \
        case 9: return tile_f32_to_##sfx(1.0f).bits;                               \
        case 10: return 0;                                                         \
        case 11: return tile_f32_to_##sfx(f).bits;                                 \
        case 12: return tile_f32_to_##sfx((x + y) + (x + y)).bits;                 \
        default: return a.bits;                                                    \
        }                                                                          \
    }
HALF_REF(f16)
HALF_REF(bf16)
/* 16-bit NaN: exponent all ones, significand nonzero */
static int half_nan_f16(uint16_t b) { return (b & 0x7c00u) == 0x7c00u && (b & 0x03ffu); }
static int half_nan_bf16(uint16_t b) { return (b & 0x7f80u) == 0x7f80u && (b & 0x007fu); }
/* equal bits, or both NaN */
static int half_same(const uint16_t *a, const uint16_t *b, size_t n, int (*isnan16)(uint16_t)) {
    for (size_t i = 0; i < n; ++i)
        if (a[i] != b[i] && !(isnan16(a[i]) && isnan16(b[i]))) return 0;
    return 1;
}

typedef struct {
    uint16_t out[MAXBLK * H_NOUT * HN], iout[MAXBLK * HN];
    float f32out[MAXBLK * HN];
    double dout[MAXBLK * HN];
    int tiers[2 * MAXBLK];
} half_res;

#define HALF_RUN(sfx)                                                              \
    static void half_run_##sfx(const target *t, half_res *r) {                     \
        const int nb = nblocks();                                                  \
        static tile_##sfx ha[MAXBLK * HN], hb[MAXBLK * HN];                        \
        static float hf[MAXBLK * HN];                                              \
        static int64_t hn[MAXBLK * HN];                                            \
        rng = 2463534242u;                                                         \
        for (int i = 0; i < nb * HN; ++i) {                                        \
            if ((i / HN) % 2) { /* any bits: NaN, inf, subnormals */               \
                ha[i] = tile_##sfx##_from_bits((uint16_t)rnd());                   \
                hb[i] = tile_##sfx##_from_bits((uint16_t)rnd());                   \
            } else {                                                               \
                ha[i] = tile_f32_to_##sfx((float)((int)(rnd() % 2001) - 1000) / 64.0f); \
                hb[i] = tile_f32_to_##sfx((float)((int)(rnd() % 2001) - 1000) / 48.0f); \
            }                                                                      \
            uint32_t u = rnd() & 0xbfffffffu;                                      \
            memcpy(&hf[i], &u, 4);                                                 \
            hn[i] = (int64_t)(((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 64)) * ((rnd() & 1) ? -1 : 1); \
        }                                                                          \
        hf[3] = NAN;                                                               \
        const float k = -0.3f;                                                     \
        tile_##sfx *da = DALLOC(tile_##sfx, nb * HN), *db = DALLOC(tile_##sfx, nb * HN); \
        float *df = DALLOC(float, nb * HN), *dfo = DALLOC(float, nb * HN);         \
        int64_t *dn = DALLOC(int64_t, nb * HN);                                    \
        tile_##sfx *dout = DALLOC(tile_##sfx, nb * H_NOUT * HN), *dio = DALLOC(tile_##sfx, nb * HN); \
        double *ddo = DALLOC(double, nb * HN);                                     \
        int *dt = DALLOC(int, 2 * nb);                                             \
        UP(da, ha, sizeof(tile_##sfx) * nb * HN);                                  \
        UP(db, hb, sizeof(tile_##sfx) * nb * HN);                                  \
        UP(df, hf, sizeof(float) * nb * HN);                                       \
        UP(dn, hn, sizeof(int64_t) * nb * HN);                                     \
        POISON(dout, sizeof(tile_##sfx) * nb * H_NOUT * HN, POISON_I);             \
        POISON(dio, sizeof(tile_##sfx) * nb * HN, POISON_I);                       \
        POISON(dfo, sizeof(float) * nb * HN, POISON_F);                            \
        POISON(ddo, sizeof(double) * nb * HN, POISON_F);                           \
        RUN_OK(tile_launch(t->ex, half_##sfx, tile_grid1(nb), B, da, db, df, dn, k, dout, dfo, ddo, dio, dt)); \
        DOWN(r->out, dout, sizeof(tile_##sfx) * nb * H_NOUT * HN);                 \
        DOWN(r->iout, dio, sizeof(tile_##sfx) * nb * HN);                          \
        DOWN(r->f32out, dfo, sizeof(float) * nb * HN);                             \
        DOWN(r->dout, ddo, sizeof(double) * nb * HN);                              \
        DOWN(r->tiers, dt, sizeof(int) * 2 * nb);                                  \
        long bad = 0;                                                              \
        for (int bk = 0; bk < nb; ++bk) {                                          \
            CHECK(r->tiers[2 * bk] == TILE_TIER_VECTOR && r->tiers[2 * bk + 1] == TILE_TIER_VECTOR, \
                  #sfx " block %d: tiers %d %d, expected the vector tier", bk, r->tiers[2 * bk], r->tiers[2 * bk + 1]); \
            for (int i = 0; i < HN; ++i) {                                         \
                const int e = bk * HN + i;                                         \
                for (int j = 0; j < H_NOUT; ++j) {                                 \
                    const uint16_t got = r->out[(bk * H_NOUT + j) * HN + i], want = half_ref_##sfx(j, ha[e], hb[e], hf[e], k); \
                    ++g_checks;                                                    \
                    /* a NaN result is some quiet NaN: the GPU's f32 units give \
                     * the canonical one, x86 keeps an input's payload */      \
                    if (got != want && !(half_nan_##sfx(got) && half_nan_##sfx(want))) \
                        fail_elem(&bad, __FILE__, __LINE__, #sfx " output %d block %d element %d: a 0x%04x b 0x%04x: " \
                                  "0x%04x, expected 0x%04x", j, bk, i, ha[e].bits, hb[e].bits, got, want); \
                }                                                                  \
                const float x = tile_##sfx##_to_f32(ha[e]);                        \
                ++g_checks;                                                        \
                if (memcmp(&r->f32out[e], &x, 4) || !(r->dout[e] == (double)x || (x != x && r->dout[e] != r->dout[e]))) \
                    fail_elem(&bad, __FILE__, __LINE__, #sfx " astype to f32/f64 element %d: %g %g, expected %g", e, \
                              (double)r->f32out[e], r->dout[e], (double)x);        \
                ++g_checks;                                                        \
                if (r->iout[e] != tile_i64_to_##sfx(hn[e]).bits)                    \
                    fail_elem(&bad, __FILE__, __LINE__, #sfx " astype i64 %lld: 0x%04x, expected 0x%04x", \
                              (long long)hn[e], r->iout[e], tile_i64_to_##sfx(hn[e]).bits); \
            }                                                                      \
        }                                                                          \
        fail_elem_total(__FILE__, __LINE__, #sfx, bad, (long)nb * HN * (H_NOUT + 2)); \
        tile_free(t->ex, da); tile_free(t->ex, db); tile_free(t->ex, df); tile_free(t->ex, dfo); \
        tile_free(t->ex, dn); tile_free(t->ex, dout); tile_free(t->ex, dio); tile_free(t->ex, ddo); \
        tile_free(t->ex, dt);                                                      \
    }
HALF_RUN(f16)
HALF_RUN(bf16)

/* ======================================================================
 * tile_astype: f32, f64, i64, u64, f16 sources to every real destination
 * ====================================================================== */
enum { CV_N = 64 };
typedef struct {
    float f32[CV_N];
    double f64[CV_N];
    int64_t i64[CV_N];
    uint64_t u64[CV_N];
    tile_f16 f16[CV_N];
} cv_in;
/* one row of outputs per (source, destination) */
typedef struct {
    float f32[5][CV_N];
    double f64[5][CV_N];
    int32_t i32[5][CV_N];
    uint32_t u32[5][CV_N];
    int64_t i64[5][CV_N];
    uint64_t u64[5][CV_N];
    int8_t i8[5][CV_N];
    uint8_t u8[5][CV_N];
    tile_f16 f16[5][CV_N];
    tile_bf16 bf16[5][CV_N];
} cv_out;
#define CV_ONE(D, field, src_tile, row)                                            \
    do {                                                                           \
        tile_reg(D, y, CV_N);                                                      \
        tile_astype(y, src_tile);                                                  \
        tile_store(tile_array1(out->field[row], CV_N), y, 0);                      \
    } while (0)
#define CV_ALL(src_tile, row)                                                      \
    do {                                                                           \
        CV_ONE(float, f32, src_tile, row);                                         \
        CV_ONE(double, f64, src_tile, row);                                        \
        CV_ONE(int32_t, i32, src_tile, row);                                       \
        CV_ONE(uint32_t, u32, src_tile, row);                                      \
        CV_ONE(int64_t, i64, src_tile, row);                                       \
        CV_ONE(uint64_t, u64, src_tile, row);                                      \
        CV_ONE(int8_t, i8, src_tile, row);                                         \
        CV_ONE(uint8_t, u8, src_tile, row);                                        \
        CV_ONE(tile_f16, f16, src_tile, row);                                      \
        CV_ONE(tile_bf16, bf16, src_tile, row);                                    \
    } while (0)
TILE_KERNEL(cv_kernel, B, const cv_in *in, cv_out *out) {
    tile_reg(float, xf, CV_N);
    tile_load(xf, tile_array1(in->f32, CV_N), 0);
    CV_ALL(xf, 0);
    tile_reg(double, xd, CV_N);
    tile_load(xd, tile_array1(in->f64, CV_N), 0);
    CV_ALL(xd, 1);
    tile_reg(int64_t, xi, CV_N);
    tile_load(xi, tile_array1(in->i64, CV_N), 0);
    CV_ALL(xi, 2);
    tile_reg(uint64_t, xu, CV_N);
    tile_load(xu, tile_array1(in->u64, CV_N), 0);
    CV_ALL(xu, 3);
    tile_reg(tile_f16, xh, CV_N);
    tile_load(xh, tile_array1(in->f16, CV_N), 0);
    CV_ALL(xh, 4);
}
static void cv_make(cv_in *in) {
    static const double cand[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 127.5, -128.75, -129.0, 255.5, 256.0,
                                  257.0, 65504.0, 65519.99, 65520.0, 1e10, -1e10, 2147483647.0, -2147483649.0,
                                  4294967296.0, 9007199254740993.0, 9.3e18, -9.3e18, 1.9e19, 3e38, 1e-5, 6e-8,
                                  1.0009765625, 1.00390625, 16777217.0, 0.1, -0.7, 1e300, NAN, INFINITY, -INFINITY,
                                  1e-40, -3.2e4, 1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-8 + 0x1p-30};
    const int nc = (int)(sizeof cand / sizeof cand[0]);
    rng = 99u;
    for (int i = 0; i < CV_N; ++i) {
        double v = i < nc ? cand[i] : ldexp((double)(rnd() % 100000) - 50000.0, (int)(rnd() % 40) - 20);
        in->f32[i] = (float)v;
        in->f64[i] = v;
        in->i64[i] = i < nc ? (int64_t)(i * 7919) * (i % 2 ? -1 : 1) : (int64_t)(((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 64));
        in->u64[i] = ((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 64);
        in->f16[i] = tile_f16_from_bits((uint16_t)rnd());
    }
    in->i64[0] = INT64_MIN;
    in->i64[1] = INT64_MAX;
    in->i64[2] = ((int64_t)1 << 53) + 1;
    in->u64[0] = UINT64_MAX;
    in->u64[1] = 257;
}
/* host reference of the source element (row, i) converted to each type */
template <class D>
static D cv_host(const cv_in *in, int row, int i) {
    const D *tag = (const D *)0;
    switch (row) {
    case 0: return tile__cvt(tag, in->f32[i]);
    case 1: return tile__cvt(tag, in->f64[i]);
    case 2: return tile__cvt(tag, in->i64[i]);
    case 3: return tile__cvt(tag, in->u64[i]);
    default: return tile__cvt(tag, in->f16[i]);
    }
}
template <class D>
static void cv_cmp(const char *name, const D (*got)[CV_N], const cv_in *in, long *bad) {
    for (int row = 0; row < 5; ++row)
        for (int i = 0; i < CV_N; ++i) {
            const D want = cv_host<D>(in, row, i);
            ++g_checks;
            if (memcmp(&got[row][i], &want, sizeof(D)))
                fail_elem(bad, __FILE__, __LINE__, "astype source row %d element %d -> %s: bits differ from the host", row, i,
                          name);
        }
}
static void cv_run(const target *t, cv_out *res) {
    static cv_in in;
    cv_make(&in);
    cv_in *din = DALLOC(cv_in, 1);
    cv_out *dout = DALLOC(cv_out, 1);
    UP(din, &in, sizeof in);
    POISON(dout, sizeof(cv_out), POISON_I);
    RUN_OK(tile_launch(t->ex, cv_kernel, tile_grid1(1), B, din, dout));
    DOWN(res, dout, sizeof(cv_out));
    long bad = 0;
    cv_cmp("f32", res->f32, &in, &bad);
    cv_cmp("f64", res->f64, &in, &bad);
    cv_cmp("i32", res->i32, &in, &bad);
    cv_cmp("u32", res->u32, &in, &bad);
    cv_cmp("i64", res->i64, &in, &bad);
    cv_cmp("u64", res->u64, &in, &bad);
    cv_cmp("i8", res->i8, &in, &bad);
    cv_cmp("u8", res->u8, &in, &bad);
    cv_cmp("f16", res->f16, &in, &bad);
    cv_cmp("bf16", res->bf16, &in, &bad);
    fail_elem_total(__FILE__, __LINE__, "astype", bad, 5L * 10 * CV_N);
    /* named: saturation, NaN -> 0, one rounding from f64 and from integers */
    CHECK(res->u8[0][7] == 0 && res->i8[0][10] == -128 && res->u8[0][11] == 255 && res->i32[1][35] == 0 &&
              res->i32[1][20] == INT32_MIN && res->u64[1][37] == 0 && res->u64[1][36] == UINT64_MAX,
          "astype saturation: u8(-2.5) %d i8(-129) %d u8(255.5) %d i32(NaN) %d i32(-2147483649) %d u64(-inf) %llu",
          res->u8[0][7], res->i8[0][10], res->u8[0][11], res->i32[1][35], res->i32[1][20],
          (unsigned long long)res->u64[1][37]);
    CHECK(res->f16[1][40].bits == 0x3c01 && res->bf16[1][41].bits == 0x3f81 && res->bf16[3][1].bits == 0x4380,
          "astype one rounding: f16 0x%04x bf16 0x%04x bf16(257) 0x%04x", res->f16[1][40].bits, res->bf16[1][41].bits,
          res->bf16[3][1].bits);
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
}

/* ======================================================================
 * complex, i8 / u8, vec3i, quatf, tile_where
 * ====================================================================== */
enum { MN = 200, M_NOUT = 8 };
/* c: 0 a+b 1 a-b 2 a*b 3 a/b 4 -a 5 a*kr 6 kc*a 7 r*b (real tile x complex) */
#define DEF_CPLX(sfx, T, S)                                                        \
    TILE_KERNEL_SMEM(cplx_##sfx, B, TILE_SMEM_BYTES(T, MN), const T *a, const T *b, const S *r, S kr, T kc, T *out) { \
        tile_shared(T, sa, MN);                                                    \
        tile_reg(T, rb, MN);                                                       \
        tile_reg(S, rr, MN);                                                       \
        tile_reg(T, c, MN);                                                        \
        tile_load(sa, tile_array1(a, MN), 0);                                      \
        tile_load(rb, tile_array1(b, MN), 0);                                      \
        tile_load(rr, tile_array1(r, MN), 0);                                      \
        tile_add(c, sa, rb);                                                       \
        tile_store(tile_array1(out + 0 * MN, MN), c, 0);                           \
        tile_sub(c, sa, rb);                                                       \
        tile_store(tile_array1(out + 1 * MN, MN), c, 0);                           \
        tile_mul(c, sa, rb);                                                       \
        tile_store(tile_array1(out + 2 * MN, MN), c, 0);                           \
        tile_div(c, sa, rb);                                                       \
        tile_store(tile_array1(out + 3 * MN, MN), c, 0);                           \
        tile_neg(c, sa);                                                           \
        tile_store(tile_array1(out + 4 * MN, MN), c, 0);                           \
        tile_mul_c(c, sa, kr);                                                     \
        tile_store(tile_array1(out + 5 * MN, MN), c, 0);                           \
        tile_c_mul(c, kc, sa);                                                     \
        tile_store(tile_array1(out + 6 * MN, MN), c, 0);                           \
        tile_mul(c, rr, rb);                                                       \
        tile_store(tile_array1(out + 7 * MN, MN), c, 0);                           \
    }
DEF_CPLX(c32, tile_c32, float)
DEF_CPLX(c64, tile_c64, double)

#define CPLX_RUN(sfx, T, S, TOL)                                                   \
    static void cplx_run_##sfx(const target *t, T *res) {                          \
        static T a[MN], b[MN];                                                     \
        static S r[MN];                                                            \
        rng = 7u;                                                                  \
        for (int i = 0; i < MN; ++i) {                                             \
            a[i] = tile_##sfx##_set((S)((int)(rnd() % 2001) - 1000) / 16, (S)((int)(rnd() % 2001) - 1000) / 16); \
            b[i] = tile_##sfx##_set((S)((int)(rnd() % 2001) - 1000) / 8 + (S)0.5, (S)((int)(rnd() % 2001) - 1000) / 8); \
            r[i] = (S)((int)(rnd() % 201) - 100) / 4;                              \
        }                                                                          \
        const S kr = (S)-1.25;                                                     \
        const T kc = tile_##sfx##_set((S)0.75, (S)-2);                             \
        T *da = DALLOC(T, MN), *db = DALLOC(T, MN), *dout = DALLOC(T, M_NOUT * MN); \
        S *dr = DALLOC(S, MN);                                                     \
        UP(da, a, sizeof a);                                                       \
        UP(db, b, sizeof b);                                                       \
        UP(dr, r, sizeof r);                                                       \
        POISON(dout, sizeof(T) * M_NOUT * MN, POISON_F);                           \
        RUN_OK(tile_launch(t->ex, cplx_##sfx, tile_grid1(1), B, da, db, dr, kr, kc, dout)); \
        DOWN(res, dout, sizeof(T) * M_NOUT * MN);                                  \
        long bad = 0;                                                              \
        for (int i = 0; i < MN; ++i) {                                             \
            const double ar = a[i].re, ai = a[i].im, br = b[i].re, bi = b[i].im, rv = r[i], den = br * br + bi * bi; \
            const double w[M_NOUT][2] = {{ar + br, ai + bi}, {ar - br, ai - bi}, {ar * br - ai * bi, ar * bi + ai * br}, \
                                         {(ar * br + ai * bi) / den, (ai * br - ar * bi) / den}, {-ar, -ai}, \
                                         {ar * kr, ai * kr}, {kc.re * ar - kc.im * ai, kc.re * ai + kc.im * ar}, \
                                         {rv * br, rv * bi}};                      \
            for (int j = 0; j < M_NOUT; ++j) {                                     \
                const T g = res[j * MN + i];                                       \
                const double sc = 1 + fabs(w[j][0]) + fabs(w[j][1]);               \
                ++g_checks;                                                        \
                if (!(fabs(g.re - w[j][0]) <= TOL * sc && fabs(g.im - w[j][1]) <= TOL * sc)) \
                    fail_elem(&bad, __FILE__, __LINE__, #sfx " output %d element %d: %.17g%+.17gi, expected %.17g%+.17gi", \
                              j, i, (double)g.re, (double)g.im, w[j][0], w[j][1]); \
            }                                                                      \
        }                                                                          \
        fail_elem_total(__FILE__, __LINE__, #sfx, bad, (long)M_NOUT * MN);         \
        tile_free(t->ex, da); tile_free(t->ex, db); tile_free(t->ex, dr); tile_free(t->ex, dout); \
    }
CPLX_RUN(c32, tile_c32, float, 1e-6)
CPLX_RUN(c64, tile_c64, double, 1e-14)

/* misc: i8 (0 a+b 1 a*b 2 a/b 3 -a), u8 (4 a+b 5 a*3), where into i8 (6), where_c u8 (7);
 * vec3i (a+b, a*s, a/k), quatf (a*b Hamilton, q*a), f32 map3 / where */
TILE_FUNC float m_lin3(float x, float y, float z) { return x * y - z; }
TILE_KERNEL(misc_kernel, B, const int8_t *a8, const int8_t *b8, const int32_t *mask, int8_t *o8, uint8_t *ou8,
            const tile_vec3i *va, const int32_t *vs, tile_vec3i *vo, const tile_quatf *qa, const tile_quatf *qb,
            tile_quatf *qo, float *fo) {
    tile_reg(int8_t, x, MN);
    tile_reg(int8_t, y, MN);
    tile_reg(int8_t, z, MN);
    tile_reg(int32_t, m, MN);
    tile_load(x, tile_array1(a8, MN), 0);
    tile_load(y, tile_array1(b8, MN), 0);
    tile_load(m, tile_array1(mask, MN), 0);
    tile_add(z, x, y);
    tile_store(tile_array1(o8 + 0 * MN, MN), z, 0);
    tile_mul(z, x, y);
    tile_store(tile_array1(o8 + 1 * MN, MN), z, 0);
    tile_div(z, x, y);
    tile_store(tile_array1(o8 + 2 * MN, MN), z, 0);
    tile_neg(z, x);
    tile_store(tile_array1(o8 + 3 * MN, MN), z, 0);
    tile_reg(uint8_t, ux, MN);
    tile_reg(uint8_t, uy, MN);
    tile_reg(uint8_t, uz, MN);
    tile_astype(ux, x); /* wraps: -1 -> 255 */
    tile_astype(uy, y);
    tile_add(uz, ux, uy);
    tile_store(tile_array1(ou8 + 0 * MN, MN), uz, 0);
    tile_mul_c(uz, ux, 3);
    tile_store(tile_array1(ou8 + 1 * MN, MN), uz, 0);
    tile_where(z, m, x, y);
    tile_store(tile_array1(o8 + 4 * MN, MN), z, 0);
    tile_where_c(uz, m, ux, 7);
    tile_store(tile_array1(ou8 + 2 * MN, MN), uz, 0);
    tile_reg(tile_vec3i, v, MN);
    tile_reg(tile_vec3i, w, MN);
    tile_reg(int32_t, s, MN);
    tile_load(v, tile_array1(va, MN), 0);
    tile_load(s, tile_array1(vs, MN), 0);
    tile_add(w, v, v);
    tile_store(tile_array1(vo + 0 * MN, MN), w, 0);
    tile_mul(w, v, s);
    tile_store(tile_array1(vo + 1 * MN, MN), w, 0);
    tile_div_c(w, v, -3);
    tile_store(tile_array1(vo + 2 * MN, MN), w, 0);
    tile_reg(tile_quatf, q, MN);
    tile_reg(tile_quatf, p, MN);
    tile_reg(tile_quatf, qr, MN);
    tile_load(q, tile_array1(qa, MN), 0);
    tile_load(p, tile_array1(qb, MN), 0);
    tile_mul(qr, q, p);
    tile_store(tile_array1(qo + 0 * MN, MN), qr, 0);
    tile_c_mul(qr, tile_quatf_set(0, 0, 1, 0), q);
    tile_store(tile_array1(qo + 1 * MN, MN), qr, 0);
    tile_reg(float, f, MN);
    tile_reg(float, g, MN);
    tile_astype(f, s);
    tile_astype(g, x);
    tile_reg(float, h, MN);
    tile_map3(h, m_lin3, f, g, f);
    tile_where(f, m, h, g);
    tile_store(tile_array1(fo, MN), f, 0);
}
typedef struct {
    int8_t o8[5 * MN];
    uint8_t ou8[3 * MN];
    tile_vec3i vo[3 * MN];
    tile_quatf qo[2 * MN];
    float fo[MN];
} misc_res;
static void qref(const double a[4], const double b[4], double r[4]) { /* (x, y, z, w) = w + x i + y j + z k */
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
}
static void misc_run(const target *t, misc_res *res) {
    static int8_t a8[MN], b8[MN];
    static int32_t mask[MN], vs[MN];
    static tile_vec3i va[MN];
    static tile_quatf qa[MN], qb[MN];
    rng = 31337u;
    for (int i = 0; i < MN; ++i) {
        a8[i] = (int8_t)rnd();
        b8[i] = (int8_t)rnd();
        if (!b8[i]) b8[i] = 5;
        mask[i] = (int32_t)(rnd() % 3) - 1;
        vs[i] = (int32_t)(rnd() % 200) - 100;
        va[i] = tile_vec3i_set((int32_t)rnd() % 1000, (int32_t)rnd() % 1000, (int32_t)rnd() % 1000);
        qa[i] = tile_quatf_set((float)(rnd() % 64) / 8 - 4, (float)(rnd() % 64) / 8 - 4, (float)(rnd() % 64) / 8 - 4,
                               (float)(rnd() % 64) / 8 - 4);
        qb[i] = tile_quatf_set((float)(rnd() % 64) / 8 - 4, (float)(rnd() % 64) / 8 - 4, (float)(rnd() % 64) / 8 - 4,
                               (float)(rnd() % 64) / 8 - 4);
    }
    a8[0] = -128;
    b8[0] = -1;
    int8_t *da = DALLOC(int8_t, MN), *db = DALLOC(int8_t, MN), *d8 = DALLOC(int8_t, 5 * MN);
    uint8_t *du8 = DALLOC(uint8_t, 3 * MN);
    int32_t *dm = DALLOC(int32_t, MN), *dvs = DALLOC(int32_t, MN);
    tile_vec3i *dva = DALLOC(tile_vec3i, MN), *dvo = DALLOC(tile_vec3i, 3 * MN);
    tile_quatf *dqa = DALLOC(tile_quatf, MN), *dqb = DALLOC(tile_quatf, MN), *dqo = DALLOC(tile_quatf, 2 * MN);
    float *dfo = DALLOC(float, MN);
    UP(da, a8, sizeof a8);
    UP(db, b8, sizeof b8);
    UP(dm, mask, sizeof mask);
    UP(dvs, vs, sizeof vs);
    UP(dva, va, sizeof va);
    UP(dqa, qa, sizeof qa);
    UP(dqb, qb, sizeof qb);
    POISON(d8, 5 * MN, POISON_I);
    POISON(du8, 3 * MN, POISON_I);
    POISON(dvo, sizeof(tile_vec3i) * 3 * MN, POISON_I);
    POISON(dqo, sizeof(tile_quatf) * 2 * MN, POISON_F);
    POISON(dfo, sizeof(float) * MN, POISON_F);
    RUN_OK(tile_launch(t->ex, misc_kernel, tile_grid1(1), B, da, db, dm, d8, du8, dva, dvs, dvo, dqa, dqb, dqo, dfo));
    DOWN(res->o8, d8, sizeof res->o8);
    DOWN(res->ou8, du8, sizeof res->ou8);
    DOWN(res->vo, dvo, sizeof res->vo);
    DOWN(res->qo, dqo, sizeof res->qo);
    DOWN(res->fo, dfo, sizeof res->fo);
    long bad = 0;
    for (int i = 0; i < MN; ++i) {
        const int x = a8[i], y = b8[i], ux = (uint8_t)a8[i], uy = (uint8_t)b8[i];
        const int w8[5] = {x + y, x * y, x / y, -x, mask[i] ? x : y};
        for (int j = 0; j < 5; ++j) {
            ++g_checks;
            if (res->o8[j * MN + i] != (int8_t)(uint8_t)(w8[j] & 0xff))
                fail_elem(&bad, __FILE__, __LINE__, "i8 output %d element %d: %d, expected %d", j, i, res->o8[j * MN + i],
                          (int8_t)(uint8_t)(w8[j] & 0xff));
        }
        const int wu[3] = {(ux + uy) & 0xff, (ux * 3) & 0xff, mask[i] ? ux : 7};
        for (int j = 0; j < 3; ++j) {
            ++g_checks;
            if (res->ou8[j * MN + i] != wu[j])
                fail_elem(&bad, __FILE__, __LINE__, "u8 output %d element %d: %d, expected %d", j, i, res->ou8[j * MN + i], wu[j]);
        }
        for (int c = 0; c < 3; ++c) {
            const int32_t v = va[i].v[c], wv[3] = {v + v, v * vs[i], v / -3};
            for (int j = 0; j < 3; ++j) {
                ++g_checks;
                if (res->vo[j * MN + i].v[c] != wv[j])
                    fail_elem(&bad, __FILE__, __LINE__, "vec3i output %d element %d.%d: %d, expected %d", j, i, c,
                              res->vo[j * MN + i].v[c], wv[j]);
            }
        }
        const double qx[4] = {qa[i].x, qa[i].y, qa[i].z, qa[i].w}, qy[4] = {qb[i].x, qb[i].y, qb[i].z, qb[i].w},
                     kk[4] = {0, 0, 1, 0};
        double wq[2][4];
        qref(qx, qy, wq[0]);
        qref(kk, qx, wq[1]);
        for (int j = 0; j < 2; ++j) {
            const tile_quatf g = res->qo[j * MN + i];
            const double gv[4] = {g.x, g.y, g.z, g.w};
            for (int c = 0; c < 4; ++c) {
                ++g_checks;
                if (gv[c] != wq[j][c]) /* eighths: exact in f32, fused or not */
                    fail_elem(&bad, __FILE__, __LINE__, "quatf output %d element %d.%d: %g, expected %g", j, i, c, gv[c],
                              wq[j][c]);
            }
        }
        const float fw = mask[i] ? (float)vs[i] * (float)x - (float)vs[i] : (float)x;
        ++g_checks;
        if (res->fo[i] != fw) fail_elem(&bad, __FILE__, __LINE__, "map3/where element %d: %g, expected %g", i, res->fo[i], fw);
    }
    fail_elem_total(__FILE__, __LINE__, "misc", bad, (long)MN * 27);
    tile_free(t->ex, da); tile_free(t->ex, db); tile_free(t->ex, d8); tile_free(t->ex, du8); tile_free(t->ex, dm);
    tile_free(t->ex, dvs); tile_free(t->ex, dva); tile_free(t->ex, dvo); tile_free(t->ex, dqa); tile_free(t->ex, dqb);
    tile_free(t->ex, dqo); tile_free(t->ex, dfo);
}

/* ======================================================================
 * main: each target, then GPU against CPU
 * ====================================================================== */
typedef struct {
    half_res h16, hb16;
    cv_out cv;
    tile_c32 c32[M_NOUT * MN];
    tile_c64 c64[M_NOUT * MN];
    misc_res misc;
} all_res;
static all_res results[2];

static void run_all(const target *t, all_res *r) {
    gc_target_begin(t);
    g_test = "f16 tiles";
    half_run_f16(t, &r->h16);
    g_test = "bf16 tiles";
    half_run_bf16(t, &r->hb16);
    g_test = "astype";
    cv_run(t, &r->cv);
    g_test = "c32";
    cplx_run_c32(t, r->c32);
    g_test = "c64";
    cplx_run_c64(t, r->c64);
    g_test = "i8/u8/vec3i/quatf/where";
    misc_run(t, &r->misc);
    g_test = NULL;
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "types_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i], &results[i]);
    if (gc_ntargets == 2) { /* the GPU's bits against the CPU target's */
        const all_res *g = &results[0], *c = &results[1];
        const int nb = nblocks();
        g_target = "gpu vs cpu";
        /* arithmetic outputs: the same bits but for NaN payloads (see above) */
        CHECK(half_same(g->h16.out, c->h16.out, (size_t)nb * H_NOUT * HN, half_nan_f16) &&
                  !memcmp(g->h16.iout, c->h16.iout, sizeof(uint16_t) * nb * HN) &&
                  !memcmp(g->h16.f32out, c->h16.f32out, sizeof(float) * nb * HN),
              "f16 tiles: GPU bits differ from the CPU target's");
        CHECK(half_same(g->hb16.out, c->hb16.out, (size_t)nb * H_NOUT * HN, half_nan_bf16) &&
                  !memcmp(g->hb16.iout, c->hb16.iout, sizeof(uint16_t) * nb * HN) &&
                  !memcmp(g->hb16.f32out, c->hb16.f32out, sizeof(float) * nb * HN),
              "bf16 tiles: GPU bits differ from the CPU target's");
        CHECK(!memcmp(&g->cv, &c->cv, sizeof(cv_out)), "astype: GPU bits differ from the CPU target's");
        CHECK(!memcmp(&g->misc, &c->misc, sizeof(misc_res)), "i8/u8/vec3i/quatf/where: GPU bits differ from the CPU target's");
        long bad = 0;
        for (int i = 0; i < M_NOUT * MN; ++i) {
            ++g_checks;
            const double s = 1 + fabs((double)c->c32[i].re) + fabs((double)c->c32[i].im);
            if (!(fabs((double)g->c32[i].re - c->c32[i].re) <= 1e-6 * s && fabs((double)g->c32[i].im - c->c32[i].im) <= 1e-6 * s))
                fail_elem(&bad, __FILE__, __LINE__, "c32 output %d: GPU %g%+gi, CPU %g%+gi", i, (double)g->c32[i].re,
                          (double)g->c32[i].im, (double)c->c32[i].re, (double)c->c32[i].im);
        }
        fail_elem_total(__FILE__, __LINE__, "c32 gpu vs cpu", bad, (long)M_NOUT * MN);
    }
    return gc_finish();
}
