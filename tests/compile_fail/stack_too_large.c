/* must not compile: 64 KiB of stack exceeds the static shared-memory limit */
/* expect: tile_stack too large for static shared memory */
#include <tile.h>
TILE_KERNEL(k, 64, int *out) {
    tile_stack(double, s, 8192);
    out[0] = tile_stack_count(s);
}
