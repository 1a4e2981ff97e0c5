// NVPTX numbers the call sites of a process's PTX with one counter
// (`// callseq N`). The candidates the plugin compiles to PTX for ptxas are
// compiled in a child process, so the user's PTX numbers its calls from 0
// whatever the plugin compiled, and a rebuild that finds the candidates in
// the ptxas cache (no codegen) writes the same PTX. Before, the first build
// wrote `callseq 1` (the candidate's printf took 0), the rebuild
// `callseq 0`.
// RUN: rm -rf %t.cache
// RUN: env XDG_CACHE_HOME=%t.cache %clang %cudaflags -O3 -S %clangplugin %s -o %t.cold.ptx
// RUN: env XDG_CACHE_HOME=%t.cache %clang %cudaflags -O3 -S %clangplugin %s -o %t.warm.ptx
// RUN: FileCheck %s --input-file=%t.cold.ptx
// RUN: diff %t.cold.ptx %t.warm.ptx
// CHECK: { // callseq 0, 0
// CHECK-NOT: callseq 1
#include <energy/energy.cuh>
#include <cstdio>

ENERGY_KERNEL(calls) void calls(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
  if (i == 0)
    printf("done %d\n", n);
}
