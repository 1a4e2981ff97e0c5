//===- RegisterPressure.h - Peak live values of a function ------*- C++ -*-===//
//
// An estimate of the registers a thread needs before register allocation:
// the peak, over all program points, of the 32-bit registers held by live
// SSA values (64-bit values count two, vectors count per lane, predicates
// none), from the CFG's liveness cut into spans per block and summed by
// FeatureCore's sweep. ptxas may rematerialize or spill, so this is a
// feature, not a bound.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_REGISTERPRESSURE_H
#define ENERGY_LIB_REGISTERPRESSURE_H

namespace llvm {
class Function;
class Type;
class DataLayout;
} // namespace llvm

namespace energy {

/// 32-bit registers a value of type T occupies (0 for i1 and void).
unsigned registersForType(const llvm::Type *T, const llvm::DataLayout &DL);

unsigned peakLiveRegisters(const llvm::Function &F);

} // namespace energy

#endif
