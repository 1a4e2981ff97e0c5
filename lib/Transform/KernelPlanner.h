//===- KernelPlanner.h - Build a KernelPlan for one kernel ------*- C++ -*-===//
#ifndef ENERGY_LIB_KERNELPLANNER_H
#define ENERGY_LIB_KERNELPLANNER_H

#include "CandidateFeatures.h"
#include "KernelPlan.h"

#include "energy/EnergyOptimize.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace energy {

/// Assignments whose registers ptxas checks: all of them when there are
/// this few, else this many with the best predicted candidates (each costs
/// an NVPTX codegen and a ptxas run).
constexpr size_t MaxToolchainChecked = 4;

// What the planning stages share (KernelPlan.cpp, KernelPlanRefine.cpp).
llvm::Error planError(const llvm::Twine &Msg);
/// Each tunable's variable and its value in assignment A.
std::vector<std::pair<llvm::GlobalVariable *, int>>
assignmentValues(const KernelPlan &P, size_t A);
/// The shared arrays of assignment A at their built extents, for a block
/// where known (without one, arrays whose spec names the block keep their
/// declared size).
std::vector<CandidateFeatureExtractor::BuiltArray>
builtArrays(const KernelPlan &P, size_t A,
            const std::optional<BlockShape> &Block);
/// The launch of Block that P's prediction of assignment A may assume: its
/// grid (stated, else the one covering the workload) and,
/// under a force, the launch's arguments (not the forced binary's
/// registers, which describe the forced configuration only).
std::optional<CandidateFeatureExtractor::KnownLaunch>
blockLaunch(const KernelPlan &P, size_t A, const BlockShape &Block);
/// The launch assignment A's screen features were measured with.
std::optional<CandidateFeatureExtractor::KnownLaunch>
screenLaunch(const KernelPlan &P, size_t A);
/// Traces what the planner pruned and chose; an error when it left nothing.
llvm::Error reportChoice(const KernelPlan &P, const ForcedConfig *Force);

/// Stated rules (ENERGY_BLOCK_RULES) that admit no shape the planner could
/// give the kernel (OnlyDefault), its declared default included, are the
/// user's mistake: an error naming the kernel and the rules, where the
/// planner would keep the default the rules exclude.
llvm::Error checkStatedRulesAdmitAShape(const KernelPlan &P,
                                        const BlockLegalityCheck &Legal,
                                        const BlockShape &Default);
/// Registers a forced config states (registers=R, the binary's count) must
/// let the forced block launch: CUDA refuses a block whose threads need more
/// registers than an SM has ("too many resources requested for launch"),
/// where ptxas, bounded by reqntid, would have spilled instead.
llvm::Error checkForcedRegisters(const KernelPlan &P,
                                 const ForcedConfig *Force);

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
  /// With many assignments, ptxas checks the registers of the few whose
  /// candidates predict best, and Planner chooses again.
  llvm::Error checkRegistersWithToolchain(KernelPlan &P,
                                          const LaunchPlanner &Planner,
                                          const ForcedConfig *Force);
  /// A search predicts its best candidates and its baselines again with
  /// their block known (the forced one and those the tunables fix are known
  /// already), as the build compiles them, and chooses among those.
  llvm::Error refineWithBlocks(KernelPlan &P, const LaunchPlanner &Planner);
  llvm::Expected<Candidate> makeCandidate(const KernelPlan &P,
                                          size_t Assignment,
                                          const BlockShape &Block);
  /// The candidate predicted from F, features of Assignment measured with
  /// the block MeasuredWith (if known).
  llvm::Expected<Candidate>
  makeCandidate(const KernelPlan &P, size_t Assignment,
                const BlockShape &Block, const KernelFeatures &F,
                const std::optional<BlockShape> &MeasuredWith);
  /// Runs the launch planner over P's assignments with the LLVM pass's
  /// rule (Legal, or a forced block), then the ptxas check.
  llvm::Error chooseLaunch(KernelPlan &P, const BlockLegalityCheck &Legal,
                           const BlockShape &DefaultShape,
                           const CostModel &Model, const ForcedConfig *Force);
};

} // namespace energy

#endif
