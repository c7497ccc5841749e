/* The GPU block algorithm of the scans (include/tile/scan.h), run on the CPU.
 *
 * On the CPU target a block has one thread, which takes the sequential path;
 * the block path (staging, chunks, shuffles, cross-warp scratch, barriers)
 * runs only on a GPU. This test runs it here: every kernel of
 * tests/scan_common.h is compiled with its real block size, and a block is
 * emulated by B cooperative threads (ucontext), one stack each:
 *   tile_thread()        the running emulated thread
 *   tile_barrier()       switch to the next thread; a round ends when every
 *                        thread waits at a barrier; a thread that finishes
 *                        while others wait is a divergent barrier (error),
 *                        and every thread must pass the same number of them
 *   TILE__SCAN_SHFL_UP   __shfl_up_sync: each thread posts its value, barrier,
 *                        reads lane - d (its own below d), barrier; the mask
 *                        must be exactly the warp's active lanes
 *   TILE__SCAN_SHFL_IDX  __shfl_sync from one lane, likewise
 *   TILE_STATIC_SMEM     one static buffer (at most 46 KiB: the 48 KiB static
 *                        limit less the reduction scratch)
 * Shared memory (arena, static buffer, scratch) starts each block filled with
 * garbage, as on a GPU. Between barriers the threads run one after another,
 * in index order and, in a second run, in reverse order, so a missing
 * barrier between a write and a read by another thread changes the result in
 * one of the two. Each output is compared with the host references (float
 * tolerances for the block's summation order).
 *
 *   SCAN_EMU_ALL=1   all data sets, both orders, every kernel with 3 tiles
 *                    (default: a reduced sweep that keeps the test short)
 */
#define _XOPEN_SOURCE 700
/* gcc's flow analysis cannot see that a thread reads only the chunk and tile
 * elements it wrote (the guards depend on the thread index): device-only
 * code paths compiled for the host with a real block size draw
 * maybe-uninitialized warnings that do not apply (set before the headers:
 * the warnings point into them). */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <ucontext.h>
#include "test_util.h"
#include <tile/select.h> /* until tile.h includes it */


/* ---- the emulated block ---- */
enum { EMU_MAXB = 1024, EMU_STACK = 256 * 1024, EMU_STATIC = 46 * 1024 };
enum { EMU_RUN, EMU_WAIT, EMU_DONE };
static int emu_B, emu_cur, emu_reverse;
static int emu_state[EMU_MAXB];
static long emu_nbar[EMU_MAXB];
static ucontext_t emu_sched, emu_ctx[EMU_MAXB];
static char *emu_stacks;
static long emu_errors;
static char emu_err[300];
static void (*emu_fn)(void);
static tile_kctx emu_k;
static const void *emu_in;
static void *emu_out;
static int emu_which;
static _Alignas(16) unsigned char emu_static[EMU_STATIC];
static unsigned char emu_slot[EMU_MAXB][64];

static void emu_fail(const char *what) {
    if (!emu_errors++) snprintf(emu_err, sizeof emu_err, "%s (thread %d)", what, emu_cur);
}
static void emu_barrier(void) {
    emu_state[emu_cur] = EMU_WAIT;
    ++emu_nbar[emu_cur];
    swapcontext(&emu_ctx[emu_cur], &emu_sched);
}
static unsigned char *emu_static_smem(unsigned long bytes) {
    if (bytes > EMU_STATIC) emu_fail("TILE_STATIC_SMEM above 46 KiB");
    return emu_static;
}
static void emu_shfl_up(void *dst, const void *src, size_t n, int d, unsigned mask) {
    const int t = emu_cur, w = t / 32;
    const int act = emu_B - 32 * w >= 32 ? 32 : emu_B - 32 * w;
    const unsigned want = act == 32 ? 0xffffffffu : ((1u << act) - 1u);
    unsigned char tmp[64];
    if (mask != want) emu_fail("shuffle mask is not the warp's active lanes");
    if (n > sizeof tmp || d < 0 || d > 31) emu_fail("shuffle arguments");
    memcpy(emu_slot[t], src, n);
    emu_barrier();
    memcpy(tmp, t % 32 >= d ? emu_slot[t - d] : emu_slot[t], n);
    emu_barrier();
    memcpy(dst, tmp, n);
}
static void emu_shfl_idx(void *dst, const void *src, size_t n, int lane, unsigned mask) {
    const int t = emu_cur, w = t / 32;
    const int act = emu_B - 32 * w >= 32 ? 32 : emu_B - 32 * w;
    const unsigned want = act == 32 ? 0xffffffffu : ((1u << act) - 1u);
    unsigned char tmp[64];
    if (mask != want) emu_fail("shuffle mask is not the warp's active lanes");
    if (n > sizeof tmp || lane < 0 || lane >= act) emu_fail("shuffle arguments");
    memcpy(emu_slot[t], src, n);
    emu_barrier();
    memcpy(tmp, emu_slot[32 * w + (lane < act ? lane : 0)], n);
    emu_barrier();
    memcpy(dst, tmp, n);
}
static void emu_entry(void) {
    emu_fn();
    emu_state[emu_cur] = EMU_DONE;
}

/* The kernel bodies see the emulated block. */
#undef TILE_BLOCK_DIM
#define TILE_BLOCK_DIM ((int)sizeof(*tile__bd))
#undef tile_thread
#define tile_thread() emu_cur
#undef tile_barrier
#define tile_barrier() emu_barrier()
#undef TILE__SCAN_SHFL_UP
#define TILE__SCAN_SHFL_UP(dst, src, d, mask) emu_shfl_up(&(dst), &(src), sizeof(src), (d), (mask))
#undef TILE__SCAN_SHFL_IDX
#define TILE__SCAN_SHFL_IDX(dst, src, lane, mask) emu_shfl_idx(&(dst), &(src), sizeof(src), (lane), (mask))
#undef TILE_STATIC_SMEM
#define TILE_STATIC_SMEM(bytes) emu_static_smem((unsigned long)(bytes))
/* tagged static buffers (select.h's staging), one per tag, garbage-filled */
static _Alignas(16) unsigned char emu_tagbuf[8][EMU_STATIC];
static unsigned char *emu_tag_smem(int tag, unsigned long bytes) {
    if (bytes > EMU_STATIC) emu_fail("TILE__SMEM_TAG above 46 KiB");
    return bytes ? emu_tagbuf[tag & 7] : NULL;
}
#undef TILE__SMEM_TAG
#define TILE__SMEM_TAG(tag, bytes) emu_tag_smem((tag), (unsigned long)(bytes))

/* run emu_fn as one block of B threads */
static void emu_run_block(int B) {
    emu_B = B;
    for (int t = 0; t < B; ++t) {
        getcontext(&emu_ctx[t]);
        emu_ctx[t].uc_stack.ss_sp = emu_stacks + (size_t)t * EMU_STACK;
        emu_ctx[t].uc_stack.ss_size = EMU_STACK;
        emu_ctx[t].uc_link = &emu_sched;
        makecontext(&emu_ctx[t], emu_entry, 0);
        emu_state[t] = EMU_RUN;
        emu_nbar[t] = 0;
    }
    for (;;) {
        for (int i = 0; i < B; ++i) {
            const int t = emu_reverse ? B - 1 - i : i;
            if (emu_state[t] != EMU_RUN) continue;
            emu_cur = t;
            swapcontext(&emu_sched, &emu_ctx[t]);
        }
        int wait = 0, done = 0;
        for (int t = 0; t < B; ++t) {
            wait += emu_state[t] == EMU_WAIT;
            done += emu_state[t] == EMU_DONE;
        }
        if (done == B) break;
        if (done) {
            emu_fail("divergent barrier: some threads finished while others wait");
            return; /* the waiting contexts are abandoned */
        }
        for (int t = 0; t < B; ++t) emu_state[t] = EMU_RUN;
    }
    for (int t = 1; t < B; ++t)
        if (emu_nbar[t] != emu_nbar[0]) {
            emu_fail("threads passed different numbers of barriers");
            break;
        }
}

static int emu_launch(void (*fn)(void), int B, size_t smem, const void *in, void *out, int nblocks) {
    unsigned char *arena = smem ? (unsigned char *)aligned_alloc(16, (smem + 15) & ~(size_t)15) : NULL;
    emu_fn = fn;
    emu_in = in;
    emu_out = out;
    tile__host_err = 0;
    for (int b = 0; b < nblocks && !emu_errors; ++b) {
        memset(&emu_k, 0, sizeof emu_k);
        emu_k.ndim = 2;
        emu_k.tiled = 1;
        emu_k.dim[0] = nblocks;
        emu_k.dim[1] = B;
        emu_k.stride[0] = B;
        emu_k.stride[1] = 1;
        for (int i = 0; i < 4; ++i) emu_k.bstride[i] = 1;
        emu_k.small = 1;
        emu_k.cpu_block = b;
        emu_k.smem = arena;
        emu_k.smem_cap = (uint32_t)smem;
        /* shared memory starts with garbage */
        if (arena) memset(arena, 0x5A + b, smem);
        memset(emu_static, 0xA5 - b, sizeof emu_static);
        memset(emu_tagbuf, 0x6B + b, sizeof emu_tagbuf);
        memset(tile__sel_host(), 0x3C + b, TILE_STATIC_SMEM_MAX);
        memset(tile__scratch(), 0xC3 + b, TILE_SCRATCH_BYTES);
        emu_run_block(B);
    }
    free(arena);
    if (emu_errors) return TILE_ERR_ARG;
    int e = tile__host_err;
    tile__host_err = 0;
    return e;
}

#define SC_THUNK(name, T, B)                                                       \
    static void emu_body_##name(void) {                                            \
        name##__body(emu_k, (char(*)[B])0, (const T *)emu_in, (T *)emu_out, emu_which); \
    }
#define SC_LAUNCH(name, T, B, ctx, in, out, nblocks, which) \
    (emu_which = (which), emu_launch(emu_body_##name, B, (size_t)name##__smem, in, out, nblocks))
#include "../scan_ref.h" /* scan_common.h with per-row scans, FX_KERNEL */

FX_KERNEL(fx_b96, 96)
FX_KERNEL(fx_b288, 288)
FX_KERNEL(fx_b64, 64)
SC_THUNK(fx_b96, int32_t, 96)
SC_THUNK(fx_b288, int32_t, 288)
SC_THUNK(fx_b64, int32_t, 64)

/* the block algorithm of the flattened scans, the aggregate and the running
 * prefix (emulated blocks of 96, 288 = 9 warps and 64 threads), in both
 * thread orders */
static void test_flat_agg_prefix(void **state) {
    (void)state;
    static int32_t in[FX_LEN], out[FX_OUTN];
    char msg[200];
    void (*const fns[3])(void) = {emu_body_fx_b96, emu_body_fx_b288, emu_body_fx_b64};
    const int bs[3] = {96, 288, 64};
    const size_t smem[3] = {fx_b96__smem, fx_b288__smem, fx_b64__smem};
    fx_input(in);
    long bad = 0;
    for (int k = 0; k < 3; ++k)
        for (int rev = 0; rev < 2; ++rev)
            for (int which = 0; which < FX_NCASE; ++which) {
                memset(out, 0xAB, sizeof out);
                emu_reverse = rev;
                emu_errors = 0;
                emu_which = which;
                const int e = emu_launch(fns[k], bs[k], smem[k], in, out, 1);
                if (e != TILE_OK) {
                    print_error("block %d case %d: launch -> %d %s\n", bs[k], which, e, emu_errors ? emu_err : "");
                    ++bad;
                    continue;
                }
                const long b = fx_check(which, in, out, bs[k], msg, sizeof msg);
                if (b) print_error("block %d%s: %s (%ld bad)\n", bs[k], rev ? " reversed" : "", msg, b);
                bad += b;
            }
    emu_reverse = 0;
    assert_int_equal(bad, 0);
}

#include "../select_ref.h"
static int *emu_cnt;
#define SL_THUNK(name, B)                                                          \
    static void emu_body_##name(void) {                                            \
        name##__body(emu_k, (char(*)[B])0, (const int32_t *)emu_in, (int32_t *)emu_out, emu_cnt, emu_which); \
    }
SL_THUNK(sl_1d, 96)
SL_THUNK(sl_2d, 256)
SL_THUNK(sl_small, 64)

/* select.h's block algorithms (selection, partition, flags, differences,
 * run lengths) with emulated blocks of 96, 256 and 64 threads, both thread
 * orders, three tiles a launch, against tests/cpu/test_select.c's loops */
static void test_select_ops(void **state) {
    (void)state;
    void (*const fns[3])(void) = {emu_body_sl_1d, emu_body_sl_2d, emu_body_sl_small};
    const int bs[3] = {96, 256, 64}, ns[3] = {1000, 1024, 37};
    const size_t smem[3] = {sl_1d__smem, sl_2d__smem, sl_small__smem};
    long bad = 0;
    char msg[200];
    for (int k = 0; k < 3; ++k) {
        const int n = ns[k], nt = 3;
        int32_t *in = (int32_t *)malloc(sizeof(int32_t) * (size_t)n * nt);
        int32_t *out = (int32_t *)malloc(sizeof(int32_t) * 2 * (size_t)n * nt);
        int cnt[3];
        assert_true(in && out);
        sl_input(in, n * nt);
        emu_cnt = cnt;
        for (int rev = 0; rev < 2; ++rev)
            for (int which = 0; which < SL_NCASE; ++which) {
                memset(out, 0xAB, sizeof(int32_t) * 2 * (size_t)n * nt);
                memset(cnt, 0xAB, sizeof cnt);
                emu_reverse = rev;
                emu_errors = 0;
                emu_which = which;
                const int e = emu_launch(fns[k], bs[k], smem[k], in, out, nt);
                if (e != TILE_OK) {
                    print_error("select block %d case %d: launch -> %d %s\n", bs[k], which, e, emu_errors ? emu_err : "");
                    ++bad;
                    continue;
                }
                const long b = sl_check(which, in, out, cnt, nt, n, msg, sizeof msg);
                if (b) print_error("select block %d%s: %s (%ld bad)\n", bs[k], rev ? " reversed" : "", msg, b);
                bad += b;
            }
        free(in);
        free(out);
    }
    emu_reverse = 0;
    assert_int_equal(bad, 0);
}

/* the emulator itself: a barrier-ordered exchange and the shuffle */
TILE_KERNEL(emu_probe, 96, int *out) {
    int x = tile_thread() * 10;
    int y = 0;
    TILE__SCAN_SHFL_UP(y, x, 3, tile_thread() < 96 ? 0xffffffffu : 0u);
    out[tile_thread()] = y;
    tile_barrier();
    out[96 + tile_thread()] = out[(tile_thread() + 1) % 96];
}
static int *emu_probe_out;
static void emu_body_probe(void) { emu_probe__body(emu_k, (char(*)[96])0, emu_probe_out); }

static void test_emulator(void **state) {
    (void)state;
    static int out[192];
    emu_probe_out = out;
    for (emu_reverse = 0; emu_reverse < 2; ++emu_reverse) {
        memset(out, 0, sizeof out);
        assert_int_equal(emu_launch(emu_body_probe, 96, 0, NULL, NULL, 1), TILE_OK);
        for (int t = 0; t < 96; ++t) {
            assert_int_equal(out[t], (t % 32 >= 3 ? t - 3 : t) * 10);
            assert_int_equal(out[96 + t], ((t + 1) % 96 % 32 >= 3 ? (t + 1) % 96 - 3 : (t + 1) % 96) * 10);
        }
    }
    emu_reverse = 0;
}

static void run_kernels(int dt_lo, int dt_hi) {
    const int all = getenv("SCAN_EMU_ALL") && atoi(getenv("SCAN_EMU_ALL"));
    long bad = 0, runs = 0;
    char msg[1200];
    for (int ki = 0; ki < SC_NKERNELS; ++ki) {
        const sc_kernel *kd = &sc_kernels[ki];
        if (kd->dt < dt_lo || kd->dt > dt_hi) continue;
        for (int ds = 0; ds < SC_NDATA; ++ds) {
            if (!sc_has_data(kd->dt, ds)) continue;
            /* reduced sweep: big blocks see one data set */
            if (!all && kd->block >= 1024 && ds != SC_DATA_MIXED) continue;
            for (int rev = 0; rev < 2; ++rev) {
                if (!all && rev && (ds != SC_DATA_MIXED || kd->block >= 1024)) continue;
                const int nb = all ? 3 : kd->block >= 256 ? 1 : 2;
                void *in = sc_make_input(kd, ds, nb);
                const size_t ob = (size_t)sc_dt_size[kd->dt] * kd->out_n * nb;
                void *out = malloc(ob);
                assert_non_null(out);
                memset(out, 0xAB, ob);
                emu_reverse = rev;
                emu_errors = 0;
                int e = sc_run_all(kd, NULL, in, out, nb);
                if (e != TILE_OK) {
                    print_error("%s [%s]%s: launch -> %d (%s)%s%s\n", kd->name, sc_data_name[ds], rev ? " reversed" : "",
                                e, tile_error_string(e), emu_errors ? ": " : "", emu_errors ? emu_err : "");
                    ++bad;
                } else {
                    long b = sc_verify(kd, ds, in, out, nb, kd->block, msg, sizeof msg);
                    if (b)
                        print_error("%s [%s]%s: %ld elements differ: %s\n", kd->name, sc_data_name[ds],
                                    rev ? " reversed" : "", b, msg);
                    bad += b;
                }
                ++runs;
                free(in);
                free(out);
            }
        }
    }
    emu_reverse = 0;
    assert_true(runs > 0);
    assert_int_equal(bad, 0);
}
static void test_float_kernels(void **state) {
    (void)state;
    run_kernels(SC_F32, SC_F64);
}
static void test_int_kernels(void **state) {
    (void)state;
    run_kernels(SC_I32, SC_U64);
}
static void test_affine_kernels(void **state) {
    (void)state;
    run_kernels(SC_AFF, SC_AFF);
}

static int setup(void **state) {
    (void)state;
    emu_stacks = (char *)malloc((size_t)EMU_MAXB * EMU_STACK);
    return emu_stacks ? 0 : -1;
}
static int teardown(void **state) {
    (void)state;
    free(emu_stacks);
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_emulator),
        cmocka_unit_test(test_flat_agg_prefix),
        cmocka_unit_test(test_select_ops),
        cmocka_unit_test(test_float_kernels),
        cmocka_unit_test(test_int_kernels),
        cmocka_unit_test(test_affine_kernels),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
