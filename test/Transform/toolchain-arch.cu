// ptxas checks registers for the architecture the plugin plans for
// (-energy-gpu's, here the RTX 2080 Ti's sm_75), not the module's
// target-cpu (sm_90): the ptxas cache names each entry by its -arch.
//
// RUN: rm -rf %t.cache
// RUN: env XDG_CACHE_HOME=%t.cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-gpu=rtx-2080-ti \
// RUN:   %S/../../tools/energy-bench/corpus/sgemm.cu -o /dev/null
// RUN: ls %t.cache/energy/ptxas | FileCheck %s
//
// CHECK: -sm_75
// CHECK-NOT: -sm_90
