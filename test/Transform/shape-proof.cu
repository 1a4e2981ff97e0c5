// Default-deny legality: a block shape other than the declared default is a
// candidate only where the kernel is proven to compute the same at it
// (lib/Transform/ShapeInvariance.h): its threads' work follows a global
// index (blockIdx * blockDim + threadIdx, loops over a thread's items in
// block or grid steps, a grid-stride loop) behind a bound check, and nothing
// else depends on the block. Each kernel below is opted in at a default
// block its host could launch with; the proven ones get every shape of the
// search (32 one-dimensional, 33 two-dimensional), the others keep their
// default, and the remark and the report say why. A forced shape goes
// through the same check.
// RUN: %clang %cudaflags -O2 -S %clangplugin -Rpass-analysis=energy \
// RUN:   -mllvm -energy-report=%t.json %s -o /dev/null 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %python %S/Inputs/report_summary.py %t.json | FileCheck %s --check-prefix=REPORT
// The same at -O0, where every register and tunable is read where it is used.
// RUN: %clang %cudaflags -O0 -S %clangplugin -mllvm -energy-report=%t.O0.json %s -o /dev/null
// RUN: %python %S/Inputs/report_summary.py %t.O0.json | FileCheck %s --check-prefix=REPORT
// RUN: not %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-force-config=block_const:128 \
// RUN:   %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORCE
// RUN: %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-force-config=grid_stride:96 %s -o - \
// RUN:   | FileCheck %s --check-prefix=PROVEN-FORCE
#include <energy/energy.cuh>

// A tunable is one variable: each kernel gets its own.
ENERGY_TUNABLE_PER_THREAD(ITEMS_B, 1, 1, 2, 4);
ENERGY_TUNABLE_PER_THREAD(ITEMS_G, 1, 1, 2, 4);
ENERGY_TUNABLE_PER_THREAD(ITEMS_C, 1, 1, 2, 4);

extern "C" {

// Proven: the global index behind a bound check.
ENERGY_KERNEL(global_index) void global_index(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

// Proven: a grid-stride loop, whatever its stride (the grid follows the
// block, or not).
ENERGY_KERNEL(grid_stride) void grid_stride(int n, float *x) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] *= 2.0f;
}

// Proven: items per thread in steps of the block (a block covers
// blockDim.x * ITEMS consecutive items).
ENERGY_KERNEL(block_steps) void block_steps(int n, float *x) {
  const int items = ENERGY_VALUE(ITEMS_B);
  int i = blockIdx.x * blockDim.x * items + threadIdx.x;
  for (int k = 0; k < items; ++k, i += blockDim.x)
    if (i < n)
      x[i] += 1.0f;
}

// Proven: items per thread in steps of the whole grid.
ENERGY_KERNEL(grid_steps) void grid_steps(int n, float *x) {
  const int items = ENERGY_VALUE(ITEMS_G);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < items; ++k, i += gridDim.x * blockDim.x)
    if (i < n)
      x[i] += 1.0f;
}

// Proven: consecutive items per thread (the loop works inside one unit).
ENERGY_KERNEL(contiguous) void contiguous(int n, float *x) {
  const int items = ENERGY_VALUE(ITEMS_C);
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < items; ++k)
    if (t * items + k < n)
      x[t * items + k] += 1.0f;
}

// Proven: a 2-D global index, a 2-D grid of 2-D blocks; the default 32x8.
ENERGY_KERNEL_BLOCK(two_d, 32, 8)
void two_d(int w, int h, const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  out[y * w + x] = in[y * w + x] + in[y * w + (x + 1) % w];
}

// Proven: blockIdx.z picks a plane; blocks stay one plane deep.
ENERGY_KERNEL(planes) void planes(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[blockIdx.z * n + i] += 1.0f;
}

// A grid fixed whatever the block (ENERGY_GRID) covers the same units only
// through a grid-stride loop: proven with one, not with a bound check alone.
ENERGY_GRID(fixed_stride, 64, 1, 1);
ENERGY_KERNEL(fixed_stride) void fixed_stride(int n, float *x) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] *= 2.0f;
}
ENERGY_GRID(fixed_guard, 64, 1, 1);
ENERGY_KERNEL(fixed_guard) void fixed_guard(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

// Proven: inline assembly that only computes on its operands and its own
// registers (CUDA's sinf and cosf carry arithmetic, a declared register).
ENERGY_KERNEL(trig) void trig(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = sinf(x[i]) + cosf(x[i]);
}
ENERGY_KERNEL(own_registers) void own_registers(int n, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, r;
  asm("{ .reg .b32 %%t<2>; add.s32 %%t0, %1, 1; mul.lo.s32 %0, %%t0, 3; }"
      : "=r"(r) : "r"(i));
  if (i < n)
    y[i] = r;
}

// Not proven: inline assembly that reads the lane or shuffles.
ENERGY_KERNEL(lane_asm) void lane_asm(int n, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (i < n)
    y[i] = lane;
}
ENERGY_KERNEL(shuffle_asm) void shuffle_asm(int n, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, r;
  asm("shfl.sync.bfly.b32 %0, %1, 1, 31, -1;" : "=r"(r) : "r"(i));
  if (i < n)
    y[i] = r;
}

// Not proven: the block size is written as a constant.
ENERGY_KERNEL(block_const) void block_const(int n, float *x) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

// Not proven: the warp of a thread (threadIdx.x / 32) indexes the output.
ENERGY_KERNEL(per_warp) void per_warp(int n, const float *x, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[blockIdx.x * 8 + threadIdx.x / 32], x[i]);
}

// Not proven: the item's number within its thread is written out (which
// iteration handles an item changes with the block).
ENERGY_TUNABLE_PER_THREAD(ITEMS_W, 1, 1, 2, 4);
ENERGY_KERNEL(which_item) void which_item(int n, int *x) {
  const int items = ENERGY_VALUE(ITEMS_W);
  int i = blockIdx.x * blockDim.x * items + threadIdx.x;
  for (int k = 0; k < items; ++k, i += blockDim.x)
    if (i < n)
      x[i] = k;
}

// Not proven: one thread per block writes.
ENERGY_KERNEL(leader) void leader(int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && threadIdx.x == 0)
    out[blockIdx.x] = 1.0f;
}

// Not proven: no bound check, so threads past the work write at another
// block.
ENERGY_KERNEL(unguarded) void unguarded(float *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

// Not proven: each thread's partial sum covers the items its grid stride
// gives it, which change with the block.
ENERGY_KERNEL(partial_sums) void partial_sums(int n, const float *x, float *out) {
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s += x[i];
  atomicAdd(out, s);
}

// Not proven: the first item found ends a thread's loop.
ENERGY_KERNEL(find_first) void find_first(int n, const float *x, int *at) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    if (x[i] < 0.0f) {
      atomicMin(at, i);
      break;
    }
}

// Not proven: the last block does something else.
ENERGY_KERNEL(last_block) void last_block(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = blockIdx.x == gridDim.x - 1 ? 1.0f : 0.0f;
}

// Not proven: one thread does all the work (written for <<<1, 1>>>).
ENERGY_KERNEL_BLOCK(single, 1, 1) void single(int n, float *x) {
  for (int i = 1; i < n; ++i)
    x[i] += x[i - 1];
}

// Not proven: a bound on the linear index of a 2-D unit bounds x only by
// w * (h - y), not by the w the grid covers (threads past a row's end
// would write the next row's cells), also with rows by blockIdx.y.
ENERGY_KERNEL_BLOCK(linear_bound, 16, 16)
void linear_bound(int w, int h, int *count) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int idx = y * w + x;
  if (idx < w * h)
    atomicAdd(&count[idx], 1);
}
ENERGY_KERNEL(row_bound) void row_bound(int w, int h, int *count) {
  int idx = blockIdx.y * w + blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < w * h)
    atomicAdd(&count[idx], 1);
}

// Not proven: a running sum carried from one item to the next through a
// volatile local, or through a local array indexed at run time.
ENERGY_KERNEL(carried_volatile) void carried_volatile(int n, const float *x,
                                                      float *y) {
  volatile float acc = 0.0f;
  for (int k = 0; k < 2; ++k) {
    int i = blockIdx.x * blockDim.x * 2 + k * blockDim.x + threadIdx.x;
    if (i < n) {
      acc = acc + x[i];
      y[i] = acc;
    }
  }
}
ENERGY_KERNEL(carried_array) void carried_array(int n, int sel, const float *x,
                                                float *y) {
  float acc[2] = {0.0f, 0.0f};
  for (int k = 0; k < 2; ++k) {
    int i = blockIdx.x * blockDim.x * 2 + k * blockDim.x + threadIdx.x;
    if (i < n) {
      acc[sel] += x[i];
      y[i] = acc[sel];
    }
  }
}

// Not proven: a store only the threads past the work run (whether any runs
// depends on the block).
ENERGY_KERNEL(mark_tail) void mark_tail(int n, const float *x, float *y,
                                        int *tail) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
  else
    *tail = 1;
}

// Not proven: shared memory.
ENERGY_KERNEL(staged) void staged(int n, const float *x, float *y) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n)
    y[i] = s[threadIdx.x];
}

// Not proven: warp shuffles.
ENERGY_KERNEL(shuffled) void shuffled(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  if (i < n)
    x[i] = v;
}
}

// REMARK-DAG: remark: kernel global_index: block any shape (proven correct)
// REMARK-DAG: remark: kernel grid_stride: block any shape (proven correct)
// REMARK-DAG: remark: kernel block_steps: block any shape (proven correct)
// REMARK-DAG: remark: kernel grid_steps: block any shape (proven correct)
// REMARK-DAG: remark: kernel contiguous: block any shape (proven correct)
// REMARK-DAG: remark: kernel two_d: block any shape (proven correct)
// REMARK-DAG: remark: kernel planes: block any shape (proven correct)
// REMARK-DAG: remark: kernel fixed_stride: block any shape (proven correct)
// REMARK-DAG: remark: kernel fixed_guard: block the declared default shape only: not proven correct at another shape: the grid is fixed whatever the block (ENERGY_GRID), and no grid-stride loop covers the work at another block
// REMARK-DAG: remark: kernel trig: block any shape (proven correct)
// REMARK-DAG: remark: kernel own_registers: block any shape (proven correct)
// REMARK-DAG: remark: kernel lane_asm: block the declared default shape only: not proven correct at another shape: it runs inline assembly ('mov.u32 $0, %laneid;')
// REMARK-DAG: remark: kernel shuffle_asm: block the declared default shape only: not proven correct at another shape: it runs inline assembly ('shfl.sync.bfly.b32
// REMARK-DAG: remark: kernel block_const: block the declared default shape only: not proven correct at another shape: blockIdx.x is multiplied by 256, not by blockDim.x: the code assumes that many threads per block ({{.*}}shape-proof.cu:139)
// REMARK-DAG: remark: kernel per_warp: block the declared default shape only: not proven correct at another shape: blockIdx.x is used without threadIdx.x: a block's work then depends on how many threads it has ({{.*}}shape-proof.cu:147)
// REMARK-DAG: remark: kernel which_item: block the declared default shape only: not proven correct at another shape: the counter of a loop over a thread's work items is used for more than the item
// REMARK-DAG: remark: kernel leader: block the declared default shape only: not proven correct at another shape: threadIdx.x is used without blockIdx.x: the code depends on the size of its block ({{.*}}shape-proof.cu:164)
// REMARK-DAG: remark: kernel unguarded: block the declared default shape only: not proven correct at another shape: a memory access is not behind a bound check on the global index along x (if (i < n)): at another block the threads past the work would run it ({{.*}}shape-proof.cu:171)
// REMARK-DAG: remark: kernel partial_sums: block the declared default shape only: not proven correct at another shape: a loop over a thread's work items carries a value from one item to the next
// REMARK-DAG: remark: kernel find_first: block the declared default shape only: not proven correct at another shape: a loop over a thread's work items (a grid-stride loop) has an exit other than its bound check on the index
// REMARK-DAG: remark: kernel last_block: block the declared default shape only: not proven correct at another shape: blockIdx.x is used without threadIdx.x
// REMARK-DAG: remark: kernel single: block the declared default shape only: not proven correct at another shape: the block's x extent may change, but the kernel's work does not follow threadIdx.x
// REMARK-DAG: remark: kernel linear_bound: block the declared default shape only: not proven correct at another shape: a memory access is not behind a bound check on the global index along x
// REMARK-DAG: remark: kernel row_bound: block the declared default shape only: not proven correct at another shape: a memory access is not behind a bound check on the global index along x
// REMARK-DAG: remark: kernel carried_volatile: block the declared default shape only: not proven correct at another shape: a loop over a thread's work items carries a value from one item to the next through local memory
// REMARK-DAG: remark: kernel carried_array: block the declared default shape only: not proven correct at another shape: a loop over a thread's work items carries a value from one item to the next through local memory
// REMARK-DAG: remark: kernel mark_tail: block the declared default shape only: not proven correct at another shape: a memory access is not behind a bound check on the global index along x
// REMARK-DAG: remark: kernel staged: block the declared default shape only: not proven correct at another shape: it uses shared memory ('staged::s')
// REMARK-DAG: remark: kernel shuffled: block the declared default shape only: not proven correct at another shape: it uses warp- or block-level operations (llvm.nvvm.shfl.sync.bfly.f32)

// REPORT: global_index: 32 candidates, 0 shapes not correct
// REPORT: grid_stride: 32 candidates, 0 shapes not correct
// REPORT: block_steps: 96 candidates, 0 shapes not correct
// REPORT: grid_steps: 96 candidates, 0 shapes not correct
// REPORT: contiguous: 96 candidates, 0 shapes not correct
// REPORT: two_d: 33 candidates, 0 shapes not correct
// REPORT: planes: 32 candidates, 0 shapes not correct
// REPORT: fixed_stride: 32 candidates, 0 shapes not correct
// REPORT: fixed_guard: 1 candidates, 31 shapes not correct
// REPORT: trig: 32 candidates, 0 shapes not correct
// REPORT: own_registers: 32 candidates, 0 shapes not correct
// REPORT: lane_asm: 1 candidates, 31 shapes not correct
// REPORT: shuffle_asm: 1 candidates, 31 shapes not correct
// REPORT: block_const: 1 candidates, 31 shapes not correct
// REPORT: per_warp: 1 candidates, 31 shapes not correct
// REPORT: which_item: 3 candidates, 93 shapes not correct
// REPORT: leader: 1 candidates, 31 shapes not correct
// REPORT: unguarded: 1 candidates, 31 shapes not correct
// REPORT: partial_sums: 1 candidates, 31 shapes not correct
// REPORT: find_first: 1 candidates, 31 shapes not correct
// REPORT: last_block: 1 candidates, 31 shapes not correct
// REPORT: single: 1 candidates, 32 shapes not correct
// REPORT: linear_bound: 1 candidates, 32 shapes not correct
// REPORT: row_bound: 1 candidates, 31 shapes not correct
// REPORT: carried_volatile: 1 candidates, 31 shapes not correct
// REPORT: carried_array: 1 candidates, 31 shapes not correct
// REPORT: mark_tail: 1 candidates, 31 shapes not correct
// REPORT: staged: 1 candidates, 31 shapes not correct
// REPORT: shuffled: 1 candidates, 31 shapes not correct

// FORCE: error: energy-optimize: kernel 'block_const': forced block 128 is not correct for it: the kernel assumes block.x = 256; it is not proven correct at another shape (blockIdx.x is multiplied by 256, not by blockDim.x
// PROVEN-FORCE: .reqntid 96, 1, 1
