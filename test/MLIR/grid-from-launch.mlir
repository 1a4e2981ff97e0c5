// The grid of a kernel comes from its gpu.launch_func ops when every one
// states the same constant grid and block: a loop that strides over the
// launch (`for i = global index to n step block_dim * grid_dim`) then runs
// n / min(n, block x grid) iterations per thread on average, as the LLVM
// side counts it (test/Transform/grid-stride-trips.cu). Where the launches
// disagree or a grid is not constant, the grid is not known: the loop runs
// the default 8 iterations, and energy-optimize-gpu says why. Before, every
// such loop ran 8 iterations, whatever the host code stated.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic})' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK

// By hand, one load and one store per iteration, n = 1,000,000:
//   @gs96:  block 128 x grid 96 (not a power of two) = 12,288 threads:
//           10^6 / 12,288 = 81.3802 iterations per thread
//   @gs64:  block 256 x grid 64 (a power of two) = 16,384 threads:
//           10^6 / 16,384 = 61.0352
//   @gsbig: block 256 x grid 8192 = 2,097,152 threads, more than n: the
//           10^6 threads within run once each, 1 iteration
//   @gsmixed: launched at grids 96 and 64: not known, 8
//   @gsdyn:   launched at a grid computed at run time: not known, 8
// CHECK-LABEL: kernel gs96
// CHECK:       global_loads: 81.3802 accesses/thread
// CHECK:       unknown_trip_loops: 0 count
// CHECK-LABEL: kernel gs64
// CHECK:       global_loads: 61.0352 accesses/thread
// CHECK-LABEL: kernel gsbig
// CHECK:       global_loads: 1 accesses/thread
// CHECK-LABEL: kernel gsmixed
// CHECK:       global_loads: 8 accesses/thread
// CHECK:       unknown_trip_loops: 1 count
// CHECK-LABEL: kernel gsdyn
// CHECK:       global_loads: 8 accesses/thread

// REMARK: remark: energy: kernel @gs96: grid 96 at block 128 from its gpu.launch_func ops; another block gets the grid of the same threads
// REMARK: remark: energy: kernel @gsmixed: the grid is not known (its gpu.launch_func ops state different grids or blocks): a loop that strides over the launch runs the default 8 iterations
// REMARK: remark: energy: kernel @gsdyn: the grid is not known (the grid or block of a gpu.launch_func is not constant): a loop that strides over the launch runs the default 8 iterations

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @gs96(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %n = arith.constant 1000000 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %gdim = gpu.grid_dim x
      %base = arith.muli %bid, %bdim : index
      %first = arith.addi %base, %tid : index
      %stride = arith.muli %bdim, %gdim : index
      scf.for %i = %first to %n step %stride {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @gs64(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %n = arith.constant 1000000 : index
      %first = gpu.global_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %stride = arith.muli %gdim, %bdim : index
      scf.for %i = %first to %n step %stride {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @gsbig(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %n = arith.constant 1000000 : index
      %first = gpu.global_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %stride = arith.muli %gdim, %bdim : index
      scf.for %i = %first to %n step %stride {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @gsmixed(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %n = arith.constant 1000000 : index
      %first = gpu.global_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %stride = arith.muli %gdim, %bdim : index
      scf.for %i = %first to %n step %stride {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @gsdyn(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %n = arith.constant 1000000 : index
      %first = gpu.global_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %stride = arith.muli %gdim, %bdim : index
      scf.for %i = %first to %n step %stride {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func @main(%x: memref<?xf32>, %y: memref<?xf32>, %g: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c8192 = arith.constant 8192 : index
    gpu.launch_func @kernels::@gs96 blocks in (%c96, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@gs96 blocks in (%c96, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@gs64 blocks in (%c64, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@gsbig blocks in (%c8192, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@gsmixed blocks in (%c96, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@gsmixed blocks in (%c64, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @kernels::@gsdyn blocks in (%g, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    return
  }
}
