// Cooperative groups as the reduction samples use them: a block, its warps
// as tiled partitions, cg::reduce over a tile, the grid group; host code
// sizes the launch with nvcc's min/max.
#include "check_cuda.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void blockSums(const float *In, float *Out, int N) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  cg::grid_group Grid = cg::this_grid();
  float Sum = 0.0f;
  for (unsigned long long I = Grid.thread_rank(); I < N; I += Grid.size())
    Sum += In[I];
  Sum = cg::reduce(Warp, Sum, cg::plus<float>());
  __shared__ float WarpSums[32];
  if (Warp.thread_rank() == 0)
    WarpSums[Warp.meta_group_rank()] = Sum;
  Block.sync();
  if (Warp.meta_group_rank() == 0) {
    Sum = Warp.thread_rank() < Warp.meta_group_size() ? WarpSums[Warp.thread_rank()] : 0.0f;
    Sum = cg::reduce(Warp, Sum, cg::plus<float>());
    if (Warp.thread_rank() == 0)
      atomicAdd(Out, Sum);
  }
}

// Host and device alike: the min nvcc declares on both sides.
__host__ __device__ int clampIndex(int I, int N) { return max(0, min(I, N - 1)); }

int main() {
  const int N = 1 << 20;
  float *In, *Out;
  checkCudaErrors(cudaMalloc(&In, N * sizeof(float)));
  checkCudaErrors(cudaMalloc(&Out, sizeof(float)));
  checkCudaErrors(cudaMemset(In, 0, N * sizeof(float)));
  checkCudaErrors(cudaMemset(Out, 0, sizeof(float)));
  int Threads = max(32, min(256, N));
  int Blocks = blocksFor(N, Threads, 1024);
  blockSums<<<Blocks, Threads>>>(In, Out, N);
  checkCudaErrors(cudaGetLastError());
  float Sum = -1.0f;
  checkCudaErrors(cudaMemcpy(&Sum, Out, sizeof(float), cudaMemcpyDeviceToHost));
  float Spread = max(Sum, 0.5f) - min(Sum, 0.0f);
  printf("sum %g spread %g last %d\n", Sum, Spread, clampIndex(N, N));
  checkCudaErrors(cudaFree(In));
  checkCudaErrors(cudaFree(Out));
  return Sum == 0.0f ? 0 : 1;
}
