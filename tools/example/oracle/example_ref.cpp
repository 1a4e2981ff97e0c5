// CPU references of the bundled example's kernels
// (../energy_example_kernels.cuh), for the host-emulation oracle
// (test/Corpus/example.test, with cases from example.json).
#include "Reference.h"

// y = a*x + y.
ENERGY_REFERENCE(saxpy) {
  const int64_t n = in.param("n");
  const float a = static_cast<float>(in.value(1));
  const float *x = in.buffer<float>("x");
  const float *y = in.buffer<float>("y");
  float *want = out.buffer<float>("y");
  for (int64_t i = 0; i < n; ++i)
    want[i] = a * x[i] + y[i];
}

// C = A*B, n x n, summed in double (the kernel's float order differs by tile).
ENERGY_REFERENCE(sgemm) {
  const int64_t n = in.param("n");
  const float *A = in.buffer<float>("A");
  const float *B = in.buffer<float>("B");
  float *C = out.buffer<float>("C");
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < n; ++k)
        sum += double(A[i * n + k]) * B[k * n + j];
      C[i * n + j] = static_cast<float>(sum);
    }
}
