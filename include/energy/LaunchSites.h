//===- LaunchSites.h - Advice at the host launches of a kernel --*- C++ -*-===//
//
// A kernel that did not opt in keeps the block its host code launches it
// with, so the device compile can only advise. In the host module of the
// same CUDA source, energy-launch-sites finds each `k<<<grid, block>>>`
// (__cudaPushCallConfiguration, then k's stub) and, with the device
// compile's report at hand (-energy-report=FILE, written by the device
// compile that ran first), repeats the advice at the launch site as a remark
// (file:line with -g or -Rpass) and lists the sites in the report.
//
//   clang++ -x cuda -fplugin=energy.so -fpass-plugin=energy.so
//       -mllvm -energy-report=r.json -Rpass-analysis=energy app.cu
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LAUNCHSITES_H
#define ENERGY_LAUNCHSITES_H

#include "energy/ConfigSpace.h"

#include "llvm/IR/Instruction.h"
#include "llvm/IR/PassManager.h"
#include <optional>
#include <string>
#include <vector>

namespace energy {

struct LaunchSite {
  std::string Kernel;              // demangled, as the report names it
  std::optional<BlockShape> Block; // when the launch's block is a constant
  const llvm::Instruction *At = nullptr;
};

/// Every <<<...>>> launch in a host module whose kernel is known.
std::vector<LaunchSite> findLaunchSites(const llvm::Module &M);

class EnergyLaunchSitesPass
    : public llvm::PassInfoMixin<EnergyLaunchSitesPass> {
public:
  explicit EnergyLaunchSitesPass(std::string ReportFile)
      : ReportFile(std::move(ReportFile)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::string ReportFile;
};

} // namespace energy

#endif
