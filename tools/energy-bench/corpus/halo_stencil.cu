// halo_stencil: one Jacobi step of a 5-point stencil on an ny x nx grid,
//   out = c0 * center + c1 * (west + east + north + south),
// with the grid's edge repeated past it (coordinates clamped). Each block
// stages a 16 x 16 tile plus a one-point halo in shared memory; the tile and
// halo are written with the constant 16 while the global coordinates use
// blockDim, as code ported from a fixed 16 x 16 launch often is. Correct only
// for 16 x 16 blocks: a narrower or shorter block never loads the east or
// south halo (the threads at 15 do not exist), a wider or taller one indexes
// past the tile's rows.
//
// Grid: ceil(nx / BLOCK_X) x ceil(ny / BLOCK_Y); declared block 16 x 16.
#include <energy/energy.cuh>

#define TILE 16

ENERGY_WORKLOAD(halo_stencil, 8192 * 8192);

extern "C" {
ENERGY_KERNEL_BLOCK(halo_stencil, TILE, TILE)
void halo_stencil(int ny, int nx, float c0, float c1,
                  const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float tile[TILE + 2][TILE + 2];
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  auto at = [&](int px, int py) {
    px = min(max(px, 0), nx - 1);
    py = min(max(py, 0), ny - 1);
    return in[(size_t)py * nx + px];
  };
  tile[ty][tx] = at(x, y);
  if (threadIdx.x == 0)
    tile[ty][0] = at(x - 1, y);
  if (threadIdx.x == TILE - 1)
    tile[ty][TILE + 1] = at(x + 1, y);
  if (threadIdx.y == 0)
    tile[0][tx] = at(x, y - 1);
  if (threadIdx.y == TILE - 1)
    tile[TILE + 1][tx] = at(x, y + 1);
  __syncthreads();
  if (x < nx && y < ny)
    out[(size_t)y * nx + x] =
        c0 * tile[ty][tx] +
        c1 * (tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx]);
}
}
