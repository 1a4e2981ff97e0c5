// Barriers that wait for global memory: a thread that stores a global load
// into a shared tile reaches the barrier only once the load has returned,
// so the block waits a memory latency there. A barrier counts so when a
// global load lies on a path to it from the previous barrier (or the
// kernel's entry); barriers with only shared accesses since the previous one
// do not.
// RUN: %clang %cudaflags -O3 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %t.ll 2>&1 \
// RUN:   | FileCheck %s
#include <cuda_runtime.h>

// The tile's barrier waits; the tree's 8 (the loop is unrolled) do not.
// CHECK-LABEL: kernel staged_sum
// CHECK:       barriers: 9 ops/thread
// CHECK-NEXT:  barriers_after_global_loads: 1 ops/thread
extern "C" __global__ void staged_sum(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int h = 128; h > 0; h >>= 1) {
    if (threadIdx.x < h)
      s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// A tiled loop of 64 steps (kept a loop: its trip count is not a constant
// the unroller takes whole): per step, the barrier after the tile's load
// waits, the one after the tile's use does not, and the path around the
// loop's back edge crosses the second one.
// CHECK-LABEL: kernel tiled_dot
// CHECK:       barriers: 128 ops/thread
// CHECK-NEXT:  barriers_after_global_loads: 64 ops/thread
extern "C" __global__ void tiled_dot(const float *a, float *out, int steps) {
  __shared__ float tile[256];
  float acc = 0;
  for (int t = 0; t < 64; ++t) {
    tile[threadIdx.x] = a[t * 256 + threadIdx.x];
    __syncthreads();
    acc += tile[255 - threadIdx.x] * tile[threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// A load whose value the next step stores (software prefetch): the value
// is used after the next barrier, so no step waits for its own load. The
// loop is unrolled by 4 (8 barriers per iteration); only the iteration's
// first barrier counts, for the load before the loop whose value reaches
// it through the loop's phi: 16 of 128. (Per barrier, not per path: only
// the first of those 16 really waits.)
// CHECK-LABEL: kernel prefetched
// CHECK:       barriers: 128 ops/thread
// CHECK-NEXT:  barriers_after_global_loads: 16 ops/thread
extern "C" __global__ void prefetched(const float *a, float *out) {
  __shared__ float tile[256];
  float acc = 0;
  float next = a[threadIdx.x];
  for (int t = 0; t < 64; ++t) {
    tile[threadIdx.x] = next;
    __syncthreads();
    acc += tile[255 - threadIdx.x];
    next = a[(t + 1) * 256 + threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}
