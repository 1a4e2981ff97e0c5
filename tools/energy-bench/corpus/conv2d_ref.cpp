// CPU reference of conv2d.cu: 3x3 convolution, stride 1, zero padding 1,
// NCHW input, KCRS filter, double accumulation.
#include "Reference.h"

ENERGY_REFERENCE(conv2d) {
  const int64_t N = in.param("batch"), C = in.param("channels");
  const int64_t H = in.param("height"), W = in.param("width");
  const int64_t K = in.param("filters");
  const float *x = in.buffer<float>("in");
  const float *f = in.buffer<float>("filt");
  float *y = out.buffer<float>("out");
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t p = 0; p < H; ++p)
        for (int64_t q = 0; q < W; ++q) {
          double acc = 0.0;
          for (int64_t c = 0; c < C; ++c)
            for (int64_t r = 0; r < 3; ++r)
              for (int64_t s = 0; s < 3; ++s) {
                const int64_t h = p + r - 1, w = q + s - 1;
                if (h < 0 || h >= H || w < 0 || w >= W)
                  continue;
                acc += double(x[((n * C + c) * H + h) * W + w]) *
                       f[((k * C + c) * 3 + r) * 3 + s];
              }
          y[((n * K + k) * H + p) * W + q] = static_cast<float>(acc);
        }
}
