// transpose_naive: out (cols x rows) = transpose of in (rows x cols), straight
// from global memory: reads coalesced along a row, writes strided by `rows`
// (the uncoalesced baseline for transpose_tiled). A thread copies ITEMS
// elements, BLOCK_Y rows apart.
//
// Grid: ceil(cols / BLOCK_X) x ceil(rows / (BLOCK_Y * ITEMS)).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);
ENERGY_WORKLOAD(transpose_naive, 8192 * 8192);

extern "C" {
ENERGY_KERNEL_BLOCK(transpose_naive, 32, 8)
void transpose_naive(int rows, int cols, const float *__restrict__ in,
                     float *__restrict__ out) {
  const int items = ENERGY_VALUE(ITEMS);
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y * items + threadIdx.y;
  if (c >= cols)
    return;
  for (int k = 0; k < items; ++k, r += blockDim.y)
    if (r < rows)
      out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
}
