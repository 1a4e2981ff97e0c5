// A bounds check of the thread's grid index against a size argument sends
// only the threads past the problem's end to its other side: a launch sized
// to its problem has at most its last block there. So the scalar tail of a
// vector kernel counts for no thread, with the block known or not. Before,
// both sides counted for every thread: a float4 triad paid for its scalar
// tail's 8 loads and 4 stores besides its own, and looked slower than the
// scalar kernel.
// RUN: %clang %cudaflags -O3 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %t.ll 2>&1 \
// RUN:   | FileCheck %s

// The float4 path alone: its two float4 loads and one store (clang splits
// them into 4-byte fields until NVPTX joins them again), one branch.
// CHECK-LABEL: kernel triad4
// CHECK:       global_loads: 8 accesses/thread
// CHECK:       global_stores: 4 accesses/thread
// CHECK:       branches: 1 ops/thread
__device__ __forceinline__ void triad4_at(int t, int n, float s,
                                          const float *__restrict__ b,
                                          const float *__restrict__ c,
                                          float *__restrict__ a) {
  const int i = t * 4;
  if (i + 3 < n) {
    float4 bv = reinterpret_cast<const float4 *>(b)[t];
    float4 cv = reinterpret_cast<const float4 *>(c)[t];
    reinterpret_cast<float4 *>(a)[t] =
        make_float4(bv.x + s * cv.x, bv.y + s * cv.y, bv.z + s * cv.z,
                    bv.w + s * cv.w);
  } else {
    for (int k = 0; k < 4; ++k)
      if (i + k < n)
        a[i + k] = b[i + k] + s * c[i + k];
  }
}

extern "C" __global__ void triad4(int n, float s, const float *__restrict__ b,
                                  const float *__restrict__ c,
                                  float *__restrict__ a) {
  triad4_at(blockIdx.x * blockDim.x + threadIdx.x, n, s, b, c, a);
}

// With the block folded (a forced or refined candidate: blockDim.x = 1024),
// instcombine distributes the scale and joins disjoint bits with `or`:
// ((blockIdx.x << 10 | threadIdx.x) << 2) | 3 < n is the same check.
// CHECK-LABEL: kernel triad4_folded
// CHECK:       global_loads: 8 accesses/thread
// CHECK:       branches: 1 ops/thread
extern "C" __global__ void triad4_folded(int n, float s,
                                         const float *__restrict__ b,
                                         const float *__restrict__ c,
                                         float *__restrict__ a) {
  triad4_at(blockIdx.x * 1024 + threadIdx.x, n, s, b, c, a);
}

// The same two sides split at half the size (a bound computed from it, not
// the size): half the grid's threads take each side, so both count: x's
// load (hoisted, shared by both sides) and the else side's load of w. (The
// two stores sink into one.)
// CHECK-LABEL: kernel halves
// CHECK:       global_loads: 2 accesses/thread
extern "C" __global__ void halves(int n, const float *x, const float *w,
                                  float *y, float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 2)
    y[i] = 2.0f * x[i];
  else
    z[i] = x[i] + w[i];
}

// At the size itself only the then side counts: w is never loaded.
// CHECK-LABEL: kernel bounded
// CHECK:       global_loads: 1 accesses/thread
extern "C" __global__ void bounded(int n, const float *x, const float *w,
                                   float *y, float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
  else
    z[i] = x[i] + w[i];
}
