//===- LaunchSites.cpp - Advice at the host launches of a kernel ----------===//

#include "energy/LaunchSites.h"

#include "OptimizationReport.h"

#include "energy/LaunchSearch.h"
#include "energy/NVVMAnnotations.h"
#include "energy/PluginError.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

#define DEBUG_TYPE "energy"

namespace energy {

static constexpr StringLiteral StubMarker = "__device_stub__";

/// The kernel a host stub launches, named as the device report names it:
/// _Z20__device_stub__scaleiPf -> "scale(int, float*)".
static std::optional<std::string> kernelOfStub(const Value *Callee) {
  const auto *F = dyn_cast_or_null<Function>(Callee->stripPointerCasts());
  if (!F || !F->getName().contains(StubMarker))
    return std::nullopt;
  std::string Name = demangle(F->getName());
  size_t At = Name.find(StubMarker);
  if (At == std::string::npos)
    return std::nullopt;
  return Name.erase(At, StubMarker.size());
}

/// The stub called first after a launch configuration is pushed: directly,
/// or through cudaLaunchKernel once the stub is inlined. The launch sits
/// behind `if (!__cudaPushCallConfiguration(...))`, a few blocks on.
static std::optional<std::string> launchedKernel(const CallBase &Push) {
  constexpr unsigned MaxBlocks = 8;
  SmallVector<const BasicBlock *, 8> Work = {Push.getParent()};
  SmallPtrSet<const BasicBlock *, 8> Seen;
  while (!Work.empty() && Seen.size() < MaxBlocks) {
    const BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    auto It =
        BB == Push.getParent() ? std::next(Push.getIterator()) : BB->begin();
    for (; It != BB->end(); ++It) {
      const auto *Call = dyn_cast<CallBase>(&*It);
      if (!Call)
        continue;
      if (auto K = kernelOfStub(Call->getCalledOperand()))
        return K;
      const Function *Callee = Call->getCalledFunction();
      if (Callee && Callee->getName() == "cudaLaunchKernel" &&
          Call->arg_size() > 0)
        if (auto K = kernelOfStub(Call->getArgOperand(0)))
          return K;
    }
    for (const BasicBlock *Next : successors(BB))
      Work.push_back(Next);
  }
  return std::nullopt;
}

/// The block of __cudaPushCallConfiguration(grid.xy, grid.z, block.xy,
/// block.z, ...), when the source wrote a constant one.
static std::optional<BlockShape> constantBlock(const CallBase &Push) {
  if (Push.arg_size() < 4)
    return std::nullopt;
  auto *XY = dyn_cast<ConstantInt>(Push.getArgOperand(2));
  auto *Z = dyn_cast<ConstantInt>(Push.getArgOperand(3));
  if (!XY || !Z)
    return std::nullopt;
  uint64_t V = XY->getZExtValue();
  return BlockShape{unsigned(V & 0xffffffffu), unsigned(V >> 32),
                    unsigned(Z->getZExtValue())};
}

std::vector<LaunchSite> findLaunchSites(const Module &M) {
  std::vector<LaunchSite> Sites;
  const Function *Push = M.getFunction("__cudaPushCallConfiguration");
  if (!Push)
    return Sites;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || Call->getCalledFunction() != Push)
        continue;
      if (auto Kernel = launchedKernel(*Call))
        Sites.push_back({*Kernel, constantBlock(*Call), Call});
    }
  return Sites;
}

static std::string siteText(const LaunchSite &S) {
  return S.Block ? "block " + formatBlockShape(*S.Block)
                 : std::string("a block computed at run time");
}

/// The report's prediction for this launch's own block, if it has one.
static const json::Object *candidateFor(const json::Object &Kernel,
                                        const LaunchSite &S) {
  const json::Array *Candidates = Kernel.getArray("candidates");
  if (!S.Block || !Candidates)
    return nullptr;
  for (const json::Value &V : *Candidates) {
    const json::Object *C = V.getAsObject();
    const json::Array *Block = C ? C->getArray("block") : nullptr;
    if (!Block || Block->size() != 3 || !C->getNumber("energy_j"))
      continue;
    bool Same = true;
    for (unsigned D = 0; D < 3; ++D)
      Same = Same && (*Block)[D].getAsInteger() == int64_t((*S.Block)[D]);
    if (Same)
      return C;
  }
  return nullptr;
}

PreservedAnalyses EnergyLaunchSitesPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  if (isNVPTXModule(M))
    return PreservedAnalyses::all();
  // Only the report the device compile of this very source just wrote.
  auto Root = readModuleReport(ReportFile, M.getModuleIdentifier());
  if (!Root)
    return PreservedAnalyses::all();
  json::Array *Kernels = Root->getArray("kernels");
  if (!Kernels)
    return PreservedAnalyses::all();

  bool Found = false;
  for (const LaunchSite &S : findLaunchSites(M)) {
    for (json::Value &V : *Kernels) {
      json::Object *K = V.getAsObject();
      if (!K || K->getString("kernel") != S.Kernel ||
          K->getBoolean("applied").value_or(true))
        continue;
      Found = true;
      json::Object Site;
      // Against this launch's own block, when the report predicted it.
      std::string Against;
      const json::Object *Chosen = K->getObject("choice");
      if (const json::Object *Here = candidateFor(*K, S); Here && Chosen) {
        auto Change = [&](StringRef Key) {
          double Was = *Here->getNumber(Key);
          return percentChange(Was, Chosen->getNumber(Key).value_or(Was));
        };
        raw_string_ostream(Against)
            << "; against this launch's " << siteText(S)
            << format(": energy %+.1f%%, time %+.1f%%", Change("energy_j"),
                      Change("time_s"));
        Site["savings_percent"] = json::Object{{"energy", -Change("energy_j")},
                                               {"time", -Change("time_s")}};
      }
      Function &Host = *const_cast<Function *>(S.At->getFunction());
      OptimizationRemarkEmitter ORE(&Host);
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "LaunchSite", S.At)
               << "kernel " << ore::NV("Kernel", S.Kernel)
               << " is launched here with " << siteText(S) << "; advice: "
               << ore::NV("Choice", K->getString("reason").value_or(""))
               << Against;
      });
      if (const DebugLoc &DL = S.At->getDebugLoc()) {
        Site["file"] = DL->getFilename().str();
        Site["line"] = int64_t(DL.getLine());
      }
      if (S.Block)
        Site["block"] =
            json::Array{(*S.Block)[0], (*S.Block)[1], (*S.Block)[2]};
      if (!K->getArray("launch_sites"))
        (*K)["launch_sites"] = json::Array();
      K->getArray("launch_sites")->push_back(std::move(Site));
    }
  }
  if (!Found)
    return PreservedAnalyses::all();
  if (Error E = rewriteReport(ReportFile, std::move(*Root)))
    emitPluginError(M.getContext(),
                    "energy-launch-sites: " + toString(std::move(E)));
  return PreservedAnalyses::all();
}

} // namespace energy
