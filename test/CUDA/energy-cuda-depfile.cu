// energy-cuda -MD -MF: the headers both halves of the CUDA compile include
// (device and host), as rules for the output, so a build system rebuilds it
// when one changes; -MT names the rules' target instead (as nvcc and clang
// do). -MF without -MD is an error.
// RUN: rm -rf %t && mkdir -p %t/inc
// RUN: echo '#define SCALE 2.0f' > %t/inc/device_only.h
// RUN: echo '#define LAUNCHES 1' > %t/inc/host_only.h
// RUN: energy-cuda -c -I %t/inc -MD -MF %t/app.d %s -o %t/app.o
// RUN: FileCheck %s --input-file=%t/app.d -DOUT=%t/app.o
// RUN: energy-cuda -c -I %t/inc -MD %s -o %t/default.o
// RUN: FileCheck %s --input-file=%t/default.o.d -DOUT=%t/default.o
// RUN: energy-cuda -c -I %t/inc -MD -MF %t/mt.d -MT custom.o %s -o %t/mt.o
// RUN: FileCheck %s --input-file=%t/mt.d -DOUT=custom.o --implicit-check-not=mt.o:
// RUN: not energy-cuda -c -MF %t/x.d %s -o %t/x.o 2>&1 | FileCheck %s --check-prefix=ERR
#include <energy/energy.cuh>
#ifdef __CUDA_ARCH__
#include "device_only.h"
#else
#include "host_only.h"
#endif

ENERGY_KERNEL(scale) void scale(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  if (i < n)
    x[i] *= SCALE;
#endif
}

// CHECK-DAG: [[OUT]]:
// CHECK-DAG: device_only.h
// CHECK-DAG: host_only.h
// CHECK-DAG: energy/energy.cuh
// ERR: energy-cuda: error: -MF needs -MD
