/* tests/gpu/gpu_test.cu - the tile.h kernels on the GPU and on the CPU target
 * of the same nvcc build, each run checked against a plain host loop.
 *
 *   gpu_test             GPU 0 (when there is one), then the CPU target
 *   gpu_test --cpu-only  the CPU target only (CI machines without a GPU)
 *
 * Every kernel runs once per target and both results are compared with an
 * independent reference computed here in plain C (double precision for float
 * data). The CPU target runs the same kernel body with block_dim 1, so
 * expectations that depend on the block size (coordinates, per-thread tiles,
 * SIMT block sums) are built per target. Inputs come from tile_hash32, never
 * zeros; outputs are poisoned before each launch (NaN bytes for floating
 * point, 0xAB bytes for integers) so that an element the kernel does not write
 * shows up as a failure.
 *
 * Prints one FAIL line per failed check (file:line, target, test, values) and
 * last the summary "gpu_test: N checks, M failed (targets: gpu+cpu|cpu)";
 * the exit code is nonzero on any failure.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define GC_MAX_PRINTED 400
#include "gpu_check.h"

/* ========================================================================
 * element-by-element comparisons; every element counts as one check
 * ======================================================================== */
static void check_i32_(const char *f, int l, const char *what, const int32_t *got, const int32_t *exp, long n) {
    long bad = 0;
    for (long i = 0; i < n; ++i) {
        ++g_checks;
        if (got[i] == exp[i]) continue;
        fail_elem(&bad, f, l, "%s[%ld] = %d, expected %d", what, i, (int)got[i], (int)exp[i]);
    }
    fail_elem_total(f, l, what, bad, n);
}
/* the arrays hold floats: read their bits with memcpy (a uint32_t pointer
 * would break strict aliasing, and gcc 12 -O3 then dropped the stores that
 * filled the reference) */
static void check_bits32_(const char *f, int l, const char *what, const void *gotp, const void *expp, long n) {
    const unsigned char *gb = (const unsigned char *)gotp, *eb = (const unsigned char *)expp;
    long bad = 0;
    for (long i = 0; i < n; ++i) {
        ++g_checks;
        uint32_t got, exp;
        memcpy(&got, gb + 4 * i, 4);
        memcpy(&exp, eb + 4 * i, 4);
        if (got == exp) continue;
        float gf, ef;
        memcpy(&gf, &got, 4);
        memcpy(&ef, &exp, 4);
        fail_elem(&bad, f, l, "%s[%ld] = 0x%08x (%.9g), expected 0x%08x (%.9g) bit for bit", what, i,
                  (unsigned)got, (double)gf, (unsigned)exp, (double)ef);
    }
    fail_elem_total(f, l, what, bad, n);
}
static void check_bits64_(const char *f, int l, const char *what, const double *got, const double *exp, long n) {
    long bad = 0;
    for (long i = 0; i < n; ++i) {
        ++g_checks;
        if (memcmp(&got[i], &exp[i], 8) == 0) continue;
        fail_elem(&bad, f, l, "%s[%ld] = %.17g, expected %.17g bit for bit", what, i, got[i], exp[i]);
    }
    fail_elem_total(f, l, what, bad, n);
}
/* |got - ref| <= tol[i] when tol is given, else <= atol + rtol * |ref|; NaN fails */
static void check_f32_(const char *f, int l, const char *what, const float *got, const double *ref, long n,
                       double rtol, double atol, const double *tol) {
    long bad = 0;
    for (long i = 0; i < n; ++i) {
        ++g_checks;
        double t = tol ? tol[i] : atol + rtol * fabs(ref[i]);
        if (fabs((double)got[i] - ref[i]) <= t) continue;
        fail_elem(&bad, f, l, "%s[%ld] = %.9g, expected %.9g (tolerance %.3g)", what, i, (double)got[i], ref[i], t);
    }
    fail_elem_total(f, l, what, bad, n);
}
static void check_f64_(const char *f, int l, const char *what, const double *got, const double *ref, long n,
                       double rtol, double atol, const double *tol) {
    long bad = 0;
    for (long i = 0; i < n; ++i) {
        ++g_checks;
        double t = tol ? tol[i] : atol + rtol * fabs(ref[i]);
        if (fabs(got[i] - ref[i]) <= t) continue;
        fail_elem(&bad, f, l, "%s[%ld] = %.17g, expected %.17g (tolerance %.3g)", what, i, got[i], ref[i], t);
    }
    fail_elem_total(f, l, what, bad, n);
}
#define CHECK_I32(what, got, exp, n) check_i32_(__FILE__, __LINE__, what, (const int32_t *)(got), (const int32_t *)(exp), n)
#define CHECK_BITS32(what, got, exp, n) check_bits32_(__FILE__, __LINE__, what, got, exp, n)
#define CHECK_BITS64(what, got, exp, n) check_bits64_(__FILE__, __LINE__, what, got, exp, n)
#define CHECK_F32(what, got, ref, n, rtol, atol) check_f32_(__FILE__, __LINE__, what, got, ref, n, rtol, atol, NULL)
#define CHECK_F32_TOL(what, got, ref, n, tol) check_f32_(__FILE__, __LINE__, what, got, ref, n, 0, 0, tol)
#define CHECK_F64(what, got, ref, n, rtol, atol) check_f64_(__FILE__, __LINE__, what, got, ref, n, rtol, atol, NULL)
#define CHECK_F64_TOL(what, got, ref, n, tol) check_f64_(__FILE__, __LINE__, what, got, ref, n, 0, 0, tol)

/* one correctly rounded float operation: within half an ulp of the exact value */
#define REL1_F32 (1.0 / (1 << 23))
#define REL1_F64 (4.5e-16)

/* ========================================================================
 * input data
 * ======================================================================== */
/* inputs derived from tile_hash32: value in [lo, hi) for (seed, i) */
static float hval(uint32_t seed, uint32_t i, float lo, float hi) {
    return lo + (hi - lo) * ((float)(tile_hash32(seed, i) >> 8) * (1.0f / 16777216.0f));
}
/* +-[mlo, mhi): magnitude bounded away from zero, random sign */
static float hsigned(uint32_t seed, uint32_t i, float mlo, float mhi) {
    float m = hval(seed, i, mlo, mhi);
    return (tile_hash32(seed ^ 0x5bd1e995u, i) & 1u) ? -m : m;
}
/* multiple of 1/64 in [-127/64, 127/64]: sums of a few thousand are exact in float */
static float hdyadic(uint32_t seed, uint32_t i) {
    return (float)((int)(tile_hash32(seed, i) % 255u) - 127) / 64.0f;
}

/* ========================================================================
 * 1. launch and coordinates
 * ======================================================================== */
/* one record per thread, at index block_linear * block_dim + thread */
enum { REC = 17 };
#define COORD_BODY                                                                 \
    {                                                                              \
        const int ld = nd + tiled; /* logical dims: a tiled launch adds the block */ \
        int *r = out + (tile_block_linear() * TILE_BLOCK_DIM + tile_thread()) * REC; \
        r[0] = ld > 0 ? tile_tid(0) : -1;                                          \
        r[1] = ld > 1 ? tile_tid(1) : -1;                                          \
        r[2] = ld > 2 ? tile_tid(2) : -1;                                          \
        r[3] = ld > 3 ? tile_tid(3) : -1;                                          \
        r[4] = ld > 4 ? tile_tid(4) : -1;                                          \
        r[5] = tiled && nd > 0 ? tile_block(0) : -1;                               \
        r[6] = tiled && nd > 1 ? tile_block(1) : -1;                               \
        r[7] = tiled && nd > 2 ? tile_block(2) : -1;                               \
        r[8] = tiled && nd > 3 ? tile_block(3) : -1;                               \
        r[9] = tile_thread();                                                      \
        r[10] = TILE_BLOCK_DIM;                                                    \
        r[11] = (int)tile_block_linear();                                          \
        r[12] = ld > 0 ? tile_grid_dim(0) : -1;                                    \
        r[13] = ld > 1 ? tile_grid_dim(1) : -1;                                    \
        r[14] = ld > 2 ? tile_grid_dim(2) : -1;                                    \
        r[15] = ld > 3 ? tile_grid_dim(3) : -1;                                    \
        r[16] = ld > 4 ? tile_grid_dim(4) : -1;                                    \
    }
TILE_KERNEL(coord64, 64, int *out, int nd, int tiled) COORD_BODY
TILE_KERNEL(coord96, 96, int *out, int nd, int tiled) COORD_BODY
TILE_KERNEL(coord128, 128, int *out, int nd, int tiled) COORD_BODY

static long grid_prod(tile_grid g) {
    long p = 1;
    for (int i = 0; i < g.ndim; ++i) p *= (long)g.d[i];
    return p;
}

static void coord_verify(const target *t, const char *label, const int32_t *got, tile_grid g, int tiled, int B,
                         long nthreads) {
    const int bd = t->gpu ? B : 1;
    const int ld = g.ndim + tiled;
    long dims[5] = {1, 1, 1, 1, 1};
    for (int k = 0; k < g.ndim; ++k) dims[k] = (long)g.d[k];
    if (tiled) dims[g.ndim] = bd;
    int32_t *exp = HALLOC(int32_t, nthreads * REC);
    for (long lin = 0; lin < nthreads; ++lin) {
        int32_t *e = exp + lin * REC;
        long c[5] = {0, 0, 0, 0, 0}, rem = lin;
        for (int k = ld - 1; k >= 0; --k) {
            c[k] = rem % dims[k];
            rem /= dims[k];
        }
        for (int k = 0; k < 5; ++k) e[k] = k < ld ? (int32_t)c[k] : -1;
        for (int k = 0; k < 4; ++k) e[5 + k] = (tiled && k < g.ndim) ? (int32_t)c[k] : -1;
        e[9] = (int32_t)(lin % bd);
        e[10] = bd;
        e[11] = (int32_t)(lin / bd);
        for (int k = 0; k < 5; ++k) e[12 + k] = k < ld ? (int32_t)dims[k] : -1;
    }
    static const char *field[REC] = {"tile_tid(0)", "tile_tid(1)", "tile_tid(2)", "tile_tid(3)", "tile_tid(4)",
                                     "tile_block(0)", "tile_block(1)", "tile_block(2)", "tile_block(3)",
                                     "tile_thread()", "TILE_BLOCK_DIM", "tile_block_linear()", "tile_grid_dim(0)",
                                     "tile_grid_dim(1)", "tile_grid_dim(2)", "tile_grid_dim(3)", "tile_grid_dim(4)"};
    long bad = 0;
    for (long i = 0; i < nthreads * REC; ++i) {
        ++g_checks;
        if (got[i] == exp[i]) continue;
        fail_elem(&bad, __FILE__, __LINE__, "%s: thread %ld (block %ld, thread %ld): %s = %d, expected %d", label,
                  i / REC, i / REC / bd, i / REC % bd, field[i % REC], (int)got[i], (int)exp[i]);
    }
    if (bad > MAX_PER_ARRAY) printf("     %s: %ld of %ld values differ\n", label, bad, nthreads * REC);
    free(exp);
}

#define COORD_CASE(kern, B, tiled_, grid_)                                         \
    do {                                                                           \
        const tile_grid g_ = grid_;                                                \
        const long n_ = grid_prod(g_) * ((tiled_) ? (t->gpu ? (B) : 1) : 1);       \
        const size_t bytes_ = (size_t)n_ * REC * sizeof(int32_t);                  \
        int32_t *d_ = DALLOC(int32_t, n_ * REC), *h_ = HALLOC(int32_t, n_ * REC);  \
        POISON(d_, bytes_, POISON_I);                                              \
        if (tiled_) CHECK_ERR(tile_launch(t->ex, kern, g_, B, d_, g_.ndim, 1), TILE_OK); \
        else CHECK_ERR(tile_launch_simt(t->ex, kern, g_, B, d_, g_.ndim, 0), TILE_OK); \
        SYNC_OK();                                                                 \
        DOWN(h_, d_, bytes_);                                                      \
        coord_verify(t, (tiled_) ? "tiled " #kern " " #grid_ : "simt " #kern " " #grid_, h_, g_, (tiled_), (B), n_); \
        free(h_);                                                                  \
        tile_free(t->ex, d_);                                                      \
    } while (0)

static void test_coords(const target *t) {
    g_test = "launch coordinates";
    /* tiled: grid of tiles, one block each */
    COORD_CASE(coord64, 64, 1, tile_grid1(7));
    COORD_CASE(coord96, 96, 1, tile_grid2(3, 5));
    COORD_CASE(coord128, 128, 1, tile_grid3(2, 3, 4));
    COORD_CASE(coord64, 64, 1, tile_grid4(2, 1, 3, 2));
    COORD_CASE(coord96, 96, 1, tile_grid4(3, 2, 2, 1));
    COORD_CASE(coord128, 128, 1, tile_grid1(1));
    /* SIMT: grid of threads, a multiple of the block size */
    COORD_CASE(coord64, 64, 0, tile_grid1(192));
    COORD_CASE(coord96, 96, 0, tile_grid2(4, 48));
    COORD_CASE(coord128, 128, 0, tile_grid3(2, 3, 64));
    COORD_CASE(coord64, 64, 0, tile_grid4(2, 2, 3, 16));
    COORD_CASE(coord96, 96, 0, tile_grid4(2, 3, 4, 4));
    COORD_CASE(coord128, 128, 0, tile_grid2(5, 128));
}

/* ========================================================================
 * 2. element-wise operations
 * ======================================================================== */
#define N1 100

TILE_FUNC float fx(float x) { return x * 2.0f + 1.0f; }       /* x * 2 is exact: one rounding */
TILE_FUNC float fxy(float x, float y) { return x * 0.5f - y; } /* likewise */
TILE_FUNC double gx(double x) { return x * 4.0 - 1.0; }
TILE_FUNC tile_vec3f vmul(tile_vec3f a, tile_vec3f b) {
    return tile_vec3f_set(a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2]);
}

/* ---- f32, 100 elements, block 64 (the second slot is partial) ---- */
enum { EWF_NOPS = 17 };
#define ST1(t, k) tile_store(tile_array1(out + (k) * N1, N1), t, 0)
TILE_KERNEL_SMEM(ew_f32, 64, 3 * TILE_SMEM_BYTES(float, N1), const float *a, const float *b, float *out) {
    tile_reg(float, ra, N1);
    tile_reg(float, rb, N1);
    tile_load(ra, tile_array1(a, N1), 0);
    tile_load(rb, tile_array1(b, N1), 0);
    tile_shared(float, sb, N1);
    tile_copy(sb, rb);
    tile_reg(float, c, N1);
    tile_add(c, ra, rb);
    ST1(c, 0);
    tile_sub(c, ra, sb); /* register and shared operands mixed */
    ST1(c, 1);
    tile_mul(c, sb, ra);
    ST1(c, 2);
    tile_div(c, ra, sb);
    ST1(c, 3);
    tile_neg(c, ra);
    ST1(c, 4);
    tile_mul_c(c, ra, 3.0f);
    ST1(c, 5);
    tile_c_mul(c, 0.5f, sb);
    ST1(c, 6);
    tile_div_c(c, ra, 4.0f);
    ST1(c, 7);
    tile_c_div(c, 12.0f, rb);
    ST1(c, 8);
    tile_map(c, fx, ra);
    ST1(c, 9);
    tile_map2(c, fxy, ra, sb);
    ST1(c, 10);
    tile_shared(float, sc, N1);
    tile_add(sc, ra, sb); /* shared destination */
    ST1(sc, 11);
    tile_copy(c, ra); /* in place on a register tile: ((a + b) * 2 - b) / b */
    tile_iadd(c, rb);
    tile_imul_c(c, 2.0f);
    tile_isub(c, sb);
    tile_idiv(c, rb);
    ST1(c, 12);
    tile_imul(sb, ra); /* in place on a shared tile */
    ST1(sb, 13);
    tile_idiv_c(sb, 2.0f);
    ST1(sb, 14);
    tile_to_shared(sa, ra); /* random access: any thread reads any element */
    for (int k = tile_thread(); k < N1; k += TILE_BLOCK_DIM) out[15 * N1 + k] = tile_get(sa, N1 - 1 - k);
    tile_set(sa, 42.0f, 7);
    tile_set(sa, -1.0f, N1 - 1);
    ST1(sa, 16);
}

static void test_ew_f32(const target *t) {
    g_test = "element-wise f32 (100 elements, block 64)";
    static const char *names[EWF_NOPS] = {"add", "sub reg-shared", "mul shared-reg", "div", "neg", "mul_c",
                                          "c_mul", "div_c", "c_div", "map", "map2", "add into shared",
                                          "in-place chain", "imul shared", "idiv_c shared", "to_shared+get",
                                          "tile_set"};
    float ha[N1], hb[N1];
    for (int i = 0; i < N1; ++i) {
        ha[i] = hsigned(11, i, 0.25f, 4.0f);
        hb[i] = hsigned(12, i, 0.5f, 2.0f);
    }
    float *da = DALLOC(float, N1), *db = DALLOC(float, N1), *dout = DALLOC(float, EWF_NOPS * N1);
    float *hout = HALLOC(float, EWF_NOPS * N1);
    UP(da, ha, sizeof(ha));
    UP(db, hb, sizeof(hb));
    POISON(dout, EWF_NOPS * N1 * sizeof(float), POISON_F);
    RUN_OK(tile_launch(t->ex, ew_f32, tile_grid1(1), 64, da, db, dout));
    DOWN(hout, dout, EWF_NOPS * N1 * sizeof(float));

    double ref[N1], tol[N1];
    for (int op = 0; op < EWF_NOPS; ++op) {
        for (int i = 0; i < N1; ++i) {
            const double a = ha[i], b = hb[i];
            double r = 0, tl = -1; /* tl < 0: one rounding */
            switch (op) {
            case 0: r = a + b; break;
            case 1: r = a - b; break;
            case 2: r = b * a; break;
            case 3: r = a / b; break;
            case 4: r = -a; break;
            case 5: r = a * 3; break;
            case 6: r = 0.5 * b; break;
            case 7: r = a / 4; break;
            case 8: r = 12 / b; break;
            case 9: r = a * 2 + 1; break;
            case 10: r = a * 0.5 - b; break;
            case 11: r = a + b; break;
            case 12:
                r = ((a + b) * 2 - b) / b;
                tl = 2 * REL1_F32 * ((4 * fabs(a + b) + fabs(b)) / fabs(b) + fabs(r));
                break;
            case 13: r = b * a; break;
            case 14: r = b * a / 2; break;
            case 15: r = ha[N1 - 1 - i]; break;
            case 16: r = i == 7 ? 42.0 : i == N1 - 1 ? -1.0 : a; break;
            }
            ref[i] = r;
            tol[i] = tl >= 0 ? tl : REL1_F32 * fabs(r);
        }
        CHECK_F32_TOL(names[op], hout + op * N1, ref, N1, tol);
    }
    free(hout);
    tile_free(t->ex, da);
    tile_free(t->ex, db);
    tile_free(t->ex, dout);
}

/* ---- f32 7x9 tiles with block 64 (63 elements: thread 63 idle), loads and
 * stores at offsets, clipped at the array's edges ---- */
#define R2 10
#define C2 12
TILE_KERNEL_SMEM(ew_2d, 64, TILE_SMEM_BYTES(float, 7, 9), const float *A, const float *B, float *out, float *big) {
    tile_reg(float, a, 7, 9);
    tile_load(a, tile_array2(A, R2, C2), 2, 3);
    tile_shared(float, s, 7, 9);
    tile_load(s, tile_array2(B, R2, C2), 1, 0);
    tile_reg(float, c, 7, 9);
    tile_mul(c, a, s);
    tile_store(tile_array2(out, 7, 9), c, 0, 0);
    tile_isub(s, a);
    tile_store(tile_array2(out + 63, 7, 9), s, 0, 0);
    tile_reg(float, e, 7, 9);
    tile_load(e, tile_array2(A, R2, C2), 5, 6); /* rows 10.., cols 12.. read as 0 */
    tile_store(tile_array2(out + 126, 7, 9), e, 0, 0);
    tile_store(tile_array2(big, R2, C2), a, 5, 6); /* rows 10.., cols 12.. dropped */
}

static void test_ew_2d(const target *t) {
    g_test = "element-wise f32 7x9 (block 64), offsets and clipping";
    float hA[R2 * C2], hB[R2 * C2];
    for (int i = 0; i < R2 * C2; ++i) {
        hA[i] = hsigned(21, i, 0.25f, 4.0f);
        hB[i] = hsigned(22, i, 0.25f, 4.0f);
    }
    float *dA = DALLOC(float, R2 * C2), *dB = DALLOC(float, R2 * C2), *dout = DALLOC(float, 3 * 63),
          *dbig = DALLOC(float, R2 * C2);
    float hout[3 * 63], hbig[R2 * C2];
    UP(dA, hA, sizeof(hA));
    UP(dB, hB, sizeof(hB));
    POISON(dout, sizeof(hout), POISON_F);
    POISON(dbig, sizeof(hbig), POISON_F);
    RUN_OK(tile_launch(t->ex, ew_2d, tile_grid1(1), 64, dA, dB, dout, dbig));
    DOWN(hout, dout, sizeof(hout));
    DOWN(hbig, dbig, sizeof(hbig));
    double r0[63], r1[63], t1[63], r2[63];
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 9; ++j) {
            const double a = hA[(2 + i) * C2 + 3 + j], b = hB[(1 + i) * C2 + j];
            r0[i * 9 + j] = a * b;
            r1[i * 9 + j] = b - a;
            t1[i * 9 + j] = REL1_F32 * fabs(b - a);
            r2[i * 9 + j] = (5 + i < R2 && 6 + j < C2) ? hA[(5 + i) * C2 + 6 + j] : 0.0;
        }
    CHECK_F32("mul reg*shared 7x9", hout, r0, 63, REL1_F32, 0);
    CHECK_F32_TOL("isub shared 7x9", hout + 63, r1, 63, t1);
    CHECK_F32("clipped load (zeros outside)", hout + 126, r2, 63, 0, 0);
    uint32_t ebig[R2 * C2];
    for (int r = 0; r < R2; ++r)
        for (int c = 0; c < C2; ++c) {
            if (r >= 5 && c >= 6) memcpy(&ebig[r * C2 + c], &hA[(2 + r - 5) * C2 + 3 + c - 6], 4);
            else ebig[r * C2 + c] = poison_bits32(POISON_F);
        }
    CHECK_BITS32("clipped store (outside untouched)", hbig, ebig, R2 * C2);
    tile_free(t->ex, dA);
    tile_free(t->ex, dB);
    tile_free(t->ex, dout);
    tile_free(t->ex, dbig);
}

/* ---- i32, 7x9, block 64 ---- */
enum { EWI_NOPS = 11 };
#define STI(t, k) tile_store(tile_array2(out + (k) * 63, 7, 9), t, 0, 0)
TILE_KERNEL_SMEM(ew_i32, 64, TILE_SMEM_BYTES(int32_t, 7, 9), const int32_t *a, const int32_t *b, int32_t *out) {
    tile_reg(int32_t, ra, 7, 9);
    tile_reg(int32_t, rb, 7, 9);
    tile_load(ra, tile_array2(a, 7, 9), 0, 0);
    tile_load(rb, tile_array2(b, 7, 9), 0, 0);
    tile_shared(int32_t, sb, 7, 9);
    tile_copy(sb, rb);
    tile_reg(int32_t, c, 7, 9);
    tile_add(c, ra, sb);
    STI(c, 0);
    tile_sub(c, sb, ra);
    STI(c, 1);
    tile_mul(c, ra, rb);
    STI(c, 2);
    tile_div(c, ra, sb);
    STI(c, 3);
    tile_neg(c, ra);
    STI(c, 4);
    tile_mul_c(c, ra, 3);
    STI(c, 5);
    tile_c_div(c, 1000, rb);
    STI(c, 6);
    tile_div_c(c, ra, 7);
    STI(c, 7);
    tile_copy(c, ra); /* (a + b) * b - a */
    tile_iadd(c, sb);
    tile_imul(c, rb);
    tile_isub(c, ra);
    STI(c, 8);
    tile_imul_c(sb, -2);
    STI(sb, 9);
    tile_arange(c, 5, -3);
    STI(c, 10);
}

static void test_ew_i32(const target *t) {
    g_test = "element-wise i32 7x9 (block 64)";
    static const char *names[EWI_NOPS] = {"add", "sub", "mul", "div", "neg", "mul_c", "c_div", "div_c",
                                          "in-place chain", "imul_c shared", "arange"};
    int32_t ha[63], hb[63];
    for (int i = 0; i < 63; ++i) {
        ha[i] = (int32_t)(tile_hash32(31, i) % 2001u) - 1000;
        hb[i] = (int32_t)(tile_hash32(32, i) % 199u) - 99;
        if (hb[i] == 0) hb[i] = 13;
    }
    int32_t *da = DALLOC(int32_t, 63), *db = DALLOC(int32_t, 63), *dout = DALLOC(int32_t, EWI_NOPS * 63);
    int32_t hout[EWI_NOPS * 63], exp[63];
    UP(da, ha, sizeof(ha));
    UP(db, hb, sizeof(hb));
    POISON(dout, sizeof(hout), POISON_I);
    RUN_OK(tile_launch(t->ex, ew_i32, tile_grid1(1), 64, da, db, dout));
    DOWN(hout, dout, sizeof(hout));
    for (int op = 0; op < EWI_NOPS; ++op) {
        for (int i = 0; i < 63; ++i) {
            const int32_t a = ha[i], b = hb[i];
            int32_t r = 0;
            switch (op) {
            case 0: r = a + b; break;
            case 1: r = b - a; break;
            case 2: r = a * b; break;
            case 3: r = a / b; break;
            case 4: r = -a; break;
            case 5: r = a * 3; break;
            case 6: r = 1000 / b; break;
            case 7: r = a / 7; break;
            case 8: r = (a + b) * b - a; break;
            case 9: r = b * -2; break;
            case 10: r = 5 - 3 * i; break;
            }
            exp[i] = r;
        }
        CHECK_I32(names[op], hout + op * 63, exp, 63);
    }
    tile_free(t->ex, da);
    tile_free(t->ex, db);
    tile_free(t->ex, dout);
}

/* ---- f64, 100 elements, block 128 (threads 100..127 idle) ---- */
enum { EWD_NOPS = 10 };
#define STD(t, k) tile_store(tile_array1(out + (k) * N1, N1), t, 0)
TILE_KERNEL_SMEM(ew_f64, 128, 2 * TILE_SMEM_BYTES(double, N1), const double *a, const double *b, double *out) {
    tile_reg(double, ra, N1);
    tile_reg(double, rb, N1);
    tile_load(ra, tile_array1(a, N1), 0);
    tile_load(rb, tile_array1(b, N1), 0);
    tile_shared(double, sb, N1);
    tile_copy(sb, rb);
    tile_reg(double, c, N1);
    tile_add(c, ra, sb);
    STD(c, 0);
    tile_sub(c, sb, ra);
    STD(c, 1);
    tile_mul(c, ra, rb);
    STD(c, 2);
    tile_div(c, ra, sb);
    STD(c, 3);
    tile_neg(c, ra);
    STD(c, 4);
    tile_mul_c(c, ra, 3); /* int constant, converted to double */
    STD(c, 5);
    tile_c_div(c, 1.0, rb);
    STD(c, 6);
    tile_map(c, gx, ra);
    STD(c, 7);
    tile_copy(c, ra); /* a * b + b */
    tile_imul(c, sb);
    tile_iadd(c, rb);
    STD(c, 8);
    tile_shared(double, sc, N1);
    tile_mul_c(sc, ra, 0.5f); /* float constant */
    STD(sc, 9);
    tile_sum(s, ra);
    tile_store(tile_array1(out + EWD_NOPS * N1, 1), s, 0);
}

static void test_ew_f64(const target *t) {
    g_test = "element-wise f64 (100 elements, block 128)";
    static const char *names[EWD_NOPS] = {"add", "sub", "mul", "div", "neg", "mul_c int", "c_div",
                                          "map", "in-place chain", "mul_c float into shared"};
    double ha[N1], hb[N1];
    for (int i = 0; i < N1; ++i) {
        ha[i] = (double)hsigned(41, i, 0.25f, 4.0f) + (double)hval(43, i, 0, 1) * 1e-9;
        hb[i] = (double)hsigned(42, i, 0.5f, 2.0f) + (double)hval(44, i, 0, 1) * 1e-9;
    }
    const long nout = EWD_NOPS * N1 + 1;
    double *da = DALLOC(double, N1), *db = DALLOC(double, N1), *dout = DALLOC(double, nout);
    double *hout = HALLOC(double, nout);
    UP(da, ha, sizeof(ha));
    UP(db, hb, sizeof(hb));
    POISON(dout, nout * sizeof(double), POISON_F);
    RUN_OK(tile_launch(t->ex, ew_f64, tile_grid1(1), 128, da, db, dout));
    DOWN(hout, dout, nout * sizeof(double));
    double ref[N1], tol[N1];
    for (int op = 0; op < EWD_NOPS; ++op) {
        for (int i = 0; i < N1; ++i) {
            const double a = ha[i], b = hb[i];
            double r = 0, tl = -1;
            switch (op) {
            case 0: r = a + b; break;
            case 1: r = b - a; break;
            case 2: r = a * b; break;
            case 3: r = a / b; break;
            case 4: r = -a; break;
            case 5: r = a * 3; break;
            case 6: r = 1.0 / b; break;
            case 7: r = a * 4.0 - 1.0; tl = REL1_F64 * (fabs(a * 4.0) + 1.0); break;
            case 8: r = a * b + b; tl = 2 * REL1_F64 * (fabs(a * b) + fabs(b)); break;
            case 9: r = a * 0.5; break;
            }
            ref[i] = r;
            tol[i] = tl >= 0 ? tl : REL1_F64 * fabs(r);
        }
        CHECK_F64_TOL(names[op], hout + op * N1, ref, N1, tol);
    }
    double sum = 0, sabs = 0;
    for (int i = 0; i < N1; ++i) {
        sum += ha[i];
        sabs += fabs(ha[i]);
    }
    CHECK_F64("tile_sum f64", hout + EWD_NOPS * N1, &sum, 1, 0, N1 * DBL_EPSILON * sabs);
    free(hout);
    tile_free(t->ex, da);
    tile_free(t->ex, db);
    tile_free(t->ex, dout);
}

/* ---- vec3f and promotion, 100 elements, block 96 (3 warps, partial slot) ---- */
enum { EWV_NOPS = 13 };
#define STV(t, k) tile_store(tile_array1(out + (k) * N1, N1), t, 0)
TILE_KERNEL_SMEM(ew_vec3, 96, 2 * TILE_SMEM_BYTES(tile_vec3f, N1), const float *a, const float *b,
                 const tile_vec3f *v, tile_vec3f *out) {
    tile_reg(float, ra, N1);
    tile_reg(float, rb, N1);
    tile_reg(tile_vec3f, rv, N1);
    tile_load(ra, tile_array1(a, N1), 0);
    tile_load(rb, tile_array1(b, N1), 0);
    tile_load(rv, tile_array1(v, N1), 0);
    const tile_vec3f k = tile_vec3f_set(1.0f, -2.0f, 0.5f);
    tile_reg(tile_vec3f, c, N1);
    tile_mul_c(c, ra, k); /* f32 tile * vec3f constant -> vec3f tile */
    STV(c, 0);
    tile_c_mul(c, k, ra);
    STV(c, 1);
    tile_div(c, rv, rb); /* vec3f tile / f32 tile */
    STV(c, 2);
    tile_div(c, rb, rv); /* f32 tile / vec3f tile, per component */
    STV(c, 3);
    tile_mul(c, ra, rv);
    STV(c, 4);
    tile_shared(tile_vec3f, sc, N1);
    tile_mul(sc, rv, ra);
    STV(sc, 5);
    tile_to_shared(sv, rv);
    tile_imul_c(sv, 2.0f);
    tile_sub(c, rv, sv); /* v - 2v */
    STV(c, 6);
    tile_neg(c, rv);
    STV(c, 7);
    tile_map2(c, vmul, rv, sv); /* component-wise v * 2v */
    STV(c, 8);
    tile_ones(c);
    STV(c, 9);
    tile_full(sc, k);
    STV(sc, 10);
    tile_add(c, rv, sc);
    STV(c, 11);
    tile_div_c(c, rv, 4.0f);
    STV(c, 12);
    tile_sum(s, rv);
    tile_store(tile_array1(out + EWV_NOPS * N1, 1), s, 0);
}

static void test_ew_vec3(const target *t) {
    g_test = "vec3f tiles and promotion (100 elements, block 96)";
    static const char *names[EWV_NOPS] = {"f32*vec3f const", "vec3f const*f32", "vec3f/f32 tile", "f32/vec3f tile",
                                          "f32*vec3f tile", "vec3f*f32 into shared", "v - 2v", "neg", "map2",
                                          "ones", "full shared", "add", "div_c"};
    float ha[N1], hb[N1], hv[3 * N1];
    for (int i = 0; i < N1; ++i) {
        ha[i] = hsigned(51, i, 0.25f, 4.0f);
        hb[i] = hsigned(52, i, 0.5f, 2.0f);
        for (int c = 0; c < 3; ++c) hv[3 * i + c] = hsigned(53 + c, i, 0.5f, 2.0f);
    }
    const long nout = 3 * (EWV_NOPS * N1 + 1);
    float *da = DALLOC(float, N1), *db = DALLOC(float, N1);
    tile_vec3f *dv = DALLOC(tile_vec3f, N1), *dout = DALLOC(tile_vec3f, EWV_NOPS * N1 + 1);
    float *hout = HALLOC(float, nout);
    UP(da, ha, sizeof(ha));
    UP(db, hb, sizeof(hb));
    UP(dv, hv, sizeof(hv));
    POISON(dout, nout * sizeof(float), POISON_F);
    RUN_OK(tile_launch(t->ex, ew_vec3, tile_grid1(1), 96, da, db, dv, dout));
    DOWN(hout, dout, nout * sizeof(float));
    const double k[3] = {1.0, -2.0, 0.5};
    double ref[3 * N1];
    for (int op = 0; op < EWV_NOPS; ++op) {
        for (int i = 0; i < N1; ++i)
            for (int c = 0; c < 3; ++c) {
                const double a = ha[i], b = hb[i], v = hv[3 * i + c];
                double r = 0;
                switch (op) {
                case 0: r = a * k[c]; break;
                case 1: r = k[c] * a; break;
                case 2: r = v / b; break;
                case 3: r = b / v; break;
                case 4: r = a * v; break;
                case 5: r = v * a; break;
                case 6: r = -v; break;
                case 7: r = -v; break;
                case 8: r = 2 * v * v; break;
                case 9: r = 1; break;
                case 10: r = k[c]; break;
                case 11: r = v + k[c]; break;
                case 12: r = v / 4; break;
                }
                ref[3 * i + c] = r;
            }
        CHECK_F32(names[op], hout + op * 3 * N1, ref, 3 * N1, REL1_F32, 0);
    }
    double sum[3] = {0, 0, 0}, tol[3] = {0, 0, 0};
    for (int i = 0; i < N1; ++i)
        for (int c = 0; c < 3; ++c) {
            sum[c] += hv[3 * i + c];
            tol[c] += N1 * FLT_EPSILON * fabs(hv[3 * i + c]);
        }
    CHECK_F32_TOL("tile_sum vec3f", hout + 3 * EWV_NOPS * N1, sum, 3, tol);
    free(hout);
    tile_free(t->ex, da);
    tile_free(t->ex, db);
    tile_free(t->ex, dv);
    tile_free(t->ex, dout);
}

/* ========================================================================
 * 3. construction, random tiles, per-thread tiles, views, astype
 * ======================================================================== */
/* float outputs: offsets into `of` */
enum { CF_ZEROS = 0, CF_ONES = 63, CF_FULL = 126, CF_AR = 189, CF_SAR = 289, CF_RF = 389, CF_SRF = 489, CF_N = 552 };
/* int outputs: offsets into `oi` */
enum { CI_AR = 0, CI_RI = 100, CI_ZEROS = 200, CI_ONES = 263, CI_N = 326 };
TILE_KERNEL_SMEM(construct, 64, 2 * TILE_SMEM_BYTES(float, 7, 9) + TILE_SMEM_BYTES(float, N1) +
                 TILE_SMEM_BYTES(uint32_t, N1), float *of, int32_t *oi, uint32_t *ou, double *od) {
    tile_reg(float, z, 7, 9);
    tile_zeros(z);
    tile_store(tile_array2(of + CF_ZEROS, 7, 9), z, 0, 0);
    tile_reg(float, o, 7, 9);
    tile_ones(o);
    tile_store(tile_array2(of + CF_ONES, 7, 9), o, 0, 0);
    tile_shared(float, sf, 7, 9);
    tile_full(sf, 2.5f);
    tile_store(tile_array2(of + CF_FULL, 7, 9), sf, 0, 0);
    tile_reg(float, ar, N1);
    tile_arange(ar, 1.5f, 0.25f);
    tile_store(tile_array1(of + CF_AR, N1), ar, 0);
    tile_shared(float, sar, N1);
    tile_arange(sar, -3.0f, 0.5f);
    tile_store(tile_array1(of + CF_SAR, N1), sar, 0);
    tile_reg(float, rf, N1);
    tile_randf(rf, 99, -1.0f, 3.0f);
    tile_store(tile_array1(of + CF_RF, N1), rf, 0);
    tile_shared(float, srf, 7, 9);
    tile_randf(srf, 7, 0.1f, 0.7f); /* a range whose lerp rounds: no fma on either target */
    tile_store(tile_array2(of + CF_SRF, 7, 9), srf, 0, 0);

    tile_reg(int32_t, ia, N1);
    tile_arange(ia, 7, -3);
    tile_store(tile_array1(oi + CI_AR, N1), ia, 0);
    tile_reg(int32_t, ri, N1);
    tile_randi(ri, 1234, -50, 77);
    tile_store(tile_array1(oi + CI_RI, N1), ri, 0);
    tile_reg(int32_t, zi, 7, 9);
    tile_zeros(zi);
    tile_store(tile_array2(oi + CI_ZEROS, 7, 9), zi, 0, 0);
    tile_ones(zi);
    tile_store(tile_array2(oi + CI_ONES, 7, 9), zi, 0, 0);

    tile_shared(uint32_t, su, N1);
    tile_randi(su, 5, 0, 4294967296LL); /* the full range: the raw hash */
    tile_store(tile_array1(ou, N1), su, 0);
    tile_reg(uint32_t, ru, N1);
    tile_randi(ru, 6, 1000, 1000000);
    tile_store(tile_array1(ou + N1, N1), ru, 0);

    tile_reg(double, rd, N1);
    tile_randf(rd, 3, -2.0, 2.0);
    tile_store(tile_array1(od, N1), rd, 0);
    tile_reg(double, rd2, N1);
    tile_randf(rd2, 4, 0.1, 0.7);
    tile_store(tile_array1(od + N1, N1), rd2, 0);
}

static float ref_unit(uint32_t seed, uint32_t i) { return (float)(tile_hash32(seed, i) >> 8) / 16777216.0f; }

static void test_construct(const target *t) {
    g_test = "construction and random tiles (block 64)";
    float *df = DALLOC(float, CF_N), hf[CF_N];
    int32_t *di = DALLOC(int32_t, CI_N), hint[CI_N];
    uint32_t *du = DALLOC(uint32_t, 2 * N1), hu[2 * N1];
    double *dd = DALLOC(double, 2 * N1), hd[2 * N1];
    POISON(df, sizeof(hf), POISON_F);
    POISON(di, sizeof(hint), POISON_I);
    POISON(du, sizeof(hu), POISON_I);
    POISON(dd, sizeof(hd), POISON_F);
    RUN_OK(tile_launch(t->ex, construct, tile_grid1(1), 64, df, di, du, dd));
    DOWN(hf, df, sizeof(hf));
    DOWN(hint, di, sizeof(hint));
    DOWN(hu, du, sizeof(hu));
    DOWN(hd, dd, sizeof(hd));

    double ref[N1];
    for (int i = 0; i < 63; ++i) ref[i] = 0;
    CHECK_F32("zeros", hf + CF_ZEROS, ref, 63, 0, 0);
    for (int i = 0; i < 63; ++i) ref[i] = 1;
    CHECK_F32("ones", hf + CF_ONES, ref, 63, 0, 0);
    for (int i = 0; i < 63; ++i) ref[i] = 2.5;
    CHECK_F32("full shared", hf + CF_FULL, ref, 63, 0, 0);
    for (int i = 0; i < N1; ++i) ref[i] = 1.5 + 0.25 * i;
    CHECK_F32("arange", hf + CF_AR, ref, N1, 0, 0);
    for (int i = 0; i < N1; ++i) ref[i] = -3.0 + 0.5 * i;
    CHECK_F32("arange shared", hf + CF_SAR, ref, N1, 0, 0);

    /* random tiles: bit for bit the host's tile_hash32 formula, the same on
     * both targets; plus a range check */
    float want_rf[N1], want_srf[63];
    for (int i = 0; i < N1; ++i) {
        const float lo = -1.0f, hi = 3.0f, u = ref_unit(99, i);
        want_rf[i] = lo + (hi - lo) * u;
    }
    CHECK_BITS32("randf [-1, 3)", hf + CF_RF, want_rf, N1);
    for (int i = 0; i < 63; ++i) {
        const float lo = 0.1f, hi = 0.7f;
        const volatile float p = (hi - lo) * ref_unit(7, i); /* two roundings, never an fma */
        want_srf[i] = lo + p;
    }
    CHECK_BITS32("randf shared [0.1, 0.7)", hf + CF_SRF, want_srf, 63);
    int inrange = 1;
    for (int i = 0; i < N1; ++i) inrange &= hf[CF_RF + i] >= -1.0f && hf[CF_RF + i] < 3.0f;
    for (int i = 0; i < 63; ++i) inrange &= hf[CF_SRF + i] >= 0.1f && hf[CF_SRF + i] <= 0.7f;
    CHECK(inrange, "randf value outside [lo, hi)");

    int32_t ei[N1];
    for (int i = 0; i < N1; ++i) ei[i] = 7 - 3 * i;
    CHECK_I32("arange i32", hint + CI_AR, ei, N1);
    for (int i = 0; i < N1; ++i) ei[i] = -50 + (int32_t)(tile_hash32(1234, i) % 127u);
    CHECK_I32("randi i32 [-50, 77)", hint + CI_RI, ei, N1);
    for (int i = 0; i < 63; ++i) ei[i] = 0;
    CHECK_I32("zeros i32", hint + CI_ZEROS, ei, 63);
    for (int i = 0; i < 63; ++i) ei[i] = 1;
    CHECK_I32("ones i32", hint + CI_ONES, ei, 63);
    uint32_t eu[2 * N1];
    for (int i = 0; i < N1; ++i) {
        eu[i] = tile_hash32(5, i);
        eu[N1 + i] = 1000u + tile_hash32(6, i) % 999000u;
    }
    CHECK_BITS32("randi u32 full range (raw tile_hash32)", hu, eu, N1);
    CHECK_BITS32("randi u32 [1000, 1000000)", hu + N1, eu + N1, N1);
    /* the hash itself: a bijection per seed, so 100 counters give 100 values */
    int distinct = 1;
    for (int i = 0; i < N1; ++i)
        for (int j = 0; j < i; ++j) distinct &= eu[i] != eu[j];
    CHECK(distinct, "tile_hash32(5, 0..99) repeats a value");

    double ed[2 * N1];
    for (int i = 0; i < N1; ++i) {
        ed[i] = -2.0 + (2.0 - -2.0) * (double)ref_unit(3, i);
        const volatile double p = (0.7 - 0.1) * (double)ref_unit(4, i);
        ed[N1 + i] = 0.1 + p;
    }
    CHECK_BITS64("randf f64 [-2, 2)", hd, ed, N1);
    CHECK_BITS64("randf f64 [0.1, 0.7)", hd + N1, ed + N1, N1);
    tile_free(t->ex, df);
    tile_free(t->ex, di);
    tile_free(t->ex, du);
    tile_free(t->ex, dd);
}

/* ---- per-thread values <-> tiles (SIMT launch, block 64) ---- */
#define FT_N 192
enum { FT_NOUT = 8 };
TILE_KERNEL_SMEM(from_thread_k, 64, 4096, const float *in, float *out, int32_t *iout) {
    const int i = tile_tid(0);
    const int nb = (tile_thread() + 1) % TILE_BLOCK_DIM; /* the next thread of the block */
    const float x = in[i];
    tile_from_values(t, x);
    tile_imul_c(t, 2.0f);
    tile_to_shared(s, t);
    out[0 * FT_N + i] = tile_untile(t);
    out[1 * FT_N + i] = tile_get(s, nb);
    tile_sum(bs, t);
    out[2 * FT_N + i] = tile_value(bs);
    const tile_vec3f v = tile_vec3f_set(x, x + 1.0f, -x);
    tile_from_values_vec(tv, v); /* (3, block) */
    tile_to_shared(sv, tv);
    out[3 * FT_N + i] = tile_untile_comp(tv, 1);
    out[4 * FT_N + i] = tile_get(sv, 2, nb);
    tile_mat22f m;
    m.m[0][0] = x;
    m.m[0][1] = x + 2.0f;
    m.m[1][0] = x + 4.0f;
    m.m[1][1] = x + 8.0f;
    tile_from_values_mat(tm, m); /* (2, 2, block) */
    tile_to_shared(sm, tm);
    out[5 * FT_N + i] = tile_untile_comp(tm, 2);
    out[6 * FT_N + i] = tile_get(sm, 0, 1, (tile_thread() + 3) % TILE_BLOCK_DIM);
    out[7 * FT_N + i] = tile_get(sm, 1, 1, nb);
    const int32_t iv = 3 * i + 1;
    tile_from_values(ti, iv);
    tile_max(mi, ti);
    tile_sum(si, ti);
    iout[2 * i] = tile_value(mi);
    iout[2 * i + 1] = tile_value(si);
}

static void test_from_thread(const target *t) {
    g_test = "from_thread / untile (SIMT, 192 threads, block 64)";
    const int bd = t->gpu ? 64 : 1;
    float hin[FT_N];
    for (int i = 0; i < FT_N; ++i) hin[i] = hsigned(61, i, 0.5f, 8.0f);
    float *din = DALLOC(float, FT_N), *dout = DALLOC(float, FT_NOUT * FT_N);
    int32_t *diout = DALLOC(int32_t, 2 * FT_N);
    float *hout = HALLOC(float, FT_NOUT * FT_N);
    int32_t hiout[2 * FT_N], eiout[2 * FT_N];
    UP(din, hin, sizeof(hin));
    POISON(dout, FT_NOUT * FT_N * sizeof(float), POISON_F);
    POISON(diout, sizeof(hiout), POISON_I);
    RUN_OK(tile_launch_simt(t->ex, from_thread_k, tile_grid1(FT_N), 64, din, dout, diout));
    DOWN(hout, dout, FT_NOUT * FT_N * sizeof(float));
    DOWN(hiout, diout, sizeof(hiout));
    double *ref = HALLOC(double, FT_NOUT * FT_N), *tol = HALLOC(double, FT_NOUT * FT_N);
    for (int i = 0; i < FT_N; ++i) {
        const int base = i - i % bd, nb = base + (i % bd + 1) % bd, nb3 = base + (i % bd + 3) % bd;
        double bsum = 0, babs = 0;
        int32_t imax = INT32_MIN, isum = 0;
        for (int j = base; j < base + bd; ++j) {
            bsum += 2.0 * hin[j];
            babs += 2.0 * fabs(hin[j]);
            imax = 3 * j + 1 > imax ? 3 * j + 1 : imax;
            isum += 3 * j + 1;
        }
        const double x = hin[i];
        double r[FT_NOUT] = {2 * x, 2.0 * hin[nb], bsum, x + 1, -(double)hin[nb], x + 4, (double)hin[nb3] + 2,
                             (double)hin[nb] + 8};
        for (int k = 0; k < FT_NOUT; ++k) {
            ref[k * FT_N + i] = r[k];
            tol[k * FT_N + i] = k == 2 ? bd * FLT_EPSILON * babs : REL1_F32 * fabs(r[k]);
        }
        eiout[2 * i] = imax;
        eiout[2 * i + 1] = isum;
    }
    static const char *names[FT_NOUT] = {"untile", "neighbour via to_shared", "block sum", "untile_comp vec",
                                         "vec tile layout (3, block)", "untile_comp mat", "mat tile layout (2,2,block)",
                                         "mat tile layout [1][1]"};
    for (int k = 0; k < FT_NOUT; ++k) CHECK_F32_TOL(names[k], hout + k * FT_N, ref + k * FT_N, FT_N, tol + k * FT_N);
    CHECK_I32("i32 block max/sum", hiout, eiout, 2 * FT_N);
    free(hout);
    free(ref);
    free(tol);
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    tile_free(t->ex, diout);
}

/* ---- views, squeeze, reshape, broadcast, 3D/4D loads (block 64) ---- */
enum {
    V_Q = 0,              /* 4x4 view at (4, 0), copied to registers */
    V_ROW = V_Q + 16,     /* squeezed (1, 8) row view */
    V_COL = V_ROW + 8,    /* squeezed (8, 1) column view: strided */
    V_SQ = V_COL + 8,     /* squeezed (1, 16) register tile */
    V_R2 = V_SQ + 16,     /* register 8x8 reshaped to 4x16 */
    V_R3 = V_R2 + 64,     /* ... to 2x4x8 */
    V_R4 = V_R3 + 64,     /* ... to 2x2x2x8 */
    V_SF = V_R4 + 64,     /* shared 8x8 reshaped to 64 */
    V_S2 = V_SF + 64,     /* the 8x8 after doubling the view in place */
    V_B1 = V_S2 + 64,     /* (1, 9) broadcast to (7, 9) */
    V_B2 = V_B1 + 63,     /* (7, 1) broadcast to shared (7, 9) */
    V_B3 = V_B2 + 63,     /* (9) broadcast to (7, 9) */
    V_T3 = V_B3 + 63,     /* 2x3x5 loaded from 4x4x4 at (1, 2, 0), clipped */
    V_T4 = V_T3 + 30,     /* 2x2x2x3 loaded from 2x2x4x4 at (0, 1, 2, 2), clipped */
    V_N = V_T4 + 24
};
TILE_KERNEL_SMEM(views, 64, 2 * TILE_SMEM_BYTES(float, 8, 8) + TILE_SMEM_BYTES(float, 16), const float *a,
                 float *out) {
    tile_shared(float, s, 8, 8);
    tile_load(s, tile_array2(a, 8, 8), 0, 0);
    tile_view(q, s, (4, 4), (4, 0));
    tile_reg(float, rq, 4, 4);
    tile_copy(rq, q);
    tile_store(tile_array2(out + V_Q, 4, 4), rq, 0, 0);
    tile_view(row, s, (1, 8), (3, 0));
    tile_squeeze(rs, row);
    tile_store(tile_array1(out + V_ROW, 8), rs, 0);
    tile_view(col, s, (8, 1), (0, 5));
    tile_squeeze(cs, col);
    tile_store(tile_array1(out + V_COL, 8), cs, 0);
    tile_reg(float, r1, 1, 16);
    tile_load(r1, tile_array2(a, 4, 16), 2, 0);
    tile_squeeze(r1s, r1);
    tile_store(tile_array1(out + V_SQ, 16), r1s, 0);
    tile_reg(float, r88, 8, 8);
    tile_load(r88, tile_array2(a, 8, 8), 0, 0);
    tile_reshape(r4x16, r88, 4, 16);
    tile_store(tile_array2(out + V_R2, 4, 16), r4x16, 0, 0);
    tile_reshape(r3d, r88, 2, 4, 8);
    tile_store(tile_array3(out + V_R3, 2, 4, 8), r3d, 0, 0, 0);
    tile_reshape(r4d, r88, 2, 2, 2, 8);
    tile_store(tile_array4(out + V_R4, 2, 2, 2, 8), r4d, 0, 0, 0, 0);
    tile_reshape(sflat, s, 64);
    tile_store(tile_array1(out + V_SF, 64), sflat, 0);
    tile_imul_c(q, 2.0f); /* write through a non-contiguous view */
    tile_store(tile_array2(out + V_S2, 8, 8), s, 0, 0);
    tile_reg(float, b1, 1, 9);
    tile_load(b1, tile_array2(a, 1, 9), 0, 0);
    tile_reg(float, bd1, 7, 9);
    tile_broadcast(bd1, b1);
    tile_store(tile_array2(out + V_B1, 7, 9), bd1, 0, 0);
    tile_reg(float, b2, 7, 1);
    tile_load(b2, tile_array2(a, 8, 8), 0, 2);
    tile_shared(float, bd2, 7, 9);
    tile_broadcast(bd2, b2);
    tile_store(tile_array2(out + V_B2, 7, 9), bd2, 0, 0);
    tile_reg(float, b3, 9);
    tile_load(b3, tile_array1(a + 20, 9), 0);
    tile_reg(float, bd3, 7, 9);
    tile_broadcast(bd3, b3);
    tile_store(tile_array2(out + V_B3, 7, 9), bd3, 0, 0);
    tile_reg(float, t3, 2, 3, 5);
    tile_load(t3, tile_array3(a, 4, 4, 4), 1, 2, 0);
    tile_store(tile_array3(out + V_T3, 2, 3, 5), t3, 0, 0, 0);
    tile_reg(float, t4, 2, 2, 2, 3);
    tile_load(t4, tile_array4(a, 2, 2, 4, 4), 0, 1, 2, 2);
    tile_store(tile_array4(out + V_T4, 2, 2, 2, 3), t4, 0, 0, 0, 0);
}

static void test_views(const target *t) {
    g_test = "view / squeeze / reshape / broadcast / 3D-4D loads (block 64)";
    float ha[64];
    for (int i = 0; i < 64; ++i) ha[i] = hsigned(71, i, 0.5f, 8.0f);
    float *da = DALLOC(float, 64), *dout = DALLOC(float, V_N);
    float hout[V_N];
    double ref[V_N];
    UP(da, ha, sizeof(ha));
    POISON(dout, sizeof(hout), POISON_F);
    RUN_OK(tile_launch(t->ex, views, tile_grid1(1), 64, da, dout));
    DOWN(hout, dout, sizeof(hout));
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) ref[V_Q + i * 4 + j] = ha[(4 + i) * 8 + j];
    for (int j = 0; j < 8; ++j) ref[V_ROW + j] = ha[3 * 8 + j];
    for (int i = 0; i < 8; ++i) ref[V_COL + i] = ha[i * 8 + 5];
    for (int j = 0; j < 16; ++j) ref[V_SQ + j] = ha[32 + j];
    for (int i = 0; i < 64; ++i) {
        ref[V_R2 + i] = ref[V_R3 + i] = ref[V_R4 + i] = ref[V_SF + i] = ha[i];
        ref[V_S2 + i] = (i / 8 >= 4 && i % 8 < 4) ? 2.0 * ha[i] : ha[i];
    }
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 9; ++j) {
            ref[V_B1 + i * 9 + j] = ha[j];
            ref[V_B2 + i * 9 + j] = ha[i * 8 + 2];
            ref[V_B3 + i * 9 + j] = ha[20 + j];
        }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 5; ++k)
                ref[V_T3 + (i * 3 + j) * 5 + k] = (2 + j < 4 && k < 4) ? ha[((1 + i) * 4 + 2 + j) * 4 + k] : 0.0;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 2; ++k)
                for (int l = 0; l < 3; ++l)
                    ref[V_T4 + ((i * 2 + j) * 2 + k) * 3 + l] =
                        (1 + j < 2 && 2 + l < 4) ? ha[((i * 2 + 1 + j) * 4 + 2 + k) * 4 + 2 + l] : 0.0;
    static const struct { const char *name; int off, n; } parts[] = {
        {"view 4x4 at (4,0)", V_Q, 16},         {"squeeze row view", V_ROW, 8},
        {"squeeze column view", V_COL, 8},      {"squeeze register (1,16)", V_SQ, 16},
        {"reshape register 4x16", V_R2, 64},    {"reshape register 2x4x8", V_R3, 64},
        {"reshape register 2x2x2x8", V_R4, 64}, {"reshape shared 64", V_SF, 64},
        {"in-place op through a view", V_S2, 64}, {"broadcast (1,9)->(7,9)", V_B1, 63},
        {"broadcast (7,1)->shared (7,9)", V_B2, 63}, {"broadcast (9)->(7,9)", V_B3, 63},
        {"3D load, clipped", V_T3, 30},         {"4D load, clipped", V_T4, 24}};
    for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); ++p)
        CHECK_F32(parts[p].name, hout + parts[p].off, ref + parts[p].off, parts[p].n, 0, 0);
    tile_free(t->ex, da);
    tile_free(t->ex, dout);
}

/* ---- astype ---- */
TILE_KERNEL(astype_k, 64, const float *a, int32_t *oi, double *od, float *of) {
    tile_reg(float, f, N1);
    tile_load(f, tile_array1(a, N1), 0);
    tile_reg(int32_t, i, N1);
    tile_astype(i, f);
    tile_store(tile_array1(oi, N1), i, 0);
    tile_reg(double, d, N1);
    tile_astype(d, f);
    tile_store(tile_array1(od, N1), d, 0);
    tile_reg(float, f2, N1);
    tile_astype(f2, i);
    tile_store(tile_array1(of, N1), f2, 0);
}

static void test_astype(const target *t) {
    g_test = "astype (block 64)";
    float ha[N1], hof[N1];
    int32_t hoi[N1], ei[N1];
    double hod[N1], ed[N1], ef[N1];
    for (int i = 0; i < N1; ++i) ha[i] = hsigned(81, i, 0.1f, 100.0f);
    ha[0] = 1.5f;
    ha[1] = -2.5f;
    float *da = DALLOC(float, N1), *dof = DALLOC(float, N1);
    int32_t *doi = DALLOC(int32_t, N1);
    double *dod = DALLOC(double, N1);
    UP(da, ha, sizeof(ha));
    POISON(dof, sizeof(hof), POISON_F);
    POISON(doi, sizeof(hoi), POISON_I);
    POISON(dod, sizeof(hod), POISON_F);
    RUN_OK(tile_launch(t->ex, astype_k, tile_grid1(1), 64, da, doi, dod, dof));
    DOWN(hoi, doi, sizeof(hoi));
    DOWN(hod, dod, sizeof(hod));
    DOWN(hof, dof, sizeof(hof));
    for (int i = 0; i < N1; ++i) {
        ei[i] = (int32_t)trunc((double)ha[i]);
        ed[i] = ha[i];
        ef[i] = trunc((double)ha[i]);
    }
    CHECK_I32("f32 -> i32 (truncation)", hoi, ei, N1);
    CHECK_F64("f32 -> f64", hod, ed, N1, 0, 0);
    CHECK_F32("i32 -> f32", hof, ef, N1, 0, 0);
    tile_free(t->ex, da);
    tile_free(t->ex, dof);
    tile_free(t->ex, doi);
    tile_free(t->ex, dod);
}

/* ========================================================================
 * 4. reductions and atomics
 * ======================================================================== */
/* the row-sum kernel: rows of 256, block 64 (4 slots per thread) */
#define RS_N 256
#define RS_ROWS 1000
TILE_KERNEL(row_sum, 64, const float *a, float *b) {
    int i = tile_block(0);
    tile_reg(float, t, RS_N);
    tile_load(t, tile_array1(a + (size_t)i * RS_N, RS_N), 0);
    tile_sum(s, t);
    tile_store(tile_array1(b, RS_ROWS), s, i);
}

static void row_sum_ref(const float *a, double *ref, double *tol) {
    for (int r = 0; r < RS_ROWS; ++r) {
        double s = 0, sa = 0;
        for (int j = 0; j < RS_N; ++j) {
            s += a[r * RS_N + j];
            sa += fabs(a[r * RS_N + j]);
        }
        ref[r] = s;
        tol[r] = RS_N * FLT_EPSILON * sa; /* bound for any summation order */
    }
}

static void test_row_sum(const target *t) {
    g_test = "row_sum (1000 rows of 256, block 64)";
    float *ha = HALLOC(float, RS_ROWS * RS_N), hb[RS_ROWS];
    double ref[RS_ROWS], tol[RS_ROWS];
    for (int i = 0; i < RS_ROWS * RS_N; ++i) ha[i] = hsigned(91, i, 0.001f, 1.0f);
    row_sum_ref(ha, ref, tol);
    float *da = DALLOC(float, RS_ROWS * RS_N), *db = DALLOC(float, RS_ROWS);
    UP(da, ha, (size_t)RS_ROWS * RS_N * sizeof(float));
    POISON(db, sizeof(hb), POISON_F);
    RUN_OK(tile_launch(t->ex, row_sum, tile_grid1(RS_ROWS), 64, da, db));
    DOWN(hb, db, sizeof(hb));
    CHECK_F32_TOL("row sums", hb, ref, RS_ROWS, tol);
    free(ha);
    tile_free(t->ex, da);
    tile_free(t->ex, db);
}

/* the same kernel on a stream of its own (GPU only) */
static void test_stream(const target *t) {
    g_test = "row_sum on a cudaStream (tile_exec_stream)";
    cudaStream_t st = 0;
    CHECK(cudaStreamCreate(&st) == cudaSuccess, "cudaStreamCreate failed");
    const tile_exec ex = tile_exec_stream(t->ex, (void *)st);
    float *ha = HALLOC(float, RS_ROWS * RS_N), hb[RS_ROWS];
    double ref[RS_ROWS], tol[RS_ROWS];
    for (int i = 0; i < RS_ROWS * RS_N; ++i) ha[i] = hsigned(92, i, 0.001f, 1.0f);
    row_sum_ref(ha, ref, tol);
    float *da = DALLOC(float, RS_ROWS * RS_N), *db = DALLOC(float, RS_ROWS);
    UP(da, ha, (size_t)RS_ROWS * RS_N * sizeof(float));
    POISON(db, sizeof(hb), POISON_F);
    CHECK_ERR(tile_launch(ex, row_sum, tile_grid1(RS_ROWS), 64, da, db), TILE_OK);
    CHECK_ERR(tile_synchronize(ex), TILE_OK);
    DOWN(hb, db, sizeof(hb));
    CHECK_F32_TOL("row sums", hb, ref, RS_ROWS, tol);
    CHECK(cudaStreamDestroy(st) == cudaSuccess, "cudaStreamDestroy failed");
    free(ha);
    tile_free(t->ex, da);
    tile_free(t->ex, db);
}

/* min / max / custom fold / i32 and f64 sums: rows of 300, block 96 (3 warps,
 * 4 slots of which the last is partial) */
#define RX_N 300
#define RX_ROWS 40
TILE_FUNC int32_t ixor(int32_t x, int32_t y) { return x ^ y; }
TILE_KERNEL(row_stats, 96, const float *a, const int32_t *ia, const double *da, float *fo, int32_t *io, double *dout) {
    const int r = tile_block(0);
    tile_reg(float, t, RX_N);
    tile_load(t, tile_array1(a + (size_t)r * RX_N, RX_N), 0);
    tile_min(mn, t);
    tile_max(mx, t);
    tile_store(tile_array1(fo, 2 * RX_ROWS), mn, 2 * r);
    tile_store(tile_array1(fo, 2 * RX_ROWS), mx, 2 * r + 1);
    tile_reg(int32_t, it, RX_N);
    tile_load(it, tile_array1(ia + (size_t)r * RX_N, RX_N), 0);
    tile_sum(is, it);
    tile_max(im, it);
    tile_reduce(ix, ixor, it);
    tile_store(tile_array1(io, 3 * RX_ROWS), is, 3 * r);
    tile_store(tile_array1(io, 3 * RX_ROWS), im, 3 * r + 1);
    tile_store(tile_array1(io, 3 * RX_ROWS), ix, 3 * r + 2);
    tile_reg(double, dt, RX_N);
    tile_load(dt, tile_array1(da + (size_t)r * RX_N, RX_N), 0);
    tile_sum(ds, dt);
    tile_store(tile_array1(dout, RX_ROWS), ds, r);
}

static void test_row_stats(const target *t) {
    g_test = "min/max/reduce/i32+f64 sums (40 rows of 300, block 96)";
    const int n = RX_ROWS * RX_N;
    float *ha = HALLOC(float, n), hfo[2 * RX_ROWS];
    int32_t *hia = HALLOC(int32_t, n), hio[3 * RX_ROWS], eio[3 * RX_ROWS];
    double *hda = HALLOC(double, n), hdo[RX_ROWS], efo[2 * RX_ROWS], edo[RX_ROWS], tdo[RX_ROWS];
    for (int i = 0; i < n; ++i) {
        ha[i] = hsigned(101, i, 0.01f, 50.0f);
        hia[i] = (int32_t)(tile_hash32(102, i) % 2000001u) - 1000000;
        hda[i] = (double)hsigned(103, i, 0.01f, 50.0f) * (1.0 + 1e-10 * i);
    }
    float *dfa = DALLOC(float, n), *dfo = DALLOC(float, 2 * RX_ROWS);
    int32_t *dia = DALLOC(int32_t, n), *dio = DALLOC(int32_t, 3 * RX_ROWS);
    double *dda = DALLOC(double, n), *ddo = DALLOC(double, RX_ROWS);
    UP(dfa, ha, n * sizeof(float));
    UP(dia, hia, n * sizeof(int32_t));
    UP(dda, hda, n * sizeof(double));
    POISON(dfo, sizeof(hfo), POISON_F);
    POISON(dio, sizeof(hio), POISON_I);
    POISON(ddo, sizeof(hdo), POISON_F);
    RUN_OK(tile_launch(t->ex, row_stats, tile_grid1(RX_ROWS), 96, dfa, dia, dda, dfo, dio, ddo));
    DOWN(hfo, dfo, sizeof(hfo));
    DOWN(hio, dio, sizeof(hio));
    DOWN(hdo, ddo, sizeof(hdo));
    for (int r = 0; r < RX_ROWS; ++r) {
        float mn = ha[r * RX_N], mx = mn;
        int32_t im = hia[r * RX_N], ix = 0;
        int64_t is = 0;
        double ds = 0, dsa = 0;
        for (int j = 0; j < RX_N; ++j) {
            const int k = r * RX_N + j;
            mn = ha[k] < mn ? ha[k] : mn;
            mx = ha[k] > mx ? ha[k] : mx;
            is += hia[k];
            im = hia[k] > im ? hia[k] : im;
            ix ^= hia[k];
            ds += hda[k];
            dsa += fabs(hda[k]);
        }
        efo[2 * r] = mn;
        efo[2 * r + 1] = mx;
        eio[3 * r] = (int32_t)is;
        eio[3 * r + 1] = im;
        eio[3 * r + 2] = ix;
        edo[r] = ds;
        tdo[r] = RX_N * DBL_EPSILON * dsa;
    }
    CHECK_F32("row min/max", hfo, efo, 2 * RX_ROWS, 0, 0);
    CHECK_I32("row i32 sum/max/xor", hio, eio, 3 * RX_ROWS);
    CHECK_F64_TOL("row f64 sum", hdo, edo, RX_ROWS, tdo);
    free(ha);
    free(hia);
    free(hda);
    tile_free(t->ex, dfa);
    tile_free(t->ex, dfo);
    tile_free(t->ex, dia);
    tile_free(t->ex, dio);
    tile_free(t->ex, dda);
    tile_free(t->ex, ddo);
}

/* 2D tiles: a 70x50 array cut into 16x16 tiles (edge tiles zero-padded); each
 * block sums its tile, stores the sum and atomically adds it to the total.
 * Multiples of 1/64 make every partial sum exact in float: any order gives
 * the same bits. */
#define S2_M 70
#define S2_N 50
#define S2_GX 5 /* ceil(70 / 16) */
#define S2_GY 4 /* ceil(50 / 16) */
TILE_KERNEL(sum_2d, 64, const float *a, float *total, float *partial) {
    const int i = tile_block(0), j = tile_block(1);
    tile_reg(float, t, 16, 16);
    tile_load(t, tile_array2(a, S2_M, S2_N), i * 16, j * 16);
    tile_sum(s, t);
    tile_atomic_add(tile_array1(total, 1), s, 0);
    tile_store(tile_array1(partial, S2_GX * S2_GY), s, i * S2_GY + j);
}

/* element-wise atomics from many blocks: acc[o + k] += t[k] */
#define SC_N 200
#define SC_BLOCKS 16
TILE_KERNEL(scatter_add, 128, const int32_t *src, int32_t *acc, int32_t *clip, const double *dsrc, double *dacc) {
    const int b = tile_block(0);
    tile_reg(int32_t, t, SC_N); /* 2 slots, the second partial */
    tile_load(t, tile_array1(src + (size_t)b * SC_N, SC_N), 0);
    tile_atomic_add(tile_array1(acc, SC_N + 60), t, 60);
    tile_atomic_add(tile_array1(clip, 150), t, 0); /* elements 150.. dropped */
    tile_reg(double, d, SC_N);
    tile_load(d, tile_array1(dsrc + (size_t)b * SC_N, SC_N), 0);
    tile_atomic_add(tile_array1(dacc, SC_N), d, 0);
}

static void test_sum_2d_atomic(const target *t) {
    g_test = "2D tile sum with tile_atomic_add (70x50, 16x16 tiles, block 64)";
    float ha[S2_M * S2_N], htot = 0.25f, hpart[S2_GX * S2_GY];
    for (int i = 0; i < S2_M * S2_N; ++i) ha[i] = hdyadic(111, i);
    float *da = DALLOC(float, S2_M * S2_N), *dtot = DALLOC(float, 1), *dpart = DALLOC(float, S2_GX * S2_GY);
    UP(da, ha, sizeof(ha));
    UP(dtot, &htot, sizeof(float));
    POISON(dpart, sizeof(hpart), POISON_F);
    RUN_OK(tile_launch(t->ex, sum_2d, tile_grid2(S2_GX, S2_GY), 64, da, dtot, dpart));
    DOWN(&htot, dtot, sizeof(float));
    DOWN(hpart, dpart, sizeof(hpart));
    double total = 0.25, epart[S2_GX * S2_GY];
    for (int i = 0; i < S2_GX; ++i)
        for (int j = 0; j < S2_GY; ++j) {
            double s = 0;
            for (int r = i * 16; r < i * 16 + 16 && r < S2_M; ++r)
                for (int c = j * 16; c < j * 16 + 16 && c < S2_N; ++c) s += ha[r * S2_N + c];
            epart[i * S2_GY + j] = s;
            total += s;
        }
    CHECK_F32("per-tile sums", hpart, epart, S2_GX * S2_GY, 0, 0);
    CHECK_F32("atomic total (0.25 + sum)", &htot, &total, 1, 0, 0);

    g_test = "element-wise tile_atomic_add i32/f64 (16 blocks of 200, block 128)";
    int32_t *hsrc = HALLOC(int32_t, SC_BLOCKS * SC_N), hacc[SC_N + 60], hclip[150], eacc[SC_N + 60], eclip[150];
    double *hdsrc = HALLOC(double, SC_BLOCKS * SC_N), hdacc[SC_N], edacc[SC_N];
    for (int i = 0; i < SC_BLOCKS * SC_N; ++i) {
        hsrc[i] = (int32_t)(tile_hash32(121, i) % 20001u) - 10000;
        hdsrc[i] = (double)((int)(tile_hash32(122, i) % 1001u) - 500) / 8.0; /* exact in any order */
    }
    for (int k = 0; k < SC_N + 60; ++k) hacc[k] = eacc[k] = 7 * k - 300;
    for (int k = 0; k < 150; ++k) hclip[k] = eclip[k] = -k;
    for (int k = 0; k < SC_N; ++k) hdacc[k] = edacc[k] = 0.5 * k;
    for (int b = 0; b < SC_BLOCKS; ++b)
        for (int k = 0; k < SC_N; ++k) {
            eacc[60 + k] += hsrc[b * SC_N + k];
            if (k < 150) eclip[k] += hsrc[b * SC_N + k];
            edacc[k] += hdsrc[b * SC_N + k];
        }
    int32_t *dsrc = DALLOC(int32_t, SC_BLOCKS * SC_N), *dacc = DALLOC(int32_t, SC_N + 60), *dclip = DALLOC(int32_t, 150);
    double *ddsrc = DALLOC(double, SC_BLOCKS * SC_N), *ddacc = DALLOC(double, SC_N);
    UP(dsrc, hsrc, SC_BLOCKS * SC_N * sizeof(int32_t));
    UP(ddsrc, hdsrc, SC_BLOCKS * SC_N * sizeof(double));
    UP(dacc, hacc, sizeof(hacc));
    UP(dclip, hclip, sizeof(hclip));
    UP(ddacc, hdacc, sizeof(hdacc));
    RUN_OK(tile_launch(t->ex, scatter_add, tile_grid1(SC_BLOCKS), 128, dsrc, dacc, dclip, ddsrc, ddacc));
    DOWN(hacc, dacc, sizeof(hacc));
    DOWN(hclip, dclip, sizeof(hclip));
    DOWN(hdacc, ddacc, sizeof(hdacc));
    CHECK_I32("i32 atomic at offset 60", hacc, eacc, SC_N + 60);
    CHECK_I32("i32 atomic clipped to 150", hclip, eclip, 150);
    CHECK_F64("f64 atomic", hdacc, edacc, SC_N, 0, 0);
    free(hsrc);
    free(hdsrc);
    tile_free(t->ex, da);
    tile_free(t->ex, dtot);
    tile_free(t->ex, dpart);
    tile_free(t->ex, dsrc);
    tile_free(t->ex, dacc);
    tile_free(t->ex, dclip);
    tile_free(t->ex, ddsrc);
    tile_free(t->ex, ddacc);
}

/* the SIMT blockwise examples: 12 threads in blocks of 4 */
#define BW_DIM 4
#define BW_N (BW_DIM * 3)
TILE_KERNEL(blockwise, BW_DIM, int *out) {
    int i = tile_tid(0);
    tile_from_values(t, i);
    tile_sum(s, t);
    tile_store(tile_array1(out, BW_N), s, i);
}
TILE_KERNEL(blockwise_atomic, BW_DIM, int *out) {
    int i = tile_tid(0);
    tile_from_values(t, i);
    tile_sum(s, t);
    tile_atomic_add(tile_array1(out, 1), s, 0);
}

static void test_blockwise(const target *t) {
    g_test = "SIMT blockwise examples (12 threads, block 4)";
    int hout[BW_N];
    int *d = DALLOC(int, BW_N);
    /* zeros first, as in examples/blockwise_simt.cu: the printed arrays */
    memset(hout, 0, sizeof(hout));
    UP(d, hout, sizeof(hout));
    RUN_OK(tile_launch_simt(t->ex, blockwise, tile_grid1(BW_N), BW_DIM, d));
    DOWN(hout, d, sizeof(hout));
    static const int gpu_exp[BW_N] = {6, 0, 0, 0, 22, 0, 0, 0, 38, 0, 0, 0};
    static const int cpu_exp[BW_N] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    CHECK_I32("blockwise (zero-initialised out)", hout, t->gpu ? gpu_exp : cpu_exp, BW_N);
    /* again on a poisoned output: the GPU must leave the other elements alone */
    int32_t exp[BW_N];
    POISON(d, sizeof(hout), POISON_I);
    RUN_OK(tile_launch_simt(t->ex, blockwise, tile_grid1(BW_N), BW_DIM, d));
    DOWN(hout, d, sizeof(hout));
    for (int i = 0; i < BW_N; ++i)
        exp[i] = t->gpu ? (i % BW_DIM ? (int32_t)poison_bits32(POISON_I) : gpu_exp[i]) : cpu_exp[i];
    CHECK_I32("blockwise (poisoned out)", hout, exp, BW_N);

    int one = 1000;
    UP(d, &one, sizeof(int));
    RUN_OK(tile_launch_simt(t->ex, blockwise_atomic, tile_grid1(BW_N), BW_DIM, d));
    DOWN(&one, d, sizeof(int));
    CHECK(one == 1066, "blockwise_atomic: 1000 + sum = %d, expected 1066 ([66] on top of 1000)", one);
    tile_free(t->ex, d);
}

/* ========================================================================
 * 5. shared memory and launch errors
 * ======================================================================== */
/* a 100 KiB arena (> 48 KiB: the launch raises the limit with
 * cudaFuncSetAttribute), filled and read back across threads */
#define BIG_N 25600 /* floats: 100 KiB exactly */
TILE_KERNEL_SMEM(big_smem, 256, 100 * 1024, const float *in, float *out, float *sums, int *info) {
    const int b = tile_block(0);
    const int free0 = tile_smem_free();
    tile_shared(float, s, BIG_N);
    if (tile_thread() == 0) {
        info[2 * b] = free0;
        info[2 * b + 1] = tile_smem_free();
    }
    tile_load(s, tile_array1(in + (size_t)b * BIG_N, BIG_N), 0);
    for (int k = tile_thread(); k < BIG_N; k += TILE_BLOCK_DIM)
        out[(size_t)b * BIG_N + k] = tile_get(s, BIG_N - 1 - k) * 2.0f;
    tile_sum(tot, s);
    tile_store(tile_array1(sums, 2), tot, b);
}

static void test_big_smem(const target *t) {
    g_test = "100 KiB shared arena (block 256, 2 blocks)";
    float *hin = HALLOC(float, 2 * BIG_N), *hout = HALLOC(float, 2 * BIG_N), hs[2];
    int hinfo[4];
    for (int i = 0; i < 2 * BIG_N; ++i) hin[i] = hdyadic(131, i);
    float *din = DALLOC(float, 2 * BIG_N), *dout = DALLOC(float, 2 * BIG_N), *ds = DALLOC(float, 2);
    int *dinfo = DALLOC(int, 4);
    UP(din, hin, 2 * BIG_N * sizeof(float));
    POISON(dout, 2 * BIG_N * sizeof(float), POISON_F);
    POISON(ds, sizeof(hs), POISON_F);
    POISON(dinfo, sizeof(hinfo), POISON_I);
    RUN_OK(tile_launch(t->ex, big_smem, tile_grid1(2), 256, din, dout, ds, dinfo));
    DOWN(hout, dout, 2 * BIG_N * sizeof(float));
    DOWN(hs, ds, sizeof(hs));
    DOWN(hinfo, dinfo, sizeof(hinfo));
    double *ref = HALLOC(double, 2 * BIG_N), es[2] = {0, 0};
    for (int b = 0; b < 2; ++b)
        for (int k = 0; k < BIG_N; ++k) {
            ref[b * BIG_N + k] = 2.0 * hin[b * BIG_N + BIG_N - 1 - k];
            es[b] += hin[b * BIG_N + k];
        }
    CHECK_F32("reversed through shared", hout, ref, 2 * BIG_N, 0, 0);
    CHECK_F32("sum of the shared tile (exact data)", hs, es, 2, 0, 0);
    const int32_t einfo[4] = {100 * 1024, 0, 100 * 1024, 0};
    CHECK_I32("tile_smem_free before/after", hinfo, einfo, 4);
    free(hin);
    free(hout);
    free(ref);
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    tile_free(t->ex, ds);
    tile_free(t->ex, dinfo);
}

/* arena reuse: 8 temporaries of 1 KiB in a 3 KiB arena through mark/release */
TILE_KERNEL_SMEM(smem_reuse, 64, 3 * 1024, const float *in, float *out, int *info) {
    tile_shared(float, base, 256);
    tile_load(base, tile_array1(in, 256), 0);
    const int m = tile_smem_mark();
    for (int it = 0; it < 8; ++it) {
        tile_shared(float, tmp, 256); /* overflows from it == 2 on without the release */
        tile_arange(tmp, (float)it, 1.0f);
        tile_iadd(base, tmp);
        if (tile_thread() == 0) {
            info[2 * it] = (int)(tmp.v - base.v);
            info[2 * it + 1] = tile_smem_free();
        }
        tile_smem_release(m);
    }
    tile_store(tile_array1(out, 256), base, 0);
    tile_smem_release(0);
    tile_shared(float, all, 768); /* the whole arena again, from its start */
    if (tile_thread() == 0) {
        info[16] = (int)(all.v - base.v);
        info[17] = tile_smem_free();
    }
    tile_view(last, all, (256), (256)); /* the last temporary's bytes */
    tile_store(tile_array1(out + 256, 256), last, 0);
}

static void test_smem_reuse(const target *t) {
    g_test = "arena reuse with tile_smem_mark/release";
    float hin[256], hout[512];
    int32_t hinfo[18], einfo[18];
    for (int i = 0; i < 256; ++i) hin[i] = hval(141, i, 0.0f, 1.0f);
    float *din = DALLOC(float, 256), *dout = DALLOC(float, 512);
    int *dinfo = DALLOC(int, 18);
    UP(din, hin, sizeof(hin));
    POISON(dout, sizeof(hout), POISON_F);
    POISON(dinfo, sizeof(hinfo), POISON_I);
    RUN_OK(tile_launch(t->ex, smem_reuse, tile_grid1(1), 64, din, dout, dinfo));
    DOWN(hout, dout, sizeof(hout));
    DOWN(hinfo, dinfo, sizeof(hinfo));
    double ref[512];
    for (int i = 0; i < 256; ++i) {
        float v = hin[i]; /* the kernel's float additions, in its order */
        for (int it = 0; it < 8; ++it) v = v + (float)(it + i);
        ref[i] = v;
        ref[256 + i] = 7 + i;
    }
    CHECK_F32("base after 8 temporaries", hout, ref, 256, 0, 0);
    CHECK_F32("last temporary's bytes", hout + 256, ref + 256, 256, 0, 0);
    for (int it = 0; it < 8; ++it) {
        einfo[2 * it] = 256;      /* every temporary right after base */
        einfo[2 * it + 1] = 1024; /* 3 KiB - base - temporary */
    }
    einfo[16] = 0;
    einfo[17] = 0;
    CHECK_I32("temporary offsets / free bytes", hinfo, einfo, 18);
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    tile_free(t->ex, dinfo);
}

/* two 600-byte tiles: fit in 2 KiB; in 1 KiB the second overflows and the
 * block stops at its allocation (docs/guards.md): nothing is written */
#define TWO_TILES_BODY                                                             \
    {                                                                              \
        tile_shared(float, a, 150);                                                \
        tile_arange(a, 1.0f, 1.0f);                                                \
        tile_shared(float, b, 150);                                                \
        tile_full(b, -5.0f);                                                       \
        tile_store(tile_array1(out, 150), a, 0);                                   \
        tile_store(tile_array1(out + 150, 150), b, 0);                             \
        if (tile_thread() == 0) info[0] = b.v == a.v;                              \
    }
TILE_KERNEL(two_tiles, 64, float *out, int *info) TWO_TILES_BODY
TILE_KERNEL_SMEM(two_tiles_1k, 64, 1024, float *out, int *info) TWO_TILES_BODY

/* dynamic arena only (TILE_KERNEL, no declared bytes): 64 KiB tile, transposed */
TILE_KERNEL(dyn_smem, 128, const float *in, float *out, int *info) {
    if (tile_thread() == 0) info[0] = tile_smem_free();
    tile_shared(float, s, 128, 128);
    tile_load(s, tile_array2(in, 128, 128), 0, 0);
    for (int k = tile_thread(); k < 128 * 128; k += TILE_BLOCK_DIM) out[k] = tile_get(s, k % 128, k / 128);
}

/* launch two_tiles(-like) kernel `kern` with `extra` dynamic bytes; expect an
 * overflow or not */
#define TWO_TILES_CASE(kern, extra, overflow)                                      \
    do {                                                                           \
        float h_[300];                                                             \
        int32_t hi_ = 0;                                                           \
        POISON(d_, sizeof(h_), POISON_F);                                          \
        POISON(di_, sizeof(int), POISON_I);                                        \
        const tile_exec ex_ = tile_exec_smem(t->ex, (extra));                      \
        const int want_ = (overflow) ? TILE_ERR_SMEM_OVERFLOW : TILE_OK;           \
        if (t->gpu) {                                                              \
            CHECK_ERR(tile_launch(ex_, kern, tile_grid1(1), 64, d_, di_), TILE_OK); \
            CHECK_ERR(tile_synchronize(t->ex), want_);                             \
            CHECK_ERR(tile_synchronize(t->ex), TILE_OK); /* the error was reported once */ \
        } else {                                                                   \
            CHECK_ERR(tile_launch(ex_, kern, tile_grid1(1), 64, d_, di_), want_);  \
            CHECK_ERR(tile_synchronize(t->ex), TILE_OK);                           \
        }                                                                          \
        DOWN(h_, d_, sizeof(h_));                                                  \
        DOWN(&hi_, di_, sizeof(int));                                              \
        if (overflow) {                                                            \
            long bad_ = 0;                                                         \
            for (int i = 0; i < 300; ++i) {                                        \
                uint32_t b_;                                                       \
                memcpy(&b_, &h_[i], sizeof b_);                                    \
                if (b_ != poison_bits32(POISON_F))                                 \
                    fail_elem(&bad_, __FILE__, __LINE__, #kern " + " #extra " bytes: out[%d] = %g written after the overflow", i, h_[i]); \
            }                                                                      \
            fail_elem_total(__FILE__, __LINE__, #kern " + " #extra " bytes: untouched", bad_, 300); \
            CHECK((uint32_t)hi_ == poison_bits32(POISON_I), #kern " + " #extra " bytes: the block went on after the overflow (info %d)", \
                  (int)hi_);                                                       \
        } else {                                                                   \
            double r_[300];                                                        \
            for (int i = 0; i < 150; ++i) {                                        \
                r_[i] = 1.0 + i;                                                   \
                r_[150 + i] = -5.0;                                                \
            }                                                                      \
            CHECK_F32(#kern " + " #extra " bytes: contents", h_, r_, 300, 0, 0);   \
            CHECK(hi_ == 0, #kern " + " #extra " bytes: second tile must not alias the first (info %d)", (int)hi_); \
        }                                                                          \
    } while (0)

static void test_smem_errors(const target *t) {
    g_test = "arena overflow and dynamic arena";
    float *d_ = DALLOC(float, 300);
    int *di_ = DALLOC(int, 1);
    TWO_TILES_CASE(two_tiles, 2048, 0);
    TWO_TILES_CASE(two_tiles, 1024, 1);
    TWO_TILES_CASE(two_tiles_1k, 0, 1);
    TWO_TILES_CASE(two_tiles_1k, 1024, 0);
    /* after the overflows a clean launch reports no error */
    TWO_TILES_CASE(two_tiles, 4096, 0);
    tile_free(t->ex, d_);
    tile_free(t->ex, di_);

    g_test = "64 KiB dynamic arena (tile_exec_smem), 300 KiB refused";
    const int n = 128 * 128;
    float *hin = HALLOC(float, n), *hout = HALLOC(float, n);
    double *ref = HALLOC(double, n);
    int32_t hinfo = 0;
    for (int i = 0; i < n; ++i) hin[i] = hsigned(151, i, 0.5f, 8.0f);
    float *din = DALLOC(float, n), *dout = DALLOC(float, n);
    int *dinfo = DALLOC(int, 1);
    UP(din, hin, n * sizeof(float));
    for (int k = 0; k < n; ++k) ref[k] = hin[(k % 128) * 128 + k / 128];
    /* the launch path keeps the dynamic limit it raised (tile__fcache): a
     * larger arena raises it again, a smaller one (>= the 64 KiB tile) runs under it */
    const int kib[4] = {64, 100, 72, 64};
    for (int q = 0; q < 4; ++q) {
        POISON(dout, n * sizeof(float), POISON_F);
        POISON(dinfo, sizeof(int), POISON_I);
        RUN_OK(tile_launch(tile_exec_smem(t->ex, kib[q] * 1024), dyn_smem, tile_grid1(1), 128, din, dout, dinfo));
        DOWN(hout, dout, n * sizeof(float));
        DOWN(&hinfo, dinfo, sizeof(int));
        CHECK_F32("transpose through a dynamic arena", hout, ref, n, 0, 0);
        CHECK(hinfo == kib[q] * 1024, "tile_smem_free() at kernel start = %d, expected %d", (int)hinfo, kib[q] * 1024);
    }
    if (t->gpu) {
        /* more than the device allows: refused at launch, nothing runs */
        POISON(dout, n * sizeof(float), POISON_F);
        POISON(dinfo, sizeof(int), POISON_I);
        CHECK_ERR(tile_launch(tile_exec_smem(t->ex, 300 * 1024), dyn_smem, tile_grid1(1), 128, din, dout, dinfo),
                  TILE_ERR_SMEM);
        SYNC_OK();
        DOWN(&hinfo, dinfo, sizeof(int));
        CHECK((uint32_t)hinfo == poison_bits32(POISON_I), "refused launch wrote info = %d", (int)hinfo);
    }
    free(hin);
    free(hout);
    free(ref);
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    tile_free(t->ex, dinfo);
}

static void test_launch_errors(const target *t) {
    g_test = "launch errors";
    float *da = DALLOC(float, RS_N * 4), *db = DALLOC(float, 4);
    float ha[RS_N * 4], hb[4];
    uint32_t eb[4];
    for (int i = 0; i < RS_N * 4; ++i) ha[i] = hval(161, i, 0.5f, 1.0f);
    for (int i = 0; i < 4; ++i) eb[i] = poison_bits32(POISON_F);
    UP(da, ha, sizeof(ha));
    POISON(db, sizeof(hb), POISON_F);
    /* block size other than the kernel's: refused, also on the CPU */
    CHECK_ERR(tile_launch(t->ex, row_sum, tile_grid1(4), 32, da, db), TILE_ERR_BLOCK_DIM);
    CHECK_ERR(tile_launch(t->ex, row_sum, tile_grid1(4), 128, da, db), TILE_ERR_BLOCK_DIM);
    CHECK_ERR(tile_launch_simt(t->ex, blockwise, tile_grid1(BW_N), 2 * BW_DIM, (int *)db), TILE_ERR_BLOCK_DIM);
    /* invalid grids */
    CHECK_ERR(tile_launch(t->ex, row_sum, tile_grid1(0), 64, da, db), TILE_ERR_GRID);
    CHECK_ERR(tile_launch(t->ex, row_sum, tile_grid2(2, -1), 64, da, db), TILE_ERR_GRID);
    tile_grid g5 = tile_grid4(1, 1, 1, 1);
    g5.ndim = 5;
    CHECK_ERR(tile_launch(t->ex, row_sum, g5, 64, da, db), TILE_ERR_GRID);
    if (t->gpu) {
        /* no such device */
        CHECK_ERR(tile_launch(TILE_GPU(99), row_sum, tile_grid1(4), 64, da, db), TILE_ERR_DEVICE);
    }
    SYNC_OK();
    DOWN(hb, db, sizeof(hb));
    CHECK_BITS32("output after refused launches (untouched)", hb, eb, 4);
    /* and the kernel still runs afterwards */
    RUN_OK(tile_launch(t->ex, row_sum, tile_grid1(RS_ROWS < 4 ? RS_ROWS : 4), 64, da, db));
    DOWN(hb, db, sizeof(hb));
    double ref[4], tol[4];
    for (int r = 0; r < 4; ++r) {
        ref[r] = 0;
        for (int j = 0; j < RS_N; ++j) ref[r] += ha[r * RS_N + j];
        tol[r] = RS_N * FLT_EPSILON * ref[r];
    }
    CHECK_F32_TOL("row_sum after the refused launches", hb, ref, 4, tol);
    tile_free(t->ex, da);
    tile_free(t->ex, db);
}

static void test_host_api(void) {
    g_target = "host";
    g_test = "host API";
    for (int e = TILE_OK; e <= TILE_ERR_ARG; ++e)
        CHECK(tile_error_string(e) && tile_error_string(e)[0] && strcmp(tile_error_string(e), "unknown tile.h error"),
              "tile_error_string(%d) = \"%s\"", e, tile_error_string(e));
    CHECK_ERR(tile_synchronize(TILE_CPU), TILE_OK);
    /* the host reference of the random tiles: a bijection of the counter */
    CHECK(tile_hash32(1, 2) != tile_hash32(1, 3) && tile_hash32(1, 2) != tile_hash32(2, 2),
          "tile_hash32 ignores an argument");
}

/* ========================================================================
 * main
 * ======================================================================== */
static void run_all(const target *t) {
    gc_target_begin(t);
    test_coords(t);
    test_ew_f32(t);
    test_ew_2d(t);
    test_ew_i32(t);
    test_ew_f64(t);
    test_ew_vec3(t);
    test_construct(t);
    test_from_thread(t);
    test_views(t);
    test_astype(t);
    test_row_sum(t);
    if (t->gpu) test_stream(t);
    test_row_stats(t);
    test_sum_2d_atomic(t);
    test_blockwise(t);
    test_big_smem(t);
    test_smem_reuse(t);
    test_smem_errors(t);
    test_launch_errors(t);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "gpu_test", 0, NULL, NULL);
    if (rc) return rc;
    test_host_api();
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
