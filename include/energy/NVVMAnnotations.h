//===- NVVMAnnotations.h - Kernel flags and launch bounds -------*- C++ -*-===//
//
// The one place that knows how LLVM 19 stores kernel flags and launch bounds
// (`!nvvm.annotations`). LLVM 21 moves them to function attributes
// ("nvvm.maxntid" ...): only this file and its .cpp need to change then.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_NVVMANNOTATIONS_H
#define ENERGY_NVVMANNOTATIONS_H

#include "energy/KernelFeatures.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace energy {

bool isNVPTXModule(const llvm::Module &M);

/// A kernel by `!nvvm.annotations` "kernel" or the PTX_Kernel calling
/// convention.
bool isKernel(const llvm::Function &F);

LaunchBounds readLaunchBounds(const llvm::Function &F);

/// Replaces every maxntid/reqntid/minctasm/maxnreg entry of F by Bounds
/// (zero fields are dropped). A second entry for the same key would never
/// win in the NVPTX printer, so existing ones are removed, not appended to.
void writeLaunchBounds(llvm::Function &F, const LaunchBounds &Bounds);

} // namespace energy

#endif
