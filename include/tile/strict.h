/* tile/strict.h - CPU launches that predict the GPU launch more closely.
 *
 * The plain CPU launch runs a kernel written for B threads with block_dim = 1
 * and a heap arena of any size. A strict launch adds two GPU rules:
 *
 *   int err = tile_launch_strict(TILE_CPU, k, tile_grid1(n), 64, a, b);
 *   int err = tile_launch_simt_strict(TILE_CPU, k, tile_grid1(n * 64), 64, a, b);
 *
 * 1. Shared memory: the kernel's arena (TILE_KERNEL_SMEM bytes plus
 *    tile_exec_smem bytes) must fit the GPU's per-block limit,
 *    TILE_STRICT_SMEM_BYTES (default TILE_MAX_SMEM_BYTES, the sm_90 opt-in
 *    maximum of 227 KiB: the GPU launch raises a kernel past the 48 KiB
 *    default on its own, up to the device's opt-in limit). Larger: the launch
 *    returns TILE_ERR_SMEM before any block runs, as the GPU launch does.
 *    Lower it to predict a smaller GPU (sm_80: 163 KiB, sm_86/89: 99 KiB).
 *    Static shared buffers (TILE_STATIC_SMEM, the reduction scratch) do not
 *    exist on the CPU and are not counted: ptxas checks them at build time.
 * 2. Arguments are evaluated once, before the first block, as for a GPU
 *    launch (the plain CPU launch evaluates them once per block, so `i++`
 *    as an argument counts blocks). C converts each argument to its own type
 *    first, so pass pointers as pointers (a literal 0 is an int: use NULL);
 *    C++ converts each to the kernel's parameter type.
 * On the GPU target both forms behave like tile_launch / tile_launch_simt.
 * At most 16 kernel arguments in C.
 *
 * Suppose TILE_KERNEL_SMEM(big, 64, 200 * 1024, float *o):
 *   tile_launch_strict(TILE_CPU, big, tile_grid1(4), 64, o)            -> TILE_OK
 *   tile_launch_strict(tile_exec_smem(TILE_CPU, 64 * 1024), big, ...)  -> TILE_ERR_SMEM
 *   tile_launch(tile_exec_smem(TILE_CPU, 64 * 1024), big, ...)         -> TILE_OK (not strict)
 */
#ifndef TILE_STRICT_H
#define TILE_STRICT_H

#include "launch.h"

#ifndef TILE_STRICT_SMEM_BYTES
#define TILE_STRICT_SMEM_BYTES TILE_MAX_SMEM_BYTES
#endif

/* the GPU's shared-memory rule, applied to a CPU launch */
TILE_HOST_API int tile__strict_smem(tile_exec ex, size_t kernel_smem) {
    if (ex.device >= 0) return TILE_OK; /* the GPU launch checks the device's own limit */
    return kernel_smem + ex.smem_bytes > (size_t)(TILE_STRICT_SMEM_BYTES) ? TILE_ERR_SMEM : TILE_OK;
}

#if defined(__cplusplus)
/* C++ (nvcc, host C++): the body's parameter types come from its function
 * type; run() takes the arguments converted to them, once, and hands them
 * to the launch. */
template <class F> struct tile__strict_call;
template <int B, class... P> struct tile__strict_call<void (*)(tile_kctx, char (*)[B], P...)> {
    template <class G> static int run(G g, typename tile__type_id<P>::type... a) { return g(a...); }
};
#define tile__launch_strict(ex, name, grid, block, tiled, ...)                     \
    __extension__({                                                               \
        const tile_exec tile__sx = (ex);                                           \
        int tile__se = tile__strict_smem(tile__sx, (size_t)name##__smem);          \
        if (tile__se == TILE_OK)                                                   \
            tile__se = tile__strict_call<decltype(&name##__body)>::run(            \
                [&](auto... tile__sa) {                                           \
                    return tile__launch(tile__sx, name, grid, block, tiled, tile__sa...); \
                },                                                                \
                __VA_ARGS__);                                                      \
        tile__se;                                                                  \
    })
#else
/* C: each argument into a local of its own (decayed) type, then the launch
 * with the locals */
#define TILE__ONCE_N(...) TILE__ONCE_N_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TILE__ONCE_N_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, n, ...) n
#define TILE__ONCE_CAT(a, b) TILE__ONCE_CAT_(a, b)
#define TILE__ONCE_CAT_(a, b) a##b
#define TILE__ONCE_DECL_1(x) __typeof__(((void)0, (x))) tile__a1 = (x);
#define TILE__ONCE_DECL_2(x, ...) __typeof__(((void)0, (x))) tile__a2 = (x); TILE__ONCE_DECL_1(__VA_ARGS__)
#define TILE__ONCE_DECL_3(x, ...) __typeof__(((void)0, (x))) tile__a3 = (x); TILE__ONCE_DECL_2(__VA_ARGS__)
#define TILE__ONCE_DECL_4(x, ...) __typeof__(((void)0, (x))) tile__a4 = (x); TILE__ONCE_DECL_3(__VA_ARGS__)
#define TILE__ONCE_DECL_5(x, ...) __typeof__(((void)0, (x))) tile__a5 = (x); TILE__ONCE_DECL_4(__VA_ARGS__)
#define TILE__ONCE_DECL_6(x, ...) __typeof__(((void)0, (x))) tile__a6 = (x); TILE__ONCE_DECL_5(__VA_ARGS__)
#define TILE__ONCE_DECL_7(x, ...) __typeof__(((void)0, (x))) tile__a7 = (x); TILE__ONCE_DECL_6(__VA_ARGS__)
#define TILE__ONCE_DECL_8(x, ...) __typeof__(((void)0, (x))) tile__a8 = (x); TILE__ONCE_DECL_7(__VA_ARGS__)
#define TILE__ONCE_DECL_9(x, ...) __typeof__(((void)0, (x))) tile__a9 = (x); TILE__ONCE_DECL_8(__VA_ARGS__)
#define TILE__ONCE_DECL_10(x, ...) __typeof__(((void)0, (x))) tile__a10 = (x); TILE__ONCE_DECL_9(__VA_ARGS__)
#define TILE__ONCE_DECL_11(x, ...) __typeof__(((void)0, (x))) tile__a11 = (x); TILE__ONCE_DECL_10(__VA_ARGS__)
#define TILE__ONCE_DECL_12(x, ...) __typeof__(((void)0, (x))) tile__a12 = (x); TILE__ONCE_DECL_11(__VA_ARGS__)
#define TILE__ONCE_DECL_13(x, ...) __typeof__(((void)0, (x))) tile__a13 = (x); TILE__ONCE_DECL_12(__VA_ARGS__)
#define TILE__ONCE_DECL_14(x, ...) __typeof__(((void)0, (x))) tile__a14 = (x); TILE__ONCE_DECL_13(__VA_ARGS__)
#define TILE__ONCE_DECL_15(x, ...) __typeof__(((void)0, (x))) tile__a15 = (x); TILE__ONCE_DECL_14(__VA_ARGS__)
#define TILE__ONCE_DECL_16(x, ...) __typeof__(((void)0, (x))) tile__a16 = (x); TILE__ONCE_DECL_15(__VA_ARGS__)
#define TILE__ONCE_NAMES_1(x) tile__a1
#define TILE__ONCE_NAMES_2(x, ...) tile__a2, TILE__ONCE_NAMES_1(__VA_ARGS__)
#define TILE__ONCE_NAMES_3(x, ...) tile__a3, TILE__ONCE_NAMES_2(__VA_ARGS__)
#define TILE__ONCE_NAMES_4(x, ...) tile__a4, TILE__ONCE_NAMES_3(__VA_ARGS__)
#define TILE__ONCE_NAMES_5(x, ...) tile__a5, TILE__ONCE_NAMES_4(__VA_ARGS__)
#define TILE__ONCE_NAMES_6(x, ...) tile__a6, TILE__ONCE_NAMES_5(__VA_ARGS__)
#define TILE__ONCE_NAMES_7(x, ...) tile__a7, TILE__ONCE_NAMES_6(__VA_ARGS__)
#define TILE__ONCE_NAMES_8(x, ...) tile__a8, TILE__ONCE_NAMES_7(__VA_ARGS__)
#define TILE__ONCE_NAMES_9(x, ...) tile__a9, TILE__ONCE_NAMES_8(__VA_ARGS__)
#define TILE__ONCE_NAMES_10(x, ...) tile__a10, TILE__ONCE_NAMES_9(__VA_ARGS__)
#define TILE__ONCE_NAMES_11(x, ...) tile__a11, TILE__ONCE_NAMES_10(__VA_ARGS__)
#define TILE__ONCE_NAMES_12(x, ...) tile__a12, TILE__ONCE_NAMES_11(__VA_ARGS__)
#define TILE__ONCE_NAMES_13(x, ...) tile__a13, TILE__ONCE_NAMES_12(__VA_ARGS__)
#define TILE__ONCE_NAMES_14(x, ...) tile__a14, TILE__ONCE_NAMES_13(__VA_ARGS__)
#define TILE__ONCE_NAMES_15(x, ...) tile__a15, TILE__ONCE_NAMES_14(__VA_ARGS__)
#define TILE__ONCE_NAMES_16(x, ...) tile__a16, TILE__ONCE_NAMES_15(__VA_ARGS__)
#define tile__launch_strict(ex, name, grid, block, tiled, ...)                     \
    __extension__({                                                               \
        const tile_exec tile__sx = (ex);                                           \
        int tile__se = tile__strict_smem(tile__sx, (size_t)name##__smem);          \
        if (tile__se == TILE_OK) {                                                \
            TILE__ONCE_CAT(TILE__ONCE_DECL_, TILE__ONCE_N(__VA_ARGS__))(__VA_ARGS__) \
            tile__se = tile__launch(tile__sx, name, grid, block, tiled,            \
                                    TILE__ONCE_CAT(TILE__ONCE_NAMES_, TILE__ONCE_N(__VA_ARGS__))(__VA_ARGS__)); \
        }                                                                         \
        tile__se;                                                                  \
    })
#endif

/* Strict tiled and SIMT launches: same arguments and results as tile_launch
 * and tile_launch_simt. */
#define tile_launch_strict(ex, name, grid, block, ...) tile__launch_strict(ex, name, grid, block, 1, __VA_ARGS__)
#define tile_launch_simt_strict(ex, name, grid, block, ...) tile__launch_strict(ex, name, grid, block, 0, __VA_ARGS__)

#endif /* TILE_STRICT_H */
