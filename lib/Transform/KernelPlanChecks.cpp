//===- KernelPlanChecks.cpp - What a plan must not silently accept --------===//
//
// Checks of a kernel's plan against what the user stated: rules that leave
// no shape.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanner.h"

#include "llvm/IR/Function.h"

using namespace llvm;

namespace energy {

Error checkStatedRulesAdmitAShape(const KernelPlan &P,
                                  const BlockLegalityCheck &Legal,
                                  const BlockShape &Default) {
  if (!P.OnlyDefault)
    return Error::success();
  // Parsed before, when the check was built.
  auto Rules = statedRules(*P.Kernel->getParent(), P.Name);
  if (!Rules)
    return Rules.takeError();
  if (!*Rules)
    return Error::success();
  // Stated rules check no shared array.
  auto Why = Legal.violation(
      Default, [](const GlobalVariable &, int) { return UINT64_MAX; });
  if (!Why)
    return Error::success();
  return planError("kernel '" + P.Name + "': ENERGY_BLOCK_RULES \"" +
                   (*Rules)->Spec +
                   "\" admit no block shape, not even its declared default " +
                   formatBlockShape(Default) + " (" + *Why + ")");
}

} // namespace energy
