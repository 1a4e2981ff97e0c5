//===- LaunchPlanner.h - One launch planner for both passes -----*- C++ -*-===//
//
// The sequence both passes run to choose a kernel's block: enumerate the
// shapes of each tunable assignment, leave out those the front end's
// legality rule excludes, build and prune the candidates, make the
// baselines, predict and choose. The passes differ only in what they pass
// in: the shapes, the rule (the LLVM pass follows the kernel's declarations
// and what its code reads; the MLIR pass keeps each launch's threads and
// the block extents the kernel bakes in) and how a candidate is built.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LAUNCHPLANNER_H
#define ENERGY_LAUNCHPLANNER_H

#include "energy/LaunchSearch.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace energy {

/// The candidates of one kernel and the choice among them.
struct LaunchPlan {
  std::vector<Candidate> Candidates; // pruned ones too
  size_t Choice = 0;
  /// Shapes the legality rule left out.
  size_t Illegal = 0;
  /// No shape passed the rule: the default block is the one candidate.
  bool OnlyDefault = false;
  size_t PrunedResources = 0, PrunedCliff = 0;
  Candidate OccupancyBaseline, DefaultBaseline;
  /// The block the launches use now, a third baseline when known.
  std::optional<Candidate> CurrentBaseline;
  /// Why no candidate is left, if none is; then nothing was predicted.
  std::string Infeasible;
  /// Candidates refine predicted again with their block known (not those
  /// the screen measured with it already).
  size_t Refined = 0;
  /// Candidates left with the block-free screen's prediction only: not
  /// compared (Candidate::ScreenedOut says why).
  size_t ScreenedOut = 0;
  /// The objective's min-gain, when the choice is the incumbent because no
  /// candidate beat it by more.
  std::optional<double> KeptIncumbentWithin;

  const Candidate &chosen() const { return Candidates[Choice]; }
  /// The baselines a choice is compared with: the occupancy heuristic, the
  /// default and, when known, the launch's block.
  std::vector<Candidate *> baselines() {
    std::vector<Candidate *> B = {&OccupancyBaseline, &DefaultBaseline};
    if (CurrentBaseline)
      B.push_back(&*CurrentBaseline);
    return B;
  }
  /// The launch that runs when nothing is chosen: the launch's block where
  /// known, else the default.
  const Candidate &incumbent() const {
    return CurrentBaseline ? *CurrentBaseline : DefaultBaseline;
  }
  /// Candidates predicted and compared.
  size_t evaluated() const {
    return Candidates.size() - PrunedResources - PrunedCliff - ScreenedOut;
  }
};

/// The remark's sentence for a feasible plan (explainChoice): the chosen
/// configuration described by Config, compared with the occupancy heuristic,
/// the default, and the launch's block where known and different.
Explanation explainPlan(const LaunchPlan &P, const Explanation &Config,
                        llvm::StringRef Objective, uint64_t WorkItems,
                        const GpuArch &Arch, llvm::StringRef LeftOut = "");

/// What a front end tells the planner about one kernel.
struct LaunchSpace {
  const GpuArch *Arch = nullptr;
  uint64_t WorkItems = DefaultWorkItems;
  size_t Assignments = 1;
  /// The assignment of the tunables' defaults: the baselines use it.
  size_t DefaultAssignment = 0;
  /// The block the source launches with when nothing is chosen.
  BlockShape DefaultBlock = {1, 1, 1};
  std::optional<BlockShape> CurrentBlock;
  /// Whether the occupancy heuristic's baseline uses rows of one warp.
  bool TwoD = false;
  /// False: tunables fix the block, and the occupancy heuristic's baseline
  /// is the default (there is no other shape to launch with).
  bool FreeShape = true;
  /// Keep low-occupancy candidates (a forced configuration).
  bool KeepCliffs = false;
  /// Whether the occupancy heuristic's baseline obeys Violation for the
  /// default assignment; false where the rule is about rewriting the launch
  /// sites and any shape is a launch the user could write.
  bool RuleBindsBaselines = true;
  /// Infeasible when no shape passes the rule; empty: the default block of
  /// the default assignment is then the one candidate (OnlyDefault).
  llvm::StringRef NoneLegal;

  // Shapes, Violation and Make are required. function_ref does not own:
  // the functions must outlive the planner.
  /// The shapes to consider for an assignment.
  llvm::function_ref<llvm::Expected<std::vector<BlockShape>>(size_t)> Shapes;
  /// Why a shape is not legal for an assignment, or nothing.
  llvm::function_ref<std::optional<std::string>(size_t, const BlockShape &)>
      Violation;
  /// What to do with a shape Violation excludes: true keeps it, false
  /// leaves it out (counted in Illegal), an error stops. Null: leave out.
  llvm::function_ref<llvm::Expected<bool>(const BlockShape &, llvm::StringRef)>
      OnViolation;
  /// The candidate of an assignment and a block.
  llvm::function_ref<llvm::Expected<Candidate>(size_t, const BlockShape &)>
      Make;
};

/// How a front end predicts a candidate again with its block known (the
/// footprints, leader guards and one-address atomics a free search's
/// block-free screen cannot see), as a forced launch is predicted.
struct BlockRefinement {
  /// Gives C's query the features with C's block known; the front end keeps
  /// them (one per assignment and block) until the plan is done.
  llvm::function_ref<llvm::Error(Candidate &)> Refine;
  /// What refining C costs, in Budget's units: 0 when C was predicted with
  /// its block already (it is then always compared).
  llvm::function_ref<uint64_t(const Candidate &)> Cost;
  uint64_t Budget = UINT64_MAX;
  /// The screen's best candidates refined, besides the baselines' own.
  size_t MaxBest = 4;
};

class LaunchPlanner {
public:
  LaunchPlanner(const LaunchSpace &Space, const CostModel &Model,
                const ObjectiveSpec &Objective)
      : Space(Space), Model(Model), Objective(Objective) {}

  /// Enumerates, prunes, builds the baselines, predicts and chooses into P.
  /// A plan with no candidate left says why in P.Infeasible; an error comes
  /// from the model or from Space's functions.
  llvm::Error plan(LaunchPlan &P) const;

  /// Prunes P's candidates (remade by the caller, with its baselines) and
  /// chooses again.
  llvm::Error choose(LaunchPlan &P) const;

  /// After plan or choose: refines, within R.Budget, the incumbent, the
  /// screen's best, the other baselines that launch, then the screen's next
  /// best up to R.MaxBest (the same assignment and block once; those that
  /// cost nothing to refine always), and chooses among the refined
  /// candidates, compared with refined baselines only. The others are
  /// screened out: their screen predictions are cleared, so that no list
  /// shows a prediction made another way beside the compared ones.
  /// False when the incumbent, the screen's best and the baselines do not
  /// fit the budget, or no refined candidate can launch: P is then
  /// unchanged.
  llvm::Expected<bool> refine(LaunchPlan &P, const BlockRefinement &R) const;

private:
  const LaunchSpace &Space;
  const CostModel &Model;
  const ObjectiveSpec &Objective;

  llvm::Error enumerate(LaunchPlan &P) const;
  llvm::Error makeBaselines(LaunchPlan &P) const;
  /// Whether a candidate is left.
  bool prune(LaunchPlan &P) const;
  llvm::Error predict(LaunchPlan &P) const;
  /// Sets P's choice, and whether it is the incumbent kept by min-gain.
  void record(LaunchPlan &P, size_t Choice, bool KeptIncumbent) const;
};

} // namespace energy

#endif
