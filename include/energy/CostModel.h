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
  /// Blocks along x, where the launch states its grid; 0 where only Blocks
  /// is known (the model then takes the threads' domain to be square).
  uint64_t GridColumns = 0;
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

/// The analytic model's efficiency constants: what the datasheets do not
/// say, estimated from microbenchmark papers (AnalyticModel.cpp cites them)
/// and, per architecture family, fitted to measured data by
/// `python3 -m energy.calibrate` (lib/CostModel/CalibratedConstants.inc).
/// X(Field, Default, Doc); the order is the calibration tool's.
#define ENERGY_ANALYTIC_CONSTANTS(X)                                           \
  X(DramEfficiency, 0.90, "achievable share of the datasheet DRAM bandwidth")  \
  X(DramLatencyNs, 600.0, "loaded DRAM latency")                               \
  X(AccessesInFlightPerWarp, 4.0,                                              \
    "independent global accesses a warp keeps in flight")                      \
  X(DependentIssueCycles, 4.0, "cycles between dependent instructions")        \
  X(L2Efficiency, 1.0, "achievable share of the L2 bandwidth estimate")        \
  X(SharedEfficiency, 1.0, "achievable share of shared-memory bandwidth")      \
  X(BarrierCycles, 20.0, "cost of a __syncthreads all warps reach together")   \
  X(BlockLaunchCycles, 50.0, "cycles an SM needs to start a block")            \
  X(SameAddressAtomicCycles, 2.0,                                              \
    "cycles between two atomics on one address (one L2 slice, in turn)")       \
  X(KernelLaunchSeconds, 2e-6, "fixed cost of one launch")                     \
  X(PipeOverlapNorm, 2.0,                                                      \
    "p of the p-norm of a narrow pipe's issue gaps and the other "             \
    "instructions that fill them (large: their maximum, perfect overlap)")     \
  X(ResourceOverlapNorm, 2.0,                                                  \
    "p of the p-norm of a round's resource times (compute, DRAM, L2, "         \
    "shared/L1, atomics, block launch): 1 their sum, large their maximum")

struct AnalyticConstants {
#define ENERGY_CONSTANT_FIELD(Field, Default, Doc) double Field = Default;
  ENERGY_ANALYTIC_CONSTANTS(ENERGY_CONSTANT_FIELD)
#undef ENERGY_CONSTANT_FIELD
  /// "datasheet defaults", or the family the constants were fitted for.
  std::string Origin = "datasheet defaults";

  static std::vector<llvm::StringRef> names();
  /// Sets the named constant; false if there is none of that name.
  bool set(llvm::StringRef Name, double Value);
};

/// Architecture family of a board, the unit of calibration: "pascal",
/// "volta", "turing", "ampere-ga100", "ampere-ga10x", "ada", "hopper",
/// "blackwell".
llvm::StringRef archFamily(const GpuArch &Arch);
/// The constants for Arch: fitted for its family where measured data was,
/// else the defaults (Origin says which).
const AnalyticConstants &analyticConstants(const GpuArch &Arch);
/// Names in CalibratedConstants.inc that are no constant (empty when sound).
std::vector<std::string> unknownCalibratedConstants();

/// What the analytic model computed on the way to its prediction, for
/// explanations ("memory-bound at 88% of DRAM bandwidth") and tests. The
/// utilizations are averages over the whole launch, launch overhead included.
struct AnalyticBreakdown {
  CostPrediction Prediction;
  double AveragePowerW = 0;      // EnergyJoules / TimeSeconds
  double DramUtilization = 0;    // DRAM bytes / (peak bandwidth x time)
  double ComputeUtilization = 0; // busiest pipe's share of its peak rate
  double SmBusyFraction = 0;     // busy SM-seconds / (SMCount x time)
  double BusySmPowerW = 0;       // a busy SM's static power, any issue rate
  double Waves = 0;              // blocks / (active blocks per SM x SMCount)
  /// What bounds the full waves (the tail if there are none): "dram",
  /// "fp32", "fp16", "fp64", "tensor", "int", "conversion", "sfu",
  /// "shuffle", "issue", "shared", "atomic", "same-address atomics" (one
  /// address's atomics in turn), "launch" (the SM's block launch rate:
  /// blocks with little work), "latency" (too few warps to hide the
  /// latency of each warp's dependent chain of loads and arithmetic).
  const char *Limiter = "";
};
AnalyticBreakdown analyzeAnalytic(const CostQuery &Q);
/// The same with explicit constants (the calibration tool's entry).
AnalyticBreakdown analyzeAnalytic(const CostQuery &Q,
                                  const AnalyticConstants &K);

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
