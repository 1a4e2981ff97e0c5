//===- BlockLegality.h - Block shapes a kernel is correct for ---*- C++ -*-===//
//
// Default-deny: a block shape other than the kernel's declared default is a
// candidate only when it is proven correct or declared by the user.
//  - Proven: a kernel whose shape is free (ENERGY_KERNEL*) and whose work
//    follows the global index (ShapeInvariance.h) is correct at any shape.
//  - Declared: ENERGY_BLOCK_RULES states the shapes ("pow2", "max=N",
//    "multiple=N", "shapes=..."), and replaces what the code suggests;
//    ENERGY_KERNEL_TUNABLE_BLOCK declares its shapes through its tunables,
//    which the patterns below still check.
//  - Otherwise only the declared default.
// Whatever the path, a shape stays within the kernel's __launch_bounds__
// and the block a library primitive is written for (cub::BlockReduce<T,
// 256>, cooperative groups' tiled_partition<N>).
//
// The patterns the code suggests explain a restriction; they make no shape
// safe. They are checked on the shapes tunables declare:
//  - a power of two along an axis when a loop halves blockDim on it (tree
//    reductions drop partial sums otherwise);
//  - no thread index past the end of a static shared array it indexes (the
//    index is taken apart into threadIdx/blockDim terms; a dominating
//    `threadIdx < C` guard caps the thread index), and enough threads to
//    have written what guarded threads read at threadIdx.x + K (the warp
//    tail of a tree reduction reads s[tid + 32] for tid < 32);
//  - the declared default extent along an axis whose threadIdx is read but
//    whose blockDim is not (the code assumes its block size);
//  - whole warps when warp intrinsics name the full mask;
//  - only the declared default shape when the kernel reads threadIdx.z or
//    blockDim.z, or uses dynamic shared memory of undeclared size (the
//    latter whatever the rules: nobody knows its size at another shape).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_BLOCKLEGALITY_H
#define ENERGY_LIB_BLOCKLEGALITY_H

#include "ShapeInvariance.h"

#include "energy/ConfigSpace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
} // namespace llvm

namespace energy {

/// Coef * threadIdx[TidAxis] * blockDim[NtidAxis]; an axis of -1 is absent.
struct IndexTerm {
  int TidAxis = -1;
  int NtidAxis = -1;
  int64_t Coef = 0;
};

/// One shared-array access: Scale * (Terms + Constant) must stay below the
/// extent of dimension Level of Array (Level < 0: below its size in bytes).
struct SharedIndexBound {
  const llvm::GlobalVariable *Array = nullptr;
  int Level = -1;
  int64_t Scale = 1;
  std::vector<IndexTerm> Terms;
  int64_t Constant = 0;
  std::array<uint64_t, 3> TidCap = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  bool ReadOnly = false; // the address is only loaded from
  std::string Where;     // "reduce.cu:12" when debug info says so
};

/// A restriction and why it applies, for the report and the remarks.
struct BlockRestriction {
  std::string Rule;
  std::string Reason;
};

/// What the IR of a kernel says about the block shapes it is correct for.
struct BlockLegality {
  std::array<bool, 3> PowerOfTwo = {false, false, false};
  std::array<bool, 3> AssumesExtent = {false, false, false};
  unsigned ThreadMultiple = 1;
  bool DefaultOnly = false;
  std::string DefaultOnlyReason;
  bool DynamicShared = false;
  /// Dynamic shared memory whose size per block nobody declared: the
  /// default only, whatever the stated rules say; why, when so.
  std::optional<std::string> UndeclaredDynamicShared;
  std::vector<SharedIndexBound> Bounds;
};

/// A library block primitive the kernel calls, written for one block: a
/// block of exactly Block (cub::BlockReduce<T, 256>), or a whole number of
/// Multiple-thread tiles (cooperative_groups::tiled_partition<32>).
struct LibraryPin {
  std::string Primitive; // as written: "cub::BlockReduce<int, 256>"
  std::optional<BlockShape> Block;
  unsigned Multiple = 0;
};

/// The library block primitives of a kernel's code as written (F and its
/// callees, before inlining), found by their demangled names, and by the
/// types of the shared memory they use (their temporary storage) when
/// inlining already erased the calls.
std::vector<LibraryPin> libraryPins(llvm::ArrayRef<llvm::Function *> CallTree);

/// What fixes a kernel's block whatever its code says, and whether the
/// code is proven correct at any shape.
struct ShapeFacts {
  /// For a free-shape kernel: the proof, when one was attempted.
  std::optional<ShapeProof> Proof;
  /// ENERGY_GRID: every launch has a fixed grid, whatever its block.
  bool FixedGrid = false;
  /// __launch_bounds__: at most MaxThreads threads (0: no limit), exactly
  /// RequiredBlock when the bounds say so.
  unsigned MaxThreads = 0;
  std::optional<BlockShape> RequiredBlock;
  std::vector<LibraryPin> Pins;
};

/// Analyzes a kernel after inlining and SROA (CandidateFeatureExtractor's
/// prepared clone, which shares the module's globals).
BlockLegality analyzeBlockLegality(const llvm::Function &Prepared,
                                   unsigned WarpSize);

/// What a kernel's special-register reads and dynamic shared memory alone
/// say, from its code as written (F and its callees, nothing inlined): cheap
/// enough to run before the kernel is cleaned up and measured.
BlockLegality analyzeRegisterReads(llvm::ArrayRef<llvm::Function *> CallTree);

/// Only the declared default shape for a kernel using dynamic shared memory
/// whose size per block is not Declared: the rule of both passes, which
/// stated rules do not lift. Memory and
/// Declaration name the front end's spelling of the memory and of the
/// declaration, if it has one ("extern __shared__", "ENERGY_DYNAMIC_SHARED").
void requireDeclaredDynamicShared(BlockLegality &L, bool Declared,
                                  llvm::StringRef Memory,
                                  llvm::StringRef Declaration);

/// Why only the declared default shape (or its extent on an axis) is known
/// to be correct, if that is so: a kernel without a declared shape then gets
/// no advice, and none of its candidates need measuring.
std::optional<std::string> reliesOnDefault(const BlockLegality &L,
                                           bool FreeShape);

/// Rules stated in the source (ENERGY_BLOCK_RULES): "pow2", "max=N",
/// "multiple=N", "shapes=128,256,32x8", separated by ';'.
struct StatedBlockRules {
  bool PowerOfTwo = false;
  unsigned MaxThreads = 0; // 0: none
  unsigned Multiple = 1;
  std::vector<BlockShape> Shapes; // empty: any
  std::string Spec;
};
llvm::Expected<StatedBlockRules> parseBlockRules(llvm::StringRef Spec);

/// The extent of dimension Level of a shared array (Level < 0: its size in
/// bytes) for the candidate being checked.
using ArrayExtent =
    llvm::function_ref<uint64_t(const llvm::GlobalVariable &, int Level)>;

/// Decides which block shapes a kernel may get: the proof or the stated
/// rules (the patterns for shapes its tunables declare), within the facts,
/// against the declared default shape.
class BlockLegalityCheck {
public:
  BlockLegalityCheck(BlockLegality Inferred,
                     std::optional<StatedBlockRules> Stated,
                     const BlockShape &Default, bool FreeShape,
                     ShapeFacts Facts = {});

  /// Why Block is not legal, or nothing when it is.
  std::optional<std::string> violation(const BlockShape &Block,
                                       ArrayExtent Extent) const;
  /// Only the declared default shape is legal (for a free-shape kernel).
  bool defaultOnly() const;
  /// Whether the free-shape kernel is proven correct at other shapes.
  bool proven() const;
  /// Every restriction that applies, with its reason.
  const std::vector<BlockRestriction> &restrictions() const {
    return Restrictions;
  }

private:
  void addRestriction(BlockRestriction R); // once per rule
  /// The launch bounds and library primitives, which hold on every path.
  std::optional<std::string> factViolation(const BlockShape &Block) const;
  /// The patterns the code suggests, for shapes tunables declare.
  std::optional<std::string> patternViolation(const BlockShape &Block,
                                              ArrayExtent Extent) const;
  void addPatternRestrictions();
  /// Why a free-shape kernel is not proven correct at another shape.
  std::string notProven() const;

  BlockLegality Inferred;
  std::optional<StatedBlockRules> Stated;
  BlockShape Default;
  bool FreeShape;
  ShapeFacts Facts;
  std::vector<BlockRestriction> Restrictions;
};

} // namespace energy

#endif
