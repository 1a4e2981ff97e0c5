//===- Stride.h - How an address moves with threadIdx.x ---------*- C++ -*-===//
//
// The value both feature analyses (LLVM IR and MLIR) compute for a global
// access: the derivative of its address with respect to threadIdx.x, and the
// coalescing class that follows. Free of any IR so both can use it.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_STRIDE_H
#define ENERGY_LIB_STRIDE_H

#include <cstdint>
#include <optional>

namespace energy {

enum class StrideClass { Uniform, Coalesced, Strided, Irregular };

/// The derivative of an address (or index) with respect to threadIdx.x.
struct Stride {
  enum Kind { Zero, Constant, Symbolic, Unknown } K = Zero;
  int64_t Bytes = 0; // for Constant

  static Stride zero() { return {Zero, 0}; }
  static Stride constant(int64_t B) { return B ? Stride{Constant, B} : zero(); }
  static Stride symbolic() { return {Symbolic, 0}; }
  static Stride unknown() { return {Unknown, 0}; }
};

/// The stride of a sum.
Stride addStrides(Stride A, Stride B);
/// The stride of S times a factor (Symbolic when the factor is not a known
/// constant).
Stride scaleStride(Stride S, std::optional<int64_t> Factor);

/// Coalesced when consecutive threads touch consecutive elements.
StrideClass classifyStride(Stride S, uint64_t AccessBytes);

} // namespace energy

#endif
