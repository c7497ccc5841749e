/* tests/guard_common.h - kernels shared by tests/cpu/test_guard.c and
 * tests/gpu/guard_test.cu. */
#ifndef GUARD_COMMON_H
#define GUARD_COMMON_H

/* Every indexed operation with the indices ix (ni of them, some negative)
 * and an offset o into an array of nv values: a negative index skips,
 * whatever the offset. g: the gathered values, st: the indexed stores,
 * at: the indexed atomics, then (at + nv) a scatter into a shared tile. */
#define GUARD_NEG_IDX_KERNEL(name, block, ni, nv)                                  \
    TILE_KERNEL_SMEM(name, block, 1024, const float *vals, const int32_t *ix, int o, float *g, float *st, \
                     float *at) {                                                  \
        tile_reg(int32_t, idx, ni);                                                \
        tile_load(idx, tile_array1(ix, ni), 0);                                    \
        tile_reg(float, t, ni);                                                    \
        tile_load_indexed(t, tile_array1(vals, nv), idx, 0, o);                    \
        tile_store(tile_array1(g, ni), t, 0);                                      \
        tile_arange(t, 100, 1);                                                    \
        tile_store_indexed(tile_array1(st, nv), t, idx, 0, o);                     \
        tile_atomic_add_indexed(tile_array1(at, nv), t, idx, 0, o);                \
        tile_shared(float, dst, nv);                                               \
        tile_zeros(dst);                                                           \
        tile_scatter_add(dst, idx, t); /* no offset: a negative index skips here too */ \
        tile_store(tile_array1(at + nv, nv), dst, 0);                              \
    }

#endif /* GUARD_COMMON_H */
