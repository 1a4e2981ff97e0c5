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
// SPILLS-NEXT: "spill_bytes": {{[1-9][0-9]*(\.[0-9]+)?}},
// SPILLS: "ptxas spills {{[1-9][0-9]*}} bytes (stores) and {{[1-9][0-9]*}} bytes (loads)"

// NONE: "spill_bytes": 0,
// NONE-NOT: ptxas spills

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
