//===- Stats.cpp - Summaries of a measurement's samples -------------------===//

#include "Stats.h"

#include <algorithm>

namespace bench {

Stats statsOf(std::vector<double> V) {
  Stats S;
  S.Count = V.size();
  if (V.empty())
    return S;
  std::sort(V.begin(), V.end());
  S.Min = V.front();
  S.Max = V.back();
  size_t N = V.size();
  S.Median = N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
  return S;
}

double spreadOf(const std::vector<double> &V) {
  Stats S = statsOf(V);
  return S.Count >= 4 && S.Median > 0 ? (S.Max - S.Min) / S.Median : 0;
}

std::vector<double> subWindowPowers(const std::vector<double> &Times,
                                    const std::vector<double> &Joules) {
  std::vector<double> Out;
  if (Times.size() < 2 || !(Times.back() > Times.front()))
    return Out;
  auto At = [&](double T) {
    size_t I = size_t(std::upper_bound(Times.begin(), Times.end(), T) - Times.begin());
    if (I == 0)
      return Joules.front();
    if (I == Times.size())
      return Joules.back();
    double F = (T - Times[I - 1]) / (Times[I] - Times[I - 1]);
    return Joules[I - 1] + F * (Joules[I] - Joules[I - 1]);
  };
  double Step = (Times.back() - Times.front()) / 4;
  for (int W = 0; W < 4; ++W) {
    double A = Times.front() + W * Step, B = W == 3 ? Times.back() : A + Step;
    Out.push_back((At(B) - At(A)) / (B - A));
  }
  return Out;
}

} // namespace bench
