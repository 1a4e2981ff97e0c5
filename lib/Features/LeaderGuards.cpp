//===- LeaderGuards.cpp - Code that only some threads of a block run ------===//

#include "LeaderGuards.h"
#include "FeatureCore.h"
#include "ThreadDependence.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

#include <algorithm>
#include <optional>
#include <vector>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace energy {

namespace {

const Value *withoutIntegerCasts(const Value *V) {
  while (isa<ZExtInst, SExtInst, TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

/// Adds to Terms Scale times the thread and block indices V sums, through
/// integer casts, adds (`or disjoint` too) and constant multiples and
/// shifts (a launch extent folded to a constant); false when V holds
/// anything else or a coefficient grows past 2^31.
bool addIndexTerms(
    const Value *V, int64_t Scale, const LaunchShape &Launch,
    SmallVectorImpl<std::pair<const Value *, IndexTerm>> &Terms) {
  constexpr int64_t Limit = int64_t(1) << 31;
  V = withoutIntegerCasts(V);
  const Value *A, *B;
  const APInt *C;
  if (match(V, m_AddLike(m_Value(A), m_Value(B))))
    return addIndexTerms(A, Scale, Launch, Terms) &&
           addIndexTerms(B, Scale, Launch, Terms);
  if (match(V, m_Shl(m_Value(A), m_APInt(C))) && C->ult(31))
    return Scale << C->getZExtValue() < Limit &&
           addIndexTerms(A, Scale << C->getZExtValue(), Launch, Terms);
  if ((match(V, m_Mul(m_Value(A), m_APInt(C))) ||
       match(V, m_Mul(m_APInt(C), m_Value(A)))) &&
      C->isStrictlyPositive() && C->ult(Limit))
    return Scale * C->getSExtValue() < Limit &&
           addIndexTerms(A, Scale * C->getSExtValue(), Launch, Terms);
  auto Read = readsSpecialRegister(V);
  if (!Read || (Read->Reg != SpecialRegister::ThreadIdx &&
                Read->Reg != SpecialRegister::BlockIdx))
    return false;
  // The same register read twice (clones keep each read): one term.
  for (auto &[Reg, T] : Terms)
    if (readsSpecialRegister(Reg)->Reg == Read->Reg &&
        readsSpecialRegister(Reg)->Axis == Read->Axis) {
      T.Coefficient += Scale;
      return T.Coefficient < Limit;
    }
  Terms.push_back({V, IndexTerm{Scale, launchExtent(*Read, Launch)}});
  return true;
}

/// How many distinct values X takes among the launch's threads, each taken
/// by as many threads, when X is a thread or block index, a lane number, or
/// a linear id of several that numbers their positions once each.
std::optional<uint64_t> distinctValues(const Value *X,
                                       const LaunchShape &Launch,
                                       unsigned WarpSize) {
  X = withoutIntegerCasts(X);
  if (auto Read = readsSpecialRegister(X);
      Read && Read->Reg == SpecialRegister::LaneId)
    return WarpSize;
  // threadIdx.x % 32 and threadIdx.x & 31 number the lanes when whole warps
  // span the block's rows.
  const Value *Index;
  if ((match(X, m_And(m_Value(Index), m_SpecificInt(WarpSize - 1))) ||
       match(X, m_URem(m_Value(Index), m_SpecificInt(WarpSize)))) &&
      Launch.Block[0] % WarpSize == 0)
    if (auto Read = readsSpecialRegister(withoutIntegerCasts(Index)))
      if (Read->Reg == SpecialRegister::ThreadIdx && Read->Axis == 0)
        return WarpSize;
  SmallVector<std::pair<const Value *, IndexTerm>, 4> Terms;
  if (!addIndexTerms(X, 1, Launch, Terms))
    return std::nullopt;
  std::vector<IndexTerm> Radix;
  for (const auto &[Reg, T] : Terms)
    Radix.push_back(T);
  return mixedRadixValues(Radix);
}

/// Whether V is the same for every thread of the launch: a constant, a
/// kernel argument, or integer arithmetic of those.
bool launchUniform(const Value *V, unsigned Depth = 0) {
  constexpr unsigned MaxDepth = 4;
  if (isa<Constant, Argument>(V))
    return V->getType()->isIntegerTy();
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == MaxDepth || !(isa<CastInst>(I) || I->isBinaryOp()))
    return false;
  return llvm::all_of(I->operands(), [&](const Value *Op) {
    return launchUniform(Op, Depth + 1);
  });
}

/// P as FeatureCore's predicates name it; nothing for others.
std::optional<IndexPredicate> indexPredicate(ICmpInst::Predicate P) {
  switch (P) {
  case ICmpInst::ICMP_EQ:
    return IndexPredicate::Equal;
  case ICmpInst::ICMP_NE:
    return IndexPredicate::NotEqual;
  case ICmpInst::ICMP_ULT:
  case ICmpInst::ICMP_SLT:
    return IndexPredicate::Less;
  case ICmpInst::ICMP_ULE:
  case ICmpInst::ICMP_SLE:
    return IndexPredicate::LessEqual;
  case ICmpInst::ICMP_UGT:
  case ICmpInst::ICMP_SGT:
    return IndexPredicate::Greater;
  case ICmpInst::ICMP_UGE:
  case ICmpInst::ICMP_SGE:
    return IndexPredicate::GreaterEqual;
  default:
    return std::nullopt;
  }
}

/// A successor of a branch that only some threads take, and their share.
using GuardedEdge = std::pair<const BasicBlock *, double>;

/// Br's successors on an index guard, each with the share of the threads
/// that take it; none when Br is not one.
SmallVector<GuardedEdge, 2> guardedEdges(const BranchInst &Br,
                                         const LaunchShape &Launch,
                                         unsigned WarpSize) {
  auto *Cmp = dyn_cast<ICmpInst>(Br.getCondition());
  if (!Cmp || Br.getSuccessor(0) == Br.getSuccessor(1))
    return {};
  ICmpInst::Predicate P = Cmp->getPredicate();
  const Value *X = Cmp->getOperand(0), *Bound = Cmp->getOperand(1);
  std::optional<uint64_t> Values = distinctValues(X, Launch, WarpSize);
  if (!Values) {
    std::swap(X, Bound);
    P = ICmpInst::getSwappedPredicate(P);
    Values = distinctValues(X, Launch, WarpSize);
  }
  if (!Values || !launchUniform(Bound))
    return {};
  std::optional<IndexPredicate> Predicate = indexPredicate(P);
  auto *C = dyn_cast<ConstantInt>(Bound);
  // An order needs a constant bound (guardedSide), one no index is under.
  if (!Predicate || (!Cmp->isEquality() && C &&
                     (C->isNegative() || C->getValue().getActiveBits() > 62)))
    return {};
  std::optional<uint64_t> N;
  if (C)
    N = C->getZExtValue();
  std::optional<GuardedSide> Side = guardedSide(*Predicate, N, *Values);
  if (!Side)
    return {};
  unsigned Holds = Side->WhenHolds ? 0 : 1;
  return {{Br.getSuccessor(Holds), Side->Share},
          {Br.getSuccessor(1 - Holds), Side->OtherShare}};
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
std::optional<GuardedEdge> lastTicketEdge(const BranchInst &Br) {
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

/// A thread's position in the grid along one axis, as a bounds check
/// compares it with the problem size: Offset + PerThread x threadIdx +
/// PerBlock x blockIdx (blockDim folded to a constant, or read: then
/// PerBlock counts blockDim's multiples in PerBlockDims).
struct GridIndex {
  unsigned Axis = 0;
  int64_t Offset = 0, PerThread = 0, PerBlock = 0, PerBlockDims = 0;
};

/// Adds Scale x V to Into, through integer casts, adds (`or disjoint` too),
/// constant offsets and positive constant scales, as instcombine leaves the
/// index (shifts distributed); false when V holds anything else, reads
/// another axis, or the coefficients grow past 2^31.
bool addGridIndex(const Value *V, int64_t Scale, GridIndex &Into,
                  std::optional<unsigned> &Axis) {
  constexpr int64_t Limit = int64_t(1) << 31;
  V = withoutIntegerCasts(V);
  const Value *A, *B;
  const APInt *C;
  auto OnAxis = [&](const SpecialRegisterRead &Read) {
    if (Axis && *Axis != Read.Axis)
      return false;
    Axis = Read.Axis;
    return true;
  };
  auto Read = [&](const Value *X,
                  SpecialRegister Reg) -> std::optional<SpecialRegisterRead> {
    auto R = readsSpecialRegister(withoutIntegerCasts(X));
    if (R && R->Reg == Reg && OnAxis(*R))
      return R;
    return std::nullopt;
  };
  if (match(V, m_APInt(C))) {
    if (C->getSignificantBits() > 32)
      return false;
    Into.Offset += Scale * C->getSExtValue();
    return true;
  }
  if (match(V, m_AddLike(m_Value(A), m_Value(B))))
    return addGridIndex(A, Scale, Into, Axis) &&
           addGridIndex(B, Scale, Into, Axis);
  if (match(V, m_Shl(m_Value(A), m_APInt(C))) && C->ult(31))
    return Scale << C->getZExtValue() < Limit &&
           addGridIndex(A, Scale << C->getZExtValue(), Into, Axis);
  if (match(V, m_Mul(m_Value(A), m_APInt(C))) && C->isStrictlyPositive() &&
      C->ult(Limit))
    return Scale * C->getSExtValue() < Limit &&
           addGridIndex(A, Scale * C->getSExtValue(), Into, Axis);
  if (match(V, m_Mul(m_Value(A), m_Value(B))) &&
      ((Read(A, SpecialRegister::BlockIdx) &&
        Read(B, SpecialRegister::BlockDim)) ||
       (Read(B, SpecialRegister::BlockIdx) &&
        Read(A, SpecialRegister::BlockDim)))) {
    Into.PerBlockDims += Scale;
    return true;
  }
  if (Read(V, SpecialRegister::ThreadIdx)) {
    Into.PerThread += Scale;
    return true;
  }
  if (Read(V, SpecialRegister::BlockIdx)) {
    Into.PerBlock += Scale;
    return true;
  }
  return false;
}

/// X as a thread's grid index: a block's index scaled (by blockDim or a
/// constant: a block of threads, each of which may take several items),
/// plus the thread's index, or not (`blockIdx.z * zitems`: the block's first
/// item).
std::optional<GridIndex> gridIndex(const Value *X) {
  GridIndex G;
  std::optional<unsigned> Axis;
  if (!addGridIndex(X, 1, G, Axis) || !Axis || G.PerThread < 0 ||
      (G.PerBlockDims <= 0 && G.PerBlock < 2))
    return std::nullopt;
  G.Axis = *Axis;
  return G;
}

/// A size a bounds check compares with: a kernel argument, possibly plus a
/// constant.
struct ProblemSize {
  const Value *Argument = nullptr;
  int64_t Offset = 0;
};

std::optional<ProblemSize> problemSize(const Value *N) {
  ProblemSize S;
  N = withoutIntegerCasts(N);
  const Value *Arg;
  const APInt *Offset;
  if (match(N, m_Add(m_Value(Arg), m_APInt(Offset))) &&
      Offset->getSignificantBits() <= 32) {
    N = withoutIntegerCasts(Arg);
    S.Offset = Offset->getSExtValue();
  }
  if (!isa<Argument>(N))
    return std::nullopt;
  S.Argument = N;
  return S;
}

/// `grid index < size` (a bound check's within side; <= as < size + 1).
struct BoundCheck {
  GridIndex Index;
  ProblemSize Size;
};

/// Collects into Checks the bounds checks of the conjunction Cond is (when
/// Within) or of the disjunction of negations (when !Within): `x < nx && y
/// < ny` as `and` or a select, `x >= nx || y >= ny` as `or`; counts in
/// Others the terms that are not bounds checks.
void collectBoundChecks(const Value *Cond, bool Within,
                        SmallVectorImpl<BoundCheck> &Checks, unsigned &Others) {
  const Value *A, *B;
  if (Within ? match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))
             : match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))) {
    collectBoundChecks(A, Within, Checks, Others);
    collectBoundChecks(B, Within, Checks, Others);
    return;
  }
  auto IsCheck = [&] {
    auto *Cmp = dyn_cast<ICmpInst>(Cond);
    if (!Cmp)
      return false;
    ICmpInst::Predicate P = Cmp->getPredicate();
    const Value *X = Cmp->getOperand(0), *N = Cmp->getOperand(1);
    std::optional<GridIndex> Index = gridIndex(X);
    if (!Index) {
      std::swap(X, N);
      P = ICmpInst::getSwappedPredicate(P);
      Index = gridIndex(X);
    }
    std::optional<ProblemSize> Size = problemSize(N);
    if (!Index || !Size)
      return false;
    if (!Within)
      P = ICmpInst::getInversePredicate(P);
    switch (P) {
    case ICmpInst::ICMP_SLE:
    case ICmpInst::ICMP_ULE:
      Size->Offset += 1;
      [[fallthrough]];
    case ICmpInst::ICMP_SLT:
    case ICmpInst::ICMP_ULT:
      Checks.push_back({*Index, *Size});
      return true;
    default:
      return false;
    }
  };
  if (!IsCheck())
    ++Others;
}

/// Of a grid's Blocks x Threads positions along an axis, those with
/// Offset + PerThread x thread + PerBlock x block < Bound.
double positionsWithin(int64_t Bound, int64_t Offset, int64_t PerThread,
                       int64_t PerBlock, uint64_t Blocks, uint64_t Threads) {
  auto CeilDiv = [](int64_t A, int64_t B) {
    return A >= 0 ? (A + B - 1) / B : -((-A) / B);
  };
  auto Clamp = [&](int64_t V) {
    return std::clamp<int64_t>(V, 0, int64_t(Blocks));
  };
  int64_t Last = PerThread * int64_t(Threads - 1);
  // With no thread part (PerThread 0) a block lies wholly on one side.
  // Blocks [0, Full) lie wholly within, [Empty, Blocks) wholly past it.
  int64_t Full = Clamp(CeilDiv(Bound - Offset - Last, PerBlock));
  int64_t Empty = Clamp(CeilDiv(Bound - Offset, PerBlock));
  double Within = double(Full) * double(Threads);
  constexpr int64_t MaxPartialBlocks = 1 << 16;
  if (Empty - Full > MaxPartialBlocks) // half of each, on average
    return Within + double(Empty - Full) * double(Threads) / 2;
  for (int64_t B = Full; B < Empty; ++B)
    Within += double(std::clamp<int64_t>(
        CeilDiv(Bound - Offset - PerBlock * B, PerThread), 0, Threads));
  return Within;
}

/// The share of the launch's threads along Check's axis within the bound,
/// when the launch and the size are known.
std::optional<double> withinShare(const BoundCheck &Check,
                                  const LaunchShape &Launch) {
  unsigned Axis = Check.Index.Axis;
  if (Axis > 2 || !Launch.Block[Axis] || !Launch.Grid[Axis] ||
      !Launch.ArgumentValue)
    return std::nullopt;
  std::optional<uint64_t> Size = Launch.ArgumentValue(Check.Size.Argument);
  if (!Size)
    return std::nullopt;
  int64_t PerBlock = Check.Index.PerBlock +
                     Check.Index.PerBlockDims * int64_t(Launch.Block[Axis]);
  double Positions = double(Launch.Grid[Axis]) * Launch.Block[Axis];
  return positionsWithin(int64_t(*Size) + Check.Size.Offset, Check.Index.Offset,
                         Check.Index.PerThread, PerBlock, Launch.Grid[Axis],
                         Launch.Block[Axis]) /
         Positions;
}

/// The successor of Br that threads within the problem take, when Br tests
/// bounds checks (`grid index < n`, n a size argument; several as `x < nx
/// && y < ny` or `x >= nx || y >= ny`), and the share of the threads within
/// along each axis. With the launch's grid and sizes unknown, a launch sized
/// to its problem is assumed: every thread within, the far side (a ragged
/// end, a vector kernel's scalar tail) for PastTheEndShare of them. When
/// the condition also tests something else, threads within may take the
/// far side too: it is left to every thread.
struct WithinEdge {
  const BasicBlock *Within = nullptr, *Past = nullptr;
  std::array<double, 3> AxisShare = {1, 1, 1};
  bool OnlyBounds = true;
};

std::optional<WithinEdge> withinEdge(const BranchInst &Br,
                                     const LaunchShape &Launch) {
  if (Br.getSuccessor(0) == Br.getSuccessor(1))
    return std::nullopt;
  SmallVector<BoundCheck, 3> Checks;
  unsigned Others = 0;
  WithinEdge E;
  collectBoundChecks(Br.getCondition(), /*Within=*/true, Checks, Others);
  if (!Checks.empty()) {
    E.Within = Br.getSuccessor(0), E.Past = Br.getSuccessor(1);
  } else {
    Others = 0;
    collectBoundChecks(Br.getCondition(), /*Within=*/false, Checks, Others);
    if (Checks.empty())
      return std::nullopt;
    E.Within = Br.getSuccessor(1), E.Past = Br.getSuccessor(0);
  }
  E.OnlyBounds = Others == 0;
  // Checks on one axis: the tightest holds for all (they nest).
  for (const BoundCheck &C : Checks)
    if (std::optional<double> Share = withinShare(C, Launch))
      E.AxisShare[C.Index.Axis] = std::min(E.AxisShare[C.Index.Axis], *Share);
  return E;
}

} // namespace

uint64_t launchExtent(const SpecialRegisterRead &Read,
                      const LaunchShape &Launch) {
  switch (Read.Reg) {
  case SpecialRegister::ThreadIdx:
    return Launch.Block[Read.Axis];
  case SpecialRegister::BlockIdx:
    return Launch.Grid[Read.Axis];
  case SpecialRegister::LaneId:
    return 32;
  default:
    return 0;
  }
}

DenseMap<const BasicBlock *, ThreadShare>
threadShares(const Function &F, const DominatorTree &DT,
             const LaunchShape &Launch, unsigned WarpSize) {
  DenseMap<const BasicBlock *, ThreadShare> Shares;
  const std::array<unsigned, 3> &Block = Launch.Block;
  bool BlockKnown =
      std::all_of(Block.begin(), Block.end(), [](unsigned D) { return D; });
  // Nested guards multiply: threadIdx.x == 0 inside threadIdx.y == 0.
  auto Mark = [&](const BasicBlock &From, const BasicBlock *To, auto &&Apply) {
    BasicBlockEdge Edge(&From, To);
    for (const BasicBlock &Reached : F)
      if (DT.dominates(Edge, &Reached))
        Apply(Shares.try_emplace(&Reached).first->second);
  };
  std::vector<std::pair<const BasicBlock *, WithinEdge>> BoundsChecks;
  for (const BasicBlock &BB : F) {
    auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    if (auto E = withinEdge(*Br, Launch)) {
      // Checks on one axis nest (`x < n` then `x + 1 < n`): the tightest
      // holds for all.
      Mark(BB, E->Within, [&](ThreadShare &S) {
        for (unsigned A = 0; A < 3; ++A)
          S.AxisWithin[A] = std::min(S.AxisWithin[A], E->AxisShare[A]);
      });
      BoundsChecks.emplace_back(&BB, *E);
      continue;
    }
    if (!BlockKnown)
      continue;
    SmallVector<GuardedEdge, 2> Guards = guardedEdges(*Br, Launch, WarpSize);
    if (Guards.empty())
      if (std::optional<GuardedEdge> Ticket = lastTicketEdge(*Br))
        Guards.push_back(*Ticket);
    for (const auto &[To, Share] : Guards) {
      double Taken = Share;
      Mark(BB, To, [&](ThreadShare &S) { S.Guarded *= Taken; });
    }
  }
  // A check's far side takes the threads that reach the check, within the
  // checks around it, and fail it: of those, the share past this one.
  for (const auto &[BB, E] : BoundsChecks) {
    if (!E.OnlyBounds)
      continue;
    auto Around = Shares.find(BB);
    std::array<double, 3> Reaching = Around != Shares.end()
                                         ? Around->second.AxisWithin
                                         : std::array<double, 3>{1, 1, 1};
    double Kept = 1;
    for (unsigned A = 0; A < 3; ++A)
      if (Reaching[A] > 0)
        Kept *= std::min(E.AxisShare[A], Reaching[A]) / Reaching[A];
    double Past = Kept < 1 ? 1 - Kept : PastTheEndShare;
    Mark(*BB, E.Past, [&](ThreadShare &S) { S.Guarded *= Past; });
  }
  return Shares;
}

} // namespace energy
