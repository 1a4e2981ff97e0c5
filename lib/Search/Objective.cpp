//===- Objective.cpp - Choosing one point of the Pareto front -------------===//

#include "energy/Objective.h"

#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>

using namespace llvm;

namespace energy {

std::optional<Objective> parseObjective(StringRef S) {
  return StringSwitch<std::optional<Objective>>(S)
      .Case("energy", Objective::Energy)
      .Case("time", Objective::Time)
      .Case("edp", Objective::EDP)
      .Default(std::nullopt);
}

const char *objectiveName(Objective O) {
  switch (O) {
  case Objective::Energy: return "energy";
  case Objective::Time: return "time";
  case Objective::EDP: return "edp";
  }
  return "energy";
}

std::string ObjectiveSpec::describe() const {
  std::string S = objectiveName(Goal);
  if (Goal == Objective::Energy && MaxSlowdown) {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), " within %.0f%% of the fastest",
                  *MaxSlowdown * 100);
    S += Buf;
  }
  return S;
}

double objectiveValue(double Time, double Energy, Objective Goal) {
  switch (Goal) {
  case Objective::Time: return Time;
  case Objective::EDP: return Time * Energy;
  case Objective::Energy: return Energy;
  }
  return Energy;
}

Error checkMaxSlowdown(std::optional<double> X, StringRef Spelled) {
  if (X && std::isfinite(*X) && *X >= 0)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "max-slowdown must be a finite number >= 0 (0.1 = "
                           "10%), got '" + Spelled + "'");
}

Error checkMinGain(std::optional<double> G, StringRef Spelled) {
  if (G && *G >= 0 && *G < 1)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "min-gain must be a number >= 0 and < 1 (0.01 = "
                           "1%), got '" + Spelled + "'");
}

Expected<ObjectiveChoice> chooseCandidate(ArrayRef<double> Times,
                                          ArrayRef<double> Energies,
                                          const ObjectiveSpec &O,
                                          std::optional<size_t> Incumbent) {
  assert(!Times.empty() && Times.size() == Energies.size());
  double Fastest = *std::min_element(Times.begin(), Times.end());
  auto Score = [&](size_t I) {
    return objectiveValue(Times[I], Energies[I], O.Goal);
  };
  auto Allowed = [&](size_t I) {
    return O.Goal != Objective::Energy || !O.MaxSlowdown ||
           Times[I] <= Fastest * (1 + *O.MaxSlowdown);
  };
  size_t Best = Times.size();
  for (size_t I = 0; I < Times.size(); ++I)
    if (Allowed(I) && (Best == Times.size() || Score(I) < Score(Best)))
      Best = I;
  if (Best == Times.size())
    return createStringError(inconvertibleErrorCode(),
                             "no candidate meets the objective (" +
                                 O.describe() +
                                 "): the predicted times are not numbers");
  // A NaN score on either side compares false: the pick stands.
  if (Incumbent && *Incumbent != Best && Allowed(*Incumbent) &&
      Score(*Incumbent) * (1 - O.MinGain) <= Score(Best))
    return ObjectiveChoice{*Incumbent, /*KeptIncumbent=*/true};
  return ObjectiveChoice{Best};
}

} // namespace energy
