//===- GpuRegisterPressure.cpp - Peak live values of a gpu.func -----------===//

#include "GpuRegisterPressure.h"

#include "FeatureCore.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Region.h"

#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <vector>

using namespace mlir;

namespace energy {
namespace gpudialect {

/// 32-bit registers a live value of T holds, by the rules the LLVM adapter
/// follows (FeatureCore.h); index and memref values are 64-bit pointers and
/// offsets.
static double registersOf(Type T) {
  constexpr uint64_t PointerBits = 64;
  auto BitsOf = [&](Type E) {
    return E.isIntOrFloat() ? uint64_t(E.getIntOrFloatBitWidth()) : PointerBits;
  };
  if (auto V = dyn_cast<VectorType>(T)) {
    if (V.getElementType().isInteger(1))
      return 0; // predicates
    return registersForVector(uint64_t(V.getNumElements()),
                              BitsOf(V.getElementType()));
  }
  if (T.isInteger(1))
    return 0; // predicates
  return registersForBits(BitsOf(T));
}

double peakLiveRegisters(Region &Body) {
  llvm::DenseMap<Operation *, std::pair<unsigned, unsigned>> Span;
  unsigned N = 0;
  std::function<void(Operation *)> Number = [&](Operation *Op) {
    unsigned First = N++;
    for (Region &R : Op->getRegions())
      for (Block &B : R)
        for (Operation &Inner : B)
          Number(&Inner);
    Span[Op] = {First, N - 1};
  };
  for (Block &B : Body)
    for (Operation &Op : B)
      Number(&Op);

  std::vector<LiveSpan> Spans;
  auto Live = [&](Value V, unsigned Def) {
    double Regs = registersOf(V.getType());
    Operation *DefOp = V.getDefiningOp();
    if (Regs == 0 || V.use_empty() ||
        (DefOp && DefOp->hasTrait<OpTrait::ConstantLike>()))
      return;
    unsigned Last = Def;
    for (Operation *User : V.getUsers()) {
      unsigned P = Span.lookup(User).first;
      // Used in a loop it is not defined in: live for the whole loop.
      for (Operation *L = User->getParentOp(); L && Span.count(L);
           L = L->getParentOp()) {
        auto [Begin, End] = Span[L];
        if (isa<scf::ForOp, scf::WhileOp>(L) && (Def < Begin || Def > End))
          P = std::max(P, End);
      }
      Last = std::max(Last, P);
    }
    Spans.push_back({Def, Last, Regs});
  };
  for (BlockArgument A : Body.getArguments())
    Live(A, 0);
  Body.walk([&](Operation *Op) {
    auto [First, Last] = Span[Op];
    for (Value R : Op->getResults())
      Live(R, Op->getNumRegions() ? Last : First);
    for (Region &R : Op->getRegions())
      for (Block &B : R)
        for (BlockArgument A : B.getArguments())
          Live(A, First);
  });
  return peakOfLiveSpans(Spans);
}

} // namespace gpudialect
} // namespace energy
