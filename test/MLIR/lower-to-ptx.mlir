// An optimized module lowers through the upstream pipeline: the bounds
// reach the PTX as .reqntid (no .maxntid beside it, which ptxas rejects,
// and no .minnctapersm: see EnergyOptimize.cpp), ptxas accepts it, and the
// host launches carry the chosen grid and block (both kernels keep their
// launch's: example.test; optimize-rewrite.mlir moves blocks).
// REQUIRES: mlir
// RUN: %mlir-opt --load-pass-plugin=%energy-mlir \
// RUN:   --pass-pipeline='builtin.module(energy-optimize-gpu{model=analytic},gpu-lower-to-nvvm-pipeline{cubin-format=isa})' \
// RUN:   %S/Inputs/example.mlir -o %t.mlir 2>/dev/null
// RUN: %python %S/Inputs/ptx_of.py --ptxas sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir

// PTX:      .target sm_90
// PTX:      .entry saxpy(
// PTX:      )
// PTX-NEXT: .reqntid 256, 1, 1
// PTX-NEXT: {
// PTX:      .entry scale2d(
// PTX:      )
// PTX-NEXT: .reqntid 32, 8, 1
// PTX-NEXT: {
// PTX-NOT:  .maxntid
// PTX-NOT:  .minnctapersm

// HOST-LABEL: llvm.func @run
// HOST-DAG:   %[[B:.+]] = llvm.mlir.constant(256 : index) : i64
// HOST-DAG:   %[[G:.+]] = llvm.mlir.constant(13440 : index) : i64
// HOST-DAG:   %[[ONE:.+]] = llvm.mlir.constant(1 : index) : i64
// HOST-DAG:   %[[G2X:.+]] = llvm.mlir.constant(128 : index) : i64
// HOST-DAG:   %[[G2Y:.+]] = llvm.mlir.constant(512 : index) : i64
// HOST-DAG:   %[[B2X:.+]] = llvm.mlir.constant(32 : index) : i64
// HOST-DAG:   %[[B2Y:.+]] = llvm.mlir.constant(8 : index) : i64
// HOST:       gpu.launch_func @kernels::@saxpy blocks in (%[[G]], %[[ONE]], %[[ONE]]) threads in (%[[B]], %[[ONE]], %[[ONE]])
// HOST:       gpu.launch_func @kernels::@scale2d blocks in (%[[G2X]], %[[G2Y]], %[[ONE]]) threads in (%[[B2X]], %[[B2Y]], %[[ONE]])
