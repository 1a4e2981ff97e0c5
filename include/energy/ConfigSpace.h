//===- ConfigSpace.h - Candidate launch configurations ----------*- C++ -*-===//
//
// The candidates of one kernel: block shapes crossed with its tunables'
// values, and the static pruning that removes candidates before prediction
// (the FlipFlop-style search-space reduction the report counts).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_CONFIGSPACE_H
#define ENERGY_CONFIGSPACE_H

#include "energy/Occupancy.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace energy {

struct Tunable {
  std::string Name;
  int Default = 0;
  bool WorkPerThread = false; // ENERGY_TUNABLE_PER_THREAD
  std::vector<int> Candidates;
};

using Assignment = std::vector<int>; // one value per tunable, same order

/// Every combination of the tunables' candidates, first tunable slowest.
std::vector<Assignment> enumerateAssignments(llvm::ArrayRef<Tunable> Tunables);

using BlockShape = std::array<unsigned, 3>;

/// Free block shapes: 1-D multiples of the warp size up to MaxThreads when
/// the kernel reads only x; 2-D power-of-two shapes (x >= 4) holding a whole
/// number of warps, up to MaxThreads, when it reads y.
std::vector<BlockShape> freeBlockShapes(bool TwoD, unsigned WarpSize,
                                        unsigned MaxThreads);

/// "256", "32x8", "8x8x4" -> shape; empty on malformed input.
std::optional<BlockShape> parseBlockShape(llvm::StringRef S);
/// "N", "NxM" or "NxMxK", each from 1 to Max; missing dimensions are 1.
std::optional<std::array<uint64_t, 3>> parseDims(llvm::StringRef S,
                                                 uint64_t Max);
std::string formatBlockShape(const BlockShape &B);

enum class PruneReason { None, Resources, OccupancyCliff };
const char *pruneReasonName(PruneReason R);

/// Occupancy below this fraction of the best one reachable with the same
/// tunables is a cliff: the candidate leaves most of the SM idle.
constexpr double OccupancyCliffFraction = 0.25;

/// Why a candidate is dropped before prediction, if it is.
PruneReason pruneCandidate(const Occupancy &Occ, double BestOccupancySameTunables);

/// Items per thread: the product of the work-per-thread tunables.
unsigned workPerThread(llvm::ArrayRef<Tunable> Tunables, const Assignment &A);

/// Blocks a grid may have in x (CUDA, compute capability 3.0 and later).
constexpr uint64_t MaxGridBlocksX = 2147483647;
/// Blocks a grid may have in y or z.
constexpr uint64_t MaxGridBlocksYZ = 65535;

/// Grid blocks for WorkItems items at this block shape and work per thread,
/// without overflow for any WorkItems (the grid may exceed MaxGridBlocksX).
uint64_t blocksForWorkload(uint64_t WorkItems, unsigned WorkPerThread,
                           const BlockShape &Block);

} // namespace energy

#endif
