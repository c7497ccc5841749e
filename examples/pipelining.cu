/* pipelining - software pipelining with register tiles (Warp's example).
 *
 * 512 rows of 256 floats, one block of 256 threads; each row goes through
 * four transcendental maps. The sequential kernel loads a row and computes on
 * it at once, so every row waits for its load. The pipelined kernel issues
 * the next row's tile_load before computing the current row: the load
 * instructions enter the memory pipeline at once, their registers are read
 * only one iteration later, and the maps fill the wait. No special API: it is
 * the order of two statements (for shared-memory staging see
 * examples/async_pipeline.cu).
 *
 *   pipelining [cpu]      GPU 0 when there is one, else (or with "cpu") the CPU
 *
 * Both results are checked against each other and against a double-precision
 * host loop; on the GPU the program prints both times (median of 20 launches,
 * CUDA events) and the speedup (Warp expects 1.2-1.6x). Exit 1 on a mismatch.
 * The same file builds with gcc -x c. */
#include <math.h>
#include <stdlib.h>
#include "example_util.h"

#define TILE_N 256
#define N_ROWS 512

/* sin(x * 1.1 + 0.1). sinf's exact reduction of huge arguments keeps a
 * 28-byte array on the stack; arguments beyond 1e4 (the data lie in [0, 1))
 * take the hardware sine on the device instead, so the kernels have no stack
 * frame and every result here comes from sinf. */
#if TILE_ON_DEVICE
#define SIN_HUGE(y) __sinf(y)
#else
#define SIN_HUGE(y) sinf(y)
#endif
TILE_FUNC float activation(float x) {
    const float y = x * 1.1f + 0.1f;
    return fabsf(y) < 1e4f ? sinf(y) : SIN_HUGE(y);
}
TILE_FUNC float normalize(float x) { return expf(-fabsf(x) * 0.5f); }
TILE_FUNC float transform(float x) { return sqrtf(fabsf(x) + 1.0f); }
TILE_FUNC float squash(float x) { return tanhf(x * 0.7f); }

/* the four maps, in place on a register tile */
#define COMPUTE(a)                                                                 \
    do {                                                                           \
        tile_map(a, activation, a);                                                \
        tile_map(a, normalize, a);                                                 \
        tile_map(a, transform, a);                                                 \
        tile_map(a, squash, a);                                                    \
    } while (0)

/* Each block handles its own N_ROWS x TILE_N slab (here: one block, one slab). */
TILE_KERNEL(sequential, TILE_N, const float *inp, float *out) {
    const size_t slab = (size_t)tile_block(0) * N_ROWS * TILE_N;
    const tile_array I = tile_array2(inp + slab, N_ROWS, TILE_N), O = tile_array2(out + slab, N_ROWS, TILE_N);
    tile_reg(float, a, 1, TILE_N);
    for (int i = 0; i < N_ROWS; ++i) {
        tile_load(a, I, i, 0);
        COMPUTE(a); /* waits for the load right away */
        tile_store(O, a, i, 0);
    }
}

TILE_KERNEL(pipelined, TILE_N, const float *inp, float *out) {
    const size_t slab = (size_t)tile_block(0) * N_ROWS * TILE_N;
    const tile_array I = tile_array2(inp + slab, N_ROWS, TILE_N), O = tile_array2(out + slab, N_ROWS, TILE_N);
    tile_reg(float, a, 1, TILE_N);
    tile_reg(float, b, 1, TILE_N);
    tile_load(a, I, 0, 0); /* prologue */
    for (int i = 1; i < N_ROWS; ++i) {
        tile_load(b, I, i, 0); /* issue the next load: fetched while we compute */
        COMPUTE(a);            /* heavy compute overlaps the fetch of b */
        tile_store(O, a, i - 1, 0);
        tile_copy(a, b); /* by now b's data has arrived */
    }
    COMPUTE(a); /* epilogue */
    tile_store(O, a, N_ROWS - 1, 0);
}

static double ref_row(double x) {
    x = sin(x * 1.1 + 0.1);
    x = exp(-fabs(x) * 0.5);
    x = sqrt(fabs(x) + 1.0);
    return tanh(x * 0.7);
}

#if TILE_CUDA
/* median time of `reps` launches of `kern`, CUDA events, after 3 warm-ups */
static int cmp_float(const void *x, const void *y) {
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}
#define TIME_MEDIAN(ms_out, kern, inp, out)                                        \
    do {                                                                           \
        enum { REPS = 20 };                                                        \
        float t_[REPS];                                                            \
        cudaEvent_t e0_, e1_;                                                      \
        cudaEventCreate(&e0_);                                                     \
        cudaEventCreate(&e1_);                                                     \
        for (int w_ = 0; w_ < 3; ++w_) tile_launch(ex, kern, tile_grid1(1), TILE_N, inp, out); \
        for (int r_ = 0; r_ < REPS; ++r_) {                                        \
            cudaEventRecord(e0_, 0);                                               \
            tile_launch(ex, kern, tile_grid1(1), TILE_N, inp, out);                \
            cudaEventRecord(e1_, 0);                                               \
            cudaEventSynchronize(e1_);                                             \
            cudaEventElapsedTime(&t_[r_], e0_, e1_);                               \
        }                                                                          \
        qsort(t_, REPS, sizeof(float), cmp_float);                                 \
        ms_out = 0.5f * (t_[REPS / 2 - 1] + t_[REPS / 2]);                         \
        cudaEventDestroy(e0_);                                                     \
        cudaEventDestroy(e1_);                                                     \
    } while (0)
#endif

int main(int argc, char **argv) {
    tile_exec ex = example_target(argc, argv);
    enum { N = N_ROWS * TILE_N };
    static float inp[N], seq[N], pipe[N];
    for (int i = 0; i < N; ++i) inp[i] = tile_hash_unit(42u, (uint32_t)i); /* [0, 1), like Warp's rng.random */
    float *d_in = (float *)tile_alloc(ex, sizeof(inp)), *d_seq = (float *)tile_alloc(ex, sizeof(seq)),
          *d_pipe = (float *)tile_alloc(ex, sizeof(pipe));
    if (!d_in || !d_seq || !d_pipe) return 1;
    if (example_check(tile_copy_to(ex, d_in, inp, sizeof(inp)), "copy") ||
        example_check(tile_launch(ex, sequential, tile_grid1(1), TILE_N, d_in, d_seq), "launch sequential") ||
        example_check(tile_launch(ex, pipelined, tile_grid1(1), TILE_N, d_in, d_pipe), "launch pipelined") ||
        example_check(tile_synchronize(ex), "kernels") ||
        example_check(tile_copy_from(ex, seq, d_seq, sizeof(seq)), "copy") ||
        example_check(tile_copy_from(ex, pipe, d_pipe, sizeof(pipe)), "copy"))
        return 1;
    /* the two kernels agree (same operations per element), and both match
     * the double-precision reference within float tolerance */
    long same = 0, bad = 0;
    double maxdiff = 0, maxerr = 0;
    for (int i = 0; i < N; ++i) {
        const double ref = ref_row((double)inp[i]);
        const double d = fabs((double)seq[i] - (double)pipe[i]);
        const double e = fmax(fabs((double)seq[i] - ref), fabs((double)pipe[i] - ref));
        same += memcmp(&seq[i], &pipe[i], sizeof(float)) == 0;
        maxdiff = d > maxdiff ? d : maxdiff;
        maxerr = e > maxerr ? e : maxerr;
        if (!(d <= 1e-6 * fabs(ref)) || !(e <= 1e-5 + 1e-5 * fabs(ref))) {
            if (bad < 5) printf("element %d: sequential %.9g, pipelined %.9g, reference %.9g\n", i, (double)seq[i],
                                (double)pipe[i], ref);
            ++bad;
        }
    }
    printf("pipelining: %d rows x %d floats on the %s: sequential == pipelined for %ld of %d elements "
           "(max diff %.3g), max error vs double reference %.3g: %s\n",
           N_ROWS, TILE_N, ex.device >= 0 ? "GPU" : "CPU", same, N, maxdiff, maxerr, bad ? "MISMATCH" : "ok");
#if TILE_CUDA
    if (ex.device >= 0 && !bad) {
        float seq_ms = 0, pipe_ms = 0;
        TIME_MEDIAN(seq_ms, sequential, d_in, d_seq);
        TIME_MEDIAN(pipe_ms, pipelined, d_in, d_pipe);
        printf("Sequential: %.3f ms\nPipelined: %.3f ms\nSpeedup: %.2fx\n", (double)seq_ms, (double)pipe_ms,
               (double)(seq_ms / pipe_ms));
    }
#endif
    tile_free(ex, d_in);
    tile_free(ex, d_seq);
    tile_free(ex, d_pipe);
    return bad ? 1 : 0;
}
