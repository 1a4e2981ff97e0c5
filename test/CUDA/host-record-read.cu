// The host side of energy.cuh, run against a fake CUDA runtime
// (Inputs/fake-cudart.cpp): no GPU needed.
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -c %s -o %t.o
// RUN: %clang -x c++ -O2 -I %cuda_path/include -c %S/Inputs/fake-cudart.cpp -o %t.fake.o
// RUN: %clang %t.o %t.fake.o -lstdc++ -o %t.prog
//
// The record read: ENERGY_BLOCK_DIM and ENERGY_LAUNCH use it (the fake
// reads FAKE_RECORD's first field as a tunable's value).
// RUN: env FAKE_RECORD=512,1,1,0,2 %t.prog | FileCheck %s --check-prefix=READ
// READ: scale: block 512x1x1 record error 0
// READ-NEXT: launch grid 1024x1x1 block 512x1x1 dynamic shared 0: no error
// READ-NEXT: ENERGY_LAUNCH(scale) returns 0
// READ-NEXT: ITEMS 512
// READ: tile<float>: block 512x1x1 record error 0
//
// When the record cannot be read (here cudaErrorNoDevice, 100; without a
// driver cudart says cudaErrorInsufficientDriver, 35), the host falls back
// to the compiled default: ENERGY_BLOCK_DIM was 0x0x0 before. The error is
// ENERGY_RECORD_ERROR's, and ENERGY_LAUNCH launches with the default and
// returns it.
// RUN: env FAKE_READ_ERROR=100 %t.prog | FileCheck %s --check-prefix=FAIL
// FAIL: scale: block 256x1x1 record error 100
// FAIL-NEXT: launch grid 4096x1x1 block 256x1x1 dynamic shared 0: no error
// FAIL-NEXT: ENERGY_LAUNCH(scale) returns 100
// FAIL-NEXT: ITEMS 1
// FAIL: dyn: block 128x1x1 dynamic shared 528 record error 100
// FAIL: tile<float>: block 32x8x1 record error 100
//
// Dynamic shared memory over 48 KB per block: ENERGY_LAUNCH opts in first
// (cudaFuncSetAttribute), so the launch succeeds; at 48 KB or less it sets
// nothing, unless the kernel's static shared memory takes the block over.
// RUN: env FAKE_RECORD=512,1,1,65536,1 %t.prog | FileCheck %s --check-prefix=OVER
// OVER-LABEL: dyn: block 512x1x1 dynamic shared 65536 record error 0
// OVER-NEXT: cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 65536)
// OVER-NEXT: launch grid 2048x1x1 block 512x1x1 dynamic shared 65536: no error
// OVER-NEXT: ENERGY_LAUNCH(dyn) returns 0
// RUN: env FAKE_RECORD=512,1,1,40000,1 %t.prog | FileCheck %s --check-prefix=UNDER
// UNDER-LABEL: dyn: block 512x1x1 dynamic shared 40000 record error 0
// UNDER-NEXT: launch grid 2048x1x1 block 512x1x1 dynamic shared 40000: no error
// RUN: env FAKE_RECORD=512,1,1,40000,1 FAKE_STATIC_SHARED=16384 %t.prog \
// RUN:   | FileCheck %s --check-prefix=STATIC
// STATIC-LABEL: dyn: block 512x1x1 dynamic shared 40000 record error 0
// STATIC-NEXT: cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 40000)
// STATIC-NEXT: launch grid 2048x1x1 block 512x1x1 dynamic shared 40000: no error
#include <energy/energy.cuh>
#include <cstdio>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2);
ENERGY_KERNEL(scale) void scale(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < ENERGY_VALUE(ITEMS); ++k)
    if (i + k * gridDim.x * blockDim.x < n)
      y[i + k * gridDim.x * blockDim.x] *= 2.0f;
}

ENERGY_DYNAMIC_SHARED(dyn, sizeof(float), 16);
ENERGY_KERNEL_BLOCK(dyn, 128, 1) void dyn(float *x) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

ENERGY_KERNEL_TEMPLATE_BLOCK(tile, (typename T), (T), 32, 8)
void tile(T *x) { x[threadIdx.y * blockDim.x + threadIdx.x] += T(1); }

int main() {
  const int n = 1 << 20;
  dim3 b = ENERGY_BLOCK_DIM(scale);
  printf("scale: block %ux%ux%u record error %d\n", b.x, b.y, b.z,
         int(ENERGY_RECORD_ERROR(scale)));
  printf("ENERGY_LAUNCH(scale) returns %d\n",
         int(ENERGY_LAUNCH(n, scale)(n, (float *)0)));
  // A tunable's host value falls back to its default too (it was 0).
  printf("ITEMS %d\n", ENERGY_HOST_VALUE(ITEMS));

  b = ENERGY_BLOCK_DIM(dyn);
  printf("dyn: block %ux%ux%u dynamic shared %u record error %d\n", b.x, b.y,
         b.z, ENERGY_DYNAMIC_SMEM(dyn), int(ENERGY_RECORD_ERROR(dyn)));
  printf("ENERGY_LAUNCH(dyn) returns %d\n",
         int(ENERGY_LAUNCH(n, dyn)((float *)0)));

  b = ENERGY_BLOCK_DIM(tile<float>);
  printf("tile<float>: block %ux%ux%u record error %d\n", b.x, b.y, b.z,
         int(ENERGY_RECORD_ERROR(tile<float>)));
  tile<float><<<1, ENERGY_BLOCK_DIM(tile<float>)>>>((float *)0);
  return 0;
}
