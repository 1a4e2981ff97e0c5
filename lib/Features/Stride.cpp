//===- Stride.cpp - How an address moves with threadIdx.x -----------------===//

#include "Stride.h"

#include "llvm/Support/MathExtras.h"

namespace energy {

Stride addStrides(Stride A, Stride B) {
  if (A.K == Stride::Unknown || B.K == Stride::Unknown)
    return Stride::unknown();
  if (A.K == Stride::Zero)
    return B;
  if (B.K == Stride::Zero)
    return A;
  int64_t Sum;
  if (A.K == Stride::Constant && B.K == Stride::Constant &&
      !llvm::AddOverflow(A.Bytes, B.Bytes, Sum))
    return Stride::constant(Sum);
  return Stride::symbolic();
}

Stride scaleStride(Stride S, std::optional<int64_t> Factor) {
  if (S.K == Stride::Zero || S.K == Stride::Unknown)
    return S;
  int64_t Product;
  if (!Factor || S.K == Stride::Symbolic ||
      llvm::MulOverflow(S.Bytes, *Factor, Product))
    return Stride::symbolic();
  return Stride::constant(Product);
}

StrideClass classifyStride(Stride S, uint64_t AccessBytes) {
  switch (S.K) {
  case Stride::Zero:
    return StrideClass::Uniform;
  case Stride::Constant:
    return static_cast<uint64_t>(S.Bytes < 0 ? -S.Bytes : S.Bytes) == AccessBytes
               ? StrideClass::Coalesced
               : StrideClass::Strided;
  case Stride::Symbolic:
    return StrideClass::Strided;
  case Stride::Unknown:
    return StrideClass::Irregular;
  }
  return StrideClass::Irregular;
}

} // namespace energy
