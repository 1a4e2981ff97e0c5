// The gpu-dialect adapter counts vector registers by the LLVM adapter's rule
// (test/Features/register-vectors.ll): 8 x f16 packs into 4 registers, 8 x
// f32 takes 8. Its liveness keeps %c live beside %a and %b, so the halves'
// peak is 3 x 4 registers less than the floats': 34 - 12 = 22.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s
// CHECK-LABEL: kernel halves
// CHECK: register_estimate: 22 registers/thread
// CHECK-LABEL: kernel floats
// CHECK: register_estimate: 34 registers/thread

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @halves(%in: memref<?xf16>, %out: memref<?xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %a = vector.load %in[%c0] : memref<?xf16>, vector<8xf16>
      %b = vector.load %in[%c8] : memref<?xf16>, vector<8xf16>
      %c = arith.addf %a, %b : vector<8xf16>
      vector.store %c, %out[%c0] : memref<?xf16>, vector<8xf16>
      gpu.return
    }
    gpu.func @floats(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %a = vector.load %in[%c0] : memref<?xf32>, vector<8xf32>
      %b = vector.load %in[%c8] : memref<?xf32>, vector<8xf32>
      %c = arith.addf %a, %b : vector<8xf32>
      vector.store %c, %out[%c0] : memref<?xf32>, vector<8xf32>
      gpu.return
    }
  }
}
