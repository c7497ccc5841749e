/* tile/fft.h - block-wide FFTs of complex tiles.
 *
 * tile_fft(t) transforms every row of t in place: t is a register or shared
 * tile of tile_c32 or tile_c64 (tile/complex.h), 1D (one transform of length
 * n) or 2D (rows x n: one transform per row). n is a power of two, 2..4096;
 * any other length, element type or rank is a compile-time error naming
 * tile_fft. Conventions are cuFFT's: forward X[k] = sum_j x[j] exp(-2 pi i jk/n),
 * inverse with exp(+2 pi i jk/n), neither normalized (ifft(fft(x)) = n x).
 * Cooperative: every thread of the block calls it, never in a divergent
 * branch. Any block size works (1 on the CPU, 32..1024, 96, 48, ...).
 *
 * Suppose t (tile_c32, shape 4) holds [1 2 3 4] (imaginary parts 0):
 *   tile_fft(t)              t = [10, -2+2i, -2, -2-2i]
 *   tile_ifft(t)             t = [4 8 12 16]           (n times the input)
 *   tile_ifft_normalized(t)  t = [1 2 3 4]             (inverse, times 1/n)
 *   tile_fft_scale(t, 0.5)   t = [0.5 1 1.5 2]         (every element times a real)
 *
 * Memory: a register tile is staged through the kernel's arena, which must
 * have TILE_FFT_SMEM_BYTES(T, dims...) free (budget it in TILE_KERNEL_SMEM;
 * a smaller arena is reported as TILE_ERR_SMEM_OVERFLOW, like any overrun);
 * it is released before tile_fft returns. A shared tile (or a view of one
 * with its own row stride) is transformed in its own memory: no arena.
 *
 *   TILE_KERNEL_SMEM(k, 256, TILE_FFT_SMEM_BYTES(tile_c32, 4, 1024), const tile_c32 *in, tile_c32 *out) {
 *       tile_reg(tile_c32, t, 4, 1024);
 *       tile_load(t, tile_array2(in, rows, 1024), tile_block(0) * 4, 0);
 *       tile_fft(t);
 *       tile_store(tile_array2(out, rows, 1024), t, tile_block(0) * 4, 0);
 *   }
 *
 * How it runs on the GPU (docs/fft.md has the details). Rows go to groups of
 * P = n / E threads, each thread holding E elements of its row in registers
 * (E = 16 for c32, 8 for c64; E = n for short rows). Every pass is a Stockham radix-E
 * step (radix n / E^k for the last one): E loads from shared memory, one
 * sincospi twiddle whose powers are taken by squaring, an in-register DFT of
 * radix E (radix-2 stages with constant twiddles), E stores. The first pass
 * reads the rows in natural order, the last writes them in natural order;
 * the passes between use an XOR-swizzled order inside the row so that strided
 * stores do not pile onto one shared-memory bank. A row that fits in one warp
 * (P <= 32) synchronizes with __syncwarp only; larger rows with block
 * barriers (two per pass). Rows that need more than E per thread (n / E
 * threads do not fit in the block, e.g. n = 4096 in 128 threads) take the general path instead: an
 * in-place bit reversal and radix-2 passes over shared memory, one barrier
 * per pass. The CPU (block_dim 1) takes that path too, on the staged copy.
 * Twiddles come from sincospi (f32: sincospif), so they are accurate to an
 * ulp at every n.
 *
 * tile_fft_conv(t, h) (below) fuses tile_fft, a multiply by h and tile_ifft:
 * the forward's last pass is not stored; its registers, times h, are the
 * inverse's first pass's input (one store, one load, the multiply's shared
 * round trip and two syncs a row fewer).
 */
#ifndef TILE_FFT_H
#define TILE_FFT_H

#include "complex.h"
#include "core.h"

/* Arena bytes tile_fft needs for a register tile of element type T and
 * shape dims (shared tiles need none):
 *   TILE_FFT_SMEM_BYTES(tile_c32, 4, 1024) == 32768 */
#define TILE_FFT_SMEM_BYTES(T, ...) TILE_SMEM_BYTES(T, __VA_ARGS__)

/* longest transform */
#define TILE_FFT_MAX_N 4096

/* elements per thread: preferred and largest (register budget) */
#ifndef TILE_FFT_E_C32
#define TILE_FFT_E_C32 16
#endif
#ifndef TILE_FFT_E_C64
#define TILE_FFT_E_C64 8
#endif
/* larger E (32) made ptxas spill and take minutes per kernel */
#define TILE__FFT_EMAX_C32 16
#define TILE__FFT_EMAX_C64 8

/* ---- small helpers ---- */
TILE_API int tile__fft_brev(int x, int bits) {
    int r = 0;
    for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
    return r;
}
/* log2 of a power of two 1..4096, closed form so that it folds to a constant */
TILE_API int tile__fft_log2(int n) {
    return (n & 0xAAAA ? 1 : 0) | (n & 0xCCCC ? 2 : 0) | (n & 0xF0F0 ? 4 : 0) | (n & 0xFF00 ? 8 : 0);
}
/* x (bits <= 5 bits) bit-reversed, closed form */
#define TILE__FFT_BREV5(x, bits)                                                   \
    (((((x)&1) << 4) | (((x)&2) << 2) | ((x)&4) | (((x)&8) >> 2) | (((x)&16) >> 4)) >> (5 - (bits)))
TILE_API void tile__fft_syncwarp(unsigned mask) {
#if TILE_ON_DEVICE
    __syncwarp(mask);
#else
    (void)mask;
#endif
}
/* the two syncs of the transforms; tests/cpu/test_fft.c replaces them to run
 * the GPU paths with host threads */
#ifndef TILE__FFT_BARRIER
#define TILE__FFT_BARRIER() tile_barrier()
#endif
#ifndef TILE__FFT_SYNCWARP
#define TILE__FFT_SYNCWARP(tid, mask) tile__fft_syncwarp(mask)
#endif

/* cos and sin of 2 pi m / 32, m = 0..15: the constant twiddles of the
 * in-register DFTs (radix up to 32) */
#define TILE__FFT_COS32(m)                                                         \
    ((m) == 0 ? 1.0 : (m) == 1 ? 0.98078528040323044913 : (m) == 2 ? 0.92387953251128675613 : \
     (m) == 3 ? 0.83146961230254523708 : (m) == 4 ? 0.70710678118654752440 : (m) == 5 ? 0.55557023301960222474 : \
     (m) == 6 ? 0.38268343236508977173 : (m) == 7 ? 0.19509032201612826785 : (m) == 8 ? 0.0 :            \
     (m) == 9 ? -0.19509032201612826785 : (m) == 10 ? -0.38268343236508977173 :                            \
     (m) == 11 ? -0.55557023301960222474 : (m) == 12 ? -0.70710678118654752440 :                           \
     (m) == 13 ? -0.83146961230254523708 : (m) == 14 ? -0.92387953251128675613 : -0.98078528040323044913)

/* sin(2 pi m / 32) = cos(2 pi (m - 8) / 32), m = 0..15: for m >= 8 that is
 * cos at m - 8; for m < 8 it is cos(2 pi (8 - m) / 32) */
TILE_API double tile__fft_sin32(int m) { return m >= 8 ? TILE__FFT_COS32(m - 8) : TILE__FFT_COS32(8 - m); }
TILE_API double tile__fft_cos32(int m) { return TILE__FFT_COS32(m); }

/* ---- one type's kernels: X(sfx, T, S, W, LW, EPREF, EMAX) ----
 * W: complex elements per 128 bytes (one pass of the 32 banks), LW = log2 W */
#define TILE__FFT_DEF(sfx, T, S, W, LW)                                           \
    /* a * b */                                                                   \
    TILE_API T tile__fft_mul_##sfx(T a, T b) { return tile_##sfx##_mul(a, b); }  \
    /* d * exp(sign * 2 pi i m / 32), m = 0..15 a constant after unrolling */     \
    TILE_API T tile__fft_rot_##sfx(T d, int m, int sign) {                        \
        if (m == 0) return d;                                                     \
        if (m == 8) return sign < 0 ? tile_##sfx##_set(d.im, -d.re) : tile_##sfx##_set(-d.im, d.re); \
        const S c = (S)tile__fft_cos32(m), s = (S)(sign < 0 ? -tile__fft_sin32(m) : tile__fft_sin32(m)); \
        return tile_##sfx##_set(d.re * c - d.im * s, d.re * s + d.im * c);       \
    }                                                                             \
    /* General path: bit reversal in place, then log2(n) radix-2 DIT passes     \
     * over shared memory; threads stride over all rows' butterflies. */        \
    TILE_API void tile__fft_slow_##sfx(T *buf, int rows, int n, int rs, int sign, int tid, int bd) { \
        const int logn = tile__fft_log2(n), half = n >> 1;                        \
        for (int i = tid; i < rows * n; i += bd) {                                \
            const int r = i >> logn, k = i & (n - 1), kr = tile__fft_brev(k, logn); \
            if (k < kr) {                                                         \
                T a = buf[r * rs + k];                                            \
                buf[r * rs + k] = buf[r * rs + kr];                               \
                buf[r * rs + kr] = a;                                             \
            }                                                                     \
        }                                                                         \
        TILE__FFT_BARRIER();                                                      \
        for (int h = 1; h < n; h <<= 1) {                                         \
            for (int b = tid; b < rows * half; b += bd) {                         \
                const int r = b / half, m = b & (half - 1), pos = m & (h - 1);    \
                const int i0 = r * rs + ((m - pos) << 1) + pos, i1 = i0 + h;      \
                const T w = tile_##sfx##_expi((S)sign * (S)pos / (S)h);           \
                const T x1 = tile__fft_mul_##sfx(w, buf[i1]), x0 = buf[i0];       \
                buf[i0] = tile_##sfx##_add(x0, x1);                               \
                buf[i1] = tile_##sfx##_sub(x0, x1);                               \
            }                                                                     \
            TILE__FFT_BARRIER();                                                  \
        }                                                                         \
    }                                                                             \
    TILE__FFT_DEF_E(sfx, T, S, W, LW, 2)                                          \
    TILE__FFT_DEF_E(sfx, T, S, W, LW, 4)                                          \
    TILE__FFT_DEF_E(sfx, T, S, W, LW, 8)                                          \
    TILE__FFT_DEF_E(sfx, T, S, W, LW, 16)

/* position of index i of a row in shared memory between passes: the low LW
 * bits XORed with the next LW bits (a permutation inside each aligned run of
 * W elements), so that the strided stores of a warp spread over the banks */
#define TILE__FFT_SWZ(i, on, W, LW) ((on) ? (i) ^ (((i) >> (LW)) & ((W)-1)) : (i))

/* Fast path, E elements per thread (E a constant): rows of n = P * E are
 * handled by groups of P threads; G = bd / P groups take rows g, g + G, ...
 * ws: P <= 32, the group lives in one warp and synchronizes with __syncwarp.
 * Every pass: load E values, twiddle, DFT of radix R (E / R butterflies per
 * thread), sync, store, sync. */
#define TILE__FFT_DEF_E(sfx, T, S, W, LW, E)                                      \
    TILE_API void tile__fft_fast_##sfx##_##E(T *buf, int rows, int n, int rs, int sign, int tid, int bd) { \
        const int P = n / (E), G = bd / P, g = tid / P, q = tid - g * P;          \
        const int ws = P <= 32, sw = n >= (W);                                    \
        const unsigned mask = P >= 32 ? 0xffffffffu : ((1u << P) - 1u) << ((tid & 31) & ~(P - 1)); \
        const int rounds = (rows + G - 1) / G;                                    \
        for (int it = 0; it < rounds; ++it) {                                     \
            const int r = g + it * G;                                             \
            const int act = tid < G * P && r < rows;                              \
            if (ws && !act) break; /* a whole group leaves together */            \
            T *row = buf + (act ? r : 0) * rs;                                    \
            T v[E];                                                               \
            const int LE = tile__fft_log2(E), LN = tile__fft_log2(n);             \
            TILE__UNROLL for (int p = 0; p < (LN + LE - 1) / LE; ++p) {           \
                const int Ns = 1 << (p * LE);                                     \
                const int R = n / Ns < (E) ? n / Ns : (E);                        \
                const int LR = tile__fft_log2(R), stride = n / R;                 \
                const int first = Ns == 1, last = Ns * R == n;                    \
                if (act) {                                                        \
                    TILE__UNROLL for (int b = 0; b < (E) / R; ++b) {              \
                        const int j = q + P * b, k = j & (Ns - 1);                \
                        TILE__UNROLL for (int x = 0; x < R; ++x) {                \
                            const int i = j + x * stride;                         \
                            v[b * R + x] = row[TILE__FFT_SWZ(i, sw && !first, W, LW)]; \
                        }                                                         \
                        if (!first) { /* v[x] *= w^x, w = exp(sign 2 pi i k / (Ns R)): */ \
                            /* w^0..w^7 by squaring and one product each, w^8 from    */ \
                            /* sincospi; w^x = w^(8 (x / 8)) w^(x % 8) (few roundings) */ \
                            const S tile__a = (S)(2 * sign * k) / (S)(Ns * R);    \
                            T lo[8], hp = tile_##sfx##_set((S)1, (S)0);           \
                            lo[0] = hp;                                           \
                            lo[1] = tile_##sfx##_expi(tile__a);                   \
                            TILE__UNROLL for (int x = 2; x < 8; ++x)              \
                                lo[x] = x % 2 == 0 ? tile__fft_mul_##sfx(lo[x / 2], lo[x / 2]) \
                                                   : tile__fft_mul_##sfx(lo[x - 1], lo[1]); \
                            const T w8 = R > 8 ? tile_##sfx##_expi(8 * tile__a) : hp; \
                            TILE__UNROLL for (int x = 1; x < R; ++x) {            \
                                if (x % 8 == 0) hp = x == 8 ? w8 : tile__fft_mul_##sfx(hp, w8); \
                                const T tw = x < 8 ? lo[x] : x % 8 == 0 ? hp : tile__fft_mul_##sfx(hp, lo[x % 8]); \
                                v[b * R + x] = tile__fft_mul_##sfx(v[b * R + x], tw); \
                            }                                                     \
                        }                                                         \
                        /* DFT of radix R: radix-2 DIF stages, output bit-reversed */ \
                        TILE__UNROLL for (int st = 0; st < LR; ++st)              \
                            TILE__UNROLL for (int bf = 0; bf < R / 2; ++bf) {     \
                                const int h = R >> (st + 1), x = bf & (h - 1);    \
                                const int i0 = b * R + ((bf - x) << 1) + x;       \
                                const T a = v[i0], c = v[i0 + h];                 \
                                v[i0] = tile_##sfx##_add(a, c);                   \
                                v[i0 + h] = tile__fft_rot_##sfx(tile_##sfx##_sub(a, c), x * (16 / h), sign); \
                            }                                                     \
                    }                                                             \
                }                                                                 \
                if (ws) TILE__FFT_SYNCWARP(tid, mask); else TILE__FFT_BARRIER();            \
                if (act) {                                                        \
                    TILE__UNROLL for (int b = 0; b < (E) / R; ++b) {              \
                        const int j = q + P * b, k = j & (Ns - 1);                \
                        TILE__UNROLL for (int x = 0; x < R; ++x) {                \
                            const int o = (j - k) * R + k + x * Ns;               \
                            row[TILE__FFT_SWZ(o, sw && !last, W, LW)] = v[b * R + TILE__FFT_BREV5(x, LR)]; \
                        }                                                         \
                    }                                                             \
                }                                                                 \
                if (ws) TILE__FFT_SYNCWARP(tid, mask); else TILE__FFT_BARRIER();            \
            }                                                                     \
        }                                                                         \
    }

/* Fused convolution, fast path: per row, the forward passes, then the
 * forward's last pass is not stored: thread q of a group then holds
 * X[q + P m], m = 0..E-1 (register b R + brev(x) holds m = b + x E / R), which
 * are exactly the inputs of the inverse's first pass (radix E, one butterfly
 * a thread, inputs q + P m). So the product with H is taken in registers
 * and the inverse starts from them: one store, one load and two syncs a row
 * fewer than tile_fft + multiply + tile_ifft (and no natural-order round
 * trip for the multiply). The pass is tile__fft_fast_*_E's, with the sign a
 * constant; two loops (forward, inverse) of the original size each, as one
 * loop of twice the passes is too large for the compiler to unroll. */
#define TILE__FFT_CONV_PASS(sfx, T, S, W, LW, E, sign, inv)                       \
    {                                                                             \
        const int Ns = 1 << (p * LE);                                             \
        const int R = n / Ns < (E) ? n / Ns : (E);                                \
        const int LR = tile__fft_log2(R), stride = n / R;                         \
        const int first = Ns == 1, last = Ns * R == n;                            \
        if (act) {                                                                \
            TILE__UNROLL for (int b = 0; b < (E) / R; ++b) {                      \
                const int j = q + P * b, k = j & (Ns - 1);                        \
                if (!((inv) && first)) {                                          \
                    TILE__UNROLL for (int x = 0; x < R; ++x) {                    \
                        const int i = j + x * stride;                             \
                        v[b * R + x] = row[TILE__FFT_SWZ(i, sw && !first, W, LW)]; \
                    }                                                             \
                }                                                                 \
                if (!first) {                                                     \
                    const S tile__a = (S)(2 * (sign) * k) / (S)(Ns * R);          \
                    T lo[8], hp = tile_##sfx##_set((S)1, (S)0);                   \
                    lo[0] = hp;                                                   \
                    lo[1] = tile_##sfx##_expi(tile__a);                           \
                    TILE__UNROLL for (int x = 2; x < 8; ++x)                      \
                        lo[x] = x % 2 == 0 ? tile__fft_mul_##sfx(lo[x / 2], lo[x / 2]) \
                                           : tile__fft_mul_##sfx(lo[x - 1], lo[1]); \
                    const T w8 = R > 8 ? tile_##sfx##_expi(8 * tile__a) : hp;     \
                    TILE__UNROLL for (int x = 1; x < R; ++x) {                    \
                        if (x % 8 == 0) hp = x == 8 ? w8 : tile__fft_mul_##sfx(hp, w8); \
                        const T tw = x < 8 ? lo[x] : x % 8 == 0 ? hp : tile__fft_mul_##sfx(hp, lo[x % 8]); \
                        v[b * R + x] = tile__fft_mul_##sfx(v[b * R + x], tw);     \
                    }                                                             \
                }                                                                 \
                TILE__UNROLL for (int st = 0; st < LR; ++st)                      \
                    TILE__UNROLL for (int bf = 0; bf < R / 2; ++bf) {             \
                        const int h = R >> (st + 1), x = bf & (h - 1);            \
                        const int i0 = b * R + ((bf - x) << 1) + x;               \
                        const T a = v[i0], c = v[i0 + h];                         \
                        v[i0] = tile_##sfx##_add(a, c);                           \
                        v[i0 + h] = tile__fft_rot_##sfx(tile_##sfx##_sub(a, c), x * (16 / h), (sign)); \
                    }                                                             \
            }                                                                     \
        }                                                                         \
        if ((inv) || !last) { /* the forward's last output stays in registers */  \
            if (ws) TILE__FFT_SYNCWARP(tid, mask); else TILE__FFT_BARRIER();      \
            if (act) {                                                            \
                TILE__UNROLL for (int b = 0; b < (E) / R; ++b) {                  \
                    const int j = q + P * b, k = j & (Ns - 1);                    \
                    TILE__UNROLL for (int x = 0; x < R; ++x) {                    \
                        const int o = (j - k) * R + k + x * Ns;                   \
                        row[TILE__FFT_SWZ(o, sw && !last, W, LW)] = v[b * R + TILE__FFT_BREV5(x, LR)]; \
                    }                                                             \
                }                                                                 \
            }                                                                     \
            if (ws) TILE__FFT_SYNCWARP(tid, mask); else TILE__FFT_BARRIER();      \
        }                                                                         \
    }
#define TILE__FFT_DEF_CONV_E(sfx, T, S, W, LW, E)                                 \
    TILE_API void tile__fft_convf_##sfx##_##E(T *buf, int rows, int n, int rs, const T *H, int norm, int tid, int bd) { \
        const int P = n / (E), G = bd / P, g = tid / P, q = tid - g * P;          \
        const int ws = P <= 32, sw = n >= (W);                                    \
        const unsigned mask = P >= 32 ? 0xffffffffu : ((1u << P) - 1u) << ((tid & 31) & ~(P - 1)); \
        const int rounds = (rows + G - 1) / G;                                    \
        for (int it = 0; it < rounds; ++it) {                                     \
            const int r = g + it * G;                                             \
            const int act = tid < G * P && r < rows;                              \
            if (ws && !act) break; /* a whole group leaves together */            \
            T *row = buf + (act ? r : 0) * rs;                                    \
            T v[E];                                                               \
            const int LE = tile__fft_log2(E), LN = tile__fft_log2(n);             \
            const int NP = (LN + LE - 1) / LE;                                    \
            TILE__UNROLL for (int p = 0; p < NP; ++p)                             \
                TILE__FFT_CONV_PASS(sfx, T, S, W, LW, E, -1, 0)                   \
            if (act) { /* X[q + P m] = v[bb RL + brev(xx)], m = bb + xx E / RL, times H */ \
                const int RL = n >> ((NP - 1) * LE), LRL = tile__fft_log2(RL);    \
                const S hsc = norm ? (S)1 / (S)n : (S)1; /* a select, not a branch */ \
                T u[E];                                                           \
                TILE__UNROLL for (int m = 0; m < (E); ++m) {                      \
                    const int bb = m % ((E) / RL), xx = m / ((E) / RL);           \
                    const T hv = tile_##sfx##_scale(H[q + P * m], hsc);           \
                    u[m] = tile__fft_mul_##sfx(v[bb * RL + TILE__FFT_BREV5(xx, LRL)], hv); \
                }                                                                 \
                TILE__UNROLL for (int m = 0; m < (E); ++m) v[m] = u[m];           \
            }                                                                     \
            TILE__UNROLL for (int p = 0; p < NP; ++p)                             \
                TILE__FFT_CONV_PASS(sfx, T, S, W, LW, E, 1, 1)                    \
        }                                                                         \
    }

TILE__FFT_DEF(c32, tile_c32, float, 16, 4)
TILE__FFT_DEF(c64, tile_c64, double, 8, 3)

/* the general path's convolution (CPU, or rows longer than EMAX per thread):
 * transform, multiply in natural order, transform back */
#define TILE__FFT_DEF_CONV(sfx, T, S, W, LW)                                      \
    TILE__FFT_DEF_CONV_E(sfx, T, S, W, LW, 2)                                     \
    TILE__FFT_DEF_CONV_E(sfx, T, S, W, LW, 4)                                     \
    TILE__FFT_DEF_CONV_E(sfx, T, S, W, LW, 8)                                     \
    TILE__FFT_DEF_CONV_E(sfx, T, S, W, LW, 16)                                    \
    TILE_API void tile__fft_convs_##sfx(T *buf, int rows, int n, int rs, const T *H, int norm, int tid, int bd) { \
        const int logn = tile__fft_log2(n);                                       \
        tile__fft_slow_##sfx(buf, rows, n, rs, -1, tid, bd); /* ends with a barrier */ \
        for (int i = tid; i < rows * n; i += bd) {                                \
            const int r = i >> logn, k = i & (n - 1);                             \
            T hv = H[k];                                                          \
            if (norm) hv = tile_##sfx##_scale(hv, (S)1 / (S)n);                   \
            buf[r * rs + k] = tile__fft_mul_##sfx(buf[r * rs + k], hv);           \
        }                                                                         \
        TILE__FFT_BARRIER();                                                      \
        tile__fft_slow_##sfx(buf, rows, n, rs, 1, tid, bd);                       \
    }
TILE__FFT_DEF_CONV(c32, tile_c32, float, 16, 4)
TILE__FFT_DEF_CONV(c64, tile_c64, double, 8, 3)

/* ---- compile-time plan ---- */
/* largest power of two <= b (b = 1..1024) */
#define TILE__FFT_POW2LE(b)                                                       \
    ((b) >= 1024 ? 1024 : (b) >= 512 ? 512 : (b) >= 256 ? 256 : (b) >= 128 ? 128 : (b) >= 64 ? 64 : \
     (b) >= 32 ? 32 : (b) >= 16 ? 16 : (b) >= 8 ? 8 : (b) >= 4 ? 4 : (b) >= 2 ? 2 : 1)
/* elements per thread for length n, block bd, preferred ep: ep (or n when
 * shorter), raised until n / E threads fit in the block */
#define TILE__FFT_E0(n, ep) ((n) < (ep) ? (n) : (ep))
#define TILE__FFT_E(n, bd, ep) \
    ((n) / TILE__FFT_E0(n, ep) <= TILE__FFT_POW2LE(bd) ? TILE__FFT_E0(n, ep) : (n) / TILE__FFT_POW2LE(bd))

#define TILE__FFT_RUN_DEF(sfx, T, EP, EMAX)                                       \
    TILE_API void tile__fft_run_##sfx(T *buf, int rows, int n, int rs, int sign, int tid, int bd) { \
        const int E = TILE__FFT_E(n, bd, EP);                                     \
        if (bd == 1 || E > (EMAX)) { tile__fft_slow_##sfx(buf, rows, n, rs, sign, tid, bd); return; } \
        switch (E) {                                                              \
        case 2: tile__fft_fast_##sfx##_2(buf, rows, n, rs, sign, tid, bd); break; \
        case 4: tile__fft_fast_##sfx##_4(buf, rows, n, rs, sign, tid, bd); break; \
        case 8: tile__fft_fast_##sfx##_8(buf, rows, n, rs, sign, tid, bd); break; \
        default: tile__fft_fast_##sfx##_16(buf, rows, n, rs, sign, tid, bd); break; \
        }                                                                         \
    }
TILE__FFT_RUN_DEF(c32, tile_c32, TILE_FFT_E_C32, TILE__FFT_EMAX_C32)
TILE__FFT_RUN_DEF(c64, tile_c64, TILE_FFT_E_C64, TILE__FFT_EMAX_C64)
#define TILE__FFT_CONV_RUN_DEF(sfx, T, EP, EMAX)                                  \
    TILE_API void tile__fft_conv_run_##sfx(T *buf, int rows, int n, int rs, const T *H, int norm, int tid, int bd) { \
        const int E = TILE__FFT_E(n, bd, EP);                                     \
        if (bd == 1 || E > (EMAX)) { tile__fft_convs_##sfx(buf, rows, n, rs, H, norm, tid, bd); return; } \
        switch (E) {                                                              \
        case 2: tile__fft_convf_##sfx##_2(buf, rows, n, rs, H, norm, tid, bd); break; \
        case 4: tile__fft_convf_##sfx##_4(buf, rows, n, rs, H, norm, tid, bd); break; \
        case 8: tile__fft_convf_##sfx##_8(buf, rows, n, rs, H, norm, tid, bd); break; \
        default: tile__fft_convf_##sfx##_16(buf, rows, n, rs, H, norm, tid, bd); break; \
        }                                                                         \
    }
TILE__FFT_CONV_RUN_DEF(c32, tile_c32, TILE_FFT_E_C32, TILE__FFT_EMAX_C32)
TILE__FFT_CONV_RUN_DEF(c64, tile_c64, TILE_FFT_E_C64, TILE__FFT_EMAX_C64)

/* ---- type dispatch ---- */
#if defined(__cplusplus)
TILE_API void tile__fft_run(tile_c32 *b, int rows, int n, int rs, int sign, int tid, int bd) {
    tile__fft_run_c32(b, rows, n, rs, sign, tid, bd);
}
TILE_API void tile__fft_run(tile_c64 *b, int rows, int n, int rs, int sign, int tid, int bd) {
    tile__fft_run_c64(b, rows, n, rs, sign, tid, bd);
}
TILE_API tile_c32 tile__fft_scale(tile_c32 a, double s) { return tile_c32_scale(a, (float)s); }
TILE_API tile_c64 tile__fft_scale(tile_c64 a, double s) { return tile_c64_scale(a, s); }
/* element kind, unevaluated: 1 c32, 2 c64, 3 anything else */
char (&tile__fft_kind(tile_c32))[1];
char (&tile__fft_kind(tile_c64))[2];
char (&tile__fft_kind(...))[3];
#define TILE__FFT_KIND(x) ((int)sizeof(tile__fft_kind(x)))
#define TILE__FFT_RUN(b, ...) tile__fft_run((b), __VA_ARGS__)
TILE_API void tile__fft_conv_run(tile_c32 *b, int rows, int n, int rs, const tile_c32 *h, int norm, int tid, int bd) {
    tile__fft_conv_run_c32(b, rows, n, rs, h, norm, tid, bd);
}
TILE_API void tile__fft_conv_run(tile_c64 *b, int rows, int n, int rs, const tile_c64 *h, int norm, int tid, int bd) {
    tile__fft_conv_run_c64(b, rows, n, rs, h, norm, tid, bd);
}
#define TILE__FFT_CONV_RUN(b, ...) tile__fft_conv_run((b), __VA_ARGS__)
#define TILE__FFT_SCALE(a, s) tile__fft_scale((a), (s))
/* a shared tile's data pointer; null for a register tile (whose slots must
 * not have their address taken, or they leave the registers). C++ overloads
 * because only they tell an array member from a pointer member. */
template <class E, int K>
static TILE_HD __forceinline__ E *tile__fft_ptr(E (&)[K]) { return 0; }
template <class E>
static TILE_HD __forceinline__ E *tile__fft_ptr(E *&p) { return p; }
#define TILE__FFT_PTR(t) tile__fft_ptr((t).v)
#else
#define TILE__FFT_KIND(x) _Generic((x), tile_c32: 1, tile_c64: 2, default: 3)
#define TILE__FFT_RUN(b, ...) \
    _Generic((b), tile_c32 *: tile__fft_run_c32, tile_c64 *: tile__fft_run_c64)((b), __VA_ARGS__)
#define TILE__FFT_CONV_RUN(b, ...) \
    _Generic((b), tile_c32 *: tile__fft_conv_run_c32, tile_c64 *: tile__fft_conv_run_c64)((b), __VA_ARGS__)
TILE_API tile_c32 tile__fft_scale_c32(tile_c32 a, double s) { return tile_c32_scale(a, (float)s); }
TILE_API tile_c64 tile__fft_scale_c64(tile_c64 a, double s) { return tile_c64_scale(a, s); }
#define TILE__FFT_SCALE(a, s) \
    _Generic((a), tile_c32: tile__fft_scale_c32, tile_c64: tile__fft_scale_c64)((a), (s))
#define TILE__FFT_PTR(t) ((TILE_ELEM_T(t) *)(t).v)
#endif

/* ---- the public operations ---- */
#define tile_fft(t) TILE__FFT(t, -1, 0)
#define tile_ifft(t) TILE__FFT(t, 1, 0)
/* inverse times 1/n: ifft(fft(x)) = x */
#define tile_ifft_normalized(t) TILE__FFT(t, 1, 1)
/* every element times the real s (register or shared tile of c32/c64):
 * tile_fft_scale(t, 1.0 / n) normalizes a tile_ifft */
#define tile_fft_scale(t, s)                                                      \
    do {                                                                          \
        TILE__STATIC_ASSERT(TILE__FFT_KIND((t).v[0]) != 3, "tile.h: tile_fft_scale needs a tile of tile_c32 or tile_c64"); \
        const double tile__fs = (double)(s);                                      \
        TILE__WRITE_BEGIN(t);                                                     \
        TILE__EACH(t, tile__s) TILE__AT(t, tile__s) = TILE__FFT_SCALE(TILE__AT(t, tile__s), tile__fs); \
        TILE__WRITE_END(t);                                                       \
    } while (0)

/* Fused FFT convolution: every row of t becomes ifft(fft(row) .* h)
 * (unnormalized, as cuFFT's forward then inverse: n times the circular
 * convolution when h is the filter's spectrum); _normalized multiplies by
 * h / n instead (exactly the circular convolution with the filter whose
 * spectrum is h). t as for tile_fft (register or shared tile of c32/c64, 1D
 * or rows x n; a register tile needs TILE_FFT_SMEM_BYTES of arena); h a
 * shared tile of the same element type holding n values in natural order,
 * shape (n) or (1, n). Same result as tile_fft, the multiply and tile_ifft
 * (within rounding), with less work on the GPU: the forward's last pass
 * stays in registers, is multiplied there and is the inverse's first pass's
 * input (docs/fft.md). Cooperative, like tile_fft.
 *
 * tile_fft_conv_ptr(t, H, norm) takes the spectrum as a pointer instead: H
 * points to n elements of t's type in natural order, in global or shared
 * memory (read-only during the call, written before it by a barrier or an
 * earlier kernel), norm 0 or 1 as the two names above. On the GPU each
 * thread reads the values it multiplies (through L1) and no shared copy of H
 * is needed.
 *
 * Suppose t (tile_c32, shape 4) holds [1 2 3 4] and h [1 0 0 0]:
 *   tile_fft_conv(t, h)             t = [10 10 10 10]   (ifft([10 0 0 0]))
 *   tile_fft_conv_normalized(t, h)  t = [2.5 2.5 2.5 2.5]
 * and with h = [1 1 1 1] (the spectrum of a unit impulse):
 *   tile_fft_conv_normalized(t, h)  t = [1 2 3 4]
 *   tile_fft_conv_ptr(t, H, 0)      t = [4 8 12 16]     (H pointing to [1 1 1 1]) */
#define tile_fft_conv(t, h) TILE__FFT_CONV_TILE(t, h, 0)
#define tile_fft_conv_normalized(t, h) TILE__FFT_CONV_TILE(t, h, 1)
#define tile_fft_conv_ptr(t, H, norm) TILE__FFT_CONV(t, H, (norm) != 0)
#define TILE__FFT_CONV_TILE(t, h, norm)                                           \
    do {                                                                          \
        TILE__STATIC_ASSERT(TILE__FFT_KIND((h).v[0]) == TILE__FFT_KIND((t).v[0]) && tile_is_shared(h) && \
                                TILE__FFT_N(h) == TILE__FFT_N(t) && tile_size(h) == TILE__FFT_N(t), \
                            "tile.h: tile_fft_conv needs h a shared tile of n elements of t's type"); \
        TILE__FFT_CONV(t, (const TILE_ELEM_T(t) *)TILE__FFT_PTR(h), norm);       \
    } while (0)
#define TILE__FFT_CONV(t, hp, norm)                                               \
    do {                                                                          \
        TILE__STATIC_ASSERT(TILE__FFT_KIND((t).v[0]) != 3, "tile.h: tile_fft_conv needs a tile of tile_c32 or tile_c64"); \
        TILE__STATIC_ASSERT(tile_ndim(t) <= 2, "tile.h: tile_fft_conv takes 1D or 2D tiles (one transform per row)"); \
        TILE__STATIC_ASSERT(TILE__FFT_N(t) >= 2 && TILE__FFT_N(t) <= TILE_FFT_MAX_N && \
                                (TILE__FFT_N(t) & (TILE__FFT_N(t) - 1)) == 0,     \
                            "tile.h: tile_fft_conv needs a power-of-two length 2..4096 along the last dim"); \
        typedef TILE_ELEM_T(t) tile__fT;                                          \
        enum {                                                                    \
            tile__fN = TILE__FFT_N(t), tile__fR = tile_size(t) / TILE__FFT_N(t),   \
            tile__fSH = tile_is_shared(t),                                        \
            tile__fRS = tile__fSH && tile_ndim(t) == 2 ? TILE__S0(t) : TILE__FFT_N(t) \
        };                                                                        \
        const int tile__fmk = tile_smem_mark();                                   \
        tile__fT *tile__fb = tile__fSH ? TILE__FFT_PTR(t)                         \
                                       : (tile__fT *)TILE__SMEM_TAKE(sizeof(tile__fT) * tile_size(t)); \
        if (tile__fSH) {                                                          \
            tile_barrier(); /* earlier writes to the tile and to h are visible */ \
        } else {                                                                  \
            TILE__EACH(t, tile__s) tile__fb[TILE__LIN(t, tile__s)] = (t).v[tile__s]; \
            tile_barrier();                                                       \
        }                                                                         \
        TILE__FFT_CONV_RUN(tile__fb, tile__fR, tile__fN, tile__fRS, (hp), (norm), tile_thread(), TILE__BD(t)); \
        tile_barrier(); /* rows cross warps in the tile's own thread mapping */   \
        if (!tile__fSH) {                                                         \
            TILE__EACH(t, tile__s) (t).v[tile__s] = tile__fb[TILE__LIN(t, tile__s)]; \
            tile_smem_release(tile__fmk);                                         \
        }                                                                         \
        (void)tile__fmk;                                                          \
    } while (0)

#define TILE__FFT_N(t) tile_dim(t, tile_ndim(t) - 1)
#define TILE__FFT(t, sign, norm)                                                  \
    do {                                                                          \
        TILE__STATIC_ASSERT(TILE__FFT_KIND((t).v[0]) != 3, "tile.h: tile_fft needs a tile of tile_c32 or tile_c64"); \
        TILE__STATIC_ASSERT(tile_ndim(t) <= 2, "tile.h: tile_fft takes 1D or 2D tiles (one transform per row)"); \
        TILE__STATIC_ASSERT(TILE__FFT_N(t) >= 2 && TILE__FFT_N(t) <= TILE_FFT_MAX_N && \
                                (TILE__FFT_N(t) & (TILE__FFT_N(t) - 1)) == 0,     \
                            "tile.h: tile_fft needs a power-of-two length 2..4096 along the last dim"); \
        typedef TILE_ELEM_T(t) tile__fT;                                          \
        enum {                                                                    \
            tile__fN = TILE__FFT_N(t), tile__fR = tile_size(t) / TILE__FFT_N(t),   \
            tile__fSH = tile_is_shared(t),                                        \
            tile__fRS = tile__fSH && tile_ndim(t) == 2 ? TILE__S0(t) : TILE__FFT_N(t) \
        };                                                                        \
        const int tile__fmk = tile_smem_mark();                                   \
        tile__fT *tile__fb = tile__fSH ? TILE__FFT_PTR(t)                         \
                                       : (tile__fT *)TILE__SMEM_TAKE(sizeof(tile__fT) * tile_size(t)); \
        if (tile__fSH) {                                                          \
            tile_barrier(); /* earlier writes to the tile are visible */          \
        } else {                                                                  \
            TILE__EACH(t, tile__s) tile__fb[TILE__LIN(t, tile__s)] = (t).v[tile__s]; \
            tile_barrier();                                                       \
        }                                                                         \
        TILE__FFT_RUN(tile__fb, tile__fR, tile__fN, tile__fRS, (sign), tile_thread(), TILE__BD(t)); \
        tile_barrier(); /* rows cross warps in the tile's own thread mapping */   \
        if (!tile__fSH) {                                                         \
            TILE__EACH(t, tile__s) {                                              \
                (t).v[tile__s] = tile__fb[TILE__LIN(t, tile__s)];                 \
                if (norm) (t).v[tile__s] = TILE__FFT_SCALE((t).v[tile__s], 1.0 / tile__fN); \
            }                                                                     \
            tile_smem_release(tile__fmk);                                         \
        } else if (norm) {                                                        \
            TILE__EACH(t, tile__s) TILE__AT(t, tile__s) = TILE__FFT_SCALE(TILE__AT(t, tile__s), 1.0 / tile__fN); \
            tile_barrier();                                                       \
        }                                                                         \
        (void)tile__fmk;                                                          \
    } while (0)

#endif /* TILE_FFT_H */
