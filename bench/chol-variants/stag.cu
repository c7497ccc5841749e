/* f64 n = 128: the time of tile_chol_batched_f64 / _lower_f64 against the batch and the nb = 8 kernel's
 * stagger (include/tile/chol_batched.h, TILE__CHOL_STAG): a TILE__CHOL_STAG_VAR build, the wait from the
 * device variable tile__chol_stag_ns; median of 15 after 3, a restore copy outside the events. sm_90 only
 * (the stagger's arch). Build: nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude -I. bench/chol-variants/stag.cu */
#define TILE__CHOL_STAG_VAR 1
#include <tile.h>
#include "bench/bench_util.h"
#include <vector>
#include <algorithm>
__global__ void fill(double *a, long long total) {
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long m = e / 16384;
        const int r = (int)(e / 128 % 128), c = (int)(e % 128);
        const int i = r > c ? r : c, j = r > c ? c : r;
        const double u = 2.0 * tile_hash_unit(7u, (uint32_t)(m * 16411 + i * 131 + j)) - 1.0;
        a[e] = i == j ? 129.0 + u : u;
    }
}
__global__ void nsmid(unsigned *o) { unsigned v; asm("mov.u32 %0, %%nsmid;" : "=r"(v)); *o = v; }
int main() {
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned *d, h;
    CK(cudaMalloc(&d, 4)); nsmid<<<1, 1>>>(d); CK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
    printf("SMs %d, %%nsmid %u\n", sms, h);
    const int bmax = 4752;
    const size_t bytes = (size_t)bmax * 16384 * 8;
    double *a0, *a; int *info;
    CK(cudaMalloc(&a0, bytes)); CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&info, 4 * bmax));
    fill<<<1024, 256>>>(a0, (long long)bmax * 16384);
    CK(cudaDeviceSynchronize());
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    const int bs[] = {132, 264, 396, 792, 1188, 1584, 2376, 3168, 3960, 4096, 4752};
    const unsigned ds[] = {0, 6000, 8000, 9000, 10000, 11000, 12000, 13000};
    for (int lo = 0; lo < 2; ++lo)
        for (unsigned dn : ds) {
            CK(cudaMemcpyToSymbol(tile__chol_stag_ns, &dn, sizeof dn));
            printf("%s wait %5u ns:", lo ? "lower  " : "default", dn);
            for (int b : bs) {
                std::vector<float> ms;
                for (int it = 0; it < 18; ++it) {
                    CK(cudaMemcpyAsync(a, a0, (size_t)b * 16384 * 8, cudaMemcpyDeviceToDevice, 0));
                    CK(cudaEventRecord(e0, 0));
                    TK(lo ? tile_chol_batched_lower_f64(TILE_GPU(0), a, 128, b, info) : tile_chol_batched_f64(TILE_GPU(0), a, 128, b, info));
                    CK(cudaEventRecord(e1, 0));
                    CK(cudaEventSynchronize(e1));
                    float t; CK(cudaEventElapsedTime(&t, e0, e1));
                    if (it >= 3) ms.push_back(t);
                }
                std::sort(ms.begin(), ms.end());
                printf(" %d:%.1f", b, ms[ms.size() / 2] * 1e3);
            }
            printf("\n");
            fflush(stdout);
        }
    return 0;
}
