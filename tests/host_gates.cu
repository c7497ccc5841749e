/* tests/host_gates.cu - the host API's feature gates. Built by nvcc with
 * TILE_NO_CUBLAS, TILE_NO_CUSOLVER and TILE_NO_CUFFT and linked WITHOUT
 * -lcublas -lcusolver -lcufft: the link itself proves that no call still
 * references a library; at run time every GPU call returns
 * TILE_ERR_DISABLED (valid arguments; nothing is touched) and the CPU path of
 * the same calls still works. Also valid C11 (gcc -x c), where the GPU calls
 * return TILE_ERR_NO_CUDA instead.
 *
 *   nvcc -std=c++17 -Iinclude ... tests/host_gates.cu -o host_gates && ./host_gates
 *   gcc -std=c11 -Iinclude ... -x c tests/host_gates.cu -o host_gates_c11 -lm && ./host_gates_c11
 * Prints "host_gates: N checks, M failed"; exit 1 on a failure. Needs no GPU.
 */
#define TILE_NO_CUBLAS
#define TILE_NO_CUSOLVER
#define TILE_NO_CUFFT
#include <math.h>
#include <stdio.h>
#include <tile/host.h>

TILE__STATIC_ASSERT(!TILE_HOST_CUBLAS && !TILE_HOST_CUSOLVER && !TILE_HOST_CUFFT, "host_gates: the gates are off");

static int g_checks, g_failed;
#define EXPECT(expr, want)                                                         \
    do {                                                                           \
        const int e_ = (expr);                                                     \
        ++g_checks;                                                                \
        if (e_ != (want)) {                                                        \
            ++g_failed;                                                            \
            printf("FAIL %s:%d: %s -> %d (%s), expected %d (%s)\n", __FILE__, __LINE__, #expr, e_, \
                   tile_error_string(e_), (int)(want), tile_error_string(want));   \
        }                                                                          \
    } while (0)
#define EXPECT_TRUE(cond)                                                          \
    do {                                                                           \
        ++g_checks;                                                                \
        if (!(cond)) {                                                             \
            ++g_failed;                                                            \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                 \
        }                                                                          \
    } while (0)

int main(void) {
    /* what a GPU exec gets: the gate under nvcc, no CUDA in a C11 build */
    const int gated = TILE_CUDA ? TILE_ERR_DISABLED : TILE_ERR_NO_CUDA;
    const tile_exec g = tile_gpu(0), c = tile_cpu();
    float A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8}, C[4] = {0, 0, 0, 0};
    double S[4] = {4, 2, 2, 10}, X[2] = {6, 12};
    int info[1] = {-7};

    /* cuBLAS gated: plain and batched, every path */
    EXPECT(tile_gemm_f32(g, TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 2, B, 2, 0.0f, C, 2), gated);
    EXPECT(tile_gemm_f64(g, TILE_OP_N, TILE_OP_N, 1, 1, 1, 1.0, S, 1, S, 1, 0.0, X, 1), gated);
    for (int path = TILE_PATH_AUTO; path <= TILE_PATH_LIBRARY; ++path)
        EXPECT(tile_gemm_strided_batched_path_f32(g, path, TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 2, 4, B, 2, 4, 0.0f,
                                                  C, 2, 4, 1),
               gated);
    EXPECT(tile_gemm_strided_batched_f64(g, TILE_OP_N, TILE_OP_N, 1, 1, 1, 1.0, S, 1, 1, S, 1, 1, 0.0, X, 1, 1, 1),
           gated);
    /* argument errors still come first */
    EXPECT(tile_gemm_f32(g, TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 1, B, 2, 0.0f, C, 2), TILE_ERR_ARG);
    /* cuSOLVER gated: every path (the in-kernel one too: the gate is per call) */
    for (int path = TILE_PATH_AUTO; path <= TILE_PATH_LIBRARY; ++path) {
        EXPECT(tile_potrf_batched_path_f64(g, path, 2, S, 1, info), gated);
        EXPECT(tile_potrs_batched_path_f64(g, path, 2, 1, S, X, 1), gated);
    }
    EXPECT(tile_potrf_batched_f32(g, 2, A, 1, NULL), gated);
    EXPECT(tile_potrs_batched_f32(g, 2, 2, A, B, 1), gated);
    EXPECT(tile_potrf_batched_f32(g, 0, A, 1, NULL), TILE_ERR_ARG);
    EXPECT_TRUE(C[0] == 0 && S[0] == 4 && X[0] == 6 && info[0] == -7 && A[0] == 1); /* nothing touched */

    /* cuFFT gated */
    tile_c32 z[4] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}}, w[4];
    EXPECT(tile_fft_c2c_f32(g, 4, 1, z, w, TILE_FFT_FORWARD), gated);

    /* the CPU path of every gated call still works */
    EXPECT(tile_gemm_f32(c, TILE_OP_N, TILE_OP_N, 2, 2, 2, 1.0f, A, 2, B, 2, 0.0f, C, 2), TILE_OK);
    EXPECT_TRUE(C[0] == 19 && C[1] == 22 && C[2] == 43 && C[3] == 50);
    EXPECT(tile_gemm_strided_batched_f32(c, TILE_OP_T, TILE_OP_N, 2, 2, 2, 1.0f, A, 2, 4, B, 2, 4, 0.0f, C, 2, 4, 1),
           TILE_OK);
    EXPECT_TRUE(C[0] == 26 && C[1] == 30 && C[2] == 38 && C[3] == 44);
    EXPECT(tile_potrf_batched_f64(c, 2, S, 1, info), TILE_OK);
    EXPECT_TRUE(S[0] == 2 && S[2] == 1 && S[3] == 3 && info[0] == 0);
    EXPECT(tile_potrs_batched_f64(c, 2, 1, S, X, 1), TILE_OK);
    EXPECT_TRUE(fabs(X[0] - 1) < 1e-14 && fabs(X[1] - 1) < 1e-14);
    EXPECT(tile_fft_c2c_f32(c, 4, 1, z, w, TILE_FFT_FORWARD), TILE_OK);
    EXPECT_TRUE(fabsf(w[0].re - 10) < 1e-5f && fabsf(w[1].re + 2) < 1e-5f && fabsf(w[1].im - 2) < 1e-5f);
    tile_host_release(); /* nothing to release: no-op */

    printf("host_gates: %d checks, %d failed (%s build)\n", g_checks, g_failed, TILE_CUDA ? "nvcc" : "C11");
    return g_failed ? 1 : 0;
}
