//===- CandidateFeatures.cpp - Features under one tunable assignment ------===//

#include "CandidateFeatures.h"
#include "KernelRewriter.h"

#include "energy/CallCycles.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

using namespace llvm;

namespace energy {

CandidateFeatureExtractor::CandidateFeatureExtractor(FeatureOptions Opts)
    : Opts(Opts) {
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  Cleanup.addPass(SROAPass(SROAOptions::ModifyCFG));
  Cleanup.addPass(EarlyCSEPass());
  Cleanup.addPass(InstCombinePass());
  Cleanup.addPass(SimplifyCFGPass());
  Cleanup.addPass(LoopSimplifyPass());
}

/// Inlines every call of a defined function into F, except of functions on
/// a call cycle: each inlined copy of those would bring its recursive calls
/// back (fib: five per body, 5^8 copies in 8 rounds). The feature counter
/// counts their calls once each instead.
static void inlineCalls(Function &F) {
  CallCycles Cycles(F);
  constexpr unsigned MaxRounds = 8;
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    SmallVector<CallBase *, 8> Calls;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (Function *Callee = Call->getCalledFunction())
            if (!Callee->isDeclaration() && !Cycles.isRecursive(*Callee))
              Calls.push_back(Call);
    if (Calls.empty())
      return;
    for (CallBase *Call : Calls) {
      InlineFunctionInfo IFI;
      (void)InlineFunction(*Call, IFI); // a refused call stays a call
    }
  }
}

CandidateFeatureExtractor::~CandidateFeatureExtractor() { release(); }

void CandidateFeatureExtractor::release() {
  if (Prepared)
    Prepared->eraseFromParent();
  Prepared = nullptr;
  Kernel = nullptr;
}

Function &CandidateFeatureExtractor::prepared(Function &K) {
  if (Kernel != &K) {
    release();
    ValueToValueMapTy VMap;
    Prepared = CloneFunction(&K, VMap);
    // -O0 kernels are optnone: the clone is ours to simplify.
    Prepared->removeFnAttr(Attribute::OptimizeNone);
    Prepared->removeFnAttr(Attribute::NoInline);
    inlineCalls(*Prepared);
    Cleanup.run(*Prepared, FAM);
    FAM.clear(*Prepared, Prepared->getName());
    Kernel = &K;
  }
  return *Prepared;
}

Expected<KernelFeatures> CandidateFeatureExtractor::extract(
    Function &K, ArrayRef<std::pair<GlobalVariable *, int>> Values) {
  prepared(K);
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(Prepared, VMap);
  for (auto [Var, Value] : Values)
    if (Error E = replaceTunableReads(*Var, Value, {Copy})) {
      Copy->eraseFromParent();
      return E;
    }
  KernelFeatures Features = computeKernelFeatures(*Copy, Opts);
  Features.Name = K.getName().str();
  Copy->eraseFromParent();
  return Features;
}

} // namespace energy
