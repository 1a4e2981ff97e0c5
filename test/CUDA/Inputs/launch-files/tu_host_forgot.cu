// The host of tu_kernel.cu without energy.cuh: this file cannot know that axpy
// opted in, so its launch by hand is not checked.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void axpy(int n, float a, const float *x, float *y);
int main() {
  int n = 1 << 24; float *x, *y; cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);
  axpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return cudaDeviceSynchronize() != cudaSuccess;
}
