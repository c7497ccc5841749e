/* gemm_large_bench - examples/gemm_tiled.cu's kernels (the same source,
 * included) on large square problems, against cuBLAS in the same process:
 *
 *  - f32 4096^3: gemm_f32 (FMA, 128 x 128 a block, 8 x 8 a thread, f32
 *    accumulation; no tf32) vs cublasSgemm (default math mode: FMA, no tf32
 *    unless NVIDIA_TF32_OVERRIDE says otherwise). Target >= 0.7.
 *  - bf16 8192^3: gemm_bf16 (mma.sync m16n8k16, 128 x 256 a block, 64 x 64 a
 *    warp, f32 accumulation and output) vs cublasGemmEx (CUDA_R_16BF inputs,
 *    CUDA_R_32F output, CUBLAS_COMPUTE_32F). Target >= 0.5.
 * Both print TFLOP/s (2 n^3 flops) and the fraction of the H100 SXM's peak
 * (f32 FMA 67 TFLOP/s, bf16 dense 989 TFLOP/s; the numbers are the H100
 * SXM's whatever the device: read them as such elsewhere).
 *
 * Inputs: pseudo-random values in [-0.5, 0.5) (bf16: the same rounded).
 * Checks in the same run: every element of tile.h's C against cuBLAS's C,
 * and 256 sampled elements against a double host product, each within
 * 1e-5 * K * 0.25 (|a b| <= 0.25: a bound on sum |a b| of 1e-5 relative).
 * Timing: warm-up, the two variants interleaved, CUDA events, median.
 *   --small   512^3 f32 and 1024^3 bf16 (the compute-sanitizer run)
 */
#include <cublas_v2.h>
#include <cmath>
#include "bench_util.h"
#define GEMM_TILED_NO_MAIN /* the kernels and gemm_launch, not the example's main */
#include "../examples/gemm_tiled.cu"

#define CB(call)                                                                   \
    do {                                                                           \
        cublasStatus_t cb_s = (call);                                              \
        if (cb_s != CUBLAS_STATUS_SUCCESS) {                                       \
            fprintf(stderr, "cuBLAS error %d at %s:%d: %s\n", (int)cb_s, __FILE__, __LINE__, #call); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

__global__ void glb_fill(float *a, tile_bf16 *h, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float v = tile_hash_unit(seed, (uint32_t)i) - 0.5f;
        if (h) { /* bf16 runs: a holds the values the kernels read */
            h[i] = tile_f32_to_bf16(v);
            a[i] = tile_bf16_to_f32(h[i]);
        } else {
            a[i] = v;
        }
    }
}

/* row-major C = A @ B is column-major C^T = B^T A^T: cuBLAS gets B first */
static int glb_cublas(cublasHandle_t h, int bf, int n, const void *A, const void *B, float *C) {
    const float one = 1.0f, zero = 0.0f;
    if (!bf)
        CB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, (const float *)B, n, (const float *)A, n, &zero, C,
                       n));
    else
        CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, CUDA_R_16BF, n, A, CUDA_R_16BF, n, &zero, C,
                        CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return 0;
}

static int run(const Opts &o) {
    (void)example_target; /* example_util.h's helpers, used by the example's main only */
    (void)example_check;
    BenchEnv env;
    if (bench_env(&env, "gemm_large_bench", o)) return 1;
    const tile_exec ex = TILE_GPU(env.dev);
    cublasHandle_t h;
    CB(cublasCreate(&h));
    CB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    const int sizes[2] = {o.small ? 512 : 4096, o.small ? 1024 : 8192};
    const double peak[2] = {67.0, 989.0}, goal[2] = {0.7, 0.5};
    const size_t maxn = (size_t)sizes[1] * sizes[1];
    float *A, *B, *Ct, *Cc;
    tile_bf16 *Ah, *Bh;
    CK(cudaMalloc(&A, maxn * 4));
    CK(cudaMalloc(&B, maxn * 4));
    CK(cudaMalloc(&Ct, maxn * 4));
    CK(cudaMalloc(&Cc, maxn * 4));
    CK(cudaMalloc(&Ah, maxn * 2));
    CK(cudaMalloc(&Bh, maxn * 2));
    FILE *csv = o.csv ? csv_open(o.csv) : nullptr;
    if (o.csv && !csv) return 1;
    if (csv) fprintf(csv, "date,commit,device,type,n,tile_ms,cublas_ms,tile_tflops,cublas_tflops,ratio,tile_peak_frac,correct,target\n");
    printf("%-5s %5s %9s %10s %9s %9s %7s %10s %10s\n", "type", "n", "tile_ms", "cublas_ms", "tile_TF", "cublas_TF", "ratio",
           "tile/peak", "cublas/peak");
    long bad_total = 0;
    bool all_pass = true;
    for (int bf = 0; bf < 2; ++bf) {
        const int n = sizes[bf];
        const size_t nn = (size_t)n * n;
        /* A, B: f32 values (bf16 runs: the bf16 values widened), Ah, Bh: bf16 */
        glb_fill<<<1024, 256>>>(A, bf ? Ah : nullptr, nn, 11);
        glb_fill<<<1024, 256>>>(B, bf ? Bh : nullptr, nn, 12);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        const void *pa = bf ? (const void *)Ah : (const void *)A, *pb = bf ? (const void *)Bh : (const void *)B;
        auto launch = [&](int v, int) {
            if (v) return glb_cublas(h, bf, n, pa, pb, Cc);
            TK(gemm_launch(ex, bf, pa, pb, Ct, n, n, n));
            return 0;
        };
        if (run_rounds(ex, 2, o.warmup, launch)) return 1;
        CK(cudaMemset(Ct, 0xff, nn * 4)); /* NaN: an element never written fails */
        CK(cudaMemset(Cc, 0xff, nn * 4));
        if (run_rounds(ex, 2, 1, launch)) return 1;
        std::vector<float> ct(nn), cc(nn), ha(nn), hb(nn);
        CK(cudaMemcpy(ct.data(), Ct, nn * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(cc.data(), Cc, nn * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ha.data(), A, nn * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hb.data(), B, nn * 4, cudaMemcpyDeviceToHost));
        const double tol = 1e-5 * n * 0.25;
        long bad = 0;
        double maxdiff = 0;
        for (size_t i = 0; i < nn; ++i) {
            const double d = fabs((double)ct[i] - cc[i]);
            if (d > maxdiff || d != d) maxdiff = d;
            if (!(d <= tol)) {
                if (bad < 3) fprintf(stderr, "  %s n=%d C[%zu]: tile %g, cuBLAS %g\n", bf ? "bf16" : "f32", n, i, ct[i], cc[i]);
                ++bad;
            }
        }
        for (int s = 0; s < 256; ++s) { /* corners, edges and a spread of the rest */
            const int i = s < 4 ? (s & 1) * (n - 1) : (int)(tile_hash32(5, (uint32_t)s) % (uint32_t)n);
            const int j = s < 4 ? (s >> 1) * (n - 1) : (int)(tile_hash32(6, (uint32_t)s) % (uint32_t)n);
            double r = 0;
            for (int k = 0; k < n; ++k) r += (double)ha[(size_t)i * n + k] * hb[(size_t)k * n + j];
            if (!(fabs(ct[(size_t)i * n + j] - r) <= tol)) {
                if (bad < 3) fprintf(stderr, "  %s n=%d C[%d][%d]: tile %g, double %g\n", bf ? "bf16" : "f32", n, i, j, ct[(size_t)i * n + j], r);
                ++bad;
            }
        }
        bad_total += bad;
        std::vector<float> ms[2];
        if (time_interleaved(ex, 2, o.iters, ms, launch)) return 1;
        const double tm = stats(ms[0]).median, cm = stats(ms[1]).median;
        const double fl = 2.0 * n * (double)n * n;
        const double ttf = fl / (tm * 1e-3) / 1e12, ctf = fl / (cm * 1e-3) / 1e12;
        printf("%-5s %5d %9.3f %10.3f %9.1f %9.1f %7.2f %9.1f%% %9.1f%%%s\n", bf ? "bf16" : "f32", n, tm, cm, ttf, ctf,
               ttf / ctf, 100 * ttf / peak[bf], 100 * ctf / peak[bf], bad ? "  RESULT FAIL" : "");
        printf("  %s n=%d: max |tile - cuBLAS| %.3g (tolerance %.3g)\n", bf ? "bf16" : "f32", n, maxdiff, tol);
        char label[64];
        snprintf(label, sizeof label, "%s %d^3 tile / cuBLAS", bf ? "bf16" : "f32", n);
        const bool pass = print_target(label, ttf / ctf, ">=", goal[bf], 2, bad == 0);
        all_pass = all_pass && pass;
        if (csv)
            fprintf(csv, "%s,%s,\"%s\",%s,%d,%.4f,%.4f,%.2f,%.2f,%.4f,%.4f,%s,%s\n", env.date, env.commit, env.prop.name,
                    bf ? "bf16" : "f32", n, tm, cm, ttf, ctf, ttf / ctf, ttf / peak[bf], bad ? "FAIL" : "PASS",
                    pass ? "PASS" : "FAIL");
    }
    printf("correctness: %s\n", bad_total ? "FAIL" : "PASS");
    if (csv && csv_close(csv, o.csv)) return 1;
    cublasDestroy(h);
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(Ct));
    CK(cudaFree(Cc));
    CK(cudaFree(Ah));
    CK(cudaFree(Bh));
    if (bad_total) return 1;
    if (o.strict && !all_pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 10, 2); }
