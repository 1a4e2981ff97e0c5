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
#include <limits>

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
  for (size_t I : bestFirst(P.Candidates, P.Objective.Goal)) {
    size_t A = P.Candidates[I].Assignment;
    if (Checked.size() < MaxToolchainChecked && !llvm::is_contained(Checked, A))
      Checked.push_back(A);
  }
  for (size_t A : Checked) {
    auto Features = Extractor.extract(*P.Kernel, assignmentValues(P, A),
                                      /*Optimized=*/true, knownLaunch(P, A),
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

Error KernelPlanner::refineWithBlocks(KernelPlan &P,
                                      const LaunchPlanner &Planner) {
  if (P.Force || !P.Infeasible.empty())
    return Error::success();
  double SecondsBefore = Extractor.featureSeconds();
  auto Timed = make_scope_exit(
      [&] { P.RefineSeconds = Extractor.featureSeconds() - SecondsBefore; });
  auto Refine = [&](Candidate &C) -> Error {
    auto Key = std::make_pair(C.Assignment, C.Block);
    auto It = P.BlockFeatures.find(Key);
    if (It == P.BlockFeatures.end()) {
      auto Features = Extractor.extract(
          *P.Kernel, assignmentValues(P, C.Assignment), P.Simplified,
          CandidateFeatureExtractor::KnownLaunch{
              C.Block, P.launchGrid(C.Assignment, C.Block), {}, {}},
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
      It = P.BlockFeatures.emplace(Key, std::move(*Features)).first;
    }
    C.Query.Features = &It->second;
    return Error::success();
  };
  // A simplification costs about its code's size; the cleanup-only path
  // (advice) is cheap, one unit a candidate.
  auto Cost = [&](const Candidate &C) -> uint64_t {
    return P.Features[C.Assignment].SimplifiedInstructions;
  };
  BlockRefinement R{Refine, Cost, Opts.RefineBudget};
  // A loop that strides over the launch's threads is counted only with the
  // block known: the screen gave every block the same default count, so it
  // cannot rank them; each is predicted again while the budget lasts.
  if (llvm::any_of(P.Features, [](const KernelFeatures &F) {
        return llvm::any_of(F.AssumedTrips, [](const AssumedTrip &A) {
          return A.followsLaunch();
        });
      }))
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
