// An opted-in kernel in its own file.
#include <energy/energy.cuh>
ENERGY_WORKLOAD(axpy, 1 << 24);
ENERGY_KERNEL(axpy) void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
