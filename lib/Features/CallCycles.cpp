//===- CallCycles.cpp - Recursion among the functions a kernel calls ------===//

#include "energy/CallCycles.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include <algorithm>

using namespace llvm;

namespace energy {

namespace {

/// Tarjan's algorithm over calls of defined functions.
class ComponentFinder {
public:
  explicit ComponentFinder(DenseMap<const Function *, unsigned> &Component)
      : Component(Component) {}

  /// Returns the lowest index reachable from F on the stack.
  unsigned visit(const Function &F) {
    unsigned Index = Next++;
    Indices[&F] = Index;
    unsigned Low = Index;
    size_t Position = Stack.size();
    Stack.push_back(&F);
    OnStack.insert(&F);
    bool CallsItself = false;
    for (const Instruction &I : instructions(F)) {
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || Callee->isDeclaration())
        continue;
      CallsItself |= Callee == &F;
      auto It = Indices.find(Callee);
      if (It == Indices.end())
        Low = std::min(Low, visit(*Callee));
      else if (OnStack.contains(Callee))
        Low = std::min(Low, It->second);
    }
    if (Low != Index)
      return Low;
    // F roots a component: everything above it on the stack.
    auto *First = Stack.begin() + Position;
    if (Stack.end() - First > 1 || CallsItself)
      for (const Function *Member : make_range(First, Stack.end()))
        Component[Member] = Components;
    ++Components;
    for (const Function *Member : make_range(First, Stack.end()))
      OnStack.erase(Member);
    Stack.erase(First, Stack.end());
    return Low;
  }

private:
  DenseMap<const Function *, unsigned> &Component;
  DenseMap<const Function *, unsigned> Indices;
  SmallVector<const Function *, 8> Stack;
  DenseSet<const Function *> OnStack;
  unsigned Next = 0;
  unsigned Components = 0;
};

} // namespace

CallCycles::CallCycles(const Function &Root) {
  if (!Root.isDeclaration())
    ComponentFinder(Component).visit(Root);
}

bool CallCycles::isRecursiveCall(const Function &Caller,
                                 const Function &Callee) const {
  auto From = Component.find(&Caller);
  auto To = Component.find(&Callee);
  return From != Component.end() && To != Component.end() &&
         From->second == To->second;
}

} // namespace energy
