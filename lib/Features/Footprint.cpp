//===- Footprint.cpp - Distinct global bytes a block touches --------------===//

#include "Footprint.h"
#include "ScevUnknowns.h"
#include "AccessStride.h"
#include "ThreadDependence.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <tuple>

using namespace llvm;

namespace energy {

namespace {

constexpr double SectorBytes = 32;
/// Beyond this many rows x constants, the union is estimated, not listed.
constexpr double MaxEnumeratedIntervals = 1 << 16;

constexpr unsigned EveryBlockAxis = 0b111;

/// The grid axes along which V may differ between blocks (bit A for
/// blockIdx.A), followed through arithmetic and casts to the blockIdx
/// reads. Arguments, constants and the other special registers are the same
/// in every block; a loaded value, a call's result or a phi may differ
/// along any axis.
unsigned blockAxesOf(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return 0;
  if (std::optional<SpecialRegisterRead> Read = readsSpecialRegister(V))
    return Read->Reg == SpecialRegister::BlockIdx ? 1u << Read->Axis : 0;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<LoadInst>(I) || isa<CallBase>(I) || isa<PHINode>(I))
    return EveryBlockAxis;
  constexpr unsigned MaxFollowed = 64;
  if (!Seen.insert(V).second)
    return 0;
  if (Seen.size() > MaxFollowed)
    return EveryBlockAxis;
  unsigned Axes = 0;
  for (const Value *Op : I->operands())
    Axes |= blockAxesOf(Op, Seen);
  return Axes;
}

/// The grid axes along which the thread-independent address part S may
/// differ between blocks.
unsigned blockAxesOf(const SCEV *S) {
  SmallPtrSet<const Value *, 16> Seen;
  unsigned Axes = 0;
  for (const SCEVUnknown *U : unknownsOf(S))
    Axes |= blockAxesOf(U->getValue(), Seen);
  return Axes;
}

/// The sector bytes one warp's access moves, per thread of the warp: each
/// thread reads AccessBytes at Constant + its offset from an address taken
/// to be sector-aligned (allocations are 256-byte aligned; the uniform part
/// of an index is taken to keep that).
double sectorBytesPerWarpThread(llvm::ArrayRef<int64_t> Offsets,
                                int64_t Constant, uint64_t AccessBytes) {
  if (Offsets.empty())
    return 0;
  auto Sector = [](int64_t Byte) {
    return Byte >= 0
               ? Byte / int64_t(SectorBytes)
               : -((-Byte + int64_t(SectorBytes) - 1) / int64_t(SectorBytes));
  };
  std::vector<int64_t> Sectors;
  for (int64_t Offset : Offsets) {
    int64_t First = Constant + Offset;
    for (int64_t S = Sector(First);
         S <= Sector(First + int64_t(AccessBytes) - 1); ++S)
      Sectors.push_back(S);
  }
  llvm::sort(Sectors);
  Sectors.erase(std::unique(Sectors.begin(), Sectors.end()), Sectors.end());
  return double(Sectors.size()) * SectorBytes / double(Offsets.size());
}

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
  FirstAddress(ScalarEvolution &SE, const IndexEvaluator &Index)
      : SCEVRewriteVisitor(SE), Index(Index) {}

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
    // Index arithmetic on thread ids (tid % 16) as thread 0 computes it.
    static constexpr ThreadIndex Thread0 = {0, 0, 0};
    if (U->getType()->isIntegerTy())
      if (auto Value = Index.evaluate(U->getValue(), &Thread0))
        return SE.getConstant(*Value);
    return U;
  }

private:
  const IndexEvaluator &Index;
};

} // namespace

namespace {

/// Sorted, disjoint byte intervals [first, second).
using Intervals = std::vector<std::pair<int64_t, int64_t>>;

/// The union of any intervals, as sorted disjoint ones.
Intervals merged(Intervals Spans) {
  llvm::sort(Spans);
  Intervals Out;
  for (auto [Begin, End] : Spans) {
    if (!Out.empty() && Begin <= Out.back().second)
      Out.back().second = std::max(Out.back().second, End);
    else
      Out.push_back({Begin, End});
  }
  return Out;
}

/// The bytes of whole sectors the intervals touch.
double sectorBytesOf(const Intervals &Spans) {
  auto Sector = static_cast<int64_t>(SectorBytes);
  auto Floor = [&](int64_t X) {
    return X >= 0 ? X / Sector : -((-X + Sector - 1) / Sector);
  };
  double Bytes = 0;
  int64_t LastSector = std::numeric_limits<int64_t>::min();
  for (auto [Begin, End] : Spans) {
    int64_t From = std::max(Floor(Begin), LastSector + 1), To = Floor(End - 1);
    if (To >= From)
      Bytes += double(To - From + 1) * SectorBytes;
    LastSector = std::max(LastSector, To);
  }
  return Bytes;
}

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
  auto Length = static_cast<int64_t>(Run);
  Intervals Spans;
  for (int64_t O : Offsets)
    Spans.push_back({O, O + Length});
  if (Spans.empty())
    Spans.push_back({0, Length});
  Spans = merged(std::move(Spans));
  // Rows, smallest first, copy the union so far; listed while the copies
  // are few, else counted: Copies disjoint copies of Spans, spanning Width.
  double Copies = 1;
  double Width = double(Spans.back().second - Spans.front().first);
  for (auto [C, E] : Rows) {
    if (Copies == 1 && double(Spans.size()) * E <= MaxEnumeratedIntervals) {
      Intervals Copied;
      Copied.reserve(Spans.size() * size_t(E));
      for (auto [Begin, End] : Spans)
        for (int64_t K = 0; K < int64_t(E); ++K)
          Copied.push_back({Begin + K * C, End + K * C});
      Spans = merged(std::move(Copied));
      Width = double(Spans.back().second - Spans.front().first);
      continue;
    }
    // Too many to list: E copies, C apart, of a union Width wide cover
    // E - 1 + ceil(Width / C) periods of C bytes, each holding what the
    // union covers modulo C.
    if (Copies == 1) {
      Intervals Folded;
      for (auto [Begin, End] : Spans) {
        if (End - Begin >= C) {
          Folded = {{0, C}};
          break;
        }
        int64_t From = ((Begin % C) + C) % C, To = From + (End - Begin);
        Folded.push_back({From, std::min(To, C)});
        if (To > C)
          Folded.push_back({0, To - C});
      }
      Spans = merged(std::move(Folded));
    }
    Copies *= E - 1 + std::ceil(Width / double(C));
    Width += double(C) * (E - 1);
  }
  return Copies * sectorBytesOf(Spans);
}

BlockFootprint::BlockFootprint(
    std::array<unsigned, 3> Block, ScalarEvolution &SE, const LoopInfo &LI,
    const ThreadDependence &TD, CalleeSummaries &Callees,
    std::function<double(const Loop *)> Trips,
    std::function<unsigned(const Value *)> ArgumentValue)
    : Block(Block), SE(SE), LI(LI), TD(TD), Callees(Callees),
      Trips(std::move(Trips)), Index(Block, TD, std::move(ArgumentValue)) {}

bool BlockFootprint::add(const Value *Ptr, const Instruction &At,
                         uint64_t AccessBytes, double Executions) {
  if (!SE.isSCEVable(Ptr->getType()) || AccessBytes == 0)
    return false;
  const SCEV *Address = SE.getSCEV(const_cast<Value *>(Ptr));
  // Integer values every thread shares and the code fixes from sizes (a
  // pitch argument as ENERGY_ASSUME or the default extent states it, `n /
  // 4`, blockDim) become constants, so that `a[row * n + k]` has constant
  // coefficients.
  Address = Index.fold(Address, SE, /*Thread=*/nullptr);
  Group G;
  G.AccessBytes = AccessBytes;
  bool AffineInThreads = true;
  std::array<int64_t, 3> ThreadStride = {0, 0, 0};
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    Stride D = scevStride(Address, SE, TD, Callees, Axis);
    if (D.K == Stride::Zero)
      continue;
    if (D.K != Stride::Constant)
      AffineInThreads = false;
    ThreadStride[Axis] = D.Bytes;
    G.Terms.push_back({D.Bytes, double(Block[Axis])});
  }
  // Otherwise each thread's offset, from the block's shape.
  std::optional<std::vector<int64_t>> PerThread;
  if (!AffineInThreads) {
    G.Terms.clear();
    PerThread = Index.threadOffsets(Address, SE);
    if (!PerThread)
      return false;
  }
  // With per-thread offsets, the loops must move the first and the last
  // thread alike (index arithmetic recomputed in the loop is the same in
  // every iteration).
  const SCEV *Moved = Address, *MovedLast = nullptr;
  if (PerThread) {
    ThreadIndex First = {0, 0, 0};
    ThreadIndex Last = {Block[0] - 1, Block[1] - 1, Block[2] - 1};
    Moved = Index.fold(Address, SE, &First);
    MovedLast = Index.fold(Address, SE, &Last);
  }
  for (const Loop *L = LI.getLoopFor(At.getParent()); L;
       L = L->getParentLoop()) {
    std::optional<int64_t> Step = loopStep(Moved, L, SE);
    if (!Step || (MovedLast && loopStep(MovedLast, L, SE) != Step))
      return false;
    if (*Step != 0)
      G.Terms.push_back({*Step, Trips(L), !L->getParentLoop()});
  }
  // Split thread 0's first address into base, uniform part and constant.
  const SCEV *First = FirstAddress(SE, Index).visit(Address);
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
  // that is neither a constant stride nor a fixed offset per thread made
  // this return above.
  std::vector<int64_t> Key = {reinterpret_cast<intptr_t>(Base),
                              reinterpret_cast<intptr_t>(Rest),
                              int64_t(AccessBytes)};
  for (const FootprintTerm &T : G.Terms) {
    Key.push_back(T.Coefficient);
    Key.push_back(int64_t(std::ceil(T.Extent)));
    Key.push_back(T.Outermost);
  }
  if (PerThread) // accesses that spread the threads alike share a group
    Key.push_back(int64_t(hash_combine_range(PerThread->begin(),
                                             PerThread->end())));
  // The base and the uniform part decide which blocks read the same bytes.
  G.BlockAxes = blockAxesOf(First);
  Group &Into = Groups.try_emplace(std::move(Key), std::move(G)).first->second;
  if (PerThread)
    for (int64_t Offset : *PerThread)
      Into.Offsets.push_back(Constant + Offset);
  else
    Into.Offsets.push_back(Constant);
  Into.Executions += Executions;
  Accessed += Executions * double(AccessBytes);
  // The first warp's offsets (x fastest), relative to thread 0's address.
  std::vector<int64_t> WarpOffsets;
  for (unsigned T = 0; T < std::min(WarpThreads, threads()); ++T) {
    if (PerThread) {
      WarpOffsets.push_back((*PerThread)[T]);
      continue;
    }
    unsigned X = T % Block[0], Y = (T / Block[0]) % Block[1],
             Z = T / (Block[0] * Block[1]);
    WarpOffsets.push_back(ThreadStride[0] * X + ThreadStride[1] * Y +
                          ThreadStride[2] * Z);
  }
  WarpSectorBytes +=
      Executions * sectorBytesPerWarpThread(WarpOffsets, Constant, AccessBytes);
  return true;
}

double
BlockFootprint::sumOverGroups(bool OneOutermostIteration,
                              std::optional<unsigned> OnlyBlockAxes) const {
  double Threads = double(Block[0]) * Block[1] * Block[2];
  std::vector<double> PerGroup;
  for (const auto &[Key, G] : Groups) {
    if (OnlyBlockAxes && G.BlockAxes != *OnlyBlockAxes)
      continue;
    std::vector<FootprintTerm> Terms;
    double Iterations = 1;
    for (const FootprintTerm &T : G.Terms) {
      if (OneOutermostIteration && T.Outermost)
        Iterations = std::max(1.0, T.Extent);
      else
        Terms.push_back(T);
    }
    double Box = boxFootprintBytes(Terms, G.Offsets, G.AccessBytes);
    // Never more than one sector per access.
    double Most = G.Executions / Iterations * Threads *
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

double BlockFootprint::sectorBytes() const { return sumOverGroups(false); }

double BlockFootprint::workingSetBytes() const { return sumOverGroups(true); }

BlockFootprint::SharedAcrossBlocks BlockFootprint::sharedAcrossBlocks() const {
  constexpr unsigned X = 0b001, Y = 0b010;
  SharedAcrossBlocks S;
  S.Row = sumOverGroups(false, Y);
  S.Column = sumOverGroups(false, X);
  S.Grid = sumOverGroups(false, 0u);
  return S;
}

} // namespace energy
