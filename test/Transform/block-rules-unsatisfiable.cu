// ENERGY_BLOCK_RULES that no shape satisfies, the declared default included,
// are an error naming the kernel and the rules. They were silently replaced
// by the default: the kernel was rewritten to reqntid 256, which the stated
// rules exclude, with exit 0.
// RUN: not %clang %cudaflags -O0 -S %clangplugin -DRULES='"max=1"' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MAX1
// MAX1: error: energy-optimize: kernel 'r': ENERGY_BLOCK_RULES "max=1" admit no block shape, not even its declared default 256 (the stated rules allow at most 1 threads)
// RUN: not %clang %cudaflags -O0 -S %clangplugin -DRULES='"max=32;multiple=64"' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE: error: energy-optimize: kernel 'r': ENERGY_BLOCK_RULES "max=32;multiple=64" admit no block shape, not even its declared default 256 (the stated rules allow at most 32 threads)
// RUN: not %clang %cudaflags -O0 -S %clangplugin -DRULES='"shapes=4096"' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHAPES
// SHAPES: error: energy-optimize: kernel 'r': ENERGY_BLOCK_RULES "shapes=4096" admit no block shape, not even its declared default 256 (the stated rules list other shapes)
//
// Rules that admit the default alone, or other shapes only, are fine.
// RUN: %clang %cudaflags -O0 -S %clangplugin -Rpass=energy -DRULES='"shapes=256"' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: remark: {{.*}}kernel r: chose block 256
// RUN: %clang %cudaflags -O0 -S %clangplugin -Rpass=energy -DRULES='"max=128"' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OTHER
// OTHER: remark: {{.*}}kernel r: chose block {{[0-9]$|[0-9][0-9] |1[01][0-9] |12[0-8] }}
#include <energy/energy.cuh>

ENERGY_BLOCK_RULES(r, RULES);
ENERGY_KERNEL(r) void r(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] *= 2.0f;
}
