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
// This file reads LLVM IR (ScalarEvolution) into accesses; the groups and
// their sums are FeatureCore's FootprintGroups, which the gpu-dialect
// adapter (lib/MLIR/GpuFootprint.h) fills too.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_FOOTPRINT_H
#define ENERGY_LIB_FOOTPRINT_H

#include "FeatureCore.h"
#include "ThreadOffsets.h"

#include <array>
#include <cstdint>
#include <functional>

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

class BlockFootprint {
public:
  /// Trips(L): the iterations of L's body per entry, as the feature counter
  /// weighs it. ArgumentValue(A): the value an integer kernel argument in an
  /// address is taken as (a row pitch), as loop bounds take it: what
  /// ENERGY_ASSUME states, else the default extent. Grid: the launch's, or
  /// zeros where not known. AxisWithin: along each axis, the share of the
  /// block's extent within the problem's bounds (the threads the outermost
  /// bounds checks let through), which the footprint spans.
  BlockFootprint(std::array<unsigned, 3> Block, std::array<uint64_t, 3> Grid,
                 std::array<double, 3> AxisWithin, llvm::ScalarEvolution &SE,
                 const llvm::LoopInfo &LI, const ThreadDependence &TD,
                 CalleeSummaries &Callees,
                 std::function<double(const llvm::Loop *)> Trips,
                 std::function<unsigned(const llvm::Value *)> ArgumentValue);

  /// Records a global access (a store if IsStore) of AccessBytes at Ptr,
  /// executed Executions times per thread. Returns false (and records
  /// nothing) when the address is not affine.
  bool add(const llvm::Value *Ptr, const llvm::Instruction &At,
           uint64_t AccessBytes, double Executions, bool IsStore);

  /// The recorded groups: the footprint features.
  const FootprintGroups &groups() const { return Groups; }

private:
  std::array<unsigned, 3> Block;
  std::array<double, 3> AxisWithin;
  llvm::ScalarEvolution &SE;
  const llvm::LoopInfo &LI;
  const ThreadDependence &TD;
  CalleeSummaries &Callees;
  // Owned: callers pass lambdas that die with the constructor's call.
  std::function<double(const llvm::Loop *)> Trips;
  IndexEvaluator Index;
  FootprintGroups Groups;
};

} // namespace energy

#endif
