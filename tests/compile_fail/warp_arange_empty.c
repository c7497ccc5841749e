/* must not compile: an empty range (Warp's count int((stop - start) / step) is 0) */
/* expect: tile_arange: empty range */
#include <tile.h>
TILE_KERNEL(k, 64, int *out) {
    tile_arange(a, 5, 0, 1);
    tile_store(tile_array1(out, 8), a, 0);
}
