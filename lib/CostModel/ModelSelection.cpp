//===- ModelSelection.cpp - Which cost model serves an architecture -------===//
//
// In order:
//  1. A model file the user names (-energy-model=FILE). If it cannot be read
//     or is not a valid model, the compile FAILS with that error: the user
//     asked for this model, and silently optimizing with another one would
//     make every choice a surprise. The pass reports it as `error: ...`.
//  2. The embedded model of the target architecture (models/sm_XX.json at
//     build time).
//  3. An embedded model of the same major architecture, closest lower
//     version first (sm_89 -> sm_86), else the closest (sm_86 -> sm_89),
//     with a Note "using the sm_86 model for sm_89".
//  4. The analytic model.
// An embedded model that fails to load (it was trained on other inputs than
// this build's) falls through to the next choice with a Note saying why; the
// unit tests load every embedded model, so a release never ships one.
//
//===----------------------------------------------------------------------===//

#include "energy/CostModel.h"

#include "llvm/Support/MemoryBuffer.h"

#include <utility>

using namespace energy;

// Anchors CostModel's vtable in this library.
CostModel::~CostModel() = default;

/// The embedded model for Arch: its own, else the nearest of its major,
/// preferring lower versions (a newer GPU runs an older one's code alike).
static const EmbeddedModel *findEmbedded(const GpuArch &Arch) {
  auto Rank = [&](unsigned V) {
    bool Above = V > Arch.SmVersion;
    return std::make_pair(Above, Above ? V - Arch.SmVersion
                                       : Arch.SmVersion - V);
  };
  const EmbeddedModel *Best = nullptr;
  std::pair<bool, unsigned> BestRank;
  for (const EmbeddedModel &M : embeddedModels()) {
    std::optional<unsigned> V = parseSmVersion(M.Arch);
    if (!V || *V / 10 != Arch.SmVersion / 10)
      continue;
    if (!Best || Rank(*V) < BestRank) {
      Best = &M;
      BestRank = Rank(*V);
    }
  }
  return Best;
}

llvm::Expected<SelectedModel> energy::selectCostModel(const GpuArch &Arch,
                                                      llvm::StringRef ModelFile) {
  SelectedModel Selected;
  if (!ModelFile.empty()) {
    auto Buffer = llvm::MemoryBuffer::getFile(ModelFile, /*IsText=*/true);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(),
                                     "cannot read model '" + ModelFile +
                                         "': " + Buffer.getError().message());
    auto Model = createXGBoostModel((*Buffer)->getBuffer(), ModelFile);
    if (!Model)
      return Model.takeError();
    Selected.Model = std::move(*Model);
    return Selected;
  }

  if (const EmbeddedModel *M = findEmbedded(Arch)) {
    auto Model = createXGBoostModel(M->JSON, "embedded " + M->Arch.str());
    if (Model) {
      Selected.Model = std::move(*Model);
      if (M->Arch != Arch.Name)
        Selected.Note = "using the " + M->Arch.str() + " model for " +
                        std::string(Arch.Name);
      return Selected;
    }
    Selected.Note = "using the analytic model for " + std::string(Arch.Name) +
                    ": " + toString(Model.takeError());
  }
  Selected.Model = createAnalyticModel(&Arch);
  return Selected;
}
