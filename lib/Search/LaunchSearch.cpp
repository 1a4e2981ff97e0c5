//===- LaunchSearch.cpp - Predict, compare and choose candidates ----------===//

#include "energy/LaunchSearch.h"
#include "energy/ParetoFront.h"
#include "energy/Units.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace llvm;

namespace energy {

/// The registers Features need, as ptxas would count them.
static unsigned registersNeeded(const KernelFeatures &Features) {
  return static_cast<unsigned>(std::lround(Features.register_estimate));
}

/// The registers Features need above Cap (0 within it).
static unsigned registersAbove(const KernelFeatures &Features, unsigned Cap) {
  unsigned Needed = registersNeeded(Features);
  return Needed > Cap ? Needed - Cap : 0;
}

Candidate makeCandidate(const KernelFeatures &Features, const GpuArch &Arch,
                        const BlockShape &Block, uint64_t Blocks,
                        unsigned SharedBytesPerBlock, size_t Assignment,
                        const std::optional<LaunchBounds> &Built) {
  Candidate C;
  C.Assignment = Assignment;
  C.Block = Block;
  C.Query.Features = &Features;
  C.Query.Arch = &Arch;
  C.Query.Block = Block;
  C.Query.Blocks = Blocks;
  C.Query.SharedBytesPerBlock = SharedBytesPerBlock;
  unsigned Threads = Block[0] * Block[1] * Block[2];
  const LaunchBounds &Bounds = Built ? *Built : Features.Bounds;
  unsigned Registers = registersNeeded(Features);
  C.RegisterCap = registerCap(Arch, Threads, Bounds);
  C.CappedBuild = Bounds.any();
  C.TooManyRegisters = !C.CappedBuild && Registers > C.RegisterCap;
  if (Blocks <= MaxGridBlocksX)
    C.Query.Occ =
        computeOccupancy(Arch, {Threads, std::min(Registers, C.RegisterCap),
                                SharedBytesPerBlock});
  return C;
}

KernelFeatures withEstimatedSpills(const KernelFeatures &Features,
                                   unsigned Cap) {
  KernelFeatures F = Features;
  unsigned Spilled = registersAbove(Features, Cap);
  if (!Spilled)
    return F;
  constexpr double SlotBytes = 4; // one 32-bit register
  F.register_estimate = Cap;
  F.local_frame_bytes += Spilled * SlotBytes;
  // A store to the slot and a load back per spilled register.
  F.spill_bytes += 2 * Spilled * SlotBytes * Features.averageExecutions();
  return F;
}

bool minBlocksHonoured(const GpuArch &Arch, unsigned Threads,
                       unsigned MinBlocks) {
  unsigned Warps = (Threads + Arch.WarpSize - 1) / Arch.WarpSize;
  return MinBlocks <= Arch.MaxBlocksPerSM &&
         uint64_t(MinBlocks) * Warps <= Arch.MaxWarpsPerSM;
}

unsigned registersAllowed(const GpuArch &Arch, unsigned Threads,
                          unsigned MinBlocks) {
  // Launch bounds (.reqntid, .maxntid) make ptxas fit the kernel into the
  // block, spilling what does not fit: a block's registers come in whole
  // warps, per thread in multiples of 8. With .minnctapersm, MinBlocks such
  // blocks must fit an SM at once.
  // The register file is split among the SM's sub-partitions, so the
  // largest count is the one with which the blocks still fit (ptxas 13.0 on
  // sm_80, 3 blocks of 96 threads: 168, where the whole file would give
  // 224).
  unsigned Warps = (Threads + Arch.WarpSize - 1) / Arch.WarpSize;
  if (Warps == 0)
    return Arch.MaxRegistersPerThread;
  // ptxas ignores a minimum no SM can hold (it warns "out of range").
  if (MinBlocks == 0 || !minBlocksHonoured(Arch, Threads, MinBlocks))
    MinBlocks = 1;
  unsigned WarpThreads = Warps * Arch.WarpSize;
  unsigned PerThread =
      std::min(Arch.MaxRegistersPerBlock / WarpThreads,
               Arch.RegistersPerSM / (WarpThreads * MinBlocks));
  auto Fits = [&](unsigned Registers) {
    return computeOccupancy(Arch, {Threads, Registers, 0}).ActiveBlocksPerSM >=
           MinBlocks;
  };
  if (PerThread >= Arch.MaxRegistersPerThread &&
      Fits(Arch.MaxRegistersPerThread))
    return Arch.MaxRegistersPerThread;
  unsigned Registers =
      std::min(Arch.MaxRegistersPerThread, PerThread) / 8 * 8;
  while (Registers > 8 && !Fits(Registers))
    Registers -= 8;
  return Registers;
}

unsigned registerCap(const GpuArch &Arch, unsigned Threads,
                     const LaunchBounds &Bounds) {
  // ptxas knows the bounds, not the launch: a kernel bounded to 256 threads
  // gets the registers of 256 whatever block it runs with.
  unsigned Bounded = Bounds.maxThreads();
  return registersAllowed(Arch, Bounded ? Bounded : Threads, Bounds.MinCTASM);
}

std::string noCandidateFits(ArrayRef<Candidate> Candidates,
                            const GpuArch &Arch, uint64_t WorkItems) {
  if (llvm::all_of(Candidates, [](const Candidate &C) {
        return C.Query.Blocks > MaxGridBlocksX;
      }))
    return "a launch of " + std::to_string(WorkItems) +
           " items needs more than " + std::to_string(MaxGridBlocksX) +
           " blocks (CUDA's grid limit in x) at every candidate block";
  return std::string("no candidate fits the resources of ") + Arch.Name;
}

PruneCounts pruneCandidates(MutableArrayRef<Candidate> Candidates,
                            bool KeepCliffs) {
  std::vector<double> BestOcc;
  for (const Candidate &C : Candidates) {
    if (C.Assignment >= BestOcc.size())
      BestOcc.resize(C.Assignment + 1, 0.0);
    BestOcc[C.Assignment] = std::max(BestOcc[C.Assignment], C.Query.Occ.Fraction);
  }
  PruneCounts Counts;
  for (Candidate &C : Candidates) {
    C.Pruned = pruneCandidate(C.Query.Occ, BestOcc[C.Assignment]);
    if (KeepCliffs && C.Pruned == PruneReason::OccupancyCliff)
      C.Pruned = PruneReason::None;
    if (C.TooManyRegisters && !KeepCliffs)
      C.Pruned = PruneReason::Resources;
    Counts.Resources += C.Pruned == PruneReason::Resources;
    Counts.Cliff += C.Pruned == PruneReason::OccupancyCliff;
  }
  return Counts;
}

BlockShape occupancyHeuristicShape(
    const GpuArch &Arch, bool TwoD,
    function_ref<Occupancy(const BlockShape &)> OccupancyOf) {
  unsigned Warp = Arch.WarpSize;
  BlockShape Best = {Warp, 1, 1};
  unsigned BestWarps = 0;
  for (unsigned T = Arch.MaxThreadsPerBlock; T >= Warp; T -= Warp) {
    BlockShape B = TwoD ? BlockShape{Warp, T / Warp, 1} : BlockShape{T, 1, 1};
    unsigned Warps = OccupancyOf(B).ActiveWarpsPerSM;
    if (Warps > BestWarps) {
      BestWarps = Warps;
      Best = B;
    }
  }
  return Best;
}

BlockShape typicalBlockShape(bool TwoD) {
  return TwoD ? BlockShape{32, 8, 1} : BlockShape{256, 1, 1};
}

BaselineCandidates
makeBaselines(const GpuArch &Arch, bool TwoD, const BlockShape &Default,
              function_ref<Candidate(const BlockShape &)> Make,
              function_ref<bool(const BlockShape &)> Legal) {
  BaselineCandidates B;
  B.Default = Make(Default);
  BlockShape Heuristic =
      occupancyHeuristicShape(Arch, TwoD, [&](const BlockShape &Shape) {
        return Legal(Shape) ? Make(Shape).Query.Occ : Occupancy();
      });
  B.OccupancyHeuristic = Legal(Heuristic) ? Make(Heuristic) : B.Default;
  return B;
}

std::vector<size_t> bestFirst(ArrayRef<Candidate> Candidates, Objective Goal) {
  std::vector<std::pair<double, size_t>> Scored;
  for (size_t I = 0; I < Candidates.size(); ++I)
    if (Candidates[I].Pruned == PruneReason::None)
      Scored.emplace_back(objectiveValue(Candidates[I].Prediction.TimeSeconds,
                                         Candidates[I].Prediction.EnergyJoules,
                                         Goal),
                          I);
  llvm::sort(Scored);
  std::vector<size_t> Order;
  for (auto [Score, I] : Scored)
    Order.push_back(I);
  return Order;
}

Expected<ObjectiveChoice>
predictAndChoose(MutableArrayRef<Candidate> Candidates,
                 ArrayRef<Candidate *> Baselines, const Candidate *Incumbent,
                 const CostModel &Model, const ObjectiveSpec &Objective) {
  std::vector<Candidate *> Predicted;
  for (Candidate &C : Candidates)
    if (C.Pruned == PruneReason::None)
      Predicted.push_back(&C);
  size_t Live = Predicted.size();
  assert(Live && "nothing to choose from");
  for (Candidate *B : Baselines) {
    // A baseline that cannot launch is reported, not predicted.
    if (pruneCandidate(B->Query.Occ, 0) == PruneReason::Resources)
      B->Pruned = PruneReason::Resources;
    else
      Predicted.push_back(B);
  }
  // A capped build whose features need more registers than the cap is
  // predicted as ptxas will build it: with the spills (estimated). Reserved:
  // the queries point into it.
  std::vector<KernelFeatures> Spilling;
  Spilling.reserve(Predicted.size());
  std::vector<CostQuery> Queries;
  for (Candidate *C : Predicted) {
    CostQuery Q = C->Query;
    C->SpilledRegisters =
        C->CappedBuild ? registersAbove(*Q.Features, C->RegisterCap) : 0;
    C->EstimatedSpillBytes = 0;
    if (C->SpilledRegisters) {
      Spilling.push_back(withEstimatedSpills(*Q.Features, C->RegisterCap));
      C->EstimatedSpillBytes =
          Spilling.back().spill_bytes - Q.Features->spill_bytes;
      Q.Features = &Spilling.back();
    }
    Queries.push_back(Q);
  }
  std::vector<CostPrediction> Out(Queries.size());
  if (Error E = Model.predict(Queries, Out))
    return E;
  for (size_t I = 0; I < Predicted.size(); ++I)
    Predicted[I]->Prediction = Out[I];

  std::vector<ParetoPoint> Points;
  std::vector<double> Times, Energies;
  for (size_t I = 0; I < Live; ++I) {
    const CostPrediction &P = Predicted[I]->Prediction;
    Points.push_back({P.TimeSeconds, P.EnergyJoules, I});
    Times.push_back(P.TimeSeconds);
    Energies.push_back(P.EnergyJoules);
  }
  for (const ParetoPoint &Front : computeParetoFront(Points))
    Predicted[Front.Index]->OnFront = true;
  std::optional<size_t> IncumbentIndex;
  if (Incumbent)
    for (size_t I = 0; I < Live && !IncumbentIndex; ++I)
      if (Predicted[I]->Assignment == Incumbent->Assignment &&
          Predicted[I]->Block == Incumbent->Block)
        IncumbentIndex = I;
  auto Choice = chooseCandidate(Times, Energies, Objective, IncumbentIndex);
  if (!Choice)
    return Choice.takeError();
  Choice->Index = Predicted[Choice->Index] - Candidates.data();
  return Choice;
}

double percentChange(double Baseline, double Chosen) {
  return Baseline > 0 ? 100.0 * (Chosen - Baseline) / Baseline : 0.0;
}

Explanation &Explanation::operator<<(StringRef Text) {
  if (Text.empty())
    return *this;
  if (!Parts.empty() && Parts.back().Key.empty())
    Parts.back().Text += Text;
  else
    Parts.push_back({"", Text.str()});
  return *this;
}

Explanation &Explanation::value(StringRef Key, std::string Text) {
  Parts.push_back({Key.str(), std::move(Text)});
  return *this;
}

Explanation &Explanation::value(StringRef Key, uint64_t N) {
  return value(Key, std::to_string(N));
}

Explanation &Explanation::record(StringRef Key, std::string Text) {
  Parts.push_back({Key.str(), std::move(Text), /*RecordOnly=*/true});
  return *this;
}

Explanation &Explanation::append(const Explanation &Other) {
  for (const Part &P : Other.Parts)
    P.RecordOnly  ? record(P.Key, P.Text)
    : P.Key.empty() ? *this << P.Text
                    : value(P.Key, P.Text);
  return *this;
}

std::string Explanation::str() const {
  std::string S;
  for (const Part &P : Parts)
    if (!P.RecordOnly)
      S += P.Text;
  return S;
}

Explanation describeBlock(const BlockShape &Block) {
  Explanation E;
  E << "block ";
  E.value("Block", formatBlockShape(Block));
  return E;
}

Explanation explainChoice(const Explanation &Config, const Explanation &Why,
                          const Candidate &C, uint64_t WorkItems,
                          const GpuArch &Arch,
                          ArrayRef<NamedBaseline> Baselines, size_t Evaluated,
                          ArrayRef<Candidate> Candidates, StringRef LeftOut) {
  auto Fixed = [](const char *Fmt, double X) {
    std::string S;
    raw_string_ostream(S) << format(Fmt, X);
    return S;
  };
  Explanation E;
  E.append(Config) << " (";
  E.append(Why) << "): predicted ";
  // The text scales its units; the records keep microseconds and millijoules.
  E << formatDuration(C.Prediction.TimeSeconds) << ", "
    << formatEnergy(C.Prediction.EnergyJoules) << " per launch of ";
  E.record("TimeUs", Fixed("%.4g", C.Prediction.TimeSeconds * 1e6));
  E.record("EnergyMJ", Fixed("%.4g", C.Prediction.EnergyJoules * 1e3));
  E.value("WorkItems", WorkItems) << " items on ";
  E.value("Gpu", Arch.Gpu) << " (";
  E.value("Arch", Arch.Name) << ")";
  for (const NamedBaseline &B : Baselines) {
    E << "; vs the " << B.What << " (";
    E.value((B.Key + "Block").str(), formatBlockShape(B.C->Block)) << ")";
    if (B.C->Pruned != PruneReason::None) {
      E << ": cannot launch";
      continue;
    }
    E << ": energy ";
    E.value(("EnergyVs" + B.Key).str(),
            Fixed("%+.1f", percentChange(B.C->Prediction.EnergyJoules,
                                         C.Prediction.EnergyJoules)))
        << "%, time ";
    E.value(("TimeVs" + B.Key).str(),
            Fixed("%+.1f", percentChange(B.C->Prediction.TimeSeconds,
                                         C.Prediction.TimeSeconds)))
        << "%";
  }
  E << "; ";
  E.value("Evaluated", Evaluated) << " of ";
  E.value("Candidates", Candidates.size()) << " candidates evaluated";
  if (!LeftOut.empty())
    E << " (" << LeftOut << ")";
  auto OnFront = [](const Candidate &C) { return C.OnFront; };
  E << ", ";
  E.value("ParetoFront", uint64_t(llvm::count_if(Candidates, OnFront)))
      << " on the Pareto front";
  return E;
}

} // namespace energy
