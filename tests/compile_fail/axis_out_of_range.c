/* must not compile: a 2D tile has no axis 2 */
/* expect: reduction axis out of range */
#include <tile.h>
TILE_KERNEL(k, 64, const float *in, float *out) {
    tile_reg(float, t, 8, 8);
    tile_load(t, tile_array2(in, 8, 8), 0, 0);
    tile_sum_axis(r, t, 2);
    out[0] = r.v[0];
}
