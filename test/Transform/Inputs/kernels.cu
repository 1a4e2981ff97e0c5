// Kernels shared by the transform tests.
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);
ENERGY_KERNEL(saxpy) void saxpy(int n, float a, const float *x, float *y) {
  const int items = ENERGY_VALUE(ITEMS);
  int thread = blockIdx.x * blockDim.x + threadIdx.x;
  int threads = gridDim.x * blockDim.x;
  for (int k = 0; k < items; ++k) {
    int i = thread + k * threads;
    if (i < n)
      y[i] = a * x[i] + y[i];
  }
}

ENERGY_TUNABLE(TILE, 16, 8, 16, 32);
ENERGY_KERNEL_TUNABLE_BLOCK(sgemm, TILE, TILE)
void sgemm(int n, const float *A, const float *B, float *C) {
  ENERGY_SHARED(float, As, "TILE,TILE")[TILE_max][TILE_max];
  ENERGY_SHARED(float, Bs, "TILE,TILE+1")[TILE_max][TILE_max + 1];
  const int tile = ENERGY_VALUE(TILE);
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * tile + ty, col = blockIdx.x * tile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += tile) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < tile; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Not opted in: its host launches choose the block, so advice only.
__global__ void scale(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

// Bounded by the user: left alone even when opted in, with the record of its
// declared default (within its bounds; a default beyond them is an error).
ENERGY_KERNEL_BLOCK(bounded, 128, 1) __launch_bounds__(128)
void bounded(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}
