// The last block to finish (CUDA's threadfence reduction): thread 0 of
// every block takes a ticket, `atomicAdd(counter, 1) == gridDim.x - 1` is
// true in one block of the grid, and the code behind `if (!last) return;`
// runs in that block only. With the grid known (gridDim.x folded to 1024),
// it counts for 1/1024 of the threads; without it, for every thread.
//
// last_block at 256x1, grid 1024: each thread loads x and stores y once;
// the last block's loop takes 1024 / 256 = 4 partials per thread:
// global_loads = 1 + 4 / 1024 = 1.00390625. Stores: y, thread 0's partial
// (1/256) and out[0] in the last block's thread 0 (1 / (256 x 1024)):
// 1 + 0.00390625 + 0.000003814697265625 = 1.003910064697265625.
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=last_block:256x1,grid=1024 \
// RUN:   -mllvm -energy-report=%t.grid.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=GRID --input-file=%t.grid.json
// flag_in_register: thread 0 alone takes the ticket and tests it in a
// register. Its load of x sinks behind `threadIdx.x != 0` (1/256), and the
// last block's thread 0 loads 1024 partials: 1/256 + 1024 / (256 x 1024) =
// 0.0078125 loads; stores 1/256 + 1 / (256 x 1024).
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=flag_in_register:256x1,grid=1024 \
// RUN:   -mllvm -energy-report=%t.reg.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=REGISTER --input-file=%t.reg.json
// Without grid=, the launch is predicted on the grid that covers the
// workload (the default 2^24 items: 65,536 blocks of 256), and gridDim.x
// is that: the tail counts for one block of them, 1 + about 256 / 65,536
// loads per thread (the unrolled loop's remainder counts at its maximum).
// Before, gridDim.x was no constant there and the tail counted for all:
// 4096 blocks assumed, 4096 / 256 = 16 loads per thread, plus x.
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=last_block:256x1 \
// RUN:   -mllvm -energy-report=%t.nogrid.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=NOGRID --input-file=%t.nogrid.json

extern "C" __global__ void last_block(const float *x, float *y,
                                      float *partials, unsigned *counter,
                                      float *out) {
  __shared__ bool last;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  y[i] = 2 * v;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;
  float s = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
    s += partials[b];
  if (threadIdx.x == 0)
    out[0] = s;
}

// One thread per block takes the ticket and, if last, finishes alone.
extern "C" __global__ void flag_in_register(const float *x, float *partials,
                                            unsigned *counter, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  if (threadIdx.x != 0)
    return;
  partials[blockIdx.x] = v;
  __threadfence();
  if (atomicAdd(counter, 1u) != gridDim.x - 1)
    return;
  float s = 0;
  for (unsigned b = 0; b < gridDim.x; ++b)
    s += partials[b];
  out[0] = s;
}

// GRID:      "kernel": "last_block",
// GRID:      "global_loads": 1.00390625,
// GRID-NEXT: "global_load_bytes": 4.015625,
// GRID:      "global_stores": 1.0039100646972656,

// REGISTER:      "kernel": "flag_in_register",
// REGISTER:      "global_loads": 0.0078125,
// REGISTER:      "global_stores": 0.003910064697265625,

// NOGRID:      "kernel": "last_block",
// NOGRID:      "global_loads": 1.00{{[0-9]+}},
