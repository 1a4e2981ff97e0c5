// Host code in a .cpp: reads the record of a kernel another file defines,
// and its tunable, and launches through the .cu's wrapper.
#include <energy/energy.cuh>
#include <cstdio>
ENERGY_KERNEL_EXTERN(axpy);
void launch_axpy(int n, float a, const float *x, float *y, dim3 grid, dim3 block);
int main() {
  int n = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  dim3 block = ENERGY_BLOCK_DIM(axpy);
  launch_axpy(n, 2.0f, x, y, dim3((n + block.x - 1) / block.x), block);
  std::printf("block %u, record: %s\n", block.x,
              cudaGetErrorString(ENERGY_RECORD_ERROR(axpy)));
  return cudaDeviceSynchronize() != cudaSuccess;
}
