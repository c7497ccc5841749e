/* tile/linalg.h - (in progress) */
#ifndef TILE_LINALG_H
#define TILE_LINALG_H

#include "core.h"

#endif /* TILE_LINALG_H */
