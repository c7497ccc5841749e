/* tile/matmul.h - matrix products of tiles (Warp's tile_matmul).
 *
 *   tile_matmul(out, a, b)                  out = a @ b + out
 *   tile_matmul_ab(out, a, b, alpha, beta)  out = alpha * a @ b + beta * out
 *                                           (beta == 0: out is not read)
 *   tile_matmul_new(c, a, b)                declares register tile c = a @ b
 *   tile_matmul_tf32(out, a, b), tile_matmul_tf32_ab(...)  f32 inputs read as
 *                                           tf32 by the tensor cores (opt-in:
 *                                           10-bit mantissas change results)
 *
 * a is M x K, b is K x N, out is M x N (2D tiles; any extents, not only
 * multiples of 16); a shape mismatch does not compile. Each operand may be a
 * register or a shared tile (views too); out must not alias a or b.
 * Accumulation is in out's element type, f32 or f64; a and b are f32, f64,
 * tile_f16 or tile_bf16 (both the same type; 16-bit inputs accumulate in f32).
 * Cooperative: every thread of the block calls it.
 *
 * Suppose a = [[1 2] [3 4]], b = [[5 6] [7 8]] (f32) and out = [[1 1] [1 1]]:
 *   tile_matmul(out, a, b)                  out = [[20 23] [44 51]]
 *   tile_matmul_ab(out, a, b, 2.0f, 0.0f)   out = [[38 44] [86 100]]
 *   tile_matmul_new(c, a, b)                c   = [[19 22] [43 50]]
 *
 * How it runs:
 *  - GPU, FMA (f32, f64; 16-bit inputs below sm_80): every thread computes a
 *    TM x TN micro-tile of out (up to 8 x 8 accumulators in registers, all
 *    indices compile-time constants) reading a and b from shared memory; its
 *    columns are NT apart so a warp reads consecutive b words (no bank
 *    conflicts) and shares its a rows (broadcasts), read 16 bytes along k at a
 *    time when a's rows allow it (contiguous, 16-byte aligned, K a multiple).
 *  - GPU, tensor cores (sm_80+, blocks of whole warps): f16/bf16 inputs with
 *    mma.sync m16n8k16 (f32 accumulators), tf32 with m16n8k8 when asked for.
 *    16-bit: each warp takes register-blocked tiles of out (up to 64 x 32,
 *    fragments from ldmatrix when the tiles lie inside and rows are 16-byte
 *    aligned); tf32 16 x 8 tiles; edges past M, N, K read as zero (internal
 *    padding), so any shape works. f64 (a, b and out) takes
 *    DMMA, mma.sync m8n8k4, in 8 x 8 tiles, on the same terms.
 *  - Register operands are staged (as Warp migrates them) into the block's
 *    arena: budget TILE_MATMUL_SMEM_BYTES in TILE_KERNEL_SMEM when a, b or out
 *    is a register tile. Shared operands need nothing.
 *  - CPU (block_dim 1): plain loops, the same products and rounding of the
 *    inputs (f16/bf16 widened, tf32 rounded), no arena needed (the one thread
 *    holds a register tile as a row-major array).
 * GPU and CPU results differ in the last bits (fused multiply-adds, tensor
 * core summation order).
 */
#ifndef TILE_MATMUL_H
#define TILE_MATMUL_H

#include "core.h"
#include "half.h"

/* Arena bytes tile_matmul may stage on the GPU when every operand is a
 * register tile (a M x K and b K x N of element TIN, out M x N of TOUT;
 * 16-bit inputs are staged with 8 elements of padding per row); shared
 * operands need none of their share.
 *   TILE_MATMUL_SMEM_BYTES(float, float, 64, 64, 64) == 49152 */
#define TILE_MATMUL_SMEM_BYTES(TIN, TOUT, M, N, K)                                 \
    (TILE_SMEM_BYTES(TIN, M, (K) + TILE__MM_PAD((int)sizeof(TIN))) +                   \
     TILE_SMEM_BYTES(TIN, K, (N) + TILE__MM_PAD((int)sizeof(TIN))) + TILE_SMEM_BYTES(TOUT, M, N))

/* ---- input element -> accumulation scalar ---- */
TILE_API float tile__mm_idf(float x) { return x; }
TILE_API double tile__mm_idd(double x) { return x; }
#if defined(__cplusplus)
TILE_API float tile__mm_cvt(float x) { return x; }
TILE_API double tile__mm_cvt(double x) { return x; }
TILE_API float tile__mm_cvt(tile_f16 x) { return tile_f16_to_f32(x); }
TILE_API float tile__mm_cvt(tile_bf16 x) { return tile_bf16_to_f32(x); }
#define TILE__MM_CVT(x) tile__mm_cvt(x)
template <class T> struct tile__mm_is_bf16 { enum { v = 0 }; };
template <> struct tile__mm_is_bf16<tile_bf16> { enum { v = 1 }; };
#define TILE__MM_ISBF16(t) ((int)tile__mm_is_bf16<TILE__UNQUAL_TYPEOF((t).v[0])>::v)
#else
#define TILE__MM_CVT(x)                                                            \
    _Generic((x), float: tile__mm_idf, double: tile__mm_idd, tile_f16: tile_f16_to_f32, \
             tile_bf16: tile_bf16_to_f32)(x)
#define TILE__MM_ISBF16(t) _Generic((t).v[0], tile_bf16: 1, default: 0)
#endif
/* tf32 opt-in: the inputs rounded as the tensor cores read them */
#define TILE__MM_NOROUND(x) (x)
#define TILE__MM_TF32(x) tile_f32_round_tf32(x)

/* ---- tensor cores: the one place that knows mma fragment layouts ----
 * Lane l of a warp: g = l / 4 (group), q = l % 4 (thread in group).
 * m16n8k16 (f16/bf16), A 16x16 row-major, 4 registers of 2 elements (low
 * half = lower column): {A[g][2q..], A[g+8][2q..], A[g][2q+8..], A[g+8][2q+8..]};
 * B 16x8, 2 registers: {B[2q..2q+1][g], B[2q+8..2q+9][g]};
 * C/D 16x8 f32: {C[g][2q], C[g][2q+1], C[g+8][2q], C[g+8][2q+1]}.
 * m16n8k8 (tf32): A {A[g][q], A[g+8][q], A[g][q+4], A[g+8][q+4]},
 * B {B[q][g], B[q+4][g]}, C as above.
 * Elements past M, N or K read as 0 (padding); stores past them are dropped.
 * The extents are constants after inlining, so for multiples of 16 the
 * bounds tests fold away. */
TILE_API uint32_t tile__mm_h(const uint16_t *p, int i, int j, int s0, int s1, int ni, int nj) {
    return (i < ni && j < nj) ? (uint32_t)p[i * s0 + j * s1] : 0u;
}
TILE_API uint32_t tile__mm_h2(const uint16_t *p, int i, int j, int s0, int s1, int ni, int nj, int di, int dj) {
    return tile__mm_h(p, i, j, s0, s1, ni, nj) | tile__mm_h(p, i + di, j + dj, s0, s1, ni, nj) << 16;
}
TILE_API uint32_t tile__mm_t(const float *p, int i, int j, int s0, int s1, int ni, int nj) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    uint32_t r;
    const float x = (i < ni && j < nj) ? p[i * s0 + j * s1] : 0.0f;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
#else
    (void)p, (void)i, (void)j, (void)s0, (void)s1, (void)ni, (void)nj;
    return 0;
#endif
}
/* the 16-bit body of tile__mm_tc for one warp-tile shape RM x RN (literal
 * constants: every fragment index below is a compile-time constant). Same
 * fragment loads and stores as one 16 x 8 tile, at m0 + 16 i, n0 + 8 j. */
#define TILE__MM_A2(i, j)                                                          \
    (a32 ? (((i) < M && (j) < K) ? *(const uint32_t *)(pa + (i) * sa0 + (j)) : 0u) \
         : tile__mm_h2(pa, i, j, sa0, sa1, M, K, 0, 1))
#define TILE__MM_MMA16(d, a, b)                                                    \
    if (kind == 1)                                                                 \
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, " \
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                      \
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])              \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])); \
    else                                                                           \
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, " \
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                      \
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])              \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define TILE__MM_TC_ST(r, c, x)                                                    \
    if ((r) < M && (c) < N) {                                                      \
        float *tile__o = po + (r) * so0 + (c) * so1;                               \
        *tile__o = alpha * (x) + ((accum && beta != 0.0f) ? beta * *tile__o : 0.0f); \
    }
/* both of a column pair (c even, N even: c < N covers c + 1) */
#define TILE__MM_TC_ST2(r, c, d0_, d1_)                                            \
    if ((r) < M && (c) < N) {                                                      \
        float2 *tile__o = (float2 *)(void *)(po + (r) * so0 + (c));                \
        float2 tile__v = make_float2(alpha * (d0_), alpha * (d1_));                \
        if (accum && beta != 0.0f) {                                               \
            const float2 tile__w = *tile__o;                                       \
            tile__v.x += beta * tile__w.x, tile__v.y += beta * tile__w.y;          \
        }                                                                          \
        *tile__o = tile__v;                                                        \
    }
#define TILE__MM_TC16(RM, RN)                                                      \
    do {                                                                           \
        const int tile__ntw = (N + 8 * (RN)-1) / (8 * (RN));                       \
        const int tile__nw = ((M + 16 * (RM)-1) / (16 * (RM))) * tile__ntw;        \
        /* ldmatrix (x4 for A; x4.trans for B, two n8 steps) when every warp \
         * tile lies inside M, N, K (constants) and the rows are 16-byte     \
         * aligned in shared memory (uniform test): one instruction per 4     \
         * fragment registers instead of 4 (A) or 8 (B) scalar loads. Lane l  \
         * gives the address of row l % 8 of 8x8 matrix l / 8, matrices in    \
         * fragment register order: (+0 rows, +0 cols), (+8, +0), (+0, +8),   \
         * (+8, +8); for B (k rows, n cols) .trans hands lane l the pair      \
         * B[2q..2q+1][g], the mma layout above. */                          \
        const int tile__lm = (RN) % 2 == 0 && M % (16 * (RM)) == 0 && N % (8 * (RN)) == 0 && K % 16 == 0 && \
                             sa1 == 1 && sb1 == 1 && sa0 % 8 == 0 && sb0 % 8 == 0 && \
                             (((uintptr_t)pa | (uintptr_t)pb) & 15u) == 0 && __isShared(pa) && __isShared(pb); \
        const int tile__lr = (lane & 7) + ((lane >> 3) & 1) * 8, tile__lc = (lane >> 4) * 8; \
        const uint32_t tile__la = (uint32_t)__cvta_generic_to_shared(pa) + 2u * (uint32_t)(tile__lr * sa0 + tile__lc); \
        const uint32_t tile__lb = (uint32_t)__cvta_generic_to_shared(pb) + 2u * (uint32_t)(tile__lr * sb0 + tile__lc); \
        /* out's column pairs (2q, 2q + 1) as one 8-byte store when rows are \
         * contiguous, even (N, stride) and 8-byte aligned: half the store    \
         * wavefronts (none conflicting when so0 % 32 == 8) */               \
        const int tile__v2 = so1 == 1 && so0 % 2 == 0 && N % 2 == 0 && ((uintptr_t)po & 7u) == 0; \
        for (int u = w; u < tile__nw; u += nwarps) {                               \
            const int m0 = u / tile__ntw * (16 * (RM)), n0 = u % tile__ntw * (8 * (RN)); \
            float d[RM][RN][4];                                                    \
            TILE__UNROLL for (int i = 0; i < (RM); ++i)                            \
                TILE__UNROLL for (int j = 0; j < (RN); ++j)                        \
                    TILE__UNROLL for (int e = 0; e < 4; ++e) d[i][j][e] = 0.f;    \
            for (int k0 = 0; k0 < K; k0 += 16) {                                   \
                const int c = k0 + 2 * q;                                          \
                uint32_t fa[RM][4], fb[RN][2];                                     \
                if (tile__lm) {                                                    \
                    TILE__UNROLL for (int i = 0; i < (RM); ++i)                    \
                        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" \
                                     : "=r"(fa[i][0]), "=r"(fa[i][1]), "=r"(fa[i][2]), "=r"(fa[i][3]) \
                                     : "r"(tile__la + 2u * (uint32_t)((m0 + 16 * i) * sa0 + k0)) \
                                     : "memory");                                  \
                    TILE__UNROLL for (int j = 0; j < (RN) / 2; ++j)                \
                        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" \
                                     : "=r"(fb[2 * j][0]), "=r"(fb[2 * j][1]), "=r"(fb[2 * j + 1][0]), \
                                       "=r"(fb[2 * j + 1][1])                     \
                                     : "r"(tile__lb + 2u * (uint32_t)(k0 * sb0 + n0 + 16 * j)) \
                                     : "memory");                                  \
                } else {                                                           \
                TILE__UNROLL for (int i = 0; i < (RM); ++i) {                      \
                    const int r = m0 + 16 * i + g;                                 \
                    fa[i][0] = TILE__MM_A2(r, c);                                  \
                    fa[i][1] = TILE__MM_A2(r + 8, c);                              \
                    fa[i][2] = TILE__MM_A2(r, c + 8);                              \
                    fa[i][3] = TILE__MM_A2(r + 8, c + 8);                          \
                }                                                                  \
                TILE__UNROLL for (int j = 0; j < (RN); ++j) {                      \
                    const int n = n0 + 8 * j + g;                                  \
                    fb[j][0] = tile__mm_h2(pb, c, n, sb0, sb1, K, N, 1, 0);        \
                    fb[j][1] = tile__mm_h2(pb, c + 8, n, sb0, sb1, K, N, 1, 0);    \
                }                                                                  \
                }                                                                  \
                TILE__UNROLL for (int i = 0; i < (RM); ++i)                        \
                    TILE__UNROLL for (int j = 0; j < (RN); ++j) { TILE__MM_MMA16(d[i][j], fa[i], fb[j]); } \
            }                                                                      \
            TILE__UNROLL for (int i = 0; i < (RM); ++i)                            \
                TILE__UNROLL for (int j = 0; j < (RN); ++j) {                      \
                    const int r0 = m0 + 16 * i + g, r1 = r0 + 8, c0 = n0 + 8 * j + 2 * q, c1 = c0 + 1; \
                    if (tile__v2) {                                                \
                        TILE__MM_TC_ST2(r0, c0, d[i][j][0], d[i][j][1])            \
                        TILE__MM_TC_ST2(r1, c0, d[i][j][2], d[i][j][3])            \
                        continue;                                                  \
                    }                                                              \
                    TILE__MM_TC_ST(r0, c0, d[i][j][0])                             \
                    TILE__MM_TC_ST(r0, c1, d[i][j][1])                             \
                    TILE__MM_TC_ST(r1, c0, d[i][j][2])                             \
                    TILE__MM_TC_ST(r1, c1, d[i][j][3])                             \
                }                                                                  \
        }                                                                          \
    } while (0)
/* one warp's share of out (po, f32 or the staging buffer) = alpha * a @ b
 * (+ beta * out when accum and beta != 0); kind 0 f16, 1 bf16, 2 tf32 */
TILE_API void tile__mm_tc(const void *pav, int sa0, int sa1, const void *pbv, int sb0, int sb1, float *po, int so0,
                          int so1, int M, int N, int K, int nwarps, float alpha, float beta, int accum, int kind) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    const int lane = (int)(threadIdx.x & 31u), w = (int)(threadIdx.x >> 5), g = lane >> 2, q = lane & 3;
    const int mt = (M + 15) / 16, nt = (N + 7) / 8;
    if (kind != 2) {
        /* 16-bit inputs: each warp takes (16 RM) x (8 RN) tiles of out, the
         * largest shape that fits (below); its RM A fragments
         * are reused across the RN n8 steps and its RN B fragments across the
         * RM m16 steps (RM * RN mma per 4 RM + 2 RN fragment words, instead
         * of one per 6), and the RM * RN independent mma hide their latency.
         * The shape is a constant after inlining: one branch remains. */
        const uint16_t *pa = (const uint16_t *)pav, *pb = (const uint16_t *)pbv;
        /* a's column pairs are one aligned 32-bit word when rows are
         * contiguous, of even length and stride, and the tile starts on a
         * word (a view may not: checked at run time, uniformly) */
        const int a32 = sa1 == 1 && sa0 % 2 == 0 && K % 2 == 0 && ((uintptr_t)pa & 3u) == 0;
        /* a shape fits when it gives every warp a tile and is not larger
         * than out (rounded up to 16 x 8): no whole 16 x 8 step of zeros */
#define TILE__MM_FIT(rm, rn)                                                       \
    (((M + 16 * (rm)-1) / (16 * (rm))) * ((N + 8 * (rn)-1) / (8 * (rn))) >= nwarps && mt >= (rm) && nt >= (rn))
        if (TILE__MM_FIT(4, 4))
            TILE__MM_TC16(4, 4);
        else if (TILE__MM_FIT(2, 4))
            TILE__MM_TC16(2, 4);
        else if (TILE__MM_FIT(1, 4))
            TILE__MM_TC16(1, 4);
        else if (TILE__MM_FIT(1, 2))
            TILE__MM_TC16(1, 2);
        else
            TILE__MM_TC16(1, 1);
#undef TILE__MM_FIT
        return;
    }
    for (int u = w; u < mt * nt; u += nwarps) {
        const int m0 = u / nt * 16, n0 = u % nt * 8;
        float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
        if (kind == 2) {
            const float *pa = (const float *)pav, *pb = (const float *)pbv;
            for (int k0 = 0; k0 < K; k0 += 8) {
                const uint32_t a0 = tile__mm_t(pa, m0 + g, k0 + q, sa0, sa1, M, K),
                               a1 = tile__mm_t(pa, m0 + g + 8, k0 + q, sa0, sa1, M, K),
                               a2 = tile__mm_t(pa, m0 + g, k0 + q + 4, sa0, sa1, M, K),
                               a3 = tile__mm_t(pa, m0 + g + 8, k0 + q + 4, sa0, sa1, M, K);
                const uint32_t b0 = tile__mm_t(pb, k0 + q, n0 + g, sb0, sb1, K, N),
                               b1 = tile__mm_t(pb, k0 + q + 4, n0 + g, sb0, sb1, K, N);
                asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                             "{%8,%9}, {%0,%1,%2,%3};"
                             : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            }
        }
        const int r0 = m0 + g, r1 = m0 + g + 8, c0 = n0 + 2 * q, c1 = c0 + 1;
        TILE__MM_TC_ST(r0, c0, d0)
        TILE__MM_TC_ST(r0, c1, d1)
        TILE__MM_TC_ST(r1, c0, d2)
        TILE__MM_TC_ST(r1, c1, d3)
    }
#else
    (void)pav, (void)sa0, (void)sa1, (void)pbv, (void)sb0, (void)sb1, (void)po, (void)so0, (void)so1, (void)M;
    (void)N, (void)K, (void)nwarps, (void)alpha, (void)beta, (void)accum, (void)kind;
#endif
}
/* f64 DMMA, mma.sync m8n8k4 (sm_80+): A 8x4 {A[g][q]}, B 4x8 {B[q][g]},
 * C/D 8x8 {C[g][2q], C[g][2q+1]}. Each warp takes 8 x 8 tiles of out. */
TILE_API double tile__mm_d(const double *p, int i, int j, int s0, int s1, int ni, int nj) {
    return (i < ni && j < nj) ? p[i * s0 + j * s1] : 0.0;
}
TILE_API void tile__mm_dmma(const double *pa, int sa0, int sa1, const double *pb, int sb0, int sb1, double *po,
                            int so0, int so1, int M, int N, int K, int nwarps, double alpha, double beta, int accum) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    const int lane = (int)(threadIdx.x & 31u), w = (int)(threadIdx.x >> 5), g = lane >> 2, q = lane & 3;
    const int mt = (M + 7) / 8, nt = (N + 7) / 8;
    for (int u = w; u < mt * nt; u += nwarps) {
        const int m0 = u / nt * 8, n0 = u % nt * 8;
        double d0 = 0.0, d1 = 0.0;
        for (int k0 = 0; k0 < K; k0 += 4) {
            const double a0 = tile__mm_d(pa, m0 + g, k0 + q, sa0, sa1, M, K);
            const double b0 = tile__mm_d(pb, k0 + q, n0 + g, sb0, sb1, K, N);
            asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                         : "+d"(d0), "+d"(d1)
                         : "d"(a0), "d"(b0));
        }
        const int r = m0 + g, c0 = n0 + 2 * q;
        if (r < M && c0 < N) {
            double *o = po + r * so0 + c0 * so1;
            *o = alpha * d0 + ((accum && beta != 0.0) ? beta * *o : 0.0);
        }
        if (r < M && c0 + 1 < N) {
            double *o = po + r * so0 + (c0 + 1) * so1;
            *o = alpha * d1 + ((accum && beta != 0.0) ? beta * *o : 0.0);
        }
    }
#else
    (void)pa, (void)sa0, (void)sa1, (void)pb, (void)sb0, (void)sb1, (void)po, (void)so0, (void)so1, (void)M;
    (void)N, (void)K, (void)nwarps, (void)alpha, (void)beta, (void)accum;
#endif
}
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
#define TILE__MM_DMMA_ON(bd, esize, osize) ((bd) % 32 == 0 && (esize) == 8 && (osize) == 8)
#else
#define TILE__MM_DMMA_ON(bd, esize, osize) 0
#endif
/* tensor cores for this product? kind16: 16-bit inputs; tf32: asked for */
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
#define TILE__MM_TC_ON(bd, esize, tf32, osize) \
    ((bd) % 32 == 0 && (osize) == 4 && ((esize) == 2 || ((tf32) && (esize) == 4)))
#else
#define TILE__MM_TC_ON(bd, esize, tf32, osize) 0
#endif

/* ---- FMA core: po[i][j] = alpha * sum_k a[i][k] b[k][j] (+ beta * po) ----
 * TM x TN micro-tile per thread: the largest of 8x8, 8x4, 8x2, 4x2, 2x2, 2x1
 * whose count still gives every thread one (else 1x1). */
#define TILE__MM_NB(M, N, tm, tn) ((((M) + (tm)-1) / (tm)) * (((N) + (tn)-1) / (tn)))
#define TILE__MM_TM(M, N, bd)                                                      \
    (TILE__MM_NB(M, N, 8, 2) >= (bd) ? 8 : TILE__MM_NB(M, N, 4, 2) >= (bd) ? 4 : TILE__MM_NB(M, N, 2, 1) >= (bd) ? 2 : 1)
#define TILE__MM_TN(M, N, bd)                                                      \
    (TILE__MM_NB(M, N, 8, 8) >= (bd) ? 8 : TILE__MM_NB(M, N, 8, 4) >= (bd) ? 4 : TILE__MM_NB(M, N, 8, 2) >= (bd) ? 2 \
     : TILE__MM_NB(M, N, 4, 2) >= (bd) ? 2 : TILE__MM_NB(M, N, 2, 2) >= (bd) ? 2 : 1)
#if TILE_ON_DEVICE
#define TILE__MM_UNROLL_K _Pragma("unroll 4")
#else
#define TILE__MM_UNROLL_K
#endif
/* 16 bytes of a row of a (f32/f64 inputs of the accumulator's type) into
 * dst[16 / sizeof]: one 128-bit shared load on the device */
#if TILE_ON_DEVICE
#define TILE__MM_LD16(dst, src)                                                    \
    do {                                                                           \
        const uint4 tile__w = *(const uint4 *)(const void *)(src);                 \
        memcpy((dst), &tile__w, 16);                                               \
    } while (0)
#else
#define TILE__MM_LD16(dst, src) memcpy((dst), (const void *)(src), 16)
#endif
#define TILE__MM_FMA(ACC, OUTT, pa, SA0, SA1, pb, SB0, SB1, po, SO0, SO1, M_, N_, K_, BD_, alpha, beta, accum, RND) \
    do {                                                                           \
        enum {                                                                     \
            tile__TM = TILE__MM_TM(M_, N_, BD_), tile__TN = TILE__MM_TN(M_, N_, BD_), \
            tile__NT = ((N_) + tile__TN - 1) / tile__TN,                           \
            tile__NU = (((M_) + tile__TM - 1) / tile__TM) * tile__NT,              \
            tile__UPT = (tile__NU + (BD_)-1) / (BD_),                              \
            tile__V = 16 / (int)sizeof(ACC),                                       \
            tile__VEC = sizeof(*(pa)) == sizeof(ACC) && (SA1) == 1 && (SA0) % tile__V == 0 && (K_) % tile__V == 0 \
        };                                                                         \
        TILE__UNROLL for (int tile__uu = 0; tile__uu < tile__UPT; ++tile__uu) {    \
            const int tile__u = tile_thread() + tile__uu * (BD_);                  \
            if (tile__NU % (BD_) == 0 || tile__u < tile__NU) {                     \
                const int tile__i0 = tile__u / tile__NT * tile__TM, tile__j0 = tile__u % tile__NT; \
                int tile__ao[tile__TM], tile__bo[tile__TN];                        \
                ACC tile__acc[tile__TM][tile__TN];                                 \
                TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) { \
                    const int tile__i = tile__i0 + tile__r;                        \
                    tile__ao[tile__r] = (tile__i < (M_) ? tile__i : (M_)-1) * (SA0); \
                    TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) tile__acc[tile__r][tile__c] = 0; \
                }                                                                  \
                TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) { \
                    const int tile__j = tile__j0 + tile__c * tile__NT;             \
                    tile__bo[tile__c] = (tile__j < (N_) ? tile__j : (N_)-1) * (SB1); \
                }                                                                  \
                if (tile__VEC && ((uintptr_t)(pa) & 15u) == 0) {                   \
                    /* a's rows in 16-byte words along k: one broadcast load per \
                     * row serves tile__V steps of k */                            \
                    TILE__MM_UNROLL_K for (int tile__kk = 0; tile__kk < (K_); tile__kk += tile__V) { \
                        ACC tile__aw[tile__TM][tile__V], tile__bv[tile__TN];       \
                        TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                            TILE__MM_LD16(tile__aw[tile__r], (pa) + tile__ao[tile__r] + tile__kk); \
                        TILE__UNROLL for (int tile__v = 0; tile__v < tile__V; ++tile__v) { \
                            TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                                tile__bv[tile__c] = (ACC)RND(TILE__MM_CVT((pb)[(tile__kk + tile__v) * (SB0) + tile__bo[tile__c]])); \
                            TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                                TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                                    tile__acc[tile__r][tile__c] += (ACC)RND(tile__aw[tile__r][tile__v]) * tile__bv[tile__c]; \
                        }                                                          \
                    }                                                              \
                } else                                                             \
                TILE__MM_UNROLL_K for (int tile__kk = 0; tile__kk < (K_); ++tile__kk) { \
                    ACC tile__av[tile__TM], tile__bv[tile__TN];                    \
                    TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                        tile__av[tile__r] = (ACC)RND(TILE__MM_CVT((pa)[tile__ao[tile__r] + tile__kk * (SA1)])); \
                    TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                        tile__bv[tile__c] = (ACC)RND(TILE__MM_CVT((pb)[tile__kk * (SB0) + tile__bo[tile__c]])); \
                    TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                        TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                            tile__acc[tile__r][tile__c] += tile__av[tile__r] * tile__bv[tile__c]; \
                }                                                                  \
                TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r)  \
                    TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) { \
                        const int tile__i = tile__i0 + tile__r, tile__j = tile__j0 + tile__c * tile__NT; \
                        if (tile__i < (M_) && tile__j < (N_)) {                    \
                            OUTT *tile__o = (po) + tile__i * (SO0) + tile__j * (SO1); \
                            ACC tile__x = (ACC)(alpha) * tile__acc[tile__r][tile__c]; \
                            if ((accum) && (beta) != 0) tile__x += (ACC)(beta) * (ACC)*tile__o; \
                            *tile__o = (OUTT)tile__x;                              \
                        }                                                          \
                    }                                                              \
            }                                                                      \
        }                                                                          \
    } while (0)

/* On the GPU a register operand is staged in the arena; on the CPU the one
 * thread's slots already are the row-major matrix. */
#if TILE_ON_DEVICE
#define TILE__MM_STAGED(t) (!tile_is_shared(t))
#else
#define TILE__MM_STAGED(t) 0
#endif
/* Staged 16-bit operands get rows 8 elements (16 bytes) longer: with rows of
 * a multiple of 64 bytes the tensor-core fragment loads (8 rows x 4 words of
 * a warp) would all hit the same 4 banks; 16 more bytes spread them over all
 * 32. f32/f64 rows stay dense (the FMA path reads them conflict-free). */
#define TILE__MM_PAD(esize) ((esize) == 2 ? 8 : 0)
#define TILE__MM_S0(t) (TILE__MM_STAGED(t) ? TILE__D1(t) : TILE__S0(t))
#define TILE__MM_S0IN(t) (TILE__MM_STAGED(t) ? TILE__D1(t) + TILE__MM_PAD((int)sizeof((t).v[0])) : TILE__S0(t))
#define TILE__MM_S1(t) (TILE__MM_STAGED(t) ? 1 : TILE__S1(t))
/* pointer to input operand t's element (0, 0): the tile's storage, or a
 * staged copy with row stride TILE__MM_S0IN(t) */
#define TILE__MM_SRC(p, t)                                                         \
    TILE_ELEM_T(t) *p = (t).v + 0;                                                 \
    if (TILE__MM_STAGED(t)) {                                                      \
        p = (TILE_ELEM_T(t) *)tile__smem_alloc(&tile__k, sizeof((t).v[0]) * TILE__D0(t) * TILE__MM_S0IN(t)); \
        TILE__EACH(t, tile__s) {                                                   \
            const int tile__L = TILE__LIN(t, tile__s);                             \
            p[TILE__MM_S0IN(t) == TILE__D1(t) ? tile__L                            \
                                              : tile__L / TILE__D1(t) * TILE__MM_S0IN(t) + tile__L % TILE__D1(t)] = \
                TILE__AT(t, tile__s);                                              \
        }                                                                          \
    }

#define TILE__MM_CHECK(out, a, b)                                                  \
    TILE__STATIC_ASSERT(tile_ndim(a) == 2 && tile_ndim(b) == 2 && tile_ndim(out) == 2, \
                        "tile.h: tile_matmul needs 2D tiles a (M x K), b (K x N), out (M x N)"); \
    TILE__STATIC_ASSERT(TILE__D1(a) == TILE__D0(b),                                \
                        "tile.h: tile_matmul: a's columns (K) differ from b's rows"); \
    TILE__STATIC_ASSERT(TILE__D0(out) == TILE__D0(a) && TILE__D1(out) == TILE__D1(b), \
                        "tile.h: tile_matmul: out must be (rows of a) x (columns of b)"); \
    TILE__STATIC_ASSERT(sizeof((a).v[0]) == sizeof((b).v[0]) && TILE__MM_ISBF16(a) == TILE__MM_ISBF16(b), \
                        "tile.h: tile_matmul: a and b need one element type");    \
    TILE__STATIC_ASSERT(sizeof((out).v[0]) == 4 || sizeof((out).v[0]) == 8,       \
                        "tile.h: tile_matmul accumulates into f32 or f64 tiles"); \
    TILE__STATIC_ASSERT(sizeof((out).v[0]) == 8 || sizeof((a).v[0]) <= 4,         \
                        "tile.h: tile_matmul: f64 inputs need an f64 out")

#define TILE__MM(out, a, b, alpha, beta, tf32, RND)                                \
    do {                                                                           \
        TILE__MM_CHECK(out, a, b);                                                 \
        typedef TILE_ELEM_T(out) tile__OT;                                         \
        enum {                                                                     \
            tile__M = TILE__D0(a), tile__K = TILE__D1(a), tile__N = TILE__D1(b), tile__BD = TILE__BD(out), \
            tile__stg = TILE__MM_STAGED(a) || TILE__MM_STAGED(b) || TILE__MM_STAGED(out), \
            tile__tc = TILE__MM_TC_ON(tile__BD, (int)sizeof((a).v[0]), tf32, (int)sizeof((out).v[0])), \
            tile__kind = (tf32) ? 2 : TILE__MM_ISBF16(a),                          \
            tile__dmma = TILE__MM_DMMA_ON(tile__BD, (int)sizeof((a).v[0]), (int)sizeof((out).v[0])) \
        };                                                                         \
        const tile__OT tile__al = (tile__OT)(alpha), tile__be = (tile__OT)(beta);  \
        const int tile__mk = tile_smem_mark();                                     \
        TILE__MM_SRC(tile__pa, a);                                                 \
        TILE__MM_SRC(tile__pb, b);                                                 \
        /* out: written in place (shared, or the CPU's one thread), else into a \
         * staging buffer combined with the register tile afterwards */           \
        tile__OT *tile__po = (out).v + 0;                                          \
        if (TILE__MM_STAGED(out))                                                  \
            tile__po = (tile__OT *)tile__smem_alloc(&tile__k, sizeof(tile__OT) * tile_size(out)); \
        enum { tile__so0 = TILE__MM_S0(out), tile__so1 = TILE__MM_S1(out), tile__inpl = !TILE__MM_STAGED(out) }; \
        if (tile__stg || tile_is_shared(out)) tile_barrier(); /* staged data in; old out read */ \
        if (tile__tc)                                                              \
            tile__mm_tc(tile__pa, TILE__MM_S0IN(a), TILE__MM_S1(a), tile__pb, TILE__MM_S0IN(b), TILE__MM_S1(b), \
                        (float *)tile__po, tile__so0, tile__so1, tile__M, tile__N, tile__K, tile__BD / 32, \
                        (float)tile__al, (float)tile__be, tile__inpl, tile__kind); \
        else if (tile__dmma)                                                       \
            tile__mm_dmma((const double *)tile__pa, TILE__MM_S0IN(a), TILE__MM_S1(a), (const double *)tile__pb, \
                          TILE__MM_S0IN(b), TILE__MM_S1(b), (double *)tile__po, tile__so0, tile__so1, tile__M, \
                          tile__N, tile__K, tile__BD / 32, (double)tile__al, (double)tile__be, tile__inpl); \
        else                                                                       \
            TILE__MM_FMA(tile__OT, tile__OT, tile__pa, TILE__MM_S0IN(a), TILE__MM_S1(a), tile__pb, TILE__MM_S0IN(b), \
                         TILE__MM_S1(b), tile__po, tile__so0, tile__so1, tile__M, tile__N, tile__K, tile__BD, \
                         tile__al, tile__be, tile__inpl, RND);                      \
        if (TILE__MM_STAGED(out)) {                                                \
            tile_barrier();                                                        \
            TILE__EACH(out, tile__s) {                                             \
                tile__OT tile__x = tile__po[TILE__LIN(out, tile__s)];              \
                if (tile__be != 0) tile__x += tile__be * TILE__AT(out, tile__s);   \
                TILE__AT(out, tile__s) = tile__x;                                  \
            }                                                                      \
        }                                                                          \
        if (tile_is_shared(out)) tile_barrier(); /* every thread may read out */   \
        if (tile__stg) tile_smem_release(tile__mk);                                \
        (void)tile__mk;                                                            \
    } while (0)

/* out = alpha * a @ b + beta * out (out not read when beta == 0) */
#define tile_matmul_ab(out, a, b, alpha, beta) TILE__MM(out, a, b, alpha, beta, 0, TILE__MM_NOROUND)
/* out = a @ b + out (Warp's default alpha = beta = 1: initialize out first) */
#define tile_matmul(out, a, b) tile_matmul_ab(out, a, b, 1, 1)
/* f32 a, b read as tf32 (tensor cores on sm_80+; the CPU and the FMA
 * fallback round the inputs the same way), f32 accumulation */
#define tile_matmul_tf32_ab(out, a, b, alpha, beta)                                \
    do {                                                                           \
        TILE__STATIC_ASSERT(sizeof((a).v[0]) == 4 && sizeof((out).v[0]) == 4,      \
                            "tile.h: tile_matmul_tf32 takes f32 tiles");           \
        TILE__MM(out, a, b, alpha, beta, 1, TILE__MM_TF32);                        \
    } while (0)
#define tile_matmul_tf32(out, a, b) tile_matmul_tf32_ab(out, a, b, 1, 1)
/* Declare register tile `name` (M x N, f32 for f32/f16/bf16 inputs, f64 for
 * f64) holding a @ b. */
#define tile_matmul_new(name, a, b)                                                \
    typedef TILE__TYPEOF(TILE__MM_CVT((a).v[0])) name##__mt;                       \
    enum { name##__m = TILE__D0(a), name##__n = TILE__D1(b) };                     \
    tile_reg(name##__mt, name, name##__m, name##__n);                              \
    tile_matmul_ab(name, a, b, 1, 0)

#endif /* TILE_MATMUL_H */
