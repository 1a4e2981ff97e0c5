//===- DramFloor.cpp - The time a launch's compulsory DRAM traffic needs --===//

#include "DramFloor.h"

#include "MemoryTraffic.h"

#include "energy/GpuArch.h"

#include <algorithm>

namespace energy {

double compulsoryDramBytes(const CostQuery &Q) {
  const KernelFeatures &F = *Q.Features;
  double Tiled = nonNegative(F.global_footprint_tiled_bytes);
  double SharedWithOthers = nonNegative(F.global_footprint_row_shared_bytes) +
                            nonNegative(F.global_footprint_column_shared_bytes) +
                            nonNegative(F.global_footprint_grid_shared_bytes);
  double Own = nonNegative(Tiled - SharedWithOthers);
  double Threads = double(Q.threadsPerBlock());
  double Working =
      Threads * double(Q.Blocks) *
      std::clamp(1 - nonNegative(F.past_the_end_threads), 0.0, 1.0);
  return Own * Working + std::min(SharedWithOthers, Tiled) * Threads;
}

double compulsoryDramSeconds(const CostQuery &Q) {
  double Bandwidth = Q.Arch->DramBandwidthGBs * 1e9;
  return Bandwidth > 0 ? compulsoryDramBytes(Q) / Bandwidth : 0;
}

} // namespace energy
