// CPU reference of layernorm.cu: row-wise layer normalization in double.
#include "Reference.h"

#include <cmath>

ENERGY_REFERENCE(layernorm) {
  const int64_t rows = in.param("rows"), cols = in.param("cols");
  const double eps = static_cast<float>(in.value(2));
  const float *x = in.buffer<float>("x");
  const float *gamma = in.buffer<float>("gamma");
  const float *beta = in.buffer<float>("beta");
  float *y = out.buffer<float>("y");
  for (int64_t r = 0; r < rows; ++r) {
    const float *xr = x + r * cols;
    double mean = 0.0;
    for (int64_t j = 0; j < cols; ++j)
      mean += xr[j];
    mean /= cols;
    double var = 0.0;
    for (int64_t j = 0; j < cols; ++j)
      var += (xr[j] - mean) * (xr[j] - mean);
    const double rstd = 1.0 / std::sqrt(var / cols + eps);
    for (int64_t j = 0; j < cols; ++j)
      y[r * cols + j] =
          static_cast<float>((xr[j] - mean) * rstd * gamma[j] + beta[j]);
  }
}
