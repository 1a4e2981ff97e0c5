//===- OptimizeOptions.cpp - energy-optimize's settings -------------------===//
//
// One parser per setting, shared by the pass parameters
// (energy-optimize<objective=edp;...>) and the -energy-* flags, so both
// accept the same values and say the same about a bad one.
//
//===----------------------------------------------------------------------===//

#include "energy/EnergyOptimize.h"

#include "TuningSpec.h"

#include "energy/GpuArch.h"
#include "energy/OutputFiles.h"
#include "energy/ValidateOptions.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace energy {

static Error optionError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

const char *const TuneAllRemoved =
    "tune-all is gone: rewriting a kernel whose host launches do not read "
    "its launch record breaks those launches; every kernel without "
    "ENERGY_KERNEL gets advice (a remark and a report entry) instead, and "
    "ENERGY_KERNEL opts a kernel in to be rewritten";

Expected<uint64_t> parseRefineBudgetSetting(StringRef Value) {
  uint64_t N;
  if (Value.getAsInteger(10, N))
    return optionError("refine-budget must be a number of instructions >= 0, "
                       "got '" + Value + "'");
  return N;
}

Expected<AdviceMode> parseAdviceSetting(StringRef Value) {
  auto Mode = StringSwitch<std::optional<AdviceMode>>(Value)
                  .Case("screen", AdviceMode::Screen)
                  .Case("full", AdviceMode::Full)
                  .Default(std::nullopt);
  if (!Mode)
    return optionError("advice must be screen or full, got '" + Value + "'");
  return *Mode;
}

Expected<SimplifyMode> parseSimplifySetting(StringRef Value) {
  auto Mode = StringSwitch<std::optional<SimplifyMode>>(Value)
                  .Case("auto", SimplifyMode::Auto)
                  .Case("always", SimplifyMode::Always)
                  .Case("never", SimplifyMode::Never)
                  .Default(std::nullopt);
  if (!Mode)
    return optionError("simplify must be auto, always or never, got '" +
                       Value + "'");
  return *Mode;
}

Expected<ResourcesFrom> parseResourcesSetting(StringRef Value) {
  auto From = StringSwitch<std::optional<ResourcesFrom>>(Value)
                  .Case("clang", ResourcesFrom::Clang)
                  .Case("nvcc", ResourcesFrom::Nvcc)
                  .Default(std::nullopt);
  if (!From)
    return optionError("resources must be clang or nvcc, got '" + Value +
                       "'");
  return *From;
}

/// Stores a parsed value, or passes its error on.
template <class T>
static Error assign(Expected<T> Parsed, T &To) {
  if (!Parsed)
    return Parsed.takeError();
  To = *Parsed;
  return Error::success();
}

/// Applies one setting to Opts without the checks across settings.
static Error applyOne(StringRef Key, StringRef Value, OptimizeOptions &Opts) {
  if (Key == "tune-all")
    return optionError(TuneAllRemoved);
  if (Key == "objective")
    return assign(parseObjectiveSetting(Value), Opts.Objective.Goal);
  if (Key == "max-slowdown") {
    auto X = parseMaxSlowdownSetting(Value);
    if (!X)
      return X.takeError();
    Opts.Objective.MaxSlowdown = *X;
    return Error::success();
  }
  if (Key == "min-gain")
    return assign(parseMinGainSetting(Value), Opts.Objective.MinGain);
  if (Key == "workload")
    return assign(parseWorkloadSetting(Value), Opts.WorkItems);
  if (Key == "simplify")
    return assign(parseSimplifySetting(Value), Opts.Simplify);
  if (Key == "refine-budget")
    return assign(parseRefineBudgetSetting(Value), Opts.RefineBudget);
  if (Key == "advice")
    return assign(parseAdviceSetting(Value), Opts.Advice);
  if (Key == "arch" || Key == "gpu") {
    // An empty value is an error, not "unset".
    auto Named =
        Key == "arch" ? parseGpuArchOption(Value) : parseGpuBoardOption(Value);
    if (!Named)
      return Named.takeError();
    (Key == "arch" ? Opts.Arch : Opts.Gpu) = Value.str();
    return Error::success();
  }
  if (Key == "report" || Key == "model" || Key == "header") {
    if (Value.empty())
      return optionError(Key + " needs a file name");
    // Written at the end of a run: a path that cannot be fails now.
    if (Key != "model")
      if (std::error_code EC = outputFileProblem(Value))
        return optionError("cannot write " + Key + " '" + Value +
                           "': " + EC.message());
    (Key == "report"   ? Opts.ReportFile
     : Key == "header" ? Opts.HeaderFile
                       : Opts.ModelFile) = Value.str();
    return Error::success();
  }
  if (Key == "resources")
    return assign(parseResourcesSetting(Value), Opts.Resources);
  if (Key == "nvcc") {
    if (Value.empty())
      return optionError("nvcc needs a path or a program name");
    Opts.NvccPath = Value.str();
    return Error::success();
  }
  if (Key == "nvcc-flag") {
    if (Value.empty())
      return optionError("nvcc-flag needs a flag");
    Opts.NvccFlags.push_back(Value.str());
    return Error::success();
  }
  if (Key == "force-unsafe") {
    if (!Value.empty())
      return optionError("force-unsafe takes no value, got '" + Value + "'");
    Opts.ForceUnsafe = true;
    return Error::success();
  }
  if (Key == "force") {
    auto F = parseForcedConfig(Value);
    if (!F)
      return F.takeError();
    for (const std::string &Earlier : Opts.ForceConfigs) {
      ForcedConfig E = cantFail(parseForcedConfig(Earlier));
      if (E.Kernel == F->Kernel && !E.sameConfig(*F))
        return optionError("-energy-force-config gives kernel '" + F->Kernel +
                           "' two configurations: '" + Earlier + "' and '" +
                           Value + "'");
    }
    Opts.ForceConfigs.push_back(Value.str());
    return Error::success();
  }
  return optionError("unknown energy-optimize parameter '" + Key + "'");
}

Error applyOptimizeSetting(StringRef Key, StringRef Value,
                           OptimizeOptions &Opts) {
  OptimizeOptions Changed = Opts;
  if (Error E = applyOne(Key.trim(), Value, Changed))
    return E;
  if (Error E =
          validateOptimizeOptions(Changed.Objective, Changed.Arch, Changed.Gpu))
    return E;
  if (Error E = checkDistinctOutputs(
          {{"report", Changed.ReportFile}, {"header", Changed.HeaderFile}}))
    return E;
  Opts = std::move(Changed);
  return Error::success();
}

Expected<OptimizeOptions> parseOptimizeParams(StringRef Name,
                                              OptimizeOptions Base) {
  return PassBuilder::parsePassParameters(
      [&](StringRef Params) -> Expected<OptimizeOptions> {
        // A pipeline states each setting once; force names one kernel
        // each time, nvcc-flag one flag.
        StringSet<> Given;
        SmallVector<StringRef, 4> Settings;
        if (!Params.empty()) // energy-optimize<> sets nothing
          Params.split(Settings, ';');
        for (StringRef Setting : Settings) {
          if (Setting.empty())
            return optionError("empty parameter in '" + Name +
                               "' (a doubled or trailing ';')");
          auto [Key, Value] = Setting.split('=');
          if (Key.trim() != "force" && Key.trim() != "nvcc-flag" &&
              !Given.insert(Key.trim()).second)
            return settingGivenTwice(Key.trim());
          if (Error E = applyOptimizeSetting(Key, Value, Base))
            return E;
        }
        return std::move(Base);
      },
      Name, "energy-optimize");
}

} // namespace energy
