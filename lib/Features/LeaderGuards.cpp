//===- LeaderGuards.cpp - Code that only some threads of a block run ------===//

#include "LeaderGuards.h"
#include "FeatureCore.h"
#include "ThreadDependence.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
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

/// V without the casts and tests that keep its truth: zext, trunc to i1,
/// `!= 0`; Negated flips for `== 0` and `xor true`.
const Value *truthOf(const Value *V, bool &Negated) {
  while (true) {
    V = withoutIntegerCasts(V);
    const Value *X;
    if (match(V, m_SpecificICmp(ICmpInst::ICMP_NE, m_Value(X), m_Zero())))
      V = X;
    else if (match(V, m_SpecificICmp(ICmpInst::ICMP_EQ, m_Value(X), m_Zero())) ||
             match(V, m_Not(m_Value(X))))
      V = X, Negated = !Negated;
    else
      return V;
  }
}

/// The one value Load's function stores to the shared variable Load reads,
/// if it has one (clones of the kernel share its globals).
const Value *onlyStoredValue(const LoadInst &Load) {
  auto *Var = dyn_cast<GlobalVariable>(
      Load.getPointerOperand()->stripPointerCasts());
  if (!Var || Var->getAddressSpace() != 3)
    return nullptr;
  const Value *Stored = nullptr;
  SmallVector<const Value *, 8> Work = {Var};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if ((I && I->getFunction() != Load.getFunction()) || isa<LoadInst>(U))
        continue;
      if (auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getPointerOperand() != P || Stored)
          return nullptr; // the address escapes, or two stores
        Stored = S->getValueOperand();
      } else if (isa<AddrSpaceCastInst, BitCastInst>(U) ||
                 (isa<ConstantExpr>(U) &&
                  cast<ConstantExpr>(U)->isCast())) {
        Work.push_back(U);
      } else {
        return nullptr; // an access this does not follow
      }
    }
  }
  return Stored;
}

/// The successor of Br that only the last block takes (`ticket == K`, K the
/// last of K + 1 tickets an atomic add of 1 hands out), and its share.
std::optional<std::pair<const BasicBlock *, double>>
lastTicketEdge(const BranchInst &Br) {
  bool Negated = false;
  const Value *Truth = truthOf(Br.getCondition(), Negated);
  if (auto *Load = dyn_cast<LoadInst>(Truth))
    if (const Value *Stored = onlyStoredValue(*Load))
      Truth = truthOf(Stored, Negated);
  auto *Cmp = dyn_cast<ICmpInst>(Truth);
  if (!Cmp || !Cmp->isEquality())
    return std::nullopt;
  const Value *Ticket = Cmp->getOperand(0);
  auto *Last = dyn_cast<ConstantInt>(Cmp->getOperand(1));
  if (!Last) {
    Ticket = Cmp->getOperand(1);
    Last = dyn_cast<ConstantInt>(Cmp->getOperand(0));
  }
  auto *Add = dyn_cast<AtomicRMWInst>(withoutIntegerCasts(Ticket));
  if (!Last || !Add || Add->getOperation() != AtomicRMWInst::Add ||
      !match(Add->getValOperand(), m_One()) || Last->getValue().isMaxValue())
    return std::nullopt;
  if (Cmp->getPredicate() == ICmpInst::ICMP_NE)
    Negated = !Negated;
  return std::make_pair(Br.getSuccessor(Negated ? 1 : 0),
                        lastTicketShare(Last->getZExtValue()));
}

/// Collects in Found the grid-index parts that V sums (1: threadIdx.x, 2:
/// blockIdx.x times blockDim.x or a positive constant), through integer
/// casts, adds (`or disjoint` too), constant offsets and positive constant
/// scales; false when V holds anything else.
bool gridIndexParts(const Value *V, unsigned &Found, bool Scaled = false) {
  V = withoutIntegerCasts(V);
  const Value *A, *B;
  const APInt *C;
  if (match(V, m_APInt(C)))
    return true;
  if (match(V, m_AddLike(m_Value(A), m_Value(B))))
    return gridIndexParts(A, Found, Scaled) && gridIndexParts(B, Found, Scaled);
  if (match(V, m_Shl(m_Value(A), m_APInt(C))) ||
      (match(V, m_Mul(m_Value(A), m_APInt(C))) && C->isStrictlyPositive()))
    return gridIndexParts(A, Found, /*Scaled=*/true);
  auto ReadOf = [](const Value *X, SpecialRegister Reg) {
    auto Read = readsSpecialRegister(withoutIntegerCasts(X));
    return Read && Read->Reg == Reg && Read->Axis == 0;
  };
  if (match(V, m_Mul(m_Value(A), m_Value(B))) &&
      ((ReadOf(A, SpecialRegister::BlockIdx) &&
        ReadOf(B, SpecialRegister::BlockDim)) ||
       (ReadOf(B, SpecialRegister::BlockIdx) &&
        ReadOf(A, SpecialRegister::BlockDim)))) {
    Found |= 2;
    return true;
  }
  if (ReadOf(V, SpecialRegister::ThreadIdx)) {
    Found |= 1;
    return true;
  }
  if (Scaled && ReadOf(V, SpecialRegister::BlockIdx)) {
    Found |= 2;
    return true;
  }
  return false;
}

/// Whether X is the thread's position in the grid along x, blockIdx.x *
/// blockDim.x + threadIdx.x (blockDim.x possibly folded to a constant),
/// scaled by and offset by constants, as instcombine leaves it (shifts
/// distributed, adds of disjoint bits as `or`): what a bounds check
/// compares with the problem size.
bool isGridIndex(const Value *X) {
  unsigned Found = 0;
  return gridIndexParts(X, Found) && Found == 3;
}

/// Whether N is a problem size: a kernel argument, possibly minus a
/// constant.
bool isProblemSize(const Value *N) {
  N = withoutIntegerCasts(N);
  const Value *Arg;
  const APInt *Offset;
  if (match(N, m_Add(m_Value(Arg), m_APInt(Offset))))
    N = withoutIntegerCasts(Arg);
  return isa<Argument>(N);
}

/// The successor of Br that only threads past the problem's end take: Br
/// tests `grid index < n` (or <=, >, >=) for a size argument n, and takes
/// the other side at the ragged end (a vector kernel's scalar tail):
/// PastTheEndShare.
std::optional<std::pair<const BasicBlock *, double>>
pastTheEndEdge(const BranchInst &Br) {
  auto *Cmp = dyn_cast<ICmpInst>(Br.getCondition());
  if (!Cmp || Br.getSuccessor(0) == Br.getSuccessor(1))
    return std::nullopt;
  ICmpInst::Predicate P = Cmp->getPredicate();
  const Value *X = Cmp->getOperand(0), *N = Cmp->getOperand(1);
  if (!isGridIndex(X)) {
    std::swap(X, N);
    P = ICmpInst::getSwappedPredicate(P);
  }
  if (!isGridIndex(X) || !isProblemSize(N))
    return std::nullopt;
  switch (P) {
  case ICmpInst::ICMP_SLT:
  case ICmpInst::ICMP_ULT:
  case ICmpInst::ICMP_SLE:
  case ICmpInst::ICMP_ULE:
    return std::make_pair(Br.getSuccessor(1), PastTheEndShare);
  case ICmpInst::ICMP_SGT:
  case ICmpInst::ICMP_UGT:
  case ICmpInst::ICMP_SGE:
  case ICmpInst::ICMP_UGE:
    return std::make_pair(Br.getSuccessor(0), PastTheEndShare);
  default:
    return std::nullopt;
  }
}

} // namespace

DenseMap<const BasicBlock *, double>
threadShares(const Function &F, const DominatorTree &DT,
             const std::array<unsigned, 3> &Block, unsigned WarpSize) {
  DenseMap<const BasicBlock *, double> Shares;
  bool BlockKnown =
      std::all_of(Block.begin(), Block.end(), [](unsigned D) { return D; });
  for (const BasicBlock &BB : F) {
    auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    auto Guard = pastTheEndEdge(*Br);
    if (!Guard && BlockKnown)
      Guard = guardedEdge(*Br, Block, WarpSize);
    if (!Guard && BlockKnown)
      Guard = lastTicketEdge(*Br);
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
