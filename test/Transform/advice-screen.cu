// Loading the plugin into a build whose kernels did not opt in costs little:
// their advice is the screen's (each candidate predicted from the kernel's
// features, its block not yet known), and the report and remarks say so.
// -energy-advice=full predicts the best candidates again with their blocks
// known, as the search does for an opted-in kernel, which the option does
// not change. (A kernel whose loop count follows the launch, a grid-stride
// loop, is predicted again with its blocks in either mode:
// advice-grid-stride.cu.)
// RUN: %clang %cudaflags -O2 -S %clangplugin -Rpass=energy -Rpass-analysis=energy \
// RUN:   -mllvm -energy-report=%t.screen.json %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,SCREEN
// RUN: FileCheck %s --check-prefix=SCREEN-REPORT < %t.screen.json
// RUN: %clang %cudaflags -O2 -S %clangplugin -Rpass=energy -Rpass-analysis=energy \
// RUN:   -mllvm -energy-advice=full -mllvm -energy-report=%t.full.json %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,FULL
// RUN: FileCheck %s --check-prefix=FULL-REPORT < %t.full.json
#include <energy/energy.cuh>

extern "C" {
__global__ void advised(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 2.0f * x[i] + 1.0f;
}

ENERGY_KERNEL(tuned) void tuned(int n, float *x) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = 2.0f * x[i] + 1.0f;
}
}

// SCREEN: remark: kernel advised: advice from the screen: each candidate predicted without its block known (-energy-advice=full predicts the best again with their blocks known)
// FULL-NOT: advice from the screen
// SCREEN: remark: kernel advised is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: {{.*}} candidates evaluated, {{[0-9]+}} on the Pareto front
// FULL: remark: kernel advised is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: {{.*}} candidates evaluated ({{([0-9]+ screened out by the block-free screen; )?}}{{[1-9][0-9]*}} predicted again with the block known)
// CHECK: remark: kernel tuned: chose {{.*}} candidates evaluated ({{([0-9]+ screened out by the block-free screen; )?}}{{[1-9][0-9]*}} predicted again with the block known)

// SCREEN-REPORT:      "kernel": "advised",
// SCREEN-REPORT:      "notes": [
// SCREEN-REPORT:        "advice from the screen: {{.*}}"
// SCREEN-REPORT:      "block_refinement": 0,
// SCREEN-REPORT-NOT:  "predicted_with_block": true
// SCREEN-REPORT:      "kernel": "tuned",
// SCREEN-REPORT:      "predicted_with_block": true

// FULL-REPORT:        "kernel": "advised",
// FULL-REPORT-NOT:    "advice from the screen
// FULL-REPORT:        "predicted_with_block": true
// FULL-REPORT:        "kernel": "tuned",
// FULL-REPORT:        "predicted_with_block": true
