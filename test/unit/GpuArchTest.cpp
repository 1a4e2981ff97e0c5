//===- GpuArchTest.cpp - Architecture table and sm_XX parsing -------------===//

#include "energy/GpuArch.h"
#include "energy/DidYouMean.h"

#include "llvm/ADT/SmallVector.h"
#include "gtest/gtest.h"
#include <cctype>
#include <cmath>
#include <set>
#include <string>

using namespace energy;

namespace {

TEST(GpuArchTest, RowsAscendAndCoverTheSupportedArchitectures) {
  const unsigned Expected[] = {52, 60, 61, 70, 75, 80, 86, 89, 90, 100};
  llvm::ArrayRef<GpuArch> Archs = allGpuArchs();
  ASSERT_EQ(Archs.size(), std::size(Expected));
  ASSERT_EQ(allComputeCapabilities().size(), std::size(Expected));
  for (size_t I = 0; I < Archs.size(); ++I) {
    EXPECT_EQ(Archs[I].SmVersion, Expected[I]);
    EXPECT_EQ(std::string(Archs[I].Name), "sm_" + std::to_string(Expected[I]));
    EXPECT_STREQ(Archs[I].Gpu, Archs[I].DefaultGpu);
  }
}

// Each sm_XX keeps the reference board it had before boards could be named.
TEST(GpuArchTest, DefaultBoards) {
  const std::pair<unsigned, const char *> Expected[] = {
      {52, "gtx-titan-x"}, {60, "p100-sxm2"}, {61, "gtx-1070"},
      {70, "v100"},        {75, "t4"},        {80, "a100-sxm-80gb"},
      {86, "a10"},         {89, "l4"},        {90, "h100-sxm"},
      {100, "b200"}};
  for (const auto &[Sm, Gpu] : Expected) {
    const GpuArch *A = lookupGpuArch(Sm);
    ASSERT_NE(A, nullptr) << Sm;
    EXPECT_STREQ(A->Gpu, Gpu);
    EXPECT_EQ(A, lookupGpuBoard(Gpu)) << Gpu;
  }
}

// The boards issues 11 and 34 ask for, and unique names.
TEST(GpuArchTest, BoardsAreNamedOnce) {
  llvm::SmallVector<llvm::StringRef> Required;
  llvm::StringRef("h100-sxm h100-pcie h200 a100-sxm-80gb a100-pcie-40gb a10 "
                  "a30 a40 l4 l40s t4 v100 rtx-2080-ti titan-rtx "
                  "rtx-3060-laptop rtx-3090 rtx-a4000 rtx-a6000 rtx-4090 "
                  "rtx-4000-ada gtx-1070 b200 p100-sxm2 gtx-titan-x "
                  "gtx-1080-ti rtx-2070 rtx-2080 rtx-3070 rtx-3080 rtx-4070 "
                  "rtx-4080 l40")
      .split(Required, ' ');
  for (llvm::StringRef Gpu : Required)
    EXPECT_NE(lookupGpuBoard(Gpu), nullptr) << Gpu.str();
  std::set<std::string> Names, Keys;
  for (const GpuBoard &B : allGpuBoards()) {
    EXPECT_TRUE(Names.insert(B.Gpu).second) << "twice: " << B.Gpu;
    // Another spelling of one name (case, dashes) names one board only.
    EXPECT_TRUE(Keys.insert(nameKey(B.Gpu)).second) << "alike: " << B.Gpu;
    for (char C : std::string(B.Gpu))
      EXPECT_TRUE(std::islower(C) || std::isdigit(C) || C == '-') << B.Gpu;
  }
  EXPECT_EQ(lookupGpuBoard("RTX-A4000"), lookupGpuBoard("rtx-a4000"));
  EXPECT_EQ(lookupGpuBoard(""), nullptr);
  EXPECT_EQ(lookupGpuBoard("nvidia"), nullptr);
}

// Every board joins the row of its compute capability, and nothing else.
TEST(GpuArchTest, EveryBoardHasItsComputeCapability) {
  for (const GpuBoard &B : allGpuBoards()) {
    SCOPED_TRACE(B.Gpu);
    const ComputeCapability *C = lookupComputeCapability(B.BoardSm);
    ASSERT_NE(C, nullptr);
    const GpuArch *A = lookupGpuBoard(B.Gpu);
    ASSERT_NE(A, nullptr);
    EXPECT_EQ(A->SmVersion, B.BoardSm);
    EXPECT_STREQ(A->Name, C->Name);
    EXPECT_EQ(A->MaxThreadsPerSM, C->MaxThreadsPerSM);
    EXPECT_EQ(A->SMCount, B.SMCount);
    EXPECT_EQ(A->L2Bytes, B.L2Bytes);
  }
  for (const ComputeCapability &C : allComputeCapabilities()) {
    const GpuArch *Default = lookupGpuBoard(C.DefaultGpu);
    ASSERT_NE(Default, nullptr) << C.Name;
    EXPECT_EQ(Default->SmVersion, C.SmVersion) << C.Name;
  }
}

// Relations that NVIDIA's tables guarantee; a typo in a row breaks one.
TEST(GpuArchTest, ComputeCapabilitiesAreSelfConsistent) {
  for (const ComputeCapability &A : allComputeCapabilities()) {
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
    // From 7.0 on, the opt-in maximum plus the reserve is the whole
    // carveout; 6.x caps a block at 48 KB of a larger SM.
    if (A.SmVersion >= 70) {
      EXPECT_EQ(A.MaxSharedMemPerBlock + A.ReservedSharedMemPerBlock,
                A.SharedMemPerSM);
    }
    EXPECT_LE(A.MaxSharedMemPerBlock + A.ReservedSharedMemPerBlock,
              A.SharedMemPerSM);
    EXPECT_LE(A.MaxSharedMemPerBlockDefault, A.MaxSharedMemPerBlock);
    EXPECT_GT(A.SharedBytesPerClockPerSM, 0.0);
  }
}

TEST(GpuArchTest, BoardsAreSelfConsistent) {
  for (const GpuBoard &B : allGpuBoards()) {
    SCOPED_TRACE(B.Gpu);
    EXPECT_GT(std::string(B.MarketingName).size(), 0u);
    EXPECT_GT(B.SMCount, 0u);
    EXPECT_GT(B.BoostClockGHz, 0.0);
    EXPECT_LT(B.BaseClockGHz, B.BoostClockGHz); // 0: not published
    EXPECT_GE(B.BaseClockGHz, 0.0);
    EXPECT_GT(B.PeakFp16TFlops, 0.0);
    EXPECT_GT(B.PeakFp64TFlops, 0.0);
    EXPECT_GT(B.PeakFp32TFlops, B.PeakFp64TFlops);
    // Tensor cores from sm_70 on, faster than the FP16 pipes.
    if (B.BoardSm >= 70) {
      EXPECT_GT(B.PeakTensorFp16TFlops, B.PeakFp16TFlops);
    } else {
      EXPECT_EQ(B.PeakTensorFp16TFlops, 0.0);
    }
    EXPECT_GT(B.DramBandwidthGBs, 0.0);
    EXPECT_GE(B.L2Bytes, 2u << 20);
    EXPECT_GT(B.L2BandwidthGBs, B.DramBandwidthGBs);
    EXPECT_GT(B.IdlePowerW, 0.0);
    EXPECT_LT(B.IdlePowerW, B.MaxPowerW);
  }
}

// Peak FP32 = SMs x FP32 lanes per SM x 2 (FMA) x boost clock, within the
// datasheets' rounding. Lanes per SM from the architecture whitepapers.
TEST(GpuArchTest, PeakFp32MatchesSMsLanesAndClock) {
  auto Lanes = [](unsigned Sm) {
    return Sm == 60 || Sm == 70 || Sm == 75 || Sm == 80 ? 64 : 128;
  };
  for (const GpuBoard &B : allGpuBoards()) {
    SCOPED_TRACE(B.Gpu);
    double Derived = B.SMCount * Lanes(B.BoardSm) * 2 * B.BoostClockGHz / 1000;
    EXPECT_NEAR(B.PeakFp32TFlops / Derived, 1.0, 0.01);
  }
}

// Two boards of one compute capability differ only in their board figures.
TEST(GpuArchTest, BoardsOfOneArchitectureShareItsLimits) {
  const GpuArch *A4000 = lookupGpuBoard("rtx-a4000");
  const GpuArch *A6000 = lookupGpuBoard("rtx-a6000");
  ASSERT_TRUE(A4000 && A6000);
  EXPECT_EQ(A4000->SmVersion, 86u);
  EXPECT_EQ(A6000->SmVersion, 86u);
  EXPECT_EQ(A4000->SharedMemPerSM, A6000->SharedMemPerSM);
  EXPECT_EQ(A4000->SMCount, 48u);
  EXPECT_EQ(A6000->SMCount, 84u);
  EXPECT_EQ(A4000->L2Bytes, 4u << 20);
  EXPECT_EQ(A6000->L2Bytes, 6u << 20);
}

// Spot checks against the CUDA C++ Programming Guide's table.
TEST(GpuArchTest, OccupancyLimitsMatchTheProgrammingGuide) {
  const GpuArch *P = lookupGpuArch(61);
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->MaxThreadsPerSM, 2048u);
  EXPECT_EQ(P->MaxBlocksPerSM, 32u);
  EXPECT_EQ(P->SharedMemPerSM, 98304u);       // 96 KB
  EXPECT_EQ(P->MaxSharedMemPerBlock, 49152u); // 48 KB, no opt-in
  EXPECT_EQ(P->ReservedSharedMemPerBlock, 0u);

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
  EXPECT_EQ(Nearest(61), 61u);
  EXPECT_EQ(Nearest(60), 60u);
  EXPECT_EQ(Nearest(62), 61u); // Jetson TX2: closest lower of major 6
  EXPECT_EQ(Nearest(52), 52u);
  EXPECT_EQ(Nearest(50), 52u); // Maxwell: the only row of major 5
  EXPECT_EQ(Nearest(35), 52u); // below every row: the lowest
  EXPECT_EQ(Nearest(0), 52u);
}

TEST(GpuArchTest, GpuOptions) {
  EXPECT_FALSE(bool(checkGpuOptions("", "")));
  EXPECT_FALSE(bool(checkGpuOptions("sm_86", "")));
  EXPECT_FALSE(bool(checkGpuOptions("", "rtx-a4000")));
  EXPECT_FALSE(bool(checkGpuOptions("sm_86", "rtx-a4000")));
  EXPECT_FALSE(bool(checkGpuOptions("sm_90a", "h100-pcie")));
  auto Message = [](llvm::Error E) { return toString(std::move(E)); };
  EXPECT_EQ(Message(checkGpuOptions("sm_90", "rtx-a4000")),
            "gpu 'rtx-a4000' is sm_86, but arch is 'sm_90' (name one of "
            "them, or matching ones)");
  EXPECT_EQ(Message(checkGpuOptions("", "a4000")),
            "unknown gpu 'a4000'; did you mean 'rtx-a4000'? (known: " +
                gpuBoardNames() + ")");
  // Spellings of a board's name that differ in case, spaces, dashes and the
  // vendor's words name it.
  for (const char *Alias : {"RTX-A4000", "NVIDIA RTX A4000", "rtxa4000"})
    EXPECT_EQ(cantFail(parseGpuBoardOption(Alias))->Gpu,
              llvm::StringRef("rtx-a4000"))
        << Alias;
  EXPECT_EQ(cantFail(parseGpuBoardOption("Tesla T4"))->Gpu, llvm::StringRef("t4"));
  EXPECT_EQ(cantFail(parseGpuBoardOption("NVIDIA GeForce RTX 4090"))->Gpu,
            llvm::StringRef("rtx-4090"));
  EXPECT_EQ(Message(checkGpuOptions("sm_87", "a10")),
            "no tables for arch 'sm_87' (known: sm_52, sm_60, sm_61, sm_70, "
            "sm_75, sm_80, sm_86, sm_89, sm_90, sm_100)");
  EXPECT_NE(gpuBoardNames().find("rtx-a4000, rtx-a6000"), std::string::npos);
}

TEST(GpuArchTest, TheBoardWinsOverTheTarget) {
  std::vector<std::string> Notes;
  const GpuArch &Same = resolveGpuBoard("sm_86", "rtx-a4000", Notes);
  EXPECT_STREQ(Same.Gpu, "rtx-a4000");
  EXPECT_TRUE(Notes.empty());
  resolveGpuBoard("", "rtx-a4000", Notes); // no target: nothing to say
  EXPECT_TRUE(Notes.empty());
  const GpuArch &Other = resolveGpuBoard("sm_86", "h100-sxm", Notes);
  EXPECT_EQ(Other.SmVersion, 90u);
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_EQ(Notes[0], "target is sm_86; using gpu h100-sxm, which is sm_90");
}

// A target of a known architecture without -energy-gpu is modelled on its
// default board; where the architecture has others (a consumer sm_75 card
// is no T4), a note says whose figures stand for it.
TEST(GpuArchTest, TheDefaultBoardSaysItStandsForTheOthers) {
  std::vector<std::string> Notes;
  const GpuArch &Turing = resolveGpuArch("sm_75", "target", Notes);
  EXPECT_STREQ(Turing.Gpu, "t4");
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_EQ(Notes[0], "sm_75 is modelled on its default board t4 (Tesla T4); "
                      "-energy-gpu names the board that runs it (sm_75: t4, "
                      "rtx-2080-ti, titan-rtx, rtx-2070, rtx-2080)");
  Notes.clear();
  resolveGpuArch("sm_100", "target", Notes); // one board: nothing to say
  EXPECT_TRUE(Notes.empty());
  resolveGpuArch("sm_52", "target", Notes);
  EXPECT_TRUE(Notes.empty());
  resolveGpuArch("sm_60a", "target", Notes);
  EXPECT_TRUE(Notes.empty());
}

// Datasheet figures of the boards issue 34 added, spot-checked.
TEST(GpuArchTest, BoardsOfIssue34) {
  struct Figures {
    const char *Gpu;
    unsigned Sm, SMs;
    double BoostGHz, DramGBs, TdpW;
    unsigned L2KiB;
  };
  const Figures Expected[] = {
      {"p100-sxm2", 60, 56, 1.480, 720, 300, 4096},
      {"gtx-titan-x", 52, 24, 1.075, 336.5, 250, 3072},
      {"gtx-1080-ti", 61, 28, 1.582, 484, 250, 2816},
      {"rtx-2070", 75, 36, 1.620, 448, 175, 4096},
      {"rtx-2080", 75, 46, 1.710, 448, 215, 4096},
      {"rtx-3070", 86, 46, 1.725, 448, 220, 4096},
      {"rtx-3080", 86, 68, 1.710, 760, 320, 5120},
      {"rtx-4070", 89, 46, 2.475, 504, 200, 36864},
      {"rtx-4080", 89, 76, 2.505, 716.8, 320, 65536},
      {"l40", 89, 142, 2.490, 864, 300, 98304},
  };
  for (const Figures &F : Expected) {
    SCOPED_TRACE(F.Gpu);
    const GpuArch *A = lookupGpuBoard(F.Gpu);
    ASSERT_NE(A, nullptr);
    EXPECT_EQ(A->SmVersion, F.Sm);
    EXPECT_EQ(A->SMCount, F.SMs);
    EXPECT_DOUBLE_EQ(A->BoostClockGHz, F.BoostGHz);
    EXPECT_DOUBLE_EQ(A->DramBandwidthGBs, F.DramGBs);
    EXPECT_DOUBLE_EQ(A->MaxPowerW, F.TdpW);
    EXPECT_EQ(A->L2Bytes, F.L2KiB * 1024u);
  }
  // GP100's SM has two warp schedulers, Maxwell's four [OCC].
  EXPECT_EQ(lookupGpuArch(60)->WarpAllocGranularity, 2u);
  EXPECT_EQ(lookupGpuArch(52)->WarpAllocGranularity, 4u);
  EXPECT_EQ(lookupGpuArch(52)->SharedMemPerSM, 96u * 1024);
  EXPECT_EQ(lookupGpuArch(60)->SharedMemPerSM, 64u * 1024);
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

TEST(DidYouMean, NamesTheClosestOnly) {
  std::vector<std::string> Boards = {"h100-sxm", "h100-pcie", "v100", "a40",
                                     "rtx-a4000"};
  // A part of a name is closest; a name one edit away comes after.
  EXPECT_EQ(didYouMean("h100", Boards), "; did you mean 'h100-sxm' or 'h100-pcie'?");
  EXPECT_EQ(didYouMean("RTX-A400", Boards), "; did you mean 'rtx-a4000'?");
  EXPECT_EQ(didYouMean("v10", Boards), "; did you mean 'v100'?");
  EXPECT_EQ(didYouMean("xyz", Boards), "");
  EXPECT_EQ(didYouMean("", Boards), "");
  EXPECT_EQ(didYouMean("ITEM", {"ITEMS", "TILE"}), "; did you mean 'ITEMS'?");
}
