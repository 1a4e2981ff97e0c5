//===- LeaderGuards.h - Code that only some threads of a block run -*- C++ -*-===//
//
// `if (threadIdx.x == 0) atomicAdd(out, sum)` runs once per block row, not
// once per thread; `if (lane == 0)` once per warp. The feature counter's
// weights are executions per thread, so such code is weighed by the share of
// the block's threads that reach it. Only comparisons of a thread index with
// a constant count (==, != and < against threadIdx.{x,y,z}, laneid, and
// threadIdx.x % 32 / & 31); anything else is taken as run by every thread.
//
// The last block to finish (CUDA's threadfence reduction): `last =
// atomicAdd(counter, 1) == gridDim.x - 1`, kept in a register or a shared
// flag, guards code that one block of the grid runs. With the grid known
// (folded to a constant G - 1), that code counts for 1/G of the threads.
//
// Past the problem's end: `if (i + 3 < n) { float4 path } else { scalar
// tail }`, i the thread's grid index and n a size argument. A launch sized
// to its problem has at most its last block past the end, so the tail
// counts for no thread, block known or not.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_LEADERGUARDS_H
#define ENERGY_LIB_LEADERGUARDS_H

#include "llvm/ADT/DenseMap.h"
#include <array>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Function;
} // namespace llvm

namespace energy {

/// The share of a block's threads that run each basic block of F that only
/// guarded edges reach (the guards on thread indices and the last block
/// need Block's every extent; a zero extent means unknown); basic blocks not
/// in the map run for every thread.
llvm::DenseMap<const llvm::BasicBlock *, double>
threadShares(const llvm::Function &F, const llvm::DominatorTree &DT,
             const std::array<unsigned, 3> &Block, unsigned WarpSize);

} // namespace energy

#endif
