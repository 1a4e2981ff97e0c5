// Host-emulation stand-in for <cuda_fp16.h>: __half as IEEE binary16 bits
// (conversions from Reference.h).
#ifndef ENERGY_HOST_CUDA_FP16_H
#define ENERGY_HOST_CUDA_FP16_H

#include "Reference.h"

struct __half {
  uint16_t bits;
};
inline float __half2float(__half h) { return energy_ref::halfToFloat(h.bits); }
inline __half __float2half(float f) { return {energy_ref::floatToHalf(f)}; }

#endif
