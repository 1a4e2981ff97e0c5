// A grid-stride saxpy that did not opt in (advice only, the default
// -energy-advice=screen) is counted as the opted-in one is
// (grid-stride-trips.cu): n = 2^24 (ENERGY_ASSUME) over B x G threads runs
// n / min(n, B x G) iterations per thread on average, two global loads
// each, for every candidate block. Before, the cleanup that advice measures
// kept the loop's gridDim read inside the loop, so the loop was "not
// computable" (8 iterations) even with the block known, and the screen's
// equal default counts chose 32 threads.
//
// The screen's choice at a non-power-of-two grid (264) and a power-of-two
// one (256), whatever block the model picks; the script checks the loads
// against 2 n / min(n, B x G) and that no candidate kept the screen's count.
// RUN: %clang %cudaflags -O3 -S %clangplugin -DADVICE -DGRID=264 -Rpass-analysis=energy \
// RUN:   -mllvm -energy-report=%t.264.json %S/Inputs/gridstride-saxpy.cu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: %python %S/Inputs/check_strided_loads.py %t.264.json gs_saxpy 16777216 264 2
// RUN: %clang %cudaflags -O0 -S %clangplugin -DADVICE -DGRID=256 \
// RUN:   -mllvm -energy-report=%t.256.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: %python %S/Inputs/check_strided_loads.py %t.256.json gs_saxpy 16777216 256 2
// On a workload the grid covers n at every block: one iteration per thread.
// RUN: %clang %cudaflags -O2 -S %clangplugin -DADVICE \
// RUN:   -mllvm -energy-report=%t.wl.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: %python %S/Inputs/check_strided_loads.py %t.wl.json gs_saxpy 16777216 workload 2 \
// RUN:   | FileCheck %s --check-prefix=WL
// REMARK: remark: kernel gs_saxpy: loop at {{.*}}gridstride-saxpy.cu:{{[0-9]+}}: trip count {{[0-9.]+}}, from ENERGY_ASSUME(<argument 1>, 16777216)
// REMARK: remark: kernel gs_saxpy is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: {{.*}} ({{[1-9][0-9]*}} predicted again with the block known)
// WL: global_loads 2
//
// The same blocks measured on the cleaned-up code (-energy-simplify=never,
// as advice measures it) and on -O3's code, forced, by hand: 96 x 264:
// 2^24 / 25,344 = 661.98 iterations, 1323.96 loads; 128 x 256: 2^24 /
// 32,768 = 512 iterations, 1024 loads.
// RUN: %clang %cudaflags -O0 -S %clangplugin -DADVICE -DGRID=264 \
// RUN:   -mllvm -energy-simplify=never -mllvm -energy-force-config=gs_saxpy:96 \
// RUN:   -mllvm -energy-report=%t.f96.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=F96 --input-file=%t.f96.json
// RUN: %clang %cudaflags -O3 -S %clangplugin -DADVICE -DGRID=264 \
// RUN:   -mllvm -energy-force-config=gs_saxpy:96 \
// RUN:   -mllvm -energy-report=%t.f96s.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=F96 --input-file=%t.f96s.json
// F96: "global_loads": 1323.9595959
// RUN: %clang %cudaflags -O0 -S %clangplugin -DADVICE -DGRID=264 \
// RUN:   -mllvm -energy-simplify=never -mllvm -energy-force-config=gs_saxpy:128,grid=256 \
// RUN:   -mllvm -energy-report=%t.f128.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=F128 --input-file=%t.f128.json
// F128: "global_loads": 1024,
