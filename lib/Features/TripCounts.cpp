//===- TripCounts.cpp - How often a loop of an NVPTX kernel runs ----------===//

#include "TripCounts.h"
#include "ScevUnknowns.h"

#include "FeatureCore.h"
#include "ThreadDependence.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/ConstantFold.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>
#include <limits>
#include <map>

using namespace llvm;

namespace energy {

namespace {

/// A loop's exit test as a count up to a bound: the loop goes on while Rec
/// < Bound, Rec an affine recurrence of the loop, Bound invariant in it.
struct CountingExit {
  const SCEVAddRecExpr *Rec = nullptr;
  const SCEV *Bound = nullptr;
  bool Signed = false;
  /// Rec is the incremented index (a rotated loop's `(i += S) < n`, whose
  /// entry `i < n` is tested before the loop), not the header's.
  bool PostIncrement = false;
};

std::optional<CountingExit> countingExit(const Loop *L, ScalarEvolution &SE) {
  BasicBlock *Exiting = L->getExitingBlock();
  auto *Br = Exiting ? dyn_cast<BranchInst>(Exiting->getTerminator()) : nullptr;
  auto *Cmp = Br && Br->isConditional()
                  ? dyn_cast<ICmpInst>(Br->getCondition())
                  : nullptr;
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return std::nullopt;
  ICmpInst::Predicate P = L->contains(Br->getSuccessor(0))
                              ? Cmp->getPredicate()
                              : Cmp->getInversePredicate();
  Value *Index = Cmp->getOperand(0);
  const SCEV *Bound = SE.getSCEV(Cmp->getOperand(1));
  if (!SE.isLoopInvariant(Bound, L)) {
    Index = Cmp->getOperand(1);
    Bound = SE.getSCEV(Cmp->getOperand(0));
    P = ICmpInst::getSwappedPredicate(P);
  }
  auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Index));
  if (!Rec || Rec->getLoop() != L || !Rec->isAffine() ||
      !SE.isLoopInvariant(Bound, L))
    return std::nullopt;
  CountingExit E;
  E.Rec = Rec;
  E.Signed = ICmpInst::isSigned(P);
  E.PostIncrement = !(isa<PHINode>(Index) &&
                      cast<PHINode>(Index)->getParent() == L->getHeader());
  if (P == ICmpInst::ICMP_SLE || P == ICmpInst::ICMP_ULE)
    Bound = SE.getAddExpr(Bound, SE.getOne(Bound->getType()));
  else if (P != ICmpInst::ICMP_SLT && P != ICmpInst::ICMP_ULT)
    return std::nullopt;
  E.Bound = Bound;
  return E;
}

/// Whether Max, a maximum trip count ScalarEvolution found for L, only says
/// how far L's index could count before it wrapped around its type: a
/// stride of 65,536 on an int gives 65,536 iterations, whatever the bound.
bool maxFromTypeRange(const Loop *L, ScalarEvolution &SE, unsigned Max) {
  auto Exit = countingExit(L, SE);
  if (!Exit)
    return false;
  auto *Step = dyn_cast<SCEVConstant>(Exit->Rec->getStepRecurrence(SE));
  if (!Step)
    return false;
  unsigned Bits = Step->getAPInt().getBitWidth();
  APInt Span = Step->getAPInt().abs().zext(Bits + 32) * Max;
  return Span.uge(APInt::getOneBitSet(Bits + 32, Bits - 1));
}

} // namespace

std::optional<unsigned> knownTripCount(const Loop *L, ScalarEvolution &SE) {
  unsigned Trip = SE.getSmallConstantTripCount(L);
  if (!Trip) {
    Trip = SE.getSmallConstantMaxTripCount(L);
    if (Trip && maxFromTypeRange(L, SE, Trip))
      return std::nullopt;
  }
  if (!Trip || Trip > MaxBelievableTrip)
    return std::nullopt;
  return Trip;
}

/// V without the integer casts around it: ENERGY_ASSUME widens its value
/// to 64 bits.
static const Value *stripIntegerCasts(const Value *V) {
  while (auto *Cast = dyn_cast<CastInst>(V)) {
    if (!Cast->isIntegerCast())
      break;
    V = Cast->getOperand(0);
  }
  return V;
}

bool isAssumeMarker(const CallBase &Call) {
  auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  return Asm &&
         StringRef(Asm->getAsmString()).starts_with("// energy.assume") &&
         Call.arg_size() == 2 && isa<ConstantInt>(Call.getArgOperand(1));
}

bool isTripMarker(const CallBase &Call) {
  auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  return Asm && StringRef(Asm->getAsmString()).starts_with("// energy.trip") &&
         Call.arg_size() == 2 && isa<ConstantInt>(Call.getArgOperand(0)) &&
         isa<ConstantInt>(Call.getArgOperand(1));
}

std::optional<double> statedTripCount(const Loop *L) {
  // Per statement (its __COUNTER__): the count, and its copies in L.
  std::map<uint64_t, std::pair<uint64_t, unsigned>> Statements;
  for (const BasicBlock *BB : L->blocks()) {
    if (llvm::any_of(L->getSubLoops(),
                     [&](const Loop *Inner) { return Inner->contains(BB); }))
      continue; // an inner loop's statement
    for (const Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallBase>(&I); Call && isTripMarker(*Call)) {
        auto &[Count, Copies] =
            Statements[cast<ConstantInt>(Call->getArgOperand(1))
                           ->getZExtValue()];
        Count = cast<ConstantInt>(Call->getArgOperand(0))->getZExtValue();
        ++Copies;
      }
  }
  if (Statements.empty())
    return std::nullopt;
  // Two statements in one loop (in both arms of a branch): the larger.
  double Trip = 0;
  for (const auto &[Id, CountAndCopies] : Statements)
    Trip = std::max(Trip, double(CountAndCopies.first) /
                              double(CountAndCopies.second));
  return Trip;
}

StatedValues statedValues(const Function &F,
                          ArrayRef<std::pair<unsigned, unsigned>> Arguments) {
  StatedValues Stated;
  for (const Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I); Call && isAssumeMarker(*Call))
      Stated[stripIntegerCasts(Call->getArgOperand(0))] =
          cast<ConstantInt>(Call->getArgOperand(1))
              ->getValue()
              .getLimitedValue(std::numeric_limits<unsigned>::max());
  for (auto [ArgNo, Value] : Arguments)
    if (ArgNo < F.arg_size() && F.getArg(ArgNo)->getType()->isIntegerTy())
      Stated[F.getArg(ArgNo)] = Value;
  return Stated;
}

/// The source name of F's parameter ArgNo, from debug info; empty without.
static std::string parameterName(const Function &F, unsigned ArgNo) {
  const DISubprogram *SP = F.getSubprogram();
  auto Matches = [&](const DILocalVariable *Var) {
    return SP && Var->getArg() == ArgNo + 1 &&
           Var->getScope()->getSubprogram() == SP;
  };
  for (const Instruction &I : instructions(F)) {
    if (auto *DVI = dyn_cast<DbgVariableIntrinsic>(&I))
      if (Matches(DVI->getVariable()))
        return DVI->getVariable()->getName().str();
    for (const DbgVariableRecord &DVR : filterDbgVars(I.getDbgRecordRange()))
      if (Matches(DVR.getVariable()))
        return DVR.getVariable()->getName().str();
  }
  return "";
}

/// What a loop bound's unknown value is, for the reader of a report.
namespace {

/// What ENERGY_ASSUME decides a value to be: a stated value, or arithmetic
/// of stated values and constants (`words = n / 4` with n stated). A loop
/// from `4 * (n / 4)` up to n then counts n's remainder, not n less four
/// times a default extent.
std::optional<APInt> statedValue(const Value *V, const StatedValues &Stated,
                                 unsigned Depth = 0) {
  auto *Ty = dyn_cast<IntegerType>(V->getType());
  if (!Ty)
    return std::nullopt;
  if (auto It = Stated.find(V); It != Stated.end())
    return APInt(Ty->getBitWidth(), It->second);
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getValue();
  constexpr unsigned MaxDepth = 4;
  if (Depth == MaxDepth)
    return std::nullopt;
  auto Operand = [&](const Value *Op) -> Constant * {
    auto Value = statedValue(Op, Stated, Depth + 1);
    return Value ? ConstantInt::get(Op->getType(), *Value) : nullptr;
  };
  Constant *Folded = nullptr;
  if (auto *B = dyn_cast<BinaryOperator>(V)) {
    Constant *L = Operand(B->getOperand(0)), *R = Operand(B->getOperand(1));
    if (L && R)
      Folded = ConstantFoldBinaryInstruction(B->getOpcode(), L, R);
  } else if (auto *Cast = dyn_cast<CastInst>(V)) {
    if (Constant *From = Operand(Cast->getOperand(0)))
      Folded = ConstantFoldCastInstruction(Cast->getOpcode(), From, Ty);
  }
  if (auto *C = dyn_cast_or_null<ConstantInt>(Folded))
    return C->getValue();
  return std::nullopt;
}

} // namespace

/// How a bound's unknown V is taken: as ENERGY_ASSUME decides it, else as
/// DefaultExtent.
static void takeValue(BoundValue &B, const Value *V, const StatedValues &Stated,
                      unsigned DefaultExtent) {
  std::optional<APInt> Value = statedValue(V, Stated);
  B.Stated = Value && !Value->isNegative() && Value->getActiveBits() <= 32;
  B.TakenAs = B.Stated ? unsigned(Value->getZExtValue()) : DefaultExtent;
}

static BoundValue boundValue(const Value *V) {
  BoundValue B;
  if (auto *Arg = dyn_cast<Argument>(V)) {
    B.IsArgument = true;
    B.ArgNo = Arg->getArgNo();
    B.Name = Arg->hasName() ? Arg->getName().str()
                            : parameterName(*Arg->getParent(), B.ArgNo);
  } else if (auto Read = readsSpecialRegister(V)) {
    static const char *const Regs[] = {"threadIdx", "blockIdx", "blockDim",
                                       "gridDim", "laneid"};
    B.Name = Regs[static_cast<unsigned>(Read->Reg)];
    if (Read->Reg != SpecialRegister::LaneId)
      B.Name += std::string(".") + "xyz"[Read->Axis];
  } else if (V->hasName()) {
    B.Name = V->getName().str();
  }
  return B;
}

namespace {

/// The backedge-taken count of a rotated counting loop `do { ... } while
/// ((i += S) < n)` whose increment the source declares free of overflow
/// (nsw for a signed compare, nuw for an unsigned one), S > 0: ceil(max(n -
/// first i + S, 0) / S). ScalarEvolution drops such flags from an increment
/// outside the loop's header (a tiled loop whose latch follows an inner
/// loop), and then cannot count the loop.
const SCEV *countFromIncrementFlags(const Loop *L, ScalarEvolution &SE) {
  BasicBlock *Latch = L->getLoopLatch();
  if (!Latch || L->getExitingBlock() != Latch)
    return nullptr;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *Cmp = Br && Br->isConditional()
                  ? dyn_cast<ICmpInst>(Br->getCondition())
                  : nullptr;
  if (!Cmp)
    return nullptr;
  // The condition under which the loop goes on, as `Next < Bound`.
  ICmpInst::Predicate P = L->contains(Br->getSuccessor(0))
                              ? Cmp->getPredicate()
                              : Cmp->getInversePredicate();
  Value *Next = Cmp->getOperand(0), *Bound = Cmp->getOperand(1);
  if (!L->isLoopInvariant(Bound)) {
    std::swap(Next, Bound);
    P = ICmpInst::getSwappedPredicate(P);
  }
  auto *Inc = dyn_cast<BinaryOperator>(Next);
  if (!L->isLoopInvariant(Bound) || !Inc ||
      Inc->getOpcode() != Instruction::Add ||
      !(P == ICmpInst::ICMP_SLT ? Inc->hasNoSignedWrap()
                                : P == ICmpInst::ICMP_ULT &&
                                      Inc->hasNoUnsignedWrap()))
    return nullptr;
  auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Next));
  if (!Rec || Rec->getLoop() != L || !Rec->isAffine())
    return nullptr;
  auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
  if (!Step || !Step->getAPInt().isStrictlyPositive())
    return nullptr;
  const SCEV *End = SE.getSCEV(Bound);
  const SCEV *Span =
      P == ICmpInst::ICMP_SLT
          ? SE.getSMaxExpr(SE.getMinusSCEV(End, Rec->getStart()),
                           SE.getZero(End->getType()))
          : SE.getMinusSCEV(SE.getUMaxExpr(End, Rec->getStart()),
                            Rec->getStart());
  const SCEV *Rounded = SE.getAddExpr(
      Span, SE.getMinusSCEV(Step, SE.getOne(Step->getType())));
  return SE.getUDivExpr(Rounded, Step);
}

} // namespace

std::optional<unsigned> symbolicTripCount(const Loop *L, ScalarEvolution &SE,
                                          const StatedValues &Stated,
                                          unsigned DefaultExtent,
                                          std::vector<BoundValue> &Values) {
  const SCEV *Taken = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(Taken))
    Taken = countFromIncrementFlags(L, SE);
  if (!Taken)
    return std::nullopt;
  ValueToSCEVMapTy Assumed;
  std::vector<BoundValue> Found;
  for (const SCEVUnknown *U : unknownsOf(Taken)) {
    if (!U->getType()->isIntegerTy())
      return std::nullopt;
    // A thread's or block's index offsets where its loop starts (i = tid;
    // i < n; i += stride): the first thread's count, not an extent.
    if (auto Read = readsSpecialRegister(U->getValue());
        Read && (Read->Reg == SpecialRegister::ThreadIdx ||
                 Read->Reg == SpecialRegister::BlockIdx ||
                 Read->Reg == SpecialRegister::LaneId)) {
      Assumed[U->getValue()] = SE.getZero(U->getType());
      continue;
    }
    BoundValue B = boundValue(U->getValue());
    takeValue(B, U->getValue(), Stated, DefaultExtent);
    Assumed[U->getValue()] = SE.getConstant(U->getType(), B.TakenAs);
    Found.push_back(std::move(B));
  }
  auto *C = dyn_cast<SCEVConstant>(
      SCEVParameterRewriter::rewrite(Taken, SE, Assumed));
  if (!C || C->getAPInt().getActiveBits() > 32 ||
      C->getAPInt().getZExtValue() >= MaxBelievableTrip)
    return std::nullopt;
  Values = std::move(Found);
  return static_cast<unsigned>(C->getAPInt().getZExtValue()) + 1;
}

namespace {

/// Whether the first indices Terms give the threads cover [0, Stride) once
/// each.
bool coversStride(const std::vector<IndexTerm> &Terms, int64_t Stride) {
  return mixedRadixValues(Terms) == uint64_t(Stride);
}

} // namespace

std::optional<StridedCount> stridedTripCount(const Loop *L,
                                             ScalarEvolution &SE,
                                             const StatedValues &Stated,
                                             unsigned DefaultExtent,
                                             const LaunchShape &Launch) {
  auto Exit = countingExit(L, SE);
  if (!Exit)
    return std::nullopt;
  const SCEV *First = Exit->Rec->getStart();
  const SCEV *Step = Exit->Rec->getStepRecurrence(SE);
  StridedCount Count;
  ValueToSCEVMapTy Assumed;
  std::vector<const SCEVUnknown *> Indices;
  bool ReadsLaunch = false, Unknowable = false;
  auto Classify = [&](const SCEV *S, bool IndicesAllowed) {
    for (const SCEVUnknown *U : unknownsOf(S)) {
      const Value *V = U->getValue();
      if (Assumed.count(V) || llvm::is_contained(Indices, U))
        continue;
      if (!U->getType()->isIntegerTy()) {
        Unknowable = true;
        continue;
      }
      auto Read = readsSpecialRegister(V);
      if (Read && (Read->Reg == SpecialRegister::BlockDim ||
                   Read->Reg == SpecialRegister::GridDim)) {
        // Folded to a constant where the launch is known: an extent of a
        // launch that is not.
        ReadsLaunch = true;
        BoundValue B = boundValue(V);
        B.LaunchExtent = true;
        Count.Values.push_back(std::move(B));
        Assumed[V] = SE.getOne(U->getType());
        continue;
      }
      if (Read) {
        if (!IndicesAllowed)
          Unknowable = true;
        Indices.push_back(U);
        continue;
      }
      BoundValue B = boundValue(V);
      takeValue(B, V, Stated, DefaultExtent);
      Assumed[V] = SE.getConstant(U->getType(), B.TakenAs);
      Count.Values.push_back(std::move(B));
    }
  };
  Classify(First, /*IndicesAllowed=*/true);
  Classify(Step, /*IndicesAllowed=*/false);
  Classify(Exit->Bound, /*IndicesAllowed=*/false);
  // Only a loop over the launch's threads: others keep ScalarEvolution's
  // own count.
  if (Unknowable || (Indices.empty() && !ReadsLaunch))
    return std::nullopt;
  if (ReadsLaunch) {
    llvm::erase_if(Count.Values,
                   [](const BoundValue &B) { return !B.LaunchExtent; });
    return Count;
  }
  // The value of S with the thread and block indices as given (the rest
  // as assumed), as the compare reads it.
  auto Evaluate = [&](const SCEV *S,
                      ArrayRef<int64_t> IndexValues) -> std::optional<int64_t> {
    ValueToSCEVMapTy Values = Assumed;
    for (auto [U, X] : llvm::zip(Indices, IndexValues))
      Values[U->getValue()] = SE.getConstant(U->getType(), X);
    auto *C = dyn_cast<SCEVConstant>(
        SCEVParameterRewriter::rewrite(S, SE, Values));
    if (!C || C->getAPInt().getBitWidth() > 64)
      return std::nullopt;
    return Exit->Signed ? C->getAPInt().getSExtValue()
                        : int64_t(C->getAPInt().getZExtValue());
  };
  std::vector<int64_t> Zeros(Indices.size(), 0);
  auto Base = Evaluate(First, Zeros), Stride = Evaluate(Step, Zeros),
       End = Evaluate(Exit->Bound, Zeros);
  if (!Base || !Stride || !End || *Stride <= 0)
    return std::nullopt;
  // The first index as Base + the sum of the terms, when it is that.
  std::vector<IndexTerm> Terms;
  bool Affine = true;
  std::vector<int64_t> Ones(Indices.size(), 1);
  int64_t Sum = *Base;
  for (size_t I = 0; I < Indices.size() && Affine; ++I) {
    std::vector<int64_t> One = Zeros, Two = Zeros;
    One[I] = 1, Two[I] = 2;
    auto AtOne = Evaluate(First, One), AtTwo = Evaluate(First, Two);
    Affine = AtOne && AtTwo && *AtTwo - *AtOne == *AtOne - *Base &&
             *AtOne > *Base;
    if (Affine) {
      Terms.push_back({*AtOne - *Base,
                       launchExtent(*readsSpecialRegister(Indices[I]->getValue()),
                                   Launch)});
      Sum += *AtOne - *Base;
    }
  }
  Affine = Affine && Evaluate(First, Ones) == Sum;
  // Iterations before the index reaches End, from the first thread's index
  // (Remaining), and the threads' average where they cover the stride.
  int64_t Remaining = std::max<int64_t>(*End - *Base, 0);
  double Runs;
  if (Affine && coversStride(Terms, *Stride)) {
    // The threads whose first index is below End have work: each runs its
    // body ceil(its remaining / stride) times, Remaining in all after the
    // tests. A rotated loop (Base is past the first increment) runs its
    // body once before its first test, a `while` loop its header once more
    // than its body. Threads past End are the bounds check's: counted
    // where the launch states n (LeaderGuards.h), else the launch is taken
    // as sized to its problem, as for every other bounds check.
    int64_t Entering = std::clamp<int64_t>(
        *End - *Base + (Exit->PostIncrement ? *Stride : 0), 0, *Stride);
    Runs = !Entering              ? 1
           : Exit->PostIncrement ? double(Entering + Remaining) / Entering
                                 : 1 + double(Remaining) / Entering;
  } else {
    Runs = 1 + double(Remaining / *Stride + (Remaining % *Stride != 0));
  }
  Count.HeaderRuns = Runs;
  return Count;
}

} // namespace energy
