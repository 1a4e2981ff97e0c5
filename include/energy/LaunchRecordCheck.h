//===- LaunchRecordCheck.h - Launches follow the record ----*- C++ -*-===//
//
// The plugin may compile a kernel opted in with ENERGY_KERNEL* for another
// block than its default (launch bounds, blockDim folded to constants), so
// its host launches must take their block from its launch record:
// ENERGY_LAUNCH, ENERGY_BLOCK_DIM(k) or ENERGY_CHOICE(k).block. In the host
// module of a CUDA compile, energy-launch-check follows the block of every
// `k<<<grid, block>>>` of such a kernel back to where it comes from, and a
// block it cannot trace to k's record (a constant, a computed value, the
// record of another kernel) is an error naming the file and line (under -g,
// or location tracking such as -Rpass=energy-locations-only, which
// energy-cuda adds; else the function):
//
//   error: app.cu:12: kernel 'scale' (ENERGY_KERNEL) is launched with
//   block 256, not with the block of its launch record ...
//
// It runs at the pipeline's start, on the IR clang emitted (the same at -O0
// and -O2), on a copy of each function with a launch: the calls that build
// the block (dim3's constructor, energy::block_of, a helper returning a
// dim3) are inlined into the copy on demand and its memory promoted to
// values, so a block built from the record and kept in variables (or in
// the function's static variable) is traced through them. A block that
// comes from a parameter is checked at the callers this module has;
// callers in other files cannot be (a remark says so under
// -Rpass-analysis=energy). Launches through a function pointer
// (ENERGY_LAUNCH's own) and runtime calls (cudaLaunchKernel) are not
// checked. Opted-in kernels are those with an energy.tune annotation here,
// or whose record this module reads (ENERGY_KERNEL_EXTERN and a read).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LAUNCHRECORDCHECK_H
#define ENERGY_LAUNCHRECORDCHECK_H

#include "llvm/IR/PassManager.h"

namespace energy {

class EnergyLaunchCheckPass
    : public llvm::PassInfoMixin<EnergyLaunchCheckPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace energy

#endif
