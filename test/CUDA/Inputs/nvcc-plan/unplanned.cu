// Not in energy_nvcc_plan's SOURCES: nvcc builds it with energy.cuh's
// defaults, no choices header.
#include <energy/energy.cuh>
ENERGY_KERNEL(zero) void zero(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 0.0f;
}
void launch_zero(int n, float *x) {
  dim3 block = ENERGY_BLOCK_DIM(zero);
  zero<<<(n + block.x - 1) / block.x, block>>>(n, x);
}
