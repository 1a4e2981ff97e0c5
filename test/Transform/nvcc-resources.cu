// REQUIRES: nvcc
// -energy-resources=nvcc (the header route: nvcc builds the kernels): the
// registers and spills of the candidates ptxas would check come from nvcc's
// build of the source, with the user's nvcc flags and the candidate's
// tunables in an ENERGY_CHOICES header, not from ptxas on clang's code. On
// this kernel the two differ (sm_90, CUDA 13: nvcc 48, clang 56 at
// ITEMS=8). The compile is cached: a rebuild runs no nvcc compile.
//
// nvcc's own figure for the one assignment, as the user's build gets it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '#pragma once\n#define ENERGY_CHOICES_FORMAT 1\n#define ENERGY_CHOICE_TUNABLE_ITEMS ~, 8\n' > %t/items8.h
// RUN: %nvcc -arch=sm_90 -cubin -o /dev/null -Xptxas -v -I%srcroot/include \
// RUN:   '-DENERGY_CHOICES="%t/items8.h"' %s 2>&1 | grep 'Used' > %t/nvcc-said.txt
//
// An nvcc that logs its commands.
// RUN: printf '#!/bin/sh\necho "$@" >> %t/nvcc.log\nexec %nvcc "$@"\n' > %t/nvcc
// RUN: chmod +x %t/nvcc
//
// RUN: env XDG_CACHE_HOME=%t/cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-resources=nvcc -mllvm -energy-nvcc=%t/nvcc \
// RUN:   -mllvm -energy-nvcc-flag=-I%srcroot/include -Rpass-analysis=energy \
// RUN:   -mllvm -energy-report=%t/nvcc.json %s -o %t/nvcc.ptx 2> %t/nvcc.err
// RUN: cat %t/nvcc-said.txt %t/nvcc.json | FileCheck %s --check-prefix=NVCC
// RUN: FileCheck %s --check-prefix=REMARK < %t/nvcc.err
// RUN: grep -c -- -cubin %t/nvcc.log | FileCheck %s --check-prefix=ONE
//
// The rebuild finds nvcc's figures in the cache: no second compile.
// RUN: env XDG_CACHE_HOME=%t/cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-resources=nvcc -mllvm -energy-nvcc=%t/nvcc \
// RUN:   -mllvm -energy-nvcc-flag=-I%srcroot/include \
// RUN:   -mllvm -energy-report=%t/again.json %s -o %t/again.ptx
// RUN: cat %t/nvcc-said.txt %t/again.json | FileCheck %s --check-prefix=NVCC
// RUN: grep -c -- -cubin %t/nvcc.log | FileCheck %s --check-prefix=ONE
// RUN: diff %t/nvcc.ptx %t/again.ptx
//
// Without the option: ptxas on clang's code, another count.
// RUN: env XDG_CACHE_HOME=%t/cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-report=%t/clang.json %s -o %t/clang.ptx
// RUN: cat %t/nvcc-said.txt %t/clang.json | FileCheck %s --check-prefix=CLANG
//
// nvcc's failures never fail the build: a warning says why, and clang's
// figures stay. No nvcc there:
// RUN: env XDG_CACHE_HOME=%t/cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-resources=nvcc -mllvm -energy-nvcc=%t/no-nvcc \
// RUN:   -mllvm -energy-report=%t/missing.json %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: FileCheck %s --check-prefix=FALLBACK < %t/missing.json
// A source nvcc cannot build (BREAK_NVCC below):
// RUN: env XDG_CACHE_HOME=%t/cache %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-resources=nvcc -mllvm -energy-nvcc=%nvcc \
// RUN:   -mllvm -energy-nvcc-flag=-I%srcroot/include -mllvm -energy-nvcc-flag=-DBREAK_NVCC \
// RUN:   -mllvm -energy-report=%t/broken.json %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BROKEN
// RUN: FileCheck %s --check-prefix=FALLBACK < %t/broken.json
// An nvcc that hangs:
// RUN: printf '#!/bin/sh\ncase "$1" in --version) exec %nvcc "$@";; esac\nexec sleep 60\n' > %t/hang
// RUN: chmod +x %t/hang
// RUN: env XDG_CACHE_HOME=%t/cache ENERGY_NVCC_TIMEOUT=1 %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-resources=nvcc -mllvm -energy-nvcc=%t/hang \
// RUN:   -mllvm -energy-report=%t/hang.json %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HANG
// RUN: FileCheck %s --check-prefix=FALLBACK < %t/hang.json
//
// A wait that is not a number of seconds is reported, and the default taken.
// RUN: env XDG_CACHE_HOME=%t/cache ENERGY_NVCC_TIMEOUT=soon %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-resources=nvcc -mllvm -energy-nvcc-flag=-I%srcroot/include \
// RUN:   -mllvm -energy-report=%t/soon.json %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SOON
// RUN: cat %t/nvcc-said.txt %t/soon.json | FileCheck %s --check-prefix=NVCC
//
// Bad values are errors.
// RUN: not %clang %cudaflags -O3 -S %clangplugin -mllvm -energy-resources=gcc \
// RUN:   %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %opt %loadenergy -passes='energy-optimize<resources=nvcc;nvcc=>' \
// RUN:   -disable-output %S/Inputs/empty.ll 2>&1 | FileCheck %s --check-prefix=EMPTY

// NVCC: Used [[REGS:[0-9]+]] registers
// NVCC: "registers_from": "nvcc",
// NVCC: "register_estimate": [[REGS]],

// REMARK: remark: kernel conv: registers and spills from nvcc's build of the source (Cuda compilation tools, release {{.*}}), not clang's
// ONE: {{^1$}}

// CLANG: Used [[REGS:[0-9]+]] registers
// CLANG: "registers_from": "ptxas",
// CLANG-NOT: "register_estimate": [[REGS]],
// CLANG: "register_estimate": {{[0-9]+}},

// MISSING: warning: energy: registers and spills come from ptxas on clang's code, not from nvcc's build (-energy-resources=nvcc): nvcc '{{.*}}no-nvcc' is not an executable
// BROKEN: warning: energy: registers and spills come from ptxas on clang's code, not from nvcc's build (-energy-resources=nvcc): nvcc failed (exit code {{[0-9]+}}): {{.*}}nvcc cannot build this
// HANG: warning: energy: registers and spills come from ptxas on clang's code, not from nvcc's build (-energy-resources=nvcc): nvcc did not finish in 1 s
// FALLBACK: "registers_from": "ptxas",
// SOON: warning: energy: ignoring ENERGY_NVCC_TIMEOUT='soon': not a number of seconds from 1 to 3600; waiting 120 s
// BAD: error: energy-optimize: resources must be clang or nvcc, got 'gcc'
// EMPTY: nvcc needs a path or a program name

#include <energy/energy.cuh>

#if defined(__NVCC__) && defined(BREAK_NVCC)
#error nvcc cannot build this
#endif

ENERGY_TUNABLE(ITEMS, 8, 8);
#define F 9
__constant__ float filt[F * F];

// ITEMS rows of a 9x9 filter per thread, every loop unrolled.
ENERGY_KERNEL(conv)
void conv(int w, const float *__restrict__ in, float *__restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * ENERGY_VALUE(ITEMS);
  float sum[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    sum[k] = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    if (k < ENERGY_VALUE(ITEMS)) {
#pragma unroll
      for (int i = 0; i < F; ++i)
#pragma unroll
        for (int j = 0; j < F; ++j)
          sum[k] += in[(y0 + k + i) * w + x + j] * filt[i * F + j];
    }
#pragma unroll
  for (int k = 0; k < 8; ++k)
    if (k < ENERGY_VALUE(ITEMS))
      out[(y0 + k) * w + x] = sum[k];
}
