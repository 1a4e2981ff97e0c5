//===- BarrierWaits.h - Barriers that wait for global memory ----*- C++ -*-===//
//
// A thread that stages a tile in shared memory (`tile[ty][tx] = in[...];
// __syncthreads();`) cannot reach the barrier before its global loads
// return, so the whole block stands still for a memory latency there, which
// only the other resident blocks hide. A barrier waits so when a global (or
// unresolved generic) load and a use of its value lie on the paths to it
// from the previous barrier or the function's entry. A reduction's later
// barriers, with only shared memory between them, do not, nor does a
// barrier whose loads are used after it (a prefetch for the next phase).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_BARRIERWAITS_H
#define ENERGY_LIB_BARRIERWAITS_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Instruction;
} // namespace llvm

namespace energy {

/// Whether Barrier waits for a global load: one for which IsGlobalLoad holds
/// and one of its users lie on the paths that reach Barrier without crossing
/// another instruction for which IsBarrier holds.
bool waitsForGlobalLoads(
    const llvm::Instruction &Barrier,
    llvm::function_ref<bool(const llvm::Instruction &)> IsBarrier,
    llvm::function_ref<bool(const llvm::Instruction &)> IsGlobalLoad);

} // namespace energy

#endif
