/* chol_bench - batched Cholesky (include/tile/chol_batched.h) next to
 * cuSOLVER's cusolverDn{S,D}potrfBatched / potrsBatched and the memory floor,
 * measured in the same process.
 *
 * For f32 and f64 and N in {16, 32, 64, 92, 128}, batch 4096 (--small: 256):
 *  - factor:  tile_chol_batched_<t> (L itself: its strictly upper triangle
 *             zero, written by the same kernels) vs potrfBatched (lower,
 *             which leaves the upper triangle; arrays of device
 *             pointers, cusolverDnCreate once). Each timed launch factors a
 *             fresh copy of the same random SPD batch (A = sym. uniform(-1, 1)
 *             off the diagonal, n + 1 + uniform on it: diagonally dominant);
 *             the copy is outside the event pair.
 *  - memory floor: the batch's bytes read and written once at the
 *             cudaMemcpy device-to-device bandwidth, measured in this run on a
 *             512 MiB copy (2 x bytes / bandwidth).
 *  - same-size copy (no target): a cudaMemcpyAsync D2D of the batch, timed
 *             as one launch (its latency and tail included), for scale.
 *  - factor + solve (nrhs 1): tile_chol_batched + tile_chol_batched_solve (its
 *             warp kernel at nrhs 1) vs potrfBatched + potrsBatched; also with
 *             the tile kernel (the solve's kernel past TILE__CHOL_WSOLVE_MAXRHS),
 *             both solve kernels and potrsBatched alone on the same L, and the
 *             two kernels against nrhs (1 ... 16; no targets).
 *  - candidate (no target, checked like the default): for N > 32 the path
 *             the default does not take (rows or blocked kernels).
 *  - recorded peer: NVIDIA Warp 1.19 MathDx tile_cholesky on an H100, batch
 *             4096, f32, one matrix per block: 13.8 / 53.6 / 314 / 285 / 9462 us
 *             at N = 16 / 32 / 64 / 92 / 128 (constants from the issue, not
 *             measured here).
 * Checked in the same run: every info value 0 (ours and cuSOLVER's), the
 * residual ||L L^T - A|| / ||A|| of the first, a middle and the last matrix of
 * the timed runs' output, their strictly upper triangles exactly zero, and
 * ||A x - b|| / (||A|| ||x|| + ||b||) of the solve.
 * Targets: ">= 4x cuSOLVER" (factor, every N, f32 and f64), "f32 within 1.6x
 * of the memory floor at N >= 64", "faster than Warp MathDx" (f32).
 *
 *   chol_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small] [--commit SHA] [--strict]
 * Exit: 0 ok (also with no GPU); 1 a CUDA error or a wrong result; 2 bad
 * arguments; 3 a target missed under --strict.
 */
#include <tile.h>
#include <cusolverDn.h>

#include <cmath>
#include "bench_util.h"

#define CS(call)                                                                   \
    do {                                                                           \
        cusolverStatus_t cs_e = (call);                                            \
        if (cs_e != CUSOLVER_STATUS_SUCCESS) {                                     \
            fprintf(stderr, "cuSOLVER error %d at %s:%d: %s\n", (int)cs_e, __FILE__, __LINE__, #call); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

static const int NS[5] = {16, 32, 64, 92, 128};
static const double WARP_MATHDX_US[5] = {13.8, 53.6, 314, 285, 9462};

/* CHOL_BENCH_HOLD_US=U (a diagnostic, off by default): a one-thread kernel
 * spins U us on the stream before each timed launch's first event, so the
 * host has queued the launch by the time the event fires: the figures are
 * then GPU time alone, without the host's enqueue gap (as nvbench's
 * blocking kernel) */
static long long g_hold_ns = 0;
__global__ void hold_gpu(long long ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); while ((long long)(t - t0) < ns);
}
/* a timed launch's first event (e0 0: an untimed launch), after the hold */
#define START(e0)                                                            \
    do {                                                                     \
        if (e0) {                                                            \
            if (g_hold_ns > 0) hold_gpu<<<1, 1>>>(g_hold_ns);                \
            CK(cudaEventRecord(e0, 0));                                      \
        }                                                                    \
    } while (0)

/* the SPD batch: symmetric, uniform(-1, 1) off the diagonal, n + 1 + u on it */
template <class T>
__global__ void fill_spd(T *a, int n, long long total, uint32_t seed) {
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long m = e / ((long long)n * n);
        const int r = (int)(e / n % n), c = (int)(e % n);
        const int i = r > c ? r : c, j = r > c ? c : r;
        const uint32_t key = (uint32_t)(m * 16411 + i * 131 + j);
        const T u = (T)(2.0f * tile_hash_unit(seed, key) - 1.0f);
        a[e] = i == j ? (T)(n + 1) + u : u;
    }
}
template <class T>
__global__ void fill_vec(T *b, long long total, uint32_t seed) {
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x)
        b[e] = (T)(2.0f * tile_hash_unit(seed, (uint32_t)e) - 1.0f);
}
__global__ void ptr_array(void **p, char *base, size_t stride, int batch) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < batch) p[i] = base + stride * i;
}

template <class T> struct lib;
template <> struct lib<float> {
    static const char *name() { return "f32"; }
    static int factor(float *a, int n, int batch, int *info) { return tile_chol_batched_f32(TILE_GPU(0), a, n, batch, info); }
    static int lower(float *a, int n, int batch, int *info) { return tile_chol_batched_lower_f32(TILE_GPU(0), a, n, batch, info); }
    /* the candidate path timed beside the default: the path the default does
     * not take at n (rows or blocked; the warp kernel, path 3, measured a tie
     * with the rows kernel twice and is checked by chol_test only) */
    static int alt_path(int n) { return TILE__CHOL_OTHER_PATH(f32, n); }
    static int factor_alt(float *a, int n, int batch, int *info) {
        return tile__chol_batched_path_f32(TILE_GPU(0), a, n, batch, 0.0f, info, alt_path(n));
    }
    static int solve(const float *l, float *b, int n, int nrhs, int batch) {
        return tile_chol_batched_solve_f32(TILE_GPU(0), l, b, n, nrhs, batch);
    }
    /* the solve's two kernels: warp (nrhs <= TILE__CHOL_WSOLVE_MAXRHS), tile */
    static int wsolve(const float *l, float *b, int n, int nrhs, int batch) {
        return tile__chol_wsolve_launch_f32(TILE_GPU(0), l, b, n, nrhs, batch);
    }
    static int tsolve(const float *l, float *b, int n, int nrhs, int batch) {
        return tile__chol_tsolve_launch_f32(TILE_GPU(0), l, b, n, nrhs, batch);
    }
    static cusolverStatus_t potrf(cusolverDnHandle_t h, int n, void **a, int *info, int batch) {
        return cusolverDnSpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, (float **)a, n, info, batch);
    }
    static cusolverStatus_t potrs(cusolverDnHandle_t h, int n, void **a, void **b, int *info, int batch) {
        return cusolverDnSpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, (float **)a, n, (float **)b, n, info, batch);
    }
};
template <> struct lib<double> {
    static const char *name() { return "f64"; }
    static int factor(double *a, int n, int batch, int *info) { return tile_chol_batched_f64(TILE_GPU(0), a, n, batch, info); }
    static int lower(double *a, int n, int batch, int *info) { return tile_chol_batched_lower_f64(TILE_GPU(0), a, n, batch, info); }
    static int alt_path(int n) { return TILE__CHOL_OTHER_PATH(f64, n); }
    static int factor_alt(double *a, int n, int batch, int *info) {
        return tile__chol_batched_path_f64(TILE_GPU(0), a, n, batch, 0.0, info, alt_path(n));
    }
    static int solve(const double *l, double *b, int n, int nrhs, int batch) {
        return tile_chol_batched_solve_f64(TILE_GPU(0), l, b, n, nrhs, batch);
    }
    static int wsolve(const double *l, double *b, int n, int nrhs, int batch) {
        return tile__chol_wsolve_launch_f64(TILE_GPU(0), l, b, n, nrhs, batch);
    }
    static int tsolve(const double *l, double *b, int n, int nrhs, int batch) {
        return tile__chol_tsolve_launch_f64(TILE_GPU(0), l, b, n, nrhs, batch);
    }
    static cusolverStatus_t potrf(cusolverDnHandle_t h, int n, void **a, int *info, int batch) {
        return cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, (double **)a, n, info, batch);
    }
    static cusolverStatus_t potrs(cusolverDnHandle_t h, int n, void **a, void **b, int *info, int batch) {
        return cusolverDnDpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, (double **)a, n, (double **)b, n, info, batch);
    }
};

static const char *path_name(int path) { return path ? "rows" : "blocked"; }

struct Row {
    const char *type;
    int n;
    double tile_us, cus_us, floor_us, tile_fs_us, cus_fs_us, warp_us, copy_us;
    double alt_us; /* the candidate path (n > 32 only; 0 otherwise) */
    double lo_us;  /* tile_chol_batched_lower (cuSOLVER's contract) */
    bool lo_ok;
    /* factor + the tile kernel's solve; the solves alone on L (warp kernel,
     * tile kernel, cuSOLVER potrsBatched) */
    double ts_fs_us, ws_us, ts_us, potrs_us;
    bool ws_ok;
    const char *alt_name; /* "rows" or "blocked" */
    bool ok, alt_ok;
};

/* one (type, n): returns 0, or 1 on a CUDA error; r gets the figures */
template <class T>
static int run_one(const Opts &o, cusolverDnHandle_t h, int n, int batch, double d2d_gbps, Row *r) {
    const size_t nn = (size_t)n * n, bytes = nn * batch * sizeof(T), bbytes = (size_t)n * batch * sizeof(T);
    T *a0, *a, *ac, *b0, *b, *bc, *aa, *acp, *al, *a7, *b7, *b8, *b9;
    int *info, *cinfo, *cinfo_s, *ainfo, *linfo;
    const int nv = n > 32 ? 5 : 4; /* variant 4: the candidate path, n > 32 */
    void **pa, **pb;
    CK(cudaMalloc(&a0, bytes));
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&ac, bytes));
    CK(cudaMalloc(&aa, bytes));
    CK(cudaMalloc(&acp, bytes));
    CK(cudaMalloc(&ainfo, sizeof(int) * batch));
    CK(cudaMalloc(&al, bytes));
    CK(cudaMalloc(&linfo, sizeof(int) * batch));
    CK(cudaMalloc(&b0, bbytes));
    CK(cudaMalloc(&a7, bytes));
    CK(cudaMalloc(&b7, bbytes));
    CK(cudaMalloc(&b8, bbytes));
    CK(cudaMalloc(&b9, bbytes));
    CK(cudaMalloc(&b, bbytes));
    CK(cudaMalloc(&bc, bbytes));
    CK(cudaMalloc(&info, sizeof(int) * batch));
    CK(cudaMalloc(&cinfo, sizeof(int) * batch));
    CK(cudaMalloc(&cinfo_s, sizeof(int)));
    CK(cudaMalloc(&pa, sizeof(void *) * batch));
    CK(cudaMalloc(&pb, sizeof(void *) * batch));
    fill_spd<T><<<1024, 256>>>(a0, n, (long long)(nn * batch), 1234u + (uint32_t)n);
    fill_vec<T><<<256, 256>>>(b0, (long long)n * batch, 99u + (uint32_t)n);
    ptr_array<<<(batch + 255) / 256, 256>>>(pa, (char *)ac, nn * sizeof(T), batch);
    ptr_array<<<(batch + 255) / 256, 256>>>(pb, (char *)bc, (size_t)n * sizeof(T), batch);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    /* variants: 0 tile factor, 1 cuSOLVER potrf, 2 tile factor+solve, 3 potrf+potrs,
     * 4 the tile factor's candidate path (rows / blocked kernels, the one the
     *   default does not take), 5 a D2D copy of the batch (the factor's bytes
     *   read and written once, as one launch of this size: its latency and
     *   tail included, which the floor's large-copy bandwidth leaves out),
     *   6 tile_chol_batched_lower (the strictly upper triangle untouched),
     *   7 tile factor + the tile kernel's solve (variant 2 takes the warp
     *   kernel at nrhs 1), and the solves alone on the factor that variants
     *   2 and 3 left: 8 the warp kernel, 9 the tile kernel,
     *   10 cusolverDn{S,D}potrsBatched;
     * the restore copies run before the first event of each launch */
    auto launch = [&](int v, cudaEvent_t e0, cudaEvent_t e1) -> int {
        if (v == 7) {
            CK(cudaMemcpyAsync(a7, a0, bytes, cudaMemcpyDeviceToDevice, 0));
            CK(cudaMemcpyAsync(b7, b0, bbytes, cudaMemcpyDeviceToDevice, 0));
            START(e0);
            TK(lib<T>::factor(a7, n, batch, info));
            TK(lib<T>::tsolve(a7, b7, n, 1, batch));
        } else if (v == 8 || v == 9) {
            T *bv = v == 8 ? b8 : b9;
            CK(cudaMemcpyAsync(bv, b0, bbytes, cudaMemcpyDeviceToDevice, 0));
            START(e0);
            if (v == 8) TK(lib<T>::wsolve(a, bv, n, 1, batch));
            else TK(lib<T>::tsolve(a, bv, n, 1, batch));
        } else if (v == 10) {
            CK(cudaMemcpyAsync(bc, b0, bbytes, cudaMemcpyDeviceToDevice, 0));
            START(e0);
            CS(lib<T>::potrs(h, n, pa, pb, cinfo_s, batch));
        } else if (v == 6) {
            CK(cudaMemcpyAsync(al, a0, bytes, cudaMemcpyDeviceToDevice, 0));
            START(e0);
            TK(lib<T>::lower(al, n, batch, linfo));
        } else if (v == 5) {
            START(e0);
            CK(cudaMemcpyAsync(acp, a0, bytes, cudaMemcpyDeviceToDevice, 0));
        } else if (v == 4) {
            CK(cudaMemcpyAsync(aa, a0, bytes, cudaMemcpyDeviceToDevice, 0));
            START(e0);
            TK(lib<T>::factor_alt(aa, n, batch, ainfo));
        } else if (v == 0 || v == 2) {
            CK(cudaMemcpyAsync(a, a0, bytes, cudaMemcpyDeviceToDevice, 0));
            if (v == 2) CK(cudaMemcpyAsync(b, b0, bbytes, cudaMemcpyDeviceToDevice, 0));
            START(e0);
            TK(lib<T>::factor(a, n, batch, info));
            if (v == 2) TK(lib<T>::solve(a, b, n, 1, batch));
        } else {
            CK(cudaMemcpyAsync(ac, a0, bytes, cudaMemcpyDeviceToDevice, 0));
            if (v == 3) CK(cudaMemcpyAsync(bc, b0, bbytes, cudaMemcpyDeviceToDevice, 0));
            START(e0);
            CS(lib<T>::potrf(h, n, pa, cinfo, batch));
            if (v == 3) CS(lib<T>::potrs(h, n, pa, pb, cinfo_s, batch));
        }
        if (e1) CK(cudaEventRecord(e1, 0));
        return 0;
    };
    enum { NV = 11 };
#define CHOL_BENCH_EACH_V(v) for (int v = 0; v < NV; ++v) if (v != 4 || nv == 5)
    for (int w = 0; w < o.warmup; ++w)
        CHOL_BENCH_EACH_V(v) if (launch(v, 0, 0)) return 1;
    CK(cudaDeviceSynchronize());
    std::vector<float> ms[NV];
    {
        std::vector<cudaEvent_t> ev(2 * NV * (size_t)o.iters);
        for (auto &e : ev) CK(cudaEventCreate(&e));
        for (int it = 0; it < o.iters; ++it)
            CHOL_BENCH_EACH_V(v) if (launch(v, ev[2 * NV * it + 2 * v], ev[2 * NV * it + 2 * v + 1])) return 1;
        CK(cudaDeviceSynchronize());
        TK(tile_synchronize(TILE_GPU(0)));
        for (int it = 0; it < o.iters; ++it)
            CHOL_BENCH_EACH_V(v) {
                float t = 0;
                CK(cudaEventElapsedTime(&t, ev[2 * NV * it + 2 * v], ev[2 * NV * it + 2 * v + 1]));
                ms[v].push_back(t);
            }
        for (auto &e : ev) CK(cudaEventDestroy(e));
    }
    /* the last round's results (a holds L from variant 2, b its x; variant 10's
     * potrs rewrote bc from b0, so cinfo_s is its status) */
    bool ok = true;
    {
        std::vector<int> hi(batch), hc(batch);
        int hs = 0;
        CK(cudaMemcpy(hi.data(), info, sizeof(int) * batch, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hc.data(), cinfo, sizeof(int) * batch, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&hs, cinfo_s, sizeof(int), cudaMemcpyDeviceToHost));
        long nz = 0, cnz = 0;
        for (int i = 0; i < batch; ++i) nz += hi[i] != 0, cnz += hc[i] != 0;
        ok = ok && nz == 0 && cnz == 0 && hs == 0;
        std::vector<T> hl(nn), ha(nn), hx(n), hb(n);
        const int ms_[3] = {0, batch / 2, batch - 1};
        double worst = 0, worstx = 0;
        long upper = 0; /* nonzero entries above the diagonal: must be none */
        for (int q = 0; q < 3; ++q) {
            const size_t off = nn * ms_[q];
            CK(cudaMemcpy(hl.data(), a + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(ha.data(), a0 + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hx.data(), b + (size_t)n * ms_[q], n * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hb.data(), b0 + (size_t)n * ms_[q], n * sizeof(T), cudaMemcpyDeviceToHost));
            double num = 0, den = 0, an = 0, rn = 0, xn = 0, bn = 0;
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j) upper += hl[(size_t)i * n + j] != (T)0;
            for (int i = 0; i < n; ++i) {
                double ax = 0;
                for (int j = 0; j < n; ++j) {
                    const double aij = (double)ha[(size_t)(i > j ? i : j) * n + (i > j ? j : i)];
                    double s = 0;
                    for (int k = 0; k <= (i < j ? i : j); ++k) s += (double)hl[(size_t)i * n + k] * hl[(size_t)j * n + k];
                    num += (s - aij) * (s - aij);
                    den += aij * aij;
                    ax += aij * (double)hx[j];
                }
                rn += (ax - hb[i]) * (ax - hb[i]);
                xn += (double)hx[i] * hx[i];
                bn += (double)hb[i] * hb[i];
            }
            an = sqrt(den);
            const double res = sqrt(num / den), resx = sqrt(rn) / (an * sqrt(xn) + sqrt(bn));
            worst = res > worst || res != res ? res : worst;
            worstx = resx > worstx || resx != resx ? resx : worstx;
        }
        const double tol = sizeof(T) == 4 ? 1e-5 : 1e-13;
        ok = ok && worst <= tol && worstx <= tol && upper == 0;
        printf("check %s n=%-3d info != 0: tile %ld, cuSOLVER %ld (+potrs %d); residual LL^T %.2e, Ax-b %.2e (tol %.0e); "
               "tile upper != 0: %ld: %s\n",
               lib<T>::name(), n, nz, cnz, hs, worst, worstx, tol, upper, ok ? "ok" : "FAIL");
    }
    /* the candidate path's output (variant 4): info, residual, upper triangle, and
     * equal to the default path's L within the tolerance */
    r->alt_ok = true;
    r->alt_name = path_name(lib<T>::alt_path(n));
    if (nv == 5) {
        std::vector<int> hi(batch);
        CK(cudaMemcpy(hi.data(), ainfo, sizeof(int) * batch, cudaMemcpyDeviceToHost));
        long nz = 0, upper = 0;
        for (int i = 0; i < batch; ++i) nz += hi[i] != 0;
        std::vector<T> hl(nn), hd(nn), ha(nn);
        const int ms_[3] = {0, batch / 2, batch - 1};
        double worst = 0, diff = 0;
        for (int q = 0; q < 3; ++q) {
            const size_t off = nn * ms_[q];
            CK(cudaMemcpy(hl.data(), aa + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hd.data(), a + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(ha.data(), a0 + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            double num = 0, den = 0;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                    if (j > i) upper += hl[(size_t)i * n + j] != (T)0;
                    const double aij = (double)ha[(size_t)(i > j ? i : j) * n + (i > j ? j : i)];
                    double s = 0;
                    for (int k = 0; k <= (i < j ? i : j); ++k) s += (double)hl[(size_t)i * n + k] * hl[(size_t)j * n + k];
                    num += (s - aij) * (s - aij);
                    den += aij * aij;
                    const double g = (double)hl[(size_t)i * n + j], w = (double)hd[(size_t)i * n + j];
                    const double e = fabs(g - w) / (1 + fabs(w));
                    diff = e > diff || e != e ? e : diff;
                }
            const double res = sqrt(num / den);
            worst = res > worst || res != res ? res : worst;
        }
        const double tol = sizeof(T) == 4 ? 1e-5 : 1e-13;
        r->alt_ok = nz == 0 && worst <= tol && diff <= tol * 10 && upper == 0;
        printf("check %s n=%-3d %s path: info != 0: %ld; residual LL^T %.2e (tol %.0e); max |L - L_default| / (1 + |L|) "
               "%.2e; upper != 0: %ld: %s\n",
               lib<T>::name(), n, r->alt_name, nz, worst, tol, diff, upper, r->alt_ok ? "ok" : "FAIL");
    }
    /* the lower call's output (variant 6): info and L bit for bit the default's
     * (variant 2's a), the strictly upper triangle bit for bit the input's */
    {
        std::vector<int> hi(batch), hd(batch);
        CK(cudaMemcpy(hi.data(), linfo, sizeof(int) * batch, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hd.data(), info, sizeof(int) * batch, cudaMemcpyDeviceToHost));
        long infobad = 0, lbad = 0, ubad = 0;
        for (int i = 0; i < batch; ++i) infobad += hi[i] != hd[i];
        std::vector<T> hl(nn), hdl(nn), ha(nn);
        const int ms_[3] = {0, batch / 2, batch - 1};
        for (int q = 0; q < 3; ++q) {
            const size_t off = nn * ms_[q];
            CK(cudaMemcpy(hl.data(), al + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hdl.data(), a + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(ha.data(), a0 + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            for (size_t e = 0; e < nn; ++e) {
                const bool up = e % n > e / n;
                if (up) ubad += memcmp(&hl[e], &ha[e], sizeof(T)) != 0;
                else lbad += memcmp(&hl[e], &hdl[e], sizeof(T)) != 0;
            }
        }
        r->lo_ok = infobad == 0 && lbad == 0 && ubad == 0;
        printf("check %s n=%-3d lower call: info != default's: %ld; L != default's L: %ld; upper != input: %ld: %s\n",
               lib<T>::name(), n, infobad, lbad, ubad, r->lo_ok ? "ok" : "FAIL");
    }
    /* the warp kernel's x (variants 2 and 8) against the tile kernel's (7, 9)
     * within the tolerance, and the tile kernel's residual (variant 2's is
     * checked above) */
    {
        std::vector<T> hx7(n), hx8(n), hxt(n), hx9(n), hb(n), ha(nn);
        const int ms_[3] = {0, batch / 2, batch - 1};
        double diff = 0, worstx = 0;
        for (int q = 0; q < 3; ++q) {
            const size_t vo = (size_t)n * ms_[q], off = nn * ms_[q];
            CK(cudaMemcpy(hx7.data(), b7 + vo, n * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hx8.data(), b8 + vo, n * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hxt.data(), b + vo, n * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hx9.data(), b9 + vo, n * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hb.data(), b0 + vo, n * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(ha.data(), a0 + off, nn * sizeof(T), cudaMemcpyDeviceToHost));
            double rn = 0, an = 0, xn = 0, bn = 0;
            for (int i = 0; i < n; ++i) {
                const double d7 = fabs((double)hx7[i] - hxt[i]) / (1 + fabs((double)hxt[i]));
                const double d8 = fabs((double)hx8[i] - hx9[i]) / (1 + fabs((double)hx9[i]));
                diff = d7 > diff || d7 != d7 ? d7 : diff;
                diff = d8 > diff || d8 != d8 ? d8 : diff;
                double ax = 0;
                for (int j = 0; j < n; ++j) {
                    const double aij = (double)ha[(size_t)(i > j ? i : j) * n + (i > j ? j : i)];
                    ax += aij * (double)hx7[j];
                    an += aij * aij;
                }
                rn += (ax - hb[i]) * (ax - hb[i]);
                xn += (double)hx7[i] * hx7[i];
                bn += (double)hb[i] * hb[i];
            }
            const double resx = sqrt(rn) / (sqrt(an) * sqrt(xn) + sqrt(bn));
            worstx = resx > worstx || resx != resx ? resx : worstx;
        }
        const double tol = sizeof(T) == 4 ? 1e-5 : 1e-13;
        r->ws_ok = diff <= tol * 10 && worstx <= tol;
        printf("check %s n=%-3d warp solve: max |x - x_tile| / (1 + |x|) %.2e; Ax-b %.2e (tol %.0e): %s\n", lib<T>::name(), n,
               diff, worstx, tol, r->ws_ok ? "ok" : "FAIL");
    }
    r->ts_fs_us = stats(ms[7]).median * 1e3;
    r->ws_us = stats(ms[8]).median * 1e3;
    r->ts_us = stats(ms[9]).median * 1e3;
    r->potrs_us = stats(ms[10]).median * 1e3;
    r->lo_us = stats(ms[6]).median * 1e3;
    r->alt_us = nv == 5 ? stats(ms[4]).median * 1e3 : 0;
    r->type = lib<T>::name();
    r->n = n;
    r->tile_us = stats(ms[0]).median * 1e3;
    r->cus_us = stats(ms[1]).median * 1e3;
    r->tile_fs_us = stats(ms[2]).median * 1e3;
    r->cus_fs_us = stats(ms[3]).median * 1e3;
    r->floor_us = 2.0 * (double)bytes / (d2d_gbps * 1e9) * 1e6;
    r->copy_us = stats(ms[5]).median * 1e3;
    r->warp_us = 0;
    for (int q = 0; q < 5; ++q)
        if (NS[q] == n && sizeof(T) == 4) r->warp_us = WARP_MATHDX_US[q];
    r->ok = ok;
    CK(cudaFree(a0)); CK(cudaFree(a)); CK(cudaFree(ac)); CK(cudaFree(b0)); CK(cudaFree(b)); CK(cudaFree(bc));
    CK(cudaFree(aa)); CK(cudaFree(acp)); CK(cudaFree(ainfo)); CK(cudaFree(al)); CK(cudaFree(linfo));
    CK(cudaFree(a7)); CK(cudaFree(b7)); CK(cudaFree(b8)); CK(cudaFree(b9));
    CK(cudaFree(info)); CK(cudaFree(cinfo)); CK(cudaFree(cinfo_s)); CK(cudaFree(pa)); CK(cudaFree(pb));
    return 0;
}

/* the solve against the number of right-hand sides, to choose
 * TILE__CHOL_WSOLVE_MAXRHS: the tile solve and the warp solve alone on the
 * same L (n = 32 and 128, batch as the table), nrhs 1 ... 16, median of
 * iters; their x agree within the tolerance (checked on 3 matrices) */
template <class T>
static int solve_sweep(const Opts &o, int n, int batch, bool *ok) {
    static const int NR[5] = {1, 2, 4, 8, 16};
    const size_t nn = (size_t)n * n, bmax = (size_t)n * 16 * batch;
    T *l, *b0, *bt, *bw;
    CK(cudaMalloc(&l, nn * batch * sizeof(T)));
    CK(cudaMalloc(&b0, bmax * sizeof(T)));
    CK(cudaMalloc(&bt, bmax * sizeof(T)));
    CK(cudaMalloc(&bw, bmax * sizeof(T)));
    fill_spd<T><<<1024, 256>>>(l, n, (long long)(nn * batch), 4321u + (uint32_t)n);
    fill_vec<T><<<256, 256>>>(b0, (long long)bmax, 7u + (uint32_t)n);
    CK(cudaGetLastError());
    TK(lib<T>::factor(l, n, batch, nullptr));
    CK(cudaDeviceSynchronize());
    printf("%s N=%-3d nrhs:", lib<T>::name(), n);
    for (int q = 0; q < 5; ++q) {
        const int nrhs = NR[q];
        const size_t bb = (size_t)n * nrhs * batch * sizeof(T);
        std::vector<float> mt, mw;
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        for (int it = -o.warmup; it < o.iters; ++it)
            for (int v = 0; v < 2; ++v) {
                T *b = v ? bw : bt;
                CK(cudaMemcpyAsync(b, b0, bb, cudaMemcpyDeviceToDevice, 0));
                CK(cudaEventRecord(e0, 0));
                if (v) TK(lib<T>::wsolve(l, b, n, nrhs, batch));
                else TK(lib<T>::tsolve(l, b, n, nrhs, batch));
                CK(cudaEventRecord(e1, 0));
                CK(cudaEventSynchronize(e1));
                float t = 0;
                CK(cudaEventElapsedTime(&t, e0, e1));
                if (it >= 0) (v ? mw : mt).push_back(t);
            }
        CK(cudaEventDestroy(e0));
        CK(cudaEventDestroy(e1));
        std::vector<T> ht((size_t)n * nrhs), hw((size_t)n * nrhs);
        double diff = 0;
        const int ms_[3] = {0, batch / 2, batch - 1};
        for (int k = 0; k < 3; ++k) {
            CK(cudaMemcpy(ht.data(), bt + (size_t)n * nrhs * ms_[k], ht.size() * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hw.data(), bw + (size_t)n * nrhs * ms_[k], hw.size() * sizeof(T), cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < ht.size(); ++i) {
                const double d = fabs((double)hw[i] - ht[i]) / (1 + fabs((double)ht[i]));
                diff = d > diff || d != d ? d : diff;
            }
        }
        const bool good = diff <= (sizeof(T) == 4 ? 1e-4 : 1e-12);
        *ok = *ok && good;
        const double tt = stats(mt).median * 1e3, tw = stats(mw).median * 1e3;
        printf(" %d: tile %.1f / warp %.1f us (%.2f)%s", nrhs, tt, tw, tt / tw, good ? "" : " FAIL");
    }
    printf("\n");
    CK(cudaFree(l)); CK(cudaFree(b0)); CK(cudaFree(bt)); CK(cudaFree(bw));
    return 0;
}

static int run(const Opts &o) {
    BenchEnv env;
    if (bench_env(&env, "chol_bench", o)) return 1;
    const int batch = o.small ? 256 : 4096;
    if (const char *h = getenv("CHOL_BENCH_HOLD_US")) g_hold_ns = 1000LL * atoll(h);
    /* device-to-device copy bandwidth: 512 MiB (64 MiB with --small), median of iters */
    double d2d_gbps;
    {
        const size_t cb = o.small ? ((size_t)64 << 20) : ((size_t)512 << 20);
        void *s, *d;
        CK(cudaMalloc(&s, cb));
        CK(cudaMalloc(&d, cb));
        CK(cudaMemset(s, 0x3c, cb));
        for (int w = 0; w < 3; ++w) CK(cudaMemcpy(d, s, cb, cudaMemcpyDeviceToDevice));
        std::vector<float> ms;
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        for (int it = 0; it < 10; ++it) {
            CK(cudaEventRecord(e0, 0));
            CK(cudaMemcpyAsync(d, s, cb, cudaMemcpyDeviceToDevice, 0));
            CK(cudaEventRecord(e1, 0));
            CK(cudaEventSynchronize(e1));
            float t = 0;
            CK(cudaEventElapsedTime(&t, e0, e1));
            ms.push_back(t);
        }
        CK(cudaEventDestroy(e0));
        CK(cudaEventDestroy(e1));
        d2d_gbps = gbps(2.0 * (double)cb, stats(ms).median); /* read + write */
        CK(cudaFree(s));
        CK(cudaFree(d));
        printf("cudaMemcpy D2D: %.1f GB/s (read + write, %zu MiB)\n", d2d_gbps, cb >> 20);
    }
    cusolverDnHandle_t h;
    CS(cusolverDnCreate(&h));
    Row rows[10];
    int nr = 0;
    for (int t = 0; t < 2; ++t)
        for (int q = 0; q < 5; ++q) {
            const int e = t == 0 ? run_one<float>(o, h, NS[q], batch, d2d_gbps, &rows[nr])
                                 : run_one<double>(o, h, NS[q], batch, d2d_gbps, &rows[nr]);
            if (e) return 1;
            ++nr;
        }
    CS(cusolverDnDestroy(h));

    printf("\nbatch %d; times in us (median of %d)%s\n", batch, o.iters,
           g_hold_ns > 0 ? "; GPU time alone (CHOL_BENCH_HOLD_US: a spin kernel before each first event)" : "");
    printf("%-4s %4s %10s %10s %8s %10s %8s %12s %12s %8s %10s\n", "type", "N", "tile", "potrfB", "x cuSOL", "floor",
           "/floor", "tile f+s", "potrf+potrs", "x cuSOL", "WarpMathDx");
    bool all_ok = true, all_pass = true;
    for (int i = 0; i < nr; ++i) {
        const Row &r = rows[i];
        all_ok = all_ok && r.ok && r.alt_ok && r.lo_ok && r.ws_ok;
        printf("%-4s %4d %10.1f %10.1f %8.2f %10.1f %8.2f %12.1f %12.1f %8.2f %10.1f\n", r.type, r.n, r.tile_us,
               r.cus_us, r.cus_us / r.tile_us, r.floor_us, r.tile_us / r.floor_us, r.tile_fs_us, r.cus_fs_us,
               r.cus_fs_us / r.tile_fs_us, r.warp_us);
    }
    printf("(floor: the batch read and written once at the D2D bandwidth above; WarpMathDx: Warp 1.19 tile_cholesky,\n"
           " recorded on an H100, f32, batch 4096 - not measured here)\n");
    printf("the same bytes as one launch (a D2D copy of the batch, median; no target):\n");
    for (int i = 0; i < nr; ++i)
        printf("%-4s %4d copy %8.1f us, tile / copy %.2f, 4x cuSOLVER / copy %.2f\n", rows[i].type, rows[i].n, rows[i].copy_us,
               rows[i].tile_us / rows[i].copy_us, rows[i].cus_us / 4.0 / rows[i].copy_us);
    printf("the candidate path (the rows or blocked kernels, the one the default does not take at N; TILE_CHOL_ROWS = %d), "
           "factor only:\n", TILE_CHOL_ROWS);
    for (int i = 0; i < nr; ++i) {
        const Row &r = rows[i];
        if (r.alt_us > 0)
            printf("%-4s %4d %-7s %10.1f us, x cuSOLVER %.2f, /floor %.2f, default path / this %.2f\n", r.type, r.n, r.alt_name, r.alt_us,
                   r.cus_us / r.alt_us, r.alt_us / r.floor_us, r.tile_us / r.alt_us);
    }
    printf("tile_chol_batched_lower (cuSOLVER's contract: the lower triangle read and written, the strictly upper one\n"
           "untouched; the default call also stores its zeros), factor only:\n");
    for (int i = 0; i < nr; ++i) {
        const Row &r = rows[i];
        printf("%-4s %4d lower   %10.1f us, x cuSOLVER %.2f, default / lower %.2f\n", r.type, r.n, r.lo_us, r.cus_us / r.lo_us,
               r.tile_us / r.lo_us);
    }
    printf("the solve's two kernels at nrhs 1 (warp: a warp a matrix and column, L read by rows, the default for\n"
           "nrhs <= %d; tile: 16-column tiles, past it): the factor + the tile kernel (the default + the warp kernel\n"
           "is the table's factor+solve), and the solves alone on the same L (potrsB: cusolverDn{S,D}potrsBatched):\n",
           TILE__CHOL_WSOLVE_MAXRHS);
    for (int i = 0; i < nr; ++i) {
        const Row &r = rows[i];
        printf("%-4s %4d factor+tile solve %8.1f us, x potrf+potrs %.2f; solve alone: warp %7.1f, tile %7.1f, potrsB %7.1f us; "
               "warp x potrsB %.2f, tile / warp %.2f\n",
               r.type, r.n, r.ts_fs_us, r.cus_fs_us / r.ts_fs_us, r.ws_us, r.ts_us, r.potrs_us, r.potrs_us / r.ws_us,
               r.ts_us / r.ws_us);
    }
    printf("the solve's kernels alone against nrhs (tile / warp > 1: the warp kernel is faster; the default takes\n"
           "it for nrhs <= %d), batch %d:\n", TILE__CHOL_WSOLVE_MAXRHS, batch);
    {
        bool sw_ok = true;
        for (int t = 0; t < 2; ++t)
            for (int n : {32, 128})
                if (t == 0 ? solve_sweep<float>(o, n, batch, &sw_ok) : solve_sweep<double>(o, n, batch, &sw_ok)) return 1;
        all_ok = all_ok && sw_ok;
    }
    printf("correctness: %s\n", all_ok ? "PASS" : "FAIL");
    char label[160];
    for (int i = 0; i < nr; ++i) {
        const Row &r = rows[i];
        snprintf(label, sizeof label, "%s N=%d factor speedup vs cuSOLVER potrfBatched (>= 4x cuSOLVER)", r.type, r.n);
        all_pass &= print_target(label, r.cus_us / r.tile_us, ">=", 4.0, 2, r.ok);
        snprintf(label, sizeof label, "%s N=%d factor+solve speedup vs potrfBatched+potrsBatched", r.type, r.n);
        printf("%s = %.2f\n", label, r.cus_fs_us / r.tile_fs_us);
        if (r.type[1] == '3' && r.n >= 64) {
            snprintf(label, sizeof label, "%s N=%d time / memory floor (f32 within 1.6x of memory floor at N >= 64)", r.type, r.n);
            all_pass &= print_target(label, r.tile_us / r.floor_us, "<=", 1.6, 2, r.ok);
        }
        snprintf(label, sizeof label, "%s N=%d factor speedup vs cuSOLVER potrfBatched, lower call (cuSOLVER's contract)", r.type, r.n);
        printf("%s = %.2f\n", label, r.cus_us / r.lo_us);
        snprintf(label, sizeof label, "%s N=%d factor+solve speedup vs potrfBatched+potrsBatched, tile kernel (no target: nrhs > %d's)",
                 r.type, r.n, TILE__CHOL_WSOLVE_MAXRHS);
        printf("%s = %.2f\n", label, r.cus_fs_us / r.ts_fs_us);
        if (r.alt_us > 0) {
            snprintf(label, sizeof label, "%s N=%d factor speedup vs cuSOLVER potrfBatched, %s path (no target: not the default path)",
                     r.type, r.n, r.alt_name);
            printf("%s = %.2f\n", label, r.cus_us / r.alt_us);
        }
        if (r.warp_us > 0 && !o.small) {
            snprintf(label, sizeof label, "%s N=%d speedup vs Warp MathDx %.1f us (faster than Warp MathDx)", r.type, r.n, r.warp_us);
            all_pass &= print_target(label, r.warp_us / r.tile_us, ">=", 1.0, 2, r.ok);
        }
    }
    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,type,n,batch,tile_us,potrf_us,speedup,floor_us,tile_over_floor,tile_fs_us,potrf_potrs_us,fs_speedup,warp_mathdx_us,correct,other_path_us\n");
        for (int i = 0; i < nr; ++i) {
            const Row &r = rows[i];
            fprintf(f, "%s,%s,\"%s\",%s,%d,%d,%.2f,%.2f,%.3f,%.2f,%.3f,%.2f,%.2f,%.3f,%.1f,%s,%.2f\n", env.date, env.commit,
                    env.prop.name, r.type, r.n, batch, r.tile_us, r.cus_us, r.cus_us / r.tile_us, r.floor_us,
                    r.tile_us / r.floor_us, r.tile_fs_us, r.cus_fs_us, r.cus_fs_us / r.tile_fs_us, r.warp_us,
                    r.ok && r.alt_ok ? "PASS" : "FAIL", r.alt_us);
        }
        if (csv_close(f, o.csv)) return 1;
    }
    if (!all_ok) return 1;
    if (o.strict && !all_pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 20, 3); }
