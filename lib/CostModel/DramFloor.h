//===- DramFloor.h - The time a launch's compulsory DRAM traffic needs -*- C++ -*-===//
//
// Whatever a model says of caches and overlap, a launch cannot finish before
// the bytes it must move from or to DRAM have moved at the board's peak
// bandwidth: each distinct sector its blocks touch, once. A floor under the
// analytic model's time.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_DRAMFLOOR_H
#define ENERGY_LIB_DRAMFLOOR_H

#include "energy/CostModel.h"

namespace energy {

/// The bytes Q's launch must move at least: the block's share of the
/// distinct sectors all blocks touch (global_footprint_tiled_bytes) for
/// every thread that is not turned away, except the parts other blocks read
/// too (a GEMM's row and column tiles, data every block reads), counted once
/// for the whole launch. 0 where the features have no footprint (the block
/// is not known).
double compulsoryDramBytes(const CostQuery &Q);

/// compulsoryDramBytes at the board's peak DRAM bandwidth, in seconds.
double compulsoryDramSeconds(const CostQuery &Q);

} // namespace energy

#endif
