// CPU reference of spmv_csr.cu: y = A x for A in CSR form (double sums).
#include "Reference.h"

ENERGY_REFERENCE(spmv_csr) {
  const int64_t rows = in.param("rows");
  const int32_t *row_ptr = in.buffer<int32_t>("row_ptr");
  const int32_t *col_idx = in.buffer<int32_t>("col_idx");
  const float *vals = in.buffer<float>("vals");
  const float *x = in.buffer<float>("x");
  float *y = out.buffer<float>("y");
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (int32_t j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
      sum += double(vals[j]) * x[col_idx[j]];
    y[r] = static_cast<float>(sum);
  }
}
