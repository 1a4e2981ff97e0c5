//===- Footprint.h - Distinct global bytes a block touches ------*- C++ -*-===//
//
// A block's threads and loop iterations often read the same bytes: the
// halo of a stencil or convolution, a row of A that every column of threads
// of a GEMM reads, a coefficient every thread reads. The cache hierarchy
// serves the repeats; DRAM moves each distinct sector about once. This
// analysis estimates, for a known block shape, the distinct bytes (in whole
// 32-byte sectors) that the kernel's affine global accesses touch per block.
//
// An access is affine when its address is
//   base + uniform part + sum_axis c_axis x threadIdx.axis
//        + sum_loop c_loop x (iteration of loop) + constant
// with constant coefficients (ScalarEvolution's add recurrences with
// constant steps; the thread strides of AccessStride.h). Accesses with the
// same base, uniform part and coefficients form a group (the unrolled taps
// of a filter differ only in the constant); a group's footprint is the box
// the coefficients span, widened by its constants' spread:
//  - terms with equal coefficients merge: extents e1, e2 cover e1 + e2 - 1;
//  - in increasing coefficient order, a term whose coefficient does not
//    exceed the contiguous run so far extends the run; a larger one repeats
//    it (a new row);
//  - the run rounds up to whole sectors.
// An address whose thread dependence is not affine (tile loads through
// tid % 16 and tid / 16) still belongs to a group when each thread's offset
// follows from the block's shape (ThreadOffsets.h): its threads become
// offsets, not terms. What is neither is not counted here; the cost model
// keeps its per-access estimate for it.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_FOOTPRINT_H
#define ENERGY_LIB_FOOTPRINT_H

#include "llvm/ADT/ArrayRef.h"
#include "ThreadOffsets.h"

#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace llvm {
class Instruction;
class Loop;
class LoopInfo;
class SCEV;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace energy {

class CalleeSummaries;
class ThreadDependence;

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

class BlockFootprint {
public:
  /// Trips(L): the iterations of L's body per entry, as the feature counter
  /// weighs it. ArgumentValue(A): the value an integer kernel argument in an
  /// address is taken as (a row pitch), as loop bounds take it: what
  /// ENERGY_ASSUME states, else the default extent.
  BlockFootprint(
      std::array<unsigned, 3> Block, llvm::ScalarEvolution &SE,
      const llvm::LoopInfo &LI, const ThreadDependence &TD,
      CalleeSummaries &Callees,
      std::function<double(const llvm::Loop *)> Trips,
      std::function<unsigned(const llvm::Value *)> ArgumentValue);

  /// Records a global access of AccessBytes at Ptr, executed Executions
  /// times per thread. Returns false (and records nothing) when the address
  /// is not affine.
  bool add(const llvm::Value *Ptr, const llvm::Instruction &At,
           uint64_t AccessBytes, double Executions);

  /// Distinct sector bytes of every recorded group, per block.
  double sectorBytes() const;
  /// The same for one iteration of each access's outermost loop: what the
  /// block's threads share while they run through that loop side by side
  /// (a GEMM's tile of one k step, a stencil's rows of one output row).
  double workingSetBytes() const;
  /// Bytes the recorded accesses move per thread, repeats included.
  double accessedBytesPerThread() const { return Accessed; }
  /// What the same accesses move through L2 per thread without cache reuse:
  /// each warp-wide access moves the distinct 32-byte sectors its threads
  /// touch (the first warp's, by the block's shape), shared by its threads.
  double warpSectorBytesPerThread() const { return WarpSectorBytes; }

  /// The part of sectorBytes() other blocks read too, by the block indices
  /// the addresses depend on: a GEMM's tile of A is the same for a whole
  /// row of blocks, its tile of B for a whole column. Concurrent blocks
  /// share it in L2.
  struct SharedAcrossBlocks {
    double Row = 0;    // depends on blockIdx.y only
    double Column = 0; // depends on blockIdx.x only
    double Grid = 0;   // depends on no block index
  };
  SharedAcrossBlocks sharedAcrossBlocks() const;

private:
  struct Group {
    std::vector<FootprintTerm> Terms;
    uint64_t AccessBytes = 0;
    std::vector<int64_t> Offsets;
    double Executions = 0; // per thread, over the group's accesses
    unsigned BlockAxes = 0; // bit A: the address may differ along blockIdx.A
  };
  std::array<unsigned, 3> Block;
  llvm::ScalarEvolution &SE;
  const llvm::LoopInfo &LI;
  const ThreadDependence &TD;
  CalleeSummaries &Callees;
  // Owned: callers pass lambdas that die with the constructor's call.
  std::function<double(const llvm::Loop *)> Trips;
  IndexEvaluator Index;
  /// Keyed by base, uniform part, access size and coefficients.
  std::map<std::vector<int64_t>, Group> Groups;

  /// Sector bytes per block summed over the groups (those whose addresses
  /// depend on exactly the block axes OnlyBlockAxes, if given), with or
  /// without the outermost loops' terms.
  double sumOverGroups(bool OneOutermostIteration,
                       std::optional<unsigned> OnlyBlockAxes = {}) const;
  double Accessed = 0;
  double WarpSectorBytes = 0;
  static constexpr unsigned WarpThreads = 32;
  unsigned threads() const { return Block[0] * Block[1] * Block[2]; }
};

} // namespace energy

#endif
