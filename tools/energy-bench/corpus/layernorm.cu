// layernorm: y = (x - mean) / sqrt(var + eps) * gamma + beta over each row of
// x (rows x cols), a warp per row: a pass for the mean, one for the variance
// (two-pass, no cancellation), one to write; sums combined with shuffles.
// Each thread covers ROWS rows, `grid warps` apart.
//
// Work items: rows * 32 (a warp per row). Grid: ceil(rows * 32 / (BLOCK_X * ROWS)).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ROWS, 1, 1, 2, 4);
ENERGY_WORKLOAD(layernorm, 65536 * 32);

__device__ inline float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(layernorm, "multiple=32");

extern "C" {
ENERGY_KERNEL(layernorm)
void layernorm(int rows, int cols, float eps, const float *__restrict__ x,
               const float *__restrict__ gamma, const float *__restrict__ beta,
               float *__restrict__ y) {
  const int rows_per_thread = ENERGY_VALUE(ROWS);
  const int lane = threadIdx.x % 32;
  const int warps = gridDim.x * blockDim.x / 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  for (int r = 0; r < rows_per_thread; ++r, row += warps) {
    if (row >= rows) // the same for the whole warp
      break;
    const float *in = x + (size_t)row * cols;
    float sum = 0.0f;
    for (int j = lane; j < cols; j += 32)
      sum += in[j];
    const float mean = warpSum(sum) / cols;
    float sq = 0.0f;
    for (int j = lane; j < cols; j += 32) {
      float d = in[j] - mean;
      sq += d * d;
    }
    const float rstd = rsqrtf(warpSum(sq) / cols + eps);
    float *out = y + (size_t)row * cols;
    for (int j = lane; j < cols; j += 32)
      out[j] = (in[j] - mean) * rstd * gamma[j] + beta[j];
  }
}
}
