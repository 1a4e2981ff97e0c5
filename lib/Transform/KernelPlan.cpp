//===- KernelPlan.cpp - Candidates, predictions and choice of a kernel ----===//

#include "KernelPlanner.h"

#include "CandidateFeatures.h"
#include "HandLaunchShared.h"
#include "KernelRewriter.h"
#include "PluginWarning.h"

#include "ThreadDependence.h"

#include "energy/DidYouMean.h"
#include "energy/NVVMAnnotations.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/IR/InstIterator.h"

#include <algorithm>

using namespace llvm;

#define DEBUG_TYPE "energy-candidates"

STATISTIC(NumCandidates, "Candidate configurations evaluated");
STATISTIC(NumPruned, "Candidates pruned before prediction");
STATISTIC(NumIllegal, "Block shapes left out as incorrect for their kernel");

namespace energy {

Error planError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Explanation KernelPlan::describe(const Candidate &C) const {
  Explanation E = describeBlock(C.Block);
  for (size_t I = 0; I < Tunables.size(); ++I) {
    E << ", " << Tunables[I].Name << "=";
    E.value("Tunable." + Tunables[I].Name,
            std::to_string(Assignments[C.Assignment][I]));
  }
  return E;
}

std::optional<std::array<uint64_t, 3>>
KernelPlan::statedGrid(const BlockShape &Block) const {
  if (Force && Force->Grid && Block == Force->Block)
    return Force->Grid;
  return FixedGrid;
}

std::optional<std::array<uint64_t, 3>>
KernelPlan::launchGrid(size_t Assignment, const BlockShape &Block) const {
  if (auto Grid = statedGrid(Block))
    return Grid;
  if (Block[1] != 1 || Block[2] != 1)
    return std::nullopt;
  return std::array<uint64_t, 3>{
      blocksForWorkload(WorkItems,
                        workPerThread(Tunables, Assignments[Assignment]),
                        Block),
      1, 1};
}

unsigned KernelPlan::dynamicSharedBytes(const BlockShape &Block) const {
  if (!DynamicShared)
    return 0;
  uint64_t Bytes = uint64_t((*DynamicShared)[0]) * Block[0] * Block[1] *
                       Block[2] +
                   (*DynamicShared)[1];
  return static_cast<unsigned>(std::min<uint64_t>(Bytes, UINT32_MAX));
}

Expected<std::vector<int64_t>>
KernelPlan::arrayDims(const ResizableArray &A, size_t Assignment,
                      const BlockShape &Block) const {
  ValueMap Values = {{"BLOCK_X", Block[0]},
                     {"BLOCK_Y", Block[1]},
                     {"BLOCK_Z", Block[2]}};
  for (size_t I = 0; I < Tunables.size(); ++I)
    Values[Tunables[I].Name] = Assignments[Assignment][I];
  std::vector<int64_t> Dims;
  for (const ShapeDim &D : A.Shape) {
    auto V = evaluateDim(D, Values);
    if (!V)
      return V.takeError();
    Dims.push_back(*V);
  }
  return Dims;
}

/// Whether a shape spec names the block (BLOCK_X, BLOCK_Y, BLOCK_Z).
static bool namesBlock(const ResizableArray &A) {
  return llvm::any_of(A.Shape, [](const ShapeDim &D) {
    return StringRef(D.Name).starts_with("BLOCK_");
  });
}

/// A's extents in the build of this assignment and block (nothing when the
/// block is not known and A's spec names it, or when the spec cannot be
/// evaluated or does not fit A: the candidate reports that).
static std::optional<std::vector<int64_t>>
builtDims(const KernelPlan &P, const ResizableArray &A, size_t Assignment,
          const std::optional<BlockShape> &Block) {
  if (!Block && namesBlock(A))
    return std::nullopt;
  auto Dims = P.arrayDims(A, Assignment, Block.value_or(BlockShape{1, 1, 1}));
  if (!Dims) {
    consumeError(Dims.takeError());
    return std::nullopt;
  }
  auto Bytes = resizedArrayBytes(*A.Var, *Dims);
  if (!Bytes) {
    consumeError(Bytes.takeError());
    return std::nullopt;
  }
  if (!*Bytes)
    return std::nullopt;
  return std::move(*Dims);
}

std::vector<CandidateFeatureExtractor::BuiltArray>
builtArrays(const KernelPlan &P, size_t Assignment,
            const std::optional<BlockShape> &Block) {
  std::vector<CandidateFeatureExtractor::BuiltArray> Arrays;
  for (const ResizableArray &A : P.SharedArrays)
    if (auto Dims = builtDims(P, A, Assignment, Block))
      Arrays.push_back({A.Var, std::move(*Dims)});
  return Arrays;
}

/// The bytes of A in the code measured for this assignment and block: its
/// built size, else its declared one.
static uint64_t measuredBytes(const KernelPlan &P, const ResizableArray &A,
                              size_t Assignment,
                              const std::optional<BlockShape> &Block) {
  if (auto Dims = builtDims(P, A, Assignment, Block))
    if (auto Bytes = resizedArrayBytes(*A.Var, *Dims); Bytes && *Bytes)
      return **Bytes;
  return A.Var->getParent()->getDataLayout().getTypeAllocSize(
      A.Var->getValueType());
}

KernelPlanner::KernelPlanner(const OptimizeOptions &Opts,
                             const ModuleTuningInfo &Info,
                             CandidateFeatureExtractor &Extractor)
    : Opts(Opts), Info(Info), Extractor(Extractor) {}

/// The extent a legality bound checks against: dimension Level (or the
/// bytes, Level < 0) of a shared array at this candidate's size.
static uint64_t arrayExtent(const KernelPlan &P, size_t Assignment,
                            const BlockShape &Block, const GlobalVariable &GV,
                            int Level) {
  std::optional<std::vector<int64_t>> Resized;
  for (const ResizableArray &A : P.SharedArrays)
    if (A.Var == &GV) {
      // A bad spec is reported when the candidate is built.
      if (auto Dims = P.arrayDims(A, Assignment, Block))
        Resized = *Dims;
      else
        consumeError(Dims.takeError());
    }
  if (Level >= 0) {
    if (Resized && size_t(Level) < Resized->size())
      return uint64_t(std::max<int64_t>((*Resized)[Level], 0));
    auto Levels = arrayLevels(GV.getValueType());
    return size_t(Level) < Levels.size() ? Levels[Level]->getNumElements()
                                         : UINT64_MAX;
  }
  if (Resized) {
    auto Bytes = resizedArrayBytes(GV, *Resized);
    if (Bytes && Bytes->has_value())
      return **Bytes;
    if (!Bytes)
      consumeError(Bytes.takeError());
  }
  return GV.getParent()->getDataLayout().getTypeAllocSize(GV.getValueType());
}

Error KernelPlanner::setUpTunables(KernelPlan &P, const FixedTunables &Fixed,
                                   const ForcedConfig *Force) {
  for (const TunableVar *T : tunablesReadBy(*P.Kernel, Info)) {
    Tunable Searched = T->Info;
    auto FixedIt = Fixed.find(T->Var);
    if (FixedIt != Fixed.end()) {
      // Choosing for one kernel what is best for another is no choice; a
      // forced value is the user's, and must match (checked below).
      bool ForcedHere = Force && llvm::any_of(Force->Values, [&](auto &NV) {
                          return NV.first == T->Info.Name;
                        });
      if (P.Apply && !ForcedHere)
        return planError(
            "tunable '" + T->Info.Name + "' is read by kernels '" +
            FixedIt->second.Kernel + "' and '" + P.Name +
            "', which are tuned separately and may need different values: "
            "give each kernel its own tunable, or force one value for both "
            "(-energy-force-config)");
      Searched.Candidates = {FixedIt->second.Value};
    }
    P.Tunables.push_back(Searched);
    P.TunableVars.push_back(T->Var);
  }
  if (!Force)
    return Error::success();
  for (const auto &[Name, Value] : Force->Values) {
    auto It = llvm::find_if(P.Tunables,
                            [&](const Tunable &T) { return T.Name == Name; });
    if (It == P.Tunables.end()) {
      std::vector<std::string> Read;
      for (const Tunable &T : P.Tunables)
        Read.push_back(T.Name);
      return planError("kernel '" + P.Name + "' reads no tunable '" + Name +
                       "'" + didYouMean(Name, Read));
    }
    if (!llvm::is_contained(It->Candidates, Value))
      return planError("tunable '" + Name + "' = " + Twine(Value) +
                       " is not one of its candidates for kernel '" + P.Name +
                       "'");
    It->Candidates = {Value};
  }
  // Stated registers describe one binary: one value of every tunable.
  if (Force->Resources)
    for (const Tunable &T : P.Tunables)
      if (T.Candidates.size() > 1)
        return planError("-energy-force-config states registers for one "
                         "build of kernel '" +
                         P.Name + "', but leaves tunable '" + T.Name +
                         "' open: give its value too");
  return Error::success();
}

/// The workload that a grid of Block launches, each thread doing the work
/// of the forced (else default) values of the work-per-thread tunables.
static uint64_t gridWorkItems(const KernelPlan &P,
                              const std::array<uint64_t, 3> &Grid,
                              const BlockShape &Block) {
  uint64_t Items = 1;
  auto Times = [&](uint64_t X) { Items = SaturatingMultiply(Items, X); };
  for (unsigned D = 0; D < 3; ++D) {
    Times(Grid[D]);
    Times(Block[D]);
  }
  for (const Tunable &T : P.Tunables) {
    int PerThread = T.Candidates.size() == 1 ? T.Candidates[0] : T.Default;
    if (T.WorkPerThread && PerThread > 0)
      Times(static_cast<uint64_t>(PerThread));
  }
  return Items;
}

/// The assignment of every tunable's default (or first candidate).
static size_t defaultAssignment(const KernelPlan &P) {
  if (P.BaselineOnly)
    return *P.BaselineOnly;
  for (size_t A = 0; A < P.Assignments.size(); ++A) {
    bool All = true;
    for (size_t I = 0; I < P.Tunables.size(); ++I)
      All = All && P.Assignments[A][I] == P.Tunables[I].Default;
    if (All)
      return A;
  }
  return 0;
}

Expected<Candidate> KernelPlanner::makeCandidate(const KernelPlan &P,
                                                 size_t Assignment,
                                                 const BlockShape &Block) {
  return makeCandidate(P, Assignment, Block, P.Features[Assignment],
                       P.ScreenBlocks[Assignment]);
}

Expected<Candidate> KernelPlanner::makeCandidate(
    const KernelPlan &P, size_t Assignment, const BlockShape &Block,
    const KernelFeatures &F, const std::optional<BlockShape> &MeasuredWith) {
  // Resizable arrays count at their size for this candidate, whatever size
  // F was measured with.
  double Shared = F.static_shared_bytes;
  bool Fits = true;
  for (const ResizableArray &A : P.SharedArrays) {
    auto Dims = P.arrayDims(A, Assignment, Block);
    if (!Dims)
      return Dims.takeError();
    auto Bytes = resizedArrayBytes(*A.Var, *Dims);
    if (!Bytes)
      return Bytes.takeError();
    Fits = Fits && Bytes->has_value();
    Shared += double(Bytes->value_or(0)) -
              double(measuredBytes(P, A, Assignment, MeasuredWith));
  }
  Shared += P.dynamicSharedBytes(Block);
  if (Error E = limitToHandLaunch(P, Block, Shared, Fits))
    return E;
  auto Grid = P.statedGrid(Block);
  uint64_t Blocks =
      Grid ? SaturatingMultiply(SaturatingMultiply((*Grid)[0], (*Grid)[1]),
                                (*Grid)[2])
           : blocksForWorkload(
                 P.WorkItems,
                 workPerThread(P.Tunables, P.Assignments[Assignment]), Block);
  // The rewrite bounds the kernel to its block: ptxas caps its registers
  // there and spills the rest.
  std::optional<LaunchBounds> Built;
  if (P.Apply)
    Built = LaunchBounds::requiring(Block);
  // A stated grid was checked against CUDA's limit in each dimension;
  // makeCandidate's limit, 2^31-1 blocks in all, is that of a grid that
  // follows the workload along x.
  Candidate C = energy::makeCandidate(
      F, *P.Arch, Block, Grid ? std::min(Blocks, MaxGridBlocksX) : Blocks,
      static_cast<unsigned>(std::max(0.0, Shared)), Assignment, Built);
  C.Query.Blocks = Blocks;
  if (!Fits)
    C.Query.Occ = Occupancy(); // the array cannot hold this size
  if (Grid)
    C.Query.GridColumns = (*Grid)[0];
  return C;
}

/// Block shapes for one assignment: fixed by tunables, or the free space.
static Expected<std::vector<BlockShape>>
shapesFor(const KernelPlan &P, size_t Assignment,
          const std::optional<std::array<std::string, 2>> &BlockFromTunables) {
  if (!BlockFromTunables)
    return freeBlockShapes(P.Features[Assignment].usesBlockY(),
                           P.Arch->WarpSize, P.Arch->MaxThreadsPerBlock);
  BlockShape B = {1, 1, 1};
  for (unsigned D = 0; D < 2; ++D) {
    auto It = llvm::find_if(P.Tunables, [&](const Tunable &T) {
      return T.Name == (*BlockFromTunables)[D];
    });
    if (It == P.Tunables.end())
      return planError("kernel '" + P.Name + "': block tunable '" +
                       (*BlockFromTunables)[D] + "' is not read by the kernel");
    B[D] = P.Assignments[Assignment][It - P.Tunables.begin()];
  }
  return std::vector<BlockShape>{B};
}

std::vector<std::pair<GlobalVariable *, int>>
assignmentValues(const KernelPlan &P, size_t A) {
  std::vector<std::pair<GlobalVariable *, int>> Values;
  for (size_t I = 0; I < P.Assignments[A].size(); ++I)
    Values.emplace_back(P.TunableVars[I], P.Assignments[A][I]);
  return Values;
}



Error reportChoice(const KernelPlan &P, const ForcedConfig *Force) {
  LLVM_DEBUG({
    for (const Candidate &C : P.Candidates)
      if (C.Pruned != PruneReason::None)
        dbgs() << DEBUG_TYPE << ": " << P.Name << ": pruned "
               << P.describe(C).str() << ": " << pruneReasonName(C.Pruned)
               << "\n";
  });
  if (!P.Infeasible.empty())
    return planError("kernel '" + P.Name + "': " + P.Infeasible +
                     (Force ? " (forced " + formatBlockShape(Force->Block) + ")"
                            : std::string()));
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << P.Name << ": chose "
                    << P.describe(P.chosen()).str() << " for "
                    << P.Objective.describe() << "\n");
  return Error::success();
}

/// The tunables that fix the block of an ENERGY_KERNEL_TUNABLE_BLOCK kernel.
static std::optional<std::array<std::string, 2>>
blockTunables(const KernelPlan &P, const ModuleTuningInfo &Info) {
  auto Annotation = Info.Kernels.find(P.Kernel);
  if (Annotation == Info.Kernels.end())
    return std::nullopt;
  return Annotation->second.BlockTunables;
}

/// Under a force, the values the kernel launches with when nothing is
/// forced: each forced tunable's default, the others' default where it is
/// searched (else their one value). Its baselines use them.
static Assignment declaredDefaults(const KernelPlan &P) {
  Assignment Values;
  for (const Tunable &T : P.Tunables) {
    bool Forced = llvm::any_of(P.Force->Values, [&](const auto &NV) {
      return NV.first == T.Name;
    });
    Values.push_back(Forced || llvm::is_contained(T.Candidates, T.Default)
                         ? T.Default
                         : T.Candidates[0]);
  }
  return Values;
}

std::optional<CandidateFeatureExtractor::KnownLaunch>
blockLaunch(const KernelPlan &P, size_t A, const BlockShape &Block) {
  CandidateFeatureExtractor::KnownLaunch L{
      Block, P.launchGrid(A, Block), {}, {}, {}};
  // The rewrite bounds the kernel to its block (.reqntid): ptxas allocates
  // the candidate's registers as it will in the build.
  if (P.Apply)
    L.Bounds = LaunchBounds::requiring(Block);
  if (P.Force)
    L.Arguments = P.Force->Arguments; // the launch's, whatever its block
  return L;
}

std::optional<CandidateFeatureExtractor::KnownLaunch>
screenLaunch(const KernelPlan &P, size_t A) {
  if (P.Force && P.BaselineOnly != A) {
    auto L = blockLaunch(P, A, P.Force->Block); // ENERGY_GRID too, unless forced
    L->Resources = P.Force->Resources;
    return L;
  }
  if (P.ScreenBlocks[A])
    return blockLaunch(P, A, *P.ScreenBlocks[A]);
  return std::nullopt;
}

Error KernelPlanner::measureAssignments(KernelPlan &P,
                                        const ForcedConfig *Force) {
  P.Simplified = Opts.Simplify == SimplifyMode::Always ||
                 (Opts.Simplify == SimplifyMode::Auto && (P.OptedIn || P.Force));
  P.Assignments = enumerateAssignments(P.Tunables);
  constexpr size_t MaxAssignments = 512;
  if (P.Assignments.size() > MaxAssignments)
    return planError("kernel '" + P.Name + "' has " +
                     Twine(P.Assignments.size()) +
                     " tunable combinations; at most " + Twine(MaxAssignments) +
                     " are searched");
  if (Force) {
    Assignment Defaults = declaredDefaults(P);
    if (!llvm::is_contained(P.Assignments, Defaults)) {
      P.BaselineOnly = P.Assignments.size();
      P.Assignments.push_back(std::move(Defaults));
    }
  }
  for (const GlobalVariable *Var : sharedGlobalsUsedBy(*P.Kernel)) {
    auto It = Info.SharedShapes.find(Var);
    if (It != Info.SharedShapes.end())
      P.SharedArrays.push_back({const_cast<GlobalVariable *>(Var), It->second});
  }
  // Each assignment is measured as it is built (its shared arrays at their
  // size), with its block known where the screen knows it: the forced one,
  // or the one its tunables fix.
  auto BlockFromTunables = blockTunables(P, Info);
  for (size_t A = 0; A < P.Assignments.size(); ++A) {
    bool IsForced = Force && P.BaselineOnly != A;
    std::optional<BlockShape> Block;
    if (IsForced) {
      Block = Force->Block;
    } else if (BlockFromTunables) {
      auto Shapes = shapesFor(P, A, BlockFromTunables);
      if (!Shapes)
        return Shapes.takeError();
      Block = (*Shapes)[0];
    }
    P.ScreenBlocks.push_back(Block);
    auto Features = Extractor.extract(
        *P.Kernel, assignmentValues(P, A), builtArrays(P, A, Block),
        P.Simplified, screenLaunch(P, A),
        P.Assignments.size() <= MaxToolchainChecked);
    if (!Features)
      return Features.takeError();
    P.Features.push_back(std::move(*Features));
  }
  // The clone must not outlive planning: the rewrite walks the kernel's users.
  Extractor.release();
  return Error::success();
}

/// The shape a free-shape kernel launches with when nothing is chosen:
/// ENERGY_KERNEL_BLOCK's shape, or (a kernel that did not opt in) a typical
/// one.
static BlockShape declaredFreeShape(const KernelPlan &P, bool TwoD) {
  return recordedBlock(*P.Kernel->getParent(), P.Record)
      .value_or(typicalBlockShape(TwoD));
}

/// The shape the source launches with when nothing is chosen: the tunables'
/// defaults, or declaredFreeShape.
static Expected<BlockShape> declaredDefaultShape(
    const KernelPlan &P,
    const std::optional<std::array<std::string, 2>> &BlockFromTunables) {
  size_t Default = defaultAssignment(P);
  if (BlockFromTunables) {
    auto Shapes = shapesFor(P, Default, BlockFromTunables);
    if (!Shapes)
      return Shapes.takeError();
    return (*Shapes)[0];
  }
  return declaredFreeShape(P, P.Features[Default].usesBlockY());
}

/// Whether F's code reads threadIdx.y or blockDim.y: its free search then
/// runs over 2-D shapes.
static bool readsBlockY(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (auto Read = readsSpecialRegister(&I);
        Read && Read->Axis == 1 &&
        (Read->Reg == SpecialRegister::ThreadIdx ||
         Read->Reg == SpecialRegister::BlockDim))
      return true;
  return false;
}

/// What the bounds in the source fix, for the legality check.
static void boundFacts(const LaunchBounds &Bounds, ShapeFacts &Facts) {
  Facts.MaxThreads = Bounds.maxThreads();
  if (Bounds.ReqNTid[0])
    Facts.RequiredBlock = BlockShape{std::max(Bounds.ReqNTid[0], 1u),
                                     std::max(Bounds.ReqNTid[1], 1u),
                                     std::max(Bounds.ReqNTid[2], 1u)};
}

Error KernelPlanner::chooseLaunch(KernelPlan &P,
                                  const BlockLegalityCheck &Legal,
                                  const BlockShape &DefaultShape,
                                  const CostModel &Model,
                                  const ForcedConfig *Force) {
  auto BlockFromTunables = blockTunables(P, Info);
  size_t Default = defaultAssignment(P);
  auto Shapes = [&](size_t A) -> Expected<std::vector<BlockShape>> {
    if (A == P.BaselineOnly)
      return std::vector<BlockShape>();
    auto Shapes = shapesFor(P, A, BlockFromTunables);
    if (!Shapes)
      return Shapes.takeError();
    if (Force) {
      if (BlockFromTunables && (*Shapes)[0] != Force->Block)
        return planError("kernel '" + P.Name + "': forced block " +
                         formatBlockShape(Force->Block) +
                         " differs from the block its tunables fix (" +
                         formatBlockShape((*Shapes)[0]) + ")");
      *Shapes = {Force->Block};
    }
    return Shapes;
  };
  auto Violation = [&](size_t A, const BlockShape &B) {
    return Legal.violation(B, [&](const GlobalVariable &GV, int Level) {
      return arrayExtent(P, A, B, GV, Level);
    });
  };
  auto OnViolation = [&](const BlockShape &B, StringRef Why) -> Expected<bool> {
    if (Force && !P.Apply) {
      P.Notes.push_back("the forced block " + formatBlockShape(B) +
                        " is predicted as the host's launch; it would not be "
                        "correct to rewrite to: " +
                        Why.str());
      return true;
    }
    if (Force && Opts.ForceUnsafe) {
      std::string Note = "the forced block " + formatBlockShape(B) +
                         " is built as asked (-energy-force-unsafe) although "
                         "it is not known to be correct: " +
                         Why.str();
      P.Kernel->getContext().diagnose(
          PluginWarning("energy-optimize: kernel '" + P.Name + "': " + Note));
      P.Notes.push_back(std::move(Note));
      return true;
    }
    if (Force)
      return planError("kernel '" + P.Name + "': forced block " +
                       formatBlockShape(B) + " is not correct for it: " + Why +
                       " (ENERGY_BLOCK_RULES states the shapes it accepts; "
                       "-energy-force-unsafe builds it anyway)");
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << P.Name << ": left out "
                      << formatBlockShape(B) << ": " << Why << "\n");
    return false;
  };
  auto Make = [&](size_t A, const BlockShape &B) {
    return makeCandidate(P, A, B);
  };

  LaunchSpace S;
  S.Arch = P.Arch;
  S.WorkItems = P.WorkItems;
  S.Assignments = P.Assignments.size();
  S.DefaultAssignment = Default;
  S.DefaultBlock = DefaultShape;
  S.TwoD = P.Features[Default].usesBlockY();
  S.FreeShape = !BlockFromTunables;
  S.KeepCliffs = Force != nullptr;
  S.Shapes = Shapes;
  S.Violation = Violation;
  S.OnViolation = OnViolation;
  S.Make = Make;
  LaunchPlanner Planner(S, Model, P.Objective);
  if (Error E = Planner.plan(P))
    return E;
  if (Error E = checkStatedRulesAdmitAShape(P, Legal, DefaultShape))
    return E;
  if (P.OnlyDefault)
    P.Restrictions.push_back({"the declared default shape only",
                              "no other shape passes the restrictions"});
  if (Error E = reportChoice(P, Force))
    return E;
  if (Error E = checkRegistersWithToolchain(P, Planner, Force))
    return E;
  return refineWithBlocks(P, Planner);
}

Expected<KernelPlan> KernelPlanner::plan(Function &F, const GpuArch &Arch,
                                         const CostModel &Model,
                                         const FixedTunables &Fixed,
                                         const ForcedConfig *Force) {
  KernelPlan P;
  double FeatureSecondsBefore = Extractor.featureSeconds();
  double ToolchainSecondsBefore = Extractor.toolchainSeconds();
  P.Kernel = &F;
  P.IRName = F.getName().str();
  P.Name = demangle(kernelDisplayName(F, Info));
  P.Arch = &Arch;
  P.ModelName = Model.describe();
  P.Objective = Opts.Objective;
  auto Annotation = Info.Kernels.find(&F);
  bool Annotated = Annotation != Info.Kernels.end();
  P.Record =
      Annotated ? Annotation->second.Record : (RecordPrefix + P.IRName).str();
  P.OptedIn = Annotated;
  P.Force = Force;
  P.UserBounded = readLaunchBounds(F).any();
  P.Apply = P.OptedIn && !P.UserBounded;
  if (Force && P.UserBounded) {
    LaunchBounds Bounds = readLaunchBounds(F);
    unsigned Max = Bounds.maxThreads();
    if (Max && Force->Block[0] * Force->Block[1] * Force->Block[2] > Max)
      return planError("cannot force block " + formatBlockShape(Force->Block) +
                       " on kernel '" + P.Name + "': its launch bounds allow " +
                       Twine(Max) + " threads");
  }
  if (Error E = checkForcedRegisters(P, Force))
    return E;
  P.WorkItems =
      workItems(*F.getParent(), kernelDisplayName(F, Info), Opts.WorkItems);

  if (Error E = setUpTunables(P, Fixed, Force))
    return E;
  if (Force)
    for (auto [ArgNo, Value] : Force->Arguments)
      if (ArgNo >= F.arg_size() || !F.getArg(ArgNo)->getType()->isIntegerTy())
        return planError("kernel '" + P.Name + "' has no integer argument " +
                         Twine(ArgNo + 1) + " (arg" + Twine(ArgNo + 1) + "=" +
                         Twine(Value) + "; it has " + Twine(F.arg_size()) +
                         " arguments)");
  const Module &M = *F.getParent();
  auto Grid = declaredGrid(M, P.Name);
  if (!Grid)
    return Grid.takeError();
  P.FixedGrid = *Grid;
  if (Force && Force->Grid)
    P.WorkItems = gridWorkItems(P, *Force->Grid, Force->Block);
  auto Rules = statedRules(M, P.Name);
  if (!Rules)
    return Rules.takeError();
  auto Dynamic = declaredDynamicShared(M, P.Name);
  if (!Dynamic)
    return Dynamic.takeError();
  P.DynamicShared = *Dynamic;

  // Advice for a kernel that did not opt in has no declared shape to keep:
  // it gets advice only where another shape is proven correct. Its register
  // reads mostly tell before the kernel is cleaned up and measured (CUB's
  // kernels, written for their template's block size).
  auto BlockFromTunables = blockTunables(P, Info);
  bool FreeShape = !BlockFromTunables;
  // A forced block on such a kernel states its host launch: it is
  // predicted as given, and nothing is rewritten.
  bool OnlyAdvised = !P.OptedIn && !*Rules && !Force;
  auto NoAdviceError = [&](const std::string &Why) {
    Extractor.release();
    return planError("kernel '" + P.Name +
                     "': no advice: no other block shape is known to be "
                     "correct for it (" + Why + ")");
  };
  auto NoAdvice = [&](BlockLegality &L) -> std::optional<std::string> {
    requireDeclaredDynamicShared(L, P.DynamicShared.has_value(),
                                 "extern __shared__", "ENERGY_DYNAMIC_SHARED");
    if (!OnlyAdvised)
      return std::nullopt;
    return reliesOnDefault(L, FreeShape);
  };
  if (OnlyAdvised) {
    BlockLegality Quick = analyzeRegisterReads(callTree(F));
    if (auto Why = NoAdvice(Quick))
      return NoAdviceError(*Why);
  }
  BlockLegality Inferred = analyzeBlockLegality(Extractor.prepared(F),
                                                P.Arch->WarpSize);
  if (auto Why = NoAdvice(Inferred))
    return NoAdviceError(*Why);

  ShapeFacts Facts;
  Facts.FixedGrid = P.FixedGrid.has_value();
  boundFacts(readLaunchBounds(F), Facts);
  Facts.Pins = libraryPins(callTree(F));
  // The free shape of a kernel without stated rules is proven, or it is
  // the default's alone: no advice, no other candidate to measure.
  if (FreeShape && !*Rules) {
    bool TwoD = readsBlockY(Extractor.prepared(F));
    BlockShape Free = declaredFreeShape(P, TwoD);
    Facts.Proof = Extractor.shapeProof(
        F, {true, TwoD || Free[1] != 1, Free[2] != 1});
    if (OnlyAdvised && !Facts.Proof->Proven)
      return NoAdviceError("not proven correct at another shape: " +
                           Facts.Proof->describe());
    if (OnlyAdvised && Facts.FixedGrid && !Facts.Proof->AnyGrid)
      return NoAdviceError("its grid is fixed (ENERGY_GRID) and no "
                           "grid-stride loop covers its work at another "
                           "block");
  }
  if (Error E = measureAssignments(P, Force))
    return E;
  auto DefaultShape = declaredDefaultShape(P, BlockFromTunables);
  if (!DefaultShape)
    return DefaultShape.takeError();
  // The host launches an opted-in kernel with its record: a bounded
  // kernel keeps it, so it must be within its bounds.
  if (P.OptedIn && P.UserBounded && !Force)
    if (auto Why = BlockLegalityCheck(BlockLegality(), std::nullopt,
                                      *DefaultShape, FreeShape, Facts)
                       .violation(*DefaultShape,
                                  [](const GlobalVariable &, int) {
                                    return UINT64_MAX;
                                  }))
      return planError("kernel '" + P.Name + "': its declared default block " +
                       formatBlockShape(*DefaultShape) +
                       " cannot launch: " + *Why +
                       " (declare the default with ENERGY_KERNEL_BLOCK)");
  if (P.FixedGrid && !(Force && Force->Grid)) {
    P.WorkItems = gridWorkItems(P, *P.FixedGrid, *DefaultShape);
    P.Notes.push_back("every launch has grid " +
                      formatBlockShape({unsigned((*P.FixedGrid)[0]),
                                        unsigned((*P.FixedGrid)[1]),
                                        unsigned((*P.FixedGrid)[2])}) +
                      " (ENERGY_GRID); the work items are the default "
                      "block's on it");
  }
  BlockLegalityCheck Legal(std::move(Inferred), std::move(*Rules),
                           *DefaultShape, FreeShape, std::move(Facts));
  P.Restrictions = Legal.restrictions();
  if (Error E = chooseLaunch(P, Legal, *DefaultShape, Model, Force))
    return E;
  NumCandidates += P.evaluated();
  NumPruned += P.PrunedResources + P.PrunedCliff;
  NumIllegal += P.Illegal;
  P.FeatureSeconds =
      Extractor.featureSeconds() - FeatureSecondsBefore - P.RefineSeconds;
  P.ToolchainSeconds = Extractor.toolchainSeconds() - ToolchainSecondsBefore;
  return P;
}

} // namespace energy
