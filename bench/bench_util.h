/* bench/bench_util.h - what every bench shares: CUDA and tile.h error checks
 * that return 1 from main, the common command line (--csv PATH, --commit SHA,
 * --iters N, --warmup N, --small, --strict) and main itself, the run's header
 * lines (tile.h version, commit, date, device), warm-up and interleaved event timing,
 * median/min/max of timings, the target lines and the CSV file. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>
#include <tile.h>

#ifndef GIT_COMMIT
#define GIT_COMMIT "unknown"
#endif

#define CK(call)                                                                        \
    do {                                                                                \
        cudaError_t ck_e = (call);                                                      \
        if (ck_e != cudaSuccess) {                                                      \
            fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n", cudaGetErrorName(ck_e),  \
                    (int)ck_e, __FILE__, __LINE__, #call);                              \
            fprintf(stderr, "  %s\n", cudaGetErrorString(ck_e));                        \
            return 1;                                                                   \
        }                                                                               \
    } while (0)
#define TK(call)                                                                        \
    do {                                                                                \
        int tk_e = (call);                                                              \
        if (tk_e != TILE_OK) {                                                          \
            fprintf(stderr, "tile.h error %d at %s:%d: %s: %s (cuda %d: %s)\n", tk_e,    \
                    __FILE__, __LINE__, #call, tile_error_string(tk_e),                 \
                    tile_last_cuda_error(),                                             \
                    cudaGetErrorString((cudaError_t)tile_last_cuda_error()));           \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

struct Opts {
    const char *csv = nullptr;
    const char *commit = nullptr;
    int iters = 30, warmup = 5;
    bool small = false, strict = false;
};

static inline int usage(const char *argv0) {
    fprintf(stderr, "usage: %s [CSV] [--csv PATH] [--iters N] [--warmup N] [--small] [--commit SHA] [--strict]\n",
            argv0);
    return 2;
}

static inline int parse(int argc, char **argv, Opts *o) {
    for (int k = 1; k < argc; ++k) {
        const char *s = argv[k];
        if (!strcmp(s, "--csv") && k + 1 < argc) o->csv = argv[++k];
        else if (!strcmp(s, "--commit") && k + 1 < argc) o->commit = argv[++k];
        else if (!strcmp(s, "--iters") && k + 1 < argc) o->iters = atoi(argv[++k]);
        else if (!strcmp(s, "--warmup") && k + 1 < argc) o->warmup = atoi(argv[++k]);
        else if (!strcmp(s, "--small")) o->small = true;
        else if (!strcmp(s, "--strict")) o->strict = true;
        else if (!strcmp(s, "-h") || !strcmp(s, "--help")) return usage(argv[0]);
        else if (s[0] != '-' && !o->csv) o->csv = s;
        else return usage(argv[0]);
    }
    if (o->iters < 1 || o->iters > 100000 || o->warmup < 0) return usage(argv[0]);
    return 0;
}

/* The whole main of a bench: iters and warmup are its defaults (the benches
 * differ there); with no GPU it says so and succeeds, so that CPU-only CI
 * machines can run every bench. */
static inline int bench_main(int argc, char **argv, int (*run)(const Opts &), int iters = 30, int warmup = 5) {
    setvbuf(stdout, nullptr, _IOLBF, 0); /* lines reach a pipe even if the run dies */
    Opts o;
    o.iters = iters;
    o.warmup = warmup;
    if (int e = parse(argc, argv, &o)) return e;
    if (tile_gpu_count() == 0) {
        printf("no GPU: bench skipped\n");
        return 0;
    }
    return run(o);
}

/* Where and when a run happened: device 0 (selected), the date (UTC) and the
 * commit (--commit, else $GIT_COMMIT, else -DGIT_COMMIT=..., else "unknown"). */
struct BenchEnv {
    cudaDeviceProp prop;
    int dev;
    char date[64];
    const char *commit;
};
/* fills e and prints the first two lines of every bench's output:
 *   NAME: tile.h VERSION, commit SHA, DATE
 *   device: NAME (sm_XY, N SMs, L2 N MiB, N GB/s theoretical DRAM) */
static inline int bench_env(BenchEnv *e, const char *name, const Opts &o) {
    e->dev = 0;
    CK(cudaSetDevice(e->dev));
    CK(cudaGetDeviceProperties(&e->prop, e->dev));
    int memclk_khz = 0, buswidth = 0;
    CK(cudaDeviceGetAttribute(&memclk_khz, cudaDevAttrMemoryClockRate, e->dev));
    CK(cudaDeviceGetAttribute(&buswidth, cudaDevAttrGlobalMemoryBusWidth, e->dev));
    time_t now = time(nullptr);
    strftime(e->date, sizeof e->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    e->commit = o.commit ? o.commit : getenv("GIT_COMMIT") ? getenv("GIT_COMMIT") : GIT_COMMIT;
    printf("%s: tile.h %s, commit %s, %s\n", name, TILE_VERSION_STRING, e->commit, e->date);
    printf("device: %s (sm_%d%d, %d SMs, L2 %d MiB, %.0f GB/s theoretical DRAM)\n", e->prop.name, e->prop.major,
           e->prop.minor, e->prop.multiProcessorCount, e->prop.l2CacheSize >> 20,
           2.0 * memclk_khz * 1e3 * (buswidth / 8) / 1e9);
    return 0;
}

/* launch(v, round) for every variant v < nv, `rounds` times over, then wait
 * for the GPU: the warm-up (module load, clocks) and the checked run */
template <class F>
static inline int run_rounds(tile_exec ex, int nv, int rounds, F launch) {
    for (int r = 0; r < rounds; ++r)
        for (int v = 0; v < nv; ++v)
            if (launch(v, r)) return 1;
    TK(tile_synchronize(ex));
    CK(cudaDeviceSynchronize());
    return 0;
}

/* Times launch(v, it) for variants v < nv over iters rounds, the variants
 * interleaved, one event pair around each launch on the default stream; the
 * times (ms) are appended to ms[v]. The host enqueues everything first and
 * waits once, so it runs ahead of the GPU and host-side launch cost stays out
 * of the per-launch times. launch returns nonzero on an error (reported). */
template <class F>
static inline int time_interleaved(tile_exec ex, int nv, int iters, std::vector<float> *ms, F launch) {
    std::vector<cudaEvent_t> ev(2 * (size_t)nv * iters);
    for (auto &e : ev) CK(cudaEventCreate(&e));
    for (int it = 0; it < iters; ++it)
        for (int v = 0; v < nv; ++v) {
            CK(cudaEventRecord(ev[2 * ((size_t)it * nv + v)], 0));
            if (launch(v, it)) return 1;
            CK(cudaEventRecord(ev[2 * ((size_t)it * nv + v) + 1], 0));
        }
    CK(cudaEventSynchronize(ev.back()));
    TK(tile_synchronize(ex));
    for (int it = 0; it < iters; ++it)
        for (int v = 0; v < nv; ++v) {
            float t = 0;
            CK(cudaEventElapsedTime(&t, ev[2 * ((size_t)it * nv + v)], ev[2 * ((size_t)it * nv + v) + 1]));
            ms[v].push_back(t);
        }
    for (auto &e : ev) CK(cudaEventDestroy(e));
    return 0;
}

struct Stat {
    double median, min, max;
};
static inline Stat stats(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    Stat s;
    s.median = n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
    s.min = v[0];
    s.max = v[n - 1];
    return s;
}
/* bytes moved in ms milliseconds, in GB/s (1e9 B/s) */
static inline double gbps(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

/* A target line, "LABEL = VALUE (target OP GOAL): PASS|FAIL" with VALUE and
 * GOAL printed with `digits` decimals. scripts/gpu-check.sh greps 'target >='
 * and reads the last word, so every target goes through here. ok: whatever
 * else the target needs (a correct result). Returns whether it passed. */
static inline bool print_target(const char *label, double value, const char *op, double goal, int digits = 2,
                                bool ok = true) {
    const bool pass = ok && (op[0] == '<' ? value <= goal : value >= goal);
    printf("%s = %.*f (target %s %.*f): %s\n", label, digits, value, op, digits, goal, pass ? "PASS" : "FAIL");
    return pass;
}

/* the CSV file: csv_open reports a file it cannot create, csv_close one it
 * could not finish writing (both: the bench returns 1), and names the file */
static inline FILE *csv_open(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "cannot write %s\n", path);
    return f;
}
static inline int csv_close(FILE *f, const char *path) {
    if (fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    printf("csv: %s\n", path);
    return 0;
}

#endif
