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
static constexpr LaunchExtent MaxGrid = {MaxGridBlocksX, MaxGridBlocksYZ,
                                         MaxGridBlocksYZ};

/// Why a launch cannot be rewritten to B, if one cannot: B must divide each
/// launch's threads in every dimension into a grid that can launch.
static std::optional<std::string> notLaunchable(const LaunchPlanRequest &R,
                                                const BlockShape &B) {
  for (unsigned D = 0; D < 3; ++D) {
    for (const LaunchExtent &Total : R.LaunchTotals)
      if (Total[D] % B[D] != 0 || Total[D] / B[D] > MaxGrid[D])
        return "does not divide a launch's threads into a valid grid";
  }
  return std::nullopt;
}

Expected<LaunchPlan> planLaunch(const LaunchPlanRequest &R,
                                const CostModel &Model) {
  bool TwoD = R.Features->usesBlockY();
  LaunchSpace S;
  S.Arch = R.Arch;
  S.WorkItems = R.WorkItems;
  S.DefaultBlock = typicalBlockShape(TwoD);
  S.CurrentBlock = R.CurrentBlock;
  S.TwoD = TwoD;
  // Every free shape is a launch the user could write.
  S.RuleBindsBaselines = false;
  S.NoneLegal = "no candidate block divides the threads of every launch "
                "into a valid grid";
  auto Shapes = [&](size_t) -> Expected<std::vector<BlockShape>> {
    return freeBlockShapes(TwoD, R.Arch->WarpSize, R.Arch->MaxThreadsPerBlock);
  };
  auto Violation = [&](size_t, const BlockShape &B) {
    return notLaunchable(R, B);
  };
  auto Make = [&](size_t, const BlockShape &B) -> Expected<Candidate> {
    return makeCandidate(R, B);
  };
  S.Shapes = Shapes;
  S.Violation = Violation;
  S.Make = Make;
  LaunchPlan P;
  LaunchPlanner Planner(S, Model, R.Objective);
  if (Error E = Planner.plan(P))
    return E;
  if (!P.Infeasible.empty())
    return P;
  // The screen's best and the baselines again with their blocks known, as
  // the LLVM pass refines them (no budget: the analysis is cheap here).
  auto Refine = [&](Candidate &C) -> Error {
    C.Query.Features = &R.FeaturesFor(C.Block);
    return Error::success();
  };
  auto Cost = [](const Candidate &) -> uint64_t { return 1; };
  if (auto Refined = Planner.refine(P, {Refine, Cost}); !Refined)
    return Refined.takeError();
  return P;
}

std::string explainLaunchChoice(const LaunchPlanRequest &R,
                                const LaunchPlan &P) {
  std::string LeftOut;
  if (P.Illegal)
    LeftOut = std::to_string(P.Illegal) + " more do not fit the launch sites";
  return explainPlan(P, describeBlock(P.chosen().Block),
                     R.Objective.describe(), R.WorkItems, *R.Arch, LeftOut)
      .str();
}

} // namespace energy
