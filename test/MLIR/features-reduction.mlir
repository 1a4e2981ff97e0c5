// A block reduction in workgroup memory (gpu.barrier, a tree loop with a
// thread-dependent scf.if) and a warp reduction (gpu.shuffle, lane_id,
// atomics): synchronization, shared traffic, branches and divergence.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

#wg = #gpu.address_space<workgroup>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // The tree loop runs 8 times: one barrier, two shared loads, one shared
    // store, an scf.if on thread_id (divergent) and the loop's own latch
    // (its bounds are constants: not divergent) per iteration. The barrier
    // after the global load waits for it; the tree's barriers do not.
    // CHECK-LABEL: kernel block_sum
    // CHECK:       fp32_ops: 8 ops/thread
    // CHECK:       int_ops: 43 ops/thread
    // CHECK:       global_loads: 1 accesses/thread
    // CHECK-NEXT:  global_load_bytes: 4 bytes/thread
    // CHECK-NEXT:  global_stores: 1 accesses/thread
    // CHECK-NEXT:  global_store_bytes: 4 bytes/thread
    // CHECK-NEXT:  shared_loads: 17 accesses/thread
    // CHECK-NEXT:  shared_load_bytes: 68 bytes/thread
    // CHECK-NEXT:  shared_stores: 9 accesses/thread
    // CHECK-NEXT:  shared_store_bytes: 36 bytes/thread
    // CHECK:       barriers: 9 ops/thread
    // CHECK-NEXT:  barriers_after_global_loads: 1 ops/thread
    // CHECK-NEXT:  warp_shuffles: 0 ops/thread
    // CHECK:       branches: 17 ops/thread
    // CHECK-NEXT:  divergent_branches: 9 ops/thread
    // CHECK-NEXT:  global_coalesced: 1 accesses/thread
    // CHECK-NEXT:  global_strided: 0 accesses/thread
    // CHECK-NEXT:  global_irregular: 0 accesses/thread
    // CHECK-NEXT:  global_uniform: 1 accesses/thread
    // CHECK-NEXT:  static_shared_bytes: 1024 bytes/block
    // CHECK:       loops: 1 count
    // CHECK-NEXT:  max_loop_depth: 1 count
    // CHECK-NEXT:  unknown_trip_loops: 0 count
    gpu.func @block_sum(%x: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%smem: memref<256xf32, #wg>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %smem[%tid] : memref<256xf32, #wg>
      gpu.barrier
      scf.for %k = %c0 to %c8 step %c1 {
        %s = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %smem[%tid] : memref<256xf32, #wg>
          %b = memref.load %smem[%j] : memref<256xf32, #wg>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %smem[%tid] : memref<256xf32, #wg>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %r = memref.load %smem[%c0] : memref<256xf32, #wg>
        memref.store %r, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }

    // The shuffled values and the lane test depend on the thread; the
    // atomic adds to one global address.
    // CHECK-LABEL: kernel warp_sum
    // CHECK:       fp32_ops: 2 ops/thread
    // CHECK:       global_atomics: 1 ops/thread
    // CHECK-NEXT:  global_same_address_atomics: 0 ops/thread
    // CHECK-NEXT:  shared_atomics: 0 ops/thread
    // CHECK-NEXT:  barriers: 0 ops/thread
    // CHECK-NEXT:  barriers_after_global_loads: 0 ops/thread
    // CHECK-NEXT:  warp_shuffles: 2 ops/thread
    // CHECK:       branches: 1 ops/thread
    // CHECK-NEXT:  divergent_branches: 1 ops/thread
    // CHECK:       static_shared_bytes: 0 bytes/block
    gpu.func @warp_sum(%x: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %s1, %ok1 = gpu.shuffle xor %v, %c16, %c32 : f32
      %v1 = arith.addf %v, %s1 : f32
      %s2, %ok2 = gpu.shuffle xor %v1, %c8, %c32 : f32
      %v2 = arith.addf %v1, %s2 : f32
      %lane = gpu.lane_id
      %lead = arith.cmpi eq, %lane, %c0 : index
      scf.if %lead {
        %old = memref.atomic_rmw addf %v2, %out[%c0] : (f32, memref<?xf32>) -> f32
      }
      gpu.return
    }
  }
}
