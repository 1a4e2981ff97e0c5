// A Thrust and CUB program (CUDA 13's CCCL headers) builds with the plugin,
// through clang and through opt on its -O2 device IR (where every such
// program once failed with "no candidate fits the resources"). Its kernels
// did not opt in and bake their block size in (templates), so each is left
// alone with a remark saying why, found from the code as written before any
// candidate is measured (CUB computes its linear thread index from
// threadIdx.x, .y and .z).
// RUN: %clang %cudaflags -isystem %cuda_path/include/cccl -std=c++17 -O2 -S %clangplugin \
// RUN:   -Rpass-missed=energy -mllvm -energy-report=%t.json %s -o %t.ptx 2> %t.remarks
// RUN: FileCheck %s < %t.remarks
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); print(len(r['skipped']) > 10, len(r['kernels']))" %t.json \
// RUN:   | FileCheck %s --check-prefix=REPORT
// RUN: %clang %cudaflags -isystem %cuda_path/include/cccl -std=c++17 -O2 -emit-llvm -S %s -o %t.ll
// RUN: %opt %loadenergy -passes=energy-optimize -disable-output %t.ll
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

__global__ void blockSum(const int *in, int *out) {
  typedef cub::BlockReduce<int, 128> Reduce;
  __shared__ typename Reduce::TempStorage Storage;
  int Sum = Reduce(Storage).Sum(in[blockIdx.x * 128 + threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = Sum;
}

int sortAndSum(thrust::device_vector<int> &v) {
  thrust::sort(v.begin(), v.end());
  return thrust::reduce(v.begin(), v.end());
}

// CHECK: remark: kernel blockSum(int const*, int*) left alone: kernel 'blockSum(int const*, int*)': no advice: no other block shape is known to be correct for it (the kernel reads threadIdx.z or blockDim.z, and 3-D shapes are not searched)
// REPORT: True 0
