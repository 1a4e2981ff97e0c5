// Code behind a comparison of a thread index with a constant runs for a
// share of the block's threads, and counts per thread with that share once
// the block is known: `threadIdx.x == 0` once per block row, `lane == 0`
// once per warp, `threadIdx.x < 64` for 64 threads of a row. Atomics on one
// address for the whole grid (an argument or a global plus constant offsets)
// are counted apart: one L2 slice performs them in turn, and the model
// charges them as such.
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=leaders:256x1,grid=1024 \
// RUN:   -mllvm -energy-report=%t.256.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=B256 --input-file=%t.256.json
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=leaders:32x1,grid=8192 \
// RUN:   -mllvm -energy-report=%t.32.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=B32 --input-file=%t.32.json
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=scattered:256x1,grid=1024 \
// RUN:   -mllvm -energy-report=%t.scattered.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=SCATTERED --input-file=%t.scattered.json

__device__ unsigned ticket;

extern "C" __global__ void leaders(const float *x, float *out, float *lanes,
                                   float *firsts) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  if (threadIdx.x == 0)
    atomicAdd(out, v);       // per block: 1/256 (1/32) of the threads
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out + 1, v);   // per warp: 1/32
  if (threadIdx.x < 64)
    firsts[i] = v;           // 64 of 256 threads (every one of 32)
  if (threadIdx.x != 0)
    return;
  atomicAdd(&ticket, 1u);    // per block again
  atomicAdd(lanes + blockIdx.x, v); // one per block, each its own address
}

extern "C" __global__ void scattered(const int *keys, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[keys[i] & 255], 1u); // every thread, addresses from data
}

// 256 threads: atomics 1/256 + 1/32 + 1/256 + 1/256 = 0.04296875 per thread,
// of which on one address 1/256 + 1/32 + 1/256 = 0.0390625; global stores
// 64/256 = 0.25.
// B256: "global_stores": 0.25,
// B256: "global_atomics": 0.04296875,
// B256-NEXT: "global_same_address_atomics": 0.0390625,
// 32 threads: 1/32 + 1/32 + 1/32 + 1/32 = 0.125, 0.09375 on one address;
// every thread stores.
// B32: "global_stores": 1,
// B32: "global_atomics": 0.125,
// B32-NEXT: "global_same_address_atomics": 0.09375,
// SCATTERED: "global_atomics": 1,
// SCATTERED-NEXT: "global_same_address_atomics": 0,
