//===- KernelPlanRefine.cpp - After the screen: ptxas and known blocks ----===//
//
// The screen predicts every candidate from its assignment's features. Two
// stages then spend more compile time on the few that matter: ptxas checks
// the registers of the best assignments, and a free search predicts its
// best candidates again with their blocks known.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanner.h"

#include "CandidateFeatures.h"

#include "llvm/ADT/ScopeExit.h"

#include <algorithm>
#include <set>

using namespace llvm;

namespace energy {

Error KernelPlanner::checkRegistersWithToolchain(KernelPlan &P,
                                                 const LaunchPlanner &Planner,
                                                 const ForcedConfig *Force) {
  if (!P.Simplified || P.Assignments.size() <= MaxToolchainChecked ||
      !Extractor.hasToolchain())
    return Error::success(); // measured with ptxas already, or never
  // The assignments of the best predicted candidates, best first.
  std::vector<size_t> Checked;
  for (size_t I : bestFirst(P)) {
    size_t A = P.Candidates[I].Assignment;
    if (Checked.size() < MaxToolchainChecked && !llvm::is_contained(Checked, A))
      Checked.push_back(A);
  }
  for (size_t A : Checked) {
    auto Features = Extractor.extract(*P.Kernel, assignmentValues(P, A),
                                      /*Optimized=*/true, knownLaunch(Force),
                                      /*WithToolchain=*/true);
    if (!Features)
      return Features.takeError();
    P.Features[A] = std::move(*Features); // in place: candidates point here
  }
  Extractor.release();
  // Occupancy follows the registers: rebuild the candidates of those
  // assignments and the baselines, then prune and choose again.
  auto Rebuild = [&](Candidate &C) -> Error {
    if (!llvm::is_contained(Checked, C.Assignment))
      return Error::success();
    auto New = makeCandidate(P, C.Assignment, C.Block);
    if (!New)
      return New.takeError();
    C = std::move(*New);
    return Error::success();
  };
  for (Candidate &C : P.Candidates)
    if (Error E = Rebuild(C))
      return E;
  for (Candidate *B : {&P.DefaultBaseline, &P.OccupancyBaseline})
    if (Error E = Rebuild(*B))
      return E;
  if (Error E = Planner.choose(P))
    return E;
  return reportChoice(P, Force);
}

/// Candidates a free search predicts again with their block known, besides
/// those of the baselines: each costs a simplification of the kernel.
constexpr size_t MaxBlockRefined = 4;

Error KernelPlanner::refineWithBlocks(KernelPlan &P, const CostModel &Model) {
  if (P.Force || !P.Simplified || !P.Infeasible.empty())
    return Error::success();
  double SecondsBefore = Extractor.featureSeconds();
  auto Timed = make_scope_exit(
      [&] { P.RefineSeconds = Extractor.featureSeconds() - SecondsBefore; });
  using Key = std::pair<size_t, BlockShape>;
  auto KeyOf = [](const Candidate &C) { return Key(C.Assignment, C.Block); };
  // Who is refined, within the budget: the incumbent first (min-gain
  // compares with it), then the screen's best candidates, then the other
  // baselines; the same code (assignment and block) is simplified once.
  std::set<Key> Planned;
  uint64_t Left = Opts.RefineBudget;
  auto Afford = [&](const Candidate &C) {
    if (Planned.count(KeyOf(C)))
      return true;
    uint64_t Cost =
        std::max(1u, P.Features[C.Assignment].SimplifiedInstructions);
    if (Cost > Left)
      return false;
    Left -= Cost;
    Planned.insert(KeyOf(C));
    return true;
  };
  std::vector<size_t> Best = bestFirst(P);
  const Candidate &Incumbent = P.incumbent();
  if ((Incumbent.Pruned == PruneReason::None && !Afford(Incumbent)) ||
      Best.empty() || !Afford(P.Candidates[Best.front()])) {
    P.Notes.push_back(
        "not predicted again with the block known: simplifying " +
        std::to_string(P.Features[P.chosen().Assignment]
                           .SimplifiedInstructions) +
        " instructions per candidate exceeds the budget of " +
        std::to_string(Opts.RefineBudget) + " (-energy-refine-budget)");
    return Error::success();
  }
  std::vector<Candidate *> Baselines = P.baselines();
  auto IsBaseline = [&](const Candidate &C) {
    return llvm::any_of(Baselines, [&](const Candidate *B) {
      return KeyOf(*B) == KeyOf(C);
    });
  };
  size_t Kept = 0;
  llvm::erase_if(Best, [&](size_t I) {
    const Candidate &C = P.Candidates[I];
    if ((Kept >= MaxBlockRefined && !IsBaseline(C)) || !Afford(C))
      return true;
    ++Kept;
    return false;
  });
  for (Candidate *B : Baselines)
    if (B->Pruned == PruneReason::None)
      Afford(*B);
  auto Refine = [&](Candidate &C) -> Error {
    auto It = P.BlockFeatures.find(KeyOf(C));
    if (It == P.BlockFeatures.end()) {
      auto Features = Extractor.extract(
          *P.Kernel, assignmentValues(P, C.Assignment), /*Optimized=*/true,
          CandidateFeatureExtractor::KnownLaunch{C.Block, std::nullopt, {}},
          /*WithToolchain=*/false);
      if (!Features)
        return Features.takeError();
      // ptxas's registers, spills and frame where it gave them: the
      // candidate's occupancy stays what the screen found.
      const KernelFeatures &Screened = P.Features[C.Assignment];
      Features->register_estimate = Screened.register_estimate;
      Features->spill_bytes = Screened.spill_bytes;
      Features->local_frame_bytes = Screened.local_frame_bytes;
      Features->RegistersFrom = Screened.RegistersFrom;
      It = P.BlockFeatures.emplace(KeyOf(C), std::move(*Features)).first;
    }
    C.Query.Features = &It->second;
    return Error::success();
  };
  std::vector<Candidate> Refined;
  for (size_t I : Best) {
    if (Error E = Refine(P.Candidates[I]))
      return E;
    Refined.push_back(P.Candidates[I]);
  }
  for (Candidate *B : Baselines)
    if (B->Pruned == PruneReason::None && Planned.count(KeyOf(*B)))
      if (Error E = Refine(*B))
        return E;
  Extractor.release();
  auto Choice =
      predictAndChoose(Refined, Baselines, &P.incumbent(), Model, P.Objective);
  if (!Choice)
    return Choice.takeError();
  // The front and the choice are the refined candidates'.
  for (Candidate &C : P.Candidates)
    C.OnFront = false;
  for (size_t J = 0; J < Best.size(); ++J) {
    P.Candidates[Best[J]].Prediction = Refined[J].Prediction;
    P.Candidates[Best[J]].OnFront = Refined[J].OnFront;
  }
  P.Choice = Best[Choice->Index];
  P.KeptIncumbentWithin = Choice->KeptIncumbent
                              ? std::optional(P.Objective.MinGain)
                              : std::nullopt;
  return Error::success();
}

} // namespace energy
