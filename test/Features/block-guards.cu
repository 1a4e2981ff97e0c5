// Code behind a comparison of a block index with a value every thread has
// alike runs for a share of the grid's blocks, as code behind a thread
// index's runs for a share of a block's threads (leader-guards.cu): with
// the grid known, `blockIdx.x == 0` counts for 1 / gridDim.x of the
// threads, `blockIdx.x < 2` for 2 / gridDim.x, `blockIdx.x == k` (k an
// argument) for 1 / gridDim.x, and a linear block id `blockIdx.y *
// gridDim.x + blockIdx.x == 3` for 1 / (gridDim.x * gridDim.y). Before,
// each ran for every block.
//
// By hand, each guarded region loads one float and stores one; every
// thread loads and stores one more:
//   grid 10x4: 1 + 1/10 + 2/10 + 1/10 + 1/40 = 1.425 loads (and stores)
//   grid 3x1 (not a power of two; the linear id 3 names no block):
//              1 + 1/3 + 2/3 + 1/3 + 0 = 2.3333
//   grid 16x16 at block 96: 1 + 1/16 + 2/16 + 1/16 + 1/256 = 1.25390625
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=block_guards:128,grid=10x4 \
// RUN:   -mllvm -energy-report=%t.10x4.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=G10X4 --input-file=%t.10x4.json
// G10X4: "global_loads": 1.425
// G10X4: "global_stores": 1.425
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=block_guards:128,grid=3 \
// RUN:   -mllvm -energy-report=%t.3.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=G3 --input-file=%t.3.json
// G3: "global_loads": 2.33333
// RUN: %clang %cudaflags -O0 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=block_guards:96,grid=16x16 \
// RUN:   -mllvm -energy-report=%t.16x16.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=G16X16 --input-file=%t.16x16.json
// G16X16: "global_loads": 1.25390625,
//
// Without the grid (here a 2-D block on the default workload, which gives
// the model a number of blocks but no grid per axis) the guards cannot be
// weighed: every block is taken to run them, 5 loads.
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=block_guards:64x2 \
// RUN:   -mllvm -energy-report=%t.nogrid.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=NOGRID --input-file=%t.nogrid.json
// NOGRID: "global_loads": 5,

extern "C" __global__ void block_guards(const float *in, float *out,
                                        const float *a, float *oa,
                                        const float *b, float *ob,
                                        const float *c, float *oc,
                                        const float *d, float *od, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  if (blockIdx.x == 0)
    oa[threadIdx.x] = a[threadIdx.x];
  if (blockIdx.x < 2)
    ob[i] = b[i];
  if (blockIdx.x == k)
    oc[threadIdx.x] = c[threadIdx.x];
  if (blockIdx.y * gridDim.x + blockIdx.x == 3)
    od[threadIdx.x] = d[threadIdx.x];
}
