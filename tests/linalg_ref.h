/* tests/linalg_ref.h - double-precision references of the linalg tests
 * (tests/cpu/test_linalg.c, tests/gpu/linalg_test.cu): random SPD matrices
 * and the residuals every factor and solve is judged by. Needs <tile.h>
 * (tile_hash_unit), <math.h> and <stdlib.h> first. */
#ifndef LINALG_REF_H
#define LINALG_REF_H

/* random SPD: A = M M^T / n + shift I (M uniform in [-1, 1]); a tiny shift
 * makes it ill-conditioned */
static void make_spd(double *A, int n, int seed, double shift) {
    double *M = (double *)malloc(sizeof(double) * n * n);
    for (int i = 0; i < n * n; ++i) M[i] = tile_hash_unit((uint32_t)seed, (uint32_t)i) * 2.0 - 1.0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int k = 0; k < n; ++k) s += M[i * n + k] * M[j * n + k];
            A[i * n + j] = s / n + (i == j ? shift : 0.0);
        }
    free(M);
}
/* |L L^T - A| / |A| (Frobenius), rows ld apart */
static double chol_resid(const double *L, const double *A, int n, int ld) {
    double num = 0, den = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int k = 0; k < n; ++k) s += L[i * ld + k] * L[j * ld + k];
            num += (s - A[i * ld + j]) * (s - A[i * ld + j]);
            den += A[i * ld + j] * A[i * ld + j];
        }
    return sqrt(num / den);
}
/* |M x - b| / |b|, M n x n, x and b n x k */
static double solve_resid(const double *M, const double *x, const double *b, int n, int k) {
    double num = 0, den = 0;
    for (int i = 0; i < n; ++i)
        for (int c = 0; c < k; ++c) {
            double s = 0;
            for (int j = 0; j < n; ++j) s += M[i * n + j] * x[j * k + c];
            num += (s - b[i * k + c]) * (s - b[i * k + c]);
            den += b[i * k + c] * b[i * k + c];
        }
    return sqrt(num / den);
}

/* The residual kernels' body on shared operands (a kernel of const T *a,
 * const T *b, T *out with ints nn = N*N, nk = N*K, inf1, inf2 in scope):
 * out = L, x = A^-1 b by tile_cholesky_solve, z = U^-1 L^-1 b through the
 * transposed view of L, and the in-place factor and solve; infos into
 * inf1 (tile_cholesky_info) and inf2 (the in-place one). */
#define LK_BODY_SH(T, N, K)                                                        \
    tile_shared(T, A, N, N);                                                       \
    tile_shared(T, L, N, N);                                                       \
    tile_shared(T, rb, N, K);                                                      \
    tile_shared(T, x, N, K);                                                       \
    tile_shared(T, z, N, K);                                                       \
    tile_load(A, tile_array2(a, N, N), 0, 0);                                      \
    tile_load(rb, tile_array2(b, N, K), 0, 0);                                     \
    tile_cholesky_info(L, A, &inf1);                                               \
    tile_store(tile_array2(out, N, N), L, 0, 0);                                   \
    tile_cholesky_solve(x, L, rb);                                                 \
    tile_store(tile_array2(out + nn, N, K), x, 0, 0);                              \
    tile_lower_solve(z, L, rb);                                                    \
    tile_transpose_view(U, L);                                                     \
    tile_upper_solve_inplace(U, z);                                                \
    tile_store(tile_array2(out + nn + nk, N, K), z, 0, 0);                         \
    tile_cholesky_inplace_info(A, &inf2);                                          \
    tile_cholesky_solve_inplace(A, rb);                                            \
    tile_store(tile_array2(out + nn + 2 * nk, N, K), rb, 0, 0)

#endif /* LINALG_REF_H */
