// CPU reference of the sweep's test fixture fixture_blocksum: the sums'
// count is the grid, one per block of BLOCK_X elements.
#include "Reference.h"

ENERGY_REFERENCE(fixture_blocksum) {
  int64_t n = in.param("n"), block = in.param("BLOCK_X");
  const float *x = in.buffer<float>("x");
  float *want = out.buffer<float>("sums");
  for (int64_t b = 0; b < out.count("sums"); ++b) {
    float s = 0.0f;
    for (int64_t i = b * block; i < (b + 1) * block && i < n; ++i)
      s += x[i];
    want[b] = s;
  }
}
