// Features of a candidate are counted after -O3's late loop unroll, as the
// PTX runs it: a loop of 1024 x 4 FMAs is unrolled (8x on NVPTX), so its
// induction, compare and branch count once per unrolled body, and phis issue
// nothing. Before, every source iteration paid them: 2.5 instructions per
// FMA, against 1.1 here and in the PTX. The report's assumed trip count stays per
// source iteration (4096 for n), not per unrolled body.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=fma_loop:256,grid=64 \
// RUN:   -mllvm -energy-report=%t.json %s -o %t.ptx
// RUN: %python -c "import json, sys; k = json.load(open(sys.argv[1]))['kernels']; \
// RUN:   f = {x['kernel']: x['features']['features'] for x in k}; \
// RUN:   print('fixed', f['fma_loop']['fp32_fma'], round(f['fma_loop']['instructions'] / f['fma_loop']['fp32_fma'], 2)); \
// RUN:   print('sum_n', [x for x in k if x['kernel'] == 'sum_n'][0]['notes'][1])" %t.json \
// RUN:   | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
#include <energy/energy.cuh>

extern "C" __global__ void fma_loop(float *out, float p, float q) {
  float x = threadIdx.x, y = x + 1.0f;
  for (int i = 0; i < 1024; ++i) {
    x = fmaf(p, q, x);
    x = fmaf(-q, p, x);
    y = fmaf(q, q, y);
    y = fmaf(p, p, y);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}

ENERGY_KERNEL(sum_n) void sum_n(int n, const float *x, float *y) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  y[threadIdx.x] = s;
}

// 4096 FMAs, 1.1 instructions each: 128 unrolled bodies (8 source
// iterations each) with one add, compare and branch, plus the prologue and
// the store.
// CHECK: fixed 4096 1.1
// CHECK: sum_n loop (compile with -g for its line): trip count assumed 4096 (bound depends on argument 1, taken as 4096)

// The PTX has the same unrolled body: 32 FMAs per iteration.
// PTX-LABEL: .entry fma_loop(
// PTX-COUNT-32: fma.rn.f32
// PTX: bra.uni
