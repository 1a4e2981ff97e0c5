// CPU reference of stencil_dynamic.cu: y[i] = x[i-1] + x[i] + x[i+1], x
// outside [0, n) is 0, summed left to right as the kernel does.
#include "Reference.h"

ENERGY_REFERENCE(stencil_dynamic) {
  const int64_t n = in.param("n");
  const float *x = in.buffer<float>("x");
  float *y = out.buffer<float>("y");
  for (int64_t i = 0; i < n; ++i)
    y[i] = (i > 0 ? x[i - 1] : 0.0f) + x[i] + (i + 1 < n ? x[i + 1] : 0.0f);
}
