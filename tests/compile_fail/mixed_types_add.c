/* must not compile: f32 + f64 tiles (no silent conversion, no ambiguous overload) */
/* expect: tile_add: operands have different element types */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(float, a, 64);
    tile_reg(double, b, 64);
    tile_ones(a);
    tile_ones(b);
    tile_add(a, a, b);
    out[0] = a.v[0];
}
