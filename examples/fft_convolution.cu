/* FFT convolution fused into one kernel: each block loads 4 signals of 1024
 * points into a shared tile and convolves them with tile_fft_conv: forward
 * transform, product with the filter's spectrum (loaded once a block into a
 * shared tile), inverse transform - one read and one write of the signals,
 * where the cuFFT way takes a forward transform, a multiply kernel and an
 * inverse transform, three round trips through memory
 * (bench/fftconv_bench.cu times the two). tile_fft_conv(t, hs) gives what
 * tile_fft(t), a multiply of each row by hs and tile_ifft(t) give, with less
 * work: the forward's last pass stays in registers, is multiplied there and
 * is the inverse's first pass's input (docs/fft.md).
 *
 * y = x (*) h, the circular convolution y[i] = sum_j h[j] x[(i - j) mod n],
 * is ifft(fft(x) * fft(h)) / n; the filter's spectrum is computed once by a
 * one-block kernel and scaled by 1/n there, so the inverse needs no
 * normalization. The result is checked against the direct convolution in
 * double on the CPU; the program prints
 *   fft convolution of 64 signals x 1024 points: max error / max |y| below 1e-05: yes
 * on either target (`fft_convolution cpu` forces the CPU). The same file
 * builds with gcc -x c. */
#include "example_util.h"
#include <math.h>
#include <stdlib.h>

#define N 1024       /* points per signal: a power of two, 2..4096 */
#define ROWS 4       /* signals per block */
#define THREADS 256
#define SIGNALS 64

/* H = fft(h) / N: one block */
TILE_KERNEL_SMEM(filter_spectrum, THREADS, TILE_SMEM_BYTES(tile_c32, N), const tile_c32 *h, tile_c32 *H) {
    tile_shared(tile_c32, t, N);
    tile_load(t, tile_array1(h, N), 0);
    tile_fft(t);
    tile_fft_scale(t, 1.0 / N);
    tile_store(tile_array1(H, N), t, 0);
}

/* y = ifft(fft(x) * H) for ROWS signals a block (the same as tile_fft(t);
 * each row times hs (tile_view + tile_map2 with tile_c32_mul); tile_ifft(t)) */
TILE_KERNEL_SMEM(fft_convolve, THREADS, TILE_SMEM_BYTES(tile_c32, ROWS, N) + TILE_SMEM_BYTES(tile_c32, 1, N),
                 const tile_c32 *x, const tile_c32 *H, tile_c32 *y, int64_t signals) {
    tile_shared(tile_c32, t, ROWS, N);
    tile_shared(tile_c32, hs, 1, N);
    tile_load(t, tile_array2(x, signals, N), (int64_t)tile_block(0) * ROWS, 0);
    tile_load(hs, tile_array2(H, 1, N), 0, 0); /* the spectrum, once a block */
    tile_fft_conv(t, hs); /* every row: ifft(fft(row) * H), in the tile's own memory */
    tile_store(tile_array2(y, signals, N), t, (int64_t)tile_block(0) * ROWS, 0);
}

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    static tile_c32 x[SIGNALS * N], y[SIGNALS * N], h[N];
    uint32_t s = 1u;
    for (int i = 0; i < SIGNALS * N; ++i) { /* signals: uniform in [-1, 1) */
        s = s * 1664525u + 1013904223u;
        x[i].re = (float)((s >> 8) / 8388608.0 - 1.0);
        s = s * 1664525u + 1013904223u;
        x[i].im = (float)((s >> 8) / 8388608.0 - 1.0);
    }
    for (int k = 0; k < N; ++k) { /* a decaying, slightly complex smoothing filter */
        h[k].re = (float)(exp(-k / 16.0) / 16.0);
        h[k].im = (float)(0.25 * sin(k / 8.0) * exp(-k / 32.0) / 16.0);
    }
    tile_c32 *dx = (tile_c32 *)tile_alloc(ex, sizeof(x)), *dy = (tile_c32 *)tile_alloc(ex, sizeof(y));
    tile_c32 *dh = (tile_c32 *)tile_alloc(ex, sizeof(h)), *dH = (tile_c32 *)tile_alloc(ex, sizeof(h));
    if (!dx || !dy || !dh || !dH) return 1;
    if (example_check(tile_copy_to(ex, dx, x, sizeof(x)), "copy") ||
        example_check(tile_copy_to(ex, dh, h, sizeof(h)), "copy") ||
        example_check(tile_launch(ex, filter_spectrum, tile_grid1(1), THREADS, dh, dH), "launch") ||
        example_check(tile_launch(ex, fft_convolve, tile_grid1(SIGNALS / ROWS), THREADS, dx, dH, dy,
                                  (int64_t)SIGNALS), "launch") ||
        example_check(tile_synchronize(ex), "kernel") ||
        example_check(tile_copy_from(ex, y, dy, sizeof(y)), "copy"))
        return 1;
    fprintf(stderr, "circular convolution of %d signals of %d points with a %d-point filter (%s)\n", SIGNALS, N, N,
            example_target_name(ex));
    /* the direct convolution in double */
    double max_err = 0, max_y = 0;
    for (int r = 0; r < SIGNALS; ++r)
        for (int i = 0; i < N; ++i) {
            double re = 0, im = 0;
            for (int j = 0; j < N; ++j) {
                const tile_c32 a = h[j], b = x[r * N + ((i - j) & (N - 1))];
                re += (double)a.re * b.re - (double)a.im * b.im;
                im += (double)a.re * b.im + (double)a.im * b.re;
            }
            const double dre = y[r * N + i].re - re, dim = y[r * N + i].im - im;
            const double e = sqrt(dre * dre + dim * dim), m = sqrt(re * re + im * im);
            max_err = e > max_err || e != e ? e : max_err;
            max_y = m > max_y ? m : max_y;
        }
    const int ok = max_err <= 1e-5 * max_y; /* false for NaN */
    printf("fft convolution of %d signals x %d points: max error / max |y| below %.0e: %s\n", SIGNALS, N, 1e-5,
           ok ? "yes" : "no");
    tile_free(ex, dx);
    tile_free(ex, dy);
    tile_free(ex, dh);
    tile_free(ex, dH);
    return example_verdict(ok, "max error / max |y| below 1e-5");
}
