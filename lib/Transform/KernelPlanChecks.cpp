//===- KernelPlanChecks.cpp - What a plan must not silently accept --------===//
//
// Checks of a kernel's plan against what the user stated: rules that leave
// no shape, and forced registers that leave no launch.
//
//===----------------------------------------------------------------------===//

#include "KernelPlanner.h"

#include "energy/GpuArch.h"
#include "energy/LaunchSearch.h"

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

Error checkForcedRegisters(const KernelPlan &P, const ForcedConfig *Force) {
  if (!Force || !Force->Resources)
    return Error::success();
  const GpuArch &Arch = *P.Arch;
  uint64_t Threads =
      uint64_t(Force->Block[0]) * Force->Block[1] * Force->Block[2];
  if (Threads > Arch.MaxThreadsPerBlock) // the planner says so
    return Error::success();
  unsigned Registers = Force->Resources->Registers;
  unsigned Allowed = registersAllowed(Arch, static_cast<unsigned>(Threads));
  if (Registers <= Allowed)
    return Error::success();
  return planError("kernel '" + P.Name + "': no candidate fits the resources "
                   "of " + Arch.Name + " (forced " +
                   formatBlockShape(Force->Block) + ", registers=" +
                   Twine(Registers) + ": a thread of a block of " +
                   Twine(Threads) + " threads can have at most " +
                   Twine(Allowed) + " registers)");
}

} // namespace energy
