/* must not compile: an index tile must have the gathered axis's length */
/* expect: index tile length must equal */
#include <tile.h>
TILE_KERNEL(k, 64, const float *a, const int *ix, float *out) {
    tile_reg(int32_t, idx, 8);
    tile_load(idx, tile_array1(ix, 8), 0);
    tile_reg(float, t, 16, 4);
    tile_load_indexed(t, tile_array2(a, 32, 4), idx, 0, 0, 0);
    out[0] = t.v[0];
}
