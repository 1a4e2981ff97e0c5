//===- LaunchSearch.h - Predict, compare and choose candidates --*- C++ -*-===//
//
// The part of the optimizer's decision both front ends share (the LLVM pass
// and the MLIR gpu-dialect pass): candidates and their occupancy, pruning,
// NVIDIA's occupancy-heuristic baseline, one batch of predictions, the
// Pareto front, the objective's choice, and the sentence that explains it.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LAUNCHSEARCH_H
#define ENERGY_LAUNCHSEARCH_H

#include "energy/ConfigSpace.h"
#include "energy/CostModel.h"
#include "energy/Objective.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace energy {

struct Candidate {
  size_t Assignment = 0; // tunable assignment (0 where there are none)
  BlockShape Block = {1, 1, 1};
  CostQuery Query;
  PruneReason Pruned = PruneReason::None;
  CostPrediction Prediction;
  bool OnFront = false;
  /// The registers per thread ptxas leaves the candidate's build: what its
  /// launch bounds (with their minimum of blocks per SM) fit, else what its
  /// block can launch with.
  unsigned RegisterCap = 0;
  /// Whether launch bounds cap the build's registers (the source's, or the
  /// .reqntid the optimizer gives the block): ptxas spills what does not fit.
  bool CappedBuild = false;
  /// The kernel needs more registers than its block can launch with, and no
  /// launch bounds make ptxas fit them: CUDA refuses the launch, so only a
  /// forced configuration keeps it.
  bool TooManyRegisters = false;
  /// Registers the features need above the cap of a capped build, as last
  /// predicted: their registers were not counted under the cap (an estimate,
  /// or ptxas without the block's bounds), so the prediction charges the
  /// spill code ptxas will add (withEstimatedSpills); 0 where none.
  unsigned SpilledRegisters = 0;
  /// The spill bytes per thread that charge adds (withEstimatedSpills).
  double EstimatedSpillBytes = 0;
  /// Why a free search did not predict the candidate again with its block
  /// known (LaunchPlanner::refine), when it did not: its block-free screen
  /// prediction is not comparable with the refined ones, so it is cleared.
  std::string ScreenedOut;
};

/// The registers per thread ptxas leaves a kernel whose blocks have Threads
/// threads, when MinBlocks of them (`__launch_bounds__`'s second argument,
/// .minnctapersm) must fit an SM at once: the largest count, a multiple of 8
/// up to MaxRegistersPerThread, with which the register file holds them.
/// A MinBlocks no SM can hold (more blocks or warps than an SM takes) is
/// ignored, as ptxas ignores it.
unsigned registersAllowed(const GpuArch &Arch, unsigned Threads,
                          unsigned MinBlocks = 1);

/// Whether an SM can hold MinBlocks blocks of Threads threads (the warp
/// and block limits; registers aside): else ptxas ignores the minimum.
bool minBlocksHonoured(const GpuArch &Arch, unsigned Threads,
                       unsigned MinBlocks);

/// The registers ptxas leaves a kernel with Bounds launched with blocks of
/// Threads threads: its bounds' threads where it has bounds (ptxas sees
/// those, not the launch), with their minimum of blocks per SM.
unsigned registerCap(const GpuArch &Arch, unsigned Threads,
                     const LaunchBounds &Bounds);

/// Features of the code ptxas makes of a kernel with Features when it must
/// fit Cap registers a thread and Features need more: each register above
/// the cap is spilled, which takes at least one 4-byte store to its local
/// slot and one 4-byte load back (ptxas 13.0 on sm_90 wrote 1.0-2.6 times
/// that much spill code for kernels 8-32 registers above a .reqntid cap:
/// docs/spill-study.md), executed as often as the average instruction, the
/// rule ptxas's own spill figures get. The registers become the cap and the
/// frame grows by the slots.
KernelFeatures withEstimatedSpills(const KernelFeatures &Features,
                                   unsigned Cap);

/// A candidate for Block with the given per-thread features, grid size and
/// shared memory per block; its occupancy comes from the arch tables. A grid
/// beyond MaxGridBlocksX cannot launch: it gets no occupancy (pruned).
/// Built are the launch bounds the build gives the kernel where they are not
/// its features' (the .reqntid of the block the optimizer rewrites it to):
/// they cap its registers.
Candidate
makeCandidate(const KernelFeatures &Features, const GpuArch &Arch,
              const BlockShape &Block, uint64_t Blocks,
              unsigned SharedBytesPerBlock, size_t Assignment = 0,
              const std::optional<LaunchBounds> &Built = std::nullopt);

struct PruneCounts {
  size_t Resources = 0, Cliff = 0;
};

/// Prunes each candidate against the best occupancy reachable with the same
/// assignment. KeepCliffs keeps low-occupancy candidates (asked for).
PruneCounts pruneCandidates(llvm::MutableArrayRef<Candidate> Candidates,
                            bool KeepCliffs = false);

/// Why every one of Candidates (at least one) is pruned for resources:
/// CUDA's grid limit when no candidate's grid for WorkItems items is within
/// it, else the resources of Arch.
std::string noCandidateFits(llvm::ArrayRef<Candidate> Candidates,
                            const GpuArch &Arch, uint64_t WorkItems);

/// NVIDIA's occupancy heuristic (cudaOccupancyMaxPotentialBlockSize): the
/// largest block, stepping down by warps, with the most resident warps; 2-D
/// kernels get rows of one warp.
BlockShape occupancyHeuristicShape(
    const GpuArch &Arch, bool TwoD,
    llvm::function_ref<Occupancy(const BlockShape &)> OccupancyOf);

/// The block of a kernel that declares none, as CUDA code habitually
/// launches it: 256 threads, or 32x8 for a 2-D kernel.
BlockShape typicalBlockShape(bool TwoD);

/// What a choice is compared with: the declared default shape, and NVIDIA's
/// occupancy heuristic among the shapes the kernel is correct for (Legal),
/// else the default: a baseline is a launch someone could make. Make builds
/// a shape's candidate.
struct BaselineCandidates {
  Candidate Default, OccupancyHeuristic;
};
BaselineCandidates
makeBaselines(const GpuArch &Arch, bool TwoD, const BlockShape &Default,
              llvm::function_ref<Candidate(const BlockShape &)> Make,
              llvm::function_ref<bool(const BlockShape &)> Legal);

/// The indices of the unpruned Candidates, best predicted for Goal first.
std::vector<size_t> bestFirst(llvm::ArrayRef<Candidate> Candidates,
                              Objective Goal);

/// Predicts the unpruned candidates and the baselines that can launch (the
/// others are marked pruned) in one batch, marks the Pareto front of the
/// candidates, and returns the objective's choice (an index into
/// Candidates). The unpruned candidate with Incumbent's assignment and block,
/// if any, stays unless the choice beats it by more than Objective.MinGain.
/// A candidate of a capped build whose features need more registers than
/// its cap is predicted with withEstimatedSpills (SpilledRegisters says so).
/// At least one candidate must be unpruned.
llvm::Expected<ObjectiveChoice>
predictAndChoose(llvm::MutableArrayRef<Candidate> Candidates,
                 llvm::ArrayRef<Candidate *> Baselines,
                 const Candidate *Incumbent, const CostModel &Model,
                 const ObjectiveSpec &Objective);

/// A sentence for a remark, in pieces: plain text, and named values that a
/// remark records as arguments (-pass-remarks-output, -fsave-optimization-
/// record), so the YAML record carries the numbers the text shows.
class Explanation {
public:
  struct Part {
    std::string Key; // empty: plain text
    std::string Text;
    bool RecordOnly = false; // a remark record's value, not in the text
  };
  Explanation &operator<<(llvm::StringRef Text);
  /// A named value; Key is a remark argument name ("TimeUs").
  Explanation &value(llvm::StringRef Key, std::string Text);
  Explanation &value(llvm::StringRef Key, uint64_t N);
  /// A value for remark records only ("TimeUs" in microseconds, where the
  /// text scales its unit): str() leaves it out.
  Explanation &record(llvm::StringRef Key, std::string Text);
  Explanation &append(const Explanation &Other);
  llvm::ArrayRef<Part> parts() const { return Parts; }
  std::string str() const;

private:
  std::vector<Part> Parts;
};

/// A baseline the choice is compared with: "occupancy heuristic", and the
/// name its values take in remark arguments ("OccupancyHeuristic").
struct NamedBaseline {
  llvm::StringRef What, Key;
  const Candidate *C;
};

/// "block 128, ITEMS=4 (energy within 10% of the fastest): predicted 61.2 us,
/// 23.1 mJ per launch of 16777216 items on h100-sxm (sm_90); vs the occupancy
/// heuristic (1024): energy -4.5%, time +0.3%; vs the default (256): ...; 96
/// of 96 candidates evaluated (LeftOut), 3 on the Pareto front": the
/// sentence of both passes. Config is the description of the chosen
/// configuration ("block 128, ITEMS=4", with its values named); Why, in
/// the parenthesis, what decided (the objective, or min-gain keeping the
/// default); LeftOut, if any, says which shapes were not candidates. Besides
/// Config's and Why's, the values are named TimeUs, EnergyMJ, WorkItems,
/// Gpu, Arch, per baseline <Key>Block, EnergyVs<Key> and TimeVs<Key>
/// (percent change, negative: the choice is lower), Evaluated, Candidates
/// and ParetoFront.
Explanation explainChoice(const Explanation &Config, const Explanation &Why,
                          const Candidate &Chosen, uint64_t WorkItems,
                          const GpuArch &Arch,
                          llvm::ArrayRef<NamedBaseline> Baselines,
                          size_t Evaluated,
                          llvm::ArrayRef<Candidate> Candidates,
                          llvm::StringRef LeftOut = "");

/// "block 16x8" with the shape named Block.
Explanation describeBlock(const BlockShape &Block);

/// Percent change from Baseline to Chosen (negative: Chosen is lower).
double percentChange(double Baseline, double Chosen);

} // namespace energy

#endif
