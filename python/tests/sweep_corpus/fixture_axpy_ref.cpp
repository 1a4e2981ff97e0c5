// CPU reference of the sweep's test fixture fixture_axpy.
#include "Reference.h"

ENERGY_REFERENCE(fixture_axpy) {
  int64_t n = in.param("n");
  float a = static_cast<float>(in.value(1));
  const float *x = in.buffer<float>("x");
  const float *y = in.buffer<float>("y");
  float *want = out.buffer<float>("y");
  for (int64_t i = 0; i < n; ++i)
    want[i] = a * x[i] + y[i];
}
