//===- BarrierWaits.cpp - Barriers that wait for global memory -------------===//

#include "BarrierWaits.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace energy {

bool waitsForGlobalLoads(const Instruction &Barrier,
                         function_ref<bool(const Instruction &)> IsBarrier,
                         function_ref<bool(const Instruction &)> IsGlobalLoad) {
  // The code that runs between the previous barrier and this one: walked
  // backwards from the barrier, through predecessors, until barriers stop
  // each path (a loop's back edge leads to the barrier's own block again).
  SmallPtrSet<const Instruction *, 32> Phase;
  SmallVector<const Instruction *, 8> Loads;
  // Backwards from just before From; whether the path goes on past the
  // block's start.
  auto ScanBack = [&](BasicBlock::const_reverse_iterator From,
                      BasicBlock::const_reverse_iterator End) {
    for (auto It = From; It != End; ++It) {
      if (IsBarrier(*It))
        return false;
      Phase.insert(&*It);
      if (IsGlobalLoad(*It))
        Loads.push_back(&*It);
    }
    return true;
  };
  const BasicBlock *Home = Barrier.getParent();
  SmallVector<const BasicBlock *, 16> Work;
  if (ScanBack(std::next(Barrier.getReverseIterator()), Home->rend()))
    llvm::append_range(Work, predecessors(Home));
  SmallPtrSet<const BasicBlock *, 32> Seen;
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    if (ScanBack(BB->rbegin(), BB->rend()))
      llvm::append_range(Work, predecessors(BB));
  }
  // A thread stalls on a load when it uses the value: only a load used in
  // the same phase holds it back from the barrier (a prefetch for the next
  // phase does not).
  return llvm::any_of(Loads, [&](const Instruction *Load) {
    return llvm::any_of(Load->users(), [&](const User *U) {
      auto *I = dyn_cast<Instruction>(U);
      return I && Phase.contains(I);
    });
  });
}

} // namespace energy
