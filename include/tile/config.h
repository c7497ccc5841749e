/* tile/config.h - compiler switches, assertions and feature gates.
 *
 * Everything user-overridable lives here: define the macro before including
 * <tile.h> to replace it.
 *   TILE_DEBUG        enable promise checks (TILE_ASSERT) in tile operations.
 *   TILE_ASSERT(c)    what a broken promise does (default: assert() on the host,
 *                     a printf plus __trap() on the device, debug builds only).
 *   TILE_MAX_SMEM_BYTES  largest kernel arena (default 227 KiB, the sm_90 opt-in).
 *   TILE_SCRATCH_BYTES   static scratch of block reductions (reduce.h, default 2048).
 *   TILE_STRICT_SMEM_BYTES  the per-block shared-memory limit the strict CPU
 *                     launch enforces (strict.h, default TILE_MAX_SMEM_BYTES).
 * Read by the host API only (tile/host.h, docs/host.md):
 *   TILE_NO_CUBLAS / TILE_NO_CUFFT / TILE_NO_CUSOLVER  keep it off that library
 *                     (its GPU calls return TILE_ERR_DISABLED).
 */
#ifndef TILE_CONFIG_H
#define TILE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

/* The CUDA launch path is C++17 (template <auto>): say so in one line
 * instead of nvcc's "auto is not allowed here" deep inside launch.h. (MSVC
 * reports its standard in _MSVC_LANG.) Host C++ builds need no C++17. */
#if defined(__CUDACC__) && defined(__cplusplus)
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 201703L
#error "tile.h: nvcc builds need -std=c++17 or newer"
#endif
#endif

#if defined(__CUDACC__)
#define TILE_CUDA 1 /* compiled by nvcc: GPU and CPU targets available */
#else
#define TILE_CUDA 0 /* plain C11: CPU target only */
#endif

/* TILE_ON_DEVICE is 1 while nvcc compiles the device side of a translation
 * unit. The same kernel text is compiled twice; this is the only switch. */
#if defined(__CUDA_ARCH__)
#define TILE_ON_DEVICE 1
#else
#define TILE_ON_DEVICE 0
#endif

#if TILE_CUDA
#define TILE_HD __host__ __device__
#define TILE_DEV __device__
#define TILE_API static __host__ __device__ __forceinline__
#define TILE_HOST_API static inline
#else
#define TILE_HD
#define TILE_DEV
#define TILE_API static inline
#define TILE_HOST_API static inline
#endif

/* A host C++ compiler (g++/clang++ -std=c++17, no CUDA) builds the CPU
 * target like nvcc's host pass: the C++ paths of the headers (overloads,
 * small templates), minus the CUDA keywords. __forceinline__ is spelled as
 * nvcc's own host headers spell it. */
#if defined(__cplusplus) && !TILE_CUDA && !defined(__forceinline__)
#define __forceinline__ inline __attribute__((always_inline))
#endif

/* Marks user element functions used by tile_map: callable on both targets. */
#define TILE_FUNC static TILE_HD inline

#if defined(__GNUC__) || defined(__clang__) || TILE_CUDA
#define TILE__UNUSED __attribute__((unused))
#else
#define TILE__UNUSED
#endif

/* Full unrolling of per-thread slot loops is what keeps register tiles in
 * registers (promise 2). Only the device compiler is told; host compilers
 * would warn about an unknown pragma and unroll on their own anyway. */
#if TILE_ON_DEVICE
#define TILE__UNROLL _Pragma("unroll")
#else
#define TILE__UNROLL
#endif

/* Compile-time checks inside statement macros. */
#if defined(__cplusplus)
#define TILE__STATIC_ASSERT(c, msg) static_assert(c, msg)
#else
#define TILE__STATIC_ASSERT(c, msg) _Static_assert(c, msg)
#endif

/* Type of an expression, without references (GNU __typeof__ is accepted by
 * gcc, clang and nvcc, also with -pedantic). */
#define TILE__TYPEOF(x) __typeof__(x)
/* TILE__ARRTYPE(member) name; declares `name` with a struct member's type,
 * arrays included. In C++ the type goes through a template because nvcc's
 * host code generator re-spells a typedef of decltype/__typeof__ of an array
 * as `float [16] name`, which does not parse. */
#if defined(__cplusplus)
template <class A> struct tile__type_id { typedef A type; };
#define TILE__ARRTYPEOF(member) typename tile__type_id<decltype(member)>::type
#else
#define TILE__ARRTYPEOF(member) __typeof__(member)
#endif

#define TILE__STR_(x) #x
#define TILE__LINESTR TILE__STR_2(__LINE__)
#define TILE__STR_2(x) TILE__STR_(x)
#ifndef TILE_ASSERT
#if defined(TILE_DEBUG)
#if TILE_ON_DEVICE
#include <stdio.h>
#define TILE_ASSERT(c)                                                              \
    do {                                                                            \
        if (!(c)) {                                                                 \
            /* one literal, no arguments (they would need a stack frame): keep % \
             * out of asserted conditions */                                  \
            printf("tile.h: assertion failed: " #c " (" __FILE__ ":" TILE__LINESTR ")\n"); \
            __trap();                                                               \
        }                                                                           \
    } while (0)
#else
#include <assert.h>
#define TILE_ASSERT(c) assert(c)
#endif
#else
#define TILE_ASSERT(c) ((void)0)
#endif
#endif

/* Largest shared-memory arena one block may ask for (the sm_90 opt-in limit,
 * 227 KiB). A kernel whose declared arena is larger fails to compile. */
#ifndef TILE_MAX_SMEM_BYTES
#define TILE_MAX_SMEM_BYTES (227 * 1024)
#endif

#endif /* TILE_CONFIG_H */
