#include <energy/energy.cuh>
ENERGY_TUNABLE(TILE, 32, 16, 32, 64);
ENERGY_KERNEL(fill) void fill(int n, float *x) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * ENERGY_VALUE(TILE);
  for (int j = i; j < i + ENERGY_VALUE(TILE) && j < n; ++j)
    x[j] = 1.0f;
}
void launch_fill(int n, float *x) {
  dim3 block = ENERGY_BLOCK_DIM(fill);
  fill<<<(n + block.x - 1) / block.x, block>>>(n, x);
}
