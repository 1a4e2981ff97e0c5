// CPU reference of diff_staged.cu: y[i] = x[i] - x[i-1], x[-1] = 0.
#include "Reference.h"

ENERGY_REFERENCE(diff_staged) {
  const int64_t n = in.param("n");
  const float *x = in.buffer<float>("x");
  float *y = out.buffer<float>("y");
  for (int64_t i = 0; i < n; ++i)
    y[i] = x[i] - (i > 0 ? x[i - 1] : 0.0f);
}
