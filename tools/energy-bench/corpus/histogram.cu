// histogram: 256-bin histogram of n bytes. Each thread reads ITEMS 32-bit
// words (4 samples each, grid-strided so a warp's loads stay coalesced) and
// counts into block-private bins with shared-memory atomics; blocks then add
// their bins into a global scratch histogram, and the last block (atomic
// ticket after a fence) moves it to `bins` and clears the scratch, so every
// launch writes the full histogram without a host reset.
//
// Grid: ceil(n / (4 * BLOCK_X * ITEMS)). Scratch: scratch (256 u32) and
// counter (1 u32), both zero before the first launch.
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 16, 4, 16, 64);
ENERGY_WORKLOAD(histogram, 1 << 25); // 32-bit words

#define NBINS 256

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(histogram, "multiple=32");

extern "C" {
ENERGY_KERNEL(histogram)
void histogram(int n, const unsigned char *__restrict__ data,
               unsigned *scratch, unsigned *counter, unsigned *bins) {
  __shared__ unsigned local[NBINS];
  __shared__ bool last;
  const int items = ENERGY_VALUE(ITEMS);
  const unsigned tid = threadIdx.x, threads = blockDim.x;
  for (unsigned b = tid; b < NBINS; b += threads)
    local[b] = 0;
  __syncthreads();

  const int words = n / 4;
  const unsigned *packed = reinterpret_cast<const unsigned *>(data);
  const int stride = gridDim.x * threads;
  int w = blockIdx.x * threads + tid;
  for (int k = 0; k < items; ++k, w += stride)
    if (w < words) {
      unsigned v = packed[w];
      atomicAdd(&local[v & 0xffu], 1u);
      atomicAdd(&local[(v >> 8) & 0xffu], 1u);
      atomicAdd(&local[(v >> 16) & 0xffu], 1u);
      atomicAdd(&local[v >> 24], 1u);
    }
  if (blockIdx.x == 0) // the n % 4 bytes past the last word
    for (int i = words * 4 + tid; i < n; i += threads)
      atomicAdd(&local[data[i]], 1u);
  __syncthreads();

  for (unsigned b = tid; b < NBINS; b += threads)
    if (local[b])
      atomicAdd(&scratch[b], local[b]);
  __threadfence();
  __syncthreads();
  if (tid == 0)
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last)
    return;
  for (unsigned b = tid; b < NBINS; b += threads)
    bins[b] = atomicExch(&scratch[b], 0u);
  if (tid == 0)
    *counter = 0;
}
}
