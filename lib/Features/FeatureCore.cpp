//===- FeatureCore.cpp - What both feature analyses count -----------------===//

#include "FeatureCore.h"

#include <algorithm>
#include <vector>

namespace energy {

unsigned registersForBits(uint64_t Bits) {
  return static_cast<unsigned>(std::max<uint64_t>(1, (Bits + 31) / 32));
}

unsigned registersForVector(uint64_t Lanes, uint64_t ElementBits) {
  if (ElementBits < 32)
    return registersForBits(Lanes * ElementBits);
  return static_cast<unsigned>(Lanes) * registersForBits(ElementBits);
}

double peakOfLiveSpans(llvm::ArrayRef<LiveSpan> Spans) {
  unsigned End = 0;
  for (const LiveSpan &S : Spans)
    End = std::max(End, S.Last + 1);
  std::vector<double> Delta(End + 1, 0);
  for (const LiveSpan &S : Spans) {
    Delta[S.First] += S.Registers;
    Delta[S.Last + 1] -= S.Registers;
  }
  double Current = 0, Peak = 0;
  for (double D : Delta)
    Peak = std::max(Peak, Current += D);
  return Peak;
}

MemSpace nvptxMemSpace(unsigned AddressSpace) {
  switch (AddressSpace) {
  case 1: return MemSpace::Global;
  case 3: return MemSpace::Shared;
  case 4: return MemSpace::Const;
  case 5: return MemSpace::Local;
  case 101: return MemSpace::Param;
  default: return MemSpace::Generic;
  }
}

void countMemoryAccess(KernelFeatures &Out, const MemoryAccess &A, double W,
                       llvm::function_ref<StrideClass()> GlobalClass) {
  Out.max_access_bytes = std::max(Out.max_access_bytes, A.Bytes);
  if (A.Lanes > 1)
    Out.vector_accesses += W;
  auto Count = [&](double &Loads, double &LoadBytes, double &Stores,
                   double &StoreBytes) {
    (A.IsStore ? Stores : Loads) += W;
    (A.IsStore ? StoreBytes : LoadBytes) += W * A.Bytes;
  };
  switch (A.Space) {
  case MemSpace::Global:
    Count(Out.global_loads, Out.global_load_bytes, Out.global_stores,
          Out.global_store_bytes);
    switch (GlobalClass()) {
    case StrideClass::Uniform: Out.global_uniform += W; break;
    case StrideClass::Coalesced: Out.global_coalesced += W; break;
    case StrideClass::Strided: Out.global_strided += W; break;
    case StrideClass::Irregular: Out.global_irregular += W; break;
    }
    return;
  case MemSpace::Shared:
    return Count(Out.shared_loads, Out.shared_load_bytes, Out.shared_stores,
                 Out.shared_store_bytes);
  case MemSpace::Local:
    return Count(Out.local_loads, Out.local_load_bytes, Out.local_stores,
                 Out.local_store_bytes);
  // Constant and parameter space are read-only: every access is a load.
  case MemSpace::Const:
    Out.const_loads += W;
    Out.const_load_bytes += W * A.Bytes;
    return;
  case MemSpace::Param:
    Out.param_loads += W;
    Out.param_load_bytes += W * A.Bytes;
    return;
  case MemSpace::Generic:
    return Count(Out.generic_loads, Out.generic_load_bytes,
                 Out.generic_stores, Out.generic_store_bytes);
  }
}

void DependenceDepth::add(const void *Op, llvm::ArrayRef<const void *> Uses) {
  unsigned D = 0;
  for (const void *Used : Uses)
    D = std::max(D, Depth.lookup(Used));
  Depth[Op] = D + 1;
  Longest = std::max(Longest, D + 1);
}

} // namespace energy
