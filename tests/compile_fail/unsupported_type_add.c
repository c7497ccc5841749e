/* must not compile: a user struct has no tile_add */
/* expect: tile_add: unsupported element type */
#include <tile.h>
typedef struct { float x, y; } my_pair;
TILE_KERNEL(k, 32, my_pair *out) {
    tile_reg(my_pair, a, 32);
    tile_zeros(a);
    tile_add(a, a, a);
    out[0] = a.v[0];
}
