//===- TargetChoice.cpp - The GPU and cost model a kernel is planned for --===//

#include "energy/TargetChoice.h"

#include "llvm/ADT/Statistic.h"

#define DEBUG_TYPE "energy-optimize"

STATISTIC(NumModelCacheHits, "Cost models reused for another kernel");

using namespace llvm;

namespace energy {

TargetChoice::TargetChoice(std::string ArchOption, std::string GpuOption,
                           std::string ModelOption)
    : ArchOption(std::move(ArchOption)), GpuOption(std::move(GpuOption)),
      ModelOption(std::move(ModelOption)) {}

const GpuArch &TargetChoice::arch(StringRef Target, StringRef TargetSource,
                                  std::vector<std::string> &Notes) const {
  if (!GpuOption.empty())
    return resolveGpuBoard(Target, GpuOption, Notes);
  return resolveGpuArch(ArchOption.empty() ? Target : StringRef(ArchOption),
                        TargetSource, Notes);
}

Expected<const SelectedModel *> TargetChoice::model(const GpuArch &Arch) {
  auto It = Models.find(&Arch);
  if (It != Models.end()) {
    ++NumModelCacheHits;
    return &It->second;
  }
  SelectedModel Selected;
  if (ModelOption == "analytic") {
    Selected.Model = createAnalyticModel(&Arch);
  } else {
    auto Chosen = selectCostModel(Arch, ModelOption);
    if (!Chosen)
      return Chosen.takeError();
    Selected = std::move(*Chosen);
  }
  return &(Models[&Arch] = std::move(Selected));
}

} // namespace energy
