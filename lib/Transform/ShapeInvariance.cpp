//===- ShapeInvariance.cpp - Proof that a kernel ignores its block --------===//
//
// Every integer a non-arithmetic instruction reads (an address, a stored
// value, a compared value, a call argument ...) is taken apart by
// ScalarEvolution into a polynomial over atoms: the thread-identity
// registers of the free axes, one digit per loop (the iteration of an
// affine recurrence), and opaque values (arguments, loads, calls) whose own
// dependence on the work unit was found the same way. Along each free axis
// the registers must form one mixed-radix work unit (see the header); what
// remains may hold opaque values and the digits of loops that do a unit's
// work, nothing else.
//
//===----------------------------------------------------------------------===//

#include "ShapeInvariance.h"

#include "DominatingConditions.h"
#include "ThreadDependence.h"
#include "TripCounts.h"
#include "TuningSpec.h"
#include "WorkUnits.h"

#include "energy/FeatureAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <optional>
#include <vector>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace energy {
namespace {

const SCEV *scevOf(const Atom &A) {
  return static_cast<const SCEV *>(A.key());
}

struct Obstacle {
  std::string Why;
  std::string Where;
};

/// Where I is in the kernel's source: the line of the kernel's own code
/// that reaches it (inlined helpers and headers say little), else the next
/// line in its block (phis and hoisted code have none).
std::string whereIs(const Instruction *I) {
  for (; I; I = I->getNextNode()) {
    const DILocation *Loc = I->getDebugLoc();
    while (Loc && Loc->getInlinedAt())
      Loc = Loc->getInlinedAt();
    if (Loc && Loc->getLine())
      return (Loc->getFilename() + ":" + Twine(Loc->getLine())).str();
  }
  return "";
}

class Prover {
public:
  Prover(Function &F, std::array<bool, 3> Free)
      : F(F), Free(Free), DT(F), PDT(F), LI(DT),
        TLII(Triple(F.getParent()->getTargetTriple())), TLI(TLII, &F), AC(F),
        SE(F, TLI, AC, DT, LI) {
    for (Loop *L : LI.getLoopsInPreorder()) {
      LoopIndex[L] = Loops.size();
      Loops.push_back(L);
    }
  }

  ShapeProof run();

private:
  Function &F;
  std::array<bool, 3> Free;
  DominatorTree DT;
  PostDominatorTree PDT;
  LoopInfo LI;
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  ScalarEvolution SE;
  std::vector<const Loop *> Loops;
  DenseMap<const Loop *, unsigned> LoopIndex;

  /// Levels of instructions ScalarEvolution cannot take apart, and of
  /// stack slots (the join of what is stored into them).
  DenseMap<const Value *, Level> Opaque;
  DenseMap<const Value *, Level> Slots;
  std::map<const SCEV *, std::optional<Poly>> PolyCache;
  std::map<unsigned, std::optional<Poly>> RadixCache;
  /// What takeUnitChain asks about atoms.
  AtomFacts Facts{[this](const Atom &A) { return atomClass(A); },
                  [this](unsigned Loop) -> const std::optional<Poly> & {
                    return radix(Loop);
                  }};

  // What the recording pass found.
  bool Recording = false;
  std::optional<Obstacle> First;
  const Instruction *At = nullptr; // the instruction being recorded
  UnitNumbering Units;
  std::map<unsigned, const Instruction *> WorkUses;  // loop -> first use
  std::vector<const Instruction *> Accesses;         // need a bound

  void fail(std::string Why, const Instruction *I) {
    if (!First)
      First = Obstacle{std::move(Why), whereIs(I)};
  }

  std::optional<std::string> screen(const Instruction &I);
  std::optional<Poly> toPoly(const SCEV *S);
  std::optional<Poly> computePoly(const SCEV *S);
  Classified classify(const SCEV *S);
  Classified classifyValue(const Value *V);
  Classified atomClass(const Atom &A);
  const std::optional<Poly> &radix(unsigned Loop);
  Level opaqueLevel(const Instruction &I);
  bool transparent(const Instruction &I);
  void settle();
  void record();
  void checkLoops();
  bool bounded(const Instruction &I, unsigned Axis);
  bool impliesBound(const Value *Cond, bool OnTrue, unsigned Axis,
                    unsigned Depth = 0);
  bool isUnit(const Value *V, unsigned Axis);
  /// Whether I only decides whether loop Index goes on (a compare its
  /// exiting branches read): a loop's own counting is no use of its digit.
  bool isExitTest(unsigned Index, const Instruction *I) const {
    const Loop *L = Loops[Index];
    return isa<ICmpInst>(I) && !I->use_empty() &&
           llvm::all_of(I->users(), [&](const User *U) {
             auto *Br = dyn_cast<BranchInst>(U);
             return Br && L->isLoopExiting(Br->getParent());
           });
  }
};

//===----------------------------------------------------------------------===//
// What is never proven
//===----------------------------------------------------------------------===//

/// The address a load, store or atomic accesses.
const Value *accessedPointer(const Instruction &I) {
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    return Ptr;
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
    return I.getOperand(0);
  return nullptr;
}

bool isSharedGlobal(const Value *V) {
  auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  return GV && GV->getAddressSpace() == 3;
}

/// Whether Asm is arithmetic on its operands and registers of its own, and
/// nothing else: no side effect or memory clobber, only instructions of a
/// list that reads no thread-shared state (the carry arithmetic of CUDA's
/// trigonometric functions, half conversions), and every register it names
/// declared in it (no %laneid, %clock, %tid ...).
bool isThreadArithmetic(const InlineAsm &Asm) {
  static const StringSet<> Arithmetic = {
      "mov",  "cvt",   "add",   "addc",  "sub",    "subc",  "mul",
      "mad",  "madc",  "mul24", "mad24", "fma",    "div",   "rem",
      "abs",  "neg",   "min",   "max",   "and",    "or",    "xor",
      "not",  "cnot",  "shl",   "shr",   "shf",    "selp",  "setp",
      "set",  "slct",  "bfind", "bfe",   "bfi",    "brev",  "popc",
      "clz",  "prmt",  "lop3",  "sin",   "cos",    "ex2",   "lg2",
      "rcp",  "sqrt",  "rsqrt", "tanh",  "testp",  "copysign", "dp4a",
      "dp2a", "sad"};
  StringRef Constraints = Asm.getConstraintString();
  if (Asm.hasSideEffects() || Constraints.contains("~{memory}") ||
      Constraints.contains('*')) // an indirect (memory) operand
    return false;
  SmallVector<StringRef, 8> Statements, Declared;
  StringRef(Asm.getAsmString()).split(Statements, ';');
  for (StringRef Statement : Statements) {
    Statement = Statement.trim(" \t\n{}");
    if (Statement.empty())
      continue;
    if (Statement.consume_front(".reg")) {
      // `.reg .b32 %r<4>`, `.reg .pred p, q`: the names it declares.
      for (StringRef Item : split(Statement, ',')) {
        auto [Head, Name] = Item.trim().rsplit(' ');
        Declared.push_back((Name.empty() ? Head : Name).split('<').first);
      }
      continue;
    }
    if (Statement.starts_with("@")) // a predicate guard
      Statement = Statement.split(' ').second.trim();
    if (!Arithmetic.contains(Statement.split('.').first.split(' ').first))
      return false;
  }
  // Every register named is one the assembly declared.
  StringRef Text = Asm.getAsmString();
  for (size_t At = Text.find('%'); At != StringRef::npos;
       At = Text.find('%', At + 1)) {
    StringRef Name = Text.drop_front(At).take_while(
        [](char C) { return C == '%' || isAlnum(C) || C == '_'; });
    StringRef Prefix = Name.rtrim("0123456789");
    if (!llvm::is_contained(Declared, Name) &&
        !llvm::is_contained(Declared, Prefix))
      return false;
  }
  return true;
}

/// Libdevice math, a declaration when the IR is read without libdevice:
/// functions of their arguments.
bool isKnownPureLibraryCall(StringRef Name) {
  return Name.starts_with("__nv_");
}

std::optional<std::string> Prover::screen(const Instruction &I) {
  for (const Value *Op : I.operands())
    if (isSharedGlobal(Op))
      return "it uses shared memory ('" +
             demangle(Op->stripPointerCasts()->getName()) +
             "'), whose layout follows the block";
  if (const Value *Ptr = accessedPointer(I);
      Ptr && Ptr->getType()->getPointerAddressSpace() == 3)
    return std::string("it uses shared memory, whose layout follows the "
                       "block");
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return std::nullopt;
  if (auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand()))
    return isHintMarker(*Call) || isThreadArithmetic(*Asm)
               ? std::nullopt
               : std::optional<std::string>(
                     "it runs inline assembly ('" +
                     StringRef(Asm->getAsmString()).split('\n').first.str() +
                     "')");
  const Function *Callee = Call->getCalledFunction();
  if (!Callee)
    return std::string("it makes an indirect call");
  if (auto Read = readsSpecialRegister(Call))
    return Read->Reg == SpecialRegister::LaneId
               ? std::optional<std::string>("it reads its lane (%laneid)")
               : std::nullopt;
  StringRef Name = Callee->getName();
  if (Callee->isIntrinsic()) {
    if (isa<DbgInfoIntrinsic>(Call) || Call->isLifetimeStartOrEnd() ||
        isa<AssumeInst>(Call) ||
        Callee->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl)
      return std::nullopt;
    if (Name.starts_with("llvm.nvvm.barrier") ||
        Name.starts_with("llvm.nvvm.bar.") ||
        Name.starts_with("llvm.nvvm.cp.async"))
      return "it synchronizes its block (" + Name.str() + ")";
    if (Call->isConvergent())
      return "it uses warp- or block-level operations (" + Name.str() + ")";
    if (Name.starts_with("llvm.nvvm.read.ptx.sreg."))
      return "it reads %" + Name.drop_front(strlen("llvm.nvvm.read.ptx.sreg."))
                                .str();
    if (Name.starts_with("llvm.nvvm.membar") || isa<MemIntrinsic>(Call) ||
        Callee->onlyReadsMemory() || Name.starts_with("llvm.nvvm.atomic"))
      return std::nullopt;
    if (Callee->doesNotAccessMemory())
      return std::nullopt;
    return "it calls " + Name.str();
  }
  if (Name == "__assertfail" || isKnownPureLibraryCall(Name))
    return std::nullopt;
  if (Name == "vprintf")
    return std::string("it prints (printf)");
  if (!Callee->isDeclaration())
    return "it calls '" + Name.str() + "', which is not inlined";
  return "it calls '" + Name.str() + "', whose code the analysis cannot see";
}

//===----------------------------------------------------------------------===//
// Integers as polynomials
//===----------------------------------------------------------------------===//

std::optional<Poly> Prover::toPoly(const SCEV *S) {
  auto It = PolyCache.find(S);
  if (It != PolyCache.end())
    return It->second;
  std::optional<Poly> P = computePoly(S);
  PolyCache[S] = P;
  return P;
}

std::optional<Poly> Prover::computePoly(const SCEV *S) {
  switch (S->getSCEVType()) {
  case scConstant: {
    const APInt &V = cast<SCEVConstant>(S)->getAPInt();
    if (V.getSignificantBits() > 63)
      return Poly::atom(Atom::opaque(S));
    return Poly::constant(V.getSExtValue());
  }
  case scUnknown: {
    auto Read = readsSpecialRegister(cast<SCEVUnknown>(S)->getValue());
    if (!Read || Read->Reg == SpecialRegister::LaneId)
      return Poly::atom(Atom::opaque(S));
    unsigned Axis = Read->Axis;
    switch (Read->Reg) {
    case SpecialRegister::ThreadIdx:
      return Free[Axis] ? Poly::atom(Atom::shape(Reg::Tid, Axis))
                        : Poly::constant(0);
    case SpecialRegister::BlockDim:
      return Free[Axis] ? Poly::atom(Atom::shape(Reg::Ntid, Axis))
                        : Poly::constant(1);
    case SpecialRegister::BlockIdx:
      return Free[Axis] ? Poly::atom(Atom::shape(Reg::Ctaid, Axis))
                        : Poly::atom(Atom::opaque(S));
    case SpecialRegister::GridDim:
      return Free[Axis] ? Poly::atom(Atom::shape(Reg::Nctaid, Axis))
                        : Poly::atom(Atom::opaque(S));
    default:
      return Poly::atom(Atom::opaque(S));
    }
  }
  case scZeroExtend:
  case scSignExtend:
  case scPtrToInt:
    return toPoly(cast<SCEVCastExpr>(S)->getOperand());
  case scTruncate:
    // To 32 bits or more the index keeps its value; below, it wraps.
    if (S->getType()->getScalarSizeInBits() >= 32)
      return toPoly(cast<SCEVCastExpr>(S)->getOperand());
    return Poly::atom(Atom::opaque(S));
  case scAddExpr: {
    Poly Sum;
    for (const SCEV *Op : cast<SCEVAddExpr>(S)->operands()) {
      auto P = toPoly(Op);
      if (!P || !(P = add(std::move(Sum), *P)))
        return std::nullopt;
      Sum = std::move(*P);
    }
    return Sum;
  }
  case scMulExpr: {
    Poly Product = Poly::constant(1);
    for (const SCEV *Op : cast<SCEVMulExpr>(S)->operands()) {
      auto P = toPoly(Op);
      if (!P || !(P = mul(Product, *P)))
        return std::nullopt;
      Product = std::move(*P);
    }
    return Product;
  }
  case scAddRecExpr: {
    const auto *AR = cast<SCEVAddRecExpr>(S);
    auto Loop = LoopIndex.find(AR->getLoop());
    if (!AR->isAffine() || Loop == LoopIndex.end())
      return Poly::atom(Atom::opaque(S));
    auto Start = toPoly(AR->getStart());
    auto Step = toPoly(AR->getStepRecurrence(SE));
    if (!Start || !Step)
      return std::nullopt;
    auto Walk = mul(*Step, Poly::atom(Atom::digit(Loop->second)));
    return Walk ? add(std::move(*Start), *Walk) : std::nullopt;
  }
  case scCouldNotCompute:
    return std::nullopt;
  default: // udiv, min/max, vscale: functions of their operands
    return Poly::atom(Atom::opaque(S));
  }
}

/// A loop's trip count as its digit's radix: the iterations its body runs
/// (the exit count of a loop tested at the top, one more at the bottom),
/// invariant; none otherwise.
const std::optional<Poly> &Prover::radix(unsigned Index) {
  auto [It, New] = RadixCache.try_emplace(Index);
  if (!New)
    return It->second;
  const Loop *L = Loops[Index];
  BasicBlock *Exiting = L->getExitingBlock();
  if (!Exiting ||
      (Exiting != L->getHeader() && Exiting != L->getLoopLatch()))
    return It->second;
  const SCEV *Count = SE.getExitCount(L, Exiting);
  if (isa<SCEVCouldNotCompute>(Count))
    return It->second;
  // `k < n` counts max(n, 0): at n <= 0 the body never runs, so no unit
  // is numbered and n serves as well.
  if (auto *Max = dyn_cast<SCEVSMaxExpr>(Count);
      Max && Max->getNumOperands() == 2 && Max->getOperand(0)->isZero())
    Count = Max->getOperand(1);
  auto P = toPoly(Count);
  if (P && Exiting != L->getHeader())
    P = add(std::move(*P), Poly::constant(1));
  if (P && invariant(*P, Facts))
    It->second = std::move(*P);
  return RadixCache[Index];
}

//===----------------------------------------------------------------------===//
// Work units
//===----------------------------------------------------------------------===//

Classified Prover::atomClass(const Atom &A) {
  const SCEV *S = scevOf(A);
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    const Value *V = U->getValue();
    // Only a fixed axis's registers are opaque: its block index differs
    // between blocks, the rest (gridDim) is the same everywhere.
    if (auto Read = readsSpecialRegister(V))
      return atLevel(Read->Reg == SpecialRegister::BlockIdx ? Level::Block
                                                            : Level::Inv);
    auto It = Opaque.find(V);
    return atLevel(It == Opaque.end() ? Level::Inv : It->second);
  }
  // A function of its operands (udiv, min/max, a non-affine recurrence, a
  // narrowing cast): each operand must be invariant or a unit on its own.
  Classified C;
  for (const SCEV *Op : S->operands()) {
    Classified O = classify(Op);
    if (O.L > C.L)
      C = O;
  }
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && Recording)
    if (auto It = LoopIndex.find(AR->getLoop());
        It != LoopIndex.end() && !isExitTest(It->second, At))
      WorkUses.try_emplace(It->second, At);
  C.Chains = {};
  return C;
}

Classified Prover::classify(const SCEV *S) {
  Classified Result =
      classifyUnits(toPoly(S), Free, Facts, [&](unsigned Loop) {
        if (Recording && !isExitTest(Loop, At))
          WorkUses.try_emplace(Loop, At);
      });
  if (Recording)
    for (unsigned Axis = 0; Axis < 3; ++Axis)
      if (Result.Chains[Axis])
        if (auto Why = Units.note(Axis, *Result.Chains[Axis]))
          fail(*Why, At);
  return Result;
}

Classified Prover::classifyValue(const Value *V) {
  if (isa<Constant, Argument, BasicBlock, MetadataAsValue, InlineAsm>(V))
    return {};
  if (SE.isSCEVable(V->getType()))
    return classify(SE.getSCEV(const_cast<Value *>(V)));
  auto It = Opaque.find(V);
  return atLevel(It == Opaque.end() ? Level::Inv : It->second);
}

//===----------------------------------------------------------------------===//
// Levels of the values ScalarEvolution cannot take apart
//===----------------------------------------------------------------------===//

/// Whether ScalarEvolution takes I apart: its users then see its parts.
bool Prover::transparent(const Instruction &I) {
  return SE.isSCEVable(I.getType()) && !isa<SCEVUnknown>(SE.getSCEV(
                                           const_cast<Instruction *>(&I)));
}

Level Prover::opaqueLevel(const Instruction &I) {
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    const Value *Slot = getUnderlyingObject(Load->getPointerOperand());
    Level L = classifyValue(Load->getPointerOperand()).L;
    if (isa<AllocaInst>(Slot))
      L = join(L, Slots.lookup(Slot));
    return L;
  }
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
    return Level::Item; // what other units left there
  if (auto *Call = dyn_cast<CallBase>(&I);
      Call && Call->getCalledFunction() &&
      Call->getCalledFunction()->getName().starts_with("llvm.nvvm.atomic"))
    return Level::Item;
  Level L = Level::Inv;
  for (const Value *Op : I.operands())
    L = join(L, classifyValue(Op).L);
  return L;
}

/// Levels to a fixed point: phis of loops feed their own inputs.
void Prover::settle() {
  ReversePostOrderTraversal<Function *> RPO(&F);
  for (unsigned Round = 0; Round < 16; ++Round) {
    bool Changed = false;
    for (BasicBlock *BB : RPO)
      for (Instruction &I : *BB) {
        if (auto *Store = dyn_cast<StoreInst>(&I)) {
          const Value *Slot = getUnderlyingObject(Store->getPointerOperand());
          if (!isa<AllocaInst>(Slot))
            continue;
          Level L = join(classifyValue(Store->getValueOperand()).L,
                         classifyValue(Store->getPointerOperand()).L);
          Level &Old = Slots[Slot];
          if (L > Old) {
            Old = L;
            Changed = true;
          }
          continue;
        }
        if (I.getType()->isVoidTy() || transparent(I) ||
            readsSpecialRegister(&I))
          continue;
        Level L = opaqueLevel(I);
        Level &Old = Opaque[&I];
        if (L > Old) {
          Old = L;
          Changed = true;
        }
      }
    if (!Changed)
      return;
  }
}

//===----------------------------------------------------------------------===//
// Recording: units, loops and accesses
//===----------------------------------------------------------------------===//

/// Whether L writes into Slot, a stack slot: a store, or a call given it.
bool writesInLoop(const Loop &L, const Value *Slot) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      if (auto *Store = dyn_cast<StoreInst>(&I);
          Store && getUnderlyingObject(Store->getPointerOperand()) == Slot)
        return true;
      if (auto *Call = dyn_cast<CallBase>(&I))
        for (const Value *Arg : Call->args())
          if (Arg->getType()->isPointerTy() &&
              getUnderlyingObject(Arg) == Slot)
            return true;
    }
  return false;
}

/// Whether I touches memory outside its thread: a store, an atomic, a call
/// that writes, or a load through an index that depends on the unit.
bool sideEffect(const Instruction &I) {
  if (isa<StoreInst, AtomicRMWInst, AtomicCmpXchgInst>(I))
    return !isa<AllocaInst>(getUnderlyingObject(accessedPointer(I)));
  if (const auto *Call = dyn_cast<CallBase>(&I))
    return !isa<DbgInfoIntrinsic>(Call) && !Call->isLifetimeStartOrEnd() &&
           !isa<AssumeInst>(Call) && !isHintMarker(*Call) &&
           Call->mayWriteToMemory() && !readsSpecialRegister(Call);
  return false;
}

void Prover::record() {
  Recording = true;
  for (Instruction &I : instructions(F)) {
    if (transparent(I) || readsSpecialRegister(&I) ||
        isa<DbgInfoIntrinsic>(I) || isa<AssumeInst>(I))
      continue;
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && (Call->isLifetimeStartOrEnd() || isHintMarker(*Call)))
      continue;
    At = &I;
    bool UnitAddress = false;
    for (const Use &U : I.operands()) {
      Classified C = classifyValue(U.get());
      if (C.L == Level::Bad && !C.Why.empty())
        fail(C.Why, &I);
      if (C.L == Level::Item && U.get() == accessedPointer(I))
        UnitAddress = true;
    }
    if (sideEffect(I)) {
      // An invariant value stored at an invariant address by every thread
      // is the same store from any number of threads (one that only some
      // threads run, those past the work, is not).
      auto *Store = dyn_cast<StoreInst>(&I);
      bool Idempotent =
          Store && PDT.dominates(Store->getParent(), &F.getEntryBlock()) &&
          classifyValue(Store->getPointerOperand()).L == Level::Inv &&
          classifyValue(Store->getValueOperand()).L == Level::Inv;
      if (!Idempotent)
        Accesses.push_back(&I);
    } else if (isa<LoadInst>(I) && UnitAddress) {
      Accesses.push_back(&I);
    }
  }
  Recording = false;
}

/// Whether V, an integer, is a unit along Axis (a positive multiple of it,
/// plus anything invariant).
bool Prover::isUnit(const Value *V, unsigned Axis) {
  if (!SE.isSCEVable(V->getType()))
    return false;
  Classified C = classify(SE.getSCEV(const_cast<Value *>(V)));
  if (C.L != Level::Item || !C.Chains[Axis] || !Units.of(Axis) ||
      C.Chains[Axis]->Digits != Units.of(Axis)->Digits)
    return false;
  // Nothing else that varies between threads but the iteration numbers of
  // loops, added: `y * w + x < w * h` bounds x by w * (h - y), not by the w
  // the grid covers.
  if (C.Rest != Level::Inv || !C.RestDigitsAdd ||
      llvm::count_if(C.Chains, [](const auto &Chain) {
        return Chain.has_value();
      }) != 1)
    return false;
  // A positive factor: constants, and tunables (positive by declaration).
  for (const auto &[M, Coef] : C.Chains[Axis]->Scale.Terms) {
    if (Coef <= 0)
      return false;
    for (const Atom &A : M) {
      auto *U = dyn_cast<SCEVUnknown>(scevOf(A));
      auto *Load = U ? dyn_cast<LoadInst>(U->getValue()) : nullptr;
      auto *GV = Load ? dyn_cast<GlobalVariable>(getUnderlyingObject(
                            Load->getPointerOperand()))
                      : nullptr;
      if (!(GV && GV->getName().starts_with(TunablePrefix)) &&
          !SE.isKnownPositive(scevOf(A)))
        return false;
    }
  }
  return true;
}

/// Whether Cond, on the edge taken when it is OnTrue, bounds the unit of
/// Axis from above by something invariant.
bool Prover::impliesBound(const Value *Cond, bool OnTrue, unsigned Axis,
                          unsigned Depth) {
  if (Depth > 8)
    return false;
  const Value *A, *B;
  if (match(Cond, m_Not(m_Value(A))))
    return impliesBound(A, !OnTrue, Axis, Depth + 1);
  if (OnTrue && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))))
    return impliesBound(A, true, Axis, Depth + 1) ||
           impliesBound(B, true, Axis, Depth + 1);
  if (!OnTrue && match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))
    return impliesBound(A, false, Axis, Depth + 1) ||
           impliesBound(B, false, Axis, Depth + 1);
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp)
    return false;
  ICmpInst::Predicate Pred =
      OnTrue ? Cmp->getPredicate() : Cmp->getInversePredicate();
  const Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
  if (!ICmpInst::isLT(Pred) && !ICmpInst::isLE(Pred)) {
    if (!ICmpInst::isGT(Pred) && !ICmpInst::isGE(Pred))
      return false;
    std::swap(L, R);
  }
  return isUnit(L, Axis) && classifyValue(R).L == Level::Inv;
}

/// Whether I runs only for units below a bound on Axis: inside the axis's
/// grid-stride loop, or behind a dominating bound check.
bool Prover::bounded(const Instruction &I, unsigned Axis) {
  if (Units.of(Axis) && Units.of(Axis)->TopLoop &&
      Loops[*Units.of(Axis)->TopLoop]->contains(&I))
    return true;
  return anyDominatingCondition(I, DT, [&](const Value *Cond, bool Held) {
    return impliesBound(Cond, Held, Axis);
  });
}

/// Loops over a thread's units: a known count (or the grid-stride loop
/// `i < n` on top), nothing carried from one unit to the next or out, and
/// their counter used for nothing but the unit.
void Prover::checkLoops() {
  for (const auto &[Index, Axis] : Units.itemLoops()) {
    const Loop *L = Loops[Index];
    if (auto Use = WorkUses.find(Index); Use != WorkUses.end()) {
      fail("the counter of a loop over a thread's work items is used for "
           "more than the item",
           Use->second);
      return;
    }
    if (!radix(Index)) {
      // The grid-stride loop: one exit, `unit < n`.
      BasicBlock *Exiting = L->getExitingBlock();
      auto *Br = Exiting ? dyn_cast<BranchInst>(Exiting->getTerminator())
                         : nullptr;
      if (!Br || !Br->isConditional() ||
          !impliesBound(Br->getCondition(), L->contains(Br->getSuccessor(0)),
                        Axis)) {
        fail("a loop over a thread's work items (a grid-stride loop) has "
             "an exit other than its bound check on the index",
             Exiting ? Exiting->getTerminator() : nullptr);
        return;
      }
    }
    for (PHINode &Phi : L->getHeader()->phis()) {
      if (SE.isSCEVable(Phi.getType()))
        if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
            AR && AR->getLoop() == L)
          continue;
      BasicBlock *Latch = L->getLoopLatch();
      if (!Latch || classifyValue(Phi.getIncomingValueForBlock(Latch)).L >=
                        Level::Item) {
        fail("a loop over a thread's work items carries a value from one "
             "item to the next (a per-thread partial result, whose items "
             "change with the block)",
             &Phi);
        return;
      }
    }
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        for (const User *U : I.users())
          if (auto *UI = dyn_cast<Instruction>(U);
              UI && !L->contains(UI) && classifyValue(&I).L >= Level::Item) {
            fail("a value computed in a loop over a thread's work items is "
                 "used after the loop",
                 UI);
            return;
          }
        // Local memory the loop both writes items into and reads back can
        // carry one item's value to the next.
        auto *Load = dyn_cast<LoadInst>(&I);
        const Value *Slot =
            Load ? getUnderlyingObject(Load->getPointerOperand()) : nullptr;
        if (Slot && isa<AllocaInst>(Slot) &&
            Slots.lookup(Slot) >= Level::Item && writesInLoop(*L, Slot)) {
          fail("a loop over a thread's work items carries a value from one "
               "item to the next through local memory",
               Load);
          return;
        }
      }
  }
}

ShapeProof Prover::run() {
  ShapeProof Proof;
  auto Done = [&] {
    Proof.Obstacle = First->Why;
    Proof.Where = First->Where;
    return Proof;
  };
  for (Instruction &I : instructions(F))
    if (auto Why = screen(I)) {
      fail(*Why, &I);
      return Done();
    }
  settle();
  record();
  if (First)
    return Done();
  checkLoops();
  if (First)
    return Done();
  // A kernel that changes no memory computes nothing that another block
  // could change (cub's EmptyKernel).
  if (llvm::none_of(instructions(F), sideEffect)) {
    Proof.Proven = Proof.AnyGrid = true;
    return Proof;
  }
  bool AnyGrid = true;
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    if (!Free[Axis])
      continue;
    if (!Units.of(Axis)) {
      fail(std::string("the block's ") + axisName(Axis) +
               " extent may change, but the kernel's work does not follow "
               "threadIdx." +
               axisName(Axis) +
               " (blockIdx * blockDim + threadIdx): its threads would repeat "
               "each other's work",
           nullptr);
      return Done();
    }
    AnyGrid = AnyGrid && Units.of(Axis)->TopLoop.has_value();
    for (const Instruction *I : Accesses)
      if (!bounded(*I, Axis)) {
        fail(std::string("a memory access is not behind a bound check on "
                         "the global index along ") +
                 axisName(Axis) +
                 " (if (i < n)): at another block the threads past the "
                 "work would run it",
             I);
        return Done();
      }
  }
  Proof.Proven = true;
  Proof.AnyGrid = AnyGrid;
  return Proof;
}

} // namespace

ShapeProof proveShapeInvariance(Function &Normalized,
                                std::array<bool, 3> FreeAxes) {
  return Prover(Normalized, FreeAxes).run();
}

} // namespace energy
