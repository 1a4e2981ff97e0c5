//===- LaunchPlan.cpp - Block shape choice for one gpu.func ---------------===//

#include "LaunchPlan.h"

#include <algorithm>
#include <cmath>

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

std::optional<BlockShape> requiredBlock(const LaunchBounds &Bounds) {
  if (!Bounds.ReqNTid[0])
    return std::nullopt;
  return BlockShape{std::max(Bounds.ReqNTid[0], 1u),
                    std::max(Bounds.ReqNTid[1], 1u),
                    std::max(Bounds.ReqNTid[2], 1u)};
}

std::optional<BoundedRegisters> registersUnderBounds(KernelFeatures &F,
                                                     const GpuArch &Arch) {
  unsigned Threads = F.Bounds.maxThreads();
  if (!Threads) {
    F.Bounds.MinCTASM = 0;
    return std::nullopt;
  }
  BoundedRegisters R;
  R.Estimated = static_cast<unsigned>(std::lround(F.register_estimate));
  R.Allowed = registerCap(Arch, Threads, F.Bounds);
  if (R.capped())
    F.addNote("registers: " + std::to_string(R.Estimated) +
              " estimated, " + std::to_string(R.Allowed) +
              " under its launch bounds (ptxas spills the rest)");
  return R;
}

/// Why a launch cannot be rewritten to B, if one cannot: B must divide each
/// launch's threads in every dimension into a grid that can launch, and
/// keep to the kernel's bounds.
static std::optional<std::string> notLaunchable(const LaunchPlanRequest &R,
                                                const BlockShape &B) {
  const LaunchBounds &Bounds = R.Features->Bounds;
  if (auto Required = requiredBlock(Bounds); Required && B != *Required)
    return "its nvvm.reqntid requires block " + formatBlockShape(*Required);
  if (unsigned Max = Bounds.maxThreads(); Max && B[0] * B[1] * B[2] > Max)
    return "its launch bounds allow at most " + std::to_string(Max) +
           " threads";
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
  // Every free shape is a launch the user could write, except beyond the
  // kernel's bounds: then the baselines keep to them too, and the default
  // is the launches' block where the usual one exceeds them.
  bool Bounded = R.Features->Bounds.maxThreads() != 0;
  S.RuleBindsBaselines = Bounded;
  if (Bounded && R.CurrentBlock && notLaunchable(R, S.DefaultBlock))
    S.DefaultBlock = *R.CurrentBlock;
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
  bool Bounded = R.Features->Bounds.maxThreads() != 0;
  if (P.Illegal)
    LeftOut = std::to_string(P.Illegal) +
              (R.LaunchTotals.empty() ? " more exceed its launch bounds"
               : Bounded ? " more do not fit the launch sites or its launch "
                           "bounds"
                         : " more do not fit the launch sites");
  return explainPlan(P, describeBlock(P.chosen().Block),
                     R.Objective.describe(), R.WorkItems, *R.Arch, LeftOut)
      .str();
}

} // namespace energy
