/* tests/cpu/test_tile16.c - the 16x16 register tile (tile16.h) and the
 * batched Cholesky (chol_batched.h) on the CPU path (plain C11, one thread
 * holds the whole tile), each operation against plain C loops in double. */
#include "test_util.h"

#include "../chol_ref.h"

/* a 16x16 SPD matrix (diagonally dominant), row-major */
static void spd16(double *a, uint32_t seed) {
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j <= i; ++j) {
            const double v = i == j ? 16.5 + uval(seed, i) : uval(seed + 1, i * 16 + j);
            a[i * 16 + j] = a[j * 16 + i] = v;
        }
}
static tile16_f64 from_d(const double *a) {
    tile16_f64 t;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) t.r[i][j] = a[i * 16 + j];
    return t;
}
static tile16_f32 from_f(const double *a) {
    tile16_f32 t;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) t.r[i][j] = (float)a[i * 16 + j];
    return t;
}

static void test_construct(void **state) {
    (void)state;
    tile16_f32 z = tile16_zeros_f32(), e = tile16_eye_f32();
    tile16_f64 t;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) t.r[i][j] = 5.0 + i - j;
    tile16_eye_inplace_f64(&t);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            assert_true(z.r[i][j] == 0.0f);
            assert_true(e.r[i][j] == (i == j ? 1.0f : 0.0f));
            assert_true(t.r[i][j] == (i == j ? 1.0 : 0.0));
            assert_true(tile16_get_f32(&e, i, j) == e.r[i][j]);
        }
    assert_int_equal(TILE16_ROWS, 16);
}

/* slice rules on a 20 x 20 array with a[r][c] = 100 r + c */
static void test_slices(void **state) {
    (void)state;
    double a[20 * 20];
    for (int i = 0; i < 400; ++i) a[i] = 100.0 * (i / 20) + i % 20;
    /* partial bottom-right tile into an identity: rows 16..19, cols 16..19 */
    tile16_f64 t = tile16_eye_f64();
    tile16_load_f64(&t, a, 20, 20, 16, 32, 16, 32);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            double want = i < 4 ? (j < 4 ? a[(16 + i) * 20 + 16 + j] : 0.0) : (i == j ? 1.0 : 0.0);
            assert_true(t.r[i][j] == want);
        }
    /* row range shorter than the tile: r1 = 5 skips rows 5.. even inside the
     * array; column range [3, 9): 6 columns, the rest zero */
    t = tile16_eye_f64();
    tile16_load_f64(&t, a, 20, 20, 2, 5, 3, 9);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            double want = i < 3 ? (j < 6 ? a[(2 + i) * 20 + 3 + j] : 0.0) : (i == j ? 1.0 : 0.0);
            assert_true(t.r[i][j] == want);
        }
    /* negative offsets: rows and columns before the array */
    t = tile16_zeros_f64();
    tile16_load_f64(&t, a, 20, 20, -2, 14, -3, 13);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            const int r = i - 2, c = j - 3;
            double want = (r >= 0 && c >= 0) ? a[r * 20 + c] : 0.0;
            assert_true(t.r[i][j] == want);
        }
    /* store: rows 18.. past the array and columns past c1 are not written */
    double b[20 * 20];
    for (int i = 0; i < 400; ++i) b[i] = -1;
    tile16_f64 s;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) s.r[i][j] = 1000.0 + i * 16 + j;
    tile16_store_f64(b, 20, 20, 10, 26, 2, 7, &s);
    for (int r = 0; r < 20; ++r)
        for (int c = 0; c < 20; ++c) {
            const int in = r >= 10 && c >= 2 && c < 7;
            assert_true(b[r * 20 + c] == (in ? 1000.0 + (r - 10) * 16 + (c - 2) : -1.0));
        }
    /* 3D: batch index outside [0, nbatch) skips everything */
    double c3[2 * 16 * 16];
    for (int i = 0; i < 512; ++i) c3[i] = i;
    t = tile16_eye_f64();
    tile16_load3_f64(&t, c3, 2, 16, 16, 2, 0, 16, 0, 16);
    for (int i = 0; i < 16; ++i) assert_true(t.r[i][i] == 1.0 && t.r[i][(i + 1) % 16] == 0.0);
    tile16_load3_f64(&t, c3, 2, 16, 16, 1, 0, 16, 0, 16);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) assert_true(t.r[i][j] == 256.0 + i * 16 + j);
    tile16_store3_f64(c3, 2, 16, 16, -1, 0, 16, 0, 16, &s);
    for (int i = 0; i < 512; ++i) assert_true(c3[i] == i);
    tile16_store3_f64(c3, 2, 16, 16, 0, 0, 16, 0, 16, &s);
    for (int i = 0; i < 256; ++i) assert_true(c3[i] == s.r[i / 16][i % 16]);
    /* shared (strided) arrays, ld 24 */
    float sh[16 * 24];
    for (int i = 0; i < 16 * 24; ++i) sh[i] = (float)i;
    tile16_f32 u = tile16_zeros_f32();
    tile16_load_shared_f32(&u, sh, 24, 16, 20, 0, 16, 4, 20);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) assert_true(u.r[i][j] == (float)(i * 24 + 4 + j));
    tile16_store_shared_f32(sh, 24, 16, 8, 0, 16, 0, 16, &u); /* cols 8.. skipped (cols = 8) */
    for (int i = 0; i < 16; ++i)
        for (int c = 0; c < 24; ++c) assert_true(sh[i * 24 + c] == (c < 8 ? (float)(i * 24 + 4 + c) : (float)(i * 24 + c)));
    /* column vectors: rows past r1 read 0 */
    tile16_vec_f64 v = tile16_vec_load_f64(a, 20, 20, 1, 9, 7);
    for (int i = 0; i < 16; ++i) assert_true(v.v[i] == (i < 8 ? a[(1 + i) * 20 + 7] : 0.0));
    v = tile16_vec_load3_f64(c3, 2, 16, 16, 1, 0, 16, 3);
    for (int i = 0; i < 16; ++i) assert_true(v.v[i] == c3[256 + i * 16 + 3]);
    assert_true(tile16_vec_get_f64(&v, 5) == v.v[5]);
    /* transposed load: tile row i = column i */
    t = tile16_zeros_f64();
    tile16_load_t_ld_f64(&t, a, 20, 20, 20, 4, 20, 1, 17);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 16; ++k) assert_true(t.r[i][k] == (1 + i < 20 && 4 + k < 20 ? a[(4 + k) * 20 + 1 + i] : 0.0));
}

static void test_updates(void **state) {
    (void)state;
    double A[256], B[256], C[256], R[256], x[16], y[16];
    for (int i = 0; i < 256; ++i) {
        A[i] = uval(3, i);
        B[i] = uval(4, i);
        C[i] = uval(5, i);
    }
    for (int i = 0; i < 16; ++i) {
        x[i] = uval(6, i);
        y[i] = uval(7, i);
    }
    tile16_f64 a = from_d(A), b = from_d(B), c;
    tile16_f32 af = from_f(A), bf = from_f(B), cf;
    tile16_vec_f64 vx, vy;
    for (int i = 0; i < 16; ++i) {
        vx.v[i] = x[i];
        vy.v[i] = y[i];
    }
    for (int which = 0; which < 6; ++which) {
        memcpy(R, C, sizeof R);
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j)
                for (int k = 0; k < 16; ++k) {
                    if (which == 0) R[i * 16 + j] -= A[i * 16 + k] * B[j * 16 + k];
                    if (which == 1 && j <= i) R[i * 16 + j] -= A[i * 16 + k] * B[j * 16 + k];
                    if (which == 2) R[i * 16 + j] -= A[i * 16 + k] * B[k * 16 + j];
                    if (which == 3 && k == 0) R[i * 16 + j] -= x[i] * y[j];
                    if (which == 4 && k == 0) R[i * 16 + j] -= x[i] * x[j];
                    if (which == 5) R[i * 16 + j] -= A[i * 16 + k] * B[j * 16 + k];
                }
        c = from_d(C);
        cf = from_f(C);
        switch (which) {
        case 0: tile16_sub_abt_f64(&c, &a, &b); tile16_sub_abt_f32(&cf, &af, &bf); break;
        case 1: tile16_sub_abt_lower_f64(&c, &a, &b); tile16_sub_abt_lower_f32(&cf, &af, &bf); break;
        case 2: tile16_sub_ab_f64(&c, &a, &b); tile16_sub_ab_f32(&cf, &af, &bf); break;
        case 3: tile16_sub_outer_f64(&c, &vx, &vy); break;
        case 4: tile16_sub_outer_sym_f64(&c, &vx); break;
        case 5: { float bm[256]; for (int i = 0; i < 256; ++i) bm[i] = (float)B[i];
                  tile16_sub_abt_mem_f64(&c, &a, B, 16); tile16_sub_abt_mem_f32(&cf, &af, bm, 16); break; }
        }
        for (int i = 0; i < 256; ++i) {
            assert_close(c.r[i / 16][i % 16], R[i], 1e-13);
            if (which < 3 || which == 5) assert_close(cf.r[i / 16][i % 16], R[i], 1e-5);
        }
    }
    /* sub_ab_mem */
    c = from_d(C);
    tile16_sub_ab_mem_f64(&c, &a, B, 16);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            double s = C[i * 16 + j];
            for (int k = 0; k < 16; ++k) s -= A[i * 16 + k] * B[k * 16 + j];
            assert_close(c.r[i][j], s, 1e-13);
        }
}

static void test_chol_solves(void **state) {
    (void)state;
    double A[256], L[256], B[256], R[256];
    spd16(A, 9);
    for (int i = 0; i < 256; ++i) B[i] = uval(10, i);
    assert_int_equal(ref_chol(A, L, 16), 0);
    tile16_f64 t = from_d(A);
    for (int i = 0; i < 16; ++i)
        for (int j = i + 1; j < 16; ++j) t.r[i][j] = 777.0; /* the upper triangle: not read, not written */
    assert_int_equal(tile16_chol_f64(&t, 0.0), 0);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            if (j > i) assert_true(t.r[i][j] == 777.0);
            else assert_close(t.r[i][j], L[i * 16 + j], 1e-13);
        }
    tile16_f32 tf = from_f(A);
    assert_int_equal(tile16_chol_f32(&tf, 0.0f), 0);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j <= i; ++j) assert_close(tf.r[i][j], L[i * 16 + j], 2e-6);
    /* X L^T = B */
    tile16_f64 x = from_d(B);
    tile16_solve_xlt_f64(&t, &x);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            double s = 0;
            for (int k = 0; k <= c; ++k) s += x.r[r][k] * L[c * 16 + k];
            assert_close(s, B[r * 16 + c], 1e-12);
        }
    /* L X = B and U X = B (U = L^T through the transposed load) */
    x = from_d(B);
    tile16_solve_lx_f64(&t, &x);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            double s = 0;
            for (int k = 0; k <= r; ++k) s += L[r * 16 + k] * x.r[k][c];
            assert_close(s, B[r * 16 + c], 1e-12);
        }
    for (int i = 0; i < 256; ++i) R[i] = t.r[i / 16][i % 16];
    tile16_f64 u = tile16_zeros_f64();
    tile16_load_t_ld_f64(&u, R, 16, 16, 16, 0, 16, 0, 16);
    x = from_d(B);
    tile16_solve_ux_f64(&u, &x);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) {
            double s = 0;
            for (int k = r; k < 16; ++k) s += L[k * 16 + r] * x.r[k][c];
            assert_close(s, B[r * 16 + c], 1e-12);
        }
}

/* the non-SPD contract: info, NaN without eps, clamp with eps */
static void test_chol_contract(void **state) {
    (void)state;
    double A[256], L[256];
    spd16(A, 12);
    /* the header's example: [[4, 2], [2, 10]] and [[1, 2], [2, 1]] padded with I */
    tile16_f32 t = tile16_eye_f32();
    t.r[0][0] = 4; t.r[1][0] = 2; t.r[0][1] = 2; t.r[1][1] = 10;
    assert_int_equal(tile16_chol_f32(&t, 0.0f), 0);
    assert_true(t.r[0][0] == 2 && t.r[1][0] == 1 && t.r[1][1] == 3 && t.r[2][2] == 1);
    t = tile16_eye_f32();
    t.r[0][0] = 1; t.r[1][0] = 2; t.r[0][1] = 2; t.r[1][1] = 1;
    tile16_f32 t2 = t;
    assert_int_equal(tile16_chol_f32(&t, 0.0f), 2);
    assert_true(t.r[0][0] == 1 && t.r[1][0] == 2 && isnan(t.r[1][1]) && isnan(t.r[2][2]) && isnan(t.r[15][15]));
    assert_int_equal(tile16_chol_f32(&t2, 1e-6f), 2);
    assert_close(t2.r[1][1], sqrt(1e-6), 1e-6);
    assert_true(t2.r[2][2] == 1.0f);
    /* non-SPD at row 6: info 7, columns 6.. NaN, columns < 6 the valid partial factor */
    for (int p = 0; p < 16; p += 5) {
        double Ap[256];
        memcpy(Ap, A, sizeof Ap);
        Ap[p * 16 + p] = -1;
        tile16_f64 s = from_d(Ap);
        assert_int_equal(tile16_chol_f64(&s, 0.0), p + 1);
        double lp[256];
        if (p) {
            double lead[256];
            for (int i = 0; i < p; ++i)
                for (int j = 0; j < p; ++j) lead[i * p + j] = Ap[i * 16 + j];
            assert_int_equal(ref_chol(lead, lp, p), 0);
        }
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j <= i; ++j) {
                if (j >= p) assert_true(isnan(s.r[i][j]));
                else if (i < p) assert_close(s.r[i][j], lp[i * p + j], 1e-13);
            }
        /* with eps: info still p + 1, l_pp = sqrt(eps) (later entries may grow:
         * a strongly indefinite matrix has no small factor) */
        s = from_d(Ap);
        assert_int_equal(tile16_chol_f64(&s, 1e-8), p + 1);
        assert_close(s.r[p][p], 1e-4, 1e-12);
    }
    /* singular (zero row and column 3): pivot exactly 0 */
    {
        double As[256];
        memcpy(As, A, sizeof As);
        for (int i = 0; i < 16; ++i) As[3 * 16 + i] = As[i * 16 + 3] = 0;
        tile16_f64 s = from_d(As);
        assert_int_equal(tile16_chol_f64(&s, 0.0), 4);
        assert_true(isnan(s.r[3][3]) && isnan(s.r[10][5]) && !isnan(s.r[2][1]));
        /* with eps: finite, l_33 = sqrt(eps), column 3 zero below it */
        s = from_d(As);
        assert_int_equal(tile16_chol_f64(&s, 1e-8), 4);
        assert_close(s.r[3][3], 1e-4, 1e-12);
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j <= i; ++j) assert_true(isfinite(s.r[i][j]) && (j != 3 || i == 3 || s.r[i][j] == 0));
    }
    /* a tiny positive pivot is clamped up to eps without info */
    {
        tile16_f64 s = tile16_eye_f64();
        s.r[4][4] = 1e-12;
        assert_int_equal(tile16_chol_f64(&s, 1e-8), 0);
        assert_close(s.r[4][4], 1e-4, 1e-12);
    }
    /* NaN: below the diagonal at (9, 2) -> info 10; only above -> ignored */
    {
        double An[256];
        memcpy(An, A, sizeof An);
        An[9 * 16 + 2] = NAN;
        tile16_f64 s = from_d(An);
        assert_int_equal(tile16_chol_f64(&s, 0.0), 10);
        assert_true(isnan(s.r[9][2]) && !isnan(s.r[8][2]));
        memcpy(An, A, sizeof An);
        An[2 * 16 + 9] = NAN;
        s = from_d(An);
        assert_int_equal(tile16_chol_f64(&s, 0.0), 0);
        assert_int_equal(ref_chol(A, L, 16), 0);
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j <= i; ++j) assert_close(s.r[i][j], L[i * 16 + j], 1e-13);
        s = from_d(A);
        s.r[0][0] = NAN;
        assert_int_equal(tile16_chol_f64(&s, 0.0), 1);
    }
}

/* the batched calls on the CPU target: every n, residuals, info, errors */
static void test_batched(void **state) {
    (void)state;
    for (int n = 1; n <= 128; n += (n < 40 ? 1 : 7)) {
        const int batch = 2, nrhs = n % 3 + 1;
        double *ad = malloc(sizeof(double) * n * n * batch);
        float *af = malloc(sizeof(float) * n * n * batch), *bf = malloc(sizeof(float) * n * nrhs * batch),
              *b0 = malloc(sizeof(float) * n * nrhs * batch);
        double *a64 = malloc(sizeof(double) * n * n * batch), *b64 = malloc(sizeof(double) * n * nrhs * batch);
        int info[2] = {-1, -1};
        for (int m = 0; m < batch; ++m)
            for (int i = 0; i < n; ++i)
                for (int j = 0; j <= i; ++j) {
                    const double v = i == j ? n + 1.0 : uval(20 + m, i * n + j);
                    ad[m * n * n + i * n + j] = ad[m * n * n + j * n + i] = v;
                }
        for (int i = 0; i < n * n * batch; ++i) af[i] = (float)(a64[i] = ad[i]);
        for (int i = 0; i < n * nrhs * batch; ++i) b0[i] = bf[i] = (float)(b64[i] = uval(30, i));
        assert_tile_ok(tile_chol_batched_f32(TILE_CPU, af, n, batch, info));
        assert_int_equal(info[0], 0);
        assert_int_equal(info[1], 0);
        assert_tile_ok(tile_chol_batched_f64(TILE_CPU, a64, n, batch, info));
        assert_int_equal(info[0] + info[1], 0);
        assert_tile_ok(tile_chol_batched_solve_f32(TILE_CPU, af, bf, n, nrhs, batch));
        assert_tile_ok(tile_chol_batched_solve_f64(TILE_CPU, a64, b64, n, nrhs, batch));
        for (int m = 0; m < batch; ++m) {
            const double *A = ad + m * n * n;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j <= i; ++j) {
                    double s = 0, s32 = 0;
                    for (int k = 0; k <= j; ++k) {
                        s += a64[m * n * n + i * n + k] * a64[m * n * n + j * n + k];
                        s32 += (double)af[m * n * n + i * n + k] * af[m * n * n + j * n + k];
                    }
                    assert_close(s, A[i * n + j], 1e-12);
                    assert_close(s32, A[i * n + j], 2e-5 * n);
                }
            for (int c = 0; c < nrhs; ++c)
                for (int i = 0; i < n; ++i) {
                    double s = 0, s32 = 0;
                    for (int k = 0; k < n; ++k) {
                        s += A[i * n + k] * b64[m * n * nrhs + k * nrhs + c];
                        s32 += A[i * n + k] * bf[m * n * nrhs + k * nrhs + c];
                    }
                    assert_close(s, b0[m * n * nrhs + i * nrhs + c], 1e-11);
                    assert_close(s32, b0[m * n * nrhs + i * nrhs + c], 1e-4);
                }
        }
        free(ad); free(af); free(bf); free(b0); free(a64); free(b64);
    }
    float a[4] = {4, 2, 2, 10};
    int info = 5;
    assert_int_equal(tile_chol_batched_f32(TILE_CPU, a, 0, 1, &info), TILE_ERR_ARG);
    assert_int_equal(tile_chol_batched_f32(TILE_CPU, a, 129, 1, &info), TILE_ERR_ARG);
    assert_int_equal(tile_chol_batched_f32(TILE_CPU, a, 2, -1, &info), TILE_ERR_ARG);
    assert_int_equal(tile_chol_batched_f32(TILE_CPU, NULL, 2, 1, &info), TILE_ERR_ARG);
    assert_int_equal(tile_chol_batched_f32(TILE_CPU, a, 2, 0, &info), TILE_OK);
    assert_int_equal(info, 5);
    assert_int_equal(tile_chol_batched_solve_f32(TILE_CPU, a, a, 2, 0, 1), TILE_ERR_ARG);
    /* the header's example: batch 2, n 2 */
    float e[8] = {4, 2, 2, 10, 1, 2, 2, 1};
    int inf2[2];
    assert_tile_ok(tile_chol_batched_f32(TILE_CPU, e, 2, 2, inf2));
    assert_true(e[0] == 2 && e[1] == 0 && e[2] == 1 && e[3] == 3 && e[4] == 1 && e[5] == 0 && e[6] == 2 && isnan(e[7]));
    assert_int_equal(inf2[0], 0);
    assert_int_equal(inf2[1], 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_construct),   cmocka_unit_test(test_slices),        cmocka_unit_test(test_updates),
        cmocka_unit_test(test_chol_solves), cmocka_unit_test(test_chol_contract), cmocka_unit_test(test_batched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
