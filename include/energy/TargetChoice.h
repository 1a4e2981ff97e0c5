//===- TargetChoice.h - The GPU and model to plan for -----------*- C++ -*-===//
//
// One choice of tables and model for both passes (the LLVM pass and the MLIR
// gpu-dialect pass): the board the gpu option names, else the default board
// of the arch option or of the kernel's target; the model file, "analytic",
// else the embedded model of the board's architecture. Each model is built
// once per board.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_TARGETCHOICE_H
#define ENERGY_TARGETCHOICE_H

#include "energy/CostModel.h"
#include "energy/GpuArch.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <vector>

namespace energy {

class TargetChoice {
public:
  /// Options as the user gave them (empty: not given), checked by
  /// checkGpuOptions.
  TargetChoice(std::string ArchOption, std::string GpuOption,
               std::string ModelOption);

  /// The tables for code compiled for Target (an sm_XX CPU name, or empty
  /// when TargetSource, e.g. "sm_XX target-cpu", is missing). Notes say when
  /// they are assumed or approximated, or when the board's architecture is
  /// not the target's.
  const GpuArch &arch(llvm::StringRef Target, llvm::StringRef TargetSource,
                      std::vector<std::string> &Notes) const;
  /// Whether the user named the board (-energy-gpu); else each sm_XX is its
  /// default board, which the report says (`gpu_from`).
  bool boardNamed() const { return !GpuOption.empty(); }

  /// The model for Arch: the model option's file, the analytic model when it
  /// is "analytic", else selectCostModel's choice.
  llvm::Expected<const SelectedModel *> model(const GpuArch &Arch);

private:
  std::string ArchOption, GpuOption, ModelOption;
  std::map<const GpuArch *, SelectedModel> Models; // by board
};

} // namespace energy

#endif
