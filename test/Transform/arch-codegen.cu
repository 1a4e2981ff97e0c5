// Inside clang too, a candidate codegen for a modelled architecture that
// cannot select the kernel's code (a warp shuffle on the GTX 1070's sm_61)
// leaves the user's compile alone: before, clang stopped with "fatal error:
// error in backend: Cannot select" (exit 74) and wrote no PTX. The user's
// own PTX, for sm_90, keeps its shuffles; the registers are estimated.
// RUN: rm -rf %t.cache
// RUN: env XDG_CACHE_HOME=%t.cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-gpu=gtx-1070 -mllvm -energy-report=%t.json %s -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.json
// DIAG-NOT: error
// PTX: .target sm_90
// PTX: shfl.sync.bfly.b32
// NOTE: "registers estimated: NVPTX codegen failed: Cannot select: intrinsic %llvm.nvvm.shfl.sync.bfly.f32"
#include <energy/energy.cuh>

ENERGY_KERNEL(warp_sum) void warp_sum(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_xor_sync(0xffffffff, v, d);
  out[i] = v;
}
