// CPU reference of sgemm.cu: C = A B (row-major), double accumulation.
#include "Reference.h"

#include <algorithm>
#include <vector>

ENERGY_REFERENCE(sgemm) {
  const int64_t M = in.param("M"), N = in.param("N"), K = in.param("K");
  const float *A = in.buffer<float>("A");
  const float *B = in.buffer<float>("B");
  float *C = out.buffer<float>("C");
  std::vector<double> row(N);
  for (int64_t m = 0; m < M; ++m) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int64_t k = 0; k < K; ++k) {
      const double a = A[m * K + k];
      const float *b = B + k * N;
      for (int64_t n = 0; n < N; ++n)
        row[n] += a * b[n];
    }
    for (int64_t n = 0; n < N; ++n)
      C[m * N + n] = static_cast<float>(row[n]);
  }
}
