/* tile/host/fft.h - batched FFTs of whole arrays, outside kernels: cuFFT (or
 * an in-kernel tile_fft kernel where that is faster) on the GPU, the library's
 * own mixed-radix FFT on the CPU.
 *
 * Conventions are cuFFT's: interleaved complex (tile_c32 / tile_c64, the
 * layout of cufftComplex / cufftDoubleComplex), rows of n contiguous
 * elements one after another (batch rows), forward
 * X[k] = sum_j x[j] exp(-2 pi i jk/n) (TILE_FFT_FORWARD = -1), inverse with
 * exp(+2 pi i jk/n) (TILE_FFT_INVERSE = +1), neither normalized:
 * inverse(forward(x)) = n x. Any n >= 1.
 *
 * Suppose x (tile_c32, n = 4, batch = 1) holds [1 2 3 4] (imaginary parts 0):
 *   tile_fft_c2c_f32(tile_cpu(), 4, 1, x, y, TILE_FFT_FORWARD)  y = [10, -2+2i, -2, -2-2i]
 *   tile_fft_c2c_f32(tile_cpu(), 4, 1, y, y, TILE_FFT_INVERSE)  y = [4 8 12 16]
 *   tile_fft_r2c_f32(tile_cpu(), 4, 1, xr, y) with xr = [1 2 3 4]  y = [10, -2+2i, -2]
 * The same calls with tile_gpu(0) and device arrays run on GPU 0, on the
 * exec's stream (tile_exec_stream), asynchronously like cuFFT. Every call
 * returns a tile_error code and never exits:
 *   TILE_ERR_ARG       n < 1, batch < 1, a null pointer, dir not +-1, the
 *                      input and output of an R2C / C2R overlapping
 *   TILE_ERR_NO_CUDA   a GPU exec in a build without nvcc (plain C11)
 *   TILE_ERR_DEVICE    no such GPU
 *   TILE_ERR_DISABLED  a GPU exec in a build with TILE_NO_CUFFT
 *   TILE_ERR_CUFFT     cuFFT failed: tile_host_last_status() is its cufftResult,
 *                      tile_host_last_call() the call ("cufftExecC2C", ...)
 *   TILE_ERR_NOMEM     a CPU work buffer could not be allocated
 *
 * GPU. cuFFT plans are cached per host thread, keyed by (device, transform
 * type, dims, batch): the first call of a shape creates its plan
 * (cufftMakePlanMany64), later calls reuse it and only set the stream. The
 * cache holds TILE_FFT_PLAN_CACHE plans (16); past that the least recently
 * used is destroyed (cufftDestroy frees its work area with cudaFree, which
 * waits for the device: a program cycling through more shapes than that
 * pays a synchronization per new plan). tile_fft_release_plans() destroys
 * the calling thread's plans (call it before a thread ends, or to free their
 * work memory). Like every host-API header the cache is per translation
 * unit (static).
 *
 * Automatic choice (batched 1D C2C f32 on the GPU): lengths whose bit is set
 * in TILE_FFT_AUTO_TILE run a tile_fft kernel of this header (one launch: each
 * block loads rows into a shared tile, transforms them in place, stores
 * them); every other length goes to cuFFT. tile_fft_c2c_f32_ex forces either
 * path. Only the routed lengths' kernels are compiled into a program.
 *
 * CPU. The library's own FFT in double precision (f32 data is converted per
 * row, so f32 results are accurate to float rounding): an iterative
 * self-sorting (Stockham) mixed-radix FFT, radices 4, 2, 3, 5, 7, twiddles
 * from sincospi in double; a length with another prime factor goes through
 * Bluestein's algorithm (a chirp convolution of power-of-two length
 * >= 2n - 1). 2D: rows, then columns. R2C / C2R through the complex path.
 * Work buffers are allocated per call (O(n) for 1D, ny*nx for 2D).
 */
#ifndef TILE_HOST_FFT_H
#define TILE_HOST_FFT_H

#include "common.h"
#include <stdlib.h>

#if TILE_HOST_CUFFT
#include <cufft.h>
#endif

/* direction: the sign of the exponent (cuFFT's CUFFT_FORWARD / CUFFT_INVERSE) */
#define TILE_FFT_FORWARD (-1)
#define TILE_FFT_INVERSE 1

/* path of tile_fft_c2c_f32_ex on the GPU */
#define TILE_FFT_AUTO 0    /* the table below */
#define TILE_FFT_TILE 1    /* the tile_fft kernel (a length it routes, or TILE_ERR_ARG) */
#define TILE_FFT_LIBRARY 2 /* cuFFT */

/* Crossover table of the automatic choice: bit k set = batched 1D C2C f32 of
 * n = 2^k runs the tile_fft kernel on the GPU, cuFFT otherwise (k = 4..12,
 * n = 16..4096; other lengths always cuFFT). Measured on the H100 by
 * bench/fftconv_bench.cu ("automatic choice" sweep: tile kernel, cuFFT and
 * auto timed at every length in one process), at commit 6375e77:
 * bench/results/2026-11-25-h100-fft-host-6375e77-bench.txt, where the tile
 * kernel beat cuFFT at 128 (1.040x), 256 (1.033x) and 4096 (1.016x) and lost
 * at every other length (16: 0.906, 32: 0.649, 64: 0.905, 512: 0.984, 1024:
 * 0.888, 2048: 0.869); docs/fft.md has the table. Define it before
 * including to override (each set bit compiles one kernel). */
#ifndef TILE_FFT_AUTO_TILE
#define TILE_FFT_AUTO_TILE ((1 << 7) | (1 << 8) | (1 << 12)) /* 0x1180: n = 128, 256, 4096 */
#endif

#ifndef TILE_FFT_PLAN_CACHE
#define TILE_FFT_PLAN_CACHE 16
#endif

/* ========================================================================
 * CPU engine: one complex-double row at a time
 * ======================================================================== */
typedef struct tile__fftp {
    int n;             /* length */
    int nf, f[40];     /* Stockham radices, product n (none for Bluestein) */
    tile_c64 *w;       /* w[k] = exp(-2 pi i k / n) */
    tile_c64 *tmp;     /* n: the other Stockham buffer */
    int m;             /* Bluestein: convolution length (power of two); 0: none */
    tile_c64 *chirp;   /* n: exp(-i pi k^2 / n) */
    tile_c64 *bhat;    /* m: forward FFT of the conjugated, wrapped chirp */
    tile_c64 *abuf;    /* m */
    struct tile__fftp *sub; /* the length-m plan */
} tile__fftp;

TILE_HOST_API void tile__fftp_free(tile__fftp *p) {
    if (!p) return;
    free(p->w);
    free(p->tmp);
    free(p->chirp);
    free(p->bhat);
    free(p->abuf);
    if (p->sub) {
        tile__fftp_free(p->sub);
        free(p->sub);
    }
    memset(p, 0, sizeof(*p));
}

/* exp(-i pi num / den) (num, den >= 0), reduced exactly before sincospi */
TILE_HOST_API tile_c64 tile__fft_cexp(uint64_t num, uint64_t den) {
    double s, c;
    const uint64_t r = num % (2 * den); /* period 2 */
    tile__sincospi_f64(-(double)r / (double)den, &s, &c);
    return tile_c64_set(c, s);
}

TILE_HOST_API void tile__fftp_exec(const tile__fftp *p, tile_c64 *x, int sign);

/* One Stockham pass of radix r (decimation in frequency): len = the current
 * sub-length, s = the number of interleaved sub-sequences (s * len = n).
 * y[q + s (r pp + t)] = w_len^(pp t) * sum_j x[q + s (pp + j m)] w_r^(j t),
 * m = len / r; after the last pass the output is in natural order. */
TILE_HOST_API void tile__fft_pass(const tile_c64 *x, tile_c64 *y, int n, int len, int s, int r, const tile_c64 *w,
                                  int sign) {
    /* r is 2, 3, 4, 5 or 7 (tile__fftp_init). The small arrays start zeroed
     * and every output is stored in the branch that computes it: gcc's
     * maybe-uninitialized analysis (-O3, and the nvcc host pass) cannot see
     * that a loop bounded by the run-time r fills them. */
    const int m = len / r;
    const size_t ss = (size_t)s;
    tile_c64 om[8] = {{0, 0}}; /* w_r^k */
    for (int k = 0; k < r && k < 8; ++k)
        om[k] = sign < 0 ? w[(size_t)k * (n / r)] : tile_c64_conj(w[(size_t)k * (n / r)]);
    for (int pp = 0; pp < m; ++pp) {
        tile_c64 tw[8] = {{0, 0}};
        for (int t = 0; t < r && t < 8; ++t) {
            const size_t k = (size_t)pp * (size_t)t * ss; /* < n */
            tw[t] = sign < 0 ? w[k] : tile_c64_conj(w[k]);
        }
        for (int q = 0; q < s; ++q) {
            const tile_c64 *xi = x + (size_t)q + ss * (size_t)pp; /* input j at xi[j m s] */
            tile_c64 *yo = y + (size_t)q + ss * ((size_t)r * pp); /* output t at yo[t s] */
            const size_t ms = (size_t)m * ss;
            if (r == 2) {
                const tile_c64 a0 = xi[0], a1 = xi[ms];
                yo[0] = tile_c64_add(a0, a1);
                yo[ss] = tile_c64_mul(tile_c64_sub(a0, a1), tw[1]);
            } else if (r == 4) {
                const tile_c64 a0 = xi[0], a1 = xi[ms], a2 = xi[2 * ms], a3 = xi[3 * ms];
                const tile_c64 t0 = tile_c64_add(a0, a2), t1 = tile_c64_sub(a0, a2);
                const tile_c64 t2 = tile_c64_add(a1, a3), d = tile_c64_sub(a1, a3);
                /* (a1 - a3) * w_4, w_4 = sign * i */
                const tile_c64 t3 = sign < 0 ? tile_c64_set(d.im, -d.re) : tile_c64_set(-d.im, d.re);
                yo[0] = tile_c64_add(t0, t2);
                yo[ss] = tile_c64_mul(tile_c64_add(t1, t3), tw[1]);
                yo[2 * ss] = tile_c64_mul(tile_c64_sub(t0, t2), tw[2]);
                yo[3 * ss] = tile_c64_mul(tile_c64_sub(t1, t3), tw[3]);
            } else { /* 3, 5, 7: the DFT of r points */
                for (int t = 0; t < r && t < 8; ++t) {
                    tile_c64 acc = xi[0];
                    for (int j = 1; j < r && j < 8; ++j)
                        acc = tile_c64_add(acc, tile_c64_mul(xi[(size_t)j * ms], om[(j * t) % r]));
                    yo[(size_t)t * ss] = t ? tile_c64_mul(acc, tw[t]) : acc;
                }
            }
        }
    }
}

/* Plan a length-n transform: TILE_OK or TILE_ERR_NOMEM (p is then freed). */
TILE_HOST_API int tile__fftp_init(tile__fftp *p, int n) {
    memset(p, 0, sizeof(*p));
    p->n = n;
    int rest = n;
    const int radix[5] = {4, 2, 3, 5, 7};
    for (int i = 0; i < 5; ++i)
        while (rest % radix[i] == 0) {
            p->f[p->nf++] = radix[i];
            rest /= radix[i];
        }
    if (rest > 1) { /* another prime factor: Bluestein */
        p->nf = 0;
        int64_t m = 1;
        while (m < 2 * (int64_t)n - 1) m <<= 1;
        if (m > ((int64_t)1 << 30)) return TILE_ERR_NOMEM;
        p->m = (int)m;
        p->sub = (tile__fftp *)malloc(sizeof(tile__fftp));
        p->chirp = (tile_c64 *)malloc((size_t)n * sizeof(tile_c64));
        p->bhat = (tile_c64 *)calloc((size_t)m, sizeof(tile_c64));
        p->abuf = (tile_c64 *)malloc((size_t)m * sizeof(tile_c64));
        if (!p->sub || !p->chirp || !p->bhat || !p->abuf) {
            free(p->sub);
            p->sub = 0;
            tile__fftp_free(p);
            return TILE_ERR_NOMEM;
        }
        if (tile__fftp_init(p->sub, (int)m) != TILE_OK) {
            free(p->sub);
            p->sub = 0;
            tile__fftp_free(p);
            return TILE_ERR_NOMEM;
        }
        for (int k = 0; k < n; ++k) {
            p->chirp[k] = tile__fft_cexp((uint64_t)k * (uint64_t)k, (uint64_t)n);
            p->bhat[k] = tile_c64_conj(p->chirp[k]);
            if (k) p->bhat[m - k] = p->bhat[k];
        }
        tile__fftp_exec(p->sub, p->bhat, -1);
        return TILE_OK;
    }
    p->w = (tile_c64 *)malloc((size_t)n * sizeof(tile_c64));
    p->tmp = (tile_c64 *)malloc((size_t)n * sizeof(tile_c64));
    if (!p->w || !p->tmp) {
        tile__fftp_free(p);
        return TILE_ERR_NOMEM;
    }
    for (int k = 0; k < n; ++k) p->w[k] = tile__fft_cexp(2 * (uint64_t)k, (uint64_t)n);
    return TILE_OK;
}

/* x (length p->n) transformed in place; sign -1 forward, +1 inverse */
TILE_HOST_API void tile__fftp_exec(const tile__fftp *p, tile_c64 *x, int sign) {
    const int n = p->n;
    if (p->m) {
        /* inverse = conj(forward(conj(x))) */
        if (sign > 0)
            for (int k = 0; k < n; ++k) x[k] = tile_c64_conj(x[k]);
        const int m = p->m;
        for (int k = 0; k < n; ++k) p->abuf[k] = tile_c64_mul(x[k], p->chirp[k]);
        for (int k = n; k < m; ++k) p->abuf[k] = tile_c64_set(0, 0);
        tile__fftp_exec(p->sub, p->abuf, -1);
        for (int k = 0; k < m; ++k) p->abuf[k] = tile_c64_mul(p->abuf[k], p->bhat[k]);
        tile__fftp_exec(p->sub, p->abuf, 1);
        const double inv = 1.0 / (double)m;
        for (int k = 0; k < n; ++k) {
            const tile_c64 v = tile_c64_scale(tile_c64_mul(p->abuf[k], p->chirp[k]), inv);
            x[k] = sign > 0 ? tile_c64_conj(v) : v;
        }
        return;
    }
    tile_c64 *a = x, *b = p->tmp;
    int len = n, s = 1;
    for (int i = 0; i < p->nf; ++i) {
        tile__fft_pass(a, b, n, len, s, p->f[i], p->w, sign);
        tile_c64 *c = a;
        a = b;
        b = c;
        len /= p->f[i];
        s *= p->f[i];
    }
    if (a != x) memcpy(x, a, (size_t)n * sizeof(tile_c64));
}

/* ---- CPU paths of the public calls, f32 and f64 ---- */
#define TILE__FFT_CPU_DEF(sfx, T, S)                                              \
    TILE_HOST_API int tile__fft_cpu_c2c_##sfx(int n, int batch, const T *in, T *out, int sign) { \
        tile__fftp p;                                                             \
        int e = tile__fftp_init(&p, n);                                           \
        if (e) return e;                                                          \
        tile_c64 *row = (tile_c64 *)malloc((size_t)n * sizeof(tile_c64));       \
        if (!row) { tile__fftp_free(&p); return TILE_ERR_NOMEM; }                 \
        for (int64_t b = 0; b < batch; ++b) {                                     \
            const T *src = in + b * n;                                            \
            T *dst = out + b * n;                                                 \
            for (int j = 0; j < n; ++j) row[j] = tile_c64_set((double)src[j].re, (double)src[j].im); \
            tile__fftp_exec(&p, row, sign);                                       \
            for (int j = 0; j < n; ++j) { dst[j].re = (S)row[j].re; dst[j].im = (S)row[j].im; } \
        }                                                                         \
        free(row);                                                                \
        tile__fftp_free(&p);                                                      \
        return TILE_OK;                                                           \
    }                                                                             \
    TILE_HOST_API int tile__fft_cpu_2d_##sfx(int ny, int nx, int batch, const T *in, T *out, int sign) { \
        tile__fftp px, py;                                                        \
        int e = tile__fftp_init(&px, nx);                                         \
        if (e) return e;                                                          \
        if ((e = tile__fftp_init(&py, ny))) { tile__fftp_free(&px); return e; }    \
        const size_t img = (size_t)ny * (size_t)nx;                               \
        tile_c64 *a = (tile_c64 *)malloc(img * sizeof(tile_c64));                \
        tile_c64 *col = (tile_c64 *)malloc((size_t)ny * sizeof(tile_c64));       \
        if (a && col) {                                                           \
            for (int64_t b = 0; b < batch; ++b) {                                 \
                const T *src = in + (size_t)b * img;                              \
                T *dst = out + (size_t)b * img;                                   \
                for (size_t i = 0; i < img; ++i) a[i] = tile_c64_set((double)src[i].re, (double)src[i].im); \
                for (int y = 0; y < ny; ++y) tile__fftp_exec(&px, a + (size_t)y * nx, sign); \
                for (int x = 0; x < nx; ++x) {                                    \
                    for (int y = 0; y < ny; ++y) col[y] = a[(size_t)y * nx + x];  \
                    tile__fftp_exec(&py, col, sign);                              \
                    for (int y = 0; y < ny; ++y) a[(size_t)y * nx + x] = col[y];  \
                }                                                                 \
                for (size_t i = 0; i < img; ++i) { dst[i].re = (S)a[i].re; dst[i].im = (S)a[i].im; } \
            }                                                                     \
        } else {                                                                  \
            e = TILE_ERR_NOMEM;                                                   \
        }                                                                         \
        free(a);                                                                  \
        free(col);                                                                \
        tile__fftp_free(&px);                                                     \
        tile__fftp_free(&py);                                                     \
        return e;                                                                 \
    }                                                                             \
    TILE_HOST_API int tile__fft_cpu_r2c_##sfx(int n, int batch, const S *in, T *out) { \
        tile__fftp p;                                                             \
        int e = tile__fftp_init(&p, n);                                           \
        if (e) return e;                                                          \
        tile_c64 *row = (tile_c64 *)malloc((size_t)n * sizeof(tile_c64));       \
        if (!row) { tile__fftp_free(&p); return TILE_ERR_NOMEM; }                 \
        const int nh = n / 2 + 1;                                                 \
        for (int64_t b = 0; b < batch; ++b) {                                     \
            for (int j = 0; j < n; ++j) row[j] = tile_c64_set((double)in[b * n + j], 0.0); \
            tile__fftp_exec(&p, row, -1);                                         \
            for (int k = 0; k < nh; ++k) { out[b * nh + k].re = (S)row[k].re; out[b * nh + k].im = (S)row[k].im; } \
        }                                                                         \
        free(row);                                                                \
        tile__fftp_free(&p);                                                      \
        return TILE_OK;                                                           \
    }                                                                             \
    /* the Hermitian extension of the n/2+1 inputs, inverse, real parts (the   \
     * imaginary parts of X[0] and, n even, X[n/2] do not contribute) */       \
    TILE_HOST_API int tile__fft_cpu_c2r_##sfx(int n, int batch, const T *in, S *out) { \
        tile__fftp p;                                                             \
        int e = tile__fftp_init(&p, n);                                           \
        if (e) return e;                                                          \
        tile_c64 *row = (tile_c64 *)malloc((size_t)n * sizeof(tile_c64));       \
        if (!row) { tile__fftp_free(&p); return TILE_ERR_NOMEM; }                 \
        const int nh = n / 2 + 1;                                                 \
        for (int64_t b = 0; b < batch; ++b) {                                     \
            const T *src = in + b * nh;                                           \
            for (int k = 0; k < nh; ++k) row[k] = tile_c64_set((double)src[k].re, (double)src[k].im); \
            for (int k = nh; k < n; ++k) row[k] = tile_c64_conj(row[n - k]);     \
            tile__fftp_exec(&p, row, 1);                                          \
            for (int j = 0; j < n; ++j) out[b * n + j] = (S)row[j].re;           \
        }                                                                         \
        free(row);                                                                \
        tile__fftp_free(&p);                                                      \
        return TILE_OK;                                                           \
    }
TILE__FFT_CPU_DEF(c32, tile_c32, float)
TILE__FFT_CPU_DEF(c64, tile_c64, double)

/* ========================================================================
 * GPU: cuFFT plan cache, and the tile_fft kernels of the automatic choice
 * ======================================================================== */
#if TILE_HOST_CUFFT
typedef struct tile__fft_plan_t {
    int used, device, type, rank;
    long long dims[2], batch;
    unsigned long long tick; /* last use: the least recent is evicted */
    cufftHandle h;
} tile__fft_plan_t;
static TILE__THREAD_LOCAL tile__fft_plan_t tile__fft_plans[TILE_FFT_PLAN_CACHE];
static TILE__THREAD_LOCAL unsigned long long tile__fft_tick;

/* The cached plan of a shape (made on first use); device is current. */
TILE_HOST_API int tile__fft_plan(int device, cufftType type, int rank, int ny, int nx, int batch, cufftHandle *out) {
    const long long dims[2] = {rank == 2 ? ny : nx, nx};
    tile__fft_plan_t *slot = &tile__fft_plans[0];
    for (int i = 0; i < TILE_FFT_PLAN_CACHE; ++i) {
        tile__fft_plan_t *c = &tile__fft_plans[i];
        if (c->used && c->device == device && c->type == (int)type && c->rank == rank && c->dims[0] == dims[0] &&
            c->dims[1] == dims[1] && c->batch == batch) {
            c->tick = ++tile__fft_tick;
            *out = c->h;
            return TILE_OK;
        }
        if (slot->used && (!c->used || c->tick < slot->tick)) slot = c; /* free, else least recent */
    }
    if (slot->used) {
        cufftDestroy(slot->h);
        slot->used = 0;
    }
    cufftHandle h = 0;
    cufftResult r = cufftCreate(&h);
    if (r != CUFFT_SUCCESS) return tile__host_fail(TILE_ERR_CUFFT, (int)r, "cufftCreate");
    long long n[2] = {dims[0], dims[1]};
    size_t work = 0;
    /* null embeds: the basic layout (rows of n, or ny x nx images, packed;
     * R2C / C2R rows of n reals and n/2+1 complex) */
    r = cufftMakePlanMany64(h, rank, n, NULL, 1, 0, NULL, 1, 0, type, (long long)batch, &work);
    if (r != CUFFT_SUCCESS) {
        cufftDestroy(h);
        return tile__host_fail(TILE_ERR_CUFFT, (int)r, "cufftMakePlanMany64");
    }
    slot->used = 1;
    slot->device = device;
    slot->type = (int)type;
    slot->rank = rank;
    slot->dims[0] = dims[0];
    slot->dims[1] = dims[1];
    slot->batch = batch;
    slot->tick = ++tile__fft_tick;
    slot->h = h;
    *out = h;
    return TILE_OK;
}

/* One cuFFT transform on the exec's device (current) and stream. */
TILE_HOST_API int tile__fft_cufft(tile_exec ex, cufftType type, int rank, int ny, int nx, int batch, const void *in,
                                  void *out, int dir) {
    cufftHandle h = 0;
    int e = tile__fft_plan(ex.device, type, rank, ny, nx, batch, &h);
    if (e) return e;
    cufftResult r = cufftSetStream(h, (cudaStream_t)ex.stream);
    if (r != CUFFT_SUCCESS) return tile__host_fail(TILE_ERR_CUFFT, (int)r, "cufftSetStream");
    void *i = (void *)in; /* cuFFT's inputs are not const */
    const char *call = "cufftExecC2C";
    switch (type) {
    case CUFFT_C2C: r = cufftExecC2C(h, (cufftComplex *)i, (cufftComplex *)out, dir); break;
    case CUFFT_Z2Z: call = "cufftExecZ2Z"; r = cufftExecZ2Z(h, (cufftDoubleComplex *)i, (cufftDoubleComplex *)out, dir); break;
    case CUFFT_R2C: call = "cufftExecR2C"; r = cufftExecR2C(h, (cufftReal *)i, (cufftComplex *)out); break;
    case CUFFT_D2Z: call = "cufftExecD2Z"; r = cufftExecD2Z(h, (cufftDoubleReal *)i, (cufftDoubleComplex *)out); break;
    case CUFFT_C2R: call = "cufftExecC2R"; r = cufftExecC2R(h, (cufftComplex *)i, (cufftReal *)out); break;
    default: call = "cufftExecZ2D"; r = cufftExecZ2D(h, (cufftDoubleComplex *)i, (cufftDoubleReal *)out); break;
    }
    if (r != CUFFT_SUCCESS) return tile__host_fail(TILE_ERR_CUFFT, (int)r, call);
    return TILE_OK;
}

/* Length-1 transforms are copies (cuFFT is not asked for them): `batch`
 * items of w bytes from in (pitch ip) to out (pitch op), and zb zero bytes
 * after each copied item (the imaginary part of an R2C output). */
TILE_HOST_API int tile__fft_copy1(tile_exec ex, const void *in, size_t ip, void *out, size_t op, size_t w, size_t zb,
                                  int batch) {
    const cudaStream_t st = (cudaStream_t)ex.stream;
    cudaError_t e = cudaSuccess;
    const char *call = "cudaMemcpy2DAsync";
    if (in != out) e = cudaMemcpy2DAsync(out, op, in, ip, w, (size_t)batch, cudaMemcpyDeviceToDevice, st);
    if (e == cudaSuccess && zb) {
        call = "cudaMemset2DAsync";
        e = cudaMemset2DAsync((char *)out + w, op, 0, zb, (size_t)batch, st);
    }
    if (e != cudaSuccess) {
        tile__cuda_err = (int)e;
        return tile__host_fail(TILE_ERR_CUDA, (int)e, call);
    }
    return TILE_OK;
}

/* The tile_fft kernel of length N: blocks of BD threads, ROWS rows a block
 * in a shared tile (loaded with 16-byte copies, transformed in its own
 * memory, no staging). One kernel for both directions: the inverse is
 * conj(fft(conj(x))), two extra passes over the shared tile (a run-time
 * sign in tile_fft made ptxas spill at n = 512). Block shapes from bench/fft_bench.cu (64: 256 threads, 32 rows;
 * 256: 128, 8; 1024: 256, 4; 4096: 256, 1); the others give every row its
 * own group of n/16 threads. */
#define TILE__HFFT_KERNEL(N, BD, ROWS)                                            \
    TILE_KERNEL_SMEM(tile__hfft_k##N, BD, TILE_SMEM_BYTES(tile_c32, ROWS, N), const tile_c32 *in, tile_c32 *out, \
                     int64_t rows, int sign) {                                    \
        tile_shared(tile_c32, t, ROWS, N);                                        \
        tile_load(t, tile_array2(in, rows, N), (int64_t)tile_block(0) * ROWS, 0); \
        if (sign > 0) tile_map(t, tile_c32_conj, t); /* ifft(x) = conj(fft(conj(x))) */ \
        tile_fft(t);                                                              \
        if (sign > 0) tile_map(t, tile_c32_conj, t);                              \
        tile_store(tile_array2(out, rows, N), t, (int64_t)tile_block(0) * ROWS, 0); \
    }                                                                             \
    static inline int tile__hfft_run##N(tile_exec ex, int batch, const tile_c32 *in, tile_c32 *out, int sign) { \
        return tile_launch(ex, tile__hfft_k##N, tile_grid1(((int64_t)batch + (ROWS)-1) / (ROWS)), BD, in, out, \
                           (int64_t)batch, sign);                                 \
    }

/* a length not compiled: the tile path refuses it */
#define TILE__HFFT_NONE(N)                                                        \
    static inline int tile__hfft_run##N(tile_exec ex, int batch, const tile_c32 *in, tile_c32 *out, int sign) { \
        (void)ex; (void)batch; (void)in; (void)out; (void)sign;                   \
        return TILE_ERR_ARG;                                                      \
    }
#define TILE__HFFT_CASE(N) case N: return tile__hfft_run##N(ex, batch, in, out, dir);

/* the lengths compiled: the table's, or all of 16..4096 for the bench and
 * test (TILE__FFT_TILE_ALL) */
#ifdef TILE__FFT_TILE_ALL
#define TILE__HFFT_MASK 0x1ff0
#else
#define TILE__HFFT_MASK (TILE_FFT_AUTO_TILE)
#endif
#if TILE__HFFT_MASK & (1 << 4)
TILE__HFFT_KERNEL(16, 128, 128)
#else
TILE__HFFT_NONE(16)
#endif
#if TILE__HFFT_MASK & (1 << 5)
TILE__HFFT_KERNEL(32, 128, 64)
#else
TILE__HFFT_NONE(32)
#endif
#if TILE__HFFT_MASK & (1 << 6)
TILE__HFFT_KERNEL(64, 256, 32)
#else
TILE__HFFT_NONE(64)
#endif
#if TILE__HFFT_MASK & (1 << 7)
TILE__HFFT_KERNEL(128, 128, 16)
#else
TILE__HFFT_NONE(128)
#endif
#if TILE__HFFT_MASK & (1 << 8)
TILE__HFFT_KERNEL(256, 128, 8)
#else
TILE__HFFT_NONE(256)
#endif
#if TILE__HFFT_MASK & (1 << 9)
TILE__HFFT_KERNEL(512, 256, 8)
#else
TILE__HFFT_NONE(512)
#endif
#if TILE__HFFT_MASK & (1 << 10)
TILE__HFFT_KERNEL(1024, 256, 4)
#else
TILE__HFFT_NONE(1024)
#endif
#if TILE__HFFT_MASK & (1 << 11)
TILE__HFFT_KERNEL(2048, 256, 2)
#else
TILE__HFFT_NONE(2048)
#endif
#if TILE__HFFT_MASK & (1 << 12)
TILE__HFFT_KERNEL(4096, 256, 1)
#else
TILE__HFFT_NONE(4096)
#endif

/* the tile path: TILE_ERR_ARG for a length not compiled */
TILE_HOST_API int tile__fft_tile_c2c_f32(tile_exec ex, int n, int batch, const tile_c32 *in, tile_c32 *out, int dir) {
    switch (n) {
        TILE__HFFT_CASE(16) TILE__HFFT_CASE(32) TILE__HFFT_CASE(64) TILE__HFFT_CASE(128) TILE__HFFT_CASE(256)
        TILE__HFFT_CASE(512) TILE__HFFT_CASE(1024) TILE__HFFT_CASE(2048) TILE__HFFT_CASE(4096)
    default: return TILE_ERR_ARG;
    }
}
#endif /* TILE_HOST_CUFFT */

/* Does a GPU call of batched 1D C2C f32 of length n take the tile_fft kernel
 * (TILE_FFT_AUTO_TILE)? 0 in builds without the GPU path.
 *   tile_fft_c2c_f32_uses_tile(4096) -> 1, (1024) -> 0, (1000) -> 0   (default table, nvcc) */
TILE_HOST_API int tile_fft_c2c_f32_uses_tile(int n) {
#if TILE_HOST_CUFFT
    return n >= 16 && n <= 4096 && (n & (n - 1)) == 0 && ((TILE_FFT_AUTO_TILE) & n) != 0;
#else
    (void)n;
    return 0;
#endif
}

/* Destroy the calling thread's cached cuFFT plans (all GPUs); later calls
 * make new ones. A no-op without the GPU path.
 *   tile_fft_c2c_f32(tile_gpu(0), 1024, 8, x, y, TILE_FFT_FORWARD);  // plan made
 *   tile_fft_release_plans();                                        // and destroyed */
TILE_HOST_API void tile_fft_release_plans(void) {
#if TILE_HOST_CUFFT
    for (int i = 0; i < TILE_FFT_PLAN_CACHE; ++i)
        if (tile__fft_plans[i].used) {
            cufftDestroy(tile__fft_plans[i].h);
            tile__fft_plans[i].used = 0;
        }
#endif
}

/* ========================================================================
 * the public calls
 * ======================================================================== */
/* common checks: sizes, pointers, direction, then the gate
 * (TILE_ERR_DISABLED), then the exec (TILE_ERR_NO_CUDA, TILE_ERR_DEVICE; a
 * GPU is made current) */
TILE_HOST_API int tile__fft_check(tile_exec ex, int n0, int n1, int batch, const void *in, const void *out, int dir) {
    if (n0 < 1 || n1 < 1 || batch < 1 || !in || !out || (dir != TILE_FFT_FORWARD && dir != TILE_FFT_INVERSE))
        return TILE_ERR_ARG;
#if TILE_CUDA && !TILE_HOST_CUFFT
    if (ex.device >= 0) return TILE_ERR_DISABLED; /* whether or not the GPU exists */
#endif
    return tile__host_exec(ex);
}
/* do [a, a + an) and [b, b + bn) (bytes) overlap? */
TILE_HOST_API int tile__fft_overlap(const void *a, size_t an, const void *b, size_t bn) {
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + bn && y < x + an;
}

/* a GPU branch of the calls below: the statements with the cuFFT path,
 * TILE_ERR_DISABLED without it */
#if TILE_HOST_CUFFT
#define TILE__HFFT_GPU(...) __VA_ARGS__
#else
#define TILE__HFFT_GPU(...) return TILE_ERR_DISABLED;
#endif
/* the tile_fft kernel route of a 1D C2C call (f32 only) */
#define TILE__HFFT_ROUTE_f32                                                        \
    if (path == TILE_FFT_TILE || (path == TILE_FFT_AUTO && tile_fft_c2c_f32_uses_tile(n))) \
        return tile__fft_tile_c2c_f32(ex, n, batch, in, out, dir);
#define TILE__HFFT_ROUTE_f64

/* The calls of one precision (documented below, with the f32 / f64
 * entry points): sfx, the real type R, the complex type C, the CPU
 * suffix CS, cuFFT's types C2C / R2C / C2R of that precision. n == 1 on
 * the GPU is a strided copy (cuFFT refuses length-1 plans). */
#define TILE__HFFT_CALLS(sfx, R, C, CS, TC2C, TR2C, TC2R)                           \
    /* 1D C2C, path as tile_fft_c2c_f32_ex's */                                     \
    TILE_HOST_API int tile__fft_c2c_##sfx(tile_exec ex, int n, int batch, const C *in, C *out, int dir, int path) { \
        (void)path;                                                                 \
        if (path < TILE_FFT_AUTO || path > TILE_FFT_LIBRARY) return TILE_ERR_ARG;  \
        int e = tile__fft_check(ex, n, 1, batch, in, out, dir);                     \
        if (e) return e;                                                            \
        if (ex.device < 0) return tile__fft_cpu_c2c_##CS(n, batch, in, out, dir);   \
        TILE__HFFT_GPU(TILE__HFFT_ROUTE_##sfx;                                      \
                       if (n == 1) return tile__fft_copy1(ex, in, sizeof(C), out, sizeof(C), sizeof(C), 0, batch); \
                       return tile__fft_cufft(ex, TC2C, 1, 1, n, batch, in, out, dir);) \
    }                                                                               \
    /* 2D C2C */                                                                    \
    TILE_HOST_API int tile_fft2d_c2c_##sfx(tile_exec ex, int ny, int nx, int batch, const C *in, C *out, int dir) { \
        int e = tile__fft_check(ex, ny, nx, batch, in, out, dir);                   \
        if (e) return e;                                                            \
        if (ex.device < 0) return tile__fft_cpu_2d_##CS(ny, nx, batch, in, out, dir); \
        /* a dimension of 1: a batched 1D transform of the other (cuFFT refuses     \
         * some 2D plans with an extent of 1) */                                    \
        TILE__HFFT_GPU(if (ny == 1 || nx == 1) return tile__fft_c2c_##sfx(ex, ny * nx, batch, in, out, dir, TILE_FFT_AUTO); \
                       return tile__fft_cufft(ex, TC2C, 2, ny, nx, batch, in, out, dir);) \
    }                                                                               \
    /* R2C forward */                                                               \
    TILE_HOST_API int tile_fft_r2c_##sfx(tile_exec ex, int n, int batch, const R *in, C *out) { \
        int e = tile__fft_check(ex, n, 1, batch, in, out, TILE_FFT_FORWARD);        \
        if (e) return e;                                                            \
        if (tile__fft_overlap(in, (size_t)batch * n * sizeof(R), out, (size_t)batch * (n / 2 + 1) * sizeof(C))) \
            return TILE_ERR_ARG;                                                    \
        if (ex.device < 0) return tile__fft_cpu_r2c_##CS(n, batch, in, out);        \
        TILE__HFFT_GPU(if (n == 1) return tile__fft_copy1(ex, in, sizeof(R), out, sizeof(C), sizeof(R), sizeof(R), batch); \
                       return tile__fft_cufft(ex, TR2C, 1, 1, n, batch, in, out, TILE_FFT_FORWARD);) \
    }                                                                               \
    /* C2R inverse, unnormalized */                                                 \
    TILE_HOST_API int tile_fft_c2r_##sfx(tile_exec ex, int n, int batch, C *in, R *out) { \
        int e = tile__fft_check(ex, n, 1, batch, in, out, TILE_FFT_INVERSE);        \
        if (e) return e;                                                            \
        if (tile__fft_overlap(in, (size_t)batch * (n / 2 + 1) * sizeof(C), out, (size_t)batch * n * sizeof(R))) \
            return TILE_ERR_ARG;                                                    \
        if (ex.device < 0) return tile__fft_cpu_c2r_##CS(n, batch, in, out);        \
        TILE__HFFT_GPU(if (n == 1) return tile__fft_copy1(ex, in, sizeof(C), out, sizeof(R), sizeof(R), 0, batch); \
                       return tile__fft_cufft(ex, TC2R, 1, 1, n, batch, in, out, TILE_FFT_INVERSE);) \
    }

/* Batched 1D complex-to-complex FFT: `batch` rows of n, row b at in + b*n,
 * into out (in == out is allowed; no other overlap), dir TILE_FFT_FORWARD or TILE_FFT_INVERSE.
 *   x = [1 2 3 4]: tile_fft_c2c_f32(tile_cpu(), 4, 1, x, y, TILE_FFT_FORWARD)
 *   -> TILE_OK, y = [10, -2+2i, -2, -2-2i]
 *   tile_fft_c2c_f32(tile_cpu(), 0, 1, x, y, TILE_FFT_FORWARD) -> TILE_ERR_ARG
 * _ex takes the GPU path: TILE_FFT_AUTO (the table), TILE_FFT_TILE (the
 * tile_fft kernel; TILE_ERR_ARG for a length without one), TILE_FFT_LIBRARY
 * (cuFFT); the CPU ignores it.
 * The same in double precision: tile_fft_c2c_f64 (always cuFFT on the GPU)
 *   x = [1 2 3 4]: tile_fft_c2c_f64(tile_cpu(), 4, 1, x, x, TILE_FFT_INVERSE)
 *   -> x = [10, -2-2i, -2, -2+2i]
 *
 * Batched 2D C2C, tile_fft2d_c2c_f32 / _f64(ex, ny, nx, batch, in, out, dir):
 * `batch` images of ny rows of nx, row-major, image b at in + b*ny*nx;
 * X[ky][kx] = sum x[y][x] exp(dir 2 pi i (ky y / ny + kx x / nx)).
 *   x = [[1 2] [3 4]]: tile_fft2d_c2c_f32(tile_cpu(), 2, 2, 1, x, y, TILE_FFT_FORWARD)
 *   -> y = [[10 -2] [-4 0]]
 *
 * Batched real-to-complex forward FFT, tile_fft_r2c_f32 / _f64(ex, n, batch,
 * in, out): rows of n reals (row b at in + b*n) to rows of n/2+1 complex
 * (row b at out + b*(n/2+1)): X[0..n/2] of the complex transform (the rest
 * is their conjugates). in and out must not overlap (TILE_ERR_ARG).
 *   x = [1 2 3 4]: tile_fft_r2c_f32(tile_cpu(), 4, 1, x, y) -> y = [10, -2+2i, -2]
 *
 * Batched complex-to-real inverse FFT, unnormalized (like cuFFT),
 * tile_fft_c2r_f32 / _f64(ex, n, batch, in, out): rows of n/2+1 complex (a
 * Hermitian half spectrum) to rows of n reals; c2r(r2c(x)) = n x. The
 * imaginary parts of X[0] and (n even) X[n/2] are ignored. `in` is work
 * space: the GPU path may overwrite it (cuFFT's C2R does), the CPU path
 * leaves it. in and out must not overlap.
 *   y = [10, -2+2i, -2]: tile_fft_c2r_f32(tile_cpu(), 4, 1, y, x) -> x = [4 8 12 16] */
#if TILE_HOST_CUFFT
TILE__HFFT_CALLS(f32, float, tile_c32, c32, CUFFT_C2C, CUFFT_R2C, CUFFT_C2R)
TILE__HFFT_CALLS(f64, double, tile_c64, c64, CUFFT_Z2Z, CUFFT_D2Z, CUFFT_Z2D)
#else
TILE__HFFT_CALLS(f32, float, tile_c32, c32, , , )
TILE__HFFT_CALLS(f64, double, tile_c64, c64, , , )
#endif
TILE_HOST_API int tile_fft_c2c_f32_ex(tile_exec ex, int n, int batch, const tile_c32 *in, tile_c32 *out, int dir,
                                      int path) {
    return tile__fft_c2c_f32(ex, n, batch, in, out, dir, path);
}
TILE_HOST_API int tile_fft_c2c_f32(tile_exec ex, int n, int batch, const tile_c32 *in, tile_c32 *out, int dir) {
    return tile__fft_c2c_f32(ex, n, batch, in, out, dir, TILE_FFT_AUTO);
}
TILE_HOST_API int tile_fft_c2c_f64(tile_exec ex, int n, int batch, const tile_c64 *in, tile_c64 *out, int dir) {
    return tile__fft_c2c_f64(ex, n, batch, in, out, dir, TILE_FFT_AUTO);
}

#endif /* TILE_HOST_FFT_H */
