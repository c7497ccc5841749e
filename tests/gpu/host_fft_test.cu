/* tests/gpu/host_fft_test.cu - the host FFT API (include/tile/host/fft.h) on
 * GPU 0 (cuFFT, and the tile_fft kernels of the automatic choice) and on the
 * CPU target of the same nvcc build.
 *
 *   host_fft_test             GPU 0 (when there is one), then the CPU target
 *   host_fft_test --cpu-only  the CPU target only
 *   host_fft_test --quick     lengths up to 256, small batches (compute-sanitizer)
 *
 * Checked on each target, against a double-precision DFT computed here
 * (relative L2 error < 1e-5 for f32, 1e-12 for f64) and against the CPU path
 * of the same call (the GPU target): batched 1D C2C f32 and f64 for powers of
 * two 1..4096, primes, 12, 360, 1000 (both directions, in place and out of
 * place, batches that do not fill the tile kernels' last block); on the GPU
 * the tile_fft kernel of every length 16..4096 (TILE__FFT_TILE_ALL compiles
 * them all) and cuFFT forced, and the automatic choice bit-equal to the path
 * the table names; 2D C2C (extents of 1 included); R2C and C2R (n = 1
 * included: copies on the GPU); a stream; more shapes than the plan
 * cache holds, and tile_fft_release_plans; error codes (bad arguments, no
 * such GPU, a tile path for a length without a kernel). Outputs are poisoned
 * (NaN) before each call.
 */
#include <math.h>
#include <stdint.h>
#include "gpu_check.h"
#define TILE__FFT_TILE_ALL 1 /* every tile kernel 16..4096, not only the routed ones */
#include <tile/host/fft.h>

#define PI 3.14159265358979323846

static uint32_t rng = 2024u;
static double urand(void) {
    rng = rng * 1664525u + 1013904223u;
    return (double)(rng >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}
/* X = DFT of x (interleaved, length n), exp(sign 2 pi i jk/n), table twiddles */
static void dft(const double *x, double *X, int n, int sign) {
    double *c = (double *)malloc(sizeof(double) * 2 * n);
    if (!c) die(__FILE__, __LINE__, "malloc");
    for (int m = 0; m < n; ++m) {
        c[2 * m] = cos(2 * PI * m / n);
        c[2 * m + 1] = sign * sin(2 * PI * m / n);
    }
    for (int k = 0; k < n; ++k) {
        double re = 0, im = 0;
        int m = 0;
        for (int j = 0; j < n; ++j) {
            re += x[2 * j] * c[2 * m] - x[2 * j + 1] * c[2 * m + 1];
            im += x[2 * j] * c[2 * m + 1] + x[2 * j + 1] * c[2 * m];
            m += k;
            if (m >= n) m -= n;
        }
        X[2 * k] = re;
        X[2 * k + 1] = im;
    }
    free(c);
}
template <class A, class B>
static double rel_err(const A *got, const B *ref, size_t cnt) {
    double e = 0, r = 0;
    for (size_t i = 0; i < cnt; ++i) {
        const double d = (double)got[i] - (double)ref[i];
        e += d != d ? 1e300 : d * d;
        r += (double)ref[i] * (double)ref[i];
    }
    return sqrt(e / (r > 0 ? r : 1));
}
#define CHECK_REL(got, ref, cnt, tol, ...)                                         \
    do {                                                                           \
        const double e_ = rel_err(got, ref, cnt);                                  \
        char what_[160];                                                           \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                \
        CHECK(e_ < (tol), "%s: relative error %.3e (limit %.0e)", what_, e_, (double)(tol)); \
    } while (0)

/* rows rws of the DFT of batch rows of n (interleaved doubles) */
static void dft_rows(const double *x, double *X, int n, int sign, const int *rws, int nr) {
    for (int i = 0; i < nr; ++i) dft(x + (size_t)2 * n * rws[i], X + (size_t)2 * n * i, n, sign);
}

/* ---- 1D C2C f32: every path on t, vs the DFT and the CPU path ---- */
static void c2c_f32(const target *t, int n, int batch) {
    const size_t cnt = (size_t)2 * n * batch, bytes = cnt * sizeof(float);
    float *h_in = HALLOC(float, cnt), *h_out = HALLOC(float, cnt), *h_cpu = HALLOC(float, cnt);
    float *h_auto = HALLOC(float, cnt);
    double *xd = HALLOC(double, cnt), *ref = HALLOC(double, (size_t)2 * n * 2), *got = HALLOC(double, (size_t)2 * n * 2);
    for (size_t i = 0; i < cnt; ++i) {
        h_in[i] = (float)urand();
        xd[i] = h_in[i];
    }
    float *d_in = DALLOC(float, cnt), *d_out = DALLOC(float, cnt);
    UP(d_in, h_in, bytes);
    const int rws[2] = {0, batch - 1};
    for (int dir = -1; dir <= 1; dir += 2) {
        dft_rows(xd, ref, n, dir, rws, 2);
        CHECK_ERR(tile_fft_c2c_f32(tile_cpu(), n, batch, (const tile_c32 *)h_in, (tile_c32 *)h_cpu, dir), TILE_OK);
        /* paths: auto, then (GPU) tile where a kernel exists, and cuFFT */
        const int tile_ok = n >= 16 && n <= 4096 && (n & (n - 1)) == 0;
        for (int path = TILE_FFT_AUTO; path <= (t->gpu ? TILE_FFT_LIBRARY : TILE_FFT_AUTO); ++path) {
            if (path == TILE_FFT_TILE && !tile_ok) {
                CHECK_ERR(tile_fft_c2c_f32_ex(t->ex, n, batch, (const tile_c32 *)d_in, (tile_c32 *)d_out, dir, path),
                          TILE_ERR_ARG);
                continue;
            }
            POISON(d_out, bytes, POISON_F);
            CHECK_ERR(tile_fft_c2c_f32_ex(t->ex, n, batch, (const tile_c32 *)d_in, (tile_c32 *)d_out, dir, path), TILE_OK);
            SYNC_OK();
            DOWN(h_out, d_out, bytes);
            for (int i = 0; i < 2; ++i)
                for (int k = 0; k < 2 * n; ++k) got[(size_t)2 * n * i + k] = h_out[(size_t)2 * n * rws[i] + k];
            CHECK_REL(got, ref, (size_t)4 * n, 1e-5, "c2c f32 n=%d batch=%d dir=%d path=%d vs DFT", n, batch, dir, path);
            CHECK_REL(h_out, h_cpu, cnt, 1e-5, "c2c f32 n=%d batch=%d dir=%d path=%d vs CPU path", n, batch, dir, path);
            if (path == TILE_FFT_AUTO) memcpy(h_auto, h_out, bytes);
            /* the automatic choice is exactly the path the table names */
            if (path != TILE_FFT_AUTO && (path == TILE_FFT_TILE) == (tile_fft_c2c_f32_uses_tile(n) != 0))
                CHECK(memcmp(h_auto, h_out, bytes) == 0, "c2c f32 n=%d dir=%d: auto differs from path %d", n, dir, path);
        }
        /* in place (auto) */
        CHECK_ERR(tile_copy_to(t->ex, d_out, h_in, bytes), TILE_OK);
        CHECK_ERR(tile_fft_c2c_f32(t->ex, n, batch, (const tile_c32 *)d_out, (tile_c32 *)d_out, dir), TILE_OK);
        SYNC_OK();
        DOWN(h_out, d_out, bytes);
        CHECK(memcmp(h_auto, h_out, bytes) == 0 || rel_err(h_out, h_auto, cnt) < 1e-6,
              "c2c f32 n=%d dir=%d in place differs from out of place", n, dir);
    }
    tile_free(t->ex, d_in);
    tile_free(t->ex, d_out);
    free(h_in); free(h_out); free(h_cpu); free(h_auto); free(xd); free(ref); free(got);
}

/* ---- 1D C2C f64 ---- */
static void c2c_f64(const target *t, int n, int batch) {
    const size_t cnt = (size_t)2 * n * batch, bytes = cnt * sizeof(double);
    double *h_in = HALLOC(double, cnt), *h_out = HALLOC(double, cnt), *h_cpu = HALLOC(double, cnt);
    double *ref = HALLOC(double, (size_t)2 * n), *got = HALLOC(double, (size_t)2 * n);
    for (size_t i = 0; i < cnt; ++i) h_in[i] = urand();
    double *d_in = DALLOC(double, cnt), *d_out = DALLOC(double, cnt);
    UP(d_in, h_in, bytes);
    const int last[1] = {batch - 1};
    for (int dir = -1; dir <= 1; dir += 2) {
        dft_rows(h_in, ref, n, dir, last, 1);
        CHECK_ERR(tile_fft_c2c_f64(tile_cpu(), n, batch, (const tile_c64 *)h_in, (tile_c64 *)h_cpu, dir), TILE_OK);
        POISON(d_out, bytes, POISON_F);
        CHECK_ERR(tile_fft_c2c_f64(t->ex, n, batch, (const tile_c64 *)d_in, (tile_c64 *)d_out, dir), TILE_OK);
        SYNC_OK();
        DOWN(h_out, d_out, bytes);
        memcpy(got, h_out + (size_t)2 * n * (batch - 1), (size_t)2 * n * sizeof(double));
        CHECK_REL(got, ref, (size_t)2 * n, 1e-12, "c2c f64 n=%d dir=%d vs DFT", n, dir);
        CHECK_REL(h_out, h_cpu, cnt, 1e-12, "c2c f64 n=%d dir=%d vs CPU path", n, dir);
    }
    tile_free(t->ex, d_in);
    tile_free(t->ex, d_out);
    free(h_in); free(h_out); free(h_cpu); free(ref); free(got);
}

/* ---- 2D C2C, f32 and f64: vs the CPU path and a rows-then-columns DFT ---- */
static void fft2d(const target *t, int ny, int nx, int batch) {
    const size_t img = (size_t)ny * nx, cnt = 2 * img * batch;
    double *x = HALLOC(double, cnt), *ref = HALLOC(double, 2 * img), *col = HALLOC(double, 2 * ny),
           *colo = HALLOC(double, 2 * ny), *out64 = HALLOC(double, cnt), *cpu64 = HALLOC(double, cnt);
    float *x32 = HALLOC(float, cnt), *out32 = HALLOC(float, cnt), *cpu32 = HALLOC(float, cnt);
    for (size_t i = 0; i < cnt; ++i) {
        x32[i] = (float)urand();
        x[i] = x32[i];
    }
    double *d64 = DALLOC(double, cnt), *o64 = DALLOC(double, cnt);
    float *d32 = DALLOC(float, cnt), *o32 = DALLOC(float, cnt);
    UP(d64, x, cnt * sizeof(double));
    UP(d32, x32, cnt * sizeof(float));
    for (int dir = -1; dir <= 1; dir += 2) {
        /* reference: the last image, rows then columns of 1D DFTs */
        const double *xl = x + 2 * img * (batch - 1);
        for (int y = 0; y < ny; ++y) dft(xl + 2 * (size_t)y * nx, ref + 2 * (size_t)y * nx, nx, dir);
        for (int xx = 0; xx < nx; ++xx) {
            for (int y = 0; y < ny; ++y) {
                col[2 * y] = ref[2 * ((size_t)y * nx + xx)];
                col[2 * y + 1] = ref[2 * ((size_t)y * nx + xx) + 1];
            }
            dft(col, colo, ny, dir);
            for (int y = 0; y < ny; ++y) {
                ref[2 * ((size_t)y * nx + xx)] = colo[2 * y];
                ref[2 * ((size_t)y * nx + xx) + 1] = colo[2 * y + 1];
            }
        }
        CHECK_ERR(tile_fft2d_c2c_f64(tile_cpu(), ny, nx, batch, (const tile_c64 *)x, (tile_c64 *)cpu64, dir), TILE_OK);
        CHECK_ERR(tile_fft2d_c2c_f32(tile_cpu(), ny, nx, batch, (const tile_c32 *)x32, (tile_c32 *)cpu32, dir), TILE_OK);
        POISON(o64, cnt * sizeof(double), POISON_F);
        POISON(o32, cnt * sizeof(float), POISON_F);
        CHECK_ERR(tile_fft2d_c2c_f64(t->ex, ny, nx, batch, (const tile_c64 *)d64, (tile_c64 *)o64, dir), TILE_OK);
        CHECK_ERR(tile_fft2d_c2c_f32(t->ex, ny, nx, batch, (const tile_c32 *)d32, (tile_c32 *)o32, dir), TILE_OK);
        SYNC_OK();
        DOWN(out64, o64, cnt * sizeof(double));
        DOWN(out32, o32, cnt * sizeof(float));
        CHECK_REL(out64 + 2 * img * (batch - 1), ref, 2 * img, 1e-12, "2d f64 %dx%d dir=%d vs DFT", ny, nx, dir);
        CHECK_REL(out32 + 2 * img * (batch - 1), ref, 2 * img, 1e-5, "2d f32 %dx%d dir=%d vs DFT", ny, nx, dir);
        CHECK_REL(out64, cpu64, cnt, 1e-12, "2d f64 %dx%d dir=%d vs CPU path", ny, nx, dir);
        CHECK_REL(out32, cpu32, cnt, 1e-5, "2d f32 %dx%d dir=%d vs CPU path", ny, nx, dir);
    }
    tile_free(t->ex, d64); tile_free(t->ex, o64); tile_free(t->ex, d32); tile_free(t->ex, o32);
    free(x); free(ref); free(col); free(colo); free(out64); free(cpu64); free(x32); free(out32); free(cpu32);
}

/* ---- R2C and C2R, f32 and f64 ---- */
static void real_ffts(const target *t, int n, int batch) {
    const int nh = n / 2 + 1;
    const size_t rc = (size_t)n * batch, hc = (size_t)2 * nh * batch;
    double *xr = HALLOC(double, rc), *xc = HALLOC(double, 2 * (size_t)n), *ref = HALLOC(double, 2 * (size_t)n);
    double *h64 = HALLOC(double, hc), *cpu_h64 = HALLOC(double, hc), *b64 = HALLOC(double, rc);
    float *xr32 = HALLOC(float, rc), *h32 = HALLOC(float, hc), *cpu_h32 = HALLOC(float, hc), *b32 = HALLOC(float, rc);
    for (size_t i = 0; i < rc; ++i) {
        xr32[i] = (float)urand();
        xr[i] = xr32[i];
    }
    for (int j = 0; j < n; ++j) {
        xc[2 * j] = xr[(size_t)(batch - 1) * n + j];
        xc[2 * j + 1] = 0;
    }
    dft(xc, ref, n, -1); /* the last row's spectrum: its first n/2+1 are the R2C output */
    CHECK_ERR(tile_fft_r2c_f64(tile_cpu(), n, batch, xr, (tile_c64 *)cpu_h64), TILE_OK);
    CHECK_ERR(tile_fft_r2c_f32(tile_cpu(), n, batch, xr32, (tile_c32 *)cpu_h32), TILE_OK);
    double *dxr = DALLOC(double, rc), *dh64 = DALLOC(double, hc), *db64 = DALLOC(double, rc);
    float *dxr32 = DALLOC(float, rc), *dh32 = DALLOC(float, hc), *db32 = DALLOC(float, rc);
    UP(dxr, xr, rc * sizeof(double));
    UP(dxr32, xr32, rc * sizeof(float));
    POISON(dh64, hc * sizeof(double), POISON_F);
    POISON(dh32, hc * sizeof(float), POISON_F);
    CHECK_ERR(tile_fft_r2c_f64(t->ex, n, batch, dxr, (tile_c64 *)dh64), TILE_OK);
    CHECK_ERR(tile_fft_r2c_f32(t->ex, n, batch, dxr32, (tile_c32 *)dh32), TILE_OK);
    SYNC_OK();
    DOWN(h64, dh64, hc * sizeof(double));
    DOWN(h32, dh32, hc * sizeof(float));
    CHECK_REL(h64 + (size_t)2 * nh * (batch - 1), ref, (size_t)2 * nh, 1e-12, "r2c f64 n=%d vs DFT", n);
    CHECK_REL(h32 + (size_t)2 * nh * (batch - 1), ref, (size_t)2 * nh, 1e-5, "r2c f32 n=%d vs DFT", n);
    CHECK_REL(h64, cpu_h64, hc, 1e-12, "r2c f64 n=%d vs CPU path", n);
    CHECK_REL(h32, cpu_h32, hc, 1e-5, "r2c f32 n=%d vs CPU path", n);
    /* C2R of the spectra (the GPU's; dh* may be overwritten): n x back */
    POISON(db64, rc * sizeof(double), POISON_F);
    POISON(db32, rc * sizeof(float), POISON_F);
    CHECK_ERR(tile_fft_c2r_f64(t->ex, n, batch, (tile_c64 *)dh64, db64), TILE_OK);
    CHECK_ERR(tile_fft_c2r_f32(t->ex, n, batch, (tile_c32 *)dh32, db32), TILE_OK);
    SYNC_OK();
    DOWN(b64, db64, rc * sizeof(double));
    DOWN(b32, db32, rc * sizeof(float));
    for (size_t i = 0; i < rc; ++i) {
        b64[i] /= n;
        b32[i] /= (float)n;
    }
    CHECK_REL(b64, xr, rc, 1e-12, "c2r(r2c) f64 n=%d", n);
    CHECK_REL(b32, xr, rc, 1e-5, "c2r(r2c) f32 n=%d", n);
    tile_free(t->ex, dxr); tile_free(t->ex, dh64); tile_free(t->ex, db64);
    tile_free(t->ex, dxr32); tile_free(t->ex, dh32); tile_free(t->ex, db32);
    free(xr); free(xc); free(ref); free(h64); free(cpu_h64); free(b64); free(xr32); free(h32); free(cpu_h32); free(b32);
}

/* ---- GPU only: a stream, the plan cache ---- */
static void stream_and_cache(const target *t) {
    const int n = 64, maxb = TILE_FFT_PLAN_CACHE + 4;
    const size_t cnt = (size_t)2 * n * maxb;
    float *h_in = HALLOC(float, cnt), *h_out = HALLOC(float, cnt), *h_cpu = HALLOC(float, cnt);
    for (size_t i = 0; i < cnt; ++i) h_in[i] = (float)urand();
    float *d_in = DALLOC(float, cnt), *d_out = DALLOC(float, cnt);
    UP(d_in, h_in, cnt * sizeof(float));
    CHECK_ERR(tile_fft_c2c_f32(tile_cpu(), n, maxb, (const tile_c32 *)h_in, (tile_c32 *)h_cpu, TILE_FFT_FORWARD), TILE_OK);
    /* more shapes than the cache holds (evictions), twice over, cuFFT forced */
    for (int round = 0; round < (g_quick ? 1 : 2); ++round) /* (plans are slow to make under the sanitizers) */
        for (int b = 1; b <= maxb; ++b) {
            POISON(d_out, cnt * sizeof(float), POISON_F);
            CHECK_ERR(tile_fft_c2c_f32_ex(t->ex, n, b, (const tile_c32 *)d_in, (tile_c32 *)d_out, TILE_FFT_FORWARD,
                                          TILE_FFT_LIBRARY), TILE_OK);
            SYNC_OK();
            DOWN(h_out, d_out, (size_t)2 * n * b * sizeof(float));
            CHECK_REL(h_out, h_cpu, (size_t)2 * n * b, 1e-5, "plan cache round %d batch %d", round, b);
        }
    tile_fft_release_plans();
    tile_fft_release_plans(); /* twice: nothing left to destroy */
    /* a stream: the call is ordered on it */
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s) == cudaSuccess, "cudaStreamCreate");
    const tile_exec ex = tile_exec_stream(t->ex, (void *)s);
    for (int path = TILE_FFT_TILE; path <= TILE_FFT_LIBRARY; ++path) {
        POISON(d_out, cnt * sizeof(float), POISON_F);
        CHECK_ERR(tile_fft_c2c_f32_ex(ex, n, maxb, (const tile_c32 *)d_in, (tile_c32 *)d_out, TILE_FFT_FORWARD, path),
                  TILE_OK);
        CHECK(cudaStreamSynchronize(s) == cudaSuccess, "cudaStreamSynchronize");
        DOWN(h_out, d_out, cnt * sizeof(float));
        CHECK_REL(h_out, h_cpu, cnt, 1e-5, "on a stream, path %d", path);
    }
    cudaStreamDestroy(s);
    tile_free(t->ex, d_in);
    tile_free(t->ex, d_out);
    free(h_in); free(h_out); free(h_cpu);
}

/* ---- error codes ---- */
static void errors(const target *t) {
    tile_c32 *a = DALLOC(tile_c32, 64), *o = DALLOC(tile_c32, 64);
    tile_c64 *a64 = DALLOC(tile_c64, 64), *o64 = DALLOC(tile_c64, 64);
    CHECK_ERR(tile_fft_c2c_f32(t->ex, 0, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    CHECK_ERR(tile_fft_c2c_f32(t->ex, 16, 0, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    CHECK_ERR(tile_fft_c2c_f32(t->ex, 16, 1, NULL, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    CHECK_ERR(tile_fft_c2c_f32(t->ex, 16, 1, a, o, 0), TILE_ERR_ARG);
    CHECK_ERR(tile_fft_c2c_f32_ex(t->ex, 16, 1, a, o, TILE_FFT_FORWARD, 7), TILE_ERR_ARG);
    CHECK_ERR(tile_fft_c2c_f64(t->ex, 16, 1, a64, NULL, TILE_FFT_FORWARD), TILE_ERR_ARG);
    CHECK_ERR(tile_fft2d_c2c_f32(t->ex, 4, 0, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    CHECK_ERR(tile_fft2d_c2c_f64(t->ex, 4, 4, -1, a64, o64, TILE_FFT_FORWARD), TILE_ERR_ARG);
    CHECK_ERR(tile_fft_r2c_f32(t->ex, 8, 1, (const float *)o, o), TILE_ERR_ARG);   /* overlap */
    CHECK_ERR(tile_fft_c2r_f64(t->ex, 8, 1, o64, (double *)o64), TILE_ERR_ARG);     /* overlap */
    CHECK_ERR(tile_fft_r2c_f64(t->ex, 8, 1, NULL, o64), TILE_ERR_ARG);
    CHECK_ERR(tile_fft_c2r_f32(t->ex, 8, 0, a, (float *)o), TILE_ERR_ARG);
    /* no such GPU; GPU 0 without one */
    CHECK_ERR(tile_fft_c2c_f32(tile_gpu(99), 16, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_DEVICE);
    CHECK_ERR(tile_fft_c2c_f64(tile_gpu(99), 16, 1, a64, o64, TILE_FFT_FORWARD), TILE_ERR_DEVICE);
    if (tile_gpu_count() == 0)
        CHECK_ERR(tile_fft_c2c_f32(tile_gpu(0), 16, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_DEVICE);
    /* the table: the automatic choice and the compiled kernels agree */
    for (int k = 0; k <= 13; ++k) {
        const int n = 1 << k, want = k >= 4 && k <= 12 && ((TILE_FFT_AUTO_TILE >> k) & 1);
        CHECK(tile_fft_c2c_f32_uses_tile(n) == want, "uses_tile(%d) = %d, table says %d", n,
              tile_fft_c2c_f32_uses_tile(n), want);
    }
    CHECK(tile_fft_c2c_f32_uses_tile(1000) == 0 && tile_fft_c2c_f32_uses_tile(0) == 0, "uses_tile of non-powers");
    if (t->gpu) {
        /* a tile path for a length without a kernel */
        CHECK_ERR(tile_fft_c2c_f32_ex(t->ex, 1000, 1, a, o, TILE_FFT_FORWARD, TILE_FFT_TILE), TILE_ERR_ARG);
        CHECK_ERR(tile_fft_c2c_f32_ex(t->ex, 8, 1, a, o, TILE_FFT_FORWARD, TILE_FFT_TILE), TILE_ERR_ARG);
    }
    tile_free(t->ex, a); tile_free(t->ex, o); tile_free(t->ex, a64); tile_free(t->ex, o64);
}

static void run_all(const target *t) {
    gc_target_begin(t);
    static const int ns_full[] = {1, 2, 3, 4, 8, 12, 16, 32, 64, 97, 128, 256, 360, 512, 1000, 1009, 1024, 2048, 4096};
    static const int ns_quick[] = {1, 3, 16, 64, 97, 256};
    const int *ns = g_quick ? ns_quick : ns_full;
    const int nn = g_quick ? (int)(sizeof(ns_quick) / sizeof(int)) : (int)(sizeof(ns_full) / sizeof(int));
    for (int i = 0; i < nn; ++i) {
        const int n = ns[i];
        /* rows: a count that leaves the tile kernel's last block partial */
        const int batch = g_quick ? 3 : (n >= 1024 ? 5 : 4096 / n + 3);
        g_test = "c2c f32";
        c2c_f32(t, n, batch);
        g_test = "c2c f64";
        c2c_f64(t, n, g_quick ? 2 : 3);
    }
    g_test = "2d";
    fft2d(t, 6, 10, 2);
    fft2d(t, 16, 16, 3);
    fft2d(t, 1, 12, 2);  /* an extent of 1: the 1D path */
    fft2d(t, 12, 1, 2);
    fft2d(t, 1, 256, 3); /* ... the tile kernel where 256 is routed there */
    fft2d(t, 1, 1, 4);
    if (!g_quick) fft2d(t, 64, 97, 2);
    g_test = "r2c/c2r";
    const int rn[] = {1, 2, 5, 16, 97, 1000, 1024};
    for (int i = 0; i < (g_quick ? 4 : 7); ++i) real_ffts(t, rn[i], 3);
    if (t->gpu) {
        g_test = "stream and plan cache";
        stream_and_cache(t);
    }
    g_test = "errors";
    errors(t);
    g_test = NULL;
    tile_fft_release_plans();
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    int rc = gc_start(argc, argv, "host_fft_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
