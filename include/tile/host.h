/* tile/host.h - the whole host API (docs/host.md): whole-array linear algebra
 * and FFTs outside kernels, on the GPU through cuBLAS / cuSOLVER / cuFFT (or
 * an in-kernel tile path where that is faster) and on the CPU through the
 * library's own implementations.
 *
 *   #include <tile/host.h>     // instead of (or after) <tile.h>
 *   tile/host/common.h         tile_exec checks, tile_host_last_status/_call, gates
 *   tile/host/blas.h           tile_gemm_*, tile_gemm_strided_batched_*
 *   tile/host/solver.h         tile_potrf_batched_*, tile_potrs_batched_*
 *   tile/host/fft.h            tile_fft_c2c_*, _r2c_, _c2r_, 2D, plan cache
 *
 * Link with -lcublas -lcusolver -lcufft under nvcc (CMake: tile::host), or
 * define TILE_NO_CUBLAS / TILE_NO_CUSOLVER / TILE_NO_CUFFT first to drop a
 * library (its GPU calls then return TILE_ERR_DISABLED). Only the libraries
 * whose calls a program makes are referenced at link time. A plain C11 build
 * needs none of them (GPU calls return TILE_ERR_NO_CUDA).
 */
#ifndef TILE_HOST_H
#define TILE_HOST_H

#include "host/common.h"
#include "host/blas.h"
#include "host/solver.h"
#include "host/fft.h"

/* Destroy the calling thread's cuBLAS and cuSOLVER handles, its cached
 * solver buffers and its cuFFT plans (every GPU); the next GPU call creates
 * what it needs again. Call it before a thread that used the host API ends,
 * when none of its calls is in flight.
 *   tile_gemm_f32(tile_gpu(0), ...);   // creates GPU 0's cuBLAS handle
 *   tile_host_release();               // destroys it */
TILE_HOST_API void tile_host_release(void) {
    tile_blas_release();
    tile_solver_release();
    tile_fft_release_plans();
}

#endif /* TILE_HOST_H */
