// Only threadIdx.y or blockDim.y make a kernel's blocks 2-D: a kernel that
// reads blockIdx.y alone (a 2-D grid of 1-D blocks) gets 1-D candidates.
// RUN: %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-report=%t.json %s -o /dev/null
// RUN: FileCheck %s < %t.json
#include <energy/energy.cuh>

ENERGY_KERNEL(rows) void rows(int cols, float *x) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols)
    x[blockIdx.y * cols + col] *= 2.0f;
}

ENERGY_KERNEL_BLOCK(tiles, 32, 8) void tiles(int rows, int cols, float *x) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols)
    x[row * cols + col] *= 2.0f;
}

// 32 one-dimensional shapes; 33 two-dimensional ones.
// CHECK: "kernel": "rows",
// CHECK: "candidates_total": 32,
// CHECK: "kernel": "tiles",
// CHECK: "candidates_total": 33,
