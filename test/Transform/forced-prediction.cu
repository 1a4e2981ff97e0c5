// A kernel tuned the Kernel Tuner way (block and tile sizes as -D macros, no
// energy.cuh): a forced configuration is predicted for the launch its host
// makes, and nothing is rewritten. grid= sets the blocks launched. The
// prediction's features come from the -O3-simplified candidate: the
// per-thread accumulator array is registers, not local memory, and ptxas
// gives the registers.
//
// RUN: %clang %cudaflags -O3 -S %clangplugin -DTILE=4 \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,grid=64x32 \
// RUN:   -mllvm -energy-report=%t.json %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
//
// RUN: %clang %cudaflags -O3 -S %clangplugin -DTILE=4 \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,grid=64x32 \
// RUN:   -mllvm -energy-simplify=never -mllvm -energy-report=%t.never.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=NEVER --input-file=%t.never.json
//
// RUN: env ENERGY_PTXAS=none %clang %cudaflags -O3 -S %clangplugin -DTILE=4 \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,grid=64x32 \
// RUN:   -mllvm -energy-report=%t.noptxas.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=NOPTXAS --input-file=%t.noptxas.json

#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif

// Each thread sums TILE rows of a column, TILE outputs per thread.
__global__ void tiled_rows(const float *in, float *out, int width) {
  float acc[TILE];
#pragma unroll
  for (int t = 0; t < TILE; ++t)
    acc[t] = 0.0f;
  int x = blockIdx.x * BX + threadIdx.x;
  int y = (blockIdx.y * BY + threadIdx.y) * TILE;
#pragma unroll
  for (int k = 0; k < 16; ++k)
#pragma unroll
    for (int t = 0; t < TILE; ++t)
      acc[t] += in[(y + t) * width + x + k];
#pragma unroll
  for (int t = 0; t < TILE; ++t)
    out[(y + t) * width + x] = acc[t];
}

// REPORT:      "kernel": "tiled_rows(float const*, float*, int)",
// REPORT:      "objective": "forced",
// REPORT:      "opted_in": false,
// REPORT:      "applied": false,
// REPORT:      "work_items": 524288,
// REPORT:      "features_from": "simplified",
// REPORT:      "registers_from": "ptxas",
// REPORT:      "local_loads": 0,
// REPORT:      "choice": {
// REPORT:        "block": [
// REPORT-NEXT:     32,
// REPORT-NEXT:     8,
// REPORT-NEXT:     1
// REPORT-NEXT:   ],
// REPORT:        "grid_blocks": 2048,
// REPORT:        "time_s": {{[0-9.e+-]+}},
// REPORT:        "energy_j": {{[0-9.e+-]+}},

// Nothing is rewritten: the host's launch is the one predicted.
// PTX-LABEL: .entry _Z10tiled_rowsPKfPfi(
// PTX-NOT: .reqntid
// PTX: ret;

// NEVER: "features_from": "cleanup",
// NEVER: "registers_from": "estimate",
// NEVER: "local_loads": {{[1-9][0-9]*}},

// NOPTXAS: "features_from": "simplified",
// NOPTXAS: "registers_from": "estimate",
