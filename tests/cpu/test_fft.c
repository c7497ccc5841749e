/* tile_fft / tile_ifft (include/tile/fft.h) on the CPU.
 *
 * 1. Kernels on the CPU target (block_dim 1: the general path) for every
 *    length 2..4096, c32 and c64, register (2 rows) and shared tiles: the
 *    forward transform against a double-precision DFT (relative L2 error
 *    below 1e-5 for c32, 1e-12 for c64), round trip (ifft_normalized after
 *    fft), linearity, Parseval, the header's example.
 * 2. The GPU code paths (block_dim > 1: the register Stockham passes with
 *    warp or block syncs, and the general path) run by host threads: one
 *    pthread per simulated GPU thread, the barriers replaced by a block
 *    barrier and per-group warp barriers (TILE__FFT_BARRIER / _SYNCWARP
 *    hooks), for every length and the block sizes 32, 64, 96, 128, 256, 48.
 * 3. tile_fft_conv / _normalized: the fused path (tile__fft_conv_run_*) on
 *    host threads and on one thread (the general path), every length 2..4096,
 *    c32 and c64, plain and normalized, several rows with a row stride, block
 *    sizes 1, 32, 48, 64, 96, 128, 256: against ifft(fft(x) .* H) by double
 *    DFTs, the direct circular convolution in double with h = ifft(H) / n,
 *    and the ordered composition (tile_fft, multiply, tile_ifft paths) of the
 *    same type; the macros on register and shared tiles with the header's
 *    example.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
static void sim_barrier(void);
static void sim_syncwarp(int tid, unsigned mask);
#define TILE__FFT_BARRIER() sim_barrier()
#define TILE__FFT_SYNCWARP(tid, mask) sim_syncwarp((tid), (mask))
#include "test_util.h"
#include "tile/fft.h"

/* ---- references ---- */
static void dft_ref(const double *x, double *y, int n, int sign) { /* interleaved re, im */
    double *c = (double *)malloc(sizeof(double) * 2 * (size_t)n);
    for (int m = 0; m < n; ++m) {
        c[2 * m] = cos(2 * M_PI * m / n);
        c[2 * m + 1] = sign * sin(2 * M_PI * m / n);
    }
    for (int k = 0; k < n; ++k) {
        double re = 0, im = 0;
        for (int j = 0; j < n; ++j) {
            const int m = (int)(((int64_t)j * k) % n);
            re += x[2 * j] * c[2 * m] - x[2 * j + 1] * c[2 * m + 1];
            im += x[2 * j] * c[2 * m + 1] + x[2 * j + 1] * c[2 * m];
        }
        y[2 * k] = re;
        y[2 * k + 1] = im;
    }
    free(c);
}
static double rel_err(const double *got, const double *ref, int n2) {
    double e = 0, r = 0;
    for (int i = 0; i < n2; ++i) {
        e += (got[i] - ref[i]) * (got[i] - ref[i]);
        r += ref[i] * ref[i];
    }
    return sqrt(e / (r > 0 ? r : 1));
}
static double rnd(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return (double)(*s >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

/* ---- kernels on the CPU target: which 0 fft, 1 ifft, 2 ifft_normalized, 3 fft then ifft_normalized ---- */
#define FFT_OPS(t, which)                                                          \
    do {                                                                           \
        if (which == 0) tile_fft(t);                                               \
        else if (which == 1) tile_ifft(t);                                         \
        else if (which == 2) tile_ifft_normalized(t);                              \
        else { tile_fft(t); tile_ifft_normalized(t); }                             \
    } while (0)
#define KREG(sfx, T, N)                                                            \
    TILE_KERNEL_SMEM(kr_##sfx##_##N, 64, TILE_FFT_SMEM_BYTES(T, 2, N), const T *in, T *out, int which) { \
        tile_reg(T, t, 2, N);                                                      \
        tile_load(t, tile_array2(in, 2, N), 0, 0);                                 \
        FFT_OPS(t, which);                                                         \
        tile_store(tile_array2(out, 2, N), t, 0, 0);                               \
    }                                                                              \
    TILE_KERNEL_SMEM(ks_##sfx##_##N, 32, TILE_SMEM_BYTES(T, N), const T *in, T *out, int which) { \
        tile_shared(T, t, N);                                                      \
        tile_load(t, tile_array1(in, N), 0);                                       \
        FFT_OPS(t, which);                                                         \
        tile_store(tile_array1(out, N), t, 0);                                     \
    }
#define KALL(sfx, T)                                                               \
    KREG(sfx, T, 2) KREG(sfx, T, 4) KREG(sfx, T, 8) KREG(sfx, T, 16) KREG(sfx, T, 32) KREG(sfx, T, 64) \
    KREG(sfx, T, 128) KREG(sfx, T, 256) KREG(sfx, T, 512) KREG(sfx, T, 1024) KREG(sfx, T, 2048) KREG(sfx, T, 4096)
KALL(c32, tile_c32)
KALL(c64, tile_c64)

typedef int (*kfn)(const void *in, void *out, int which);
#define KWRAP(sfx, T, N)                                                           \
    static int wr_##sfx##_##N(const void *in, void *out, int which) {              \
        return tile_launch(TILE_CPU, kr_##sfx##_##N, tile_grid1(1), 64, (const T *)in, (T *)out, which); \
    }                                                                              \
    static int ws_##sfx##_##N(const void *in, void *out, int which) {              \
        return tile_launch(TILE_CPU, ks_##sfx##_##N, tile_grid1(1), 32, (const T *)in, (T *)out, which); \
    }
#define KWALL(sfx, T)                                                              \
    KWRAP(sfx, T, 2) KWRAP(sfx, T, 4) KWRAP(sfx, T, 8) KWRAP(sfx, T, 16) KWRAP(sfx, T, 32) KWRAP(sfx, T, 64) \
    KWRAP(sfx, T, 128) KWRAP(sfx, T, 256) KWRAP(sfx, T, 512) KWRAP(sfx, T, 1024) KWRAP(sfx, T, 2048) KWRAP(sfx, T, 4096)
KWALL(c32, tile_c32)
KWALL(c64, tile_c64)
#define KLIST(p, sfx) {p##_##sfx##_2, p##_##sfx##_4, p##_##sfx##_8, p##_##sfx##_16, p##_##sfx##_32, p##_##sfx##_64, \
                       p##_##sfx##_128, p##_##sfx##_256, p##_##sfx##_512, p##_##sfx##_1024, p##_##sfx##_2048, p##_##sfx##_4096}

/* data: nrows rows of n complex values, as doubles and as the element type */
static void to_t(const double *x, void *t, int n2, int f64) {
    for (int i = 0; i < n2; ++i) {
        if (f64) ((double *)t)[i] = x[i];
        else ((float *)t)[i] = (float)x[i];
    }
}
static void from_t(const void *t, double *x, int n2, int f64) {
    for (int i = 0; i < n2; ++i) x[i] = f64 ? ((const double *)t)[i] : (double)((const float *)t)[i];
}

static void check_kernel(kfn k, int n, int rows, int f64, uint32_t seed) {
    const double tol = f64 ? 1e-12 : 1e-5;
    const int n2 = 2 * n * rows;
    double *x = (double *)malloc(sizeof(double) * n2), *y = (double *)malloc(sizeof(double) * n2);
    double *ref = (double *)malloc(sizeof(double) * n2), *x2 = (double *)malloc(sizeof(double) * n2);
    void *tin = malloc(16 * (size_t)n * rows), *tout = malloc(16 * (size_t)n * rows);
    for (int i = 0; i < n2; ++i) x[i] = rnd(&seed);
    to_t(x, tin, n2, f64);
    from_t(tin, x, n2, f64); /* the values the kernel sees */
    for (int s = 0; s < 2; ++s) {
        const int sign = s ? 1 : -1;
        assert_tile_ok(k(tin, tout, s));
        from_t(tout, y, n2, f64);
        for (int r = 0; r < rows; ++r) dft_ref(x + 2 * n * r, ref + 2 * n * r, n, sign);
        const double e = rel_err(y, ref, n2);
        if (!(e < tol)) print_error("n %d rows %d %s sign %d: relative error %g\n", n, rows, f64 ? "c64" : "c32", sign, e);
        assert_true(e < tol);
        if (s == 0) { /* Parseval: sum |X|^2 = n sum |x|^2, per row */
            for (int r = 0; r < rows; ++r) {
                double a = 0, b = 0;
                for (int i = 0; i < 2 * n; ++i) {
                    a += x[2 * n * r + i] * x[2 * n * r + i];
                    b += y[2 * n * r + i] * y[2 * n * r + i];
                }
                assert_close(b / n, a, tol * 10);
            }
        }
    }
    /* round trip */
    assert_tile_ok(k(tin, tout, 3));
    from_t(tout, y, n2, f64);
    assert_true(rel_err(y, x, n2) < tol);
    /* linearity: fft(2a + 3b) = 2 fft(a) + 3 fft(b); b = a reversed */
    for (int i = 0; i < n2; ++i) x2[i] = 2 * x[i] + 3 * x[n2 - 1 - i];
    to_t(x2, tin, n2, f64);
    from_t(tin, x2, n2, f64);
    assert_tile_ok(k(tin, tout, 0));
    from_t(tout, y, n2, f64);
    for (int r = 0; r < rows; ++r) dft_ref(x2 + 2 * n * r, ref + 2 * n * r, n, -1);
    assert_true(rel_err(y, ref, n2) < tol);
    free(x); free(y); free(ref); free(x2); free(tin); free(tout);
}

static void test_cpu_target(void **state) {
    (void)state;
    kfn r32[12] = KLIST(wr, c32), s32[12] = KLIST(ws, c32), r64[12] = KLIST(wr, c64), s64[12] = KLIST(ws, c64);
    for (int l = 0; l < 12; ++l) {
        const int n = 2 << l;
        check_kernel(r32[l], n, 2, 0, 1u + (uint32_t)l);
        check_kernel(s32[l], n, 1, 0, 2u + (uint32_t)l);
        check_kernel(r64[l], n, 2, 1, 3u + (uint32_t)l);
        check_kernel(s64[l], n, 1, 1, 4u + (uint32_t)l);
    }
}

/* the header's example */
TILE_KERNEL_SMEM(ex_k, 32, TILE_FFT_SMEM_BYTES(tile_c32, 4), tile_c32 *io) {
    tile_reg(tile_c32, t, 4);
    tile_load(t, tile_array1(io, 4), 0);
    tile_fft(t);
    tile_store(tile_array1(io, 4), t, 0);
    tile_ifft(t);
    tile_store(tile_array1(io + 4, 4), t, 0);
    tile_fft_scale(t, 0.25);
    tile_store(tile_array1(io + 8, 4), t, 0);
}
static void test_example(void **state) {
    (void)state;
    tile_c32 io[12] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}};
    assert_tile_ok(tile_launch(TILE_CPU, ex_k, tile_grid1(1), 32, io));
    const float want[24] = {10, 0, -2, 2, -2, 0, -2, -2, 4, 0, 8, 0, 12, 0, 16, 0, 1, 0, 2, 0, 3, 0, 4, 0};
    for (int i = 0; i < 12; ++i) {
        assert_close(io[i].re, want[2 * i], 1e-6);
        assert_close(io[i].im, want[2 * i + 1], 1e-6);
    }
    tile_c32 a = tile_c32_set(1, 2), b = tile_c32_set(3, -1), c = tile_c32_mul(a, b);
    assert_true(c.re == 5 && c.im == 5);
    assert_true(tile_c32_conj(a).im == -2 && tile_c32_abs2(a) == 5);
    tile_c64 w = tile_c64_expi(0.5);
    assert_true(w.re == 0 && w.im == 1);
}

/* ---- the GPU paths on host threads ---- */
enum { SIM_MAXB = 256 };
static pthread_barrier_t sim_bar;
static pthread_mutex_t sim_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sim_cv = PTHREAD_COND_INITIALIZER;
static int sim_wcount[SIM_MAXB], sim_wgen[SIM_MAXB];
static int sim_active; /* 1 while simulated threads run */
static void sim_barrier(void) {
    if (sim_active) pthread_barrier_wait(&sim_bar);
}
/* a barrier among the lanes of mask in tid's warp (keyed by the group's first thread) */
static void sim_syncwarp(int tid, unsigned mask) {
    if (!sim_active) return;
    int lane0 = 0;
    while (!((mask >> lane0) & 1u)) ++lane0;
    const int key = (tid & ~31) + lane0, cnt = __builtin_popcount(mask);
    assert_true((mask >> (tid & 31)) & 1u);
    pthread_mutex_lock(&sim_mu);
    const int gen = sim_wgen[key];
    if (++sim_wcount[key] == cnt) {
        sim_wcount[key] = 0;
        ++sim_wgen[key];
        pthread_cond_broadcast(&sim_cv);
    } else {
        while (sim_wgen[key] == gen) pthread_cond_wait(&sim_cv, &sim_mu);
    }
    pthread_mutex_unlock(&sim_mu);
}
typedef struct {
    void *buf;
    int rows, n, rs, sign, tid, bd, f64;
    const void *H; /* non-null: the fused convolution (sign 0 plain, 1 normalized) */
} sim_arg;
static void *sim_thread(void *p) {
    sim_arg *a = (sim_arg *)p;
    if (a->H) {
        if (a->f64)
            tile__fft_conv_run_c64((tile_c64 *)a->buf, a->rows, a->n, a->rs, (const tile_c64 *)a->H, a->sign, a->tid, a->bd);
        else
            tile__fft_conv_run_c32((tile_c32 *)a->buf, a->rows, a->n, a->rs, (const tile_c32 *)a->H, a->sign, a->tid, a->bd);
        return NULL;
    }
    if (a->f64) tile__fft_run_c64((tile_c64 *)a->buf, a->rows, a->n, a->rs, a->sign, a->tid, a->bd);
    else tile__fft_run_c32((tile_c32 *)a->buf, a->rows, a->n, a->rs, a->sign, a->tid, a->bd);
    return NULL;
}
static void sim_case(int n, int rows, int bd, int f64, int sign, uint32_t seed) {
    const int rs = n + (rows > 1 ? 4 : 0); /* a row stride other than n, as a shared view has */
    const double tol = f64 ? 1e-12 : 1e-5;
    const int n2 = 2 * n * rows;
    double *x = (double *)malloc(sizeof(double) * n2), *y = (double *)malloc(sizeof(double) * n2);
    double *ref = (double *)malloc(sizeof(double) * n2);
    double *buf = (double *)calloc((size_t)rs * rows, 16);
    for (int i = 0; i < n2; ++i) x[i] = rnd(&seed);
    for (int r = 0; r < rows; ++r) {
        to_t(x + 2 * n * r, (char *)buf + (size_t)r * rs * (f64 ? 16 : 8), 2 * n, f64);
        from_t((char *)buf + (size_t)r * rs * (f64 ? 16 : 8), x + 2 * n * r, 2 * n, f64);
    }
    pthread_barrier_init(&sim_bar, NULL, (unsigned)bd);
    memset(sim_wcount, 0, sizeof sim_wcount);
    sim_active = 1;
    pthread_t th[SIM_MAXB];
    sim_arg args[SIM_MAXB];
    for (int t = 0; t < bd; ++t) {
        sim_arg a = {buf, rows, n, rs, sign, t, bd, f64, NULL};
        args[t] = a;
        assert_int_equal(pthread_create(&th[t], NULL, sim_thread, &args[t]), 0);
    }
    for (int t = 0; t < bd; ++t) pthread_join(th[t], NULL);
    sim_active = 0;
    pthread_barrier_destroy(&sim_bar);
    for (int r = 0; r < rows; ++r) {
        from_t((char *)buf + (size_t)r * rs * (f64 ? 16 : 8), y + 2 * n * r, 2 * n, f64);
        dft_ref(x + 2 * n * r, ref + 2 * n * r, n, sign);
    }
    const double e = rel_err(y, ref, n2);
    if (!(e < tol))
        print_error("sim n %d rows %d bd %d %s sign %d (E %d): relative error %g\n", n, rows, bd, f64 ? "c64" : "c32",
                    sign, TILE__FFT_E(n, bd, f64 ? TILE_FFT_E_C64 : TILE_FFT_E_C32), e);
    assert_true(e < tol);
    free(x); free(y); free(ref); free(buf);
}
static void test_gpu_paths(void **state) {
    (void)state;
    const int bds[] = {32, 64, 96, 128, 256, 48};
    uint32_t seed = 7;
    for (int f64 = 0; f64 < 2; ++f64)
        for (int l = 1; l <= 12; ++l)
            for (int b = 0; b < 6; ++b) {
                const int n = 1 << l, bd = bds[b];
                const int rows = n >= 1024 ? 1 + (b & 1) : 3;
                sim_case(n, rows, bd, f64, b & 1 ? 1 : -1, seed++);
            }
}


/* ---- tile_fft_conv ----
 * References in double: the ordered composition ifft(fft(x) .* H) by DFTs,
 * and the direct circular convolution with h = ifft(H) / n (y_norm = x (*) h,
 * the unnormalized result n times that). */
static void conv_refs(const double *x, const double *H, double *ycomp, double *ydirect, int n) {
    double *X = (double *)malloc(sizeof(double) * 2 * (size_t)n), *h = (double *)malloc(sizeof(double) * 2 * (size_t)n);
    dft_ref(x, X, n, -1);
    for (int k = 0; k < n; ++k) {
        const double re = X[2 * k] * H[2 * k] - X[2 * k + 1] * H[2 * k + 1];
        const double im = X[2 * k] * H[2 * k + 1] + X[2 * k + 1] * H[2 * k];
        X[2 * k] = re;
        X[2 * k + 1] = im;
    }
    dft_ref(X, ycomp, n, 1);
    dft_ref(H, h, n, 1);
    for (int i = 0; i < n; ++i) {
        double re = 0, im = 0;
        for (int j = 0; j < n; ++j) {
            const int m = (i - j) & (n - 1);
            re += h[2 * j] * x[2 * m] - h[2 * j + 1] * x[2 * m + 1];
            im += h[2 * j] * x[2 * m + 1] + h[2 * j + 1] * x[2 * m];
        }
        ydirect[2 * i] = re; /* h carries the 1/n: n (x (*) h) unnormalized */
        ydirect[2 * i + 1] = im;
    }
    free(X);
    free(h);
}
/* nrows rows through tile__fft_conv_run_* on bd host threads (bd 1: the CPU
 * target's general path, called directly); checked against both references
 * and against the ordered composition of the same type run the same way
 * (tile__fft_run forward, multiply, inverse) */
static void sim_conv_case(int n, int rows, int bd, int f64, int norm, uint32_t seed) {
    const int rs = n + (rows > 1 ? 4 : 0);
    const double tol = f64 ? 1e-12 : 1e-5;
    const size_t es = f64 ? 16 : 8;
    const int n2 = 2 * n * rows;
    double *x = (double *)malloc(sizeof(double) * n2), *y = (double *)malloc(sizeof(double) * n2);
    double *y2 = (double *)malloc(sizeof(double) * n2);
    double *rc = (double *)malloc(sizeof(double) * n2), *rd = (double *)malloc(sizeof(double) * n2);
    double *H = (double *)malloc(sizeof(double) * 2 * (size_t)n);
    char *buf = (char *)calloc((size_t)rs * rows, es), *buf2 = (char *)calloc((size_t)rs * rows, es);
    void *Ht = malloc(es * (size_t)n);
    for (int i = 0; i < n2; ++i) x[i] = rnd(&seed);
    for (int i = 0; i < 2 * n; ++i) H[i] = rnd(&seed);
    to_t(H, Ht, 2 * n, f64);
    from_t(Ht, H, 2 * n, f64);
    for (int r = 0; r < rows; ++r) {
        to_t(x + 2 * n * r, buf + (size_t)r * rs * es, 2 * n, f64);
        from_t(buf + (size_t)r * rs * es, x + 2 * n * r, 2 * n, f64);
    }
    memcpy(buf2, buf, (size_t)rs * rows * es);
    if (bd > 1) {
        pthread_barrier_init(&sim_bar, NULL, (unsigned)bd);
        memset(sim_wcount, 0, sizeof sim_wcount);
        sim_active = 1;
        pthread_t th[SIM_MAXB];
        sim_arg args[SIM_MAXB];
        for (int t = 0; t < bd; ++t) {
            sim_arg a = {buf, rows, n, rs, norm, t, bd, f64, Ht};
            args[t] = a;
            assert_int_equal(pthread_create(&th[t], NULL, sim_thread, &args[t]), 0);
        }
        for (int t = 0; t < bd; ++t) pthread_join(th[t], NULL);
        sim_active = 0;
        pthread_barrier_destroy(&sim_bar);
    } else if (f64) {
        tile__fft_conv_run_c64((tile_c64 *)buf, rows, n, rs, (const tile_c64 *)Ht, norm, 0, 1);
    } else {
        tile__fft_conv_run_c32((tile_c32 *)buf, rows, n, rs, (const tile_c32 *)Ht, norm, 0, 1);
    }
    /* the ordered composition, one thread (the general path) */
    for (int r = 0; r < rows; ++r) {
        if (f64) {
            tile_c64 *row = (tile_c64 *)buf2 + (size_t)r * rs;
            tile__fft_run_c64(row, 1, n, rs, -1, 0, 1);
            for (int k = 0; k < n; ++k) {
                row[k] = tile_c64_mul(row[k], ((const tile_c64 *)Ht)[k]);
                if (norm) row[k] = tile_c64_scale(row[k], 1.0 / n);
            }
            tile__fft_run_c64(row, 1, n, rs, 1, 0, 1);
        } else {
            tile_c32 *row = (tile_c32 *)buf2 + (size_t)r * rs;
            tile__fft_run_c32(row, 1, n, rs, -1, 0, 1);
            for (int k = 0; k < n; ++k) {
                row[k] = tile_c32_mul(row[k], ((const tile_c32 *)Ht)[k]);
                if (norm) row[k] = tile_c32_scale(row[k], 1.0f / (float)n);
            }
            tile__fft_run_c32(row, 1, n, rs, 1, 0, 1);
        }
    }
    for (int r = 0; r < rows; ++r) {
        from_t(buf + (size_t)r * rs * es, y + 2 * n * r, 2 * n, f64);
        from_t(buf2 + (size_t)r * rs * es, y2 + 2 * n * r, 2 * n, f64);
        conv_refs(x + 2 * n * r, H, rc + 2 * n * r, rd + 2 * n * r, n);
        if (norm)
            for (int i = 0; i < 2 * n; ++i) {
                rc[2 * n * r + i] /= n;
                rd[2 * n * r + i] /= n;
            }
    }
    const double ec = rel_err(y, rc, n2), ed = rel_err(y, rd, n2), eo = rel_err(y, y2, n2);
    if (!(ec < tol && ed < tol && eo < 2 * tol))
        print_error("conv n %d rows %d bd %d %s norm %d: vs composition %g, vs direct %g, vs ordered run %g\n", n,
                    rows, bd, f64 ? "c64" : "c32", norm, ec, ed, eo);
    assert_true(ec < tol && ed < tol && eo < 2 * tol);
    free(x); free(y); free(y2); free(rc); free(rd); free(H); free(buf); free(buf2); free(Ht);
}
static void test_conv_paths(void **state) {
    (void)state;
    const int bds[] = {1, 32, 64, 96, 128, 256, 48};
    uint32_t seed = 99;
    for (int f64 = 0; f64 < 2; ++f64)
        for (int l = 1; l <= 12; ++l)
            for (int b = 0; b < 7; ++b) {
                const int n = 1 << l;
                const int rows = n >= 1024 ? 1 + (b & 1) : 3;
                if (f64 && n >= 2048 && b > 1 && b != 5) continue; /* time: the direct reference is n^2 a row */
                sim_conv_case(n, rows, bds[b], f64, b & 1, seed++);
            }
}

/* the public macros on the CPU target: register and shared tiles, and the
 * header's example */
TILE_KERNEL_SMEM(conv_ex_k, 32, TILE_FFT_SMEM_BYTES(tile_c32, 4) + 2 * TILE_SMEM_BYTES(tile_c32, 4), tile_c32 *io) {
    tile_shared(tile_c32, h, 4);
    tile_reg(tile_c32, t, 4);
    tile_load(h, tile_array1(io + 12, 4), 0);
    tile_load(t, tile_array1(io, 4), 0);
    tile_fft_conv(t, h);
    tile_store(tile_array1(io + 16, 4), t, 0);
    tile_load(t, tile_array1(io, 4), 0);
    tile_fft_conv_normalized(t, h);
    tile_store(tile_array1(io + 20, 4), t, 0);
    tile_load(h, tile_array1(io + 24, 4), 0);
    tile_shared(tile_c32, s, 1, 4);
    tile_load(s, tile_array2(io, 1, 4), 0, 0);
    tile_fft_conv_normalized(s, h);
    tile_store(tile_array2(io + 28, 1, 4), s, 0, 0);
    tile_load(t, tile_array1(io, 4), 0);
    tile_fft_conv_ptr(t, io + 24, 0);
    tile_store(tile_array1(io + 32, 4), t, 0);
}
/* an arena too small for the register tile's staging: an error, no write */
TILE_KERNEL_SMEM(conv_small_k, 32, 16, tile_c32 *io) {
    tile_reg(tile_c32, t, 4);
    tile_load(t, tile_array1(io, 4), 0);
    tile_fft_conv_ptr(t, io + 4, 0);
    tile_store(tile_array1(io + 8, 4), t, 0);
}
/* tile_fft on a register tile stages it in the arena: too small an arena
 * stops the block there (no write through a null staging pointer) */
TILE_KERNEL_SMEM(fft_small_k, 32, 16, tile_c32 *io) {
    tile_reg(tile_c32, t, 4);
    tile_load(t, tile_array1(io, 4), 0);
    tile_fft(t);
    tile_store(tile_array1(io + 4, 4), t, 0);
}
static void test_conv_example(void **state) {
    (void)state;
    tile_c32 io[36] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}};
    io[12] = tile_c32_set(1, 0);
    for (int i = 24; i < 28; ++i) io[i] = tile_c32_set(1, 0);
    assert_tile_ok(tile_launch(TILE_CPU, conv_ex_k, tile_grid1(1), 32, io));
    const float want[16] = {10, 10, 10, 10, 2.5f, 2.5f, 2.5f, 2.5f, 1, 2, 3, 4, 4, 8, 12, 16};
    for (int i = 0; i < 16; ++i) {
        const tile_c32 g = io[16 + i + (i >= 8 ? 4 : 0)];
        assert_close(g.re, want[i], 1e-5);
        assert_close(g.im, 0, 1e-5);
    }
    tile_c32 io2[12] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {7, 7}};
    assert_int_equal(tile_launch(TILE_CPU, conv_small_k, tile_grid1(1), 32, io2), TILE_ERR_SMEM_OVERFLOW);
    assert_true(io2[8].re == 7 && io2[8].im == 7); /* the body returned before its store */
    tile_c32 io3[8] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {7, 7}};
    assert_int_equal(tile_launch(TILE_CPU, fft_small_k, tile_grid1(1), 32, io3), TILE_ERR_SMEM_OVERFLOW);
    assert_true(io3[4].re == 7 && io3[4].im == 7);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example),
        cmocka_unit_test(test_cpu_target),
        cmocka_unit_test(test_gpu_paths),
        cmocka_unit_test(test_conv_paths),
        cmocka_unit_test(test_conv_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
