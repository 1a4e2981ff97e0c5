// stencil_dynamic: y[i] = x[i-1] + x[i] + x[i+1] (x outside [0, n) is 0),
// each block staging its elements and a one-element halo on each side in
// dynamic shared memory: 4 bytes per thread plus 8 per block, declared with
// ENERGY_DYNAMIC_SHARED. A launch with less (the size of another block, or
// the per-thread part alone) reads and writes past the array.
//
// Grid: ceil(n / BLOCK_X). Dynamic shared memory: 4 * BLOCK_X + 8 bytes.
#include <energy/energy.cuh>

ENERGY_WORKLOAD(stencil_dynamic, 1 << 25);
ENERGY_DYNAMIC_SHARED(stencil_dynamic, sizeof(float), 2 * sizeof(float));

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(stencil_dynamic, "multiple=32");

extern "C" {
ENERGY_KERNEL(stencil_dynamic)
void stencil_dynamic(int n, const float *__restrict__ x, float *__restrict__ y) {
  extern __shared__ float stage[]; // blockDim.x + 2: [0] and [blockDim.x + 1] are the halo
  const unsigned tid = threadIdx.x;
  const int first = blockIdx.x * blockDim.x;
  const int i = first + tid;
  stage[tid + 1] = i < n ? x[i] : 0.0f;
  if (tid == 0) {
    stage[0] = first > 0 ? x[first - 1] : 0.0f;
    const int after = first + blockDim.x;
    stage[blockDim.x + 1] = after < n ? x[after] : 0.0f;
  }
  __syncthreads();
  if (i < n)
    y[i] = stage[tid] + stage[tid + 1] + stage[tid + 2];
}
}
