//===- HandLaunchShared.cpp - Shared memory a launch by hand allows -------===//

#include "HandLaunchShared.h"
#include "KernelPlan.h"
#include "KernelPlanner.h"

#include "energy/GpuArch.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace energy {

Error limitToHandLaunch(const KernelPlan &P, const BlockShape &Block,
                        double SharedBytes, bool &Fits) {
  uint64_t Total = uint64_t(std::max(0.0, SharedBytes));
  uint64_t Dynamic = std::min<uint64_t>(P.dynamicSharedBytes(Block), Total);
  uint64_t Static = Total - Dynamic;
  uint64_t Limit = P.Arch->MaxSharedMemPerBlockDefault;
  if (Dynamic == 0 || Total <= Limit)
    return Error::success();
  auto DefaultBlock = recordedBlock(*P.Kernel->getParent(), P.Record);
  uint64_t DefaultDynamic =
      DefaultBlock ? P.dynamicSharedBytes(*DefaultBlock) : 0;
  // The default's static shared memory is this candidate's unless arrays
  // resize with the candidate; then only its dynamic part is known.
  uint64_t DefaultStatic = P.SharedArrays.empty() ? Static : 0;
  bool DefaultOptsIn =
      DefaultDynamic > 0 && DefaultStatic + DefaultDynamic > Limit;
  if (Dynamic <= DefaultDynamic && (DefaultOptsIn || Block == DefaultBlock))
    return Error::success();
  bool Forced = P.Force && P.Force->Block == Block;
  // A forced block on a kernel that keeps its launches states the host's
  // own launch: it is predicted as given.
  if (Forced && !P.Apply)
    return Error::success();
  Fits = false;
  if (!Forced)
    return Error::success();
  std::string Default =
      DefaultBlock ? "its default block " + formatBlockShape(*DefaultBlock) +
                         " (" + std::to_string(DefaultDynamic) + " bytes)"
                   : std::string("its default block");
  return planError(
      "kernel '" + P.Name + "': forced block " + formatBlockShape(Block) +
      " needs " + Twine(Total) + " bytes of shared memory per block (" +
      Twine(Dynamic) + " dynamic), more than the " + Twine(Limit) +
      " bytes CUDA launches without the cudaFuncSetAttribute opt-in, and " +
      (DefaultOptsIn
           ? "more dynamic shared memory than " + Default + " opts in to"
           : Default + " needs no opt-in") +
      ": a launch by hand with ENERGY_DYNAMIC_SMEM would fail");
}

} // namespace energy
