// The CPU reference shared by reduction_ref.cpp and reduce_halving_ref.cpp:
// out[0] = sum of x (in double).
#ifndef ENERGY_CORPUS_SUM_REF_H
#define ENERGY_CORPUS_SUM_REF_H

#include "Reference.h"

inline void sumReference(const ReferenceInputs &in, ReferenceOutputs &out) {
  const int64_t n = in.param("n");
  const float *x = in.buffer<float>("x");
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i)
    sum += x[i];
  out.buffer<float>("out")[0] = static_cast<float>(sum);
}

#endif
