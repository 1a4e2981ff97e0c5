// CPU reference of softmax.cu: row-wise softmax in double.
#include "Reference.h"

#include <cmath>

ENERGY_REFERENCE(softmax) {
  const int64_t rows = in.param("rows"), cols = in.param("cols");
  const float *x = in.buffer<float>("x");
  float *y = out.buffer<float>("y");
  for (int64_t r = 0; r < rows; ++r) {
    const float *xr = x + r * cols;
    double m = xr[0];
    for (int64_t j = 1; j < cols; ++j)
      m = std::fmax(m, double(xr[j]));
    double sum = 0.0;
    for (int64_t j = 0; j < cols; ++j)
      sum += std::exp(xr[j] - m);
    for (int64_t j = 0; j < cols; ++j)
      y[r * cols + j] = static_cast<float>(std::exp(xr[j] - m) / sum);
  }
}
