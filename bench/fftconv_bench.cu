/* bench/fftconv_bench.cu - FFT convolution fused in one tile kernel vs the
 * three-step cuFFT pipeline, and the automatic choice of the host FFT
 * (tile/host/fft.h) vs its two paths; one process, one GPU.
 *
 * 1. Convolution. Batched circular convolution of complex f32 signals of
 *    n = 256, 1024, 4096 points with one n-point filter, 2^23 points in all
 *    (64 MiB in, 64 MiB out; --small: 2^16):
 *      fused:  one kernel: tile_fft, each row times the filter spectrum H/n,
 *              tile_ifft. Candidates (below, where the kernels are): A, one
 *              tile a block, tile_fft + multiply + tile_ifft, at every
 *              length; B, resident blocks walking the tiles with the next
 *              tile's copy in flight (H/n in shared memory), at 1024 and
 *              4096; C and D, one tile a block with the fused primitive
 *              tile_fft_conv (C: H/n in shared memory,
 *              examples/fft_convolution.cu's kernel; D: tile_fft_conv_ptr,
 *              H/n read through L1), at every length. Each prints its
 *              registers, shared memory and blocks an SM.
 *      3-step: cufftExecC2C forward (x -> t), a multiply kernel (t *= H/n, in
 *              place), cufftExecC2C inverse (t -> y).
 *    The same input and H/n for all (H from cuFFT, scaled on the host).
 *    Checked in the same run, outputs starting as NaN: every signal of every
 *    candidate vs the 3-step (relative L2 < 2e-5), the last signal of each
 *    vs a direct circular convolution in double (< 1e-5). GB/s = 2 x bytes /
 *    time (the data read once and written once); target: the fastest
 *    correct candidate's throughput / 3-step >= 2.0.
 * 2. Automatic choice. tile_fft_c2c_f32 forward, out of place, n = 16 ..
 *    4096 (powers of two), 2^23 points a call: the tile_fft kernel
 *    (TILE_FFT_TILE), cuFFT (TILE_FFT_LIBRARY) and the automatic choice
 *    (TILE_FFT_AUTO, the table TILE_FFT_AUTO_TILE), each checked against
 *    cuFFT. Target: auto within 5% of the better path at every length. The
 *    last line proposes the table this run measured.
 */
#include <cufft.h>
#include <math.h>
#include "bench_util.h"
#define TILE__FFT_TILE_ALL 1 /* the tile kernel of every length, to time the path the table does not take */
#include <tile/host/fft.h>

#define CF(call)                                                                   \
    do {                                                                           \
        cufftResult cf_e = (call);                                                 \
        if (cf_e != CUFFT_SUCCESS) {                                               \
            fprintf(stderr, "cuFFT error %d at %s:%d: %s\n", (int)cf_e, __FILE__, __LINE__, #call); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

/* ---- the fused kernels: candidates, timed side by side ----
 * Why the one-tile-a-block kernel (A, the example's until tile_fft_conv) lost at 1024 and 4096
 * points (H100 at 6375e77: 1652 / 1547 GB/s, where fft_bench's plain
 * shared-tile tile_fft of the same shape moved 2434 / 2624): a block loads
 * its tile, waits, computes, stores, and has no load in flight while it
 * computes. The plain FFT hides that behind the other resident blocks; the
 * fused kernel computes twice as long per tile with no more blocks resident
 * (76 / 70 registers x 256 threads: 3 blocks an SM, as many as the shared
 * memory allows at 4096: 32 KiB tile + 32 KiB spectrum), so the fraction of
 * time with loads in flight, and the bandwidth, drop. B keeps a load in
 * flight all the time instead: a grid of resident blocks (blocks per SM x
 * SMs, from the occupancy calculator) walks the tiles, two shared stages,
 * the next tile copied asynchronously (tile_load_async: one TMA bulk copy on
 * sm_90) while the current one is transformed, multiplied, transformed back
 * and stored.
 *   A "one tile a block":  the example's former kernel; H/n in a
 *       shared tile loaded by every block.
 *   B "pipelined, H shared": H/n loaded once per resident block into a
 *       shared tile (no per-tile re-read); shared memory 2 stages + H
 *       (1024: 72 KiB, 75 registers: 3 blocks an SM; 4096: 96 KiB, 75
 *       registers: 2 blocks an SM, limited by shared memory).
 * Tried and dropped: B with H/n read from L2 per tile into a (1, N) register
 * tile (shared memory 2 stages only, so 3 blocks an SM at 4096): 128
 * registers at 4096 (2 blocks an SM, no gain over B) and another 26 s of
 * cicc here.
 * Block shapes: fft_bench's best shared-tile shapes (256: 128 threads x 8
 * rows, 1024: 256 x 4, 4096: 256 x 1). The row offset is recomputed at the
 * store (kept across the two FFTs it cost a spill on sm_80 at n = 4096). */
#define CONV_A(N, BD, ROWS)                                                        \
    TILE_KERNEL_SMEM(conva_##N, BD, TILE_SMEM_BYTES(tile_c32, ROWS, N) + TILE_SMEM_BYTES(tile_c32, 1, N), \
                     const tile_c32 *x, const tile_c32 *H, tile_c32 *y, int64_t rows) { \
        tile_shared(tile_c32, t, ROWS, N);                                         \
        tile_shared(tile_c32, hs, 1, N);                                           \
        tile_load(t, tile_array2(x, rows, N), (int64_t)tile_block(0) * ROWS, 0);   \
        tile_load(hs, tile_array2(H, 1, N), 0, 0);                                 \
        tile_fft(t);                                                               \
        for (int r = 0; r < ROWS; ++r) {                                           \
            tile_view(row, t, (1, N), (r, 0));                                     \
            tile_map2(row, tile_c32_mul, row, hs);                                 \
        }                                                                          \
        tile_ifft(t);                                                              \
        tile_store(tile_array2(y, rows, N), t, (int64_t)tile_block(0) * ROWS, 0);  \
    }
/* C and D: tile_fft_conv (tile/fft.h), the fused primitive: the forward's
 * last radix pass is not stored, its registers are multiplied by H and are
 * the inverse's first pass's input (thread q holds X[q + P m] after the one
 * and needs exactly those for the other). Per element and row, shared
 * memory accesses: A 17 (load 1 write; tile_fft 3 passes x (read + write);
 * multiply: read, H read, write; tile_ifft 6; store 1 read), C 13 (the last
 * forward store, the multiply's round trip and the first inverse load are
 * gone; H read once), D 12 (H read from global memory through L1, no shared
 * copy of it: 32 KiB less shared memory at 4096); block barriers a row group:
 * A 2 + 6 + 2 + 6 + 1, C/D 2 + 4 + 6 + 1 (256: the groups are warps, and
 * these are __syncwarp).
 *   C "fused conv, H shared": A's kernel with tile_fft_conv(t, hs).
 *   D "fused conv, H from L1": tile_fft_conv_ptr(t, H, 0), no shared H. */
#define CONV_C(N, BD, ROWS)                                                        \
    TILE_KERNEL_SMEM(convc_##N, BD, TILE_SMEM_BYTES(tile_c32, ROWS, N) + TILE_SMEM_BYTES(tile_c32, 1, N), \
                     const tile_c32 *x, const tile_c32 *H, tile_c32 *y, int64_t rows) { \
        tile_shared(tile_c32, t, ROWS, N);                                         \
        tile_shared(tile_c32, hs, 1, N);                                           \
        tile_load(t, tile_array2(x, rows, N), (int64_t)tile_block(0) * ROWS, 0);   \
        tile_load(hs, tile_array2(H, 1, N), 0, 0);                                 \
        tile_fft_conv(t, hs);                                                      \
        tile_store(tile_array2(y, rows, N), t, (int64_t)tile_block(0) * ROWS, 0);  \
    }
#define CONV_D(N, BD, ROWS)                                                        \
    TILE_KERNEL_SMEM(convd_##N, BD, TILE_SMEM_BYTES(tile_c32, ROWS, N), const tile_c32 *x, const tile_c32 *H, \
                     tile_c32 *y, int64_t rows) {                                  \
        tile_shared(tile_c32, t, ROWS, N);                                         \
        tile_load(t, tile_array2(x, rows, N), (int64_t)tile_block(0) * ROWS, 0);   \
        tile_fft_conv_ptr(t, H, 0);                                                \
        tile_store(tile_array2(y, rows, N), t, (int64_t)tile_block(0) * ROWS, 0);  \
    }
/* B's loop (a macro so that variants can share it); PRE(N) runs once a block, MUL(N, ROWS) multiplies
 * the shared tile `cur` by H/n (macro names, expanded inside). Iteration i
 * issues the copy of the block's tile i into stage i % 2 and processes tile
 * i - 1 while that copy is in flight: one tile_load_async in the code, and
 * the store is forced to the vector tier (the tiles lie inside the array
 * and are 16-byte aligned): run-time choices of the copy paths inside the
 * loop made the compiler specialize the whole loop body for them (cicc took
 * 20 s a kernel). */
#define CONV_PIPE(name, N, BD, ROWS, HBYTES, PRE, MUL)                             \
    TILE_KERNEL_SMEM(name, BD, 2 * TILE_SMEM_BYTES(tile_c32, ROWS, N) + (HBYTES), const tile_c32 *x, \
                     const tile_c32 *H, tile_c32 *y, int64_t rows) {               \
        const int64_t tiles = rows / ROWS, step = tile_grid_dim(0);                \
        tile_shared_stages(tile_c32, buf, 2, ROWS, N);                             \
        PRE(N)                                                                     \
        for (int64_t i = 0, tb = tile_block(0); tb - step < tiles; ++i, tb += step) { \
            if (tb < tiles) { /* the load begins with a barrier: the store of    \
                               * tile i - 2 has read stage i % 2 */               \
                tile_stage(nxt, buf, (int)(i & 1));                                \
                tile_load_async(nxt, tile_array2(x, rows, N), tb * ROWS, 0);       \
            }                                                                      \
            tile_async_commit();                                                   \
            if (i == 0) continue;                                                  \
            tile_async_wait(1); /* tile i - 1 has landed (and a barrier) */        \
            tile_stage(cur, buf, (int)((i - 1) & 1));                              \
            tile_fft(cur);                                                         \
            MUL(N, ROWS)                                                           \
            tile_ifft(cur);                                                        \
            tile_store_ex(tile_array2(y, rows, N), cur, TILE_FORCE_VECTOR, (tb - step) * ROWS, 0); \
        }                                                                          \
        tile_async_wait_all();                                                     \
    }
/* B: H/n in a shared tile, loaded once a block */
#define CONV_B_PRE(N)                                                              \
    tile_shared(tile_c32, hs, 1, N);                                               \
    tile_load(hs, tile_array2(H, 1, N), 0, 0);
#define CONV_B_MUL(N, ROWS)                                                        \
    for (int r = 0; r < ROWS; ++r) {                                               \
        tile_view(row, cur, (1, N), (r, 0));                                       \
        tile_map2(row, tile_c32_mul, row, hs);                                     \
    }
#define CONV_B(N, BD, ROWS) CONV_PIPE(convb_##N, N, BD, ROWS, TILE_SMEM_BYTES(tile_c32, 1, N), CONV_B_PRE, CONV_B_MUL)

/* One candidate of one length: its launch and what the run prints about it
 * (registers, shared memory, resident blocks an SM). The occupancy query
 * names the __global__ function tile_launch runs for the kernel
 * (TILE_KERNEL_GPU_FUNC, launch.h); the launch passes exactly these
 * parameter types, so it is that same kernel. */
struct ConvInfo {
    int regs, per_sm, grid, pipelined;
    size_t smem;
    const char *name;
};
#define CONV_INFO_FN(kname, BD, ROWS, PIPE, LABEL)                                 \
    static int kname##_info(int64_t rows, ConvInfo *ci) {                          \
        void (*kf)(tile_kctx, unsigned, const tile_c32 *, const tile_c32 *, tile_c32 *, int64_t) = \
            TILE_KERNEL_GPU_FUNC(kname, const tile_c32 *, const tile_c32 *, tile_c32 *, int64_t); \
        cudaFuncAttributes fa;                                                     \
        int sms = 0;                                                               \
        const size_t smem = (size_t)kname##__smem;                                 \
        CK(cudaFuncGetAttributes(&fa, (const void *)kf));                          \
        if (smem + fa.sharedSizeBytes > 48 * 1024)                                 \
            CK(cudaFuncSetAttribute((const void *)kf, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)); \
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ci->per_sm, kf, BD, smem)); \
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));       \
        const int64_t tiles = (rows + ROWS - 1) / ROWS;                            \
        const int64_t g = (int64_t)(ci->per_sm > 0 ? ci->per_sm : 1) * sms;        \
        ci->grid = (int)(PIPE ? (g < tiles ? g : tiles) : tiles);                  \
        ci->regs = fa.numRegs;                                                     \
        ci->smem = smem + fa.sharedSizeBytes;                                      \
        ci->pipelined = PIPE;                                                      \
        ci->name = LABEL;                                                          \
        if (ci->per_sm < 1) {                                                      \
            fprintf(stderr, "%s: no block fits on an SM\n", #kname);               \
            return 1;                                                              \
        }                                                                          \
        return 0;                                                                  \
    }
/* A loop around tile_fft: tile_fft's twiddles depend on the thread index
 * and constants only, so the compiler hoists all of them (both directions,
 * every pass) out of B's tile loop and keeps them in registers: 247-249
 * registers a thread, one block an SM. B is therefore
 * compiled with tile_thread() read through a volatile asm (a value the
 * compiler must read again in every iteration, so nothing derived from it
 * leaves the loop). Only these kernels: A and the host API's kernels keep
 * threadIdx.x. (If B wins, this belongs in tile/fft.h: a tile_fft that
 * takes its thread index that way costs one mov a call.) */
TILE_HD static inline int bench_tid_opaque(void) {
#ifdef __CUDA_ARCH__
    unsigned t;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
    return (int)t;
#else
    return 0;
#endif
}
CONV_A(256, 128, 8)
CONV_A(1024, 256, 4)
CONV_A(4096, 256, 1)
CONV_C(256, 128, 8)
CONV_C(1024, 256, 4)
CONV_C(4096, 256, 1)
CONV_D(256, 128, 8)
CONV_D(1024, 256, 4)
CONV_D(4096, 256, 1)
#undef tile_thread
#define tile_thread() bench_tid_opaque()
/* 256 points already runs at 2.5x with A: no pipelined kernel there (each
 * costs cicc ~18 s here) */
CONV_B(1024, 256, 4)
CONV_B(4096, 256, 1)
#undef tile_thread
#if TILE_ON_DEVICE /* as tile/platform.h defines it */
#define tile_thread() ((int)threadIdx.x)
#else
#define tile_thread() 0
#endif
CONV_INFO_FN(conva_256, 128, 8, 0, "A one tile a block")
CONV_INFO_FN(conva_1024, 256, 4, 0, "A one tile a block")
CONV_INFO_FN(conva_4096, 256, 1, 0, "A one tile a block")
CONV_INFO_FN(convb_1024, 256, 4, 1, "B pipelined, H shared")
CONV_INFO_FN(convb_4096, 256, 1, 1, "B pipelined, H shared")
CONV_INFO_FN(convc_256, 128, 8, 0, "C fused conv, H shared")
CONV_INFO_FN(convc_1024, 256, 4, 0, "C fused conv, H shared")
CONV_INFO_FN(convc_4096, 256, 1, 0, "C fused conv, H shared")
CONV_INFO_FN(convd_256, 128, 8, 0, "D fused conv, H from L1")
CONV_INFO_FN(convd_1024, 256, 4, 0, "D fused conv, H from L1")
CONV_INFO_FN(convd_4096, 256, 1, 0, "D fused conv, H from L1")

/* the candidates of each length: info (also the grid) and launch */
#define MAXCAND 4
typedef int (*conv_info_fn)(int64_t, ConvInfo *);
typedef int (*conv_fn)(int, const tile_c32 *, const tile_c32 *, tile_c32 *, int64_t);
#define CONV_LAUNCH_FN(kname, BD)                                                  \
    static int kname##_launch(int grid, const tile_c32 *x, const tile_c32 *H, tile_c32 *y, int64_t rows) { \
        return tile_launch(TILE_GPU(0), kname, tile_grid1(grid), BD, x, H, y, rows); \
    }
CONV_LAUNCH_FN(conva_256, 128)
CONV_LAUNCH_FN(conva_1024, 256)
CONV_LAUNCH_FN(conva_4096, 256)
CONV_LAUNCH_FN(convb_1024, 256)
CONV_LAUNCH_FN(convb_4096, 256)
CONV_LAUNCH_FN(convc_256, 128)
CONV_LAUNCH_FN(convc_1024, 256)
CONV_LAUNCH_FN(convc_4096, 256)
CONV_LAUNCH_FN(convd_256, 128)
CONV_LAUNCH_FN(convd_1024, 256)
CONV_LAUNCH_FN(convd_4096, 256)
struct ConvLen {
    int n, block, rows_per_tile, ncand;
    conv_info_fn info[MAXCAND];
    conv_fn launch[MAXCAND];
};
static const ConvLen conv_lens[3] = {
    {256, 128, 8, 3, {conva_256_info, convc_256_info, convd_256_info},
     {conva_256_launch, convc_256_launch, convd_256_launch}},
    {1024, 256, 4, 4, {conva_1024_info, convb_1024_info, convc_1024_info, convd_1024_info},
     {conva_1024_launch, convb_1024_launch, convc_1024_launch, convd_1024_launch}},
    {4096, 256, 1, 4, {conva_4096_info, convb_4096_info, convc_4096_info, convd_4096_info},
     {conva_4096_launch, convb_4096_launch, convc_4096_launch, convd_4096_launch}},
};

/* the 3-step pipeline's middle step: t[i] *= H[i mod n] (n a power of two) */
__global__ void pointwise_mul(cufftComplex *t, const cufftComplex *H, int64_t total, int nmask) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        const cufftComplex a = t[i], b = H[i & nmask];
        t[i] = make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
    }
}

static double rel_err(const float *a, const float *b, size_t cnt) {
    double e = 0, r = 0;
    for (size_t i = 0; i < cnt; ++i) {
        const double d = (double)a[i] - (double)b[i];
        e += d != d ? 1e300 : d * d;
        r += (double)b[i] * b[i];
    }
    return sqrt(e / (r > 0 ? r : 1));
}

static int conv_part(const Opts &o, int64_t total, const float *h_x, FILE *csv, bool *all_ok) {
    const size_t bytes = (size_t)total * sizeof(tile_c32);
    printf("\n== FFT convolution: fused tile kernels vs cuFFT forward + multiply kernel + cuFFT inverse\n");
    printf("complex f32, %zu MiB of signals in + %zu MiB out; GB/s = 2 x bytes / time; fused candidates A, B, C, D "
           "(bench/fftconv_bench.cu; C is examples/fft_convolution.cu's kernel)\n",
           bytes >> 20, bytes >> 20);
    /* outputs: d_y[v] for candidate v < MAXCAND, d_y[MAXCAND] the 3-step's */
    tile_c32 *d_x, *d_y[MAXCAND + 1], *d_t, *d_H;
    CK(cudaMalloc(&d_x, bytes));
    for (int v = 0; v <= MAXCAND; ++v) CK(cudaMalloc(&d_y[v], bytes));
    CK(cudaMalloc(&d_t, bytes));
    CK(cudaMalloc(&d_H, 4096 * sizeof(tile_c32)));
    CK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
    std::vector<float> y0(2 * (size_t)total), y1(2 * (size_t)total);
    for (int li = 0; li < 3; ++li) {
        const ConvLen &L = conv_lens[li];
        const int n = L.n, nc = L.ncand; /* variant nc: the 3-step */
        const int64_t rows = total / n;
        ConvInfo ci[MAXCAND];
        for (int v = 0; v < nc; ++v)
            if (L.info[v](rows, &ci[v])) return 1;
        /* the filter: a decaying complex sequence; H = fft(h) / n */
        std::vector<tile_c32> h(n), H(n);
        for (int k = 0; k < n; ++k) {
            h[k].re = (float)(exp(-k / 16.0) / 16.0);
            h[k].im = (float)(0.25 * sin(k / 8.0) * exp(-k / 32.0) / 16.0);
        }
        cufftHandle p1, plan;
        CF(cufftPlan1d(&p1, n, CUFFT_C2C, 1));
        CK(cudaMemcpy(d_H, h.data(), n * sizeof(tile_c32), cudaMemcpyHostToDevice));
        CF(cufftExecC2C(p1, (cufftComplex *)d_H, (cufftComplex *)d_H, CUFFT_FORWARD));
        CK(cudaMemcpy(H.data(), d_H, n * sizeof(tile_c32), cudaMemcpyDeviceToHost));
        for (int k = 0; k < n; ++k) {
            H[k].re /= (float)n;
            H[k].im /= (float)n;
        }
        CK(cudaMemcpy(d_H, H.data(), n * sizeof(tile_c32), cudaMemcpyHostToDevice));
        CF(cufftDestroy(p1));
        CF(cufftPlan1d(&plan, n, CUFFT_C2C, (int)rows));
        auto launch = [&](int v, int) -> int {
            if (v < nc) {
                TK(L.launch[v](ci[v].grid, d_x, d_H, d_y[v], rows));
            } else {
                CF(cufftExecC2C(plan, (cufftComplex *)d_x, (cufftComplex *)d_t, CUFFT_FORWARD));
                pointwise_mul<<<1056, 256>>>((cufftComplex *)d_t, (const cufftComplex *)d_H, total, n - 1);
                CK(cudaGetLastError());
                CF(cufftExecC2C(plan, (cufftComplex *)d_t, (cufftComplex *)d_y[MAXCAND], CUFFT_INVERSE));
            }
            return 0;
        };
        /* the checked run: outputs start as NaN (0xff bytes), so a signal a
         * kernel skipped fails; every signal of every candidate against the
         * 3-step, the last signal of each against the direct convolution */
        for (int v = 0; v <= MAXCAND; ++v) CK(cudaMemset(d_y[v], 0xff, bytes));
        if (run_rounds(TILE_GPU(0), nc + 1, 1, launch)) return 1;
        CK(cudaMemcpy(y1.data(), d_y[MAXCAND], bytes, cudaMemcpyDeviceToHost));
        std::vector<float> ref(2 * (size_t)n);
        const float *xl = h_x + 2 * (size_t)n * (rows - 1);
        for (int i = 0; i < n; ++i) {
            double re = 0, im = 0;
            for (int j = 0; j < n; ++j) {
                const int m = (i - j) & (n - 1);
                re += (double)h[j].re * xl[2 * m] - (double)h[j].im * xl[2 * m + 1];
                im += (double)h[j].re * xl[2 * m + 1] + (double)h[j].im * xl[2 * m];
            }
            ref[2 * i] = (float)re;
            ref[2 * i + 1] = (float)im;
        }
        const double ed3 = rel_err(&y1[2 * (size_t)n * (rows - 1)], ref.data(), 2 * (size_t)n);
        bool ok[MAXCAND], all_right = ed3 < 1e-5;
        printf("check n=%d: 3-step vs direct convolution in double (last signal) %.2e: %s\n", n, ed3,
               ed3 < 1e-5 ? "ok" : "WRONG");
        for (int v = 0; v < nc; ++v) {
            CK(cudaMemcpy(y0.data(), d_y[v], bytes, cudaMemcpyDeviceToHost));
            double worst = 0;
            for (int64_t r = 0; r < rows; ++r) {
                const double e = rel_err(&y0[2 * (size_t)n * r], &y1[2 * (size_t)n * r], 2 * (size_t)n);
                worst = e > worst || e != e ? e : worst;
            }
            const double ed = rel_err(&y0[2 * (size_t)n * (rows - 1)], ref.data(), 2 * (size_t)n);
            ok[v] = worst < 2e-5 && ed < 1e-5;
            all_right = all_right && ok[v];
            printf("check n=%d %s: vs 3-step (worst of %lld signals) %.2e, vs direct convolution %.2e: %s\n", n,
                   ci[v].name, (long long)rows, worst, ed, ok[v] ? "ok" : "WRONG");
        }
        /* warm-up, then the variants interleaved */
        if (run_rounds(TILE_GPU(0), nc + 1, o.warmup > 0 ? o.warmup : 1, launch)) return 1;
        std::vector<float> ms[MAXCAND + 1];
        if (time_interleaved(TILE_GPU(0), nc + 1, o.iters, ms, launch)) return 1;
        const Stat s3 = stats(ms[nc]);
        const double g3 = gbps(2.0 * bytes, s3.median);
        int best = -1;
        double gbest = 0;
        for (int v = 0; v < nc; ++v) {
            const Stat sv = stats(ms[v]);
            const double gv = gbps(2.0 * bytes, sv.median);
            printf("n=%-5d %-24s %9.1f GB/s  (median %.4f ms, min %.4f, max %.4f)  %.3fx 3-step  [block %d, %d rows a "
                   "tile, %d registers, %.1f KiB shared, %d blocks/SM, grid %d%s]%s\n",
                   n, ci[v].name, gv, sv.median, sv.min, sv.max, gv / g3, L.block, L.rows_per_tile, ci[v].regs,
                   ci[v].smem / 1024.0, ci[v].per_sm, ci[v].grid, ci[v].pipelined ? ", walks tiles" : "",
                   ok[v] ? "" : "  WRONG");
            if (csv) fprintf(csv, "fftconv,%d,fused_%c,%.5f,%.1f,%.4f\n", n, ci[v].name[0], sv.median, gv, gv / g3);
            if (ok[v] && gv > gbest) {
                gbest = gv;
                best = v;
            }
        }
        printf("n=%-5d %-24s %9.1f GB/s  (median %.4f ms, min %.4f, max %.4f)\n", n, "cuFFT + multiply + cuFFT", g3,
               s3.median, s3.min, s3.max);
        if (csv) fprintf(csv, "fftconv,%d,cufft_3step,%.5f,%.1f,1\n", n, s3.median, g3);
        printf("fftconv n=%d: fastest correct fused candidate: %s\n", n, best >= 0 ? ci[best].name : "none");
        char label[96];
        snprintf(label, sizeof label, "fftconv n=%d: fused/3-step", n);
        *all_ok = print_target(label, gbest / g3, ">=", 2.0, 3, all_right && best >= 0) && *all_ok;
        CF(cufftDestroy(plan));
    }
    cudaFree(d_x);
    for (int v = 0; v <= MAXCAND; ++v) cudaFree(d_y[v]);
    cudaFree(d_t);
    cudaFree(d_H);
    return 0;
}

static int auto_part(const Opts &o, int64_t total, const float *h_x, FILE *csv, bool *all_ok) {
    const size_t bytes = (size_t)total * sizeof(tile_c32);
    printf("\n== host FFT automatic choice: tile_fft_c2c_f32 forward, out of place, %zu MiB in + out; GB/s = 2 x bytes / time\n",
           bytes >> 20);
    printf("table in this build: TILE_FFT_AUTO_TILE = 0x%x (bit k: n = 2^k takes the tile kernel)\n",
           (unsigned)(TILE_FFT_AUTO_TILE));
    tile_c32 *d_x, *d_y[3];
    CK(cudaMalloc(&d_x, bytes));
    for (int v = 0; v < 3; ++v) CK(cudaMalloc(&d_y[v], bytes));
    CK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
    std::vector<float> ya(2 * (size_t)total), yb(2 * (size_t)total);
    const char *vname[3] = {"tile kernel", "cuFFT", "auto"};
    const int paths[3] = {TILE_FFT_TILE, TILE_FFT_LIBRARY, TILE_FFT_AUTO};
    double worst_ratio = 1e30;
    unsigned measured = 0;
    for (int k = 4; k <= 12; ++k) {
        const int n = 1 << k;
        const int batch = (int)(total / n);
        auto launch = [&](int v, int) -> int {
            TK(tile_fft_c2c_f32_ex(TILE_GPU(0), n, batch, d_x, d_y[v], TILE_FFT_FORWARD, paths[v]));
            return 0;
        };
        if (run_rounds(TILE_GPU(0), 3, o.warmup > 0 ? o.warmup : 1, launch)) return 1;
        CK(cudaMemcpy(yb.data(), d_y[1], bytes, cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int v = 0; v < 3; v += 2) {
            CK(cudaMemcpy(ya.data(), d_y[v], bytes, cudaMemcpyDeviceToHost));
            double worst = 0;
            const int64_t chk[3] = {0, batch / 2, batch - 1};
            for (int c = 0; c < 3; ++c) {
                const double e = rel_err(&ya[2 * (size_t)n * chk[c]], &yb[2 * (size_t)n * chk[c]], 2 * (size_t)n);
                worst = e > worst ? e : worst;
            }
            if (!(worst < 2e-5)) {
                printf("check n=%d %s vs cuFFT: %.2e: WRONG\n", n, vname[v], worst);
                ok = false;
            }
        }
        std::vector<float> ms[3];
        if (time_interleaved(TILE_GPU(0), 3, o.iters, ms, launch)) return 1;
        double g[3];
        for (int v = 0; v < 3; ++v) g[v] = gbps(2.0 * bytes, stats(ms[v]).median);
        const double better = g[0] > g[1] ? g[0] : g[1], ratio = g[2] / better;
        if (g[0] > g[1]) measured |= 1u << k;
        printf("n=%-5d tile %8.1f GB/s  cuFFT %8.1f GB/s  (tile/cuFFT %.3f)  auto %8.1f GB/s [%s] = %.3fx the better%s\n",
               n, g[0], g[1], g[0] / g[1], g[2], tile_fft_c2c_f32_uses_tile(n) ? "tile" : "cuFFT", ratio,
               ok ? "" : "  WRONG");
        if (csv)
            for (int v = 0; v < 3; ++v)
                fprintf(csv, "fft_auto,%d,%s,%.5f,%.1f,%.4f\n", n, v == 0 ? "tile" : v == 1 ? "cufft" : "auto",
                        stats(ms[v]).median, g[v], g[v] / better);
        worst_ratio = ratio < worst_ratio ? ratio : worst_ratio;
        *all_ok = ok && *all_ok;
        if (!ok) worst_ratio = 0;
    }
    printf("measured table (tile kernel faster than cuFFT): TILE_FFT_AUTO_TILE = 0x%x\n", measured);
    *all_ok = print_target("auto within 5% of the better path (auto / better, worst length)", worst_ratio, ">=", 0.95, 3) &&
              *all_ok;
    tile_fft_release_plans();
    cudaFree(d_x);
    for (int v = 0; v < 3; ++v) cudaFree(d_y[v]);
    return 0;
}

static int run(const Opts &o) {
    BenchEnv env;
    if (bench_env(&env, "fftconv_bench", o)) return 1;
    const int64_t total = o.small ? (1 << 16) : (1 << 23); /* complex points per buffer */
    std::vector<float> h_x(2 * (size_t)total);
    uint32_t s = 777u;
    for (size_t i = 0; i < h_x.size(); ++i) {
        s = s * 1664525u + 1013904223u;
        h_x[i] = (float)((double)(s >> 8) / (double)(1u << 24) * 2.0 - 1.0);
    }
    FILE *csv = o.csv ? csv_open(o.csv) : nullptr;
    if (o.csv && !csv) return 1;
    if (csv) fprintf(csv, "bench,n,variant,median_ms,gbps,ratio\n");
    bool all_ok = true;
    if (conv_part(o, total, h_x.data(), csv, &all_ok)) return 1;
    if (auto_part(o, total, h_x.data(), csv, &all_ok)) return 1;
    if (csv && csv_close(csv, o.csv)) return 1;
    return o.strict && !all_ok ? 1 : 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 30, 5); }
