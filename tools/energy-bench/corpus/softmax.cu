// softmax: y = softmax of each row of x (rows x cols), a warp per row. One
// online pass gives the row maximum and the sum of exponentials per lane,
// combined across the warp with shuffles; a second pass writes the result
// (its reads mostly hit L1/L2). Each thread covers ROWS rows, `grid warps`
// apart.
//
// Work items: rows * 32 (a warp per row). Grid: ceil(rows * 32 / (BLOCK_X * ROWS)).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ROWS, 1, 1, 2, 4);
ENERGY_WORKLOAD(softmax, 65536 * 32);

// exp(from - to) as a rescale factor; an empty lane (from = -inf) has none.
__device__ inline float rescale(float from, float to) {
  return from == -INFINITY ? 0.0f : __expf(from - to);
}

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(softmax, "multiple=32");

extern "C" {
ENERGY_KERNEL(softmax)
void softmax(int rows, int cols, const float *__restrict__ x,
             float *__restrict__ y) {
  const int rows_per_thread = ENERGY_VALUE(ROWS);
  const int lane = threadIdx.x % 32;
  const int warps = gridDim.x * blockDim.x / 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  for (int r = 0; r < rows_per_thread; ++r, row += warps) {
    if (row >= rows) // the same for the whole warp
      break;
    const float *in = x + (size_t)row * cols;
    float m = -INFINITY, s = 0.0f;
    for (int j = lane; j < cols; j += 32) {
      float v = in[j];
      if (v > m) {
        s *= rescale(m, v);
        m = v;
      }
      s += __expf(v - m);
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      float mo = __shfl_xor_sync(0xffffffffu, m, offset);
      float so = __shfl_xor_sync(0xffffffffu, s, offset);
      float mn = fmaxf(m, mo);
      s = s * rescale(m, mn) + so * rescale(mo, mn);
      m = mn;
    }
    const float inv = 1.0f / s;
    float *out = y + (size_t)row * cols;
    for (int j = lane; j < cols; j += 32)
      out[j] = __expf(in[j] - m) * inv;
  }
}
}
