//===- LocalAnalyses.h - Loops and SCEV of one function, on the spot -*- C++ -*-===//
//
// The feature counter and the callee summaries analyze functions outside any
// pass manager (callees, clones): this builds what ScalarEvolution needs.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_LOCALANALYSES_H
#define ENERGY_LIB_LOCALANALYSES_H

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace energy {

struct LocalAnalyses {
  explicit LocalAnalyses(llvm::Function &F)
      : DT(F), LI(DT), TLII(llvm::Triple(F.getParent()->getTargetTriple())),
        TLI(TLII, &F), AC(F), SE(F, TLI, AC, DT, LI) {}

  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::TargetLibraryInfoImpl TLII;
  llvm::TargetLibraryInfo TLI;
  llvm::AssumptionCache AC;
  llvm::ScalarEvolution SE;
};

} // namespace energy

#endif
