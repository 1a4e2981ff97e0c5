//===- FeatureHelpersTest.cpp - Pure helpers of the feature analysis ------===//

#include "AccessStride.h"
#include "CallClassifier.h"
#include "FeatureCore.h"
#include "Footprint.h"
#include "RegisterPressure.h"
#include "energy/KernelFeatures.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "gtest/gtest.h"

using namespace energy;

TEST(CallClassifier, LibdeviceAndIntrinsicsAgree) {
  // Special functions all; the .approx intrinsics (and div.full) are the
  // MUFU op alone, a library call or an IEEE form is expanded around it.
  EXPECT_EQ(classifyCallee("__nv_expf"), CallKind::Special);
  EXPECT_EQ(classifyCallee("llvm.exp.f32"), CallKind::Special);
  EXPECT_EQ(classifyCallee("llvm.nvvm.ex2.approx.f"), CallKind::ApproxSpecial);
  EXPECT_EQ(classifyCallee("__nv_rsqrtf"), CallKind::Special);
  EXPECT_EQ(classifyCallee("llvm.nvvm.rsqrt.approx.f"),
            CallKind::ApproxSpecial);
  EXPECT_EQ(classifyCallee("llvm.nvvm.div.full"), CallKind::ApproxSpecial);
  EXPECT_EQ(classifyCallee("llvm.nvvm.div.rn.f"), CallKind::Special);
  EXPECT_EQ(classifyCallee("llvm.nvvm.sqrt.rn.d"), CallKind::Special);
  // What may approximate, the backend emits approximately.
  EXPECT_EQ(approximatedIf(CallKind::Special, true), CallKind::ApproxSpecial);
  EXPECT_EQ(approximatedIf(CallKind::Special, false), CallKind::Special);
  EXPECT_EQ(approximatedIf(CallKind::FloatOp, true), CallKind::FloatOp);
  EXPECT_EQ(classifyCallee("__nv_fabsf"), CallKind::FloatOp);
  EXPECT_EQ(classifyCallee("__nv_fmaf"), CallKind::FloatFMA);
  EXPECT_EQ(classifyCallee("llvm.fmuladd.f32"), CallKind::FloatFMA);
  EXPECT_EQ(classifyCallee("__nv_float2int_rn"), CallKind::Conversion);
  EXPECT_EQ(classifyCallee("__nv_min"), CallKind::IntOp);
}

TEST(CallClassifier, ExpandedSpecialFunctionsCountTheirWork) {
  // An IEEE division expands into ~8 instructions of its own type around the
  // MUFU op (FP64 work for a double); an approximate one is the MUFU op.
  std::vector<AsmOp> Ops =
      classifyInlineAsm("ex2.approx.f32 %0, %1; div.rn.f64 %0, %1, %2;");
  ASSERT_EQ(Ops.size(), 2u);
  EXPECT_EQ(Ops[0].Kind, CallKind::ApproxSpecial);
  EXPECT_EQ(Ops[1].Kind, CallKind::Special);
  KernelFeatures F;
  for (const AsmOp &Op : Ops)
    countClassifiedOp(F, Op.Kind, Op.Scalar, Op.Lanes, /*W=*/2);
  EXPECT_EQ(F.special_fns, 4);
  EXPECT_EQ(F.fp32_ops, 0);
  EXPECT_EQ(F.fp64_ops, 16);
  EXPECT_EQ(F.instructions, 16);
}

TEST(CallClassifier, NVVMSynchronizationAndTensorCores) {
  EXPECT_EQ(classifyCallee("llvm.nvvm.barrier0"), CallKind::Barrier);
  EXPECT_EQ(classifyCallee("llvm.nvvm.barrier.sync"), CallKind::Barrier);
  EXPECT_EQ(classifyCallee("llvm.nvvm.shfl.sync.down.i32"), CallKind::Shuffle);
  EXPECT_EQ(classifyCallee("llvm.nvvm.vote.ballot.sync"), CallKind::Vote);
  EXPECT_EQ(classifyCallee("llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f16"),
            CallKind::TensorCore);
  EXPECT_EQ(classifyCallee("llvm.nvvm.wmma.m16n16k16.load.a.row.f16"),
            CallKind::Other);
  EXPECT_EQ(classifyCallee("llvm.nvvm.mma.m16n8k16.row.col.f32.f16"),
            CallKind::TensorCore);
  EXPECT_EQ(classifyCallee("llvm.nvvm.ldg.global.f.f32.p1"),
            CallKind::GlobalLoad);
  EXPECT_EQ(classifyCallee("my_device_function"), CallKind::Other);
}

TEST(AccessStride, Classification) {
  // float: 4 bytes per thread is coalesced; 8 is a stride-2 pattern.
  EXPECT_EQ(classifyStride(Stride::constant(4), 4), StrideClass::Coalesced);
  EXPECT_EQ(classifyStride(Stride::constant(-4), 4), StrideClass::Coalesced);
  EXPECT_EQ(classifyStride(Stride::constant(8), 4), StrideClass::Strided);
  EXPECT_EQ(classifyStride(Stride::constant(16), 16), StrideClass::Coalesced);
  EXPECT_EQ(classifyStride(Stride::zero(), 4), StrideClass::Uniform);
  EXPECT_EQ(classifyStride(Stride::symbolic(), 4), StrideClass::Strided);
  EXPECT_EQ(classifyStride(Stride::unknown(), 4), StrideClass::Irregular);
  EXPECT_EQ(Stride::constant(0).K, Stride::Zero);
}

TEST(RegisterPressure, RegistersPerType) {
  llvm::LLVMContext Ctx;
  llvm::DataLayout DL("e-i64:64-i128:128-v16:16-v32:32-n16:32:64");
  EXPECT_EQ(registersForType(llvm::Type::getInt1Ty(Ctx), DL), 0u);
  EXPECT_EQ(registersForType(llvm::Type::getInt32Ty(Ctx), DL), 1u);
  EXPECT_EQ(registersForType(llvm::Type::getHalfTy(Ctx), DL), 1u);
  EXPECT_EQ(registersForType(llvm::Type::getDoubleTy(Ctx), DL), 2u);
  EXPECT_EQ(registersForType(llvm::PointerType::get(Ctx, 0), DL), 2u);
  EXPECT_EQ(registersForType(
                llvm::FixedVectorType::get(llvm::Type::getFloatTy(Ctx), 4), DL),
            4u);
}

TEST(KernelFeatures, MergeCalleeFollowsMergeKinds) {
  KernelFeatures Caller, Callee;
  Caller.fp32_fma = 2;
  Callee.fp32_fma = 3;
  Callee.max_access_bytes = 16;
  Caller.max_access_bytes = 4;
  Callee.loops = 1;
  Callee.static_shared_bytes = 1024; // Kernel-level: not folded.
  Callee.Dims.ThreadIdx = "y";
  Caller.Dims.ThreadIdx = "x";
  Caller.mergeCallee(Callee, 10);
  EXPECT_DOUBLE_EQ(Caller.fp32_fma, 32);
  EXPECT_DOUBLE_EQ(Caller.max_access_bytes, 16);
  EXPECT_DOUBLE_EQ(Caller.loops, 1);
  EXPECT_DOUBLE_EQ(Caller.static_shared_bytes, 0);
  EXPECT_EQ(Caller.Dims.ThreadIdx, "xy");
}

TEST(KernelFeatures, DerivedFields) {
  KernelFeatures K;
  K.fp32_ops = 1;
  K.fp32_fma = 2;
  K.fp64_fma = 1;
  K.global_load_bytes = 8;
  K.global_store_bytes = 4;
  K.Dims.BlockIdx = "xy";
  K.finalize();
  EXPECT_DOUBLE_EQ(K.flops, 7); // 1 + 2*2 + 2*1
  EXPECT_DOUBLE_EQ(K.arithmetic_intensity, 7.0 / 12.0);
  EXPECT_DOUBLE_EQ(K.reads_dim_y, 1);
  EXPECT_DOUBLE_EQ(K.reads_dim_z, 0);
  EXPECT_EQ(KernelFeatures::numericNames().size(), KernelFeatures::NumNumeric);
  EXPECT_EQ(KernelFeatures::numericNames()[0], "instructions");
}

TEST(Footprint, BoxOfAStencil) {
  // A 32x8 block reading a 5x5 window of floats around each thread, rows of
  // 16384 bytes: 36 floats (144 bytes, 5 sectors) on each of 12 rows.
  std::vector<energy::FootprintTerm> Terms = {{4, 32}, {16384, 8}};
  std::vector<int64_t> Taps;
  for (int64_t I = 0; I < 5; ++I)
    for (int64_t J = 0; J < 5; ++J)
      Taps.push_back(I * 16384 + J * 4);
  EXPECT_EQ(energy::boxFootprintBytes(Terms, Taps, 4), 12 * 5 * 32);
  // Without the taps, one 128-byte row per threadIdx.y.
  EXPECT_EQ(energy::boxFootprintBytes(Terms, {}, 4), 8 * 128);
}

TEST(Footprint, BroadcastsAndLoopsMerge) {
  // Threads along y read one row of 512 floats through a loop (coefficient
  // 4, 512 iterations) and the next rows (2048 bytes per threadIdx.y): the
  // rows are contiguous, so 8 of them are one run of 16 KiB.
  EXPECT_EQ(energy::boxFootprintBytes({{4, 512}, {2048, 8}}, {}, 4), 16384);
  // Equal coefficients add their extents: x + k over 32 and 5 values is 36
  // floats.
  EXPECT_EQ(energy::boxFootprintBytes({{4, 32}, {4, 5}}, {}, 4), 5 * 32);
  // A strided access moves one sector per element.
  EXPECT_EQ(energy::boxFootprintBytes({{128, 32}}, {}, 4), 32 * 32);
  // A uniform access (no varying term) moves one sector.
  EXPECT_EQ(energy::boxFootprintBytes({}, {}, 4), 32);
}

TEST(Footprint, ManyRowsAreEstimated) {
  // 2^20 rows are not listed: E - 1 + ceil(width / step) copies of what
  // one period holds, as the listing would count where the taps are along
  // the rows.
  std::vector<energy::FootprintTerm> Terms = {{4, 32}, {16384, 1 << 20}};
  EXPECT_EQ(energy::boxFootprintBytes(Terms, {0, 16384}, 4),
            double((1 << 20) + 1) * 128);
}

TEST(Footprint, WarpSectors) {
  // A warp reading a row of 32 floats: 4 sectors, 4 bytes a thread; shifted
  // by one float it straddles 5.
  std::vector<int64_t> Row;
  for (int64_t T = 0; T < 32; ++T)
    Row.push_back(4 * T);
  EXPECT_EQ(sectorBytesPerWarpThread(Row, 0, 4), 4);
  EXPECT_EQ(sectorBytesPerWarpThread(Row, 4, 4), 5);
  // Every thread at one address: one sector for 32 threads.
  EXPECT_EQ(sectorBytesPerWarpThread(std::vector<int64_t>(32, 0), 0, 4), 1);
}

TEST(Footprint, GroupsOfAMatvec) {
  // global-footprint.cu's matvec_rows at 32x8: c[y][x] = sum_k a[y][k] *
  // b[k][x], rows of a 512 floats, of b and c 4096.
  FootprintGroups G({32, 8, 1});
  constexpr unsigned X = 0b001, Y = 0b010;
  FootprintAccess A;
  A.Identity = {1};
  A.AccessBytes = 4;
  A.Terms = {{2048, 8}, {4, 512, /*Outermost=*/true}};
  A.ThreadStride = {0, 2048, 0};
  A.Executions = 512;
  A.BlockAxes = Y;
  FootprintAccess B = A;
  B.Identity = {2};
  B.Terms = {{4, 32}, {16384, 512, /*Outermost=*/true}};
  B.ThreadStride = {4, 0, 0};
  B.BlockAxes = X;
  FootprintAccess C = B;
  C.Identity = {3};
  C.Terms = {{4, 32}, {16384, 8}};
  C.ThreadStride = {4, 16384, 0};
  C.Executions = 1;
  C.BlockAxes = X | Y;
  for (const FootprintAccess &Access : {A, B, C})
    G.add(Access);
  // 16 KiB of a, 512 rows of 128 bytes of b, 8 of c.
  EXPECT_EQ(G.sectorBytes(), 16384 + 65536 + 1024);
  EXPECT_EQ(G.accessedBytesPerThread(), 512 * 8 + 4);
  // A warp: 1 sector of a, 4 of b in each step; 4 of c.
  EXPECT_EQ(G.warpSectorBytesPerThread(), 512 + 512 * 4 + 4);
  // One k step: a sector of each of a's 8 rows, a row of b, c.
  EXPECT_EQ(G.workingSetBytes(), 8 * 32 + 128 + 1024);
  FootprintGroups::SharedAcrossBlocks S = G.sharedAcrossBlocks();
  EXPECT_EQ(S.Row, 16384);
  EXPECT_EQ(S.Column, 65536);
  EXPECT_EQ(S.Grid, 0);
  // The same access again joins its group: no new bytes.
  G.add(C);
  EXPECT_EQ(G.sectorBytes(), 16384 + 65536 + 1024);
}

/// A float per thread of a 32-thread block, Stride bytes apart, at an
/// address that moves Shift bytes from block to block along grid Axis.
FootprintAccess floatsOfAWarp(int64_t Stride, unsigned Axis, int64_t Shift) {
  FootprintAccess A;
  A.Identity = {1};
  A.AccessBytes = 4;
  A.Terms = {{Stride, 32}};
  A.ThreadStride = {Stride, 0, 0};
  A.Executions = 1;
  A.BlockAxes = 1u << Axis;
  A.BlockShift[Axis] = Shift;
  return A;
}

TEST(Footprint, NeighboursShareTheHalo) {
  // A 3-point stencil over floats, 32 threads a block: bytes -4 to 132 of
  // the block's row, 6 sectors. The next block starts 128 bytes on, so a
  // tiling of the grid reads each sector once: 4 sectors a block.
  auto Stencil = [](std::array<uint64_t, 3> Grid) {
    FootprintGroups G({32, 1, 1}, Grid);
    FootprintAccess A = floatsOfAWarp(/*Stride=*/4, /*Axis=*/0, /*Shift=*/128);
    A.Executions = 3;
    for (int64_t Tap : {-4, 0, 4}) {
      A.Constant = Tap;
      G.add(A);
    }
    return G;
  };
  FootprintGroups Tiled = Stencil({0, 0, 0});
  EXPECT_EQ(Tiled.sectorBytes(), 6 * 32);
  EXPECT_EQ(Tiled.tiledBytes(), 4 * 32);
  // One block along x: no neighbour to share with.
  EXPECT_EQ(Stencil({1, 0, 0}).tiledBytes(), 6 * 32);

  // A column read: 32 threads a block, each one float of its own row (rows
  // 128 bytes apart), the next block along y one float on: 8 blocks share
  // each sector, a block's share is 4 bytes of each of its 32 rows. Stored
  // the same way, each block keeps its 32 sectors: partial writes of one
  // sector do not merge for free.
  auto Column = [](bool IsStore) {
    FootprintGroups G({32, 1, 1});
    FootprintAccess A = floatsOfAWarp(/*Stride=*/128, /*Axis=*/1, /*Shift=*/4);
    A.IsStore = IsStore;
    G.add(A);
    return G;
  };
  EXPECT_EQ(Column(false).sectorBytes(), 32 * 32);
  EXPECT_EQ(Column(false).tiledBytes(), 32 * 4);
  EXPECT_EQ(Column(true).tiledBytes(), 32 * 32);
}

TEST(FeatureCore, RegistersForBits) {
  EXPECT_EQ(registersForBits(1), 1u);
  EXPECT_EQ(registersForBits(32), 1u);
  EXPECT_EQ(registersForBits(33), 2u);
  EXPECT_EQ(registersForBits(64), 2u);
  EXPECT_EQ(registersForBits(128), 4u);
}

TEST(FeatureCore, RegistersForVector) {
  // Narrow elements pack into 32-bit registers, wide ones take their own:
  // the one rule both adapters follow.
  EXPECT_EQ(registersForVector(2, 16), 1u);  // half2
  EXPECT_EQ(registersForVector(4, 16), 2u);
  EXPECT_EQ(registersForVector(4, 8), 1u);   // char4
  EXPECT_EQ(registersForVector(4, 32), 4u);  // float4
  EXPECT_EQ(registersForVector(2, 64), 4u);  // double2
  EXPECT_EQ(registersForVector(3, 16), 2u);
}

TEST(FeatureCore, GuardedThreadShare) {
  // threadIdx.x == 0 in a row of 256: one thread in 256; lane == 3: one in
  // 32; threadIdx.x < 64 in 256: a quarter; < 512 narrows nothing.
  EXPECT_EQ(guardedThreadShare(IndexCompare::Equal, 0, 256), 1.0 / 256);
  EXPECT_EQ(guardedThreadShare(IndexCompare::Equal, 3, 32), 1.0 / 32);
  EXPECT_EQ(guardedThreadShare(IndexCompare::Less, 64, 256), 0.25);
  EXPECT_FALSE(guardedThreadShare(IndexCompare::Less, 512, 256));
  EXPECT_FALSE(guardedThreadShare(IndexCompare::Equal, 0, 0));
  // threadIdx.x == 300 in a row of 256: no thread.
  EXPECT_EQ(guardedThreadShare(IndexCompare::Equal, 300, 256), 0.0);
  // blockIdx.x == 0 on a grid of 656 blocks: one block in 656.
  EXPECT_EQ(guardedThreadShare(IndexCompare::Equal, 0, 656), 1.0 / 656);
}

TEST(FeatureCore, GuardedSide) {
  // Block 128: `tid <= 31` holds for 32 threads; `tid > 31` fails for them;
  // `tid >= 96` fails for 96.
  auto LessEqual = guardedSide(IndexPredicate::LessEqual, 31, 128);
  ASSERT_TRUE(LessEqual);
  EXPECT_TRUE(LessEqual->WhenHolds);
  EXPECT_EQ(LessEqual->Share, 0.25);
  auto Greater = guardedSide(IndexPredicate::Greater, 31, 128);
  ASSERT_TRUE(Greater);
  EXPECT_FALSE(Greater->WhenHolds);
  EXPECT_EQ(Greater->Share, 0.25);
  auto AtLeast = guardedSide(IndexPredicate::GreaterEqual, 96, 128);
  ASSERT_TRUE(AtLeast);
  EXPECT_FALSE(AtLeast->WhenHolds);
  EXPECT_EQ(AtLeast->Share, 0.75);
  // blockIdx.x == k (an argument) on a grid of 10: one block in 10; != k
  // fails there.
  auto Named = guardedSide(IndexPredicate::Equal, std::nullopt, 10);
  ASSERT_TRUE(Named);
  EXPECT_EQ(Named->Share, 0.1);
  auto Others = guardedSide(IndexPredicate::NotEqual, std::nullopt, 10);
  ASSERT_TRUE(Others);
  EXPECT_FALSE(Others->WhenHolds);
  EXPECT_EQ(Others->Share, 0.1);
  // An order on a bound not known, or one every index is under, narrows
  // nothing.
  EXPECT_FALSE(guardedSide(IndexPredicate::Less, std::nullopt, 10));
  EXPECT_FALSE(guardedSide(IndexPredicate::LessEqual, 127, 128));
  EXPECT_EQ(swappedIndexPredicate(IndexPredicate::Less),
            IndexPredicate::Greater);
  EXPECT_EQ(swappedIndexPredicate(IndexPredicate::GreaterEqual),
            IndexPredicate::LessEqual);
}

TEST(FeatureCore, MixedRadixValues) {
  // threadIdx.x + 96 * blockIdx.x at block 96, grid 264: 25,344 values.
  EXPECT_EQ(mixedRadixValues({{96, 264}, {1, 96}}), 25344u);
  // blockIdx.x + 10 * blockIdx.y on a 10x4 grid: 40.
  EXPECT_EQ(mixedRadixValues({{1, 10}, {10, 4}}), 40u);
  // A gap (blockIdx.x * 256 at block 128), an unknown extent, nothing.
  EXPECT_FALSE(mixedRadixValues({{1, 128}, {256, 10}}));
  EXPECT_FALSE(mixedRadixValues({{1, 128}, {128, 0}}));
  EXPECT_FALSE(mixedRadixValues({}));
}

TEST(FeatureCore, PeakOfLiveSpans) {
  EXPECT_EQ(peakOfLiveSpans({}), 0.0);
  // Points 0..5: a (1 register) 0-5, b (2) 1-2, c (2) 2-4, d (4) 5-5.
  // At 2: 1 + 2 + 2 = 5; at 5: 1 + 4 = 5; at 3: 1 + 2 = 3.
  EXPECT_EQ(peakOfLiveSpans({{0, 5, 1}, {1, 2, 2}, {2, 4, 2}, {5, 5, 4}}),
            5.0);
  // Spans that only touch at an end still overlap there (Last inclusive).
  EXPECT_EQ(peakOfLiveSpans({{0, 3, 2}, {3, 6, 3}}), 5.0);
  EXPECT_EQ(peakOfLiveSpans({{0, 2, 2}, {3, 6, 3}}), 3.0);
}
