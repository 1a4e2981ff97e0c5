// A block-strided tail loop starts at a value computed from a stated one:
// histogram's `for (i = (n / 4) * 4 + tid; i < n; i += blockDim.x)` runs
// the n % 4 elements past the last whole word. With n stated (1,000,003),
// n / 4 is 250,000 (computed, not taken at the 4096 default extent): the
// loop starts at 1,000,000, so 3 threads enter and each stores once. Before,
// the start was 4 x 4096 while the bound was the stated n: (1,000,003 -
// 16,384) / 256 = 3842.26 stores per thread at a 256-thread block.
// RUN: %clang %cudaflags -O3 -S %clangplugin -Rpass-analysis=energy \
// RUN:   -mllvm -energy-force-config=tail:256 \
// RUN:   -mllvm -energy-report=%t.json %s -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// CHECK: remark: kernel tail: loop {{.*}}: trip count 1, from ENERGY_ASSUME(<a value computed in the kernel>, 250000) and ENERGY_ASSUME(<argument 1>, 1000003)
// REPORT: "global_stores": 1,
#include <energy/energy.cuh>

extern "C" {
ENERGY_KERNEL(tail)
void tail(int n, const unsigned char *__restrict__ data, unsigned *out) {
  ENERGY_ASSUME(n, 1000003);
  const int words = n / 4;
  for (int i = words * 4 + threadIdx.x; i < n; i += blockDim.x)
    out[i] = data[i] + 1u;
}
}
