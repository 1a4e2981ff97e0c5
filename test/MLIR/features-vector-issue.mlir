// The gpu-dialect adapter counts vector code by the LLVM adapter's rule
// (test/Features/vector-issue.ll): lanes moved at constant positions issue
// nothing, a lane taken at a position held in a value issues one, vector
// arithmetic issues per lane (f16 two lanes at a time), vector memory per
// 16 bytes.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-print-gpu-features)' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

// vector.load of 8 x f32: 2; constant extract 0; dynamic extract 1; addf 1;
// constant insert 0; strided slice 0; 4 x f32 mulf 4; 2 x f16 addf 1; the
// two stores 1 each: 11 instructions. The longest chain: load, dynamic
// extract, addf, (insert, slice: no step), mulf, store: 5.
// CHECK-LABEL: kernel vectors
// CHECK-NEXT:  instructions: 11 instr/thread
// CHECK:       fp32_ops: 5 ops/thread
// CHECK:       fp16_ops: 2 ops/thread
// CHECK:       critical_path: 5 instr/thread

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vectors(%in: memref<?xf32>, %out: memref<?xf32>, %hout: memref<?xf16>,
                      %h: vector<2xf16>, %i: index) kernel {
      %c0 = arith.constant 0 : index
      %v = vector.load %in[%c0] : memref<?xf32>, vector<8xf32>
      %a = vector.extract %v[0] : f32 from vector<8xf32>
      %b = vector.extract %v[%i] : f32 from vector<8xf32>
      %s = arith.addf %a, %b : f32
      %w = vector.insert %s, %v[1] : f32 into vector<8xf32>
      %q = vector.extract_strided_slice %w {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
      %m = arith.mulf %q, %q : vector<4xf32>
      %hh = arith.addf %h, %h : vector<2xf16>
      vector.store %m, %out[%c0] : memref<?xf32>, vector<4xf32>
      vector.store %hh, %hout[%c0] : memref<?xf16>, vector<2xf16>
      gpu.return
    }
  }
}
