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

#include <array>
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

/// How a value depends on the work unit of its thread.
enum class Level : uint8_t {
  Inv,   // not at all: the same in every thread of every launch shape
  Block, // the same at every shape, not in every thread: it follows the
         // block index of an axis the search never changes (blockIdx.z)
  Item,  // a function of the unit (and of data)
  Bad,   // of the thread or block in a way another shape changes
};
inline Level join(Level A, Level B) { return A < B ? B : A; }

/// What an integer says about the unit: its unit along each axis.
struct Classified {
  Level L = Level::Inv;
  /// The level of the values the integer holds besides its units, and
  /// whether its loop digits there only add (k, 4 * k: each iteration
  /// number is at least 0). A compare of a unit plus such a rest with a
  /// bound bounds the unit by no more than the bound does.
  Level Rest = Level::Inv;
  bool RestDigitsAdd = true;
  /// For Bad: why; empty when an opaque atom was Bad (its own value says
  /// why, where it is computed).
  std::string Why;
  std::array<std::optional<UnitChain>, 3> Chains;
};

/// An opaque value of level L (no unit of its own).
inline Classified atLevel(Level L) {
  Classified C;
  C.L = C.Rest = L;
  return C;
}

/// What the front end knows about atoms: an opaque atom's dependence on the
/// unit, and a loop's trip count (invariant) when it has one.
struct AtomFacts {
  llvm::function_ref<Classified(const Atom &)> Class;
  llvm::function_ref<const std::optional<Poly> &(unsigned Loop)> Radix;
};

/// Whether P is the same in every thread of every shape: constants and
/// invariant opaque values only.
bool invariant(const Poly &P, const AtomFacts &Facts);

/// P's unit along each axis Free names (nothing else may use that axis's
/// registers), and the level of the rest; LoopDigit hears of each loop
/// digit outside the units (a use of the iteration number itself). A P that
/// could not be built is Bad.
Classified classifyUnits(const std::optional<Poly> &P,
                         const std::array<bool, 3> &Free,
                         const AtomFacts &Facts,
                         llvm::function_ref<void(unsigned Loop)> LoopDigit);

/// How a kernel's indices number the units, axis by axis: one way only.
class UnitNumbering {
public:
  /// Notes C, an index's unit along Axis; why not, when it numbers the
  /// units another way than an earlier index did.
  std::optional<std::string> note(unsigned Axis, const UnitChain &C);
  /// The numbering of Axis, once an index used it.
  const std::optional<UnitChain> &of(unsigned Axis) const {
    return Canonical[Axis];
  }
  /// The loops whose iterations are digits of a unit, with the axis.
  const std::map<unsigned, unsigned> &itemLoops() const { return ItemLoops; }

private:
  std::array<std::optional<UnitChain>, 3> Canonical;
  std::map<unsigned, unsigned> ItemLoops;
};

} // namespace energy

#endif
