/* tests/gpu/async_test.cu - asynchronous tile loads (async.h) on the GPU and
 * on the CPU target of the same nvcc build, checked against host references.
 *
 *   async_test             GPU 0 (when there is one), then the CPU target
 *   async_test --cpu-only  the CPU target only (CI machines without a GPU)
 *   async_test --quick     fewer offsets (for compute-sanitizer runs)
 *
 * 1. tile_load_async == tile_load: f32, f64, i64, vec3f, mat33f and a 3-byte
 *    struct; 1-4 dims; block sizes 32..128; offsets inside, at every edge,
 *    overhanging and fully outside (zeros); dense, padded, misaligned (+1
 *    element), row-view and stride-2 arrays; options AUTO, NO_BULK,
 *    PER_ELEMENT, SYNCHRONOUS. Every block compares against a host loop, bit
 *    for bit, and reports the path it took, which must be the one
 *    tile__async_pick gives on the host for the device's architecture (so
 *    the H100 run proves the bulk copy, the 16-byte, run and per-element
 *    cp.async paths all ran).
 * 2. Destinations that are views of a shared tile (contiguous at 16, 8 and
 *    4-byte offsets, and non-contiguous).
 * 3. Double- and triple-buffered loops (tile_shared_stages, tile_stage,
 *    tile_async_wait(n)) over f32, f64, vec3f and mat33f rows, several
 *    blocks, odd row counts, a window, each option.
 * 4. The sm_90 bulk-copy ring: ten groups committed back to back (the
 *    eighth commit waits for the first), partial waits (wait(7), wait(3),
 *    wait(0)) that must have waited for the older groups (stages are
 *    poisoned before each round), three rounds so every mbarrier changes
 *    phase, with cp.async groups between bulk groups in rounds 2 and 3; one
 *    group mixing two bulk copies with cp.async copies.
 * Outputs are poisoned before each launch; shared destinations are poisoned
 * before each load. Prints one FAIL line per failed check and last
 * "async_test: N checks, M failed (targets: gpu+cpu|cpu)"; exit 1 on failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"

/* ========================================================================
 * architecture and paths
 * ======================================================================== */
typedef struct rgb8 {
    unsigned char c[3];
} rgb8;

TILE_KERNEL(arch_probe, 32, int *out) {
    if (tile_thread() == 0) *out = TILE__ASYNC_ARCH;
}
static int g_arch; /* the device code's architecture (0 on the CPU target) */
static long g_paths[6];
static const char *path_name(int p) {
    switch (p) {
    case TILE_ASYNC_BULK: return "bulk";
    case TILE_ASYNC_VEC16: return "vec16";
    case TILE_ASYNC_RUN: return "run";
    case TILE_ASYNC_ELEM: return "elem";
    case TILE_ASYNC_SYNC: return "sync";
    default: return "?";
    }
}

/* the path the target takes for one load (first element `o`) */
static int expect_path(tile_array a, const int64_t *o, int vec_ct, int contig, int nd, const int *d, int esize,
                       uintptr_t saddr, int opts, int bulk_ok) {
    int64_t base = a.base_off;
    for (int k = 0; k < 4; ++k) base += o[k] * a.stride[k];
    const int in = tile__inside(&a, o, d[0], d[1], d[2], d[3]);
    return tile__async_pick(&a, base, in, vec_ct, contig, nd, d[1], d[2], d[3], esize, d[0] * d[1] * d[2] * d[3], saddr,
                            g_arch, opts, bulk_ok);
}
static void check_path(int got, int want, const char *what) {
    if (got >= 1 && got <= 5) ++g_paths[got];
    CHECK(got == want, "%s: path %d (%s), expected %d (%s)", what, got, path_name(got), want, path_name(want));
}

/* the element at tile index ti of the tile at o, or NULL outside */
static const unsigned char *ref_elem(const tile_array *a, const int64_t *o, const int *ti, size_t esize) {
    int64_t off = a->base_off;
    for (int k = 0; k < 4; ++k) {
        int64_t g = o[k] + ti[k];
        if (g < 0 || g >= a->shape[k]) return NULL;
        off += g * a->stride[k];
    }
    return (const unsigned char *)a->ptr + off * (int64_t)esize;
}

/* ========================================================================
 * 1. tile_load_async == tile_load
 * ======================================================================== */
/* One block per offset (offs[4 b .. 4 b + 3]): shared s poisoned, loaded
 * asynchronously, while tile_load fills s1; out[b] = [s | s1]. */
#define DEF_EQ(name, T, BD, ...)                                                   \
    TILE_KERNEL_SMEM(name, BD, 2 * TILE_SMEM_BYTES(T, __VA_ARGS__), tile_array a, const int64_t *offs, int opts, \
                     T *out, int *paths) {                                         \
        const int64_t *o = offs + 4 * tile_block(0);                               \
        tile_shared(T, s, __VA_ARGS__);                                            \
        tile_shared(T, s1, __VA_ARGS__);                                           \
        const int n = tile_size(s);                                                \
        for (int i = tile_thread(); i < n; i += TILE_BLOCK_DIM) memset(&s.v[i], 0x5a, sizeof(T)); \
        const int p = tile_load_async_ex(s, a, opts, o[0], o[1], o[2], o[3]);     \
        tile_async_commit();                                                       \
        tile_load(s1, a, o[0], o[1], o[2], o[3]);                                  \
        tile_async_wait(0);                                                        \
        T *ob = out + (size_t)tile_block(0) * 2 * n;                               \
        for (int i = tile_thread(); i < n; i += TILE_BLOCK_DIM) {                  \
            ob[i] = s.v[i];                                                        \
            ob[n + i] = s1.v[i];                                                   \
        }                                                                          \
        if (tile_thread() == 0) paths[tile_block(0)] = p;                          \
    }

/* X(name, T, BD, ndim, dims...) */
#define EQ_CASES(X)                                                                \
    X(eq_f32_256, float, 64, 1, 256)                                               \
    X(eq_f32_37, float, 32, 1, 37)                                                 \
    X(eq_f32_1x64, float, 64, 2, 1, 64)                                            \
    X(eq_f32_8x64, float, 128, 2, 8, 64)                                           \
    X(eq_f32_7x9, float, 64, 2, 7, 9)                                              \
    X(eq_f32_4x4, float, 32, 2, 4, 4)                                              \
    X(eq_f32_238, float, 32, 3, 2, 3, 8)                                           \
    X(eq_f32_2224, float, 64, 4, 2, 2, 2, 4)                                       \
    X(eq_f64_33, double, 32, 1, 33)                                                \
    X(eq_f64_16x16, double, 64, 2, 16, 16)                                         \
    X(eq_f64_325, double, 96, 3, 3, 2, 5)                                          \
    X(eq_i64_2315, int64_t, 32, 4, 2, 3, 1, 5)                                     \
    X(eq_vec3f_33, tile_vec3f, 32, 1, 33)                                          \
    X(eq_vec3f_5x4, tile_vec3f, 64, 2, 5, 4)                                       \
    X(eq_vec3f_4x16, tile_vec3f, 64, 2, 4, 16)                                     \
    X(eq_mat33f_7, tile_mat33f, 32, 1, 7)                                          \
    X(eq_mat33f_4x4, tile_mat33f, 32, 2, 4, 4)                                     \
    X(eq_rgb8_5x7, rgb8, 32, 2, 5, 7)                                              \
    X(eq_rgb8_4x16, rgb8, 64, 2, 4, 16)
#define DEF_EQ_X(name, T, BD, nd, ...) DEF_EQ(name, T, BD, __VA_ARGS__)
EQ_CASES(DEF_EQ_X)

typedef int (*eq_launch_fn)(tile_exec ex, int nblocks, tile_array a, const int64_t *offs, int opts, void *out,
                            int *paths);
#define DEF_EQ_LAUNCH(name, T, BD, nd, ...)                                        \
    static int launch_##name(tile_exec ex, int nblocks, tile_array a, const int64_t *offs, int opts, void *out, \
                             int *paths) {                                         \
        return tile_launch(ex, name, tile_grid1(nblocks), BD, a, offs, opts, (T *)out, paths); \
    }
EQ_CASES(DEF_EQ_LAUNCH)

typedef struct eq_case {
    const char *name;
    eq_launch_fn launch;
    int esize, nd, d[4];
} eq_case;
#define EQ_ROW(name, T, BD, nd, ...) {#name, launch_##name, (int)sizeof(T), nd, {TILE__PAD4(__VA_ARGS__)}},
static const eq_case eq_cases[] = {EQ_CASES(EQ_ROW)};

enum { ARR_DENSE, ARR_PADDED, ARR_MISALIGNED, ARR_ROWVIEW, ARR_STRIDE2, ARR_KINDS };
static const char *arr_names[ARR_KINDS] = {"dense", "padded rows", "misaligned base", "row view", "last stride 2"};
enum { DATA_BYTES = 1 << 17 };

/* the array of kind `kind` for case c over the buffer at `buf`; false if none */
static int make_array(const eq_case *c, int kind, const unsigned char *buf, tile_array *out) {
    const int nd = c->nd;
    int64_t sh[4] = {1, 1, 1, 1}, st[4] = {0, 0, 0, 0};
    for (int k = 0; k < nd; ++k) sh[k] = c->d[k] + (k == nd - 1 ? 3 : 2);
    int64_t s = kind == ARR_STRIDE2 ? 2 : 1;
    for (int k = nd - 1; k >= 0; --k) {
        st[k] = s;
        s *= sh[k] + (kind == ARR_PADDED && k == nd - 1 ? 3 : 0);
    }
    const unsigned char *base = buf + (kind == ARR_MISALIGNED ? c->esize : 0);
    if (kind == ARR_ROWVIEW) {
        if (nd == 4) return 0;
        int64_t sh2[4], st2[4];
        sh2[0] = 3;
        st2[0] = s;
        for (int k = 0; k < nd; ++k) sh2[k + 1] = sh[k], st2[k + 1] = st[k];
        *out = tile_array_row(tile_array_strided(base, nd + 1, sh2, st2), 1);
    } else {
        *out = tile_array_strided(base, nd, sh, st);
    }
    if ((size_t)((out->base_off + 3 * s) * c->esize + c->esize) > DATA_BYTES) die(__FILE__, __LINE__, "data buffer too small");
    return 1;
}

static void run_eq_case(const target *t, const eq_case *c, const unsigned char *hdata, unsigned char *ddata) {
    int n = 1;
    for (int k = 0; k < 4; ++k) n *= c->d[k];
    const int nd = c->nd;
    const int vec_ct = nd >= 2 && (c->d[nd - 1] * c->esize) % 16 == 0;
    enum { MAXB = 7 * 7 * 7 * 7 };
    int64_t *hoffs = HALLOC(int64_t, 4 * MAXB);
    int64_t *doffs = DALLOC(int64_t, 4 * MAXB);
    int *hpaths = HALLOC(int, MAXB), *dpaths = DALLOC(int, MAXB);
    unsigned char *hout = HALLOC(unsigned char, (size_t)MAXB * 2 * n * c->esize);
    unsigned char *dout = DALLOC(unsigned char, (size_t)MAXB * 2 * n * c->esize);
    for (int kind = 0; kind < ARR_KINDS; ++kind) {
        tile_array ha, da;
        if (!make_array(c, kind, hdata, &ha)) continue;
        make_array(c, kind, ddata, &da);
        /* offsets per dim: outside before, overhanging before, 0, 1, flush
         * with the end, overhanging after, outside after (fewer with --quick) */
        int64_t cand[4][7];
        int ncand[4];
        for (int k = 0; k < 4; ++k) {
            if (k >= nd) {
                cand[k][0] = 0;
                ncand[k] = 1;
                continue;
            }
            const int64_t dk = c->d[k], ak = ha.shape[k];
            const int64_t full[7] = {-dk - 1, -1, 0, 1, ak - dk, ak - dk + 1, ak + 1};
            const int64_t quick[3] = {-1, 1, ak - dk + 1};
            ncand[k] = g_quick ? 3 : 7;
            for (int q = 0; q < ncand[k]; ++q) cand[k][q] = g_quick ? quick[q] : full[q];
        }
        int nb = 0;
        for (int i0 = 0; i0 < ncand[0]; ++i0)
            for (int i1 = 0; i1 < ncand[1]; ++i1)
                for (int i2 = 0; i2 < ncand[2]; ++i2)
                    for (int i3 = 0; i3 < ncand[3]; ++i3) {
                        int64_t *o = hoffs + 4 * nb++;
                        o[0] = cand[0][i0], o[1] = cand[1][i1], o[2] = cand[2][i2], o[3] = cand[3][i3];
                    }
        UP(doffs, hoffs, (size_t)nb * 4 * sizeof(int64_t));
        static const int opts[4] = {TILE_ASYNC_AUTO, TILE_ASYNC_NO_BULK, TILE_ASYNC_PER_ELEMENT,
                                    TILE_ASYNC_SYNCHRONOUS};
        for (int q = 0; q < 4; ++q) {
            const size_t obytes = (size_t)nb * 2 * n * c->esize;
            POISON(dout, obytes, POISON_I);
            POISON(dpaths, (size_t)nb * sizeof(int), POISON_I);
            RUN_OK(c->launch(t->ex, nb, da, doffs, opts[q], dout, dpaths));
            DOWN(hout, dout, obytes);
            DOWN(hpaths, dpaths, (size_t)nb * sizeof(int));
            long bad = 0;
            for (int b = 0; b < nb; ++b) {
                const int64_t *o = hoffs + 4 * b;
                char what[200];
                snprintf(what, sizeof(what), "%s, %s array, offset (%lld %lld %lld %lld), opts %#x", c->name,
                         arr_names[kind], (long long)o[0], (long long)o[1], (long long)o[2], (long long)o[3],
                         opts[q]);
                const int want = t->gpu ? expect_path(da, o, vec_ct, 1, nd, c->d, c->esize, 0, opts[q], 1)
                                        : TILE_ASYNC_SYNC;
                check_path(hpaths[b], want, what);
                for (int L = 0; L < n; ++L) {
                    const int ti[4] = {L / (c->d[1] * c->d[2] * c->d[3]), L / (c->d[2] * c->d[3]) % c->d[1],
                                       L / c->d[3] % c->d[2], L % c->d[3]};
                    const unsigned char *e = ref_elem(&ha, o, ti, c->esize);
                    for (int w = 0; w < 2; ++w) {
                        const unsigned char *got = hout + (((size_t)b * 2 + w) * n + L) * c->esize;
                        int ok = 1;
                        for (int y = 0; y < c->esize; ++y) ok &= got[y] == (e ? e[y] : 0);
                        ++g_checks;
                        if (!ok) {
                            if (bad++ < 4)
                                fail_at(__FILE__, __LINE__, "%s: %s element %d (path %s) differs from the host %s",
                                        what, w ? "tile_load" : "tile_load_async", L, path_name(hpaths[b]),
                                        e ? "array" : "zero");
                            else ++g_failed;
                        }
                    }
                }
            }
        }
    }
    free(hoffs);
    free(hpaths);
    free(hout);
    tile_free(t->ex, doffs);
    tile_free(t->ex, dpaths);
    tile_free(t->ex, dout);
}

static void fill_data(unsigned char *h) {
    for (size_t i = 0; i < DATA_BYTES; ++i) h[i] = (unsigned char)(1 + (tile_hash32(7, (uint32_t)i) % 255u)); /* never 0 */
}

static void test_equal(const target *t) {
    g_test = "tile_load_async == tile_load";
    unsigned char *hdata = HALLOC(unsigned char, DATA_BYTES), *ddata = DALLOC(unsigned char, DATA_BYTES);
    fill_data(hdata);
    UP(ddata, hdata, DATA_BYTES);
    for (size_t i = 0; i < sizeof(eq_cases) / sizeof(eq_cases[0]); ++i) run_eq_case(t, &eq_cases[i], hdata, ddata);
    free(hdata);
    tile_free(t->ex, ddata);
}

/* ========================================================================
 * 2. destinations that are views of a shared tile
 * ======================================================================== */
/* parent (8, W) f32; v1 = rows vr .. vr+2, all columns (contiguous, at
 * vr * W * 4 bytes); v2 = (3, 6) at (vr, 2) (not contiguous). Both loaded
 * from `a` at (o0, o1); out = [v1 | v2]; paths = {v1's, v2's, changed
 * elements of the parent outside the views}. W = 12: 48-byte rows (vector
 * tier, bulk copies from a dense array); W = 10: 40-byte rows (runs of 8- or
 * 4-byte pieces). */
#define VR 8
#define DEF_VIEW(name, W)                                                          \
    TILE_KERNEL_SMEM(name, 64, TILE_SMEM_BYTES(float, VR, W), tile_array a, int vr, int o0, int o1, int opts, \
                     float *out, int *paths) {                                     \
        tile_shared(float, par, VR, W);                                            \
        for (int i = tile_thread(); i < VR * W; i += TILE_BLOCK_DIM) par.v[i] = -1.0f; \
        tile_view(v1, par, (3, W), (vr, 0));                                       \
        tile_view(v2, par, (3, 6), (vr, 2));                                       \
        const int p1 = tile_load_async_ex(v1, a, opts, o0, o1);                    \
        tile_async_commit();                                                       \
        tile_async_wait(0);                                                        \
        for (int i = tile_thread(); i < 3 * W; i += TILE_BLOCK_DIM) out[i] = tile_get(v1, i / W, i % W); \
        const int p2 = tile_load_async_ex(v2, a, opts, o0, o1);                    \
        tile_async_wait_all();                                                     \
        for (int i = tile_thread(); i < 18; i += TILE_BLOCK_DIM) out[3 * W + i] = tile_get(v2, i / 6, i % 6); \
        int others = 0; /* the rest of the parent is untouched */                  \
        for (int i = 0; i < VR * W; ++i) {                                         \
            const int r = i / W;                                                   \
            if (r < vr || r >= vr + 3) others += par.v[i] != -1.0f;                \
        }                                                                          \
        if (tile_thread() == 0) {                                                  \
            paths[0] = p1;                                                         \
            paths[1] = p2;                                                         \
            paths[2] = others;                                                     \
        }                                                                          \
    }
DEF_VIEW(view_w10, 10)
DEF_VIEW(view_w12, 12)

static void test_view_dest(const target *t) {
    g_test = "views as destinations";
    enum { R = 9, LDMAX = 14, NOUT = 3 * 12 + 18 };
    float ha[R * LDMAX];
    for (int i = 0; i < R * LDMAX; ++i) ha[i] = 1.0f + (float)i;
    float *da = DALLOC(float, R * LDMAX), *dout = DALLOC(float, NOUT);
    int *dpaths = DALLOC(int, 3);
    UP(da, ha, sizeof(ha));
    static const int opts[3] = {TILE_ASYNC_AUTO, TILE_ASYNC_NO_BULK, TILE_ASYNC_PER_ELEMENT};
    for (int W = 10; W <= 12; W += 2)
        for (int padded = 0; padded < 2; ++padded)
            for (int vr = 0; vr <= VR - 3; ++vr)
                for (int oc = 0; oc < 4; ++oc)
                    for (int q = 0; q < 3; ++q) {
                        const int ld = W + 2 * padded, o0 = oc == 3 ? R - 2 : 2 * oc, o1 = oc == 2 ? 1 : 0;
                        const int64_t sh[2] = {R, W}, st[2] = {ld, 1};
                        const tile_array dA = tile_array_strided(da, 2, sh, st);
                        float hout[NOUT];
                        int hp[3];
                        POISON(dout, sizeof(hout), POISON_I);
                        if (W == 10)
                            RUN_OK(tile_launch(t->ex, view_w10, tile_grid1(1), 64, dA, vr, o0, o1, opts[q], dout, dpaths));
                        else
                            RUN_OK(tile_launch(t->ex, view_w12, tile_grid1(1), 64, dA, vr, o0, o1, opts[q], dout, dpaths));
                        DOWN(hout, dout, sizeof(hout));
                        DOWN(hp, dpaths, sizeof(hp));
                        char what[160];
                        snprintf(what, sizeof(what), "parent (8, %d), view at row %d, %s array, offset (%d %d), opts %#x",
                                 W, vr, padded ? "padded" : "dense", o0, o1, opts[q]);
                        const int64_t o[4] = {o0, o1, 0, 0};
                        const int d1[4] = {3, W, 1, 1}, d2[4] = {3, 6, 1, 1};
                        const int vec1 = (W * 4) % 16 == 0;
                        const uintptr_t sa1 = (uintptr_t)(vr * W * 4), sa2 = (uintptr_t)((vr * W + 2) * 4);
                        check_path(hp[0], t->gpu ? expect_path(dA, o, vec1, 1, 2, d1, 4, sa1, opts[q], 1) : TILE_ASYNC_SYNC,
                                   what);
                        check_path(hp[1], t->gpu ? expect_path(dA, o, 0, 0, 2, d2, 4, sa2, opts[q], 1) : TILE_ASYNC_SYNC,
                                   what);
                        CHECK(hp[2] == 0, "%s: %d parent elements outside the views changed", what, hp[2]);
                        for (int i = 0; i < 3 * W + 18; ++i) {
                            const int v2 = i >= 3 * W, r = v2 ? (i - 3 * W) / 6 : i / W, c = v2 ? (i - 3 * W) % 6 : i % W;
                            const int g0 = o0 + r, g1 = o1 + c;
                            const float want = g0 < R && g1 < W ? ha[g0 * ld + g1] : 0.0f;
                            CHECK(memcmp(&hout[i], &want, 4) == 0, "%s: %s element (%d, %d) = %g, expected %g", what,
                                  v2 ? "non-contiguous view" : "row view", r, c, (double)hout[i], (double)want);
                        }
                    }
    tile_free(t->ex, da);
    tile_free(t->ex, dout);
    tile_free(t->ex, dpaths);
}

/* ========================================================================
 * 3. pipelined loops
 * ======================================================================== */
/* Rows of A (R x C of T, row stride ld) stream through NST stages of (RT, C)
 * shared tiles with NST - 1 chunks in flight; block b handles chunks b,
 * b + nblocks, ...; out gets each row reversed (out[r][c] = A[r][C-1-c],
 * read with tile_get: values copied by other threads); paths[chunk] = path. */
#define DEF_PIPE(name, T, BD, NST, RT, C)                                          \
    TILE_KERNEL_SMEM(name, BD, NST * TILE_SMEM_BYTES(T, RT, C), const T *A, int R, int ld, int opts, T *out, \
                     int *paths) {                                                 \
        const int64_t sh[2] = {R, C}, st[2] = {ld, 1};                             \
        const tile_array a = tile_array_strided(A, 2, sh, st);                     \
        const int nch = (R + RT - 1) / RT, nb = tile_grid_dim(0), b = tile_block(0); \
        const int mine = b < nch ? (nch - b + nb - 1) / nb : 0; /* chunks b, b + nb, ... */ \
        tile_shared_stages(T, stg, NST, RT, C);                                    \
        for (int j = 0; j < NST - 1; ++j) {                                        \
            tile_stage(s, stg, j);                                                 \
            if (j < mine) {                                                        \
                const int p = tile_load_async_ex(s, a, opts, (b + j * nb) * RT, 0); \
                if (tile_thread() == 0) paths[b + j * nb] = p;                     \
            }                                                                      \
            tile_async_commit();                                                   \
        }                                                                          \
        for (int j = 0; j < mine; ++j) {                                           \
            const int jn = j + NST - 1;                                            \
            tile_stage(nx, stg, jn % NST);                                         \
            if (jn < mine) {                                                       \
                const int p = tile_load_async_ex(nx, a, opts, (b + jn * nb) * RT, 0); \
                if (tile_thread() == 0) paths[b + jn * nb] = p;                    \
            }                                                                      \
            tile_async_commit();                                                   \
            tile_async_wait(NST - 1);                                              \
            tile_stage(cur, stg, j % NST);                                         \
            const int row0 = (b + j * nb) * RT;                                    \
            for (int i = tile_thread(); i < RT * C; i += TILE_BLOCK_DIM) {         \
                const int r = row0 + i / C, col = i % C;                           \
                if (r < R) out[(size_t)r * C + col] = tile_get(cur, i / C, C - 1 - col); \
            }                                                                      \
        }                                                                          \
        tile_async_wait_all();                                                     \
    }
DEF_PIPE(pipe_f32, float, 64, 2, 1, 64)
DEF_PIPE(pipe_f32x4, float, 128, 3, 4, 64)
DEF_PIPE(pipe_f64, double, 64, 2, 3, 20)
DEF_PIPE(pipe_vec3f, tile_vec3f, 96, 3, 2, 16)
DEF_PIPE(pipe_mat33f, tile_mat33f, 64, 2, 2, 4)

/* through a window: chunks of 2 rows of 64 f32, one block */
TILE_KERNEL_SMEM(pipe_win, 64, 2 * TILE_SMEM_BYTES(float, 2, 64), const float *A, int R, int ld, int opts,
                 float *out, int *paths) {
    const int64_t sh[2] = {R, 64}, st[2] = {ld, 1};
    tile_window w = tile_window_at(tile_array_strided(A, 2, sh, st), 0, 0);
    const int nch = (R + 1) / 2;
    tile_shared_stages(float, stg, 2, 2, 64);
    int p = tile_load_async_window_ex(stg, w, opts);
    if (tile_thread() == 0) paths[0] = p;
    tile_async_commit();
    for (int j = 0; j < nch; ++j) {
        tile_window_move(&w, 2, 0);
        tile_stage(nx, stg, (j + 1) & 1);
        if (j + 1 < nch) {
            p = tile_load_async_window_ex(nx, w, opts);
            if (tile_thread() == 0) paths[j + 1] = p;
        }
        tile_async_commit();
        tile_async_wait(1);
        tile_stage(cur, stg, j & 1);
        for (int i = tile_thread(); i < 2 * 64; i += TILE_BLOCK_DIM) {
            const int r = 2 * j + i / 64, col = i % 64;
            if (r < R) out[(size_t)r * 64 + col] = tile_get(cur, i / 64, 63 - col);
        }
    }
    tile_async_wait_all();
}

typedef struct pipe_case {
    const char *name;
    int esize, bd, nst, rt, c;
} pipe_case;

#define PIPE_LAUNCH(kern, T, nblocks)                                              \
    tile_launch(t->ex, kern, tile_grid1(nblocks), bd, (const T *)(const void *)da, R, ld, opts[q], (T *)(void *)dout, dpaths)

static void test_pipeline(const target *t) {
    g_test = "pipelined loops";
    static const pipe_case cases[6] = {{"f32 1x64, 2 stages", 4, 64, 2, 1, 64},  {"f32 4x64, 3 stages", 4, 128, 3, 4, 64},
                                       {"f64 3x20, 2 stages", 8, 64, 2, 3, 20},  {"vec3f 2x16, 3 stages", 12, 96, 3, 2, 16},
                                       {"mat33f 2x4, 2 stages", 36, 64, 2, 2, 4}, {"f32 2x64 window", 4, 64, 2, 2, 64}};
    static const int opts[3] = {TILE_ASYNC_AUTO, TILE_ASYNC_NO_BULK, TILE_ASYNC_PER_ELEMENT};
    const int rows[] = {1, 2, 7, 64, 67};
    enum { RMAX = 67, PADMAX = 8 };
    const size_t maxbytes = (size_t)RMAX * (64 + PADMAX) * 36 + 64;
    unsigned char *hdata = HALLOC(unsigned char, maxbytes + 64), *hout = HALLOC(unsigned char, maxbytes);
    unsigned char *ddata = DALLOC(unsigned char, maxbytes + 64), *dout = DALLOC(unsigned char, maxbytes);
    int *dpaths = DALLOC(int, RMAX), hpaths[RMAX];
    for (size_t i = 0; i < maxbytes + 64; ++i) hdata[i] = (unsigned char)(1 + tile_hash32(9, (uint32_t)i) % 255u);
    UP(ddata, hdata, maxbytes + 64);
    for (int ci = 0; ci < 6; ++ci) {
        const pipe_case *pc = &cases[ci];
        const int bd = pc->bd, C = pc->c, es = pc->esize;
        for (int layout = 0; layout < 3; ++layout) /* dense, padded rows (+4 elements), base + 1 element */
            for (size_t ri = 0; ri < sizeof(rows) / sizeof(rows[0]); ++ri)
                for (int q = 0; q < 3; ++q) {
                    if (g_quick && (ri % 2 || q == 1)) continue;
                    const int R = rows[ri], ld = C + (layout == 1 ? 4 : 0), nch = (R + pc->rt - 1) / pc->rt;
                    const size_t shift = layout == 2 ? (size_t)es : 0;
                    const unsigned char *hA = hdata + shift;
                    unsigned char *da = ddata + shift;
                    const int nblocks = ci == 5 ? 1 : 3;
                    const size_t obytes = (size_t)R * C * es;
                    POISON(dout, maxbytes, POISON_I);
                    POISON(dpaths, sizeof(hpaths), POISON_I);
                    int e = TILE_OK;
                    switch (ci) {
                    case 0: e = PIPE_LAUNCH(pipe_f32, float, nblocks); break;
                    case 1: e = PIPE_LAUNCH(pipe_f32x4, float, nblocks); break;
                    case 2: e = PIPE_LAUNCH(pipe_f64, double, nblocks); break;
                    case 3: e = PIPE_LAUNCH(pipe_vec3f, tile_vec3f, nblocks); break;
                    case 4: e = PIPE_LAUNCH(pipe_mat33f, tile_mat33f, nblocks); break;
                    default: e = PIPE_LAUNCH(pipe_win, float, 1); break;
                    }
                    char what[160];
                    snprintf(what, sizeof(what), "%s, %d rows, %s, opts %#x", pc->name, R,
                             layout == 0 ? "dense" : layout == 1 ? "padded rows" : "base + 1 element", opts[q]);
                    CHECK(e == TILE_OK, "%s: launch -> %s%s", what, tile_error_string(e), cuda_detail(e));
                    SYNC_OK();
                    DOWN(hout, dout, maxbytes);
                    DOWN(hpaths, dpaths, sizeof(hpaths));
                    long bad = 0;
                    for (int r = 0; r < R; ++r)
                        for (int c = 0; c < C; ++c) {
                            ++g_checks;
                            if (memcmp(hout + ((size_t)r * C + c) * es, hA + ((size_t)r * ld + C - 1 - c) * es, es)) {
                                if (bad++ < 4) fail_at(__FILE__, __LINE__, "%s: row %d column %d differs", what, r, c);
                                else ++g_failed;
                            }
                        }
                    int untouched = 1;
                    for (size_t i = obytes; i < maxbytes; ++i) untouched &= hout[i] == 0xAB;
                    CHECK(untouched, "%s: bytes written past the last row", what);
                    /* every chunk's load took the expected path */
                    const int64_t shp[2] = {R, C}, stp[2] = {ld, 1};
                    const tile_array dA = tile_array_strided(da, 2, shp, stp);
                    const int d[4] = {pc->rt, C, 1, 1};
                    const int vec_ct = (C * es) % 16 == 0;
                    for (int k = 0; k < nch; ++k) {
                        const int64_t o[4] = {(int64_t)k * pc->rt, 0, 0, 0};
                        /* with NST - 1 groups in flight the ring never fills: a slot is free */
                        const int want = t->gpu ? expect_path(dA, o, vec_ct, 1, 2, d, es, 0, opts[q], 1) : TILE_ASYNC_SYNC;
                        char w2[200];
                        snprintf(w2, sizeof(w2), "%s, chunk %d", what, k);
                        check_path(hpaths[k], want, w2);
                    }
                }
    }
    free(hdata);
    free(hout);
    tile_free(t->ex, ddata);
    tile_free(t->ex, dout);
    tile_free(t->ex, dpaths);
}

/* ========================================================================
 * 4. the bulk-copy ring
 * ======================================================================== */
/* Three rounds; each poisons ten (1, 64) f32 stages, loads row round*10 + k
 * into stage k with one group per load, then wait(7) -> stages 0..2 are
 * read, wait(3) -> 3..6, wait(0) -> 7..9 (reversed, from other threads).
 * Round 0 loads with TILE_ASYNC_AUTO, round 1 makes every third load
 * NO_BULK, round 2 every second PER_ELEMENT (groups without a bulk copy
 * between bulk groups). Then one group with stage 0 and y (bulk
 * candidates), z (NO_BULK) and wt (7x9, overhanging: per element).
 * paths: 10 per round, then 4 per round. */
#define RING_OPTS(round, k)                                                        \
    ((round) == 0 ? TILE_ASYNC_AUTO                                                \
     : (round) == 1 ? ((k) % 3 == 2 ? TILE_ASYNC_NO_BULK : TILE_ASYNC_AUTO)        \
                    : ((k) % 2 ? TILE_ASYNC_PER_ELEMENT : TILE_ASYNC_AUTO))
#define RING_N 10
#define RING_READ(k0, k1)                                                          \
    for (int k = (k0); k <= (k1); ++k) {                                           \
        tile_stage(cur, stg, k);                                                   \
        for (int i = tile_thread(); i < 64; i += TILE_BLOCK_DIM)                   \
            out[(size_t)(round * RING_N + k) * 64 + i] = tile_get(cur, 0, 63 - i); \
    }
TILE_KERNEL_SMEM(ring, 64, RING_N * TILE_SMEM_BYTES(float, 1, 64) + 2 * TILE_SMEM_BYTES(float, 2, 32) +
                               TILE_SMEM_BYTES(float, 7, 9),
                 const float *A, float *out, float *mix, int *paths) {
    const tile_array a = tile_array2(A, 3 * RING_N + 8, 64);
    tile_shared_stages(float, stg, RING_N, 1, 64);
    tile_shared(float, y, 2, 32);
    tile_shared(float, z, 2, 32);
    tile_shared(float, wt, 7, 9);
    for (int round = 0; round < 3; ++round) {
        tile_barrier(); /* the previous round's reads of stage 0 are done */
        for (int i = tile_thread(); i < RING_N * 64; i += TILE_BLOCK_DIM) stg.v[i] = -7.0f; /* poison */
        for (int k = 0; k < RING_N; ++k) {
            tile_stage(s, stg, k);
            const int p = tile_load_async_ex(s, a, RING_OPTS(round, k), round * RING_N + k, 0);
            if (tile_thread() == 0) paths[round * RING_N + k] = p;
            tile_async_commit();
        }
        tile_async_wait(7);
        RING_READ(0, 2)
        tile_async_wait(3);
        RING_READ(3, 6)
        tile_async_wait(0);
        RING_READ(7, 9)
        /* one group mixing paths: stage 0 (bulk), y (bulk: rows 30+round.. as
         * 2x32), z (NO_BULK), wt (7x9 at (round, 60): overhangs) */
        for (int i = tile_thread(); i < 64; i += TILE_BLOCK_DIM) y.v[i] = z.v[i] = -7.0f;
        const tile_array a32 = tile_array2(A, (3 * RING_N + 8) * 2, 32);
        int *pm = paths + 3 * RING_N + 4 * round;
        const int p0 = tile_load_async_ex(stg, a, TILE_ASYNC_AUTO, 30 + round, 0);
        const int p1 = tile_load_async_ex(y, a32, TILE_ASYNC_AUTO, 2 * (31 + round), 0);
        const int p2 = tile_load_async_ex(z, a32, TILE_ASYNC_NO_BULK, 2 * (34 + round), 0);
        const int p3 = tile_load_async_ex(wt, a, TILE_ASYNC_AUTO, 32 + round, 60);
        tile_async_commit();
        tile_async_wait(0);
        if (tile_thread() == 0) pm[0] = p0, pm[1] = p1, pm[2] = p2, pm[3] = p3;
        float *mo = mix + (size_t)round * (64 + 64 + 64 + 63);
        for (int i = tile_thread(); i < 64; i += TILE_BLOCK_DIM) {
            mo[i] = tile_get(stg, 0, 63 - i);
            mo[64 + i] = tile_get(y, 1 - i / 32, 31 - i % 32);
            mo[128 + i] = tile_get(z, 1 - i / 32, 31 - i % 32);
            if (i < 63) mo[192 + i] = tile_get(wt, 6 - i / 9, 8 - i % 9);
        }
    }
}

static void test_ring(const target *t) {
    g_test = "bulk-copy ring and mixed groups";
    enum { AR = 3 * RING_N + 8, NOUT = 3 * RING_N * 64, NMIX = 3 * (64 + 64 + 64 + 63), NP = 3 * RING_N + 12 };
    float *ha = HALLOC(float, AR * 64), *hout = HALLOC(float, NOUT), *hmix = HALLOC(float, NMIX);
    int hp[NP];
    for (int i = 0; i < AR * 64; ++i) ha[i] = 0.5f + (float)i;
    float *da = DALLOC(float, AR * 64), *dout = DALLOC(float, NOUT), *dmix = DALLOC(float, NMIX);
    int *dp = DALLOC(int, NP);
    UP(da, ha, AR * 64 * sizeof(float));
    POISON(dout, NOUT * sizeof(float), POISON_I);
    POISON(dmix, NMIX * sizeof(float), POISON_I);
    POISON(dp, sizeof(hp), POISON_I);
    RUN_OK(tile_launch(t->ex, ring, tile_grid1(2), 64, da, dout, dmix, dp));
    DOWN(hout, dout, NOUT * sizeof(float));
    DOWN(hmix, dmix, NMIX * sizeof(float));
    DOWN(hp, dp, sizeof(hp));
    long bad = 0;
    for (int r = 0; r < 3 * RING_N; ++r)
        for (int i = 0; i < 64; ++i) {
            ++g_checks;
            if (hout[r * 64 + i] != ha[r * 64 + 63 - i]) {
                if (bad++ < 6)
                    fail_at(__FILE__, __LINE__, "round %d stage %d element %d = %g, expected %g (%s)", r / RING_N,
                            r % RING_N, i, (double)hout[r * 64 + i], (double)ha[r * 64 + 63 - i],
                            hout[r * 64 + i] == -7.0f ? "the poison: the wait did not wait" : "wrong data");
                else ++g_failed;
            }
        }
    for (int round = 0; round < 3; ++round) {
        const float *mo = hmix + round * (64 + 64 + 64 + 63);
        for (int i = 0; i < 64; ++i) {
            CHECK(mo[i] == ha[(30 + round) * 64 + 63 - i], "mixed group round %d: stage 0 element %d = %g", round, i,
                  (double)mo[i]);
            /* y and z are (2, 32) tiles of the same data seen as 32-wide rows */
            CHECK(mo[64 + i] == ha[(31 + round) * 64 + 63 - i], "mixed group round %d: y element %d = %g", round, i,
                  (double)mo[64 + i]);
            CHECK(mo[128 + i] == ha[(34 + round) * 64 + 63 - i], "mixed group round %d: z element %d = %g", round, i,
                  (double)mo[128 + i]);
        }
        for (int i = 0; i < 63; ++i) {
            const int r = 6 - i / 9, c = 8 - i % 9, g0 = 32 + round + r, g1 = 60 + c;
            const float want = g0 < AR && g1 < 64 ? ha[g0 * 64 + g1] : 0.0f;
            CHECK(mo[192 + i] == want, "mixed group round %d: wt element (%d, %d) = %g, expected %g", round, r, c,
                  (double)mo[192 + i], (double)want);
        }
    }
    /* paths: AUTO takes bulk copies on sm_90, 16-byte cp.async on sm_80 */
    for (int round = 0; round < 3; ++round)
        for (int k = 0; k < RING_N; ++k) {
            const int o = RING_OPTS(round, k);
            const int want = !t->gpu                        ? TILE_ASYNC_SYNC
                             : o == TILE_ASYNC_PER_ELEMENT ? TILE_ASYNC_ELEM
                             : o == TILE_ASYNC_AUTO && g_arch >= 900 ? TILE_ASYNC_BULK
                                                                    : TILE_ASYNC_VEC16;
            char what[80];
            snprintf(what, sizeof(what), "ring round %d, group %d", round, k);
            check_path(hp[round * RING_N + k], want, what);
        }
    for (int round = 0; round < 3; ++round) {
        const int *pm = hp + 3 * RING_N + 4 * round;
        const int bulk = g_arch >= 900 ? TILE_ASYNC_BULK : TILE_ASYNC_VEC16;
        char what[80];
        snprintf(what, sizeof(what), "mixed group round %d", round);
        check_path(pm[0], t->gpu ? bulk : TILE_ASYNC_SYNC, what);
        check_path(pm[1], t->gpu ? bulk : TILE_ASYNC_SYNC, what);
        check_path(pm[2], t->gpu ? TILE_ASYNC_VEC16 : TILE_ASYNC_SYNC, what);
        check_path(pm[3], t->gpu ? TILE_ASYNC_ELEM : TILE_ASYNC_SYNC, what);
    }
    /* The persistent schedule with one resident block per SM and 4 logical
     * blocks per resident one: each later logical block finds the ring in the
     * phases its predecessor left (33 groups each: odd, so the parities
     * differ) and must read them; every block writes the same results. */
    {
        float *hout2 = HALLOC(float, NOUT), *hmix2 = HALLOC(float, NMIX);
        int hp2[NP], nsm = 1;
        if (t->gpu) cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0);
        POISON(dout, NOUT * sizeof(float), POISON_I);
        POISON(dmix, NMIX * sizeof(float), POISON_I);
        RUN_OK(tile_launch_persistent(tile_exec_persistent(t->ex, 1), ring, tile_grid1(4 * nsm), 64, da, dout, dmix, dp));
        DOWN(hout2, dout, NOUT * sizeof(float));
        DOWN(hmix2, dmix, NMIX * sizeof(float));
        DOWN(hp2, dp, sizeof(hp2));
        CHECK(!memcmp(hout2, hout, NOUT * sizeof(float)), "persistent ring: stage results differ from one block's");
        CHECK(!memcmp(hmix2, hmix, NMIX * sizeof(float)), "persistent ring: mixed-group results differ");
        CHECK(!memcmp(hp2, hp, sizeof(hp)), "persistent ring: copy paths differ");
        free(hout2);
        free(hmix2);
    }
    free(ha);
    free(hout);
    free(hmix);
    tile_free(t->ex, da);
    tile_free(t->ex, dout);
    tile_free(t->ex, dmix);
    tile_free(t->ex, dp);
}

/* ========================================================================
 * main
 * ======================================================================== */
static void run_all(const target *t) {
    gc_target_begin(t);
    memset(g_paths, 0, sizeof(g_paths));
    {
        g_test = "architecture probe";
        int *d = DALLOC(int, 1), h = -1;
        POISON(d, sizeof(int), POISON_I);
        RUN_OK(tile_launch(t->ex, arch_probe, tile_grid1(1), 32, d));
        DOWN(&h, d, sizeof(int));
        tile_free(t->ex, d);
        CHECK(t->gpu ? h >= 800 : h == 0, "device code architecture %d", h);
        g_arch = t->gpu ? h : 0;
        printf("   device code: %s\n", !t->gpu    ? "CPU (synchronous)"
                                      : h >= 900 ? "sm_90+ (bulk copies and cp.async)"
                                      : h >= 800 ? "sm_80+ (cp.async)"
                                                 : "before sm_80 (synchronous)");
    }
    test_equal(t);
    test_view_dest(t);
    test_pipeline(t);
    test_ring(t);
    printf("   paths taken: bulk %ld, vec16 %ld, run %ld, elem %ld, sync %ld\n", g_paths[1], g_paths[2], g_paths[3],
           g_paths[4], g_paths[5]);
    g_test = "paths exercised";
    if (t->gpu && g_arch >= 800) {
        CHECK(g_paths[TILE_ASYNC_VEC16] > 0 && g_paths[TILE_ASYNC_RUN] > 0 && g_paths[TILE_ASYNC_ELEM] > 0 &&
                  g_paths[TILE_ASYNC_SYNC] > 0,
              "every cp.async path and the synchronous fallback ran");
        if (g_arch >= 900) CHECK(g_paths[TILE_ASYNC_BULK] > 0, "the bulk copy ran");
    }
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "async_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
