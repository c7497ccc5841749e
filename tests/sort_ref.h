/* tests/sort_ref.h - host references for the sort tests (CPU and GPU).
 *
 * The order is computed here independently of include/tile/sort.h: floats by
 * a signed-integer view of their bits (negative values with the magnitude
 * bits flipped), which gives -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf <
 * +NaN; integers naturally. The reference sort is stable (ties keep their
 * input index order), so sorting (key, index) pairs gives the exact expected
 * keys and values.
 *
 * Test inputs (sr_fill): pattern p of n keys of a type, seeded:
 *   0 random bits (floats include NaNs, infinities, denormals)
 *   1 few distinct values (duplicates, -0.0 next to +0.0, NaNs of both signs)
 *   2 already sorted   3 reversed   4 all equal (the same bits)
 *   5 specials and extremes (INT_MIN, UINT64_MAX, NaN payloads, ...)
 *   6 small range (digits above the lowest ones all equal: passes skipped)
 *   7 one sign only, same exponent (floats), or high bits all set (ints)
 */
/* Needs <tile.h> first (TILE__UNUSED). */
#ifndef SORT_REF_H
#define SORT_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SR_F32, SR_F64, SR_I32, SR_U32, SR_I64, SR_U64, SR_NTYPES };
enum { SR_NPATTERNS = 8 };
static const char *const sr_type_name[SR_NTYPES] = {"f32", "f64", "i32", "u32", "i64", "u64"};
static const int sr_type_size[SR_NTYPES] = {4, 8, 4, 4, 8, 8};
static const char *const sr_pattern_name[SR_NPATTERNS] = {"random", "duplicates", "sorted", "reversed",
                                                          "all-equal", "specials", "small-range", "one-sign"};

/* the key of element i of p as a 64-bit pattern */
static uint64_t sr_bits(int type, const void *p, long i) {
    if (sr_type_size[type] == 4) {
        uint32_t b;
        memcpy(&b, (const char *)p + 4 * i, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, (const char *)p + 8 * i, 8);
    return b;
}
static void sr_set_bits(int type, void *p, long i, uint64_t b) {
    if (sr_type_size[type] == 4) {
        uint32_t w = (uint32_t)b;
        memcpy((char *)p + 4 * i, &w, 4);
    } else {
        memcpy((char *)p + 8 * i, &b, 8);
    }
}
/* -1, 0, 1: order of two keys given as bit patterns */
static int sr_cmp_bits(int type, uint64_t a, uint64_t b) {
    switch (type) {
    case SR_F32: {
        int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;
        if (x < 0) x ^= 0x7fffffff;
        if (y < 0) y ^= 0x7fffffff;
        return (x > y) - (x < y);
    }
    case SR_F64: {
        int64_t x = (int64_t)a, y = (int64_t)b;
        if (x < 0) x ^= INT64_MAX;
        if (y < 0) y ^= INT64_MAX;
        return (x > y) - (x < y);
    }
    case SR_I32: {
        int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;
        return (x > y) - (x < y);
    }
    case SR_I64: {
        int64_t x = (int64_t)a, y = (int64_t)b;
        return (x > y) - (x < y);
    }
    default: return (a > b) - (a < b);
    }
}

/* stable reference: idx[0..n) becomes the sorted order of keys (by index on
 * ties); merge sort, so it is stable by construction */
static void sr_sort_index(int type, const void *keys, int n, int32_t *idx) {
    int32_t *tmp = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; ++i) idx[i] = i;
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = sr_cmp_bits(type, sr_bits(type, keys, idx[b]), sr_bits(type, keys, idx[a])) < 0 ? idx[b++]
                                                                                                          : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (b < hi) tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, sizeof(int32_t) * (size_t)n);
    }
    free(tmp);
}

static uint64_t sr_rand(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* special values of each type, as bits */
static const uint64_t sr_special_f32[] = {
    0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu, 0xffffffffu, /* NaNs */
    0x7f800000u, 0xff800000u, /* +-inf */
    0x00000000u, 0x80000000u, /* +-0 */
    0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, /* denormals */
    0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u, 0x00800000u, 0x80800000u};
static const uint64_t sr_special_f64[] = {
    0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull, 0xfff0000000000001ull,
    0x7fffffffffffffffull, 0xffffffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x8000000000000001ull,
    0x000fffffffffffffull, 0x800fffffffffffffull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
    0x3ff0000000000000ull, 0xbff0000000000000ull};
static const uint64_t sr_special_i32[] = {0x80000000u, 0x80000001u, 0x7fffffffu, 0x7ffffffeu, 0u, 1u,
                                          0xffffffffu, 0xfffffffeu, 0x00010000u, 0xffff0000u};
static const uint64_t sr_special_i64[] = {0x8000000000000000ull, 0x8000000000000001ull, 0x7fffffffffffffffull,
                                          0x7ffffffffffffffeull, 0ull, 1ull, 0xffffffffffffffffull,
                                          0xfffffffffffffffeull, 0x00000000ffffffffull, 0xffffffff00000000ull};
static uint64_t sr_special(int type, uint64_t r) {
    switch (type) {
    case SR_F32: return sr_special_f32[r % (sizeof(sr_special_f32) / 8)];
    case SR_F64: return sr_special_f64[r % (sizeof(sr_special_f64) / 8)];
    case SR_I32:
    case SR_U32: return sr_special_i32[r % (sizeof(sr_special_i32) / 8)];
    default: return sr_special_i64[r % (sizeof(sr_special_i64) / 8)];
    }
}

/* keys[0..n) of the type, pattern p, seed */
static void sr_fill(int type, void *keys, int n, int p, uint64_t seed) {
    uint64_t s = seed * 0x2545f4914f6cdd1dull + (uint64_t)p * 977u + (uint64_t)type * 31u + (uint64_t)n;
    const int w = sr_type_size[type];
    const uint64_t mask = w == 4 ? 0xffffffffull : ~0ull;
    const int is_f = type == SR_F32 || type == SR_F64;
    uint64_t few[5];
    for (int k = 0; k < 5; ++k) few[k] = sr_special(type, sr_rand(&s));
    few[3] = 0; /* +0.0 next to ... */
    few[4] = w == 4 ? 0x80000000ull : 0x8000000000000000ull; /* -0.0 (INT_MIN for ints) */
    const uint64_t eq = sr_rand(&s) & mask;
    for (int i = 0; i < n; ++i) {
        uint64_t r = sr_rand(&s), b;
        switch (p) {
        case 0: b = r; break;
        case 1: b = few[r % 5]; break;
        case 4: b = eq; break;
        case 5: b = (r & 3) ? sr_special(type, r >> 8) : r; break;
        case 6: b = r % 23u; /* ints 0..22; floats: 1.0 plus a few ulps */
            if (type == SR_F32) b = 0x3f800000u | (uint64_t)(r % 7u); /* 1.0 + a few ulps */
            if (type == SR_F64) b = 0x3ff0000000000000ull | (uint64_t)(r % 7u);
            break;
        case 7:
            if (is_f) b = w == 4 ? (0xc0000000u | (r & 0x007fffffu)) : (0xc000000000000000ull | (r & 0x000fffffffffffffull));
            else b = ~(uint64_t)(r % 1000u); /* high bits all set */
            break;
        default: b = r; break; /* 2, 3: sorted below */
        }
        sr_set_bits(type, keys, i, b & mask);
    }
    if (p == 2 || p == 3) {
        int32_t *idx = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
        char *tmp = (char *)malloc((size_t)w * (size_t)(n > 0 ? n : 1));
        sr_sort_index(type, keys, n, idx);
        for (int i = 0; i < n; ++i)
            memcpy(tmp + (size_t)w * (size_t)(p == 2 ? i : n - 1 - i), (char *)keys + (size_t)w * (size_t)idx[i],
                   (size_t)w);
        memcpy(keys, tmp, (size_t)w * (size_t)n);
        free(idx);
        free(tmp);
    }
}

/* ---- references for the descending / bit-range / f16 / per-row / merge
 * sorts (plain C: ordered keys and qsort with the input index as the tie
 * break, i.e. a stable sort) ---- */
enum { VX_F16 = SR_NTYPES, VX_BF16, VX_NTYPES };
TILE__UNUSED static const char *const vx_type_name[VX_NTYPES] = {"f32", "f64", "i32", "u32", "i64", "u64", "f16", "bf16"};
static int vx_size(int type) { return type >= SR_NTYPES ? 2 : sr_type_size[type]; }
static uint64_t vx_bits(int type, const void *p, long i) {
    if (vx_size(type) == 2) {
        uint16_t b;
        memcpy(&b, (const char *)p + 2 * i, 2);
        return b;
    }
    return sr_bits(type, p, i);
}

/* mismatches of got (keys, and indices when got_idx) against the expected
 * order idx of in; the first one's position in *first (-1 if none) */
static long sr_mismatches(int type, const void *in, int n, const void *got, const int32_t *got_idx,
                          const int32_t *idx, long *first) {
    long bad = 0;
    *first = -1;
    for (int i = 0; i < n; ++i) {
        int ok = vx_bits(type, got, i) == vx_bits(type, in, idx[i]);
        if (got_idx) ok = ok && got_idx[i] == idx[i];
        if (!ok) {
            if (*first < 0) *first = i;
            ++bad;
        }
    }
    return bad;
}

/* Compare a sorted result with the reference: got_keys bit for bit equal to
 * the stably sorted keys; got_idx (when not null) equal to the stable order
 * of input indices. Returns the number of mismatching elements; the first
 * one's position in *first (-1 if none). */
static long sr_check(int type, const void *in_keys, int n, const void *got_keys, const int32_t *got_idx,
                     long *first) {
    int32_t *idx = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
    sr_sort_index(type, in_keys, n, idx);
    const long bad = sr_mismatches(type, in_keys, n, got_keys, got_idx, idx, first);
    free(idx);
    return bad;
}

/* the key as an unsigned integer in the sort's order (IEEE totalOrder for
 * floats: sign-magnitude to offset binary; signed integers: offset binary) */
static uint64_t vx_ord(int type, uint64_t b) {
    switch (type) {
    case SR_F32: return (b & 0x80000000u) ? (~b & 0xffffffffu) : (b | 0x80000000u);
    case SR_F64: return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
    case SR_I32: return b ^ 0x80000000u;
    case SR_I64: return b ^ 0x8000000000000000ull;
    case VX_F16:
    case VX_BF16: return (b & 0x8000u) ? (~b & 0xffffu) : (b | 0x8000u);
    default: return b;
    }
}
typedef struct {
    uint64_t k;
    int32_t i;
} vx_rec;
static int vx_cmp(const void *a, const void *b) {
    const vx_rec *x = (const vx_rec *)a, *y = (const vx_rec *)b;
    if (x->k != y->k) return x->k < y->k ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}
/* idx[0..n): the stable order of keys[off + i*1] sorted ascending (desc 0) or
 * descending by bits [b0, b1) of the ordered key (b1 == 0: all bits) */
static void vx_ref(int type, const void *keys, int n, int desc, int b0, int b1, int32_t *idx) {
    const int w = 8 * vx_size(type);
    const uint64_t all = w == 64 ? ~0ull : (1ull << w) - 1;
    uint64_t m = all;
    if (b1) m = (b1 == 64 ? ~0ull : (1ull << b1) - 1) & ~((1ull << b0) - 1);
    vx_rec *r = (vx_rec *)malloc(sizeof(vx_rec) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; ++i) {
        uint64_t o = vx_ord(type, vx_bits(type, keys, i));
        if (desc) o ^= all;
        r[i].k = o & m;
        r[i].i = i;
    }
    qsort(r, (size_t)n, sizeof(vx_rec), vx_cmp);
    for (int i = 0; i < n; ++i) idx[i] = r[i].i;
    free(r);
}
/* mismatches of got (keys, and indices when got_idx) against vx_ref */
static long vx_check(int type, const void *in, int n, const void *got, const int32_t *got_idx, int desc, int b0,
                     int b1, long *first) {
    int32_t *idx = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
    vx_ref(type, in, n, desc, b0, b1, idx);
    const long bad = sr_mismatches(type, in, n, got, got_idx, idx, first);
    free(idx);
    return bad;
}
/* keys of any type: sr_fill for 4/8-byte types; 16-bit floats from the same
 * patterns' ideas (random bits, few values with +-0 and NaNs, specials) */
static void vx_fill(int type, void *keys, int n, int p, uint64_t seed) {
    if (vx_size(type) != 2) {
        sr_fill(type, keys, n, p, seed);
        return;
    }
    static const uint16_t sp[] = {0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7c00, 0xfc00, 0x0000, 0x8000,
                                  0x0001, 0x8001, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x3f80, 0xbf80};
    uint64_t s = seed * 77u + (uint64_t)p * 13u + (uint64_t)type;
    for (int i = 0; i < n; ++i) {
        const uint64_t r = sr_rand(&s);
        uint16_t b = (uint16_t)r;
        if (p == 1) b = sp[(r >> 20) % 6 + 5]; /* few values, -0 next to +0 */
        if (p == 4) b = 0x3c00;
        if (p == 5 && (r & 3)) b = sp[(r >> 8) % 16];
        if (p == 6) b = (uint16_t)(0x3c00 + r % 5);
        memcpy((char *)keys + 2 * i, &b, 2);
    }
}

#endif /* SORT_REF_H */
