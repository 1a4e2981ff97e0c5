// block_const_index: y = a * x + b through a grid-stride loop that starts at
// blockIdx.x * BLOCK + threadIdx.x with the constant BLOCK = 256 and steps by
// gridDim.x * blockDim.x, as code ported from a fixed 256-thread launch
// often keeps one constant. Correct only for 256-thread blocks: a narrower
// block leaves the end of every 256 elements unwritten, a wider one overlaps
// its neighbour's elements and leaves the end of the array unwritten.
//
// Grid: ceil(n / BLOCK_X); declared block 256 (the host's).
#include <energy/energy.cuh>

#define BLOCK 256

ENERGY_WORKLOAD(block_const_index, 1 << 25);

extern "C" {
ENERGY_KERNEL_BLOCK(block_const_index, BLOCK, 1)
void block_const_index(int n, float a, float b, const float *__restrict__ x,
                       float *__restrict__ y) {
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + b;
}
}
