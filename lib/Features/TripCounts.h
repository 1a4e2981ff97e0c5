//===- TripCounts.h - How often a loop of an NVPTX kernel runs --*- C++ -*-===//
//
// The LLVM adapter's trip counts, for the loop weights of the feature
// counter: what ScalarEvolution proves, else the count with the unknowns of
// the bound taken as ENERGY_ASSUME states them or as the default extent.
// The MLIR adapter counts scf.for the same way (lib/MLIR/GpuKernelFeatures),
// under the same MaxBelievableTrip (FeatureCore.h).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_TRIPCOUNTS_H
#define ENERGY_LIB_TRIPCOUNTS_H

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

} // namespace energy

#endif
