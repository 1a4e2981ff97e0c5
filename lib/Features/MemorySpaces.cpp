//===- MemorySpaces.cpp - Which NVPTX memory a pointer reaches ------------===//

#include "MemorySpaces.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace energy {

MemSpace MemorySpaces::resolve(const Value *Ptr, unsigned Depth) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS != 0)
    return nvptxMemSpace(AS);
  const Value *Obj = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  if (auto *Cast = dyn_cast<AddrSpaceCastOperator>(Obj))
    return nvptxMemSpace(Cast->getSrcAddressSpace());
  if (Obj->getType()->getPointerAddressSpace() != 0)
    return nvptxMemSpace(Obj->getType()->getPointerAddressSpace());
  if (auto *Arg = dyn_cast<Argument>(Obj)) {
    if (Arg->getParent() != Kernel)
      return MemSpace::Generic;
    // Structs passed by value live in the parameter space.
    return Arg->hasByValAttr() ? MemSpace::Param : MemSpace::Global;
  }
  if (isa<AllocaInst>(Obj))
    return MemSpace::Local;
  // -O0 keeps each argument in a stack slot: a pointer reloaded from a
  // slot whose only store is a resolvable pointer has that pointer's space.
  constexpr unsigned MaxReloads = 4;
  if (auto *Load = dyn_cast<LoadInst>(Obj); Load && Depth < MaxReloads)
    if (auto *Slot = dyn_cast<AllocaInst>(
            getUnderlyingObject(Load->getPointerOperand(), 0)))
      if (const StoreInst *Store = onlyStoreTo(*Slot);
          Store && Store->getValueOperand()->getType()->isPointerTy())
        return resolve(Store->getValueOperand(), Depth + 1);
  return MemSpace::Generic;
}

const StoreInst *MemorySpaces::onlyStoreTo(const AllocaInst &Slot) {
  auto [It, New] = OnlyStores.try_emplace(&Slot, nullptr);
  if (!New)
    return It->second;
  const StoreInst *Only = nullptr;
  for (const User *U : Slot.users())
    if (auto *Store = dyn_cast<StoreInst>(U)) {
      if (Store->getPointerOperand() != &Slot || Only)
        return nullptr;
      Only = Store;
    }
  return It->second = Only;
}

/// Whether every thread of Kernel's grid reaches the same address through
/// Ptr: one of Kernel's arguments or a global variable, plus constant offsets.
bool sameAddressForTheGrid(const Value *Ptr, const Function &Kernel,
                           const DataLayout &DL) {
  for (const Value *Prev = nullptr; Ptr != Prev;) {
    Prev = Ptr;
    APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
    Ptr = Ptr->stripAndAccumulateConstantOffsets(DL, Offset,
                                                 /*AllowNonInbounds=*/true);
    Ptr = Ptr->stripPointerCasts();
  }
  if (auto *Arg = dyn_cast<Argument>(Ptr))
    return Arg->getParent() == &Kernel;
  return isa<GlobalVariable>(Ptr);
}

} // namespace energy
