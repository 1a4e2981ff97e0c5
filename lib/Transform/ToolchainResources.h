//===- ToolchainResources.h - Registers and spills from ptxas ---*- C++ -*-===//
//
// The registers a kernel needs decide its occupancy, and an IR estimate
// cannot know them: after unrolling, LLVM IR keeps every load hoisted to the
// top (the convolution at tile 8x3 estimates 255 registers; ptxas
// allocates 38). When CUDA's ptxas is present, a simplified candidate is
// compiled for real: NVPTX codegen of the function alone, then `ptxas -v`,
// whose register, spill and stack figures replace the estimate.
//
// The PTX comes from a forked child (IsolatedCodegen.h): NVPTX codegen for
// an architecture the code was not written for may abort, and in-process
// it would renumber the user's PTX.
//
// ptxas is found through $ENERGY_PTXAS (a path, or "none" to never run
// it), else the CUDA the project was configured with, else PATH. A run
// (and a candidate's codegen) gets $ENERGY_PTXAS_TIMEOUT seconds (default
// 20). A ptxas that times out, or fails on an empty kernel too, is not run
// again in the process (a broken install, an architecture it dropped, a
// wedged one would cost every candidate the whole wait): one warning says
// why, and registers are estimated. Results
// are cached by a hash of the candidate's IR (with the LLVM version and the
// target) and of its PTX, in memory and under the user's cache directory
// (energy/ptxas/): code seen in an earlier build skips codegen and ptxas,
// and IR that compiles to PTX seen before skips ptxas.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_TOOLCHAINRESOURCES_H
#define ENERGY_LIB_TOOLCHAINRESOURCES_H

#include "energy/KernelFeatures.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace llvm {
class Function;
class LLVMContext;
class TargetMachine;
} // namespace llvm

namespace energy {

/// What ptxas reports for one kernel.
struct KernelResources {
  unsigned Registers = 0;
  unsigned StackFrameBytes = 0;
  unsigned SpillStoreBytes = 0;
  unsigned SpillLoadBytes = 0;

  bool operator==(const KernelResources &O) const {
    return Registers == O.Registers && StackFrameBytes == O.StackFrameBytes &&
           SpillStoreBytes == O.SpillStoreBytes &&
           SpillLoadBytes == O.SpillLoadBytes;
  }
};

class ToolchainResources {
public:
  ToolchainResources();

  /// Whether ptxas was found (and not disabled).
  bool available() const { return !Ptxas.empty(); }

  /// Compiles Kernel (a definition in its module; it is copied, the module
  /// is not changed) with Target to PTX and runs ptxas for Target's CPU.
  /// Bounds are the launch bounds the built kernel has (its source's):
  /// ptxas fits the registers to them (.maxntid, .minnctapersm).
  llvm::Expected<KernelResources> measure(const llvm::Function &Kernel,
                                          llvm::TargetMachine &Target,
                                          const LaunchBounds &Bounds);

private:
  std::string Ptxas;
  unsigned TimeoutSeconds;
  /// Why $ENERGY_PTXAS_TIMEOUT was not taken, to warn about on first use.
  std::string TimeoutProblem;
  llvm::StringMap<KernelResources> Cache; // by IR and by PTX hash

  /// Key's result from memory, else from the disk cache.
  std::optional<KernelResources> cached(llvm::StringRef Key);
  /// Stores R under Key in memory and on disk.
  void remember(llvm::StringRef Key, const KernelResources &R);

  /// Stops compiling candidates and running ptxas in this process, for
  /// Why, told once to Ctx: measure() returns Why from then on (results
  /// cached before still count).
  void giveUp(llvm::LLVMContext &Ctx, const std::string &Why);

  /// Whether ptxas compiles an empty kernel with Ptx's header (its PTX
  /// version and target), checked once per process and header.
  bool ptxasWorks(llvm::StringRef Ptx, llvm::StringRef Arch);

  llvm::Expected<KernelResources> runPtxas(llvm::StringRef Ptx,
                                           llvm::StringRef Arch,
                                           llvm::StringRef EntryName);
};

/// Parses `ptxas -v` output for EntryName.
std::optional<KernelResources> parsePtxasInfo(llvm::StringRef Output,
                                              llvm::StringRef EntryName);

/// The file of Key in the user's cache directory, energy/Tool/Key.txt
/// (the directory made), or empty without a cache directory.
std::string resourceCachePath(llvm::StringRef Tool, llvm::StringRef Key);

/// Writes Text to Path whole (a temporary file renamed), so that a parallel
/// build never reads half of it; a failure leaves no file.
void writeCacheFile(llvm::StringRef Path, llvm::StringRef Text);

} // namespace energy

#endif
