// Without the plugin (or its ENERGY_CHOICES header), a kernel's launch
// record keeps its default block, and its dynamic shared memory is the size
// ENERGY_DYNAMIC_SHARED declares for that block: ENERGY_LAUNCH and
// ENERGY_DYNAMIC_SMEM then launch it with enough (4 x 128 + 16 = 528
// bytes), not 0. A kernel without the declaration keeps 0.
// RUN: %clang %cudaflags -O3 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-DAG: @__energy_launch_dyn = {{.*}} { [3 x i32] [i32 128, i32 1, i32 1], i32 528, i32 1 }
// CHECK-DAG: @__energy_launch_plain = {{.*}} { [3 x i32] [i32 64, i32 1, i32 1], i32 0, i32 1 }
//
// The same through an ENERGY_CHOICES header without an entry for the
// kernel (advice only): the record's default.
// RUN: echo '#define ENERGY_CHOICES_FORMAT 1' > %t.h
// RUN: %clang %cudaflags -O3 -S -emit-llvm -DENERGY_CHOICES='"%t.h"' %s -o - \
// RUN:   | FileCheck %s
//
// Declared after the kernel, the size cannot reach the record: an error.
// RUN: not %clang %cudaflags -fsyntax-only -DLATE %s 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: error: static assertion failed{{.*}}ENERGY_DYNAMIC_SHARED(late) must come before ENERGY_KERNEL(late)
#include <energy/energy.cuh>

ENERGY_DYNAMIC_SHARED(dyn, sizeof(float), 16);
ENERGY_KERNEL_BLOCK(dyn, 128, 1) void dyn(float *x) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

ENERGY_KERNEL_BLOCK(plain, 64, 1) void plain(float *x) { x[threadIdx.x] = 0; }

#ifdef LATE
ENERGY_KERNEL(late) void late(float *x) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[threadIdx.x];
  x[threadIdx.x] = buf[0];
}
ENERGY_DYNAMIC_SHARED(late, sizeof(float), 0);
#endif
