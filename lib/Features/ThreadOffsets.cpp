//===- ThreadOffsets.cpp - Where each thread of a block accesses ----------===//

#include "ThreadOffsets.h"
#include "ScevUnknowns.h"
#include "ThreadDependence.h"

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace energy {

namespace {

/// Index arithmetic deeper than this is not followed.
constexpr unsigned MaxDepth = 24;
/// The most threads a block has on every architecture.
constexpr unsigned MaxBlockThreads = 1024;
constexpr unsigned WarpSize = 32;

std::optional<APInt> binary(unsigned Opcode, const APInt &L, const APInt &R) {
  unsigned Bits = L.getBitWidth();
  switch (Opcode) {
  case Instruction::Add: return L + R;
  case Instruction::Sub: return L - R;
  case Instruction::Mul: return L * R;
  case Instruction::And: return L & R;
  case Instruction::Or: return L | R;
  case Instruction::Xor: return L ^ R;
  case Instruction::UDiv:
    return R.isZero() ? std::nullopt : std::optional<APInt>(L.udiv(R));
  case Instruction::URem:
    return R.isZero() ? std::nullopt : std::optional<APInt>(L.urem(R));
  case Instruction::SDiv:
  case Instruction::SRem:
    if (R.isZero() || (L.isMinSignedValue() && R.isAllOnes()))
      return std::nullopt;
    return Opcode == Instruction::SDiv ? L.sdiv(R) : L.srem(R);
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
    if (R.uge(Bits))
      return std::nullopt;
    return Opcode == Instruction::Shl    ? L.shl(R)
           : Opcode == Instruction::LShr ? L.lshr(R)
                                         : L.ashr(R);
  default:
    return std::nullopt;
  }
}

/// The one value stored to the private variable Load reads, if it has one:
/// `volatile int tid = ...` (CLBlast keeps its thread id so, to stop the
/// compiler from caching it) is loaded again in every iteration.
const Value *onlyStoredValue(const LoadInst &Load) {
  auto *Slot = dyn_cast<AllocaInst>(Load.getPointerOperand()->stripPointerCasts());
  if (!Slot)
    return nullptr;
  const Value *Stored = nullptr;
  for (const User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      continue;
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getValueOperand() == Slot || Stored)
      return nullptr;
    Stored = Store->getValueOperand();
  }
  return Stored && Stored->getType() == Load.getType() ? Stored : nullptr;
}

/// The computation every incoming value of Phi repeats, if they all do:
/// `sext i32 %n to i64` made in both arms of an if and joined (clang keeps
/// both copies when the arms differ otherwise). A phi of different values
/// (an induction variable, a real choice) has none.
const Value *sameIncomingComputation(const PHINode &Phi) {
  const Value *First = Phi.getIncomingValue(0);
  auto *FirstInst = dyn_cast<Instruction>(First);
  for (const Value *In : Phi.incoming_values()) {
    if (In == First)
      continue;
    auto *Inst = dyn_cast<Instruction>(In);
    if (!FirstInst || !Inst || !Inst->isIdenticalTo(FirstInst))
      return nullptr;
  }
  return First;
}

} // namespace

IndexEvaluator::IndexEvaluator(ThreadIndex Block, const ThreadDependence &TD,
                               std::function<unsigned(const Value *)> Arg)
    : Block(Block), TD(TD), ArgumentValue(std::move(Arg)) {}

std::optional<APInt> IndexEvaluator::evaluate(const Value *V,
                                              const ThreadIndex *Thread) const {
  return evaluate(V, Thread, 0);
}

std::optional<APInt> IndexEvaluator::evaluate(const Value *V,
                                              const ThreadIndex *Thread,
                                              unsigned Depth) const {
  auto *IntTy = dyn_cast<IntegerType>(V->getType());
  if (!IntTy || Depth > MaxDepth)
    return std::nullopt;
  unsigned Bits = IntTy->getBitWidth();
  bool Dependent = TD.isThreadDependent(V);
  if (Dependent && !Thread)
    return std::nullopt;
  if (!Dependent) {
    if (auto It = Uniform.find(V); It != Uniform.end())
      return It->second;
    Thread = nullptr;
  }
  auto Operand = [&](const Value *Op) {
    return evaluate(Op, Thread, Depth + 1);
  };

  std::optional<APInt> Result;
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    Result = C->getValue();
  } else if (isa<Argument>(V)) {
    Result = APInt(Bits, ArgumentValue(V));
  } else if (auto Read = readsSpecialRegister(V)) {
    unsigned Axis = Read->Axis;
    switch (Read->Reg) {
    case SpecialRegister::BlockDim:
      Result = APInt(Bits, Block[Axis]);
      break;
    case SpecialRegister::ThreadIdx:
      if (Thread)
        Result = APInt(Bits, (*Thread)[Axis]);
      break;
    case SpecialRegister::LaneId:
      if (Thread)
        Result = APInt(Bits, ((*Thread)[0] + Block[0] * ((*Thread)[1] +
                                                          Block[1] * (*Thread)[2])) %
                                 WarpSize);
      break;
    default:
      break;
    }
  } else if (auto *B = dyn_cast<BinaryOperator>(V)) {
    auto L = Operand(B->getOperand(0));
    auto R = L ? Operand(B->getOperand(1)) : std::nullopt;
    if (R)
      Result = binary(B->getOpcode(), *L, *R);
  } else if (auto *Cast = dyn_cast<CastInst>(V)) {
    if (auto X = Operand(Cast->getOperand(0))) {
      switch (Cast->getOpcode()) {
      case Instruction::ZExt: Result = X->zext(Bits); break;
      case Instruction::SExt: Result = X->sext(Bits); break;
      case Instruction::Trunc: Result = X->trunc(Bits); break;
      default: break;
      }
    }
  } else if (auto *Cmp = dyn_cast<ICmpInst>(V)) {
    auto L = Operand(Cmp->getOperand(0));
    auto R = L ? Operand(Cmp->getOperand(1)) : std::nullopt;
    if (R)
      Result = APInt(1, ICmpInst::compare(*L, *R, Cmp->getPredicate()));
  } else if (auto *Sel = dyn_cast<SelectInst>(V)) {
    if (auto Cond = Operand(Sel->getCondition()))
      Result = Operand(Cond->isOne() ? Sel->getTrueValue()
                                     : Sel->getFalseValue());
  } else if (auto *Freeze = dyn_cast<FreezeInst>(V)) {
    Result = Operand(Freeze->getOperand(0));
  } else if (auto *Load = dyn_cast<LoadInst>(V)) {
    if (const Value *Stored = onlyStoredValue(*Load))
      Result = Operand(Stored);
  } else if (auto *Phi = dyn_cast<PHINode>(V)) {
    if (const Value *Same = sameIncomingComputation(*Phi))
      Result = Operand(Same);
  }
  if (!Dependent)
    Uniform[V] = Result;
  return Result;
}

std::optional<APInt>
IndexEvaluator::evaluateSCEV(const SCEV *S, ScalarEvolution &SE,
                             const ThreadIndex &Thread,
                             const SymbolValues &Symbols) const {
  unsigned Bits = SE.getTypeSizeInBits(S->getType());
  auto Eval = [&](const SCEV *Op) -> std::optional<APInt> {
    auto X = evaluateSCEV(Op, SE, Thread, Symbols);
    if (X)
      *X = X->zextOrTrunc(Bits);
    return X;
  };
  switch (S->getSCEVType()) {
  case scConstant:
    return cast<SCEVConstant>(S)->getAPInt();
  case scUnknown: {
    const Value *V = cast<SCEVUnknown>(S)->getValue();
    if (V->getType()->isIntegerTy())
      if (auto X = evaluate(V, &Thread))
        return X;
    if (TD.isThreadDependent(V))
      return std::nullopt;
    // A symbol: the same in every thread, the trial's value.
    auto It = Symbols.find(V);
    return APInt(Bits, It != Symbols.end() ? It->second : 0);
  }
  case scAddExpr:
  case scMulExpr: {
    bool Add = S->getSCEVType() == scAddExpr;
    APInt Result(Bits, Add ? 0 : 1);
    for (const SCEV *Op : cast<SCEVNAryExpr>(S)->operands()) {
      auto X = Eval(Op);
      if (!X)
        return std::nullopt;
      Result = Add ? Result + *X : Result * *X;
    }
    return Result;
  }
  case scUDivExpr: {
    auto *Div = cast<SCEVUDivExpr>(S);
    auto L = Eval(Div->getLHS()), R = Eval(Div->getRHS());
    if (!L || !R || R->isZero())
      return std::nullopt;
    return L->udiv(*R);
  }
  case scTruncate:
  case scZeroExtend:
  case scSignExtend:
  case scPtrToInt: {
    const SCEV *Op = cast<SCEVCastExpr>(S)->getOperand(0);
    auto X = evaluateSCEV(Op, SE, Thread, Symbols);
    if (!X)
      return std::nullopt;
    return S->getSCEVType() == scSignExtend ? X->sextOrTrunc(Bits)
                                            : X->zextOrTrunc(Bits);
  }
  case scAddRecExpr:
    // The first iteration: the loops move every thread alike (their steps
    // are constants, checked by the caller).
    return Eval(cast<SCEVAddRecExpr>(S)->getStart());
  case scSMaxExpr:
  case scUMaxExpr:
  case scSMinExpr:
  case scUMinExpr:
  case scSequentialUMinExpr: {
    std::optional<APInt> Result;
    for (const SCEV *Op : cast<SCEVNAryExpr>(S)->operands()) {
      auto X = Eval(Op);
      if (!X)
        return std::nullopt;
      if (!Result) {
        Result = X;
        continue;
      }
      switch (S->getSCEVType()) {
      case scSMaxExpr: Result = APIntOps::smax(*Result, *X); break;
      case scUMaxExpr: Result = APIntOps::umax(*Result, *X); break;
      case scSMinExpr: Result = APIntOps::smin(*Result, *X); break;
      default: Result = APIntOps::umin(*Result, *X); break;
      }
    }
    return Result;
  }
  default:
    return std::nullopt;
  }
}

const SCEV *IndexEvaluator::fold(const SCEV *Address, ScalarEvolution &SE,
                                 const ThreadIndex *Thread) const {
  ValueToSCEVMapTy Values;
  for (const SCEVUnknown *U : unknownsOf(Address))
    if (U->getType()->isIntegerTy())
      if (auto X = evaluate(U->getValue(), Thread))
        Values[U->getValue()] = SE.getConstant(*X);
  return Values.empty() ? Address
                        : SCEVParameterRewriter::rewrite(Address, SE, Values);
}

std::optional<std::vector<int64_t>>
IndexEvaluator::threadOffsets(const SCEV *Address, ScalarEvolution &SE) const {
  unsigned Threads = Block[0] * Block[1] * Block[2];
  if (Threads == 0 || Threads > MaxBlockThreads)
    return std::nullopt;
  std::vector<int64_t> Offsets(Threads);
  // Twice: symbols as 0, then as other values. A difference that changes
  // depends on them ((blockIdx * 64 + tid) % n), and is not a fixed offset.
  // The other values are small, distinct (3, 5, 7 ... in the address's
  // visit order) and fixed: a block in the grid's interior, away from the
  // clamps at its edges (`min(blockIdx * 64 + tid, 4095)`). Values from the
  // symbols' pointers (their hash) made such an address pass or fail from
  // run to run, and the predictions with it.
  const SymbolValues Zeros;
  SymbolValues Others;
  for (const SCEVUnknown *U : unknownsOf(Address))
    Others.try_emplace(U->getValue(), 2 * Others.size() + 3);
  const SymbolValues *Trials[] = {&Zeros, &Others};
  for (const SymbolValues *Symbols : Trials) {
    std::optional<APInt> First;
    ThreadIndex T = {0, 0, 0};
    for (unsigned I = 0; I < Threads; ++I) {
      T = {I % Block[0], (I / Block[0]) % Block[1], I / (Block[0] * Block[1])};
      auto X = evaluateSCEV(Address, SE, T, *Symbols);
      if (!X)
        return std::nullopt;
      if (!First)
        First = X;
      int64_t Offset = (*X - *First).getSExtValue();
      if (Symbols == &Zeros)
        Offsets[I] = Offset;
      else if (Offsets[I] != Offset)
        return std::nullopt;
    }
  }
  return Offsets;
}

} // namespace energy
