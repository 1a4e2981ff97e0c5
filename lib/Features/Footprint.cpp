//===- Footprint.cpp - Distinct global bytes a block touches --------------===//

#include "Footprint.h"
#include "AccessStride.h"
#include "ThreadDependence.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Instruction.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <tuple>

using namespace llvm;

namespace energy {

namespace {

constexpr double SectorBytes = 32;
/// Beyond this many rows x constants, the union is estimated, not listed.
constexpr double MaxEnumeratedIntervals = 1 << 16;

/// d(S)/d(iteration of L) in bytes, when it is a constant.
std::optional<int64_t> loopStep(const SCEV *S, const Loop *L,
                                ScalarEvolution &SE) {
  if (SE.isLoopInvariant(S, L))
    return 0;
  if (auto *Rec = dyn_cast<SCEVAddRecExpr>(S)) {
    if (Rec->getLoop() == L) {
      if (!Rec->isAffine())
        return std::nullopt;
      auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
      if (!Step)
        return std::nullopt;
      return Step->getAPInt().getSExtValue();
    }
    // An inner loop's recurrence moves with L through its start only.
    if (L->contains(Rec->getLoop()) &&
        all_of(Rec->operands().drop_front(),
               [&](const SCEV *Op) { return SE.isLoopInvariant(Op, L); }))
      return loopStep(Rec->getStart(), L, SE);
    return std::nullopt;
  }
  if (auto *Cast = dyn_cast<SCEVCastExpr>(S))
    return loopStep(Cast->getOperand(0), L, SE);
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    int64_t Sum = 0;
    for (const SCEV *Op : Add->operands()) {
      std::optional<int64_t> D = loopStep(Op, L, SE);
      if (!D)
        return std::nullopt;
      Sum += *D;
    }
    return Sum;
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    // A constant times one varying factor.
    std::optional<int64_t> Step;
    int64_t Scale = 1;
    for (const SCEV *Op : Mul->operands()) {
      if (auto *C = dyn_cast<SCEVConstant>(Op)) {
        Scale *= C->getAPInt().getSExtValue();
        continue;
      }
      if (Step || !(Step = loopStep(Op, L, SE)))
        return std::nullopt;
    }
    return Step ? std::optional<int64_t>(*Step * Scale) : 0;
  }
  return std::nullopt;
}

/// S with every add recurrence at its start and threadIdx at 0: the
/// address of thread 0 in the first iteration.
class FirstAddress : public SCEVRewriteVisitor<FirstAddress> {
public:
  FirstAddress(ScalarEvolution &SE) : SCEVRewriteVisitor(SE) {}

  const SCEV *visitAddRecExpr(const SCEVAddRecExpr *Rec) {
    return visit(Rec->getStart());
  }
  // Index arithmetic is taken not to wrap (as in AccessStride.h): an
  // extension distributes over sums and constant factors, so that the taps
  // of an unrolled loop differ in a constant the grouping can see.
  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) {
    return extend(visit(E->getOperand()), E->getType(), /*Signed=*/true);
  }
  const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *E) {
    return extend(visit(E->getOperand()), E->getType(), /*Signed=*/false);
  }
  const SCEV *extend(const SCEV *S, Type *To, bool Signed) {
    auto Ext = [&](const SCEV *Op) {
      return Signed ? SE.getSignExtendExpr(Op, To)
                    : SE.getZeroExtendExpr(Op, To);
    };
    if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops;
      for (const SCEV *Op : Add->operands())
        Ops.push_back(extend(Op, To, Signed));
      return SE.getAddExpr(Ops);
    }
    if (auto *Mul = dyn_cast<SCEVMulExpr>(S))
      if (Mul->getNumOperands() == 2 && isa<SCEVConstant>(Mul->getOperand(0)))
        return SE.getMulExpr(Ext(Mul->getOperand(0)),
                             extend(Mul->getOperand(1), To, Signed));
    return Ext(S);
  }

  const SCEV *visitUnknown(const SCEVUnknown *U) {
    if (auto Read = readsSpecialRegister(U->getValue()))
      if (Read->Reg == SpecialRegister::ThreadIdx ||
          Read->Reg == SpecialRegister::LaneId)
        return SE.getZero(U->getType());
    return U;
  }
};

} // namespace

double boxFootprintBytes(ArrayRef<FootprintTerm> Terms,
                         ArrayRef<int64_t> Offsets, uint64_t AccessBytes) {
  // Equal coefficients merge: e1 and e2 values cover e1 + e2 - 1.
  std::map<int64_t, double> Extents;
  for (const FootprintTerm &T : Terms) {
    double E = std::max(1.0, std::ceil(T.Extent));
    if (T.Coefficient == 0 || E <= 1)
      continue;
    double &Merged =
        Extents.try_emplace(std::llabs(T.Coefficient), 1.0).first->second;
    Merged += E - 1;
  }
  // Smallest coefficients first: while one does not exceed the contiguous
  // run, it extends the run; the rest repeat the run (rows).
  double Run = double(AccessBytes);
  std::vector<std::pair<int64_t, double>> Rows;
  for (auto [C, E] : Extents) {
    if (Rows.empty() && double(C) <= Run)
      Run += double(C) * (E - 1);
    else
      Rows.push_back({C, E});
  }
  std::vector<int64_t> Shifts(Offsets.begin(), Offsets.end());
  if (Shifts.empty())
    Shifts.push_back(0);
  llvm::sort(Shifts);
  Shifts.erase(std::unique(Shifts.begin(), Shifts.end()), Shifts.end());
  auto Sectors = [](double Bytes) {
    return std::ceil(Bytes / SectorBytes) * SectorBytes;
  };

  double Intervals = double(Shifts.size());
  for (auto [C, E] : Rows)
    Intervals *= E;
  if (Intervals > MaxEnumeratedIntervals) {
    // Too many to list: each constant's spread, decomposed greedily along
    // the rows' coefficients (largest first), widens the box.
    int64_t Low = Shifts.front();
    std::vector<double> Widen(Rows.size(), 0);
    double Residual = 0;
    for (int64_t O : Shifts) {
      int64_t Rest = O - Low;
      for (size_t I = Rows.size(); I-- > 0;) {
        int64_t K = Rest / Rows[I].first;
        Widen[I] = std::max(Widen[I], double(K));
        Rest -= K * Rows[I].first;
      }
      Residual = std::max(Residual, double(Rest));
    }
    double Count = 1;
    for (size_t I = 0; I < Rows.size(); ++I)
      Count *= Rows[I].second + Widen[I];
    return Count * Sectors(Run + Residual);
  }
  // The union of every row of every shifted copy: starts, sorted, merged.
  std::vector<int64_t> Starts = {0};
  for (auto [C, E] : Rows) {
    std::vector<int64_t> Next;
    Next.reserve(Starts.size() * size_t(E));
    for (int64_t S : Starts)
      for (int64_t K = 0; K < int64_t(E); ++K)
        Next.push_back(S + K * C);
    Starts = std::move(Next);
  }
  std::vector<int64_t> All;
  All.reserve(Starts.size() * Shifts.size());
  for (int64_t S : Starts)
    for (int64_t O : Shifts)
      All.push_back(S + O);
  llvm::sort(All);
  auto Length = static_cast<int64_t>(Run);
  auto Sector = static_cast<int64_t>(SectorBytes);
  auto Floor = [&](int64_t X) {
    return X >= 0 ? X / Sector : -((-X + Sector - 1) / Sector);
  };
  double Bytes = 0;
  int64_t Begin = All.front(), End = All.front() + Length;
  auto Close = [&] {
    Bytes += double(Floor(End - 1) - Floor(Begin) + 1) * SectorBytes;
  };
  for (int64_t S : All) {
    if (S > End) {
      Close();
      Begin = S;
    }
    End = std::max(End, S + Length);
  }
  Close();
  return Bytes;
}

BlockFootprint::BlockFootprint(
    std::array<unsigned, 3> Block, ScalarEvolution &SE, const LoopInfo &LI,
    const ThreadDependence &TD, CalleeSummaries &Callees,
    std::function<double(const Loop *)> Trips,
    std::function<unsigned(const Value *)> ArgumentValue)
    : Block(Block), SE(SE), LI(LI), TD(TD), Callees(Callees),
      Trips(std::move(Trips)), ArgumentValue(std::move(ArgumentValue)) {}

bool BlockFootprint::add(const Value *Ptr, const Instruction &At,
                         uint64_t AccessBytes, double Executions) {
  if (!SE.isSCEVable(Ptr->getType()) || AccessBytes == 0)
    return false;
  const SCEV *Address = SE.getSCEV(const_cast<Value *>(Ptr));
  // Integer kernel arguments (sizes, pitches) take their assumed values, so
  // that `a[row * n + k]` has constant coefficients.
  ValueToSCEVMapTy Assumed;
  struct ArgumentCollector {
    SmallVector<const SCEVUnknown *, 4> Found;
    bool follow(const SCEV *S) {
      if (auto *U = dyn_cast<SCEVUnknown>(S))
        if (isa<Argument>(U->getValue()) && U->getType()->isIntegerTy())
          Found.push_back(U);
      return true;
    }
    bool isDone() const { return false; }
  } Collector;
  SCEVTraversal<ArgumentCollector>(Collector).visitAll(Address);
  for (const SCEVUnknown *U : Collector.Found)
    Assumed[U->getValue()] =
        SE.getConstant(U->getType(), ArgumentValue(U->getValue()));
  if (!Assumed.empty())
    Address = SCEVParameterRewriter::rewrite(Address, SE, Assumed);
  Group G;
  G.AccessBytes = AccessBytes;
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    Stride D = scevStride(Address, SE, TD, Callees, Axis);
    if (D.K == Stride::Zero)
      continue;
    if (D.K != Stride::Constant)
      return false;
    G.Terms.push_back({D.Bytes, double(Block[Axis])});
  }
  for (const Loop *L = LI.getLoopFor(At.getParent()); L;
       L = L->getParentLoop()) {
    std::optional<int64_t> Step = loopStep(Address, L, SE);
    if (!Step)
      return false;
    if (*Step != 0)
      G.Terms.push_back({*Step, Trips(L)});
  }
  // Split thread 0's first address into base, uniform part and constant.
  const SCEV *First = FirstAddress(SE).visit(Address);
  const SCEV *Base = SE.getPointerBase(First);
  const SCEV *Rest = SE.getMinusSCEV(First, Base);
  if (isa<SCEVCouldNotCompute>(Rest))
    return false;
  int64_t Constant = 0;
  if (auto *C = dyn_cast<SCEVConstant>(Rest)) {
    Constant = C->getAPInt().getSExtValue();
    Rest = SE.getZero(Rest->getType());
  } else if (auto *Add = dyn_cast<SCEVAddExpr>(Rest)) {
    if (auto *C = dyn_cast<SCEVConstant>(Add->getOperand(0))) {
      Constant = C->getAPInt().getSExtValue();
      Rest = SE.getMinusSCEV(Rest, C);
    }
  }
  // Rest no longer varies between the block's threads: a thread dependence
  // that is not a constant stride made addressStride fail above.
  std::vector<int64_t> Key = {reinterpret_cast<intptr_t>(Base),
                              reinterpret_cast<intptr_t>(Rest),
                              int64_t(AccessBytes)};
  for (const FootprintTerm &T : G.Terms) {
    Key.push_back(T.Coefficient);
    Key.push_back(int64_t(std::ceil(T.Extent)));
  }
  Group &Into = Groups.try_emplace(std::move(Key), std::move(G)).first->second;
  Into.Offsets.push_back(Constant);
  Into.Executions += Executions;
  Accessed += Executions * double(AccessBytes);
  return true;
}

double BlockFootprint::sectorBytes() const {
  double Threads = double(Block[0]) * Block[1] * Block[2];
  std::vector<double> PerGroup;
  for (const auto &[Key, G] : Groups) {
    double Box = boxFootprintBytes(G.Terms, G.Offsets, G.AccessBytes);
    // Never more than one sector per access.
    double Most = G.Executions * Threads *
                  std::ceil(double(G.AccessBytes) / SectorBytes) * SectorBytes;
    PerGroup.push_back(std::min(Box, Most));
  }
  // Summed in a fixed order: the groups' order follows pointer values.
  llvm::sort(PerGroup);
  double Sum = 0;
  for (double B : PerGroup)
    Sum += B;
  return Sum;
}

} // namespace energy
