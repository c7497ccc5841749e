/* tests/cpu/block_sim.h - a simulated GPU thread block for CPU tests of
 * device code paths (tests/cpu/test_sort_sim.c, test_chol_rows_sim.c,
 * test_chol_wsolve_sim.c).
 *
 * B cooperative threads (ucontext coroutines) run one at a time, each until
 * it reaches a barrier (sim_barrier), a warp step (ST_WARP: the sort's scan
 * and and/or, or a full-mask shuffle, sim_shfl) or its end. Between two barriers the order in
 * which threads run is a policy (ascending, descending, random), so a thread
 * that reads what another writes without a barrier in between sees
 * different data under different orders. Barriers check that every thread
 * arrives at the same line; a thread left waiting with no runnable thread
 * is a deadlock, one that ends while others wait a divergent barrier.
 * sim_buf() is a staging buffer poisoned (0xa5) before each run.
 *
 * Include after test_util.h; redirect tile_thread() to sim_tid and
 * tile_barrier() to sim_barrier(__LINE__) where the code under test
 * expands (a test that names them earlier declares `static int sim_tid;`
 * itself: a second tentative definition is allowed). */
#ifndef TILE_TESTS_BLOCK_SIM_H
#define TILE_TESTS_BLOCK_SIM_H
#include <ucontext.h>

/* a test uses what it needs of this */
#define SIM_UNUSED __attribute__((unused))

enum { SIM_MAXB = 1024, SIM_STACK = 128 * 1024, SIM_BUF = 1 << 20, SIM_ARENA = 1 << 20 };
enum { ST_RUN, ST_BAR, ST_WARP, ST_DONE };
enum { POL_ASC, POL_DESC, POL_RANDOM, SIM_NPOL };
SIM_UNUSED static const char *const sim_pol_name[SIM_NPOL] = {"ascending", "descending", "random"};

SIM_UNUSED static int sim_tid, sim_B, sim_policy, sim_nerr;
SIM_UNUSED static char sim_err[256];
SIM_UNUSED static ucontext_t sim_main, sim_ctx[SIM_MAXB];
SIM_UNUSED static unsigned char *sim_stacks;
SIM_UNUSED static int sim_state[SIM_MAXB];
SIM_UNUSED static int sim_bar_count, sim_bar_line;
SIM_UNUSED static int sim_wcount[SIM_MAXB / 32], sim_wkind[SIM_MAXB / 32];
SIM_UNUSED static uint64_t sim_rng;
SIM_UNUSED static void (*sim_fn)(void);
SIM_UNUSED static union { max_align_t a; unsigned char b[SIM_BUF]; } sim_mem;
SIM_UNUSED static union { max_align_t a; unsigned char b[SIM_ARENA]; } sim_arena;

SIM_UNUSED static uint64_t sim_rand(void) { /* splitmix64 */
    uint64_t z = (sim_rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
SIM_UNUSED static void sim_fail(const char *msg, int line) {
    if (!sim_nerr++) snprintf(sim_err, sizeof sim_err, "%s (thread %d, line %d)", msg, sim_tid, line);
}
SIM_UNUSED static void sim_yield(void) { swapcontext(&sim_ctx[sim_tid], &sim_main); }

SIM_UNUSED static unsigned char *sim_buf(size_t bytes) {
    if (bytes > SIM_BUF) sim_fail("staging buffer larger than the simulator's", 0);
    return sim_mem.b;
}
SIM_UNUSED static void sim_barrier(int line) {
    if (sim_bar_count == 0) sim_bar_line = line;
    else if (line != sim_bar_line) sim_fail("threads wait at different barriers", line);
    sim_state[sim_tid] = ST_BAR;
    if (++sim_bar_count == sim_B) {
        for (int t = 0; t < sim_B; ++t) sim_state[t] = ST_RUN;
        sim_bar_count = 0;
    }
    sim_yield();
}
SIM_UNUSED static void sim_entry(void) {
    sim_fn();
    sim_state[sim_tid] = ST_DONE;
    /* uc_link returns to sim_main */
}
/* run fn as a block of B threads under a scheduling policy; 0 on success */
SIM_UNUSED static int sim_run(int B, int policy, void (*fn)(void)) {
    if (!sim_stacks) sim_stacks = (unsigned char *)malloc((size_t)SIM_MAXB * SIM_STACK);
    assert_non_null(sim_stacks);
    sim_B = B;
    sim_policy = policy;
    sim_fn = fn;
    sim_nerr = 0;
    sim_bar_count = 0;
    sim_rng = 12345u + (uint64_t)B;
    memset(sim_wcount, 0, sizeof sim_wcount);
    memset(sim_mem.b, 0xa5, sizeof sim_mem.b); /* poison */
    for (int t = 0; t < B; ++t) {
        sim_state[t] = ST_RUN;
        getcontext(&sim_ctx[t]);
        sim_ctx[t].uc_stack.ss_sp = sim_stacks + (size_t)t * SIM_STACK;
        sim_ctx[t].uc_stack.ss_size = SIM_STACK;
        sim_ctx[t].uc_link = &sim_main;
        makecontext(&sim_ctx[t], sim_entry, 0);
    }
    for (;;) {
        int pick = -1, nrun = 0, ndone = 0;
        for (int t = 0; t < B; ++t) {
            if (sim_state[t] == ST_DONE) ++ndone;
            if (sim_state[t] != ST_RUN) continue;
            ++nrun;
            if (policy == POL_ASC && pick < 0) pick = t;
            if (policy == POL_DESC) pick = t;
        }
        if (ndone == B) break;
        if (nrun == 0) {
            sim_tid = -1;
            sim_fail(ndone ? "a thread finished while others wait (divergent barrier)" : "deadlock", 0);
            return 1;
        }
        if (policy == POL_RANDOM) {
            int k = (int)(sim_rand() % (uint64_t)nrun);
            for (int t = 0; t < B; ++t)
                if (sim_state[t] == ST_RUN && k-- == 0) {
                    pick = t;
                    break;
                }
        }
        sim_tid = pick;
        swapcontext(&sim_main, &sim_ctx[pick]);
    }
    return sim_nerr;
}

/* warp steps (the sort's hooks TILE__SORT_WARP_SCAN / _ANDOR): kind 1 an
 * inclusive scan, 2 an AND/OR whose result goes to lane 0 only (the device
 * code's guarantee); each checks its lane mask and that all lanes of the
 * warp take part */
SIM_UNUSED static uint32_t sim_win[SIM_MAXB][2], sim_wout[SIM_MAXB][2];
/* lanes of the calling thread's warp */
SIM_UNUSED static int sim_act(int w) { return sim_B - 32 * w >= 32 ? 32 : sim_B - 32 * w; }
/* kind 1: inclusive scan, 2: and/or */
SIM_UNUSED static void sim_warp(int kind, uint32_t x, uint32_t y, unsigned mask, int lane) {
    const int w = sim_tid / 32, act = sim_act(w);
    const unsigned want = act == 32 ? 0xffffffffu : (1u << act) - 1u;
    if (mask != want) sim_fail("warp step with a wrong lane mask", 0);
    if (lane != sim_tid % 32) sim_fail("warp step with a wrong lane", 0);
    if (sim_wcount[w] == 0) sim_wkind[w] = kind;
    else if (sim_wkind[w] != kind) sim_fail("lanes of a warp in different warp steps", 0);
    sim_win[sim_tid][0] = x;
    sim_win[sim_tid][1] = y;
    sim_state[sim_tid] = ST_WARP;
    if (++sim_wcount[w] == act) {
        uint32_t s = 0, a = ~0u, o = 0;
        for (int l = 0; l < act; ++l) {
            const int t = 32 * w + l;
            s += sim_win[t][0];
            a &= sim_win[t][0];
            o |= sim_win[t][1];
            sim_wout[t][0] = kind == 1 ? s : 0xdeadbeefu; /* and/or: lane 0 only */
            sim_wout[t][1] = 0x5eed5eedu;
            sim_state[t] = ST_RUN;
        }
        if (kind == 2) {
            sim_wout[32 * w][0] = a;
            sim_wout[32 * w][1] = o;
        }
        sim_wcount[w] = 0;
    }
    sim_yield();
}
SIM_UNUSED static uint32_t sim_warp_scan(uint32_t x, unsigned mask, int lane) {
    sim_warp(1, x, 0, mask, lane);
    return sim_wout[sim_tid][0];
}
SIM_UNUSED static void sim_warp_andor(uint32_t *a, uint32_t *o, unsigned mask, int lane, int act) {
    if (act != sim_act(sim_tid / 32)) sim_fail("warp and/or with a wrong lane count", 0);
    sim_warp(2, *a, *o, mask, lane);
    *a = sim_wout[sim_tid][0];
    *o = sim_wout[sim_tid][1];
}
/* kind 3: a shuffle with the full mask (__shfl_sync / __shfl_xor_sync of
 * the device): every lane of the warp deposits x and the lane it reads, at
 * the same source line (a lane at another shuffle is divergence); when all
 * have, each gets its source lane's x */
SIM_UNUSED static uint64_t sim_sx[SIM_MAXB], sim_sy[SIM_MAXB];
SIM_UNUSED static int sim_ssrc[SIM_MAXB], sim_wline[SIM_MAXB / 32];
SIM_UNUSED static uint64_t sim_shfl64(uint64_t x, int src, int line) {
    const int w = sim_tid / 32, act = sim_act(w);
    if (act != 32) sim_fail("full-mask shuffle in a partial warp", line);
    if (src < 0 || src > 31) sim_fail("shuffle from a lane outside the warp", line);
    if (sim_wcount[w] == 0) {
        sim_wkind[w] = 3;
        sim_wline[w] = line;
    } else if (sim_wkind[w] != 3 || sim_wline[w] != line) {
        sim_fail("lanes of a warp at different shuffles", line);
    }
    sim_sx[sim_tid] = x;
    sim_ssrc[sim_tid] = src & 31;
    sim_state[sim_tid] = ST_WARP;
    if (++sim_wcount[w] == act) {
        for (int l = 0; l < act; ++l) {
            const int t = 32 * w + l;
            sim_sy[t] = sim_sx[32 * w + sim_ssrc[t]];
            sim_state[t] = ST_RUN;
        }
        sim_wcount[w] = 0;
    }
    sim_yield();
    return sim_sy[sim_tid];
}
SIM_UNUSED static float sim_shfl_f32(float x, int src, int line) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u = (uint32_t)sim_shfl64(u, src, line);
    memcpy(&x, &u, sizeof u);
    return x;
}
SIM_UNUSED static double sim_shfl_f64(double x, int src, int line) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    u = sim_shfl64(u, src, line);
    memcpy(&x, &u, sizeof u);
    return x;
}
#define sim_shfl(x, src, line) _Generic((x), float: sim_shfl_f32, double: sim_shfl_f64)((x), (src), (line))
#endif /* TILE_TESTS_BLOCK_SIM_H */
