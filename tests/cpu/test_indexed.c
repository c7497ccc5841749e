/* Gathers and scatters (tile/indexed.h) on the CPU target: tile_load_indexed,
 * tile_store_indexed, tile_atomic_add_indexed (1D, 2D along axis 0 and 1),
 * tile_assign, tile_extract, tile_scatter_add, tile_scatter_masked_tiles; register
 * and shared tiles and index tiles; f32, i32, f64 and vec3f elements; indices
 * negative or past the end, offsets partly outside, repeated indices. Every
 * result is compared with a plain C loop over the same inputs. */
#include "test_util.h"
/* the coordinate an index reaches: x + o, or nowhere for a negative index
 * ("negative means skip", every indexed operation) */
#define TI_AT(x, o) ((x) < 0 ? -(1 << 29) : (x) + (o))

/* element types: X(sfx, T, scalar component, kind, bits, components) */
#define IX_COPY_TYPES(X)                                                           \
    X(f32, float, float, TU_F, 32, 1)                                              \
    X(i32, int32_t, int32_t, TU_I, 32, 1)                                          \
    X(f64, double, double, TU_F, 64, 1)                                            \
    X(vec3f, tile_vec3f, float, TU_F, 32, 3)
#define IX_ADD_TYPES(X)                                                            \
    X(f32, float, float, TU_F, 32, 1)                                              \
    X(i32, int32_t, int32_t, TU_I, 32, 1)                                          \
    X(f64, double, double, TU_F, 64, 1)

#define NA 20 /* 1D array */
#define NT 13 /* 1D tile */
#define R 9   /* 2D array R x C */
#define C 11
#define TR 5 /* 2D tile TR x TC */
#define TC 7
#define NS 40 /* scatter: indices per tile */

/* ---- host helpers ---- */
/* n indices in [lo, hi), repeats allowed */
static void ix_random(int32_t *ix, int n, int lo, int hi, uint32_t seed) {
    for (int i = 0; i < n; ++i) ix[i] = lo + (int32_t)(tile_hash32(seed, (uint32_t)i) % (uint32_t)(hi - lo));
}
/* n distinct indices from [lo, hi) (n <= hi - lo): a shuffled range */
static void ix_unique(int32_t *ix, int n, int lo, int hi, uint32_t seed) {
    int32_t all[256];
    int m = hi - lo;
    for (int i = 0; i < m; ++i) all[i] = lo + i;
    for (int i = m - 1; i > 0; --i) {
        int j = (int)(tile_hash32(seed, (uint32_t)i) % (uint32_t)(i + 1));
        int32_t x = all[i];
        all[i] = all[j];
        all[j] = x;
    }
    for (int i = 0; i < n; ++i) ix[i] = all[i];
}
/* element e of an array of es-byte elements equals the reference bytes
 * (exp == NULL: all zero bytes) */
static void expect_elem(const void *got, int e, const void *exp, size_t es, const char *what, int at) {
    static const unsigned char zero[64];
    const unsigned char *g = (const unsigned char *)got + (size_t)e * es;
    if (memcmp(g, exp ? exp : zero, es) != 0) {
        print_error("%s: element %d (case %d) differs from the reference\n", what, e, at);
        fail();
    }
}
#define EL(p, es, i) ((const unsigned char *)(p) + (size_t)(i) * (es))

/* ======================================================================
 * tile_load_indexed
 * ====================================================================== */
/* 1D: out[k * NT ..] for k = reg t / reg idx, shared t / reg idx,
 * reg t / shared idx, shared t / shared idx; t starts as ones (so a zero
 * read outside is a write) */
#define DEF_G1(sfx, T, S, kind, bits, nc)                                          \
    TILE_KERNEL_SMEM(g1_##sfx, 64, TILE_SMEM_BYTES(T, NT) + TILE_SMEM_BYTES(int32_t, NT), const T *a, \
                     const int32_t *ix, int o, T *out) {                           \
        tile_reg(int32_t, ri, NT);                                                 \
        tile_load(ri, tile_array1(ix, NT), 0);                                     \
        tile_to_shared(si, ri);                                                    \
        const tile_array A = tile_array1(a, NA);                                   \
        tile_reg(T, r, NT);                                                        \
        tile_shared(T, s, NT);                                                     \
        tile_ones(r);                                                              \
        tile_ones(s);                                                              \
        tile_load_indexed(r, A, ri, 0, o);                                         \
        tile_load_indexed(s, A, ri, 0, o);                                         \
        tile_store(tile_array1(out, NT), r, 0);                                    \
        tile_store(tile_array1(out + NT, NT), s, 0);                               \
        tile_ones(r);                                                              \
        tile_ones(s);                                                              \
        tile_load_indexed(r, A, si, 0, o);                                         \
        tile_load_indexed(s, A, si, 0, o);                                         \
        tile_store(tile_array1(out + 2 * NT, NT), r, 0);                           \
        tile_store(tile_array1(out + 3 * NT, NT), s, 0);                           \
    }
IX_COPY_TYPES(DEF_G1)

/* 2D: tile (TR, TC) from the (R, C) array; rows from ix0 (axis 0), then
 * columns from ix1 (axis 1); 4 storage combinations each -> out[8][TR*TC].
 * The column gather's index tile is i64. */
#define DEF_G2(sfx, T, S, kind, bits, nc)                                          \
    TILE_KERNEL_SMEM(g2_##sfx, 64, TILE_SMEM_BYTES(T, TR, TC) + TILE_SMEM_BYTES(int32_t, TR) + \
                                       TILE_SMEM_BYTES(int64_t, TC) + TILE_SMEM_BYTES(int64_t, TC), \
                     const T *a, const int32_t *ix0, const int64_t *ix1, int o0, int o1, T *out) { \
        const tile_array A = tile_array2(a, R, C);                                 \
        tile_reg(int32_t, r0, TR);                                                 \
        tile_load(r0, tile_array1(ix0, TR), 0);                                    \
        tile_to_shared(s0, r0);                                                    \
        tile_reg(int64_t, r1, TC);                                                 \
        tile_load(r1, tile_array1(ix1, TC), 0);                                    \
        tile_to_shared(s1, r1);                                                    \
        tile_reg(T, r, TR, TC);                                                    \
        tile_shared(T, s, TR, TC);                                                 \
        const tile_array O = tile_array2(out, 8 * TR, TC);                         \
        tile_ones(r);                                                              \
        tile_load_indexed(r, A, r0, 0, o0, o1);                                    \
        tile_store(O, r, 0 * TR, 0);                                               \
        tile_ones(s);                                                              \
        tile_load_indexed(s, A, r0, 0, o0, o1);                                    \
        tile_store(O, s, 1 * TR, 0);                                               \
        tile_ones(r);                                                              \
        tile_load_indexed(r, A, s0, 0, o0, o1);                                    \
        tile_store(O, r, 2 * TR, 0);                                               \
        tile_ones(s);                                                              \
        tile_load_indexed(s, A, s0, 0, o0, o1);                                    \
        tile_store(O, s, 3 * TR, 0);                                               \
        tile_ones(r);                                                              \
        tile_load_indexed(r, A, r1, 1, o0, o1);                                    \
        tile_store(O, r, 4 * TR, 0);                                               \
        tile_ones(s);                                                              \
        tile_load_indexed(s, A, r1, 1, o0, o1);                                    \
        tile_store(O, s, 5 * TR, 0);                                               \
        tile_ones(r);                                                              \
        tile_load_indexed(r, A, s1, 1, o0, o1);                                    \
        tile_store(O, r, 6 * TR, 0);                                               \
        tile_ones(s);                                                              \
        tile_load_indexed(s, A, s1, 1, o0, o1);                                    \
        tile_store(O, s, 7 * TR, 0);                                               \
    }
IX_COPY_TYPES(DEF_G2)

static const int offs1[] = {0, 3, -2, 9, -25, 30};
static const int offs2[][2] = {{0, 0}, {2, 3}, {-1, 6}, {4, -2}, {-3, -6}, {12, 0}, {0, 11}};
#define NOFF1 ((int)(sizeof(offs1) / sizeof(offs1[0])))
#define NOFF2 ((int)(sizeof(offs2) / sizeof(offs2[0])))

#define RUN_GATHER(sfx, T, S, kind, bits, nc)                                      \
    static void test_gather_##sfx(void **state) {                                 \
        (void)state;                                                               \
        const tu_type ty = {#sfx, kind, bits, 1, sizeof(S)};                      \
        static T a1[NA], out1[4 * NT], a2[R * C], out2[8 * TR * TC];               \
        int32_t ix[NT], ix0[TR];                                                   \
        int64_t ix1[TC];                                                           \
        const size_t es = sizeof(T);                                               \
        tu_fill(&ty, a1, (size_t)NA * nc, 11, 1);                                  \
        tu_fill(&ty, a2, (size_t)R * C * nc, 12, 1);                               \
        for (int k = 0; k < NOFF1; ++k) {                                          \
            const int o = offs1[k];                                                \
            ix_random(ix, NT, -6, NA + 6, 100 + k);                                \
            ix[0] = -1; /* -1 and the first index past the end always occur */    \
            ix[NT - 1] = NA - o;                                                   \
            memset(out1, 0x5a, sizeof(out1));                                      \
            assert_tile_ok(tile_launch(TILE_CPU, g1_##sfx, tile_grid1(1), 64, a1, ix, o, out1)); \
            for (int c = 0; c < 4; ++c)                                            \
                for (int i = 0; i < NT; ++i) {                                     \
                    const int g = TI_AT(ix[i], o);                                       \
                    expect_elem(out1, c * NT + i, g >= 0 && g < NA ? EL(a1, es, g) : NULL, es, \
                                "1D gather " #sfx, k);                             \
                }                                                                  \
        }                                                                          \
        for (int k = 0; k < NOFF2; ++k) {                                          \
            const int o0 = offs2[k][0], o1 = offs2[k][1];                          \
            ix_random(ix0, TR, -3, R + 3, 200 + k);                                \
            int32_t t1[TC];                                                        \
            ix_random(t1, TC, -3, C + 3, 300 + k);                                 \
            for (int j = 0; j < TC; ++j) ix1[j] = t1[j];                           \
            ix0[1] = -1;                                                           \
            ix1[2] = -1;                                                           \
            memset(out2, 0x5a, sizeof(out2));                                      \
            assert_tile_ok(tile_launch(TILE_CPU, g2_##sfx, tile_grid1(1), 64, a2, ix0, ix1, o0, o1, out2)); \
            for (int c = 0; c < 8; ++c)                                            \
                for (int i = 0; i < TR; ++i)                                       \
                    for (int j = 0; j < TC; ++j) {                                 \
                        const int gi = c < 4 ? TI_AT(ix0[i], o0) : i + o0;                  \
                        const int gj = c < 4 ? j + o1 : TI_AT((int)ix1[j], o1);             \
                        const int in = gi >= 0 && gi < R && gj >= 0 && gj < C;     \
                        expect_elem(out2, (c * TR + i) * TC + j, in ? EL(a2, es, gi * C + gj) : NULL, es, \
                                    c < 4 ? "2D gather axis 0 " #sfx : "2D gather axis 1 " #sfx, k); \
                    }                                                              \
        }                                                                          \
    }
IX_COPY_TYPES(RUN_GATHER)

/* ======================================================================
 * tile_store_indexed (distinct indices: the result is defined)
 * ====================================================================== */
/* 1D: t from b; out[k * NA ..] for the 4 storage combinations */
#define DEF_S1(sfx, T, S, kind, bits, nc)                                          \
    TILE_KERNEL_SMEM(s1_##sfx, 64, TILE_SMEM_BYTES(T, NT) + TILE_SMEM_BYTES(int32_t, NT), const T *b, \
                     const int32_t *ix, int o, T *out) {                           \
        tile_reg(int32_t, ri, NT);                                                 \
        tile_load(ri, tile_array1(ix, NT), 0);                                     \
        tile_to_shared(si, ri);                                                    \
        tile_reg(T, r, NT);                                                        \
        tile_load(r, tile_array1(b, NT), 0);                                       \
        tile_to_shared(s, r);                                                      \
        tile_store_indexed(tile_array1(out, NA), r, ri, 0, o);                     \
        tile_store_indexed(tile_array1(out + NA, NA), s, ri, 0, o);                \
        tile_store_indexed(tile_array1(out + 2 * NA, NA), r, si, 0, o);            \
        tile_store_indexed(tile_array1(out + 3 * NA, NA), s, si, 0, o);            \
    }
IX_COPY_TYPES(DEF_S1)
/* 2D: rows (axis 0) and columns (axis 1) of a (TR, TC) tile into (R, C)
 * arrays: out[0] reg/reg rows, out[1] shared/shared rows, out[2] reg t /
 * shared idx columns, out[3] shared t / reg idx columns */
#define DEF_S2(sfx, T, S, kind, bits, nc)                                          \
    TILE_KERNEL_SMEM(s2_##sfx, 64, TILE_SMEM_BYTES(T, TR, TC) + TILE_SMEM_BYTES(int32_t, TR) + \
                                       2 * TILE_SMEM_BYTES(int32_t, TC),           \
                     const T *b, const int32_t *ix0, const int32_t *ix1, int o0, int o1, T *out) { \
        tile_reg(int32_t, r0, TR);                                                 \
        tile_load(r0, tile_array1(ix0, TR), 0);                                    \
        tile_to_shared(s0, r0);                                                    \
        tile_reg(int32_t, r1, TC);                                                 \
        tile_load(r1, tile_array1(ix1, TC), 0);                                    \
        tile_to_shared(s1, r1);                                                    \
        tile_reg(T, r, TR, TC);                                                    \
        tile_load(r, tile_array2(b, TR, TC), 0, 0);                                \
        tile_to_shared(s, r);                                                      \
        tile_store_indexed(tile_array2(out, R, C), r, r0, 0, o0, o1);              \
        tile_store_indexed(tile_array2(out + R * C, R, C), s, s0, 0, o0, o1);      \
        tile_store_indexed(tile_array2(out + 2 * R * C, R, C), r, s1, 1, o0, o1);  \
        tile_store_indexed(tile_array2(out + 3 * R * C, R, C), s, r1, 1, o0, o1);  \
    }
IX_COPY_TYPES(DEF_S2)

#define RUN_SCATTER(sfx, T, S, kind, bits, nc)                                     \
    static void test_store_indexed_##sfx(void **state) {                          \
        (void)state;                                                               \
        const tu_type ty = {#sfx, kind, bits, 1, sizeof(S)};                      \
        static T b1[NT], out1[4 * NA], b2[TR * TC], out2[4 * R * C], sent[1];      \
        int32_t ix[NT], ix0[TR], ix1[TC];                                          \
        const size_t es = sizeof(T);                                               \
        tu_fill(&ty, b1, (size_t)NT * nc, 21, 1);                                  \
        tu_fill(&ty, b2, (size_t)TR * TC * nc, 22, 1);                             \
        memset(sent, 0x5a, sizeof(sent));                                          \
        for (int k = 0; k < NOFF1; ++k) {                                          \
            const int o = offs1[k];                                                \
            ix_unique(ix, NT, -5 - o, NA + 5 - o, 400 + k);                        \
            memset(out1, 0x5a, sizeof(out1));                                      \
            assert_tile_ok(tile_launch(TILE_CPU, s1_##sfx, tile_grid1(1), 64, b1, ix, o, out1)); \
            for (int c = 0; c < 4; ++c)                                            \
                for (int g = 0; g < NA; ++g) {                                     \
                    const void *e = sent;                                          \
                    for (int i = 0; i < NT; ++i)                                   \
                        if (TI_AT(ix[i], o) == g) e = EL(b1, es, i);                     \
                    expect_elem(out1, c * NA + g, e, es, "1D indexed store " #sfx, k); \
                }                                                                  \
        }                                                                          \
        for (int k = 0; k < NOFF2; ++k) {                                          \
            const int o0 = offs2[k][0], o1 = offs2[k][1];                          \
            ix_unique(ix0, TR, -2 - o0, R + 2 - o0, 500 + k);                      \
            ix_unique(ix1, TC, -2 - o1, C + 2 - o1, 600 + k);                      \
            memset(out2, 0x5a, sizeof(out2));                                      \
            assert_tile_ok(tile_launch(TILE_CPU, s2_##sfx, tile_grid1(1), 64, b2, ix0, ix1, o0, o1, out2)); \
            for (int c = 0; c < 4; ++c)                                            \
                for (int gi = 0; gi < R; ++gi)                                     \
                    for (int gj = 0; gj < C; ++gj) {                               \
                        const void *e = sent;                                      \
                        for (int i = 0; i < TR; ++i)                               \
                            for (int j = 0; j < TC; ++j) {                         \
                                const int hi = c < 2 ? TI_AT(ix0[i], o0) : i + o0, hj = c < 2 ? j + o1 : TI_AT(ix1[j], o1); \
                                if (hi == gi && hj == gj) e = EL(b2, es, i * TC + j); \
                            }                                                      \
                        expect_elem(out2, (c * R + gi) * C + gj, e, es, c < 2 ? "2D indexed store rows " #sfx \
                                                                              : "2D indexed store columns " #sfx, k); \
                    }                                                              \
        }                                                                          \
    }
IX_COPY_TYPES(RUN_SCATTER)

/* ======================================================================
 * tile_atomic_add_indexed (repeated indices: every element counts)
 * ====================================================================== */
/* 1D: acc1 gets the register tile through a register idx and the shared copy
 * through a shared idx (each element twice); 2D: acc2 gets rows (axis 0,
 * register/register) and columns (axis 1, shared t, register idx) */
#define DEF_A(sfx, T, S, kind, bits, nc)                                           \
    TILE_KERNEL_SMEM(ai_##sfx, 32, TILE_SMEM_BYTES(T, NT) + TILE_SMEM_BYTES(int32_t, NT) + \
                                       TILE_SMEM_BYTES(T, TR, TC) + TILE_SMEM_BYTES(int32_t, TC), \
                     const T *b1, const int32_t *ix, const T *b2, const int32_t *ix0, const int32_t *ix1, \
                     int o0, int o1, T *acc1, T *acc2) {                           \
        tile_reg(int32_t, ri, NT);                                                 \
        tile_load(ri, tile_array1(ix, NT), 0);                                     \
        tile_to_shared(si, ri);                                                    \
        tile_reg(T, r, NT);                                                        \
        tile_load(r, tile_array1(b1, NT), 0);                                      \
        tile_to_shared(s, r);                                                      \
        tile_atomic_add_indexed(tile_array1(acc1, NA), r, ri, 0, o0);              \
        tile_atomic_add_indexed(tile_array1(acc1, NA), s, si, 0, o0);              \
        tile_reg(int32_t, r0, TR);                                                 \
        tile_load(r0, tile_array1(ix0, TR), 0);                                    \
        tile_reg(int32_t, r1, TC);                                                 \
        tile_load(r1, tile_array1(ix1, TC), 0);                                    \
        tile_reg(T, m, TR, TC);                                                    \
        tile_load(m, tile_array2(b2, TR, TC), 0, 0);                               \
        tile_to_shared(sm, m);                                                     \
        tile_atomic_add_indexed(tile_array2(acc2, R, C), m, r0, 0, o0, o1);        \
        tile_atomic_add_indexed(tile_array2(acc2, R, C), sm, r1, 1, o0, o1);       \
    }
IX_ADD_TYPES(DEF_A)

#define RUN_ATOMIC(sfx, T, S, kind, bits, nc)                                      \
    static void test_atomic_indexed_##sfx(void **state) {                         \
        (void)state;                                                               \
        const tu_type ty = {#sfx, kind, bits, 1, sizeof(T)};                      \
        static T b1[NT], b2[TR * TC], acc1[NA], acc2[R * C];                       \
        int32_t ix[NT], ix0[TR], ix1[TC];                                          \
        tu_fill(&ty, b1, NT, 31, 1);                                               \
        tu_fill(&ty, b2, TR * TC, 32, 1);                                          \
        for (int k = 0; k < NOFF2; ++k) {                                          \
            const int o0 = offs2[k][0], o1 = offs2[k][1];                          \
            ix_random(ix, NT, -3, 6, 700 + k); /* a few slots, many repeats */    \
            ix_random(ix0, TR, -1, 3, 710 + k);                                    \
            ix_random(ix1, TC, -2, 4, 720 + k);                                    \
            ix0[0] = ix0[TR - 1] = 1; /* at least one repeat each */              \
            ix1[0] = ix1[TC - 1] = 2;                                              \
            double r1[NA], r2[R * C];                                              \
            for (int g = 0; g < NA; ++g) acc1[g] = (T)(g - 7), r1[g] = g - 7;      \
            for (int g = 0; g < R * C; ++g) acc2[g] = (T)(g % 13), r2[g] = g % 13; \
            for (int i = 0; i < NT; ++i) {                                         \
                const int g = TI_AT(ix[i], o0);                                          \
                if (g >= 0 && g < NA) r1[g] += 2.0 * (double)b1[i];                \
            }                                                                      \
            for (int i = 0; i < TR; ++i)                                           \
                for (int j = 0; j < TC; ++j) {                                     \
                    int gi = TI_AT(ix0[i], o0), gj = j + o1;                             \
                    if (gi >= 0 && gi < R && gj >= 0 && gj < C) r2[gi * C + gj] += (double)b2[i * TC + j]; \
                    gi = i + o0, gj = TI_AT(ix1[j], o1);                                 \
                    if (gi >= 0 && gi < R && gj >= 0 && gj < C) r2[gi * C + gj] += (double)b2[i * TC + j]; \
                }                                                                  \
            assert_tile_ok(tile_launch(TILE_CPU, ai_##sfx, tile_grid1(1), 32, b1, ix, b2, ix0, ix1, o0, o1, \
                                       acc1, acc2));                               \
            for (int g = 0; g < NA; ++g) tu_check(&ty, acc1, (size_t)g, r1[g], "1D indexed atomic add"); \
            for (int g = 0; g < R * C; ++g) tu_check(&ty, acc2, (size_t)g, r2[g], "2D indexed atomic add"); \
        }                                                                          \
    }
IX_ADD_TYPES(RUN_ATOMIC)

/* ======================================================================
 * tile_assign
 * ====================================================================== */
/* dst (R, C) shared from a; out[0]: register src (TR, TC) assigned at
 * (o0, o1); out[1]: dst reloaded, the shared src assigned; out[2] (NA
 * elements): 1D dst from a, register src of NT at o0 */
#define DEF_AS(sfx, T, S, kind, bits, nc)                                          \
    TILE_KERNEL_SMEM(as_##sfx, 64, TILE_SMEM_BYTES(T, R, C) + TILE_SMEM_BYTES(T, TR, TC) + \
                                       TILE_SMEM_BYTES(T, NA),                     \
                     const T *a, const T *b, int o0, int o1, T *out) {             \
        tile_shared(T, d, R, C);                                                   \
        tile_load(d, tile_array2(a, R, C), 0, 0);                                  \
        tile_reg(T, r, TR, TC);                                                    \
        tile_load(r, tile_array2(b, TR, TC), 0, 0);                                \
        tile_assign(d, r, o0, o1);                                                 \
        tile_store(tile_array2(out, R, C), d, 0, 0);                               \
        tile_to_shared(s, r);                                                      \
        tile_load(d, tile_array2(a, R, C), 0, 0);                                  \
        tile_assign(d, s, o0, o1);                                                 \
        tile_store(tile_array2(out + R * C, R, C), d, 0, 0);                       \
        tile_shared(T, d1, NA);                                                    \
        tile_load(d1, tile_array1(a, NA), 0);                                      \
        tile_reg(T, r1, NT);                                                       \
        tile_load(r1, tile_array1(b, NT), 0);                                      \
        tile_assign(d1, r1, o0);                                                   \
        tile_store(tile_array1(out + 2 * R * C, NA), d1, 0);                       \
    }
IX_COPY_TYPES(DEF_AS)

#define RUN_ASSIGN(sfx, T, S, kind, bits, nc)                                      \
    static void test_assign_##sfx(void **state) {                                 \
        (void)state;                                                               \
        const tu_type ty = {#sfx, kind, bits, 1, sizeof(S)};                      \
        static T a[R * C], b[TR * TC], out[2 * R * C + NA];                        \
        const size_t es = sizeof(T);                                               \
        tu_fill(&ty, a, (size_t)R * C * nc, 41, 1);                                \
        tu_fill(&ty, b, (size_t)TR * TC * nc, 42, 1);                              \
        for (int k = 0; k < NOFF2; ++k) {                                          \
            const int o0 = offs2[k][0], o1 = offs2[k][1];                          \
            memset(out, 0x5a, sizeof(out));                                        \
            assert_tile_ok(tile_launch(TILE_CPU, as_##sfx, tile_grid1(1), 64, a, b, o0, o1, out)); \
            for (int c = 0; c < 2; ++c)                                            \
                for (int i = 0; i < R; ++i)                                        \
                    for (int j = 0; j < C; ++j) {                                  \
                        const int si = i - o0, sj = j - o1;                        \
                        const int in = si >= 0 && si < TR && sj >= 0 && sj < TC;  \
                        expect_elem(out, (c * R + i) * C + j, in ? EL(b, es, si * TC + sj) : EL(a, es, i * C + j), \
                                    es, c ? "assign shared src " #sfx : "assign register src " #sfx, k); \
                    }                                                              \
            for (int g = 0; g < NA; ++g) {                                         \
                const int si = g - o0, in = si >= 0 && si < NT;                    \
                expect_elem(out, 2 * R * C + g, in ? EL(b, es, si) : EL(a, es, g), es, "assign 1D " #sfx, k); \
            }                                                                      \
        }                                                                          \
    }
IX_COPY_TYPES(RUN_ASSIGN)

/* ======================================================================
 * tile_extract
 * ====================================================================== */
/* every element of a register and a shared (TR, TC) tile, of a 1D register
 * tile of NA and of a 3D register tile (2, 3, 4), read back through
 * tile_extract into out; then the one-element forms */
#define DEF_EX(sfx, T, S, kind, bits, nc)                                          \
    TILE_KERNEL_SMEM(ex_##sfx, 64, TILE_SMEM_BYTES(T, TR, TC) + TILE_SMEM_BYTES(T, 1), const T *a, T *out) { \
        tile_reg(T, r, TR, TC);                                                    \
        tile_load(r, tile_array2(a, TR, TC), 0, 0);                                \
        tile_to_shared(s, r);                                                      \
        for (int i = 0; i < TR; ++i)                                               \
            for (int j = 0; j < TC; ++j) {                                         \
                const T x = tile_extract(r, i, j);                                 \
                const T y = tile_extract(s, i, j);                                 \
                if (tile_thread() == 0) out[i * TC + j] = x, out[TR * TC + i * TC + j] = y; \
            }                                                                      \
        T *o = out + 2 * TR * TC;                                                  \
        tile_reg(T, v, NA);                                                        \
        tile_load(v, tile_array1(a, NA), 0);                                       \
        for (int i = NA - 1; i >= 0; --i) {                                        \
            const T x = tile_extract(v, i);                                        \
            if (tile_thread() == 0) o[i] = x;                                      \
        }                                                                          \
        o += NA;                                                                   \
        tile_reg(T, w, 2, 3, 4);                                                   \
        tile_load(w, tile_array3(a, 2, 3, 4), 0, 0, 0);                            \
        for (int l = 0; l < 24; ++l) {                                             \
            const T x = tile_extract(w, l / 12, l / 4 % 3, l % 4);                 \
            if (tile_thread() == 0) o[l] = x;                                      \
        }                                                                          \
        o += 24;                                                                   \
        tile_reg(T, one, 1);                                                       \
        tile_load(one, tile_array1(a, NA), 5);                                     \
        tile_reg(T, one2, 1, 1);                                                   \
        tile_load(one2, tile_array2(a, R, C), 1, 2);                               \
        tile_to_shared(sone, one2);                                                \
        const T x1 = tile_extract(one), x2 = tile_extract(one2), x3 = tile_extract(sone); \
        const T x4 = tile_extract(one, 0), x5 = tile_extract(one2, 0, 0);          \
        if (tile_thread() == 0) o[0] = x1, o[1] = x2, o[2] = x3, o[3] = x4, o[4] = x5; \
    }
IX_COPY_TYPES(DEF_EX)

#define RUN_EXTRACT(sfx, T, S, kind, bits, nc)                                     \
    static void test_extract_##sfx(void **state) {                                \
        (void)state;                                                               \
        const tu_type ty = {#sfx, kind, bits, 1, sizeof(S)};                      \
        static T a[R * C], out[2 * TR * TC + NA + 24 + 5];                         \
        const size_t es = sizeof(T);                                               \
        tu_fill(&ty, a, (size_t)R * C * nc, 51, 1);                                \
        memset(out, 0x5a, sizeof(out));                                            \
        assert_tile_ok(tile_launch(TILE_CPU, ex_##sfx, tile_grid1(1), 64, a, out)); \
        for (int c = 0; c < 2; ++c)                                                \
            for (int i = 0; i < TR * TC; ++i) expect_elem(out, c * TR * TC + i, EL(a, es, i), es, "extract 2D " #sfx, c); \
        for (int i = 0; i < NA + 24; ++i)                                          \
            expect_elem(out, 2 * TR * TC + i, EL(a, es, i < NA ? i : i - NA), es, "extract 1D/3D " #sfx, i); \
        const int one_at[5] = {5, C + 2, C + 2, 5, C + 2};                         \
        for (int i = 0; i < 5; ++i)                                                \
            expect_elem(out, 2 * TR * TC + NA + 24 + i, EL(a, es, one_at[i]), es, "extract one-element " #sfx, i); \
    }
IX_COPY_TYPES(RUN_EXTRACT)

/* ======================================================================
 * tile_scatter_add / tile_scatter_masked_tiles
 * ====================================================================== */
/* dst (NA) shared from a; values (NS) from b. out[0]: register idx and
 * values; out[1]: shared idx and values (on top of out[0]'s result);
 * out[2] (4 x 5): a view (4, 5) at (1, 2) of a shared (6, 8) tile from a,
 * register idx into the view */
#define DEF_SA(sfx, T, S, kind, bits, nc)                                          \
    TILE_KERNEL_SMEM(sa_##sfx, 64, TILE_SMEM_BYTES(T, NA) + TILE_SMEM_BYTES(int32_t, NS) + \
                                       TILE_SMEM_BYTES(T, NS) + TILE_SMEM_BYTES(T, 6, 8), \
                     const T *a, const int32_t *ix, const T *b, T *out) {          \
        tile_shared(T, d, NA);                                                     \
        tile_load(d, tile_array1(a, NA), 0);                                       \
        tile_reg(int32_t, ri, NS);                                                 \
        tile_load(ri, tile_array1(ix, NS), 0);                                     \
        tile_reg(T, rv, NS);                                                       \
        tile_load(rv, tile_array1(b, NS), 0);                                      \
        tile_scatter_add(d, ri, rv);                                               \
        tile_store(tile_array1(out, NA), d, 0);                                    \
        tile_to_shared(si, ri);                                                    \
        tile_to_shared(sv, rv);                                                    \
        tile_scatter_add(d, si, sv);                                               \
        tile_store(tile_array1(out + NA, NA), d, 0);                               \
        tile_shared(T, big, 6, 8);                                                 \
        tile_load(big, tile_array2(a, 6, 8), 0, 0);                                \
        tile_view(vw, big, (4, 5), (1, 2));                                        \
        tile_scatter_add(vw, ri, rv);                                              \
        tile_store(tile_array2(out + 2 * NA, 6, 8), big, 0, 0);                    \
    }
IX_ADD_TYPES(DEF_SA)

#define RUN_SA(sfx, T, S, kind, bits, nc)                                          \
    static void test_scatter_add_##sfx(void **state) {                            \
        (void)state;                                                               \
        const tu_type ty = {#sfx, kind, bits, 1, sizeof(T)};                      \
        static T a[R * C], b[NS], out[2 * NA + 48];                                \
        int32_t ix[NS];                                                            \
        tu_fill(&ty, a, R * C, 61, 1);                                             \
        tu_fill(&ty, b, NS, 62, 1);                                                \
        ix_random(ix, NS, -3, NA + 3, 63);                                         \
        ix[0] = ix[5] = ix[9] = ix[NS - 1] = 4; /* 4 repeats at least */          \
        ix[1] = -1;                                                                \
        ix[2] = NA;                                                                \
        memset(out, 0x5a, sizeof(out));                                            \
        assert_tile_ok(tile_launch(TILE_CPU, sa_##sfx, tile_grid1(1), 64, a, ix, b, out)); \
        double r[NA], big[48];                                                     \
        for (int g = 0; g < NA; ++g) r[g] = (double)a[g];                          \
        for (int g = 0; g < 48; ++g) big[g] = (double)a[g];                        \
        for (int pass = 0; pass < 2; ++pass) {                                     \
            for (int i = 0; i < NS; ++i)                                           \
                if (ix[i] >= 0 && ix[i] < NA) r[ix[i]] += (double)b[i];            \
            for (int g = 0; g < NA; ++g) tu_check(&ty, out, (size_t)(pass * NA + g), r[g], "scatter_add"); \
        }                                                                          \
        for (int i = 0; i < NS; ++i)                                               \
            if (ix[i] >= 0 && ix[i] < 20) big[(1 + ix[i] / 5) * 8 + 2 + ix[i] % 5] += (double)b[i]; \
        for (int g = 0; g < 48; ++g) tu_check(&ty, out, (size_t)(2 * NA + g), big[g], "scatter_add into a view"); \
    }
IX_ADD_TYPES(RUN_SA)

/* masked: dst (NA) shared from a; out[0] register idx/values/mask (i32
 * mask), out[1] shared idx/values and an f32 mask tile (on top) */
#define DEF_SM(sfx, T, S, kind, bits, nc)                                          \
    TILE_KERNEL_SMEM(sm_##sfx, 64, TILE_SMEM_BYTES(T, NA) + TILE_SMEM_BYTES(int32_t, NS) + \
                                       TILE_SMEM_BYTES(T, NS) + TILE_SMEM_BYTES(float, NS), \
                     const T *a, const int32_t *ix, const T *b, const int32_t *mk, T *out) { \
        tile_shared(T, d, NA);                                                     \
        tile_load(d, tile_array1(a, NA), 0);                                       \
        tile_reg(int32_t, ri, NS);                                                 \
        tile_load(ri, tile_array1(ix, NS), 0);                                     \
        tile_reg(T, rv, NS);                                                       \
        tile_load(rv, tile_array1(b, NS), 0);                                      \
        tile_reg(int32_t, rm, NS);                                                 \
        tile_load(rm, tile_array1(mk, NS), 0);                                     \
        tile_scatter_masked_tiles(d, ri, rv, rm);                                  \
        tile_store(tile_array1(out, NA), d, 0);                                    \
        tile_to_shared(si, ri);                                                    \
        tile_to_shared(sv, rv);                                                    \
        tile_reg(float, fm, NS);                                                   \
        tile_astype(fm, rm);                                                       \
        tile_imul_c(fm, -0.5f);                                                    \
        tile_to_shared(sm, fm); /* 0, -0.5, -1: nonzero where rm is */            \
        tile_scatter_masked_tiles(d, si, sv, sm);                                  \
        tile_store(tile_array1(out + NA, NA), d, 0);                               \
    }
IX_COPY_TYPES(DEF_SM)

#define RUN_SM(sfx, T, S, kind, bits, nc)                                          \
    static void test_scatter_masked_##sfx(void **state) {                         \
        (void)state;                                                               \
        const tu_type ty = {#sfx, kind, bits, 1, sizeof(S)};                      \
        static T a[NA], b[NS], out[2 * NA];                                        \
        int32_t ix[NS], mk[NS];                                                    \
        const size_t es = sizeof(T);                                               \
        tu_fill(&ty, a, (size_t)NA * nc, 71, 1);                                   \
        tu_fill(&ty, b, (size_t)NS * nc, 72, 1);                                   \
        /* unmasked indices distinct (a defined result); masked-off ones */       \
        /* repeat them and run outside */                                          \
        ix_unique(ix, NS / 2, -3, NA + 3, 73);                                     \
        for (int i = 0; i < NS; ++i) mk[i] = i < NS / 2 ? (int32_t)(tile_hash32(74, (uint32_t)i) % 3u) : 0; \
        for (int i = NS / 2; i < NS; ++i) ix[i] = ix[i % 7];                       \
        memset(out, 0x5a, sizeof(out));                                            \
        assert_tile_ok(tile_launch(TILE_CPU, sm_##sfx, tile_grid1(1), 64, a, ix, b, mk, out)); \
        for (int g = 0; g < NA; ++g) {                                             \
            const void *e = EL(a, es, g);                                          \
            for (int i = 0; i < NS; ++i)                                           \
                if (mk[i] && ix[i] == g) e = EL(b, es, i);                         \
            expect_elem(out, g, e, es, "scatter_masked " #sfx, 0);                 \
            expect_elem(out, NA + g, e, es, "scatter_masked again " #sfx, 1);      \
        }                                                                          \
    }
IX_COPY_TYPES(RUN_SM)

/* a collision without a mask: the slot holds one of the written values */
TILE_KERNEL_SMEM(sm_collide, 32, TILE_SMEM_BYTES(float, 8), float *out) {
    tile_shared(float, d, 8);
    tile_zeros(d);
    tile_reg(int32_t, ix, 40);
    tile_arange(ix, 0, 1);
    tile_reg(int32_t, three, 40);
    tile_full(three, 3);
    tile_reg(float, v, 40);
    tile_arange(v, 1, 1);
    tile_reg(int32_t, m, 40);
    tile_ones(m);
    tile_scatter_masked_tiles(d, three, v, m); /* 40 writes into d[3] */
    tile_scatter_masked_tiles(d, ix, v, m);    /* d[i] = i + 1 for i < 8, others skipped */
    tile_store(tile_array1(out, 8), d, 0);
    tile_zeros(d);
    tile_scatter_masked_tiles(d, three, v, m);
    tile_store(tile_array1(out + 8, 8), d, 0);
}

static void test_scatter_collisions(void **state) {
    (void)state;
    float out[16];
    assert_tile_ok(tile_launch(TILE_CPU, sm_collide, tile_grid1(1), 32, out));
    for (int i = 0; i < 8; ++i) assert_close(out[i], i + 1, 0);
    for (int i = 0; i < 8; ++i)
        if (i != 3) assert_close(out[8 + i], 0, 0);
    assert_true(out[11] >= 1 && out[11] <= 40 && out[11] == (float)(int)out[11]);
}

/* ======================================================================
 * 3D gathers, views: assign into a strided view, extract from views and 3D
 * shared tiles
 * ====================================================================== */
/* g3[c]: a (2, 3, 4) tile from a (4, 5, 6) array at (o0, o1, o2); c = 0:
 * axis 1 from a register idx of 3; c = 1: axis 2 from a shared idx of 4
 * (into a shared tile); c = 2: axis 0 from a register idx of 2 */
TILE_KERNEL_SMEM(g3, 32, TILE_SMEM_BYTES(float, 2, 3, 4) + 3 * 16, const float *a, const int32_t *ix1,
                 const int32_t *ix2, const int32_t *ix0, int o0, int o1, int o2, float *out) {
    const tile_array A = tile_array3(a, 4, 5, 6);
    tile_reg(int32_t, r1, 3);
    tile_load(r1, tile_array1(ix1, 3), 0);
    tile_reg(int32_t, r2, 4);
    tile_load(r2, tile_array1(ix2, 4), 0);
    tile_to_shared(s2, r2);
    tile_reg(int32_t, r0, 2);
    tile_load(r0, tile_array1(ix0, 2), 0);
    tile_reg(float, t, 2, 3, 4);
    tile_shared(float, s, 2, 3, 4);
    const tile_array O = tile_array4(out, 3, 2, 3, 4);
    tile_load_indexed(t, A, r1, 1, o0, o1, o2);
    tile_store(tile_array_row(O, 0), t, 0, 0, 0);
    tile_load_indexed(s, A, s2, 2, o0, o1, o2);
    tile_store(tile_array_row(O, 1), s, 0, 0, 0);
    tile_load_indexed(t, A, r0, 0, o0, o1, o2);
    tile_store(tile_array_row(O, 2), t, 0, 0, 0);
}

static void test_gather_3d(void **state) {
    (void)state;
    float a[120], out[72];
    for (int i = 0; i < 120; ++i) a[i] = (float)tu_val_nz(i, 91, 1);
    const int o3[][3] = {{0, 0, 0}, {1, -1, 2}, {3, 2, -1}, {-1, 4, 3}};
    for (int k = 0; k < 4; ++k) {
        int32_t ix1[3], ix2[4], ix0[2];
        ix_random(ix1, 3, -2, 7, 920 + k);
        ix_random(ix2, 4, -2, 8, 930 + k);
        ix_random(ix0, 2, -1, 5, 940 + k);
        ix2[0] = 6 - o3[k][2]; /* just past the end */
        for (int i = 0; i < 72; ++i) out[i] = -99.0f;
        assert_tile_ok(tile_launch(TILE_CPU, g3, tile_grid1(1), 32, a, ix1, ix2, ix0, o3[k][0], o3[k][1], o3[k][2],
                                   out));
        for (int c = 0; c < 3; ++c)
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 3; ++j)
                    for (int l = 0; l < 4; ++l) {
                        int g0 = c == 2 ? TI_AT(ix0[i], o3[k][0]) : i + o3[k][0], g1 = c == 0 ? TI_AT(ix1[j], o3[k][1]) : j + o3[k][1];
                        int g2 = (c == 1 ? ix2[l] : l) + o3[k][2];
                        int in = g0 >= 0 && g0 < 4 && g1 >= 0 && g1 < 5 && g2 >= 0 && g2 < 6;
                        assert_close(out[((c * 2 + i) * 3 + j) * 4 + l], in ? a[(g0 * 5 + g1) * 6 + g2] : 0.0, 0);
                    }
    }
}

/* dst: the (4, 5) view at (2, 3) of a shared (R, C) tile loaded from a;
 * a (3, 3) register tile assigned at (o0, o1) of the view: parts outside the
 * view are dropped although they lie inside the parent. Then every element
 * of the view and of a 3D shared tile through tile_extract. */
TILE_KERNEL_SMEM(views_k, 32, TILE_SMEM_BYTES(double, R, C) + TILE_SMEM_BYTES(double, 2, 3, 4), const double *a,
                 const double *b, int o0, int o1, double *out, double *ex) {
    tile_shared(double, big, R, C);
    tile_load(big, tile_array2(a, R, C), 0, 0);
    tile_view(v, big, (4, 5), (2, 3));
    tile_reg(double, src, 3, 3);
    tile_load(src, tile_array2(b, 3, 3), 0, 0);
    tile_assign(v, src, o0, o1);
    tile_store(tile_array2(out, R, C), big, 0, 0);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 5; ++j) {
            const double x = tile_extract(v, i, j);
            if (tile_thread() == 0) ex[i * 5 + j] = x;
        }
    tile_shared(double, s3, 2, 3, 4);
    tile_load(s3, tile_array3(a, 2, 3, 4), 0, 0, 0);
    for (int l = 0; l < 24; ++l) {
        const double x = tile_extract(s3, l / 12, l / 4 % 3, l % 4);
        if (tile_thread() == 0) ex[20 + l] = x;
    }
}

static void test_views(void **state) {
    (void)state;
    double a[R * C], b[9], out[R * C], ex[44];
    for (int i = 0; i < R * C; ++i) a[i] = tu_val_nz(i, 95, 1);
    for (int i = 0; i < 9; ++i) b[i] = 1000 + i;
    const int o[][2] = {{0, 0}, {2, 3}, {-1, -2}, {3, 4}, {-2, 2}, {1, 1}};
    for (int k = 0; k < 6; ++k) {
        assert_tile_ok(tile_launch(TILE_CPU, views_k, tile_grid1(1), 32, a, b, o[k][0], o[k][1], out, ex));
        for (int i = 0; i < R; ++i)
            for (int j = 0; j < C; ++j) {
                const int vi = i - 2, vj = j - 3, si = vi - o[k][0], sj = vj - o[k][1];
                const int in = vi >= 0 && vi < 4 && vj >= 0 && vj < 5 && si >= 0 && si < 3 && sj >= 0 && sj < 3;
                assert_close(out[i * C + j], in ? b[si * 3 + sj] : a[i * C + j], 0);
            }
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 5; ++j) assert_close(ex[i * 5 + j], out[(i + 2) * C + j + 3], 0);
        for (int l = 0; l < 24; ++l) assert_close(ex[20 + l], a[l], 0);
    }
}

/* the header's documented examples */
TILE_KERNEL_SMEM(doc_examples, 32, TILE_SMEM_BYTES(float, 4, 4) + TILE_SMEM_BYTES(float, 5) + 256, const float *A,
                 float *t_out, float *u_out, float *v_out, float *w_out, float *d_out, float *sc_out, float *x_out) {
    tile_reg(int32_t, idx, 3);
    tile_shared(int32_t, sidx, 3);
    tile_zeros(sidx);
    tile_set(sidx, 3, 0);
    tile_set(sidx, -1, 1);
    tile_set(sidx, 0, 2);
    tile_copy(idx, sidx);
    tile_reg(float, t, 3, 3);
    tile_load_indexed(t, tile_array2(A, 4, 3), idx, 0, 0, 0);
    tile_store(tile_array2(t_out, 3, 3), t, 0, 0);
    tile_reg(float, u, 2, 3);
    tile_load_indexed(u, tile_array2(A, 4, 3), idx, 1, 1, -1);
    tile_store(tile_array2(u_out, 2, 3), u, 0, 0);
    /* store: idx [2 -1 0], t [5 6 7] */
    tile_set(sidx, 2, 0);
    tile_reg(float, s3, 3);
    tile_arange(s3, 5, 1);
    tile_store_indexed(tile_array1(v_out, 4), s3, sidx, 0, 0);
    /* atomic: idx [1 1 3] */
    tile_set(sidx, 1, 0);
    tile_set(sidx, 1, 1);
    tile_set(sidx, 3, 2);
    tile_atomic_add_indexed(tile_array1(w_out, 4), s3, sidx, 0, 0);
    /* assign */
    tile_shared(float, dst, 4, 4);
    tile_zeros(dst);
    tile_reg(float, src, 2, 3);
    tile_arange(src, 1, 1);
    tile_assign(dst, src, 1, 2);
    tile_store(tile_array2(d_out, 4, 4), dst, 0, 0);
    /* scatters */
    tile_shared(float, sd, 5);
    tile_zeros(sd);
    tile_reg(int32_t, si, 6);
    tile_reg(float, sv, 6);
    tile_arange(sv, 1, 1);
    tile_shared(int32_t, sis, 6);
    const int32_t sidx_v[6] = {1, 4, 1, -1, 9, 1}, smask_v[6] = {1, 1, 0, 1, 1, 0};
    tile_load(sis, tile_array1(sidx_v, 6), 0);
    tile_copy(si, sis);
    tile_scatter_add(sd, si, sv);
    tile_store(tile_array1(sc_out, 5), sd, 0);
    tile_zeros(sd);
    tile_reg(int32_t, sm, 6);
    tile_load(sm, tile_array1(smask_v, 6), 0);
    tile_scatter_masked_tiles(sd, si, sv, sm);
    tile_store(tile_array1(sc_out + 5, 5), sd, 0);
    /* extract: t (2, 3) = [[1 2 3] [4 5 6]] */
    x_out[0] = tile_extract(src, 1, 2);
}

static void test_doc_examples(void **state) {
    (void)state;
    const float A[12] = {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32};
    float t[9] = {-1}, u[6] = {-1}, v[4] = {0, 0, 0, 0}, w[4] = {0, 0, 0, 0}, d[16] = {-1}, sc[10] = {-1}, x[1] = {-1};
    assert_tile_ok(tile_launch(TILE_CPU, doc_examples, tile_grid1(1), 32, A, t, u, v, w, d, sc, x));
    const float te[9] = {30, 31, 32, 0, 0, 0, 0, 1, 2}, ue[6] = {12, 0, 0, 22, 0, 0}, ve[4] = {7, 0, 5, 0},
                we[4] = {0, 11, 0, 7}, de[16] = {0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 4, 5, 0, 0, 0, 0},
                sce[10] = {0, 10, 0, 0, 2, 0, 1, 0, 0, 2};
    for (int i = 0; i < 9; ++i) assert_close(t[i], te[i], 0);
    for (int i = 0; i < 6; ++i) assert_close(u[i], ue[i], 0);
    for (int i = 0; i < 4; ++i) assert_close(v[i], ve[i], 0);
    for (int i = 0; i < 4; ++i) assert_close(w[i], we[i], 0);
    for (int i = 0; i < 16; ++i) assert_close(d[i], de[i], 0);
    for (int i = 0; i < 10; ++i) assert_close(sc[i], sce[i], 0);
    assert_close(x[0], 6, 0);
}

/* a register index tile staged through the arena leaves the arena as it
 * found it: the next allocation lands where it would have without it */
TILE_KERNEL_SMEM(arena_back, 16, 1024, const float *a, int *info) {
    tile_reg(int32_t, ix, 4);
    tile_arange(ix, 3, -1);
    tile_reg(float, t, 4, 5);
    const int before = tile_smem_free();
    tile_load_indexed(t, tile_array2(a, 4, 5), ix, 0, 0, 0); /* 2D: staged */
    const int after = tile_smem_free();
    tile_shared(float, s, 4);
    info[0] = before;
    info[1] = after;
    info[2] = (int)((unsigned char *)s.v - tile__k.smem);
    tile_store_indexed(tile_array2((float *)a, 4, 5), t, ix, 0, 0, 0); /* rows back in place */
}

static void test_arena_restored(void **state) {
    (void)state;
    float a[20], a0[20];
    int info[3];
    for (int i = 0; i < 20; ++i) a[i] = a0[i] = (float)tu_val_nz(i, 81, 1);
    assert_tile_ok(tile_launch(TILE_CPU, arena_back, tile_grid1(1), 16, a, info));
    assert_int_equal(info[0], info[1]);
    assert_int_equal(info[2], 0);
    for (int i = 0; i < 20; ++i) assert_close(a[i], a0[i], 0);
}

#define LIST(sfx, T, S, kind, bits, nc)                                            \
    cmocka_unit_test(test_gather_##sfx), cmocka_unit_test(test_store_indexed_##sfx), \
        cmocka_unit_test(test_assign_##sfx), cmocka_unit_test(test_extract_##sfx), \
        cmocka_unit_test(test_scatter_masked_##sfx),
#define LIST_ADD(sfx, T, S, kind, bits, nc) \
    cmocka_unit_test(test_atomic_indexed_##sfx), cmocka_unit_test(test_scatter_add_##sfx),
/* ---- atomic adds returning old values, every kind of element type (CPU:
 * one thread, the adds in element order), integers wrapping ---- */
TILE_KERNEL_SMEM(add_old_types, 32, 64, int64_t *i64, uint64_t *u64, double *f64, tile_vec2i *v2i, tile_quatf *qf,
                 tile_mat22d *m22, int64_t *oi64, uint64_t *ou64, double *of64, tile_vec2i *ov2i, tile_quatf *oqf,
                 tile_mat22d *om22) {
    tile_reg(int64_t, a, 3);
    tile_full(a, INT64_MAX);
    tile_reg(int64_t, oa, 3);
    tile_atomic_add_old(oa, tile_array1(i64, 3), a, 1); /* elements 1, 2; the third is outside */
    tile_store(tile_array1(oi64, 3), oa, 0);
    tile_reg(uint64_t, b, 2);
    tile_full(b, 7);
    tile_reg(int32_t, bi, 2);
    tile_arange(bi, 1, -1); /* [1 0] */
    tile_reg(uint64_t, ob, 2);
    tile_atomic_add_indexed_old(ob, tile_array1(u64, 2), b, bi, 0, 0);
    tile_store(tile_array1(ou64, 2), ob, 0);
    tile_reg(double, c, 2);
    tile_arange(c, 0.5, 0.25);
    tile_shared(double, oc, 2); /* a shared destination for the old values */
    tile_atomic_add_old(oc, tile_array1(f64, 2), c, 0);
    tile_store(tile_array1(of64, 2), oc, 0);
    tile_reg(tile_vec2i, d, 2);
    tile_vec2i dv = {{3, -4}};
    tile_full(d, dv);
    tile_reg(tile_vec2i, od, 2);
    tile_atomic_add_old(od, tile_array1(v2i, 2), d, 0);
    tile_store(tile_array1(ov2i, 2), od, 0);
    tile_reg(tile_quatf, e, 1);
    tile_full(e, tile_quatf_set(1, 2, 3, 4));
    tile_reg(tile_quatf, oe, 1);
    tile_atomic_add_old(oe, tile_array1(qf, 1), e, 0);
    tile_store(tile_array1(oqf, 1), oe, 0);
    tile_reg(tile_mat22d, f, 1);
    tile_full(f, tile_mat22d_diag(2.0));
    tile_reg(tile_mat22d, of, 1);
    tile_atomic_add_old(of, tile_array1(m22, 1), f, 0);
    tile_store(tile_array1(om22, 1), of, 0);
}
static void test_atomic_add_old_types(void **state) {
    (void)state;
    int64_t i64[3] = {5, 10, -3}, oi64[3] = {9, 9, 9};
    uint64_t u64[2] = {UINT64_MAX, 2}, ou64[2] = {9, 9};
    double f64[2] = {1.0, 2.0}, of64[2] = {0, 0};
    tile_vec2i v2i[2] = {{{1, 2}}, {{3, 4}}}, ov2i[2];
    tile_quatf qf[1] = {{0.5f, 0.5f, 0.5f, 0.5f}}, oqf[1];
    tile_mat22d m22[1] = {{{{1, 2}, {3, 4}}}}, om22[1];
    memset(ov2i, 0x7f, sizeof(ov2i)); /* poison: the kernel must write them */
    memset(oqf, 0x7f, sizeof(oqf));
    memset(om22, 0x7f, sizeof(om22));
    assert_tile_ok(tile_launch(TILE_CPU, add_old_types, tile_grid1(1), 32, i64, u64, f64, v2i, qf, m22, oi64, ou64,
                               of64, ov2i, oqf, om22));
    /* int64: old values, then the sums wrap as two's complement */
    assert_true(oi64[0] == 10 && oi64[1] == -3 && oi64[2] == 0);
    assert_true(i64[0] == 5);
    assert_true(i64[1] == (int64_t)((uint64_t)10 + (uint64_t)INT64_MAX));
    assert_true(i64[2] == INT64_MAX - 3);
    /* uint64 through indices [1 0]: element 0 wraps */
    assert_true(ou64[0] == 2 && ou64[1] == UINT64_MAX);
    assert_true(u64[0] == 6 && u64[1] == 9);
    assert_true(of64[0] == 1.0 && of64[1] == 2.0 && f64[0] == 1.5 && f64[1] == 2.75);
    assert_true(ov2i[0].v[0] == 1 && ov2i[0].v[1] == 2 && ov2i[1].v[0] == 3 && ov2i[1].v[1] == 4);
    assert_true(v2i[0].v[0] == 4 && v2i[0].v[1] == -2 && v2i[1].v[0] == 6 && v2i[1].v[1] == 0);
    assert_true(oqf[0].x == 0.5f && oqf[0].y == 0.5f && oqf[0].z == 0.5f && oqf[0].w == 0.5f);
    assert_true(qf[0].x == 1.5f && qf[0].y == 2.5f && qf[0].z == 3.5f && qf[0].w == 4.5f);
    assert_true(om22[0].m[0][0] == 1 && om22[0].m[0][1] == 2 && om22[0].m[1][0] == 3 && om22[0].m[1][1] == 4);
    assert_true(m22[0].m[0][0] == 3 && m22[0].m[0][1] == 2 && m22[0].m[1][0] == 3 && m22[0].m[1][1] == 6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomic_add_old_types),
        IX_COPY_TYPES(LIST)
        IX_ADD_TYPES(LIST_ADD)
        cmocka_unit_test(test_scatter_collisions),
        cmocka_unit_test(test_gather_3d),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_doc_examples),
        cmocka_unit_test(test_arena_restored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
