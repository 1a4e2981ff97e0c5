//===- NvccResources.h - Registers and spills of the user's nvcc build -*- C++ -*-===//
//
// On the header route (-energy-header; energy-cuda --energy-header,
// energy_nvcc_plan) the plugin plans inside clang but nvcc builds the
// kernels, and nvcc's register allocation can differ wildly from that of
// clang's code (the 15x15 convolution: 40-134 registers under nvcc, 255
// and spills under clang; docs/spill-study.md). Occupancy follows the
// registers, so with -energy-resources=nvcc each candidate that ptxas would
// check is compiled the way the build will compile it: the module's source,
// the user's nvcc flags (-energy-nvcc-flag) and an ENERGY_CHOICES header
// folding the candidate's tunables, `nvcc -arch=sm_XX -cubin -Xptxas -v`
// (as energy.measured_build does for kt_eval), and ptxas's report for the
// kernel replaces clang's figures.
//
// One compile gives every kernel of the file: results are cached by nvcc's
// identity (`nvcc --version`), the contents of the source and of every file
// it includes (`nvcc -M`), the flags, the architecture and the header, in
// memory and under the user's cache directory (energy/nvcc/).
//
// nvcc must not break the user's build: when it is missing, fails or
// exceeds $ENERGY_NVCC_TIMEOUT seconds (default 300), one warning says why
// and the candidates keep clang's figures (ptxas on clang's code) for the
// rest of the process.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_NVCCRESOURCES_H
#define ENERGY_LIB_NVCCRESOURCES_H

#include "ToolchainResources.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace energy {

/// How the user's nvcc builds the module's source (-energy-resources=nvcc).
struct NvccBuild {
  /// nvcc's path; empty: the CUDA the plugin was configured with, else PATH.
  std::string Nvcc;
  /// The build's flags that change device code (-I, -D, -std=, -Xptxas ...).
  std::vector<std::string> Flags;
};

class NvccResources {
public:
  explicit NvccResources(NvccBuild Build);

  /// Registers and spills of Entry (its name in the IR, mangled as nvcc
  /// mangles it) in nvcc's build of Source for Arch with Tunables (name,
  /// value) folded. On an error, Ctx was warned once why nvcc's figures are
  /// missing.
  llvm::Expected<KernelResources>
  measure(llvm::StringRef Source, llvm::StringRef Entry,
          llvm::ArrayRef<std::pair<std::string, int>> Tunables,
          llvm::StringRef Arch, llvm::LLVMContext &Ctx);

  /// nvcc's release ("Cuda compilation tools, release 13.0, V13.0.88"), once
  /// it ran.
  const std::string &release() const { return Release; }

private:
  NvccBuild Build;
  unsigned TimeoutSeconds;
  std::string TimeoutProblem;
  /// `nvcc --version`, read on first use; empty when nvcc did not run.
  std::string Identity, Release;
  /// Why nvcc is not used any more (empty while it works).
  std::string GaveUp;
  /// Entries whose absence from nvcc's build was told.
  llvm::StringMap<bool> ToldMissing;
  /// A hash of the source and what it includes, by source.
  llvm::StringMap<std::string> Inputs;
  /// Each compile's kernels (entry -> resources), by cache key.
  llvm::StringMap<std::map<std::string, KernelResources>> Compiles;

  llvm::Error start(llvm::StringRef Source, llvm::StringRef Arch);
  llvm::Expected<std::map<std::string, KernelResources>>
  compile(llvm::StringRef Source, llvm::StringRef Header,
          llvm::StringRef Arch);
  /// Runs nvcc with Args (after the program), its stdout and stderr
  /// together in Output.
  llvm::Error run(llvm::ArrayRef<std::string> Args, std::string &Output);
  /// Stops using nvcc, telling Ctx why once.
  llvm::Error giveUp(llvm::LLVMContext &Ctx, const std::string &Why);
};

/// The kernels of an `nvcc -Xptxas -v` (or ptxas -v) report.
std::map<std::string, KernelResources>
parseAllPtxasInfo(llvm::StringRef Output);

} // namespace energy

#endif
