//===- KernelRewriter.cpp - IR edits that apply a chosen config -----------===//

#include "KernelRewriter.h"
#include "TuningSpec.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace energy {

static Error rewriteError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error replaceTunableReads(GlobalVariable &Tunable, int Value,
                          ArrayRef<Function *> Scope) {
  SmallPtrSet<const Function *, 8> InScope(Scope.begin(), Scope.end());
  for (Function *F : Scope)
    convertUsersOfConstantsToInstructions({&Tunable}, F);
  StringRef Name = Tunable.getName().drop_front(TunablePrefix.size());

  // Instructions between the global and its loads: casts, zero GEPs.
  SmallVector<Instruction *, 8> Work;
  for (User *U : Tunable.users())
    if (auto *I = dyn_cast<Instruction>(U))
      if (InScope.contains(I->getFunction()))
        Work.push_back(I);
  SmallVector<Instruction *, 8> Dead;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (auto *Load = dyn_cast<LoadInst>(I)) {
      if (!Load->getType()->isIntegerTy(32) ||
          Load->getPointerOperand()->stripPointerCasts() != &Tunable)
        return rewriteError("tunable '" + Name +
                            "' is read other than by ENERGY_VALUE in '" +
                            I->getFunction()->getName() + "'");
      Load->replaceAllUsesWith(ConstantInt::get(Load->getType(), Value));
      Dead.push_back(Load);
      continue;
    }
    bool ZeroGEP = isa<GetElementPtrInst>(I) &&
                   cast<GetElementPtrInst>(I)->hasAllZeroIndices();
    if (!isa<CastInst>(I) && !ZeroGEP)
      return rewriteError("tunable '" + Name + "' is used other than read in '" +
                          I->getFunction()->getName() + "'");
    for (User *U : I->users())
      Work.push_back(cast<Instruction>(U));
    Dead.push_back(I);
  }
  // Users before the address computations they use.
  for (Instruction *I : llvm::reverse(Dead))
    if (I->use_empty())
      I->eraseFromParent();
  return Error::success();
}

void setTunableRecord(GlobalVariable &Tunable, int Value) {
  auto *Data = cast<ConstantDataArray>(Tunable.getInitializer());
  SmallVector<uint32_t, 8> Values;
  for (unsigned I = 0; I < Data->getNumElements(); ++I)
    Values.push_back(static_cast<uint32_t>(Data->getElementAsInteger(I)));
  Values[0] = static_cast<uint32_t>(Value);
  Tunable.setInitializer(ConstantDataArray::get(Tunable.getContext(), Values));
}

SmallVector<ArrayType *, 4> arrayLevels(Type *T) {
  SmallVector<ArrayType *, 4> Levels;
  for (; auto *AT = dyn_cast<ArrayType>(T); T = AT->getElementType())
    Levels.push_back(AT);
  return Levels;
}

Expected<std::optional<uint64_t>>
resizedArrayBytes(const GlobalVariable &Array, ArrayRef<int64_t> Dims) {
  SmallVector<ArrayType *, 4> Levels = arrayLevels(Array.getValueType());
  if (Levels.size() != Dims.size())
    return rewriteError("shared array '" + Array.getName() + "' has " +
                        Twine(Levels.size()) + " dimensions, its shape spec " +
                        Twine(Dims.size()));
  const DataLayout &DL = Array.getParent()->getDataLayout();
  uint64_t Bytes = DL.getTypeAllocSize(Levels.back()->getElementType());
  for (size_t I = 0; I < Levels.size(); ++I) {
    if (Dims[I] <= 0 || uint64_t(Dims[I]) > Levels[I]->getNumElements())
      return std::nullopt;
    Bytes *= uint64_t(Dims[I]);
  }
  return Bytes;
}

Expected<GlobalVariable *> resizeSharedArray(GlobalVariable &Array,
                                             ArrayRef<int64_t> Dims) {
  auto Bytes = resizedArrayBytes(Array, Dims);
  if (!Bytes)
    return Bytes.takeError();
  if (!*Bytes)
    return rewriteError("shared array '" + Array.getName() +
                        "': the chosen sizes do not fit the declared array");
  // Old array type per nesting level -> new one.
  DenseMap<Type *, Type *> NewTypeOf;
  SmallVector<ArrayType *, 4> Levels = arrayLevels(Array.getValueType());
  Type *Elem = Levels.back()->getElementType();
  for (size_t I = Levels.size(); I-- > 0;) {
    Elem = ArrayType::get(Elem, Dims[I]);
    NewTypeOf[Levels[I]] = Elem;
  }
  Type *NewType = Elem;
  if (NewType == Array.getValueType())
    return &Array;

  convertUsersOfConstantsToInstructions({&Array});
  SmallVector<Instruction *, 16> Work;
  for (User *U : Array.users())
    if (auto *I = dyn_cast<Instruction>(U))
      Work.push_back(I);
  SmallVector<GetElementPtrInst *, 16> GEPs;
  SmallPtrSet<Instruction *, 16> Seen;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second)
      continue;
    if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
      Type *Src = GEP->getSourceElementType();
      if (NewTypeOf.count(Src)) {
        GEPs.push_back(GEP);
      } else if (Src != Levels.back()->getElementType() ||
                 GEP->getNumIndices() != 1) {
        // Byte offsets or other types would keep the old row length.
        return rewriteError("shared array '" + Array.getName() +
                            "' is addressed by byte offsets or through another "
                            "type; run energy-optimize before optimization");
      }
    } else if (!isa<CastInst>(I)) {
      continue; // loads, stores, calls: the address is final
    }
    for (User *U : I->users())
      Work.push_back(cast<Instruction>(U));
  }
  for (GetElementPtrInst *GEP : GEPs) {
    GEP->setSourceElementType(NewTypeOf[GEP->getSourceElementType()]);
    GEP->setResultElementType(GetElementPtrInst::getIndexedType(
        GEP->getSourceElementType(),
        SmallVector<Value *, 4>(GEP->idx_begin(), GEP->idx_end())));
  }

  auto *Resized = new GlobalVariable(
      *Array.getParent(), NewType, Array.isConstant(), Array.getLinkage(),
      UndefValue::get(NewType), "", &Array, Array.getThreadLocalMode(),
      Array.getAddressSpace());
  Resized->copyAttributesFrom(&Array);
  Resized->takeName(&Array);
  Array.replaceAllUsesWith(Resized);
  Array.eraseFromParent();
  return Resized;
}

Expected<GlobalVariable *> resizeSharedArrayIn(Function &F,
                                               GlobalVariable &Array,
                                               ArrayRef<int64_t> Dims) {
  auto *Own = new GlobalVariable(
      *Array.getParent(), Array.getValueType(), Array.isConstant(),
      GlobalValue::InternalLinkage, UndefValue::get(Array.getValueType()),
      Array.getName() + ".built", &Array, Array.getThreadLocalMode(),
      Array.getAddressSpace());
  Own->copyAttributesFrom(&Array);
  convertUsersOfConstantsToInstructions({&Array}, &F);
  for (Use &U : make_early_inc_range(Array.uses()))
    if (auto *I = dyn_cast<Instruction>(U.getUser());
        I && I->getFunction() == &F)
      U.set(Own);
  auto Resized = resizeSharedArray(*Own, Dims);
  if (!Resized) { // refused before any change: F gets Array back
    Own->replaceAllUsesWith(&Array);
    Own->eraseFromParent();
  }
  return Resized;
}

static bool isBlockDimRead(const Instruction &I) {
  auto *Call = dyn_cast<CallInst>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee)
    return false;
  switch (Callee->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return true;
  default:
    return false;
  }
}

/// Before optimization, clang's blockDim.x is a call of an always-inline
/// helper (__fetch_builtin_x): inline those so the reads reach F.
static void inlineBlockDimHelpers(Function &F) {
  constexpr unsigned MaxRounds = 4;
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (!Callee->isDeclaration() &&
              Callee->hasFnAttribute(Attribute::AlwaysInline) &&
              llvm::any_of(instructions(*Callee), [](const Instruction &I) {
                return isBlockDimRead(I) || isa<CallBase>(I);
              }))
            Calls.push_back(Call);
    if (Calls.empty())
      return;
    for (CallBase *Call : Calls) {
      InlineFunctionInfo IFI;
      (void)InlineFunction(*Call, IFI); // a refused call keeps its runtime read
    }
  }
}

/// Replaces the reads of one special register's x, y and z (intrinsics
/// First, First+1, First+2) in F by Values.
static void foldSpecialRegister(Function &F, Intrinsic::ID First,
                                ArrayRef<uint64_t> Values) {
  SmallVector<CallInst *, 8> Reads;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (Callee->getIntrinsicID() >= First &&
            Callee->getIntrinsicID() < First + 3)
          Reads.push_back(Call);
  for (CallInst *Call : Reads) {
    unsigned Axis = Call->getCalledFunction()->getIntrinsicID() - First;
    Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), Values[Axis]));
    Call->eraseFromParent();
  }
}

void foldBlockDim(Function &F, const BlockShape &Block) {
  inlineBlockDimHelpers(F);
  uint64_t Values[] = {Block[0], Block[1], Block[2]};
  foldSpecialRegister(F, Intrinsic::nvvm_read_ptx_sreg_ntid_x, Values);
}

void foldGridDim(Function &F, const std::array<uint64_t, 3> &Grid) {
  foldSpecialRegister(F, Intrinsic::nvvm_read_ptx_sreg_nctaid_x, Grid);
}

Function *moveToFreshFunction(Function &F) {
  Function *NewF = Function::Create(F.getFunctionType(), F.getLinkage(),
                                    F.getAddressSpace(), "");
  F.getParent()->getFunctionList().insert(F.getIterator(), NewF);
  NewF->copyAttributesFrom(&F);
  NewF->copyMetadata(&F, 0);
  NewF->splice(NewF->begin(), &F);
  for (auto [Old, New] : llvm::zip(F.args(), NewF->args())) {
    Old.replaceAllUsesWith(&New);
    New.takeName(&Old);
  }
  NewF->takeName(&F);
  F.replaceAllUsesWith(NewF);
  return NewF;
}

Error writeLaunchRecord(Module &M, StringRef RecordName,
                        const BlockShape &Block, unsigned DynamicSmem,
                        unsigned ItemsPerThread) {
  LLVMContext &Ctx = M.getContext();
  StructType *RecordTy = launchRecordType(Ctx);
  GlobalVariable *Record = M.getNamedGlobal(RecordName);
  if (Record) {
    if (Error E = checkLaunchRecord(*Record))
      return E;
    RecordTy = cast<StructType>(Record->getValueType()); // may be named
  }
  Type *I32 = Type::getInt32Ty(Ctx);
  auto *Dims = ArrayType::get(I32, 3);
  Constant *Value = ConstantStruct::get(
      RecordTy, {ConstantArray::get(Dims, {ConstantInt::get(I32, Block[0]),
                                           ConstantInt::get(I32, Block[1]),
                                           ConstantInt::get(I32, Block[2])}),
                 ConstantInt::get(I32, DynamicSmem),
                 ConstantInt::get(I32, ItemsPerThread)});
  if (!Record) {
    Record = new GlobalVariable(M, RecordTy, /*isConstant=*/false,
                                GlobalValue::ExternalLinkage, Value, RecordName,
                                nullptr, GlobalValue::NotThreadLocal,
                                /*AddressSpace=*/1);
    Record->setAlignment(Align(4));
    return Error::success();
  }
  Record->setInitializer(Value);
  return Error::success();
}

} // namespace energy
