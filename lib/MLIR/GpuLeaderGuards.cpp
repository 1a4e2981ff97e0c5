//===- GpuLeaderGuards.cpp - Code that only some threads of a block run ---===//

#include "GpuLeaderGuards.h"

#include "FeatureCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/STLExtras.h"

#include <optional>

using namespace mlir;

namespace energy {

/// V without the index casts that keep its value.
static Value withoutIndexCasts(Value V) {
  while (auto Cast = V.getDefiningOp<arith::IndexCastOp>())
    V = Cast.getIn();
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

/// The shares of the block's threads that take an scf.if's then and else
/// sides, below 1 for a thread index compared with a constant, for the last
/// of the tickets an atomic add hands out (the last block's tail), and 0
/// past the problem's end.
std::pair<double, double> leaderShares(Value Condition,
                                       const std::array<unsigned, 3> &Block) {
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
  Value Index = Cmp.getLhs();
  APInt Bound;
  arith::CmpIPredicate P = Cmp.getPredicate();
  if (!matchPattern(Cmp.getRhs(), m_ConstantInt(&Bound)))
    return {1, 1};
  Index = withoutIndexCasts(Index);
  unsigned Values = 0;
  if (auto Tid = Index.getDefiningOp<gpu::ThreadIdOp>())
    Values = Block[static_cast<unsigned>(Tid.getDimension())];
  else if (Index.getDefiningOp<gpu::LaneIdOp>())
    Values = 32;
  bool Equal = P == Pred::eq || P == Pred::ne;
  if (!Values || Bound.isNegative() ||
      !(Equal || P == Pred::ult || P == Pred::slt))
    return {1, 1};
  auto Share = guardedThreadShare(
      Equal ? IndexCompare::Equal : IndexCompare::Less, Bound.getZExtValue(),
      Values);
  if (!Share)
    return {1, 1};
  return P == Pred::ne ? std::make_pair(1.0, *Share)
                       : std::make_pair(*Share, 1.0);
}

} // namespace energy
