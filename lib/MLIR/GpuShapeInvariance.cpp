//===- GpuShapeInvariance.cpp - Proof that a gpu.func ignores its block ---===//
//
// Integers are taken apart by hand here (arith's add, sub, mul, casts, the
// id ops, scf.for's induction variable as start + step * iteration) into
// the polynomials of WorkUnits.h; every other op's operands are where the
// kernel uses them, and each must be invariant or a function of the unit.
//
//===----------------------------------------------------------------------===//

#include "GpuShapeInvariance.h"

#include "GpuAccessAnalysis.h"
#include "WorkUnits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <optional>

using namespace mlir;
using namespace energy::gpudialect;

namespace energy {
namespace {

/// "k.mlir:12" for a file location, else empty.
std::string whereIs(Operation *Op) {
  Location Loc = Op->getLoc();
  if (auto Fused = dyn_cast<FusedLoc>(Loc); Fused && !Fused.getLocations().empty())
    Loc = Fused.getLocations().front();
  if (auto File = dyn_cast<FileLineColLoc>(Loc))
    return (File.getFilename().getValue() + ":" + llvm::Twine(File.getLine()))
        .str();
  return "";
}

/// Ops whose integer results the polynomials take apart.
bool transparent(Operation *Op) {
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::IndexCastOp,
          arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
          gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
          gpu::GlobalIdOp>(Op))
    return true;
  if (auto Trunc = dyn_cast<arith::TruncIOp>(Op))
    return Trunc.getType().getIntOrFloatBitWidth() >= 32;
  if (auto C = dyn_cast<arith::ConstantOp>(Op))
    return isa<IntegerAttr>(C.getValue());
  return false;
}

bool isIntegerLike(Type T) { return isa<IntegerType, IndexType>(T); }

class GpuProver {
public:
  GpuProver(gpu::GPUFuncOp Kernel, std::array<bool, 3> Free)
      : Kernel(Kernel), Free(Free) {
    Kernel.walk<WalkOrder::PreOrder>([&](scf::ForOp For) {
      LoopIndex[For] = Loops.size();
      Loops.push_back(For);
    });
  }
  ShapeProof run();

private:
  gpu::GPUFuncOp Kernel;
  std::array<bool, 3> Free;
  std::vector<scf::ForOp> Loops;
  llvm::DenseMap<Operation *, unsigned> LoopIndex;
  llvm::DenseMap<Value, Level> Levels; // values taken as opaque atoms
  std::map<unsigned, std::optional<Poly>> RadixCache;
  AtomFacts Facts{[this](const Atom &A) -> Classified {
                    return atLevel(atomLevel(A));
                  },
                  [this](unsigned Loop) -> const std::optional<Poly> & {
                    return radix(Loop);
                  }};

  bool Recording = false;
  Operation *At = nullptr;
  /// The loop whose induction variable is being checked at the loop: its
  /// own counting is no use of its digit.
  std::optional<unsigned> Counting;
  std::optional<std::pair<std::string, std::string>> First; // why, where
  UnitNumbering Units;
  std::map<unsigned, Operation *> WorkUses;     // loop -> first use

  void fail(std::string Why, Operation *Op) {
    if (!First)
      First = {std::move(Why), Op ? whereIs(Op) : std::string()};
  }
  std::optional<std::string> screen(Operation *Op);
  std::optional<Poly> toPoly(Value V, unsigned Depth = 0);
  Level atomLevel(const Atom &A) {
    Value V = Value::getFromOpaquePointer(A.key());
    // Ids are opaque only on a fixed axis: its block index (alone or in the
    // global id) differs between blocks, the grid's size does not.
    if (V.getDefiningOp<gpu::BlockIdOp>() || V.getDefiningOp<gpu::GlobalIdOp>())
      return Level::Block;
    auto It = Levels.find(V);
    return It == Levels.end() ? Level::Inv : It->second;
  }
  const std::optional<Poly> &radix(unsigned Loop);
  Classified classifyPoly(std::optional<Poly> P);
  Classified classify(Value V);
  Level opaqueLevel(Operation *Op);
  void settle();
  void record();
  void checkLoops();
};

//===----------------------------------------------------------------------===//
// What is never proven
//===----------------------------------------------------------------------===//

std::optional<std::string> GpuProver::screen(Operation *Op) {
  for (Value V : Op->getOperands())
    if (isa<BaseMemRefType>(V.getType()) && spaceOf(V) == MemSpace::Shared)
      return std::string("it uses workgroup memory, whose layout follows the "
                         "block");
  if (isa<gpu::BarrierOp>(Op))
    return std::string("it synchronizes its block (gpu.barrier)");
  if (isa<gpu::ShuffleOp, gpu::SubgroupReduceOp, gpu::AllReduceOp,
          gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::NumSubgroupsOp,
          gpu::SubgroupSizeOp, gpu::DynamicSharedMemoryOp, gpu::PrintfOp>(
          Op))
    return "it uses '" + Op->getName().getStringRef().str() +
           "', which depends on how threads are grouped";
  StringRef Dialect = Op->getName().getDialectNamespace();
  if (!llvm::is_contained({"arith", "math", "memref", "scf", "gpu", "index",
                           "vector", "ub"},
                          Dialect))
    return "it uses '" + Op->getName().getStringRef().str() +
           "', which the analysis cannot see into";
  if (Op->getNumRegions() && !isa<scf::ForOp, scf::IfOp, scf::YieldOp>(Op) &&
      Op != Kernel.getOperation())
    return "it uses '" + Op->getName().getStringRef().str() +
           "', whose control flow the analysis does not follow";
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Integers as polynomials
//===----------------------------------------------------------------------===//

std::optional<Poly> GpuProver::toPoly(Value V, unsigned Depth) {
  if (Depth > 64)
    return std::nullopt;
  Atom Opaque = Atom::opaque(V.getAsOpaquePointer());
  if (auto Arg = dyn_cast<BlockArgument>(V)) {
    auto For = dyn_cast<scf::ForOp>(Arg.getOwner()->getParentOp());
    if (!For || Arg != For.getInductionVar())
      return Poly::atom(Opaque);
    auto Start = toPoly(For.getLowerBound(), Depth + 1);
    auto Step = toPoly(For.getStep(), Depth + 1);
    if (!Start || !Step)
      return std::nullopt;
    auto Walk = mul(*Step, Poly::atom(Atom::digit(LoopIndex.lookup(For))));
    return Walk ? add(std::move(*Start), *Walk) : std::nullopt;
  }
  Operation *Op = V.getDefiningOp();
  APInt C;
  if (matchPattern(V, m_ConstantInt(&C)))
    return C.getSignificantBits() > 63 ? Poly::atom(Opaque)
                                       : Poly::constant(C.getSExtValue());
  auto Shape = [&](Reg R, gpu::Dimension D) -> std::optional<Poly> {
    unsigned Axis = static_cast<unsigned>(D);
    if (Free[Axis])
      return Poly::atom(Atom::shape(R, Axis));
    if (R == Reg::Tid)
      return Poly::constant(0);
    if (R == Reg::Ntid)
      return Poly::constant(1);
    return Poly::atom(Opaque); // invariant: the grid does not follow it
  };
  if (auto Id = dyn_cast<gpu::ThreadIdOp>(Op))
    return Shape(Reg::Tid, Id.getDimension());
  if (auto Id = dyn_cast<gpu::BlockIdOp>(Op))
    return Shape(Reg::Ctaid, Id.getDimension());
  if (auto Id = dyn_cast<gpu::BlockDimOp>(Op))
    return Shape(Reg::Ntid, Id.getDimension());
  if (auto Id = dyn_cast<gpu::GridDimOp>(Op))
    return Shape(Reg::Nctaid, Id.getDimension());
  if (auto Id = dyn_cast<gpu::GlobalIdOp>(Op)) {
    auto B = Shape(Reg::Ctaid, Id.getDimension());
    auto D = Shape(Reg::Ntid, Id.getDimension());
    auto T = Shape(Reg::Tid, Id.getDimension());
    auto BD = mul(*B, *D);
    return BD ? add(std::move(*BD), *T) : std::nullopt;
  }
  if (!Op || !transparent(Op) || isa<arith::ConstantOp>(Op))
    return Poly::atom(Opaque);
  if (Op->getNumOperands() == 1)
    return toPoly(Op->getOperand(0), Depth + 1);
  auto L = toPoly(Op->getOperand(0), Depth + 1);
  auto R = toPoly(Op->getOperand(1), Depth + 1);
  if (!L || !R)
    return std::nullopt;
  if (isa<arith::MulIOp>(Op))
    return mul(*L, *R);
  if (isa<arith::SubIOp>(Op)) {
    auto Negated = mul(*R, Poly::constant(-1));
    return Negated ? add(std::move(*L), *Negated) : std::nullopt;
  }
  return add(std::move(*L), *R);
}

/// An scf.for's iterations as its digit's radix: the upper bound of a loop
/// from 0 in steps of 1, invariant; none otherwise.
const std::optional<Poly> &GpuProver::radix(unsigned Index) {
  auto [It, New] = RadixCache.try_emplace(Index);
  if (!New)
    return It->second;
  scf::ForOp For = Loops[Index];
  auto Lower = toPoly(For.getLowerBound()), Step = toPoly(For.getStep());
  auto Upper = toPoly(For.getUpperBound());
  if (Lower && Step && Upper && Lower->empty() && *Step == Poly::constant(1) &&
      invariant(*Upper, Facts))
    It->second = std::move(*Upper);
  return RadixCache[Index];
}

//===----------------------------------------------------------------------===//
// Work units and levels
//===----------------------------------------------------------------------===//

Classified GpuProver::classifyPoly(std::optional<Poly> P) {
  Classified Result = classifyUnits(P, Free, Facts, [&](unsigned Loop) {
    if (Recording && Counting != Loop)
      WorkUses.try_emplace(Loop, At);
  });
  if (Recording)
    for (unsigned Axis = 0; Axis < 3; ++Axis)
      if (Result.Chains[Axis])
        if (auto Why = Units.note(Axis, *Result.Chains[Axis]))
          fail(*Why, At);
  return Result;
}

Classified GpuProver::classify(Value V) {
  if (isIntegerLike(V.getType()))
    return classifyPoly(toPoly(V));
  auto It = Levels.find(V);
  return atLevel(It == Levels.end() ? Level::Inv : It->second);
}

/// The private array (memref.alloca) a memref views, if it is one.
Value privateArray(Value M) {
  Value Root = memrefRoot(M);
  return Root.getDefiningOp<memref::AllocaOp>() ? Root : Value();
}

Level GpuProver::opaqueLevel(Operation *Op) {
  if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(Op))
    return Level::Item; // what other units left there
  if (auto Load = dyn_cast<memref::LoadOp>(Op))
    if (Value Slot = privateArray(Load.getMemRef())) {
      Level L = classify(Slot).L; // what was stored there
      for (Value Index : Load.getIndices())
        L = join(L, classify(Index).L);
      return L;
    }
  Level L = Level::Inv;
  for (Value V : Op->getOperands())
    L = join(L, classify(V).L);
  return L;
}

/// Levels to a fixed point: loops and ifs yield values into their results
/// and a loop's iter_args.
void GpuProver::settle() {
  auto Raise = [&](Value V, Level L, bool &Changed) {
    Level &Old = Levels[V];
    if (L > Old) {
      Old = L;
      Changed = true;
    }
  };
  for (unsigned Round = 0; Round < 16; ++Round) {
    bool Changed = false;
    Kernel.walk<WalkOrder::PreOrder>([&](Operation *Op) {
      if (auto For = dyn_cast<scf::ForOp>(Op)) {
        auto Yield = cast<scf::YieldOp>(For.getBody()->getTerminator());
        for (unsigned I = 0; I < For.getNumResults(); ++I) {
          Level L = join(classify(For.getInitArgs()[I]).L,
                         classify(Yield.getOperand(I)).L);
          Raise(For.getRegionIterArgs()[I], L, Changed);
          Raise(For.getResult(I), L, Changed);
        }
        return;
      }
      if (auto If = dyn_cast<scf::IfOp>(Op)) {
        Level Cond = classify(If.getCondition()).L;
        for (unsigned I = 0; I < If.getNumResults(); ++I) {
          Level L = join(Cond, classify(If.thenYield().getOperand(I)).L);
          if (!If.getElseRegion().empty())
            L = join(L, classify(If.elseYield().getOperand(I)).L);
          Raise(If.getResult(I), L, Changed);
        }
        return;
      }
      if (auto Store = dyn_cast<memref::StoreOp>(Op))
        if (Value Slot = privateArray(Store.getMemRef()))
          Raise(Slot, classify(Store.getValueToStore()).L, Changed);
      if (transparent(Op))
        return;
      Level L = opaqueLevel(Op);
      for (Value R : Op->getResults())
        Raise(R, L, Changed);
    });
    if (!Changed)
      return;
  }
}

/// Whether Op writes memory other threads see: a store or an atomic
/// outside private arrays.
bool writes(Operation *Op) {
  auto Effects = dyn_cast<MemoryEffectOpInterface>(Op);
  if (!Effects || !Effects.hasEffect<MemoryEffects::Write>())
    return false;
  return llvm::none_of(Op->getOperands(), [](Value V) {
    return isa<BaseMemRefType>(V.getType()) && privateArray(V);
  });
}

void GpuProver::record() {
  Recording = true;
  Kernel.walk<WalkOrder::PreOrder>([&](Operation *Op) {
    if (Op == Kernel.getOperation() || transparent(Op))
      return;
    At = Op;
    auto Check = [&](Value V) {
      Classified C = classify(V);
      if (C.L == Level::Bad && !C.Why.empty())
        fail(C.Why, Op);
    };
    if (auto For = dyn_cast<scf::ForOp>(Op)) {
      // The induction variable numbers the iterations, used or not; the
      // bound ends them.
      Counting = LoopIndex.lookup(For);
      Check(For.getInductionVar());
      Counting.reset();
      Check(For.getUpperBound());
      for (Value Init : For.getInitArgs())
        Check(Init);
      return;
    }
    for (Value V : Op->getOperands())
      Check(V);
  });
  Recording = false;
}

/// Loops over a thread's units: nothing carried from one unit to the next
/// or out, and their counter used for nothing but the unit.
void GpuProver::checkLoops() {
  for (const auto &[Index, Axis] : Units.itemLoops()) {
    scf::ForOp For = Loops[Index];
    if (auto Use = WorkUses.find(Index); Use != WorkUses.end()) {
      fail("the counter of a loop over a thread's work items is used for "
           "more than the item",
           Use->second);
      return;
    }
    auto Yield = cast<scf::YieldOp>(For.getBody()->getTerminator());
    for (unsigned I = 0; I < For.getNumResults(); ++I)
      if (classify(Yield.getOperand(I)).L >= Level::Item) {
        fail("a loop over a thread's work items carries a value from one "
             "item to the next (a per-thread partial result, whose items "
             "change with the block)",
             For);
        return;
      }
    // A private array the loop both writes items into and reads back can
    // carry one item's value to the next.
    Operation *Carry = nullptr;
    For.walk([&](memref::LoadOp Load) {
      Value Slot = privateArray(Load.getMemRef());
      if (!Carry && Slot && classify(Slot).L >= Level::Item &&
          !For->isAncestor(Slot.getDefiningOp()) &&
          For.walk([&](memref::StoreOp Store) {
               return privateArray(Store.getMemRef()) == Slot
                          ? WalkResult::interrupt()
                          : WalkResult::advance();
             }).wasInterrupted())
        Carry = Load;
    });
    if (Carry) {
      fail("a loop over a thread's work items carries a value from one item "
           "to the next through a private array",
           Carry);
      return;
    }
    // The grid-stride loop on top covers every unit below its bound.
    if (!radix(Index) &&
        classify(For.getUpperBound()).L != Level::Inv) {
      fail("a grid-stride loop's bound depends on the thread", For);
      return;
    }
  }
}

ShapeProof GpuProver::run() {
  ShapeProof Proof;
  auto Done = [&] {
    Proof.Obstacle = First->first;
    Proof.Where = First->second;
    return Proof;
  };
  if (!Kernel.getWorkgroupAttributions().empty()) {
    fail("it uses workgroup memory, whose layout follows the block", Kernel);
    return Done();
  }
  Kernel.walk<WalkOrder::PreOrder>([&](Operation *Op) {
    if (auto Why = screen(Op))
      fail(*Why, Op);
  });
  if (First)
    return Done();
  settle();
  record();
  if (First)
    return Done();
  checkLoops();
  if (First)
    return Done();
  bool Writes = false;
  Kernel.walk([&](Operation *Op) { Writes = Writes || writes(Op); });
  if (!Writes) {
    Proof.Proven = Proof.AnyGrid = true; // nothing another block could change
    return Proof;
  }
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    if (!Free[Axis])
      continue;
    if (!Units.of(Axis)) {
      fail(std::string("the block's ") + axisName(Axis) +
               " extent may change, but the kernel's work does not follow "
               "thread_id " +
               axisName(Axis) + ": its threads would repeat each other's work",
           nullptr);
      return Done();
    }
  }
  Proof.Proven = Proof.AnyGrid = true;
  return Proof;
}

} // namespace

ShapeProof proveGpuShapeInvariance(gpu::GPUFuncOp Kernel,
                                   std::array<bool, 3> FreeAxes) {
  return GpuProver(Kernel, FreeAxes).run();
}

} // namespace energy
