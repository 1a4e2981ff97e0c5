//===- RunTool.cpp - Running an external tool with a time limit -----------===//

#include "energy/RunTool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <optional>

using namespace llvm;

namespace energy {

static constexpr unsigned MaxTimeoutSeconds = 3600;

std::string ToolRun::howItFailed() const {
  if (How == Exited)
    return "exit code " + std::to_string(ExitCode);
  if (How == TimedOut)
    return "timed out";
  return Problem;
}

std::string describeFailedRun(StringRef Tool, const ToolRun &Run,
                              StringRef Said, bool SaidOnOwnLines) {
  std::string Message = (Tool + " failed (" + Run.howItFailed() + ")").str();
  if (!Said.empty())
    Message += ((SaidOnOwnLines ? ":\n" : ": ") + Said).str();
  return Message;
}

static std::string contents(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

ToolRun runTool(StringRef Program, ArrayRef<StringRef> Args,
                unsigned TimeoutSeconds, bool MergeStreams) {
  ToolRun Run;
  auto Temporary = [&](StringRef Suffix, SmallString<128> &Path) {
    std::error_code EC =
        sys::fs::createTemporaryFile("energy-tool", Suffix, Path);
    if (EC) {
      Run.How = ToolRun::CouldNotRun;
      Run.Problem = "cannot create a temporary file: " + EC.message();
    }
    return !EC;
  };
  SmallString<128> OutFile, ErrFile;
  if (!Temporary("out", OutFile))
    return Run;
  FileRemover RemoveOut(OutFile);
  if (!Temporary("err", ErrFile))
    return Run;
  FileRemover RemoveErr(ErrFile);
  StringRef ErrTarget = MergeStreams ? StringRef(OutFile) : StringRef(ErrFile);
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(OutFile),
                                          ErrTarget};
  int RC = sys::ExecuteAndWait(Program, Args, std::nullopt, Redirects,
                               TimeoutSeconds, 0, &Run.Problem);
  if (RC == -2) // ExecuteAndWait's timeout
    Run.How = ToolRun::TimedOut;
  else if (RC < 0)
    Run.How = ToolRun::CouldNotRun;
  Run.ExitCode = RC;
  Run.Output = contents(OutFile);
  if (!MergeStreams)
    Run.Errors = contents(ErrFile);
  return Run;
}

unsigned timeoutFromEnvironment(StringRef Variable, unsigned Default,
                                std::string &Problem) {
  std::optional<std::string> Env = sys::Process::GetEnv(Variable);
  unsigned Seconds;
  if (!Env)
    return Default;
  if (!StringRef(*Env).getAsInteger(10, Seconds) && Seconds >= 1 &&
      Seconds <= MaxTimeoutSeconds)
    return Seconds;
  Problem = ("ignoring " + Variable + "='" + *Env +
             "': not a number of seconds from 1 to " +
             Twine(MaxTimeoutSeconds) + "; waiting " + Twine(Default) + " s")
                .str();
  return Default;
}

std::string firstLines(StringRef Output) {
  std::string Said;
  SmallVector<StringRef, 4> Lines;
  Output.take_front(400).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines)
    if (!Line.trim().empty())
      Said += (Said.empty() ? "" : "; ") + Line.trim().str();
  return Said;
}

} // namespace energy
