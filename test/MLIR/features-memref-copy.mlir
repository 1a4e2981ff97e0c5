// memref.copy, the gpu dialect's memcpy: memref-to-llvm lowers a copy of
// contiguous memrefs to one llvm.memcpy, which every thread runs, with no
// alignment stated, so NVPTX moves it a byte at a time (a loop of
// ld.global.u8 / st.local.u8 in the PTX of gpu-lower-to-nvvm-pipeline).
// Counted as the LLVM adapter counts a memcpy (test/Features/
// memory-intrinsics.ll): one access of the whole length from each side, and
// a load and a store per piece. Before, a copy counted as one instruction
// that moved nothing.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Two copies of 64 floats, 256 one-byte pieces each: 2 x 512 issue
    // slots, and 1 for the alloca.
    // CHECK-LABEL: kernel copy_tile
    // CHECK-NEXT:  instructions: 1025 instr/thread
    // CHECK:       global_loads: 1 accesses/thread
    // CHECK-NEXT:  global_load_bytes: 256 bytes/thread
    // CHECK-NEXT:  global_stores: 1 accesses/thread
    // CHECK-NEXT:  global_store_bytes: 256 bytes/thread
    // CHECK:       local_loads: 1 accesses/thread
    // CHECK-NEXT:  local_load_bytes: 256 bytes/thread
    // CHECK-NEXT:  local_stores: 1 accesses/thread
    // CHECK-NEXT:  local_store_bytes: 256 bytes/thread
    // CHECK:       global_uniform: 2 accesses/thread
    gpu.func @copy_tile(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %tile = memref.alloca() : memref<64xf32, #gpu.address_space<private>>
      memref.copy %in, %tile : memref<64xf32> to memref<64xf32, #gpu.address_space<private>>
      memref.copy %tile, %out : memref<64xf32, #gpu.address_space<private>> to memref<64xf32>
      gpu.return
    }

    // A dynamic length is a loop whose trip count the op does not give: not
    // counted (one instruction, no memory), as the LLVM adapter leaves a
    // memcpy of a variable length.
    // CHECK-LABEL: kernel copy_n
    // CHECK-NEXT:  instructions: 1 instr/thread
    // CHECK:       global_loads: 0 accesses/thread
    // CHECK:       global_stores: 0 accesses/thread
    gpu.func @copy_n(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      memref.copy %in, %out : memref<?xf32> to memref<?xf32>
      gpu.return
    }
  }
}
