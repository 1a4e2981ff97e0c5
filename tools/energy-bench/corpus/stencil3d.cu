// stencil3d: one Jacobi step of a 7-point stencil on an nz x ny x nx grid,
//   out = c0 * center + c1 * (sum of the six face neighbours),
// boundary points copied. A 2-D block covers an x-y patch; each thread
// marches through ZITEMS consecutive z planes, keeping below/center/above in
// registers.
//
// Grid: ceil(nx / BLOCK_X) x ceil(ny / BLOCK_Y) x ceil(nz / ZITEMS).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ZITEMS, 8, 4, 8, 16);
ENERGY_WORKLOAD(stencil3d, 512 * 512 * 256);

extern "C" {
ENERGY_KERNEL_BLOCK(stencil3d, 32, 8)
void stencil3d(int nz, int ny, int nx, float c0, float c1,
               const float *__restrict__ in, float *__restrict__ out) {
  const int zitems = ENERGY_VALUE(ZITEMS);
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z0 = blockIdx.z * zitems;
  if (x >= nx || y >= ny || z0 >= nz)
    return;
  const size_t plane = (size_t)nx * ny;
  const bool interior_xy = x > 0 && x < nx - 1 && y > 0 && y < ny - 1;
  size_t at = z0 * plane + (size_t)y * nx + x;
  float below = z0 > 0 ? in[at - plane] : 0.0f;
  float center = in[at];
  for (int k = 0; k < zitems; ++k, at += plane) {
    const int z = z0 + k;
    if (z >= nz)
      break;
    float above = z + 1 < nz ? in[at + plane] : 0.0f;
    float v = center;
    if (interior_xy && z > 0 && z < nz - 1)
      v = c0 * center + c1 * (below + above + in[at - 1] + in[at + 1] +
                              in[at - nx] + in[at + nx]);
    out[at] = v;
    below = center;
    center = above;
  }
}
}
