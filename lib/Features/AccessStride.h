//===- AccessStride.h - Address stride per threadIdx.x ----------*- C++ -*-===//
//
// Classifies a global memory access by how its address moves when
// threadIdx.x grows by one: the derivative of the address's SCEV with respect
// to threadIdx.x. Integer extensions are looked through (index arithmetic is
// assumed not to wrap, as in well-formed CUDA code).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_ACCESSSTRIDE_H
#define ENERGY_LIB_ACCESSSTRIDE_H

#include <cstdint>
#include <map>
#include <memory>

namespace llvm {
class Function;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace energy {

class ThreadDependence;

enum class StrideClass { Uniform, Coalesced, Strided, Irregular };

/// The derivative of an address with respect to threadIdx.x.
struct Stride {
  enum Kind { Zero, Constant, Symbolic, Unknown } K = Zero;
  int64_t Bytes = 0; // for Constant

  static Stride zero() { return {Zero, 0}; }
  static Stride constant(int64_t B) { return B ? Stride{Constant, B} : zero(); }
  static Stride symbolic() { return {Symbolic, 0}; }
  static Stride unknown() { return {Unknown, 0}; }
};

/// Coalesced when consecutive threads touch consecutive elements.
StrideClass classifyStride(Stride S, uint64_t AccessBytes);

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

Stride addressStride(const llvm::Value *Ptr, llvm::ScalarEvolution &SE,
                     const ThreadDependence &TD, CalleeSummaries &Callees);

} // namespace energy

#endif
