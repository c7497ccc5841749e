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
 * Tiles of these types load, store, copy and fill (tile_zeros) like any
 * struct element; convert whole tiles with tile_map:
 *   tile_map(f, tile_bf16_to_f32, h);   // f32 tile from a bf16 tile
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
