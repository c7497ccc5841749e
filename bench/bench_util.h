/* bench/bench_util.h - what every bench shares: CUDA and tile.h error checks
 * that return 1 from main, the common command line (--csv PATH, --commit SHA,
 * --iters N, --warmup N, --small, --strict) and median/min/max of timings. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <tile.h>

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

static int usage(const char *argv0) {
    fprintf(stderr, "usage: %s [CSV] [--csv PATH] [--iters N] [--warmup N] [--small] [--commit SHA] [--strict]\n",
            argv0);
    return 2;
}

static int parse(int argc, char **argv, Opts *o) {
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

struct Stat {
    double median, min, max;
};
static Stat stats(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    Stat s;
    s.median = n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
    s.min = v[0];
    s.max = v[n - 1];
    return s;
}

#endif
