// Inside clang at -O2 the chosen bounds reach the PTX, although NVPTX caches
// annotations before the optimizer runs (DESIGN.md): opted-in kernels get
// .reqntid, the user-bounded kernel keeps its .maxntid, the kernel that did
// not opt in gets no bounds and only advice.
// RUN: %clang %cudaflags -O2 -S %clangplugin -Rpass=energy -Rpass-analysis=energy \
// RUN:   %s -o %t.ptx 2> %t.remarks
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
#include "Inputs/kernels.cu"

// CHECK-LABEL: .entry _Z5saxpyifPKfPf(
// CHECK: .reqntid {{[0-9]+}}, 1, 1
// CHECK-LABEL: .entry _Z5sgemmiPKfS0_Pf(
// CHECK: .reqntid [[T:[0-9]+]], [[T]], 1
// CHECK-LABEL: .entry _Z5scaleiPf(
// CHECK-NOT: .reqntid
// CHECK-NOT: .maxntid
// CHECK: {
// CHECK-LABEL: .entry _Z7boundediPf(
// CHECK-NOT: .reqntid
// CHECK: .maxntid 128, 1, 1

// REMARK-DAG: remark: kernel saxpy: chose block {{[0-9]+}}, ITEMS={{[124]}} ({{(the default stays: no candidate is predicted to improve on it by more than 10% in )?}}energy within 10% of the fastest): predicted
// REMARK-DAG: remark: kernel sgemm: chose block [[T:[0-9]+]]x[[T]], TILE=[[T]] ({{(the default stays: no candidate is predicted to improve on it by more than 10% in )?}}energy within 10% of the fastest)
// REMARK-DAG: remark: kernel scale(int, float*) is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: block
// REMARK-DAG: remark: kernel bounded has launch bounds from the source; advice: block
