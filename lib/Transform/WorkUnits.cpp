//===- WorkUnits.cpp - The work unit a thread's index numbers -------------===//

#include "WorkUnits.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace energy {

const char *axisName(unsigned Axis) {
  return Axis == 0 ? "x" : Axis == 1 ? "y" : "z";
}

Poly Poly::constant(int64_t C) {
  Poly P;
  if (C)
    P.Terms[{}] = C;
  return P;
}

Poly Poly::atom(Atom A) {
  Poly P;
  P.Terms[{A}] = 1;
  return P;
}

bool Poly::mentions(function_ref<bool(const Atom &)> Pred) const {
  for (const auto &[M, C] : Terms)
    if (llvm::any_of(M, Pred))
      return true;
  return false;
}

bool Poly::mentions(const Atom &A) const {
  return mentions([&](const Atom &B) { return A == B; });
}

static constexpr size_t MaxTerms = 64, MaxDegree = 8;

static bool addTerm(Poly &P, const Monomial &M, int64_t C) {
  int64_t &Slot = P.Terms[M];
  if (AddOverflow(Slot, C, Slot))
    return false;
  if (!Slot)
    P.Terms.erase(M);
  return P.Terms.size() <= MaxTerms;
}

std::optional<Poly> add(Poly A, const Poly &B) {
  for (const auto &[M, C] : B.Terms)
    if (!addTerm(A, M, C))
      return std::nullopt;
  return A;
}

std::optional<Poly> mul(const Poly &A, const Poly &B) {
  Poly P;
  for (const auto &[MA, CA] : A.Terms)
    for (const auto &[MB, CB] : B.Terms) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      llvm::sort(M);
      int64_t C;
      if (M.size() > MaxDegree || MulOverflow(CA, CB, C) || !addTerm(P, M, C))
        return std::nullopt;
    }
  return P;
}

bool invariant(const Poly &P, const AtomFacts &Facts) {
  return !P.mentions([&](const Atom &A) {
    return A.K != Atom::Opaque || Facts.Class(A).L != Level::Inv;
  });
}

/// The coefficient of A in P: the monomials holding A once, divided by it.
/// False when some monomial holds A more than once.
static bool coefficientOf(const Poly &P, const Atom &A, Poly &Coef) {
  Coef = Poly();
  for (const auto &[M, C] : P.Terms) {
    auto N = llvm::count(M, A);
    if (N > 1)
      return false;
    if (N == 1) {
      Monomial Rest = M;
      Rest.erase(llvm::find(Rest, A));
      Coef.Terms[Rest] = C;
    }
  }
  return true;
}

static void dropTermsWith(Poly &P, const Atom &A) {
  for (auto It = P.Terms.begin(); It != P.Terms.end();)
    It = llvm::is_contained(It->first, A) ? P.Terms.erase(It) : std::next(It);
}

/// Takes the work unit of Axis out of P (the threadIdx, blockIdx and loop
/// digits it numbers), leaving the rest; or says why P uses the axis
/// otherwise. Out stays empty when P does not use the axis.
static std::optional<std::string>
takeUnitChain(Poly &P, unsigned Axis, const AtomFacts &Facts,
              std::optional<UnitChain> &Out) {
  std::string X = axisName(Axis);
  Atom T = Atom::shape(Reg::Tid, Axis), C = Atom::shape(Reg::Ctaid, Axis),
       N = Atom::shape(Reg::Ntid, Axis), G = Atom::shape(Reg::Nctaid, Axis);
  auto OfAxis = [&](const Atom &A) {
    return A == T || A == C || A == N || A == G;
  };
  if (!P.mentions(OfAxis))
    return std::nullopt;
  Poly Scale;
  if (!coefficientOf(P, T, Scale))
    return "threadIdx." + X + " is multiplied by itself";
  if (Scale.empty()) {
    if (P.mentions(C))
      return "blockIdx." + X + " is used without threadIdx." + X +
             ": a block's work then depends on how many threads it has";
    if (P.mentions(N))
      return "blockDim." + X + " is used as a value";
    return "gridDim." + X + " is used other than in a grid-stride step";
  }
  if (!invariant(Scale, Facts))
    return "threadIdx." + X +
           " is used other than in the global index blockIdx." + X +
           " * blockDim." + X + " + threadIdx." + X;
  dropTermsWith(P, T);
  UnitChain Chain;
  Chain.Scale = Scale;
  Chain.Digits.push_back({T, std::nullopt});
  auto Weight = mul(Scale, Poly::atom(N));
  bool HaveBlock = false;
  while (Weight && !Chain.TopLoop) {
    Poly W;
    if (!HaveBlock && coefficientOf(P, C, W) && !W.empty() && W == *Weight) {
      dropTermsWith(P, C);
      Chain.Digits.push_back({C, std::nullopt});
      HaveBlock = true;
      Weight = mul(*Weight, Poly::atom(G));
      continue;
    }
    // The lowest loop digit of this weight.
    std::optional<unsigned> Next;
    for (const auto &[M, Coef] : P.Terms)
      for (const Atom &A : M)
        if (A.K == Atom::Digit && (!Next || A.Id < *Next) &&
            coefficientOf(P, A, W) && W == *Weight)
          Next = A.Id;
    if (!Next)
      break;
    Atom D = Atom::digit(*Next);
    dropTermsWith(P, D);
    const std::optional<Poly> &R = Facts.Radix(*Next);
    Chain.Digits.push_back({D, R});
    if (R)
      Weight = mul(*Weight, *R);
    else
      Chain.TopLoop = *Next;
  }
  if (!HaveBlock) {
    Poly W;
    if (coefficientOf(P, C, W) && W.Terms.size() == 1 &&
        W.Terms.begin()->first.empty())
      return "blockIdx." + X + " is multiplied by " +
             std::to_string(W.Terms.begin()->second) + ", not by blockDim." +
             X + ": the code assumes that many threads per block";
    if (P.mentions(C))
      return "blockIdx." + X + " is not multiplied by the threads of a block "
             "(blockIdx." + X + " * blockDim." + X + " + threadIdx." + X + ")";
    return "threadIdx." + X + " is used without blockIdx." + X +
           ": the code depends on the size of its block";
  }
  if (P.mentions(OfAxis))
    return "blockDim." + X + " or gridDim." + X +
           " enters an index beyond the global index and its grid-stride "
           "steps";
  Out = std::move(Chain);
  return std::nullopt;
}

Classified classifyUnits(const std::optional<Poly> &Built,
                         const std::array<bool, 3> &Free,
                         const AtomFacts &Facts,
                         function_ref<void(unsigned Loop)> LoopDigit) {
  if (!Built)
    return {Level::Bad, Level::Bad, true, "an index is too complex to analyze", {}};
  Poly P = *Built;
  Classified Result;
  for (unsigned Axis = 0; Axis < 3; ++Axis) {
    if (!Free[Axis])
      continue;
    if (auto Why = takeUnitChain(P, Axis, Facts, Result.Chains[Axis]))
      return {Level::Bad, Level::Bad, true, *Why, {}};
    if (Result.Chains[Axis])
      Result.L = Level::Item;
  }
  for (const auto &[M, Coef] : P.Terms) {
    if (llvm::any_of(M, [](const Atom &A) { return A.K == Atom::Digit; }) &&
        (Coef < 0 || llvm::any_of(M, [](const Atom &A) {
           return A.K != Atom::Digit;
         })))
      Result.RestDigitsAdd = false;
    for (const Atom &A : M) {
      if (A.K == Atom::Digit) {
        LoopDigit(A.Id);
        continue;
      }
      Classified O = Facts.Class(A);
      if (O.L == Level::Bad)
        return {Level::Bad, Level::Bad, true, O.Why, {}};
      Result.L = join(Result.L, O.L);
      Result.Rest = join(Result.Rest, O.L);
    }
  }
  return Result;
}

std::optional<std::string> UnitNumbering::note(unsigned Axis,
                                               const UnitChain &C) {
  for (const UnitDigit &D : C.Digits)
    if (D.A.K == Atom::Digit)
      ItemLoops.try_emplace(D.A.Id, Axis);
  if (!Canonical[Axis]) {
    Canonical[Axis] = C;
    return std::nullopt;
  }
  if (Canonical[Axis]->Digits == C.Digits)
    return std::nullopt;
  return std::string("threads number their work along ") + axisName(Axis) +
         " in two ways (other loops, or another order of the thread index, "
         "the block index and the loop steps)";
}

} // namespace energy
