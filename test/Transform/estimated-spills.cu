// Registers counted without the cap the build puts on them (here the
// plugin's estimate: no ptxas) may exceed it. ptxas will then spill the rest,
// and the candidate is predicted with that spill code, not pruned: each
// register above the cap is stored to its local slot and loaded back once
// (4 bytes each way), as often as the kernel's average instruction runs.
// The report's candidate says so (spills_estimated).
//
// many_live keeps 32 loaded values live at once; its code is straight-line,
// so each instruction runs once. By hand, with the estimate of the uncapped
// build (MINB=1: 108 registers) and the cap of __launch_bounds__(256, 4) on
// sm_90 (64, min-blocks-registers.cu): 108 - 64 = 44 registers spilled,
// 44 x (4 + 4) x 1 = 352 bytes a thread, and a frame of 44 x 4 = 176 bytes.
//
// RUN: env ENERGY_PTXAS=none %clang %cudaflags -O3 -S %clangplugin -DMINB=1 \
// RUN:   -mllvm -energy-force-config=many_live:256x1,grid=256x1 \
// RUN:   -mllvm -energy-report=%t.free.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FREE --input-file=%t.free.json
// RUN: env ENERGY_PTXAS=none %clang %cudaflags -O3 -S %clangplugin -DMINB=4 \
// RUN:   -mllvm -energy-force-config=many_live:256x1,grid=256x1 \
// RUN:   -mllvm -energy-report=%t.capped.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=CAPPED --input-file=%t.capped.json
//
// FREE: "register_estimate": 108,
// FREE: "choice": {
// FREE-NOT: spills_estimated
// FREE: "time_s"
//
// CAPPED: "register_estimate": 108,
// CAPPED: "choice": {
// CAPPED: "occupancy": 0.5,
// CAPPED: "spills_estimated": {
// CAPPED-NEXT: "register_cap": 64,
// CAPPED-NEXT: "spilled_registers": 44,
// CAPPED-NEXT: "spill_bytes": 352
// CAPPED-NEXT: },
// CAPPED-NEXT: "time_s"

// The optimizer rewrites an opted-in kernel with .reqntid of its block, which
// caps the registers too: at 1024 threads, 64 a thread. The free search
// predicts those blocks with their spills (an estimate of 84 registers: 20
// spilled) instead of pruning them. A kernel that is not opted in keeps its
// launches and gets no bounds: ptxas does not cap it, and a block its
// registers cannot launch with stays pruned.
// RUN: env ENERGY_PTXAS=none %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-report=%t.search.json %S/reqntid-registers.cu -o /dev/null
// RUN: %python -c "import json, sys; \
// RUN:   k = json.load(open(sys.argv[1]))['kernels'][0]; \
// RUN:   c = [c for c in k['candidates'] if c['block'][0] == 1024][0]; \
// RUN:   print(k['registers_from'], k['features']['features']['register_estimate'], \
// RUN:         c.get('pruned'), c.get('spills_estimated'))" %t.search.json \
// RUN:   | FileCheck %s --check-prefix=SEARCH
// SEARCH: estimate 84 None {'register_cap': 64, 'spilled_registers': 20, 'spill_bytes': {{[1-9][0-9.]*}}}
//
// RUN: env ENERGY_PTXAS=none %clang %cudaflags -O3 -S %clangplugin -DADVICE \
// RUN:   -mllvm -energy-simplify=always \
// RUN:   -mllvm -energy-report=%t.advice.json %s -o /dev/null
// RUN: %python -c "import json, sys; \
// RUN:   k = json.load(open(sys.argv[1]))['kernels'][0]; \
// RUN:   c = [c for c in k['candidates'] if c['block'][0] == 1024][0]; \
// RUN:   print(k['opted_in'], k['features']['features']['register_estimate'], \
// RUN:         c.get('pruned'), c.get('spills_estimated'))" %t.advice.json \
// RUN:   | FileCheck %s --check-prefix=ADVICE
// ADVICE: False 108 resources None

#ifdef ADVICE
#define BOUNDS
#else
#define BOUNDS __launch_bounds__(256, MINB)
#endif

__global__ void BOUNDS many_live(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n)
    return;
  float v[32];
#pragma unroll
  for (int t = 0; t < 32; ++t)
    v[t] = in[t * n + x];
#pragma unroll
  for (int t = 0; t < 32; ++t)
    out[t * n + x] = v[t] * v[31 - t];
}
