//===- KernelPlan.h - Candidates, predictions and choice of a kernel -*- C++ -*-===//
//
// What the optimizer decided for one kernel and why: shared by the pass
// (which applies it), the remark and the JSON report (which explain it).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_KERNELPLAN_H
#define ENERGY_LIB_KERNELPLAN_H

#include "BlockLegality.h"
#include "TuningSpec.h"

#include "energy/ConfigSpace.h"
#include "energy/CostModel.h"
#include "energy/LaunchPlanner.h"
#include "energy/Objective.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
} // namespace llvm

namespace energy {

struct ResizableArray {
  llvm::GlobalVariable *Var = nullptr;
  std::vector<ShapeDim> Shape;
};

/// The launch plan, and what the LLVM pass adds: tunables, shared arrays,
/// the rules that restricted the shapes, the source's records.
struct KernelPlan : LaunchPlan {
  llvm::Function *Kernel = nullptr;
  std::string Name;      // display name ("saxpy")
  std::string IRName;    // "_Z5saxpyifPKfPf"
  std::string Record;    // __energy_launch_<name>
  bool OptedIn = false;  // ENERGY_KERNEL*: the host launches with the record
  bool UserBounded = false;
  bool Apply = false;    // rewrite the kernel (opted in, not user-bounded)
  const GpuArch *Arch = nullptr;
  bool BoardNamed = false; // -energy-gpu, not the arch's default board
  std::string ModelName;
  std::vector<std::string> Notes; // arch/model substitutions
  uint64_t WorkItems = DefaultWorkItems;
  /// ENERGY_GRID: every launch has this grid, whatever its block.
  std::optional<std::array<uint64_t, 3>> FixedGrid;

  std::vector<Tunable> Tunables;              // as searched (maybe restricted)
  std::vector<llvm::GlobalVariable *> TunableVars;
  std::vector<Assignment> Assignments;
  std::vector<KernelFeatures> Features;       // per assignment
  /// Per (assignment, block): the features with the block known, for the
  /// candidates a free search refines (refineWithBlocks).
  std::map<std::pair<size_t, BlockShape>, KernelFeatures> BlockFeatures;
  /// Per assignment, the block its Features were measured with, where the
  /// screen knows it: the forced block, or the block its tunables fix.
  std::vector<std::optional<BlockShape>> ScreenBlocks;
  /// Under a force whose tunable values are not the defaults: the
  /// assignment of the defaults, measured for the baselines only.
  std::optional<size_t> BaselineOnly;
  /// Whether C was predicted from its features with the block known.
  /// The features the chosen candidate was predicted with: its block's
  /// where it was refined, else its assignment's.
  const KernelFeatures &chosenFeatures() const {
    const Candidate &C = chosen();
    return C.Query.Features ? *C.Query.Features : Features[C.Assignment];
  }
  bool predictedWithBlock(const Candidate &C) const {
    if (C.Query.Features == &Features[C.Assignment])
      return ScreenBlocks[C.Assignment] == C.Block;
    auto It = BlockFeatures.find({C.Assignment, C.Block});
    return It != BlockFeatures.end() && C.Query.Features == &It->second;
  }
  /// Whether Features come from -O3-simplified code (else the cleanup only).
  bool Simplified = false;
  /// Compile time spent on this kernel's features (the screen's, then the
  /// block refinement's), and on NVPTX codegen and ptxas for its registers.
  double FeatureSeconds = 0, RefineSeconds = 0, ToolchainSeconds = 0;
  std::vector<ResizableArray> SharedArrays;
  /// ENERGY_DYNAMIC_SHARED: bytes per thread and per block, when declared.
  std::optional<std::array<unsigned, 2>> DynamicShared;

  /// Which block shapes the kernel is correct for, and why.
  std::vector<BlockRestriction> Restrictions;

  /// The config -energy-force-config states for this kernel, if any (the
  /// pass's module run holds it, and its plans).
  const ForcedConfig *Force = nullptr;
  ObjectiveSpec Objective;

  /// "block 128, ITEMS=4" for remarks and reports; the values are named
  /// Block and Tunable.<name>.
  Explanation describe(const Candidate &C) const;
  /// The grid a launch of Block has where the source or a forced config
  /// states it (a forced grid for the forced block, else ENERGY_GRID).
  std::optional<std::array<uint64_t, 3>>
  statedGrid(const BlockShape &Block) const;
  /// The grid the candidate of Assignment and Block is predicted on, for
  /// the loops that stride over it: the stated grid, else (a 1-D block)
  /// the 1-D grid that covers the workload, as ENERGY_LAUNCH launches it.
  /// Nothing for a 2-D block on a workload: its grid's shape is the host's.
  std::optional<std::array<uint64_t, 3>>
  launchGrid(size_t Assignment, const BlockShape &Block) const;
  /// Dynamic shared memory a launch of Block needs (0 when undeclared).
  unsigned dynamicSharedBytes(const BlockShape &Block) const;
  /// Evaluated sizes of the shared arrays for a candidate (outermost first).
  llvm::Expected<std::vector<int64_t>> arrayDims(const ResizableArray &A,
                                                 size_t Assignment,
                                                 const BlockShape &Block) const;
};

} // namespace energy

#endif
