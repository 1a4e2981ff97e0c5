//===- ScevUnknowns.h - The values a SCEV is built from ---------*- C++ -*-===//
#ifndef ENERGY_LIB_SCEVUNKNOWNS_H
#define ENERGY_LIB_SCEVUNKNOWNS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

namespace energy {

/// The SCEVUnknowns S is built from (arguments, loads, special-register
/// reads...), each once, in visit order.
inline llvm::SmallVector<const llvm::SCEVUnknown *, 4>
unknownsOf(const llvm::SCEV *S) {
  struct Collector {
    llvm::SmallVector<const llvm::SCEVUnknown *, 4> Found;
    bool follow(const llvm::SCEV *Op) {
      if (auto *U = llvm::dyn_cast<llvm::SCEVUnknown>(Op))
        Found.push_back(U);
      return true;
    }
    bool isDone() const { return false; }
  } C;
  llvm::SCEVTraversal<Collector>(C).visitAll(S);
  return std::move(C.Found);
}

} // namespace energy

#endif
