//===- LaunchPlan.cpp - Block shape choice for one gpu.func ---------------===//

#include "LaunchPlan.h"

using namespace llvm;

namespace energy {

static Candidate makeCandidate(const LaunchPlanRequest &R, const BlockShape &B) {
  return energy::makeCandidate(
      *R.Features, *R.Arch, B,
      blocksForWorkload(R.WorkItems, /*WorkPerThread=*/1, B),
      static_cast<unsigned>(R.Features->static_shared_bytes) +
          R.DynamicSharedBytes);
}

/// Grid dimensions every CUDA GPU since compute capability 3.0 accepts.
static constexpr LaunchExtent MaxGrid = {MaxGridBlocksX, 65535, 65535};

/// Whether every launch can be rewritten to B: B keeps the baked-in extents
/// and divides each launch's threads in every dimension into a grid that
/// can launch.
static bool launchable(const LaunchPlanRequest &R, const BlockShape &B) {
  for (unsigned D = 0; D < 3; ++D) {
    if (R.FixedExtent[D] && *R.FixedExtent[D] != B[D])
      return false;
    for (const LaunchExtent &Total : R.LaunchTotals)
      if (Total[D] % B[D] != 0 || Total[D] / B[D] > MaxGrid[D])
        return false;
  }
  return true;
}

Expected<LaunchPlan> planLaunch(const LaunchPlanRequest &R,
                                const CostModel &Model) {
  LaunchPlan P;
  bool TwoD = R.Features->usesBlockY();
  for (const BlockShape &B :
       freeBlockShapes(TwoD, R.Arch->WarpSize, R.Arch->MaxThreadsPerBlock)) {
    if (launchable(R, B))
      P.Candidates.push_back(makeCandidate(R, B));
    else
      ++P.Excluded;
  }
  if (P.Candidates.empty()) {
    P.Infeasible = "no candidate block divides the threads of every launch "
                   "into a valid grid and keeps the block extents the kernel "
                   "bakes in";
    return P;
  }

  PruneCounts Pruned = pruneCandidates(P.Candidates);
  P.PrunedResources = Pruned.Resources;
  P.PrunedCliff = Pruned.Cliff;
  if (P.evaluated() == 0) {
    P.Infeasible = noCandidateFits(P.Candidates, *R.Arch, R.WorkItems);
    return P;
  }

  // Every free shape is a launch the user could write.
  BaselineCandidates B = makeBaselines(
      *R.Arch, TwoD, typicalBlockShape(TwoD),
      [&](const BlockShape &Shape) { return makeCandidate(R, Shape); },
      [](const BlockShape &) { return true; });
  P.DefaultBaseline = B.Default;
  P.OccupancyBaseline = B.OccupancyHeuristic;
  if (R.CurrentBlock)
    P.CurrentBaseline = makeCandidate(R, *R.CurrentBlock);

  std::vector<Candidate *> Baselines = {&P.OccupancyBaseline,
                                        &P.DefaultBaseline};
  if (P.CurrentBaseline)
    Baselines.push_back(&*P.CurrentBaseline);
  auto Choice = predictAndChoose(P.Candidates, Baselines, Model, R.Objective);
  if (!Choice)
    return Choice.takeError();
  P.Choice = *Choice;
  return P;
}

std::string explainLaunchChoice(const LaunchPlanRequest &R,
                                const LaunchPlan &P) {
  std::vector<NamedBaseline> Baselines = {
      {"occupancy heuristic", "OccupancyHeuristic", &P.OccupancyBaseline},
      {"default", "Default", &P.DefaultBaseline}};
  if (P.CurrentBaseline && P.CurrentBaseline->Block != P.DefaultBaseline.Block)
    Baselines.push_back({"launch's block", "Launch", &*P.CurrentBaseline});
  std::string LeftOut;
  if (P.Excluded)
    LeftOut = std::to_string(P.Excluded) + " more do not fit the launch sites";
  return explainChoice(describeBlock(P.chosen().Block), R.Objective.describe(),
                       P.chosen(), R.WorkItems, *R.Arch, Baselines,
                       P.evaluated(), P.Candidates, LeftOut)
      .str();
}

} // namespace energy
