// transpose_fixed: out (cols x rows) = transpose of in (rows x cols) through
// a 32 x 33 shared tile, the tile width written as a constant: the code
// reads threadIdx.x but never blockDim.x, so it is correct only for blocks
// 32 threads wide; rows step by blockDim.y, so any block height works.
//
// Grid: ceil(cols / 32) x ceil(rows / 32); declared block 32 x 8.
#include <energy/energy.cuh>

// One block per 32 x 32 tile, whatever the block's height: the grid does
// not follow the block.
ENERGY_GRID(transpose_fixed, 8192 / 32, 8192 / 32, 1);

extern "C" {
ENERGY_KERNEL_BLOCK(transpose_fixed, 32, 8)
void transpose_fixed(int rows, int cols, const float *__restrict__ in,
                     float *__restrict__ out) {
  __shared__ float tile[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * 32 + tx;
  for (int y = ty; y < 32; y += blockDim.y) {
    int r = blockIdx.y * 32 + y;
    if (r < rows && c < cols)
      tile[y][tx] = in[(size_t)r * cols + c];
  }
  __syncthreads();
  int r = blockIdx.y * 32 + tx; // output column
  for (int y = ty; y < 32; y += blockDim.y) {
    int oc = blockIdx.x * 32 + y; // output row
    if (oc < cols && r < rows)
      out[(size_t)oc * rows + r] = tile[tx][y];
  }
}
}
