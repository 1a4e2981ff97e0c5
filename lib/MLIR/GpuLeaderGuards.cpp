//===- GpuLeaderGuards.cpp - Code that only some threads of a block run ---===//

#include "GpuLeaderGuards.h"

#include "FeatureCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace energy {

/// The ticket an atomic add of 1 hands out, if Value is one.
static bool isTicket(Value V) {
  while (auto Cast = V.getDefiningOp<arith::IndexCastOp>())
    V = Cast.getIn();
  auto Add = V.getDefiningOp<memref::AtomicRMWOp>();
  APInt One;
  return Add && Add.getKind() == arith::AtomicRMWKind::addi &&
         matchPattern(Add.getValue(), m_ConstantInt(&One)) && One.isOne();
}

/// The shares of the block's threads that take an scf.if's then and else
/// sides, below 1 for a thread index compared with a constant, and for the
/// last of the tickets an atomic add hands out (the last block's tail).
std::pair<double, double> leaderShares(Value Condition,
                                       const std::array<unsigned, 3> &Block) {
  auto Cmp = Condition.getDefiningOp<arith::CmpIOp>();
  if (!Cmp || !llvm::all_of(Block, [](unsigned D) { return D; }))
    return {1, 1};
  APInt Last;
  using Pred = arith::CmpIPredicate;
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
  while (auto Cast = Index.getDefiningOp<arith::IndexCastOp>())
    Index = Cast.getIn();
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
