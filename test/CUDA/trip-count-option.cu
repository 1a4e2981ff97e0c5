// The clang spelling of the plugin's options: with -fplugin loaded early,
// -mllvm -energy-default-trip-count=N sets the weight of loops whose trip
// count ScalarEvolution cannot compute (the exit depends on loaded data), 8
// by default.
// RUN: rm -f %t.def.json %t.3.json
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-features-json=%t.def.json %s -o %t.def.ll
// RUN: FileCheck %s --check-prefix=DEF --input-file=%t.def.json
// RUN: %clang %cudaflags -O2 -S -emit-llvm %clangplugin \
// RUN:   -mllvm -energy-default-trip-count=3 \
// RUN:   -mllvm -energy-features-json=%t.3.json %s -o %t.3.ll
// RUN: FileCheck %s --check-prefix=T3 --input-file=%t.3.json

// Per iteration: the add and the exit compare, the two loads.
// DEF:      "kernel": "row_sum",
// DEF:        "fp32_ops": 16,
// DEF:        "global_loads": 16,
// DEF:        "unknown_trip_loops": 1
// T3:       "kernel": "row_sum",
// T3:         "fp32_ops": 6,
// T3:         "global_loads": 6,
// T3:         "unknown_trip_loops": 1

extern "C" __global__ void row_sum(const float *x, float *out, int n) {
  float acc = 0.0f;
  int j = 0;
  #pragma clang loop unroll(disable)
  do {
    acc += x[j * blockDim.x + threadIdx.x];
    ++j;
  } while (x[j] > 0.0f); // stops at data: no trip count to compute
  out[threadIdx.x] = acc;
}
