//===- SearchTest.cpp - Config space, objectives, tuning-spec parsing -----===//

#include "TuningSpec.h"
#include "energy/ConfigSpace.h"
#include "energy/GpuArch.h"
#include "energy/LaunchSearch.h"
#include "energy/Occupancy.h"
#include "energy/Objective.h"
#include "energy/ValidateOptions.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace energy;

TEST(ConfigSpace, AssignmentsAreTheCartesianProduct) {
  std::vector<Tunable> T = {{"A", 1, false, {1, 2}}, {"B", 8, true, {8, 16, 32}}};
  std::vector<Assignment> All = enumerateAssignments(T);
  ASSERT_EQ(All.size(), 6u);
  EXPECT_EQ(All.front(), (Assignment{1, 8}));
  EXPECT_EQ(All[1], (Assignment{1, 16}));
  EXPECT_EQ(All.back(), (Assignment{2, 32}));
  EXPECT_EQ(enumerateAssignments({}).size(), 1u); // one empty assignment
}

TEST(ConfigSpace, FreeShapes) {
  // 1-D: 32, 64, ..., 1024.
  std::vector<BlockShape> OneD = freeBlockShapes(false, 32, 1024);
  ASSERT_EQ(OneD.size(), 32u);
  EXPECT_EQ(OneD.front(), (BlockShape{32, 1, 1}));
  EXPECT_EQ(OneD.back(), (BlockShape{1024, 1, 1}));
  // 2-D: powers of two, x >= 8, whole warps, <= 1024 threads. Per y:
  // y=1: 32..1024 (6); y=2: 16..512 (6); y=4: 8..256 (6); y=8: 8..128 (5);
  // y=16: 8..64 (4); y=32: 8..32 (3); y=64: 8,16 (2); y=128: 8 (1) = 33.
  std::vector<BlockShape> TwoD = freeBlockShapes(true, 32, 1024);
  EXPECT_EQ(TwoD.size(), 33u);
  for (const BlockShape &B : TwoD) {
    EXPECT_EQ(B[0] * B[1] % 32, 0u);
    EXPECT_GE(B[0], 8u);
  }
}

TEST(ConfigSpace, ParseAndFormatBlocks) {
  EXPECT_EQ(parseBlockShape("256"), (BlockShape{256, 1, 1}));
  EXPECT_EQ(parseBlockShape("32x8"), (BlockShape{32, 8, 1}));
  EXPECT_EQ(parseBlockShape("8x8x4"), (BlockShape{8, 8, 4}));
  EXPECT_FALSE(parseBlockShape("0"));
  EXPECT_FALSE(parseBlockShape("32x"));
  EXPECT_FALSE(parseBlockShape("1x2x3x4"));
  EXPECT_FALSE(parseBlockShape("abc"));
  EXPECT_EQ(formatBlockShape({256, 1, 1}), "256");
  EXPECT_EQ(formatBlockShape({32, 8, 1}), "32x8");
  EXPECT_EQ(formatBlockShape({8, 8, 4}), "8x8x4");
}

TEST(ConfigSpace, Pruning) {
  Occupancy Invalid;
  EXPECT_EQ(pruneCandidate(Invalid, 1.0), PruneReason::Resources);
  Occupancy Low;
  Low.ActiveBlocksPerSM = 1;
  Low.Fraction = 0.2;
  Low.Limiter = OccupancyLimiter::SharedMemory;
  // 0.2 < 0.25 * 1.0: a cliff; against a best of 0.5 it is not (0.2 >= 0.125).
  EXPECT_EQ(pruneCandidate(Low, 1.0), PruneReason::OccupancyCliff);
  EXPECT_EQ(pruneCandidate(Low, 0.5), PruneReason::None);
}

TEST(ConfigSpace, Workload) {
  std::vector<Tunable> T = {{"ITEMS", 1, true, {1, 4}}, {"TILE", 8, false, {8}}};
  EXPECT_EQ(workPerThread(T, {4, 8}), 4u); // TILE is not work per thread
  // 1000 items, 4 per thread = 250 threads, in blocks of 128 -> 2 blocks.
  EXPECT_EQ(blocksForWorkload(1000, 4, {128, 1, 1}), 2u);
  EXPECT_EQ(blocksForWorkload(1 << 24, 1, {16, 16, 1}), 65536u);
  EXPECT_EQ(blocksForWorkload(1, 1, {1024, 1, 1}), 1u);
  // No wrap near 2^64: ceil((2^64-1) / 1024) = 2^54, ceil(/ 4) / 1024 = 2^52.
  EXPECT_EQ(blocksForWorkload(UINT64_MAX, 1, {1024, 1, 1}), uint64_t(1) << 54);
  EXPECT_EQ(blocksForWorkload(UINT64_MAX, 4, {1024, 1, 1}), uint64_t(1) << 52);
}

TEST(Objective, ChoosesByGoal) {
  // Candidate: 0 fast and hungry, 1 slower and frugal, 2 much slower, least energy.
  std::vector<double> Time = {1.0, 1.05, 2.0};
  std::vector<double> Energy = {10.0, 8.0, 7.0};
  ObjectiveSpec O;
  O.Goal = Objective::Time;
  EXPECT_EQ(cantFail(chooseCandidate(Time, Energy, O)).Index, 0u);
  O.Goal = Objective::EDP; // 10, 8.4, 14
  EXPECT_EQ(cantFail(chooseCandidate(Time, Energy, O)).Index, 1u);
  O.Goal = Objective::Energy;
  O.MaxSlowdown = 0.10; // 2.0 > 1.1: candidate 2 excluded
  EXPECT_EQ(cantFail(chooseCandidate(Time, Energy, O)).Index, 1u);
  O.MaxSlowdown = std::nullopt;
  EXPECT_EQ(cantFail(chooseCandidate(Time, Energy, O)).Index, 2u);
  O.MaxSlowdown = 0.0; // only the fastest
  EXPECT_EQ(cantFail(chooseCandidate(Time, Energy, O)).Index, 0u);
}

TEST(Objective, IncumbentStaysUnlessBeatenByMinGain) {
  // Candidate 1 is the incumbent; 0 is 0.5% faster, 2 is 2% faster.
  std::vector<double> Time = {0.995, 1.0, 0.98};
  std::vector<double> Energy = {1.0, 1.0, 1.0};
  ObjectiveSpec O;
  O.Goal = Objective::Time;
  O.MinGain = 0.01;
  // 0.98 < 1.0 x (1 - 0.01): candidate 2 wins by more than 1%.
  ObjectiveChoice C = cantFail(chooseCandidate(Time, Energy, O, 1));
  EXPECT_EQ(C.Index, 2u);
  EXPECT_FALSE(C.KeptIncumbent);
  Time[2] = 0.992; // 0.8% faster: the incumbent stays
  C = cantFail(chooseCandidate(Time, Energy, O, 1));
  EXPECT_EQ(C.Index, 1u);
  EXPECT_TRUE(C.KeptIncumbent);
  O.MinGain = 0; // any gain moves
  C = cantFail(chooseCandidate(Time, Energy, O, 1));
  EXPECT_EQ(C.Index, 2u);
  EXPECT_FALSE(C.KeptIncumbent);
  // ... but a tie does not.
  std::vector<double> Tied = {1.0, 1.0, 1.0};
  C = cantFail(chooseCandidate(Tied, Energy, O, 2));
  EXPECT_EQ(C.Index, 2u);
  EXPECT_TRUE(C.KeptIncumbent);
  // The incumbent's own prediction is no number: the pick stands.
  O.MinGain = 0.01;
  Time[1] = NAN;
  EXPECT_EQ(cantFail(chooseCandidate(Time, Energy, O, 1)).Index, 2u);
}

TEST(Objective, DefaultMinGainIsTheModelsResolution) {
  // Predicted gains under 10% are within the model's error
  // (docs/min-gain.md): by default a pick 7% faster leaves the incumbent,
  // one 12% faster replaces it.
  std::vector<double> Time = {0.93, 1.0};
  std::vector<double> Energy = {1.0, 1.0};
  ObjectiveSpec O;
  O.Goal = Objective::Time;
  ObjectiveChoice C = cantFail(chooseCandidate(Time, Energy, O, 1));
  EXPECT_EQ(C.Index, 1u);
  EXPECT_TRUE(C.KeptIncumbent);
  Time[0] = 0.88;
  C = cantFail(chooseCandidate(Time, Energy, O, 1));
  EXPECT_EQ(C.Index, 0u);
  EXPECT_FALSE(C.KeptIncumbent);
}

TEST(Objective, IncumbentOutsideTheSlowdownBoundDoesNotStay) {
  // Energy within 10% of the fastest: the incumbent (1) is 20% slower.
  std::vector<double> Time = {1.0, 1.2};
  std::vector<double> Energy = {1.0, 1.0};
  ObjectiveSpec O;
  ObjectiveChoice C = cantFail(chooseCandidate(Time, Energy, O, 1));
  EXPECT_EQ(C.Index, 0u);
  EXPECT_FALSE(C.KeptIncumbent);
}

TEST(Objective, MinGainMustBeAFraction) {
  EXPECT_FALSE(errorToBool(checkMinGain(0.0, "0")));
  EXPECT_FALSE(errorToBool(checkMinGain(0.5, "0.5")));
  for (auto [G, Spelled] : {std::pair<std::optional<double>, const char *>{
                                -0.1, "-0.1"},
                            {1.0, "1"},
                            {NAN, "nan"},
                            {std::nullopt, "x"}})
    EXPECT_EQ(toString(checkMinGain(G, Spelled)),
              std::string("min-gain must be a number >= 0 and < 1 (0.01 = "
                          "1%), got '") +
                  Spelled + "'");
}

TEST(Objective, NothingAllowedIsAnError) {
  // NaN times compare false with the fastest: no candidate is within reach.
  std::vector<double> Time = {NAN, NAN};
  std::vector<double> Energy = {1.0, 2.0};
  ObjectiveSpec O;
  auto Choice = chooseCandidate(Time, Energy, O);
  ASSERT_FALSE(Choice);
  EXPECT_EQ(toString(Choice.takeError()),
            "no candidate meets the objective (energy within 10% of the "
            "fastest): the predicted times are not numbers");
}

TEST(Objective, MaxSlowdownMustBeFinite) {
  EXPECT_FALSE(errorToBool(checkMaxSlowdown(0.1, "0.1")));
  EXPECT_FALSE(errorToBool(checkMaxSlowdown(0.0, "0")));
  for (auto [X, Spelled] :
       {std::pair<std::optional<double>, const char *>{NAN, "nan"},
        {INFINITY, "inf"},
        {-1.0, "-1"},
        {std::nullopt, "fast"}})
    EXPECT_EQ(toString(checkMaxSlowdown(X, Spelled)),
              "max-slowdown must be a finite number >= 0 (0.1 = 10%), got '" +
                  std::string(Spelled) + "'");
}

// The checks energy-optimize and energy-optimize-gpu share, with the value
// spelled as %g prints it (the MLIR pass holds a double, not the text).
TEST(Objective, ValidateOptimizeOptions) {
  ObjectiveSpec O;
  EXPECT_FALSE(errorToBool(validateOptimizeOptions(O, "", "")));
  EXPECT_FALSE(errorToBool(validateOptimizeOptions(O, "sm_86", "rtx-a4000")));
  O.MaxSlowdown = std::nullopt; // no bound is valid
  EXPECT_FALSE(errorToBool(validateOptimizeOptions(O, "", "")));
  for (auto [X, Spelled] : {std::pair<double, const char *>{NAN, "nan"},
                            {-INFINITY, "-inf"},
                            {-0.5, "-0.5"}}) {
    O.MaxSlowdown = X;
    EXPECT_EQ(toString(validateOptimizeOptions(O, "", "")),
              "max-slowdown must be a finite number >= 0 (0.1 = 10%), got '" +
                  std::string(Spelled) + "'");
  }
  O.MaxSlowdown = 0.1;
  EXPECT_EQ(toString(validateOptimizeOptions(O, "sm_90", "rtx-a4000")),
            "gpu 'rtx-a4000' is sm_86, but arch is 'sm_90' (name one of them, "
            "or matching ones)");
}

TEST(Objective, ParseAndDescribe) {
  EXPECT_EQ(parseObjective("edp"), Objective::EDP);
  EXPECT_FALSE(parseObjective("fast"));
  ObjectiveSpec O;
  EXPECT_EQ(O.describe(), "energy within 10% of the fastest");
  O.Goal = Objective::Time;
  EXPECT_EQ(O.describe(), "time");
}

TEST(TuningSpec, ShapeSpecs) {
  auto Dims = parseShapeSpec("TILE, TILE+1,BLOCK_X*2,33");
  ASSERT_TRUE(bool(Dims)) << llvm::toString(Dims.takeError());
  ASSERT_EQ(Dims->size(), 4u);
  ValueMap V = {{"TILE", 16}, {"BLOCK_X", 64}};
  EXPECT_EQ(cantFail(evaluateDim((*Dims)[0], V)), 16);
  EXPECT_EQ(cantFail(evaluateDim((*Dims)[1], V)), 17);
  EXPECT_EQ(cantFail(evaluateDim((*Dims)[2], V)), 128);
  EXPECT_EQ(cantFail(evaluateDim((*Dims)[3], V)), 33);
  auto Unknown = evaluateDim({"NOPE", 1, 0}, V);
  EXPECT_FALSE(bool(Unknown));
  llvm::consumeError(Unknown.takeError());
  for (const char *Bad : {"", "TILE+", "T-1", "3+4", "TILE+x"}) {
    auto E = parseShapeSpec(Bad);
    EXPECT_FALSE(bool(E)) << Bad;
    llvm::consumeError(E.takeError());
  }
}

TEST(TuningSpec, ForcedConfigs) {
  auto C = parseForcedConfig("sgemm:16x16,TILE=16");
  ASSERT_TRUE(bool(C));
  EXPECT_EQ(C->Kernel, "sgemm");
  EXPECT_EQ(C->Block, (BlockShape{16, 16, 1}));
  ASSERT_EQ(C->Values.size(), 1u);
  EXPECT_EQ(C->Values[0], (std::pair<std::string, int>{"TILE", 16}));
  // ':' separates too (pass parameters cannot contain ',').
  auto P = parseForcedConfig("saxpy:256:ITEMS=2");
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->Values[0].second, 2);
  auto G = parseForcedConfig("conv:16x16,grid=256x128,TX=2");
  ASSERT_TRUE(bool(G));
  ASSERT_TRUE(G->Grid.has_value());
  EXPECT_EQ(*G->Grid, (std::array<uint64_t, 3>{256, 128, 1}));
  EXPECT_EQ(G->Values.size(), 1u);
  for (const char *Bad : {"saxpy", ":256", "saxpy:", "saxpy:0", "saxpy:256,ITEMS",
                          "saxpy:256,ITEMS=x", "saxpy:256,grid=0",
                          "saxpy:256,grid=2147483648", "saxpy:256,grid=4,grid=4"}) {
    auto E = parseForcedConfig(Bad);
    EXPECT_FALSE(bool(E)) << Bad;
    llvm::consumeError(E.takeError());
  }
}

TEST(LaunchSearch, RegistersAllowedLeaveRoomForOneBlock) {
  // 448 threads = 14 warps on sm_86: 65536 / 448 = 146 registers would fit
  // the block's total, but each of the 4 sub-partitions holds 16384
  // registers and must hold 4 of the warps: 128 per thread (4096 per warp)
  // fits 4, 136 (4352) only 3.
  const GpuArch &A = *lookupGpuArch(86);
  unsigned R = registersAllowed(A, 448);
  EXPECT_EQ(R, 128u);
  EXPECT_GT(computeOccupancy(A, {448, R, 0}).ActiveBlocksPerSM, 0u);
  EXPECT_EQ(computeOccupancy(A, {448, R + 8, 0}).ActiveBlocksPerSM, 0u);
  EXPECT_EQ(registersAllowed(A, 128), A.MaxRegistersPerThread);
}

TEST(LaunchSearch, RegistersAllowedForAMinimumOfBlocks) {
  // sm_80: 65536 registers per SM in 4 sub-partitions of 16384, at most 64
  // warps and 32 blocks. Each figure is what ptxas 13.0 allocated to a
  // kernel that wants 255 registers, under .maxntid T, .minnctapersm B.
  const GpuArch &A = *lookupGpuArch(80);
  // 4 blocks of 256 threads: 32 warps, 8 a sub-partition: 16384 / 8 / 32
  // = 64.
  EXPECT_EQ(registersAllowed(A, 256, 4), 64u);
  // 5 blocks: 40 warps, 10 a sub-partition: 51.2, down to a multiple of 8.
  EXPECT_EQ(registersAllowed(A, 256, 5), 48u);
  // 3 blocks of 96 threads: 9 warps, so one sub-partition holds 3: 16384 /
  // 3 / 32 = 170.7 -> 168, where the whole file would give 65536 / 288 ->
  // 224.
  EXPECT_EQ(registersAllowed(A, 96, 3), 168u);
  // 2 blocks of 352 threads: 22 warps, 6 a sub-partition: 85.3 -> 80.
  EXPECT_EQ(registersAllowed(A, 352, 2), 80u);
  // Few small blocks leave the per-thread maximum.
  EXPECT_EQ(registersAllowed(A, 64, 3), A.MaxRegistersPerThread);
  // One block, or none stated, is the one-block allowance: 1024 threads
  // have 64 each.
  EXPECT_EQ(registersAllowed(A, 1024, 1), 64u);
  EXPECT_EQ(registersAllowed(A, 1024, 0), 64u);
  EXPECT_EQ(registersAllowed(A, 1024, 2), 32u);
  // A minimum no SM holds is ignored by ptxas ("out of range"): 3 blocks of
  // 1024 threads are 96 warps; 33 blocks are more than 32.
  EXPECT_FALSE(minBlocksHonoured(A, 1024, 3));
  EXPECT_EQ(registersAllowed(A, 1024, 3), 64u);
  EXPECT_FALSE(minBlocksHonoured(A, 32, 33));
  EXPECT_EQ(registersAllowed(A, 32, 33), A.MaxRegistersPerThread);
  // Each allowance holds its blocks, and 8 more registers would not.
  for (auto [Threads, Blocks] : {std::pair{256u, 4u}, {96u, 3u}, {352u, 2u}}) {
    unsigned R = registersAllowed(A, Threads, Blocks);
    EXPECT_GE(computeOccupancy(A, {Threads, R, 0}).ActiveBlocksPerSM, Blocks);
    EXPECT_LT(computeOccupancy(A, {Threads, R + 8, 0}).ActiveBlocksPerSM,
              Blocks);
  }
}

TEST(LaunchSearch, RegisterCapFollowsTheBoundsNotTheLaunch) {
  // ptxas sees __launch_bounds__(256, 4), not the block of 128 the kernel
  // runs with: 64 registers, as for 256 threads.
  const GpuArch &A = *lookupGpuArch(80);
  LaunchBounds Bounds;
  Bounds.MaxNTid = {256, 0, 0};
  Bounds.MinCTASM = 4;
  EXPECT_EQ(registerCap(A, 128, Bounds), 64u);
  // Without bounds, the launch's block: one block of 128 threads.
  EXPECT_EQ(registerCap(A, 128, LaunchBounds()), A.MaxRegistersPerThread);
  // A candidate's occupancy counts the capped registers: 96 estimated, 64
  // allowed, 4 blocks of 8 warps resident. The bounds cap the build, so
  // ptxas spills (no launch refused).
  KernelFeatures F;
  F.register_estimate = 96;
  F.Bounds = Bounds;
  Candidate C = makeCandidate(F, A, {256, 1, 1}, 1024, 0);
  EXPECT_EQ(C.RegisterCap, 64u);
  EXPECT_TRUE(C.CappedBuild);
  EXPECT_FALSE(C.TooManyRegisters);
  EXPECT_EQ(C.Query.Occ.ActiveBlocksPerSM, 4u);
  F.Bounds.MinCTASM = 1;
  Candidate Uncapped = makeCandidate(F, A, {256, 1, 1}, 1024, 0);
  EXPECT_EQ(Uncapped.RegisterCap, 255u);
  // 96 registers: 3072 a warp, 5 warps a sub-partition, 20 warps: 2 blocks.
  EXPECT_EQ(Uncapped.Query.Occ.ActiveBlocksPerSM, 2u);
}

TEST(LaunchSearch, RegistersAboveAnUnboundedBlockCannotLaunch) {
  // No bounds: 96 registers at 1024 threads need 98,304 of 65,536; ptxas
  // does not know the block, so the build keeps 96 and CUDA refuses it.
  const GpuArch &A = *lookupGpuArch(80);
  KernelFeatures F;
  F.register_estimate = 96;
  Candidate C = makeCandidate(F, A, {1024, 1, 1}, 1024, 0);
  EXPECT_TRUE(C.TooManyRegisters);
  EXPECT_FALSE(C.CappedBuild);
  std::vector<Candidate> Cs = {C};
  pruneCandidates(Cs);
  EXPECT_EQ(Cs[0].Pruned, PruneReason::Resources);
  // The optimizer's rewrite gives the block .reqntid: ptxas fits 64 and
  // spills the rest, so the candidate is kept.
  Candidate Bounded = makeCandidate(F, A, {1024, 1, 1}, 1024, 0, 0,
                                    LaunchBounds::requiring({1024, 1, 1}));
  EXPECT_FALSE(Bounded.TooManyRegisters);
  EXPECT_TRUE(Bounded.CappedBuild);
  EXPECT_EQ(Bounded.RegisterCap, 64u);
  Cs = {Bounded};
  pruneCandidates(Cs);
  EXPECT_EQ(Cs[0].Pruned, PruneReason::None);
}

TEST(LaunchSearch, EstimatedSpillsAboveTheCap) {
  // 96 registers capped to 64: 32 spilled, each stored (4 bytes) and loaded
  // (4 bytes) once per execution of the average instruction: 1,000 issue
  // slots executed of 250 static, 4 times: 32 x 8 x 4 = 1,024 bytes more
  // than ptxas's own 16; the frame grows by 32 slots of 4 bytes.
  KernelFeatures F;
  F.register_estimate = 96;
  F.instructions = 1000;
  F.StaticIssueSlots = 250;
  F.spill_bytes = 16;
  F.local_frame_bytes = 8;
  KernelFeatures S = withEstimatedSpills(F, 64);
  EXPECT_EQ(S.register_estimate, 64);
  EXPECT_DOUBLE_EQ(S.spill_bytes, 16 + 1024);
  EXPECT_DOUBLE_EQ(S.local_frame_bytes, 8 + 128);
  // Code that runs once (straight-line) spills once; none below the cap.
  F.StaticIssueSlots = 2000;
  EXPECT_DOUBLE_EQ(withEstimatedSpills(F, 64).spill_bytes, 16 + 256);
  EXPECT_DOUBLE_EQ(withEstimatedSpills(F, 96).spill_bytes, 16);
  EXPECT_EQ(withEstimatedSpills(F, 96).register_estimate, 96);
}

namespace {
/// Predicts 1 s plus 1 ms per spill byte of the query's features, and
/// keeps what each query's features said.
class SpillBytesModel : public CostModel {
public:
  mutable std::vector<KernelFeatures> Seen;
  std::string describe() const override { return "spill bytes"; }
  llvm::Error predict(llvm::ArrayRef<CostQuery> Queries,
                      llvm::MutableArrayRef<CostPrediction> Out) const override {
    for (size_t I = 0; I < Queries.size(); ++I) {
      Seen.push_back(*Queries[I].Features);
      double T = 1 + 1e-3 * Queries[I].Features->spill_bytes;
      Out[I] = {T, T};
    }
    return llvm::Error::success();
  }
};
} // namespace

TEST(LaunchSearch, CappedBuildsArePredictedWithTheirSpills) {
  // 96 registers (an estimate): at 512 threads the .reqntid build keeps
  // them (65,536 / 512 = 128 allowed); at 1024 ptxas fits 64 and spills 32,
  // each stored and loaded once (straight-line code): 256 bytes a thread.
  const GpuArch &A = *lookupGpuArch(90);
  KernelFeatures F;
  F.register_estimate = 96;
  F.instructions = 100;
  F.StaticIssueSlots = 100;
  std::vector<Candidate> Cs;
  for (unsigned T : {512u, 1024u})
    Cs.push_back(makeCandidate(F, A, {T, 1, 1}, 64, 0, 0,
                               LaunchBounds::requiring({T, 1, 1})));
  SpillBytesModel Model;
  ObjectiveSpec Goal;
  Goal.Goal = Objective::Time;
  Goal.MaxSlowdown.reset();
  auto Choice = predictAndChoose(Cs, {}, nullptr, Model, Goal);
  ASSERT_TRUE(bool(Choice)) << llvm::toString(Choice.takeError());
  EXPECT_EQ(Cs[0].SpilledRegisters, 0u);
  EXPECT_EQ(Cs[1].SpilledRegisters, 32u);
  EXPECT_DOUBLE_EQ(Cs[1].EstimatedSpillBytes, 256);
  ASSERT_EQ(Model.Seen.size(), 2u);
  EXPECT_EQ(Model.Seen[1].register_estimate, 64);
  EXPECT_DOUBLE_EQ(Model.Seen[1].spill_bytes, 256);
  EXPECT_EQ(Model.Seen[0].register_estimate, 96);
  EXPECT_DOUBLE_EQ(Model.Seen[0].spill_bytes, 0);
  // The features the candidate points at are the measured ones.
  EXPECT_EQ(Cs[1].Query.Features, &F);
  EXPECT_DOUBLE_EQ(Cs[1].Prediction.TimeSeconds, 1.256);
  EXPECT_EQ(Choice->Index, 0u);
}
