//===- ThreadOffsets.h - Where each thread of a block accesses --*- C++ -*-===//
//
// Tiled kernels spread a block's threads over a tile with integer division
// and remainder: `a[(tid / 16) * pitch + tid % 16]`, pitches computed as
// `n / VW`. ScalarEvolution keeps sdiv, srem, `and` and shifts of such
// values opaque, so the address has no constant stride per thread even
// though every thread's offset is fixed by the block's shape. IndexEvaluator
// evaluates that index arithmetic for known argument values, the block's
// shape and, when given, one thread's index; threadOffsets turns an address
// into each thread's offset from thread 0 by evaluating it once per thread.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_THREADOFFSETS_H
#define ENERGY_LIB_THREADOFFSETS_H

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace llvm {
class SCEV;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace energy {

class ThreadDependence;

using ThreadIndex = std::array<unsigned, 3>;

class IndexEvaluator {
public:
  /// ArgumentValue(A): the value an integer kernel argument is taken as.
  IndexEvaluator(ThreadIndex Block, const ThreadDependence &TD,
                 std::function<unsigned(const llvm::Value *)> ArgumentValue);

  /// The value of the integer V, when it follows from constants, integer
  /// arguments, blockDim, and (given Thread) threadIdx and the lane id
  /// through integer arithmetic, casts, compares, selects and phis that join
  /// copies of one computation.
  std::optional<llvm::APInt> evaluate(const llvm::Value *V,
                                      const ThreadIndex *Thread) const;

  /// For each thread of the block in order (x fastest), its address minus
  /// thread 0's, in bytes: Address evaluated with loops at their first
  /// iteration, thread-independent unknowns (pointers, blockIdx, loaded
  /// values) as symbols. None when a thread's part of the address cannot be
  /// evaluated or the difference depends on those symbols.
  std::optional<std::vector<int64_t>>
  threadOffsets(const llvm::SCEV *Address, llvm::ScalarEvolution &SE) const;

  /// Address with the integer values evaluate() follows as constants: the
  /// ones every thread shares (sizes, `n / 4`, blockDim) and, given Thread,
  /// the ones that depend on the thread as it has them.
  const llvm::SCEV *fold(const llvm::SCEV *Address, llvm::ScalarEvolution &SE,
                         const ThreadIndex *Thread) const;

private:
  ThreadIndex Block;
  const ThreadDependence &TD;
  std::function<unsigned(const llvm::Value *)> ArgumentValue;
  /// Thread-independent values, once evaluated (None: not evaluable).
  mutable llvm::DenseMap<const llvm::Value *, std::optional<llvm::APInt>>
      Uniform;

  std::optional<llvm::APInt> evaluate(const llvm::Value *V,
                                      const ThreadIndex *Thread,
                                      unsigned Depth) const;
  /// The values thread-independent unknowns (symbols) take in one trial;
  /// absent ones are 0.
  using SymbolValues = llvm::DenseMap<const llvm::Value *, uint64_t>;
  std::optional<llvm::APInt> evaluateSCEV(const llvm::SCEV *S,
                                          llvm::ScalarEvolution &SE,
                                          const ThreadIndex &Thread,
                                          const SymbolValues &Symbols) const;
};

} // namespace energy

#endif
