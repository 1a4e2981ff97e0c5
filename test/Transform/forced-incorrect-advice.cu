// A forced block on a kernel that did not opt in states its host launch: it
// is predicted as given even where it would not be correct to rewrite to,
// and the remark and the report say so.
// RUN: %clang %cudaflags -O2 -S %clangplugin -Rpass-analysis=energy \
// RUN:   -mllvm -energy-force-config=warpsum:48 -mllvm -energy-report=%t.json \
// RUN:   %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// REMARK: remark: kernel warpsum(float const*, float*): the forced block 48 is predicted as the host's launch; it would not be correct to rewrite to: full-mask warp intrinsics need a multiple of 32 threads
// REMARK: remark: kernel warpsum(float const*, float*) is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: block 48 (forced)
// REPORT: "notes": [
// REPORT-NEXT: "sm_90 is modelled on its default board h100-sxm (H100 SXM5 80GB); -energy-gpu names the board that runs it (sm_90: h100-sxm, h100-pcie, h200)",
// REPORT-NEXT: "the forced block 48 is predicted as the host's launch; it would not be correct to rewrite to: full-mask warp intrinsics need a multiple of 32 threads; it is not proven correct at another shape (it uses warp- or block-level operations (llvm.nvvm.shfl.sync.down.f32) ({{.*}}forced-incorrect-advice.cu:18))"

__global__ void warpsum(const float *in, float *out) {
  float v = in[threadIdx.x + blockIdx.x * blockDim.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x] = v;
}
