//===- Objective.h - Choosing one point of the Pareto front -----*- C++ -*-===//
#ifndef ENERGY_OBJECTIVE_H
#define ENERGY_OBJECTIVE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace energy {

enum class Objective { Energy, Time, EDP };

std::optional<Objective> parseObjective(llvm::StringRef S);
const char *objectiveName(Objective O);

/// What the user asked for. MaxSlowdown X (energy only) restricts the choice
/// to candidates at most (1 + X) times the fastest predicted time.
struct ObjectiveSpec {
  Objective Goal = Objective::Energy;
  std::optional<double> MaxSlowdown = 0.10;
  std::string describe() const;
};

/// Checks a max-slowdown value X (nullopt: Spelled is no number): a finite
/// number >= 0. NaN would let no candidate pass, infinity every one.
llvm::Error checkMaxSlowdown(std::optional<double> X, llvm::StringRef Spelled);

/// Index of the candidate the objective picks among (Time, Energy) pairs;
/// ties go to the lower index. Times and Energies have equal, non-zero size.
/// An error, never an index out of range, when the objective allows none
/// (NaN predicted times).
llvm::Expected<size_t> chooseCandidate(llvm::ArrayRef<double> Times,
                                       llvm::ArrayRef<double> Energies,
                                       const ObjectiveSpec &O);

} // namespace energy

#endif
