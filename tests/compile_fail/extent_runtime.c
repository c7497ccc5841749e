/* must not compile: a tile extent known only at run time (issue 8, item 6;
 * in C it would be a variable-length array) */
/* expect: tile extents must be positive compile-time constants|local variable of enclosing function */
#include <tile.h>
TILE_KERNEL(k, 64, const float *a, float *out, int n) {
    tile_reg(float, t, n);
    tile_load(t, tile_array1(a, n), 0);
    tile_store(tile_array1(out, n), t, 0);
}
