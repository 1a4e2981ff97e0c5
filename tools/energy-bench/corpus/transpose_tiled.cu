// transpose_tiled: out (cols x rows) = transpose of in (rows x cols) through
// a shared tile padded by one column (TILE+1: no bank conflicts on the
// transposed read). A TILE x ROWS block moves a tile TILE columns wide and
// ROWS * ITEMS rows high: coalesced reads of input rows, then coalesced
// writes of output rows, ITEMS elements per thread each way.
//
// Grid: ceil(cols / TILE) x ceil(rows / (ROWS * ITEMS)); block TILE x ROWS.
#include <energy/energy.cuh>

ENERGY_TUNABLE(TILE, 32, 16, 32, 64);
ENERGY_TUNABLE(ROWS, 8, 4, 8, 16);
ENERGY_TUNABLE_PER_THREAD(ITEMS, 4, 2, 4, 8);
ENERGY_WORKLOAD(transpose_tiled, 8192 * 8192);

extern "C" {
ENERGY_KERNEL_TUNABLE_BLOCK(transpose_tiled, TILE, ROWS)
void transpose_tiled(int rows, int cols, const float *__restrict__ in,
                     float *__restrict__ out) {
  // tile[k][y][x] holds input row r0 + k*ROWS + y, column c0 + x.
  ENERGY_SHARED(float, tile, "ITEMS,ROWS,TILE+1")[ITEMS_max][ROWS_max][TILE_max + 1];
  const int T = ENERGY_VALUE(TILE), R = ENERGY_VALUE(ROWS);
  const int items = ENERGY_VALUE(ITEMS);
  const int height = R * items; // input rows per tile
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int c0 = blockIdx.x * T, r0 = blockIdx.y * height;

  for (int k = 0; k < items; ++k) {
    int r = r0 + k * R + ty, c = c0 + tx;
    if (r < rows && c < cols)
      tile[k][ty][tx] = in[(size_t)r * cols + c];
  }
  __syncthreads();

  // The block writes output rows c0.. (T of them), each `height` long:
  // consecutive threads take consecutive output columns.
  const int tid = ty * T + tx;
  for (int k = 0; k < items; ++k) {
    int idx = k * T * R + tid;
    int j = idx % height; // input row in the tile = output column
    int i = idx / height; // input column in the tile = output row
    int orow = c0 + i, ocol = r0 + j;
    if (orow < cols && ocol < rows)
      out[(size_t)orow * rows + ocol] = tile[j / R][j % R][i];
  }
}
}
