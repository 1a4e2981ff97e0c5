// Trip counts weight everything inside a loop: constant bounds count
// exactly; unknown values in the bounds (a kernel argument n) are taken as
// 4096 (`k < n; k += 16` runs 256 times); bounds that still give nothing
// (thread-dependent starts) and scf.while loops run 8 times. Loops add their
// latch (2 int_ops, 1 branch per iteration). func.call folds the callee in,
// weighted by the call's executions. A tiled matmul reads y: 2-D.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

#wg = #gpu.address_space<workgroup>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tileA : memref<16x16xf32, #wg>

    // C = A * B with 16x16 tiles of A (a workgroup global) and B (a
    // workgroup attribution): 256 tiles x 16 FMAs.
    // CHECK-LABEL: kernel matmul
    // CHECK:       fp32_fma: 4096 ops/thread
    // CHECK:       flops: 8192 flop/thread
    // CHECK-NEXT:  global_loads: 512 accesses/thread
    // CHECK-NEXT:  global_load_bytes: 2048 bytes/thread
    // CHECK-NEXT:  global_stores: 1 accesses/thread
    // CHECK-NEXT:  global_store_bytes: 4 bytes/thread
    // CHECK-NEXT:  shared_loads: 8192 accesses/thread
    // CHECK-NEXT:  shared_load_bytes: 32768 bytes/thread
    // CHECK-NEXT:  shared_stores: 512 accesses/thread
    // CHECK:       barriers: 512 ops/thread
    // CHECK:       global_coalesced: 513 accesses/thread
    // CHECK:       static_shared_bytes: 2048 bytes/block
    // CHECK:       reads_dim_y: 1 0/1
    // CHECK:       loops: 2 count
    // CHECK-NEXT:  max_loop_depth: 2 count
    // CHECK-NEXT:  unknown_trip_loops: 1 count
    // CHECK-NEXT:  critical_path: {{[0-9]+}} instr/thread
    // CHECK-NEXT:  ilp: {{[0-9.]+}} instr/step
    // CHECK-NEXT:  shared_stride_x: {{-?[0-9]+}} bytes
    // CHECK-NEXT:  shared_stride_y: {{-?[0-9]+}} bytes
    // The footprint at the 16x16 block the kernel states. A and B are
    // ?x? memrefs: rows of 4096 floats (16384 bytes); the kt loop runs
    // 4096 / 16 = 256 times, 16 floats (64 bytes) right in A, 16 rows
    // (262144 bytes) down in B. A: threadIdx.x's 16 floats (64 bytes), the
    // loop's 256 x 64 bytes continue them to a whole row (16384), the 16
    // rows of threadIdx.y continue that: 262144 bytes. B: 16 rows
    // (threadIdx.y) x 256 steps of 64 bytes: 4096 x 64 = 262144. C: 16 rows
    // of 64 bytes, 1024. (262144 + 262144 + 1024) / 256 = 2052, the
    // 256 x (4 + 4) + 4 bytes a thread accesses: no reuse within a block.
    // A warp is 2 rows of 16 threads: 2 x 2 sectors in each of A's and B's
    // 256 reads and C's write: 256 x 4 + 256 x 4 + 4 = 2052, the write's 4
    // stores. One kt step:
    // 16 x 64 bytes of A, of B and of C: 3072 / 256 = 12. A's tile is a
    // grid row's (block_id y only: 262144 / 256 = 1024), B's a grid
    // column's (block_id x only: 1024), C's neither's.
    // CHECK-NEXT:  global_footprint_bytes: 2052 bytes/thread
    // CHECK-NEXT:  global_footprint_accessed_bytes: 2052 bytes/thread
    // CHECK-NEXT:  global_warp_sector_bytes: 2052 bytes/thread
    // CHECK-NEXT:  global_store_warp_sector_bytes: 4 bytes/thread
    // CHECK-NEXT:  global_working_set_bytes: 12 bytes/thread
    // CHECK-NEXT:  global_footprint_row_shared_bytes: 1024 bytes/thread
    // CHECK-NEXT:  global_footprint_column_shared_bytes: 1024 bytes/thread
    // CHECK-NEXT:  global_footprint_grid_shared_bytes: 0 bytes/thread
    // CHECK-NEXT:  global_footprint_tiled_bytes: 2052 bytes/thread
    // CHECK-NEXT:  past_the_end_threads: 0 share
    // CHECK-NEXT:  dims: tid=xy ctaid=xy ntid= nctaid=
    gpu.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %n: index)
        workgroup(%tileB: memref<16x16xf32, #wg>) kernel
        attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %tileA = memref.get_global @tileA : memref<16x16xf32, #wg>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %sum = scf.for %kt = %c0 to %n step %c16 iter_args(%acc = %zero) -> (f32) {
        %ak = arith.addi %kt, %tx : index
        %a = memref.load %A[%row, %ak] : memref<?x?xf32>
        memref.store %a, %tileA[%ty, %tx] : memref<16x16xf32, #wg>
        %bk = arith.addi %kt, %ty : index
        %b = memref.load %B[%bk, %col] : memref<?x?xf32>
        memref.store %b, %tileB[%ty, %tx] : memref<16x16xf32, #wg>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%p = %acc) -> (f32) {
          %x = memref.load %tileA[%ty, %k] : memref<16x16xf32, #wg>
          %y = memref.load %tileB[%k, %tx] : memref<16x16xf32, #wg>
          %f = math.fma %x, %y, %p : f32
          scf.yield %f : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %sum, %C[%row, %col] : memref<?x?xf32>
      gpu.return
    }

    func.func @poly(%v: f32) -> f32 {
      %m = arith.mulf %v, %v : f32
      %e = math.exp %m : f32
      return %e : f32
    }

    // A grid-stride loop (8 iterations, divergent: it starts at the thread's
    // index) calling @poly: 8 x (mulf, exp, and the exp's ~8 FP32
    // instructions); a while loop (8 iterations) of a cmpf and an addf.
    // CHECK-LABEL: kernel calls
    // CHECK:       fp32_ops: 88 ops/thread
    // CHECK:       special_fns: 8 ops/thread
    // CHECK:       global_loads: 8 accesses/thread
    // CHECK:       branches: 16 ops/thread
    // CHECK-NEXT:  divergent_branches: 8 ops/thread
    // CHECK:       loops: 2 count
    // CHECK-NEXT:  max_loop_depth: 1 count
    // CHECK-NEXT:  unknown_trip_loops: 2 count
    gpu.func @calls(%x: memref<?xf32>, %n: index, %limit: f32) kernel {
      %i0 = gpu.global_id x
      %stride = gpu.grid_dim x
      scf.for %i = %i0 to %n step %stride {
        %v = memref.load %x[%i] : memref<?xf32>
        %r = func.call @poly(%v) : (f32) -> f32
        memref.store %r, %x[%i] : memref<?xf32>
      }
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %w = scf.while (%acc = %zero) : (f32) -> f32 {
        %more = arith.cmpf olt, %acc, %limit : f32
        scf.condition(%more) %acc : f32
      } do {
      ^bb0(%acc: f32):
        %next = arith.addf %acc, %one : f32
        scf.yield %next : f32
      }
      gpu.return
    }
  }
}
