/* Linear algebra on tiles (include/tile/linalg.h) on the CPU: the header's
 * examples through tile_launch(TILE_CPU), then the block algorithms with
 * their real block sizes on an emulated block (ucontext threads that switch
 * at every barrier, run in index order and in reverse order, shared memory
 * starting as garbage: a missing barrier changes a result). Block size 1 is
 * the CPU path (register tiles read in place). Every result is checked
 * against double-precision host loops: residuals |L L^T - A| / |A| and
 * |A x - b| / |b| on random SPD matrices, the exact transpose and diag_add,
 * and the non-SPD / NaN contract (info, NaN columns, eps clamp). */
#define _XOPEN_SOURCE 700
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <ucontext.h>
#include "test_util.h"

/* ---- the header's examples, on the real CPU target (tile_launch) ---- */
TILE_KERNEL_SMEM(ex_k, 8, 4096, const float *a, const float *b, float *out, int *info) {
    tile_reg(float, A, 3, 3);
    tile_reg(float, y, 3);
    tile_load(A, tile_array2(a, 3, 3), 0, 0);
    tile_load(y, tile_array1(b, 3), 0);
    tile_reg(float, L, 3, 3);
    tile_cholesky(L, A);
    tile_store(tile_array2(out, 3, 3), L, 0, 0);
    tile_reg(float, x, 3);
    tile_cholesky_solve(x, L, y);
    tile_store(tile_array1(out + 9, 3), x, 0);
    tile_lower_solve(x, L, y);
    tile_store(tile_array1(out + 12, 3), x, 0);
    tile_shared(float, T, 3, 3);
    tile_transpose(T, L);
    tile_store(tile_array2(out + 15, 3, 3), T, 0, 0);
    tile_reg(float, w, 3);
    tile_upper_solve(w, T, x);
    tile_store(tile_array1(out + 24, 3), w, 0);
    tile_reg(float, B2, 3, 3);
    tile_diag_add_c(B2, A, 1.0f);
    tile_store(tile_array2(out + 27, 3, 3), B2, 0, 0);
    tile_reg(float, d, 3);
    tile_arange(d, 10, 10);
    tile_reg(float, ar, 3, 3);
    tile_arange(ar, 0, 1);
    tile_diag_add(B2, ar, d);
    tile_store(tile_array2(out + 36, 3, 3), B2, 0, 0);
    tile_shared(float, s23, 2, 3);
    tile_arange(s23, 1, 1);
    tile_transpose_view(v32, s23);
    tile_store(tile_array2(out + 45, 3, 2), v32, 0, 0);
    tile_reg(float, t32, 3, 2);
    tile_transpose(t32, s23);
    tile_store(tile_array2(out + 51, 3, 2), t32, 0, 0);
    tile_reg(float, N2, 2, 2);
    tile_arange(N2, 1, 0);
    tile_set(T, 0.f, 0, 0);
    /* non-SPD [[1 2] [2 1]]: info 2; with eps 1e-3 the pivot is clamped */
    tile_reg(float, M2, 2, 2);
    tile_full(M2, 2.0f);
    tile_diag_add_c(M2, M2, -1.0f);
    tile_cholesky_info(N2, M2, info);
    tile_store(tile_array2(out + 57, 2, 2), N2, 0, 0);
    tile_cholesky_ex(M2, M2, 1e-3f, info + 1);
    tile_store(tile_array2(out + 61, 2, 2), M2, 0, 0);
}

/* ---- the emulated block (barriers only: linalg uses no shuffles) ---- */
enum { EMU_MAXB = 256, EMU_STACK = 128 * 1024, EMU_STATIC = 48 * 1024 };
enum { EMU_RUN, EMU_WAIT, EMU_DONE };
static int emu_B, emu_cur, emu_reverse, emu_on;
static int emu_state[EMU_MAXB];
static long emu_nbar[EMU_MAXB], emu_errors;
static ucontext_t emu_sched, emu_ctx[EMU_MAXB];
static char *emu_stacks;
static void (*emu_fn)(void);
static tile_kctx emu_k;
static _Alignas(16) unsigned char emu_static[EMU_STATIC];
static void emu_barrier(void) {
    if (!emu_on) return;
    emu_state[emu_cur] = EMU_WAIT;
    ++emu_nbar[emu_cur];
    swapcontext(&emu_ctx[emu_cur], &emu_sched);
}
static unsigned char *emu_static_smem(unsigned long bytes) {
    if (bytes > EMU_STATIC) ++emu_errors;
    return bytes ? emu_static : NULL;
}
static void emu_entry(void) {
    emu_fn();
    emu_state[emu_cur] = EMU_DONE;
}
#undef TILE_BLOCK_DIM
#define TILE_BLOCK_DIM ((int)sizeof(*tile__bd))
#undef tile_thread
#define tile_thread() (emu_on ? emu_cur : 0)
#undef tile_barrier
#define tile_barrier() emu_barrier()
#undef TILE__SMEM_TAG
#define TILE__SMEM_TAG(tag, bytes) emu_static_smem((unsigned long)(bytes))

static void emu_run(void (*fn)(void), int B, size_t smem) {
    unsigned char *arena = (unsigned char *)aligned_alloc(16, (smem + 16 + 15) & ~(size_t)15);
    if (!emu_stacks) emu_stacks = (char *)malloc((size_t)EMU_MAXB * EMU_STACK);
    memset(&emu_k, 0, sizeof emu_k);
    emu_k.smem = arena;
    emu_k.smem_cap = (uint32_t)smem;
    memset(arena, 0x5A, smem + 16);
    memset(emu_static, 0xA5, sizeof emu_static); /* NaN-ish garbage */
    emu_fn = fn;
    emu_B = B;
    emu_on = 1;
    for (int t = 0; t < B; ++t) {
        getcontext(&emu_ctx[t]);
        emu_ctx[t].uc_stack.ss_sp = emu_stacks + (size_t)t * EMU_STACK;
        emu_ctx[t].uc_stack.ss_size = EMU_STACK;
        emu_ctx[t].uc_link = &emu_sched;
        makecontext(&emu_ctx[t], emu_entry, 0);
        emu_state[t] = EMU_RUN;
        emu_nbar[t] = 0;
    }
    for (;;) {
        for (int i = 0; i < B; ++i) {
            const int t = emu_reverse ? B - 1 - i : i;
            if (emu_state[t] != EMU_RUN) continue;
            emu_cur = t;
            swapcontext(&emu_sched, &emu_ctx[t]);
        }
        int done = 0;
        for (int t = 0; t < B; ++t) done += emu_state[t] == EMU_DONE;
        if (done == B) break;
        if (done) { ++emu_errors; break; } /* divergent barrier */
        for (int t = 0; t < B; ++t) emu_state[t] = EMU_RUN;
    }
    for (int t = 1; t < B; ++t)
        if (emu_nbar[t] != emu_nbar[0]) ++emu_errors;
    emu_on = 0;
    emu_cur = 0;
    free(arena);
}

#include "../linalg_ref.h"

/* ---- the residual kernels ----
 * out: L (n*n), x = A^-1 b (n*k), x2 = U^-1 L^-1 b with U = L^T through a
 * transposed view or copy, x3 = in-place cholesky on a copy + in-place solve,
 * info. SH: 0 register operands, 1 shared. */
#define LK(name, T, N, K, B, SH)                                                   \
    TILE_KERNEL_SMEM(name, B, SH ? 2 * TILE_SMEM_BYTES(T, N, N) + 3 * TILE_SMEM_BYTES(T, N, K) : TILE_LINALG_SMEM_BYTES(T, N, K), \
                     const T *a, const T *b, T *out, int *info) {                  \
        const int nn = N * N, nk = N * K;                                          \
        int inf1 = -1, inf2 = -1;                                                  \
        if (SH) {                                                                  \
            LK_BODY_SH(T, N, K);                                                   \
        } else {                                                                   \
            tile_reg(T, A, N, N);                                                  \
            tile_reg(T, L, N, N);                                                  \
            tile_reg(T, rb, N, K);                                                 \
            tile_reg(T, x, N, K);                                                  \
            tile_reg(T, z, N, K);                                                  \
            tile_load(A, tile_array2(a, N, N), 0, 0);                              \
            tile_load(rb, tile_array2(b, N, K), 0, 0);                             \
            tile_cholesky_info(L, A, &inf1);                                       \
            tile_store(tile_array2(out, N, N), L, 0, 0);                           \
            tile_cholesky_solve(x, L, rb);                                         \
            tile_store(tile_array2(out + nn, N, K), x, 0, 0);                      \
            tile_lower_solve(z, L, rb);                                            \
            tile_reg(T, U, N, N);                                                  \
            tile_transpose(U, L);                                                  \
            tile_upper_solve_inplace(U, z);                                        \
            tile_store(tile_array2(out + nn + nk, N, K), z, 0, 0);                 \
            tile_cholesky_inplace_info(A, &inf2);                                  \
            tile_cholesky_solve_inplace(A, rb);                                    \
            tile_store(tile_array2(out + nn + 2 * nk, N, K), rb, 0, 0);            \
        }                                                                          \
        if (tile_thread() == 0) { info[0] = inf1; info[1] = inf2; }                \
        tile_barrier();                                                            \
        if (inf1 != info[0] || inf2 != info[1]) info[2] = 1; /* every thread agrees */ \
    }

typedef struct lk_desc {
    const char *name;
    int dbl, n, k, b, sh;
    size_t smem;
    void (*body)(void);
} lk_desc;
static const void *lk_a, *lk_b;
static void *lk_out;
static int *lk_info;
#define LKDEF(name, T, N, K, B, SH)                                                \
    LK(name, T, N, K, B, SH)                                                       \
    static void emu_##name(void) {                                                 \
        name##__body(emu_k, (char(*)[B])0, (const T *)lk_a, (const T *)lk_b, (T *)lk_out, lk_info); \
    }
#define LKE(name, T, N, K, B, SH) {#name, sizeof(T) == 8, N, K, B, SH, (size_t)name##__smem, emu_##name}

LKDEF(r_f32_1_1_1, float, 1, 1, 1, 0)
LKDEF(r_f32_7_1_1, float, 7, 1, 1, 0)
LKDEF(s_f64_33_3_1, double, 33, 3, 1, 1)
LKDEF(r_f32_3_1_32, float, 3, 1, 32, 0)
LKDEF(r_f32_7_2_33, float, 7, 2, 33, 0)
LKDEF(s_f32_16_1_32, float, 16, 1, 32, 1)
LKDEF(r_f32_31_1_64, float, 31, 1, 64, 0)
LKDEF(s_f32_33_4_96, float, 33, 4, 96, 1)
LKDEF(r_f64_32_5_96, double, 32, 5, 96, 0)
LKDEF(s_f64_2_1_64, double, 2, 1, 64, 1)
LKDEF(s_f32_64_1_128, float, 64, 1, 128, 1)
LKDEF(r_f64_100_1_256, double, 100, 1, 256, 0) /* staging in the arena (f64 100x101 > 40 KiB) */
static const lk_desc lk_all[] = {
    LKE(r_f32_1_1_1, float, 1, 1, 1, 0),      LKE(r_f32_7_1_1, float, 7, 1, 1, 0),
    LKE(s_f64_33_3_1, double, 33, 3, 1, 1),   LKE(r_f32_3_1_32, float, 3, 1, 32, 0),
    LKE(r_f32_7_2_33, float, 7, 2, 33, 0),    LKE(s_f32_16_1_32, float, 16, 1, 32, 1),
    LKE(r_f32_31_1_64, float, 31, 1, 64, 0),  LKE(s_f32_33_4_96, float, 33, 4, 96, 1),
    LKE(r_f64_32_5_96, double, 32, 5, 96, 0), LKE(s_f64_2_1_64, double, 2, 1, 64, 1),
    LKE(s_f32_64_1_128, float, 64, 1, 128, 1), LKE(r_f64_100_1_256, double, 100, 1, 256, 0),
};

/* kinds of input matrix */
enum { IN_SPD, IN_ILL, IN_NONSPD, IN_NAN, IN_SINGULAR };

static void run_lk(const lk_desc *d, int kind, int rev) {
    const int n = d->n, k = d->k, es = d->dbl ? 8 : 4;
    double *A = malloc(sizeof(double) * n * n), *bb = malloc(sizeof(double) * n * k);
    make_spd(A, n, 7 + n, kind == IN_ILL ? 1e-5 : 1.0);
    int fail_col = -1; /* expected info - 1 */
    if (kind == IN_NONSPD && n > 1) { fail_col = n / 2; A[fail_col * n + fail_col] = -1.0; }
    if (kind == IN_SINGULAR && n > 1) { /* row/col n-1 = row/col 0: pivot n-1 is ~0 */
        for (int j = 0; j < n; ++j) { A[(n - 1) * n + j] = A[j]; A[j * n + n - 1] = A[j]; }
        A[(n - 1) * n + n - 1] = A[0];
    }
    if (kind == IN_NAN) { fail_col = n - 1; A[(n - 1) * n + (n > 1 ? n - 2 : 0)] = NAN; }
    for (int i = 0; i < n * k; ++i) bb[i] = tile_hash_unit(99u, (uint32_t)i) * 2 - 1;
    void *ha = malloc((size_t)es * n * n), *hb = malloc((size_t)es * n * k), *ho = malloc((size_t)es * (n * n + 3 * n * k));
    for (int i = 0; i < n * n; ++i) { if (d->dbl) ((double *)ha)[i] = A[i]; else ((float *)ha)[i] = (float)A[i]; }
    for (int i = 0; i < n * k; ++i) { if (d->dbl) ((double *)hb)[i] = bb[i]; else ((float *)hb)[i] = (float)bb[i]; }
    memset(ho, 0xAB, (size_t)es * (n * n + 3 * n * k));
    int info[3] = {-7, -7, 0};
    lk_a = ha; lk_b = hb; lk_out = ho; lk_info = info;
    emu_errors = 0;
    emu_reverse = rev;
    tile__host_err = 0;
    emu_run(d->body, d->b, d->smem);
    double *o = malloc(sizeof(double) * (n * n + 3 * n * k));
    for (int i = 0; i < n * n + 3 * n * k; ++i) o[i] = d->dbl ? ((double *)ho)[i] : ((float *)ho)[i];
    char what[200];
    snprintf(what, sizeof what, "%s kind %d%s", d->name, kind, rev ? " reversed" : "");
    if (emu_errors || tile__host_err || info[2]) {
        print_error("%s: emulator errors %ld, kernel error %d, info disagreement %d\n", what, emu_errors, tile__host_err, info[2]);
        fail();
    }
    /* double A (the reference for the residual) as the kernel saw it */
    for (int i = 0; i < n * n; ++i) A[i] = d->dbl ? ((double *)ha)[i] : ((float *)ha)[i];
    for (int i = 0; i < n; ++i) /* strict upper triangle of L is zero */
        for (int j = i + 1; j < n; ++j)
            if (o[i * n + j] != 0.0) { print_error("%s: L[%d][%d] = %g, want 0\n", what, i, j, o[i * n + j]); fail(); }
    const double tol = d->dbl ? 1e-12 : 2e-5;
    if (kind == IN_SPD || kind == IN_ILL) {
        double rl = chol_resid(o, A, n, n);
        double rx = solve_resid(A, o + n * n, bb, n, k), rx2 = solve_resid(A, o + n * n + n * k, bb, n, k),
               rx3 = solve_resid(A, o + n * n + 2 * n * k, bb, n, k);
        const double ts = kind == IN_ILL ? tol * 1e6 : tol * 10; /* cond ~1e5 when ill */
        if (!(rl < tol * 10) || !(rx < ts) || !(rx2 < ts) || !(rx3 < ts) || info[0] != 0 || info[1] != 0) {
            print_error("%s: residuals L %g x %g %g %g (tol %g / %g), info %d %d\n", what, rl, rx, rx2, rx3, tol * 10, ts,
                        info[0], info[1]);
            fail();
        }
    } else if (kind == IN_SINGULAR) {
        /* the last pivot is 0 up to rounding: info is 0 or n (never a hang); */
        /* if n, the last column is NaN */
        if (!(info[0] == 0 || info[0] == n) || info[0] != info[1]) { print_error("%s: info %d %d\n", what, info[0], info[1]); fail(); }
        if (info[0] == n && !isnan(o[n * n - 1])) { print_error("%s: L[n-1][n-1] not NaN\n", what); fail(); }
    } else if (fail_col >= 0) {
        if (info[0] != fail_col + 1 || info[1] != fail_col + 1) {
            print_error("%s: info %d %d, want %d\n", what, info[0], info[1], fail_col + 1);
            fail();
        }
        for (int i = 0; i < n; ++i)
            for (int j = 0; j <= i; ++j) {
                const int want_nan = j >= fail_col || (kind == IN_NAN && i == n - 1 && j == n - 2);
                if (want_nan != (isnan(o[i * n + j]) != 0)) {
                    print_error("%s: L[%d][%d] = %g (NaN expected: %d)\n", what, i, j, o[i * n + j], want_nan);
                    fail();
                }
            }
        for (int i = 0; i < n * k; ++i) /* solves with a failed factor: all NaN */
            if (!isnan(o[n * n + i])) { print_error("%s: x[%d] = %g, want NaN\n", what, i, o[n * n + i]); fail(); }
        if (fail_col > 0) { /* the leading block is the factor of A's leading block */
            double *Lp = malloc(sizeof(double) * fail_col * fail_col), *Ap = malloc(sizeof(double) * fail_col * fail_col);
            for (int i = 0; i < fail_col; ++i)
                for (int j = 0; j < fail_col; ++j) { Lp[i * fail_col + j] = o[i * n + j]; Ap[i * fail_col + j] = A[i * n + j]; }
            double r = chol_resid(Lp, Ap, fail_col, fail_col);
            if (!(r < tol * 10)) { print_error("%s: leading block residual %g\n", what, r); fail(); }
            free(Lp);
            free(Ap);
        }
    }
    free(A); free(bb); free(ha); free(hb); free(ho); free(o);
}

static void test_residuals(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof lk_all / sizeof lk_all[0]; ++i)
        for (int kind = IN_SPD; kind <= IN_SINGULAR; ++kind)
            for (int rev = 0; rev < 2; ++rev) {
                if (rev && lk_all[i].b == 1) continue;
                if (kind == IN_NONSPD && lk_all[i].n == 1) continue;
                run_lk(&lk_all[i], kind, rev);
            }
}

/* ---- the batched Cholesky (tile/chol_batched.h) on the CPU target: the
 * result is L itself. For every n 1..128, f32 and f64, batch 2 (matrix 0
 * SPD, matrix 1 with a_pp = -1 at p = n / 2) and a guard matrix after the
 * batch; the input's strictly upper triangle is NaN (never read):
 *  - info {0, p + 1}; L of matrix 0 against the double Cholesky; matrix 1:
 *    columns < p the leading factor, every lower entry in column >= p NaN;
 *  - the strictly upper triangle of both exactly +0 (also with eps on a
 *    singular matrix 1: info p + 1, L finite); the guard untouched;
 *  - the solve with NaN written over the upper triangle of L (it reads only
 *    the lower one): ||A x - b|| / (||A|| ||x|| + ||b||). */
#include "../chol_ref.h"

#define CB_TEST_DEF(sfx, T, tol)                                                   \
    static long cb_upper_nonzero_##sfx(const T *l, int n) {                        \
        long bad = 0;                                                              \
        for (int i = 0; i < n; ++i)                                                \
            for (int j = i + 1; j < n; ++j) bad += !(l[i * n + j] == 0 && !signbit(l[i * n + j])); \
        return bad;                                                                \
    }                                                                              \
    static void cb_run_##sfx(int n) {                                              \
        const int nn = n * n, p = n / 2, nrhs = n % 3 + 1;                         \
        double *ad = malloc(sizeof(double) * nn), *lr = malloc(sizeof(double) * nn); \
        T *h0 = malloc(sizeof(T) * nn * 3), *h = malloc(sizeof(T) * nn * 3);     \
        T *b0 = malloc(sizeof(T) * n * nrhs), *b = malloc(sizeof(T) * n * nrhs);   \
        int info[3] = {-7, -7, -7};                                                \
        for (int i = 0; i < n; ++i)                                                \
            for (int j = 0; j <= i; ++j)                                           \
                ad[i * n + j] = ad[j * n + i] = i == j ? n + 0.5 + 0.5 * uval(41, i) : uval(43, i * n + j); \
        for (int m = 0; m < 3; ++m)                                                \
            for (int i = 0; i < nn; ++i)                                           \
                h0[m * nn + i] = m == 2 ? (T)uval(47, i) : i % n > i / n ? (T)NAN : (T)ad[i]; \
        h0[nn + p * n + p] = -1;                                                   \
        memcpy(h, h0, sizeof(T) * nn * 3);                                         \
        assert_tile_ok(tile_chol_batched_##sfx(TILE_CPU, h, n, 2, info));          \
        assert_int_equal(info[0], 0);                                              \
        assert_int_equal(info[1], p + 1);                                          \
        assert_int_equal(info[2], -7);                                             \
        assert_true(!memcmp(h + 2 * nn, h0 + 2 * nn, sizeof(T) * nn)); /* guard */ \
        if (cb_upper_nonzero_##sfx(h, n) || cb_upper_nonzero_##sfx(h + nn, n))     \
            print_error("chol_batched %s n=%d: strictly upper triangle not zero\n", #sfx, n); \
        assert_int_equal(cb_upper_nonzero_##sfx(h, n), 0);                         \
        assert_int_equal(cb_upper_nonzero_##sfx(h + nn, n), 0);                    \
        assert_int_equal(ref_chol(ad, lr, n), 0);                                  \
        for (int i = 0; i < n; ++i)                                                \
            for (int j = 0; j <= i; ++j) {                                         \
                const double r = lr[i * n + j], g = (double)h[i * n + j], g1 = (double)h[nn + i * n + j]; \
                assert_true(fabs(g - r) <= (tol) * (1 + fabs(r)));                 \
                if (j >= p) assert_true(isnan(g1)); /* from the failing column on */ \
            }                                                                      \
        if (p > 0) { /* the leading p x p factor of matrix 1 (its first p rows and columns are A's) */ \
            double *ap = malloc(sizeof(double) * p * p), *lp = malloc(sizeof(double) * p * p); \
            for (int i = 0; i < p; ++i)                                            \
                for (int j = 0; j < p; ++j) ap[i * p + j] = ad[i * n + j];         \
            assert_int_equal(ref_chol(ap, lp, p), 0);                              \
            for (int i = 0; i < p; ++i)                                            \
                for (int j = 0; j <= i; ++j)                                       \
                    assert_true(fabs((double)h[nn + i * n + j] - lp[i * p + j]) <= (tol) * (1 + fabs(lp[i * p + j]))); \
            free(ap);                                                              \
            free(lp);                                                              \
        }                                                                          \
        /* eps, matrix 1 singular instead (row and column p zero: info p + 1;   \
         * a_pp = -1 could grow to inf): L finite, its upper triangle zero */   \
        memcpy(h + nn, h0 + nn, sizeof(T) * nn * 2);                               \
        for (int i = 0; i < n; ++i) h[nn + (i >= p ? i * n + p : p * n + i)] = 0;  \
        assert_tile_ok(tile_chol_batched_eps_##sfx(TILE_CPU, h + nn, n, 1, (T)1e-3, info + 1)); \
        assert_int_equal(info[1], p + 1);                                          \
        assert_int_equal(cb_upper_nonzero_##sfx(h + nn, n), 0);                    \
        for (int i = 0; i < n; ++i)                                                \
            for (int j = 0; j <= i; ++j) assert_true(isfinite(h[nn + i * n + j]));  \
        assert_true(!memcmp(h + 2 * nn, h0 + 2 * nn, sizeof(T) * nn));            \
        /* solve with NaN over L's upper triangle */                               \
        for (int i = 0; i < n; ++i)                                                \
            for (int j = i + 1; j < n; ++j) h[i * n + j] = (T)NAN;                 \
        for (int i = 0; i < n * nrhs; ++i) b[i] = b0[i] = (T)uval(53, i);          \
        assert_tile_ok(tile_chol_batched_solve_##sfx(TILE_CPU, h, b, n, nrhs, 1)); \
        double num = 0, an = 0, xn = 0, bn = 0;                                    \
        for (int i = 0; i < nn; ++i) an += ad[i] * ad[i];                          \
        for (int c = 0; c < nrhs; ++c)                                             \
            for (int i = 0; i < n; ++i) {                                          \
                double s = 0;                                                      \
                for (int k = 0; k < n; ++k) s += ad[i * n + k] * (double)b[k * nrhs + c]; \
                num += (s - b0[i * nrhs + c]) * (s - b0[i * nrhs + c]);            \
                xn += (double)b[i * nrhs + c] * b[i * nrhs + c];                   \
                bn += (double)b0[i * nrhs + c] * b0[i * nrhs + c];                 \
            }                                                                      \
        const double rx = sqrt(num) / (sqrt(an) * sqrt(xn) + sqrt(bn));            \
        if (!(rx <= (tol))) print_error("chol_batched %s n=%d: solve residual %g\n", #sfx, n, rx); \
        assert_true(rx <= (tol));                                                  \
        free(ad); free(lr); free(h0); free(h); free(b0); free(b);                  \
    }
CB_TEST_DEF(f32, float, 1e-4)
CB_TEST_DEF(f64, double, 1e-12)

static void test_chol_batched_l_itself(void **state) {
    (void)state;
    for (int n = 1; n <= TILE_CHOL_MAX_N; ++n) {
        cb_run_f32(n);
        cb_run_f64(n);
    }
    /* the header's example */
    float e[8] = {4, 2, 2, 10, 1, 2, 2, 1};
    int inf2[2] = {-1, -1};
    assert_tile_ok(tile_chol_batched_f32(TILE_CPU, e, 2, 2, inf2));
    assert_true(e[0] == 2 && e[1] == 0 && e[2] == 1 && e[3] == 3 && e[4] == 1 && e[5] == 0 && e[6] == 2 && isnan(e[7]));
    assert_int_equal(inf2[0], 0);
    assert_int_equal(inf2[1], 2);
}

static void test_examples(void **state) {
    (void)state;
    const float a[9] = {4, 2, 2, 2, 5, 3, 2, 3, 6}, b[3] = {8, 10, 11};
    float out[65];
    int info[2] = {-1, -1};
    assert_tile_ok(tile_launch(TILE_CPU, ex_k, tile_grid1(1), 8, a, b, out, info));
    const float want[57] = {2, 0, 0, 1, 2, 0, 1, 1, 2, /* L */ 1, 1, 1, /* x */ 4, 3, 2, /* z */
                            2, 1, 1, 0, 2, 1, 0, 0, 2, /* L^T */ 1, 1, 1, /* U^-1 z */
                            5, 2, 2, 2, 6, 3, 2, 3, 7, /* A + I */ 10, 1, 2, 3, 24, 5, 6, 7, 38,
                            1, 4, 2, 5, 3, 6, 1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 57; ++i) { if (fabs(out[i] - want[i]) > 1e-6) print_error("out[%d] = %g, want %g\n", i, out[i], want[i]); assert_close(out[i], want[i], 1e-6); }
    assert_int_equal(info[0], 2);
    assert_int_equal(info[1], 2);
    assert_close(out[57], 1, 0);
    assert_close(out[58], 0, 0);
    assert_close(out[59], 2, 0);
    assert_true(isnan(out[60]));
    assert_close(out[61], 1, 0);
    assert_close(out[62], 0, 0);
    assert_close(out[63], 2, 0);
    assert_close(out[64], sqrtf(1e-3f), 1e-6);
}

/* the blocked copies' row index: e / q by a multiply and a shift, exact on
 * the whole range they use (1 <= q <= 64, e < 128 q and e < 2^13), against
 * the division */
static void test_divq(void **state) {
    (void)state;
    int bad = 0;
    for (int q = 1; q <= 64; ++q) {
        const unsigned m = TILE__CHOL_DIVQ_M(q);
        for (unsigned e = 0; e < 128u * q && e < (1u << 13); ++e) bad += TILE__CHOL_DIVQU(e, m) != e / q;
    }
    assert_int_equal(bad, 0);
}

static void test_budget(void **state) {
    (void)state;
    assert_int_equal(TILE_LINALG_SMEM_BYTES(double, 96, 1), 75264);
    assert_int_equal(TILE_LINALG_SMEM_BYTES(float, 3, 1), 64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_divq),
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_residuals),
        cmocka_unit_test(test_chol_batched_l_itself),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
