//===- FeatureCore.cpp - What both feature analyses count -----------------===//

#include "FeatureCore.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace energy {

unsigned registersForBits(uint64_t Bits) {
  return static_cast<unsigned>(std::max<uint64_t>(1, (Bits + 31) / 32));
}

unsigned registersForVector(uint64_t Lanes, uint64_t ElementBits) {
  if (ElementBits < 32)
    return registersForBits(Lanes * ElementBits);
  return static_cast<unsigned>(Lanes) * registersForBits(ElementBits);
}

unsigned vectorIssueSlots(uint64_t Lanes, uint64_t ElementBits) {
  uint64_t PerInstruction = ElementBits == 16 ? 2 : 1;
  return static_cast<unsigned>(
      std::max<uint64_t>(1, (Lanes + PerInstruction - 1) / PerInstruction));
}

unsigned memoryIssueSlots(double Bytes) {
  constexpr double MaxBytesPerAccess = 16;
  return static_cast<unsigned>(
      std::max(1.0, std::ceil(Bytes / MaxBytesPerAccess)));
}

CopyPieces copyPieces(uint64_t Bytes, uint64_t Align) {
  constexpr uint64_t WidestPieceBytes = 8; // i64, NVPTX's widest integer
  CopyPieces P;
  P.Bytes = static_cast<unsigned>(std::min<uint64_t>(Bytes, UINT32_MAX));
  P.PieceBytes =
      static_cast<unsigned>(std::clamp<uint64_t>(Align, 1, WidestPieceBytes));
  P.Pieces = static_cast<unsigned>(
      std::min<uint64_t>(llvm::divideCeil(Bytes, P.PieceBytes), UINT32_MAX));
  return P;
}

std::optional<double> guardedThreadShare(IndexCompare Compare, uint64_t Bound,
                                         uint64_t Values) {
  if (!Values)
    return std::nullopt;
  if (Compare == IndexCompare::Equal)
    return Bound < Values ? 1.0 / double(Values) : 0.0;
  if (Bound >= Values)
    return std::nullopt;
  return double(Bound) / Values;
}

IndexPredicate swappedIndexPredicate(IndexPredicate P) {
  switch (P) {
  case IndexPredicate::Less:
    return IndexPredicate::Greater;
  case IndexPredicate::LessEqual:
    return IndexPredicate::GreaterEqual;
  case IndexPredicate::Greater:
    return IndexPredicate::Less;
  case IndexPredicate::GreaterEqual:
    return IndexPredicate::LessEqual;
  default:
    return P;
  }
}

std::optional<GuardedSide> guardedSide(IndexPredicate P,
                                       std::optional<uint64_t> Bound,
                                       uint64_t Values) {
  bool Equality = P == IndexPredicate::Equal || P == IndexPredicate::NotEqual;
  // An equality holds for one value whatever it is; an order needs it.
  if (!Bound && !Equality)
    return std::nullopt;
  uint64_t N = Bound.value_or(0);
  // The orders as `index < N` on the side where it holds, or fails: `index
  // > N` fails for index < N + 1.
  if (P == IndexPredicate::LessEqual || P == IndexPredicate::Greater) {
    if (N == UINT64_MAX)
      return std::nullopt;
    N += 1;
  }
  bool WhenHolds = P == IndexPredicate::Equal || P == IndexPredicate::Less ||
                   P == IndexPredicate::LessEqual;
  std::optional<double> Share = guardedThreadShare(
      Equality ? IndexCompare::Equal : IndexCompare::Less, N, Values);
  if (!Share)
    return std::nullopt;
  return GuardedSide{WhenHolds, *Share, 1 - *Share};
}

std::optional<uint64_t> mixedRadixValues(std::vector<IndexTerm> Terms) {
  llvm::sort(Terms, [](const IndexTerm &A, const IndexTerm &B) {
    return A.Coefficient < B.Coefficient;
  });
  int64_t Next = 1;
  for (const IndexTerm &T : Terms)
    if (!T.Extent || T.Coefficient != Next ||
        llvm::MulOverflow(Next, int64_t(T.Extent), Next))
      return std::nullopt;
  if (Terms.empty())
    return std::nullopt;
  return uint64_t(Next);
}

double lastTicketShare(uint64_t Last) {
  return 1.0 / (static_cast<double>(Last) + 1);
}

double peakOfLiveSpans(llvm::ArrayRef<LiveSpan> Spans) {
  unsigned End = 0;
  for (const LiveSpan &S : Spans)
    End = std::max(End, S.Last + 1);
  std::vector<double> Delta(End + 1, 0);
  for (const LiveSpan &S : Spans) {
    Delta[S.First] += S.Registers;
    Delta[S.Last + 1] -= S.Registers;
  }
  double Current = 0, Peak = 0;
  for (double D : Delta)
    Peak = std::max(Peak, Current += D);
  return Peak;
}

MemSpace nvptxMemSpace(unsigned AddressSpace) {
  switch (AddressSpace) {
  case 1: return MemSpace::Global;
  case 3: return MemSpace::Shared;
  case 4: return MemSpace::Const;
  case 5: return MemSpace::Local;
  case 101: return MemSpace::Param;
  default: return MemSpace::Generic;
  }
}

void countMemoryAccess(KernelFeatures &Out, const MemoryAccess &A, double W,
                       llvm::function_ref<StrideClass()> GlobalClass) {
  Out.max_access_bytes = std::max(Out.max_access_bytes, A.Bytes);
  if (A.Lanes > 1)
    Out.vector_accesses += W;
  auto Count = [&](double &Loads, double &LoadBytes, double &Stores,
                   double &StoreBytes) {
    (A.IsStore ? Stores : Loads) += W;
    (A.IsStore ? StoreBytes : LoadBytes) += W * A.Bytes;
  };
  switch (A.Space) {
  case MemSpace::Global:
    Count(Out.global_loads, Out.global_load_bytes, Out.global_stores,
          Out.global_store_bytes);
    switch (GlobalClass()) {
    case StrideClass::Uniform: Out.global_uniform += W; break;
    case StrideClass::Coalesced: Out.global_coalesced += W; break;
    case StrideClass::Strided: Out.global_strided += W; break;
    case StrideClass::Irregular: Out.global_irregular += W; break;
    }
    return;
  case MemSpace::Shared:
    return Count(Out.shared_loads, Out.shared_load_bytes, Out.shared_stores,
                 Out.shared_store_bytes);
  case MemSpace::Local:
    return Count(Out.local_loads, Out.local_load_bytes, Out.local_stores,
                 Out.local_store_bytes);
  // Constant and parameter space are read-only: every access is a load.
  case MemSpace::Const:
    Out.const_loads += W;
    Out.const_load_bytes += W * A.Bytes;
    return;
  case MemSpace::Param:
    Out.param_loads += W;
    Out.param_load_bytes += W * A.Bytes;
    return;
  case MemSpace::Generic:
    return Count(Out.generic_loads, Out.generic_load_bytes,
                 Out.generic_stores, Out.generic_store_bytes);
  }
}

void DependenceDepth::add(const void *Op, llvm::ArrayRef<const void *> Uses,
                          unsigned Steps) {
  unsigned D = 0;
  for (const void *Used : Uses)
    D = std::max(D, Depth.lookup(Used));
  Depth[Op] = D + Steps;
  Longest = std::max(Longest, D + Steps);
}

//===-- Block footprints --------------------------------------------------===//

namespace {

constexpr double SectorBytes = 32;
/// Beyond this many rows x constants, the union is estimated, not listed.
constexpr double MaxEnumeratedIntervals = 1 << 16;

/// Sorted, disjoint byte intervals [first, second).
using Intervals = std::vector<std::pair<int64_t, int64_t>>;

/// The union of any intervals, as sorted disjoint ones.
Intervals merged(Intervals Spans) {
  llvm::sort(Spans);
  Intervals Out;
  for (auto [Begin, End] : Spans) {
    if (!Out.empty() && Begin <= Out.back().second)
      Out.back().second = std::max(Out.back().second, End);
    else
      Out.push_back({Begin, End});
  }
  return Out;
}

/// The bytes of whole sectors the intervals touch.
double sectorBytesOf(const Intervals &Spans) {
  auto Sector = static_cast<int64_t>(SectorBytes);
  auto Floor = [&](int64_t X) {
    return X >= 0 ? X / Sector : -((-X + Sector - 1) / Sector);
  };
  double Bytes = 0;
  int64_t LastSector = std::numeric_limits<int64_t>::min();
  for (auto [Begin, End] : Spans) {
    int64_t From = std::max(Floor(Begin), LastSector + 1), To = Floor(End - 1);
    if (To >= From)
      Bytes += double(To - From + 1) * SectorBytes;
    LastSector = std::max(LastSector, To);
  }
  return Bytes;
}

} // namespace

double boxFootprintBytes(llvm::ArrayRef<FootprintTerm> Terms,
                         llvm::ArrayRef<int64_t> Offsets,
                         uint64_t AccessBytes) {
  // Equal coefficients merge: e1 and e2 values cover e1 + e2 - 1.
  std::map<int64_t, double> Extents;
  for (const FootprintTerm &T : Terms) {
    double E = std::max(1.0, std::ceil(T.Extent));
    if (T.Coefficient == 0 || E <= 1)
      continue;
    double &Merged =
        Extents.try_emplace(std::llabs(T.Coefficient), 1.0).first->second;
    Merged += E - 1;
  }
  // Smallest coefficients first: while one does not exceed the contiguous
  // run, it extends the run; the rest repeat the run (rows).
  double Run = double(AccessBytes);
  std::vector<std::pair<int64_t, double>> Rows;
  for (auto [C, E] : Extents) {
    if (Rows.empty() && double(C) <= Run)
      Run += double(C) * (E - 1);
    else
      Rows.push_back({C, E});
  }
  auto Length = static_cast<int64_t>(Run);
  Intervals Spans;
  for (int64_t O : Offsets)
    Spans.push_back({O, O + Length});
  if (Spans.empty())
    Spans.push_back({0, Length});
  Spans = merged(std::move(Spans));
  // Rows, smallest first, copy the union so far; listed while the copies
  // are few, else counted: Copies disjoint copies of Spans, spanning Width.
  double Copies = 1;
  double Width = double(Spans.back().second - Spans.front().first);
  for (auto [C, E] : Rows) {
    if (Copies == 1 && double(Spans.size()) * E <= MaxEnumeratedIntervals) {
      Intervals Copied;
      Copied.reserve(Spans.size() * size_t(E));
      for (auto [Begin, End] : Spans)
        for (int64_t K = 0; K < int64_t(E); ++K)
          Copied.push_back({Begin + K * C, End + K * C});
      Spans = merged(std::move(Copied));
      Width = double(Spans.back().second - Spans.front().first);
      continue;
    }
    // Too many to list: E copies, C apart, of a union Width wide cover
    // E - 1 + ceil(Width / C) periods of C bytes, each holding what the
    // union covers modulo C.
    if (Copies == 1) {
      Intervals Folded;
      for (auto [Begin, End] : Spans) {
        if (End - Begin >= C) {
          Folded = {{0, C}};
          break;
        }
        int64_t From = ((Begin % C) + C) % C, To = From + (End - Begin);
        Folded.push_back({From, std::min(To, C)});
        if (To > C)
          Folded.push_back({0, To - C});
      }
      Spans = merged(std::move(Folded));
    }
    Copies *= E - 1 + std::ceil(Width / double(C));
    Width += double(C) * (E - 1);
  }
  return Copies * sectorBytesOf(Spans);
}

/// The sector bytes one warp's access moves, per thread of the warp: each
/// thread reads AccessBytes at Constant + its offset from an address taken
/// to be sector-aligned (allocations are 256-byte aligned; the uniform part
/// of an index is taken to keep that).
double sectorBytesPerWarpThread(llvm::ArrayRef<int64_t> Offsets,
                                int64_t Constant, uint64_t AccessBytes) {
  if (Offsets.empty())
    return 0;
  Intervals Spans;
  for (int64_t Offset : Offsets)
    Spans.push_back({Constant + Offset,
                     Constant + Offset + int64_t(AccessBytes)});
  return sectorBytesOf(merged(std::move(Spans))) / double(Offsets.size());
}

FootprintGroups::FootprintGroups(std::array<unsigned, 3> Block,
                                 std::array<uint64_t, 3> Grid)
    : Block(Block), Grid(Grid) {}

unsigned FootprintGroups::threads() const {
  return Block[0] * Block[1] * Block[2];
}

void FootprintGroups::add(FootprintAccess A) {
  std::vector<int64_t> Key = std::move(A.Identity);
  Key.push_back(int64_t(A.AccessBytes));
  // Loads and stores apart: a sector read and written moves twice, DRAM
  // reads it and writes it back (saxpy's y += a x: 12 bytes a thread, not 8).
  Key.push_back(A.IsStore);
  for (const FootprintTerm &T : A.Terms) {
    Key.push_back(T.Coefficient);
    Key.push_back(int64_t(std::ceil(T.Extent)));
    Key.push_back(T.Outermost);
  }
  if (A.PerThread) // accesses that spread the threads alike share a group
    Key.push_back(int64_t(llvm::hash_combine_range(A.PerThread->begin(),
                                                   A.PerThread->end())));
  auto [It, New] = Groups.try_emplace(std::move(Key));
  Group &Into = It->second;
  if (New) {
    Into.Terms = A.Terms;
    Into.AccessBytes = A.AccessBytes;
    Into.BlockAxes = A.BlockAxes;
    Into.IsStore = A.IsStore;
    // A launch with one block along an axis has no neighbour there.
    for (unsigned Axis = 0; Axis < 3; ++Axis)
      Into.BlockShift[Axis] = Grid[Axis] == 1 ? 0 : A.BlockShift[Axis];
  }
  if (A.PerThread)
    for (int64_t Offset : *A.PerThread)
      Into.Offsets.push_back(A.Constant + Offset);
  else
    Into.Offsets.push_back(A.Constant);
  Into.Executions += A.Executions;
  Accessed += A.Executions * double(A.AccessBytes);
  // The first warp's offsets (x fastest), relative to thread 0's address.
  std::vector<int64_t> WarpOffsets;
  for (unsigned T = 0; T < std::min(WarpThreads, threads()); ++T) {
    if (A.PerThread) {
      WarpOffsets.push_back((*A.PerThread)[T]);
      continue;
    }
    unsigned X = T % Block[0], Y = (T / Block[0]) % Block[1],
             Z = T / (Block[0] * Block[1]);
    WarpOffsets.push_back(A.ThreadStride[0] * X + A.ThreadStride[1] * Y +
                          A.ThreadStride[2] * Z);
  }
  double Sectors = A.Executions * sectorBytesPerWarpThread(
                                      WarpOffsets, A.Constant, A.AccessBytes);
  WarpSectorBytes += Sectors;
  if (A.IsStore)
    StoreWarpSectorBytes += Sectors;
}

/// A block's share of the union of a group's boxes over a tiling of the
/// grid, the box of one block at Offsets moved by Shift per block along
/// each axis. Along one axis, a run of K blocks covers U(K) = K x share +
/// halo: share = (U(K) - U(1)) / (K - 1), with K long enough that the run
/// crosses a sector (blocks 4 bytes apart share a sector 8 at a time).
/// Along several, the same differences taken on each: the sum over the
/// axis subsets T of (-1)^(axes - |T|) x U(runs along T) over the product
/// of the K - 1. Boxes (L_a + halo_a) wide give the product of the L_a.
static double tiledBoxBytes(llvm::ArrayRef<FootprintTerm> Terms,
                            llvm::ArrayRef<int64_t> Offsets,
                            uint64_t AccessBytes,
                            const std::array<int64_t, 3> &Shift) {
  constexpr int64_t MaxRun = 9; // 1 + a sector over 4-byte moves
  unsigned Moving = 0;
  std::array<int64_t, 3> Run = {1, 1, 1};
  double Divisor = 1;
  for (unsigned A = 0; A < 3; ++A) {
    if (Shift[A] == 0)
      continue;
    Moving |= 1u << A;
    int64_t Move = std::llabs(Shift[A]);
    Run[A] =
        Move >= int64_t(SectorBytes)
            ? 2
            : std::min(MaxRun, 1 + (int64_t(SectorBytes) + Move - 1) / Move);
    Divisor *= double(Run[A] - 1);
  }
  auto Union = [&](unsigned Axes) {
    std::vector<int64_t> Moved(Offsets.begin(), Offsets.end());
    for (unsigned A = 0; A < 3; ++A) {
      if (!(Axes & (1u << A)))
        continue;
      size_t One = Moved.size();
      for (int64_t K = 1; K < Run[A]; ++K)
        for (size_t I = 0; I < One; ++I)
          Moved.push_back(Moved[I] + K * Shift[A]);
    }
    return boxFootprintBytes(Terms, Moved, AccessBytes);
  };
  double Own = Union(0);
  double Share = 0;
  for (unsigned Axes = Moving;; Axes = (Axes - 1) & Moving) {
    bool Odd = (llvm::popcount(Moving) - llvm::popcount(Axes)) % 2;
    Share += (Odd ? -1 : 1) * Union(Axes);
    if (Axes == 0)
      break;
  }
  return std::clamp(Share / Divisor, 0.0, Own);
}

double FootprintGroups::sumOverGroups(bool OneOutermostIteration,
                                      std::optional<unsigned> OnlyBlockAxes,
                                      bool Tiled) const {
  double Threads = double(Block[0]) * Block[1] * Block[2];
  std::vector<double> PerGroup;
  for (const auto &[Key, G] : Groups) {
    if (OnlyBlockAxes && G.BlockAxes != *OnlyBlockAxes)
      continue;
    std::vector<FootprintTerm> Terms;
    double Iterations = 1;
    for (const FootprintTerm &T : G.Terms) {
      if (OneOutermostIteration && T.Outermost)
        Iterations = std::max(1.0, T.Extent);
      else
        Terms.push_back(T);
    }
    double Box =
        Tiled && !G.IsStore
            ? tiledBoxBytes(Terms, G.Offsets, G.AccessBytes, G.BlockShift)
            : boxFootprintBytes(Terms, G.Offsets, G.AccessBytes);
    // Never more than one sector per access.
    double Most = G.Executions / Iterations * Threads *
                  std::ceil(double(G.AccessBytes) / SectorBytes) * SectorBytes;
    PerGroup.push_back(std::min(Box, Most));
  }
  // Summed in a fixed order: the groups' order follows the adapters'
  // identities (pointer values).
  llvm::sort(PerGroup);
  double Sum = 0;
  for (double B : PerGroup)
    Sum += B;
  return Sum;
}

double FootprintGroups::sectorBytes() const { return sumOverGroups(false); }

double FootprintGroups::workingSetBytes() const { return sumOverGroups(true); }

double FootprintGroups::tiledBytes() const {
  return sumOverGroups(false, std::nullopt, /*Tiled=*/true);
}

FootprintGroups::SharedAcrossBlocks
FootprintGroups::sharedAcrossBlocks() const {
  constexpr unsigned X = 0b001, Y = 0b010;
  SharedAcrossBlocks S;
  S.Row = sumOverGroups(false, Y);
  S.Column = sumOverGroups(false, X);
  S.Grid = sumOverGroups(false, 0u);
  return S;
}

void FootprintGroups::setFeatures(KernelFeatures &Out) const {
  double Threads = double(threads());
  Out.global_footprint_bytes = sectorBytes() / Threads;
  Out.global_footprint_accessed_bytes = accessedBytesPerThread();
  Out.global_warp_sector_bytes = warpSectorBytesPerThread();
  Out.global_store_warp_sector_bytes = storeWarpSectorBytesPerThread();
  Out.global_working_set_bytes = workingSetBytes() / Threads;
  SharedAcrossBlocks Shared = sharedAcrossBlocks();
  Out.global_footprint_row_shared_bytes = Shared.Row / Threads;
  Out.global_footprint_column_shared_bytes = Shared.Column / Threads;
  Out.global_footprint_grid_shared_bytes = Shared.Grid / Threads;
  Out.global_footprint_tiled_bytes = tiledBytes() / Threads;
}

} // namespace energy
