// A candidate's features are counted after NVPTX's load/store vectorizer,
// as the PTX runs: a float4 read field by field (clang splits the struct
// load into four float loads) is one ld.global.v4.f32, one access of 16
// bytes. Before, it counted 4 accesses of 4 bytes, each charged the
// sectors its warp touches: 4x the L2 traffic of a staged GEMM tile.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=sum4:256 \
// RUN:   -mllvm -energy-report=%t.json %s -o %t.ptx
// RUN: %python -c "import json, sys; k = json.load(open(sys.argv[1]))['kernels'][0]; \
// RUN:   f = k['features']['features']; \
// RUN:   print('loads', f['global_loads'], f['global_load_bytes'], f['vector_accesses'], \
// RUN:         'sectors', f['global_warp_sector_bytes'])" %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
#include <energy/energy.cuh>

// Each warp reads 8 rows of 64 bytes: 4 threads per row, 16 bytes each.
extern "C" __global__ void sum4(const float *in, float *out, int ld) {
  int r = threadIdx.x / 4, k = threadIdx.x % 4 * 4;
  float4 v = *reinterpret_cast<const float4 *>(
      &in[(blockIdx.x * 64 + r) * ld + k]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v.x + v.y + v.z + v.w;
}

// One 16-byte load per thread; its warp's 32 loads fill whole sectors, so a
// thread moves 16 + 4 (the store) sector bytes.
// CHECK: loads 1 16 1 sectors 20
// PTX: ld.global.v4.f32
