/* must not compile: long double is not an element type of the arithmetic */
/* expect: tile_mul: unsupported element type */
#include <tile.h>
TILE_KERNEL(k, 32, long double *out) {
    tile_reg(long double, a, 32);
    tile_zeros(a);
    tile_mul_c(a, a, 2.0L);
    out[0] = a.v[0];
}
