//===- DidYouMean.h - Suggestions for a misspelled name ---------*- C++ -*-===//
//
// One way to say "did you mean" for every name a user gives the plugin: a
// board (-energy-gpu), a kernel or a tunable (-energy-force-config).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_DIDYOUMEAN_H
#define ENERGY_DIDYOUMEAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace energy {

/// Name as a comparison key: lower case, letters and digits only
/// ("RTX 4090", "rtx_4090" and "rtx-4090" are one key).
std::string nameKey(llvm::StringRef Name);

/// "; did you mean 'a'?" (or "'a' or 'b'", at most three) naming the Known
/// names closest to Given: those whose key contains Given's, else those the
/// fewest edits apart (at most one per three characters); empty when none
/// is close.
std::string didYouMean(llvm::StringRef Given,
                       llvm::ArrayRef<std::string> Known);

} // namespace energy

#endif
