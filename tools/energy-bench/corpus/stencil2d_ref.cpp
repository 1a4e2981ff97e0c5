// CPU reference of stencil2d.cu: one 5-point Jacobi step, boundary copied.
#include "Reference.h"

ENERGY_REFERENCE(stencil2d) {
  const int64_t ny = in.param("ny"), nx = in.param("nx");
  const double c0 = static_cast<float>(in.value(2));
  const double c1 = static_cast<float>(in.value(3));
  const float *u = in.buffer<float>("in");
  float *v = out.buffer<float>("out");
  for (int64_t y = 0; y < ny; ++y)
    for (int64_t x = 0; x < nx; ++x) {
      const int64_t at = y * nx + x;
      if (y == 0 || y == ny - 1 || x == 0 || x == nx - 1) {
        v[at] = u[at];
        continue;
      }
      double around = double(u[at - nx]) + u[at + nx] + u[at - 1] + u[at + 1];
      v[at] = static_cast<float>(c0 * u[at] + c1 * around);
    }
}
