// A kernel that does no work gets no advice and no claimed saving: a remark
// says there is nothing to tune, and its launch keeps its block.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic})' %s \
// RUN:   -verify-diagnostics | FileCheck %s
// CHECK-NOT: nvvm.reqntid
// CHECK: gpu.launch_func @kernels::@empty blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[B:.*]], %

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    // expected-remark @+1 {{energy: kernel @empty does no work (no memory access or arithmetic): nothing to tune}}
    gpu.func @empty() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    gpu.launch_func @kernels::@empty blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1)
    return
  }
}
