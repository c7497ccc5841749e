/* must not compile: an f16 tile plus an f32 tile (convert one with tile_astype) */
/* expect: tile_add: operands have different element types */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(tile_f16, a, 64);
    tile_reg(float, b, 64);
    tile_ones(a);
    tile_ones(b);
    tile_add(a, a, b);
    out[0] = tile_f16_to_f32(a.v[0]);
}
