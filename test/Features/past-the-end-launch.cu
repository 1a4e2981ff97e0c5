// With the launch's grid and the sizes its bounds checks compare with known
// (a forced configuration's grid and argN=V), the threads past the
// problem's end are counted, not assumed away: a 1024-wide block over a
// 512-wide domain leaves half of its threads idle, and a block's footprint
// spans only the part within. Before, every launched thread was charged the
// full work: stencil3d on the H100 at 1024x1 threads over nx = 512 was
// predicted 2.3x slower than at 32x32 and measured 1.17x.
//
// Each kernel once with the launch's sizes, once without them (a launch
// sized to its problem: every thread within).
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=scale2d:1024x1,grid=1x64,arg3=512,arg4=64 \
// RUN:   -mllvm -energy-report=%t.2d.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=HALF --input-file=%t.2d.json
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=scale2d:1024x1,grid=1x64 \
// RUN:   -mllvm -energy-report=%t.2d-sized.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=SIZED --input-file=%t.2d-sized.json
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=tiled:256,grid=3,arg3=2100 \
// RUN:   -mllvm -energy-report=%t.tiled.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=TILED --input-file=%t.tiled.json
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=slabs:32x1x1,grid=1x1x8,arg3=32,arg4=16 \
// RUN:   -mllvm -energy-report=%t.slabs.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=SLABS --input-file=%t.slabs.json
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=pair:1024,grid=1,arg4=512 \
// RUN:   -mllvm -energy-report=%t.pair.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=PAIR --input-file=%t.pair.json

// `x >= nx || y >= ny`: x past 512 for half of the 1024 threads of each
// row; every y within. One load and one store for the 512 threads within:
// 0.5 per launched thread. The footprint: 512 of the block's 1024 columns,
// 2 x 512 x 4 bytes / 1024 threads = 4 bytes a thread (8 when sized).
// HALF:      "kernel": "scale2d",
// HALF:      "global_loads": 0.5,
// HALF:      "global_stores": 0.5,
// HALF:      "global_footprint_bytes": 4,
// SIZED:      "kernel": "scale2d",
// SIZED:      "global_loads": 1,
// SIZED:      "global_stores": 1,
// SIZED:      "global_footprint_bytes": 8,
extern "C" __global__ void scale2d(const float *in, float *out, int nx,
                                   int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  out[y * nx + x] = 2 * in[y * nx + x];
}

// A thread takes 4 items a block's width apart: i = blockIdx.x x 1024 +
// threadIdx.x < n = 2100. Blocks 0 and 1 lie wholly within, block 2 from
// 2048 on: 52 of its 256 threads. (256 + 256 + 52) / 768 = 0.734375 of the
// threads load their first item.
// TILED:      "kernel": "tiled",
// TILED:      "global_loads": 0.734375,
extern "C" __global__ void tiled(const float *in, float *out, int n) {
  int i = blockIdx.x * 256 * 4 + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1;
}

// A block index scaled without a thread part: the block's first slab of
// 4. Grid z = 8 blocks over nz = 16: 4 of the 8 blocks within.
// SLABS:      "kernel": "slabs",
// SLABS:      "global_loads": 0.5,
extern "C" __global__ void slabs(const float *in, float *out, int nx,
                                 int nz) {
  int x = threadIdx.x;
  int z0 = blockIdx.z * 4;
  if (x >= nx || z0 >= nz)
    return;
  out[z0 * nx + x] = in[z0 * nx + x];
}

// Nested checks on one axis are not independent: the inner `i + 1 < n`
// holds for 511 of the 512 threads within, not for 511/1024 of them, and
// its far side takes the one thread left, not half of those within. Loads:
// 0.5 (in[i]) + 511/1024 (in[i + 1]) = 0.9990234375; stores: 0.5 (out[i]) +
// 1/1024 (last[0]) = 0.5009765625.
// PAIR:      "kernel": "pair",
// PAIR:      "global_loads": 0.9990234375,
// PAIR:      "global_stores": 0.5009765625,
extern "C" __global__ void pair(const float *in, float *out, float *last,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = in[i];
    if (i + 1 < n)
      a += in[i + 1];
    else
      last[0] = a;
    out[i] = a;
  }
}
