// reduce_halving: the classic shared-memory tree reduction (as in NVIDIA's
// reduction samples): each block sums BLOCK_X * ITEMS consecutive elements,
// then halves the active threads with `s = blockDim.x / 2; s >>= 1`, which
// is correct only for power-of-two blocks (other blocks drop partial sums).
// The block's sum goes to out[0] with one atomicAdd.
//
// Grid: ceil(n / (BLOCK_X * ITEMS)). out must be zero before the launch.
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 4);
ENERGY_WORKLOAD(reduce_halving, 1 << 26);

extern "C" {
ENERGY_KERNEL(reduce_halving)
void reduce_halving(int n, const float *__restrict__ x, float *out) {
  __shared__ float sums[1024];
  const int items = ENERGY_VALUE(ITEMS);
  const unsigned tid = threadIdx.x;
  float sum = 0.0f;
  int i = blockIdx.x * blockDim.x * items + tid;
  for (int k = 0; k < items; ++k, i += blockDim.x)
    if (i < n)
      sum += x[i];
  sums[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sums[tid] += sums[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, sums[0]);
}
}
