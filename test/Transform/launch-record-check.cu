// The host compile stops where an opted-in kernel is launched with a block
// that does not come from its launch record: the plugin may compile the
// kernel for another block (reqntid, blockDim folded), and such a launch
// then fails (clang) or computes wrong results (nvcc with ENERGY_CHOICES).
// energy-launch-check follows each launch's block to where it comes from,
// on the IR clang emits at the pipeline's start: the same at -O0 and -O2.
// Errors name the line where the IR has locations (-g, or a -Rpass pattern,
// which energy-cuda adds); the host IR is the same with and without it.
//
// RUN: not %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O0 %clangplugin -Rpass=energy-locations-only -DBAD -S -emit-llvm %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 %clangplugin -Rpass=energy-locations-only -DBAD -c %s -o %t.o 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.o
//
// Correct launches compile, at -O0 and -O2, to the host IR of a compile
// without the plugin.
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O0 -S -emit-llvm %s -o %t.plain0.ll
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O0 %clangplugin -S -emit-llvm %s -o %t.plugin0.ll
// RUN: diff %t.plain0.ll %t.plugin0.ll
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -S -emit-llvm %s -o %t.plain2.ll
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 %clangplugin -S -emit-llvm %s -o %t.plugin2.ll
// RUN: diff %t.plain2.ll %t.plugin2.ll
//
// Without locations, the error names the file and the function.
// RUN: not %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 %clangplugin -DBAD -S -emit-llvm %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOLINE
// NOLINE: error: {{.*}}launch-record-check.cu: in function 'constant(int, float*)' (-g gives the line): kernel 'scale' (ENERGY_KERNEL) is launched with block 256, not with the block of its launch record
//
// A block from a parameter of a function other files may call is checked
// at this file's callers only; a remark says so.
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 %clangplugin -Rpass-analysis=energy -S -emit-llvm %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
#include <energy/energy.cuh>
#include <string>

ENERGY_KERNEL(scale) void scale(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 2.0f;
}
ENERGY_KERNEL_BLOCK(tile, 32, 8) void tile(float *y) {
  y[threadIdx.y * blockDim.x + threadIdx.x] = 1.0f;
}
ENERGY_KERNEL_TEMPLATE(scalet, (typename T), (T))
void scalet(int n, T *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= T(2);
}
namespace lib {
ENERGY_KERNEL(fill) void fill(float *y) { y[threadIdx.x] = 0.0f; }
void qualified(float *y) { fill<<<1, ENERGY_BLOCK_DIM(fill)>>>(y); }
} // namespace lib
// Not opted in: any block.
__global__ void plain(float *y) { y[threadIdx.x] = 0.0f; }

// Launches that read the record.
void whole(int n, float *y) { scale<<<1, ENERGY_BLOCK_DIM(scale)>>>(n, y); }
void variable(int n, float *y) {
  dim3 block = ENERGY_BLOCK_DIM(scale);
  scale<<<(n + block.x - 1) / block.x, block>>>(n, y);
}
void fields(int n, float *y) {
  dim3 block(ENERGY_CHOICE(scale).block[0], ENERGY_CHOICE(scale).block[1]);
  scale<<<1, block>>>(n, y);
}
void record_ref(int n, float *y) {
  const energy::launch_record &r = ENERGY_CHOICE(scale);
  scale<<<1, dim3(r.block[0], r.block[1], r.block[2])>>>(n, y);
}
void reassigned(int n, float *y, bool again) {
  dim3 block = ENERGY_BLOCK_DIM(scale);
  if (again)
    block = ENERGY_BLOCK_DIM(scale);
  for (int i = 0; i < n; ++i)
    scale<<<1, block>>>(n, y);
}
static dim3 chosen() { return ENERGY_BLOCK_DIM(scale); }
void helper(int n, float *y) { scale<<<1, chosen()>>>(n, y); }
static void launch(int n, float *y, dim3 block) { scale<<<1, block>>>(n, y); }
void through(int n, float *y) { launch(n, y, ENERGY_BLOCK_DIM(scale)); }
void two_d(float *y) { tile<<<dim3(4, 4), ENERGY_BLOCK_DIM(tile)>>>(y); }
void instance(int n, float *y) {
  dim3 block = ENERGY_BLOCK_DIM(scalet<float>);
  scalet<float><<<1, block>>>(n, y);
}
void cleanups(int n, float *y, std::string name) { // an invoke
  std::string copy = name + "!";
  scale<<<1, ENERGY_BLOCK_DIM(scale)>>>(n, y);
}
void helper_launch(int n, float *y) { ENERGY_LAUNCH(n, scale)(n, y); }
void cached(int n, float *y) { // a function's static: what it stores there
  static dim3 block = ENERGY_BLOCK_DIM(scale);
  scale<<<1, block>>>(n, y);
}
inline void cached_inline(int n, float *y) {
  static const dim3 block = ENERGY_BLOCK_DIM(scale);
  scale<<<1, block>>>(n, y);
}
void use_inline(int n, float *y) { cached_inline(n, y); }
void not_opted_in(float *y) { plain<<<1, 256>>>(y); }
// An overload of an opted-in kernel's name is another kernel.
__global__ void scale(int n, double *y) { y[threadIdx.x] = n; }
void overload(int n, double *y) { scale<<<1, 256>>>(n, y); }
// A parameter of a function other files may call: checked at its callers
// here, not elsewhere.
void exported(float *y, dim3 block) { tile<<<1, block>>>(y); }
// REMARK: launch-record-check.cu:[[#@LINE-1]]:{{[0-9]+}}: remark: kernel tile is launched with a block from a parameter of 'exported(float*, dim3)', which other files may call: their blocks are not checked (they must come from ENERGY_BLOCK_DIM(tile))
void exported_ok(float *y) { exported(y, ENERGY_BLOCK_DIM(tile)); }

#ifdef BAD
void constant(int n, float *y) { scale<<<(n + 255) / 256, 256>>>(n, y); }
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-1]]: kernel 'scale' (ENERGY_KERNEL) is launched with block 256, not with the block of its launch record: the plugin may compile it for another block; launch it with ENERGY_LAUNCH(items, scale) or a block from ENERGY_BLOCK_DIM(scale)
void constant_2d(float *y) {
  dim3 block(16, 16);
  tile<<<1, block>>>(y);
}
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-2]]: kernel 'tile' (ENERGY_KERNEL) is launched with block 16x16, not with the block of its launch record
void halved(int n, float *y) {
  dim3 block = ENERGY_BLOCK_DIM(scale);
  block.x /= 2;
  scale<<<1, block>>>(n, y);
}
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-2]]: kernel 'scale' (ENERGY_KERNEL) is launched with a block whose x is computed, not with the block of its launch record
void x_only(int n, float *y) {
  int threads = ENERGY_BLOCK_DIM(tile).x;
  tile<<<1, threads>>>(y);
}
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-2]]: kernel 'tile' (ENERGY_KERNEL) is launched with a block whose y is the constant 1, not with the block of its launch record
void other_record(float *y) { tile<<<1, ENERGY_BLOCK_DIM(scale)>>>(y); }
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-1]]: kernel 'tile' (ENERGY_KERNEL) is launched with a block whose x comes from the record of 'scale', not with the block of its launch record
void one_branch(int n, float *y, bool small) {
  dim3 block = ENERGY_BLOCK_DIM(scale);
  if (small)
    block = dim3(64);
  scale<<<1, block>>>(n, y);
}
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-2]]: kernel 'scale' (ENERGY_KERNEL) is launched with a block whose x is the constant 64, not with the block of its launch record
void instance_constant(int n, float *y) { scalet<float><<<1, 128>>>(n, y); }
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-1]]: kernel 'scalet<float>' (ENERGY_KERNEL) is launched with block 128, not with the block of its launch record
namespace lib {
void qualified_constant(float *y) { fill<<<1, 64>>>(y); }
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-1]]: kernel 'lib::fill' (ENERGY_KERNEL) is launched with block 64, not with the block of its launch record
} // namespace lib
void cached_constant(int n, float *y) {
  static dim3 block(128);
  scale<<<1, block>>>(n, y);
}
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-2]]: kernel 'scale' (ENERGY_KERNEL) is launched with a block whose x is read from the variable 'cached_constant(int, float*)::block', initialized to a constant, not with
dim3 global_block; // any function (or file) may write it
void set_global() { global_block = ENERGY_BLOCK_DIM(scale); }
void global(int n, float *y) { scale<<<1, global_block>>>(n, y); }
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-1]]: kernel 'scale' (ENERGY_KERNEL) is launched with a block whose x is read from the variable 'global_block', not with the block of its launch record
void through_bad(int n, float *y) { launch(n, y, dim3(512)); }
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-1]]: kernel 'scale' (ENERGY_KERNEL) is launched at {{.*}}launch-record-check.cu:{{[0-9]+}} through this call of 'launch(int, float*, dim3)' with block 512, not with the block of its launch record
void exported_bad(float *y) { exported(y, dim3(32, 4)); }
// CHECK: error: {{.*}}launch-record-check.cu:[[#@LINE-1]]: kernel 'tile' (ENERGY_KERNEL) is launched at {{.*}}launch-record-check.cu:{{[0-9]+}} through this call of 'exported(float*, dim3)' with block 32x4, not with the block of its launch record
#endif
