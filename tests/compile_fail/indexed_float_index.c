/* must not compile: index tiles hold integers */
/* expect: index tiles hold integers */
#include <tile.h>
TILE_KERNEL_SMEM(k, 64, 1024, const float *v, float *out) {
    tile_shared(float, dst, 16);
    tile_zeros(dst);
    tile_reg(float, idx, 32);
    tile_load(idx, tile_array1(v, 32), 0);
    tile_scatter_add(dst, idx, idx);
    out[0] = tile_get(dst, 0);
}
