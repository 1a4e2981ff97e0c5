//===- KeptCalls.h - Calls kept that the prediction inlined ---*- C++ -*-===//
//
// energy-optimize predicts each kernel with every call it makes inlined, as
// NVIDIA's compilers build it. Clang's -O3 inliner can keep a large callee
// as a call (one with external linkage and a big unrolled body, or one
// marked __noinline__); an array the kernel passes to it then stays in
// local memory, so the code that runs is not the code that was predicted.
// energy-kept-calls runs at the end of the optimization pipeline, finds the
// calls that survived in the kernels energy-optimize predicted, and says so:
// a warning for the kernels the user opted in or forced, and the list
// (`kept_calls`) in the report of -energy-report=FILE for every one.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_KEPTCALLS_H
#define ENERGY_KEPTCALLS_H

#include "llvm/IR/PassManager.h"
#include <string>

namespace llvm {
class Function;
}

namespace energy {

/// Marks K as predicted with its calls inlined. Warn: a kept call deserves
/// a warning (the user opted K in or forced its configuration), not only
/// a line in the report.
void markPredicted(llvm::Function &K, bool Warn);

class EnergyKeptCallsPass : public llvm::PassInfoMixin<EnergyKeptCallsPass> {
public:
  explicit EnergyKeptCallsPass(std::string ReportFile)
      : ReportFile(std::move(ReportFile)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::string ReportFile;
};

} // namespace energy

#endif
