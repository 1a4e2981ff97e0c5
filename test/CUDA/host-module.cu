// The plugin reaches the host cc1 too (-fpass-plugin): on the host module
// it must do nothing. The host IR is identical with and without the plugin,
// and no JSON file is written. (The last of --cuda-device-only /
// --cuda-host-only wins, so %cudaflags can be reused.)
// RUN: rm -f %t.host.json
// RUN: %clang %cudaflags --cuda-host-only -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.host.json %s -o %t.plugin.ll
// RUN: %clang %cudaflags --cuda-host-only -O2 -S -emit-llvm %s -o %t.plain.ll
// RUN: diff %t.plain.ll %t.plugin.ll
// RUN: not test -e %t.host.json
// RUN: FileCheck %s --check-prefix=HOST --input-file=%t.plugin.ll
// The device side of the same file does write the JSON.
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.dev.json %s -o %t.dev.ll
// RUN: FileCheck %s --check-prefix=DEV --input-file=%t.dev.json

// HOST: target triple = "x86_64-
// HOST: define {{.*}}@__device_stub__scale(
// DEV: "kernel": "scale",

extern "C" __global__ void scale(float *x, float s) {
  x[threadIdx.x] *= s;
}
