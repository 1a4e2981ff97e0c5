// Test fixture of the sweep: one partial sum per block through dynamic
// shared memory, so the output's size and the shared memory follow the
// block size.
#include <energy/energy.cuh>

ENERGY_DYNAMIC_SHARED(fixture_blocksum, sizeof(float), 0);

extern "C" { // entry == name
ENERGY_KERNEL(fixture_blocksum) void fixture_blocksum(int n, const float *x,
                                                                 float *sums) {
  extern __shared__ float partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned t = 0; t < blockDim.x; ++t)
      s += partial[t];
    sums[blockIdx.x] = s;
  }
}
} // extern "C"
