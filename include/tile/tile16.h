/* tile/tile16.h - (in progress) */
#ifndef TILE_TILE16_H
#define TILE_TILE16_H

#include "core.h"

#endif /* TILE_TILE16_H */
