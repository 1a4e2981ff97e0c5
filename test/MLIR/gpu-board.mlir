// The gpu option names the board, as -energy-gpu does for the LLVM pass: its
// compute capability wins over the module's chip (a remark says what the
// chip was), and the remark names it. The same kernels are predicted faster
// on an RTX A6000 (84 SMs, 768 GB/s) than on an RTX A4000 (48 SMs,
// 448 GB/s), both sm_86.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic gpu=rtx-a4000})' %s -o /dev/null 2>%t.a4000
// RUN: FileCheck %s < %t.a4000
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic gpu=rtx-a6000 arch=sm_86})' %s -o /dev/null 2>%t.a6000
// RUN: %python -c "import re,sys; \
// RUN:   unit = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}; \
// RUN:   us = [[float(t) * unit[u] for t, u in re.findall(r'predicted ([0-9.]+) (ns|us|ms|s),', open(f).read())] for f in sys.argv[1:]]; \
// RUN:   print(len(us[0]), 'kernels', 'a6000 faster' if all(b < a for a, b in zip(*us)) else 'a6000 not faster')" \
// RUN:   %t.a4000 %t.a6000 | FileCheck %s --check-prefix=TIME

// CHECK-NOT: kernel @k86: target
// CHECK:     remark: energy: kernel @k86 left alone: {{.*}} items on rtx-a4000 (sm_86);
// CHECK:     remark: energy: kernel @k90: target is sm_90; using gpu rtx-a4000, which is sm_86
// CHECK:     remark: energy: kernel @k90 left alone: {{.*}} items on rtx-a4000 (sm_86);
// TIME: 2 kernels a6000 faster

module attributes {gpu.container_module} {
  gpu.module @m86 [#nvvm.target<chip = "sm_86">] {
    gpu.func @k86(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @m90 [#nvvm.target<chip = "sm_90">] {
    gpu.func @k90(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}
