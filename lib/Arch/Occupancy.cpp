//===- Occupancy.cpp - Resident blocks and warps per SM -------------------===//
//
// Follows cudaOccMaxActiveBlocksPerMultiprocessor (cuda_occupancy.h, CUDA
// 13.0) for the devices in the architecture table: partitioned global caching
// (Pascal only), barrier and virtual-resource limits (inputs we do not have)
// are left out. One difference: more than MaxRegistersPerThread (255, what
// ptxas can allocate) is invalid here, where cuda_occupancy.h allows 256.
//
//===----------------------------------------------------------------------===//

#include "energy/Occupancy.h"

#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <iterator>
#include <limits>

using namespace energy;
using llvm::alignTo;
using llvm::divideCeil;

/// Blocks per SM allowed by the register file, or 0 if one block does not fit.
/// Registers are allocated per warp in units of RegisterAllocUnitSize, and
/// each warp takes them from one of WarpAllocGranularity sub-partitions.
static unsigned blocksByRegisters(const GpuArch &Arch, unsigned Registers,
                                  unsigned WarpsPerBlock) {
  unsigned PerWarp =
      alignTo(Registers * Arch.WarpSize, Arch.RegisterAllocUnitSize);
  // The hardware's per-block check assumes the block's warps are spread over
  // all sub-partitions, so it rounds the warp count up to a multiple of them.
  unsigned AssumedPerBlock =
      PerWarp * alignTo(WarpsPerBlock, Arch.WarpAllocGranularity);
  if (AssumedPerBlock > Arch.MaxRegistersPerBlock)
    return 0;
  unsigned WarpsPerSubPartition =
      Arch.RegistersPerSM / Arch.WarpAllocGranularity / PerWarp;
  return WarpsPerSubPartition * Arch.WarpAllocGranularity / WarpsPerBlock;
}

/// Blocks per SM allowed by shared memory, or 0 if one block does not fit.
static unsigned blocksBySharedMemory(const GpuArch &Arch, unsigned Bytes) {
  if (Bytes > Arch.MaxSharedMemPerBlock)
    return 0;
  // The driver's reserve is a multiple of the allocation unit on every row,
  // so adding it after rounding equals NVIDIA's rounding of the sum.
  unsigned PerBlock =
      alignTo(Bytes, Arch.SharedMemAllocUnit) + Arch.ReservedSharedMemPerBlock;
  if (PerBlock == 0)
    return std::numeric_limits<unsigned>::max();
  return Arch.SharedMemPerSM / PerBlock;
}

Occupancy energy::computeOccupancy(const GpuArch &Arch,
                                   const OccupancyInput &In) {
  Occupancy Result;
  unsigned Registers =
      In.RegistersPerThread ? In.RegistersPerThread : DefaultRegistersPerThread;
  if (In.ThreadsPerBlock == 0 || In.ThreadsPerBlock > Arch.MaxThreadsPerBlock ||
      Registers > Arch.MaxRegistersPerThread)
    return Result;

  unsigned WarpsPerBlock = divideCeil(In.ThreadsPerBlock, Arch.WarpSize);
  // In OccupancyLimiter order: the first minimum names the limiter.
  const unsigned Limits[] = {
      Arch.MaxWarpsPerSM / WarpsPerBlock,
      Arch.MaxBlocksPerSM,
      blocksByRegisters(Arch, Registers, WarpsPerBlock),
      blocksBySharedMemory(Arch, In.SharedMemPerBlock),
  };
  const unsigned *Min = std::min_element(std::begin(Limits), std::end(Limits));
  if (*Min == 0)
    return Result;

  Result.ActiveBlocksPerSM = *Min;
  Result.ActiveWarpsPerSM = *Min * WarpsPerBlock;
  Result.Fraction = double(Result.ActiveWarpsPerSM) / Arch.MaxWarpsPerSM;
  Result.Limiter = OccupancyLimiter(Min - std::begin(Limits));
  return Result;
}

const char *energy::limiterName(OccupancyLimiter Limiter) {
  switch (Limiter) {
  case OccupancyLimiter::Threads:
    return "threads";
  case OccupancyLimiter::Blocks:
    return "blocks";
  case OccupancyLimiter::Registers:
    return "registers";
  case OccupancyLimiter::SharedMemory:
    return "shared-memory";
  case OccupancyLimiter::Invalid:
    return "invalid";
  }
  return "invalid";
}
