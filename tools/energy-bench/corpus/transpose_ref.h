// The CPU reference shared by transpose_naive_ref.cpp, transpose_fixed_ref.cpp and
// transpose_tiled_ref.cpp: out (cols x rows) = in (rows x cols)^T.
#ifndef ENERGY_CORPUS_TRANSPOSE_REF_H
#define ENERGY_CORPUS_TRANSPOSE_REF_H

#include "Reference.h"

inline void transposeReference(const ReferenceInputs &in, ReferenceOutputs &out) {
  const int64_t rows = in.param("rows"), cols = in.param("cols");
  const float *a = in.buffer<float>("in");
  float *t = out.buffer<float>("out");
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      t[c * rows + r] = a[r * cols + c];
}

#endif
