/* must not compile: tile_arange's count comes from constants (Warp's rule);
 * a run-time stop needs tile_arange_n */
/* expect: integer constant|constant value */
#include <tile.h>
TILE_KERNEL(k, 64, int *out, int n) {
    tile_arange(a, 0, n, 1);
    tile_store(tile_array1(out, 8), a, 0);
}
