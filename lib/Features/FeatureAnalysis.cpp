//===- FeatureAnalysis.cpp - Static features of NVPTX kernels -------------===//

#include "energy/FeatureAnalysis.h"
#include "energy/CallCycles.h"
#include "energy/NVVMAnnotations.h"
#include "energy/PluginError.h"

#include "AccessStride.h"
#include "BarrierWaits.h"
#include "CallClassifier.h"
#include "FeatureCore.h"
#include "InstructionClasses.h"
#include "Footprint.h"
#include "LeaderGuards.h"
#include "LocalAnalyses.h"
#include "MemorySpaces.h"
#include "RegisterPressure.h"
#include "ThreadDependence.h"
#include "TripCounts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

#define DEBUG_TYPE "energy-features"

namespace energy {

AnalysisKey KernelFeaturesAnalysis::Key;

namespace {


/// Counts one function; called functions are counted once each and folded
/// into their callers. A call within a call cycle is counted as an
/// instruction only, with a note: following it would not end.
class FeatureCounter {
public:
  FeatureCounter(const FeatureOptions &Opts, const Function &Kernel)
      : Opts(Opts), Kernel(Kernel), Spaces(Kernel), Cycles(Kernel) {}

  KernelFeatures count(Function &F);
  std::vector<AssumedTrip> assumedTrips(Function &F);

private:
  bool blockKnown() const {
    return llvm::all_of(Opts.Block, [](unsigned D) { return D; });
  }

  /// The launch's argument values, which only the kernel's own arguments
  /// (not a callee's of the same index) take.
  ArrayRef<std::pair<unsigned, unsigned>> launchArguments(const Function &F) {
    return &F == &Kernel ? ArrayRef(Opts.StatedArguments) : std::nullopt;
  }

  /// A load the cost model takes for a global one (generic ones too).
  bool isGlobalLoad(const Instruction &I) {
    auto *Load = dyn_cast<LoadInst>(&I);
    if (!Load)
      return false;
    return countsAsGlobal(Spaces.resolve(Load->getPointerOperand()));
  }

  const FeatureOptions &Opts;
  const Function &Kernel;
  MemorySpaces Spaces;
  CallCycles Cycles;
  CalleeSummaries Callees;
  std::map<const Function *, KernelFeatures> Done;

public:
  /// Executions of shared accesses by their (threadIdx.x, threadIdx.y)
  /// strides in bytes, -1 for one that is not a constant.
  std::map<std::pair<int64_t, int64_t>, double> SharedPatterns;

private:

  struct FunctionState {
    KernelFeatures &Out;
    ScalarEvolution &SE;
    const ThreadDependence &TD;
    const DataLayout &DL;
    /// The kernel's own global accesses, when the block shape is known
    /// (a callee's addresses depend on its caller's arguments).
    BlockFootprint *Footprint = nullptr;
    const Instruction *At = nullptr; // the access being counted
  };

  /// How often a loop's header and the rest of its body run per entry.
  struct LoopWeight {
    double Header = 1, Body = 1;
    bool Known = false; // a constant trip count, not an estimate
  };
  using LoopWeights = DenseMap<const Loop *, LoopWeight>;
  LoopWeights weighLoops(const LoopInfo &LI, ScalarEvolution &SE,
                         const StatedValues &Stated,
                         std::vector<AssumedTrip> &Assumed) const;
  void countInstruction(Instruction &I, double W, FunctionState &S);
  void countMemory(const Value *Ptr, Type *AccessTy, bool IsStore, double W,
                   FunctionState &S);
  void countCall(CallBase &Call, double W, FunctionState &S);
  void countAtomic(const Value *Ptr, double W, FunctionState &S);

};

/// Along each axis, the share of a block's extent within the problem's
/// bounds where the memory accesses run, by the outermost bounds checks:
/// the loosest share among the basic blocks that access memory. Inner
/// checks (a filter tap's `xx < width`) leave the tile a block reads as it
/// is; applied per access, they would split its groups.
std::array<double, 3>
footprintAxisWithin(const Function &F,
                    const DenseMap<const BasicBlock *, ThreadShare> &Shares) {
  std::array<double, 3> Within = {0, 0, 0};
  bool Accesses = false;
  for (const BasicBlock &BB : F) {
    if (llvm::none_of(BB, [](const Instruction &I) {
          return I.mayReadOrWriteMemory() && !isa<CallBase>(I);
        }))
      continue;
    Accesses = true;
    auto It = Shares.find(&BB);
    for (unsigned A = 0; A < 3; ++A)
      Within[A] = std::max(Within[A],
                           It != Shares.end() ? It->second.AxisWithin[A] : 1);
  }
  return Accesses ? Within : std::array<double, 3>{1, 1, 1};
}

/// Estimated executions per thread of a block: product of the trip counts of
/// its loops. Loops whose count the code does not fix go to Assumed.
FeatureCounter::LoopWeights
FeatureCounter::weighLoops(const LoopInfo &LI, ScalarEvolution &SE,
                           const StatedValues &Stated,
                           std::vector<AssumedTrip> &Assumed) const {
  LoopWeights Weights;
  // Every function of the kernel reads the same launch's registers.
  LaunchShape Launch{Opts.Block, Opts.Grid, {}};
  for (const Loop *L : LI.getLoopsInPreorder()) {
    // A loop that exits only from its header (`while` form, before
    // rotation) runs the rest of its body one time fewer than the header.
    // ScalarEvolution's counts are header executions; the default trip
    // count means body iterations.
    bool WhileForm = L->getExitingBlock() == L->getHeader() &&
                     L->getLoopLatch() != L->getHeader();
    std::vector<BoundValue> Values;
    std::optional<double> Counted; // header executions per entry
    bool Known = false;
    std::optional<double> InLoop = statedTripCount(L);
    std::optional<StridedCount> Strided;
    if (InLoop) {
      Counted = *InLoop + (WhileForm ? 1 : 0);
    } else if (unsigned Exact = SE.getSmallConstantTripCount(L)) {
      Counted = Exact, Known = true;
    } else if ((Strided = stridedTripCount(L, SE, Stated, Opts.DefaultExtent,
                                           Launch))) {
      Counted = Strided->HeaderRuns;
      Values = std::move(Strided->Values);
      Known = Counted && Values.empty();
    } else if (auto Max = knownTripCount(L, SE)) {
      Counted = *Max, Known = true;
    } else if (auto Symbolic = symbolicTripCount(L, SE, Stated,
                                                 Opts.DefaultExtent, Values)) {
      Counted = *Symbolic;
    }
    for (BoundValue &V : Values)
      V.FromLaunch = V.IsArgument && L->getHeader()->getParent() == &Kernel &&
                     llvm::any_of(Opts.StatedArguments,
                                  [&](auto &A) { return A.first == V.ArgNo; });
    double Header = Counted ? *Counted
                            : Opts.DefaultTripCount + (WhileForm ? 1 : 0);
    Weights[L] = {Header, WhileForm ? Header - 1 : Header, Known};
    if (InLoop || !Counted || !Values.empty()) {
      AssumedTrip A{sourceLocation(L->getStartLoc()), Weights[L].Body,
                    std::move(Values)};
      A.StatedInLoop = InLoop.has_value();
      Assumed.push_back(std::move(A));
    }
  }
  return Weights;
}

void FeatureCounter::countAtomic(const Value *Ptr, double W,
                                 FunctionState &S) {
  if (Spaces.resolve(Ptr) == MemSpace::Shared) {
    S.Out.shared_atomics += W;
    return;
  }
  S.Out.global_atomics += W;
  // Only with the block known: the leader guards in front of such atomics
  // (one per block or warp) decide how many there are, and counting each
  // thread's would charge a block's worth of them.
  if (blockKnown() && sameAddressForTheGrid(Ptr, Kernel, S.DL))
    S.Out.global_same_address_atomics += W;
}

void FeatureCounter::countMemory(const Value *Ptr, Type *AccessTy,
                                 bool IsStore, double W, FunctionState &S) {
  MemoryAccess A;
  A.Space = Spaces.resolve(Ptr);
  A.Bytes = static_cast<double>(S.DL.getTypeStoreSize(AccessTy));
  A.Lanes = lanes(AccessTy);
  A.IsStore = IsStore;
  countMemoryAccess(S.Out, A, W, [&] {
    return classifyStride(addressStride(Ptr, S.SE, S.TD, Callees),
                          static_cast<uint64_t>(A.Bytes));
  });
  if (S.Footprint && countsAsGlobal(A.Space))
    S.Footprint->add(Ptr, *S.At, static_cast<uint64_t>(A.Bytes), W, IsStore);
  if (A.Space == MemSpace::Shared) {
    auto StrideBytes = [&](unsigned Axis) -> int64_t {
      Stride D = addressStride(Ptr, S.SE, S.TD, Callees, Axis);
      return D.K == Stride::Zero       ? 0
             : D.K == Stride::Constant ? D.Bytes
                                       : -1;
    };
    SharedPatterns[{StrideBytes(0), StrideBytes(1)}] += W;
  }
}

/// Whether NVPTX emits I's approximate form: I allows it (`afn`, or `arcp`
/// for a division), or I's function is compiled with unsafe FP math, which
/// selects div.approx and sqrt.approx for every f32 division and root.
static bool mayApproximate(const Instruction &I) {
  if (auto *FP = dyn_cast<FPMathOperator>(&I))
    if (FP->hasApproxFunc() ||
        (I.getOpcode() == Instruction::FDiv && FP->hasAllowReciprocal()))
      return true;
  return I.getFunction()->getFnAttribute("unsafe-fp-math").getValueAsBool();
}

void FeatureCounter::countCall(CallBase &Call, double W, FunctionState &S) {
  KernelFeatures &Out = S.Out;
  if (auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand())) {
    for (const AsmOp &Op : classifyInlineAsm(Asm->getAsmString())) {
      if (Op.Kind == CallKind::TextureRead)
        countTextureRead(Out, Op.Bytes, W);
      else
        countClassifiedOp(Out, Op.Kind, Op.Scalar, Op.Lanes, W);
    }
    return;
  }
  if (auto *Mem = dyn_cast<MemIntrinsic>(&Call)) {
    // Its pieces move one contiguous run of bytes: counted as one access of
    // the whole length, so that the traffic and the footprint are exact.
    auto Pieces = memIntrinsicPieces(*Mem);
    if (!Pieces || !Pieces->Bytes)
      return;
    auto *Run =
        FixedVectorType::get(Type::getInt8Ty(Call.getContext()), Pieces->Bytes);
    if (auto *Copy = dyn_cast<MemTransferInst>(Mem))
      countMemory(Copy->getSource(), Run, /*IsStore=*/false, W, S);
    countMemory(Mem->getDest(), Run, /*IsStore=*/true, W, S);
    return;
  }
  Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return;
  if (auto Read = readsSpecialRegister(&Call)) {
    static const char Axes[] = "xyz";
    std::string *Dims[] = {&Out.Dims.ThreadIdx, &Out.Dims.BlockIdx,
                           &Out.Dims.BlockDim, &Out.Dims.GridDim};
    if (Read->Reg == SpecialRegister::LaneId)
      return;
    std::string &D = *Dims[static_cast<unsigned>(Read->Reg)];
    if (D.find(Axes[Read->Axis]) == std::string::npos) {
      D.push_back(Axes[Read->Axis]);
      llvm::sort(D);
    }
    return;
  }
  CallKind Kind = classifyCallee(Callee->getName());
  switch (Kind) {
  case CallKind::Atomic:
    if (Call.arg_size() && Call.getArgOperand(0)->getType()->isPointerTy())
      countAtomic(Call.getArgOperand(0), W, S);
    return;
  case CallKind::GlobalLoad:
    if (Call.arg_size())
      countMemory(Call.getArgOperand(0), Call.getType(), /*IsStore=*/false, W,
                  S);
    return;
  case CallKind::TextureRead:
    return countTextureRead(
        Out, static_cast<double>(S.DL.getTypeStoreSize(Call.getType())), W);
  case CallKind::Other:
    break;
  default:
    return countClassifiedOp(Out, approximatedIf(Kind, mayApproximate(Call)),
                             scalarKind(Call.getType()), lanes(Call.getType()),
                             W);
  }
  if (Callee->isDeclaration() || Callee->isIntrinsic())
    return;
  if (Cycles.isRecursiveCall(*Call.getFunction(), *Callee)) {
    Out.addNote("recursive: each recursive call counted once, as a call");
    return;
  }
  Out.mergeCallee(count(*Callee), W);
}

void FeatureCounter::countInstruction(Instruction &I, double W,
                                      FunctionState &S) {
  KernelFeatures &Out = S.Out;
  if (isa<DbgInfoIntrinsic>(I) || I.isLifetimeStartOrEnd())
    return;
  if (auto *Call = dyn_cast<CallBase>(&I); Call && isHintMarker(*Call))
    return; // a comment in the PTX
  unsigned Slots = issueSlots(I, S.DL);
  if (Slots == 0)
    return;
  Out.instructions += W * Slots;
  Type *T = I.getType();
  switch (I.getOpcode()) {
  case Instruction::FMul:
    if (fusesIntoUser(I))
      return; // counted as an FMA at its user
    return countFloatOps(Out, scalarKind(T), W * lanes(T), /*FMA=*/false);
  case Instruction::FAdd:
  case Instruction::FSub:
    return countFloatOps(Out, scalarKind(T), W * lanes(T),
                         /*FMA=*/fusedOperand(I) != nullptr);
  case Instruction::FNeg:
    return countFloatOps(Out, scalarKind(T), W * lanes(T), /*FMA=*/false);
  case Instruction::FDiv:
  case Instruction::FRem:
    return countClassifiedOp(
        Out,
        approximatedIf(CallKind::Special,
                       I.getOpcode() == Instruction::FDiv && mayApproximate(I)),
        scalarKind(T), lanes(T), W);
  case Instruction::FCmp: {
    Type *OpTy = I.getOperand(0)->getType();
    return countFloatOps(Out, scalarKind(OpTy), W * lanes(OpTy), /*FMA=*/false);
  }
  case Instruction::Add: case Instruction::Sub: case Instruction::Mul:
  case Instruction::UDiv: case Instruction::SDiv: case Instruction::URem:
  case Instruction::SRem: case Instruction::Shl: case Instruction::LShr:
  case Instruction::AShr: case Instruction::And: case Instruction::Or:
  case Instruction::Xor: case Instruction::ICmp: case Instruction::Select:
    Out.int_ops += W * lanes(T);
    return;
  case Instruction::SIToFP: case Instruction::UIToFP: case Instruction::FPToSI:
  case Instruction::FPToUI: case Instruction::FPExt: case Instruction::FPTrunc:
    Out.conversions += W * lanes(T);
    return;
  case Instruction::Load: {
    auto &Load = cast<LoadInst>(I);
    return countMemory(Load.getPointerOperand(), T, /*IsStore=*/false, W, S);
  }
  case Instruction::Store: {
    auto &Store = cast<StoreInst>(I);
    return countMemory(Store.getPointerOperand(),
                       Store.getValueOperand()->getType(), /*IsStore=*/true, W,
                       S);
  }
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg: {
    const Value *Ptr = isa<AtomicRMWInst>(I)
                           ? cast<AtomicRMWInst>(I).getPointerOperand()
                           : cast<AtomicCmpXchgInst>(I).getPointerOperand();
    countAtomic(Ptr, W, S);
    return;
  }
  case Instruction::Br:
    if (cast<BranchInst>(I).isConditional()) {
      Out.branches += W;
      if (S.TD.isThreadDependent(cast<BranchInst>(I).getCondition()))
        Out.divergent_branches += W;
    }
    return;
  case Instruction::Switch:
    Out.branches += W;
    if (S.TD.isThreadDependent(cast<SwitchInst>(I).getCondition()))
      Out.divergent_branches += W;
    return;
  case Instruction::Call:
    return countCall(cast<CallBase>(I), W, S);
  default:
    return;
  }
}

/// BB's dependence depth (DependenceDepth) over its instructions.
unsigned dependenceDepth(const BasicBlock &BB) {
  DependenceDepth Chain;
  SmallVector<const void *, 4> Uses;
  const DataLayout &DL = BB.getDataLayout();
  for (const Instruction &I : BB) {
    if (isa<PHINode>(I) || I.isDebugOrPseudoInst() || I.isLifetimeStartOrEnd())
      continue;
    Uses.clear();
    for (const Value *Op : I.operands())
      if (auto *OpI = dyn_cast<Instruction>(Op))
        Uses.push_back(OpI);
    Chain.add(&I, Uses, issueSlots(I, DL) ? 1 : 0);
  }
  return Chain.longest();
}

/// The local memory F's fixed-size allocas take: what optimization left
/// in memory (a private array indexed by a loop's variable).
static double staticAllocaBytes(const Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  double Bytes = 0;
  for (const Instruction &I : instructions(F))
    if (auto *Slot = dyn_cast<AllocaInst>(&I))
      if (std::optional<TypeSize> Size = Slot->getAllocationSize(DL))
        if (!Size->isScalable())
          Bytes += double(Size->getFixedValue());
  return Bytes;
}

KernelFeatures FeatureCounter::count(Function &F) {
  auto It = Done.find(&F);
  if (It != Done.end())
    return It->second;

  KernelFeatures Out;
  Out.Name = F.getName().str();
  LocalAnalyses A(F);
  ScalarEvolution &SE = A.SE;
  const LoopInfo &LI = A.LI;
  ThreadDependence TD(F, [&](const Function &Callee) {
    return Callees.returnsThreadDependent(Callee);
  });
  FunctionState S{Out, SE, TD, F.getParent()->getDataLayout()};

  StatedValues Stated = statedValues(F, launchArguments(F));
  LoopWeights Loops = weighLoops(LI, SE, Stated, Out.AssumedTrips);
  // Code behind `threadIdx.x == 0` and the like runs for a share of the
  // threads, known once the block is; a scalar tail past the problem's end
  // for none.
  DenseMap<const BasicBlock *, ThreadShare> Shares;
  std::array<double, 3> AxisWithin = {1, 1, 1};
  if (&F == &Kernel) {
    // Only the launch's own sizes go with its grid (not ENERGY_ASSUME's
    // typical ones).
    LaunchShape Launch{Opts.Block, Opts.Grid, [&](const Value *V) {
                         std::optional<uint64_t> Found;
                         if (auto *Arg = dyn_cast<Argument>(V))
                           for (auto [No, Value] : launchArguments(F))
                             if (No == Arg->getArgNo())
                               Found = Value;
                         return Found;
                       }};
    Shares = threadShares(F, A.DT, Launch, /*WarpSize=*/32);
    AxisWithin = footprintAxisWithin(F, Shares);
    Out.past_the_end_threads =
        1 - AxisWithin[0] * AxisWithin[1] * AxisWithin[2];
  }
  std::optional<BlockFootprint> Footprint;
  if (&F == &Kernel && blockKnown())
    Footprint.emplace(
        Opts.Block, Opts.Grid, AxisWithin, SE, LI, TD, Callees,
        [&](const Loop *L) { return Loops.find(L)->second.Body; },
        [&](const Value *Arg) {
          auto It = Stated.find(Arg);
          return It != Stated.end() ? It->second : Opts.DefaultExtent;
        });
  S.Footprint = Footprint ? &*Footprint : nullptr;
  Out.local_frame_bytes = staticAllocaBytes(F);
  for (BasicBlock &BB : F) {
    // Estimated executions per thread: the product over the block's loops,
    // times the share of the threads that get there.
    auto Share = Shares.find(&BB);
    ThreadShare Reached = Share != Shares.end() ? Share->second : ThreadShare();
    double W = Reached.threads();
    for (const Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop()) {
      const LoopWeight &LW = Loops.find(L)->second;
      W *= &BB == L->getHeader() ? LW.Header : LW.Body;
    }
    for (Instruction &I : BB) {
      S.At = &I;
      countInstruction(I, W, S);
      if (isBarrier(I) &&
          waitsForGlobalLoads(I, isBarrier, [&](const Instruction &L) {
            return isGlobalLoad(L);
          }))
        Out.barriers_after_global_loads += W;
    }
    Out.critical_path += W * dependenceDepth(BB);
  }
  for (const auto &[L, LW] : Loops) {
    Out.loops += 1;
    Out.max_loop_depth =
        std::max(Out.max_loop_depth, static_cast<double>(L->getLoopDepth()));
    Out.unknown_trip_loops += LW.Known ? 0 : 1;
  }
  Out.register_estimate =
      std::max(Out.register_estimate,
               static_cast<double>(peakLiveRegisters(F) + ReservedRegisters));
  if (Footprint)
    Footprint->groups().setFeatures(Out);

  return Done[&F] = Out;
}

/// Shared-memory globals referenced from F or the functions it calls.
void collectSharedGlobals(const Function &F,
                          SmallPtrSetImpl<const GlobalVariable *> &Out,
                          SmallPtrSetImpl<const Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return;
  SmallVector<const Value *, 16> Work;
  SmallPtrSet<const Value *, 32> Visited;
  for (const Instruction &I : instructions(F)) {
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (!Callee->isDeclaration())
          collectSharedGlobals(*Callee, Out, Seen);
    for (const Value *Op : I.operands())
      Work.push_back(Op);
  }
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Visited.insert(V).second)
      continue;
    if (auto *GV = dyn_cast<GlobalVariable>(V)) {
      if (GV->getAddressSpace() == 3)
        Out.insert(GV);
    } else if (auto *CE = dyn_cast<ConstantExpr>(V)) {
      for (const Value *Op : CE->operands())
        Work.push_back(Op);
    }
  }
}

} // namespace

std::vector<const GlobalVariable *> sharedGlobalsUsedBy(const Function &F) {
  SmallPtrSet<const GlobalVariable *, 8> Shared;
  SmallPtrSet<const Function *, 8> Seen;
  collectSharedGlobals(F, Shared, Seen);
  std::vector<const GlobalVariable *> Out(Shared.begin(), Shared.end());
  // Pointer order is not stable across runs; names are.
  llvm::sort(Out, [](const GlobalVariable *A, const GlobalVariable *B) {
    return A->getName() < B->getName();
  });
  return Out;
}

bool checkOptionBounds(const cl::Option &O, StringRef Arg, unsigned Value,
                       unsigned Min, unsigned Max) {
  if (Value > Max)
    WithColor::error() << O.ArgStr << " must be at most " << Max << ", got "
                       << Arg << "\n";
  else if (Value < Min)
    WithColor::error() << O.ArgStr << " must be at least " << Min << ", got "
                       << Arg << "\n";
  return Value >= Min && Value <= Max;
}

bool checkRepeatedOption(const cl::Option &O, StringRef Arg,
                         std::string &First) {
  if (O.getNumOccurrences() <= 1) {
    First = Arg.str();
    return true;
  }
  if (Arg == First)
    return true;
  WithColor::error() << "-" << O.ArgStr << " is given twice, with different "
                     << "values: '" << First << "' and '" << Arg << "'\n";
  return false;
}

std::string sourceLocation(const DebugLoc &Loc) {
  if (!Loc)
    return "";
  return (Loc->getFilename() + ":" + Twine(Loc.getLine())).str();
}

std::vector<AssumedTrip> FeatureCounter::assumedTrips(Function &F) {
  LocalAnalyses A(F);
  std::vector<AssumedTrip> Assumed;
  weighLoops(A.LI, A.SE, statedValues(F, launchArguments(F)), Assumed);
  return Assumed;
}

std::vector<AssumedTrip> assumedTrips(Function &F, const FeatureOptions &Opts) {
  return FeatureCounter(Opts, F).assumedTrips(F);
}

KernelFeatures computeKernelFeatures(Function &F, const FeatureOptions &Opts) {
  FeatureCounter Counter(Opts, F);
  KernelFeatures Out = Counter.count(F);

  const DataLayout &DL = F.getParent()->getDataLayout();
  for (const GlobalVariable *GV : sharedGlobalsUsedBy(F)) {
    uint64_t Size = DL.getTypeAllocSize(GV->getValueType());
    if (Size == 0)
      Out.uses_dynamic_shared = 1; // extern __shared__ T s[];
    Out.static_shared_bytes += static_cast<double>(Size);
  }
  Out.Bounds = readLaunchBounds(F);
  const auto &Patterns = Counter.SharedPatterns;
  auto Dominant = std::max_element(
      Patterns.begin(), Patterns.end(),
      [](const auto &L, const auto &R) { return L.second < R.second; });
  if (Dominant != Patterns.end()) {
    Out.shared_stride_x = static_cast<double>(Dominant->first.first);
    Out.shared_stride_y = static_cast<double>(Dominant->first.second);
  }
  Out.finalize();
  return Out;
}

KernelFeaturesAnalysis::Result
KernelFeaturesAnalysis::run(Function &F, FunctionAnalysisManager &) {
  if (F.isDeclaration() || !isNVPTXModule(*F.getParent()) || !isKernel(F))
    return std::nullopt;
  return computeKernelFeatures(F, Opts);
}

PreservedAnalyses KernelFeaturesPrinterPass::run(Function &F,
                                                 FunctionAnalysisManager &FAM) {
  if (const auto &Features = FAM.getResult<KernelFeaturesAnalysis>(F))
    Features->printText(OS);
  return PreservedAnalyses::all();
}

void writeFeaturesJSON(raw_ostream &OS, StringRef ModuleName,
                       ArrayRef<KernelFeatures> Kernels) {
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("module", ModuleName);
    J.attributeArray("kernels", [&] {
      for (const KernelFeatures &K : Kernels)
        K.writeJSON(J);
    });
  });
  OS << "\n";
}

PreservedAnalyses KernelFeaturesJSONPass::run(Module &M,
                                              ModuleAnalysisManager &MAM) {
  if (!isNVPTXModule(M))
    return PreservedAnalyses::all();
  auto &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  std::vector<KernelFeatures> Kernels;
  for (Function &F : M)
    if (const auto &Features = FAM.getResult<KernelFeaturesAnalysis>(F))
      Kernels.push_back(*Features);

  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    emitPluginError(M.getContext(), "cannot write features to '" + Path +
                                        "': " + EC.message());
    return PreservedAnalyses::all();
  }
  writeFeaturesJSON(OS, M.getModuleIdentifier(), Kernels);
  return PreservedAnalyses::all();
}

} // namespace energy
