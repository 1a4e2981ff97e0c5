// Calls kern_cu.cu's wrapper with the record's block (built by nvcc or energy-cuda).
#include <energy/energy.cuh>
#include <cstdio>
ENERGY_KERNEL_EXTERN(axpy);
void launch_axpy(int n, float a, const float *x, float *y, dim3 grid, dim3 block);
int main() {
  int n = 1 << 24; float *x, *y; cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);
  dim3 block = ENERGY_BLOCK_DIM(axpy);
  launch_axpy(n, 2.0f, x, y, dim3((n + block.x - 1) / block.x), block);
  return 0;
}
