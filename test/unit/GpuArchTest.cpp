//===- GpuArchTest.cpp - Architecture table and sm_XX parsing -------------===//

#include "energy/GpuArch.h"

#include "gtest/gtest.h"
#include <cmath>
#include <string>

using namespace energy;

namespace {

TEST(GpuArchTest, RowsAscendAndCoverTheSupportedArchitectures) {
  const unsigned Expected[] = {70, 75, 80, 86, 89, 90, 100};
  llvm::ArrayRef<GpuArch> Archs = allGpuArchs();
  ASSERT_EQ(Archs.size(), std::size(Expected));
  for (size_t I = 0; I < Archs.size(); ++I) {
    EXPECT_EQ(Archs[I].SmVersion, Expected[I]);
    EXPECT_EQ(std::string(Archs[I].Name), "sm_" + std::to_string(Expected[I]));
  }
}

// Relations that NVIDIA's tables guarantee; a typo in a row breaks one.
TEST(GpuArchTest, RowsAreSelfConsistent) {
  for (const GpuArch &A : allGpuArchs()) {
    SCOPED_TRACE(A.Name);
    EXPECT_EQ(A.WarpSize, 32u);
    EXPECT_EQ(A.MaxThreadsPerSM, A.MaxWarpsPerSM * A.WarpSize);
    EXPECT_LE(A.MaxThreadsPerBlock, A.MaxThreadsPerSM);
    EXPECT_EQ(A.RegistersPerSM %
                  (A.WarpAllocGranularity * A.RegisterAllocUnitSize),
              0u);
    EXPECT_LE(A.MaxRegistersPerBlock, A.RegistersPerSM);
    // Occupancy.cpp adds the reserve after rounding; that equals NVIDIA's
    // rounding of the sum only if the reserve is a multiple of the unit.
    EXPECT_EQ(A.ReservedSharedMemPerBlock % A.SharedMemAllocUnit, 0u);
    // The opt-in maximum plus the reserve is the whole carveout on every row.
    EXPECT_EQ(A.MaxSharedMemPerBlock + A.ReservedSharedMemPerBlock,
              A.SharedMemPerSM);
    EXPECT_LE(A.MaxSharedMemPerBlockDefault, A.MaxSharedMemPerBlock);
    EXPECT_GT(A.IdlePowerW, 0.0);
    EXPECT_LT(A.IdlePowerW, A.MaxPowerW);
    EXPECT_GT(A.DramBandwidthGBs, 0.0);
    EXPECT_GT(A.L2BandwidthGBs, A.DramBandwidthGBs);
    EXPECT_GT(A.PeakTensorFp16TFlops, A.PeakFp16TFlops);
    EXPECT_GT(A.PeakFp32TFlops, A.PeakFp64TFlops);
  }
}

// Peak FP32 = SMs x FP32 lanes per SM x 2 (FMA) x boost clock, within the
// datasheets' rounding. Lanes per SM from the architecture whitepapers.
TEST(GpuArchTest, PeakFp32MatchesSMsLanesAndClock) {
  struct {
    unsigned Sm;
    unsigned LanesPerSM;
  } const Lanes[] = {{70, 64},  {75, 64},  {80, 64},  {86, 128},
                     {89, 128}, {90, 128}, {100, 128}};
  for (const auto &L : Lanes) {
    const GpuArch *A = lookupGpuArch(L.Sm);
    ASSERT_NE(A, nullptr);
    SCOPED_TRACE(A->Name);
    double Derived = A->SMCount * L.LanesPerSM * 2 * A->BoostClockGHz / 1000;
    EXPECT_NEAR(A->PeakFp32TFlops / Derived, 1.0, 0.01);
  }
}

// Spot checks against the CUDA C++ Programming Guide's table.
TEST(GpuArchTest, OccupancyLimitsMatchTheProgrammingGuide) {
  const GpuArch *T4 = lookupGpuArch(75);
  ASSERT_NE(T4, nullptr);
  EXPECT_EQ(T4->MaxThreadsPerSM, 1024u);
  EXPECT_EQ(T4->MaxBlocksPerSM, 16u);
  EXPECT_EQ(T4->SharedMemPerSM, 65536u);
  EXPECT_EQ(T4->SharedMemAllocUnit, 256u);
  EXPECT_EQ(T4->ReservedSharedMemPerBlock, 0u);

  const GpuArch *A10 = lookupGpuArch(86);
  ASSERT_NE(A10, nullptr);
  EXPECT_EQ(A10->MaxThreadsPerSM, 1536u);
  EXPECT_EQ(A10->MaxBlocksPerSM, 16u);
  EXPECT_EQ(A10->MaxSharedMemPerBlock, 99u * 1024);

  const GpuArch *L4 = lookupGpuArch(89);
  ASSERT_NE(L4, nullptr);
  EXPECT_EQ(L4->MaxBlocksPerSM, 24u);

  const GpuArch *H100 = lookupGpuArch(90);
  ASSERT_NE(H100, nullptr);
  EXPECT_EQ(H100->MaxThreadsPerSM, 2048u);
  EXPECT_EQ(H100->SharedMemPerSM, 233472u);       // 228 KB
  EXPECT_EQ(H100->MaxSharedMemPerBlock, 232448u); // 227 KB
  EXPECT_EQ(H100->MaxSharedMemPerBlockDefault, 49152u);
  EXPECT_EQ(H100->ReservedSharedMemPerBlock, 1024u);
  EXPECT_EQ(H100->SMCount, 132u);

  const GpuArch *A100 = lookupGpuArch(80);
  ASSERT_NE(A100, nullptr);
  EXPECT_EQ(A100->SharedMemPerSM, 167936u);       // 164 KB
  EXPECT_EQ(A100->MaxSharedMemPerBlock, 166912u); // 163 KB
}

TEST(GpuArchTest, LookupIsExact) {
  ASSERT_NE(lookupGpuArch(90), nullptr);
  EXPECT_STREQ(lookupGpuArch(90)->Name, "sm_90");
  EXPECT_STREQ(lookupGpuArch(100)->Name, "sm_100");
  EXPECT_EQ(lookupGpuArch(87), nullptr);
  EXPECT_EQ(lookupGpuArch(0), nullptr);
  EXPECT_EQ(lookupGpuArch(9), nullptr);
}

TEST(GpuArchTest, NearestPrefersSameMajorThenLowerThenLowest) {
  auto Nearest = [](unsigned Sm) { return nearestGpuArch(Sm)->SmVersion; };
  EXPECT_EQ(Nearest(90), 90u); // exact
  EXPECT_EQ(Nearest(70), 70u);
  EXPECT_EQ(Nearest(87), 86u); // Orin: closest lower of major 8
  EXPECT_EQ(Nearest(88), 86u);
  EXPECT_EQ(Nearest(72), 70u); // Xavier
  EXPECT_EQ(Nearest(81), 80u);
  EXPECT_EQ(Nearest(101), 100u);
  EXPECT_EQ(Nearest(103), 100u);
  EXPECT_EQ(Nearest(120), 100u); // no major-12 row: closest lower
  EXPECT_EQ(Nearest(1000), 100u);
  EXPECT_EQ(Nearest(61), 70u); // below every row: the lowest
  EXPECT_EQ(Nearest(0), 70u);
}

TEST(GpuArchTest, ParseSmVersionAcceptsNVPTXCpuNames) {
  EXPECT_EQ(parseSmVersion("sm_90"), 90u);
  EXPECT_EQ(parseSmVersion("sm_90a"), 90u);
  EXPECT_EQ(parseSmVersion("sm_100a"), 100u);
  EXPECT_EQ(parseSmVersion("sm_100f"), 100u);
  EXPECT_EQ(parseSmVersion("sm_70"), 70u);
  EXPECT_EQ(parseSmVersion("sm_20"), 20u); // parsed even without a row
  EXPECT_EQ(parseSmVersion("sm_120"), 120u);
}

TEST(GpuArchTest, ParseSmVersionRejectsEverythingElse) {
  const char *Bad[] = {"",        "sm_",    "sm_9",       "sm_9a",   "sm_a",
                       "sm_f",    "sm_90b", "sm_90aa",    "sm_90af", "sm_090",
                       "sm_1000", "sm_-90", "sm_9x",      "SM_90",   "sm90",
                       " sm_90",  "sm_90 ", "compute_90", "sm_x90",  "90"};
  for (const char *S : Bad)
    EXPECT_EQ(parseSmVersion(S), std::nullopt) << "input: '" << S << "'";
}

} // namespace
