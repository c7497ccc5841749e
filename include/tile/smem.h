/* tile/smem.h - kernel context and the block's shared-memory arena.
 *
 * Every kernel gets one arena: the bytes declared with TILE_KERNEL_SMEM plus
 * the dynamic bytes asked for at launch (tile_exec_smem). Shared tiles are
 * carved from it with a bump pointer, 16-byte aligned. tile_smem_mark() and
 * tile_smem_release() reuse it inside one kernel:
 *
 *   int m = tile_smem_mark();
 *   tile_shared(float, tmp, 64, 64);   // 16 KiB
 *   ...
 *   tile_smem_release(m);              // barrier, then tmp's bytes are free
 *
 * Overrunning the arena is a broken promise, never an out-of-bounds access:
 *  - a tile larger than TILE_MAX_SMEM_BYTES does not compile;
 *  - at run time an allocation that does not fit stops the block there: the
 *    kernel body returns at the allocation (every thread of the block, since
 *    allocations are uniform), so nothing after it runs and no tile aliases
 *    other memory. The launch (CPU) or tile_synchronize (GPU) returns
 *    TILE_ERR_SMEM_OVERFLOW. TILE_DEBUG builds print one line naming the
 *    allocation's bytes and the arena's, and trap there (docs/guards.md).
 */
#ifndef TILE_SMEM_H
#define TILE_SMEM_H

#include "platform.h"

/* Error codes of host calls; tile_error_string() gives the text. */
enum tile_error {
    TILE_OK = 0,
    TILE_ERR_BLOCK_DIM = 1,      /* launch block size differs from the kernel's */
    TILE_ERR_GRID = 2,           /* a grid dim <= 0, too many dims or blocks */
    TILE_ERR_DEVICE = 3,         /* no such GPU */
    TILE_ERR_NO_CUDA = 4,        /* GPU asked for in a build without nvcc */
    TILE_ERR_SMEM = 5,           /* arena larger than the device allows */
    TILE_ERR_SMEM_OVERFLOW = 6,  /* kernel allocated more than its arena */
    TILE_ERR_NOMEM = 7,          /* host allocation failed */
    TILE_ERR_CUDA = 8,           /* other CUDA error: tile_last_cuda_error() */
    TILE_ERR_ARG = 9,            /* invalid argument to a host call */
    TILE_ERR_ALIGN = 10,         /* a tile promised aligned was not (scalar tier used) */
    TILE_ERR_CUBLAS = 11,        /* cuBLAS failed: tile_host_last_status() (tile/host) */
    TILE_ERR_CUFFT = 12,         /* cuFFT failed: tile_host_last_status() */
    TILE_ERR_CUSOLVER = 13,      /* cuSOLVER failed: tile_host_last_status() */
    TILE_ERR_NOT_SPD = 14,       /* a Cholesky input was not positive definite (per-matrix info says which) */
    TILE_ERR_DISABLED = 15       /* the backing library was compiled out (TILE_NO_CUBLAS/CUFFT/CUSOLVER) */
};

/* The sm_90 bulk-copy ring of async.h: 8 mbarriers in static shared memory,
 * only in kernels that reference it. Here (not in async.h) because the
 * persistent launch wrapper (launch.h) initializes it once per block. */
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 900
TILE_API uint64_t *tile__async_mbar(void) {
    __shared__ __align__(8) uint64_t tile__mb[8];
    return tile__mb;
}
/* one thread: every slot to phase 0, one arrival per phase */
TILE_API void tile__async_ring_init(void) {
    for (int j = 0; j < 8; ++j)
        asm volatile("mbarrier.init.shared.b64 [%0], 1;\n" ::"r"((unsigned)__cvta_generic_to_shared(tile__async_mbar() + j))
                     : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
#endif

/* What a kernel body knows about its launch. Passed by value; the body's copy
 * owns the arena bump offset, so every block starts with an empty arena. */
typedef struct tile_kctx {
    int ndim;            /* logical launch dims (a tiled launch adds the block) */
    int tiled;           /* 1 for tile_launch, 0 for tile_launch_simt */
    int64_t dim[5];      /* logical extent of each dim */
    int64_t stride[5];   /* product of the extents after each dim */
    uint32_t bstride[4]; /* product of the grid extents after each tile dim */
    int small;           /* 1 when every linear thread id fits in 32 bits */
    unsigned scratch_round; /* alternates the reduction scratch halves */
    int64_t cpu_block;   /* the logical block's linear index (both targets; persistent launches walk it) */
    unsigned char *smem; /* arena base */
    uint32_t smem_off;   /* bump offset */
    uint32_t smem_cap;   /* arena bytes */
    uint32_t async_groups; /* asynchronous copy groups committed (async.h) */
    unsigned char async_init, async_open, async_armed, async_phase; /* sm_90 bulk-copy ring (async.h);
                            async_init 2: the persistent wrapper set the ring up */
} tile_kctx;

#if TILE_CUDA
static __device__ int tile__dev_err;
#endif
static int tile__host_err;

/* Record an error a kernel meets (the largest code when several); host calls
 * report it. */
TILE_API void tile__raise(int code) {
#if TILE_ON_DEVICE
    atomicMax(&tile__dev_err, code); /* one operand: cheap on cold paths (a CAS made ptxas spill) */
#else
    if (!tile__host_err) tile__host_err = code;
#endif
}

/* ---- TILE_DEBUG diagnostics ----
 * TILE__CHECK(cond, msg, v, lo, hi): when cond is false, print one line
 *   "tile.h: <msg>: <v> not in [<lo>, <hi>) (file:line)"
 * then fail through TILE_ASSERT (host: assert, or the user's override) or,
 * on the device, trap. msg is a string literal: the operation, the broken
 * promise and the storage kind. Release builds compile it to nothing (the
 * condition is not evaluated).
 * The device side prints from a cold __noinline__ helper with literal-only
 * printf calls (a printf with arguments needs a stack frame: promise 2), so
 * debug kernels keep 0 bytes of stack too; one failing thread prints, the
 * others wait (bounded) for its line before trapping. */
#define TILE__AT_LINE " (" __FILE__ ":" TILE__LINESTR ")"
#if defined(TILE_DEBUG) && TILE_CUDA
/* declared in both passes: the host stub registers device variables */
static __device__ int tile__dbg_claim, tile__dbg_done;
#endif
#if defined(TILE_DEBUG)
#if TILE_ON_DEVICE
#include <stdio.h>
TILE__UNUSED static __device__ __noinline__ void tile__dbg_put(long long v) {
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, p = 1;
    if (v < 0) printf("-");
    while (u / p >= 10u) p *= 10u;
    for (; p; p /= 10u) {
        switch ((int)(u / p % 10u)) { /* one literal per digit: no printf arguments */
        case 0: printf("0"); break;
        case 1: printf("1"); break;
        case 2: printf("2"); break;
        case 3: printf("3"); break;
        case 4: printf("4"); break;
        case 5: printf("5"); break;
        case 6: printf("6"); break;
        case 7: printf("7"); break;
        case 8: printf("8"); break;
        default: printf("9"); break;
        }
    }
}
TILE__UNUSED static __device__ __noinline__ void tile__dbg_fail(const char *msg, const char *at, long long v, long long lo,
                                                   long long hi) {
    if (atomicExch(&tile__dbg_claim, 1) == 0) {
        printf("tile.h: ");
        printf(msg); /* library literals only, without % */
        printf(": ");
        tile__dbg_put(v);
        printf(" not in [");
        tile__dbg_put(lo);
        printf(", ");
        tile__dbg_put(hi);
        printf(")");
        printf(at);
        printf("\n");
        __threadfence_system();
        atomicExch(&tile__dbg_done, 1);
    } else {
        for (int i = 0; i < (1 << 16) && !*(volatile int *)&tile__dbg_done; ++i) __nanosleep(1000);
    }
    __trap();
}
#define TILE__CHECK(cond, msg, v, lo, hi)                                          \
    do {                                                                           \
        if (!(cond)) tile__dbg_fail(msg, TILE__AT_LINE, (long long)(v), (long long)(lo), (long long)(hi)); \
    } while (0)
#else
#include <stdio.h>
static inline void tile__dbg_line(const char *msg, const char *at, long long v, long long lo, long long hi) {
    fprintf(stderr, "tile.h: %s: %lld not in [%lld, %lld)%s\n", msg, v, lo, hi, at);
}
#define TILE__CHECK(cond, msg, v, lo, hi)                                          \
    do {                                                                           \
        if (!(cond)) {                                                             \
            tile__dbg_line(msg, TILE__AT_LINE, (long long)(v), (long long)(lo), (long long)(hi)); \
            TILE_ASSERT(!"tile.h: " msg);                                          \
        }                                                                          \
    } while (0)
#endif
#else
#define TILE__CHECK(cond, msg, v, lo, hi) ((void)0)
#endif

/* Carve `bytes` from the arena (16-byte aligned). Returns 0 when they do not
 * fit, after recording TILE_ERR_SMEM_OVERFLOW (and, in TILE_DEBUG builds,
 * printing the sizes and trapping); the callers (TILE__SMEM_TAKE) then stop
 * the block. The bump offset is left as it was. */
TILE_API void *tile__smem_alloc(tile_kctx *k, size_t bytes) {
    size_t off = ((size_t)k->smem_off + 15u) & ~(size_t)15u;
    if (off + bytes > k->smem_cap) {
        tile__raise(TILE_ERR_SMEM_OVERFLOW);
        return 0;
    }
    k->smem_off = (uint32_t)(off + bytes);
    return k->smem + off;
}

/* What a block does when an allocation fails: copies in flight into its
 * shared memory land first (cp.async groups; async.h adds its sm_90 bulk
 * copies through TILE__ASYNC_DRAIN), then the kernel body returns. */
#define TILE__ASYNC_DRAIN(k) ((void)(k))
TILE_API void tile__smem_stop(tile_kctx *k) {
    (void)k;
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}
/* TILE__SMEM_TAKE(bytes): arena bytes inside a kernel body, as an expression
 * (void *); when they do not fit, the body returns here (see above). */
#define TILE__SMEM_TAKE(bytes)                                                     \
    (__extension__({                                                               \
        void *tile__tp = tile__smem_alloc(&tile__k, (bytes));                      \
        if (!tile__tp) {                                                           \
            TILE__CHECK(0, "shared arena overflow (raise the TILE_KERNEL_SMEM bytes or tile_exec_smem): " \
                           "the allocation's last byte",                           \
                        ((tile__k.smem_off + 15u) & ~15u) + (bytes) - 1, 0, tile__k.smem_cap); \
            tile__smem_stop(&tile__k);                                             \
            TILE__ASYNC_DRAIN(&tile__k);                                           \
            return;                                                                \
        }                                                                          \
        tile__tp;                                                                  \
    }))
/* A single allocation larger than TILE_MAX_SMEM_BYTES fits no arena: a
 * compile-time error. */
#define TILE__SMEM_FITS(bytes, what)                                               \
    TILE__STATIC_ASSERT((size_t)(bytes) <= (size_t)TILE_MAX_SMEM_BYTES,          \
                        "tile.h: " what " larger than TILE_MAX_SMEM_BYTES (no arena can hold it)")

/* Bytes a shared tile of the given element type and shape takes in the arena
 * (rounded to the 16-byte alignment). For TILE_KERNEL_SMEM budgets:
 *   TILE_SMEM_BYTES(float, 64, 64) == 16384 */
#define TILE_SMEM_BYTES(T, ...) ((((size_t)sizeof(T) * (TILE__PROD(__VA_ARGS__))) + 15u) & ~(size_t)15u)
#define TILE__PROD(...) TILE__PROD_(__VA_ARGS__, 1, 1, 1, 1)
#define TILE__PROD_(a, b, c, d, ...) ((size_t)(a) * (size_t)(b) * (size_t)(c) * (size_t)(d))

/* Raw arena bytes (16-byte aligned) inside a kernel body, as a void *: the
 * workspace of a building block such as tile_chol_block_f32. Uniform (every
 * thread of the block asks the same bytes); bytes may be a runtime value.
 * When they do not fit the launch's arena the block stops here, as for
 * tile_shared (TILE_ERR_SMEM_OVERFLOW).
 *   void *ws = tile_smem_alloc(TILE_CHOL_WS_BYTES_F32(n)); // launched with
 *   // tile_exec_smem(ex, TILE_CHOL_WS_BYTES_F32(n)): ws != NULL */
#define tile_smem_alloc(bytes) TILE__SMEM_TAKE((size_t)(bytes))

/* Arena bookkeeping inside a kernel body (cooperative: all threads call). */
#define tile_smem_mark() ((int)tile__k.smem_off)
#define tile_smem_release(mark) \
    do {                        \
        tile_barrier();         \
        tile__k.smem_off = (uint32_t)(mark); \
    } while (0)
/* Bytes still free in the arena. */
#define tile_smem_free() ((int)(tile__k.smem_cap - tile__k.smem_off))

#endif /* TILE_SMEM_H */
