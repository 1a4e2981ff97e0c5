// Leader guards on the gpu dialect, as on the LLVM side (test/Features/
// leader-guards.cu): for the block a kernel states, an scf.if on a thread
// index compared with a constant runs for a share of the threads, and
// atomics on one address for the whole grid (a kernel argument at constant
// indices) are counted apart. The last of the tickets an atomic add of 1
// hands out (`ticket == 1023`: one of 1024) guards code that one ticket
// holder runs (test/Features/last-block.cu). A bounds check of the grid
// index against a size sends no thread to its far side, block known or not
// (test/Features/past-the-end.cu).
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // 256 threads: atomics 1/256 (thread_id x == 0) + 1/32 (lane_id == 0)
    // + 1/256 (the else side of thread_id x != 0) = 0.0390625 per thread, of
    // which the first two (0.03515625) on one address; stores 64/256.
    // CHECK-LABEL: kernel leaders
    // CHECK:       global_stores: 0.25 accesses/thread
    // CHECK:       global_atomics: 0.0390625 ops/thread
    // CHECK-NEXT:  global_same_address_atomics: 0.0351562 ops/thread
    gpu.func @leaders(%x: memref<?xf32>, %out: memref<?xf32>, %firsts: memref<?xf32>,
                      %lanes: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %o = memref.atomic_rmw addf %v, %out[%c0] : (f32, memref<?xf32>) -> f32
      }
      %lane = gpu.lane_id
      %lead = arith.cmpi eq, %lane, %c0 : index
      scf.if %lead {
        %o = memref.atomic_rmw addf %v, %out[%c1] : (f32, memref<?xf32>) -> f32
      }
      %low = arith.cmpi ult, %tid, %c64 : index
      scf.if %low {
        memref.store %v, %firsts[%i] : memref<?xf32>
      }
      %others = arith.cmpi ne, %tid, %c0 : index
      scf.if %others {
      } else {
        %o = memref.atomic_rmw addf %v, %lanes[%bid] : (f32, memref<?xf32>) -> f32
      }
      gpu.return
    }

    // Thread 0 of each of 1024 blocks takes a ticket (1/256 atomics per
    // thread); the last one stores out[0] (1/1024 of those: 1/262144 =
    // 3.8147e-06 stores per thread).
    // CHECK-LABEL: kernel last_ticket
    // CHECK:       global_stores: 3.8147e-06 accesses/thread
    // CHECK:       global_atomics: 0.00390625 ops/thread
    gpu.func @last_ticket(%x: memref<?xf32>, %counter: memref<1xi32>,
                          %out: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %last = arith.constant 1023 : i32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %t = memref.atomic_rmw addi %one, %counter[%c0] : (i32, memref<1xi32>) -> i32
        %is_last = arith.cmpi eq, %t, %last : i32
        scf.if %is_last {
          %v = memref.load %x[%c0] : memref<?xf32>
          memref.store %v, %out[%c0] : memref<?xf32>
        }
      }
      gpu.return
    }

    // Within the size (an argument, or an argument's extent): the side
    // within it for every thread (1 load, 1 store), the side past it for
    // none. The last check splits at a computed bound, so both of its sides
    // count (1 + 2 loads and stores): 4 of each.
    // CHECK-LABEL: kernel bounds
    // CHECK:       global_loads: 4 accesses/thread
    // CHECK:       global_stores: 4 accesses/thread
    gpu.func @bounds(%n: index, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %i = gpu.global_id x
      %within = arith.cmpi slt, %i, %n : index
      scf.if %within {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      } else {
        %a = memref.load %x[%c0] : memref<?xf32>
        %b = memref.load %x[%c1] : memref<?xf32>
        memref.store %a, %y[%c0] : memref<?xf32>
        memref.store %b, %y[%c1] : memref<?xf32>
      }
      %len = memref.dim %x, %c0 : memref<?xf32>
      %past = arith.cmpi sge, %i, %len : index
      scf.if %past {
        %a = memref.load %x[%c0] : memref<?xf32>
        memref.store %a, %y[%c0] : memref<?xf32>
      }
      %half = arith.divui %n, %c2 : index
      %low = arith.cmpi ult, %i, %half : index
      scf.if %low {
        %v = memref.load %x[%i] : memref<?xf32>
        memref.store %v, %y[%i] : memref<?xf32>
      } else {
        %a = memref.load %x[%c0] : memref<?xf32>
        %b = memref.load %x[%c1] : memref<?xf32>
        memref.store %a, %y[%c0] : memref<?xf32>
        memref.store %b, %y[%c1] : memref<?xf32>
      }
      gpu.return
    }
  }
}
