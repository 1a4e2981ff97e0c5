// C++17 in a kernel (if constexpr, std::is_same_v): the plan must compile it
// as the target's CUDA_STANDARD 17 says.
#include <energy/energy.cuh>
#include <type_traits>
ENERGY_TUNABLE(TILE, 4, 1, 2, 4, 8);
template <typename T> __device__ T one() {
  if constexpr (std::is_same_v<T, float>)
    return 1.0f;
  else
    return T(1);
}
ENERGY_KERNEL(fill17) void fill17(int n, float *x) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * ENERGY_VALUE(TILE);
  for (int j = i; j < i + ENERGY_VALUE(TILE) && j < n; ++j)
    x[j] = one<float>();
}
void launch_fill17(int n, float *x) {
  dim3 block = ENERGY_BLOCK_DIM(fill17);
  fill17<<<(n + block.x - 1) / block.x, block>>>(n, x);
}
