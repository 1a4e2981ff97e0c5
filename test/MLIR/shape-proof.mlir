// Default-deny, as in the LLVM pass: energy-optimize-gpu rewrites a kernel's
// block only where its ids reach nothing but one work unit per axis (the
// global index, a grid-stride scf.for), with no barrier, subgroup operation
// or value carried from one unit to the next; the rewrite keeps every
// launch's threads, so no bound check is needed. The others are left alone,
// with the reason and no advice. (Before, the barrier, leader and carried
// kernels were rewritten like the global-index one.) A kernel that reads
// gpu.grid_dim is told the grid its launches state (grid-from-launch.mlir).
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic min-gain=0})' %s \
// RUN:   -verify-diagnostics -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    // expected-remark @+1 {{energy: kernel @global: chose block}}
    gpu.func @global(%x: memref<?xf32>) kernel {
    // expected-remark@-1 {{sm_90 is modelled on its default board}}
    // (once per module: the target's note holds for every kernel; it was
    // remarked with each, and -verify-diagnostics now refuses a second)
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<?xf32>
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @grid_stride: chose block}}
    gpu.func @grid_stride(%x: memref<?xf32>, %n: index) kernel {
    // expected-remark@-1 {{energy: kernel @grid_stride: grid 4096 at block 256 from its gpu.launch_func ops}}
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %gdim = gpu.grid_dim x
      %base = arith.muli %bid, %bdim : index
      %i0 = arith.addi %base, %tid : index
      %stride = arith.muli %bdim, %gdim : index
      scf.for %i = %i0 to %n step %stride {
        %v = memref.load %x[%i] : memref<?xf32>
        %w = arith.mulf %v, %v : f32
        memref.store %w, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @synced left alone: no other block is proven correct for it: it synchronizes its block (gpu.barrier)}}
    gpu.func @synced(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      gpu.barrier
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @leader left alone: no other block is proven correct for it: threadIdx.x is used without blockIdx.x: the code depends on the size of its block}}
    gpu.func @leader(%x: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %one, %x[%bid] : memref<?xf32>
      }
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @carried left alone: no other block is proven correct for it: a loop over a thread's work items carries a value from one item to the next}}
    gpu.func @carried(%x: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel {
    // expected-remark@-1 {{energy: kernel @carried: grid 4096 at block 256 from its gpu.launch_func ops}}
      %zero = arith.constant 0.0 : f32
      %i0 = gpu.global_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %stride = arith.muli %bdim, %gdim : index
      %s = scf.for %i = %i0 to %n step %stride iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %x[%i] : memref<?xf32>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      %c0 = arith.constant 0 : index
      %t = memref.atomic_rmw addf %s, %out[%c0] : (f32, memref<?xf32>) -> f32
      gpu.return
    }
  }

  func.func @run(%x: memref<?xf32>, %out: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    gpu.launch_func @kernels::@global blocks in (%c4096, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@grid_stride blocks in (%c4096, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %n : index)
    gpu.launch_func @kernels::@synced blocks in (%c4096, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@leader blocks in (%c4096, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@carried blocks in (%c4096, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %out : memref<?xf32>, %n : index)
    return
  }
}
