// Half-precision arithmetic written with clang's native _Float16 (scalar and
// a 2-lane vector): a*x+y contracts to one FP16 FMA per lane; the 2-lane
// loads and store are vector accesses. No FP32 work remains.
// RUN: rm -f %t.json
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.json %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.json

// CHECK:      "kernel": "haxpy",
// CHECK:        "fp32_ops": 0,
// CHECK-NEXT:   "fp32_fma": 0,
// CHECK-NEXT:   "fp16_ops": 0,
// CHECK-NEXT:   "fp16_fma": 1,
// CHECK-NEXT:   "fp64_ops": 0,
// CHECK-NEXT:   "fp64_fma": 0,
// CHECK:        "conversions": 0,
// CHECK:        "flops": 2,
// CHECK-NEXT:   "global_loads": 2,
// CHECK-NEXT:   "global_load_bytes": 4,
// CHECK-NEXT:   "global_stores": 1,
// CHECK-NEXT:   "global_store_bytes": 2,
// CHECK:        "vector_accesses": 0,
// CHECK-NEXT:   "max_access_bytes": 2,
// CHECK:        "global_coalesced": 3,

// CHECK:      "kernel": "h2axpy",
// CHECK:        "fp32_ops": 0,
// CHECK-NEXT:   "fp32_fma": 0,
// CHECK-NEXT:   "fp16_ops": 0,
// CHECK-NEXT:   "fp16_fma": 2,
// CHECK:        "flops": 4,
// CHECK-NEXT:   "global_loads": 2,
// CHECK-NEXT:   "global_load_bytes": 8,
// CHECK-NEXT:   "global_stores": 1,
// CHECK-NEXT:   "global_store_bytes": 4,
// CHECK:        "vector_accesses": 3,
// CHECK-NEXT:   "max_access_bytes": 4,
// CHECK:        "global_coalesced": 3,

typedef _Float16 half2_t __attribute__((ext_vector_type(2)));

extern "C" __global__ void haxpy(int n, _Float16 a, const _Float16 *x, _Float16 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void h2axpy(int n, _Float16 a, const half2_t *x, half2_t *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
