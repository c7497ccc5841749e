/* tile/wgmma.h on the CPU target (block_dim 1): the swizzled window layouts
 * against the descriptor arithmetic wgmma uses (written out independently),
 * the window loads on every path (16-byte copies inside the array, copies
 * zero-filled at an edge, element copies for misaligned, negative, strided
 * and odd arrays; stages taken modulo the stage count, the other stage
 * untouched), the store (alpha / beta, beta 0 not reading C, edges dropped
 * from a strided view), and whole GEMMs written with the API (the model
 * kernel of examples/gemm_wgmma.cu and other shapes / f16) against a double
 * product: odd M, N, K, K = 0, one element. */
#include "test_util.h"
#include <tile/wgmma.h>
#define GEMM_WGMMA_NO_MAIN
#include "../../examples/gemm_wgmma.cu"

/* ---- 1. the layouts ----
 * A (BM x 64, K-major): descriptor terms: 8-row core groups SBO = 1024
 * bytes apart, row r % 8 of the group 128 bytes in, chunk (k / 8) ^ (r % 8);
 * B (64 x BN): 64-column blocks LBO = 8192 apart, 8-k-row groups SBO = 1024
 * apart, k-row k % 8 128 bytes in, chunk ((n % 64) / 8) ^ (k % 8). */
static int ref_off_a(int r, int k) { return (r / 8) * 1024 + (r % 8) * 128 + (((k / 8) ^ (r % 8)) * 16) + (k % 8) * 2; }
static int ref_off_b(int k, int n) {
    return (n / 64) * 8192 + (k / 8) * 1024 + (k % 8) * 128 + ((((n % 64) / 8) ^ (k % 8)) * 16) + (n % 8) * 2;
}

static void test_layout(void **state) {
    (void)state;
    static unsigned char seen[256 * 128];
    /* A: BM 64 .. 256: every element once, the descriptor's address */
    for (int bm = 64; bm <= 256; bm += 64) {
        memset(seen, 0, sizeof seen);
        for (int r = 0; r < bm; ++r)
            for (int k = 0; k < 64; ++k) {
                const int o = tile_wgmma_offset(bm, r, k);
                assert_int_equal(o, ref_off_a(r, k));
                assert_true(o >= 0 && o + 2 <= bm * 128 && o % 2 == 0);
                assert_int_equal(seen[o], 0);
                seen[o] = 1;
            }
    }
    /* B: BN 64, 128, 256 */
    for (int bn = 64; bn <= 256; bn *= 2) {
        memset(seen, 0, sizeof seen);
        for (int k = 0; k < 64; ++k)
            for (int n = 0; n < bn; ++n) {
                const int o = tile_wgmma_offset(64, k, n);
                assert_int_equal(o, ref_off_b(k, n));
                assert_true(o >= 0 && o + 2 <= bn * 128);
                assert_int_equal(seen[o], 0);
                seen[o] = 1;
            }
    }
    /* the header's examples */
    assert_int_equal(tile_wgmma_offset(128, 1, 0), 144);
    assert_int_equal(tile_wgmma_offset(64, 3, 70), 8636);
    assert_int_equal(TILE_WGMMA_WINDOW_BYTES(128, 4), 66560);
    assert_int_equal(TILE_WGMMA_SMEM(128, 256, 4), 198656);
}

/* ---- 2. loads: window bytes == the array's elements, zeros outside ----
 * Both stages of both windows poisoned (0x5a), then stage `stage` (mod 2)
 * loaded; out: both stages of A (2 x 16 KiB) then of B (2 x 32 KiB). */
TILE_KERNEL_SMEM(wg_roundtrip, 256, TILE_WGMMA_SMEM(128, 256, 2), tile_array a, tile_array b, int64_t i0, int64_t k0,
                 int64_t j0, int stage, unsigned char *out) {
    tile_wgmma_window_a_bf16(aw, 128, 2);
    tile_wgmma_window_b_bf16(bw, 256, 2);
    for (int i = tile_thread(); i < 2 * 128 * 128; i += TILE_BLOCK_DIM) aw.p[i] = 0x5a;
    for (int i = tile_thread(); i < 2 * 256 * 128; i += TILE_BLOCK_DIM) bw.p[i] = 0x5a;
    tile_barrier();
    tile_wgmma_load_a(aw, stage, a, i0, k0);
    tile_wgmma_load_b(bw, stage, b, k0, j0);
    tile_async_commit();
    tile_wgmma_wait(0);
    for (int i = tile_thread(); i < 2 * 128 * 128; i += TILE_BLOCK_DIM) out[i] = aw.p[i];
    for (int i = tile_thread(); i < 2 * 256 * 128; i += TILE_BLOCK_DIM) out[2 * 128 * 128 + i] = bw.p[i];
}

static uint16_t bits_at(int64_t i, int salt) { return (uint16_t)(tile_hash32((uint32_t)salt, (uint32_t)i) >> 7); }

/* element (r, c) of a view as bits, 0 outside */
static uint16_t view_bits(const tile_array *v, int64_t r, int64_t c) {
    if (r < 0 || c < 0 || r >= v->shape[0] || c >= v->shape[1]) return 0;
    return ((const uint16_t *)v->ptr)[v->base_off + r * v->stride[0] + c * v->stride[1]];
}

static void check_roundtrip(tile_array a, tile_array b, int64_t i0, int64_t k0, int64_t j0, int stage) {
    unsigned char *out = (unsigned char *)malloc(2 * 128 * 128 + 2 * 256 * 128);
    assert_non_null(out);
    assert_tile_ok(tile_launch(TILE_CPU, wg_roundtrip, tile_grid1(1), 256, a, b, i0, k0, j0, stage, out));
    const int s = stage % 2;
    const unsigned char *sa = out + s * 128 * 128, *oa = out + (1 - s) * 128 * 128;
    const unsigned char *sb = out + 2 * 128 * 128 + s * 256 * 128, *ob = out + 2 * 128 * 128 + (1 - s) * 256 * 128;
    long bad = 0;
    for (int r = 0; r < 128; ++r)
        for (int k = 0; k < 64; ++k) {
            uint16_t g;
            memcpy(&g, sa + ref_off_a(r, k), 2);
            const uint16_t want = view_bits(&a, i0 + r, k0 + k);
            if (g != want && bad++ < 5) print_error("A[%d][%d]: 0x%04x, expected 0x%04x\n", r, k, g, want);
        }
    for (int k = 0; k < 64; ++k)
        for (int n = 0; n < 256; ++n) {
            uint16_t g;
            memcpy(&g, sb + ref_off_b(k, n), 2);
            const uint16_t want = view_bits(&b, k0 + k, j0 + n);
            if (g != want && bad++ < 10) print_error("B[%d][%d]: 0x%04x, expected 0x%04x\n", k, n, g, want);
        }
    assert_int_equal(bad, 0);
    assert_true(tu_all_bytes(oa, 128 * 128, 0x5a)); /* the other stages untouched */
    assert_true(tu_all_bytes(ob, 256 * 128, 0x5a));
    free(out);
}

static void test_loads(void **state) {
    (void)state;
    enum { M = 300, K = 200, N = 520, BIG = 1 << 18 };
    uint16_t *ha = (uint16_t *)malloc(BIG * 2), *hb = (uint16_t *)malloc(BIG * 2);
    assert_true(ha && hb);
    for (int i = 0; i < BIG; ++i) ha[i] = bits_at(i, 1), hb[i] = bits_at(i, 2);
    /* rows 16-byte aligned (K * 2 = 400, N * 2 = 1040 bytes): inside -> plain copies */
    check_roundtrip(tile_array2(ha, M, K), tile_array2(hb, K, N), 128, 64, 256, 0);
    /* the same arrays at their edges (rows past M, the chunk 192..199 of K
     * partial, 8 columns of N left): zero-filled copies; stage 3 -> 1 */
    check_roundtrip(tile_array2(ha, M, K), tile_array2(hb, K, N), 256, 192, 512, 3);
    /* padded rows (row stride 200 / 520 elements, 197 / 517 of them in the
     * view): the last chunk of a row partly inside, zero-filled past it */
    {
        const int64_t sha[2] = {M, 197}, sta[2] = {K, 1}, shb[2] = {K, 517}, stb[2] = {N, 1};
        check_roundtrip(tile_array_strided(ha, 2, sha, sta), tile_array_strided(hb, 2, shb, stb), 200, 192, 512, 0);
        check_roundtrip(tile_array_strided(ha, 2, sha, sta), tile_array_strided(hb, 2, shb, stb), 0, 128, 256, 1);
    }
    /* wholly outside: zeros */
    check_roundtrip(tile_array2(ha, M, K), tile_array2(hb, K, N), 300, 256, 520, 1);
    /* odd row lengths (45 and 99 elements): element copies */
    check_roundtrip(tile_array2(ha, 77, 45), tile_array2(hb, 45, 99), 0, 0, 0, 0);
    /* aligned rows, window offset not a multiple of 8: element copies */
    check_roundtrip(tile_array2(ha, M, K), tile_array2(hb, K, N), 5, 4, 3, 1);
    /* negative offsets: zeros above and left */
    check_roundtrip(tile_array2(ha, M, K), tile_array2(hb, K, N), -3, -10, -17, 0);
    /* a misaligned base (one element in) */
    check_roundtrip(tile_array2(ha + 1, M, K), tile_array2(hb + 1, K, N), 0, 0, 0, 0);
    /* strided views: A transposed (column-major storage), B every other row */
    {
        const int64_t sha[2] = {M, K}, sta[2] = {1, M}, shb[2] = {K / 2, N}, stb[2] = {2 * N, 1};
        check_roundtrip(tile_array_strided(ha, 2, sha, sta), tile_array_strided(hb, 2, shb, stb), 100, 150, 200, 1);
    }
    free(ha);
    free(hb);
}

/* ---- 3. GEMMs against a double product ---- */
/* the shapes besides the model kernel (gemm_wgmma_bf16: 128 x 256, 4 stages):
 * f16 64 x 128 (one warpgroup, 3 stages), bf16 192 x 64 (3 warpgroups) */
GEMM_WGMMA_KERNEL(gemm_wg_f16_64x128, f16, tile_f16, 64, 128, 3)
GEMM_WGMMA_KERNEL(gemm_wg_bf16_192x64, bf16, tile_bf16, 192, 64, 4)

enum { KERN_MODEL = 0, KERN_F16 = 1, KERN_192 = 2 };

static void check_gemm(int kern, int M, int N, int K, float alpha, float beta) {
    const int f16 = kern == KERN_F16;
    const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    uint16_t *ha = (uint16_t *)malloc(na * 2 + 2), *hb = (uint16_t *)malloc(nb * 2 + 2);
    float *c = (float *)malloc((nc + 64) * 4);
    double *fa = (double *)malloc((na + 1) * sizeof(double)), *fb = (double *)malloc((nb + 1) * sizeof(double));
    float *c0 = (float *)malloc((nc + 1) * 4);
    assert_true(ha && hb && c && fa && fb && c0);
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
    /* C: beta 0 -> NaN (must not be read); else values; a guard after it */
    for (size_t i = 0; i < nc; ++i) c[i] = c0[i] = beta == 0.0f ? NAN : tile_hash_unit(5, (uint32_t)i) - 0.5f;
    for (int i = 0; i < 64; ++i) c[nc + i] = 12345.0f;
    int e;
    if (kern == KERN_MODEL && alpha == 1.0f && beta == 0.0f) /* the example's own launcher */
        e = gemm_wgmma_launch(TILE_CPU, (const tile_bf16 *)ha, (const tile_bf16 *)hb, c, M, N, K);
    else if (kern == KERN_MODEL)
        e = GEMM_WGMMA_LAUNCH(TILE_CPU, gemm_wgmma_bf16, tile_bf16, 128, 256, ha, hb, c, M, N, K, alpha, beta);
    else if (kern == KERN_F16)
        e = GEMM_WGMMA_LAUNCH(TILE_CPU, gemm_wg_f16_64x128, tile_f16, 64, 128, ha, hb, c, M, N, K, alpha, beta);
    else e = GEMM_WGMMA_LAUNCH(TILE_CPU, gemm_wg_bf16_192x64, tile_bf16, 192, 64, ha, hb, c, M, N, K, alpha, beta);
    assert_tile_ok(e);
    long bad = 0;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double s = 0, sa = 0;
            for (int k = 0; k < K; ++k) {
                s += fa[(size_t)i * K + k] * fb[(size_t)k * N + j];
                sa += fabs(fa[(size_t)i * K + k] * fb[(size_t)k * N + j]);
            }
            const double old = beta == 0.0f ? 0.0 : c0[(size_t)i * N + j];
            const double want = alpha * s + beta * old, tol = 1e-5 * (fabs(alpha) * sa + fabs(beta * old)) + 1e-30;
            const double got = c[(size_t)i * N + j];
            if (!(fabs(got - want) <= tol) && bad++ < 5)
                print_error("kernel %d %dx%dx%d C[%d][%d] = %.9g, expected %.9g\n", kern, M, N, K, i, j, got, want);
        }
    assert_int_equal(bad, 0);
    for (int i = 0; i < 64; ++i) assert_true(c[nc + i] == 12345.0f); /* nothing past C */
    free(ha), free(hb), free(c), free(fa), free(fb), free(c0);
}

static void test_gemm_model(void **state) {
    (void)state;
    check_gemm(KERN_MODEL, 200, 264, 136, 1.0f, 0.0f); /* aligned rows, edges in M, N, K */
    check_gemm(KERN_MODEL, 131, 300, 77, 1.0f, 0.0f);  /* odd: element copies */
    check_gemm(KERN_MODEL, 1, 1, 1, 1.0f, 0.0f);
    check_gemm(KERN_MODEL, 129, 257, 65, 0.5f, 2.0f);  /* one past a tile everywhere; alpha, beta */
    check_gemm(KERN_MODEL, 70, 33, 0, 1.0f, 0.0f);     /* K = 0: C = 0 */
    check_gemm(KERN_MODEL, 130, 20, 200, 1.0f, 0.0f);  /* 4 windows: every stage reused */
}
static void test_gemm_shapes(void **state) {
    (void)state;
    check_gemm(KERN_F16, 100, 136, 264, -1.5f, 0.25f);
    check_gemm(KERN_F16, 65, 129, 63, 1.0f, 0.0f);
    check_gemm(KERN_192, 200, 72, 136, 1.0f, 0.0f);
    check_gemm(KERN_192, 193, 65, 321, 2.0f, -1.0f);
}

/* ---- 4. the store: a strided view of C inside a larger buffer ----
 * One window of A = all 1 (64 x 64, bf16) and B = all 2: acc = 128
 * everywhere; stored with store_ab at (i0, j0) into the M x N view (row
 * stride ldc) of buf: inside, alpha 128 + beta old; the rest untouched. */
TILE_KERNEL_SMEM(wg_store, 128, TILE_WGMMA_SMEM(64, 64, 1), const tile_bf16 *A, const tile_bf16 *B, tile_array c,
                 int64_t i0, int64_t j0, float alpha, float beta) {
    tile_wgmma_window_a_bf16(aw, 64, 1);
    tile_wgmma_window_b_bf16(bw, 64, 1);
    tile_wgmma_acc(acc, 64, 64);
    tile_wgmma_load_a(aw, 0, tile_array2(A, 64, 64), 0, 0);
    tile_wgmma_load_b(bw, 0, tile_array2(B, 64, 64), 0, 0);
    tile_async_commit();
    tile_wgmma_wait(0);
    tile_wgmma_mma_async(acc, aw, 0, bw, 0);
    tile_wgmma_mma_wait(acc, 0);
    tile_wgmma_store_ab(c, acc, i0, j0, alpha, beta);
}

static void check_store(int64_t i0, int64_t j0, float alpha, float beta) {
    enum { M = 50, N = 37, LDC = 45, ROWS = 60 };
    static tile_bf16 a[64 * 64], b[64 * 64];
    static float buf[ROWS * LDC], old[ROWS * LDC];
    for (int i = 0; i < 64 * 64; ++i) a[i] = tile_f32_to_bf16(1.0f), b[i] = tile_f32_to_bf16(2.0f);
    for (int i = 0; i < ROWS * LDC; ++i) buf[i] = old[i] = (float)(i % 17) - 8.0f;
    const int64_t sh[2] = {M, N}, st[2] = {LDC, 1};
    const tile_array c = tile_array_strided(buf, 2, sh, st);
    assert_tile_ok(tile_launch(TILE_CPU, wg_store, tile_grid1(1), 128, a, b, c, i0, j0, alpha, beta));
    for (int r = 0; r < ROWS; ++r)
        for (int col = 0; col < LDC; ++col) {
            const int in = r < M && col < N && r >= i0 && r < i0 + 64 && col >= j0 && col < j0 + 64;
            const float want = in ? alpha * 128.0f + (beta == 0.0f ? 0.0f : beta * old[r * LDC + col]) : old[r * LDC + col];
            if (buf[r * LDC + col] != want) print_error("(i0 %d j0 %d) buf[%d][%d] = %g, expected %g\n", (int)i0, (int)j0, r, col, buf[r * LDC + col], want);
            assert_true(buf[r * LDC + col] == want);
        }
}
static void test_store(void **state) {
    (void)state;
    check_store(0, 0, 1.0f, 0.0f);
    check_store(10, 5, 0.5f, 2.0f);
    check_store(-20, -30, 1.0f, 1.0f); /* rows and columns before the view dropped */
    check_store(49, 36, 2.0f, 0.0f);   /* one element inside */
    check_store(50, 0, 1.0f, 0.0f);    /* wholly below: nothing written */
}

int main(void) {
    (void)example_target; /* the example's helpers, unused here */
    (void)example_check;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),     cmocka_unit_test(test_loads), cmocka_unit_test(test_gemm_model),
        cmocka_unit_test(test_gemm_shapes), cmocka_unit_test(test_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
