// conv2d: direct 3x3 convolution, stride 1, zero padding 1, NCHW:
//   out[n][k][y][x] = sum over c, r, s of in[n][c][y+r-1][x+s-1] * filt[k][c][r][s].
// A 2-D block covers an x-y patch of one image; each thread computes KPT
// output channels of one pixel, so every input value it loads feeds KPT
// FMAs. Filter reads are uniform across the block (broadcast).
//
// Grid: ceil(width / BLOCK_X) x ceil(height / BLOCK_Y) x (batch * ceil(filters / KPT)).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(KPT, 2, 1, 2, 4);
ENERGY_WORKLOAD(conv2d, 8 * 64 * 56 * 56);

extern "C" {
ENERGY_KERNEL_BLOCK(conv2d, 32, 8)
void conv2d(int batch, int channels, int height, int width, int filters,
            const float *__restrict__ in, const float *__restrict__ filt,
            float *__restrict__ out) {
  const int kpt = ENERGY_VALUE(KPT);
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int groups = (filters + kpt - 1) / kpt;
  const int n = blockIdx.z / groups, k0 = blockIdx.z % groups * kpt;
  if (x >= width || y >= height)
    return;
  float acc[KPT_max] = {};
  for (int c = 0; c < channels; ++c) {
    const float *plane = in + ((size_t)n * channels + c) * height * width;
    for (int r = 0; r < 3; ++r) {
      const int yy = y + r - 1;
      if (yy < 0 || yy >= height)
        continue;
      for (int s = 0; s < 3; ++s) {
        const int xx = x + s - 1;
        if (xx < 0 || xx >= width)
          continue;
        const float v = plane[yy * width + xx];
#pragma unroll
        for (int kk = 0; kk < kpt; ++kk)
          if (k0 + kk < filters)
            acc[kk] += v * filt[(((size_t)(k0 + kk) * channels + c) * 3 + r) * 3 + s];
      }
    }
  }
#pragma unroll
  for (int kk = 0; kk < kpt; ++kk)
    if (k0 + kk < filters)
      out[(((size_t)n * filters + k0 + kk) * height + y) * width + x] = acc[kk];
}
}
