// ptxas's spill code is traffic the cost model counts: a kernel that keeps
// more values live than 255 registers hold spills the rest, and its
// features carry the bytes the spill loads and stores move per thread
// (ptxas's static spill bytes, executed as often as the average
// instruction). Without spills, or without ptxas, there are none.
//
// RUN: %clang %cudaflags -O3 -S %clangplugin -DACC=300 \
// RUN:   -mllvm -energy-force-config=many_sums:128x1,grid=64x1 \
// RUN:   -mllvm -energy-report=%t.spills.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=SPILLS --input-file=%t.spills.json
// RUN: %clang %cudaflags -O3 -S %clangplugin -DACC=8 \
// RUN:   -mllvm -energy-force-config=many_sums:128x1,grid=64x1 \
// RUN:   -mllvm -energy-report=%t.few.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=NONE --input-file=%t.few.json
// RUN: env ENERGY_PTXAS=none %clang %cudaflags -O3 -S %clangplugin -DACC=300 \
// RUN:   -mllvm -energy-force-config=many_sums:128x1,grid=64x1 \
// RUN:   -mllvm -energy-report=%t.noptxas.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=NONE --input-file=%t.noptxas.json

// SPILLS: "registers_from": "ptxas",
// SPILLS: "register_estimate": 255,
// SPILLS-NEXT: "local_frame_bytes": {{[1-9][0-9]*}},
// SPILLS-NEXT: "spill_bytes": {{[1-9][0-9]*(\.[0-9]+)?}},
// SPILLS: "ptxas spills {{[1-9][0-9]*}} bytes (stores) and {{[1-9][0-9]*}} bytes (loads)"

// NONE: "local_frame_bytes": 0,
// NONE-NEXT: "spill_bytes": 0,
// NONE-NOT: ptxas spills

// A private array indexed by a value the compiler cannot fold stays in local
// memory: its 64 floats are the thread's frame, as ptxas reports it and,
// without ptxas, as the kernel's allocas hold it.
// RUN: %clang %cudaflags -O3 -S %clangplugin -DACC=8 \
// RUN:   -mllvm -energy-force-config=private_histogram:128x1,grid=64x1 \
// RUN:   -mllvm -energy-report=%t.frame.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FRAME --input-file=%t.frame.json
// RUN: env ENERGY_PTXAS=none %clang %cudaflags -O3 -S %clangplugin -DACC=8 \
// RUN:   -mllvm -energy-force-config=private_histogram:128x1,grid=64x1 \
// RUN:   -mllvm -energy-report=%t.frame-ir.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FRAME --input-file=%t.frame-ir.json
// FRAME: "local_loads": {{[1-9][0-9]*}},
// FRAME: "local_frame_bytes": 256,
// FRAME-NEXT: "spill_bytes": 0,

// Each thread keeps ACC running sums live across a loop of 256 steps.
__global__ void many_sums(const float *in, float *out) {
  float acc[ACC];
#pragma unroll
  for (int t = 0; t < ACC; ++t)
    acc[t] = 0.0f;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 256; ++k) {
    float v = in[k * 65536 + x];
#pragma unroll
    for (int t = 0; t < ACC; ++t)
      acc[t] = acc[t] * v + in[t * 256 + k];
  }
#pragma unroll
  for (int t = 0; t < ACC; ++t)
    out[t * 65536 + x] = acc[t];
}

__global__ void private_histogram(const int *in, int *out) {
  int counts[64];
  for (int t = 0; t < 64; ++t)
    counts[t] = 0;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 256; ++k)
    counts[in[k * 8192 + x] & 63] += 1;
  for (int t = 0; t < 64; ++t)
    out[t * 8192 + x] = counts[t];
}
