// A grid-stride saxpy (Inputs/gridstride-saxpy.cu, the adoption
// reproducers' gridstride*.cu) with n = 2^24 stated (ENERGY_ASSUME) and the
// grid known: each candidate block B is predicted with its own count, n /
// (B x G) iterations per thread on average, two global loads each. Before,
// the block-free screen gave every block the default 8 iterations (so the
// free search took 32 threads, "5.6 us" for 201 MB), and a candidate
// predicted with its block got 8 again where B x G was not a power of two
// and the index type's wrap-around (65,536) where it was.
//
// Free search: every candidate is predicted with its block, and the chosen
// one's loads are 2 n / min(n, B x G) (checked by the script, for whatever
// block the model picks; at 256 x 264 that is 2 x 248.24, at 32 x 264
// 2 x 1985.94).
// RUN: %clang %cudaflags -O3 -S %clangplugin -DGRID=264 \
// RUN:   -mllvm -energy-report=%t.264.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: %python %S/Inputs/check_strided_loads.py %t.264.json gs_saxpy 16777216 264 2 \
// RUN:   | FileCheck %s --check-prefix=FREE264
// FREE264: gs_saxpy block [{{[0-9]+}}, 1, 1] grid 264 global_loads
// RUN: %clang %cudaflags -O3 -S %clangplugin -DGRID=256 \
// RUN:   -mllvm -energy-report=%t.256.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: %python %S/Inputs/check_strided_loads.py %t.256.json gs_saxpy 16777216 256 2
// RUN: %clang %cudaflags -O3 -S %clangplugin -DGRID=264 -DSIZE_T \
// RUN:   -mllvm -energy-report=%t.sz.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: %python %S/Inputs/check_strided_loads.py %t.sz.json gs_saxpy 16777216 264 2
// On a workload the grid covers n at every block: one iteration per thread.
// RUN: %clang %cudaflags -O3 -S %clangplugin -Rpass-analysis=energy \
// RUN:   -mllvm -energy-report=%t.wl.json %S/Inputs/gridstride-saxpy.cu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WL-REMARK
// RUN: %python %S/Inputs/check_strided_loads.py %t.wl.json gs_saxpy 16777216 workload 2 \
// RUN:   | FileCheck %s --check-prefix=WL
// WL-REMARK: remark: kernel gs_saxpy: loop {{.*}}: trip count 1, from ENERGY_ASSUME(<argument 1>, 16777216)
// WL: global_loads 2
//
// Forced, by hand: 96 x 264 (ENERGY_GRID): 2^24 / 25,344 = 661.98
// iterations, 1323.96 loads; grid=256 at 256: 2^24 / 65,536 = 256
// iterations, 512 loads; 1000 x 1 with n = 5000 (arg1): 5 iterations, 10
// loads.
// RUN: %clang %cudaflags -O3 -S %clangplugin -DGRID=264 \
// RUN:   -mllvm -energy-force-config=gs_saxpy:96 \
// RUN:   -mllvm -energy-report=%t.f96.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=F96 --input-file=%t.f96.json
// F96: "global_loads": 1323.9595959
// F96: "global_stores": 661.9797979
// RUN: %clang %cudaflags -O3 -S %clangplugin -DGRID=264 \
// RUN:   -mllvm -energy-force-config=gs_saxpy:256,grid=256 \
// RUN:   -mllvm -energy-report=%t.f256.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=F256 --input-file=%t.f256.json
// F256: "global_loads": 512,
// F256: "global_load_bytes": 2048,
// RUN: %clang %cudaflags -O3 -S %clangplugin -DGRID=264 \
// RUN:   -mllvm -energy-force-config=gs_saxpy:1000,grid=1,arg1=5000 \
// RUN:   -mllvm -energy-report=%t.f1000.json %S/Inputs/gridstride-saxpy.cu -o /dev/null
// RUN: FileCheck %s --check-prefix=F1000 --input-file=%t.f1000.json
// F1000: "global_loads": 10,
