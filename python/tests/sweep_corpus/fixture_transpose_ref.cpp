// CPU reference of the sweep's test fixture fixture_transpose.
#include "Reference.h"

ENERGY_REFERENCE(fixture_transpose) {
  int64_t rows = in.param("rows"), cols = in.param("cols");
  const int32_t *src = in.buffer<int32_t>("in");
  int32_t *want = out.buffer<int32_t>("out");
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      want[c * rows + r] = src[r * cols + c];
}
