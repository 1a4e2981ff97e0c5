//===- TuningSpec.cpp - The tuning contract as found in IR ----------------===//

#include "TuningSpec.h"

#include "BlockLegality.h"

#include "energy/CostModel.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace energy {

static Error specError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<std::vector<ShapeDim>> parseShapeSpec(StringRef Spec) {
  std::vector<ShapeDim> Dims;
  SmallVector<StringRef, 4> Parts;
  Spec.split(Parts, ',');
  for (StringRef Part : Parts) {
    Part = Part.trim();
    ShapeDim D;
    StringRef Name = Part;
    StringRef Num;
    char Op = 0;
    size_t At = Part.find_first_of("+*");
    if (At != StringRef::npos) {
      Op = Part[At];
      Name = Part.take_front(At).trim();
      Num = Part.drop_front(At + 1).trim();
    }
    int64_t Lit;
    if (!Name.getAsInteger(10, Lit)) {
      if (Op)
        return specError("shape '" + Spec + "': write '" + Part +
                         "' as a single integer");
      D.Add = Lit;
    } else {
      if (Name.empty() || !llvm::all_of(Name, [](char C) {
            return isAlnum(C) || C == '_';
          }))
        return specError("shape '" + Spec + "': bad dimension '" + Part + "'");
      D.Name = Name.str();
      int64_t K = 0;
      if (Op && (Num.getAsInteger(10, K) || K < 0))
        return specError("shape '" + Spec + "': bad number in '" + Part + "'");
      if (Op == '+')
        D.Add = K;
      else if (Op == '*')
        D.Mul = K;
    }
    Dims.push_back(D);
  }
  return Dims;
}

Expected<int64_t> evaluateDim(const ShapeDim &D, const ValueMap &Values) {
  if (D.Name.empty())
    return D.Add;
  auto It = Values.find(D.Name);
  if (It == Values.end())
    return specError("shape refers to unknown tunable '" + D.Name + "'");
  return It->second * D.Mul + D.Add;
}

/// The string a global annotation points to.
static std::optional<StringRef> annotationString(const Constant *C) {
  auto *GV = dyn_cast<GlobalVariable>(C->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return std::nullopt;
  auto *Data = dyn_cast<ConstantDataArray>(GV->getInitializer());
  if (!Data || !Data->isCString())
    return std::nullopt;
  return Data->getAsCString();
}

static Expected<KernelAnnotation> parseKernelAnnotation(StringRef Spec) {
  KernelAnnotation A;
  SmallVector<StringRef, 4> Fields;
  Spec.split(Fields, ';', -1, /*KeepEmpty=*/false);
  for (StringRef Field : Fields) {
    auto [Key, Value] = Field.split('=');
    if (Key == "record") {
      A.Record = Value.str();
    } else if (Key == "block") {
      auto [X, Y] = Value.split(',');
      if (X.empty() || Y.empty())
        return specError("energy.tune: block needs two tunables, got '" +
                         Value + "'");
      A.BlockTunables = std::array<std::string, 2>{X.str(), Y.str()};
    } else {
      return specError("energy.tune: unknown field '" + Field + "'");
    }
  }
  return A;
}

/// The record an annotation's first argument points to: the instantiation
/// of the record variable template that ENERGY_KERNEL_TEMPLATE* gives.
static const GlobalVariable *annotationRecord(const ConstantStruct &Fields) {
  if (Fields.getNumOperands() < 5)
    return nullptr;
  auto *Args = dyn_cast<GlobalVariable>(Fields.getOperand(4)->stripPointerCasts());
  auto *Values = Args && Args->hasInitializer()
                     ? dyn_cast<ConstantStruct>(Args->getInitializer())
                     : nullptr;
  if (!Values || Values->getNumOperands() == 0)
    return nullptr;
  return dyn_cast<GlobalVariable>(Values->getOperand(0)->stripPointerCasts());
}

static Expected<TunableVar> readTunable(GlobalVariable &GV) {
  StringRef Name = GV.getName().drop_front(TunablePrefix.size());
  auto *Data = GV.hasInitializer()
                   ? dyn_cast<ConstantDataArray>(GV.getInitializer())
                   : nullptr;
  if (!Data || !Data->getElementType()->isIntegerTy(32) ||
      Data->getNumElements() < 3)
    return specError("tunable '" + Name +
                     "' must be an int array {value, kind, candidates...}");
  TunableVar T;
  T.Var = &GV;
  T.Info.Name = Name.str();
  T.Info.Default = static_cast<int>(Data->getElementAsInteger(0));
  int64_t Kind = Data->getElementAsInteger(1);
  if (Kind != 0 && Kind != 1)
    return specError("tunable '" + Name + "' has unknown kind " +
                     Twine(Kind));
  T.Info.WorkPerThread = Kind == 1;
  for (unsigned I = 2; I < Data->getNumElements(); ++I) {
    int V = static_cast<int>(Data->getElementAsInteger(I));
    if (V <= 0)
      return specError("tunable '" + Name + "' has a non-positive candidate " +
                       Twine(V));
    if (!llvm::is_contained(T.Info.Candidates, V))
      T.Info.Candidates.push_back(V);
  }
  return T;
}

StructType *launchRecordType(LLVMContext &Ctx) {
  Type *I32 = Type::getInt32Ty(Ctx);
  return StructType::get(Ctx, {ArrayType::get(I32, 3), I32, I32});
}

Error checkLaunchRecord(const GlobalVariable &Record) {
  auto *T = dyn_cast<StructType>(Record.getValueType());
  if (T && T->isLayoutIdentical(launchRecordType(Record.getContext())))
    return Error::success();
  return specError("record '" + Record.getName() +
                   "' is not an energy::launch_record");
}

std::string RecordName::display() const {
  return Qualifier + Kernel + (Args ? "<" + *Args + ">" : "");
}

std::optional<RecordName> parseRecordName(StringRef Record) {
  std::string Demangled = demangle(Record);
  StringRef D = Demangled;
  size_t Open = D.find('<');
  size_t At = D.take_front(Open).rfind(RecordPrefix);
  if (At == StringRef::npos || (At != 0 && !D.take_front(At).ends_with("::")))
    return std::nullopt;
  RecordName N;
  N.Qualifier = D.take_front(At).str();
  StringRef Rest = D.drop_front(At + RecordPrefix.size());
  if (Open == StringRef::npos) {
    N.Kernel = Rest.str();
  } else {
    if (!Rest.ends_with(">"))
      return std::nullopt;
    size_t KernelEnd = Rest.find('<');
    N.Kernel = Rest.take_front(KernelEnd).str();
    N.Args = Rest.slice(KernelEnd + 1, Rest.size() - 1).trim().str();
  }
  if (N.Kernel.empty())
    return std::nullopt;
  return N;
}

/// "saxpy" for the record __energy_launch_saxpy, "a::k" for
/// _ZN1a17__energy_launch_kE, "scale<float, 4>" for
/// _Z21__energy_launch_scaleIfLi4EE (__energy_launch_scale<float, 4>).
static std::optional<std::string> recordKernelName(StringRef Record) {
  if (auto N = parseRecordName(Record))
    return N->display();
  return std::nullopt;
}

Expected<ModuleTuningInfo> readTuningInfo(Module &M) {
  ModuleTuningInfo Info;
  for (GlobalVariable &GV : M.globals())
    if (GV.getName().starts_with(TunablePrefix)) {
      auto T = readTunable(GV);
      if (!T)
        return T.takeError();
      Info.Tunables.push_back(*T);
    }

  GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations");
  auto *List = Annotations && Annotations->hasInitializer()
                   ? dyn_cast<ConstantArray>(Annotations->getInitializer())
                   : nullptr;
  if (!List)
    return Info;
  for (const Use &Entry : List->operands()) {
    auto *Fields = dyn_cast<ConstantStruct>(Entry.get());
    if (!Fields || Fields->getNumOperands() < 2)
      continue;
    std::optional<StringRef> Text = annotationString(Fields->getOperand(1));
    if (!Text)
      continue;
    const Value *Target = Fields->getOperand(0)->stripPointerCasts();
    if (Text->consume_front("energy.tune:")) {
      auto *F = dyn_cast<Function>(Target);
      if (!F)
        return specError("energy.tune annotation on a non-function");
      auto A = parseKernelAnnotation(*Text);
      if (!A)
        return A.takeError();
      // The record the annotation points to (energy.cuh gives it; older IR
      // and hand-written tests name it with record= only): its own name,
      // mangled in a namespace or for an instantiation.
      const GlobalVariable *Record = annotationRecord(*Fields);
      if (Record) {
        // The device compile defines an instantiation's record only where
        // host code reads it: without that read, the launches do not follow
        // the record.
        if (Record->isDeclaration())
          return specError("kernel '" + demangle(F->getName()) +
                           "': host code in this file never reads its launch "
                           "record; launch it with ENERGY_BLOCK_DIM(" +
                           recordKernelName(Record->getName())
                               .value_or(demangle(Record->getName())) +
                           ")");
        A->Record = Record->getName().str();
      } else {
        Record = M.getNamedGlobal(A->Record);
      }
      if (A->Record.empty())
        return specError("energy.tune: missing record=");
      if (Record)
        if (Error E = checkLaunchRecord(*Record))
          return E;
      Info.Kernels[F] = *A;
    } else if (Text->consume_front("energy.shape:")) {
      auto *GV = dyn_cast<GlobalVariable>(Target);
      if (!GV || GV->getAddressSpace() != 3)
        return specError("energy.shape annotation on a non-shared variable");
      auto Dims = parseShapeSpec(*Text);
      if (!Dims)
        return Dims.takeError();
      Info.SharedShapes[GV] = *Dims;
    }
  }
  return Info;
}

/// Functions whose instructions use V, looking through constant expressions.
static void usingFunctions(const Value *V, SmallPtrSetImpl<const Function *> &Out) {
  for (const User *U : V->users()) {
    if (auto *I = dyn_cast<Instruction>(U))
      Out.insert(I->getFunction());
    else if (isa<ConstantExpr>(U))
      usingFunctions(U, Out);
  }
}

static void collectCallTree(Function &F, SmallPtrSetImpl<Function *> &Seen,
                            std::vector<Function *> &Out) {
  if (!Seen.insert(&F).second)
    return;
  Out.push_back(&F);
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction())
        if (!Callee->isDeclaration())
          collectCallTree(*Callee, Seen, Out);
}

std::vector<Function *> callTree(Function &F) {
  SmallPtrSet<Function *, 8> Seen;
  std::vector<Function *> Out;
  collectCallTree(F, Seen, Out);
  return Out;
}

std::vector<const TunableVar *> tunablesReadBy(Function &F,
                                               const ModuleTuningInfo &Info) {
  std::vector<Function *> Tree = callTree(F);
  SmallPtrSet<const Function *, 8> Reachable(Tree.begin(), Tree.end());
  std::vector<const TunableVar *> Out;
  for (const TunableVar &T : Info.Tunables) {
    SmallPtrSet<const Function *, 8> Users;
    usingFunctions(T.Var, Users);
    if (llvm::any_of(Users, [&](const Function *U) {
          return Reachable.contains(U);
        }))
      Out.push_back(&T);
  }
  return Out;
}

std::string kernelDisplayName(const Function &F, const ModuleTuningInfo &Info) {
  auto It = Info.Kernels.find(&F);
  if (It == Info.Kernels.end())
    return F.getName().str();
  return recordKernelName(It->second.Record).value_or(F.getName().str());
}

std::vector<std::string> kernelNames(const Function &F,
                                     const ModuleTuningInfo &Info) {
  std::vector<std::string> Names = {kernelDisplayName(F, Info),
                                    F.getName().str()};
  std::string Mangled = F.getName().str(); // D points into it
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()))
    return Names;
  Names.push_back(demangle(F.getName()));
  for (char *Part : {D.getFunctionName(nullptr, nullptr),
                     D.getFunctionBaseName(nullptr, nullptr)}) {
    if (Part)
      Names.push_back(Part);
    std::free(Part);
  }
  return Names;
}

bool ForcedConfig::sameConfig(const ForcedConfig &Other) const {
  auto Sorted = [](auto V) { // a copy, sorted
    llvm::sort(V);
    return V;
  };
  return Block == Other.Block && Grid == Other.Grid &&
         Sorted(Values) == Sorted(Other.Values) &&
         Sorted(Arguments) == Sorted(Other.Arguments) &&
         Resources == Other.Resources;
}

/// The workload: the option, else ENERGY_WORKLOAD(kernel), else the default.
uint64_t workItems(const Module &M, StringRef Name, uint64_t Option) {
  if (Option)
    return Option;
  if (const GlobalVariable *GV =
          M.getGlobalVariable((WorkloadPrefix + Name).str()))
    if (auto *C = dyn_cast_or_null<ConstantInt>(
            GV->hasInitializer() ? GV->getInitializer() : nullptr))
      if (C->getZExtValue() > 0)
        return C->getZExtValue();
  return DefaultWorkItems;
}

/// The block shape recorded in the source (ENERGY_KERNEL_BLOCK's default).
std::optional<BlockShape> recordedBlock(const Module &M, StringRef Record) {
  const GlobalVariable *GV = M.getGlobalVariable(Record);
  auto *Init = GV && GV->hasInitializer()
                   ? dyn_cast<ConstantStruct>(GV->getInitializer())
                   : nullptr;
  auto *Dims = Init ? dyn_cast<ConstantDataArray>(Init->getOperand(0)) : nullptr;
  if (!Dims || Dims->getNumElements() != 3)
    return std::nullopt;
  BlockShape B;
  for (unsigned I = 0; I < 3; ++I)
    B[I] = static_cast<unsigned>(Dims->getElementAsInteger(I));
  if (!B[0] || !B[1] || !B[2])
    return std::nullopt;
  return B;
}

/// GV's initializer as integers of Bits bits, if it is an array of them:
/// clang writes an array of zeros ({0, 0}, "") as a zeroinitializer, which
/// is no ConstantDataArray.
static std::optional<SmallVector<uint64_t, 8>>
integerArray(const GlobalVariable &GV, unsigned Bits) {
  auto *Type = dyn_cast<ArrayType>(GV.getValueType());
  if (!GV.hasInitializer() || !Type ||
      !Type->getElementType()->isIntegerTy(Bits))
    return std::nullopt;
  SmallVector<uint64_t, 8> Values;
  for (unsigned I = 0; I < Type->getNumElements(); ++I) {
    auto *C = dyn_cast_or_null<ConstantInt>(
        GV.getInitializer()->getAggregateElement(I));
    if (!C)
      return std::nullopt;
    Values.push_back(C->getZExtValue());
  }
  return Values;
}

/// ENERGY_BLOCK_RULES(kernel, "..."), if the source states it.
Expected<std::optional<StatedBlockRules>>
statedRules(const Module &M, StringRef Name) {
  const GlobalVariable *GV = M.getGlobalVariable((RulesPrefix + Name).str());
  if (!GV)
    return std::nullopt;
  auto Chars = integerArray(*GV, 8);
  if (!Chars || !llvm::is_contained(*Chars, 0u))
    return specError("'" + GV->getName() +
                     "' must be a string (ENERGY_BLOCK_RULES)");
  // Up to the terminating NUL: "" is no rule, which parseBlockRules says.
  std::string Text(Chars->begin(), llvm::find(*Chars, 0u));
  auto Rules = parseBlockRules(Text);
  if (!Rules)
    return Rules.takeError();
  return std::optional<StatedBlockRules>(std::move(*Rules));
}

/// ENERGY_DYNAMIC_SHARED(kernel, per thread, per block), if declared.
Expected<std::optional<std::array<unsigned, 2>>>
declaredDynamicShared(const Module &M, StringRef Name) {
  const GlobalVariable *GV =
      M.getGlobalVariable((DynamicSharedPrefix + Name).str());
  if (!GV)
    return std::nullopt;
  auto Bytes = integerArray(*GV, 32);
  if (!Bytes || Bytes->size() != 2)
    return specError("'" + GV->getName() +
                     "' must be unsigned[2] {bytes per thread, bytes per "
                     "block} (ENERGY_DYNAMIC_SHARED)");
  return std::optional<std::array<unsigned, 2>>(
      {unsigned((*Bytes)[0]), unsigned((*Bytes)[1])});
}

/// ENERGY_GRID(kernel, x, y, z), if declared.
Expected<std::optional<std::array<uint64_t, 3>>> declaredGrid(const Module &M,
                                                              StringRef Name) {
  const GlobalVariable *GV = M.getGlobalVariable((GridPrefix + Name).str());
  if (!GV)
    return std::nullopt;
  if (M.getGlobalVariable((WorkloadPrefix + Name).str()))
    return specError("kernel '" + Name +
                     "' declares both ENERGY_WORKLOAD and ENERGY_GRID: its "
                     "grid either follows the block or is fixed, not both");
  auto *Data = GV->hasInitializer()
                   ? dyn_cast<ConstantDataArray>(GV->getInitializer())
                   : nullptr;
  std::array<uint64_t, 3> Grid = {0, 0, 0};
  if (Data && Data->getElementType()->isIntegerTy(64) &&
      Data->getNumElements() == 3)
    for (unsigned D = 0; D < 3; ++D)
      Grid[D] = Data->getElementAsInteger(D);
  if (llvm::is_contained(Grid, 0u) || Grid[0] > MaxGridBlocksX ||
      Grid[1] > MaxGridBlocksYZ || Grid[2] > MaxGridBlocksYZ)
    return specError("'" + GV->getName() +
                     "' must be three grid sizes, x in 1.." +
                     Twine(MaxGridBlocksX) + ", y and z in 1.." +
                     Twine(MaxGridBlocksYZ) + " (ENERGY_GRID)");
  return std::optional<std::array<uint64_t, 3>>(Grid);
}

Expected<ForcedConfig> parseForcedConfig(StringRef S) {
  auto Bad = [&](const Twine &Why) {
    return specError("bad -energy-force-config '" + S + "': " + Why +
                     " (expected <kernel>:<block>[,grid=GXxGYxGZ]"
                     "[,argN=V...][,registers=R[,stack_frame=B]"
                     "[,spill_stores=B][,spill_loads=B]][,NAME=V...], e.g. "
                     "sgemm:16x16,TILE=16)");
  };
  auto [Kernel, Rest] = S.split(':');
  if (Kernel.empty() || Rest.empty())
    return Bad("missing kernel or block");
  // ':' also separates, for pass parameters, where the pipeline parser
  // splits on ','. An empty field (a doubled or trailing separator) is a
  // typo, not nothing.
  SmallVector<StringRef, 4> Parts;
  for (StringRef Tail = Rest;;) {
    size_t At = Tail.find_first_of(",:");
    Parts.push_back(Tail.take_front(At));
    if (At == StringRef::npos)
      break;
    Tail = Tail.drop_front(At + 1);
  }
  if (llvm::is_contained(Parts, ""))
    return Bad("an empty field (a doubled or trailing ',' or ':')");
  ForcedConfig C;
  C.Kernel = Kernel.str();
  auto Block = parseBlockShape(Parts[0]);
  if (!Block)
    return Bad("block '" + Parts[0] + "' is not N, NxM or NxMxK");
  C.Block = *Block;
  // The binary's resources, as its toolchain reports them: each at most once.
  KernelResources Resources;
  StringMap<unsigned *> ResourceFields = {
      {"registers", &Resources.Registers},
      {"stack_frame", &Resources.StackFrameBytes},
      {"spill_stores", &Resources.SpillStoreBytes},
      {"spill_loads", &Resources.SpillLoadBytes}};
  StringSet<> ResourcesGiven;
  for (StringRef Part : ArrayRef<StringRef>(Parts).drop_front()) {
    auto [Name, Value] = Part.split('=');
    if (auto It = ResourceFields.find(Name); It != ResourceFields.end()) {
      if (!ResourcesGiven.insert(Name).second)
        return Bad(Name + " is given twice");
      if (Value.getAsInteger(10, *It->second))
        return Bad("'" + Part + "' is not " + Name + "=integer >= 0");
      continue;
    }
    if (Name == "grid") {
      if (C.Grid)
        return Bad("grid is given twice");
      // CUDA's limits: 2^31-1 blocks along x, 65535 along y and z.
      C.Grid = parseDims(Value, MaxGridBlocksX);
      if (!C.Grid || (*C.Grid)[1] > MaxGridBlocksYZ ||
          (*C.Grid)[2] > MaxGridBlocksYZ)
        return Bad("grid '" + Value + "' is not N, NxM or NxMxK (x 1 to "
                   "2^31-1, y and z 1 to 65535)");
      continue;
    }
    StringRef Index = Name;
    unsigned ArgNo;
    if (Index.consume_front("arg") && !Index.getAsInteger(10, ArgNo)) {
      unsigned V;
      if (ArgNo == 0)
        return Bad("arguments are counted from 1 ('arg0')");
      if (Value.getAsInteger(10, V))
        return Bad("'" + Part + "' is not argN=integer >= 0");
      if (llvm::any_of(C.Arguments, [&](auto &A) { return A.first == ArgNo - 1; }))
        return Bad("argument " + Twine(ArgNo) + " is given twice");
      C.Arguments.emplace_back(ArgNo - 1, V);
      continue;
    }
    int V;
    if (Name.empty() || Value.getAsInteger(10, V))
      return Bad("'" + Part + "' is not NAME=integer");
    if (llvm::any_of(C.Values, [&](const auto &NV) { return NV.first == Name; }))
      return Bad("tunable '" + Name + "' is given twice");
    C.Values.emplace_back(Name.str(), V);
  }
  if (!ResourcesGiven.empty()) {
    if (!ResourcesGiven.contains("registers"))
      return Bad("stack_frame, spill_stores and spill_loads need registers=");
    if (Resources.Registers < 1 || Resources.Registers > 255)
      return Bad("registers=" + Twine(Resources.Registers) +
                 " is not 1 to 255 (a thread's registers)");
    C.Resources = Resources;
  }
  return C;
}

} // namespace energy
