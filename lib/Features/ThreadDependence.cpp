//===- ThreadDependence.cpp - Values that differ between threads ----------===//

#include "ThreadDependence.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace energy {

std::optional<SpecialRegisterRead> readsSpecialRegister(const Value *V) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee)
    return std::nullopt;
  using R = SpecialRegister;
  switch (Callee->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x: return SpecialRegisterRead{R::ThreadIdx, 0};
  case Intrinsic::nvvm_read_ptx_sreg_tid_y: return SpecialRegisterRead{R::ThreadIdx, 1};
  case Intrinsic::nvvm_read_ptx_sreg_tid_z: return SpecialRegisterRead{R::ThreadIdx, 2};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: return SpecialRegisterRead{R::BlockIdx, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y: return SpecialRegisterRead{R::BlockIdx, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: return SpecialRegisterRead{R::BlockIdx, 2};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x: return SpecialRegisterRead{R::BlockDim, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y: return SpecialRegisterRead{R::BlockDim, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z: return SpecialRegisterRead{R::BlockDim, 2};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x: return SpecialRegisterRead{R::GridDim, 0};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y: return SpecialRegisterRead{R::GridDim, 1};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z: return SpecialRegisterRead{R::GridDim, 2};
  case Intrinsic::nvvm_read_ptx_sreg_laneid: return SpecialRegisterRead{R::LaneId, 0};
  default:
    return std::nullopt;
  }
}

static bool
isThreadSource(const Instruction &I,
               function_ref<bool(const Function &)> ReturnsThreadDependent) {
  if (auto Read = readsSpecialRegister(&I))
    return Read->Reg == SpecialRegister::ThreadIdx ||
           Read->Reg == SpecialRegister::LaneId;
  if (auto *Call = dyn_cast<CallBase>(&I))
    if (const Function *Callee = Call->getCalledFunction())
      return !Callee->isDeclaration() && !Call->getType()->isVoidTy() &&
             ReturnsThreadDependent(*Callee);
  return isa<AtomicRMWInst, AtomicCmpXchgInst>(I);
}

ThreadDependence::ThreadDependence(
    const Function &F,
    function_ref<bool(const Function &)> ReturnsThreadDependent) {
  // Stack slots written with a thread-dependent value: loads from them are
  // thread-dependent too.
  DenseSet<const Value *> TaintedSlots;
  bool Changed = true;
  // A fixed point over the whole function: the sets only grow.
  while (Changed) {
    Changed = false;
    for (const Instruction &I : instructions(F)) {
      if (Dependent.contains(&I))
        continue;
      bool Tainted = isThreadSource(I, ReturnsThreadDependent);
      if (!Tainted) {
        if (auto *Store = dyn_cast<StoreInst>(&I)) {
          const Value *Slot = getUnderlyingObject(Store->getPointerOperand());
          if (isa<AllocaInst>(Slot) &&
              Dependent.contains(Store->getValueOperand()) &&
              TaintedSlots.insert(Slot).second)
            Changed = true;
          continue;
        }
        if (auto *Load = dyn_cast<LoadInst>(&I))
          Tainted = TaintedSlots.contains(
              getUnderlyingObject(Load->getPointerOperand()));
      }
      for (const Value *Op : I.operands())
        Tainted = Tainted || Dependent.contains(Op);
      if (Tainted && !I.getType()->isVoidTy()) {
        Dependent.insert(&I);
        Changed = true;
      }
    }
  }
}

} // namespace energy
