// CPU reference of tile_copy.cu: each tile of 1024 elements rotated by one,
// out[t * 1024 + j] = in[t * 1024 + (j + 1) % 1024].
#include "Reference.h"

ENERGY_REFERENCE(tile_copy) {
  const int64_t tile = 1024, n = in.param("n");
  const float *a = in.buffer<float>("in");
  float *o = out.buffer<float>("out");
  for (int64_t first = 0; first < n; first += tile)
    for (int64_t j = 0; j < tile; ++j)
      o[first + j] = a[first + (j + 1) % tile];
}
