// diff_staged: y[i] = x[i] - x[i-1] (x[-1] = 0), each block staging its
// elements in a shared array sized for the default block of 256 threads and
// indexed by threadIdx.x: blocks of more than 256 threads overrun it.
//
// Grid: ceil(n / BLOCK_X).
#include <energy/energy.cuh>

ENERGY_WORKLOAD(diff_staged, 1 << 25);

extern "C" {
ENERGY_KERNEL(diff_staged)
void diff_staged(int n, const float *__restrict__ x, float *__restrict__ y) {
  __shared__ float stage[256];
  const unsigned tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  stage[tid] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i >= n)
    return;
  float left = tid > 0 ? stage[tid - 1] : (i > 0 ? x[i - 1] : 0.0f);
  y[i] = x[i] - left;
}
}
