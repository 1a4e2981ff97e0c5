//===- OccupancyTest.cpp - Occupancy against hand-computed values ---------===//
//
// Every expectation is worked by hand from NVIDIA's rules:
//   warps/block   W  = ceil(threads / 32)
//   by threads       = MaxWarpsPerSM / W
//   by registers     = floor(RegsPerSM / 4 / ceil256(regs * 32)) * 4 / W,
//                      invalid if ceil256(regs * 32) * ceil4(W) > 65536
//   by shared mem    = SharedMemPerSM / (ceilUnit(smem) + reserved)
//   blocks           = min(by threads, MaxBlocksPerSM, by registers, by smem)
//
//===----------------------------------------------------------------------===//

#include "energy/Occupancy.h"

#include "gtest/gtest.h"

using namespace energy;

namespace {

using L = OccupancyLimiter;

struct Expected {
  unsigned Blocks;
  unsigned Warps;
  double Fraction;
  OccupancyLimiter Limiter;
};

void expectOccupancy(unsigned Sm, OccupancyInput In, Expected E) {
  const GpuArch *Arch = lookupGpuArch(Sm);
  ASSERT_NE(Arch, nullptr);
  Occupancy O = computeOccupancy(*Arch, In);
  SCOPED_TRACE(testing::Message()
               << Arch->Name << ": " << In.ThreadsPerBlock << " threads, "
               << In.RegistersPerThread << " regs, " << In.SharedMemPerBlock
               << " B smem");
  EXPECT_EQ(O.ActiveBlocksPerSM, E.Blocks);
  EXPECT_EQ(O.ActiveWarpsPerSM, E.Warps);
  EXPECT_DOUBLE_EQ(O.Fraction, E.Fraction);
  EXPECT_EQ(limiterName(O.Limiter), std::string(limiterName(E.Limiter)));
}

void expectInvalid(unsigned Sm, OccupancyInput In) {
  expectOccupancy(Sm, In, {0, 0, 0.0, L::Invalid});
}

// sm_90 (H100): 64 warps, 32 blocks, 228 KB smem in 128 B units + 1 KB/block.
TEST(OccupancyTest, Hopper) {
  // W=8; threads 64/8=8; regs 64*32=2048/warp, 16384/2048=8 -> 32 warps -> 4;
  // smem 1024 -> 228. min 4 (registers), 32 warps, 32/64.
  expectOccupancy(90, {256, 64, 0}, {4, 32, 0.5, L::Registers});
  // W=4; threads 16; regs 1024/warp -> 16*4=64 warps -> 16;
  // smem 49152+1024=50176 -> 233472/50176=4.65 -> 4 (shared memory).
  expectOccupancy(90, {128, 32, 48 * 1024}, {4, 16, 0.25, L::SharedMemory});
  // W=1; threads 64, regs 64, smem 228; the 32-block cap wins.
  expectOccupancy(90, {32, 32, 0}, {32, 32, 0.5, L::Blocks});
  // W=32; threads 64/32=2; regs 64 warps/32=2; tie -> threads. Full SM.
  expectOccupancy(90, {1024, 32, 0}, {2, 64, 1.0, L::Threads});
  // W=32; regs 2048/warp -> 32 warps -> 1 block; 2048*32=65536 fits exactly.
  expectOccupancy(90, {1024, 64, 0}, {1, 32, 0.5, L::Registers});
  // 100 threads: W=4; regs 40*32=1280 -> 16384/1280=12.8 -> 12*4=48 warps
  // -> 12 blocks; threads 16. 48 warps, 48/64.
  expectOccupancy(90, {100, 40, 0}, {12, 48, 0.75, L::Registers});
  // Register rounding: 37*32=1184 -> 1280/warp; 16384/1280=12.8 -> 12*4=48
  // warps -> 12 blocks of W=4 (unrounded 1184 would give 13*4=52 -> 13).
  expectOccupancy(90, {128, 37, 0}, {12, 48, 0.75, L::Registers});
  // Sub-partitions: 40*32=1280/warp; 16384/1280=12 -> 48 warps -> 48/3=16
  // blocks (the whole file, 65536/1280=51 warps, would give 17).
  expectOccupancy(90, {96, 40, 0}, {16, 48, 0.75, L::Registers});
  // W=3; 255*32=8160 -> 8192/warp; 8192*ceil4(3)=32768 fits;
  // 16384/8192=2 -> 8 warps -> 8/3=2 blocks, 6 warps, 6/64.
  expectOccupancy(90, {96, 255, 0}, {2, 6, 0.09375, L::Registers});
  // The 1 KB reserve matters: W=2; (22528+1024) -> 233472/23552=9.9 -> 9
  // (without the reserve 233472/22528 would give 10). 18 warps.
  expectOccupancy(90, {64, 32, 22 * 1024}, {9, 18, 0.28125, L::SharedMemory});
  // The 128 B rounding matters: 45600 -> 45696, +1024 = 46720 ->
  // 233472/46720=4.997 -> 4 (unrounded 46624 would give 5). 8 warps.
  expectOccupancy(90, {64, 32, 45600}, {4, 8, 0.125, L::SharedMemory});
  // Opt-in maximum 227 KB: 232448+1024=233472 -> exactly 1 block, 4 warps.
  expectOccupancy(90, {128, 32, 227 * 1024}, {1, 4, 0.0625, L::SharedMemory});
}

TEST(OccupancyTest, UnknownRegistersMeanThirtyTwo) {
  // 0 -> 32 regs: 1024/warp -> 64 warps -> 8 blocks of W=8; threads 8; tie.
  expectOccupancy(90, {256, 0, 0}, {8, 64, 1.0, L::Threads});
  expectOccupancy(90, {256, DefaultRegistersPerThread, 0},
                  {8, 64, 1.0, L::Threads});
}

TEST(OccupancyTest, HopperInvalid) {
  expectInvalid(90, {0, 32, 0});    // no threads
  expectInvalid(90, {2000, 32, 0}); // > 1024 threads per block
  expectInvalid(90, {1025, 32, 0});
  expectInvalid(90, {128, 300, 0});             // > 255 registers per thread
  expectInvalid(90, {32, 256, 0});              // ptxas allocates at most 255
  expectInvalid(90, {128, 32, 227 * 1024 + 1}); // > opt-in smem per block
  expectInvalid(90, {128, 32, 1u << 31});
  // 72*32=2304/warp; 2304*32 warps=73728 > 65536 registers per block.
  expectInvalid(90, {1024, 72, 0});
}

// No row has fewer registers per block than per SM, where the per-block check
// is implied by the per-SM one; a hypothetical row with 24K per block tests it.
TEST(OccupancyTest, PerBlockRegisterLimitCountsWarpsInFours) {
  const GpuArch *H100 = lookupGpuArch(90);
  ASSERT_NE(H100, nullptr);
  GpuArch Arch = *H100;
  Arch.MaxRegistersPerBlock = 24 * 1024;
  // W=3 counts as 4: 200*32=6400/warp, 6400*4=25600 > 24576 (3*6400 fits).
  EXPECT_EQ(computeOccupancy(Arch, {96, 200, 0}).Limiter, L::Invalid);
  // 184*32=5888/warp, 5888*4=23552 fits; 16384/5888=2 -> 8 warps -> 2 blocks.
  Occupancy O = computeOccupancy(Arch, {96, 184, 0});
  EXPECT_EQ(O.ActiveBlocksPerSM, 2u);
  EXPECT_EQ(O.Limiter, L::Registers);
}

// sm_100 (B200) has sm_90's limits.
TEST(OccupancyTest, Blackwell) {
  // W=16; 128*32=4096/warp -> 16384/4096=4 -> 16 warps -> 1 block;
  // 4096*16=65536 fits. threads 64/16=4. 16 warps, 16/64.
  expectOccupancy(100, {512, 128, 0}, {1, 16, 0.25, L::Registers});
  // 129*32=4128 -> 4352/warp; 4352*16=69632 > 65536: cannot launch.
  expectInvalid(100, {512, 129, 0});
}

// sm_80 (A100): 64 warps, 32 blocks, 164 KB smem, 163 KB per block.
TEST(OccupancyTest, Ampere) {
  // W=8; threads 8; regs 1024/warp -> 64 warps -> 8; tie -> threads.
  expectOccupancy(80, {256, 32, 0}, {8, 64, 1.0, L::Threads});
  // smem 40960+1024=41984 -> 167936/41984=4 exactly; threads 8. 32 warps.
  expectOccupancy(80, {256, 32, 40 * 1024}, {4, 32, 0.5, L::SharedMemory});
  // W=4; 128*32=4096/warp -> 4*4=16 warps -> 4 blocks; threads 16.
  expectOccupancy(80, {128, 128, 0}, {4, 16, 0.25, L::Registers});
  // 166912+1024=167936 -> 1 block; one byte more cannot launch.
  expectOccupancy(80, {256, 32, 163 * 1024}, {1, 8, 0.125, L::SharedMemory});
  expectInvalid(80, {256, 32, 163 * 1024 + 1});
}

// sm_86 (A10): 48 warps, 16 blocks, 100 KB smem, 99 KB per block.
TEST(OccupancyTest, AmpereGA10x) {
  // W=32; threads 48/32=1; regs 64/32=2. 32 warps of 48.
  expectOccupancy(86, {1024, 32, 0}, {1, 32, 32.0 / 48, L::Threads});
  // W=24; threads 48/24=2; regs 64/24=2; tie -> threads. Full SM.
  expectOccupancy(86, {768, 32, 0}, {2, 48, 1.0, L::Threads});
  // W=2; threads 24; regs 16*32=512/warp -> 32*4=128 warps -> 64; cap 16.
  expectOccupancy(86, {64, 16, 0}, {16, 32, 32.0 / 48, L::Blocks});
  // W=8; threads 6; smem 32768+1024=33792 -> 102400/33792=3.03 -> 3.
  expectOccupancy(86, {256, 32, 32 * 1024}, {3, 24, 0.5, L::SharedMemory});
  expectInvalid(86, {256, 32, 99 * 1024 + 1});
}

// sm_89 (L4): as sm_86 but 24 blocks per SM.
TEST(OccupancyTest, Ada) {
  // W=2; threads 48/2=24 = block cap 24; tie -> threads. Full SM.
  expectOccupancy(89, {64, 32, 0}, {24, 48, 1.0, L::Threads});
  // W=1; threads 48; cap 24. 24 warps of 48.
  expectOccupancy(89, {32, 32, 0}, {24, 24, 0.5, L::Blocks});
}

// sm_75 (T4): 32 warps, 16 blocks, 64 KB smem in 256 B units, no reserve.
TEST(OccupancyTest, Turing) {
  // W=32; threads 32/32=1; regs 64/32=2. Full SM.
  expectOccupancy(75, {1024, 32, 0}, {1, 32, 1.0, L::Threads});
  // W=8; threads 4; regs 2048/warp -> 32 warps -> 4; tie -> threads.
  // (The same kernel is register-limited to half an SM on sm_90.)
  expectOccupancy(75, {256, 64, 0}, {4, 32, 1.0, L::Threads});
  // W=1; threads 32, smem 0 costs nothing before sm_80; cap 16.
  expectOccupancy(75, {32, 32, 0}, {16, 16, 0.5, L::Blocks});
  // 256 B rounding: 13100 -> 13312 -> 65536/13312=4.9 -> 4 (unrounded 5).
  expectOccupancy(75, {128, 32, 13100}, {4, 16, 0.5, L::SharedMemory});
  // 64 KB exactly fits once; one byte more cannot launch.
  expectOccupancy(75, {128, 32, 64 * 1024}, {1, 4, 0.125, L::SharedMemory});
  expectInvalid(75, {128, 32, 64 * 1024 + 1});
}

// sm_70 (V100): 64 warps, 32 blocks, 96 KB smem in 256 B units, no reserve.
TEST(OccupancyTest, Volta) {
  // As on sm_90: W=8; regs 2048/warp -> 32 warps -> 4 blocks.
  expectOccupancy(70, {256, 64, 0}, {4, 32, 0.5, L::Registers});
  // W=4; 98304/49152=2. 8 warps.
  expectOccupancy(70, {128, 32, 48 * 1024}, {2, 8, 0.125, L::SharedMemory});
  expectOccupancy(70, {128, 32, 96 * 1024}, {1, 4, 0.0625, L::SharedMemory});
  expectInvalid(70, {128, 32, 96 * 1024 + 1});
  expectInvalid(70, {2000, 32, 0});
}

TEST(OccupancyTest, LimiterNames) {
  EXPECT_STREQ(limiterName(L::Threads), "threads");
  EXPECT_STREQ(limiterName(L::Blocks), "blocks");
  EXPECT_STREQ(limiterName(L::Registers), "registers");
  EXPECT_STREQ(limiterName(L::SharedMemory), "shared-memory");
  EXPECT_STREQ(limiterName(L::Invalid), "invalid");
}

} // namespace
