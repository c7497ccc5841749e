/* tests/gpu/sort_test.cu - tile_sort / tile_sort_pairs on the GPU and on the
 * CPU target of the same nvcc build, each run checked against the stable
 * host reference of tests/sort_ref.h.
 *
 *   sort_test             GPU 0 (when there is one), then the CPU target
 *   sort_test --cpu-only  the CPU target only (CI machines without a GPU)
 *   sort_test --quick     every third case of the first part, all of the
 *                         second (compute-sanitizer runs)
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
 * Also (second part): descending, bit-range (begin/end bit), f16 and bf16
 * radix sorts, per-row sorts of 2D tiles, merge sorts with user comparators
 * (a struct by one field, ascending and descending; floats), keys and
 * pairs (index values: stability exact), against plain C references
 * (qsort with the input index as tie break), and histograms (both
 * algorithms, init and composite, u8 and i32 samples with out-of-range
 * ones) against a counting loop; each GPU output also equals the CPU
 * target's byte for byte.
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
 * descending / bit-range / f16 / bf16 radix sorts, per-row sorts, merge
 * sorts, histograms: each kernel on NPAT tiles (block b: input pattern b),
 * checked against plain C references (qsort, counting loops) on every
 * target, and the GPU's output equal byte for byte to the CPU target's
 * ======================================================================== */
#include <tile/histogram.h>
/* references for the descending / bit-range / f16 / per-row / merge sorts:
 * vx_* in ../sort_ref.h */

typedef struct {
    int32_t key;
    uint32_t tag; /* input index: shows stability */
} ms_rec;
TILE_API int ms_less(ms_rec a, ms_rec b) { return a.key < b.key; }
#define MS_GREATER(a, b) ((a).key > (b).key)
#define FLT_LESS(a, b) ((a) < (b))

#define XD_0(T, name, N) tile_reg(T, name, N)
#define XD_1(T, name, N) tile_shared(T, name, N)
/* keys (name_k) and pairs with index values (name_p) of one operation */
#define DEF_X(name, T, B, N, KSH, VSH, OPK, OPP)                                   \
    TILE_KERNEL_SMEM(name##_k, B, (KSH ? TILE_SMEM_BYTES(T, N) : 0) + TILE_SORT_SMEM_BYTES(T, N, B) + \
                                      TILE_MERGE_SORT_SMEM_BYTES(T, N, B),         \
                     const T *in, T *out) {                                        \
        const int64_t base = (int64_t)tile_block(0) * N;                           \
        DECL(KSH, T, a, N);                                                        \
        LOAD(KSH, a, in + base, N);                                                \
        OPK(a);                                                                    \
        STORE(KSH, out + base, a, N);                                              \
    }                                                                              \
    TILE_KERNEL_SMEM(name##_p, B,                                                  \
                     (KSH ? TILE_SMEM_BYTES(T, N) : 0) + (VSH ? TILE_SMEM_BYTES(int32_t, N) : 0) + \
                         TILE_SORT_PAIRS_SMEM_BYTES(T, int32_t, N, B) + TILE_MERGE_SORT_PAIRS_SMEM_BYTES(T, int32_t, N, B), \
                     const T *in, const int32_t *vin, T *out, int32_t *vout) {     \
        const int64_t base = (int64_t)tile_block(0) * N;                           \
        DECL(KSH, T, b, N);                                                        \
        DECL(VSH, int32_t, v, N);                                                  \
        LOAD(KSH, b, in + base, N);                                                \
        LOAD(VSH, v, vin, N);                                                      \
        OPP(b, v);                                                                 \
        STORE(KSH, out + base, b, N);                                              \
        STORE(VSH, vout + base, v, N);                                             \
    }
#define XK_DESC(k) tile_sort_descending(k)
#define XP_DESC(k, v) tile_sort_pairs_descending(k, v)
#define XK_B3_13(k) tile_sort_bits(k, 3, 13)
#define XP_B3_13(k, v) tile_sort_pairs_bits(k, v, 3, 13)
#define XK_DB0_8(k) tile_sort_descending_bits(k, 0, 8)
#define XP_DB0_8(k, v) tile_sort_pairs_descending_bits(k, v, 0, 8)
#define XK_ASC(k) tile_sort(k)
#define XP_ASC(k, v) tile_sort_pairs(k, v)
#define XK_MS(k) tile_merge_sort(k, ms_less)
#define XP_MS(k, v) tile_merge_sort_pairs(k, v, ms_less)
#define XK_MSG(k) tile_merge_sort(k, MS_GREATER)
#define XP_MSG(k, v) tile_merge_sort_pairs(k, v, MS_GREATER)
#define XK_MF(k) tile_merge_sort(k, FLT_LESS)
#define XP_MF(k, v) tile_merge_sort_pairs(k, v, FLT_LESS)

/* X(name, T, type id (-1: ms_rec, -2: float by merge sort), B, N, KS, VS, OPK, OPP, desc, begin, end) */
#define XCASES(X)                                                                  \
    X(xd_f32_256_4096, float, SR_F32, 256, 4096, 0, 0, XK_DESC, XP_DESC, 1, 0, 0)   \
    X(xb_f32_256_4096, float, SR_F32, 256, 4096, 0, 0, XK_B3_13, XP_B3_13, 0, 3, 13) \
    X(xb_i32_64_1000, int32_t, SR_I32, 64, 1000, 1, 0, XK_B3_13, XP_B3_13, 0, 3, 13) \
    X(xd_u32_16_250, uint32_t, SR_U32, 16, 250, 0, 0, XK_DESC, XP_DESC, 1, 0, 0)    \
    X(xdb_i64_96_1000, int64_t, SR_I64, 96, 1000, 1, 1, XK_DB0_8, XP_DB0_8, 1, 0, 8) \
    X(xd_f64_32_700, double, SR_F64, 32, 700, 0, 0, XK_DESC, XP_DESC, 1, 0, 0)      \
    X(xh_f16_64_300, tile_f16, VX_F16, 64, 300, 0, 0, XK_ASC, XP_ASC, 0, 0, 0)      \
    X(xhd_bf16_33_100, tile_bf16, VX_BF16, 33, 100, 1, 1, XK_DESC, XP_DESC, 1, 0, 0) \
    X(xm_rec_64_1000, ms_rec, -1, 64, 1000, 0, 0, XK_MS, XP_MS, 0, 0, 0)            \
    X(xm_rec_96_257, ms_rec, -1, 96, 257, 1, 0, XK_MSG, XP_MSG, 1, 0, 0)            \
    X(xm_rec_33_100, ms_rec, -1, 33, 100, 0, 1, XK_MS, XP_MS, 0, 0, 0)              \
    X(xm_f32_256_4096, float, -2, 256, 4096, 0, 0, XK_MF, XP_MF, 0, 0, 0)

#define DEF_XCASE(name, T, ty, B, N, KS, VS, OPK, OPP, desc, b0, b1) DEF_X(k_##name, T, B, N, KS, VS, OPK, OPP)
XCASES(DEF_XCASE)

/* the GPU's outputs of each case, kept for the CPU target's comparison */
enum { X_NSTASH = 64 };
static void *x_stash[X_NSTASH];
static size_t x_stash_bytes[X_NSTASH];
/* compare (or stash, on the GPU) the outputs of case id */
static void x_gpu_vs_cpu(const target *t, int id, const char *name, const void *out, size_t bytes) {
    if (t->gpu) {
        free(x_stash[id]);
        x_stash[id] = malloc(bytes);
        memcpy(x_stash[id], out, bytes);
        x_stash_bytes[id] = bytes;
    } else if (x_stash[id]) {
        CHECK(x_stash_bytes[id] == bytes && memcmp(x_stash[id], out, bytes) == 0, "%s: GPU output differs from the CPU target's",
              name);
    }
}

static int ms_ref_cmp(const void *a, const void *b) {
    const ms_rec *x = (const ms_rec *)a, *y = (const ms_rec *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->tag > y->tag) - (x->tag < y->tag);
}
/* merge-sort reference: keys (ms_rec by key, or floats) stably, idx = order */
static long x_check_ms(int ty, int desc, const void *in, int n, const void *out, const int32_t *vout) {
    long bad = 0;
    if (ty == -1) {
        ms_rec *r = (ms_rec *)malloc(sizeof(ms_rec) * (size_t)n);
        memcpy(r, in, sizeof(ms_rec) * (size_t)n);
        for (int i = 0; i < n; ++i) {
            r[i].tag = (uint32_t)i; /* the reference's tie break: input order */
            if (desc) r[i].key = -r[i].key;
        }
        qsort(r, (size_t)n, sizeof(ms_rec), ms_ref_cmp);
        const ms_rec *o = (const ms_rec *)out;
        for (int i = 0; i < n; ++i) {
            const ms_rec *src = (const ms_rec *)in + r[i].tag;
            bad += o[i].key != src->key || o[i].tag != src->tag || (vout && vout[i] != (int32_t)r[i].tag);
        }
        free(r);
    } else { /* floats without NaNs: the radix reference's order */
        long first;
        bad = vx_check(SR_F32, in, n, out, vout, 0, 0, 0, &first);
    }
    return bad;
}
static void x_fill(int ty, void *in, int n, int p) {
    uint64_t s = 31u + (uint64_t)p * 1009u + (uint64_t)n;
    if (ty == -1) {
        ms_rec *r = (ms_rec *)in;
        for (int i = 0; i < n; ++i) {
            const uint64_t x = sr_rand(&s);
            r[i].key = p % 4 == 0 ? (int32_t)(x % 5u) : p % 4 == 1 ? (int32_t)(x >> 40) - (1 << 23) : p % 4 == 2 ? n - i : 3;
            r[i].tag = (uint32_t)i;
        }
    } else if (ty == -2) {
        float *f = (float *)in;
        for (int i = 0; i < n; ++i) f[i] = (float)(int)(sr_rand(&s) % (p % 2 ? 100000u : 40u)) * 0.5f - 20.0f;
    } else {
        vx_fill(ty, in, n, p, 55u);
    }
}

#define RUN_XCASE(name, T, ty, B, N, KS, VS, OPK, OPP, desc, b0, b1)               \
    static void run_##name(const target *t, int id) {                              \
        const size_t nk = (size_t)N * NPAT;                                        \
        T *h_in = (T *)malloc(sizeof(T) * nk), *h_k = (T *)malloc(sizeof(T) * nk), *h_pk = (T *)malloc(sizeof(T) * nk); \
        int32_t *h_vin = (int32_t *)malloc(sizeof(int32_t) * N), *h_pv = (int32_t *)malloc(sizeof(int32_t) * nk); \
        for (int p = 0; p < NPAT; ++p) x_fill(ty, h_in + (size_t)p * N, N, p);     \
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
            long first = -1, bad;                                                  \
            const T *in_p = h_in + (size_t)p * N;                                  \
            if (ty < 0) bad = x_check_ms(ty, desc, in_p, N, h_k + (size_t)p * N, NULL); \
            else bad = vx_check(ty, in_p, N, h_k + (size_t)p * N, NULL, desc, b0, b1, &first); \
            CHECK(bad == 0, "%s (block %d, n %d): keys, pattern %d: %ld of %d wrong, first at %ld", #name, B, N, p, \
                  bad, N, first);                                                  \
            if (ty < 0) bad = x_check_ms(ty, desc, in_p, N, h_pk + (size_t)p * N, h_pv + (size_t)p * N); \
            else bad = vx_check(ty, in_p, N, h_pk + (size_t)p * N, h_pv + (size_t)p * N, desc, b0, b1, &first); \
            CHECK(bad == 0, "%s (block %d, n %d): pairs, pattern %d: %ld of %d wrong, first at %ld", #name, B, N, p, \
                  bad, N, first);                                                  \
        }                                                                          \
        x_gpu_vs_cpu(t, 2 * id, #name " keys", h_k, sizeof(T) * nk);               \
        x_gpu_vs_cpu(t, 2 * id + 1, #name " pairs", h_pv, sizeof(int32_t) * nk);   \
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
XCASES(RUN_XCASE)

/* ---- per-row sorts and histograms ---- */
enum { RW_R = 5, RW_C = 37, RS_R = 16, RS_C = 16, HN = 4096, HB = 256, H2N = 300, H2B = 20 };
TILE_KERNEL(k_rows_p, 64, const float *in, const int32_t *vin, float *out, int32_t *vout) {
    const int64_t base = (int64_t)tile_block(0) * RW_R * RW_C;
    tile_reg(float, k, RW_R, RW_C);
    tile_reg(int32_t, v, RW_R, RW_C);
    tile_load(k, tile_array2(in + base, RW_R, RW_C), 0, 0);
    tile_load(v, tile_array2(vin, RW_R, RW_C), 0, 0);
    tile_sort_pairs_rows(k, v);
    tile_store(tile_array2(out + base, RW_R, RW_C), k, 0, 0);
    tile_store(tile_array2(vout + base, RW_R, RW_C), v, 0, 0);
}
TILE_KERNEL_SMEM(k_rows_k, 96, TILE_SMEM_BYTES(int32_t, RS_R, RS_C), const int32_t *in, int32_t *out) {
    const int64_t base = (int64_t)tile_block(0) * RS_R * RS_C;
    tile_shared(int32_t, k, RS_R, RS_C);
    tile_load(k, tile_array2(in + base, RS_R, RS_C), 0, 0);
    tile_sort_rows_descending(k);
    tile_store(tile_array2(out + base, RS_R, RS_C), k, 0, 0);
}
/* out1: counts; out2: counts after a composite with the other algorithm
 * (2x); alg 0: atomic first, 1: sort first */
TILE_KERNEL_SMEM(k_hist_u8, HB, TILE_SMEM_BYTES(uint32_t, HB) + TILE_HISTOGRAM_SMEM_BYTES(HN, HB, HB), const uint8_t *in,
                 uint32_t *out1, uint32_t *out2, int alg) {
    const int64_t b = tile_block(0);
    tile_reg(uint8_t, x, HN);
    tile_load(x, tile_array1(in + b * HN, HN), 0);
    tile_shared(uint32_t, c, HB);
    if (alg == 0) tile_histogram(c, x, HB);
    else tile_histogram_alg(c, x, HB, TILE_HISTO_SORT);
    tile_store(tile_array1(out1 + b * HB, HB), c, 0);
    if (alg == 0) tile_histogram_composite_alg(c, x, HB, TILE_HISTO_SORT);
    else tile_histogram_composite(c, x, HB);
    tile_store(tile_array1(out2 + b * HB, HB), c, 0);
}
/* k_hist_i32 with warp-aggregated atomics (TILE_HISTO_AGG 1, GPU only: a
 * partial warp, samples out of range, counts staged); k_hist_u8 with the
 * default (atomics straight into shared counts) */
#undef TILE_HISTO_AGG
#define TILE_HISTO_AGG 1
TILE_KERNEL_SMEM(k_hist_i32, 33, TILE_SMEM_BYTES(int32_t, H2N) + TILE_HISTOGRAM_SMEM_BYTES(H2N, H2B, 33),
                 const int32_t *in, int32_t *out1, int32_t *out2, int alg) {
    const int64_t b = tile_block(0);
    tile_shared(int32_t, x, H2N);
    LOAD_1(x, in + b * H2N, H2N);
    tile_reg(int32_t, c, H2B);
    if (alg == 0) tile_histogram(c, x, H2B);
    else tile_histogram_alg(c, x, H2B, TILE_HISTO_SORT);
    tile_store(tile_array1(out1 + b * H2B, H2B), c, 0);
    if (alg == 0) tile_histogram_composite_alg(c, x, H2B, TILE_HISTO_SORT);
    else tile_histogram_composite(c, x, H2B);
    tile_store(tile_array1(out2 + b * H2B, H2B), c, 0);
}
#undef TILE_HISTO_AGG
#define TILE_HISTO_AGG 0
static void run_rows_hist(const target *t) {
    /* rows, pairs (f32 5 x 37) */
    {
        const int n = RW_R * RW_C;
        float *h_in = (float *)malloc(sizeof(float) * n * NPAT), *h_o = (float *)malloc(sizeof(float) * n * NPAT);
        int32_t *h_vin = (int32_t *)malloc(sizeof(int32_t) * n), *h_vo = (int32_t *)malloc(sizeof(int32_t) * n * NPAT);
        for (int p = 0; p < NPAT; ++p) vx_fill(SR_F32, h_in + p * n, n, p, 3u);
        for (int i = 0; i < n; ++i) h_vin[i] = i;
        float *d_in = (float *)dalloc(t, sizeof(float) * n * NPAT), *d_o = (float *)dalloc(t, sizeof(float) * n * NPAT);
        int32_t *d_vin = (int32_t *)dalloc(t, sizeof(int32_t) * n), *d_vo = (int32_t *)dalloc(t, sizeof(int32_t) * n * NPAT);
        CHECK_OK(tile_copy_to(t->ex, d_in, h_in, sizeof(float) * n * NPAT));
        CHECK_OK(tile_copy_to(t->ex, d_vin, h_vin, sizeof(int32_t) * n));
        CHECK_OK(tile_launch(t->ex, k_rows_p, tile_grid1(NPAT), 64, (const float *)d_in, (const int32_t *)d_vin, d_o, d_vo));
        CHECK_OK(tile_synchronize(t->ex));
        CHECK_OK(tile_copy_from(t->ex, h_o, d_o, sizeof(float) * n * NPAT));
        CHECK_OK(tile_copy_from(t->ex, h_vo, d_vo, sizeof(int32_t) * n * NPAT));
        for (int p = 0; p < NPAT; ++p)
            for (int r = 0; r < RW_R; ++r) {
                int32_t gi[RW_C];
                long first;
                for (int c = 0; c < RW_C; ++c) gi[c] = h_vo[p * n + r * RW_C + c] - r * RW_C;
                const long bad = vx_check(SR_F32, h_in + p * n + r * RW_C, RW_C, h_o + p * n + r * RW_C, gi, 0, 0, 0, &first);
                CHECK(bad == 0, "tile_sort_pairs_rows (f32 5x37, block 64): pattern %d row %d: %ld wrong, first at %ld", p,
                      r, bad, first);
            }
        x_gpu_vs_cpu(t, 60, "tile_sort_pairs_rows values", h_vo, sizeof(int32_t) * n * NPAT);
        tile_free(t->ex, d_in);
        tile_free(t->ex, d_o);
        tile_free(t->ex, d_vin);
        tile_free(t->ex, d_vo);
        free(h_in);
        free(h_o);
        free(h_vin);
        free(h_vo);
    }
    /* rows, keys, descending (i32 16 x 16, shared) */
    {
        const int n = RS_R * RS_C;
        int32_t *h_in = (int32_t *)malloc(sizeof(int32_t) * n * NPAT), *h_o = (int32_t *)malloc(sizeof(int32_t) * n * NPAT);
        for (int p = 0; p < NPAT; ++p) vx_fill(SR_I32, h_in + p * n, n, p, 4u);
        int32_t *d_in = (int32_t *)dalloc(t, sizeof(int32_t) * n * NPAT), *d_o = (int32_t *)dalloc(t, sizeof(int32_t) * n * NPAT);
        CHECK_OK(tile_copy_to(t->ex, d_in, h_in, sizeof(int32_t) * n * NPAT));
        CHECK_OK(tile_launch(t->ex, k_rows_k, tile_grid1(NPAT), 96, (const int32_t *)d_in, d_o));
        CHECK_OK(tile_synchronize(t->ex));
        CHECK_OK(tile_copy_from(t->ex, h_o, d_o, sizeof(int32_t) * n * NPAT));
        for (int p = 0; p < NPAT; ++p)
            for (int r = 0; r < RS_R; ++r) {
                long first;
                const long bad = vx_check(SR_I32, h_in + p * n + r * RS_C, RS_C, h_o + p * n + r * RS_C, NULL, 1, 0, 0, &first);
                CHECK(bad == 0, "tile_sort_rows_descending (i32 16x16 shared, block 96): pattern %d row %d: %ld wrong", p,
                      r, bad);
            }
        x_gpu_vs_cpu(t, 61, "tile_sort_rows_descending", h_o, sizeof(int32_t) * n * NPAT);
        tile_free(t->ex, d_in);
        tile_free(t->ex, d_o);
        free(h_in);
        free(h_o);
    }
    /* histograms: u8 samples in 256 bins (block 256, 4096 samples), i32
     * samples (negative and too large ones) in 20 bins (block 33) */
    for (int which = 0; which < 2; ++which) {
        const int n = which ? H2N : HN, nb = which ? H2B : HB, esz = which ? 4 : 1;
        unsigned char *h_in = (unsigned char *)malloc((size_t)esz * n * NPAT);
        uint32_t *h_o1 = (uint32_t *)malloc(4u * nb * NPAT), *h_o2 = (uint32_t *)malloc(4u * nb * NPAT);
        uint64_t s = 5u + (uint64_t)which;
        for (int i = 0; i < n * NPAT; ++i) {
            const int p = i / n;
            const uint64_t r = sr_rand(&s);
            const int64_t x = p == 1 ? nb / 2 : p == 2 ? (int64_t)(r % 3u) : which ? (int64_t)(r % (uint64_t)(3 * nb)) - nb
                                                                                : (int64_t)(r & 255u);
            if (which) {
                const int32_t v = (int32_t)x;
                memcpy(h_in + 4 * (size_t)i, &v, 4);
            } else {
                h_in[i] = (unsigned char)x;
            }
        }
        void *d_in = dalloc(t, (size_t)esz * n * NPAT);
        uint32_t *d_o1 = (uint32_t *)dalloc(t, 4u * nb * NPAT), *d_o2 = (uint32_t *)dalloc(t, 4u * nb * NPAT);
        CHECK_OK(tile_copy_to(t->ex, d_in, h_in, (size_t)esz * n * NPAT));
        for (int alg = 0; alg < 2; ++alg) {
            memset(h_o1, 0xcd, 4u * nb * NPAT);
            CHECK_OK(tile_copy_to(t->ex, d_o1, h_o1, 4u * nb * NPAT));
            CHECK_OK(tile_copy_to(t->ex, d_o2, h_o1, 4u * nb * NPAT));
            if (which)
                CHECK_OK(tile_launch(t->ex, k_hist_i32, tile_grid1(NPAT), 33, (const int32_t *)d_in, (int32_t *)d_o1,
                                     (int32_t *)d_o2, alg));
            else
                CHECK_OK(tile_launch(t->ex, k_hist_u8, tile_grid1(NPAT), HB, (const uint8_t *)d_in, d_o1, d_o2, alg));
            CHECK_OK(tile_synchronize(t->ex));
            CHECK_OK(tile_copy_from(t->ex, h_o1, d_o1, 4u * nb * NPAT));
            CHECK_OK(tile_copy_from(t->ex, h_o2, d_o2, 4u * nb * NPAT));
            long bad = 0;
            for (int p = 0; p < NPAT; ++p) {
                int64_t ref[HB];
                memset(ref, 0, sizeof ref);
                for (int i = 0; i < n; ++i) {
                    int64_t x;
                    if (which) {
                        int32_t v;
                        memcpy(&v, h_in + 4 * ((size_t)p * n + i), 4);
                        x = v;
                    } else {
                        x = h_in[(size_t)p * n + i];
                    }
                    if (x >= 0 && x < nb) ++ref[x];
                }
                for (int b = 0; b < nb; ++b) bad += h_o1[p * nb + b] != ref[b] || h_o2[p * nb + b] != 2 * ref[b];
            }
            CHECK(bad == 0, "tile_histogram (%s, %d bins, block %d, %s first): %ld bins wrong", which ? "i32" : "u8", nb,
                  which ? 33 : HB, alg ? "sort" : "atomic", bad);
        }
        tile_free(t->ex, d_in);
        tile_free(t->ex, d_o1);
        tile_free(t->ex, d_o2);
        free(h_in);
        free(h_o1);
        free(h_o2);
    }
}

/* ========================================================================
 * main
 * ======================================================================== */
static void run_all(const target *t) {
    gc_target_begin(t);
    int ci = 0;
#define CALL_CASE(name, T, SR, B, N, KS, VS) \
    if (!g_quick || ci++ % 3 == 0) run_##name(t);
    CASES(CALL_CASE)
    run_values(t);
    int xid = 0;
#define CALL_XCASE(name, T, ty, B, N, KS, VS, OPK, OPP, desc, b0, b1) run_##name(t, xid++);
    XCASES(CALL_XCASE)
    run_rows_hist(t);
    gc_target_end(t, "");
}

int main(int argc, char **argv) {
    const int rc = gc_start(argc, argv, "sort_test", 1, NULL, NULL);
    if (rc) return rc;
    for (int i = 0; i < gc_ntargets; ++i) run_all(&gc_targets[i]);
    return gc_finish();
}
