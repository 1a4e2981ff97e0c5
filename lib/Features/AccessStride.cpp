//===- AccessStride.cpp - Address stride per threadIdx.x ------------------===//

#include "AccessStride.h"
#include "ThreadDependence.h"

#include "LocalAnalyses.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace energy {

namespace {
struct StrideOf {
  const ThreadDependence &TD;
  CalleeSummaries &Callees;
  unsigned Axis; // of threadIdx: 0, 1 or 2
  ScalarEvolution &SE;
  /// Phis being followed: a recurrence through one is not a stride.
  mutable SmallPtrSet<const PHINode *, 4> InProgress = {};

  Stride operator()(const SCEV *S) const {
    if (isa<SCEVConstant>(S))
      return Stride::zero();
    if (auto *U = dyn_cast<SCEVUnknown>(S))
      return ofValue(U->getValue());
    if (auto *Cast = dyn_cast<SCEVCastExpr>(S))
      return (*this)(Cast->getOperand(0));
    if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
      Stride Sum = Stride::zero();
      for (const SCEV *Op : Add->operands())
        Sum = addStrides(Sum, (*this)(Op));
      return Sum;
    }
    if (auto *Mul = dyn_cast<SCEVMulExpr>(S))
      return ofProduct(Mul);
    if (auto *Rec = dyn_cast<SCEVAddRecExpr>(S)) {
      // The step moves with the loop, not with the thread.
      for (const SCEV *Op : Rec->operands().drop_front())
        if ((*this)(Op).K != Stride::Zero)
          return Stride::unknown();
      return (*this)(Rec->getStart());
    }
    // Division, min/max: fine when thread-invariant, irregular otherwise.
    for (const SCEV *Op : S->operands())
      if ((*this)(Op).K != Stride::Zero)
        return Stride::unknown();
    return Stride::zero();
  }

  Stride ofValue(const Value *V) const {
    if (auto *Phi = dyn_cast<PHINode>(V))
      return ofPhi(Phi);
    if (auto Read = readsSpecialRegister(V)) {
      if (Read->Reg == SpecialRegister::ThreadIdx)
        return Read->Axis == Axis ? Stride::constant(1) : Stride::zero();
      return Read->Reg == SpecialRegister::LaneId && Axis == 0
                 ? Stride::constant(1)
                 : Stride::zero();
    }
    // Callee summaries follow threadIdx.x only.
    if (auto *Call = dyn_cast<CallBase>(V); Call && Axis == 0)
      if (const Function *Callee = Call->getCalledFunction())
        if (!Callee->isDeclaration() && !Call->getType()->isVoidTy() &&
            llvm::none_of(Call->args(), [&](const Use &Arg) {
              return TD.isThreadDependent(Arg.get());
            }))
          return Callees.returnStride(*Callee);
    return TD.isThreadDependent(V) ? Stride::unknown() : Stride::zero();
  }

  /// A phi that merges equal strides (GVN's PRE joins copies of one
  /// index from two paths) has that stride.
  Stride ofPhi(const PHINode *Phi) const {
    if (!TD.isThreadDependent(Phi))
      return Stride::zero();
    if (!SE.isSCEVable(Phi->getType()) || !InProgress.insert(Phi).second)
      return Stride::unknown();
    std::optional<Stride> Common;
    for (const Value *In : Phi->incoming_values()) {
      Stride D = (*this)(SE.getSCEV(const_cast<Value *>(In)));
      if (Common && (D.K != Common->K || D.Bytes != Common->Bytes)) {
        Common = Stride::unknown();
        break;
      }
      Common = D;
    }
    InProgress.erase(Phi);
    return Common.value_or(Stride::unknown());
  }

  Stride ofProduct(const SCEVMulExpr *Mul) const {
    Stride Varying = Stride::zero();
    std::optional<int64_t> Scale = 1; // empty: a symbolic factor
    for (const SCEV *Op : Mul->operands()) {
      Stride D = (*this)(Op);
      if (D.K != Stride::Zero) {
        if (Varying.K != Stride::Zero)
          return Stride::unknown(); // tid * tid
        Varying = D;
      } else if (auto *C = dyn_cast<SCEVConstant>(Op); C && Scale) {
        Scale = *Scale * C->getAPInt().getSExtValue();
      } else {
        Scale = std::nullopt;
      }
    }
    return scaleStride(Varying, Scale);
  }
};
} // namespace

Stride addressStride(const Value *Ptr, ScalarEvolution &SE,
                     const ThreadDependence &TD, CalleeSummaries &Callees,
                     unsigned Axis) {
  if (!SE.isSCEVable(Ptr->getType()))
    return TD.isThreadDependent(Ptr) ? Stride::unknown() : Stride::zero();
  return StrideOf{TD, Callees, Axis, SE}(SE.getSCEV(const_cast<Value *>(Ptr)));
}

Stride scevStride(const SCEV *Address, ScalarEvolution &SE,
                  const ThreadDependence &TD, CalleeSummaries &Callees,
                  unsigned Axis) {
  return StrideOf{TD, Callees, Axis, SE}(Address);
}

struct CalleeSummaries::Summary {
  bool ThreadDependent = false;
  Stride ReturnStride = Stride::zero();
};

CalleeSummaries::CalleeSummaries() = default;
CalleeSummaries::~CalleeSummaries() = default;

const CalleeSummaries::Summary &CalleeSummaries::summarize(const Function &F) {
  auto It = Summaries.find(&F);
  if (It != Summaries.end())
    return *It->second;
  // Recursion: the in-progress entry answers "unknown".
  auto &Slot = Summaries[&F];
  Slot = std::make_unique<Summary>();
  Slot->ThreadDependent = true;
  Slot->ReturnStride = Stride::unknown();

  Function &Fn = const_cast<Function &>(F);
  ThreadDependence TD(F, [&](const Function &Callee) {
    return returnsThreadDependent(Callee);
  });
  const Value *Returned = nullptr;
  for (const BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      if (const Value *V = Ret->getReturnValue()) {
        if (Returned && Returned != V) {
          Returned = nullptr; // several results: stay conservative
          break;
        }
        Returned = V;
      }
  auto Result = std::make_unique<Summary>(*Slot);
  if (Returned) {
    Result->ThreadDependent = TD.isThreadDependent(Returned);
    LocalAnalyses A(Fn);
    Result->ReturnStride = addressStride(Returned, A.SE, TD, *this);
  }
  Slot = std::move(Result);
  return *Slot;
}

bool CalleeSummaries::returnsThreadDependent(const Function &F) {
  return summarize(F).ThreadDependent;
}

Stride CalleeSummaries::returnStride(const Function &F) {
  return summarize(F).ReturnStride;
}

} // namespace energy
