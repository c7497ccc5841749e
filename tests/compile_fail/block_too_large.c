/* must not compile: block sizes are 1..1024 */
/* expect: block size must be 1..1024 */
#include <tile.h>
TILE_KERNEL(k, 2048, float *out) { out[0] = 0; }
