// Reads the record of axpy (another file's kernel) but launches it by hand.
#include <energy/energy.cuh>
#include <cstdio>
__global__ void axpy(int n, float a, const float *x, float *y);
ENERGY_KERNEL_EXTERN(axpy);
int main() {
  int n = 1 << 24; float *x, *y; cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);
  printf("chosen block %u\n", ENERGY_BLOCK_DIM(axpy).x);
  axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);   // reads the record, launches by hand
  return cudaDeviceSynchronize() != cudaSuccess;
}
