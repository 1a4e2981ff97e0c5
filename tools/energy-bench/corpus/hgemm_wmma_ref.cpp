// CPU reference of hgemm_wmma.cu: C = A B with A, B in binary16 (row-major),
// double accumulation of the exact products.
#include "Reference.h"

#include <algorithm>
#include <vector>

ENERGY_REFERENCE(hgemm_wmma) {
  const int64_t M = in.param("M"), N = in.param("N"), K = in.param("K");
  const uint16_t *A = in.buffer<uint16_t>("A");
  const uint16_t *B = in.buffer<uint16_t>("B");
  float *C = out.buffer<float>("C");
  std::vector<float> b(K * N);
  for (int64_t i = 0; i < K * N; ++i)
    b[i] = energy_ref::halfToFloat(B[i]);
  std::vector<double> row(N);
  for (int64_t m = 0; m < M; ++m) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int64_t k = 0; k < K; ++k) {
      const double a = energy_ref::halfToFloat(A[m * K + k]);
      const float *bk = b.data() + k * N;
      for (int64_t n = 0; n < N; ++n)
        row[n] += a * bk[n];
    }
    for (int64_t n = 0; n < N; ++n)
      C[m * N + n] = static_cast<float>(row[n]);
  }
}
