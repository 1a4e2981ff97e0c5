// -energy-header=FILE writes the choices of the kernels the pass rewrites as
// macros energy.cuh reads under nvcc (ENERGY_CHOICES): block, dynamic shared
// memory, items per thread, launch bounds and the tunables' values. Kernels
// it only advises (not opted in, or bounded in the source) get a comment and
// no entry: their launches stay the host's.
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes=energy-optimize -energy-header=%t.h \
// RUN:   -energy-force-config=opted:128,ITEMS=2 -energy-force-config=dyn:64 \
// RUN:   '-energy-force-config=scale<float, 4>:64' %t.ll -S -o %t.opt.ll
// RUN: FileCheck %s < %t.h --implicit-check-not=ENERGY_CHOICE_KERNEL_advised \
// RUN:   --implicit-check-not=ENERGY_CHOICE_KERNEL_bounded
// RUN: FileCheck %s --check-prefix=RECORD < %t.opt.ll

// The same header from the pass parameter.
// RUN: %opt %loadenergy '-passes=energy-optimize<header=%t.param.h>' \
// RUN:   -energy-force-config=opted:128,ITEMS=2 -energy-force-config=dyn:64 \
// RUN:   '-energy-force-config=scale<float, 4>:64' %t.ll -disable-output
// RUN: sed 1,3d %t.h > %t.body.h && sed 1,3d %t.param.h > %t.param.body.h
// RUN: diff %t.body.h %t.param.body.h

// Through clang, planning the device compile (the first step of a build with
// nvcc); the header exists even when nothing is rewritten.
// RUN: rm -f %t.clang.h
// RUN: %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-header=%t.clang.h \
// RUN:   %s -o /dev/null
// RUN: FileCheck %s --check-prefix=CLANG < %t.clang.h

// Errors: no file name, a file that cannot be written.
// RUN: not %opt %loadenergy -passes=energy-optimize -energy-header= %t.ll \
// RUN:   -disable-output 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not %opt %loadenergy -passes=energy-optimize -energy-header=%t.missing/x.h \
// RUN:   %t.ll -disable-output 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// EMPTY: error: energy-optimize: header needs a file name
// UNWRITABLE: error: energy-optimize: cannot write header '{{.*}}missing/x.h'

// The option is in --help.
// RUN: %opt %loadenergy --help | FileCheck %s --check-prefix=HELP
// HELP: --energy-header=<file> {{ *}}- Write the choices of the kernels it rewrites

// CHECK: #pragma once
// CHECK: #define ENERGY_CHOICES_FORMAT 1
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);

ENERGY_KERNEL(opted) void opted(int n, float *x) {
  int thread = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < ENERGY_VALUE(ITEMS); ++k) {
    int i = thread + k * gridDim.x * blockDim.x;
    if (i < n)
      x[i] *= 2.0f;
  }
}
// CHECK-LABEL: // opted: block 128, ITEMS=2 (forced)
// CHECK-NEXT: #define ENERGY_CHOICE_opted_BLOCK_X 128
// CHECK-NEXT: #define ENERGY_CHOICE_opted_BLOCK_Y 1
// CHECK-NEXT: #define ENERGY_CHOICE_opted_BLOCK_Z 1
// CHECK-NEXT: #define ENERGY_CHOICE_opted_DYNAMIC_SMEM 0
// CHECK-NEXT: #define ENERGY_CHOICE_opted_ITEMS_PER_THREAD 2
// CHECK-NEXT: #define ENERGY_CHOICE_opted_LAUNCH_BOUNDS __launch_bounds__(128)
// CHECK-NEXT: #define ENERGY_CHOICE_KERNEL_opted ~, (128, 1, 1, 0, 2, __launch_bounds__(128))
// The record the host reads holds the items per thread too.
// RECORD: @__energy_launch_opted = {{.*}} { [3 x i32] [i32 128, i32 1, i32 1], i32 0, i32 2 }
// CLANG: #define ENERGY_CHOICE_KERNEL_opted ~, ({{[0-9]+}}, 1, 1, 0, {{[1-4]}}, __launch_bounds__({{[0-9]+}}))

// Reverses each block's slice through shared memory, for any block: the
// shapes are declared, as the analysis proves none for shared memory.
ENERGY_DYNAMIC_SHARED(dyn, sizeof(float), 16);
ENERGY_BLOCK_RULES(dyn, "max=1024");
ENERGY_KERNEL(dyn) void dyn(float *x) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
// 4 bytes per thread of 64, plus 16.
// CHECK-LABEL: // dyn: block 64 (forced)
// CHECK: #define ENERGY_CHOICE_dyn_DYNAMIC_SMEM 272
// CHECK: #define ENERGY_CHOICE_KERNEL_dyn ~, (64, 1, 1, 272, 1, __launch_bounds__(64))

__global__ void advised(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}
// CHECK-LABEL: // advised(int, float*): block
// CHECK-NEXT: // advice only (not opted in): no entry, its launches are the host's
// CLANG: // advice only (not opted in): no entry, its launches are the host's

ENERGY_KERNEL_BLOCK(bounded, 128, 1) __launch_bounds__(128)
void bounded(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] -= 1.0f;
}
// CHECK-LABEL: // bounded: block
// CHECK-NEXT: // advice only (launch bounds in the source): no entry, its launches are the host's

ENERGY_KERNEL_TEMPLATE(scale, (typename T, int N), (T, N))
void scale(int n, T *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * T(N);
}
template __global__ void scale<double, 2>(int, double *);

void launch(int n, float *x, double *d) {
  scale<float, 4><<<n / 64, ENERGY_BLOCK_DIM(scale<float, 4>)>>>(n, x);
  scale<double, 2><<<n / 64, ENERGY_BLOCK_DIM(scale<double, 2>)>>>(n, d);
}
// Instantiations share the template's name: one list, one entry each, by
// template arguments.
// CHECK-LABEL: // scale<double, 2>: block
// CHECK-NEXT: // (in ENERGY_CHOICE_TEMPLATE_LIST_scale)
// CHECK-LABEL: // scale<float, 4>: block 64 (forced)
// CHECK-NEXT: // (in ENERGY_CHOICE_TEMPLATE_LIST_scale)

// CHECK-LABEL: // Tunables, folded to these constants.
// CHECK-NEXT: #define ENERGY_CHOICE_TUNABLE_ITEMS ~, 2

// CHECK: #define ENERGY_CHOICE_TEMPLATE_scale ~, 1
// CHECK-NEXT: #define ENERGY_CHOICE_TEMPLATE_LIST_scale(M) \
// CHECK-NEXT:   M(scale, (double, 2), ({{[0-9]+}}, 1, 1, 0, 1)) \
// CHECK-NEXT:   M(scale, (float, 4), (64, 1, 1, 0, 1))
