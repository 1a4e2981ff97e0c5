//===- LaunchPlan.h - Block shape choice for one gpu.func -------*- C++ -*-===//
//
// The MLIR side of the optimizer's decision, free of MLIR: the request the
// launch planner (energy/LaunchPlanner.h) gets for one kernel, whose rule
// keeps the shapes its launch sites can be rewritten to. The MLIR dialect
// has no tunables, so a candidate is a block shape.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_LAUNCHPLAN_H
#define ENERGY_LIB_MLIR_LAUNCHPLAN_H

#include "energy/ConfigSpace.h"
#include "energy/CostModel.h"
#include "energy/LaunchPlanner.h"
#include "energy/Objective.h"

#include "llvm/Support/Error.h"
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace energy {

using LaunchExtent = std::array<uint64_t, 3>; // threads per dimension

struct LaunchPlanRequest {
  /// The kernel's features without a block (the shape-independent ones).
  const KernelFeatures *Features = nullptr;
  /// The features with a candidate's block known (footprints, leader
  /// guards, one-address atomics), as a forced launch is predicted; they
  /// must outlive the plan. The screen's best candidates and the baselines
  /// are predicted again with them. Required.
  std::function<const KernelFeatures &(const BlockShape &)> FeaturesFor;
  const GpuArch *Arch = nullptr;
  ObjectiveSpec Objective;
  uint64_t WorkItems = DefaultWorkItems;
  unsigned DynamicSharedBytes = 0;
  /// Total threads per dimension of every launch that will be rewritten: a
  /// candidate must divide each exactly, so grid = total / block keeps the
  /// same threads. Empty: no restriction (advice only).
  std::vector<LaunchExtent> LaunchTotals;
  /// The block the launches use now, a third baseline when known.
  std::optional<BlockShape> CurrentBlock;
};

/// A kernel's registers under its own launch bounds (nvvm.maxntid or
/// reqntid, with nvvm.minctasm): what the estimate says, and what ptxas
/// leaves it (registerCap, the LLVM pass's rule for __launch_bounds__).
struct BoundedRegisters {
  unsigned Estimated = 0, Allowed = 0;
  bool capped() const { return Estimated > Allowed; }
};

/// The block nvvm.reqntid requires, if the bounds hold one.
std::optional<BlockShape> requiredBlock(const LaunchBounds &Bounds);

/// F's registers under its launch bounds, for the remark: the planner
/// predicts each candidate of a kernel with bounds as ptxas builds it, the
/// registers above the cap charged as spill code (makeCandidate,
/// predictAndChoose: the LLVM route's rule). Bounds that fix no threads cap
/// nothing, and their minimum of blocks per SM is dropped from F: ptxas
/// ignores .minnctapersm without .maxntid or .reqntid. Nothing when the
/// bounds fix no threads.
std::optional<BoundedRegisters> registersUnderBounds(KernelFeatures &F,
                                                     const GpuArch &Arch);

/// Runs the launch planner over the free shapes, with the launch sites'
/// rule and the kernel's bounds (at most nvvm.maxntid's threads, exactly
/// nvvm.reqntid's block). Fails only when the model does.
llvm::Expected<LaunchPlan> planLaunch(const LaunchPlanRequest &R,
                                      const CostModel &Model);

/// One sentence with numbers, in the words of the LLVM pass's remark, for a
/// feasible plan.
std::string explainLaunchChoice(const LaunchPlanRequest &R,
                                const LaunchPlan &P);

} // namespace energy

#endif
