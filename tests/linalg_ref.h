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

#endif /* LINALG_REF_H */
