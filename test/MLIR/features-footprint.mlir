// The distinct global bytes a block touches (its footprint), per thread,
// for the block the kernel states (known_block_size): the kernels of
// test/Features/global-footprint.cu in the gpu dialect, with the same
// values where the code has the same shape.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // 32x8 stencil, the 5 taps of a row written out (as clang unrolls
    // them) in a loop over the 5 rows. Reads: x 4 bytes over 32 threads and
    // 4 more taps (36 floats, from offset 0 to 16: 144 bytes, 5 sectors);
    // threadIdx.y and the row loop, both 16384 apart, 8 + 5 - 1 = 12 rows:
    // 12 x 160; the write 8 rows of 128: (1920 + 1024) / 256 = 11.5 of the
    // 25 x 4 + 4 = 104 bytes a thread accesses, as in CUDA.
    // A warp is a row of 32 floats: 4 sectors for the first tap, 5 for
    // each shifted one, 5 times; 4 for the store: 5 x (4 + 4 x 5) + 4 = 124.
    // The working set is one row of taps: 8 rows of 160 and the write:
    // (1280 + 1024) / 256 = 9 (in CUDA 11.5: clang unrolls the row loop as
    // well, and no loop is left). Everything depends on both block indices.
    // CHECK-LABEL: kernel stencil
    // CHECK:       global_footprint_bytes: 11.5 bytes/thread
    // CHECK-NEXT:  global_footprint_accessed_bytes: 104 bytes/thread
    // CHECK-NEXT:  global_warp_sector_bytes: 124 bytes/thread
    // CHECK-NEXT:  global_store_warp_sector_bytes: 4 bytes/thread
    // CHECK-NEXT:  global_working_set_bytes: 9 bytes/thread
    // CHECK-NEXT:  global_footprint_row_shared_bytes: 0 bytes/thread
    // CHECK-NEXT:  global_footprint_column_shared_bytes: 0 bytes/thread
    // CHECK-NEXT:  global_footprint_grid_shared_bytes: 0 bytes/thread
    gpu.func @stencil(%in: memref<?x4096xf32>, %out: memref<?x4096xf32>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %x0 = arith.muli %bx, %dx : index
      %x = arith.addi %x0, %tx : index
      %y0 = arith.muli %by, %dy : index
      %y = arith.addi %y0, %ty : index
      %x1 = arith.addi %x, %c1 : index
      %x2 = arith.addi %x, %c2 : index
      %x3 = arith.addi %x, %c3 : index
      %x4 = arith.addi %x, %c4 : index
      %s = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f32) {
        %r = arith.addi %y, %i : index
        %t0 = memref.load %in[%r, %x] : memref<?x4096xf32>
        %t1 = memref.load %in[%r, %x1] : memref<?x4096xf32>
        %t2 = memref.load %in[%r, %x2] : memref<?x4096xf32>
        %t3 = memref.load %in[%r, %x3] : memref<?x4096xf32>
        %t4 = memref.load %in[%r, %x4] : memref<?x4096xf32>
        %a0 = arith.addf %acc, %t0 : f32
        %a1 = arith.addf %a0, %t1 : f32
        %a2 = arith.addf %a1, %t2 : f32
        %a3 = arith.addf %a2, %t3 : f32
        %a4 = arith.addf %a3, %t4 : f32
        scf.yield %a4 : f32
      }
      memref.store %s, %out[%y, %x] : memref<?x4096xf32>
      gpu.return
    }

    // 32x8 matvec: a's rows are 512 floats (a dynamic first dimension
    // counts as 4096 rows); 8 consecutive rows of a (threadIdx.y, 2048
    // bytes apart, continue the k loop's 512 x 4: 16 KiB), 512 rows of 32
    // floats of b (64 KiB), 8 rows of 32 floats of c (1 KiB):
    // 82944 / 256 = 324, as in CUDA. A warp reads one element of a (1
    // sector for 32 threads) and a row of 32 floats of b (4 sectors) in
    // each of 512 steps, and writes 4 sectors of c: 512 + 2048 + 4 = 2564.
    // Accessed: 512 x (4 + 4) + 4 = 4100. The working set, one k step: 8
    // sectors of a, 4 of b, c: (256 + 128 + 1024) / 256 = 5.5.
    // a depends on block_id y only (a grid row of blocks reads it:
    // 16384 / 256 = 64), b on block_id x only (65536 / 256 = 256), c on both.
    // CHECK-LABEL: kernel matvec_rows
    // CHECK:       global_footprint_bytes: 324 bytes/thread
    // CHECK-NEXT:  global_footprint_accessed_bytes: 4100 bytes/thread
    // CHECK-NEXT:  global_warp_sector_bytes: 2564 bytes/thread
    // CHECK-NEXT:  global_store_warp_sector_bytes: 4 bytes/thread
    // CHECK-NEXT:  global_working_set_bytes: 5.5 bytes/thread
    // CHECK-NEXT:  global_footprint_row_shared_bytes: 64 bytes/thread
    // CHECK-NEXT:  global_footprint_column_shared_bytes: 256 bytes/thread
    // CHECK-NEXT:  global_footprint_grid_shared_bytes: 0 bytes/thread
    gpu.func @matvec_rows(%a: memref<?x512xf32>, %b: memref<512x4096xf32>,
                          %c: memref<?x4096xf32>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %zero = arith.constant 0.0 : f32
      %x = gpu.global_id x
      %y = gpu.global_id y
      %s = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %zero) -> (f32) {
        %va = memref.load %a[%y, %k] : memref<?x512xf32>
        %vb = memref.load %b[%k, %x] : memref<512x4096xf32>
        %p = arith.mulf %va, %vb : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %s, %c[%y, %x] : memref<?x4096xf32>
      gpu.return
    }

    // The same kernel at 256x1 (nvvm.reqntid states the block too): one row
    // of a (2 KiB), 512 rows of 256 floats of b (512 KiB), 1 KiB of c:
    // 527360 / 256 = 2060, as in CUDA.
    // CHECK-LABEL: kernel matvec_wide
    // CHECK:       global_footprint_bytes: 2060 bytes/thread
    gpu.func @matvec_wide(%a: memref<?x512xf32>, %b: memref<512x4096xf32>,
                          %c: memref<?x4096xf32>) kernel
        attributes {nvvm.reqntid = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %zero = arith.constant 0.0 : f32
      %x = gpu.global_id x
      %y = gpu.global_id y
      %s = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %zero) -> (f32) {
        %va = memref.load %a[%y, %k] : memref<?x512xf32>
        %vb = memref.load %b[%k, %x] : memref<512x4096xf32>
        %p = arith.mulf %va, %vb : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %s, %c[%y, %x] : memref<?x4096xf32>
      gpu.return
    }

    // A row chosen by a loaded index is not affine here: only the index's
    // own read (one sector a whole grid row of blocks shares, 32 / 256) and
    // the write (8 rows of 128 bytes, 4 per thread) are covered: 4.125 of
    // the 4 + 4 accessed bytes; the 512 reads of a are not. (The LLVM
    // analysis takes the loaded row as an opaque uniform part and covers
    // them: 517 warp sector bytes there, 1 + 4 = 5 here.)
    // CHECK-LABEL: kernel gathered_rows
    // CHECK:       global_footprint_bytes: 4.125 bytes/thread
    // CHECK-NEXT:  global_footprint_accessed_bytes: 8 bytes/thread
    // CHECK:       global_footprint_row_shared_bytes: 0.125 bytes/thread
    // CHECK-NEXT:  global_footprint_column_shared_bytes: 0 bytes/thread
    // CHECK-NEXT:  global_footprint_grid_shared_bytes: 0 bytes/thread
    gpu.func @gathered_rows(%rows: memref<?xi32>, %a: memref<?x512xf32>,
                            %c: memref<?x4096xf32>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %zero = arith.constant 0.0 : f32
      %x = gpu.global_id x
      %y = gpu.global_id y
      %by = gpu.block_id y
      %r32 = memref.load %rows[%by] : memref<?xi32>
      %r = arith.index_cast %r32 : i32 to index
      %s = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %zero) -> (f32) {
        %va = memref.load %a[%r, %k] : memref<?x512xf32>
        %n = arith.addf %acc, %va : f32
        scf.yield %n : f32
      }
      memref.store %s, %c[%y, %x] : memref<?x4096xf32>
      gpu.return
    }
    // vector.load and vector.store of 4 floats (16 bytes) per thread: a
    // 32x8 block copies 8 rows of 32 x 16 = 512 bytes each way:
    // 2 x 4096 / 256 = 32 bytes per thread, all it accesses; a warp's row
    // is 16 sectors, 16 bytes a thread for each of the two accesses (the
    // store's 16 reach L2 whatever the reuse: L1 keeps no global stores).
    // CHECK-LABEL: kernel copy_vectors
    // CHECK:       global_footprint_bytes: 32 bytes/thread
    // CHECK-NEXT:  global_footprint_accessed_bytes: 32 bytes/thread
    // CHECK-NEXT:  global_warp_sector_bytes: 32 bytes/thread
    // CHECK-NEXT:  global_store_warp_sector_bytes: 16 bytes/thread
    // CHECK-NEXT:  global_working_set_bytes: 32 bytes/thread
    // CHECK-NEXT:  global_footprint_row_shared_bytes: 0 bytes/thread
    // CHECK-NEXT:  global_footprint_column_shared_bytes: 0 bytes/thread
    // CHECK-NEXT:  global_footprint_grid_shared_bytes: 0 bytes/thread
    gpu.func @copy_vectors(%in: memref<?x4096xf32>, %out: memref<?x4096xf32>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %c4 = arith.constant 4 : index
      %x = gpu.global_id x
      %y = gpu.global_id y
      %x4 = arith.muli %x, %c4 : index
      %v = vector.load %in[%y, %x4] : memref<?x4096xf32>, vector<4xf32>
      vector.store %v, %out[%y, %x4] : memref<?x4096xf32>, vector<4xf32>
      gpu.return
    }
  }
}
