/* Shared by tests/cpu/test_types.c and tests/gpu/types_test.cu (C11 and nvcc
 * C++17): the body of the 16-bit tile kernel, one sequence of operations on
 * both targets. Needs <tile.h>, HR, HC, HN and the TILE_FUNC maps h_sq1,
 * h_lin3, h_sum4 first. */
#ifndef TYPES_REF_H
#define TYPES_REF_H

/* out[j * HN]: 0 a+b 1 a-b 2 a*b 3 a/b 4 -a 5 a*k 6 k/a 7 map(x^2+1)
 * 8 map3(a*b-a) 9 ones 10 zeros 11 astype(f32 f -> T) 12 map4(a,b,a,b)
 * 13 copy through shared (store tier); f32out: astype(a -> f32); t0, t1
 * (lvalues): the load tier of the shared tile, the store tier. Leaves the
 * shared tile sa (= a) and the f32 register tile rf in scope. */
#define TYPES_HALF_OPS(sfx, a, b, f, k, out, f32out, t0, t1)                       \
    tile_array o = tile_array2(out, H_NOUT * HR, HC);                              \
    tile_shared(tile_##sfx, sa, HR, HC);                                           \
    tile_shared(tile_##sfx, sc, HR, HC);                                           \
    tile_reg(tile_##sfx, rb, HR, HC);                                              \
    tile_reg(tile_##sfx, rc, HR, HC);                                              \
    t0 = tile_load_ex(sa, tile_array2(a, HR, HC), TILE_LOAD_AUTO, 0, 0);          \
    tile_load(rb, tile_array2(b, HR, HC), 0, 0);                                   \
    tile_add(rc, sa, rb);                                                          \
    tile_store(o, rc, 0 * HR, 0);                                                  \
    tile_sub(sc, sa, rb);                                                          \
    tile_store(o, sc, 1 * HR, 0);                                                  \
    tile_mul(rc, sa, rb);                                                          \
    tile_store(o, rc, 2 * HR, 0);                                                  \
    tile_div(sc, sa, rb);                                                          \
    tile_store(o, sc, 3 * HR, 0);                                                  \
    tile_neg(rc, sa);                                                              \
    tile_store(o, rc, 4 * HR, 0);                                                  \
    tile_mul_c(rc, sa, k);                                                         \
    tile_store(o, rc, 5 * HR, 0);                                                  \
    tile_c_div(sc, k, sa);                                                         \
    tile_store(o, sc, 6 * HR, 0);                                                  \
    tile_map(rc, h_sq1, sa);                                                       \
    tile_store(o, rc, 7 * HR, 0);                                                  \
    tile_map3(sc, h_lin3, sa, rb, sa);                                             \
    tile_store(o, sc, 8 * HR, 0);                                                  \
    tile_ones(rc);                                                                 \
    tile_store(o, rc, 9 * HR, 0);                                                  \
    tile_zeros(sc);                                                                \
    tile_store(o, sc, 10 * HR, 0);                                                 \
    tile_reg(float, rf, HR, HC);                                                   \
    tile_load(rf, tile_array2(f, HR, HC), 0, 0);                                   \
    tile_astype(rc, rf);                                                           \
    tile_store(o, rc, 11 * HR, 0);                                                 \
    tile_map4(rc, h_sum4, sa, rb, sa, rb);                                         \
    tile_store(o, rc, 12 * HR, 0);                                                 \
    tile_shared(tile_##sfx, sd, HR, HC);                                           \
    tile_copy(sd, sa);                                                             \
    t1 = tile_store_ex(tile_array2(out + 13 * HN, HR, HC), sd, TILE_LOAD_AUTO, 0, 0); \
    tile_astype(rf, sa);                                                           \
    tile_store(tile_array2(f32out, HR, HC), rf, 0, 0)

#endif /* TYPES_REF_H */
