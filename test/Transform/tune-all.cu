// -energy-tune-all rewrites kernels that did not opt in, except those the
// user bounded, and creates their launch record.
// RUN: %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-tune-all %s -o - | FileCheck %s
#include "Inputs/kernels.cu"

// CHECK: .global .align 4 .b8 __energy_launch__Z5scaleiPf[16]
// CHECK-LABEL: .entry _Z5scaleiPf(
// CHECK: .reqntid {{[0-9]+}}, 1, 1
// CHECK-LABEL: .entry _Z7boundediPf(
// CHECK-NOT: .reqntid
// CHECK: .maxntid 128, 1, 1
