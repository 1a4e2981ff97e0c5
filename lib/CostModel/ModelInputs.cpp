//===- ModelInputs.cpp - Inputs of the learned cost models ----------------===//
//
// The kernel's numeric features (KernelFeatures::numericNames(), in order),
// then the launch inputs below. These names are the feature columns of the
// training data: the sweep tool writes rows with exactly this list, and a
// model file whose feature_names differ is rejected.
//
// | input                   | unit          | value                                   |
// |-------------------------|---------------|-----------------------------------------|
// | block_x, _y, _z         | threads       | block shape                             |
// | block_threads           | threads       | block_x * block_y * block_z             |
// | log2_blocks             | log2(blocks)  | grid size, all dimensions               |
// | waves                   | waves         | blocks / (active_blocks_per_sm * sm_count) |
// | tail_efficiency         | fraction      | waves / ceil(waves): 1 = no idle slots  |
// |                         |               | in the last wave                        |
// | active_blocks_per_sm    | blocks        | resident blocks per SM (occupancy)      |
// | active_warps_per_sm     | warps         | resident warps per SM                   |
// | occupancy               | fraction      | active warps / max warps per SM         |
// | shared_bytes_per_block  | bytes         | static + dynamic shared memory          |
// | log2_total_threads      | log2(threads) | blocks * block_threads                  |
// | log2_total_flops        | log2(1+flop)  | flops * total threads                   |
// | log2_total_global_bytes | log2(1+bytes) | (global_load_bytes + global_store_bytes)|
// |                         |               | * total threads                         |
// | sm_count                | SMs           | GpuArch::SMCount                        |
// | analytic_ln_time        | ln(seconds)   | the analytic model's time, same query   |
// | analytic_ln_energy      | ln(joules)    | the analytic model's energy, same query |
// | analytic_dram_utilization | fraction    | its bottleneck terms: DRAM bytes /      |
// | analytic_compute_utilization | fraction | (peak x time), busiest pipe's share of  |
// | analytic_sm_busy        | fraction      | its peak, busy SM share                 |
// | board_dram_gbs          | GB/s          | GpuArch::DramBandwidthGBs               |
// | board_fp32_tflops       | TFLOPS        | GpuArch::PeakFp32TFlops                 |
// | board_clock_ghz         | GHz           | GpuArch::BoostClockGHz                  |
// | board_l2_mib            | MiB           | GpuArch::L2Bytes                        |
// | board_sm_version        | 86 for sm_86  | GpuArch::BoardSm                        |
//
// The board columns let one model serve several boards of a family and
// be scored on a board it never saw (leave-one-board-out).
//
// The analytic predictions make the learned model learn the residual of the
// physics rather than the physics itself. An invalid occupancy (0 blocks per
// SM) counts as 1 block per SM, as in the analytic model, so every value is
// finite.
//
//===----------------------------------------------------------------------===//

#include "energy/CostModel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>

using namespace energy;

namespace {

/// What the launch inputs are computed from.
struct Launch {
  const CostQuery &Q;
  double Blocks;       // at least 1
  double ActiveBlocks; // per SM, at least 1
  double Waves;
  AnalyticBreakdown Analytic;

  explicit Launch(const CostQuery &Q)
      : Q(Q), Blocks(std::max<uint64_t>(1, Q.Blocks)),
        ActiveBlocks(std::max(1u, Q.Occ.ActiveBlocksPerSM)),
        Waves(Blocks / (ActiveBlocks * Q.Arch->SMCount)),
        Analytic(analyzeAnalytic(Q)) {}
  double totalThreads() const { return Blocks * Q.threadsPerBlock(); }
};

struct LaunchInput {
  const char *Name;
  double (*Value)(const Launch &);
};

// The order is the model's column order: append only, and retrain.
const LaunchInput LaunchInputs[] = {
    {"block_x", [](const Launch &L) { return double(L.Q.Block[0]); }},
    {"block_y", [](const Launch &L) { return double(L.Q.Block[1]); }},
    {"block_z", [](const Launch &L) { return double(L.Q.Block[2]); }},
    {"block_threads",
     [](const Launch &L) { return double(L.Q.threadsPerBlock()); }},
    {"log2_blocks", [](const Launch &L) { return std::log2(L.Blocks); }},
    {"waves", [](const Launch &L) { return L.Waves; }},
    {"tail_efficiency",
     [](const Launch &L) { return L.Waves / std::ceil(L.Waves); }},
    {"active_blocks_per_sm", [](const Launch &L) { return L.ActiveBlocks; }},
    {"active_warps_per_sm",
     [](const Launch &L) { return double(L.Q.Occ.ActiveWarpsPerSM); }},
    {"occupancy", [](const Launch &L) { return L.Q.Occ.Fraction; }},
    {"shared_bytes_per_block",
     [](const Launch &L) { return double(L.Q.SharedBytesPerBlock); }},
    {"log2_total_threads",
     [](const Launch &L) { return std::log2(std::max(1.0, L.totalThreads())); }},
    {"log2_total_flops",
     [](const Launch &L) {
       return std::log2(1 + std::max(0.0, L.Q.Features->flops) *
                                L.totalThreads());
     }},
    {"log2_total_global_bytes",
     [](const Launch &L) {
       const KernelFeatures &F = *L.Q.Features;
       double Bytes = F.global_load_bytes + F.global_store_bytes;
       return std::log2(1 + std::max(0.0, Bytes) * L.totalThreads());
     }},
    {"sm_count", [](const Launch &L) { return double(L.Q.Arch->SMCount); }},
    {"analytic_ln_time",
     [](const Launch &L) { return std::log(L.Analytic.Prediction.TimeSeconds); }},
    {"analytic_ln_energy",
     [](const Launch &L) {
       return std::log(L.Analytic.Prediction.EnergyJoules);
     }},
    {"analytic_dram_utilization",
     [](const Launch &L) { return L.Analytic.DramUtilization; }},
    {"analytic_compute_utilization",
     [](const Launch &L) { return L.Analytic.ComputeUtilization; }},
    {"analytic_sm_busy",
     [](const Launch &L) { return L.Analytic.SmBusyFraction; }},
    {"board_dram_gbs",
     [](const Launch &L) { return L.Q.Arch->DramBandwidthGBs; }},
    {"board_fp32_tflops",
     [](const Launch &L) { return L.Q.Arch->PeakFp32TFlops; }},
    {"board_clock_ghz",
     [](const Launch &L) { return L.Q.Arch->BoostClockGHz; }},
    {"board_l2_mib",
     [](const Launch &L) { return L.Q.Arch->L2Bytes / double(1 << 20); }},
    {"board_sm_version",
     [](const Launch &L) { return double(L.Q.Arch->BoardSm); }},
};

} // namespace

std::vector<std::string> energy::modelInputNames() {
  std::vector<std::string> Names;
  Names.reserve(KernelFeatures::NumNumeric + std::size(LaunchInputs));
  for (llvm::StringRef Name : KernelFeatures::numericNames())
    Names.push_back(Name.str());
  for (const LaunchInput &In : LaunchInputs)
    Names.push_back(In.Name);
  return Names;
}

void energy::appendModelInputs(const CostQuery &Q, std::vector<float> &Row,
                               CostPrediction *Analytic) {
  assert(Q.Features && Q.Arch && "a cost query needs features and an arch");
  for (double V : Q.Features->numeric())
    Row.push_back(static_cast<float>(V));
  Launch L(Q);
  for (const LaunchInput &In : LaunchInputs)
    Row.push_back(static_cast<float>(In.Value(L)));
  if (Analytic)
    *Analytic = L.Analytic.Prediction;
}
