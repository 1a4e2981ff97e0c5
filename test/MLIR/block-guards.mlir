// Code behind a comparison of a block index with a value every thread has
// alike runs for a share of the grid's blocks, on the gpu dialect as on the
// LLVM side (test/Features/block-guards.cu holds the same kernel in CUDA):
// with the grid known from the kernel's gpu.launch_func ops,
// `block_id x == 0` counts for 1 / grid x of the threads, `block_id x < 2`
// for 2 / grid x, `block_id x == k` (k an argument) for 1 / grid x, and a
// linear block id `block_id y * grid_dim x + block_id x == 3` for
// 1 / (grid x * grid y). Thread indices compared by any order count too
// (`<=`, `>` with the constant on the left, `>=`), as do lanes
// (thread_id x % 32) and a thread's linear id in the grid. Before, each
// block guard ran for every block, and only ==, != and < on a thread index
// counted.
//
// The sizes are filled in by sed: @BX@ the block (known_block_size and the
// launches'), @GX@ x @GY@ and @GX2@ x @GY2@ the grids of the two launches.
//
// By hand, @block_guards: each guarded region loads one float and stores
// one; every thread loads and stores one more:
//   block 128, grid 10x4: 1 + 1/10 + 2/10 + 1/10 + 1/40 = 1.425
//   block 128, grid 3x1 (not a power of two; the linear id 3 names no
//              block): 1 + 1/3 + 2/3 + 1/3 + 0 = 2.33333
//   block 96, grid 16x16: 1 + 1/16 + 2/16 + 1/16 + 1/256 = 1.25390625
//              (printed to 6 digits: 1.25391)
//   launches at grids 10x4 and 3x1: the grid is not known, 5
// The CUDA kernel through the LLVM pass, forced to the same launches, counts
// the same (the same RUN lines as test/Features/block-guards.cu).
//
// @thread_orders, block 128 (one load per region, none outside):
//   thread_id x <= 31:               32/128 = 0.25
//   31 < thread_id x:                96/128 = 0.75
//   else of 31 < thread_id x:        32/128 = 0.25
//   thread_id x >= 96:               32/128 = 0.25
//   else of thread_id x >= 96:       96/128 = 0.75
//   thread_id x % 32 == 0:           1/32   = 0.03125
//   global_id x == 5, grid 10x4:     1/(128 x 10) = 0.00078125
//   total 2.28203125; without the grid the last counts for every thread:
//   3.28125
// Each side of a guard counts for the threads that take it, as on the LLVM
// side (FeatureCore's guardedSide): before, only the side where the index
// is under the bound (or equal to it) was narrowed, and the then sides of
// `31 < thread_id x` and `thread_id x >= 96` counted for every thread
// (3.28203, and 4.28125 without the grid).
// REQUIRES: mlir
// RUN: sed -e 's/@BX@/128/g' -e 's/@GX@/10/g' -e 's/@GY@/4/g' \
// RUN:     -e 's/@GX2@/10/g' -e 's/@GY2@/4/g' %s \
// RUN:   | %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:     --pass-pipeline='builtin.module(energy-print-gpu-features)' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=G10X4,ORDERS
// RUN: sed -e 's/@BX@/128/g' -e 's/@GX@/3/g' -e 's/@GY@/1/g' \
// RUN:     -e 's/@GX2@/3/g' -e 's/@GY2@/1/g' %s \
// RUN:   | %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:     --pass-pipeline='builtin.module(energy-print-gpu-features)' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=G3
// RUN: sed -e 's/@BX@/96/g' -e 's/@GX@/16/g' -e 's/@GY@/16/g' \
// RUN:     -e 's/@GX2@/16/g' -e 's/@GY2@/16/g' %s \
// RUN:   | %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:     --pass-pipeline='builtin.module(energy-print-gpu-features)' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=G16X16
// RUN: sed -e 's/@BX@/128/g' -e 's/@GX@/10/g' -e 's/@GY@/4/g' \
// RUN:     -e 's/@GX2@/3/g' -e 's/@GY2@/1/g' %s \
// RUN:   | %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:     --pass-pipeline='builtin.module(energy-print-gpu-features)' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOGRID
//
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=block_guards:128,grid=10x4 \
// RUN:   -mllvm -energy-report=%t.10x4.json %S/../Features/block-guards.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=G10X4 --input-file=%t.10x4.json
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=block_guards:128,grid=3 \
// RUN:   -mllvm -energy-report=%t.3.json %S/../Features/block-guards.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=G3 --input-file=%t.3.json
//
// G10X4:  global_loads{{"?}}: 1.425{{$|,| }}
// G10X4:  global_stores{{"?}}: 1.425{{$|,| }}
// G3:     global_loads{{"?}}: 2.33333
// G16X16: global_loads: 1.25391 accesses/thread
// NOGRID-LABEL: kernel block_guards
// NOGRID: global_loads: 5 accesses/thread
// NOGRID-LABEL: kernel thread_orders
// NOGRID: global_loads: 3.28125 accesses/thread
// ORDERS-LABEL: kernel thread_orders
// ORDERS: global_loads: 2.28203 accesses/thread

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @block_guards(%in: memref<?xf32>, %out: memref<?xf32>,
                           %a: memref<?xf32>, %oa: memref<?xf32>,
                           %b: memref<?xf32>, %ob: memref<?xf32>,
                           %c: memref<?xf32>, %oc: memref<?xf32>,
                           %d: memref<?xf32>, %od: memref<?xf32>, %k: i32) kernel
        attributes {known_block_size = array<i32: @BX@, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %out[%i] : memref<?xf32>
      %first = arith.cmpi eq, %bid, %c0 : index
      scf.if %first {
        %x = memref.load %a[%tid] : memref<?xf32>
        memref.store %x, %oa[%tid] : memref<?xf32>
      }
      %two = arith.cmpi ult, %bid, %c2 : index
      scf.if %two {
        %x = memref.load %b[%i] : memref<?xf32>
        memref.store %x, %ob[%i] : memref<?xf32>
      }
      %ki = arith.index_cast %k : i32 to index
      %named = arith.cmpi eq, %bid, %ki : index
      scf.if %named {
        %x = memref.load %c[%tid] : memref<?xf32>
        memref.store %x, %oc[%tid] : memref<?xf32>
      }
      %by = gpu.block_id y
      %gdx = gpu.grid_dim x
      %row = arith.muli %by, %gdx : index
      %linear = arith.addi %row, %bid : index
      %third = arith.cmpi eq, %linear, %c3 : index
      scf.if %third {
        %x = memref.load %d[%tid] : memref<?xf32>
        memref.store %x, %od[%tid] : memref<?xf32>
      }
      gpu.return
    }

    gpu.func @thread_orders(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c5 = arith.constant 5 : index
      %c31 = arith.constant 31 : index
      %c32 = arith.constant 32 : index
      %c96 = arith.constant 96 : index
      %tid = gpu.thread_id x
      %low = arith.cmpi ule, %tid, %c31 : index
      scf.if %low {
        %v = memref.load %x[%tid] : memref<?xf32>
        memref.store %v, %y[%tid] : memref<?xf32>
      }
      %high = arith.cmpi ult, %c31, %tid : index
      scf.if %high {
        %v = memref.load %x[%tid] : memref<?xf32>
        memref.store %v, %y[%tid] : memref<?xf32>
      } else {
        %v = memref.load %x[%tid] : memref<?xf32>
        memref.store %v, %y[%tid] : memref<?xf32>
      }
      %last = arith.cmpi sge, %tid, %c96 : index
      scf.if %last {
        %v = memref.load %x[%tid] : memref<?xf32>
        memref.store %v, %y[%tid] : memref<?xf32>
      } else {
        %v = memref.load %x[%tid] : memref<?xf32>
        memref.store %v, %y[%tid] : memref<?xf32>
      }
      %lane = arith.remui %tid, %c32 : index
      %leader = arith.cmpi eq, %lane, %c0 : index
      scf.if %leader {
        %v = memref.load %x[%tid] : memref<?xf32>
        memref.store %v, %y[%tid] : memref<?xf32>
      }
      %gid = gpu.global_id x
      %fifth = arith.cmpi eq, %gid, %c5 : index
      scf.if %fifth {
        %v = memref.load %x[%tid] : memref<?xf32>
        memref.store %v, %y[%tid] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func @main(%in: memref<?xf32>, %k: i32) {
    %c1 = arith.constant 1 : index
    %bx = arith.constant @BX@ : index
    %c128 = arith.constant 128 : index
    %gx = arith.constant @GX@ : index
    %gy = arith.constant @GY@ : index
    %gx2 = arith.constant @GX2@ : index
    %gy2 = arith.constant @GY2@ : index
    gpu.launch_func @kernels::@block_guards blocks in (%gx, %gy, %c1)
        threads in (%bx, %c1, %c1)
        args(%in : memref<?xf32>, %in : memref<?xf32>, %in : memref<?xf32>,
             %in : memref<?xf32>, %in : memref<?xf32>, %in : memref<?xf32>,
             %in : memref<?xf32>, %in : memref<?xf32>, %in : memref<?xf32>,
             %in : memref<?xf32>, %k : i32)
    gpu.launch_func @kernels::@block_guards blocks in (%gx2, %gy2, %c1)
        threads in (%bx, %c1, %c1)
        args(%in : memref<?xf32>, %in : memref<?xf32>, %in : memref<?xf32>,
             %in : memref<?xf32>, %in : memref<?xf32>, %in : memref<?xf32>,
             %in : memref<?xf32>, %in : memref<?xf32>, %in : memref<?xf32>,
             %in : memref<?xf32>, %k : i32)
    gpu.launch_func @kernels::@thread_orders blocks in (%gx, %gy, %c1)
        threads in (%c128, %c1, %c1) args(%in : memref<?xf32>, %in : memref<?xf32>)
    gpu.launch_func @kernels::@thread_orders blocks in (%gx2, %gy2, %c1)
        threads in (%c128, %c1, %c1) args(%in : memref<?xf32>, %in : memref<?xf32>)
    return
  }
}
