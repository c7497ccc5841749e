/* tile/half.h - 16-bit floating-point storage types: tile_f16 (IEEE binary16)
 * and tile_bf16 (bfloat16), for C11 and nvcc alike.
 *
 * Plain C has no 16-bit float type, so both are 16-bit structs holding the
 * bits; arithmetic happens in f32 (convert, compute, convert back). The
 * conversions are plain integer code, so the CPU and the GPU give the same
 * bits for every input: round to nearest, ties to even; NaN stays NaN (quiet,
 * sign and the top payload bits kept); infinities and subnormals exact.
 *
 *   tile_bf16 h = tile_f32_to_bf16(1.00390625f);   // a tie: h.bits == 0x3f80 (1.0, even)
 *   float f = tile_bf16_to_f32(h);                 // 1.0f
 *   tile_f16 g = tile_f32_to_f16(65520.0f);        // g.bits == 0x7c00 (+inf)
 *   tile_f16_to_f32(tile_f16_from_bits(0x0001))    // 2^-24 (smallest subnormal)
 *
 * Tiles of these types are first-class element types (tile/types.h,
 * docs/types.md): load, store, fill, tile_astype both ways with every real
 * type, tile_add/sub/mul/div/neg and tile_map computed in f32 and rounded
 * once (round to nearest even), the same bits on the CPU and the GPU:
 *   tile_astype(f, h);                  // f32 tile from a bf16 tile (exact)
 *   tile_astype(h, d);                  // bf16 tile from an f64 tile (one rounding)
 * Conversions from f64 and from integers round once, directly (no double
 * rounding through f32):
 *   tile_f64_to_f16(1.0 + 0x1p-11 + 0x1p-40)  // 0x3c01 (f32 first would give the tie 0x3c00)
 * Under nvcc, tile_f16_as_half / tile_bf16_as_nv etc. hand the same bits to
 * CUDA's __half / __nv_bfloat16 intrinsics. tile_matmul takes f16 and bf16
 * operand tiles (tensor cores on sm_80+, f32 accumulation).
 */
#ifndef TILE_HALF_H
#define TILE_HALF_H

#include "config.h"
#include <string.h>
#if TILE_CUDA
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif

typedef struct { uint16_t bits; } tile_f16;
typedef struct { uint16_t bits; } tile_bf16;

TILE_API tile_f16 tile_f16_from_bits(uint16_t b) { tile_f16 h; h.bits = b; return h; }
TILE_API tile_bf16 tile_bf16_from_bits(uint16_t b) { tile_bf16 h; h.bits = b; return h; }

TILE_API uint32_t tile__f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
TILE_API float tile__bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* bfloat16 is the top half of an f32: widening is exact. */
TILE_API float tile_bf16_to_f32(tile_bf16 h) { return tile__bits_f32((uint32_t)h.bits << 16); }
/* f32 -> bf16, ties to even (adding 0x7fff plus the kept lsb rounds the
 * dropped half; a carry into the exponent is the correct next binade, up to
 * inf). NaN: quiet bit set so that a payload in the dropped bits stays NaN. */
TILE_API tile_bf16 tile_f32_to_bf16(float f) {
    uint32_t u = tile__f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return tile_bf16_from_bits((uint16_t)((u >> 16) | 0x0040u));
    u += 0x7fffu + ((u >> 16) & 1u);
    return tile_bf16_from_bits((uint16_t)(u >> 16));
}

/* binary16 -> f32, exact (subnormals normalized, NaN payload kept). */
TILE_API float tile_f16_to_f32(tile_f16 h) {
    const uint32_t sign = (uint32_t)(h.bits & 0x8000u) << 16;
    uint32_t e = (h.bits >> 10) & 0x1fu, m = h.bits & 0x3ffu;
    if (e == 0x1f) return tile__bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
        if (m == 0) return tile__bits_f32(sign);
        e = 113; /* 2^-14 in f32's bias, lowered once per normalizing shift */
        while (!(m & 0x400u)) {
            m <<= 1;
            --e;
        }
        return tile__bits_f32(sign | (e << 23) | ((m & 0x3ffu) << 13));
    }
    return tile__bits_f32(sign | ((e + 112u) << 23) | (m << 13));
}
/* f32 -> binary16, ties to even; >= 65520 (half an ulp past the largest,
 * 65504) is inf; below 2^-14 the result is subnormal (rounded once). */
TILE_API tile_f16 tile_f32_to_f16(float f) {
    const uint32_t u = tile__f32_bits(f), a = u & 0x7fffffffu;
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    if (a > 0x7f800000u) return tile_f16_from_bits((uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu)));
    if (a >= 0x477ff000u) return tile_f16_from_bits((uint16_t)(sign | 0x7c00u));
    if (a < 0x38800000u) { /* subnormal result: r = round(|f| * 2^24) */
        const uint32_t e = a >> 23;
        if (e < 102) return tile_f16_from_bits(sign); /* < 2^-25: 0 (2^-25 itself ties to 0) */
        const uint32_t m = (a & 0x7fffffu) | 0x800000u, s = 126 - e; /* s in 14..24 */
        uint32_t r = m >> s;
        const uint32_t rem = m & ((1u << s) - 1u), half = 1u << (s - 1);
        if (rem > half || (rem == half && (r & 1u))) ++r;
        return tile_f16_from_bits((uint16_t)(sign | r));
    }
    uint32_t r = (a - 0x38000000u) >> 13; /* exponent rebiased 127 -> 15 */
    const uint32_t rem = a & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r; /* a carry is the next binade */
    return tile_f16_from_bits((uint16_t)(sign | r));
}

/* ---- one rounding from f64 and from integers ----
 * tile__round16(sign, m, e2, P, EMIN): the 16-bit float nearest to
 * m * 2^e2 (ties to even), P mantissa bits, EMIN the smallest normal
 * exponent (f16 10, -14; bf16 7, -126; EMAX = 1 - EMIN for both). The
 * significand is rounded at the quantum of the result's binade (EMIN's for
 * subnormals), so subnormal results round once too; a carry out of the
 * significand lands in the next binade by adding the bits, up to inf. */
TILE_API int tile__clz64(uint64_t x) {
#if TILE_ON_DEVICE
    return __clzll((long long)x);
#else
    return __builtin_clzll(x);
#endif
}
TILE_API uint16_t tile__round16(uint16_t sign, uint64_t m, int e2, int P, int EMIN) {
    if (m == 0) return sign;
    const int n = 63 - tile__clz64(m), E = n + e2, Et = E < EMIN ? EMIN : E, q = Et - P;
    const uint32_t inf = (uint32_t)(2 - 2 * EMIN + 1) << P; /* exponent field all ones */
    if (E > 1 - EMIN) return (uint16_t)(sign | inf);
    uint64_t r;
    if (e2 >= q) {
        r = m << (e2 - q); /* exact: fewer than P + 1 significant bits */
    } else {
        const int s = q - e2;
        if (s >= 64) {
            r = 0; /* below half the smallest subnormal: m < 2^53 <= 2^(s-1) */
        } else {
            r = m >> s;
            const uint64_t rem = m & ((((uint64_t)1) << s) - 1u), half = ((uint64_t)1) << (s - 1);
            if (rem > half || (rem == half && (r & 1u))) ++r;
        }
    }
    const uint32_t bits = ((uint32_t)(Et - EMIN) << P) + (uint32_t)r;
    return (uint16_t)(sign | (bits >= inf ? inf : bits));
}
TILE_API uint64_t tile__f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
/* f64 -> 16 bits: NaN quiet with the top payload bits (as from f32) */
TILE_API uint16_t tile__f64_to16(double d, int P, int EMIN) {
    const uint64_t u = tile__f64_bits(d);
    const uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
    const uint32_t e = (uint32_t)(u >> 52) & 0x7ffu;
    const uint64_t mant = u & 0xfffffffffffffull;
    const uint32_t inf = (uint32_t)(2 - 2 * EMIN + 1) << P;
    if (e == 0x7ffu) {
        if (mant == 0) return (uint16_t)(sign | inf);
        return (uint16_t)(sign | inf | (1u << (P - 1)) | (uint32_t)(mant >> (52 - P)));
    }
    if (e == 0) return sign; /* f64 subnormals are far below every 16-bit subnormal */
    return tile__round16(sign, mant | (((uint64_t)1) << 52), (int)e - 1075, P, EMIN);
}
/* f64 -> binary16 / bfloat16, ties to even, rounded once.
 *   tile_f64_to_f16(65519.99)  -> 0x7bff (65504)     tile_f64_to_f16(65520.0) -> 0x7c00 (inf)
 *   tile_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-30) -> 0x3f81 (above the tie) */
TILE_API tile_f16 tile_f64_to_f16(double d) { return tile_f16_from_bits(tile__f64_to16(d, 10, -14)); }
TILE_API tile_bf16 tile_f64_to_bf16(double d) { return tile_bf16_from_bits(tile__f64_to16(d, 7, -126)); }
/* integers -> binary16 / bfloat16, rounded once (|x| >= 65520 is inf in f16)
 *   tile_i64_to_bf16(257) -> 0x4380 (256: the tie goes to even), tile_u64_to_f16(70000) -> inf */
TILE_API tile_f16 tile_i64_to_f16(int64_t x) {
    return tile_f16_from_bits(tile__round16(x < 0 ? 0x8000u : 0, x < 0 ? 0 - (uint64_t)x : (uint64_t)x, 0, 10, -14));
}
TILE_API tile_bf16 tile_i64_to_bf16(int64_t x) {
    return tile_bf16_from_bits(tile__round16(x < 0 ? 0x8000u : 0, x < 0 ? 0 - (uint64_t)x : (uint64_t)x, 0, 7, -126));
}
TILE_API tile_f16 tile_u64_to_f16(uint64_t x) { return tile_f16_from_bits(tile__round16(0, x, 0, 10, -14)); }
TILE_API tile_bf16 tile_u64_to_bf16(uint64_t x) { return tile_bf16_from_bits(tile__round16(0, x, 0, 7, -126)); }
/* 16 bits -> f64, exact: tile_f16_to_f64(tile_f16_from_bits(0x3c01)) = 1.0009765625 */
TILE_API double tile_f16_to_f64(tile_f16 h) { return (double)tile_f16_to_f32(h); }
TILE_API double tile_bf16_to_f64(tile_bf16 h) { return (double)tile_bf16_to_f32(h); }

/* ---- arithmetic: in f32, rounded once ----
 * One f32 operation on two 16-bit values then one rounding gives the
 * correctly rounded 16-bit result for + - * / (f32 has 24 >= 2 * 11 + 2
 * significand bits), so these are IEEE's binary16 / bfloat16 operations.
 * A NaN result is a quiet NaN whose payload may differ by target (the GPU's
 * f32 units return the canonical NaN, x86 keeps an operand's); every other
 * result has the same bits on both.
 * neg flips the sign bit (NaNs included, as IEEE negate). The _s forms take
 * an f32 scalar (the result is rounded once from the f32 operation).
 *   a = 1.5, b = 0.1 (f16 0x2e66 = 0.0999755859375):
 *   tile_f16_add(a, b) -> 0x3e66 (1.599609375), tile_f16_mul_s(a, 3.0f) -> 4.5 */
#define TILE__DEF_HALF_OPS(sfx)                                                   \
    TILE_API tile_##sfx tile_##sfx##_add(tile_##sfx a, tile_##sfx b) {            \
        return tile_f32_to_##sfx(tile_##sfx##_to_f32(a) + tile_##sfx##_to_f32(b)); \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_sub(tile_##sfx a, tile_##sfx b) {            \
        return tile_f32_to_##sfx(tile_##sfx##_to_f32(a) - tile_##sfx##_to_f32(b)); \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_mul(tile_##sfx a, tile_##sfx b) {            \
        return tile_f32_to_##sfx(tile_##sfx##_to_f32(a) * tile_##sfx##_to_f32(b)); \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_div(tile_##sfx a, tile_##sfx b) {            \
        return tile_f32_to_##sfx(tile_##sfx##_to_f32(a) / tile_##sfx##_to_f32(b)); \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_neg(tile_##sfx a) { return tile_##sfx##_from_bits((uint16_t)(a.bits ^ 0x8000u)); } \
    TILE_API tile_##sfx tile_##sfx##_mul_s(tile_##sfx a, float s) { return tile_f32_to_##sfx(tile_##sfx##_to_f32(a) * s); } \
    TILE_API tile_##sfx tile_##sfx##_s_mul(float s, tile_##sfx a) { return tile_f32_to_##sfx(s * tile_##sfx##_to_f32(a)); } \
    TILE_API tile_##sfx tile_##sfx##_div_s(tile_##sfx a, float s) { return tile_f32_to_##sfx(tile_##sfx##_to_f32(a) / s); } \
    TILE_API tile_##sfx tile_##sfx##_s_div(float s, tile_##sfx a) { return tile_f32_to_##sfx(s / tile_##sfx##_to_f32(a)); } \
    TILE_API tile_##sfx tile_##sfx##_full(float s) { return tile_f32_to_##sfx(s); }
TILE__DEF_HALF_OPS(f16)
TILE__DEF_HALF_OPS(bf16)

/* f32 -> tf32 (what the tensor cores read of an f32 with tile_matmul_tf32):
 * 10 mantissa bits, round to nearest, ties away from zero (cvt.rna.tf32.f32);
 * the result is an f32 whose low 13 bits are 0. NaN and inf pass. */
TILE_API float tile_f32_round_tf32(float f) {
    uint32_t u = tile__f32_bits(f);
    if ((u & 0x7f800000u) == 0x7f800000u) return f;
    u = (u + 0x1000u) & 0xffffe000u;
    return tile__bits_f32(u);
}

#if TILE_CUDA
/* The same bits as CUDA's types, for their intrinsics. */
TILE_API __half tile_f16_as_half(tile_f16 h) { __half_raw r; r.x = h.bits; return __half(r); }
TILE_API tile_f16 tile_half_as_f16(__half x) { return tile_f16_from_bits(__half_raw(x).x); }
TILE_API __nv_bfloat16 tile_bf16_as_nv(tile_bf16 h) { __nv_bfloat16_raw r; r.x = h.bits; return __nv_bfloat16(r); }
TILE_API tile_bf16 tile_nv_as_bf16(__nv_bfloat16 x) { return tile_bf16_from_bits(__nv_bfloat16_raw(x).x); }
#endif

#endif /* TILE_HALF_H */
