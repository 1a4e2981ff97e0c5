// A loop that starts at the thread's index (i = threadIdx.x; i < n;
// i += 256) runs n / 256 times for the first thread: the index is an
// offset, taken as 0, not as an extent. Before, threadIdx.x was taken as
// 4096 like n, and the loop counted once.
// RUN: %clang %cudaflags -O2 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %t.ll 2>&1 \
// RUN:   | FileCheck %s
// CHECK-LABEL: kernel _Z7stridedPfi
// CHECK: global_stores: 16 accesses/thread
// CHECK: assumed: loop {{.*}}: trip count assumed 16 (bound depends on argument 2, taken as 4096)

__global__ void strided(float *x, int n) {
  for (int i = threadIdx.x; i < n; i += 256)
    x[i] *= 2.0f;
}
