//===- GpuAccessAnalysis.cpp - Memory accesses in the gpu dialect ---------===//

#include "GpuAccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <algorithm>

using namespace mlir;

namespace energy {
namespace gpudialect {

unsigned lanes(Type T) {
  if (auto V = dyn_cast<VectorType>(T))
    return V.getNumElements();
  return 1;
}

/// Bytes one value of T occupies in memory.
double bytesOf(Type T) {
  if (auto V = dyn_cast<VectorType>(T))
    return V.getNumElements() * bytesOf(V.getElementType());
  if (T.isIntOrFloat())
    return std::max(1u, (T.getIntOrFloatBitWidth() + 7) / 8);
  return 8; // index (64-bit in the NVVM lowering), pointers
}

std::optional<int64_t> constantInt(Value V) {
  APInt C;
  if (matchPattern(V, m_ConstantInt(&C)))
    return C.getSExtValue();
  return std::nullopt;
}

//===-- Memory spaces -----------------------------------------------------===//

std::optional<MemSpace> spaceOfAttr(Attribute A) {
  if (!A)
    return std::nullopt;
  if (auto I = dyn_cast<IntegerAttr>(A)) {
    if (I.getInt() == 0)
      return std::nullopt;
    return nvptxMemSpace(static_cast<unsigned>(I.getInt()));
  }
  if (auto G = dyn_cast<gpu::AddressSpaceAttr>(A)) {
    switch (G.getValue()) {
    case gpu::AddressSpace::Global:
      return MemSpace::Global;
    case gpu::AddressSpace::Workgroup:
      return MemSpace::Shared;
    case gpu::AddressSpace::Private:
      return MemSpace::Local;
    }
  }
  return MemSpace::Generic;
}

static Attribute memorySpace(Value M) {
  if (auto T = dyn_cast<BaseMemRefType>(M.getType()))
    return T.getMemorySpace();
  return {};
}

/// The memref a view was taken of.
Value memrefRoot(Value V) {
  for (unsigned I = 0; I < MaxDepth; ++I) {
    Operation *Def = V.getDefiningOp();
    if (auto View = dyn_cast_or_null<ViewLikeOpInterface>(Def))
      V = View.getViewSource();
    else if (auto Cast = dyn_cast_or_null<memref::CastOp>(Def))
      V = Cast.getSource();
    else
      break;
  }
  return V;
}

static bool isPrivateAttribution(Value V) {
  auto Arg = dyn_cast<BlockArgument>(V);
  auto Func = Arg ? dyn_cast<gpu::GPUFuncOp>(Arg.getOwner()->getParentOp())
                  : gpu::GPUFuncOp();
  return Func && llvm::is_contained(Func.getPrivateAttributions(), Arg);
}

/// The space from the memref type; without one, a stack allocation is local
/// and anything else (kernel arguments) global, as NVPTXLowerArgs assumes.
MemSpace spaceOf(Value M) {
  if (auto S = spaceOfAttr(memorySpace(M)))
    return *S;
  Value Root = memrefRoot(M);
  if (auto S = spaceOfAttr(memorySpace(Root)))
    return *S;
  if (Root.getDefiningOp<memref::AllocaOp>() || isPrivateAttribution(Root))
    return MemSpace::Local;
  return MemSpace::Global;
}

//===-- Thread dependence -------------------------------------------------===//

/// The callee of a func.call, if the module defines it.
func::FuncOp definedCallee(func::CallOp Call) {
  auto F = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      Call, Call.getCalleeAttr());
  return F && !F.isDeclaration() ? F : func::FuncOp();
}

/// What makes a value differ between the threads of a warp.
static bool isThreadSource(Operation *Op) {
  return isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::GlobalIdOp,
             memref::AtomicRMWOp>(Op);
}

bool ThreadTaint::visit(Operation *Op) {
  bool Changed = false;
  if (auto For = dyn_cast<scf::ForOp>(Op)) {
    bool Bounds =
        any({For.getLowerBound(), For.getUpperBound(), For.getStep()});
    Changed |= markIf(any({For.getLowerBound(), For.getStep()}),
                      For.getInductionVar());
    auto Yield = cast<scf::YieldOp>(For.getBody()->getTerminator());
    for (auto [Init, Arg, Next, Result] :
         llvm::zip(For.getInitArgs(), For.getRegionIterArgs(),
                   Yield.getOperands(), For.getResults())) {
      Changed |= markIf(dependent(Init) || dependent(Next), Arg);
      Changed |= markIf(dependent(Arg) || Bounds, Result);
    }
    return Changed;
  }
  if (auto If = dyn_cast<scf::IfOp>(Op)) {
    bool Cond = dependent(If.getCondition());
    for (unsigned I = 0; I < If.getNumResults(); ++I) {
      bool Dep = Cond || dependent(If.thenYield().getOperand(I)) ||
                 (If.elseBlock() && dependent(If.elseYield().getOperand(I)));
      Changed |= markIf(Dep, If.getResult(I));
    }
    return Changed;
  }
  if (auto While = dyn_cast<scf::WhileOp>(Op)) {
    scf::ConditionOp Cond = While.getConditionOp();
    for (auto [Init, Arg, Next] :
         llvm::zip(While.getInits(), While.getBeforeArguments(),
                   While.getYieldOp().getOperands()))
      Changed |= markIf(dependent(Init) || dependent(Next), Arg);
    bool Exit = dependent(Cond.getCondition());
    for (auto [Forwarded, Arg, Result] : llvm::zip(
             Cond.getArgs(), While.getAfterArguments(), While.getResults())) {
      Changed |= markIf(dependent(Forwarded), Arg);
      Changed |= markIf(dependent(Forwarded) || Exit, Result);
    }
    return Changed;
  }
  if (auto Store = dyn_cast<memref::StoreOp>(Op)) {
    Value Root = memrefRoot(Store.getMemRef());
    if (dependent(Store.getValueToStore()) && spaceOf(Root) == MemSpace::Local)
      Changed |= Slots.insert(Root).second;
    return Changed;
  }
  bool Dep = isThreadSource(Op) || any(Op->getOperands());
  if (auto Load = dyn_cast<memref::LoadOp>(Op))
    Dep = Dep || Slots.contains(memrefRoot(Load.getMemRef()));
  if (auto Call = dyn_cast<func::CallOp>(Op))
    if (func::FuncOp F = definedCallee(Call))
      Dep = Dep || F.walk([](Operation *Inner) {
                      return isThreadSource(Inner) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
                    }).wasInterrupted();
  if (Dep)
    for (Value R : Op->getResults())
      Changed |= mark(R);
  return Changed;
}

//===-- Address stride per thread_id x ------------------------------------===//

Stride StrideAnalysis::of(Value V, unsigned Depth) const {
  if (Depth > MaxDepth)
    return opaque(V);
  if (auto Arg = dyn_cast<BlockArgument>(V)) {
    auto For = dyn_cast<scf::ForOp>(Arg.getOwner()->getParentOp());
    if (For && Arg == For.getInductionVar())
      return of(For.getStep(), Depth + 1).K == Stride::Zero
                 ? of(For.getLowerBound(), Depth + 1)
                 : Stride::unknown();
    return opaque(V);
  }
  Operation *Def = V.getDefiningOp();
  if (auto Tid = dyn_cast<gpu::ThreadIdOp>(Def))
    return Tid.getDimension() == gpu::Dimension::x ? Stride::constant(1)
                                                   : Stride::zero();
  if (auto Gid = dyn_cast<gpu::GlobalIdOp>(Def))
    return Gid.getDimension() == gpu::Dimension::x ? Stride::constant(1)
                                                   : Stride::zero();
  if (isa<gpu::LaneIdOp>(Def))
    return Stride::constant(1);
  if (matchPattern(V, m_Constant()))
    return Stride::zero();
  auto Operand = [&](unsigned I) { return of(Def->getOperand(I), Depth + 1); };
  if (isa<arith::AddIOp>(Def))
    return addStrides(Operand(0), Operand(1));
  if (isa<arith::SubIOp>(Def))
    return addStrides(Operand(0), scaleStride(Operand(1), -1));
  if (isa<arith::MulIOp>(Def)) {
    Stride A = Operand(0), B = Operand(1);
    if (A.K != Stride::Zero && B.K != Stride::Zero)
      return Stride::unknown(); // tid * tid
    bool AVaries = A.K != Stride::Zero;
    return scaleStride(AVaries ? A : B,
                       constantInt(Def->getOperand(AVaries ? 1 : 0)));
  }
  if (isa<arith::ShLIOp>(Def)) {
    std::optional<int64_t> Shift = constantInt(Def->getOperand(1));
    if (!Shift || *Shift < 0 || *Shift > 31)
      return Operand(1).K == Stride::Zero
                 ? scaleStride(Operand(0), std::nullopt)
                 : Stride::unknown();
    return scaleStride(Operand(0), int64_t(1) << *Shift);
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(Def))
    return Operand(0);
  return opaque(V);
}

Stride StrideAnalysis::ofAccess(Value MemRef, ValueRange Indices) const {
  auto Type = dyn_cast<MemRefType>(MemRef.getType());
  if (!Type || Taint.dependent(MemRef))
    return opaque(MemRef); // a view offset per thread
  SmallVector<int64_t> Strides;
  int64_t Offset;
  if (failed(getStridesAndOffset(Type, Strides, Offset)))
    return llvm::any_of(Indices, [&](Value I) { return Taint.dependent(I); })
               ? Stride::unknown()
               : Stride::zero();
  Stride Sum = Stride::zero();
  for (auto [Index, Elements] : llvm::zip(Indices, Strides))
    Sum = addStrides(
        Sum, scaleStride(of(Index), ShapedType::isDynamic(Elements)
                                        ? std::nullopt
                                        : std::optional<int64_t>(Elements)));
  return scaleStride(Sum, static_cast<int64_t>(bytesOf(Type.getElementType())));
}

} // namespace gpudialect
} // namespace energy
