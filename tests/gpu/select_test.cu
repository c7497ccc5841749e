/* tests/gpu/select_test.cu - selection, partition, discontinuity flags,
 * adjacent differences and run-length encoding (include/tile/select.h) on
 * the GPU and on the CPU target of the same nvcc build, every run checked
 * against plain host loops (sl_check: the kernels and references are those
 * of tests/cpu/test_select.c).
 *
 *   select_test             GPU 0 (when there is one), then the CPU target
 *   select_test --cpu-only  the CPU target only
 *   select_test --quick     two tiles a launch, no repeat (compute-sanitizer)
 *
 * Kernels: 1D tiles of 1000 (block 96: a partial last warp and a partial
 * last slot), 2D 16x64 (block 256: flattened order across rows), 1D 37
 * (block 64: fewer elements than threads); 12 operations each (register,
 * shared, in place, predicate and flag forms, _op forms whose operand order
 * matters, _prev forms across tiles), several tiles a launch. Outputs are
 * poisoned before each launch; on the GPU each launch is repeated and must
 * give the same bits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"
#include <tile/select.h> /* until tile.h includes it */

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
 *    lengths into shared sh */
enum { SL_NCASE = 12 };
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
        } else {                                                                   \
            tile_copy(f, r);                                                       \
            tile_run_length_encode(f, sh, n, r);                                   \
            tile_store(ao, f, 0, 0, 0, 0);                                         \
            tile_store(ao2, sh, 0, 0, 0, 0);                                       \
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

static int sl_launch(const target *t, int k, const int32_t *in, int32_t *out, int *cnt, int which, int nt) {
    if (k == 0) return tile_launch(t->ex, sl_1d, tile_grid1(nt), 96, in, out, cnt, which);
    if (k == 1) return tile_launch(t->ex, sl_2d, tile_grid1(nt), 256, in, out, cnt, which);
    return tile_launch(t->ex, sl_small, tile_grid1(nt), 64, in, out, cnt, which);
}

static void run_all(const target *t) {
    const int ns[3] = {1000, 1024, 37}, bs[3] = {96, 256, 64};
    gc_target_begin(t);
    for (int k = 0; k < 3; ++k) {
        const int n = ns[k], nt = g_quick ? 2 : 9;
        const size_t ib = sizeof(int32_t) * (size_t)n * nt, ob = 2 * ib, cb = sizeof(int) * (size_t)nt;
        int32_t *hin = HALLOC(int32_t, (size_t)n * nt), *hout = HALLOC(int32_t, 2 * (size_t)n * nt),
                *hout2 = HALLOC(int32_t, 2 * (size_t)n * nt);
        int *hcnt = HALLOC(int, nt), *hcnt2 = HALLOC(int, nt);
        int32_t *din = DALLOC(int32_t, (size_t)n * nt), *dout = DALLOC(int32_t, 2 * (size_t)n * nt);
        int *dcnt = DALLOC(int, nt);
        char msg[200];
        sl_input(hin, n * nt);
        UP(din, hin, ib);
        for (int which = 0; which < SL_NCASE; ++which) {
            POISON(dout, ob, POISON_I);
            POISON(dcnt, cb, POISON_I);
            CHECK_ERR(sl_launch(t, k, din, dout, dcnt, which, nt), TILE_OK);
            SYNC_OK();
            DOWN(hout, dout, ob);
            DOWN(hcnt, dcnt, cb);
            const long bad = sl_check(which, hin, hout, hcnt, nt, n, msg, sizeof msg);
            CHECK(bad == 0, "n %d block %d: %s (%ld bad)", n, bs[k], msg, bad);
            if (t->gpu && !g_quick) { /* deterministic */
                POISON(dout, ob, POISON_I);
                CHECK_ERR(sl_launch(t, k, din, dout, dcnt, which, nt), TILE_OK);
                SYNC_OK();
                DOWN(hout2, dout, ob);
                DOWN(hcnt2, dcnt, cb);
                CHECK(!memcmp(hout, hout2, ob) && !memcmp(hcnt, hcnt2, cb), "n %d case %d: a second run differs", n, which);
            }
        }
        tile_free(t->ex, din);
        tile_free(t->ex, dout);
        tile_free(t->ex, dcnt);
        free(hin);
        free(hout);
        free(hout2);
        free(hcnt);
        free(hcnt2);
    }
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "select_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
