/* tile/complex.h - complex element types c32 and c64 and their arithmetic.
 *
 * Interleaved {re, im} structs, the layout of cuFFT's cufftComplex /
 * cufftDoubleComplex and of C99's float complex, so arrays of them can be
 * passed to cuFFT or loaded into tiles as they are:
 *   tile_c32 (8 bytes, two floats), tile_c64 (16 bytes, two doubles).
 * Functions by suffix, as for the other element types (tile/types.h):
 *   tile_c32_set(re, im)    tile_c32_add(a, b)   tile_c32_sub(a, b)
 *   tile_c32_neg(a)         tile_c32_mul(a, b)   tile_c32_conj(a)
 *   tile_c32_scale(a, s)    a * s, s real        tile_c32_abs2(a)  |a|^2
 *   tile_c32_expi(x)        exp(i * pi * x) (accurate: sincospi)
 *   tile_c32_div(a, b)      a / b (scaled: no overflow for |b| near the range's ends)
 *   tile_c32_s_div(s, a)    s / a, s real         tile_c32_div_s(a, s)  a / s
 *   tile_c32_mul_s(a, s), tile_c32_s_mul(s, a)    a * s (as scale)
 *   tile_c32_full(s)        s + 0i                tile_c32_to_c64(a), tile_c64_to_c32(a)
 * Suppose a = 1+2i, b = 3-1i:
 *   tile_c32_mul(a, b) = 5+5i, tile_c32_conj(a) = 1-2i, tile_c32_div(a, b) = 0.1+0.7i,
 *   tile_c32_scale(a, 0.5f) = 0.5+1i, tile_c32_abs2(a) = 5
 * In tiles (tile_reg(tile_c32, t, 4, 64)) they are first-class element types
 * (tile/types.h): tile_add/sub/mul/div/neg, tile_mul_c with a real or complex
 * constant, tile_ones (1+0i), tile_astype from any real type (imaginary part
 * 0) and between c32 and c64; tile_map(c, tile_c32_conj, a) conjugates a tile.
 * Products and quotients follow the formulas above; the device compiler may
 * fuse a*b - c*d into an fma, so GPU and CPU results agree to rounding, not
 * bit for bit (sums, differences, negation and scaling are bit for bit).
 */
#ifndef TILE_COMPLEX_H
#define TILE_COMPLEX_H

#include <math.h>
#include "config.h" /* tile/types.h includes this header and dispatches on its types */

typedef struct { float re, im; } tile_c32;
typedef struct { double re, im; } tile_c64;

/* sin(pi x) and cos(pi x): exact at multiples of 1/2 and accurate to about
 * one unit in the last place (the device's sincospi; on the host in double
 * after reducing x to [-1/4, 1/4], so the result is exact at 0 and 1/2). */
TILE_API void tile__sincospi_f64(double x, double *s, double *c) {
#if TILE_ON_DEVICE
    sincospi(x, s, c);
#else
    /* x = q/2 + r, |r| <= 1/4: rotate by q quarter turns */
    double q = floor(2.0 * x + 0.5), r = x - 0.5 * q;
    double sr = sin(3.14159265358979323846 * r), cr = cos(3.14159265358979323846 * r);
    long iq = (long)fmod(q, 4.0);
    if (iq < 0) iq += 4;
    switch (iq) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
    }
#endif
}
TILE_API void tile__sincospi_f32(float x, float *s, float *c) {
#if TILE_ON_DEVICE
    sincospif(x, s, c);
#else
    double sd, cd;
    tile__sincospi_f64((double)x, &sd, &cd);
    *s = (float)sd;
    *c = (float)cd;
#endif
}

#define TILE__DEF_COMPLEX(sfx, T, S)                                              \
    TILE_API T tile_##sfx##_set(S re, S im) { T r; r.re = re; r.im = im; return r; } \
    TILE_API T tile_##sfx##_add(T a, T b) { return tile_##sfx##_set(a.re + b.re, a.im + b.im); } \
    TILE_API T tile_##sfx##_sub(T a, T b) { return tile_##sfx##_set(a.re - b.re, a.im - b.im); } \
    TILE_API T tile_##sfx##_neg(T a) { return tile_##sfx##_set(-a.re, -a.im); }  \
    TILE_API T tile_##sfx##_conj(T a) { return tile_##sfx##_set(a.re, -a.im); }  \
    TILE_API T tile_##sfx##_mul(T a, T b) {                                       \
        return tile_##sfx##_set(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); \
    }                                                                             \
    TILE_API T tile_##sfx##_scale(T a, S s) { return tile_##sfx##_set(a.re * s, a.im * s); } \
    TILE_API T tile_##sfx##_mul_s(T a, S s) { return tile_##sfx##_scale(a, s); }  \
    TILE_API T tile_##sfx##_s_mul(S s, T a) { return tile_##sfx##_scale(a, s); }  \
    TILE_API T tile_##sfx##_div_s(T a, S s) { return tile_##sfx##_set(a.re / s, a.im / s); } \
    TILE_API T tile_##sfx##_full(S s) { return tile_##sfx##_set(s, (S)0); }       \
    TILE_API S tile_##sfx##_abs2(T a) { return a.re * a.re + a.im * a.im; }       \
    /* a / b by Smith's method: scales by the larger part of b, so |b|^2 is \
     * never formed (no overflow or underflow for huge or tiny b) */          \
    TILE_API T tile_##sfx##_div(T a, T b) {                                       \
        if ((b.re < 0 ? -b.re : b.re) >= (b.im < 0 ? -b.im : b.im)) {             \
            const S r = b.im / b.re, d = b.re + b.im * r;                         \
            return tile_##sfx##_set((a.re + a.im * r) / d, (a.im - a.re * r) / d); \
        } else {                                                                  \
            const S r = b.re / b.im, d = b.re * r + b.im;                         \
            return tile_##sfx##_set((a.re * r + a.im) / d, (a.im * r - a.re) / d); \
        }                                                                         \
    }                                                                             \
    TILE_API T tile_##sfx##_s_div(S s, T a) { return tile_##sfx##_div(tile_##sfx##_set(s, (S)0), a); } \
    TILE_API T tile_##sfx##_expi(S x) {                                           \
        T r;                                                                      \
        tile__sincospi_##sfx##_(x, &r.im, &r.re);                                 \
        return r;                                                                 \
    }
#define tile__sincospi_c32_ tile__sincospi_f32
#define tile__sincospi_c64_ tile__sincospi_f64
TILE__DEF_COMPLEX(c32, tile_c32, float)
TILE__DEF_COMPLEX(c64, tile_c64, double)
TILE_API tile_c64 tile_c32_to_c64(tile_c32 a) { return tile_c64_set((double)a.re, (double)a.im); }
TILE_API tile_c32 tile_c64_to_c32(tile_c64 a) { return tile_c32_set((float)a.re, (float)a.im); }

#endif /* TILE_COMPLEX_H */
