//===- CandidateFeatures.cpp - Features under one tunable assignment ------===//

#include "CandidateFeatures.h"
#include "KernelRewriter.h"
#include "PluginWarning.h"
#include "ThreadDependence.h"
#include "TuningSpec.h"

#include "energy/CallCycles.h"
#include "energy/NVVMAnnotations.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMRemarkStreamer.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Remarks/RemarkStreamer.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/NaryReassociate.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SeparateConstOffsetFromGEP.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Scalar/StraightLineStrengthReduce.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

#include <chrono>

using namespace llvm;

#define DEBUG_TYPE "energy-features"

STATISTIC(NumMeasured, "Tunable assignments measured");
STATISTIC(NumSimplifiedMeasured, "Assignments measured on -O3-simplified code");
STATISTIC(NumToolchainChecks, "Register counts checked with ptxas");
STATISTIC(NumPreparedReused, "Cleaned-up kernel clones reused (cache hits)");

namespace energy {

/// Issue slots of Kernel's code, each instruction counted once.
static double staticIssueSlots(const Function &Kernel) {
  const DataLayout &DL = Kernel.getDataLayout();
  double Static = 0;
  for (const Instruction &I : instructions(Kernel))
    Static += issueSlots(I, DL);
  return Static;
}

/// R's registers, stack frame and spills replace the IR estimate in Features
/// (of Kernel, as measured). From names their source in the report, Who in
/// the spill note.
static void useResources(KernelFeatures &Features, const KernelResources &R,
                         StringRef From, StringRef Who) {
  Features.register_estimate = R.Registers;
  Features.RegistersFrom = From.str();
  llvm::erase_if(Features.Notes, [](const std::string &Note) {
    return StringRef(Note).starts_with("register_estimate clamped");
  });
  // The bytes per thread ptxas's spill code moves: where in the code it
  // sits is not known, so it runs as often as the average instruction.
  Features.spill_bytes =
      (double(R.SpillStoreBytes) + double(R.SpillLoadBytes)) *
      Features.averageExecutions();
  Features.local_frame_bytes = R.StackFrameBytes;
  if (R.SpillStoreBytes || R.SpillLoadBytes)
    Features.addNote((Who + " spills " + Twine(R.SpillStoreBytes) +
                      " bytes (stores) and " + Twine(R.SpillLoadBytes) +
                      " bytes (loads)")
                         .str());
}

namespace {

/// The remarks of the passes run on the plugin's own copies of a kernel
/// (cleanup, -O3 simplification, NVPTX codegen for ptxas) are about code
/// nobody compiles: while this lives they reach neither the optimization
/// record nor -pass-remarks. Other diagnostics go to the user's handler.
class RemarksSilenced {
public:
  explicit RemarksSilenced(LLVMContext &Ctx)
      : Ctx(Ctx), HadRecord(Ctx.getLLVMRemarkStreamer()),
        Saved(Ctx.getDiagnosticHandler()) {
    Ctx.setLLVMRemarkStreamer(nullptr);
    Ctx.setDiagnosticHandler(std::make_unique<Forward>(*Saved));
  }
  ~RemarksSilenced() {
    Ctx.setDiagnosticHandler(std::move(Saved));
    if (HadRecord)
      Ctx.setLLVMRemarkStreamer(
          std::make_unique<LLVMRemarkStreamer>(*Ctx.getMainRemarkStreamer()));
  }

private:
  struct Forward : DiagnosticHandler {
    explicit Forward(DiagnosticHandler &To) : To(To) {}
    bool handleDiagnostics(const DiagnosticInfo &DI) override {
      if (isa<DiagnosticInfoOptimizationBase>(DI))
        return true;
      if (DI.getSeverity() == DS_Error)
        To.HasErrors = true;
      return To.handleDiagnostics(DI);
    }
    DiagnosticHandler &To;
  };
  LLVMContext &Ctx;
  bool HadRecord;
  std::unique_ptr<DiagnosticHandler> Saved;
};

} // namespace

namespace {

/// Moves every read of blockDim and gridDim to one read each at the
/// function's entry (they are constant over a launch). A grid-stride step
/// read inside its loop (`i += blockDim.x * gridDim.x` at -O0, which the
/// cleanup keeps there) is then invariant to ScalarEvolution, so the
/// cleaned-up code of advice counts the loop as -O3's code of an opted-in
/// kernel does.
struct HoistLaunchExtentReadsPass
    : PassInfoMixin<HoistLaunchExtentReadsPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    std::map<Function *, CallInst *> AtEntry;
    BasicBlock::iterator At = F.getEntryBlock().getFirstNonPHIOrDbgOrAlloca();
    bool Changed = false;
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      auto Read = readsSpecialRegister(&I);
      if (!Read || (Read->Reg != SpecialRegister::BlockDim &&
                    Read->Reg != SpecialRegister::GridDim))
        continue;
      auto *Call = cast<CallInst>(&I);
      CallInst *&Entry = AtEntry[Call->getCalledFunction()];
      if (!Entry) {
        Entry = Call;
        if (Call->getParent() != &F.getEntryBlock()) {
          Call->moveBefore(*At->getParent(), At);
          Changed = true;
        }
        continue;
      }
      Call->replaceAllUsesWith(Entry);
      Call->eraseFromParent();
      Changed = true;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

} // namespace

CandidateFeatureExtractor::CandidateFeatureExtractor(
    FeatureOptions Opts, std::optional<NvccBuild> NvccBuild)
    : Opts(Opts) {
  if (NvccBuild)
    Nvcc.emplace(std::move(*NvccBuild));
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  Cleanup.addPass(SROAPass(SROAOptions::ModifyCFG));
  Cleanup.addPass(EarlyCSEPass());
  Cleanup.addPass(InstCombinePass());
  Cleanup.addPass(SimplifyCFGPass());
  Cleanup.addPass(LoopSimplifyPass());
  Cleanup.addPass(HoistLaunchExtentReadsPass());
  // Registers read inside a loop (a grid-stride step reads gridDim there)
  // leave it, so ScalarEvolution sees the step as invariant.
  HoistInvariants.addPass(createFunctionToLoopPassAdaptor(
      LICMPass(LICMOptions()), /*UseMemorySSA=*/true));
  HoistInvariants.addPass(EarlyCSEPass());
  HoistInvariants.addPass(LoopSimplifyPass());
}

/// Inlines every call of a defined function into F, except of functions on
/// a call cycle: each inlined copy of those would bring its recursive calls
/// back (fib: five per body, 5^8 copies in 8 rounds). The feature counter
/// counts their calls once each instead.
static void inlineCalls(Function &F) {
  CallCycles Cycles(F);
  constexpr unsigned MaxRounds = 8;
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    SmallVector<CallBase *, 8> Calls;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (Function *Callee = Call->getCalledFunction())
            if (!Callee->isDeclaration() && !Cycles.isRecursive(*Callee))
              Calls.push_back(Call);
    if (Calls.empty())
      return;
    for (CallBase *Call : Calls) {
      InlineFunctionInfo IFI;
      (void)InlineFunction(*Call, IFI); // a refused call stays a call
    }
  }
}

CandidateFeatureExtractor::~CandidateFeatureExtractor() { release(); }

void CandidateFeatureExtractor::release() {
  if (Prepared)
    Prepared->eraseFromParent();
  Prepared = nullptr;
  Kernel = nullptr;
}

/// A clone of K with its calls inlined, before the cleanup.
static Function *inlinedClone(Function &K) {
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&K, VMap);
  // -O0 kernels are optnone: the clone is ours to simplify.
  Clone->removeFnAttr(Attribute::OptimizeNone);
  Clone->removeFnAttr(Attribute::NoInline);
  inlineCalls(*Clone);
  return Clone;
}

Function &CandidateFeatureExtractor::prepared(Function &K) {
  if (Kernel == &K) {
    ++NumPreparedReused;
    return *Prepared;
  }
  release();
  RemarksSilenced Quiet(K.getContext());
  Prepared = inlinedClone(K);
  Cleanup.run(*Prepared, FAM);
  FAM.clear(*Prepared, Prepared->getName());
  Kernel = &K;
  return *Prepared;
}

Expected<Function *>
CandidateFeatureExtractor::measuredCopy(Function &K, ArrayRef<BuiltArray> Arrays,
                                        std::vector<GlobalVariable *> &Owned) {
  prepared(K);
  if (Arrays.empty()) {
    ValueToValueMapTy VMap;
    return CloneFunction(Prepared, VMap);
  }
  Function *Copy = inlinedClone(K);
  for (const BuiltArray &A : Arrays) {
    auto Own = resizeSharedArrayIn(*Copy, *A.Var, A.Dims);
    if (!Own) {
      Copy->eraseFromParent();
      return Own.takeError();
    }
    Owned.push_back(*Own);
  }
  Cleanup.run(*Copy, FAM);
  FAM.clear(*Copy, Copy->getName());
  return Copy;
}

/// Reads of a tunable, a constant once the plugin ran, replaced by one
/// read at F's entry: ScalarEvolution then sees a loop bound that reads it
/// inside the loop (`k < ENERGY_VALUE(ITEMS)` at -O0) as invariant.
static void hoistTunableReads(Function &F) {
  std::map<GlobalVariable *, LoadInst *> Entry;
  BasicBlock::iterator At = F.getEntryBlock().getFirstNonPHIOrDbgOrAlloca();
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Load = dyn_cast<LoadInst>(&I);
    auto *GV = Load ? dyn_cast<GlobalVariable>(
                          Load->getPointerOperand()->stripPointerCasts())
                    : nullptr;
    if (!GV || !GV->getName().starts_with(TunablePrefix) ||
        !Load->getType()->isIntegerTy(32))
      continue;
    LoadInst *&Read = Entry[GV];
    if (!Read)
      Read = new LoadInst(Load->getType(), GV, GV->getName(), At);
    Load->replaceAllUsesWith(Read);
    Load->eraseFromParent();
  }
}

ShapeProof CandidateFeatureExtractor::shapeProof(Function &K,
                                                std::array<bool, 3> FreeAxes) {
  Function &Clean = prepared(K);
  RemarksSilenced Quiet(K.getContext());
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&Clean, VMap);
  hoistTunableReads(*Copy);
  HoistInvariants.run(*Copy, FAM);
  ShapeProof Proof = proveShapeInvariance(*Copy, FreeAxes);
  FAM.clear(*Copy, Copy->getName());
  Copy->eraseFromParent();
  return Proof;
}

/// The NVPTX target machine for M's triple and Cpu, or null when that
/// target is not linked into this process. A Cpu this LLVM's NVPTX does not
/// know (LLVM 19 knows up to sm_90a) gets the target's default processor,
/// as LLVM would after printing "not a recognized processor" for every
/// function, and NoPtx says why its PTX would be of no use: LLVM 19 writes
/// `.version 6.0` for `.target sm_100`, which ptxas rejects.
static std::unique_ptr<TargetMachine>
nvptxTarget(const Module &M, StringRef Cpu, std::string &NoPtx) {
  std::string Triple = M.getTargetTriple();
  if (Triple.empty())
    return nullptr;
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(Triple, Error);
  if (!T)
    return nullptr;
  std::unique_ptr<MCSubtargetInfo> Known(
      T->createMCSubtargetInfo(Triple, "", ""));
  if (!Cpu.empty() && Known && !Known->isCPUStringValid(Cpu)) {
    NoPtx = ("LLVM " LLVM_VERSION_STRING " cannot emit PTX for " + Cpu).str();
    Cpu = "";
  }
  return std::unique_ptr<TargetMachine>(T->createTargetMachine(
      Triple, Cpu, "", TargetOptions(), std::nullopt, std::nullopt,
      CodeGenOptLevel::Aggressive));
}

FunctionPassManager &CandidateFeatureExtractor::simplification(Module &M) {
  if (!Simplify) {
    Function *Any = nullptr;
    for (Function &F : M)
      if (!F.isDeclaration()) {
        Any = &F;
        break;
      }
    if (Cpu.empty() && Any)
      Cpu = Any->getFnAttribute("target-cpu").getValueAsString().str();
    Target = nvptxTarget(M, Cpu, NoPtx);
    SimplifyPB = std::make_unique<PassBuilder>(Target.get());
    SimplifyPB->registerModuleAnalyses(SimplifyMAM);
    SimplifyPB->registerCGSCCAnalyses(SimplifyCGAM);
    SimplifyPB->registerFunctionAnalyses(SimplifyFAM);
    SimplifyPB->registerLoopAnalyses(SimplifyLAM);
    SimplifyPB->crossRegisterProxies(SimplifyLAM, SimplifyFAM, SimplifyCGAM,
                                     SimplifyMAM);
    Simplify = SimplifyPB->buildFunctionSimplificationPipeline(
        OptimizationLevel::O3, ThinOrFullLTOPhase::None);
    Lower.emplace();
    // The late runtime/partial unroll of -O3's optimization pipeline, with
    // NVPTX's unrolling preferences: without it each loop's induction, compare
    // and branch count once per source iteration (an FP32 FMA loop: 2.5
    // instructions per FMA, against 1.1 in the PTX).
    Lower->addPass(LoopUnrollPass(LoopUnrollOptions(
        OptimizationLevel::O3.getSpeedupLevel(), /*OnlyWhenForced=*/false,
        /*ForgetSCEV=*/false)));
    Lower->addPass(SROAPass(SROAOptions::PreserveCFG));
    Lower->addPass(InstCombinePass());
    // What NVPTX's codegen runs on the IR first at -O3: address spaces
    // resolved, then straight-line redundancy removed. Unrolled stencils
    // read the same shared element through differently written indices;
    // these passes merge those loads as the PTX does (a 15x15 convolution
    // at tile 1x8: 1800 shared loads before, 435 after and in the PTX).
    Lower->addPass(InferAddressSpacesPass());
    Lower->addPass(SeparateConstOffsetFromGEPPass());
    Lower->addPass(StraightLineStrengthReducePass());
    Lower->addPass(EarlyCSEPass());
    Lower->addPass(NaryReassociatePass());
    Lower->addPass(EarlyCSEPass());
    // NVPTX's codegen ends this with GVN; its memory dependence queries took
    // most of a large kernel's feature time (attention: 1.11 s -> 0.69 s for
    // 3 candidates). EarlyCSE over MemorySSA removes most of the same
    // redundant loads here: on the H100 corpus and the Kernel Tuner rows, instructions
    // and dependence chains moved by under 3% (5 of 21 corpus kernels, 2 of
    // 5 tuner kernels); kt_eval's medians did not move.
    Lower->addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
    // Then NVPTX joins adjacent loads and stores into vector ones (a
    // float4 read field by field becomes one ld.global.v4.f32): one issue
    // and one access of 16 bytes, whose sectors a warp shares, not four.
    Lower->addPass(LoadStoreVectorizerPass());
  }
  return *Simplify;
}

bool CandidateFeatureExtractor::resourcesFromNvcc(
    Function &K,
    ArrayRef<std::pair<GlobalVariable *, int>> Values,
    KernelFeatures &Features) {
  auto Start = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, int>> Tunables;
  for (auto [Var, Value] : Values)
    Tunables.emplace_back(Var->getName().drop_front(TunablePrefix.size()).str(),
                          Value);
  StringRef Arch = !NvccArch.empty()
                       ? StringRef(NvccArch)
                       : K.getFnAttribute("target-cpu").getValueAsString();
  auto R = Nvcc->measure(K.getParent()->getSourceFileName(), K.getName(),
                         Tunables, Arch, K.getContext());
  ToolchainSeconds += std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - Start)
                          .count();
  if (!R) {
    Features.addNote("registers not from nvcc: " + toString(R.takeError()));
    return false;
  }
  useResources(Features, *R, "nvcc", "nvcc's build");
  return true;
}

Expected<KernelFeatures> CandidateFeatureExtractor::extract(
    Function &K, ArrayRef<std::pair<GlobalVariable *, int>> Values,
    ArrayRef<BuiltArray> Arrays, bool Optimized,
    const std::optional<KnownLaunch> &Launch, bool WithToolchain) {
  auto Start = std::chrono::steady_clock::now();
  auto SecondsSince = [](std::chrono::steady_clock::time_point T) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - T)
        .count();
  };
  RemarksSilenced Quiet(K.getContext());
  std::vector<GlobalVariable *> OwnArrays;
  auto Made = measuredCopy(K, Arrays, OwnArrays);
  if (!Made)
    return Made.takeError();
  Function *Copy = *Made;
  // The copy goes first, then the arrays only it used.
  auto Erase = [&] {
    Copy->eraseFromParent();
    for (GlobalVariable *GV : OwnArrays)
      GV->eraseFromParent();
  };
  for (auto [Var, Value] : Values)
    if (Error E = replaceTunableReads(*Var, Value, {Copy})) {
      Erase();
      return E;
    }
  // Loops over the grid (grid-stride loops) get their real trip counts.
  if (Launch) {
    foldBlockDim(*Copy, Launch->Block);
    if (Launch->Grid)
      foldGridDim(*Copy, *Launch->Grid);
  }
  FeatureOptions ForLaunch = Opts;
  if (Launch) {
    ForLaunch.Block = Launch->Block;
    if (Launch->Grid)
      ForLaunch.Grid = *Launch->Grid;
    ForLaunch.StatedArguments = Launch->Arguments;
  }
  std::vector<AssumedTrip> SourceTrips;
  if (Optimized) {
    simplification(*K.getParent()).run(*Copy, SimplifyFAM);
    SimplifyFAM.clear(*Copy, Copy->getName());
    // Assumed trip counts are reported per source iteration: the unroll
    // below divides a loop's count by its unroll factor.
    SourceTrips = assumedTrips(*Copy, ForLaunch);
    lowering().run(*Copy, SimplifyFAM);
    SimplifyFAM.clear(*Copy, Copy->getName());
  }
  KernelFeatures Features = computeKernelFeatures(*Copy, ForLaunch);
  Features.StaticIssueSlots = staticIssueSlots(*Copy);
  if (Optimized)
    Features.SimplifiedInstructions = Copy->getInstructionCount();
  ++NumMeasured;
  if (Optimized)
    ++NumSimplifiedMeasured;
  LLVM_DEBUG({
    dbgs() << DEBUG_TYPE << ": measured " << K.getName();
    for (auto [Var, Value] : Values)
      dbgs() << " " << Var->getName() << "=" << Value;
    dbgs() << (Optimized ? " (simplified)" : " (cleanup only)") << "\n";
  });
  if (Optimized)
    Features.AssumedTrips = std::move(SourceTrips);
  FeatureSeconds += SecondsSince(Start);
  // ptxas allocates the registers under the bounds the build carries: the
  // source's, or the .reqntid the rewrite gives the candidate's block.
  LaunchBounds Built =
      Launch && Launch->Bounds ? *Launch->Bounds : readLaunchBounds(K);
  if (Launch && Launch->Resources) {
    useResources(Features, *Launch->Resources, "force-config",
                 "the forced launch's toolchain");
  } else if (Optimized && WithToolchain && Nvcc &&
             resourcesFromNvcc(K, Values, Features)) {
    // nvcc builds the kernels: its figures, not clang's.
  } else if (Optimized && WithToolchain && Target && Toolchain.available() &&
             !NoPtx.empty()) {
    Features.addNote("registers estimated: " + NoPtx);
    if (!WarnedNoPtx)
      K.getContext().diagnose(
          PluginWarning("energy: " + NoPtx + ": registers are estimated"));
    WarnedNoPtx = true;
  } else if (Optimized && WithToolchain && Target && Toolchain.available()) {
    auto ToolchainStart = std::chrono::steady_clock::now();
    auto R = Toolchain.measure(*Copy, *Target, Built);
    ToolchainSeconds += SecondsSince(ToolchainStart);
    ++NumToolchainChecks;
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": ptxas on " << K.getName() << ": "
                      << (R ? std::to_string(R->Registers) + " registers"
                            : std::string("failed"))
                      << "\n");
    if (R)
      useResources(Features, *R, "ptxas", "ptxas");
    else
      Features.addNote("registers estimated: " + toString(R.takeError()));
  }
  Features.Name = K.getName().str();
  // The copy has no annotations; the build's bounds cap its registers.
  Features.Bounds = Built;
  Erase();
  return Features;
}

} // namespace energy
