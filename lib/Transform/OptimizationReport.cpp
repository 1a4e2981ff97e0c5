//===- OptimizationReport.cpp - JSON report of the optimizer --------------===//

#include "OptimizationReport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace energy {

Explanation explainChoice(const KernelPlan &P) {
  return explainPlan(P, P.describe(P.chosen()),
                     P.Force ? std::string("forced") : P.Objective.describe(),
                     P.WorkItems, *P.Arch);
}

static void writeCandidate(json::OStream &J, const KernelPlan &P,
                           const Candidate &C) {
  J.attributeArray("block", [&] {
    for (unsigned D : C.Block)
      J.value(D);
  });
  J.attributeObject("tunables", [&] {
    for (size_t I = 0; I < P.Tunables.size(); ++I)
      J.attribute(P.Tunables[I].Name, P.Assignments[C.Assignment][I]);
  });
  J.attribute("grid_blocks", C.Query.Blocks);
  J.attribute("shared_bytes", C.Query.SharedBytesPerBlock);
  J.attribute("dynamic_shared_bytes", P.dynamicSharedBytes(C.Block));
  J.attribute("occupancy", C.Query.Occ.Fraction);
  J.attribute("occupancy_limiter", limiterName(C.Query.Occ.Limiter));
  if (C.Pruned != PruneReason::None) {
    J.attribute("pruned", pruneReasonName(C.Pruned));
    return;
  }
  if (!C.ScreenedOut.empty()) {
    J.attribute("screened_out", C.ScreenedOut);
    return;
  }
  if (C.SpilledRegisters)
    // Predicted with spills its registers were not counted with.
    J.attributeObject("spills_estimated", [&] {
      J.attribute("register_cap", C.RegisterCap);
      J.attribute("spilled_registers", C.SpilledRegisters);
      J.attribute("spill_bytes", C.EstimatedSpillBytes);
    });
  J.attribute("time_s", C.Prediction.TimeSeconds);
  J.attribute("energy_j", C.Prediction.EnergyJoules);
  J.attribute("pareto", C.OnFront);
  if (P.predictedWithBlock(C))
    J.attribute("predicted_with_block", true);
}

static void writeKernel(json::OStream &J, const KernelPlan &P) {
  const Candidate &Chosen = P.chosen();
  // The features the chosen prediction was made with: its block's where the
  // planner predicted it again with the block known, not the screen's.
  const KernelFeatures &ChosenFeatures =
      Chosen.Query.Features ? *Chosen.Query.Features
                            : P.Features[Chosen.Assignment];
  J.attribute("kernel", P.Name);
  J.attribute("ir_name", P.IRName);
  J.attribute("record", P.Record);
  J.attribute("arch", P.Arch->Name);
  J.attribute("gpu", P.Arch->Gpu);
  // Without -energy-gpu the figures are the target's default board's,
  // whichever board of that architecture will run the code.
  J.attribute("gpu_from", P.BoardNamed ? std::string("-energy-gpu")
                                       : std::string("default board of ") +
                                             P.Arch->Name);
  J.attribute("model", P.ModelName);
  // The analytic model's constants feed every model (the learned ones take
  // its predictions as inputs): say whether they were fitted for this board.
  J.attribute("model_constants", analyticConstants(*P.Arch).Origin);
  J.attributeArray("notes", [&] {
    for (const std::string &N : P.Notes)
      J.value(N);
  });
  J.attribute("objective", P.Force ? "forced" : P.Objective.describe());
  J.attribute("opted_in", P.OptedIn);
  J.attribute("user_bounded", P.UserBounded);
  J.attribute("applied", P.Apply);
  J.attribute("work_items", P.WorkItems);
  J.attribute("features_from", P.Simplified ? "simplified" : "cleanup");
  J.attribute("registers_from", ChosenFeatures.RegistersFrom);
  J.attributeObject("compile_seconds", [&] {
    J.attribute("features", P.FeatureSeconds);
    J.attribute("block_refinement", P.RefineSeconds);
    J.attribute("toolchain", P.ToolchainSeconds);
  });
  if (P.Simplified)
    J.attribute("simplified_instructions",
                ChosenFeatures.SimplifiedInstructions);
  J.attributeArray("tunables", [&] {
    for (const Tunable &T : P.Tunables)
      J.object([&] {
        J.attribute("name", T.Name);
        J.attribute("default", T.Default);
        J.attribute("work_per_thread", T.WorkPerThread);
        J.attributeArray("candidates", [&] {
          for (int V : T.Candidates)
            J.value(V);
        });
      });
  });
  J.attributeBegin("features");
  ChosenFeatures.writeJSON(J);
  J.attributeEnd();
  J.attributeArray("restrictions", [&] {
    for (const BlockRestriction &R : P.Restrictions)
      J.object([&] {
        J.attribute("rule", R.Rule);
        J.attribute("reason", R.Reason);
      });
  });
  J.attribute("shapes_not_correct", static_cast<int64_t>(P.Illegal));
  J.attribute("candidates_total", static_cast<int64_t>(P.Candidates.size()));
  J.attributeObject("pruned", [&] {
    J.attribute("resources", static_cast<int64_t>(P.PrunedResources));
    J.attribute("occupancy_cliff", static_cast<int64_t>(P.PrunedCliff));
    J.attribute("screened_out", static_cast<int64_t>(P.ScreenedOut));
  });
  J.attributeArray("candidates", [&] {
    for (const Candidate &C : P.Candidates)
      J.object([&] { writeCandidate(J, P, C); });
  });
  J.attributeArray("pareto_front", [&] {
    for (size_t I = 0; I < P.Candidates.size(); ++I)
      if (P.Candidates[I].OnFront)
        J.value(static_cast<int64_t>(I));
  });
  J.attributeObject("choice", [&] {
    J.attribute("index", static_cast<int64_t>(P.Choice));
    writeCandidate(J, P, Chosen);
  });
  J.attribute("reason", explainChoice(P).str());
  // What made the choice, for tools that print it: the objective's best, a
  // forced config, or min-gain keeping the default (or the launch's block)
  // because nothing beat it by enough.
  J.attribute("decided_by", P.Force                 ? "forced"
                            : P.KeptIncumbentWithin ? "min-gain"
                                                    : "objective");
  if (P.KeptIncumbentWithin)
    J.attribute("min_gain", *P.KeptIncumbentWithin);
  J.attributeObject("baselines", [&] {
    J.attributeObject("occupancy_heuristic",
                      [&] { writeCandidate(J, P, P.OccupancyBaseline); });
    J.attributeObject("default", [&] { writeCandidate(J, P, P.DefaultBaseline); });
  });
  J.attributeObject("savings_percent", [&] {
    auto Pair = [&](StringRef Key, const Candidate &B) {
      if (B.Pruned != PruneReason::None)
        return;
      J.attributeObject(Key, [&] {
        J.attribute("energy", -percentChange(B.Prediction.EnergyJoules,
                                             Chosen.Prediction.EnergyJoules));
        J.attribute("time", -percentChange(B.Prediction.TimeSeconds,
                                           Chosen.Prediction.TimeSeconds));
      });
    };
    Pair("vs_occupancy_heuristic", P.OccupancyBaseline);
    Pair("vs_default", P.DefaultBaseline);
  });
  std::vector<float> Inputs;
  appendModelInputs(Chosen.Query, Inputs);
  J.attributeArray("choice_model_inputs", [&] {
    for (float V : Inputs)
      J.value(static_cast<double>(V));
  });
}

Error writeOptimizationReport(StringRef Path, StringRef ModuleName,
                              ArrayRef<KernelPlan> Plans,
                              ArrayRef<SkippedKernel> Skipped,
                              ArrayRef<std::string> UnmatchedForces) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write report '" + Path +
                                     "': " + EC.message());
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("format", "energy-report-v1");
    J.attribute("module", ModuleName);
    J.attributeArray("model_input_names", [&] {
      for (const std::string &N : modelInputNames())
        J.value(N);
    });
    J.attributeArray("kernels", [&] {
      for (const KernelPlan &P : Plans)
        J.object([&] { writeKernel(J, P); });
    });
    J.attributeArray("skipped", [&] {
      for (const SkippedKernel &K : Skipped)
        J.object([&] {
          J.attribute("kernel", K.Name);
          J.attribute("reason", K.Reason);
        });
    });
    // energy-cuda sees every file of a build: a force no file defines is an
    // error there.
    J.attributeArray("unmatched_forces", [&] {
      for (const std::string &K : UnmatchedForces)
        J.value(K);
    });
  });
  OS << "\n";
  return Error::success();
}

std::optional<json::Object> readModuleReport(StringRef Path,
                                             StringRef ModuleName) {
  if (!sys::fs::exists(Path))
    return std::nullopt;
  auto Text = MemoryBuffer::getFile(Path);
  if (!Text)
    return std::nullopt;
  Expected<json::Value> Report = json::parse((*Text)->getBuffer());
  if (!Report) {
    consumeError(Report.takeError());
    return std::nullopt;
  }
  json::Object *Root = Report->getAsObject();
  if (!Root || Root->getString("format") != "energy-report-v1" ||
      Root->getString("module") != ModuleName)
    return std::nullopt;
  return std::move(*Root);
}

Error rewriteReport(StringRef Path, json::Object Report) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot update report '" + Path +
                                     "': " + EC.message());
  OS << formatv("{0:2}", json::Value(std::move(Report))) << "\n";
  return Error::success();
}

} // namespace energy
