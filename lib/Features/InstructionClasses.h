//===- InstructionClasses.h - What an LLVM instruction is -------*- C++ -*-===//
//
// The LLVM adapter's classification of single instructions: vector lanes,
// barriers, the multiplies that fuse into an FMA, the element kind the
// float counts use. issueSlots (FeatureAnalysis.h) lives beside them.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_INSTRUCTIONCLASSES_H
#define ENERGY_LIB_INSTRUCTIONCLASSES_H

#include "CallClassifier.h"
#include "FeatureCore.h"

#include <optional>

namespace llvm {
class Instruction;
class MemIntrinsic;
class Type;
} // namespace llvm

namespace energy {

/// Element count of a (vector) type, 1 for scalars.
unsigned lanes(const llvm::Type *T);

/// A call to __syncthreads or barrier.sync.
bool isBarrier(const llvm::Instruction &I);

/// The operand an fadd/fsub fuses with: the first fmul operand with a single
/// use, both carrying `contract` (clang's CUDA default -ffp-contract=fast).
/// The backend fuses at most one product into each add.
const llvm::Instruction *fusedOperand(const llvm::Instruction &Add);

/// An fmul counted as part of the FMA at its user.
bool fusesIntoUser(const llvm::Instruction &I);

/// The feature counts' element kind of T (or of T's vector elements).
ScalarKind scalarKind(const llvm::Type *T);

/// How NVPTX expands a memcpy, memmove or memset of a constant length, at
/// the alignment both pointers have (copyPieces). Clang copies CUDA's
/// uint4/float4 structs (`out[i] = in[i]`) this way. None for a length that
/// is not a constant (NVPTX lowers it to a loop).
std::optional<CopyPieces> memIntrinsicPieces(const llvm::MemIntrinsic &M);

} // namespace energy

#endif
