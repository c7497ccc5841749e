/* must not compile: tile_reshape infers at most one -1 extent */
/* expect: at most one extent may be -1 */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(float, a, 24);
    tile_zeros(a);
    tile_reshape(b, a, 2, -1, -1);
    tile_store(tile_array3(out, 2, 3, 4), b, 0, 0, 0);
}
