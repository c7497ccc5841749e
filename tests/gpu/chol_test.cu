/* tests/gpu/chol_test.cu - the 16x16 register tile (include/tile/tile16.h)
 * and the batched Cholesky (include/tile/chol_batched.h) on the GPU and on
 * the CPU target of the same nvcc build, against double-precision host loops.
 *
 *   chol_test             GPU 0 (when there is one), then the CPU target
 *   chol_test --cpu-only  the CPU target only
 *   chol_test --quick     fewer sizes and matrices (for compute-sanitizer)
 *
 * What is checked, f32 and f64:
 *  - tile16 operations (chol, solve_xlt, solve_lx, solve_ux, sub_abt,
 *    sub_abt_lower, sub_ab, sub_outer, sub_outer_sym, vec_load, eye_inplace,
 *    get, partial load/store with the slice rules) on 6 tiles a launch (3
 *    warps' worth of groups on the GPU) against host loops;
 *  - the factor for every n in 1..128 (--quick: a subset) on random SPD
 *    matrices: ||L L^T - A|| / ||A||, info 0, the result L itself (the
 *    strictly upper triangle exactly +0 in every matrix of every kind, from
 *    markers or NaN on input), the matrix after the batch untouched; the
 *    solve (nrhs 1: the warp kernel, and 19 for some n: the tile kernel),
 *    with NaN written over L's upper triangle first (it reads the lower one
 *    only): ||A x - b|| / (||A|| ||x|| + ||b||);
 *  - on the GPU target, the factor and the solve equal to the CPU target's
 *    run of the same kernels (relative, per matrix);
 *  - ill-conditioned (A = M M^T + delta I, M n x n/2), singular (a zero row
 *    and column p: info p+1, NaN from column p on; with eps: finite, info
 *    p+1), non-SPD (a_pp = -1), NaN (in the lower triangle: info at that row;
 *    in the strictly upper triangle only: ignored, same bits as without);
 *  - argument errors (n 0 and 129, batch -1, null pointers) and batch 0;
 *  - n > 32: the device building block tile_chol_block (the header's
 *    example kernel, 64 and 128 threads) equal to the library call;
 *  - the warp solve and the tile solve directly, at nrhs 1, 2, 5, 19
 *    (wsolve_run): x against each other, the residual, and on the GPU the
 *    warp solve bit for bit its CPU run;
 *  - the blocked kernels' staggered first rounds (stag_run, GPU, batch 16
 *    x SMs + 7): L and info bit for bit those of the same matrices 8 at a
 *    time;
 *  - the device building block tile_chol_small (9 matrices of n 1..32 in one
 *    launch, mixed n in a warp, idle groups passing NULL, two non-SPD: info,
 *    NaN columns, the valid leading factor, the upper triangle +0) against
 *    ref_chol, GPU vs CPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"
#include "../chol_ref.h"

/* ---------------- tile16 operations ---------------- */
enum { OPS_B = 64, OPS_TILES = 6, OPS_IN = 3 * 256 + 32 };
enum { OP_CHOL, OP_XLT, OP_SUB_ABT, OP_SUB_ABT_LOWER, OP_SUB_AB, OP_OUTER, OP_OUTER_SYM, OP_LX, OP_UX, OP_SLICE, OP_GET,
       OP_VEC, OP_SUB_ABT_MEM, OP_N };
static const char *op_name[OP_N] = {"chol", "solve_xlt", "sub_abt", "sub_abt_lower", "sub_ab", "sub_outer",
                                    "sub_outer_sym", "solve_lx", "solve_ux", "slice", "get", "vec_load", "sub_abt_mem"};

#define OPS_K(sfx, T)                                                              \
    TILE_KERNEL(ops_##sfx, OPS_B, const T *in, T *out, int *iout, int op, int ntile) { \
        const int m = (int)tile_block(0) * TILE16_GROUPS + tile16_group();         \
        const int ok = m < ntile;                                                  \
        const int mm = ok ? m : 0, rows = ok ? 16 : 0;                             \
        const T *pa = in + (size_t)mm * OPS_IN, *pb = pa + 256, *pc = pa + 512, *pv = pa + 768; \
        T *po = out + (size_t)mm * 256;                                            \
        tile16_##sfx a = tile16_zeros_##sfx(), b = tile16_zeros_##sfx(), c = tile16_zeros_##sfx(); \
        tile16_load_##sfx(&a, pa, rows, 16, 0, 16, 0, 16);                         \
        tile16_load_##sfx(&b, pb, rows, 16, 0, 16, 0, 16);                         \
        tile16_load_##sfx(&c, pc, rows, 16, 0, 16, 0, 16);                         \
        tile16_vec_##sfx va = tile16_vec_load_##sfx(pv, ok ? 2 : 0, 16, 0, 2, 0);  \
        int info = 0;                                                              \
        (void)va;                                                                  \
        if (op == OP_CHOL) {                                                       \
            info = tile16_chol_##sfx(&a, (T)0);                                    \
            c = a;                                                                 \
        } else if (op == OP_XLT) {                                                 \
            info = tile16_chol_##sfx(&a, (T)0);                                    \
            tile16_solve_xlt_##sfx(&a, &b);                                        \
            c = b;                                                                 \
        } else if (op == OP_SUB_ABT) {                                             \
            tile16_sub_abt_##sfx(&c, &b, &a);                                      \
        } else if (op == OP_SUB_ABT_LOWER) {                                       \
            tile16_sub_abt_lower_##sfx(&c, &b, &a);                                \
        } else if (op == OP_SUB_AB) {                                              \
            tile16_sub_ab_##sfx(&c, &b, &a);                                       \
        } else if (op == OP_OUTER || op == OP_OUTER_SYM) {                         \
            tile16_vec_##sfx x = tile16_vec_load_##sfx(pv, rows, 2, 0, 16, 0);     \
            tile16_vec_##sfx y = tile16_vec_load_##sfx(pv, rows, 2, 0, 16, 1);     \
            if (op == OP_OUTER) tile16_sub_outer_##sfx(&c, &x, &y);                \
            else tile16_sub_outer_sym_##sfx(&c, &x);                               \
        } else if (op == OP_LX) {                                                  \
            info = tile16_chol_##sfx(&a, (T)0);                                    \
            tile16_solve_lx_##sfx(&a, &b);                                         \
            c = b;                                                                 \
        } else if (op == OP_UX) {                                                  \
            tile16_##sfx u = tile16_eye_##sfx();                                   \
            tile16_load_t_ld_##sfx(&u, pa, 16, rows, 16, 0, 16, 0, 16);            \
            tile16_solve_ux_##sfx(&u, &b);                                         \
            c = b;                                                                 \
        } else if (op == OP_SLICE) {                                               \
            /* a 3-row, 11-column window at (3, 5) of a (rows 14.. of the 16 skipped \
             * by r1 = 14), into an identity; stored to rows 2..11, cols 1..8 of c */ \
            tile16_##sfx t = tile16_eye_##sfx();                                   \
            tile16_load_##sfx(&t, pa, rows, 16, 3, 14, 5, 16);                     \
            tile16_store_##sfx(po, rows, 16, 2, 12, 1, 9, &t);                     \
            tile16_##sfx t3 = tile16_zeros_##sfx();                                \
            tile16_load3_##sfx(&t3, in, ntile, OPS_IN / 16, 16, mm + 1, 40, 56, 0, 16); \
            tile16_store3_##sfx(out + (size_t)ntile * 256, ntile, 16, 16, ok ? mm : -1, 0, 16, 0, 16, &t3); \
        } else if (op == OP_GET) {                                                 \
            for (int i = 0; i < 16; ++i) {                                         \
                TILE__UNROLL for (int j = 0; j < 16; ++j) {                        \
                    const T v = tile16_get_##sfx(&a, (i + 3) & 15, (j * 5 + i) & 15); \
                    if (tile16_lane() == 0 && ok) po[i * 16 + j] = v;              \
                }                                                                  \
            }                                                                      \
        } else if (op == OP_VEC) {                                                 \
            tile16_eye_inplace_##sfx(&c);                                          \
            tile16_vec_##sfx x = tile16_vec_load3_##sfx(in, ntile, OPS_IN / 16, 16, mm, 2, 15, 3); \
            tile16_sub_outer_sym_##sfx(&c, &x);                                    \
        } else if (op == OP_SUB_ABT_MEM) {                                         \
            tile16_sub_abt_mem_##sfx(&c, &b, pa, 16);                              \
        }                                                                          \
        if (op != OP_SLICE && op != OP_GET) tile16_store_##sfx(po, rows, 16, 0, 16, 0, 16, &c); \
        if (ok && tile16_lane() == 0) iout[mm] = info;                             \
    }
OPS_K(f32, float)
OPS_K(f64, double)

/* ---------------- device building block tile_chol_small ---------------- */
/* Each group factors matrix m (its own n, at offset off[m]) with
 * tile_chol_small, as the header documents: both half-warps call, a group
 * with no matrix passes NULL. Mixed n in one warp (5 next to 16, 29 next to
 * 1) runs the warp-wide two-tile path for the smaller one too. */
enum { SMALL_B = 64 };
#define SMALL_K(sfx, T)                                                            \
    TILE_KERNEL(small_##sfx, SMALL_B, T *a, const int *ns, const int *off, int *info, int nmat, T eps) { \
        const int m = (int)tile_block(0) * TILE16_GROUPS + tile16_group();         \
        const int ok = m < nmat;                                                   \
        const int r = tile_chol_small_##sfx(ok ? a + off[m] : NULL, ok ? ns[m] : 0, eps); \
        if (ok && tile16_lane() == 0) info[m] = r;                                 \
    }
SMALL_K(f32, float)
SMALL_K(f64, double)

/* ---------------- device building block tile_chol_block ---------------- */
/* One matrix a block, as the header's example: the workspace from the arena
 * (tile_smem_alloc), 64 or 128 threads (the library runs nb <= 4 on 64, 5..7
 * on 128, 8 in another layout: here every nb on both) */
#define BLOCK_K(sfx, T, WS, B)                                                     \
    TILE_KERNEL(blk##B##_##sfx, B, T *a, int n, T eps, int *info) {                \
        void *ws = tile_smem_alloc(WS(n));                                         \
        const int r = tile_chol_block_##sfx(ws, a + (size_t)tile_block(0) * n * n, n, eps, TILE16_GROUPS); \
        if (tile_thread() == 0) info[tile_block(0)] = r;                           \
    }
/* bad arguments to tile_chol_block (a NULL ws, a NULL a, n 0, n 129): -1 in
 * every thread, a untouched (a NULL ws: its info word was once written at
 * NULL + tiles, an illegal address / a crash). One launch a case: the case
 * picked inside one kernel made ptxas spill (f64 sm_90) */
#define BLOCK_BAD_K(sfx, T, WS)                                                    \
    TILE_KERNEL(blkbad_##sfx, 64, T *a, int n, int nullws, int *out) {             \
        void *ws = tile_smem_alloc(WS(32));                                        \
        out[tile_thread()] = tile_chol_block_##sfx(nullws ? NULL : ws, a, n, (T)0, TILE16_GROUPS); \
    }                                                                              \
    static int block_bad(tile_exec ex, T *a, int n, int nullws, int *out) {        \
        return tile_launch(tile_exec_smem(ex, WS(32)), blkbad_##sfx, tile_grid1(1), 64, a, n, nullws, out); \
    }
/* path 10 / 11 of the ops below: the 64- / 128-thread kernel; the bad-argument
 * kernel and their launchers, one set a type */
#define BLOCK_PATH(sfx, T, WS)                                                     \
    BLOCK_K(sfx, T, WS, 64)                                                        \
    BLOCK_K(sfx, T, WS, 128)                                                       \
    BLOCK_BAD_K(sfx, T, WS)                                                        \
    static int block_path(tile_exec ex, T *a, int n, int batch, T eps, int *info, int path) { \
        const tile_exec e2 = tile_exec_smem(ex, WS(n));                            \
        if (path == 10) return tile_launch(e2, blk64_##sfx, tile_grid1(batch), 64, a, n, eps, info); \
        return tile_launch(e2, blk128_##sfx, tile_grid1(batch), 128, a, n, eps, info); \
    }
BLOCK_PATH(f32, float, TILE_CHOL_WS_BYTES_F32)
BLOCK_PATH(f64, double, TILE_CHOL_WS_BYTES_F64)
/* path 16: n = 16's folded kernel (the default's above 24 matrices an SM)
 * at any batch, where it applies (the GPU, a 16-byte aligned batch; else the
 * default) */
#define S16F_PATH(sfx, T)                                                          \
    static int s16f_path(tile_exec ex, T *a, int n, int batch, T eps, int *info) { \
        if (n != 16 || ex.device < 0 || ((uintptr_t)a & 15) || batch < 1)          \
            return tile_chol_batched_eps_##sfx(ex, a, n, batch, eps, info);        \
        return tile__chol_s16f_launch_##sfx(ex, a, batch, eps, info);                \
    }
S16F_PATH(f32, float)
S16F_PATH(f64, double)



template <class T>
static void ops_run(const target *t, const char *sfx, double tol) {
    const int nt = OPS_TILES;
    T *hin = HALLOC(T, (size_t)nt * OPS_IN), *hout = HALLOC(T, (size_t)nt * 256 * 2);
    int *hinfo = HALLOC(int, nt);
    double *A = HALLOC(double, 256), *B = HALLOC(double, 256), *C = HALLOC(double, 256), *R = HALLOC(double, 256),
           *L = HALLOC(double, 256);
    for (int m = 0; m < nt; ++m) {
        T *p = hin + (size_t)m * OPS_IN;
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j <= i; ++j) {
                const double v = i == j ? 16.5 + uval(7 + m, i) : uval(11 + m, i * 16 + j);
                p[i * 16 + j] = (T)v;
                p[j * 16 + i] = (T)(i == j ? v : v * 0.5); /* upper differs: must not be read by chol */
            }
        for (int i = 0; i < 512 + 32; ++i) p[256 + i] = (T)uval(23 + m, i);
    }
    T *din = DALLOC(T, (size_t)nt * OPS_IN), *dout = DALLOC(T, (size_t)nt * 512);
    int *dinfo = DALLOC(int, nt);
    UP(din, hin, sizeof(T) * nt * OPS_IN);
    for (int op = 0; op < OP_N; ++op) {
        char what[64];
        snprintf(what, sizeof what, "tile16 %s %s", op_name[op], sfx);
        g_test = what;
        memset(hout, 0xFF, sizeof(T) * nt * 512);
        UP(dout, hout, sizeof(T) * nt * 512);
        const int grid = t->gpu ? (nt + OPS_B / 16 - 1) / (OPS_B / 16) : nt;
        if (sizeof(T) == 4)
            RUN_OK(tile_launch(t->ex, ops_f32, tile_grid1(grid), OPS_B, (const float *)din, (float *)dout, dinfo, op, nt));
        else
            RUN_OK(tile_launch(t->ex, ops_f64, tile_grid1(grid), OPS_B, (const double *)din, (double *)dout, dinfo, op, nt));
        DOWN(hout, dout, sizeof(T) * nt * 512);
        DOWN(hinfo, dinfo, sizeof(int) * nt);
        long bad = 0;
        for (int m = 0; m < nt; ++m) {
            const T *p = hin + (size_t)m * OPS_IN;
            for (int i = 0; i < 256; ++i) {
                A[i] = (double)p[i];
                B[i] = (double)p[256 + i];
                C[i] = (double)p[512 + i];
            }
            const double *v = nullptr;
            double vv[32];
            for (int i = 0; i < 32; ++i) vv[i] = (double)p[768 + i];
            v = vv;
            /* the reference result in R; NaN = "must hold the poison (unwritten)" */
            int want_info = 0;
            memcpy(R, C, sizeof(double) * 256);
            double Al[256]; /* A with its upper triangle mirrored from the lower */
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j) Al[i * 16 + j] = i >= j ? A[i * 16 + j] : A[j * 16 + i];
            if (op == OP_CHOL || op == OP_XLT || op == OP_LX) want_info = ref_chol(Al, L, 16);
            switch (op) {
            case OP_CHOL:
                for (int i = 0; i < 256; ++i) R[i] = (i / 16 >= i % 16) ? L[i] : A[i];
                break;
            case OP_XLT: /* X L^T = B */
                for (int r = 0; r < 16; ++r)
                    for (int c = 0; c < 16; ++c) {
                        double s = B[r * 16 + c];
                        for (int k = 0; k < c; ++k) s -= R[r * 16 + k] * L[c * 16 + k];
                        R[r * 16 + c] = s / L[c * 16 + c];
                    }
                break;
            case OP_SUB_ABT:
            case OP_SUB_ABT_LOWER:
            case OP_SUB_ABT_MEM:
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 16; ++j) {
                        if (op == OP_SUB_ABT_LOWER && j > i) continue;
                        for (int k = 0; k < 16; ++k) R[i * 16 + j] -= B[i * 16 + k] * A[j * 16 + k];
                    }
                break;
            case OP_SUB_AB:
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 16; ++j)
                        for (int k = 0; k < 16; ++k) R[i * 16 + j] -= B[i * 16 + k] * A[k * 16 + j];
                break;
            case OP_OUTER:
            case OP_OUTER_SYM:
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 16; ++j) R[i * 16 + j] -= v[2 * i] * (op == OP_OUTER ? v[2 * j + 1] : v[2 * j]);
                break;
            case OP_LX: /* L X = B */
                for (int c = 0; c < 16; ++c)
                    for (int r = 0; r < 16; ++r) {
                        double s = B[r * 16 + c];
                        for (int k = 0; k < r; ++k) s -= L[r * 16 + k] * R[k * 16 + c];
                        R[r * 16 + c] = s / L[r * 16 + r];
                    }
                break;
            case OP_UX: /* U X = B, U = upper of A^T = lower of A, transposed */
                for (int c = 0; c < 16; ++c)
                    for (int r = 15; r >= 0; --r) {
                        double s = B[r * 16 + c];
                        for (int k = r + 1; k < 16; ++k) s -= A[k * 16 + r] * R[k * 16 + c];
                        R[r * 16 + c] = s / A[r * 16 + r];
                    }
                break;
            case OP_SLICE:
                for (int i = 0; i < 256; ++i) R[i] = NAN;
                for (int i = 2; i < 12; ++i) /* tile row i-2 */
                    for (int j = 1; j < 9; ++j) { /* tile col j-1 */
                        const int tr = i - 2, tc = j - 1, sr = 3 + tr, sc = 5 + tc;
                        double x;
                        if (sr >= 14) x = tr == tc ? 1 : 0; /* row skipped: identity kept */
                        else x = sc < 16 ? A[sr * 16 + sc] : 0; /* cols past 16 read 0 */
                        R[i * 16 + j] = x;
                    }
                break;
            case OP_GET:
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 16; ++j) R[i * 16 + j] = A[((i + 3) & 15) * 16 + ((j * 5 + i) & 15)];
                break;
            case OP_VEC: {
                for (int i = 0; i < 16; ++i)
                    for (int j = 0; j < 16; ++j) {
                        /* x_i = in[m][2 + i][3] of the 3D view (rows of 16), 0 past row 15 */
                        const double xi = 2 + i < 15 ? (double)p[(2 + i) * 16 + 3] : 0;
                        const double xj = 2 + j < 15 ? (double)p[(2 + j) * 16 + 3] : 0;
                        R[i * 16 + j] = (i == j) - xi * xj;
                    }
                break;
            }
            }
            const T *got = hout + (size_t)m * 256;
            for (int i = 0; i < 256; ++i) {
                const double g = (double)got[i], r = R[i];
                const bool okv = r != r ? g != g : fabs(g - r) <= tol * (1 + fabs(r));
                ++g_checks;
                if (!okv) fail_elem(&bad, __FILE__, __LINE__, "tile %d elem (%d,%d): got %.9g want %.9g", m, i / 16, i % 16, g, r);
            }
            if (op == OP_CHOL || op == OP_XLT || op == OP_LX)
                CHECK(hinfo[m] == want_info, "tile %d: info %d, want %d", m, hinfo[m], want_info);
            if (op == OP_SLICE) { /* 3D: rows 40..55 of the 50-row matrix m+1 (none for the last; rows
                                   * 50.. are past the array: skipped, so they keep the zeros) */
                const T *g3 = hout + (size_t)nt * 256 + (size_t)m * 256;
                for (int i = 0; i < 256; ++i) {
                    const double r = m + 1 < nt && 40 + i / 16 < OPS_IN / 16 ? (double)hin[(size_t)(m + 1) * OPS_IN + 40 * 16 + i] : 0;
                    ++g_checks;
                    if (!((double)g3[i] == r)) fail_elem(&bad, __FILE__, __LINE__, "load3/store3 tile %d elem %d: got %g want %g", m, i, (double)g3[i], r);
                }
            }
        }
        fail_elem_total(__FILE__, __LINE__, what, bad, (long)nt * 256);
    }
    g_test = NULL;
    tile_free(t->ex, din);
    tile_free(t->ex, dout);
    tile_free(t->ex, dinfo);
    free(hin); free(hout); free(hinfo); free(A); free(B); free(C); free(R); free(L);
}

/* ---------------- batched factor and solve ---------------- */
template <class T> struct ops;
template <> struct ops<float> {
    static int factor(tile_exec ex, float *a, int n, int batch, float eps, int *info) {
        return tile_chol_batched_eps_f32(ex, a, n, batch, eps, info);
    }
    /* path (as TILE_CHOL_ROWS): 2 the rows kernels (GPU, 32 < n <= 128), 0 the
     * blocked kernels, 1 the default's choice, 3 the warp kernel (f32 32 < n <= 64);
     * other_paths: those checked against the default (the one it does not take, and 3) */
    static int other_paths(int n, int *p) {
        int c = 0;
        if (n == 16) return p[0] = 16, 1;
        p[c++] = TILE__CHOL_OTHER_PATH(f32, n);
        if (n <= 64) p[c++] = 3;
        p[c++] = 10;
        p[c++] = 11;
        return c;
    }
    /* path 10 / 11: the building block tile_chol_block in 64- / 128-thread blocks */
    static int factor_path(tile_exec ex, float *a, int n, int batch, float eps, int *info, int path) {
        if (path == 16) return s16f_path(ex, a, n, batch, eps, info);
        if (path >= 10) return block_path(ex, a, n, batch, eps, info, path);
        return tile__chol_batched_path_f32(ex, a, n, batch, eps, info, path);
    }
    static int solve(tile_exec ex, const float *l, float *b, int n, int nrhs, int batch) {
        return tile_chol_batched_solve_f32(ex, l, b, n, nrhs, batch);
    }
    static int lower(tile_exec ex, float *a, int n, int batch, float eps, int *info) {
        return tile_chol_batched_lower_eps_f32(ex, a, n, batch, eps, info);
    }
    static int wsolve(tile_exec ex, const float *l, float *b, int n, int nrhs, int batch) {
        return tile__chol_wsolve_launch_f32(ex, l, b, n, nrhs, batch);
    }
    static int tsolve(tile_exec ex, const float *l, float *b, int n, int nrhs, int batch) {
        return tile__chol_tsolve_launch_f32(ex, l, b, n, nrhs, batch);
    }
};
template <> struct ops<double> {
    static int factor(tile_exec ex, double *a, int n, int batch, double eps, int *info) {
        return tile_chol_batched_eps_f64(ex, a, n, batch, eps, info);
    }
    static int other_paths(int n, int *p) {
        if (n == 16) return p[0] = 16, 1;
        p[0] = TILE__CHOL_OTHER_PATH(f64, n);
        p[1] = 10;
        p[2] = 11;
        return 3;
    }
    static int factor_path(tile_exec ex, double *a, int n, int batch, double eps, int *info, int path) {
        if (path == 16) return s16f_path(ex, a, n, batch, eps, info);
        if (path >= 10) return block_path(ex, a, n, batch, eps, info, path);
        return tile__chol_batched_path_f64(ex, a, n, batch, eps, info, path);
    }
    static int solve(tile_exec ex, const double *l, double *b, int n, int nrhs, int batch) {
        return tile_chol_batched_solve_f64(ex, l, b, n, nrhs, batch);
    }
    static int lower(tile_exec ex, double *a, int n, int batch, double eps, int *info) {
        return tile_chol_batched_lower_eps_f64(ex, a, n, batch, eps, info);
    }
    static int wsolve(tile_exec ex, const double *l, double *b, int n, int nrhs, int batch) {
        return tile__chol_wsolve_launch_f64(ex, l, b, n, nrhs, batch);
    }
    static int tsolve(tile_exec ex, const double *l, double *b, int n, int nrhs, int batch) {
        return tile__chol_tsolve_launch_f64(ex, l, b, n, nrhs, batch);
    }
};

enum { K_SPD, K_ILL, K_SINGULAR, K_NONSPD, K_NAN_LOWER, K_NAN_UPPER };
/* matrix m of kind k, n x n, in double (the upper triangle mirrors the lower) */
static void make_matrix(double *a, int n, int m, int kind, uint32_t seed) {
    if (kind == K_ILL) { /* M M^T + delta I, M n x ceil(n/2): condition ~ n^2 / delta */
        const int r = (n + 1) / 2;
        double *M = (double *)malloc(sizeof(double) * n * r);
        for (int i = 0; i < n * r; ++i) M[i] = uval(seed + 31 * m, i);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j <= i; ++j) {
                double s = i == j ? 1e-3 : 0;
                for (int k = 0; k < r; ++k) s += M[i * r + k] * M[j * r + k];
                a[i * n + j] = a[j * n + i] = s;
            }
        free(M);
        return;
    }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) { /* diagonally dominant: SPD, condition <= ~2n */
            const double v = i == j ? n + 0.5 + 0.5 * uval(seed + 17 * m, i) : uval(seed + 13 * m, i * n + j);
            a[i * n + j] = a[j * n + i] = v;
        }
}

template <class T>
static double rel_resid_llt(const T *l, const double *a, int n) {
    double num = 0, den = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            double s = 0;
            for (int k = 0; k <= j; ++k) s += (double)l[i * n + k] * (double)l[j * n + k];
            const double d = s - a[i * n + j];
            num += (i == j ? 1 : 2) * d * d;
            den += (i == j ? 1 : 2) * a[i * n + j] * a[i * n + j];
        }
    return sqrt(num / den);
}
template <class T>
static double rel_resid_solve(const double *a, const T *x, const T *b, int n, int nrhs) {
    double num = 0, an = 0, xn = 0, bn = 0;
    for (int i = 0; i < n * n; ++i) an += a[i] * a[i];
    for (int c = 0; c < nrhs; ++c)
        for (int i = 0; i < n; ++i) {
            double s = 0;
            for (int k = 0; k < n; ++k) s += a[i * n + k] * (double)x[k * nrhs + c];
            num += (s - b[i * nrhs + c]) * (s - b[i * nrhs + c]);
            xn += (double)x[i * nrhs + c] * x[i * nrhs + c];
            bn += (double)b[i * nrhs + c] * b[i * nrhs + c];
        }
    return sqrt(num) / (sqrt(an) * sqrt(xn) + sqrt(bn));
}

template <class T>
static void block_bad_run(const target *t, const char *sfx) {
    T *h = HALLOC(T, 32 * 32), *h2 = HALLOC(T, 32 * 32);
    int *out = HALLOC(int, 4 * 64);
    for (int i = 0; i < 32 * 32; ++i) h[i] = (T)(i % 7 + 1);
    T *d = DALLOC(T, 32 * 32);
    int *dout = DALLOC(int, 4 * 64);
    UP(d, h, sizeof(T) * 32 * 32);
    memset(out, 0, sizeof(int) * 4 * 64);
    UP(dout, out, sizeof(int) * 4 * 64);
    static const int cn[4] = {32, 32, 0, 129}, cw[4] = {1, 0, 0, 0};
    for (int c = 0; c < 4; ++c) RUN_OK(block_bad(t->ex, c == 1 ? nullptr : d, cn[c], cw[c], dout + 64 * c));
    DOWN(out, dout, sizeof(int) * 4 * 64);
    DOWN(h2, d, sizeof(T) * 32 * 32);
    /* the CPU runs one thread a block: its slot 0 */
    for (int c = 0; c < 4; ++c)
        for (int i = 0; i < (t->gpu ? 64 : 1); ++i)
            CHECK(out[64 * c + i] == -1, "%s tile_chol_block bad argument %d thread %d: returned %d, want -1", sfx, c, i, out[64 * c + i]);
    CHECK(memcmp(h, h2, sizeof(T) * 32 * 32) == 0, "%s tile_chol_block bad arguments wrote a", sfx);
    tile_free(t->ex, d);
    tile_free(t->ex, dout);
    free(h); free(h2); free(out);
}

/* Factor (and solve) `batch` matrices of kind `kind` on target t; checks per
 * kind. off > 0: the batch starts `off` elements into the allocation (the
 * matrices not 16-byte aligned: the scalar load/store path). */
template <class T>
static void batch_run(const target *t, const char *sfx, int n, int batch, int kind, T eps, int nrhs, double tol,
                      int off = 0) {
    const size_t nn = (size_t)n * n, tot = nn * (batch + 1); /* one guard matrix after the batch */
    double *ad = HALLOC(double, nn);
    T *h = HALLOC(T, tot), *h0 = HALLOC(T, tot), *hb = HALLOC(T, (size_t)n * nrhs * batch),
      *hb0 = HALLOC(T, (size_t)n * nrhs * batch);
    int *info = HALLOC(int, batch + 1);
    const int p = n / 2; /* the row of the singular / non-SPD / NaN defect */
    for (int m = 0; m <= batch; ++m) {
        make_matrix(ad, n, m, kind, 1000u + (uint32_t)n);
        T *hm = h0 + nn * m;
        for (size_t i = 0; i < nn; ++i) hm[i] = (T)ad[i];
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) hm[i * n + j] = (T)(-7.0 - j); /* the upper triangle is not read */
        if (kind == K_SINGULAR)
            for (int i = 0; i < n; ++i) hm[p * n + i] = hm[i * n + p] = 0;
        if (kind == K_NONSPD) hm[p * n + p] = -1;
        if (kind == K_NAN_LOWER) hm[p * n + p / 2] = (T)NAN;
        if (kind == K_NAN_UPPER && n > 1) hm[(p / 2) * n + p + (p == 0)] = (T)NAN;
    }
    for (size_t i = 0; i < (size_t)n * nrhs * batch; ++i) hb0[i] = (T)uval(77u + (uint32_t)n, (uint32_t)i);
    memcpy(h, h0, sizeof(T) * tot);
    memcpy(hb, hb0, sizeof(T) * (size_t)n * nrhs * batch);
    T *dalloc = DALLOC(T, tot + off), *db = DALLOC(T, (size_t)n * nrhs * batch);
    T *d = dalloc + off;
    int *di = DALLOC(int, batch + 1);
    UP(d, h, sizeof(T) * tot);
    UP(db, hb, sizeof(T) * (size_t)n * nrhs * batch);
    memset(info, 0x55, sizeof(int) * (batch + 1));
    UP(di, info, sizeof(int) * (batch + 1));
    RUN_OK((ops<T>::factor(t->ex, d, n, batch, eps, di)));
    const bool solve = kind == K_SPD || kind == K_ILL;
    DOWN(h, d, sizeof(T) * tot);
    DOWN(info, di, sizeof(int) * (batch + 1));
    if (solve) { /* the solve reads L's lower triangle only: NaN over the upper one */
        T *hp = HALLOC(T, tot);
        memcpy(hp, h, sizeof(T) * tot);
        for (int m = 0; m < batch; ++m)
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j) hp[nn * m + i * n + j] = (T)NAN;
        UP(d, hp, sizeof(T) * tot);
        free(hp);
        RUN_OK((ops<T>::solve(t->ex, d, db, n, nrhs, batch)));
    }
    DOWN(hb, db, sizeof(T) * (size_t)n * nrhs * batch);
    CHECK(info[batch] == 0x55555555, "n %d: info written past the batch", n);
    CHECK(!memcmp(h + nn * batch, h0 + nn * batch, sizeof(T) * nn), "n %d: the matrix after the batch changed", n);
    double worst = 0, worstx = 0;
    for (int m = 0; m < batch; ++m) {
        const T *l = h + nn * m, *a0 = h0 + nn * m;
        const T zero = (T)0;
        for (int i = 0; i < n; ++i) /* L itself: the strictly upper triangle +0, every kind */
            for (int j = i + 1; j < n; ++j)
                if (memcmp(&l[i * n + j], &zero, sizeof(T))) {
                    CHECK(0, "%s n %d kind %d matrix %d: upper (%d,%d) = %g, not 0", sfx, n, kind, m, i, j, (double)l[i * n + j]);
                    i = n;
                    break;
                }
        for (size_t i = 0; i < nn; ++i) ad[i] = (double)a0[i];
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) ad[i * n + j] = ad[j * n + i];
        if (kind == K_SPD || kind == K_ILL || kind == K_NAN_UPPER) {
            CHECK(info[m] == 0, "%s n %d matrix %d: info %d, want 0", sfx, n, m, info[m]);
            if (kind == K_NAN_UPPER) for (int i = 0; i < n; ++i) for (int j = i + 1; j < n; ++j) ad[i * n + j] = ad[j * n + i];
            const double r = rel_resid_llt(l, ad, n);
            worst = r > worst || r != r ? r : worst;
            if (solve) {
                const double rx = rel_resid_solve(ad, hb + (size_t)n * nrhs * m, hb0 + (size_t)n * nrhs * m, n, nrhs);
                worstx = rx > worstx || rx != rx ? rx : worstx;
            }
        } else {
            /* the defect at row p: info p+1 (for NaN below the diagonal, the
             * pivot of row p is the first NaN one) */
            CHECK(info[m] == p + 1, "%s n %d kind %d matrix %d: info %d, want %d", sfx, n, kind, m, info[m], p + 1);
            long nanbad = 0, finbad = 0;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j <= i; ++j) {
                    const double v = (double)l[i * n + j];
                    if (j >= p && eps <= 0 && kind != K_NAN_LOWER) nanbad += v == v; /* NaN from column p on */
                    if (eps > 0 && kind != K_NAN_LOWER) finbad += !isfinite(v);
                }
            ++g_checks;
            if (nanbad || finbad) fail_at(__FILE__, __LINE__, "%s n %d kind %d matrix %d: %ld entries not NaN, %ld not finite", sfx, n, kind, m, nanbad, finbad);
            if (p > 0) { /* columns before p: the valid partial factor */
                double *lr = HALLOC(double, nn), *ap = HALLOC(double, (size_t)p * p);
                for (int i = 0; i < p; ++i)
                    for (int j = 0; j < p; ++j) ap[i * p + j] = ad[i * n + j];
                ref_chol(ap, lr, p);
                free(ap);
                double e = 0;
                for (int i = 0; i < p; ++i)
                    for (int j = 0; j <= i; ++j) e = fmax(e, fabs((double)l[i * n + j] - lr[i * p + j]) / (1 + fabs(lr[i * p + j])));
                CHECK(e <= tol * 10 && e == e, "%s n %d kind %d matrix %d: leading factor differs by %g", sfx, n, kind, m, e);
                free(lr);
            }
        }
    }
    if (kind == K_SPD || kind == K_ILL || kind == K_NAN_UPPER)
        CHECK(worst <= tol, "%s n %d kind %d: ||LL^T - A||/||A|| = %.3g (tol %.1g)", sfx, n, kind, worst, tol);
    if (solve) CHECK(worstx <= tol, "%s n %d kind %d nrhs %d: solve residual %.3g (tol %.1g)", sfx, n, kind, nrhs, worstx, tol);
    if (kind == K_NAN_UPPER) { /* same bits as without the NaN */
        T *h2 = HALLOC(T, tot);
        for (int m = 0; m <= batch; ++m) {
            make_matrix(ad, n, m, K_SPD, 1000u + (uint32_t)n);
            for (size_t i = 0; i < nn; ++i) h2[nn * m + i] = (T)ad[i];
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j) h2[nn * m + i * n + j] = (T)(-7.0 - j);
        }
        UP(d, h2, sizeof(T) * tot);
        RUN_OK((ops<T>::factor(t->ex, d, n, batch, eps, di)));
        DOWN(h2, d, sizeof(T) * tot);
        long bad = 0;
        for (int m = 0; m < batch; ++m)
            for (int i = 0; i < n; ++i)
                for (int j = 0; j <= i; ++j) bad += memcmp(&h2[nn * m + i * n + j], &h[nn * m + i * n + j], sizeof(T)) != 0;
        CHECK(bad == 0, "%s n %d: a NaN in the upper triangle changed %ld entries of L", sfx, n, bad);
        free(h2);
    }
    /* the GPU equals the CPU target's run of the same kernels (2 matrices) */
    if (t->gpu && (kind == K_SPD || kind == K_NONSPD)) {
        const int bc = batch < 2 ? batch : 2;
        T *c = HALLOC(T, nn * bc), *cb = HALLOC(T, (size_t)n * nrhs * bc);
        int ci[2];
        memcpy(c, h0, sizeof(T) * nn * bc);
        memcpy(cb, hb0, sizeof(T) * (size_t)n * nrhs * bc);
        CHECK_ERR((ops<T>::factor(TILE_CPU, c, n, bc, eps, ci)), TILE_OK);
        if (solve) CHECK_ERR((ops<T>::solve(TILE_CPU, c, cb, n, nrhs, bc)), TILE_OK);
        for (int m = 0; m < bc; ++m) {
            double e = 0, ex = 0;
            for (size_t i = 0; i < nn; ++i) {
                const double g = (double)h[nn * m + i], r = (double)c[nn * m + i];
                if (r != r) { e = fmax(e, g == g ? 1.0 : 0.0); continue; }
                e = fmax(e, fabs(g - r) / (1 + fabs(r)));
            }
            if (solve)
                for (int i = 0; i < n * nrhs; ++i) {
                    const double g = (double)hb[(size_t)n * nrhs * m + i], r = (double)cb[(size_t)n * nrhs * m + i];
                    ex = fmax(ex, fabs(g - r) / (1 + fabs(r)));
                }
            CHECK(e <= tol && ex <= tol && ci[m] == info[m], "%s n %d matrix %d: GPU vs CPU target: L %.3g, x %.3g, info %d vs %d", sfx, n, m, e, ex, info[m], ci[m]);
        }
        free(c);
        free(cb);
    }
    /* n > 32, the other factor paths on the GPU (rows vs blocked kernels; the
     * warp kernel at f32 n <= 64; n = 16: the folded kernel) and on both targets the building block
     * tile_chol_block on 64 and 128 threads, on the same input: L equal within tol (NaN
     * where the default has NaN), the same info; for NaN in the lower
     * triangle the info only */
    int paths[4];
    const int npaths = ops<T>::other_paths(n, paths);
    for (int pi = 0; (n > 32 || n == 16) && kind != K_ILL && pi < npaths; ++pi) {
        if (!t->gpu && (paths[pi] < 10 || paths[pi] == 16)) continue; /* the CPU: the building block only */
        T *h3 = HALLOC(T, tot);
        int *info3 = HALLOC(int, batch + 1);
        UP(d, h0, sizeof(T) * tot);
        memset(info3, 0x55, sizeof(int) * (batch + 1));
        UP(di, info3, sizeof(int) * (batch + 1));
        RUN_OK((ops<T>::factor_path(t->ex, d, n, batch, eps, di, paths[pi])));
        DOWN(h3, d, sizeof(T) * tot);
        DOWN(info3, di, sizeof(int) * (batch + 1));
        CHECK(info3[batch] == 0x55555555, "n %d: other path: info written past the batch", n);
        CHECK(!memcmp(h3 + nn * batch, h0 + nn * batch, sizeof(T) * nn), "n %d: other path: the matrix after the batch changed", n);
        for (int m = 0; m < batch; ++m) {
            double e = 0;
            if (kind != K_NAN_LOWER)
                for (size_t i = 0; i < nn; ++i) {
                    const double g = (double)h3[nn * m + i], r = (double)h[nn * m + i];
                    if (r != r) { e = fmax(e, g == g ? 1.0 : 0.0); continue; }
                    e = fmax(e, g != g ? 1.0 : fabs(g - r) / (1 + fabs(r)));
                }
            CHECK(e <= tol && info3[m] == info[m], "%s n %d kind %d off %d matrix %d: path %d vs the default: L %.3g, info %d vs %d",
                  sfx, n, kind, off, m, paths[pi], e, info3[m], info[m]);
            /* the folded n = 16 against the unfolded (the default at this batch,
             * an aligned one): the same operations, the same bits */
            if (paths[pi] == 16 && !((uintptr_t)d & 15))
                CHECK(!memcmp(h3 + nn * m, h + nn * m, sizeof(T) * nn), "%s n 16 kind %d off %d matrix %d: folded L not bit for bit the default's",
                      sfx, kind, off, m);
        }
        free(h3);
        free(info3);
    }
    tile_free(t->ex, dalloc);
    tile_free(t->ex, db);
    tile_free(t->ex, di);
    free(ad); free(h); free(h0); free(hb); free(hb0); free(info);
}

/* tile_chol_small on 9 matrices (n 1..32, two non-SPD: a_pp = -1 at p = 3
 * and p = 19, the second in the A11 tile: info 16 + i1); 3 groups idle on
 * the GPU. L against ref_chol, info, the upper triangle +0 (markers on
 * input), the guard after the last matrix untouched, NaN from column p on;
 * GPU vs the CPU target. */
template <class T>
static void small_run(const target *t, const char *sfx, double tol) {
    enum { NM = 9 };
    static const int ns[NM] = {5, 16, 29, 32, 29, 1, 17, 5, 32};
    static const int bad_p[NM] = {-1, -1, -1, -1, 19, -1, -1, 3, -1};
    int off[NM + 1];
    off[0] = 0;
    for (int m = 0; m < NM; ++m) off[m + 1] = off[m] + ns[m] * ns[m];
    const int tot = off[NM] + 64; /* + a guard */
    T *h0 = HALLOC(T, tot), *h = HALLOC(T, tot), *c = HALLOC(T, tot);
    int *info = HALLOC(int, NM), *ci = HALLOC(int, NM);
    double *ad = HALLOC(double, 32 * 32), *L = HALLOC(double, 32 * 32);
    for (int i = off[NM]; i < tot; ++i) h0[i] = (T)uval(5, (uint32_t)i);
    for (int m = 0; m < NM; ++m) {
        const int n = ns[m];
        T *hm = h0 + off[m];
        make_matrix(ad, n, m, K_SPD, 2000u + (uint32_t)n);
        for (int i = 0; i < n * n; ++i) hm[i] = (T)ad[i];
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) hm[i * n + j] = (T)(-7.0 - j); /* upper: never read */
        if (bad_p[m] >= 0) hm[bad_p[m] * n + bad_p[m]] = -1;
    }
    char what[64];
    snprintf(what, sizeof what, "tile_chol_small %s", sfx);
    g_test = what;
    T *d = DALLOC(T, tot);
    int *dn = DALLOC(int, NM), *doff = DALLOC(int, NM), *di = DALLOC(int, NM);
    UP(d, h0, sizeof(T) * tot);
    UP(dn, ns, sizeof(int) * NM);
    UP(doff, off, sizeof(int) * NM);
    memset(info, 0x55, sizeof(int) * NM);
    UP(di, info, sizeof(int) * NM);
    const int grid = t->gpu ? (NM + SMALL_B / 16 - 1) / (SMALL_B / 16) : NM;
    if (sizeof(T) == 4)
        RUN_OK(tile_launch(t->ex, small_f32, tile_grid1(grid), SMALL_B, (float *)d, (const int *)dn, (const int *)doff, di, (int)NM, 0.0f));
    else
        RUN_OK(tile_launch(t->ex, small_f64, tile_grid1(grid), SMALL_B, (double *)d, (const int *)dn, (const int *)doff, di, (int)NM, 0.0));
    DOWN(h, d, sizeof(T) * tot);
    DOWN(info, di, sizeof(int) * NM);
    CHECK(!memcmp(h + off[NM], h0 + off[NM], sizeof(T) * 64), "%s: the guard after the last matrix changed", what);
    for (int m = 0; m < NM; ++m) {
        const int n = ns[m], p = bad_p[m];
        const T *l = h + off[m], *a0 = h0 + off[m];
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) ad[i * n + j] = (double)a0[i >= j ? i * n + j : j * n + i];
        const int want = ref_chol(ad, L, n); /* L valid in columns < info - 1 */
        CHECK(want == (p >= 0 ? p + 1 : 0), "%s matrix %d: reference info %d", what, m, want);
        CHECK(info[m] == want, "%s matrix %d (n %d): info %d, want %d", what, m, n, info[m], want);
        long bad = 0, upper = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const double g = (double)l[i * n + j];
                bool okv;
                if (j > i) okv = g == 0 && !signbit(g), upper += !okv; /* L itself: +0 */
                else if (p >= 0 && j >= p) okv = g != g; /* NaN from column p on (eps 0) */
                else okv = fabs(g - L[i * n + j]) <= tol * (1 + fabs(L[i * n + j]));
                ++g_checks;
                if (!okv) fail_elem(&bad, __FILE__, __LINE__, "%s matrix %d (n %d) elem (%d,%d): got %.9g want %.9g", what, m, n, i, j, g, j > i ? 0.0 : L[i * n + j]);
            }
        CHECK(upper == 0, "%s matrix %d: %ld upper entries not +0", what, m, upper);
        if (p < 0) {
            const double r = rel_resid_llt(l, ad, n);
            CHECK(r <= tol, "%s matrix %d (n %d): ||LL^T - A||/||A|| = %.3g", what, m, n, r);
        }
    }
    if (t->gpu) { /* the CPU target's run of the same kernel */
        memcpy(c, h0, sizeof(T) * tot);
        memset(ci, 0x55, sizeof(int) * NM);
        if (sizeof(T) == 4)
            CHECK_ERR(tile_launch(TILE_CPU, small_f32, tile_grid1(NM), SMALL_B, (float *)c, (const int *)ns, (const int *)off, ci, (int)NM, 0.0f), TILE_OK);
        else
            CHECK_ERR(tile_launch(TILE_CPU, small_f64, tile_grid1(NM), SMALL_B, (double *)c, (const int *)ns, (const int *)off, ci, (int)NM, 0.0), TILE_OK);
        for (int m = 0; m < NM; ++m) {
            double e = 0;
            for (int i = off[m]; i < off[m + 1]; ++i) {
                const double g = (double)h[i], r = (double)c[i];
                e = fmax(e, r != r ? (g == g ? 1.0 : 0.0) : fabs(g - r) / (1 + fabs(r)));
            }
            CHECK(e <= tol && ci[m] == info[m], "%s matrix %d: GPU vs CPU target: L %.3g, info %d vs %d", what, m, e, info[m], ci[m]);
        }
    }
    g_test = NULL;
    tile_free(t->ex, d);
    tile_free(t->ex, dn);
    tile_free(t->ex, doff);
    tile_free(t->ex, di);
    free(h0); free(h); free(c); free(info); free(ci); free(ad); free(L);
}

template <class T>
static void batched_all(const target *t, const char *sfx, double tol) {
    static const int quick_n[] = {1, 5, 16, 17, 32, 33, 48, 64, 65, 92, 97, 128};
    const int nq = (int)(sizeof quick_n / sizeof quick_n[0]);
    const int cnt = g_quick ? nq : 128;
    for (int q = 0; q < cnt; ++q) {
        const int n = g_quick ? quick_n[q] : q + 1;
        const int batch = g_quick ? 3 : t->gpu ? 37 : (n > 64 ? 2 : 3);
        batch_run<T>(t, sfx, n, batch, K_SPD, (T)0, (n % 7 == 3) ? 19 : 1, tol);
    }
    /* 33 .. 128: the rows kernels (NP 64 / 96 / 128, n at and past each
     * padding boundary, n % 4 != 0: scalar loads and stores) */
    static const int spec_n[] = {3, 16, 20, 32, 33, 40, 47, 64, 65, 92, 96, 97, 100, 128};
    const int ns = (int)(sizeof spec_n / sizeof spec_n[0]);
    for (int q = 0; q < ns; ++q) {
        const int n = spec_n[q];
        /* 16, 32 always: warp 0 staged through shared memory, matrix 2 not */
        if (g_quick && q % 2 && n != 16 && n != 32) continue;
        batch_run<T>(t, sfx, n, 3, K_ILL, (T)0, 2, tol * 100);
        batch_run<T>(t, sfx, n, 3, K_SINGULAR, (T)0, 1, tol);
        batch_run<T>(t, sfx, n, 3, K_SINGULAR, (T)1e-6, 1, tol);
        batch_run<T>(t, sfx, n, 3, K_NONSPD, (T)0, 1, tol);
        batch_run<T>(t, sfx, n, 3, K_NAN_LOWER, (T)0, 1, tol);
        batch_run<T>(t, sfx, n, 3, K_NAN_UPPER, (T)0, 1, tol);
    }
    /* matrices one element off 16-byte alignment: the scalar path (n % 4 == 0;
     * n = 16 / 32: not the staged copies of whole warps) */
    static const int off_n[] = {16, 32, 64, 96, 128, 65};
    for (int q = 0; q < (int)(sizeof off_n / sizeof off_n[0]); ++q) {
        if (g_quick && q % 2) continue;
        batch_run<T>(t, sfx, off_n[q], 3, K_SPD, (T)0, 1, tol, 1);
        batch_run<T>(t, sfx, off_n[q], 3, K_NONSPD, (T)0, 1, tol, 1);
        batch_run<T>(t, sfx, off_n[q], 3, K_SINGULAR, (T)1e-6, 1, tol, 1);
    }
    /* argument errors */
    T *d = DALLOC(T, 4);
    CHECK_ERR((ops<T>::factor(t->ex, d, 0, 1, (T)0, nullptr)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::factor(t->ex, d, 129, 1, (T)0, nullptr)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::factor(t->ex, d, 2, -1, (T)0, nullptr)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::factor(t->ex, nullptr, 2, 1, (T)0, nullptr)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::factor(t->ex, d, 2, 0, (T)0, nullptr)), TILE_OK);
    CHECK_ERR((ops<T>::solve(t->ex, d, d, 2, 0, 1)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::solve(t->ex, d, nullptr, 2, 1, 1)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::solve(t->ex, d, d, 200, 1, 1)), TILE_ERR_ARG);
    tile_free(t->ex, d);
}

/* tile_chol_batched_lower: L and info bit for bit the default call's, the
 * strictly upper triangle bit for bit the input's (a sentinel there, NaN in
 * one matrix: never read), nothing past the batch written; every kernel of
 * the path (n = 16 at batch 4000 on the GPU: the folded kernel; 32 with an
 * even batch: the staged copies; nb = 5...7 and 8 the blocked copy-outs),
 * aligned and one element off, SPD, non-SPD (NaN columns) and eps */
template <class T>
static void lower_run(const target *t, const char *sfx) {
    static const int ln[] = {1, 5, 16, 17, 31, 32, 33, 64, 65, 92, 100, 113, 128}, lo_off[] = {16, 32, 64, 92, 128};
    const int nl = (int)(sizeof ln / sizeof ln[0]);
    for (int q = 0; q < nl + 5; ++q) {
        const int n = q < nl ? ln[q] : lo_off[q - nl];
        const int off = q >= nl, big = n == 16 && t->gpu && !off && !g_quick;
        if (g_quick && q % 2 && n != 16 && n != 128) continue;
        const int batch = big ? 4000 : n == 32 ? 4 : 3;
        for (int kind = 0; kind < 3; ++kind) {
            const T eps = kind == 2 ? (T)1e-3 : (T)0;
            const size_t nn = (size_t)n * n, tot = nn * (batch + 1);
            double *ad = HALLOC(double, nn);
            T *h0 = HALLOC(T, tot), *hd = HALLOC(T, tot), *hl = HALLOC(T, tot);
            int *id = HALLOC(int, batch + 1), *il = HALLOC(int, batch + 1);
            for (int m = 0; m <= batch; ++m) {
                make_matrix(ad, n, m % 8, K_SPD, 300u + (uint32_t)n);
                T *hm = h0 + nn * m;
                for (size_t i = 0; i < nn; ++i) hm[i] = (T)ad[i];
                for (int i = 0; i < n; ++i)
                    for (int j = i + 1; j < n; ++j) hm[i * n + j] = (T)(-7.0 - j - 0.5 * m);
                if (kind >= 1 && m == 1) hm[(n / 2) * n + n / 2] = -1; /* not SPD at row n / 2 */
                if (m == 2 && n > 1) hm[1] = (T)NAN;                    /* NaN above: never read */
            }
            T *dd = DALLOC(T, tot + off), *dl = DALLOC(T, tot + off);
            int *did = DALLOC(int, batch + 1), *dil = DALLOC(int, batch + 1);
            UP(dd + off, h0, sizeof(T) * tot);
            UP(dl + off, h0, sizeof(T) * tot);
            memset(id, 0x55, sizeof(int) * (batch + 1));
            UP(did, id, sizeof(int) * (batch + 1));
            UP(dil, id, sizeof(int) * (batch + 1));
            RUN_OK((ops<T>::factor(t->ex, dd + off, n, batch, eps, did)));
            RUN_OK((ops<T>::lower(t->ex, dl + off, n, batch, eps, dil)));
            DOWN(hd, dd + off, sizeof(T) * tot);
            DOWN(hl, dl + off, sizeof(T) * tot);
            DOWN(id, did, sizeof(int) * (batch + 1));
            DOWN(il, dil, sizeof(int) * (batch + 1));
            CHECK(!memcmp(id, il, sizeof(int) * (batch + 1)), "%s lower n %d kind %d: info differs from the default's", sfx, n, kind);
            CHECK(il[batch] == 0x55555555, "%s lower n %d: info written past the batch", sfx, n);
            long lbad = 0, ubad = 0;
            for (int m = 0; m <= batch; ++m)
                for (int i = 0; i < n; ++i)
                    for (int j = 0; j < n; ++j) {
                        const size_t e = nn * m + (size_t)i * n + j;
                        if (j > i || m == batch) ubad += memcmp(&hl[e], &h0[e], sizeof(T)) != 0;
                        else lbad += memcmp(&hl[e], &hd[e], sizeof(T)) != 0;
                    }
            CHECK(lbad == 0, "%s lower n %d kind %d off %d: %ld elements of L differ from the default's", sfx, n, kind, off, lbad);
            CHECK(ubad == 0, "%s lower n %d kind %d off %d: %ld elements above the diagonal (or past the batch) written", sfx, n, kind, off, ubad);
            tile_free(t->ex, dd); tile_free(t->ex, dl); tile_free(t->ex, did); tile_free(t->ex, dil);
            free(ad); free(h0); free(hd); free(hl); free(id); free(il);
        }
    }
    T *d = DALLOC(T, 4);
    { /* the documented example: {4, 7, 2, 10} -> {2, 7, 1, 3}, info 0 */
        T h[4] = {4, 7, 2, 10};
        int inf = -1, *di = DALLOC(int, 1);
        UP(d, h, sizeof h);
        RUN_OK((ops<T>::lower(t->ex, d, 2, 1, (T)0, di)));
        DOWN(h, d, sizeof h);
        DOWN(&inf, di, sizeof inf);
        CHECK(fabs(h[0] - 2) <= 1e-6 && h[1] == 7 && fabs(h[2] - 1) <= 1e-6 && fabs(h[3] - 3) <= 1e-6 && inf == 0,
              "%s lower example: {%g, %g, %g, %g}, info %d", sfx,
              (double)h[0], (double)h[1], (double)h[2], (double)h[3], inf);
        tile_free(t->ex, di);
    }
    CHECK_ERR((ops<T>::lower(t->ex, d, 0, 1, (T)0, nullptr)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::lower(t->ex, d, 129, 1, (T)0, nullptr)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::lower(t->ex, nullptr, 2, 1, (T)0, nullptr)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::lower(t->ex, d, 2, 0, (T)0, nullptr)), TILE_OK);
    tile_free(t->ex, d);
}

/* the warp solve (tile__chol_wsolve_launch: a warp a matrix and column; the
 * solve's kernel for nrhs <= TILE__CHOL_WSOLVE_MAXRHS) on the target, L from
 * the CPU factor with NaN over its upper triangle (read the lower one only),
 * b with a guard after it: x against the tile solve's
 * (tile__chol_tsolve_launch) on the same target within the tolerance, the
 * residual, the guard; on the GPU, x bit for bit the CPU target's run of the
 * same kernel (both take the products as fma and the warp's sum in the
 * butterfly's order);
 * blocks whose last warps have no task (batch x nrhs not a multiple of 4),
 * a matrix one element off 16-byte alignment; the argument errors. */
template <class T>
static void wsolve_run(const target *t, const char *sfx, double tol) {
    static const int wn[] = {1, 2, 16, 31, 32, 33, 64, 65, 92, 97, 127, 128}, wr[] = {1, 2, 5, 19};
    const int nw = (int)(sizeof wn / sizeof wn[0]);
    enum { GUARD = 7 };
    for (int q = 0; q < nw; ++q) {
        if (g_quick && q % 3 && wn[q] != 128) continue;
        for (int ri = 0; ri < 2; ++ri) {
            const int n = wn[q], nrhs = ri == 0 ? 1 : wr[1 + q % 3], batch = t->gpu ? 37 : 3, off = q % 3 == 2;
            const size_t nn = (size_t)n * n, nb = (size_t)n * nrhs * batch;
            double *ad = HALLOC(double, nn * batch);
            T *hl = HALLOC(T, nn * batch + off), *hb0 = HALLOC(T, nb + GUARD), *hw = HALLOC(T, nb + GUARD),
              *ht = HALLOC(T, nb + GUARD), *hc = HALLOC(T, nb + GUARD);
            for (int m = 0; m < batch; ++m) {
                make_matrix(ad + nn * m, n, m, K_SPD, 500u + (uint32_t)n);
                for (size_t i = 0; i < nn; ++i) hl[off + nn * m + i] = (T)ad[nn * m + i];
            }
            CHECK_ERR((ops<T>::factor(TILE_CPU, hl + off, n, batch, (T)0, nullptr)), TILE_OK);
            for (int m = 0; m < batch; ++m)
                for (int i = 0; i < n; ++i)
                    for (int j = i + 1; j < n; ++j) hl[off + nn * m + (size_t)i * n + j] = (T)NAN;
            for (size_t i = 0; i < nb + GUARD; ++i) hb0[i] = i < nb ? (T)uval(61u + (uint32_t)n, (uint32_t)i) : (T)-3.5;
            T *dl = DALLOC(T, nn * batch + off), *dw = DALLOC(T, nb + GUARD), *dt = DALLOC(T, nb + GUARD);
            UP(dl, hl, sizeof(T) * (nn * batch + off));
            UP(dw, hb0, sizeof(T) * (nb + GUARD));
            UP(dt, hb0, sizeof(T) * (nb + GUARD));
            RUN_OK((ops<T>::wsolve(t->ex, dl + off, dw, n, nrhs, batch)));
            RUN_OK((ops<T>::tsolve(t->ex, dl + off, dt, n, nrhs, batch)));
            DOWN(hw, dw, sizeof(T) * (nb + GUARD));
            DOWN(ht, dt, sizeof(T) * (nb + GUARD));
            double e = 0, res = 0;
            for (size_t i = 0; i < nb; ++i) {
                const double g = (double)hw[i], r = (double)ht[i];
                e = fmax(e, g == g ? fabs(g - r) / (1 + fabs(r)) : 1.0);
            }
            for (int m = 0; m < batch; ++m) {
                const double rx = rel_resid_solve(ad + nn * m, hw + (size_t)n * nrhs * m, hb0 + (size_t)n * nrhs * m, n, nrhs);
                res = rx > res || rx != rx ? rx : res;
            }
            CHECK(e <= 10 * tol && res <= tol, "%s warp solve n %d nrhs %d off %d: against the tile solve %.3g, residual %.3g (tol %.1g)",
                  sfx, n, nrhs, off, e, res, tol);
            CHECK(!memcmp(hw + nb, hb0 + nb, sizeof(T) * GUARD), "%s warp solve n %d nrhs %d: the guard after b changed", sfx, n, nrhs);
            if (t->gpu) { /* the same kernel on the CPU target: the same bits */
                memcpy(hc, hb0, sizeof(T) * (nb + GUARD));
                CHECK_ERR((ops<T>::wsolve(TILE_CPU, hl + off, hc, n, nrhs, batch)), TILE_OK);
                long bad = 0;
                for (size_t i = 0; i < nb + GUARD; ++i) bad += memcmp(&hw[i], &hc[i], sizeof(T)) != 0;
                CHECK(bad == 0, "%s warp solve n %d nrhs %d: %ld elements of x differ from the CPU target's bits", sfx, n, nrhs, bad);
            }
            tile_free(t->ex, dl); tile_free(t->ex, dw); tile_free(t->ex, dt);
            free(ad); free(hl); free(hb0); free(hw); free(ht); free(hc);
        }
    }
    T *d = DALLOC(T, 4);
    CHECK_ERR((ops<T>::wsolve(t->ex, d, d, 0, 1, 1)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::wsolve(t->ex, d, d, 129, 1, 1)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::wsolve(t->ex, d, d, 2, 0, 1)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::wsolve(t->ex, d, nullptr, 2, 1, 1)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::wsolve(t->ex, d, d, 2, 1, -1)), TILE_ERR_ARG);
    CHECK_ERR((ops<T>::wsolve(t->ex, nullptr, nullptr, 2, 1, 0)), TILE_OK);
    tile_free(t->ex, d);
}

/* the blocked kernels' staggered first rounds (TILE__CHOL_STAG: on sm_90, a
 * batch of at least two rounds, 2 x blocks an SM x SMs): n = 128 and 120
 * (nb = 8), 92 and 100 (128 threads, nb 6, 7) at a batch of 16 x SMs + 7
 * on the GPU, L and info bit for bit those of the same matrices factored 8
 * at a time (too few to wait), every info 0, the residual of the first and
 * last matrices; diagonally dominant matrices (O(n^2) each) */
template <class T>
static void stag_run(const target *t, const char *sfx, double tol) {
    if (!t->gpu || g_quick) return;
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, t->ex.device);
    static const int ns[] = {128, 120, 92, 100};
    for (int q = 0; q < 4; ++q) {
        const int n = ns[q], batch = 16 * sms + 7;
        const size_t nn = (size_t)n * n, tot = nn * batch;
        T *h0 = HALLOC(T, tot), *h1 = HALLOC(T, tot), *h2 = HALLOC(T, tot);
        int *i1 = HALLOC(int, batch), *i2 = HALLOC(int, batch);
        for (int m = 0; m < batch; ++m)
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                    const int a = i > j ? i : j, b = i > j ? j : i;
                    const double u = uval(5000u + (uint32_t)m, (uint32_t)(a * n + b));
                    h0[nn * m + i * n + j] = j > i ? (T)-3 : (T)(i == j ? n + 1 + u : u);
                }
        T *d = DALLOC(T, tot);
        int *di = DALLOC(int, batch);
        UP(d, h0, sizeof(T) * tot);
        RUN_OK((ops<T>::factor(t->ex, d, n, batch, (T)0, di)));
        DOWN(h1, d, sizeof(T) * tot);
        DOWN(i1, di, sizeof(int) * batch);
        UP(d, h0, sizeof(T) * tot);
        for (int m0 = 0; m0 < batch; m0 += 8) {
            const int b = batch - m0 < 8 ? batch - m0 : 8;
            RUN_OK((ops<T>::factor(t->ex, d + nn * m0, n, b, (T)0, di + m0)));
        }
        DOWN(h2, d, sizeof(T) * tot);
        DOWN(i2, di, sizeof(int) * batch);
        long bad = 0, infobad = 0;
        for (size_t i = 0; i < tot; ++i) bad += memcmp(&h1[i], &h2[i], sizeof(T)) != 0;
        for (int m = 0; m < batch; ++m) infobad += i1[m] != 0 || i2[m] != 0;
        CHECK(bad == 0 && infobad == 0, "%s n %d batch %d: %ld elements of L differ from 8 at a time, %ld info not 0", sfx, n,
              batch, bad, infobad);
        double *ad = HALLOC(double, nn), worst = 0;
        for (int m : {0, batch - 1}) {
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) ad[i * n + j] = (double)h0[nn * m + (i > j ? i * n + j : j * n + i)];
            const double r = rel_resid_llt(h1 + nn * m, ad, n);
            worst = r > worst || r != r ? r : worst;
        }
        CHECK(worst <= tol, "%s n %d batch %d: ||LL^T - A||/||A|| = %.3g (tol %.1g)", sfx, n, batch, worst, tol);
        tile_free(t->ex, d); tile_free(t->ex, di);
        free(h0); free(h1); free(h2); free(i1); free(i2); free(ad);
    }
}

static void run_all(const target *t) {
    gc_target_begin(t);
    ops_run<float>(t, "f32", 2e-5);
    ops_run<double>(t, "f64", 1e-12);
    small_run<float>(t, "f32", 2e-5);
    small_run<double>(t, "f64", 1e-12);
    block_bad_run<float>(t, "f32");
    block_bad_run<double>(t, "f64");
    batched_all<float>(t, "f32", 2e-5);
    batched_all<double>(t, "f64", 1e-12);
    lower_run<float>(t, "f32");
    lower_run<double>(t, "f64");
    wsolve_run<float>(t, "f32", 2e-5);
    wsolve_run<double>(t, "f64", 1e-12);
    stag_run<float>(t, "f32", 2e-5);
    stag_run<double>(t, "f64", 1e-12);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    int rc = gc_start(argc, argv, "chol_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
