// CPU reference of scan.cu: inclusive prefix sum of n ints.
#include "Reference.h"

ENERGY_REFERENCE(scan) {
  const int64_t n = in.param("n");
  const int32_t *x = in.buffer<int32_t>("in");
  int32_t *y = out.buffer<int32_t>("out");
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    sum += x[i];
    y[i] = static_cast<int32_t>(sum);
  }
}
