//===- MemoryTraffic.h - A thread's bytes through L2 and DRAM -*- C++ -*-===//
//
// The analytic model's memory hierarchy: what one thread's global and local
// accesses move through L2 and from DRAM, after coalescing (whole 32-byte
// sectors), the reuse of the block's threads and of the blocks running
// together (served by L1 and L2 while their working sets fit), and local
// frames beyond the caches.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MEMORYTRAFFIC_H
#define ENERGY_LIB_MEMORYTRAFFIC_H

#include "energy/CostModel.h"

namespace energy {

/// DRAM and L2 move 32-byte sectors (CUDA C++ Best Practices Guide,
/// "Coalesced Access to Global Memory"): a warp's coalesced access moves
/// exactly its bytes; a strided or irregular access moves one sector per
/// thread; a uniform access (one address for the warp) moves its bytes once
/// per warp.
constexpr double SectorBytes = 32;

/// Bytes per thread.
struct MemoryTraffic {
  double DramBytes = 0;      // moved from DRAM
  double StreamedBytes = 0;  // the same without any reuse
  double L2Bytes = 0;        // sectors through L2, partial rows included
  double L1Bytes = 0;        // sectors through L1's data stage, before reuse
  double L1Accesses = 0;     // the global accesses that move them
  double GlobalAccesses = 0; // accesses that can miss to DRAM
};

MemoryTraffic memoryTraffic(const KernelFeatures &F, const CostQuery &Q);

/// Negative and NaN counts (never produced, but a model must not trust its
/// input) read as zero.
inline double nonNegative(double X) { return X > 0 ? X : 0; }

} // namespace energy

#endif
