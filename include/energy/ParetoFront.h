//===- ParetoFront.h - Time/energy Pareto front -----------------*- C++ -*-===//
//
// The candidates that no other candidate beats on both predicted time and
// predicted energy: the choices an objective (fastest, least energy, energy-
// delay product, a time budget) picks from.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_PARETOFRONT_H
#define ENERGY_PARETOFRONT_H

#include "llvm/ADT/ArrayRef.h"
#include <cstddef>
#include <vector>

namespace energy {

struct ParetoPoint {
  double Time;
  double Energy;
  size_t Index; // the caller's candidate index
};

/// The points not dominated in (Time, Energy), both minimized: P dominates Q
/// when P is no worse on both and better on one. Of points equal on both,
/// only the one with the lowest Index is kept. Points with a NaN coordinate
/// (a failed prediction) are ignored. The result is sorted by ascending Time,
/// hence strictly descending Energy.
std::vector<ParetoPoint> computeParetoFront(llvm::ArrayRef<ParetoPoint> Points);

} // namespace energy

#endif
