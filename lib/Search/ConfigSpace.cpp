//===- ConfigSpace.cpp - Candidate launch configurations ------------------===//

#include "energy/ConfigSpace.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace llvm;

namespace energy {

std::vector<Assignment> enumerateAssignments(ArrayRef<Tunable> Tunables) {
  std::vector<Assignment> Out(1);
  for (const Tunable &T : Tunables) {
    std::vector<Assignment> Next;
    Next.reserve(Out.size() * T.Candidates.size());
    for (const Assignment &Prefix : Out)
      for (int V : T.Candidates) {
        Next.push_back(Prefix);
        Next.back().push_back(V);
      }
    Out = std::move(Next);
  }
  return Out;
}

std::vector<BlockShape> freeBlockShapes(bool TwoD, unsigned WarpSize,
                                        unsigned MaxThreads) {
  std::vector<BlockShape> Out;
  if (!TwoD) {
    for (unsigned X = WarpSize; X <= MaxThreads; X += WarpSize)
      Out.push_back({X, 1, 1});
    return Out;
  }
  // x >= 8 keeps each row of a warp on at least one 32-byte sector of floats.
  for (unsigned Y = 1; Y <= MaxThreads; Y *= 2)
    for (unsigned X = 8; X * Y <= MaxThreads; X *= 2)
      if ((X * Y) % WarpSize == 0)
        Out.push_back({X, Y, 1});
  return Out;
}

std::optional<std::array<uint64_t, 3>> parseDims(StringRef S, uint64_t Max) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, 'x');
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  std::array<uint64_t, 3> D = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I)
    if (Parts[I].getAsInteger(10, D[I]) || D[I] == 0 || D[I] > Max)
      return std::nullopt;
  return D;
}

std::optional<BlockShape> parseBlockShape(StringRef S) {
  auto D = parseDims(S, std::numeric_limits<unsigned>::max());
  if (!D)
    return std::nullopt;
  return BlockShape{unsigned((*D)[0]), unsigned((*D)[1]), unsigned((*D)[2])};
}

std::string formatBlockShape(const BlockShape &B) {
  std::string S = std::to_string(B[0]);
  if (B[1] != 1 || B[2] != 1)
    S += "x" + std::to_string(B[1]);
  if (B[2] != 1)
    S += "x" + std::to_string(B[2]);
  return S;
}

const char *pruneReasonName(PruneReason R) {
  switch (R) {
  case PruneReason::None: return "none";
  case PruneReason::Resources: return "resources";
  case PruneReason::OccupancyCliff: return "occupancy_cliff";
  }
  return "none";
}

PruneReason pruneCandidate(const Occupancy &Occ,
                           double BestOccupancySameTunables) {
  if (Occ.Limiter == OccupancyLimiter::Invalid || Occ.ActiveBlocksPerSM == 0)
    return PruneReason::Resources;
  if (Occ.Fraction < OccupancyCliffFraction * BestOccupancySameTunables)
    return PruneReason::OccupancyCliff;
  return PruneReason::None;
}

unsigned workPerThread(ArrayRef<Tunable> Tunables, const Assignment &A) {
  unsigned Work = 1;
  for (size_t I = 0; I < Tunables.size(); ++I)
    if (Tunables[I].WorkPerThread && A[I] > 0)
      Work *= static_cast<unsigned>(A[I]);
  return Work;
}

uint64_t blocksForWorkload(uint64_t WorkItems, unsigned WorkPerThread,
                           const BlockShape &Block) {
  auto DivideUp = [](uint64_t N, uint64_t D) { return N / D + (N % D != 0); };
  uint64_t PerBlock = uint64_t(Block[0]) * Block[1] * Block[2];
  return std::max<uint64_t>(
      1, DivideUp(DivideUp(WorkItems, WorkPerThread), PerBlock));
}

} // namespace energy
