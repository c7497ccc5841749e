/* tile/matmul.h - (in progress) */
#ifndef TILE_MATMUL_H
#define TILE_MATMUL_H

#include "core.h"

#endif /* TILE_MATMUL_H */
