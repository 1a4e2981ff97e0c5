//===- GpuShapeInvariance.h - Proof that a gpu.func ignores its block -*- C++ -*-===//
//
// The gpu dialect's side of the default-deny rule (lib/Transform/
// ShapeInvariance.h is the LLVM one, WorkUnits.h the algebra both share): a
// kernel gets another block only when its thread and block ids reach
// nothing but one work unit per axis (block_id * block_dim + thread_id,
// gpu.global_id, scf.for loops over a thread's items in block or grid
// steps), with no workgroup memory, barrier, subgroup operation or call,
// and nothing carried from one unit to the next. The pass's rewrite keeps
// each launch's threads per dimension, and its advice is for launches that
// do so too: every unit then exists at every block, so no bound check is
// needed (the LLVM pass's launches cover a workload instead).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_GPUSHAPEINVARIANCE_H
#define ENERGY_LIB_MLIR_GPUSHAPEINVARIANCE_H

#include "ShapeInvariance.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <array>

namespace energy {

/// Whether Kernel computes the same at every block whose extent is 1 on
/// the axes FreeAxes leaves out.
ShapeProof proveGpuShapeInvariance(mlir::gpu::GPUFuncOp Kernel,
                                   std::array<bool, 3> FreeAxes);

} // namespace energy

#endif
