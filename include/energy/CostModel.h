//===- CostModel.h - Predicted time and energy of one launch ----*- C++ -*-===//
//
// The one interface through which the optimizer (LLVM and MLIR) asks what a
// candidate launch costs. Two backends: an analytic roofline-and-power model
// (the fallback for every architecture, and the baseline) and XGBoost models
// trained on measured data (embedded per architecture, or from a file).
//
// Units: seconds and joules for ONE launch of the kernel on the stated
// workload. Workload convention: the launch processes WorkItems items; a
// thread processes the product of its work-per-thread tunables (1 if none),
// so the launch has ceil(WorkItems / that product) threads, rounded up to
// whole blocks. WorkItems comes from ENERGY_WORKLOAD(kernel, N) in the
// source, else from -energy-workload=N, else DefaultWorkItems.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_COSTMODEL_H
#define ENERGY_COSTMODEL_H

#include "energy/GpuArch.h"
#include "energy/KernelFeatures.h"
#include "energy/Occupancy.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <memory>
#include <string>
#include <vector>

namespace energy {

/// 2^24 items: a 16M-element vector, or a 4096x4096 output matrix.
constexpr uint64_t DefaultWorkItems = uint64_t(1) << 24;

/// One candidate launch, as every cost model sees it.
struct CostQuery {
  const KernelFeatures *Features = nullptr; // per thread, this tunable assignment
  const GpuArch *Arch = nullptr;
  std::array<unsigned, 3> Block = {1, 1, 1};
  uint64_t Blocks = 0;              // grid size, all dimensions
  unsigned SharedBytesPerBlock = 0; // static (after resizing) + dynamic
  Occupancy Occ;

  unsigned threadsPerBlock() const { return Block[0] * Block[1] * Block[2]; }
  double totalThreads() const {
    return static_cast<double>(Blocks) * threadsPerBlock();
  }
};

struct CostPrediction {
  double TimeSeconds = 0;
  double EnergyJoules = 0;
};

class CostModel {
public:
  virtual ~CostModel();
  /// One line for remarks and reports, e.g. "analytic (sm_90, H100 SXM5)".
  virtual std::string describe() const = 0;
  /// Predicts every query; Out has the same size as Queries.
  virtual llvm::Error predict(llvm::ArrayRef<CostQuery> Queries,
                              llvm::MutableArrayRef<CostPrediction> Out) const = 0;
};

/// Inputs of the learned models, in order: the kernel's numeric features,
/// then the launch inputs below. Names are the columns of the training data.
std::vector<std::string> modelInputNames();
/// Appends Q's model inputs (modelInputNames().size() values) to Row; if
/// Analytic is given, also stores there the analytic prediction the inputs
/// hold (so that a caller needing it does not compute it twice).
void appendModelInputs(const CostQuery &Q, std::vector<float> &Row,
                       CostPrediction *Analytic = nullptr);

/// The analytic roofline-and-power model (AnalyticModel.cpp). Arch, if
/// given, only names the architecture in describe(); every query carries its
/// own.
std::unique_ptr<CostModel> createAnalyticModel(const GpuArch *Arch = nullptr);
CostPrediction predictAnalytic(const CostQuery &Q);

/// What the analytic model computed on the way to its prediction, for
/// explanations ("memory-bound at 88% of DRAM bandwidth") and tests. The
/// utilizations are averages over the whole launch, launch overhead included.
struct AnalyticBreakdown {
  CostPrediction Prediction;
  double AveragePowerW = 0;      // EnergyJoules / TimeSeconds
  double DramUtilization = 0;    // DRAM bytes / (peak bandwidth x time)
  double ComputeUtilization = 0; // busiest pipe's share of its peak rate
  double SmBusyFraction = 0;     // busy SM-seconds / (SMCount x time)
  double Waves = 0;              // blocks / (active blocks per SM x SMCount)
  /// What bounds the full waves (the tail if there are none): "dram",
  /// "fp32", "fp16", "fp64", "tensor", "int", "conversion", "sfu",
  /// "shuffle", "issue", "shared", "atomic", "launch" (the SM's block
  /// launch rate: blocks with little work).
  const char *Limiter = "";
};
AnalyticBreakdown analyzeAnalytic(const CostQuery &Q);

/// An XGBoost model from the JSON written by `python3 -m energy.train`.
/// Origin names the source in messages (a file name or "embedded sm_90").
llvm::Expected<std::unique_ptr<CostModel>>
createXGBoostModel(llvm::StringRef JSON, llvm::StringRef Origin);

/// A model compiled into the plugin from models/sm_XX.json at build time.
struct EmbeddedModel {
  llvm::StringRef Arch; // "sm_90", from the file name
  llvm::StringRef JSON; // the file's bytes
};
/// Every embedded model, ascending by file name; empty if none was built in.
llvm::ArrayRef<EmbeddedModel> embeddedModels();

/// The model for Arch: ModelFile if given (errors are returned, never
/// swallowed), else the embedded model of Arch or of a nearby architecture
/// (Note then says which), else the analytic model.
struct SelectedModel {
  std::unique_ptr<CostModel> Model;
  /// Non-empty when Arch's own model does not serve: says which model does
  /// and why ("using the sm_86 model for sm_89").
  std::string Note;
};
llvm::Expected<SelectedModel> selectCostModel(const GpuArch &Arch,
                                              llvm::StringRef ModelFile);

} // namespace energy

#endif
