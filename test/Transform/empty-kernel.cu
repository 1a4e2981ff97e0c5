// A kernel that does no work (cub's EmptyKernel) gets no advice and no
// claimed saving, opted in or not: a remark says there is nothing to tune,
// the kernel keeps its launch (no reqntid), and the report leaves it out.
// It used to be credited with "-69% energy".
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes=energy-optimize -pass-remarks=energy \
// RUN:   -pass-remarks-analysis=energy -energy-report=%t.json %t.ll -S -o %t.out.ll 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.out.ll
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REMARK: remark: {{.*}}kernel void cub::EmptyKernel<void>() does no work (no memory access or arithmetic): nothing to tune
// REMARK-NOT: EmptyKernel
// IR-NOT: reqntid
// REPORT-NOT: EmptyKernel
// REPORT: "kernels": []

namespace cub {
template <typename T> __global__ void EmptyKernel() {}
template __global__ void EmptyKernel<void>();
} // namespace cub
