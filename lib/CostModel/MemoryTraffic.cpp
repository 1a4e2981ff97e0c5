//===- MemoryTraffic.cpp - A thread's bytes through L1, L2 and DRAM -------===//

#include "MemoryTraffic.h"

#include "energy/GpuArch.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace energy {

namespace {

/// Bytes per thread the global (and generic) accesses move, repeats
/// included.
double globalBytesAccessed(const KernelFeatures &F) {
  return nonNegative(F.global_load_bytes) + nonNegative(F.global_store_bytes) +
         nonNegative(F.generic_load_bytes) + nonNegative(F.generic_store_bytes);
}

/// The bytes of one SM's unified L1 that the shared memory of its resident
/// blocks leaves to cached data (0 where the architecture caches no global
/// data in L1).
double l1LeftByShared(const CostQuery &Q) {
  const GpuArch &A = *Q.Arch;
  double Blocks = std::max(1u, Q.Occ.ActiveBlocksPerSM);
  return double(A.UnifiedL1Bytes) -
         std::min(double(A.SharedMemPerSM), Blocks * Q.SharedBytesPerBlock);
}

/// DRAM bytes per thread under the coalescing model. Generic accesses count
/// as coalesced global ones (in CUDA an unresolved pointer is nearly always
/// global memory); so do global accesses the stride analysis left
/// unclassified. BlockX < 32 splits a warp's coalesced access into rows that
/// each round up to whole sectors in L2 (L2Bytes); DRAM moves those sectors
/// once. Reuse within a block (halos, broadcasts, tiles re-read by a loop)
/// and among the blocks running together (tiles a grid row or column
/// shares) is applied by reuseInL2 where the features have the block's
/// footprint.
double dramBytesPerThread(const KernelFeatures &F, unsigned BlockX,
                          unsigned WarpSize, double &Accesses,
                          double &L2Bytes) {
  double Bytes = globalBytesAccessed(F);
  Accesses = nonNegative(F.global_loads) + nonNegative(F.global_stores) +
             nonNegative(F.generic_loads) + nonNegative(F.generic_stores);
  if (Accesses <= 0 || Bytes <= 0)
    return Accesses = L2Bytes = 0;
  double PerAccess = Bytes / Accesses;
  double Uniform = std::min(nonNegative(F.global_uniform), Accesses);
  double Scattered =
      std::min(nonNegative(F.global_strided) + nonNegative(F.global_irregular),
               Accesses - Uniform);
  double Coalesced = Accesses - Uniform - Scattered;

  double RowBytes = std::min(BlockX, WarpSize) * PerAccess;
  double RowWaste = std::ceil(RowBytes / SectorBytes) * SectorBytes / RowBytes;
  double Shared = Uniform * PerAccess / WarpSize +
                  Scattered * std::max(PerAccess, SectorBytes);
  // A row narrower than a sector moves whole sectors through L2, but the
  // rest of each sector is the next rows' data, read by the block's other
  // warps while it is still in L2: DRAM moves it once.
  L2Bytes = Coalesced * PerAccess * RowWaste + Shared;
  return Coalesced * PerAccess + Shared;
}

/// Blocks along the grid's x axis: as the launch states them, else all of
/// them for a kernel that reads no blockIdx.y or .z, else those of a square
/// domain of threads (Block[0] x columns = Block[1] x rows).
double gridColumns(const KernelFeatures &F, const CostQuery &Q) {
  double Blocks = std::max<double>(1, double(Q.Blocks));
  if (Q.GridColumns > 0)
    return std::min(Blocks, double(Q.GridColumns));
  if (F.Dims.BlockIdx.find_first_of("yz") == std::string::npos)
    return Blocks;
  double Square = std::sqrt(Blocks * Q.Block[1] / Q.Block[0]);
  return std::clamp(std::round(Square), 1.0, Blocks);
}

/// The share of a block's footprint that ResidentBlocks blocks running
/// together do not read from one another: blocks start in grid order (x
/// fastest), so they span every column of few rows. A grid row's blocks
/// read the same tile where the address depends on blockIdx.y only (a
/// GEMM's A), a column's where it depends on blockIdx.x only (its B).
double unsharedFootprintShare(const KernelFeatures &F, const CostQuery &Q,
                              double ResidentBlocks) {
  double Footprint = nonNegative(F.global_footprint_bytes);
  double Row = nonNegative(F.global_footprint_row_shared_bytes);
  double Column = nonNegative(F.global_footprint_column_shared_bytes);
  double Grid = nonNegative(F.global_footprint_grid_shared_bytes);
  double Shared = Row + Column + Grid;
  if (Footprint <= 0 || Shared <= 0)
    return 1;
  Shared = std::min(Shared, Footprint);
  double Blocks = std::max<double>(1, double(Q.Blocks));
  double Together = std::clamp(ResidentBlocks, 1.0, Blocks);
  double Columns = gridColumns(F, Q);
  double Rows = std::ceil(Blocks / Columns);
  // Distinct tiles among the blocks running together, per block.
  double RowsSpanned = std::min(Rows, (Together - 1) / Columns + 1);
  double ColumnsSpanned = std::min(Columns, Together);
  double Distinct = (Footprint - Shared) + Row * RowsSpanned / Together +
                    Column * ColumnsSpanned / Together + Grid / Together;
  return std::clamp(Distinct / Footprint, 0.0, 1.0);
}

/// Bytes per thread through one level of the memory hierarchy, split by
/// whether the block's footprint covers the accesses that move them.
struct CoverSplit {
  double Uncovered = 0, Covered = 0;
};

/// Bytes (moved by the class model of dramBytesPerThread) split by cover:
/// the covered accesses move their exact per-warp sectors where the
/// features count them, else their share of Bytes.
CoverSplit splitByCover(const KernelFeatures &F, double Bytes) {
  double Accessed = globalBytesAccessed(F);
  double Covered =
      std::min(nonNegative(F.global_footprint_accessed_bytes), Accessed);
  if (Accessed <= 0 || Covered <= 0)
    return {Bytes, 0};
  double Share = Covered / Accessed;
  double WarpSectors = nonNegative(F.global_warp_sector_bytes);
  return {Bytes * (1 - Share), WarpSectors > 0 ? WarpSectors : Bytes * Share};
}

/// Bytes per thread through one level of the memory hierarchy once the
/// cache in front of it serves the block's reuse: the covered accesses move
/// their distinct sectors (the footprint), as long as the working sets of
/// the ResidentBlocks blocks sharing the cache fit in its Capacity (a
/// block's threads share data while they run through a loop side by side:
/// one iteration's footprint, the whole footprint where the features have
/// no working set); beyond that, the share that does not fit moves as often
/// as it is accessed. Of the footprint, the share Unshared is not read by
/// the other resident blocks too; Excluded bytes of the footprint and the
/// working set are not the accesses' own.
double withBlockReuse(const KernelFeatures &F, const CostQuery &Q,
                      CoverSplit Bytes, double ResidentBlocks, double Capacity,
                      double Unshared = 1, double Excluded = 0) {
  double Footprint =
      nonNegative(nonNegative(F.global_footprint_bytes) - Excluded) * Unshared;
  if (Bytes.Covered <= 0 || Footprint <= 0 || Footprint >= Bytes.Covered)
    return Bytes.Uncovered + Bytes.Covered;
  double WorkingSet =
      F.global_working_set_bytes > 0
          ? std::min(nonNegative(F.global_working_set_bytes - Excluded) *
                         Unshared,
                     Footprint)
          : Footprint;
  double Resident = WorkingSet * Q.threadsPerBlock() * ResidentBlocks;
  double Fits = Capacity > 0 ? std::clamp(Capacity / Resident, 0.0, 1.0) : 1.0;
  return Bytes.Uncovered + Footprint + (Bytes.Covered - Footprint) * (1 - Fits);
}

/// DRAM bytes per thread with the reuse of the blocks resident on the whole
/// GPU served by L2, within each block and among them. Neighbouring blocks
/// run close together in grid order, so the bytes one reads of another's
/// tile (a stencil's halo) are still in L2: DRAM moves the block's share
/// of a tiling of the grid (global_footprint_tiled_bytes), not its whole
/// footprint.
double reuseInL2(const KernelFeatures &F, const CostQuery &Q, CoverSplit Dram) {
  const GpuArch &A = *Q.Arch;
  double Resident = double(std::max(1u, Q.Occ.ActiveBlocksPerSM)) * A.SMCount;
  double Tiled = nonNegative(F.global_footprint_tiled_bytes);
  double Halo =
      Tiled > 0 ? nonNegative(nonNegative(F.global_footprint_bytes) - Tiled)
                : 0;
  return withBlockReuse(F, Q, Dram, Resident, A.L2Bytes,
                        unsharedFootprintShare(F, Q, Resident), Halo);
}

/// L2 bytes per thread with the reuse of the blocks resident on one SM
/// served by what shared memory leaves of its L1, where the features have a
/// working set (without one, the whole footprint is taken not to fit). L1
/// keeps no global stores (write-through: PTX ISA, "Cache Operators"): it
/// serves the loads' reuse, while each warp's store sectors reach L2.
double reuseInL1(const KernelFeatures &F, const CostQuery &Q, CoverSplit L2) {
  const GpuArch &A = *Q.Arch;
  if (F.global_working_set_bytes <= 0 || A.UnifiedL1Bytes == 0)
    return L2.Uncovered + L2.Covered;
  double Stores =
      std::min(nonNegative(F.global_store_warp_sector_bytes), L2.Covered);
  // The stores' part of the footprint: the bytes they write, at most their
  // warps' sectors (a block's threads write distinct elements).
  double StoreFootprint = std::min(nonNegative(F.global_store_bytes), Stores);
  CoverSplit Loads = {L2.Uncovered, L2.Covered - Stores};
  return withBlockReuse(F, Q, Loads, std::max(1u, Q.Occ.ActiveBlocksPerSM),
                        l1LeftByShared(Q), /*Unshared=*/1, StoreFootprint) +
         Stores;
}

/// Local memory (arrays the registers cannot hold, ptxas's spill slots) is
/// cached like global data (CUDA C++ Programming Guide, "Device Memory
/// Accesses", "Local Memory": cached in L1 and L2): the frames of the threads
/// resident on an SM stay in what shared memory leaves of L1, those of the
/// whole GPU in L2; the share that does not fit moves on to the next level.
/// Adds that traffic (per thread) to W's L2 and DRAM bytes. A spill access
/// moves 4 bytes (one register).
void addLocalMemoryMisses(const KernelFeatures &F, const CostQuery &Q,
                          MemoryTraffic &W) {
  double Spilled = nonNegative(F.spill_bytes);
  double Bytes = nonNegative(F.local_load_bytes) +
                 nonNegative(F.local_store_bytes) + Spilled;
  double Accesses =
      nonNegative(F.local_loads) + nonNegative(F.local_stores) + Spilled / 4;
  double Frame = nonNegative(F.local_frame_bytes);
  if (Bytes <= 0 || Frame <= 0)
    return;
  const GpuArch &A = *Q.Arch;
  double Blocks = std::max(1u, Q.Occ.ActiveBlocksPerSM);
  double FramesPerSM = Frame * Blocks * Q.threadsPerBlock();
  double L1 = l1LeftByShared(Q);
  double InL1 = L1 > 0 ? std::clamp(L1 / FramesPerSM, 0.0, 1.0) : 0.0;
  double InL2 = std::clamp(A.L2Bytes / (FramesPerSM * A.SMCount), 0.0, 1.0);
  double Missed = (1 - InL1) * (1 - InL2);
  W.L2Bytes += Bytes * (1 - InL1);
  W.DramBytes += Bytes * Missed;
  W.StreamedBytes += Bytes * Missed;
  W.GlobalAccesses += Accesses * Missed;
}

} // namespace

MemoryTraffic memoryTraffic(const KernelFeatures &F, const CostQuery &Q) {
  MemoryTraffic T;
  double ClassL2 = 0;
  double ClassDram = dramBytesPerThread(F, Q.Block[0], Q.Arch->WarpSize,
                                        T.GlobalAccesses, ClassL2);
  CoverSplit Dram = splitByCover(F, ClassDram);
  T.StreamedBytes = Dram.Uncovered + Dram.Covered;
  T.DramBytes = reuseInL2(F, Q, Dram);
  CoverSplit Sectors = splitByCover(F, ClassL2);
  T.L1Bytes = Sectors.Uncovered + Sectors.Covered;
  T.L1Accesses = T.GlobalAccesses; // before local misses join them
  T.L2Bytes = reuseInL1(F, Q, Sectors);
  addLocalMemoryMisses(F, Q, T);
  return T;
}

} // namespace energy
