/* tile/chol_batched.h - (in progress) */
#ifndef TILE_CHOL_BATCHED_H
#define TILE_CHOL_BATCHED_H

#include "core.h"

#endif /* TILE_CHOL_BATCHED_H */
