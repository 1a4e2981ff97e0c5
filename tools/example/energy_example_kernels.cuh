// The bundled example's kernels (included by energy_example.cu): a
// memory-bound SAXPY and a tiled SGEMM, opted in to energy tuning. Kept apart
// from the host code so that the tests can run them on the CPU under host
// emulation at every configuration the plugin may choose
// (test/Corpus/example.test).
#ifndef ENERGY_EXAMPLE_KERNELS_CUH
#define ENERGY_EXAMPLE_KERNELS_CUH

#include <energy/energy.cuh>

// --- SAXPY: y = a*x + y, ITEMS elements per thread ---
ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4, 8);
ENERGY_WORKLOAD(saxpy, 1 << 24);

ENERGY_KERNEL(saxpy) void saxpy(int n, float a, const float *x, float *y) {
  const int items = ENERGY_VALUE(ITEMS);
  int thread = blockIdx.x * blockDim.x + threadIdx.x;
  int threads = gridDim.x * blockDim.x;
  // Consecutive threads touch consecutive elements in every step.
  for (int k = 0; k < items; ++k) {
    int i = thread + k * threads;
    if (i < n)
      y[i] = a * x[i] + y[i];
  }
}

// --- SGEMM: C = A*B, square n x n, TILE x TILE threads per block ---
ENERGY_TUNABLE(TILE, 16, 8, 16, 32);
ENERGY_WORKLOAD(sgemm, 4096 * 4096);

ENERGY_KERNEL_TUNABLE_BLOCK(sgemm, TILE, TILE)
void sgemm(int n, const float *A, const float *B, float *C) {
  ENERGY_SHARED(float, As, "TILE,TILE")[TILE_max][TILE_max];
  ENERGY_SHARED(float, Bs, "TILE,TILE")[TILE_max][TILE_max];
  const int tile = ENERGY_VALUE(TILE);
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * tile + ty, col = blockIdx.x * tile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += tile) {
    As[ty][tx] = (row < n && k0 + tx < n) ? A[row * n + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < n && col < n) ? B[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < tile; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

#endif // ENERGY_EXAMPLE_KERNELS_CUH
