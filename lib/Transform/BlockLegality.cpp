//===- BlockLegality.cpp - Block shapes a kernel is correct for -----------===//

#include "BlockLegality.h"

#include "DominatingConditions.h"
#include "ThreadDependence.h"
#include "WorkUnits.h"

#include "energy/FeatureAnalysis.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

#include <algorithm>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace energy {

static const char *axisName(int Axis) {
  return Axis == 0 ? "x" : Axis == 1 ? "y" : "z";
}

namespace {

/// A value taken apart into threadIdx/blockDim terms; anything else is
/// dropped (read as 0), so checks on it are necessary conditions only.
struct Affine {
  std::map<std::pair<int, int>, int64_t> Terms; // (tid axis, ntid axis)
  int64_t Constant = 0;

  bool isConstant() const { return Terms.empty(); }
  void add(const Affine &O, int64_t Sign) {
    for (auto [Key, Coef] : O.Terms)
      Terms[Key] += Sign * Coef;
    Constant += Sign * O.Constant;
  }
  void scale(int64_t K) {
    for (auto &[Key, Coef] : Terms)
      Coef *= K;
    Constant *= K;
  }
};

/// threadIdx.axis or blockDim.axis read by V, if it is one.
std::optional<std::pair<SpecialRegister, unsigned>> sreg(const Value *V) {
  auto Read = readsSpecialRegister(V);
  if (!Read || (Read->Reg != SpecialRegister::ThreadIdx &&
                Read->Reg != SpecialRegister::BlockDim))
    return std::nullopt;
  return std::make_pair(Read->Reg, Read->Axis);
}

Affine decompose(const Value *V, unsigned Depth = 0) {
  Affine A;
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    A.Constant = C->getSExtValue();
    return A;
  }
  if (Depth > 12)
    return A;
  if (auto R = sreg(V)) {
    auto Key = R->first == SpecialRegister::ThreadIdx
                   ? std::make_pair(int(R->second), -1)
                   : std::make_pair(-1, int(R->second));
    A.Terms[Key] = 1;
    return A;
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return A;
  if (isa<ZExtInst, SExtInst, TruncInst>(I))
    return decompose(I->getOperand(0), Depth + 1);
  const auto *B = dyn_cast<BinaryOperator>(I);
  if (!B)
    return A;
  Affine L = decompose(B->getOperand(0), Depth + 1);
  Affine R = decompose(B->getOperand(1), Depth + 1);
  switch (B->getOpcode()) {
  case Instruction::Add:
    L.add(R, 1);
    return L;
  case Instruction::Or:
    if (!cast<PossiblyDisjointInst>(B)->isDisjoint())
      return A;
    L.add(R, 1);
    return L;
  case Instruction::Sub:
    L.add(R, -1);
    return L;
  case Instruction::Shl:
    if (!R.isConstant() || R.Constant < 0 || R.Constant > 30)
      return A;
    L.scale(int64_t(1) << R.Constant);
    return L;
  case Instruction::Mul: {
    if (R.isConstant()) {
      L.scale(R.Constant);
      return L;
    }
    if (L.isConstant()) {
      R.scale(L.Constant);
      return R;
    }
    // threadIdx.a * blockDim.b, the row-major flattening of a 2-D index.
    if (L.Constant == 0 && R.Constant == 0 && L.Terms.size() == 1 &&
        R.Terms.size() == 1) {
      auto [KL, CL] = *L.Terms.begin();
      auto [KR, CR] = *R.Terms.begin();
      if (KL.second < 0 && KR.first < 0 && KL.first >= 0 && KR.second >= 0)
        A.Terms[{KL.first, KR.second}] = CL * CR;
      else if (KR.second < 0 && KL.first < 0 && KR.first >= 0 && KL.second >= 0)
        A.Terms[{KR.first, KL.second}] = CL * CR;
    }
    return A;
  }
  default:
    return A;
  }
}

bool isDynamicShared(const GlobalVariable &GV) {
  auto *Array = dyn_cast<ArrayType>(GV.getValueType());
  return GV.getAddressSpace() == 3 &&
         (!GV.hasInitializer() || (Array && Array->getNumElements() == 0));
}

/// The static shared array Ptr points into, looking through casts.
const GlobalVariable *sharedArray(const Value *Ptr) {
  auto *GV = dyn_cast<GlobalVariable>(Ptr->stripPointerCasts());
  if (!GV || GV->getAddressSpace() != 3 || !GV->getValueType()->isArrayTy() ||
      isDynamicShared(*GV))
    return nullptr;
  return GV;
}

/// `threadIdx.axis < C` on the true edge of a dominating branch caps the
/// thread index on that axis at C - 1.
void applyGuards(const Instruction &Access, const DominatorTree &DT,
                 std::array<uint64_t, 3> &Cap) {
  anyDominatingCondition(Access, DT, [&](const Value *Cond, bool Held) {
    ICmpInst::Predicate Pred;
    Value *X;
    ConstantInt *C;
    if (!Held || !match(Cond, m_ICmp(Pred, m_Value(X), m_ConstantInt(C))))
      return false;
    Affine A = decompose(X);
    if (A.Constant != 0 || A.Terms.size() != 1 ||
        A.Terms.begin()->first.second >= 0 || A.Terms.begin()->second != 1)
      return false;
    int Axis = A.Terms.begin()->first.first;
    int64_t Limit = C->getSExtValue();
    if (Pred == ICmpInst::ICMP_ULE || Pred == ICmpInst::ICMP_SLE)
      ++Limit;
    else if (Pred != ICmpInst::ICMP_ULT && Pred != ICmpInst::ICMP_SLT)
      return false;
    if (Limit > 0)
      Cap[Axis] = std::min<uint64_t>(Cap[Axis], uint64_t(Limit));
    return false; // every guard caps
  });
}

/// The bounds one GEP into a static shared array puts on the block.
void boundsOfAccess(const GEPOperator &GEP, const Instruction &At,
                    const DominatorTree &DT,
                    std::vector<SharedIndexBound> &Out) {
  const GlobalVariable *Array = sharedArray(GEP.getPointerOperand());
  if (!Array)
    return;
  std::array<uint64_t, 3> Cap = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
  applyGuards(At, DT, Cap);
  auto Add = [&](int Level, int64_t Scale, const Affine &A) {
    if (A.isConstant())
      return;
    SharedIndexBound B;
    B.Array = Array;
    B.Level = Level;
    B.Scale = Scale;
    for (auto [Key, Coef] : A.Terms)
      if (Coef)
        B.Terms.push_back({Key.first, Key.second, Coef});
    if (B.Terms.empty())
      return;
    B.Constant = A.Constant;
    B.TidCap = Cap;
    B.ReadOnly = llvm::all_of(GEP.users(),
                              [](const User *U) { return isa<LoadInst>(U); });
    B.Where = sourceLocation(At.getDebugLoc());
    Out.push_back(std::move(B));
  };
  const DataLayout &DL = Array->getParent()->getDataLayout();
  // Typed form on the array itself: one bound per dimension.
  if (GEP.getSourceElementType() == Array->getValueType()) {
    auto Idx = GEP.idx_begin();
    if (Idx == GEP.idx_end() || !match(Idx->get(), m_Zero()))
      return;
    int Level = 0;
    for (++Idx; Idx != GEP.idx_end(); ++Idx, ++Level)
      Add(Level, 1, decompose(Idx->get()));
    return;
  }
  // Flattened form: the byte offset stays inside the array.
  if (GEP.getNumIndices() != 1)
    return;
  Add(-1, DL.getTypeAllocSize(GEP.getSourceElementType()),
      decompose(GEP.idx_begin()->get()));
}

/// blockDim.axis flows into a loop that halves it (x >>= 1, x /= 2).
bool halvesBlockDim(const Function &F, unsigned Axis) {
  DenseSet<const Value *> FromNtid;
  SmallVector<const Value *, 16> Work;
  for (const Instruction &I : instructions(F))
    if (auto R = sreg(&I);
        R && R->first == SpecialRegister::BlockDim && R->second == Axis)
      Work.push_back(&I);
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!FromNtid.insert(V).second)
      continue;
    for (const User *U : V->users())
      if (isa<CastInst, BinaryOperator, PHINode, SelectInst>(U))
        Work.push_back(U);
  }
  for (const Value *V : FromNtid) {
    const auto *Phi = dyn_cast<PHINode>(V);
    if (!Phi)
      continue;
    for (const Value *In : Phi->incoming_values()) {
      const Value *Step = In;
      while (auto *Cast = dyn_cast<CastInst>(Step))
        Step = Cast->getOperand(0);
      if (match(Step, m_LShr(m_Specific(Phi), m_Value())) ||
          match(Step, m_AShr(m_Specific(Phi), m_Value())) ||
          match(Step, m_UDiv(m_Specific(Phi), m_Value())) ||
          match(Step, m_SDiv(m_Specific(Phi), m_Value())))
        return true;
    }
  }
  return false;
}

/// A warp-synchronous intrinsic called with the full 0xffffffff mask.
bool usesFullWarpMask(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || Call->arg_empty())
    return false;
  StringRef Name = Callee->getName();
  if (!Name.consume_front("llvm.nvvm."))
    return false;
  bool Synced = Name.starts_with("shfl.sync") || Name.starts_with("vote.") ||
                Name.starts_with("match.") || Name.starts_with("redux.sync") ||
                Name.starts_with("bar.warp.sync");
  return Synced && match(Call->getArgOperand(0), m_AllOnes());
}

} // namespace

namespace {
/// The special registers and dynamic shared memory a kernel's code reads.
struct Reads {
  std::array<bool, 3> Tid = {}, Ntid = {};
  bool DynamicShared = false;

  void add(const Instruction &I) {
    if (auto R = sreg(&I))
      (R->first == SpecialRegister::ThreadIdx ? Tid : Ntid)[R->second] = true;
    for (const Value *Op : I.operands())
      if (auto *GV = dyn_cast<GlobalVariable>(Op->stripPointerCasts());
          GV && isDynamicShared(*GV))
        DynamicShared = true;
  }

  /// What the reads alone decide.
  void apply(BlockLegality &L) const {
    L.DynamicShared = DynamicShared;
    for (unsigned Axis = 0; Axis < 3; ++Axis)
      L.AssumesExtent[Axis] = Tid[Axis] && !Ntid[Axis];
    if (Tid[2] || Ntid[2]) {
      L.DefaultOnly = true;
      L.DefaultOnlyReason = "the kernel reads threadIdx.z or blockDim.z, and "
                            "3-D shapes are not searched";
    }
  }
};
} // namespace

BlockLegality analyzeRegisterReads(ArrayRef<Function *> CallTree) {
  Reads R;
  for (const Function *F : CallTree)
    for (const Instruction &I : instructions(*F))
      R.add(I);
  BlockLegality L;
  R.apply(L);
  return L;
}

BlockLegality analyzeBlockLegality(const Function &F, unsigned WarpSize) {
  BlockLegality L;
  Reads R;
  DominatorTree DT(const_cast<Function &>(F));
  for (const Instruction &I : instructions(F)) {
    R.add(I);
    if (usesFullWarpMask(I))
      L.ThreadMultiple = WarpSize;
    for (const Value *Op : I.operands())
      if (auto *GEP = dyn_cast<GEPOperator>(Op); GEP && !isa<Instruction>(Op))
        boundsOfAccess(*GEP, I, DT, L.Bounds); // a constant-expression GEP
    if (auto *GEP = dyn_cast<GEPOperator>(&I))
      boundsOfAccess(*GEP, I, DT, L.Bounds);
  }
  R.apply(L);
  for (unsigned Axis = 0; Axis < 3; ++Axis)
    L.PowerOfTwo[Axis] = R.Ntid[Axis] && halvesBlockDim(F, Axis);
  return L;
}

Expected<StatedBlockRules> parseBlockRules(StringRef Spec) {
  auto Bad = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "ENERGY_BLOCK_RULES \"" + Spec + "\": " + Why +
                                 " (expected pow2, max=N, multiple=N or "
                                 "shapes=A,B,..., separated by ';')");
  };
  StatedBlockRules R;
  R.Spec = Spec.str();
  SmallVector<StringRef, 4> Items;
  Spec.split(Items, ';', -1, /*KeepEmpty=*/false);
  if (Items.empty())
    return Bad("no rule");
  for (StringRef Item : Items) {
    auto [Key, Value] = Item.trim().split('=');
    Key = Key.trim();
    Value = Value.trim();
    if (Key == "pow2" && Value.empty()) {
      R.PowerOfTwo = true;
    } else if (Key == "max" || Key == "multiple") {
      unsigned N;
      if (Value.getAsInteger(10, N) || N == 0)
        return Bad("'" + Key + "' needs a positive integer");
      (Key == "max" ? R.MaxThreads : R.Multiple) = N;
    } else if (Key == "shapes") {
      SmallVector<StringRef, 8> Shapes;
      Value.split(Shapes, ',');
      for (StringRef S : Shapes) {
        auto Shape = parseBlockShape(S.trim());
        if (!Shape)
          return Bad("bad shape '" + S.trim() + "'");
        R.Shapes.push_back(*Shape);
      }
    } else {
      return Bad("unknown rule '" + Item.trim() + "'");
    }
  }
  return R;
}

namespace {
/// A CUB block primitive: where its BLOCK_DIM_Y and BLOCK_DIM_Z template
/// arguments sit (BLOCK_DIM_X is the second everywhere).
struct CubPrimitive {
  StringLiteral Name;
  unsigned Y, Z;
};
constexpr CubPrimitive CubPrimitives[] = {
    {"BlockReduce", 3, 4},        {"BlockScan", 3, 4},
    {"BlockLoad", 4, 5},          {"BlockStore", 4, 5},
    {"BlockExchange", 4, 5},      {"BlockRadixSort", 8, 9},
    {"BlockHistogram", 5, 6},     {"BlockDiscontinuity", 2, 3},
    {"BlockAdjacentDifference", 2, 3}, {"BlockShuffle", 2, 3},
    {"BlockMergeSort", 4, 5},     {"BlockRunLengthDecode", 5, 6},
};
} // namespace

/// The template arguments of the name that opens at Text[Open] ('<'),
/// split at the top level; empty when the brackets do not close.
static SmallVector<StringRef, 8> templateArguments(StringRef Text,
                                                   size_t Open) {
  SmallVector<StringRef, 8> Args;
  unsigned Depth = 0;
  size_t Start = Open + 1;
  for (size_t I = Open; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '<' || C == '(')
      ++Depth;
    else if ((C == '>' || C == ')') && --Depth == 0) {
      Args.push_back(Text.slice(Start, I).trim());
      return Args;
    } else if (C == ',' && Depth == 1) {
      Args.push_back(Text.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  return {};
}

/// "256" or "256u" as a number.
static std::optional<unsigned> templateInteger(StringRef Arg) {
  Arg = Arg.rtrim("ulUL");
  unsigned N;
  if (Arg.getAsInteger(10, N) || N == 0)
    return std::nullopt;
  return N;
}

/// The pins a C++ name mentions (a demangled function, a type).
static void pinsIn(StringRef Text, std::vector<LibraryPin> &Pins) {
  auto Add = [&](LibraryPin Pin) {
    if (llvm::none_of(Pins, [&](const LibraryPin &Old) {
          return Old.Block == Pin.Block && Old.Multiple == Pin.Multiple;
        }))
      Pins.push_back(std::move(Pin));
  };
  for (size_t At = Text.find("cub::"); At != StringRef::npos;
       At = Text.find("cub::", At + 1)) {
    // cub::<version namespace>::BlockReduce<int, 256, ...>
    StringRef Rest = Text.drop_front(At + 5);
    while (true) {
      size_t Colons = Rest.find("::");
      size_t Open = Rest.find('<');
      if (Colons == StringRef::npos || (Open != StringRef::npos && Open < Colons))
        break;
      Rest = Rest.drop_front(Colons + 2);
    }
    size_t Open = Rest.find('<');
    if (Open == StringRef::npos)
      continue;
    StringRef Name = Rest.take_front(Open);
    const auto *Known = llvm::find_if(
        CubPrimitives, [&](const CubPrimitive &P) { return P.Name == Name; });
    if (Known == std::end(CubPrimitives))
      continue;
    auto Args = templateArguments(Rest, Open);
    if (Args.size() < 2)
      continue;
    auto Dim = [&](unsigned Index) -> std::optional<unsigned> {
      return Index < Args.size() ? templateInteger(Args[Index]) : 1u;
    };
    auto X = templateInteger(Args[1]);
    auto Y = Dim(Known->Y), Z = Dim(Known->Z);
    if (!X || !Y || !Z)
      continue;
    Add({"cub::" + Name.str() + "<" + Args[0].str() + ", " + Args[1].str() +
             ">",
         BlockShape{*X, *Y, *Z}, 0});
  }
  for (StringRef Tile : {"tiled_partition<", "thread_block_tile<"})
    for (size_t At = Text.find(Tile); At != StringRef::npos;
         At = Text.find(Tile, At + 1)) {
      if (!Text.take_front(At).contains("cooperative_groups::"))
        continue;
      auto Args = templateArguments(Text, At + Tile.size() - 1);
      auto N = Args.empty() ? std::nullopt : templateInteger(Args[0]);
      if (N && *N > 1)
        Add({"cooperative_groups::" + Tile.drop_back().str() + "<" +
                 std::to_string(*N) + ">",
             std::nullopt, *N});
    }
}

std::vector<LibraryPin> libraryPins(ArrayRef<Function *> CallTree) {
  std::vector<LibraryPin> Pins;
  for (const Function *F : CallTree) {
    pinsIn(llvm::demangle(F->getName()), Pins);
    for (const GlobalVariable *GV : sharedGlobalsUsedBy(*F))
      if (auto *Struct = dyn_cast<StructType>(GV->getValueType());
          Struct && Struct->hasName())
        pinsIn(Struct->getName(), Pins);
  }
  return Pins;
}

static std::string assumedExtentReason(unsigned Axis) {
  return std::string("the kernel reads threadIdx.") + axisName(Axis) +
         " but not blockDim." + axisName(Axis) +
         ", so its code assumes the block size";
}

static bool isPowerOf2(unsigned X) { return X && !(X & (X - 1)); }

/// "transpose::tile" for the function-local static _ZZ9transposeE4tile.
static std::string arrayName(const GlobalVariable &GV) {
  return llvm::demangle(GV.getName());
}

/// A guarded read at threadIdx.x + K (K > 0, threadIdx.x < C) reads what
/// threads C .. C+K-1 wrote: the block needs at least C + K threads.
static std::optional<std::string> unwrittenRead(const SharedIndexBound &B,
                                                const BlockShape &Block) {
  if (!B.ReadOnly || B.Constant <= 0 || B.TidCap[0] == UINT64_MAX ||
      B.Terms.size() != 1 || B.Terms[0].TidAxis != 0 ||
      B.Terms[0].NtidAxis >= 0 || B.Terms[0].Coef != 1)
    return std::nullopt;
  uint64_t Needed = B.TidCap[0] + uint64_t(B.Constant);
  if (Block[0] >= Needed)
    return std::nullopt;
  return "threads below " + std::to_string(B.TidCap[0]) + " read '" +
         arrayName(*B.Array) + "' at threadIdx.x + " +
         std::to_string(B.Constant) + ", which only a block of " +
         std::to_string(Needed) + " threads or more has written" +
         (B.Where.empty() ? std::string() : " (" + B.Where + ")");
}

static std::string describeBound(const SharedIndexBound &B) {
  std::string S = "index ";
  for (const IndexTerm &T : B.Terms) {
    if (!StringRef(S).ends_with("index "))
      S += T.Coef < 0 ? " - " : " + ";
    else if (T.Coef < 0)
      S += "-";
    if (std::abs(T.Coef) != 1)
      S += std::to_string(std::abs(T.Coef)) + "*";
    if (T.TidAxis >= 0)
      S += std::string("threadIdx.") + axisName(T.TidAxis);
    if (T.TidAxis >= 0 && T.NtidAxis >= 0)
      S += "*";
    if (T.NtidAxis >= 0)
      S += std::string("blockDim.") + axisName(T.NtidAxis);
  }
  if (B.Constant)
    S +=
        (B.Constant < 0 ? " - " : " + ") + std::to_string(std::abs(B.Constant));
  return S;
}

void requireDeclaredDynamicShared(BlockLegality &L, bool Declared,
                                  StringRef Memory, StringRef Declaration) {
  if (!L.DynamicShared || Declared || L.UndeclaredDynamicShared)
    return;
  auto Spelled = [](StringRef S) {
    return S.empty() ? std::string() : " (" + S.str() + ")";
  };
  L.UndeclaredDynamicShared = "the kernel uses dynamic shared memory" +
                              Spelled(Memory) +
                              " whose size per block is not declared" +
                              Spelled(Declaration);
  if (!L.DefaultOnly) {
    L.DefaultOnly = true;
    L.DefaultOnlyReason = *L.UndeclaredDynamicShared;
  }
}

std::optional<std::string> reliesOnDefault(const BlockLegality &L,
                                           bool FreeShape) {
  if (L.DefaultOnly)
    return L.DefaultOnlyReason;
  for (unsigned Axis = 0; Axis < 3; ++Axis)
    if (FreeShape && L.AssumesExtent[Axis])
      return assumedExtentReason(Axis);
  return std::nullopt;
}

BlockLegalityCheck::BlockLegalityCheck(BlockLegality Inferred,
                                       std::optional<StatedBlockRules> Stated,
                                       const BlockShape &Default,
                                       bool FreeShape, ShapeFacts Facts)
    : Inferred(std::move(Inferred)), Stated(std::move(Stated)),
      Default(Default), FreeShape(FreeShape), Facts(std::move(Facts)) {
  const ShapeFacts &K = this->Facts;
  if (K.RequiredBlock)
    Restrictions.push_back({"block " + formatBlockShape(*K.RequiredBlock),
                            "__launch_bounds__ in the source (reqntid)"});
  else if (K.MaxThreads)
    Restrictions.push_back(
        {"at most " + std::to_string(K.MaxThreads) + " threads",
         "__launch_bounds__(" + std::to_string(K.MaxThreads) +
             ") in the source"});
  for (const LibraryPin &Pin : K.Pins)
    Restrictions.push_back(
        {Pin.Block ? "block " + formatBlockShape(*Pin.Block)
                   : "threads a multiple of " + std::to_string(Pin.Multiple),
         Pin.Primitive + " is written for " +
             (Pin.Block ? std::string("that block") : "whole tiles")});
  if (FreeShape && this->Inferred.UndeclaredDynamicShared)
    Restrictions.push_back({"the declared default shape only",
                            *this->Inferred.UndeclaredDynamicShared});
  if (this->Stated) {
    Restrictions.push_back({"stated rules \"" + this->Stated->Spec + "\"",
                            "ENERGY_BLOCK_RULES in the source; they replace "
                            "the inferred restrictions"});
    return;
  }
  if (FreeShape) {
    if (proven())
      Restrictions.push_back(
          {"any shape (proven correct)",
           "every thread's work follows its global index (blockIdx * "
           "blockDim + threadIdx, grid-stride steps) behind a bound check, "
           "and nothing else depends on the block"});
    else if (!this->Inferred.UndeclaredDynamicShared)
      Restrictions.push_back({"the declared default shape only",
                              "not proven correct at another shape: " +
                                  notProven() +
                                  "; ENERGY_BLOCK_RULES declares the shapes "
                                  "it is correct for"});
  }
  addPatternRestrictions();
}

std::string BlockLegalityCheck::notProven() const {
  if (!Facts.Proof)
    return "no proof was attempted";
  if (!Facts.Proof->Proven)
    return Facts.Proof->describe();
  return "the grid is fixed whatever the block (ENERGY_GRID), and no "
         "grid-stride loop covers the work at another block";
}

void BlockLegalityCheck::addPatternRestrictions() {
  const BlockLegality &L = Inferred;
  if (L.DefaultOnly && L.DefaultOnlyReason != L.UndeclaredDynamicShared)
    Restrictions.push_back(
        {"the declared default shape only", L.DefaultOnlyReason});
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    if (L.PowerOfTwo[Axis])
      Restrictions.push_back(
          {std::string("block.") + axisName(Axis) + " a power of two",
           std::string("a loop halves blockDim.") + axisName(Axis)});
    // Kernels whose block is a pair of tunables read it in the code.
    if (FreeShape && L.AssumesExtent[Axis])
      Restrictions.push_back({std::string("block.") + axisName(Axis) + " = " +
                                  std::to_string(Default[Axis]) +
                                  " (the declared default)",
                              assumedExtentReason(Axis)});
  }
  if (L.ThreadMultiple > 1)
    Restrictions.push_back(
        {"threads a multiple of " + std::to_string(L.ThreadMultiple),
         "warp intrinsics use the full mask 0xffffffff"});
  for (const SharedIndexBound &B : L.Bounds)
    addRestriction({"shared array '" + arrayName(*B.Array) + "' " +
                        describeBound(B) + " within " +
                        (B.Level < 0 ? std::string("its size")
                                     : "dimension " + std::to_string(B.Level)),
                    "the kernel indexes it with the thread index" +
                        (B.Where.empty() ? std::string() : " at " + B.Where)});
}

void BlockLegalityCheck::addRestriction(BlockRestriction R) {
  if (llvm::none_of(Restrictions, [&](const BlockRestriction &Old) {
        return Old.Rule == R.Rule;
      }))
    Restrictions.push_back(std::move(R));
}

bool BlockLegalityCheck::proven() const {
  return FreeShape && !Stated && Facts.Proof && Facts.Proof->Proven &&
         (!Facts.FixedGrid || Facts.Proof->AnyGrid);
}

bool BlockLegalityCheck::defaultOnly() const {
  return FreeShape && (Inferred.UndeclaredDynamicShared.has_value() ||
                       (!Stated && !proven()));
}

std::optional<std::string>
BlockLegalityCheck::factViolation(const BlockShape &Block) const {
  uint64_t Threads = uint64_t(Block[0]) * Block[1] * Block[2];
  if (Facts.RequiredBlock && Block != *Facts.RequiredBlock)
    return "its __launch_bounds__ require block " +
           formatBlockShape(*Facts.RequiredBlock);
  if (Facts.MaxThreads && Threads > Facts.MaxThreads)
    return "its __launch_bounds__ allow at most " +
           std::to_string(Facts.MaxThreads) + " threads";
  for (const LibraryPin &Pin : Facts.Pins) {
    if (Pin.Block && Block != *Pin.Block)
      return Pin.Primitive + " is written for block " +
             formatBlockShape(*Pin.Block);
    if (Pin.Multiple && Threads % Pin.Multiple)
      return Pin.Primitive + " needs a multiple of " +
             std::to_string(Pin.Multiple) + " threads";
  }
  return std::nullopt;
}

std::optional<std::string>
BlockLegalityCheck::violation(const BlockShape &Block,
                              ArrayExtent Extent) const {
  if (auto Why = factViolation(Block))
    return Why;
  if (FreeShape && Inferred.UndeclaredDynamicShared && Block != Default)
    return *Inferred.UndeclaredDynamicShared;
  uint64_t Threads = uint64_t(Block[0]) * Block[1] * Block[2];
  if (Stated) {
    const StatedBlockRules &R = *Stated;
    if (R.PowerOfTwo && !llvm::all_of(Block, isPowerOf2))
      return std::string("the stated rules ask for powers of two");
    if (R.MaxThreads && Threads > R.MaxThreads)
      return "the stated rules allow at most " + std::to_string(R.MaxThreads) +
             " threads";
    if (Threads % R.Multiple)
      return "the stated rules ask for a multiple of " +
             std::to_string(R.Multiple) + " threads";
    if (!R.Shapes.empty() && !llvm::is_contained(R.Shapes, Block))
      return std::string("the stated rules list other shapes");
    return std::nullopt;
  }
  if (FreeShape) {
    if (Block == Default || proven())
      return std::nullopt;
    // What a pattern says is wrong with this shape comes first: it is the
    // more specific reason.
    std::string Why = "it is not proven correct at another shape (" +
                      notProven() + ")";
    if (auto Wrong = patternViolation(Block, Extent))
      return *Wrong + "; " + Why;
    return Why;
  }
  return patternViolation(Block, Extent);
}

std::optional<std::string>
BlockLegalityCheck::patternViolation(const BlockShape &Block,
                                     ArrayExtent Extent) const {
  uint64_t Threads = uint64_t(Block[0]) * Block[1] * Block[2];
  const BlockLegality &L = Inferred;
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    if (L.PowerOfTwo[Axis] && !isPowerOf2(Block[Axis]))
      return std::string("a loop halves blockDim.") + axisName(Axis) +
             ", so it must be a power of two";
    if (FreeShape && L.AssumesExtent[Axis] && Block[Axis] != Default[Axis])
      return std::string("the kernel assumes block.") + axisName(Axis) +
             " = " + std::to_string(Default[Axis]);
  }
  if (Threads % L.ThreadMultiple)
    return "full-mask warp intrinsics need a multiple of " +
           std::to_string(L.ThreadMultiple) + " threads";
  for (const SharedIndexBound &B : L.Bounds) {
    int64_t Max = B.Constant;
    for (const IndexTerm &T : B.Terms) {
      int64_t Tid = 1;
      if (T.TidAxis >= 0)
        Tid =
            int64_t(std::min<uint64_t>(Block[T.TidAxis], B.TidCap[T.TidAxis])) -
            1;
      int64_t Ntid = T.NtidAxis >= 0 ? int64_t(Block[T.NtidAxis]) : 1;
      int64_t Term = T.Coef * Tid * Ntid;
      // A thread index ranges from 0: a negative term is largest at 0.
      Max += T.TidAxis >= 0 ? std::max<int64_t>(Term, 0) : Term;
    }
    if (auto Why = unwrittenRead(B, Block))
      return Why;
    uint64_t Limit = Extent(*B.Array, B.Level);
    if (Max >= 0 && uint64_t((Max + 1) * B.Scale) > Limit)
      return "shared array '" + arrayName(*B.Array) + "' (" + describeBound(B) +
             ") would be indexed past its end" +
             (B.Where.empty() ? std::string() : " at " + B.Where);
  }
  return std::nullopt;
}

} // namespace energy
