//===- ToolchainResources.cpp - Registers and spills from ptxas -----------===//

#include "ToolchainResources.h"
#include "IsolatedCodegen.h"
#include "PluginWarning.h"
#include "energy/NVVMAnnotations.h"
#include "energy/RunTool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>

using namespace llvm;

#define DEBUG_TYPE "energy-toolchain"

STATISTIC(NumPtxasRuns, "ptxas runs");
STATISTIC(NumCacheHits, "Register counts found in the in-memory cache");
STATISTIC(NumDiskCacheHits, "Register counts found in the disk cache");

namespace energy {

static Error resourceError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

static constexpr const char *CandidateEntryName = "energy_candidate";

static std::string findPtxas() {
  if (std::optional<std::string> Env = sys::Process::GetEnv("ENERGY_PTXAS"))
    return *Env == "none" ? std::string() : *Env;
  SmallString<128> Configured(ENERGY_DEFAULT_CUDA_PATH);
  sys::path::append(Configured, "bin", "ptxas");
  if (sys::fs::can_execute(Configured))
    return std::string(Configured);
  if (auto Found = sys::findProgramByName("ptxas"))
    return *Found;
  return "";
}

/// ptxas checks one kernel in well under a second; a run past this is
/// taken as hung.
static constexpr unsigned DefaultTimeoutSeconds = 20;
ToolchainResources::ToolchainResources()
    : Ptxas(findPtxas()),
      TimeoutSeconds(DefaultTimeoutSeconds) {
  // In the body: TimeoutProblem is constructed after TimeoutSeconds.
  TimeoutSeconds =
      timeoutFromEnvironment("ENERGY_PTXAS_TIMEOUT", DefaultTimeoutSeconds, TimeoutProblem);
}

namespace {
/// What this process learnt about its toolchain.
struct ToolchainState {
  std::mutex Lock;
  /// Why registers are no longer checked (empty while the toolchain works).
  std::string GaveUp;
  /// Whether ptxas compiles an empty kernel, by PTX header.
  StringMap<bool> Works;
};
ToolchainState &toolchainState() {
  static ToolchainState State;
  return State;
}
} // namespace

void ToolchainResources::giveUp(LLVMContext &Ctx, const std::string &Why) {
  ToolchainState &State = toolchainState();
  std::lock_guard<std::mutex> Lock(State.Lock);
  if (!State.GaveUp.empty())
    return;
  State.GaveUp = Why;
  Ctx.diagnose(PluginWarning(
      "energy: " + Why + "; registers are estimated from here on (ptxas is '" +
      Ptxas + "'; ENERGY_PTXAS_TIMEOUT=SECONDS sets its wait, " +
      "ENERGY_PTXAS=none skips it)"));
}

/// A module holding only Kernel's definition (its globals too, for the
/// shared memory they declare), marked as the one kernel, with Bounds.
static std::unique_ptr<Module> kernelOnlyModule(const Function &Kernel,
                                                const LaunchBounds &Bounds) {
  ValueToValueMapTy VMap;
  std::unique_ptr<Module> M =
      CloneModule(*Kernel.getParent(), VMap, [&](const GlobalValue *GV) {
        return GV == &Kernel || isa<GlobalVariable>(GV);
      });
  if (NamedMDNode *Old = M->getNamedMetadata("nvvm.annotations"))
    M->eraseNamedMetadata(Old);
  auto *Copy = cast<Function>(VMap[&Kernel]);
  Copy->setName(CandidateEntryName); // a clone's ".1" would be mangled
  LLVMContext &Ctx = M->getContext();
  Metadata *Kind[] = {
      ValueAsMetadata::get(Copy), MDString::get(Ctx, "kernel"),
      ValueAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), 1))};
  M->getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(MDNode::get(Ctx, Kind));
  writeLaunchBounds(*Copy, Bounds);
  return M;
}

std::optional<KernelResources> parsePtxasInfo(StringRef Output,
                                              StringRef EntryName) {
  size_t Start =
      Output.find(("Compiling entry function '" + EntryName + "'").str());
  if (Start == StringRef::npos)
    return std::nullopt;
  StringRef Rest = Output.drop_front(Start);
  KernelResources R;
  bool HaveRegisters = false;
  auto NumberBefore = [](StringRef Line, StringRef Unit, unsigned &Out) {
    size_t At = Line.find(Unit);
    if (At == StringRef::npos)
      return false;
    StringRef Head = Line.take_front(At).rtrim();
    return !Head.substr(Head.find_last_of(" ,") + 1).getAsInteger(10, Out);
  };
  SmallVector<StringRef, 8> Lines;
  Rest.split(Lines, '\n');
  for (StringRef Line : ArrayRef<StringRef>(Lines).drop_front()) {
    if (Line.contains("Compiling entry function"))
      break; // the next kernel
    NumberBefore(Line, "bytes stack frame", R.StackFrameBytes);
    NumberBefore(Line, "bytes spill stores", R.SpillStoreBytes);
    NumberBefore(Line, "bytes spill loads", R.SpillLoadBytes);
    if ((HaveRegisters = NumberBefore(Line, "registers", R.Registers)))
      break; // the entry's last line: a callee's properties may follow
  }
  if (!HaveRegisters)
    return std::nullopt;
  return R;
}

std::string resourceCachePath(StringRef Tool, StringRef Key) {
  SmallString<128> Dir;
  if (!sys::path::cache_directory(Dir))
    return "";
  sys::path::append(Dir, "energy", Tool);
  if (sys::fs::create_directories(Dir))
    return "";
  sys::path::append(Dir, Key + ".txt");
  return std::string(Dir);
}

/// The cache file for a ptxas key, or empty without a cache directory.
static std::string diskCachePath(StringRef Key) {
  return resourceCachePath("ptxas", Key);
}

static std::optional<KernelResources> readDiskCache(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  SmallVector<StringRef, 4> Fields;
  (*Buffer)->getBuffer().trim().split(Fields, ' ');
  KernelResources R;
  if (Fields.size() != 4 || Fields[0].getAsInteger(10, R.Registers) ||
      Fields[1].getAsInteger(10, R.StackFrameBytes) ||
      Fields[2].getAsInteger(10, R.SpillStoreBytes) ||
      Fields[3].getAsInteger(10, R.SpillLoadBytes))
    return std::nullopt;
  return R;
}

void writeCacheFile(StringRef Path, StringRef Text) {
  // Written whole to a unique name, then renamed: parallel builds never
  // read half a file.
  SmallString<128> Temp;
  int FD;
  if (sys::fs::createUniqueFile(Path + ".%%%%%%", FD, Temp))
    return;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  if (sys::fs::rename(Temp, Path))
    sys::fs::remove(Temp);
}

static void writeDiskCache(StringRef Path, const KernelResources &R) {
  writeCacheFile(Path, (Twine(R.Registers) + " " + Twine(R.StackFrameBytes) +
                        " " + Twine(R.SpillStoreBytes) + " " +
                        Twine(R.SpillLoadBytes) + "\n")
                           .str());
}

Expected<KernelResources>
ToolchainResources::runPtxas(StringRef Ptx, StringRef Arch,
                             StringRef EntryName) {
  SmallString<128> PtxFile;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("energy-candidate", "ptx", PtxFile))
    return resourceError("cannot create a temporary file: " + EC.message());
  FileRemover RemovePtx(PtxFile);
  {
    std::error_code EC;
    raw_fd_ostream OS(PtxFile, EC);
    if (EC)
      return resourceError("cannot write " + PtxFile + ": " + EC.message());
    OS << Ptx;
  }
  std::string ArchFlag = ("-arch=" + Arch).str();
  StringRef Args[] = {Ptxas, ArchFlag, "-v", PtxFile, "-o", "/dev/null"};
  ToolRun Run = runTool(Ptxas, Args, TimeoutSeconds, /*MergeStreams=*/true);
  if (Run.How == ToolRun::TimedOut)
    return createStringError(
        ("ptxas did not finish in " + Twine(TimeoutSeconds) + " s").str(),
        std::make_error_code(std::errc::timed_out));
  StringRef Output = Run.Output;
  if (!Run.succeeded()) {
    // What ptxas said, on one line, with the temporary input's name made
    // fixed: reports of identical compiles must not differ by it.
    std::string Said = firstLines(Output);
    for (size_t At; (At = Said.find(PtxFile.str())) != std::string::npos;)
      Said.replace(At, PtxFile.size(), "energy-candidate.ptx");
    return resourceError(describeFailedRun("ptxas", Run, Said));
  }
  if (auto R = parsePtxasInfo(Output, EntryName))
    return *R;
  return resourceError("ptxas -v printed no register count for " + EntryName);
}

/// Why E failed; Hung tells whether it ran out of time.
static std::string failure(Error E, bool &Hung) {
  std::string Why;
  handleAllErrors(std::move(E), [&](const StringError &S) {
    Why = S.getMessage();
    Hung = S.convertToErrorCode() == std::errc::timed_out;
  });
  return Why;
}

bool ToolchainResources::ptxasWorks(StringRef Ptx, StringRef Arch) {
  std::string Header;
  SmallVector<StringRef, 8> Lines;
  Ptx.split(Lines, '\n');
  for (StringRef Line : Lines)
    if (Line.starts_with(".version") || Line.starts_with(".target") ||
        Line.starts_with(".address_size"))
      Header += Line.str() + "\n";
  ToolchainState &State = toolchainState();
  {
    std::lock_guard<std::mutex> Lock(State.Lock);
    if (auto It = State.Works.find(Header); It != State.Works.end())
      return It->second;
  }
  ++NumPtxasRuns;
  bool Works = bool(expectedToOptional(runPtxas(
      Header + ".visible .entry energy_probe()\n{\n\tret;\n}\n", Arch,
      "energy_probe")));
  std::lock_guard<std::mutex> Lock(State.Lock);
  return State.Works[Header] = Works;
}

/// The code a candidate compiles to is fixed by its IR, this LLVM and the
/// target: a hash of those finds code seen before without NVPTX codegen.
static std::string irKey(Module &M, const TargetMachine &Target) {
  // Names of the source, not of the code: the same kernel in another file
  // (or a temporary one) compiles the same.
  M.setModuleIdentifier("");
  M.setSourceFileName("");
  std::string Text;
  raw_string_ostream OS(Text);
  M.print(OS, nullptr);
  OS << LLVM_VERSION_STRING << ' ' << Target.getTargetFeatureString();
  return "ir-" + utohexstr(xxh3_64bits(Text)) + "-" +
         Target.getTargetCPU().str();
}

std::optional<KernelResources> ToolchainResources::cached(StringRef Key) {
  if (auto It = Cache.find(Key); It != Cache.end()) {
    ++NumCacheHits;
    return It->second;
  }
  std::string CachePath = diskCachePath(Key);
  if (CachePath.empty())
    return std::nullopt;
  auto R = readDiskCache(CachePath);
  if (!R)
    return std::nullopt;
  ++NumDiskCacheHits;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Key << " from " << CachePath
                    << "\n");
  return Cache[Key] = *R;
}

void ToolchainResources::remember(StringRef Key, const KernelResources &R) {
  Cache[Key] = R;
  std::string CachePath = diskCachePath(Key);
  if (!CachePath.empty())
    writeDiskCache(CachePath, R);
}

Expected<KernelResources>
ToolchainResources::measure(const Function &Kernel, TargetMachine &Target,
                            const LaunchBounds &Bounds) {
  if (!available())
    return resourceError("ptxas not found");
  LLVMContext &Ctx = Kernel.getContext();
  if (!TimeoutProblem.empty()) {
    Ctx.diagnose(PluginWarning("energy: " + TimeoutProblem));
    TimeoutProblem.clear();
  }
  std::unique_ptr<Module> M = kernelOnlyModule(Kernel, Bounds);
  std::string IRKey = irKey(*M, Target);
  if (auto R = cached(IRKey))
    return *R;
  {
    ToolchainState &State = toolchainState();
    std::lock_guard<std::mutex> Lock(State.Lock);
    if (!State.GaveUp.empty())
      return resourceError(State.GaveUp);
  }
  Expected<std::string> Ptx = emitPtxIsolated(*M, Target, TimeoutSeconds);
  if (!Ptx) {
    // A codegen that hung would hang for the next candidate too; one that
    // failed on this code (a fatal error) fails for this candidate only.
    bool Hung = false;
    std::string Why = failure(Ptx.takeError(), Hung);
    if (Hung)
      giveUp(Ctx, Why);
    return resourceError(Why);
  }
  // Different IR may still compile to PTX seen before.
  StringRef Arch = Target.getTargetCPU();
  std::string PtxKey = utohexstr(xxh3_64bits(*Ptx)) + "-" + Arch.str();
  if (auto R = cached(PtxKey)) {
    remember(IRKey, *R);
    return *R;
  }
  ++NumPtxasRuns;
  LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": running ptxas for " << PtxKey << "\n");
  auto R = runPtxas(*Ptx, Arch, CandidateEntryName);
  if (!R) {
    // ptxas may reject this code alone (a call it cannot resolve); when it
    // also fails on an empty kernel, or hangs, it fails for every one.
    bool Hung = false;
    std::string Why = failure(R.takeError(), Hung);
    if (Hung || !ptxasWorks(*Ptx, Arch))
      giveUp(Ctx, Why);
    return resourceError(Why);
  }
  remember(PtxKey, *R);
  remember(IRKey, *R);
  return *R;
}

} // namespace energy
