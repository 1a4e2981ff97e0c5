// Half-precision arithmetic through cuda_fp16.h, the way most CUDA code
// writes it: for sm_53+ the header implements __hmul/__hadd/__hfma2 (and the
// __half operators) as inline PTX asm ("mul.f16", "add.f16",
// "fma.rn.f16x2"). That is still FP16 arithmetic: haxpy does 2 flops per
// thread (a mul and an add, or one FMA), h2fma one FP16 FMA per lane.
// RUN: rm -f %t.json
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.json %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.json

// CHECK:      "kernel": "haxpy",
// CHECK:        "fp32_ops": 0,
// CHECK-NEXT:   "fp32_fma": 0,
// CHECK:        "flops": 2,

// CHECK:      "kernel": "h2fma",
// CHECK:        "fp32_ops": 0,
// CHECK-NEXT:   "fp32_fma": 0,
// CHECK-NEXT:   "fp16_ops": 0,
// CHECK-NEXT:   "fp16_fma": 2,
// CHECK:        "flops": 4,

#include <cuda_fp16.h>

extern "C" __global__ void haxpy(int n, __half a, const __half *x, __half *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hadd(__hmul(a, x[i]), y[i]);
}

extern "C" __global__ void h2fma(int n, const __half2 *a, const __half2 *x, __half2 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma2(a[i], x[i], y[i]);
}
