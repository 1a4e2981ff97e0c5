// Memory features: the address space comes from the memref type (none, 1 or
// #gpu.address_space<global>: global; 3 or workgroup: shared; 5 or private:
// local; 4: constant; 101: parameter, as in the LLVM analysis; others
// generic), and a memref without one that comes
// from memref.alloca is local. Shared bytes count workgroup attributions and
// memref.globals in workgroup memory. Global accesses are classed by how
// their address moves with thread_id x.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

#wg = #gpu.address_space<workgroup>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @buf : memref<32xf32, 3>

    // global loads: %g, %g1, %gg (4 B each); constant: %k (8 B); shared
    // loads: %wg (8 B), @buf (4 B); local: the private attribution and two
    // allocas (one stack slot without a space, one in space 5); generic: %x7.
    // CHECK-LABEL: kernel spaces
    // CHECK:       global_loads: 3 accesses/thread
    // CHECK-NEXT:  global_load_bytes: 12 bytes/thread
    // CHECK-NEXT:  global_stores: 1 accesses/thread
    // CHECK-NEXT:  global_store_bytes: 4 bytes/thread
    // CHECK-NEXT:  shared_loads: 2 accesses/thread
    // CHECK-NEXT:  shared_load_bytes: 12 bytes/thread
    // CHECK-NEXT:  shared_stores: 1 accesses/thread
    // CHECK-NEXT:  shared_store_bytes: 8 bytes/thread
    // CHECK-NEXT:  local_loads: 3 accesses/thread
    // CHECK-NEXT:  local_load_bytes: 12 bytes/thread
    // CHECK-NEXT:  local_stores: 3 accesses/thread
    // CHECK-NEXT:  local_store_bytes: 12 bytes/thread
    // CHECK-NEXT:  const_loads: 1 accesses/thread
    // CHECK-NEXT:  const_load_bytes: 8 bytes/thread
    // CHECK:       generic_loads: 1 accesses/thread
    // CHECK-NEXT:  generic_load_bytes: 4 bytes/thread
    // CHECK:       max_access_bytes: 8 bytes
    // CHECK-NEXT:  global_atomics: 1 ops/thread
    // CHECK-NEXT:  global_same_address_atomics: 0 ops/thread
    // CHECK-NEXT:  shared_atomics: 1 ops/thread
    // CHECK:       static_shared_bytes: 640 bytes/block
    // CHECK-NEXT:  uses_dynamic_shared: 0 0/1
    gpu.func @spaces(%g: memref<?xf32>, %g1: memref<?xf32, 1>,
                     %gg: memref<?xf32, #gpu.address_space<global>>,
                     %k: memref<16xi64, 4>, %x7: memref<?xf32, 7>)
        workgroup(%wgbuf: memref<64xf64, #wg>)
        private(%pr: memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %a = memref.load %g[%tid] : memref<?xf32>
      %b = memref.load %g1[%tid] : memref<?xf32, 1>
      %c = memref.load %gg[%tid] : memref<?xf32, #gpu.address_space<global>>
      %kk = memref.load %k[%c0] : memref<16xi64, 4>
      %w = memref.load %wgbuf[%tid] : memref<64xf64, #wg>
      %bufref = memref.get_global @buf : memref<32xf32, 3>
      %s = memref.load %bufref[%tid] : memref<32xf32, 3>
      memref.store %a, %pr[%c0] : memref<4xf32, #gpu.address_space<private>>
      %p = memref.load %pr[%c1] : memref<4xf32, #gpu.address_space<private>>
      %slot = memref.alloca() : memref<2xf32>
      memref.store %b, %slot[%c0] : memref<2xf32>
      %q = memref.load %slot[%c1] : memref<2xf32>
      %slot5 = memref.alloca() : memref<2xf32, 5>
      memref.store %c, %slot5[%c0] : memref<2xf32, 5>
      %r = memref.load %slot5[%c1] : memref<2xf32, 5>
      %gen = memref.load %x7[%tid] : memref<?xf32, 7>
      memref.store %w, %wgbuf[%tid] : memref<64xf64, #wg>
      memref.store %s, %g[%tid] : memref<?xf32>
      %old = memref.atomic_rmw addf %p, %g[%c0] : (f32, memref<?xf32>) -> f32
      %olds = memref.atomic_rmw addf %w, %wgbuf[%c0] : (f64, memref<64xf64, #wg>) -> f64
      gpu.return
    }

    // CHECK-LABEL: kernel param_space
    // CHECK:       param_loads: 1 accesses/thread
    // CHECK-NEXT:  param_load_bytes: 4 bytes/thread
    // CHECK-NEXT:  generic_loads: 0 accesses/thread
    gpu.func @param_space(%p: memref<4xf32, 101>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %v = memref.load %p[%c0] : memref<4xf32, 101>
      memref.store %v, %out[%tid] : memref<?xf32>
      gpu.return
    }

    // CHECK-LABEL: kernel dynamic_shared
    // CHECK:       shared_loads: 1 accesses/thread
    // CHECK:       static_shared_bytes: 0 bytes/block
    // CHECK-NEXT:  uses_dynamic_shared: 1 0/1
    gpu.func @dynamic_shared(%out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %bytes = gpu.dynamic_shared_memory : memref<?xi8, #wg>
      %f = memref.view %bytes[%c0][%tid] : memref<?xi8, #wg> to memref<?xf32, #wg>
      %v = memref.load %f[%tid] : memref<?xf32, #wg>
      memref.store %v, %out[%tid] : memref<?xf32>
      gpu.return
    }

    // Coalesced: x[tid], m[0, tid], idx[tid] (8-byte index), and the load
    // and store of x[k] in a loop whose induction variable starts at
    // thread_id (8 iterations each: the bounds are unknown, and divergent).
    // Strided: x[2 tid], x[tid << 1], m[tid, 0] (symbolic row stride),
    // sm[tid, 0] (256 bytes). Irregular: x[idx[tid]], x[tid * tid].
    // Uniform: x[block_id], x[thread_id y].
    // CHECK-LABEL: kernel strides
    // CHECK:       global_loads: 19 accesses/thread
    // CHECK:       divergent_branches: 8 ops/thread
    // CHECK-NEXT:  global_coalesced: 19 accesses/thread
    // CHECK-NEXT:  global_strided: 4 accesses/thread
    // CHECK-NEXT:  global_irregular: 2 accesses/thread
    // CHECK-NEXT:  global_uniform: 2 accesses/thread
    gpu.func @strides(%x: memref<?xf32>, %idx: memref<?xindex>,
                      %m: memref<?x?xf32>, %sm: memref<64x64xf32>,
                      %n: index, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %ty = gpu.thread_id y
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %l0 = memref.load %x[%tid] : memref<?xf32>
      %l1 = memref.load %m[%c0, %tid] : memref<?x?xf32>
      %i2 = arith.muli %tid, %c2 : index
      %l2 = memref.load %x[%i2] : memref<?xf32>
      %sh = arith.shli %tid, %c1 : index
      %l3 = memref.load %x[%sh] : memref<?xf32>
      %l4 = memref.load %m[%tid, %c0] : memref<?x?xf32>
      %l5 = memref.load %sm[%tid, %c0] : memref<64x64xf32>
      %j = memref.load %idx[%tid] : memref<?xindex>
      %l6 = memref.load %x[%j] : memref<?xf32>
      %sq = arith.muli %tid, %tid : index
      %l7 = memref.load %x[%sq] : memref<?xf32>
      %l8 = memref.load %x[%bid] : memref<?xf32>
      %l9 = memref.load %x[%ty] : memref<?xf32>
      scf.for %k = %tid to %n step %bdim {
        %v = memref.load %x[%k] : memref<?xf32>
        memref.store %v, %out[%k] : memref<?xf32>
      }
      gpu.return
    }
  }
}
