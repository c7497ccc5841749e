/* must not compile: tile_async_wait takes a constant group count */
/* expect: not constant|constant value */
#include <tile.h>
TILE_KERNEL(k, 64, const float *in, float *out, int n) {
    tile_shared(float, s, 64);
    tile_load_async(s, tile_array1(in, 64), 0);
    tile_async_commit();
    tile_async_wait(n);
    out[0] = s.v[0];
}
