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
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace energy {

/// Trip counts above this are not believed: a bound taken from an index
/// type's range, not from the code.
constexpr unsigned MaxBelievableTrip = 1u << 16;

enum class MemSpace { Global, Shared, Local, Const, Param, Generic };

/// The space of an NVPTX address space number (0 and unknown ones: generic).
MemSpace nvptxMemSpace(unsigned AddressSpace);

/// Whether the cost model takes an access to Space for a global one:
/// unresolved generic pointers are (kernel arguments mostly are global).
inline bool countsAsGlobal(MemSpace Space) {
  return Space == MemSpace::Global || Space == MemSpace::Generic;
}

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
  /// Steps is 0 for an operation that issues nothing (a register rename):
  /// it passes its operands' depth on.
  void add(const void *Op, llvm::ArrayRef<const void *> Uses,
           unsigned Steps = 1);
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

/// Machine instructions one vector operation of Lanes elements issues.
/// NVPTX has no vector registers: the backend splits the operation per
/// lane, except 16-bit floats, which run two lanes at a time (f16x2,
/// bf16x2). One lane (a scalar) issues one.
unsigned vectorIssueSlots(uint64_t Lanes, uint64_t ElementBits);

/// Machine instructions one load or store of Bytes issues: at most 16
/// bytes move per instruction (ld.v4.f32, ld.v2.f64).
unsigned memoryIssueSlots(double Bytes);

/// How NVPTX's code generation expands a copy or fill of Bytes contiguous
/// bytes (llvm.memcpy, memmove, memset; MLIR's memref.copy lowers to a
/// memcpy): Pieces loads (for a copy) and stores of PieceBytes each, the
/// widest legal integer (8 bytes) the alignment Align allows.
struct CopyPieces {
  unsigned Bytes = 0; // the length (saturated at UINT32_MAX)
  unsigned PieceBytes = 1;
  unsigned Pieces = 0;
};
CopyPieces copyPieces(uint64_t Bytes, uint64_t Align);

/// The share of a grid's threads that run code behind `ticket == Last`,
/// where an atomic add of 1 hands out the tickets 0, 1, ...: one ticket of
/// Last + 1 (the last block to finish when each block takes one).
double lastTicketShare(uint64_t Last);
/// A branch on a thread or block index (or lane number, or a linear id of
/// several) against a Bound the same for every thread, the index taking
/// Values values among the launch's threads, each for as many threads:
/// `index == Bound` holds for one of them (none for Bound >= Values; a
/// Bound not known is passed as 0), `index < Bound` for min(Bound, Values).
/// The share of the threads for which the comparison holds, or
/// nothing when it does not narrow them (Bound >= Values for <).
enum class IndexCompare { Equal, Less };
std::optional<double> guardedThreadShare(IndexCompare Compare, uint64_t Bound,
                                         uint64_t Values);

/// A branch's comparison `index P bound`, the index on the left (either
/// signedness: indices are never negative).
enum class IndexPredicate {
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual
};
/// P with its operands swapped (`bound P index` as `index P' bound`).
IndexPredicate swappedIndexPredicate(IndexPredicate P);
/// The side of a branch on `index P Bound` that only some of the launch's
/// threads take, and their share: Values as for guardedThreadShare, Bound a
/// constant, or nothing for a value every thread has alike that is not one
/// (only == and != narrow the threads then). The other side takes the rest
/// (OtherShare): `if (tid < 32) A else B` runs B for 3/4 of 128 threads.
/// Both IR adapters weigh their guards with it (LeaderGuards.h,
/// lib/MLIR/GpuLeaderGuards.h).
struct GuardedSide {
  bool WhenHolds = true; // the side where the comparison holds, else fails
  double Share = 1;
  double OtherShare = 1;
};
std::optional<GuardedSide> guardedSide(IndexPredicate P,
                                       std::optional<uint64_t> Bound,
                                       uint64_t Values);

/// One term of an index over the launch's positions: Coefficient times a
/// thread's or block's number along an axis, among Extent of them (0: not
/// known).
struct IndexTerm {
  int64_t Coefficient = 0;
  uint64_t Extent = 0;
};
/// The number of values the sum of Terms takes, each for one combination
/// of the numbers, when the terms count in mixed radix from 1 (smallest
/// coefficient 1, each next the product of the extents before it:
/// threadIdx.x + blockDim.x * blockIdx.x, blockIdx.x + gridDim.x *
/// blockIdx.y); nothing otherwise or when an extent is not known.
std::optional<uint64_t> mixedRadixValues(std::vector<IndexTerm> Terms);
/// The share of the threads that take a bounds check's far side (`grid
/// index < n` false, n a size argument) when the launch's grid or the size
/// is not known: a launch sized to its problem has at most its last block
/// past the end, so none, for the per-thread counts.
constexpr double PastTheEndShare = 0;

/// A value's registers, live at the program points First to Last
/// (inclusive) of an adapter's numbering.
struct LiveSpan {
  unsigned First = 0, Last = 0;
  double Registers = 0;
};

/// The most registers live at one point: the peak of the spans' sum.
double peakOfLiveSpans(llvm::ArrayRef<LiveSpan> Spans);

/// One coefficient of an affine address and how many values its variable
/// takes in a block (threads along an axis, iterations of a loop).
struct FootprintTerm {
  int64_t Coefficient; // bytes per step of the variable
  double Extent;       // values of the variable
  /// The variable is the iteration of the outermost loop around the access.
  bool Outermost = false;
};

/// The distinct bytes, in whole sectors, of a box spanned by Terms from
/// addresses offset by Offsets (bytes) with accesses of AccessBytes each.
double boxFootprintBytes(llvm::ArrayRef<FootprintTerm> Terms,
                         llvm::ArrayRef<int64_t> Offsets, uint64_t AccessBytes);

/// The sector bytes one warp's access moves, per thread of the warp: each
/// thread reads AccessBytes at Constant + its offset (Offsets, one per
/// thread of the warp) from an address taken to be sector-aligned.
double sectorBytesPerWarpThread(llvm::ArrayRef<int64_t> Offsets,
                                int64_t Constant, uint64_t AccessBytes);

/// One affine global access as an adapter reads it (Footprint.h for the
/// LLVM side, lib/MLIR/GpuFootprint for the gpu dialect): thread 0's first
/// address is base + uniform part + Constant.
struct FootprintAccess {
  /// The base and the uniform part, as the adapter tells them apart.
  std::vector<int64_t> Identity;
  uint64_t AccessBytes = 0;
  /// The threads' terms (when the address is affine in them), then the
  /// loops' from the innermost out.
  std::vector<FootprintTerm> Terms;
  /// Bytes per thread along each axis, when Terms hold the threads.
  std::array<int64_t, 3> ThreadStride = {0, 0, 0};
  /// Otherwise each thread's offset from thread 0's (x fastest).
  std::optional<std::vector<int64_t>> PerThread;
  int64_t Constant = 0;
  double Executions = 0;  // per thread
  unsigned BlockAxes = 0; // bit A: the address may differ along blockIdx.A
  /// How far the address moves from one block to the next along each grid
  /// axis, in bytes, where that is a constant; 0 where it does not move or
  /// the move is not known.
  std::array<int64_t, 3> BlockShift = {0, 0, 0};
  bool IsStore = false;
};

/// The footprint features of a block of the given shape from its affine
/// global accesses: accesses with the same identity, access size, terms and
/// direction (load or store) form a group, whose footprint is the box its
/// terms span from its accesses' offsets (Footprint.h explains the box).
class FootprintGroups {
public:
  /// Grid: the launch's, zeros where not known (taken as many blocks).
  explicit FootprintGroups(std::array<unsigned, 3> Block,
                           std::array<uint64_t, 3> Grid = {0, 0, 0});

  void add(FootprintAccess A);

  /// Distinct sector bytes of every group, per block.
  double sectorBytes() const;
  /// The same for one iteration of each access's outermost loop.
  double workingSetBytes() const;
  /// The block's share of the union of the footprints of a tiling of the
  /// grid: bytes a neighbouring block reads too (a stencil's halo, along
  /// each axis with a constant block shift) count once. Stores keep their
  /// own sectors: two blocks' partial writes of one sector do not merge
  /// for free (DRAM writes whole sectors; with ECC, a partial one is read,
  /// modified and written).
  double tiledBytes() const;
  /// Bytes the accesses move per thread, repeats included.
  double accessedBytesPerThread() const { return Accessed; }
  /// The distinct sectors each warp-wide access moves (the first warp's,
  /// by the block's shape), per thread.
  double warpSectorBytesPerThread() const { return WarpSectorBytes; }
  /// Of them, the stores'.
  double storeWarpSectorBytesPerThread() const { return StoreWarpSectorBytes; }

  /// The part of sectorBytes() other blocks read too, by the block indices
  /// the addresses depend on.
  struct SharedAcrossBlocks {
    double Row = 0;    // depends on blockIdx.y only
    double Column = 0; // depends on blockIdx.x only
    double Grid = 0;   // depends on no block index
  };
  SharedAcrossBlocks sharedAcrossBlocks() const;

  /// Sets Out's global footprint features, per thread of the block.
  void setFeatures(KernelFeatures &Out) const;

private:
  struct Group {
    std::vector<FootprintTerm> Terms;
    uint64_t AccessBytes = 0;
    std::vector<int64_t> Offsets;
    double Executions = 0; // per thread, over the group's accesses
    unsigned BlockAxes = 0;
    std::array<int64_t, 3> BlockShift = {0, 0, 0};
    bool IsStore = false;
  };
  std::array<unsigned, 3> Block;
  std::array<uint64_t, 3> Grid;
  /// Keyed by identity, access size and terms.
  std::map<std::vector<int64_t>, Group> Groups;
  double Accessed = 0;
  double WarpSectorBytes = 0;
  double StoreWarpSectorBytes = 0;
  static constexpr unsigned WarpThreads = 32;
  unsigned threads() const;

  /// Sector bytes per block summed over the groups (those whose addresses
  /// depend on exactly the block axes OnlyBlockAxes, if given), with or
  /// without the outermost loops' terms, each block's own or its share of
  /// a tiling (Tiled).
  double sumOverGroups(bool OneOutermostIteration,
                       std::optional<unsigned> OnlyBlockAxes = {},
                       bool Tiled = false) const;
};

} // namespace energy

#endif
