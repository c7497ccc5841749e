/* Asynchronous tile loads (async.h) on the CPU path: tile_load_async equals
 * tile_load (also out of bounds: zeros, offsets at every edge, strided,
 * misaligned and row-view arrays, f32 / f64 / i64 / vec3f / mat33f and a
 * 3-byte user struct, 1-4 dims, every option); the path decisions the GPU
 * takes (tile__async_pick, a host function) for sm_80 and sm_90; stages of
 * shared tiles; double- and triple-buffered loops with tile_async_wait(n). */
#include "test_util.h"

typedef struct rgb8 {
    unsigned char c[3];
} rgb8;

/* ---- 1. tile_load_async == tile_load ----
 * Kernel: the tile at offset o loaded with tile_load into shared s1 and
 * register r, and with tile_load_async_ex into shared s2 (poisoned first);
 * out = [s1 | s2 | r], path = the path reported. */
#define DEF_EQ(name, T, ...)                                                       \
    TILE_KERNEL_SMEM(name, 32, 2 * TILE_SMEM_BYTES(T, __VA_ARGS__), tile_array a, const int64_t *o, int opts, \
                     T *out, int *path) {                                          \
        const int d[4] = {__VA_ARGS__};                                            \
        tile_shared(T, s1, __VA_ARGS__);                                           \
        tile_shared(T, s2, __VA_ARGS__);                                           \
        tile_reg(T, r, __VA_ARGS__);                                               \
        const int n = tile_size(r);                                                \
        for (int i = tile_thread(); i < n; i += TILE_BLOCK_DIM) memset(&s2.v[i], 0x5a, sizeof(T)); \
        tile_barrier();                                                            \
        tile_load(s1, a, o[0], o[1], o[2], o[3]);                                  \
        const int p = tile_load_async_ex(s2, a, opts, o[0], o[1], o[2], o[3]);     \
        tile_async_commit();                                                       \
        tile_async_wait(0);                                                        \
        tile_load(r, a, o[0], o[1], o[2], o[3]);                                   \
        for (int i = tile_thread(); i < n; i += TILE_BLOCK_DIM) {                  \
            out[i] = s1.v[i];                                                      \
            out[n + i] = s2.v[i];                                                  \
        }                                                                          \
        tile_store(tu_array(out + 2 * n, d, tile_ndim(r)), r, 0, 0, 0, 0);         \
        if (tile_thread() == 0) *path = p;                                         \
    }

/* X(name, T, ndim, dims...) */
#define EQ_CASES(X)                                                                \
    X(eq_f32_64, float, 1, 64)                                                     \
    X(eq_f32_37, float, 1, 37)                                                     \
    X(eq_f32_1x64, float, 2, 1, 64)                                                \
    X(eq_f32_7x9, float, 2, 7, 9)                                                  \
    X(eq_f32_4x4, float, 2, 4, 4)                                                  \
    X(eq_f32_238, float, 3, 2, 3, 8)                                               \
    X(eq_f32_2224, float, 4, 2, 2, 2, 4)                                           \
    X(eq_f64_33, double, 1, 33)                                                    \
    X(eq_f64_4x8, double, 2, 4, 8)                                                 \
    X(eq_f64_325, double, 3, 3, 2, 5)                                              \
    X(eq_i64_2315, int64_t, 4, 2, 3, 1, 5)                                         \
    X(eq_vec3f_16, tile_vec3f, 1, 16)                                              \
    X(eq_vec3f_5x4, tile_vec3f, 2, 5, 4)                                           \
    X(eq_mat33f_7, tile_mat33f, 1, 7)                                              \
    X(eq_mat33f_4x4, tile_mat33f, 2, 4, 4)                                         \
    X(eq_rgb8_5x7, rgb8, 2, 5, 7)                                                  \
    X(eq_rgb8_4x16, rgb8, 2, 4, 16)
#define DEF_EQ_X(name, T, nd, ...) DEF_EQ(name, T, __VA_ARGS__)
EQ_CASES(DEF_EQ_X)

typedef int (*eq_launch_fn)(tile_array a, const int64_t *o, int opts, void *out, int *path);
#define DEF_EQ_LAUNCH(name, T, nd, ...)                                            \
    static int launch_##name(tile_array a, const int64_t *o, int opts, void *out, int *path) { \
        return tile_launch(TILE_CPU, name, tile_grid1(1), 32, a, o, opts, (T *)out, path); \
    }
EQ_CASES(DEF_EQ_LAUNCH)

typedef struct eq_case {
    const char *name;
    eq_launch_fn launch;
    size_t esize;
    int nd;
    int d[4];
} eq_case;
#define EQ_ROW(name, T, nd, ...) {#name, launch_##name, sizeof(T), nd, {TILE__PAD4(__VA_ARGS__)}},
static const eq_case eq_cases[] = {EQ_CASES(EQ_ROW)};

/* element at tile index (i0..i3), or NULL outside the array */
static const unsigned char *ref_elem(const tile_array *a, const int64_t *o, const int *ti, size_t esize) {
    int64_t off = a->base_off;
    for (int k = 0; k < 4; ++k) {
        int64_t g = o[k] + ti[k];
        if (g < 0 || g >= a->shape[k]) return NULL;
        off += g * a->stride[k];
    }
    return (const unsigned char *)a->ptr + off * (int64_t)esize;
}

/* array kinds: dense, padded rows, misaligned base (+1 element), a row view
 * of a bigger array (base_off), a non-unit last stride */
enum { ARR_DENSE, ARR_PADDED, ARR_MISALIGNED, ARR_ROWVIEW, ARR_STRIDE2, ARR_KINDS };
static const char *arr_names[ARR_KINDS] = {"dense", "padded rows", "misaligned base", "row view", "last stride 2"};

static long eq_launches, eq_elems;
static void run_eq_case(const eq_case *c) {
    static unsigned char buf[1 << 16] __attribute__((aligned(64)));
    static unsigned char out[3 * 4096] __attribute__((aligned(64)));
    for (size_t i = 0; i < sizeof(buf); ++i) buf[i] = (unsigned char)(1 + (i * 131 + i / 7) % 251); /* never 0 */
    int n = 1;
    for (int k = 0; k < 4; ++k) n *= c->d[k];
    assert_true(3 * (size_t)n * c->esize <= sizeof(out));
    const int nd = c->nd;
    for (int kind = 0; kind < ARR_KINDS; ++kind) {
        /* array extents: the tile's plus 3 in the last dim, plus 2 elsewhere */
        int64_t sh[4] = {1, 1, 1, 1}, st[4] = {0, 0, 0, 0};
        for (int k = 0; k < nd; ++k) sh[k] = c->d[k] + (k == nd - 1 ? 3 : 2);
        int64_t s = kind == ARR_STRIDE2 ? 2 : 1;
        for (int k = nd - 1; k >= 0; --k) {
            st[k] = s;
            s *= sh[k] + (kind == ARR_PADDED && k == nd - 1 ? 3 : 0);
        }
        const unsigned char *base = buf + (kind == ARR_MISALIGNED ? c->esize : 0);
        tile_array a;
        if (kind == ARR_ROWVIEW) {
            /* row 1 of an array with one more leading dim of 3 */
            int64_t sh2[5], st2[5];
            sh2[0] = 3;
            st2[0] = s;
            for (int k = 0; k < nd; ++k) sh2[k + 1] = sh[k], st2[k + 1] = st[k];
            if (nd == 4) continue; /* a 5-dim parent does not exist */
            tile_array p = tile_array_strided(base, nd + 1, sh2, st2);
            a = tile_array_row(p, 1);
        } else {
            a = tile_array_strided(base, nd, sh, st);
        }
        assert_true((size_t)((a.base_off + 3 * s) * (int64_t)c->esize) + c->esize <= sizeof(buf));
        /* offsets per dim: fully outside before, overhanging before, 0, 1,
         * flush with the end, overhanging after, fully outside after */
        int64_t cand[4][7];
        int ncand[4];
        for (int k = 0; k < 4; ++k) {
            if (k >= nd) {
                cand[k][0] = 0;
                ncand[k] = 1;
                continue;
            }
            const int64_t dk = c->d[k], ak = a.shape[k];
            const int64_t v[7] = {-dk - 1, -1, 0, 1, ak - dk, ak - dk + 1, ak + 1};
            for (int q = 0; q < 7; ++q) cand[k][q] = v[q];
            ncand[k] = 7;
        }
        for (int i0 = 0; i0 < ncand[0]; ++i0)
            for (int i1 = 0; i1 < ncand[1]; ++i1)
                for (int i2 = 0; i2 < ncand[2]; ++i2)
                    for (int i3 = 0; i3 < ncand[3]; ++i3) {
                        const int64_t o[4] = {cand[0][i0], cand[1][i1], cand[2][i2], cand[3][i3]};
                        static const int opts[4] = {TILE_ASYNC_AUTO, TILE_ASYNC_NO_BULK, TILE_ASYNC_PER_ELEMENT,
                                                    TILE_ASYNC_SYNCHRONOUS};
                        for (int q = 0; q < 4; ++q) {
                            int path = -1;
                            memset(out, 0xee, sizeof(out));
                            assert_tile_ok(c->launch(a, o, opts[q], out, &path));
                            ++eq_launches;
                            assert_int_equal(path, TILE_ASYNC_SYNC);
                            for (int L = 0; L < n; ++L) {
                                const int ti[4] = {L / (c->d[1] * c->d[2] * c->d[3]), L / (c->d[2] * c->d[3]) % c->d[1],
                                                   L / c->d[3] % c->d[2], L % c->d[3]};
                                const unsigned char *e = ref_elem(&a, o, ti, c->esize);
                                ++eq_elems;
                                for (int w = 0; w < 3; ++w) {
                                    const unsigned char *got = out + ((size_t)w * n + L) * c->esize;
                                    int ok = 1;
                                    for (size_t b = 0; b < c->esize; ++b) ok &= got[b] == (e ? e[b] : 0);
                                    if (!ok) {
                                        print_error("%s, %s array, offset (%lld %lld %lld %lld), opts %#x: %s element "
                                                    "%d differs from the reference\n",
                                                    c->name, arr_names[kind], (long long)o[0], (long long)o[1],
                                                    (long long)o[2], (long long)o[3], opts[q],
                                                    w == 0   ? "tile_load shared"
                                                    : w == 1 ? "tile_load_async"
                                                             : "tile_load register",
                                                    L);
                                        fail();
                                    }
                                }
                            }
                        }
                    }
    }
}

static void test_async_equals_load(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(eq_cases) / sizeof(eq_cases[0]); ++i) run_eq_case(&eq_cases[i]);
    assert_true(eq_launches > 40000); /* every case ran */
    assert_true(eq_elems > 1000000);
}

/* ---- 2. the GPU's decisions (tile__async_pick is a host function too) ---- */
static int pick(tile_array a, const int64_t *o, int vec_ct, int contig, int nd, const int *d, int esize, uintptr_t saddr,
                int arch, int opts, int bulk_ok) {
    int64_t base = a.base_off;
    for (int k = 0; k < 4; ++k) base += o[k] * a.stride[k];
    const int in = tile__inside(&a, o, d[0], d[1], d[2], d[3]);
    return tile__async_pick(&a, base, in, vec_ct, contig, nd, d[1], d[2], d[3], esize, d[0] * d[1] * d[2] * d[3],
                            saddr, arch, opts, bulk_ok);
}

static void test_async_pick(void **state) {
    (void)state;
    static float f[100 * 72] __attribute__((aligned(64)));
    const int64_t z[4] = {0, 0, 0, 0};
    /* f32 (8, 64) tiles: 256-byte rows, vector-tier compatible (vec_ct 1) */
    {
        const int d[4] = {8, 64, 1, 1};
        const tile_array dense = tile_array2(f, 100, 64);
        const int64_t o[4] = {8, 0, 0, 0};
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 0, 900, 0, 1), TILE_ASYNC_BULK);
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 0, 800, 0, 1), TILE_ASYNC_VEC16);
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 0, 900, TILE_ASYNC_NO_BULK, 1), TILE_ASYNC_VEC16);
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 0, 900, 0, 0), TILE_ASYNC_VEC16); /* no free slot */
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 0, 900, TILE_ASYNC_PER_ELEMENT, 1), TILE_ASYNC_ELEM);
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 0, 900, TILE_ASYNC_SYNCHRONOUS, 1), TILE_ASYNC_SYNC);
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 0, 750, 0, 1), TILE_ASYNC_SYNC);
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 0, 0, 0, 1), TILE_ASYNC_SYNC);
        /* destination 4 bytes off 16: the run in 4-byte pieces */
        assert_int_equal(pick(dense, o, 1, 1, 2, d, 4, 4, 900, 0, 1), TILE_ASYNC_RUN);
        /* a destination that is not contiguous (a view of a wider tile) */
        assert_int_equal(pick(dense, o, 0, 0, 2, d, 4, 0, 900, 0, 1), TILE_ASYNC_ELEM);
        /* wider array: rows are not the whole array row, so no single run */
        const tile_array wide = tile_array2(f, 100, 72);
        assert_int_equal(pick(wide, o, 1, 1, 2, d, 4, 0, 900, 0, 1), TILE_ASYNC_VEC16);
        /* row stride 66 floats = 264 bytes: no 16-byte rows; not a run */
        const tile_array pad = tile_array2(f, 100, 66);
        assert_int_equal(pick(pad, o, 1, 1, 2, d, 4, 0, 900, 0, 1), TILE_ASYNC_ELEM);
        /* column offset 1: source 4 bytes off */
        const int64_t o1[4] = {8, 1, 0, 0};
        assert_int_equal(pick(wide, o1, 1, 1, 2, d, 4, 0, 900, 0, 1), TILE_ASYNC_ELEM);
        /* partly outside (rows 96..103 of 100) */
        const int64_t oe[4] = {96, 0, 0, 0};
        assert_int_equal(pick(dense, oe, 1, 1, 2, d, 4, 0, 900, 0, 1), TILE_ASYNC_ELEM);
        /* misaligned base pointer: 4-byte pieces still possible */
        const tile_array mis = tile_array2(f + 1, 99, 64);
        assert_int_equal(pick(mis, o, 1, 1, 2, d, 4, 0, 900, 0, 1), TILE_ASYNC_RUN);
        assert_int_equal(pick(mis, o, 1, 1, 2, d, 4, 0, 800, 0, 1), TILE_ASYNC_RUN);
        /* 1-byte misaligned pointer: nothing asynchronous */
        const tile_array odd = tile_array2((const char *)f + 1, 99, 64);
        assert_int_equal(pick(odd, o, 1, 1, 2, d, 4, 0, 900, 0, 1), TILE_ASYNC_SYNC);
        /* non-unit last stride */
        int64_t sh[2] = {100, 32}, st[2] = {64, 2};
        const tile_array s2 = tile_array_strided(f, 2, sh, st);
        const int d2[4] = {8, 32, 1, 1};
        assert_int_equal(pick(s2, o, 1, 1, 2, d2, 4, 0, 900, 0, 1), TILE_ASYNC_ELEM);
    }
    /* 1D f32 tiles: no vector tier (vec_ct 0), but runs */
    {
        const tile_array a1 = tile_array1(f, 1000);
        const int d100[4] = {100, 1, 1, 1}, d37[4] = {37, 1, 1, 1}, d2[4] = {2, 1, 1, 1};
        const int64_t o4[4] = {4, 0, 0, 0}, o1[4] = {1, 0, 0, 0}, o2[4] = {2, 0, 0, 0}, oe[4] = {950, 0, 0, 0};
        assert_int_equal(pick(a1, o4, 0, 1, 1, d100, 4, 0, 900, 0, 1), TILE_ASYNC_BULK); /* 400 bytes at 16 */
        assert_int_equal(pick(a1, o4, 0, 1, 1, d100, 4, 0, 800, 0, 1), TILE_ASYNC_RUN);
        assert_int_equal(pick(a1, o1, 0, 1, 1, d100, 4, 0, 900, 0, 1), TILE_ASYNC_RUN);   /* source at 4 */
        assert_int_equal(pick(a1, o4, 0, 1, 1, d37, 4, 0, 900, 0, 1), TILE_ASYNC_RUN);    /* 148 bytes */
        assert_int_equal(pick(a1, o2, 0, 1, 1, d2, 4, 0, 900, 0, 1), TILE_ASYNC_RUN);     /* 8 bytes at 8 */
        assert_int_equal(pick(a1, oe, 0, 1, 1, d100, 4, 0, 900, 0, 1), TILE_ASYNC_ELEM);  /* overhangs */
        assert_int_equal(pick(a1, z, 0, 1, 1, d100, 4, 0, 900, TILE_ASYNC_NO_BULK, 1), TILE_ASYNC_RUN);
        assert_int_equal(tile__chunk(400), 16);
        assert_int_equal(tile__chunk(148), 4);
        assert_int_equal(tile__chunk(8), 8);
        assert_int_equal(tile__chunk(3), 0);
        /* too big for one bulk copy's transaction count (1 MiB) */
        const tile_array big = tile_array1(f, (int64_t)1 << 20);
        const int dbig[4] = {1 << 18, 1, 1, 1};
        assert_int_equal(pick(big, z, 0, 1, 1, dbig, 4, 0, 900, 0, 1), TILE_ASYNC_RUN);
    }
    /* f64, vec3f, mat33f, a 3-byte struct */
    {
        const int d16[4] = {16, 1, 1, 1}, d5x7[4] = {5, 7, 1, 1}, d4x16[4] = {4, 16, 1, 1}, d4x4[4] = {4, 4, 1, 1};
        const int64_t o1[4] = {1, 0, 0, 0}, o40[4] = {4, 0, 0, 0};
        const tile_array v = tile_array1(f, 100);                   /* as vec3f (12 bytes) */
        assert_int_equal(pick(v, z, 0, 1, 1, d16, 12, 0, 900, 0, 1), TILE_ASYNC_BULK); /* 192 bytes */
        assert_int_equal(pick(v, o1, 0, 1, 1, d16, 12, 0, 900, 0, 1), TILE_ASYNC_RUN); /* at 12: 4-byte pieces */
        assert_int_equal(pick(v, o1, 0, 1, 1, d16, 12, 0, 900, TILE_ASYNC_PER_ELEMENT, 1), TILE_ASYNC_ELEM);
        const tile_array m = tile_array2(f, 8, 4); /* as mat33f (36 bytes): rows of 144 bytes */
        assert_int_equal(pick(m, o40, 1, 1, 2, d4x4, 36, 0, 900, 0, 1), TILE_ASYNC_BULK);
        assert_int_equal(pick(m, o40, 1, 1, 2, d4x4, 36, 0, 800, 0, 1), TILE_ASYNC_VEC16);
        const tile_array d = tile_array2(f, 9, 4); /* as f64 with base + 1 element: 8-byte pieces */
        const tile_array dm = tile_array2((const double *)(const void *)f + 1, 8, 4);
        assert_int_equal(pick(d, o40, 1, 1, 2, d4x4, 8, 0, 900, 0, 1), TILE_ASYNC_BULK);
        assert_int_equal(pick(dm, o40, 1, 1, 2, d4x4, 8, 0, 900, 0, 1), TILE_ASYNC_RUN);
        const tile_array r = tile_array2(f, 5, 7); /* as rgb8 (3 bytes): 105 bytes, no piece size fits */
        assert_int_equal(pick(r, z, 0, 1, 2, d5x7, 3, 0, 900, 0, 1), TILE_ASYNC_SYNC);
        const tile_array r2 = tile_array2(f, 4, 16); /* 192 bytes of rgb8: a run of 16-byte pieces */
        assert_int_equal(pick(r2, z, 1, 1, 2, d4x16, 3, 0, 900, 0, 1), TILE_ASYNC_BULK);
        assert_int_equal(pick(r2, z, 1, 1, 2, d4x16, 3, 0, 800, 0, 1), TILE_ASYNC_VEC16);
        assert_int_equal(pick(r2, z, 1, 1, 2, d4x16, 3, 0, 900, TILE_ASYNC_PER_ELEMENT, 1), TILE_ASYNC_SYNC);
    }
}

/* ---- 3. stages ---- */
TILE_KERNEL_SMEM(stage_addr, 8, 3 * TILE_SMEM_BYTES(tile_vec3f, 5) + TILE_SMEM_BYTES(double, 3, 4), int64_t *out) {
    tile_shared_stages(tile_vec3f, v, 3, 5); /* 60 bytes, 64 apart */
    out[0] = tile_smem_mark();
    tile_shared_stages(double, w, 1, 3, 4);
    out[1] = tile_smem_mark();
    for (int k = 0; k < 3; ++k) {
        tile_stage(cur, v, k);
        out[2 + k] = (char *)cur.v - (char *)v.v;
        out[5 + k] = tile_size(cur) == 5 && tile_ndim(cur) == 1 && tile_is_shared(cur);
    }
    tile_stage(w0, w, 0);
    out[8] = (char *)w0.v - (char *)w.v;
    out[9] = tile_dim(w0, 0) == 3 && tile_dim(w0, 1) == 4;
}

static void test_async_stages(void **state) {
    (void)state;
    int64_t out[10];
    memset(out, 0, sizeof(out));
    assert_tile_ok(tile_launch(TILE_CPU, stage_addr, tile_grid1(1), 8, out));
    assert_int_equal(out[0], 3 * 64);
    assert_int_equal(out[1], 3 * 64 + 96);
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(out[2 + k], 64 * k);
        assert_int_equal(out[5 + k], 1);
    }
    assert_int_equal(out[8], 0);
    assert_int_equal(out[9], 1);
}

/* ---- 4. pipelined loops ----
 * Rows of A (R x C f32) stream through NST stages of (RT, C) shared tiles,
 * WAIT = NST - 1 groups in flight; the block writes each chunk reversed
 * within its rows (out[r][c] = A[r][C-1-c]) through tile_get, so every value
 * comes from the shared stage, and adds the chunk's sum to sums[chunk]. */
#define PIPE_C 24
#define DEF_PIPE(name, NST, RT)                                                    \
    TILE_KERNEL_SMEM(name, 16, NST * TILE_SMEM_BYTES(float, RT, PIPE_C), const float *A, int R, float *out, \
                     float *sums) {                                                \
        const tile_array a = tile_array2(A, R, PIPE_C);                            \
        const int nch = (R + RT - 1) / RT;                                         \
        tile_shared_stages(float, st, NST, RT, PIPE_C);                            \
        for (int p = 0; p < NST - 1; ++p) { /* prologue: NST - 1 chunks in flight */ \
            tile_stage(s, st, p);                                                  \
            if (p < nch) tile_load_async(s, a, p * RT, 0);                         \
            tile_async_commit();                                                   \
        }                                                                          \
        for (int c = 0; c < nch; ++c) {                                            \
            tile_stage(nx, st, (c + NST - 1) % NST);                               \
            if (c + NST - 1 < nch) tile_load_async(nx, a, (c + NST - 1) * RT, 0);  \
            tile_async_commit();                                                   \
            tile_async_wait(NST - 1);                                              \
            tile_stage(cur, st, c % NST);                                          \
            for (int i = tile_thread(); i < RT * PIPE_C; i += TILE_BLOCK_DIM) {    \
                const int r = c * RT + i / PIPE_C, col = i % PIPE_C;               \
                if (r < R) out[r * PIPE_C + col] = tile_get(cur, i / PIPE_C, PIPE_C - 1 - col); \
            }                                                                      \
            tile_sum(s, cur);                                                      \
            tile_store(tile_array1(sums, nch), s, c);                              \
        }                                                                          \
        tile_async_wait_all();                                                     \
    }
DEF_PIPE(pipe2, 2, 1)
DEF_PIPE(pipe3, 3, 4)

/* the same through a window and tile_load_async_window */
TILE_KERNEL_SMEM(pipe_win, 16, 2 * TILE_SMEM_BYTES(float, 2, PIPE_C), const float *A, int R, float *out,
                 float *sums) {
    tile_window w = tile_window_at(tile_array2(A, R, PIPE_C), 0, 0);
    const int nch = (R + 1) / 2;
    tile_shared_stages(float, st, 2, 2, PIPE_C);
    tile_load_async_window(st, w);
    tile_async_commit();
    for (int c = 0; c < nch; ++c) {
        tile_window_move(&w, 2, 0);
        tile_stage(nx, st, (c + 1) & 1);
        if (c + 1 < nch) tile_load_async_window(nx, w);
        tile_async_commit();
        tile_async_wait(1);
        tile_stage(cur, st, c & 1);
        for (int i = tile_thread(); i < 2 * PIPE_C; i += TILE_BLOCK_DIM) {
            const int r = c * 2 + i / PIPE_C, col = i % PIPE_C;
            if (r < R) out[r * PIPE_C + col] = tile_get(cur, i / PIPE_C, PIPE_C - 1 - col);
        }
        tile_sum(s, cur);
        tile_store(tile_array1(sums, nch), s, c);
    }
    tile_async_wait_all();
}

static void test_async_pipeline(void **state) {
    (void)state;
    enum { RMAX = 67 };
    static float A[RMAX * PIPE_C], out[(RMAX + 1) * PIPE_C], sums[RMAX + 1];
    for (int i = 0; i < RMAX * PIPE_C; ++i) A[i] = (float)tu_val(i, 301, 1);
    const int rows[] = {1, 2, 3, 5, 8, 64, 67};
    for (size_t q = 0; q < sizeof(rows) / sizeof(rows[0]); ++q)
        for (int kind = 0; kind < 3; ++kind) {
            const int R = rows[q], RT = kind == 1 ? 4 : kind == 2 ? 2 : 1, nch = (R + RT - 1) / RT;
            for (int i = 0; i < (RMAX + 1) * PIPE_C; ++i) out[i] = -1e30f;
            for (int i = 0; i <= RMAX; ++i) sums[i] = -1e30f;
            if (kind == 0) assert_tile_ok(tile_launch(TILE_CPU, pipe2, tile_grid1(1), 16, A, R, out, sums));
            else if (kind == 1) assert_tile_ok(tile_launch(TILE_CPU, pipe3, tile_grid1(1), 16, A, R, out, sums));
            else assert_tile_ok(tile_launch(TILE_CPU, pipe_win, tile_grid1(1), 16, A, R, out, sums));
            for (int r = 0; r < R; ++r)
                for (int c = 0; c < PIPE_C; ++c)
                    assert_close(out[r * PIPE_C + c], A[r * PIPE_C + PIPE_C - 1 - c], 0);
            assert_true(out[R * PIPE_C] == -1e30f); /* nothing past the last row */
            for (int c = 0; c < nch; ++c) {
                double s = 0;
                for (int r = c * RT; r < c * RT + RT && r < R; ++r)
                    for (int j = 0; j < PIPE_C; ++j) s += A[r * PIPE_C + j];
                assert_close(sums[c], s, 0); /* quarters: exact */
            }
            assert_true(sums[nch] == -1e30f);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_async_equals_load),
        cmocka_unit_test(test_async_pick),
        cmocka_unit_test(test_async_stages),
        cmocka_unit_test(test_async_pipeline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
