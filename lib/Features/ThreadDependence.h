//===- ThreadDependence.h - Values that differ between threads --*- C++ -*-===//
//
// A conservative forward taint from the thread-index registers: a value is
// thread-dependent if it is computed from threadIdx/laneid, loaded through a
// thread-dependent address, returned by an atomic or by a called function
// whose result depends on the thread, or loaded from a stack slot that
// received a thread-dependent store (so -O0 code is covered too).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_THREADDEPENDENCE_H
#define ENERGY_LIB_THREADDEPENDENCE_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace energy {

enum class SpecialRegister { ThreadIdx, BlockIdx, BlockDim, GridDim, LaneId };

struct SpecialRegisterRead {
  SpecialRegister Reg;
  unsigned Axis; // 0..2 for x/y/z; 0 for laneid
};

/// The special register V reads, if V is a call of an nvvm sreg intrinsic.
std::optional<SpecialRegisterRead> readsSpecialRegister(const llvm::Value *V);

class ThreadDependence {
public:
  /// ReturnsThreadDependent tells whether a called (defined) function's
  /// result can differ between threads even for uniform arguments.
  ThreadDependence(
      const llvm::Function &F,
      llvm::function_ref<bool(const llvm::Function &)> ReturnsThreadDependent);
  bool isThreadDependent(const llvm::Value *V) const {
    return Dependent.contains(V);
  }

private:
  llvm::DenseSet<const llvm::Value *> Dependent;
};

} // namespace energy

#endif
