//===- ValidateOptions.h - Checks both optimizing passes share --*- C++ -*-===//
//
// energy-optimize (LLVM) and energy-optimize-gpu (MLIR) take the same
// objective, max-slowdown, arch and gpu options, each in its own syntax;
// one function says which values are valid, so the two cannot drift.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_VALIDATEOPTIONS_H
#define ENERGY_VALIDATEOPTIONS_H

#include "energy/Objective.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace energy {

/// The objective a setting names; the error lists the accepted names.
llvm::Expected<Objective> parseObjectiveSetting(llvm::StringRef Value);

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
