// The host of tu_kernel.cu, launching with the record.
#include <energy/energy.cuh>
#include <cstdio>
__global__ void axpy(int n, float a, const float *x, float *y);
ENERGY_KERNEL_EXTERN(axpy);
int main() {
  int n = 1 << 24; float *x, *y; cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);
  cudaError_t e = ENERGY_LAUNCH(n, axpy)(n, 2.0f, x, y);
  printf("block %u: %s\n", ENERGY_BLOCK_DIM(axpy).x, cudaGetErrorString(e));
  return cudaDeviceSynchronize() != cudaSuccess;
}
