//===- ParetoFront.cpp - Time/energy Pareto front -------------------------===//

#include "energy/ParetoFront.h"

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace energy;

std::vector<ParetoPoint>
energy::computeParetoFront(llvm::ArrayRef<ParetoPoint> Points) {
  std::vector<ParetoPoint> Sorted;
  Sorted.reserve(Points.size());
  for (const ParetoPoint &P : Points)
    if (!std::isnan(P.Time) && !std::isnan(P.Energy))
      Sorted.push_back(P);
  std::sort(Sorted.begin(), Sorted.end(),
            [](const ParetoPoint &A, const ParetoPoint &B) {
              return std::tie(A.Time, A.Energy, A.Index) <
                     std::tie(B.Time, B.Energy, B.Index);
            });

  // Every point before P in this order is at least as fast, so P is on the
  // front exactly when it needs less energy than all of them.
  std::vector<ParetoPoint> Front;
  for (const ParetoPoint &P : Sorted)
    if (Front.empty() || P.Energy < Front.back().Energy)
      Front.push_back(P);
  return Front;
}
