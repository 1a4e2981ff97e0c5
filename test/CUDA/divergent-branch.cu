// A branch on loaded data (x[i] < 0) differs between threads: divergent.
// A branch on a kernel argument does not. The atomicAdd is a global atomic.
// RUN: rm -f %t.json
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.json %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.json

// CHECK:      "kernel": "clamp_negative",
// CHECK:        "global_atomics": 1,
// CHECK-NEXT:   "global_same_address_atomics": 0,
// CHECK-NEXT:   "shared_atomics": 0,
// CHECK:        "branches": 1,
// CHECK-NEXT:   "divergent_branches": 1,
// CHECK:      "kernel": "scale_if",
// CHECK:        "branches": 1,
// CHECK-NEXT:   "divergent_branches": 0,

extern "C" __global__ void clamp_negative(float *x, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  if (v < 0.0f) {
    x[i] = 0.0f;
    atomicAdd(count, 1);
  }
}

extern "C" __global__ void scale_if(float *x, int enabled, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (enabled) {
    x[i] *= s;
    __syncthreads();
  }
}
