// A forced launch may state the binary's resources as the toolchain that
// builds it reports them (registers=, stack_frame=, spill_stores=,
// spill_loads=; `ptxas -v`, `nvcc --resource-usage`). The plugin can only
// compile clang's code, and an nvcc build of the same source can need far
// fewer registers: the stated ones replace its own ptxas run (also where no
// ptxas is found) and set the occupancy. They change the prediction, never
// the code. The kernel is forced-prediction.cu's.
//
// RUN: %clang %cudaflags -O3 -S %clangplugin -DTILE=4 \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,grid=64x32 \
// RUN:   -mllvm -energy-report=%t.ptxas.json %S/forced-prediction.cu -o %t.ptxas.ptx
// RUN: FileCheck %s --check-prefix=PTXAS --input-file=%t.ptxas.json
//
// 200 registers a thread: one block of 8 warps per SM, 8 of sm_90's 64.
// RUN: %clang %cudaflags -O3 -S %clangplugin -DTILE=4 \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,grid=64x32,registers=200 \
// RUN:   -mllvm -energy-report=%t.given.json %S/forced-prediction.cu -o %t.given.ptx
// RUN: FileCheck %s --check-prefix=GIVEN --input-file=%t.given.json
// RUN: diff %t.ptxas.ptx %t.given.ptx
//
// Pass-parameter spelling (':' for ','), without ptxas, with spills.
// RUN: env ENERGY_PTXAS=none %clang %cudaflags -O3 -S %clangplugin -DTILE=4 \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8:grid=64x32:registers=40:stack_frame=32:spill_stores=16:spill_loads=24 \
// RUN:   -mllvm -energy-report=%t.spills.json %S/forced-prediction.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=SPILLS --input-file=%t.spills.json
//
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,spill_stores=8 \
// RUN:   %S/forced-prediction.cu -DTILE=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOREGS
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,registers=0 \
// RUN:   %S/forced-prediction.cu -DTILE=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,registers=256 \
// RUN:   %S/forced-prediction.cu -DTILE=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,registers=32,registers=40 \
// RUN:   %S/forced-prediction.cu -DTILE=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=tiled_rows:32x8,registers=-1 \
// RUN:   %S/forced-prediction.cu -DTILE=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// ptxas's own count leaves the block's warps unbounded by registers.
// PTXAS: "registers_from": "ptxas",
// PTXAS: "choice": {
// PTXAS: "occupancy": 1,

// GIVEN: "registers_from": "force-config",
// GIVEN: "register_estimate": 200,
// GIVEN-NEXT: "local_frame_bytes": 0,
// GIVEN-NEXT: "spill_bytes": 0,
// GIVEN: "choice": {
// GIVEN: "occupancy": 0.125,

// SPILLS: "registers_from": "force-config",
// SPILLS: "register_estimate": 40,
// SPILLS-NEXT: "local_frame_bytes": 32,
// SPILLS-NEXT: "spill_bytes": 40,
// SPILLS: "the forced launch's toolchain spills 16 bytes (stores) and 24 bytes (loads)"

// The registers of one build: every tunable the kernel reads needs its value.
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=saxpy:96,registers=32 %S/Inputs/kernels.cu \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPEN
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=saxpy:96,registers=32,ITEMS=2 %S/Inputs/kernels.cu \
// RUN:   -mllvm -energy-report=%t.items.json -o /dev/null
// RUN: FileCheck %s --check-prefix=ITEMS --input-file=%t.items.json

// OPEN: error: {{.*}}-energy-force-config states registers for one build of kernel 'saxpy', but leaves tunable 'ITEMS' open: give its value too
// ITEMS: "kernel": "saxpy
// ITEMS: "registers_from": "force-config",
// ITEMS: "register_estimate": 32,

// NOREGS: error: {{.*}}bad -energy-force-config 'tiled_rows:32x8,spill_stores=8': stack_frame, spill_stores and spill_loads need registers=
// ZERO: error: {{.*}}'tiled_rows:32x8,registers=0': registers=0 is not 1 to 255 (a thread's registers)
// MANY: error: {{.*}}registers=256 is not 1 to 255
// TWICE: error: {{.*}}registers is given twice
// NEGATIVE: error: {{.*}}'registers=-1' is not registers=integer >= 0
