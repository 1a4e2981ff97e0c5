//===- CandidateFeatures.h - Features under one tunable assignment -*- C++ -*-===//
//
// Tunables change a kernel's loop trip counts and instruction mix, so each
// assignment is measured on its own: a clone of the kernel with its calls
// inlined and tunables folded, cleaned up (SROA, InstCombine, SimplifyCFG,
// EarlyCSE, LoopSimplify) so -O0 and pre-optimization IR look like what
// the backend will see, then analyzed and deleted.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_CANDIDATEFEATURES_H
#define ENERGY_LIB_CANDIDATEFEATURES_H

#include "energy/FeatureAnalysis.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"

namespace llvm {
class GlobalVariable;
}

namespace energy {

class CandidateFeatureExtractor {
public:
  explicit CandidateFeatureExtractor(FeatureOptions Opts);

  /// Features of Kernel with each Values[i].first read as Values[i].second.
  llvm::Expected<KernelFeatures>
  extract(llvm::Function &Kernel,
          llvm::ArrayRef<std::pair<llvm::GlobalVariable *, int>> Values);

private:
  FeatureOptions Opts;
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB;
  llvm::FunctionPassManager Cleanup;
};

} // namespace energy

#endif
