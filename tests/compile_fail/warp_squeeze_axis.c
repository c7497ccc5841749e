/* must not compile: tile_squeeze's axis must have extent 1 */
/* expect: the squeezed axis must have extent 1 */
#include <tile.h>
TILE_KERNEL(k, 64, float *out) {
    tile_reg(float, a, 1, 4);
    tile_zeros(a);
    tile_squeeze(b, a, 1);
    tile_store(tile_array1(out, 1), b, 0);
}
