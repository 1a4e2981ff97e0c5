//===- RegisterPressure.cpp - Peak live values of a function --------------===//

#include "RegisterPressure.h"

#include "FeatureCore.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include <algorithm>
#include <optional>
#include <vector>

using namespace llvm;

namespace energy {

unsigned registersForType(const Type *T, const DataLayout &DL) {
  if (T->isVoidTy() || T->isIntegerTy(1) || T->isLabelTy() ||
      T->isMetadataTy() || T->isTokenTy())
    return 0;
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Type *Element = VT->getElementType();
    if (registersForType(Element, DL) == 0)
      return 0; // predicates
    return registersForVector(VT->getNumElements(),
                              DL.getTypeSizeInBits(Element).getFixedValue());
  }
  if (T->isAggregateType())
    return static_cast<unsigned>((DL.getTypeStoreSize(const_cast<Type *>(T)) + 3) / 4);
  return registersForBits(
      DL.getTypeSizeInBits(const_cast<Type *>(T)).getFixedValue());
}

namespace {

/// The values that occupy registers (arguments, and instructions of a type
/// that needs at least one 32-bit register) and the blocks, numbered densely.
class RegisterValues {
public:
  explicit RegisterValues(const Function &F) {
    const DataLayout &DL = F.getParent()->getDataLayout();
    auto Add = [&](const Value &V) {
      if (unsigned W = registersForType(V.getType(), DL)) {
        ValueNumbers[&V] = Values.size();
        Values.push_back(&V);
        Weights.push_back(W);
      }
    };
    for (const Argument &A : F.args())
      Add(A);
    for (const BasicBlock &BB : F) {
      BlockNumbers[&BB] = BlockNumbers.size();
      for (const Instruction &I : BB)
        Add(I);
    }
    Preds.resize(BlockNumbers.size());
    for (const BasicBlock &BB : F)
      for (const BasicBlock *Pred : predecessors(&BB))
        Preds[block(&BB)].push_back(block(Pred));
  }

  unsigned size() const { return Values.size(); }
  unsigned numBlocks() const { return Preds.size(); }
  const Value *value(unsigned N) const { return Values[N]; }
  unsigned weight(unsigned N) const { return Weights[N]; }
  unsigned block(const BasicBlock *BB) const {
    return BlockNumbers.find(BB)->second;
  }
  ArrayRef<unsigned> preds(unsigned B) const { return Preds[B]; }
  std::optional<unsigned> number(const Value *V) const {
    auto It = ValueNumbers.find(V);
    if (It == ValueNumbers.end())
      return std::nullopt;
    return It->second;
  }

private:
  DenseMap<const Value *, unsigned> ValueNumbers;
  DenseMap<const BasicBlock *, unsigned> BlockNumbers;
  std::vector<const Value *> Values;
  std::vector<unsigned> Weights;
  std::vector<SmallVector<unsigned, 2>> Preds;
};

/// What the sweep of a block needs of the values live out of it: their
/// total weight, and which of the values the block defines or uses they
/// include. Values merely live through the block are in the weight only.
struct LiveOutSummary {
  unsigned Weight = 0;
  std::vector<unsigned> Referenced;
};

/// Walks each value's live range backwards from its uses to its definition
/// (a phi's operand is live out of its incoming block only): the work is the
/// total size of the live ranges, in blocks, with no per-block sets.
std::vector<LiveOutSummary> summarizeLiveOut(const RegisterValues &Values) {
  std::vector<LiveOutSummary> Out(Values.numBlocks());
  // The last value found live in / out of each block: no reset per value.
  constexpr unsigned None = ~0u;
  std::vector<unsigned> InStamp(Values.numBlocks(), None);
  std::vector<unsigned> OutStamp(Values.numBlocks(), None);
  SmallVector<unsigned, 16> LiveInWork;
  SmallVector<unsigned, 8> UsedIn;
  for (unsigned N = 0; N < Values.size(); ++N) {
    const Value *V = Values.value(N);
    const auto *Def = dyn_cast<Instruction>(V);
    unsigned DefBlock = Def ? Values.block(Def->getParent()) : None;
    auto MarkLiveIn = [&](unsigned B) {
      if (InStamp[B] != N) {
        InStamp[B] = N;
        LiveInWork.push_back(B);
      }
    };
    auto MarkLiveOut = [&](unsigned B) {
      if (OutStamp[B] == N)
        return;
      OutStamp[B] = N;
      Out[B].Weight += Values.weight(N);
      if (B != DefBlock)
        MarkLiveIn(B);
    };
    UsedIn.clear();
    if (Def)
      UsedIn.push_back(DefBlock);
    for (const Use &U : V->uses()) {
      const auto *User = dyn_cast<Instruction>(U.getUser());
      if (!User)
        continue;
      if (const auto *Phi = dyn_cast<PHINode>(User)) {
        MarkLiveOut(Values.block(Phi->getIncomingBlock(U)));
        continue;
      }
      unsigned B = Values.block(User->getParent());
      UsedIn.push_back(B);
      // A use before the definition: only in unreachable code.
      if (B != DefBlock || !Def->comesBefore(User))
        MarkLiveIn(B);
    }
    while (!LiveInWork.empty())
      for (unsigned Pred : Values.preds(LiveInWork.pop_back_val()))
        MarkLiveOut(Pred);
    for (unsigned B : UsedIn)
      if (OutStamp[B] == N &&
          (Out[B].Referenced.empty() || Out[B].Referenced.back() != N))
        Out[B].Referenced.push_back(N);
  }
  return Out;
}

} // namespace

unsigned peakLiveRegisters(const Function &F) {
  if (F.isDeclaration())
    return 0;
  RegisterValues Values(F);
  std::vector<LiveOutSummary> LiveOut = summarizeLiveOut(Values);

  // A backward sweep of each block from its live-out set cuts the values'
  // live ranges into spans over the block's points: before each instruction,
  // then the block's end. Phis define their values on the incoming edges:
  // the sweep stops at them.
  std::vector<LiveSpan> Spans;
  constexpr unsigned Dead = ~0u;
  std::vector<unsigned> LiveUntil(Values.size(), Dead); // of the open span
  std::vector<unsigned> Touched;
  unsigned First = 0;
  for (const BasicBlock &BB : F) {
    unsigned Size = 0;
    for (const Instruction &I : reverse(BB)) {
      if (isa<PHINode>(I))
        break;
      ++Size;
    }
    unsigned End = First + Size;
    const LiveOutSummary &Summary = LiveOut[Values.block(&BB)];
    auto Open = [&](unsigned N, unsigned At) {
      if (LiveUntil[N] != Dead)
        return;
      LiveUntil[N] = At;
      Touched.push_back(N);
    };
    auto Close = [&](unsigned N, unsigned From) {
      Spans.push_back({From, LiveUntil[N], double(Values.weight(N))});
      LiveUntil[N] = Dead;
    };
    // Values live through the block unreferenced span all of it.
    unsigned Through = Summary.Weight;
    for (unsigned N : Summary.Referenced) {
      Open(N, End);
      Through -= Values.weight(N);
    }
    if (Through)
      Spans.push_back({First, End, double(Through)});
    unsigned At = End;
    for (const Instruction &I : reverse(BB)) {
      if (isa<PHINode>(I))
        break;
      --At; // the point before I
      if (std::optional<unsigned> N = Values.number(&I);
          N && LiveUntil[*N] != Dead)
        Close(*N, At + 1);
      for (const Value *Op : I.operands())
        if (std::optional<unsigned> N = Values.number(Op))
          Open(*N, At);
    }
    for (unsigned N : Touched)
      if (LiveUntil[N] != Dead)
        Close(N, First);
    Touched.clear();
    First = End + 1;
  }
  return static_cast<unsigned>(peakOfLiveSpans(Spans));
}

} // namespace energy
