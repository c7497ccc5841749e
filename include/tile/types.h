/* tile/types.h - element types of tiles and their arithmetic.
 *
 * Type families are stamped out by X-macros instead of templates: every type
 * has a suffix (f32, vec3f, mat33d, ...), a C type tile_<sfx> and functions
 * tile_<sfx>_<op>. The element-wise tile operations reach them through one
 * generic name per operation: _Generic in C, overloads under nvcc (C++).
 *
 *   tile_vec3f a = tile_vec3f_set(1, 2, 3);
 *   tile_vec3f b = tile_vec3f_mul_s(a, 2.0f);     // b = (2, 4, 6)
 *   tile_mat33f m = tile_mat33f_diag(496.0f);     // 496 * I
 *   tile_quatf q = tile_quatf_mul(tile_quatf_set(1, 0, 0, 0), tile_quatf_set(0, 1, 0, 0));
 *                                                 // i * j = k: (0, 0, 1, 0)
 *
 * Element types (docs/types.md):
 *   real scalars   f32 f64 i32 u32 i64 u64 i8 u8 (C types), f16 bf16 (tile/half.h:
 *                  16-bit structs, arithmetic in f32 rounded once)
 *   complex        c32 c64 (tile/complex.h: {re, im})
 *   vectors        vec2f vec3f vec4f, vec2d vec3d vec4d, vec2i vec3i vec4i (int32)
 *   matrices       mat22/33/44/66 of f32 (f) and f64 (d), row-major
 *   quaternions    quatf quatd: {x, y, z, w} (Warp's order, w the real part),
 *                  Hamilton product for q * q
 * Conversions between real scalars and to complex: tile_astype (tile/
 * elementwise.h) through TILE__CVT below: one rounding to the nearest (ties
 * to even) for every pair, float -> integer truncates toward zero and
 * saturates (NaN -> 0), as the GPU's cvt.rzi.sat does.
 */
#ifndef TILE_TYPES_H
#define TILE_TYPES_H

#include "config.h"
#include "platform.h" /* scalar atomics, for the component-wise ones */
#include "half.h"
#include "complex.h"

typedef float tile_f32;
typedef double tile_f64;
typedef int32_t tile_i32;
typedef uint32_t tile_u32;
typedef int64_t tile_i64;
typedef uint64_t tile_u64;
typedef int8_t tile_i8;
typedef uint8_t tile_u8;

/* X(sfx, C type) for the scalar types with atomics (other headers stamp
 * their per-type code from these lists). Listed twice so that the lists can
 * be nested (the preprocessor does not re-expand a macro inside itself). */
#define TILE_SCALAR_TYPES(X) \
    X(f32, float) X(f64, double) X(i32, int32_t) X(u32, uint32_t) X(i64, int64_t) X(u64, uint64_t)
#define TILE__SCALAR_TYPES_B(Y) \
    Y(f32, float) Y(f64, double) Y(i32, int32_t) Y(u32, uint32_t) Y(i64, int64_t) Y(u64, uint64_t)
/* 8-bit integers (Warp's int8 / uint8): compute in int and wrap back
 * (modulo 256); no atomics */
#define TILE_SMALL_INT_TYPES(X) X(i8, int8_t) X(u8, uint8_t)
/* every C scalar element type */
#define TILE__CSCALAR_TYPES(X) TILE_SCALAR_TYPES(X) TILE_SMALL_INT_TYPES(X)
#define TILE__CSCALAR_TYPES_B(Y) TILE__SCALAR_TYPES_B(Y) Y(i8, int8_t) Y(u8, uint8_t)
/* the 16-bit floats X(sfx, C type) and the complex types X(sfx, C type,
 * component type, component sfx) */
#define TILE_HALF_TYPES(X) X(f16, tile_f16) X(bf16, tile_bf16)
#define TILE_COMPLEX_TYPES(X) X(c32, tile_c32, float, f32) X(c64, tile_c64, double, f64)
/* every real scalar: X(sfx, C type) */
#define TILE__REAL_TYPES(X) TILE__CSCALAR_TYPES(X) TILE_HALF_TYPES(X)

/* X(sfx, scalar C type, scalar sfx, number of components) for vectors and
 * matrices. Vectors hold v[N], matrices m[R][C] (row-major). */
#define TILE_F32_COMPOUND_TYPES(X) \
    X(vec2f, float, f32, 2) X(vec3f, float, f32, 3) X(vec4f, float, f32, 4) \
    X(mat22f, float, f32, 4) X(mat33f, float, f32, 9) X(mat44f, float, f32, 16) X(mat66f, float, f32, 36)
#define TILE_F64_COMPOUND_TYPES(X) \
    X(vec2d, double, f64, 2) X(vec3d, double, f64, 3) X(vec4d, double, f64, 4) \
    X(mat22d, double, f64, 4) X(mat33d, double, f64, 9) X(mat44d, double, f64, 16) X(mat66d, double, f64, 36)
/* integer vectors (Warp's vec2i, vec3i, vec4i: int32 components) */
#define TILE_I32_COMPOUND_TYPES(X) X(vec2i, int32_t, i32, 2) X(vec3i, int32_t, i32, 3) X(vec4i, int32_t, i32, 4)
#define TILE_COMPOUND_TYPES(X) TILE_F32_COMPOUND_TYPES(X) TILE_F64_COMPOUND_TYPES(X)
/* every vector and matrix type (component-wise arithmetic) */
#define TILE__CW_TYPES(X) TILE_COMPOUND_TYPES(X) TILE_I32_COMPOUND_TYPES(X)
/* quaternions: component-wise like vectors, except q * q (Hamilton) */
#define TILE_QUAT_TYPES(X) X(quatf, float, f32, 4) X(quatd, double, f64, 4)
/* every element type with a generic add/sub/neg: X(sfx, ...) */
#define TILE__ALL_TYPES(X) \
    TILE__CSCALAR_TYPES(X) TILE__CW_TYPES(X) TILE_QUAT_TYPES(X) TILE_HALF_TYPES(X) TILE_COMPLEX_TYPES(X)

#define TILE__DEF_VEC(sfx, S, N) typedef struct { S v[N]; } tile_##sfx;
#define TILE__DEF_MAT(sfx, S, R) typedef struct { S m[R][R]; } tile_##sfx;
TILE__DEF_VEC(vec2f, float, 2)
TILE__DEF_VEC(vec3f, float, 3)
TILE__DEF_VEC(vec4f, float, 4)
TILE__DEF_VEC(vec2d, double, 2)
TILE__DEF_VEC(vec3d, double, 3)
TILE__DEF_VEC(vec4d, double, 4)
TILE__DEF_VEC(vec2i, int32_t, 2)
TILE__DEF_VEC(vec3i, int32_t, 3)
TILE__DEF_VEC(vec4i, int32_t, 4)
/* quaternion x i + y j + z k + w, stored x, y, z, w as in Warp */
typedef struct { float x, y, z, w; } tile_quatf;
typedef struct { double x, y, z, w; } tile_quatd;
TILE__DEF_MAT(mat22f, float, 2)
TILE__DEF_MAT(mat33f, float, 3)
TILE__DEF_MAT(mat44f, float, 4)
TILE__DEF_MAT(mat66f, float, 6)
TILE__DEF_MAT(mat22d, double, 2)
TILE__DEF_MAT(mat33d, double, 3)
TILE__DEF_MAT(mat44d, double, 4)
TILE__DEF_MAT(mat66d, double, 6)

/* ---- scalar functions: tile_f32_add(a, b) = a + b, ... ---- */
#define TILE__DEF_SCALAR_OPS(sfx, T)                                              \
    TILE_API T tile_##sfx##_add(T a, T b) { return (T)(a + b); }                 \
    TILE_API T tile_##sfx##_sub(T a, T b) { return (T)(a - b); }                 \
    TILE_API T tile_##sfx##_neg(T a) { return (T)(0 - a); }                      \
    TILE_API T tile_##sfx##_mul(T a, T b) { return (T)(a * b); }                 \
    TILE_API T tile_##sfx##_div(T a, T b) { return (T)(a / b); }                 \
    TILE_API T tile_##sfx##_full(T s) { return s; }
TILE__CSCALAR_TYPES(TILE__DEF_SCALAR_OPS)

/* ---- vector / matrix functions, component-wise through a flat view ----
 *   tile_vec3f_add(a, b), _sub, _neg      component-wise
 *   tile_vec3f_mul_s(v, s) = v * s        tile_vec3f_s_mul(s, v) = s * v
 *   tile_vec3f_div_s(v, s) = v / s        tile_vec3f_s_div(s, v) = s / v (per component)
 *   tile_vec3f_full(s)     all components s */
#define TILE__CW1(T, S, N, expr)                                                  \
    T r;                                                                          \
    S *rp = (S *)&r;                                                              \
    for (int k = 0; k < N; ++k) rp[k] = (expr);                                   \
    return r;
#define TILE__DEF_COMPOUND_OPS(sfx, S, ssfx, N)                                   \
    TILE_API tile_##sfx tile_##sfx##_add(tile_##sfx a, tile_##sfx b) {            \
        const S *ap = (const S *)&a, *bp = (const S *)&b;                         \
        TILE__CW1(tile_##sfx, S, N, ap[k] + bp[k])                                \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_sub(tile_##sfx a, tile_##sfx b) {            \
        const S *ap = (const S *)&a, *bp = (const S *)&b;                         \
        TILE__CW1(tile_##sfx, S, N, ap[k] - bp[k])                                \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_neg(tile_##sfx a) {                          \
        const S *ap = (const S *)&a;                                              \
        TILE__CW1(tile_##sfx, S, N, -ap[k])                                       \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_mul_s(tile_##sfx a, S s) {                   \
        const S *ap = (const S *)&a;                                              \
        TILE__CW1(tile_##sfx, S, N, ap[k] * s)                                    \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_s_mul(S s, tile_##sfx a) {                   \
        const S *ap = (const S *)&a;                                              \
        TILE__CW1(tile_##sfx, S, N, s * ap[k])                                    \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_div_s(tile_##sfx a, S s) {                   \
        const S *ap = (const S *)&a;                                              \
        TILE__CW1(tile_##sfx, S, N, ap[k] / s)                                    \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_s_div(S s, tile_##sfx a) {                   \
        const S *ap = (const S *)&a;                                              \
        TILE__CW1(tile_##sfx, S, N, s / ap[k])                                    \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_full(S s) { TILE__CW1(tile_##sfx, S, N, s) }
TILE__CW_TYPES(TILE__DEF_COMPOUND_OPS)
TILE_QUAT_TYPES(TILE__DEF_COMPOUND_OPS)

/* Quaternions (Warp's quat): q = x i + y j + z k + w.
 *   tile_quatf_set(x, y, z, w)      tile_quatf_identity() = (0, 0, 0, 1)
 *   tile_quatf_mul(a, b)            Hamilton product a b (i j = k, j i = -k)
 *   tile_quatf_conj(q)              (-x, -y, -z, w)
 *   tile_quatf_rotate(q, v), tile_quatf_rotate_inv(q, v)   v a tile_vec3f (below)
 *   add, sub, neg, mul_s, s_mul, div_s, s_div, full: component-wise
 * Suppose a = (1, 2, 3, 4), b = (5, 6, 7, 8): tile_quatf_mul(a, b) = (24, 48, 48, -6). */
#define TILE__DEF_QUAT(sfx, S)                                                    \
    TILE_API tile_##sfx tile_##sfx##_set(S x, S y, S z, S w) {                    \
        tile_##sfx r;                                                             \
        r.x = x; r.y = y; r.z = z; r.w = w;                                       \
        return r;                                                                 \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_identity(void) { return tile_##sfx##_set(0, 0, 0, 1); } \
    TILE_API tile_##sfx tile_##sfx##_conj(tile_##sfx q) { return tile_##sfx##_set(-q.x, -q.y, -q.z, q.w); } \
    TILE_API tile_##sfx tile_##sfx##_mul(tile_##sfx a, tile_##sfx b) {            \
        return tile_##sfx##_set(a.w * b.x + b.w * a.x + a.y * b.z - b.y * a.z,    \
                                a.w * b.y + b.w * a.y + a.z * b.x - b.z * a.x,    \
                                a.w * b.z + b.w * a.z + a.x * b.y - b.x * a.y,    \
                                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);   \
    }
TILE__DEF_QUAT(quatf, float)
TILE__DEF_QUAT(quatd, double)
/* Rotation of a 3-vector by a unit quaternion, Warp's quat_rotate and
 * quat_rotate_inv (q v q* and q* v q, without forming the products):
 *   q = (0, 0, sin(pi/4), cos(pi/4)) (90 degrees about z):
 *   tile_quatf_rotate(q, (1, 0, 0)) = (0, 1, 0), tile_quatf_rotate_inv(q, (1, 0, 0)) = (0, -1, 0) */
#define TILE__DEF_QUAT_ROT(sfx, S, vsfx)                                          \
    TILE_API tile_##vsfx tile__##sfx##_rot(tile_##sfx q, tile_##vsfx x, S sgn) {  \
        const S c = (S)2 * q.w * q.w - (S)1;                                      \
        const S d = (S)2 * (q.x * x.v[0] + q.y * x.v[1] + q.z * x.v[2]);          \
        const S w2 = sgn * (S)2 * q.w;                                            \
        return tile_##vsfx##_set(x.v[0] * c + q.x * d + (q.y * x.v[2] - q.z * x.v[1]) * w2, \
                                 x.v[1] * c + q.y * d + (q.z * x.v[0] - q.x * x.v[2]) * w2, \
                                 x.v[2] * c + q.z * d + (q.x * x.v[1] - q.y * x.v[0]) * w2); \
    }                                                                             \
    TILE_API tile_##vsfx tile_##sfx##_rotate(tile_##sfx q, tile_##vsfx x) { return tile__##sfx##_rot(q, x, (S)1); } \
    TILE_API tile_##vsfx tile_##sfx##_rotate_inv(tile_##sfx q, tile_##vsfx x) { return tile__##sfx##_rot(q, x, (S)-1); }

/* Constructors.
 *   tile_vec3f_set(1, 2, 3)   -> (1, 2, 3)
 *   tile_mat33f_diag(2)       -> 2 * I
 *   tile_mat33f_identity()    -> I */
TILE_API tile_vec2f tile_vec2f_set(float x, float y) { tile_vec2f r = {{x, y}}; return r; }
TILE_API tile_vec3f tile_vec3f_set(float x, float y, float z) { tile_vec3f r = {{x, y, z}}; return r; }
TILE_API tile_vec4f tile_vec4f_set(float x, float y, float z, float w) { tile_vec4f r = {{x, y, z, w}}; return r; }
TILE_API tile_vec2d tile_vec2d_set(double x, double y) { tile_vec2d r = {{x, y}}; return r; }
TILE_API tile_vec3d tile_vec3d_set(double x, double y, double z) { tile_vec3d r = {{x, y, z}}; return r; }
TILE_API tile_vec4d tile_vec4d_set(double x, double y, double z, double w) { tile_vec4d r = {{x, y, z, w}}; return r; }
TILE_API tile_vec2i tile_vec2i_set(int32_t x, int32_t y) { tile_vec2i r = {{x, y}}; return r; }
TILE_API tile_vec3i tile_vec3i_set(int32_t x, int32_t y, int32_t z) { tile_vec3i r = {{x, y, z}}; return r; }
TILE_API tile_vec4i tile_vec4i_set(int32_t x, int32_t y, int32_t z, int32_t w) { tile_vec4i r = {{x, y, z, w}}; return r; }
TILE__DEF_QUAT_ROT(quatf, float, vec3f)
TILE__DEF_QUAT_ROT(quatd, double, vec3d)
#define TILE__DEF_MAT_CTORS(sfx, S, R)                                            \
    TILE_API tile_##sfx tile_##sfx##_diag(S s) {                                  \
        tile_##sfx r;                                                             \
        for (int i = 0; i < R; ++i)                                               \
            for (int j = 0; j < R; ++j) r.m[i][j] = (S)(i == j ? s : 0);          \
        return r;                                                                 \
    }                                                                             \
    TILE_API tile_##sfx tile_##sfx##_identity(void) { return tile_##sfx##_diag((S)1); }
TILE__DEF_MAT_CTORS(mat22f, float, 2)
TILE__DEF_MAT_CTORS(mat33f, float, 3)
TILE__DEF_MAT_CTORS(mat44f, float, 4)
TILE__DEF_MAT_CTORS(mat66f, float, 6)
TILE__DEF_MAT_CTORS(mat22d, double, 2)
TILE__DEF_MAT_CTORS(mat33d, double, 3)
TILE__DEF_MAT_CTORS(mat44d, double, 4)
TILE__DEF_MAT_CTORS(mat66d, double, 6)

/* ---- element-type checks of the generic operations ----
 * Each type has an id: scalar id 1..10 (f32 f64 i32 u32 i64 u64 i8 u8 f16
 * bf16), plus 16 * k for a vector, matrix, quaternion (k = 8) or complex
 * (k = 9) of that scalar; 0 = not an element type. The operations below
 * refuse at compile time, with one line naming the operation:
 *   an unsupported element type (a user struct, long double, char, ...):
 *     "tile.h: tile_add: unsupported element type (...)"; the C compiler's
 *     next line names the type (_Generic selector of type 'struct foo'), the
 *     C++ one says "[with A = foo, ...]";
 *   tile_add / tile_sub of different element types (f32 + f64): no silent
 *     conversion (C) and no ambiguous overload (C++):
 *     "tile.h: tile_add: operands have different element types (convert one
 *     with tile_astype)";
 *   tile_astype between types with no conversion (vec3f -> f32, c32 -> f32),
 *   or a tile_map whose function returns such a type for the destination:
 *     "tile.h: tile_astype / tile_map: no conversion between these element types". */
enum {
    TILE__TID_f32 = 1, TILE__TID_f64 = 2, TILE__TID_i32 = 3, TILE__TID_u32 = 4, TILE__TID_i64 = 5, TILE__TID_u64 = 6,
    TILE__TID_i8 = 7, TILE__TID_u8 = 8, TILE__TID_f16 = 9, TILE__TID_bf16 = 10,
    TILE__TID_vec2f = 1 + 16 * 1, TILE__TID_vec3f = 1 + 16 * 2, TILE__TID_vec4f = 1 + 16 * 3,
    TILE__TID_mat22f = 1 + 16 * 4, TILE__TID_mat33f = 1 + 16 * 5, TILE__TID_mat44f = 1 + 16 * 6,
    TILE__TID_mat66f = 1 + 16 * 7,
    TILE__TID_vec2d = 2 + 16 * 1, TILE__TID_vec3d = 2 + 16 * 2, TILE__TID_vec4d = 2 + 16 * 3,
    TILE__TID_mat22d = 2 + 16 * 4, TILE__TID_mat33d = 2 + 16 * 5, TILE__TID_mat44d = 2 + 16 * 6,
    TILE__TID_mat66d = 2 + 16 * 7,
    TILE__TID_vec2i = 3 + 16 * 1, TILE__TID_vec3i = 3 + 16 * 2, TILE__TID_vec4i = 3 + 16 * 3,
    TILE__TID_quatf = 1 + 16 * 8, TILE__TID_quatd = 2 + 16 * 8,
    TILE__TID_c32 = 1 + 16 * 9, TILE__TID_c64 = 2 + 16 * 9
};
/* real scalar, complex; a tile_astype that converts (both known) */
#define TILE__TID_REAL(id) ((id) >= 1 && (id) <= 10)
#define TILE__TID_CPLX(id) ((id) == TILE__TID_c32 || (id) == TILE__TID_c64)
#define TILE__TID_CVT_OK(d, s)                                                    \
    ((d) == 0 || (s) == 0 || (d) == (s) || (TILE__TID_REAL(d) && TILE__TID_REAL(s)) || \
     (TILE__TID_CPLX(d) && (TILE__TID_REAL(s) || TILE__TID_CPLX(s))))
#define TILE__UNSUPPORTED_MSG(op)                                                   \
    "tile.h: " op ": unsupported element type (supported: f32 f64 i32 u32 i64 u64 i8 u8 f16 bf16 c32 c64, " \
    "vec2/3/4 of f32, f64 or i32, mat22/33/44/66 of f32 or f64, quatf quatd)"
#define TILE__MIXED_MSG(op) "tile.h: " op ": operands have different element types (convert one with tile_astype)"
#define TILE__CVT_MSG "tile.h: tile_astype / tile_map: no conversion between these element types (real <-> real, real or complex -> complex, or the same type)"
#if defined(__cplusplus)
/* C++ (nvcc, host C++): the checks are class templates, instantiated where
 * the operation is used, so the message comes first and names the types. */
template <class T> struct tile__tid { enum { value = 0 }; };
#define TILE__TID_SPEC(sfx, ...) \
    template <> struct tile__tid<tile_##sfx> { enum { value = TILE__TID_##sfx }; };
TILE__ALL_TYPES(TILE__TID_SPEC)
template <class T> struct tile__bare { typedef T type; };
template <class T> struct tile__bare<T &> { typedef typename tile__bare<T>::type type; };
template <class T> struct tile__bare<const T> { typedef typename tile__bare<T>::type type; };
template <class T> struct tile__bare<volatile T> { typedef typename tile__bare<T>::type type; };
template <class T> struct tile__bare<const volatile T> { typedef typename tile__bare<T>::type type; };
#define TILE__ET(x) typename tile__bare<decltype(x)>::type
#define TILE__DEF_CHECK1(name, op)                                                \
    template <class A> struct tile__check_##name {                                \
        static_assert(tile__tid<A>::value != 0, TILE__UNSUPPORTED_MSG(op));       \
        enum { ok = 1 };                                                          \
    };
#define TILE__DEF_CHECK2(name, op)                                                \
    template <class A, class B> struct tile__check_##name {                       \
        static_assert(tile__tid<A>::value != 0 && tile__tid<B>::value != 0, TILE__UNSUPPORTED_MSG(op)); \
        static_assert(tile__tid<A>::value == 0 || tile__tid<B>::value == 0 ||     \
                          (int)tile__tid<A>::value == (int)tile__tid<B>::value,   \
                      TILE__MIXED_MSG(op));                                       \
        enum { ok = 1 };                                                          \
    };
TILE__DEF_CHECK2(add, "tile_add")
TILE__DEF_CHECK2(sub, "tile_sub")
TILE__DEF_CHECK1(neg, "tile_neg")
TILE__DEF_CHECK1(mul, "tile_mul")
TILE__DEF_CHECK1(div, "tile_div")
TILE__DEF_CHECK1(fill, "tile_ones")
/* tile by tile products: one scalar type (f32 by vec3f is fine, f32 by f64 is not) */
#define TILE__DEF_CHECK_TT(name, op)                                              \
    template <class A, class B> struct tile__check_##name {                       \
        static_assert(tile__tid<A>::value != 0 && tile__tid<B>::value != 0, TILE__UNSUPPORTED_MSG(op)); \
        static_assert(tile__tid<A>::value == 0 || tile__tid<B>::value == 0 ||     \
                          (int)tile__tid<A>::value % 16 == (int)tile__tid<B>::value % 16, \
                      TILE__MIXED_MSG(op));                                       \
        enum { ok = 1 };                                                          \
    };
TILE__DEF_CHECK_TT(mul_tt, "tile_mul")
TILE__DEF_CHECK_TT(div_tt, "tile_div")
template <class D, class S> struct tile__check_cvt {
    static_assert(TILE__TID_CVT_OK((int)tile__tid<D>::value, (int)tile__tid<S>::value), TILE__CVT_MSG);
    enum { ok = 1 };
};
#define TILE__CHECK1(name, a) ((void)sizeof(tile__check_##name<TILE__ET(a)>))
#define TILE__CHECK2(name, a, b) ((void)sizeof(tile__check_##name<TILE__ET(a), TILE__ET(b)>))
#else
/* C: a _Static_assert inside a struct inside sizeof is an expression */
#define TILE__A_TID(sfx, ...) , tile_##sfx : TILE__TID_##sfx
#define TILE__TID(x) _Generic((x) TILE__ALL_TYPES(TILE__A_TID), default: 0)
#define TILE__EXPR_ASSERT(c, msg) ((void)sizeof(struct { _Static_assert(c, msg); int tile__x; }))
#define TILE__CHECK1_(op, a) TILE__EXPR_ASSERT(TILE__TID(a) != 0, TILE__UNSUPPORTED_MSG(op))
#define TILE__CHECK2_(op, a, b)                                                   \
    (TILE__EXPR_ASSERT(TILE__TID(a) != 0 && TILE__TID(b) != 0, TILE__UNSUPPORTED_MSG(op)), \
     TILE__EXPR_ASSERT(TILE__TID(a) == 0 || TILE__TID(b) == 0 || TILE__TID(a) == TILE__TID(b), \
                       TILE__MIXED_MSG(op)))
#define TILE__OPNAME_add "tile_add"
#define TILE__OPNAME_sub "tile_sub"
#define TILE__OPNAME_neg "tile_neg"
#define TILE__OPNAME_mul "tile_mul"
#define TILE__OPNAME_div "tile_div"
#define TILE__OPNAME_fill "tile_ones"
#define TILE__CHECK_TT_(op, a, b)                                                 \
    (TILE__EXPR_ASSERT(TILE__TID(a) != 0 && TILE__TID(b) != 0, TILE__UNSUPPORTED_MSG(op)), \
     TILE__EXPR_ASSERT(TILE__TID(a) == 0 || TILE__TID(b) == 0 || TILE__TID(a) % 16 == TILE__TID(b) % 16, \
                       TILE__MIXED_MSG(op)))
#define TILE__CHECK_mul_tt(a, b) TILE__CHECK_TT_("tile_mul", a, b)
#define TILE__CHECK_div_tt(a, b) TILE__CHECK_TT_("tile_div", a, b)
/* (a source outside the tile types converts when it is a C arithmetic type
 * and the destination real or complex, or the destination is no tile type) */
#define TILE__CHECK_CVT(d, s)                                                     \
    TILE__EXPR_ASSERT(TILE__TID(s) != 0 ? TILE__TID_CVT_OK(TILE__TID(d), TILE__TID(s))     \
                                        : TILE__TID(d) == 0 || (TILE__IS_OTHER_ARITH(s) && \
                                          (TILE__TID_REAL(TILE__TID(d)) || TILE__TID_CPLX(TILE__TID(d)))), \
                      TILE__CVT_MSG)
#define TILE__CHECK1(name, a) TILE__CHECK1_(TILE__OPNAME_##name, a)
#define TILE__CHECK2(name, a, b) TILE__CHECK2_(TILE__OPNAME_##name, a, b)
#endif

/* ---- generic dispatch used by the tile operations ----
 * TILE__G_ADD(a, b) etc. pick tile_<sfx>_add from the operand type.
 * Multiplication and division follow Warp's promotion rule: same types, or
 * one scalar operand and a vector/matrix/quaternion/complex of that scalar.
 * A mixed scalar pair such as (float, double) takes the tile element's type:
 * the first operand's for tile∘tile and tile∘constant, the second's for
 * constant∘tile (so 7 / t on a double tile divides in double). An f16 / bf16
 * element with a C scalar computes in f32 (the scalar converted to float).
 * Vector x vector has no association and does not compile; quaternion x
 * quaternion is the Hamilton product, complex x complex the complex one. */
/* real or complex scalar types that scale S-typed compounds: X(sfx, S, ssfx, N) */
#define TILE__F32_SCALED(X) TILE_F32_COMPOUND_TYPES(X) X(quatf, float, f32, 4) X(c32, float, f32, 2)
#define TILE__F64_SCALED(X) TILE_F64_COMPOUND_TYPES(X) X(quatd, double, f64, 4) X(c64, double, f64, 2)
#if defined(__cplusplus)

#define TILE__OV1(sfx, T)                                                         \
    TILE_API T tile__g_add(T a, T b) { return tile_##sfx##_add(a, b); }          \
    TILE_API T tile__g_sub(T a, T b) { return tile_##sfx##_sub(a, b); }          \
    TILE_API T tile__g_neg(T a) { return tile_##sfx##_neg(a); }
#define TILE__OV_SCALAR(sfx, T) TILE__OV1(sfx, T)
#define TILE__OV_COMPOUND(sfx, S, ssfx, N)                                        \
    TILE__OV1(sfx, tile_##sfx)                                                    \
    TILE_API tile_##sfx tile__g_mul(tile_##sfx a, S s) { return tile_##sfx##_mul_s(a, s); } \
    TILE_API tile_##sfx tile__g_mul(S s, tile_##sfx a) { return tile_##sfx##_s_mul(s, a); } \
    TILE_API tile_##sfx tile__g_div(tile_##sfx a, S s) { return tile_##sfx##_div_s(a, s); } \
    TILE_API tile_##sfx tile__g_div(S s, tile_##sfx a) { return tile_##sfx##_s_div(s, a); }
TILE__CSCALAR_TYPES(TILE__OV_SCALAR)
TILE__CW_TYPES(TILE__OV_COMPOUND)
TILE_QUAT_TYPES(TILE__OV_COMPOUND)
#define TILE__OV_COMPLEX(sfx, T, S, ssfx) TILE__OV_COMPOUND(sfx, S, ssfx, 2)
TILE_COMPLEX_TYPES(TILE__OV_COMPLEX)
/* quaternion and complex products of two, complex quotient */
#define TILE__OV_SELF_MUL(sfx, ...) \
    TILE_API tile_##sfx tile__g_mul(tile_##sfx a, tile_##sfx b) { return tile_##sfx##_mul(a, b); }
#define TILE__OV_SELF_DIV(sfx, ...) \
    TILE_API tile_##sfx tile__g_div(tile_##sfx a, tile_##sfx b) { return tile_##sfx##_div(a, b); }
TILE_QUAT_TYPES(TILE__OV_SELF_MUL)
TILE_COMPLEX_TYPES(TILE__OV_SELF_MUL)
TILE_COMPLEX_TYPES(TILE__OV_SELF_DIV)
/* 16-bit floats: with each other, or with a scalar converted to f32 */
#define TILE__OV_HALF(sfx, T)                                                     \
    TILE__OV1(sfx, T)                                                             \
    TILE__OV_SELF_MUL(sfx, T)                                                     \
    TILE__OV_SELF_DIV(sfx, T)                                                     \
    TILE_API T tile__g_mul(T a, float s) { return tile_##sfx##_mul_s(a, s); }    \
    TILE_API T tile__g_div(T a, float s) { return tile_##sfx##_div_s(a, s); }    \
    TILE_API T tile__g_kmul(float k, T e) { return tile_##sfx##_s_mul(k, e); }   \
    TILE_API T tile__g_kdiv(float k, T e) { return tile_##sfx##_s_div(k, e); }   \
    TILE_API T tile__g_kmul(T k, T e) { return tile_##sfx##_mul(k, e); }         \
    TILE_API T tile__g_kdiv(T k, T e) { return tile_##sfx##_div(k, e); }
TILE_HALF_TYPES(TILE__OV_HALF)
/* every (scalar, scalar) pair: result in the first operand's type */
#define TILE__OV_PAIR_DEF(sa, A, sb, B)                                           \
    TILE_API A tile__g_mul(A a, B b) { return tile_##sa##_mul(a, (A)b); }        \
    TILE_API A tile__g_div(A a, B b) { return tile_##sa##_div(a, (A)b); }
#define TILE__OV_CELL_f32(sb, B) TILE__OV_PAIR_DEF(f32, float, sb, B)
#define TILE__OV_CELL_f64(sb, B) TILE__OV_PAIR_DEF(f64, double, sb, B)
#define TILE__OV_CELL_i32(sb, B) TILE__OV_PAIR_DEF(i32, int32_t, sb, B)
#define TILE__OV_CELL_u32(sb, B) TILE__OV_PAIR_DEF(u32, uint32_t, sb, B)
#define TILE__OV_CELL_i64(sb, B) TILE__OV_PAIR_DEF(i64, int64_t, sb, B)
#define TILE__OV_CELL_u64(sb, B) TILE__OV_PAIR_DEF(u64, uint64_t, sb, B)
#define TILE__OV_CELL_i8(sb, B) TILE__OV_PAIR_DEF(i8, int8_t, sb, B)
#define TILE__OV_CELL_u8(sb, B) TILE__OV_PAIR_DEF(u8, uint8_t, sb, B)
TILE__CSCALAR_TYPES_B(TILE__OV_CELL_f32)
TILE__CSCALAR_TYPES_B(TILE__OV_CELL_f64)
TILE__CSCALAR_TYPES_B(TILE__OV_CELL_i32)
TILE__CSCALAR_TYPES_B(TILE__OV_CELL_u32)
TILE__CSCALAR_TYPES_B(TILE__OV_CELL_i64)
TILE__CSCALAR_TYPES_B(TILE__OV_CELL_u64)
TILE__CSCALAR_TYPES_B(TILE__OV_CELL_i8)
TILE__CSCALAR_TYPES_B(TILE__OV_CELL_u8)

#define TILE__OV_FULL_S(sfx, T) \
    TILE_API void tile__g_full(T *d, double s) { *d = (T)s; }
#define TILE__OV_FULL_C(sfx, S, ...) \
    TILE_API void tile__g_full(tile_##sfx *d, double s) { *d = tile_##sfx##_full((S)s); }
#define TILE__OV_FULL_H(sfx, T) \
    TILE_API void tile__g_full(T *d, double s) { *d = tile_f64_to_##sfx(s); }
#define TILE__OV_FULL_X(sfx, T, S, ssfx) TILE__OV_FULL_C(sfx, S, ssfx)
TILE__CSCALAR_TYPES(TILE__OV_FULL_S)
TILE__CW_TYPES(TILE__OV_FULL_C)
TILE_QUAT_TYPES(TILE__OV_FULL_C)
TILE_HALF_TYPES(TILE__OV_FULL_H)
TILE_COMPLEX_TYPES(TILE__OV_FULL_X)
#define TILE__G_FULL(dst, s) (TILE__CHECK1(fill, dst), tile__g_full(&(dst), (double)(s)))
/* constant first (k * e, k / e): a scalar pair takes the tile element's type */
#define TILE__OV_KPAIR_DEF(sa, A, sb, B)                                          \
    TILE_API A tile__g_kmul(B k, A e) { return tile_##sa##_mul((A)k, e); }       \
    TILE_API A tile__g_kdiv(B k, A e) { return tile_##sa##_div((A)k, e); }
#define TILE__OV_KCELL_f32(sb, B) TILE__OV_KPAIR_DEF(f32, float, sb, B)
#define TILE__OV_KCELL_f64(sb, B) TILE__OV_KPAIR_DEF(f64, double, sb, B)
#define TILE__OV_KCELL_i32(sb, B) TILE__OV_KPAIR_DEF(i32, int32_t, sb, B)
#define TILE__OV_KCELL_u32(sb, B) TILE__OV_KPAIR_DEF(u32, uint32_t, sb, B)
#define TILE__OV_KCELL_i64(sb, B) TILE__OV_KPAIR_DEF(i64, int64_t, sb, B)
#define TILE__OV_KCELL_u64(sb, B) TILE__OV_KPAIR_DEF(u64, uint64_t, sb, B)
#define TILE__OV_KCELL_i8(sb, B) TILE__OV_KPAIR_DEF(i8, int8_t, sb, B)
#define TILE__OV_KCELL_u8(sb, B) TILE__OV_KPAIR_DEF(u8, uint8_t, sb, B)
TILE__CSCALAR_TYPES_B(TILE__OV_KCELL_f32)
TILE__CSCALAR_TYPES_B(TILE__OV_KCELL_f64)
TILE__CSCALAR_TYPES_B(TILE__OV_KCELL_i32)
TILE__CSCALAR_TYPES_B(TILE__OV_KCELL_u32)
TILE__CSCALAR_TYPES_B(TILE__OV_KCELL_i64)
TILE__CSCALAR_TYPES_B(TILE__OV_KCELL_u64)
TILE__CSCALAR_TYPES_B(TILE__OV_KCELL_i8)
TILE__CSCALAR_TYPES_B(TILE__OV_KCELL_u8)
#define TILE__OV_KCOMPOUND(sfx, S, ssfx, N)                                       \
    TILE_API tile_##sfx tile__g_kmul(tile_##sfx k, S e) { return tile_##sfx##_mul_s(k, e); } \
    TILE_API tile_##sfx tile__g_kmul(S k, tile_##sfx e) { return tile_##sfx##_s_mul(k, e); } \
    TILE_API tile_##sfx tile__g_kdiv(tile_##sfx k, S e) { return tile_##sfx##_div_s(k, e); } \
    TILE_API tile_##sfx tile__g_kdiv(S k, tile_##sfx e) { return tile_##sfx##_s_div(k, e); }
TILE__CW_TYPES(TILE__OV_KCOMPOUND)
TILE_QUAT_TYPES(TILE__OV_KCOMPOUND)
#define TILE__OV_KCOMPLEX(sfx, T, S, ssfx) TILE__OV_KCOMPOUND(sfx, S, ssfx, 2)
TILE_COMPLEX_TYPES(TILE__OV_KCOMPLEX)
#define TILE__OV_KSELF_MUL(sfx, ...) \
    TILE_API tile_##sfx tile__g_kmul(tile_##sfx k, tile_##sfx e) { return tile_##sfx##_mul(k, e); }
#define TILE__OV_KSELF_DIV(sfx, ...) \
    TILE_API tile_##sfx tile__g_kdiv(tile_##sfx k, tile_##sfx e) { return tile_##sfx##_div(k, e); }
TILE_QUAT_TYPES(TILE__OV_KSELF_MUL)
TILE_COMPLEX_TYPES(TILE__OV_KSELF_MUL)
TILE_COMPLEX_TYPES(TILE__OV_KSELF_DIV)
#define TILE__G_KMUL(k, e) (TILE__CHECK1(mul, e), tile__g_kmul((k), (e)))
#define TILE__G_KDIV(k, e) (TILE__CHECK1(div, e), tile__g_kdiv((k), (e)))

/* Reached only after TILE__CHECK2 / TILE__CHECK1 refused the types: they
 * keep a second, ambiguous-overload error from burying the first. */
template <class A, class B>
static TILE_HD __forceinline__ A tile__g_add(A a, B) { return a; }
template <class A, class B>
static TILE_HD __forceinline__ A tile__g_sub(A a, B) { return a; }
template <class A>
static TILE_HD __forceinline__ A tile__g_neg(A a) { return a; }
#define TILE__G_ADD(a, b) (TILE__CHECK2(add, a, b), tile__g_add((a), (b)))
#define TILE__G_SUB(a, b) (TILE__CHECK2(sub, a, b), tile__g_sub((a), (b)))
#define TILE__G_NEG(a) (TILE__CHECK1(neg, a), tile__g_neg((a)))
#define TILE__G_MUL(a, b) (TILE__CHECK1(mul, a), tile__g_mul((a), (b)))
#define TILE__G_DIV(a, b) (TILE__CHECK1(div, a), tile__g_div((a), (b)))
/* tile by tile (tile_mul, tile_div): the element types share one scalar type */
#define TILE__G_MUL_TT(a, b) (TILE__CHECK2(mul_tt, a, b), tile__g_mul((a), (b)))
#define TILE__G_DIV_TT(a, b) (TILE__CHECK2(div_tt, a, b), tile__g_div((a), (b)))

#else /* C11 */

#define TILE__A_ADD(sfx, ...) , tile_##sfx : tile_##sfx##_add
#define TILE__A_SUB(sfx, ...) , tile_##sfx : tile_##sfx##_sub
#define TILE__A_NEG(sfx, ...) , tile_##sfx : tile_##sfx##_neg
#define TILE__G_ADD(a, b) (TILE__CHECK2(add, a, b), _Generic((a) TILE__ALL_TYPES(TILE__A_ADD))((a), (b)))
#define TILE__G_SUB(a, b) (TILE__CHECK2(sub, a, b), _Generic((a) TILE__ALL_TYPES(TILE__A_SUB))((a), (b)))
#define TILE__G_NEG(a) (TILE__CHECK1(neg, a), _Generic((a) TILE__ALL_TYPES(TILE__A_NEG))((a)))

#define TILE__DEF_FULL_S(sfx, T) \
    TILE_API void tile__full_##sfx(T *d, double s) { *d = (T)s; }
#define TILE__DEF_FULL_C(sfx, S, ...) \
    TILE_API void tile__full_##sfx(tile_##sfx *d, double s) { *d = tile_##sfx##_full((S)s); }
#define TILE__DEF_FULL_H(sfx, T) \
    TILE_API void tile__full_##sfx(T *d, double s) { *d = tile_f64_to_##sfx(s); }
#define TILE__DEF_FULL_X(sfx, T, S, ssfx) TILE__DEF_FULL_C(sfx, S, ssfx)
TILE__CSCALAR_TYPES(TILE__DEF_FULL_S)
TILE__CW_TYPES(TILE__DEF_FULL_C)
TILE_QUAT_TYPES(TILE__DEF_FULL_C)
TILE_HALF_TYPES(TILE__DEF_FULL_H)
TILE_COMPLEX_TYPES(TILE__DEF_FULL_X)
#define TILE__A_FULL(sfx, ...) , tile_##sfx * : tile__full_##sfx
#define TILE__G_FULL(dst, s) \
    (TILE__CHECK1(fill, dst), _Generic(&(dst) TILE__ALL_TYPES(TILE__A_FULL))(&(dst), (double)(s)))

#define TILE__A_SMUL(sfx, ...) , tile_##sfx : tile_##sfx##_s_mul
#define TILE__A_SDIV(sfx, ...) , tile_##sfx : tile_##sfx##_s_div
#define TILE__A_MULS(sfx, ...) , tile_##sfx : tile_##sfx##_mul_s
#define TILE__A_DIVS(sfx, ...) , tile_##sfx : tile_##sfx##_div_s
/* the operand y of the element's own type (the _mul / _div of two), else a
 * scalar: OPS is mul_s / div_s (y second) or s_mul / s_div (y first) */
#define TILE__SELF_OR(sfx, y, OP, OPS) , tile_##sfx : _Generic((y), tile_##sfx : tile_##sfx##_##OP, default: tile_##sfx##_##OPS)
#define TILE__SELF_OR6(y, OP, OPS)                                                \
    TILE__SELF_OR(f16, y, OP, OPS) TILE__SELF_OR(bf16, y, OP, OPS) TILE__SELF_OR(c32, y, OP, OPS) \
    TILE__SELF_OR(c64, y, OP, OPS)
#define TILE__G_MUL(a, b) (TILE__CHECK1(mul, a), TILE__G_MUL_(a, b))
#define TILE__G_MUL_(a, b)                                                        \
    _Generic((a),                                                                 \
        float: _Generic((b) TILE__F32_SCALED(TILE__A_SMUL), default: tile_f32_mul), \
        double: _Generic((b) TILE__F64_SCALED(TILE__A_SMUL), default: tile_f64_mul), \
        int32_t: _Generic((b) TILE_I32_COMPOUND_TYPES(TILE__A_SMUL), default: tile_i32_mul), \
        uint32_t: tile_u32_mul, int64_t: tile_i64_mul, uint64_t: tile_u64_mul,    \
        int8_t: tile_i8_mul, uint8_t: tile_u8_mul                                 \
        TILE__SELF_OR6(b, mul, mul_s) TILE__SELF_OR(quatf, b, mul, mul_s) TILE__SELF_OR(quatd, b, mul, mul_s) \
        TILE__CW_TYPES(TILE__A_MULS))((a), (b))
#define TILE__G_DIV(a, b) (TILE__CHECK1(div, a), TILE__G_DIV_(a, b))
/* tile by tile (tile_mul, tile_div): the element types share one scalar type */
#define TILE__G_MUL_TT(a, b) (TILE__CHECK_mul_tt(a, b), TILE__G_MUL_(a, b))
#define TILE__G_DIV_TT(a, b) (TILE__CHECK_div_tt(a, b), TILE__G_DIV_(a, b))
/* (quaternion / quaternion picks div_s and does not compile, as vector / vector) */
#define TILE__G_DIV_(a, b)                                                        \
    _Generic((a),                                                                 \
        float: _Generic((b) TILE__F32_SCALED(TILE__A_SDIV), default: tile_f32_div), \
        double: _Generic((b) TILE__F64_SCALED(TILE__A_SDIV), default: tile_f64_div), \
        int32_t: _Generic((b) TILE_I32_COMPOUND_TYPES(TILE__A_SDIV), default: tile_i32_div), \
        uint32_t: tile_u32_div, int64_t: tile_i64_div, uint64_t: tile_u64_div,    \
        int8_t: tile_i8_div, uint8_t: tile_u8_div                                 \
        TILE__SELF_OR6(b, div, div_s)                                             \
        TILE_QUAT_TYPES(TILE__A_DIVS)                                             \
        TILE__CW_TYPES(TILE__A_DIVS))((a), (b))
/* constant first: dispatch on the tile element e; a scalar k converts to
 * e's scalar type, a vector/matrix k scales by e */
#define TILE__G_KMUL(k, e) (TILE__CHECK1(mul, e), TILE__G_KMUL_(k, e))
#define TILE__G_KMUL_(k, e)                                                       \
    _Generic((e),                                                                 \
        float: _Generic((k) TILE__F32_SCALED(TILE__A_MULS), default: tile_f32_mul), \
        double: _Generic((k) TILE__F64_SCALED(TILE__A_MULS), default: tile_f64_mul), \
        int32_t: _Generic((k) TILE_I32_COMPOUND_TYPES(TILE__A_MULS), default: tile_i32_mul), \
        uint32_t: tile_u32_mul, int64_t: tile_i64_mul, uint64_t: tile_u64_mul,    \
        int8_t: tile_i8_mul, uint8_t: tile_u8_mul                                 \
        TILE__SELF_OR6(k, mul, s_mul) TILE__SELF_OR(quatf, k, mul, s_mul) TILE__SELF_OR(quatd, k, mul, s_mul) \
        TILE__CW_TYPES(TILE__A_SMUL))((k), (e))
#define TILE__G_KDIV(k, e) (TILE__CHECK1(div, e), TILE__G_KDIV_(k, e))
#define TILE__G_KDIV_(k, e)                                                       \
    _Generic((e),                                                                 \
        float: _Generic((k) TILE__F32_SCALED(TILE__A_DIVS), default: tile_f32_div), \
        double: _Generic((k) TILE__F64_SCALED(TILE__A_DIVS), default: tile_f64_div), \
        int32_t: _Generic((k) TILE_I32_COMPOUND_TYPES(TILE__A_DIVS), default: tile_i32_div), \
        uint32_t: tile_u32_div, int64_t: tile_i64_div, uint64_t: tile_u64_div,    \
        int8_t: tile_i8_div, uint8_t: tile_u8_div                                 \
        TILE__SELF_OR6(k, div, s_div)                                             \
        TILE_QUAT_TYPES(TILE__A_SDIV)                                             \
        TILE__CW_TYPES(TILE__A_SDIV))((k), (e))
#endif

/* ---- conversions: TILE__CVT(D, x) is x converted to D's type ----
 * (tile_astype, tile_map's result). D and x are lvalues (D is not
 * evaluated). Between real scalars every conversion rounds once to the
 * nearest, ties to even: integer -> f16/bf16 directly from the integer,
 * f64 -> f16/bf16 directly (tile/half.h); float -> integer truncates and
 * saturates, NaN -> 0 (the device's cvt.rzi.sat; plain C leaves it
 * undefined); integer -> integer wraps as C's casts. Real -> complex: the
 * real part, imaginary 0; c32 <-> c64 per part. Any other pair (user
 * structs, vectors, C types outside the tile types) is C's assignment. */
/* float -> integer: in the source's own precision (every bound is a power of
 * two, exact in f32; no f64 arithmetic on the device for f32 sources) */
#define TILE__DEF_SAT1(sfx, T, F, fs, LO, HI)                                     \
    TILE_API T tile__sat_##sfx##_##fs(F x) {                                      \
        return x != x ? (T)0 : x <= (F)(LO) ? (T)(LO) : x >= (F)(HI) ? (T)((HI)-1) : (T)x; \
    }
#define TILE__DEF_SAT(sfx, T, LO, HI)                                             \
    TILE__DEF_SAT1(sfx, T, float, f32, LO, HI) TILE__DEF_SAT1(sfx, T, double, f64, LO, HI)
TILE__DEF_SAT(i8, int8_t, -128.0, 128.0)
TILE__DEF_SAT(u8, uint8_t, 0.0, 256.0)
TILE__DEF_SAT(i32, int32_t, -2147483648.0, 2147483648.0)
TILE__DEF_SAT(u32, uint32_t, 0.0, 4294967296.0)
#define TILE__DEF_SAT64(fs, F)                                                    \
    TILE_API int64_t tile__sat_i64_##fs(F x) {                                    \
        return x != x ? 0 : x <= (F)-9223372036854775808.0 ? INT64_MIN : x >= (F)9223372036854775808.0 ? INT64_MAX \
                                                                                                          : (int64_t)x; \
    }                                                                             \
    TILE_API uint64_t tile__sat_u64_##fs(F x) {                                   \
        return x != x ? 0 : x <= (F)0 ? 0 : x >= (F)18446744073709551616.0 ? UINT64_MAX : (uint64_t)x; \
    }
TILE__DEF_SAT64(f32, float)
TILE__DEF_SAT64(f64, double)
/* category of each real type: FS float, FH 16-bit float, I signed, U unsigned */
#define TILE__CAT_f32 FS
#define TILE__CAT_f64 FS
#define TILE__CAT_f16 FH
#define TILE__CAT_bf16 FH
#define TILE__CAT_i32 I
#define TILE__CAT_i64 I
#define TILE__CAT_i8 I
#define TILE__CAT_u32 U
#define TILE__CAT_u64 U
#define TILE__CAT_u8 U
#define TILE__CAT2(a, b) TILE__CAT2_(a, b)
#define TILE__CAT2_(a, b) TILE__CVTB_##a##_##b
/* body: x of source sfx s to destination type D, sfx d */
#define TILE__CVTB_FS_FS(x, s, d, D) (D)(x)
#define TILE__CVTB_FH_FS(x, s, d, D) (D)tile_##s##_to_f32(x)
#define TILE__CVTB_I_FS(x, s, d, D) (D)(x)
#define TILE__CVTB_U_FS(x, s, d, D) (D)(x)
#define TILE__CVTB_FS_I(x, s, d, D) tile__sat_##d##_##s(x)
#define TILE__CVTB_FS_U(x, s, d, D) tile__sat_##d##_##s(x)
#define TILE__CVTB_FH_I(x, s, d, D) tile__sat_##d##_f32(tile_##s##_to_f32(x))
#define TILE__CVTB_FH_U(x, s, d, D) tile__sat_##d##_f32(tile_##s##_to_f32(x))
#define TILE__CVTB_I_I(x, s, d, D) (D)(x)
#define TILE__CVTB_I_U(x, s, d, D) (D)(x)
#define TILE__CVTB_U_I(x, s, d, D) (D)(x)
#define TILE__CVTB_U_U(x, s, d, D) (D)(x)
#define TILE__CVTB_FS_FH(x, s, d, D) tile_f64_to_##d((double)(x))
#define TILE__CVTB_FH_FH(x, s, d, D) tile_f32_to_##d(tile_##s##_to_f32(x))
#define TILE__CVTB_I_FH(x, s, d, D) tile_i64_to_##d((int64_t)(x))
#define TILE__CVTB_U_FH(x, s, d, D) tile_u64_to_##d((uint64_t)(x))
/* tile__cvt_<s>_<d>(x): every (source, destination) pair of real types */
#define TILE__DEF_CVT(s, S, d, D)                                                 \
    TILE_API D tile__cvt_##s##_##d(S x) { return TILE__CAT2(TILE__CAT_##s, TILE__CAT_##d)(x, s, d, D); }
#define TILE__DEF_CVT_TO_f32(s, S) TILE__DEF_CVT(s, S, f32, float)
#define TILE__DEF_CVT_TO_f64(s, S) TILE__DEF_CVT(s, S, f64, double)
#define TILE__DEF_CVT_TO_i32(s, S) TILE__DEF_CVT(s, S, i32, int32_t)
#define TILE__DEF_CVT_TO_u32(s, S) TILE__DEF_CVT(s, S, u32, uint32_t)
#define TILE__DEF_CVT_TO_i64(s, S) TILE__DEF_CVT(s, S, i64, int64_t)
#define TILE__DEF_CVT_TO_u64(s, S) TILE__DEF_CVT(s, S, u64, uint64_t)
#define TILE__DEF_CVT_TO_i8(s, S) TILE__DEF_CVT(s, S, i8, int8_t)
#define TILE__DEF_CVT_TO_u8(s, S) TILE__DEF_CVT(s, S, u8, uint8_t)
#define TILE__DEF_CVT_TO_f16(s, S) TILE__DEF_CVT(s, S, f16, tile_f16)
#define TILE__DEF_CVT_TO_bf16(s, S) TILE__DEF_CVT(s, S, bf16, tile_bf16)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_f32)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_f64)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_i32)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_u32)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_i64)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_u64)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_i8)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_u8)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_f16)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_bf16)
/* real -> complex: through the part's type (one rounding) */
#define TILE__DEF_CVT_TO_c32(s, S) \
    TILE_API tile_c32 tile__cvt_##s##_c32(S x) { return tile_c32_set(tile__cvt_##s##_f32(x), 0.0f); }
#define TILE__DEF_CVT_TO_c64(s, S) \
    TILE_API tile_c64 tile__cvt_##s##_c64(S x) { return tile_c64_set(tile__cvt_##s##_f64(x), 0.0); }
TILE__REAL_TYPES(TILE__DEF_CVT_TO_c32)
TILE__REAL_TYPES(TILE__DEF_CVT_TO_c64)
TILE_API tile_c32 tile__cvt_c32_c32(tile_c32 x) { return x; }
TILE_API tile_c64 tile__cvt_c64_c64(tile_c64 x) { return x; }
TILE_API tile_c64 tile__cvt_c32_c64(tile_c32 x) { return tile_c32_to_c64(x); }
TILE_API tile_c32 tile__cvt_c64_c32(tile_c64 x) { return tile_c64_to_c32(x); }
/* the same 16-bit type: the bits as they are (no quieting of a NaN) */
TILE_API tile_f16 tile__cvt_same_f16(tile_f16 x) { return x; }
TILE_API tile_bf16 tile__cvt_same_bf16(tile_bf16 x) { return x; }

#if defined(__cplusplus)
/* overloads on (destination tag, source); the template takes every other
 * pair: C's conversion (user structs: the same type) */
template <class D, class S>
static TILE_HD __forceinline__ D tile__cvt(const D *, const S &x) { return (D)x; }
#define TILE__OV_CVT(s, S, d, D) \
    TILE_API D tile__cvt(const D *, S x) { return tile__cvt_##s##_##d(x); }
#define TILE__OV_CVT_TO_f32(s, S) TILE__OV_CVT(s, S, f32, float)
#define TILE__OV_CVT_TO_f64(s, S) TILE__OV_CVT(s, S, f64, double)
#define TILE__OV_CVT_TO_i32(s, S) TILE__OV_CVT(s, S, i32, int32_t)
#define TILE__OV_CVT_TO_u32(s, S) TILE__OV_CVT(s, S, u32, uint32_t)
#define TILE__OV_CVT_TO_i64(s, S) TILE__OV_CVT(s, S, i64, int64_t)
#define TILE__OV_CVT_TO_u64(s, S) TILE__OV_CVT(s, S, u64, uint64_t)
#define TILE__OV_CVT_TO_i8(s, S) TILE__OV_CVT(s, S, i8, int8_t)
#define TILE__OV_CVT_TO_u8(s, S) TILE__OV_CVT(s, S, u8, uint8_t)
#define TILE__OV_CVT_TO_f16(s, S) TILE__OV_CVT(s, S, f16, tile_f16)
#define TILE__OV_CVT_TO_bf16(s, S) TILE__OV_CVT(s, S, bf16, tile_bf16)
#define TILE__OV_CVT_TO_c32(s, S) TILE__OV_CVT(s, S, c32, tile_c32)
#define TILE__OV_CVT_TO_c64(s, S) TILE__OV_CVT(s, S, c64, tile_c64)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_f32)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_f64)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_i32)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_u32)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_i64)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_u64)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_i8)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_u8)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_f16)
TILE__CSCALAR_TYPES(TILE__OV_CVT_TO_bf16)
TILE__OV_CVT(bf16, tile_bf16, f16, tile_f16)
TILE__OV_CVT(f16, tile_f16, bf16, tile_bf16)
TILE__REAL_TYPES(TILE__OV_CVT_TO_c32)
TILE__REAL_TYPES(TILE__OV_CVT_TO_c64)
TILE_HALF_TYPES(TILE__OV_CVT_TO_f32)
TILE_HALF_TYPES(TILE__OV_CVT_TO_f64)
TILE_HALF_TYPES(TILE__OV_CVT_TO_i32)
TILE_HALF_TYPES(TILE__OV_CVT_TO_u32)
TILE_HALF_TYPES(TILE__OV_CVT_TO_i64)
TILE_HALF_TYPES(TILE__OV_CVT_TO_u64)
TILE_HALF_TYPES(TILE__OV_CVT_TO_i8)
TILE_HALF_TYPES(TILE__OV_CVT_TO_u8)
TILE__OV_CVT(c32, tile_c32, c64, tile_c64)
TILE__OV_CVT(c64, tile_c64, c32, tile_c32)
TILE_API tile_f16 tile__cvt(const tile_f16 *, tile_f16 x) { return x; }
TILE_API tile_bf16 tile__cvt(const tile_bf16 *, tile_bf16 x) { return x; }
TILE_API tile_c32 tile__cvt(const tile_c32 *, tile_c32 x) { return x; }
TILE_API tile_c64 tile__cvt(const tile_c64 *, tile_c64 x) { return x; }
#define TILE__CVT(D, x) tile__cvt((const TILE__ET(D) *)0, (x))
#define TILE__CHECK_CVT(d, s) ((void)sizeof(tile__check_cvt<TILE__ET(d), TILE__ET(s)>))
/* a tile_map argument: f16 / bf16 widened to f32, anything else as it is */
TILE_API float tile__arg(tile_f16 x) { return tile_f16_to_f32(x); }
TILE_API float tile__arg(tile_bf16 x) { return tile_bf16_to_f32(x); }
template <class T>
static TILE_HD __forceinline__ const T &tile__arg(const T &x) { return x; }
#define TILE__ARG(x) tile__arg(x)
#else
/* x seen as the type of sfx (only the selected arm runs: there it is x's
 * type; a copy, not a cast of the pointer, keeps strict aliasing quiet) */
#define TILE__DEF_LD(sfx, T) \
    TILE_API T tile__ld_##sfx(const void *p) { T v; memcpy(&v, p, sizeof v); return v; }
#define TILE__DEF_LD_C(sfx, T, S, ssfx) TILE__DEF_LD(sfx, T)
TILE__REAL_TYPES(TILE__DEF_LD)
TILE_COMPLEX_TYPES(TILE__DEF_LD_C)
#define TILE__AS(sfx, x) tile__ld_##sfx(&(x))
/* x to the real or complex destination d (type D); C types outside the
 * list (char, short, long long, _Bool) convert as C does */
#define TILE__CVT_TO(d, D, x)                                                     \
    _Generic((x), float: tile__cvt_f32_##d(TILE__AS(f32, x)), double: tile__cvt_f64_##d(TILE__AS(f64, x)), \
             int32_t: tile__cvt_i32_##d(TILE__AS(i32, x)), uint32_t: tile__cvt_u32_##d(TILE__AS(u32, x)), \
             int64_t: tile__cvt_i64_##d(TILE__AS(i64, x)), uint64_t: tile__cvt_u64_##d(TILE__AS(u64, x)), \
             int8_t: tile__cvt_i8_##d(TILE__AS(i8, x)), uint8_t: tile__cvt_u8_##d(TILE__AS(u8, x)), \
             tile_f16: TILE__CVT_FROM16_##d(f16, x), tile_bf16: TILE__CVT_FROM16_##d(bf16, x), \
             tile_c32: TILE__CVT_FROMC_##d(c32, x), tile_c64: TILE__CVT_FROMC_##d(c64, x), \
             default: TILE__CVT_OTHER_##d(D, x))
/* from a 16-bit float: the same type keeps its bits */
#define TILE__CVT_FROM16_f32(s, x) tile__cvt_##s##_f32(TILE__AS(s, x))
#define TILE__CVT_FROM16_f64(s, x) tile__cvt_##s##_f64(TILE__AS(s, x))
#define TILE__CVT_FROM16_i32(s, x) tile__cvt_##s##_i32(TILE__AS(s, x))
#define TILE__CVT_FROM16_u32(s, x) tile__cvt_##s##_u32(TILE__AS(s, x))
#define TILE__CVT_FROM16_i64(s, x) tile__cvt_##s##_i64(TILE__AS(s, x))
#define TILE__CVT_FROM16_u64(s, x) tile__cvt_##s##_u64(TILE__AS(s, x))
#define TILE__CVT_FROM16_i8(s, x) tile__cvt_##s##_i8(TILE__AS(s, x))
#define TILE__CVT_FROM16_u8(s, x) tile__cvt_##s##_u8(TILE__AS(s, x))
#define TILE__CVT_FROM16_c32(s, x) tile__cvt_##s##_c32(TILE__AS(s, x))
#define TILE__CVT_FROM16_c64(s, x) tile__cvt_##s##_c64(TILE__AS(s, x))
#define TILE__CVT_FROM16_f16(s, x) TILE__CVT_FROM16_SAME_##s##_f16(x)
#define TILE__CVT_FROM16_bf16(s, x) TILE__CVT_FROM16_SAME_##s##_bf16(x)
#define TILE__CVT_FROM16_SAME_f16_f16(x) tile__cvt_same_f16(TILE__AS(f16, x))
#define TILE__CVT_FROM16_SAME_bf16_f16(x) tile__cvt_bf16_f16(TILE__AS(bf16, x))
#define TILE__CVT_FROM16_SAME_f16_bf16(x) tile__cvt_f16_bf16(TILE__AS(f16, x))
#define TILE__CVT_FROM16_SAME_bf16_bf16(x) tile__cvt_same_bf16(TILE__AS(bf16, x))
/* from complex: only to complex (the check refuses the rest; the arm is a
 * placeholder of the right type) */
#define TILE__CVT_FROMC_c32(s, x) tile__cvt_##s##_c32(TILE__AS(s, x))
#define TILE__CVT_FROMC_c64(s, x) tile__cvt_##s##_c64(TILE__AS(s, x))
#define TILE__CVT_FROMC_f32(s, x) 0.0f
#define TILE__CVT_FROMC_f64(s, x) 0.0
#define TILE__CVT_FROMC_i32(s, x) (int32_t)0
#define TILE__CVT_FROMC_u32(s, x) (uint32_t)0
#define TILE__CVT_FROMC_i64(s, x) (int64_t)0
#define TILE__CVT_FROMC_u64(s, x) (uint64_t)0
#define TILE__CVT_FROMC_i8(s, x) (int8_t)0
#define TILE__CVT_FROMC_u8(s, x) (uint8_t)0
#define TILE__CVT_FROMC_f16(s, x) tile_f16_from_bits(0)
#define TILE__CVT_FROMC_bf16(s, x) tile_bf16_from_bits(0)
/* other C arithmetic types (char, short, long long, _Bool, long double):
 * read as themselves (the arm is type-valid for any x; a non-arithmetic x
 * reads as 0, which TILE__CHECK_CVT refuses first). long / long long: one of
 * them is int64_t, listed in a nested selection so that neither repeats. */
#define TILE__DEF_LD_O(name, T) \
    TILE_API T tile__ld_##name(const void *p) { T v; memcpy(&v, p, sizeof v); return v; }
TILE__DEF_LD_O(bool, _Bool)
TILE__DEF_LD_O(char, char)
TILE__DEF_LD_O(short, short)
TILE__DEF_LD_O(ushort, unsigned short)
TILE__DEF_LD_O(ldouble, long double)
TILE__DEF_LD_O(long, long)
TILE__DEF_LD_O(ulong, unsigned long)
TILE__DEF_LD_O(llong, long long)
TILE__DEF_LD_O(ullong, unsigned long long)
#define TILE__OTHER_VAL(x)                                                        \
    _Generic((x), _Bool: tile__ld_bool(&(x)), char: tile__ld_char(&(x)), short: tile__ld_short(&(x)), \
             unsigned short: tile__ld_ushort(&(x)), long double: tile__ld_ldouble(&(x)), \
             default: _Generic((x), long: tile__ld_long(&(x)), unsigned long: tile__ld_ulong(&(x)), \
                               long long: tile__ld_llong(&(x)), unsigned long long: tile__ld_ullong(&(x)), \
                               default: 0))
#define TILE__IS_OTHER_ARITH(x)                                                   \
    _Generic((x), _Bool: 1, char: 1, short: 1, unsigned short: 1, long double: 1, \
             default: _Generic((x), long: 1, unsigned long: 1, long long: 1, unsigned long long: 1, default: 0))
#define TILE__CVT_OTHER_f32(D, x) (D)TILE__OTHER_VAL(x)
#define TILE__CVT_OTHER_f64(D, x) (D)TILE__OTHER_VAL(x)
#define TILE__CVT_OTHER_i32(D, x) (D)TILE__OTHER_VAL(x)
#define TILE__CVT_OTHER_u32(D, x) (D)TILE__OTHER_VAL(x)
#define TILE__CVT_OTHER_i64(D, x) (D)TILE__OTHER_VAL(x)
#define TILE__CVT_OTHER_u64(D, x) (D)TILE__OTHER_VAL(x)
#define TILE__CVT_OTHER_i8(D, x) (D)TILE__OTHER_VAL(x)
#define TILE__CVT_OTHER_u8(D, x) (D)TILE__OTHER_VAL(x)
#define TILE__CVT_OTHER_f16(D, x) tile_f64_to_f16((double)TILE__OTHER_VAL(x))
#define TILE__CVT_OTHER_bf16(D, x) tile_f64_to_bf16((double)TILE__OTHER_VAL(x))
#define TILE__CVT_OTHER_c32(D, x) tile_c32_set((float)TILE__OTHER_VAL(x), 0.0f)
#define TILE__CVT_OTHER_c64(D, x) tile_c64_set((double)TILE__OTHER_VAL(x), 0.0)
#define TILE__CVT(D, x)                                                           \
    _Generic((D), float: TILE__CVT_TO(f32, float, x), double: TILE__CVT_TO(f64, double, x), \
             int32_t: TILE__CVT_TO(i32, int32_t, x), uint32_t: TILE__CVT_TO(u32, uint32_t, x), \
             int64_t: TILE__CVT_TO(i64, int64_t, x), uint64_t: TILE__CVT_TO(u64, uint64_t, x), \
             int8_t: TILE__CVT_TO(i8, int8_t, x), uint8_t: TILE__CVT_TO(u8, uint8_t, x), \
             tile_f16: TILE__CVT_TO(f16, tile_f16, x), tile_bf16: TILE__CVT_TO(bf16, tile_bf16, x), \
             tile_c32: TILE__CVT_TO(c32, tile_c32, x), tile_c64: TILE__CVT_TO(c64, tile_c64, x), \
             default: (x))
#define TILE__ARG(x)                                                              \
    _Generic((x), tile_f16: tile_f16_to_f32(TILE__AS(f16, x)), tile_bf16: tile_bf16_to_f32(TILE__AS(bf16, x)), \
             default: (x))
#endif

/* ---- atomic add of any element type ----
 * tile_atomic_add_ptr(p, v): *p += v atomically, p pointing into global (or
 * shared) memory. A scalar is one atomic; a vector, matrix, quaternion or
 * complex is one atomic per component, so concurrent adds of whole matrices
 * sum correctly (a reader racing with them may see a partly added matrix).
 * On the CPU a plain add (blocks run one after another). tile_atomic_add of
 * tiles uses the same. f32 f64 i32 u32 i64 u64 and their compounds only (no
 * 8- or 16-bit atomics).
 *   tile_atomic_add_ptr(&acc, tile_mat33f_diag(1.0f));   // acc += I */
#define TILE__COMPLEX_AS_COMPOUND(X) X(c32, float, f32, 2) X(c64, double, f64, 2)
/* every element type whose atomic add is one atomic per component, as
 * X(sfx, component C type, component sfx, components): for headers that
 * stamp per-type atomics (tile__atomic_add_<sfx> exists for each in C) */
#define TILE_ATOMIC_COMPOUND_TYPES(X) \
    TILE__CW_TYPES(X) TILE_QUAT_TYPES(X) TILE__COMPLEX_AS_COMPOUND(X)
#if defined(__cplusplus)
#define TILE__OV_ATOMIC_C(sfx, S, ssfx, N)                                        \
    TILE_API void tile__atomic_add(tile_##sfx *p, tile_##sfx v) {                 \
        S *pp = (S *)p;                                                           \
        const S *vp = (const S *)&v;                                              \
        TILE__UNROLL for (int k = 0; k < N; ++k) tile__atomic_add(&pp[k], vp[k]); \
    }
TILE_ATOMIC_COMPOUND_TYPES(TILE__OV_ATOMIC_C)
#else
#define TILE__DEF_ATOMIC_C(sfx, S, ssfx, N)                                       \
    TILE_API void tile__atomic_add_##sfx(tile_##sfx *p, tile_##sfx v) {           \
        S *pp = (S *)p;                                                           \
        const S *vp = (const S *)&v;                                              \
        for (int k = 0; k < N; ++k) tile__atomic_add_##ssfx(&pp[k], vp[k]);       \
    }
TILE_ATOMIC_COMPOUND_TYPES(TILE__DEF_ATOMIC_C)
#undef TILE__ATOMIC_ADD
#define TILE__A_ATOMIC(sfx, ...) , tile_##sfx * : tile__atomic_add_##sfx
#define TILE__ATOMIC_SCALARS(X) TILE_SCALAR_TYPES(X)
#define TILE__ATOMIC_ADD(p, v)                                                    \
    _Generic((p) TILE__ATOMIC_SCALARS(TILE__A_ATOMIC) TILE_ATOMIC_COMPOUND_TYPES(TILE__A_ATOMIC))((p), (v))
#endif
#define tile_atomic_add_ptr(p, v) TILE__ATOMIC_ADD((p), (v))

#endif /* TILE_TYPES_H */
