// Kernels whose launches cannot take another block shape consistently are
// left alone: IR unchanged, and a remark says why and what the objective
// would choose (advice, for launches with the same threads), where another
// block is proven correct: a block width written into the index, workgroup
// memory and dynamic shared memory get none.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir -allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic})' %s \
// RUN:   -verify-diagnostics -o /dev/null
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir -allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic})' %s 2>/dev/null \
// RUN:   | FileCheck %s

// Nothing is rewritten, on either side.
// CHECK-NOT: nvvm.reqntid
// CHECK-NOT: minctasm
// CHECK:     gpu.func @bounded({{.*}}) kernel attributes {nvvm.reqntid = array<i32: 128, 1, 1>}
// CHECK-NOT: nvvm.reqntid
// CHECK-NOT: minctasm

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    // expected-remark @+1 {{energy: kernel @dynamic_block left alone: the block size of a launch is not constant; advice: block}}
    gpu.func @dynamic_block(%x: memref<?xf32>) kernel {
    // expected-remark@-1 {{sm_80 is modelled on its default board}}
    // (once per module: the target's note holds for every kernel; it was
    // remarked with each, and -verify-diagnostics now refuses a second)
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @dynamic_grid left alone: the grid size of a launch is not constant; advice: block}}
    gpu.func @dynamic_grid(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @conflicting left alone: its launches use different block sizes (256 and 128); advice: block}}
    gpu.func @conflicting(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // The block width is written into the index: block_id * 256 + thread_id.
    // expected-remark @+1 {{energy: kernel @baked left alone: no other block is proven correct for it: blockIdx.x is multiplied by 256, not by blockDim.x: the code assumes that many threads per block}}
    gpu.func @baked(%x: memref<?xf32>) kernel {
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c256 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @shared left alone: its 1024 bytes of workgroup memory are sized for the launch's block; no advice: no other block shape is known to be correct for it (it uses workgroup memory, whose layout follows the block}}
    gpu.func @shared(%x: memref<?xf32>)
        workgroup(%buf: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.global_id x
      %tid = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %buf[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      gpu.return
    }
    // 256 KiB of workgroup memory fits no SM: not even advice.
    // expected-remark @+1 {{energy: kernel @too_big left alone: its 262144 bytes of workgroup memory are sized for the launch's block; no advice: no other block shape is known to be correct for it (it uses workgroup memory, whose layout follows the block}}
    gpu.func @too_big(%x: memref<?xf32>)
        workgroup(%buf: memref<65536xf32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %buf[%i] : memref<65536xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // The rule of the LLVM pass: dynamic workgroup memory whose size per
    // block is not declared makes the launch's block the only one known to be
    // correct, so there is no advice either.
    // expected-remark @+1 {{energy: kernel @dyn_shared left alone: the kernel uses dynamic shared memory (gpu.dynamic_shared_memory) whose size per block is not declared; no advice: no other block shape is known to be correct for it (it uses 'gpu.dynamic_shared_memory'}}
    gpu.func @dyn_shared(%x: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %tid = gpu.thread_id x
      %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %buf = memref.view %bytes[%c0][%tid] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %buf[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @bounded left alone: it has launch bounds (known_block_size or nvvm.reqntid/maxntid/minctasm/maxnreg); advice: block}}
    gpu.func @bounded(%x: memref<?xf32>) kernel attributes {nvvm.reqntid = array<i32: 128, 1, 1>} {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // 1000 threads: no multiple of the warp size divides them.
    // expected-remark @+1 {{energy: kernel @odd_size left alone: no candidate block divides the threads of every launch into a valid grid; advice: block}}
    gpu.func @odd_size(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @clustered left alone: a launch sets a cluster size; advice: block}}
    gpu.func @clustered(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // Launched, and also named by an op the pass does not know.
    // expected-remark @+1 {{energy: kernel @foreign_use left alone: 'runtime.enqueue' refers to it and may launch it with another block; advice: block}}
    gpu.func @foreign_use(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
    // expected-remark @+1 {{energy: kernel @unlaunched left alone: no gpu.launch_func in the module launches it; advice: block}}
    gpu.func @unlaunched(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }

  // CHECK-LABEL: func.func @host
  func.func @host(%x: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1000 = arith.constant 1000 : index
    %c1024_i32 = arith.constant 1024 : i32
    %c4096 = arith.constant 4096 : index
    // CHECK:      %c4096 = arith.constant 4096 : index
    // CHECK-NEXT: gpu.launch_func @kernels::@dynamic_block blocks in (%c4096, %c1, %c1) threads in (%arg1, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@dynamic_grid blocks in (%arg1, %c1, %c1) threads in (%c256, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@conflicting blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@conflicting blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@baked blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@shared blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@dyn_shared blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c1024_i32
    // CHECK-NEXT: gpu.launch_func @kernels::@bounded blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@odd_size blocks in (%c1000, %c1, %c1) threads in (%c1, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@clustered clusters in (%c2, %c1, %c1) blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1)
    // CHECK-NEXT: gpu.launch_func @kernels::@foreign_use blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1)
    // expected-note @+1 {{this launch}}
    gpu.launch_func @kernels::@dynamic_block blocks in (%c4096, %c1, %c1) threads in (%n, %c1, %c1) args(%x : memref<?xf32>)
    // expected-note @+1 {{this launch}}
    gpu.launch_func @kernels::@dynamic_grid blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@conflicting blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    // expected-note @+1 {{this launch}}
    gpu.launch_func @kernels::@conflicting blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@baked blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@shared blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@dyn_shared blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c1024_i32 args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@bounded blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@odd_size blocks in (%c1000, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>)
    // expected-note @+1 {{this launch}}
    gpu.launch_func @kernels::@clustered clusters in (%c2, %c1, %c1) blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @kernels::@foreign_use blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<?xf32>)
    // expected-note @+1 {{this use}}
    "runtime.enqueue"() {kernel = @kernels::@foreign_use} : () -> ()
    return
  }
}
