// An opted-in kernel launched with a constant block (forgot ENERGY_BLOCK_DIM).
#include <energy/energy.cuh>
#include <cstdio>
ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);
ENERGY_WORKLOAD(scale, 1 << 24);
ENERGY_KERNEL(scale) void scale(int n, float a, float *y) {
  int items = ENERGY_VALUE(ITEMS);
  int t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
  for (int k = 0; k < items; ++k) { int i = t + k * T; if (i < n) y[i] *= a; }
}
int main() {
  int n = 1 << 24; float *y; cudaMalloc(&y, n * 4);
  scale<<<(n + 255) / 256, 256>>>(n, 2.0f, y);   // forgot ENERGY_BLOCK_DIM / ENERGY_LAUNCH
  return cudaDeviceSynchronize() != cudaSuccess;
}
