//===- CudaCompile.h - Drive clang-19 over CUDA device code -----*- C++ -*-===//
//
// Compiles a .cu file device-only with clang-19 against CUDA 13, adding the
// compatibility flags energy-cuda adds (the one list of
// cmake/EnergyCudaCompat.cmake: the texture_fetch_functions.h shim, nvcc's
// host min/max overloads, CCCL's include/cccl, -Wno-unknown-cuda-version).
// Tools share it so every .cu input is compiled the same way.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_CUDACOMPILE_H
#define ENERGY_CUDACOMPILE_H

#include "llvm/Support/CommandLine.h"
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace energy {

struct CudaCompileOptions {
  std::string Clang;
  std::string CudaPath;
  std::string GpuArch = "sm_90";
  unsigned OptLevel = 2;
  std::vector<std::string> ExtraArgs;

  /// Arguments (argv[0] first) for a device-only compile of Input to Output
  /// as LLVM IR (EmitLLVM) or PTX.
  std::vector<std::string> deviceArgs(llvm::StringRef Input,
                                      llvm::StringRef Output,
                                      bool EmitLLVM) const;

  /// --clang, --cuda-path, --cuda-gpu-arch, -O and --extra-arg for a tool.
  class CommandLine {
  public:
    explicit CommandLine(llvm::cl::OptionCategory &Cat);
    CudaCompileOptions options() const;

  private:
    llvm::cl::opt<std::string> Clang, CudaPath, GpuArch;
    llvm::cl::opt<unsigned> OptLevel;
    llvm::cl::list<std::string> ExtraArgs;
  };
};

/// The directory holding the CUDA 13 shim headers (build or install tree).
std::string cudaCompatIncludeDir();

/// Device-only compile of a .cu file to an LLVM module; null and Error set
/// on failure.
std::unique_ptr<llvm::Module> compileCudaToModule(llvm::StringRef Input,
                                                  const CudaCompileOptions &Opts,
                                                  llvm::LLVMContext &Ctx,
                                                  std::string &Error);

} // namespace energy

#endif
