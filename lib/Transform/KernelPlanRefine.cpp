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
#include "llvm/ADT/Statistic.h"

#include <algorithm>
#include <limits>

#define DEBUG_TYPE "energy-candidates"

using namespace llvm;

STATISTIC(NumRefined, "Candidates predicted again with their block known");

namespace energy {

Error KernelPlanner::checkRegistersWithToolchain(KernelPlan &P,
                                                 const LaunchPlanner &Planner,
                                                 const ForcedConfig *Force) {
  if (!P.Simplified || P.Assignments.size() <= MaxToolchainChecked ||
      !Extractor.hasToolchain())
    return Error::success(); // measured with ptxas already, or never
  std::vector<size_t> Checked;
  auto Check = [&](size_t A) -> Error {
    auto Features = Extractor.extract(
        *P.Kernel, assignmentValues(P, A),
        builtArrays(P, A, P.ScreenBlocks[A]), /*Optimized=*/true,
        screenLaunch(P, A), /*WithToolchain=*/true);
    if (!Features)
      return Features.takeError();
    P.Features[A] = std::move(*Features); // in place: candidates point here
    Checked.push_back(A);
    return Error::success();
  };
  // Occupancy follows the registers: rebuild the candidates of the checked
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
  auto ChooseAgain = [&]() -> Error {
    for (Candidate &C : P.Candidates)
      if (Error E = Rebuild(C))
        return E;
    for (Candidate *B : P.baselines())
      if (Error E = Rebuild(*B))
        return E;
    return Planner.choose(P);
  };
  // The baselines' assignment and those of the best predicted candidates,
  // best first.
  std::vector<size_t> ToCheck = {P.DefaultBaseline.Assignment};
  for (size_t I : bestFirst(P.Candidates, P.Objective.Goal)) {
    size_t A = P.Candidates[I].Assignment;
    if (ToCheck.size() <= MaxToolchainChecked && !llvm::is_contained(ToCheck, A))
      ToCheck.push_back(A);
  }
  for (size_t A : ToCheck)
    if (Error E = Check(A))
      return E;
  if (Error E = ChooseAgain())
    return E;
  // A choice among ptxas's registers and estimates would compare two
  // measures: until the choice's registers are ptxas's, check them too.
  while (P.Infeasible.empty() &&
         !llvm::is_contained(Checked, P.chosen().Assignment)) {
    if (Error E = Check(P.chosen().Assignment))
      return E;
    if (Error E = ChooseAgain())
      return E;
  }
  Extractor.release();
  return reportChoice(P, Force);
}

Error KernelPlanner::refineWithBlocks(KernelPlan &P,
                                      const LaunchPlanner &Planner) {
  if (!P.Infeasible.empty())
    return Error::success();
  // A loop that strides over the launch's threads is counted only with the
  // block known: the screen gave every block the same default count, so it
  // cannot rank them; each is predicted again while the budget lasts.
  bool CountFollowsLaunch = llvm::any_of(P.Features, [](const KernelFeatures &F) {
    return llvm::any_of(F.AssumedTrips,
                        [](const AssumedTrip &A) { return A.followsLaunch(); });
  });
  // Advice nobody asked for stays cheap: loading the plugin into a build
  // whose kernels did not opt in should cost a few percent of the compile.
  // Its cleaned-up code costs one unit a candidate to measure again, so a
  // kernel whose loop count follows the launch is counted as an opted-in
  // one is: the screen's equal default counts would rank nothing.
  if (!P.OptedIn && !P.Force && Opts.Advice == AdviceMode::Screen &&
      !CountFollowsLaunch) {
    P.Notes.push_back("advice from the screen: each candidate predicted "
                      "without its block known (-energy-advice=full "
                      "predicts the best again with their blocks known)");
    return Error::success();
  }
  double SecondsBefore = Extractor.featureSeconds();
  auto Timed = make_scope_exit(
      [&] { P.RefineSeconds = Extractor.featureSeconds() - SecondsBefore; });
  // Measured as built already: with its block, and with ptxas's registers
  // where ptxas can give them.
  auto KnownAtScreen = [&](const Candidate &C) {
    const KernelFeatures &F = P.Features[C.Assignment];
    return P.ScreenBlocks[C.Assignment] == C.Block &&
           (F.RegistersFrom != "estimate" || !P.Simplified ||
            !Extractor.hasToolchain());
  };
  // The candidate is made again from features measured as it is built: its
  // shared arrays at their size, its block folded, its registers from ptxas
  // on that code (they set its occupancy), as a forced launch is measured.
  auto Refine = [&](Candidate &C) -> Error {
    if (KnownAtScreen(C))
      return Error::success();
    auto Key = std::make_pair(C.Assignment, C.Block);
    auto It = P.BlockFeatures.find(Key);
    if (It == P.BlockFeatures.end()) {
      auto Features = Extractor.extract(
          *P.Kernel, assignmentValues(P, C.Assignment),
          builtArrays(P, C.Assignment, C.Block), P.Simplified,
          blockLaunch(P, C.Assignment, C.Block), /*WithToolchain=*/true);
      if (!Features)
        return Features.takeError();
      ++NumRefined;
      It = P.BlockFeatures.emplace(Key, std::move(*Features)).first;
    }
    auto Remade = makeCandidate(P, C.Assignment, C.Block, It->second, C.Block);
    if (!Remade)
      return Remade.takeError();
    C = std::move(*Remade);
    return Error::success();
  };
  // A simplification costs about its code's size; the cleanup-only path
  // (advice) is cheap, one unit a candidate; one measured with its block
  // already costs nothing (and is always compared).
  auto Cost = [&](const Candidate &C) -> uint64_t {
    if (KnownAtScreen(C))
      return 0;
    return std::max<uint64_t>(
        1, P.Features[C.Assignment].SimplifiedInstructions);
  };
  BlockRefinement R{Refine, Cost, Opts.RefineBudget};
  if (CountFollowsLaunch)
    R.MaxBest = std::numeric_limits<size_t>::max();
  auto Refined = Planner.refine(P, R);
  Extractor.release();
  if (!Refined)
    return Refined.takeError();
  if (!*Refined)
    P.Notes.push_back(
        "not predicted again with the block known: simplifying " +
        std::to_string(P.Features[P.chosen().Assignment]
                           .SimplifiedInstructions) +
        " instructions per candidate exceeds the budget of " +
        std::to_string(Opts.RefineBudget) + " (-energy-refine-budget)");
  return Error::success();
}

} // namespace energy
