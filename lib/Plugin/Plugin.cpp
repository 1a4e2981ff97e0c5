//===- Plugin.cpp - energy.so pass registration
//----------------------------===//
//
// Registers the energy passes and analyses with the new pass manager:
//
//   opt -load-pass-plugin=energy.so -passes='print<energy-features>' k.ll
//   opt -load-pass-plugin=energy.so -passes='energy-optimize<objective=edp>'
//   k.ll clang++ -x cuda --cuda-device-only -fplugin=energy.so
//       -fpass-plugin=energy.so -mllvm -energy-objective=energy k.cu
//
// In clang, energy-optimize runs at PipelineStart (before optimization, so
// tunables fold and shared arrays resize while GEPs are still typed); the
// feature dump and energy-kept-calls (did the build inline the calls the
// prediction inlined?) run at OptimizerLast. They act on NVPTX modules
// only; the host module of a CUDA compile passes through unchanged, but
// energy-launch-check (at PipelineStart) stops the compile where an
// opted-in kernel is launched with a block that does not come from its
// record, and with -energy-report energy-launch-sites repeats the device
// compile's advice at its launches.
//
//===----------------------------------------------------------------------===//

#include "energy/EnergyOptimize.h"
#include "energy/FeatureAnalysis.h"
#include "energy/GpuArch.h"
#include "energy/KeptCalls.h"
#include "energy/LaunchRecordCheck.h"
#include "energy/LaunchSites.h"
#include "energy/OutputFiles.h"
#include "energy/ValidateOptions.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;
using namespace energy;

/// Why the features cannot go to Path, if they cannot: the message of
/// -energy-features-json and energy-features-json<FILE> alike.
static std::optional<std::string> featuresFileProblem(StringRef Path) {
  if (Path.empty())
    return "energy-features-json needs a file name";
  if (std::error_code EC = outputFileProblem(Path))
    return ("cannot write features to '" + Path + "': " + EC.message()).str();
  return std::nullopt;
}

namespace {
/// -energy-features-json's file, checked as it is parsed.
class FeaturesFileParser : public cl::parser<std::string> {
public:
  using cl::parser<std::string>::parser;

  bool parse(cl::Option &O, StringRef, StringRef Arg, std::string &Value) {
    if (!checkRepeatedOption(O, Arg, First))
      return true;
    if (auto Problem = featuresFileProblem(Arg)) {
      WithColor::error() << *Problem << "\n";
      return true;
    }
    Value = Arg.str();
    return false;
  }

private:
  std::string First;
};
} // namespace

static cl::opt<std::string, false, FeaturesFileParser> FeaturesJSON(
    "energy-features-json", cl::value_desc("file"),
    cl::desc("Write the features of every NVPTX kernel to <file> as JSON "
             "(after optimization, at the OptimizerLast extension point of "
             "clang and opt's default<On> pipelines; with an explicit "
             "-passes, add energy-features-json<file>)"));

static cl::opt<unsigned, false, DefaultTripCountParser> DefaultTrip(
    "energy-default-trip-count", cl::init(energy::DefaultTripCount),
    cl::desc("Iterations assumed for loops ScalarEvolution cannot count "
             "(default 8; at least 1, at most 1048576)"));
static cl::opt<unsigned, false, DefaultExtentParser> DefaultExtentFlag(
    "energy-default-extent", cl::init(energy::DefaultExtent),
    cl::desc("Value taken for an unknown integer in a loop bound (a kernel "
             "argument without ENERGY_ASSUME, blockDim ...); default 4096, "
             "1 to 16777216"));

/// The file and target flags of energy-optimize, applied as each is parsed
/// and checked with the ones before it: a bad value stops opt or clang while
/// it reads its command line, before it opens its output.
static OptimizeOptions FlagOptions;

/// A flag's bad value, as cl::parser::parse reports it.
static bool flagError(Error E) {
  WithColor::error() << "energy-optimize: " << toString(std::move(E)) << "\n";
  return true;
}

namespace {
/// Parses a flag's value as the energy-optimize setting named by Setting.
/// -energy-force-config repeats, once per kernel, and -energy-nvcc-flag once
/// per flag; every other flag may
/// repeat only its value (checkRepeatedOption).
class SettingParser : public cl::parser<std::string> {
public:
  using cl::parser<std::string>::parser;
  StringRef Key;

  bool parse(cl::Option &O, StringRef, StringRef Arg, std::string &Value) {
    if (Key != "force" && Key != "nvcc-flag" &&
        !checkRepeatedOption(O, Arg, First))
      return true;
    Value = Arg.str();
    if (Error E = applyOptimizeSetting(Key, Arg, FlagOptions))
      return flagError(std::move(E));
    return false;
  }

private:
  std::string First;
};

/// Parses a typed flag with the parser of the pass parameter of the same
/// name, so both accept the same values and report a bad one alike; an
/// enum flag's cl::values list those values in --help.
template <class T, auto ParseSetting>
class TypedSettingParser : public cl::parser<T> {
public:
  using cl::parser<T>::parser;

  bool parse(cl::Option &O, StringRef, StringRef Arg, T &Value) {
    if (!checkRepeatedOption(O, Arg, First))
      return true;
    auto Parsed = ParseSetting(Arg);
    if (!Parsed)
      return flagError(Parsed.takeError());
    Value = *Parsed;
    return false;
  }

private:
  std::string First;
};

/// The setting a flag with a SettingParser sets.
struct Setting {
  StringRef Key;
  template <class Opt> void apply(Opt &O) const { O.getParser().Key = Key; }
};

using SettingFlag = cl::opt<std::string, false, SettingParser>;
} // namespace

static cl::opt<Objective, false,
               TypedSettingParser<Objective, parseObjectiveSetting>>
    ObjectiveFlag(
        "energy-objective", cl::init(Objective::Energy),
        cl::desc("What the chosen configuration minimizes (default: energy)"),
        cl::values(clEnumValN(Objective::Energy, "energy",
                              "Least energy, within -energy-max-slowdown of "
                              "the fastest"),
                   clEnumValN(Objective::Time, "time", "Least time"),
                   clEnumValN(Objective::EDP, "edp",
                              "Least energy x time (energy-delay product)")));
static cl::opt<double, false,
               TypedSettingParser<double, parseMaxSlowdownSetting>>
    MaxSlowdownFlag(
        "energy-max-slowdown", cl::init(*ObjectiveSpec().MaxSlowdown),
        cl::value_desc("x"),
        cl::desc("With objective energy: only configurations predicted at "
                 "most (1+x) times slower than the fastest (default 0.1; "
                 "finite, >= 0)"));
static cl::opt<double, false, TypedSettingParser<double, parseMinGainSetting>>
    MinGainFlag("energy-min-gain", cl::init(ObjectiveSpec().MinGain),
                cl::value_desc("g"),
                cl::desc("Keep the kernel's default launch unless a "
                         "configuration is predicted to improve the "
                         "objective by more than g of it (default 0.1; "
                         ">= 0, < 1)"));
namespace {
/// -energy-tune-all is kept only to say why it is gone: an error as it is
/// parsed.
class RemovedFlagParser : public cl::parser<bool> {
public:
  using cl::parser<bool>::parser;
  bool parse(cl::Option &, StringRef, StringRef, bool &) {
    WithColor::error() << "energy-optimize: " << TuneAllRemoved << "\n";
    return true;
  }
};
} // namespace

static cl::opt<bool, false, RemovedFlagParser> TuneAllFlag(
    "energy-tune-all",
    cl::desc("Removed (an error): kernels without ENERGY_KERNEL keep the "
             "block their host launches with and get advice only"));
static SettingFlag ReportFlag(
    "energy-report", Setting{"report"}, cl::value_desc("file"),
    cl::desc("Write candidates, predictions, Pareto front and choice as JSON "
             "(another file than -energy-header's and opt's -o)"));
static SettingFlag HeaderFlag(
    "energy-header", Setting{"header"}, cl::value_desc("file"),
    cl::desc("Write the choices of the kernels it rewrites (block, dynamic "
             "shared memory, tunable values, launch bounds) as a header "
             "energy.cuh reads when ENERGY_CHOICES names it: nvcc then builds "
             "the same launches without the plugin"));
static SettingFlag ModelFlag(
    "energy-model", Setting{"model"}, cl::value_desc("file"),
    cl::desc("XGBoost model (python3 -m energy.train) instead of the "
             "embedded or analytic one; a bad file fails the compile"));
static SettingFlag ArchFlag(
    "energy-arch", Setting{"arch"}, cl::value_desc("sm_XX"),
    cl::desc("Target GPU for the cost model (default: the kernel's "
             "target-cpu), modelled as its default board; an architecture "
             "without tables is an error"));
static const std::string GpuFlagHelp =
    "GPU board for the cost model (default: the architecture's default "
    "board); its compute capability wins over the target's, and one that "
    "differs from -energy-arch is an error. Names match without case, "
    "spaces, dashes and the words NVIDIA, GeForce, Tesla, Quadro "
    "('NVIDIA RTX A4000' is rtx-a4000). Boards: " +
    gpuBoardNames();
static SettingFlag GpuFlag("energy-gpu", Setting{"gpu"},
                           cl::value_desc("board"), cl::desc(GpuFlagHelp));
// Like -version: print and exit while the options are read, so that any
// tool that loads the plugin (clang -fplugin, opt, energy-cuda --help) can
// list the board table without compiling anything.
static cl::opt<bool> ListGpusFlag(
    "energy-list-gpus", cl::ValueDisallowed,
    cl::desc("Print the boards -energy-gpu accepts, with their compute "
             "capability, and exit"),
    cl::callback([](const bool &) {
      printGpuBoards(outs());
      outs().flush();
      std::exit(0);
    }));
/// 0: unset (ENERGY_WORKLOAD or 2^24); the flag itself must be positive.
/// (cl::parser<uint64_t> is final on LP64.)
static cl::opt<unsigned long long, false,
               TypedSettingParser<unsigned long long, parseWorkloadSetting>>
    WorkloadFlag("energy-workload", cl::init(0), cl::value_desc("items"),
                 cl::desc("Work items per launch for every kernel (default: "
                          "ENERGY_WORKLOAD or 2^24; a kernel declaring "
                          "ENERGY_GRID keeps its grid)"));
static cl::opt<unsigned long long, false,
               TypedSettingParser<unsigned long long, parseRefineBudgetSetting>>
    RefineBudgetFlag(
        "energy-refine-budget", cl::init(OptimizeOptions().RefineBudget),
        cl::value_desc("instructions"),
        cl::desc("Instructions a free search may simplify again per kernel "
                 "to predict its best candidates with their blocks known "
                 "(default 20000, about 0.7 s; 0: never)"));
static cl::opt<AdviceMode, false,
               TypedSettingParser<AdviceMode, parseAdviceSetting>>
    AdviceFlag(
        "energy-advice", cl::init(AdviceMode::Screen),
        cl::desc("How much compile time the advice for kernels that did not "
                 "opt in (ENERGY_KERNEL) may take; opted-in and forced "
                 "kernels always get the full search"),
        cl::values(clEnumValN(AdviceMode::Screen, "screen",
                              "The screen's prediction of each candidate, "
                              "its block not yet known (default: a few "
                              "percent of the device compile)"),
                   clEnumValN(AdviceMode::Full, "full",
                              "Also predict the best candidates again with "
                              "their blocks known, as for an opted-in "
                              "kernel (slower)")));
static cl::opt<SimplifyMode, false,
               TypedSettingParser<SimplifyMode, parseSimplifySetting>>
    SimplifyFlag(
        "energy-simplify", cl::init(SimplifyMode::Auto),
        cl::desc("Measure each candidate's features after -O3's function "
                 "simplification (unrolling, SROA, GVN ...)"),
        cl::values(clEnumValN(SimplifyMode::Auto, "auto",
                              "For kernels opted in or forced; advice "
                              "measures the cleaned-up code (default)"),
                   clEnumValN(SimplifyMode::Always, "always",
                              "For every kernel"),
                   clEnumValN(SimplifyMode::Never, "never",
                              "For no kernel (faster)")));
static cl::list<std::string, bool, SettingParser> ForceConfigFlag(
    "energy-force-config", Setting{"force"},
    cl::value_desc("kernel:block[,grid=GXxGYxGZ][,argN=V...][,registers=R"
                   "[,stack_frame=B][,spill_stores=B][,spill_loads=B]]"
                   "[,NAME=V...]"),
    cl::desc("Apply this configuration to the kernel instead of choosing "
             "(repeatable, one per kernel), e.g. sgemm:16x16,TILE=16; the "
             "kernel may be named by its mangled or demangled name. On a "
             "kernel that did not opt in it is predicted, not applied. "
             "grid= gives the launch's grid (x up to 2^31-1, y and z up to "
             "65535), which then sets the workload; "
             "argN=V the value of integer argument N (from 1) that loop "
             "bounds read. registers= (and stack_frame=, spill_stores=, "
             "spill_loads=, bytes) state what the binary's toolchain "
             "reports, e.g. nvcc --resource-usage, instead of ptxas on "
             "clang's code; the block must be able to launch with them. "
             "A kernel the module does not define is a warning"));

static cl::opt<ResourcesFrom, false,
               TypedSettingParser<ResourcesFrom, parseResourcesSetting>>
    ResourcesFlag(
        "energy-resources", cl::init(ResourcesFrom::Clang),
        cl::desc("Where the registers and spills of the best candidates come "
                 "from (the occupancy follows them); if nvcc is missing or "
                 "fails, a warning says why and clang's figures stay"),
        cl::values(
            clEnumValN(ResourcesFrom::Clang, "clang",
                       "ptxas on clang's code (default)"),
            clEnumValN(ResourcesFrom::Nvcc, "nvcc",
                       "nvcc's build of the module's source with "
                       "-energy-nvcc-flag and the candidate's tunables in an "
                       "ENERGY_CHOICES header, cached under the user's cache "
                       "directory (energy/nvcc): for the header route, where "
                       "nvcc builds the kernels")));
static SettingFlag NvccFlag(
    "energy-nvcc", Setting{"nvcc"}, cl::value_desc("path"),
    cl::desc("The nvcc of -energy-resources=nvcc (default: the configured "
             "CUDA's bin/nvcc, else PATH)"));
static cl::list<std::string, bool, SettingParser> NvccFlagFlag(
    "energy-nvcc-flag", Setting{"nvcc-flag"}, cl::value_desc("flag"),
    cl::desc("A flag of the user's nvcc build (repeatable, one flag each: "
             "-I<dir>, -D<macro>, -std=c++17, -Xptxas=-maxrregcount=64 ...) "
             "for -energy-resources=nvcc"));

static cl::opt<bool> ForceUnsafeFlag(
    "energy-force-unsafe",
    cl::desc("Build an -energy-force-config block on an opted-in kernel "
             "even where it is not known to be correct (not proven, not "
             "declared), with a warning, instead of stopping: for "
             "measurements that check every result"));

static FeatureOptions featureOptions() {
  FeatureOptions Opts;
  Opts.DefaultTripCount = DefaultTrip;
  Opts.DefaultExtent = DefaultExtentFlag;
  return Opts;
}

/// Options from the -energy-* flags, checked when they were parsed.
static OptimizeOptions optimizeOptionsFromFlags() {
  OptimizeOptions Opts = FlagOptions;
  Opts.Objective.Goal = ObjectiveFlag;
  Opts.Objective.MaxSlowdown = MaxSlowdownFlag;
  Opts.Objective.MinGain = MinGainFlag;
  Opts.WorkItems = WorkloadFlag;
  Opts.Simplify = SimplifyFlag;
  Opts.RefineBudget = RefineBudgetFlag;
  Opts.Advice = AdviceFlag;
  Opts.Resources = ResourcesFlag;
  Opts.ForceUnsafe = Opts.ForceUnsafe || ForceUnsafeFlag;
  Opts.Features = featureOptions();
  return Opts;
}

/// The file of energy-features-json<FILE>.
static Expected<std::string> parseFeaturesJSONParams(StringRef Path) {
  if (Path.empty())
    return createStringError(inconvertibleErrorCode(),
                             "energy-features-json<FILE> needs a file name");
  if (auto Problem = featuresFileProblem(Path))
    return createStringError(inconvertibleErrorCode(), *Problem);
  return Path.str();
}

static bool parseFunctionPipeline(StringRef Name, FunctionPassManager &FPM,
                                  ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "print<energy-features>") {
    FPM.addPass(KernelFeaturesPrinterPass(errs()));
    return true;
  }
  if (Name == "require<energy-features>") {
    FPM.addPass(RequireAnalysisPass<KernelFeaturesAnalysis, Function>());
    return true;
  }
  if (Name == "invalidate<energy-features>") {
    FPM.addPass(InvalidateAnalysisPass<KernelFeaturesAnalysis>());
    return true;
  }
  return false;
}

static bool parseModulePipeline(StringRef Name, ModulePassManager &MPM,
                                ArrayRef<PassBuilder::PipelineElement>) {
  if (PassBuilder::checkParametrizedPassName(Name, "energy-optimize")) {
    // A bad parameter fails the pipeline's parse, before opt writes output.
    auto Opts = parseOptimizeParams(Name, optimizeOptionsFromFlags());
    if (!Opts) {
      WithColor::error() << "energy-optimize: " << toString(Opts.takeError())
                         << "\n";
      return false;
    }
    MPM.addPass(EnergyOptimizePass(std::move(*Opts)));
    return true;
  }
  if (Name == "energy-launch-check") {
    MPM.addPass(EnergyLaunchCheckPass());
    return true;
  }
  if (Name == "energy-kept-calls") {
    MPM.addPass(EnergyKeptCallsPass(FlagOptions.ReportFile));
    return true;
  }
  if (PassBuilder::checkParametrizedPassName(Name, "energy-features-json")) {
    auto Path = PassBuilder::parsePassParameters(parseFeaturesJSONParams, Name,
                                                 "energy-features-json");
    if (!Path) {
      WithColor::error() << toString(Path.takeError()) << "\n";
      return false;
    }
    MPM.addPass(KernelFeaturesJSONPass(std::move(*Path)));
    return true;
  }
  return false;
}

static void registerCallbacks(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
    FAM.registerPass([] { return KernelFeaturesAnalysis(featureOptions()); });
  });
  PB.registerPipelineParsingCallback(parseFunctionPipeline);
  PB.registerPipelineParsingCallback(parseModulePipeline);

  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(EnergyOptimizePass(optimizeOptionsFromFlags()));
        // The host module, as clang emitted it (the same at -O0 and -O2).
        MPM.addPass(EnergyLaunchCheckPass());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        if (!FeaturesJSON.empty())
          MPM.addPass(KernelFeaturesJSONPass(FeaturesJSON));
        MPM.addPass(EnergyKeptCallsPass(FlagOptions.ReportFile));
        // The host module, after the device compile wrote its report.
        if (!FlagOptions.ReportFile.empty())
          MPM.addPass(EnergyLaunchSitesPass(FlagOptions.ReportFile));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "energy", "0.1.0", registerCallbacks};
}
