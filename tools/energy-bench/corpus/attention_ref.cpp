// CPU reference of attention.cu: O = softmax(scale * Q K^T) V per head
// (heads x seq x 64), in double.
#include "Reference.h"

#include <cmath>
#include <algorithm>
#include <vector>

ENERGY_REFERENCE(attention) {
  constexpr int64_t D = 64;
  const int64_t heads = in.param("heads"), seq = in.param("seq");
  const double scale = static_cast<float>(in.value(1));
  const float *Q = in.buffer<float>("Q");
  const float *K = in.buffer<float>("K");
  const float *V = in.buffer<float>("V");
  float *O = out.buffer<float>("O");
  std::vector<double> p(seq), o(D);
  for (int64_t h = 0; h < heads; ++h) {
    const int64_t base = h * seq * D;
    for (int64_t i = 0; i < seq; ++i) {
      const float *q = Q + base + i * D;
      double m = -INFINITY;
      for (int64_t j = 0; j < seq; ++j) {
        const float *k = K + base + j * D;
        double s = 0.0;
        for (int64_t d = 0; d < D; ++d)
          s += double(q[d]) * k[d];
        p[j] = s * scale;
        m = std::fmax(m, p[j]);
      }
      double sum = 0.0;
      std::fill(o.begin(), o.end(), 0.0);
      for (int64_t j = 0; j < seq; ++j) {
        const double w = std::exp(p[j] - m);
        sum += w;
        const float *v = V + base + j * D;
        for (int64_t d = 0; d < D; ++d)
          o[d] += w * v[d];
      }
      for (int64_t d = 0; d < D; ++d)
        O[base + i * D + d] = static_cast<float>(o[d] / sum);
    }
  }
}
