/* tests/cpu/test_host_fft.c - the host FFT API (tile/host/fft.h) on the CPU
 * target of a C11 build: C2C f32/f64 against a double-precision DFT written
 * here (relative L2 error < 1e-5 / 1e-12) for powers of two to 4096, primes
 * (Bluestein), radix-3/5/7 products and mixtures; round trip, linearity,
 * Parseval, in place; 2D against a direct 2D sum; R2C and C2R against the
 * complex DFT; the header's examples; bad arguments and a GPU exec without
 * CUDA as error codes, leaving the output untouched. */
#include "test_util.h"
#include <tile/host/fft.h>

#define PI 3.14159265358979323846

/* ---- references ---- */
static uint32_t rng_state = 12345u;
static double urand(void) { /* [-1, 1) */
    rng_state = rng_state * 1664525u + 1013904223u;
    return (double)(rng_state >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}
/* X[k] = sum_j x[j] exp(sign 2 pi i jk/n), exponent reduced exactly */
static void dft(const double *x, double *X, int n, int sign) {
    for (int k = 0; k < n; ++k) {
        double re = 0, im = 0;
        for (int j = 0; j < n; ++j) {
            const int m = (int)(((int64_t)j * k) % n);
            const double c = cos(2 * PI * m / n), s = sign * sin(2 * PI * m / n);
            re += x[2 * j] * c - x[2 * j + 1] * s;
            im += x[2 * j] * s + x[2 * j + 1] * c;
        }
        X[2 * k] = re;
        X[2 * k + 1] = im;
    }
}
/* relative L2 error of got (cnt doubles) against ref */
static double rel_err(const double *got, const double *ref, size_t cnt) {
    double e = 0, r = 0;
    for (size_t i = 0; i < cnt; ++i) {
        const double d = got[i] - ref[i];
        e += d != d ? 1e300 : d * d;
        r += ref[i] * ref[i];
    }
    return sqrt(e / (r > 0 ? r : 1));
}
#define CHECK_ERR_BELOW(err, tol, what, n)                                         \
    do {                                                                           \
        if (!((err) < (tol))) {                                                    \
            print_error("%s n=%d: relative error %.3e (limit %.0e)\n", what, (int)(n), (err), (tol)); \
            fail();                                                                \
        }                                                                          \
    } while (0)

static const int sizes[] = {1,   2,   3,   4,   5,   6,   7,   8,   9,    11,   12,   13,   16,   17,  25,
                            31,  32,  49,  64,  97,  101, 128, 210, 243,  256,  343,  360,  512,  625, 1000,
                            1009, 1024, 2048, 2187, 4096, 22,  1536, 3000, 4095};
enum { NSIZES = sizeof(sizes) / sizeof(sizes[0]) };

/* ---- C2C against the DFT, every size, both directions and precisions ---- */
static void test_c2c_vs_dft(void **state) {
    (void)state;
    for (int si = 0; si < NSIZES; ++si) {
        const int n = sizes[si], batch = n <= 1024 ? 3 : 1;
        const size_t cnt = (size_t)2 * n * batch;
        double *x = malloc(cnt * sizeof(double)), *ref = malloc(cnt * sizeof(double));
        double *y64 = malloc(cnt * sizeof(double)), *xd = malloc(cnt * sizeof(double));
        float *x32 = malloc(cnt * sizeof(float)), *y32 = malloc(cnt * sizeof(float));
        assert_non_null(x); assert_non_null(ref); assert_non_null(y64);
        assert_non_null(xd); assert_non_null(x32); assert_non_null(y32);
        for (size_t i = 0; i < cnt; ++i) {
            x32[i] = (float)urand();
            x[i] = urand();
            xd[i] = x32[i];
        }
        for (int dir = -1; dir <= 1; dir += 2) {
            /* f64 */
            assert_tile_ok(tile_fft_c2c_f64(tile_cpu(), n, batch, (const tile_c64 *)x, (tile_c64 *)y64, dir));
            for (int b = 0; b < batch; ++b) dft(x + (size_t)2 * n * b, ref + (size_t)2 * n * b, n, dir);
            CHECK_ERR_BELOW(rel_err(y64, ref, cnt), 1e-12, dir < 0 ? "c2c f64 forward" : "c2c f64 inverse", n);
            /* f32: reference from the float inputs */
            assert_tile_ok(tile_fft_c2c_f32(tile_cpu(), n, batch, (const tile_c32 *)x32, (tile_c32 *)y32, dir));
            for (int b = 0; b < batch; ++b) dft(xd + (size_t)2 * n * b, ref + (size_t)2 * n * b, n, dir);
            for (size_t i = 0; i < cnt; ++i) y64[i] = y32[i];
            CHECK_ERR_BELOW(rel_err(y64, ref, cnt), 1e-5, dir < 0 ? "c2c f32 forward" : "c2c f32 inverse", n);
            /* every row on its own: the batch rows are independent */
            if (batch > 1) {
                assert_tile_ok(tile_fft_c2c_f32(tile_cpu(), n, 1, (const tile_c32 *)(x32 + 2 * n), (tile_c32 *)y32, dir));
                for (int i = 0; i < 2 * n; ++i) y64[i] = y32[i];
                CHECK_ERR_BELOW(rel_err(y64, ref + 2 * n, (size_t)2 * n), 1e-5, "c2c f32 row 1 alone", n);
            }
        }
        free(x); free(ref); free(y64); free(xd); free(x32); free(y32);
    }
}

/* ---- round trip (in place), linearity, Parseval ---- */
static void test_round_trip_linear_parseval(void **state) {
    (void)state;
    const int ns[] = {1, 2, 3, 7, 12, 30, 97, 360, 1000, 1024, 4096, 4099};
    for (size_t si = 0; si < sizeof(ns) / sizeof(ns[0]); ++si) {
        const int n = ns[si], batch = 2;
        const size_t cnt = (size_t)2 * n * batch;
        double *x = malloc(cnt * sizeof(double)), *y = malloc(cnt * sizeof(double)), *z = malloc(cnt * sizeof(double));
        double *fx = malloc(cnt * sizeof(double)), *fy = malloc(cnt * sizeof(double)), *fz = malloc(cnt * sizeof(double));
        float *x32 = malloc(cnt * sizeof(float)), *w32 = malloc(cnt * sizeof(float));
        assert_non_null(x); assert_non_null(y); assert_non_null(z);
        assert_non_null(fx); assert_non_null(fy); assert_non_null(fz);
        assert_non_null(x32); assert_non_null(w32);
        for (size_t i = 0; i < cnt; ++i) {
            x[i] = urand();
            y[i] = urand();
            x32[i] = (float)urand();
        }
        /* round trip in place: inverse(forward(x)) = n x */
        memcpy(z, x, cnt * sizeof(double));
        assert_tile_ok(tile_fft_c2c_f64(tile_cpu(), n, batch, (tile_c64 *)z, (tile_c64 *)z, TILE_FFT_FORWARD));
        assert_tile_ok(tile_fft_c2c_f64(tile_cpu(), n, batch, (tile_c64 *)z, (tile_c64 *)z, TILE_FFT_INVERSE));
        for (size_t i = 0; i < cnt; ++i) z[i] /= n;
        CHECK_ERR_BELOW(rel_err(z, x, cnt), 1e-12, "round trip f64", n);
        memcpy(w32, x32, cnt * sizeof(float));
        assert_tile_ok(tile_fft_c2c_f32(tile_cpu(), n, batch, (tile_c32 *)w32, (tile_c32 *)w32, TILE_FFT_FORWARD));
        assert_tile_ok(tile_fft_c2c_f32(tile_cpu(), n, batch, (tile_c32 *)w32, (tile_c32 *)w32, TILE_FFT_INVERSE));
        for (size_t i = 0; i < cnt; ++i) {
            z[i] = w32[i] / (double)n;
            fz[i] = x32[i];
        }
        CHECK_ERR_BELOW(rel_err(z, fz, cnt), 1e-5, "round trip f32", n);
        /* linearity: F(a x + b y) = a F(x) + b F(y), a = 0.75 - 0.5i, b = -1.25 */
        const double ar = 0.75, ai = -0.5, bb = -1.25;
        for (size_t i = 0; i < cnt; i += 2) {
            z[i] = ar * x[i] - ai * x[i + 1] + bb * y[i];
            z[i + 1] = ar * x[i + 1] + ai * x[i] + bb * y[i + 1];
        }
        assert_tile_ok(tile_fft_c2c_f64(tile_cpu(), n, batch, (tile_c64 *)x, (tile_c64 *)fx, TILE_FFT_FORWARD));
        assert_tile_ok(tile_fft_c2c_f64(tile_cpu(), n, batch, (tile_c64 *)y, (tile_c64 *)fy, TILE_FFT_FORWARD));
        assert_tile_ok(tile_fft_c2c_f64(tile_cpu(), n, batch, (tile_c64 *)z, (tile_c64 *)fz, TILE_FFT_FORWARD));
        for (size_t i = 0; i < cnt; i += 2) {
            const double re = ar * fx[i] - ai * fx[i + 1] + bb * fy[i], im = ar * fx[i + 1] + ai * fx[i] + bb * fy[i + 1];
            fy[i] = re;
            fy[i + 1] = im;
        }
        CHECK_ERR_BELOW(rel_err(fz, fy, cnt), 1e-12, "linearity f64", n);
        /* Parseval: sum |X|^2 = n sum |x|^2 */
        double ex = 0, eX = 0;
        for (size_t i = 0; i < cnt; ++i) {
            ex += x[i] * x[i];
            eX += fx[i] * fx[i];
        }
        if (!(fabs(eX - n * ex) <= 1e-12 * n * ex)) {
            print_error("Parseval n=%d: %.17g vs %.17g\n", n, eX, n * ex);
            fail();
        }
        free(x); free(y); free(z); free(fx); free(fy); free(fz); free(x32); free(w32);
    }
}

/* ---- 2D against the direct double sum ---- */
static void dft2(const double *x, double *X, int ny, int nx, int sign) {
    for (int ky = 0; ky < ny; ++ky)
        for (int kx = 0; kx < nx; ++kx) {
            double re = 0, im = 0;
            for (int y = 0; y < ny; ++y)
                for (int xx = 0; xx < nx; ++xx) {
                    /* angle / (2 pi) = (ky y / ny + kx x / nx), reduced */
                    const double f = (double)((int64_t)ky * y % ny) / ny + (double)((int64_t)kx * xx % nx) / nx;
                    const double c = cos(2 * PI * f), s = sign * sin(2 * PI * f);
                    const double *p = x + 2 * ((size_t)y * nx + xx);
                    re += p[0] * c - p[1] * s;
                    im += p[0] * s + p[1] * c;
                }
            X[2 * ((size_t)ky * nx + kx)] = re;
            X[2 * ((size_t)ky * nx + kx) + 1] = im;
        }
}
static void test_2d(void **state) {
    (void)state;
    const int shapes[][2] = {{1, 1}, {2, 2}, {6, 10}, {16, 8}, {5, 7}, {1, 12}, {12, 1}, {13, 4}, {32, 32}, {9, 22}};
    for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); ++si) {
        const int ny = shapes[si][0], nx = shapes[si][1], batch = 2;
        const size_t img = (size_t)ny * nx, cnt = 2 * img * batch;
        double *x = malloc(cnt * sizeof(double)), *ref = malloc(cnt * sizeof(double)), *y = malloc(cnt * sizeof(double));
        float *x32 = malloc(cnt * sizeof(float)), *y32 = malloc(cnt * sizeof(float));
        assert_non_null(x); assert_non_null(ref); assert_non_null(y); assert_non_null(x32); assert_non_null(y32);
        for (size_t i = 0; i < cnt; ++i) {
            x32[i] = (float)urand();
            x[i] = x32[i];
        }
        for (int dir = -1; dir <= 1; dir += 2) {
            for (int b = 0; b < batch; ++b) dft2(x + 2 * img * b, ref + 2 * img * b, ny, nx, dir);
            assert_tile_ok(tile_fft2d_c2c_f64(tile_cpu(), ny, nx, batch, (const tile_c64 *)x, (tile_c64 *)y, dir));
            CHECK_ERR_BELOW(rel_err(y, ref, cnt), 1e-12, "2d f64", ny * 1000 + nx);
            assert_tile_ok(tile_fft2d_c2c_f32(tile_cpu(), ny, nx, batch, (const tile_c32 *)x32, (tile_c32 *)y32, dir));
            for (size_t i = 0; i < cnt; ++i) y[i] = y32[i];
            CHECK_ERR_BELOW(rel_err(y, ref, cnt), 1e-5, "2d f32", ny * 1000 + nx);
        }
        free(x); free(ref); free(y); free(x32); free(y32);
    }
}

/* ---- R2C / C2R against the complex DFT ---- */
static void test_real(void **state) {
    (void)state;
    const int ns[] = {1, 2, 3, 4, 5, 8, 11, 12, 64, 97, 100, 360, 1000, 1024, 4096};
    for (size_t si = 0; si < sizeof(ns) / sizeof(ns[0]); ++si) {
        const int n = ns[si], nh = n / 2 + 1, batch = 3;
        double *xr = malloc((size_t)n * batch * sizeof(double)), *xc = malloc((size_t)2 * n * sizeof(double));
        double *ref = malloc((size_t)2 * n * batch * sizeof(double)), *h = malloc((size_t)2 * nh * batch * sizeof(double));
        double *back = malloc((size_t)n * batch * sizeof(double)), *tmp = malloc((size_t)2 * n * sizeof(double));
        float *xr32 = malloc((size_t)n * batch * sizeof(float)), *h32 = malloc((size_t)2 * nh * batch * sizeof(float));
        float *back32 = malloc((size_t)n * batch * sizeof(float));
        assert_non_null(xr); assert_non_null(xc); assert_non_null(ref); assert_non_null(h);
        assert_non_null(back); assert_non_null(tmp); assert_non_null(xr32); assert_non_null(h32); assert_non_null(back32);
        for (int i = 0; i < n * batch; ++i) {
            xr32[i] = (float)urand();
            xr[i] = xr32[i];
        }
        for (int b = 0; b < batch; ++b) {
            for (int j = 0; j < n; ++j) {
                xc[2 * j] = xr[b * n + j];
                xc[2 * j + 1] = 0;
            }
            dft(xc, tmp, n, -1);
            memcpy(ref + (size_t)2 * nh * b, tmp, (size_t)2 * nh * sizeof(double)); /* the half spectrum */
        }
        assert_tile_ok(tile_fft_r2c_f64(tile_cpu(), n, batch, xr, (tile_c64 *)h));
        CHECK_ERR_BELOW(rel_err(h, ref, (size_t)2 * nh * batch), 1e-12, "r2c f64", n);
        assert_tile_ok(tile_fft_r2c_f32(tile_cpu(), n, batch, xr32, (tile_c32 *)h32));
        for (int i = 0; i < 2 * nh * batch; ++i) tmp[i % (2 * n)] = 0; /* (tmp reused below) */
        {
            double *h32d = malloc((size_t)2 * nh * batch * sizeof(double));
            assert_non_null(h32d);
            for (int i = 0; i < 2 * nh * batch; ++i) h32d[i] = h32[i];
            CHECK_ERR_BELOW(rel_err(h32d, ref, (size_t)2 * nh * batch), 1e-5, "r2c f32", n);
            free(h32d);
        }
        /* C2R: c2r(r2c(x)) = n x */
        assert_tile_ok(tile_fft_c2r_f64(tile_cpu(), n, batch, (tile_c64 *)h, back));
        for (int i = 0; i < n * batch; ++i) back[i] /= n;
        CHECK_ERR_BELOW(rel_err(back, xr, (size_t)n * batch), 1e-12, "c2r(r2c) f64", n);
        assert_tile_ok(tile_fft_c2r_f32(tile_cpu(), n, batch, (tile_c32 *)h32, back32));
        for (int i = 0; i < n * batch; ++i) back[i] = back32[i] / (double)n;
        CHECK_ERR_BELOW(rel_err(back, xr, (size_t)n * batch), 1e-5, "c2r(r2c) f32", n);
        /* C2R of a half spectrum that came from nowhere: the inverse DFT of
         * its Hermitian extension (imaginary parts of X[0], X[n/2] dropped) */
        for (int k = 0; k < nh; ++k) {
            h[2 * k] = urand();
            h[2 * k + 1] = urand();
        }
        for (int k = 0; k < n; ++k) {
            const int kk = k < nh ? k : n - k;
            xc[2 * k] = h[2 * kk];
            xc[2 * k + 1] = k < nh ? h[2 * kk + 1] : -h[2 * kk + 1];
        }
        xc[1] = 0;
        if (n % 2 == 0) xc[2 * (n / 2) + 1] = 0;
        dft(xc, tmp, n, 1);
        for (int j = 0; j < n; ++j) ref[j] = tmp[2 * j];
        assert_tile_ok(tile_fft_c2r_f64(tile_cpu(), n, 1, (tile_c64 *)h, back));
        CHECK_ERR_BELOW(rel_err(back, ref, (size_t)n), 1e-12, "c2r f64 vs Hermitian DFT", n);
        free(xr); free(xc); free(ref); free(h); free(back); free(tmp); free(xr32); free(h32); free(back32);
    }
}

/* ---- the examples of the header ---- */
static void test_header_examples(void **state) {
    (void)state;
    /* outputs start at a sentinel (-99): an output the call does not write fails
     * the checks, and gcc -O3 sees them initialized */
    tile_c32 x[4] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}}, y[4] = {{-99, -99}, {-99, -99}, {-99, -99}, {-99, -99}};
    assert_tile_ok(tile_fft_c2c_f32(tile_cpu(), 4, 1, x, y, TILE_FFT_FORWARD));
    const float want[8] = {10, 0, -2, 2, -2, 0, -2, -2};
    for (int i = 0; i < 4; ++i) {
        assert_close(y[i].re, want[2 * i], 1e-6);
        assert_close(y[i].im, want[2 * i + 1], 1e-6);
    }
    assert_tile_ok(tile_fft_c2c_f32(tile_cpu(), 4, 1, y, y, TILE_FFT_INVERSE));
    for (int i = 0; i < 4; ++i) {
        assert_close(y[i].re, 4.0 * (i + 1), 1e-6);
        assert_close(y[i].im, 0, 1e-6);
    }
    tile_c64 z[4] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}};
    assert_tile_ok(tile_fft_c2c_f64(tile_cpu(), 4, 1, z, z, TILE_FFT_INVERSE));
    const double wz[8] = {10, 0, -2, -2, -2, 0, -2, 2};
    for (int i = 0; i < 4; ++i) {
        assert_close(z[i].re, wz[2 * i], 1e-14);
        assert_close(z[i].im, wz[2 * i + 1], 1e-14);
    }
    float xr[4] = {1, 2, 3, 4}, back[4] = {-99, -99, -99, -99};
    tile_c32 h[3] = {{-99, -99}, {-99, -99}, {-99, -99}};
    assert_tile_ok(tile_fft_r2c_f32(tile_cpu(), 4, 1, xr, h));
    assert_close(h[0].re, 10, 1e-6); assert_close(h[0].im, 0, 1e-6);
    assert_close(h[1].re, -2, 1e-6); assert_close(h[1].im, 2, 1e-6);
    assert_close(h[2].re, -2, 1e-6); assert_close(h[2].im, 0, 1e-6);
    assert_tile_ok(tile_fft_c2r_f32(tile_cpu(), 4, 1, h, back));
    for (int i = 0; i < 4; ++i) assert_close(back[i], 4.0 * (i + 1), 1e-6);
    tile_c32 im2[4] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}}, o2[4] = {{-99, -99}, {-99, -99}, {-99, -99}, {-99, -99}};
    assert_tile_ok(tile_fft2d_c2c_f32(tile_cpu(), 2, 2, 1, im2, o2, TILE_FFT_FORWARD));
    const float w2[4] = {10, -2, -4, 0};
    for (int i = 0; i < 4; ++i) {
        assert_close(o2[i].re, w2[i], 1e-6);
        assert_close(o2[i].im, 0, 1e-6);
    }
    /* the path argument is ignored on the CPU (every path gives the same) */
    tile_c32 y2[4] = {{-99, -99}, {-99, -99}, {-99, -99}, {-99, -99}};
    assert_tile_ok(tile_fft_c2c_f32_ex(tile_cpu(), 4, 1, x, y2, TILE_FFT_FORWARD, TILE_FFT_TILE));
    assert_tile_ok(tile_fft_c2c_f32_ex(tile_cpu(), 4, 1, x, y, TILE_FFT_FORWARD, TILE_FFT_LIBRARY));
    assert_memory_equal(y, y2, sizeof(y));
    /* no GPU path in a C11 build */
    assert_int_equal(tile_fft_c2c_f32_uses_tile(4096), 0);
    tile_fft_release_plans(); /* a no-op here */
}

/* ---- errors: codes, and the output left as it was ---- */
static void test_errors(void **state) {
    (void)state;
    tile_c32 a[8], o[8];
    tile_c64 a64[8], o64[8];
    float r[8], ro[8];
    double r64[8], ro64[8];
    memset(a, 0, sizeof(a));
    memset(a64, 0, sizeof(a64));
    memset(r, 0, sizeof(r));
    memset(r64, 0, sizeof(r64));
    memset(o, 0x5a, sizeof(o));
    memset(o64, 0x5a, sizeof(o64));
    memset(ro, 0x5a, sizeof(ro));
    memset(ro64, 0x5a, sizeof(ro64));
    const tile_exec cpu = tile_cpu();
    /* sizes, batch, pointers, direction, path */
    assert_int_equal(tile_fft_c2c_f32(cpu, 0, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f32(cpu, -4, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f32(cpu, 4, 0, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f32(cpu, 4, 1, NULL, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f32(cpu, 4, 1, a, NULL, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f32(cpu, 4, 1, a, o, 0), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f32(cpu, 4, 1, a, o, 2), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f32_ex(cpu, 4, 1, a, o, TILE_FFT_FORWARD, 3), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f32_ex(cpu, 4, 1, a, o, TILE_FFT_FORWARD, -1), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f64(cpu, 0, 1, a64, o64, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f64(cpu, 4, -1, a64, o64, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2c_f64(cpu, 4, 1, a64, NULL, TILE_FFT_INVERSE), TILE_ERR_ARG);
    assert_int_equal(tile_fft2d_c2c_f32(cpu, 0, 2, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft2d_c2c_f32(cpu, 2, 0, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft2d_c2c_f32(cpu, 2, 2, 0, a, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft2d_c2c_f64(cpu, 2, 2, 1, NULL, o64, TILE_FFT_FORWARD), TILE_ERR_ARG);
    assert_int_equal(tile_fft2d_c2c_f64(cpu, 2, 2, 1, a64, o64, 5), TILE_ERR_ARG);
    assert_int_equal(tile_fft_r2c_f32(cpu, 0, 1, r, o), TILE_ERR_ARG);
    assert_int_equal(tile_fft_r2c_f32(cpu, 4, 1, NULL, o), TILE_ERR_ARG);
    assert_int_equal(tile_fft_r2c_f64(cpu, 4, 0, r64, o64), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2r_f32(cpu, 4, 1, a, NULL), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2r_f64(cpu, -1, 1, a64, ro64), TILE_ERR_ARG);
    /* R2C / C2R with overlapping input and output */
    assert_int_equal(tile_fft_r2c_f32(cpu, 4, 1, (float *)o, o), TILE_ERR_ARG);
    assert_int_equal(tile_fft_r2c_f64(cpu, 4, 1, (double *)(o64 + 1), o64), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2r_f32(cpu, 4, 1, o, (float *)o + 2), TILE_ERR_ARG);
    assert_int_equal(tile_fft_c2r_f64(cpu, 4, 1, o64, (double *)o64), TILE_ERR_ARG);
    /* a GPU in a C11 build */
    assert_int_equal(tile_fft_c2c_f32(tile_gpu(0), 4, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_fft_c2c_f64(tile_gpu(0), 4, 1, a64, o64, TILE_FFT_FORWARD), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_fft2d_c2c_f32(tile_gpu(0), 2, 2, 1, a, o, TILE_FFT_FORWARD), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_fft2d_c2c_f64(tile_gpu(1), 2, 2, 1, a64, o64, TILE_FFT_FORWARD), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_fft_r2c_f32(tile_gpu(0), 4, 1, r, o), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_fft_r2c_f64(tile_gpu(0), 4, 1, r64, o64), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_fft_c2r_f32(tile_gpu(0), 4, 1, a, ro), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_fft_c2r_f64(tile_gpu(0), 4, 1, a64, ro64), TILE_ERR_NO_CUDA);
    assert_int_equal(tile_fft_c2c_f32_ex(tile_gpu(0), 4, 1, a, o, TILE_FFT_FORWARD, TILE_FFT_TILE), TILE_ERR_NO_CUDA);
    /* bad arguments are reported before the target */
    assert_int_equal(tile_fft_c2c_f32(tile_gpu(0), 4, 1, NULL, o, TILE_FFT_FORWARD), TILE_ERR_ARG);
    /* nothing was written */
    assert_true(tu_all_bytes(o, sizeof(o), 0x5a));
    assert_true(tu_all_bytes(o64, sizeof(o64), 0x5a));
    assert_true(tu_all_bytes(ro, sizeof(ro), 0x5a));
    assert_true(tu_all_bytes(ro64, sizeof(ro64), 0x5a));
    /* every code has its message */
    assert_true(strlen(tile_error_string(TILE_ERR_CUFFT)) > 10);
    assert_true(strlen(tile_error_string(TILE_ERR_DISABLED)) > 10);
    assert_true(strlen(tile_error_string(TILE_ERR_NO_CUDA)) > 10);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_examples),
        cmocka_unit_test(test_c2c_vs_dft),
        cmocka_unit_test(test_round_trip_linear_parseval),
        cmocka_unit_test(test_2d),
        cmocka_unit_test(test_real),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
