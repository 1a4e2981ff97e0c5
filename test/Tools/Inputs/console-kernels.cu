// Kernels of each kind of row in energy-cuda's table
// (test/Tools/energy-cuda-table.test): opted-in kernels with tunables,
// one to force, a kernel that did not opt in (advice), and two that are left
// alone (their code assumes the block size).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4, 8);
ENERGY_WORKLOAD(scale, 1 << 24);

ENERGY_KERNEL(scale) void scale(int n, float a, float *y) {
  const int items = ENERGY_VALUE(ITEMS);
  int thread = blockIdx.x * blockDim.x + threadIdx.x;
  int threads = gridDim.x * blockDim.x;
  for (int k = 0; k < items; ++k) {
    int i = thread + k * threads;
    if (i < n)
      y[i] = a * y[i];
  }
}

ENERGY_WORKLOAD(copy, 1 << 24);
ENERGY_KERNEL(copy) void copy(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
}

extern "C" __global__ void advise(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = y[i] * 2.0f + 1.0f;
}

extern "C" __global__ void fixedA(float *x) {
  float v = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = v + 1.0f;
}

extern "C" __global__ void fixedB(float *x) {
  float v = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = v * 3.0f;
}
