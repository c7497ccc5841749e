/* must not compile: the declared arena exceeds TILE_MAX_SMEM_BYTES */
/* expect: kernel arena exceeds TILE_MAX_SMEM_BYTES */
#include <tile.h>
TILE_KERNEL_SMEM(k, 64, 300 * 1024, float *out) { out[0] = 0; }
