/* must not compile: a 1D tile with offsets (r, 0) from a 2D array (issue 8,
 * item 4): load the row from tile_array_row(a, r) instead */
/* expect: tile_load takes one offset per tile dim: load a row into a 1D tile from tile_array_row */
#include <tile.h>
TILE_KERNEL(k, 64, const float *a, float *out, int r) {
    tile_reg(float, row, 64);
    tile_load(row, tile_array2(a, 8, 64), r, 0);
    tile_store(tile_array1(out, 64), row, 0);
}
