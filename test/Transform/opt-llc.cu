// The opt route: IR from clang without the plugin, then opt, then llc.
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes='energy-optimize<force=saxpy:256:ITEMS=4>' %t.ll -S -o %t.opt.ll
// RUN: %llc -mcpu=sm_90 %t.opt.ll -o - | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.opt.ll
#include "Inputs/kernels.cu"

// CHECK-LABEL: .entry _Z5saxpyifPKfPf(
// CHECK: .reqntid 256, 1, 1
// CHECK-LABEL: .entry _Z5sgemmiPKfS0_Pf(
// CHECK: .reqntid [[T:[0-9]+]], [[T]], 1

// One bounds entry per key: replaced, never appended.
// IR-DAG: !{ptr @_Z5saxpyifPKfPf, !"reqntidx", i32 256}
// IR-DAG: !{ptr @_Z5saxpyifPKfPf, !"kernel", i32 1}
// IR-NOT: !{ptr @_Z5saxpyifPKfPf, !"reqntidx", i32 {{[0-9]+}}}{{.*}}!"reqntidx"
