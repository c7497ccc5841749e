/* host_bench - the host linear-algebra API (tile/host/blas.h, solver.h) next
 * to direct cuBLAS / cuSOLVER calls, measured in the same process (f32).
 *
 *  1. gemm 4096 x 4096 x 4096: tile_gemm_f32 (the wrapper: checks, device,
 *     handle, stream, operand swap) vs cublasSgemm on a handle of the bench's
 *     own. Target: wrapper within 2% (direct / wrapper time >= 0.98).
 *  2. small batched gemm, square s = 8 .. 128 (12, 20, 28, 30: the edges of
 *     the automatic choice), batch 2^25 / s^2 products (--small: / 16): the
 *     in-kernel tile path (forced, s <= 32: the sizes its kernels take),
 *     cublasSgemmStridedBatched (direct), and the automatic
 *     tile_gemm_strided_batched_f32. Target per s: the automatic call within
 *     5% of the better of the two (best / auto >= 0.95); this sweep is what
 *     sets the choice in blas.h (TILE_HOST_GEMM_TILE32_MIN, _TILE_MAX).
 *  3. batched Cholesky, n = 16 .. 256, batch 4096 up to n = 128, then 2^26 /
 *     n^2 (--small: 256, / 16). Every variant does the same job: factor,
 *     the strictly upper triangle set to zero (the wrapper's contract: the
 *     result is L itself), then the info values to the host through a pinned
 *     buffer (cudaMemcpyAsync + stream sync) and looked at:
 *       tile    tile_chol_batched (in-kernel, n <= 128) + a zeroing kernel
 *               of the wrapper's shape + the read back;
 *       cusolv  cusolverDnSpotrfBatched (pointer array built once, uplo upper
 *               as the wrapper calls it) + the zeroing kernel + the read back;
 *       auto    tile_potrf_batched_f32 with a device info array (asynchronous:
 *               launches both kernels, returns) + the read back;
 *       auto0   tile_potrf_batched_f32 with info NULL (synchronous: reads
 *               back itself through its cached pinned buffer);
 *       bare    tile_chol_batched + the read back: since tile_chol_batched
 *               zeroes the upper triangle itself this is the tile variant
 *               again (bare/tile: the noise between two identical variants).
 *     Each timed launch factors a fresh copy (the copy is outside the events).
 *     Target per n: auto within 5% of the better of tile and cusolv
 *     (TILE_HOST_CHOL_TILE_MAX); best/aut0 printed for the synchronous form.
 * Checked in the same run: gemm 4096 wrapper = direct elementwise and 64
 * elements against a double host reference; batched gemm: every variant's C
 * against cuBLAS's (relative to the row bound s / 4) and products 0 and
 * batch-1 against a double reference; Cholesky: every info 0, and for each
 * variant run once more, ||L L^T - A|| / ||A|| of matrices 0 and batch-1 and
 * their strictly upper triangle zero.
 * Timing: warm-up, variants interleaved, CUDA events on the default stream,
 * median.
 *   host_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small] [--commit SHA] [--strict]
 * Exit: 0 ok (also with no GPU); 1 a CUDA error or a wrong result; 2 bad
 * arguments; 3 a target missed under --strict.
 */
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cmath>
#include "bench_util.h"
#include <tile/host/blas.h>
#include <tile/host/solver.h>

#define CB(call)                                                                   \
    do {                                                                           \
        cublasStatus_t cb_s = (call);                                              \
        if (cb_s != CUBLAS_STATUS_SUCCESS) {                                       \
            fprintf(stderr, "cuBLAS error %d at %s:%d: %s\n", (int)cb_s, __FILE__, __LINE__, #call); \
            return 1;                                                              \
        }                                                                          \
    } while (0)
#define CS(call)                                                                   \
    do {                                                                           \
        cusolverStatus_t cs_e = (call);                                            \
        if (cs_e != CUSOLVER_STATUS_SUCCESS) {                                     \
            fprintf(stderr, "cuSOLVER error %d at %s:%d: %s\n", (int)cs_e, __FILE__, __LINE__, #call); \
            return 1;                                                              \
        }                                                                          \
    } while (0)
/* a host-API call: TILE_OK, else the error and the library status */
#define TH(call)                                                                   \
    do {                                                                           \
        int th_e = (call);                                                         \
        if (th_e != TILE_OK) {                                                     \
            fprintf(stderr, "host API error %d (%s) at %s:%d: %s; last call %s status %d\n", th_e, \
                    tile_error_string(th_e), __FILE__, __LINE__, #call, tile_host_last_call(), \
                    tile_host_last_status());                                      \
            return 1;                                                              \
        }                                                                          \
    } while (0)

__global__ void fill_unit(float *a, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        a[i] = tile_hash_unit(seed, (uint32_t)i) - 0.5f;
}
/* symmetric, uniform(-1, 1) off the diagonal, n + 1 + u on it (SPD) */
__global__ void fill_spd(float *a, int n, long long total, uint32_t seed) {
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long m = e / ((long long)n * n);
        const int r = (int)(e / n % n), c = (int)(e % n);
        const int i = r > c ? r : c, j = r > c ? c : r;
        const float u = 2.0f * tile_hash_unit(seed, (uint32_t)(m * 16411 + i * 131 + j)) - 1.0f;
        a[e] = i == j ? (float)(n + 1) + u : u;
    }
}
__global__ void ptr_array(void **p, char *base, size_t stride, int batch) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < batch) p[i] = base + stride * i;
}
/* the strictly upper triangle of every matrix zeroed, a warp per row: what
 * the wrapper's contract adds to a factor (the same kernel shape as
 * solver.h's, so the direct variants do the same work) */
__global__ void zero_upper(float *a, int n, long long rows) {
    const int lane = threadIdx.x % 32;
    const long long step = (long long)gridDim.x * (blockDim.x / 32);
    for (long long t = blockIdx.x * (long long)(blockDim.x / 32) + threadIdx.x / 32; t < rows; t += step) {
        float *p = a + t * n;
        for (long long c = t % n + 1 + lane; c < n; c += 32) p[c] = 0.0f;
    }
}

static bool g_all_pass = true, g_all_ok = true, g_within = true; /* g_within: the auto targets */

/* ---------------- 1. gemm 4096^2 ---------------- */
static int bench_gemm(const Opts &o, tile_exec ex, cublasHandle_t h, FILE *csv, const BenchEnv &env) {
    const int n = o.small ? 1024 : 4096;
    const size_t nn = (size_t)n * n;
    float *A, *B, *C1, *C2;
    CK(cudaMalloc(&A, nn * 4));
    CK(cudaMalloc(&B, nn * 4));
    CK(cudaMalloc(&C1, nn * 4));
    CK(cudaMalloc(&C2, nn * 4));
    fill_unit<<<1024, 256>>>(A, nn, 21);
    fill_unit<<<1024, 256>>>(B, nn, 22);
    CK(cudaGetLastError());
    const float one = 1.0f, zero = 0.0f;
    /* v0 the wrapper, v1 cublasSgemm direct (row-major C = A B is column-major C^T = B^T A^T) */
    auto launch = [&](int v, int) -> int {
        if (v == 0) TH(tile_gemm_f32(ex, TILE_OP_N, TILE_OP_N, n, n, n, 1.0f, A, n, B, n, 0.0f, C1, n));
        else CB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C2, n));
        return 0;
    };
    if (run_rounds(ex, 2, o.warmup, launch)) return 1;
    std::vector<float> ms[2];
    if (time_interleaved(ex, 2, o.iters, ms, launch)) return 1;
    /* checks: the two results, and 64 elements against a double reference */
    std::vector<float> c1(nn), c2(nn), ha(nn), hb(nn);
    CK(cudaMemcpy(c1.data(), C1, nn * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c2.data(), C2, nn * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ha.data(), A, nn * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), B, nn * 4, cudaMemcpyDeviceToHost));
    long bad = 0;
    for (size_t i = 0; i < nn; ++i)
        if (!(fabs((double)c1[i] - c2[i]) <= 1e-5 * n * 0.25)) ++bad;
    for (int q = 0; q < 64; ++q) {
        const int i = (q * 977) % n, j = (q * 1237 + 5) % n;
        double r = 0;
        for (int k = 0; k < n; ++k) r += (double)ha[(size_t)i * n + k] * hb[(size_t)k * n + j];
        if (!(fabs(c1[(size_t)i * n + j] - r) <= 1e-5 * n * 0.25)) ++bad;
    }
    const double tw = stats(ms[0]).median, td = stats(ms[1]).median, fl = 2.0 * n * (double)n * n;
    printf("gemm f32 %d^3: wrapper %.3f ms (%.1f TFLOP/s), cublasSgemm %.3f ms (%.1f TFLOP/s)%s\n", n, tw,
           fl / tw / 1e9, td, fl / td / 1e9, bad ? "  RESULT FAIL" : "");
    char label[96];
    snprintf(label, sizeof label, "gemm f32 %d wrapper vs direct cuBLAS (direct/wrapper time)", n);
    g_all_pass &= print_target(label, td / tw, ">=", 0.98, 3, bad == 0);
    g_all_ok &= bad == 0;
    if (csv)
        fprintf(csv, "%s,%s,\"%s\",gemm,%d,1,%.5f,%.5f,,%.4f,%s\n", env.date, env.commit, env.prop.name, n, tw, td,
                td / tw, bad ? "FAIL" : "PASS");
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C1));
    CK(cudaFree(C2));
    return 0;
}

/* ---------------- 2. small batched gemm ---------------- */
static int bench_batched(const Opts &o, tile_exec ex, cublasHandle_t h, FILE *csv, const BenchEnv &env) {
    /* 12, 20, 28, 30, 31: the edges of the automatic choice (blas.h) */
    static const int S[13] = {8, 12, 16, 20, 24, 28, 30, 31, 32, 48, 64, 96, 128};
    const size_t E = ((size_t)1 << 25) / (o.small ? 16 : 1); /* elements per operand */
    float *A, *B, *Ct, *Cc, *Ca;
    CK(cudaMalloc(&A, E * 4));
    CK(cudaMalloc(&B, E * 4));
    CK(cudaMalloc(&Ct, E * 4));
    CK(cudaMalloc(&Cc, E * 4));
    CK(cudaMalloc(&Ca, E * 4));
    fill_unit<<<1024, 256>>>(A, E, 31);
    fill_unit<<<1024, 256>>>(B, E, 32);
    CK(cudaGetLastError());
    std::vector<float> ha(E), hb(E);
    CK(cudaMemcpy(ha.data(), A, E * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), B, E * 4, cudaMemcpyDeviceToHost));
    printf("\nbatched gemm f32 (s x s x s, batch 2^%d / s^2; auto in-kernel for %d <= s <= 16 and "
           "TILE_HOST_GEMM_TILE32_MIN = %d <= s <= TILE_HOST_GEMM_TILE_MAX = %d)\n", o.small ? 21 : 25,
           TILE_HOST_GEMM_TILE_MIN, TILE_HOST_GEMM_TILE32_MIN, TILE_HOST_GEMM_TILE_MAX);
    printf("%4s %7s %10s %10s %10s %9s %9s %s\n", "s", "batch", "tile_ms", "cublas_ms", "auto_ms", "tile/cuB",
           "best/auto", "auto takes");
    bool within = true;
    const float one = 1.0f, zero = 0.0f;
    for (int si = 0; si < 13; ++si) {
        const int s = S[si];
        const int batch = (int)(E / ((size_t)s * s));
        const long long st = (long long)s * s;
        const size_t n = (size_t)batch * s * s;
        const bool has_tile = s <= 32;
        /* v0 tile (forced), v1 cuBLAS direct, v2 auto */
        auto launch = [&](int v, int) -> int {
            if (v == 0) {
                if (has_tile)
                    TH(tile_gemm_strided_batched_path_f32(ex, TILE_PATH_TILE, TILE_OP_N, TILE_OP_N, s, s, s, 1.0f, A,
                                                          s, st, B, s, st, 0.0f, Ct, s, st, batch));
            } else if (v == 1) {
                CB(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, B, s, st, A, s, st, &zero, Cc,
                                             s, st, batch));
            } else {
                TH(tile_gemm_strided_batched_f32(ex, TILE_OP_N, TILE_OP_N, s, s, s, 1.0f, A, s, st, B, s, st, 0.0f, Ca,
                                                 s, st, batch));
            }
            return 0;
        };
        if (run_rounds(ex, 3, o.warmup, launch)) return 1;
        CK(cudaMemset(Ct, 0xff, n * 4));
        CK(cudaMemset(Cc, 0xff, n * 4));
        CK(cudaMemset(Ca, 0xff, n * 4));
        if (run_rounds(ex, 3, 1, launch)) return 1;
        std::vector<float> ct(n), cc(n), ca(n);
        CK(cudaMemcpy(ct.data(), Ct, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(cc.data(), Cc, n * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(ca.data(), Ca, n * 4, cudaMemcpyDeviceToHost));
        long bad = 0;
        const double tol = 1e-5 * s * 0.25;
        for (size_t i = 0; i < n; ++i) {
            if (!(fabs((double)ca[i] - cc[i]) <= tol)) ++bad;
            if (has_tile && !(fabs((double)ct[i] - cc[i]) <= tol)) ++bad;
        }
        for (long p : {0L, (long)batch - 1})
            for (int i = 0; i < s; ++i)
                for (int j = 0; j < s; ++j) {
                    const size_t o2 = (size_t)p * s * s;
                    double r = 0;
                    for (int k = 0; k < s; ++k) r += (double)ha[o2 + i * s + k] * hb[o2 + k * s + j];
                    if (!(fabs(ca[o2 + i * s + j] - r) <= tol)) ++bad;
                }
        std::vector<float> ms[3];
        if (time_interleaved(ex, 3, o.iters, ms, launch)) return 1;
        const double tt = has_tile ? stats(ms[0]).median : 0, tc = stats(ms[1]).median, ta = stats(ms[2]).median;
        const double best = has_tile && tt < tc ? tt : tc;
        const bool auto_tile = s >= TILE_HOST_GEMM_TILE_MIN && s <= TILE_HOST_GEMM_TILE_MAX &&
                               (s <= 16 || s >= TILE_HOST_GEMM_TILE32_MIN);
        char ttxt[16] = "-", rtxt[16] = "-";
        if (has_tile) snprintf(ttxt, sizeof ttxt, "%.4f", tt), snprintf(rtxt, sizeof rtxt, "%.2f", tc / tt);
        printf("%4d %7d %10s %10.4f %10.4f %9s %9.3f %s%s\n", s, batch, ttxt, tc, ta, rtxt, best / ta,
               auto_tile ? "tile" : "cuBLAS", bad ? "  RESULT FAIL" : "");
        char label[96];
        snprintf(label, sizeof label, "gemm s=%d auto / better path (best time / auto time)", s);
        const bool pass = print_target(label, best / ta, ">=", 0.95, 3, bad == 0);
        within &= pass;
        g_within &= pass;
        g_all_pass &= pass;
        g_all_ok &= bad == 0;
        if (csv)
            fprintf(csv, "%s,%s,\"%s\",batched_gemm,%d,%d,%.5f,%.5f,%.5f,%.4f,%s\n", env.date, env.commit,
                    env.prop.name, s, batch, tt, tc, ta, best / ta, pass ? "PASS" : "FAIL");
    }
    printf("batched gemm: auto within 5%% of the better path: %s\n", within ? "PASS" : "FAIL");
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(Ct));
    CK(cudaFree(Cc));
    CK(cudaFree(Ca));
    return 0;
}

/* ---------------- 3. batched Cholesky ---------------- */
/* ||L L^T - A|| / ||A|| of matrix m (L in the lower triangle of l) */
static double chol_residual(const float *l, const float *a, int n) {
    double num = 0, den = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            double s = 0;
            for (int k = 0; k <= j; ++k) s += (double)l[(size_t)i * n + k] * l[(size_t)j * n + k];
            const double d = s - a[(size_t)i * n + j];
            num += (i == j ? 1 : 2) * d * d;
            den += (i == j ? 1 : 2) * (double)a[(size_t)i * n + j] * a[(size_t)i * n + j];
        }
    return sqrt(num / den);
}

static int bench_chol(const Opts &o, tile_exec ex, cusolverDnHandle_t h, FILE *csv, const BenchEnv &env) {
    static const int N[8] = {16, 32, 64, 96, 128, 144, 192, 256};
    enum { NV = 5 };
    printf("\nbatched Cholesky f32 (factor, strictly upper triangle zeroed, info to the host; crossover "
           "TILE_HOST_CHOL_TILE_MAX = %d)\n", TILE_HOST_CHOL_TILE_MAX);
    printf("  tile: tile_chol_batched (zeroes the upper triangle itself); cusolv: the direct call + a zeroing "
           "kernel; both + info read back (pinned, sync);\n"
           "  auto: tile_potrf_batched_f32 with a device info array (asynchronous) + the same read back;\n"
           "  auto0: info NULL (the call reads back itself, pinned); bare: the tile variant again (noise)\n");
    printf("%4s %6s %9s %9s %9s %9s %9s %8s %9s %9s %9s %s\n", "n", "batch", "tile_ms", "cusolv_ms", "auto_ms",
           "auto0_ms", "bare_ms", "cuS/tile", "best/auto", "best/aut0", "bare/tile", "auto takes");
    bool within = true;
    int *hinfo = nullptr; /* pinned, like the wrapper's own buffer */
    CK(cudaMallocHost(&hinfo, sizeof(int) * 4096));
    for (int ni = 0; ni < 8; ++ni) {
        const int n = N[ni];
        int batch = n <= 128 ? 4096 : (int)(((size_t)1 << 26) / ((size_t)n * n));
        if (o.small) batch = n <= 128 ? 256 : batch / 16;
        const size_t nn = (size_t)n * n, bytes = nn * batch * 4;
        const bool has_tile = n <= TILE_CHOL_MAX_N;
        if (batch > 4096) return fprintf(stderr, "batch %d > the pinned info buffer\n", batch), 1;
        /* buffers: v0 a[0], v1 a[1] (cuSOLVER's pointer array pa), v2 and v3
         * share a[2] (the wrapper's cached pointer array is rebuilt when the
         * matrices move: one buffer keeps it cached, as for a caller who
         * factors in place again and again), v4 a[3] */
        static const int buf[NV] = {0, 1, 2, 2, 3};
        float *a0, *a[4];
        int *info[4];
        void **pa;
        CK(cudaMalloc(&a0, bytes));
        for (int v = 0; v < 4; ++v) {
            CK(cudaMalloc(&a[v], bytes));
            CK(cudaMalloc(&info[v], sizeof(int) * batch));
        }
        CK(cudaMalloc(&pa, sizeof(void *) * batch));
        fill_spd<<<1024, 256>>>(a0, n, (long long)(nn * batch), 4321u + (uint32_t)n);
        ptr_array<<<(batch + 255) / 256, 256>>>(pa, (char *)a[1], nn * 4, batch);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        const long long rows = (long long)batch * n;
        const int zgrid = (int)std::min<long long>((rows * 32 + 255) / 256, 65536);
        long nz = 0;
        /* the same read back for every variant that has an info array */
        auto readback = [&](const int *d) -> int {
            CK(cudaMemcpyAsync(hinfo, d, sizeof(int) * batch, cudaMemcpyDeviceToHost, 0));
            CK(cudaStreamSynchronize(0));
            for (int i = 0; i < batch; ++i) nz += hinfo[i] != 0;
            return 0;
        };
        /* one variant: restore, e0, factor (+ zeroing), info to the host, e1 */
        auto launch = [&](int v, cudaEvent_t e0, cudaEvent_t e1) -> int {
            if ((v == 0 || v == 4) && !has_tile) { /* no in-kernel path: an empty pair (never read) */
                if (e0) CK(cudaEventRecord(e0, 0));
                if (e1) CK(cudaEventRecord(e1, 0));
                return 0;
            }
            float *x = a[buf[v]];
            CK(cudaMemcpyAsync(x, a0, bytes, cudaMemcpyDeviceToDevice, 0));
            if (e0) CK(cudaEventRecord(e0, 0));
            if (v == 0 || v == 4) {
                TK(tile_chol_batched_f32(ex, x, n, batch, info[buf[v]]));
            } else if (v == 1) {
                CS(cusolverDnSpotrfBatched(h, CUBLAS_FILL_MODE_UPPER, n, (float **)pa, n, info[1], batch));
            } else if (v == 2) {
                TH(tile_potrf_batched_f32(ex, n, x, batch, info[2])); /* asynchronous */
            } else {
                const int r = tile_potrf_batched_f32(ex, n, x, batch, NULL); /* reads back, waits */
                if (r == TILE_ERR_NOT_SPD) ++nz;
                else TH(r);
            }
            if (v == 1 && n > 1) {
                zero_upper<<<zgrid, 256>>>(x, n, rows);
                CK(cudaGetLastError());
            }
            if (v != 3 && readback(info[buf[v]])) return 1;
            if (e1) CK(cudaEventRecord(e1, 0));
            return 0;
        };
        for (int w = 0; w < o.warmup; ++w)
            for (int v = 0; v < NV; ++v)
                if (launch(v, 0, 0)) return 1;
        CK(cudaDeviceSynchronize());
        std::vector<float> ms[NV];
        {
            const int iters = o.iters;
            std::vector<cudaEvent_t> ev(2 * NV * (size_t)iters);
            for (auto &e : ev) CK(cudaEventCreate(&e));
            for (int it = 0; it < iters; ++it)
                for (int v = 0; v < NV; ++v)
                    if (launch(v, ev[2 * NV * it + 2 * v], ev[2 * NV * it + 2 * v + 1])) return 1;
            CK(cudaDeviceSynchronize());
            TK(tile_synchronize(ex));
            for (int it = 0; it < iters; ++it)
                for (int v = 0; v < NV; ++v) {
                    float t = 0;
                    CK(cudaEventElapsedTime(&t, ev[2 * NV * it + 2 * v], ev[2 * NV * it + 2 * v + 1]));
                    ms[v].push_back(t);
                }
            for (auto &e : ev) CK(cudaEventDestroy(e));
        }
        /* checks, each variant run once more and its result read at once:
         * every info 0 (nz counts the nonzero ones seen in every run), the
         * residual of matrices 0 and batch-1, and their strictly upper
         * triangle zero */
        long upper_bad = 0;
        double worst = 0;
        {
            std::vector<float> hl(nn), ha(nn);
            for (int v = 0; v < NV; ++v) {
                if ((v == 0 || v == 4) && !has_tile) continue;
                if (launch(v, 0, 0)) return 1;
                CK(cudaDeviceSynchronize());
                for (long m : {0L, (long)batch - 1}) {
                    CK(cudaMemcpy(hl.data(), a[buf[v]] + m * nn, nn * 4, cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(ha.data(), a0 + m * nn, nn * 4, cudaMemcpyDeviceToHost));
                    const double r = chol_residual(hl.data(), ha.data(), n);
                    worst = r > worst || r != r ? r : worst;
                    for (int i = 0; i < n; ++i)
                        for (int j = i + 1; j < n; ++j) upper_bad += hl[(size_t)i * n + j] != 0.0f;
                }
            }
        }
        const bool ok = nz == 0 && worst <= 1e-5 && upper_bad == 0;
        double t[NV];
        for (int v = 0; v < NV; ++v) t[v] = ((v == 0 || v == 4) && !has_tile) ? 0 : stats(ms[v]).median;
        const double best = has_tile && t[0] < t[1] ? t[0] : t[1];
        char t0[16] = "-", t4[16] = "-", r1[16] = "-", r4[16] = "-";
        if (has_tile) {
            snprintf(t0, sizeof t0, "%.4f", t[0]);
            snprintf(t4, sizeof t4, "%.4f", t[4]);
            snprintf(r1, sizeof r1, "%.2f", t[1] / t[0]);
            snprintf(r4, sizeof r4, "%.3f", t[4] / t[0]);
        }
        printf("%4d %6d %9s %9.4f %9.4f %9.4f %9s %8s %9.3f %9.3f %9s %s (residual %.1e)%s\n", n, batch, t0, t[1],
               t[2], t[3], t4, r1, best / t[2], best / t[3], r4, n <= TILE_HOST_CHOL_TILE_MAX ? "tile" : "cuSOLVER",
               worst, ok ? "" : "  RESULT FAIL");
        if (upper_bad) printf("     %ld strictly-upper elements not zero\n", upper_bad);
        char label[96];
        snprintf(label, sizeof label, "potrf n=%d auto / better path (best time / auto time)", n);
        const bool pass = print_target(label, best / t[2], ">=", 0.95, 3, ok);
        within &= pass;
        g_within &= pass;
        g_all_pass &= pass;
        g_all_ok &= ok;
        if (csv)
            fprintf(csv, "%s,%s,\"%s\",potrf,%d,%d,%.5f,%.5f,%.5f,%.4f,%s\n", env.date, env.commit, env.prop.name, n,
                    batch, t[0], t[1], t[2], best / t[2], pass ? "PASS" : "FAIL");
        CK(cudaFree(a0));
        for (int v = 0; v < 4; ++v) {
            CK(cudaFree(a[v]));
            CK(cudaFree(info[v]));
        }
        CK(cudaFree(pa));
    }
    CK(cudaFreeHost(hinfo));
    printf("batched Cholesky: auto within 5%% of the better path: %s\n", within ? "PASS" : "FAIL");
    return 0;
}

static int run(const Opts &o) {
    BenchEnv env;
    if (bench_env(&env, "host_bench", o)) return 1;
    const tile_exec ex = TILE_GPU(env.dev);
    FILE *csv = o.csv ? csv_open(o.csv) : nullptr;
    if (o.csv && !csv) return 1;
    if (csv) fprintf(csv, "date,commit,device,what,size,batch,tile_or_wrapper_ms,library_ms,auto_ms,ratio,target\n");
    cublasHandle_t hb;
    cusolverDnHandle_t hs;
    CB(cublasCreate(&hb));
    CS(cusolverDnCreate(&hs));
    if (bench_gemm(o, ex, hb, csv, env) || bench_batched(o, ex, hb, csv, env) || bench_chol(o, ex, hs, csv, env))
        return 1;
    printf("auto within 5%% of the better path: %s\n", g_within ? "PASS" : "FAIL");
    printf("correctness: %s\n", g_all_ok ? "PASS" : "FAIL");
    if (csv && csv_close(csv, o.csv)) return 1;
    cublasDestroy(hb);
    cusolverDnDestroy(hs);
    tile_blas_release();
    tile_solver_release();
    if (!g_all_ok) return 1;
    if (o.strict && !g_all_pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 20, 3); }
