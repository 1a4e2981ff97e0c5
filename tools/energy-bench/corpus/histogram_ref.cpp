// CPU reference of histogram.cu: 256-bin histogram of n bytes.
#include "Reference.h"

ENERGY_REFERENCE(histogram) {
  const int64_t n = in.param("n");
  const uint8_t *data = in.buffer<uint8_t>("data");
  uint32_t *bins = out.buffer<uint32_t>("bins");
  for (int b = 0; b < 256; ++b)
    bins[b] = 0;
  for (int64_t i = 0; i < n; ++i)
    ++bins[data[i]];
}
