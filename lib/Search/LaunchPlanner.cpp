//===- LaunchPlanner.cpp - One launch planner for both passes -------------===//

#include "energy/LaunchPlanner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace energy {

Explanation explainPlan(const LaunchPlan &P, const Explanation &Config,
                        StringRef Objective, uint64_t WorkItems,
                        const GpuArch &Arch, StringRef LeftOut) {
  std::vector<NamedBaseline> Baselines = {
      {"occupancy heuristic", "OccupancyHeuristic", &P.OccupancyBaseline},
      {"default", "Default", &P.DefaultBaseline}};
  if (P.CurrentBaseline && P.CurrentBaseline->Block != P.DefaultBaseline.Block)
    Baselines.push_back({"launch's block", "Launch", &*P.CurrentBaseline});
  std::string Notes = LeftOut.str();
  auto Add = [&](const std::string &Note) {
    Notes += (Notes.empty() ? "" : "; ") + Note;
  };
  if (P.ScreenedOut)
    Add(std::to_string(P.ScreenedOut) +
        " screened out by the block-free screen");
  if (P.Refined)
    Add(std::to_string(P.Refined) + " predicted again with the block known");
  // The parenthesis names what decided: the objective's best, or min-gain
  // keeping the incumbent (the objective's best was not better by enough).
  Explanation Why;
  if (P.KeptIncumbentWithin) {
    std::string Percent;
    raw_string_ostream(Percent) << format("%g", *P.KeptIncumbentWithin * 100);
    Why << "the " << (P.CurrentBaseline ? "launch's block" : "default")
        << " stays: no candidate is predicted to improve on it by more than ";
    Why.value("MinGainPercent", Percent) << "% in ";
  }
  Why.value("Objective", Objective.str());
  return explainChoice(Config, Why, P.chosen(), WorkItems, Arch, Baselines,
                       P.evaluated(), P.Candidates, Notes);
}

Error LaunchPlanner::enumerate(LaunchPlan &P) const {
  for (size_t A = 0; A < Space.Assignments; ++A) {
    auto Shapes = Space.Shapes(A);
    if (!Shapes)
      return Shapes.takeError();
    for (const BlockShape &B : *Shapes) {
      if (auto Why = Space.Violation(A, B)) {
        bool Keep = false;
        if (Space.OnViolation) {
          auto Kept = Space.OnViolation(B, *Why);
          if (!Kept)
            return Kept.takeError();
          Keep = *Kept;
        }
        if (!Keep) {
          ++P.Illegal;
          continue;
        }
      }
      auto C = Space.Make(A, B);
      if (!C)
        return C.takeError();
      P.Candidates.push_back(std::move(*C));
    }
  }
  if (!P.Candidates.empty())
    return Error::success();
  if (!Space.NoneLegal.empty()) {
    P.Infeasible = Space.NoneLegal.str();
    return Error::success();
  }
  // Nothing searched passes: keep the declared default, never a guess.
  P.OnlyDefault = true;
  auto C = Space.Make(Space.DefaultAssignment, Space.DefaultBlock);
  if (!C)
    return C.takeError();
  P.Candidates.push_back(std::move(*C));
  return Error::success();
}

bool LaunchPlanner::prune(LaunchPlan &P) const {
  // A forced or the only config was asked for: only resources prune it.
  PruneCounts Pruned =
      pruneCandidates(P.Candidates, Space.KeepCliffs || P.OnlyDefault);
  P.PrunedResources = Pruned.Resources;
  P.PrunedCliff = Pruned.Cliff;
  if (P.evaluated() > 0)
    return true;
  P.Infeasible = noCandidateFits(P.Candidates, *Space.Arch, Space.WorkItems);
  return false;
}

Error LaunchPlanner::makeBaselines(LaunchPlan &P) const {
  Error Failed = Error::success();
  auto Build = [&](const BlockShape &B) {
    auto C = Space.Make(Space.DefaultAssignment, B);
    if (C)
      return std::move(*C);
    Failed = joinErrors(std::move(Failed), C.takeError());
    return Candidate();
  };
  if (Space.CurrentBlock)
    P.CurrentBaseline = Build(*Space.CurrentBlock);
  if (!Space.FreeShape) {
    P.DefaultBaseline = P.OccupancyBaseline = Build(Space.DefaultBlock);
    return Failed;
  }
  BaselineCandidates B = energy::makeBaselines(
      *Space.Arch, Space.TwoD, Space.DefaultBlock, Build,
      [&](const BlockShape &Shape) {
        return !Space.RuleBindsBaselines ||
               !Space.Violation(Space.DefaultAssignment, Shape);
      });
  P.DefaultBaseline = std::move(B.Default);
  P.OccupancyBaseline = std::move(B.OccupancyHeuristic);
  return Failed;
}

void LaunchPlanner::record(LaunchPlan &P, size_t Choice,
                           bool KeptIncumbent) const {
  P.Choice = Choice;
  P.KeptIncumbentWithin =
      KeptIncumbent ? std::optional(Objective.MinGain) : std::nullopt;
}

Error LaunchPlanner::predict(LaunchPlan &P) const {
  auto Choice = predictAndChoose(P.Candidates, P.baselines(), &P.incumbent(),
                                 Model, Objective);
  if (!Choice)
    return Choice.takeError();
  record(P, Choice->Index, Choice->KeptIncumbent);
  return Error::success();
}

Error LaunchPlanner::plan(LaunchPlan &P) const {
  if (Error E = enumerate(P))
    return E;
  if (!P.Infeasible.empty() || !prune(P))
    return Error::success();
  if (Error E = makeBaselines(P))
    return E;
  return predict(P);
}

Error LaunchPlanner::choose(LaunchPlan &P) const {
  if (!prune(P))
    return Error::success();
  return predict(P);
}

Expected<bool> LaunchPlanner::refine(LaunchPlan &P,
                                     const BlockRefinement &R) const {
  using Key = std::pair<size_t, BlockShape>;
  auto KeyOf = [](const Candidate &C) { return Key(C.Assignment, C.Block); };
  // The incumbent first (min-gain compares with it), the screen's best and
  // the baselines that launch: a choice compared with predictions made
  // another way would mean nothing, so without all of them nothing is
  // refined. Then the screen's next best, while the budget lasts.
  std::set<Key> Planned;
  uint64_t Left = R.Budget;
  auto Afford = [&](const Candidate &C) {
    if (Planned.count(KeyOf(C)))
      return true;
    uint64_t Cost = R.Cost(C);
    if (Cost > Left)
      return false;
    Left -= Cost;
    Planned.insert(KeyOf(C));
    return true;
  };
  std::vector<size_t> Best = bestFirst(P.Candidates, Objective.Goal);
  std::vector<Candidate *> Baselines = P.baselines();
  auto Launches = [](const Candidate &B) {
    return B.Pruned == PruneReason::None;
  };
  const Candidate &Incumbent = P.incumbent();
  if ((Launches(Incumbent) && !Afford(Incumbent)) || Best.empty() ||
      !Afford(P.Candidates[Best.front()]))
    return false;
  for (Candidate *B : Baselines)
    if (Launches(*B) && !Afford(*B))
      return false;
  auto IsBaseline = [&](const Candidate &C) {
    return llvm::any_of(Baselines, [&](const Candidate *B) {
      return KeyOf(*B) == KeyOf(C);
    });
  };
  // Why each of the screen's ranking is left with the screen's prediction.
  std::vector<size_t> Screen = Best;
  std::map<size_t, std::string> Why;
  size_t Kept = 0;
  llvm::erase_if(Best, [&](size_t I) {
    const Candidate &C = P.Candidates[I];
    // Measured with its block by the screen already: compared for free.
    bool Free = R.Cost(C) == 0;
    if (Kept >= R.MaxBest && !IsBaseline(C) && !Free) {
      Why[I] = "only its " + std::to_string(R.MaxBest) +
               " best were predicted again with their block";
      return true;
    }
    if (!Afford(C)) {
      Why[I] = "predicting it again with its block would exceed the "
               "refinement budget";
      return true;
    }
    Kept += !Free;
    return false;
  });
  // Refined copies: P changes only when a refined candidate is left.
  std::vector<Candidate> Refined;
  for (size_t I : Best) {
    Candidate C = P.Candidates[I];
    C.OnFront = false; // the screen's front, until the refined one is known
    if (Error E = R.Refine(C))
      return E;
    // Its registers may now leave the block no launch (or more than an
    // unbounded build can launch with, which only a forced configuration
    // keeps).
    if (pruneCandidate(C.Query.Occ, 0) == PruneReason::Resources ||
        (C.TooManyRegisters && !Space.KeepCliffs))
      C.Pruned = PruneReason::Resources;
    Refined.push_back(std::move(C));
  }
  if (llvm::none_of(Refined, Launches))
    return false;
  for (Candidate *B : Baselines)
    if (Launches(*B))
      if (Error E = R.Refine(*B))
        return E;
  auto Choice =
      predictAndChoose(Refined, Baselines, &P.incumbent(), Model, Objective);
  if (!Choice)
    return Choice.takeError();
  // The front and the choice are the refined candidates'.
  for (Candidate &C : P.Candidates)
    C.OnFront = false;
  P.Refined = 0;
  for (size_t J = 0; J < Best.size(); ++J) {
    // Those measured with their block by the screen already are not counted.
    P.Refined +=
        Refined[J].Query.Features != P.Candidates[Best[J]].Query.Features;
    P.Candidates[Best[J]] = std::move(Refined[J]);
  }
  P.PrunedResources = llvm::count_if(P.Candidates, [](const Candidate &C) {
    return C.Pruned == PruneReason::Resources;
  });
  // The others keep no figure: only their rank says what the screen saw.
  P.ScreenedOut = 0;
  for (size_t Rank = 0; Rank < Screen.size(); ++Rank) {
    auto It = Why.find(Screen[Rank]);
    if (It == Why.end())
      continue;
    Candidate &C = P.Candidates[It->first];
    C.ScreenedOut = "ranked " + std::to_string(Rank + 1) + " of " +
                    std::to_string(Screen.size()) +
                    " by the block-free screen; " + It->second;
    C.Prediction = CostPrediction();
    ++P.ScreenedOut;
  }
  record(P, Best[Choice->Index], Choice->KeptIncumbent);
  return true;
}

} // namespace energy
