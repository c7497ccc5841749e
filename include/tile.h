/* tile.h - tiles for CUDA C: one kernel source for the GPU and the CPU.
 *
 * Include this one header from a .cu file (nvcc) or a .c file (C11, CPU
 * only). See README.md and docs/design.md.
 */
#ifndef TILE_H
#define TILE_H

#define TILE_VERSION_MAJOR 0
#define TILE_VERSION_MINOR 1
#define TILE_VERSION_PATCH 0
#define TILE_VERSION_STRING "0.1.0"

#include "tile/config.h"
#include "tile/platform.h"
#include "tile/types.h"
#include "tile/smem.h"
#include "tile/launch.h"
#include "tile/warp.h"
#include "tile/core.h"
#include "tile/elementwise.h"
#include "tile/construct.h"
#include "tile/reduce.h"
#include "tile/sort.h"
#include "tile/histogram.h"
#include "tile/scan.h"
#include "tile/select.h"
#include "tile/load.h"
#include "tile/stack.h"
#include "tile/async.h"
#include "tile/indexed.h"
#include "tile/linalg.h"
#include "tile/matmul.h"
#include "tile/tile16.h"
#include "tile/chol_batched.h"
#include "tile/fft.h"
#include "tile/strict.h"

#endif /* TILE_H */
