/* must not compile: a step on the last dim of a 4D tile (dim 3 has stride 1 in the type) */
/* expect: a step on the last dim of a 4D tile */
#include <tile.h>
TILE_KERNEL_SMEM(k, 64, 1024, float *out) {
    tile_shared(float, s, 2, 2, 2, 4);
    tile_zeros(s);
    tile_slice(v, s, TILE_ALL, TILE_ALL, TILE_ALL, TILE_STEP(2));
    tile_store(tile_array4(out, 2, 2, 2, 2), v, 0, 0, 0, 0);
}
