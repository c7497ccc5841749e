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
 * Overrunning the arena is a broken promise: TILE_ASSERT fires in TILE_DEBUG
 * builds; in every build the launch (CPU) or tile_synchronize (GPU) reports
 * TILE_ERR_SMEM_OVERFLOW, and the allocation aliases the arena's start
 * instead of pointing past it (on the CPU, a tile larger than the whole arena
 * aliases a static sink of TILE_MAX_SMEM_BYTES instead).
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
    TILE_ERR_ALIGN = 10          /* a tile promised aligned was not (scalar tier used) */
};

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
    int64_t cpu_block;   /* linear block index, CPU target */
    unsigned char *smem; /* arena base */
    uint32_t smem_off;   /* bump offset */
    uint32_t smem_cap;   /* arena bytes */
    uint32_t async_groups; /* asynchronous copy groups committed (async.h) */
    unsigned char async_init, async_open, async_armed, async_phase; /* sm_90 bulk-copy ring (async.h) */
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

TILE_API void *tile__smem_alloc(tile_kctx *k, size_t bytes) {
    size_t off = ((size_t)k->smem_off + 15u) & ~(size_t)15u;
    if (off + bytes > k->smem_cap) {
        tile__raise(TILE_ERR_SMEM_OVERFLOW);
        TILE_ASSERT(!"tile.h: shared-memory arena overflow");
#if !TILE_ON_DEVICE
        /* CPU: a tile larger than the whole arena (or no arena at all) would
         * write past the arena's heap buffer; it aliases a static sink instead */
        if (bytes > k->smem_cap) {
            static union { max_align_t a; unsigned char b[TILE_MAX_SMEM_BYTES]; } tile__sink;
            if (bytes <= sizeof(tile__sink.b)) return tile__sink.b;
        }
#endif
        return k->smem;
    }
    k->smem_off = (uint32_t)(off + bytes);
    return k->smem + off;
}

/* Bytes a shared tile of the given element type and shape takes in the arena
 * (rounded to the 16-byte alignment). For TILE_KERNEL_SMEM budgets:
 *   TILE_SMEM_BYTES(float, 64, 64) == 16384 */
#define TILE_SMEM_BYTES(T, ...) ((((size_t)sizeof(T) * (TILE__PROD(__VA_ARGS__))) + 15u) & ~(size_t)15u)
#define TILE__PROD(...) TILE__PROD_(__VA_ARGS__, 1, 1, 1, 1)
#define TILE__PROD_(a, b, c, d, ...) ((size_t)(a) * (size_t)(b) * (size_t)(c) * (size_t)(d))

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
