/* control: the same shapes done right compile (guards the harness itself) */
#include <tile.h>
TILE_KERNEL_SMEM(k, 64, 1024, float *out) {
    tile_reg(float, a, 16, 16);
    tile_shared(float, s, 16, 16);
    tile_ones(a);
    tile_add(s, a, a);
    tile_set(s, 1.0f, 3, 3);
    out[0] = tile_get(s, 3, 3);
}
