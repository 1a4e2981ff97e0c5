//===- RegisterPressure.cpp - Peak live values of a function --------------===//

#include "RegisterPressure.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include <algorithm>

using namespace llvm;

namespace energy {

unsigned registersForType(const Type *T, const DataLayout &DL) {
  if (T->isVoidTy() || T->isIntegerTy(1) || T->isLabelTy() ||
      T->isMetadataTy() || T->isTokenTy())
    return 0;
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements() * registersForType(VT->getElementType(), DL);
  if (T->isAggregateType())
    return static_cast<unsigned>((DL.getTypeStoreSize(const_cast<Type *>(T)) + 3) / 4);
  uint64_t Bits = DL.getTypeSizeInBits(const_cast<Type *>(T)).getFixedValue();
  return static_cast<unsigned>(std::max<uint64_t>(1, (Bits + 31) / 32));
}

/// Values that occupy registers: instructions with a result and arguments.
static bool occupiesRegister(const Value *V) {
  return isa<Instruction>(V) || isa<Argument>(V);
}

unsigned peakLiveRegisters(const Function &F) {
  if (F.isDeclaration())
    return 0;
  const DataLayout &DL = F.getParent()->getDataLayout();
  using ValueSet = DenseSet<const Value *>;
  DenseMap<const BasicBlock *, ValueSet> LiveIn, LiveOut;

  // Backward dataflow to a fixed point. Phi operands are live out of the
  // incoming block only.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const BasicBlock &BB : reverse(F)) {
      ValueSet Out;
      for (const BasicBlock *Succ : successors(&BB)) {
        for (const Value *V : LiveIn[Succ])
          Out.insert(V);
        for (const PHINode &Phi : Succ->phis()) {
          Out.erase(&Phi);
          const Value *In = Phi.getIncomingValueForBlock(&BB);
          if (In && occupiesRegister(In))
            Out.insert(In);
        }
      }
      ValueSet In = Out;
      for (const Instruction &I : reverse(BB)) {
        In.erase(&I);
        if (isa<PHINode>(I)) {
          In.insert(&I);
          continue;
        }
        for (const Value *Op : I.operands())
          if (occupiesRegister(Op))
            In.insert(Op);
      }
      if (Out.size() != LiveOut[&BB].size()) {
        LiveOut[&BB] = std::move(Out);
        Changed = true;
      }
      if (In.size() != LiveIn[&BB].size()) {
        LiveIn[&BB] = std::move(In);
        Changed = true;
      }
    }
  }

  unsigned Peak = 0;
  auto Weight = [&](const ValueSet &Set) {
    unsigned Sum = 0;
    for (const Value *V : Set)
      Sum += registersForType(V->getType(), DL);
    return Sum;
  };
  for (const BasicBlock &BB : F) {
    ValueSet Live = LiveOut[&BB];
    unsigned Current = Weight(Live);
    Peak = std::max(Peak, Current);
    for (const Instruction &I : reverse(BB)) {
      if (isa<PHINode>(I))
        break;
      if (Live.erase(&I))
        Current -= registersForType(I.getType(), DL);
      for (const Value *Op : I.operands())
        if (occupiesRegister(Op) && Live.insert(Op).second)
          Current += registersForType(Op->getType(), DL);
      Peak = std::max(Peak, Current);
    }
  }
  return Peak;
}

} // namespace energy
