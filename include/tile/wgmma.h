/* tile/wgmma.h - the large-GEMM path of sm_90a: warpgroup MMA (wgmma) on
 * bf16 / f16 windows in shared memory, f32 accumulators in registers.
 *
 * A block of BM / 64 warpgroups (BM / 64 * 128 threads) computes a BM x BN
 * tile of C = A @ B (A M x K row-major, B K x N row-major) by walking K in
 * windows of TILE_WGMMA_BK = 64:
 *
 *   TILE_KERNEL_SMEM(gemm, 256, TILE_WGMMA_SMEM(128, 256, 4), const tile_bf16 *A, const tile_bf16 *B,
 *                    float *C, int M, int N, int K) {
 *       const int tn = (N + 255) / 256, i0 = tile_block(0) / tn * 128, j0 = tile_block(0) % tn * 256;
 *       tile_wgmma_window_a_bf16(aw, 128, 4);           // 4 stages of A's 128 x 64 window
 *       tile_wgmma_window_b_bf16(bw, 256, 4);           // 4 stages of B's 64 x 256 window
 *       tile_wgmma_acc(acc, 128, 256);                  // zero; 128 f32 a thread
 *       const tile_array a = tile_array2(A, M, K), b = tile_array2(B, K, N);
 *       const int nk = (K + 63) / 64;
 *       for (int w = 0; w < 2; ++w) {                   // windows 0 and 1 in flight
 *           if (w < nk) { tile_wgmma_load_a(aw, w, a, i0, 64 * w); tile_wgmma_load_b(bw, w, b, 64 * w, j0); }
 *           tile_async_commit();
 *       }
 *       for (int k = 0; k < nk; ++k) {
 *           tile_wgmma_wait(1);                         // window k landed (barrier inside)
 *           if (k + 2 < nk) { tile_wgmma_load_a(aw, k + 2, a, i0, 64 * (k + 2));
 *                             tile_wgmma_load_b(bw, k + 2, b, 64 * (k + 2), j0); }
 *           tile_async_commit();
 *           tile_wgmma_mma_async(acc, aw, k, bw, k);    // acc += A_k @ B_k, in flight
 *           tile_wgmma_mma_wait(acc, 1);                // window k - 1's product done
 *       }
 *       tile_wgmma_mma_wait(acc, 0);
 *       tile_wgmma_store(tile_array2(C, M, N), acc, i0, j0);   // edges dropped
 *   }
 *
 * Suppose M = N = K = 8192: each block computes a 128 x 256 tile of C from
 * 128 windows; C equals cublasGemmEx's within f32 rounding (examples/
 * gemm_wgmma.cu checks odd sizes against a double product).
 *
 * Shared-memory layouts (what wgmma reads through its matrix descriptors;
 * every stage 1024-byte aligned; docs/wgmma.md has the derivation):
 *  - A window (BM x 64, K-major): row r is 128 bytes; its 16-byte chunk c
 *    (elements 8c .. 8c + 7) is stored at chunk c ^ (r & 7) (the 128-byte
 *    swizzle). Descriptor: leading byte offset 16, stride byte offset 1024
 *    (8 rows); the k16 step adds 32 bytes to the start address; warpgroup g
 *    starts at row 64 g.
 *  - B window (64 x BN, row-major B = MN-major): BN / 64 blocks of 64
 *    columns, each 64 k-rows of 128 bytes, chunk c of k-row k at c ^ (k & 7).
 *    Descriptor: leading byte offset 8192 (the next 64 columns), stride byte
 *    offset 1024 (the next 8 k-rows), transpose-B; the k16 step adds 2048.
 * tile_wgmma_offset(rows, r, c) gives the byte offset of element (r, c).
 *
 * What runs where:
 *  - sm_90a device code (__CUDA_ARCH_FEAT_SM90_ALL: build with
 *    -arch=sm_90a): loads are 16-byte cp.async copies (zero-filled past the
 *    array through cp.async's source size) when the array's rows are 16-byte
 *    aligned, else element copies; products are wgmma.mma_async m64nBNk16
 *    (f32 += bf16 x bf16 or f16 x f16), 4 a window, one commit group.
 *  - other device code (sm_80, plain sm_90): the same loads (cp.async on
 *    sm_80+); the product is plain f32 FMA by each thread over its own
 *    accumulator elements, reading the swizzled windows (correct, slow).
 *  - CPU (block_dim 1): the loads copy synchronously into the same swizzled
 *    windows; the product is plain loops; the one thread holds the whole
 *    BM x BN accumulator (row-major). Same results up to summation order.
 *
 * Rules (every call is cooperative: all threads of the block call it):
 *  - a window is read by the product only after the tile_wgmma_wait that
 *    covers its copies' group (tile_async_commit closes a group);
 *  - a stage may be loaded again only when every product reading it has
 *    completed (tile_wgmma_mma_wait) in every warpgroup, i.e. after the next
 *    tile_wgmma_wait's barrier: with one product in flight and loads 2
 *    windows ahead, 4 stages;
 *  - the accumulator is read (store) only after tile_wgmma_mma_wait(acc, 0).
 */
#ifndef TILE_WGMMA_H
#define TILE_WGMMA_H

#include "async.h"
#include "half.h"

/* the window depth along k (elements): 64 bf16 / f16 = one 128-byte row */
#define TILE_WGMMA_BK 64

#if TILE_ON_DEVICE && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TILE__WG_SM90A 1
#else
#define TILE__WG_SM90A 0
#endif

/* ---- windows ----
 * A window is a pointer to its stage 0 (1024-byte aligned) whose type holds,
 * as array extents of a never-used member, the element type (1 bf16, 2 f16),
 * the role (1 A, 2 B), the extent (BM or BN) and the stage count. */
#define TILE__WG_WIN_T(dt, role, ext, stages)                                      \
    struct {                                                                       \
        unsigned char *p;                                                          \
        char (*tile__wg)[dt][role][ext][stages];                                   \
    }
#define TILE__WG_DT(w) ((int)(sizeof(*(w).tile__wg) / sizeof((*(w).tile__wg)[0])))
#define TILE__WG_ROLE(w) ((int)(sizeof((*(w).tile__wg)[0]) / sizeof((*(w).tile__wg)[0][0])))
#define TILE__WG_EXT(w) ((int)(sizeof((*(w).tile__wg)[0][0]) / sizeof((*(w).tile__wg)[0][0][0])))
#define TILE__WG_ST(w) ((int)sizeof((*(w).tile__wg)[0][0][0]))

/* Arena bytes of one window of `ext` rows (A: BM) or columns (B: BN) over
 * `stages` stages (1024 bytes of it for the alignment), and of the pair a
 * GEMM needs, for TILE_KERNEL_SMEM:
 *   TILE_WGMMA_WINDOW_BYTES(128, 4) == 66560
 *   TILE_WGMMA_SMEM(128, 256, 4) == 198656 (194 KiB: fits sm_90's 227) */
#define TILE_WGMMA_WINDOW_BYTES(ext, stages) ((size_t)(stages) * (size_t)(ext)*128u + 1024u)
#define TILE_WGMMA_SMEM(BM, BN, stages) (TILE_WGMMA_WINDOW_BYTES(BM, stages) + TILE_WGMMA_WINDOW_BYTES(BN, stages))

/* Byte offset of element (r, c) in one stage of a window of `rows` rows:
 * the 16-byte chunk c / 8 of row r sits at chunk (c / 8) ^ (r & 7) of the
 * row's 128 bytes; columns come in blocks of 64 (rows * 128 bytes each).
 * A window: tile_wgmma_offset(BM, m, k); B window: tile_wgmma_offset(64, k, n).
 *   tile_wgmma_offset(128, 1, 0) == 144      (row 1, chunk 0 -> chunk 1)
 *   tile_wgmma_offset(64, 3, 70) == 8636     (column block 1: 8192, k-row 3: 384,
 *                                             chunk 0 ^ 3 = 3: 48, element 6: 12) */
TILE_API int tile_wgmma_offset(int rows, int r, int c) {
    return (c >> 6) * (rows * 128) + r * 128 + ((((c >> 3) & 7) ^ (r & 7)) << 4) + (c & 7) * 2;
}

/* the 1024-byte aligned start inside an allocation of bytes + 1024 (the
 * swizzle wgmma applies is a function of the shared address's bits 4..9) */
TILE_API unsigned char *tile__wg_align(void *p) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    return (unsigned char *)p + ((1024u - (tile__saddr(p) & 1023u)) & 1023u);
#else
    return (unsigned char *)p + ((1024u - (unsigned)((uintptr_t)p & 1023u)) & 1023u);
#endif
}

/* tile_wgmma_window_a_bf16(name, BM, stages) / _f16: declare `name`, A's
 * BM x 64 window (K-major, swizzled) over `stages` stages in the arena;
 * tile_wgmma_window_b_bf16(name, BN, stages) / _f16: B's 64 x BN window
 * (row-major B). BM: a multiple of 64 up to 512 (one warpgroup per 64
 * rows); BN: 64, 128 or 256. Budget TILE_WGMMA_WINDOW_BYTES each.
 *   tile_wgmma_window_a_bf16(aw, 128, 4);    // 4 x 16 KiB (+ 1 KiB alignment)
 *   tile_wgmma_window_b_bf16(bw, 256, 4);    // 4 x 32 KiB (+ 1 KiB alignment)
 * Suppose the arena is TILE_WGMMA_SMEM(128, 256, 4) bytes: both fit, 1024-
 * byte aligned; a smaller arena stops the block at the declaration
 * (TILE_ERR_SMEM_OVERFLOW, as tile_shared). */
#define tile_wgmma_window_a_bf16(name, BM, stages) TILE__WG_WINDOW(name, 1, 1, BM, stages)
#define tile_wgmma_window_a_f16(name, BM, stages) TILE__WG_WINDOW(name, 2, 1, BM, stages)
#define tile_wgmma_window_b_bf16(name, BN, stages) TILE__WG_WINDOW(name, 1, 2, BN, stages)
#define tile_wgmma_window_b_f16(name, BN, stages) TILE__WG_WINDOW(name, 2, 2, BN, stages)
#define TILE__WG_WINDOW(name, dt, role, ext, stages)                               \
    TILE__STATIC_ASSERT((role) == 1 ? (ext) % 64 == 0 && (ext) >= 64 && (ext) <= 512                \
                                    : (ext) == 64 || (ext) == 128 || (ext) == 256, \
                        "tile.h: tile_wgmma_window: BM must be a multiple of 64 up to 512, BN 64, 128 or 256"); \
    TILE__STATIC_ASSERT((stages) >= 1 && (stages) <= 16, "tile.h: tile_wgmma_window: stages must be 1..16"); \
    TILE__SMEM_FITS(TILE_WGMMA_WINDOW_BYTES(ext, stages), "tile_wgmma_window: the window's stages"); \
    TILE__WG_WIN_T(dt, role, ext, stages)                                          \
    name = {tile__wg_align(TILE__SMEM_TAKE(TILE_WGMMA_WINDOW_BYTES(ext, stages))), 0}

/* Stage s of window w (s taken modulo the stage count, so the window
 * number itself may be passed): its first byte. For tests and custom
 * readers: element (r, c) is at tile_wgmma_window_data(w, s) +
 * tile_wgmma_offset(rows, r, c) (rows: BM for A, 64 for B).
 *   tile_wgmma_window_data(aw, 5) == tile_wgmma_window_data(aw, 1)   (4 stages) */
#define tile_wgmma_window_data(w, s)                                               \
    ((w).p + (size_t)((unsigned)(s) % (unsigned)TILE__WG_ST(w)) * ((size_t)TILE__WG_EXT(w) * 128u))

/* ---- loads ---- */
/* one 16-byte copy into shared memory (cp.async.cg; `nb` < 16: the source
 * size, the rest zero-filled; sm_80+) or a plain copy */
TILE_API void tile__wg_cp16(unsigned char *dst, const char *src) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(tile__saddr(dst)), "l"(tile__gaddr(src))
                 : "memory");
#else
    memcpy(dst, src, 16);
#endif
}
TILE_API void tile__wg_cp16z(unsigned char *dst, const char *src, unsigned nb) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(tile__saddr(dst)), "l"(tile__gaddr(src)),
                 "r"(nb)
                 : "memory");
#else
    for (unsigned i = 0; i < 16u; ++i) dst[i] = (unsigned char)(i < nb ? src[i] : 0);
#endif
}

/* Copy the R x C window of 16-bit elements at (r0, c0) of array a (dims 0
 * and 1; elements outside read as zero) into the swizzled stage at dst;
 * block of bd threads, R, C, bd compile-time constants after inlining.
 * 16-byte copies when a's rows are contiguous and 16-byte aligned at the
 * window (else element copies). */
TILE_API void tile__wg_load(unsigned char *dst, const tile_array *a, int64_t r0, int64_t c0, int R, int C, int tid,
                            int bd) {
    const int n16 = R * C / 8, cpr = C / 8; /* 16-byte chunks: all, a row */
    const int64_t s0 = a->stride[0], m = a->shape[0], n = a->ndim >= 2 ? a->shape[1] : 1;
    const uintptr_t at = (uintptr_t)a->ptr + (uintptr_t)((a->base_off + r0 * s0 + c0) * 2);
    if (a->ndim >= 2 && a->stride[1] == 1 && r0 >= 0 && c0 >= 0 && at % 16u == 0 && (s0 * 2) % 16 == 0) {
        /* 16-byte copies. When the block's threads cover whole rows (bd a
         * multiple of cpr: always on the GPU) a thread keeps one chunk
         * column and steps bd / cpr rows a copy: one address add. */
        const int whole = bd % cpr == 0, tr = whole ? tid / cpr : 0, tc = whole ? tid % cpr : 0;
        const int64_t rs = s0 * 2; /* bytes from one row to the next */
        if (r0 + R <= m && c0 + C <= n) { /* inside: plain copies */
            if (whole) {
                /* a step of a multiple of 8 rows keeps the swizzle (r & 7):
                 * the destinations are one address plus constants */
                const int step = whole ? bd / cpr : 1, keep = step % 8 == 0;
                const char *src = (const char *)at + tr * rs + 16 * tc;
                unsigned char *d0 = dst + tile_wgmma_offset(R, tr, 8 * tc);
                TILE__UNROLL for (int i = 0; i < (n16 + bd - 1) / bd; ++i) {
                    if (n16 % bd == 0 || tid + i * bd < n16)
                        tile__wg_cp16(keep ? d0 + i * step * 128 : dst + tile_wgmma_offset(R, tr + i * step, 8 * tc),
                                      src + i * step * rs);
                }
            } else { /* the CPU's one thread */
                for (int q = tid; q < n16; q += bd)
                    tile__wg_cp16(dst + tile_wgmma_offset(R, q / cpr, 8 * (q % cpr)),
                                  (const char *)at + (q / cpr) * rs + 16 * (q % cpr));
            }
        } else { /* an edge: the bytes inside the array, zeros after them */
            /* a copy of 0 bytes reads nothing, but its address stays a 16-byte
             * aligned one inside the allocation: the view's first element,
             * rounded down (allocations are 256-byte aligned) */
            const char *z = (const char *)(((uintptr_t)a->ptr + (uintptr_t)(a->base_off * 2)) & ~(uintptr_t)15);
            TILE__UNROLL for (int i = 0; i < (n16 + bd - 1) / bd; ++i) {
                const int q = tid + i * bd;
                if (n16 % bd == 0 || q < n16) {
                    const int r = whole ? tr + i * (bd / cpr) : q / cpr, cc = whole ? tc : q % cpr;
                    const int64_t left = n - (c0 + 8 * cc); /* elements of the row from the chunk on */
                    const unsigned nb = r0 + r >= m || left <= 0 ? 0u : left >= 8 ? 16u : (unsigned)left * 2u;
                    tile__wg_cp16z(dst + tile_wgmma_offset(R, r, 8 * cc),
                                   nb ? (const char *)at + r * rs + 16 * cc : z, nb);
                }
            }
        }
    } else { /* element copies, zeros outside */
        const int64_t s1 = a->ndim >= 2 ? a->stride[1] : 0;
        const uint16_t *src = (const uint16_t *)a->ptr + a->base_off;
        for (int q = tid; q < R * C; q += bd) {
            const int r = q / C, c = q % C;
            const int64_t gr = r0 + r, gc = c0 + c;
            *(uint16_t *)(dst + tile_wgmma_offset(R, r, c)) =
                gr >= 0 && gr < m && gc >= 0 && gc < n ? src[gr * s0 + gc * s1] : (uint16_t)0;
        }
    }
}

/* tile_wgmma_load_a(w, s, arr, i0, k0): start copying arr[i0 .. i0 + BM,
 * k0 .. k0 + 64] (a 2D array of tile_bf16 / tile_f16 matching the window's
 * type, row-major or any strides) into stage s (modulo the stages) of A
 * window w; elements outside arr read as zero. tile_wgmma_load_b(w, s, arr,
 * k0, j0): arr[k0 .. k0 + 64, j0 .. j0 + BN] into B window w. Asynchronous
 * where 16-byte copies apply (the array's rows contiguous, 16-byte aligned
 * at the window: k0 resp. j0 a multiple of 8 in an array whose row length
 * is a multiple of 8 elements): the data may be read after
 * tile_async_commit() and the covering tile_wgmma_wait. No barrier inside.
 *   tile_wgmma_load_a(aw, k, tile_array2(A, 1000, 1000), 128, 64 * k);
 *   tile_async_commit();
 *   tile_wgmma_wait(0);   // stage k % S: A[128 .. 256, 64k .. 64k + 64], zeros past 1000 */
#define tile_wgmma_load_a(w, s, arr, i0, k0)                                       \
    do {                                                                           \
        TILE__STATIC_ASSERT(TILE__WG_ROLE(w) == 1, "tile.h: tile_wgmma_load_a needs an A window (tile_wgmma_window_a_*)"); \
        const tile_array tile__wga = (arr);                                        \
        tile__wg_load(tile_wgmma_window_data(w, s), &tile__wga, (i0), (k0), TILE__WG_EXT(w), TILE_WGMMA_BK, \
                      tile_thread(), TILE_BLOCK_DIM);                              \
    } while (0)
#define tile_wgmma_load_b(w, s, arr, k0, j0)                                       \
    do {                                                                           \
        TILE__STATIC_ASSERT(TILE__WG_ROLE(w) == 2, "tile.h: tile_wgmma_load_b needs a B window (tile_wgmma_window_b_*)"); \
        const tile_array tile__wgb = (arr);                                        \
        tile__wg_load(tile_wgmma_window_data(w, s), &tile__wgb, (k0), (j0), TILE_WGMMA_BK, TILE__WG_EXT(w), \
                      tile_thread(), TILE_BLOCK_DIM);                              \
    } while (0)

/* make this thread's shared-memory writes (cp.async and plain stores)
 * visible to wgmma's reads (the async proxy) */
TILE_API void tile__wg_fence_proxy(void) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 900
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
/* tile_wgmma_wait(n): wait until at most the n most recently committed copy
 * groups (tile_async_commit) are pending, then a block barrier: every
 * window of the older groups may be read by the product (n a constant >= 0;
 * tile_async_wait plus the proxy fence wgmma needs).
 *   two groups committed, windows 0 and 1: tile_wgmma_wait(1) -> window 0 ready */
#define tile_wgmma_wait(n)                                                         \
    do {                                                                           \
        TILE__STATIC_ASSERT((n) >= 0, "tile.h: tile_wgmma_wait(n) needs a constant n >= 0"); \
        TILE__CP_ASYNC_WAIT(n);                                                    \
        tile__async_wait_bulk(&tile__k, (unsigned)(n));                            \
        tile__wg_fence_proxy();                                                    \
        tile_barrier();                                                            \
    } while (0)

/* ---- the accumulator ----
 * tile_wgmma_acc(name, BM, BN): declare `name`, a zero BM x BN f32
 * accumulator in registers: on the GPU each thread holds BN / 2 elements in
 * wgmma's fragment layout (warp w of warpgroup g: rows 64 g + 16 w + lane / 4,
 * + 8 for v[4 j + 2 .. 3]; columns 8 j + 2 (lane % 4) + {0, 1}); on the CPU
 * the one thread holds all BM x BN, row-major. The block must have BM / 64
 * warpgroups (BM / 64 * 128 threads): else a compile-time error.
 *   tile_wgmma_acc(acc, 128, 256);   // 256 threads: 128 floats a thread */
#define tile_wgmma_acc(name, BM, BN)                                               \
    TILE__STATIC_ASSERT((BM) % 64 == 0 && (BM) >= 64 && (BM) <= 512 && ((BN) == 64 || (BN) == 128 || (BN) == 256), \
                        "tile.h: tile_wgmma_acc: BM must be a multiple of 64 up to 512, BN 64, 128 or 256"); \
    TILE__STATIC_ASSERT(sizeof(*tile__bd) == (size_t)(BM) / 64u * 128u,           \
                        "tile.h: tile_wgmma_acc(BM, BN) needs a block of BM / 64 * 128 threads (a warpgroup per 64 rows)"); \
    struct {                                                                       \
        float v[TILE__SLOTS_N((BM) * (BN), TILE_BLOCK_DIM)];                       \
        char (*tile__wa)[BM][BN];                                                  \
    } name = {{0.0f}, 0}
#define TILE__WA_M(acc) ((int)(sizeof(*(acc).tile__wa) / sizeof((*(acc).tile__wa)[0])))
#define TILE__WA_N(acc) ((int)sizeof((*(acc).tile__wa)[0]))
#define TILE__WA_SLOTS(acc) ((int)(sizeof((acc).v) / sizeof((acc).v[0])))

/* tile_wgmma_acc_zero(acc): acc = 0, e.g. before the next tile of C in a
 * kernel that computes several (after tile_wgmma_mma_wait(acc, 0)).
 *   tile_wgmma_store(c, acc, i0, j0);  tile_wgmma_acc_zero(acc);   // every element 0 again */
#define tile_wgmma_acc_zero(acc)                                                   \
    do {                                                                           \
        TILE__UNROLL for (int tile__wi = 0; tile__wi < TILE__WA_SLOTS(acc); ++tile__wi)(acc).v[tile__wi] = 0.0f; \
    } while (0)

/* keep the compiler from moving accumulator reads or writes across the
 * asynchronous MMA (its registers are in use until the wait) */
TILE_API void tile__wg_fence_acc(float *d, int n) {
#if TILE__WG_SM90A
    TILE__UNROLL for (int i = 0; i < n; ++i) asm volatile("" : "+f"(d[i])::"memory");
#else
    (void)d;
    (void)n;
#endif
}
/* ---- the product ---- */
#if TILE__WG_SM90A
/* the operand lists of the wgmma asm: the accumulator registers %0 .. %(n-1) */
#define TILE__WG_R128 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define TILE__WG_O128(d) \
    "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]), "+f"((d)[4]), "+f"((d)[5]), "+f"((d)[6]), "+f"((d)[7]), \
    "+f"((d)[8]), "+f"((d)[9]), "+f"((d)[10]), "+f"((d)[11]), "+f"((d)[12]), "+f"((d)[13]), "+f"((d)[14]), "+f"((d)[15]), \
    "+f"((d)[16]), "+f"((d)[17]), "+f"((d)[18]), "+f"((d)[19]), "+f"((d)[20]), "+f"((d)[21]), "+f"((d)[22]), "+f"((d)[23]), \
    "+f"((d)[24]), "+f"((d)[25]), "+f"((d)[26]), "+f"((d)[27]), "+f"((d)[28]), "+f"((d)[29]), "+f"((d)[30]), "+f"((d)[31]), \
    "+f"((d)[32]), "+f"((d)[33]), "+f"((d)[34]), "+f"((d)[35]), "+f"((d)[36]), "+f"((d)[37]), "+f"((d)[38]), "+f"((d)[39]), \
    "+f"((d)[40]), "+f"((d)[41]), "+f"((d)[42]), "+f"((d)[43]), "+f"((d)[44]), "+f"((d)[45]), "+f"((d)[46]), "+f"((d)[47]), \
    "+f"((d)[48]), "+f"((d)[49]), "+f"((d)[50]), "+f"((d)[51]), "+f"((d)[52]), "+f"((d)[53]), "+f"((d)[54]), "+f"((d)[55]), \
    "+f"((d)[56]), "+f"((d)[57]), "+f"((d)[58]), "+f"((d)[59]), "+f"((d)[60]), "+f"((d)[61]), "+f"((d)[62]), "+f"((d)[63]), \
    "+f"((d)[64]), "+f"((d)[65]), "+f"((d)[66]), "+f"((d)[67]), "+f"((d)[68]), "+f"((d)[69]), "+f"((d)[70]), "+f"((d)[71]), \
    "+f"((d)[72]), "+f"((d)[73]), "+f"((d)[74]), "+f"((d)[75]), "+f"((d)[76]), "+f"((d)[77]), "+f"((d)[78]), "+f"((d)[79]), \
    "+f"((d)[80]), "+f"((d)[81]), "+f"((d)[82]), "+f"((d)[83]), "+f"((d)[84]), "+f"((d)[85]), "+f"((d)[86]), "+f"((d)[87]), \
    "+f"((d)[88]), "+f"((d)[89]), "+f"((d)[90]), "+f"((d)[91]), "+f"((d)[92]), "+f"((d)[93]), "+f"((d)[94]), "+f"((d)[95]), \
    "+f"((d)[96]), "+f"((d)[97]), "+f"((d)[98]), "+f"((d)[99]), "+f"((d)[100]), "+f"((d)[101]), "+f"((d)[102]), "+f"((d)[103]), \
    "+f"((d)[104]), "+f"((d)[105]), "+f"((d)[106]), "+f"((d)[107]), "+f"((d)[108]), "+f"((d)[109]), "+f"((d)[110]), "+f"((d)[111]), \
    "+f"((d)[112]), "+f"((d)[113]), "+f"((d)[114]), "+f"((d)[115]), "+f"((d)[116]), "+f"((d)[117]), "+f"((d)[118]), "+f"((d)[119]), \
    "+f"((d)[120]), "+f"((d)[121]), "+f"((d)[122]), "+f"((d)[123]), "+f"((d)[124]), "+f"((d)[125]), "+f"((d)[126]), "+f"((d)[127])
#define TILE__WG_R64 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TILE__WG_O64(d) \
    "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]), "+f"((d)[4]), "+f"((d)[5]), "+f"((d)[6]), "+f"((d)[7]), \
    "+f"((d)[8]), "+f"((d)[9]), "+f"((d)[10]), "+f"((d)[11]), "+f"((d)[12]), "+f"((d)[13]), "+f"((d)[14]), "+f"((d)[15]), \
    "+f"((d)[16]), "+f"((d)[17]), "+f"((d)[18]), "+f"((d)[19]), "+f"((d)[20]), "+f"((d)[21]), "+f"((d)[22]), "+f"((d)[23]), \
    "+f"((d)[24]), "+f"((d)[25]), "+f"((d)[26]), "+f"((d)[27]), "+f"((d)[28]), "+f"((d)[29]), "+f"((d)[30]), "+f"((d)[31]), \
    "+f"((d)[32]), "+f"((d)[33]), "+f"((d)[34]), "+f"((d)[35]), "+f"((d)[36]), "+f"((d)[37]), "+f"((d)[38]), "+f"((d)[39]), \
    "+f"((d)[40]), "+f"((d)[41]), "+f"((d)[42]), "+f"((d)[43]), "+f"((d)[44]), "+f"((d)[45]), "+f"((d)[46]), "+f"((d)[47]), \
    "+f"((d)[48]), "+f"((d)[49]), "+f"((d)[50]), "+f"((d)[51]), "+f"((d)[52]), "+f"((d)[53]), "+f"((d)[54]), "+f"((d)[55]), \
    "+f"((d)[56]), "+f"((d)[57]), "+f"((d)[58]), "+f"((d)[59]), "+f"((d)[60]), "+f"((d)[61]), "+f"((d)[62]), "+f"((d)[63])
#define TILE__WG_R32 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TILE__WG_O32(d) \
    "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]), "+f"((d)[4]), "+f"((d)[5]), "+f"((d)[6]), "+f"((d)[7]), \
    "+f"((d)[8]), "+f"((d)[9]), "+f"((d)[10]), "+f"((d)[11]), "+f"((d)[12]), "+f"((d)[13]), "+f"((d)[14]), "+f"((d)[15]), \
    "+f"((d)[16]), "+f"((d)[17]), "+f"((d)[18]), "+f"((d)[19]), "+f"((d)[20]), "+f"((d)[21]), "+f"((d)[22]), "+f"((d)[23]), \
    "+f"((d)[24]), "+f"((d)[25]), "+f"((d)[26]), "+f"((d)[27]), "+f"((d)[28]), "+f"((d)[29]), "+f"((d)[30]), "+f"((d)[31])

/* matrix descriptor: start address, leading / stride byte offsets, 128-byte swizzle */
static __device__ __forceinline__ uint64_t tile__wg_desc(uint32_t saddr, uint32_t lbo, uint32_t sbo) {
    return (uint64_t)((saddr & 0x3FFFFu) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32) |
           (1ull << 62);
}
/* d (nr f32 a thread) += A (K-major) @ B (MN-major: transpose-B) for one
 * k16 step of a 64 x nn product; the operand lists are written out because
 * inline asm takes no arrays (scale-d is 1: accumulate) */
#define TILE__WG_MMA_FN(nn, nr, ia, ib, is, ty)                                    \
    static __device__ __forceinline__ void tile__wg_mma_##ty##_n##nn(float *d, uint64_t da, uint64_t db) { \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #is ", 0;\n"            \
                     "wgmma.mma_async.sync.aligned.m64n" #nn "k16.f32." #ty "." #ty " {" TILE__WG_R##nr "}, %" #ia \
                     ", %" #ib ", p, 1, 1, 0, 1;\n}\n"                              \
                     : TILE__WG_O##nr(d)                                           \
                     : "l"(da), "l"(db), "r"(1));                                  \
    }
TILE__WG_MMA_FN(256, 128, 128, 129, 130, bf16)
TILE__WG_MMA_FN(256, 128, 128, 129, 130, f16)
TILE__WG_MMA_FN(128, 64, 64, 65, 66, bf16)
TILE__WG_MMA_FN(128, 64, 64, 65, 66, f16)
TILE__WG_MMA_FN(64, 32, 32, 33, 34, bf16)
TILE__WG_MMA_FN(64, 32, 32, 33, 34, f16)
#endif

/* a 16-bit element as f32 (dt 1: bf16, 2: f16; exact) */
TILE_API float tile__wg_f32(uint32_t bits, int dt) {
    return dt == 2 ? tile_f16_to_f32(tile_f16_from_bits((uint16_t)bits)) : tile__bits_f32(bits << 16);
}
TILE_API uint32_t tile__wg_bits(const unsigned char *w, int off) {
    uint16_t v;
    memcpy(&v, w + off, 2);
    return v;
}

/* d += A @ B over one window: A at `a` (BM x 64), B at `b` (64 x BN), 16-bit
 * elements of type dt; thread tid of a block of BM / 64 * 128 (device) */
TILE_API void tile__wg_mma(float *d, const unsigned char *a, const unsigned char *b, int BM, int BN, int dt, int tid) {
#if TILE__WG_SM90A
    (void)BM;
    const uint32_t sa = tile__saddr(a) + (uint32_t)(tid >> 7) * 8192u, sb = tile__saddr(b);
    tile__wg_fence_acc(d, BN / 2);
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    TILE__UNROLL for (int ks = 0; ks < 4; ++ks) {
        const uint64_t da = tile__wg_desc(sa + 32u * ks, 16, 1024), db = tile__wg_desc(sb + 2048u * ks, 8192, 1024);
        if (BN == 256) {
            if (dt == 2) tile__wg_mma_f16_n256(d, da, db);
            else tile__wg_mma_bf16_n256(d, da, db);
        } else if (BN == 128) {
            if (dt == 2) tile__wg_mma_f16_n128(d, da, db);
            else tile__wg_mma_bf16_n128(d, da, db);
        } else {
            if (dt == 2) tile__wg_mma_f16_n64(d, da, db);
            else tile__wg_mma_bf16_n64(d, da, db);
        }
    }
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    tile__wg_fence_acc(d, BN / 2);
#elif TILE_ON_DEVICE
    /* each thread its own fragment elements (the wgmma layout), plain FMA */
    (void)BM;
    const int l = tid & 31, r0 = 64 * (tid >> 7) + 16 * ((tid >> 5) & 3) + (l >> 2);
    for (int k = 0; k < TILE_WGMMA_BK; ++k) {
        const float a0 = tile__wg_f32(tile__wg_bits(a, tile_wgmma_offset(BM, r0, k)), dt),
                    a1 = tile__wg_f32(tile__wg_bits(a, tile_wgmma_offset(BM, r0 + 8, k)), dt);
        TILE__UNROLL for (int j = 0; j < BN / 8; ++j) {
            const int off = tile_wgmma_offset(TILE_WGMMA_BK, k, 8 * j + 2 * (l & 3));
            const float b0 = tile__wg_f32(tile__wg_bits(b, off), dt), b1 = tile__wg_f32(tile__wg_bits(b, off + 2), dt);
            d[4 * j] += a0 * b0;
            d[4 * j + 1] += a0 * b1;
            d[4 * j + 2] += a1 * b0;
            d[4 * j + 3] += a1 * b1;
        }
    }
#else
    /* the one thread: the whole BM x BN accumulator, row-major; B's k-row
     * decoded once per k */
    (void)tid;
    float brow[256];
    for (int k = 0; k < TILE_WGMMA_BK; ++k) {
        for (int c = 0; c < BN; ++c) brow[c] = tile__wg_f32(tile__wg_bits(b, tile_wgmma_offset(TILE_WGMMA_BK, k, c)), dt);
        for (int r = 0; r < BM; ++r) {
            const float x = tile__wg_f32(tile__wg_bits(a, tile_wgmma_offset(BM, r, k)), dt);
            float *dr = d + (size_t)r * BN;
            for (int c = 0; c < BN; ++c) dr[c] += x * brow[c];
        }
    }
#endif
}

/* tile_wgmma_mma_async(acc, aw, sa, bw, sb): acc += A @ B, A the stage sa
 * of A window aw (BM x 64), B the stage sb of B window bw (64 x BN); the
 * shapes and element types must match (else a compile-time error). On
 * sm_90a the 4 wgmma of the window are issued as one group and the call
 * returns at once: the accumulator and the two stages are in use until
 * tile_wgmma_mma_wait; elsewhere the product is done on return. The windows'
 * copies must have been waited for (tile_wgmma_wait).
 * Suppose stage 0 of aw holds A = all 1 (128 x 64) and of bw B = all 2
 * (64 x 256), acc zero:
 *   tile_wgmma_mma_async(acc, aw, 0, bw, 0);
 *   tile_wgmma_mma_wait(acc, 0);   // every element of acc is 128 (64 x 1 x 2) */
#define tile_wgmma_mma_async(acc, aw, sa, bw, sb)                                  \
    do {                                                                           \
        TILE__STATIC_ASSERT(TILE__WG_ROLE(aw) == 1 && TILE__WG_ROLE(bw) == 2,      \
                            "tile.h: tile_wgmma_mma_async(acc, A window, stage, B window, stage)"); \
        TILE__STATIC_ASSERT(TILE__WG_DT(aw) == TILE__WG_DT(bw), "tile.h: tile_wgmma_mma_async: A and B element types differ"); \
        TILE__STATIC_ASSERT(TILE__WG_EXT(aw) == TILE__WA_M(acc) && TILE__WG_EXT(bw) == TILE__WA_N(acc), \
                            "tile.h: tile_wgmma_mma_async: the accumulator is not BM x BN of the windows"); \
        tile__wg_mma((acc).v, tile_wgmma_window_data(aw, sa), tile_wgmma_window_data(bw, sb), TILE__WA_M(acc), \
                     TILE__WA_N(acc), TILE__WG_DT(aw), tile_thread());             \
    } while (0)

/* tile_wgmma_mma_wait(acc, n): wait until at most the n most recent
 * tile_wgmma_mma_async groups of this warpgroup are pending (n a constant
 * 0..7); n = 0: acc holds every product issued. Nothing to wait for off
 * sm_90a. No barrier: another warpgroup may still be running its products.
 *   tile_wgmma_mma_async(acc, aw, k, bw, k);
 *   tile_wgmma_mma_wait(acc, 1);   // window k - 1's product has completed */
#if TILE__WG_SM90A
#define TILE__WG_WAIT(n) asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(n) : "memory")
#else
#define TILE__WG_WAIT(n) ((void)0)
#endif
#define tile_wgmma_mma_wait(acc, n)                                                \
    do {                                                                           \
        TILE__STATIC_ASSERT((n) >= 0 && (n) <= 7, "tile.h: tile_wgmma_mma_wait(acc, n) needs a constant n in 0..7"); \
        TILE__WG_WAIT(n);                                                          \
        tile__wg_fence_acc((acc).v, TILE__WA_SLOTS(acc));                          \
    } while (0)

/* ---- the store ---- */
/* C[row][col] and C[row][col + 1] = alpha x + beta C (beta 0: C not read);
 * what lies outside c is dropped */
TILE_API void tile__wg_put1(const tile_array *c, int64_t row, int64_t col, float x, float alpha, float beta) {
    if (col < 0 || col >= c->shape[1]) return;
    float *p = (float *)c->ptr + (c->base_off + row * c->stride[0] + col * c->stride[1]);
    *p = beta == 0.0f ? alpha * x : alpha * x + beta * *p;
}
TILE_API void tile__wg_put2(const tile_array *c, int64_t row, int64_t col, float x, float y, float alpha, float beta) {
    if (row < 0 || row >= c->shape[0]) return;
#if TILE_ON_DEVICE
    if (col >= 0 && col + 1 < c->shape[1] && c->stride[1] == 1) {
        float *p = (float *)c->ptr + (c->base_off + row * c->stride[0] + col);
        if ((uintptr_t)p % 8u == 0) {
            float2 v;
            if (beta == 0.0f) v = make_float2(alpha * x, alpha * y);
            else {
                const float2 o = *(const float2 *)p;
                v = make_float2(alpha * x + beta * o.x, alpha * y + beta * o.y);
            }
            *(float2 *)p = v;
            return;
        }
    }
#endif
    tile__wg_put1(c, row, col, x, alpha, beta);
    tile__wg_put1(c, row, col + 1, y, alpha, beta);
}
TILE_API void tile__wg_store(const tile_array *c, const float *d, int BM, int BN, int64_t i0, int64_t j0, float alpha,
                             float beta, int tid) {
    if (c->ndim < 2) return; /* not a matrix: nothing to write */
#if TILE_ON_DEVICE
    (void)BM;
    const int l = tid & 31;
    const int64_t r = i0 + 64 * (tid >> 7) + 16 * ((tid >> 5) & 3) + (l >> 2);
    TILE__UNROLL for (int j = 0; j < BN / 8; ++j) {
        const int64_t col = j0 + 8 * j + 2 * (l & 3);
        tile__wg_put2(c, r, col, d[4 * j], d[4 * j + 1], alpha, beta);
        tile__wg_put2(c, r + 8, col, d[4 * j + 2], d[4 * j + 3], alpha, beta);
    }
#else
    (void)tid;
    for (int r = 0; r < BM; ++r)
        for (int cc = 0; cc < BN; cc += 2)
            tile__wg_put2(c, i0 + r, j0 + cc, d[(size_t)r * BN + cc], d[(size_t)r * BN + cc + 1], alpha, beta);
#endif
}

/* tile_wgmma_store(arr, acc, i0, j0): arr[i0 + i][j0 + j] = acc[i][j] for
 * the elements inside arr (a 2D f32 array, any strides); the rest dropped.
 * tile_wgmma_store_ab(arr, acc, i0, j0, alpha, beta): arr[..] = alpha acc +
 * beta arr[..] (beta == 0: arr not read, so a NaN there is harmless). Call
 * after tile_wgmma_mma_wait(acc, 0). No barrier inside.
 * Suppose acc is all 128 and C (1000 x 1000) all 1:
 *   tile_wgmma_store_ab(tile_array2(C, 1000, 1000), acc, 896, 768, 0.5f, 2.0f);
 *   // C[896 .. 1000][768 .. 1000] = 66, the rest of C still 1 */
#define tile_wgmma_store(arr, acc, i0, j0) tile_wgmma_store_ab(arr, acc, i0, j0, 1.0f, 0.0f)
#define tile_wgmma_store_ab(arr, acc, i0, j0, alpha, beta)                         \
    do {                                                                           \
        const tile_array tile__wgc = (arr);                                        \
        tile__wg_store(&tile__wgc, (acc).v, TILE__WA_M(acc), TILE__WA_N(acc), (i0), (j0), (alpha), (beta), \
                       tile_thread());                                             \
    } while (0)

#endif /* TILE_WGMMA_H */
