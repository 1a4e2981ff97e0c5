//===- Occupancy.h - Resident blocks and warps per SM -----------*- C++ -*-===//
//
// How many blocks of a kernel fit on one SM at once, by NVIDIA's rules (the
// CUDA Occupancy Calculator; cuda_occupancy.h behind
// cudaOccupancyMaxActiveBlocksPerMultiprocessor), for the default carveout
// (the largest shared memory partition) and opt-in dynamic shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_OCCUPANCY_H
#define ENERGY_OCCUPANCY_H

#include "energy/GpuArch.h"

namespace energy {

/// Which resource stops one more block from fitting. When several stop it at
/// the same count, the first in this order is named: a hardware slot limit
/// (Threads, Blocks) before a kernel resource (Registers, SharedMemory),
/// because then spending fewer registers or bytes would not add a block.
enum class OccupancyLimiter {
  Threads,
  Blocks,
  Registers,
  SharedMemory,
  Invalid
};

/// Registers assumed when OccupancyInput::RegistersPerThread is 0 (unknown).
constexpr unsigned DefaultRegistersPerThread = 32;

struct OccupancyInput {
  unsigned ThreadsPerBlock;
  unsigned RegistersPerThread; // 0: unknown, DefaultRegistersPerThread is used
  unsigned SharedMemPerBlock;  // bytes, static + dynamic
};

struct Occupancy {
  unsigned ActiveBlocksPerSM = 0;
  unsigned ActiveWarpsPerSM = 0;
  double Fraction = 0; // ActiveWarpsPerSM / MaxWarpsPerSM
  /// Invalid when the block cannot launch at all: no threads, too many
  /// threads, registers per thread or per block, or shared memory.
  OccupancyLimiter Limiter = OccupancyLimiter::Invalid;
};

Occupancy computeOccupancy(const GpuArch &Arch, const OccupancyInput &In);

/// "threads", "blocks", "registers", "shared-memory" or "invalid".
const char *limiterName(OccupancyLimiter Limiter);

} // namespace energy

#endif
