//===- EventEnergies.h - Energy per operation, instruction and byte -*- C++ -*-===//
//
// What one event costs on a board: an arithmetic operation per pipe, the
// fetch and decode of a warp instruction, a byte of register operands, a
// byte through L1/shared memory, L2 and DRAM, the static power of an SM
// that holds blocks, whatever it issues, and the board's launch floor. Published per-component figures of one
// process node, scaled to the board's node and DRAM kind by the rule in
// EventEnergies.cpp; none is fitted to a measurement of this project.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_EVENTENERGIES_H
#define ENERGY_LIB_EVENTENERGIES_H

#include "energy/GpuArch.h"

namespace energy {

/// Register bytes one thread's instruction moves: three 4-byte sources and
/// one result. An FP64 operation moves twice that: count it twice.
constexpr double OperandBytesPerInstruction = 16;

/// Joules per event on one board.
struct EventEnergies {
  // Per lane operation (an FMA is one operation).
  double Fp32Fma, Fp32Op, Fp16Fma, Fp16Op, Fp64Fma, Fp64Op;
  double TensorFlop, IntOp, Conversion, Sfu;
  /// Fetching and decoding one warp instruction (once per warp).
  double WarpInstruction;
  /// One byte of register operands read or written (per thread).
  double RegisterByte;
  /// One byte through L1/shared memory, L2 and DRAM.
  double L1Byte, L2Byte, DramByte;
};

/// What a launch issues, as AccelWattch sorts launches to pick the static
/// power of its active SMs (EventEnergies.cpp, [AW]).
struct IssuedKinds {
  bool Int = false, Fp = false, Fp64 = false, Sfu = false, Tensor = false;
  /// Bytes through L1/shared memory and through L2 (a launch that issues no
  /// arithmetic at all is sorted by its memory).
  bool L1 = false, L2 = false;
  /// Active threads per issued warp, 1 to the warp size.
  double LanesPerWarp = 32;
};

/// DRAM device energy per bit of a memory kind, joules.
double dramJoulesPerBit(DramKind Kind);

/// The on-chip energies' scale from the 45 nm figures to A's node.
double processScale(const GpuArch &A);

/// Every event's energy on A.
EventEnergies eventEnergies(const GpuArch &A);

/// What the board draws during a launch at its clock, W, beyond the events
/// and the busy SMs' static power (busySmWatts): its clocked chip (clock
/// tree, SMs without blocks, uncore) and its leakage, whatever the launch
/// does per second.
double launchFloorW(const GpuArch &A);

/// Watts one SM draws while it holds blocks of a launch that issues K, on
/// top of the board's launch floor, whatever it issues per second: [AW]'s
/// static power of an active SM.
double busySmWatts(const GpuArch &A, const IssuedKinds &K);

} // namespace energy

#endif
