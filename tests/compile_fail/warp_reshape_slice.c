/* must not compile: reshaping a strided slice of a shared tile (not contiguous), as in Warp */
/* expect: reshape of a non-contiguous view */
#include <tile.h>
TILE_KERNEL_SMEM(k, 64, 1024, float *out) {
    tile_shared(float, s, 8, 8);
    tile_zeros(s);
    tile_slice(v, s, TILE_STEP(2));
    tile_reshape(r, v, 32);
    tile_store(tile_array1(out, 32), r, 0);
}
