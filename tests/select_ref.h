/* tests/select_ref.h - the select.h kernels (sl_1d, sl_2d, sl_small), their
 * input (sl_input) and plain-loop reference (sl_check), shared by
 *   tests/cpu/test_select.c       C11, CPU target;
 *   tests/cpu/test_scan_block.c   C11, the GPU block algorithm on an emulated
 *                                 block;
 *   tests/gpu/select_test.cu      GPU and CPU target of the nvcc build.
 * Needs <tile.h>, <tile/select.h>, <stdio.h> and <stdlib.h> first. Host code
 * is C11 and C++17 (nvcc) alike.
 *
 * SL_RLE_PREP(sh), defined before including to override, runs in case 11
 * just before tile_run_length_encode (default: nothing; the GPU test fills
 * sh with 0 so lengths past the count are the same bits on every repeat). */
#ifndef SELECT_REF_H
#define SELECT_REF_H

#ifndef SL_RLE_PREP
#define SL_RLE_PREP(sh) (void)0
#endif

/* ---- the kernels: one tile per block, `which` picks the operation ----
 * out: 2N i32 per tile (the result, then the run lengths of case 11), cnt:
 * one count per tile (-1 where the case has none).
 *  0 tile_select_if(r, r, x > 0) in place, register
 *  1 tile_partition_flagged(sh, r, x % 3 == 0), register -> shared
 *  2 tile_select_flagged(sh, sh, x > 0) in place, shared
 *  3 tile_flag_heads(f, r)
 *  4 tile_flag_tails_op(f, a > b, r)
 *  5 tile_flag_heads_prev(sh2, sh, prev): prev = the previous tile's last
 *    element (tile 0: its own first, so no head there)
 *  6 tile_adjacent_difference(r, r) in place
 *  7 tile_adjacent_difference_right(f, sh), shared -> register
 *  8 tile_adjacent_difference_prev(f, r, prev)
 *  9 tile_adjacent_difference_op(f, 2a - b, r) (order matters)
 * 10 tile_flag_heads_op(f, later < earlier, r) (order matters)
 * 11 tile_run_length_encode(f, sh, n, r): values into f (a copy of r),
 *    lengths into shared sh
 * 12 tile_flag_tails_next(f, sh, next): next = the next tile's first element
 *    (the last tile: its own last, so no tail there)
 * 13 tile_adjacent_difference_right_next(r, r, next) in place */
enum { SL_NCASE = 14 };
TILE_FUNC int sl_pos(int32_t x) { return x > 0; }
TILE_FUNC int sl_m3(int32_t x) { return x % 3 == 0; }
TILE_FUNC int sl_gt(int32_t a, int32_t b) { return a > b; }
TILE_FUNC int sl_desc(int32_t earlier, int32_t later) { return later < earlier; }
TILE_FUNC int32_t sl_op(int32_t a, int32_t b) { return 2 * a - b; }
/* a contiguous row-major view of nd dims d[] */
TILE_API tile_array sl_arr(const void *p, int nd, const int *d) {
    int64_t sh[4], st[4], s = 1;
    for (int k = nd - 1; k >= 0; --k) {
        sh[k] = d[k];
        st[k] = s;
        s *= d[k];
    }
    return tile_array_strided(p, nd, sh, st);
}
#define SL_KERNEL(name, B, ...)                                                    \
    TILE_KERNEL_SMEM(name, B, 2 * TILE_SMEM_BYTES(int32_t, __VA_ARGS__), const int32_t *in, int32_t *out, int *cnt, \
                     int which) {                                                  \
        const int dims[4] = {__VA_ARGS__};                                         \
        tile_reg(int32_t, r, __VA_ARGS__);                                         \
        tile_reg(int32_t, f, __VA_ARGS__);                                         \
        tile_shared(int32_t, sh, __VA_ARGS__);                                     \
        tile_shared(int32_t, sh2, __VA_ARGS__);                                    \
        const int N = tile_size(r), nd = tile_ndim(r);                             \
        const int64_t base = (int64_t)tile_block(0) * N;                           \
        const tile_array ai = sl_arr(in + base, nd, dims), ao = sl_arr(out + 2 * base, nd, dims), \
                         ao2 = sl_arr(out + 2 * base + N, nd, dims);               \
        const int32_t prev = base > 0 ? in[base - 1] : in[0];                      \
        const int32_t next = tile_block(0) + 1 < tile_grid_dim(0) ? in[base + N] : in[base + N - 1]; \
        int n = -1;                                                                \
        tile_load(r, ai, 0, 0, 0, 0);                                              \
        if (which == 0) {                                                          \
            tile_select_if(r, r, sl_pos, n);                                       \
            tile_store(ao, r, 0, 0, 0, 0);                                         \
        } else if (which == 1) {                                                   \
            tile_map(f, sl_m3, r);                                                 \
            tile_partition_flagged(sh, r, f, n);                                   \
            tile_store(ao, sh, 0, 0, 0, 0);                                        \
        } else if (which == 2) {                                                   \
            tile_map(f, sl_pos, r);                                                \
            tile_copy(sh, r);                                                      \
            tile_select_flagged(sh, sh, f, n);                                     \
            tile_store(ao, sh, 0, 0, 0, 0);                                        \
        } else if (which == 3) {                                                   \
            tile_flag_heads(f, r);                                                 \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
        } else if (which == 4) {                                                   \
            tile_flag_tails_op(f, sl_gt, r);                                       \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
        } else if (which == 5) {                                                   \
            tile_copy(sh, r);                                                      \
            tile_flag_heads_prev(sh2, sh, prev);                                   \
            tile_store(ao, sh2, 0, 0, 0, 0);                                       \
        } else if (which == 6) {                                                   \
            tile_adjacent_difference(r, r);                                        \
            tile_store(ao, r, 0, 0, 0, 0);                                         \
        } else if (which == 7) {                                                   \
            tile_copy(sh, r);                                                      \
            tile_adjacent_difference_right(f, sh);                                 \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
        } else if (which == 8) {                                                   \
            tile_adjacent_difference_prev(f, r, prev);                             \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
        } else if (which == 9) {                                                   \
            tile_adjacent_difference_op(f, sl_op, r);                              \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
        } else if (which == 10) {                                                  \
            tile_flag_heads_op(f, sl_desc, r);                                     \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
        } else if (which == 11) {                                                  \
            tile_copy(f, r);                                                       \
            SL_RLE_PREP(sh);                                                       \
            tile_run_length_encode(f, sh, n, r);                                   \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
            tile_store(ao2, sh, 0, 0, 0, 0);                                       \
        } else if (which == 12) {                                                  \
            tile_copy(sh, r);                                                      \
            tile_flag_tails_next(f, sh, next);                                     \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
        } else {                                                                   \
            tile_adjacent_difference_right_next(r, r, next);                       \
            tile_store(ao, r, 0, 0, 0, 0);                                         \
        }                                                                          \
        if (tile_thread() == 0) cnt[tile_block(0)] = n;                            \
    }

/* input: runs of equal values (lengths 1..4) in [-6, 6], zeros included */
static void sl_input(int32_t *in, int n) {
    int32_t v = 0;
    int left = 0;
    for (int i = 0; i < n; ++i) {
        uint32_t h = (uint32_t)i * 2654435761u ^ 0x7f4a7c15u;
        h ^= h >> 16;
        h *= 0x45d9f3bu;
        h ^= h >> 16;
        if (left-- <= 0) {
            v = (int32_t)(h % 13u) - 6;
            left = (int)((h >> 8) % 4u);
        }
        in[i] = v;
    }
}
/* plain-loop reference of case `which` for the tiles of n elements each:
 * returns the number of differing outputs (the first described in msg) */
static long sl_check(int which, const int32_t *in, const int32_t *out, const int *cnt, int ntiles, int n, char *msg,
                     size_t msglen) {
    long bad = 0;
    int32_t *ref = (int32_t *)malloc(sizeof(int32_t) * 2 * (size_t)n);
    msg[0] = 0;
    for (int b = 0; b < ntiles; ++b) {
        const int32_t *x = in + (size_t)b * n;
        const int32_t *o = out + (size_t)2 * b * n;
        const int32_t prev = b > 0 ? x[-1] : x[0];
        const int32_t next = b + 1 < ntiles ? x[n] : x[n - 1];
        int k = 0, m = -1, ncmp = n;
        if (which <= 2) {
            for (int i = 0; i < n; ++i)
                if (which == 1 ? x[i] % 3 == 0 : x[i] > 0) ref[k++] = x[i];
            m = k;
            for (int i = 0; i < n; ++i)
                if (which == 1 ? x[i] % 3 != 0 : 0) ref[k++] = x[i];
            if (which != 1)
                for (int i = m; i < n; ++i) ref[i] = x[i];
        } else if (which == 11) {
            m = 0;
            for (int i = 0; i < n; ++i) {
                if (i == 0 || x[i] != x[i - 1]) {
                    ref[m] = x[i];
                    ref[n + m] = 0;
                    ++m;
                }
                ++ref[n + m - 1];
            }
            for (int i = m; i < n; ++i) ref[i] = x[i];
        } else {
            for (int i = 0; i < n; ++i) {
                const int first = i == 0, last = i == n - 1;
                switch (which) {
                case 3: ref[i] = first || x[i] != x[i - 1]; break;
                case 4: ref[i] = last || x[i] > x[i + 1]; break;
                case 5: ref[i] = x[i] != (first ? prev : x[i - 1]); break;
                case 6: ref[i] = first ? x[i] : x[i] - x[i - 1]; break;
                case 7: ref[i] = last ? x[i] : x[i] - x[i + 1]; break;
                case 8: ref[i] = x[i] - (first ? prev : x[i - 1]); break;
                case 9: ref[i] = first ? x[i] : 2 * x[i] - x[i - 1]; break;
                case 12: ref[i] = x[i] != (last ? next : x[i + 1]); break;
                case 13: ref[i] = x[i] - (last ? next : x[i + 1]); break;
                default: ref[i] = first || x[i] < x[i - 1]; break;
                }
            }
        }
        if (cnt[b] != m && !bad++) snprintf(msg, msglen, "case %d tile %d: count %d, expected %d", which, b, cnt[b], m);
        for (int i = 0; i < ncmp; ++i)
            if (o[i] != ref[i] && !bad++)
                snprintf(msg, msglen, "case %d tile %d element %d: got %ld, expected %ld", which, b, i, (long)o[i], (long)ref[i]);
        if (which == 11)
            for (int i = 0; i < m; ++i)
                if (o[n + i] != ref[n + i] && !bad++)
                    snprintf(msg, msglen, "case 11 tile %d run %d: length %ld, expected %ld", b, i, (long)o[n + i], (long)ref[n + i]);
    }
    free(ref);
    return bad;
}
SL_KERNEL(sl_1d, 96, 1000)
SL_KERNEL(sl_2d, 256, 16, 64)
SL_KERNEL(sl_small, 64, 37)

enum { SF_N = 300, SF_V = 100 };
/* ---- other element types: f32 and vec3f neighbours, f64 selection ----
 * One block: a 300-element f32 tile (block 64: a partial last slot),
 * out (f32, 4 x 300): tile_adjacent_difference, _right, tile_flag_heads
 * (as 0/1 floats: a flags tile of float), and the f32 partition by x < 0;
 * v3 (vec3f, 100, shared): tile_adjacent_difference into v3out;
 * d (f64, 300): tile_select_if(x < 0) in place, the count in cnt[0].
 * A test defines SF_KERNEL_EXTRA (statements run before the counts are
 * written; may be empty) to get sf_kernel. */
#ifdef SF_KERNEL_EXTRA
TILE_FUNC int sf_neg_f(float x) { return x < 0; }
TILE_FUNC int sf_neg_d(double x) { return x < 0; }
TILE_KERNEL_SMEM(sf_kernel, 64, TILE_SMEM_BYTES(tile_vec3f, SF_V), const float *in, const tile_vec3f *vin, const double *din,
                 float *out, tile_vec3f *vout, double *dout, int *cnt) {
    tile_reg(float, x, SF_N);
    tile_reg(float, y, SF_N);
    tile_load(x, tile_array1(in, SF_N), 0);
    tile_adjacent_difference(y, x);
    tile_store(tile_array1(out, SF_N), y, 0);
    tile_adjacent_difference_right(y, x);
    tile_store(tile_array1(out + SF_N, SF_N), y, 0);
    tile_flag_heads(y, x);
    tile_store(tile_array1(out + 2 * SF_N, SF_N), y, 0);
    int n = 0;
    tile_partition_if(y, x, sf_neg_f, n);
    tile_store(tile_array1(out + 3 * SF_N, SF_N), y, 0);
    tile_shared(tile_vec3f, v, SF_V);
    tile_load(v, tile_array1(vin, SF_V), 0);
    tile_adjacent_difference(v, v);
    tile_store(tile_array1(vout, SF_V), v, 0);
    tile_reg(double, d, SF_N);
    tile_load(d, tile_array1(din, SF_N), 0);
    int m = 0;
    tile_select_if(d, d, sf_neg_d, m);
    tile_store(tile_array1(dout, SF_N), d, 0);
    SF_KERNEL_EXTRA
    if (tile_thread() == 0) cnt[0] = n, cnt[1] = m;
}
#endif
/* ---- other element types (each test's sf_kernel, block 64): f32 and vec3f
 * neighbours, f64 selection; inputs and reference ---- */
/* inputs: k/8 with runs (f32), distinct vec3f, f64 halves */
static inline void sf_input(float *in, tile_vec3f *vin, double *din) {
    for (int i = 0; i < SF_N; ++i) {
        const uint32_t h = tile_hash32(9u, (uint32_t)(i / 2));
        in[i] = (float)((int)(h % 41u) - 20) / 8.0f;
        din[i] = (double)((int)(tile_hash32(10u, (uint32_t)i) % 101u) - 50) / 2.0;
    }
    for (int i = 0; i < SF_V; ++i)
        for (int c = 0; c < 3; ++c) vin[i].v[c] = (float)((int)(tile_hash32(11u + c, (uint32_t)i) % 33u) - 16);
}
/* mismatches against plain loops, the first described in msg; nd: how many f64
 * adjacent differences (left at dout[SF_N..], right at dout[2 SF_N..]) to check */
static inline long sf_check(const float *in, const tile_vec3f *vin, const double *din, const float *out, const tile_vec3f *vout,
                     const double *dout, const int *cnt, int nd, char *msg, size_t msglen) {
    long bad = 0;
    float ref[4 * SF_N];
    double dref[SF_N];
    int k = 0, m = 0;
    msg[0] = 0;
    for (int i = 0; i < SF_N; ++i) {
        ref[i] = i == 0 ? in[i] : in[i] - in[i - 1];
        ref[SF_N + i] = i == SF_N - 1 ? in[i] : in[i] - in[i + 1];
        ref[2 * SF_N + i] = i == 0 || in[i] != in[i - 1] ? 1.0f : 0.0f;
    }
    for (int i = 0; i < SF_N; ++i)
        if (in[i] < 0) ref[3 * SF_N + k++] = in[i];
    const int n = k;
    for (int i = 0; i < SF_N; ++i)
        if (!(in[i] < 0)) ref[3 * SF_N + k++] = in[i];
    for (int i = 0; i < SF_N; ++i)
        if (din[i] < 0) dref[m++] = din[i];
    for (int i = m; i < SF_N; ++i) dref[i] = din[i];
    for (int i = 0; i < 4 * SF_N; ++i)
        if (out[i] != ref[i] && !bad++) snprintf(msg, msglen, "f32 result %d element %d: got %g, expected %g", i / SF_N, i % SF_N, out[i], ref[i]);
    for (int i = 0; i < SF_N; ++i)
        if (dout[i] != dref[i] && !bad++) snprintf(msg, msglen, "f64 select element %d: got %g, expected %g", i, dout[i], dref[i]);
    for (int i = 0; i < nd; ++i) {
        const double l = i == 0 ? din[i] : din[i] - din[i - 1], r = i == nd - 1 ? din[i] : din[i] - din[i + 1];
        if (dout[SF_N + i] != l && !bad++) snprintf(msg, msglen, "f64 difference element %d: got %g, expected %g", i, dout[SF_N + i], l);
        if (dout[2 * SF_N + i] != r && !bad++)
            snprintf(msg, msglen, "f64 right difference element %d: got %g, expected %g", i, dout[2 * SF_N + i], r);
    }
    for (int i = 0; i < SF_V; ++i)
        for (int c = 0; c < 3; ++c) {
            const float want = i == 0 ? vin[i].v[c] : vin[i].v[c] - vin[i - 1].v[c];
            if (vout[i].v[c] != want && !bad++) snprintf(msg, msglen, "vec3f difference %d.%d: got %g, expected %g", i, c, vout[i].v[c], want);
        }
    if ((cnt[0] != n || cnt[1] != m) && !bad++) snprintf(msg, msglen, "counts %d %d, expected %d %d", cnt[0], cnt[1], n, m);
    return bad;
}

#endif /* SELECT_REF_H */
