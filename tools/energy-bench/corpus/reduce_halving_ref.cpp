// CPU reference of reduce_halving.cu: out[0] = sum of x (in double).
#include "Reference.h"

ENERGY_REFERENCE(reduce_halving) {
  const int64_t n = in.param("n");
  const float *x = in.buffer<float>("x");
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i)
    sum += x[i];
  out.buffer<float>("out")[0] = static_cast<float>(sum);
}
