//===- TripCounts.h - How often a loop of an NVPTX kernel runs --*- C++ -*-===//
//
// The LLVM adapter's trip counts, for the loop weights of the feature
// counter: what ENERGY_TRIP states in the loop, else what ScalarEvolution
// proves, else the count with the unknowns of the bound taken as
// ENERGY_ASSUME states them or as the default extent.
//
// A loop that strides over the launch's threads (a grid-stride loop `i =
// blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x *
// gridDim.x`, a block-strided one `i = threadIdx.x; i < n; i += blockDim.x`)
// is counted from its exit test, the source's `i < n` taken not to wrap
// around: with the launch's block and grid known, the threads' first
// indices cover [0, stride) once each, so the grid runs n iterations in all
// and a thread that enters the loop runs n / min(n, stride) of them on
// average (ceil(n / stride) for some, one fewer for the rest). The average,
// not the maximum, is the per-thread count, as every count is an average
// over the launch's threads (a `threadIdx.x == 0` branch weighs 1 / block):
// each candidate's total is then the n iterations the launch does, and a
// block that leaves some threads one iteration short is not charged for
// them. The threads whose first index is already past n are the bounds
// check's (LeaderGuards.h): counted where the launch states n, else the
// launch is taken as sized to its problem. Without the block or the grid
// the count is not known: every candidate gets the same default, and the
// report lists the loop. Where the first indices do not cover the stride
// (`i = threadIdx.x; i < n; i += 32`), the first thread's count is taken.
//
// The MLIR adapter counts scf.for the same way (lib/MLIR/GpuKernelFeatures),
// under the same MaxBelievableTrip (FeatureCore.h).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_TRIPCOUNTS_H
#define ENERGY_LIB_TRIPCOUNTS_H

#include "LeaderGuards.h"

#include "energy/KernelFeatures.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class Loop;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace energy {

/// ENERGY_ASSUME(n, value) is `asm volatile("// energy.assume ..." ::
/// "l"(n), "n"(value))`: a PTX comment, so the code stays the same whether
/// or not the plugin reads it.
bool isAssumeMarker(const llvm::CallBase &Call);

/// ENERGY_TRIP(count) is `asm volatile("// energy.trip %0 %1" :: "n"(count),
/// "n"(__COUNTER__))`: the iterations of the loop it is in, per entry.
bool isTripMarker(const llvm::CallBase &Call);

/// Either: a comment in the PTX that no analysis counts as code.
inline bool isHintMarker(const llvm::CallBase &Call) {
  return isAssumeMarker(Call) || isTripMarker(Call);
}

/// The iterations per entry that ENERGY_TRIP states for L's body: its
/// count over its copies directly in L (an unrolled loop holds one per
/// source iteration it does). Nothing without a statement.
std::optional<double> statedTripCount(const llvm::Loop *L);

/// Values ENERGY_ASSUME states for a function's unknowns (statedValues).
using StatedValues = llvm::DenseMap<const llvm::Value *, unsigned>;

/// The trip count ScalarEvolution can prove (exact, else a constant maximum),
/// or nothing. A maximum that only comes from the index type's range says
/// nothing useful.
std::optional<unsigned> knownTripCount(const llvm::Loop *L,
                                       llvm::ScalarEvolution &SE);

/// The values ENERGY_ASSUME states in F, then Arguments (index, value) for
/// F's integer arguments: a launch's own values override the source's
/// typical ones.
StatedValues
statedValues(const llvm::Function &F,
             llvm::ArrayRef<std::pair<unsigned, unsigned>> Arguments = {});

/// The trip count with every unknown value in the loop's bound (a kernel
/// argument, blockDim ...) taken as what ENERGY_ASSUME states for it, else
/// DefaultExtent: `k < n; k += TILE` runs DefaultExtent / TILE times, so
/// tile sizes change the work per iteration, not the work per thread.
/// Values receives the unknowns when there is a count.
std::optional<unsigned> symbolicTripCount(const llvm::Loop *L,
                                          llvm::ScalarEvolution &SE,
                                          const StatedValues &Stated,
                                          unsigned DefaultExtent,
                                          std::vector<BoundValue> &Values);

/// The count of a loop that strides over the launch (see the top), in
/// header executions per entry: an average over the threads that enter.
struct StridedCount {
  /// Nothing when the launch's block or grid, which the stride or the
  /// threads' first indices read, is not known.
  std::optional<double> HeaderRuns;
  /// The unknowns of the bound, as symbolicTripCount lists them; with no
  /// count, the launch's extents the loop follows (TakenAs 0).
  std::vector<BoundValue> Values;
};
/// Nothing when L does not stride over the launch: its first index reads
/// no thread or block index and its step no block or grid extent, or its
/// exit is not a count up to a bound.
std::optional<StridedCount> stridedTripCount(const llvm::Loop *L,
                                             llvm::ScalarEvolution &SE,
                                             const StatedValues &Stated,
                                             unsigned DefaultExtent,
                                             const LaunchShape &Launch);

} // namespace energy

#endif
