//===- NvccResources.cpp - Registers and spills of the user's nvcc build --===//

#include "NvccResources.h"
#include "ChoicesHeader.h"
#include "PluginWarning.h"
#include "energy/RunTool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

#define DEBUG_TYPE "energy-nvcc"

STATISTIC(NumNvccCompiles, "Candidates' assignments compiled with nvcc");
STATISTIC(NumNvccDiskCacheHits, "nvcc compiles found in the disk cache");

namespace energy {

static Error nvccError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

/// A whole file's nvcc compile takes seconds; a heavily unrolled one can
/// take a minute.
static constexpr unsigned DefaultTimeoutSeconds = 120;

NvccResources::NvccResources(NvccBuild B)
    : Build(std::move(B)),
      TimeoutSeconds(DefaultTimeoutSeconds) {
  // In the body: TimeoutProblem is constructed after TimeoutSeconds.
  TimeoutSeconds =
      timeoutFromEnvironment("ENERGY_NVCC_TIMEOUT", DefaultTimeoutSeconds, TimeoutProblem);
}

/// nvcc's path, or an error saying where it was looked for.
static Expected<std::string> findNvcc(StringRef Given) {
  if (!Given.empty()) {
    if (Given.contains('/')) {
      if (sys::fs::can_execute(Given))
        return Given.str();
      return nvccError("nvcc '" + Given + "' is not an executable");
    }
    if (auto Found = sys::findProgramByName(Given))
      return *Found;
    return nvccError("no '" + Given + "' on PATH");
  }
  SmallString<128> Configured(ENERGY_DEFAULT_CUDA_PATH);
  sys::path::append(Configured, "bin", "nvcc");
  if (sys::fs::can_execute(Configured))
    return std::string(Configured);
  if (auto Found = sys::findProgramByName("nvcc"))
    return *Found;
  return nvccError("nvcc not found (in " + Twine(ENERGY_DEFAULT_CUDA_PATH) +
                   "/bin or on PATH; -energy-nvcc=PATH names it)");
}

Error NvccResources::run(ArrayRef<std::string> Args, std::string &Output) {
  Expected<std::string> Nvcc = findNvcc(Build.Nvcc);
  if (!Nvcc)
    return Nvcc.takeError();
  std::vector<StringRef> Argv = {*Nvcc};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  ToolRun Run = runTool(*Nvcc, Argv, TimeoutSeconds);
  if (Run.How == ToolRun::TimedOut)
    return nvccError("nvcc did not finish in " + Twine(TimeoutSeconds) +
                     " s (ENERGY_NVCC_TIMEOUT=SECONDS sets the wait)");
  Output = Run.Output + Run.Errors;
  if (!Run.succeeded())
    return nvccError(describeFailedRun("nvcc", Run, firstLines(Run.Errors)));
  return Error::success();
}

/// The files of a Makefile rule (`nvcc -M`): every prerequisite.
static std::vector<std::string> prerequisites(StringRef Rule) {
  std::vector<std::string> Files;
  SmallVector<StringRef, 64> Words;
  std::string Joined = Rule.str();
  for (size_t At; (At = Joined.find("\\\n")) != std::string::npos;)
    Joined.replace(At, 2, " ");
  SplitString(Joined, Words, " \t\n\r");
  for (StringRef W : Words)
    if (!W.ends_with(":"))
      Files.push_back(W.str());
  return Files;
}

Error NvccResources::start(StringRef Source, StringRef Arch) {
  if (Identity.empty()) {
    std::string Version;
    if (Error E = run({"--version"}, Version))
      return E;
    Identity = Version;
    SmallVector<StringRef, 8> Lines;
    StringRef(Version).split(Lines, '\n');
    for (StringRef Line : Lines)
      if (Line.contains("release"))
        Release = Line.trim().str();
  }
  if (Inputs.count(Source))
    return Error::success();
  if (!sys::fs::is_regular_file(Source))
    return nvccError("the module's source '" + Source +
                     "' is not a file nvcc can build");
  // What the source includes decides the code as much as the source: the
  // key hashes every file nvcc reads.
  std::vector<std::string> Args = {"-M", ("-arch=" + Arch).str()};
  llvm::append_range(Args, Build.Flags);
  Args.push_back(Source.str());
  std::string Rule;
  if (Error E = run(Args, Rule))
    return E;
  std::string Contents;
  for (const std::string &File : prerequisites(Rule)) {
    Contents += File + '\0';
    if (auto Buffer = MemoryBuffer::getFile(File))
      Contents += utohexstr(xxh3_64bits((*Buffer)->getBuffer()));
    Contents += '\0';
  }
  Inputs[Source] = utohexstr(xxh3_64bits(Contents));
  return Error::success();
}

std::map<std::string, KernelResources> parseAllPtxasInfo(StringRef Output) {
  std::map<std::string, KernelResources> Kernels;
  StringRef Marker = "Compiling entry function '";
  for (size_t At = Output.find(Marker); At != StringRef::npos;
       At = Output.find(Marker, At + 1)) {
    StringRef Name = Output.drop_front(At + Marker.size());
    Name = Name.take_until([](char C) { return C == '\''; });
    if (auto R = parsePtxasInfo(Output, Name))
      Kernels[Name.str()] = *R;
  }
  return Kernels;
}

/// A cache file: one line per kernel, "entry registers frame stores loads".
static std::optional<std::map<std::string, KernelResources>>
readCompile(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  std::map<std::string, KernelResources> Kernels;
  SmallVector<StringRef, 16> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    SmallVector<StringRef, 5> Fields;
    Line.split(Fields, ' ');
    KernelResources R;
    if (Fields.size() != 5 || Fields[1].getAsInteger(10, R.Registers) ||
        Fields[2].getAsInteger(10, R.StackFrameBytes) ||
        Fields[3].getAsInteger(10, R.SpillStoreBytes) ||
        Fields[4].getAsInteger(10, R.SpillLoadBytes))
      return std::nullopt;
    Kernels[Fields[0].str()] = R;
  }
  return Kernels;
}

static std::string writtenCompile(
    const std::map<std::string, KernelResources> &Kernels) {
  std::string Text;
  for (const auto &[Entry, R] : Kernels)
    Text += (Entry + " " + Twine(R.Registers) + " " +
             Twine(R.StackFrameBytes) + " " + Twine(R.SpillStoreBytes) + " " +
             Twine(R.SpillLoadBytes) + "\n")
                .str();
  return Text;
}

Expected<std::map<std::string, KernelResources>>
NvccResources::compile(StringRef Source, StringRef Header, StringRef Arch) {
  SmallString<128> HeaderFile;
  int FD;
  if (std::error_code EC = sys::fs::createTemporaryFile("energy-choices", "h",
                                                        FD, HeaderFile))
    return nvccError("cannot create a temporary file: " + EC.message());
  FileRemover RemoveHeader(HeaderFile);
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Header;
  }
  std::vector<std::string> Args = {("-arch=" + Arch).str(), "-cubin", "-o",
                                   "/dev/null", "-Xptxas", "-v"};
  llvm::append_range(Args, Build.Flags);
  Args.push_back(("-DENERGY_CHOICES=\"" + HeaderFile + "\"").str());
  Args.push_back(Source.str());
  ++NumNvccCompiles;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": compiling " << Source << " for "
                    << Arch << " with\n"
                    << Header);
  std::string Output;
  if (Error E = run(Args, Output))
    return E;
  return parseAllPtxasInfo(Output);
}

Error NvccResources::giveUp(LLVMContext &Ctx, const std::string &Why) {
  GaveUp = Why;
  Ctx.diagnose(PluginWarning(
      "energy: registers and spills come from ptxas on clang's code, not "
      "from nvcc's build (-energy-resources=nvcc): " +
      Why));
  return nvccError(Why);
}

Expected<KernelResources>
NvccResources::measure(StringRef Source, StringRef Entry,
                       ArrayRef<std::pair<std::string, int>> Tunables,
                       StringRef Arch, LLVMContext &Ctx) {
  if (!TimeoutProblem.empty()) {
    Ctx.diagnose(PluginWarning("energy: " + TimeoutProblem));
    TimeoutProblem.clear();
  }
  if (!GaveUp.empty())
    return nvccError(GaveUp);
  if (Error E = start(Source, Arch))
    return giveUp(Ctx, toString(std::move(E)));
  std::string Header = tunablesChoicesHeader(Tunables);
  std::string KeyText = Identity + '\0' + Inputs[Source] + '\0' + Arch.str();
  for (const std::string &Flag : Build.Flags)
    KeyText += '\0' + Flag;
  KeyText += '\0' + Header;
  std::string Key =
      "nvcc-" + utohexstr(xxh3_64bits(KeyText)) + "-" + Arch.str();
  auto It = Compiles.find(Key);
  if (It == Compiles.end()) {
    std::string CachePath = resourceCachePath("nvcc", Key);
    std::optional<std::map<std::string, KernelResources>> Kernels;
    if (!CachePath.empty() && (Kernels = readCompile(CachePath)))
      ++NumNvccDiskCacheHits;
    if (!Kernels) {
      auto Compiled = compile(Source, Header, Arch);
      if (!Compiled)
        return giveUp(Ctx, toString(Compiled.takeError()));
      Kernels = std::move(*Compiled);
      if (!CachePath.empty())
        writeCacheFile(CachePath, writtenCompile(*Kernels));
    }
    It = Compiles.try_emplace(Key, std::move(*Kernels)).first;
  }
  auto Found = It->second.find(Entry.str());
  if (Found != It->second.end())
    return Found->second;
  std::string Why = ("nvcc's build of '" + Source + "' has no kernel '" +
                     Entry + "'")
                        .str();
  if (!ToldMissing[Entry]) {
    ToldMissing[Entry] = true;
    Ctx.diagnose(PluginWarning(
        "energy: registers and spills of '" + Entry +
        "' come from ptxas on clang's code: " + Why));
  }
  return nvccError(Why);
}

} // namespace energy
