// CPU reference of block_const_index.cu: y = a * x + b.
#include "Reference.h"

ENERGY_REFERENCE(block_const_index) {
  const int64_t n = in.param("n");
  const float a = static_cast<float>(in.value(1)), b = static_cast<float>(in.value(2));
  const float *x = in.buffer<float>("x");
  float *y = out.buffer<float>("y");
  for (int64_t i = 0; i < n; ++i)
    y[i] = a * x[i] + b;
}
