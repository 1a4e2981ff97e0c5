// A recursive device function (/work/shared/repro/recursive-fib.cu): at -O2
// fib holds five calls of itself in a loop; energy-optimize inlined them 8
// rounds deep and ran > 10 minutes. Now the recursive calls are counted once
// each, with a note in the kernel's features. No other block is proven
// correct for code with a call the analysis cannot see, so the kernel gets no
// advice; its host's launch (a forced block) is planned to the end, from
// the cleaned-up code as advice is.
// RUN: %clang %cudaflags -O2 -emit-llvm -S %s -o %t.ll
// RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %t.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FEATURES
// RUN: %opt %loadenergy -passes=energy-optimize -energy-force-config=k:256 -energy-simplify=never \
// RUN:   -energy-report=%t.json -disable-output %t.ll
// RUN: FileCheck %s --input-file=%t.json

// FEATURES-LABEL: kernel _Z1kPii
// FEATURES:       note: recursive: each recursive call counted once, as a call

// CHECK:      "kernel": "k(int*, int)",
// CHECK:      "applied": false,
// CHECK:      "notes": [
// CHECK-NEXT:   "recursive: each recursive call counted once, as a call"
// CHECK-NEXT: ]

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void k(int *out, int n) { out[threadIdx.x + blockIdx.x * blockDim.x] = fib(n); }
