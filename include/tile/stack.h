/* tile/stack.h - a block-wide stack in shared memory (Warp's tile_stack).
 *
 * Every thread of the block sees the same stack. push and pop move up to one
 * element per thread per call; the element count is shared. Inside a kernel
 * body:
 *
 *   tile_stack(float, s, 256);                   // empty stack of 256 floats
 *   int slot = tile_stack_push(s, x, x > 0.5f);  // every thread; -1: not pushed
 *   int n = tile_stack_count(s);                 // any thread, no barrier
 *   float y;
 *   int from = tile_stack_pop(s, &y);            // every thread; -1: nothing for it
 *   tile_stack_clear(s);                         // every thread
 *
 * Semantics (deterministic, a refinement of Warp's, whose slot assignment is
 * unspecified):
 *  - tile_stack_push(s, value, has_value): cooperative. The threads whose
 *    has_value is nonzero offer `value` (converted to the element type;
 *    evaluated once in every thread). Offers are numbered in thread order
 *    (a block scan of the flags) and take the slots count, count + 1, ...:
 *    pushed values keep thread order. An offer whose slot would be >=
 *    capacity is dropped and gets -1, as does a thread that offers nothing;
 *    otherwise the result is the slot, in [0, capacity). Nothing is written
 *    past capacity; count becomes min(count + offers, capacity).
 *  - tile_stack_pop(s, &value): cooperative. Thread t takes the element at
 *    slot count - 1 - t if there is one (thread 0 gets the top; a later push
 *    is popped before an earlier one), stores it in *value and returns its
 *    slot; otherwise returns -1 and sets *value to zero bytes. Each thread
 *    pops at most one element: count drops by min(count, block_dim).
 *  - tile_stack_clear(s): cooperative; count = 0 (the next push starts at 0).
 *  - tile_stack_count(s): NOT cooperative, no barrier: any thread, also in
 *    divergent code, once every thread has finished the preceding push, pop
 *    or clear (they end with a barrier, so the count is then uniform).
 *  - tile_stack_capacity(s): the compile-time capacity.
 * The declaration is cooperative too (it clears the stack). Push costs two
 * barriers (one inside the block scan, one at the end), pop two, clear two.
 * On the CPU block_dim is 1: each call moves at most one element.
 *
 * Storage:
 *  - tile_stack(T, name, capacity): a static shared buffer of its own per
 *    declaration (TILE__SMEM_TAG tagged with __COUNTER__), never shared with
 *    another stack, even one of the same byte size, nor with
 *    TILE_STATIC_SMEM users. capacity must be a positive compile-time
 *    constant and TILE_STACK_BYTES(T, capacity) at most
 *    TILE_STATIC_SMEM_MAX (the 48 KiB static limit less the reduction
 *    scratch): otherwise a compile-time error. No arena bytes are needed.
 *    On the CPU the storage is a local array of the kernel body.
 *  - tile_stack_arena(T, name, capacity): the same stack carved from the
 *    kernel's arena (count TILE_STACK_BYTES(T, capacity) in
 *    TILE_KERNEL_SMEM), for stacks beyond the static limit.
 *  - tile_stack_in(T, name, capacity, mem): over caller memory, 16-byte
 *    aligned, TILE_STACK_BYTES(T, capacity) bytes (shared memory on the GPU).
 * Layout: the count (an int) in the first 16 bytes, then `capacity`
 * elements; s.v points at the elements.
 */
#ifndef TILE_STACK_H
#define TILE_STACK_H

#include "reduce.h"

/* bytes of a stack's storage: 16 for the count, then the elements */
#define TILE_STACK_BYTES(T, capacity) \
    (((size_t)16 + sizeof(T) * (size_t)((capacity) > 0 ? (capacity) : 0) + 15u) & ~(size_t)15u)

/* the stack's type: element pointer, count pointer, capacity in the type */
#define TILE__STACK_T(T, cap)                                                      \
    struct {                                                                       \
        T *v;                                                                      \
        int *n;                                                                    \
        char (*tile__cap)[(cap) > 0 ? (cap) : 1];                                  \
    }
#define tile_stack_capacity(s) ((int)sizeof(*(s).tile__cap))
#define tile_stack_count(s) (*(s).n + 0)

#define TILE__STACK_CAP_OK(capacity) \
    TILE__STATIC_ASSERT((capacity) > 0, "tile.h: tile_stack capacity must be a positive compile-time constant")

#if TILE_ON_DEVICE
#define TILE__STACK_STORAGE(T, name, cap) \
    unsigned char *name##__mem = TILE__SMEM_TAG(TILE__TAG_USER + __COUNTER__, TILE_STACK_BYTES(T, cap))
#define TILE__STACK_MEM(name) (name##__mem)
#else
#define TILE__STACK_STORAGE(T, name, cap) \
    union { max_align_t tile__a; unsigned char b[TILE_STACK_BYTES(T, cap)]; } name##__mem
#define TILE__STACK_MEM(name) (name##__mem.b)
#endif

#define tile_stack(T, name, capacity)                                              \
    TILE__STACK_CAP_OK(capacity);                                                  \
    TILE__STATIC_ASSERT(TILE_STACK_BYTES(T, capacity) <= TILE_STATIC_SMEM_MAX,      \
                        "tile.h: tile_stack too large for static shared memory: use tile_stack_arena"); \
    TILE__STACK_STORAGE(T, name, capacity);                                        \
    tile_stack_in(T, name, capacity, TILE__STACK_MEM(name))
#define tile_stack_in(T, name, capacity, mem)                                      \
    TILE__STACK_CAP_OK(capacity);                                                  \
    unsigned char *const name##__at = (unsigned char *)(mem); /* evaluated once */ \
    TILE__STACK_T(T, capacity) name = {(T *)(void *)(name##__at + 16), (int *)(void *)name##__at, 0}; \
    tile_stack_clear(name)
#define tile_stack_arena(T, name, capacity) \
    TILE__SMEM_FITS(TILE_STACK_BYTES(T, capacity), "tile_stack_arena: the stack");  \
    tile_stack_in(T, name, capacity, TILE__SMEM_TAKE(TILE_STACK_BYTES(T, capacity)))

/* Exclusive rank of the calling thread's flag among the block's flags (in
 * thread order) and the total, in every thread. One barrier (bd > 1): every
 * thread has passed its reads that precede the call when any thread returns. */
TILE_API int tile__block_rank(tile_kctx *k, int bd, int flag, int *total) {
#if TILE_ON_DEVICE
    if (bd == 1) {
        *total = flag;
        return 0;
    }
    TILE__COOP(); /* the ballot names every lane */
    const int tid = tile_thread(), lane = tid % 32, warp = tid / 32, nw = (bd + 31) / 32;
    const unsigned mask = TILE__WARP_MASK(bd);
    const unsigned bal = __ballot_sync(mask, flag);
    const int r = __popc(bal & ((1u << lane) - 1u));
    if (nw == 1) {
        tile_barrier();
        *total = __popc(bal);
        return r;
    }
    int *sc = (int *)tile__scratch_next(k);
    if (lane == 0) sc[warp] = __popc(bal);
    tile_barrier();
    int before = 0, tot = 0;
    for (int w = 0; w < nw; ++w) {
        const int c = sc[w];
        before += w < warp ? c : 0;
        tot += c;
    }
    *total = tot;
    return before + r;
#else
    (void)k;
    (void)bd;
    *total = flag;
    return 0;
#endif
}

#define tile_stack_push(s, value, has_value)                                       \
    __extension__({                                                                \
        const TILE__TYPEOF(*(s).v) tile__pv = (value);                             \
        const int tile__hv = (has_value) ? 1 : 0;                                  \
        const int tile__base = *(s).n;                                             \
        int tile__tot;                                                             \
        const int tile__rk = tile__block_rank(&tile__k, TILE_BLOCK_DIM, tile__hv, &tile__tot); \
        const int tile__slot =                                                     \
            tile__hv && tile__base + tile__rk < tile_stack_capacity(s) ? tile__base + tile__rk : -1; \
        if (tile__slot >= 0) (s).v[tile__slot] = tile__pv;                         \
        if (tile_thread() == 0)                                                    \
            *(s).n = tile__base + tile__tot < tile_stack_capacity(s) ? tile__base + tile__tot \
                                                                     : tile_stack_capacity(s); \
        tile_barrier();                                                            \
        tile__slot;                                                                \
    })

#define tile_stack_pop(s, out)                                                     \
    __extension__({                                                                \
        const int tile__c = *(s).n;                                                \
        const int tile__slot = tile_thread() < tile__c ? tile__c - 1 - tile_thread() : -1; \
        if (tile__slot >= 0) *(out) = (s).v[tile__slot];                           \
        else memset((out), 0, sizeof(*(out)));                                     \
        tile_barrier(); /* every thread has read the count and its element */     \
        if (tile_thread() == 0) *(s).n = tile__c > TILE_BLOCK_DIM ? tile__c - TILE_BLOCK_DIM : 0; \
        tile_barrier();                                                            \
        tile__slot;                                                                \
    })

#define tile_stack_clear(s)                                                        \
    do {                                                                           \
        tile_barrier(); /* nobody still reads the old count */                    \
        if (tile_thread() == 0) *(s).n = 0;                                        \
        tile_barrier();                                                            \
    } while (0)

#endif /* TILE_STACK_H */
