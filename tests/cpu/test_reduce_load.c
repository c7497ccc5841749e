/* Reductions (tile_sum / tile_min / tile_max / tile_reduce) on f32, f64, i32
 * (and a few other) tiles of awkward sizes, register, shared and views;
 * tile_load / tile_store with out-of-bounds parts (zeros read, writes
 * dropped), strided arrays, tile_array_row, tile_atomic_add; fill values
 * (tile_load_fill), in-bounds flags (tile_inbounds), keepdims axis
 * reductions and the broadcasting element-wise operations (tile_*_bcast). */
#include "test_util.h"

/* ---- reductions ---- */
TILE_FUNC float hyp_f(float a, float b) { return sqrtf(a * a + b * b); }
TILE_FUNC double hyp_d(double a, double b) { return sqrt(a * a + b * b); }
TILE_FUNC int32_t xor_i(int32_t a, int32_t b) { return a ^ b; }
#define OP_f32 hyp_f
#define OP_f64 hyp_d
#define OP_i32 xor_i

/* out[0..3]: sum, min, max, reduce(op) of a register tile; out[4..7] the same
 * of a shared copy; out[8] the sum of the shared copy's view without its
 * first index of dim 0 (when dim 0 > 1) */
#define DEF_RED(name, sfx, T, ...)                                                 \
    TILE_KERNEL_SMEM(name, 64, TILE_SMEM_BYTES(T, __VA_ARGS__), const T *in, T *out) { \
        const int d[4] = {__VA_ARGS__};                                            \
        tile_reg(T, r, __VA_ARGS__);                                               \
        tile_load(r, tu_array(in, d, tile_ndim(r)), 0);                            \
        tile_sum(s, r);                                                            \
        tile_min(mn, r);                                                           \
        tile_max(mx, r);                                                           \
        tile_reduce(rr, OP_##sfx, r);                                              \
        out[0] = tile_value(s);                                                    \
        out[1] = tile_value(mn);                                                   \
        out[2] = tile_value(mx);                                                   \
        out[3] = tile_value(rr);                                                   \
        tile_shared(T, sh, __VA_ARGS__);                                           \
        tile_copy(sh, r);                                                          \
        tile_sum(s2, sh);                                                          \
        tile_min(mn2, sh);                                                         \
        tile_max(mx2, sh);                                                         \
        tile_reduce(rr2, OP_##sfx, sh);                                            \
        out[4] = tile_value(s2);                                                   \
        out[5] = tile_value(mn2);                                                  \
        out[6] = tile_value(mx2);                                                  \
        out[7] = tile_value(rr2);                                                  \
        out[8] = tile_size(s) == 1 && tile_ndim(s) == 1 && !tile_is_shared(s);     \
    }
/* sizes: 1, 7, 33, 100, (3, 5, 7), (2, 3, 1, 5), (13, 17) */
#define RED_SIZES(X, sfx, T)                                                       \
    X(red_##sfx##_1, sfx, T, 1)                                                    \
    X(red_##sfx##_7, sfx, T, 7)                                                    \
    X(red_##sfx##_33, sfx, T, 33)                                                  \
    X(red_##sfx##_100, sfx, T, 100)                                                \
    X(red_##sfx##_357, sfx, T, 3, 5, 7)                                            \
    X(red_##sfx##_2315, sfx, T, 2, 3, 1, 5)                                        \
    X(red_##sfx##_1317, sfx, T, 13, 17)
RED_SIZES(DEF_RED, f32, float)
RED_SIZES(DEF_RED, f64, double)
RED_SIZES(DEF_RED, i32, int32_t)

static const int red_n[7] = {1, 7, 33, 100, 105, 30, 221};

static void ref_reduce(const double *x, int n, int kind_int, double *ref) {
    double s = 0, mn = x[0], mx = x[0], h = 0;
    int32_t xr = 0;
    for (int i = 0; i < n; ++i) {
        s += x[i];
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
        h += x[i] * x[i];
        xr ^= (int32_t)x[i];
    }
    ref[0] = s;
    ref[1] = mn;
    ref[2] = mx;
    /* the fold starts from the first element: one element is returned as is */
    ref[3] = kind_int ? (double)xr : n == 1 ? x[0] : sqrt(h);
}

#define RUN_RED(sfx, T, kind, bits)                                                \
    static void test_reduce_##sfx(void **state) {                                 \
        (void)state;                                                               \
        const tu_type t = {#sfx, kind, bits, 1, sizeof(T)};                        \
        static T in[221];                                                          \
        static double x[221];                                                      \
        for (int size = 0; size < 7; ++size) {                                     \
            int n = red_n[size];                                                   \
            T out[9];                                                              \
            memset(out, 0, sizeof(out));                                           \
            tu_fill(&t, in, (size_t)n, 60 + size, 0);                              \
            for (int i = 0; i < n; ++i) x[i] = tu_get(&t, in, (size_t)i);          \
            int e = -1;                                                            \
            switch (size) {                                                        \
            case 0: e = tile_launch(TILE_CPU, red_##sfx##_1, tile_grid1(1), 64, in, out); break; \
            case 1: e = tile_launch(TILE_CPU, red_##sfx##_7, tile_grid1(1), 64, in, out); break; \
            case 2: e = tile_launch(TILE_CPU, red_##sfx##_33, tile_grid1(1), 64, in, out); break; \
            case 3: e = tile_launch(TILE_CPU, red_##sfx##_100, tile_grid1(1), 64, in, out); break; \
            case 4: e = tile_launch(TILE_CPU, red_##sfx##_357, tile_grid1(1), 64, in, out); break; \
            case 5: e = tile_launch(TILE_CPU, red_##sfx##_2315, tile_grid1(1), 64, in, out); break; \
            default: e = tile_launch(TILE_CPU, red_##sfx##_1317, tile_grid1(1), 64, in, out); break; \
            }                                                                      \
            assert_tile_ok(e);                                                     \
            double ref[4];                                                         \
            ref_reduce(x, n, (kind) == TU_I, ref);                                 \
            const char *what[4] = {"sum", "min", "max", "reduce"};                 \
            for (int j = 0; j < 8; ++j) tu_check(&t, out, (size_t)j, ref[j % 4], what[j % 4]); \
            tu_check(&t, out, 8, 1.0, "one-element result tile");                  \
        }                                                                          \
    }
RUN_RED(f32, float, TU_F, 32)
RUN_RED(f64, double, TU_F, 64)
RUN_RED(i32, int32_t, TU_I, 32)

/* other element types: sums of u32, i64, vec3f, mat22d tiles; min/max of u64 */
TILE_KERNEL(red_more, 32, const uint32_t *u, const int64_t *l, const tile_vec3f *v, const tile_mat22d *m,
            const uint64_t *q, uint32_t *ou, int64_t *ol, tile_vec3f *ov, tile_mat22d *om, uint64_t *oq) {
    tile_reg(uint32_t, tu, 37);
    tile_load(tu, tile_array1(u, 37), 0);
    tile_sum(su, tu);
    *ou = tile_value(su);
    tile_reg(int64_t, tl, 5, 9);
    tile_load(tl, tile_array2(l, 5, 9), 0, 0);
    tile_sum(sl, tl);
    *ol = tile_value(sl);
    tile_reg(tile_vec3f, tv, 11);
    tile_load(tv, tile_array1(v, 11), 0);
    tile_sum(sv, tv);
    *ov = tile_value(sv);
    tile_reg(tile_mat22d, tm, 3, 3);
    tile_load(tm, tile_array2(m, 3, 3), 0, 0);
    tile_sum(sm, tm);
    *om = tile_value(sm);
    tile_reg(uint64_t, tq, 19);
    tile_load(tq, tile_array1(q, 19), 0);
    tile_min(mnq, tq);
    tile_max(mxq, tq);
    oq[0] = tile_value(mnq);
    oq[1] = tile_value(mxq);
}

static void test_reduce_more(void **state) {
    (void)state;
    uint32_t u[37], ou = 0;
    int64_t l[45], ol = 0;
    tile_vec3f v[11], ov;
    tile_mat22d m[9], om;
    uint64_t q[19], oq[2];
    double su = 0, sl = 0, sv[3] = {0, 0, 0}, sm[4] = {0, 0, 0, 0}, mn = 1e30, mx = -1;
    for (int i = 0; i < 37; ++i) u[i] = 4000000000u / 37u + (uint32_t)i, su += u[i];
    for (int i = 0; i < 45; ++i) l[i] = (int64_t)tu_val(i, 71, 0) * 100000000000LL, sl += (double)l[i];
    for (int i = 0; i < 11; ++i)
        for (int c = 0; c < 3; ++c) v[i].v[c] = (float)tu_val(i * 3 + c, 72, 1), sv[c] += v[i].v[c];
    for (int i = 0; i < 9; ++i)
        for (int c = 0; c < 4; ++c) m[i].m[c / 2][c % 2] = tu_val(i * 4 + c, 73, 1), sm[c] += m[i].m[c / 2][c % 2];
    for (int i = 0; i < 19; ++i) {
        q[i] = ((uint64_t)1 << 60) + (uint64_t)(tu_val(i, 74, 0) + 50) * 1000;
        double qd = (double)(q[i] - ((uint64_t)1 << 60));
        mn = qd < mn ? qd : mn;
        mx = qd > mx ? qd : mx;
    }
    assert_tile_ok(tile_launch(TILE_CPU, red_more, tile_grid1(1), 32, u, l, v, m, q, &ou, &ol, &ov, &om, oq));
    assert_true((double)ou == su); /* below 2^32: no wrap */
    assert_true((double)ol == sl);
    for (int c = 0; c < 3; ++c) assert_close(ov.v[c], sv[c], TU_TOL_F32);
    for (int c = 0; c < 4; ++c) assert_close(om.m[c / 2][c % 2], sm[c], TU_TOL_F64);
    assert_true(oq[0] == ((uint64_t)1 << 60) + (uint64_t)mn);
    assert_true(oq[1] == ((uint64_t)1 << 60) + (uint64_t)mx);
}

/* reductions over a non-contiguous view */
TILE_KERNEL_SMEM(red_view, 16, TILE_SMEM_BYTES(double, 9, 11), const double *in, double *out) {
    tile_shared(double, s, 9, 11);
    tile_load(s, tile_array2(in, 9, 11), 0, 0);
    tile_view(v, s, (4, 7), (3, 2));
    tile_sum(sv, v);
    tile_min(mv, v);
    tile_max(xv, v);
    out[0] = tile_value(sv);
    out[1] = tile_value(mv);
    out[2] = tile_value(xv);
}

static void test_reduce_view(void **state) {
    (void)state;
    double in[99], out[3] = {0, 0, 0};
    for (int i = 0; i < 99; ++i) in[i] = tu_val(i, 75, 1);
    assert_tile_ok(tile_launch(TILE_CPU, red_view, tile_grid1(1), 16, in, out));
    double s = 0, mn = 1e30, mx = -1e30;
    for (int i = 3; i < 7; ++i)
        for (int j = 2; j < 9; ++j) {
            double x = in[i * 11 + j];
            s += x;
            mn = x < mn ? x : mn;
            mx = x > mx ? x : mx;
        }
    assert_close(out[0], s, TU_TOL_F64);
    assert_close(out[1], mn, 0);
    assert_close(out[2], mx, 0);
}

/* ---- load / store with out-of-bounds parts ---- */
/* The 2D array: 5 x 7 inside a 9 x 10 buffer (row stride 10), starting at
 * row 2, column 1: every out-of-view write would land in the buffer. */
#define BR 9
#define BC 10
#define AR 5
#define AC 7
#define A0 (2 * BC + 1)
static const int offs2[][2] = {{-2, 5}, {3, -1}, {4, 6}, {-4, 0}, {1, 1}, {0, 0}, {2, 4}, {-1, -3}, {5, 7}};
#define NOFF2 ((int)(sizeof(offs2) / sizeof(offs2[0])))

/* loads through a register and a shared tile, stores from both */
TILE_KERNEL_SMEM(load_store_2d, 32, TILE_SMEM_BYTES(float, 4, 4), const float *buf, int n0, int n1, float *loaded,
                 float *sbuf, float *rbuf) {
    int64_t sh[2] = {AR, AC}, st[2] = {BC, 1};
    tile_array a = tile_array_strided(buf + A0, 2, sh, st);
    tile_array sa = tile_array_strided(sbuf + A0, 2, sh, st);
    tile_array ra = tile_array_strided(rbuf + A0, 2, sh, st);
    tile_reg(float, r, 4, 4);
    tile_shared(float, s, 4, 4);
    tile_full(r, 99.0f); /* must be overwritten by zeros where out of bounds */
    tile_full(s, 99.0f);
    tile_load(r, a, n0, n1);
    tile_load(s, a, n0, n1);
    tile_store(tile_array2(loaded, 4, 4), r, 0, 0);
    tile_store(tile_array2(loaded + 16, 4, 4), s, 0, 0);
    tile_arange(r, 1000, 1);
    tile_arange(s, 2000, 1);
    tile_store(ra, r, n0, n1);
    tile_store(sa, s, n0, n1);
}

static void test_load_store_2d(void **state) {
    (void)state;
    static float buf[BR * BC], sbuf[BR * BC], rbuf[BR * BC], loaded[32];
    for (int i = 0; i < BR * BC; ++i) buf[i] = (float)tu_val(i, 81, 1);
    for (int k = 0; k < NOFF2; ++k) {
        int n0 = offs2[k][0], n1 = offs2[k][1];
        for (int i = 0; i < BR * BC; ++i) sbuf[i] = rbuf[i] = -7.0f;
        assert_tile_ok(tile_launch(TILE_CPU, load_store_2d, tile_grid1(1), 32, buf, n0, n1, loaded, sbuf, rbuf));
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                int gi = n0 + i, gj = n1 + j;
                int in = gi >= 0 && gi < AR && gj >= 0 && gj < AC;
                double ref = in ? buf[A0 + gi * BC + gj] : 0.0;
                assert_close(loaded[i * 4 + j], ref, 0);
                assert_close(loaded[16 + i * 4 + j], ref, 0);
            }
        /* the buffers: view cells covered by the tile hold it, all else -7 */
        for (int bi = 0; bi < BR; ++bi)
            for (int bj = 0; bj < BC; ++bj) {
                int p = bi * BC + bj, vi = (p - A0) / BC, vj = (p - A0) % BC;
                int inview = p >= A0 && vi < AR && vj < AC;
                int ti = vi - n0, tj = vj - n1;
                int intile = inview && ti >= 0 && ti < 4 && tj >= 0 && tj < 4;
                assert_close(rbuf[p], intile ? 1000 + ti * 4 + tj : -7.0, 0);
                assert_close(sbuf[p], intile ? 2000 + ti * 4 + tj : -7.0, 0);
            }
    }
}

/* 1D, 3D and 4D arrays, integer and double elements; guards on both sides */
TILE_KERNEL(load_store_nd, 8, const int32_t *a1, const double *a3, const int64_t *a4, int o, int32_t *l1,
            double *l3, int64_t *l4, int32_t *s1, double *s3, int64_t *s4) {
    tile_reg(int32_t, t1, 8);
    tile_load(t1, tile_array1(a1, 10), o);
    tile_store(tile_array1(l1, 8), t1, 0);
    tile_imul_c(t1, -1);
    tile_store(tile_array1(s1, 10), t1, o);
    tile_reg(double, t3, 2, 3, 4);
    tile_load(t3, tile_array3(a3, 3, 4, 5), o / 3, -o, o);
    tile_store(tile_array3(l3, 2, 3, 4), t3, 0, 0, 0);
    tile_iadd(t3, t3);
    tile_store(tile_array3(s3, 3, 4, 5), t3, o / 3, -o, o);
    tile_reg(int64_t, t4, 2, 2, 2, 3);
    tile_load(t4, tile_array4(a4, 3, 2, 3, 4), o, 1, -1, o + 2);
    tile_store(tile_array4(l4, 2, 2, 2, 3), t4, 0, 0, 0, 0);
    tile_imul_c(t4, 3);
    tile_store(tile_array4(s4, 3, 2, 3, 4), t4, o, 1, -1, o + 2);
}

static void test_load_store_nd(void **state) {
    (void)state;
    enum { G = 4 }; /* guard elements around each store target */
    static int32_t a1[10], l1[8], s1[10 + 2 * G];
    static double a3[60], l3[24], s3[60 + 2 * G];
    static int64_t a4[72], l4[24], s4[72 + 2 * G];
    for (int i = 0; i < 10; ++i) a1[i] = (int32_t)tu_val(i, 91, 0);
    for (int i = 0; i < 60; ++i) a3[i] = tu_val(i, 92, 1);
    for (int i = 0; i < 72; ++i) a4[i] = (int64_t)tu_val(i, 93, 0);
    const int offsets[] = {-9, -3, -1, 0, 1, 2, 4, 9};
    for (size_t k = 0; k < sizeof(offsets) / sizeof(offsets[0]); ++k) {
        int o = offsets[k];
        for (int i = 0; i < 10 + 2 * G; ++i) s1[i] = 555;
        for (int i = 0; i < 60 + 2 * G; ++i) s3[i] = 555;
        for (int i = 0; i < 72 + 2 * G; ++i) s4[i] = 555;
        assert_tile_ok(tile_launch(TILE_CPU, load_store_nd, tile_grid1(1), 8, a1, a3, a4, o, l1, l3, l4, s1 + G,
                                   s3 + G, s4 + G));
        /* 1D */
        for (int i = 0; i < 8; ++i) {
            int g = o + i, in = g >= 0 && g < 10;
            assert_int_equal(l1[i], in ? a1[g] : 0);
        }
        for (int p = -G; p < 10 + G; ++p) {
            int i = p - o, intile = p >= 0 && p < 10 && i >= 0 && i < 8;
            assert_int_equal(s1[G + p], intile ? -a1[p] : 555);
        }
        /* 3D: array (3, 4, 5), tile (2, 3, 4) at (o / 3, -o, o) */
        int o3[3] = {o / 3, -o, o};
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                for (int l = 0; l < 4; ++l) {
                    int g0 = o3[0] + i, g1 = o3[1] + j, g2 = o3[2] + l;
                    int in = g0 >= 0 && g0 < 3 && g1 >= 0 && g1 < 4 && g2 >= 0 && g2 < 5;
                    assert_close(l3[(i * 3 + j) * 4 + l], in ? a3[(g0 * 4 + g1) * 5 + g2] : 0.0, 0);
                }
        for (int p = -G; p < 60 + G; ++p) {
            double ref = 555;
            if (p >= 0 && p < 60) {
                int i = p / 20 - o3[0], j = p / 5 % 4 - o3[1], l = p % 5 - o3[2];
                if (i >= 0 && i < 2 && j >= 0 && j < 3 && l >= 0 && l < 4) ref = 2.0 * a3[p];
            }
            assert_close(s3[G + p], ref, 0);
        }
        /* 4D: array (3, 2, 3, 4), tile (2, 2, 2, 3) at (o, 1, -1, o + 2) */
        int o4[4] = {o, 1, -1, o + 2};
        const int ad[4] = {3, 2, 3, 4};
        for (int lin = 0; lin < 24; ++lin) {
            int ti[4] = {lin / 12, lin / 6 % 2, lin / 3 % 2, lin % 3}, in = 1, g = 0;
            for (int q = 0; q < 4; ++q) {
                int gq = o4[q] + ti[q];
                in &= gq >= 0 && gq < ad[q];
                g = g * ad[q] + gq;
            }
            assert_true(l4[lin] == (in ? a4[g] : 0));
        }
        for (int p = -G; p < 72 + G; ++p) {
            int64_t ref = 555;
            if (p >= 0 && p < 72) {
                int gi[4] = {p / 24, p / 12 % 2, p / 4 % 3, p % 4}, in = 1;
                for (int q = 0; q < 4; ++q) {
                    int tq = gi[q] - o4[q];
                    in &= tq >= 0 && tq < (q == 3 ? 3 : 2);
                }
                if (in) ref = 3 * a4[p];
            }
            assert_true(s4[G + p] == ref);
        }
    }
}

/* ---- tile_array_row ---- */
/* block i: row i of a (3, 4) array, row i % 2 of a (2, 3, 5) array, the row
 * of a row, a column through a transposed strided view; a store through a row
 * at an offset that runs past the row's end (dropped, not spilled into the
 * next row). */
TILE_KERNEL(rows, 4, const float *a2, const double *a3, float *o2, double *o3, float *w2, float *col, double *rr) {
    int i = tile_block(0);
    tile_array A2 = tile_array2(a2, 3, 4);
    tile_reg(float, r, 4);
    tile_load(r, tile_array_row(A2, i), 0);
    tile_store(tile_array_row(tile_array2(o2, 3, 4), i), r, 0);
    tile_store(tile_array_row(tile_array2(w2, 3, 4), i), r, 2);
    tile_array A3 = tile_array3(a3, 2, 3, 5);
    tile_reg(double, m, 3, 5);
    tile_load(m, tile_array_row(A3, i % 2), 0, 0);
    tile_store(tile_array_row(tile_array3(o3, 3, 3, 5), i), m, 0, 0);
    tile_reg(double, rw, 5);
    tile_load(rw, tile_array_row(tile_array_row(A3, 1), i), 0);
    tile_store(tile_array_row(tile_array2(rr, 3, 5), i), rw, 0);
    int64_t sh[2] = {4, 3}, st[2] = {1, 4}; /* a2 transposed */
    tile_array T = tile_array_strided(a2, 2, sh, st);
    tile_reg(float, c, 3);
    tile_load(c, tile_array_row(T, i), 0);
    tile_store(tile_array1(col + 3 * i, 3), c, 0);
}

static void test_array_row(void **state) {
    (void)state;
    float a2[12], o2[12], w2[12], col[9];
    double a3[30], o3[45], rr[15];
    for (int i = 0; i < 12; ++i) a2[i] = (float)tu_val(i, 101, 1), w2[i] = -1.0f;
    for (int i = 0; i < 30; ++i) a3[i] = tu_val(i, 102, 1);
    assert_tile_ok(tile_launch(TILE_CPU, rows, tile_grid1(3), 4, a2, a3, o2, o3, w2, col, rr));
    for (int i = 0; i < 12; ++i) assert_close(o2[i], a2[i], 0);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) assert_close(w2[i * 4 + j], j >= 2 ? a2[i * 4 + j - 2] : -1.0, 0);
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 15; ++k) assert_close(o3[i * 15 + k], a3[(i % 2) * 15 + k], 0);
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 5; ++k) assert_close(rr[i * 5 + k], a3[15 + i * 5 + k], 0);
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) assert_close(col[i * 3 + k], a2[k * 4 + i], 0);
    /* the documented example: row 2 of a (3, 4) view is the 4 elements at p + 8 */
    tile_array r2 = tile_array_row(tile_array2(a2, 3, 4), 2);
    assert_int_equal(r2.ndim, 1);
    assert_int_equal(r2.shape[0], 4);
    assert_int_equal(r2.stride[0], 1);
    assert_int_equal(r2.base_off, 8);
}

/* ---- tile_atomic_add ---- */
/* 6 blocks; block b adds the tile [b, b + 1, ..., b + 7] (times a type-exact
 * factor) at offset (b % 4) - 1 of a 10-element accumulator: parts fall off
 * either end. Then every block adds its tile's sum into acc[10] through a
 * one-element reduction. */
#define DEF_ATOMIC(sfx, T, S, kind, bits, nc)                                      \
    TILE_KERNEL(atomic_##sfx, 32, T *acc) {                                        \
        int b = tile_block(0);                                                     \
        tile_reg(T, t, 8);                                                         \
        tile_arange(t, b, 1);                                                      \
        tile_imul_c(t, (T)((kind) == TU_F ? 0.5 : 3));                             \
        tile_atomic_add(tile_array1(acc, 10), t, (b % 4) - 1);                     \
        tile_sum(s, t);                                                            \
        tile_atomic_add(tile_array1(acc + 10, 1), s, 0);                           \
    }
TU_SCALAR_TYPES(DEF_ATOMIC)

#define RUN_ATOMIC(sfx, T, S, kind, bits, nc)                                      \
    static void test_atomic_##sfx(void **state) {                                 \
        (void)state;                                                               \
        const tu_type t = TU_TYPE(sfx, T, S, kind, bits, nc);                      \
        T acc[12];                                                                 \
        double ref[12];                                                            \
        for (int i = 0; i < 12; ++i) acc[i] = (T)(i + 1), ref[i] = i + 1;          \
        const double f = (kind) == TU_F ? 0.5 : 3;                                 \
        for (int b = 0; b < 6; ++b)                                                \
            for (int i = 0; i < 8; ++i) {                                          \
                int p = (b % 4) - 1 + i;                                           \
                if (p >= 0 && p < 10) ref[p] += (b + i) * f;                       \
                ref[10] += (b + i) * f;                                            \
            }                                                                      \
        assert_tile_ok(tile_launch(TILE_CPU, atomic_##sfx, tile_grid1(6), 32, acc)); \
        for (int i = 0; i < 12; ++i) tu_check(&t, acc, (size_t)i, ref[i], "atomic add"); \
    }
TU_SCALAR_TYPES(RUN_ATOMIC)

#define LIST_ATOMIC(sfx, T, S, kind, bits, nc) cmocka_unit_test(test_atomic_##sfx),
#include "../reduce_ref.h"
LB_KERNEL(lb_b64, 64)

static void test_fill_inbounds_bcast(void **state) {
    (void)state;
    static float in[LB_AR * LB_AC], out[LB_N];
    static int flags[LB_N];
    char msg[200];
    lb_input(in);
    for (int which = 0; which < LB_NCASE; ++which) {
        memset(out, 0xFF, sizeof out);
        memset(flags, 0xAB, sizeof flags);
        assert_tile_ok(tile_launch(TILE_CPU, lb_b64, tile_grid1(1), 64, in, out, flags, which));
        const long bad = lb_check(which, in, out, flags, msg, sizeof msg);
        if (bad) print_error("%s (%ld bad)\n", msg, bad);
        assert_int_equal(bad, 0);
    }
}

/* the header examples of tile_load_fill / tile_inbounds and keepdims / bcast */
TILE_KERNEL(lb_doc, 32, const float *a3, const float *a12, const float *g3, float *out, int *ok) {
    tile_reg(float, t, 4);
    tile_load_fill(t, tile_array1(a3, 3), -INFINITY, 0);
    tile_max(m, t);
    tile_store(tile_array1(out, 4), t, 0);
    out[4] = tile_value(m);
    tile_reg(int, f, 2, 3);
    tile_inbounds(f, tile_array2(a12, 3, 4), 2, 2);
    tile_store(tile_array2(ok, 2, 3), f, 0, 0);
    tile_reg(float, a, 2, 3);
    tile_load(a, tile_array2(a12, 2, 3), 0, 0);
    tile_sum_axis_keepdims(r, a, 1);
    tile_max_axis_keepdims(c, a, 0);
    tile_store(tile_array2(out + 5, 2, 1), r, 0, 0);
    tile_store(tile_array2(out + 7, 1, 3), c, 0, 0);
    tile_max_axis_keepdims(mx, a, 1);
    tile_sub_bcast(a, a, mx);
    tile_store(tile_array2(out + 10, 2, 3), a, 0, 0);
    tile_reg(float, g, 3);
    tile_load(g, tile_array1(g3, 3), 0);
    tile_reg(float, cc, 2, 3);
    tile_mul_bcast(cc, a, g);
    tile_store(tile_array2(out + 16, 2, 3), cc, 0, 0);
}
static void test_fill_doc(void **state) {
    (void)state;
    const float a3[3] = {5, -2, 7}, a12[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, g3[3] = {1, 10, 100};
    float out[22];
    int ok[6];
    assert_tile_ok(tile_launch(TILE_CPU, lb_doc, tile_grid1(1), 32, a3, a12, g3, out, ok));
    const float want[22] = {5, -2, 7, -INFINITY, 7, 6, 15, 4, 5, 6, -2, -1, 0, -2, -1, 0, -2, -10, 0, -2, -10, 0};
    const int wok[6] = {1, 1, 0, 0, 0, 0};
    assert_memory_equal(out, want, sizeof want);
    assert_memory_equal(ok, wok, sizeof wok);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_f32),
        cmocka_unit_test(test_reduce_f64),
        cmocka_unit_test(test_reduce_i32),
        cmocka_unit_test(test_reduce_more),
        cmocka_unit_test(test_reduce_view),
        cmocka_unit_test(test_load_store_2d),
        cmocka_unit_test(test_load_store_nd),
        cmocka_unit_test(test_array_row),
        cmocka_unit_test(test_fill_inbounds_bcast),
        cmocka_unit_test(test_fill_doc),
        TU_SCALAR_TYPES(LIST_ATOMIC)
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
