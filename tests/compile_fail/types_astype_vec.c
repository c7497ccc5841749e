/* must not compile: tile_astype from a vector tile to a scalar tile (no conversion between them) */
/* expect: tile_astype / tile_map: no conversion between these element types */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(tile_vec3f, a, 64);
    tile_reg(float, b, 64);
    tile_ones(a);
    tile_astype(b, a);
    out[0] = b.v[0];
}
