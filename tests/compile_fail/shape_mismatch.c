/* must not compile: element-wise operands of different shapes */
/* expect: tile shapes differ */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(float, a, 16, 16);
    tile_reg(float, b, 16, 8);
    tile_zeros(a);
    tile_zeros(b);
    tile_add(a, a, b);
    out[0] = a.v[0];
}
