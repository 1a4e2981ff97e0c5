// The host side of a CUDA compile passes through the plugin untouched, even
// with optimizer options set.
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -S -emit-llvm %s -o %t.plain.ll
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -S -emit-llvm %clangplugin -mllvm -energy-objective=time -mllvm -energy-report=%t.report.json \
// RUN:   %s -o %t.plugin.ll
// RUN: diff %t.plain.ll %t.plugin.ll
// RUN: not test -e %t.report.json
#include "Inputs/kernels.cu"
