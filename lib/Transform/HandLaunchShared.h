//===- HandLaunchShared.h - Shared memory of a launch by hand -*- C++ -*-===//
//
// CUDA launches a block with more than 48 KB of shared memory (static plus
// dynamic) only after cudaFuncSetAttribute(kernel,
// cudaFuncAttributeMaxDynamicSharedMemorySize, bytes). ENERGY_LAUNCH makes
// that call; a launch written by hand with ENERGY_DYNAMIC_SMEM(kernel) makes
// it, if at all, for what the kernel needed at its default block. So a
// candidate may need the opt-in only when the default block needs it too,
// and then with no more dynamic shared memory than the default's.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_HANDLAUNCHSHARED_H
#define ENERGY_LIB_HANDLAUNCHSHARED_H

#include "energy/ConfigSpace.h"

#include "llvm/Support/Error.h"

namespace energy {

struct KernelPlan;

/// Clears Fits when a launch by hand of P's kernel at Block, with
/// SharedBytes of shared memory per block (static and dynamic), could fail
/// where its default launches; an error instead when Block is the forced
/// block of a kernel the plugin rewrites.
llvm::Error limitToHandLaunch(const KernelPlan &P, const BlockShape &Block,
                              double SharedBytes, bool &Fits);

} // namespace energy

#endif
