// cub_block_sum: out[0] = the sum of the n integers x. Each thread loads one
// element, cub::BlockReduce<int, 256> sums the block's elements and thread 0
// adds the block's sum to out[0] with one atomicAdd. The reduction's block
// size is a template argument: it is correct only when the block has exactly
// 256 threads (CUB sizes its shared storage and its final loop for 256; a
// smaller block leaves warp partials unwritten, a larger one writes past its
// storage). Host emulation uses host/cub/block/block_reduce.cuh.
//
// Grid: ceil(n / BLOCK_X); declared block 256 (the host's). out must be zero
// before the launch.
#include <cub/block/block_reduce.cuh>
#include <energy/energy.cuh>

ENERGY_WORKLOAD(cub_block_sum, 1 << 25);

extern "C" {
ENERGY_KERNEL_BLOCK(cub_block_sum, 256, 1)
void cub_block_sum(int n, const int *__restrict__ x, int *out) {
  using BlockSum = cub::BlockReduce<int, 256>;
  __shared__ typename BlockSum::TempStorage storage;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int sum = BlockSum(storage).Sum(i < n ? x[i] : 0);
  if (threadIdx.x == 0)
    atomicAdd(out, sum);
}
}
