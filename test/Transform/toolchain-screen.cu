// With many tunable combinations (sgemm: 48), ptxas checks the registers of
// the 4 combinations whose candidates predict best, not of all 48, and the
// choice is made again with them; the report says where compile time went.
// Results are cached by PTX hash: a second build runs ptxas for nothing new.
//
// RUN: rm -rf %t.cache
// RUN: env XDG_CACHE_HOME=%t.cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-report=%t.json %S/../../tools/energy-bench/corpus/sgemm.cu -o /dev/null
// RUN: ls %t.cache/energy/ptxas | count 4
// RUN: FileCheck %s --input-file=%t.json
// RUN: env XDG_CACHE_HOME=%t.cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   %S/../../tools/energy-bench/corpus/sgemm.cu -o /dev/null
// RUN: ls %t.cache/energy/ptxas | count 4
//
// CHECK: "kernel": "sgemm",
// CHECK: "features_from": "simplified",
// CHECK-NEXT: "registers_from": "ptxas",
// CHECK-NEXT: "compile_seconds": {
// CHECK-NEXT:   "features": {{[0-9.e+-]+}},
// CHECK-NEXT:   "toolchain": {{[0-9.e+-]+}}
