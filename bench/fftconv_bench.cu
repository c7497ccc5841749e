/* bench/fftconv_bench.cu - FFT convolution fused in one tile kernel vs the
 * three-step cuFFT pipeline, and the automatic choice of the host FFT
 * (tile/host/fft.h) vs its two paths; one process, one GPU.
 *
 * 1. Convolution. Batched circular convolution of complex f32 signals of
 *    n = 256, 1024, 4096 points with one n-point filter, 2^23 points in all
 *    (64 MiB in, 64 MiB out; --small: 2^16):
 *      fused:  one kernel, ROWS signals a block in a shared tile: tile_fft,
 *              each row times the filter spectrum H/n (a shared tile loaded
 *              once a block), tile_ifft (examples/fft_convolution.cu's kernel);
 *      3-step: cufftExecC2C forward (x -> t), a multiply kernel (t *= H/n, in
 *              place), cufftExecC2C inverse (t -> y).
 *    The same input and H/n for both (H from cuFFT, scaled on the host).
 *    Checked in the same run: fused vs 3-step on the first, a middle and the
 *    last signal (relative L2 < 2e-5), and the last signal vs a direct
 *    circular convolution in double. GB/s = 2 x bytes / time (the data read
 *    once and written once); target: fused / 3-step throughput >= 2.0.
 * 2. Automatic choice. tile_fft_c2c_f32 forward, out of place, n = 16 ..
 *    4096 (powers of two), 2^23 points a call: the tile_fft kernel
 *    (TILE_FFT_TILE), cuFFT (TILE_FFT_LIBRARY) and the automatic choice
 *    (TILE_FFT_AUTO, the table TILE_FFT_AUTO_TILE), each checked against
 *    cuFFT. Target: auto within 5% of the better path at every length. The
 *    last line proposes the table this run measured.
 */
#include <cufft.h>
#include <math.h>
#include "bench_util.h"
#define TILE__FFT_TILE_ALL 1 /* the tile kernel of every length, to time the path the table does not take */
#include <tile/host/fft.h>

#define CF(call)                                                                   \
    do {                                                                           \
        cufftResult cf_e = (call);                                                 \
        if (cf_e != CUFFT_SUCCESS) {                                               \
            fprintf(stderr, "cuFFT error %d at %s:%d: %s\n", (int)cf_e, __FILE__, __LINE__, #call); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

/* the fused convolution of length N: BD threads, ROWS signals a block */
#define CONV(N, BD, ROWS)                                                          \
    TILE_KERNEL_SMEM(conv_##N, BD, TILE_SMEM_BYTES(tile_c32, ROWS, N) + TILE_SMEM_BYTES(tile_c32, 1, N), \
                     const tile_c32 *x, const tile_c32 *H, tile_c32 *y, int64_t rows) { \
        /* the row offset is recomputed at the store (kept across the two FFTs  \
         * it cost a spill on sm_80 at n = 4096) */                               \
        tile_shared(tile_c32, t, ROWS, N);                                         \
        tile_shared(tile_c32, hs, 1, N);                                           \
        tile_load(t, tile_array2(x, rows, N), (int64_t)tile_block(0) * ROWS, 0);   \
        tile_load(hs, tile_array2(H, 1, N), 0, 0);                                 \
        tile_fft(t);                                                               \
        for (int r = 0; r < ROWS; ++r) {                                           \
            tile_view(row, t, (1, N), (r, 0));                                     \
            tile_map2(row, tile_c32_mul, row, hs);                                 \
        }                                                                          \
        tile_ifft(t);                                                              \
        tile_store(tile_array2(y, rows, N), t, (int64_t)tile_block(0) * ROWS, 0);  \
    }                                                                              \
    static int conv_launch_##N(const tile_c32 *x, const tile_c32 *H, tile_c32 *y, int64_t rows) { \
        return tile_launch(TILE_GPU(0), conv_##N, tile_grid1((rows + ROWS - 1) / ROWS), BD, x, H, y, rows); \
    }
CONV(256, 128, 8)
CONV(1024, 256, 4)
CONV(4096, 256, 1)
typedef int (*conv_fn)(const tile_c32 *, const tile_c32 *, tile_c32 *, int64_t);

/* the 3-step pipeline's middle step: t[i] *= H[i mod n] (n a power of two) */
__global__ void pointwise_mul(cufftComplex *t, const cufftComplex *H, int64_t total, int nmask) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        const cufftComplex a = t[i], b = H[i & nmask];
        t[i] = make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
    }
}

static double rel_err(const float *a, const float *b, size_t cnt) {
    double e = 0, r = 0;
    for (size_t i = 0; i < cnt; ++i) {
        const double d = (double)a[i] - (double)b[i];
        e += d != d ? 1e300 : d * d;
        r += (double)b[i] * b[i];
    }
    return sqrt(e / (r > 0 ? r : 1));
}

static int conv_part(const Opts &o, int64_t total, const float *h_x, FILE *csv, bool *all_ok) {
    const size_t bytes = (size_t)total * sizeof(tile_c32);
    const int ns[3] = {256, 1024, 4096};
    const conv_fn fns[3] = {conv_launch_256, conv_launch_1024, conv_launch_4096};
    printf("\n== FFT convolution: fused tile kernel vs cuFFT forward + multiply kernel + cuFFT inverse\n");
    printf("complex f32, %zu MiB of signals in + %zu MiB out; GB/s = 2 x bytes / time\n", bytes >> 20, bytes >> 20);
    tile_c32 *d_x, *d_y[2], *d_t, *d_H;
    CK(cudaMalloc(&d_x, bytes));
    CK(cudaMalloc(&d_y[0], bytes));
    CK(cudaMalloc(&d_y[1], bytes));
    CK(cudaMalloc(&d_t, bytes));
    CK(cudaMalloc(&d_H, 4096 * sizeof(tile_c32)));
    CK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
    std::vector<float> y0(2 * (size_t)total), y1(2 * (size_t)total);
    for (int li = 0; li < 3; ++li) {
        const int n = ns[li];
        const int64_t rows = total / n;
        /* the filter: a decaying complex sequence; H = fft(h) / n */
        std::vector<tile_c32> h(n), H(n);
        for (int k = 0; k < n; ++k) {
            h[k].re = (float)(exp(-k / 16.0) / 16.0);
            h[k].im = (float)(0.25 * sin(k / 8.0) * exp(-k / 32.0) / 16.0);
        }
        cufftHandle p1, plan;
        CF(cufftPlan1d(&p1, n, CUFFT_C2C, 1));
        CK(cudaMemcpy(d_H, h.data(), n * sizeof(tile_c32), cudaMemcpyHostToDevice));
        CF(cufftExecC2C(p1, (cufftComplex *)d_H, (cufftComplex *)d_H, CUFFT_FORWARD));
        CK(cudaMemcpy(H.data(), d_H, n * sizeof(tile_c32), cudaMemcpyDeviceToHost));
        for (int k = 0; k < n; ++k) {
            H[k].re /= (float)n;
            H[k].im /= (float)n;
        }
        CK(cudaMemcpy(d_H, H.data(), n * sizeof(tile_c32), cudaMemcpyHostToDevice));
        CF(cufftDestroy(p1));
        CF(cufftPlan1d(&plan, n, CUFFT_C2C, (int)rows));
        auto launch = [&](int v, int) -> int {
            if (v == 0) {
                TK(fns[li](d_x, d_H, d_y[0], rows));
            } else {
                CF(cufftExecC2C(plan, (cufftComplex *)d_x, (cufftComplex *)d_t, CUFFT_FORWARD));
                pointwise_mul<<<1056, 256>>>((cufftComplex *)d_t, (const cufftComplex *)d_H, total, n - 1);
                CK(cudaGetLastError());
                CF(cufftExecC2C(plan, (cufftComplex *)d_t, (cufftComplex *)d_y[1], CUFFT_INVERSE));
            }
            return 0;
        };
        if (run_rounds(TILE_GPU(0), 2, o.warmup > 0 ? o.warmup : 1, launch)) return 1;
        /* check: fused vs 3-step on three signals, the last vs the direct convolution */
        CK(cudaMemcpy(y0.data(), d_y[0], bytes, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(y1.data(), d_y[1], bytes, cudaMemcpyDeviceToHost));
        const int64_t chk[3] = {0, rows / 2, rows - 1};
        double worst = 0;
        for (int c = 0; c < 3; ++c) {
            const double e = rel_err(&y0[2 * (size_t)n * chk[c]], &y1[2 * (size_t)n * chk[c]], 2 * (size_t)n);
            worst = e > worst ? e : worst;
        }
        std::vector<float> ref(2 * (size_t)n);
        const float *xl = h_x + 2 * (size_t)n * (rows - 1);
        for (int i = 0; i < n; ++i) {
            double re = 0, im = 0;
            for (int j = 0; j < n; ++j) {
                const int m = (i - j) & (n - 1);
                re += (double)h[j].re * xl[2 * m] - (double)h[j].im * xl[2 * m + 1];
                im += (double)h[j].re * xl[2 * m + 1] + (double)h[j].im * xl[2 * m];
            }
            ref[2 * i] = (float)re;
            ref[2 * i + 1] = (float)im;
        }
        const double ed = rel_err(&y0[2 * (size_t)n * (rows - 1)], ref.data(), 2 * (size_t)n);
        const double ed3 = rel_err(&y1[2 * (size_t)n * (rows - 1)], ref.data(), 2 * (size_t)n);
        const bool ok = worst < 2e-5 && ed < 1e-5 && ed3 < 1e-5;
        printf("check n=%d: fused vs 3-step %.2e, vs direct convolution in double: fused %.2e, 3-step %.2e: %s\n", n,
               worst, ed, ed3, ok ? "ok" : "WRONG");
        std::vector<float> ms[2];
        if (time_interleaved(TILE_GPU(0), 2, o.iters, ms, launch)) return 1;
        const Stat s0 = stats(ms[0]), s1 = stats(ms[1]);
        const double g0 = gbps(2.0 * bytes, s0.median), g1 = gbps(2.0 * bytes, s1.median);
        printf("n=%-5d fused tile kernel          %9.1f GB/s  (median %.4f ms, min %.4f, max %.4f)  %.3fx 3-step\n", n,
               g0, s0.median, s0.min, s0.max, g0 / g1);
        printf("n=%-5d cuFFT + multiply + cuFFT   %9.1f GB/s  (median %.4f ms, min %.4f, max %.4f)\n", n, g1, s1.median,
               s1.min, s1.max);
        if (csv) {
            fprintf(csv, "fftconv,%d,fused,%.5f,%.1f,%.4f\n", n, s0.median, g0, g0 / g1);
            fprintf(csv, "fftconv,%d,cufft_3step,%.5f,%.1f,1\n", n, s1.median, g1);
        }
        char label[96];
        snprintf(label, sizeof label, "fftconv n=%d: fused/3-step", n);
        *all_ok = print_target(label, g0 / g1, ">=", 2.0, 3, ok) && *all_ok;
        CF(cufftDestroy(plan));
    }
    cudaFree(d_x); cudaFree(d_y[0]); cudaFree(d_y[1]); cudaFree(d_t); cudaFree(d_H);
    return 0;
}

static int auto_part(const Opts &o, int64_t total, const float *h_x, FILE *csv, bool *all_ok) {
    const size_t bytes = (size_t)total * sizeof(tile_c32);
    printf("\n== host FFT automatic choice: tile_fft_c2c_f32 forward, out of place, %zu MiB in + out; GB/s = 2 x bytes / time\n",
           bytes >> 20);
    printf("table in this build: TILE_FFT_AUTO_TILE = 0x%x (bit k: n = 2^k takes the tile kernel)\n",
           (unsigned)(TILE_FFT_AUTO_TILE));
    tile_c32 *d_x, *d_y[3];
    CK(cudaMalloc(&d_x, bytes));
    for (int v = 0; v < 3; ++v) CK(cudaMalloc(&d_y[v], bytes));
    CK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
    std::vector<float> ya(2 * (size_t)total), yb(2 * (size_t)total);
    const char *vname[3] = {"tile kernel", "cuFFT", "auto"};
    const int paths[3] = {TILE_FFT_TILE, TILE_FFT_LIBRARY, TILE_FFT_AUTO};
    double worst_ratio = 1e30;
    unsigned measured = 0;
    for (int k = 4; k <= 12; ++k) {
        const int n = 1 << k;
        const int batch = (int)(total / n);
        auto launch = [&](int v, int) -> int {
            TK(tile_fft_c2c_f32_ex(TILE_GPU(0), n, batch, d_x, d_y[v], TILE_FFT_FORWARD, paths[v]));
            return 0;
        };
        if (run_rounds(TILE_GPU(0), 3, o.warmup > 0 ? o.warmup : 1, launch)) return 1;
        CK(cudaMemcpy(yb.data(), d_y[1], bytes, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int v = 0; v < 3; v += 2) {
            CK(cudaMemcpy(ya.data(), d_y[v], bytes, cudaMemcpyDeviceToHost));
            double worst = 0;
            const int64_t chk[3] = {0, batch / 2, batch - 1};
            for (int c = 0; c < 3; ++c) {
                const double e = rel_err(&ya[2 * (size_t)n * chk[c]], &yb[2 * (size_t)n * chk[c]], 2 * (size_t)n);
                worst = e > worst ? e : worst;
            }
            if (!(worst < 2e-5)) {
                printf("check n=%d %s vs cuFFT: %.2e: WRONG\n", n, vname[v], worst);
                ok = false;
            }
        }
        std::vector<float> ms[3];
        if (time_interleaved(TILE_GPU(0), 3, o.iters, ms, launch)) return 1;
        double g[3];
        for (int v = 0; v < 3; ++v) g[v] = gbps(2.0 * bytes, stats(ms[v]).median);
        const double better = g[0] > g[1] ? g[0] : g[1], ratio = g[2] / better;
        if (g[0] > g[1]) measured |= 1u << k;
        printf("n=%-5d tile %8.1f GB/s  cuFFT %8.1f GB/s  (tile/cuFFT %.3f)  auto %8.1f GB/s [%s] = %.3fx the better%s\n",
               n, g[0], g[1], g[0] / g[1], g[2], tile_fft_c2c_f32_uses_tile(n) ? "tile" : "cuFFT", ratio,
               ok ? "" : "  WRONG");
        if (csv)
            for (int v = 0; v < 3; ++v)
                fprintf(csv, "fft_auto,%d,%s,%.5f,%.1f,%.4f\n", n, v == 0 ? "tile" : v == 1 ? "cufft" : "auto",
                        stats(ms[v]).median, g[v], g[v] / better);
        worst_ratio = ratio < worst_ratio ? ratio : worst_ratio;
        *all_ok = ok && *all_ok;
        if (!ok) worst_ratio = 0;
    }
    printf("measured table (tile kernel faster than cuFFT): TILE_FFT_AUTO_TILE = 0x%x\n", measured);
    *all_ok = print_target("auto within 5% of the better path (auto / better, worst length)", worst_ratio, ">=", 0.95, 3) &&
              *all_ok;
    tile_fft_release_plans();
    cudaFree(d_x);
    for (int v = 0; v < 3; ++v) cudaFree(d_y[v]);
    return 0;
}

static int run(const Opts &o) {
    BenchEnv env;
    if (bench_env(&env, "fftconv_bench", o)) return 1;
    const int64_t total = o.small ? (1 << 16) : (1 << 23); /* complex points per buffer */
    std::vector<float> h_x(2 * (size_t)total);
    uint32_t s = 777u;
    for (size_t i = 0; i < h_x.size(); ++i) {
        s = s * 1664525u + 1013904223u;
        h_x[i] = (float)((double)(s >> 8) / (double)(1u << 24) * 2.0 - 1.0);
    }
    FILE *csv = o.csv ? csv_open(o.csv) : nullptr;
    if (o.csv && !csv) return 1;
    if (csv) fprintf(csv, "bench,n,variant,median_ms,gbps,ratio\n");
    bool all_ok = true;
    if (conv_part(o, total, h_x.data(), csv, &all_ok)) return 1;
    if (auto_part(o, total, h_x.data(), csv, &all_ok)) return 1;
    if (csv && csv_close(csv, o.csv)) return 1;
    return o.strict && !all_ok ? 1 : 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 30, 5); }
