// Declarations whose values are all zero: clang writes them as a
// zeroinitializer, which the plugin took for a malformed declaration.
//
// ENERGY_DYNAMIC_SHARED(k, 0, 0) is legal: no bytes per thread nor per block.
// It failed with "'__energy_dynamic_shared_dyn' must be unsigned[2] {bytes
// per thread, bytes per block} (ENERGY_DYNAMIC_SHARED)".
// RUN: %clang %cudaflags -O0 -S -emit-llvm -DDYN00 %s -o %t.dyn.ll
// RUN: grep -q '@__energy_dynamic_shared_dyn = .* zeroinitializer' %t.dyn.ll
// RUN: %opt %loadenergy -passes=energy-optimize -pass-remarks=energy %t.dyn.ll -S -o - 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DYN
// DYN: remark: {{.*}}kernel dyn: chose block [[B:[0-9]+]]
// DYN: @__energy_launch_dyn = {{.*}} { [3 x i32] [i32 [[B]], i32 1, i32 1], i32 0, i32 1 }
//
// ENERGY_BLOCK_RULES(k, "") states no rule. Stated rules replace the inferred
// restrictions, so an empty set would declare every shape correct: it is an
// error, and says so. It said "'__energy_rules_r' must be a string", which
// "" is.
// RUN: not %clang %cudaflags -O0 -S %clangplugin -DRULES_EMPTY %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RULES
// RULES: error: energy-optimize: ENERGY_BLOCK_RULES "": no rule (expected pow2, max=N, multiple=N or shapes=A,B,..., separated by ';')
#include <energy/energy.cuh>

#ifdef DYN00
ENERGY_DYNAMIC_SHARED(dyn, 0, 0);
ENERGY_KERNEL(dyn) void dyn(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] *= 2.0f;
}
#endif

#ifdef RULES_EMPTY
ENERGY_BLOCK_RULES(r, "");
ENERGY_KERNEL(r) void r(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] *= 2.0f;
}
#endif
