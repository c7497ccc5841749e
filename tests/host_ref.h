/* Shared by tests/cpu/test_host.c and tests/gpu/host_test.cu (C11 and nvcc
 * C++17): the host-API test inputs. Include after ../chol_ref.h (uval). */
#ifndef HOST_REF_H
#define HOST_REF_H
#include <stdint.h>
#include <stdlib.h>

/* batch SPD matrices: A = M M^T / n + I (M uniform in [-1, 1)) */
static void make_spd(double *a, int n, int batch, uint32_t seed) {
    double *m = (double *)malloc(sizeof(double) * (size_t)n * n);
    if (!m) abort();
    for (int q = 0; q < batch; ++q) {
        for (int i = 0; i < n * n; ++i) m[i] = uval(seed + (uint32_t)q, (uint32_t)i);
        double *aq = a + (size_t)q * n * n;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double s = 0;
                for (int p = 0; p < n; ++p) s += m[i * n + p] * m[j * n + p];
                aq[i * n + j] = s / n + (i == j);
            }
    }
    free(m);
}

#endif /* HOST_REF_H */
