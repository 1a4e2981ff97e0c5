// Each instantiation of a kernel template opted in with
// ENERGY_KERNEL_TEMPLATE* has its own launch record (an instantiation of the
// variable template __energy_launch_<kernel>) and its own choice; the host
// reads the record of the instantiation it launches.
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes=energy-optimize -energy-report=%t.json %t.ll -S -o - \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// Each record holds its own instantiation's block, the one in its reqntid.
// IR-DAG: @_Z21__energy_launch_scaleIfLi4EE = {{.*}} { [3 x i32] [i32 [[FLOAT:[0-9]+]], i32 1, i32 1], i32 0, i32 1 }
// IR-DAG: @_Z21__energy_launch_scaleIdLi2EE = {{.*}} { [3 x i32] [i32 [[DOUBLE:[0-9]+]], i32 1, i32 1], i32 0, i32 1 }
// IR-DAG: @_Z20__energy_launch_tileIfE = {{.*}} { [3 x i32] [i32 [[TILE:[0-9]+]], i32 [[TILEY:[0-9]+]], i32 1], i32 0, i32 1 }
// IR-DAG: !{ptr @_Z5scaleIfLi4EEviPT_, !"reqntidx", i32 [[FLOAT]]}
// IR-DAG: !{ptr @_Z5scaleIdLi2EEviPT_, !"reqntidx", i32 [[DOUBLE]]}
// IR-DAG: !{ptr @_Z4tileIfEviPT_, !"reqntidx", i32 [[TILE]]}
// IR-DAG: !{ptr @_Z4tileIfEviPT_, !"reqntidy", i32 [[TILEY]]}
// REPORT-DAG: "kernel": "scale<float, 4>",
// REPORT-DAG: "kernel": "scale<double, 2>",
// REPORT-DAG: "kernel": "tile<float>",

// Forced apart, the two instantiations of scale keep different blocks; a
// force names an instantiation by its template arguments.
// RUN: %opt %loadenergy -passes=energy-optimize '-energy-force-config=scale<float, 4>:128' \
// RUN:   '-energy-force-config=scale<double, 2>:64' %t.ll -S -o - | FileCheck %s --check-prefix=FORCED
// FORCED-DAG: @_Z21__energy_launch_scaleIfLi4EE = {{.*}} { [3 x i32] [i32 128, i32 1, i32 1], i32 0, i32 1 }
// FORCED-DAG: @_Z21__energy_launch_scaleIdLi2EE = {{.*}} { [3 x i32] [i32 64, i32 1, i32 1], i32 0, i32 1 }
// FORCED-DAG: !{ptr @_Z5scaleIfLi4EEviPT_, !"reqntidx", i32 128}
// FORCED-DAG: !{ptr @_Z5scaleIdLi2EEviPT_, !"reqntidx", i32 64}

// Without the plugin the records hold the declared defaults, in the PTX.
// RUN: %clang %cudaflags -O2 -S %s -o - | FileCheck %s --check-prefix=PTX
// PTX-DAG: .weak .global .align 4 .b8 _Z21__energy_launch_scaleIfLi4EE[20] = {0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-DAG: .weak .global .align 4 .b8 _Z20__energy_launch_tileIfE[20] = {32, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};

// The host side compiles, and reads each instantiation's record.
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=HOST
// HOST-DAG: {{call|invoke}} {{.*}} @cudaMemcpyFromSymbol({{.*}} @_Z21__energy_launch_scaleIfLi4EE,
// HOST-DAG: {{call|invoke}} {{.*}} @cudaMemcpyFromSymbol({{.*}} @_Z21__energy_launch_scaleIdLi2EE,
// HOST-DAG: {{call|invoke}} {{.*}} @cudaMemcpyFromSymbol({{.*}} @_Z20__energy_launch_tileIfE,

// An instantiation whose record host code never reads would be launched
// with some other block: an error, not a rewrite.
// RUN: %clang %cudaflags -DUNREAD -O0 -S -emit-llvm %s -o %t.unread.ll
// RUN: not %opt %loadenergy -passes=energy-optimize -disable-output %t.unread.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNREAD
// UNREAD: error: energy-optimize: kernel 'void scale<int, 3>(int, int*)': host code in this file never reads its launch record; launch it with ENERGY_BLOCK_DIM(scale<int, 3>)
#include <energy/energy.cuh>

ENERGY_KERNEL_TEMPLATE(scale, (typename T, int N), (T, N))
void scale(int n, T *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * T(N) + T(1);
}

ENERGY_KERNEL_TEMPLATE_BLOCK(tile, (typename T), (T), 32, 8)
void tile(int cols, T *x) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  x[row * cols + col] += T(1);
}

// One explicit instantiation, the others from host launches.
template __global__ void scale<double, 2>(int, double *);
#ifdef UNREAD
template __global__ void scale<int, 3>(int, int *);
#endif

void launch(int n, float *xf, double *xd) {
  dim3 block = ENERGY_BLOCK_DIM(scale<float, 4>);
  scale<float, 4><<<(n + block.x - 1) / block.x, block>>>(n, xf);
  block = ENERGY_BLOCK_DIM(scale<double, 2>);
  scale<double, 2><<<(n + block.x - 1) / block.x, block>>>(n, xd);
  tile<float><<<dim3(1, n), ENERGY_BLOCK_DIM(tile<float>)>>>(n, xf);
}
