// stencil2d: one Jacobi step of a 5-point stencil on an ny x nx grid,
//   out = c0 * center + c1 * (north + south + west + east),
// boundary points copied. Each thread computes ITEMS consecutive points of a
// column, keeping north/center/south in registers (fewer loads per point as
// ITEMS grows).
//
// Grid: ceil(nx / BLOCK_X) x ceil(ny / (BLOCK_Y * ITEMS)).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);
ENERGY_WORKLOAD(stencil2d, 8192 * 8192);

extern "C" {
ENERGY_KERNEL_BLOCK(stencil2d, 32, 8)
void stencil2d(int ny, int nx, float c0, float c1,
               const float *__restrict__ in, float *__restrict__ out) {
  const int items = ENERGY_VALUE(ITEMS);
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * items;
  if (x >= nx || y0 >= ny)
    return;
  float north = y0 > 0 ? in[(size_t)(y0 - 1) * nx + x] : 0.0f;
  float center = in[(size_t)y0 * nx + x];
  for (int k = 0; k < items; ++k) {
    const int y = y0 + k;
    if (y >= ny)
      break;
    const size_t at = (size_t)y * nx + x;
    float south = y + 1 < ny ? in[at + nx] : 0.0f;
    float v = center;
    if (y > 0 && y < ny - 1 && x > 0 && x < nx - 1)
      v = c0 * center + c1 * (north + south + in[at - 1] + in[at + 1]);
    out[at] = v;
    north = center;
    center = south;
  }
}
}
