/* tests/gpu/sort_test.cu - tile_sort / tile_sort_pairs on the GPU and on the
 * CPU target of the same nvcc build, each run checked against the stable
 * host reference of tests/sort_ref.h.
 *
 *   sort_test             GPU 0 (when there is one), then the CPU target
 *   sort_test --cpu-only  the CPU target only (CI machines without a GPU)
 *
 * Covered: f32 keys of lengths 1, 2, 31, 32, 33, 255, 256, 257, 1000, 3000,
 * 4096 in blocks of 32, 64, 96, 256 and 1024 threads (and 33, 40, 100:
 * blocks ending in a partial warp; 16 and 1: the other counter layouts);
 * every other key type
 * (f64, i32, u32, i64, u64) on a spread of lengths and blocks; register
 * tiles (chunks in registers, and chunks longer than TILE_SORT_REG_CHUNK),
 * shared tiles, and mixes of the two for keys and values; values of other
 * types (vec3f, u64, a user struct); a 2D tile (sorted as its flattening);
 * staging in static shared memory and in the arena (1024 threads, long
 * tiles of 64-bit keys). Every kernel sorts keys alone and then (key, input
 * index) pairs, so the values check stability exactly; every launch sorts 8
 * tiles, one per input pattern of sort_ref.h: random bits (NaNs,
 * infinities, denormals), duplicates with -0.0 next to +0.0, sorted,
 * reversed, all equal, specials and extreme integers (INT_MIN, UINT64_MAX),
 * a small range (passes skipped), one sign.
 * Keys must equal the reference bit for bit, values exactly. Outputs are
 * poisoned (0xCD bytes) before each launch.
 *
 * Prints one FAIL line per failed check and last the summary
 * "sort_test: N checks, M failed (targets: gpu+cpu|cpu)"; the exit code is
 * nonzero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define GC_DALLOC_COUNTS 0 /* this test never counted its allocations as checks */
#include "gpu_check.h"
#include "../sort_ref.h"

#define CHECK_OK(expr) CHECK_ERR(expr, TILE_OK)
#define dalloc(t, bytes) dalloc_((t), (bytes), __FILE__, __LINE__)

/* ========================================================================
 * kernels: block b sorts the tile at b*N (input pattern b)
 * ======================================================================== */
#define NPAT SR_NPATTERNS
#define DECL_0(T, name, N) tile_reg(T, name, N)
#define DECL_1(T, name, N) tile_shared(T, name, N)
#define DECL(sh, T, name, N) DECL_##sh(T, name, N)
/* Shared tiles are filled and drained with plain strided loops: tile_load /
 * tile_store of a shared tile with many slots per thread (3000 elements in
 * 96 threads) unroll 32 predicated copies, and next to a sort ptxas then
 * picks a register budget that spills a register (4 bytes; not the sort's
 * own code: the sort alone uses 32 registers there). */
#define LOAD_0(t, p, N) tile_load(t, tile_array1(p, N), 0)
#define LOAD_1(t, p, N)                                                            \
    do {                                                                           \
        tile_barrier();                                                            \
        for (int i_ = tile_thread(); i_ < (N); i_ += TILE_BLOCK_DIM) (t).v[i_] = (p)[i_]; \
        tile_barrier();                                                            \
    } while (0)
#define LOAD(sh, t, p, N) LOAD_##sh(t, p, N)
#define STORE_0(p, t, N) tile_store(tile_array1(p, N), t, 0)
#define STORE_1(p, t, N)                                                           \
    do {                                                                           \
        for (int i_ = tile_thread(); i_ < (N); i_ += TILE_BLOCK_DIM) (p)[i_] = (t).v[i_]; \
    } while (0)
#define STORE(sh, p, t, N) STORE_##sh(p, t, N)

/* two kernels per case: keys alone (name_k), then (key, index) pairs
 * (name_p), each with the arena it needs for its shared tiles and staging */
#define DEF_KERNEL(name, T, B, N, KSH, VSH)                                        \
    TILE_KERNEL_SMEM(name##_k, B, (KSH ? TILE_SMEM_BYTES(T, N) : 0) + TILE_SORT_SMEM_BYTES(T, N, B), const T *in, \
                     T *out_k) {                                                   \
        const int64_t base = (int64_t)tile_block(0) * N;                           \
        DECL(KSH, T, a, N);                                                        \
        LOAD(KSH, a, in + base, N);                                                \
        tile_sort(a);                                                              \
        STORE(KSH, out_k + base, a, N);                                            \
    }                                                                              \
    TILE_KERNEL_SMEM(name##_p, B,                                                  \
                     (KSH ? TILE_SMEM_BYTES(T, N) : 0) + (VSH ? TILE_SMEM_BYTES(int32_t, N) : 0) + \
                         TILE_SORT_PAIRS_SMEM_BYTES(T, int32_t, N, B),             \
                     const T *in, const int32_t *vin, T *out_pk, int32_t *out_pv) { \
        const int64_t base = (int64_t)tile_block(0) * N;                           \
        DECL(KSH, T, b, N);                                                        \
        DECL(VSH, int32_t, v, N);                                                  \
        LOAD(KSH, b, in + base, N);                                                \
        LOAD(VSH, v, vin, N);                                                      \
        tile_sort_pairs(b, v);                                                     \
        STORE(KSH, out_pk + base, b, N);                                           \
        STORE(VSH, out_pv + base, v, N);                                           \
    }

/* X(name, C type, type id, B, N, keys shared, values shared) */
#define F32_LEN(X, B, KS)                                                          \
    X(f32_##B##_1, float, SR_F32, B, 1, 0, 0)                                      \
    X(f32_##B##_2, float, SR_F32, B, 2, 0, 0)                                      \
    X(f32_##B##_31, float, SR_F32, B, 31, 0, 0)                                    \
    X(f32_##B##_32, float, SR_F32, B, 32, 0, 0)                                    \
    X(f32_##B##_33, float, SR_F32, B, 33, 0, 0)                                    \
    X(f32_##B##_255, float, SR_F32, B, 255, KS, KS)                                \
    X(f32_##B##_256, float, SR_F32, B, 256, KS, KS)                                \
    X(f32_##B##_257, float, SR_F32, B, 257, KS, KS)                                \
    X(f32_##B##_1000, float, SR_F32, B, 1000, 1, 1)                                \
    X(f32_##B##_3000, float, SR_F32, B, 3000, 1, 1)                                \
    X(f32_##B##_4096, float, SR_F32, B, 4096, 1, 1)
#define F32_LEN_BIG(X, B)                                                          \
    X(f32_##B##_1, float, SR_F32, B, 1, 0, 0)                                      \
    X(f32_##B##_2, float, SR_F32, B, 2, 0, 0)                                      \
    X(f32_##B##_31, float, SR_F32, B, 31, 0, 0)                                    \
    X(f32_##B##_32, float, SR_F32, B, 32, 0, 0)                                    \
    X(f32_##B##_33, float, SR_F32, B, 33, 0, 0)                                    \
    X(f32_##B##_255, float, SR_F32, B, 255, 0, 0)                                  \
    X(f32_##B##_256, float, SR_F32, B, 256, 0, 0)                                  \
    X(f32_##B##_257, float, SR_F32, B, 257, 0, 0)                                  \
    X(f32_##B##_1000, float, SR_F32, B, 1000, 0, 0)                                \
    X(f32_##B##_3000, float, SR_F32, B, 3000, 0, 0)                                \
    X(f32_##B##_4096, float, SR_F32, B, 4096, 0, 0)
#define OTHER(X, id, T, SR)                                                        \
    X(id##_32_33, T, SR, 32, 33, 0, 0)                                             \
    X(id##_64_1000, T, SR, 64, 1000, 0, 0)                                         \
    X(id##_96_257, T, SR, 96, 257, 1, 1)                                           \
    X(id##_256_4096, T, SR, 256, 4096, 0, 0)                                       \
    X(id##_1024_3000, T, SR, 1024, 3000, 0, 0)                                     \
    X(id##_256_1, T, SR, 256, 1, 1, 1)                                             \
    X(id##_96_4096, T, SR, 96, 4096, 1, 1)
#define CASES(X)                                                                   \
    F32_LEN(X, 32, 0)                                                              \
    F32_LEN(X, 64, 1)                                                              \
    F32_LEN(X, 96, 0)                                                              \
    F32_LEN_BIG(X, 256)                                                            \
    F32_LEN_BIG(X, 1024)                                                           \
    OTHER(X, f64, double, SR_F64)                                                  \
    OTHER(X, i32, int32_t, SR_I32)                                                 \
    OTHER(X, u32, uint32_t, SR_U32)                                                \
    OTHER(X, i64, int64_t, SR_I64)                                                 \
    OTHER(X, u64, uint64_t, SR_U64)                                                \
    /* storage mixes */                                                        \
    X(mix_f32_32_1000_sr, float, SR_F32, 32, 1000, 1, 0)                           \
    X(mix_i64_96_1000_rs, int64_t, SR_I64, 96, 1000, 0, 1)                         \
    X(mix_u32_256_257_sr, uint32_t, SR_U32, 256, 257, 1, 0)                        \
    X(mix_f64_64_600_rs, double, SR_F64, 64, 600, 0, 1)                            \
    /* register tiles longer than TILE_SORT_REG_CHUNK slots (chunks in shared) */ \
    X(mix_f32_32_700_rr, float, SR_F32, 32, 700, 0, 0)                             \
    X(mix_u64_32_600_rr, uint64_t, SR_U64, 32, 600, 0, 0)                         \
    /* blocks ending in a partial warp */                                      \
    X(pw_f32_100_777, float, SR_F32, 100, 777, 0, 0)                               \
    X(pw_i64_40_1000, int64_t, SR_I64, 40, 1000, 0, 1)                             \
    X(pw_u32_33_4096, uint32_t, SR_U32, 33, 4096, 1, 1)                           \
    /* the digit-interleaved counters' other layouts: 16 threads and 1 */      \
    X(b16_i32_17, int32_t, SR_I32, 16, 17, 0, 0)                                   \
    X(b16_f32_256, float, SR_F32, 16, 256, 0, 0)                                   \
    X(b16_u32_1000, uint32_t, SR_U32, 16, 1000, 1, 1)                              \
    X(b1_f32_64, float, SR_F32, 1, 64, 0, 0)                                       \
    X(b1_u32_300, uint32_t, SR_U32, 1, 300, 1, 1)

#define DEF_CASE(name, T, SR, B, N, KS, VS) DEF_KERNEL(k_##name, T, B, N, KS, VS)
CASES(DEF_CASE)

/* run one kernel on a target: NPAT tiles, checked against the reference */
#define RUN_CASE(name, T, SR, B, N, KS, VS)                                        \
    static void run_##name(const target *t) {                                      \
        const size_t nk = (size_t)N * NPAT;                                        \
        T *h_in = (T *)malloc(sizeof(T) * nk), *h_k = (T *)malloc(sizeof(T) * nk), \
          *h_pk = (T *)malloc(sizeof(T) * nk);                                     \
        int32_t *h_vin = (int32_t *)malloc(sizeof(int32_t) * N), *h_pv = (int32_t *)malloc(sizeof(int32_t) * nk); \
        for (int p = 0; p < NPAT; ++p) sr_fill(SR, h_in + (size_t)p * N, N, p, 2024u); \
        for (int i = 0; i < N; ++i) h_vin[i] = i;                                  \
        T *d_in = (T *)dalloc(t, sizeof(T) * nk), *d_k = (T *)dalloc(t, sizeof(T) * nk), \
          *d_pk = (T *)dalloc(t, sizeof(T) * nk);                                  \
        int32_t *d_vin = (int32_t *)dalloc(t, sizeof(int32_t) * N), *d_pv = (int32_t *)dalloc(t, sizeof(int32_t) * nk); \
        memset(h_k, 0xcd, sizeof(T) * nk);                                         \
        memset(h_pv, 0xcd, sizeof(int32_t) * nk);                                  \
        CHECK_OK(tile_copy_to(t->ex, d_in, h_in, sizeof(T) * nk));                 \
        CHECK_OK(tile_copy_to(t->ex, d_vin, h_vin, sizeof(int32_t) * N));          \
        CHECK_OK(tile_copy_to(t->ex, d_k, h_k, sizeof(T) * nk));                   \
        CHECK_OK(tile_copy_to(t->ex, d_pk, h_k, sizeof(T) * nk));                  \
        CHECK_OK(tile_copy_to(t->ex, d_pv, h_pv, sizeof(int32_t) * nk));           \
        CHECK_OK(tile_launch(t->ex, k_##name##_k, tile_grid1(NPAT), B, (const T *)d_in, d_k)); \
        CHECK_OK(tile_launch(t->ex, k_##name##_p, tile_grid1(NPAT), B, (const T *)d_in, (const int32_t *)d_vin, d_pk, \
                             d_pv));                                               \
        CHECK_OK(tile_synchronize(t->ex));                                         \
        CHECK_OK(tile_copy_from(t->ex, h_k, d_k, sizeof(T) * nk));                 \
        CHECK_OK(tile_copy_from(t->ex, h_pk, d_pk, sizeof(T) * nk));               \
        CHECK_OK(tile_copy_from(t->ex, h_pv, d_pv, sizeof(int32_t) * nk));         \
        for (int p = 0; p < NPAT; ++p) {                                           \
            long first, bad;                                                       \
            bad = sr_check(SR, h_in + (size_t)p * N, N, h_k + (size_t)p * N, NULL, &first); \
            CHECK(bad == 0, "%s (%s keys, block %d, n %d, %s): tile_sort, %s input: %ld of %d keys wrong, first at %ld", \
                  #name, sr_type_name[SR], B, N, KS ? "shared" : "register", sr_pattern_name[p], bad, N, first); \
            bad = sr_check(SR, h_in + (size_t)p * N, N, h_pk + (size_t)p * N, h_pv + (size_t)p * N, &first); \
            CHECK(bad == 0,                                                        \
                  "%s (%s keys, block %d, n %d, keys %s, values %s): tile_sort_pairs, %s input: %ld of %d " \
                  "(key, index) wrong, first at %ld",                              \
                  #name, sr_type_name[SR], B, N, KS ? "shared" : "register", VS ? "shared" : "register", \
                  sr_pattern_name[p], bad, N, first);                              \
        }                                                                          \
        tile_free(t->ex, d_in);                                                    \
        tile_free(t->ex, d_k);                                                     \
        tile_free(t->ex, d_pk);                                                    \
        tile_free(t->ex, d_vin);                                                   \
        tile_free(t->ex, d_pv);                                                    \
        free(h_in);                                                                \
        free(h_k);                                                                 \
        free(h_pk);                                                                \
        free(h_vin);                                                               \
        free(h_pv);                                                                \
    }
CASES(RUN_CASE)

/* ---- values of other types, a 2D tile ---- */
typedef struct {
    int32_t id;
    char tag[6];
} user_rec;
enum { VN = 700 };
TILE_KERNEL_SMEM(k_values, 96, TILE_SMEM_BYTES(tile_vec3f, VN) + TILE_SORT_PAIRS_SMEM_BYTES(float, tile_vec3f, VN, 96),
                 const float *in, const double *din, const user_rec *r_in, tile_vec3f *v3_out, uint64_t *u_out,
                 user_rec *r_out, int32_t *o2d) {
    tile_reg(float, k1, VN);
    tile_shared(tile_vec3f, v3, VN);
    tile_load(k1, tile_array1(in, VN), 0);
    tile_barrier();
    for (int i = tile_thread(); i < VN; i += TILE_BLOCK_DIM) v3.v[i] = tile_vec3f_set((float)i, (float)-i, 0.5f);
    tile_barrier();
    tile_sort_pairs(k1, v3); /* register keys, shared 12-byte values */
    tile_store(tile_array1(v3_out, VN), v3, 0);
    tile_reg(double, k2, VN);
    tile_reg(uint64_t, u, VN);
    tile_load(k2, tile_array1(din, VN), 0);
    tile_arange(u, 5, 1);
    tile_sort_pairs(k2, u); /* 64-bit keys and values */
    tile_store(tile_array1(u_out, VN), u, 0);
    tile_reg(float, k3, 200);
    tile_reg(user_rec, r, 200);
    tile_load(k3, tile_array1(in, 200), 0);
    tile_load(r, tile_array1(r_in, 200), 0);
    tile_sort_pairs(k3, r); /* a user struct */
    tile_store(tile_array1(r_out, 200), r, 0);
    tile_reg(int32_t, a, 12, 25); /* 2D, sorted as its flattening */
    tile_load(a, tile_array2((const int32_t *)(const void *)din, 12, 25), 0, 0);
    tile_sort(a);
    tile_store(tile_array2(o2d, 12, 25), a, 0, 0);
}
static void run_values(const target *t) {
    float h_in[VN];
    double h_din[VN];
    sr_fill(SR_F32, h_in, VN, 1, 77u); /* duplicates */
    sr_fill(SR_F64, h_din, VN, 1, 78u);
    float *d_in = (float *)dalloc(t, sizeof h_in);
    double *d_din = (double *)dalloc(t, sizeof h_din);
    tile_vec3f *d_v3 = (tile_vec3f *)dalloc(t, sizeof(tile_vec3f) * VN), *h_v3 = (tile_vec3f *)malloc(sizeof(tile_vec3f) * VN);
    uint64_t *d_u = (uint64_t *)dalloc(t, sizeof(uint64_t) * VN), *h_u = (uint64_t *)malloc(sizeof(uint64_t) * VN);
    user_rec *d_r = (user_rec *)dalloc(t, sizeof(user_rec) * 200), *h_r = (user_rec *)malloc(sizeof(user_rec) * 200);
    user_rec *d_rin = (user_rec *)dalloc(t, sizeof(user_rec) * 200);
    for (int i = 0; i < 200; ++i) {
        h_r[i].id = i;
        memcpy(h_r[i].tag, "sort!", 6);
    }
    CHECK_OK(tile_copy_to(t->ex, d_rin, h_r, sizeof(user_rec) * 200));
    memset(h_r, 0xcd, sizeof(user_rec) * 200);
    int32_t *d_2 = (int32_t *)dalloc(t, sizeof(int32_t) * 300), h_2[300];
    CHECK_OK(tile_copy_to(t->ex, d_in, h_in, sizeof h_in));
    CHECK_OK(tile_copy_to(t->ex, d_din, h_din, sizeof h_din));
    CHECK_OK(tile_launch(t->ex, k_values, tile_grid1(1), 96, (const float *)d_in, (const double *)d_din,
                         (const user_rec *)d_rin, d_v3, d_u, d_r, d_2));
    CHECK_OK(tile_synchronize(t->ex));
    CHECK_OK(tile_copy_from(t->ex, h_v3, d_v3, sizeof(tile_vec3f) * VN));
    CHECK_OK(tile_copy_from(t->ex, h_u, d_u, sizeof(uint64_t) * VN));
    CHECK_OK(tile_copy_from(t->ex, h_r, d_r, sizeof(user_rec) * 200));
    CHECK_OK(tile_copy_from(t->ex, h_2, d_2, sizeof h_2));
    int32_t idx[VN];
    long first, bad;
    int32_t ref[VN];
    sr_sort_index(SR_F32, h_in, VN, ref);
    bad = 0;
    for (int i = 0; i < VN; ++i) bad += h_v3[i].v[0] != (float)ref[i] || h_v3[i].v[1] != -h_v3[i].v[0] || h_v3[i].v[2] != 0.5f;
    CHECK(bad == 0, "vec3f values: %ld of %d wrong", bad, VN);
    for (int i = 0; i < VN; ++i) idx[i] = (int32_t)(h_u[i] - 5);
    double kd[VN];
    for (int i = 0; i < VN; ++i) kd[i] = h_din[idx[i] >= 0 && idx[i] < VN ? idx[i] : 0];
    bad = sr_check(SR_F64, h_din, VN, kd, idx, &first);
    CHECK(bad == 0, "u64 values of f64 keys: %ld of %d wrong, first at %ld", bad, VN, first);
    sr_sort_index(SR_F32, h_in, 200, ref);
    bad = 0;
    for (int i = 0; i < 200; ++i) bad += h_r[i].id != ref[i] || memcmp(h_r[i].tag, "sort!", 6) != 0;
    CHECK(bad == 0, "user struct values: %ld of 200 wrong", bad);
    bad = sr_check(SR_I32, h_din, 300, h_2, NULL, &first);
    CHECK(bad == 0, "2D tile: %ld of 300 wrong, first at %ld", bad, first);
    tile_free(t->ex, d_in);
    tile_free(t->ex, d_din);
    tile_free(t->ex, d_v3);
    tile_free(t->ex, d_u);
    tile_free(t->ex, d_r);
    tile_free(t->ex, d_rin);
    tile_free(t->ex, d_2);
    free(h_v3);
    free(h_u);
    free(h_r);
}

/* ========================================================================
 * main
 * ======================================================================== */
static void run_all(const target *t) {
    gc_target_begin(t);
#define CALL_CASE(name, T, SR, B, N, KS, VS) run_##name(t);
    CASES(CALL_CASE)
    run_values(t);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "sort_test", 0, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
