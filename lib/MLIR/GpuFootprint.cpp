//===- GpuFootprint.cpp - Global bytes a gpu.func block touches -----------===//

#include "GpuFootprint.h"
#include "GpuAccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace energy {
namespace gpudialect {

GpuFootprint::GpuFootprint(std::array<unsigned, 3> Block,
                           std::function<double(scf::ForOp)> Trips)
    : Block(Block), Trips(std::move(Trips)), Groups(Block) {}

std::optional<GpuFootprint::Affine>
GpuFootprint::affineOf(Value V, unsigned Depth) const {
  auto Constant = [](int64_t C) {
    Affine A;
    A.Constant = C;
    return std::optional<Affine>(A);
  };
  auto Variable = [](Var X, const void *Of, int64_t Coefficient) {
    Affine A;
    A.Coefficients[{X, Of}] = Coefficient;
    return A;
  };
  if (std::optional<int64_t> C = constantInt(V))
    return Constant(*C);
  if (Depth > MaxDepth)
    return std::nullopt;
  if (auto Arg = dyn_cast<BlockArgument>(V)) {
    Operation *Owner = Arg.getOwner()->getParentOp();
    // An integer kernel argument: a size, taken as the default extent.
    if (isa<gpu::GPUFuncOp>(Owner) && Arg.getType().isIntOrIndex())
      return Constant(DefaultExtent);
    // lower bound + step x iteration.
    auto For = dyn_cast<scf::ForOp>(Owner);
    if (!For || Arg != For.getInductionVar())
      return std::nullopt;
    std::optional<int64_t> Step = constantInt(For.getStep());
    std::optional<Affine> Lower = affineOf(For.getLowerBound(), Depth + 1);
    if (!Step || !Lower)
      return std::nullopt;
    Lower->Coefficients[{Var::Loop, For.getOperation()}] = *Step;
    return Lower;
  }
  Operation *Def = V.getDefiningOp();
  auto Axis = [](gpu::Dimension D) { return static_cast<unsigned>(D); };
  if (auto Tid = dyn_cast<gpu::ThreadIdOp>(Def))
    return Variable(Var(unsigned(Var::ThreadX) + Axis(Tid.getDimension())),
                    nullptr, 1);
  if (auto Bid = dyn_cast<gpu::BlockIdOp>(Def))
    return Variable(Var(unsigned(Var::BlockX) + Axis(Bid.getDimension())),
                    nullptr, 1);
  if (auto Dim = dyn_cast<gpu::BlockDimOp>(Def))
    return Constant(Block[Axis(Dim.getDimension())]);
  if (auto Gid = dyn_cast<gpu::GlobalIdOp>(Def)) {
    unsigned D = Axis(Gid.getDimension());
    Affine A = Variable(Var(unsigned(Var::ThreadX) + D), nullptr, 1);
    A.Coefficients[{Var(unsigned(Var::BlockX) + D), nullptr}] = Block[D];
    return A;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(Def))
    return affineOf(Def->getOperand(0), Depth + 1);
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::ShLIOp,
           arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(Def))
    return std::nullopt;
  std::optional<Affine> L = affineOf(Def->getOperand(0), Depth + 1);
  std::optional<Affine> R = affineOf(Def->getOperand(1), Depth + 1);
  if (!L || !R)
    return std::nullopt;
  auto Scaled = [](Affine A, int64_t By) {
    A.Constant *= By;
    for (auto &[Leaf, C] : A.Coefficients)
      C *= By;
    return A;
  };
  if (isa<arith::AddIOp, arith::SubIOp>(Def)) {
    int64_t Sign = isa<arith::SubIOp>(Def) ? -1 : 1;
    L->Constant += Sign * R->Constant;
    for (auto [Leaf, C] : R->Coefficients)
      L->Coefficients[Leaf] += Sign * C;
    return L;
  }
  bool LConstant = L->Coefficients.empty(), RConstant = R->Coefficients.empty();
  if (isa<arith::MulIOp>(Def)) {
    if (RConstant)
      return Scaled(*L, R->Constant);
    if (LConstant)
      return Scaled(*R, L->Constant);
    return std::nullopt;
  }
  if (isa<arith::ShLIOp>(Def)) {
    if (!RConstant || R->Constant < 0 || R->Constant > 31)
      return std::nullopt;
    return Scaled(*L, int64_t(1) << R->Constant);
  }
  // Division and remainder of sizes (n / 2 is a pitch).
  if (!LConstant || !RConstant || R->Constant == 0)
    return std::nullopt;
  if (isa<arith::DivSIOp, arith::DivUIOp>(Def))
    return Constant(L->Constant / R->Constant);
  return Constant(L->Constant % R->Constant);
}

/// Elements between consecutive indices of each dimension, row-major; a
/// dynamic extent counts as DefaultExtent.
static std::optional<SmallVector<int64_t>> rowMajorStrides(MemRefType T) {
  if (!T.getLayout().isIdentity())
    return std::nullopt;
  SmallVector<int64_t> Strides(T.getRank(), 1);
  for (int64_t D = T.getRank() - 2; D >= 0; --D) {
    int64_t Extent = T.getDimSize(D + 1);
    if (ShapedType::isDynamic(Extent))
      Extent = DefaultExtent;
    if (llvm::MulOverflow(Strides[D + 1], Extent, Strides[D]))
      return std::nullopt;
  }
  return Strides;
}

bool GpuFootprint::add(Operation *At, Value MemRef, ValueRange Indices,
                       uint64_t AccessBytes, double Executions, bool IsStore) {
  auto Type = dyn_cast<MemRefType>(MemRef.getType());
  auto Arg = dyn_cast<BlockArgument>(MemRef);
  bool KernelArgument =
      Arg && isa<gpu::GPUFuncOp>(Arg.getOwner()->getParentOp());
  if (!Type || AccessBytes == 0 ||
      !(KernelArgument || MemRef.getDefiningOp<memref::GetGlobalOp>()))
    return false;
  std::optional<SmallVector<int64_t>> Strides = rowMajorStrides(Type);
  if (!Strides || Indices.size() != Strides->size())
    return false;
  // The address in bytes from the memref's start.
  auto ElementBytes = static_cast<int64_t>(bytesOf(Type.getElementType()));
  Affine Address;
  for (auto [Index, Elements] : llvm::zip(Indices, *Strides)) {
    std::optional<Affine> A = affineOf(Index, 0);
    if (!A)
      return false;
    Address.Constant += A->Constant * Elements * ElementBytes;
    for (auto [Leaf, C] : A->Coefficients)
      Address.Coefficients[Leaf] += C * Elements * ElementBytes;
  }
  FootprintAccess F;
  F.AccessBytes = AccessBytes;
  F.Executions = Executions;
  F.IsStore = IsStore;
  F.Constant = Address.Constant;
  // A global read through several get_global ops is one base.
  auto Global = MemRef.getDefiningOp<memref::GetGlobalOp>();
  F.Identity = {reinterpret_cast<intptr_t>(
      Global ? Global.getNameAttr().getAsOpaquePointer()
             : MemRef.getAsOpaquePointer())};
  auto Coefficient = [&](Var X, const void *Of = nullptr) {
    auto It = Address.Coefficients.find({X, Of});
    return It == Address.Coefficients.end() ? 0 : It->second;
  };
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    int64_t C = Coefficient(Var(unsigned(Var::ThreadX) + Axis));
    F.ThreadStride[Axis] = C;
    if (C != 0)
      F.Terms.push_back({C, double(Block[Axis])});
  }
  // The uniform part: which blocks read the same bytes.
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    int64_t C = Coefficient(Var(unsigned(Var::BlockX) + Axis));
    F.Identity.push_back(C);
    if (C != 0)
      F.BlockAxes |= 1u << Axis;
  }
  // The loops around At, innermost first (no other loop's induction
  // variable reaches At).
  for (Operation *P = At->getParentOp(); P && !isa<gpu::GPUFuncOp>(P);
       P = P->getParentOp()) {
    if (!isa<scf::ForOp, scf::WhileOp>(P))
      continue;
    bool Outermost = !P->getParentOfType<scf::ForOp>() &&
                     !P->getParentOfType<scf::WhileOp>();
    auto For = dyn_cast<scf::ForOp>(P);
    int64_t C = Coefficient(Var::Loop, P);
    if (For && C != 0)
      F.Terms.push_back({C, Trips(For), Outermost});
  }
  Groups.add(std::move(F));
  return true;
}

} // namespace gpudialect
} // namespace energy
