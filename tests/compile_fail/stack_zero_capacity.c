/* must not compile: a tile_stack needs a positive capacity */
/* expect: tile_stack capacity must be a positive compile-time constant */
#include <tile.h>
TILE_KERNEL(k, 64, int *out) {
    tile_stack(int, s, 0);
    out[0] = tile_stack_count(s);
}
