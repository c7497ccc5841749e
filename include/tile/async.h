/* tile/async.h - asynchronous global -> shared tile copies, so that loads
 * overlap compute (double buffering).
 *
 *   tile_shared_stages(float, buf, 2, 1, 256);      // two (1, 256) shared tiles
 *   tile_load_async(buf, A, 0, 0);                  // stage 0 <- row 0, returns at once
 *   tile_async_commit();                            // close the group
 *   for (int i = 0; i < rows; ++i) {
 *       tile_stage(next, buf, (i + 1) & 1);
 *       if (i + 1 < rows) tile_load_async(next, A, i + 1, 0);   // row i+1 in flight ...
 *       tile_async_commit();
 *       tile_async_wait(1);                         // ... while row i has landed
 *       tile_stage(cur, buf, i & 1);
 *       tile_map(r, f, cur);                        // compute on row i
 *   }
 *
 * What runs where (one decision per tile, tile__async_pick):
 *  - sm_90: a tile that is one contiguous run of global memory (tile__run:
 *    dense array, the tile spans its inner dims), inside the array, with a
 *    16-byte aligned source and destination and a size that is a multiple of
 *    16 bytes goes as ONE bulk copy (cp.async.bulk, the TMA engine) issued by
 *    thread 0 and completing on an mbarrier in shared memory. Everything else
 *    takes the sm_80 paths.
 *  - sm_80+: 16-byte cp.async.cg per chunk when load.h's vector-tier
 *    conditions hold (tile__vec_strides, tile__inside, 16-byte alignment);
 *    else, for a contiguous run, 16/8/4-byte cp.async striped over its bytes;
 *    else one 4/8/16-byte cp.async.ca per piece of each element with the
 *    register-tile thread mapping, elements outside the array written as
 *    zero by ordinary stores (so the result equals tile_load's); element
 *    sizes that are not a multiple of 4 bytes, or misaligned pointers, take a
 *    synchronous tile_load.
 *  - CPU, and GPUs before sm_80: tile_load_async is a synchronous tile_load,
 *    tile_async_commit does nothing and tile_async_wait is a block barrier.
 *
 * Rules (all cooperative: every thread of the block calls them):
 *  - tile_load_async begins with a block barrier (no thread still reads the
 *    destination's old contents) and returns without waiting; the tile may
 *    be read only after the tile_async_wait that covers its group.
 *  - Copies issued after the last tile_async_commit belong to no group yet:
 *    tile_async_wait(n) does not wait for them (commit first).
 *  - Wait for every copy (tile_async_wait_all) before the kernel ends and
 *    before the destination's memory is released (tile_smem_release) or
 *    written by other means.
 * The groups are counted in the kernel context (tile__k); the sm_90 bulk
 * copies use a ring of 8 mbarriers in static shared memory (64 bytes, only in
 * kernels that issue one), so at most 7 committed groups with bulk copies
 * are in flight: committing an eighth first waits for the oldest.
 */
#ifndef TILE_ASYNC_H
#define TILE_ASYNC_H

#include "load.h"

/* The paths tile_load_async_ex reports (one per tile). */
enum tile_async_path {
    TILE_ASYNC_BULK = 1,  /* sm_90 bulk copy of the whole tile, one thread, mbarrier */
    TILE_ASYNC_VEC16 = 2, /* 16-byte cp.async per chunk of the rows (vector-tier conditions) */
    TILE_ASYNC_RUN = 3,   /* 16/8/4-byte cp.async striped over one contiguous run */
    TILE_ASYNC_ELEM = 4,  /* 4/8/16-byte cp.async per element, zeros outside the array */
    TILE_ASYNC_SYNC = 5   /* synchronous tile_load (CPU, before sm_80, odd sizes) */
};
/* opts of tile_load_async_ex (compile-time or run-time values):
 *   TILE_ASYNC_AUTO          the cascade above
 *   TILE_ASYNC_NO_BULK       never the sm_90 bulk copy (cp.async paths only)
 *   TILE_ASYNC_PER_ELEMENT   per-element cp.async only (no bulk, 16-byte or run copies)
 *   TILE_ASYNC_SYNCHRONOUS   a synchronous tile_load */
#define TILE_ASYNC_AUTO 0
#define TILE_ASYNC_NO_BULK 0x100
#define TILE_ASYNC_PER_ELEMENT 0x200
#define TILE_ASYNC_SYNCHRONOUS 0x400

/* Define TILE_NO_ASYNC_BULK before including <tile.h> to keep sm_90 on the
 * cp.async paths (as TILE_ASYNC_NO_BULK does for one load). */
#ifdef TILE_NO_ASYNC_BULK
#define TILE__ASYNC_BULK_ARCH 0x7fffffff
#else
#define TILE__ASYNC_BULK_ARCH 900
#endif

/* the architecture the code being compiled runs on (0: the CPU) */
#if TILE_ON_DEVICE
#define TILE__ASYNC_ARCH __CUDA_ARCH__
#else
#define TILE__ASYNC_ARCH 0
#endif

/* largest copy width (16, 8, 4, else 0) that divides m */
TILE_API int tile__chunk(uintptr_t m) { return m % 16u == 0 ? 16 : m % 8u == 0 ? 8 : m % 4u == 0 ? 4 : 0; }

/* The path of one asynchronous tile load on architecture `arch` (0 for the
 * CPU): array a, tile's first element `base` (elements), `inside` the array,
 * vec_ct = TILE__VEC_CT, contig = TILE__CONTIG of the shared destination at
 * address saddr, tile dims d1..d3, element bytes, element count; bulk_ok: a
 * bulk-copy slot is free. A host function too, so that tests can ask what the
 * GPU decides. */
TILE_API int tile__async_pick(const tile_array *a, int64_t base, int inside, int vec_ct, int contig, int nd,
                              int d1, int d2, int d3, int esize, int nelem, uintptr_t saddr, int arch, int opts,
                              int bulk_ok) {
    if (arch < 800 || (opts & TILE_ASYNC_SYNCHRONOUS)) return TILE_ASYNC_SYNC;
    const uintptr_t gaddr = (uintptr_t)a->ptr + (uintptr_t)(base * esize);
    const uintptr_t nbytes = (uintptr_t)nelem * (uintptr_t)esize;
    if (!(opts & TILE_ASYNC_PER_ELEMENT)) {
        const int run = contig && inside && tile__run(a, nd, d1, d2, d3);
        if (arch >= TILE__ASYNC_BULK_ARCH && !(opts & TILE_ASYNC_NO_BULK) && bulk_ok && run &&
            (gaddr | saddr | nbytes) % 16u == 0 && nbytes < ((uintptr_t)1 << 20))
            return TILE_ASYNC_BULK;
        if (vec_ct && inside && tile__vec_strides(a, nd, esize) && (gaddr | saddr) % 16u == 0)
            return TILE_ASYNC_VEC16;
        if (run && tile__chunk(gaddr | saddr | nbytes)) return TILE_ASYNC_RUN;
    }
    /* every element's address is ptr (saddr) plus a multiple of esize */
    if (tile__chunk((uintptr_t)a->ptr | saddr | (uintptr_t)esize)) return TILE_ASYNC_ELEM;
    return TILE_ASYNC_SYNC;
}

/* ---- the copy instructions (PTX on sm_80+ / sm_90; plain copies elsewhere,
 * where they are never reached) ---- */
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
TILE_API unsigned tile__saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
TILE_API unsigned long long tile__gaddr(const void *p) { return (unsigned long long)__cvta_generic_to_global(p); }
#endif
/* one copy of 16 bytes (cp.async.cg: through L2 only), 8 or 4 bytes (.ca) */
TILE_API void tile__cp_async16(void *dst, const void *src) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(tile__saddr(dst)), "l"(tile__gaddr(src))
                 : "memory");
#else
    memcpy(dst, src, 16);
#endif
}
TILE_API void tile__cp_async8(void *dst, const void *src) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(tile__saddr(dst)), "l"(tile__gaddr(src))
                 : "memory");
#else
    memcpy(dst, src, 8);
#endif
}
TILE_API void tile__cp_async4(void *dst, const void *src) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(tile__saddr(dst)), "l"(tile__gaddr(src))
                 : "memory");
#else
    memcpy(dst, src, 4);
#endif
}
/* n bytes (a multiple of ch) in pieces of ch = 16, 8 or 4 */
TILE_API void tile__cp_async_n(char *dst, const char *src, int n, int ch) {
    if (ch == 16) {
        TILE__UNROLL for (int q = 0; q < n / 16; ++q) tile__cp_async16(dst + 16 * q, src + 16 * q);
    } else if (ch == 8) {
        TILE__UNROLL for (int q = 0; q < n / 8; ++q) tile__cp_async8(dst + 8 * q, src + 8 * q);
    } else {
        TILE__UNROLL for (int q = 0; q < n / 4; ++q) tile__cp_async4(dst + 4 * q, src + 4 * q);
    }
}

/* ---- sm_90 bulk copies: a ring of 8 mbarriers (count 1) ----
 * Group g (the g-th tile_async_commit, counting from 0) uses slot g % 8. A
 * bulk copy in the open group arms the slot: thread 0 adds the bytes to the
 * slot's expected transaction count and issues the copy; tile_async_commit
 * arrives on the slot once, so its phase completes when every byte of the
 * group has landed. Invariant: an armed slot belongs to one of the 7 newest
 * committed groups or to the open group - committing a group first retires
 * (waits for) the group 8 back, whose slot the next open group takes - so
 * tile_async_wait(n) knows each armed slot's group and waits, in every
 * thread, for those older than the n newest (parity = the slot's phase bit,
 * then flipped). So at most 7 committed groups with bulk copies are in
 * flight; an eighth commit waits for the oldest.
 * State (uniform over the block) lives in the kernel context:
 *   async_groups  groups committed          async_open   the open group armed its slot
 *   async_armed   bit j: slot j armed       async_phase  bit j: slot j's phase parity
 *   async_init    the mbarriers are initialized */
TILE_API int tile__async_bulk_ok(const tile_kctx *k) {
    const unsigned slot = k->async_groups % 8u;
    return !((k->async_armed >> slot) & 1u) || k->async_open; /* always true by the invariant */
}
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 900
/* wait (every thread) until the armed group of slot j has landed; disarm it */
TILE_API void tile__bulk_retire(tile_kctx *k, unsigned j) {
    const unsigned mb = tile__saddr(tile__async_mbar() + j), parity = (k->async_phase >> j) & 1u;
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}\n"
                     : "=r"(done)
                     : "r"(mb), "r"(parity)
                     : "memory");
    }
    k->async_phase = (unsigned char)(k->async_phase ^ (1u << j));
    k->async_armed = (unsigned char)(k->async_armed & ~(1u << j));
}
#endif
/* before the block barrier that precedes a bulk copy: initialize the ring
 * once; order this thread's earlier shared-memory accesses (generic proxy)
 * before the copy's writes (async proxy) */
TILE_API void tile__bulk_prepare(tile_kctx *k) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 900
    if (k->async_init == 2) {
        /* a later logical block of a persistent launch: the wrapper initialized
         * the ring once and every earlier group has landed, so each slot sits
         * in an open phase; read its parity (the preceding phase, parity 0,
         * tests complete exactly when the open one has parity 1) rather than
         * initializing a live mbarrier again */
        unsigned ph = 0;
        TILE__UNROLL for (int j = 0; j < 8; ++j) {
            unsigned done = 0;
            asm volatile("{\n\t.reg .pred p;\n\t"
                         "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;\n\t"
                         "selp.u32 %0, 1, 0, p;\n\t}\n"
                         : "=r"(done)
                         : "r"(tile__saddr(tile__async_mbar() + j))
                         : "memory");
            ph |= done << j;
        }
        k->async_phase = (unsigned char)ph;
        k->async_init = 1;
    } else if (!k->async_init) {
        if (threadIdx.x == 0) tile__async_ring_init();
        k->async_init = 1;
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#else
    (void)k;
#endif
}
/* after the barrier: thread 0 issues the copy of `bytes` into the open group's slot */
TILE_API void tile__bulk_issue(tile_kctx *k, void *dst, const void *src, unsigned bytes) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 900
    const unsigned slot = k->async_groups % 8u;
    if (threadIdx.x == 0) {
        const unsigned mb = tile__saddr(tile__async_mbar() + slot);
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(mb), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                         tile__saddr(dst)),
                     "l"(tile__gaddr(src)), "r"(bytes), "r"(mb)
                     : "memory");
    }
    k->async_armed = (unsigned char)(k->async_armed | (1u << slot));
    k->async_open = 1;
#else
    (void)k;
    memcpy(dst, src, bytes);
#endif
}

/* tile_async_commit(): close the group of the copies issued since the last
 * commit (an empty group is fine). */
#define tile_async_commit() tile__async_commit(&tile__k)
TILE_API void tile__async_commit(tile_kctx *k) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 900
    if (k->async_open) {
        if (threadIdx.x == 0) {
            TILE__UNUSED uint64_t tile__st;
            asm volatile("mbarrier.arrive.shared.b64 %0, [%1];\n"
                         : "=l"(tile__st)
                         : "r"(tile__saddr(tile__async_mbar() + k->async_groups % 8u))
                         : "memory");
        }
        k->async_open = 0;
    }
#endif
    k->async_groups += 1u;
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 900
    /* the invariant: the next open group's slot is free */
    if ((k->async_armed >> (k->async_groups % 8u)) & 1u) tile__bulk_retire(k, k->async_groups % 8u);
#endif
}

/* the bulk half of tile_async_wait(n) */
TILE_API void tile__async_wait_bulk(tile_kctx *k, unsigned n) {
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 900
    if (k->async_armed) {
        const unsigned head = k->async_groups;
        TILE__UNROLL for (unsigned j = 0; j < 8u; ++j) {
            if (!((k->async_armed >> j) & 1u)) continue;
            if (k->async_open && j == head % 8u) continue; /* the open group: not committed */
            /* the armed group of slot j: the newest committed group with that slot */
            const unsigned g = head - 1u - ((head - 1u - j) % 8u);
            if (head - g > n) tile__bulk_retire(k, j); /* older than the n newest */
        }
    }
#else
    (void)k;
    (void)n;
#endif
}

/* tile_async_wait(n): wait until at most the n most recently committed groups
 * are pending (n a constant >= 0), then a block barrier, so every thread sees
 * the data of the older groups. tile_async_wait_all(): commit, wait for all. */
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
#define TILE__CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n) : "memory")
#else
#define TILE__CP_ASYNC_WAIT(n) ((void)0)
#endif
#define tile_async_wait(n)                                                         \
    do {                                                                           \
        TILE__STATIC_ASSERT((n) >= 0, "tile.h: tile_async_wait(n) needs a constant n >= 0"); \
        TILE__CP_ASYNC_WAIT(n);                                                    \
        tile__async_wait_bulk(&tile__k, (unsigned)(n));                            \
        tile_barrier();                                                            \
    } while (0)
#define tile_async_wait_all()                                                      \
    do {                                                                           \
        tile_async_commit();                                                       \
        tile_async_wait(0);                                                        \
    } while (0)

/* ---- issuing the copies of one tile (device, sm_80+) ---- */
#if TILE_ON_DEVICE && __CUDA_ARCH__ >= 800
#define TILE__ASYNC_ISSUE(t, arr, o, base, in, path)                               \
    do {                                                                           \
        typedef TILE_ELEM_T(t) tile__AE;                                           \
        const char *tile__ag = (const char *)(arr).ptr;                            \
        if ((path) == TILE_ASYNC_BULK) tile__bulk_prepare(&tile__k);               \
        tile_barrier(); /* nobody still reads the destination */                  \
        if ((path) == TILE_ASYNC_BULK) {                                           \
            tile__bulk_issue(&tile__k, (void *)(t).v, tile__ag + (base) * TILE__ESIZE(t), \
                             (unsigned)(tile_size(t) * TILE__ESIZE(t)));           \
        } else if (TILE__VEC_CT(t) && (path) == TILE_ASYNC_VEC16) {                \
            enum { tile__rb = TILE__DLAST(t) * TILE__ESIZE(t), tile__vr = tile__rb >= 16 ? tile__rb / 16 : 1 }; \
            const int tile__nv = tile_size(t) / TILE__DLAST(t) * tile__vr;         \
            for (int tile__i = tile_thread(); tile__i < tile__nv; tile__i += TILE__BD(t)) { \
                const int tile__r = tile__i / tile__vr, tile__c = tile__i % tile__vr; \
                tile__cp_async16((char *)&(t).v[0] + tile__r * tile__rb + tile__c * 16, \
                                 tile__ag + TILE__GOFF_L(t, arr, base, tile__r * TILE__DLAST(t)) * TILE__ESIZE(t) + \
                                     tile__c * 16);                                \
            }                                                                      \
        } else if (TILE__CONTIG(t) && (path) == TILE_ASYNC_RUN) {                  \
            const int tile__nb = tile_size(t) * TILE__ESIZE(t);                    \
            const char *tile__gs = tile__ag + (base) * TILE__ESIZE(t);             \
            char *tile__ss = (char *)(t).v;                                        \
            const int tile__ch = tile__chunk((uintptr_t)tile__gs | (uintptr_t)tile__ss | (uintptr_t)tile__nb); \
            if (tile__ch == 16) {                                                  \
                for (int tile__i = tile_thread(); tile__i < tile__nb / 16; tile__i += TILE__BD(t)) \
                    tile__cp_async16(tile__ss + 16 * tile__i, tile__gs + 16 * tile__i); \
            } else if (tile__ch == 8) {                                            \
                for (int tile__i = tile_thread(); tile__i < tile__nb / 8; tile__i += TILE__BD(t)) \
                    tile__cp_async8(tile__ss + 8 * tile__i, tile__gs + 8 * tile__i); \
            } else {                                                               \
                for (int tile__i = tile_thread(); tile__i < tile__nb / 4; tile__i += TILE__BD(t)) \
                    tile__cp_async4(tile__ss + 4 * tile__i, tile__gs + 4 * tile__i); \
            }                                                                      \
        } else {                                                                   \
            const int tile__ch = tile__chunk((uintptr_t)(arr).ptr | (uintptr_t)(const void *)(t).v | \
                                             (uintptr_t)TILE__ESIZE(t));          \
            TILE__EACH(t, tile__s) {                                               \
                int64_t tile__go;                                                  \
                int tile__ok = 1;                                                  \
                if (in) tile__go = TILE__GOFF_L(t, arr, base, TILE__LIN(t, tile__s)); \
                else TILE__GOFF(t, arr, o, tile__s, tile__go, tile__ok);           \
                char *tile__d = (char *)&TILE__AT(t, tile__s);                     \
                if (tile__ok)                                                      \
                    tile__cp_async_n(tile__d, tile__ag + tile__go * TILE__ESIZE(t), TILE__ESIZE(t), tile__ch); \
                else memset(tile__d, 0, sizeof(tile__AE));                         \
            }                                                                      \
        }                                                                          \
    } while (0)
#else
#define TILE__ASYNC_ISSUE(t, arr, o, base, in, path) ((void)0)
#endif

/* The asynchronous load of shared tile t from tile_array arr (an lvalue) at
 * offsets o[4], first element `base`; sets path_out. */
#define TILE__ASYNC_MOVE(t, arr, o, base, opts, path_out)                          \
    do {                                                                           \
        TILE__STATIC_ASSERT(tile_is_shared(t), "tile.h: tile_load_async needs a shared tile"); \
        TILE__CHECK_T(t, (arr).ndim == tile_ndim(t),                               \
                      "tile_load_async: the array's number of dims is the tile's; array dims", \
                      (arr).ndim, tile_ndim(t), tile_ndim(t) + 1);                \
        TILE__NOFFS_RT(t, "tile_load_async", o);                                   \
        const int tile__ain = tile__inside(&(arr), (o), TILE__D0(t), TILE__D1(t), TILE__D2(t), TILE__D3(t)); \
        const int tile__ap = tile__async_pick(&(arr), (base), tile__ain, TILE__VEC_CT(t), TILE__CONTIG(t), \
                                              tile_ndim(t), TILE__D1(t), TILE__D2(t), TILE__D3(t), TILE__ESIZE(t), \
                                              tile_size(t), (uintptr_t)(const void *)(t).v, TILE__ASYNC_ARCH, \
                                              (opts), tile__async_bulk_ok(&tile__k)); \
        if (tile__ap == TILE_ASYNC_SYNC) {                                         \
            TILE__UNUSED int tile__str;                                            \
            TILE__MOVE(1, t, arr, o, base, TILE_LOAD_AUTO, tile__str);             \
        } else {                                                                   \
            TILE__ASYNC_ISSUE(t, arr, o, base, tile__ain, tile__ap);               \
        }                                                                          \
        (path_out) = tile__ap;                                                     \
    } while (0)

/* tile_load_async(s, arr, o0[, o1, ...]): start copying arr[o + i] into shared
 * tile s (zeros outside arr, as tile_load); the data is there after the
 * tile_async_wait that covers the group. tile_load_async_ex(s, arr, opts,
 * o0[, ...]) takes TILE_ASYNC_* options and is an expression: the path taken
 * (TILE_ASYNC_SYNC on the CPU).
 *   tile_shared(float, s, 16, 64);
 *   tile_load_async(s, tile_array2(a, 1024, 64), 16 * i, 0);
 *   tile_async_commit();
 *   tile_async_wait(0);                  // s = a[16i .. 16i+16, 0 .. 64]
 *   int p = tile_load_async_ex(s, A, TILE_ASYNC_NO_BULK, 0, 0);   // p == TILE_ASYNC_VEC16 on sm_90 */
#define tile_load_async(t, arr, ...) ((void)tile_load_async_ex(t, arr, TILE_ASYNC_AUTO, __VA_ARGS__))
#define tile_load_async_ex(t, arr, opts, ...)                                      \
    __extension__({                                                                \
        TILE__NOFFS(t, "tile_load_async", __VA_ARGS__);                            \
        const tile_array tile__a = (arr);                                          \
        const int64_t tile__o[4] = {TILE__PAD4Z(__VA_ARGS__)};                     \
        int tile__apr;                                                             \
        TILE__ASYNC_MOVE(t, tile__a, tile__o, TILE__BASE(tile__a, tile__o), opts, tile__apr); \
        tile__apr;                                                                 \
    })
/* through a window (load.h):
 *   tile_load_async_window(s, w);  tile_window_move(&w, 16, 0); */
#define tile_load_async_window(t, w) ((void)tile_load_async_window_ex(t, w, TILE_ASYNC_AUTO))
#define tile_load_async_window_ex(t, w, opts)                                      \
    __extension__({                                                                \
        const tile_window tile__w = (w);                                           \
        int tile__apr;                                                             \
        TILE__ASYNC_MOVE(t, tile__w.a, tile__w.origin, tile__w.base, opts, tile__apr); \
        tile__apr;                                                                 \
    })

/* ---- stages: N shared tiles of one shape, back to back, for double (or
 * deeper) buffering ----
 * tile_shared_stages(T, name, nstages, d0[, ...]): allocate nstages shared
 *   tiles; `name` is stage 0 (a shared tile like any other).
 * tile_stage(cur, name, k): declare `cur`, stage k of `name` (k may be a run-
 *   time value in 0 .. nstages-1: a pointer offset, no copy).
 *   tile_shared_stages(float, buf, 2, 8, 64);        // 2 x 2 KiB
 *   tile_stage(cur, buf, i & 1);                     // cur: 8x64 shared tile */
#define tile_shared_stages(T, name, nstages, ...)                                  \
    TILE__SMEM_FITS((size_t)(nstages) * TILE_SMEM_BYTES(T, __VA_ARGS__), "tile_shared_stages: the stages"); \
    TILE__SHARED_TYPE(T, TILE_BLOCK_DIM, __VA_ARGS__)                              \
    name = {(T *)TILE__SMEM_TAKE((size_t)(nstages) * TILE_SMEM_BYTES(T, __VA_ARGS__)), 0, 0}; \
    enum { name##__nstages = (nstages) };                                          \
    TILE__STATIC_ASSERT((nstages) >= 1, "tile.h: tile_shared_stages needs nstages >= 1")
/* bytes from one stage to the next */
#define TILE__STAGE_BYTES(t) (((size_t)tile_size(t) * sizeof((t).v[0]) + 15u) & ~(size_t)15u)
#define tile_stage(name, stages, k)                                                \
    TILE__CAPTURE(name, stages);                                                   \
    TILE__TYPE_S_(name##__et *v, TILE__SHARED, name##__bd, name##__nd, name##__d0, name##__d1, name##__d2, \
                  name##__d3, name##__s0, name##__s1, name##__s2)                  \
    name = {(name##__et *)(void *)((char *)(stages).v + (size_t)(k) * TILE__STAGE_BYTES(stages)), 0, 0}; \
    TILE__CHECK((k) >= 0 && (k) < stages##__nstages, "tile_stage: stage index out of range (shared tile)", k, 0, \
                stages##__nstages)

#endif /* TILE_ASYNC_H */
