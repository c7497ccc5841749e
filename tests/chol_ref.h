/* tests/chol_ref.h - double-precision references of the Cholesky tests
 * (tests/cpu/test_tile16.c, test_chol_wsolve_sim.c, tests/gpu/chol_test.cu, ...;
 * static inline: a test may use one of them only). Needs <tile.h>,
 * <math.h> and <string.h> first. */
#ifndef CHOL_REF_H
#define CHOL_REF_H

/* deterministic values in [-1, 1) */
static inline double uval(uint32_t seed, uint32_t i) { return 2.0 * (double)tile_hash_unit(seed, i) - 1.0; }

/* double Cholesky of a (n x n, row-major), lower L into l (upper zero);
 * returns info: 0, or the first column whose pivot is not > 0 (1-based) */
static inline int ref_chol(const double *a, double *l, int n) {
    memset(l, 0, sizeof(double) * n * n);
    for (int j = 0; j < n; ++j) {
        double d = a[j * n + j];
        for (int k = 0; k < j; ++k) d -= l[j * n + k] * l[j * n + k];
        if (!(d > 0)) return j + 1;
        l[j * n + j] = sqrt(d);
        for (int i = j + 1; i < n; ++i) {
            double s = a[i * n + j];
            for (int k = 0; k < j; ++k) s -= l[i * n + k] * l[j * n + k];
            l[i * n + j] = s / l[j * n + j];
        }
    }
    return 0;
}

#endif /* CHOL_REF_H */
