//===- WorkUnits.h - The work unit a thread's index numbers -----*- C++ -*-===//
//
// The algebra both shape proofs share (ShapeInvariance.h on LLVM IR, the
// gpu-dialect pass's on MLIR): an integer a kernel computes, as a
// polynomial over atoms (the thread-identity registers of an axis, one digit
// per loop, opaque values), and the work unit of an axis taken out of it. A
// unit is a mixed-radix number whose digits are, from the lowest: threadIdx
// (radix blockDim), then loop digits and blockIdx (radix gridDim), each
// weighted by the product of the radices below; a loop's radix is its trip
// count, and a loop without one (a grid-stride loop) may only come last.
// Every (thread, iteration) then numbers a different unit, and one block
// shape numbers the same units as another.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_WORKUNITS_H
#define ENERGY_LIB_WORKUNITS_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace energy {

/// "x", "y" or "z".
const char *axisName(unsigned Axis);

/// The thread-identity registers of one axis.
enum class Reg : uint8_t { Tid, Ctaid, Ntid, Nctaid };

/// A factor of a monomial: a thread-identity register of a free axis, the
/// iteration number of a loop, or an opaque value the front end names.
struct Atom {
  enum Kind : uint8_t { Shape, Digit, Opaque } K;
  uintptr_t Id; // Shape: Reg * 3 + axis; Digit: loop index; Opaque: a key

  static Atom shape(Reg R, unsigned Axis) {
    return {Shape, uintptr_t(R) * 3 + Axis};
  }
  static Atom digit(unsigned Loop) { return {Digit, Loop}; }
  static Atom opaque(const void *Key) { return {Opaque, uintptr_t(Key)}; }
  const void *key() const { return reinterpret_cast<const void *>(Id); }
  bool operator<(const Atom &O) const {
    return K != O.K ? K < O.K : Id < O.Id;
  }
  bool operator==(const Atom &O) const { return K == O.K && Id == O.Id; }
};

using Monomial = std::vector<Atom>; // sorted

/// A polynomial with integer coefficients; small by construction (add and
/// mul give up beyond a cap, so products of sums cannot explode).
struct Poly {
  std::map<Monomial, int64_t> Terms;

  static Poly constant(int64_t C);
  static Poly atom(Atom A);
  bool empty() const { return Terms.empty(); }
  bool operator==(const Poly &O) const { return Terms == O.Terms; }
  bool operator!=(const Poly &O) const { return !(*this == O); }
  bool mentions(llvm::function_ref<bool(const Atom &)> Pred) const;
  bool mentions(const Atom &A) const;
};

/// A + B and A * B; nothing when a coefficient overflows or the result
/// grows past the cap.
std::optional<Poly> add(Poly A, const Poly &B);
std::optional<Poly> mul(const Poly &A, const Poly &B);

/// One digit of a work unit, from the lowest; a loop digit's radix is its
/// trip count, none for the grid-stride loop on top.
struct UnitDigit {
  Atom A;
  std::optional<Poly> Radix;
  bool operator==(const UnitDigit &O) const {
    return A == O.A && Radix == O.Radix;
  }
};

/// How an index numbers the work units along one axis: the digits, and the
/// factor of the unit in the index (`4 * vec * unit`).
struct UnitChain {
  std::vector<UnitDigit> Digits;
  Poly Scale;
  std::optional<unsigned> TopLoop; // the grid-stride loop, if any
};

/// What the front end knows about atoms: whether an opaque atom is the same
/// in every thread of every shape, and a loop's trip count (invariant).
struct AtomFacts {
  llvm::function_ref<bool(const Atom &)> Invariant;
  llvm::function_ref<const std::optional<Poly> &(unsigned Loop)> Radix;
};

/// Whether P is the same in every thread of every shape: constants and
/// invariant opaque values only.
bool invariant(const Poly &P, const AtomFacts &Facts);

/// Takes the work unit of Axis out of P (the threadIdx, blockIdx and loop
/// digits it numbers), leaving the rest; or says why P uses the axis
/// otherwise. Out stays empty when P does not use the axis.
std::optional<std::string> takeUnitChain(Poly &P, unsigned Axis,
                                         const AtomFacts &Facts,
                                         std::optional<UnitChain> &Out);

} // namespace energy

#endif
