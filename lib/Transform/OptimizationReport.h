//===- OptimizationReport.h - JSON report of the optimizer ------*- C++ -*-===//
//
// -energy-report=FILE: for each kernel its features, tunables, every
// candidate with its prediction (or why it was pruned), the Pareto front,
// the choice and the reason, and the baselines it is compared with.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_OPTIMIZATIONREPORT_H
#define ENERGY_LIB_OPTIMIZATIONREPORT_H

#include "KernelPlan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <optional>

namespace energy {

/// One sentence explaining the choice, with numbers (remark and report).
Explanation explainChoice(const KernelPlan &P);

/// A kernel that did not opt in and could not be planned: left alone.
struct SkippedKernel {
  std::string Name;
  std::string Reason;
};

llvm::Error writeOptimizationReport(llvm::StringRef Path,
                                    llvm::StringRef ModuleName,
                                    llvm::ArrayRef<KernelPlan> Plans,
                                    llvm::ArrayRef<SkippedKernel> Skipped,
                                    llvm::ArrayRef<std::string> UnmatchedForces);

/// The report at Path that the device compile of module ModuleName wrote,
/// for a later pass to add to; nothing when there is no such file, it is
/// not a report, or it is another module's.
std::optional<llvm::json::Object> readModuleReport(llvm::StringRef Path,
                                                   llvm::StringRef ModuleName);

/// Writes a report read by readModuleReport back to Path.
llvm::Error rewriteReport(llvm::StringRef Path, llvm::json::Object Report);

} // namespace energy

#endif
