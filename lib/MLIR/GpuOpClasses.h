//===- GpuOpClasses.h - What a gpu-dialect kernel's ops are -----*- C++ -*-===//
//
// The gpu-dialect adapter's classification of single ops: which dialects it
// models, which arithmetic fuses into an FMA, what a math op costs, which
// vector ops only move lanes, and how many machine instructions an op
// issues (FeatureCore's rule, as the LLVM adapter applies it).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_GPUOPCLASSES_H
#define ENERGY_LIB_MLIR_GPUOPCLASSES_H

#include "CallClassifier.h"
#include "FeatureCore.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Operation.h"
#include <optional>

namespace energy {

/// Whether Op's dialect is one the adapter counts (arith, math, memref,
/// vector, index, scf, gpu, func, ub).
bool modeledDialect(mlir::Operation *Op);

/// Whether Op's fastmath flags allow contraction.
bool contracts(mlir::Operation *Op);

/// Whether Op's fast-math flags let the backend emit the approximate form of
/// a special function (`afn`, or `arcp` for a division).
bool approximates(mlir::Operation *Op);

/// The mulf an addf/subf fuses with into an FMA: an operand mulf with one
/// use, both allowing contraction. The backend fuses at most one product.
mlir::Operation *fusedOperand(mlir::Operation *Add);

/// Whether Mul fuses into its one user (counted there as an FMA).
bool fusesIntoUser(mlir::Operation *Mul);

/// What a math op costs: what the table of calls says of the LLVM intrinsic
/// it lowers to (absf and absi are fabs and abs there); long-latency math
/// when the table does not know it (rsqrt, erf ...).
CallKind mathKind(llvm::StringRef Name);

/// Vector ops that only move lanes: no arithmetic.
bool isVectorDataMovement(llvm::StringRef Name);

/// How the memcpy a memref.copy of a static shape lowers to (memref-to-llvm,
/// contiguous layouts) is issued: that memcpy states no alignment, so NVPTX
/// moves it a byte at a time. None for a dynamic shape.
std::optional<CopyPieces> memrefCopyPieces(mlir::memref::CopyOp Copy);

/// Machine instructions Op issues, by the LLVM adapter's rule (issueSlots,
/// FeatureCore): NVPTX keeps each lane in a register of its own, so moving
/// lanes at constant positions renames registers, vector arithmetic issues
/// per lane and vector memory per 16 bytes.
unsigned issueSlots(mlir::Operation *Op);

/// Integer arithmetic, compares and selects of the arith dialect.
bool isIntOp(mlir::Operation *Op);

/// The feature counts' element kind of T (or of T's vector elements).
ScalarKind scalarKind(mlir::Type T);

} // namespace energy

#endif
