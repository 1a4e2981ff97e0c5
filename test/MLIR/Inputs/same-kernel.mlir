// The kernels of same-kernel.cu, in the gpu dialect: the same index
// arithmetic and bounds checks, and mulf + addf contracted as clang contracts
// CUDA by default (see ../same-kernel-cuda.test).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @saxpy(%n: i32, %a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %ni = arith.index_cast %n : i32 to index
      %in = arith.cmpi slt, %i, %ni : index
      scf.if %in {
        %xv = memref.load %x[%i] : memref<?xf32>
        %p = arith.mulf %xv, %a fastmath<contract> : f32
        %yv = memref.load %y[%i] : memref<?xf32>
        %s = arith.addf %p, %yv fastmath<contract> : f32
        memref.store %s, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @scale_rows(%w: i32, %h: i32, %a: f32, %in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %bx = gpu.block_id x
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %cx = arith.muli %bx, %dx : index
      %c = arith.addi %cx, %tx : index
      %by = gpu.block_id y
      %dy = gpu.block_dim y
      %ty = gpu.thread_id y
      %ry = arith.muli %by, %dy : index
      %r = arith.addi %ry, %ty : index
      %wi = arith.index_cast %w : i32 to index
      %hi = arith.index_cast %h : i32 to index
      %ltw = arith.cmpi slt, %c, %wi : index
      %lth = arith.cmpi slt, %r, %hi : index
      %in_range = arith.andi %ltw, %lth : i1
      scf.if %in_range {
        %row = arith.muli %r, %wi : index
        %i = arith.addi %row, %c : index
        %v = memref.load %in[%i] : memref<?xf32>
        %s = arith.mulf %v, %a : f32
        memref.store %s, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
