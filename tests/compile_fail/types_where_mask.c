/* must not compile: tile_where with a float mask (masks are integer or bool tiles) */
/* expect: tile_where: the mask must be a tile of an integer or bool type */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(float, m, 64);
    tile_reg(float, a, 64);
    tile_ones(m);
    tile_ones(a);
    tile_where(a, m, a, a);
    out[0] = a.v[0];
}
