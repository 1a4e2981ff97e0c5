//===- GpuKernelFeatures.cpp - KernelFeatures of a gpu.func ---------------===//

#include "GpuKernelFeatures.h"

#include "CallClassifier.h"
#include "FeatureCore.h"
#include "GpuAccessAnalysis.h"
#include "GpuFootprint.h"
#include "GpuLeaderGuards.h"
#include "GpuOpClasses.h"
#include "GpuRegisterPressure.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

using namespace mlir;
using namespace energy::gpudialect;

namespace energy {
namespace {

void addDim(std::string &Dims, gpu::Dimension D) {
  char Axis = "xyz"[static_cast<unsigned>(D)];
  if (Dims.find(Axis) == std::string::npos) {
    Dims.push_back(Axis);
    std::sort(Dims.begin(), Dims.end());
  }
}

//===-- Loops -------------------------------------------------------------===//

/// The launch the features are for, as GpuKernelFeatures.h takes it.
struct LaunchDims {
  std::array<unsigned, 3> Block = {0, 0, 0};
  std::array<uint64_t, 3> Grid = {0, 0, 0};
};

/// A thread's and its block's numbers along x, y, z.
struct Position {
  std::array<int64_t, 3> Thread = {0, 0, 0}, Block = {0, 0, 0};
};

/// V with every value that is not a constant (a kernel argument ...) taken
/// as DefaultExtent (Assumed is then set), through integer arithmetic. The
/// thread and block ids are At's, the first thread's unless given; the
/// launch's extents (block_dim, grid_dim, and global_id, which reads
/// block_dim) are Launch's, nothing where it does not know them: a loop
/// that strides over the launch then gets the default count, as the LLVM
/// adapter gives it without the launch (TripCounts.h).
std::optional<int64_t> assumedValue(Value V, const LaunchDims &Launch,
                                    const Position &At, bool &Assumed,
                                    unsigned Depth = 0) {
  if (auto C = constantInt(V))
    return C;
  Operation *Def = V.getDefiningOp();
  if (!Def || Depth > MaxDepth) {
    Assumed = true;
    return DefaultExtent;
  }
  auto Extent = [](uint64_t E) {
    return E ? std::optional<int64_t>(E) : std::nullopt;
  };
  if (auto Id = dyn_cast<gpu::ThreadIdOp>(Def))
    return At.Thread[static_cast<unsigned>(Id.getDimension())];
  if (auto Id = dyn_cast<gpu::BlockIdOp>(Def))
    return At.Block[static_cast<unsigned>(Id.getDimension())];
  if (isa<gpu::LaneIdOp>(Def))
    return 0;
  if (auto Dim = dyn_cast<gpu::BlockDimOp>(Def))
    return Extent(Launch.Block[static_cast<unsigned>(Dim.getDimension())]);
  if (auto Dim = dyn_cast<gpu::GridDimOp>(Def))
    return Extent(Launch.Grid[static_cast<unsigned>(Dim.getDimension())]);
  if (auto Id = dyn_cast<gpu::GlobalIdOp>(Def)) {
    unsigned Axis = static_cast<unsigned>(Id.getDimension());
    if (!Launch.Block[Axis])
      return std::nullopt;
    return int64_t(Launch.Block[Axis]) * At.Block[Axis] + At.Thread[Axis];
  }
  auto A = [&](unsigned I) {
    return assumedValue(Def->getOperand(I), Launch, At, Assumed, Depth + 1);
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(Def))
    return A(0);
  if (Def->getNumOperands() != 2 ||
      Def->getName().getDialectNamespace() != "arith") {
    Assumed = true;
    return DefaultExtent;
  }
  std::optional<int64_t> L = A(0), R = A(1);
  if (!L || !R)
    return std::nullopt;
  int64_t Out;
  bool Divisible = *R != 0 && !(*L == INT64_MIN && *R == -1);
  auto Checked = [&](bool Overflow) {
    return Overflow ? std::nullopt : std::optional<int64_t>(Out);
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(Def)
      .Case<arith::AddIOp>(
          [&](auto) { return Checked(llvm::AddOverflow(*L, *R, Out)); })
      .Case<arith::SubIOp>(
          [&](auto) { return Checked(llvm::SubOverflow(*L, *R, Out)); })
      .Case<arith::MulIOp>(
          [&](auto) { return Checked(llvm::MulOverflow(*L, *R, Out)); })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(
          [&](auto) -> std::optional<int64_t> {
            return Divisible ? std::optional<int64_t>(*L / *R) : std::nullopt;
          })
      .Case<arith::CeilDivSIOp, arith::CeilDivUIOp>(
          [&](auto) -> std::optional<int64_t> {
            return Divisible ? std::optional<int64_t>(*L / *R + (*L % *R != 0))
                             : std::nullopt;
          })
      .Case<arith::MinSIOp, arith::MinUIOp>(
          [&](auto) { return std::min(*L, *R); })
      .Case<arith::MaxSIOp, arith::MaxUIOp>(
          [&](auto) { return std::max(*L, *R); })
      .Default([&](Operation *) {
        Assumed = true;
        return std::optional<int64_t>(DefaultExtent);
      });
}

struct TripCount {
  double Count;
  bool Known; // constant bounds, or the launch's
};

std::optional<int64_t> trips(std::optional<int64_t> L, std::optional<int64_t> U,
                             std::optional<int64_t> S) {
  if (!L || !U || !S || *S <= 0)
    return std::nullopt;
  int64_t Span;
  if (llvm::SubOverflow(*U, *L, Span))
    return std::nullopt;
  int64_t T = Span > 0 ? Span / *S + (Span % *S != 0) : 0;
  if (T >= MaxBelievableTrip)
    return std::nullopt;
  return T;
}

/// The iterations per thread of a loop over the launch's threads (`for i =
/// global_id to n step block_dim * grid_dim`), the LLVM adapter's count
/// (TripCounts.h): where the threads' first indices, First + the thread and
/// block ids' terms, cover [0, Step) once each, a thread runs the grid's
/// End - First iterations over the min(End - First, Step) threads that
/// enter, on average. Nothing for other loops.
std::optional<double> averageOverLaunch(scf::ForOp For,
                                        const LaunchDims &Launch,
                                        int64_t First, int64_t End,
                                        int64_t Step) {
  std::vector<IndexTerm> Terms;
  int64_t Sum = First;
  Position Ones;
  for (unsigned Var = 0; Var < 6; ++Var) {
    auto LowerAt = [&](int64_t X) {
      Position P;
      (Var < 3 ? P.Thread[Var] : P.Block[Var - 3]) = X;
      bool Ignored = false;
      return assumedValue(For.getLowerBound(), Launch, P, Ignored);
    };
    auto AtOne = LowerAt(1), AtTwo = LowerAt(2);
    if (!AtOne || !AtTwo || *AtTwo - *AtOne != *AtOne - First ||
        *AtOne < First)
      return std::nullopt;
    if (*AtOne == First)
      continue; // the bound does not read this id
    Terms.push_back({*AtOne - First, Var < 3 ? uint64_t(Launch.Block[Var])
                                             : Launch.Grid[Var - 3]});
    Sum += *AtOne - First;
    (Var < 3 ? Ones.Thread[Var] : Ones.Block[Var - 3]) = 1;
  }
  bool Ignored = false;
  if (Terms.empty() ||
      assumedValue(For.getLowerBound(), Launch, Ones, Ignored) != Sum ||
      mixedRadixValues(Terms) != uint64_t(Step))
    return std::nullopt;
  int64_t Remaining = std::max<int64_t>(End - First, 0);
  int64_t Entering = std::min(Remaining, Step);
  return Entering ? double(Remaining) / double(Entering) : 0.0;
}

/// Constant bounds; else the launch's extents where Launch knows them, a
/// loop over the launch's threads counted on average over them, and
/// unknown values taken as DefaultExtent (`k < n; k += 16` runs 4096/16
/// times); else DefaultTripCount.
TripCount tripCount(scf::ForOp For, const LaunchDims &Launch) {
  if (auto T =
          trips(constantInt(For.getLowerBound()),
                constantInt(For.getUpperBound()), constantInt(For.getStep())))
    return {static_cast<double>(*T), true};
  bool Assumed = false;
  Position First;
  auto L = assumedValue(For.getLowerBound(), Launch, First, Assumed),
       U = assumedValue(For.getUpperBound(), Launch, First, Assumed),
       S = assumedValue(For.getStep(), Launch, First, Assumed);
  if (L && U && S && *S > 0)
    if (auto Average = averageOverLaunch(For, Launch, *L, *U, *S))
      return {*Average, !Assumed};
  auto T = trips(L, U, S);
  return {T && *T > 0 ? static_cast<double>(*T) : DefaultTripCount, false};
}

//===-- Counting ----------------------------------------------------------===//

class FeatureCounter {
public:
  FeatureCounter(gpu::GPUFuncOp Kernel, const LaunchDims &Launch)
      : Kernel(Kernel), Launch(Launch), FootprintBlock(Launch.Block) {}
  GpuKernelFeatures run();

private:
  gpu::GPUFuncOp Kernel;
  LaunchDims Launch;
  std::array<unsigned, 3> FootprintBlock; // zeros: not known
  Operation *Unsupported = nullptr;
  std::map<Operation *, KernelFeatures> Done;
  llvm::DenseSet<Operation *> InProgress;
  llvm::SetVector<memref::GlobalOp> SharedGlobals;

  /// State while counting one function.
  struct Scope {
    KernelFeatures &Out;
    const ThreadTaint &Taint;
    const StrideAnalysis &Strides;
    /// The kernel's, when its block shape is known.
    GpuFootprint *Footprint = nullptr;
    /// Global loads since the last barrier, and whether one's value was used
    /// since: the next barrier then waits for memory (the LLVM adapter's
    /// rule, BarrierWaits.h, in program order).
    llvm::SmallPtrSet<Operation *, 8> PendingLoads;
    bool PendingUsed = false;
  };

  KernelFeatures countFunction(FunctionOpInterface F);
  void countRegion(Region &R, double W, unsigned Depth, Scope &S);
  void countOp(Operation *Op, double W, unsigned Depth, Scope &S);
  void countLeaf(Operation *Op, double W, Scope &S);
  void countAccess(Operation *At, Value MemRef, ValueRange Indices,
                   Type Accessed, bool IsStore, double W, Scope &S,
                   std::optional<StrideClass> Class = std::nullopt);
  static void countFloat(Type T, double N, bool FMA, KernelFeatures &Out);
  static void countKind(CallKind Kind, Type T, double W, KernelFeatures &Out);
};

void FeatureCounter::countFloat(Type T, double N, bool FMA,
                                KernelFeatures &Out) {
  countFloatOps(Out, scalarKind(T), N, FMA);
}

void FeatureCounter::countKind(CallKind Kind, Type T, double W,
                               KernelFeatures &Out) {
  countClassifiedOp(Out, Kind, T ? scalarKind(T) : ScalarKind::Other,
                    T ? lanes(T) : 1, W);
}

void FeatureCounter::countAccess(Operation *At, Value MemRef,
                                 ValueRange Indices, Type Accessed,
                                 bool IsStore, double W, Scope &S,
                                 std::optional<StrideClass> Class) {
  MemoryAccess A;
  A.Space = spaceOf(MemRef);
  A.Bytes = bytesOf(Accessed);
  A.Lanes = lanes(Accessed);
  A.IsStore = IsStore;
  countMemoryAccess(S.Out, A, W, [&] {
    return Class.value_or(classifyStride(S.Strides.ofAccess(MemRef, Indices),
                                         static_cast<uint64_t>(A.Bytes)));
  });
  if (S.Footprint && A.Space == MemSpace::Global)
    S.Footprint->add(At, MemRef, Indices, static_cast<uint64_t>(A.Bytes), W,
                     IsStore);
  if (!IsStore && countsAsGlobal(A.Space))
    S.PendingLoads.insert(At);
}

/// Whether Op is a step of its block's dependence chain: an op that counts
/// as an instruction there (a loop's steps are in its body).
bool takesAStep(Operation *Op) {
  return !Op->hasTrait<OpTrait::IsTerminator>() &&
         !Op->hasTrait<OpTrait::ConstantLike>() &&
         !isa<scf::ForOp, scf::WhileOp, scf::ExecuteRegionOp>(Op);
}

void FeatureCounter::countRegion(Region &R, double W, unsigned Depth,
                                 Scope &S) {
  SmallVector<const void *, 4> Uses;
  for (Block &B : R) {
    DependenceDepth Chain;
    for (Operation &Op : B) {
      countOp(&Op, W, Depth, S);
      if (!takesAStep(&Op))
        continue;
      Uses.clear();
      for (Value V : Op.getOperands())
        if (Operation *Def = V.getDefiningOp())
          Uses.push_back(Def);
      Chain.add(&Op, Uses, issueSlots(&Op) ? 1 : 0);
    }
    S.Out.critical_path += W * Chain.longest();
  }
}

void FeatureCounter::countOp(Operation *Op, double W, unsigned Depth,
                             Scope &S) {
  if (Unsupported)
    return;
  if (!modeledDialect(Op)) {
    Unsupported = Op;
    return;
  }
  KernelFeatures &Out = S.Out;
  if (auto For = dyn_cast<scf::ForOp>(Op)) {
    TripCount T = tripCount(For, Launch);
    double Iterations = W * T.Count;
    Out.loops += 1;
    Out.max_loop_depth = std::max(Out.max_loop_depth, double(Depth + 1));
    Out.unknown_trip_loops += !T.Known;
    // The lowered latch: induction update, compare, conditional branch.
    Out.instructions += 3 * Iterations;
    Out.int_ops += 2 * Iterations;
    Out.branches += Iterations;
    if (S.Taint.dependent(For.getLowerBound()) ||
        S.Taint.dependent(For.getUpperBound()) ||
        S.Taint.dependent(For.getStep()))
      Out.divergent_branches += Iterations;
    return countRegion(For.getRegion(), Iterations, Depth + 1, S);
  }
  if (auto While = dyn_cast<scf::WhileOp>(Op)) {
    double Iterations = W * DefaultTripCount;
    Out.loops += 1;
    Out.max_loop_depth = std::max(Out.max_loop_depth, double(Depth + 1));
    Out.unknown_trip_loops += 1;
    Out.instructions += Iterations; // the exit branch
    Out.branches += Iterations;
    if (S.Taint.dependent(While.getConditionOp().getCondition()))
      Out.divergent_branches += Iterations;
    countRegion(While.getBefore(), Iterations, Depth + 1, S);
    return countRegion(While.getAfter(), Iterations, Depth + 1, S);
  }
  if (auto If = dyn_cast<scf::IfOp>(Op)) {
    Out.instructions += W;
    Out.branches += W;
    if (S.Taint.dependent(If.getCondition()))
      Out.divergent_branches += W;
    // `if (thread_id x == 0)`, `if (block_id x == 0)` and the like: a share
    // of the threads, known once the block is, and for a block id the grid
    // (FeatureCore's rule, as on the LLVM side).
    auto [ThenShare, ElseShare] =
        leaderShares(If.getCondition(), FootprintBlock, Launch.Grid);
    countRegion(If.getThenRegion(), W * ThenShare, Depth, S);
    return countRegion(If.getElseRegion(), W * ElseShare, Depth, S);
  }
  if (isa<scf::ExecuteRegionOp>(Op))
    return countRegion(Op->getRegion(0), W, Depth, S);
  if (Op->getNumRegions() != 0) {
    Unsupported = Op;
    return;
  }
  if (Op->hasTrait<OpTrait::IsTerminator>() ||
      Op->hasTrait<OpTrait::ConstantLike>())
    return;
  Out.instructions += W * issueSlots(Op);
  countLeaf(Op, W, S);
}

/// An op without regions: its arithmetic, memory and synchronization.
void FeatureCounter::countLeaf(Operation *Op, double W, Scope &S) {
  KernelFeatures &Out = S.Out;
  S.PendingUsed |= llvm::any_of(Op->getOperands(), [&](Value V) {
    Operation *Def = V.getDefiningOp();
    return Def && S.PendingLoads.contains(Def);
  });
  StringRef Name = Op->getName().getStringRef();
  Type T = Op->getNumResults() ? Op->getResult(0).getType() : Type();
  double N = T ? W * lanes(T) : W;

  // arith
  if (isa<arith::MulFOp>(Op)) {
    if (!fusesIntoUser(Op))
      countFloat(T, N, /*FMA=*/false, Out);
    return;
  }
  if (isa<arith::AddFOp, arith::SubFOp>(Op))
    return countFloat(T, N, fusedOperand(Op) != nullptr, Out);
  if (isa<arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp>(Op))
    return countFloat(T, N, /*FMA=*/false, Out);
  if (isa<arith::CmpFOp>(Op)) {
    Type Operand = Op->getOperand(0).getType();
    return countFloat(Operand, W * lanes(Operand), /*FMA=*/false, Out);
  }
  if (isa<arith::DivFOp, arith::RemFOp>(Op))
    return countKind(approximatedIf(CallKind::Special,
                                    isa<arith::DivFOp>(Op) && approximates(Op)),
                     T, W, Out);
  if (isIntOp(Op)) {
    Out.int_ops += N;
    return;
  }
  if (isa<arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp,
          arith::ExtFOp, arith::TruncFOp>(Op)) {
    Out.conversions += N;
    return;
  }
  if (Name.starts_with("math."))
    return countKind(approximatedIf(mathKind(Name), approximates(Op)), T, W,
                     Out);
  if (Name.starts_with("index.")) {
    if (!Name.starts_with("index.cast"))
      Out.int_ops += N;
    return;
  }

  // memory
  if (auto Load = dyn_cast<memref::LoadOp>(Op))
    return countAccess(Op, Load.getMemRef(), Load.getIndices(), T, false, W,
                       S);
  if (auto Store = dyn_cast<memref::StoreOp>(Op))
    return countAccess(Op, Store.getMemRef(), Store.getIndices(),
                       Store.getValueToStore().getType(), true, W, S);
  if (Name == "vector.load")
    return countAccess(Op, Op->getOperand(0), Op->getOperands().drop_front(),
                       T, false, W, S);
  if (Name == "vector.store")
    return countAccess(Op, Op->getOperand(1), Op->getOperands().drop_front(2),
                       Op->getOperand(0).getType(), true, W, S);
  if (auto Copy = dyn_cast<memref::CopyOp>(Op)) {
    // Every thread copies the whole memref (one memcpy, memref-to-llvm):
    // one access of its length from each side, as the LLVM adapter counts
    // a memcpy.
    auto Pieces = memrefCopyPieces(Copy);
    if (!Pieces || !Pieces->Bytes)
      return;
    Type Run = VectorType::get({static_cast<int64_t>(Pieces->Bytes)},
                               IntegerType::get(Op->getContext(), 8));
    countAccess(Op, Copy.getSource(), {}, Run, /*IsStore=*/false, W, S);
    countAccess(Op, Copy.getTarget(), {}, Run, /*IsStore=*/true, W, S);
    return;
  }
  if (auto Atomic = dyn_cast<memref::AtomicRMWOp>(Op)) {
    if (spaceOf(Atomic.getMemref()) == MemSpace::Shared) {
      Out.shared_atomics += W;
      return;
    }
    Out.global_atomics += W;
    // A kernel argument at constant indices: the grid's one address, counted
    // for a known block only, as on the LLVM side.
    auto Arg = dyn_cast<BlockArgument>(Atomic.getMemref());
    if (Arg && isa<gpu::GPUFuncOp>(Arg.getOwner()->getParentOp()) &&
        llvm::all_of(FootprintBlock, [](unsigned D) { return D; }) &&
        llvm::all_of(Atomic.getIndices(), [](Value Index) {
          return matchPattern(Index, m_Constant());
        }))
      Out.global_same_address_atomics += W;
    return;
  }
  if (auto Get = dyn_cast<memref::GetGlobalOp>(Op)) {
    auto Global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        Op, Get.getNameAttr());
    if (Global &&
        spaceOfAttr(Global.getType().getMemorySpace()) == MemSpace::Shared)
      SharedGlobals.insert(Global);
    return;
  }

  // gpu
  if (auto Id = dyn_cast<gpu::ThreadIdOp>(Op))
    return addDim(Out.Dims.ThreadIdx, Id.getDimension());
  if (auto Id = dyn_cast<gpu::BlockIdOp>(Op))
    return addDim(Out.Dims.BlockIdx, Id.getDimension());
  if (auto Id = dyn_cast<gpu::BlockDimOp>(Op))
    return addDim(Out.Dims.BlockDim, Id.getDimension());
  if (auto Id = dyn_cast<gpu::GridDimOp>(Op))
    return addDim(Out.Dims.GridDim, Id.getDimension());
  if (auto Id = dyn_cast<gpu::GlobalIdOp>(Op)) {
    // block_id * block_dim + thread_id
    addDim(Out.Dims.ThreadIdx, Id.getDimension());
    addDim(Out.Dims.BlockIdx, Id.getDimension());
    addDim(Out.Dims.BlockDim, Id.getDimension());
    Out.int_ops += 2 * W;
    return;
  }
  if (isa<gpu::BarrierOp>(Op)) {
    if (S.PendingUsed)
      Out.barriers_after_global_loads += W;
    S.PendingLoads.clear();
    S.PendingUsed = false;
    return countKind(CallKind::Barrier, T, W, Out);
  }
  if (isa<gpu::ShuffleOp>(Op))
    return countKind(CallKind::Shuffle, T, W, Out);
  if (auto Reduce = dyn_cast<gpu::SubgroupReduceOp>(Op)) {
    // A butterfly over the 32 lanes: 5 shuffles and 5 combining ops.
    constexpr double Steps = 5;
    Out.warp_shuffles += Steps * W;
    if (isa<FloatType>(getElementTypeOrSelf(T)))
      countFloat(T, Steps * N, /*FMA=*/false, Out);
    else
      Out.int_ops += Steps * N;
    return;
  }
  if (isa<gpu::DynamicSharedMemoryOp>(Op)) {
    Out.uses_dynamic_shared = 1;
    return;
  }
  if (isa<gpu::SubgroupMmaComputeOp>(Op))
    return countKind(CallKind::TensorCore, T, W, Out);
  if (isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp>(Op)) {
    // A warp moves the fragment: each thread 1/32 of it, rows of a tile
    // apart (strided).
    bool IsStore = isa<gpu::SubgroupMmaStoreMatrixOp>(Op);
    auto Fragment =
        cast<gpu::MMAMatrixType>(IsStore ? Op->getOperand(0).getType() : T);
    Value MemRef = Op->getOperand(IsStore ? 1 : 0);
    int64_t Elements = Fragment.getShape()[0] * Fragment.getShape()[1];
    Type PerThread = VectorType::get({std::max<int64_t>(1, Elements / 32)},
                                     Fragment.getElementType());
    return countAccess(Op, MemRef, {}, PerThread, IsStore, W, S,
                       StrideClass::Strided);
  }

  // vector
  if (Name == "vector.fma")
    return countKind(CallKind::FloatFMA, T, W, Out);
  if (Name == "vector.reduction") {
    Type Source = Op->getOperand(0).getType();
    double Steps = W * (lanes(Source) - 1);
    if (isa<FloatType>(getElementTypeOrSelf(Source)))
      countFloat(Source, Steps, /*FMA=*/false, Out);
    else
      Out.int_ops += Steps;
    return;
  }
  if (Name.starts_with("vector.") && !isVectorDataMovement(Name)) {
    Unsupported = Op; // transfers, contractions, gathers: lower them first
    return;
  }

  // func
  if (auto Call = dyn_cast<func::CallOp>(Op)) {
    func::FuncOp Callee = definedCallee(Call);
    if (!Callee)
      return countKind(classifyCallee(Call.getCallee()), T, W, Out);
    if (InProgress.contains(Callee.getOperation()))
      return; // recursion: counted once
    Out.mergeCallee(countFunction(Callee), W);
    return;
  }
  // Anything else in these dialects (casts, views, allocas, ids of other
  // kinds, printf): one instruction, already counted.
}

KernelFeatures FeatureCounter::countFunction(FunctionOpInterface F) {
  auto It = Done.find(F.getOperation());
  if (It != Done.end())
    return It->second;
  InProgress.insert(F.getOperation());
  KernelFeatures Out;
  Out.Name = SymbolTable::getSymbolName(F).str();
  Region &Body = F.getFunctionBody();
  ThreadTaint Taint(Body);
  StrideAnalysis Strides(Taint);
  Scope S{Out, Taint, Strides, /*Footprint=*/nullptr, /*PendingLoads=*/{}};
  std::optional<GpuFootprint> Footprint;
  if (F.getOperation() == Kernel.getOperation() &&
      llvm::all_of(FootprintBlock, [](unsigned D) { return D; })) {
    Footprint.emplace(FootprintBlock, [this](scf::ForOp For) {
      return tripCount(For, Launch).Count;
    });
    S.Footprint = &*Footprint;
  }
  countRegion(Body, 1, 0, S);
  if (Footprint)
    Footprint->groups().setFeatures(Out);
  Out.register_estimate = std::max(Out.register_estimate,
                                   peakLiveRegisters(Body) + ReservedRegisters);
  InProgress.erase(F.getOperation());
  return Done[F.getOperation()] = Out;
}

/// Bounds the user put on the kernel. known_block_size lowers to maxntid.
LaunchBounds readBounds(gpu::GPUFuncOp Kernel) {
  LaunchBounds B;
  auto Triple = [&](StringRef Name, std::array<unsigned, 3> &Out) {
    auto A = Kernel->getAttrOfType<DenseI32ArrayAttr>(Name);
    if (!A)
      return;
    for (auto [I, V] : llvm::enumerate(A.asArrayRef()))
      if (I < 3)
        Out[I] = static_cast<unsigned>(V);
  };
  Triple("nvvm.reqntid", B.ReqNTid);
  Triple("nvvm.maxntid", B.MaxNTid);
  if (!B.MaxNTid[0])
    Triple(Kernel.getKnownBlockSizeAttrName().strref(), B.MaxNTid);
  auto Int = [&](StringRef Name) {
    auto A = Kernel->getAttrOfType<IntegerAttr>(Name);
    return A ? static_cast<unsigned>(A.getInt()) : 0u;
  };
  B.MinCTASM = Int("nvvm.minctasm");
  B.MaxNReg = Int("nvvm.maxnreg");
  return B;
}

double staticBytes(MemRefType T) {
  return T.hasStaticShape() ? T.getNumElements() * bytesOf(T.getElementType())
                            : 0;
}

GpuKernelFeatures FeatureCounter::run() {
  GpuKernelFeatures Result;
  KernelFeatures &F = Result.Features;
  F = countFunction(Kernel);
  Result.Unsupported = Unsupported;
  for (BlockArgument A : Kernel.getWorkgroupAttributions())
    if (auto T = dyn_cast<MemRefType>(A.getType()))
      F.static_shared_bytes += staticBytes(T);
  for (memref::GlobalOp G : SharedGlobals)
    F.static_shared_bytes += staticBytes(G.getType());
  F.Bounds = readBounds(Kernel);
  F.finalize();
  return Result;
}

} // namespace

/// The block shape the kernel runs with: known_block_size, else
/// nvvm.reqntid; zeros when neither says.
std::array<unsigned, 3> statedBlockShape(gpu::GPUFuncOp Kernel) {
  std::array<unsigned, 3> Block = {0, 0, 0};
  auto A = Kernel.getKnownBlockSizeAttr();
  if (!A)
    A = Kernel->getAttrOfType<DenseI32ArrayAttr>("nvvm.reqntid");
  if (A)
    for (auto [I, V] : llvm::enumerate(A.asArrayRef()))
      if (I < 3)
        Block[I] = V > 0 ? static_cast<unsigned>(V) : 0;
  return Block;
}

GpuKernelFeatures computeGpuKernelFeatures(gpu::GPUFuncOp Kernel,
                                           std::array<unsigned, 3> Block,
                                           std::array<uint64_t, 3> Grid) {
  return FeatureCounter(Kernel, {Block, Grid}).run();
}

} // namespace energy
