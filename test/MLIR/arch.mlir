// The architecture of each gpu.module: the arch option, else the chip of its
// #nvvm.target, else sm_90 (with a remark saying so); a chip without tables
// uses the nearest one. The model comes with it (model=analytic here).
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic})' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic arch=sm_75})' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION

// CHECK:     remark: energy: kernel @k80 left alone: {{.*}} items on a100-sxm-80gb (sm_80);
// CHECK:     remark: energy: kernel @k90a left alone: {{.*}} items on h100-sxm (sm_90);
// CHECK:     remark: energy: kernel @k87: no tables for sm_87; using sm_86
// CHECK:     remark: energy: kernel @k87 left alone: {{.*}} items on a10 (sm_86);
// CHECK:     remark: energy: kernel @none: no #nvvm.target on the gpu.module; assuming sm_90
// CHECK:     remark: energy: kernel @none left alone: {{.*}} items on h100-sxm (sm_90);

// OPTION-NOT: assuming
// OPTION-NOT: no tables
// OPTION-COUNT-4: items on t4 (sm_75);

module attributes {gpu.container_module} {
  gpu.module @m80 [#nvvm.target<chip = "sm_80">] {
    gpu.func @k80(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @m90a [#nvvm.target<chip = "sm_90a">] {
    gpu.func @k90a(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @m87 [#nvvm.target<chip = "sm_87">] {
    gpu.func @k87(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @none {
    gpu.func @none(%x: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}
