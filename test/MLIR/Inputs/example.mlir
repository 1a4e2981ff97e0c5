// docs/user-guide.md's mlir-opt example: two kernels in the gpu dialect and the host code
// that launches them. energy-optimize-gpu picks each kernel's block shape
// and rewrites the launches (block and grid, same threads) and the kernels
// (nvvm.reqntid, constant gpu.block_dim) together.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    // y = a * x + y
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %a, %xi fastmath<contract> : f32
      %r = arith.addf %ax, %yi fastmath<contract> : f32
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }

    // out = in * s over a 2-D array; row = global y, column = global x.
    gpu.func @scale2d(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %s: f32) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %col0 = arith.muli %bx, %dx : index
      %col = arith.addi %col0, %tx : index
      %row0 = arith.muli %by, %dy : index
      %row = arith.addi %row0, %ty : index
      %v = memref.load %in[%row, %col] : memref<?x?xf32>
      %m = arith.mulf %v, %s : f32
      memref.store %m, %out[%row, %col] : memref<?x?xf32>
      gpu.return
    }
  }

  func.func @run(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>,
                 %in: memref<?x?xf32>, %out: memref<?x?xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c13440 = arith.constant 13440 : index
    // 13440 x 256 = 3440640 elements.
    gpu.launch_func @kernels::@saxpy
        blocks in (%c13440, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>)
    // A 4096 x 4096 array in 32 x 8 blocks.
    gpu.launch_func @kernels::@scale2d
        blocks in (%c128, %c512, %c1) threads in (%c32, %c8, %c1)
        args(%in : memref<?x?xf32>, %out : memref<?x?xf32>, %a : f32)
    return
  }
}
