// ENERGY_GRID: a kernel whose blocks each handle one 32x32 tile, whatever
// their height (threads step through the tile by blockDim.y), so the host
// launches one grid, the tiles', for every block. Every candidate is
// predicted on that grid: 64 x 64 = 4096 blocks, each thread doing
// 32/blockDim.y rows. Without the declaration the plugin assumed, per
// block, a grid that covers a workload (2^24 items by default), so taller
// blocks did less work per thread on as many threads: the corpus's
// transpose_fixed, declared as a workload, got 32x32 as its free choice,
// which an H100 ran slowest (data/h100-corpus-sweep).
// RUN: %clang %cudaflags -O3 -S %clangplugin -Rpass=energy \
// RUN:   -mllvm -energy-objective=time -mllvm -energy-report=%t.json %s \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// -energy-workload, for every kernel, leaves a declared grid as it is.
// RUN: %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-workload=1000 \
// RUN:   -mllvm -energy-report=%t.option.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.option.json
// A grid and a workload contradict each other; a grid needs three sizes
// CUDA accepts.
// RUN: not %clang %cudaflags -O3 -S %clangplugin -DBOTH %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOTH
// RUN: not %clang %cudaflags -O3 -S %clangplugin -DEMPTY_Y %s -o /dev/null \
// RUN:   2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %clang %cudaflags -O3 -S %clangplugin -DTALL %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
#include <energy/energy.cuh>

#if defined(EMPTY_Y)
ENERGY_GRID(tile_copy, 64, 0, 1);
#elif defined(TALL)
ENERGY_GRID(tile_copy, 64, 65536, 1);
#else
ENERGY_GRID(tile_copy, 64, 64, 1);
#endif
#ifdef BOTH
ENERGY_WORKLOAD(tile_copy, 1 << 22);
#endif

extern "C" {
ENERGY_KERNEL_BLOCK(tile_copy, 32, 8)
void tile_copy(const float *in, float *out) {
  __shared__ float tile[32][33];
  int c = blockIdx.x * 32 + threadIdx.x;
  for (int y = threadIdx.y; y < 32; y += blockDim.y)
    tile[y][threadIdx.x] = in[(blockIdx.y * 32 + y) * 2048 + c];
  __syncthreads();
  int r = blockIdx.y * 32 + threadIdx.x;
  for (int y = threadIdx.y; y < 32; y += blockDim.y)
    out[(blockIdx.x * 32 + y) * 2048 + r] = tile[threadIdx.x][y];
}
}

// REMARK: remark: kernel tile_copy: chose block 32x{{[1248]}} (time): predicted {{.*}} per launch of 1048576 items
// REPORT:     "notes": [
// REPORT-NEXT:   "sm_90 is modelled on its default board h100-sxm (H100 SXM5 80GB); -energy-gpu names the board that runs it (sm_90: h100-sxm, h100-pcie, h200)",
// REPORT-NEXT:  "every launch has grid 64x64 (ENERGY_GRID); the work items are the default block's on it"
// REPORT:     "candidates": [
// REPORT-NOT: "grid_blocks": {{[0-35-9][0-9]*}},
// REPORT:     "grid_blocks": 4096,
// REPORT-NOT: "grid_blocks": {{[0-35-9][0-9]*}},
// REPORT:     "choice": {

// BOTH: error: {{.*}}kernel 'tile_copy' declares both ENERGY_WORKLOAD and ENERGY_GRID: its grid either follows the block or is fixed, not both
// BAD: error: {{.*}}'__energy_grid_tile_copy' must be three grid sizes, x in 1..2147483647, y and z in 1..65535 (ENERGY_GRID)
