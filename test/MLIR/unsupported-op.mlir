// An op the feature analysis cannot model inside a kernel gives a warning at
// the op; the kernel keeps its IR and its launches, the other kernels are
// still optimized, and the printer skips the kernel.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic})' %s \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PRINT

// PRINT:     warning: energy: cannot model 'affine.for' in kernel @affine_loop (supported: {{.*}}); its features are not printed
// PRINT:     warning: energy: cannot model 'cf.br' in kernel @unstructured
// PRINT-NOT: kernel affine_loop
// PRINT:     kernel fine
// PRINT-NOT: kernel unstructured

// CHECK:     gpu.func @affine_loop(%{{.*}}) kernel {
// CHECK:     gpu.func @unstructured(%{{.*}}) kernel {
// CHECK:     gpu.func @fine(%{{.*}}) kernel attributes {{{.*}}nvvm.reqntid
// CHECK:     gpu.launch_func @kernels::@affine_loop blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1)

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @affine_loop(%x: memref<?xf32>) kernel {
      // expected-warning @+1 {{energy: cannot model 'affine.for' in kernel @affine_loop (supported: arith, math, index, memref, scf.for/if/while, gpu, func.call and vector load/store/fma/reduction); the kernel is left alone}}
      affine.for %i = 0 to 4 {
        %v = affine.load %x[%i] : memref<?xf32>
        affine.store %v, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @unstructured(%x: memref<?xf32>, %n: index) kernel {
      %tid = gpu.thread_id x
      // expected-warning @+1 {{energy: cannot model 'cf.br' in kernel @unstructured}}
      cf.br ^exit
    ^exit:
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @fine: chose block}}
    gpu.func @fine(%x: memref<?xf32>) kernel {
    // expected-remark@-1 {{sm_90 is modelled on its default board}}
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    gpu.launch_func @kernels::@affine_loop blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@unstructured blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@fine blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}
