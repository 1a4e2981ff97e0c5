//===- CudaCompile.cpp - Drive clang-19 over CUDA device code -------------===//

#include "energy/CudaCompile.h"
#include "energy/RunTool.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace energy {

CudaCompileOptions::CommandLine::CommandLine(cl::OptionCategory &Cat)
    : Clang("clang", cl::init(ENERGY_DEFAULT_CLANG), cl::value_desc("path"),
            cl::desc("clang++ (version 19) for .cu inputs"), cl::cat(Cat)),
      CudaPath("cuda-path", cl::init(ENERGY_DEFAULT_CUDA_PATH),
               cl::value_desc("dir"), cl::desc("CUDA toolkit root"),
               cl::cat(Cat)),
      GpuArch("cuda-gpu-arch", cl::init("sm_90"), cl::value_desc("sm_XX"),
              cl::desc("GPU architecture for .cu inputs"), cl::cat(Cat)),
      OptLevel("O", cl::init(2), cl::Prefix, cl::value_desc("level"),
               cl::desc("Optimization level for .cu inputs (0-3, default 2)"),
               cl::cat(Cat)),
      ExtraArgs("extra-arg", cl::value_desc("arg"),
                cl::desc("Extra clang argument for .cu inputs (repeatable)"),
                cl::cat(Cat)) {}

CudaCompileOptions CudaCompileOptions::CommandLine::options() const {
  CudaCompileOptions O;
  O.Clang = Clang;
  O.CudaPath = CudaPath;
  O.GpuArch = GpuArch;
  O.OptLevel = OptLevel;
  O.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  return O;
}

std::string cudaCompatIncludeDir() {
  // Installed layout first: <prefix>/bin/tool -> <prefix>/include/energy/cuda-compat.
  std::string Exe = sys::fs::getMainExecutable(nullptr, nullptr);
  SmallString<256> Installed(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "include", "energy", "cuda-compat");
  if (sys::fs::is_directory(Installed))
    return std::string(Installed);
  return ENERGY_SOURCE_COMPAT_DIR;
}

/// The CUDA 13 compatibility flags of every clang route (the list in
/// cmake/EnergyCudaCompat.cmake), with the shim directory and the toolkit
/// root filled in.
static std::vector<std::string> cudaCompatFlags(StringRef CudaPath) {
  static const char *const Templates[] = {
#include "CudaCompatFlags.inc"
  };
  std::string Compat = cudaCompatIncludeDir();
  auto Fill = [](std::string &Flag, StringRef Placeholder, StringRef Value) {
    for (size_t At; (At = Flag.find(Placeholder)) != std::string::npos;)
      Flag.replace(At, Placeholder.size(), Value.str());
  };
  std::vector<std::string> Flags;
  for (StringRef Template : Templates) {
    std::string Flag = Template.str();
    Fill(Flag, "{compat}", Compat);
    Fill(Flag, "{cuda}", CudaPath);
    Flags.push_back(std::move(Flag));
  }
  return Flags;
}

std::vector<std::string>
CudaCompileOptions::deviceArgs(StringRef Input, StringRef Output,
                               bool EmitLLVM) const {
  std::vector<std::string> Args = {Clang, "-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=" + GpuArch,
                                   "--cuda-path=" + CudaPath};
  std::vector<std::string> Compat = cudaCompatFlags(CudaPath);
  Args.insert(Args.end(), Compat.begin(), Compat.end());
  Args.push_back("-O" + std::to_string(OptLevel));
  Args.push_back("-S");
  if (EmitLLVM)
    Args.push_back("-emit-llvm");
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  Args.push_back(Input.str());
  Args.push_back("-o");
  Args.push_back(Output.str());
  return Args;
}

/// Runs the compile Args (argv[0] is clang) as the plugin runs ptxas and
/// nvcc (runTool); on failure says so in Error with what clang printed, in
/// full: its diagnostics are the user's.
static bool runCompile(const std::vector<std::string> &Args,
                       std::string &Error) {
  std::vector<StringRef> Argv(Args.begin(), Args.end());
  ToolRun Run = runTool(Args[0], Argv, /*TimeoutSeconds=*/0,
                        /*MergeStreams=*/true);
  if (Run.succeeded())
    return true;
  if (Run.How == ToolRun::CouldNotRun) {
    Error = "cannot run " + Args[0] + ": " + Run.howItFailed();
    return false;
  }
  Error = describeFailedRun(Args[0], Run, StringRef(Run.Output).rtrim(),
                            /*SaidOnOwnLines=*/true);
  return false;
}

std::unique_ptr<Module> compileCudaToModule(StringRef Input,
                                            const CudaCompileOptions &Opts,
                                            LLVMContext &Ctx,
                                            std::string &Error) {
  SmallString<128> IR;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("energy-device", "ll", IR)) {
    Error = "cannot create a temporary file: " + EC.message();
    return nullptr;
  }
  FileRemover RemoveIR(IR);
  if (!runCompile(Opts.deviceArgs(Input, IR, /*EmitLLVM=*/true), Error))
    return nullptr;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(IR, Diag, Ctx);
  if (!M)
    Error = "clang produced unreadable IR: " + Diag.getMessage().str();
  return M;
}

} // namespace energy
