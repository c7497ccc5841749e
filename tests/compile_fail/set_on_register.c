/* must not compile: element writes need a shared tile */
/* expect: tile_set needs a shared tile */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(float, a, 64);
    tile_zeros(a);
    tile_set(a, 1.0f, 3);
    out[0] = a.v[0];
}
