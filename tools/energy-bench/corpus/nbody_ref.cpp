// CPU reference of nbody.cu: softened all-pairs accelerations in double;
// pos holds x, y, z, mass per body, acc gets x, y, z, 0.
#include "Reference.h"

#include <cmath>

ENERGY_REFERENCE(nbody) {
  const int64_t n = in.param("n");
  const double soft2 = static_cast<float>(in.value(1));
  const float *pos = in.buffer<float>("pos");
  float *acc = out.buffer<float>("acc");
  for (int64_t i = 0; i < n; ++i) {
    const float *pi = pos + 4 * i;
    double a[3] = {0.0, 0.0, 0.0};
    for (int64_t j = 0; j < n; ++j) {
      const float *pj = pos + 4 * j;
      double d[3] = {double(pj[0]) - pi[0], double(pj[1]) - pi[1],
                     double(pj[2]) - pi[2]};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + soft2;
      double s = pj[3] / (r2 * std::sqrt(r2));
      for (int c = 0; c < 3; ++c)
        a[c] += d[c] * s;
    }
    for (int c = 0; c < 3; ++c)
      acc[4 * i + c] = static_cast<float>(a[c]);
    acc[4 * i + 3] = 0.0f;
  }
}
