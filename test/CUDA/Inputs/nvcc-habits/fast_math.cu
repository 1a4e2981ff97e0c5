// Fast-math intrinsics and the math library as the simulation samples use
// them; built with --use_fast_math, sinf/expf/division/sqrtf become the
// approximate instructions nvcc emits.
#include "check_cuda.h"

__global__ void wave(const float *X, float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = __sinf(X[I]) * __expf(-X[I]) + sinf(X[I]) / X[I] + sqrtf(X[I]) +
           __fdividef(1.0f, X[I] + 1.0f) + rsqrtf(X[I] + 2.0f);
}

int main() {
  const int N = 4096;
  float *X, *Y;
  checkCudaErrors(cudaMalloc(&X, N * sizeof(float)));
  checkCudaErrors(cudaMalloc(&Y, N * sizeof(float)));
  wave<<<blocksFor(N, 256, 65535), 256>>>(X, Y, N);
  checkCudaErrors(cudaDeviceSynchronize());
  return 0;
}
