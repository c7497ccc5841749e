/* tests/gpu/fft_test.cu - tile_fft / tile_ifft (include/tile/fft.h) on the
 * GPU and on the CPU target of the same nvcc build.
 *
 *   fft_test             GPU 0 (when there is one), then the CPU target
 *   fft_test --cpu-only  the CPU target only
 *   fft_test --quick     one block per launch (for compute-sanitizer)
 *
 * Kernels: register and shared tiles of tile_c32 and tile_c64, every length
 * 2..4096 (c32; a sample for c64), 1 to 4 rows, blocks of 32, 48, 64, 96,
 * 128, 256, 512, 1024 (the
 * register Stockham path with warp syncs and with block barriers, and the
 * general path: n = 4096 in 32 threads). Each launch transforms `nb` tiles
 * of random data. Checked: forward and inverse against a double-precision
 * DFT (relative L2 error per launch below 1e-5 for c32, 1e-12 for c64; the
 * inverse as ifft_normalized), the round trip fft then ifft_normalized, and on the GPU the output equal to
 * the CPU target's within the same tolerance. Outputs are poisoned (NaN)
 * before each launch.
 * tile_fft_conv / _normalized (register tile, h a shared tile) and
 * tile_fft_conv_ptr (shared tile, H in global memory): every length 2..4096
 * for c32 and a sample for c64, blocks of 32..512 (warp-synced groups, block
 * barriers, the general path), plain and normalized, against the ordered
 * composition ifft(fft(x) .* H) in double DFTs (same tolerances) and the GPU
 * against the CPU target (tests/cpu/test_fft.c adds the direct circular
 * convolution and every block size on host threads).
 */
#include <math.h>
#include <stdint.h>
#include "gpu_check.h"
#include <tile/fft.h>

/* which 0: fft; 1: ifft_normalized (the round trip runs the two kernels in turn,
 * so that each kernel holds two transforms: ptxas time) */
#define OPS(t, which)                                                              \
    do {                                                                           \
        if (which == 0) tile_fft(t);                                               \
        else tile_ifft_normalized(t);                                              \
    } while (0)
/* register tile ROWS x N, BD threads */
#define KR(sfx, T, BD, ROWS, N)                                                    \
    TILE_KERNEL_SMEM(kr_##sfx##_##BD##_##ROWS##_##N, BD, TILE_FFT_SMEM_BYTES(T, ROWS, N), const T *in, T *out, \
                     int which) {                                                  \
        tile_reg(T, t, ROWS, N);                                                   \
        tile_load(t, tile_array2(in, 1 << 20, N), tile_block(0) * ROWS, 0);        \
        OPS(t, which);                                                             \
        tile_store(tile_array2(out, 1 << 20, N), t, tile_block(0) * ROWS, 0);      \
    }                                                                              \
    static int lr_##sfx##_##BD##_##ROWS##_##N(tile_exec ex, int nb, const void *in, void *out, int which) { \
        return tile_launch(ex, kr_##sfx##_##BD##_##ROWS##_##N, tile_grid1(nb), BD, (const T *)in, (T *)out, which); \
    }
/* shared tile ROWS x N */
#define KS(sfx, T, BD, ROWS, N)                                                    \
    TILE_KERNEL_SMEM(ks_##sfx##_##BD##_##ROWS##_##N, BD, TILE_SMEM_BYTES(T, ROWS, N), const T *in, T *out, \
                     int which) {                                                  \
        tile_shared(T, t, ROWS, N);                                                \
        tile_load(t, tile_array2(in, 1 << 20, N), tile_block(0) * ROWS, 0);        \
        OPS(t, which);                                                             \
        tile_store(tile_array2(out, 1 << 20, N), t, tile_block(0) * ROWS, 0);      \
    }                                                                              \
    static int ls_##sfx##_##BD##_##ROWS##_##N(tile_exec ex, int nb, const void *in, void *out, int which) { \
        return tile_launch(ex, ks_##sfx##_##BD##_##ROWS##_##N, tile_grid1(nb), BD, (const T *)in, (T *)out, which); \
    }
/* X(kind r|s, sfx, T, BD, ROWS, N) */
#define KLIST(X)                                                                   \
    X(r, c32, tile_c32, 64, 4, 2) X(r, c32, tile_c32, 64, 4, 4) X(r, c32, tile_c32, 64, 4, 8)   \
    X(r, c32, tile_c32, 64, 4, 16) X(r, c32, tile_c32, 64, 4, 32) X(r, c32, tile_c32, 64, 4, 64) \
    X(r, c32, tile_c32, 64, 4, 128) X(r, c32, tile_c32, 64, 2, 256) X(r, c32, tile_c32, 256, 2, 512) \
    X(r, c32, tile_c32, 256, 2, 1024) X(r, c32, tile_c32, 512, 1, 2048) X(r, c32, tile_c32, 1024, 1, 4096) \
    X(r, c32, tile_c32, 96, 3, 64) X(r, c32, tile_c32, 48, 2, 256)                                  \
    X(s, c32, tile_c32, 32, 1, 4096) X(s, c32, tile_c32, 96, 1, 2048) X(s, c32, tile_c32, 128, 2, 1024) \
    X(r, c64, tile_c64, 64, 4, 2) X(r, c64, tile_c64, 64, 4, 32) X(r, c64, tile_c64, 128, 2, 512)  \
    X(r, c64, tile_c64, 512, 1, 4096) X(r, c64, tile_c64, 96, 2, 64)                                \
    X(s, c64, tile_c64, 32, 1, 4096) X(s, c64, tile_c64, 64, 2, 128) X(s, c64, tile_c64, 256, 2, 256)

#define KDEF(k, sfx, T, BD, ROWS, N) K##k##_(sfx, T, BD, ROWS, N)
#define Kr_(sfx, T, BD, ROWS, N) KR(sfx, T, BD, ROWS, N)
#define Ks_(sfx, T, BD, ROWS, N) KS(sfx, T, BD, ROWS, N)
KLIST(KDEF)

typedef int (*launch_fn)(tile_exec, int, const void *, void *, int);
struct kdesc {
    const char *name;
    int f64, bd, rows, n;
    launch_fn fn;
};
#define KENT(k, sfx, T, BD, ROWS, N) \
    {#k "_" #sfx "_" #BD "_" #ROWS "_" #N, sizeof(T) == 16, BD, ROWS, N, l##k##_##sfx##_##BD##_##ROWS##_##N},
static const kdesc kernels[] = {KLIST(KENT)};
enum { NK = sizeof(kernels) / sizeof(kernels[0]) };

static double rnd(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return (double)(*s >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}
/* y = DFT of each row of x (interleaved), sign -1 forward */
static void dft_rows(const double *x, double *y, int n, int rows, int sign) {
    double *c = HALLOC(double, 2 * n);
    for (int m = 0; m < n; ++m) {
        c[2 * m] = cos(2 * M_PI * m / n);
        c[2 * m + 1] = sign * sin(2 * M_PI * m / n);
    }
    for (int r = 0; r < rows; ++r)
        for (int k = 0; k < n; ++k) {
            double re = 0, im = 0;
            const double *xr = x + 2 * (size_t)n * r;
            for (int j = 0; j < n; ++j) {
                const int m = (int)(((int64_t)j * k) % n);
                re += xr[2 * j] * c[2 * m] - xr[2 * j + 1] * c[2 * m + 1];
                im += xr[2 * j] * c[2 * m + 1] + xr[2 * j + 1] * c[2 * m];
            }
            y[2 * ((size_t)n * r + k)] = re;
            y[2 * ((size_t)n * r + k) + 1] = im;
        }
    free(c);
}
static double rel_err(const double *got, const double *ref, size_t n2) {
    double e = 0, r = 0;
    for (size_t i = 0; i < n2; ++i) {
        const double d = got[i] - ref[i];
        e += d != d ? 1e300 : d * d;
        r += ref[i] * ref[i];
    }
    return sqrt(e / (r > 0 ? r : 1));
}
static void to_d(const void *t, double *x, size_t n2, int f64) {
    for (size_t i = 0; i < n2; ++i) x[i] = f64 ? ((const double *)t)[i] : (double)((const float *)t)[i];
}

/* ---- tile_fft_conv ----
 * CR: register tile ROWS x N, h a shared tile loaded from H (tile_fft_conv /
 * _normalized by `which`); CS: shared tile, tile_fft_conv_ptr with H in
 * global memory and norm = which. */
#define KCR(sfx, T, BD, ROWS, N)                                                   \
    TILE_KERNEL_SMEM(kcr_##sfx##_##BD##_##ROWS##_##N, BD, TILE_FFT_SMEM_BYTES(T, ROWS, N) + TILE_SMEM_BYTES(T, N), \
                     const T *in, const T *H, T *out, int which) {                 \
        tile_shared(T, h, N);                                                      \
        tile_reg(T, t, ROWS, N);                                                   \
        tile_load(h, tile_array1(H, N), 0);                                        \
        tile_load(t, tile_array2(in, 1 << 20, N), tile_block(0) * ROWS, 0);        \
        if (which) tile_fft_conv_normalized(t, h);                                 \
        else tile_fft_conv(t, h);                                                  \
        tile_store(tile_array2(out, 1 << 20, N), t, tile_block(0) * ROWS, 0);      \
    }                                                                              \
    static int lcr_##sfx##_##BD##_##ROWS##_##N(tile_exec ex, int nb, const void *in, const void *H, void *out, \
                                               int which) {                        \
        return tile_launch(ex, kcr_##sfx##_##BD##_##ROWS##_##N, tile_grid1(nb), BD, (const T *)in, (const T *)H, \
                           (T *)out, which);                                       \
    }
#define KCS(sfx, T, BD, ROWS, N)                                                   \
    TILE_KERNEL_SMEM(kcs_##sfx##_##BD##_##ROWS##_##N, BD, TILE_SMEM_BYTES(T, ROWS, N), const T *in, const T *H, \
                     T *out, int which) {                                          \
        tile_shared(T, t, ROWS, N);                                                \
        tile_load(t, tile_array2(in, 1 << 20, N), tile_block(0) * ROWS, 0);        \
        tile_fft_conv_ptr(t, H, which);                                            \
        tile_store(tile_array2(out, 1 << 20, N), t, tile_block(0) * ROWS, 0);      \
    }                                                                              \
    static int lcs_##sfx##_##BD##_##ROWS##_##N(tile_exec ex, int nb, const void *in, const void *H, void *out, \
                                               int which) {                        \
        return tile_launch(ex, kcs_##sfx##_##BD##_##ROWS##_##N, tile_grid1(nb), BD, (const T *)in, (const T *)H, \
                           (T *)out, which);                                       \
    }
/* every length for c32 (warp-synced groups, block barriers, 1..4 rows, odd
 * block sizes, E < 16 where n / 16 threads do not fit, the general path at
 * 4096 in 32 threads) and a sample for c64 */
#define CLIST(X)                                                                   \
    X(r, c32, tile_c32, 64, 4, 2) X(r, c32, tile_c32, 64, 4, 4) X(r, c32, tile_c32, 64, 4, 8)   \
    X(s, c32, tile_c32, 64, 4, 16) X(r, c32, tile_c32, 96, 3, 32) X(s, c32, tile_c32, 64, 2, 64) \
    X(r, c32, tile_c32, 128, 2, 128) X(s, c32, tile_c32, 128, 8, 256) X(r, c32, tile_c32, 48, 2, 256) \
    X(s, c32, tile_c32, 256, 2, 512) X(s, c32, tile_c32, 256, 4, 1024) X(r, c32, tile_c32, 64, 1, 1024) \
    X(r, c32, tile_c32, 512, 1, 2048) X(s, c32, tile_c32, 256, 1, 4096) X(s, c32, tile_c32, 32, 1, 4096) \
    X(r, c64, tile_c64, 64, 2, 512) X(s, c64, tile_c64, 512, 1, 4096)
#define KCDEF(k, sfx, T, BD, ROWS, N) KC##k##_(sfx, T, BD, ROWS, N)
#define KCr_(sfx, T, BD, ROWS, N) KCR(sfx, T, BD, ROWS, N)
#define KCs_(sfx, T, BD, ROWS, N) KCS(sfx, T, BD, ROWS, N)
CLIST(KCDEF)
typedef int (*conv_fn)(tile_exec, int, const void *, const void *, void *, int);
struct cdesc {
    const char *name;
    int f64, bd, rows, n;
    conv_fn fn;
};
#define KCENT(k, sfx, T, BD, ROWS, N) \
    {"conv_" #k "_" #sfx "_" #BD "_" #ROWS "_" #N, sizeof(T) == 16, BD, ROWS, N, lc##k##_##sfx##_##BD##_##ROWS##_##N},
static const cdesc ckernels[] = {CLIST(KCENT)};
enum { NC = sizeof(ckernels) / sizeof(ckernels[0]) };
static double *cpu_cout[NC][2];

/* which 0: ifft(fft(x) .* H); 1: the same over n. Reference: the ordered
 * composition by double DFTs; on the GPU also the CPU target's output. */
static void run_conv(const target *t, int ki) {
    const cdesc &k = ckernels[ki];
    const int nb = g_quick ? 1 : 3;
    const size_t elems = (size_t)k.n * k.rows * nb, n2 = 2 * elems, es = k.f64 ? 16 : 8;
    const double tol = k.f64 ? 1e-12 : 1e-5;
    g_test = k.name;
    unsigned char *hin = HALLOC(unsigned char, elems * es), *hout = HALLOC(unsigned char, elems * es);
    unsigned char *hH = HALLOC(unsigned char, k.n * es);
    double *x = HALLOC(double, n2), *y = HALLOC(double, n2), *ref = HALLOC(double, n2), *H = HALLOC(double, 2 * k.n);
    uint32_t seed = 4321u + (uint32_t)ki;
    for (size_t i = 0; i < n2; ++i) {
        const double v = rnd(&seed);
        if (k.f64) ((double *)hin)[i] = v;
        else ((float *)hin)[i] = (float)v;
    }
    for (int i = 0; i < 2 * k.n; ++i) {
        const double v = rnd(&seed);
        if (k.f64) ((double *)hH)[i] = v;
        else ((float *)hH)[i] = (float)v;
    }
    to_d(hin, x, n2, k.f64);
    to_d(hH, H, 2 * (size_t)k.n, k.f64);
    void *din = DALLOC(unsigned char, elems * es), *dout = DALLOC(unsigned char, elems * es);
    void *dH = DALLOC(unsigned char, k.n * es);
    UP(din, hin, elems * es);
    UP(dH, hH, k.n * es);
    dft_rows(x, y, k.n, k.rows * nb, -1); /* y: the spectra, then times H */
    for (size_t r = 0; r < (size_t)k.rows * nb; ++r)
        for (int j = 0; j < k.n; ++j) {
            double *p = y + 2 * (r * k.n + j);
            const double re = p[0] * H[2 * j] - p[1] * H[2 * j + 1], im = p[0] * H[2 * j + 1] + p[1] * H[2 * j];
            p[0] = re;
            p[1] = im;
        }
    dft_rows(y, ref, k.n, k.rows * nb, 1);
    for (int op = 0; op < 2; ++op) {
        POISON(dout, elems * es, POISON_F);
        RUN_OK(k.fn(t->ex, nb, din, dH, dout, op));
        DOWN(hout, dout, elems * es);
        to_d(hout, y, n2, k.f64);
        const double scale = op ? 1.0 / k.n : 1.0;
        double e = 0, rr = 0;
        for (size_t i = 0; i < n2; ++i) {
            const double d = y[i] - ref[i] * scale;
            e += d != d ? 1e300 : d * d;
            rr += ref[i] * scale * ref[i] * scale;
        }
        e = sqrt(e / (rr > 0 ? rr : 1));
        CHECK(e < tol, "conv %s: relative error %g vs ifft(fft(x) .* H) in double (tolerance %g)",
              op ? "normalized" : "plain", e, tol);
        if (!t->gpu) {
            free(cpu_cout[ki][op]);
            cpu_cout[ki][op] = HALLOC(double, n2);
            memcpy(cpu_cout[ki][op], y, n2 * sizeof(double));
        } else if (cpu_cout[ki][op]) {
            const double ec = rel_err(y, cpu_cout[ki][op], n2);
            CHECK(ec < tol, "conv %s: GPU differs from the CPU target by %g", op ? "normalized" : "plain", ec);
        }
    }
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    tile_free(t->ex, dH);
    free(hin); free(hout); free(hH); free(x); free(y); free(ref); free(H);
    g_test = NULL;
}

/* CPU-target outputs of each kernel and op, kept for the GPU comparison */
static double *cpu_out[NK][3];

static void run_kernel(const target *t, int ki) {
    const kdesc &k = kernels[ki];
    const int nb = g_quick ? 1 : 3;
    const size_t elems = (size_t)k.n * k.rows * nb, n2 = 2 * elems, es = k.f64 ? 16 : 8;
    const double tol = k.f64 ? 1e-12 : 1e-5;
    g_test = k.name;
    unsigned char *hin = HALLOC(unsigned char, elems * es), *hout = HALLOC(unsigned char, elems * es);
    double *x = HALLOC(double, n2), *y = HALLOC(double, n2), *ref = HALLOC(double, n2);
    uint32_t seed = 1234u + (uint32_t)ki;
    for (size_t i = 0; i < n2; ++i) {
        const double v = rnd(&seed);
        if (k.f64) ((double *)hin)[i] = v;
        else ((float *)hin)[i] = (float)v;
    }
    to_d(hin, x, n2, k.f64);
    void *din = DALLOC(unsigned char, elems * es), *dout = DALLOC(unsigned char, elems * es);
    UP(din, hin, elems * es);
    /* op 0: fft; op 1: ifft_normalized (vs the DFT with +1, over n); op 2: fft
     * then ifft_normalized (round trip, the first output fed back) */
    for (int op = 0; op < 3; ++op) {
        POISON(dout, elems * es, POISON_F);
        if (op < 2) {
            RUN_OK(k.fn(t->ex, nb, din, dout, op));
        } else {
            void *dmid = DALLOC(unsigned char, elems * es);
            RUN_OK(k.fn(t->ex, nb, din, dmid, 0));
            RUN_OK(k.fn(t->ex, nb, dmid, dout, 1));
            tile_free(t->ex, dmid);
        }
        DOWN(hout, dout, elems * es);
        to_d(hout, y, n2, k.f64);
        if (op == 2) {
            memcpy(ref, x, n2 * sizeof(double));
        } else {
            dft_rows(x, ref, k.n, k.rows * nb, op == 0 ? -1 : 1);
            if (op == 1)
                for (size_t i = 0; i < n2; ++i) ref[i] /= k.n;
        }
        const double e = rel_err(y, ref, n2);
        CHECK(e < tol, "op %d: relative error %g vs the DFT (tolerance %g)", op, e, tol);
        if (!t->gpu) {
            free(cpu_out[ki][op]);
            cpu_out[ki][op] = HALLOC(double, n2);
            memcpy(cpu_out[ki][op], y, n2 * sizeof(double));
        } else if (cpu_out[ki][op]) {
            const double ec = rel_err(y, cpu_out[ki][op], n2);
            CHECK(ec < tol, "op %d: GPU differs from the CPU target by %g", op, ec);
        }
    }
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    free(hin); free(hout); free(x); free(y); free(ref);
    g_test = NULL;
}

int main(int argc, char **argv) {
    int rc = gc_start(argc, argv, "fft_test", 1, NULL, NULL);
    if (rc) return rc;
    /* the CPU target first, so that the GPU run compares with it */
    for (int i = gc_ntargets - 1; i >= 0; --i) {
        const target *t = &gc_targets[i];
        gc_target_begin(t);
        for (int k = 0; k < NK; ++k) run_kernel(t, k);
        for (int k = 0; k < NC; ++k) run_conv(t, k);
        gc_target_end(t, "");
    }
    return gc_finish();
}
