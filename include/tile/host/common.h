/* tile/host/common.h - what every host-API header in tile/host/ shares.
 *
 * The host API works on whole arrays, outside kernels. Each call takes a
 * tile_exec (launch.h): tile_gpu(n) runs it on GPU n, on the exec's stream,
 * through cuBLAS / cuFFT / cuSOLVER (or an in-kernel tile path where that is
 * faster); tile_cpu() runs the library's own CPU implementation on host
 * arrays. Pointers are device pointers for a GPU exec and host pointers for
 * the CPU. Every call returns a tile_error code (smem.h), never exits; after a
 * TILE_ERR_CUBLAS / _CUFFT / _CUSOLVER, tile_host_last_status() is the
 * library's own status code and tile_host_last_call() names the call.
 *
 * Builds: plain C11 (the CPU path only: a GPU exec returns TILE_ERR_NO_CUDA),
 * nvcc (both; link -lcublas -lcufft -lcusolver, or CMake's tile::host). A
 * program that does not include tile/host/ links nothing extra. Define
 * TILE_NO_CUBLAS, TILE_NO_CUFFT or TILE_NO_CUSOLVER before including to drop
 * that dependency: its GPU calls then return TILE_ERR_DISABLED (the CPU path
 * stays).
 *
 * Library handles are created on first use, one per GPU (up to
 * TILE_HOST_MAX_DEVICES), per host thread (thread_local: handles must not be
 * shared by concurrent host threads) and per translation unit (the headers
 * define everything static); tile_host_release() destroys the calling
 * thread's handles (tile/host.h; tile_blas_release, tile_solver_release and the
 * tile_fft_release_plans free one library's).
 */
#ifndef TILE_HOST_COMMON_H
#define TILE_HOST_COMMON_H

#include "../../tile.h"
#include <string.h>

#if TILE_CUDA
#include <cuda_runtime.h>
#endif
/* 1 where the GPU path of each library is compiled in. */
#if TILE_CUDA && !defined(TILE_NO_CUBLAS)
#define TILE_HOST_CUBLAS 1
#else
#define TILE_HOST_CUBLAS 0
#endif
#if TILE_CUDA && !defined(TILE_NO_CUFFT)
#define TILE_HOST_CUFFT 1
#else
#define TILE_HOST_CUFFT 0
#endif
#if TILE_CUDA && !defined(TILE_NO_CUSOLVER)
#define TILE_HOST_CUSOLVER 1
#else
#define TILE_HOST_CUSOLVER 0
#endif

#ifndef TILE_HOST_MAX_DEVICES
#define TILE_HOST_MAX_DEVICES 16
#endif

/* Per-thread storage for handles and the last status (C11 / C++11 spelling). */
#if defined(__cplusplus)
#define TILE__THREAD_LOCAL thread_local
#else
#define TILE__THREAD_LOCAL _Thread_local
#endif

static TILE__THREAD_LOCAL int tile__host_status;
static TILE__THREAD_LOCAL const char *tile__host_call = "";

/* The library status behind the last TILE_ERR_CUBLAS / _CUFFT / _CUSOLVER
 * (cublasStatus_t, cufftResult or cusolverStatus_t as an int; for
 * TILE_ERR_CUDA the cudaError_t), and the name of the call that returned it.
 *   suppose cublasSgemm returned CUBLAS_STATUS_INVALID_VALUE (7):
 *   tile_host_last_status() -> 7, tile_host_last_call() -> "cublasSgemm" */
TILE_HOST_API int tile_host_last_status(void) { return tile__host_status; }
TILE_HOST_API const char *tile_host_last_call(void) { return tile__host_call; }

/* Record a failed library call and return its tile_error code. */
TILE_HOST_API int tile__host_fail(int err, int status, const char *call) {
    tile__host_status = status;
    tile__host_call = call;
    return err;
}

#if TILE_CUDA
/* Make GPU n current for a host call; TILE_ERR_DEVICE if it does not exist. */
TILE_HOST_API int tile__host_set_device(int n) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) return tile__host_fail(TILE_ERR_DEVICE, (int)e, "cudaGetDeviceCount");
    if (n < 0 || n >= count || n >= TILE_HOST_MAX_DEVICES) return TILE_ERR_DEVICE;
    e = cudaSetDevice(n);
    if (e != cudaSuccess) return tile__host_fail(TILE_ERR_CUDA, (int)e, "cudaSetDevice");
    return TILE_OK;
}
#endif

/* Validate the exec of a host call: TILE_OK for the CPU or an existing GPU
 * (made current), TILE_ERR_NO_CUDA for a GPU in a C11 build. */
TILE_HOST_API int tile__host_exec(tile_exec ex) {
    if (ex.device < 0) return TILE_OK;
#if TILE_CUDA
    return tile__host_set_device(ex.device);
#else
    return TILE_ERR_NO_CUDA;
#endif
}

#endif /* TILE_HOST_COMMON_H */
