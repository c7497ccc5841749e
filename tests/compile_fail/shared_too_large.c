/* must not compile: a shared tile of 512 KiB fits no arena (issue 8, item 1) */
/* expect: tile_shared: a shared tile larger than TILE_MAX_SMEM_BYTES */
#include <tile.h>
TILE_KERNEL_SMEM(k, 64, 1024, float *out) {
    tile_shared(float, s, 1 << 17);
    tile_zeros(s);
    out[0] = tile_get(s, 0);
}
