/* tile/host/solver.h - batched Cholesky factor and solve of whole arrays
 * (host API), f32 and f64: on the GPU the in-kernel tile_chol_batched path
 * (chol_batched.h) for n <= TILE_HOST_CHOL_TILE_MAX and cuSOLVER's batched
 * potrf / potrs above, on the CPU the library's own blocked Cholesky. See
 * tile/host/common.h for the model (tile_exec, error codes, handles) and
 * docs/host.md.
 *
 *   int tile_potrf_batched_f32(tile_exec ex, int n, float *A, int batch, int *info);
 *   int tile_potrs_batched_f32(tile_exec ex, int n, int nrhs, const float *L, float *B, int batch);
 *   int tile_potrf_batched_path_f32(tile_exec ex, int path, int n, float *A, int batch, int *info);
 *   int tile_potrs_batched_path_f32(tile_exec ex, int path, int n, int nrhs, const float *L, float *B, int batch);
 *   (and _f64)
 *
 * A holds `batch` row-major n x n symmetric positive definite matrices back to
 * back. potrf replaces each with its factor L itself, A = L L^T: the lower
 * triangle (diagonal included) holds L and the strictly upper triangle is
 * set to zero, on every path (CPU; in-kernel: tile_chol_batched writes the
 * zeros with L, no extra pass; cuSOLVER: its batched potrf leaves that
 * triangle as it was, so a small kernel zeroes it afterwards, on that path
 * only). The strictly upper triangle of the input is never read.
 * info: batch ints, 0 for a factored matrix, else the 1-based column whose
 * pivot was not > 0 (not SPD, or NaN); the other matrices are factored. A
 * failed matrix has valid columns before its info column; the CPU and the
 * in-kernel path write NaN in that column and every later one of its lower
 * triangle; cuSOLVER (GPU, n > 128) leaves them partly updated.
 *  - CPU exec: info is host memory (or NULL); any failed matrix makes the
 *    call return TILE_ERR_NOT_SPD. Done on return.
 *  - GPU exec, info != NULL: info is device memory; the call is
 *    asynchronous on ex.stream, like cuSOLVER: it returns TILE_OK once the
 *    work is launched, never TILE_ERR_NOT_SPD; read info (after the stream)
 *    to know which matrices failed.
 *  - GPU exec, info == NULL: synchronous; the info values go to a cached
 *    internal device buffer and are read back through a cached pinned host
 *    buffer (ex.stream synchronized); TILE_ERR_NOT_SPD if any matrix failed.
 * potrs solves A X = B for each matrix with the L of potrf (only the lower
 * triangle is read: the upper one may hold anything) and B batch x n x nrhs
 * row-major, overwritten with X.
 *
 * GPU: pointers are device pointers; potrs is asynchronous on the in-kernel
 * path and waits on the cuSOLVER path (to read cuSOLVER's status).
 * cuSOLVER is column-major, where a row-major L is the upper factor U = L^T
 * of A = U^T U: the calls use uplo = upper. Its batched calls take device
 * arrays of matrix pointers (built by a small kernel into a buffer cached per
 * GPU and thread, rebuilt only when the matrices change; a rebuild on one
 * stream waits, through an event, for the last call that read the array on
 * any stream), and potrsBatched only takes nrhs = 1: for nrhs > 1 each
 * right-hand side is a system of its own (B transposed into a cached
 * workspace and back).
 *
 * Returns TILE_OK; TILE_ERR_NOT_SPD (potrf); TILE_ERR_ARG (n < 1, nrhs < 1,
 * batch < 0, a null pointer with batch > 0, batch * nrhs > INT_MAX on the
 * cuSOLVER path, TILE_PATH_TILE with n > 128, an unknown path);
 * TILE_ERR_NO_CUDA (GPU exec, C11 build); TILE_ERR_DISABLED (GPU exec with
 * TILE_NO_CUSOLVER); TILE_ERR_DEVICE; TILE_ERR_CUSOLVER
 * (tile_host_last_status() is the cusolverStatus_t, or cuSOLVER's negative
 * info); TILE_ERR_CUDA (tile_last_cuda_error()); TILE_ERR_NOMEM.
 *
 * Suppose batch = 2, n = 2, A = {4, 2, 2, 10,  1, 2, 2, 1} on the CPU:
 *   tile_potrf_batched_f32(tile_cpu(), 2, A, 2, info) -> TILE_ERR_NOT_SPD,
 *     A = {2, 0, 1, 3,  1, 0, 2, NaN}, info = {0, 2}
 * and the same A in device memory dA, dinfo device ints:
 *   tile_potrf_batched_f32(tile_gpu(0), 2, dA, 2, dinfo) -> TILE_OK (launched;
 *     after the stream: dA as above, dinfo = {0, 2})
 *   tile_potrf_batched_f32(tile_gpu(0), 2, dA, 2, NULL) -> TILE_ERR_NOT_SPD (waited)
 * and with L = {2, 0, 1, 3} (A = [[4 2] [2 10]]), B = {6, 0,  12, 2} (2 x 2):
 *   tile_potrs_batched_f32(tile_cpu(), 2, 2, L, B, 1) -> TILE_OK,
 *     B = {1, -0.1111, 1, 0.2222} (A X = B)
 */
#ifndef TILE_HOST_SOLVER_H
#define TILE_HOST_SOLVER_H

#include "blas.h" /* the helpers and TILE_PATH_* the host headers share */
#include <math.h>
#include <limits.h>
#if TILE_HOST_CUSOLVER
#include <cusolverDn.h>
#endif

/* Crossover of the automatic batched Cholesky choice: n <= this runs the
 * in-kernel tile_chol_batched, larger n cuSOLVER. 128 is the in-kernel
 * limit (TILE_CHOL_MAX_N), and bench/chol_bench.cu measured it 1.1-3.3x
 * cuSOLVER's potrfBatched at every n up to it on an H100 (f32 and f64);
 * bench/host_bench.cu (bench/results/2026-11-25-h100-host-100ffaa-bench.txt,
 * f32, batch 4096, factor + upper triangle zeroed + info to the host, both
 * paths with the zeroing kernel then): cuSOLVER / tile = 2.44, 2.74, 2.04,
 * 2.25, 2.13 at n = 16, 32, 64, 96, 128 (auto within 1% of the better path
 * at every n, 16..256). Since then the in-kernel path writes the zeros
 * itself (no zeroing kernel): its lead can only grow. Re-measured by every
 * run ("potrf n=N" lines). 0 turns it off. */
#ifndef TILE_HOST_CHOL_TILE_MAX
#define TILE_HOST_CHOL_TILE_MAX 128
#endif
TILE__STATIC_ASSERT(TILE_HOST_CHOL_TILE_MAX >= 0 && TILE_HOST_CHOL_TILE_MAX <= TILE_CHOL_MAX_N,
                    "tile/host/solver.h: TILE_HOST_CHOL_TILE_MAX must be 0..128");

/* ---- CPU ----
 * Right-looking blocked Cholesky on the lower triangle, blocks of 32
 * columns: factor the diagonal block, solve the panel below it, update the
 * trailing lower triangle. Every inner loop is a dot product of two rows'
 * contiguous pieces (row-major lower: row i holds L_i0 .. L_ii). */
#define TILE__HCHOL_NB 32
#define TILE__HCHOL_CPU(sfx, T)                                                    \
    /* panel rows r0..n-1, columns c0..c1-1 (diagonal block above, factored) */ \
    TILE_HOST_API void tile__potrf_panel_##sfx(T *a, int n, int r0, int c0, int c1) { \
        for (int i = r0; i < n; ++i) {                                             \
            T *ri = a + (size_t)i * n;                                             \
            for (int j = c0; j < c1; ++j) {                                        \
                const T *rj = a + (size_t)j * n;                                   \
                T s = ri[j];                                                       \
                for (int p = c0; p < j; ++p) s -= ri[p] * rj[p];                   \
                ri[j] = s / rj[j];                                                 \
            }                                                                      \
        }                                                                          \
    }                                                                              \
    /* one matrix; returns its info */                                             \
    TILE_HOST_API int tile__potrf_cpu_##sfx(T *a, int n) {                         \
        for (int k0 = 0; k0 < n; k0 += TILE__HCHOL_NB) {                           \
            const int k1 = n - k0 < TILE__HCHOL_NB ? n : k0 + TILE__HCHOL_NB;      \
            for (int j = k0; j < k1; ++j) {                                        \
                T *rj = a + (size_t)j * n;                                         \
                T d = rj[j];                                                       \
                for (int p = k0; p < j; ++p) d -= rj[p] * rj[p];                   \
                if (!(d > (T)0)) {                                                 \
                    /* columns before j final below the block too, NaN from j on */ \
                    tile__potrf_panel_##sfx(a, n, k1, k0, j);                      \
                    for (int c = j; c < n; ++c)                                    \
                        for (int i = c; i < n; ++i) a[(size_t)i * n + c] = (T)NAN; \
                    return j + 1;                                                  \
                }                                                                  \
                d = (T)sqrt((double)d);                                            \
                rj[j] = d;                                                         \
                for (int i = j + 1; i < k1; ++i) {                                 \
                    T *ri = a + (size_t)i * n;                                     \
                    T s = ri[j];                                                   \
                    for (int p = k0; p < j; ++p) s -= ri[p] * rj[p];               \
                    ri[j] = s / d;                                                 \
                }                                                                  \
            }                                                                      \
            tile__potrf_panel_##sfx(a, n, k1, k0, k1);                             \
            for (int i = k1; i < n; ++i) {                                         \
                T *ri = a + (size_t)i * n;                                         \
                for (int j = k1; j <= i; ++j) {                                    \
                    const T *rj = a + (size_t)j * n;                               \
                    T s = (T)0;                                                    \
                    for (int p = k0; p < k1; ++p) s += ri[p] * rj[p];              \
                    ri[j] -= s;                                                    \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        return 0;                                                                  \
    }                                                                              \
    /* the strictly upper triangle of one matrix set to zero (the contract) */    \
    TILE_HOST_API void tile__hzero_upper_cpu_##sfx(T *a, int n) {                  \
        for (int i = 0; i + 1 < n; ++i)                                            \
            for (int j = i + 1; j < n; ++j) a[(size_t)i * n + j] = (T)0;           \
    }                                                                              \
    /* one matrix: L Y = B row by row, then L^T X = Y (rows of B contiguous) */  \
    TILE_HOST_API void tile__potrs_cpu_##sfx(const T *l, T *b, int n, int nrhs) {  \
        for (int i = 0; i < n; ++i) {                                              \
            T *bi = b + (size_t)i * nrhs;                                          \
            const T *li = l + (size_t)i * n;                                       \
            for (int p = 0; p < i; ++p) {                                          \
                const T lip = li[p], *bp = b + (size_t)p * nrhs;                   \
                for (int c = 0; c < nrhs; ++c) bi[c] -= lip * bp[c];               \
            }                                                                      \
            for (int c = 0; c < nrhs; ++c) bi[c] /= li[i];                         \
        }                                                                          \
        for (int i = n - 1; i >= 0; --i) {                                         \
            T *bi = b + (size_t)i * nrhs;                                          \
            const T *li = l + (size_t)i * n;                                       \
            for (int c = 0; c < nrhs; ++c) bi[c] /= li[i];                         \
            for (int p = 0; p < i; ++p) {                                          \
                const T lip = li[p];                                               \
                T *bp = b + (size_t)p * nrhs;                                      \
                for (int c = 0; c < nrhs; ++c) bp[c] -= lip * bi[c];               \
            }                                                                      \
        }                                                                          \
    }
TILE__HCHOL_CPU(f32, float)
TILE__HCHOL_CPU(f64, double)

/* ---- GPU: cuSOLVER handles and cached buffers (per GPU, per thread) ---- */
#if TILE_HOST_CUSOLVER
typedef struct tile__hptr_key {
    const void *base;
    int64_t stride, inner, inner_bytes, count;
} tile__hptr_key;
typedef struct tile__hsolver_dev {
    cusolverDnHandle_t h;
    void *dinfo; /* device ints: info when the caller passes NULL; potrs status */
    size_t dinfo_cap;
    int *hinfo; /* pinned host copy of the info values (cudaMallocHost) */
    size_t hinfo_cap;
    void *ptr[3]; /* device pointer arrays: potrf A, potrs L, potrs B */
    size_t ptr_cap[3];
    tile__hptr_key key[3];
    cudaEvent_t ev[3]; /* recorded after the last call that read ptr[slot] */
    void *work; /* potrs nrhs > 1: B transposed */
    size_t work_cap;
} tile__hsolver_dev;
static TILE__THREAD_LOCAL tile__hsolver_dev tile__hsolver[TILE_HOST_MAX_DEVICES];

/* p[i] = base + (i / inner) stride + (i % inner) inner_bytes, i < count */
TILE_KERNEL(tile__hptrs_k, 256, void **p, char *base, int64_t stride, int64_t inner, int64_t inner_bytes,
            int64_t count) {
    const int64_t step = (int64_t)tile_grid_dim(0) * TILE_BLOCK_DIM;
    for (int64_t i = (int64_t)tile_block(0) * TILE_BLOCK_DIM + tile_thread(); i < count; i += step)
        p[i] = (void *)(base + (i / inner) * stride + (i % inner) * inner_bytes);
}
/* batched transpose: matrix m of src (rows x cols) -> dst (cols x rows) */
#define TILE__HTR_KERNEL(sfx, T)                                                   \
    TILE_KERNEL(tile__htr_k_##sfx, 256, const T *src, T *dst, int64_t rows, int64_t cols, int64_t total) { \
        const int64_t step = (int64_t)tile_grid_dim(0) * TILE_BLOCK_DIM, rc = rows * cols; \
        for (int64_t i = (int64_t)tile_block(0) * TILE_BLOCK_DIM + tile_thread(); i < total; i += step) { \
            const int64_t m = i / rc, r = i / cols % rows, c = i % cols;           \
            dst[m * rc + c * rows + r] = src[i];                                   \
        }                                                                          \
    }
TILE__HTR_KERNEL(f32, float)
TILE__HTR_KERNEL(f64, double)
/* potrf's contract on the cuSOLVER path: the strictly upper triangle of
 * every matrix set to zero (the in-kernel path writes its zeros itself).
 * rows = batch * n; a group of up to 32 threads (a warp on the GPU) takes one
 * row, its lanes consecutive columns r+1 .. n-1 (coalesced stores; the
 * divisions are per row, not per element). */
#define TILE__HZERO_KERNEL(sfx, T)                                                 \
    TILE_KERNEL(tile__hzero_upper_k_##sfx, 256, T *a, int64_t n, int64_t rows) {   \
        const int w = TILE_BLOCK_DIM < 32 ? TILE_BLOCK_DIM : 32, lane = tile_thread() % w; \
        const int64_t per = TILE_BLOCK_DIM / w, step = (int64_t)tile_grid_dim(0) * per; \
        for (int64_t t = (int64_t)tile_block(0) * per + tile_thread() / w; t < rows; t += step) { \
            T *p = a + t * n;                                                      \
            for (int64_t c = t % n + 1 + lane; c < n; c += w) p[c] = (T)0;         \
        }                                                                          \
    }
TILE__HZERO_KERNEL(f32, float)
TILE__HZERO_KERNEL(f64, double)
TILE_HOST_API int64_t tile__hgrid(int64_t total) {
    const int64_t g = (total + 255) / 256;
    return g < 1 ? 1 : g > 65536 ? 65536 : g;
}

TILE_HOST_API int tile__cusolver_get(tile_exec ex, cusolverDnHandle_t *out) {
    cusolverDnHandle_t *h = &tile__hsolver[ex.device].h;
    cusolverStatus_t s;
    if (!*h) {
        s = cusolverDnCreate(h);
        if (s != CUSOLVER_STATUS_SUCCESS) {
            *h = 0;
            return tile__host_fail(TILE_ERR_CUSOLVER, (int)s, "cusolverDnCreate");
        }
    }
    s = cusolverDnSetStream(*h, (cudaStream_t)ex.stream);
    if (s != CUSOLVER_STATUS_SUCCESS) return tile__host_fail(TILE_ERR_CUSOLVER, (int)s, "cusolverDnSetStream");
    *out = *h;
    return TILE_OK;
}
/* The device pointer array of slot `slot`, rebuilt only when its contents
 * change. potrf on the cuSOLVER path returns before its stream has read the
 * array (asynchronous with an info array), so a rebuild, on whatever stream,
 * first waits for the event recorded after the last call that read it
 * (tile__hptrs_used); growing it (cudaFree) waits for the whole device. */
TILE__HOST_LAZY TILE_HOST_API int tile__hptrs(tile_exec ex, int slot, const void *base, int64_t stride, int64_t inner,
                                              int64_t inner_bytes, int64_t count, void ***out) {
    tile__hsolver_dev *d = &tile__hsolver[ex.device];
    tile__hptr_key *k = &d->key[slot];
    if (!(d->ptr[slot] && d->ptr_cap[slot] >= (size_t)count * sizeof(void *) && k->base == base &&
          k->stride == stride && k->inner == inner && k->inner_bytes == inner_bytes && k->count == count)) {
        k->base = 0; /* invalid until rebuilt */
        if (d->ev[slot]) {
            const cudaError_t ce = cudaStreamWaitEvent((cudaStream_t)ex.stream, d->ev[slot], 0);
            if (ce != cudaSuccess) return tile__host_cuda_fail(ce, "cudaStreamWaitEvent");
        }
        int e = tile__host_dgrow(&d->ptr[slot], &d->ptr_cap[slot], (size_t)count * sizeof(void *));
        if (e) return e;
        e = tile_launch(tile_exec_smem(ex, 0), tile__hptrs_k, tile_grid1(tile__hgrid(count)), 256,
                        (void **)d->ptr[slot], (char *)base, stride, inner, inner_bytes, count);
        if (e) return e;
        k->base = base, k->stride = stride, k->inner = inner, k->inner_bytes = inner_bytes, k->count = count;
    }
    *out = (void **)d->ptr[slot];
    return TILE_OK;
}
/* record slot's event on ex.stream after a call that reads its array */
TILE_HOST_API int tile__hptrs_used(tile_exec ex, int slot) {
    tile__hsolver_dev *d = &tile__hsolver[ex.device];
    cudaError_t e = cudaSuccess;
    if (!d->ev[slot]) e = cudaEventCreateWithFlags(&d->ev[slot], cudaEventDisableTiming);
    if (e != cudaSuccess) {
        d->ev[slot] = 0;
        return tile__host_cuda_fail(e, "cudaEventCreateWithFlags");
    }
    e = cudaEventRecord(d->ev[slot], (cudaStream_t)ex.stream);
    return e == cudaSuccess ? TILE_OK : tile__host_cuda_fail(e, "cudaEventRecord");
}
/* wait for ex.stream and bring `count` device ints to the host buffer, a
 * pinned one (cached, grown as needed): a pageable destination would add a
 * staging copy to every synchronous call */
TILE_HOST_API int tile__hinfo_read(tile_exec ex, const int *dinfo, int count, int **out) {
    tile__hsolver_dev *d = &tile__hsolver[ex.device];
    if (d->hinfo_cap < (size_t)count) {
        if (d->hinfo) cudaFreeHost(d->hinfo);
        d->hinfo = 0;
        d->hinfo_cap = 0;
        void *p = 0;
        const cudaError_t ce = cudaMallocHost(&p, sizeof(int) * (size_t)count);
        if (ce != cudaSuccess) return tile__host_cuda_fail(ce, "cudaMallocHost");
        d->hinfo = (int *)p;
        d->hinfo_cap = (size_t)count;
    }
    cudaError_t e = cudaMemcpyAsync(d->hinfo, dinfo, sizeof(int) * (size_t)count, cudaMemcpyDeviceToHost,
                                    (cudaStream_t)ex.stream);
    if (e != cudaSuccess) return tile__host_cuda_fail(e, "cudaMemcpyAsync");
    e = cudaStreamSynchronize((cudaStream_t)ex.stream);
    if (e != cudaSuccess) return tile__host_cuda_fail(e, "cudaStreamSynchronize");
    *out = d->hinfo;
    return TILE_OK;
}
TILE_HOST_API int tile__hsolver_dinfo(tile_exec ex, int count, int **out) {
    tile__hsolver_dev *d = &tile__hsolver[ex.device];
    int e = tile__host_dgrow(&d->dinfo, &d->dinfo_cap, sizeof(int) * (size_t)(count > 0 ? count : 1));
    *out = (int *)d->dinfo;
    return e;
}
#define TILE__HCHOL_GPU(sfx, T, X)                                                 \
    TILE__HOST_LAZY TILE_HOST_API int tile__potrf_gpu_##sfx(tile_exec ex, int use_tile, int n, T *A, int batch, \
                                                            int *info) {          \
        int *dinfo = info, *hinfo = 0, e = TILE_OK;                                \
        if (!dinfo) e = tile__hsolver_dinfo(ex, batch, &dinfo);                    \
        if (e) return e;                                                           \
        if (use_tile) {                                                            \
            /* L itself: the kernels write the zeros above the diagonal */         \
            e = tile_chol_batched_##sfx(tile_exec_smem(ex, 0), A, n, batch, dinfo); \
        } else {                                                                   \
            cusolverDnHandle_t h = 0;                                              \
            void **pa = 0;                                                         \
            e = tile__cusolver_get(ex, &h);                                        \
            if (!e) e = tile__hptrs(ex, 0, A, (int64_t)n * n * (int64_t)sizeof(T), 1, 0, batch, &pa); \
            if (!e) {                                                              \
                cusolverStatus_t s = cusolverDn##X##potrfBatched(h, CUBLAS_FILL_MODE_UPPER, n, (T **)pa, n, dinfo, \
                                                                 batch);           \
                if (s != CUSOLVER_STATUS_SUCCESS)                                  \
                    e = tile__host_fail(TILE_ERR_CUSOLVER, (int)s, "cusolverDn" #X "potrfBatched"); \
                else                                                               \
                    e = tile__hptrs_used(ex, 0);                                   \
            }                                                                      \
            /* the contract, L itself: cuSOLVER left A's upper triangle */         \
            const int64_t rows = (int64_t)batch * n;                               \
            if (!e && n > 1)                                                       \
                e = tile_launch(tile_exec_smem(ex, 0), tile__hzero_upper_k_##sfx,  \
                                tile_grid1(tile__hgrid(rows * 32)), 256, A, (int64_t)n, rows); \
        }                                                                          \
        if (e || info) return e; /* info given: asynchronous, the caller reads it */ \
        e = tile__hinfo_read(ex, dinfo, batch, &hinfo);                            \
        if (e) return e;                                                           \
        for (int i = 0; i < batch; ++i)                                            \
            if (hinfo[i] < 0) return tile__host_fail(TILE_ERR_CUSOLVER, hinfo[i], "cusolverDn" #X "potrfBatched info"); \
        for (int i = 0; i < batch; ++i)                                            \
            if (hinfo[i]) return TILE_ERR_NOT_SPD;                                 \
        return TILE_OK;                                                            \
    }                                                                              \
    TILE__HOST_LAZY TILE_HOST_API int tile__potrs_gpu_##sfx(tile_exec ex, int use_tile, int n, int nrhs, const T *L, \
                                                            T *B, int batch) {    \
        if (use_tile) return tile_chol_batched_solve_##sfx(tile_exec_smem(ex, 0), L, B, n, nrhs, batch); \
        if ((int64_t)batch * nrhs > INT_MAX) return TILE_ERR_ARG;                  \
        tile__hsolver_dev *d = &tile__hsolver[ex.device];                          \
        const int64_t es = (int64_t)sizeof(T), nsys = (int64_t)batch * nrhs, total = nsys * n; \
        cusolverDnHandle_t h = 0;                                                  \
        void **pa = 0, **pb = 0;                                                   \
        int *dinfo = 0, *hinfo = 0;                                                \
        T *w = B;                                                                  \
        int e = tile__cusolver_get(ex, &h);                                        \
        if (!e) e = tile__hsolver_dinfo(ex, 1, &dinfo);                            \
        if (!e && nrhs > 1) {                                                      \
            e = tile__host_dgrow(&d->work, &d->work_cap, (size_t)(total * es));    \
            w = (T *)d->work;                                                      \
            if (!e)                                                                \
                e = tile_launch(tile_exec_smem(ex, 0), tile__htr_k_##sfx, tile_grid1(tile__hgrid(total)), 256, \
                                (const T *)B, w, (int64_t)n, (int64_t)nrhs, total); \
        }                                                                          \
        /* system s = (matrix s / nrhs, column s % nrhs): its L, its column of w */ \
        if (!e) e = tile__hptrs(ex, 1, L, (int64_t)n * n * es, nrhs, 0, nsys, &pa); \
        if (!e) e = tile__hptrs(ex, 2, w, (int64_t)n * es, 1, 0, nsys, &pb);       \
        if (!e) {                                                                  \
            cusolverStatus_t s = cusolverDn##X##potrsBatched(h, CUBLAS_FILL_MODE_UPPER, n, 1, (T **)pa, n, (T **)pb, \
                                                             n, dinfo, (int)nsys); \
            if (s != CUSOLVER_STATUS_SUCCESS) e = tile__host_fail(TILE_ERR_CUSOLVER, (int)s, "cusolverDn" #X "potrsBatched"); \
        }                                                                          \
        if (!e && nrhs > 1)                                                        \
            e = tile_launch(tile_exec_smem(ex, 0), tile__htr_k_##sfx, tile_grid1(tile__hgrid(total)), 256, \
                            (const T *)w, B, (int64_t)nrhs, (int64_t)n, total);    \
        if (!e) e = tile__hinfo_read(ex, dinfo, 1, &hinfo);                        \
        if (!e && hinfo[0]) e = tile__host_fail(TILE_ERR_CUSOLVER, hinfo[0], "cusolverDn" #X "potrsBatched info"); \
        return e;                                                                  \
    }
TILE__HCHOL_GPU(f32, float, S)
TILE__HCHOL_GPU(f64, double, D)
#define TILE__HCHOL_GATE(sfx)
#elif TILE_CUDA
#define TILE__HCHOL_GATE(sfx) return TILE_ERR_DISABLED;
#else
#define TILE__HCHOL_GATE(sfx) return TILE_ERR_NO_CUDA;
#endif

#if TILE_HOST_CUSOLVER
#define TILE__HCHOL_RUN_F(sfx)                                                     \
    {                                                                              \
        int prev, e = tile__host_enter(ex, &prev);                                 \
        if (!e && batch > 0) e = tile__potrf_gpu_##sfx(ex, use_tile, n, A, batch, info); \
        return tile__host_leave(prev, e);                                          \
    }
#define TILE__HCHOL_RUN_S(sfx)                                                     \
    {                                                                              \
        int prev, e = tile__host_enter(ex, &prev);                                 \
        if (!e && batch > 0) e = tile__potrs_gpu_##sfx(ex, use_tile, n, nrhs, L, B, batch); \
        return tile__host_leave(prev, e);                                          \
    }
#else
#define TILE__HCHOL_RUN_F(sfx)
#define TILE__HCHOL_RUN_S(sfx)
#endif

/* the path a GPU call takes (TILE_ERR_ARG: unknown, or not possible) */
TILE_HOST_API int tile__hchol_path(int path, int n, int *use_tile) {
    if (path != TILE_PATH_AUTO && path != TILE_PATH_TILE && path != TILE_PATH_LIBRARY) return TILE_ERR_ARG;
    if (path == TILE_PATH_TILE && n > TILE_CHOL_MAX_N) return TILE_ERR_ARG;
    *use_tile = path == TILE_PATH_TILE || (path == TILE_PATH_AUTO && n <= TILE_HOST_CHOL_TILE_MAX);
    return TILE_OK;
}

#define TILE__HCHOL_CALLS(sfx, T)                                                  \
    /* Factor batch n x n SPD matrices in place (lower L); see the top. */       \
    TILE__HOST_LAZY TILE_HOST_API int tile_potrf_batched_path_##sfx(tile_exec ex, int path, int n, T *A, int batch, \
                                                                   int *info) {   \
        int use_tile = 0;                                                          \
        if (n < 1 || batch < 0 || (batch > 0 && !A)) return TILE_ERR_ARG;          \
        if (tile__hchol_path(path, n, &use_tile)) return TILE_ERR_ARG;             \
        if (ex.device >= 0) {                                                      \
            TILE__HCHOL_GATE(sfx)                                                  \
            TILE__HCHOL_RUN_F(sfx)                                                 \
        }                                                                          \
        int bad = 0;                                                               \
        for (int i = 0; i < batch; ++i) {                                          \
            const int r = tile__potrf_cpu_##sfx(A + (size_t)i * n * n, n);        \
            tile__hzero_upper_cpu_##sfx(A + (size_t)i * n * n, n);                 \
            if (info) info[i] = r;                                                 \
            bad |= r != 0;                                                         \
        }                                                                          \
        return bad ? TILE_ERR_NOT_SPD : TILE_OK;                                   \
    }                                                                              \
    TILE__HOST_LAZY TILE_HOST_API int tile_potrf_batched_##sfx(tile_exec ex, int n, T *A, int batch, int *info) { \
        return tile_potrf_batched_path_##sfx(ex, TILE_PATH_AUTO, n, A, batch, info); \
    }                                                                              \
    /* Solve A X = B for each matrix with potrf's L; B (batch x n x nrhs) is \
     * overwritten with X. */                                                     \
    TILE__HOST_LAZY TILE_HOST_API int tile_potrs_batched_path_##sfx(tile_exec ex, int path, int n, int nrhs, \
                                                                   const T *L, T *B, int batch) { \
        int use_tile = 0;                                                          \
        if (n < 1 || nrhs < 1 || batch < 0 || (batch > 0 && (!L || !B))) return TILE_ERR_ARG; \
        if (tile__hchol_path(path, n, &use_tile)) return TILE_ERR_ARG;             \
        if (ex.device >= 0) {                                                      \
            TILE__HCHOL_GATE(sfx)                                                  \
            TILE__HCHOL_RUN_S(sfx)                                                 \
        }                                                                          \
        for (int i = 0; i < batch; ++i)                                            \
            tile__potrs_cpu_##sfx(L + (size_t)i * n * n, B + (size_t)i * n * nrhs, n, nrhs); \
        return TILE_OK;                                                            \
    }                                                                              \
    TILE__HOST_LAZY TILE_HOST_API int tile_potrs_batched_##sfx(tile_exec ex, int n, int nrhs, const T *L, T *B, \
                                                              int batch) {         \
        return tile_potrs_batched_path_##sfx(ex, TILE_PATH_AUTO, n, nrhs, L, B, batch); \
    }
TILE__HCHOL_CALLS(f32, float)
TILE__HCHOL_CALLS(f64, double)

/* Destroy the calling thread's cuSOLVER handles and free its cached buffers
 * (all GPUs); the next GPU call creates them again. Call it only when no
 * call of this thread is in flight.
 *   tile_potrf_batched_f32(tile_gpu(0), 200, dA, 64, dinfo);  // handle, pointer array
 *   tile_solver_release();                                    // both gone */
TILE_HOST_API void tile_solver_release(void) {
#if TILE_HOST_CUSOLVER
    int prev = -1;
    if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
    for (int dv = 0; dv < TILE_HOST_MAX_DEVICES; ++dv) {
        tile__hsolver_dev *d = &tile__hsolver[dv];
        if (d->h || d->dinfo || d->ptr[0] || d->ptr[1] || d->ptr[2] || d->work || d->hinfo || d->ev[0] || d->ev[1] ||
            d->ev[2])
            cudaSetDevice(dv);
        if (d->h) cusolverDnDestroy(d->h);
        if (d->dinfo) cudaFree(d->dinfo);
        for (int s = 0; s < 3; ++s)
            if (d->ptr[s]) cudaFree(d->ptr[s]);
        if (d->work) cudaFree(d->work);
        for (int s = 0; s < 3; ++s)
            if (d->ev[s]) cudaEventDestroy(d->ev[s]);
        if (d->hinfo) cudaFreeHost(d->hinfo);
        memset(d, 0, sizeof(*d));
    }
    if (prev >= 0) cudaSetDevice(prev);
#endif
}

#endif /* TILE_HOST_SOLVER_H */
