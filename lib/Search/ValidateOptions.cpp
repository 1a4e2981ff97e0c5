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

/// Value as a number that Check accepts (Check gets nothing for no number).
static Expected<double> parseCheckedNumber(
    StringRef Value,
    function_ref<Error(std::optional<double>, StringRef)> Check) {
  double X;
  if (Error E = Check(Value.getAsDouble(X) ? std::nullopt : std::optional(X),
                      Value))
    return E;
  return X;
}

Expected<double> parseMaxSlowdownSetting(StringRef Value) {
  return parseCheckedNumber(Value, checkMaxSlowdown);
}

Expected<double> parseMinGainSetting(StringRef Value) {
  return parseCheckedNumber(Value, checkMinGain);
}

Expected<uint64_t> parseWorkloadSetting(StringRef Value) {
  uint64_t N;
  if (Value.getAsInteger(10, N) || N == 0)
    return createStringError(inconvertibleErrorCode(),
                             "workload must be a positive integer, got '" +
                                 Value + "'");
  return N;
}

Error settingGivenTwice(StringRef Key) {
  return createStringError(inconvertibleErrorCode(),
                           Key + " is given twice");
}

/// A number as the error messages quote it.
static std::string spelled(double X) {
  std::string S;
  raw_string_ostream(S) << format("%g", X);
  return S;
}

Error validateOptimizeOptions(const ObjectiveSpec &Objective, StringRef Arch,
                              StringRef Gpu) {
  if (Objective.MaxSlowdown)
    if (Error E = checkMaxSlowdown(Objective.MaxSlowdown,
                                   spelled(*Objective.MaxSlowdown)))
      return E;
  if (Error E = checkMinGain(Objective.MinGain, spelled(Objective.MinGain)))
    return E;
  return checkGpuOptions(Arch, Gpu);
}

} // namespace energy
