//===- PtxasInfoTest.cpp - Reading ptxas -v reports -----------------------===//

#include "NvccResources.h"

#include <gtest/gtest.h>

using namespace energy;

// nvcc -Xptxas -v on a file: every kernel, and the properties of a callee
// ptxas kept (a noinline device function) after its caller's registers.
static const char *TwoKernels =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z1aPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z1aPf\n"
    "    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 0 barriers\n"
    "ptxas info    : Function properties for _Z6calleev\n"
    "    96 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function 'b' for 'sm_90'\n"
    "ptxas info    : Function properties for b\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 1 barriers, 1024 bytes smem\n"
    "ptxas info    : Compile time = 28.160 ms\n";

TEST(PtxasInfo, EveryKernelOfAFile) {
  auto Kernels = parseAllPtxasInfo(TwoKernels);
  ASSERT_EQ(Kernels.size(), 2u);
  KernelResources A = Kernels.at("_Z1aPf");
  EXPECT_EQ(A.Registers, 40u);
  EXPECT_EQ(A.StackFrameBytes, 8u); // not the callee's 96
  EXPECT_EQ(A.SpillStoreBytes, 4u);
  EXPECT_EQ(A.SpillLoadBytes, 12u);
  KernelResources B = Kernels.at("b");
  EXPECT_EQ(B.Registers, 8u);
  EXPECT_EQ(B.StackFrameBytes, 0u);
}

TEST(PtxasInfo, NoRegistersNoKernel) {
  EXPECT_TRUE(parseAllPtxasInfo("ptxas info    : Compiling entry function "
                                "'k' for 'sm_90'\n")
                  .empty());
  EXPECT_TRUE(parseAllPtxasInfo("").empty());
}
