// shared_slots: y[i] = x[i] - the mean of x over i's segment, the segments
// being 256 consecutive elements (the last one may be shorter). Each block
// stages one segment in a shared array with a slot per thread of the 256-
// thread block its host launches, and thread 0 sums all 256 slots. Correct
// only when a block is a segment: a smaller block sums slots it never wrote
// (and its blocks are not segments), a larger one writes past the array.
//
// Grid: ceil(n / BLOCK_X); declared block 256 (the host's).
#include <energy/energy.cuh>

#define SEGMENT 256

ENERGY_WORKLOAD(shared_slots, 1 << 25);

extern "C" {
ENERGY_KERNEL_BLOCK(shared_slots, SEGMENT, 1)
void shared_slots(int n, const float *__restrict__ x, float *__restrict__ y) {
  __shared__ float slot[SEGMENT];
  __shared__ float mean;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  slot[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (int k = 0; k < SEGMENT; ++k)
      sum += slot[k];
    mean = sum / min(SEGMENT, n - (int)blockIdx.x * SEGMENT);
  }
  __syncthreads();
  if (i < n)
    y[i] = x[i] - mean;
}
}
