// Library block primitives pin the block whatever the kernel declares:
// cub::BlockReduce<float, 128> is written for blocks of exactly 128 threads,
// cooperative groups' tiled_partition<32> for whole tiles of 32. Both
// kernels declare their shapes (ENERGY_BLOCK_RULES), and the pins still
// refuse the shapes the library cannot run, in the search and in a force;
// the remark and the report name the primitive.
// RUN: %clang %cudaflags -isystem %cuda_path/include/cccl -std=c++17 -O2 -S %clangplugin \
// RUN:   -Rpass-analysis=energy -mllvm -energy-report=%t.json %s -o /dev/null 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %python %S/Inputs/report_summary.py %t.json | FileCheck %s --check-prefix=REPORT
// RUN: not %clang %cudaflags -isystem %cuda_path/include/cccl -std=c++17 -O2 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=cub_sum:256 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUB
// RUN: not %clang %cudaflags -isystem %cuda_path/include/cccl -std=c++17 -O2 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=tiles:48 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILE
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <energy/energy.cuh>

namespace cg = cooperative_groups;

ENERGY_BLOCK_RULES(cub_sum, "multiple=32");
ENERGY_KERNEL_BLOCK(cub_sum, 128, 1)
void cub_sum(int n, const float *x, float *out) {
  using Reduce = cub::BlockReduce<float, 128>;
  __shared__ typename Reduce::TempStorage storage;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = Reduce(storage).Sum(i < n ? x[i] : 0.0f);
  if (threadIdx.x == 0)
    atomicAdd(out, sum);
}

ENERGY_BLOCK_RULES(tiles, "shapes=48,64");
ENERGY_KERNEL_BLOCK(tiles, 64, 1)
void tiles(int n, const float *x, float *out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0)
    atomicAdd(out, v);
}

// REMARK-DAG: remark: kernel cub_sum: block block 128: cub::BlockReduce<float, 128> is written for that block
// REMARK-DAG: remark: kernel tiles: block threads a multiple of 32: cooperative_groups::tiled_partition<32> is written for whole tiles

// REPORT: cub_sum: 1 candidates, 31 shapes not correct
// (cooperative groups read threadIdx.y: 33 two-dimensional shapes)
// REPORT: tiles: 1 candidates, 32 shapes not correct

// CUB: error: energy-optimize: kernel 'cub_sum': forced block 256 is not correct for it: cub::BlockReduce<float, 128> is written for block 128
// TILE: error: energy-optimize: kernel 'tiles': forced block 48 is not correct for it: cooperative_groups::tiled_partition<32> needs a multiple of 32 threads
