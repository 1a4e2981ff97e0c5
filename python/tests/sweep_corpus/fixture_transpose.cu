// Test fixture of the sweep: an integer matrix transpose through a shared
// TILE x (TILE+1) tile; the tunable TILE fixes the block shape.
#include <energy/energy.cuh>

ENERGY_TUNABLE(TILE, 16, 8, 16, 32);

extern "C" { // entry == name
ENERGY_KERNEL_TUNABLE_BLOCK(fixture_transpose, TILE, TILE)
void fixture_transpose(int rows, int cols, const int *in, int *out) {
  ENERGY_SHARED(int, tile, "TILE,TILE+1")[TILE_max][TILE_max + 1];
  const int t = ENERGY_VALUE(TILE);
  int x = blockIdx.x * t + threadIdx.x, y = blockIdx.y * t + threadIdx.y;
  if (x < cols && y < rows)
    tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * t + threadIdx.x;
  y = blockIdx.x * t + threadIdx.y;
  if (x < rows && y < cols)
    out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
} // extern "C"
