/* must not compile: (4) does not broadcast onto (4, 100) (issue 8, item 3) */
/* expect: tile_broadcast: shapes cannot broadcast */
#include <tile.h>
TILE_KERNEL_SMEM(k, 64, 1024, const float *in, float *out) {
    tile_reg(float, a, 4);
    tile_load(a, tile_array1(in, 4), 0);
    tile_reg(float, b, 4, 100);
    tile_broadcast(b, a);
    tile_store(tile_array2(out, 4, 100), b, 0, 0);
}
