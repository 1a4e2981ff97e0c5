// reduction: out[0] = sum of x, in one launch. Each block sums
// BLOCK_X * ITEMS consecutive elements (coalesced loads, then a tree in
// shared memory with __syncthreads), writes its partial sum, and the last
// block to finish (atomic ticket after a fence) adds the partials in double
// and resets the ticket, so back-to-back launches need no host reset.
//
// Grid: ceil(n / (BLOCK_X * ITEMS)). Scratch: partials (>= grid floats),
// counter (1 u32, zero before the first launch).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 4, 1, 4, 16);
ENERGY_WORKLOAD(reduction, 1 << 26);

// Tree sum of s[0..count) into s[0] for any count <= 1024 (block sizes need
// not be powers of two). Every thread of the block must call it.
template <class T>
__device__ void blockSum(T *s, unsigned tid, unsigned count) {
  unsigned half = 1;
  while (half * 2 < count)
    half *= 2;
  for (; half > 0; half /= 2) {
    if (tid < half && tid + half < count)
      s[tid] += s[tid + half];
    __syncthreads();
  }
}

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(reduction, "multiple=32");

extern "C" {
ENERGY_KERNEL(reduction)
void reduction(int n, const float *__restrict__ x, float *partials,
               unsigned *counter, float *out) {
  ENERGY_SHARED(float, sums, "BLOCK_X")[1024];
  ENERGY_SHARED(double, totals, "BLOCK_X")[1024];
  __shared__ bool last;
  const int items = ENERGY_VALUE(ITEMS);
  const unsigned tid = threadIdx.x, threads = blockDim.x;

  float sum = 0.0f;
  int i = blockIdx.x * threads * items + tid;
  for (int k = 0; k < items; ++k, i += threads)
    if (i < n)
      sum += x[i];
  sums[tid] = sum;
  __syncthreads();
  blockSum(sums, tid, threads);

  if (tid == 0) {
    partials[blockIdx.x] = sums[0];
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;

  // The last block: every other partial is visible after its fence.
  double total = 0.0;
  for (unsigned b = tid; b < gridDim.x; b += threads)
    total += reinterpret_cast<volatile float *>(partials)[b];
  totals[tid] = total;
  __syncthreads();
  blockSum(totals, tid, threads);
  if (tid == 0) {
    out[0] = static_cast<float>(totals[0]);
    *counter = 0;
  }
}
}
