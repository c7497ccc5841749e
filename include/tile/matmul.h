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
 *    time when a's rows allow it (contiguous, 16-byte aligned, K a multiple),
 *    or, when a is k-major (a view with strides (1, ld): tile_transpose_view
 *    of a K x M shared tile), 16 bytes along its rows: 2 loads a k for 8 rows.
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

#include "async.h" /* tile_matmul_load_async issues cp.async copies */
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
/* ldmatrix addressing of tile__mm_tc's 16-bit path: tile__lm (ldmatrix usable),
 * tile__la / tile__lb (this lane's row address in a and b) */
#define TILE__MM_TC16_LM(RM, RN)                                                   \
    const int tile__lm = (RN) % 2 == 0 && M % (16 * (RM)) == 0 && N % (8 * (RN)) == 0 && K % 16 == 0 && \
                         sa1 == 1 && sb1 == 1 && sa0 % 8 == 0 && sb0 % 8 == 0 && \
                         (((uintptr_t)pa | (uintptr_t)pb) & 15u) == 0 && __isShared(pa) && __isShared(pb); \
    const int tile__lr = (lane & 7) + ((lane >> 3) & 1) * 8, tile__lc = (lane >> 4) * 8; \
    const uint32_t tile__la = (uint32_t)__cvta_generic_to_shared(pa) + 2u * (uint32_t)(tile__lr * sa0 + tile__lc); \
    const uint32_t tile__lb = (uint32_t)__cvta_generic_to_shared(pb) + 2u * (uint32_t)(tile__lr * sb0 + tile__lc);
/* the k loop of one (16 RM) x (8 RN) warp tile at (m0, n0): d[i][j][0..3] +=
 * the mma products (tile__lm, tile__la, tile__lb from TILE__MM_TC16_LM) */
#define TILE__MM_TC16_K(RM, RN, d, UNROLL_K)                                               \
    do {                                                                           \
        UNROLL_K for (int k0 = 0; k0 < K; k0 += 16) {                                   \
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
    } while (0)
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
        TILE__MM_TC16_LM(RM, RN);                                                  \
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
            TILE__MM_TC16_K(RM, RN, d, );                                            \
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
        float d[4] = {0.f, 0.f, 0.f, 0.f};
        if (kind == 2) {
            const float *pa = (const float *)pav, *pb = (const float *)pbv;
            for (int k0 = 0; k0 < K; k0 += 8) {
                const uint32_t a0 = tile__mm_t(pa, m0 + g, k0 + q, sa0, sa1, M, K),
                               a1 = tile__mm_t(pa, m0 + g + 8, k0 + q, sa0, sa1, M, K),
                               a2 = tile__mm_t(pa, m0 + g, k0 + q + 4, sa0, sa1, M, K),
                               a3 = tile__mm_t(pa, m0 + g + 8, k0 + q + 4, sa0, sa1, M, K);
                const uint32_t b0 = tile__mm_t(pb, k0 + q, n0 + g, sb0, sb1, K, N),
                               b1 = tile__mm_t(pb, k0 + q + 4, n0 + g, sb0, sb1, K, N);
                tile__mma1688_tf32(d, a0, a1, a2, a3, b0, b1);
            }
        }
        const int r0 = m0 + g, r1 = m0 + g + 8, c0 = n0 + 2 * q, c1 = c0 + 1;
        TILE__MM_TC_ST(r0, c0, d[0])
        TILE__MM_TC_ST(r0, c1, d[1])
        TILE__MM_TC_ST(r1, c0, d[2])
        TILE__MM_TC_ST(r1, c1, d[3])
    }
#else
    (void)pav, (void)sa0, (void)sa1, (void)pbv, (void)sb0, (void)sb1, (void)po, (void)so0, (void)so1, (void)M;
    (void)N, (void)K, (void)nwarps, (void)alpha, (void)beta, (void)accum, (void)kind;
#endif
}
/* f64 DMMA (tile__dmma884, sm_80+). Each warp takes 8 x 8 tiles of out. */
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
            tile__dmma884(&d0, &d1, a0, b0);
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
/* TILE_MATMUL_FMA_B4 (default 1; define 0 before <tile.h>, or between
 * kernels, for the previous mapping): FMA micro-tiles whose columns come in
 * runs of V = 16 / sizeof(accumulator) (4 f32, 2 f64), so a thread reads its
 * part of b's row k as TN / V 16-byte words instead of TN scalars. Taken
 * when the inputs are the accumulator's type and one of 8x8, 8x4, 4x4 gives
 * every thread a micro-tile with N a multiple of TN (e.g. 64 x 64 with 256
 * threads: 4 x 4, one 16-byte load of a and one of b per k instead of 8 x 2's
 * two of a and two scalars of b). Column c of the thread whose column index
 * is j0 (of NT = N / TN) is V (j0 + (c / V) NT) + c % V: consecutive threads
 * read consecutive 16-byte words. The macro is read where a kernel's
 * tile_matmul / tile_matmul_acc expands. */
#ifndef TILE_MATMUL_FMA_B4
#define TILE_MATMUL_FMA_B4 1
#endif
#define TILE__MM_B4FIT(M, N, bd, tm, tn, w) \
    (TILE__MM_NB(M, N, tm, tn) >= (bd) && (N) % (tn) == 0 && (tn) % (w) == 0)
/* is the B4 mapping taken (same: inputs of the accumulator's type; w = V;
 * a88: 8 x 8 is a candidate - for accumulators only: tile_matmul's 8 x 8
 * keeps scalar b reads, whose 4-fold unrolled k loop fits 2 blocks of 256
 * threads an SM at s = 128 (124 registers; 16-byte b reads took 219) */
#define TILE__MM_B4(M, N, bd, w, same, a88)                                        \
    (TILE_MATMUL_FMA_B4 && (same) &&                                               \
     (((a88) && TILE__MM_B4FIT(M, N, bd, 8, 8, w)) ||                              \
      (!TILE__MM_B4FIT(M, N, bd, 8, 8, w) &&                                       \
       (TILE__MM_B4FIT(M, N, bd, 8, 4, w) || TILE__MM_B4FIT(M, N, bd, 4, 4, w)))))
#define TILE__MM_TMB(M, N, bd, w, same, a88)                                       \
    (!TILE__MM_B4(M, N, bd, w, same, a88)                                          \
         ? TILE__MM_TM(M, N, bd)                                                   \
         : TILE__MM_B4FIT(M, N, bd, 8, 8, w) || TILE__MM_B4FIT(M, N, bd, 8, 4, w) ? 8 : 4)
#define TILE__MM_TNB(M, N, bd, w, same, a88) \
    (!TILE__MM_B4(M, N, bd, w, same, a88) ? TILE__MM_TN(M, N, bd) : TILE__MM_B4FIT(M, N, bd, 8, 8, w) ? 8 : 4)
/* column of micro-tile column c for column index j0 */
#define TILE__MM_COL(j0, c, NT, b4, w) ((b4) ? ((j0) + (c) / (w) * (NT)) * (w) + (c) % (w) : (j0) + (c) * (NT))

#if TILE_ON_DEVICE
#define TILE__MM_UNROLL_K _Pragma("unroll 4")
#define TILE__MM_UNROLL_K2 _Pragma("unroll 2")
#else
#define TILE__MM_UNROLL_K
#define TILE__MM_UNROLL_K2
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
/* a is k-major (a view with strides (1, ld), ld a multiple of V: e.g. the
 * tile_transpose_view of a K x M shared tile) and the micro-tiles' rows are
 * runs of V inside M (no clamped rows): a thread reads its TM values of a
 * column k as TM / V 16-byte words */
#define TILE__MM_VECM(same, SA0, SA1, M_, TM, V) \
    ((same) && (SA0) == 1 && (SA1) != 1 && (SA1) % (V) == 0 && (TM) % (V) == 0 && (M_) % (TM) == 0)
/* the k loop of one FMA micro-tile: accv[r][c] += sum_k a[ao[r] + k] b[k][bo[c]]
 * (tile__ao, tile__bo, tile__TM, tile__TN, tile__V, tile__VEC, tile__B4V from
 * the caller; tile__B4V: b's rows read in 16-byte words, in the VEC branch) */
#define TILE__MM_FMA_K(ACC, accv, pa, SA1, pb, SB0, K_, RND, UNROLL_K)                      \
    do {                                                                           \
        if (tile__VECM && ((uintptr_t)((pa) + tile__ao[0]) & 15u) == 0 &&          \
            (!tile__B4V || ((uintptr_t)(pb) & 15u) == 0)) {                        \
            /* a k-major (column stride 1): the thread's TM rows are       \
             * consecutive, TM / V 16-byte loads a k (and no bank conflict: \
             * a warp's two row groups are neighbours); two k an iteration \
             * (the next k's loads issue during this one's FMAs) */        \
            enum { tile__KS = (K_) % 2 == 0 ? 2 : 1 }; /* k steps an iteration */ \
            UNROLL_K for (int tile__k0 = 0; tile__k0 < (K_); tile__k0 += tile__KS) \
                TILE__UNROLL for (int tile__kk = tile__k0; tile__kk < tile__k0 + tile__KS; ++tile__kk) { \
                ACC tile__av[tile__TM], tile__bv[tile__TN];                        \
                TILE__UNROLL for (int tile__h = 0; tile__h < tile__TM / tile__V; ++tile__h) \
                    TILE__MM_LD16(&tile__av[tile__h * tile__V], (pa) + tile__ao[0] + tile__kk * (SA1) + tile__h * tile__V); \
                if (tile__B4V) {                                                   \
                    TILE__UNROLL for (int tile__h = 0; tile__h < tile__TN / tile__V; ++tile__h) \
                        TILE__MM_LD16(&tile__bv[tile__h * tile__V], (pb) + tile__kk * (SB0) + tile__bo[tile__h * tile__V]); \
                } else                                                             \
                    TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                        tile__bv[tile__c] = (ACC)RND(TILE__MM_CVT((pb)[tile__kk * (SB0) + tile__bo[tile__c]])); \
                TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r)  \
                    TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                        (accv)[tile__r][tile__c] += (ACC)RND(tile__av[tile__r]) * tile__bv[tile__c]; \
            }                                                                      \
        } else                                                                     \
        if (tile__VEC && ((uintptr_t)(pa) & 15u) == 0 && (!tile__B4V || ((uintptr_t)(pb) & 15u) == 0)) { \
            /* a's rows in 16-byte words along k: one broadcast load per \
             * row serves tile__V steps of k */                            \
            UNROLL_K for (int tile__kk = 0; tile__kk < (K_); tile__kk += tile__V) { \
                ACC tile__aw[tile__TM][tile__V], tile__bv[tile__TN];       \
                if (tile__A16)                                             \
                    TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                        TILE__MM_LD16(tile__aw[tile__r], (pa) + tile__ao[tile__r] + tile__kk); \
                TILE__UNROLL for (int tile__v = 0; tile__v < tile__V; ++tile__v) { \
                    if (!tile__A16) /* a as scalars, one k at a time: fewer live registers */ \
                        TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                            tile__aw[tile__r][tile__v] = (ACC)TILE__MM_CVT((pa)[tile__ao[tile__r] + tile__kk + tile__v]); \
                    if (tile__B4V) { /* b's row in 16-byte words (B4 mapping) */ \
                        TILE__UNROLL for (int tile__h = 0; tile__h < tile__TN / tile__V; ++tile__h) \
                            TILE__MM_LD16(&tile__bv[tile__h * tile__V],    \
                                          (pb) + (tile__kk + tile__v) * (SB0) + tile__bo[tile__h * tile__V]); \
                    } else                                                 \
                    TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                        tile__bv[tile__c] = (ACC)RND(TILE__MM_CVT((pb)[(tile__kk + tile__v) * (SB0) + tile__bo[tile__c]])); \
                    TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                        TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                            (accv)[tile__r][tile__c] += (ACC)RND(tile__aw[tile__r][tile__v]) * tile__bv[tile__c]; \
                }                                                          \
            }                                                              \
        } else                                                             \
        UNROLL_K for (int tile__kk = 0; tile__kk < (K_); ++tile__kk) { \
            ACC tile__av[tile__TM], tile__bv[tile__TN];                    \
            TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                tile__av[tile__r] = (ACC)RND(TILE__MM_CVT((pa)[tile__ao[tile__r] + tile__kk * (SA1)])); \
            TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                tile__bv[tile__c] = (ACC)RND(TILE__MM_CVT((pb)[tile__kk * (SB0) + tile__bo[tile__c]])); \
            TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) \
                TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) \
                    (accv)[tile__r][tile__c] += tile__av[tile__r] * tile__bv[tile__c]; \
        }                                                                  \
    } while (0)
#define TILE__MM_FMA(ACC, OUTT, pa, SA0, SA1, pb, SB0, SB1, po, SO0, SO1, M_, N_, K_, BD_, alpha, beta, accum, RND) \
    do {                                                                           \
        enum {                                                                     \
            tile__V = 16 / (int)sizeof(ACC),                                       \
            tile__B4 = TILE__MM_B4(M_, N_, BD_, tile__V, sizeof(*(pb)) == sizeof(ACC), 0), \
            tile__TM = TILE__MM_TMB(M_, N_, BD_, tile__V, sizeof(*(pb)) == sizeof(ACC), 0), \
            tile__TN = TILE__MM_TNB(M_, N_, BD_, tile__V, sizeof(*(pb)) == sizeof(ACC), 0), \
            tile__NT = ((N_) + tile__TN - 1) / tile__TN,                           \
            tile__NU = (((M_) + tile__TM - 1) / tile__TM) * tile__NT,              \
            tile__UPT = (tile__NU + (BD_)-1) / (BD_),                              \
            tile__VEC = sizeof(*(pa)) == sizeof(ACC) && (SA1) == 1 && (SA0) % tile__V == 0 && (K_) % tile__V == 0, \
            tile__B4V = tile__B4 && (SB1) == 1 && (SB0) % tile__V == 0,            \
            tile__VECM = TILE__MM_VECM(sizeof(*(pa)) == sizeof(ACC), SA0, SA1, M_, tile__TM, tile__V), \
            tile__A16 = 1                                                          \
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
                    const int tile__j = TILE__MM_COL(tile__j0, tile__c, tile__NT, tile__B4, tile__V); \
                    tile__bo[tile__c] = (tile__j < (N_) ? tile__j : (N_)-1) * (SB1); \
                }                                                                  \
                /* 16-byte b reads hold more operands a step: unroll 2, not 4 \
                 * (64x64, 128 threads, register operands spilled at 4) */  \
                if (tile__B4V)                                                     \
                    TILE__MM_FMA_K(ACC, tile__acc, pa, SA1, pb, SB0, K_, RND, TILE__MM_UNROLL_K2); \
                else                                                               \
                    TILE__MM_FMA_K(ACC, tile__acc, pa, SA1, pb, SB0, K_, RND, TILE__MM_UNROLL_K); \
                TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r)  \
                    TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) { \
                        const int tile__i = tile__i0 + tile__r,                    \
                                  tile__j = TILE__MM_COL(tile__j0, tile__c, tile__NT, tile__B4, tile__V); \
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

/* ==== accumulators: products summed over k windows in registers ====
 * tile_matmul keeps Warp's semantics (out is a tile), so a register out is
 * staged through shared memory on every call: fine for one product, not for
 * a GEMM that adds a product per k window. An accumulator keeps the running
 * sum in the threads that compute it, in the layout the product uses.
 *
 *   tile_matmul_acc(acc, a, b)             declare acc: M x N, zero, for products
 *                                          of tiles shaped like a (M x K) and b
 *                                          (K x N); f32 (f64 for f64 inputs)
 *   tile_matmul_acc_add(acc, a, b)         acc += a @ b (a, b shared tiles)
 *   tile_matmul_acc_zero(acc)              acc = 0
 *   tile_matmul_acc_store(arr, acc, o0, o1)            arr[o0 + i][o1 + j] = acc[i][j]
 *   tile_matmul_acc_store_ab(arr, acc, alpha, beta, o0, o1)
 *                                          arr[..] = alpha * acc[i][j] + beta * arr[..]
 *                                          (beta == 0: arr not read)
 *   TILE_MATMUL_PAD(T)                     row padding (elements) for shared operands
 *                                          that tensor cores read without bank conflicts
 *   tile_matmul_load_async(s, arr, o0, o1) tile_load_async into a 2D shared tile whose
 *                                          rows may be padded (a view): 16-byte cp.async
 *   tile_matmul_load_async_nosync(s, arr, o0, o1)  the same without its leading
 *                                          barrier (one-barrier k pipelines)
 *   TILE_MATMUL_ACC_VST                    1: the store writes 8/16-byte vectors
 *                                          where aligned (default 0)
 *   TILE_MATMUL_ACC_PREFETCH               1: mma fragments double-buffered by
 *                                          hand across k16 steps (default 0)
 *   TILE_MATMUL_ACC_TM16                   1: 16 x 8 FMA micro-tiles where they
 *                                          fit exactly (default 0)
 *
 * Suppose a = [[1 2] [3 4]] and b = [[5 6] [7 8]] are f32 shared tiles and
 * C is a 2 x 2 f32 array:
 *   tile_matmul_acc(acc, a, b);            acc = [[0 0] [0 0]]
 *   tile_matmul_acc_add(acc, a, b);
 *   tile_matmul_acc_add(acc, a, b);        acc = [[38 44] [86 100]]
 *   tile_matmul_acc_store(tile_array2(C, 2, 2), acc, 0, 0);   C = [[38 44] [86 100]]
 *
 * Rules: acc is a plain identifier (its layout constants are acc##__*);
 * a kernel-local like a register tile. tile_matmul_acc_add only reads a and
 * b and has no barrier: make them visible first (tile_async_wait, or a
 * barrier after writing them), and put a barrier before overwriting them
 * (tile_load_async and tile_matmul_load_async begin with one). Every thread of
 * the block calls every operation. Stores drop elements outside arr; arr's
 * elements are the accumulator's type.
 *
 * Layout (the calling thread's acc.v[t][y][z]):
 *  - GPU, 16-bit inputs on sm_80+ (blocks of whole warps): mma.sync m16n8k16
 *    fragments. Warp w owns warp tiles u = w + t * nwarps of (16 RM) x (8 RN),
 *    RM x RN the first of 4x8, 4x4, 2x4, 1x4, 1x2, 1x1 that gives every warp
 *    a tile; v[t][i][4 j + e] is fragment element e of the 16 x 8 step (i, j):
 *    row 16 i + lane / 4 (+ 8 for e >= 2), column 8 j + 2 (lane % 4) + e % 2.
 *    Fragments come from ldmatrix when the operands are 16-byte aligned rows
 *    (strides multiples of 8 elements) and M, N, K fill the warp tiles; else
 *    from scalar loads with zero padding.
 *  - GPU otherwise (f32, f64; FMA): tile_matmul's micro-tiles, TM x TN
 *    accumulators a thread (8 x 8 for 128 x 128 and 256 threads), columns NT
 *    apart; a's rows read 16 bytes at a time.
 *  - CPU (block_dim 1): v[0][i][j] = acc[i][j], plain loops in the
 *    accumulator's type.
 * At most 256 accumulators a thread on the GPU (compile-time check); 64 to 128
 * leave room for the operands' registers.
 */
#define TILE_MATMUL_PAD(T) TILE__MM_PAD((int)sizeof(T))

/* TILE_MATMUL_ACC_UNROLL (default 1; 1, 2, 4 or 8): how many k steps of one
 * tile_matmul_acc_add the compiler may unroll (16 for mma, 4 for FMA): more
 * overlaps loads with math but holds more operand registers. Read where
 * tile_matmul_acc_add expands (define it between kernels to mix). */
#ifndef TILE_MATMUL_ACC_UNROLL
#define TILE_MATMUL_ACC_UNROLL 1
#endif
/* TILE_MATMUL_ACC_A16 (default 1): the FMA accumulator reads a's rows 16
 * bytes along k (one load serves 4 f32 / 2 f64 steps of k, but holds TM x 4
 * operand registers at once); 0 reads a as scalars one k at a time (TM
 * registers): what lets an 8 x 8 micro-tile fit 128 registers (2 blocks of
 * 256 threads an SM with TILE_KERNEL_SMEM_BOUNDS). Read where
 * tile_matmul_acc_add expands (define it between kernels to mix). */
#ifndef TILE_MATMUL_ACC_A16
#define TILE_MATMUL_ACC_A16 1
#endif
#define TILE__MMA_PRAGMA_(x) _Pragma(#x)
#define TILE__MMA_PRAGMA(x) TILE__MMA_PRAGMA_(x)
#if TILE_ON_DEVICE
#define TILE__MMA_UNROLL_K TILE__MMA_PRAGMA(unroll TILE_MATMUL_ACC_UNROLL)
#else
#define TILE__MMA_UNROLL_K
#endif

/* a (M x K) and b (K x N): 2D, K agrees, one element type */
#define TILE__MMA_SHAPES(a, b)                                                     \
    TILE__STATIC_ASSERT(tile_ndim(a) == 2 && tile_ndim(b) == 2,                    \
                        "tile.h: tile_matmul_acc needs 2D tiles a (M x K) and b (K x N)"); \
    TILE__STATIC_ASSERT(TILE__D1(a) == TILE__D0(b), "tile.h: tile_matmul_acc: a's columns (K) differ from b's rows"); \
    TILE__STATIC_ASSERT(sizeof((a).v[0]) == sizeof((b).v[0]) && TILE__MM_ISBF16(a) == TILE__MM_ISBF16(b), \
                        "tile.h: tile_matmul_acc: a and b need one element type")
/* 0: CPU loops, 1: FMA micro-tiles, 2: mma.sync fragments */
#if TILE_ON_DEVICE
#define TILE__MMA_PATH(bd, esize, osize) (TILE__MM_TC_ON(bd, esize, 0, osize) ? 2 : 1)
#else
#define TILE__MMA_PATH(bd, esize, osize) 0
#endif
/* warp tiles of (16 rm) x (8 rn): count, and whether the shape fits */
#define TILE__MMA_NT(M, N, rm, rn) ((((M) + 16 * (rm)-1) / (16 * (rm))) * (((N) + 8 * (rn)-1) / (8 * (rn))))
#define TILE__MMA_FIT(M, N, nw, rm, rn) \
    (TILE__MMA_NT(M, N, rm, rn) >= (nw) && ((M) + 15) / 16 >= (rm) && ((N) + 7) / 8 >= (rn))
#define TILE__MMA_RM(M, N, nw) \
    (TILE__MMA_FIT(M, N, nw, 4, 8) || TILE__MMA_FIT(M, N, nw, 4, 4) ? 4 : TILE__MMA_FIT(M, N, nw, 2, 4) ? 2 : 1)
#define TILE__MMA_RN(M, N, nw)                                                     \
    (TILE__MMA_FIT(M, N, nw, 4, 8) ? 8                                             \
     : TILE__MMA_FIT(M, N, nw, 4, 4) || TILE__MMA_FIT(M, N, nw, 2, 4) || TILE__MMA_FIT(M, N, nw, 1, 4) ? 4 \
     : TILE__MMA_FIT(M, N, nw, 1, 2) ? 2 : 1)

/* TILE_MATMUL_ACC_TM16 (default 0; define 1 before <tile.h>, or between
 * kernels: read where tile_matmul_acc expands): FMA accumulators take 16 x 8
 * micro-tiles (128 accumulators a thread, columns in runs of 4 as the B4
 * mapping) when that gives every thread exactly one (e.g. 256 x 128 with 256
 * threads): a k step then loads 16 values of a and 8 of b for 128 FMAs
 * instead of 8 and 8 for 64. With a k-major a that is four 16-byte loads of
 * a and two of b a k. */
#ifndef TILE_MATMUL_ACC_TM16
#define TILE_MATMUL_ACC_TM16 0
#endif
#define TILE__MMA_T16(M, N, bd, w, same)                                           \
    (TILE_MATMUL_ACC_TM16 && (same) && TILE__MM_NB(M, N, 16, 8) == (bd) && (M) % 16 == 0 && (N) % 8 == 0 && \
     8 % (w) == 0)
/* a use of a tile declared only to shape an accumulator (nvcc warns of
 * variables "set but never used" otherwise, even after (void)) */
TILE_API void tile__mma_use(const void *p) { (void)p; }
#define tile_matmul_acc(name, a, b)                                                \
    TILE__MMA_SHAPES(a, b);                                                        \
    typedef TILE__TYPEOF(TILE__MM_CVT((a).v[0])) name##__at;                       \
    enum {                                                                         \
        name##__M = TILE__D0(a), name##__N = TILE__D1(b), name##__bd = TILE__BD(a), \
        name##__es = (int)sizeof((a).v[0]), name##__bf = TILE__MM_ISBF16(a),       \
        name##__path = TILE__MMA_PATH(TILE__BD(a), (int)sizeof((a).v[0]), (int)sizeof(name##__at)), \
        name##__nw = TILE__BD(a) >= 32 ? TILE__BD(a) / 32 : 1,                     \
        name##__rm = TILE__MMA_RM(name##__M, name##__N, name##__nw),               \
        name##__rn = TILE__MMA_RN(name##__M, name##__N, name##__nw),               \
        name##__ntw = (name##__N + 8 * name##__rn - 1) / (8 * name##__rn),         \
        name##__ntile = TILE__MMA_NT(name##__M, name##__N, name##__rm, name##__rn), \
        name##__v = 16 / (int)sizeof(name##__at),                                  \
        name##__t16 = TILE__MMA_T16(name##__M, name##__N, name##__bd, name##__v, name##__es == (int)sizeof(name##__at)), \
        name##__b4 = name##__t16 || TILE__MM_B4(name##__M, name##__N, name##__bd, name##__v, name##__es == (int)sizeof(name##__at), 1), \
        name##__tm = name##__t16 ? 16 : TILE__MM_TMB(name##__M, name##__N, name##__bd, name##__v, name##__es == (int)sizeof(name##__at), 1), \
        name##__tn = name##__t16 ? 8 : TILE__MM_TNB(name##__M, name##__N, name##__bd, name##__v, name##__es == (int)sizeof(name##__at), 1), \
        name##__nt = (name##__N + name##__tn - 1) / name##__tn,                    \
        name##__nu = ((name##__M + name##__tm - 1) / name##__tm) * name##__nt,     \
        name##__X = name##__path == 2   ? (name##__ntile + name##__nw - 1) / name##__nw \
                    : name##__path == 1 ? (name##__nu + name##__bd - 1) / name##__bd \
                                        : 1,                                       \
        name##__Y = name##__path == 2 ? name##__rm : name##__path == 1 ? name##__tm : name##__M, \
        name##__Z = name##__path == 2 ? 4 * name##__rn : name##__path == 1 ? name##__tn : name##__N \
    };                                                                             \
    TILE__STATIC_ASSERT(name##__path == 0 || name##__X * name##__Y * name##__Z <= 256, \
                        "tile.h: tile_matmul_acc: more than 256 accumulators a thread (more threads or a smaller M x N)"); \
    struct {                                                                       \
        name##__at v[name##__X][name##__Y][name##__Z];                             \
    } name;                                                                        \
    tile__mma_use(&(a)), tile__mma_use(&(b)); /* read for their shapes only */    \
    tile_matmul_acc_zero(name)

#define tile_matmul_acc_zero(acc)                                                  \
    do {                                                                           \
        TILE__UNROLL for (int tile__t = 0; tile__t < acc##__X; ++tile__t)          \
            TILE__UNROLL for (int tile__y = 0; tile__y < acc##__Y; ++tile__y)      \
                TILE__UNROLL for (int tile__z = 0; tile__z < acc##__Z; ++tile__z)  \
                    (acc).v[tile__t][tile__y][tile__z] = 0;                        \
    } while (0)

/* TILE_MATMUL_ACC_PREFETCH (default 0; define 1 before <tile.h>, or between
 * kernels: read where tile_matmul_acc_add expands): the mma accumulator's
 * k16 loop with its fragments double-buffered by hand (ldmatrix path):
 * step k + 16's ldmatrix are issued before step k's mma, two register sets
 * (RM * 4 + RN * 2 words each) alternating; TILE_MATMUL_ACC_UNROLL is not
 * read then. */
#ifndef TILE_MATMUL_ACC_PREFETCH
#define TILE_MATMUL_ACC_PREFETCH 0
#endif
/* ldmatrix of one k16 step's fragments (tile__la, tile__lb from
 * TILE__MM_TC16_LM; m0, n0, sa0, sb0 from the caller) */
#define TILE__MM_TC16_LDF(RM, RN, fa, fb, k0)                                      \
    do {                                                                           \
        TILE__UNROLL for (int i = 0; i < (RM); ++i)                                \
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" \
                         : "=r"(fa[i][0]), "=r"(fa[i][1]), "=r"(fa[i][2]), "=r"(fa[i][3]) \
                         : "r"(tile__la + 2u * (uint32_t)((m0 + 16 * i) * sa0 + (k0))) \
                         : "memory");                                              \
        TILE__UNROLL for (int j = 0; j < (RN) / 2; ++j)                            \
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" \
                         : "=r"(fb[2 * j][0]), "=r"(fb[2 * j][1]), "=r"(fb[2 * j + 1][0]), "=r"(fb[2 * j + 1][1]) \
                         : "r"(tile__lb + 2u * (uint32_t)((k0) * sb0 + n0 + 16 * j)) \
                         : "memory");                                              \
    } while (0)
#define TILE__MM_TC16_MMAS(RM, RN, d, fa, fb)                                      \
    TILE__UNROLL for (int i = 0; i < (RM); ++i)                                    \
        TILE__UNROLL for (int j = 0; j < (RN); ++j) { TILE__MM_MMA16(d[i][j], fa[i], fb[j]); }
/* the k loop with prefetched fragments: set 0 holds steps k0, k0 + 32, ..,
 * set 1 steps k0 + 16, ..; K a multiple of 16 (the ldmatrix condition) */
#define TILE__MM_TC16_KP(RM, RN, d)                                                \
    do {                                                                           \
        if (tile__lm) {                                                            \
            uint32_t fa0[RM][4], fb0[RN][2], fa1[RM][4], fb1[RN][2];               \
            TILE__MM_TC16_LDF(RM, RN, fa0, fb0, 0);                                \
            _Pragma("unroll 1") for (int k0 = 0; k0 + 32 <= K; k0 += 32) {         \
                TILE__MM_TC16_LDF(RM, RN, fa1, fb1, k0 + 16);                      \
                TILE__MM_TC16_MMAS(RM, RN, d, fa0, fb0)                            \
                if (k0 + 32 < K) TILE__MM_TC16_LDF(RM, RN, fa0, fb0, k0 + 32);     \
                TILE__MM_TC16_MMAS(RM, RN, d, fa1, fb1)                            \
            }                                                                      \
            if (K % 32 == 16) { TILE__MM_TC16_MMAS(RM, RN, d, fa0, fb0) }          \
        } else {                                                                   \
            TILE__MM_TC16_K(RM, RN, d, );                                          \
        }                                                                          \
    } while (0)
/* one warp tile u (warp-uniform) of the mma layout: acc (its v[t]) += a @ b
 * (PF: the prefetching k loop) */
#define TILE__MMA_TC16(RM_, RN_, UNROLL, PF)                                       \
    do {                                                                           \
        const int tile__ntw = (N + 8 * (RN_)-1) / (8 * (RN_));                     \
        if (u < ((M + 16 * (RM_)-1) / (16 * (RM_))) * tile__ntw) {                 \
            TILE__MM_TC16_LM(RM_, RN_);                                            \
            const int m0 = u / tile__ntw * (16 * (RM_)), n0 = u % tile__ntw * (8 * (RN_)); \
            float(*d)[RN_][4] = (float(*)[RN_][4])(void *)acc;                     \
            if (PF)                                                                \
                TILE__MM_TC16_KP(RM_, RN_, d);                                     \
            else                                                                   \
                TILE__MM_TC16_K(RM_, RN_, d, UNROLL);                              \
        }                                                                          \
    } while (0)
/* tile__mma_tc16_u<n>: the k16 loop unrolled n (TILE_MATMUL_ACC_UNROLL, read
 * where tile_matmul_acc_add expands: a function per value, so kernels of one
 * translation unit may differ; only the ones called are compiled) */
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
#define TILE__MMA_TC16_FN(n) TILE__MMA_TC16_FN_(u##n, TILE__MMA_PRAGMA(unroll n), 0)
#define TILE__MMA_TC16_FN_(sfx, UNR, PF)                                           \
    TILE_API void tile__mma_tc16_##sfx(float *acc, const void *pav, int sa0, int sa1, const void *pbv, int sb0, \
                                       int sb1, int M, int N, int K, int u, int kind, int RM, int RN) { \
        const int lane = (int)(threadIdx.x & 31u), g = lane >> 2, q = lane & 3;    \
        const uint16_t *pa = (const uint16_t *)pav, *pb = (const uint16_t *)pbv;   \
        const int a32 = sa1 == 1 && sa0 % 2 == 0 && K % 2 == 0 && ((uintptr_t)pa & 3u) == 0; \
        if (RM == 4 && RN == 8)                                                    \
            TILE__MMA_TC16(4, 8, UNR, PF);                                         \
        else if (RM == 4 && RN == 4)                                               \
            TILE__MMA_TC16(4, 4, UNR, PF);                                         \
        else if (RM == 2 && RN == 4)                                               \
            TILE__MMA_TC16(2, 4, UNR, PF);                                         \
        else if (RM == 1 && RN == 4)                                               \
            TILE__MMA_TC16(1, 4, UNR, PF);                                         \
        else if (RM == 1 && RN == 2)                                               \
            TILE__MMA_TC16(1, 2, UNR, PF);                                         \
        else                                                                       \
            TILE__MMA_TC16(1, 1, UNR, PF);                                         \
    }
#else
#define TILE__MMA_TC16_FN(n) TILE__MMA_TC16_FN_(u##n, , 0)
#define TILE__MMA_TC16_FN_(sfx, UNR, PF)                                           \
    TILE_API void tile__mma_tc16_##sfx(float *acc, const void *pav, int sa0, int sa1, const void *pbv, int sb0, \
                                       int sb1, int M, int N, int K, int u, int kind, int RM, int RN) { \
        (void)acc, (void)pav, (void)sa0, (void)sa1, (void)pbv, (void)sb0, (void)sb1, (void)M, (void)N, (void)K; \
        (void)u, (void)kind, (void)RM, (void)RN;                                   \
    }
#endif
TILE__MMA_TC16_FN(1)
TILE__MMA_TC16_FN(2)
TILE__MMA_TC16_FN(4)
TILE__MMA_TC16_FN(8)
TILE__MMA_TC16_FN_(pf, , 1) /* TILE_MATMUL_ACC_PREFETCH 1 */
#define TILE__MMA_CAT_(a, b) a##b
#define TILE__MMA_CAT(a, b) TILE__MMA_CAT_(a, b)
/* the k loop's function: tile__mma_tc16_p1 (prefetch) or, for
 * TILE_MATMUL_ACC_PREFETCH 0, tile__mma_tc16_u<TILE_MATMUL_ACC_UNROLL> */
#define TILE__MMA_CAT2_(a, b) a##b
#define TILE__MMA_CAT2(a, b) TILE__MMA_CAT2_(a, b) /* not TILE__MMA_CAT: expanded inside it */
#define tile__mma_tc16_p0 TILE__MMA_CAT2(tile__mma_tc16_u, TILE_MATMUL_ACC_UNROLL)
#define tile__mma_tc16_p1 tile__mma_tc16_pf
/* the FMA layout: tile_matmul's micro-tiles, summed into acc.v[uu] */
#define TILE__MMA_FMA(acc, pa, SA0, SA1, pb, SB0, SB1, K_)                         \
    do {                                                                           \
        enum {                                                                     \
            tile__TM = acc##__Y, tile__TN = acc##__Z, tile__NT = (acc##__N + tile__TN - 1) / tile__TN, \
            tile__NU = ((acc##__M + tile__TM - 1) / tile__TM) * tile__NT,          \
            tile__V = 16 / (int)sizeof(acc##__at),                                 \
            tile__VEC = sizeof(*(pa)) == sizeof(acc##__at) && (SA1) == 1 && (SA0) % tile__V == 0 && (K_) % tile__V == 0, \
            tile__B4V = acc##__b4 && (SB1) == 1 && (SB0) % tile__V == 0,           \
            tile__VECM = TILE__MM_VECM(sizeof(*(pa)) == sizeof(acc##__at), SA0, SA1, acc##__M, tile__TM, tile__V), \
            tile__A16 = TILE_MATMUL_ACC_A16                                        \
        };                                                                         \
        TILE__UNROLL for (int tile__uu = 0; tile__uu < acc##__X; ++tile__uu) {     \
            const int tile__u = tile_thread() + tile__uu * acc##__bd;              \
            if (tile__NU % acc##__bd == 0 || tile__u < tile__NU) {                 \
                const int tile__i0 = tile__u / tile__NT * tile__TM, tile__j0 = tile__u % tile__NT; \
                int tile__ao[tile__TM], tile__bo[tile__TN];                        \
                TILE__UNROLL for (int tile__r = 0; tile__r < tile__TM; ++tile__r) { \
                    const int tile__i = tile__i0 + tile__r;                        \
                    tile__ao[tile__r] = (tile__i < acc##__M ? tile__i : acc##__M - 1) * (SA0); \
                }                                                                  \
                TILE__UNROLL for (int tile__c = 0; tile__c < tile__TN; ++tile__c) { \
                    const int tile__j = TILE__MM_COL(tile__j0, tile__c, tile__NT, acc##__b4, tile__V); \
                    tile__bo[tile__c] = (tile__j < acc##__N ? tile__j : acc##__N - 1) * (SB1); \
                }                                                                  \
                TILE__MM_FMA_K(acc##__at, (acc).v[tile__uu], pa, SA1, pb, SB0, K_, TILE__MM_NOROUND, TILE__MMA_UNROLL_K); \
            }                                                                      \
        }                                                                          \
    } while (0)
#if TILE_ON_DEVICE
#define TILE__MMA_ADD(acc, a, b)                                                   \
    if (acc##__path == 2) {                                                        \
        TILE__UNROLL for (int tile__t = 0; tile__t < acc##__X; ++tile__t)          \
            TILE__MMA_CAT(tile__mma_tc16_p, TILE_MATMUL_ACC_PREFETCH)((float *)(void *)&(acc).v[tile__t][0][0], (const void *)(a).v, TILE__S0(a), TILE__S1(a), \
                           (const void *)(b).v, TILE__S0(b), TILE__S1(b), acc##__M, acc##__N, TILE__D1(a), \
                           (int)(threadIdx.x >> 5) + tile__t * acc##__nw, acc##__bf, acc##__rm, acc##__rn); \
    } else {                                                                       \
        TILE__MMA_FMA(acc, (a).v, TILE__S0(a), TILE__S1(a), (b).v, TILE__S0(b), TILE__S1(b), TILE__D1(a)); \
    }
/* TILE_MATMUL_ACC_VST (default 0; define 1 before <tile.h>, or between
 * kernels: read where tile_matmul_acc_store expands): on the GPU the
 * accumulator store writes whole vectors where they lie inside the array and
 * are aligned (rows contiguous): the mma layout's column pairs as 8 bytes,
 * the FMA layout's runs of 16 / sizeof(acc) columns (its B4 mapping) as 16
 * bytes; elsewhere, and on the CPU, element by element. The same values. */
#ifndef TILE_MATMUL_ACC_VST
#define TILE_MATMUL_ACC_VST 0
#endif
#if TILE_ON_DEVICE
/* index z of a run, kept inside the micro-tile (runs of 2 f64 name z + 2,
 * z + 3 in the shared call below; they are not stored) */
#define TILE__MMA_ZI(acc, z) ((z) < acc##__Z ? (z) : acc##__Z - 1)
/* *p.. = al * x.. (+ be * *p..): one 8- or 16-byte store. Overloads on the
 * accumulator's type (device code is C++; the f32 and f64 forms are one call
 * in the store macro, only one of them is reached) */
TILE_API void tile__mma_st2(float *p, float x0, float x1, float al, float be) {
    float2 v = make_float2(al * x0, al * x1);
    if (be != 0.0f) {
        const float2 o = *(const float2 *)(const void *)p;
        v.x += be * o.x, v.y += be * o.y;
    }
    *(float2 *)(void *)p = v;
}
TILE_API void tile__mma_st2(double *p, double x0, double x1, double al, double be) {
    double2 v = make_double2(al * x0, al * x1);
    if (be != 0.0) {
        const double2 o = *(const double2 *)(const void *)p;
        v.x += be * o.x, v.y += be * o.y;
    }
    *(double2 *)(void *)p = v;
}
TILE_API void tile__mma_st16(float *p, float x0, float x1, float x2, float x3, float al, float be) {
    float4 v = make_float4(al * x0, al * x1, al * x2, al * x3);
    if (be != 0.0f) {
        const float4 o = *(const float4 *)(const void *)p;
        v.x += be * o.x, v.y += be * o.y, v.z += be * o.z, v.w += be * o.w;
    }
    *(float4 *)(void *)p = v;
}
TILE_API void tile__mma_st16(double *p, double x0, double x1, double x2, double x3, double al, double be) {
    (void)x2, (void)x3; /* 16 bytes are two f64 */
    tile__mma_st2(p, x0, x1, al, be);
}
#endif
/* the calling thread's share of the store: rows below rl, columns below cl
 * (the array's edge or the accumulator's, whichever is first); row pointers
 * once per row, so few addresses stay live */
#define TILE__MMA_STORE(acc, cp, st0, st1, co0, co1, rl, cl)                      \
    if (acc##__path == 2) {                                                        \
        const int tile__l = (int)(threadIdx.x & 31u);                              \
        TILE__UNROLL for (int tile__t = 0; tile__t < acc##__X; ++tile__t) {        \
            const int tile__w = (int)(threadIdx.x >> 5) + tile__t * acc##__nw;     \
            if (tile__w < acc##__ntile) {                                          \
                const int64_t tile__R0 = (co0) + tile__w / acc##__ntw * (16 * acc##__rm) + (tile__l >> 2); \
                const int64_t tile__C0 = (co1) + tile__w % acc##__ntw * (8 * acc##__rn) + 2 * (tile__l & 3); \
                TILE__UNROLL for (int tile__y = 0; tile__y < 2 * acc##__rm; ++tile__y) { \
                    const int64_t tile__R = tile__R0 + 8 * tile__y; /* rows g, g + 8 of 16 x 8 step y / 2 */ \
                    if (tile__R >= 0 && tile__R < (rl)) {                          \
                        acc##__at *const tile__row = (cp) + tile__R * (st0);       \
                        TILE__UNROLL for (int tile__z = 0; tile__z < 2 * acc##__rn; ++tile__z) { \
                            const int64_t tile__C = tile__C0 + 8 * (tile__z / 2) + tile__z % 2; \
                            /* TILE_MATMUL_ACC_VST: the pair (C, C + 1) (z even, \
                             * z + 1) as one 8-byte store where it lies inside  \
                             * and aligned; z odd then has nothing left to do */ \
                            const int64_t tile__Cb = tile__C - tile__z % 2;        \
                            if (TILE_MATMUL_ACC_VST && (st1) == 1 && tile__Cb >= 0 && tile__Cb + 1 < (cl) && \
                                ((uintptr_t)(tile__row + tile__Cb) & 7u) == 0) {   \
                                if (tile__z % 2 == 0)                              \
                                    tile__mma_st2(tile__row + tile__Cb,            \
                                                  (acc).v[tile__t][tile__y / 2][tile__z / 2 * 4 + tile__y % 2 * 2], \
                                                  (acc).v[tile__t][tile__y / 2][tile__z / 2 * 4 + tile__y % 2 * 2 + 1], \
                                                  tile__al, tile__be);             \
                            } else if (tile__C >= 0 && tile__C < (cl))             \
                                TILE__MMA_ST1(acc, tile__row + tile__C * (st1),    \
                                              (acc).v[tile__t][tile__y / 2][tile__z / 2 * 4 + tile__y % 2 * 2 + tile__z % 2]); \
                        }                                                          \
                    }                                                              \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    } else {                                                                       \
        TILE__UNROLL for (int tile__t = 0; tile__t < acc##__X; ++tile__t) {        \
            const int tile__u = tile_thread() + tile__t * acc##__bd;               \
            if (acc##__nu % acc##__bd == 0 || tile__u < acc##__nu) {               \
                const int64_t tile__R0 = (co0) + tile__u / acc##__nt * acc##__tm; \
                const int tile__j0 = tile__u % acc##__nt;                          \
                TILE__UNROLL for (int tile__y = 0; tile__y < acc##__Y; ++tile__y) { \
                    const int64_t tile__R = tile__R0 + tile__y;                    \
                    if (tile__R >= 0 && tile__R < (rl)) {                          \
                        acc##__at *const tile__row = (cp) + tile__R * (st0);       \
                        TILE__UNROLL for (int tile__z = 0; tile__z < acc##__Z; ++tile__z) { \
                            const int64_t tile__C = (co1) + TILE__MM_COL(tile__j0, tile__z, acc##__nt, acc##__b4, acc##__v); \
                            /* TILE_MATMUL_ACC_VST: a run of v columns (B4     \
                             * mapping: z = v h + e, consecutive columns) as    \
                             * one 16-byte store from its first z where it lies \
                             * inside and aligned; the others of the run then   \
                             * have nothing left to do */                       \
                            const int64_t tile__Cb = (co1) + TILE__MM_COL(tile__j0, tile__z - tile__z % acc##__v, acc##__nt, acc##__b4, acc##__v); \
                            if (TILE_MATMUL_ACC_VST && acc##__b4 && (st1) == 1 && tile__Cb >= 0 && \
                                tile__Cb + acc##__v <= (cl) && ((uintptr_t)(tile__row + tile__Cb) & 15u) == 0) { \
                                if (tile__z % acc##__v == 0)                       \
                                    tile__mma_st16(tile__row + tile__Cb, (acc).v[tile__t][tile__y][tile__z], \
                                                   (acc).v[tile__t][tile__y][TILE__MMA_ZI(acc, tile__z + 1)], \
                                                   (acc).v[tile__t][tile__y][TILE__MMA_ZI(acc, tile__z + 2)], \
                                                   (acc).v[tile__t][tile__y][TILE__MMA_ZI(acc, tile__z + 3)], \
                                                   tile__al, tile__be);            \
                            } else if (tile__C >= 0 && tile__C < (cl))             \
                                TILE__MMA_ST1(acc, tile__row + tile__C * (st1), (acc).v[tile__t][tile__y][tile__z]); \
                        }                                                          \
                    }                                                              \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    }
#else
#define TILE__MMA_ADD(acc, a, b)                                                   \
    for (int tile__i = 0; tile__i < acc##__M; ++tile__i)                           \
        for (int tile__j = 0; tile__j < acc##__N; ++tile__j) {                     \
            acc##__at tile__s = (acc).v[0][tile__i][tile__j];                      \
            for (int tile__kk = 0; tile__kk < TILE__D1(a); ++tile__kk)             \
                tile__s += (acc##__at)TILE__MM_CVT((a).v[tile__i * TILE__S0(a) + tile__kk * TILE__S1(a)]) * \
                           (acc##__at)TILE__MM_CVT((b).v[tile__kk * TILE__S0(b) + tile__j * TILE__S1(b)]); \
            (acc).v[0][tile__i][tile__j] = tile__s;                                \
        }
#define TILE__MMA_STORE(acc, cp, st0, st1, co0, co1, rl, cl)                      \
    for (int tile__y = 0; tile__y < acc##__M; ++tile__y)                           \
        for (int tile__z = 0; tile__z < acc##__N; ++tile__z) {                     \
            const int64_t tile__R = (co0) + tile__y, tile__C = (co1) + tile__z;    \
            if (tile__R >= 0 && tile__R < (rl) && tile__C >= 0 && tile__C < (cl))  \
                TILE__MMA_ST1(acc, (cp) + tile__R * (st0) + tile__C * (st1), (acc).v[0][tile__y][tile__z]); \
        }
#endif

#define tile_matmul_acc_add(acc, a, b)                                             \
    do {                                                                           \
        TILE__MMA_SHAPES(a, b);                                                    \
        TILE__STATIC_ASSERT(tile_is_shared(a) && tile_is_shared(b),                \
                            "tile.h: tile_matmul_acc_add reads shared tiles a and b"); \
        TILE__STATIC_ASSERT(TILE__D0(a) == acc##__M && TILE__D1(b) == acc##__N,    \
                            "tile.h: tile_matmul_acc_add: a @ b is not the accumulator's shape"); \
        TILE__STATIC_ASSERT((int)sizeof((a).v[0]) == acc##__es && TILE__MM_ISBF16(a) == acc##__bf && \
                                TILE__BD(a) == acc##__bd,                          \
                            "tile.h: tile_matmul_acc_add: a and b are not the inputs the accumulator was declared for"); \
        TILE__MMA_ADD(acc, a, b);                                                  \
    } while (0)

/* one element: *p = alpha * x (+ beta * *p) */
#define TILE__MMA_ST1(acc, p, x)                                                   \
    do {                                                                           \
        acc##__at tile__x = tile__al * (x);                                        \
        if (tile__be != 0) tile__x += tile__be * *(p);                             \
        *(p) = tile__x;                                                            \
    } while (0)
/* On the device: values that the compiler must not compute before this
 * point. The store's addresses depend only on the block and thread, so it
 * would otherwise hoist them above the k loop, where they stay live next to
 * every accumulator (80 more registers, spills). */
#if TILE_ON_DEVICE
#define TILE__MMA_OPAQUE(a, b, c) asm volatile("" : "+l"(a), "+l"(b), "+l"(c))
#define TILE__MM_OPAQUE_I(i) asm volatile("" : "+r"(i))
#define TILE__MM_NOUNROLL _Pragma("unroll 1")
#else
#define TILE__MMA_OPAQUE(a, b, c) ((void)0)
#define TILE__MM_OPAQUE_I(i) ((void)0)
#define TILE__MM_NOUNROLL
#endif
#define tile_matmul_acc_store_ab(arr, acc, alpha, beta, o0, o1)                    \
    do {                                                                           \
        const tile_array tile__ca = (arr);                                         \
        TILE__CHECK(tile__ca.ndim == 2, "tile_matmul_acc_store: the array must be 2D; dims", tile__ca.ndim, 2, 3); \
        const acc##__at tile__al = (acc##__at)(alpha), tile__be = (acc##__at)(beta); \
        int64_t tile__co0 = (o0), tile__co1 = (o1);                                \
        uint64_t tile__cpa = (uint64_t)(uintptr_t)((acc##__at *)tile__ca.ptr + tile__ca.base_off); \
        TILE__MMA_OPAQUE(tile__cpa, tile__co0, tile__co1);                         \
        acc##__at *const tile__cp = (acc##__at *)(uintptr_t)tile__cpa;             \
        const int64_t tile__rl = tile__ca.shape[0] < tile__co0 + acc##__M ? tile__ca.shape[0] : tile__co0 + acc##__M; \
        const int64_t tile__cl = tile__ca.shape[1] < tile__co1 + acc##__N ? tile__ca.shape[1] : tile__co1 + acc##__N; \
        TILE__MMA_STORE(acc, tile__cp, tile__ca.stride[0], tile__ca.stride[1], tile__co0, tile__co1, tile__rl, tile__cl); \
    } while (0)
#define tile_matmul_acc_store(arr, acc, o0, o1) tile_matmul_acc_store_ab(arr, acc, 1, 0, o0, o1)

/* Rows of 16-byte multiples, 16-byte aligned in global and shared memory,
 * the window inside arr: one 16-byte cp.async per chunk of a row, whatever
 * the shared row stride (tile_load_async's 16-byte path needs a contiguous
 * tile); on the CPU and before sm_80 the same copies, synchronous. Shared
 * rows that are not 16-byte chunks (e.g. a k-major operand: the
 * tile_transpose_view of a K x M tile) of 4- or 8-byte elements, the window
 * inside arr: one 4- or 8-byte cp.async an element. Else
 * (edges, odd strides, a 1D or 3D arr) a synchronous copy element by element
 * with zeros outside arr: little code, so the kernel's registers go to the
 * product. Like tile_load_async: begins with a block barrier, the data is
 * there after the tile_async_wait that covers the group (a plain barrier
 * suffices only for the synchronous copies: read it after the wait). */
#define tile_matmul_load_async(s, arr, o0, o1) TILE__MM_LOAD_ASYNC(s, arr, o0, o1, 1)
/* tile_matmul_load_async without its leading block barrier: for pipelines
 * whose one barrier a k window (the tile_async_wait before the product)
 * already orders the copy after every read of s's previous contents. With
 * STAGES stages: wait for window k (tile_async_wait(STAGES - 2), a barrier),
 * then issue window k + STAGES - 1 into the stage window k - 1 used (all its
 * readers passed the barrier), commit, multiply window k.
 * Suppose stage 2 of 3 held window k - 1 and every thread has passed the
 * barrier of tile_async_wait after its product: then
 *   tile_matmul_load_async_nosync(a_win2, A, i0, (k + 2) * BK)
 * starts window k + 2's copy there at once. */
#define tile_matmul_load_async_nosync(s, arr, o0, o1) TILE__MM_LOAD_ASYNC(s, arr, o0, o1, 0)
#define TILE__MM_LOAD_ASYNC(s, arr, o0, o1, BAR)                                   \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_is_shared(s) && tile_ndim(s) == 2,                \
                            "tile.h: tile_matmul_load_async needs a 2D shared tile"); \
        const tile_array tile__ma = (arr);                                         \
        const int64_t tile__mo[4] = {(o0), (o1), 0, 0};                            \
        enum {                                                                     \
            tile__mrb = TILE__D1(s) * TILE__ESIZE(s), tile__mch = tile__mrb / 16,  \
            tile__mct = tile__mrb % 16 == 0 && (TILE__S0(s) * TILE__ESIZE(s)) % 16 == 0 && TILE__S1(s) == 1, \
            /* rows that are not 16-byte chunks (a k-major view: strides   \
             * (1, ld)) of 4- or 8-byte elements: one cp.async an element */ \
            tile__mel = !tile__mct && (TILE__ESIZE(s) == 4 || TILE__ESIZE(s) == 8)   \
        };                                                                         \
        const int64_t tile__mb = TILE__BASE(tile__ma, tile__mo);                   \
        /* the thread index, opaque: what derives from it is computed here, \
         * not hoisted out of the caller's k loop next to its accumulators  \
         * (60 registers in a 2-blocks-an-SM GEMM, which then spilled) */     \
        int tile__mt = tile_thread();                                              \
        TILE__MM_OPAQUE_I(tile__mt);                                               \
        if (tile__mct && tile__ma.ndim == 2 &&                                     \
            tile__inside(&tile__ma, tile__mo, TILE__D0(s), TILE__D1(s), 1, 1) &&   \
            tile__vec_strides(&tile__ma, 2, TILE__ESIZE(s)) &&                     \
            (((uintptr_t)tile__ma.ptr + (uintptr_t)(tile__mb * TILE__ESIZE(s))) | (uintptr_t)(const void *)(s).v) % \
                    16u ==                                                         \
                0) {                                                               \
            if (BAR) tile_barrier(); /* nobody still reads the destination */     \
            for (int tile__i = tile__mt; tile__i < TILE__D0(s) * tile__mch; tile__i += TILE__BD(s)) { \
                const int tile__r = tile__i / tile__mch, tile__c = tile__i % tile__mch; \
                tile__cp_async16((char *)(void *)((s).v + tile__r * TILE__S0(s)) + 16 * tile__c, \
                                 (const char *)tile__ma.ptr +                      \
                                     (tile__mb + tile__r * tile__ma.stride[0]) * TILE__ESIZE(s) + 16 * tile__c); \
            }                                                                      \
        } else if (tile__mel && tile__ma.ndim == 2 &&                              \
                   tile__inside(&tile__ma, tile__mo, TILE__D0(s), TILE__D1(s), 1, 1) && \
                   ((uintptr_t)tile__ma.ptr + (uintptr_t)(tile__mb * TILE__ESIZE(s))) % TILE__ESIZE(s) == 0) { \
            /* inside: a cp.async of 4 or 8 bytes an element, element i of  \
             * the window by thread i mod block (consecutive threads,        \
             * consecutive columns of arr: coalesced when its rows are) */   \
            /* a thread's elements: column c = t % D1 of rows t / D1 + j RS \
             * (RS = block / D1 rows a pass, NR passes): one address each, \
             * then constant steps (a k-major 128 x 16 window, 256 threads: \
             * 8 copies, no division) */                                    \
            enum { tile__mrs = TILE__BD(s) / TILE__D1(s) > 0 ? TILE__BD(s) / TILE__D1(s) : 1, \
                   tile__mnr = (TILE__D0(s) + tile__mrs - 1) / tile__mrs };        \
            if (BAR) tile_barrier(); /* nobody still reads the destination */     \
            if (TILE__BD(s) % TILE__D1(s) == 0 && tile__mnr <= 32) {               \
                const int tile__c = tile__mt % TILE__D1(s), tile__r0 = tile__mt / TILE__D1(s); \
                const char *tile__src = (const char *)tile__ma.ptr +               \
                                        (tile__mb + tile__r0 * tile__ma.stride[0] + tile__c * tile__ma.stride[1]) * TILE__ESIZE(s); \
                const int64_t tile__sst = (int64_t)tile__mrs * tile__ma.stride[0] * TILE__ESIZE(s); \
                char *tile__dst = (char *)(void *)((s).v + tile__r0 * TILE__S0(s) + tile__c * TILE__S1(s)); \
                TILE__UNROLL for (int tile__j = 0; tile__j < tile__mnr; ++tile__j) \
                    if (TILE__D0(s) % tile__mrs == 0 || tile__r0 + tile__j * tile__mrs < TILE__D0(s)) { \
                        char *const tile__d = tile__dst + tile__j * tile__mrs * TILE__S0(s) * TILE__ESIZE(s); \
                        if (TILE__ESIZE(s) == 4)                                   \
                            tile__cp_async4(tile__d, tile__src + tile__j * tile__sst); \
                        else                                                       \
                            tile__cp_async8(tile__d, tile__src + tile__j * tile__sst); \
                    }                                                              \
            } else                                                                 \
            TILE__MM_NOUNROLL for (int tile__i = tile__mt; tile__i < TILE__D0(s) * TILE__D1(s); tile__i += TILE__BD(s)) { \
                const int tile__r = tile__i / TILE__D1(s), tile__c = tile__i % TILE__D1(s); \
                const char *tile__src = (const char *)tile__ma.ptr +               \
                                        (tile__mb + tile__r * tile__ma.stride[0] + tile__c * tile__ma.stride[1]) * TILE__ESIZE(s); \
                void *tile__dst = (void *)((s).v + tile__r * TILE__S0(s) + tile__c * TILE__S1(s)); \
                if (TILE__ESIZE(s) == 4)                                           \
                    tile__cp_async4(tile__dst, tile__src);                         \
                else                                                               \
                    tile__cp_async8(tile__dst, tile__src);                         \
            }                                                                      \
        } else { /* edges: element by element, zeros outside (synchronous) */    \
            typedef TILE_ELEM_T(s) tile__ME;                                       \
            const tile__ME *const tile__mp = (const tile__ME *)tile__ma.ptr + tile__ma.base_off; \
            if (BAR) tile_barrier(); /* nobody still reads the destination */     \
            TILE__MM_NOUNROLL for (int tile__i = tile__mt; tile__i < TILE__D0(s) * TILE__D1(s); tile__i += TILE__BD(s)) { \
                const int tile__r = tile__i / TILE__D1(s), tile__c = tile__i % TILE__D1(s); \
                const int64_t tile__R = tile__mo[0] + tile__r, tile__C = tile__mo[1] + tile__c; \
                tile__ME tile__x;                                                  \
                if (tile__ma.ndim == 2 && tile__R >= 0 && tile__R < tile__ma.shape[0] && tile__C >= 0 && \
                    tile__C < tile__ma.shape[1])                                   \
                    tile__x = tile__mp[tile__R * tile__ma.stride[0] + tile__C * tile__ma.stride[1]]; \
                else                                                               \
                    memset(&tile__x, 0, sizeof tile__x);                           \
                (s).v[tile__r * TILE__S0(s) + tile__c * TILE__S1(s)] = tile__x;    \
            }                                                                      \
        }                                                                          \
    } while (0)

#endif /* TILE_MATMUL_H */
