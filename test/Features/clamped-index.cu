// An index clamped at the domain's edge (`min(x + 1, w - 1)`, as stencils
// clamp their halo reads) is a fixed offset per thread in every block but
// the last: its access is part of the block's footprint, in every run.
// Before, the check that a thread's offset does not depend on the block
// gave blockIdx a value from its pointer's hash: here a huge one, clamped
// for every thread, so the access was left out (8 bytes per thread of 12);
// in 32-bit index arithmetic, which wraps, it was left out in about half of
// the runs, and predictions flipped between runs
// (Corpus/rebuild-identical.test).
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=clamped:64x1,grid=64x1 \
// RUN:   -mllvm -energy-report=%t.json %s -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// CHECK: "global_footprint_bytes": 12,
// CHECK-NEXT: "global_footprint_accessed_bytes": 12,

__global__ void clamped(const float *in, float *out, unsigned long w) {
  unsigned long x = blockIdx.x * 64ul + threadIdx.x;
  out[x] = in[min(x + 1, w - 1)] - in[x];
}
