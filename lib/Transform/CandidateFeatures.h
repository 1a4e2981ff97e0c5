//===- CandidateFeatures.h - Features under one tunable assignment -*- C++ -*-===//
//
// Tunables change a kernel's loop trip counts and instruction mix, so each
// assignment is measured on its own. Once per kernel, a clone with its
// calls inlined is cleaned up (SROA, EarlyCSE, InstCombine, SimplifyCFG,
// LoopSimplify): the block-legality analysis reads it, and tunable reads
// stay loads there. Each assignment then measures a copy of that clone with
// the tunables replaced by constants and deletes it.
//
// Optimized features run -O3's function simplification pipeline on that
// copy (SROA, InstCombine, LICM, full unrolling, GVN ...), with the NVPTX
// target's own cost hooks when the target is linked in: the code the
// backend will see. Per-thread arrays indexed by unrolled loops become
// registers, and a constant reused by every iteration is loaded once, as
// in the PTX. The fast path (advice for kernels nobody asked to tune) keeps
// the cleanup only. Registers of simplified candidates come from ptxas
// when CUDA is present (ToolchainResources.h), or from nvcc's build of the
// source when nvcc builds the kernels (NvccResources.h).
//
// The clones get pass and analysis managers of their own, not the pass
// manager's: they are throwaway copies, deleted within the pass, so their
// analyses must not land in (or invalidate) the caller's caches, the
// caller's instrumentation (-debug-pass-manager, -print-after-all,
// -time-passes) must not report passes on code nobody compiles, and -O3's
// simplification needs the NVPTX target even under a pipeline built
// without one (opt -passes=...).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_CANDIDATEFEATURES_H
#define ENERGY_LIB_CANDIDATEFEATURES_H

#include "NvccResources.h"
#include "ShapeInvariance.h"
#include "ToolchainResources.h"

#include "energy/ConfigSpace.h"
#include "energy/FeatureAnalysis.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>

namespace llvm {
class GlobalVariable;
class TargetMachine;
} // namespace llvm

namespace energy {

class CandidateFeatureExtractor {
public:
  /// With Nvcc, registers and spills come from nvcc's build of the module's
  /// source first (-energy-resources=nvcc), ptxas's on clang's code where
  /// nvcc gives none.
  explicit CandidateFeatureExtractor(
      FeatureOptions Opts, std::optional<NvccBuild> Nvcc = std::nullopt);
  ~CandidateFeatureExtractor();

  /// A launch the candidate's code may assume: a forced config's block and
  /// grid, folded into the copy that is measured.
  struct KnownLaunch {
    BlockShape Block;
    std::optional<std::array<uint64_t, 3>> Grid;
    /// The launch's integer arguments (index from 0, value).
    std::vector<std::pair<unsigned, unsigned>> Arguments;
    /// The binary's registers and spills as its toolchain reports them:
    /// they replace the plugin's own ptxas run.
    std::optional<KernelResources> Resources;
    /// The launch bounds the build gives the kernel, where they are not its
    /// source's: the .reqntid of the block the optimizer rewrites it to.
    /// ptxas allocates its registers under them.
    std::optional<LaunchBounds> Bounds;
  };

  /// A shared array (ENERGY_SHARED) at the extents the build gives it,
  /// outermost first.
  struct BuiltArray {
    llvm::GlobalVariable *Var = nullptr;
    std::vector<int64_t> Dims;
  };

  /// Features of Kernel with each Values[i].first read as Values[i].second
  /// and each of Arrays at its built extents (the code the build produces:
  /// an array's row pitch sets its bank conflicts), after the -O3 function
  /// simplification pipeline when Optimized, with registers from ptxas when
  /// also WithToolchain.
  llvm::Expected<KernelFeatures>
  extract(llvm::Function &Kernel,
          llvm::ArrayRef<std::pair<llvm::GlobalVariable *, int>> Values,
          llvm::ArrayRef<BuiltArray> Arrays, bool Optimized,
          const std::optional<KnownLaunch> &Launch, bool WithToolchain);

  /// The architecture the candidates are compiled for ("sm_86"): the
  /// unroll's preferences and ptxas's -arch follow -energy-arch/-energy-gpu,
  /// not the module's target-cpu. The first kernel's fixes it for the
  /// module (the pipelines are built once).
  void targetArch(llvm::StringRef Arch) {
    if (!Simplify)
      Cpu = NvccArch = Arch.str();
  }

  /// nvcc's release when registers came from its build, else empty.
  std::string nvccRelease() const { return Nvcc ? Nvcc->release() : ""; }

  /// Whether ptxas (or nvcc) can check registers.
  bool hasToolchain() const { return Toolchain.available() || Nvcc; }

  /// Seconds spent so far measuring features (simplification included) and
  /// in NVPTX codegen and ptxas, for reports of where compile time went.
  double featureSeconds() const { return FeatureSeconds; }
  double toolchainSeconds() const { return ToolchainSeconds; }

  /// The cleaned-up clone of Kernel (inlined, SROA'd), made on first use;
  /// it lives until release().
  llvm::Function &prepared(llvm::Function &Kernel);

  /// Whether Kernel computes the same at every block whose extents are 1
  /// on the axes FreeAxes leaves out (ShapeInvariance.h), on a copy of its
  /// cleaned-up clone with loop-invariant code hoisted.
  ShapeProof shapeProof(llvm::Function &Kernel, std::array<bool, 3> FreeAxes);

  /// Deletes the cleaned-up clone of the kernel measured last: call it
  /// before the kernel or anything it uses is rewritten.
  void release();

private:
  llvm::Function *Kernel = nullptr; // whose clone Prepared is
  llvm::Function *Prepared = nullptr;

  /// A copy of the cleaned-up clone of Kernel to measure, with Arrays at
  /// their built extents: those are resized before the cleanup, where
  /// clang's typed indexing is still there, in a clone of their own (its
  /// arrays go to Owned, for the caller to erase with the copy).
  llvm::Expected<llvm::Function *>
  measuredCopy(llvm::Function &Kernel, llvm::ArrayRef<BuiltArray> Arrays,
               std::vector<llvm::GlobalVariable *> &Owned);

  /// -O3's function simplification pipeline for the target of M, built on
  /// first use (with the target, which lowering() needs too).
  llvm::FunctionPassManager &simplification(llvm::Module &M);
  /// What -O3 and NVPTX's codegen run on a function after its
  /// simplification: the late loop unroll, then address-space inference and
  /// straight-line redundancy removal. Built with simplification().
  llvm::FunctionPassManager &lowering() { return *Lower; }

  FeatureOptions Opts;
  std::string Cpu; // empty: the module's target-cpu
  /// nvcc's -arch: Cpu as asked for, also where LLVM cannot emit it.
  std::string NvccArch;
  /// Why this LLVM cannot make PTX for Cpu that ptxas would take, if so.
  std::string NoPtx;
  bool WarnedNoPtx = false;
  ToolchainResources Toolchain;
  std::optional<NvccResources> Nvcc;
  /// Whether Features (of Kernel, with Values) got nvcc's registers.
  bool resourcesFromNvcc(
      llvm::Function &Kernel,
      llvm::ArrayRef<std::pair<llvm::GlobalVariable *, int>> Values,
      KernelFeatures &Features);
  double FeatureSeconds = 0, ToolchainSeconds = 0;
  /// The NVPTX target, when it is linked into the host process (clang, opt
  /// and mlir-opt link every target), for its unrolling and cost hooks.
  std::unique_ptr<llvm::TargetMachine> Target;
  std::unique_ptr<llvm::PassBuilder> SimplifyPB;
  std::optional<llvm::FunctionPassManager> Simplify, Lower;
  llvm::LoopAnalysisManager SimplifyLAM;
  llvm::FunctionAnalysisManager SimplifyFAM;
  llvm::CGSCCAnalysisManager SimplifyCGAM;
  llvm::ModuleAnalysisManager SimplifyMAM;
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB;
  llvm::FunctionPassManager Cleanup;
  llvm::FunctionPassManager HoistInvariants; // for shapeProof
};

} // namespace energy

#endif
