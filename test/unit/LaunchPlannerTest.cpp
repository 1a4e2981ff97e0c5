//===- LaunchPlannerTest.cpp - The launch planner both passes call --------===//

#include "energy/GpuArch.h"
#include "energy/LaunchPlanner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <cstdlib>
#include <functional>

using namespace energy;

namespace {

/// Fastest at 256 threads, 1 us slower per thread away from it.
class DistanceFrom256 : public CostModel {
public:
  std::string describe() const override { return "distance from 256"; }
  llvm::Error predict(llvm::ArrayRef<CostQuery> Queries,
                      llvm::MutableArrayRef<CostPrediction> Out) const override {
    for (size_t I = 0; I < Queries.size(); ++I) {
      const BlockShape &B = Queries[I].Block;
      double T = 1e-6 * (1 + std::abs(int(B[0] * B[1] * B[2]) - 256));
      Out[I] = {T, T};
    }
    return llvm::Error::success();
  }
};

/// A space of 1-D shapes whose rule admits only the shapes in Legal.
struct Fixture {
  const GpuArch &Arch = *lookupGpuArch(90);
  KernelFeatures Features;
  std::vector<unsigned> Legal;
  std::vector<std::string> Kept; // shapes OnViolation kept
  bool KeepViolating = false;

  std::function<llvm::Expected<std::vector<BlockShape>>(size_t)> Shapes =
      [this](size_t) -> llvm::Expected<std::vector<BlockShape>> {
    return freeBlockShapes(false, Arch.WarpSize, Arch.MaxThreadsPerBlock);
  };
  std::function<std::optional<std::string>(size_t, const BlockShape &)>
      Violation = [this](size_t, const BlockShape &B)
      -> std::optional<std::string> {
    if (llvm::is_contained(Legal, B[0]))
      return std::nullopt;
    return "not in the list";
  };
  std::function<llvm::Expected<bool>(const BlockShape &, llvm::StringRef)>
      OnViolation = [this](const BlockShape &B,
                           llvm::StringRef) -> llvm::Expected<bool> {
    if (KeepViolating)
      Kept.push_back(formatBlockShape(B));
    return KeepViolating;
  };
  std::function<llvm::Expected<Candidate>(size_t, const BlockShape &)> Make =
      [this](size_t A, const BlockShape &B) -> llvm::Expected<Candidate> {
    return makeCandidate(Features, Arch, B, 1000, 0, A);
  };

  LaunchSpace space() {
    LaunchSpace S;
    S.Arch = &Arch;
    S.DefaultBlock = {256, 1, 1};
    S.Shapes = Shapes;
    S.Violation = Violation;
    S.OnViolation = OnViolation;
    S.Make = Make;
    return S;
  }

  LaunchPlan plan(const LaunchSpace &S) {
    DistanceFrom256 Model;
    ObjectiveSpec Time;
    Time.Goal = Objective::Time;
    LaunchPlan P;
    llvm::cantFail(LaunchPlanner(S, Model, Time).plan(P));
    return P;
  }

  size_t shapeCount() {
    return freeBlockShapes(false, Arch.WarpSize, Arch.MaxThreadsPerBlock)
        .size();
  }
};

} // namespace

TEST(LaunchPlanner, RuleLeavesShapesOutAndBindsTheHeuristic) {
  Fixture F;
  F.Legal = {128, 192, 512};
  LaunchSpace S = F.space();
  S.CurrentBlock = BlockShape{64, 1, 1};
  LaunchPlan P = F.plan(S);
  ASSERT_TRUE(P.Infeasible.empty());
  EXPECT_EQ(P.Candidates.size(), 3u);
  EXPECT_EQ(P.Illegal, F.shapeCount() - 3);
  // 192 is 64 threads from 256, 512 is 256 away.
  EXPECT_EQ(P.chosen().Block, (BlockShape{192, 1, 1}));
  // With no registers or shared memory every block is at full occupancy:
  // the heuristic takes the largest legal one.
  EXPECT_EQ(P.OccupancyBaseline.Block, (BlockShape{512, 1, 1}));
  EXPECT_EQ(P.DefaultBaseline.Block, (BlockShape{256, 1, 1}));
  ASSERT_TRUE(P.CurrentBaseline);
  EXPECT_EQ(P.CurrentBaseline->Block, (BlockShape{64, 1, 1}));
  EXPECT_DOUBLE_EQ(P.CurrentBaseline->Prediction.TimeSeconds, 193e-6);

  S.RuleBindsBaselines = false; // any shape is a launch the user could write
  EXPECT_EQ(F.plan(S).OccupancyBaseline.Block, (BlockShape{1024, 1, 1}));
  S.FreeShape = false; // tunables fix the block: the heuristic is the default
  EXPECT_EQ(F.plan(S).OccupancyBaseline.Block, (BlockShape{256, 1, 1}));
}

TEST(LaunchPlanner, NoLegalShape) {
  Fixture F;
  LaunchSpace S = F.space();
  S.DefaultBlock = {96, 1, 1};
  LaunchPlan OnlyDefault = F.plan(S);
  EXPECT_TRUE(OnlyDefault.OnlyDefault);
  ASSERT_EQ(OnlyDefault.Candidates.size(), 1u);
  EXPECT_EQ(OnlyDefault.chosen().Block, (BlockShape{96, 1, 1}));
  EXPECT_EQ(OnlyDefault.Illegal, F.shapeCount());

  S.NoneLegal = "no shape fits";
  LaunchPlan None = F.plan(S);
  EXPECT_EQ(None.Infeasible, "no shape fits");
  EXPECT_TRUE(None.Candidates.empty());
  EXPECT_FALSE(None.OnlyDefault);
}

TEST(LaunchPlanner, OnViolationKeepsOrStops) {
  Fixture F;
  F.Legal = {256};
  F.KeepViolating = true;
  F.Shapes = [&](size_t) -> llvm::Expected<std::vector<BlockShape>> {
    return std::vector<BlockShape>{{128, 1, 1}, {256, 1, 1}};
  };
  LaunchPlan P = F.plan(F.space());
  EXPECT_EQ(P.Candidates.size(), 2u);
  EXPECT_EQ(P.Illegal, 0u);
  EXPECT_EQ(F.Kept, std::vector<std::string>{"128"});

  F.OnViolation = [](const BlockShape &,
                     llvm::StringRef Why) -> llvm::Expected<bool> {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
  };
  LaunchSpace S = F.space();
  DistanceFrom256 Model;
  LaunchPlan Stopped;
  llvm::Error E = LaunchPlanner(S, Model, ObjectiveSpec()).plan(Stopped);
  EXPECT_EQ(llvm::toString(std::move(E)), "not in the list");
}

TEST(LaunchPlanner, NothingFitsTheResources) {
  Fixture F;
  F.Legal = {256, 512};
  F.Features.static_shared_bytes = 1 << 20; // more than any SM holds
  F.Make = [&](size_t A, const BlockShape &B) -> llvm::Expected<Candidate> {
    return makeCandidate(F.Features, F.Arch, B, 1000, 1 << 20, A);
  };
  LaunchPlan P = F.plan(F.space());
  EXPECT_EQ(P.Infeasible, std::string("no candidate fits the resources of ") +
                              F.Arch.Name);
  EXPECT_EQ(P.evaluated(), 0u);
}

namespace {

/// DistanceFrom256, plus 1 us per instruction of the query's features: a
/// refinement that gives a candidate other features shows in its time.
class DistanceAndInstructions : public DistanceFrom256 {
public:
  llvm::Error predict(llvm::ArrayRef<CostQuery> Queries,
                      llvm::MutableArrayRef<CostPrediction> Out) const override {
    if (llvm::Error E = DistanceFrom256::predict(Queries, Out))
      return E;
    for (size_t I = 0; I < Queries.size(); ++I) {
      Out[I].TimeSeconds += 1e-6 * Queries[I].Features->instructions;
      Out[I].EnergyJoules = Out[I].TimeSeconds;
    }
    return llvm::Error::success();
  }
};

} // namespace

TEST(LaunchPlanner, RefinesTheChoiceAndItsBaselinesOrNothing) {
  // The screen's features have no instructions, the refined ones 5: every
  // refined prediction is 5 us above the screen's. The default (256) is
  // the screen's best; the occupancy heuristic's baseline is 1024.
  Fixture F;
  F.Legal = {128, 256, 512, 1024};
  LaunchSpace S = F.space();
  DistanceAndInstructions Model;
  ObjectiveSpec Time;
  Time.Goal = Objective::Time;
  LaunchPlanner Planner(S, Model, Time);
  KernelFeatures Refined;
  Refined.instructions = 5;
  auto Refine = [&](Candidate &C) -> llvm::Error {
    C.Query.Features = &Refined;
    return llvm::Error::success();
  };
  auto Cost = [](const Candidate &) -> uint64_t { return 1; };
  auto Screen = [&] {
    LaunchPlan P;
    llvm::cantFail(Planner.plan(P));
    EXPECT_EQ(P.chosen().Block[0], 256u);
    EXPECT_EQ(P.OccupancyBaseline.Block[0], 1024u);
    return P;
  };

  // A budget for the default (and best) but not the other baseline: the
  // choice would be compared with a baseline predicted another way, so
  // nothing is refined.
  LaunchPlan Short = Screen();
  EXPECT_FALSE(llvm::cantFail(Planner.refine(Short, {Refine, Cost, 1})));
  EXPECT_EQ(Short.Refined, 0u);
  EXPECT_DOUBLE_EQ(Short.chosen().Prediction.TimeSeconds, 1e-6);
  EXPECT_DOUBLE_EQ(Short.OccupancyBaseline.Prediction.TimeSeconds, 769e-6);

  // With both baselines affordable, the choice and both baselines are
  // refined predictions, and so is every point of the front.
  LaunchPlan Full = Screen();
  EXPECT_TRUE(llvm::cantFail(Planner.refine(Full, {Refine, Cost, 2})));
  EXPECT_EQ(Full.chosen().Block[0], 256u);
  EXPECT_DOUBLE_EQ(Full.chosen().Prediction.TimeSeconds, 6e-6);
  EXPECT_DOUBLE_EQ(Full.DefaultBaseline.Prediction.TimeSeconds, 6e-6);
  EXPECT_DOUBLE_EQ(Full.OccupancyBaseline.Prediction.TimeSeconds, 774e-6);
  for (const Candidate &C : Full.Candidates) {
    if (C.OnFront) {
      EXPECT_EQ(C.Query.Features, &Refined);
    }
  }
}
