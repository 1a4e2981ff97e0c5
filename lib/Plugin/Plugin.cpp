//===- Plugin.cpp - energy.so pass registration ----------------------------===//
//
// Registers the energy passes and analyses with the new pass manager:
//
//   opt -load-pass-plugin=energy.so -passes='print<energy-features>' k.ll
//   opt -load-pass-plugin=energy.so -passes='energy-optimize<objective=edp>' k.ll
//   clang++ -x cuda --cuda-device-only -fplugin=energy.so
//       -fpass-plugin=energy.so -mllvm -energy-objective=energy k.cu
//
// In clang, energy-optimize runs at PipelineStart (before optimization, so
// tunables fold and shared arrays resize while GEPs are still typed) and the
// feature dump at OptimizerLast. Both act on NVPTX modules only; the host
// module of a CUDA compile passes through untouched.
//
//===----------------------------------------------------------------------===//

#include "energy/EnergyOptimize.h"
#include "energy/FeatureAnalysis.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace energy;

static cl::opt<std::string> FeaturesJSON(
    "energy-features-json", cl::value_desc("file"),
    cl::desc("Write the features of every NVPTX kernel to <file> as JSON "
             "(after optimization, at the OptimizerLast extension point)"));

static cl::opt<unsigned> DefaultTrip(
    "energy-default-trip-count", cl::init(energy::DefaultTripCount),
    cl::desc("Iterations assumed for loops ScalarEvolution cannot count (default 8)"));

static cl::opt<std::string> ObjectiveFlag(
    "energy-objective", cl::value_desc("energy|time|edp"),
    cl::desc("What the chosen configuration minimizes (default: energy)"));
static cl::opt<std::string> MaxSlowdownFlag(
    "energy-max-slowdown", cl::value_desc("x"),
    cl::desc("With objective energy: only configurations predicted at most "
             "(1+x) times slower than the fastest (default 0.1)"));
static cl::opt<bool> TuneAllFlag(
    "energy-tune-all",
    cl::desc("Removed (an error): kernels without ENERGY_KERNEL keep the "
             "block their host launches with and get advice only"));
static cl::opt<std::string> ReportFlag(
    "energy-report", cl::value_desc("file"),
    cl::desc("Write candidates, predictions, Pareto front and choice as JSON"));
static cl::opt<std::string> ModelFlag(
    "energy-model", cl::value_desc("file"),
    cl::desc("XGBoost model (python3 -m energy.train) instead of the "
             "embedded or analytic one; a bad file fails the compile"));
static cl::opt<std::string> ArchFlag(
    "energy-arch", cl::value_desc("sm_XX"),
    cl::desc("Target GPU for the cost model (default: the kernel's "
             "target-cpu)"));
static cl::opt<std::string> WorkloadFlag(
    "energy-workload", cl::value_desc("items"),
    cl::desc("Work items per launch for every kernel (default: "
             "ENERGY_WORKLOAD or 2^24)"));
static cl::list<std::string> ForceConfigFlag(
    "energy-force-config", cl::value_desc("kernel:block[,NAME=V...]"),
    cl::desc("Apply this configuration to the kernel instead of choosing "
             "(repeatable), e.g. sgemm:16x16,TILE=16"));

static FeatureOptions featureOptions() {
  FeatureOptions Opts;
  Opts.DefaultTripCount = DefaultTrip;
  return Opts;
}

/// Options from -energy-* flags, validated like pass parameters.
static Expected<OptimizeOptions> optimizeOptionsFromFlags() {
  OptimizeOptions Opts;
  Opts.Features = featureOptions();
  auto Set = [&](StringRef Key, const std::string &Value) -> Error {
    if (Value.empty())
      return Error::success();
    return applyOptimizeSetting((Key + "=" + Value).str(), Opts);
  };
  if (TuneAllFlag)
    return createStringError(inconvertibleErrorCode(), TuneAllRemoved);
  for (auto [Key, Value] :
       {std::pair<StringRef, std::string>{"objective", ObjectiveFlag},
        {"max-slowdown", MaxSlowdownFlag}, {"report", ReportFlag},
        {"model", ModelFlag}, {"arch", ArchFlag}, {"workload", WorkloadFlag}})
    if (Error E = Set(Key, Value))
      return std::move(E);
  for (const std::string &F : ForceConfigFlag)
    if (Error E = Set("force", F))
      return std::move(E);
  return Opts;
}

namespace {
/// Reports a bad option when the pipeline runs, as an LLVM error.
struct BadOptionPass : PassInfoMixin<BadOptionPass> {
  explicit BadOptionPass(std::string Message) : Message(std::move(Message)) {}
  std::string Message;
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    M.getContext().emitError(Message);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};
} // namespace

static void addOptimizer(ModulePassManager &MPM,
                         Expected<OptimizeOptions> Opts) {
  if (Opts)
    MPM.addPass(EnergyOptimizePass(std::move(*Opts)));
  else
    MPM.addPass(BadOptionPass("energy-optimize: " + toString(Opts.takeError())));
}

/// "a;b" for "Pass<a;b>", empty for "Pass" (after checkParametrizedPassName).
static StringRef passParameters(StringRef Name, StringRef Pass) {
  Name.consume_front(Pass);
  if (Name.consume_front("<"))
    Name.consume_back(">");
  return Name;
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
    auto Base = optimizeOptionsFromFlags();
    StringRef Params = passParameters(Name, "energy-optimize");
    addOptimizer(MPM, Base ? parseOptimizeParams(Params, std::move(*Base))
                           : std::move(Base));
    return true;
  }
  if (PassBuilder::checkParametrizedPassName(Name, "energy-features-json")) {
    StringRef Path = passParameters(Name, "energy-features-json");
    if (Path.empty()) {
      errs() << "error: energy-features-json<FILE> needs a file name\n";
      return false;
    }
    MPM.addPass(KernelFeaturesJSONPass(Path.str()));
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
        addOptimizer(MPM, optimizeOptionsFromFlags());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        if (!FeaturesJSON.empty())
          MPM.addPass(KernelFeaturesJSONPass(FeaturesJSON));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "energy", "0.1.0", registerCallbacks};
}
