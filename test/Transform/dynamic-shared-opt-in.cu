// A launch with more than 48 KB of shared memory per block needs the
// cudaFuncSetAttribute opt-in first. ENERGY_LAUNCH makes it; a launch by hand
// with ENERGY_DYNAMIC_SMEM does not (or only for what its default needed).
// So a candidate may need the opt-in only when the default block does, and
// then with no more dynamic shared memory than the default's.
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
//
// stream and small: 150 bytes per thread, 38,400 at their default 256 (no
// opt-in). The free search chose 768 threads and 115,200 bytes for stream
// before; now its record stays under 48 KB.
// RUN: %opt %loadenergy -passes=energy-optimize %t.ll -S -o %t.opt.ll
// RUN: %python -c "import re,sys; m=re.search(r'@__energy_launch_stream = .*\] \[i32 (\d+), i32 1, i32 1\], i32 (\d+),', open(sys.argv[1]).read()); \
// RUN:   print('stream', 'fits' if int(m.group(2)) <= 49152 else 'over 48 KB', int(m.group(2)) == 150 * int(m.group(1)))" %t.opt.ll \
// RUN:   | FileCheck %s --check-prefix=FREE
// FREE: stream fits True
//
//
// Forced past 48 KB: an error. 320 threads need 48,000 bytes: accepted.
// RUN: not %opt %loadenergy -passes=energy-optimize -energy-force-config=small:512 %t.ll \
// RUN:   -disable-output 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: error: energy-optimize: kernel 'small': forced block 512 needs 76800 bytes of shared memory per block (76800 dynamic), more than the 49152 bytes CUDA launches without the cudaFuncSetAttribute opt-in, and its default block 256 (38400 bytes) needs no opt-in: a launch by hand with ENERGY_DYNAMIC_SMEM would fail
// RUN: %opt %loadenergy -passes=energy-optimize -energy-force-config=small:320 %t.ll -S -o - \
// RUN:   | FileCheck %s --check-prefix=SMALL320
// SMALL320: @__energy_launch_small = {{.*}} { [3 x i32] [i32 320, i32 1, i32 1], i32 48000, i32 1 }
//
// big: its default (256 threads, 65,536 bytes) already needs the opt-in, so
// candidates may too, up to its bytes: 128 threads yes, 512 no.
// RUN: %opt %loadenergy -passes=energy-optimize -energy-force-config=big:128 %t.ll -S -o - \
// RUN:   | FileCheck %s --check-prefix=BIG128
// BIG128: @__energy_launch_big = {{.*}} { [3 x i32] [i32 128, i32 1, i32 1], i32 32768, i32 1 }
// RUN: not %opt %loadenergy -passes=energy-optimize -energy-force-config=big:512 %t.ll \
// RUN:   -disable-output 2>&1 | FileCheck %s --check-prefix=BIG512
// BIG512: error: energy-optimize: kernel 'big': forced block 512 needs 131072 bytes of shared memory per block (131072 dynamic), more than the 49152 bytes CUDA launches without the cudaFuncSetAttribute opt-in, and more dynamic shared memory than its default block 256 (65536 bytes) opts in to: a launch by hand with ENERGY_DYNAMIC_SMEM would fail
// RUN: %opt %loadenergy -passes=energy-optimize %t.ll -S -o - \
// RUN:   | FileCheck %s --check-prefix=BIGFREE
// BIGFREE: @__energy_launch_big = {{.*}} { [3 x i32] [i32 {{32|64|96|128|160|192|224|256}}, i32 1, i32 1], i32 {{[0-9]+}}, i32 1 }
#include <energy/energy.cuh>

ENERGY_WORKLOAD(small, 1 << 24);
// small and big rotate each block's slice through shared memory, correct at
// any block: they declare their shapes, as the plugin proves none for
// shared memory.
ENERGY_DYNAMIC_SHARED(small, 150, 0);
ENERGY_BLOCK_RULES(small, "max=1024");
ENERGY_KERNEL(small) void small(float *y) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = y[i];
  __syncthreads();
  y[i] = s[(threadIdx.x + 1) % blockDim.x];
}

// Declares the memory without using it (a streaming kernel: large blocks
// predicted best).
ENERGY_WORKLOAD(stream, 1 << 24);
ENERGY_DYNAMIC_SHARED(stream, 150, 0);
ENERGY_KERNEL(stream) void stream(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 1.0f;
}

ENERGY_DYNAMIC_SHARED(big, 256, 0);
ENERGY_BLOCK_RULES(big, "max=1024");
ENERGY_KERNEL(big) void big(float *y) {
  extern __shared__ float t[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = y[i];
  __syncthreads();
  y[i] = t[(threadIdx.x + 1) % blockDim.x];
}
