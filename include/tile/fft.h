/* tile/fft.h - (in progress) */
#ifndef TILE_FFT_H
#define TILE_FFT_H

#include "core.h"

#endif /* TILE_FFT_H */
