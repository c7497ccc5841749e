/* tile/host/blas.h - matrix products of whole arrays (host API): gemm and
 * strided batched gemm, f32 and f64, on the GPU through cuBLAS (or, for small
 * batched products, an in-kernel tile_matmul path) and on the CPU through the
 * library's own cache-blocked loops. See tile/host/common.h for the model
 * (tile_exec, error codes, handles) and docs/host.md.
 *
 *   int tile_gemm_f32(tile_exec ex, int transa, int transb, int m, int n, int k,
 *                     float alpha, const float *A, int lda, const float *B, int ldb,
 *                     float beta, float *C, int ldc);
 *   int tile_gemm_strided_batched_f32(tile_exec ex, int transa, int transb, int m, int n, int k,
 *                     float alpha, const float *A, int lda, long long strideA,
 *                     const float *B, int ldb, long long strideB, float beta,
 *                     float *C, int ldc, long long strideC, int batch);
 *   int tile_gemm_strided_batched_path_f32(tile_exec ex, int path, ...same...);
 *   (and _f64)
 *
 * Row-major, like the rest of the library: C = alpha op(A) op(B) + beta C with
 * op(A) m x k, op(B) k x n, C m x n; op(X) = X for TILE_OP_N and X^T for
 * TILE_OP_T. Row i of a stored matrix X starts at X + i * ldX, so
 *   A is m x k (lda >= k) for TILE_OP_N, k x m (lda >= m) for TILE_OP_T;
 *   B is k x n (ldb >= n) for TILE_OP_N, n x k (ldb >= k) for TILE_OP_T;
 *   C is m x n (ldc >= n).
 * beta == 0: C is not read (NaN in C does not propagate), as in BLAS; k == 0
 * or alpha == 0: C = beta C and A, B are not read. Batch i uses
 * A + i strideA, B + i strideB, C + i strideC (strides >= 0; outputs must not
 * overlap: strideC >= (m - 1) ldc + n when batch > 1).
 *
 * How the GPU runs it: cuBLAS is column-major, and a row-major X is the
 * column-major X^T, so C^T = op(B)^T op(A)^T is one cublas{S,D}gemm with the
 * operands swapped: gemm(opB, opA, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc).
 * Strided batched products go to cublas{S,D}gemmStridedBatched, except f32,
 * no transposes and s = max(m, n, k) in TILE_HOST_GEMM_TILE_MIN .. 16 or in
 * TILE_HOST_GEMM_TILE32_MIN .. TILE_HOST_GEMM_TILE_MAX (TILE_PATH_AUTO): one
 * product per block of an in-kernel tile_matmul (16 x 16 or 32 x 32 shared
 * tiles, edges zero-padded), which bench/host_bench.cu measured faster than
 * cuBLAS there (the table below).
 *
 * Returns TILE_OK; TILE_ERR_ARG (a transpose flag other than TILE_OP_N /
 * TILE_OP_T, negative sizes, strides or batch, a leading dimension too small,
 * a null pointer that would be read or written, overlapping outputs, a path
 * the problem cannot take); TILE_ERR_NO_CUDA (GPU exec in a C11 build);
 * TILE_ERR_DISABLED (GPU exec with TILE_NO_CUBLAS); TILE_ERR_DEVICE;
 * TILE_ERR_CUBLAS (tile_host_last_status() is the cublasStatus_t,
 * tile_host_last_call() the call); TILE_ERR_NOMEM (CPU packing buffers);
 * TILE_ERR_CUDA (a kernel launch). The GPU calls are asynchronous on
 * ex.stream (tile_synchronize waits); the CPU calls are done on return.
 *
 * Suppose A = [[1 2] [3 4]], B = [[5 6] [7 8]], C = [[1 1] [1 1]]:
 *   tile_gemm_f32(tile_cpu(), TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 2, B, 2, 1.0f, C, 2)
 *     -> TILE_OK, C = [[20 23] [44 51]]
 *   tile_gemm_f32(tile_cpu(), TILE_OP_T, TILE_OP_N, 2, 2, 2, 2.0f, A, 2, B, 2, 0.0f, C, 2)
 *     -> TILE_OK, C = 2 A^T B = [[52 60] [76 88]]
 *   tile_gemm_f32(tile_cpu(), TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 1, B, 2, 0.0f, C, 2)
 *     -> TILE_ERR_ARG (lda 1 < k 2)
 *   tile_gemm_strided_batched_f32(tile_cpu(), TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 2, 0, B, 2, 0,
 *                                 0.0f, C2, 2, 4, 2)
 *     -> TILE_OK, C2 = {19 22 43 50, 19 22 43 50} (strides 0: both products read A and B)
 */
#ifndef TILE_HOST_BLAS_H
#define TILE_HOST_BLAS_H

#include "common.h"
#include <stdlib.h>
#if TILE_HOST_CUBLAS
#include <cublas_v2.h>
#endif

/* Transpose flags of gemm. */
#define TILE_OP_N 0 /* op(X) = X */
#define TILE_OP_T 1 /* op(X) = X^T */

/* Path of a call that has two (batched gemm, potrf/potrs): TILE_PATH_AUTO
 * picks by size; TILE_PATH_TILE forces the in-kernel tile path and
 * TILE_PATH_LIBRARY the NVIDIA library (TILE_ERR_ARG where the problem cannot
 * take the path asked for). The CPU has one path and ignores it. */
#ifndef TILE_PATH_AUTO
#define TILE_PATH_AUTO 0
#define TILE_PATH_TILE 1
#define TILE_PATH_LIBRARY 2
#endif

/* The automatic batched gemm choice (f32, no transposes), by s = max(m, n, k):
 * in-kernel for TILE_HOST_GEMM_TILE_MIN <= s <= 16 (the 16 x 16 kernel) and
 * TILE_HOST_GEMM_TILE32_MIN <= s <= TILE_HOST_GEMM_TILE_MAX (the 32 x 32
 * kernel), cuBLAS otherwise. Measured on an H100 (bench/results/
 * 2026-11-25-h100-host-100ffaa-bench.txt and -chol-fft-a7e39e6-bench.txt,
 * square s x s x s, batch 2^25 / s^2, cuBLAS time / in-kernel time):
 *      s        8     12     16     20     24     28     30     31     32   48..128
 *   tile/cuB  1.87   2.28   2.36   0.70   0.76   0.89   0.92   0.94   1.20  (cuBLAS)
 * 17 .. 32 run the 32 x 32 kernel on zero-padded tiles: its time hardly
 * depends on s while cuBLAS's work is s^3, so the tile path wins only at
 * 32 itself. */
#ifndef TILE_HOST_GEMM_TILE_MAX
#define TILE_HOST_GEMM_TILE_MAX 32
#endif
/* the smallest s that goes in-kernel: the tile kernels pad to 16 x 16, but
 * s = 8 still measured 1.87x cuBLAS, so every s from 1 */
#ifndef TILE_HOST_GEMM_TILE_MIN
#define TILE_HOST_GEMM_TILE_MIN 1
#endif
/* the smallest s above 16 that goes to the 32 x 32 kernel (17 .. this - 1:
 * cuBLAS); 17 sends every s <= TILE_HOST_GEMM_TILE_MAX in-kernel */
#ifndef TILE_HOST_GEMM_TILE32_MIN
#define TILE_HOST_GEMM_TILE32_MIN 32
#endif
TILE__STATIC_ASSERT(TILE_HOST_GEMM_TILE32_MIN >= 17 && TILE_HOST_GEMM_TILE32_MIN <= 33,
                    "tile/host/blas.h: TILE_HOST_GEMM_TILE32_MIN must be 17..33");
TILE__STATIC_ASSERT(TILE_HOST_GEMM_TILE_MAX == 0 || TILE_HOST_GEMM_TILE_MAX == 16 || TILE_HOST_GEMM_TILE_MAX == 32,
                    "tile/host/blas.h: TILE_HOST_GEMM_TILE_MAX must be 0, 16 or 32");

/* ---- helpers shared by the host-API headers (blas.h, solver.h) ---- */
#ifndef TILE__HOST_HELPERS
#define TILE__HOST_HELPERS
/* Under nvcc the calls that launch kernels are function templates with one
 * defaulted parameter (called like C functions): a template is instantiated
 * only where it is called, so a translation unit that includes the header
 * without calling them compiles none of their kernels (as chol_batched.h). */
#if TILE_CUDA
#define TILE__HOST_LAZY template <int tile__lazy = 0>
#else
#define TILE__HOST_LAZY
#endif
#if defined(__cplusplus)
#define TILE__HRESTRICT __restrict__
#else
#define TILE__HRESTRICT restrict
#endif
#if TILE_CUDA
/* Make ex's GPU current for a call and remember the caller's (restored by
 * tile__host_leave): host calls leave the current device as they found it. */
TILE_HOST_API int tile__host_enter(tile_exec ex, int *prev) {
    *prev = -1;
    if (cudaGetDevice(prev) != cudaSuccess) {
        cudaGetLastError();
        *prev = -1;
    }
    /* already current: it exists (saves two runtime calls a call; the small
     * batched paths are a few microseconds of GPU work) */
    if (ex.device >= 0 && ex.device == *prev && ex.device < TILE_HOST_MAX_DEVICES) return TILE_OK;
    return tile__host_exec(ex);
}
TILE_HOST_API int tile__host_leave(int prev, int err) {
    int cur = -1;
    if (prev >= 0 && cudaGetDevice(&cur) == cudaSuccess && cur != prev) cudaSetDevice(prev);
    return err;
}
/* a failed CUDA runtime call: TILE_ERR_CUDA, tile_last_cuda_error() and
 * tile_host_last_status() are its code */
TILE_HOST_API int tile__host_cuda_fail(cudaError_t e, const char *call) {
    tile__cuda_err = (int)e;
    return tile__host_fail(TILE_ERR_CUDA, (int)e, call);
}
/* grow a cached device buffer to `bytes` (cudaFree waits for the device) */
TILE_HOST_API int tile__host_dgrow(void **p, size_t *cap, size_t bytes) {
    if (*cap >= bytes && *p) return TILE_OK;
    if (*p) cudaFree(*p);
    *p = 0;
    *cap = 0;
    cudaError_t e = cudaMalloc(p, bytes ? bytes : 16);
    if (e != cudaSuccess) {
        *p = 0;
        return tile__host_cuda_fail(e, "cudaMalloc");
    }
    *cap = bytes;
    return TILE_OK;
}
#endif
#endif /* TILE__HOST_HELPERS */

/* ---- argument checks ---- */
TILE_HOST_API int tile__gemm_check(int ta, int tb, int m, int n, int k, const void *A, int lda, const void *B, int ldb,
                                   const void *C, int ldc) {
    if ((ta != TILE_OP_N && ta != TILE_OP_T) || (tb != TILE_OP_N && tb != TILE_OP_T)) return TILE_ERR_ARG;
    if (m < 0 || n < 0 || k < 0) return TILE_ERR_ARG;
    const int acols = ta ? m : k, bcols = tb ? k : n;
    if (lda < (acols > 1 ? acols : 1) || ldb < (bcols > 1 ? bcols : 1) || ldc < (n > 1 ? n : 1)) return TILE_ERR_ARG;
    if (m > 0 && n > 0 && !C) return TILE_ERR_ARG;
    if (m > 0 && n > 0 && k > 0 && (!A || !B)) return TILE_ERR_ARG;
    return TILE_OK;
}
TILE_HOST_API int tile__gemm_check_batch(int m, int n, int ldc, long long sa, long long sb, long long sc, int batch) {
    if (sa < 0 || sb < 0 || sc < 0 || batch < 0) return TILE_ERR_ARG;
    if (batch > 1 && m > 0 && n > 0 && sc < (long long)(m - 1) * ldc + n) return TILE_ERR_ARG;
    return TILE_OK;
}

/* ---- CPU: cache-blocked gemm ----
 * op(B) is packed in KC x NC panels (row-major, contiguous rows), alpha op(A)
 * in MC x KC blocks; the inner kernel updates 4 rows of C at once from one
 * packed row of B (each B element loaded once for 4 rows, the j loop
 * contiguous and vectorizable). f32 accumulates in f32, like cuBLAS. */
#define TILE__HG_MC 64
#define TILE__HG_KC 128
#define TILE__HG_NC 512
#define TILE__HGEMM_CPU(sfx, T)                                                    \
    TILE_HOST_API void tile__gemm_cpu_##sfx(int ta, int tb, int m, int n, int k, T alpha, const T *A, int lda, \
                                            const T *B, int ldb, T beta, T *C, int ldc, T *pa, T *pb) { \
        for (int i = 0; i < m; ++i) {                                              \
            T *c = C + (size_t)i * ldc;                                            \
            if (beta == (T)0)                                                      \
                for (int j = 0; j < n; ++j) c[j] = (T)0;                           \
            else if (beta != (T)1)                                                 \
                for (int j = 0; j < n; ++j) c[j] *= beta;                          \
        }                                                                          \
        if (alpha == (T)0 || k == 0) return;                                       \
        for (int jc = 0; jc < n; jc += TILE__HG_NC) {                              \
            const int nc = n - jc < TILE__HG_NC ? n - jc : TILE__HG_NC;            \
            for (int pc = 0; pc < k; pc += TILE__HG_KC) {                          \
                const int kc = k - pc < TILE__HG_KC ? k - pc : TILE__HG_KC;        \
                for (int p = 0; p < kc; ++p)                                       \
                    for (int j = 0; j < nc; ++j)                                   \
                        pb[(size_t)p * nc + j] = tb ? B[(size_t)(jc + j) * ldb + pc + p] \
                                                    : B[(size_t)(pc + p) * ldb + jc + j]; \
                for (int ic = 0; ic < m; ic += TILE__HG_MC) {                      \
                    const int mc = m - ic < TILE__HG_MC ? m - ic : TILE__HG_MC;    \
                    for (int i = 0; i < mc; ++i)                                   \
                        for (int p = 0; p < kc; ++p)                               \
                            pa[(size_t)i * kc + p] = alpha * (ta ? A[(size_t)(pc + p) * lda + ic + i] \
                                                                 : A[(size_t)(ic + i) * lda + pc + p]); \
                    int i = 0;                                                     \
                    for (; i + 4 <= mc; i += 4) {                                  \
                        T *TILE__HRESTRICT c0 = C + (size_t)(ic + i) * ldc + jc;   \
                        T *TILE__HRESTRICT c1 = c0 + ldc;                          \
                        T *TILE__HRESTRICT c2 = c1 + ldc;                          \
                        T *TILE__HRESTRICT c3 = c2 + ldc;                          \
                        for (int p = 0; p < kc; ++p) {                             \
                            const T a0 = pa[(size_t)i * kc + p], a1 = pa[(size_t)(i + 1) * kc + p]; \
                            const T a2 = pa[(size_t)(i + 2) * kc + p], a3 = pa[(size_t)(i + 3) * kc + p]; \
                            const T *TILE__HRESTRICT b = pb + (size_t)p * nc;      \
                            for (int j = 0; j < nc; ++j) {                         \
                                const T bj = b[j];                                 \
                                c0[j] += a0 * bj;                                  \
                                c1[j] += a1 * bj;                                  \
                                c2[j] += a2 * bj;                                  \
                                c3[j] += a3 * bj;                                  \
                            }                                                      \
                        }                                                          \
                    }                                                              \
                    for (; i < mc; ++i) {                                          \
                        T *TILE__HRESTRICT c0 = C + (size_t)(ic + i) * ldc + jc;   \
                        for (int p = 0; p < kc; ++p) {                             \
                            const T a0 = pa[(size_t)i * kc + p];                   \
                            const T *TILE__HRESTRICT b = pb + (size_t)p * nc;      \
                            for (int j = 0; j < nc; ++j) c0[j] += a0 * b[j];       \
                        }                                                          \
                    }                                                              \
                }                                                                  \
            }                                                                      \
        }                                                                          \
    }                                                                              \
    /* the packing buffers of one call (NULL: TILE_ERR_NOMEM) */                  \
    TILE_HOST_API T *tile__gemm_cpu_buf_##sfx(void) {                              \
        return (T *)malloc(sizeof(T) * ((size_t)TILE__HG_MC * TILE__HG_KC + (size_t)TILE__HG_KC * TILE__HG_NC)); \
    }
TILE__HGEMM_CPU(f32, float)
TILE__HGEMM_CPU(f64, double)

/* ---- GPU: cuBLAS handles and the in-kernel small-product path ---- */
#if TILE_HOST_CUBLAS
static TILE__THREAD_LOCAL cublasHandle_t tile__cublas_h[TILE_HOST_MAX_DEVICES];

/* The calling thread's handle for ex's GPU (made current by
 * tile__host_enter), created on first use, set to ex's stream. */
TILE_HOST_API int tile__cublas_get(tile_exec ex, cublasHandle_t *out) {
    cublasHandle_t *h = &tile__cublas_h[ex.device];
    cublasStatus_t s;
    if (!*h) {
        s = cublasCreate(h);
        if (s != CUBLAS_STATUS_SUCCESS) {
            *h = 0;
            return tile__host_fail(TILE_ERR_CUBLAS, (int)s, "cublasCreate");
        }
    }
    s = cublasSetStream(*h, (cudaStream_t)ex.stream);
    if (s != CUBLAS_STATUS_SUCCESS) return tile__host_fail(TILE_ERR_CUBLAS, (int)s, "cublasSetStream");
    *out = *h;
    return TILE_OK;
}

/* One product C_i = alpha A_i B_i + beta C_i per block, any m, n, k <= S:
 * the operands go into S x S shared tiles through strided views (zeros past
 * the edges; 16-byte vector loads where rows and strides allow), then
 * tile_matmul_ab (FMA micro-tiles), then the store drops what lies outside
 * C. The block sizes are bench/matmul_bench.cu's (64 threads at 16, 128 at
 * 32). */
#define TILE__HGEMM_TILE_KERNEL(S, BD)                                             \
    TILE_KERNEL_SMEM(tile__hgemm##S##_k_f32, BD, 3 * TILE_SMEM_BYTES(float, S, S), const float *A, int64_t lda, \
                     int64_t sa, const float *B, int64_t ldb, int64_t sb, float *C, int64_t ldc, int64_t sc, int m, \
                     int n, int k, float alpha, float beta) {                      \
        const int64_t i = tile_block(0);                                           \
        tile_shared(float, a, S, S);                                               \
        tile_shared(float, b, S, S);                                               \
        tile_shared(float, c, S, S);                                               \
        const int64_t sha[2] = {m, k}, sta[2] = {lda, 1};                          \
        const int64_t shb[2] = {k, n}, stb[2] = {ldb, 1};                          \
        const int64_t shc[2] = {m, n}, stc[2] = {ldc, 1};                          \
        const tile_array gc = tile_array_strided(C + i * sc, 2, shc, stc);         \
        tile_load(a, tile_array_strided(A + i * sa, 2, sha, sta), 0, 0);           \
        tile_load(b, tile_array_strided(B + i * sb, 2, shb, stb), 0, 0);           \
        if (beta != 0.0f) tile_load(c, gc, 0, 0); /* beta 0: C is not read */      \
        tile_matmul_ab(c, a, b, alpha, beta);                                      \
        tile_store(gc, c, 0, 0);                                                   \
    }
TILE__HGEMM_TILE_KERNEL(16, 64)
TILE__HGEMM_TILE_KERNEL(32, 128)

TILE__HOST_LAZY TILE_HOST_API int tile__gemm_tile_f32(tile_exec ex, int m, int n, int k, float alpha, const float *A,
                                                      int lda, long long sa, const float *B, int ldb, long long sb,
                                                      float beta, float *C, int ldc, long long sc, int batch) {
    const tile_exec e0 = tile_exec_smem(ex, 0);
    const tile_grid g = tile_grid1(batch);
    if (m <= 16 && n <= 16 && k <= 16)
        return tile_launch(e0, tile__hgemm16_k_f32, g, 64, A, (int64_t)lda, (int64_t)sa, B, (int64_t)ldb,
                           (int64_t)sb, C, (int64_t)ldc, (int64_t)sc, m, n, k, alpha, beta);
    return tile_launch(e0, tile__hgemm32_k_f32, g, 128, A, (int64_t)lda, (int64_t)sa, B, (int64_t)ldb, (int64_t)sb,
                       C, (int64_t)ldc, (int64_t)sc, m, n, k, alpha, beta);
}
#endif /* TILE_HOST_CUBLAS */

/* ---- the calls ---- */
#if TILE_HOST_CUBLAS
#define TILE__HGEMM_GPU1(sfx, T, X)                                                \
    {                                                                              \
        int prev, e = tile__host_enter(ex, &prev);                                 \
        cublasHandle_t h = 0;                                                      \
        if (!e && m > 0 && n > 0) e = tile__cublas_get(ex, &h);                    \
        if (!e && h) {                                                             \
            cublasStatus_t s = cublas##X##gemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, \
                                               n, m, k, &alpha, B, ldb, A, lda, &beta, C, ldc); \
            if (s != CUBLAS_STATUS_SUCCESS) e = tile__host_fail(TILE_ERR_CUBLAS, (int)s, "cublas" #X "gemm"); \
        }                                                                          \
        return tile__host_leave(prev, e);                                          \
    }
#define TILE__HGEMM_GPUB(sfx, T, X, TILEPATH)                                      \
    {                                                                              \
        int prev, e = tile__host_enter(ex, &prev);                                 \
        if (e || m == 0 || n == 0 || batch == 0) {                                 \
        } else if (use_tile) {                                                     \
            e = TILEPATH;                                                          \
        } else {                                                                   \
            cublasHandle_t h = 0;                                                  \
            e = tile__cublas_get(ex, &h);                                          \
            if (!e) {                                                              \
                cublasStatus_t s = cublas##X##gemmStridedBatched(                  \
                    h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, &alpha, B, ldb, sb, \
                    A, lda, sa, &beta, C, ldc, sc, batch);                         \
                if (s != CUBLAS_STATUS_SUCCESS)                                    \
                    e = tile__host_fail(TILE_ERR_CUBLAS, (int)s, "cublas" #X "gemmStridedBatched"); \
            }                                                                      \
        }                                                                          \
        return tile__host_leave(prev, e);                                          \
    }
#define TILE__HGEMM_TILEPATH_f32                                                   \
    tile__gemm_tile_f32(ex, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch)
#define TILE__HGEMM_TILEPATH_f64 TILE_ERR_ARG
#define TILE__HGEMM_TILEMAX_f32 TILE_HOST_GEMM_TILE_MAX
#define TILE__HGEMM_TILEMAX_f64 0 /* not measured: f64 goes to cuBLAS */
#elif TILE_CUDA
#define TILE__HGEMM_GPU1(sfx, T, X) return TILE_ERR_DISABLED;
#define TILE__HGEMM_GPUB(sfx, T, X, TILEPATH) return TILE_ERR_DISABLED;
#else
#define TILE__HGEMM_GPU1(sfx, T, X) return TILE_ERR_NO_CUDA;
#define TILE__HGEMM_GPUB(sfx, T, X, TILEPATH) return TILE_ERR_NO_CUDA;
#endif
#ifndef TILE__HGEMM_TILEMAX_f32
#define TILE__HGEMM_TILEMAX_f32 TILE_HOST_GEMM_TILE_MAX
#define TILE__HGEMM_TILEMAX_f64 0
#define TILE__HGEMM_TILEPATH_f32 TILE_ERR_ARG
#define TILE__HGEMM_TILEPATH_f64 TILE_ERR_ARG
#endif

#define TILE__HGEMM_API(sfx, T, X)                                                 \
    /* C = alpha op(A) op(B) + beta C (row-major); see the top of this file. */  \
    TILE_HOST_API int tile_gemm_##sfx(tile_exec ex, int transa, int transb, int m, int n, int k, T alpha, \
                                      const T *A, int lda, const T *B, int ldb, T beta, T *C, int ldc) { \
        const int ta = transa, tb = transb;                                        \
        int e = tile__gemm_check(ta, tb, m, n, k, A, lda, B, ldb, C, ldc);         \
        if (e) return e;                                                           \
        if (ex.device >= 0) TILE__HGEMM_GPU1(sfx, T, X)                            \
        if (m == 0 || n == 0) return TILE_OK;                                      \
        T *buf = tile__gemm_cpu_buf_##sfx();                                       \
        if (!buf) return TILE_ERR_NOMEM;                                           \
        tile__gemm_cpu_##sfx(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, buf, \
                             buf + (size_t)TILE__HG_MC * TILE__HG_KC);             \
        free(buf);                                                                 \
        return TILE_OK;                                                            \
    }                                                                              \
    /* batch products C_i = alpha op(A_i) op(B_i) + beta C_i, X_i = X + i strideX, \
     * on the path asked for (TILE_PATH_AUTO, _TILE, _LIBRARY). */              \
    TILE__HOST_LAZY TILE_HOST_API int tile_gemm_strided_batched_path_##sfx(        \
        tile_exec ex, int path, int transa, int transb, int m, int n, int k, T alpha, const T *A, int lda, \
        long long sa, const T *B, int ldb, long long sb, T beta, T *C, int ldc, long long sc, int batch) { \
        const int ta = transa, tb = transb;                                        \
        int e = tile__gemm_check(ta, tb, m, n, k, A, lda, B, ldb, C, ldc);         \
        if (!e) e = tile__gemm_check_batch(m, n, ldc, sa, sb, sc, batch);          \
        if (!e && path != TILE_PATH_AUTO && path != TILE_PATH_TILE && path != TILE_PATH_LIBRARY) e = TILE_ERR_ARG; \
        if (e) return e;                                                           \
        if (ex.device >= 0) {                                                      \
            const int tile_ok = ta == TILE_OP_N && tb == TILE_OP_N && m <= 32 && n <= 32 && k <= 32 && \
                                TILE__HGEMM_TILEMAX_##sfx > 0;                     \
            const int lim = TILE__HGEMM_TILEMAX_##sfx;                             \
            if (path == TILE_PATH_TILE && !tile_ok) return TILE_ERR_ARG;           \
            const int mx = m > n ? (m > k ? m : k) : (n > k ? n : k);              \
            const int use_tile = path == TILE_PATH_TILE ||                         \
                                 (path == TILE_PATH_AUTO && tile_ok && mx <= lim && mx >= TILE_HOST_GEMM_TILE_MIN && \
                                  (mx <= 16 || mx >= TILE_HOST_GEMM_TILE32_MIN)); \
            (void)use_tile;                                                        \
            TILE__HGEMM_GPUB(sfx, T, X, TILE__HGEMM_TILEPATH_##sfx)                \
        }                                                                          \
        if (m == 0 || n == 0 || batch == 0) return TILE_OK;                        \
        T *buf = tile__gemm_cpu_buf_##sfx();                                       \
        if (!buf) return TILE_ERR_NOMEM;                                           \
        for (int i = 0; i < batch; ++i)                                            \
            tile__gemm_cpu_##sfx(ta, tb, m, n, k, alpha, A ? A + (size_t)i * (size_t)sa : A, lda, \
                                 B ? B + (size_t)i * (size_t)sb : B, ldb, beta, C + (size_t)i * (size_t)sc, ldc, \
                                 buf, buf + (size_t)TILE__HG_MC * TILE__HG_KC);    \
        free(buf);                                                                 \
        return TILE_OK;                                                            \
    }                                                                              \
    /* the same on the automatic path */                                           \
    TILE__HOST_LAZY TILE_HOST_API int tile_gemm_strided_batched_##sfx(             \
        tile_exec ex, int transa, int transb, int m, int n, int k, T alpha, const T *A, int lda, long long sa, \
        const T *B, int ldb, long long sb, T beta, T *C, int ldc, long long sc, int batch) { \
        return tile_gemm_strided_batched_path_##sfx(ex, TILE_PATH_AUTO, transa, transb, m, n, k, alpha, A, lda, sa, \
                                                    B, ldb, sb, beta, C, ldc, sc, batch); \
    }
TILE__HGEMM_API(f32, float, S)
TILE__HGEMM_API(f64, double, D)

/* Destroy the calling thread's cuBLAS handles (all GPUs); the next GPU call
 * creates them again. Call it when no call of this thread is in flight.
 *   tile_gemm_f32(tile_gpu(0), ...);   // creates GPU 0's handle of this thread
 *   tile_blas_release();               // destroys it (a no-op without one) */
TILE_HOST_API void tile_blas_release(void) {
#if TILE_HOST_CUBLAS
    for (int d = 0; d < TILE_HOST_MAX_DEVICES; ++d)
        if (tile__cublas_h[d]) {
            cublasDestroy(tile__cublas_h[d]);
            tile__cublas_h[d] = 0;
        }
#endif
}

#endif /* TILE_HOST_BLAS_H */
