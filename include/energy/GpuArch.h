//===- GpuArch.h - NVIDIA GPU architecture tables ---------------*- C++ -*-===//
//
// One row per supported compute capability: the occupancy limits of the
// architecture (CUDA C++ Programming Guide, "Technical Specifications per
// Compute Capability"; cuda_occupancy.h) and the performance and power of one
// reference board, named in ReferenceGpu, that the analytic cost model uses.
// The rows and the source of every number live in lib/Arch/GpuArch.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_GPUARCH_H
#define ENERGY_GPUARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace energy {

struct GpuArch {
  unsigned SmVersion;       // 90 for sm_90
  const char *Name;         // "sm_90"
  const char *ReferenceGpu; // the board the performance/power figures describe

  // Occupancy limits of the compute capability.
  unsigned WarpSize;
  unsigned MaxThreadsPerBlock;
  unsigned MaxThreadsPerSM;
  unsigned MaxWarpsPerSM;
  unsigned MaxBlocksPerSM;
  unsigned RegistersPerSM; // 32-bit registers
  unsigned MaxRegistersPerThread;
  unsigned MaxRegistersPerBlock;
  unsigned RegisterAllocUnitSize; // registers; allocated per warp
  /// Registers are split among this many SM sub-partitions (warp schedulers);
  /// a warp's registers come from one of them, so the register-limited warp
  /// count per SM is a multiple of it.
  unsigned WarpAllocGranularity;
  unsigned SharedMemPerSM;       // bytes, largest carveout
  unsigned MaxSharedMemPerBlock; // bytes, with cudaFuncSetAttribute opt-in
  unsigned MaxSharedMemPerBlockDefault; // bytes, without opt-in
  unsigned SharedMemAllocUnit;          // bytes
  unsigned ReservedSharedMemPerBlock;   // bytes the driver adds to each block

  // Performance and power of ReferenceGpu.
  unsigned SMCount;
  double BoostClockGHz;
  double PeakFp32TFlops;
  double PeakFp16TFlops;       // without tensor cores
  double PeakFp64TFlops;       // without tensor cores
  double PeakTensorFp16TFlops; // dense (no 2:4 sparsity), FP32 accumulate
  double DramBandwidthGBs;
  double SharedBytesPerClockPerSM;
  double L2BandwidthGBs; // estimate or derivation: see the table
  double IdlePowerW;     // estimate: see the table
  double MaxPowerW;      // board TDP
};

/// Every row, ascending by SmVersion: sm_70, 75, 80, 86, 89, 90, 100.
llvm::ArrayRef<GpuArch> allGpuArchs();

/// The row for exactly SmVersion, or nullptr.
const GpuArch *lookupGpuArch(unsigned SmVersion);

/// The row to use for SmVersion when there may be no exact one: the exact row;
/// else the closest lower row of the same major version (sm_87 -> sm_86),
/// else the closest row of the same major version; else the closest lower row
/// of any major (sm_120 -> sm_100); else the lowest row (sm_60 -> sm_70).
/// Never nullptr.
const GpuArch *nearestGpuArch(unsigned SmVersion);

/// The number in an NVPTX CPU name: "sm_90" -> 90, "sm_90a" -> 90,
/// "sm_100a" -> 100, "sm_100f" -> 100. Two or three digits without a leading
/// zero, then at most one 'a' (architecture-specific) or 'f' (family) suffix.
/// Anything else ("compute_90", "sm_9", "SM_90", "sm_90b", "") -> nullopt.
std::optional<unsigned> parseSmVersion(llvm::StringRef Cpu);

/// The row for an architecture the user named (an option): an error when
/// Name is not sm_XX, or when no row has it, listing the known ones. Unlike
/// a module's target, it never falls back to another architecture.
llvm::Expected<const GpuArch *> parseGpuArchOption(llvm::StringRef Name);

/// The tables for Target ("sm_90", "sm_90a"). When Target names no sm_XX,
/// sm_90's, with a note ("no <Missing>; assuming sm_90" for an empty Target);
/// when no table exists, the nearest one's, with a note.
const GpuArch &resolveGpuArch(llvm::StringRef Target, llvm::StringRef Missing,
                              std::vector<std::string> &Notes);

} // namespace energy

#endif
