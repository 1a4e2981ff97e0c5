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
/// to candidates at most (1 + X) times the fastest predicted time. MinGain G:
/// the launch that runs when nothing is chosen stays unless a candidate is
/// predicted to improve the goal's score by more than G of it; 0.10 because
/// smaller predicted gains are within the model's error: configurations
/// predicted 5-10% apart are measured in the opposite order a third of the
/// time, and with 0.10 a third fewer defaults are replaced by a measured
/// slower launch than with 0.01, at under 1% of the measured gain
/// (energy.min_gain_study on the Kernel Tuner rows, docs/min-gain.md).
struct ObjectiveSpec {
  Objective Goal = Objective::Energy;
  std::optional<double> MaxSlowdown = 0.10;
  double MinGain = 0.10;
  std::string describe() const;
};

/// The value Goal minimizes for a predicted (Time, Energy).
double objectiveValue(double Time, double Energy, Objective Goal);

/// Checks a max-slowdown value X (nullopt: Spelled is no number): a finite
/// number >= 0. NaN would let no candidate pass, infinity every one.
llvm::Error checkMaxSlowdown(std::optional<double> X, llvm::StringRef Spelled);

/// Checks a min-gain value G (nullopt: Spelled is no number): a number in
/// [0, 1).
llvm::Error checkMinGain(std::optional<double> G, llvm::StringRef Spelled);

/// The objective's pick among (Time, Energy) pairs. Times and Energies have
/// equal, non-zero size.
struct ObjectiveChoice {
  size_t Index;
  /// Index is the incumbent although another candidate scores better, by
  /// no more than the objective's MinGain.
  bool KeptIncumbent = false;
};

/// The candidate the objective picks; ties go to the lower index. Incumbent,
/// when given, is the launch that runs when nothing is chosen: it stays
/// unless the pick improves on it by more than O.MinGain. An error, never an
/// index out of range, when the objective allows none (NaN predicted times).
llvm::Expected<ObjectiveChoice>
chooseCandidate(llvm::ArrayRef<double> Times, llvm::ArrayRef<double> Energies,
                const ObjectiveSpec &O,
                std::optional<size_t> Incumbent = std::nullopt);

} // namespace energy

#endif
