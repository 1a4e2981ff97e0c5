// A kernel that did not opt in gets advice at its launch sites too: the host
// compile of the same source (with the device compile's -energy-report)
// repeats the advice at each <<<...>>>, with the predicted saving against the
// launch's own block when it is a constant, and lists the sites in the
// report. The host IR is not changed, and no report means no remark.
// RUN: rm -f %t.json
// RUN: %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-report=%t.json %s -o /dev/null
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -S -emit-llvm %clangplugin -mllvm -energy-report=%t.json -Rpass-analysis=energy \
// RUN:   %s -o %t.host.ll 2>&1 | FileCheck %s
// RUN: %python -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels'][0]; \
// RUN:   print([(s.get('line'), s.get('block'), 'savings_percent' in s) for s in k['launch_sites']])" %t.json \
// RUN:   | FileCheck %s --check-prefix=REPORT
// RUN: rm %t.json
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -S -emit-llvm %clangplugin -mllvm -energy-report=%t.json -Rpass-analysis=energy \
// RUN:   %s -o %t.host2.ll 2>&1 | count 0
// RUN: not test -e %t.json
#include <energy/energy.cuh>

__global__ void scale(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

void run(float *x, int n, dim3 b) {
  scale<<<(n + 255) / 256, 256>>>(n, x);
  scale<<<1, b>>>(n, x);
}

// CHECK: launch-sites.cu:[[#@LINE-4]]:8: remark: kernel scale(int, float*) is launched here with block 256; advice: block {{[0-9]+}} ({{.*}}; against this launch's block 256: energy {{[-+][0-9.]+}}%, time {{[-+][0-9.]+}}%
// CHECK: launch-sites.cu:[[#@LINE-4]]:8: remark: kernel scale(int, float*) is launched here with a block computed at run time; advice: block {{[0-9]+}} (
// REPORT: [(30, [256, 1, 1], True), (31, None, False)]
