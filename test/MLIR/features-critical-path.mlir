// critical_path: the longest chain of dependent ops of each block, weighted
// like its instructions, as the LLVM analysis counts it per basic block; ilp
// is instructions / critical_path. Constants and terminators take no step;
// a loop's steps are those of its body, once per iteration.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // thread_id -> addi -> muli -> load -> store: 5 steps; the second addi
    // runs beside them. 6 instructions.
    // CHECK-LABEL: kernel chain
    // CHECK:       instructions: 6 instr/thread
    // CHECK:       critical_path: 5 instr/thread
    // CHECK-NEXT:  ilp: 1.2 instr/step
    gpu.func @chain(%x: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %a = arith.addi %tid, %tid : index
      %b = arith.muli %a, %a : index
      %c = arith.addi %tid, %tid : index
      %v = memref.load %x[%b] : memref<?xf32>
      memref.store %v, %x[%c] : memref<?xf32>
      gpu.return
    }

    // The body (addi -> muli -> store: 3 steps) runs 4 times; thread_id is
    // the kernel block's one step: 13. Instructions: thread_id, 4 x (3 ops
    // and the 3 of the lowered latch) = 25.
    // CHECK-LABEL: kernel loop
    // CHECK:       instructions: 25 instr/thread
    // CHECK:       critical_path: 13 instr/thread
    gpu.func @loop(%x: memref<?xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %c4 step %c1 {
        %s = arith.addi %i, %tid : index
        %t = arith.muli %s, %s : index
        memref.store %t, %x[%tid] : memref<?xindex>
      }
      gpu.return
    }
  }
}
