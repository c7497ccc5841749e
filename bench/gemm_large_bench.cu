/* gemm_large_bench - examples/gemm_tiled.cu's kernels (the same source,
 * included) on large square problems, against cuBLAS in the same process:
 *
 *  - f32 4096^3: gemm_f32 (FMA, 128 x 128 a block, 8 x 8 a thread, 2 blocks
 *    an SM, k windows of 32 with A k-major, f32 accumulation; no tf32) vs cublasSgemm (default math mode: FMA, no tf32
 *    unless NVIDIA_TF32_OVERRIDE says otherwise). Target >= 0.7.
 *  - bf16 8192^3: gemm_bf16 (mma.sync m16n8k16, 128 x 256 a block, 64 x 64 a
 *    warp, k windows of 64, f32 accumulation and output) vs cublasGemmEx (CUDA_R_16BF inputs,
 *    CUDA_R_32F output, CUBLAS_COMPUTE_32F). No target here: mma.sync is the
 *    sm_80 path; on sm_90 the large bf16 GEMM is examples/gemm_wgmma.cu and
 *    its >= 0.5 target line is wgmma_bench's.
 * Both print TFLOP/s (2 n^3 flops) and the fraction of the H100 SXM's peak
 * (f32 FMA 67 TFLOP/s, bf16 dense 989 TFLOP/s; the numbers are the H100
 * SXM's whatever the device: read them as such elsewhere).
 *
 * Inputs: pseudo-random values in [-0.5, 0.5) (bf16: the same rounded).
 * Checks in the same run: every element of tile.h's C against cuBLAS's C,
 * and 256 sampled elements against a double host product, each within
 * 1e-5 * K * 0.25 (|a b| <= 0.25: a bound on sum |a b| of 1e-5 relative).
 * Candidate shapes (GLB_VARIANT below) run next to the default kernels:
 * each is checked the same way and printed on its own line
 *   "  f32 n=4096 variant V [shape]: ... TFLOP/s, tile / cuBLAS = R, ..."
 * (variant 0 is the default, the figure on the target line).
 * Timing: warm-up, all variants and cuBLAS interleaved, CUDA events, median.
 *   --small   512^3 f32 and 1024^3 bf16 (the compute-sanitizer run)
 */
#include <cublas_v2.h>
#include <cmath>
#include "bench_util.h"
#define GEMM_TILED_NO_MAIN /* the kernels and gemm_launch, not the example's main */
#include "../examples/gemm_tiled.cu"

/* Candidates timed next to the default kernels (gemm_f32 / gemm_bf16) and
 * cuBLAS in the same run, each checked like the default. The H100 runs at
 * bea5b43 and 448c676 (bench/results/2026-11-25-h100-matmul-sort-bea5b43-bench.txt,
 * ...-fftconv-hist-matmul-448c676-bench.txt) made their winners gemm_tiled.cu's
 * defaults and dropped the clear losers and ties (their numbers:
 * docs/matmul.md); kept here: the previous default (the gain, in the same
 * run) and the new candidates: BAR1 (one block barrier a k window instead of
 * three: GEMM_KERNEL_B's last argument), deeper or wider windows and the
 * k loop unrolled 2 with it. (256 x 128 with 512 threads, 8 x 8 a thread,
 * spilled at 128 registers: not kept.)
 * GLB_VARIANT(name, T, threads, BM, BN, BK, stages, min blocks an SM);
 * GLB_VARIANT_G: and GROUP (tile rows the blocks walk before moving right);
 * GLB_VARIANT_B: and BAR1. */
#define GLB_VARIANT(name, T, THREADS, BM, BN, BK, STAGES, MINB) GLB_VARIANT_B(name, T, THREADS, BM, BN, BK, STAGES, MINB, 1, 0)
#define GLB_VARIANT_G(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP) \
    GLB_VARIANT_B(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP, 0)
#define GLB_VARIANT_B(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP, BAR1)    \
    GEMM_KERNEL_B(name, T, THREADS, BM, BN, BK, STAGES, MINB, GROUP, BAR1)         \
    static int name##_launch(tile_exec ex, const void *A, const void *B, float *C, int M, int N, int K) { \
        return GEMM_LAUNCH(ex, name, T, THREADS, BM, BN, GROUP, A, B, C, M, N, K); \
    }
/* f32: the previous default (128 x 128, k16, 3 stages, minb 2, three barriers a window): 0.69 */
GLB_VARIANT(glb_f32_prev, float, 256, 128, 128, 16, 3, 2)
/* f32, BAR1, k windows of 32, A row-major (the default without AKM): 0.75 */
GLB_VARIANT_B(glb_f32_bar1_k32, float, 256, 128, 128, 32, 3, 2, 1, 1)
/* f32, BAR1 and AKM (A's windows k-major in shared memory, copied by 4-byte
 * cp.async: a thread's 8 rows of a k are two 16-byte loads, 16 operand
 * registers a k instead of 32 for 4 k, no bank conflict between a warp's
 * two row groups) */
#define GLB_VARIANT_X(name, T, THREADS, BM, BN, BK, STAGES, MINB, BAR1, AKM)      \
    GEMM_KERNEL_X(name, T, THREADS, BM, BN, BK, STAGES, MINB, 1, BAR1, AKM)        \
    static int name##_launch(tile_exec ex, const void *A, const void *B, float *C, int M, int N, int K) { \
        return GEMM_LAUNCH(ex, name, T, THREADS, BM, BN, 1, A, B, C, M, N, K);     \
    }
/* ... k windows of 16: 0.77 */
GLB_VARIANT_X(glb_f32_akm, float, 256, 128, 128, 16, 3, 2, 1, 1)
/* f32, BAR1, AKM and TILE_MATMUL_ACC_TM16 (16 x 8 a thread: 256 x 128 with
 * 256 threads, one block an SM; a k step loads 4 + 2 16-byte words for 128
 * FMAs instead of 2 + 2 for 64) */
#undef TILE_MATMUL_ACC_TM16
#define TILE_MATMUL_ACC_TM16 1
GLB_VARIANT_X(glb_f32_tm16, float, 256, 256, 128, 16, 3, 1, 1, 1)
GLB_VARIANT_X(glb_f32_tm16_k32, float, 256, 256, 128, 32, 3, 1, 1, 1)
#undef TILE_MATMUL_ACC_TM16
#define TILE_MATMUL_ACC_TM16 0
/* bf16: the previous default (the default's shape, three barriers a window): 0.31 */
GLB_VARIANT(glb_bf16_prev, tile_bf16, 256, 128, 256, 64, 3, 0)
/* bf16, BAR1, 128 x 128 k64 3 stages, 2 blocks an SM: 0.32 */
GLB_VARIANT_B(glb_bf16_bar1_128x128, tile_bf16, 256, 128, 128, 64, 3, 2, 1, 1)
/* bf16, BAR1 and TILE_MATMUL_ACC_PREFETCH 1 (each k16 step's fragments
 * loaded by ldmatrix before the previous step's mma: two register sets) */
#undef TILE_MATMUL_ACC_PREFETCH
#define TILE_MATMUL_ACC_PREFETCH 1
GLB_VARIANT_B(glb_bf16_bar1_pf, tile_bf16, 256, 128, 256, 64, 3, 0, 1, 1)
GLB_VARIANT_B(glb_bf16_bar1_pf_128x128, tile_bf16, 256, 128, 128, 64, 3, 2, 1, 1)
#undef TILE_MATMUL_ACC_PREFETCH
#define TILE_MATMUL_ACC_PREFETCH 0
typedef int (*glb_launch_fn)(tile_exec, const void *, const void *, float *, int, int, int);
static int glb_default_f32(tile_exec ex, const void *A, const void *B, float *C, int M, int N, int K) {
    return gemm_launch(ex, 0, A, B, C, M, N, K);
}
static int glb_default_bf16(tile_exec ex, const void *A, const void *B, float *C, int M, int N, int K) {
    return gemm_launch(ex, 1, A, B, C, M, N, K);
}
#define GLB_S_(x) #x
#define GLB_S(x) GLB_S_(x)
struct GlbVariant {
    const char *name;
    glb_launch_fn fn;
};
/* [0]: the default (gemm_tiled.cu's kernel, the target line's figure) */
static const GlbVariant glb_f32_variants[] = {
    {"default " GLB_S(GEMM_F32_BM) "x" GLB_S(GEMM_F32_BN) " k" GLB_S(GEMM_F32_BK) " " GLB_S(GEMM_F32_STAGES) "st " GLB_S(GEMM_F32_THREADS) "thr minb" GLB_S(GEMM_F32_MINB) " GROUP=" GLB_S(GEMM_F32_GROUP) " BAR1=" GLB_S(GEMM_F32_BAR1), glb_default_f32},
    {"128x128 k16 3st 256thr minb2 (previous default)", glb_f32_prev_launch},
    {"128x128 k32 3st 256thr minb2 BAR1 (A row-major)", glb_f32_bar1_k32_launch},
    {"128x128 k16 3st 256thr minb2 BAR1 AKM (A k-major)", glb_f32_akm_launch},
    {"256x128 k16 3st 256thr minb1 BAR1 AKM TM16 (16x8 a thread)", glb_f32_tm16_launch},
    {"256x128 k32 3st 256thr minb1 BAR1 AKM TM16 (16x8 a thread)", glb_f32_tm16_k32_launch},
};
static const GlbVariant glb_bf16_variants[] = {
    {"default " GLB_S(GEMM_BF16_BM) "x" GLB_S(GEMM_BF16_BN) " k" GLB_S(GEMM_BF16_BK) " " GLB_S(GEMM_BF16_STAGES) "st " GLB_S(GEMM_BF16_THREADS) "thr minb" GLB_S(GEMM_BF16_MINB) " GROUP=" GLB_S(GEMM_BF16_GROUP) " BAR1=" GLB_S(GEMM_BF16_BAR1), glb_default_bf16},
    {"128x256 k64 3st 256thr minb0 (previous default)", glb_bf16_prev_launch},
    {"128x128 k64 3st 256thr minb2 BAR1", glb_bf16_bar1_128x128_launch},
    {"128x256 k64 3st 256thr minb0 BAR1 PREFETCH", glb_bf16_bar1_pf_launch},
    {"128x128 k64 3st 256thr minb2 BAR1 PREFETCH", glb_bf16_bar1_pf_128x128_launch},
};

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
        const GlbVariant *vars = bf ? glb_bf16_variants : glb_f32_variants;
        const int nv = bf ? (int)(sizeof glb_bf16_variants / sizeof *vars) : (int)(sizeof glb_f32_variants / sizeof *vars);
        /* v < nv: tile.h variant v into Ct; v == nv: cuBLAS into Cc */
        auto launch = [&](int v, int) {
            if (v == nv) return glb_cublas(h, bf, n, pa, pb, Cc);
            TK(vars[v].fn(ex, pa, pb, Ct, n, n, n));
            return 0;
        };
        if (run_rounds(ex, nv + 1, o.warmup, launch)) return 1;
        CK(cudaMemset(Cc, 0xff, nn * 4)); /* NaN: an element never written fails */
        if (launch(nv, 0)) return 1;
        CK(cudaDeviceSynchronize());
        std::vector<float> ct(nn), cc(nn), ha(nn), hb(nn);
        CK(cudaMemcpy(cc.data(), Cc, nn * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ha.data(), A, nn * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hb.data(), B, nn * 4, cudaMemcpyDeviceToHost));
        const double tol = 1e-5 * n * 0.25;
        /* the double reference at 256 points: corners, edges, a spread */
        std::vector<int> si(256), sj(256);
        std::vector<double> sr(256);
        for (int s = 0; s < 256; ++s) {
            si[s] = s < 4 ? (s & 1) * (n - 1) : (int)(tile_hash32(5, (uint32_t)s) % (uint32_t)n);
            sj[s] = s < 4 ? (s >> 1) * (n - 1) : (int)(tile_hash32(6, (uint32_t)s) % (uint32_t)n);
            double r = 0;
            for (int k = 0; k < n; ++k) r += (double)ha[(size_t)si[s] * n + k] * hb[(size_t)k * n + sj[s]];
            sr[s] = r;
        }
        std::vector<long> vbad(nv, 0);
        std::vector<double> vmax(nv, 0);
        long bad = 0;
        for (int v = 0; v < nv; ++v) { /* every variant's C: all of it vs cuBLAS, 256 points vs double */
            CK(cudaMemset(Ct, 0xff, nn * 4));
            if (launch(v, 0)) return 1;
            TK(tile_synchronize(ex));
            CK(cudaMemcpy(ct.data(), Ct, nn * 4, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < nn; ++i) {
                const double d = fabs((double)ct[i] - cc[i]);
                if (d > vmax[v] || d != d) vmax[v] = d;
                if (!(d <= tol)) {
                    if (vbad[v] < 3)
                        fprintf(stderr, "  %s n=%d %s: C[%zu]: tile %g, cuBLAS %g\n", bf ? "bf16" : "f32", n, vars[v].name,
                                i, ct[i], cc[i]);
                    ++vbad[v];
                }
            }
            for (int s = 0; s < 256; ++s) {
                const float x = ct[(size_t)si[s] * n + sj[s]];
                if (!(fabs(x - sr[s]) <= tol)) {
                    if (vbad[v] < 3)
                        fprintf(stderr, "  %s n=%d %s: C[%d][%d]: tile %g, double %g\n", bf ? "bf16" : "f32", n,
                                vars[v].name, si[s], sj[s], x, sr[s]);
                    ++vbad[v];
                }
            }
            bad += vbad[v];
        }
        bad_total += bad;
        std::vector<std::vector<float>> ms(nv + 1);
        if (time_interleaved(ex, nv + 1, o.iters, ms.data(), launch)) return 1;
        const double cm = stats(ms[nv]).median;
        const double fl = 2.0 * n * (double)n * n;
        const double ctf = fl / (cm * 1e-3) / 1e12;
        double ttf = 0, tm = 0;
        for (int v = 0; v < nv; ++v) {
            const double vm = stats(ms[v]).median, vtf = fl / (vm * 1e-3) / 1e12;
            if (v == 0) ttf = vtf, tm = vm;
            if (v == 0)
                printf("%-5s %5d %9.3f %10.3f %9.1f %9.1f %7.2f %9.1f%% %9.1f%%%s\n", bf ? "bf16" : "f32", n, vm, cm, vtf,
                       ctf, vtf / ctf, 100 * vtf / peak[bf], 100 * ctf / peak[bf], vbad[v] ? "  RESULT FAIL" : "");
            printf("  %s n=%d variant %d [%s]: %.3f ms, %.1f TFLOP/s, tile / cuBLAS = %.2f, %.1f%% of peak, max |tile - "
                   "cuBLAS| %.3g (tolerance %.3g)%s\n",
                   bf ? "bf16" : "f32", n, v, vars[v].name, vm, vtf, vtf / ctf, 100 * vtf / peak[bf], vmax[v], tol,
                   vbad[v] ? " RESULT FAIL" : "");
        }
        char label[64];
        snprintf(label, sizeof label, "%s %d^3 tile / cuBLAS", bf ? "bf16" : "f32", n);
        /* bf16 here is the mma.sync kernel (the sm_80 path): on sm_90 the
         * large bf16 GEMM is examples/gemm_wgmma.cu, whose target line
         * (>= 0.5 of cuBLAS) wgmma_bench prints; this one is context */
        bool pass = true;
        if (bf)
            printf("%s (mma.sync) = %.2f (no target: the sm_80 path; the bf16 target is wgmma_bench's gemm_wgmma line)\n",
                   label, ttf / ctf);
        else
            pass = print_target(label, ttf / ctf, ">=", goal[bf], 2, vbad[0] == 0);
        all_pass = all_pass && pass;
        if (csv)
            fprintf(csv, "%s,%s,\"%s\",%s,%d,%.4f,%.4f,%.2f,%.2f,%.4f,%.4f,%s,%s\n", env.date, env.commit, env.prop.name,
                    bf ? "bf16" : "f32", n, tm, cm, ttf, ctf, ttf / ctf, ttf / peak[bf], bad ? "FAIL" : "PASS",
                    bf ? "none" : pass ? "PASS" : "FAIL");
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
