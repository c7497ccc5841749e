/* must not compile: vector times vector has no promotion (use tile_map2) */
/* expect: tile_vec3f_mul_s|tile__g_mul */
#include <tile.h>
TILE_KERNEL(k, 64, tile_vec3f *out) {
    tile_reg(tile_vec3f, a, 64);
    tile_ones(a);
    tile_mul(a, a, a);
    out[0] = a.v[0];
}
