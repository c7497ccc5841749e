/* nvcc-arch: 90a (scripts/nvcc-one.sh and gpu-check.sh build this file for
 * sm_90a: wgmma; other archs build the FMA fallback)
 *
 * tests/gpu/wgmma_test.cu - tile/wgmma.h on the GPU and the CPU target of
 * the same build: the window loads (16-byte cp.async, zero-filled edges,
 * element copies; 256- and 128-thread blocks) byte for byte against the
 * CPU run and the layout wgmma's descriptors read; GEMMs written with the
 * API - the model kernel of examples/gemm_wgmma.cu (bf16 128 x 256, 4
 * stages), f16 64 x 128 (3 stages, one warpgroup, m64n128), bf16 192 x 64 (3
 * warpgroups, m64n64) with alpha / beta - each against a double product and
 * the GPU against the CPU run.
 *
 *   wgmma_test [--cpu-only] [--quick]    --quick: small problems (sanitizers)
 */
#include <math.h>
#include "gpu_check.h"
#include <tile/wgmma.h>
#define GEMM_WGMMA_NO_MAIN
#include "../../examples/gemm_wgmma.cu"

/* ---- window loads ----
 * Both stages of both windows poisoned (0x5a), stage `stage` (mod 2)
 * loaded; out: both stages of A (2 x BM x 128 bytes), then of B. */
#define DEF_ROUNDTRIP(name, THREADS)                                               \
    TILE_KERNEL_SMEM(name, THREADS, TILE_WGMMA_SMEM(128, 256, 2), tile_array a, tile_array b, int64_t i0, int64_t k0, \
                     int64_t j0, int stage, unsigned char *out) {                  \
        tile_wgmma_window_a_bf16(aw, 128, 2);                                      \
        tile_wgmma_window_b_bf16(bw, 256, 2);                                      \
        for (int i = tile_thread(); i < 2 * 128 * 128; i += TILE_BLOCK_DIM) aw.p[i] = 0x5a; \
        for (int i = tile_thread(); i < 2 * 256 * 128; i += TILE_BLOCK_DIM) bw.p[i] = 0x5a; \
        tile_barrier();                                                            \
        tile_wgmma_load_a(aw, stage, a, i0, k0);                                   \
        tile_wgmma_load_b(bw, stage, b, k0, j0);                                   \
        tile_async_commit();                                                       \
        tile_wgmma_wait(0);                                                        \
        for (int i = tile_thread(); i < 2 * 128 * 128; i += TILE_BLOCK_DIM) out[i] = aw.p[i]; \
        for (int i = tile_thread(); i < 2 * 256 * 128; i += TILE_BLOCK_DIM) out[2 * 128 * 128 + i] = bw.p[i]; \
    }
DEF_ROUNDTRIP(wg_rt256, 256)
DEF_ROUNDTRIP(wg_rt128, 128)
enum { RT_BYTES = 2 * 128 * 128 + 2 * 256 * 128 };

/* the layout wgmma's descriptors read (A: SBO 1024 per 8 rows; B: LBO 8192
 * per 64 columns, SBO 1024 per 8 k-rows), written out independently */
static int ref_off_a(int r, int k) { return (r / 8) * 1024 + (r % 8) * 128 + (((k / 8) ^ (r % 8)) * 16) + (k % 8) * 2; }
static int ref_off_b(int k, int n) {
    return (n / 64) * 8192 + (k / 8) * 1024 + (k % 8) * 128 + ((((n % 64) / 8) ^ (k % 8)) * 16) + (n % 8) * 2;
}
static uint16_t view_bits(const uint16_t *h, const tile_array *v, int64_t r, int64_t c) {
    if (r < 0 || c < 0 || r >= v->shape[0] || c >= v->shape[1]) return 0;
    return h[v->base_off + r * v->stride[0] + c * v->stride[1]];
}

/* one load case on target t (arrays given as views of the host data, made
 * views of the target's copy here) */
static void roundtrip_case(const target *t, int threads, const uint16_t *ha, const uint16_t *hb, size_t n, int64_t aoff,
                           int64_t boff, const int64_t *sha, const int64_t *sta, const int64_t *shb, const int64_t *stb,
                           int64_t i0, int64_t k0, int64_t j0, int stage) {
    uint16_t *da = DALLOC(uint16_t, n), *db = DALLOC(uint16_t, n);
    unsigned char *dout = DALLOC(unsigned char, RT_BYTES), *out = HALLOC(unsigned char, RT_BYTES);
    UP(da, ha, n * 2);
    UP(db, hb, n * 2);
    const tile_array a = tile_array_strided(da + aoff, 2, sha, sta), b = tile_array_strided(db + boff, 2, shb, stb);
    if (threads == 256) RUN_OK(tile_launch(t->ex, wg_rt256, tile_grid1(1), 256, a, b, i0, k0, j0, stage, dout));
    else RUN_OK(tile_launch(t->ex, wg_rt128, tile_grid1(1), 128, a, b, i0, k0, j0, stage, dout));
    DOWN(out, dout, RT_BYTES);
    const tile_array ha_v = tile_array_strided(ha + aoff, 2, sha, sta), hb_v = tile_array_strided(hb + boff, 2, shb, stb);
    const int s = stage % 2;
    long bad = 0;
    for (int r = 0; r < 128; ++r)
        for (int k = 0; k < 64; ++k) {
            uint16_t g;
            memcpy(&g, out + s * 128 * 128 + ref_off_a(r, k), 2);
            const uint16_t want = view_bits(ha + aoff, &ha_v, i0 + r, k0 + k);
            if (g != want) fail_elem(&bad, __FILE__, __LINE__, "load (%d threads, i0 %d k0 %d) A[%d][%d] = 0x%04x, expected 0x%04x",
                                     threads, (int)i0, (int)k0, r, k, g, want);
            ++g_checks;
        }
    for (int k = 0; k < 64; ++k)
        for (int c = 0; c < 256; ++c) {
            uint16_t g;
            memcpy(&g, out + 2 * 128 * 128 + s * 256 * 128 + ref_off_b(k, c), 2);
            const uint16_t want = view_bits(hb + boff, &hb_v, k0 + k, j0 + c);
            if (g != want) fail_elem(&bad, __FILE__, __LINE__, "load (%d threads, k0 %d j0 %d) B[%d][%d] = 0x%04x, expected 0x%04x",
                                     threads, (int)k0, (int)j0, k, c, g, want);
            ++g_checks;
        }
    long other = 0;
    for (int i = 0; i < 128 * 128; ++i) other += out[(1 - s) * 128 * 128 + i] != 0x5a;
    for (int i = 0; i < 256 * 128; ++i) other += out[2 * 128 * 128 + (1 - s) * 256 * 128 + i] != 0x5a;
    CHECK(other == 0, "load (%d threads): %ld bytes of the other stages changed", threads, other);
    tile_free(t->ex, da), tile_free(t->ex, db), tile_free(t->ex, dout);
    free(out);
}

static void test_loads(const target *t) {
    g_test = "loads";
    enum { M = 300, K = 200, N = 520, BIG = 1 << 18 };
    uint16_t *ha = HALLOC(uint16_t, BIG), *hb = HALLOC(uint16_t, BIG);
    for (int i = 0; i < BIG; ++i) {
        ha[i] = (uint16_t)(tile_hash32(1, (uint32_t)i) >> 7);
        hb[i] = (uint16_t)(tile_hash32(2, (uint32_t)i) >> 7);
    }
    const int64_t sha[2] = {M, K}, sta[2] = {K, 1}, shb[2] = {K, N}, stb[2] = {N, 1};
    const int64_t shap[2] = {M, 197}, shbp[2] = {K, 517};          /* padded rows */
    const int64_t sho[2] = {77, 45}, sto[2] = {45, 1}, shbo[2] = {45, 99}, stbo[2] = {99, 1}; /* odd */
    const int64_t shat[2] = {M, K}, stat[2] = {1, M};              /* A transposed */
    for (int th = 256; th >= 128; th -= 128) {
        roundtrip_case(t, th, ha, hb, BIG, 0, 0, sha, sta, shb, stb, 128, 64, 256, 0);    /* inside: plain cp.async */
        roundtrip_case(t, th, ha, hb, BIG, 0, 0, sha, sta, shb, stb, 256, 192, 512, 3);   /* edges: zero-filled */
        roundtrip_case(t, th, ha, hb, BIG, 0, 0, shap, sta, shbp, stb, 200, 192, 512, 1); /* partial chunks */
        if (g_quick) continue;
        roundtrip_case(t, th, ha, hb, BIG, 0, 0, sha, sta, shb, stb, 300, 256, 520, 0);   /* wholly outside */
        roundtrip_case(t, th, ha, hb, BIG, 0, 0, sho, sto, shbo, stbo, 0, 0, 0, 1);       /* odd rows: elements */
        roundtrip_case(t, th, ha, hb, BIG, 0, 0, sha, sta, shb, stb, -3, -10, -17, 0);    /* negative offsets */
        roundtrip_case(t, th, ha, hb, BIG, 1, 1, sha, sta, shb, stb, 0, 0, 0, 1);         /* misaligned base */
        roundtrip_case(t, th, ha, hb, BIG, 0, 0, shat, stat, shb, stb, 100, 150, 200, 0); /* strided */
    }
    free(ha);
    free(hb);
    g_test = NULL;
}

/* ---- GEMMs ---- */
GEMM_WGMMA_KERNEL(gemm_wg_f16_64x128, f16, tile_f16, 64, 128, 3)
GEMM_WGMMA_KERNEL(gemm_wg_bf16_192x64, bf16, tile_bf16, 192, 64, 4)
enum { KERN_MODEL = 0, KERN_F16 = 1, KERN_192 = 2 };
static const char *const kern_names[3] = {"gemm_wgmma_bf16 128x256", "f16 64x128", "bf16 192x64"};

/* C (M x N) on target t from the host inputs; c0: C before (beta != 0) */
static float *gemm_on(const target *t, int kern, const uint16_t *ha, const uint16_t *hb, const float *c0, int M, int N,
                      int K, float alpha, float beta) {
    const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    uint16_t *da = DALLOC(uint16_t, na + 1), *db = DALLOC(uint16_t, nb + 1);
    float *dc = DALLOC(float, nc + 1), *c = HALLOC(float, nc + 1);
    UP(da, ha, na * 2);
    UP(db, hb, nb * 2);
    UP(dc, c0, nc * 4);
    if (kern == KERN_MODEL && alpha == 1.0f && beta == 0.0f)
        RUN_OK(gemm_wgmma_launch(t->ex, (const tile_bf16 *)da, (const tile_bf16 *)db, dc, M, N, K));
    else if (kern == KERN_MODEL)
        RUN_OK(GEMM_WGMMA_LAUNCH(t->ex, gemm_wgmma_bf16, tile_bf16, 128, 256, da, db, dc, M, N, K, alpha, beta));
    else if (kern == KERN_F16)
        RUN_OK(GEMM_WGMMA_LAUNCH(t->ex, gemm_wg_f16_64x128, tile_f16, 64, 128, da, db, dc, M, N, K, alpha, beta));
    else RUN_OK(GEMM_WGMMA_LAUNCH(t->ex, gemm_wg_bf16_192x64, tile_bf16, 192, 64, da, db, dc, M, N, K, alpha, beta));
    DOWN(c, dc, nc * 4);
    tile_free(t->ex, da), tile_free(t->ex, db), tile_free(t->ex, dc);
    return c;
}

static void gemm_case(const target *t, int kern, int M, int N, int K, float alpha, float beta) {
    g_test = kern_names[kern];
    const int f16 = kern == KERN_F16;
    const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    uint16_t *ha = HALLOC(uint16_t, na + 1), *hb = HALLOC(uint16_t, nb + 1);
    double *fa = HALLOC(double, na + 1), *fb = HALLOC(double, nb + 1);
    float *c0 = HALLOC(float, nc + 1);
    for (size_t i = 0; i < na; ++i) {
        const float v = tile_hash_unit(3, (uint32_t)i) - 0.5f;
        ha[i] = f16 ? tile_f32_to_f16(v).bits : tile_f32_to_bf16(v).bits;
        fa[i] = f16 ? tile_f16_to_f32(tile_f16_from_bits(ha[i])) : tile_bf16_to_f32(tile_bf16_from_bits(ha[i]));
    }
    for (size_t i = 0; i < nb; ++i) {
        const float v = tile_hash_unit(4, (uint32_t)i) - 0.5f;
        hb[i] = f16 ? tile_f32_to_f16(v).bits : tile_f32_to_bf16(v).bits;
        fb[i] = f16 ? tile_f16_to_f32(tile_f16_from_bits(hb[i])) : tile_bf16_to_f32(tile_bf16_from_bits(hb[i]));
    }
    /* beta 0: C poisoned with NaN, which must not be read */
    for (size_t i = 0; i < nc; ++i) c0[i] = beta == 0.0f ? NAN : tile_hash_unit(5, (uint32_t)i) - 0.5f;
    float *c = gemm_on(t, kern, ha, hb, c0, M, N, K, alpha, beta);
    /* the GPU's C also against the CPU target's run of the same kernel */
    float *cc = t->gpu ? gemm_on(&gc_targets[gc_ntargets - 1], kern, ha, hb, c0, M, N, K, alpha, beta) : NULL;
    double *row = HALLOC(double, N), *arow = HALLOC(double, N);
    long bad = 0, badc = 0;
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) row[j] = arow[j] = 0;
        for (int k = 0; k < K; ++k) {
            const double x = fa[(size_t)i * K + k];
            const double *br = fb + (size_t)k * N;
            for (int j = 0; j < N; ++j) {
                row[j] += x * br[j];
                arow[j] += fabs(x * br[j]);
            }
        }
        for (int j = 0; j < N; ++j) {
            const double old = beta == 0.0f ? 0.0 : c0[(size_t)i * N + j];
            const double want = alpha * row[j] + beta * old;
            const double tol = 1e-4 * (fabs(alpha) * arow[j] + fabs(beta * old)) + 1e-30;
            const double got = c[(size_t)i * N + j];
            ++g_checks;
            if (!(fabs(got - want) <= tol))
                fail_elem(&bad, __FILE__, __LINE__, "%dx%dx%d C[%d][%d] = %.9g, expected %.9g", M, N, K, i, j, got, want);
            if (cc) {
                ++g_checks;
                if (!(fabs(got - (double)cc[(size_t)i * N + j]) <= tol))
                    fail_elem(&badc, __FILE__, __LINE__, "%dx%dx%d C[%d][%d] = %.9g, the CPU run %.9g", M, N, K, i, j, got,
                              (double)cc[(size_t)i * N + j]);
            }
        }
    }
    fail_elem_total(__FILE__, __LINE__, "vs the double product", bad, (long)nc);
    fail_elem_total(__FILE__, __LINE__, "vs the CPU run", badc, (long)nc);
    free(ha), free(hb), free(fa), free(fb), free(c0), free(c), free(cc), free(row), free(arow);
    g_test = NULL;
}

static void test_gemms(const target *t) {
    if (g_quick) {
        gemm_case(t, KERN_MODEL, 200, 264, 136, 1.0f, 0.0f);
        gemm_case(t, KERN_MODEL, 131, 300, 77, 0.5f, 2.0f);
        gemm_case(t, KERN_F16, 65, 129, 63, 1.0f, 0.0f);
        gemm_case(t, KERN_192, 200, 72, 136, -1.0f, 0.5f);
        return;
    }
    gemm_case(t, KERN_MODEL, 520, 528, 272, 1.0f, 0.0f); /* aligned rows: cp.async, edges zero-filled */
    gemm_case(t, KERN_MODEL, 333, 301, 199, 1.0f, 0.0f); /* odd: element copies */
    gemm_case(t, KERN_MODEL, 256, 512, 640, 0.5f, 2.0f); /* whole tiles, 10 windows; alpha, beta */
    gemm_case(t, KERN_MODEL, 1, 1, 1, 1.0f, 0.0f);
    gemm_case(t, KERN_MODEL, 70, 33, 0, 1.0f, 0.0f);     /* K = 0 */
    gemm_case(t, KERN_F16, 300, 520, 264, -1.5f, 0.25f);
    gemm_case(t, KERN_F16, 65, 129, 63, 1.0f, 0.0f);
    gemm_case(t, KERN_192, 400, 200, 333, 1.0f, 0.0f);
    gemm_case(t, KERN_192, 384, 128, 512, 2.0f, -1.0f);
}

int main(int argc, char **argv) {
    (void)example_target; /* the example's helpers, unused here */
    (void)example_check;
    int rc = gc_start(argc, argv, "wgmma_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) {
        const target *t = &gc_targets[i];
        gc_target_begin(t);
        test_loads(t);
        test_gemms(t);
        gc_target_end(t, "");
    }
    return gc_finish();
}
