/* must not compile: a's columns differ from b's rows */
/* expect: tile_matmul: a.+s columns \(K\) differ from b.+s rows */
#include <tile.h>
TILE_KERNEL(k, 64, int *p) {
    (void)p;
    tile_reg(float, a, 8, 4);
    tile_reg(float, b, 5, 8);
    tile_reg(float, c, 8, 8);
    tile_matmul(c, a, b);
}
