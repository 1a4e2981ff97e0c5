// Tiled SGEMM, 16x16 tiles, N = 1024: the tile loop runs exactly 64 times
// (a constant trip count) and the k loop is unrolled into it. Per thread:
// 64 x 2 barriers, 64 x 2 coalesced global loads and shared stores,
// 64 x 32 shared loads, 64 x 16 FMAs; the C store is coalesced too.
// RUN: rm -f %t.json
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.json %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.json

// CHECK:      "kernel": "matmul",
// CHECK:        "fp32_ops": 0,
// CHECK-NEXT:   "fp32_fma": 1024,
// CHECK:        "flops": 2048,
// CHECK-NEXT:   "global_loads": 128,
// CHECK-NEXT:   "global_load_bytes": 512,
// CHECK-NEXT:   "global_stores": 1,
// CHECK-NEXT:   "global_store_bytes": 4,
// CHECK-NEXT:   "shared_loads": 2048,
// CHECK-NEXT:   "shared_load_bytes": 8192,
// CHECK-NEXT:   "shared_stores": 128,
// CHECK-NEXT:   "shared_store_bytes": 512,
// CHECK:        "barriers": 128,
// CHECK:        "branches": 64,
// CHECK-NEXT:   "divergent_branches": 0,
// CHECK-NEXT:   "global_coalesced": 129,
// CHECK-NEXT:   "global_strided": 0,
// CHECK-NEXT:   "global_irregular": 0,
// CHECK-NEXT:   "global_uniform": 0,
// CHECK-NEXT:   "static_shared_bytes": 2048,
// CHECK-NEXT:   "uses_dynamic_shared": 0,
// CHECK-NEXT:   "reads_dim_y": 1,
// CHECK-NEXT:   "reads_dim_z": 0,
// CHECK:        "loops": 1,
// CHECK-NEXT:   "max_loop_depth": 1,
// CHECK-NEXT:   "unknown_trip_loops": 0
// CHECK:      "dims": {
// CHECK-NEXT:   "threadIdx": "xy",
// CHECK-NEXT:   "blockIdx": "xy",

#define TILE 16
#define N 1024

extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < N / TILE; ++t) {
    As[ty][tx] = A[row * N + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
