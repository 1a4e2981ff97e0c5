//===- InstructionClasses.cpp - What an LLVM instruction is ----------------===//

#include "InstructionClasses.h"

#include "CallClassifier.h"
#include "FeatureCore.h"

#include "energy/FeatureAnalysis.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace energy {

unsigned lanes(const Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements();
  return 1;
}

bool isBarrier(const Instruction &I) {
  auto *Call = dyn_cast<CallBase>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && classifyCallee(Callee->getName()) == CallKind::Barrier;
}

const Instruction *fusedOperand(const Instruction &Add) {
  if ((Add.getOpcode() != Instruction::FAdd &&
       Add.getOpcode() != Instruction::FSub) ||
      !Add.hasAllowContract())
    return nullptr;
  for (const Value *Op : Add.operands())
    if (auto *Mul = dyn_cast<Instruction>(Op))
      if (Mul->getOpcode() == Instruction::FMul && Mul->hasAllowContract() &&
          Mul->hasOneUse())
        return Mul;
  return nullptr;
}

bool fusesIntoUser(const Instruction &I) {
  if (I.getOpcode() != Instruction::FMul || !I.hasOneUse())
    return false;
  return fusedOperand(*cast<Instruction>(*I.user_begin())) == &I;
}

ScalarKind scalarKind(const Type *T) {
  const Type *Scalar = T->getScalarType();
  if (Scalar->isFloatTy())
    return ScalarKind::F32;
  if (Scalar->isHalfTy() || Scalar->isBFloatTy())
    return ScalarKind::F16;
  if (Scalar->isDoubleTy())
    return ScalarKind::F64;
  return ScalarKind::Other;
}

std::optional<CopyPieces> memIntrinsicPieces(const MemIntrinsic &M) {
  auto *Length = dyn_cast<ConstantInt>(M.getLength());
  if (!Length)
    return std::nullopt;
  uint64_t Align = M.getDestAlign().valueOrOne().value();
  if (auto *Copy = dyn_cast<MemTransferInst>(&M))
    Align = std::min(Align, Copy->getSourceAlign().valueOrOne().value());
  return copyPieces(Length->getZExtValue(), Align);
}

// Phis become register assignments the allocator coalesces; freezes, no-op
// casts and the element and field moves of vectors and aggregates (NVPTX
// keeps each element in a register of its own) rename registers. Debug
// records and lifetime markers are not code at all.
unsigned issueSlots(const Instruction &I, const DataLayout &DL) {
  if (I.isDebugOrPseudoInst() || I.isLifetimeStartOrEnd())
    return 0;
  if (isa<PHINode, FreezeInst, ShuffleVectorInst, ExtractValueInst,
          InsertValueInst>(I))
    return 0;
  if (auto *Cast = dyn_cast<CastInst>(&I); Cast && Cast->isNoopCast(DL))
    return 0;
  if (auto *Extract = dyn_cast<ExtractElementInst>(&I))
    return isa<ConstantInt>(Extract->getIndexOperand()) ? 0 : 1;
  if (auto *Insert = dyn_cast<InsertElementInst>(&I))
    return isa<ConstantInt>(Insert->getOperand(2)) ? 0 : 1;
  if (auto *Mem = dyn_cast<MemIntrinsic>(&I))
    if (auto P = memIntrinsicPieces(*Mem))
      return P->Pieces * (isa<MemTransferInst>(Mem) ? 2 : 1);
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return memoryIssueSlots(double(DL.getTypeStoreSize(Load->getType())));
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return memoryIssueSlots(
        double(DL.getTypeStoreSize(Store->getValueOperand()->getType())));
  // The widest vector the operation reads or writes (a compare's result is
  // a vector of i1, its operands tell the element type).
  const Type *Widest = I.getType();
  for (const Value *Op : I.operands())
    if (lanes(Op->getType()) > lanes(Widest))
      Widest = Op->getType();
  if (auto *VT = dyn_cast<FixedVectorType>(Widest))
    return vectorIssueSlots(VT->getNumElements(),
                            VT->getScalarSizeInBits());
  return 1;
}

} // namespace energy
