//===- ShapeInvariance.h - Proof that a kernel ignores its block --*- C++ -*-===//
//
// Default-deny legality: a block shape other than a kernel's declared
// default is a candidate only when this analysis proves that the kernel
// computes the same thing at it (or the user declared the shapes).
//
// The proof, on the prepared clone (calls inlined, SROA'd), shows that each
// thread's work is a function of its *work unit*, and that the units the
// launch runs are the same at every block. Along each axis the block may
// change, the unit is a mixed-radix number whose digits are, from the
// lowest: threadIdx, the iterations of loops over a thread's items stepping
// by blockDim (radix: their trip count), blockIdx, then loops stepping by
// the whole grid (a finite count, or one grid-stride loop `i < n` on top):
//
//   blockIdx.x * blockDim.x + threadIdx.x                     (the global index)
//   for (i = global; i < n; i += blockDim.x * gridDim.x)      (grid stride)
//   i = blockIdx.x * blockDim.x * K + threadIdx.x; k < K: i += blockDim.x
//
// so that (thread, iteration) -> unit is a bijection onto the same set at
// every block. What must hold besides:
//  - thread and block indices, blockDim and gridDim reach nothing but those
//    units (no `threadIdx.x == 0`, `threadIdx.x / 32`, `blockIdx.x * 256`);
//  - every index numbers its units the same way (one digit order per axis);
//  - no shared memory, barrier, warp operation, inline assembly or call the
//    analysis cannot see;
//  - a loop over a thread's units carries nothing from one unit to the next
//    and leaves nothing behind (no per-thread partial sums);
//  - every memory access that depends on the unit, and every side effect,
//    sits behind an upper bound on the unit (`if (i < n)`) or inside the
//    grid-stride loop, so threads past the work do nothing: the grid then
//    only has to cover the work (ENERGY_LAUNCH, or a grid computed from the
//    chosen block). A grid fixed whatever the block (ENERGY_GRID) covers the
//    same work only through grid-stride loops (AnyGrid).
// Unknown means not proven.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_SHAPEINVARIANCE_H
#define ENERGY_LIB_SHAPEINVARIANCE_H

#include <array>
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace energy {

/// Whether a kernel computes the same at every block shape whose extents
/// equal the default's on the axes that are not free.
struct ShapeProof {
  bool Proven = false;
  /// Also whatever the grid: every free axis is covered by a grid-stride
  /// loop, so a grid that does not follow the block (ENERGY_GRID) is fine.
  bool AnyGrid = false;
  /// Why not, when not proven: the first obstacle, and where it is
  /// ("k.cu:12") when debug info says so.
  std::string Obstacle;
  std::string Where;

  /// "the kernel uses shared memory ('s') (k.cu:12)".
  std::string describe() const {
    return Where.empty() ? Obstacle : Obstacle + " (" + Where + ")";
  }
};

/// Proves (or not) that the kernel computes the same at every block whose
/// extent on each axis with FreeAxes[axis] false is 1.
/// Normalized is the prepared clone after LICM (CandidateFeatureExtractor::
/// shapeProof): ScalarEvolution then sees the loop-invariant registers a
/// grid-stride step reads inside its loop.
ShapeProof proveShapeInvariance(llvm::Function &Normalized,
                                std::array<bool, 3> FreeAxes);

} // namespace energy

#endif
