// CPU reference of cub_block_sum.cu: out[0] = sum of x (exact in 64 bits,
// then wrapped to 32 as the kernel's int atomics wrap).
#include "Reference.h"

ENERGY_REFERENCE(cub_block_sum) {
  const int64_t n = in.param("n");
  const int32_t *x = in.buffer<int32_t>("x");
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += x[i];
  out.buffer<int32_t>("out")[0] = static_cast<int32_t>(static_cast<uint32_t>(sum));
}
