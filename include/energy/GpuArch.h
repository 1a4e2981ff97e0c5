//===- GpuArch.h - NVIDIA compute capabilities and boards -------*- C++ -*-===//
//
// Two tables, with the source of every number, in lib/Arch/GpuArch.cpp:
//  * one row per supported compute capability (sm_XX): the occupancy limits
//    (CUDA C++ Programming Guide, "Technical Specifications per Compute
//    Capability"; cuda_occupancy.h) and the board that stands for it when the
//    user names none;
//  * one row per board (-energy-gpu=NAME): SM count, clocks, peak rates, DRAM
//    and L2, power, from its datasheet or whitepaper.
// A GpuArch, what the cost model reads, is one board joined with the row of
// its compute capability.
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

/// What every board of one compute capability shares.
struct ComputeCapability {
  unsigned SmVersion;     // 90 for sm_90
  const char *Name;       // "sm_90"
  const char *DefaultGpu; // the board used when the user names none

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
  double SharedBytesPerClockPerSM;
  /// L1 data cache and shared memory together per SM, bytes: what shared
  /// memory leaves of it caches global loads. 0 where global loads are not
  /// cached in L1 by default (6.x: L2 only).
  unsigned UnifiedL1Bytes;
};

/// The kind of a board's DRAM: its energy per bit (lib/CostModel/
/// EventEnergies.cpp).
enum class DramKind { GDDR5, GDDR5X, GDDR6, GDDR6X, HBM2, HBM2e, HBM3, HBM3e };

/// The performance and power of one board.
struct GpuBoard {
  const char *Gpu;           // "rtx-a4000": the -energy-gpu name
  const char *MarketingName; // "RTX A4000"
  unsigned BoardSm;          // its compute capability: 86 for sm_86
  unsigned SMCount;
  double BoostClockGHz;
  double BaseClockGHz; // 0 where NVIDIA publishes none
  double PeakFp32TFlops;
  double PeakFp16TFlops;       // without tensor cores
  double PeakFp64TFlops;       // without tensor cores
  double PeakTensorFp16TFlops; // dense (no 2:4 sparsity), FP32 accumulate;
                               // 0 without tensor cores
  double DramBandwidthGBs;
  unsigned L2Bytes;
  double L2BandwidthGBs; // estimate or derivation: see the table
  double IdlePowerW;     // estimate: see the table
  double MaxPowerW;      // board TDP
  DramKind Dram;
  /// The chip's process node, nm (TSMC 4N: 5): what scales the energy of
  /// an operation or an on-chip access (lib/CostModel/EventEnergies.cpp).
  double ProcessNm;
  /// What the board draws during a launch at its boost clock beyond the
  /// model's events, W, where a clock sweep of the board measured it
  /// (lib/CostModel/EventEnergies.cpp, launchFloorW); 0 where none did.
  double LaunchFloorW = 0;
};

/// A board with the limits of its compute capability (SmVersion == BoardSm).
struct GpuArch : ComputeCapability, GpuBoard {};

/// Every compute capability, ascending by SmVersion: sm_52, 60, 61, 70, 75,
/// 80, 86, 89, 90, 100.
llvm::ArrayRef<ComputeCapability> allComputeCapabilities();

/// Every board, grouped by compute capability, ascending.
llvm::ArrayRef<GpuBoard> allGpuBoards();

/// One row per compute capability, with its default board, ascending by
/// SmVersion.
llvm::ArrayRef<GpuArch> allGpuArchs();

/// The compute capability row for exactly SmVersion, or nullptr.
const ComputeCapability *lookupComputeCapability(unsigned SmVersion);

/// The row for exactly SmVersion, with its default board, or nullptr.
const GpuArch *lookupGpuArch(unsigned SmVersion);

/// The row of the board named Gpu ("rtx-a4000"), or nullptr.
const GpuArch *lookupGpuBoard(llvm::StringRef Gpu);

/// The boards as a table for --help-like listings: compute capability,
/// name, marketing name (quoted where it is accepted as a name too), and
/// which board is its architecture's default.
void printGpuBoards(llvm::raw_ostream &OS);

/// Every board's name, comma-separated, in allGpuBoards() order.
const std::string &gpuBoardNames();

/// The row to use for SmVersion when there may be no exact one: the exact row;
/// else the closest lower row of the same major version (sm_87 -> sm_86),
/// else the closest row of the same major version; else the closest lower row
/// of any major (sm_120 -> sm_100); else the lowest row (sm_35 -> sm_52).
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

/// The row for a board the user named (an option): an error listing the
/// known boards when none has that name.
llvm::Expected<const GpuArch *> parseGpuBoardOption(llvm::StringRef Gpu);

/// Checks the arch and gpu options together (either may be empty): each must
/// name a row, and a board of another compute capability than the arch's is
/// an error.
llvm::Error checkGpuOptions(llvm::StringRef Arch, llvm::StringRef Gpu);

/// The tables for Target ("sm_90", "sm_90a") and its default board. When
/// Target names no sm_XX, sm_90's, with a note ("no <Missing>; assuming
/// sm_90" for an empty Target); when no table exists, the nearest one's, with
/// a note; when the architecture has other boards than its default, a note
/// names the default board whose figures stand for the one that runs it.
const GpuArch &resolveGpuArch(llvm::StringRef Target, llvm::StringRef Missing,
                              std::vector<std::string> &Notes);

/// The tables of the board named Gpu (checked by checkGpuOptions) for code
/// compiled for Target: the board's compute capability wins, with a note when
/// Target names another one.
const GpuArch &resolveGpuBoard(llvm::StringRef Target, llvm::StringRef Gpu,
                               std::vector<std::string> &Notes);

} // namespace energy

#endif
