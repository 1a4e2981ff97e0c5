// A tunable is one device variable: kernels that read it run with one value.
// Two rewritten kernels reading it would each want their own, so the one
// planned first no longer wins silently: the plugin stops with an error
// naming both, unless one value is forced for both.
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
// RUN: not %opt %loadenergy -passes=energy-optimize -disable-output %t.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHARED
// SHARED: error: energy-optimize: tunable 'ITEMS' is read by kernels 'scale<float>' and 'scale<double>', which are tuned separately and may need different values: give each kernel its own tunable, or force one value for both (-energy-force-config)

// The same value forced on both is theirs to share.
// RUN: %opt %loadenergy -passes=energy-optimize '-energy-force-config=scale<float>:128:ITEMS=2' \
// RUN:   '-energy-force-config=scale<double>:64:ITEMS=2' %t.ll -S -o - | FileCheck %s --check-prefix=FORCED
// FORCED-DAG: @__energy_tunable_ITEMS = {{.*}} [i32 2, i32 1, i32 1, i32 2, i32 4]
// FORCED-DAG: @_Z21__energy_launch_scaleIfE = {{.*}} { [3 x i32] [i32 128, i32 1, i32 1], i32 0, i32 2 }
// FORCED-DAG: @_Z21__energy_launch_scaleIdE = {{.*}} { [3 x i32] [i32 64, i32 1, i32 1], i32 0, i32 2 }
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);

ENERGY_KERNEL_TEMPLATE(scale, (typename T), (T))
void scale(int n, T *x) {
  for (int k = 0; k < ENERGY_VALUE(ITEMS); ++k) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * ENERGY_VALUE(ITEMS) + k;
    if (i < n)
      x[i] *= T(2);
  }
}

void launch(int n, float *xf, double *xd) {
  int items = ENERGY_HOST_VALUE(ITEMS);
  dim3 block = ENERGY_BLOCK_DIM(scale<float>);
  scale<float><<<(n + block.x * items - 1) / (block.x * items), block>>>(n, xf);
  block = ENERGY_BLOCK_DIM(scale<double>);
  scale<double><<<(n + block.x * items - 1) / (block.x * items), block>>>(n, xd);
}
