//===- ValidateOptions.h - Checks both optimizing passes share --*- C++ -*-===//
//
// energy-optimize (LLVM) and energy-optimize-gpu (MLIR) take the same
// objective, max-slowdown, min-gain, workload, arch and gpu options, each
// in its own syntax; one function per check says which values are valid,
// and in what words, so the two cannot drift.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_VALIDATEOPTIONS_H
#define ENERGY_VALIDATEOPTIONS_H

#include "energy/Objective.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace energy {

/// The settings both passes take, parsed from their text (a flag's value,
/// a pass parameter, an MLIR pass option); the error says what is wrong with
/// Value, an empty one included. The objective's lists the accepted names.
llvm::Expected<Objective> parseObjectiveSetting(llvm::StringRef Value);
llvm::Expected<double> parseMaxSlowdownSetting(llvm::StringRef Value);
llvm::Expected<double> parseMinGainSetting(llvm::StringRef Value);
/// A positive number of work items (0 would mean "unset").
llvm::Expected<uint64_t> parseWorkloadSetting(llvm::StringRef Value);

/// The error for a setting a pass's parameters give twice, in either
/// pass's syntax: the last would win silently.
llvm::Error settingGivenTwice(llvm::StringRef Key);

/// Checks the options both passes take: a max-slowdown that is a finite
/// number >= 0, a min-gain in [0, 1), and an arch and a gpu (either may be empty: unset) that have
/// tables and agree. The error says what is wrong, without the pass's name.
llvm::Error validateOptimizeOptions(const ObjectiveSpec &Objective,
                                    llvm::StringRef Arch, llvm::StringRef Gpu);

} // namespace energy

#endif
