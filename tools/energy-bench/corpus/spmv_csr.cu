// spmv_csr: y = A x for a CSR matrix with random column indices (irregular
// gathers from x). A group of 32 / ROWS_PER_WARP consecutive lanes works on
// one row (strided over its nonzeros) and combines its partial sums with
// warp shuffles: ROWS_PER_WARP = 1 is the vector kernel (a warp per row),
// 32 the scalar kernel (a thread per row).
//
// Work items: rows * 32 lane-slots; a thread covers ROWS_PER_WARP of them.
// Grid: ceil(rows * 32 / (BLOCK_X * ROWS_PER_WARP)).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ROWS_PER_WARP, 4, 1, 4, 32);
ENERGY_WORKLOAD(spmv_csr, (1 << 20) * 32);

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(spmv_csr, "multiple=32");

extern "C" {
ENERGY_KERNEL(spmv_csr)
void spmv_csr(int rows, const int *__restrict__ row_ptr,
              const int *__restrict__ col_idx, const float *__restrict__ vals,
              const float *__restrict__ x, float *__restrict__ y) {
  const int lanes = 32 / ENERGY_VALUE(ROWS_PER_WARP);
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = thread / lanes, lane = thread % lanes;
  float sum = 0.0f;
  if (row < rows) {
    const int end = row_ptr[row + 1];
    for (int j = row_ptr[row] + lane; j < end; j += lanes)
      sum += vals[j] * x[col_idx[j]];
  }
  // Butterfly within aligned groups of `lanes` lanes; whole warps take part.
  for (int offset = lanes / 2; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0 && row < rows)
    y[row] = sum;
}
}
