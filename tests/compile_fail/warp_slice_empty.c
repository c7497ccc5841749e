/* must not compile: an empty slice (t[3:3, :]) */
/* expect: tile_slice: empty slice */
#include <tile.h>
TILE_KERNEL_SMEM(k, 64, 1024, float *out) {
    tile_shared(float, s, 8, 8);
    tile_zeros(s);
    tile_slice(v, s, TILE_RANGE(3, 3));
    tile_store(tile_array2(out, 1, 8), v, 0, 0);
}
