//===- GpuKernelFeatures.h - KernelFeatures of a gpu.func -------*- C++ -*-===//
//
// Fills the project's KernelFeatures (include/energy/KernelFeatures.h) from a
// gpu.func kernel written in the arith, math, memref, vector, index, scf and
// gpu dialects, with the same units and conventions as the LLVM analysis:
// per-thread counts weighted by the trip counts of the enclosing scf loops
// (constant bounds; else every unknown value in the bounds taken as
// DefaultExtent; else DefaultTripCount), func.call folded in from functions
// of the same gpu.module. Where the dialects differ from LLVM IR:
//  - every op counts as an instruction except constants and terminators; an
//    scf.for iteration also counts its lowered induction update, compare and
//    branch (3 instructions: 2 int_ops, 1 branch), an scf.while iteration
//    its branch;
//  - mulf + addf count as one FMA only when both carry fastmath `contract`
//    (MLIR, unlike clang's CUDA default, does not contract otherwise);
//  - memory spaces come from the memref type: none/global/1 global,
//    workgroup/3 shared, private/5 local, 4 constant; a memref without a
//    space is local when it comes from memref.alloca or a private
//    attribution;
//  - register_estimate is the peak of simultaneously live SSA values over
//    the kernel's ops in order (a value used inside a loop it is defined
//    outside of lives to the loop's end), in 32-bit registers: index and
//    64-bit values 2, i1 0, memrefs 2 (the aligned pointer), vectors per
//    lane; plus ReservedRegisters;
//  - the global footprint features are computed for a given block shape
//    only (the print pass gives the kernel's known_block_size or
//    nvvm.reqntid), from the accesses GpuFootprint.h covers;
//  - critical_path is the longest dependence chain of each block (the
//    LLVM analysis's DependenceDepth) over the ops counted as instructions
//    there, weighted like them; an scf.for or scf.while adds its body's.
// Ops the analysis does not model (other dialects, region ops other than
// scf.for/if/while/execute_region, unstructured control flow) stop it: the
// result names the first one.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_GPUKERNELFEATURES_H
#define ENERGY_LIB_MLIR_GPUKERNELFEATURES_H

#include "energy/KernelFeatures.h"

#include <array>
#include <cstdint>

namespace mlir {
class Operation;
namespace gpu {
class GPUFuncOp;
} // namespace gpu
} // namespace mlir

namespace energy {

struct GpuKernelFeatures {
  KernelFeatures Features;
  /// The first op the analysis cannot model; Features is then incomplete.
  mlir::Operation *Unsupported = nullptr;
};

/// Block: the shape the features are for, or zeros when it is not known;
/// the global footprint (GpuFootprint.h) needs it. Grid: the launch's
/// blocks per dimension, zeros when not known; with both, a loop over the
/// launch's threads (step block_dim * grid_dim) is counted as the LLVM
/// adapter counts it (TripCounts.h), else it runs DefaultTripCount times.
GpuKernelFeatures
computeGpuKernelFeatures(mlir::gpu::GPUFuncOp Kernel,
                         std::array<unsigned, 3> Block = {0, 0, 0},
                         std::array<uint64_t, 3> Grid = {0, 0, 0});

/// The block shape the kernel states it runs with: known_block_size, else
/// nvvm.reqntid; zeros when neither says.
std::array<unsigned, 3> statedBlockShape(mlir::gpu::GPUFuncOp Kernel);

} // namespace energy

#endif
