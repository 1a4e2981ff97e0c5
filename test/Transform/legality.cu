// Block legality, default-deny: a shape other than the declared default is
// a candidate only when the kernel is proven correct at it or the source
// declares it. Stated rules replace what the code suggests; undeclared
// dynamic shared memory keeps the declared default even then; declared
// dynamic shared memory is counted per candidate and written into the
// launch record. Kernels that use shared memory, warp intrinsics or a
// 3-D thread index keep their default, and the patterns that make other
// shapes wrong (full-mask shuffles need whole warps, a tree's warp tail
// needs 64 threads) explain it and a refused force; a kernel that did not
// opt in and assumes its block size gets no advice and is left alone.
// RUN: %clang %cudaflags -O2 -S %clangplugin -Rpass=energy -Rpass-analysis=energy -Rpass-missed=energy \
// RUN:   -mllvm -energy-report=%t.json %s -o %t.ptx 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %python %S/Inputs/report_summary.py %t.json | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: not %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-force-config=warpsum:48 %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARP
// RUN: not %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-force-config=reduce4:32 %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TAIL
// RUN: not %clang %cudaflags -O2 -S %clangplugin -DBAD_RULES %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADRULES
#include <energy/energy.cuh>

#ifdef BAD_RULES
ENERGY_BLOCK_RULES(stated, "pow2;max=lots");
#else
// A tree reduction that halves blockDim.x, stated correct for 96 and 128.
ENERGY_BLOCK_RULES(stated, "shapes=96,128");
#endif
ENERGY_KERNEL(stated) void stated(float *x) {
  __shared__ float s[1024];
  s[threadIdx.x] = x[threadIdx.x];
  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1)
    if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
  x[blockIdx.x] = s[0];
}

// Dynamic shared memory, one float per thread, undeclared.
ENERGY_KERNEL_BLOCK(dyn_undeclared, 128, 1) void dyn_undeclared(float *x) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

// The same, declared, with its shapes (it reverses any block's slice).
ENERGY_DYNAMIC_SHARED(dyn_declared, sizeof(float), 16);
ENERGY_BLOCK_RULES(dyn_declared, "max=1024");
ENERGY_KERNEL_BLOCK(dyn_declared, 128, 1) void dyn_declared(float *x) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

// 3-D blocks.
ENERGY_KERNEL_BLOCK(cube, 8, 8) void cube(float *x) {
  x[threadIdx.z * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x] += 1.0f;
}

// Full-mask shuffles need whole warps.
ENERGY_KERNEL(warpsum) void warpsum(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  x[i] = v;
}

// A guard caps the index: buf[32] is fine for any block.
ENERGY_KERNEL(guarded) void guarded(float *x) {
  __shared__ float buf[32];
  if (threadIdx.x < 32)
    buf[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[blockIdx.x * blockDim.x + threadIdx.x] += buf[threadIdx.x % 32];
}

// A tree for s > 32, then an unrolled warp tail reading s[tid + 32] for
// tid < 32: powers of two of at least 64 threads.
__device__ void warpReduce(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 32]; s[tid] += s[tid + 16]; s[tid] += s[tid + 8];
  s[tid] += s[tid + 4]; s[tid] += s[tid + 2]; s[tid] += s[tid + 1];
}
ENERGY_KERNEL(reduce4) void reduce4(const float *x, float *out, int n) {
  __shared__ float sdata[1024];
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? x[i] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Not opted in, and written for blocks of 256 threads.
__global__ void fixed256(float *x) {
  x[blockIdx.x * 256 + threadIdx.x] *= 2.0f;
}

// REMARK: remark: kernel stated: block stated rules "shapes=96,128": ENERGY_BLOCK_RULES in the source; they replace the inferred restrictions
// REMARK: remark: kernel stated: chose block {{96|128}} (
// REMARK: remark: kernel dyn_undeclared: block the declared default shape only: the kernel uses dynamic shared memory (extern __shared__) whose size per block is not declared (ENERGY_DYNAMIC_SHARED)
// REMARK: remark: kernel dyn_undeclared: chose block 128 (
// REMARK: remark: kernel cube: block the declared default shape only: not proven correct at another shape: threadIdx.x is used without blockIdx.x: the code depends on the size of its block
// REMARK: remark: kernel cube: block the declared default shape only: the kernel reads threadIdx.z or blockDim.z, and 3-D shapes are not searched
// REMARK: remark: kernel cube: chose block 8x8 (
// REMARK: remark: kernel warpsum: block the declared default shape only: not proven correct at another shape: it uses warp- or block-level operations (llvm.nvvm.shfl.sync.down.f32)
// REMARK: remark: kernel warpsum: block threads a multiple of 32: warp intrinsics use the full mask 0xffffffff
// REMARK: remark: kernel warpsum: chose block 256 (
// REMARK: remark: kernel guarded: block the declared default shape only: not proven correct at another shape: it uses shared memory ('guarded(float*)::buf')
// REMARK: remark: kernel guarded: chose block 256 (
// REMARK: remark: kernel reduce4: block the declared default shape only: not proven correct at another shape: it uses shared memory ('reduce4(float const*, float*, int)::sdata')
// REMARK: remark: kernel reduce4: block block.x a power of two: a loop halves blockDim.x
// REMARK: remark: kernel reduce4: chose block 256 (
// REMARK: remark: kernel fixed256(float*) left alone: kernel 'fixed256(float*)': no advice: no other block shape is known to be correct for it (the kernel reads threadIdx.x but not blockDim.x, so its code assumes the block size)

// REPORT: stated: 2 candidates, 30 shapes not correct
// REPORT: dyn_undeclared: 1 candidates, 31 shapes not correct
// REPORT: dyn_declared: 32 candidates, 0 shapes not correct, shared bytes = 4 * threads + 16
// REPORT: cube: 1 candidates, 32 shapes not correct
// REPORT: warpsum: 1 candidates, 31 shapes not correct
// REPORT: guarded: 1 candidates, 31 shapes not correct
// REPORT: reduce4: 1 candidates, 31 shapes not correct
// REPORT: skipped fixed256(float*)

// The launch record carries the dynamic shared memory of the chosen block.
// PTX: .global .align 4 .b8 __energy_launch_dyn_undeclared[20] = {128, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1};
// PTX-LABEL: .entry _Z14dyn_undeclaredPf(
// PTX: .reqntid 128, 1, 1

// WARP: error: energy-optimize: kernel 'warpsum': forced block 48 is not correct for it: full-mask warp intrinsics need a multiple of 32 threads
// TAIL: error: energy-optimize: kernel 'reduce4': forced block 32 is not correct for it: threads below 32 read 'reduce4(float const*, float*, int)::sdata' at threadIdx.x + 32, which only a block of 64 threads or more has written
// BADRULES: error: energy-optimize: ENERGY_BLOCK_RULES "pow2;max=lots": 'max' needs a positive integer
