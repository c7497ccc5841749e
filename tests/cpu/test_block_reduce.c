/* Block algorithms, reductions (CPU path): tile_argmin / tile_argmax on every
 * scalar type, lengths 1 .. 4096, register and shared tiles and views, with
 * ties, duplicates, type extremes, NaNs, +-0 and infinities; axis reductions
 * (tile_sum_axis / tile_min_axis / tile_max_axis / tile_reduce_axis) of 1D, 2D
 * and 3D tiles along every axis, register, shared and view sources, scalar
 * and vector elements; reductions of vectors and matrices (the mat33 block
 * sum 496 * I), tile_atomic_add of vec/mat tiles, tile_atomic_add_ptr and
 * tile_atomic_fetch_add; f16/bf16 reductions accumulated in f32 (tile_sum_f32,
 * tile_min_f32, tile_max_f32). Every result is checked against a plain C loop. */
#include "test_util.h"
#include "../reduce_stack_common.h"

/* ======================================================================
 * argmin / argmax
 * ====================================================================== */
/* block b reads its own data set (pattern b); every thread writes
 * argmin/argmax of the register tile, of a shared copy, and a shape flag */
#define AM_KERNEL(sfx, T, n, B)                                                    \
    TILE_KERNEL_SMEM(am_##sfx##_##n, B, TILE_SMEM_BYTES(T, n), const T *in, int *out) { \
        const int b = tile_block(0);                                               \
        tile_reg(T, r, n);                                                         \
        tile_load(r, tile_array1(in + (size_t)b * (n), n), 0);                     \
        tile_argmin(a0, r);                                                        \
        tile_argmax(a1, r);                                                        \
        tile_shared(T, sh, n);                                                     \
        tile_copy(sh, r);                                                          \
        tile_argmin(a2, sh);                                                       \
        tile_argmax(a3, sh);                                                       \
        int *o = out + ((size_t)b * TILE_BLOCK_DIM + tile_thread()) * 5;           \
        o[0] = tile_value(a0);                                                     \
        o[1] = tile_value(a1);                                                     \
        o[2] = tile_value(a2);                                                     \
        o[3] = tile_value(a3);                                                     \
        o[4] = tile_size(a0) == 1 && tile_ndim(a0) == 1 && !tile_is_shared(a0) &&  \
               sizeof(tile_value(a0)) == sizeof(int);                              \
    }
#define AM_LENGTHS(X, sfx, T)                                                      \
    X(sfx, T, 1, 32) X(sfx, T, 2, 64) X(sfx, T, 31, 96) X(sfx, T, 32, 256) X(sfx, T, 33, 1024) \
    X(sfx, T, 255, 32) X(sfx, T, 256, 64) X(sfx, T, 257, 96) X(sfx, T, 1000, 256) X(sfx, T, 4096, 1024)
AM_LENGTHS(AM_KERNEL, f32, float)
AM_LENGTHS(AM_KERNEL, f64, double)
AM_LENGTHS(AM_KERNEL, i32, int32_t)
AM_LENGTHS(AM_KERNEL, u32, uint32_t)
AM_LENGTHS(AM_KERNEL, i64, int64_t)
AM_LENGTHS(AM_KERNEL, u64, uint64_t)

#define AM_CHECK(sfx, T, n, B)                                                     \
    do {                                                                           \
        const int np = (ISF_##sfx) ? RS_NPAT : RS_NPAT_INT;                        \
        T *in = (T *)malloc(sizeof(T) * (size_t)(n)*np);                           \
        int *out = (int *)malloc(sizeof(int) * 5 * (size_t)np);                    \
        assert_non_null(in);                                                       \
        assert_non_null(out);                                                      \
        for (int p = 0; p < np; ++p) rs_fill_##sfx(in + (size_t)p * (n), n, p, 11u); \
        memset(out, 0xAB, sizeof(int) * 5 * (size_t)np);                           \
        assert_tile_ok(tile_launch(TILE_CPU, am_##sfx##_##n, tile_grid1(np), B, in, out)); \
        for (int p = 0; p < np; ++p) {                                             \
            int mn, mx;                                                            \
            rs_ref_arg_##sfx(in + (size_t)p * (n), n, &mn, &mx);                   \
            const int *o = out + (size_t)p * 5;                                    \
            const int want[5] = {mn, mx, mn, mx, 1};                               \
            for (int k = 0; k < 5; ++k)                                            \
                if (o[k] != want[k]) {                                             \
                    print_error("%s n=%d pattern %d: result %d = %d, expected %d\n", #sfx, n, p, k, o[k], \
                                want[k]);                                          \
                    fail();                                                        \
                }                                                                  \
        }                                                                          \
        free(in);                                                                  \
        free(out);                                                                 \
    } while (0);
enum { ISF_f32 = 1, ISF_f64 = 1, ISF_i32 = 0, ISF_u32 = 0, ISF_i64 = 0, ISF_u64 = 0 };

#define AM_TEST(sfx, T)                                                            \
    static void test_argminmax_##sfx(void **state) {                               \
        (void)state;                                                               \
        AM_LENGTHS(AM_CHECK, sfx, T)                                               \
    }
AM_TEST(f32, float)
AM_TEST(f64, double)
AM_TEST(i32, int32_t)
AM_TEST(u32, uint32_t)
AM_TEST(i64, int64_t)
AM_TEST(u64, uint64_t)

/* hand-made cases, the documented examples and a non-contiguous view: the
 * index is the view's own linear index */
TILE_KERNEL_SMEM(am_cases, 32, TILE_SMEM_BYTES(float, 9, 11), const float *in8, const float *in99, int *out) {
    tile_reg(float, t, 8);
    tile_load(t, tile_array1(in8, 8), 0);
    tile_argmin(a, t);
    tile_argmax(b, t);
    tile_reg(float, u, 5); /* the first five: no NaN */
    tile_load(u, tile_array1(in8, 5), 0);
    tile_argmin(c, u);
    tile_argmax(d, u);
    tile_shared(float, s, 9, 11);
    tile_load(s, tile_array2(in99, 9, 11), 0, 0);
    tile_view(v, s, (4, 7), (3, 2));
    tile_argmin(e, v);
    tile_argmax(f, v);
    out[0] = tile_value(a);
    out[1] = tile_value(b);
    out[2] = tile_value(c);
    out[3] = tile_value(d);
    out[4] = tile_value(e);
    out[5] = tile_value(f);
}
static void test_argminmax_cases(void **state) {
    (void)state;
    const float in8[8] = {3, 1, 4, 1, 5, NAN, 9, NAN};
    float in99[99];
    for (int i = 0; i < 99; ++i) in99[i] = (float)tu_val(i, 5, 1);
    int out[6];
    assert_tile_ok(tile_launch(TILE_CPU, am_cases, tile_grid1(1), 32, in8, in99, out));
    assert_int_equal(out[0], 5); /* NaN is the extreme for both */
    assert_int_equal(out[1], 5);
    assert_int_equal(out[2], 1); /* tie at 1 and 3: first */
    assert_int_equal(out[3], 4);
    int mn = 0, mx = 0;
    float vmn = in99[3 * 11 + 2], vmx = vmn;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 7; ++j) {
            float x = in99[(3 + i) * 11 + 2 + j];
            if (x < vmn) vmn = x, mn = i * 7 + j;
            if (x > vmx) vmx = x, mx = i * 7 + j;
        }
    assert_int_equal(out[4], mn);
    assert_int_equal(out[5], mx);
}

/* ======================================================================
 * axis reductions
 * ====================================================================== */
TILE_FUNC float absmax_f(float a, float b) { return fabsf(a) > fabsf(b) ? fabsf(a) : fabsf(b); }

/* out: sum over axis 1 (D0), sum over axis 0 (D1), min axis 1, max axis 0 of a
 * register tile; sum axis 1, max axis 0, custom op axis 1 of a shared copy;
 * then the shape flags */
#define AX2_KERNEL(name, B, D0, D1)                                                \
    TILE_KERNEL_SMEM(name, B, TILE_SMEM_BYTES(float, D0, D1), const float *in, float *out, int *flags) { \
        tile_reg(float, r, D0, D1);                                                \
        tile_load(r, tile_array2(in, D0, D1), 0, 0);                               \
        tile_sum_axis(s1, r, 1);                                                   \
        tile_sum_axis(s0, r, 0);                                                   \
        tile_min_axis(m1, r, 1);                                                   \
        tile_max_axis(x0, r, 0);                                                   \
        tile_shared(float, sh, D0, D1);                                            \
        tile_copy(sh, r);                                                          \
        tile_sum_axis(t1, sh, 1);                                                  \
        tile_max_axis(t0, sh, 0);                                                  \
        tile_reduce_axis(c1, absmax_f, sh, 1);                                     \
        float *o = out;                                                            \
        tile_store(tile_array1(o, D0), s1, 0);                                     \
        o += D0;                                                                   \
        tile_store(tile_array1(o, D1), s0, 0);                                     \
        o += D1;                                                                   \
        tile_store(tile_array1(o, D0), m1, 0);                                     \
        o += D0;                                                                   \
        tile_store(tile_array1(o, D1), x0, 0);                                     \
        o += D1;                                                                   \
        tile_store(tile_array1(o, D0), t1, 0);                                     \
        o += D0;                                                                   \
        tile_store(tile_array1(o, D1), t0, 0);                                     \
        o += D1;                                                                   \
        tile_store(tile_array1(o, D0), c1, 0);                                     \
        flags[0] = tile_ndim(s1) == 1 && tile_dim(s1, 0) == D0 && tile_ndim(s0) == 1 && \
                   tile_dim(s0, 0) == D1 && !tile_is_shared(t1) && !tile_is_shared(t0); \
    }
AX2_KERNEL(ax_1x1, 32, 1, 1)
AX2_KERNEL(ax_3x5, 64, 3, 5)
AX2_KERNEL(ax_64x64, 256, 64, 64)
AX2_KERNEL(ax_4x512, 256, 4, 512)
AX2_KERNEL(ax_257x3, 96, 257, 3)
AX2_KERNEL(ax_33x32, 1024, 33, 32)

static void check_ax2(const float *in, int D0, int D1, const float *out, const char *what) {
    const float *o = out;
    for (int part = 0; part < 7; ++part) {
        const int along1 = part == 0 || part == 2 || part == 4 || part == 6; /* reduce axis 1 -> D0 results */
        const int n = along1 ? D0 : D1, K = along1 ? D1 : D0;
        for (int m = 0; m < n; ++m) {
            double s = 0, mn = 1e300, mx = -1e300, am = 0;
            for (int k = 0; k < K; ++k) {
                double x = along1 ? in[m * D1 + k] : in[k * D1 + m];
                s += x;
                mn = x < mn ? x : mn;
                mx = x > mx ? x : mx;
                am = fabs(x) > am ? fabs(x) : am;
            }
            const double ref[7] = {s, s, mn, mx, s, mx, am};
            if (!(fabs(o[m] - ref[part]) <= 1e-4 * (1 + fabs(ref[part])))) {
                print_error("%s part %d element %d: got %.9g, expected %.9g\n", what, part, m, (double)o[m],
                            ref[part]);
                fail();
            }
        }
        o += n;
    }
}
#define AX2_RUN(name, B, D0, D1)                                                   \
    do {                                                                           \
        static float in[(D0) * (D1)], out[4 * (D0) + 3 * (D1)];                    \
        int flags[1] = {0};                                                        \
        for (int i = 0; i < (D0) * (D1); ++i) in[i] = (float)tu_val(i, D0 * 7 + D1, 1); \
        assert_tile_ok(tile_launch(TILE_CPU, name, tile_grid1(1), B, in, out, flags)); \
        assert_int_equal(flags[0], 1);                                             \
        check_ax2(in, D0, D1, out, #name);                                         \
    } while (0)

/* 3D (2, 3, 4) along each axis, 1D (7) -> (1), a view, i32 min/max, vec3f sums */
TILE_KERNEL_SMEM(ax_misc, 64, TILE_SMEM_BYTES(double, 9, 11) + TILE_SMEM_BYTES(double, 2, 3, 4), const double *in24,
                 const double *in99, const int32_t *ini, const tile_vec3f *inv, double *out, int32_t *outi,
                 tile_vec3f *outv, int *flags) {
    tile_reg(double, a, 2, 3, 4);
    tile_load(a, tile_array3(in24, 2, 3, 4), 0, 0, 0);
    tile_sum_axis(r0, a, 0); /* (3, 4) */
    tile_sum_axis(r1, a, 1); /* (2, 4) */
    tile_sum_axis(r2, a, 2); /* (2, 3) */
    tile_shared(double, as, 2, 3, 4);
    tile_copy(as, a);
    tile_max_axis(q1, as, 1); /* (2, 4) */
    tile_store(tile_array2(out, 3, 4), r0, 0, 0);
    tile_store(tile_array2(out + 12, 2, 4), r1, 0, 0);
    tile_store(tile_array2(out + 20, 2, 3), r2, 0, 0);
    tile_store(tile_array2(out + 26, 2, 4), q1, 0, 0);
    tile_reg(double, l, 7);
    tile_load(l, tile_array1(in24, 7), 0);
    tile_sum_axis(l0, l, 0); /* (1) */
    out[34] = tile_value(l0);
    tile_shared(double, s, 9, 11);
    tile_load(s, tile_array2(in99, 9, 11), 0, 0);
    tile_view(v, s, (4, 7), (3, 2));
    tile_sum_axis(v1, v, 1); /* (4) */
    tile_min_axis(v0, v, 0); /* (7) */
    tile_store(tile_array1(out + 35, 4), v1, 0);
    tile_store(tile_array1(out + 39, 7), v0, 0);
    tile_reg(int32_t, ti, 6, 10);
    tile_load(ti, tile_array2(ini, 6, 10), 0, 0);
    tile_min_axis(i1, ti, 1);
    tile_max_axis(i0, ti, 0);
    tile_sum_axis(is1, ti, 1);
    tile_store(tile_array1(outi, 6), i1, 0);
    tile_store(tile_array1(outi + 6, 10), i0, 0);
    tile_store(tile_array1(outi + 16, 6), is1, 0);
    tile_reg(tile_vec3f, tv, 5, 6);
    tile_load(tv, tile_array2(inv, 5, 6), 0, 0);
    tile_sum_axis(vs1, tv, 1);
    tile_sum_axis(vs0, tv, 0);
    tile_store(tile_array1(outv, 5), vs1, 0);
    tile_store(tile_array1(outv + 5, 6), vs0, 0);
    flags[0] = tile_ndim(r0) == 2 && tile_dim(r0, 0) == 3 && tile_dim(r0, 1) == 4 && tile_ndim(r1) == 2 &&
               tile_dim(r1, 0) == 2 && tile_dim(r1, 1) == 4 && tile_dim(r2, 0) == 2 && tile_dim(r2, 1) == 3 &&
               tile_ndim(l0) == 1 && tile_size(l0) == 1 && tile_size(v1) == 4 && tile_size(v0) == 7;
}

static void test_axis_2d(void **state) {
    (void)state;
    AX2_RUN(ax_1x1, 32, 1, 1);
    AX2_RUN(ax_3x5, 64, 3, 5);
    AX2_RUN(ax_64x64, 256, 64, 64);
    AX2_RUN(ax_4x512, 256, 4, 512);
    AX2_RUN(ax_257x3, 96, 257, 3);
    AX2_RUN(ax_33x32, 1024, 33, 32);
}

static void test_axis_misc(void **state) {
    (void)state;
    double in24[24], in99[99], out[46];
    int32_t ini[60], outi[22];
    tile_vec3f inv[30], outv[11];
    int flags[1] = {0};
    for (int i = 0; i < 24; ++i) in24[i] = tu_val(i, 31, 1);
    for (int i = 0; i < 99; ++i) in99[i] = tu_val(i, 32, 1);
    for (int i = 0; i < 60; ++i) ini[i] = (int32_t)tu_val(i, 33, 0);
    for (int i = 0; i < 30; ++i)
        for (int c = 0; c < 3; ++c) inv[i].v[c] = (float)tu_val(i * 3 + c, 34, 1);
    assert_tile_ok(tile_launch(TILE_CPU, ax_misc, tile_grid1(1), 64, in24, in99, ini, inv, out, outi, outv, flags));
    assert_int_equal(flags[0], 1);
#define A3(i, j, k) in24[((i)*3 + (j)) * 4 + (k)]
    for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) assert_close(out[j * 4 + k], A3(0, j, k) + A3(1, j, k), 0);
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 4; ++k) {
            double s = 0, mx = -1e300;
            for (int j = 0; j < 3; ++j) s += A3(i, j, k), mx = A3(i, j, k) > mx ? A3(i, j, k) : mx;
            assert_close(out[12 + i * 4 + k], s, 0);
            assert_close(out[26 + i * 4 + k], mx, 0);
        }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) {
            double s = 0;
            for (int k = 0; k < 4; ++k) s += A3(i, j, k);
            assert_close(out[20 + i * 3 + j], s, 0);
        }
#undef A3
    {
        double s = 0;
        for (int i = 0; i < 7; ++i) s += in24[i];
        assert_close(out[34], s, 0);
    }
    for (int i = 0; i < 4; ++i) {
        double s = 0;
        for (int j = 0; j < 7; ++j) s += in99[(3 + i) * 11 + 2 + j];
        assert_close(out[35 + i], s, 0);
    }
    for (int j = 0; j < 7; ++j) {
        double mn = 1e300;
        for (int i = 0; i < 4; ++i) mn = in99[(3 + i) * 11 + 2 + j] < mn ? in99[(3 + i) * 11 + 2 + j] : mn;
        assert_close(out[39 + j], mn, 0);
    }
    for (int i = 0; i < 6; ++i) {
        int32_t mn = INT32_MAX, s = 0;
        for (int j = 0; j < 10; ++j) mn = ini[i * 10 + j] < mn ? ini[i * 10 + j] : mn, s += ini[i * 10 + j];
        assert_int_equal(outi[i], mn);
        assert_int_equal(outi[16 + i], s);
    }
    for (int j = 0; j < 10; ++j) {
        int32_t mx = INT32_MIN;
        for (int i = 0; i < 6; ++i) mx = ini[i * 10 + j] > mx ? ini[i * 10 + j] : mx;
        assert_int_equal(outi[6 + j], mx);
    }
    for (int c = 0; c < 3; ++c) {
        for (int i = 0; i < 5; ++i) {
            double s = 0;
            for (int j = 0; j < 6; ++j) s += inv[i * 6 + j].v[c];
            assert_close(outv[i].v[c], s, 0);
        }
        for (int j = 0; j < 6; ++j) {
            double s = 0;
            for (int i = 0; i < 5; ++i) s += inv[i * 6 + j].v[c];
            assert_close(outv[5 + j].v[c], s, 0);
        }
    }
}

/* ======================================================================
 * vectors and matrices
 * ====================================================================== */
/* the seed's reduction: thread i contributes i * I; the block sum is added
 * into one global matrix, so CPU (32 one-thread blocks) and GPU agree */
TILE_KERNEL(mat33_sum, 32, tile_mat33f *acc) {
    tile_mat33f m = tile_mat33f_diag((float)tile_tid(0));
    tile_from_values(t, m);
    tile_sum(s, t);
    tile_atomic_add(tile_array1(acc, 1), s, 0);
}
/* large elements with large blocks (the GPU takes the big-scratch path) */
TILE_KERNEL(big_sums, 1024, const tile_mat66d *m, const tile_vec3d *v, tile_mat66d *om, tile_vec3d *ov,
            tile_vec3d *acc) {
    tile_reg(tile_mat66d, tm, 100);
    tile_load(tm, tile_array1(m, 100), 0);
    tile_sum(sm, tm);
    *om = tile_value(sm);
    tile_reg(tile_vec3d, tv, 7);
    tile_load(tv, tile_array1(v, 7), 0);
    tile_sum(sv, tv);
    *ov = tile_value(sv);
    tile_atomic_add(tile_array1(acc, 7), tv, 0); /* component-wise, element by element */
}
/* tile_atomic_add_ptr on a vector, a matrix and a scalar; fetch-add on every
 * integer type */
TILE_KERNEL(atomics, 32, tile_vec3d *v, tile_mat22f *m, double *d, int32_t *i32, uint32_t *u32, int64_t *i64,
            uint64_t *u64, int64_t *old) {
    tile_atomic_add_ptr(v, tile_vec3d_set(1, 2, 3));
    tile_atomic_add_ptr(m, tile_mat22f_diag(0.5f));
    tile_atomic_add_ptr(d, 0.25);
    old[0] = tile_atomic_fetch_add(i32, -5);
    old[1] = (int64_t)tile_atomic_fetch_add(u32, 7u);
    old[2] = tile_atomic_fetch_add(i64, (int64_t)1 << 40);
    old[3] = (int64_t)tile_atomic_fetch_add(u64, (uint64_t)3);
}

static void test_compound(void **state) {
    (void)state;
    tile_mat33f acc;
    memset(&acc, 0, sizeof(acc));
    assert_tile_ok(tile_launch_simt(TILE_CPU, mat33_sum, tile_grid1(32), 32, &acc));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) assert_true(acc.m[i][j] == (i == j ? 496.0f : 0.0f));

    static tile_mat66d m[100];
    tile_vec3d v[7], acc7[7], ov;
    tile_mat66d om;
    for (int e = 0; e < 100; ++e)
        for (int c = 0; c < 36; ++c) m[e].m[c / 6][c % 6] = tu_val(e * 36 + c, 41, 1);
    for (int e = 0; e < 7; ++e)
        for (int c = 0; c < 3; ++c) v[e].v[c] = tu_val(e * 3 + c, 42, 1), acc7[e].v[c] = 100.0 * c;
    assert_tile_ok(tile_launch(TILE_CPU, big_sums, tile_grid1(3), 1024, m, v, &om, &ov, acc7));
    for (int c = 0; c < 36; ++c) {
        double s = 0;
        for (int e = 0; e < 100; ++e) s += m[e].m[c / 6][c % 6];
        assert_close(om.m[c / 6][c % 6], s, 0);
    }
    for (int c = 0; c < 3; ++c) {
        double s = 0;
        for (int e = 0; e < 7; ++e) {
            s += v[e].v[c];
            assert_close(acc7[e].v[c], 100.0 * c + 3 * v[e].v[c], 0); /* three blocks added */
        }
        assert_close(ov.v[c], s, 0);
    }

    tile_vec3d av = tile_vec3d_set(10, 20, 30);
    tile_mat22f am = tile_mat22f_diag(1);
    double d = 1;
    int32_t i32 = 3;
    uint32_t u32 = UINT32_MAX - 20;
    int64_t i64 = -1, old[4];
    uint64_t u64 = UINT64_MAX - 5;
    assert_tile_ok(tile_launch_simt(TILE_CPU, atomics, tile_grid1(32 * 4), 32, &av, &am, &d, &i32, &u32, &i64, &u64,
                                    old)); /* 128 one-thread blocks on the CPU */
    for (int c = 0; c < 3; ++c) assert_close(av.v[c], 10.0 * (c + 1) + 128.0 * (c + 1), 0);
    assert_close(am.m[0][0], 1 + 64, 0);
    assert_close(am.m[1][1], 1 + 64, 0);
    assert_close(am.m[0][1], 0, 0);
    assert_close(d, 1 + 32, 0);
    assert_int_equal(i32, 3 - 5 * 128);
    assert_true(u32 == (uint32_t)(UINT32_MAX - 20 + 7u * 128u)); /* wraps */
    assert_true(i64 == -1 + ((int64_t)128 << 40));
    assert_true(u64 == (uint64_t)(UINT64_MAX - 5 + 3u * 128u));
    /* the last call saw the value before its own add */
    assert_int_equal(old[0], 3 - 5 * 127);
    assert_true((uint32_t)old[1] == (uint32_t)(UINT32_MAX - 20 + 7u * 127u));
    assert_true(old[2] == -1 + ((int64_t)127 << 40));
    assert_true((uint64_t)old[3] == (uint64_t)(UINT64_MAX - 5 + 3u * 127u));
}

#include "../reduce_ref.h" /* HF_KERNEL, hf_input, hf_check */
HF_KERNEL(hf_b256, 256)

static void test_f16_f32acc(void **state) {
    (void)state;
    static tile_bf16 hb[HF_N];
    static tile_f16 hh[HF_N];
    double ref[4];
    float out[4];
    hf_input(hb, hh, ref);
    memset(out, 0xFF, sizeof out);
    assert_tile_ok(tile_launch(TILE_CPU, hf_b256, tile_grid1(1), 256, hb, hh, out));
    assert_int_equal(hf_check(out, 1, ref), 0);
}
/* the header example: 4096 bf16 ones sum to 4096 in f32 */
TILE_KERNEL(hf_ones, 64, float *out) {
    tile_reg(tile_bf16, h, 4096);
    tile_full(h, tile_f32_to_bf16(1.0f));
    tile_sum_f32(s, h);
    out[0] = tile_value(s);
}
static void test_f16_doc(void **state) {
    (void)state;
    float out = 0;
    assert_tile_ok(tile_launch(TILE_CPU, hf_ones, tile_grid1(1), 64, &out));
    assert_true(out == 4096.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_argminmax_f32), cmocka_unit_test(test_argminmax_f64),
        cmocka_unit_test(test_argminmax_i32), cmocka_unit_test(test_argminmax_u32),
        cmocka_unit_test(test_argminmax_i64), cmocka_unit_test(test_argminmax_u64),
        cmocka_unit_test(test_argminmax_cases), cmocka_unit_test(test_axis_2d),
        cmocka_unit_test(test_axis_misc),     cmocka_unit_test(test_compound), cmocka_unit_test(test_f16_f32acc), cmocka_unit_test(test_f16_doc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
