// CPU reference of saxpy.cu: z = a*x + y.
#include "Reference.h"

ENERGY_REFERENCE(saxpy) {
  const int64_t n = in.param("n");
  const double a = static_cast<float>(in.value(1));
  const float *x = in.buffer<float>("x");
  const float *y = in.buffer<float>("y");
  float *z = out.buffer<float>("z");
  for (int64_t i = 0; i < n; ++i)
    z[i] = static_cast<float>(a * x[i] + y[i]);
}
