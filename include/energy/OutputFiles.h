//===- OutputFiles.h - Files the plugin writes besides the IR ---*- C++ -*-===//
//
// -energy-report, -energy-header and -energy-features-json name files the
// passes write at the end of a run. They are checked as the options are
// parsed, so that a path that cannot be written stops opt or clang before
// the work (and before opt opens its output), and against each other and
// the tool's own output: two writers of one file corrupt it silently.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_OUTPUTFILES_H
#define ENERGY_OUTPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <system_error>
#include <utility>

namespace energy {

/// Why Path cannot be created or overwritten (its directory is missing or
/// read-only, it is a directory, ...); no error when it can. Creates nothing.
std::error_code outputFileProblem(llvm::StringRef Path);

/// Whether A and B name the same regular file (the same inode when both
/// exist, else the same absolute path). "-" (stdout) and devices never are.
bool sameOutputFile(llvm::StringRef A, llvm::StringRef B);

/// The file the tool writes its module to, when the plugin can see it:
/// opt's -o, which opt holds open while the passes run. clang's cc1 keeps its
/// output outside LLVM's options (in a temporary file, renamed at the end).
std::optional<std::string> toolOutputFile();

/// A setting's name and the file it names (empty: unset).
using NamedOutput = std::pair<llvm::StringRef, llvm::StringRef>;

/// An error when two of Files name the same file.
llvm::Error checkDistinctOutputs(llvm::ArrayRef<NamedOutput> Files);

/// An error when one of Files names the tool's output (toolOutputFile), which
/// is known once the whole command line is parsed.
llvm::Error checkNotToolOutput(llvm::ArrayRef<NamedOutput> Files);

} // namespace energy

#endif
