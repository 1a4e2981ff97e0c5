// ENERGY_GRID and a forced grid= are held to CUDA's limits per dimension
// (x up to 2^31-1, y and z up to 65535), not in total: a legal grid of more
// than 2^31-1 blocks was rejected ("a launch of 18446744073709551615 items
// needs more than 2147483647 blocks (CUDA's grid limit in x) at every
// candidate block"), the fixed grid multiplied into items and divided again
// along x. The largest grid's 9223090559730712575 blocks fit the 64-bit count.
// RUN: %clang %cudaflags -O0 -S %clangplugin -DGRID_MAX -Rpass=energy \
// RUN:   -mllvm -energy-report=%t.max.json %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: %python -c "import json,sys; c=json.load(open(sys.argv[1]))['kernels'][0]['choice']; \
// RUN:   print(c['grid_blocks'], c['time_s'] > 0)" %t.max.json | FileCheck %s --check-prefix=MAX-REPORT
// MAX: remark: {{.*}}kernel r: chose block {{[0-9]+}}
// MAX-REPORT: 9223090559730712575 True
// RUN: %clang %cudaflags -O0 -S %clangplugin -Rpass=energy %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BIG
// BIG: remark: {{.*}}kernel r: chose block {{[0-9]+}}
//
// A forced grid of more than 2^31-1 blocks in all is predicted as given; one
// beyond 65535 in y or z is an error (CUDA refuses the launch).
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes=energy-optimize -energy-force-config=r:256,grid=2147483647x65535x2 \
// RUN:   -pass-remarks=energy -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=FORCED
// FORCED: remark: {{.*}}kernel r: chose block 256
// RUN: not %opt %loadenergy -passes=energy-optimize -energy-force-config=r:256,grid=1x65536 \
// RUN:   -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=FORCED-TALL
// FORCED-TALL: error: energy-optimize: bad -energy-force-config 'r:256,grid=1x65536': grid '1x65536' is not N, NxM or NxMxK (x 1 to 2^31-1, y and z 1 to 65535)
#include <energy/energy.cuh>

#ifdef GRID_MAX
ENERGY_GRID(r, 2147483647, 65535, 65535);
#else
ENERGY_GRID(r, 2147483647, 2, 1);
#endif
ENERGY_KERNEL(r) void r(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] *= 2.0f;
}
