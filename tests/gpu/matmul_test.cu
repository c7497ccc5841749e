/* tests/gpu/matmul_test.cu - tile_matmul (include/tile/matmul.h) on the GPU
 * and on the CPU target of the same nvcc build, plus the f16/bf16 conversions
 * of include/tile/half.h on the device against CUDA's own intrinsics.
 *
 *   matmul_test             GPU 0 (when there is one), then the CPU target
 *   matmul_test --cpu-only  the CPU target only
 *   matmul_test --quick     a third of the kernels, one alpha/beta case (for
 *                           compute-sanitizer); combines with --cpu-only
 *
 * Each kernel loads a (M x K), b (K x N) and c (M x N), computes
 * c = alpha * a @ b + beta * c with register/shared mixes and stores c.
 * Shapes 1x1x1 .. 128x64x64 (that one: 64x32 warp tiles, ldmatrix from the
 * padded staging) and odd ones, blocks of 32, 64, 96 and 128
 * threads (96: FMA only, not whole... it is whole warps; 48: not a multiple of
 * 32, so 16-bit inputs take the FMA path on the GPU too); f32, f64, f32->f64,
 * f16 and bf16 (tensor cores on sm_80+), tf32. Inputs are quarters in
 * [-8, 8): exact in every input type, so every product is exact and only the
 * f32/f64 summation order differs: each element is checked against a double
 * reference within 1e-6 (f32) / 1e-14 (f64) of sum |a b| + |beta c| + 1, and
 * the GPU run against the CPU run within the same bound. beta = 0 runs start
 * from a NaN c (out must not be read). Conversions: all 65536 bit patterns of
 * f16 and bf16 to f32 against __half2float / __bfloat162float, and 2^22
 * pseudo-random floats to f16/bf16 against __float2half_rn /
 * __float2bfloat16_rn (NaN excepted: CUDA canonicalizes NaN, tile.h keeps
 * sign and payload), device bits equal host bits.
 * Accumulators (tile_matmul_acc, _add, _store_ab, tile_matmul_load_async):
 * eighteen kernels that sum a @ b over k windows (ACC_LIST says which GPU layout
 * each reaches: mma warp tiles 4x8 .. 1x2 with ldmatrix or scalar fragments,
 * FMA micro-tiles (one with TILE_MATMUL_ACC_A16 0 and 2 blocks an SM asked
 * for), f64, 16-bit inputs on FMA; ACCP_LIST: the one-barrier pipeline with
 * tile_matmul_load_async_nosync and TILE_MATMUL_ACC_VST's vector stores,
 * A k-major through tile_transpose_view, mma fragments prefetched, 16x8
 * FMA micro-tiles),
 * stored with alpha/beta into a
 * C partly outside the product and partly outside the array; checked as
 * above, and C's other elements unchanged.
 */
#include <math.h>
#include "gpu_check.h"

#define DECL_R(T, n, ...) tile_reg(T, n, __VA_ARGS__)
#define DECL_S(T, n, ...) tile_shared(T, n, __VA_ARGS__)
#define MMK(name, BD, T, OT, M, K, N, SA, SB, SO, TF)                              \
    TILE_KERNEL_SMEM(name, BD, 2 * TILE_MATMUL_SMEM_BYTES(T, OT, M, N, K), const T *a, const T *b, OT *c, \
                     OT alpha, OT beta) {                                          \
        DECL_##SA(T, ta, M, K);                                                    \
        DECL_##SB(T, tb, K, N);                                                    \
        DECL_##SO(OT, tc, M, N);                                                   \
        const int tile__blk = tile_block(0);                                       \
        tile_load(ta, tile_array2(a + (size_t)tile__blk * M * K, M, K), 0, 0);     \
        tile_load(tb, tile_array2(b + (size_t)tile__blk * K * N, K, N), 0, 0);     \
        tile_load(tc, tile_array2(c + (size_t)tile__blk * M * N, M, N), 0, 0);     \
        MM_CALL_##TF(tc, ta, tb, alpha, beta);                                     \
        tile_store(tile_array2(c + (size_t)tile__blk * M * N, M, N), tc, 0, 0);    \
    }
#define MM_CALL_0(o, a, b, al, be) tile_matmul_ab(o, a, b, al, be)
#define MM_CALL_1(o, a, b, al, be) tile_matmul_tf32_ab(o, a, b, al, be)

enum { T_F32, T_F64, T_F16, T_BF16 };
#define TY_float T_F32
#define TY_double T_F64
#define TY_tile_f16 T_F16
#define TY_tile_bf16 T_BF16
/* name, block, in type, out type, M, K, N, storages, tf32 */
#define MM_LIST(X)                                                                 \
    X(k_f32_1x1x1, 32, float, float, 1, 1, 1, R, R, R, 0)                          \
    X(k_f32_3x5x7, 64, float, float, 3, 5, 7, R, R, R, 0)                          \
    X(k_f32_17x33x9, 64, float, float, 17, 33, 9, R, S, R, 0)                      \
    X(k_f32_17x33x9s, 96, float, float, 17, 33, 9, S, R, S, 0)                     \
    X(k_f32_56x48x20, 64, float, float, 56, 48, 20, R, R, S, 0)                    \
    X(k_f32_64x64x64, 256, float, float, 64, 64, 64, S, S, S, 0)                   \
    X(k_f32_64x64x64r, 128, float, float, 64, 64, 64, R, R, R, 0)                  \
    X(k_f32_8x8x4, 64, float, float, 8, 8, 4, R, R, R, 0)                          \
    X(k_f32_48x20x40, 48, float, float, 48, 20, 40, S, S, R, 0)                    \
    X(k_f64_3x5x7, 32, double, double, 3, 5, 7, R, R, R, 0)                        \
    X(k_f64_17x33x9, 64, double, double, 17, 33, 9, S, S, R, 0)                    \
    X(k_f64_32x32x32, 128, double, double, 32, 32, 32, R, S, S, 0)                 \
    X(k_f32f64_5x6x7, 64, float, double, 5, 6, 7, R, R, R, 0)                      \
    X(k_f16_1x1x1, 32, tile_f16, float, 1, 1, 1, R, R, R, 0)                       \
    X(k_f16_17x33x9, 64, tile_f16, float, 17, 33, 9, S, R, R, 0)                   \
    X(k_f16_32x32x32, 128, tile_f16, float, 32, 32, 32, S, S, S, 0)                \
    X(k_f16_20x12x10, 48, tile_f16, float, 20, 12, 10, R, R, R, 0)                 \
    X(k_bf16_3x5x7, 32, tile_bf16, float, 3, 5, 7, R, R, R, 0)                     \
    X(k_bf16_56x48x20, 64, tile_bf16, float, 56, 48, 20, R, S, S, 0)               \
    X(k_bf16_64x32x48, 128, tile_bf16, float, 64, 32, 48, S, S, R, 0)              \
    X(k_bf16_64x64x64, 256, tile_bf16, float, 64, 64, 64, S, S, S, 0)              \
    X(k_bf16_128x64x64, 128, tile_bf16, float, 128, 64, 64, R, R, S, 0)           \
    X(k_tf32_17x33x9, 64, float, float, 17, 33, 9, R, S, R, 1)                     \
    X(k_tf32_32x32x32, 128, float, float, 32, 32, 32, S, S, S, 1)
#define MM_DEF(name, BD, T, OT, M, K, N, SA, SB, SO, TF) MMK(name, BD, T, OT, M, K, N, SA, SB, SO, TF)
MM_LIST(MM_DEF)

static size_t tsize(int t) { return t == T_F32 ? 4 : t == T_F64 ? 8 : 2; }
/* quarters in [-8, 8) */
static double mval(int i, int salt) { return (double)(tile_hash32((uint32_t)salt, (uint32_t)i) % 64u) / 4.0 - 8.0; }
static void put(int t, void *p, size_t i, double v) {
    if (t == T_F32) ((float *)p)[i] = (float)v;
    else if (t == T_F64) ((double *)p)[i] = v;
    else if (t == T_F16) ((tile_f16 *)p)[i] = tile_f32_to_f16((float)v);
    else ((tile_bf16 *)p)[i] = tile_f32_to_bf16((float)v);
}
static double get(int t, const void *p, size_t i) { return t == T_F32 ? ((const float *)p)[i] : ((const double *)p)[i]; }

/* one case: nb blocks, alpha, beta (beta 0: c starts NaN); returns c */
#define RUN_CASE(name, BD, T, OT, M, K, N, al, be, cpu_c)                          \
    do {                                                                           \
        const int it = TY_##T, ot = TY_##OT, nb = 3;                               \
        const size_t na = (size_t)nb * M * K, nbb = (size_t)nb * K * N, nc = (size_t)nb * M * N; \
        void *ha = HALLOC(char, na * tsize(it)), *hb = HALLOC(char, nbb * tsize(it)); \
        void *hc = HALLOC(char, nc * tsize(ot));                                   \
        double *c0 = HALLOC(double, nc);                                           \
        for (size_t i = 0; i < na; ++i) put(it, ha, i, mval((int)i, 1));           \
        for (size_t i = 0; i < nbb; ++i) put(it, hb, i, mval((int)i, 2));          \
        for (size_t i = 0; i < nc; ++i) put(ot, hc, i, c0[i] = (be) == 0 ? NAN : mval((int)i, 3)); \
        T *da = DALLOC(T, na), *db = DALLOC(T, nbb);                               \
        OT *dc = DALLOC(OT, nc);                                                   \
        UP(da, ha, na * tsize(it));                                                \
        UP(db, hb, nbb * tsize(it));                                               \
        UP(dc, hc, nc * tsize(ot));                                                \
        RUN_OK(tile_launch(t->ex, name, tile_grid1(nb), BD, (const T *)da, (const T *)db, dc, (OT)(al), (OT)(be))); \
        DOWN(hc, dc, nc * tsize(ot));                                              \
        long bad = 0;                                                              \
        for (int bl = 0; bl < nb; ++bl)                                            \
            for (int i = 0; i < M; ++i)                                            \
                for (int j = 0; j < N; ++j) {                                      \
                    double s = 0, sa = 0;                                          \
                    for (int k = 0; k < K; ++k) {                                  \
                        const double p = mval(bl * M * K + i * K + k, 1) * mval(bl * K * N + k * N + j, 2); \
                        s += p, sa += fabs(p);                                     \
                    }                                                              \
                    const size_t ci = (size_t)bl * M * N + (size_t)i * N + j;      \
                    const double ref = (al) * s + ((be) != 0 ? (be) * c0[ci] : 0.0); \
                    const double tol = (ot == T_F32 ? 1e-6 : 1e-14) * (fabs(al) * sa + fabs(be) * 8 + 1); \
                    const double got = get(ot, hc, ci);                            \
                    ++g_checks;                                                    \
                    if (!(fabs(got - ref) <= tol))                                 \
                        fail_elem(&bad, __FILE__, __LINE__, "%s a=%g b=%g block %d (%d,%d): got %.17g, want %.17g", \
                                  #name, (double)(al), (double)(be), bl, i, j, got, ref); \
                    if ((cpu_c) && t->gpu) {                                       \
                        const double cg = get(ot, (cpu_c), ci);                    \
                        ++g_checks;                                                \
                        if (!(fabs(got - cg) <= 2 * tol))                          \
                            fail_elem(&bad, __FILE__, __LINE__, "%s gpu (%d,%d) %.17g vs cpu %.17g", #name, i, j, got, cg); \
                    }                                                              \
                }                                                                  \
        fail_elem_total(__FILE__, __LINE__, #name, bad, (long)nc);                 \
        if (!t->gpu && (cpu_c)) memcpy((cpu_c), hc, nc * tsize(ot));               \
        tile_free(t->ex, da), tile_free(t->ex, db), tile_free(t->ex, dc);          \
        free(ha), free(hb), free(hc), free(c0);                                    \
    } while (0)

/* CPU results kept for the GPU comparison: the CPU target runs first here */
static void *g_cpu_c[64][3];
static int g_case;
#define RUN_ALL(name, BD, T, OT, M, K, N, SA, SB, SO, TF)                          \
    if (!g_quick || (g_case % 3) == 0) {                                           \
        const double al_[3] = {1.0, -0.5, 2.0}, be_[3] = {1.0, 2.0, 0.0};          \
        for (int v = 0; v < (g_quick ? 1 : 3); ++v) {                              \
            const int vv = g_quick ? 2 : v;                                        \
            if (!g_cpu_c[g_case][vv]) g_cpu_c[g_case][vv] = calloc((size_t)3 * M * N, 8); \
            RUN_CASE(name, BD, T, OT, M, K, N, al_[vv], be_[vv], g_cpu_c[g_case][vv]); \
        }                                                                          \
    }                                                                              \
    ++g_case;

/* ---- accumulators (tile_matmul_acc): a @ b summed over k windows of KW in
 * registers, operands by tile_matmul_load_async into shared views (rows
 * padded by PAD), stored with alpha/beta at (o0, o1) into a cm x cn C ---- */
#define ACCK(name, BD, T, OT, M, N, KW, PAD) ACCKB(name, 0, BD, T, OT, M, N, KW, PAD)
/* MINB: TILE_KERNEL_SMEM_BOUNDS' minimum of resident blocks an SM */
#define ACCKB(name, MINB, BD, T, OT, M, N, KW, PAD)                                \
    TILE_KERNEL_SMEM_BOUNDS(name, BD, TILE_SMEM_BYTES(T, M, (KW) + (PAD)) + TILE_SMEM_BYTES(T, KW, (N) + (PAD)), MINB, \
                     const T *A, const T *B, OT *C, int K, int cm, int cn, int o0, int o1, OT alpha, OT beta) { \
        tile_shared(T, ap, M, (KW) + (PAD));                                       \
        tile_shared(T, bp, KW, (N) + (PAD));                                       \
        tile_view(a, ap, (M, KW), (0, 0));                                         \
        tile_view(b, bp, (KW, N), (0, 0));                                         \
        tile_matmul_acc(acc, a, b);                                                \
        for (int k0 = 0; k0 < K; k0 += (KW)) {                                     \
            tile_matmul_load_async(a, tile_array2(A, M, K), 0, k0);                \
            tile_matmul_load_async(b, tile_array2(B, K, N), k0, 0);                \
            tile_async_commit();                                                   \
            tile_async_wait(0);                                                    \
            tile_matmul_acc_add(acc, a, b);                                        \
        }                                                                          \
        tile_matmul_acc_store_ab(tile_array2(C, cm, cn), acc, alpha, beta, o0, o1); \
    }
/* name, block, in, out, M, N, KW, PAD, then K, C's shape and the offsets.
 * GPU layouts: 1 mma 4x8 warp tiles, ldmatrix, 16-byte copies; 2 mma 1x2,
 * two warp tiles a warp; 3 mma 4x8 past M (scalar fragments), odd K (element
 * copies); 4 mma 1x2, odd window (16-bit fragment loads), C partly outside;
 * 5 FMA 8x8, 16-byte a and b reads; 6 FMA 4x2, two micro-tiles a thread;
 * 7 f64 FMA; 8 f64 FMA 4x4, 16-byte b reads (pairs); 9 mma 2x4, K window 24
 * (a partial k16 step); 10 bf16 on FMA (48 threads: not whole warps) */
#define ACC_LIST(X)                                                                \
    X(acc_bf16_128x256, 256, tile_bf16, float, 128, 256, 32, 8, 96, 128, 256, 0, 0) \
    X(acc_f16_32x16, 32, tile_f16, float, 32, 16, 16, 8, 40, 32, 16, 0, 0)         \
    X(acc_bf16_96x64, 64, tile_bf16, float, 96, 64, 16, 0, 33, 96, 64, 0, 0)       \
    X(acc_f16_20x12, 64, tile_f16, float, 20, 12, 9, 0, 21, 20, 14, -3, 5)         \
    X(acc_f32_128x128, 256, float, float, 128, 128, 16, 0, 48, 128, 128, 0, 0)     \
    X(acc_f32_17x33, 64, float, float, 17, 33, 9, 0, 20, 30, 40, 5, 3)             \
    X(acc_f64_24x20, 64, double, double, 24, 20, 8, 0, 13, 24, 20, 0, 0)           \
    X(acc_f64_32x32, 64, double, double, 32, 32, 8, 0, 16, 32, 32, 0, 0)           \
    X(acc_bf16_48x40, 128, tile_bf16, float, 48, 40, 24, 8, 48, 50, 40, 1, 0)      \
    X(acc_bf16_48x20, 48, tile_bf16, float, 48, 20, 8, 0, 24, 48, 20, 0, 0)
#define ACC_DEF(name, BD, T, OT, M, N, KW, PAD, K, cm, cn, o0, o1) ACCK(name, BD, T, OT, M, N, KW, PAD)
ACC_LIST(ACC_DEF)
/* 11: FMA 8x4 with a read as scalars one k at a time (TILE_MATMUL_ACC_A16 0,
 * read where tile_matmul_acc_add expands), 2 blocks an SM asked for
 * (TILE_KERNEL_SMEM_BOUNDS); partial last window, C partly outside */
#undef TILE_MATMUL_ACC_A16
#define TILE_MATMUL_ACC_A16 0
ACCKB(acc_f32_a1_128x64, 2, 256, float, float, 128, 64, 16, 0)
#undef TILE_MATMUL_ACC_A16
#define TILE_MATMUL_ACC_A16 1
/* 12-16: examples/gemm_tiled.cu's one-barrier pipeline (BAR1): STAGES stages,
 * window k waited for (tile_async_wait(STAGES - 2)), then window
 * k + STAGES - 1 issued by tile_matmul_load_async_nosync into the stage window
 * k - 1 used, then window k multiplied; partial last windows (element
 * copies). Stored with TILE_MATMUL_ACC_VST 1: 16-byte runs (FMA 8x8 f32,
 * 4x4 f64 pairs) and 8-byte pairs (mma) where C's rows allow, element stores
 * at its edges and misaligned rows. */
#undef TILE_MATMUL_ACC_VST
#define TILE_MATMUL_ACC_VST 1
/* AKM 1: A's windows k-major (KW x (M + 4) stage tiles, read through
 * tile_transpose_view: element cp.async copies, 16-byte k-major reads when
 * M is a multiple of the micro-tile's rows) */
#define ACCP_AR(AKM, M, KW) ((AKM) ? (KW) : (M))
#define ACCP_AC(AKM, M, KW, PAD) ((AKM) ? (M) + 4 : (KW) + (PAD))
#define ACCP_AWIN(AKM, name, pad, M, KW) ACCP_AWIN_(AKM, name, pad, M, KW)
#define ACCP_AWIN_(AKM, name, pad, M, KW) ACCP_AWIN_##AKM(name, pad, M, KW)
#define ACCP_AWIN_0(name, pad, M, KW) tile_view(name, pad, (M, KW), (0, 0))
#define ACCP_AWIN_1(name, pad, M, KW)                                              \
    tile_view(name##_k, pad, (KW, M), (0, 0));                                     \
    tile_transpose_view(name, name##_k)
#define ACCP(name, BD, T, OT, M, N, KW, PAD, STAGES, AKM)                          \
    TILE_KERNEL_SMEM(name, BD,                                                     \
                     (STAGES) * (TILE_SMEM_BYTES(T, ACCP_AR(AKM, M, KW), ACCP_AC(AKM, M, KW, PAD)) + \
                                 TILE_SMEM_BYTES(T, KW, (N) + (PAD))),             \
                     const T *A, const T *B, OT *C, int K, int cm, int cn, int o0, int o1, OT alpha, OT beta) { \
        tile_shared_stages(T, a_st, STAGES, ACCP_AR(AKM, M, KW), ACCP_AC(AKM, M, KW, PAD)); \
        tile_shared_stages(T, b_st, STAGES, KW, (N) + (PAD));                      \
        tile_stage(a_p0, a_st, 0);                                                 \
        tile_stage(b_p0, b_st, 0);                                                 \
        ACCP_AWIN(AKM, a0, a_p0, M, KW);                                           \
        tile_view(b0, b_p0, (KW, N), (0, 0));                                      \
        tile_matmul_acc(acc, a0, b0);                                              \
        const int nk = (K + (KW)-1) / (KW);                                        \
        for (int kk = 0; kk < (STAGES)-1; ++kk) {                                  \
            if (kk < nk) ACCP_LOAD(M, N, KW, STAGES, kk, tile_matmul_load_async, AKM); \
            tile_async_commit();                                                   \
        }                                                                          \
        for (int k = 0; k < nk; ++k) {                                             \
            tile_async_wait((STAGES)-2);                                           \
            if (k + (STAGES)-1 < nk)                                               \
                ACCP_LOAD(M, N, KW, STAGES, k + (STAGES)-1, tile_matmul_load_async_nosync, AKM); \
            tile_async_commit();                                                   \
            tile_stage(a_p, a_st, k % (STAGES));                                   \
            tile_stage(b_p, b_st, k % (STAGES));                                   \
            ACCP_AWIN(AKM, a, a_p, M, KW);                                         \
            tile_view(b, b_p, (KW, N), (0, 0));                                    \
            tile_matmul_acc_add(acc, a, b);                                        \
        }                                                                          \
        tile_async_wait(0);                                                        \
        tile_matmul_acc_store_ab(tile_array2(C, cm, cn), acc, alpha, beta, o0, o1); \
    }
#define ACCP_LOAD(M, N, KW, STAGES, kk, LOAD, AKM)                                 \
    do {                                                                           \
        tile_stage(a_p, a_st, (kk) % (STAGES));                                    \
        tile_stage(b_p, b_st, (kk) % (STAGES));                                    \
        ACCP_AWIN(AKM, a, a_p, M, KW);                                             \
        tile_view(b, b_p, (KW, N), (0, 0));                                        \
        LOAD(a, tile_array2(A, M, K), 0, (kk) * (KW));                             \
        LOAD(b, tile_array2(B, K, N), (kk) * (KW), 0);                             \
    } while (0)
/* name, block, in, out, M, N, KW, PAD, STAGES, then K, C's shape, offsets:
 * 12 FMA 8x8 f32, 3 stages, rows of 130 (every other one 16-byte aligned),
 * C's top rows and right columns cut; 13 mma 4x8 bf16, 2 stages, column pairs
 * from -2 (even), rows of 250 (8-byte aligned); 14 f64 FMA 4x4, 3 stages,
 * 16-byte pairs, the last run of columns outside C, partial windows;
 * 15 f32 FMA 8x4 with A k-major (AKM: 4-byte cp.async copies, 16-byte
 * k-major reads), rows of 66, columns from -4, partial last window; 16 the
 * same with M = 60 (not a multiple of 8: element reads of the k-major A) */
#define ACCP_LIST(X)                                                               \
    X(accp_f32_128x128, 256, float, float, 128, 128, 16, 0, 3, 0, 72, 120, 130, -2, 4) \
    X(accp_bf16_128x256, 256, tile_bf16, float, 128, 256, 16, 8, 2, 0, 90, 130, 250, 3, -2) \
    X(accp_f64_32x32, 64, double, double, 32, 32, 8, 0, 3, 0, 30, 36, 36, 2, 6)   \
    X(accp_f32_akm_64x64, 128, float, float, 64, 64, 16, 0, 2, 1, 50, 70, 66, 3, -4) \
    X(accp_f32_akm_60x64, 128, float, float, 60, 64, 16, 0, 3, 1, 41, 62, 64, -1, 0)
#define ACCP_DEF(name, BD, T, OT, M, N, KW, PAD, STAGES, AKM, K, cm, cn, o0, o1) \
    ACCP(name, BD, T, OT, M, N, KW, PAD, STAGES, AKM)
ACCP_LIST(ACCP_DEF)
/* 17: mma 4x4 bf16 with TILE_MATMUL_ACC_PREFETCH 1 (fragments of step k + 16
 * loaded before step k's mma): windows of 48 (the k16 tail after the pairs),
 * a partial last window */
#undef TILE_MATMUL_ACC_PREFETCH
#define TILE_MATMUL_ACC_PREFETCH 1
ACCP(accp_bf16_pf_128x128, 256, tile_bf16, float, 128, 128, 48, 8, 2, 0)
#undef TILE_MATMUL_ACC_PREFETCH
#define TILE_MATMUL_ACC_PREFETCH 0
/* 18: FMA 16x8 micro-tiles (TILE_MATMUL_ACC_TM16 1: 128 x 64, 64 threads)
 * with A k-major (four 16-byte reads of a a k), rows of 70, partial window */
#undef TILE_MATMUL_ACC_TM16
#define TILE_MATMUL_ACC_TM16 1
ACCP(accp_f32_tm16_128x64, 64, float, float, 128, 64, 16, 0, 2, 1)
#undef TILE_MATMUL_ACC_TM16
#define TILE_MATMUL_ACC_TM16 0
#undef TILE_MATMUL_ACC_VST
#define TILE_MATMUL_ACC_VST 0

/* views with an odd row stride (21) and odd start offsets: the operands'
 * element pairs are not 32-bit aligned, so the tensor-core loads take the
 * 16-bit path; f32 views go through the FMA path */
#define VIEWK(name, T)                                                             \
    TILE_KERNEL_SMEM(name, 64, 4096 + 2 * TILE_SMEM_BYTES(T, 20, 21), const T *src, float *out) { \
        tile_shared(T, s, 20, 21);                                                 \
        tile_load(s, tile_array2(src, 20, 21), 0, 0);                              \
        tile_view(va, s, (16, 10), (1, 3));                                        \
        tile_view(vb, s, (10, 12), (2, 5));                                        \
        tile_shared(float, o, 16, 12);                                             \
        tile_matmul_ab(o, va, vb, 1.0f, 0.0f);                                     \
        tile_store(tile_array2(out, 16, 12), o, 0, 0);                             \
    }
VIEWK(k_view_bf16, tile_bf16)
VIEWK(k_view_f16, tile_f16)
VIEWK(k_view_f32, float)
#define RUN_VIEW(name, T, ty)                                                      \
    do {                                                                           \
        T *hs = HALLOC(T, 420);                                                    \
        float *ho = HALLOC(float, 192);                                            \
        for (int i = 0; i < 420; ++i) put(ty, hs, i, mval(i, 9));                  \
        T *ds = DALLOC(T, 420);                                                    \
        float *dout = DALLOC(float, 192);                                          \
        UP(ds, hs, 420 * sizeof(T));                                               \
        POISON(dout, 192 * sizeof(float), POISON_F);                               \
        RUN_OK(tile_launch(t->ex, name, tile_grid1(1), 64, (const T *)ds, dout));  \
        DOWN(ho, dout, 192 * sizeof(float));                                       \
        long bad = 0;                                                              \
        for (int i = 0; i < 16; ++i)                                               \
            for (int j = 0; j < 12; ++j) {                                         \
                double r = 0, ra = 0;                                              \
                for (int k = 0; k < 10; ++k) {                                     \
                    const double p = mval((1 + i) * 21 + 3 + k, 9) * mval((2 + k) * 21 + 5 + j, 9); \
                    r += p, ra += fabs(p);                                         \
                }                                                                  \
                ++g_checks;                                                        \
                if (!(fabs(ho[i * 12 + j] - r) <= 1e-6 * (ra + 1)))                \
                    fail_elem(&bad, __FILE__, __LINE__, "%s (%d,%d): got %.9g, want %.9g", #name, i, j, ho[i * 12 + j], r); \
            }                                                                      \
        fail_elem_total(__FILE__, __LINE__, #name, bad, 192);                      \
        tile_free(t->ex, ds), tile_free(t->ex, dout), free(hs), free(ho);          \
    } while (0)

/* one accumulator case; beta 0 starts C at NaN (not read); elements of C
 * outside the product keep their values */
#define RUN_ACC(name, BD, T, OT, M, N, KW, PAD, K, cm, cn, o0, o1, al, be, cpu_c) \
    do {                                                                           \
        const int it = TY_##T, ot = TY_##OT;                                       \
        const size_t na = (size_t)M * K, nbb = (size_t)K * N, nc = (size_t)cm * cn; \
        void *ha = HALLOC(char, na * tsize(it)), *hb = HALLOC(char, nbb * tsize(it)); \
        void *hc = HALLOC(char, nc * tsize(ot));                                   \
        double *c0 = HALLOC(double, nc);                                           \
        for (size_t i = 0; i < na; ++i) put(it, ha, i, mval((int)i, 4));           \
        for (size_t i = 0; i < nbb; ++i) put(it, hb, i, mval((int)i, 5));          \
        for (size_t i = 0; i < nc; ++i) put(ot, hc, i, c0[i] = (be) == 0 ? NAN : mval((int)i, 6)); \
        T *da = DALLOC(T, na), *db = DALLOC(T, nbb);                               \
        OT *dc = DALLOC(OT, nc);                                                   \
        UP(da, ha, na * tsize(it));                                                \
        UP(db, hb, nbb * tsize(it));                                               \
        UP(dc, hc, nc * tsize(ot));                                                \
        RUN_OK(tile_launch(t->ex, name, tile_grid1(1), BD, (const T *)da, (const T *)db, dc, K, cm, cn, o0, o1, \
                           (OT)(al), (OT)(be)));                                   \
        DOWN(hc, dc, nc * tsize(ot));                                              \
        long bad = 0;                                                              \
        for (int r = 0; r < cm; ++r)                                               \
            for (int c = 0; c < cn; ++c) {                                         \
                const int i = r - (o0), j = c - (o1);                              \
                const size_t ci = (size_t)r * cn + c;                              \
                double ref = c0[ci], tol = 0;                                      \
                if (i >= 0 && i < M && j >= 0 && j < N) {                          \
                    double s = 0, sa = 0;                                          \
                    for (int k = 0; k < K; ++k) {                                  \
                        const double p = mval(i * K + k, 4) * mval(k * N + j, 5);  \
                        s += p, sa += fabs(p);                                     \
                    }                                                              \
                    ref = (al) * s + ((be) != 0 ? (be) * c0[ci] : 0.0);            \
                    tol = (ot == T_F32 ? 1e-6 : 1e-14) * (fabs(al) * sa + fabs(be) * 8 + 1); \
                }                                                                  \
                const double got = get(ot, hc, ci);                                \
                ++g_checks;                                                        \
                if (ref != ref ? got == got : !(fabs(got - ref) <= tol))           \
                    fail_elem(&bad, __FILE__, __LINE__, "%s a=%g b=%g C(%d,%d): got %.17g, want %.17g", #name, \
                              (double)(al), (double)(be), r, c, got, ref);         \
                if (t->gpu) {                                                      \
                    const double cg = get(ot, (cpu_c), ci);                        \
                    ++g_checks;                                                    \
                    if (cg != cg ? got == got : !(fabs(got - cg) <= 2 * tol))      \
                        fail_elem(&bad, __FILE__, __LINE__, "%s gpu C(%d,%d) %.17g vs cpu %.17g", #name, r, c, got, cg); \
                }                                                                  \
            }                                                                      \
        fail_elem_total(__FILE__, __LINE__, #name, bad, (long)nc);                 \
        if (!t->gpu) memcpy((cpu_c), hc, nc * tsize(ot));                          \
        tile_free(t->ex, da), tile_free(t->ex, db), tile_free(t->ex, dc);          \
        free(ha), free(hb), free(hc), free(c0);                                    \
    } while (0)
static void *g_acc_cpu[24][2];
#define RUN_ACC_ALL(name, BD, T, OT, M, N, KW, PAD, K, cm, cn, o0, o1)             \
    if (!g_quick || (g_case % 2) == 0) {                                           \
        for (int v = 0; v < 2; ++v) {                                              \
            if (!g_acc_cpu[g_case][v]) g_acc_cpu[g_case][v] = calloc((size_t)(cm) * (cn), 8); \
            RUN_ACC(name, BD, T, OT, M, N, KW, PAD, K, cm, cn, o0, o1, v ? -0.5 : 1.0, v ? 2.0 : 0.0, \
                    g_acc_cpu[g_case][v]);                                         \
        }                                                                          \
    }                                                                              \
    ++g_case;
#define RUN_ACCP_ALL(name, BD, T, OT, M, N, KW, PAD, STAGES, AKM, K, cm, cn, o0, o1) \
    RUN_ACC_ALL(name, BD, T, OT, M, N, KW, PAD, K, cm, cn, o0, o1)
static void run_acc(const target *t) {
    g_case = 0;
    ACC_LIST(RUN_ACC_ALL)
    RUN_ACC_ALL(acc_f32_a1_128x64, 256, float, float, 128, 64, 16, 0, 40, 130, 60, 2, -1)
    ACCP_LIST(RUN_ACCP_ALL)
    RUN_ACC_ALL(accp_bf16_pf_128x128, 256, tile_bf16, float, 128, 128, 48, 8, 100, 128, 132, 0, 2)
    RUN_ACC_ALL(accp_f32_tm16_128x64, 64, float, float, 128, 64, 16, 0, 40, 130, 70, 1, 4)
}

static void run_matmul(const target *t) {
    g_case = 0;
    MM_LIST(RUN_ALL)
    RUN_VIEW(k_view_bf16, tile_bf16, T_BF16);
    RUN_VIEW(k_view_f16, tile_f16, T_F16);
    RUN_VIEW(k_view_f32, float, T_F32);
}

/* ---- conversions on the device ---- */
__global__ void conv_kernel(uint32_t *out, uint32_t n) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (i < 65536u) {
            const float f = tile_f16_to_f32(tile_f16_from_bits((uint16_t)i));
            const float g = tile_bf16_to_f32(tile_bf16_from_bits((uint16_t)i));
            const float fr = __half2float(tile_f16_as_half(tile_f16_from_bits((uint16_t)i)));
            const float gr = __bfloat162float(tile_bf16_as_nv(tile_bf16_from_bits((uint16_t)i)));
            const bool nan = (i & 0x7c00u) == 0x7c00u && (i & 0x3ffu), nanb = (i & 0x7f80u) == 0x7f80u && (i & 0x7fu);
            out[4 * i] = (nan ? f != f : __float_as_uint(f) == __float_as_uint(fr)) &&
                         (nanb ? g != g : __float_as_uint(g) == __float_as_uint(gr));
        } else {
            out[4 * i] = 1;
        }
        const uint32_t u = tile_hash32(7, i);
        const float x = __uint_as_float(u);
        const uint16_t h = tile_f32_to_f16(x).bits, b = tile_f32_to_bf16(x).bits;
        const bool xn = x != x;
        out[4 * i + 1] = xn || h == tile_half_as_f16(__float2half_rn(x)).bits;
        out[4 * i + 2] = xn || b == tile_nv_as_bf16(__float2bfloat16_rn(x)).bits;
        out[4 * i + 3] = (uint32_t)h | (uint32_t)b << 16;
    }
}
static void run_conv(const target *t) {
    if (!t->gpu) return;
    const uint32_t n = g_quick ? (1u << 17) : (1u << 22);
    uint32_t *d = DALLOC(uint32_t, 4 * (size_t)n), *h = HALLOC(uint32_t, 4 * (size_t)n);
    conv_kernel<<<264, 256>>>(d, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "conv_kernel failed");
    DOWN(h, d, 4 * (size_t)n * 4);
    long bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t u = tile_hash32(7, i);
        float x;
        memcpy(&x, &u, 4);
        const uint32_t host = (uint32_t)tile_f32_to_f16(x).bits | (uint32_t)tile_f32_to_bf16(x).bits << 16;
        g_checks += 4;
        if (!h[4 * i]) fail_elem(&bad, __FILE__, __LINE__, "bits %u: widening differs from CUDA's", i);
        if (!h[4 * i + 1]) fail_elem(&bad, __FILE__, __LINE__, "f32 %08x -> f16 differs from __float2half_rn", u);
        if (!h[4 * i + 2]) fail_elem(&bad, __FILE__, __LINE__, "f32 %08x -> bf16 differs from __float2bfloat16_rn", u);
        if (h[4 * i + 3] != host) fail_elem(&bad, __FILE__, __LINE__, "f32 %08x: device bits %08x, host %08x", u, h[4 * i + 3], host);
    }
    fail_elem_total(__FILE__, __LINE__, "conversions", bad, 4L * n);
    tile_free(t->ex, d);
    free(h);
}

int main(int argc, char **argv) {
    int rc = gc_start(argc, argv, "matmul_test", 1, NULL, NULL);
    if (rc) return rc;
    /* the CPU target first, so the GPU run can be compared with it */
    for (int i = gc_ntargets - 1; i >= 0; --i) {
        const target *t = &gc_targets[i];
        gc_target_begin(t);
        run_matmul(t);
        run_acc(t);
        run_conv(t);
        gc_target_end(t, "");
    }
    return gc_finish();
}
