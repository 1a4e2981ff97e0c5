// Shared-memory tree reduction with __syncthreads. At -O2 the halving loop
// (s = 128 ... 1, 8 steps) is fully unrolled: 1 + 8 barriers, 1 + 8 shared
// stores, 2 x 8 + 1 shared loads, 8 divergent `t < s` branches plus the
// final `t == 0`. buf is 256 floats of static shared memory.
// RUN: rm -f %t.json
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.json %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.json

// CHECK:      "kernel": "block_sum",
// CHECK:        "fp32_ops": 8,
// CHECK-NEXT:   "fp32_fma": 0,
// CHECK:        "global_loads": 1,
// CHECK-NEXT:   "global_load_bytes": 4,
// CHECK-NEXT:   "global_stores": 1,
// CHECK-NEXT:   "global_store_bytes": 4,
// CHECK-NEXT:   "shared_loads": 17,
// CHECK-NEXT:   "shared_load_bytes": 68,
// CHECK-NEXT:   "shared_stores": 9,
// CHECK-NEXT:   "shared_store_bytes": 36,
// CHECK:        "generic_loads": 0,
// CHECK-NEXT:   "generic_load_bytes": 0,
// CHECK-NEXT:   "generic_stores": 0,
// CHECK:        "barriers": 9,
// CHECK:        "branches": 9,
// CHECK-NEXT:   "divergent_branches": 9,
// CHECK-NEXT:   "global_coalesced": 1,
// CHECK-NEXT:   "global_strided": 0,
// CHECK-NEXT:   "global_irregular": 0,
// CHECK-NEXT:   "global_uniform": 1,
// CHECK-NEXT:   "static_shared_bytes": 1024,
// CHECK-NEXT:   "uses_dynamic_shared": 0,

extern "C" __global__ void block_sum(const float *in, float *out) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}
