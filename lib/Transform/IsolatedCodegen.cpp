//===- IsolatedCodegen.cpp - NVPTX codegen that cannot harm the caller ----===//

#include "IsolatedCodegen.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#if LLVM_ON_UNIX
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

using namespace llvm;

namespace energy {

static Error codegenError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

#if LLVM_ON_UNIX

namespace {

/// The child's end of the pipe. What the child sends starts with a tag:
/// PTX, or why there is none.
int ChildOut = -1;
constexpr char PtxTag = 'P', ErrorTag = 'E';

void writeAll(int FD, const char *Data, size_t Size) {
  while (Size) {
    ssize_t N = ::write(FD, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    Data += N;
    Size -= size_t(N);
  }
}

[[noreturn]] void childFails(StringRef Why) {
  writeAll(ChildOut, &ErrorTag, 1);
  writeAll(ChildOut, Why.data(), Why.size());
  ::_exit(1);
}

/// report_fatal_error in the child: say why and leave at once, before the
/// host's handler (clang's reports through its diagnostics and exits) or
/// LLVM's interrupt handlers (they remove the parent's output files) run.
void childFatalError(void *, const char *Reason, bool) { childFails(Reason); }

/// The child's diagnostics are about a copy nobody compiles: an error ends
/// it, the rest is dropped.
struct ChildDiagnostics : DiagnosticHandler {
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error) {
      std::string Text;
      raw_string_ostream OS(Text);
      DiagnosticPrinterRawOStream DP(OS);
      DI.print(DP);
      childFails(Text);
    }
    return true;
  }
};

[[noreturn]] void compileInChild(Module &M, TargetMachine &Target, int Out) {
  ChildOut = Out;
  // The host's handlers of crash signals print stack traces and remove its
  // output files: a crash here ends the child alone.
  for (int Sig = 1; Sig < NSIG; ++Sig)
    ::signal(Sig, SIG_DFL);
  // What the backend prints concerns the copy, not the user's code.
  int Null = ::open("/dev/null", O_WRONLY);
  if (Null >= 0) {
    ::dup2(Null, STDOUT_FILENO);
    ::dup2(Null, STDERR_FILENO);
  }
  remove_fatal_error_handler();
  install_fatal_error_handler(childFatalError);
  remove_bad_alloc_error_handler();
  M.getContext().setDiagnosticHandler(std::make_unique<ChildDiagnostics>());
  SmallString<0> Ptx;
  raw_svector_ostream OS(Ptx);
  legacy::PassManager PM;
  if (Target.addPassesToEmitFile(PM, OS, nullptr,
                                 CodeGenFileType::AssemblyFile))
    childFails("the NVPTX target cannot emit PTX");
  PM.run(M);
  writeAll(Out, &PtxTag, 1);
  writeAll(Out, Ptx.data(), Ptx.size());
  ::_exit(0);
}

/// Whether this process runs one thread: a child forked from several may
/// wait forever for a lock another thread held (LLVM's registries,
/// allocator arenas). clang's and opt's compiles run one.
bool singleThreaded() {
  std::error_code EC;
  unsigned Threads = 0;
  for (sys::fs::directory_iterator It("/proc/self/task", EC), End;
       !EC && It != End; It.increment(EC))
    ++Threads;
  return !EC && Threads == 1;
}

/// The first line of a fatal error, without what differs between runs of
/// one input: a release build's backend names DAG nodes by address
/// (`Cannot select: 0x55d0c1a2b3c0: i32 = ...`).
std::string stableReason(StringRef Reason) {
  StringRef Line = Reason.trim().split('\n').first;
  std::string Out;
  for (size_t I = 0; I < Line.size(); ++I) {
    if (Line.substr(I).starts_with("0x")) {
      size_t End = I + 2;
      while (End < Line.size() && isHexDigit(Line[End]))
        ++End;
      if (End > I + 2) {
        Out += "0x?";
        I = End - 1;
        continue;
      }
    }
    Out += Line[I];
  }
  return Out;
}

} // namespace

Expected<std::string> emitPtxIsolated(Module &M, TargetMachine &Target,
                                      unsigned TimeoutSeconds) {
  if (!singleThreaded())
    return codegenError("not compiled: this process runs several threads, "
                        "which a forked codegen could deadlock on");
  int Pipe[2];
  if (::pipe2(Pipe, O_CLOEXEC))
    return codegenError("cannot create a pipe: " + Twine(strerror(errno)));
  pid_t Pid = ::fork();
  if (Pid < 0) {
    int Errno = errno;
    ::close(Pipe[0]);
    ::close(Pipe[1]);
    return codegenError("cannot fork: " + Twine(strerror(Errno)));
  }
  if (Pid == 0) {
    ::close(Pipe[0]);
    compileInChild(M, Target, Pipe[1]);
  }
  ::close(Pipe[1]);

  using Clock = std::chrono::steady_clock;
  Clock::time_point Deadline =
      Clock::now() + std::chrono::seconds(TimeoutSeconds);
  std::string Received;
  bool TimedOut = false;
  char Buffer[1 << 16];
  while (true) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - Clock::now())
                    .count();
    if (Left <= 0) {
      TimedOut = true;
      break;
    }
    pollfd Wait = {Pipe[0], POLLIN, 0};
    int Ready = ::poll(&Wait, 1, int(std::min<long long>(Left, INT_MAX)));
    if (Ready == 0 || (Ready < 0 && errno == EINTR))
      continue;
    ssize_t N = Ready < 0 ? -1 : ::read(Pipe[0], Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break; // the child is done (or the pipe broke)
    Received.append(Buffer, size_t(N));
  }
  ::close(Pipe[0]);
  if (TimedOut)
    ::kill(Pid, SIGKILL);
  int Status = 0;
  pid_t Waited;
  do
    Waited = ::waitpid(Pid, &Status, 0);
  while (Waited < 0 && errno == EINTR);

  if (TimedOut)
    return createStringError(("NVPTX codegen did not finish in " +
                              Twine(TimeoutSeconds) + " s")
                                 .str(),
                             std::make_error_code(std::errc::timed_out));
  StringRef Reply(Received);
  bool Finished = Waited == Pid && WIFEXITED(Status) &&
                  WEXITSTATUS(Status) == 0;
  if (Finished && Reply.consume_front(StringRef(&PtxTag, 1)))
    return Reply.str();
  if (Reply.consume_front(StringRef(&ErrorTag, 1)))
    return codegenError("NVPTX codegen failed: " + stableReason(Reply));
  if (Waited == Pid && WIFSIGNALED(Status))
    return codegenError("NVPTX codegen crashed (signal " +
                        Twine(WTERMSIG(Status)) + ")");
  return codegenError("NVPTX codegen failed");
}

#else

Expected<std::string> emitPtxIsolated(Module &, TargetMachine &, unsigned) {
  return codegenError("not compiled: no isolated codegen on this platform");
}

#endif

} // namespace energy
