// CPU reference of stencil3d.cu: one 7-point Jacobi step, boundary copied.
#include "Reference.h"

ENERGY_REFERENCE(stencil3d) {
  const int64_t nz = in.param("nz"), ny = in.param("ny"), nx = in.param("nx");
  const double c0 = static_cast<float>(in.value(3));
  const double c1 = static_cast<float>(in.value(4));
  const float *u = in.buffer<float>("in");
  float *v = out.buffer<float>("out");
  const int64_t plane = nx * ny;
  for (int64_t z = 0; z < nz; ++z)
    for (int64_t y = 0; y < ny; ++y)
      for (int64_t x = 0; x < nx; ++x) {
        const int64_t at = z * plane + y * nx + x;
        if (z == 0 || z == nz - 1 || y == 0 || y == ny - 1 || x == 0 ||
            x == nx - 1) {
          v[at] = u[at];
          continue;
        }
        double around = double(u[at - plane]) + u[at + plane] + u[at - nx] +
                        u[at + nx] + u[at - 1] + u[at + 1];
        v[at] = static_cast<float>(c0 * u[at] + c1 * around);
      }
}
