/* nvcc-arch: 90a (scripts/nvcc-one.sh and gpu-check.sh build this file for
 * sm_90a instead of sm_90: wgmma exists only there)
 *
 * bench/wgmma_bench.cu - a prototype of tile.h's sm_90a GEMM path: bf16
 * inputs, f32 accumulation and output, C = A B with A (M x K) and B (K x N)
 * row-major, on Hopper's warpgroup MMA (wgmma.mma_async m64n256k16), against
 * cublasGemmEx (bf16 in, f32 out, CUBLAS_COMPUTE_32F) in the same process.
 * The question it answers before the library grows a wgmma path: does a
 * plain cp.async-fed wgmma kernel reach issue 9's 0.5 of cuBLAS at 8192^3
 * (the mma.sync path of examples/gemm_tiled.cu: 0.31)?
 *
 * Kernel: 128 x 256 block tile, k windows of 64, 4 shared-memory stages
 * (48 KiB each), 256 threads = 2 warpgroups, each 64 x 256 of C (128 f32
 * accumulators a thread). Every thread issues cp.async 16-byte copies of the
 * window 2 ahead; the windows sit in shared memory in the 128-byte swizzled
 * layouts wgmma reads through matrix descriptors:
 *   A, K-major: row r of the window (64 bf16 = 128 bytes), 16-byte chunk c at
 *     chunk c ^ (r & 7); descriptor: stride byte offset 1024 (8 rows), the
 *     k16 step = start address + 32 bytes;
 *   B, MN-major (row-major B: n contiguous): 4 blocks of 64 columns, each
 *     64 k-rows of 128 bytes, chunk c of k-row k at c ^ (k & 7); descriptor:
 *     leading byte offset 8192 (next 64 columns), stride byte offset 1024
 *     (next 8 k-rows), transpose-B set; the k16 step = + 2048 bytes.
 * Variants (each checked against cuBLAS in the same run): 0 as above; 1 the
 * B descriptor's two offsets swapped (in case the PTX reading above is
 * wrong: then variant 0 fails its check and 1 passes); 2: B transposed
 * first by a separate kernel (N x K, K-major like A; the transpose's time
 * counted in); 3: the library form of variant 0 - the kernel of
 * examples/gemm_wgmma.cu, written with tile/wgmma.h's windows, loads,
 * accumulator and store (any M, N, K; edges zero-filled) - whose ratio to
 * cuBLAS is issue 9's target: bf16 8192^3 >= 0.5 of cublasGemmEx.
 *
 *   wgmma_bench [--small] [--iters N] [--warmup N] [--csv PATH] [--commit SHA] [--strict]
 * Exit: 0 ok (also with no GPU, or a build without sm_90a); 1 a CUDA error
 * or a wrong result; 3 a target missed under --strict.
 */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cmath>
#include "bench_util.h"
#define GEMM_WGMMA_NO_MAIN /* the library kernel and its launcher, not the example's main */
#include "../examples/gemm_wgmma.cu"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WG_DEVICE 1 /* device code of an sm_90a build */
#else
#define WG_DEVICE 0
#endif
/* host side: the binary carries sm_90a code only when built for it (nvcc
 * defines no host-side macro for that; the build passes -DBENCH_SM90A) */
#ifndef BENCH_SM90A
#define BENCH_SM90A 0
#endif

#define WG_BM 128
#define WG_BN 256
#define WG_BK 64
#define WG_ST 4
#define WG_THREADS 256
#define WG_A_BYTES (WG_BM * WG_BK * 2)  /* 16 KiB */
#define WG_B_BYTES (WG_BK * WG_BN * 2)  /* 32 KiB */
#define WG_STAGE (WG_A_BYTES + WG_B_BYTES)
#define WG_SMEM (WG_ST * WG_STAGE + 1024) /* + alignment to 1024 bytes */

typedef __nv_bfloat16 bf16;

__device__ __forceinline__ uint64_t wg_desc(uint32_t saddr, uint32_t lbo, uint32_t sbo) {
    return (uint64_t)((saddr & 0x3FFFFu) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32) |
           (1ull << 62); /* 128-byte swizzle */
}
__device__ __forceinline__ void wg_cp16(uint32_t saddr, const void *g) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(g));
}

#if WG_DEVICE
/* d += A B for one k16 step (scale_d 0: d = A B) */
template <int TRANS_B>
__device__ __forceinline__ void wg_mma(float *d, uint64_t da, uint64_t db, int scale_d) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, %131;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                   "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                   "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                   "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                   "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                   "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                   "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                   "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                   "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db), "r"(scale_d), "n"(TRANS_B));
}
#endif

/* VAR 0: B row-major (MN-major descriptor); 1: the same, LBO and SBO
 * swapped; 2: B given transposed (N x K row-major: K-major like A) */
template <int VAR>
__global__ void __launch_bounds__(WG_THREADS, 1) wg_gemm(const bf16 *__restrict__ A, const bf16 *__restrict__ B,
                                                         float *__restrict__ C, int M, int N, int K) {
#if WG_DEVICE
    extern __shared__ unsigned char wg_raw[];
    const uint32_t base = ((uint32_t)__cvta_generic_to_shared(wg_raw) + 1023u) & ~1023u;
    const int tid = threadIdx.x, wg = tid >> 7;
    const int bm = blockIdx.y * WG_BM, bn = blockIdx.x * WG_BN;
    const int nk = K / WG_BK;
    float d[128];
#pragma unroll
    for (int i = 0; i < 128; ++i) d[i] = 0.0f;

    auto load = [&](int kt) {
        const uint32_t sa = base + (uint32_t)(kt % WG_ST) * WG_STAGE, sb = sa + WG_A_BYTES;
        const int k0 = kt * WG_BK;
#pragma unroll
        for (int i = 0; i < 4; ++i) { /* A: 128 rows x 8 chunks */
            const int q = tid + WG_THREADS * i, r = q >> 3, c = q & 7;
            wg_cp16(sa + r * 128 + ((c ^ (r & 7)) << 4), A + (size_t)(bm + r) * K + k0 + c * 8);
        }
        if (VAR < 2) {
#pragma unroll
            for (int i = 0; i < 8; ++i) { /* B: 64 k-rows x 32 chunks of 8 columns */
                const int q = tid + WG_THREADS * i, k = q >> 5, cc = q & 31, nc = cc >> 3, c = cc & 7;
                wg_cp16(sb + nc * 8192 + k * 128 + ((c ^ (k & 7)) << 4), B + (size_t)(k0 + k) * N + bn + cc * 8);
            }
        } else {
#pragma unroll
            for (int i = 0; i < 8; ++i) { /* B^T: 256 n-rows x 8 chunks of k */
                const int q = tid + WG_THREADS * i, r = q >> 3, c = q & 7;
                wg_cp16(sb + r * 128 + ((c ^ (r & 7)) << 4), B + (size_t)(bn + r) * K + k0 + c * 8);
            }
        }
    };
    load(0);
    asm volatile("cp.async.commit_group;\n" ::);
    if (nk > 1) load(1);
    asm volatile("cp.async.commit_group;\n" ::);
    for (int kt = 0; kt < nk; ++kt) {
        /* window kt landed (window kt + 1 may still be in flight) */
        asm volatile("cp.async.wait_group 1;\n" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        __syncthreads();
        /* slot (kt + 2) % 4 was window kt - 2's: both warpgroups waited for
         * its MMAs (wait_group 1 in iteration kt - 1) before this barrier */
        if (kt + 2 < nk) load(kt + 2);
        asm volatile("cp.async.commit_group;\n" ::);
        const uint32_t sa = base + (uint32_t)(kt % WG_ST) * WG_STAGE + (uint32_t)wg * (64 * 128), sb =
            base + (uint32_t)(kt % WG_ST) * WG_STAGE + WG_A_BYTES;
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int ks = 0; ks < 4; ++ks) {
            const uint64_t da = wg_desc(sa + ks * 32, 16, 1024);
            uint64_t db;
            if (VAR == 0) db = wg_desc(sb + ks * 2048, 8192, 1024);
            else if (VAR == 1) db = wg_desc(sb + ks * 2048, 1024, 8192);
            else db = wg_desc(sb + ks * 32, 16, 1024);
            if (VAR < 2) wg_mma<1>(d, da, db, kt > 0 || ks > 0);
            else wg_mma<0>(d, da, db, kt > 0 || ks > 0);
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    /* accumulators: warp w of the warpgroup has rows 16 w .. 16 w + 15;
     * d[4 j + {0, 1}] row l / 4, columns 8 j + 2 (l % 4) + {0, 1};
     * d[4 j + {2, 3}] the same 8 rows further down */
    const int w = (tid & 127) >> 5, l = tid & 31;
    const int r0 = bm + wg * 64 + w * 16 + (l >> 2);
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        const int c = bn + 8 * j + 2 * (l & 3);
        *(float2 *)(C + (size_t)r0 * N + c) = make_float2(d[4 * j], d[4 * j + 1]);
        *(float2 *)(C + (size_t)(r0 + 8) * N + c) = make_float2(d[4 * j + 2], d[4 * j + 3]);
    }
#else
    (void)A; (void)B; (void)C; (void)M; (void)N; (void)K;
#endif
}

/* B^T for variant 2: 32 x 32 tiles through shared memory */
__global__ void wg_transpose(const bf16 *__restrict__ in, bf16 *__restrict__ out, int rows, int cols) {
    __shared__ bf16 t[32][33];
    const int x = blockIdx.x * 32 + threadIdx.x, y0 = blockIdx.y * 32;
    for (int i = threadIdx.y; i < 32; i += blockDim.y) t[i][threadIdx.x] = in[(size_t)(y0 + i) * cols + x];
    __syncthreads();
    const int ox = y0 + threadIdx.x, oy0 = blockIdx.x * 32;
    for (int i = threadIdx.y; i < 32; i += blockDim.y) out[(size_t)(oy0 + i) * rows + ox] = t[threadIdx.x][i];
}

__global__ void wg_fill(bf16 *h, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        h[i] = __float2bfloat16(tile_hash_unit(seed, (uint32_t)i) - 0.5f);
}

#define CB(call)                                                                   \
    do {                                                                           \
        cublasStatus_t cb_s = (call);                                              \
        if (cb_s != CUBLAS_STATUS_SUCCESS) {                                       \
            fprintf(stderr, "cuBLAS error %d at %s:%d: %s\n", (int)cb_s, __FILE__, __LINE__, #call); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

static int run(const Opts &o) {
    BenchEnv env;
    if (bench_env(&env, "wgmma_bench", o)) return 1;
    if (!BENCH_SM90A) {
        printf("wgmma_bench: built without sm_90a device code: skipped\n");
        return 0;
    }
    const int n = o.small ? 1024 : 8192;
    const size_t nn = (size_t)n * n;
    bf16 *A, *B, *Bt;
    float *Ct, *Cc;
    CK(cudaMalloc(&A, nn * 2));
    CK(cudaMalloc(&B, nn * 2));
    CK(cudaMalloc(&Bt, nn * 2));
    CK(cudaMalloc(&Ct, nn * 4));
    CK(cudaMalloc(&Cc, nn * 4));
    wg_fill<<<1024, 256>>>(A, nn, 11);
    wg_fill<<<1024, 256>>>(B, nn, 12);
    CK(cudaGetLastError());
    CK(cudaFuncSetAttribute(wg_gemm<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, WG_SMEM));
    CK(cudaFuncSetAttribute(wg_gemm<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, WG_SMEM));
    CK(cudaFuncSetAttribute(wg_gemm<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, WG_SMEM));
    cublasHandle_t h;
    CB(cublasCreate(&h));
    const float one = 1.0f, zero = 0.0f;
    const dim3 grid(n / WG_BN, n / WG_BM);
    const tile_exec ex = TILE_GPU(env.dev);
    const int NV = 5, NW = 4, CUB = 4; /* 0..2 the prototype's variants, 3 the library kernel, 4 cuBLAS */
    static const char *const names[5] = {"prototype wgmma B MN-major", "prototype B MN-major, offsets swapped",
                                         "prototype B^T K-major (+ transpose)", "library gemm_wgmma (tile/wgmma.h)",
                                         "cublasGemmEx bf16"};
    auto launch = [&](int v, int) -> int {
        if (v == 3) {
            const int e = gemm_wgmma_launch(ex, (const tile_bf16 *)A, (const tile_bf16 *)B, Ct, n, n, n);
            if (e) {
                fprintf(stderr, "gemm_wgmma launch: %s\n", tile_error_string(e));
                return 1;
            }
            return 0;
        }
        if (v == CUB) {
            CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, CUDA_R_16BF, n, A, CUDA_R_16BF, n, &zero, Cc,
                            CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
            return 0;
        }
        if (v == 0) wg_gemm<0><<<grid, WG_THREADS, WG_SMEM>>>(A, B, Ct, n, n, n);
        if (v == 1) wg_gemm<1><<<grid, WG_THREADS, WG_SMEM>>>(A, B, Ct, n, n, n);
        if (v == 2) {
            wg_transpose<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(B, Bt, n, n);
            wg_gemm<2><<<grid, WG_THREADS, WG_SMEM>>>(A, Bt, Ct, n, n, n);
        }
        CK(cudaGetLastError());
        return 0;
    };
    /* checks: cuBLAS's C, then each variant's, every element */
    CK(cudaMemset(Cc, 0xff, nn * 4));
    if (launch(CUB, 0)) return 1;
    CK(cudaDeviceSynchronize());
    std::vector<float> cc(nn), ct(nn);
    CK(cudaMemcpy(cc.data(), Cc, nn * 4, cudaMemcpyDeviceToHost));
    /* the double reference at 64 points checks cuBLAS itself */
    {
        std::vector<bf16> ha(nn), hb(nn);
        CK(cudaMemcpy(ha.data(), A, nn * 2, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hb.data(), B, nn * 2, cudaMemcpyDeviceToHost));
        long bad = 0;
        for (int s = 0; s < 64; ++s) {
            const int i = (int)(tile_hash32(5, (uint32_t)s) % (uint32_t)n), j = (int)(tile_hash32(6, (uint32_t)s) % (uint32_t)n);
            double r = 0;
            for (int k = 0; k < n; ++k)
                r += (double)__bfloat162float(ha[(size_t)i * n + k]) * (double)__bfloat162float(hb[(size_t)k * n + j]);
            bad += !(fabs(r - cc[(size_t)i * n + j]) <= 1e-5 * n * 0.25);
        }
        printf("check cuBLAS vs double at 64 points: %s\n", bad ? "FAIL" : "ok");
        if (bad) return 1;
    }
    const double tol = 1e-5 * n * 0.25;
    bool ok[4];
    for (int v = 0; v < NW; ++v) {
        CK(cudaMemset(Ct, 0xff, nn * 4));
        if (launch(v, 0)) return 1;
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(ct.data(), Ct, nn * 4, cudaMemcpyDeviceToHost));
        long bad = 0;
        double mx = 0;
        for (size_t i = 0; i < nn; ++i) {
            const double e = fabs((double)ct[i] - cc[i]);
            if (!(e <= tol)) {
                if (bad < 3) printf("  %s: C[%zu] = %g, cuBLAS %g\n", names[v], i, ct[i], cc[i]);
                ++bad;
            }
            if (e > mx || e != e) mx = e;
        }
        ok[v] = bad == 0;
        printf("check %-36s vs cuBLAS, every element: %s (max |diff| %g, tolerance %g)\n", names[v], ok[v] ? "ok" : "FAIL", mx,
               tol);
    }
    if (run_rounds(ex, NV, o.warmup, launch)) return 1;
    std::vector<float> ms[5];
    if (time_interleaved(ex, NV, o.iters, ms, launch)) return 1;
    const double flops = 2.0 * n * (double)n * n;
    double tf[5], med[5];
    for (int v = 0; v < NV; ++v) {
        med[v] = stats(ms[v]).median;
        tf[v] = flops / (med[v] * 1e-3) / 1e12;
    }
    for (int v = 0; v < NV; ++v) {
        printf("%-36s n=%d: %8.3f ms  %7.1f TFLOP/s  %5.1f%% of 989  vs cuBLAS %.2f%s\n", names[v], n, med[v], tf[v],
               100.0 * tf[v] / 989.0, tf[v] / tf[CUB], v < NW && !ok[v] ? " (WRONG RESULT)" : "");
    }
    int best = -1;
    for (int v = 0; v < 3; ++v)
        if (ok[v] && (best < 0 || tf[v] > tf[best])) best = v;
    if (best < 0) {
        printf("correctness: FAIL (no variant matched cuBLAS)\n");
        return 1;
    }
    printf("correctness: %s\n", ok[0] && ok[2] && ok[3] ? "PASS" : "PARTIAL (see the checks)");
    printf("wgmma prototype bf16 %d^3 / cuBLAS = %.2f (no target: the prototype, peer of the library kernel; best: %s)\n",
           n, tf[best] / tf[CUB], names[best]);
    char label[96];
    snprintf(label, sizeof label, "bf16 %d^3 wgmma library / cuBLAS", n);
    const bool pass = print_target(label, tf[3] / tf[CUB], ">=", 0.50, 2, ok[3]);
    if (o.csv) {
        FILE *csv = csv_open(o.csv);
        if (!csv) return 1;
        fprintf(csv, "date,commit,device,variant,n,ms,tflops,cublas_ms,cublas_tflops,ratio,correct\n");
        for (int v = 0; v < NW; ++v)
            fprintf(csv, "%s,%s,\"%s\",\"%s\",%d,%.4f,%.2f,%.4f,%.2f,%.4f,%s\n", env.date, env.commit, env.prop.name,
                    names[v], n, med[v], tf[v], med[CUB], tf[CUB], tf[v] / tf[CUB], ok[v] ? "yes" : "no");
        if (csv_close(csv, o.csv)) return 1;
    }
    CB(cublasDestroy(h));
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(Bt));
    CK(cudaFree(Ct));
    CK(cudaFree(Cc));
    if (!ok[3]) return 1;
    return o.strict && !pass ? 3 : 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run, 20, 3); }
