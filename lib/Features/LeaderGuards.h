//===- LeaderGuards.h - Code that only some threads of a block run -*- C++ -*-===//
//
// `if (threadIdx.x == 0) atomicAdd(out, sum)` runs once per block row, not
// once per thread; `if (lane == 0)` once per warp; `if (blockIdx.x == 0)`
// once per grid row of blocks. The feature counter's weights are executions
// per thread, so such code is weighed by the share of the launch's threads
// that reach it. Comparisons count (==, !=, <, <=, >, >=) of an index with a
// constant, and == and != with a value every thread has alike (a kernel
// argument): the index a thread or block index along one axis, laneid,
// threadIdx.x % 32 / & 31, or a linear id of several (`blockIdx.y *
// gridDim.x + blockIdx.x`, `blockIdx.x * blockDim.x + threadIdx.x`) that
// numbers its positions once each. A block index needs the grid's extent
// along its axis: without it (a free search's screen, a 2-D block on a
// workload) such code is taken as run by every block, as anything else
// is taken as run by every thread.
//
// The last block to finish (CUDA's threadfence reduction): `last =
// atomicAdd(counter, 1) == gridDim.x - 1`, kept in a register or a shared
// flag, guards code that one block of the grid runs. With the grid known
// (folded to a constant G - 1), that code counts for 1/G of the threads.
//
// Past the problem's end: `if (i + 3 < n) { float4 path } else { scalar
// tail }` or `if (x >= nx || y >= ny) return;`, i, x, y the thread's grid
// index along an axis and n, nx, ny size arguments. With the launch's grid
// and the sizes known (a forced configuration's grid and argN=V), the
// threads within are counted: a 1024-wide block over a 512-wide domain has
// half of its threads past the end. Otherwise a launch sized to its problem
// is assumed: at most its last block past the end, so the far side counts
// for no thread, block known or not.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_LEADERGUARDS_H
#define ENERGY_LIB_LEADERGUARDS_H

#include "llvm/ADT/DenseMap.h"
#include <array>
#include <cstdint>
#include <functional>
#include <optional>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Function;
class Value;
} // namespace llvm

namespace energy {

/// The launch the shares are for; zero extents are unknown.
struct LaunchShape {
  std::array<unsigned, 3> Block = {0, 0, 0};
  std::array<uint64_t, 3> Grid = {0, 0, 0};
  /// The value a kernel argument (a problem size) takes in the launch.
  std::function<std::optional<uint64_t>(const llvm::Value *)> ArgumentValue;
};

struct SpecialRegisterRead;
/// The number of positions a thread, block or lane index Read numbers in
/// Launch (0 when not known, and for other registers).
uint64_t launchExtent(const SpecialRegisterRead &Read,
                      const LaunchShape &Launch);

/// Who runs a basic block: along each axis, the share of the launch's
/// positions within the problem's bounds (what a block's footprint spans),
/// and of those, the share that the other guards let through.
struct ThreadShare {
  double Guarded = 1;
  std::array<double, 3> AxisWithin = {1, 1, 1};
  /// The share of the launch's threads.
  double threads() const {
    return Guarded * AxisWithin[0] * AxisWithin[1] * AxisWithin[2];
  }
};

/// The shares of the basic blocks of F that only guarded edges reach (the
/// guards on thread indices and the last block need the block's every
/// extent); basic blocks not in the map run for every thread.
llvm::DenseMap<const llvm::BasicBlock *, ThreadShare>
threadShares(const llvm::Function &F, const llvm::DominatorTree &DT,
             const LaunchShape &Launch, unsigned WarpSize);

} // namespace energy

#endif
