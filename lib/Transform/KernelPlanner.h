//===- KernelPlanner.h - Build a KernelPlan for one kernel ------*- C++ -*-===//
#ifndef ENERGY_LIB_KERNELPLANNER_H
#define ENERGY_LIB_KERNELPLANNER_H

#include "KernelPlan.h"

#include "energy/EnergyOptimize.h"

#include <functional>
#include <map>
#include <string>

namespace energy {

class CandidateFeatureExtractor;

/// A tunable's value, fixed by the kernel rewritten to it.
struct FixedTunable {
  int Value;
  std::string Kernel;
};
/// Tunables already fixed by an earlier kernel of the module: a tunable is
/// one device variable, so every kernel that reads it must agree.
using FixedTunables = std::map<const llvm::GlobalVariable *, FixedTunable>;

class KernelPlanner {
public:
  KernelPlanner(const OptimizeOptions &Opts, const ModuleTuningInfo &Info,
                CandidateFeatureExtractor &Extractor);

  /// Enumerates, prunes, predicts and chooses; does not change the IR.
  llvm::Expected<KernelPlan> plan(llvm::Function &F, const GpuArch &Arch,
                                  const CostModel &Model,
                                  const FixedTunables &Fixed,
                                  const ForcedConfig *Force);

private:
  const OptimizeOptions &Opts;
  const ModuleTuningInfo &Info;
  CandidateFeatureExtractor &Extractor;

  llvm::Error setUpTunables(KernelPlan &P, const FixedTunables &Fixed,
                            const ForcedConfig *Force);
  llvm::Error measureAssignments(KernelPlan &P, const ForcedConfig *Force);
  /// Prunes P's candidates (a forced or only-default config by resources
  /// only); an error when none is left.
  llvm::Error pruneCandidates(KernelPlan &P, const ForcedConfig *Force);
  /// With many assignments, ptxas checks the registers of the few whose
  /// candidates predict best, and the choice is made again.
  llvm::Error checkRegistersWithToolchain(KernelPlan &P, const CostModel &Model,
                                          const ForcedConfig *Force);
  llvm::Expected<Candidate> makeCandidate(const KernelPlan &P,
                                          size_t Assignment,
                                          const BlockShape &Block);
  llvm::Error buildCandidates(KernelPlan &P, const BlockLegalityCheck &Legal,
                              const BlockShape &DefaultShape,
                              const ForcedConfig *Force);
  llvm::Error predictAndChoose(KernelPlan &P, const CostModel &Model,
                               const ForcedConfig *Force);
};

} // namespace energy

#endif
