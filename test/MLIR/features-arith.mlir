// Instruction mix of gpu.func kernels: per-thread counts by type, FMA
// contraction only under fastmath<contract>, special functions, conversions,
// vector lanes. The field names are those of the LLVM print<energy-features>.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // mulf + addf with contract fuse into one FMA; without it they do not.
    // CHECK-LABEL: kernel saxpy_fma
    // CHECK-NEXT:  instructions: 10 instr/thread
    // CHECK-NEXT:  fp32_ops: 0 ops/thread
    // CHECK-NEXT:  fp32_fma: 1 ops/thread
    // CHECK:       int_ops: 2 ops/thread
    // CHECK:       flops: 2 flop/thread
    // CHECK-NEXT:  global_loads: 2 accesses/thread
    // CHECK-NEXT:  global_load_bytes: 8 bytes/thread
    // CHECK-NEXT:  global_stores: 1 accesses/thread
    // CHECK-NEXT:  global_store_bytes: 4 bytes/thread
    // CHECK:       global_coalesced: 3 accesses/thread
    // CHECK:       arithmetic_intensity: 0.166667 flop/byte
    // CHECK:       dims: tid=x ctaid=x ntid=x nctaid=
    // CHECK-NEXT:  launch_bounds: maxntid=0,0,0 reqntid=0,0,0 minctasm=0 maxnreg=0
    gpu.func @saxpy_fma(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t = arith.muli %bid, %bdim : index
      %i = arith.addi %t, %tid : index
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %m = arith.mulf %a, %xv fastmath<contract> : f32
      %s = arith.addf %m, %yv fastmath<contract> : f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }

    // CHECK-LABEL: kernel saxpy_plain
    // CHECK:       fp32_ops: 2 ops/thread
    // CHECK-NEXT:  fp32_fma: 0 ops/thread
    gpu.func @saxpy_plain(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %m = arith.mulf %a, %xv : f32
      %s = arith.addf %m, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }

    // f16 and f64 arithmetic; fp32: absf, cmpf, addf; conversions: sitofp
    // and two extf (index_cast is none); special: divf, exp, sqrt, each with
    // the ~8 FP32 instructions of its expansion (24, in instructions and
    // fp32_ops: without fast-math flags none is the MUFU op alone);
    // integer: select, andi.
    // CHECK-LABEL: kernel mixed
    // CHECK-NEXT:  instructions: 41 instr/thread
    // CHECK-NEXT:  fp32_ops: 27 ops/thread
    // CHECK-NEXT:  fp32_fma: 0 ops/thread
    // CHECK-NEXT:  fp16_ops: 1 ops/thread
    // CHECK-NEXT:  fp16_fma: 0 ops/thread
    // CHECK-NEXT:  fp64_ops: 1 ops/thread
    // CHECK-NEXT:  fp64_fma: 1 ops/thread
    // CHECK-NEXT:  int_ops: 2 ops/thread
    // CHECK-NEXT:  conversions: 3 ops/thread
    // CHECK-NEXT:  special_fns: 3 ops/thread
    // CHECK-NEXT:  flops: 31 flop/thread
    gpu.func @mixed(%h: f16, %d: f64, %f: f32, %n: i32, %out: memref<?xf64>) kernel {
      %tid = gpu.thread_id x
      %h2 = arith.addf %h, %h : f16
      %d2 = arith.mulf %d, %d : f64
      %d3 = math.fma %d2, %d, %d : f64
      %fn = arith.sitofp %n : i32 to f32
      %q = arith.divf %f, %fn : f32
      %e = math.exp %q : f32
      %r = math.sqrt %e : f32
      %a = math.absf %r : f32
      %lt = arith.cmpf olt, %a, %f : f32
      %sel = arith.select %lt, %a, %f : f32
      %hx = arith.extf %h2 : f16 to f32
      %sum = arith.addf %sel, %hx : f32
      %sd = arith.extf %sum : f32 to f64
      %ti = arith.index_cast %tid : index to i32
      %odd = arith.andi %ti, %n : i32
      memref.store %sd, %out[%tid] : memref<?xf64>
      gpu.return
    }

    // Fast-math flags that allow approximation make a division or a math
    // function the MUFU op alone (divf with arcp, exp with afn); a remf is
    // expanded whatever its flags, as on the LLVM side: 8 FP32 ops.
    // CHECK-LABEL: kernel approximated
    // CHECK:       fp32_ops: 8 ops/thread
    // CHECK:       special_fns: 3 ops/thread
    gpu.func @approximated(%a: f32, %b: f32, %out: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %q = arith.divf %a, %b fastmath<arcp> : f32
      %e = math.exp %q fastmath<afn> : f32
      %r = arith.remf %e, %b fastmath<afn> : f32
      memref.store %r, %out[%tid] : memref<?xf32>
      gpu.return
    }

    // A vector<4xf32> access per thread, 16 bytes apart: coalesced, and its
    // arithmetic counts per lane.
    // CHECK-LABEL: kernel vec4
    // CHECK:       fp32_ops: 4 ops/thread
    // CHECK:       global_loads: 1 accesses/thread
    // CHECK-NEXT:  global_load_bytes: 16 bytes/thread
    // CHECK-NEXT:  global_stores: 1 accesses/thread
    // CHECK-NEXT:  global_store_bytes: 16 bytes/thread
    // CHECK:       vector_accesses: 2 accesses/thread
    // CHECK-NEXT:  max_access_bytes: 16 bytes
    // CHECK:       global_coalesced: 2 accesses/thread
    // CHECK-NEXT:  global_strided: 0 accesses/thread
    gpu.func @vec4(%x: memref<?xf32>) kernel {
      %c4 = arith.constant 4 : index
      %i = gpu.global_id x
      %i4 = arith.muli %i, %c4 : index
      %v = vector.load %x[%i4] : memref<?xf32>, vector<4xf32>
      %w = arith.addf %v, %v : vector<4xf32>
      vector.store %w, %x[%i4] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }
}
