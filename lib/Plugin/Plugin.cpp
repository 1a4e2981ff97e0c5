//===- Plugin.cpp - energy.so pass registration ----------------------------===//
//
// Registers the energy passes and analyses with the new pass manager:
//
//   opt -load-pass-plugin=energy.so -passes='print<energy-features>' k.ll
//   clang++ -x cuda --cuda-device-only -fplugin=energy.so \
//       -fpass-plugin=energy.so -mllvm -energy-features-json=k.json k.cu
//
// At clang's default extension points the passes act on NVPTX modules only;
// the host module of a CUDA compile passes through untouched.
//
//===----------------------------------------------------------------------===//

#include "energy/FeatureAnalysis.h"

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
    cl::desc("Trip count assumed for loops ScalarEvolution cannot bound"));

static FeatureOptions featureOptions() {
  FeatureOptions Opts;
  Opts.DefaultTripCount = DefaultTrip;
  return Opts;
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
  if (PassBuilder::checkParametrizedPassName(Name, "energy-features-json")) {
    StringRef Path = Name.drop_front(strlen("energy-features-json<")).drop_back();
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

  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        if (!FeaturesJSON.empty())
          MPM.addPass(KernelFeaturesJSONPass(FeaturesJSON));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "energy", "0.1.0", registerCallbacks};
}
