/* must not compile: the Cholesky factor of a non-square tile */
/* expect: tile_cholesky needs a square 2D tile */
#include <tile.h>
TILE_KERNEL(k, 64, int *p) {
    (void)p;
    tile_reg(float, A, 3, 4);
    tile_reg(float, L, 3, 4);
    tile_cholesky(L, A);
}
