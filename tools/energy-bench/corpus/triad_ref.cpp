// CPU reference of triad.cu: a = b + s*c.
#include "Reference.h"

ENERGY_REFERENCE(triad) {
  const int64_t n = in.param("n");
  const double s = static_cast<float>(in.value(1));
  const float *b = in.buffer<float>("b");
  const float *c = in.buffer<float>("c");
  float *a = out.buffer<float>("a");
  for (int64_t i = 0; i < n; ++i)
    a[i] = static_cast<float>(b[i] + s * c[i]);
}
