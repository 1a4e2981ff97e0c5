//===- DominatingConditions.cpp - What holds where an instruction runs ----===//

#include "DominatingConditions.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace energy {

bool anyDominatingCondition(
    const Instruction &I, const DominatorTree &DT,
    function_ref<bool(const Value *Cond, bool Held)> Visit) {
  const DomTreeNode *Node = DT.getNode(I.getParent());
  for (const DomTreeNode *Up = Node ? Node->getIDom() : nullptr; Up;
       Up = Up->getIDom()) {
    auto *Br = dyn_cast<BranchInst>(Up->getBlock()->getTerminator());
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    for (unsigned S = 0; S < 2; ++S)
      if (DT.dominates(BasicBlockEdge(Up->getBlock(), Br->getSuccessor(S)),
                       I.getParent()) &&
          Visit(Br->getCondition(), S == 0))
        return true;
  }
  return false;
}

} // namespace energy
