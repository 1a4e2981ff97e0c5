// Opted-in kernels in namespaces, two of them with one name: each record is
// the one its host code reads (a::__energy_launch_k, mangled), not a new
// global named after the annotation; remarks and reports name the kernel
// with its namespace. The header for nvcc keys entries by the unqualified
// name, so a name two namespaces share gets no entry.
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes=energy-optimize -energy-header=%t.h \
// RUN:   -energy-report=%t.json %t.ll -S -o - | FileCheck %s
// RUN: FileCheck %s --check-prefix=HEADER < %t.h
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// CHECK-NOT: @__energy_launch_k =
// CHECK-DAG: @_ZN1a17__energy_launch_kE = {{.*}} { [3 x i32] [i32 [[AK:[0-9]+]], i32 1, i32 1], i32 0, i32 1 }
// CHECK-DAG: @_ZN1b17__energy_launch_kE = {{.*}} { [3 x i32] [i32 [[BK:[0-9]+]], i32 1, i32 1], i32 0, i32 1 }
// CHECK-DAG: @_ZN1a20__energy_launch_soloE = {{.*}} { [3 x i32] [i32 [[SOLO:[0-9]+]], i32 1, i32 1], i32 0, i32 1 }
// CHECK-DAG: !{ptr @_ZN1a1kEiPf, !"reqntidx", i32 [[AK]]}
// CHECK-DAG: !{ptr @_ZN1b1kEiPf, !"reqntidx", i32 [[BK]]}
// CHECK-DAG: !{ptr @_ZN1a4soloEiPf, !"reqntidx", i32 [[SOLO]]}
// REPORT-DAG: "kernel": "a::k",
// REPORT-DAG: "kernel": "b::k",
// REPORT-DAG: "kernel": "a::solo",
// HEADER: // a::k: block
// HEADER-NEXT: // no entry: kernels in several namespaces are named k; under ENERGY_CHOICES it keeps its declared default
// HEADER: // a::solo: block
// HEADER-NEXT: #define ENERGY_CHOICE_solo_BLOCK_X
// HEADER: // b::k: block
// HEADER-NEXT: // no entry: kernels in several namespaces are named k
// HEADER-NOT: ENERGY_CHOICE_KERNEL_k
#include <energy/energy.cuh>

namespace a {
ENERGY_KERNEL(k) void k(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}
ENERGY_KERNEL(solo) void solo(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 3.0f;
}
void go(int n, float *x) {
  k<<<n / 256, ENERGY_BLOCK_DIM(k)>>>(n, x);
  solo<<<n / 256, ENERGY_BLOCK_DIM(solo)>>>(n, x);
}
} // namespace a

namespace b {
ENERGY_KERNEL(k) void k(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 2.0f;
}
void go(int n, float *x) { k<<<n / 256, ENERGY_BLOCK_DIM(k)>>>(n, x); }
} // namespace b
