//===- GpuRegisterPressure.h - Peak live values of a gpu.func ---*- C++ -*-===//
//
// The MLIR twin of lib/Features/RegisterPressure: the registers a thread
// needs before allocation, from the live ranges of SSA values over a
// kernel's ops in program order (a value used inside a loop it is defined
// outside of lives to the loop's end), summed by FeatureCore's sweep, in
// 32-bit registers: index and wider values 2, i1 0, memrefs 2 (the aligned
// pointer), vectors by their bits.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_GPUREGISTERPRESSURE_H
#define ENERGY_LIB_MLIR_GPUREGISTERPRESSURE_H

namespace mlir {
class Region;
} // namespace mlir

namespace energy {
namespace gpudialect {

/// The peak, over Body's ops in program order, of the registers held by
/// live SSA values; constants are immediates and hold none.
double peakLiveRegisters(mlir::Region &Body);

} // namespace gpudialect
} // namespace energy

#endif
