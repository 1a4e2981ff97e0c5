//===- LaunchRecordCheck.cpp - Opted-in kernels launch with their record --===//

#include "energy/LaunchRecordCheck.h"

#include "energy/CallCycles.h"
#include "energy/ConfigSpace.h"
#include "energy/NVVMAnnotations.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstdlib>
#include <map>

using namespace llvm;
using namespace llvm::PatternMatch;

#define DEBUG_TYPE "energy"

namespace energy {

namespace {

constexpr StringLiteral StubPrefix = "__device_stub__";
constexpr StringLiteral GetterPrefix = "__energy_choice_of_";
constexpr StringLiteral SiteKind = "energy.launch";

/// The name after Prefix in a function's name, with its qualifier and
/// template arguments: "scale<float, 4>" for the stub
/// _Z21__device_stub__scaleIfLi4EEviPT_ and for the record reader
/// __energy_choice_of_scale<float, 4>(), "a::k" in a namespace.
std::optional<std::string> nameAfter(StringRef Symbol, StringRef Prefix) {
  std::string Name = Symbol.str();
  ItaniumPartialDemangler D;
  if (!D.partialDemangle(Name.c_str())) {
    if (char *Demangled = D.getFunctionName(nullptr, nullptr)) {
      Name = Demangled;
      std::free(Demangled);
    }
  }
  StringRef N = Name;
  size_t At = N.take_front(N.find('<')).rfind(Prefix);
  if (At == StringRef::npos || (At != 0 && !N.take_front(At).ends_with("::")))
    return std::nullopt;
  std::string Kernel =
      (N.take_front(At) + N.drop_front(At + Prefix.size())).str();
  if (Kernel.empty() || StringRef(Kernel).ends_with("::"))
    return std::nullopt;
  return Kernel;
}

/// The opted-in kernels of a host module, by their stub: the stubs with an
/// energy.tune annotation (ENERGY_KERNEL* in this file), and kernels of
/// other files whose record this module reads (ENERGY_KERNEL_EXTERN, then a
/// read).
DenseMap<const Function *, std::string> optedInStubs(const Module &M) {
  DenseMap<const Function *, std::string> Stubs;
  StringSet<> Read;
  for (const Function &F : M)
    if (F.getName().contains(GetterPrefix))
      if (auto K = nameAfter(F.getName(), GetterPrefix))
        Read.insert(*K);
  StringSet<> Annotated;
  if (const GlobalVariable *A = M.getGlobalVariable("llvm.global.annotations"))
    if (auto *List = A->hasInitializer()
                         ? dyn_cast<ConstantArray>(A->getInitializer())
                         : nullptr)
      for (const Use &Entry : List->operands()) {
        auto *Fields = dyn_cast<ConstantStruct>(Entry.get());
        if (!Fields || Fields->getNumOperands() < 2)
          continue;
        auto *Text = dyn_cast<GlobalVariable>(
            Fields->getOperand(1)->stripPointerCasts());
        auto *Data = Text && Text->hasInitializer()
                         ? dyn_cast<ConstantDataArray>(Text->getInitializer())
                         : nullptr;
        if (!Data || !Data->isCString() ||
            !Data->getAsCString().starts_with("energy.tune:"))
          continue;
        if (auto *F =
                dyn_cast<Function>(Fields->getOperand(0)->stripPointerCasts()))
          Annotated.insert(F->getName());
      }
  if (Read.empty() && Annotated.empty())
    return Stubs;
  for (const Function &F : M) {
    if (!F.getName().contains(StubPrefix))
      continue;
    // A kernel defined here opts in here (an overload of an opted-in
    // kernel's name does not).
    auto K = nameAfter(F.getName(), StubPrefix);
    if (K && (Annotated.contains(F.getName()) ||
              (F.isDeclaration() && Read.contains(*K))))
      Stubs[&F] = *K;
  }
  return Stubs;
}

/// The kernel call that `if (!__cudaPushCallConfiguration(...))` guards, as
/// clang emits a `<<<...>>>`: the push's result compared with 0 chooses
/// between the end of the launch and the block that evaluates the
/// arguments and calls the kernel, the last call before the end.
const CallBase *guardedCall(const CallBase &Push) {
  for (const User *U : Push.users()) {
    auto *Cmp = dyn_cast<ICmpInst>(U);
    if (!Cmp || Cmp->getPredicate() != ICmpInst::ICMP_NE ||
        !match(Cmp->getOperand(1), m_Zero()))
      continue;
    for (const User *CU : Cmp->users()) {
      auto *Br = dyn_cast<BranchInst>(CU);
      if (!Br || !Br->isConditional())
        continue;
      const BasicBlock *End = Br->getSuccessor(0);
      SmallVector<const BasicBlock *, 8> Work = {Br->getSuccessor(1)};
      SmallPtrSet<const BasicBlock *, 8> Seen;
      while (!Work.empty()) {
        const BasicBlock *BB = Work.pop_back_val();
        if (BB == End || !Seen.insert(BB).second)
          continue;
        auto *Term = dyn_cast<BranchInst>(BB->getTerminator());
        if (Term && Term->isUnconditional() && Term->getSuccessor(0) == End) {
          for (auto It = BB->rbegin(); It != BB->rend(); ++It)
            if (auto *Call = dyn_cast<CallBase>(&*It))
              if (!isa<IntrinsicInst>(Call))
                return Call;
          // With exceptions the call is an invoke ending the block before.
          if (const BasicBlock *Pred = BB->getSinglePredecessor())
            if (auto *Invoke = dyn_cast<InvokeInst>(Pred->getTerminator()))
              return Invoke;
          return nullptr;
        }
        append_range(Work, successors(BB));
      }
    }
  }
  return nullptr;
}

/// Where one 32-bit piece of a value comes from.
struct Leaf {
  enum KindT { Record, Constant, Parameter, Unknown } Kind = Unknown;
  std::string Kernel; // Record: whose record
  uint64_t Value = 0; // Record: byte offset in it; Constant: the value
  std::string Why;    // Unknown: what it is
};

/// Follows a piece of a launch's block back through casts, bit packing
/// (the block's x and y travel as one i64), phis, selects and loads, to
/// record fields, constants and parameters. Calls and memory it cannot see
/// through yet are collected for inlining.
class Tracer {
public:
  /// Original is the function whose copy is traced.
  Tracer(const DataLayout &DL, const Function &Original,
         SetVector<CallBase *> &ToInline)
      : DL(DL), Original(Original), ToInline(ToInline) {}

  SmallVector<Leaf, 4> leaves(Value *V, unsigned Lo) {
    SmallVector<Leaf, 4> Out;
    Visiting.clear();
    trace(V, Lo, Out, 0);
    return Out;
  }

private:
  static constexpr unsigned MaxDepth = 64;

  void unknown(SmallVectorImpl<Leaf> &Out, std::string Why) {
    Leaf L;
    L.Why = std::move(Why);
    Out.push_back(std::move(L));
  }

  /// The calls that may write the memory Base points to, for inlining.
  void collectWriters(Value *Base, Function &F) {
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(Call))
          for (Value *Arg : Call->args())
            if (Arg->getType()->isPointerTy() &&
                getUnderlyingObject(Arg) == Base)
              ToInline.insert(Call);
  }

  /// "'f(int)'" for a call of f.
  static std::string callee(const CallBase &Call) {
    const Function *F = Call.getCalledFunction();
    return F ? "'" + demangle(F->getName().str()) + "'"
             : std::string("an indirect call");
  }

  void traceMemory(Value *Ptr, uint64_t Offset, SmallVectorImpl<Leaf> &Out,
                   Function &F, unsigned Depth) {
    if (Depth > MaxDepth)
      return unknown(Out, "computed");
    APInt Delta(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
    Value *Base = Ptr->stripAndAccumulateConstantOffsets(
        DL, Delta, /*AllowNonInbounds=*/true);
    Offset += Delta.getSExtValue();
    // Loads sunk below a join read through a phi of the pointers.
    if (auto *Phi = dyn_cast<PHINode>(Base)) {
      if (Visiting.insert({Phi, Offset, 'm'}).second)
        for (Value *In : Phi->incoming_values())
          traceMemory(In, Offset, Out, F, Depth + 1);
      return;
    }
    if (auto *Sel = dyn_cast<SelectInst>(Base)) {
      traceMemory(Sel->getTrueValue(), Offset, Out, F, Depth + 1);
      return traceMemory(Sel->getFalseValue(), Offset, Out, F, Depth + 1);
    }
    if (auto *Call = dyn_cast<CallBase>(Base)) {
      Function *Callee = Call->getCalledFunction();
      if (Callee && Callee->getName().contains(GetterPrefix)) {
        Leaf L;
        L.Kind = Leaf::Record;
        L.Kernel = nameAfter(Callee->getName(), GetterPrefix).value_or("");
        L.Value = Offset;
        Out.push_back(std::move(L));
        return;
      }
      if (Callee && !Callee->isDeclaration())
        ToInline.insert(Call);
      return unknown(Out,
                     "read through a pointer returned by " + callee(*Call));
    }
    if (isa<Argument>(Base)) {
      Leaf L;
      L.Kind = Leaf::Parameter;
      Out.push_back(std::move(L));
      return;
    }
    if (isa<AllocaInst>(Base)) {
      collectWriters(Base, F);
      return unknown(Out, "read from memory the check cannot follow");
    }
    if (auto *G = dyn_cast<GlobalVariable>(Base))
      return traceStatic(*G, Offset, Out, F, Depth);
    unknown(Out, "read from memory the check cannot follow");
  }

  /// A function's static variable (static dim3 b = ENERGY_BLOCK_DIM(k)):
  /// what the function stores in it. Other variables may be written
  /// anywhere.
  void traceStatic(GlobalVariable &G, uint64_t Offset,
                   SmallVectorImpl<Leaf> &Out, Function &F, unsigned Depth) {
    std::string Name = "the variable '" + demangle(G.getName().str()) + "'";
    bool FunctionStatic =
        G.hasLocalLinkage() ||
        ((G.hasLinkOnceODRLinkage() || G.hasWeakODRLinkage()) &&
         G.getName().starts_with("_ZZ"));
    SmallVector<const User *, 8> Users(G.users());
    while (FunctionStatic && !Users.empty()) {
      const User *U = Users.pop_back_val();
      if (auto *I = dyn_cast<Instruction>(U))
        FunctionStatic =
            I->getFunction() == &F || I->getFunction() == &Original;
      else if (isa<ConstantExpr>(U))
        append_range(Users, U->users());
      else
        FunctionStatic = false;
    }
    if (!FunctionStatic || !G.hasInitializer())
      return unknown(Out, "read from " + Name);
    // What it holds is what is stored in it (b = b adds nothing).
    if (!Visiting.insert({&G, Offset, 's'}).second)
      return;
    if (!G.getInitializer()->isNullValue() &&
        !isa<UndefValue>(G.getInitializer()))
      return unknown(Out, "read from " + Name + ", initialized to a constant");
    bool Unfollowed = false; // a write at an offset not known
    for (Instruction &I : instructions(F)) {
      auto Written = [&](Value *Ptr) -> std::optional<uint64_t> {
        APInt At(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
        if (Ptr->stripAndAccumulateConstantOffsets(DL, At, true) == &G)
          return At.getZExtValue();
        Unfollowed |= getUnderlyingObject(Ptr) == &G;
        return std::nullopt;
      };
      // Which bytes of I's write [At, At + Size) the piece is, if any.
      auto Covers = [&](uint64_t At, uint64_t Size) -> std::optional<bool> {
        if (Offset + 4 <= At || Offset >= At + Size)
          return std::nullopt;
        return Offset >= At && Offset + 4 <= At + Size;
      };
      if (auto *Store = dyn_cast<StoreInst>(&I)) {
        auto At = Written(Store->getPointerOperand());
        if (getUnderlyingObject(Store->getValueOperand()) == &G)
          return unknown(Out, "read from " + Name + ", whose address escapes");
        uint64_t Size =
            DL.getTypeStoreSize(Store->getValueOperand()->getType());
        if (auto Inside = At ? Covers(*At, Size) : std::nullopt) {
          if (!*Inside || !Store->getValueOperand()->getType()->isIntegerTy())
            return unknown(Out, "read from " + Name);
          trace(Store->getValueOperand(), (Offset - *At) * 8, Out, Depth + 1);
        }
        continue;
      }
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (auto *Copy = dyn_cast<MemTransferInst>(Call)) {
        auto At = Written(Copy->getRawDest());
        auto *Length = dyn_cast<ConstantInt>(Copy->getLength());
        if (auto Inside = At && Length ? Covers(*At, Length->getZExtValue())
                                       : std::nullopt) {
          if (!*Inside)
            return unknown(Out, "read from " + Name);
          traceMemory(Copy->getRawSource(), Offset - *At, Out, F, Depth + 1);
        }
        continue;
      }
      if (auto *Set = dyn_cast<MemSetInst>(Call)) {
        Unfollowed |= getUnderlyingObject(Set->getRawDest()) == &G;
        continue;
      }
      if (isa<IntrinsicInst>(Call))
        continue;
      for (Value *Arg : Call->args())
        if (Arg->getType()->isPointerTy() && getUnderlyingObject(Arg) == &G) {
          if (Function *Callee = Call->getCalledFunction();
              Callee && !Callee->isDeclaration())
            ToInline.insert(Call);
          return unknown(Out,
                         "read from " + Name + ", written by " + callee(*Call));
        }
    }
    if (Unfollowed)
      unknown(Out, "read from " + Name +
                       ", written where the check cannot "
                       "follow");
  }

  /// Field Idx of the aggregate Agg (the {i64, i32} a dim3 travels as).
  void traceAggregate(Value *Agg, ArrayRef<unsigned> Idx, unsigned Lo,
                      SmallVectorImpl<Leaf> &Out, unsigned Depth) {
    if (Depth > MaxDepth)
      return unknown(Out, "computed");
    if (Value *Inserted = FindInsertedValue(Agg, Idx);
        Inserted && !isa<ExtractValueInst>(Inserted))
      return trace(Inserted, Lo, Out, Depth + 1);
    if (auto *Phi = dyn_cast<PHINode>(Agg)) {
      if (Visiting.insert({Phi, Lo, 'a'}).second)
        for (Value *In : Phi->incoming_values())
          traceAggregate(In, Idx, Lo, Out, Depth + 1);
      return;
    }
    if (auto *Sel = dyn_cast<SelectInst>(Agg)) {
      traceAggregate(Sel->getTrueValue(), Idx, Lo, Out, Depth + 1);
      return traceAggregate(Sel->getFalseValue(), Idx, Lo, Out, Depth + 1);
    }
    if (auto *Load = dyn_cast<LoadInst>(Agg); Load && Lo % 8 == 0) {
      SmallVector<Value *, 4> Indices = {
          ConstantInt::get(Type::getInt32Ty(Agg->getContext()), 0)};
      for (unsigned X : Idx)
        Indices.push_back(
            ConstantInt::get(Type::getInt32Ty(Agg->getContext()), X));
      uint64_t At = DL.getIndexedOffsetInType(Agg->getType(), Indices);
      return traceMemory(Load->getPointerOperand(), At + Lo / 8, Out,
                         *Load->getFunction(), Depth + 1);
    }
    if (auto *Call = dyn_cast<CallBase>(Agg)) {
      if (Function *Callee = Call->getCalledFunction();
          Callee && !Callee->isDeclaration())
        ToInline.insert(Call);
      return unknown(Out, "returned by " + callee(*Call));
    }
    unknown(Out, "computed");
  }

  void trace(Value *V, unsigned Lo, SmallVectorImpl<Leaf> &Out,
             unsigned Depth) {
    if (Depth > MaxDepth)
      return unknown(Out, "computed");
    unsigned Width = V->getType()->getScalarSizeInBits();
    if (auto *C = dyn_cast<ConstantInt>(V)) {
      Leaf L;
      L.Kind = Leaf::Constant;
      if (Lo < Width)
        L.Value =
            C->getValue().extractBitsAsZExtValue(std::min(32u, Width - Lo), Lo);
      Out.push_back(std::move(L));
      return;
    }
    if (isa<Argument>(V)) {
      Leaf L;
      L.Kind = Leaf::Parameter;
      Out.push_back(std::move(L));
      return;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return unknown(Out, "computed");
    Function &F = *I->getFunction();
    auto Next = [&](Value *Op, unsigned NewLo) {
      trace(Op, NewLo, Out, Depth + 1);
    };
    auto Zero = [&] {
      Leaf L;
      L.Kind = Leaf::Constant;
      Out.push_back(std::move(L));
    };
    uint64_t ShiftBy = 0;
    switch (I->getOpcode()) {
    case Instruction::ZExt:
    case Instruction::SExt: {
      unsigned From = I->getOperand(0)->getType()->getScalarSizeInBits();
      if (Lo + 32 <= From)
        return Next(I->getOperand(0), Lo);
      if (Lo >= From && I->getOpcode() == Instruction::ZExt)
        return Zero();
      return unknown(Out, "computed");
    }
    case Instruction::Trunc:
    case Instruction::Freeze:
      return Next(I->getOperand(0), Lo);
    case Instruction::BitCast:
      if (I->getOperand(0)->getType()->isIntegerTy())
        return Next(I->getOperand(0), Lo);
      return unknown(Out, "computed");
    case Instruction::Shl:
      if (!match(I->getOperand(1), m_ConstantInt(ShiftBy)))
        return unknown(Out, "computed");
      if (Lo >= ShiftBy)
        return Next(I->getOperand(0), Lo - ShiftBy);
      if (Lo + 32 <= ShiftBy)
        return Zero();
      return unknown(Out, "computed");
    case Instruction::LShr:
      if (!match(I->getOperand(1), m_ConstantInt(ShiftBy)) ||
          Lo + ShiftBy + 32 > Width)
        return unknown(Out, "computed");
      return Next(I->getOperand(0), Lo + ShiftBy);
    case Instruction::And: {
      const APInt *Mask;
      if (!match(I->getOperand(1), m_APInt(Mask)))
        return unknown(Out, "computed");
      APInt Piece = Mask->extractBits(32, Lo);
      if (Piece.isAllOnes())
        return Next(I->getOperand(0), Lo);
      if (Piece.isZero())
        return Zero();
      return unknown(Out, "computed");
    }
    case Instruction::Add:
      if (!haveNoCommonBitsSet(I->getOperand(0), I->getOperand(1),
                               SimplifyQuery(DL)))
        return unknown(Out, "computed");
      [[fallthrough]];
    case Instruction::Or:
    case Instruction::Xor: {
      // Packing: the other operand has no bits in this piece.
      APInt Piece = APInt::getBitsSet(Width, Lo, Lo + 32);
      for (unsigned Op = 0; Op < 2; ++Op) {
        KnownBits Other = computeKnownBits(I->getOperand(1 - Op), DL);
        if (Piece.isSubsetOf(Other.Zero))
          return Next(I->getOperand(Op), Lo);
      }
      return unknown(Out, "computed");
    }
    case Instruction::Select:
      Next(I->getOperand(1), Lo);
      return Next(I->getOperand(2), Lo);
    case Instruction::PHI:
      // A value around a loop is what enters it.
      if (!Visiting.insert({I, Lo, 'v'}).second)
        return;
      for (Value *In : cast<PHINode>(I)->incoming_values())
        Next(In, Lo);
      return;
    case Instruction::Load:
      if (Lo % 8 || Lo + 32 > Width)
        return unknown(Out, "computed");
      return traceMemory(cast<LoadInst>(I)->getPointerOperand(), Lo / 8, Out, F,
                         Depth + 1);
    case Instruction::ExtractValue: {
      auto *E = cast<ExtractValueInst>(I);
      return traceAggregate(E->getAggregateOperand(), E->getIndices(), Lo, Out,
                            Depth + 1);
    }
    case Instruction::Call:
    case Instruction::Invoke: {
      auto *Call = cast<CallBase>(I);
      Function *Callee = Call->getCalledFunction();
      if (Callee && !Callee->isDeclaration())
        ToInline.insert(Call);
      return unknown(Out, "returned by " + callee(*Call));
    }
    default:
      return unknown(Out, "computed");
    }
  }

  const DataLayout &DL;
  const Function &Original;
  SetVector<CallBase *> &ToInline;
  /// Phis on the way, with what was asked of them: a piece of the value
  /// ('v'), of an aggregate's field ('a'), of memory at an offset ('m').
  DenseSet<std::tuple<const Value *, uint64_t, char>> Visiting;
};

/// What the check found for one launch.
struct Verdict {
  enum KindT { FromRecord, FromCaller, NotFromRecord } Kind = FromRecord;
  std::string Why; // NotFromRecord: "block 256", "a block whose y ..."
  void join(const Verdict &Other) {
    if (Other.Kind > Kind)
      *this = Other;
  }
};

/// The record's fields, by byte offset in energy::choice.
std::string fieldName(uint64_t Offset) {
  switch (Offset) {
  case 0:
  case 4:
  case 8:
    return "block[" + std::to_string(Offset / 4) + "]";
  case 12:
    return "dynamic_smem";
  case 16:
    return "items_per_thread";
  default:
    return "bytes at offset " + std::to_string(Offset);
  }
}

/// The verdict on a block whose components (x, y, z) come from Pieces, for
/// a launch of Kernel: each must be its record's field, z may be 1 (the
/// plugin keeps z).
Verdict judge(const std::array<SmallVector<Leaf, 4>, 3> &Pieces,
              StringRef Kernel) {
  Verdict V;
  std::optional<std::string> Problem;
  BlockShape Constant = {0, 0, 0};
  bool AllConstant = true;
  for (unsigned D = 0; D < 3; ++D) {
    const SmallVector<Leaf, 4> &Leaves = Pieces[D];
    if (Leaves.empty() && !Problem)
      Problem = "a block whose " + std::string(1, "xyz"[D]) + " is computed";
    bool OneConstant = Leaves.size() == 1 && Leaves[0].Kind == Leaf::Constant;
    AllConstant = AllConstant && OneConstant;
    if (OneConstant)
      Constant[D] = unsigned(Leaves[0].Value);
    for (const Leaf &L : Leaves) {
      std::string Bad;
      switch (L.Kind) {
      case Leaf::Record:
        if (L.Kernel != Kernel)
          Bad = "comes from the record of '" + L.Kernel + "'";
        else if (L.Value != 4 * D)
          Bad = "is its record's " + fieldName(L.Value);
        break;
      case Leaf::Constant:
        if (!(D == 2 && L.Value == 1))
          Bad = "is the constant " + std::to_string(L.Value);
        break;
      case Leaf::Parameter:
        if (V.Kind == Verdict::FromRecord)
          V.Kind = Verdict::FromCaller;
        break;
      case Leaf::Unknown:
        Bad = "is " + L.Why;
        break;
      }
      if (!Bad.empty() && !Problem)
        Problem = "a block whose " + std::string(1, "xyz"[D]) + " " + Bad;
    }
  }
  if (!Problem)
    return V;
  V.Kind = Verdict::NotFromRecord;
  V.Why = AllConstant ? "block " + formatBlockShape(Constant) : *Problem;
  return V;
}

/// Checks launches on copies of the functions that hold them.
class Checker {
public:
  explicit Checker(Module &M)
      : M(M), Kind(M.getContext().getMDKindID(SiteKind)) {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    Cleanup.addPass(SROAPass(SROAOptions::PreserveCFG));
    Cleanup.addPass(EarlyCSEPass());
    Cleanup.addPass(InstCombinePass());
  }

  unsigned kind() const { return Kind; }

  /// The verdict on each launch tagged Tags[i] in Root (after inlining
  /// Through, a call in Root, first): the worst over its copies.
  std::map<unsigned, Verdict> check(Function &Root, CallBase *Through,
                                    ArrayRef<unsigned> Tags,
                                    ArrayRef<std::string> Kernels) {
    ValueToValueMapTy VMap;
    Function *Copy = CloneFunction(&Root, VMap);
    // -O0 functions are optnone: the copy is ours to simplify.
    Copy->removeFnAttr(Attribute::OptimizeNone);
    Copy->removeFnAttr(Attribute::NoInline);
    std::map<unsigned, Verdict> Verdicts;
    if (Through) {
      InlineFunctionInfo IFI;
      if (!InlineFunction(*cast<CallBase>(VMap[Through]), IFI).isSuccess()) {
        for (size_t I = 0; I < Tags.size(); ++I)
          Verdicts[Tags[I]] = {Verdict::NotFromRecord,
                               "a block passed through a call the check "
                               "cannot follow"};
        erase(*Copy);
        return Verdicts;
      }
    }
    constexpr unsigned MaxRounds = 16;
    for (unsigned Round = 0;; ++Round) {
      Cleanup.run(*Copy, FAM);
      FAM.clear(*Copy, Copy->getName());
      SetVector<CallBase *> ToInline;
      Tracer T(M.getDataLayout(), Root, ToInline);
      Verdicts.clear();
      for (Instruction &I : instructions(*Copy)) {
        auto *Push = dyn_cast<CallBase>(&I);
        MDNode *Tag = Push ? Push->getMetadata(Kind) : nullptr;
        if (!Tag)
          continue;
        unsigned Id = unsigned(
            mdconst::extract<ConstantInt>(Tag->getOperand(0))->getZExtValue());
        auto It = llvm::find(Tags, Id);
        if (It == Tags.end() || Push->arg_size() < 4)
          continue;
        std::array<SmallVector<Leaf, 4>, 3> Pieces = {
            T.leaves(Push->getArgOperand(2), 0),
            T.leaves(Push->getArgOperand(2), 32),
            T.leaves(Push->getArgOperand(3), 0)};
        Verdicts[Id].join(judge(Pieces, Kernels[It - Tags.begin()]));
      }
      if (ToInline.empty() || Round == MaxRounds ||
          !inlineAll(*Copy, ToInline.getArrayRef()))
        break;
    }
    erase(*Copy);
    return Verdicts;
  }

private:
  /// Inlines the calls the tracer stopped at; false if none could be.
  bool inlineAll(Function &Copy, ArrayRef<CallBase *> Calls) {
    CallCycles Cycles(Copy);
    bool Any = false;
    for (CallBase *Call : Calls) {
      Function *Callee = Call->getCalledFunction();
      if (!Callee || Callee->isDeclaration() || Cycles.isRecursive(*Callee) ||
          Callee->getName().contains(GetterPrefix))
        continue;
      InlineFunctionInfo IFI;
      Any |= InlineFunction(*Call, IFI).isSuccess();
    }
    return Any;
  }

  void erase(Function &Copy) {
    FAM.clear(Copy, Copy.getName());
    Copy.eraseFromParent();
  }

  Module &M;
  unsigned Kind;
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  FunctionPassManager Cleanup;
};

/// One `kernel<<<...>>>` of an opted-in kernel.
struct Site {
  CallBase *Push;
  std::string Kernel;
};

/// "app.cu:12", or the file and function where the IR has no lines.
std::string where(const Instruction &I) {
  if (const DebugLoc &DL = I.getDebugLoc())
    return (DL->getFilename() + ":" + Twine(DL.getLine())).str();
  return I.getModule()->getSourceFileName() + ": in function '" +
         demangle(I.getFunction()->getName().str()) + "' (-g gives the line)";
}

/// Reports each launch whose block does not come from its kernel's record,
/// following blocks that come from parameters to the callers.
class SiteReporter {
public:
  SiteReporter(Module &M, std::vector<Site> &Sites)
      : M(M), Sites(Sites), C(M) {}

  void run() {
    for (size_t I = 0; I < Sites.size(); ++I)
      Sites[I].Push->setMetadata(
          C.kind(), MDNode::get(M.getContext(),
                                ConstantAsMetadata::get(ConstantInt::get(
                                    Type::getInt32Ty(M.getContext()), I))));
    MapVector<Function *, std::vector<unsigned>> ByFunction;
    for (size_t I = 0; I < Sites.size(); ++I)
      ByFunction[Sites[I].Push->getFunction()].push_back(I);
    for (auto &[F, Tags] : ByFunction) {
      std::vector<std::string> Kernels;
      for (unsigned T : Tags)
        Kernels.push_back(Sites[T].Kernel);
      auto Verdicts = C.check(*F, nullptr, Tags, Kernels);
      for (unsigned T : Tags)
        resolve(T, *F, Verdicts[T], nullptr, 0);
    }
    for (Site &S : Sites)
      S.Push->setMetadata(C.kind(), nullptr);
    // In the source's order: a launch's error may come from a later caller.
    llvm::stable_sort(
        Errors, [](const auto &A, const auto &B) { return A.first < B.first; });
    for (auto &[Line, Msg] : Errors)
      M.getContext().emitError(Msg);
  }

private:
  static constexpr unsigned MaxCallerDepth = 3;

  void resolve(unsigned Tag, Function &F, const Verdict &V, CallBase *Via,
               unsigned Depth) {
    const Site &S = Sites[Tag];
    if (V.Kind == Verdict::NotFromRecord) {
      std::string Msg =
          (Via ? where(*Via) + ": kernel '" + S.Kernel +
                     "' (ENERGY_KERNEL) is launched at " + where(*S.Push) +
                     " through this call of '" +
                     demangle(Via->getCalledFunction()->getName().str()) +
                     "' with "
               : where(*S.Push) + ": kernel '" + S.Kernel +
                     "' (ENERGY_KERNEL) is launched with ") +
          V.Why +
          ", not with the block of its launch record: the plugin may "
          "compile it for another block; launch it with ENERGY_LAUNCH(items, " +
          S.Kernel + ") or a block from ENERGY_BLOCK_DIM(" + S.Kernel + ")";
      const Instruction &At = Via ? *Via : *S.Push;
      Errors.push_back(
          {At.getDebugLoc() ? At.getDebugLoc().getLine() : 0, std::move(Msg)});
      return;
    }
    if (V.Kind != Verdict::FromCaller)
      return;
    // The block comes from F's parameters: check the callers this module
    // has; others are out of reach.
    bool Unseen = !F.hasLocalLinkage() || Depth == MaxCallerDepth;
    for (User *U : F.users()) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledFunction() != &F) {
        Unseen = true;
        continue;
      }
      if (Depth == MaxCallerDepth || Call->getFunction() == &F)
        continue;
      auto Verdicts = C.check(*Call->getFunction(), Call, {Tag}, {S.Kernel});
      resolve(Tag, *Call->getFunction(), Verdicts[Tag], Call, Depth + 1);
    }
    if (!Unseen)
      return;
    OptimizationRemarkEmitter ORE(S.Push->getFunction());
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "LaunchNotChecked", S.Push)
             << "kernel " << ore::NV("Kernel", S.Kernel)
             << " is launched with a block from a parameter of '"
             << ore::NV("Function", demangle(F.getName().str()))
             << "', which other files may call: their blocks are not checked "
                "(they must come from ENERGY_BLOCK_DIM("
             << S.Kernel << "))";
    });
  }

  Module &M;
  std::vector<Site> &Sites;
  Checker C;
  std::vector<std::pair<unsigned, std::string>> Errors; // by line
};

} // namespace

PreservedAnalyses EnergyLaunchCheckPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  if (isNVPTXModule(M))
    return PreservedAnalyses::all();
  const Function *Push = M.getFunction("__cudaPushCallConfiguration");
  if (!Push)
    return PreservedAnalyses::all();
  auto Stubs = optedInStubs(M);
  if (Stubs.empty())
    return PreservedAnalyses::all();
  // In the module's order, for messages in the source's.
  SmallPtrSet<const Function *, 8> Launching;
  for (const User *U : Push->users())
    if (auto *Call = dyn_cast<CallBase>(U))
      Launching.insert(Call->getFunction());
  std::vector<Site> Sites;
  for (Function &F : M) {
    if (!Launching.count(&F))
      continue;
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || Call->getCalledFunction() != Push)
        continue;
      const CallBase *Kernel = guardedCall(*Call);
      const Function *Stub = Kernel ? Kernel->getCalledFunction() : nullptr;
      auto It = Stub ? Stubs.find(Stub) : Stubs.end();
      if (It != Stubs.end())
        Sites.push_back({Call, It->second});
    }
  }
  if (Sites.empty())
    return PreservedAnalyses::all();
  // The copies' inlining may declare functions (intrinsics) the module did
  // not have: they go with the copies.
  SmallPtrSet<const Function *, 32> Before;
  for (const Function &F : M)
    Before.insert(&F);
  SiteReporter(M, Sites).run();
  for (Function &F : make_early_inc_range(M))
    if (!Before.count(&F) && F.isDeclaration() && F.use_empty())
      F.eraseFromParent();
  return PreservedAnalyses::all();
}

} // namespace energy
