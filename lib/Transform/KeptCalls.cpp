//===- KeptCalls.cpp - Calls the build kept that the prediction inlined ---===//

#include "energy/KeptCalls.h"

#include "OptimizationReport.h"
#include "PluginWarning.h"

#include "energy/CallCycles.h"
#include "energy/NVVMAnnotations.h"
#include "energy/PluginError.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace energy {

static constexpr StringLiteral PredictedAttr = "energy-predicted";
static constexpr StringLiteral WarnValue = "warn";

void markPredicted(Function &K, bool Warn) {
  K.addFnAttr(PredictedAttr, Warn ? WarnValue : "report");
}

namespace {

/// A function the kernel still calls, with what its calls pass.
struct KeptCall {
  unsigned Sites = 0;
  /// Bytes of the kernel's own arrays (allocas) the calls pass: they stay in
  /// local memory, where the inlined code kept them in registers.
  uint64_t LocalBytes = 0;
};

} // namespace

/// The defined functions K calls directly, but not those on a call cycle:
/// the prediction counts a recursive call as a call too.
static MapVector<const Function *, KeptCall> keptCalls(const Function &K) {
  CallCycles Cycles(K);
  const DataLayout &DL = K.getDataLayout();
  MapVector<const Function *, KeptCall> Kept;
  for (const Instruction &I : instructions(K)) {
    const auto *Call = dyn_cast<CallBase>(&I);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || Cycles.isRecursive(*Callee))
      continue;
    KeptCall &C = Kept[Callee];
    ++C.Sites;
    SmallPtrSet<const AllocaInst *, 4> Passed;
    for (const Value *Arg : Call->args())
      if (const auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(Arg)))
        if (Passed.insert(A).second)
          if (auto Size = A->getAllocationSize(DL); Size && !Size->isScalable())
            C.LocalBytes += Size->getFixedValue();
  }
  return Kept;
}

static std::string describe(const Function &Callee, const KeptCall &C) {
  std::string Text = "'" + demangle(Callee.getName()) + "'";
  if (Callee.hasFnAttribute(Attribute::NoInline))
    Text += " (noinline)";
  if (C.LocalBytes)
    Text += " (passing it " + std::to_string(C.LocalBytes) +
            " bytes of local arrays, kept in local memory)";
  return Text;
}

PreservedAnalyses EnergyKeptCallsPass::run(Module &M, ModuleAnalysisManager &) {
  if (!isNVPTXModule(M))
    return PreservedAnalyses::all();
  std::optional<json::Object> Report;
  if (!ReportFile.empty())
    Report = readModuleReport(ReportFile, M.getModuleIdentifier());
  json::Array *Entries = Report ? Report->getArray("kernels") : nullptr;
  bool ReportChanged = false;

  for (Function &K : M) {
    if (!K.hasFnAttribute(PredictedAttr))
      continue;
    bool Warn = K.getFnAttribute(PredictedAttr).getValueAsString() == WarnValue;
    // The marker is the plugin's own note to itself: not for the output.
    K.removeFnAttr(PredictedAttr);
    // An -O0 build inlines nothing and is not the optimized code any
    // prediction describes: nothing to check there.
    if (K.hasOptNone())
      continue;
    auto Kept = keptCalls(K);
    if (Warn && !Kept.empty()) {
      std::string Calls;
      for (const auto &[Callee, C] : Kept)
        Calls += (Calls.empty() ? "" : ", ") + describe(*Callee, C);
      M.getContext().diagnose(PluginWarning(
          "energy: kernel '" + demangle(K.getName()) +
          "' was predicted with its calls inlined, but the build still "
          "calls " +
          Calls +
          ": the code that runs is not the code predicted; mark the callees "
          "__forceinline__"));
    }
    if (Kept.empty() || !Entries)
      continue;
    for (json::Value &V : *Entries) {
      json::Object *Entry = V.getAsObject();
      if (!Entry || Entry->getString("ir_name") != K.getName())
        continue;
      json::Array List;
      for (const auto &[Callee, C] : Kept)
        List.push_back(
            json::Object{{"callee", demangle(Callee->getName())},
                         {"ir_name", Callee->getName()},
                         {"call_sites", int64_t(C.Sites)},
                         {"local_bytes_passed", int64_t(C.LocalBytes)}});
      (*Entry)["kept_calls"] = std::move(List);
      ReportChanged = true;
    }
  }
  if (ReportChanged)
    if (Error E = rewriteReport(ReportFile, std::move(*Report)))
      emitPluginError(M.getContext(),
                      "energy-kept-calls: " + toString(std::move(E)));
  // Removing a string attribute no analysis reads invalidates none.
  return PreservedAnalyses::all();
}

} // namespace energy
