// The records of a kernel template's instantiations come out in one order:
// clang emits device variables the host reads (the records) in an order
// that changes from compile to compile, and NVPTX prints globals in module
// order, so rebuilds wrote different PTX (about even odds for two
// instantiations; six compiles here). The plugin sorts the records by name.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Inputs/compare_runs.py --runs 6 %t %s -- \
// RUN:   %clang %cudaflags -O2 -S %clangplugin {input} -o {dir}/out.ptx > %t/runs.txt \
// RUN:   || (cat %t/runs.txt; false)
// RUN: FileCheck %s --implicit-check-not=differs < %t/runs.txt
// CHECK: template-records-order.cu: 2 outputs identical in 6 runs
#include <energy/energy.cuh>

ENERGY_KERNEL_TEMPLATE(scale, (int N), (N))
void scale(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= float(N);
}

void launch(int n, float *x) {
  dim3 b2 = ENERGY_BLOCK_DIM(scale<2>), b3 = ENERGY_BLOCK_DIM(scale<3>);
  scale<2><<<(n + b2.x - 1) / b2.x, b2>>>(n, x);
  scale<3><<<(n + b3.x - 1) / b3.x, b3>>>(n, x);
}
