// The plugin predicts a kernel with every call inlined, as nvcc builds it.
// Clang's -O3 inliner keeps a large callee with external linkage as a
// call: gemm_like's register tile (1 KB per thread) then stays in local
// memory and is read and written through a pointer, which is not the code
// the plugin predicted. energy-kept-calls, at the end of the pipeline, finds
// the calls the build kept: a warning for the kernels the user opted in or
// forced, and `kept_calls` in the report for every kernel predicted.
// __forceinline__ (or static) callees, recursion (predicted as calls too)
// and kernels without such calls say nothing.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-report=%t.json \
// RUN:   -mllvm -energy-force-config=gemm_like:256 \
// RUN:   -mllvm -energy-force-config=gemm_forced_inline:256 \
// RUN:   -mllvm -energy-force-config=countdown:256 %s -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
// RUN: %python -c "import json, sys; \
// RUN:   [print(k['ir_name'], [(c['callee'], c['call_sites'], c['local_bytes_passed']) \
// RUN:    for c in k['kept_calls']] if 'kept_calls' in k else 'inlined') \
// RUN:    for k in json.load(open(sys.argv[1]))['kernels']]" %t.json \
// RUN:   | FileCheck %s --check-prefix=REPORT
// An -O0 build, which inlines nothing, says nothing either.
// RUN: %clang %cudaflags -O0 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=gemm_like:256 %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=O0 --allow-empty
// O0-NOT: warning:
// The PTX has the call the warning names, and no marker is left behind.
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %clang %cudaflags -O3 -S -emit-llvm %clangplugin %s -o - \
// RUN:   | FileCheck %s --check-prefix=IR
#include <energy/energy.cuh>

#define N 16

// The loops are the same in both callees: only the inlining differs.
#define ACCUMULATE                                                             \
  for (int kk = 0; kk < k; ++kk)                                               \
    _Pragma("unroll") for (int i = 0; i < N; ++i)                              \
      _Pragma("unroll") for (int j = 0; j < N; ++j)                            \
        acc[i][j] += a[kk * N + i + threadIdx.x] * b[kk * N + j];

__device__ void accumulate(float (*acc)[N], const float *a, const float *b,
                           int k) {
  ACCUMULATE
}

__device__ __forceinline__ void accumulate_inline(float (*acc)[N],
                                                  const float *a,
                                                  const float *b, int k) {
  ACCUMULATE
}

__device__ __noinline__ float scale(float x) { return 2 * x; }

__device__ int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }

extern "C" {
// Forced: a kept call is worth a warning.
__global__ void gemm_like(const float *a, const float *b, float *c, int k) {
  float acc[N][N] = {};
  accumulate(acc, a, b, k);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      c[(i * N + j) * 1024 + threadIdx.x] = acc[i][j];
}

// The same work with the callee forced inline: the build is the prediction.
__global__ void gemm_forced_inline(const float *a, const float *b, float *c,
                                   int k) {
  float acc[N][N] = {};
  accumulate_inline(acc, a, b, k);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      c[(i * N + j) * 1024 + threadIdx.x] = acc[i][j];
}

// Recursion is predicted as a call: nothing to say.
__global__ void countdown(int *out) {
  out[threadIdx.x] = depth(out[threadIdx.x]);
}

// Not opted in, not forced: the report lists the kept call, no warning.
__global__ void advice_only(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) // advice needs the bound check: ShapeInvariance.h
    x[i] = scale(x[i]);
}
}

// WARN: warning: energy: kernel 'gemm_like' was predicted with its calls inlined, but the build still calls 'accumulate(float (*) [16], float const*, float const*, int)' (passing it 1024 bytes of local arrays, kept in local memory): the code that runs is not the code predicted; mark the callees __forceinline__

// REPORT-DAG: gemm_like [('accumulate(float (*) [16], float const*, float const*, int)', 1, 1024)]
// REPORT-DAG: gemm_forced_inline inlined
// REPORT-DAG: countdown inlined
// REPORT-DAG: advice_only [('scale(float)', 1, 0)]
// REPORT-NOT: kept_calls

// PTX-LABEL: .entry gemm_like(
// PTX:       call.uni
// PTX-NEXT:  _Z10accumulatePA16_fPKfS2_i
// PTX-LABEL: .entry gemm_forced_inline(
// PTX-NOT:   call.uni
// PTX:       ret;

// IR-NOT: energy-predicted
