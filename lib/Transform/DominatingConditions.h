//===- DominatingConditions.h - What holds where an instruction runs -*- C++ -*-===//
#ifndef ENERGY_LIB_DOMINATINGCONDITIONS_H
#define ENERGY_LIB_DOMINATINGCONDITIONS_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class DominatorTree;
class Instruction;
class Value;
} // namespace llvm

namespace energy {

/// The branch conditions known where I runs: for each conditional branch
/// one of whose edges dominates I's block, from the nearest up, Visit(the
/// condition, whether it held on that edge) until Visit returns true.
/// Returns whether it did.
bool anyDominatingCondition(
    const llvm::Instruction &I, const llvm::DominatorTree &DT,
    llvm::function_ref<bool(const llvm::Value *Cond, bool Held)> Visit);

} // namespace energy

#endif
