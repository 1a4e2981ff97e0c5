//===- GpuLeaderGuards.h - Code that only some threads of a block run -*- C++ -*-===//
//
// The MLIR adapter's reading of leader guards (lib/Features/LeaderGuards.h is
// the LLVM one; the rule is FeatureCore's guardedSide): an scf.if on an
// index compared with a constant (==, !=, <, <=, >, >=, either operand
// order, either signedness), or with == and != with a value every thread has
// alike (a kernel argument, a block or grid extent), runs its then side for
// a share of the launch's threads. The index is gpu.thread_id or
// gpu.block_id along one axis, gpu.lane_id (or thread_id x % 32, & 31), or
// a linear id of several that numbers their positions once each
// (`block_id y * grid_dim x + block_id x`, gpu.global_id, `block_id x *
// block_dim x + thread_id x`). A block id needs the launch's grid along its
// axis: without it (the block-free screen, launches that state different or
// dynamic grids), the code runs for every block. A bounds check of the grid
// index against a size (a kernel argument or an argument's memref.dim)
// sends no thread to its far side, block known or not.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_GPULEADERGUARDS_H
#define ENERGY_LIB_MLIR_GPULEADERGUARDS_H

#include "mlir/IR/Value.h"

#include <array>
#include <cstdint>
#include <utility>

namespace energy {

/// The shares of the threads of a launch with blocks of shape Block and a
/// grid of Grid blocks (zeros: not known) that take the then and the else
/// side of an scf.if on Condition.
std::pair<double, double> leaderShares(mlir::Value Condition,
                                       const std::array<unsigned, 3> &Block,
                                       const std::array<uint64_t, 3> &Grid);

} // namespace energy

#endif
