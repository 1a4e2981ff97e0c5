//===- CandidateFeatures.h - Features under one tunable assignment -*- C++ -*-===//
//
// Tunables change a kernel's loop trip counts and instruction mix, so each
// assignment is measured on its own. Once per kernel, a clone with its
// calls inlined is cleaned up (SROA, EarlyCSE, InstCombine, SimplifyCFG,
// LoopSimplify) so -O0 and pre-optimization IR look like what the backend
// will see; tunable reads stay loads there. Each assignment then measures a
// copy of that clone with the tunables replaced by constants (ScalarEvolution
// sees the constant bounds) and deletes it.
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
  ~CandidateFeatureExtractor();

  /// Features of Kernel with each Values[i].first read as Values[i].second.
  llvm::Expected<KernelFeatures>
  extract(llvm::Function &Kernel,
          llvm::ArrayRef<std::pair<llvm::GlobalVariable *, int>> Values);

  /// The cleaned-up clone of Kernel (inlined, SROA'd), made on first use;
  /// it lives until release().
  llvm::Function &prepared(llvm::Function &Kernel);

  /// Deletes the cleaned-up clone of the kernel measured last: call it
  /// before the kernel or anything it uses is rewritten.
  void release();

private:
  llvm::Function *Kernel = nullptr; // whose clone Prepared is
  llvm::Function *Prepared = nullptr;

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
