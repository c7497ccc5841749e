/* must not compile: i32 - i64 tiles */
/* expect: tile_sub: operands have different element types */
#include <tile.h>
TILE_KERNEL(k, 32, int32_t *out) {
    tile_reg(int32_t, a, 32);
    tile_reg(int64_t, b, 32);
    tile_ones(a);
    tile_ones(b);
    tile_sub(a, a, b);
    out[0] = a.v[0];
}
