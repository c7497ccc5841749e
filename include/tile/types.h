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
 */
#ifndef TILE_TYPES_H
#define TILE_TYPES_H

#include "config.h"
#include "platform.h" /* scalar atomics, for the component-wise ones */

typedef float tile_f32;
typedef double tile_f64;
typedef int32_t tile_i32;
typedef uint32_t tile_u32;
typedef int64_t tile_i64;
typedef uint64_t tile_u64;

/* X(sfx, C type) for the scalar types. Listed twice so that the lists can be
 * nested (the preprocessor does not re-expand a macro inside itself). */
#define TILE_SCALAR_TYPES(X) \
    X(f32, float) X(f64, double) X(i32, int32_t) X(u32, uint32_t) X(i64, int64_t) X(u64, uint64_t)
#define TILE__SCALAR_TYPES_B(Y) \
    Y(f32, float) Y(f64, double) Y(i32, int32_t) Y(u32, uint32_t) Y(i64, int64_t) Y(u64, uint64_t)

/* X(sfx, scalar C type, scalar sfx, number of components) for vectors and
 * matrices. Vectors hold v[N], matrices m[R][C] (row-major). */
#define TILE_F32_COMPOUND_TYPES(X) \
    X(vec2f, float, f32, 2) X(vec3f, float, f32, 3) X(vec4f, float, f32, 4) \
    X(mat22f, float, f32, 4) X(mat33f, float, f32, 9) X(mat44f, float, f32, 16) X(mat66f, float, f32, 36)
#define TILE_F64_COMPOUND_TYPES(X) \
    X(vec2d, double, f64, 2) X(vec3d, double, f64, 3) X(vec4d, double, f64, 4) \
    X(mat22d, double, f64, 4) X(mat33d, double, f64, 9) X(mat44d, double, f64, 16) X(mat66d, double, f64, 36)
#define TILE_COMPOUND_TYPES(X) TILE_F32_COMPOUND_TYPES(X) TILE_F64_COMPOUND_TYPES(X)

#define TILE__DEF_VEC(sfx, S, N) typedef struct { S v[N]; } tile_##sfx;
#define TILE__DEF_MAT(sfx, S, R) typedef struct { S m[R][R]; } tile_##sfx;
TILE__DEF_VEC(vec2f, float, 2)
TILE__DEF_VEC(vec3f, float, 3)
TILE__DEF_VEC(vec4f, float, 4)
TILE__DEF_VEC(vec2d, double, 2)
TILE__DEF_VEC(vec3d, double, 3)
TILE__DEF_VEC(vec4d, double, 4)
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
TILE_SCALAR_TYPES(TILE__DEF_SCALAR_OPS)

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
TILE_COMPOUND_TYPES(TILE__DEF_COMPOUND_OPS)

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
 * Each type has an id: scalar id 1..6 (f32 f64 i32 u32 i64 u64), plus 16 *
 * (1 + index) for a vector or matrix of that scalar; 0 = not an element type.
 * The operations below refuse at compile time, with one line naming the
 * operation:
 *   an unsupported element type (a user struct, long double, char, ...):
 *     "tile.h: tile_add: unsupported element type (...)"; the C compiler's
 *     next line names the type (_Generic selector of type 'struct foo'), the
 *     C++ one says "[with A = foo, ...]";
 *   tile_add / tile_sub of different element types (f32 + f64): no silent
 *     conversion (C) and no ambiguous overload (C++):
 *     "tile.h: tile_add: operands have different element types (convert one
 *     with tile_astype)". */
enum {
    TILE__TID_f32 = 1, TILE__TID_f64 = 2, TILE__TID_i32 = 3, TILE__TID_u32 = 4, TILE__TID_i64 = 5, TILE__TID_u64 = 6,
    TILE__TID_vec2f = 1 + 16 * 1, TILE__TID_vec3f = 1 + 16 * 2, TILE__TID_vec4f = 1 + 16 * 3,
    TILE__TID_mat22f = 1 + 16 * 4, TILE__TID_mat33f = 1 + 16 * 5, TILE__TID_mat44f = 1 + 16 * 6,
    TILE__TID_mat66f = 1 + 16 * 7,
    TILE__TID_vec2d = 2 + 16 * 1, TILE__TID_vec3d = 2 + 16 * 2, TILE__TID_vec4d = 2 + 16 * 3,
    TILE__TID_mat22d = 2 + 16 * 4, TILE__TID_mat33d = 2 + 16 * 5, TILE__TID_mat44d = 2 + 16 * 6,
    TILE__TID_mat66d = 2 + 16 * 7
};
#define TILE__UNSUPPORTED_MSG(op) \
    "tile.h: " op ": unsupported element type (supported: f32 f64 i32 u32 i64 u64, vec2/3/4 and mat22/33/44/66 of f32 or f64)"
#define TILE__MIXED_MSG(op) "tile.h: " op ": operands have different element types (convert one with tile_astype)"
#if defined(__cplusplus)
/* C++ (nvcc, host C++): the checks are class templates, instantiated where
 * the operation is used, so the message comes first and names the types. */
template <class T> struct tile__tid { enum { value = 0 }; };
#define TILE__TID_SPEC(sfx, ...) \
    template <> struct tile__tid<tile_##sfx> { enum { value = TILE__TID_##sfx }; };
TILE_SCALAR_TYPES(TILE__TID_SPEC)
TILE_COMPOUND_TYPES(TILE__TID_SPEC)
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
#define TILE__CHECK1(name, a) ((void)sizeof(tile__check_##name<TILE__ET(a)>))
#define TILE__CHECK2(name, a, b) ((void)sizeof(tile__check_##name<TILE__ET(a), TILE__ET(b)>))
#else
/* C: a _Static_assert inside a struct inside sizeof is an expression */
#define TILE__A_TID(sfx, ...) , tile_##sfx : TILE__TID_##sfx
#define TILE__TID(x) _Generic((x) TILE_SCALAR_TYPES(TILE__A_TID) TILE_COMPOUND_TYPES(TILE__A_TID), default: 0)
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
#define TILE__CHECK1(name, a) TILE__CHECK1_(TILE__OPNAME_##name, a)
#define TILE__CHECK2(name, a, b) TILE__CHECK2_(TILE__OPNAME_##name, a, b)
#endif

/* ---- generic dispatch used by the tile operations ----
 * TILE__G_ADD(a, b) etc. pick tile_<sfx>_add from the operand type.
 * Multiplication and division follow Warp's promotion rule: same types, or
 * one scalar operand and a vector/matrix of that scalar. A mixed scalar pair
 * such as (float, double) takes the tile element's type: the first operand's
 * for tile∘tile and tile∘constant, the second's for constant∘tile (so 7 / t
 * on a double tile divides in double).
 * Vector x vector has no association and does not compile. */
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
TILE_SCALAR_TYPES(TILE__OV_SCALAR)
TILE_COMPOUND_TYPES(TILE__OV_COMPOUND)
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
TILE__SCALAR_TYPES_B(TILE__OV_CELL_f32)
TILE__SCALAR_TYPES_B(TILE__OV_CELL_f64)
TILE__SCALAR_TYPES_B(TILE__OV_CELL_i32)
TILE__SCALAR_TYPES_B(TILE__OV_CELL_u32)
TILE__SCALAR_TYPES_B(TILE__OV_CELL_i64)
TILE__SCALAR_TYPES_B(TILE__OV_CELL_u64)

#define TILE__OV_FULL_S(sfx, T) \
    TILE_API void tile__g_full(T *d, double s) { *d = (T)s; }
#define TILE__OV_FULL_C(sfx, S, ssfx, N) \
    TILE_API void tile__g_full(tile_##sfx *d, double s) { *d = tile_##sfx##_full((S)s); }
TILE_SCALAR_TYPES(TILE__OV_FULL_S)
TILE_COMPOUND_TYPES(TILE__OV_FULL_C)
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
TILE__SCALAR_TYPES_B(TILE__OV_KCELL_f32)
TILE__SCALAR_TYPES_B(TILE__OV_KCELL_f64)
TILE__SCALAR_TYPES_B(TILE__OV_KCELL_i32)
TILE__SCALAR_TYPES_B(TILE__OV_KCELL_u32)
TILE__SCALAR_TYPES_B(TILE__OV_KCELL_i64)
TILE__SCALAR_TYPES_B(TILE__OV_KCELL_u64)
#define TILE__OV_KCOMPOUND(sfx, S, ssfx, N)                                       \
    TILE_API tile_##sfx tile__g_kmul(tile_##sfx k, S e) { return tile_##sfx##_mul_s(k, e); } \
    TILE_API tile_##sfx tile__g_kmul(S k, tile_##sfx e) { return tile_##sfx##_s_mul(k, e); } \
    TILE_API tile_##sfx tile__g_kdiv(tile_##sfx k, S e) { return tile_##sfx##_div_s(k, e); } \
    TILE_API tile_##sfx tile__g_kdiv(S k, tile_##sfx e) { return tile_##sfx##_s_div(k, e); }
TILE_COMPOUND_TYPES(TILE__OV_KCOMPOUND)
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
#define TILE__ALL_TYPES(X) TILE_SCALAR_TYPES(X) TILE_COMPOUND_TYPES(X)
#define TILE__G_ADD(a, b) (TILE__CHECK2(add, a, b), _Generic((a) TILE__ALL_TYPES(TILE__A_ADD))((a), (b)))
#define TILE__G_SUB(a, b) (TILE__CHECK2(sub, a, b), _Generic((a) TILE__ALL_TYPES(TILE__A_SUB))((a), (b)))
#define TILE__G_NEG(a) (TILE__CHECK1(neg, a), _Generic((a) TILE__ALL_TYPES(TILE__A_NEG))((a)))

#define TILE__DEF_FULL_S(sfx, T) \
    TILE_API void tile__full_##sfx(T *d, double s) { *d = (T)s; }
#define TILE__DEF_FULL_C(sfx, S, ssfx, N) \
    TILE_API void tile__full_##sfx(tile_##sfx *d, double s) { *d = tile_##sfx##_full((S)s); }
TILE_SCALAR_TYPES(TILE__DEF_FULL_S)
TILE_COMPOUND_TYPES(TILE__DEF_FULL_C)
#define TILE__A_FULL(sfx, ...) , tile_##sfx * : tile__full_##sfx
#define TILE__G_FULL(dst, s) \
    (TILE__CHECK1(fill, dst), _Generic(&(dst) TILE__ALL_TYPES(TILE__A_FULL))(&(dst), (double)(s)))

#define TILE__A_SMUL(sfx, ...) , tile_##sfx : tile_##sfx##_s_mul
#define TILE__A_SDIV(sfx, ...) , tile_##sfx : tile_##sfx##_s_div
#define TILE__A_MULS(sfx, ...) , tile_##sfx : tile_##sfx##_mul_s
#define TILE__A_DIVS(sfx, ...) , tile_##sfx : tile_##sfx##_div_s
#define TILE__G_MUL(a, b) (TILE__CHECK1(mul, a), TILE__G_MUL_(a, b))
#define TILE__G_MUL_(a, b)                                                        \
    _Generic((a),                                                                 \
        float: _Generic((b) TILE_F32_COMPOUND_TYPES(TILE__A_SMUL), default: tile_f32_mul), \
        double: _Generic((b) TILE_F64_COMPOUND_TYPES(TILE__A_SMUL), default: tile_f64_mul), \
        int32_t: tile_i32_mul, uint32_t: tile_u32_mul, int64_t: tile_i64_mul, uint64_t: tile_u64_mul \
        TILE_COMPOUND_TYPES(TILE__A_MULS))((a), (b))
#define TILE__G_DIV(a, b) (TILE__CHECK1(div, a), TILE__G_DIV_(a, b))
/* tile by tile (tile_mul, tile_div): the element types share one scalar type */
#define TILE__G_MUL_TT(a, b) (TILE__CHECK_mul_tt(a, b), TILE__G_MUL_(a, b))
#define TILE__G_DIV_TT(a, b) (TILE__CHECK_div_tt(a, b), TILE__G_DIV_(a, b))
#define TILE__G_DIV_(a, b)                                                        \
    _Generic((a),                                                                 \
        float: _Generic((b) TILE_F32_COMPOUND_TYPES(TILE__A_SDIV), default: tile_f32_div), \
        double: _Generic((b) TILE_F64_COMPOUND_TYPES(TILE__A_SDIV), default: tile_f64_div), \
        int32_t: tile_i32_div, uint32_t: tile_u32_div, int64_t: tile_i64_div, uint64_t: tile_u64_div \
        TILE_COMPOUND_TYPES(TILE__A_DIVS))((a), (b))
/* constant first: dispatch on the tile element e; a scalar k converts to
 * e's scalar type, a vector/matrix k scales by e */
#define TILE__G_KMUL(k, e) (TILE__CHECK1(mul, e), TILE__G_KMUL_(k, e))
#define TILE__G_KMUL_(k, e)                                                       \
    _Generic((e),                                                                 \
        float: _Generic((k) TILE_F32_COMPOUND_TYPES(TILE__A_MULS), default: tile_f32_mul), \
        double: _Generic((k) TILE_F64_COMPOUND_TYPES(TILE__A_MULS), default: tile_f64_mul), \
        int32_t: tile_i32_mul, uint32_t: tile_u32_mul, int64_t: tile_i64_mul, uint64_t: tile_u64_mul \
        TILE_COMPOUND_TYPES(TILE__A_SMUL))((k), (e))
#define TILE__G_KDIV(k, e) (TILE__CHECK1(div, e), TILE__G_KDIV_(k, e))
#define TILE__G_KDIV_(k, e)                                                       \
    _Generic((e),                                                                 \
        float: _Generic((k) TILE_F32_COMPOUND_TYPES(TILE__A_DIVS), default: tile_f32_div), \
        double: _Generic((k) TILE_F64_COMPOUND_TYPES(TILE__A_DIVS), default: tile_f64_div), \
        int32_t: tile_i32_div, uint32_t: tile_u32_div, int64_t: tile_i64_div, uint64_t: tile_u64_div \
        TILE_COMPOUND_TYPES(TILE__A_SDIV))((k), (e))
#endif

/* ---- atomic add of any element type ----
 * tile_atomic_add_ptr(p, v): *p += v atomically, p pointing into global (or
 * shared) memory. A scalar is one atomic; a vector or matrix is one atomic per
 * component, so concurrent adds of whole matrices sum correctly (a reader
 * racing with them may see a partly added matrix). On the CPU a plain add
 * (blocks run one after another). tile_atomic_add of tiles uses the same.
 *   tile_atomic_add_ptr(&acc, tile_mat33f_diag(1.0f));   // acc += I */
#if defined(__cplusplus)
#define TILE__OV_ATOMIC_C(sfx, S, ssfx, N)                                        \
    TILE_API void tile__atomic_add(tile_##sfx *p, tile_##sfx v) {                 \
        S *pp = (S *)p;                                                           \
        const S *vp = (const S *)&v;                                              \
        TILE__UNROLL for (int k = 0; k < N; ++k) tile__atomic_add(&pp[k], vp[k]); \
    }
TILE_COMPOUND_TYPES(TILE__OV_ATOMIC_C)
#else
#define TILE__DEF_ATOMIC_C(sfx, S, ssfx, N)                                       \
    TILE_API void tile__atomic_add_##sfx(tile_##sfx *p, tile_##sfx v) {           \
        S *pp = (S *)p;                                                           \
        const S *vp = (const S *)&v;                                              \
        for (int k = 0; k < N; ++k) tile__atomic_add_##ssfx(&pp[k], vp[k]);       \
    }
TILE_COMPOUND_TYPES(TILE__DEF_ATOMIC_C)
#undef TILE__ATOMIC_ADD
#define TILE__A_ATOMIC(sfx, ...) , tile_##sfx * : tile__atomic_add_##sfx
#define TILE__ATOMIC_ADD(p, v) _Generic((p) TILE__ALL_TYPES(TILE__A_ATOMIC))((p), (v))
#endif
#define tile_atomic_add_ptr(p, v) TILE__ATOMIC_ADD((p), (v))

#endif /* TILE_TYPES_H */
