/* The batched factor's time against the batch and the blocked kernels' stagger (include/tile/chol_batched.h,
 * TILE__CHOL_STAG): a TILE__CHOL_STAG_VAR build, where every staggered kernel takes its wait from the device
 * variable tile__chol_stag_ns. Each line: one type and N (so one kernel), one wait, the default call (and for
 * f64 N = 128 the lower call), median of 15 after 3, a restore copy outside the events. sm_90 only (the
 * stagger's arch). Build: nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude -I. bench/chol-variants/stag.cu */
#define TILE__CHOL_STAG_VAR 1
#include <tile.h>
#include "bench/bench_util.h"
#include <vector>
#include <algorithm>
template <class T> __global__ void fill(T *a, int n, long long total) {
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long m = e / ((long long)n * n);
        const int r = (int)(e / n % n), c = (int)(e % n);
        const int i = r > c ? r : c, j = r > c ? c : r;
        const double u = 2.0 * tile_hash_unit(7u, (uint32_t)(m * 16411 + i * 131 + j)) - 1.0;
        a[e] = (T)(i == j ? n + 1.0 + u : u);
    }
}
static int fac(float *a, int n, int b, int *info, int lo) {
    return lo ? tile_chol_batched_lower_f32(TILE_GPU(0), a, n, b, info) : tile_chol_batched_f32(TILE_GPU(0), a, n, b, info);
}
static int fac(double *a, int n, int b, int *info, int lo) {
    return lo ? tile_chol_batched_lower_f64(TILE_GPU(0), a, n, b, info) : tile_chol_batched_f64(TILE_GPU(0), a, n, b, info);
}
template <class T> static int one(int n, int lo, const unsigned *ds, int nd) {
    const int bs[] = {792, 1584, 3168, 4096, 4752}, nb = 5, bmax = 4752;
    const size_t nn = (size_t)n * n, bytes = nn * bmax * sizeof(T);
    T *a0, *a;
    int *info;
    CK(cudaMalloc(&a0, bytes)); CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&info, 4 * bmax));
    fill<T><<<1024, 256>>>(a0, n, (long long)(nn * bmax));
    CK(cudaDeviceSynchronize());
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    for (int q = 0; q < nd; ++q) {
        CK(cudaMemcpyToSymbol(tile__chol_stag_ns, &ds[q], sizeof ds[q]));
        printf("%s n=%3d %s wait %5u ns:", sizeof(T) == 4 ? "f32" : "f64", n, lo ? "lower  " : "default", ds[q]);
        for (int k = 0; k < nb; ++k) {
            std::vector<float> ms;
            for (int it = 0; it < 18; ++it) {
                CK(cudaMemcpyAsync(a, a0, nn * bs[k] * sizeof(T), cudaMemcpyDeviceToDevice, 0));
                CK(cudaEventRecord(e0, 0));
                TK(fac(a, n, bs[k], info, lo));
                CK(cudaEventRecord(e1, 0));
                CK(cudaEventSynchronize(e1));
                float t; CK(cudaEventElapsedTime(&t, e0, e1));
                if (it >= 3) ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            printf(" %d:%.1f", bs[k], ms[ms.size() / 2] * 1e3);
        }
        printf("\n");
        fflush(stdout);
    }
    CK(cudaFree(a0)); CK(cudaFree(a)); CK(cudaFree(info));
    return 0;
}
int main() {
    const unsigned d64[] = {0, 6000, 8000, 10000}, dsm[] = {0, 1500, 2000, 3000, 4000, 5000, 6000, 7000, 8000};
    if (one<double>(128, 0, d64, 4) || one<double>(128, 1, d64, 4)) return 1;
    if (one<double>(92, 0, dsm, 9) || one<float>(128, 0, dsm, 9) || one<float>(92, 0, dsm, 9) || one<double>(92, 1, dsm, 9)) return 1;
    return 0;
}
