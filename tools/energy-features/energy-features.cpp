//===- energy-features.cpp - Dump static features of CUDA kernels ---------===//
//
//   energy-features kernel.ll                  # JSON on stdout
//   energy-features --format=csv kernel.bc -o k.csv
//   energy-features --cuda-gpu-arch=sm_90 saxpy.cu
//
// .cu inputs are compiled device-only by clang-19 to LLVM IR first.
//
//===----------------------------------------------------------------------===//

#include "energy/CudaCompile.h"
#include "energy/FeatureAnalysis.h"
#include "energy/NVVMAnnotations.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace energy;

namespace {
enum class Format { JSON, CSV, Text };

cl::OptionCategory Category("energy-features options");
cl::opt<std::string> Input(cl::Positional, cl::Required,
                           cl::desc("<input .ll | .bc | .cu>"),
                           cl::cat(Category));
cl::opt<std::string> Output("o", cl::init("-"), cl::value_desc("file"),
                            cl::desc("Output file (default: stdout)"),
                            cl::cat(Category));
cl::opt<Format> OutFormat(
    "format", cl::init(Format::JSON), cl::desc("Output format"),
    cl::values(clEnumValN(Format::JSON, "json", "one JSON document (default)"),
               clEnumValN(Format::CSV, "csv", "one CSV row per kernel"),
               clEnumValN(Format::Text, "text", "the print<energy-features> text")),
    cl::cat(Category));
cl::opt<unsigned, false, DefaultTripCountParser> DefaultTrip(
    "energy-default-trip-count", cl::init(energy::DefaultTripCount),
    cl::desc("Iterations assumed for loops ScalarEvolution cannot count "
             "(default 8, at most 1048576)"),
    cl::cat(Category));
cl::opt<unsigned, false, DefaultExtentParser> DefaultExtentFlag(
    "energy-default-extent", cl::init(energy::DefaultExtent),
    cl::desc("Value taken for an unknown integer in a loop bound (a kernel "
             "argument without ENERGY_ASSUME, blockDim ...); default 4096, "
             "1 to 16777216"),
    cl::cat(Category));
CudaCompileOptions::CommandLine CudaFlags(Category);

int fail(const Twine &Msg) {
  WithColor::error(errs(), "energy-features") << Msg << "\n";
  return 1;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Static energy features of NVPTX kernels\n");

  auto Buffer = MemoryBuffer::getFileOrSTDIN(Input);
  if (!Buffer)
    return fail(Input + ": " + Buffer.getError().message());
  if ((*Buffer)->getBufferSize() == 0)
    return fail(Input + ": empty input");

  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  if (sys::path::extension(Input) == ".cu") {
    std::string Error;
    M = compileCudaToModule(Input, CudaFlags.options(), Ctx, Error);
    if (!M)
      return fail(Input + ": " + Error);
  } else {
    SMDiagnostic Diag;
    M = parseIR((*Buffer)->getMemBufferRef(), Diag, Ctx);
    if (!M) {
      std::string Msg;
      raw_string_ostream OS(Msg);
      Diag.print("energy-features", OS, /*ShowColors=*/false);
      errs() << Msg;
      return 1;
    }
  }
  if (!isNVPTXModule(*M))
    return fail(Input + ": not an NVPTX module (target triple '" +
                M->getTargetTriple() + "')");

  FeatureOptions Opts;
  Opts.DefaultTripCount = DefaultTrip;
  Opts.DefaultExtent = DefaultExtentFlag;
  std::vector<KernelFeatures> Kernels;
  for (Function &F : *M)
    if (!F.isDeclaration() && isKernel(F))
      Kernels.push_back(computeKernelFeatures(F, Opts));

  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_Text);
  if (EC)
    return fail(Output + ": " + EC.message());
  switch (OutFormat) {
  case Format::JSON:
    writeFeaturesJSON(OS, Input, Kernels);
    break;
  case Format::CSV:
    KernelFeatures::printCSVHeader(OS);
    for (const KernelFeatures &K : Kernels)
      K.printCSVRow(OS);
    break;
  case Format::Text:
    for (const KernelFeatures &K : Kernels)
      K.printText(OS);
    break;
  }
  if (Kernels.empty())
    WithColor::warning(errs(), "energy-features")
        << Input << ": no NVPTX kernels in module\n";
  return 0;
}
