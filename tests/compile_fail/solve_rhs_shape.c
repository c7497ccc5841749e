/* must not compile: a right-hand side whose length is not the factor's order */
/* expect: tile_lower_solve: the right-hand side needs shape */
#include <tile.h>
TILE_KERNEL(k, 64, int *p) {
    (void)p;
    tile_reg(float, L, 3, 3);
    tile_reg(float, y, 4);
    tile_reg(float, z, 4);
    tile_lower_solve(z, L, y);
}
