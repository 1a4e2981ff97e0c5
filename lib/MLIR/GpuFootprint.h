//===- GpuFootprint.h - Global bytes a gpu.func block touches ---*- C++ -*-===//
//
// The MLIR adapter of the block footprint (lib/Features/Footprint.h is the
// LLVM one; the math is FeatureCore's FootprintGroups). A global access is
// covered when its memref is a kernel argument or a memref.get_global with
// the identity layout, and each index is an affine combination, through
// arith add/sub/mul/shl by constants and casts, of
//  - gpu.thread_id x/y/z (a term: threads of that axis),
//  - an scf.for induction variable with a constant step (a term: the loop's
//    iterations, as the feature counter weighs them),
//  - gpu.block_id x/y/z (the uniform part: it decides which blocks read
//    the same bytes), gpu.global_id (block_id x block_dim + thread_id),
//  - constants, gpu.block_dim (the block's extent) and integer kernel
//    arguments (taken as DefaultExtent, as loop bounds take them).
// The indices linearize with the memref's row-major strides, a dynamic
// dimension counting as DefaultExtent. Anything else (a loaded index,
// tid % 16, a view) is not covered, and the cost model keeps its
// per-access estimate for it.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_GPUFOOTPRINT_H
#define ENERGY_LIB_MLIR_GPUFOOTPRINT_H

#include "FeatureCore.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Value.h"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <utility>

namespace energy {
namespace gpudialect {

class GpuFootprint {
public:
  /// Trips(For): the iterations of For's body per entry, as the feature
  /// counter weighs it.
  GpuFootprint(std::array<unsigned, 3> Block,
               std::function<double(mlir::scf::ForOp)> Trips);

  /// Records a global access (a store if IsStore) of AccessBytes to MemRef
  /// at Indices by At, executed Executions times per thread. Returns false
  /// (and records nothing) when the address is not affine.
  bool add(mlir::Operation *At, mlir::Value MemRef, mlir::ValueRange Indices,
           uint64_t AccessBytes, double Executions, bool IsStore);

  const FootprintGroups &groups() const { return Groups; }

private:
  /// The variables of an affine index: thread axes, block axes, loops.
  enum class Var { ThreadX, ThreadY, ThreadZ, BlockX, BlockY, BlockZ, Loop };
  using Leaf = std::pair<Var, const void *>; // the scf.for for a Loop
  struct Affine {
    int64_t Constant = 0;
    std::map<Leaf, int64_t> Coefficients;
  };
  std::optional<Affine> affineOf(mlir::Value V, unsigned Depth) const;

  std::array<unsigned, 3> Block;
  std::function<double(mlir::scf::ForOp)> Trips;
  FootprintGroups Groups;
};

} // namespace gpudialect
} // namespace energy

#endif
