// ENERGY_TRIP(count) in a loop states its iterations per entry where the
// code does not tell (a list walk stops on data): the loop weighs them,
// the report says the count is stated, and the code is the same as
// without the statement (a PTX comment). Without it the loop takes the
// default 8. Each statement counts for the innermost loop it is in.
// RUN: %clang %cudaflags -O3 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %t.ll 2>&1 \
// RUN:   | FileCheck %s
// CHECK-LABEL: kernel _Z5chasePKiPKfPfi
// CHECK: global_loads: 40 accesses/thread
// CHECK: unknown_trip_loops: 1 count
// CHECK: assumed: loop {{.*}}: trip count 20, stated in the loop (ENERGY_TRIP)
// CHECK-LABEL: kernel _Z6nestedPKiPKfPfi
// Outer walk: 5 per entry (a load each), inner: 3 per entry (2 loads each).
// CHECK: global_loads: 35 accesses/thread
// CHECK: assumed: loop {{.*}}: trip count 5, stated in the loop (ENERGY_TRIP)
// CHECK: assumed: loop {{.*}}: trip count 3, stated in the loop (ENERGY_TRIP)
//
// RUN: %clang %cudaflags -O3 -S -emit-llvm -DNO_TRIP %s -o %t.none.ll
// RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %t.none.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE-LABEL: kernel _Z5chasePKiPKfPfi
// NONE: global_loads: 16 accesses/thread
// NONE: assumed: loop {{.*}}: trip count assumed 8 (not computable from the code; -energy-default-trip-count)
//
// RUN: %clang %cudaflags -O3 -S %s -o %t.ptx
// RUN: %clang %cudaflags -O3 -S -DNO_TRIP %s -o %t.none.ptx
// The same instructions, up to the virtual registers' numbers:
// RUN: grep -v 'energy.trip\|inline asm' %t.ptx | sed -E 's/%%(r|rd|p|f)[0-9]+/%%\1/g' > %t.code.ptx
// RUN: grep -v 'inline asm' %t.none.ptx | sed -E 's/%%(r|rd|p|f)[0-9]+/%%\1/g' \
// RUN:   | diff %t.code.ptx -
#include <energy/energy.cuh>
#ifdef NO_TRIP
#undef ENERGY_TRIP
#define ENERGY_TRIP(N) do {} while (0)
#endif

__global__ void chase(const int *next, const float *val, float *out, int head) {
  float sum = 0;
  for (int node = head + threadIdx.x; node >= 0; node = next[node]) {
    ENERGY_TRIP(20);
    sum += val[node];
  }
  out[threadIdx.x] = sum;
}

__global__ void nested(const int *next, const float *val, float *out,
                       int head) {
  float sum = 0;
  for (int list = head + threadIdx.x; list >= 0; list = next[list]) {
    ENERGY_TRIP(5);
    for (int node = list; node >= 0; node = next[node]) {
      ENERGY_TRIP(3);
      sum += val[node];
    }
  }
  out[threadIdx.x] = sum;
}
