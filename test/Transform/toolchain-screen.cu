// With many tunable combinations (sgemm: 48), ptxas checks the registers of
// the candidates the choice compares, not of all 48, and the choice is made
// again with them (until the choice's registers are ptxas's); the report
// says where compile time went. The choice compares 9 candidates (those
// LaunchPlanner::refine keeps: the screen's best, the baselines', and those
// the screen predicted with their block known already), each checked; the
// other 39 are screened out, with no figure and no ptxas run. (Before the
// screened-out candidates were dropped from comparisons, 5 were checked and
// the rest compared with estimated registers.)
// Results are cached by IR hash and by PTX hash: a second build runs ptxas
// for nothing new, and finds the code it saw before by its IR, without NVPTX
// codegen: with the PTX-keyed entries removed and no ptxas to run, the
// registers still come from ptxas, and no PTX is hashed again.
//
// RUN: rm -rf %t.cache
// RUN: env XDG_CACHE_HOME=%t.cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-report=%t.json %S/../../tools/energy-bench/corpus/sgemm.cu -o /dev/null
// RUN: ls %t.cache/energy/ptxas | grep -c '^ir-' | grep -x 9
// RUN: ls %t.cache/energy/ptxas | grep -vc '^ir-' | grep -x 9
// RUN: %python -c "import json,sys; k = json.load(open(sys.argv[1]))['kernels'][0]; \
// RUN:   print(sum('screened_out' not in c for c in k['candidates']), k['pruned']['screened_out'])" %t.json \
// RUN:   | FileCheck %s --check-prefix=COMPARED
// COMPARED: 9 39
// RUN: FileCheck %s --input-file=%t.json
// RUN: env XDG_CACHE_HOME=%t.cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   %S/../../tools/energy-bench/corpus/sgemm.cu -o /dev/null
// RUN: ls %t.cache/energy/ptxas | count 18
// RUN: find %t.cache/energy/ptxas -type f ! -name 'ir-*' -delete
// RUN: env XDG_CACHE_HOME=%t.cache ENERGY_PTXAS=%t.no-ptxas %clang %cudaflags -O3 -S \
// RUN:   %clangplugin -mllvm -energy-report=%t.ir.json \
// RUN:   %S/../../tools/energy-bench/corpus/sgemm.cu -o /dev/null
// RUN: ls %t.cache/energy/ptxas | count 9
// RUN: FileCheck %s --input-file=%t.ir.json
//
// CHECK: "kernel": "sgemm",
// CHECK: "features_from": "simplified",
// CHECK-NEXT: "registers_from": "ptxas",
// CHECK-NEXT: "compile_seconds": {
// CHECK-NEXT:   "features": {{[0-9.e+-]+}},
// CHECK-NEXT:   "block_refinement": {{[0-9.e+-]+}},
// CHECK-NEXT:   "toolchain": {{[0-9.e+-]+}}
