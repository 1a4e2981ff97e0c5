//===- FeatureCore.h - What both feature analyses count ---------*- C++ -*-===//
//
// The IR-neutral core of the two feature analyses (LLVM IR in
// FeatureAnalysis.cpp, the gpu dialect in lib/MLIR): each reads its IR into
// the plain descriptions here, and the core turns them into KernelFeatures
// counts, so a kernel written either way counts the same. With Stride.h
// (coalescing classes) and CallClassifier.h (what a call or math op costs).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_FEATURECORE_H
#define ENERGY_LIB_FEATURECORE_H

#include "Stride.h"

#include "energy/KernelFeatures.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>

namespace energy {

/// Trip counts above this are not believed: a bound taken from an index
/// type's range, not from the code.
constexpr unsigned MaxBelievableTrip = 1u << 16;

enum class MemSpace { Global, Shared, Local, Const, Param, Generic };

/// The space of an NVPTX address space number (0 and unknown ones: generic).
MemSpace nvptxMemSpace(unsigned AddressSpace);

/// One load or store as an adapter reads it.
struct MemoryAccess {
  MemSpace Space = MemSpace::Generic;
  double Bytes = 0;   // the stored size of the accessed type
  unsigned Lanes = 1; // more than one: a vector access
  bool IsStore = false;
};

/// Adds A, executed W times per thread: its count and bytes in its space,
/// the widest access, vector accesses, and the coalescing class of a global
/// access, which GlobalClass computes (only asked for global accesses).
void countMemoryAccess(KernelFeatures &Out, const MemoryAccess &A, double W,
                       llvm::function_ref<StrideClass()> GlobalClass);

/// The longest chain of operations in one straight-line block each of which
/// uses the one before: the steps a thread needs at least, however many
/// independent operations it could issue between them (ILP = instructions /
/// steps). Operations are added in order, each with the operations it uses;
/// one not added (of another block, a phi) is ready from the start.
class DependenceDepth {
public:
  void add(const void *Op, llvm::ArrayRef<const void *> Uses);
  unsigned longest() const { return Longest; }

private:
  llvm::DenseMap<const void *, unsigned> Depth;
  unsigned Longest = 0;
};

/// 32-bit registers that hold Bits bits of one value: at least one.
unsigned registersForBits(uint64_t Bits);

/// 32-bit registers that hold a vector of Lanes elements of ElementBits
/// each: elements narrower than 32 bits pack (a 2 x f16 vector is one
/// register, as NVPTX holds it); wider ones take their own registers.
unsigned registersForVector(uint64_t Lanes, uint64_t ElementBits);

/// A value's registers, live at the program points First to Last
/// (inclusive) of an adapter's numbering.
struct LiveSpan {
  unsigned First = 0, Last = 0;
  double Registers = 0;
};

/// The most registers live at one point: the peak of the spans' sum.
double peakOfLiveSpans(llvm::ArrayRef<LiveSpan> Spans);

} // namespace energy

#endif
