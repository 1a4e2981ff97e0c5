//===- TripCounts.cpp - How often a loop of an NVPTX kernel runs ----------===//

#include "TripCounts.h"
#include "ScevUnknowns.h"

#include "FeatureCore.h"
#include "ThreadDependence.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <limits>

using namespace llvm;

namespace energy {

std::optional<unsigned> knownTripCount(const Loop *L, ScalarEvolution &SE) {
  unsigned Trip = SE.getSmallConstantTripCount(L);
  if (!Trip)
    Trip = SE.getSmallConstantMaxTripCount(L);
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
    auto It = Stated.find(U->getValue());
    B.Stated = It != Stated.end();
    B.TakenAs = B.Stated ? It->second : DefaultExtent;
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

} // namespace energy
