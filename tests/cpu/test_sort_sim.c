/* test_sort_sim.c - the GPU code path of tile_sort / tile_sort_pairs
 * (block_dim > 1), run on the CPU by a block simulator.
 *
 * The CPU target runs kernels with one thread per block, so the per-thread
 * chunks, the cross-thread counter scan, the warp steps and the barriers of
 * the sort are only exercised on a GPU. This test compiles the same macros
 * with TILE_BLOCK_DIM, tile_thread() and tile_barrier() redirected to a
 * simulated block: B cooperative threads (ucontext coroutines) that run one
 * at a time, each until it reaches a barrier or a warp step. The order in
 * which threads run between two barriers is chosen by a policy (ascending,
 * descending, random), so a thread that reads what another writes without a
 * barrier in between sees different data under different orders and the
 * result breaks. Barriers check that every thread arrives at the same line;
 * warp steps (the sort's two hooks: an inclusive scan and an AND/OR
 * reduction, see tile/sort.h) check their lane masks and that all lanes of
 * the warp take part; the AND/OR result is given to lane 0 only (the
 * weakest guarantee of the device code). A thread left waiting with no
 * runnable thread is a deadlock. The staging buffer is poisoned before each
 * run.
 *
 * Every configuration (key type, block size, length, register or shared
 * keys and values, keys only or pairs with the input index as value) runs
 * on every input pattern of tests/sort_ref.h and is compared with the
 * stable host reference, keys bit for bit, values exactly.
 */
#define _GNU_SOURCE
/* tile_thread() is a global here that changes at every barrier, so gcc
 * cannot match the slot-validity tests of a load with those of the sort
 * and warns about slots that are never read */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <stddef.h>
#include <stdint.h>

/* ---- the simulated block: hooks the sort header takes ---- */
static int sim_tid;
static uint32_t sim_warp_scan(uint32_t x, unsigned mask, int lane);
static void sim_warp_andor(uint32_t *a, uint32_t *o, unsigned mask, int lane, int act);
static unsigned char *sim_buf(size_t bytes);
static void sim_barrier(int line);
#define TILE__SORT_WARP_SCAN(x, mask, lane) sim_warp_scan((x), (mask), (lane))
#define TILE__SORT_WARP_ANDOR(a, o, mask, lane, act) sim_warp_andor(&(a), &(o), (mask), (lane), (act))
#define TILE__SORT_BUF(p, bytes, sizing) unsigned char *const p = sim_buf(bytes)
#define TILE__SORT_BUF_END(p, sizing) ((void)0)

#include "test_util.h"
#include "../sort_ref.h"

#undef TILE_BLOCK_DIM
#define TILE_BLOCK_DIM ((int)sizeof(*tile__bd))
#undef tile_thread
#define tile_thread() sim_tid
#undef tile_barrier
#define tile_barrier() sim_barrier(__LINE__)

#include "block_sim.h"

/* ---- kernels: every thread of the simulated block runs one ---- */
static void *g_in, *g_out;
static int32_t *g_vin, *g_vout;
static tile_vec3f *g_v3in, *g_v3out;

#define SIM_KERNEL(name, B, ...)                                                   \
    static void name(void) {                                                       \
        char(*tile__bd)[B] = 0;                                                    \
        tile_kctx tile__k;                                                         \
        memset(&tile__k, 0, sizeof tile__k);                                       \
        tile__k.smem = sim_arena.b;                                                \
        tile__k.smem_cap = SIM_ARENA;                                              \
        (void)tile__bd;                                                            \
        __VA_ARGS__                                                                \
    }
/* register keys, keys only (the last two arguments are unused) */
#define K_RK(name, T, B, N, KDECL, VDECL)                                          \
    SIM_KERNEL(name, B, tile_reg(T, k, N); tile_load(k, tile_array1(g_in, N), 0); tile_sort(k); \
               tile_store(tile_array1(g_out, N), k, 0);)
/* shared keys, keys only */
#define K_SK(name, T, B, N, KDECL, VDECL)                                          \
    SIM_KERNEL(name, B, tile_shared(T, k, N); tile_load(k, tile_array1(g_in, N), 0); tile_sort(k); \
               tile_store(tile_array1(g_out, N), k, 0);)
/* pairs: keys and index values, register (R) or shared (S) each */
#define K_PAIRS(name, T, B, N, KDECL, VDECL)                                       \
    SIM_KERNEL(name, B, KDECL(T, k, N); VDECL(int32_t, v, N); tile_load(k, tile_array1(g_in, N), 0); \
               tile_load(v, tile_array1(g_vin, N), 0); tile_sort_pairs(k, v);     \
               tile_store(tile_array1(g_out, N), k, 0); tile_store(tile_array1(g_vout, N), v, 0);)
/* pairs with a 12-byte value (vec3f: idx, -idx, 2 idx) */
#define K_V3(name, T, B, N, KDECL, VDECL)                                          \
    SIM_KERNEL(name, B, KDECL(T, k, N); VDECL(tile_vec3f, v, N); tile_load(k, tile_array1(g_in, N), 0); \
               tile_load(v, tile_array1(g_v3in, N), 0); tile_sort_pairs(k, v);    \
               tile_store(tile_array1(g_out, N), k, 0); tile_store(tile_array1(g_v3out, N), v, 0);)
/* a 2D register tile (R x C), sorted as its flattening, pairs */
#define K_2D(name, T, B, R, C)                                                     \
    SIM_KERNEL(name, B, tile_reg(T, k, R, C); tile_reg(int32_t, v, R, C);         \
               tile_load(k, tile_array2(g_in, R, C), 0, 0); tile_load(v, tile_array2(g_vin, R, C), 0, 0); \
               tile_sort_pairs(k, v); tile_store(tile_array2(g_out, R, C), k, 0, 0); \
               tile_store(tile_array2(g_vout, R, C), v, 0, 0);)

/* kinds of kernel, for the driver */
enum { KK_KEYS, KK_PAIRS, KK_V3 };
typedef struct sim_case {
    const char *name;
    void (*fn)(void);
    int type, B, n, kind;
} sim_case;

/* X(name, T, type, B, N, macro-args...) lists */
#define CASES(X)                                                                   \
    /* register keys, keys only: whole chunks (first pass on the slots) and   \
     * partial ones; REG path (S <= 16) and SMEM path (S > 16) */             \
    X(rk_f32_32_32, K_RK, KK_KEYS, float, SR_F32, 32, 32, -, -)                          \
    X(rk_f32_64_1024, K_RK, KK_KEYS, float, SR_F32, 64, 1024, -, -)                      \
    X(rk_f32_96_1000, K_RK, KK_KEYS, float, SR_F32, 96, 1000, -, -)                      \
    X(rk_f32_33_257, K_RK, KK_KEYS, float, SR_F32, 33, 257, -, -)                        \
    X(rk_f32_32_1000, K_RK, KK_KEYS, float, SR_F32, 32, 1000, -, -)                      \
    X(rk_f32_256_1, K_RK, KK_KEYS, float, SR_F32, 256, 1, -, -)                          \
    X(rk_u64_64_255, K_RK, KK_KEYS, uint64_t, SR_U64, 64, 255, -, -)                     \
    X(rk_i32_1024_3000, K_RK, KK_KEYS, int32_t, SR_I32, 1024, 3000, -, -)                \
    X(rk_f64_32_64, K_RK, KK_KEYS, double, SR_F64, 32, 64, -, -)                         \
    /* 32-bit keys in blocks of 16 and 256: digit-interleaved keys */        \
    X(rk_f32_256_4096, K_RK, KK_KEYS, float, SR_F32, 256, 4096, -, -)                    \
    X(rk_i32_256_3000, K_RK, KK_KEYS, int32_t, SR_I32, 256, 3000, -, -)                  \
    X(rk_u32_16_256, K_RK, KK_KEYS, uint32_t, SR_U32, 16, 256, -, -)                     \
    X(rk_f32_16_300, K_RK, KK_KEYS, float, SR_F32, 16, 300, -, -)                        \
    X(sk_f32_256_5000, K_SK, KK_KEYS, float, SR_F32, 256, 5000, -, -)                    \
    X(sk_i32_16_250, K_SK, KK_KEYS, int32_t, SR_I32, 16, 250, -, -)                      \
    X(rr_u32_16_200, K_PAIRS, KK_PAIRS, uint32_t, SR_U32, 16, 200, tile_reg, tile_reg) \
    X(rs_f32_256_2000, K_PAIRS, KK_PAIRS, float, SR_F32, 256, 2000, tile_reg, tile_shared) \
    /* shared keys, keys only */                                              \
    X(sk_f32_64_1000, K_SK, KK_KEYS, float, SR_F32, 64, 1000, -, -)                      \
    X(sk_f64_96_2, K_SK, KK_KEYS, double, SR_F64, 96, 2, -, -)                           \
    X(sk_u32_32_4096, K_SK, KK_KEYS, uint32_t, SR_U32, 32, 4096, -, -)                   \
    X(sk_i64_256_33, K_SK, KK_KEYS, int64_t, SR_I64, 256, 33, -, -)                      \
    /* pairs, every storage mix */                                            \
    X(rr_f32_256_4096, K_PAIRS, KK_PAIRS, float, SR_F32, 256, 4096, tile_reg, tile_reg) \
    X(rr_f32_96_257, K_PAIRS, KK_PAIRS, float, SR_F32, 96, 257, tile_reg, tile_reg) \
    X(rr_i32_32_31, K_PAIRS, KK_PAIRS, int32_t, SR_I32, 32, 31, tile_reg, tile_reg) \
    X(rr_f64_64_1000, K_PAIRS, KK_PAIRS, double, SR_F64, 64, 1000, tile_reg, tile_reg) \
    X(rr_u64_32_600, K_PAIRS, KK_PAIRS, uint64_t, SR_U64, 32, 600, tile_reg, tile_reg) \
    X(rr_i64_33_100, K_PAIRS, KK_PAIRS, int64_t, SR_I64, 33, 100, tile_reg, tile_reg) \
    X(ss_f32_64_3000, K_PAIRS, KK_PAIRS, float, SR_F32, 64, 3000, tile_shared, tile_shared) \
    X(ss_u32_256_256, K_PAIRS, KK_PAIRS, uint32_t, SR_U32, 256, 256, tile_shared, tile_shared) \
    X(sr_f32_96_1000, K_PAIRS, KK_PAIRS, float, SR_F32, 96, 1000, tile_shared, tile_reg) \
    X(rs_i32_64_1000, K_PAIRS, KK_PAIRS, int32_t, SR_I32, 64, 1000, tile_reg, tile_shared) \
    X(rs_u64_32_257, K_PAIRS, KK_PAIRS, uint64_t, SR_U64, 32, 257, tile_reg, tile_shared) \
    X(sr_i64_1024_4096, K_PAIRS, KK_PAIRS, int64_t, SR_I64, 1024, 4096, tile_shared, tile_reg) \
    /* 12-byte values (no bank padding) */                                    \
    X(v3rr_f32_64_255, K_V3, KK_V3, float, SR_F32, 64, 255, tile_reg, tile_reg)   \
    X(v3ss_u32_32_700, K_V3, KK_V3, uint32_t, SR_U32, 32, 700, tile_shared, tile_shared)

#define DEF_CASE(name, MAC, kind, T, type, B, N, KD, VD) MAC(k_##name, T, B, N, KD, VD)
CASES(DEF_CASE)
K_2D(k_2d_f32_64_24x40, float, 64, 24, 40)
K_2D(k_2d_i64_96_7x9, int64_t, 96, 7, 9)

static const sim_case sim_cases[] = {
#define CASE_ROW(name, MAC, kind, T, type, B, N, KD, VD) {#name, k_##name, type, B, N, kind},
    CASES(CASE_ROW)
    {"2d_f32_64_24x40", k_2d_f32_64_24x40, SR_F32, 64, 24 * 40, KK_PAIRS},
    {"2d_i64_96_7x9", k_2d_i64_96_7x9, SR_I64, 96, 7 * 9, KK_PAIRS},
};
enum { NCASES = (int)(sizeof(sim_cases) / sizeof(sim_cases[0])) };

/* one case on every pattern under every scheduling policy */
static void run_case(const sim_case *c) {
    const int n = c->n, w = sr_type_size[c->type];
    unsigned char *in = (unsigned char *)malloc((size_t)n * 8), *out = (unsigned char *)malloc((size_t)n * 8);
    int32_t *vin = (int32_t *)malloc((size_t)n * 4), *vout = (int32_t *)malloc((size_t)n * 4);
    tile_vec3f *v3in = (tile_vec3f *)malloc((size_t)n * sizeof(tile_vec3f));
    tile_vec3f *v3out = (tile_vec3f *)malloc((size_t)n * sizeof(tile_vec3f));
    assert_true(in && out && vin && vout && v3in && v3out);
    for (int i = 0; i < n; ++i) {
        vin[i] = i;
        v3in[i].v[0] = (float)i;
        v3in[i].v[1] = (float)-i;
        v3in[i].v[2] = (float)(2 * i);
    }
    g_in = in;
    g_out = out;
    g_vin = vin;
    g_vout = vout;
    g_v3in = v3in;
    g_v3out = v3out;
    for (int p = 0; p < SR_NPATTERNS; ++p) {
        sr_fill(c->type, in, n, p, 7u + (uint64_t)p);
        for (int pol = 0; pol < SIM_NPOL; ++pol) {
            memset(out, 0xcd, (size_t)n * (size_t)w);
            memset(vout, 0xcd, (size_t)n * 4);
            memset(v3out, 0xcd, (size_t)n * sizeof(tile_vec3f));
            if (sim_run(c->B, pol, c->fn)) {
                print_error("%s, %s input, %s order: simulator: %s\n", c->name, sr_pattern_name[p],
                            sim_pol_name[pol], sim_err);
                fail();
            }
            int32_t *idx = NULL;
            if (c->kind == KK_PAIRS) idx = vout;
            if (c->kind == KK_V3) {
                idx = vout; /* the index from component 0; the others must agree */
                for (int i = 0; i < n; ++i) {
                    idx[i] = (int32_t)v3out[i].v[0];
                    if (v3out[i].v[1] != -v3out[i].v[0] || v3out[i].v[2] != 2 * v3out[i].v[0]) idx[i] = -1;
                }
            }
            long first;
            long bad = sr_check(c->type, in, n, out, idx, &first);
            if (bad) {
                print_error("%s (%s keys, block %d, n %d), %s input, %s order: %ld of %d elements wrong, first at %ld "
                            "(got key 0x%llx%s)\n",
                            c->name, sr_type_name[c->type], c->B, n, sr_pattern_name[p], sim_pol_name[pol], bad, n,
                            first, (unsigned long long)sr_bits(c->type, out, first),
                            idx ? ", or a wrong index" : "");
                fail();
            }
        }
    }
    free(in);
    free(out);
    free(vin);
    free(vout);
    free(v3in);
    free(v3out);
}

static void test_case(void **state) { run_case((const sim_case *)*state); }

/* the simulator itself catches a missing barrier: a kernel that reads what
 * another thread wrote without one must fail under one of the orders */
static int g_race_bad;
SIM_KERNEL(k_race, 64, {
    int *x = (int *)sim_buf(64 * sizeof(int));
    x[tile_thread()] = tile_thread();
    /* no barrier */
    if (x[(tile_thread() + 1) % 64] != (tile_thread() + 1) % 64) g_race_bad = 1;
    tile_barrier();
})
SIM_KERNEL(k_diverge, 64, {
    if (tile_thread() < 32) tile_barrier();
})
static void test_simulator(void **state) {
    (void)state;
    int caught = 0;
    for (int pol = 0; pol < SIM_NPOL; ++pol) {
        g_race_bad = 0;
        assert_int_equal(sim_run(64, pol, k_race), 0);
        caught |= g_race_bad;
    }
    assert_true(caught);
    assert_int_not_equal(sim_run(64, POL_ASC, k_diverge), 0);
}

/* ======================================================================
 * descending / bit-range / f16 radix sorts, per-row sorts, merge sorts and
 * histograms (tile/histogram.h) under the simulator
 * ====================================================================== */
#include <tile/histogram.h>
/* references for the descending / bit-range / f16 / per-row / merge sorts:
 * vx_* in ../sort_ref.h */

typedef struct {
    int32_t key;
    uint32_t tag;
} ms_rec;
TILE_API int ms_less(ms_rec a, ms_rec b) { return a.key < b.key; }
#define MS_GREATER(a, b) ((a).key > (b).key)
#define FLT_LESS(a, b) ((a) < (b))

#define X_K(name, T, B, N, KDECL, OP)                                              \
    SIM_KERNEL(name, B, KDECL(T, k, N); tile_load(k, tile_array1((const T *)g_in, N), 0); OP(k); \
               tile_store(tile_array1((T *)g_out, N), k, 0);)
#define X_P(name, T, B, N, KDECL, VDECL, OP)                                       \
    SIM_KERNEL(name, B, KDECL(T, k, N); VDECL(int32_t, v, N); tile_load(k, tile_array1((const T *)g_in, N), 0); \
               tile_load(v, tile_array1(g_vin, N), 0); OP(k, v);                   \
               tile_store(tile_array1((T *)g_out, N), k, 0); tile_store(tile_array1(g_vout, N), v, 0);)
#define OPD(k) tile_sort_descending(k)
#define OPDP(k, v) tile_sort_pairs_descending(k, v)
#define OPB(k) tile_sort_bits(k, 3, 13)
#define OPBP(k, v) tile_sort_pairs_bits(k, v, 3, 13)
#define OPDB(k) tile_sort_descending_bits(k, 0, 8)
#define OPBA(k) tile_sort_bits(k, 16, 32)
#define OPBAP(k, v) tile_sort_pairs_bits(k, v, 4, 12)
#define OPDBP(k, v) tile_sort_pairs_descending_bits(k, v, 0, 8)
#define OPAP(k, v) tile_sort_pairs(k, v)
#define OPMS(k) tile_merge_sort(k, ms_less)
#define OPMSG(k) tile_merge_sort(k, MS_GREATER)
#define OPMSP(k, v) tile_merge_sort_pairs(k, v, ms_less)
#define OPMF(k) tile_merge_sort(k, FLT_LESS)
#define OPRD(k) tile_sort_rows_descending(k)
#define OPRP(k, v) tile_sort_pairs_rows(k, v)

X_K(kx_d_f32_256_4096, float, 256, 4096, tile_reg, OPD)
X_P(kx_dp_f32_256_4096, float, 256, 4096, tile_reg, tile_reg, OPDP)
X_K(kx_b_f32_256_4096, float, 256, 4096, tile_reg, OPB)
X_P(kx_bp_f32_64_1000, float, 64, 1000, tile_shared, tile_reg, OPBP)
X_K(kx_d_u32_16_250, uint32_t, 16, 250, tile_reg, OPD)
X_K(kx_ba_f32_256_4096, float, 256, 4096, tile_reg, OPBA)
X_P(kx_bap_u32_16_300, uint32_t, 16, 300, tile_reg, tile_reg, OPBAP)
X_P(kx_dbp_i64_96_1000, int64_t, 96, 1000, tile_shared, tile_reg, OPDBP)
X_K(kx_db_i32_32_700, int32_t, 32, 700, tile_reg, OPDB)
X_P(kx_hp_f16_64_300, tile_f16, 64, 300, tile_reg, tile_reg, OPAP)
X_P(kx_hdp_bf16_33_100, tile_bf16, 33, 100, tile_shared, tile_shared, OPDP)
/* merge sorts */
X_K(kx_ms_64_1000, ms_rec, 64, 1000, tile_reg, OPMS)
X_K(kx_msg_33_100, ms_rec, 33, 100, tile_shared, OPMSG)
X_P(kx_msp_96_257, ms_rec, 96, 257, tile_shared, tile_reg, OPMSP)
X_P(kx_msp_32_32, ms_rec, 32, 32, tile_reg, tile_shared, OPMSP)
X_K(kx_mf_256_4096, float, 256, 4096, tile_reg, OPMF)
/* per-row sorts: 5 x 37 pairs (register), 16 x 16 keys (shared, descending) */
SIM_KERNEL(kx_rows_p, 64, tile_reg(float, k, 5, 37); tile_reg(int32_t, v, 5, 37);
           tile_load(k, tile_array2((const float *)g_in, 5, 37), 0, 0); tile_load(v, tile_array2(g_vin, 5, 37), 0, 0);
           OPRP(k, v); tile_store(tile_array2((float *)g_out, 5, 37), k, 0, 0);
           tile_store(tile_array2(g_vout, 5, 37), v, 0, 0);)
SIM_KERNEL(kx_rows_k, 96, tile_shared(int32_t, k, 16, 16);
           tile_load(k, tile_array2((const int32_t *)g_in, 16, 16), 0, 0); OPRD(k);
           tile_store(tile_array2((int32_t *)g_out, 16, 16), k, 0, 0);)
/* histograms: out = counts, vout = counts after a composite with the other
 * algorithm (twice the counts) */
SIM_KERNEL(kx_h_u8_64_1000, 64, tile_reg(uint8_t, x, 1000); tile_load(x, tile_array1((const uint8_t *)g_in, 1000), 0);
           tile_reg(int32_t, c, 256); tile_histogram(c, x, 256); tile_store(tile_array1((int32_t *)g_out, 256), c, 0);
           tile_histogram_composite_alg(c, x, 256, TILE_HISTO_SORT); tile_store(tile_array1(g_vout, 256), c, 0);)
SIM_KERNEL(kx_h_i32_256_4096, 256, tile_reg(int32_t, x, 4096);
           tile_load(x, tile_array1((const int32_t *)g_in, 4096), 0); tile_shared(int32_t, c, 37);
           tile_histogram_alg(c, x, 37, TILE_HISTO_SORT); tile_store(tile_array1((int32_t *)g_out, 37), c, 0);
           tile_histogram_composite(c, x, 37); tile_store(tile_array1(g_vout, 37), c, 0);)
SIM_KERNEL(kx_h_i32_33_300, 33, tile_shared(int32_t, x, 300);
           tile_load(x, tile_array1((const int32_t *)g_in, 300), 0); tile_reg(int32_t, c, 20);
           tile_histogram_alg(c, x, 20, TILE_HISTO_SORT); tile_store(tile_array1((int32_t *)g_out, 20), c, 0);
           tile_histogram_composite_alg(c, x, 20, TILE_HISTO_ATOMIC); tile_store(tile_array1(g_vout, 20), c, 0);)

enum { XK_KEYS, XK_PAIRS, XK_MS, XK_MSP, XK_MF, XK_ROWSP, XK_ROWSK, XK_HU8, XK_HI32 };
typedef struct {
    const char *name;
    void (*fn)(void);
    int B, n, type, desc, b0, b1, kind, nb;
} sim_xcase;
static const sim_xcase sim_xcases[] = {
    {"x_desc_f32_256_4096", kx_d_f32_256_4096, 256, 4096, SR_F32, 1, 0, 0, XK_KEYS, 0},
    {"x_descp_f32_256_4096", kx_dp_f32_256_4096, 256, 4096, SR_F32, 1, 0, 0, XK_PAIRS, 0},
    {"x_bits_f32_256_4096", kx_b_f32_256_4096, 256, 4096, SR_F32, 0, 3, 13, XK_KEYS, 0},
    {"x_bitsp_f32_64_1000", kx_bp_f32_64_1000, 64, 1000, SR_F32, 0, 3, 13, XK_PAIRS, 0},
    {"x_desc_u32_16_250", kx_d_u32_16_250, 16, 250, SR_U32, 1, 0, 0, XK_KEYS, 0},
    /* digit-aligned ranges: permuted counters kept (blocks of 256 and 16) */
    {"x_bits16_32_f32_256_4096", kx_ba_f32_256_4096, 256, 4096, SR_F32, 0, 16, 32, XK_KEYS, 0},
    {"x_bits4_12p_u32_16_300", kx_bap_u32_16_300, 16, 300, SR_U32, 0, 4, 12, XK_PAIRS, 0},
    {"x_descbitsp_i64_96_1000", kx_dbp_i64_96_1000, 96, 1000, SR_I64, 1, 0, 8, XK_PAIRS, 0},
    {"x_descbits_i32_32_700", kx_db_i32_32_700, 32, 700, SR_I32, 1, 0, 8, XK_KEYS, 0},
    {"x_f16p_64_300", kx_hp_f16_64_300, 64, 300, VX_F16, 0, 0, 0, XK_PAIRS, 0},
    {"x_bf16descp_33_100", kx_hdp_bf16_33_100, 33, 100, VX_BF16, 1, 0, 0, XK_PAIRS, 0},
    {"x_merge_64_1000", kx_ms_64_1000, 64, 1000, 0, 0, 0, 0, XK_MS, 0},
    {"x_merge_desc_33_100", kx_msg_33_100, 33, 100, 0, 1, 0, 0, XK_MS, 0},
    {"x_mergep_96_257", kx_msp_96_257, 96, 257, 0, 0, 0, 0, XK_MSP, 0},
    {"x_mergep_32_32", kx_msp_32_32, 32, 32, 0, 0, 0, 0, XK_MSP, 0},
    {"x_merge_f32_256_4096", kx_mf_256_4096, 256, 4096, 0, 0, 0, 0, XK_MF, 0},
    {"x_rows_pairs_64_5x37", kx_rows_p, 64, 5 * 37, SR_F32, 0, 0, 37, XK_ROWSP, 0},
    {"x_rows_desc_96_16x16", kx_rows_k, 96, 256, SR_I32, 1, 0, 16, XK_ROWSK, 0},
    {"x_hist_u8_64_1000", kx_h_u8_64_1000, 64, 1000, 0, 0, 0, 0, XK_HU8, 256},
    {"x_hist_i32_256_4096", kx_h_i32_256_4096, 256, 4096, 0, 0, 0, 0, XK_HI32, 37},
    {"x_hist_i32_33_300", kx_h_i32_33_300, 33, 300, 0, 0, 0, 0, XK_HI32, 20},
};
enum { NXCASES = (int)(sizeof(sim_xcases) / sizeof(sim_xcases[0])) };

static int ms_ref_cmp(const void *a, const void *b) {
    const ms_rec *x = (const ms_rec *)a, *y = (const ms_rec *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->tag > y->tag) - (x->tag < y->tag);
}
static int flt_cmp(const void *a, const void *b) {
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* fill the input of a case, pattern p */
static void x_fill(const sim_xcase *c, int p, void *in) {
    uint64_t s = 99u + (uint64_t)p * 7u + (uint64_t)c->n;
    switch (c->kind) {
    case XK_MS:
    case XK_MSP: {
        ms_rec *r = (ms_rec *)in;
        for (int i = 0; i < c->n; ++i) {
            const uint64_t x = sr_rand(&s);
            r[i].key = p == 0 ? (int32_t)(x % 5u) : p == 1 ? (int32_t)(x >> 40) : p == 2 ? c->n - i : 1;
            r[i].tag = (uint32_t)i;
        }
        break;
    }
    case XK_MF: {
        float *f = (float *)in;
        for (int i = 0; i < c->n; ++i) f[i] = (float)(int)(sr_rand(&s) % (p == 0 ? 50u : 100000u)) - 25.0f;
        break;
    }
    case XK_HU8: {
        uint8_t *u = (uint8_t *)in;
        for (int i = 0; i < c->n; ++i) u[i] = (uint8_t)(p == 1 ? 7 : sr_rand(&s) % (p == 2 ? 3u : 256u));
        break;
    }
    case XK_HI32: {
        int32_t *x = (int32_t *)in;
        for (int i = 0; i < c->n; ++i)
            x[i] = p == 1 ? c->nb - 1 : (int32_t)(sr_rand(&s) % (uint64_t)(3 * c->nb)) - c->nb;
        break;
    }
    default: vx_fill(c->type, in, c->n, p, 17u); break;
    }
}
/* mismatches of one run */
static long x_check(const sim_xcase *c, const void *in, const void *out, const int32_t *vout) {
    const int n = c->n;
    long bad = 0, first;
    switch (c->kind) {
    case XK_KEYS: return vx_check(c->type, in, n, out, NULL, c->desc, c->b0, c->b1, &first);
    case XK_PAIRS: return vx_check(c->type, in, n, out, vout, c->desc, c->b0, c->b1, &first);
    case XK_ROWSP:
    case XK_ROWSK: {
        const int C = c->b1, w = vx_size(c->type);
        int32_t gi[64];
        for (int r = 0; r < n / C; ++r) {
            for (int j = 0; j < C; ++j) gi[j] = c->kind == XK_ROWSP ? vout[r * C + j] - r * C : 0;
            bad += vx_check(c->type, (const char *)in + (size_t)(r * C * w), C, (const char *)out + (size_t)(r * C * w),
                            c->kind == XK_ROWSP ? gi : NULL, c->desc, 0, 0, &first);
        }
        return bad;
    }
    case XK_MS:
    case XK_MSP: {
        ms_rec *r = (ms_rec *)malloc(sizeof(ms_rec) * (size_t)n);
        const ms_rec *o = (const ms_rec *)out;
        memcpy(r, in, sizeof(ms_rec) * (size_t)n);
        for (int i = 0; i < n; ++i) r[i].key = c->desc ? -r[i].key : r[i].key;
        qsort(r, (size_t)n, sizeof(ms_rec), ms_ref_cmp);
        for (int i = 0; i < n; ++i) {
            const int32_t key = c->desc ? -r[i].key : r[i].key;
            bad += o[i].key != key || o[i].tag != r[i].tag || (c->kind == XK_MSP && vout[i] != (int32_t)r[i].tag);
        }
        free(r);
        return bad;
    }
    case XK_MF: {
        float *r = (float *)malloc(sizeof(float) * (size_t)n);
        memcpy(r, in, sizeof(float) * (size_t)n);
        qsort(r, (size_t)n, sizeof(float), flt_cmp);
        bad = memcmp(r, out, sizeof(float) * (size_t)n) != 0;
        free(r);
        return bad;
    }
    default: { /* histograms: counting loop */
        int64_t ref[256] = {0};
        for (int i = 0; i < n; ++i) {
            const int64_t x = c->kind == XK_HU8 ? ((const uint8_t *)in)[i] : ((const int32_t *)in)[i];
            if (x >= 0 && x < c->nb) ++ref[x];
        }
        for (int b = 0; b < c->nb; ++b) bad += ((const int32_t *)out)[b] != ref[b] || vout[b] != 2 * ref[b];
        return bad;
    }
    }
}
static void run_xcase(const sim_xcase *c) {
    const size_t bytes = (size_t)c->n * 16;
    unsigned char *in = (unsigned char *)malloc(bytes), *out = (unsigned char *)malloc(bytes);
    int32_t *vin = (int32_t *)malloc((size_t)c->n * 4), *vout = (int32_t *)malloc((size_t)c->n * 4 + 1024);
    assert_true(in && out && vin && vout);
    for (int i = 0; i < c->n; ++i) vin[i] = i;
    g_in = in;
    g_out = out;
    g_vin = vin;
    g_vout = vout;
    const int npat = c->kind >= XK_MS && c->kind != XK_ROWSP && c->kind != XK_ROWSK ? 4 : SR_NPATTERNS;
    for (int p = 0; p < npat; ++p) {
        x_fill(c, p, in);
        for (int pol = 0; pol < SIM_NPOL; ++pol) {
            memset(out, 0xcd, bytes);
            memset(vout, 0xcd, (size_t)c->n * 4 + 1024);
            if (sim_run(c->B, pol, c->fn)) {
                print_error("%s, pattern %d, %s order: simulator: %s\n", c->name, p, sim_pol_name[pol], sim_err);
                fail();
            }
            const long bad = x_check(c, in, out, vout);
            if (bad) {
                print_error("%s (block %d, n %d), pattern %d, %s order: %ld wrong\n", c->name, c->B, c->n, p,
                            sim_pol_name[pol], bad);
                fail();
            }
        }
    }
    free(in);
    free(out);
    free(vin);
    free(vout);
}
static void test_xcase(void **state) { run_xcase((const sim_xcase *)*state); }

int main(void) {
    struct CMUnitTest tests[NCASES + NXCASES + 1];
    tests[0] = (struct CMUnitTest)cmocka_unit_test(test_simulator);
    for (int i = 0; i < NCASES; ++i) {
        tests[i + 1] = (struct CMUnitTest)cmocka_unit_test_prestate(test_case, (void *)&sim_cases[i]);
        tests[i + 1].name = sim_cases[i].name;
    }
    for (int i = 0; i < NXCASES; ++i) {
        tests[NCASES + i + 1] = (struct CMUnitTest)cmocka_unit_test_prestate(test_xcase, (void *)&sim_xcases[i]);
        tests[NCASES + i + 1].name = sim_xcases[i].name;
    }
    return _cmocka_run_group_tests("sort_sim", tests, NCASES + NXCASES + 1, NULL, NULL);
}
