//===- FeatureHelpersTest.cpp - Pure helpers of the feature analysis ------===//

#include "AccessStride.h"
#include "CallClassifier.h"
#include "RegisterPressure.h"
#include "energy/KernelFeatures.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "gtest/gtest.h"

using namespace energy;

TEST(CallClassifier, LibdeviceAndIntrinsicsAgree) {
  EXPECT_EQ(classifyCallee("__nv_expf"), CallKind::Special);
  EXPECT_EQ(classifyCallee("llvm.exp.f32"), CallKind::Special);
  EXPECT_EQ(classifyCallee("llvm.nvvm.ex2.approx.f"), CallKind::Special);
  EXPECT_EQ(classifyCallee("__nv_rsqrtf"), CallKind::Special);
  EXPECT_EQ(classifyCallee("llvm.nvvm.rsqrt.approx.f"), CallKind::Special);
  EXPECT_EQ(classifyCallee("__nv_fabsf"), CallKind::FloatOp);
  EXPECT_EQ(classifyCallee("__nv_fmaf"), CallKind::FloatFMA);
  EXPECT_EQ(classifyCallee("llvm.fmuladd.f32"), CallKind::FloatFMA);
  EXPECT_EQ(classifyCallee("__nv_float2int_rn"), CallKind::Conversion);
  EXPECT_EQ(classifyCallee("__nv_min"), CallKind::IntOp);
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
