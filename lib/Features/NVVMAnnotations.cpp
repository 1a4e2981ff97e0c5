//===- NVVMAnnotations.cpp - Kernel flags and launch bounds ---------------===//

#include "energy/NVVMAnnotations.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace energy {

static constexpr StringLiteral AnnotationsName = "nvvm.annotations";

bool isNVPTXModule(const Module &M) {
  return Triple(M.getTargetTriple()).isNVPTX();
}

/// Calls Fn(Key, Value) for every (key, i32) pair annotating F.
template <typename Callback>
static void forEachAnnotation(const Function &F, Callback Fn) {
  const NamedMDNode *NMD = F.getParent()->getNamedMetadata(AnnotationsName);
  if (!NMD)
    return;
  for (const MDNode *Node : NMD->operands()) {
    if (Node->getNumOperands() < 3)
      continue;
    auto *VM = dyn_cast_or_null<ValueAsMetadata>(Node->getOperand(0).get());
    if (!VM || VM->getValue() != &F)
      continue;
    for (unsigned I = 1; I + 1 < Node->getNumOperands(); I += 2) {
      auto *Key = dyn_cast_or_null<MDString>(Node->getOperand(I).get());
      auto *Val = mdconst::dyn_extract_or_null<ConstantInt>(Node->getOperand(I + 1));
      if (Key && Val)
        Fn(Key->getString(), Val->getZExtValue());
    }
  }
}

bool isKernel(const Function &F) {
  if (F.getCallingConv() == CallingConv::PTX_Kernel)
    return true;
  bool Kernel = false;
  forEachAnnotation(F, [&](StringRef Key, uint64_t Val) {
    if (Key == "kernel" && Val == 1)
      Kernel = true;
  });
  return Kernel;
}

/// The field of Bounds a key names, or nullptr for keys we do not own.
static unsigned *boundsField(LaunchBounds &B, StringRef Key) {
  return StringSwitch<unsigned *>(Key)
      .Case("maxntidx", &B.MaxNTid[0])
      .Case("maxntidy", &B.MaxNTid[1])
      .Case("maxntidz", &B.MaxNTid[2])
      .Case("reqntidx", &B.ReqNTid[0])
      .Case("reqntidy", &B.ReqNTid[1])
      .Case("reqntidz", &B.ReqNTid[2])
      .Case("minctasm", &B.MinCTASM)
      .Case("maxnreg", &B.MaxNReg)
      .Default(nullptr);
}

LaunchBounds readLaunchBounds(const Function &F) {
  LaunchBounds B;
  forEachAnnotation(F, [&](StringRef Key, uint64_t Val) {
    if (unsigned *Field = boundsField(B, Key))
      *Field = static_cast<unsigned>(Val);
  });
  return B;
}

void writeLaunchBounds(Function &F, const LaunchBounds &Bounds) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *NMD = M.getOrInsertNamedMetadata(AnnotationsName);
  LaunchBounds Scratch;

  // Rebuild the list: F's nodes lose their bounds keys, other nodes stay.
  SmallVector<MDNode *, 16> Kept;
  for (MDNode *Node : NMD->operands()) {
    auto *VM = Node->getNumOperands()
                   ? dyn_cast_or_null<ValueAsMetadata>(Node->getOperand(0).get())
                   : nullptr;
    if (!VM || VM->getValue() != &F) {
      Kept.push_back(Node);
      continue;
    }
    SmallVector<Metadata *, 8> Ops{Node->getOperand(0).get()};
    for (unsigned I = 1; I + 1 < Node->getNumOperands(); I += 2) {
      auto *Key = dyn_cast_or_null<MDString>(Node->getOperand(I).get());
      if (Key && boundsField(Scratch, Key->getString()))
        continue;
      Ops.push_back(Node->getOperand(I).get());
      Ops.push_back(Node->getOperand(I + 1).get());
    }
    if (Ops.size() > 1)
      Kept.push_back(MDNode::get(Ctx, Ops));
  }

  auto Add = [&](StringRef Key, unsigned Val) {
    if (!Val)
      return;
    Metadata *Ops[] = {ValueAsMetadata::get(&F), MDString::get(Ctx, Key),
                       ConstantAsMetadata::get(
                           ConstantInt::get(Type::getInt32Ty(Ctx), Val))};
    Kept.push_back(MDNode::get(Ctx, Ops));
  };
  static const char *const Axes = "xyz";
  for (unsigned D = 0; D < 3; ++D) {
    Add(std::string("maxntid") + Axes[D], Bounds.MaxNTid[D]);
    Add(std::string("reqntid") + Axes[D], Bounds.ReqNTid[D]);
  }
  Add("minctasm", Bounds.MinCTASM);
  Add("maxnreg", Bounds.MaxNReg);

  NMD->clearOperands();
  for (MDNode *Node : Kept)
    NMD->addOperand(Node);
}

} // namespace energy
