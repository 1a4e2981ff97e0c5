// saxpy: z = a*x + y. Memory streaming (12 bytes per item, 2 flops).
// Out of place, so every launch computes the same z. Each thread does ITEMS
// elements strided by the whole grid: every step of a warp stays coalesced.
//
// Grid: ceil(n / (BLOCK_X * ITEMS)).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);
ENERGY_WORKLOAD(saxpy, 1 << 25);

extern "C" {
ENERGY_KERNEL(saxpy)
void saxpy(int n, float a, const float *__restrict__ x,
           const float *__restrict__ y, float *__restrict__ z) {
  const int items = ENERGY_VALUE(ITEMS);
  const int threads = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < items; ++k, i += threads)
    if (i < n)
      z[i] = a * x[i] + y[i];
}
}
