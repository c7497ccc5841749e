/* Register and shared tiles of 1 to 4 dims, of every element type (f32 f64
 * i32 u32 i64 u64, vec2/3/4 f and d, mat22/33/44/66 f and d) and of a user
 * struct: shape properties, load/store, add/sub/neg with register and shared
 * operands mixed. */
#include "test_util.h"

/* The four shapes and where their elements go in the flat test arrays. */
#define SH1 7
#define SH2 3, 5
#define SH3 2, 3, 4
#define SH4 2, 1, 3, 2
#define NTOT (7 + 15 + 24 + 12)
static const int shape_nd[4] = {1, 2, 3, 4};
static const int shape_dims[4][4] = {{7, 1, 1, 1}, {3, 5, 1, 1}, {2, 3, 4, 1}, {2, 1, 3, 2}};
static const int shape_off[4] = {0, 7, 22, 46};
static const int shape_n[4] = {7, 15, 24, 12};
enum { NPROP = 16 };

/* One shape: ra (register) and sb (shared) loaded from a and b;
 *   out[0 * NTOT + .] = ra + sb   (register = register + shared)
 *   out[1 * NTOT + .] = sb - ra   (shared = shared - register)
 *   out[2 * NTOT + .] = -(sb - ra) (register = -shared)
 * plus the compile-time properties of both tiles. */
#define TT_CASE(T, idx, nd, ...)                                                   \
    do {                                                                           \
        int tt_m = tile_smem_mark();                                               \
        const int tt_d[4] = {__VA_ARGS__};                                         \
        const int tt_o = shape_off[idx];                                           \
        tile_reg(T, ra, __VA_ARGS__);                                              \
        tile_shared(T, sb, __VA_ARGS__);                                           \
        tile_reg(T, rc, __VA_ARGS__);                                              \
        tile_shared(T, sd, __VA_ARGS__);                                           \
        tile_load(ra, tu_array(a + tt_o, tt_d, nd), 0);                            \
        tile_load(sb, tu_array(b + tt_o, tt_d, nd), 0);                            \
        tile_add(rc, ra, sb);                                                      \
        tile_store(tu_array(out + tt_o, tt_d, nd), rc, 0);                         \
        tile_sub(sd, sb, ra);                                                      \
        tile_store(tu_array(out + NTOT + tt_o, tt_d, nd), sd, 0);                  \
        tile_neg(rc, sd);                                                          \
        tile_store(tu_array(out + 2 * NTOT + tt_o, tt_d, nd), rc, 0);              \
        int *tt_p = props + (idx) * NPROP;                                         \
        tt_p[0] = tile_ndim(ra);                                                   \
        tt_p[1] = tile_size(ra);                                                   \
        tt_p[2] = tile_dim(ra, 0);                                                 \
        tt_p[3] = tile_dim(ra, 1);                                                 \
        tt_p[4] = tile_dim(ra, 2);                                                 \
        tt_p[5] = tile_dim(ra, 3);                                                 \
        tt_p[6] = tile_is_shared(ra);                                              \
        tt_p[7] = tile_slots(ra);                                                  \
        tt_p[8] = (int)(sizeof(ra.v) / sizeof(T));                                 \
        tt_p[9] = tile_ndim(sb);                                                   \
        tt_p[10] = tile_size(sb);                                                  \
        tt_p[11] = tile_dim(sb, 0) * 1000 + tile_dim(sb, 1) * 100 + tile_dim(sb, 2) * 10 + tile_dim(sb, 3); \
        tt_p[12] = tile_is_shared(sb);                                             \
        tt_p[13] = (int)((uintptr_t)sb.v % 16) + (int)((uintptr_t)sd.v % 16);      \
        tt_p[14] = (int)((char *)sd.v - (char *)sb.v);                             \
        tt_p[15] = (int)sizeof(TILE_ELEM_T(ra)) * 10 + (int)sizeof(TILE_ELEM_T(sb)); \
        tile_smem_release(tt_m);                                                   \
    } while (0)

#define DEF_TYPE_KERNEL(sfx, T, S, kind, bits, nc)                                 \
    TILE_KERNEL_SMEM(tk_##sfx, 32, 2 * TILE_SMEM_BYTES(T, 24), const T *a, const T *b, T *out, int *props) { \
        TT_CASE(T, 0, 1, SH1);                                                     \
        TT_CASE(T, 1, 2, SH2);                                                     \
        TT_CASE(T, 2, 3, SH3);                                                     \
        TT_CASE(T, 3, 4, SH4);                                                     \
    }
TU_ALL_TYPES(DEF_TYPE_KERNEL)

static void check_type(const tu_type *t, const void *a, const void *b, const void *out, const int *props) {
    for (int s = 0; s < 4; ++s) {
        const int *p = props + s * NPROP;
        const int *d = shape_dims[s];
        assert_int_equal(p[0], shape_nd[s]);
        assert_int_equal(p[1], shape_n[s]);
        for (int k = 0; k < 4; ++k) assert_int_equal(p[2 + k], d[k]);
        assert_int_equal(p[6], 0);
        assert_int_equal(p[7], shape_n[s]); /* block_dim 1: one slot per element */
        assert_int_equal(p[8], shape_n[s]);
        assert_int_equal(p[9], shape_nd[s]);
        assert_int_equal(p[10], shape_n[s]);
        assert_int_equal(p[11], d[0] * 1000 + d[1] * 100 + d[2] * 10 + d[3]);
        assert_int_equal(p[12], 1);
        assert_int_equal(p[13], 0); /* 16-byte aligned */
        assert_int_equal(p[14], (int)((t->size * (size_t)shape_n[s] + 15) / 16 * 16));
        assert_int_equal(p[15], (int)(t->size * 11));
    }
    size_t nc = (size_t)NTOT * (size_t)t->ncomp;
    for (size_t c = 0; c < nc; ++c) {
        double av = tu_get(t, a, c), bv = tu_get(t, b, c);
        tu_check(t, out, c, av + bv, "ra + sb");
        tu_check(t, out, nc + c, bv - av, "sb - ra");
        tu_check(t, out, 2 * nc + c, -(bv - av), "-(sb - ra)");
    }
}

#define RUN_TYPE(sfx, T, S, kind, bits, nc)                                        \
    static void test_type_##sfx(void **state) {                                   \
        (void)state;                                                               \
        static T a[NTOT], b[NTOT], out[3 * NTOT + 1];                              \
        int props[4 * NPROP];                                                      \
        const tu_type t = TU_TYPE(sfx, T, S, kind, bits, nc);                      \
        assert_int_equal(sizeof(T), sizeof(S) * (nc));                             \
        tu_fill(&t, a, (size_t)NTOT * (nc), 1, 0);                                 \
        tu_fill(&t, b, (size_t)NTOT * (nc), 2, 0);                                 \
        memset(out, 0xAB, sizeof(out));                                            \
        memset(props, 0xff, sizeof(props));                                        \
        assert_tile_ok(tile_launch(TILE_CPU, tk_##sfx, tile_grid1(1), 32, a, b, out, props)); \
        check_type(&t, a, b, out, props);                                          \
        assert_true(tu_all_bytes(out + 3 * NTOT, sizeof(T), 0xAB));                \
    }
TU_ALL_TYPES(RUN_TYPE)

/* ---- a user struct as element type ---- */
typedef struct particle {
    float x;
    int32_t n;
    double w[2];
} particle;

TILE_FUNC particle make_particle(float x) {
    particle p;
    p.x = x * 2.0f;
    p.n = (int32_t)x;
    p.w[0] = (double)x + 0.5;
    p.w[1] = -(double)x;
    return p;
}
TILE_FUNC particle merge_particles(particle a, particle b) {
    particle p;
    p.x = a.x - b.x;
    p.n = a.n * b.n;
    p.w[0] = a.w[0] + b.w[1];
    p.w[1] = a.w[1] * 3.0;
    return p;
}
TILE_FUNC float particle_x(particle p) { return p.x + (float)p.n; }

/* 2D and 4D tiles of particles, register and shared. */
TILE_KERNEL_SMEM(user_struct, 16, 2 * TILE_SMEM_BYTES(particle, 3, 4), const float *xs, particle *out, float *back,
                 int *props) {
    tile_reg(float, x, 3, 4);
    tile_load(x, tile_array2(xs, 3, 4), 0, 0);
    tile_reg(particle, p, 3, 4);
    tile_zeros(p);
    tile_map(p, make_particle, x);
    tile_store(tile_array2(out, 3, 4), p, 0, 0);
    tile_shared(particle, s, 3, 4);
    tile_copy(s, p);
    tile_reg(particle, q, 3, 4);
    tile_map2(q, merge_particles, s, p);
    tile_store(tile_array2(out + 12, 3, 4), q, 0, 0);
    tile_reg(float, y, 3, 4);
    tile_map(y, particle_x, q);
    tile_store(tile_array2(back, 3, 4), y, 0, 0);
    /* random access through tile_to_shared + tile_get */
    tile_to_shared(t, q);
    out[24] = tile_get(t, 2, 3);
    out[25] = tile_get(s, 1, 0);
    /* 4D shared tile of structs, zeroed */
    tile_reg(particle, p4, 1, 2, 3, 2);
    tile_load(p4, tile_array4(out, 1, 2, 3, 2), 0, 0, 0, 0);
    tile_store(tile_array4(out + 26, 1, 2, 3, 2), p4, 0, 0, 0, 0);
    props[0] = tile_size(p4);
    props[1] = tile_ndim(p4);
    props[2] = (int)sizeof(TILE_ELEM_T(p4));
    props[3] = tile_is_shared(t);
}

static void check_particle(const particle *got, double x, const char *what) {
    (void)what;
    assert_close(got->x, 2.0 * x, TU_TOL_F32);
    assert_int_equal(got->n, (int32_t)x);
    assert_close(got->w[0], x + 0.5, TU_TOL_F64);
    assert_close(got->w[1], -x, TU_TOL_F64);
}

static void test_user_struct(void **state) {
    (void)state;
    float xs[12];
    static particle out[26 + 12 + 1];
    float back[12];
    int props[4];
    for (int i = 0; i < 12; ++i) xs[i] = (float)tu_val(i, 5, 1);
    memset(out, 0x5A, sizeof(out));
    assert_tile_ok(tile_launch(TILE_CPU, user_struct, tile_grid1(1), 16, xs, out, back, props));
    for (int i = 0; i < 12; ++i) {
        double x = xs[i];
        check_particle(&out[i], x, "make_particle");
        /* merge(p, p) */
        const particle *q = &out[12 + i];
        assert_close(q->x, 0.0, TU_TOL_F32);
        assert_int_equal(q->n, (int32_t)x * (int32_t)x);
        assert_close(q->w[0], (x + 0.5) + (-x), TU_TOL_F64);
        assert_close(q->w[1], -x * 3.0, TU_TOL_F64);
        assert_close(back[i], 0.0 + (double)((int32_t)x * (int32_t)x), TU_TOL_F32);
    }
    /* out[24] = q[2][3], out[25] = s[1][0] = p[4] (written after out[0..23] were stored) */
    assert_int_equal(out[24].n, (int32_t)xs[11] * (int32_t)xs[11]);
    assert_close(out[24].w[1], -(double)xs[11] * 3.0, TU_TOL_F64);
    check_particle(&out[25], xs[4], "tile_get");
    /* the 4D tile round-trips the first 12 particles */
    for (int i = 0; i < 12; ++i) assert_memory_equal(&out[26 + i], &out[i], sizeof(particle));
    assert_true(tu_all_bytes(&out[38], sizeof(particle), 0x5A));
    assert_int_equal(props[0], 12);
    assert_int_equal(props[1], 4);
    assert_int_equal(props[2], (int)sizeof(particle));
    assert_int_equal(props[3], 1);
}

/* ---- tile type names (TILE_REG_T / TILE_SHARED_T) ---- */
TILE_KERNEL_SMEM(typed_tiles, 8, 64, float *out) {
    typedef TILE_REG_T(float, TILE_BLOCK_DIM, 2, 3) reg23;
    reg23 r;
    tile_arange(r, 1, 2);
    tile_store(tile_array2(out, 2, 3), r, 0, 0);
    out[6] = (float)tile_size(r);
    out[7] = (float)tile_ndim(r);
}

static void test_type_names(void **state) {
    (void)state;
    float out[8] = {0};
    assert_tile_ok(tile_launch(TILE_CPU, typed_tiles, tile_grid1(1), 8, out));
    for (int i = 0; i < 6; ++i) assert_close(out[i], 1.0 + 2.0 * i, TU_TOL_F32);
    assert_close(out[6], 6, 0);
    assert_close(out[7], 2, 0);
}

#define LIST_TYPE(sfx, T, S, kind, bits, nc) cmocka_unit_test(test_type_##sfx),
int main(void) {
    const struct CMUnitTest tests[] = {
        TU_ALL_TYPES(LIST_TYPE)
        cmocka_unit_test(test_user_struct),
        cmocka_unit_test(test_type_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
