// An opted-in kernel and a launch wrapper taking the block from its caller,
// which another file is (host_nvcc.cu).
#include <energy/energy.cuh>
ENERGY_WORKLOAD(axpy, 1 << 24);
ENERGY_KERNEL(axpy) void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
void launch_axpy(int n, float a, const float *x, float *y, dim3 grid, dim3 block) { axpy<<<grid, block>>>(n, a, x, y); }
