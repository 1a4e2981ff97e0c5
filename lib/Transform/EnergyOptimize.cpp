//===- EnergyOptimize.cpp - Pick and apply energy-optimal launches --------===//

#include "energy/EnergyOptimize.h"

#include "CandidateFeatures.h"
#include "ChoicesHeader.h"
#include "KernelPlanner.h"
#include "KernelRewriter.h"
#include "OptimizationReport.h"
#include "PluginWarning.h"

#include "energy/CostModel.h"
#include "energy/DidYouMean.h"
#include "energy/KeptCalls.h"
#include "energy/NVVMAnnotations.h"
#include "energy/OutputFiles.h"
#include "energy/PluginError.h"
#include "energy/TargetChoice.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#include <map>

using namespace llvm;

#define DEBUG_TYPE "energy-optimize"

STATISTIC(NumKernels, "Kernels seen");
STATISTIC(NumKernelsTuned, "Kernels rewritten to their chosen configuration");
STATISTIC(NumKernelsAdvised, "Kernels given advice only");
STATISTIC(NumKernelsSkipped, "Kernels left alone because planning failed");
STATISTIC(NumNothingToTune, "Kernels with nothing to tune");

/// The pass name of the remarks (-pass-remarks=energy), older than the
/// per-concern DEBUG_TYPEs.
static const char *const RemarkPass = "energy";

namespace energy {

static Error optionError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// The nvcc build whose registers the candidates take, if the user's is.
static std::optional<NvccBuild> nvccBuild(const OptimizeOptions &Opts) {
  if (Opts.Resources != ResourcesFrom::Nvcc)
    return std::nullopt;
  return NvccBuild{Opts.NvccPath, Opts.NvccFlags};
}

namespace {

class ModuleOptimizer {
public:
  ModuleOptimizer(Module &M, const OptimizeOptions &Opts,
                  FunctionAnalysisManager &FAM)
      : M(M), Opts(Opts), FAM(FAM),
        Extractor(Opts.Features, nvccBuild(Opts)),
        Targets(Opts.Arch, Opts.Gpu, Opts.ModelFile) {}

  Error run();
  /// Whether the IR changed; advice alone changes nothing.
  bool changed() const { return Changed; }

private:
  Module &M;
  const OptimizeOptions &Opts;
  FunctionAnalysisManager &FAM;
  bool Changed = false;
  CandidateFeatureExtractor Extractor;
  TargetChoice Targets;
  FixedTunables Fixed;
  std::vector<Function *> Replaced; // erased last: see moveToFreshFunction
  /// Notes about the target (its board, its model): they hold for every
  /// kernel built for it, so each is remarked once a module, with the first
  /// kernel it concerns; the report keeps them with every kernel.
  StringSet<> TargetNotes, TargetNotesRemarked;

  Expected<std::map<Function *, ForcedConfig>>
  forcedConfigs(ArrayRef<Function *> Kernels, const ModuleTuningInfo &Info);
  Error apply(KernelPlan &P);
  OptimizationRemarkEmitter &remarks(Function &F) {
    return FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  }
  void remark(const KernelPlan &P);
  void skip(Function &F, StringRef Name, std::string Why);
  std::vector<SkippedKernel> Skipped;
  /// Kernels -energy-force-config names that this module does not define.
  std::vector<std::string> UnmatchedForces;
  void nothingToTune(Function &F, const ModuleTuningInfo &Info,
                     StringRef Why);
};

/// The kernel each -energy-force-config names, by any of its kernelNames.
Expected<std::map<Function *, ForcedConfig>>
ModuleOptimizer::forcedConfigs(ArrayRef<Function *> Kernels,
                               const ModuleTuningInfo &Info) {
  std::map<Function *, ForcedConfig> Forced;
  for (const std::string &S : Opts.ForceConfigs) {
    ForcedConfig C = cantFail(parseForcedConfig(S)); // checked as an option
    std::vector<Function *> Named;
    for (Function *F : Kernels)
      if (llvm::is_contained(kernelNames(*F, Info), C.Kernel))
        Named.push_back(F);
    // In a build of several files each compile sees the same options: a
    // kernel another file defines is no error here.
    if (Named.empty()) {
      std::vector<std::string> Here; // each kernel by the name it shows
      for (Function *F : Kernels)
        Here.push_back(kernelDisplayName(*F, Info));
      M.getContext().diagnose(PluginWarning(
          "energy-optimize: -energy-force-config names kernel '" + C.Kernel +
          "', which is not in this module; ignored here" +
          didYouMean(C.Kernel, Here)));
      UnmatchedForces.push_back(C.Kernel);
      continue;
    }
    if (Named.size() > 1) {
      std::string Which;
      for (Function *F : Named)
        Which += (Which.empty() ? "'" : ", '") + demangle(F->getName()) + "'";
      return optionError("-energy-force-config names kernel '" + C.Kernel +
                         "', which is ambiguous: " + Which);
    }
    auto [It, New] = Forced.try_emplace(Named[0], C);
    if (!New && !It->second.sameConfig(C))
      return optionError("-energy-force-config gives kernel '" +
                         demangle(Named[0]->getName()) +
                         "' two configurations, as '" + It->second.Kernel +
                         "' and as '" + C.Kernel + "'");
  }
  return Forced;
}

Error ModuleOptimizer::apply(KernelPlan &P) {
  const Candidate &C = P.chosen();
  Changed = true;
  Function *NewF = moveToFreshFunction(*P.Kernel);
  Replaced.push_back(P.Kernel);
  P.Kernel = NewF;

  std::vector<Function *> Tree = callTree(*NewF);
  const Assignment &Values = P.Assignments[C.Assignment];
  for (size_t I = 0; I < P.TunableVars.size(); ++I) {
    if (Error E = replaceTunableReads(*P.TunableVars[I], Values[I], Tree))
      return E;
    setTunableRecord(*P.TunableVars[I], Values[I]);
    Fixed[P.TunableVars[I]] = {Values[I], P.Name};
  }
  for (const ResizableArray &A : P.SharedArrays) {
    auto Dims = P.arrayDims(A, C.Assignment, C.Block);
    if (!Dims)
      return Dims.takeError();
    if (auto Resized = resizeSharedArray(*A.Var, *Dims); !Resized)
      return Resized.takeError();
  }
  // No minctasm: it would make ptxas meet the predicted occupancy with the
  // register estimate, which is taken before register allocation and runs
  // far below ptxas's count for register-tiled kernels (sgemm: 39 against
  // 128): the corpus spilled in 50 of 195 configurations with it.
  writeLaunchBounds(*NewF, LaunchBounds::requiring(C.Block));
  foldBlockDim(*NewF, C.Block);
  if (Error E = writeLaunchRecord(M, P.Record, C.Block,
                                  P.dynamicSharedBytes(C.Block),
                                  workPerThread(P.Tunables, Values)))
    return E;
  ++NumKernelsTuned;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": applied to " << P.Name << ": block "
                    << formatBlockShape(C.Block) << ", "
                    << P.TunableVars.size() << " tunables folded, "
                    << P.SharedArrays.size() << " shared arrays resized\n");
  return Error::success();
}

/// Appends E's text to a remark, its values as named arguments.
static void addExplanation(DiagnosticInfoOptimizationBase &R,
                           const Explanation &E) {
  for (const Explanation::Part &Part : E.parts())
    if (Part.RecordOnly)
      continue;
    else if (Part.Key.empty())
      R << Part.Text;
    else
      R << ore::NV(Part.Key, Part.Text);
}

/// The record's own values (the text shows the rest already): the block's
/// three extents, the grid, whether the kernel was rewritten, and Why's
/// record-only values (time and energy in fixed units).
static void addChoiceRecord(DiagnosticInfoOptimizationBase &R,
                            const KernelPlan &P, const Explanation &Why) {
  const Candidate &C = P.chosen();
  R << ore::setExtraArgs() << ore::NV("BlockX", C.Block[0])
    << ore::NV("BlockY", C.Block[1]) << ore::NV("BlockZ", C.Block[2])
    << ore::NV("GridBlocks", C.Query.Blocks) << ore::NV("Applied", P.Apply);
  for (const Explanation::Part &Part : Why.parts())
    if (Part.RecordOnly)
      R << ore::NV(Part.Key, Part.Text);
}

void ModuleOptimizer::remark(const KernelPlan &P) {
  OptimizationRemarkEmitter &ORE = remarks(*P.Kernel);
  for (const std::string &Note : P.Notes) {
    if (TargetNotes.contains(Note) && !TargetNotesRemarked.insert(Note).second)
      continue;
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "Assumption", P.Kernel)
             << "kernel " << ore::NV("Kernel", P.Name) << ": "
             << ore::NV("Note", Note);
    });
  }
  for (const BlockRestriction &R : P.Restrictions)
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "Restriction", P.Kernel)
             << "kernel " << ore::NV("Kernel", P.Name) << ": block "
             << ore::NV("Rule", R.Rule) << ": " << ore::NV("Reason", R.Reason);
    });
  Explanation Why = explainChoice(P);
  if (P.Apply) {
    ORE.emit([&] {
      OptimizationRemark R(RemarkPass, "LaunchConfig", P.Kernel);
      R << "kernel " << ore::NV("Kernel", P.Name) << ": chose ";
      addExplanation(R, Why);
      addChoiceRecord(R, P, Why);
      return R;
    });
    return;
  }
  StringRef Reason =
      P.UserBounded ? "has launch bounds from the source"
                    : "is not opted in (ENERGY_KERNEL), so its host launches "
                      "keep their block shape";
  ++NumKernelsAdvised;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": advice only for " << P.Name << ": "
                    << Reason << "\n");
  ORE.emit([&] {
    OptimizationRemarkAnalysis R(RemarkPass, "Advice", P.Kernel);
    R << "kernel " << ore::NV("Kernel", P.Name) << " "
      << ore::NV("Reason", Reason) << "; advice: ";
    addExplanation(R, Why);
    addChoiceRecord(R, P, Why);
    return R;
  });
}

void ModuleOptimizer::skip(Function &F, StringRef Name, std::string Why) {
  ++NumKernelsSkipped;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": left " << Name << " alone: " << Why
                    << "\n");
  remarks(F).emit([&] {
    return OptimizationRemarkMissed(RemarkPass, "Skipped", &F)
           << "kernel " << ore::NV("Kernel", Name) << " left alone: "
           << ore::NV("Reason", Why);
  });
  Skipped.push_back({Name.str(), std::move(Why)});
}

/// The block an earlier energy-optimize tuned F to: reqntid on an opted-in
/// kernel (CUDA source cannot give reqntid, and its tunables may be folded
/// away).
static std::optional<BlockShape> tunedBlock(Function &F,
                                            const ModuleTuningInfo &Info) {
  const auto &ReqNTid = readLaunchBounds(F).ReqNTid;
  if (!Info.Kernels.count(&F) || !ReqNTid[0])
    return std::nullopt;
  return BlockShape{ReqNTid[0], std::max(ReqNTid[1], 1u),
                    std::max(ReqNTid[2], 1u)};
}

/// A forced config on a kernel an earlier run tuned (a rebuild with the
/// same flags, a pipeline that runs the pass twice): the configuration it
/// has already is no error, another one is, as its tunables are folded.
/// The tuned values are the block and the tunables' records, which the
/// rewrite set to the values it folded. (Which tunables the kernel read is
/// gone with the reads: a tunable of the module with the forced value
/// passes.)
static Error checkForcedOnTuned(const ForcedConfig &Force,
                                const BlockShape &Tuned, StringRef Name,
                                const ModuleTuningInfo &Info) {
  std::string Has = "block " + formatBlockShape(Tuned);
  std::string Asked = "block " + formatBlockShape(Force.Block);
  bool Same = Force.Block == Tuned;
  for (const auto &[Tunable, Value] : Force.Values) {
    auto It = llvm::find_if(Info.Tunables, [&](const TunableVar &T) {
      return T.Info.Name == Tunable;
    });
    if (It == Info.Tunables.end()) {
      std::vector<std::string> Known;
      for (const TunableVar &T : Info.Tunables)
        Known.push_back(T.Info.Name);
      return optionError("kernel '" + Name + "' reads no tunable '" + Tunable +
                         "'" + didYouMean(Tunable, Known));
    }
    Has += ", " + Tunable + "=" + std::to_string(It->Info.Default);
    Asked += ", " + Tunable + "=" + std::to_string(Value);
    Same = Same && It->Info.Default == Value;
  }
  if (Same)
    return Error::success();
  return optionError("kernel '" + Name + "' is already tuned to " + Has +
                     "; -energy-force-config asks for " + Asked +
                     ", which needs the IR from before the tuning (its "
                     "tunables are folded)");
}

void ModuleOptimizer::nothingToTune(Function &F, const ModuleTuningInfo &Info,
                                    StringRef Why) {
  ++NumNothingToTune;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": nothing to tune in " << F.getName()
                    << ": " << Why << "\n");
  remarks(F).emit([&] {
    return OptimizationRemarkAnalysis(RemarkPass, "NothingToTune", &F)
           << "kernel "
           << ore::NV("Kernel", demangle(kernelDisplayName(F, Info))) << " "
           << ore::NV("Reason", Why) << ": nothing to tune";
  });
}

/// The launch records of the kernels in M, sorted by name, where the first
/// of them was: clang emits the records of a kernel template's
/// instantiations (device variables the host reads) in an order that
/// changes from one compile to the next, and NVPTX prints globals in module
/// order, so the PTX of a rebuild differed.
static void sortRecords(Module &M, const ModuleTuningInfo &Info) {
  std::vector<GlobalVariable *> Records;
  for (const auto &[Kernel, Annotation] : Info.Kernels)
    if (GlobalVariable *GV = M.getNamedGlobal(Annotation.Record))
      Records.push_back(GV);
  llvm::sort(Records, [](const GlobalVariable *A, const GlobalVariable *B) {
    return A->getName() < B->getName();
  });
  Records.erase(std::unique(Records.begin(), Records.end()), Records.end());
  if (Records.size() < 2)
    return;
  // The first global after the first record that is not a record.
  auto IsRecord = [&](const GlobalVariable &GV) {
    return llvm::is_contained(Records, &GV);
  };
  auto Anchor = llvm::find_if(M.globals(), IsRecord);
  while (Anchor != M.global_end() && IsRecord(*Anchor))
    ++Anchor;
  for (GlobalVariable *GV : Records) {
    GV->removeFromParent();
    M.insertGlobalVariable(Anchor, GV);
  }
}

Error ModuleOptimizer::run() {
  // Only now is opt's -o known for sure: a report written over the module
  // opt writes would corrupt it.
  if (Error E = checkNotToolOutput(
          {{"report", Opts.ReportFile}, {"header", Opts.HeaderFile}}))
    return E;
  auto Info = readTuningInfo(M);
  if (!Info)
    return Info.takeError();
  sortRecords(M, *Info);
  std::vector<Function *> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && isKernel(F))
      Kernels.push_back(&F);
  auto Forced = forcedConfigs(Kernels, *Info);
  if (!Forced)
    return Forced.takeError();
  // After Forced: each plan points at its kernel's forced config.
  std::vector<KernelPlan> Plans;

  KernelPlanner Planner(Opts, *Info, Extractor);
  for (Function *F : Kernels) {
    ++NumKernels;
    std::vector<std::string> Notes;
    const GpuArch &Arch = Targets.arch(
        F->getFnAttribute("target-cpu").getValueAsString(), "sm_XX target-cpu",
        Notes);
    auto Model = Targets.model(Arch);
    if (!Model)
      return Model.takeError();
    if (!(*Model)->Note.empty())
      Notes.push_back((*Model)->Note);
    for (const std::string &Note : Notes)
      TargetNotes.insert(Note);
    Extractor.targetArch(Arch.Name);
    auto ForceIt = Forced->find(F);
    const ForcedConfig *Force =
        ForceIt == Forced->end() ? nullptr : &ForceIt->second;
    // After the model: a bad -energy-model fails even a module with nothing
    // to tune.
    if (auto Tuned = tunedBlock(*F, *Info)) {
      if (Force)
        if (Error E = checkForcedOnTuned(
                *Force, *Tuned, demangle(kernelDisplayName(*F, *Info)), *Info))
          return E;
      nothingToTune(*F, *Info,
                    "is already tuned (reqntid " + formatBlockShape(*Tuned) +
                        ")");
      continue;
    }
    auto Plan = Planner.plan(*F, Arch, *(*Model)->Model, Fixed, Force);
    if (!Plan) {
      // The user asked for nothing on a kernel that did not opt in: its
      // compile must not fail over advice.
      bool Asked = Force || Info->Kernels.count(F);
      if (Asked)
        return Plan.takeError();
      Extractor.release();
      skip(*F, demangle(kernelDisplayName(*F, *Info)),
           toString(Plan.takeError()));
      continue;
    }
    // No configuration saves anything of nothing; the plan's features say
    // so without a second analysis of the kernel.
    if (!Force && !Plan->Features[Plan->chosen().Assignment].doesWork()) {
      nothingToTune(*F, *Info, "does no work (no memory access or arithmetic)");
      continue;
    }
    // The target's notes first, then the plan's own (a forced block it
    // would not rewrite to), then the trips its features assumed.
    llvm::append_range(Notes, Plan->Notes);
    // The header route: say whose registers the choice was made with.
    if (Plan->chosenFeatures().RegistersFrom == "nvcc")
      Notes.push_back("registers and spills from nvcc's build of the source (" +
                      Extractor.nvccRelease() + "), not clang's");
    for (const AssumedTrip &A : Plan->chosenFeatures().AssumedTrips)
      Notes.push_back(A.describe());
    Plan->Notes = std::move(Notes);
    Plan->BoardNamed = Targets.boardNamed();
    if (Plan->Apply) {
      if (Error E = apply(*Plan))
        return E;
    }
    // A kernel left alone (bounded in the source) keeps its record: the
    // plan checked that its declared default is within its bounds.
    remark(*Plan);
    // Rewritten or not, the choice assumed every call inlined: the end of
    // the pipeline checks that the build did so (energy-kept-calls). The
    // marker is a string attribute no analysis reads: advice still
    // preserves them all.
    markPredicted(*Plan->Kernel, /*Warn=*/Plan->OptedIn || Force);
    Plans.push_back(std::move(*Plan));
  }
  // Their cached analyses go first: a later function may reuse the address.
  for (Function *Old : Replaced) {
    FAM.clear(*Old, Old->getName());
    Old->eraseFromParent();
  }

  if (!Opts.ReportFile.empty())
    if (Error E = writeOptimizationReport(Opts.ReportFile,
                                          M.getModuleIdentifier(), Plans,
                                          Skipped, UnmatchedForces))
      return E;
  if (!Opts.HeaderFile.empty())
    if (Error E = writeChoicesHeader(Opts.HeaderFile, M.getModuleIdentifier(),
                                     Plans))
      return E;
  return Error::success();
}

} // namespace

PreservedAnalyses EnergyOptimizePass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  if (!isNVPTXModule(M))
    return PreservedAnalyses::all();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  ModuleOptimizer Optimizer(M, Opts, FAM);
  if (Error E = Optimizer.run())
    emitPluginError(M.getContext(), "energy-optimize: " + toString(std::move(E)));
  if (!Optimizer.changed())
    return PreservedAnalyses::all();
  // The rewrite replaces values (tunable reads, blockDim, shared arrays,
  // launch records) and moves a tuned kernel into a new function, whose
  // body alone gains blocks (inlined blockDim helpers): no function it
  // keeps changes its CFG. The replaced kernels' results were cleared.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  PA.preserve<FunctionAnalysisManagerModuleProxy>();
  return PA;
}

} // namespace energy
