// Input of test/Tools/cuda-compat.test: CUDA 13 keeps cooperative groups'
// dependencies in include/cccl, and the host min/max overloads are nvcc's.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void block_sum(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = in[block.group_index().x * block.size() + block.thread_rank()];
  float s = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0)
    atomicAdd(out, s);
}

// Host code as the samples write it: min of an unsigned and an int.
unsigned blocks(unsigned n, int most) { return min(n / 256, most); }
