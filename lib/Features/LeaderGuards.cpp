//===- LeaderGuards.cpp - Code that only some threads of a block run ------===//

#include "LeaderGuards.h"
#include "FeatureCore.h"
#include "ThreadDependence.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace energy {

namespace {

const Value *withoutIntegerCasts(const Value *V) {
  while (isa<ZExtInst, SExtInst, TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

/// How many distinct values X takes among a block's threads, each taken by
/// as many threads, when X is a thread index or a lane number.
std::optional<unsigned> distinctValues(const Value *X,
                                       const std::array<unsigned, 3> &Block,
                                       unsigned WarpSize) {
  X = withoutIntegerCasts(X);
  if (auto Read = readsSpecialRegister(X)) {
    if (Read->Reg == SpecialRegister::ThreadIdx)
      return Block[Read->Axis];
    if (Read->Reg == SpecialRegister::LaneId)
      return WarpSize;
    return std::nullopt;
  }
  // threadIdx.x % 32 and threadIdx.x & 31 number the lanes when whole warps
  // span the block's rows.
  const Value *Index;
  if ((match(X, m_And(m_Value(Index), m_SpecificInt(WarpSize - 1))) ||
       match(X, m_URem(m_Value(Index), m_SpecificInt(WarpSize)))) &&
      Block[0] % WarpSize == 0)
    if (auto Read = readsSpecialRegister(withoutIntegerCasts(Index)))
      if (Read->Reg == SpecialRegister::ThreadIdx && Read->Axis == 0)
        return WarpSize;
  return std::nullopt;
}

/// The successor of Br that only some threads take, and their share.
std::optional<std::pair<const BasicBlock *, double>>
guardedEdge(const BranchInst &Br, const std::array<unsigned, 3> &Block,
            unsigned WarpSize) {
  auto *Cmp = dyn_cast<ICmpInst>(Br.getCondition());
  if (!Cmp || Br.getSuccessor(0) == Br.getSuccessor(1))
    return std::nullopt;
  ICmpInst::Predicate P = Cmp->getPredicate();
  const Value *X = Cmp->getOperand(0);
  auto *C = dyn_cast<ConstantInt>(Cmp->getOperand(1));
  if (!C) {
    X = Cmp->getOperand(1);
    C = dyn_cast<ConstantInt>(Cmp->getOperand(0));
    P = ICmpInst::getSwappedPredicate(P);
  }
  if (!C || C->isNegative())
    return std::nullopt;
  std::optional<unsigned> Values = distinctValues(X, Block, WarpSize);
  if (!Values)
    return std::nullopt;
  // The side of the branch on which the comparison holds, or, for !=, fails.
  IndexCompare Compare;
  const BasicBlock *Guarded;
  switch (P) {
  case ICmpInst::ICMP_EQ:
    Compare = IndexCompare::Equal, Guarded = Br.getSuccessor(0);
    break;
  case ICmpInst::ICMP_NE:
    Compare = IndexCompare::Equal, Guarded = Br.getSuccessor(1);
    break;
  case ICmpInst::ICMP_ULT:
  case ICmpInst::ICMP_SLT:
    Compare = IndexCompare::Less, Guarded = Br.getSuccessor(0);
    break;
  default:
    return std::nullopt;
  }
  auto Share = guardedThreadShare(Compare, C->getZExtValue(), *Values);
  if (!Share)
    return std::nullopt;
  return std::make_pair(Guarded, *Share);
}

} // namespace

DenseMap<const BasicBlock *, double>
threadShares(const Function &F, const DominatorTree &DT,
             const std::array<unsigned, 3> &Block, unsigned WarpSize) {
  DenseMap<const BasicBlock *, double> Shares;
  if (!std::all_of(Block.begin(), Block.end(), [](unsigned D) { return D; }))
    return Shares;
  for (const BasicBlock &BB : F) {
    auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    auto Guard = guardedEdge(*Br, Block, WarpSize);
    if (!Guard)
      continue;
    BasicBlockEdge Edge(&BB, Guard->first);
    // Nested guards multiply: threadIdx.x == 0 inside threadIdx.y == 0.
    for (const BasicBlock &Reached : F)
      if (DT.dominates(Edge, &Reached)) {
        auto [It, New] = Shares.try_emplace(&Reached, 1.0);
        It->second *= Guard->second;
      }
  }
  return Shares;
}

} // namespace energy
