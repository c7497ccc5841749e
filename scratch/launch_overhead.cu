// scratch: host cost of tile_launch vs a raw launch, and whether short kernels'
// event times include it (batched Cholesky n = 16 / 32)
#include <tile.h>
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>

TILE_KERNEL(empty_k, 32, int *p) {
    if (p && tile_thread() == 0) p[tile_block(0)] = 1;
}
__global__ void raw_k(int *p) {
    if (p && threadIdx.x == 0) p[blockIdx.x] = 1;
}
static double now_us() {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
__global__ void fill_spd(float *a, int n, int batch) {
    size_t tot = (size_t)n * n * batch;
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < tot; e += (size_t)gridDim.x * blockDim.x) {
        int i = (int)(e / n % n), j = (int)(e % n);
        a[e] = i == j ? (float)n + 1.0f : 0.5f / (1.0f + (float)((i + j) % 7));
    }
}
int main() {
    const int R = 2000;
    int *p;
    cudaMalloc(&p, 4096 * 4);
    const tile_exec ex = TILE_GPU(0);
    for (int i = 0; i < 100; ++i) { raw_k<<<64, 32>>>(p); tile_launch(ex, empty_k, tile_grid1(64), 32, p); }
    cudaDeviceSynchronize();
    double t0 = now_us();
    for (int i = 0; i < R; ++i) raw_k<<<64, 32>>>(p);
    double t1 = now_us();
    cudaDeviceSynchronize();
    double t2 = now_us();
    for (int i = 0; i < R; ++i) tile_launch(ex, empty_k, tile_grid1(64), 32, p);
    double t3 = now_us();
    cudaDeviceSynchronize();
    printf("host us per launch: raw %.2f, tile_launch %.2f\n", (t1 - t0) / R, (t3 - t2) / R);
    // individual host calls
    cudaFuncAttributes fa;
    double a0 = now_us();
    for (int i = 0; i < R; ++i) cudaFuncGetAttributes(&fa, (const void *)raw_k);
    double a1 = now_us();
    int n = 0, dev = 0, v = 0;
    for (int i = 0; i < R; ++i) cudaGetDeviceCount(&n);
    double a2 = now_us();
    for (int i = 0; i < R; ++i) cudaGetDevice(&dev);
    double a3 = now_us();
    for (int i = 0; i < R; ++i) cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    double a4 = now_us();
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int i = 0; i < R; ++i) cudaEventRecord(e0, 0);
    double a5 = now_us();
    printf("host us per call: cudaFuncGetAttributes %.3f, cudaGetDeviceCount %.3f, cudaGetDevice %.3f, "
           "cudaDeviceGetAttribute %.3f, cudaEventRecord %.3f\n",
           (a1 - a0) / R, (a2 - a1) / R, (a3 - a2) / R, (a4 - a3) / R, (a5 - a4) / R);
    cudaDeviceSynchronize();
    // batched Cholesky: per-launch events (as chol_bench) vs one event pair around 200 launches
    for (int nn : {16, 32, 64}) {
        const int batch = 4096;
        float *a;
        cudaMalloc(&a, sizeof(float) * nn * nn * batch);
        int *info;
        cudaMalloc(&info, sizeof(int) * batch);
        std::vector<float> ms;
        for (int it = 0; it < 30; ++it) {
            fill_spd<<<256, 256>>>(a, nn, batch);
            cudaEventRecord(e0, 0);
            tile_chol_batched_f32(ex, a, nn, batch, info);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            float t;
            cudaEventElapsedTime(&t, e0, e1);
            ms.push_back(t * 1000);
        }
        std::sort(ms.begin(), ms.end());
        // enqueue-ahead: events around each launch, host runs ahead (as bench_util time_interleaved)
        std::vector<cudaEvent_t> ev(400);
        for (auto &e : ev) cudaEventCreate(&e);
        fill_spd<<<256, 256>>>(a, nn, batch);
        for (int it = 0; it < 200; ++it) {
            cudaEventRecord(ev[2 * it], 0);
            tile_chol_batched_f32(ex, a, nn, batch, info); // refactoring a factor: same work shape (SPD L -> garbage ok)
            cudaEventRecord(ev[2 * it + 1], 0);
        }
        cudaDeviceSynchronize();
        std::vector<float> m2;
        for (int it = 0; it < 200; ++it) {
            float t;
            cudaEventElapsedTime(&t, ev[2 * it], ev[2 * it + 1]);
            m2.push_back(t * 1000);
        }
        std::sort(m2.begin(), m2.end());
        float tt;
        cudaEventElapsedTime(&tt, ev[0], ev[399]);
        printf("chol f32 n=%d: synced per-launch median %.1f us; enqueued-ahead per-launch median %.1f us (min %.1f); "
               "200 launches back to back %.1f us each\n",
               nn, ms[15], m2[100], m2[0], tt * 1000 / 200);
        for (auto &e : ev) cudaEventDestroy(e);
        cudaFree(a);
        cudaFree(info);
    }
    return 0;
}
