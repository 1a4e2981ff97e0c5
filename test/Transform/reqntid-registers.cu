// An opted-in kernel is rewritten to its block with .reqntid, and ptxas
// allocates its registers under that bound: it may use more registers than
// it would unbounded (it knows no larger block will come), or must fit a
// block of 1024 threads into 64 registers a thread and spill the rest. The
// candidate's PTX goes to ptxas with the same .reqntid, so the registers and
// spills in the report are those of the kernel the build produces.
//
// By hand (ptxas 13.0, -arch=sm_90, on the PTX this test writes, and on the
// same PTX with its .reqntid line deleted):
//   block 1024: 64 registers, 140 bytes spill stores, 128 bytes spill
//               loads, 80 bytes stack frame; unbounded: 80 registers, none
//   block 512:  84 registers, no spills; unbounded: 80 registers
// Without the bound the report said 80 registers and no spills for both.
//
// REQUIRES: ptxas
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=many_sums:1024x1,grid=64x1 \
// RUN:   -mllvm -energy-report=%t.1024.json %s -o %t.1024.ptx
// RUN: FileCheck %s --check-prefix=REPORT1024 --input-file=%t.1024.json
// RUN: %ptxas -arch=sm_90 -v %t.1024.ptx -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS1024
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=many_sums:512x1,grid=64x1 \
// RUN:   -mllvm -energy-report=%t.512.json %s -o %t.512.ptx
// RUN: FileCheck %s --check-prefix=REPORT512 --input-file=%t.512.json
// RUN: %ptxas -arch=sm_90 -v %t.512.ptx -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTXAS512

// REPORT1024: "registers_from": "ptxas",
// REPORT1024: "register_estimate": 64,
// REPORT1024-NEXT: "local_frame_bytes": 80,
// REPORT1024-NEXT: "spill_bytes": {{[1-9][0-9]*(\.[0-9]+)?}},
// REPORT1024: "reqntid": [
// REPORT1024-NEXT: 1024,
// REPORT1024: "ptxas spills 140 bytes (stores) and 128 bytes (loads)"
// PTXAS1024: 80 bytes stack frame, 140 bytes spill stores, 128 bytes spill loads
// PTXAS1024: Used 64 registers

// REPORT512: "registers_from": "ptxas",
// REPORT512: "register_estimate": 84,
// REPORT512-NEXT: "local_frame_bytes": 0,
// REPORT512-NEXT: "spill_bytes": 0,
// PTXAS512: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS512: Used 84 registers

#include <energy/energy.cuh>

// Each thread keeps 64 running sums live across a loop of 256 steps.
ENERGY_KERNEL(many_sums) void many_sums(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n)
    return;
  float acc[64];
#pragma unroll
  for (int t = 0; t < 64; ++t)
    acc[t] = 0.0f;
  for (int k = 0; k < 256; ++k) {
    float v = in[k * n + x];
#pragma unroll
    for (int t = 0; t < 64; ++t)
      acc[t] = acc[t] * v + in[t * 256 + k];
  }
#pragma unroll
  for (int t = 0; t < 64; ++t)
    out[t * n + x] = acc[t];
}
