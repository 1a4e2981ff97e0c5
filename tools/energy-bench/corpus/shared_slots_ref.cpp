// CPU reference of shared_slots.cu: y[i] = x[i] - the mean of x over the
// segment of 256 consecutive elements that holds i (the last segment may be
// shorter).
#include "Reference.h"

ENERGY_REFERENCE(shared_slots) {
  const int64_t segment = 256, n = in.param("n");
  const float *x = in.buffer<float>("x");
  float *y = out.buffer<float>("y");
  for (int64_t first = 0; first < n; first += segment) {
    const int64_t end = first + segment < n ? first + segment : n;
    double sum = 0.0;
    for (int64_t i = first; i < end; ++i)
      sum += x[i];
    const double mean = sum / double(end - first);
    for (int64_t i = first; i < end; ++i)
      y[i] = static_cast<float>(x[i] - mean);
  }
}
