//===- AnalyticModel.cpp - Roofline-and-power cost model ------------------===//
//
// A static performance-power model in the spirit of FlipFlop: no measurement,
// only the kernel's per-thread features, the launch and the architecture row.
//
// Time. Blocks run in waves of ActiveBlocksPerSM x SMCount. A round of r
// resident blocks on one SM takes the p-norm of its per-resource times (a
// roofline over the FP32/FP16/FP64/tensor/integer/conversion/SFU/shuffle
// pipes and instruction issue, DRAM, L2, shared memory/L1, atomics and the
// SM's block launch rate, whose terms overlap only partly: p =
// ResourceOverlapNorm, their maximum at a large p; the issue slot and a pipe
// narrower than a warp overlap only partly too), plus the exposed part of
// its barriers (and of the memory latency the barriers after global loads
// wait for). DRAM reaches its share of the
// bandwidth only with enough bytes in flight (Little's law: bandwidth x
// latency). Every warp's dependent chain runs at once: its critical path,
// the loads on it waiting their latency (shared memory, L1), is one more
// term of the round (Little's law per SM, latencyBoundCycles), so an SM
// left with too few warps to hide those latencies is charged the
// shortfall. Full waves use every SM; the last, partial wave spreads its
// blocks over min(SMCount, blocks) SMs, so a launch with fewer blocks than
// SMs leaves SMs idle. A fixed launch overhead is added once.
//
// Energy. P0 x time, P0 being what the board draws during a launch at its
// clock beyond the events (launchFloorW, EventEnergies.cpp), plus the
// launch's events, each at its energy on the board (EventEnergies.cpp: published per-component figures
// scaled to the board's process node and DRAM kind): every lane's
// arithmetic operation by pipe, every warp instruction's fetch and decode
// and every thread's register operands, every byte moved through
// L1/shared memory, L2 and DRAM; plus the static power of an SM holding
// blocks, whatever it issues, per busy SM-second (AccelWattch's, by the
// kinds of work the launch issues and its active lanes per warp). So two
// launches of the same time differ by the work they do, and more work at
// the same time costs more: measured on the H100 corpus (docs/kt-eval.md,
// "Energy: why the best configurations are misranked"), energy follows the
// instructions a launch issues and the bytes it moves, not its time alone.
// Where the events would draw more than the board's limit (MaxPowerW) the board
// lowers its clock until they do not: the launch then lasts the events'
// energy over the power left above the floor (the energy of each event is
// kept, a conservative bound: a lower clock and voltage make it cheaper).
//
//===----------------------------------------------------------------------===//

#include "DramFloor.h"
#include "EventEnergies.h"
#include "MemoryTraffic.h"

#include "energy/CostModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>
#include <vector>

using namespace energy;

namespace {

//===-- Constants that are not in GpuArch ---------------------------------===//
//
// [CPG]  CUDA C++ Programming Guide, "Arithmetic Instructions" throughput
//        table (results per clock cycle per SM), compute capability 7.x-9.0.
// [CBP]  CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory".
// [JIA]  Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
//        Microbenchmarking" (arXiv:1804.06826, 2018) and the Turing sequel
//        (arXiv:1903.07486, 2019).
// [C&C]  Chips and Cheese, "Nvidia's H100: Funny L2, and Tons of Bandwidth"
//        (2023), pointer-chasing latency and bandwidth measurements.
// [WONG] Wong et al., "Demystifying GPU Microarchitecture through
//        Microbenchmarking" (ISPASS 2010).
// [VOLK] Volkov, "Understanding Latency Hiding on GPUs" (PhD thesis,
//        UC Berkeley, 2016).
// [GPUW] Leng et al., "GPUWattch" (ISCA 2013); Kandiah et al., "AccelWattch"
//        (MICRO 2021): component power breakdowns of NVIDIA GPUs.
// Values marked "estimate" have no published figure; the learned models
// correct them (the analytic predictions are inputs of the XGBoost models).
// The efficiency constants (AnalyticConstants in CostModel.h: DRAM
// efficiency and latency, accesses in flight, dependent-issue cycles, L2
// and shared efficiency, barrier, block and kernel launch costs) have their
// defaults there and are fitted per architecture family where measured data
// exists (CalibratedConstants.inc); the comments below say where each
// default comes from.

// Arithmetic pipes [CPG]: 32-bit integer add/logic/shift/compare/IMAD,
// conversions, MUFU special functions (rcp, rsqrt, lg2, ex2, sin, cos),
// warp shuffles. The same on every architecture of the table.
constexpr double IntOpsPerClockPerSM = 64;
constexpr double ConversionsPerClockPerSM = 16;
constexpr double SfuOpsPerClockPerSM = 16;
constexpr double ShufflesPerClockPerSM = 32;
// A special function is one MUFU op; the FP32 work ptxas adds around the
// ones it expands is in the features' fp32_ops (CallClassifier.cpp).
// Tensor ops are counted once per mma/wmma call per thread. Assumption: a
// call is one wmma m16n16k16 = 2 x 16^3 = 8192 flop per warp = 256 flop per
// thread (an mma.sync m16n8k16 would be 128).
constexpr double TensorFlopsPerThreadOp = 256;
// Each warp scheduler (GpuArch::WarpAllocGranularity of them per SM) issues
// one warp instruction per clock; a dependent FP32/INT instruction can issue
// 4 cycles after its producer [JIA: 4 cycles on Volta and Turing; VOLK: 6
// on Maxwell]: DependentIssueCycles, default 4, at least the architecture's
// figure (chainLatencies). The loads on the critical path wait their own
// latencies (latencyBoundCycles). Before the loads were charged apart, one
// average step stood for both, and 6 was chosen held out for it
// (docs/calibration.md).
constexpr double IssuePerClockPerScheduler = 1;

// Global memory: DRAM and L2 move 32-byte sectors (SectorBytes,
// MemoryTraffic.h).
// Loaded DRAM latency (DramLatencyNs, default 600): pointer chasing
// measures ~400-500 ns unloaded from V100 to H100 [JIA, C&C]; queueing near
// saturation adds to it. Independent global accesses a warp keeps in flight
// before it stalls on a use (AccessesInFlightPerWarp, default 4): what
// unrolling by 4 (LLVM's NVPTX default for small loops) and ptxas's load
// hoisting give, in the sense of [VOLK]'s ILP x warps argument. Streaming
// kernels (STREAM/BabelStream copy, triad) reach about 90% of the datasheet
// DRAM bandwidth on V100, A100 and H100 (DramEfficiency).
// An L2 hit takes about 190-200 cycles (V100 193, T4 188 [JIA]).
constexpr double L2HitLatencyCycles = 200;
// Latencies of a warp's dependent chain (latencyBoundCycles), cycles from
// issue to a dependent instruction's issue [JIA]: a dependent FP32/INT
// instruction 4 cycles from Volta on, 6 on Maxwell and Pascal [VOLK]; a
// shared-memory load 19 cycles on Volta and Turing, 24 on Pascal, 23 on
// Maxwell; an L1 hit 28 cycles on Volta, 32 on Turing. Ampere, Ada, Hopper
// and Blackwell have no figure there: Turing's (estimate). Maxwell and
// Pascal cache global loads in L2 only (GpuArch::UnifiedL1Bytes 0), so
// their L1 latency is never used for a global load.
struct ChainLatencies {
  double Arithmetic, SharedLoad, L1Hit;
};
ChainLatencies chainLatencies(const GpuArch &A) {
  if (A.SmVersion < 70)
    return {6, A.SmVersion < 60 ? 23.0 : 24.0, 82};
  if (A.SmVersion == 70)
    return {4, 19, 28};
  return {4, 19, 32};
}
// A shared-memory or L1 access occupies at least one 4-byte bank slot per
// thread [CPG, "Shared Memory"]; a warp's access to words that share a bank
// is serialized, once per distinct word (see bankConflictWays).
constexpr double MinBankBytes = 4;
// A shared atomic is a read and a write of its bank.
constexpr double SharedAtomicAccesses = 2;

// Synchronization and launch.
// __syncthreads costs ~20 cycles when all warps arrive together [WONG];
// what a block waits for its slowest warp is hidden by the other resident
// blocks, so a barrier exposes BarrierCycles / (resident blocks). A barrier
// that global loads precede (a tile staged in shared memory) also holds the
// block for their latency, exposed the same way: few large resident blocks
// leave the memory system idle while each waits.
// An SM starts at most one block per BlockLaunchCycles (slot allocation,
// register and shared-memory setup, parameter fetch); this overlaps with the
// work of the resident blocks, so it bounds only blocks with little work.
// Estimate: grids of empty blocks run at tens of ns per block per SM (50).
// Back-to-back launches of an empty kernel take ~2-4 us each (driver and
// front-end); the measurement method (events around a batch of launches)
// includes it. KernelLaunchSeconds: estimate at the low end (2 us).

//===----------------------------------------------------------------------===//

/// A thread's work, in the units each resource consumes.
struct ThreadWork {
  double Fp32 = 0, Fp16 = 0, Fp64 = 0; // operations (an FMA is one)
  double Fp32Fma = 0, Fp16Fma = 0, Fp64Fma = 0; // of them, the FMAs
  double TensorFlops = 0;
  double Int = 0, Conversions = 0, Sfu = 0, Shuffles = 0;
  double Instructions = 0;  // issue slots
  double DramBytes = 0;     // sectors moved, after the coalescing model
  double StreamedBytes = 0; // the same without the block's reuse
  double L2Bytes = 0;       // sectors through L2, partial rows included
  double GlobalAccesses = 0;
  double L1Bytes = 0;       // shared, local, spill and global bytes through L1
  double AtomicBytes = 0;   // L2 traffic of global atomics
  double SameAddressAtomics = 0; // of them, on the grid's one address
  double Barriers = 0;
  double BarriersAfterGlobalLoads = 0; // of them, those that wait for DRAM/L2
  double Ilp = 1;           // independent instructions per dependent step
  /// The longest chain of dependent instructions (KernelFeatures::
  /// critical_path), and the shared and local loads on it: a chain step is
  /// a load as often as an instruction is (loads / ILP), since the features
  /// count the chain's length, not what it is made of.
  double ChainSteps = 0;
  double ChainSharedLoads = 0, ChainLocalLoads = 0;
  double GlobalLoads = 0; // per thread, for the chain's global loads
  /// The share of global load sectors L1 does not serve (after the reuse
  /// of the block's threads): they wait for L2 or DRAM.
  double L1MissShare = 1;
  /// The share of the launch's threads within the problem's bounds: the
  /// others leave at once, so the counts above (averages over every
  /// launched thread) fall to 1 / Within as many warps.
  double Within = 1;
};

/// How many times a warp's shared access is serialized by bank conflicts
/// [CPG, "Shared Memory": 32 banks of 4-byte words; lanes reading the same
/// word share it], for the kernel's dominant shared access pattern and the
/// block's shape: lane l is thread (l mod block.x, l / block.x). 1 when
/// the pattern's strides are not constants.
double bankConflictWays(const KernelFeatures &F, const CostQuery &Q) {
  constexpr int64_t Banks = 32, WordBytes = 4;
  if (F.shared_stride_x < 0 || F.shared_stride_y < 0)
    return 1;
  auto Sx = static_cast<int64_t>(F.shared_stride_x);
  auto Sy = static_cast<int64_t>(F.shared_stride_y);
  unsigned Lanes = std::min(Q.threadsPerBlock(), Q.Arch->WarpSize);
  std::vector<std::vector<int64_t>> Words(Banks);
  for (unsigned L = 0; L < Lanes; ++L) {
    int64_t X = L % Q.Block[0], Y = (L / Q.Block[0]) % Q.Block[1];
    int64_t Word = (X * Sx + Y * Sy) / WordBytes;
    auto &InBank = Words[((Word % Banks) + Banks) % Banks];
    if (!llvm::is_contained(InBank, Word))
      InBank.push_back(Word);
  }
  size_t Ways = 1;
  for (const auto &InBank : Words)
    Ways = std::max(Ways, InBank.size());
  return static_cast<double>(Ways);
}

ThreadWork threadWork(const KernelFeatures &F, const CostQuery &Q) {
  ThreadWork W;
  W.Fp32 = nonNegative(F.fp32_ops) + nonNegative(F.fp32_fma);
  W.Fp16 = nonNegative(F.fp16_ops) + nonNegative(F.fp16_fma);
  W.Fp64 = nonNegative(F.fp64_ops) + nonNegative(F.fp64_fma);
  W.Fp32Fma = nonNegative(F.fp32_fma);
  W.Fp16Fma = nonNegative(F.fp16_fma);
  W.Fp64Fma = nonNegative(F.fp64_fma);
  W.TensorFlops = nonNegative(F.tensor_ops) * TensorFlopsPerThreadOp;
  W.Int = nonNegative(F.int_ops);
  W.Conversions = nonNegative(F.conversions);
  W.Sfu = nonNegative(F.special_fns);
  W.Shuffles = nonNegative(F.warp_shuffles);
  // Spill code issues a load or store per 4-byte register it moves, and
  // moves it through L1 like a local array: local memory is laid out so
  // that a warp's threads reading the same slot read 32 consecutive words
  // ([CPG], "Device Memory Accesses", "Local Memory"), 128 bytes of L1
  // bandwidth per warp-wide spill access. What the
  // resident threads' frames leave outside L1 moves on to L2 and DRAM
  // (addLocalMemoryMisses).
  double Spilled = nonNegative(F.spill_bytes);
  W.Instructions = nonNegative(F.instructions) + Spilled / 4;
  MemoryTraffic M = memoryTraffic(F, Q);
  W.DramBytes = M.DramBytes;
  W.StreamedBytes = M.StreamedBytes;
  W.L2Bytes = M.L2Bytes;
  W.GlobalAccesses = M.GlobalAccesses;
  if (M.L1Bytes > 0)
    W.L1MissShare = std::clamp(M.L2Bytes / M.L1Bytes, 0.0, 1.0);
  // Global accesses pass L1's data stage too, hits or not: it moves 4
  // sectors (128 bytes) a cycle [NVIDIA forums, "L1TEX wavefronts": the
  // tag stage resolves 4 lines x 4 sectors a cycle], the shared-memory
  // rate, so a warp's access takes its sectors / 4 cycles, at least one.
  auto Banked = [](double Bytes, double Accesses) {
    return std::max(nonNegative(Bytes), MinBankBytes * nonNegative(Accesses));
  };
  W.L1Bytes =
      Banked(F.shared_load_bytes + F.shared_store_bytes,
             F.shared_loads + F.shared_stores) *
          bankConflictWays(F, Q) +
      Banked(F.local_load_bytes + F.local_store_bytes,
             F.local_loads + F.local_stores) +
      Banked(M.L1Bytes, M.L1Accesses) + Spilled +
      nonNegative(F.shared_atomics) * SharedAtomicAccesses * MinBankBytes;
  W.AtomicBytes = nonNegative(F.global_atomics) * SectorBytes;
  W.SameAddressAtomics = nonNegative(F.global_same_address_atomics);
  W.Barriers = nonNegative(F.barriers);
  W.BarriersAfterGlobalLoads =
      std::min(W.Barriers, nonNegative(F.barriers_after_global_loads));
  W.Ilp = std::max(1.0, F.ilp);
  W.ChainSteps = F.critical_path > 0 ? double(F.critical_path)
                                     : W.Instructions / W.Ilp;
  W.ChainSharedLoads = nonNegative(F.shared_loads) / W.Ilp;
  W.GlobalLoads = nonNegative(F.global_loads) + nonNegative(F.generic_loads);
  // Spill code stores and reloads: half its bytes are loads.
  W.ChainLocalLoads = (nonNegative(F.local_loads) + Spilled / 8) / W.Ilp;
  double Past = std::clamp(nonNegative(F.past_the_end_threads), 0.0, 1.0);
  if (Past < 1) // a launch with no thread within does no work either way
    W.Within = 1 - Past;
  return W;
}

/// Per-SM peak rates of the architecture, per clock.
struct SmRates {
  double ClockHz;
  double Fp32, Fp16, Fp64, TensorFlops; // lanes (flops for tensor) per clock
  double Schedulers;
  double DramBytesPerSecond; // achievable, whole GPU
  double L2PortBytesPerSecond; // one SM's share of the L2 bandwidth
  double SharedBytesPerClock;  // one SM's shared memory/L1
};

SmRates smRates(const GpuArch &A, const AnalyticConstants &K) {
  SmRates R;
  R.ClockHz = A.BoostClockGHz * 1e9;
  double PerSmClock = A.SMCount * R.ClockHz;
  // Peak TFLOPS count an FMA as 2 flops: lanes = flops / 2.
  R.Fp32 = A.PeakFp32TFlops * 1e12 / 2 / PerSmClock;
  R.Fp16 = A.PeakFp16TFlops * 1e12 / 2 / PerSmClock;
  R.Fp64 = A.PeakFp64TFlops * 1e12 / 2 / PerSmClock;
  R.TensorFlops = A.PeakTensorFp16TFlops * 1e12 / PerSmClock;
  R.Schedulers = A.WarpAllocGranularity;
  R.DramBytesPerSecond = A.DramBandwidthGBs * 1e9 * K.DramEfficiency;
  R.L2PortBytesPerSecond = A.L2BandwidthGBs * 1e9 * K.L2Efficiency / A.SMCount;
  R.SharedBytesPerClock = A.SharedBytesPerClockPerSM * K.SharedEfficiency;
  return R;
}

/// One round: Blocks blocks resident together on each of BusySMs SMs.
struct Round {
  double Cycles = 0;
  double PeakComputeCycles = 0; // the busiest pipe at its peak rate
  const char *Limiter = "";
};

/// The cycles one warp's dependent chain takes alone: its critical path, a
/// step of arithmetic DependentIssueCycles after its producer (at least the
/// architecture's documented latency) and each load on it the latency of
/// where it is served: shared memory, L1 (the share of global loads L1
/// serves, local and spilled data). Global loads that miss L1 wait for L2
/// or DRAM in the DRAM term, whose Little's law already holds their
/// latency. Little's law per SM: the SM needs warps x instructions per
/// warp / issue rate >= these cycles to hide them; with fewer (small
/// blocks, registers that leave few warps resident) the round waits. The
/// round combines this with the other resources' times as it combines
/// those (ResourceOverlapNorm), so a shortfall costs near the knee too.
/// Unrolling shortens the chain only where it makes independent work (ILP).
double latencyBoundCycles(const ThreadWork &W, const GpuArch &A,
                          const AnalyticConstants &K) {
  ChainLatencies L = chainLatencies(A);
  double Step = std::max(K.DependentIssueCycles, L.Arithmetic);
  auto Extra = [&](double Latency) { return std::max(0.0, Latency - Step); };
  // A warp keeps AccessesInFlightPerWarp global loads in flight, as the
  // DRAM term has it, or more where its ILP is higher: the chain waits
  // once per such group.
  double GlobalInFlight =
      std::max(W.Ilp, std::min(W.GlobalLoads, K.AccessesInFlightPerWarp));
  return W.ChainSteps * Step + W.ChainSharedLoads * Extra(L.SharedLoad) +
         W.ChainLocalLoads * Extra(L.L1Hit) +
         W.GlobalLoads / std::max(GlobalInFlight, 1.0) *
             (1 - W.L1MissShare) * Extra(L.L1Hit);
}

Round simulateRound(const ThreadWork &W, const SmRates &R, const CostQuery &Q,
                    const AnalyticConstants &K, double Blocks,
                    double BusySMs) {
  const GpuArch &A = *Q.Arch;
  double Threads = Blocks * Q.threadsPerBlock();
  // The warps that do the work: a block's threads past the problem's end
  // leave at once. Each thread within does 1 / Within of the average work.
  double Warps =
      Blocks * std::ceil(Q.threadsPerBlock() * W.Within / A.WarpSize);
  double Lanes = Warps * A.WarpSize; // a partial warp still takes whole issues
  double PerWithin = 1 / W.Within;

  struct Term {
    const char *Name;
    double Cycles;
  };
  auto ByCycles = [](const Term &L, const Term &R) {
    return L.Cycles < R.Cycles;
  };
  // Work / rate, where no work costs nothing even at a zero rate.
  auto Cycles = [](double Work, double PerClock) {
    return Work > 0 ? Work / std::max(PerClock, 1e-9) : 0.0;
  };
  // Instructions per thread of each pipe below, for the issue slots they
  // take (tensor: not counted in instructions).
  const double PipeInstructions[] = {
      W.Fp32 * PerWithin, W.Fp16 * PerWithin,
      W.Fp64 * PerWithin, 0,
      W.Int * PerWithin,  W.Conversions * PerWithin,
      W.Sfu * PerWithin,  W.Shuffles * PerWithin};
  double WithinLanes = Lanes * PerWithin;
  Term Pipes[] = {
      {"fp32", Cycles(W.Fp32 * WithinLanes, R.Fp32)},
      {"fp16", Cycles(W.Fp16 * WithinLanes, R.Fp16)},
      {"fp64", Cycles(W.Fp64 * WithinLanes, R.Fp64)},
      {"tensor", Cycles(W.TensorFlops * WithinLanes, R.TensorFlops)},
      {"int", Cycles(W.Int * WithinLanes, IntOpsPerClockPerSM)},
      {"conversion",
       Cycles(W.Conversions * WithinLanes, ConversionsPerClockPerSM)},
      {"sfu", Cycles(W.Sfu * WithinLanes, SfuOpsPerClockPerSM)},
      {"shuffle", Cycles(W.Shuffles * WithinLanes, ShufflesPerClockPerSM)},
      {"issue", Cycles(W.Instructions * PerWithin * Warps,
                       R.Schedulers * IssuePerClockPerScheduler)},
  };
  const Term *Busiest =
      std::max_element(std::begin(Pipes), std::end(Pipes), ByCycles);
  // One issue slot a cycle feeds every pipe. A pipe narrower than a warp
  // (Turing's FP32: 16 lanes per scheduler, 2 cycles a warp) leaves gap
  // cycles in which the scheduler may issue other instructions; it fills
  // them only partly, since its stream mixes them in program order (an
  // unrolled FMA stretch, then its loads). The busiest pipe's own issues
  // plus the p-norm of the other instructions and the gaps: their maximum
  // at large p (perfect overlap), their sum at p = 1. A pipe as wide as a
  // warp (FP32 on Ampere GA10x and Hopper) has no gaps: issue-bound as
  // before, whatever p.
  const Term *Pipe =
      std::max_element(std::begin(Pipes), std::prev(std::end(Pipes)), ByCycles);
  const Term &Issue = Pipes[std::size(Pipes) - 1]; // the issue slot is last
  double ComputeCycles = Busiest->Cycles;
  // The tensor pipe's work is counted in flops, not in issues.
  if (Pipe->Cycles > 0 && llvm::StringRef(Pipe->Name) != "tensor") {
    double OwnIssue = std::min(
        Issue.Cycles, PipeInstructions[Pipe - std::begin(Pipes)] * Warps /
                          (R.Schedulers * IssuePerClockPerScheduler));
    double Others = Issue.Cycles - OwnIssue;
    double Gaps = std::max(0.0, Pipe->Cycles - OwnIssue);
    double P = K.PipeOverlapNorm;
    double Larger = std::max(Others, Gaps);
    if (Larger > 0)
      ComputeCycles =
          OwnIssue + Larger * std::pow(std::pow(Others / Larger, P) +
                                           std::pow(Gaps / Larger, P),
                                       1 / P);
  }

  // The pipes' and issue slots' throughput; what the warps' latencies
  // leave of it is the "latency" term below.
  Term Compute = {Busiest->Name, ComputeCycles};

  // Little's law: the SM sustains at most (bytes in flight / latency). An
  // access the block's reuse serves from cache (the share Hit) moves
  // nothing from DRAM and waits the L2's latency instead.
  double Dram = 0;
  // What a thread waits for a global load: DRAM for the share that misses,
  // an L2 hit for the rest.
  double LoadLatencyCycles = L2HitLatencyCycles;
  if (W.DramBytes > 0) {
    double ThreadsPerWarp = std::min<double>(Q.threadsPerBlock(), A.WarpSize);
    double Missed = std::min(1.0, W.DramBytes / W.StreamedBytes);
    double BytesPerWarpAccess =
        W.StreamedBytes / W.GlobalAccesses * ThreadsPerWarp;
    double InFlight =
        Warps *
        std::min(W.GlobalAccesses * PerWithin, K.AccessesInFlightPerWarp) *
        BytesPerWarpAccess * Missed;
    double Latency = Missed * K.DramLatencyNs * 1e-9 +
                     (1 - Missed) * L2HitLatencyCycles / R.ClockHz;
    LoadLatencyCycles = Latency * R.ClockHz;
    double Bandwidth =
        std::min({R.DramBytesPerSecond / BusySMs, R.L2PortBytesPerSecond,
                  InFlight / Latency});
    Dram = W.DramBytes * Threads / Bandwidth * R.ClockHz;
  }
  Term Others[] = {
      Compute,
      {"dram", Dram},
      {"l2", Cycles(W.L2Bytes * Threads, R.L2PortBytesPerSecond / R.ClockHz)},
      {"shared", Cycles(W.L1Bytes * WithinLanes, R.SharedBytesPerClock)},
      {"atomic",
       Cycles(W.AtomicBytes * Threads, R.L2PortBytesPerSecond / R.ClockHz)},
      // Every busy SM's atomics on one address wait for each other.
      {"same-address atomics",
       W.SameAddressAtomics * Threads * BusySMs * K.SameAddressAtomicCycles},
      {"launch", Blocks * K.BlockLaunchCycles},
      // Every resident warp runs its dependent chain at once: a round takes
      // at least one chain's cycles, however few instructions it issues.
      {"latency", latencyBoundCycles(W, A, K) * PerWithin},
  };
  const Term *Bound =
      std::max_element(std::begin(Others), std::end(Others), ByCycles);

  Round Out;
  // The resources work concurrently, but not perfectly so: a warp stalled
  // on one issues nothing to the others, and requests queue at each stage
  // of the memory path. The round takes the p-norm of their times, between
  // the roofline's maximum (large p) and the sum of a machine that overlaps
  // nothing (p = 1). Measured, this beat a norm of compute and the slowest
  // memory stage alone (docs/calibration.md).
  double Busy = Bound->Cycles;
  if (Busy > 0) {
    double P = K.ResourceOverlapNorm, Sum = 0;
    for (const Term &T : Others)
      Sum += std::pow(T.Cycles / Busy, P);
    Busy *= std::pow(Sum, 1 / P);
  }
  // A barrier after global loads holds the block until they return; the
  // other resident blocks hide that as they hide the barrier itself.
  Out.Cycles = Busy + (W.Barriers * K.BarrierCycles +
                       W.BarriersAfterGlobalLoads * LoadLatencyCycles) /
                          Blocks;
  Out.PeakComputeCycles = Busiest->Cycles;
  Out.Limiter = Bound->Name;
  return Out;
}

/// A stretch of the launch in which the same blocks are resident: the full
/// waves, or the tail.
struct Phase {
  Round Rd;
  double BusySMs = 0;
  double Seconds = 0;
};

/// Rounds rounds of ResidentBlocks blocks spread over BusySMs SMs; the
/// busiest SM, holding ceil(ResidentBlocks / BusySMs) of them, sets the pace.
Phase phase(const ThreadWork &W, const SmRates &R, const CostQuery &Q,
            const AnalyticConstants &K, double Rounds, double ResidentBlocks,
            double BusySMs) {
  Phase P;
  P.BusySMs = BusySMs;
  P.Rd = simulateRound(W, R, Q, K, std::ceil(ResidentBlocks / BusySMs),
                       BusySMs);
  double RoundSeconds = P.Rd.Cycles / R.ClockHz;
  P.Seconds = Rounds * RoundSeconds;
  return P;
}

/// The energy of the launch's events (EventEnergies.h): its threads'
/// operations and register operands, its warps' instructions, and its bytes
/// through L1/shared memory, L2 and DRAM (at least DramBytes).
double eventJoules(const ThreadWork &W, const CostQuery &Q, double Blocks,
                   double DramBytes) {
  const GpuArch &A = *Q.Arch;
  EventEnergies E = eventEnergies(A);
  double Threads = Blocks * Q.threadsPerBlock();
  // The warps that do the work, as simulateRound counts them: each
  // instruction is fetched once per warp, partial warps included.
  double Warps =
      Blocks * std::ceil(Q.threadsPerBlock() * W.Within / A.WarpSize);
  double PerThread =
      W.Fp32Fma * E.Fp32Fma + (W.Fp32 - W.Fp32Fma) * E.Fp32Op +
      W.Fp16Fma * E.Fp16Fma + (W.Fp16 - W.Fp16Fma) * E.Fp16Op +
      W.Fp64Fma * E.Fp64Fma + (W.Fp64 - W.Fp64Fma) * E.Fp64Op +
      W.TensorFlops * E.TensorFlop + W.Int * E.IntOp +
      W.Conversions * E.Conversion + W.Sfu * E.Sfu +
      (W.Instructions + W.Fp64) * OperandBytesPerInstruction *
          E.RegisterByte +
      // A shuffle's word crosses the shared-memory crossbar.
      (W.L1Bytes + W.Shuffles * MinBankBytes) * E.L1Byte +
      (W.L2Bytes + W.AtomicBytes) * E.L2Byte;
  return PerThread * Threads +
         W.Instructions / W.Within * Warps * E.WarpInstruction +
         std::max(DramBytes, W.DramBytes * Threads) * E.DramByte;
}

/// What the launch issues, as the static power of its busy SMs depends on
/// it (EventEnergies.h): the kinds of its threads' work and the active
/// threads of its warps (a partial warp's lanes count as they are).
IssuedKinds issuedKinds(const ThreadWork &W, const CostQuery &Q) {
  IssuedKinds K;
  K.Int = W.Int > 0;
  K.Fp = W.Fp32 + W.Fp16 > 0;
  K.Fp64 = W.Fp64 > 0;
  K.Sfu = W.Sfu > 0;
  K.Tensor = W.TensorFlops > 0;
  K.L1 = W.L1Bytes + W.Shuffles > 0;
  K.L2 = W.L2Bytes + W.AtomicBytes + W.DramBytes > 0;
  double WarpSize = Q.Arch->WarpSize;
  double Threads = Q.threadsPerBlock() * W.Within;
  K.LanesPerWarp = Threads / std::max(1.0, std::ceil(Threads / WarpSize));
  return K;
}

class AnalyticModel final : public CostModel {
public:
  explicit AnalyticModel(const GpuArch *Arch) : Arch(Arch) {}

  std::string describe() const override {
    if (!Arch)
      return "analytic";
    return std::string("analytic (") + Arch->Name + ", " +
           Arch->MarketingName + ")";
  }

  llvm::Error predict(llvm::ArrayRef<CostQuery> Queries,
                      llvm::MutableArrayRef<CostPrediction> Out) const override {
    if (Queries.size() != Out.size())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "analytic model: %zu queries but room for %zu predictions",
          Queries.size(), Out.size());
    for (auto [Q, P] : llvm::zip_equal(Queries, Out)) {
      if (!Q.Features || !Q.Arch)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "analytic model: a query without features or architecture");
      P = predictAnalytic(Q);
    }
    return llvm::Error::success();
  }

private:
  const GpuArch *Arch;
};

} // namespace

AnalyticBreakdown energy::analyzeAnalytic(const CostQuery &Q) {
  assert(Q.Features && Q.Arch && "a cost query needs features and an arch");
  return analyzeAnalytic(Q, analyticConstants(*Q.Arch));
}

AnalyticBreakdown energy::analyzeAnalytic(const CostQuery &Q,
                                          const AnalyticConstants &K) {
  assert(Q.Features && Q.Arch && "a cost query needs features and an arch");
  // A block dimension of 0 (never valid) reads as 1, to stay finite.
  CostQuery Safe = Q;
  for (unsigned &D : Safe.Block)
    D = std::max(D, 1u);
  const GpuArch &A = *Q.Arch;
  ThreadWork W = threadWork(*Q.Features, Safe);
  SmRates R = smRates(A, K);

  // An invalid occupancy (the caller prunes those) still gets a finite
  // answer: one block per SM, at least one block.
  double Resident = std::max(1u, Q.Occ.ActiveBlocksPerSM);
  double Blocks = std::max<uint64_t>(1, Q.Blocks);
  double Slots = Resident * A.SMCount;
  double FullWaves = std::floor(Blocks / Slots);
  double TailBlocks = Blocks - FullWaves * Slots;

  AnalyticBreakdown B;
  B.Waves = Blocks / Slots;
  double Seconds = K.KernelLaunchSeconds, BusySmSeconds = 0;
  double ComputeSeconds = 0;
  auto Add = [&](const Phase &P) {
    Seconds += P.Seconds;
    BusySmSeconds += P.BusySMs * P.Seconds;
    ComputeSeconds +=
        P.Rd.PeakComputeCycles / P.Rd.Cycles * P.BusySMs * P.Seconds;
    if (!*B.Limiter)
      B.Limiter = P.Rd.Limiter;
  };
  if (FullWaves > 0)
    Add(phase(W, R, Safe, K, FullWaves, Slots, A.SMCount));
  if (TailBlocks > 0)
    Add(phase(W, R, Safe, K, 1, TailBlocks,
              std::min<double>(A.SMCount, TailBlocks)));

  Seconds = std::max(Seconds, compulsoryDramSeconds(Safe));
  double DramBytes = W.DramBytes * Blocks * Safe.threadsPerBlock();
  double Floor = launchFloorW(A);
  B.BusySmPowerW = busySmWatts(A, issuedKinds(W, Safe));
  double Events = eventJoules(W, Safe, Blocks, compulsoryDramBytes(Safe)) +
                  B.BusySmPowerW * BusySmSeconds;
  // Above the board's limit the clock drops until the events fit in it.
  Seconds = std::max(Seconds, Events / std::max(A.MaxPowerW - Floor, 1e-9));
  B.Prediction.TimeSeconds = Seconds;
  B.Prediction.EnergyJoules = Floor * Seconds + Events;
  B.AveragePowerW = B.Prediction.EnergyJoules / Seconds;
  B.DramUtilization = DramBytes / (A.DramBandwidthGBs * 1e9 * Seconds);
  B.SmBusyFraction = BusySmSeconds / (A.SMCount * Seconds);
  B.ComputeUtilization = ComputeSeconds / (A.SMCount * Seconds);
  return B;
}

CostPrediction energy::predictAnalytic(const CostQuery &Q) {
  return analyzeAnalytic(Q).Prediction;
}

std::unique_ptr<CostModel> energy::createAnalyticModel(const GpuArch *Arch) {
  return std::make_unique<AnalyticModel>(Arch);
}
