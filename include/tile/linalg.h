/* tile/linalg.h - Cholesky factorization, triangular solves, transpose and
 * diagonal add on tiles (Warp's tile_cholesky family, tile_transpose,
 * tile_diag_add), f32 and f64.
 *
 * Every operation is cooperative (every thread of the block calls it, never
 * in a divergent branch) and takes any mix of register and shared tiles.
 * Shapes are checked at compile time: a non-square factor, a right-hand side
 * with another number of rows, tiles of different element types or an
 * element type other than float/double fail to compile with a message naming
 * the operation.
 *
 * Suppose A is the 3x3 f32 tile [[4 2 2] [2 5 3] [2 3 6]] and b = [8 10 11]:
 *   tile_cholesky(L, A)             L = [[2 0 0] [1 2 0] [1 1 2]]
 *   tile_cholesky_solve(x, L, b)    x = [1 1 1]     (L L^T x = b)
 *   tile_lower_solve(z, L, b)       z = [4 3 2]     (L z = b)
 *   tile_upper_solve(x, U, z)       U x = z, U upper triangular
 *   tile_transpose(t, L)            t = [[2 1 1] [0 2 1] [0 0 2]]
 *   tile_diag_add_c(B, A, 1.0f)     B = [[5 2 2] [2 6 3] [2 3 7]]
 *
 * Non-SPD input (the contract, on both targets):
 *   tile_cholesky(L, A): a pivot d_j = a_jj - sum_k l_jk^2 that is not > 0
 *     (or is NaN) makes column j NaN (rows j..n-1); the trailing update then
 *     makes every later column NaN as well. Columns before j hold the factor
 *     of the leading j x j block and the rows below it (as LAPACK's potrf
 *     leaves them). The strict upper triangle is 0 in any case.
 *   tile_cholesky_info(L, A, &info): the same, and info (every thread) is 0
 *     on success or j+1 for the first failing column (1-based, LAPACK's
 *     convention). A NaN anywhere in A's lower triangle gives info > 0.
 *   tile_cholesky_eps(L, A, eps): a pivot below eps is replaced by eps (the
 *     factor of A + E for a diagonal E >= 0; finite for finite input); a NaN
 *     pivot stays NaN. eps <= 0 means no clamping.
 *   tile_cholesky_ex(L, A, eps, info) is the general form (info may be 0).
 * Solves with a singular factor (a zero diagonal) give inf/NaN by IEEE
 * arithmetic; a factor holding NaN gives NaN. Never a hang or an
 * out-of-bounds access.
 *
 * Only A's lower triangle is read (Warp's fill_mode "lower"); lower solves
 * read L's lower triangle with the diagonal, upper solves U's upper one.
 *
 * Staging (Warp migrates register tiles to shared memory; C cannot change a
 * tile's storage, so the operation stages it): an operation works inside its
 * shared destination when there is one. A register operand that needs random
 * access (the factor of a solve, the destination of a factorization or a
 * solve, the source of a transpose, the diagonal of tile_diag_add) is copied
 * into a shared staging buffer (factors with an odd row stride, so column
 * reads hit distinct banks) and the result is read back into the register
 * tile. The buffer is a static shared array when the operation's need is at
 * most TILE_LINALG_STATIC_MAX_BYTES, otherwise it comes from the kernel's
 * arena (budget TILE_LINALG_SMEM_BYTES in TILE_KERNEL_SMEM; an arena too
 * small is reported as TILE_ERR_SMEM_OVERFLOW and released when the operation
 * returns). A need above TILE_MAX_SMEM_BYTES does not compile. On the CPU a
 * block is one thread holding the whole tile in its slots, so nothing is
 * staged: the slots are the matrix.
 *
 * Algorithms (B threads, n x n factor, K right-hand-side columns):
 *   Cholesky: right-looking, column by column, two barriers per column.
 *     Phase 1: every thread reads the pivot and takes its square root; the
 *     column below it is scaled in parallel (i = j+1+tid, step B) and
 *     mirrored into row j's strict upper part (the previous row's mirror is
 *     zeroed). Phase 2: the trailing lower triangle is updated in parallel,
 *     a[i][k] -= l[i][j] * l[k][j] with l[k][j] read from the mirror row, so
 *     consecutive threads read consecutive addresses for any tile stride.
 *   Lower solve: forward substitution, one barrier per row: the rows below
 *     row j are updated in parallel over (row, column) pairs, and the thread
 *     that updates row j+1 also divides it by its diagonal. Upper solve:
 *     backward substitution the same way. Cholesky solve: both, the second
 *     with L^T (read from L's rows).
 */
#ifndef TILE_LINALG_H
#define TILE_LINALG_H

#include <math.h>
#include "reduce.h"

/* Largest staging buffer one operation takes from static shared memory (the
 * 48 KiB static limit is shared with the reduction scratch and the scans'
 * and sorts' buffers: lower this if a kernel's buffers add up). */
#ifndef TILE_LINALG_STATIC_MAX_BYTES
#define TILE_LINALG_STATIC_MAX_BYTES (40 * 1024)
#endif

/* Arena bytes a factor (n x n) plus a right-hand side (n x k) staging buffer
 * may need (an upper bound for every linalg operation on such tiles), for
 * TILE_KERNEL_SMEM budgets when it exceeds TILE_LINALG_STATIC_MAX_BYTES:
 *   TILE_LINALG_SMEM_BYTES(double, 96, 1) == 75264 */
#define TILE_LINALG_SMEM_BYTES(T, n, k) \
    ((size_t)TILE__LA_R16((size_t)(n) * ((n) | 1) * sizeof(T)) + TILE__LA_R16((size_t)(n) * (k) * sizeof(T)))
#define TILE__LA_R16(b) ((((size_t)(b)) + 15u) & ~(size_t)15u)

/* static staging buffers have their own tag: never shared with the scans'
 * and sorts' TILE_STATIC_SMEM buffers of equal size */
enum { TILE__TAG_LINALG = 0x100 };

/* ---- element-type helpers ---- */
#if defined(__cplusplus)
TILE_API float tile__la_sqrt(float x) { return sqrtf(x); }
TILE_API double tile__la_sqrt(double x) { return sqrt(x); }
#define TILE__LA_SQRT(x) tile__la_sqrt(x)
/* float or double? (a trait: C++ has no _Generic) */
template <class E> struct tile__la_fp { enum { value = 0 }; };
template <> struct tile__la_fp<float> { enum { value = 1 }; };
template <> struct tile__la_fp<double> { enum { value = 1 }; };
#define TILE__LA_IS_FP(t) (tile__la_fp<TILE_ELEM_T(t)>::value)
/* A tile's data as a pointer: a shared tile's pointer; a register tile's
 * slots on the host (one thread holds the whole tile in order), a null
 * pointer on the device (taking the slots' address would move them out of
 * the registers; that branch is never taken there). */
template <class E, int K>
static TILE_HD __forceinline__ E *tile__la_ptr(E (&a)[K]) {
#if TILE_ON_DEVICE
    (void)a;
    return 0;
#else
    return a;
#endif
}
template <class E>
static TILE_HD __forceinline__ E *tile__la_ptr(E *&p) { return p; }
#define TILE__LA_PTR(t) tile__la_ptr((t).v)
#else
#define TILE__LA_SQRT(x) _Generic((x), float: sqrtf, default: sqrt)(x)
#define TILE__LA_IS_FP(t) _Generic((t).v[0], float: 1, double: 1, default: 0)
#define TILE__LA_PTR(t) ((TILE_ELEM_T(t) *)(t).v)
#endif

/* Is t's data randomly accessible where it lives? Shared tiles always; a
 * register tile when one thread holds all of it (the CPU). */
#define TILE__LA_DIRECT(t) (tile_is_shared(t) || (!TILE_ON_DEVICE && TILE__BD(t) == 1))
/* element (i, j) offsets of a directly accessible tile (1D tiles: j == 0) */
#define TILE__LA_RS(t) (tile_is_shared(t) ? TILE__S0(t) : TILE__D1(t))
#define TILE__LA_CS(t) (tile_is_shared(t) ? (tile_ndim(t) == 2 ? TILE__S1(t) : 0) : 1)
/* loops over runtime ranges stay rolled (unrolled they only cost registers) */
#if TILE_ON_DEVICE
#define TILE__LA_UNROLL1 _Pragma("unroll 1")
#else
#define TILE__LA_UNROLL1
#endif

/* for each element of t (linear index l, value the lvalue TILE__LA_V(t, s, l)):
 * a rolled loop over a shared tile (unrolling many slots of a shared tile
 * only costs registers), the unrolled slot loop over a register tile (whose
 * slots are never indexed at run time, not even in the arm not taken) */
#define TILE__LA_EACH(t, s, l, ...)                                                \
    do {                                                                           \
        if (tile_is_shared(t)) {                                                   \
            TILE__LA_UNROLL1 for (int l = tile_thread(); l < tile_size(t); l += TILE__BD(t)) {      \
                enum { s = 0 };                                                    \
                __VA_ARGS__                                                        \
            }                                                                      \
        } else {                                                                   \
            TILE__EACH(t, s) {                                                     \
                const int l = TILE__LIN(t, s);                                     \
                __VA_ARGS__                                                        \
            }                                                                      \
        }                                                                          \
    } while (0)
#define TILE__LA_V(t, s, l) ((t).v[tile_is_shared(t) ? TILE__OFF(t, l) : (s)])
/* the staging buffer: static when small, else from the arena */
/* static buffers come in classes of 4 KiB, so that the operations of one
 * kernel on tiles of one size share one buffer (each begins with a barrier) */
#define TILE__LA_CLASS(b) ((((unsigned long)(b)) + 4095ul) & ~4095ul)
#define TILE__LA_STAGE(T, bytes, stat)                                             \
    ((bytes) == 0 ? (T *)0                                                         \
     : (stat)     ? (T *)TILE__SMEM_TAG(TILE__TAG_LINALG, (stat) ? TILE__LA_CLASS(bytes) : 0ul) \
                  : (T *)tile__smem_alloc(&tile__k, (stat) ? 0 : (size_t)(bytes)))

#define TILE__LA_CHECK_FP(t, op)                                                   \
    TILE__STATIC_ASSERT(TILE__LA_IS_FP(t), "tile.h: " op " needs f32 or f64 tiles")
#define TILE__LA_CHECK_SQUARE(t, op)                                               \
    TILE__STATIC_ASSERT(tile_ndim(t) == 2 && TILE__D0(t) == TILE__D1(t), "tile.h: " op " needs a square 2D tile")
#define TILE__LA_CHECK_SAME(a, b, op)                                              \
    TILE__STATIC_ASSERT(tile_ndim(a) == tile_ndim(b) && TILE__D0(a) == TILE__D0(b) && \
                            TILE__D1(a) == TILE__D1(b) && TILE__D2(a) == TILE__D2(b) && \
                            TILE__D3(a) == TILE__D3(b) && TILE__BD(a) == TILE__BD(b) && \
                            sizeof((a).v[0]) == sizeof((b).v[0]),                  \
                        "tile.h: " op ": tiles differ in shape or element type")
#define TILE__LA_CHECK_BYTES(bytes, op)                                            \
    TILE__STATIC_ASSERT((size_t)(bytes) <= (size_t)TILE_MAX_SMEM_BYTES,             \
                        "tile.h: " op ": the tiles need more shared memory than TILE_MAX_SMEM_BYTES")

/* ========================================================================
 * Cholesky
 * ======================================================================== */
/* tile_cholesky(L, A): L = the lower-triangular factor of A (L L^T = A),
 *   strict upper triangle 0. A (n x n) is not modified (unless it is L).
 * tile_cholesky_inplace(A): A = its factor.
 * tile_cholesky_info / _inplace_info(..., info): also *info = 0 or the
 *   first failing column (1-based); info points to an int of the calling
 *   thread (every thread gets the same value).
 * tile_cholesky_eps / _inplace_eps(..., eps): pivots below eps are eps.
 * tile_cholesky_ex / _inplace_ex(..., eps, info): both.
 *   A = [[4 2 2] [2 5 3] [2 3 6]]  ->  L = [[2 0 0] [1 2 0] [1 1 2]], info 0
 *   A = [[1 2] [2 1]]              ->  L = [[1 0] [2 NaN]], info 2
 *   A = [[1 2] [2 1]], eps 1e-3    ->  L = [[1 0] [2 0.0316]], info 2 */
#define tile_cholesky(L, A) TILE__CHOL(L, A, 0, 0, "tile_cholesky")
#define tile_cholesky_inplace(A) TILE__CHOL(A, A, 0, 0, "tile_cholesky_inplace")
#define tile_cholesky_info(L, A, info) TILE__CHOL(L, A, 0, info, "tile_cholesky_info")
#define tile_cholesky_inplace_info(A, info) TILE__CHOL(A, A, 0, info, "tile_cholesky_inplace_info")
#define tile_cholesky_eps(L, A, eps) TILE__CHOL(L, A, eps, 0, "tile_cholesky_eps")
#define tile_cholesky_inplace_eps(A, eps) TILE__CHOL(A, A, eps, 0, "tile_cholesky_inplace_eps")
#define tile_cholesky_ex(L, A, eps, info) TILE__CHOL(L, A, eps, info, "tile_cholesky_ex")
#define tile_cholesky_inplace_ex(A, eps, info) TILE__CHOL(A, A, eps, info, "tile_cholesky_inplace_ex")

/* W(i, j): the working matrix (L's memory, L's slots on the CPU, or the
 * staging buffer) */
#define TILE__CW(i, j) tile__w[(i)*tile__rs + (j)*tile__cs]

#define TILE__CHOL(Ld, A, eps, info, op)                                           \
    do {                                                                           \
        TILE__COOP();                                                              \
        typedef TILE_ELEM_T(A) tile__T;                                            \
        TILE__LA_CHECK_FP(A, op);                                                  \
        TILE__LA_CHECK_SQUARE(A, op);                                              \
        TILE__LA_CHECK_SAME(Ld, A, op);                                            \
        enum {                                                                     \
            tile__n = TILE__D0(A),                                                 \
            tile__B = TILE__BD(A),                                                 \
            tile__dir = TILE__LA_DIRECT(Ld),                                       \
            tile__rs = tile__dir ? TILE__LA_RS(Ld) : (tile__n | 1),                \
            tile__cs = tile__dir ? TILE__LA_CS(Ld) : 1,                            \
            tile__bytes = tile__dir ? 0 : (int)TILE__LA_R16((size_t)tile__n * (tile__n | 1) * sizeof(tile__T)), \
            tile__stat = TILE__LA_CLASS(tile__bytes) <= TILE_LINALG_STATIC_MAX_BYTES               \
        };                                                                         \
        TILE__LA_CHECK_BYTES((size_t)tile__n * (tile__n | 1) * sizeof(tile__T), op); \
        const int tile__mk = tile_smem_mark();                                     \
        tile__T *const tile__w =                                                   \
            tile__dir ? (tile__T *)TILE__LA_PTR(Ld) : TILE__LA_STAGE(tile__T, tile__bytes, tile__stat); \
        const tile__T tile__eps = (tile__T)(eps);                                  \
        int tile__info = 0;                                                        \
        /* copy A's lower triangle in (nobody may still read W or L) */           \
        tile_barrier();                                                            \
        TILE__LA_EACH(A, tile__s, tile__l, {                                       \
            const int tile__r = tile__l / tile__n, tile__c = tile__l % tile__n;    \
            if (tile__c <= tile__r) TILE__CW(tile__r, tile__c) = TILE__LA_V(A, tile__s, tile__l); \
        });                                                                        \
        tile_barrier();                                                            \
        TILE__CHOL_FACTOR(tile__T, tile__info);                                    \
        if (!tile__dir) {                                                          \
            TILE__EACH(Ld, tile__s) {                                              \
                const int tile__l = TILE__LIN(Ld, tile__s);                        \
                TILE__AT(Ld, tile__s) = TILE__CW(tile__l / tile__n, tile__l % tile__n); \
            }                                                                      \
            if (!tile__stat) tile_smem_release(tile__mk);                          \
        }                                                                          \
        (void)tile__mk;                                                            \
        {                                                                          \
            int *const tile__ip = (info);                                          \
            if (tile__ip) *tile__ip = tile__info;                                  \
        }                                                                          \
    } while (0)

/* The right-looking factorization of W (n x n, lower triangle holds A), two
 * barriers per column. Pivot rule: NaN stays NaN; with eps > 0 a pivot below
 * eps becomes eps, else a pivot <= 0 becomes NaN; either sets info (first
 * column, 1-based). Every thread reads the same pivot, so every thread takes
 * the same branch and gets the same info. */
#define TILE__CHOL_FACTOR(T, INFO)                                                 \
    do {                                                                           \
        const int tile__t = tile_thread();                                         \
        TILE__LA_UNROLL1 for (int tile__j = 0; tile__j < tile__n; ++tile__j) {     \
            T tile__d = TILE__CW(tile__j, tile__j);                                \
            int tile__bad = 0;                                                     \
            if (tile__d != tile__d) {                                              \
                tile__bad = 1;                                                     \
            } else if (tile__eps > (T)0) {                                         \
                if (tile__d < tile__eps) { tile__d = tile__eps; tile__bad = 1; }   \
            } else if (!(tile__d > (T)0)) {                                        \
                tile__d = (T)NAN;                                                  \
                tile__bad = 1;                                                     \
            }                                                                      \
            if (tile__bad && !(INFO)) (INFO) = tile__j + 1;                        \
            const T tile__lj = TILE__LA_SQRT(tile__d);                             \
            const T tile__inv = (T)1 / tile__lj;                                   \
            /* row j-1's mirror was last read before the barrier: zero it */      \
            if (tile__j > 0)                                                       \
                TILE__LA_UNROLL1 for (int tile__k2 = tile__j + tile__t; tile__k2 < tile__n; tile__k2 += tile__B) \
                    TILE__CW(tile__j - 1, tile__k2) = (T)0;                        \
            TILE__LA_UNROLL1 for (int tile__i = tile__j + 1 + tile__t; tile__i < tile__n; tile__i += tile__B) { \
                const T tile__v = TILE__CW(tile__i, tile__j) * tile__inv;          \
                TILE__CW(tile__i, tile__j) = tile__v;                              \
                TILE__CW(tile__j, tile__i) = tile__v;                              \
            }                                                                      \
            tile_barrier();                                                        \
            /* the pivot was read by everybody before the barrier */              \
            if (tile__t == tile__j % tile__B) TILE__CW(tile__j, tile__j) = tile__lj; \
            const int tile__m = tile__n - 1 - tile__j;                             \
            if (tile__m > 0) {                                                     \
                /* trailing m x m block, lower triangle: (r, c) with c <= r, */   \
                /* consecutive threads on consecutive columns */                   \
                const int tile__q = tile__B / tile__m, tile__qr = tile__B % tile__m; \
                int tile__r = tile__t / tile__m, tile__c = tile__t % tile__m;      \
                const int tile__j1 = tile__j + 1;                                  \
                TILE__LA_UNROLL1 while (tile__r < tile__m) {                                        \
                    if (tile__c <= tile__r)                                        \
                        TILE__CW(tile__j1 + tile__r, tile__j1 + tile__c) -=        \
                            TILE__CW(tile__j1 + tile__r, tile__j) * TILE__CW(tile__j, tile__j1 + tile__c); \
                    tile__r += tile__q;                                            \
                    tile__c += tile__qr;                                           \
                    if (tile__c >= tile__m) { tile__c -= tile__m; ++tile__r; }     \
                }                                                                  \
            }                                                                      \
            tile_barrier();                                                        \
        }                                                                          \
    } while (0)

/* ========================================================================
 * triangular solves
 * ======================================================================== */
/* Right-hand sides are 1D tiles (n) or 2D tiles (n, k); the result has the
 * right-hand side's shape and may be the right-hand side itself (not a
 * partial overlap).
 * tile_lower_solve(z, L, y):      L z = y (L's lower triangle and diagonal)
 * tile_upper_solve(x, U, z):      U x = z (U's upper triangle and diagonal)
 * tile_cholesky_solve(x, L, b):   L L^T x = b (L from tile_cholesky)
 * tile_*_solve_inplace(M, y):     y = the solution
 *   L = [[2 0 0] [1 2 0] [1 1 2]], y = [8 10 11]:
 *     tile_lower_solve -> [4 3 2]; tile_cholesky_solve -> [1 1 1]
 *   with U = L^T: tile_upper_solve(x, U, [4 3 2]) -> [1 1 1] */
#define tile_lower_solve(z, L, y) TILE__TRS(z, L, y, 1, "tile_lower_solve")
#define tile_lower_solve_inplace(L, y) TILE__TRS(y, L, y, 1, "tile_lower_solve_inplace")
#define tile_upper_solve(x, U, z) TILE__TRS(x, U, z, 2, "tile_upper_solve")
#define tile_upper_solve_inplace(U, z) TILE__TRS(z, U, z, 2, "tile_upper_solve_inplace")
#define tile_cholesky_solve(x, L, b) TILE__TRS(x, L, b, 3, "tile_cholesky_solve")
#define tile_cholesky_solve_inplace(L, b) TILE__TRS(b, L, b, 3, "tile_cholesky_solve_inplace")

#define TILE__TM(i, j) tile__m[(i)*tile__mrs + (j)*tile__mcs]
#define TILE__TX(i, c) tile__x[(i)*tile__xrs + (c)*tile__xcs]

/* X = M^-1 Y: MODE 1 forward (M lower), 2 backward (M upper), 3 forward with
 * M then backward with M^T. */
#define TILE__TRS(X, M, Y, MODE, op)                                               \
    do {                                                                           \
        TILE__COOP();                                                              \
        typedef TILE_ELEM_T(M) tile__T;                                            \
        TILE__LA_CHECK_FP(M, op);                                                  \
        TILE__LA_CHECK_SQUARE(M, op);                                              \
        TILE__LA_CHECK_SAME(X, Y, op);                                             \
        TILE__STATIC_ASSERT((tile_ndim(Y) == 1 || tile_ndim(Y) == 2) && TILE__D0(Y) == TILE__D0(M) && \
                                TILE__BD(Y) == TILE__BD(M) && sizeof((Y).v[0]) == sizeof((M).v[0]), \
                            "tile.h: " op ": the right-hand side needs shape (n) or (n, k) and the factor's element type"); \
        enum {                                                                     \
            tile__n = TILE__D0(M),                                                 \
            tile__K = tile_ndim(Y) == 2 ? TILE__D1(Y) : 1,                         \
            tile__B = TILE__BD(M),                                                 \
            tile__mdir = TILE__LA_DIRECT(M),                                       \
            tile__xdir = TILE__LA_DIRECT(X),                                       \
            tile__mrs = tile__mdir ? TILE__LA_RS(M) : (tile__n | 1),               \
            tile__mcs = tile__mdir ? TILE__LA_CS(M) : 1,                           \
            tile__xrs = tile__xdir ? TILE__LA_RS(X) : tile__K,                     \
            tile__xcs = tile__xdir ? TILE__LA_CS(X) : 1,                           \
            tile__mb = tile__mdir ? 0 : (int)TILE__LA_R16((size_t)tile__n * (tile__n | 1) * sizeof(tile__T)), \
            tile__xb = tile__xdir ? 0 : (int)TILE__LA_R16((size_t)tile__n * tile__K * sizeof(tile__T)), \
            tile__bytes = tile__mb + tile__xb,                                     \
            tile__stat = TILE__LA_CLASS(tile__bytes) <= TILE_LINALG_STATIC_MAX_BYTES               \
        };                                                                         \
        TILE__LA_CHECK_BYTES(TILE_LINALG_SMEM_BYTES(tile__T, tile__n, tile__K), op); \
        const int tile__mk = tile_smem_mark();                                     \
        tile__T *const tile__buf = TILE__LA_STAGE(tile__T, tile__bytes, tile__stat); \
        const tile__T *const tile__m =                                             \
            tile__mdir ? (const tile__T *)TILE__LA_PTR(M) : tile__buf;             \
        tile__T *const tile__x =                                                   \
            tile__xdir ? (tile__T *)TILE__LA_PTR(X) : tile__buf + tile__mb / (int)sizeof(tile__T); \
        const int tile__t = tile_thread();                                         \
        tile_barrier();                                                            \
        if (!tile__mdir) {                                                         \
            TILE__EACH(M, tile__s) {                                               \
                const int tile__l = TILE__LIN(M, tile__s);                         \
                tile__buf[(tile__l / tile__n) * (tile__n | 1) + tile__l % tile__n] = TILE__AT(M, tile__s); \
            }                                                                      \
        }                                                                          \
        TILE__LA_EACH(Y, tile__s, tile__l,                                         \
                      { TILE__TX(tile__l / tile__K, tile__l % tile__K) = TILE__LA_V(Y, tile__s, tile__l); }); \
        tile_barrier();                                                            \
        if ((MODE) & 1) TILE__TRS_FWD(tile__T);                                    \
        if ((MODE) == 2) TILE__TRS_BWD(tile__T, 0);                                \
        if ((MODE) == 3) TILE__TRS_BWD(tile__T, 1);                                \
        if (!tile__xdir) {                                                         \
            TILE__EACH(X, tile__s) {                                               \
                const int tile__l = TILE__LIN(X, tile__s);                         \
                TILE__AT(X, tile__s) = TILE__TX(tile__l / tile__K, tile__l % tile__K); \
            }                                                                      \
        }                                                                          \
        if (tile__bytes != 0 && !tile__stat) tile_smem_release(tile__mk);               \
        (void)tile__mk;                                                            \
        (void)tile__t;                                                             \
    } while (0)

/* forward: row 0 is divided first; then for each row j the rows below are
 * updated in parallel and row j+1 is finished (divided) by the thread that
 * updates it. One barrier per row: a phase reads row j (finished before the
 * barrier) and writes rows > j, each (row, column) by one thread. */
#define TILE__TRS_FWD(T)                                                           \
    do {                                                                           \
        TILE__LA_UNROLL1 for (int tile__c = tile__t; tile__c < tile__K; tile__c += tile__B)         \
            TILE__TX(0, tile__c) = TILE__TX(0, tile__c) / TILE__TM(0, 0);          \
        tile_barrier();                                                            \
        TILE__LA_UNROLL1 for (int tile__j = 0; tile__j < tile__n - 1; ++tile__j) { \
            const int tile__cnt = (tile__n - 1 - tile__j) * tile__K;               \
            TILE__LA_UNROLL1 for (int tile__e = tile__t; tile__e < tile__cnt; tile__e += tile__B) { \
                const int tile__i = tile__j + 1 + tile__e / tile__K, tile__c = tile__e % tile__K; \
                T tile__v = TILE__TX(tile__i, tile__c) - TILE__TM(tile__i, tile__j) * TILE__TX(tile__j, tile__c); \
                if (tile__i == tile__j + 1) tile__v = tile__v / TILE__TM(tile__i, tile__i); \
                TILE__TX(tile__i, tile__c) = tile__v;                              \
            }                                                                      \
            tile_barrier();                                                        \
        }                                                                          \
    } while (0)
/* backward with U(i, j) = M(i, j), or M(j, i) when TR (L^T) */
#define TILE__TU(TR, i, j) ((TR) ? TILE__TM(j, i) : TILE__TM(i, j))
#define TILE__TRS_BWD(T, TR)                                                       \
    do {                                                                           \
        TILE__LA_UNROLL1 for (int tile__c = tile__t; tile__c < tile__K; tile__c += tile__B)         \
            TILE__TX(tile__n - 1, tile__c) = TILE__TX(tile__n - 1, tile__c) / TILE__TM(tile__n - 1, tile__n - 1); \
        tile_barrier();                                                            \
        TILE__LA_UNROLL1 for (int tile__j = tile__n - 1; tile__j > 0; --tile__j) { \
            const int tile__cnt = tile__j * tile__K;                               \
            TILE__LA_UNROLL1 for (int tile__e = tile__t; tile__e < tile__cnt; tile__e += tile__B) { \
                const int tile__i = tile__e / tile__K, tile__c = tile__e % tile__K; \
                T tile__v = TILE__TX(tile__i, tile__c) - TILE__TU(TR, tile__i, tile__j) * TILE__TX(tile__j, tile__c); \
                if (tile__i == tile__j - 1) tile__v = tile__v / TILE__TM(tile__i, tile__i); \
                TILE__TX(tile__i, tile__c) = tile__v;                              \
            }                                                                      \
            tile_barrier();                                                        \
        }                                                                          \
    } while (0)

/* ========================================================================
 * transpose and diagonal add
 * ======================================================================== */
/* tile_transpose(dst, src): dst (n x m) = src (m x n) transposed, any
 * storages and element types (converted like C); dst must not overlap src.
 * A register src is staged (a shared src is read in place).
 *   src = [[1 2 3] [4 5 6]]  ->  dst = [[1 4] [2 5] [3 6]]
 * tile_transpose_view(name, src): declares `name`, a shared tile of shape
 * (n, m) aliasing the shared tile src (any view): free, writes go through
 * to src (Warp's tile_transpose of a shared tile). */
#define tile_transpose(dst, src)                                                   \
    do {                                                                           \
        TILE__COOP();                                                              \
        typedef TILE_ELEM_T(src) tile__T;                                          \
        TILE__STATIC_ASSERT(tile_ndim(src) == 2 && tile_ndim(dst) == 2 && TILE__D0(dst) == TILE__D1(src) && \
                                TILE__D1(dst) == TILE__D0(src) && TILE__BD(dst) == TILE__BD(src), \
                            "tile.h: tile_transpose needs 2D tiles of shapes (m, n) -> (n, m)"); \
        enum {                                                                     \
            tile__m0 = TILE__D0(src), tile__n0 = TILE__D1(src),                    \
            tile__dir = TILE__LA_DIRECT(src),                                      \
            tile__rs = tile__dir ? TILE__LA_RS(src) : (tile__n0 | 1),              \
            tile__cs = tile__dir ? TILE__LA_CS(src) : 1,                           \
            tile__bytes = tile__dir ? 0 : (int)TILE__LA_R16((size_t)tile__m0 * (tile__n0 | 1) * sizeof(tile__T)), \
            tile__stat = TILE__LA_CLASS(tile__bytes) <= TILE_LINALG_STATIC_MAX_BYTES               \
        };                                                                         \
        TILE__LA_CHECK_BYTES((size_t)tile__m0 * (tile__n0 | 1) * sizeof(tile__T), "tile_transpose"); \
        const int tile__mk = tile_smem_mark();                                     \
        const tile__T *tile__p;                                                    \
        if (tile__dir) {                                                           \
            tile__p = (const tile__T *)TILE__LA_PTR(src);                          \
        } else {                                                                   \
            tile__T *tile__b = TILE__LA_STAGE(tile__T, tile__bytes, tile__stat);   \
            tile_barrier();                                                        \
            TILE__EACH(src, tile__s) {                                             \
                const int tile__l = TILE__LIN(src, tile__s);                       \
                tile__b[(tile__l / tile__n0) * tile__rs + tile__l % tile__n0] = TILE__AT(src, tile__s); \
            }                                                                      \
            tile_barrier();                                                        \
            tile__p = tile__b;                                                     \
        }                                                                          \
        TILE__WRITE_BEGIN(dst);                                                    \
        TILE__LA_EACH(dst, tile__s, tile__l, {                                     \
            TILE__LA_V(dst, tile__s, tile__l) =                                    \
                tile__p[(tile__l % tile__m0) * tile__rs + (tile__l / tile__m0) * tile__cs]; \
        });                                                                        \
        TILE__WRITE_END(dst);                                                      \
        if (tile__bytes != 0 && !tile__stat) tile_smem_release(tile__mk);               \
        (void)tile__mk;                                                            \
    } while (0)

#define tile_transpose_view(name, src)                                             \
    TILE__CAPTURE(name, src);                                                      \
    TILE__TYPE_S_(name##__et * v, TILE__SHARED, name##__bd, 2, name##__d1, name##__d0, 1, 1, name##__s1, \
                  name##__s0, 1)                                                   \
    name = {(src).v, 0, 0};                                                        \
    TILE__STATIC_ASSERT(tile_is_shared(src), "tile.h: tile_transpose_view needs a shared tile (tile_transpose copies a register tile)"); \
    TILE__STATIC_ASSERT(tile_ndim(src) == 2, "tile.h: tile_transpose_view needs a 2D tile")

/* tile_diag_add(dst, a, d): dst = a with d[i] added to a[i][i] (Warp's
 * tile_diag_add); a square (n x n), d a 1D tile of n, dst a's shape; dst
 * may be a (in place), not d. Any element type with addition.
 * tile_diag_add_c(dst, a, value): the same with one value for every
 * diagonal element (a regularization a + value * I).
 *   a = [[0 1 2] [3 4 5] [6 7 8]], d = [10 20 30]
 *     -> dst = [[10 1 2] [3 24 5] [6 7 38]] */
#define tile_diag_add(dst, a, d)                                                   \
    do {                                                                           \
        TILE__COOP();                                                              \
        typedef TILE_ELEM_T(d) tile__T;                                            \
        TILE__LA_CHECK_SQUARE(a, "tile_diag_add");                                 \
        TILE__LA_CHECK_SAME(dst, a, "tile_diag_add");                              \
        TILE__STATIC_ASSERT(tile_ndim(d) == 1 && TILE__D0(d) == TILE__D0(a) && TILE__BD(d) == TILE__BD(a) && \
                                sizeof((d).v[0]) == sizeof((a).v[0]),              \
                            "tile.h: tile_diag_add needs a diagonal of shape (n) and a's element type"); \
        enum {                                                                     \
            tile__n = TILE__D0(a),                                                 \
            tile__dir = TILE__LA_DIRECT(d),                                        \
            tile__rs = tile__dir ? TILE__LA_RS(d) : 1,                             \
            tile__bytes = tile__dir ? 0 : (int)TILE__LA_R16((size_t)tile__n * sizeof(tile__T)), \
            tile__stat = TILE__LA_CLASS(tile__bytes) <= TILE_LINALG_STATIC_MAX_BYTES               \
        };                                                                         \
        const int tile__mk = tile_smem_mark();                                     \
        const tile__T *tile__p;                                                    \
        if (tile__dir) {                                                           \
            tile__p = (const tile__T *)TILE__LA_PTR(d);                            \
        } else {                                                                   \
            tile__T *tile__b = TILE__LA_STAGE(tile__T, tile__bytes, tile__stat);   \
            tile_barrier();                                                        \
            TILE__EACH(d, tile__s) tile__b[TILE__LIN(d, tile__s)] = TILE__AT(d, tile__s); \
            tile_barrier();                                                        \
            tile__p = tile__b;                                                     \
        }                                                                          \
        TILE__WRITE_BEGIN(dst);                                                    \
        TILE__EACH(dst, tile__s) {                                                 \
            const int tile__l = TILE__LIN(dst, tile__s);                           \
            const tile__T tile__av = TILE__AT(a, tile__s);                         \
            TILE__AT(dst, tile__s) = tile__l % (tile__n + 1) == 0                  \
                                         ? TILE__G_ADD(tile__av, tile__p[(tile__l / (tile__n + 1)) * tile__rs]) \
                                         : tile__av;                               \
        }                                                                          \
        TILE__WRITE_END(dst);                                                      \
        if (tile__bytes != 0 && !tile__stat) tile_smem_release(tile__mk);               \
        (void)tile__mk;                                                            \
    } while (0)

#define tile_diag_add_c(dst, a, value)                                             \
    do {                                                                           \
        TILE__LA_CHECK_SQUARE(a, "tile_diag_add_c");                               \
        TILE__LA_CHECK_SAME(dst, a, "tile_diag_add_c");                            \
        const TILE_ELEM_T(a) tile__dv = (value);                                   \
        TILE__EW(dst, TILE__LIN(dst, tile__s) % (TILE__D0(a) + 1) == 0 ? TILE__G_ADD(TILE__A(a), tile__dv) \
                                                                       : TILE__A(a)); \
    } while (0)

#endif /* TILE_LINALG_H */
