// The objective picks a point of the Pareto front, and the launch keeps its
// block unless the pick is predicted to improve on it by more than min-gain
// (default 10%). For this saxpy launch (4095 x 1024 threads, sm_90, analytic
// model, the best candidates predicted again with their blocks known) every
// block streams at nearly the same DRAM rate: the fastest (448 with the
// default constants) is predicted 2.3% faster than 1024 and 1.6% more
// frugal, and power does not follow occupancy (docs/power-check.md), so
// every objective keeps the launch's 1024 by min-gain. With min-gain=0 the
// pick moves for that saving; with max-slowdown=0 too, since 1024, slower
// than the fastest, no longer meets the objective. (Which block is fastest
// moves with the constants; the rule does not.) A tie keeping the launch's
// block is checked in SearchTest (Objective.IncumbentStaysUnlessBeatenByMinGain).
// workload= changes the items the prediction assumes, not the threads the
// launch keeps.
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic})' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ENERGY
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic objective=time})' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIME
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic objective=edp})' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EDP
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic objective=energy max-slowdown=0})' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SLOWDOWN
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic min-gain=0})' %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ANY-GAIN
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic workload=1000000})' %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WORKLOAD

// ENERGY:   remark: energy: kernel @saxpy: chose block 1024 (the launch's block stays: no candidate is predicted to improve on it by more than 10% in energy within 10% of the fastest): {{.*}} per launch of 4193280 items on h100-sxm (sm_90); {{.*}} on the Pareto front; launches: grid 4095 block 1024 -> grid 4095 block 1024
// ENERGY:   nvvm.reqntid = array<i32: 1024, 1, 1>
// ENERGY:   gpu.launch_func @kernels::@saxpy blocks in (%c4095, %c1, %c1) threads in (%c1024, %c1, %c1)

// TIME:     remark: energy: kernel @saxpy: chose block 1024 (the launch's block stays: no candidate is predicted to improve on it by more than 10% in time): {{.*}} on the Pareto front; launches: grid 4095 block 1024 -> grid 4095 block 1024
// TIME:     nvvm.reqntid = array<i32: 1024, 1, 1>

// EDP:      remark: energy: kernel @saxpy: chose block 1024 (the launch's block stays: no candidate is predicted to improve on it by more than 10% in edp): {{.*}};
// EDP:      nvvm.reqntid = array<i32: 1024, 1, 1>

// SLOWDOWN: remark: energy: kernel @saxpy: chose block [[S:[0-9]+]] (energy within 0% of the fastest): {{.*}}; vs the launch's block (1024): energy -{{[0-9.]+}}%, time -{{[0-9.]+}}%; {{.*}} on the Pareto front; launches: grid 4095 block 1024 -> grid {{[0-9]+}} block [[S]]

// ANY-GAIN:     remark: energy: kernel @saxpy: chose block [[B:[0-9]+]] (energy within 10% of the fastest): {{.*}}; vs the launch's block (1024): energy -{{[0-9.]+}}%, time -{{[0-9.]+}}%; 6 of 23 candidates evaluated (9 more do not fit the launch sites; 17 screened out by the block-free screen; 6 predicted again with the block known), {{[0-9]+}} on the Pareto front; launches: grid 4095 block 1024 -> grid [[G:[0-9]+]] block [[B]]
// ANY-GAIN:     nvvm.reqntid = array<i32: [[B]], 1, 1>
// ANY-GAIN:     %[[GRID:.+]] = arith.constant [[G]] : index
// ANY-GAIN:     gpu.launch_func @kernels::@saxpy blocks in (%[[GRID]], %c1, %c1) threads in (%{{.+}}, %c1, %c1)

// WORKLOAD: per launch of 1000000 items on h100-sxm (sm_90);

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %a, %xi fastmath<contract> : f32
      %r = arith.addf %ax, %yi fastmath<contract> : f32
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %c4095 = arith.constant 4095 : index
    gpu.launch_func @kernels::@saxpy
        blocks in (%c4095, %c1, %c1) threads in (%c1024, %c1, %c1)
        args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>)
    return
  }
}
