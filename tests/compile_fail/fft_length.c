/* must not compile: a transform length that is not a power of two */
/* expect: tile_fft */
#include <tile.h>
TILE_KERNEL(k, 64, int *p) {
    (void)p;
    tile_reg(tile_c32, t, 4, 100);
    tile_fft(t);
}
