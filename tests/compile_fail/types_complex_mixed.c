/* must not compile: a c32 tile times an f64 tile (one scalar type per product) */
/* expect: tile_mul: operands have different element types */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(tile_c32, a, 64);
    tile_reg(double, b, 64);
    tile_ones(a);
    tile_ones(b);
    tile_mul(a, a, b);
    out[0] = a.v[0].re;
}
