//===- AccessStride.h - Address stride per threadIdx.x ----------*- C++ -*-===//
//
// How a memory access's address moves when threadIdx.x (or .y, .z) grows by
// one: the derivative of the address's SCEV with respect to it. Integer extensions are looked through (index arithmetic is
// assumed not to wrap, as in well-formed CUDA code).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_ACCESSSTRIDE_H
#define ENERGY_LIB_ACCESSSTRIDE_H

#include "Stride.h"

#include <map>
#include <memory>

namespace llvm {
class Function;
class SCEV;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace energy {

class ThreadDependence;

/// What callers need to know of a called device function's result (a
/// helper such as global_index() that -O0 code calls, not inlines).
class CalleeSummaries {
public:
  CalleeSummaries();
  ~CalleeSummaries();
  /// Whether F's result can differ between threads for uniform arguments.
  bool returnsThreadDependent(const llvm::Function &F);
  /// How F's result moves with threadIdx.x for uniform arguments.
  Stride returnStride(const llvm::Function &F);

private:
  struct Summary;
  std::map<const llvm::Function *, std::unique_ptr<Summary>> Summaries;
  const Summary &summarize(const llvm::Function &F);
};

/// The address's derivative with respect to threadIdx along Axis (0: x).
Stride addressStride(const llvm::Value *Ptr, llvm::ScalarEvolution &SE,
                     const ThreadDependence &TD, CalleeSummaries &Callees,
                     unsigned Axis = 0);
/// The same for an address's SCEV (one rewritten by the caller).
Stride scevStride(const llvm::SCEV *Address, llvm::ScalarEvolution &SE,
                  const ThreadDependence &TD, CalleeSummaries &Callees,
                  unsigned Axis);

} // namespace energy

#endif
