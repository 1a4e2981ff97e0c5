//===- CallCycles.h - Recursion among the functions a kernel calls -*- C++ -*-===//
//
// The strongly connected components of the direct-call graph reachable from
// one function. A call within a component is recursive: walks that fold
// callees into callers (feature counting, inlining) count it once as an
// opaque call and do not follow it, so they visit each function once.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_CALLCYCLES_H
#define ENERGY_CALLCYCLES_H

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class Function;
}

namespace energy {

class CallCycles {
public:
  explicit CallCycles(const llvm::Function &Root);

  /// Whether F calls itself, directly or through other functions.
  bool isRecursive(const llvm::Function &F) const {
    return Component.count(&F);
  }
  /// Whether a call from Caller to Callee stays within one cycle.
  bool isRecursiveCall(const llvm::Function &Caller,
                       const llvm::Function &Callee) const;

private:
  /// The component of each function on a cycle; the others are absent.
  llvm::DenseMap<const llvm::Function *, unsigned> Component;
};

} // namespace energy

#endif
