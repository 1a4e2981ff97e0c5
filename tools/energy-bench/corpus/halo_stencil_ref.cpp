// CPU reference of halo_stencil.cu: out = c0 * center + c1 * (west + east +
// north + south), coordinates clamped to the grid.
#include "Reference.h"

ENERGY_REFERENCE(halo_stencil) {
  const int64_t ny = in.param("ny"), nx = in.param("nx");
  const float c0 = static_cast<float>(in.value(2)), c1 = static_cast<float>(in.value(3));
  const float *a = in.buffer<float>("in");
  float *o = out.buffer<float>("out");
  auto at = [&](int64_t x, int64_t y) {
    x = x < 0 ? 0 : (x >= nx ? nx - 1 : x);
    y = y < 0 ? 0 : (y >= ny ? ny - 1 : y);
    return a[y * nx + x];
  };
  for (int64_t y = 0; y < ny; ++y)
    for (int64_t x = 0; x < nx; ++x)
      o[y * nx + x] =
          c0 * at(x, y) + c1 * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1));
}
