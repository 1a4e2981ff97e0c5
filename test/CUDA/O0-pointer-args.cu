// At -O0 clang spills every kernel argument to a stack slot and reloads it
// before use. A pointer reloaded from the slot that holds a kernel pointer
// argument still points to global memory: x[i] and y[i] are global
// accesses at -O0 exactly as at -O2, not unresolved generic ones.
// RUN: rm -f %t.json
// RUN: %clang %cudaflags -O0 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.json %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.json

// CHECK:      "kernel": "saxpy_O0",
// CHECK:        "global_loads": 2,
// CHECK-NEXT:   "global_load_bytes": 8,
// CHECK-NEXT:   "global_stores": 1,
// CHECK-NEXT:   "global_store_bytes": 4,
// CHECK:        "generic_loads": 0,
// CHECK-NEXT:   "generic_load_bytes": 0,
// CHECK-NEXT:   "generic_stores": 0,
// CHECK-NEXT:   "generic_store_bytes": 0,

extern "C" __global__ void saxpy_O0(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
