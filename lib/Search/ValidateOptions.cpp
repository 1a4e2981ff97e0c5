//===- ValidateOptions.cpp - Checks both optimizing passes share ----------===//

#include "energy/ValidateOptions.h"

#include "energy/GpuArch.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace energy {

Expected<Objective> parseObjectiveSetting(StringRef Value) {
  if (auto O = parseObjective(Value))
    return *O;
  return createStringError(inconvertibleErrorCode(),
                           "unknown objective '" + Value +
                               "' (expected energy, time or edp)");
}

Error validateOptimizeOptions(const ObjectiveSpec &Objective, StringRef Arch,
                              StringRef Gpu) {
  if (Objective.MaxSlowdown) {
    std::string Spelled;
    raw_string_ostream(Spelled) << format("%g", *Objective.MaxSlowdown);
    if (Error E = checkMaxSlowdown(Objective.MaxSlowdown, Spelled))
      return E;
  }
  std::string Spelled;
  raw_string_ostream(Spelled) << format("%g", Objective.MinGain);
  if (Error E = checkMinGain(Objective.MinGain, Spelled))
    return E;
  return checkGpuOptions(Arch, Gpu);
}

} // namespace energy
