/* Element types (include/tile/types.h, half.h, complex.h) on the CPU target:
 * f16 / bf16 conversions bit-exact against an independent reference rounding
 * (long double frexp / ldexp / nearbyint: NaN, inf, subnormals, ties, values
 * past the largest finite), their arithmetic (one f32 operation, one
 * rounding: bit-exact against the double result rounded once), tiles of
 * them through the cascade (the vector tier for 16-byte rows), fills,
 * tile_map / map3 over them; tile_astype for every pair of real types
 * against a long double reference (one rounding, saturation, NaN -> 0);
 * c32 / c64, i8 / u8, vec2i/3i/4i and quatf / quatd arithmetic against plain
 * double / int loops; tile_map3 / tile_map4 / tile_where(_c, _cc); atomic adds
 * of compound types. */
#include "test_util.h"
#include "../types_ref.h"

/* ======================================================================
 * reference 16-bit formats: value <-> bits, independent of tile/half.h
 * ====================================================================== */
typedef struct { int P, EMIN, EMAX; } ref_fmt;
static const ref_fmt RF16 = {10, -14, 15}, RBF16 = {7, -126, 127}, RF32 = {23, -126, 127}, RF64 = {52, -1022, 1023};

/* v rounded to the format (ties to even), as a long double; +-inf past the
 * largest finite; NaN stays NaN */
static long double ref_round(long double v, ref_fmt f) {
    if (v == 0 || isnan(v) || isinf(v)) return v;
    int e;
    frexpl(fabsl(v), &e); /* |v| = m 2^e, m in [0.5, 1): binade exponent e - 1 */
    int E = e - 1 < f.EMIN ? f.EMIN : e - 1;
    long double q = ldexpl(1.0L, E - f.P);
    long double r = nearbyintl(v / q) * q; /* default rounding mode: ties to even */
    if (fabsl(r) >= ldexpl(2.0L, f.EMAX)) return v < 0 ? -INFINITY : INFINITY;
    if (r == 0) return v < 0 ? -0.0L : 0.0L;
    return r;
}
/* bits of a 16-bit float -> value */
static long double ref_decode16(uint16_t b, ref_fmt f) {
    int sign = b >> 15, e = (b >> f.P) & ((1 << (15 - f.P)) - 1), m = b & ((1 << f.P) - 1);
    int emax_field = (1 << (15 - f.P)) - 1;
    long double v;
    if (e == emax_field) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexpl((long double)m, f.EMIN - f.P);
    else v = ldexpl((long double)(m + (1 << f.P)), e - 1 + f.EMIN - f.P);
    return sign ? -v : v;
}
/* representable value -> bits (NaN -> the canonical quiet NaN) */
static uint16_t ref_encode16(long double v, ref_fmt f) {
    uint16_t sign = signbit(v) ? 0x8000u : 0;
    int emax_field = (1 << (15 - f.P)) - 1;
    if (isnan(v)) return (uint16_t)((emax_field << f.P) | (1 << (f.P - 1)));
    v = fabsl(v);
    if (isinf(v)) return (uint16_t)(sign | (emax_field << f.P));
    if (v == 0) return sign;
    int e;
    frexpl(v, &e);
    if (e - 1 < f.EMIN) return (uint16_t)(sign | (uint16_t)ldexpl(v, f.P - f.EMIN));
    long double m = ldexpl(v, f.P - (e - 1)) - ldexpl(1.0L, f.P);
    return (uint16_t)(sign | ((e - 1 - f.EMIN + 1) << f.P) | (int)m);
}
/* same value (NaN matches NaN, zeros match by sign) */
static int same_val(long double a, long double b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return a == b && signbit(a) == signbit(b);
}

static uint32_t rng_state = 12345u;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}
static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double f64_of(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* ---- scalar conversions ---- */
static void test_f16_decode_exhaustive(void **state) {
    (void)state;
    for (uint32_t b = 0; b < 65536; ++b) {
        long double r16 = ref_decode16((uint16_t)b, RF16), rb = ref_decode16((uint16_t)b, RBF16);
        float g16 = tile_f16_to_f32(tile_f16_from_bits((uint16_t)b)), gb = tile_bf16_to_f32(tile_bf16_from_bits((uint16_t)b));
        if (!same_val(g16, r16) || !same_val(gb, rb)) {
            print_error("bits 0x%04x: f16 %g (ref %Lg), bf16 %g (ref %Lg)\n", b, g16, r16, gb, rb);
            fail();
        }
        /* widening then narrowing gives the bits back (NaNs: quiet, payload kept) */
        uint16_t back = tile_f32_to_f16(g16).bits, backb = tile_f32_to_bf16(gb).bits;
        uint16_t q16 = isnan(g16) ? (uint16_t)(b | 0x0200u) : (uint16_t)b, qb = isnan(gb) ? (uint16_t)(b | 0x0040u) : (uint16_t)b;
        if (back != q16 || backb != qb) {
            print_error("bits 0x%04x: round trip f16 0x%04x bf16 0x%04x\n", b, back, backb);
            fail();
        }
        /* through f64 too */
        assert_int_equal(tile_f64_to_f16((double)g16).bits, q16);
        assert_int_equal(tile_f64_to_bf16((double)gb).bits, qb);
    }
}

static void check_narrow(long double v, uint16_t got16, uint16_t gotb, const char *what) {
    long double r16 = ref_round(v, RF16), rb = ref_round(v, RBF16);
    long double g16 = ref_decode16(got16, RF16), gb = ref_decode16(gotb, RBF16);
    if (!same_val(g16, r16) || !same_val(gb, rb)) {
        print_error("%s %.21Lg: f16 0x%04x = %Lg (ref %Lg), bf16 0x%04x = %Lg (ref %Lg)\n", what, v, got16, g16, r16,
                    gotb, gb, rb);
        fail();
    }
}
static void test_narrowing(void **state) {
    (void)state;
    /* named cases: ties (to even), just past ties, overflow edges, subnormals */
    const double cases[] = {0.0, -0.0, 1.0, -1.0, 1.0009765625 /* f16 tie, even down */, 1.0029296875 /* tie, up */,
                            1.0 + 0x1p-11 + 0x1p-40, 1.00390625 /* bf16 tie */, 1.01171875, 1.0 + 0x1p-8 + 0x1p-30,
                            65504.0, 65519.99, 65520.0, 65536.0, -65520.0, 0x1p-14, 0x1p-24, 0x1p-25, 0x1.0000001p-25,
                            0x1.8p-24, 0x1p-26, 0x1.ff8p-15 /* rounds up into the normals */, 3.3895313892515355e38,
                            0x1.fffffep127, 0x1p-133, 0x1p-134, 0x1.8p-133, 1e-300, 1e300, -1e300, 0.1, -0.7,
                            INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        check_narrow(cases[i], tile_f64_to_f16(cases[i]).bits, tile_f64_to_bf16(cases[i]).bits, "f64");
        float f = (float)cases[i];
        check_narrow(f, tile_f32_to_f16(f).bits, tile_f32_to_bf16(f).bits, "f32");
    }
    /* NaN: quiet NaN out, sign and top payload bits kept */
    assert_int_equal(tile_f32_to_f16(f32_of(0x7f800001u)).bits, 0x7e00);
    assert_int_equal(tile_f32_to_f16(f32_of(0xffc02000u)).bits, 0xfe01);
    assert_int_equal(tile_f32_to_bf16(f32_of(0x7f810000u)).bits, 0x7fc1);
    assert_int_equal(tile_f64_to_f16(f64_of(0x7ff0000000000001ull)).bits, 0x7e00);
    assert_int_equal(tile_f64_to_bf16(f64_of(0xfff8000000000000ull)).bits, 0xffc0);
    assert_int_equal(tile_f64_to_f16(1.0 + 0x1p-11 + 0x1p-40).bits, 0x3c01); /* once, not via f32 (0x3c00) */
    assert_int_equal(tile_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-30).bits, 0x3f81);
    /* random f32 bit patterns (every exponent), and values in the f16 range */
    for (int i = 0; i < 400000; ++i) {
        float f = f32_of(rnd());
        check_narrow(f, tile_f32_to_f16(f).bits, tile_f32_to_bf16(f).bits, "random f32");
        float g = ldexpf((float)(rnd() & 0xffffff) / 16777216.0f + 0.5f, (int)(rnd() % 48) - 30) * ((rnd() & 1) ? -1.0f : 1.0f);
        check_narrow(g, tile_f32_to_f16(g).bits, tile_f32_to_bf16(g).bits, "f16-range f32");
        double d = ldexp((double)(((uint64_t)rnd() << 21) ^ rnd()) / 9007199254740992.0 + 0.5, (int)(rnd() % 60) - 36);
        check_narrow(d, tile_f64_to_f16(d).bits, tile_f64_to_bf16(d).bits, "f64");
        double h = ldexp(1.0 + (double)(rnd() & 0x3ff) / 1024.0 + 0x1p-11 * (rnd() % 3 - 1 + 1) , (int)(rnd() % 40) - 25);
        check_narrow(h, tile_f64_to_f16(h).bits, tile_f64_to_bf16(h).bits, "near ties");
    }
    /* integers: directly, once (257 -> 256 in bf16; 2^53 + 1 exact in long double) */
    const int64_t ints[] = {0, 1, -1, 257, 259, 2049, 2051, 65504, 65519, 65520, -65520, 16777217, INT64_MAX, INT64_MIN,
                            (int64_t)1 << 53, ((int64_t)1 << 53) + 1, 0x7fffff8000000001ll};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; ++i)
        check_narrow((long double)ints[i], tile_i64_to_f16(ints[i]).bits, tile_i64_to_bf16(ints[i]).bits, "i64");
    assert_int_equal(tile_i64_to_bf16(257).bits, 0x4380);
    for (int i = 0; i < 200000; ++i) {
        uint64_t u = ((uint64_t)rnd() << 32 | rnd()) >> (rnd() % 64);
        check_narrow((long double)u, tile_u64_to_f16(u).bits, tile_u64_to_bf16(u).bits, "u64");
        int64_t s = (int64_t)u * ((rnd() & 1) ? -1 : 1);
        check_narrow((long double)s, tile_i64_to_f16(s).bits, tile_i64_to_bf16(s).bits, "i64");
    }
}

/* ---- 16-bit arithmetic: one f32 operation, one rounding ---- */
static long double ref_op(int op, long double x, long double y) {
    switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    default: return x / y;
    }
}
#define HALF_OPS_CHECK(sfx, FMT)                                                   \
    static void half_ops_##sfx(uint16_t a, uint16_t b) {                           \
        tile_##sfx ha = tile_##sfx##_from_bits(a), hb = tile_##sfx##_from_bits(b);  \
        const uint16_t got[4] = {tile_##sfx##_add(ha, hb).bits, tile_##sfx##_sub(ha, hb).bits, \
                                 tile_##sfx##_mul(ha, hb).bits, tile_##sfx##_div(ha, hb).bits}; \
        long double x = ref_decode16(a, FMT), y = ref_decode16(b, FMT);            \
        for (int op = 0; op < 4; ++op) {                                           \
            long double r = ref_round(ref_op(op, x, y), FMT);                      \
            if (!same_val(ref_decode16(got[op], FMT), r)) {                        \
                print_error(#sfx " op %d: 0x%04x, 0x%04x -> 0x%04x, expected %Lg\n", op, a, b, got[op], r); \
                fail();                                                            \
            }                                                                      \
        }                                                                          \
        assert_int_equal(tile_##sfx##_neg(ha).bits, a ^ 0x8000u);                  \
    }
HALF_OPS_CHECK(f16, RF16)
HALF_OPS_CHECK(bf16, RBF16)
static void test_half_arith(void **state) {
    (void)state;
    for (int i = 0; i < 1000000; ++i) {
        uint16_t a = (uint16_t)rnd(), b = (uint16_t)rnd();
        half_ops_f16(a, b);
        half_ops_bf16(a, b);
        /* close exponents: sums with cancellation and ties */
        uint16_t c = (uint16_t)((a & 0x83ffu) | 0x3c00u), d = (uint16_t)((b & 0x83ffu) | 0x3800u);
        half_ops_f16(c, d);
        half_ops_bf16((uint16_t)((a & 0x807fu) | 0x3f80u), (uint16_t)((b & 0x807fu) | 0x3f00u));
    }
    /* named: 1.5 + 0.1 */
    assert_int_equal(tile_f16_add(tile_f32_to_f16(1.5f), tile_f32_to_f16(0.1f)).bits, 0x3e66);
    assert_int_equal(tile_f16_mul_s(tile_f32_to_f16(1.5f), 3.0f).bits, tile_f32_to_f16(4.5f).bits);
}

/* ======================================================================
 * 16-bit tiles: cascade, element-wise, map, fills
 * ====================================================================== */
#define HR 4
#define HC 8 /* 8 x 2 bytes: 16-byte rows, the vector tier */
#define HN (HR * HC)
enum { H_NOUT = 14 };
TILE_FUNC float h_sq1(float x) { return x * x + 1.0f; }
TILE_FUNC float h_lin3(float x, float y, float z) { return x * y - z; }
TILE_FUNC float h_sum4(float x, float y, float z, float w) { return (x + y) + (z + w); }
/* out[j * HN + i]: 0 a+b 1 a-b 2 a*b 3 a/b 4 -a 5 a*k 6 k/a 7 map(x^2+1) 8 map3(a*b-a)
 * 9 ones 10 zeros 11 astype(f32 -> T) of f 12 map4(a,b,a,b) 13 copy through shared (store tier);
 * f32out: astype(T -> f32) of a; tiers: load tier of the shared tile, store tier */
#define DEF_HALF_KERNEL(sfx)                                                       \
    TILE_KERNEL_SMEM(half_##sfx, 32, 3 * TILE_SMEM_BYTES(tile_##sfx, HR, HC), const tile_##sfx *a, \
                     const tile_##sfx *b, const float *f, float k, tile_##sfx *out, float *f32out, int *tiers) { \
        TYPES_HALF_OPS(sfx, a, b, f, k, out, f32out, tiers[0], tiers[1]);          \
    }
DEF_HALF_KERNEL(f16)
DEF_HALF_KERNEL(bf16)

static float ref_f32_map(int which, float x, float y) {
    switch (which) {
    case 7: return x * x + 1.0f;
    case 8: return x * y - x;
    default: return (x + y) + (x + y);
    }
}
#define HALF_TILE_TEST(sfx, FMT)                                                   \
    static void test_tiles_##sfx(void **state) {                                   \
        (void)state;                                                               \
        static tile_##sfx a[HN] __attribute__((aligned(16))), b[HN] __attribute__((aligned(16))), \
            out[H_NOUT * HN] __attribute__((aligned(16)));                         \
        static float f[HN], f32out[HN];                                            \
        int tiers[2];                                                              \
        for (int rep = 0; rep < 300; ++rep) {                                      \
            for (int i = 0; i < HN; ++i) {                                         \
                /* mostly finite values of moderate size, some specials */         \
                uint16_t ab = (uint16_t)rnd(), bb = (uint16_t)rnd();              \
                if (rep % 3) {                                                     \
                    a[i] = tile_f32_to_##sfx((float)((int)(rnd() % 2001) - 1000) / 64.0f); \
                    b[i] = tile_f32_to_##sfx((float)((int)(rnd() % 2001) - 1000) / 48.0f); \
                } else {                                                           \
                    a[i] = tile_##sfx##_from_bits(ab);                             \
                    b[i] = tile_##sfx##_from_bits(bb);                             \
                }                                                                  \
                f[i] = f32_of(rnd() & 0xbfffffffu); /* |f| < 2: all exponents below */ \
                if (i == 3) f[i] = NAN;                                            \
            }                                                                      \
            const float k = rep % 2 ? 0.3f : -3.0f;                                \
            memset(out, 0xee, sizeof out);                                         \
            assert_tile_ok(tile_launch(TILE_CPU, half_##sfx, tile_grid1(1), 32, a, b, f, k, out, f32out, tiers)); \
            assert_int_equal(tiers[0], TILE_TIER_VECTOR);                          \
            assert_int_equal(tiers[1], TILE_TIER_VECTOR);                          \
            for (int i = 0; i < HN; ++i) {                                         \
                long double x = ref_decode16(a[i].bits, FMT), y = ref_decode16(b[i].bits, FMT); \
                long double want[H_NOUT];                                          \
                for (int op = 0; op < 4; ++op) want[op] = ref_round(ref_op(op, x, y), FMT); \
                want[4] = -x;                                                      \
                want[5] = ref_round((long double)((float)x * k), FMT);             \
                want[6] = ref_round((long double)(k / (float)x), FMT);             \
                want[7] = ref_round(ref_f32_map(7, (float)x, (float)y), FMT);      \
                want[8] = ref_round(ref_f32_map(8, (float)x, (float)y), FMT);      \
                want[9] = 1;                                                       \
                want[10] = 0;                                                      \
                want[11] = ref_round(f[i], FMT);                                   \
                want[12] = ref_round(ref_f32_map(12, (float)x, (float)y), FMT);    \
                want[13] = x;                                                      \
                for (int j = 0; j < H_NOUT; ++j) {                                 \
                    long double g = ref_decode16(out[j * HN + i].bits, FMT);       \
                    if (!same_val(g, want[j])) {                                   \
                        print_error(#sfx " output %d element %d: a 0x%04x b 0x%04x: got 0x%04x = %Lg, expected %Lg\n", \
                                    j, i, a[i].bits, b[i].bits, out[j * HN + i].bits, g, want[j]); \
                        fail();                                                    \
                    }                                                              \
                }                                                                  \
                assert_int_equal(out[4 * HN + i].bits, a[i].bits ^ 0x8000u);       \
                assert_int_equal(out[13 * HN + i].bits, a[i].bits);                \
                assert_true(same_val(f32out[i], x));                               \
            }                                                                      \
        }                                                                          \
    }
HALF_TILE_TEST(f16, RF16)
HALF_TILE_TEST(bf16, RBF16)

/* ======================================================================
 * tile_astype: every pair of real types
 * ====================================================================== */
enum { CV_N = 48 };
typedef struct { const char *name; int kind; int bits; } cv_type; /* kind: 0 float, 1 signed, 2 unsigned, 3 f16, 4 bf16 */
#define CV_TYPES(X)                                                                \
    X(f32, float, 0, 32) X(f64, double, 0, 64) X(i32, int32_t, 1, 32) X(u32, uint32_t, 2, 32) \
    X(i64, int64_t, 1, 64) X(u64, uint64_t, 2, 64) X(i8, int8_t, 1, 8) X(u8, uint8_t, 2, 8) \
    X(f16, tile_f16, 3, 16) X(bf16, tile_bf16, 4, 16)
#define CV_TYPES_B(Y)                                                              \
    Y(f32, float, 0, 32) Y(f64, double, 0, 64) Y(i32, int32_t, 1, 32) Y(u32, uint32_t, 2, 32) \
    Y(i64, int64_t, 1, 64) Y(u64, uint64_t, 2, 64) Y(i8, int8_t, 1, 8) Y(u8, uint8_t, 2, 8) \
    Y(f16, tile_f16, 3, 16) Y(bf16, tile_bf16, 4, 16)
#define CV_KERNEL(ss, S, sk, sb, ds, D, dk, db)                                    \
    TILE_KERNEL_SMEM(cv_##ss##_##ds, 16, TILE_SMEM_BYTES(D, CV_N), const S *in, D *out) { \
        tile_reg(S, x, CV_N);                                                      \
        tile_load(x, tile_array1(in, CV_N), 0);                                    \
        tile_shared(D, y, CV_N);                                                   \
        tile_astype(y, x);                                                         \
        tile_store(tile_array1(out, CV_N), y, 0);                                  \
    }
#define CV_ROW_f32(ds, D, dk, db) CV_KERNEL(f32, float, 0, 32, ds, D, dk, db)
#define CV_ROW_f64(ds, D, dk, db) CV_KERNEL(f64, double, 0, 64, ds, D, dk, db)
#define CV_ROW_i32(ds, D, dk, db) CV_KERNEL(i32, int32_t, 1, 32, ds, D, dk, db)
#define CV_ROW_u32(ds, D, dk, db) CV_KERNEL(u32, uint32_t, 2, 32, ds, D, dk, db)
#define CV_ROW_i64(ds, D, dk, db) CV_KERNEL(i64, int64_t, 1, 64, ds, D, dk, db)
#define CV_ROW_u64(ds, D, dk, db) CV_KERNEL(u64, uint64_t, 2, 64, ds, D, dk, db)
#define CV_ROW_i8(ds, D, dk, db) CV_KERNEL(i8, int8_t, 1, 8, ds, D, dk, db)
#define CV_ROW_u8(ds, D, dk, db) CV_KERNEL(u8, uint8_t, 2, 8, ds, D, dk, db)
#define CV_ROW_f16(ds, D, dk, db) CV_KERNEL(f16, tile_f16, 3, 16, ds, D, dk, db)
#define CV_ROW_bf16(ds, D, dk, db) CV_KERNEL(bf16, tile_bf16, 4, 16, ds, D, dk, db)
CV_TYPES_B(CV_ROW_f32)
CV_TYPES_B(CV_ROW_f64)
CV_TYPES_B(CV_ROW_i32)
CV_TYPES_B(CV_ROW_u32)
CV_TYPES_B(CV_ROW_i64)
CV_TYPES_B(CV_ROW_u64)
CV_TYPES_B(CV_ROW_i8)
CV_TYPES_B(CV_ROW_u8)
CV_TYPES_B(CV_ROW_f16)
CV_TYPES_B(CV_ROW_bf16)

/* candidate values (long double, exact); each source type keeps those it
 * represents (floating types: rounded by the reference) */
static const long double cv_cand[] = {0.0L, -0.0L, 1.0L, -1.0L, 0.5L, -0.5L, 1.5L, -2.5L, 2.5L, 3.75L, 127.0L, 127.5L,
                                      128.0L, -128.0L, -128.75L, -129.0L, 255.0L, 255.5L, 256.0L, 257.0L, 65504.0L,
                                      65519.99L, 65520.0L, 1e10L, -1e10L, 2147483647.0L, -2147483648.0L, 2147483648.0L,
                                      4294967295.0L, 4294967296.0L, 9007199254740993.0L, 9223372036854775807.0L,
                                      -9223372036854775807.0L - 1, 18446744073709551615.0L, 3e38L, 1e-5L, 6e-8L,
                                      1.0009765625L, 1.00390625L, 16777217.0L, 0.1L, -0.7L, 1e300L, NAN, INFINITY,
                                      -INFINITY, 1e-40L, -3.2e4L};
enum { CV_NCAND = sizeof cv_cand / sizeof cv_cand[0] };
static const ref_fmt *cv_fmt(int kind, int bits) {
    return kind == 3 ? &RF16 : kind == 4 ? &RBF16 : bits == 32 ? &RF32 : &RF64;
}
/* source value v held by type (kind, bits)? then *rep = its exact value */
static int cv_repr(int kind, int bits, long double v, long double *rep) {
    if (kind == 1 || kind == 2) {
        if (isnan(v) || isinf(v) || v != truncl(v)) return 0;
        long double lo = kind == 1 ? -ldexpl(1, bits - 1) : 0, hi = kind == 1 ? ldexpl(1, bits - 1) - 1 : ldexpl(1, bits) - 1;
        if (v < lo || v > hi) return 0;
        *rep = v == 0 ? 0.0L : v; /* integers have no -0 */
        return 1;
    }
    *rep = ref_round(v, *cv_fmt(kind, bits));
    return 1;
}
static void cv_put(int kind, int bits, void *p, int i, long double v) {
    switch (kind * 100 + bits) {
    case 32: ((float *)p)[i] = (float)v; break;
    case 64: ((double *)p)[i] = (double)v; break;
    case 132: ((int32_t *)p)[i] = (int32_t)v; break;
    case 164: ((int64_t *)p)[i] = (int64_t)v; break;
    case 108: ((int8_t *)p)[i] = (int8_t)v; break;
    case 232: ((uint32_t *)p)[i] = (uint32_t)v; break;
    case 264: ((uint64_t *)p)[i] = (uint64_t)v; break;
    case 208: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case 316: ((uint16_t *)p)[i] = ref_encode16(v, RF16); break;
    default: ((uint16_t *)p)[i] = ref_encode16(v, RBF16); break;
    }
}
static long double cv_get(int kind, int bits, const void *p, int i) {
    switch (kind * 100 + bits) {
    case 32: return ((const float *)p)[i];
    case 64: return ((const double *)p)[i];
    case 132: return ((const int32_t *)p)[i];
    case 164: return ((const int64_t *)p)[i];
    case 108: return ((const int8_t *)p)[i];
    case 232: return ((const uint32_t *)p)[i];
    case 264: return ((const uint64_t *)p)[i];
    case 208: return ((const uint8_t *)p)[i];
    case 316: return ref_decode16(((const uint16_t *)p)[i], RF16);
    default: return ref_decode16(((const uint16_t *)p)[i], RBF16);
    }
}
/* the reference conversion of exact value v (of a source of kind sk) to
 * (kind, bits): integer -> integer wraps modulo 2^bits (C's casts), floating
 * -> integer truncates and saturates, NaN -> 0 */
static long double cv_ref(int sk, int kind, int bits, long double v) {
    if ((kind == 1 || kind == 2) && (sk == 1 || sk == 2)) {
        uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)(-v) : (uint64_t)v;
        if (bits < 64) u &= (((uint64_t)1) << bits) - 1;
        if (kind == 2) return (long double)u;
        int64_t sv = bits < 64 && (u >> (bits - 1)) ? (int64_t)u - ((int64_t)1 << bits) : (int64_t)u;
        return (long double)sv;
    }
    if (kind == 1 || kind == 2) {
        long double lo = kind == 1 ? -ldexpl(1, bits - 1) : 0, hi = kind == 1 ? ldexpl(1, bits - 1) - 1 : ldexpl(1, bits) - 1;
        if (isnan(v)) return 0;
        v = truncl(v);
        return v < lo ? lo : v > hi ? hi : v;
    }
    return ref_round(v, *cv_fmt(kind, bits));
}
typedef int (*cv_launch_fn)(const void *in, void *out);
#define CV_LAUNCHER(ss, S, sk, sb, ds, D, dk, db)                                  \
    static int cv_run_##ss##_##ds(const void *in, void *out) {                     \
        return tile_launch(TILE_CPU, cv_##ss##_##ds, tile_grid1(1), 16, (const S *)in, (D *)out); \
    }
#define CV_LROW_f32(ds, D, dk, db) CV_LAUNCHER(f32, float, 0, 32, ds, D, dk, db)
#define CV_LROW_f64(ds, D, dk, db) CV_LAUNCHER(f64, double, 0, 64, ds, D, dk, db)
#define CV_LROW_i32(ds, D, dk, db) CV_LAUNCHER(i32, int32_t, 1, 32, ds, D, dk, db)
#define CV_LROW_u32(ds, D, dk, db) CV_LAUNCHER(u32, uint32_t, 2, 32, ds, D, dk, db)
#define CV_LROW_i64(ds, D, dk, db) CV_LAUNCHER(i64, int64_t, 1, 64, ds, D, dk, db)
#define CV_LROW_u64(ds, D, dk, db) CV_LAUNCHER(u64, uint64_t, 2, 64, ds, D, dk, db)
#define CV_LROW_i8(ds, D, dk, db) CV_LAUNCHER(i8, int8_t, 1, 8, ds, D, dk, db)
#define CV_LROW_u8(ds, D, dk, db) CV_LAUNCHER(u8, uint8_t, 2, 8, ds, D, dk, db)
#define CV_LROW_f16(ds, D, dk, db) CV_LAUNCHER(f16, tile_f16, 3, 16, ds, D, dk, db)
#define CV_LROW_bf16(ds, D, dk, db) CV_LAUNCHER(bf16, tile_bf16, 4, 16, ds, D, dk, db)
CV_TYPES_B(CV_LROW_f32)
CV_TYPES_B(CV_LROW_f64)
CV_TYPES_B(CV_LROW_i32)
CV_TYPES_B(CV_LROW_u32)
CV_TYPES_B(CV_LROW_i64)
CV_TYPES_B(CV_LROW_u64)
CV_TYPES_B(CV_LROW_i8)
CV_TYPES_B(CV_LROW_u8)
CV_TYPES_B(CV_LROW_f16)
CV_TYPES_B(CV_LROW_bf16)
typedef struct { const char *s, *d; int sk, sb, dk, db; cv_launch_fn run; } cv_pair;
#define CV_PAIR(ss, S, sk, sb, ds, D, dk, db) {#ss, #ds, sk, sb, dk, db, cv_run_##ss##_##ds},
#define CV_PROW_f32(ds, D, dk, db) CV_PAIR(f32, float, 0, 32, ds, D, dk, db)
#define CV_PROW_f64(ds, D, dk, db) CV_PAIR(f64, double, 0, 64, ds, D, dk, db)
#define CV_PROW_i32(ds, D, dk, db) CV_PAIR(i32, int32_t, 1, 32, ds, D, dk, db)
#define CV_PROW_u32(ds, D, dk, db) CV_PAIR(u32, uint32_t, 2, 32, ds, D, dk, db)
#define CV_PROW_i64(ds, D, dk, db) CV_PAIR(i64, int64_t, 1, 64, ds, D, dk, db)
#define CV_PROW_u64(ds, D, dk, db) CV_PAIR(u64, uint64_t, 2, 64, ds, D, dk, db)
#define CV_PROW_i8(ds, D, dk, db) CV_PAIR(i8, int8_t, 1, 8, ds, D, dk, db)
#define CV_PROW_u8(ds, D, dk, db) CV_PAIR(u8, uint8_t, 2, 8, ds, D, dk, db)
#define CV_PROW_f16(ds, D, dk, db) CV_PAIR(f16, tile_f16, 3, 16, ds, D, dk, db)
#define CV_PROW_bf16(ds, D, dk, db) CV_PAIR(bf16, tile_bf16, 4, 16, ds, D, dk, db)
static const cv_pair cv_pairs[] = {CV_TYPES_B(CV_PROW_f32) CV_TYPES_B(CV_PROW_f64) CV_TYPES_B(CV_PROW_i32)
                                       CV_TYPES_B(CV_PROW_u32) CV_TYPES_B(CV_PROW_i64) CV_TYPES_B(CV_PROW_u64)
                                           CV_TYPES_B(CV_PROW_i8) CV_TYPES_B(CV_PROW_u8) CV_TYPES_B(CV_PROW_f16)
                                               CV_TYPES_B(CV_PROW_bf16)};

static void test_astype_all_pairs(void **state) {
    (void)state;
    assert_int_equal(sizeof cv_pairs / sizeof cv_pairs[0], 100);
    static unsigned char in[CV_N * 8] __attribute__((aligned(16))), out[CV_N * 8] __attribute__((aligned(16)));
    long double src[CV_N];
    for (size_t p = 0; p < 100; ++p) {
        const cv_pair *cp = &cv_pairs[p];
        int n = 0;
        for (int c = 0; c < CV_NCAND && n < CV_N; ++c) {
            long double rep;
            if (cv_repr(cp->sk, cp->sb, cv_cand[c], &rep)) src[n++] = rep;
        }
        for (int i = n; i < CV_N; ++i) src[i] = 0; /* pad */
        for (int i = 0; i < CV_N; ++i) cv_put(cp->sk, cp->sb, in, i, src[i]);
        memset(out, 0xcd, sizeof out);
        assert_tile_ok(cp->run(in, out));
        for (int i = 0; i < CV_N; ++i) {
            long double got = cv_get(cp->dk, cp->db, out, i), want = cv_ref(cp->sk, cp->dk, cp->db, src[i]);
            if (!same_val(got, want) && !(cp->dk != 0 && cp->dk < 3 && got == want)) {
                print_error("astype %s -> %s: %.21Lg -> %.21Lg, expected %.21Lg\n", cp->s, cp->d, src[i], got, want);
                fail();
            }
        }
    }
}

/* ======================================================================
 * complex
 * ====================================================================== */
#define CR 3
#define CC 4
#define CN (CR * CC)
enum { C_NOUT = 11 };
/* 0 a+b 1 a-b 2 a*b 3 a/b 4 -a 5 a*kr 6 kc*a 7 kr/a 8 r*b (real tile times complex) 9 ones 10 astype(r) */
#define DEF_CPLX_KERNEL(sfx, T, S)                                                 \
    TILE_KERNEL_SMEM(cplx_##sfx, 8, 2 * TILE_SMEM_BYTES(T, CR, CC), const T *a, const T *b, const S *r, S kr, T kc, \
                     T *out, tile_c64 *wide) {                                     \
        tile_array o = tile_array2(out, C_NOUT * CR, CC);                          \
        tile_shared(T, sa, CR, CC);                                                \
        tile_reg(T, rb, CR, CC);                                                   \
        tile_reg(S, rr, CR, CC);                                                   \
        tile_reg(T, rc, CR, CC);                                                   \
        tile_shared(T, sc, CR, CC);                                                \
        tile_load(sa, tile_array2(a, CR, CC), 0, 0);                               \
        tile_load(rb, tile_array2(b, CR, CC), 0, 0);                               \
        tile_load(rr, tile_array2(r, CR, CC), 0, 0);                               \
        tile_add(rc, sa, rb);                                                      \
        tile_store(o, rc, 0 * CR, 0);                                              \
        tile_sub(sc, sa, rb);                                                      \
        tile_store(o, sc, 1 * CR, 0);                                              \
        tile_mul(rc, sa, rb);                                                      \
        tile_store(o, rc, 2 * CR, 0);                                              \
        tile_div(sc, sa, rb);                                                      \
        tile_store(o, sc, 3 * CR, 0);                                              \
        tile_neg(rc, sa);                                                          \
        tile_store(o, rc, 4 * CR, 0);                                              \
        tile_mul_c(rc, sa, kr);                                                    \
        tile_store(o, rc, 5 * CR, 0);                                              \
        tile_c_mul(sc, kc, sa);                                                    \
        tile_store(o, sc, 6 * CR, 0);                                              \
        tile_c_div(rc, kr, sa);                                                    \
        tile_store(o, rc, 7 * CR, 0);                                              \
        tile_mul(sc, rr, rb);                                                      \
        tile_store(o, sc, 8 * CR, 0);                                              \
        tile_ones(rc);                                                             \
        tile_store(o, rc, 9 * CR, 0);                                              \
        tile_astype(sc, rr);                                                       \
        tile_store(o, sc, 10 * CR, 0);                                             \
        tile_reg(tile_c64, w, CR, CC);                                             \
        tile_astype(w, sa);                                                        \
        tile_store(tile_array2(wide, CR, CC), w, 0, 0);                            \
    }
DEF_CPLX_KERNEL(c32, tile_c32, float)
DEF_CPLX_KERNEL(c64, tile_c64, double)

static void cx_check(double gr, double gi, double wr, double wi, double tol, const char *what, int i) {
    double scale = 1.0 + fabs(wr) + fabs(wi);
    if (!(fabs(gr - wr) <= tol * scale && fabs(gi - wi) <= tol * scale)) {
        print_error("%s element %d: got %.17g%+.17gi, expected %.17g%+.17gi\n", what, i, gr, gi, wr, wi);
        fail();
    }
}
#define CPLX_TEST(sfx, T, S, TOL)                                                  \
    static void test_complex_##sfx(void **state) {                                 \
        (void)state;                                                               \
        T a[CN], b[CN], out[C_NOUT * CN];                                          \
        S r[CN];                                                                   \
        tile_c64 wide[CN];                                                         \
        for (int i = 0; i < CN; ++i) {                                             \
            a[i] = tile_##sfx##_set((S)tu_val(i, 1, 1), (S)tu_val(i, 2, 1));       \
            b[i] = tile_##sfx##_set((S)tu_val_nz(i, 3, 1), (S)tu_val(i, 4, 1));    \
            r[i] = (S)tu_val(i, 5, 1);                                             \
        }                                                                          \
        a[0] = tile_##sfx##_set(1, 2); b[0] = tile_##sfx##_set(3, -1);             \
        b[1] = tile_##sfx##_set((S)1e-3, (S)40); /* |im| > |re|: the other branch */ \
        const S kr = (S)2.5;                                                       \
        const T kc = tile_##sfx##_set((S)-1.5, (S)0.5);                            \
        memset(out, 0xff, sizeof out);                                             \
        assert_tile_ok(tile_launch(TILE_CPU, cplx_##sfx, tile_grid1(1), 8, a, b, r, kr, kc, out, wide)); \
        for (int i = 0; i < CN; ++i) {                                             \
            double ar = a[i].re, ai = a[i].im, br = b[i].re, bi = b[i].im, rv = r[i]; \
            double den = br * br + bi * bi, aden = ar * ar + ai * ai;              \
            double w[C_NOUT][2] = {{ar + br, ai + bi}, {ar - br, ai - bi}, {ar * br - ai * bi, ar * bi + ai * br}, \
                                   {(ar * br + ai * bi) / den, (ai * br - ar * bi) / den}, {-ar, -ai}, \
                                   {ar * kr, ai * kr}, {kc.re * ar - kc.im * ai, kc.re * ai + kc.im * ar}, \
                                   {kr * ar / aden, -kr * ai / aden}, {rv * br, rv * bi}, {1, 0}, {rv, 0}}; \
            for (int j = 0; j < C_NOUT; ++j) {                                     \
                if (j == 7 && aden == 0) continue;                                 \
                cx_check(out[j * CN + i].re, out[j * CN + i].im, w[j][0], w[j][1], TOL, #sfx, j * 100 + i); \
            }                                                                      \
            assert_true(wide[i].re == ar && wide[i].im == ai);                     \
        }                                                                          \
        assert_true(out[2 * CN].re == 5 && out[2 * CN].im == 5);                   \
        cx_check(out[3 * CN].re, out[3 * CN].im, 0.1, 0.7, TOL, "(1+2i)/(3-i)", 0); \
    }
CPLX_TEST(c32, tile_c32, float, 1e-6)
CPLX_TEST(c64, tile_c64, double, 1e-14)

/* ======================================================================
 * i8 / u8, integer vectors, quaternions
 * ====================================================================== */
#define IN 40
/* 0 a+b 1 a-b 2 a*b 3 a/b 4 -a 5 a*3 6 100/b */
#define DEF_I8_KERNEL(sfx, T)                                                      \
    TILE_KERNEL_SMEM(small_##sfx, 16, TILE_SMEM_BYTES(T, IN), const T *a, const T *b, T *out) { \
        tile_reg(T, ra, IN);                                                       \
        tile_shared(T, sb, IN);                                                    \
        tile_reg(T, c, IN);                                                        \
        tile_load(ra, tile_array1(a, IN), 0);                                      \
        tile_load(sb, tile_array1(b, IN), 0);                                      \
        tile_add(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 0 * IN, IN), c, 0);                           \
        tile_sub(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 1 * IN, IN), c, 0);                           \
        tile_mul(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 2 * IN, IN), c, 0);                           \
        tile_div(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 3 * IN, IN), c, 0);                           \
        tile_neg(c, ra);                                                           \
        tile_store(tile_array1(out + 4 * IN, IN), c, 0);                           \
        tile_mul_c(c, ra, 3);                                                      \
        tile_store(tile_array1(out + 5 * IN, IN), c, 0);                           \
        tile_c_div(c, 100, sb);                                                    \
        tile_store(tile_array1(out + 6 * IN, IN), c, 0);                           \
    }
DEF_I8_KERNEL(i8, int8_t)
DEF_I8_KERNEL(u8, uint8_t)
static void test_int8(void **state) {
    (void)state;
    int8_t a[IN], b[IN], o[7 * IN];
    uint8_t ua[IN], ub[IN], uo[7 * IN];
    for (int i = 0; i < IN; ++i) {
        a[i] = (int8_t)(rnd() & 0xff);
        b[i] = (int8_t)(rnd() & 0xff);
        if (b[i] == 0) b[i] = 7;
        ua[i] = (uint8_t)a[i];
        ub[i] = (uint8_t)b[i];
    }
    a[0] = -128; b[0] = -1; /* -128 / -1 wraps to -128, as Warp's int8 */
    ua[0] = 200; ub[0] = 100;
    assert_tile_ok(tile_launch(TILE_CPU, small_i8, tile_grid1(1), 16, a, b, o));
    assert_tile_ok(tile_launch(TILE_CPU, small_u8, tile_grid1(1), 16, ua, ub, uo));
    for (int i = 0; i < IN; ++i) {
        int x = a[i], y = b[i], ux = ua[i], uy = ub[i];
        int w[7] = {x + y, x - y, x * y, x / y, -x, x * 3, 100 / y};
        int uw[7] = {ux + uy, ux - uy, ux * uy, ux / uy, -ux, ux * 3, 100 / uy};
        for (int j = 0; j < 7; ++j) {
            assert_int_equal((int)o[j * IN + i], (int)(int8_t)(uint8_t)(w[j] & 0xff));
            assert_int_equal((int)uo[j * IN + i], uw[j] & 0xff);
        }
    }
    assert_int_equal(o[3 * IN], -128);
    assert_int_equal(uo[0], 44); /* 200 + 100 = 300 mod 256 */
}

#define VN 6
/* 0 a+b 1 a-b 2 -a 3 a*k 4 k*a 5 a/k 6 a*s (i32 tile) 7 s*a 8 a/s 9 ones */
#define DEF_VECI_KERNEL(sfx, T, N)                                                 \
    TILE_KERNEL_SMEM(veci_##sfx, 4, TILE_SMEM_BYTES(T, VN), const T *a, const T *b, const int32_t *s, int32_t k, \
                     T *out) {                                                     \
        tile_reg(T, ra, VN);                                                       \
        tile_shared(T, sb, VN);                                                    \
        tile_reg(int32_t, rs, VN);                                                 \
        tile_reg(T, c, VN);                                                        \
        tile_load(ra, tile_array1(a, VN), 0);                                      \
        tile_load(sb, tile_array1(b, VN), 0);                                      \
        tile_load(rs, tile_array1(s, VN), 0);                                      \
        tile_add(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 0 * VN, VN), c, 0);                           \
        tile_sub(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 1 * VN, VN), c, 0);                           \
        tile_neg(c, ra);                                                           \
        tile_store(tile_array1(out + 2 * VN, VN), c, 0);                           \
        tile_mul_c(c, ra, k);                                                      \
        tile_store(tile_array1(out + 3 * VN, VN), c, 0);                           \
        tile_c_mul(c, k, sb);                                                      \
        tile_store(tile_array1(out + 4 * VN, VN), c, 0);                           \
        tile_div_c(c, ra, k);                                                      \
        tile_store(tile_array1(out + 5 * VN, VN), c, 0);                           \
        tile_mul(c, ra, rs);                                                       \
        tile_store(tile_array1(out + 6 * VN, VN), c, 0);                           \
        tile_mul(c, rs, sb);                                                       \
        tile_store(tile_array1(out + 7 * VN, VN), c, 0);                           \
        tile_div(c, sb, rs);                                                       \
        tile_store(tile_array1(out + 8 * VN, VN), c, 0);                           \
        tile_ones(c);                                                              \
        tile_store(tile_array1(out + 9 * VN, VN), c, 0);                           \
    }
DEF_VECI_KERNEL(vec2i, tile_vec2i, 2)
DEF_VECI_KERNEL(vec3i, tile_vec3i, 3)
DEF_VECI_KERNEL(vec4i, tile_vec4i, 4)
#define VECI_TEST(sfx, T, N)                                                       \
    static void test_##sfx(void **state) {                                         \
        (void)state;                                                               \
        T a[VN], b[VN], out[10 * VN];                                              \
        int32_t s[VN];                                                             \
        for (int i = 0; i < VN; ++i) {                                             \
            for (int c = 0; c < N; ++c) {                                          \
                a[i].v[c] = (int32_t)tu_val(i * N + c, 1, 0);                      \
                b[i].v[c] = (int32_t)tu_val(i * N + c, 2, 0);                      \
            }                                                                      \
            s[i] = (int32_t)tu_val_nz(i, 3, 0);                                    \
        }                                                                          \
        const int32_t k = -3;                                                      \
        assert_tile_ok(tile_launch(TILE_CPU, veci_##sfx, tile_grid1(1), 4, a, b, s, k, out)); \
        for (int i = 0; i < VN; ++i)                                               \
            for (int c = 0; c < N; ++c) {                                          \
                int32_t x = a[i].v[c], y = b[i].v[c], z = s[i];                    \
                int32_t w[10] = {x + y, x - y, -x, x * k, k * y, x / k, x * z, z * y, y / z, 1}; \
                for (int j = 0; j < 10; ++j) assert_int_equal(out[j * VN + i].v[c], w[j]); \
            }                                                                      \
    }
VECI_TEST(vec2i, tile_vec2i, 2)
VECI_TEST(vec3i, tile_vec3i, 3)
VECI_TEST(vec4i, tile_vec4i, 4)

#define QN 5
/* 0 a+b 1 a-b 2 -a 3 a*b (Hamilton) 4 a*s 5 q*a (constant first) 6 a*q 7 a/s 8 s(tile)*a 9 ones */
#define DEF_QUAT_KERNEL(sfx, T, S)                                                 \
    TILE_KERNEL_SMEM(quat_##sfx, 4, TILE_SMEM_BYTES(T, QN), const T *a, const T *b, const S *s, S k, T q, T *out) { \
        tile_reg(T, ra, QN);                                                       \
        tile_shared(T, sb, QN);                                                    \
        tile_reg(S, rs, QN);                                                       \
        tile_reg(T, c, QN);                                                        \
        tile_load(ra, tile_array1(a, QN), 0);                                      \
        tile_load(sb, tile_array1(b, QN), 0);                                      \
        tile_load(rs, tile_array1(s, QN), 0);                                      \
        tile_add(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 0 * QN, QN), c, 0);                           \
        tile_sub(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 1 * QN, QN), c, 0);                           \
        tile_neg(c, ra);                                                           \
        tile_store(tile_array1(out + 2 * QN, QN), c, 0);                           \
        tile_mul(c, ra, sb);                                                       \
        tile_store(tile_array1(out + 3 * QN, QN), c, 0);                           \
        tile_mul_c(c, ra, k);                                                      \
        tile_store(tile_array1(out + 4 * QN, QN), c, 0);                           \
        tile_c_mul(c, q, ra);                                                      \
        tile_store(tile_array1(out + 5 * QN, QN), c, 0);                           \
        tile_mul_c(c, ra, q);                                                      \
        tile_store(tile_array1(out + 6 * QN, QN), c, 0);                           \
        tile_div_c(c, ra, k);                                                      \
        tile_store(tile_array1(out + 7 * QN, QN), c, 0);                           \
        tile_mul(c, rs, ra);                                                       \
        tile_store(tile_array1(out + 8 * QN, QN), c, 0);                           \
        tile_ones(c);                                                              \
        tile_store(tile_array1(out + 9 * QN, QN), c, 0);                           \
    }
DEF_QUAT_KERNEL(quatf, tile_quatf, float)
DEF_QUAT_KERNEL(quatd, tile_quatd, double)
/* Hamilton product in double, written from i^2 = j^2 = k^2 = ijk = -1 */
static void ref_qmul(const double a[4], const double b[4], double r[4]) {
    /* a = (x, y, z, w): w + x i + y j + z k */
    const double a0 = a[3], a1 = a[0], a2 = a[1], a3 = a[2], b0 = b[3], b1 = b[0], b2 = b[1], b3 = b[2];
    r[3] = a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3;
    r[0] = a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2;
    r[1] = a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1;
    r[2] = a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0;
}
#define QUAT_TEST(sfx, T, S, TOL, VS)                                                  \
    static void test_##sfx(void **state) {                                         \
        (void)state;                                                               \
        T a[QN], b[QN], out[10 * QN];                                              \
        S s[QN];                                                                   \
        for (int i = 0; i < QN; ++i) {                                             \
            a[i] = tile_##sfx##_set((S)tu_val(4 * i, 1, 1), (S)tu_val(4 * i + 1, 1, 1), (S)tu_val(4 * i + 2, 1, 1), \
                                    (S)tu_val(4 * i + 3, 1, 1));                   \
            b[i] = tile_##sfx##_set((S)tu_val(4 * i, 2, 1), (S)tu_val(4 * i + 1, 2, 1), (S)tu_val(4 * i + 2, 2, 1), \
                                    (S)tu_val(4 * i + 3, 2, 1));                   \
            s[i] = (S)tu_val(i, 3, 1);                                             \
        }                                                                          \
        a[0] = tile_##sfx##_set(1, 2, 3, 4);                                       \
        b[0] = tile_##sfx##_set(5, 6, 7, 8);                                       \
        const S k = (S)0.5;                                                        \
        const T q = tile_##sfx##_set(0, 1, 0, 0); /* j */                          \
        assert_tile_ok(tile_launch(TILE_CPU, quat_##sfx, tile_grid1(1), 4, a, b, s, k, q, out)); \
        for (int i = 0; i < QN; ++i) {                                             \
            double x[4] = {a[i].x, a[i].y, a[i].z, a[i].w}, y[4] = {b[i].x, b[i].y, b[i].z, b[i].w}; \
            double qq[4] = {0, 1, 0, 0}, w[10][4], t[4];                           \
            for (int c = 0; c < 4; ++c) {                                          \
                w[0][c] = x[c] + y[c];                                             \
                w[1][c] = x[c] - y[c];                                             \
                w[2][c] = -x[c];                                                   \
                w[4][c] = x[c] * k;                                                \
                w[7][c] = x[c] / k;                                                \
                w[8][c] = s[i] * x[c];                                             \
                w[9][c] = 1;                                                       \
            }                                                                      \
            ref_qmul(x, y, w[3]);                                                  \
            ref_qmul(qq, x, w[5]);                                                 \
            ref_qmul(x, qq, w[6]);                                                 \
            for (int j = 0; j < 10; ++j) {                                         \
                const T *g = &out[j * QN + i];                                     \
                t[0] = g->x; t[1] = g->y; t[2] = g->z; t[3] = g->w;                \
                for (int c = 0; c < 4; ++c) assert_close(t[c], w[j][c], TOL);      \
            }                                                                      \
        }                                                                          \
        assert_true(out[3 * QN].x == 24 && out[3 * QN].y == 48 && out[3 * QN].z == 48 && out[3 * QN].w == -6); \
        T ij = tile_##sfx##_mul(tile_##sfx##_set(1, 0, 0, 0), tile_##sfx##_set(0, 1, 0, 0)); \
        T ji = tile_##sfx##_mul(tile_##sfx##_set(0, 1, 0, 0), tile_##sfx##_set(1, 0, 0, 0)); \
        assert_true(ij.z == 1 && ji.z == -1 && ij.x == 0 && ij.w == 0);            \
        T qc = tile_##sfx##_mul(a[0], tile_##sfx##_conj(a[0]));                    \
        assert_true(qc.w == 30 && qc.x == 0 && qc.y == 0 && qc.z == 0);            \
        /* rotation: q v q* (and q* v q) of unit quaternions against the products */ \
        for (int i = 0; i < QN; ++i) {                                             \
            double x[4] = {a[i].x, a[i].y, a[i].z, a[i].w}, n = 0;                 \
            for (int c = 0; c < 4; ++c) n += x[c] * x[c];                          \
            if (n == 0) continue;                                                  \
            for (int c = 0; c < 4; ++c) x[c] /= sqrt(n);                           \
            const T u = tile_##sfx##_set((S)x[0], (S)x[1], (S)x[2], (S)x[3]);      \
            double ud[4] = {u.x, u.y, u.z, u.w}, uc[4] = {-u.x, -u.y, -u.z, u.w};  \
            double vv[4] = {b[i].x, b[i].y, b[i].z, 0}, t1[4], t2[4];              \
            ref_qmul(ud, vv, t1);                                                  \
            ref_qmul(t1, uc, t2);                                                  \
            tile_vec3##VS r = tile_##sfx##_rotate(u, tile_vec3##VS##_set(b[i].x, b[i].y, b[i].z)); \
            for (int c = 0; c < 3; ++c) assert_close(r.v[c], t2[c], 100 * TOL);    \
            ref_qmul(uc, vv, t1);                                                  \
            ref_qmul(t1, ud, t2);                                                  \
            r = tile_##sfx##_rotate_inv(u, tile_vec3##VS##_set(b[i].x, b[i].y, b[i].z)); \
            for (int c = 0; c < 3; ++c) assert_close(r.v[c], t2[c], 100 * TOL);    \
        }                                                                          \
        const S h = (S)0.70710678118654752440;                                     \
        tile_vec3##VS e = tile_##sfx##_rotate(tile_##sfx##_set(0, 0, h, h), tile_vec3##VS##_set(1, 0, 0)); \
        assert_close(e.v[0], 0, TOL); assert_close(e.v[1], 1, TOL); assert_close(e.v[2], 0, TOL); \
        e = tile_##sfx##_rotate_inv(tile_##sfx##_set(0, 0, h, h), tile_vec3##VS##_set(1, 0, 0)); \
        assert_close(e.v[1], -1, TOL);                                             \
    }
QUAT_TEST(quatf, tile_quatf, float, TU_TOL_F32, f)
QUAT_TEST(quatd, tile_quatd, double, TU_TOL_F64, d)

/* ======================================================================
 * tile_map3 / tile_map4 / tile_where
 * ====================================================================== */
#define WN 37
TILE_FUNC double w_lin3(double x, float y, int32_t z) { return x * y - z; }
TILE_FUNC float w_sum4(float x, float y, float z, float w) { return x - y * z + w; }
typedef struct { int32_t id; float v; } w_pair;
/* out: 0 map3 (f64 <- f64, f32, i32) 1 map4 (f32) 2 where(m, a, b) 3 where_c(m, a, -1)
 * 4 where_cc(m8, 5, 6) (u8 mask, shared dst); pairs: where on a user struct */
TILE_KERNEL_SMEM(where_k, 16, 2 * TILE_SMEM_BYTES(double, WN), const double *a, const float *b, const int32_t *m,
                 const uint8_t *m8, double *out, const w_pair *pa, const w_pair *pb, w_pair *po) {
    tile_reg(double, ra, WN);
    tile_shared(float, sb, WN);
    tile_reg(int32_t, rm, WN);
    tile_shared(uint8_t, sm, WN);
    tile_load(ra, tile_array1(a, WN), 0);
    tile_load(sb, tile_array1(b, WN), 0);
    tile_load(rm, tile_array1(m, WN), 0);
    tile_load(sm, tile_array1(m8, WN), 0);
    tile_reg(double, c, WN);
    tile_shared(double, sc, WN);
    tile_map3(c, w_lin3, ra, sb, rm);
    tile_store(tile_array1(out + 0 * WN, WN), c, 0);
    tile_reg(float, f, WN);
    tile_map4(f, w_sum4, sb, ra, sb, rm); /* arguments convert as in C */
    tile_astype(c, f);
    tile_store(tile_array1(out + 1 * WN, WN), c, 0);
    tile_reg(double, db, WN);
    tile_astype(db, sb);
    tile_where(sc, rm, ra, db);
    tile_store(tile_array1(out + 2 * WN, WN), sc, 0);
    tile_where_c(c, sm, ra, -1.0);
    tile_store(tile_array1(out + 3 * WN, WN), c, 0);
    tile_where_cc(sc, sm, 5, 6);
    tile_store(tile_array1(out + 4 * WN, WN), sc, 0);
    tile_reg(w_pair, xa, WN);
    tile_reg(w_pair, xb, WN);
    tile_load(xa, tile_array1(pa, WN), 0);
    tile_load(xb, tile_array1(pb, WN), 0);
    tile_where(xa, rm, xa, xb); /* in place */
    tile_store(tile_array1(po, WN), xa, 0);
}
static void test_map_where(void **state) {
    (void)state;
    double a[WN], out[5 * WN];
    float b[WN];
    int32_t m[WN];
    uint8_t m8[WN];
    w_pair pa[WN], pb[WN], po[WN];
    for (int i = 0; i < WN; ++i) {
        a[i] = tu_val(i, 1, 1);
        b[i] = (float)tu_val(i, 2, 1);
        m[i] = (int32_t)tu_val(i, 3, 0) % 3; /* -2..2: nonzero is true */
        m8[i] = (uint8_t)(i % 3 == 0 ? 0 : i);
        pa[i].id = i; pa[i].v = (float)i;
        pb[i].id = -i; pb[i].v = -1.0f;
    }
    assert_tile_ok(tile_launch(TILE_CPU, where_k, tile_grid1(1), 16, a, b, m, m8, out, pa, pb, po));
    for (int i = 0; i < WN; ++i) {
        assert_close(out[0 * WN + i], a[i] * (double)b[i] - m[i], TU_TOL_F64);
        assert_close(out[1 * WN + i], (double)b[i] - (double)(float)a[i] * b[i] + (double)(float)m[i], TU_TOL_F32);
        assert_true(out[2 * WN + i] == (m[i] ? a[i] : (double)b[i]));
        assert_true(out[3 * WN + i] == (m8[i] ? a[i] : -1.0));
        assert_true(out[4 * WN + i] == (m8[i] ? 5.0 : 6.0));
        assert_int_equal(po[i].id, m[i] ? i : -i);
    }
}

/* atomic adds of compound element types (per component) */
TILE_KERNEL(atomic_k, 8, tile_c32 *c, tile_vec3i *v, tile_quatd *q) {
    tile_atomic_add_ptr(c, tile_c32_set(1.5f, -2.0f));
    tile_atomic_add_ptr(v, tile_vec3i_set(1, 2, 3));
    tile_atomic_add_ptr(q, tile_quatd_set(0.5, 0, 0, 1));
}
static void test_atomic_compound(void **state) {
    (void)state;
    tile_c32 c = tile_c32_set(0, 0);
    tile_vec3i v = tile_vec3i_set(10, 0, 0);
    tile_quatd q = tile_quatd_identity();
    assert_tile_ok(tile_launch(TILE_CPU, atomic_k, tile_grid1(3), 8, &c, &v, &q));
    assert_true(c.re == 4.5f && c.im == -6.0f);
    assert_true(v.v[0] == 13 && v.v[1] == 6 && v.v[2] == 9);
    assert_true(q.x == 1.5 && q.w == 4.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_decode_exhaustive), cmocka_unit_test(test_narrowing),
        cmocka_unit_test(test_half_arith),            cmocka_unit_test(test_tiles_f16),
        cmocka_unit_test(test_tiles_bf16),            cmocka_unit_test(test_astype_all_pairs),
        cmocka_unit_test(test_complex_c32),           cmocka_unit_test(test_complex_c64),
        cmocka_unit_test(test_int8),                  cmocka_unit_test(test_vec2i),
        cmocka_unit_test(test_vec3i),                 cmocka_unit_test(test_vec4i),
        cmocka_unit_test(test_quatf),                 cmocka_unit_test(test_quatd),
        cmocka_unit_test(test_map_where),             cmocka_unit_test(test_atomic_compound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
