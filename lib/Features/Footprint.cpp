//===- Footprint.cpp - Distinct global bytes a block touches --------------===//

#include "Footprint.h"
#include "ScevUnknowns.h"
#include "AccessStride.h"
#include "ThreadDependence.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

using namespace llvm;

namespace energy {

namespace {

constexpr unsigned EveryBlockAxis = 0b111;

/// The grid axes along which V may differ between blocks (bit A for
/// blockIdx.A), followed through arithmetic and casts to the blockIdx
/// reads. Arguments, constants and the other special registers are the same
/// in every block; a loaded value, a call's result or a phi may differ
/// along any axis.
unsigned blockAxesOf(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return 0;
  if (std::optional<SpecialRegisterRead> Read = readsSpecialRegister(V))
    return Read->Reg == SpecialRegister::BlockIdx ? 1u << Read->Axis : 0;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<LoadInst>(I) || isa<CallBase>(I) || isa<PHINode>(I))
    return EveryBlockAxis;
  constexpr unsigned MaxFollowed = 64;
  if (!Seen.insert(V).second)
    return 0;
  if (Seen.size() > MaxFollowed)
    return EveryBlockAxis;
  unsigned Axes = 0;
  for (const Value *Op : I->operands())
    Axes |= blockAxesOf(Op, Seen);
  return Axes;
}

/// The grid axes along which the thread-independent address part S may
/// differ between blocks.
unsigned blockAxesOf(const SCEV *S) {
  SmallPtrSet<const Value *, 16> Seen;
  unsigned Axes = 0;
  for (const SCEVUnknown *U : unknownsOf(S))
    Axes |= blockAxesOf(U->getValue(), Seen);
  return Axes;
}

/// How far the address S moves from one block to the next along each grid
/// axis, in bytes: S with blockIdx.A at 1 minus S at 0, where that is a
/// constant and no other value in S depends on blockIdx.A (`blockIdx.z /
/// groups` leaves the move unknown: 0).
std::array<int64_t, 3> blockShifts(const SCEV *S, ScalarEvolution &SE) {
  std::array<int64_t, 3> Shifts = {0, 0, 0};
  auto Unknowns = unknownsOf(S);
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    ValueToSCEVMapTy AtZero, AtOne;
    for (const SCEVUnknown *U : Unknowns) {
      std::optional<SpecialRegisterRead> Read =
          readsSpecialRegister(U->getValue());
      if (Read && Read->Reg == SpecialRegister::BlockIdx &&
          Read->Axis == Axis) {
        AtZero[U->getValue()] = SE.getZero(U->getType());
        AtOne[U->getValue()] = SE.getOne(U->getType());
      }
    }
    if (AtZero.empty())
      continue;
    const SCEV *One = SCEVParameterRewriter::rewrite(S, SE, AtOne);
    bool Opaque = llvm::any_of(unknownsOf(One), [&](const SCEVUnknown *U) {
      SmallPtrSet<const Value *, 16> Seen;
      return blockAxesOf(U->getValue(), Seen) & (1u << Axis);
    });
    if (Opaque)
      continue;
    const SCEV *Move = SE.getMinusSCEV(
        One, SCEVParameterRewriter::rewrite(S, SE, AtZero));
    if (auto *C = dyn_cast<SCEVConstant>(Move))
      if (C->getAPInt().getSignificantBits() <= 63)
        Shifts[Axis] = C->getAPInt().getSExtValue();
  }
  return Shifts;
}

/// d(S)/d(iteration of L) in bytes, when it is a constant.
std::optional<int64_t> loopStep(const SCEV *S, const Loop *L,
                                ScalarEvolution &SE) {
  if (SE.isLoopInvariant(S, L))
    return 0;
  if (auto *Rec = dyn_cast<SCEVAddRecExpr>(S)) {
    if (Rec->getLoop() == L) {
      if (!Rec->isAffine())
        return std::nullopt;
      auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
      if (!Step)
        return std::nullopt;
      return Step->getAPInt().getSExtValue();
    }
    // An inner loop's recurrence moves with L through its start only.
    if (L->contains(Rec->getLoop()) &&
        all_of(Rec->operands().drop_front(),
               [&](const SCEV *Op) { return SE.isLoopInvariant(Op, L); }))
      return loopStep(Rec->getStart(), L, SE);
    return std::nullopt;
  }
  if (auto *Cast = dyn_cast<SCEVCastExpr>(S))
    return loopStep(Cast->getOperand(0), L, SE);
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    int64_t Sum = 0;
    for (const SCEV *Op : Add->operands()) {
      std::optional<int64_t> D = loopStep(Op, L, SE);
      if (!D)
        return std::nullopt;
      Sum += *D;
    }
    return Sum;
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    // A constant times one varying factor.
    std::optional<int64_t> Step;
    int64_t Scale = 1;
    for (const SCEV *Op : Mul->operands()) {
      if (auto *C = dyn_cast<SCEVConstant>(Op)) {
        Scale *= C->getAPInt().getSExtValue();
        continue;
      }
      if (Step || !(Step = loopStep(Op, L, SE)))
        return std::nullopt;
    }
    return Step ? std::optional<int64_t>(*Step * Scale) : 0;
  }
  return std::nullopt;
}

/// S with every add recurrence at its start and threadIdx at 0: the
/// address of thread 0 in the first iteration.
class FirstAddress : public SCEVRewriteVisitor<FirstAddress> {
public:
  FirstAddress(ScalarEvolution &SE, const IndexEvaluator &Index)
      : SCEVRewriteVisitor(SE), Index(Index) {}

  const SCEV *visitAddRecExpr(const SCEVAddRecExpr *Rec) {
    return visit(Rec->getStart());
  }
  // Index arithmetic is taken not to wrap (as in AccessStride.h): an
  // extension distributes over sums and constant factors, so that the taps
  // of an unrolled loop differ in a constant the grouping can see.
  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) {
    return extend(visit(E->getOperand()), E->getType(), /*Signed=*/true);
  }
  const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *E) {
    return extend(visit(E->getOperand()), E->getType(), /*Signed=*/false);
  }
  const SCEV *extend(const SCEV *S, Type *To, bool Signed) {
    auto Ext = [&](const SCEV *Op) {
      return Signed ? SE.getSignExtendExpr(Op, To)
                    : SE.getZeroExtendExpr(Op, To);
    };
    if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops;
      for (const SCEV *Op : Add->operands())
        Ops.push_back(extend(Op, To, Signed));
      return SE.getAddExpr(Ops);
    }
    if (auto *Mul = dyn_cast<SCEVMulExpr>(S))
      if (Mul->getNumOperands() == 2 && isa<SCEVConstant>(Mul->getOperand(0)))
        return SE.getMulExpr(Ext(Mul->getOperand(0)),
                             extend(Mul->getOperand(1), To, Signed));
    return Ext(S);
  }

  const SCEV *visitUnknown(const SCEVUnknown *U) {
    if (auto Read = readsSpecialRegister(U->getValue()))
      if (Read->Reg == SpecialRegister::ThreadIdx ||
          Read->Reg == SpecialRegister::LaneId)
        return SE.getZero(U->getType());
    // Index arithmetic on thread ids (tid % 16) as thread 0 computes it.
    static constexpr ThreadIndex Thread0 = {0, 0, 0};
    if (U->getType()->isIntegerTy())
      if (auto Value = Index.evaluate(U->getValue(), &Thread0))
        return SE.getConstant(*Value);
    return U;
  }

private:
  const IndexEvaluator &Index;
};

} // namespace

BlockFootprint::BlockFootprint(
    std::array<unsigned, 3> Block, std::array<uint64_t, 3> Grid,
    std::array<double, 3> AxisWithin, ScalarEvolution &SE, const LoopInfo &LI,
    const ThreadDependence &TD, CalleeSummaries &Callees,
    std::function<double(const Loop *)> Trips,
    std::function<unsigned(const Value *)> ArgumentValue)
    : Block(Block), AxisWithin(AxisWithin), SE(SE), LI(LI), TD(TD),
      Callees(Callees), Trips(std::move(Trips)),
      Index(Block, TD, std::move(ArgumentValue)), Groups(Block, Grid) {}

bool BlockFootprint::add(const Value *Ptr, const Instruction &At,
                         uint64_t AccessBytes, double Executions,
                         bool IsStore) {
  if (!SE.isSCEVable(Ptr->getType()) || AccessBytes == 0)
    return false;
  const SCEV *Address = SE.getSCEV(const_cast<Value *>(Ptr));
  // Integer values every thread shares and the code fixes from sizes (a
  // pitch argument as ENERGY_ASSUME or the default extent states it, `n /
  // 4`, blockDim) become constants, so that `a[row * n + k]` has constant
  // coefficients.
  Address = Index.fold(Address, SE, /*Thread=*/nullptr);
  FootprintAccess G;
  G.AccessBytes = AccessBytes;
  G.Executions = Executions;
  G.IsStore = IsStore;
  bool AffineInThreads = true;
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    Stride D = scevStride(Address, SE, TD, Callees, Axis);
    if (D.K == Stride::Zero)
      continue;
    if (D.K != Stride::Constant)
      AffineInThreads = false;
    G.ThreadStride[Axis] = D.Bytes;
    G.Terms.push_back(
        {D.Bytes, std::max(1.0, std::round(Block[Axis] * AxisWithin[Axis]))});
  }
  // Otherwise each thread's offset, from the block's shape.
  std::optional<std::vector<int64_t>> &PerThread = G.PerThread;
  if (!AffineInThreads) {
    G.Terms.clear();
    G.ThreadStride = {0, 0, 0};
    PerThread = Index.threadOffsets(Address, SE);
    if (!PerThread)
      return false;
  }
  // With per-thread offsets, the loops must move the first and the last
  // thread alike (index arithmetic recomputed in the loop is the same in
  // every iteration).
  const SCEV *Moved = Address, *MovedLast = nullptr;
  if (PerThread) {
    ThreadIndex First = {0, 0, 0};
    ThreadIndex Last = {Block[0] - 1, Block[1] - 1, Block[2] - 1};
    Moved = Index.fold(Address, SE, &First);
    MovedLast = Index.fold(Address, SE, &Last);
  }
  for (const Loop *L = LI.getLoopFor(At.getParent()); L;
       L = L->getParentLoop()) {
    std::optional<int64_t> Step = loopStep(Moved, L, SE);
    if (!Step || (MovedLast && loopStep(MovedLast, L, SE) != Step))
      return false;
    if (*Step != 0)
      G.Terms.push_back({*Step, Trips(L), !L->getParentLoop()});
  }
  // Split thread 0's first address into base, uniform part and constant.
  const SCEV *First = FirstAddress(SE, Index).visit(Address);
  const SCEV *Base = SE.getPointerBase(First);
  const SCEV *Rest = SE.getMinusSCEV(First, Base);
  if (isa<SCEVCouldNotCompute>(Rest))
    return false;
  int64_t &Constant = G.Constant;
  if (auto *C = dyn_cast<SCEVConstant>(Rest)) {
    Constant = C->getAPInt().getSExtValue();
    Rest = SE.getZero(Rest->getType());
  } else if (auto *Add = dyn_cast<SCEVAddExpr>(Rest)) {
    if (auto *C = dyn_cast<SCEVConstant>(Add->getOperand(0))) {
      Constant = C->getAPInt().getSExtValue();
      Rest = SE.getMinusSCEV(Rest, C);
    }
  }
  // Rest no longer varies between the block's threads: a thread dependence
  // that is neither a constant stride nor a fixed offset per thread made
  // this return above.
  G.Identity = {reinterpret_cast<intptr_t>(Base),
                reinterpret_cast<intptr_t>(Rest)};
  // The base and the uniform part decide which blocks read the same bytes.
  G.BlockAxes = blockAxesOf(First);
  G.BlockShift = blockShifts(First, SE);
  Groups.add(std::move(G));
  return true;
}

} // namespace energy
