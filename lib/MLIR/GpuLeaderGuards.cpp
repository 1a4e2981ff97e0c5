//===- GpuLeaderGuards.cpp - Code that only some threads of a block run ---===//

#include "GpuLeaderGuards.h"

#include "FeatureCore.h"
#include "GpuAccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <optional>
#include <vector>

using namespace mlir;
using energy::gpudialect::constantInt;
using energy::gpudialect::MaxDepth;

namespace energy {

/// V without the integer casts that keep an index's value.
static Value withoutIndexCasts(Value V) {
  while (Operation *Def = V.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
             arith::ExtSIOp, arith::TruncIOp>(Def))
      break;
    V = Def->getOperand(0);
  }
  return V;
}

/// The ticket an atomic add of 1 hands out, if Value is one.
static bool isTicket(Value V) {
  V = withoutIndexCasts(V);
  auto Add = V.getDefiningOp<memref::AtomicRMWOp>();
  APInt One;
  return Add && Add.getKind() == arith::AtomicRMWKind::addi &&
         matchPattern(Add.getValue(), m_ConstantInt(&One)) && One.isOne();
}

/// Whether V is the thread's position in the grid along x (gpu.global_id x,
/// or block_id x * block_dim x + thread_id x), times a positive constant
/// plus a constant.
static bool isGridIndex(Value V) {
  V = withoutIndexCasts(V);
  auto IsX = [](auto Op) {
    return Op && Op.getDimension() == gpu::Dimension::x;
  };
  if (IsX(V.getDefiningOp<gpu::GlobalIdOp>()))
    return true;
  APInt C;
  auto Operands = [&](Operation *Op) -> std::pair<Value, Value> {
    return {Op->getOperand(0), Op->getOperand(1)};
  };
  if (auto Add = V.getDefiningOp<arith::AddIOp>()) {
    auto [A, B] = Operands(Add);
    if (matchPattern(B, m_ConstantInt(&C)))
      return isGridIndex(A);
    if (matchPattern(A, m_ConstantInt(&C)))
      return isGridIndex(B);
    auto IsBase = [&](Value M) {
      auto Mul = M.getDefiningOp<arith::MulIOp>();
      if (!Mul)
        return false;
      auto [P, Q] = Operands(Mul);
      auto IsBlock = [&](Value X) {
        return IsX(X.getDefiningOp<gpu::BlockIdOp>());
      };
      auto IsDim = [&](Value X) {
        return IsX(X.getDefiningOp<gpu::BlockDimOp>()) ||
               (matchPattern(X, m_ConstantInt(&C)) && C.isStrictlyPositive());
      };
      return (IsBlock(P) && IsDim(Q)) || (IsBlock(Q) && IsDim(P));
    };
    auto IsTid = [&](Value X) {
      return IsX(X.getDefiningOp<gpu::ThreadIdOp>());
    };
    return (IsTid(A) && IsBase(B)) || (IsTid(B) && IsBase(A));
  }
  if (auto Mul = V.getDefiningOp<arith::MulIOp>()) {
    auto [A, B] = Operands(Mul);
    if (matchPattern(B, m_ConstantInt(&C)) && C.isStrictlyPositive())
      return isGridIndex(A);
    if (matchPattern(A, m_ConstantInt(&C)) && C.isStrictlyPositive())
      return isGridIndex(B);
  }
  return false;
}

/// Whether V is a problem size: an argument of the kernel, or the extent of
/// an argument's memref (memref.dim), possibly plus a constant.
static bool isProblemSize(Value V) {
  V = withoutIndexCasts(V);
  APInt C;
  if (auto Add = V.getDefiningOp<arith::AddIOp>())
    if (matchPattern(Add.getRhs(), m_ConstantInt(&C)))
      V = Add.getLhs();
  if (auto Sub = V.getDefiningOp<arith::SubIOp>())
    if (matchPattern(Sub.getRhs(), m_ConstantInt(&C)))
      V = Sub.getLhs();
  if (auto Dim = V.getDefiningOp<memref::DimOp>())
    V = Dim.getSource();
  return isa<BlockArgument>(V) &&
         isa<gpu::GPUFuncOp>(V.getParentRegion()->getParentOp());
}

/// The shares of the threads that take the then and else sides of a bounds
/// check, `grid index < size` (or <=, >, >=, either operand order).
static std::optional<std::pair<double, double>>
pastTheEndShares(arith::CmpIOp Cmp) {
  using Pred = arith::CmpIPredicate;
  Pred P = Cmp.getPredicate();
  Value GridIndex = Cmp.getLhs(), Size = Cmp.getRhs();
  bool Swapped = !isGridIndex(GridIndex);
  if (Swapped)
    std::swap(GridIndex, Size);
  if (!isGridIndex(GridIndex) || !isProblemSize(Size))
    return std::nullopt;
  bool Less =
      P == Pred::slt || P == Pred::ult || P == Pred::sle || P == Pred::ule;
  bool Greater =
      P == Pred::sgt || P == Pred::ugt || P == Pred::sge || P == Pred::uge;
  if (!Less && !Greater)
    return std::nullopt;
  // The then side holds the threads within the size when the index is on
  // the smaller side of the comparison.
  bool ThenWithin = Less != Swapped;
  return ThenWithin ? std::make_pair(1.0, PastTheEndShare)
                    : std::make_pair(PastTheEndShare, 1.0);
}

namespace {

/// The extents of the launch the shares are for; zeros are unknown.
struct Extents {
  const std::array<unsigned, 3> &Block;
  const std::array<uint64_t, 3> &Grid;
};

/// V's value when it is the same constant for every thread of the launch:
/// a constant, a block or grid extent the launch knows, or a product.
std::optional<int64_t> launchConstant(Value V, const Extents &Launch,
                                      unsigned Depth = 0) {
  V = withoutIndexCasts(V);
  if (auto C = constantInt(V))
    return C;
  auto Known = [](uint64_t E) {
    return E ? std::optional<int64_t>(E) : std::nullopt;
  };
  if (auto Dim = V.getDefiningOp<gpu::BlockDimOp>())
    return Known(Launch.Block[static_cast<unsigned>(Dim.getDimension())]);
  if (auto Dim = V.getDefiningOp<gpu::GridDimOp>())
    return Known(Launch.Grid[static_cast<unsigned>(Dim.getDimension())]);
  auto Mul = V.getDefiningOp<arith::MulIOp>();
  if (!Mul || Depth > MaxDepth)
    return std::nullopt;
  auto A = launchConstant(Mul.getLhs(), Launch, Depth + 1),
       B = launchConstant(Mul.getRhs(), Launch, Depth + 1);
  int64_t Product;
  if (!A || !B || llvm::MulOverflow(*A, *B, Product))
    return std::nullopt;
  return Product;
}

/// A thread or block id along an axis: (block?, axis).
using IdKey = std::pair<bool, unsigned>;

/// Adds to Terms Scale times the thread and block ids V sums, through
/// integer casts, adds and multiples by launch constants (a linear id:
/// `block_id y * grid_dim x + block_id x`, gpu.global_id); false when V
/// holds anything else or a coefficient grows past 2^31, as the LLVM
/// adapter reads it (LeaderGuards.cpp).
bool addIndexTerms(Value V, int64_t Scale, const Extents &Launch,
                   SmallVectorImpl<std::pair<IdKey, IndexTerm>> &Terms,
                   unsigned Depth = 0) {
  constexpr int64_t Limit = int64_t(1) << 31;
  if (Depth > MaxDepth || Scale >= Limit)
    return false;
  V = withoutIndexCasts(V);
  auto Add = [&](IdKey Key, int64_t Coefficient, uint64_t Extent) {
    for (auto &[K, T] : Terms)
      if (K == Key) {
        T.Coefficient += Coefficient;
        return T.Coefficient < Limit;
      }
    Terms.push_back({Key, IndexTerm{Coefficient, Extent}});
    return true;
  };
  if (auto Id = V.getDefiningOp<gpu::ThreadIdOp>()) {
    unsigned Axis = static_cast<unsigned>(Id.getDimension());
    return Add({false, Axis}, Scale, Launch.Block[Axis]);
  }
  if (auto Id = V.getDefiningOp<gpu::BlockIdOp>()) {
    unsigned Axis = static_cast<unsigned>(Id.getDimension());
    return Add({true, Axis}, Scale, Launch.Grid[Axis]);
  }
  if (auto Id = V.getDefiningOp<gpu::GlobalIdOp>()) {
    // block_id * block_dim + thread_id
    unsigned Axis = static_cast<unsigned>(Id.getDimension());
    int64_t PerBlock;
    return Launch.Block[Axis] &&
           !llvm::MulOverflow(Scale, int64_t(Launch.Block[Axis]), PerBlock) &&
           Add({false, Axis}, Scale, Launch.Block[Axis]) &&
           Add({true, Axis}, PerBlock, Launch.Grid[Axis]);
  }
  if (auto Sum = V.getDefiningOp<arith::AddIOp>())
    return addIndexTerms(Sum.getLhs(), Scale, Launch, Terms, Depth + 1) &&
           addIndexTerms(Sum.getRhs(), Scale, Launch, Terms, Depth + 1);
  int64_t Scaled;
  if (auto Mul = V.getDefiningOp<arith::MulIOp>())
    for (auto [Factor, Other] : {std::pair(Mul.getLhs(), Mul.getRhs()),
                                 std::pair(Mul.getRhs(), Mul.getLhs())})
      if (auto C = launchConstant(Factor, Launch))
        return *C > 0 && !llvm::MulOverflow(Scale, *C, Scaled) &&
               addIndexTerms(Other, Scaled, Launch, Terms, Depth + 1);
  if (auto Shift = V.getDefiningOp<arith::ShLIOp>())
    if (auto C = constantInt(Shift.getRhs()); C && *C >= 0 && *C < 31)
      return !llvm::MulOverflow(Scale, int64_t(1) << *C, Scaled) &&
             addIndexTerms(Shift.getLhs(), Scaled, Launch, Terms, Depth + 1);
  return false;
}

/// How many distinct values X takes among the launch's threads, each taken
/// by as many threads, when X is a thread or block id, a lane number
/// (gpu.lane_id, thread_id x % 32 or & 31 in rows of whole warps), or a
/// linear id of several that numbers their positions once each.
std::optional<uint64_t> distinctValues(Value X, const Extents &Launch) {
  constexpr unsigned WarpSize = 32;
  X = withoutIndexCasts(X);
  if (X.getDefiningOp<gpu::LaneIdOp>())
    return WarpSize;
  Operation *Def = X.getDefiningOp();
  if (isa_and_nonnull<arith::RemUIOp, arith::AndIOp>(Def) &&
      Launch.Block[0] % WarpSize == 0) {
    auto Id = withoutIndexCasts(Def->getOperand(0)).getDefiningOp<gpu::ThreadIdOp>();
    auto C = constantInt(Def->getOperand(1));
    int64_t Mask = isa<arith::RemUIOp>(Def) ? WarpSize : WarpSize - 1;
    if (Id && Id.getDimension() == gpu::Dimension::x && C == Mask)
      return WarpSize;
  }
  SmallVector<std::pair<IdKey, IndexTerm>, 4> Terms;
  if (!addIndexTerms(X, 1, Launch, Terms))
    return std::nullopt;
  std::vector<IndexTerm> Radix;
  for (const auto &[Key, T] : Terms)
    Radix.push_back(T);
  return mixedRadixValues(Radix);
}

/// Whether V is the same for every thread of the launch: a constant, a
/// kernel argument, a block or grid extent, or integer arithmetic of those.
bool launchUniform(Value V, unsigned Depth = 0) {
  constexpr unsigned MaxUniformDepth = 4;
  if (!V.getType().isIntOrIndex())
    return false;
  if (auto Arg = dyn_cast<BlockArgument>(V))
    return isa<gpu::GPUFuncOp>(Arg.getOwner()->getParentOp()) &&
           Arg.getOwner()->isEntryBlock();
  Operation *Def = V.getDefiningOp();
  if (!Def || Depth == MaxUniformDepth)
    return false;
  if (matchPattern(V, m_Constant()) ||
      isa<gpu::BlockDimOp, gpu::GridDimOp>(Def))
    return true;
  return Def->getName().getDialectNamespace() == "arith" &&
         Def->getNumRegions() == 0 &&
         llvm::all_of(Def->getOperands(), [&](Value Operand) {
           return launchUniform(Operand, Depth + 1);
         });
}

std::optional<IndexPredicate> indexPredicate(arith::CmpIPredicate P) {
  using Pred = arith::CmpIPredicate;
  switch (P) {
  case Pred::eq:
    return IndexPredicate::Equal;
  case Pred::ne:
    return IndexPredicate::NotEqual;
  case Pred::ult:
  case Pred::slt:
    return IndexPredicate::Less;
  case Pred::ule:
  case Pred::sle:
    return IndexPredicate::LessEqual;
  case Pred::ugt:
  case Pred::sgt:
    return IndexPredicate::Greater;
  case Pred::uge:
  case Pred::sge:
    return IndexPredicate::GreaterEqual;
  }
  return std::nullopt;
}

/// The shares of the threads that take the then and else sides of an
/// scf.if on `index P bound` (FeatureCore's guardedSide), or nothing when
/// Cmp is not such a guard.
std::optional<std::pair<double, double>> indexGuardShares(arith::CmpIOp Cmp,
                                                          const Extents &Launch) {
  Value X = Cmp.getLhs(), Bound = Cmp.getRhs();
  std::optional<IndexPredicate> P = indexPredicate(Cmp.getPredicate());
  std::optional<uint64_t> Values = distinctValues(X, Launch);
  if (!Values) {
    std::swap(X, Bound);
    if (P)
      P = swappedIndexPredicate(*P);
    Values = distinctValues(X, Launch);
  }
  if (!P || !Values || !launchUniform(Bound))
    return std::nullopt;
  bool Equality = *P == IndexPredicate::Equal || *P == IndexPredicate::NotEqual;
  std::optional<uint64_t> N;
  if (auto C = constantInt(Bound)) {
    // No index is negative: `index == -1` holds for none, an order on a
    // negative bound is left to every thread, as on the LLVM side.
    if (*C < 0 && !Equality)
      return std::nullopt;
    N = *C < 0 ? UINT64_MAX : uint64_t(*C);
  }
  std::optional<GuardedSide> Side = guardedSide(*P, N, *Values);
  if (!Side)
    return std::nullopt;
  return Side->WhenHolds ? std::make_pair(Side->Share, Side->OtherShare)
                         : std::make_pair(Side->OtherShare, Side->Share);
}

} // namespace

/// The shares of the launch's threads that take an scf.if's then and else
/// sides, below 1 for a thread or block index compared with a value every
/// thread has alike, for the last of the tickets an atomic add hands out
/// (the last block's tail), and 0 past the problem's end.
std::pair<double, double> leaderShares(Value Condition,
                                       const std::array<unsigned, 3> &Block,
                                       const std::array<uint64_t, 3> &Grid) {
  auto Cmp = Condition.getDefiningOp<arith::CmpIOp>();
  if (!Cmp)
    return {1, 1};
  using Pred = arith::CmpIPredicate;
  // A bounds check: threads past the problem's end take the far side.
  if (auto Shares = pastTheEndShares(Cmp))
    return *Shares;
  if (!llvm::all_of(Block, [](unsigned D) { return D; }))
    return {1, 1};
  APInt Last;
  if ((Cmp.getPredicate() == Pred::eq || Cmp.getPredicate() == Pred::ne) &&
      isTicket(Cmp.getLhs()) &&
      matchPattern(Cmp.getRhs(), m_ConstantInt(&Last)) &&
      !Last.isMaxValue()) {
    double Share = lastTicketShare(Last.getZExtValue());
    return Cmp.getPredicate() == Pred::eq ? std::make_pair(Share, 1.0)
                                          : std::make_pair(1.0, Share);
  }
  return indexGuardShares(Cmp, {Block, Grid}).value_or(std::make_pair(1.0, 1.0));
}

} // namespace energy
