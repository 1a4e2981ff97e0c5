//===- EnergyOptimizeGpu.cpp - The gpu-dialect passes and their plugin ----===//
//
// energy-optimize-gpu: for each gpu.func kernel, predicts time and energy of
// every candidate block shape (the cost models of the LLVM pass), picks the
// point of the Pareto front the objective asks for, and rewrites host and
// device consistently: every gpu.launch_func of the kernel gets the chosen
// block and the grid that covers the same threads; the kernel gets
// nvvm.reqntid, which reaches the PTX, and its
// gpu.block_dim reads become constants. Kernels it cannot rewrite safely
// are left alone with the reason.
// Every kernel gets a remark with the numbers.
//
// energy-print-gpu-features: the features of each kernel, in the text of the
// LLVM pass `print<energy-features>`.
//
//   mlir-opt --load-pass-plugin=energy-mlir.so k.mlir
//     --pass-pipeline='builtin.module(energy-optimize-gpu{objective=edp})'
//
//===----------------------------------------------------------------------===//

#include "BlockLegality.h"
#include "GpuKernelFeatures.h"
#include "GpuShapeInvariance.h"
#include "LaunchPlan.h"

#include "energy/GpuArch.h"
#include "energy/TargetChoice.h"
#include "energy/ValidateOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>

using namespace mlir;
using namespace energy;

namespace energy {
#define GEN_PASS_DECL
#define GEN_PASS_DEF_ENERGYOPTIMIZEGPU
#define GEN_PASS_DEF_ENERGYPRINTGPUFEATURES
#define GEN_PASS_REGISTRATION
#include "Passes.h.inc"
} // namespace energy

namespace {

constexpr const char *SupportedOps =
    "arith, math, index, memref, scf.for/if/while, gpu, func.call and "
    "vector load/store/fma/reduction";

void warnUnsupported(gpu::GPUFuncOp Kernel, Operation *Op,
                     StringRef Consequence) {
  mlir::emitWarning(Op->getLoc())
      << "energy: cannot model '" << Op->getName() << "' in kernel @"
      << Kernel.getName() << " (supported: " << SupportedOps << "); "
      << Consequence;
}

//===-- Launch sites ------------------------------------------------------===//

/// The gpu.launch_func ops of one kernel, and whether they can take a new
/// block shape.
struct LaunchSites {
  SmallVector<gpu::LaunchFuncOp> Ops;
  /// Per launch: constant grid and block, when both are.
  std::vector<std::pair<BlockShape, BlockShape>> Sizes;
  std::optional<BlockShape> Block; // shared by every launch
  unsigned DynamicSharedBytes = 0;
  std::string Problem;          // why they cannot be rewritten
  Operation *Culprit = nullptr; // the launch that says so

  bool constant() const { return !Ops.empty() && Sizes.size() == Ops.size(); }
  /// The grid and block of every launch, when all are constant and the
  /// same: the grid the host code states for the kernel.
  std::optional<std::pair<BlockShape, BlockShape>> agreed() const {
    if (!constant() ||
        llvm::any_of(Sizes, [&](const auto &S) { return S != Sizes[0]; }))
      return std::nullopt;
    return Sizes[0];
  }
  /// Why agreed() has nothing.
  std::string whyNoGrid() const {
    if (Ops.empty())
      return "no gpu.launch_func launches it";
    if (!constant())
      return "the grid or block of a gpu.launch_func is not constant";
    return "its gpu.launch_func ops state different grids or blocks";
  }
  std::vector<LaunchExtent> totals() const {
    std::vector<LaunchExtent> Out;
    for (const auto &[Grid, Block] : Sizes)
      Out.push_back({uint64_t(Grid[0]) * Block[0], uint64_t(Grid[1]) * Block[1],
                     uint64_t(Grid[2]) * Block[2]});
    return Out;
  }
};

std::optional<BlockShape> constantShape(Value X, Value Y, Value Z) {
  BlockShape S;
  for (auto [I, V] : llvm::enumerate(std::array<Value, 3>{X, Y, Z})) {
    APInt C;
    if (!matchPattern(V, m_ConstantInt(&C)) || C.isNegative() || C.isZero() ||
        C.getActiveBits() > 31)
      return std::nullopt;
    S[I] = static_cast<unsigned>(C.getZExtValue());
  }
  return S;
}

LaunchSites analyzeLaunches(ArrayRef<gpu::LaunchFuncOp> Ops) {
  LaunchSites Sites;
  Sites.Ops.assign(Ops.begin(), Ops.end());
  auto Fail = [&](Operation *Op, const Twine &Why) {
    if (Sites.Problem.empty()) {
      Sites.Problem = Why.str();
      Sites.Culprit = Op;
    }
  };
  if (Ops.empty())
    Fail(nullptr, "no gpu.launch_func in the module launches it");
  for (gpu::LaunchFuncOp L : Ops) {
    auto Grid =
        constantShape(L.getGridSizeX(), L.getGridSizeY(), L.getGridSizeZ());
    auto Block =
        constantShape(L.getBlockSizeX(), L.getBlockSizeY(), L.getBlockSizeZ());
    if (!Block)
      Fail(L, "the block size of a launch is not constant");
    if (!Grid)
      Fail(L, "the grid size of a launch is not constant");
    if (L.hasClusterSize())
      Fail(L, "a launch sets a cluster size");
    if (Block && Sites.Block && *Block != *Sites.Block)
      Fail(L, "its launches use different block sizes (" +
                  formatBlockShape(*Sites.Block) + " and " +
                  formatBlockShape(*Block) + ")");
    if (Block && !Sites.Block)
      Sites.Block = Block;
    if (Grid && Block)
      Sites.Sizes.push_back({*Grid, *Block});
    if (Value Smem = L.getDynamicSharedMemorySize()) {
      APInt C;
      if (matchPattern(Smem, m_ConstantInt(&C)))
        Sites.DynamicSharedBytes = std::max<unsigned>(
            Sites.DynamicSharedBytes, static_cast<unsigned>(C.getZExtValue()));
    }
  }
  return Sites;
}

/// Sets Operand to the constant V of its type, unless it already is V.
void setConstant(OpBuilder &B, OpOperand &Operand, uint64_t V) {
  APInt Old;
  if (matchPattern(Operand.get(), m_ConstantInt(&Old)) && Old == V)
    return;
  Type T = Operand.get().getType();
  Operand.set(B.create<arith::ConstantOp>(Operand.getOwner()->getLoc(),
                                          B.getIntegerAttr(T, V)));
}

/// "grid 65536 block 256 -> grid 131072 block 128" for each launch.
std::string rewriteLaunches(const LaunchSites &Sites, const BlockShape &New) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (auto [Launch, Size] : llvm::zip(Sites.Ops, Sites.Sizes)) {
    gpu::LaunchFuncOp L = Launch;
    auto [Grid, Block] = Size;
    BlockShape NewGrid;
    for (unsigned D = 0; D < 3; ++D) // planLaunch kept it in range
      NewGrid[D] = static_cast<unsigned>(uint64_t(Grid[D]) * Block[D] / New[D]);
    OpBuilder B(L);
    OpOperand *GridOps[] = {&L.getGridSizeXMutable(), &L.getGridSizeYMutable(),
                            &L.getGridSizeZMutable()};
    OpOperand *BlockOps[] = {&L.getBlockSizeXMutable(),
                             &L.getBlockSizeYMutable(),
                             &L.getBlockSizeZMutable()};
    for (unsigned D = 0; D < 3; ++D) {
      setConstant(B, *GridOps[D], NewGrid[D]);
      setConstant(B, *BlockOps[D], New[D]);
    }
    OS << (S.empty() ? "" : ", ") << "grid " << formatBlockShape(Grid)
       << " block " << formatBlockShape(Block) << " -> grid "
       << formatBlockShape(NewGrid) << " block " << formatBlockShape(New);
  }
  return S;
}

/// Bounds the chosen block into the kernel: nvvm.reqntid reaches the PTX as
/// .reqntid, and gpu.block_dim becomes a constant. Not known_block_size: the
/// NVVM lowering turns it into .maxntid, and ptxas rejects .maxntid next to
/// .reqntid. No nvvm.minctasm, for the reason the LLVM pass gives.
void setBounds(gpu::GPUFuncOp Kernel, const Candidate &C) {
  SmallVector<int32_t, 3> Block(C.Block.begin(), C.Block.end());
  MLIRContext *Ctx = Kernel.getContext();
  Kernel->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                  DenseI32ArrayAttr::get(Ctx, Block));
  SmallVector<gpu::BlockDimOp> Dims;
  Kernel.walk([&](gpu::BlockDimOp Op) { Dims.push_back(Op); });
  for (gpu::BlockDimOp Op : Dims) {
    OpBuilder B(Op);
    Op.replaceAllUsesWith(
        B.create<arith::ConstantIndexOp>(
             Op.getLoc(), C.Block[static_cast<unsigned>(Op.getDimension())])
            .getResult());
    Op.erase();
  }
}

/// The launches' blocks per dimension for a kernel launched with block B
/// and the launches' threads (what a rewrite keeps), when they agree on a
/// constant grid and block; zeros otherwise.
std::array<uint64_t, 3> gridAt(const LaunchSites &Sites, const BlockShape &B) {
  std::array<uint64_t, 3> Grid = {0, 0, 0};
  if (auto Agreed = Sites.agreed())
    for (unsigned D = 0; D < 3; ++D)
      Grid[D] = llvm::divideCeil(
          uint64_t(Agreed->first[D]) * Agreed->second[D], B[D]);
  return Grid;
}

/// The gpu.launch_func ops of each kernel in Module.
llvm::DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>>
launchesByKernel(ModuleOp Module) {
  llvm::DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> Launches;
  Module.walk([&](gpu::LaunchFuncOp L) {
    if (auto K = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
            L, L.getKernel()))
      Launches[K].push_back(L);
  });
  return Launches;
}

/// "; registers: 204 estimated, 64 under its launch bounds (nvvm.maxntid
/// 256, nvvm.minctasm 4), as ptxas fits them (the rest spilled: at least 1120
/// bytes a thread of spill stores and loads): occupancy 0.5 (registers)",
/// when the bounds cap the registers of Chosen's prediction; empty otherwise.
std::string describeBoundedRegisters(
    const LaunchBounds &Bounds, const std::optional<BoundedRegisters> &Bounded,
    const Candidate &Chosen) {
  if (!Bounded || !Bounded->capped())
    return "";
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "; registers: " << Bounded->Estimated << " estimated, "
     << Bounded->Allowed << " under its launch bounds (";
  if (auto Required = requiredBlock(Bounds))
    OS << "nvvm.reqntid " << formatBlockShape(*Required);
  else
    OS << "nvvm.maxntid " << Bounds.maxThreads();
  if (Bounds.MinCTASM)
    OS << ", nvvm.minctasm " << Bounds.MinCTASM;
  OS << "), as ptxas fits them (the rest spilled: at least "
     << llvm::format("%.4g", Chosen.EstimatedSpillBytes)
     << " bytes a thread of spill stores and loads): occupancy "
     << llvm::format("%.3g", Chosen.Query.Occ.Fraction) << " ("
     << limiterName(Chosen.Query.Occ.Limiter) << ")";
  return S;
}

//===-- The pass ----------------------------------------------------------===//

/// An error when an option of the option string Options has no name or
/// comes twice. Its entries are split as MLIR's parser splits them:
/// `name[=value]`, separated by spaces outside quotes and braces.
llvm::Error checkOptionNames(StringRef Options) {
  llvm::StringSet<> Given;
  for (size_t I = 0, N = Options.size(); I < N;) {
    if (Options[I] == ' ') {
      ++I;
      continue;
    }
    size_t Start = I;
    while (I < N && Options[I] != ' ' && Options[I] != '=')
      ++I;
    StringRef Name = Options.slice(Start, I);
    if (Name.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "an option without a name in '" +
                                         Options + "'");
    if (!Given.insert(Name).second)
      return settingGivenTwice(Name);
    if (I < N && Options[I] == '=')
      for (int Depth = 0, Quote = 0; ++I < N;) {
        char C = Options[I];
        if (Quote)
          Quote = C == Quote ? 0 : Quote;
        else if (C == '"' || C == '\'')
          Quote = C;
        else if (C == '{' || C == '}')
          Depth += C == '{' ? 1 : -1;
        else if (C == ' ' && Depth <= 0)
          break;
      }
  }
  return llvm::Error::success();
}

/// Passes.td declares the pass and its options.
struct EnergyOptimizeGpuPass
    : public energy::impl::EnergyOptimizeGpuBase<EnergyOptimizeGpuPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(EnergyOptimizeGpuPass)

  EnergyOptimizeGpuPass() { describeGpuOption(); }
  explicit EnergyOptimizeGpuPass(const EnergyOptimizeGpuOptions &Options)
      : Base(Options) {
    describeGpuOption();
  }
  EnergyOptimizeGpuPass(const EnergyOptimizeGpuPass &Other) : Base(Other) {
    describeGpuOption();
  }

  void runOnOperation() override;

  /// MLIR's option parser skips an option without a name (`{=}`), lets the
  /// last of two values win and reads an empty number as 0: each is an error
  /// here, in the words of the LLVM pass where the options are the same.
  LogicalResult initializeOptions(
      StringRef Options,
      function_ref<LogicalResult(const Twine &)> ErrorHandler) override {
    auto Fail = [&](llvm::Error E) {
      return ErrorHandler("energy-optimize-gpu: " + toString(std::move(E)));
    };
    if (llvm::Error E = checkOptionNames(Options))
      return Fail(std::move(E));
    if (failed(Base::initializeOptions(Options, ErrorHandler)))
      return failure();
    if (llvm::Error E = readSettings(/*FromText=*/true))
      return Fail(std::move(E));
    return success();
  }

private:
  /// Appends the boards the gpu option accepts, from the GPU tables, to its
  /// description in Passes.td.
  void describeGpuOption() {
    static const std::string Help =
        (GpuName.HelpStr + " Boards: " + gpuBoardNames()).str();
    GpuName.setDescription(Help);
  }

  ObjectiveSpec Objective;
  uint64_t WorkItems = 0; // 0: the launches' threads, else DefaultWorkItems
  /// The target's notes (its board, its model) hold for every kernel built
  /// for it: each is remarked once a module, with the first kernel planned.
  llvm::StringSet<> NotesRemarked;

  llvm::Error readSettings(bool FromText);
  LogicalResult parseOptions();
  LogicalResult optimize(gpu::GPUFuncOp Kernel, const GpuArch &Arch,
                         const SelectedModel &Model,
                         ArrayRef<std::string> Notes,
                         ArrayRef<gpu::LaunchFuncOp> Launches,
                         Operation *OtherUser);
};

/// The settings from the options, parsed and checked by the LLVM pass's
/// code. From the pipeline's text (FromText) an option given is parsed even
/// when empty; a pass built from an options struct leaves a number empty
/// for unset (and the text's empty ones were rejected then).
llvm::Error EnergyOptimizeGpuPass::readSettings(bool FromText) {
  auto Given = [&](const Option<std::string> &O) {
    return FromText ? O.hasValue() : !O.getValue().empty();
  };
  llvm::Expected<energy::Objective> Goal = parseObjectiveSetting(ObjectiveName);
  if (!Goal)
    return Goal.takeError();
  Objective.Goal = *Goal;
  if (Given(MaxSlowdown)) {
    auto X = parseMaxSlowdownSetting(MaxSlowdown);
    if (!X)
      return X.takeError();
    Objective.MaxSlowdown = *X;
  }
  if (Given(MinGain)) {
    auto G = parseMinGainSetting(MinGain);
    if (!G)
      return G.takeError();
    Objective.MinGain = *G;
  }
  if (Given(Workload)) {
    auto N = parseWorkloadSetting(Workload);
    if (!N)
      return N.takeError();
    WorkItems = *N;
  }
  return validateOptimizeOptions(Objective, ArchName, GpuName);
}

LogicalResult EnergyOptimizeGpuPass::parseOptions() {
  if (llvm::Error E = readSettings(/*FromText=*/false)) {
    mlir::emitError(getOperation().getLoc(),
                    "energy-optimize-gpu: " + toString(std::move(E)));
    return failure();
  }
  return success();
}

/// The chip of the module's first #nvvm.target, if any.
StringRef targetChip(gpu::GPUModuleOp Module) {
  if (ArrayAttr Targets = Module.getTargetsAttr())
    for (Attribute T : Targets)
      if (auto NVVMTarget = dyn_cast<NVVM::NVVMTargetAttr>(T))
        return NVVMTarget.getChip();
  return "";
}

LogicalResult EnergyOptimizeGpuPass::optimize(
    gpu::GPUFuncOp Kernel, const GpuArch &Arch, const SelectedModel &Model,
    ArrayRef<std::string> Notes, ArrayRef<gpu::LaunchFuncOp> Launches,
    Operation *OtherUser) {
  GpuKernelFeatures Analysis = computeGpuKernelFeatures(Kernel);
  if (Analysis.Unsupported) {
    warnUnsupported(Kernel, Analysis.Unsupported, "the kernel is left alone");
    return success();
  }
  const KernelFeatures &F = Analysis.Features;
  std::string Name = ("@" + Kernel.getName()).str();
  if (!F.doesWork()) {
    mlir::emitRemark(Kernel.getLoc())
        << "energy: kernel " << Name
        << " does no work (no memory access or arithmetic): nothing to tune";
    return success();
  }
  for (const std::string &Note : Notes)
    if (NotesRemarked.insert(Note).second)
      mlir::emitRemark(Kernel.getLoc())
          << "energy: kernel " << Name << ": " << Note;

  // The LLVM pass's legality rule: the dialect cannot declare how dynamic
  // workgroup memory grows with the block, so only the launch's block is
  // known to be correct; no other is chosen or advised.
  BlockLegality Legality;
  Legality.DynamicShared = F.uses_dynamic_shared;
  requireDeclaredDynamicShared(Legality, /*Declared=*/false,
                               "gpu.dynamic_shared_memory", "");
  std::optional<std::string> OnlyLaunchBlock =
      reliesOnDefault(Legality, /*FreeShape=*/true);

  // Whether the launches can take another block, and why not.
  LaunchSites Sites = analyzeLaunches(Launches);
  // A loop over the launch's threads (step block_dim * grid_dim) is counted
  // with each candidate's grid, the launches' threads over its block.
  if (!F.Dims.GridDim.empty()) {
    InFlightDiagnostic Note = mlir::emitRemark(Kernel.getLoc());
    Note << "energy: kernel " << Name << ": ";
    if (auto Agreed = Sites.agreed())
      Note << "grid " << formatBlockShape(Agreed->first) << " at block "
           << formatBlockShape(Agreed->second)
           << " from its gpu.launch_func ops; another block gets the grid "
              "of the same threads";
    else
      Note << "the grid is not known (" << Sites.whyNoGrid()
           << "): a loop that strides over the launch runs the default "
           << DefaultTripCount << " iterations";
  }
  // Default-deny, as the LLVM pass: another block only where the kernel is
  // proven to compute the same at it (with the same threads per launch).
  BlockShape Current = Sites.Block.value_or(BlockShape{1, 1, 1});
  ShapeProof Proof = proveGpuShapeInvariance(
      Kernel, {true, F.usesBlockY() || Current[1] != 1, Current[2] != 1});
  std::string Problem;
  Operation *Culprit = nullptr;
  if (F.Bounds.any())
    Problem = "it has launch bounds (known_block_size or nvvm.reqntid/"
              "maxntid/minctasm/maxnreg)";
  else if (F.static_shared_bytes > 0)
    Problem = "its " +
              std::to_string(static_cast<uint64_t>(F.static_shared_bytes)) +
              " bytes of workgroup memory are sized for the launch's block";
  else if (OnlyLaunchBlock)
    Problem = *OnlyLaunchBlock;
  else if (!Proof.Proven)
    Problem = "no other block is proven correct for it: " + Proof.describe();
  else if (!Sites.Problem.empty()) {
    Problem = Sites.Problem;
    Culprit = Sites.Culprit;
  } else if (OtherUser) {
    Problem = "'" + OtherUser->getName().getStringRef().str() +
              "' refers to it and may launch it with another block";
    Culprit = OtherUser;
  }

  // The features with a candidate's block known, for the planner's
  // refinement of its best candidates. The planner caps both sets'
  // registers by the kernel's own bounds, as ptxas will.
  KernelFeatures Screen = F;
  std::optional<BoundedRegisters> Bounded = registersUnderBounds(Screen, Arch);
  std::map<BlockShape, KernelFeatures> ByBlock;
  LaunchPlanRequest Request;
  Request.Features = &Screen;
  Request.FeaturesFor = [&](const BlockShape &B) -> const KernelFeatures & {
    auto It = ByBlock.find(B);
    if (It == ByBlock.end()) {
      KernelFeatures Known =
          computeGpuKernelFeatures(Kernel, B, gridAt(Sites, B)).Features;
      registersUnderBounds(Known, Arch);
      It = ByBlock.emplace(B, std::move(Known)).first;
    }
    return It->second;
  };
  Request.Arch = &Arch;
  Request.Objective = Objective;
  Request.DynamicSharedBytes = Sites.DynamicSharedBytes;
  Request.CurrentBlock = Sites.Block;
  Request.WorkItems = WorkItems;
  if (!Request.WorkItems && Sites.constant())
    for (const LaunchExtent &T : Sites.totals())
      Request.WorkItems = std::max(Request.WorkItems, T[0] * T[1] * T[2]);
  if (!Request.WorkItems)
    Request.WorkItems = DefaultWorkItems;

  auto ModelFailure = [&](llvm::Error E) {
    mlir::emitError(Kernel.getLoc(), "energy-optimize-gpu: kernel " + Name +
                                         ": " + toString(std::move(E)));
    return failure();
  };

  // A rewrite keeps every launch's threads.
  if (Problem.empty()) {
    LaunchPlanRequest Rewrite = Request;
    Rewrite.LaunchTotals = Sites.totals();
    auto P = planLaunch(Rewrite, *Model.Model);
    if (!P)
      return ModelFailure(P.takeError());
    if (P->Infeasible.empty()) {
      mlir::emitRemark(Kernel.getLoc())
          << "energy: kernel " << Name << ": chose "
          << explainLaunchChoice(Rewrite, *P)
          << "; launches: " << rewriteLaunches(Sites, P->chosen().Block);
      setBounds(Kernel, P->chosen());
      return success();
    }
    Problem = P->Infeasible;
  }

  // Left alone: the advice is the unrestricted choice (for launches with
  // the same threads), where another block is known to be correct.
  std::string Advice =
      "no advice: no other block shape is known to be correct for it" +
      (Proof.Proven ? std::string() : " (" + Proof.describe() + ")");
  if (!OnlyLaunchBlock && Proof.Proven) {
    auto P = planLaunch(Request, *Model.Model);
    if (!P)
      return ModelFailure(P.takeError());
    Advice = P->Infeasible.empty()
                 ? "advice: " + explainLaunchChoice(Request, *P) +
                       describeBoundedRegisters(F.Bounds, Bounded, P->chosen())
                 : "no advice: " + P->Infeasible;
  }
  InFlightDiagnostic Diag = mlir::emitRemark(Kernel.getLoc());
  Diag << "energy: kernel " << Name << " left alone: " << Problem << "; "
       << Advice;
  if (Culprit)
    Diag.attachNote(Culprit->getLoc())
        << (isa<gpu::LaunchFuncOp>(Culprit) ? "this launch" : "this use");
  return success();
}

/// An op other than gpu.launch_func that refers to Kernel, if any: a launch
/// the pass cannot see or rewrite.
Operation *otherUser(gpu::GPUFuncOp Kernel, ModuleOp Module) {
  std::optional<SymbolTable::UseRange> Uses =
      SymbolTable::getSymbolUses(Kernel, Module);
  if (!Uses)
    return Kernel; // unknown uses
  for (const SymbolTable::SymbolUse &Use : *Uses)
    if (!isa<gpu::LaunchFuncOp>(Use.getUser()))
      return Use.getUser();
  return nullptr;
}

void EnergyOptimizeGpuPass::runOnOperation() {
  ModuleOp Module = getOperation();
  if (failed(parseOptions()))
    return signalPassFailure();

  auto Launches = launchesByKernel(Module);

  SmallVector<gpu::GPUModuleOp> GpuModules;
  Module.walk([&](gpu::GPUModuleOp M) { GpuModules.push_back(M); });
  TargetChoice Targets(ArchName, GpuName, ModelFile);
  NotesRemarked.clear();
  for (gpu::GPUModuleOp M : GpuModules) {
    std::vector<std::string> Notes;
    const GpuArch &Arch =
        Targets.arch(targetChip(M), "#nvvm.target on the gpu.module", Notes);
    auto Model = Targets.model(Arch);
    if (!Model) {
      mlir::emitError(Module.getLoc(),
                      "energy-optimize-gpu: " + toString(Model.takeError()));
      return signalPassFailure();
    }
    if (!(*Model)->Note.empty())
      Notes.push_back((*Model)->Note);
    for (auto Kernel : M.getOps<gpu::GPUFuncOp>())
      if (Kernel.isKernel() &&
          failed(optimize(Kernel, Arch, **Model, Notes, Launches.lookup(Kernel),
                          otherUser(Kernel, Module))))
        return signalPassFailure();
  }
}

struct PrintGpuFeaturesPass
    : public energy::impl::EnergyPrintGpuFeaturesBase<PrintGpuFeaturesPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrintGpuFeaturesPass)

  void runOnOperation() override {
    auto Launches = launchesByKernel(getOperation());
    getOperation().walk([&](gpu::GPUFuncOp Kernel) {
      if (!Kernel.isKernel())
        return;
      // At the block the kernel states and the grid its launches state.
      BlockShape Block = statedBlockShape(Kernel);
      LaunchSites Sites = analyzeLaunches(Launches.lookup(Kernel));
      std::array<uint64_t, 3> Grid = {0, 0, 0};
      if (auto Agreed = Sites.agreed())
        for (unsigned D = 0; D < 3; ++D)
          Grid[D] = Agreed->first[D];
      GpuKernelFeatures Analysis =
          computeGpuKernelFeatures(Kernel, Block, Grid);
      if (Analysis.Unsupported)
        warnUnsupported(Kernel, Analysis.Unsupported,
                        "its features are not printed");
      else
        Analysis.Features.printText(llvm::errs());
    });
    markAllAnalysesPreserved();
  }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "energy", "0.1",
          [] { energy::registerEnergyPasses(); }};
}
