// A kernel that did not opt in keeps the block its host launches with: no
// bounds, no folded blockDim, no launch record; it gets advice only.
// -energy-tune-all used to rewrite such kernels (and so broke their
// launches); it is now an error that says why.
// RUN: %clang %cudaflags -O2 -S %clangplugin -Rpass-analysis=energy %s -o %t.ptx 2> %t.remarks
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=ADVICE < %t.remarks
// RUN: not %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-tune-all %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR
// RUN: not %opt %loadenergy -passes='energy-optimize<tune-all>' -disable-output %S/Inputs/empty.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR
#include "Inputs/kernels.cu"

// CHECK-NOT: __energy_launch__Z5scaleiPf
// CHECK-LABEL: .entry _Z5scaleiPf(
// CHECK-NOT: .reqntid
// CHECK-NOT: .maxntid
// CHECK: mov.u32 %r{{[0-9]+}}, %ntid.x;
// CHECK-LABEL: .entry _Z7boundediPf(
// CHECK-NOT: .reqntid
// CHECK: .maxntid 128, 1, 1

// ADVICE: remark: kernel scale(int, float*) is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: block
// ERR: error: energy-optimize: tune-all is gone: rewriting a kernel whose host launches do not read its launch record breaks those launches
