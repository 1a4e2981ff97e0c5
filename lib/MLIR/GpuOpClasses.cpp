//===- GpuOpClasses.cpp - What a gpu-dialect kernel's ops are --------------===//

#include "GpuOpClasses.h"

#include "GpuAccessAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace energy::gpudialect;

namespace energy {

bool modeledDialect(Operation *Op) {
  Dialect *D = Op->getDialect();
  return D && llvm::is_contained({"arith", "math", "memref", "vector", "index",
                                  "scf", "gpu", "func", "ub"},
                                 D->getNamespace());
}

bool contracts(Operation *Op) {
  auto FM = dyn_cast<arith::ArithFastMathInterface>(Op);
  arith::FastMathFlagsAttr Flags = FM ? FM.getFastMathFlagsAttr() : nullptr;
  return Flags && arith::bitEnumContainsAll(Flags.getValue(),
                                            arith::FastMathFlags::contract);
}

bool approximates(Operation *Op) {
  auto FM = dyn_cast<arith::ArithFastMathInterface>(Op);
  arith::FastMathFlagsAttr Flags = FM ? FM.getFastMathFlagsAttr() : nullptr;
  if (!Flags)
    return false;
  auto Allowed = arith::FastMathFlags::afn;
  if (isa<arith::DivFOp>(Op))
    Allowed = Allowed | arith::FastMathFlags::arcp;
  return arith::bitEnumContainsAny(Flags.getValue(), Allowed);
}

Operation *fusedOperand(Operation *Add) {
  if (!isa<arith::AddFOp, arith::SubFOp>(Add) || !contracts(Add))
    return nullptr;
  for (Value V : Add->getOperands())
    if (auto Mul = V.getDefiningOp<arith::MulFOp>();
        Mul && contracts(Mul) && Mul->hasOneUse())
      return Mul;
  return nullptr;
}

bool fusesIntoUser(Operation *Mul) {
  return Mul->hasOneUse() && fusedOperand(*Mul->user_begin()) == Mul;
}

CallKind mathKind(StringRef Name) {
  StringRef Op = Name.drop_front(StringRef("math.").size());
  StringRef Intrinsic = llvm::StringSwitch<StringRef>(Op)
                            .Case("absf", "fabs")
                            .Case("absi", "abs")
                            .Default(Op);
  CallKind Kind = classifyCallee(("llvm." + Intrinsic).str());
  return Kind == CallKind::Other ? CallKind::Special : Kind;
}

bool isVectorDataMovement(StringRef Name) {
  return llvm::is_contained(
      {"vector.broadcast", "vector.extract", "vector.insert",
       "vector.extractelement", "vector.insertelement", "vector.splat",
       "vector.shuffle", "vector.bitcast", "vector.shape_cast",
       "vector.from_elements", "vector.extract_strided_slice",
       "vector.insert_strided_slice", "vector.transpose", "vector.step",
       "vector.create_mask", "vector.constant_mask", "vector.print"},
      Name);
}

std::optional<CopyPieces> memrefCopyPieces(memref::CopyOp Copy) {
  auto Source = dyn_cast<MemRefType>(Copy.getSource().getType());
  if (!Source || !Source.hasStaticShape())
    return std::nullopt;
  auto Bytes = static_cast<uint64_t>(Source.getNumElements()) *
               static_cast<uint64_t>(bytesOf(Source.getElementType()));
  return copyPieces(Bytes, /*Align=*/1);
}

unsigned issueSlots(Operation *Op) {
  StringRef Name = Op->getName().getStringRef();
  if (auto Copy = dyn_cast<memref::CopyOp>(Op))
    if (auto P = memrefCopyPieces(Copy))
      return 2 * P->Pieces; // a load and a store each
  if (isVectorDataMovement(Name)) {
    // A position taken from a value: one operand more than the moved ones.
    unsigned Moved = Name.starts_with("vector.insert") ? 2 : 1;
    bool Dynamic = (Name.starts_with("vector.extract") ||
                    Name.starts_with("vector.insert")) &&
                   !Name.ends_with("strided_slice") &&
                   Op->getNumOperands() > Moved;
    return Dynamic ? 1 : 0;
  }
  if (Name == "vector.load")
    return memoryIssueSlots(bytesOf(Op->getResult(0).getType()));
  if (Name == "vector.store")
    return memoryIssueSlots(bytesOf(Op->getOperand(0).getType()));
  VectorType Widest;
  auto Widen = [&](Type T) {
    auto V = dyn_cast<VectorType>(T);
    if (V && (!Widest || V.getNumElements() > Widest.getNumElements()))
      Widest = V;
  };
  llvm::for_each(Op->getResultTypes(), Widen);
  llvm::for_each(Op->getOperandTypes(), Widen);
  if (!Widest)
    return 1;
  Type Element = Widest.getElementType();
  return vectorIssueSlots(Widest.getNumElements(),
                          Element.isIntOrFloat() ? Element.getIntOrFloatBitWidth()
                                                 : 64); // index
}

bool isIntOp(Operation *Op) {
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
             arith::DivUIOp, arith::CeilDivSIOp, arith::CeilDivUIOp,
             arith::FloorDivSIOp, arith::RemSIOp, arith::RemUIOp, arith::AndIOp,
             arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRSIOp,
             arith::ShRUIOp, arith::CmpIOp, arith::SelectOp, arith::MaxSIOp,
             arith::MaxUIOp, arith::MinSIOp, arith::MinUIOp,
             arith::AddUIExtendedOp, arith::MulSIExtendedOp,
             arith::MulUIExtendedOp>(Op);
}

ScalarKind scalarKind(Type T) {
  Type Scalar = getElementTypeOrSelf(T);
  if (Scalar.isF32())
    return ScalarKind::F32;
  if (Scalar.isF16() || Scalar.isBF16())
    return ScalarKind::F16;
  if (Scalar.isF64())
    return ScalarKind::F64;
  return ScalarKind::Other;
}

} // namespace energy
