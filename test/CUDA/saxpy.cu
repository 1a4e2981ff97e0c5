// saxpy: the canonical x[blockIdx.x * blockDim.x + threadIdx.x] kernel.
// At -O2 the loads and the store are global and coalesced and a*x+y is one
// FMA; the bounds check is a divergent branch. The level-independent facts
// hold at -O0 too.
// RUN: rm -f %t.O2.json %t.O0.json
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.O2.json %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefixes=CHECK,O2 --input-file=%t.O2.json
// RUN: %clang %cudaflags -O0 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.O0.json %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefixes=CHECK,O0 --input-file=%t.O0.json

// CHECK:      "module": "{{.*}}saxpy.cu",
// CHECK:      "kernel": "saxpy",
// CHECK-NEXT: "features": {
// O2-NEXT:      "instructions": 17,
// O0-NEXT:      "instructions": 39,
// CHECK-NEXT:   "fp32_ops": 0,
// CHECK-NEXT:   "fp32_fma": 1,
// CHECK:        "flops": 2,
// O2-NEXT:      "global_loads": 2,
// O2-NEXT:      "global_load_bytes": 8,
// O2-NEXT:      "global_stores": 1,
// O2-NEXT:      "global_store_bytes": 4,
// O2-NEXT:      "shared_loads": 0,
// O2:           "local_loads": 0,
// O2:           "generic_loads": 0,
// CHECK:        "branches": 1,
// CHECK-NEXT:   "divergent_branches": 1,
// O2-NEXT:      "global_coalesced": 3,
// O2-NEXT:      "global_strided": 0,
// O2-NEXT:      "global_irregular": 0,
// O2-NEXT:      "global_uniform": 0,
// CHECK:        "static_shared_bytes": 0,
// CHECK-NEXT:   "uses_dynamic_shared": 0,
// CHECK-NEXT:   "reads_dim_y": 0,
// CHECK-NEXT:   "reads_dim_z": 0,
// O2:           "arithmetic_intensity": 0.16666666666666666,
// CHECK:        "loops": 0,
// CHECK:      "dims": {
// CHECK-NEXT:   "threadIdx": "x",
// CHECK-NEXT:   "blockIdx": "x",
// CHECK-NEXT:   "blockDim": "x",
// CHECK-NEXT:   "gridDim": ""

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
