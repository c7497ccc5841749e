/* must not compile: an asynchronous copy lands in shared memory */
/* expect: tile_load_async needs a shared tile */
#include <tile.h>
TILE_KERNEL(k, 64, const float *in, float *out) {
    tile_reg(float, a, 64);
    tile_load_async(a, tile_array1(in, 64), 0);
    tile_async_wait_all();
    out[0] = a.v[0];
}
