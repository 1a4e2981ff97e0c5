//===- RunPlan.cpp - Which measurements a run makes, in which order -------===//
//
// The plan half of Runner.h: selected kernels, priority and repeated configs,
// and the interleaved measuring order. Measuring it is Runner.cpp's.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace bench {

std::vector<size_t> selectedKernels(const Manifest &M, const RunOptions &Opts) {
  std::vector<size_t> Out;
  for (size_t I = 0; I < M.Kernels.size(); ++I)
    if (Opts.Only.empty() ||
        std::find(Opts.Only.begin(), Opts.Only.end(), M.Kernels[I].Name) != Opts.Only.end())
      Out.push_back(I);
  return Out;
}

/// Fisher-Yates with a fixed generator (std::shuffle's order differs between
/// standard libraries; the plan should not).
template <typename T> static void shuffle(std::vector<T> &V, uint64_t Seed) {
  uint64_t S = Seed;
  auto Next = [&S] {
    uint64_t Z = (S += 0x9e3779b97f4a7c15ull);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
    return Z ^ (Z >> 31);
  };
  for (size_t I = V.size(); I > 1; --I)
    std::swap(V[I - 1], V[Next() % I]);
}

std::vector<size_t> priorityConfigs(const KernelSpec &K, const ResumeState &State) {
  std::vector<std::string> Ids;
  for (const auto &Choice : K.Choices)
    Ids.push_back(Choice.second);
  Ids.push_back(K.DefaultConfig);
  auto Pick = State.OccupancyPicks.find(K.Name);
  Ids.push_back(Pick != State.OccupancyPicks.end() ? Pick->second : K.PluginOccupancyConfig);
  std::vector<size_t> Out;
  for (const std::string &Id : Ids)
    for (size_t CI = 0; CI < K.Configs.size(); ++CI)
      if (K.Configs[CI].Id == Id && std::find(Out.begin(), Out.end(), CI) == Out.end())
        Out.push_back(CI);
  return Out;
}

std::vector<bool> repeatedConfigs(const KernelSpec &K, double Fraction, uint64_t Seed) {
  std::vector<bool> Out(K.Configs.size(), false);
  size_t Count = 0;
  for (size_t CI = 0; CI < K.Configs.size(); ++CI)
    Count += Out[CI] = K.Configs[CI].Repeat;
  std::vector<size_t> Order;
  for (size_t CI = 0; CI < K.Configs.size(); ++CI)
    Order.push_back(CI);
  shuffle(Order, hashString(K.Name + "#repeats", Seed));
  size_t Want = size_t(std::ceil(Fraction * double(K.Configs.size()) - 1e-9));
  for (size_t CI : Order)
    if (Count < Want && !Out[CI]) {
      Out[CI] = true;
      ++Count;
    }
  return Out;
}

std::vector<PlanItem> buildPlan(const Manifest &M, const RunOptions &Opts,
                                const ResumeState &State, size_t &Total) {
  std::vector<size_t> Kernels = selectedKernels(M, Opts);
  shuffle(Kernels, hashString("kernel order", Opts.Seed));
  // Every kernel's first configs, then the rest; kernels take turns in each.
  std::vector<std::deque<PlanItem>> Phases[2];
  Total = 0;
  for (size_t KI : Kernels) {
    const KernelSpec &K = M.Kernels[KI];
    std::vector<size_t> Priority = priorityConfigs(K, State);
    std::vector<bool> Repeated = repeatedConfigs(K, Opts.RepeatFraction, Opts.Seed);
    std::vector<PlanItem> First, Rest, Repeats;
    for (size_t CI : Priority)
      First.push_back({KI, CI, 0});
    for (size_t CI = 0; CI < K.Configs.size(); ++CI) {
      if (std::find(Priority.begin(), Priority.end(), CI) == Priority.end())
        Rest.push_back({KI, CI, 0});
      if (Repeated[CI])
        Repeats.push_back({KI, CI, 1});
    }
    shuffle(Rest, hashString(K.Name, Opts.Seed));
    shuffle(Repeats, hashString(K.Name + "#repeat", Opts.Seed));
    // Repeats spread evenly over the rest, each at least one config after its
    // first measurement: another time, another temperature, which is the
    // noise they are meant to show.
    std::vector<std::pair<size_t, PlanItem>> Places;
    for (size_t J = 0; J < Repeats.size(); ++J) {
      size_t After = 0;
      for (size_t I = 0; I < Rest.size(); ++I)
        if (Rest[I].Config == Repeats[J].Config)
          After = I + 1;
      size_t At = std::max(After + 1, (J + 1) * Rest.size() / (Repeats.size() + 1));
      Places.emplace_back(std::min(At, Rest.size()), Repeats[J]);
    }
    std::stable_sort(Places.begin(), Places.end(),
                     [](const auto &A, const auto &B) { return A.first > B.first; });
    for (const auto &P : Places)
      Rest.insert(Rest.begin() + long(P.first), P.second);
    for (int Phase = 0; Phase < 2; ++Phase) {
      std::deque<PlanItem> Q;
      for (const PlanItem &P : Phase == 0 ? First : Rest) {
        ++Total;
        if (!State.Done.count(doneKey(K.Configs[P.Config].Id, P.RepeatIndex)))
          Q.push_back(P);
      }
      Phases[Phase].push_back(std::move(Q));
    }
  }
  std::vector<PlanItem> Plan;
  for (std::vector<std::deque<PlanItem>> &PerKernel : Phases)
    for (bool Any = true; Any;) {
      Any = false;
      for (std::deque<PlanItem> &Q : PerKernel)
        if (!Q.empty()) {
          Plan.push_back(Q.front());
          Q.pop_front();
          Any = true;
        }
    }
  return Plan;
}

} // namespace bench
