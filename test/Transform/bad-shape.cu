// A shape spec must give one size per dimension of its shared array, and
// name tunables the kernel reads: errors, not a silently wrong plan.
// RUN: not %clang %cudaflags -O2 -S %clangplugin -DDIMS %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIMS
// RUN: not %clang %cudaflags -O2 -S %clangplugin -DNAME %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAME
#include <energy/energy.cuh>

#ifdef DIMS
#define SPEC "TILE"
#else
#define SPEC "TILE,WIDTH"
#endif

ENERGY_TUNABLE(TILE, 16, 8, 16);
ENERGY_KERNEL_TUNABLE_BLOCK(k, TILE, TILE) void k(float *x) {
  ENERGY_SHARED(float, s, SPEC)[TILE_max][TILE_max];
  const int tile = ENERGY_VALUE(TILE);
  s[threadIdx.y][threadIdx.x] = x[threadIdx.y * tile + threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

// DIMS: error: energy-optimize: shared array '_ZZ1kPfE1s' has 2 dimensions, its shape spec 1
// NAME: error: energy-optimize: shape refers to unknown tunable 'WIDTH'
