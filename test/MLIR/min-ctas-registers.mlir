// A kernel's own launch bounds cap its registers as ptxas caps them, in the
// gpu dialect as in CUDA (test/Transform/min-blocks-registers.cu, the same
// rule: registerCap): nvvm.maxntid (or reqntid) with nvvm.minctasm = MINB
// makes ptxas fit MINB blocks on an SM at once, so the prediction and its
// occupancy count the capped registers. Such a kernel is left alone (its
// bounds are the user's), and its advice keeps to the bounds: blocks of at
// most maxntid threads, reqntid's block only, and baselines within them.
// Before, the estimated registers above the cap pruned every candidate
// ("no advice: no candidate fits the resources of sm_90"), and the advice
// of a bounded kernel ranged over blocks it cannot launch with.
//
// Each kernel holds 96 floats live (a vector<96xf32>): the estimate is 204
// registers a thread. sm_90 by hand, as in min-blocks-registers.cu: 65,536
// registers per SM in 4 sub-partitions of 16,384; 4 blocks of 256 threads
// are 32 warps, 8 per sub-partition: 16,384 / 8 = 2,048 registers a warp,
// 64 a thread. 4 blocks x 8 warps = 32 of the SM's 64 warps: occupancy 0.5.
// The 204 - 64 = 140 registers above the cap are charged as spill code, as
// the LLVM route charges them (withEstimatedSpills): a 4-byte store and a
// 4-byte load each, once a thread in this straight-line code: 1120 bytes.
// (Before, the remark said their traffic was not modelled.)
//   @capped   maxntid 256, minctasm 4: 64 registers, occupancy 0.5
//   @uncapped maxntid 256, minctasm 1: 255 allowed, 204 kept, no cap
//   @required reqntid 256, minctasm 4: 64 registers; block 256 only (the
//             other 31 candidates exceed its bounds)
//   @ignored  minctasm 4 alone: ptxas ignores it ("warning : .minnctapersm
//             is ignored when neither .maxntid nor .reqntid is specified",
//             ptxas 13.0), so no cap, and any block
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic})' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

// CHECK: remark: energy: kernel @capped left alone: it has launch bounds {{.*}}; advice: block {{[0-9]+}} {{.*}}vs the occupancy heuristic (256){{.*}} of 8 candidates evaluated (24 more exceed its launch bounds;{{.*}}; registers: 204 estimated, 64 under its launch bounds (nvvm.maxntid 256, nvvm.minctasm 4), as ptxas fits them (the rest spilled: at least 1120 bytes a thread of spill stores and loads): occupancy 0.5 (registers){{$}}
// CHECK: remark: energy: kernel @uncapped left alone: it has launch bounds {{.*}}; advice: block {{[0-9]+}} {{.*}} on the Pareto front{{$}}
// CHECK: remark: energy: kernel @required left alone: it has launch bounds {{.*}}; advice: block 256 {{.*}}1 of 1 candidates evaluated (31 more exceed its launch bounds;{{.*}}; registers: 204 estimated, 64 under its launch bounds (nvvm.reqntid 256, nvvm.minctasm 4), as ptxas fits them {{.*}}: occupancy 0.5 (registers){{$}}
// CHECK: remark: energy: kernel @ignored left alone: it has launch bounds {{.*}}; advice: block {{[0-9]+}} {{.*}} of 32 candidates evaluated {{.*}} on the Pareto front{{$}}

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @capped(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 4 : i32} {
      %i = gpu.global_id x
      %c96 = arith.constant 96 : index
      %b = arith.muli %i, %c96 : index
      %v = vector.load %x[%b] : memref<?xf32>, vector<96xf32>
      %w = arith.mulf %v, %v : vector<96xf32>
      %s = vector.reduction <add>, %w : vector<96xf32> into f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @uncapped(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32} {
      %i = gpu.global_id x
      %c96 = arith.constant 96 : index
      %b = arith.muli %i, %c96 : index
      %v = vector.load %x[%b] : memref<?xf32>, vector<96xf32>
      %w = arith.mulf %v, %v : vector<96xf32>
      %s = vector.reduction <add>, %w : vector<96xf32> into f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @required(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {nvvm.reqntid = array<i32: 256, 1, 1>, nvvm.minctasm = 4 : i32} {
      %i = gpu.global_id x
      %c96 = arith.constant 96 : index
      %b = arith.muli %i, %c96 : index
      %v = vector.load %x[%b] : memref<?xf32>, vector<96xf32>
      %w = arith.mulf %v, %v : vector<96xf32>
      %s = vector.reduction <add>, %w : vector<96xf32> into f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @ignored(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {nvvm.minctasm = 4 : i32} {
      %i = gpu.global_id x
      %c96 = arith.constant 96 : index
      %b = arith.muli %i, %c96 : index
      %v = vector.load %x[%b] : memref<?xf32>, vector<96xf32>
      %w = arith.mulf %v, %v : vector<96xf32>
      %s = vector.reduction <add>, %w : vector<96xf32> into f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<?xf32>, %y: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@capped blocks in (%c256, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@uncapped blocks in (%c256, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@required blocks in (%c256, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@ignored blocks in (%c256, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%x : memref<?xf32>, %y : memref<?xf32>)
    return
  }
}
