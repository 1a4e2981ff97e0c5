//===- MemorySpaces.h - Which NVPTX memory a pointer reaches ----*- C++ -*-===//
#ifndef ENERGY_LIB_MEMORYSPACES_H
#define ENERGY_LIB_MEMORYSPACES_H

#include "FeatureCore.h"

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class AllocaInst;
class DataLayout;
class Function;
class StoreInst;
class Value;
} // namespace llvm

namespace energy {

/// NVPTX address spaces; generic pointers are resolved through their
/// underlying object: the kernel's pointer arguments point to global memory
/// (the same assumption NVPTXLowerArgs makes), allocas to local memory.
class MemorySpaces {
public:
  explicit MemorySpaces(const llvm::Function &Kernel) : Kernel(&Kernel) {}

  MemSpace resolve(const llvm::Value *Ptr, unsigned Depth = 0);

private:
  const llvm::Function *Kernel;
  /// Per slot: -O0 reloads the same slot at every access.
  llvm::DenseMap<const llvm::AllocaInst *, const llvm::StoreInst *> OnlyStores;

  /// The one store into Slot, or null if there are several or Slot itself
  /// is stored somewhere.
  const llvm::StoreInst *onlyStoreTo(const llvm::AllocaInst &Slot);
};

/// Whether every thread of Kernel's grid reaches the same address through
/// Ptr: one of Kernel's arguments or a global variable, plus constant offsets.
bool sameAddressForTheGrid(const llvm::Value *Ptr, const llvm::Function &Kernel,
                           const llvm::DataLayout &DL);

} // namespace energy

#endif
