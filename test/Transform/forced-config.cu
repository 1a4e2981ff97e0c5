// Forced configurations come out exactly as asked: reqntid, folded tunables,
// resized shared arrays, blockDim folded, and the host records.
// RUN: %clang %cudaflags -O2 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=saxpy:96,ITEMS=2 \
// RUN:   -mllvm -energy-force-config=sgemm:8x8,TILE=8 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
#include "Inputs/kernels.cu"

// The host records: ITEMS and TILE hold the chosen values, the launch
// records the chosen blocks and items per thread.
// (PTX leaves out trailing zero bytes.)
// CHECK-DAG: .global .align 4 .b8 __energy_tunable_ITEMS[20] = {2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 4};
// CHECK-DAG: .global .align 4 .b8 __energy_tunable_TILE[20] = {8, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0, 32};
// CHECK-DAG: .global .align 4 .b8 __energy_launch_saxpy[20] = {96, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2};
// CHECK-DAG: .global .align 4 .b8 __energy_launch_sgemm[20] = {8, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};
// The user-bounded kernel keeps the record of its declared default, 128.
// CHECK-DAG: .global .align 4 .b8 __energy_launch_bounded[20] = {128, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};

// CHECK-LABEL: .entry _Z5saxpyifPKfPf(
// CHECK: .reqntid 96, 1, 1
// No read of the mechanism is left, and blockDim is a constant.
// CHECK-NOT: __energy_tunable
// CHECK-NOT: %ntid.x
// CHECK: ret;

// The shared tiles shrink from 32x32 and 32x33 floats to 8x8 and 8x9.
// CHECK-LABEL: .entry _Z5sgemmiPKfS0_Pf(
// CHECK: .reqntid 8, 8, 1
// CHECK-DAG: .shared .align 4 .b8 _ZZ5sgemmiPKfS0_PfE2As[256];
// CHECK-DAG: .shared .align 4 .b8 _ZZ5sgemmiPKfS0_PfE2Bs[288];
// CHECK-NOT: __energy_tunable
// CHECK: ret;
