//===- ToolchainResources.cpp - Registers and spills from ptxas -----------===//

#include "ToolchainResources.h"
#include "IsolatedCodegen.h"

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

ToolchainResources::ToolchainResources() : Ptxas(findPtxas()) {}

/// A module holding only Kernel's definition (its globals too, for the
/// shared memory they declare), marked as the one kernel.
static std::unique_ptr<Module> kernelOnlyModule(const Function &Kernel) {
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
    HaveRegisters |= NumberBefore(Line, "registers", R.Registers);
  }
  if (!HaveRegisters)
    return std::nullopt;
  return R;
}

/// The cache file for a key, or empty without a cache directory.
static std::string diskCachePath(StringRef Key) {
  SmallString<128> Dir;
  if (!sys::path::cache_directory(Dir))
    return "";
  sys::path::append(Dir, "energy", "ptxas");
  if (sys::fs::create_directories(Dir))
    return "";
  sys::path::append(Dir, Key + ".txt");
  return std::string(Dir);
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

static void writeDiskCache(StringRef Path, const KernelResources &R) {
  // Written whole to a unique name, then renamed: parallel builds never
  // read half a file.
  SmallString<128> Temp;
  int FD;
  if (sys::fs::createUniqueFile(Path + ".%%%%%%", FD, Temp))
    return;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << R.Registers << ' ' << R.StackFrameBytes << ' ' << R.SpillStoreBytes
       << ' ' << R.SpillLoadBytes << '\n';
  }
  if (sys::fs::rename(Temp, Path))
    sys::fs::remove(Temp);
}

Expected<KernelResources>
ToolchainResources::runPtxas(StringRef Ptx, StringRef Arch,
                             StringRef EntryName) {
  SmallString<128> PtxFile, LogFile;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("energy-candidate", "ptx", PtxFile))
    return resourceError("cannot create a temporary file: " + EC.message());
  FileRemover RemovePtx(PtxFile);
  if (std::error_code EC =
          sys::fs::createTemporaryFile("energy-ptxas", "log", LogFile))
    return resourceError("cannot create a temporary file: " + EC.message());
  FileRemover RemoveLog(LogFile);
  {
    std::error_code EC;
    raw_fd_ostream OS(PtxFile, EC);
    if (EC)
      return resourceError("cannot write " + PtxFile + ": " + EC.message());
    OS << Ptx;
  }
  std::string ArchFlag = ("-arch=" + Arch).str();
  StringRef Args[] = {Ptxas, ArchFlag, "-v", PtxFile, "-o", "/dev/null"};
  std::optional<StringRef> Redirects[] = {std::nullopt, LogFile, LogFile};
  std::string Message;
  int RC = sys::ExecuteAndWait(Ptxas, Args, std::nullopt, Redirects,
                               /*SecondsToWait=*/60, 0, &Message);
  auto Log = MemoryBuffer::getFile(LogFile);
  StringRef Output = Log ? (*Log)->getBuffer() : "";
  if (RC != 0)
    return resourceError("ptxas failed" +
                         (Message.empty() ? "" : ": " + Message) + ": " +
                         Output.trim().take_front(400));
  if (auto R = parsePtxasInfo(Output, EntryName))
    return *R;
  return resourceError("ptxas -v printed no register count for " + EntryName);
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
ToolchainResources::measure(const Function &Kernel, TargetMachine &Target) {
  if (!available())
    return resourceError("ptxas not found");
  std::unique_ptr<Module> M = kernelOnlyModule(Kernel);
  std::string IRKey = irKey(*M, Target);
  if (auto R = cached(IRKey))
    return *R;
  // As long as ptxas may take.
  Expected<std::string> Ptx =
      emitPtxIsolated(*M, Target, /*TimeoutSeconds=*/60);
  if (!Ptx)
    return Ptx.takeError();
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
  if (!R)
    return R.takeError();
  remember(PtxKey, *R);
  remember(IRKey, *R);
  return *R;
}

} // namespace energy
