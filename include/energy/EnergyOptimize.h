//===- EnergyOptimize.h - Pick and apply energy-optimal launches -*- C++ -*-===//
//
// `energy-optimize` predicts time and energy of every candidate launch
// configuration (block shape x tunable values) of each NVPTX kernel, builds
// the Pareto front, picks the point the objective asks for among the block
// shapes the kernel is correct for, and, for kernels opted in through
// energy.cuh (their host launches read the launch record) and not bounded by
// the user, rewrites the kernel: reqntid, tunables folded to constants,
// shared arrays resized, blockDim folded, and the launch record. Every other
// kernel keeps the block its host chooses and gets advice. Every kernel gets
// a remark; -energy-report=FILE writes JSON, -energy-header=FILE the
// rewritten kernels' choices as macros energy.cuh reads under nvcc.
//
//   opt -load-pass-plugin=energy.so
//       -passes='energy-optimize<objective=energy;max-slowdown=0.1>' k.ll
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_ENERGYOPTIMIZE_H
#define ENERGY_ENERGYOPTIMIZE_H

#include "energy/FeatureAnalysis.h"
#include "energy/Objective.h"
#include "energy/ValidateOptions.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace energy {

/// Which candidates' features come from -O3-simplified code (see
/// CandidateFeatures.h): Auto does it for kernels opted in or forced, and
/// measures advice for the others on the cleaned-up code, which is faster.
enum class SimplifyMode { Auto, Always, Never };
/// How much work advice (a kernel that did not opt in) gets: the screen
/// alone, or its best candidates predicted again with their blocks known as
/// an opted-in kernel's are. Opted-in and forced kernels always get the
/// latter.
enum class AdviceMode { Screen, Full };

/// Whose registers and spills the candidates ptxas would check get: ptxas's
/// on clang's code, or nvcc's build of the source (the header route).
enum class ResourcesFrom { Clang, Nvcc };

struct OptimizeOptions {
  ObjectiveSpec Objective;
  std::string ReportFile;
  std::string HeaderFile;  // -energy-header: the choices as macros for nvcc
  std::string ModelFile;
  std::string Arch;        // "sm_90"; empty: each kernel's target-cpu
  std::string Gpu;         // "rtx-a4000"; empty: the arch's default board
  uint64_t WorkItems = 0;  // 0: ENERGY_WORKLOAD(kernel), else DefaultWorkItems
  std::vector<std::string> ForceConfigs; // parseForcedConfig's syntax
  /// Build forced configurations of opted-in kernels that are not known to
  /// be correct (a warning each) instead of stopping: for measurements that
  /// check every result against a reference.
  bool ForceUnsafe = false;
  FeatureOptions Features;
  SimplifyMode Simplify = SimplifyMode::Auto;
  /// The instructions a free search may simplify again per kernel to
  /// predict its best candidates with their blocks known, counted in the
  /// screen's simplified code: about 0.7 s on our 2-core build machine
  /// (attention.cu: 8255 instructions, 35 us each). A count, not a clock,
  /// so that the same source always gets the same choice.
  uint64_t RefineBudget = 20000;
  /// Loading the plugin into a build whose kernels did not opt in should
  /// cost little: their advice is the screen's unless asked for in full.
  AdviceMode Advice = AdviceMode::Screen;
  /// -energy-resources=nvcc: the registers and spills of the candidates
  /// ptxas would check come from nvcc's build of the module's source (the
  /// header route, where nvcc builds the kernels), with NvccFlags, by the
  /// nvcc at NvccPath (empty: CUDA's).
  ResourcesFrom Resources = ResourcesFrom::Clang;
  std::string NvccPath;
  std::vector<std::string> NvccFlags;
};

/// Why -energy-tune-all and energy-optimize<tune-all> are errors.
extern const char *const TuneAllRemoved;

/// The typed settings of this pass alone, parsed as both the pass
/// parameters and the -energy-* flags take them; the error says what is
/// wrong with Value. Those the MLIR pass takes too (objective, max-slowdown,
/// min-gain, workload) are in ValidateOptions.h.
llvm::Expected<SimplifyMode> parseSimplifySetting(llvm::StringRef Value);
llvm::Expected<uint64_t> parseRefineBudgetSetting(llvm::StringRef Value);
llvm::Expected<AdviceMode> parseAdviceSetting(llvm::StringRef Value);
llvm::Expected<ResourcesFrom> parseResourcesSetting(llvm::StringRef Value);

/// Applies one setting (objective, max-slowdown, min-gain, report, header,
/// model, arch, gpu, workload, force, force-unsafe, simplify, refine-budget, advice,
/// resources, nvcc, nvcc-flag) and checks it
/// with the others
/// (validateOptimizeOptions); Opts is unchanged on an error.
llvm::Error applyOptimizeSetting(llvm::StringRef Key, llvm::StringRef Value,
                                 OptimizeOptions &Opts);

/// Parses `energy-optimize` or `energy-optimize<a=b;c=d>` (a name
/// PassBuilder::checkParametrizedPassName accepted) on top of Base.
llvm::Expected<OptimizeOptions> parseOptimizeParams(llvm::StringRef Name,
                                                    OptimizeOptions Base);

class EnergyOptimizePass : public llvm::PassInfoMixin<EnergyOptimizePass> {
public:
  explicit EnergyOptimizePass(OptimizeOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  OptimizeOptions Opts;
};

} // namespace energy

#endif
