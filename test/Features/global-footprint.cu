// The distinct global bytes a block touches (its footprint), per thread, for
// the forced block shape: a 5x5 stencil's halo and a broadcast row are read
// once per block, not once per thread and tap.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=stencil:32x8,grid=128x512 \
// RUN:   -mllvm -energy-report=%t.s2d.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=S2D --input-file=%t.s2d.json
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=stencil:256x1,grid=16x4096 \
// RUN:   -mllvm -energy-report=%t.s1d.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=S1D --input-file=%t.s1d.json
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=matvec_rows:32x8,grid=128x512 \
// RUN:   -mllvm -energy-report=%t.m2d.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=M2D --input-file=%t.m2d.json
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=matvec_rows:256x1,grid=16x4096 \
// RUN:   -mllvm -energy-report=%t.m1d.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=M1D --input-file=%t.m1d.json
//
// 32x8 stencil: 12 rows of 36 floats (5 sectors) read, 8 rows of 32 floats
// written: (12 x 160 + 8 x 128) / 256 threads = 11.5 bytes per thread of
// the 104 it accesses. 256x1: 5 rows of 260 floats (33 sectors) and one row
// of 256: (5 x 1056 + 1024) / 256 = 24.625.
// S2D: "global_footprint_bytes": 11.5,
// S2D-NEXT: "global_footprint_accessed_bytes": 104,
// S1D: "global_footprint_bytes": 24.625,
// S1D-NEXT: "global_footprint_accessed_bytes": 104,
//
// What a warp-wide access moves through L2 without cache reuse: the distinct
// sectors its 32 threads touch, per thread. The stencil's warp is a row of 32
// floats (128 bytes) in both shapes: 4 sectors for the taps of column 0, 5
// for the 4 shifted ones, 4 for the store: 5 x (4 + 4 x 5) + 4 = 124 bytes
// per thread, of 104 accessed. matvec: a warp reads one element of a (1
// sector for 32 threads: 1 byte each of 512 steps) and a row of 32 floats
// of b (4 each): 512 + 2048 + 4 = 2564. A tile load of a 256x1 block reads
// 2 rows of 16 floats (4 sectors): 64 x 4 + 4 = 260, all it accesses. A
// vector every thread reads at once is 1 sector per warp: 512 + 512 + 4 =
// 1028 for matvec_vector; gathered_rows adds its index's sector: 517.
// Of them, the stores' (L1 keeps no global stores: they reach L2 whatever
// the block's reuse): one float per thread, 4 sectors per warp, 4 bytes.
// S2D-NEXT: "global_warp_sector_bytes": 124,
// S2D-NEXT: "global_store_warp_sector_bytes": 4,
// S1D-NEXT: "global_warp_sector_bytes": 124,
// S1D-NEXT: "global_store_warp_sector_bytes": 4,
// S1D: "global_footprint_tiled_bytes": 8,
//
// 32x8 matvec: 8 consecutive rows of a (16 KiB), 512 rows of 32 floats of b
// (64 KiB), 1 KiB of c: 82944 / 256 = 324. 256x1: one row of a (2 KiB), 512
// rows of 1 KiB of b, 1 KiB of c: 527360 / 256 = 2060.
// M2D: "global_footprint_bytes": 324,
// M2D: "global_warp_sector_bytes": 2564,
// M2D-NEXT: "global_store_warp_sector_bytes": 4,
// M1D: "global_footprint_bytes": 2060,
//
// A pitch passed as an argument is taken as the default extent (4096), as
// loop bounds take it: the same footprint as the constant pitch.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=matvec_pitch:32x8,grid=128x512 \
// RUN:   -mllvm -energy-report=%t.p2d.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=M2D --input-file=%t.p2d.json

// A tile loaded as tiled GEMMs load theirs: thread tid of a 256x1 block
// reads row tid / 16 and column tid % 16, with a pitch computed from an
// argument (n / 2 = 2048 floats, n the default extent); each of 64 steps
// moves the tile 16 floats right. Rows of 64 steps x 64 bytes, 8 KiB apart:
// 16 rows x 4096 bytes of a, 1 KiB of out: 66560 / 256 = 260 bytes per
// thread, as many as it accesses (no reuse, but followed: before, only out
// was). The working set is one iteration of the loop as the GPU runs it:
// unrolled by 8 (as in the PTX), 16 rows of 8 x 64 bytes, plus out:
// 9216 / 256 = 36. CLBlast keeps its thread id in a volatile variable,
// loaded again in each step: the same footprint; its bigger body unrolls by
// 2 only, (16 x 128 + 1024) / 256 = 12.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=tile_loads:256x1,grid=16x16 \
// RUN:   -mllvm -energy-report=%t.tile.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=TILE --input-file=%t.tile.json
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=tile_volatile:256x1,grid=16x16 \
// RUN:   -mllvm -energy-report=%t.vol.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=VOL --input-file=%t.vol.json
// TILE: "global_footprint_bytes": 260,
// TILE-NEXT: "global_footprint_accessed_bytes": 260,
// TILE-NEXT: "global_warp_sector_bytes": 260,
// TILE-NEXT: "global_store_warp_sector_bytes": 4,
// TILE-NEXT: "global_working_set_bytes": 36,
// VOL: "global_footprint_bytes": 260,
// VOL-NEXT: "global_footprint_accessed_bytes": 260,
// VOL-NEXT: "global_warp_sector_bytes": 260,
// VOL-NEXT: "global_store_warp_sector_bytes": 4,
// VOL-NEXT: "global_working_set_bytes": 12,
//
// The stencil's 5x5 taps unroll completely: no loop is left to step
// through, and its working set is its footprint.
// S2D-NEXT: "global_working_set_bytes": 11.5,

//
// Which blocks read the same bytes, by the block indices an address depends
// on. The stencil's reads and writes depend on both: nothing is shared.
// S2D-NEXT: "global_footprint_row_shared_bytes": 0,
// S2D-NEXT: "global_footprint_column_shared_bytes": 0,
// S2D-NEXT: "global_footprint_grid_shared_bytes": 0,
//
// Over a tiling of the grid, each block's neighbours read its halo too:
// the next block along x starts a block's width on, along y a block's
// height. The block's share of the union is its own 32x8 floats read and
// written: 8 bytes per thread (also at 256x1, of 24.625). matvec's a, its b
// and the tiles (no two blocks read bytes a block shift apart) keep their
// footprints; gathered_rows' rows move with a loaded index, but its index
// load moves 4 bytes a block: 8 blocks share its sector (12.125 ->
// 12.015625). Stores keep their own sectors.
// S2D-NEXT: "global_footprint_tiled_bytes": 8,
// S2D-NEXT: "past_the_end_threads": 0{{$}}
// matvec at 32x8: the rows of a depend on blockIdx.y only (a grid row of
// blocks reads them: 16 KiB / 256 = 64), the columns of b on blockIdx.x only
// (a grid column: 256), c on both (4).
// M2D: "global_footprint_row_shared_bytes": 64,
// M2D-NEXT: "global_footprint_column_shared_bytes": 256,
// M2D-NEXT: "global_footprint_grid_shared_bytes": 0,
// M2D-NEXT: "global_footprint_tiled_bytes": 324,
// M2D-NEXT: "past_the_end_threads": 0{{$}}
// The tile of a is a grid row's (256); out, indexed by blockIdx.x, a grid
// column's (1 KiB / 256 = 4).
// TILE-NEXT: "global_footprint_row_shared_bytes": 256,
// TILE-NEXT: "global_footprint_column_shared_bytes": 4,
// TILE-NEXT: "global_footprint_grid_shared_bytes": 0,
// TILE-NEXT: "global_footprint_tiled_bytes": 260,
// TILE-NEXT: "past_the_end_threads": 0{{$}}
// A vector every block reads (2 KiB / 256 = 8) is the grid's.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=matvec_vector:32x8,grid=128x512 \
// RUN:   -mllvm -energy-report=%t.vec.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=VEC --input-file=%t.vec.json
// VEC: "global_warp_sector_bytes": 1028,
// VEC: "global_footprint_row_shared_bytes": 64,
// VEC-NEXT: "global_footprint_column_shared_bytes": 0,
// VEC-NEXT: "global_footprint_grid_shared_bytes": 8,
// VEC-NEXT: "global_footprint_tiled_bytes": 76,
// VEC-NEXT: "past_the_end_threads": 0{{$}}
// A row chosen by a loaded index may differ between any two blocks: only
// the index's own sector (32 bytes / 256 = 0.125), read by a grid row, is
// shared.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=gathered_rows:32x8,grid=128x512 \
// RUN:   -mllvm -energy-report=%t.gather.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=GATHER --input-file=%t.gather.json
// GATHER: "global_warp_sector_bytes": 517,
// GATHER: "global_footprint_row_shared_bytes": 0.125,
// GATHER-NEXT: "global_footprint_column_shared_bytes": 0,
// GATHER-NEXT: "global_footprint_grid_shared_bytes": 0,
// GATHER-NEXT: "global_footprint_tiled_bytes": 12.015625,
// GATHER-NEXT: "past_the_end_threads": 0{{$}}

// A transpose's 32x32 block reads rows of 32 floats (4 sectors per warp)
// and writes a column per warp: 32 sectors, 32 bytes per thread, of which
// the block's 32 warps complete each: a footprint of 8 bytes per thread,
// but L1 keeps no global stores, so all 32 store sectors reach L2.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=transpose:32x32,grid=128x128 \
// RUN:   -mllvm -energy-report=%t.transpose.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=TRANSPOSE --input-file=%t.transpose.json
// TRANSPOSE: "global_footprint_bytes": 8,
// TRANSPOSE-NEXT: "global_footprint_accessed_bytes": 8,
// TRANSPOSE-NEXT: "global_warp_sector_bytes": 36,
// TRANSPOSE-NEXT: "global_store_warp_sector_bytes": 32,

// An update in place (y = a x + y) reads y's sectors and writes them back:
// loads and stores count apart, 4 + 4 + 4 = 12 bytes per thread, as DRAM
// moves them (counted together, y's sectors counted once: 8).
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=saxpy_in_place:256,grid=4096 \
// RUN:   -mllvm -energy-report=%t.inplace.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=INPLACE --input-file=%t.inplace.json
// INPLACE: "global_footprint_bytes": 12,
// INPLACE-NEXT: "global_footprint_accessed_bytes": 12,

// The blocks running together share those tiles in L2, and which blocks run
// together follows the grid's shape: the same 65536 blocks of matvec_rows as
// 128 columns of 512 rows read fewer distinct tiles at once than as 512
// columns of 128 rows (each of a row's blocks reads its own columns of b),
// so the forced grid's shape changes the predicted time.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-force-config=matvec_rows:32x8,grid=512x128 \
// RUN:   -mllvm -energy-report=%t.wide.json %s -o /dev/null
// RUN: %python -c "import json, sys; \
// RUN:   t = [[k['choice']['time_s'] for k in json.load(open(f))['kernels'] \
// RUN:         if k['objective'] == 'forced'][0] for f in sys.argv[1:]]; \
// RUN:   sys.exit(0 if t[0] < t[1] else 'square grid %g s, wide grid %g s' % tuple(t))" \
// RUN:   %t.m2d.json %t.wide.json

#define WIDTH 4096

__global__ void stencil(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++)
      s += in[(y + i) * WIDTH + x + j];
  out[y * WIDTH + x] = s;
}

// Every thread with the same threadIdx.y reads the same row of a.
__global__ void matvec_rows(const float *a, const float *b, float *c) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int k = 0; k < 512; k++)
    s += a[y * 512 + k] * b[k * WIDTH + x];
  c[y * WIDTH + x] = s;
}

__global__ void transpose(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * WIDTH + y] = in[y * WIDTH + x];
}

__global__ void saxpy_in_place(float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i] + y[i];
}

__global__ void matvec_pitch(const float *a, const float *b, float *c, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int k = 0; k < 512; k++)
    s += a[y * 512 + k] * b[k * n + x];
  c[y * n + x] = s;
}

__global__ void tile_loads(const float *a, float *out, int n) {
  int tid = threadIdx.x;
  int pitch = n / 2;
  float s = 0;
  for (int k = 0; k < 64; k++)
    s += a[(blockIdx.y * 16 + tid / 16) * pitch + k * 16 + tid % 16];
  out[blockIdx.x * 256 + tid] = s;
}

__global__ void tile_volatile(const float *a, float *out, int n) {
  volatile int tid = threadIdx.x;
  int pitch = n / 2;
  float s = 0;
  for (int k = 0; k < 64; k++)
    s += a[(blockIdx.y * 16 + tid / 16) * pitch + k * 16 + tid % 16];
  out[blockIdx.x * 256 + threadIdx.x] = s;
}

__global__ void matvec_vector(const float *a, const float *v, float *c) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int k = 0; k < 512; k++)
    s += a[y * 512 + k] * v[k];
  c[y * WIDTH + x] = s;
}

__global__ void gathered_rows(const int *rows, const float *a, float *c) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int r = rows[blockIdx.y];
  float s = 0;
  for (int k = 0; k < 512; k++)
    s += a[r * 512 + k];
  c[y * WIDTH + x] = s;
}

// clang computes `(size_t)nx` in both arms of `y > 0 ? ... : 0` and joins the
// copies in a phi; the pitch is still the argument's value (arg2), so every
// access is covered (the plugin before: 4 bytes of 16, the phi not
// followed). The last of the 4096 rows loads no south tap (`y + 1 < ny`)
// and the first no north tap (`y > 0`: the side where it holds runs for
// 4095 of the 4096 rows; before, that side counted for every thread):
// 16 - 4 / 4096 - 4 / 4096 = 15.998046875 bytes a thread. 32x8 threads: the center
// and south taps read 9 rows of 32 floats, the north tap (an address of
// another form, grouped apart) 8, the store 8: 25 x 128 / 256 = 12.5 bytes
// per thread.
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=column_pitch:32x8,grid=128x512,arg1=4096,arg2=4096 \
// RUN:   -mllvm -energy-report=%t.phi.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=PHI --input-file=%t.phi.json
// PHI: "global_footprint_bytes": 12.5,
// PHI-NEXT: "global_footprint_accessed_bytes": 15.998046875,
// PHI-NEXT: "global_warp_sector_bytes": 15.998046875,
__global__ void column_pitch(int ny, int nx, const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  float north = y > 0 ? in[(size_t)(y - 1) * nx + x] : 0.0f;
  float center = in[(size_t)y * nx + x];
  if (y + 1 < ny)
    center += in[(size_t)(y + 1) * nx + x];
  out[(size_t)y * nx + x] = north + center;
}
