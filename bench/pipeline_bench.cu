/* pipeline_bench - software pipelining and asynchronous copies.
 *
 * (a) Warp's software-pipelining example (examples/pipelining.cu): 512 rows
 *     of 256 floats per block, 256 threads, four transcendental tile_maps per
 *     row; the sequential kernel loads a row and computes on it, the
 *     pipelined kernel issues the next row's tile_load first. Timed
 *       - as in Warp's example: one block (one 512x256 slab per launch; the
 *         launches rotate over 128 slabs, 64 MiB, so the data are not in L2);
 *       - with the GPU full: 8 blocks per SM, each on its own slab.
 *     Target: pipelined/sequential speedup >= 1.20 for the single block (the
 *     setting of Warp's claim of 1.2-1.6x); the full-GPU figure is printed.
 * (b) Streaming: 256 MiB of floats (rows of 256) through (8, 256) shared tiles
 *     (8 KiB), out = 2 x + 1, each block looping over its chunks:
 *       - plain tile_load into one shared tile (the vector tier), then compute;
 *       - tile_load_async double buffering with cp.async (TILE_ASYNC_NO_BULK);
 *       - tile_load_async double buffering, default path (sm_90: one bulk copy
 *         per chunk);
 *       - register tiles only (tile_load into registers), for reference;
 *     with one block per 16 chunks, and plain vs async also with one block
 *     per SM (little parallelism left to hide latency with); peer: cudaMemcpy
 *     device-to-device of the same bytes in the same run. GB/s count bytes
 *     read + written.
 *
 * Method: inputs filled on the device with non-zero pseudo-random values
 * (tile_hash_unit: [0, 1) for (a), [-0.25, 0.75) for (b)) and checked against
 * the host hash; warm-up; outputs poisoned (NaN) before the checked runs;
 * (a) sequential == pipelined bit for bit on every element and both within
 * float tolerance of a double-precision host reference (every element of the
 * single-block slabs, every 61st of the full-GPU run); (b) every element
 * equal to 2 x + 1 (exact in float); variants interleaved, one CUDA event
 * pair per launch, median reported; outputs after the timed runs must equal
 * the checked ones.
 *
 *   pipeline_bench [CSV] [--csv PATH] [--iters N] [--warmup N] [--small]
 *                  [--commit SHA] [--strict]
 *   --small: 16 slabs and 4 MiB (memcheck runs); --iters: timed reps (30)
 * Exit: 0 ok (also with no GPU: "no GPU: bench skipped"); 1 a CUDA error or a
 * wrong result; 2 bad arguments; 3 target missed under --strict.
 */
#include <tile.h>

#include <cmath>
#include "bench_util.h"

/* ======================================================================
 * (a) the seed's kernels (as in examples/pipelining.cu)
 * ====================================================================== */
#define TILE_N 256
#define N_ROWS 512
#define SLAB ((size_t)N_ROWS * TILE_N)

#if TILE_ON_DEVICE
#define SIN_HUGE(y) __sinf(y)
#else
#define SIN_HUGE(y) sinf(y)
#endif
/* sin(x * 1.1 + 0.1); see examples/pipelining.cu for the |y| >= 1e4 branch */
TILE_FUNC float activation(float x) {
    const float y = x * 1.1f + 0.1f;
    return fabsf(y) < 1e4f ? sinf(y) : SIN_HUGE(y);
}
TILE_FUNC float normalize(float x) { return expf(-fabsf(x) * 0.5f); }
TILE_FUNC float transform(float x) { return sqrtf(fabsf(x) + 1.0f); }
TILE_FUNC float squash(float x) { return tanhf(x * 0.7f); }
#define COMPUTE(a)                                                                 \
    do {                                                                           \
        tile_map(a, activation, a);                                                \
        tile_map(a, normalize, a);                                                 \
        tile_map(a, transform, a);                                                 \
        tile_map(a, squash, a);                                                    \
    } while (0)

TILE_KERNEL(sequential, TILE_N, const float *inp, float *out) {
    const size_t slab = (size_t)tile_block(0) * SLAB;
    const tile_array I = tile_array2(inp + slab, N_ROWS, TILE_N), O = tile_array2(out + slab, N_ROWS, TILE_N);
    tile_reg(float, a, 1, TILE_N);
    for (int i = 0; i < N_ROWS; ++i) {
        tile_load(a, I, i, 0);
        COMPUTE(a);
        tile_store(O, a, i, 0);
    }
}

TILE_KERNEL(pipelined, TILE_N, const float *inp, float *out) {
    const size_t slab = (size_t)tile_block(0) * SLAB;
    const tile_array I = tile_array2(inp + slab, N_ROWS, TILE_N), O = tile_array2(out + slab, N_ROWS, TILE_N);
    tile_reg(float, a, 1, TILE_N);
    tile_reg(float, b, 1, TILE_N);
    tile_load(a, I, 0, 0);
    for (int i = 1; i < N_ROWS; ++i) {
        tile_load(b, I, i, 0);
        COMPUTE(a);
        tile_store(O, a, i - 1, 0);
        tile_copy(a, b);
    }
    COMPUTE(a);
    tile_store(O, a, N_ROWS - 1, 0);
}

static double ref_seed(double x) {
    x = sin(x * 1.1 + 0.1);
    x = exp(-fabs(x) * 0.5);
    x = sqrt(fabs(x) + 1.0);
    return tanh(x * 0.7);
}

/* ======================================================================
 * (b) streaming through shared tiles
 * ====================================================================== */
#define SR 8   /* rows per chunk */
#define SC 256 /* floats per row */
#define ST 256 /* threads */

TILE_FUNC float affine(float x) { return x * 2.0f + 1.0f; }

TILE_KERNEL_SMEM(stream_plain, ST, TILE_SMEM_BYTES(float, SR, SC), const float *in, float *out, int64_t rows) {
    const tile_array A = tile_array2(in, rows, SC), O = tile_array2(out, rows, SC);
    const int64_t nch = rows / SR;
    tile_shared(float, s, SR, SC);
    tile_reg(float, r, SR, SC);
    for (int64_t c = tile_block(0); c < nch; c += tile_grid_dim(0)) {
        tile_load(s, A, c * SR, 0);
        tile_map(r, affine, s);
        tile_store(O, r, c * SR, 0);
    }
}

TILE_KERNEL_SMEM(stream_async, ST, 2 * TILE_SMEM_BYTES(float, SR, SC), const float *in, float *out, int64_t rows,
                 int opts, int *path) {
    const tile_array A = tile_array2(in, rows, SC), O = tile_array2(out, rows, SC);
    const int64_t nch = rows / SR, nb = tile_grid_dim(0);
    tile_shared_stages(float, buf, 2, SR, SC);
    tile_reg(float, r, SR, SC);
    int64_t c = tile_block(0);
    if (c < nch) {
        const int p = tile_load_async_ex(buf, A, opts, c * SR, 0);
        if (c == 0 && tile_thread() == 0) *path = p;
    }
    tile_async_commit();
    for (int j = 0; c < nch; ++j, c += nb) {
        tile_stage(nx, buf, (j + 1) & 1);
        if (c + nb < nch) (void)tile_load_async_ex(nx, A, opts, (c + nb) * SR, 0); /* next chunk in flight */
        tile_async_commit();
        tile_async_wait(1); /* this chunk has landed */
        tile_stage(cur, buf, j & 1);
        tile_map(r, affine, cur);
        tile_store(O, r, c * SR, 0);
    }
    tile_async_wait_all();
}

TILE_KERNEL(stream_reg, ST, const float *in, float *out, int64_t rows) {
    const tile_array A = tile_array2(in, rows, SC), O = tile_array2(out, rows, SC);
    const int64_t nch = rows / SR;
    tile_reg(float, x, SR, SC);
    for (int64_t c = tile_block(0); c < nch; c += tile_grid_dim(0)) {
        tile_load(x, A, c * SR, 0);
        tile_map(x, affine, x);
        tile_store(O, x, c * SR, 0);
    }
}

TILE_KERNEL(arch_probe, 32, int *out) {
    if (tile_thread() == 0) *out = TILE__ASYNC_ARCH;
}

/* ---- inputs ---- */
__global__ void fill_input(float *a, size_t n, uint32_t seed, float shift) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        a[i] = tile_hash_unit(seed, (uint32_t)i) - shift;
}

/* ---- host helpers ---- */
static const char *path_name(int p) {
    switch (p) {
    case TILE_ASYNC_BULK: return "bulk copy (cp.async.bulk + mbarrier)";
    case TILE_ASYNC_VEC16: return "16-byte cp.async";
    case TILE_ASYNC_RUN: return "cp.async over a run";
    case TILE_ASYNC_ELEM: return "per-element cp.async";
    case TILE_ASYNC_SYNC: return "synchronous";
    default: return "?";
    }
}

/* the seed's outputs: seq == pipe bit for bit, both near the double
 * reference, on every `step`-th element of slabs [s0, s1) */
static long check_seed(const char *what, const float *in, const float *seq, const float *pipe, size_t s0, size_t s1,
                       size_t step) {
    long bad = 0, diff = 0, n = 0;
    double maxerr = 0;
    for (size_t i = s0 * SLAB; i < s1 * SLAB; i += step) {
        ++n;
        const double ref = ref_seed((double)in[i]);
        const double e = std::max(fabs((double)seq[i] - ref), fabs((double)pipe[i] - ref));
        if (memcmp(&seq[i], &pipe[i], sizeof(float))) {
            if (diff < 3)
                fprintf(stderr, "  %s: element %zu: sequential %.9g != pipelined %.9g\n", what, i, seq[i], pipe[i]);
            ++diff;
        }
        if (!(e <= 1e-5 + 1e-5 * fabs(ref))) {
            if (bad < 3)
                fprintf(stderr, "  %s: element %zu: sequential %.9g, pipelined %.9g, reference %.9g\n", what, i, seq[i],
                        pipe[i], ref);
            ++bad;
        }
        maxerr = std::max(maxerr, e);
    }
    printf("check %-30s %ld elements: sequential == pipelined bit for bit except %ld, max err vs double %.3g: %s\n",
           what, n, diff, maxerr, bad || diff ? "FAIL" : "ok");
    return bad + diff;
}

/* out == 2 x + 1 on every element */
static long check_stream(const char *what, const float *in, const float *out, size_t n) {
    long bad = 0;
    for (size_t i = 0; i < n; ++i) {
        const float want = in[i] * 2.0f + 1.0f;
        if (memcmp(&out[i], &want, sizeof(float))) {
            if (bad < 3) fprintf(stderr, "  %s: element %zu = %.9g, want %.9g\n", what, i, out[i], want);
            ++bad;
        }
    }
    printf("check %-30s %zu elements == 2x+1: %s\n", what, n, bad ? "FAIL" : "ok");
    return bad;
}

static int run(const Opts &o) {
    BenchEnv env;
    if (bench_env(&env, "pipeline_bench", o)) return 1;
    const cudaDeviceProp &prop = env.prop;
    const char *date = env.date, *commit = env.commit;
    const int dev = env.dev, sms = prop.multiProcessorCount;

    /* (a) sizes: the full-GPU launch has 8 blocks per SM, one slab each; the
     * single-block launches rotate over the first nrot slabs */
    const int nfull = o.small ? 16 : 8 * sms, nrot = o.small ? 4 : 128;
    const int nslab = std::max(nfull, nrot);
    const size_t a_n = (size_t)nslab * SLAB;
    /* (b) sizes */
    const int64_t srows = o.small ? ((int64_t)1 << 12) : ((int64_t)1 << 18); /* 4 MiB or 256 MiB */
    const size_t s_n = (size_t)srows * SC, s_bytes = s_n * sizeof(float);
    /* a block per 16 chunks (the scheduler keeps the SMs full whatever the
     * kernels' register counts allow), or one block per SM */
    const int g_full = (int)std::max<int64_t>(1, srows / SR / 16), g_low = sms;

    printf("(a) %d x %d floats per block, %d threads; single block rotating over %d slabs (%.0f MiB), full GPU %d "
           "blocks (%.0f MiB)\n",
           N_ROWS, TILE_N, TILE_N, nrot, nrot * SLAB * 4.0 / 1048576.0, nfull, nfull * SLAB * 4.0 / 1048576.0);
    printf("(b) %lld rows x %d floats = %.0f MiB in, as much out; chunks of %d rows; %d blocks (16 chunks each) or "
           "%d (1 per SM) of %d threads\n",
           (long long)srows, SC, s_bytes / 1048576.0, SR, g_full, g_low, ST);
    printf("%d warm-up, %d timed reps each\n", o.warmup, o.iters);

    float *d_a = nullptr, *d_seq = nullptr, *d_pipe = nullptr, *d_s = nullptr, *d_copy = nullptr;
    int *d_path = nullptr;
    enum { SV_PLAIN, SV_CPASYNC, SV_ASYNC, SV_REG, SV_PLAIN_LOW, SV_ASYNC_LOW, SV };
    float *d_so[SV] = {};
    CK(cudaMalloc(&d_a, a_n * sizeof(float)));
    CK(cudaMalloc(&d_seq, a_n * sizeof(float)));
    CK(cudaMalloc(&d_pipe, a_n * sizeof(float)));
    CK(cudaMalloc(&d_s, s_bytes));
    CK(cudaMalloc(&d_copy, s_bytes));
    CK(cudaMalloc(&d_path, 2 * sizeof(int)));
    for (int v = 0; v < SV; ++v) CK(cudaMalloc(&d_so[v], s_bytes));
    int h_arch = -1; /* the architecture the device code was compiled for */
    CK(cudaMemset(d_path, 0xff, sizeof(int)));
    TK(tile_launch(TILE_GPU(dev), arch_probe, tile_grid1(1), 32, d_path));
    CK(cudaMemcpy(&h_arch, d_path, sizeof(int), cudaMemcpyDeviceToHost));
    fill_input<<<sms * 8, 256>>>(d_a, a_n, 4242u, 0.0f);
    CK(cudaGetLastError());
    fill_input<<<sms * 8, 256>>>(d_s, s_n, 777u, 0.25f);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    const tile_exec ex = TILE_GPU(dev);
    /* the variants */
    enum { V_SEQ1, V_PIPE1, V_SEQF, V_PIPEF, V_PLAIN, V_CPASYNC, V_ASYNC, V_REG, V_PLAIN_LOW, V_ASYNC_LOW, V_COPY, V };
    const char *names[V] = {"sequential, 1 block",      "pipelined, 1 block",       "sequential, full GPU",
                            "pipelined, full GPU",      "stream tile_load shared",  "stream async cp.async",
                            "stream async default",     "stream register tiles",    "stream tile_load, 1/SM",
                            "stream async, 1/SM",       "cudaMemcpy d2d"};
    const double s_moved = 2.0 * (double)s_bytes;
    const double bytes[V] = {2.0 * SLAB * 4, 2.0 * SLAB * 4, 2.0 * nfull * SLAB * 4, 2.0 * nfull * SLAB * 4,
                             s_moved, s_moved, s_moved, s_moved, s_moved, s_moved, s_moved};
    /* launch variant v; the single-block variants work on slab `slab` */
    auto launch = [&](int v, int slab) -> int {
        switch (v) {
        case V_SEQ1:
        case V_PIPE1: {
            const size_t off = (size_t)(slab % nrot) * SLAB;
            if (v == V_SEQ1) TK(tile_launch(ex, sequential, tile_grid1(1), TILE_N, (const float *)d_a + off, d_seq + off));
            else TK(tile_launch(ex, pipelined, tile_grid1(1), TILE_N, (const float *)d_a + off, d_pipe + off));
            break;
        }
        case V_SEQF: TK(tile_launch(ex, sequential, tile_grid1(nfull), TILE_N, (const float *)d_a, d_seq)); break;
        case V_PIPEF: TK(tile_launch(ex, pipelined, tile_grid1(nfull), TILE_N, (const float *)d_a, d_pipe)); break;
        case V_PLAIN:
            TK(tile_launch(ex, stream_plain, tile_grid1(g_full), ST, (const float *)d_s, d_so[SV_PLAIN], srows));
            break;
        case V_CPASYNC:
            TK(tile_launch(ex, stream_async, tile_grid1(g_full), ST, (const float *)d_s, d_so[SV_CPASYNC], srows,
                           (int)TILE_ASYNC_NO_BULK, d_path));
            break;
        case V_ASYNC:
            TK(tile_launch(ex, stream_async, tile_grid1(g_full), ST, (const float *)d_s, d_so[SV_ASYNC], srows,
                           (int)TILE_ASYNC_AUTO, d_path + 1));
            break;
        case V_REG:
            TK(tile_launch(ex, stream_reg, tile_grid1(g_full), ST, (const float *)d_s, d_so[SV_REG], srows));
            break;
        case V_PLAIN_LOW:
            TK(tile_launch(ex, stream_plain, tile_grid1(g_low), ST, (const float *)d_s, d_so[SV_PLAIN_LOW], srows));
            break;
        case V_ASYNC_LOW:
            TK(tile_launch(ex, stream_async, tile_grid1(g_low), ST, (const float *)d_s, d_so[SV_ASYNC_LOW], srows,
                           (int)TILE_ASYNC_AUTO, d_path + 1));
            break;
        default: CK(cudaMemcpyAsync(d_copy, d_s, s_bytes, cudaMemcpyDeviceToDevice, 0)); break;
        }
        return 0;
    };

    /* warm-up */
    if (run_rounds(ex, V, o.warmup, launch)) return 1;

    /* ---- correctness ---- */
    long bad = 0;
    std::vector<float> h_a(a_n), h_seq(a_n), h_pipe(a_n), h_s(s_n), h_out(s_n);
    CK(cudaMemcpy(h_a.data(), d_a, a_n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_s.data(), d_s, s_bytes, cudaMemcpyDeviceToHost));
    {
        long zeros = 0, hash_bad = 0, samples = 0;
        for (size_t i = 0; i < a_n; ++i) zeros += h_a[i] == 0.0f;
        for (size_t i = 0; i < s_n; ++i) zeros += h_s[i] == 0.0f;
        for (size_t i = 0; i < a_n; i += 4093, ++samples) hash_bad += h_a[i] != tile_hash_unit(4242u, (uint32_t)i);
        for (size_t i = 0; i < s_n; i += 4093, ++samples) hash_bad += h_s[i] != tile_hash_unit(777u, (uint32_t)i) - 0.25f;
        const bool ok = !hash_bad && zeros <= (long)((a_n + s_n) / 1000000 + 16);
        printf("check %-30s %zu values, %ld zeros, %ld of %ld sampled differ from the host hash: %s\n", "inputs",
               a_n + s_n, zeros, hash_bad, samples, ok ? "ok" : "FAIL");
        bad += !ok;
    }
    /* (a) single block over the rotation slabs, then the full GPU */
    CK(cudaMemset(d_seq, 0xff, a_n * sizeof(float)));
    CK(cudaMemset(d_pipe, 0xff, a_n * sizeof(float)));
    for (int s = 0; s < nrot; ++s)
        if (launch(V_SEQ1, s) || launch(V_PIPE1, s)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaMemcpy(h_seq.data(), d_seq, nrot * SLAB * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_pipe.data(), d_pipe, nrot * SLAB * sizeof(float), cudaMemcpyDeviceToHost));
    bad += check_seed("seed, 1 block (all slabs)", h_a.data(), h_seq.data(), h_pipe.data(), 0, nrot, 1);
    CK(cudaMemset(d_seq, 0xff, a_n * sizeof(float)));
    CK(cudaMemset(d_pipe, 0xff, a_n * sizeof(float)));
    if (launch(V_SEQF, 0) || launch(V_PIPEF, 0)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaMemcpy(h_seq.data(), d_seq, a_n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h_pipe.data(), d_pipe, a_n * sizeof(float), cudaMemcpyDeviceToHost));
    {
        /* bit for bit on every element; the reference on every 61st */
        long diff = memcmp(h_seq.data(), h_pipe.data(), (size_t)nfull * SLAB * sizeof(float)) != 0;
        if (diff) bad += check_seed("seed, full GPU (all)", h_a.data(), h_seq.data(), h_pipe.data(), 0, nfull, 1);
        bad += check_seed("seed, full GPU (1 in 61)", h_a.data(), h_seq.data(), h_pipe.data(), 0, nfull, 61);
    }
    /* (b) */
    int h_path[2] = {-1, -1};
    for (int v = 0; v < SV; ++v) CK(cudaMemset(d_so[v], 0xff, s_bytes));
    CK(cudaMemset(d_copy, 0, s_bytes));
    CK(cudaMemset(d_path, 0xff, 2 * sizeof(int)));
    for (int v = V_PLAIN; v <= V_COPY; ++v)
        if (launch(v, 0)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h_path, d_path, sizeof(h_path), cudaMemcpyDeviceToHost));
    for (int v = 0; v < SV; ++v) {
        CK(cudaMemcpy(h_out.data(), d_so[v], s_bytes, cudaMemcpyDeviceToHost));
        bad += check_stream(names[V_PLAIN + v], h_s.data(), h_out.data(), s_n);
    }
    {
        CK(cudaMemcpy(h_out.data(), d_copy, s_bytes, cudaMemcpyDeviceToHost));
        const bool same = !memcmp(h_out.data(), h_s.data(), s_bytes);
        printf("check %-30s %zu values: %s\n", "memcpy d2d", s_n, same ? "ok" : "FAIL");
        bad += !same;
    }
    printf("async copy paths: TILE_ASYNC_NO_BULK -> %s; default -> %s\n", path_name(h_path[0]), path_name(h_path[1]));
    const bool path_ok = h_path[0] == TILE_ASYNC_VEC16 &&
                         h_path[1] == (h_arch >= 900 ? TILE_ASYNC_BULK : TILE_ASYNC_VEC16);
    printf("check %-30s %s\n", "async paths as designed", path_ok ? "ok" : "FAIL");
    bad += !path_ok;

    /* ---- timing: variants interleaved, one event pair per launch; the two
     * single-block kernels never read the slab the other just read ---- */
    std::vector<float> ms[V];
    if (time_interleaved(ex, V, o.iters, ms,
                         [&](int v, int it) { return launch(v, v == V_PIPE1 ? 2 * it + 1 : 2 * it); }))
        return 1;

    /* the timed runs reproduce the checked results */
    {
        bool same = true;
        std::vector<float> h2(a_n);
        CK(cudaMemcpy(h2.data(), d_seq, (size_t)nfull * SLAB * sizeof(float), cudaMemcpyDeviceToHost));
        same &= !memcmp(h2.data(), h_seq.data(), (size_t)nfull * SLAB * sizeof(float));
        CK(cudaMemcpy(h2.data(), d_pipe, (size_t)nfull * SLAB * sizeof(float), cudaMemcpyDeviceToHost));
        same &= !memcmp(h2.data(), h_pipe.data(), (size_t)nfull * SLAB * sizeof(float));
        for (int v = 0; v < SV; ++v) {
            CK(cudaMemcpy(h_out.data(), d_so[v], s_bytes, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < s_n && same; i += 1) same &= h_out[i] == h_s[i] * 2.0f + 1.0f;
        }
        printf("check %-30s %s\n", "repeat runs identical", same ? "ok" : "FAIL");
        bad += !same;
    }

    Stat st[V];
    double gbs[V], ratio[V];
    for (int v = 0; v < V; ++v) {
        st[v] = stats(ms[v]);
        gbs[v] = gbps(bytes[v], st[v].median);
    }
    for (int v = 0; v < V; ++v) {
        if (v == V_PIPE1 || v == V_SEQ1) ratio[v] = st[V_SEQ1].median / st[v].median;
        else if (v == V_PIPEF || v == V_SEQF) ratio[v] = st[V_SEQF].median / st[v].median;
        else ratio[v] = gbs[v] / gbs[V_COPY];
    }
    const double speedup = ratio[V_PIPE1], speedup_full = ratio[V_PIPEF];

    printf("\n%-27s %10s %10s %10s %9s %10s\n", "variant", "median_ms", "min_ms", "max_ms", "GB/s", "ratio");
    for (int v = 0; v < V; ++v)
        printf("%-27s %10.4f %10.4f %10.4f %9.1f %10.3f  %s\n", names[v], st[v].median, st[v].min, st[v].max, gbs[v],
               ratio[v], v <= V_PIPEF ? "vs sequential" : "vs memcpy");
    printf("(GB/s: bytes read + written / median time, 1e9 B/s; ratio: time of sequential / time (a), GB/s / memcpy's "
           "GB/s (b))\n");
    printf("async stream / plain tile_load: %.3f with 16 chunks per block, %.3f with 1 block per SM; cp.async / "
           "default path: %.3f\n",
           gbs[V_ASYNC] / gbs[V_PLAIN], gbs[V_ASYNC_LOW] / gbs[V_PLAIN_LOW], gbs[V_CPASYNC] / gbs[V_ASYNC]);
    printf("full-GPU pipelined/sequential speedup = %.2f (information)\n", speedup_full);
    printf("correctness: %s\n", bad ? "FAIL" : "PASS");
    const bool pass = print_target("pipelined/sequential speedup", speedup, ">=", 1.20);

    if (o.csv) {
        FILE *f = csv_open(o.csv);
        if (!f) return 1;
        fprintf(f, "date,commit,device,variant,bytes_moved,iters,median_ms,min_ms,max_ms,gbps,ratio,ratio_of,correct,"
                   "target\n");
        for (int v = 0; v < V; ++v)
            fprintf(f, "%s,%s,\"%s\",%s,%.0f,%d,%.5f,%.5f,%.5f,%.2f,%.4f,%s,%s,%s\n", date, commit, prop.name, names[v],
                    bytes[v], o.iters, st[v].median, st[v].min, st[v].max, gbs[v], ratio[v],
                    v <= V_PIPEF ? "sequential" : "memcpy", bad ? "FAIL" : "PASS",
                    v == V_PIPE1 ? (pass ? "PASS" : "FAIL") : "");
        if (csv_close(f, o.csv)) return 1;
    }

    CK(cudaFree(d_a));
    CK(cudaFree(d_seq));
    CK(cudaFree(d_pipe));
    CK(cudaFree(d_s));
    CK(cudaFree(d_copy));
    CK(cudaFree(d_path));
    for (int v = 0; v < SV; ++v) CK(cudaFree(d_so[v]));
    if (bad) return 1;
    if (o.strict && !pass) return 3;
    return 0;
}

int main(int argc, char **argv) { return bench_main(argc, argv, run); }
