//===- GpuLeaderGuards.h - Code that only some threads of a block run -*- C++ -*-===//
//
// The MLIR adapter's reading of leader guards (lib/Features/LeaderGuards.h is
// the LLVM one; the rule is FeatureCore's guardedThreadShare): an scf.if on
// `gpu.thread_id x == C` (or !=, <, on thread_id y/z or gpu.lane_id) runs its
// then side for a share of the block's threads. A bounds check of the grid
// index against a size (a kernel argument or an argument's memref.dim)
// sends no thread to its far side, block known or not.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_GPULEADERGUARDS_H
#define ENERGY_LIB_MLIR_GPULEADERGUARDS_H

#include "mlir/IR/Value.h"

#include <array>
#include <utility>

namespace energy {

/// The shares of the threads of a block of shape Block (zeros: not known)
/// that take the then and the else side of an scf.if on Condition.
std::pair<double, double> leaderShares(mlir::Value Condition,
                                       const std::array<unsigned, 3> &Block);

} // namespace energy

#endif
