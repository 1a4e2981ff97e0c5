//===- RunTool.h - Running an external tool with a time limit ---*- C++ -*-===//
//
// The plugin asks ptxas and nvcc for register counts. Both runs need the
// same care: output captured in temporary files, a time limit (a hung tool
// must not hang the build), and a failure said in one line.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_RUNTOOL_H
#define ENERGY_RUNTOOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace energy {

/// How a tool's run ended and what it printed.
struct ToolRun {
  enum Ending { Exited, TimedOut, CouldNotRun };
  Ending How = Exited;
  /// The exit code when the tool Exited.
  int ExitCode = 0;
  /// Why it CouldNotRun (or was killed), as the system said it.
  std::string Problem;
  /// Standard output; with MergeStreams, standard error interleaved in it.
  std::string Output;
  /// Standard error (empty with MergeStreams).
  std::string Errors;

  bool succeeded() const { return How == Exited && ExitCode == 0; }
  /// "exit code N", or the system's reason the tool did not run to its end.
  std::string howItFailed() const;
};

/// Runs Program with Args (Args[0] is the program's name as it sees it),
/// waiting at most TimeoutSeconds (0: no limit). MergeStreams sends both
/// streams to Output, in the order the tool wrote them.
ToolRun runTool(llvm::StringRef Program, llvm::ArrayRef<llvm::StringRef> Args,
                unsigned TimeoutSeconds, bool MergeStreams = false);

/// How a failed Run of Tool reads in a diagnostic: "Tool failed (exit code
/// N)" (or the system's reason), then what the tool Said, if anything, after
/// ": " (after ":\n" with SaidOnOwnLines, for output kept in full).
std::string describeFailedRun(llvm::StringRef Tool, const ToolRun &Run,
                              llvm::StringRef Said,
                              bool SaidOnOwnLines = false);

/// The seconds $Variable gives a tool's run (1 to 3600), else Default, and
/// then in Problem why the variable was not taken.
unsigned timeoutFromEnvironment(llvm::StringRef Variable, unsigned Default,
                                std::string &Problem);

/// The first lines (400 characters) of what a tool said, on one line.
std::string firstLines(llvm::StringRef Output);

} // namespace energy

#endif
