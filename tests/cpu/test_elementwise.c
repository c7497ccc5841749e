/* Element-wise operations on the CPU: tile * / constant both ways, tile * /
 * tile, Warp's promotion (scalar with vector/matrix), in-place forms, maps
 * with user functions, copies, tile_to_shared, tile_set / tile_get; register
 * and shared operands mixed. (add / sub / neg for every type: test_tiles.c) */
#include "test_util.h"

#define R 3
#define C 5
#define NE (R * C)
enum { NOUT = 10 };

/* Every element type T with its scalar S: a (T, nonzero), b (T), sc (S tile
 * values, nonzero), k (S constant, nonzero). out[j * NE + .] for:
 *  0 a * k   1 k * b   2 b / k   3 k / a   4 a * s   5 s * b   6 b / s   7 s / a
 *  8 ((a + b) * k - a) / k  in place   9 (b * s) / s  in place (shared) */
#define DEF_EW_KERNEL(sfx, T, S, kind, bits, nc)                                   \
    TILE_KERNEL_SMEM(ew_##sfx, 16, 3 * TILE_SMEM_BYTES(T, R, C) + TILE_SMEM_BYTES(S, R, C), const T *a, \
                     const T *b, const S *sc, S k, T *out) {                       \
        tile_array o = tile_array2(out, NOUT * R, C);                              \
        tile_reg(T, ra, R, C);                                                     \
        tile_shared(T, sb, R, C);                                                  \
        tile_reg(S, rs, R, C);                                                     \
        tile_shared(S, ss, R, C);                                                  \
        tile_reg(T, rc, R, C);                                                     \
        tile_shared(T, sd, R, C);                                                  \
        tile_load(ra, tile_array2(a, R, C), 0, 0);                                 \
        tile_load(sb, tile_array2(b, R, C), 0, 0);                                 \
        tile_load(rs, tile_array2(sc, R, C), 0, 0);                                \
        tile_copy(ss, rs);                                                         \
        tile_mul_c(rc, ra, k);                                                     \
        tile_store(o, rc, 0 * R, 0);                                               \
        tile_c_mul(sd, k, sb);                                                     \
        tile_store(o, sd, 1 * R, 0);                                               \
        tile_div_c(rc, sb, k);                                                     \
        tile_store(o, rc, 2 * R, 0);                                               \
        tile_c_div(sd, k, ra);                                                     \
        tile_store(o, sd, 3 * R, 0);                                               \
        tile_mul(rc, ra, ss);                                                      \
        tile_store(o, rc, 4 * R, 0);                                               \
        tile_mul(sd, rs, sb);                                                      \
        tile_store(o, sd, 5 * R, 0);                                               \
        tile_div(rc, sb, rs);                                                      \
        tile_store(o, rc, 6 * R, 0);                                               \
        tile_div(sd, ss, ra);                                                      \
        tile_store(o, sd, 7 * R, 0);                                               \
        tile_copy(rc, ra);                                                         \
        tile_iadd(rc, sb);                                                         \
        tile_imul_c(rc, k);                                                        \
        tile_isub(rc, ra);                                                         \
        tile_idiv_c(rc, k);                                                        \
        tile_store(o, rc, 8 * R, 0);                                               \
        tile_shared(T, se, R, C);                                                  \
        tile_copy(se, sb);                                                         \
        tile_imul(se, rs);                                                         \
        tile_idiv(se, ss);                                                         \
        tile_store(o, se, 9 * R, 0);                                               \
    }
TU_ALL_TYPES(DEF_EW_KERNEL)

/* C's integer division truncates toward zero */
static double ref_div(const tu_type *t, double x, double y) { return t->kind == TU_F ? x / y : trunc(x / y); }

static void check_ew(const tu_type *t, const void *a, const void *b, const void *sc, double k, const void *out) {
    const tu_type st = {"scalar", t->kind, t->bits, 1, 0};
    int nc = t->ncomp;
    for (int e = 0; e < NE; ++e) {
        double s = tu_get(&st, sc, (size_t)e);
        for (int c = 0; c < nc; ++c) {
            size_t i = (size_t)(e * nc + c), n = (size_t)(NE * nc);
            double av = tu_get(t, a, i), bv = tu_get(t, b, i);
            tu_check(t, out, 0 * n + i, av * k, "a * k");
            tu_check(t, out, 1 * n + i, k * bv, "k * b");
            tu_check(t, out, 2 * n + i, ref_div(t, bv, k), "b / k");
            tu_check(t, out, 3 * n + i, ref_div(t, k, av), "k / a");
            tu_check(t, out, 4 * n + i, av * s, "a * s");
            tu_check(t, out, 5 * n + i, s * bv, "s * b");
            tu_check(t, out, 6 * n + i, ref_div(t, bv, s), "b / s");
            tu_check(t, out, 7 * n + i, ref_div(t, s, av), "s / a");
            tu_check(t, out, 8 * n + i, ref_div(t, (av + bv) * k - av, k), "in place: ((a + b) * k - a) / k");
            tu_check(t, out, 9 * n + i, ref_div(t, bv * s, s), "in place: (b * s) / s");
        }
    }
}

#define RUN_EW(sfx, T, S, kind, bits, nc)                                          \
    static void test_ew_##sfx(void **state) {                                     \
        (void)state;                                                               \
        const tu_type t = TU_TYPE(sfx, T, S, kind, bits, nc);                      \
        const tu_type st = {#sfx " scalar", kind, bits, 1, sizeof(S)};             \
        static T a[NE], b[NE], out[NOUT * NE];                                     \
        static S sc[NE];                                                           \
        tu_fill(&t, a, (size_t)NE * (nc), 11, 1);                                  \
        tu_fill(&t, b, (size_t)NE * (nc), 12, 0);                                  \
        tu_fill(&st, sc, NE, 13, 1);                                               \
        const S k = (S)((kind) == TU_F ? -1.5 : 3);                                \
        assert_tile_ok(tile_launch(TILE_CPU, ew_##sfx, tile_grid1(1), 16, a, b, sc, k, out)); \
        check_ew(&t, a, b, sc, (double)k, out);                                    \
    }
TU_ALL_TYPES(RUN_EW)

/* ---- Warp's promotion with explicit types ----
 * f32 tile * vec3f constant -> vec3f tile; vec3f tile / f32 tile -> vec3f;
 * f64 tile with mat33d constant -> mat33d tile. */
TILE_KERNEL_SMEM(promote, 32, TILE_SMEM_BYTES(tile_vec3f, 4, 2), const float *f, tile_vec3f kv, const double *d,
                 tile_mat33d km, tile_vec3f *ov, tile_mat33d *om) {
    tile_reg(float, tf, 4, 2);
    tile_load(tf, tile_array2(f, 4, 2), 0, 0);
    tile_reg(tile_vec3f, v, 4, 2);
    tile_mul_c(v, tf, kv); /* f32 tile * vec3f constant */
    tile_store(tile_array2(ov, 4, 2), v, 0, 0);
    tile_shared(tile_vec3f, sv, 4, 2);
    tile_div(sv, v, tf); /* vec3f tile / f32 tile */
    tile_store(tile_array2(ov + 8, 4, 2), sv, 0, 0);
    tile_c_mul(v, kv, tf); /* vec3f constant * f32 tile */
    tile_store(tile_array2(ov + 16, 4, 2), v, 0, 0);
    tile_div_c(v, tf, kv); /* f32 tile / vec3f constant: per component */
    tile_store(tile_array2(ov + 24, 4, 2), v, 0, 0);
    tile_c_div(sv, kv, tf); /* vec3f constant / f32 tile */
    tile_store(tile_array2(ov + 32, 4, 2), sv, 0, 0);
    tile_mul(v, tf, sv); /* f32 tile * vec3f tile */
    tile_store(tile_array2(ov + 40, 4, 2), v, 0, 0);
    tile_reg(double, td, 6);
    tile_load(td, tile_array1(d, 6), 0);
    tile_reg(tile_mat33d, m, 6);
    tile_mul_c(m, td, km); /* f64 tile * mat33d constant -> mat33d tile */
    tile_store(tile_array1(om, 6), m, 0);
    tile_idiv(m, td); /* mat33d tile / f64 tile, in place */
    tile_store(tile_array1(om + 6, 6), m, 0);
}

static void test_promotion(void **state) {
    (void)state;
    float f[8];
    double d[6];
    for (int i = 0; i < 8; ++i) f[i] = (float)tu_val_nz(i, 21, 1);
    for (int i = 0; i < 6; ++i) d[i] = tu_val_nz(i, 22, 1);
    tile_vec3f kv = tile_vec3f_set(1.5f, -2.0f, 0.25f);
    tile_mat33d km;
    for (int i = 0; i < 9; ++i) km.m[i / 3][i % 3] = i - 4.5;
    static tile_vec3f ov[48];
    static tile_mat33d om[12];
    assert_tile_ok(tile_launch(TILE_CPU, promote, tile_grid1(1), 32, f, kv, d, km, ov, om));
    for (int e = 0; e < 8; ++e)
        for (int c = 0; c < 3; ++c) {
            double fe = f[e], kc = kv.v[c];
            assert_close(ov[e].v[c], fe * kc, TU_TOL_F32);
            assert_close(ov[8 + e].v[c], fe * kc / fe, TU_TOL_F32);
            assert_close(ov[16 + e].v[c], kc * fe, TU_TOL_F32);
            assert_close(ov[24 + e].v[c], fe / kc, TU_TOL_F32);
            assert_close(ov[32 + e].v[c], kc / fe, TU_TOL_F32);
            assert_close(ov[40 + e].v[c], fe * (kc / fe), TU_TOL_F32);
        }
    for (int e = 0; e < 6; ++e)
        for (int i = 0; i < 9; ++i) {
            double de = d[e], kc = km.m[i / 3][i % 3];
            assert_close(om[e].m[i / 3][i % 3], de * kc, TU_TOL_F64);
            assert_close(om[6 + e].m[i / 3][i % 3], de * kc / de, TU_TOL_F64);
        }
}

/* ---- mixed scalar types: a tile-by-tile product needs one element type
 * (tile_astype converts; tests/compile_fail/mixed_types_mul.c refuses the
 * mix), a constant converts to the tile's type ---- */
TILE_KERNEL(mixed_scalars, 8, const float *f, const int32_t *i, const double *d, float *of, double *od, int32_t *oi) {
    tile_reg(float, tf, 10);
    tile_reg(int32_t, ti, 10);
    tile_reg(double, td, 10);
    tile_load(tf, tile_array1(f, 10), 0);
    tile_load(ti, tile_array1(i, 10), 0);
    tile_load(td, tile_array1(d, 10), 0);
    tile_reg(float, rf, 10);
    tile_reg(float, tif, 10);
    tile_astype(tif, ti);
    tile_mul(rf, tf, tif); /* f32 * (f32)i32 */
    tile_store(tile_array1(of, 10), rf, 0);
    tile_reg(float, tdf, 10);
    tile_astype(tdf, td);
    tile_div(rf, tf, tdf); /* f32 / (f32)f64 */
    tile_store(tile_array1(of + 10, 10), rf, 0);
    tile_reg(double, rd, 10);
    tile_mul_c(rd, td, 2.5f); /* f64 * f32 constant */
    tile_store(tile_array1(od, 10), rd, 0);
    tile_c_div(rd, 7.0, td); /* constant / f64 tile */
    tile_store(tile_array1(od + 10, 10), rd, 0);
    tile_reg(int32_t, ri, 10);
    tile_div_c(ri, ti, 4); /* i32 / int */
    tile_store(tile_array1(oi, 10), ri, 0);
    tile_reg(int32_t, tdi, 10);
    tile_astype(tdi, td);
    tile_mul(ri, ti, tdi); /* i32 * (i32)f64: the double converts first */
    tile_store(tile_array1(oi + 10, 10), ri, 0);
}

static void test_mixed_scalars(void **state) {
    (void)state;
    float f[10], of[20];
    int32_t i[10], oi[20];
    double d[10], od[20];
    for (int k = 0; k < 10; ++k) {
        f[k] = (float)tu_val(k, 31, 1);
        i[k] = (int32_t)tu_val(k, 32, 0);
        d[k] = tu_val_nz(k, 33, 1);
    }
    assert_tile_ok(tile_launch(TILE_CPU, mixed_scalars, tile_grid1(1), 8, f, i, d, of, od, oi));
    for (int k = 0; k < 10; ++k) {
        assert_close(of[k], (double)f[k] * i[k], TU_TOL_F32);
        assert_close(of[10 + k], (double)f[k] / (double)(float)d[k], TU_TOL_F32);
        assert_close(od[k], d[k] * 2.5, TU_TOL_F64);
        assert_close(od[10 + k], 7.0 / d[k], TU_TOL_F64);
        assert_int_equal(oi[k], (int32_t)trunc(i[k] / 4.0));
        assert_int_equal(oi[10 + k], i[k] * (int32_t)d[k]);
    }
}

/* ---- maps with user functions ---- */
TILE_FUNC float square_plus(float x) { return x * x + 0.5f; }
TILE_FUNC double fma3(double x, double y) { return 3.0 * x + y; }
TILE_FUNC int32_t floor_to_int(float x) { return (int32_t)floorf(x); }
TILE_FUNC tile_vec3f cross3(tile_vec3f a, tile_vec3f b) {
    return tile_vec3f_set(a.v[1] * b.v[2] - a.v[2] * b.v[1], a.v[2] * b.v[0] - a.v[0] * b.v[2],
                          a.v[0] * b.v[1] - a.v[1] * b.v[0]);
}
TILE_FUNC float dot3(tile_vec3f a) { return a.v[0] * a.v[0] + a.v[1] * a.v[1] + a.v[2] * a.v[2]; }
#define MAX_MACRO(x, y) ((x) > (y) ? (x) : (y))

TILE_KERNEL_SMEM(maps, 64, TILE_SMEM_BYTES(double, 2, 3, 4) + TILE_SMEM_BYTES(tile_vec3f, 7), const float *f,
                 const double *d, const tile_vec3f *v, float *of, double *od, int32_t *oi, tile_vec3f *ov) {
    tile_reg(float, tf, 2, 3, 4);
    tile_load(tf, tile_array3(f, 2, 3, 4), 0, 0, 0);
    tile_map(tf, square_plus, tf); /* in place */
    tile_store(tile_array3(of, 2, 3, 4), tf, 0, 0, 0);
    tile_reg(int32_t, ti, 2, 3, 4);
    tile_load(tf, tile_array3(f, 2, 3, 4), 0, 0, 0);
    tile_map(ti, floor_to_int, tf); /* another element type */
    tile_store(tile_array3(oi, 2, 3, 4), ti, 0, 0, 0);
    tile_shared(double, sd, 2, 3, 4);
    tile_load(sd, tile_array3(d, 2, 3, 4), 0, 0, 0);
    tile_reg(double, rd, 2, 3, 4);
    tile_map2(rd, fma3, sd, tf); /* shared and register, float converts */
    tile_store(tile_array3(od, 2, 3, 4), rd, 0, 0, 0);
    tile_map2(sd, MAX_MACRO, sd, rd); /* a macro works too; shared destination */
    tile_store(tile_array3(od + 24, 2, 3, 4), sd, 0, 0, 0);
    tile_reg(tile_vec3f, va, 7);
    tile_shared(tile_vec3f, vb, 7);
    tile_load(va, tile_array1(v, 7), 0);
    tile_load(vb, tile_array1(v + 7, 7), 0);
    tile_reg(tile_vec3f, vc, 7);
    tile_map2(vc, cross3, va, vb);
    tile_store(tile_array1(ov, 7), vc, 0);
    tile_reg(float, vd, 7);
    tile_map(vd, dot3, vc);
    tile_store(tile_array1(of + 24, 7), vd, 0);
}

static void test_maps(void **state) {
    (void)state;
    float f[24], of[31];
    double d[24], od[48];
    int32_t oi[24];
    tile_vec3f v[14], ov[7];
    for (int i = 0; i < 24; ++i) f[i] = (float)tu_val(i, 41, 1), d[i] = tu_val(i, 42, 1);
    for (int i = 0; i < 14; ++i)
        for (int c = 0; c < 3; ++c) v[i].v[c] = (float)tu_val(i * 3 + c, 43, 1);
    assert_tile_ok(tile_launch(TILE_CPU, maps, tile_grid1(1), 64, f, d, v, of, od, oi, ov));
    for (int i = 0; i < 24; ++i) {
        double x = f[i];
        assert_close(of[i], x * x + 0.5, TU_TOL_F32);
        assert_int_equal(oi[i], (int32_t)floor(x));
        double r = 3.0 * d[i] + x;
        assert_close(od[i], r, TU_TOL_F64);
        assert_close(od[24 + i], d[i] > r ? d[i] : r, TU_TOL_F64);
    }
    for (int i = 0; i < 7; ++i) {
        const float *a = v[i].v, *b = v[7 + i].v;
        double cr[3] = {(double)a[1] * b[2] - (double)a[2] * b[1], (double)a[2] * b[0] - (double)a[0] * b[2],
                        (double)a[0] * b[1] - (double)a[1] * b[0]};
        double dot = 0;
        for (int c = 0; c < 3; ++c) {
            assert_close(ov[i].v[c], cr[c], TU_TOL_F32);
            dot += cr[c] * cr[c];
        }
        assert_close(of[24 + i], dot, TU_TOL_F32);
    }
}

/* ---- copies, tile_to_shared, tile_set / tile_get ---- */
TILE_KERNEL_SMEM(copies, 16, 2048, const int32_t *in, double *out, int32_t *got) {
    tile_reg(int32_t, r, 4, 6);
    tile_load(r, tile_array2(in, 4, 6), 0, 0);
    tile_shared(double, s, 4, 6);
    tile_copy(s, r); /* register -> shared, i32 -> f64 */
    tile_imul_c(s, 0.5);
    tile_reg(double, r2, 4, 6);
    tile_copy(r2, s); /* shared -> register */
    tile_store(tile_array2(out, 4, 6), r2, 0, 0);
    tile_shared(double, s2, 4, 6);
    tile_copy(s2, s); /* shared -> shared */
    tile_set(s2, -100.0, 3, 5);
    tile_set(s2, 42.0, 0, 0);
    tile_store(tile_array2(out + 24, 4, 6), s2, 0, 0);
    tile_to_shared(ts, r); /* declares a shared copy */
    int n = 0;
    for (int i = 3; i >= 0; --i)
        for (int j = 5; j >= 0; j -= 2) got[n++] = tile_get(ts, i, j);
    got[n++] = tile_is_shared(ts);
    got[n++] = tile_ndim(ts) * 10 + tile_dim(ts, 1);
    /* tile_set on 1D, 3D and 4D shared tiles */
    tile_shared(int32_t, s1, 5);
    tile_zeros(s1);
    tile_set(s1, 9, 4);
    tile_shared(int32_t, s3, 2, 3, 2);
    tile_zeros(s3);
    tile_set(s3, 8, 1, 2, 0);
    tile_shared(int32_t, s4, 2, 2, 2, 3);
    tile_zeros(s4);
    tile_set(s4, 7, 1, 0, 1, 2);
    tile_sum(t1, s1);
    tile_sum(t3, s3);
    tile_sum(t4, s4);
    got[n++] = tile_get(s1, 4) * 1000000 + tile_value(t1);
    got[n++] = tile_get(s3, 1, 2, 0) * 1000000 + tile_value(t3);
    got[n++] = tile_get(s4, 1, 0, 1, 2) * 1000000 + tile_value(t4);
    got[n++] = tile_get(s4, 1, 0, 1, 1) + tile_get(s3, 1, 1, 1);
}

static void test_copies_set_get(void **state) {
    (void)state;
    int32_t in[24], got[12 + 6];
    double out[48];
    for (int i = 0; i < 24; ++i) in[i] = (int32_t)tu_val(i, 51, 0);
    assert_tile_ok(tile_launch(TILE_CPU, copies, tile_grid1(1), 16, in, out, got));
    for (int i = 0; i < 24; ++i) assert_close(out[i], in[i] * 0.5, 0);
    for (int i = 0; i < 24; ++i) {
        double ref = i == 23 ? -100.0 : i == 0 ? 42.0 : in[i] * 0.5;
        assert_close(out[24 + i], ref, 0);
    }
    int n = 0;
    for (int i = 3; i >= 0; --i)
        for (int j = 5; j >= 0; j -= 2) assert_int_equal(got[n++], in[i * 6 + j]);
    assert_int_equal(got[n++], 1);
    assert_int_equal(got[n++], 2 * 10 + 6);
    assert_int_equal(got[n++], 9 * 1000000 + 9);
    assert_int_equal(got[n++], 8 * 1000000 + 8);
    assert_int_equal(got[n++], 7 * 1000000 + 7);
    assert_int_equal(got[n++], 0);
}

#define LIST_EW(sfx, T, S, kind, bits, nc) cmocka_unit_test(test_ew_##sfx),
int main(void) {
    const struct CMUnitTest tests[] = {
        TU_ALL_TYPES(LIST_EW)
        cmocka_unit_test(test_promotion),
        cmocka_unit_test(test_mixed_scalars),
        cmocka_unit_test(test_maps),
        cmocka_unit_test(test_copies_set_get),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
